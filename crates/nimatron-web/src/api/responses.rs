//! The refusals that several operations share, written once: each set is
//! named in an operation's `responses(...)` beside the replies of its own.

use std::collections::BTreeMap;

use utoipa::IntoResponses;
use utoipa::openapi::{ContentBuilder, Ref, RefOr, ResponseBuilder, response::Response};

/// A refusal: its description, with the API's error object as its body.
pub(crate) fn error(description: &str) -> Response {
    ResponseBuilder::new()
        .description(description)
        .content(
            "application/json",
            ContentBuilder::new()
                .schema(Some(Ref::from_schema_name("Error")))
                .build(),
        )
        .build()
}

fn set(rows: &[(&str, &str)]) -> BTreeMap<String, RefOr<Response>> {
    rows.iter()
        .map(|(status, text)| (status.to_string(), error(text).into()))
        .collect()
}

const NOT_FOUND: (&str, &str) = ("404", "No game with that id (`game_not_found`)");
const TOO_LARGE: (&str, &str) = ("413", "The body is over 16 KiB (`body_too_large`)");

/// An operation on a game named by its id.
pub(crate) struct NoGame;

impl IntoResponses for NoGame {
    fn responses() -> BTreeMap<String, RefOr<Response>> {
        set(&[NOT_FOUND])
    }
}

/// An operation with a JSON body.
pub(crate) struct BodyTooLarge;

impl IntoResponses for BodyTooLarge {
    fn responses() -> BTreeMap<String, RefOr<Response>> {
        set(&[TOO_LARGE])
    }
}

/// A seat's act on a game: the seat token and a JSON body.
pub(crate) struct SeatRefusals;

impl IntoResponses for SeatRefusals {
    fn responses() -> BTreeMap<String, RefOr<Response>> {
        set(&[
            (
                "400",
                "The body or the `Authorization` header is malformed (`bad_json`, `bad_token`)",
            ),
            ("401", "No seat token (`missing_token`)"),
            (
                "403",
                "The token holds no seat in this game (`wrong_token`)",
            ),
            NOT_FOUND,
            TOO_LARGE,
        ])
    }
}

/// A change after which the computer may search for its move, in a heavy
/// turn when a cheap request's budget is not enough.
pub(crate) struct ComputerReply;

impl IntoResponses for ComputerReply {
    fn responses() -> BTreeMap<String, RefOr<Response>> {
        set(&[
            (
                "429",
                "The computer's move needs a heavy turn and this client has its share of them \
                 running or waiting (`too_many_analyses`); see `Retry-After`",
            ),
            (
                "503",
                "The computer's move needs a heavy turn and the queue is full (`server_busy`), \
                 or the database cannot be reached just now (`database_unavailable`); see \
                 `Retry-After`",
            ),
        ])
    }
}

/// An analysis, run in a heavy turn.
pub(crate) struct HeavyTurn;

impl IntoResponses for HeavyTurn {
    fn responses() -> BTreeMap<String, RefOr<Response>> {
        set(&[
            (
                "429",
                "This client has its share of analyses running or waiting \
                 (`too_many_analyses`); see `Retry-After`",
            ),
            (
                "503",
                "The server's queue of analyses is full (`server_busy`); see `Retry-After`",
            ),
        ])
    }
}
