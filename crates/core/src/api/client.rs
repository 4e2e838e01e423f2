//! The one HTTP client: every operation is `POST {base_url}/<operation>` with a JSON body and the
//! bearer token. Cheap to clone (reqwest's client is a handle), so background tasks hold clones.

use std::borrow::Cow;
use std::sync::{Arc, Once};
use std::time::{Duration, Instant};

use serde::Serialize;
use serde_json::{Map, Value};

use super::error::{ApiError, FailedRequest};
use super::mask::TokenMask;
use super::page::{RawPage, ReadPage};
use super::rate::RateLimit;
use super::retry::RetryPolicy;
use super::trace::Trace;
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
    /// A masked form for `config show`: nothing of the value, not even its length.
    pub fn masked(&self) -> String {
        "********".to_owned()
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
    /// The largest answer read; past it the request fails (an endless or huge body must not
    /// exhaust memory).
    pub max_response_bytes: u64,
    /// The largest body sent; a larger one is refused before anything goes out. A server
    /// refusing a body for its size may answer early and close, and the client, still writing,
    /// then sees only "Broken pipe" (see docs/upstream/hyper-early-answer.md).
    pub max_request_bytes: u64,
}

impl ClientSettings {
    pub(crate) const DEFAULT_CONNECT_TIMEOUT: Duration = Duration::from_secs(10);
    pub const DEFAULT_REQUEST_TIMEOUT: Duration = Duration::from_secs(30);
    pub(crate) const DEFAULT_MAX_RESPONSE_BYTES: u64 = 64 * 1024 * 1024;
    /// Far above a report or a connect of hundreds of types, and below the sizes (8 MiB and
    /// more on loopback) where an early refusal shows as a failed write.
    pub(crate) const DEFAULT_MAX_REQUEST_BYTES: u64 = 8 * 1024 * 1024;

    pub fn new(base_url: impl Into<String>, token: Token) -> Self {
        ClientSettings {
            base_url: base_url.into(),
            token,
            connect_timeout: Self::DEFAULT_CONNECT_TIMEOUT,
            request_timeout: Self::DEFAULT_REQUEST_TIMEOUT,
            max_response_bytes: Self::DEFAULT_MAX_RESPONSE_BYTES,
            max_request_bytes: Self::DEFAULT_MAX_REQUEST_BYTES,
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
    /// Applied to every answer and error as it enters, so nothing downstream sees the token.
    mask: Arc<TokenMask>,
    request_timeout: Duration,
    max_response_bytes: u64,
    max_request_bytes: u64,
    /// `--rate`: shared by every clone, so concurrent requests share the budget.
    rate: Option<Arc<RateLimit>>,
    /// `-v` / `--trace`: shared by every clone, so requests are numbered in one sequence.
    trace: Option<Arc<Trace>>,
}

/// Set on each request rather than on the client, so that `--trace` shows it with the others.
const USER_AGENT: &str = concat!("appdeck/", env!("CARGO_PKG_VERSION"));

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
        let parsed = check_base_url(base)?;
        let builder = reqwest::Client::builder()
            .connect_timeout(settings.connect_timeout)
            .timeout(settings.request_timeout)
            // No idle-connection reaper: its timer would wake an idle TUI every 90 s. A
            // connection the server closes is noticed by the socket, not by a timer.
            .pool_idle_timeout(None)
            // Every call is a POST to the base URL: a 3xx is an answer to show, not to follow
            // (following 301/302 would turn the POST into a GET and lose the body).
            .redirect(reqwest::redirect::Policy::none());
        // Plain http never does TLS, and loading the system's root certificates costs ~2.5 ms
        // of every start (a third of the time to the first rows on screen).
        let builder = if parsed.scheme() == "http" {
            builder.tls_certs_only(std::iter::empty::<reqwest::Certificate>())
        } else {
            builder
        };
        let http = builder
            .build()
            .map_err(|e| ApiError::Invalid(format!("HTTP client: {e}")))?;
        Ok(Client {
            http,
            base_url: Arc::from(base),
            token: settings.token.clone(),
            mask: Arc::new(TokenMask::new(&settings.token)),
            request_timeout: settings.request_timeout,
            max_response_bytes: settings.max_response_bytes,
            max_request_bytes: settings.max_request_bytes,
            rate: None,
            trace: None,
        })
    }

    /// At most `per_second` requests a second from this client and its clones (`--rate`).
    pub fn with_rate(mut self, per_second: Option<f64>) -> Self {
        self.rate = per_second.and_then(RateLimit::per_second).map(Arc::new);
        self
    }

    /// Every request and answer on stderr (`-v` is 1: bodies cut; `-vv` 2: whole); 0 is off.
    pub fn with_trace(mut self, level: u8) -> Self {
        self.trace = Trace::new(level, self.token.clone()).map(Arc::new);
        self
    }

    pub fn base_url(&self) -> &str {
        &self.base_url
    }

    /// The token's mask, for the lines a command prints that echo what the user gave (a cursor,
    /// a path): answers and errors from this client come masked already.
    pub fn mask(&self) -> &TokenMask {
        &self.mask
    }

    /// One page of `resources.list`.
    pub async fn list_page(&self, request: &ListRequest) -> Result<ListResponse, ApiError> {
        // The raw body is kept until the page is read, for the excerpt of a page that is JSON
        // but not a page.
        let (_, bytes) = self.post_raw(Operation::ResourcesList, request).await?;
        decode_page(bytes.as_ref())
    }

    /// One page of `resources.list`, its items kept as the bytes that came (see
    /// [`super::page::RawPage`]).
    pub async fn list_page_raw(&self, request: &ListRequest) -> Result<RawPage, ApiError> {
        self.list_page_attempt(request).await.map_err(|(e, _)| e)
    }

