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
    /// A non-2xx answer. `message` is the body's `error`, else `message`, else a short excerpt.
    #[error("HTTP {status}{}: {message}", reason_suffix(.reason))]
    Http {
        status: u16,
        reason: String,
        message: String,
    },
    /// A 2xx answer whose body says `status: "error"`.
    #[error("the service answered with an error: {0}")]
    Rejected(String),
    /// A body appdeck cannot read (not JSON, or not the expected shape).
    #[error("unreadable answer: {problem} (body starts: {excerpt})")]
    Decode { problem: String, excerpt: String },
    /// The server handed out a cursor already used in the same listing: following it would loop.
    #[error(
        "server fault: the cursor {0:?} was already used in this listing; stopped to avoid a loop"
    )]
    RepeatedCursor(String),
    /// A request appdeck could not even build (bad base URL and the like).
    #[error("invalid request: {0}")]
    Invalid(String),
}

fn reason_suffix(reason: &str) -> String {
    if reason.is_empty() {
        String::new()
    } else {
        format!(" {reason}")
    }
}

impl ApiError {
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
