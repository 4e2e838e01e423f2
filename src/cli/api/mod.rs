//! `appdeck api OPERATION [BODY|@FILE|-]`: posts a JSON body to any operation of the service
//! (the spec says there are others it does not show), with the profile's base URL and token, and
//! prints the answer as it came, as `gh api` does. Never retried: it may be a write.

mod request;

use std::io::{IsTerminal, Write};

use super::Failure;
use super::args::{ApiArgs, GlobalArgs};
use super::shape::jq::JqError;
use crate::api::ApiError;
use crate::api::client::redact_url;
use crate::api::error::status_line;
use crate::sanitize;
use request::Body;

pub async fn run(global: &GlobalArgs, args: &ApiArgs) -> Result<(), Failure> {
    let jq = super::shape::compile_jq(args.jq.as_deref())?;
    let headers = request::headers(&args.headers)?;
    let body = Body::from_args(args)?;
    if args.paginate && request::with_next(&body.text, "").is_none() {
        return Err(Failure::Usage(format!(
            "--paginate sends the answer's `next` cursor in the body, and {} is not an object",
            body.name
        )));
    }
    let configured = super::configured(global)?;
    if let Some(read_only) = &configured.read_only
        && args.operation != crate::api::Operation::ResourcesList.path()
    {
        return Err(Failure::Usage(format!(
            "{read_only}: {} not sent (appdeck cannot tell a read from a write among the \
             operations it does not know, so a read-only profile or --read-only allows \
             resources.list only)",
            args.operation
        )));
    }
    let client = super::client(&configured.settings, global)?;
    let terminal = std::io::stdout().is_terminal();
    let mut text = body.text;
    // The rules `list` pages by: no cursor twice, no endless run of empty pages.
    let mut trail = crate::api::CursorTrail::default();
    let (mut pages, mut jq_failed) = (0_u64, 0_u64);
    loop {
        pages += 1;
        let answer = client
            .post_bytes_with(&args.operation, text.clone().into_bytes(), headers.clone())
            .await?;
        if !answer.status.is_success() {
            let mut err = std::io::stderr().lock();
            writeln!(
                err,
                "appdeck: POST {}: {}",
                sanitize::line(&redact_url(&answer.url)),
                status_line(answer.status)
            )?;
            if !answer.body.is_empty() {
                let text = String::from_utf8_lossy(&answer.body);
                writeln!(err, "{}", sanitize::multiline(text.trim_end()))?;
            }
            return Err(Failure::Reported(1));
        }
        not_json(&answer.body).map_or(Ok(()), |error| Err(Failure::Api(error)))?;
        let mut out = crate::cli::stdout::out();
        match &jq {
            Some(jq) => match jq.run(&answer.body, &mut out) {
                Ok(()) => {}
                Err(JqError::Output(e)) => return Err(Failure::Output(e)),
                // On the data, not the expression: said, and the pages after it still printed,
                // as `list --jq` goes on past a resource it fails on.
                Err(error) => {
                    jq_failed += 1;
                    out.flush()?;
                    let page = match args.paginate {
                        true => format!("page {pages}: "),
                        false => String::new(),
                    };
                    writeln!(
                        std::io::stderr().lock(),
                        "appdeck: {page}{}",
                        sanitize::line(&error.to_string())
                    )?;
                }
            },
            // Each page on its own line(s), so that pages never run together.
            None => write_as_it_came(&answer.body, terminal || args.paginate, &mut out)?,
        }
        out.flush()?;
        let cursor = match args.paginate {
            true => request::next_cursor(&answer.body),
            false => None,
        };
        let Some(cursor) = cursor else {
            return match jq_failed {
                0 => Ok(()),
                _ => Err(Failure::Reported(super::list::JQ_FAILED)),
            };
        };
        trail
            .accept(&cursor, request::items_received(&answer.body))
            .map_err(Failure::Api)?;
        text = request::with_next(&text, &cursor).unwrap_or_default();
    }
}

