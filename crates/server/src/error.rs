//! API errors: a status code and `{"error": "..."}`.

use axum::Json;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};

#[derive(Debug)]
pub struct ApiError {
    pub status: StatusCode,
    pub message: String,
    /// Seconds to wait before asking again (a 429's `Retry-After`).
    pub retry_after: Option<u64>,
}

impl ApiError {
    pub fn new(status: StatusCode, message: impl Into<String>) -> ApiError {
        ApiError {
            status,
            message: message.into(),
            retry_after: None,
        }
    }

    /// 429, with the seconds to wait.
    pub fn too_many(message: impl Into<String>, retry_after: u64) -> ApiError {
        ApiError {
            retry_after: Some(retry_after),
            ..ApiError::new(StatusCode::TOO_MANY_REQUESTS, message)
        }
    }

    pub fn forbidden(message: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::FORBIDDEN, message)
    }

    pub fn not_found(message: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::NOT_FOUND, message)
    }

    pub fn conflict(message: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::CONFLICT, message)
    }

    pub fn unprocessable(message: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::UNPROCESSABLE_ENTITY, message)
    }

    pub fn internal(message: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::INTERNAL_SERVER_ERROR, message)
    }
}

impl From<crate::storage::StorageError> for ApiError {
    fn from(err: crate::storage::StorageError) -> ApiError {
        ApiError::internal(err.to_string())
    }
}

/// Longest error message sent: messages quote what the client sent, and a
/// 15 000-character game name must not come back whole.
const MAX_MESSAGE_CHARS: usize = 300;

/// Longest piece of a client's input quoted in a message.
const MAX_QUOTED_CHARS: usize = 40;

/// A client's text as a message quotes it: cut to a bounded length, with
/// control and formatting characters (NUL, right-to-left overrides) escaped,
/// in quotes.
pub fn quoted(text: &str) -> String {
    let cut: String = text.chars().take(MAX_QUOTED_CHARS).collect();
    let more = if text.chars().nth(MAX_QUOTED_CHARS).is_some() {
        "…"
    } else {
        ""
    };
    format!("\"{}{more}\"", escaped(&cut))
}

/// `text` with every character that is not plainly printable written as a
/// Rust escape (`\0`, `\u{202e}`); quotes and backslashes stay as they are.
fn escaped(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        if matches!(c, '"' | '\'' | '\\') || c.escape_debug().nth(1).is_none() {
            out.push(c);
        } else {
            out.extend(c.escape_debug());
        }
    }
    out
}

/// A message as sent: escaped and bounded, whatever built it.
pub fn bounded_message(message: &str) -> String {
    let text = escaped(message);
    match text.char_indices().nth(MAX_MESSAGE_CHARS) {
        Some((cut, _)) => format!("{}…", &text[..cut]),
        None => text,
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let mut response = (
            self.status,
            Json(serde_json::json!({ "error": bounded_message(&self.message) })),
        )
            .into_response();
        if let Some(seconds) = self.retry_after {
            response
                .headers_mut()
                .insert(axum::http::header::RETRY_AFTER, seconds.into());
        }
        response
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quoted_input_is_cut_and_escaped() {
        assert_eq!(quoted("draughts"), "\"draughts\"");
        let long = "x".repeat(15_000);
        let shown = quoted(&long);
        assert_eq!(shown.chars().count(), MAX_QUOTED_CHARS + 3, "{shown}");
        assert!(shown.ends_with("…\""));
        assert_eq!(quoted("a\0b\u{202e}c"), "\"a\\0b\\u{202e}c\"");
        assert_eq!(quoted("é\"'\\"), "\"é\"'\\\"");
    }

    #[test]
    fn messages_are_bounded_and_escaped() {
        let message = format!("unknown game {}", "y".repeat(10_000));
        assert_eq!(
            bounded_message(&message).chars().count(),
            MAX_MESSAGE_CHARS + 1
        );
        assert_eq!(bounded_message("bad\u{202e}move\n"), "bad\\u{202e}move\\n");
        assert_eq!(bounded_message("plain words"), "plain words");
    }
}
