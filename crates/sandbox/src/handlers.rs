//! The HTTP face of the sandbox: the three routes under `/api/v1`, the bearer-token check, the
//! 1 MiB body limit and the time to send it, the injected faults, the page `platform_app_url`
//! points at, and a debug log line per request. Every refusal of an operation is the JSON error
//! body of [`super::error`], including 400, 401, 404, 405, 408 and 413.

use std::sync::Arc;
use std::time::{Duration, Instant};

use axum::Router;
use axum::body::Bytes;
use axum::extract::rejection::BytesRejection;
use axum::extract::{DefaultBodyLimit, Path, Request, State};
use axum::http::header::{
    AUTHORIZATION, CONNECTION, CONTENT_LENGTH, CONTENT_TYPE, WWW_AUTHENTICATE,
};
use axum::http::{HeaderValue, Method, StatusCode, Uri};
use axum::middleware::{self, Next};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use http_body_util::{BodyExt, LengthLimitError, Limited};
use serde_json::{Map, Value};
use tokio::sync::watch;

use super::checks::SchemaChecks;
use super::connect::connect;
use super::error::{OpError, error_response};
use super::fault::Fault;
use super::list::{ListQuery, page_body, page_body_with_nulls};
use super::report::{RESOURCE_PAGE_PREFIX, report};
use super::request::parse_object;
use super::resource_page::resource_page;
use super::spaced::spaced_out;
use super::store::SandboxStore;

/// Bodies above this get 413: the service's limits are not in its spec, and 1 MiB is far above
/// any sensible report or connect payload.
pub(crate) const MAX_BODY_BYTES: usize = 1024 * 1024;

/// What every request handler shares.
#[derive(Clone)]
pub(crate) struct AppState {
    pub store: SandboxStore,
    pub tokens: Arc<[String]>,
    pub fault: Option<Fault>,
    /// Runs the schema checks of reports off the server's threads, within a time budget.
    pub checks: SchemaChecks,
    /// Time a client has to send a request's body.
    pub body_timeout: Duration,
    /// `http://host:port`, for the `platform_app_url` of report answers.
    pub origin: Arc<str>,
    /// Becomes `true` when the sandbox shuts down; a slow answer stops waiting then.
    pub shutdown: watch::Receiver<bool>,
    /// Becomes `true` once the data is loaded; requests wait for it (see `Sandbox::start_early`).
    pub ready: watch::Receiver<bool>,
}

pub(crate) fn router(state: AppState) -> Router {
    Router::new()
        .route("/api/v1/resources.list", post(list))
        .route("/api/v1/apps.operations.report", post(report_route))
        .route("/api/v1/apps.version.connect", post(connect_route))
        .route_layer(middleware::from_fn_with_state(state.clone(), inject_fault))
        .route_layer(middleware::from_fn_with_state(
            state.clone(),
            read_body_in_time,
        ))
        .route_layer(middleware::from_fn_with_state(state.clone(), require_token))
        .route_layer(middleware::from_fn_with_state(
            state.clone(),
            wait_until_ready,
        ))
        // Opened in a browser, which cannot send the bearer token: read-only and token-free.
        .route(
            &format!("{RESOURCE_PAGE_PREFIX}{{id}}"),
            get(resource_page_route),
        )
        .method_not_allowed_fallback(method_not_allowed)
        .fallback(not_found)
        .layer(DefaultBodyLimit::max(MAX_BODY_BYTES))
        .layer(middleware::from_fn(log_request))
        .with_state(state)
}

/// A page served instead of JSON by the not-json fault, as a misconfigured proxy would.
const NOT_JSON_PAGE: &str = "<!DOCTYPE html>\n<html><head><title>502 Bad Gateway</title></head>\
<body><h1>Bad Gateway</h1><p>appdeck sandbox: injected fault, this answer is not JSON.</p></body></html>\n";

/// Where the empty-pages fault's cursors start: beyond any row's sequence number, so the pages
/// they ask for are empty.
const EMPTY_PAGES_FROM: u64 = 1 << 62;

/// The element the malformed-item fault puts in every page: valid JSON, but not a resource.
const MALFORMED_ITEM: &str = r#""injected fault: this item is not a resource object""#;

/// Applies the configured fault to every operation: `slow`, `status` and `not-json` to all
/// three; `repeat-cursor`, `empty-pages`, `malformed-item`, `nulls` and `spaced` shape
/// `resources.list` pages (see [`list`]).
async fn inject_fault(State(app): State<AppState>, request: Request, next: Next) -> Response {
    match app.fault {
        Some(Fault::Slow(delay)) if !pause(&app, delay).await => error_response(
            StatusCode::SERVICE_UNAVAILABLE,
            "the sandbox is shutting down",
        ),
        Some(Fault::Status(code)) => {
            let status = StatusCode::from_u16(code).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR);
            error_response(
                status,
                &format!("injected fault: answering HTTP {code} on purpose"),
            )
        }
        Some(Fault::NotJson) => {
            let html = HeaderValue::from_static("text/html; charset=utf-8");
            (StatusCode::OK, [(CONTENT_TYPE, html)], NOT_JSON_PAGE).into_response()
        }
        _ => next.run(request).await,
    }
}

