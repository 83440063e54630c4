//! Games: create one, read one (as it is, a position of its record, a page
//! of its legal moves), and list them.

use axum::extract::rejection::{PathRejection, QueryRejection};
use axum::extract::{Path, Query, State};
use axum::http::StatusCode;
use axum::response::Response;
use serde::Deserialize;
use utoipa::IntoParams;

use crate::error::{ApiError, ErrorBody};
use crate::limits::Client;
use crate::requests::NewGame;
use crate::views::{GameList, GameView, MovePage, PositionView, SeatGrant};

use super::extract::{GameId, OptionalBody, json, not_text};
use super::responses::{BodyTooLarge, ComputerReply, NoGame};
use super::state::AppState;

/// Create a game; the creator holds seat 0 and gets its token. If the
/// computer moves first, it has already moved in the reply.
#[utoipa::path(
    post,
    path = "/games",
    tag = "games",
    request_body(
        content = NewGame,
        description = "Every field is optional, and so is the body: none is `{}`.",
        content_type = "application/json"
    ),
    responses(
        (status = 201, description = "The game, the creator's seat and token (and, for online games, the invite)", body = SeatGrant),
        (status = 400, description = "The body or a field is malformed (`bad_json`, `unknown_game`, `bad_spec`, `bad_convention`, `bad_level`, ...)", body = ErrorBody),
        (status = 422, description = "Well formed, but not for this game or beyond the server's limits (`bad_position`, `position_too_large`, `too_many_moves`, `no_moves`, ...)", body = ErrorBody),
        BodyTooLarge, ComputerReply,
    )
)]
pub(crate) async fn create_game(
    State(app): State<AppState>,
    client: Client,
    OptionalBody(req): OptionalBody<NewGame>,
) -> Result<Response, ApiError> {
    let grant = app
        .with_computer(client, move |engine, budget| {
            engine.create_within(req.clone(), budget)
        })
        .await?;
    Ok(json(StatusCode::CREATED, &grant))
}

/// A game, as anyone with its id sees it.
#[utoipa::path(
    get,
    path = "/games/{id}",
    tag = "games",
    params(GameId),
    responses((status = 200, description = "The game", body = GameView), NoGame)
)]
pub(crate) async fn get_game(
    State(app): State<AppState>,
    GameId(id): GameId,
) -> Result<Response, ApiError> {
    let view = app.cheap(move |engine| engine.get(&id)).await?;
    Ok(json(StatusCode::OK, &view))
}

/// A position of the game's record, drawn: the start (ply 0) or the
/// position after a move, for replaying the game.
#[utoipa::path(
    get,
    path = "/games/{id}/positions/{ply}",
    tag = "games",
    params(
        GameId,
        ("ply" = String, Path, description = "Moves made before the position: 0 for the start (a move count, at most 999999999 as the document writes it)", pattern = "^(0|[1-9][0-9]{0,8})$"),
    ),
    responses(
        (status = 200, description = "The position", body = PositionView),
        (status = 400, description = "The ply is not a move count (`bad_ply`)", body = ErrorBody),
        (status = 404, description = "No game with that id (`game_not_found`), or no such ply in its record (`no_such_ply`)", body = ErrorBody),
    )
)]
pub(crate) async fn game_position(
    State(app): State<AppState>,
    path: Result<Path<(String, String)>, PathRejection>,
) -> Result<Response, ApiError> {
    let Ok(Path((id, ply))) = path else {
        return Err(not_text());
    };
    let ply: u32 = ply.parse().map_err(|_| {
        ApiError::bad_request(
            "bad_ply",
            format!("'{ply}' is not a ply: expected a move count from 0 (the start) up"),
        )
    })?;
    let view = app.cheap(move |engine| engine.position(&id, ply)).await?;
    Ok(json(StatusCode::OK, &view))
}

/// Query of `GET /api/games/{id}/legal-moves`.
#[derive(Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
#[serde(deny_unknown_fields)]
pub(crate) struct PageQuery {
    /// The first move, counting from 0 (default 0).
    #[param(maximum = 18446744073709551615_u64)]
    offset: Option<u64>,
    /// Moves per page (default and most: the server's `--max-listed`, 1000
    /// unless set).
    #[param(minimum = 1, maximum = 18446744073709551615_u64)]
    limit: Option<u64>,
}

/// The legal moves of a game's current position, a page at a time: what a
/// game view leaves out when a position has more than one reply lists.
#[utoipa::path(
    get,
    path = "/games/{id}/legal-moves",
    tag = "games",
    params(GameId, PageQuery),
    responses(
        (status = 200, description = "A page of the legal moves", body = MovePage),
        (status = 400, description = "A query parameter does not parse or is out of range (`bad_query`, `bad_request`)", body = ErrorBody),
        NoGame,
    )
)]
pub(crate) async fn legal_moves(
    State(app): State<AppState>,
    GameId(id): GameId,
    query: Result<Query<PageQuery>, QueryRejection>,
) -> Result<Response, ApiError> {
    let Query(q) = query.map_err(|e| ApiError::bad_request("bad_query", e.body_text()))?;
    let page = app
        .cheap(move |engine| engine.legal_moves(&id, q.offset.unwrap_or(0), q.limit))
        .await?;
    Ok(json(StatusCode::OK, &page))
}

/// Query of `GET /api/games`.
#[derive(Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
#[serde(deny_unknown_fields)]
pub(crate) struct ListQuery {
    /// Games per page (default 50, at most 200).
    #[param(maximum = 4294967295_u64)]
    limit: Option<u32>,
    /// Games to skip, newest first (default 0).
    #[param(maximum = 4294967295_u64)]
    offset: Option<u32>,
    /// Only these games: their ids, separated by commas (at most 200). The
    /// browser lists the games whose seats it holds this way. `total` is
    /// then the number of them found.
    ids: Option<String>,
}

/// The most ids `GET /api/games?ids=` takes.
const MAX_LISTED_IDS: usize = 200;

/// The stored games, newest first.
#[utoipa::path(
    get,
    path = "/games",
    tag = "games",
    params(ListQuery),
    responses(
        (status = 200, description = "A page of the history", body = GameList),
        (status = 400, description = "A query parameter does not parse (`bad_query`)", body = ErrorBody),
    )
)]
pub(crate) async fn list_games(
    State(app): State<AppState>,
    query: Result<Query<ListQuery>, QueryRejection>,
) -> Result<Response, ApiError> {
    let Query(q) = query.map_err(|e| ApiError::bad_request("bad_query", e.body_text()))?;
    if let Some(ids) = q.ids {
        let ids: Vec<String> = ids
            .split(',')
            .map(str::trim)
            .filter(|s| !s.is_empty())
            .map(String::from)
            .collect();
        if ids.len() > MAX_LISTED_IDS {
            return Err(ApiError::bad_request(
                "bad_query",
                format!(
                    "ids lists {} games: at most {MAX_LISTED_IDS} are listed at once",
                    ids.len()
                ),
            ));
        }
        let games = app
            .cheap(move |engine| {
                let games = engine.games_with_ids(&ids)?;
                let total = games.len() as u64;
                Ok(GameList { games, total })
            })
            .await?;
        return Ok(json(StatusCode::OK, &games));
    }
    let games = app
        .cheap(move |engine| {
            let games = engine.recent(q.limit.unwrap_or(50), q.offset.unwrap_or(0))?;
            let total = engine.store().count()?;
            Ok(GameList { games, total })
        })
        .await?;
    Ok(json(StatusCode::OK, &games))
}