    /// [`Client::list_page_raw`], retried as `policy` says (see [`super::retry`]).
    pub(crate) async fn list_page_retrying(
        &self,
        request: &ListRequest,
        policy: &RetryPolicy,
    ) -> Result<RawPage, ApiError> {
        policy.run(|| self.list_page_attempt(request)).await
    }

    /// One try at a page; a failure comes with the answer's `Retry-After`, if it had one.
    async fn list_page_attempt(
        &self,
        request: &ListRequest,
    ) -> Result<RawPage, (ApiError, Option<String>)> {
        let (status, bytes, url, retry_after) = self
            .post_any(Operation::ResourcesList, request)
            .await
            .map_err(|e| (e, None))?;
        if !status.is_success() {
            return Err((http_error(status, &url, &bytes), retry_after));
        }
        decode_raw_page(bytes).map_err(|e| (e, None))
    }

    /// Sends a task report (any JSON body: a hand-written report is sent as written).
    pub async fn report(&self, report: &Value) -> Result<ReportResponse, ApiError> {
        self.send(Operation::OperationsReport, report)
            .await?
            .into_result()
    }

    /// Sends a version-connect payload.
    pub async fn connect(&self, payload: &Value) -> Result<ConnectResponse, ApiError> {
        self.send(Operation::VersionConnect, payload)
            .await?
            .into_result()
    }

    /// Sends a report or connect payload and returns the answer without judging it, for callers
    /// that show the answer even when it is a refusal (`appdeck report`): a JSON object is an
    /// answer whatever the HTTP status, and [`Answer::rejection`] says whether it is a refusal.
    /// Transport errors, and bodies that are not JSON objects, are errors here already.
    pub async fn send(
        &self,
        operation: Operation,
        body: &(impl Serialize + ?Sized),
    ) -> Result<Answer, ApiError> {
        self.send_with_status(operation, body).await.1
    }

    /// [`Client::send`], with the HTTP status of the answer (`None` when none came), for callers
    /// that record the send (the history).
    pub async fn send_with_status(
        &self,
        operation: Operation,
        body: &(impl Serialize + ?Sized),
    ) -> (Option<u16>, Result<Answer, ApiError>) {
        match self.post_any(operation, body).await {
            Ok((status, bytes, url, _)) => (
                Some(status.as_u16()),
                read_answer(operation, status, &bytes, &url),
            ),
            Err(error) => (error.http_status(), Err(error)),
        }
    }

    /// Posts `body` to `operation` and reads the answer as that operation's reply (a page, or
    /// the answer to a report or a connect), with the HTTP status and the time it took: what a
    /// view that shows the whole exchange needs. Never fails: the outcome is in `result`.
    pub async fn exchange(
        &self,
        operation: Operation,
        body: &(impl Serialize + ?Sized),
    ) -> Exchange {
        self.exchange_telling(operation, body, |_| {}).await
    }

    /// [`Client::exchange`], telling `on_envelope` a page's envelope (its `next`) as soon as the
    /// page is read: a caller reading ahead asks for the next page then, and the service works
    /// on it while the list takes this one.
    pub async fn exchange_telling(
        &self,
        operation: Operation,
        body: &(impl Serialize + ?Sized),
        on_envelope: impl FnOnce(&ListResponse),
    ) -> Exchange {
        let started = Instant::now();
        let (status, result) = match operation {
            // Read as `list` reads it, each item kept as the bytes that came (which the list
            // keeps and `:export` writes), and read here, off the UI thread.
            Operation::ResourcesList => match self.post_raw(operation, body).await {
                Ok((status, bytes)) => (
                    Some(status.as_u16()),
                    decode_read_page(bytes).map(|page| {
                        on_envelope(page.envelope());
                        Reply::Page(Box::new(page))
                    }),
                ),
                Err(error) => (error.http_status(), Err(error)),
            },
            // Read as `send` reads it: a refusal's JSON body is an answer (its `status`, `error`
            // and `message` are shown), and so is a connect's empty 2xx body.
            Operation::OperationsReport | Operation::VersionConnect => {
                let (status, answer) = self.send_with_status(operation, body).await;
                (status, answer.map(|a| Reply::Answer(Box::new(a))))
            }
        };
        Exchange {
            status,
            elapsed: started.elapsed(),
            result,
        }
    }

    /// Posts `body` and returns the status and raw body of a 2xx answer; any other status is an
    /// error.
    async fn post_raw(
        &self,
        operation: Operation,
        body: &(impl Serialize + ?Sized),
    ) -> Result<(reqwest::StatusCode, Vec<u8>), ApiError> {
        let (status, bytes, url, _) = self.post_any(operation, body).await?;
        if !status.is_success() {
            return Err(http_error(status, &url, &bytes));
        }
        Ok((status, bytes))
    }

    /// Posts `body` and returns the answer's status and body, whatever the status, with the URL
    /// it went to and its `Retry-After` header. Only a failure to get an answer at all (or one
    /// over the size cap) is an error here.
    async fn post_any(
        &self,
        operation: Operation,
        body: &(impl Serialize + ?Sized),
    ) -> Result<(reqwest::StatusCode, Vec<u8>, String, Option<String>), ApiError> {
        let body = serde_json::to_vec(body)
            .map_err(|e| ApiError::Invalid(format!("the request body: {e}")))?;
        let answer = self.post_bytes(operation.path(), body).await?;
        if answer.status.is_redirection() {
            let location = answer
                .headers
                .get(reqwest::header::LOCATION)
                .map(|v| String::from_utf8_lossy(v.as_bytes()).into_owned());
            return Err(redirect_error(
                answer.status,
                &answer.url,
                operation.path(),
                location.as_deref(),
                &answer.body,
            ));
        }
        let retry_after = answer.retry_after();
        Ok((answer.status, answer.body, answer.url, retry_after))
    }

