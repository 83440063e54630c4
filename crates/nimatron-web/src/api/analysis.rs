//! Analysis: a game's (its position solved and its moves judged), any
//! position's, a heap game's values for the Explore page, and the catalogue.

use axum::extract::rejection::QueryRejection;
use axum::extract::{Query, State};
use axum::http::StatusCode;
use axum::response::Response;

use crate::error::{ApiError, ErrorBody};
use crate::explore::{self, Explore, ExploreQuery};
use crate::limits::Client;
use crate::requests::AnalyzeRequest;
use crate::views::{AnalysisView, Catalogue, GameAnalysis};

use super::extract::{Body, GameId, json};
use super::responses::{BodyTooLarge, HeavyTurn, NoGame};
use super::state::AppState;

/// The current position solved, and every move made judged.
#[utoipa::path(
    get,
    path = "/games/{id}/analysis",
    tag = "games",
    params(GameId),
    responses(
        (status = 200, description = "The analysis", body = GameAnalysis),
        (status = 403, description = "An online game under way whose seats have not both agreed to show it (`analysis_not_agreed`)", body = ErrorBody),
        (status = 422, description = "The current position is beyond the server's limits (`solver_limit`, `position_too_large`, `too_many_moves`)", body = ErrorBody),
        NoGame, HeavyTurn,
    )
)]
pub(crate) async fn game_analysis(
    State(app): State<AppState>,
    client: Client,
    GameId(id): GameId,
) -> Result<Response, ApiError> {
    let a = app
        .heavy(client, move |engine| engine.game_analysis(&id))
        .await?;
    Ok(json(StatusCode::OK, &a))
}

/// Solve any position, without a game.
#[utoipa::path(
    post,
    path = "/analyze",
    tag = "analysis",
    request_body(content = AnalyzeRequest, content_type = "application/json"),
    responses(
        (status = 200, description = "The position solved, every legal move valued", body = AnalysisView),
        (status = 400, description = "The body or a field is malformed (`bad_json`, `unknown_game`, `bad_spec`, `bad_convention`)", body = ErrorBody),
        (status = 422, description = "Well formed, but not for this game or beyond the server's limits (`bad_position`, `position_too_large`, `too_many_moves`, `solver_limit`, ...)", body = ErrorBody),
        BodyTooLarge, HeavyTurn,
    )
)]
pub(crate) async fn analyze(
    State(app): State<AppState>,
    client: Client,
    Body(req): Body<AnalyzeRequest>,
) -> Result<Response, ApiError> {
    let a = app
        .heavy(client, move |engine| engine.analyze_request(&req))
        .await?;
    Ok(json(StatusCode::OK, &a))
}

/// Grundy values of a single heap, their period, and the P-positions of a
/// few heaps.
#[utoipa::path(
    get,
    path = "/explore",
    tag = "analysis",
    params(ExploreQuery),
    responses(
        (status = 200, description = "The values, the period and the P-positions", body = Explore),
        (status = 400, description = "A parameter does not parse or is out of range (`bad_query`, `bad_request`, `unknown_game`, ...)", body = ErrorBody),
        (status = 422, description = "Not a heap game, or not for this build (`not_a_heap_game`, `game_unavailable`, ...)", body = ErrorBody),
        HeavyTurn,
    )
)]
pub(crate) async fn explore_handler(
    State(app): State<AppState>,
    client: Client,
    query: Result<Query<ExploreQuery>, QueryRejection>,
) -> Result<Response, ApiError> {
    let Query(q) = query.map_err(|e| ApiError::bad_request("bad_query", e.body_text()))?;
    let e = app
        .heavy(client, move |engine| {
            let e = explore::explore(engine, &q);
            engine.trim_tables();
            e
        })
        .await?;
    Ok(json(StatusCode::OK, &e))
}

/// Every game Nimatron knows, with what this build can do with it.
#[utoipa::path(
    get,
    path = "/catalogue",
    tag = "analysis",
    responses((status = 200, description = "The games", body = Catalogue))
)]
pub(crate) async fn catalogue(State(app): State<AppState>) -> Result<Response, ApiError> {
    let games = app.cheap(move |engine| Ok(engine.catalogue())).await?;
    Ok(json(StatusCode::OK, &Catalogue { games }))
}
