//! The request as a curl command, for the review's `c` and `appdeck report --curl`. The token is
//! read from `$APPDECK_TOKEN` when the command runs: it is never in the text.

use std::fmt::Write;

use crate::api::Operation;
use crate::sanitize;

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

/// Single-quoted for a POSIX shell: nothing inside is expanded; `'` is written `'\''`. Text that
/// [`sanitize::holds_control`] finds is quoted `$'…'` instead (bash, zsh, ksh, busybox sh and
/// POSIX.1-2024), each such character as the `\xHH` escapes of its bytes: the command keeps the
/// exact bytes, while its text holds nothing a terminal or a pasting shell would act on.
pub fn quote(text: &str) -> String {
    if !sanitize::holds_control(text) {
        return format!("'{}'", text.replace('\'', r"'\''"));
    }
    let mut out = String::with_capacity(text.len() + 8);
    out.push_str("$'");
    for c in text.chars() {
        match c {
            '\\' => out.push_str(r"\\"),
            '\'' => out.push_str(r"\'"),
            '\n' | '\t' => out.push(c),
            c if sanitize::is_dangerous(c) => {
                for byte in c.encode_utf8(&mut [0; 4]).bytes() {
                    let _ = write!(out, "\\x{byte:02x}");
                }
            }
            c => out.push(c),
        }
    }
    out.push('\'');
    out
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

    #[test]
    fn text_with_controls_is_quoted_with_escapes_and_the_shell_reads_it_back_exactly() {
        let body = json!({"name": "innocent\u{1b}[201~\necho PWNED\n\u{9b}\u{202e}it's \\ \r"})
            .to_string();
        let line = command("http://h:1/api/v1", Operation::OperationsReport, &body);
        assert!(!sanitize::holds_control(&line), "{line:?}");
        let quoted = quote("a\u{1b}[201~\nb'c\\d\r\u{9b}\u{202e}\te");
        assert_eq!(
            quoted,
            "$'a\\x1b[201~\nb\\'c\\\\d\\x0d\\xc2\\x9b\\xe2\\x80\\xae\te'"
        );
        // What bash makes of it is the text itself, byte for byte.
        for text in ["a\u{1b}[201~\nb'c\\d\r\u{9b}\u{202e}\te", &body] {
            let Ok(echoed) = std::process::Command::new("bash")
                .args(["-c", &format!("printf %s {}", quote(text))])
                .output()
            else {
                return; // no bash here: the literal above still holds
            };
            assert_eq!(String::from_utf8(echoed.stdout).unwrap(), text);
        }
    }
}
