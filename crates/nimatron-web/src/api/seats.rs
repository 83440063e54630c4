//! What a seat does to a game: move, ask for the computer's move, join,
//! take back, resign, answer on the analysis, ask for a rematch. Each is
//! checked by the seat policy ([`crate::policy`]) in the engine, committed
//! before the reply, and sent to the game's watchers.

use axum::extract::State;
use axum::http::StatusCode;
use axum::response::Response;

use crate::error::{ApiError, ErrorBody};
use crate::limits::Client;
use crate::requests::{ActionRequest, ConsentRequest, JoinRequest, MoveRequest};
use crate::service::Engine;
use crate::views::{GameView, MoveReply, RematchReply, SeatGrant, UndoReply};

use super::extract::{Body, GameId, OptionalBody, SeatToken, json};
use super::responses::{BodyTooLarge, ComputerReply, NoGame, SeatRefusals};
use super::state::AppState;

/// The body of the acts that take an [`ActionRequest`], which may be left
/// out (the document marks it not required).
const OPTIONAL: &str = "Optional (none is `{}`): the ply the player saw.";

/// Move, as the seat whose token is sent; in a computer game the
/// computer's reply follows in the same reply. Both are committed before
/// the reply, and watchers get the new game on the event stream.
#[utoipa::path(
    post,
    path = "/games/{id}/moves",
    tag = "games",
    params(GameId),
    request_body(content = MoveRequest, content_type = "application/json"),
    security(("seat_token" = [])),
    responses(
        (status = 200, description = "The game after the move, and the moves applied", body = MoveReply),
        (status = 409, description = "Not now: `not_your_turn`, `stale_ply`, `game_over`, `waiting_for_opponent`", body = ErrorBody),
        (status = 422, description = "The move does not parse or is not legal here (`illegal_move`), or the computer's reply hit a limit", body = ErrorBody),
        SeatRefusals, ComputerReply,
    )
)]
pub(crate) async fn make_move(
    State(app): State<AppState>,
    client: Client,
    GameId(id): GameId,
    SeatToken(token): SeatToken,
    Body(req): Body<MoveRequest>,
) -> Result<Response, ApiError> {
    let reply = app
        .seat_turn(client, id, token, req, Engine::make_move_within)
        .await?;
    Ok(json(StatusCode::OK, &reply))
}

/// The computer's move, asked for by the player: after a move sent with
/// `"reply": false`, or when the computer is to move and has not moved. The
/// computer thinks without holding the game, so the player may take their
/// move back meanwhile (`POST /api/games/{id}/undo`); then this is refused
/// as `stale_ply` and nothing is applied.
#[utoipa::path(
    post,
    path = "/games/{id}/computer-move",
    tag = "games",
    params(GameId),
    request_body(content = ActionRequest, description = OPTIONAL),
    security(("seat_token" = [])),
    responses(
        (status = 200, description = "The game after the computer's move, and the move applied", body = MoveReply),
        (status = 409, description = "Not now: `not_a_computer_game`, `not_computers_turn`, `stale_ply`, `game_over`", body = ErrorBody),
        (status = 422, description = "The computer's move hit a limit", body = ErrorBody),
        SeatRefusals, ComputerReply,
    )
)]
pub(crate) async fn computer_move(
    State(app): State<AppState>,
    client: Client,
    GameId(id): GameId,
    SeatToken(token): SeatToken,
    OptionalBody(req): OptionalBody<ActionRequest>,
) -> Result<Response, ApiError> {
    let reply = app
        .seat_turn(client, id, token, req, Engine::computer_move_within)
        .await?;
    Ok(json(StatusCode::OK, &reply))
}

/// Take seat 1 of an online game with its invite code.
#[utoipa::path(
    post,
    path = "/games/{id}/join",
    tag = "games",
    params(GameId),
    request_body(content = JoinRequest, content_type = "application/json"),
    responses(
        (status = 200, description = "The game, seat 1 and its token", body = SeatGrant),
        (status = 400, description = "The body is malformed (`bad_json`)", body = ErrorBody),
        (status = 403, description = "Not this game's invite code (`wrong_invite`)", body = ErrorBody),
        (status = 409, description = "The seat is taken, or the game is not online (`seat_taken`, `not_online`)", body = ErrorBody),
        NoGame, BodyTooLarge,
    )
)]
pub(crate) async fn join_game(
    State(app): State<AppState>,
    GameId(id): GameId,
    Body(req): Body<JoinRequest>,
) -> Result<Response, ApiError> {
    let grant = app
        .seat_act(id, None, req, |engine, id, _, req| {
            engine.join(id, &req.invite)
        })
        .await?;
    Ok(json(StatusCode::OK, &grant))
}

