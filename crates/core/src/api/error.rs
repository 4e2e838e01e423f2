//! What can go wrong talking to the service, in terms a user can act on.

use std::time::Duration;

/// An error from one API call or from following a listing's cursors.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ApiError {
    /// The service could not be reached (refused, DNS, TLS, connection dropped).
    #[error("network error: {0}")]
    Network(String),
    /// No answer within the configured time.
    #[error("timed out after {}s waiting for the service", .0.as_secs_f64())]
    Timeout(Duration),
    /// A non-2xx answer. `message` is the body's `error`, else `message`, else a short excerpt;
    /// empty when the body says nothing, and then the status line stands alone. `request` is the
    /// request and the start of the answer, for a view of the error in full.
    #[error("HTTP {status}{}{}", reason_suffix(.reason), message_suffix(.message))]
    Http {
        status: u16,
        reason: String,
        message: String,
        request: Box<FailedRequest>,
    },
    /// A 2xx answer whose body says `status: "error"`.
    #[error("the service answered with an error: {0}")]
    Rejected(String),
    /// A body appdeck cannot read (not JSON, or not the expected shape). `excerpt` may be empty
    /// (an empty body), and then it is not mentioned.
    #[error("unreadable answer: {problem}{}", excerpt_suffix(.excerpt))]
    Decode { problem: String, excerpt: String },
    /// The server handed out a cursor already used in the same listing: following it would loop.
    #[error(
        "server fault: the cursor {0:?} was already used in this listing; stopped to avoid a loop"
    )]
    RepeatedCursor(String),
    /// The service sent this many empty pages in a row, each with a new `next`: a listing that
    /// makes no progress, which could otherwise be followed for ever.
    #[error(
        "server fault: {0} empty pages in a row, each with a new cursor; stopped, as the listing makes no progress"
    )]
    EmptyPages(usize),
    /// An answer larger than the configured cap (bytes); reading stopped there.
    #[error(
        "the answer is larger than the {} limit; stopped reading it (raise `max_response_mib` in the profile if it is expected)",
        describe_bytes(*.0)
    )]
    TooLarge(u64),
    /// A body larger than the profile's `max_request_mib`: refused before anything was sent.
    #[error(
        "the request body is {}, more than the {} limit; nothing was sent (raise `max_request_mib` in the profile if the service takes bodies this large)",
        describe_size(*.size),
        describe_bytes(*.limit)
    )]
    RequestTooLarge { size: u64, limit: u64 },
    /// Writing the body failed part way: the server stopped reading it and closed the
    /// connection, most often because it refuses a body of that size (and may have answered
    /// so, an answer the HTTP client does not read once its write failed).
    #[error(
        "request to {url} failed while sending its {} body: {cause}; the server closed the connection before reading it all, most likely because it refuses a body this large (the profile's `max_request_mib`, now {}, is the largest body appdeck sends)",
        describe_size(*.size),
        describe_bytes(*.limit)
    )]
    WriteFailed {
        url: String,
        size: u64,
        limit: u64,
        cause: String,
    },
    /// The connection closed before the whole answer came: the bytes received so far.
    #[error("the answer was cut off after {0} bytes: the connection closed before its end")]
    CutOff(usize),
    /// A send held back before it went out, and why: nothing reached the service (the store
    /// could not mark the draft as being sent, and the user is asked first).
    #[error("not sent: {0}")]
    NotSent(String),
    /// A request appdeck could not even build (bad base URL and the like).
    #[error("invalid request: {0}")]
    Invalid(String),
}

/// `64 MiB`, or a byte count when it is not a whole number of MiB: the size of a cap, in
/// "the … limit" (the caps on answers and on the files appdeck reads).
pub fn describe_bytes(bytes: u64) -> String {
    const MIB: u64 = 1024 * 1024;
    if bytes.is_multiple_of(MIB) {
        format!("{} MiB", bytes / MIB)
    } else {
        format!("{bytes}-byte")
    }
}

/// A body's size for a message: `9.0 MiB`, or bytes below 1 MiB.
pub(crate) fn describe_size(bytes: u64) -> String {
    const MIB: u64 = 1024 * 1024;
    if bytes < MIB {
        format!("{bytes}-byte")
    } else {
        format!("{:.1} MiB", bytes as f64 / MIB as f64)
    }
}

/// One request and the start of its answer, as a user may see them: the URL with any credentials
/// masked (the token travels in a header and is never part of it) and the body neutralised.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct FailedRequest {
    /// `POST` for every operation of the service.
    pub method: String,
    /// The operation's URL, credentials masked.
    pub url: String,
    /// The first characters of the answer's body, sanitised for one line; empty for no body.
    pub body_start: String,
}

impl FailedRequest {
    /// Whether the request went to the API root's own operation path: the base URL ends in
    /// `/api/v1`, as the spec's operations are `POST /api/v1/<operation>`.
    fn base_url_ends_in_api_v1(&self) -> bool {
        let url = self.url.split(['?', '#']).next().unwrap_or_default();
        url.rsplit_once('/')
            .is_some_and(|(base, _operation)| base.ends_with(API_ROOT_SUFFIX))
    }
}

/// How the API root of the service ends.
pub(crate) const API_ROOT_SUFFIX: &str = "/api/v1";

