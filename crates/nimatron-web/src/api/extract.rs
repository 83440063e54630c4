//! What a handler takes from a request, each refused as the API's JSON
//! error: the client, a game's id, the seat token, and a JSON body.

use std::convert::Infallible;

use axum::body::Bytes;
use axum::extract::{FromRequest, FromRequestParts, Path, Request};
use axum::http::request::Parts;
use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Response};
use serde::de::DeserializeOwned;
use utoipa::IntoParams;
use utoipa::openapi::path::{Parameter, ParameterBuilder, ParameterIn};
use utoipa::openapi::{ObjectBuilder, Required, Type};

use crate::error::ApiError;
use crate::limits::Client;

/// The largest request body accepted, in bytes.
pub const BODY_LIMIT: usize = 16 * 1024;

impl<S: Send + Sync> FromRequestParts<S> for Client {
    type Rejection = Infallible;

    async fn from_request_parts(parts: &mut Parts, _: &S) -> Result<Client, Infallible> {
        Ok(parts
            .extensions
            .get::<Client>()
            .copied()
            .unwrap_or(Client::UNKNOWN))
    }
}

/// The pattern of a game's id, as the document gives it.
pub(crate) const GAME_ID_PATTERN: &str = "^[0-9a-f]{16}$";

/// The `{id}` of a game's path. One that does not decode to text is no
/// game's id: it gets the API's JSON 404, not the extractor's plain-text 400.
pub(crate) struct GameId(pub String);

impl<S: Send + Sync> FromRequestParts<S> for GameId {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<GameId, ApiError> {
        match Path::<String>::from_request_parts(parts, state).await {
            Ok(Path(id)) => Ok(GameId(id)),
            Err(_) => Err(not_text()),
        }
    }
}

/// The refusal of a game id that is not UTF-8.
pub(crate) fn not_text() -> ApiError {
    ApiError::new(
        StatusCode::NOT_FOUND,
        "game_not_found",
        "no game has that id: it is not UTF-8 text",
    )
}

impl IntoParams for GameId {
    fn into_params(_: impl Fn() -> Option<ParameterIn>) -> Vec<Parameter> {
        vec![game_id_param()]
    }
}

/// The `{id}` path parameter, as the document gives it.
pub(crate) fn game_id_param() -> Parameter {
    ParameterBuilder::new()
        .name("id")
        .parameter_in(ParameterIn::Path)
        .required(Required::True)
        .description(Some(
            "The game's id: 16 hex digits, as `POST /api/games` gave it",
        ))
        .schema(Some(
            ObjectBuilder::new()
                .schema_type(Type::String)
                .pattern(Some(GAME_ID_PATTERN))
                .min_length(Some(16))
                .max_length(Some(16)),
        ))
        .build()
}

/// The seat token of `Authorization: Bearer TOKEN`, if sent. The scheme's
/// name is read without regard to case (RFC 9110, section 11.1).
pub(crate) struct SeatToken(pub Option<String>);

impl<S: Send + Sync> FromRequestParts<S> for SeatToken {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, _: &S) -> Result<SeatToken, ApiError> {
        let Some(value) = parts.headers.get(header::AUTHORIZATION) else {
            return Ok(SeatToken(None));
        };
        let text = value.to_str().map_err(|_| {
            ApiError::bad_request("bad_token", "the Authorization header is not plain text")
        })?;
        let (scheme, token) = text.trim().split_once(' ').unwrap_or((text.trim(), ""));
        let token = token.trim();
        if !scheme.eq_ignore_ascii_case("bearer") || token.is_empty() {
            return Err(ApiError::bad_request(
                "bad_token",
                "the Authorization header must be 'Bearer TOKEN'",
            ));
        }
        Ok(SeatToken(Some(token.to_string())))
    }
}

/// A JSON body, which must be there.
pub(crate) struct Body<T>(pub T);

/// A JSON body that may be left out: an empty body is `{}`.
pub(crate) struct OptionalBody<T>(pub T);

impl<S: Send + Sync, T: DeserializeOwned> FromRequest<S> for Body<T> {
    type Rejection = ApiError;

    async fn from_request(req: Request, state: &S) -> Result<Body<T>, ApiError> {
        Ok(Body(parse_body(req, state, false).await?))
    }
}

impl<S: Send + Sync, T: DeserializeOwned> FromRequest<S> for OptionalBody<T> {
    type Rejection = ApiError;

    async fn from_request(req: Request, state: &S) -> Result<OptionalBody<T>, ApiError> {
        Ok(OptionalBody(parse_body(req, state, true).await?))
    }
}

async fn parse_body<S: Send + Sync, T: DeserializeOwned>(
    req: Request,
    state: &S,
    empty_ok: bool,
) -> Result<T, ApiError> {
    let bytes = Bytes::from_request(req, state).await.map_err(|e| {
        if e.status() == StatusCode::PAYLOAD_TOO_LARGE {
            ApiError::new(
                StatusCode::PAYLOAD_TOO_LARGE,
                "body_too_large",
                format!("the request body is larger than {BODY_LIMIT} bytes"),
            )
        } else {
            ApiError::bad_request("bad_body", format!("could not read the body: {e}"))
        }
    })?;
    // Empty means nothing but JSON's own whitespace: `u8::is_ascii_whitespace`
    // also takes a form feed, and a body of one was accepted as `{}`.
    let json_space = |b: &u8| matches!(b, b' ' | b'\t' | b'\n' | b'\r');
    let bytes: &[u8] = if empty_ok && bytes.iter().all(json_space) {
        b"{}"
    } else {
        &bytes
    };
    // Every body is an object: serde would also read a struct from an
    // array of its fields in order (`[]`, `[3]`), which the document does
    // not allow (found by schemathesis).
    if bytes.iter().find(|b| !json_space(b)) != Some(&b'{') {
        return Err(ApiError::bad_request(
            "bad_json",
            "malformed JSON body: expected a JSON object ({...})",
        ));
    }
    serde_json::from_slice(bytes)
        .map_err(|e| ApiError::bad_request("bad_json", format!("malformed JSON body: {e}")))
}

/// A JSON reply.
pub(crate) fn json<T: serde::Serialize>(status: StatusCode, value: &T) -> Response {
    (status, axum::Json(value)).into_response()
}
