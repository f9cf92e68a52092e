//! A refused request as the API answers it: a status and a one-line message, which echoes what
//! the client sent only as [`printable`] text.

use axum::http::{header, StatusCode};
use axum::response::{IntoResponse, Response};
use serde_json::json;

/// A refused request: its status and a one-line message, sent as `{"error": "..."}`.
#[derive(Debug)]
pub(crate) struct ApiError {
    status: StatusCode,
    message: String,
    /// Seconds after which the same request may be sent again (`Retry-After`).
    retry_after: Option<u32>,
}

impl ApiError {
    pub(crate) fn new(status: StatusCode, message: impl Into<String>) -> ApiError {
        ApiError { status, message: message.into(), retry_after: None }
    }

    /// The view is busy with heavy requests: 503, to be sent again in a second or two.
    pub(crate) fn busy() -> ApiError {
        let message = format!(
            "busy: {} heavy requests are running and {} wait; try again in a moment",
            crate::state::HEAVY_AT_ONCE,
            crate::state::HEAVY_WAITING
        );
        ApiError { retry_after: Some(2), ..ApiError::new(StatusCode::SERVICE_UNAVAILABLE, message) }
    }

    pub(crate) fn bad(message: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::BAD_REQUEST, message)
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let mut response =
            (self.status, axum::Json(json!({ "error": self.message }))).into_response();
        if let Some(seconds) = self.retry_after {
            response.headers_mut().insert(header::RETRY_AFTER, seconds.into());
        }
        response
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