async fn list(State(app): State<AppState>, body: Result<Bytes, BytesRejection>) -> Response {
    let query = match read_body(body).and_then(|map| ListQuery::parse(&map)) {
        Ok(query) => query,
        Err(error) => return error.into_response(),
    };
    let page = query.fetch(&app.store);
    let next = match app.fault {
        Some(Fault::RepeatCursor) => query
            .cursor_text
            .clone()
            .or_else(|| query.next_cursor(&page)),
        // Past every row, one further each time: empty pages, each cursor new.
        Some(Fault::EmptyPages) => Some(query.cursor_after(query.after.max(EMPTY_PAGES_FROM) + 1)),
        _ => query.next_cursor(&page),
    };
    let extra = matches!(app.fault, Some(Fault::MalformedItem)).then_some(MALFORMED_ITEM);
    let json = HeaderValue::from_static("application/json");
    let body = match app.fault {
        Some(Fault::Nulls) => page_body_with_nulls(&page, next.as_deref()),
        Some(Fault::Spaced) => spaced_out(&page_body(&page, next.as_deref(), None)),
        _ => page_body(&page, next.as_deref(), extra),
    };
    ([(CONTENT_TYPE, json)], body).into_response()
}

async fn report_route(
    State(app): State<AppState>,
    body: Result<Bytes, BytesRejection>,
) -> Response {
    // The text too: the resource is stored as it was written.
    let text = match &body {
        Ok(bytes) => String::from_utf8_lossy(bytes).into_owned(),
        Err(_) => String::new(),
    };
    let map = match read_body(body) {
        Ok(map) => map,
        Err(error) => return error.into_response(),
    };
    answer(report(&app.store, &app.checks, (map, &text), &app.origin).await)
}

async fn connect_route(
    State(app): State<AppState>,
    body: Result<Bytes, BytesRejection>,
) -> Response {
    answer(read_body(body).and_then(|map| connect(&app.store, map)))
}

fn answer(result: Result<Value, OpError>) -> Response {
    match result {
        Ok(body) => axum::Json(body).into_response(),
        Err(error) => error.into_response(),
    }
}

/// The body as a JSON object; a body over the limit is a 413 with the JSON error body.
fn read_body(body: Result<Bytes, BytesRejection>) -> Result<Map<String, Value>, OpError> {
    let bytes = body.map_err(|rejection| {
        let status = rejection.status();
        if status == StatusCode::PAYLOAD_TOO_LARGE {
            OpError::new(status, "the request body is larger than the 1 MiB limit")
        } else {
            OpError::new(
                status,
                format!("cannot read the request body: {}", rejection.body_text()),
            )
        }
    })?;
    parse_object(&bytes)
}

/// Waits `delay`; `false` when the sandbox began shutting down first.
async fn pause(app: &AppState, delay: Duration) -> bool {
    let mut shutdown = app.shutdown.clone();
    tokio::select! {
        () = tokio::time::sleep(delay) => true,
        _ = shutdown.wait_for(|stop| *stop) => false,
    }
}

/// Reads the whole body before the operation sees it, within the body limit and the body
/// timeout: a declared length over the limit is a 413 before any of it is read (so a client
/// sending `Expect: 100-continue` is refused at once), and a body that stalls is a 408.
async fn read_body_in_time(State(app): State<AppState>, request: Request, next: Next) -> Response {
    let declared = request
        .headers()
        .get(CONTENT_LENGTH)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.trim().parse::<u64>().ok());
    if declared.is_some_and(|length| length > MAX_BODY_BYTES as u64) {
        return closing(too_large().into_response());
    }
    let (parts, body) = request.into_parts();
    let read = Limited::new(body, MAX_BODY_BYTES).collect();
    let bytes = match tokio::time::timeout(app.body_timeout, read).await {
        Ok(Ok(collected)) => collected.to_bytes(),
        Ok(Err(e)) if e.downcast_ref::<LengthLimitError>().is_some() => {
            return too_large().into_response();
        }
        Ok(Err(e)) => {
            return OpError::bad_request(format!("cannot read the request body: {e}"))
                .into_response();
        }
        Err(_) => {
            return OpError::new(
                StatusCode::REQUEST_TIMEOUT,
                format!(
                    "the request body did not arrive within {}s",
                    app.body_timeout.as_secs_f64()
                ),
            )
            .into_response();
        }
    };
    next.run(Request::from_parts(parts, axum::body::Body::from(bytes)))
        .await
}

fn too_large() -> OpError {
    OpError::new(
        StatusCode::PAYLOAD_TOO_LARGE,
        "the request body is larger than the 1 MiB limit",
    )
}