    /// Posts `body`, JSON text sent as it is, to `{base_url}/{path}` and returns the answer
    /// whatever its status (`appdeck api`). Only a failure to get an answer at all (or one over
    /// the size cap) is an error here. Never retried: it may be a write.
    pub(crate) async fn post_bytes(
        &self,
        path: &str,
        body: Vec<u8>,
    ) -> Result<RawAnswer, ApiError> {
        self.post_bytes_with(path, body, reqwest::header::HeaderMap::new())
            .await
    }

    /// [`Client::post_bytes`] with `headers` added (`appdeck api -H`), each replacing appdeck's
    /// own of the same name (`Accept`, say); the caller keeps `Authorization` out of them.
    pub async fn post_bytes_with(
        &self,
        path: &str,
        body: Vec<u8>,
        headers: reqwest::header::HeaderMap,
    ) -> Result<RawAnswer, ApiError> {
        let size = body.len() as u64;
        if size > self.max_request_bytes {
            return Err(ApiError::RequestTooLarge {
                size,
                limit: self.max_request_bytes,
            });
        }
        if let Some(rate) = &self.rate {
            rate.wait().await;
        }
        let url = format!("{}/{}", self.base_url, path);
        let request = self
            .http
            .post(&url)
            .bearer_auth(self.token.expose())
            .header(reqwest::header::USER_AGENT, USER_AGENT)
            .header(reqwest::header::ACCEPT, "application/json")
            .header(reqwest::header::CONTENT_TYPE, "application/json")
            .headers(headers)
            .body(body)
            .build()
            .map_err(|e| self.mask.error(self.transport_error(e, &url)))?;
        let Some(trace) = &self.trace else {
            return self.masked(self.exchange_bytes(request, url).await);
        };
        let body = request.body().and_then(reqwest::Body::as_bytes);
        let id = trace.request(
            request.method().as_str(),
            &url,
            request.headers(),
            body.unwrap_or_default(),
        );
        let started = Instant::now();
        let result = self.masked(self.exchange_bytes(request, url).await);
        match &result {
            Ok(answer) => trace.answer(
                id,
                answer.status,
                &answer.headers,
                &answer.body,
                started.elapsed(),
            ),
            Err(error) => trace.failure(id, &error.to_string(), started.elapsed()),
        }
        result
    }

    /// An answer, or the failure to get one, with the token masked in everything it says: where
    /// answers enter, so no list, report, history, status bar or log line can show it.
    fn masked(&self, result: Result<RawAnswer, ApiError>) -> Result<RawAnswer, ApiError> {
        match result {
            Ok(answer) => Ok(RawAnswer {
                status: answer.status,
                headers: self.mask.headers(answer.headers),
                body: self.mask.bytes(answer.body),
                url: self.mask.text(&answer.url).into_owned(),
            }),
            Err(error) => Err(self.mask.error(error)),
        }
    }

    /// Sends a built request and reads its answer.
    async fn exchange_bytes(
        &self,
        request: reqwest::Request,
        url: String,
    ) -> Result<RawAnswer, ApiError> {
        let size = request
            .body()
            .and_then(reqwest::Body::as_bytes)
            .map_or(0, |b| b.len() as u64);
        let response = self.http.execute(request).await.map_err(|e| {
            if is_failed_write(&e, size) {
                self.write_error(&e, &url, size)
            } else {
                self.transport_error(e, &url)
            }
        })?;
        let status = response.status();
        if let Some(encoding) = unasked_encoding(&response) {
            return Err(ApiError::Decode {
                problem: format!(
                    "the answer is compressed (Content-Encoding: {encoding}), which appdeck did \
                     not ask for and does not read"
                ),
                excerpt: String::new(),
            });
        }
        let headers = response.headers().clone();
        let body = self.read_body(response, &url).await?;
        Ok(RawAnswer {
            status,
            headers,
            body,
            url,
        })
    }

    /// Reads an answer's body, failing as soon as it is known to pass the size cap: at once from
    /// a declared length, else when the bytes read pass it.
    async fn read_body(
        &self,
        mut response: reqwest::Response,
        url: &str,
    ) -> Result<Vec<u8>, ApiError> {
        let cap = self.max_response_bytes;
        let too_large = || ApiError::TooLarge(cap);
        let declared = response.content_length();
        if declared.is_some_and(|length| length > cap) {
            return Err(too_large());
        }
        let capacity = declared.unwrap_or(0).min(cap);
        let mut body = Vec::with_capacity(usize::try_from(capacity).unwrap_or(0));
        loop {
            let chunk = match response.chunk().await {
                Ok(Some(chunk)) => chunk,
                Ok(None) => break,
                // The answer had begun: the connection closing now is no base URL problem.
                Err(e) if !e.is_timeout() && (e.is_body() || e.is_decode()) => {
                    return Err(ApiError::CutOff(body.len()));
                }
                Err(e) => return Err(self.transport_error(e, url)),
            };
            if (body.len() + chunk.len()) as u64 > cap {
                return Err(too_large());
            }
            body.extend_from_slice(&chunk);
        }
        Ok(body)
    }

