//! The one HTTP client: every operation is `POST {base_url}/<operation>` with a JSON body and the
//! bearer token. Cheap to clone (reqwest's client is a handle), so background tasks hold clones.

use std::sync::{Arc, Once};
use std::time::Duration;

use serde::Serialize;
use serde_json::Value;

use super::error::ApiError;
use super::types::{ConnectResponse, ListRequest, ListResponse, ReportResponse};
use crate::sanitize;

/// A bearer token. Never printed: `Debug` masks it, and only the request builder sees it.
#[derive(Clone, PartialEq, Eq)]
pub struct Token(Arc<str>);

impl Token {
    pub fn new(token: impl Into<String>) -> Self {
        Token(Arc::from(token.into().trim()))
    }
    pub fn expose(&self) -> &str {
        &self.0
    }
    /// A masked form for `config show`: the length and nothing of the value.
    pub fn masked(&self) -> String {
        format!("******** ({} characters)", self.0.chars().count())
    }
}

impl std::fmt::Debug for Token {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Token(****)")
    }
}

/// How to reach the service.
#[derive(Clone, Debug)]
pub struct ClientSettings {
    /// The versioned API root, ending in `/api/v1`.
    pub base_url: String,
    pub token: Token,
    pub connect_timeout: Duration,
    pub request_timeout: Duration,
}

impl ClientSettings {
    pub const DEFAULT_CONNECT_TIMEOUT: Duration = Duration::from_secs(10);
    pub const DEFAULT_REQUEST_TIMEOUT: Duration = Duration::from_secs(30);

    pub fn new(base_url: impl Into<String>, token: Token) -> Self {
        ClientSettings {
            base_url: base_url.into(),
            token,
            connect_timeout: Self::DEFAULT_CONNECT_TIMEOUT,
            request_timeout: Self::DEFAULT_REQUEST_TIMEOUT,
        }
    }
}

/// The service's operations.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Operation {
    ResourcesList,
    OperationsReport,
    VersionConnect,
}

impl Operation {
    pub fn path(self) -> &'static str {
        match self {
            Operation::ResourcesList => "resources.list",
            Operation::OperationsReport => "apps.operations.report",
            Operation::VersionConnect => "apps.version.connect",
        }
    }
}

#[derive(Clone, Debug)]
pub struct Client {
    http: reqwest::Client,
    base_url: Arc<str>,
    token: Token,
    request_timeout: Duration,
}

/// reqwest is built without a default crypto provider (ring is lighter to build than aws-lc);
/// the process installs ring once before the first client.
fn install_crypto_provider() {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| {
        let _ = rustls::crypto::ring::default_provider().install_default();
    });
}

impl Client {
    pub fn new(settings: &ClientSettings) -> Result<Self, ApiError> {
        install_crypto_provider();
        let base = settings.base_url.trim_end_matches('/');
        let parsed = reqwest::Url::parse(base)
            .map_err(|e| ApiError::Invalid(format!("base URL {base:?}: {e}")))?;
        if !matches!(parsed.scheme(), "http" | "https") {
            return Err(ApiError::Invalid(format!(
                "base URL {base:?}: only http and https are supported"
            )));
        }
        let http = reqwest::Client::builder()
            .user_agent(concat!("appdeck/", env!("CARGO_PKG_VERSION")))
            .connect_timeout(settings.connect_timeout)
            .timeout(settings.request_timeout)
            // No idle-connection reaper: its timer would wake an idle TUI every 90 s. A
            // connection the server closes is noticed by the socket, not by a timer.
            .pool_idle_timeout(None)
            .build()
            .map_err(|e| ApiError::Invalid(format!("HTTP client: {e}")))?;
        Ok(Client {
            http,
            base_url: Arc::from(base),
            token: settings.token.clone(),
            request_timeout: settings.request_timeout,
        })
    }

    pub fn base_url(&self) -> &str {
        &self.base_url
    }

