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
    /// empty when the body says nothing, and then the status line stands alone.
    #[error("HTTP {status}{}{}", reason_suffix(.reason), message_suffix(.message))]
    Http {
        status: u16,
        reason: String,
        message: String,
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
    /// An answer larger than the configured cap (bytes); reading stopped there.
    #[error(
        "the answer is larger than the {} limit; stopped reading it (raise `max_response_mib` in the profile if it is expected)",
        describe_bytes(*.0)
    )]
    TooLarge(u64),
    /// A request appdeck could not even build (bad base URL and the like).
    #[error("invalid request: {0}")]
    Invalid(String),
}

/// `64 MiB`, or a byte count when it is not a whole number of MiB.
fn describe_bytes(bytes: u64) -> String {
    const MIB: u64 = 1024 * 1024;
    if bytes.is_multiple_of(MIB) {
        format!("{} MiB", bytes / MIB)
    } else {
        format!("{bytes}-byte")
    }
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
    pub fn http_status(&self) -> Option<u16> {
        match self {
            ApiError::Http { status, .. } => Some(*status),
            _ => None,
        }
    }

    /// A hint for the commonest causes, shown under the message.
    pub fn hint(&self) -> Option<&'static str> {
        match self {
            ApiError::Http {
                status: 401 | 403, ..
            } => Some("check the token (APPDECK_TOKEN, --token-file or the profile's token)"),
            ApiError::Network(_) => Some("check the base URL and that the service is running"),
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
}