    /// A failure to get an answer from `url`, named with the URL (credentials masked) and worded
    /// from the innermost cause, since reqwest's top-level message is generic.
    fn transport_error(&self, error: reqwest::Error, url: &str) -> ApiError {
        if error.is_timeout() {
            return ApiError::Timeout(self.request_timeout);
        }
        let mut cause: &dyn std::error::Error = &error;
        let mut tls_on_plain_http = false;
        loop {
            tls_on_plain_http |= is_tls_record_mismatch(cause);
            match cause.source() {
                Some(inner) => cause = inner,
                None => break,
            }
        }
        let url = redact_url(url);
        let message = if tls_on_plain_http && url.starts_with("https://") {
            format!(
                "cannot connect to {url}: {NOT_TLS} (it seems to be plain HTTP); use http:// \
                 instead of https:// in the base URL"
            )
        } else if error.is_connect() {
            format!("cannot connect to {url}: {cause}")
        } else {
            format!("request to {url} failed: {cause}")
        };
        ApiError::Network(sanitize::line(&message).into_owned())
    }
}

impl Client {
    /// The body could not be written whole: the server stopped reading it. Said with the body's
    /// size and the setting that bounds it, since the usual cause is a server refusing the size.
    fn write_error(&self, error: &reqwest::Error, url: &str, size: u64) -> ApiError {
        let mut cause: &dyn std::error::Error = error;
        while let Some(inner) = cause.source() {
            cause = inner;
        }
        ApiError::WriteFailed {
            url: redact_url(url).into_owned(),
            size,
            limit: self.max_request_bytes,
            cause: sanitize::line(&cause.to_string()).into_owned(),
        }
    }
}

/// Bodies from this size up that the connection drops under are taken as refused for their
/// size: smaller ones fit in the socket's buffers before the server could refuse them.
const LARGE_BODY_BYTES: u64 = 1024 * 1024;

