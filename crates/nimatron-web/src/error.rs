//! The one error type of the API: a status code, a stable machine-readable
//! code, and a message that names the problem; and how the library's and the
//! store's errors map onto it.

use std::fmt;

use axum::Json;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use nimatron::{Game, GameError, Position, PositionError, SpecError};
use serde::Serialize;
use utoipa::ToSchema;

use crate::store::WriteError;

/// An error reply: `{"error": {"code": ..., "message": ...}}`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ApiError {
    /// The HTTP status.
    pub status: StatusCode,
    /// A stable code, e.g. `illegal_move`.
    pub code: &'static str,
    /// What was wrong, for people.
    pub message: String,
    /// For a busy server: the seconds to wait before retrying, sent as
    /// `Retry-After`.
    pub retry_after: Option<u64>,
}

impl ApiError {
    /// An error with this status, code and message.
    pub fn new(status: StatusCode, code: &'static str, message: impl Into<String>) -> ApiError {
        ApiError {
            status,
            code,
            message: message.into(),
            retry_after: None,
        }
    }

    /// The same refusal, asking the client to retry after `seconds`.
    pub fn retry_after(mut self, seconds: u64) -> ApiError {
        self.retry_after = Some(seconds);
        self
    }

    /// 400: the request is malformed.
    pub fn bad_request(code: &'static str, message: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::BAD_REQUEST, code, message)
    }

    /// 422: well-formed, but not acceptable for this game.
    pub fn unprocessable(code: &'static str, message: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::UNPROCESSABLE_ENTITY, code, message)
    }

    /// 409: the game is not in a state that allows this.
    pub fn conflict(code: &'static str, message: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::CONFLICT, code, message)
    }

    /// 404: no such game.
    pub fn game_not_found(id: &str) -> ApiError {
        ApiError::new(
            StatusCode::NOT_FOUND,
            "game_not_found",
            format!("no game with id '{id}'"),
        )
    }

    /// 500: our fault, not the request's. The reply says "internal error"
    /// with an id; the message goes to the server's log under that id.
    pub fn internal(message: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::INTERNAL_SERVER_ERROR, "internal", message)
    }
}

impl fmt::Display for ApiError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} {}: {}",
            self.status.as_u16(),
            self.code,
            self.message
        )
    }
}

impl std::error::Error for ApiError {}

/// The body of every refusal, as the OpenAPI document names it.
pub(crate) type ErrorBody = Body<'static>;

/// The body of every refusal.
#[derive(Serialize, ToSchema)]
#[schema(as = Error)]
pub(crate) struct Body<'a> {
    /// What was refused and why.
    error: Inner<'a>,
}

/// A refusal: its stable code and a message for people.
#[derive(Serialize, ToSchema)]
#[schema(as = ErrorDetail)]
pub(crate) struct Inner<'a> {
    /// A stable code, e.g. `illegal_move` (the codes are listed in
    /// docs/api.md).
    code: &'a str,
    /// What was wrong, for people.
    message: &'a str,
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        // A fault of the server: its details (SQLite's text, a path) stay
        // in the log, and the reply names the log line.
        let internal;
        let message = if self.status.is_server_error() && self.retry_after.is_none() {
            let id = log_internal(&self.message);
            internal = format!("internal error {id}: the server's log has the details");
            &internal
        } else {
            &self.message
        };
        let body = Body {
            error: Inner {
                code: self.code,
                message,
            },
        };
        let mut response = (self.status, Json(body)).into_response();
        if let Some(seconds) = self.retry_after {
            response.headers_mut().insert(
                axum::http::header::RETRY_AFTER,
                axum::http::HeaderValue::from(seconds),
            );
        }
        response
    }
}

/// Write an internal error to the log (standard error) under a fresh id,
/// and return the id.
pub(crate) fn log_internal(message: &str) -> String {
    let id = format!("{:016x}", crate::token::random_u64());
    eprintln!(
        "nimatron serve: internal error {id} at {} ms: {message}",
        crate::clock::now_ms()
    );
    id
}

/// What a busy reply asks the client to wait, in seconds.
pub const RETRY_AFTER_SECS: u64 = 2;

impl From<crate::store::DbError> for ApiError {
    /// A database that cannot be reached now (restarting, every connection
    /// busy) is `503` with `Retry-After`, its cause in the log; any other
    /// failure is an internal error.
    fn from(e: crate::store::DbError) -> ApiError {
        if e.unavailable {
            let id = log_internal(&e.to_string());
            ApiError::new(
                StatusCode::SERVICE_UNAVAILABLE,
                "database_unavailable",
                format!(
                    "the game records cannot be reached just now (log entry {id}); retry shortly"
                ),
            )
            .retry_after(RETRY_AFTER_SECS)
        } else {
            ApiError::internal(e.to_string())
        }
    }
}

/// A game spec that does not parse or cannot be built.
pub(crate) fn spec_error(e: SpecError) -> ApiError {
    match e {
        SpecError::UnknownGame { .. } => ApiError::bad_request("unknown_game", e.to_string()),
        SpecError::BadParameters { .. } | SpecError::HeapGame(_) => {
            ApiError::bad_request("bad_spec", e.to_string())
        }
        SpecError::NotPlayable { .. } => ApiError::unprocessable("game_unavailable", e.to_string()),
    }
}

/// Map a library error on analysis to an API error.
pub fn game_error(e: GameError) -> ApiError {
    match e {
        GameError::Position(p) => ApiError::unprocessable("bad_position", p.to_string()),
        GameError::Convention { .. } => ApiError::unprocessable("bad_convention", e.to_string()),
        GameError::Solve(s) => ApiError::unprocessable(
            "solver_limit",
            format!("{s}: the position is too large for this server; try a smaller one"),
        ),
    }
}

/// A position in a request that the game refuses.
pub(crate) fn position_error(e: PositionError) -> ApiError {
    ApiError::unprocessable("bad_position", e.to_string())
}

/// Something read back from the store that no longer holds: our fault.
pub(crate) fn stored(what: &str, e: impl std::fmt::Display) -> ApiError {
    ApiError::internal(format!("stored {what} no longer valid: {e}"))
}

/// A stored position, parsed.
pub(crate) fn stored_position(game: &dyn Game, text: &str) -> Result<Position, ApiError> {
    game.parse(text).map_err(|e| stored("position", e))
}

/// A write of a game that was read first (a move, a join): a conflict means
/// the game changed in between.
pub(crate) fn write_error(e: WriteError) -> ApiError {
    match e {
        WriteError::Conflict => ApiError::conflict(
            "stale_ply",
            "the game changed while the move was being checked: reload and try again",
        ),
        WriteError::Db(e) => e.into(),
    }
}