/// Why a 2xx answer's body is not JSON, if it is not (an empty body, as a 204 has, is nothing
/// to print): such an answer is as bad as an error status, and what a proxy's page holds (an
/// escape sequence, say) must not reach a terminal through `| cat` with exit status 0.
fn not_json(body: &[u8]) -> Option<ApiError> {
    if body.iter().all(u8::is_ascii_whitespace) {
        return None;
    }
    match serde_json::from_slice::<serde::de::IgnoredAny>(body) {
        Ok(_) => None,
        // Valid JSON nested deeper than the parser reads: written as it came all the same.
        Err(e) if crate::api::page::beyond_parser(&e).is_some() => None,
        Err(e) => Some(ApiError::Decode {
            problem: format!("not JSON ({e})"),
            excerpt: sanitize::excerpt(body, 80),
        }),
    }
}

/// A JSON answer's bytes as they came: only DEL, C1 controls and bidi marks inside strings
/// become `\u` escapes (the same data, safe to print; JSON has C0 controls escaped already). A
/// terminal (and each page of `--paginate`) gets a final newline if it has none.
fn write_as_it_came(body: &[u8], terminal: bool, out: &mut impl Write) -> std::io::Result<()> {
    let text = String::from_utf8_lossy(body);
    out.write_all(sanitize::json_for_terminal(&text).as_bytes())?;
    if terminal && !body.ends_with(b"\n") {
        out.write_all(b"\n")?;
    }
    Ok(())
}

/// An operation is one path segment: `/`, `?`, `#`, `%`, `\` or `..` would reach another URL
/// than `{base_url}/OPERATION`.
pub fn parse_operation(text: &str) -> Result<String, String> {
    if text.is_empty() {
        return Err("an operation must not be empty (e.g. resources.list)".to_owned());
    }
    let refused = ['/', '?', '#', '%', '\\'];
    if let Some(c) = text.chars().find(|c| refused.contains(c)) {
        return Err(format!(
            "an operation is one name such as resources.list; `{c}` would send the request \
             elsewhere than {{base_url}}/OPERATION"
        ));
    }
    if text == "." {
        return Err(
            "`.` is no operation: {base_url}/. is the base URL itself (name one, such as \
             resources.list)"
                .to_owned(),
        );
    }
    if text.contains("..") {
        return Err("an operation must not contain `..`".to_owned());
    }
    if text.chars().any(|c| c.is_whitespace() || c.is_control()) {
        return Err("an operation must not contain spaces or control characters".to_owned());
    }
    Ok(text.to_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_operation_is_one_path_segment() {
        for ok in ["resources.list", "apps.operations.report", "x-y_z.1"] {
            assert_eq!(parse_operation(ok).as_deref(), Ok(ok));
        }
        for bad in [
            "", ".", "a/b", "/x", "x?y=1", "x#y", "..", "a..b", "%2e%2e", "a\\b", "a b", "a\u{1b}",
        ] {
            assert!(parse_operation(bad).is_err(), "{bad:?}");
        }
    }

    #[test]
    fn the_answer_is_written_as_it_came_and_safe_on_a_terminal() {
        let json = "{\"b\": 1.50, \"a\": 1E400, \"s\": \"x\u{9b}y\", \"e\": \"\\u001b[2J\"}";
        assert!(not_json(json.as_bytes()).is_none());
        let mut out = Vec::new();
        write_as_it_came(json.as_bytes(), false, &mut out).unwrap();
        assert_eq!(
            String::from_utf8(out).unwrap(),
            "{\"b\": 1.50, \"a\": 1E400, \"s\": \"x\\u009by\", \"e\": \"\\u001b[2J\"}"
        );
        let deep = format!("{}{}", "[".repeat(200), "]".repeat(200));
        assert!(
            not_json(deep.as_bytes()).is_none(),
            "JSON too deep to parse is JSON"
        );
        assert!(not_json(b" \n").is_none(), "nothing to print");
    }

    /// A 200 answer that is not JSON (a proxy's page) is a bad answer, said with an excerpt
    /// safe to print: it was written to a pipe as it came, escape sequences and all, exit 0.
    #[test]
    fn an_answer_that_is_not_json_is_an_error() {
        let html = b"<p>\x1b]52;c;aGk=\x07\x1b[2Jbusy</p>\n";
        let error = not_json(html).expect("not JSON").to_string();
        assert!(error.starts_with("unreadable answer: not JSON"), "{error}");
        assert!(error.contains("<p>␛]52;c;aGk=␇␛[2Jbusy</p>"), "{error}");
    }
}
