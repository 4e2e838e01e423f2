//! The request as a curl command, for the review's `c` and `appdeck report --curl`. The token is
//! read from `$APPDECK_TOKEN` when the command runs: it is never in the text.

use crate::api::Operation;

/// `curl` posting `body`, the JSON text as it is sent, to `operation` under `base_url`, ready to
/// paste into a POSIX shell.
pub fn command(base_url: &str, operation: Operation, body: &str) -> String {
    let url = format!("{}/{}", base_url.trim_end_matches('/'), operation.path());
    format!(
        "curl -sS -X POST {} -H \"Authorization: Bearer $APPDECK_TOKEN\" \
         -H 'Content-Type: application/json' -H 'Accept: application/json' --data-binary {}",
        quote(&url),
        quote(body)
    )
}

/// Single-quoted for a POSIX shell: nothing inside is expanded; `'` is written `'\''`.
pub fn quote(text: &str) -> String {
    format!("'{}'", text.replace('\'', r"'\''"))
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn quotes_the_body_and_reads_the_token_from_the_environment() {
        let body = json!({"message": "it's $HOME `x`"});
        let line = command(
            "http://h:1/api/v1/",
            Operation::OperationsReport,
            &body.to_string(),
        );
        assert_eq!(
            line,
            "curl -sS -X POST 'http://h:1/api/v1/apps.operations.report' \
             -H \"Authorization: Bearer $APPDECK_TOKEN\" -H 'Content-Type: application/json' \
             -H 'Accept: application/json' --data-binary '{\"message\":\"it'\\''s $HOME `x`\"}'"
        );
    }
}