/// `HTTP 404 Not Found`, or `HTTP 599` for a status without a reason: as an HTTP error begins.
pub fn status_line(status: reqwest::StatusCode) -> String {
    let reason = status.canonical_reason().unwrap_or_default();
    format!("HTTP {}{}", status.as_u16(), reason_suffix(reason))
}

fn reason_suffix(reason: &str) -> String {
    if reason.is_empty() {
        String::new()
    } else {
        format!(" {reason}")
    }
}

fn message_suffix(message: &str) -> String {
    if message.is_empty() {
        String::new()
    } else {
        format!(": {message}")
    }
}

fn excerpt_suffix(excerpt: &str) -> String {
    if excerpt.is_empty() {
        String::new()
    } else {
        format!(" (body starts: {excerpt})")
    }
}

impl ApiError {
    /// The HTTP status of an error status; `None` when no answer came.
    pub(crate) fn http_status(&self) -> Option<u16> {
        match self {
            ApiError::Http { status, .. } => Some(*status),
            _ => None,
        }
    }

    /// What the service's answer said, when this error came with one: the start of an error
    /// status's body, or the excerpt of an unreadable body (both sanitised); for the history.
    pub fn answer_excerpt(&self) -> Option<&str> {
        let text = match self {
            ApiError::Http { request, .. } => request.body_start.as_str(),
            ApiError::Decode { excerpt, .. } => excerpt.as_str(),
            _ => return None,
        };
        (!text.is_empty()).then_some(text)
    }

    /// A hint for the commonest causes, shown under the message.
    pub fn hint(&self) -> Option<&'static str> {
        match self {
            ApiError::Http {
                status: 401 | 403, ..
            } => Some("check the token (APPDECK_TOKEN, --token-file or the profile's token)"),
            // The service answers 404 for an unknown resource too; only a base URL that is not
            // the API root makes every operation a 404.
            ApiError::Http {
                status: 404,
                request,
                ..
            } if !request.base_url_ends_in_api_v1() => Some(
                "the base URL must be the service's API root, ending in /api/v1 \
                 (e.g. http://127.0.0.1:8080/api/v1)",
            ),
            // Refused, unresolved, TLS: nothing answered at that address.
            ApiError::Network(message) if message.starts_with("cannot connect") => {
                Some("check the base URL and that the service is running")
            }
            // Connected, then reset, closed or answered with what is not HTTP: the address is
            // right. Said alike in the TUI and the CLI (whose `--retries` its own error names).
            ApiError::Network(_) => Some(
                "the connection was made, then reset, closed or answered with what is not HTTP, \
                 by the service or a proxy on the way; retry",
            ),
            ApiError::WriteFailed { .. } => {
                Some("send a smaller body, or ask the service's operators for its size limit")
            }
            ApiError::CutOff(_) => {
                Some("the service, or a proxy on the way, closed the connection mid-answer; retry")
            }
            ApiError::Timeout(_) => {
                Some("the service is slow or unreachable; retry, or raise --timeout")
            }
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn empty_parts_leave_no_dangling_punctuation() {
        let http = |reason: &str, message: &str| ApiError::Http {
            status: 502,
            reason: reason.to_owned(),
            message: message.to_owned(),
            request: Box::default(),
        };
        assert_eq!(http("Bad Gateway", "").to_string(), "HTTP 502 Bad Gateway");
        assert_eq!(http("", "").to_string(), "HTTP 502");
        assert_eq!(http("", "down").to_string(), "HTTP 502: down");
        let decode = |excerpt: &str| ApiError::Decode {
            problem: "not JSON".to_owned(),
            excerpt: excerpt.to_owned(),
        };
        assert_eq!(decode("").to_string(), "unreadable answer: not JSON");
        assert_eq!(
            decode("<html>").to_string(),
            "unreadable answer: not JSON (body starts: <html>)"
        );
    }

    /// Issue 35 item 9: after a reset the hint said "check the base URL", which was right.
    #[test]
    fn a_reset_hints_at_a_retry_and_a_refusal_at_the_base_url() {
        let refused = ApiError::Network("cannot connect to http://h/api/v1: refused".into());
        assert!(refused.hint().unwrap().contains("check the base URL"));
        let reset = ApiError::Network("request to http://h/api/v1 failed: reset".into());
        let hint = reset.hint().unwrap();
        assert!(
            !hint.contains("base URL") && hint.contains("retry"),
            "{hint}"
        );
    }

    #[test]
    fn a_404_hints_at_the_api_root_only_when_the_base_url_is_not_one() {
        let not_found = |url: &str| ApiError::Http {
            status: 404,
            reason: "Not Found".to_owned(),
            message: String::new(),
            request: Box::new(FailedRequest {
                method: "POST".to_owned(),
                url: url.to_owned(),
                body_start: String::new(),
            }),
        };
        for wrong in [
            "http://127.0.0.1:8080/resources.list",
            "http://127.0.0.1:8080/api/resources.list",
            "http://h/api/v1/api/v2/apps.operations.report",
        ] {
            let hint = not_found(wrong).hint().unwrap_or_default();
            assert!(hint.contains("ending in /api/v1"), "{wrong}: {hint:?}");
        }
        // A report naming an unknown resource id is a 404 from the right place.
        assert_eq!(
            not_found("https://h/x/api/v1/apps.operations.report").hint(),
            None
        );
    }
}
