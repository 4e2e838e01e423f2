//! Retrying a read (`resources.list`): on 429, 502, 503 and 504, a connection refused, reset or
//! closed before the answer, and a time-out, with exponential backoff and jitter, honouring the
//! server's `Retry-After` (seconds or an HTTP date). Writes are never retried here: a report
//! sent twice is two reports.

use std::sync::Arc;
use std::time::{Duration, SystemTime};

use super::error::ApiError;

/// The longest wait a `Retry-After` is honoured with; a longer one is cut to this (and said).
pub(crate) const MAX_WAIT: Duration = Duration::from_secs(120);

/// What a retry says before it waits: what went wrong, which retry comes, and when.
#[derive(Clone, Debug)]
pub struct RetryNotice {
    pub error: ApiError,
    /// 1 for the first retry.
    pub retry: u32,
    pub of: u32,
    pub wait: Duration,
    /// Whether the wait is the server's `Retry-After`.
    pub server_asked: bool,
}

/// How a read is retried. `retries` 0 turns retrying off.
#[derive(Clone)]
pub struct RetryPolicy {
    pub retries: u32,
    /// The first backoff; each retry doubles it (before jitter).
    pub base: Duration,
    pub notify: Arc<dyn Fn(&RetryNotice) + Send + Sync>,
}

impl std::fmt::Debug for RetryPolicy {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "RetryPolicy({} retries, base {:?})",
            self.retries, self.base
        )
    }
}

impl RetryPolicy {
    pub(crate) const DEFAULT_RETRIES: u32 = 3;
    pub(crate) const DEFAULT_BASE: Duration = Duration::from_millis(500);

    pub fn new(retries: u32, notify: Arc<dyn Fn(&RetryNotice) + Send + Sync>) -> Self {
        RetryPolicy {
            retries,
            base: Self::DEFAULT_BASE,
            notify,
        }
    }

    /// Runs `attempt` until it succeeds, fails for good, or the retries are spent. An attempt's
    /// error comes with the answer's `Retry-After` header, if it had one.
    pub(crate) async fn run<T, F, Fut>(&self, mut attempt: F) -> Result<T, ApiError>
    where
        F: FnMut() -> Fut,
        Fut: std::future::Future<Output = Result<T, (ApiError, Option<String>)>>,
    {
        let mut retry = 0;
        loop {
            let (error, retry_after) = match attempt().await {
                Ok(value) => return Ok(value),
                Err(failed) => failed,
            };
            if retry >= self.retries || !is_transient(&error) {
                return Err(error);
            }
            retry += 1;
            let asked = retry_after
                .as_deref()
                .and_then(|text| parse_retry_after(text, SystemTime::now()));
            let wait = match asked {
                Some(wait) => wait.min(MAX_WAIT),
                None => backoff(self.base, retry),
            };
            (self.notify)(&RetryNotice {
                error,
                retry,
                of: self.retries,
                wait,
                server_asked: asked.is_some(),
            });
            tokio::time::sleep(wait).await;
        }
    }
}

/// Whether another try may succeed: the server is overloaded or briefly down, or the connection
/// failed. A refusal (4xx but 429), a bad answer, a cursor fault or a plain-HTTP port under an
/// `https://` URL would fail the same way again.
pub(crate) fn is_transient(error: &ApiError) -> bool {
    match error {
        ApiError::Http { status, .. } => matches!(status, 429 | 502 | 503 | 504),
        ApiError::Network(message) => !message.contains(super::client::NOT_TLS),
        ApiError::Timeout(_) | ApiError::CutOff(_) => true,
        _ => false,
    }
}

/// `Retry-After`: a number of seconds, or an HTTP date (a date past is no wait).
pub(crate) fn parse_retry_after(text: &str, now: SystemTime) -> Option<Duration> {
    let text = text.trim();
    if let Ok(seconds) = text.parse::<u64>() {
        return Some(Duration::from_secs(seconds));
    }
    let at = httpdate::parse_http_date(text).ok()?;
    Some(at.duration_since(now).unwrap_or(Duration::ZERO))
}

/// `base` doubled for each retry after the first, then a random part of it taken off (up to
/// half), so that many clients that failed together do not come back together.
pub fn backoff(base: Duration, retry: u32) -> Duration {
    let full = base.saturating_mul(1u32 << retry.saturating_sub(1).min(16));
    full.mul_f64(1.0 - fastrand::f64() / 2.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn retry_after_is_seconds_or_a_date() {
        let now = SystemTime::UNIX_EPOCH + Duration::from_secs(1_700_000_000);
        assert_eq!(parse_retry_after(" 7 ", now), Some(Duration::from_secs(7)));
        let later = httpdate::fmt_http_date(now + Duration::from_secs(30));
        assert_eq!(
            parse_retry_after(&later, now),
            Some(Duration::from_secs(30))
        );
        let past = httpdate::fmt_http_date(now - Duration::from_secs(30));
        assert_eq!(parse_retry_after(&past, now), Some(Duration::ZERO));
        assert_eq!(parse_retry_after("soon", now), None);
        assert_eq!(parse_retry_after("-1", now), None);
    }

    #[test]
    fn backoff_doubles_with_jitter() {
        let base = Duration::from_millis(100);
        for retry in 1..=4 {
            let full = base * (1 << (retry - 1));
            for _ in 0..50 {
                let wait = backoff(base, retry);
                assert!(wait <= full && wait >= full / 2, "{retry}: {wait:?}");
            }
        }
    }

    #[test]
    fn only_transient_failures_are_retried() {
        let http = |status| ApiError::Http {
            status,
            reason: String::new(),
            message: String::new(),
            request: Box::default(),
        };
        for status in [429, 502, 503, 504] {
            assert!(is_transient(&http(status)), "{status}");
        }
        for status in [400, 401, 404, 500] {
            assert!(!is_transient(&http(status)), "{status}");
        }
        assert!(is_transient(&ApiError::Network("reset".into())));
        let plain_http = format!(
            "cannot connect to https://h/api/v1: {}",
            super::super::client::NOT_TLS
        );
        assert!(!is_transient(&ApiError::Network(plain_http)));
        assert!(!is_transient(&ApiError::RepeatedCursor("c".into())));
    }
}