    /// One page of `resources.list`.
    pub async fn list_page(&self, request: &ListRequest) -> Result<ListResponse, ApiError> {
        let body = self.post(Operation::ResourcesList, request).await?;
        let value = reject_error_status(body)?;
        ListResponse::from_value(value).map_err(|problem| ApiError::Decode {
            problem,
            excerpt: String::new(),
        })
    }

    /// Sends a task report (any JSON body: a hand-written report is sent as written).
    pub async fn report(&self, report: &Value) -> Result<ReportResponse, ApiError> {
        self.send_for_answer(Operation::OperationsReport, report)
            .await
    }

    /// Sends a version-connect payload.
    pub async fn connect(&self, payload: &Value) -> Result<ConnectResponse, ApiError> {
        self.send_for_answer(Operation::VersionConnect, payload)
            .await
    }

    async fn send_for_answer(
        &self,
        operation: Operation,
        body: &Value,
    ) -> Result<ReportResponse, ApiError> {
        let value = reject_error_status(self.post(operation, body).await?)?;
        match value {
            Value::Object(map) => Ok(ReportResponse::from_map(map)),
            other => Err(ApiError::Decode {
                problem: format!(
                    "expected a JSON object, found {}",
                    super::field::json_type_name(&other)
                ),
                excerpt: sanitize::excerpt(other.to_string().as_bytes(), 80),
            }),
        }
    }

    /// Posts `body` and returns the decoded JSON of a 2xx answer; every other outcome is an error.
    pub async fn post(
        &self,
        operation: Operation,
        body: &impl Serialize,
    ) -> Result<Value, ApiError> {
        let url = format!("{}/{}", self.base_url, operation.path());
        let response = self
            .http
            .post(&url)
            .bearer_auth(self.token.expose())
            .header(reqwest::header::ACCEPT, "application/json")
            .json(body)
            .send()
            .await
            .map_err(|e| self.transport_error(e))?;
        let status = response.status();
        let bytes = response
            .bytes()
            .await
            .map_err(|e| self.transport_error(e))?;
        if !status.is_success() {
            return Err(http_error(status, &bytes));
        }
        serde_json::from_slice(&bytes).map_err(|e| ApiError::Decode {
            problem: format!("not JSON ({e})"),
            excerpt: sanitize::excerpt(&bytes, 80),
        })
    }

    fn transport_error(&self, error: reqwest::Error) -> ApiError {
        if error.is_timeout() {
            return ApiError::Timeout(self.request_timeout);
        }
        // reqwest's top-level message is generic; the innermost cause says what happened.
        let mut cause: &dyn std::error::Error = &error;
        while let Some(inner) = cause.source() {
            cause = inner;
        }
        let what = if error.is_connect() {
            "cannot connect"
        } else {
            "request failed"
        };
        ApiError::Network(sanitize::line(&format!("{what}: {cause}")).into_owned())
    }
}

/// A 2xx body whose `status` is `error` is a failure too.
fn reject_error_status(value: Value) -> Result<Value, ApiError> {
    if value.get("status").and_then(Value::as_str) == Some("error") {
        let message = body_message(&value).unwrap_or_else(|| "no message given".to_owned());
        return Err(ApiError::Rejected(message));
    }
    Ok(value)
}

/// The body's `error`, else its `message`, sanitised.
fn body_message(value: &Value) -> Option<String> {
    ["error", "message"]
        .iter()
        .filter_map(|key| value.get(key))
        .find_map(|v| match v {
            Value::String(s) if !s.trim().is_empty() => Some(sanitize::line(s.trim()).into_owned()),
            _ => None,
        })
}

fn http_error(status: reqwest::StatusCode, body: &[u8]) -> ApiError {
    let from_body = serde_json::from_slice::<Value>(body)
        .ok()
        .and_then(|v| body_message(&v));
    let message = from_body.unwrap_or_else(|| sanitize::excerpt(body, 80));
    ApiError::Http {
        status: status.as_u16(),
        reason: status.canonical_reason().unwrap_or_default().to_owned(),
        message,
    }
}
