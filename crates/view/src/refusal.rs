//! A refused request as the API answers it: a status and a one-line message, which echoes what
//! the client sent only as [`printable`] text.

use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use serde_json::json;

/// A refused request: its status and a one-line message, sent as `{"error": "..."}`.
#[derive(Debug)]
pub(crate) struct ApiError {
    status: StatusCode,
    message: String,
}

impl ApiError {
    pub(crate) fn new(status: StatusCode, message: impl Into<String>) -> ApiError {
        ApiError { status, message: message.into() }
    }

    pub(crate) fn bad(message: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::BAD_REQUEST, message)
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        (self.status, axum::Json(json!({ "error": self.message }))).into_response()
    }
}

/// `text` cut to 40 characters, control characters escaped: safe to echo in a message.
pub(crate) fn printable(text: &str) -> String {
    let cut: String = text.chars().take(40).collect();
    let escaped = cut.escape_debug().to_string();
    if text.chars().count() > 40 {
        format!("{escaped}…")
    } else {
        escaped
    }
}