/// Whether `error` is the connection failing while a body of `size` bytes was written: hyper's
/// "error writing a body to connection", a broken pipe, or (for a large body) the connection
/// reset under it. A server that answers early (a 413) and closes leaves the client here; hyper
/// then does not read the answer (see docs/upstream/hyper-early-answer.md).
fn is_failed_write(error: &reqwest::Error, size: u64) -> bool {
    if size == 0 || error.is_timeout() || error.is_connect() {
        return false;
    }
    let mut current: Option<&(dyn std::error::Error + 'static)> = Some(error);
    while let Some(cause) = current {
        let kind = cause
            .downcast_ref::<std::io::Error>()
            .map(std::io::Error::kind);
        let reset = kind == Some(std::io::ErrorKind::ConnectionReset) && size >= LARGE_BODY_BYTES;
        if reset
            || kind == Some(std::io::ErrorKind::BrokenPipe)
            || cause.to_string().starts_with("error writing a body")
        {
            return true;
        }
        current = cause.source();
    }
    false
}

/// The `Content-Encoding` of an answer, when it is one appdeck cannot read: it asks for none, so
/// a compressed body would otherwise be reported as "not JSON".
fn unasked_encoding(response: &reqwest::Response) -> Option<String> {
    let encoding = response.headers().get(reqwest::header::CONTENT_ENCODING)?;
    let encoding = sanitize::line(&String::from_utf8_lossy(encoding.as_bytes())).into_owned();
    (!encoding.trim().eq_ignore_ascii_case("identity")).then_some(encoding)
}

/// What a network error says when an `https://` URL reached a plain-HTTP port: no retry can
/// change that answer, so none is made (three took 3 s, each saying the same).
pub(crate) const NOT_TLS: &str = "the server does not speak TLS";

/// Whether `error` is rustls finding that the server's first bytes are not a TLS record: what an
/// `https://` URL gets from a plain-HTTP port (rustls calls it a "corrupt message"). rustls's
/// error arrives inside `io::Error`s, nested, whose `source` skips what they wrap.
fn is_tls_record_mismatch(error: &(dyn std::error::Error + 'static)) -> bool {
    let mut current = Some(error);
    while let Some(error) = current {
        if let Some(rustls::Error::InvalidMessage(_)) = error.downcast_ref::<rustls::Error>() {
            return true;
        }
        current = error
            .downcast_ref::<std::io::Error>()
            .and_then(std::io::Error::get_ref)
            .map(|inner| inner as &(dyn std::error::Error + 'static));
    }
    false
}

/// Checks a base URL before anything is sent: it must be an absolute `http` or `https` URL. Errors
/// show the URL with credentials masked, and say what to add when the scheme is missing (a
/// `host:port/api/v1` would otherwise read as a URL of scheme `host`, or not parse at all).
pub fn check_base_url(base: &str) -> Result<reqwest::Url, ApiError> {
    let shown = redact_url(base);
    let base = base.trim();
    if !base.contains("://") {
        return Err(ApiError::Invalid(format!(
            "base URL {shown:?} has no scheme: add http:// or https:// in front (e.g. \
             http://{})",
            shown.trim()
        )));
    }
    let parsed = reqwest::Url::parse(base)
        .map_err(|e| ApiError::Invalid(format!("base URL {shown:?}: {e}")))?;
    if !matches!(parsed.scheme(), "http" | "https") {
        return Err(ApiError::Invalid(format!(
            "base URL {shown:?}: only http and https are supported"
        )));
    }
    // reqwest would send them as a Basic `Authorization` beside the bearer token's: the service
    // refuses a request with two, every time.
    if !parsed.username().is_empty() || parsed.password().is_some() {
        return Err(ApiError::Invalid(format!(
            "base URL {shown:?} holds a user name or password (user:pass@): appdeck signs \
             every request with the token alone, and a second Authorization header gets every \
             request refused; take them out of the URL"
        )));
    }
    Ok(parsed)
}

/// An answer as it came: what `appdeck api` prints.
#[derive(Debug)]
pub struct RawAnswer {
    pub status: reqwest::StatusCode,
    pub headers: reqwest::header::HeaderMap,
    pub body: Vec<u8>,
    /// The URL the request went to (credentials and all: mask it with [`redact_url`] to show it;
    /// the token, should a path hold it, is masked already).
    pub url: String,
}

impl RawAnswer {
    /// The answer's `Retry-After`, as text.
    pub(crate) fn retry_after(&self) -> Option<String> {
        self.headers
            .get(reqwest::header::RETRY_AFTER)
            .and_then(|v| v.to_str().ok())
            .map(str::to_owned)
    }
}

/// How much of a body an error message quotes.
const EXCERPT_CHARS: usize = 80;

/// How much of an error's body is kept for a view of the error in full.
const BODY_START_CHARS: usize = 500;

/// How much of a body's `error` or `message` an error shows.
const MESSAGE_CHARS: usize = 300;

/// The service's answer to a report or a connect, kept both as sent and as read.
#[derive(Clone, Debug, PartialEq)]
pub struct Answer {
    /// The body as the service sent it, parsed; `Value::Null` for a connect answered 2xx with no
    /// body at all (the spec shows no connect answer, so none is a success).
    pub raw: Value,
    /// The body's text as it came (empty for no body), for `--output json` and the history: the
    /// parsed value writes `1E400` back as `1e+400` and `\u202E` as the character.
    pub text: String,
    /// The same body read leniently: `status`, `message`, `metadata`, `error`.
    pub response: ReportResponse,
    /// The error of an answer that came with a non-2xx status.
    pub http_error: Option<ApiError>,
}

impl Answer {
    /// The refusal this answer is: its non-2xx status, else a `status` of `error` (worded from
    /// its `error`, else its `message`).
    pub fn rejection(&self) -> Option<ApiError> {
        self.http_error.clone().or_else(|| rejection(&self.raw))
    }

    /// The warning for a 2xx answer whose `status` is neither `ok` nor `error` (absent, null,
    /// `"OK"`, `["ok"]`): it does not say whether the service took what `operation` sent (a
    /// report's answer `{}` passed in silence, and `"status": ["ok"]` read as accepted with no
    /// word). Such an answer is still taken as accepted, as before; a connect answered with no
    /// body at all is said apart (its words name the HTTP status).
    pub fn unclear_status(&self, operation: Operation) -> Option<String> {
        if self.http_error.is_some() {
            return None;
        }
        let what = match operation {
            Operation::OperationsReport => "report",
            Operation::VersionConnect if !self.raw.is_null() => "connect",
            _ => return None,
        };
        let found = match &self.response.status {
            super::Field::Valid(status) if status == "ok" || status == "error" => return None,
            super::Field::Absent | super::Field::Null if what == "report" => {
                "no `status` (the spec requires one)".to_owned()
            }
            super::Field::Absent | super::Field::Null => "no `status`".to_owned(),
            super::Field::Valid(_) | super::Field::Invalid(_) => {
                let written = crate::json_text::span_of(&self.text, "/status")
                    .map_or("?", |span| &self.text[span]);
                let written = crate::text::fit(&crate::sanitize::line(written), 40);
                format!("the `status` {written}, neither \"ok\" nor \"error\"")
            }
        };
        Some(format!(
            "the service's answer has {found}: it does not say whether the {what} was taken"
        ))
    }

    /// The answer as a result: a refusal (see [`Answer::rejection`]) is a failure.
    pub(crate) fn into_result(self) -> Result<ReportResponse, ApiError> {
        match self.rejection() {
            Some(error) => Err(error),
            None => Ok(self.response),
        }
    }
}

/// One call and its outcome, as [`Client::exchange`] returns it.
#[derive(Clone, Debug)]
pub struct Exchange {
    /// The HTTP status, when an answer came (an error status included).
    pub status: Option<u16>,
    /// From sending the request to having read the answer.
    pub elapsed: Duration,
    pub result: Result<Reply, ApiError>,
}

impl Exchange {
    /// An outcome that did not come from a server (tests, benchmarks, an internal failure):
    /// no status, no time taken.
    pub fn local(result: Result<Reply, ApiError>) -> Self {
        Exchange {
            status: None,
            elapsed: Duration::ZERO,
            result,
        }
    }
}

/// A successful answer, read as its operation's reply.
#[derive(Clone, Debug, PartialEq)]
pub enum Reply {
    /// `resources.list`, each item read and as the bytes that came: boxed, a page is large.
    Page(Box<ReadPage>),
    /// `apps.operations.report` and `apps.version.connect`, judged by the caller (a refusal is
    /// an answer to show).
    Answer(Box<Answer>),
}

impl Reply {
    /// A page already read item by item (tests, benchmarks): its items as compact JSON.
    pub fn page(page: ListResponse) -> Self {
        Reply::Page(Box::new(RawPage::from_response(page).into()))
    }
}

/// A report's or a connect's answer from its status and body (see [`Client::send`]).
fn read_answer(
    operation: Operation,
    status: reqwest::StatusCode,
    bytes: &[u8],
    url: &str,
) -> Result<Answer, ApiError> {
    let failed = !status.is_success();
    if operation == Operation::VersionConnect && !failed && bytes.trim_ascii().is_empty() {
        return Ok(Answer {
            raw: Value::Null,
            text: String::new(),
            response: ReportResponse::default(),
            http_error: None,
        });
    }
    let raw = match serde_json::from_slice::<Value>(bytes) {
        Ok(raw) => raw,
        Err(_) if failed => return Err(http_error(status, url, bytes)),
        Err(e) => return Err(decode_error(&e, bytes)),
    };
    match &raw {
        Value::Object(map) => Ok(Answer {
            response: ReportResponse::from_map(map.clone()),
            // JSON that parsed is UTF-8.
            text: String::from_utf8_lossy(bytes).into_owned(),
            http_error: failed.then(|| http_error(status, url, bytes)),
            raw,
        }),
        _ if failed => Err(http_error(status, url, bytes)),
        other => Err(ApiError::Decode {
            problem: format!(
                "expected a JSON object, found {}",
                super::field::json_type_name(other)
            ),
            excerpt: sanitize::excerpt(other.to_string().as_bytes(), EXCERPT_CHARS),
        }),
    }
}

/// A page of `resources.list` from a 2xx body.
fn decode_page(bytes: &[u8]) -> Result<ListResponse, ApiError> {
    let page = match serde_json::from_slice::<Value>(bytes) {
        // The common case: the page parses whole, each byte scanned once.
        Ok(value) => {
            let page = (value.as_object()).map_or(Ok(()), |map| {
                super::page::page_needs_resources(map.contains_key("resources"), map)
            });
            page.and_then(|()| ListResponse::from_value(value))
        }
        // Valid JSON the parser cannot hold somewhere (nesting, a lone surrogate): read item by
        // item, so that only the odd item is marked.
        Err(e) if super::page::beyond_parser(&e).is_some() => {
            super::page::read_page(bytes).ok_or_else(|| decode_error(&e, bytes))?
        }
        Err(e) => return Err(decode_error(&e, bytes)),
    };
    let page = page.map_err(|problem| ApiError::Decode {
        problem,
        excerpt: sanitize::excerpt(bytes, EXCERPT_CHARS),
    })?;
    match rejection_in(&page.extra) {
        Some(refusal) => Err(refusal),
        None => Ok(page),
    }
}

/// A page of `resources.list` from a 2xx body, its items as they came. A body the raw reader
/// cannot take is read as [`decode_page`] reads it, for the same page or the same error.
fn decode_raw_page(bytes: Vec<u8>) -> Result<RawPage, ApiError> {
    let page = match RawPage::read(bytes) {
        Ok(page) => page,
        Err(bytes) => return decode_page(&bytes).map(RawPage::from_response),
    };
    match rejection_in(&page.envelope.extra) {
        Some(refusal) => Err(refusal),
        None => Ok(page),
    }
}

/// [`decode_raw_page`], each item read for what the list shows ([`ReadPage::read`]).
fn decode_read_page(bytes: Vec<u8>) -> Result<ReadPage, ApiError> {
    let page = match ReadPage::read(bytes) {
        Ok(page) => page,
        Err(bytes) => return decode_page(&bytes).map(|page| RawPage::from_response(page).into()),
    };
    match rejection_in(&page.envelope().extra) {
        Some(refusal) => Err(refusal),
        None => Ok(page),
    }
}

fn decode_error(error: &serde_json::Error, bytes: &[u8]) -> ApiError {
    ApiError::Decode {
        problem: format!("not JSON ({error})"),
        excerpt: sanitize::excerpt(bytes, EXCERPT_CHARS),
    }
}

fn rejection(value: &Value) -> Option<ApiError> {
    value.as_object().and_then(rejection_in)
}

/// The refusal a body's `status` of `error` says, worded from its message: a 2xx body saying so
/// is a failure too.
fn rejection_in(body: &Map<String, Value>) -> Option<ApiError> {
    (body.get("status").and_then(Value::as_str) == Some("error")).then(|| {
        ApiError::Rejected(body_message(body).unwrap_or_else(|| "no message given".to_owned()))
    })
}

/// The body's `error`, else its `message`, sanitised.
fn body_message(value: &Map<String, Value>) -> Option<String> {
    ["error", "message"]
        .iter()
        .filter_map(|key| value.get(*key))
        .find_map(|v| match v {
            // A server's message can be megabytes long: its start says enough.
            Value::String(s) if !s.trim().is_empty() => {
                Some(sanitize::excerpt(s.as_bytes(), MESSAGE_CHARS))
            }
            _ => None,
        })
}

/// A non-2xx answer from `url`. The status line is always shown; after it comes the body's
/// `error`, else its `message`, else a short excerpt of the body, and nothing when the body is
/// empty (so a bare `502` reads "HTTP 502 Bad Gateway", not "HTTP 502 Bad Gateway: ").
fn http_error(status: reqwest::StatusCode, url: &str, body: &[u8]) -> ApiError {
    let from_body = serde_json::from_slice::<Value>(body)
        .ok()
        .and_then(|v| v.as_object().and_then(body_message));
    let message = from_body.unwrap_or_else(|| sanitize::excerpt(body, EXCERPT_CHARS));
    ApiError::Http {
        status: status.as_u16(),
        reason: status.canonical_reason().unwrap_or_default().to_owned(),
        message,
        request: Box::new(FailedRequest {
            method: "POST".to_owned(),
            url: redact_url(url).into_owned(),
            body_start: sanitize::excerpt(body, BODY_START_CHARS),
        }),
    }
}

/// How much of a redirect's `Location` an error names.
const LOCATION_CHARS: usize = 200;

/// A 3xx answer to `url` (`{base_url}/{path}`), which is not followed: the token would go where
/// the base URL does not say. It names where the answer points (relative to `url`, credentials
/// masked, cut) and, when that is the same operation elsewhere (an `http://` base URL the
/// service sends to `https://`, say), the base URL to set; a bare `HTTP 307` said neither.
fn redirect_error(
    status: reqwest::StatusCode,
    url: &str,
    path: &str,
    location: Option<&str>,
    body: &[u8],
) -> ApiError {
    let mut error = http_error(status, url, body);
    let target = location.map(|location| {
        reqwest::Url::parse(url)
            .and_then(|url| url.join(location))
            .map_or_else(|_| location.to_owned(), String::from)
    });
    let said = match &target {
        None => "redirects are not followed, and it names no Location".to_owned(),
        Some(target) => {
            let shown = |text: &str| sanitize::excerpt(redact_url(text).as_bytes(), LOCATION_CHARS);
            let base = target
                .strip_suffix(path)
                .and_then(|base| base.strip_suffix('/'))
                .filter(|base| !base.is_empty());
            match base {
                Some(base) => format!(
                    "redirects are not followed; it points to {}: set the base URL to {}",
                    shown(target),
                    shown(base)
                ),
                None => format!("redirects are not followed; it points to {}", shown(target)),
            }
        }
    };
    if let ApiError::Http { message, .. } = &mut error {
        *message = said;
    }
    error
}

/// `url` with its user name and password replaced by `***`, for display: a base URL may carry
/// credentials (`https://user:pass@host/...`) that must not be printed. In a URL that parses, the
/// credentials end at the last `@` before the path; text that is not a URL with a host is masked
/// up to its last `@` anywhere (it is shown exactly when it failed to parse, so nothing in it can
/// be trusted to delimit the credentials).
pub fn redact_url(url: &str) -> Cow<'_, str> {
    let parsed = reqwest::Url::parse(url).ok().filter(reqwest::Url::has_host);
    if parsed
        .as_ref()
        .is_some_and(|p| p.username().is_empty() && p.password().is_none())
    {
        return Cow::Borrowed(url);
    }
    let start = url.find("://").map_or(0, |i| i + 3);
    let rest = &url[start..];
    let end = match parsed {
        Some(_) => rest.find(['/', '?', '#', '\\']).unwrap_or(rest.len()),
        None => rest.len(),
    };
    match rest[..end].rfind('@') {
        Some(at) => Cow::Owned(format!("{}***{}", &url[..start], &rest[at..])),
        None => Cow::Borrowed(url),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn credentials_in_a_url_are_masked() {
        assert_eq!(
            redact_url("https://user:pa55@example.com/api/v1"),
            "https://***@example.com/api/v1"
        );
        assert_eq!(redact_url("http://token@h:8080/x"), "http://***@h:8080/x");
        assert_eq!(
            redact_url("https://u:pw@host/api/@me?a=b@c"),
            "https://***@host/api/@me?a=b@c"
        );
        // Not a URL (the password holds a `/`): masked up to the last `@` all the same.
        assert_eq!(
            redact_url("https://u:p/w@d@host/api/v1"),
            "https://***@host/api/v1"
        );
        assert_eq!(redact_url("u:secret@host/api"), "***@host/api");
        for clean in [
            "http://127.0.0.1:9/api/v1",
            "https://h/api/v1/@me",
            "not a url",
        ] {
            assert!(matches!(redact_url(clean), Cow::Borrowed(_)), "{clean}");
        }
    }

    #[test]
    fn client_errors_do_not_show_credentials() {
        for url in [
            "ftp://user:hunter2@host/api/v1",
            "https://user:hunter2@/api/v1",
        ] {
            let settings = ClientSettings::new(url, Token::new("t"));
            let error = Client::new(&settings).unwrap_err().to_string();
            assert!(!error.contains("hunter2"), "{error}");
            assert!(error.contains("***@"), "{error}");
        }
    }

    const URL: &str = "https://u:pw@h/api/v1/resources.list";

    #[test]
    fn an_http_error_words_its_message_from_the_body() {
        let bad_gateway = reqwest::StatusCode::BAD_GATEWAY;
        assert_eq!(
            http_error(bad_gateway, URL, b"").to_string(),
            "HTTP 502 Bad Gateway"
        );
        assert_eq!(
            http_error(bad_gateway, URL, b" \n").to_string(),
            "HTTP 502 Bad Gateway"
        );
        assert_eq!(
            http_error(bad_gateway, URL, br#"{"error": "", "message": "down"}"#).to_string(),
            "HTTP 502 Bad Gateway: down"
        );
        assert_eq!(
            http_error(bad_gateway, URL, b"<html>\x1b[31mproxy</html>").to_string(),
            "HTTP 502 Bad Gateway: <html>\u{241b}[31mproxy</html>"
        );
        let odd = reqwest::StatusCode::from_u16(599).unwrap();
        assert_eq!(http_error(odd, URL, b"").to_string(), "HTTP 599");
    }

    #[test]
    fn an_http_error_keeps_the_request_and_the_start_of_the_body() {
        let body = format!(
            r#"{{"error": "\u001b[2Jgone", "pad": "{}"}}"#,
            "x".repeat(900)
        );
        let ApiError::Http {
            status, request, ..
        } = http_error(reqwest::StatusCode::NOT_FOUND, URL, body.as_bytes())
        else {
            panic!("an HTTP error");
        };
        assert_eq!(status, 404);
        assert_eq!(request.method, "POST");
        assert_eq!(request.url, "https://***@h/api/v1/resources.list");
        assert!(
            request
                .body_start
                .starts_with("{\"error\": \"\\u001b[2Jgone\""),
            "{}",
            request.body_start
        );
        assert_eq!(request.body_start.chars().count(), BODY_START_CHARS + 1);
        assert!(request.body_start.ends_with('…'));
        let raw = format!("\u{1b}]0;title\u{7}{body}");
        let ApiError::Http { request, .. } =
            http_error(reqwest::StatusCode::BAD_GATEWAY, URL, raw.as_bytes())
        else {
            panic!("an HTTP error");
        };
        assert!(
            request.body_start.starts_with("␛]0;title␇{"),
            "{}",
            request.body_start
        );
    }

    #[test]
    fn a_base_url_without_a_scheme_says_what_to_add() {
        for (url, shown) in [
            ("127.0.0.1:8080/api/v1", "http://127.0.0.1:8080/api/v1"),
            ("localhost:8080/api/v1", "http://localhost:8080/api/v1"),
            ("u:secret@host/api/v1", "http://***@host/api/v1"),
        ] {
            let error = check_base_url(url).unwrap_err().to_string();
            assert!(error.contains("add http:// or https://"), "{error}");
            assert!(error.contains(shown), "{error}");
            assert!(!error.contains("secret"), "{error}");
        }
        assert!(check_base_url("http://127.0.0.1:8080/api/v1").is_ok());
        // Issue 35 item 5: credentials in the URL would add a Basic header to the bearer one.
        for url in [
            "http://u:hunter2@h/api/v1",
            "http://hunter2@h/api/v1",
            "http://:hunter2@h/api/v1",
        ] {
            let error = check_base_url(url).unwrap_err().to_string();
            assert!(error.contains("user name or password"), "{error}");
            assert!(!error.contains("hunter2"), "{error}");
        }
        let ftp = check_base_url("ftp://h/api/v1").unwrap_err().to_string();
        assert!(ftp.contains("only http and https"), "{ftp}");
    }

    /// Every reader of a page (the whole value, item by item, the raw one, the list's) keeps one
    /// rule: an answer without `resources` is no page, unless it is a refusal, said as such.
    #[test]
    fn every_page_reader_refuses_an_answer_without_resources_unless_it_is_a_refusal() {
        // Past the parser's depth as a whole, not as a member: read item by item.
        let deep = format!("{}{}", "[".repeat(127), "]".repeat(127));
        assert!(serde_json::from_str::<Value>(&deep).is_ok());
        assert!(serde_json::from_str::<Value>(&format!(r#"{{"x": {deep}}}"#)).is_err());
        let readers = |body: &str| {
            [
                decode_page(body.as_bytes()).map(drop),
                decode_raw_page(body.as_bytes().to_vec()).map(drop),
                decode_read_page(body.as_bytes().to_vec()).map(drop),
            ]
        };
        for envelope in [r#""status": "ok""#, r#""status": "error", "error": "no""#] {
            for body in [
                format!("{{{envelope}}}"),
                format!(r#"{{{envelope}, "x": {deep}}}"#),
            ] {
                for read in readers(&body) {
                    let refused = envelope.contains("error");
                    assert!(
                        match read {
                            Err(ApiError::Rejected(message)) => refused && message == "no",
                            Err(ApiError::Decode { problem, .. }) => {
                                !refused && problem == super::super::page::NO_RESOURCES
                            }
                            _ => false,
                        },
                        "{body}"
                    );
                }
            }
        }
    }

    #[test]
    fn a_refusal_is_worded_from_error_then_message() {
        let answer = |raw: Value| Answer {
            response: ReportResponse::from_map(raw.as_object().unwrap().clone()),
            http_error: None,
            text: raw.to_string(),
            raw,
        };
        let refused = |raw: Value| answer(raw).into_result().unwrap_err().to_string();
        assert_eq!(
            refused(json!({"status": "error", "error": "bad \u{1b}[2J", "message": "m"})),
            "the service answered with an error: bad \u{241b}[2J"
        );
        assert_eq!(
            refused(json!({"status": "error", "error": " ", "message": "m"})),
            "the service answered with an error: m"
        );
        assert_eq!(
            refused(json!({"status": "error"})),
            "the service answered with an error: no message given"
        );
        assert!(answer(json!({"status": "ok"})).into_result().is_ok());
    }

    /// An answer taken as accepted whose `status` is not `ok` is warned about, as written:
    /// `"OK"` and `["ok"]` passed in silence, read as "answered ok".
    #[test]
    fn a_status_neither_ok_nor_error_is_unclear_as_written() {
        let read = |text: &str| {
            let url = "http://h/api/v1/apps.operations.report";
            read_answer(
                Operation::OperationsReport,
                reqwest::StatusCode::OK,
                text.as_bytes(),
                url,
            )
            .unwrap()
        };
        let unclear = |text: &str| read(text).unclear_status(Operation::OperationsReport);
        assert_eq!(unclear(r#"{"status": "ok"}"#), None);
        assert_eq!(
            unclear(r#"{"status": "error"}"#),
            None,
            "a refusal, said as one"
        );
        let taken = "it does not say whether the report was taken";
        assert_eq!(
            unclear("{}").unwrap(),
            format!("the service's answer has no `status` (the spec requires one): {taken}")
        );
        assert_eq!(
            unclear(r#"{"status": "OK"}"#).unwrap(),
            format!(
                r#"the service's answer has the `status` "OK", neither "ok" nor "error": {taken}"#
            )
        );
        assert_eq!(
            unclear(r#"{"status": [ "ok" ], "n": 1E2}"#).unwrap(),
            format!(
                r#"the service's answer has the `status` [ "ok" ], neither "ok" nor "error": {taken}"#
            )
        );
        let connect = read(r#"{"status": 1E2}"#).unclear_status(Operation::VersionConnect);
        assert!(connect.unwrap().contains("`status` 1E2, neither"));
    }
}
