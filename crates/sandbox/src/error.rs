//! The sandbox's one error shape: every failure is answered with an HTTP status and the JSON body
//! `{"status":"error","error":"<message>"}`, so that clients can rely on a readable message.

use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use serde_json::json;

/// A request the sandbox refuses, with the status and the message to answer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct OpError {
    pub status: StatusCode,
    pub message: String,
}

impl OpError {
    pub(crate) fn new(status: StatusCode, message: impl Into<String>) -> Self {
        OpError {
            status,
            message: message.into(),
        }
    }

    /// 400: the body does not have the shape the operation needs.
    pub(crate) fn bad_request(message: impl Into<String>) -> Self {
        Self::new(StatusCode::BAD_REQUEST, message)
    }

    /// 422: well-formed, but breaks a rule (a schema, a type definition).
    pub(crate) fn unprocessable(message: impl Into<String>) -> Self {
        Self::new(StatusCode::UNPROCESSABLE_ENTITY, message)
    }
}

impl IntoResponse for OpError {
    fn into_response(self) -> Response {
        error_response(self.status, &self.message)
    }
}

/// The JSON error answer.
pub(crate) fn error_response(status: StatusCode, message: &str) -> Response {
    let body = json!({"status": "error", "error": message});
    (status, axum::Json(body)).into_response()
}