/// Holds a request until the data is loaded, so an early client sees the full listing rather
/// than an empty or partial one.
async fn wait_until_ready(State(app): State<AppState>, request: Request, next: Next) -> Response {
    let mut ready = app.ready.clone();
    // A dropped sender means loading ended (even by failing): serve what there is.
    let _ = ready.wait_for(|ready| *ready).await;
    next.run(request).await
}

/// Lets a request through only with one `Authorization: Bearer <accepted token>` header.
async fn require_token(State(app): State<AppState>, request: Request, next: Next) -> Response {
    if request
        .headers()
        .get_all(AUTHORIZATION)
        .iter()
        .nth(1)
        .is_some()
    {
        // Which one would count is ambiguous, and proxies disagree: refuse rather than guess.
        return closing(error_response(
            StatusCode::BAD_REQUEST,
            "more than one Authorization header; send exactly one `Authorization: Bearer <token>`",
        ));
    }
    let header = request.headers().get(AUTHORIZATION);
    let refusal = match header.map(|h| h.to_str().map(bearer_token)) {
        None => "missing bearer token: send the header `Authorization: Bearer <token>`",
        Some(Ok(Some(token))) if accepts(&app.tokens, token) => return next.run(request).await,
        Some(Ok(Some(_))) => "the bearer token is not accepted by this sandbox",
        Some(_) => "the Authorization header must be `Bearer <token>`",
    };
    tracing::debug!(path = %request.uri().path(), "refused a request: {refusal}");
    let mut response = error_response(StatusCode::UNAUTHORIZED, refusal);
    response.headers_mut().insert(
        WWW_AUTHENTICATE,
        HeaderValue::from_static("Bearer realm=\"appdeck sandbox\""),
    );
    closing(response)
}

/// The token of a `Bearer <token>` header value (the scheme is case-insensitive).
fn bearer_token(value: &str) -> Option<&str> {
    let (scheme, token) = value.trim().split_once(' ')?;
    let token = token.trim();
    (scheme.eq_ignore_ascii_case("bearer") && !token.is_empty()).then_some(token)
}

/// Compares in time independent of where the token differs, so timing reveals nothing of it.
fn accepts(tokens: &[String], candidate: &str) -> bool {
    tokens.iter().fold(false, |found, token| {
        let same_length = token.len() == candidate.len();
        let diff = token
            .bytes()
            .zip(candidate.bytes())
            .fold(0u8, |acc, (a, b)| acc | (a ^ b));
        found | (same_length && diff == 0)
    })
}

async fn resource_page_route(State(app): State<AppState>, Path(id): Path<String>) -> Response {
    let mut ready = app.ready.clone();
    let _ = ready.wait_for(|ready| *ready).await;
    resource_page(&app.store, &id)
}

async fn not_found(uri: Uri) -> Response {
    closing(error_response(
        StatusCode::NOT_FOUND,
        &format!(
            "no operation at {}; the sandbox serves POST /api/v1/resources.list, \
             /api/v1/apps.operations.report and /api/v1/apps.version.connect",
            uri.path()
        ),
    ))
}

async fn method_not_allowed(method: Method) -> Response {
    closing(error_response(
        StatusCode::METHOD_NOT_ALLOWED,
        &format!("method {method} is not allowed here; the operations take POST"),
    ))
}

/// An answer sent before the request's body was read: hyper then closes the connection, and a
/// client that reuses it fails its next request. The answer says the connection closes.
fn closing(mut response: Response) -> Response {
    response
        .headers_mut()
        .insert(CONNECTION, HeaderValue::from_static("close"));
    response
}

/// One debug log line per request: method, path, status and time. Never headers or bodies, which
/// carry the token and the user's data. Debug, so that a default run logs only what matters.
async fn log_request(request: Request, next: Next) -> Response {
    let method = request.method().clone();
    let path = request.uri().path().to_owned();
    let started = Instant::now();
    // Marks that a request reached a handler (tests wait for it rather than sleeping).
    tracing::debug!(%method, %path, "sandbox request received");
    let response = next.run(request).await;
    tracing::debug!(
        %method,
        %path,
        status = response.status().as_u16(),
        elapsed_ms = started.elapsed().as_secs_f64() * 1000.0,
        "sandbox request"
    );
    response
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bearer_tokens_are_read_and_compared_exactly() {
        assert_eq!(bearer_token("Bearer abc"), Some("abc"));
        assert_eq!(bearer_token("bearer   abc "), Some("abc"));
        assert_eq!(bearer_token("Basic abc"), None);
        assert_eq!(bearer_token("Bearer"), None);
        let tokens = ["secret".to_owned(), "other".to_owned()];
        assert!(accepts(&tokens, "other"));
        assert!(!accepts(&tokens, "secre"));
        assert!(!accepts(&tokens, "secret2"));
        assert!(!accepts(&tokens, ""));
    }
}