/// Take back moves: at one screen the last move, against the computer your
/// last move and the computer's replies to it. Online games' moves stand.
#[utoipa::path(
    post,
    path = "/games/{id}/undo",
    tag = "games",
    params(GameId),
    request_body(content = ActionRequest, description = OPTIONAL),
    security(("seat_token" = [])),
    responses(
        (status = 200, description = "The game after the take-back, and the moves taken back", body = UndoReply),
        (status = 409, description = "Not now: `no_takebacks_online`, `resigned`, `nothing_to_undo`, `stale_ply`", body = ErrorBody),
        SeatRefusals,
    )
)]
pub(crate) async fn undo(
    State(app): State<AppState>,
    GameId(id): GameId,
    SeatToken(token): SeatToken,
    OptionalBody(req): OptionalBody<ActionRequest>,
) -> Result<Response, ApiError> {
    let reply: UndoReply = app.seat_act(id, token, req, Engine::undo).await?;
    Ok(json(StatusCode::OK, &reply))
}

/// Resign: the other seat wins. At one screen the seat to move resigns.
#[utoipa::path(
    post,
    path = "/games/{id}/resign",
    tag = "games",
    params(GameId),
    request_body(content = ActionRequest, description = OPTIONAL),
    security(("seat_token" = [])),
    responses(
        (status = 200, description = "The game, over", body = GameView),
        (status = 409, description = "Not now: `game_over`, `waiting_for_opponent`, `stale_ply`", body = ErrorBody),
        SeatRefusals,
    )
)]
pub(crate) async fn resign(
    State(app): State<AppState>,
    GameId(id): GameId,
    SeatToken(token): SeatToken,
    OptionalBody(req): OptionalBody<ActionRequest>,
) -> Result<Response, ApiError> {
    let view: GameView = app.seat_act(id, token, req, Engine::resign).await?;
    Ok(json(StatusCode::OK, &view))
}

/// Online games: agree to show the analysis during play, or withdraw. It is
/// shown while both seats agree, and always once the game is over.
#[utoipa::path(
    post,
    path = "/games/{id}/analysis-consent",
    tag = "games",
    params(GameId),
    request_body(content = ConsentRequest, content_type = "application/json"),
    security(("seat_token" = [])),
    responses(
        (status = 200, description = "The game, with each seat's answer", body = GameView),
        (status = 409, description = "Not an online game: its analysis needs no agreement (`not_online`)", body = ErrorBody),
        SeatRefusals,
    )
)]
pub(crate) async fn analysis_consent(
    State(app): State<AppState>,
    GameId(id): GameId,
    SeatToken(token): SeatToken,
    Body(req): Body<ConsentRequest>,
) -> Result<Response, ApiError> {
    let view: GameView = app
        .seat_act(id, token, req, Engine::analysis_consent)
        .await?;
    Ok(json(StatusCode::OK, &view))
}

/// Ask for a rematch of a finished game: the same game from the same start,
/// the other seat first, each player keeping their seat and token. Against
/// the computer or at one screen it starts at once; online, when both seats
/// have asked, and the other seat's page hears of each step on the event
/// stream.
#[utoipa::path(
    post,
    path = "/games/{id}/rematch",
    tag = "games",
    params(GameId),
    request_body(content = ActionRequest, description = OPTIONAL),
    security(("seat_token" = [])),
    responses(
        (status = 200, description = "The rematch was made before: this game and the rematch", body = RematchReply),
        (status = 201, description = "The rematch is made: this game and the rematch, with the caller's seat", body = RematchReply),
        (status = 202, description = "Online: the offer is noted, waiting for the other seat (`rematch` is null)", body = RematchReply),
        (status = 409, description = "Not now: `game_not_over`, `stale_ply`", body = ErrorBody),
        (status = 422, description = "The computer's first move in the rematch hit a limit", body = ErrorBody),
        SeatRefusals, ComputerReply,
    )
)]
pub(crate) async fn rematch(
    State(app): State<AppState>,
    client: Client,
    GameId(id): GameId,
    SeatToken(token): SeatToken,
    OptionalBody(req): OptionalBody<ActionRequest>,
) -> Result<Response, ApiError> {
    let (reply, created) = app
        .seat_turn(client, id, token, req, Engine::rematch_within)
        .await?;
    let status = match (&reply.rematch, created) {
        (None, _) => StatusCode::ACCEPTED,
        (Some(_), true) => StatusCode::CREATED,
        (Some(_), false) => StatusCode::OK,
    };
    Ok(json(status, &reply))
}
