//! What came of one report sent, in the words `appdeck report --each` prints after a line's
//! number and the TUI's `R` over marked rows after a resource's id, so that both read alike:
//! `HTTP 200, status ok`, `HTTP 503 Service Unavailable: busy` (an error that names its status
//! says it once), `no answer: cannot connect`.

use crate::sanitize;

/// The answer in a few words, safe to print: the HTTP status and the answer's `status` (as
/// printed), then the error when there is one.
pub fn answer_words(http_status: Option<u16>, status: Option<&str>, error: Option<&str>) -> String {
    let error = error.map(sanitize::line);
    let answered = match http_status {
        Some(code) if error.as_deref().is_some_and(|e| names_status(e, code)) => None,
        Some(code) => Some(match status {
            Some(status) => format!("HTTP {code}, status {}", sanitize::line(status)),
            None => format!("HTTP {code}"),
        }),
        None => Some("no answer".to_owned()),
    };
    let said: Vec<String> = (answered.into_iter())
        .chain(error.map(|e| e.into_owned()))
        .collect();
    said.join(": ")
}

/// Whether `error` starts by naming the HTTP status `code` (`HTTP 503`, `HTTP 503 …`).
fn names_status(error: &str, code: u16) -> bool {
    error
        .strip_prefix(&format!("HTTP {code}"))
        .is_some_and(|rest| rest.is_empty() || rest.starts_with([' ', ':']))
}

#[cfg(test)]
mod tests {
    use super::answer_words;

    #[test]
    fn an_answer_reads_as_one_safe_line_with_its_status_said_once() {
        assert_eq!(
            answer_words(Some(200), Some("ok"), None),
            "HTTP 200, status ok"
        );
        assert_eq!(answer_words(Some(200), None, None), "HTTP 200");
        assert_eq!(
            answer_words(Some(503), None, Some("HTTP 503 Service Unavailable: busy")),
            "HTTP 503 Service Unavailable: busy"
        );
        assert_eq!(
            answer_words(Some(5030), None, Some("HTTP 503 x")),
            "HTTP 5030: HTTP 503 x",
            "another status is not this one"
        );
        assert_eq!(
            answer_words(None, None, Some("cannot\nconnect")),
            "no answer: cannot␊connect"
        );
        assert_eq!(
            answer_words(Some(200), Some("error"), Some("bad \u{1b}[2J")),
            "HTTP 200, status error: bad ␛[2J"
        );
    }
}
