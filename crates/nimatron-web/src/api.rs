//! HTTP: the JSON API (documented in `docs/api.md`), live updates by
//! server-sent events, and the embedded UI.

use std::collections::HashMap;
use std::convert::Infallible;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use axum::Router;
use axum::body::Bytes;
use axum::extract::rejection::{BytesRejection, PathRejection, QueryRejection};
use axum::extract::{DefaultBodyLimit, FromRequestParts, OriginalUri, Path, Query, Request, State};
use axum::http::request::Parts;
use axum::http::{HeaderMap, HeaderValue, StatusCode, Uri, header};
use axum::middleware::Next;
use axum::response::sse::{Event, KeepAlive, Sse};
use axum::response::{IntoResponse, Response};
use axum::routing::{any, get};
use futures_util::Stream;
use serde::Deserialize;
use serde::de::DeserializeOwned;
use tokio::sync::{broadcast, watch};
use utoipa::IntoParams;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::assets;
use crate::error::{ApiError, ErrorBody};
use crate::explore::{self, Explore, ExploreQuery};
use crate::limits::{Admission, Client};
use crate::requests::{
    ActionRequest, AnalyzeRequest, ConsentRequest, JoinRequest, MoveRequest, NewGame,
};
use crate::service::{Budget, Engine, Turn};
use crate::site::Site;
use crate::store::Change;
use crate::views::{
    AnalysisView, Catalogue, GameAnalysis, GameList, GameView, MovePage, MoveReply, PositionView,
    RematchReply, SeatGrant, UndoReply,
};

/// The largest request body accepted, in bytes.
pub const BODY_LIMIT: usize = 16 * 1024;

/// Live-update channels, one per watched game.
pub struct Hub {
    channels: Mutex<HashMap<String, Channel>>,
    shutdown: watch::Receiver<bool>,
}

/// A watched game's channel, and the newest revision sent on it: an older
/// state that arrives late (read before a newer one was sent) is not sent.
struct Channel {
    tx: broadcast::Sender<Arc<str>>,
    rev: u64,
}

impl Hub {
    /// A hub whose streams end when `shutdown` turns true.
    pub fn new(shutdown: watch::Receiver<bool>) -> Hub {
        Hub {
            channels: Mutex::new(HashMap::new()),
            shutdown,
        }
    }

    /// How many games have a channel: those with someone watching.
    pub fn watched_games(&self) -> usize {
        self.lock().len()
    }

    /// The ids of the games someone watches.
    fn watched_ids(&self) -> Vec<String> {
        self.lock().keys().cloned().collect()
    }

    /// Whether a change of game `id` to revision `rev` is news to anyone.
    fn wants(&self, id: &str, rev: u64) -> bool {
        self.lock().get(id).is_some_and(|c| c.rev < rev)
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<String, Channel>> {
        self.channels.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Watch game `id`: its channel, made if it is the first watcher. The
    /// channel goes when the last [`Watcher`] of it is dropped.
    fn watch(self: &Arc<Hub>, id: &str) -> Watcher {
        let rx = self
            .lock()
            .entry(id.to_string())
            .or_insert_with(|| Channel {
                tx: broadcast::channel(64).0,
                rev: 0,
            })
            .tx
            .subscribe();
        Watcher {
            hub: self.clone(),
            id: id.to_string(),
            rx: Some(rx),
        }
    }

    /// Drop game `id`'s channel if nobody watches it any more.
    fn release(&self, id: &str) {
        let mut channels = self.lock();
        if channels.get(id).is_some_and(|c| c.tx.receiver_count() == 0) {
            channels.remove(id);
        }
    }

    /// Send game `id`'s state at revision `rev` to its watchers, unless
    /// they have had it or a newer one. The JSON is made only if someone
    /// watches: most games have nobody watching.
    fn publish(&self, id: &str, rev: u64, json: impl FnOnce() -> Option<String>) {
        if !self.wants(id, rev) {
            return;
        }
        let Some(json) = json() else {
            return;
        };
        // Checked again and sent under the lock, so that two states sent at
        // once go out in the order of their revisions.
        let mut channels = self.lock();
        if let Some(channel) = channels.get_mut(id)
            && channel.rev < rev
        {
            channel.rev = rev;
            // Fails only when nobody is listening; the last watcher to
            // leave removes the channel.
            let _ = channel.tx.send(Arc::from(json));
        }
    }
}

/// Pass other servers' changes (heard from the database) on to this
/// server's watchers: each watched game that changed is read again and
/// sent; after a gap (the database's connection was lost, or this server
/// fell behind), every watched game is. Ends with the server.
pub async fn relay_changes(
    mut changes: broadcast::Receiver<Change>,
    engine: Arc<Engine>,
    hub: Arc<Hub>,
) {
    let mut shutdown = hub.shutdown.clone();
    loop {
        let change = tokio::select! {
            c = changes.recv() => c,
            _ = shutdown.changed() => return,
        };
        let ids = match change {
            Ok(Change::Game { id, rev }) => {
                if !hub.wants(&id, rev) {
                    continue;
                }
                vec![id]
            }
            Ok(Change::Resync) | Err(broadcast::error::RecvError::Lagged(_)) => hub.watched_ids(),
            Err(broadcast::error::RecvError::Closed) => return,
        };
        for id in ids {
            let (engine, hub) = (engine.clone(), hub.clone());
            tokio::spawn(async move {
                let game_id = id.clone();
                if let Ok(view) = blocking(move || engine.get(&game_id)).await {
                    hub.publish(&id, view.rev, || serde_json::to_string(&view).ok());
                }
            });
        }
    }
}

/// One watcher's subscription to a game's channel; dropping it (the stream
/// ends, or the client goes) drops the channel when it was the last.
struct Watcher {
    hub: Arc<Hub>,
    id: String,
    rx: Option<broadcast::Receiver<Arc<str>>>,
}

impl Watcher {
    async fn recv(&mut self) -> Result<Arc<str>, broadcast::error::RecvError> {
        match &mut self.rx {
            Some(rx) => rx.recv().await,
            None => Err(broadcast::error::RecvError::Closed),
        }
    }
}

impl Drop for Watcher {
    fn drop(&mut self) {
        // Unsubscribe first, so the count no longer includes this one.
        self.rx = None;
        self.hub.release(&self.id);
    }
}

/// What every handler shares.
#[derive(Clone)]
pub struct AppState {
    /// Games, moves, analysis.
    pub engine: Arc<Engine>,
    /// Live updates.
    pub hub: Arc<Hub>,
    /// Who runs when: heavy work's queue, each client's share.
    pub admission: Arc<Admission>,
    /// The site the server answers for.
    pub site: Arc<Site>,
}

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

impl AppState {
    /// Send a game's new state to everyone watching it.
    fn publish(&self, id: &str, view: &GameView) {
        self.hub
            .publish(id, view.rev, || serde_json::to_string(view).ok());
    }
}

/// Run blocking work (SQLite, solvers) off the async threads.
async fn blocking<T: Send + 'static>(
    f: impl FnOnce() -> Result<T, ApiError> + Send + 'static,
) -> Result<T, ApiError> {
    tokio::task::spawn_blocking(f)
        .await
        .map_err(|e| ApiError::internal(format!("request failed: {e}")))?
}

/// Heavy work (a solver's): run when a heavy worker is free, if the queue
/// and the client's share allow, else refused with `Retry-After`. The turn
/// is held by the work itself, so a client that hangs up does not free a
/// worker whose thread still runs.
async fn heavy<T: Send + 'static>(
    app: &AppState,
    client: Client,
    f: impl FnOnce(&Engine) -> Result<T, ApiError> + Send + 'static,
) -> Result<T, ApiError> {
    let wait = app
        .engine
        .limits()
        .max_time
        .unwrap_or(Duration::from_secs(5))
        .max(Duration::from_secs(1));
    let turn = app.admission.heavy(client, wait).await?;
    let engine = app.engine.clone();
    blocking(move || {
        let _turn = turn;
        f(&engine)
    })
    .await
}

/// A change in which the computer may search for its move: tried first
/// within a cheap request's budget; a search that needs more runs again
/// with the full budget in a heavy turn (queued, shared and refused like an
/// analysis), so that a flood of hard computer moves cannot hold the
/// threads that cheap requests run on.
async fn with_computer<T: Send + 'static>(
    app: &AppState,
    client: Client,
    act: impl Fn(&Engine, Budget) -> Result<Turn<T>, ApiError> + Send + Sync + 'static,
) -> Result<T, ApiError> {
    let act = Arc::new(act);
    let engine = app.engine.clone();
    let quick = act.clone();
    match blocking(move || quick(&engine, Budget::Quick)).await? {
        Turn::Done(v) => Ok(v),
        Turn::NeedsHeavy => {
            heavy(app, client, move |engine| {
                match act(engine, Budget::Full)? {
                    Turn::Done(v) => Ok(v),
                    Turn::NeedsHeavy => Err(ApiError::internal("a full search asked for more")),
                }
            })
            .await
        }
    }
}

/// A seat's act on a game: its token and body read, then the engine's
/// `act` run off the async threads.
async fn seat_act<Req, Out>(
    app: &AppState,
    id: &str,
    headers: &HeaderMap,
    body: Result<Bytes, BytesRejection>,
    empty_ok: bool,
    act: fn(&Engine, &str, Option<&str>, &Req) -> Result<Out, ApiError>,
) -> Result<Out, ApiError>
where
    Req: DeserializeOwned + Send + 'static,
    Out: Send + 'static,
{
    let token = bearer(headers)?;
    let req: Req = parse_body(body, empty_ok)?;
    let engine = app.engine.clone();
    let id = id.to_string();
    blocking(move || act(&engine, &id, token.as_deref(), &req)).await
}

fn parse_body<T: DeserializeOwned>(
    body: Result<Bytes, BytesRejection>,
    empty_ok: bool,
) -> Result<T, ApiError> {
    let bytes = body.map_err(|e| {
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
    serde_json::from_slice(bytes)
        .map_err(|e| ApiError::bad_request("bad_json", format!("malformed JSON body: {e}")))
}

fn bearer(headers: &HeaderMap) -> Result<Option<String>, ApiError> {
    let Some(value) = headers.get(header::AUTHORIZATION) else {
        return Ok(None);
    };
    let text = value.to_str().map_err(|_| {
        ApiError::bad_request("bad_token", "the Authorization header is not plain text")
    })?;
    match text.strip_prefix("Bearer ") {
        Some(t) => Ok(Some(t.trim().to_string())),
        None => Err(ApiError::bad_request(
            "bad_token",
            "the Authorization header must be 'Bearer TOKEN'",
        )),
    }
}

/// The `{id}` of a game's path. One that does not decode to text is no
/// game's id: it gets the API's JSON 404, not the extractor's plain-text 400.
struct GameId(String);

impl<S: Send + Sync> FromRequestParts<S> for GameId {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<GameId, ApiError> {
        match Path::<String>::from_request_parts(parts, state).await {
            Ok(Path(id)) => Ok(GameId(id)),
            Err(_) => Err(ApiError::new(
                StatusCode::NOT_FOUND,
                "game_not_found",
                "no game has that id: it is not UTF-8 text",
            )),
        }
    }
}

fn json<T: serde::Serialize>(status: StatusCode, value: &T) -> Response {
    (status, axum::Json(value)).into_response()
}

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
        (status = 413, description = "The body is over 16 KiB (`body_too_large`)", body = ErrorBody),
        (status = 422, description = "Well formed, but not for this game or beyond the server's limits (`bad_position`, `position_too_large`, `too_many_moves`, `no_moves`, ...)", body = ErrorBody),
        (status = 429, description = "The computer's reply needs a heavy turn and this client has its share of them running or waiting (`too_many_analyses`); see `Retry-After`", body = ErrorBody),
        (status = 503, description = "The computer's reply needs a heavy turn and the queue is full (`server_busy`), or the database cannot be reached just now (`database_unavailable`); see `Retry-After`", body = ErrorBody),
    )
)]
async fn create_game(
    State(app): State<AppState>,
    client: Client,
    body: Result<Bytes, BytesRejection>,
) -> Result<Response, ApiError> {
    let req: NewGame = parse_body(body, true)?;
    let grant = with_computer(&app, client, move |engine, budget| {
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
    params(("id" = String, Path, description = "The game's id: 16 hex digits", pattern = "^[0-9a-fA-F]{16}$")),
    responses(
        (status = 200, description = "The game", body = GameView),
        (status = 404, description = "No game with that id (`game_not_found`)", body = ErrorBody),
    )
)]
async fn get_game(State(app): State<AppState>, GameId(id): GameId) -> Result<Response, ApiError> {
    let engine = app.engine.clone();
    let view = blocking(move || engine.get(&id)).await?;
    Ok(json(StatusCode::OK, &view))
}

/// Move, as the seat whose token is sent; in a computer game the
/// computer's reply follows in the same reply. Both are committed before
/// the reply, and watchers get the new game on the event stream.
#[utoipa::path(
    post,
    path = "/games/{id}/moves",
    tag = "games",
    params(("id" = String, Path, description = "The game's id: 16 hex digits", pattern = "^[0-9a-fA-F]{16}$")),
    request_body(content = MoveRequest, content_type = "application/json"),
    security(("seat_token" = [])),
    responses(
        (status = 200, description = "The game after the move, and the moves applied", body = MoveReply),
        (status = 400, description = "The body or the `Authorization` header is malformed (`bad_json`, `bad_token`)", body = ErrorBody),
        (status = 401, description = "No seat token (`missing_token`)", body = ErrorBody),
        (status = 403, description = "The token holds no seat in this game (`wrong_token`)", body = ErrorBody),
        (status = 404, description = "No game with that id (`game_not_found`)", body = ErrorBody),
        (status = 409, description = "Not now: `not_your_turn`, `stale_ply`, `game_over`, `waiting_for_opponent`", body = ErrorBody),
        (status = 413, description = "The body is over 16 KiB (`body_too_large`)", body = ErrorBody),
        (status = 422, description = "The move does not parse or is not legal here (`illegal_move`), or the computer's reply hit a limit", body = ErrorBody),
        (status = 429, description = "The computer's reply needs a heavy turn and this client has its share of them running or waiting (`too_many_analyses`); see `Retry-After`", body = ErrorBody),
        (status = 503, description = "The computer's reply needs a heavy turn and the queue is full (`server_busy`), or the database cannot be reached just now (`database_unavailable`); see `Retry-After`", body = ErrorBody),
    )
)]
async fn make_move(
    State(app): State<AppState>,
    client: Client,
    GameId(id): GameId,
    headers: HeaderMap,
    body: Result<Bytes, BytesRejection>,
) -> Result<Response, ApiError> {
    let token = bearer(&headers)?;
    let req: MoveRequest = parse_body(body, false)?;
    let game_id = id.clone();
    let reply = with_computer(&app, client, move |engine, budget| {
        engine.make_move_within(&game_id, token.as_deref(), &req, budget)
    })
    .await?;
    app.publish(&id, &reply.game);
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
    params(("id" = String, Path, description = "The game's id")),
    request_body(
        content = ActionRequest,
        description = "Optional (none is `{}`): the ply the player saw.",
        content_type = "application/json"
    ),
    security(("seat_token" = [])),
    responses(
        (status = 200, description = "The game after the computer's move, and the move applied", body = MoveReply),
        (status = 400, description = "The body or the `Authorization` header is malformed (`bad_json`, `bad_token`)", body = ErrorBody),
        (status = 401, description = "No seat token (`missing_token`)", body = ErrorBody),
        (status = 403, description = "The token holds no seat in this game (`wrong_token`)", body = ErrorBody),
        (status = 404, description = "No game with that id (`game_not_found`)", body = ErrorBody),
        (status = 409, description = "Not now: `not_a_computer_game`, `not_computers_turn`, `stale_ply`, `game_over`", body = ErrorBody),
        (status = 413, description = "The body is over 16 KiB (`body_too_large`)", body = ErrorBody),
        (status = 422, description = "The computer's move hit a limit", body = ErrorBody),
        (status = 429, description = "The computer's move needs a heavy turn and this client has its share of them running or waiting (`too_many_analyses`); see `Retry-After`", body = ErrorBody),
        (status = 503, description = "The computer's move needs a heavy turn and the queue is full (`server_busy`), or the database cannot be reached just now (`database_unavailable`); see `Retry-After`", body = ErrorBody),
    )
)]
async fn computer_move(
    State(app): State<AppState>,
    client: Client,
    GameId(id): GameId,
    headers: HeaderMap,
    body: Result<Bytes, BytesRejection>,
) -> Result<Response, ApiError> {
    let token = bearer(&headers)?;
    let req: ActionRequest = parse_body(body, true)?;
    let game_id = id.clone();
    let reply = with_computer(&app, client, move |engine, budget| {
        engine.computer_move_within(&game_id, token.as_deref(), &req, budget)
    })
    .await?;
    app.publish(&id, &reply.game);
    Ok(json(StatusCode::OK, &reply))
}

/// Take seat 1 of an online game with its invite code.
#[utoipa::path(
    post,
    path = "/games/{id}/join",
    tag = "games",
    params(("id" = String, Path, description = "The game's id: 16 hex digits", pattern = "^[0-9a-fA-F]{16}$")),
    request_body(content = JoinRequest, content_type = "application/json"),
    responses(
        (status = 200, description = "The game, seat 1 and its token", body = SeatGrant),
        (status = 400, description = "The body is malformed (`bad_json`)", body = ErrorBody),
        (status = 403, description = "Not this game's invite code (`wrong_invite`)", body = ErrorBody),
        (status = 404, description = "No game with that id (`game_not_found`)", body = ErrorBody),
        (status = 409, description = "The seat is taken, or the game is not online (`seat_taken`, `not_online`)", body = ErrorBody),
        (status = 413, description = "The body is over 16 KiB (`body_too_large`)", body = ErrorBody),
    )
)]
async fn join_game(
    State(app): State<AppState>,
    GameId(id): GameId,
    body: Result<Bytes, BytesRejection>,
) -> Result<Response, ApiError> {
    let req: JoinRequest = parse_body(body, false)?;
    let engine = app.engine.clone();
    let game_id = id.clone();
    let grant = blocking(move || engine.join(&game_id, &req.invite)).await?;
    app.publish(&id, &grant.game);
    Ok(json(StatusCode::OK, &grant))
}

/// Take back moves: at one screen the last move, against the computer your
/// last move and the computer's replies to it. Online games' moves stand.
#[utoipa::path(
    post,
    path = "/games/{id}/undo",
    tag = "games",
    params(("id" = String, Path, description = "The game's id: 16 hex digits", pattern = "^[0-9a-fA-F]{16}$")),
    request_body(
        content = ActionRequest,
        description = "Optional (none is `{}`): the ply the player saw.",
        content_type = "application/json"
    ),
    security(("seat_token" = [])),
    responses(
        (status = 200, description = "The game after the take-back, and the moves taken back", body = UndoReply),
        (status = 400, description = "The body or the `Authorization` header is malformed (`bad_json`, `bad_token`)", body = ErrorBody),
        (status = 401, description = "No seat token (`missing_token`)", body = ErrorBody),
        (status = 403, description = "The token holds no seat in this game (`wrong_token`)", body = ErrorBody),
        (status = 404, description = "No game with that id (`game_not_found`)", body = ErrorBody),
        (status = 409, description = "Not now: `no_takebacks_online`, `resigned`, `nothing_to_undo`, `stale_ply`", body = ErrorBody),
        (status = 413, description = "The body is over 16 KiB (`body_too_large`)", body = ErrorBody),
    )
)]
async fn undo(
    State(app): State<AppState>,
    GameId(id): GameId,
    headers: HeaderMap,
    body: Result<Bytes, BytesRejection>,
) -> Result<Response, ApiError> {
    let reply = seat_act::<ActionRequest, _>(&app, &id, &headers, body, true, Engine::undo).await?;
    app.publish(&id, &reply.game);
    Ok(json(StatusCode::OK, &reply))
}

/// Resign: the other seat wins. At one screen the seat to move resigns.
#[utoipa::path(
    post,
    path = "/games/{id}/resign",
    tag = "games",
    params(("id" = String, Path, description = "The game's id: 16 hex digits", pattern = "^[0-9a-fA-F]{16}$")),
    request_body(
        content = ActionRequest,
        description = "Optional (none is `{}`): the ply the player saw.",
        content_type = "application/json"
    ),
    security(("seat_token" = [])),
    responses(
        (status = 200, description = "The game, over", body = GameView),
        (status = 400, description = "The body or the `Authorization` header is malformed (`bad_json`, `bad_token`)", body = ErrorBody),
        (status = 401, description = "No seat token (`missing_token`)", body = ErrorBody),
        (status = 403, description = "The token holds no seat in this game (`wrong_token`)", body = ErrorBody),
        (status = 404, description = "No game with that id (`game_not_found`)", body = ErrorBody),
        (status = 409, description = "Not now: `game_over`, `waiting_for_opponent`, `stale_ply`", body = ErrorBody),
        (status = 413, description = "The body is over 16 KiB (`body_too_large`)", body = ErrorBody),
    )
)]
async fn resign(
    State(app): State<AppState>,
    GameId(id): GameId,
    headers: HeaderMap,
    body: Result<Bytes, BytesRejection>,
) -> Result<Response, ApiError> {
    let view =
        seat_act::<ActionRequest, _>(&app, &id, &headers, body, true, Engine::resign).await?;
    app.publish(&id, &view);
    Ok(json(StatusCode::OK, &view))
}

/// Online games: agree to show the analysis during play, or withdraw. It is
/// shown while both seats agree, and always once the game is over.
#[utoipa::path(
    post,
    path = "/games/{id}/analysis-consent",
    tag = "games",
    params(("id" = String, Path, description = "The game's id: 16 hex digits", pattern = "^[0-9a-fA-F]{16}$")),
    request_body(content = ConsentRequest, content_type = "application/json"),
    security(("seat_token" = [])),
    responses(
        (status = 200, description = "The game, with each seat's answer", body = GameView),
        (status = 400, description = "The body or the `Authorization` header is malformed (`bad_json`, `bad_token`)", body = ErrorBody),
        (status = 401, description = "No seat token (`missing_token`)", body = ErrorBody),
        (status = 403, description = "The token holds no seat in this game (`wrong_token`)", body = ErrorBody),
        (status = 404, description = "No game with that id (`game_not_found`)", body = ErrorBody),
        (status = 409, description = "Not an online game: its analysis needs no agreement (`not_online`)", body = ErrorBody),
        (status = 413, description = "The body is over 16 KiB (`body_too_large`)", body = ErrorBody),
    )
)]
async fn analysis_consent(
    State(app): State<AppState>,
    GameId(id): GameId,
    headers: HeaderMap,
    body: Result<Bytes, BytesRejection>,
) -> Result<Response, ApiError> {
    let view =
        seat_act::<ConsentRequest, _>(&app, &id, &headers, body, false, Engine::analysis_consent)
            .await?;
    app.publish(&id, &view);
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
    params(("id" = String, Path, description = "The game's id: 16 hex digits", pattern = "^[0-9a-fA-F]{16}$")),
    request_body(
        content = ActionRequest,
        description = "Optional (none is `{}`): the ply the player saw.",
        content_type = "application/json"
    ),
    security(("seat_token" = [])),
    responses(
        (status = 200, description = "The rematch was made before: this game and the rematch", body = RematchReply),
        (status = 201, description = "The rematch is made: this game and the rematch, with the caller's seat", body = RematchReply),
        (status = 202, description = "Online: the offer is noted, waiting for the other seat (`rematch` is null)", body = RematchReply),
        (status = 400, description = "The body or the `Authorization` header is malformed (`bad_json`, `bad_token`)", body = ErrorBody),
        (status = 401, description = "No seat token (`missing_token`)", body = ErrorBody),
        (status = 403, description = "The token holds no seat in this game (`wrong_token`)", body = ErrorBody),
        (status = 404, description = "No game with that id (`game_not_found`)", body = ErrorBody),
        (status = 409, description = "Not now: `game_not_over`, `stale_ply`", body = ErrorBody),
        (status = 413, description = "The body is over 16 KiB (`body_too_large`)", body = ErrorBody),
        (status = 422, description = "The computer's first move in the rematch hit a limit", body = ErrorBody),
        (status = 429, description = "The computer's reply needs a heavy turn and this client has its share of them running or waiting (`too_many_analyses`); see `Retry-After`", body = ErrorBody),
        (status = 503, description = "The computer's reply needs a heavy turn and the queue is full (`server_busy`), or the database cannot be reached just now (`database_unavailable`); see `Retry-After`", body = ErrorBody),
    )
)]
async fn rematch(
    State(app): State<AppState>,
    client: Client,
    GameId(id): GameId,
    headers: HeaderMap,
    body: Result<Bytes, BytesRejection>,
) -> Result<Response, ApiError> {
    let token = bearer(&headers)?;
    let req: ActionRequest = parse_body(body, true)?;
    let game_id = id.clone();
    let (reply, created) = with_computer(&app, client, move |engine, budget| {
        engine.rematch_within(&game_id, token.as_deref(), &req, budget)
    })
    .await?;
    app.publish(&id, &reply.game);
    let status = match (&reply.rematch, created) {
        (None, _) => StatusCode::ACCEPTED,
        (Some(_), true) => StatusCode::CREATED,
        (Some(_), false) => StatusCode::OK,
    };
    Ok(json(status, &reply))
}

/// A position of the game's record, drawn: the start (ply 0) or the
/// position after a move, for replaying the game.
#[utoipa::path(
    get,
    path = "/games/{id}/positions/{ply}",
    tag = "games",
    params(
        ("id" = String, Path, description = "The game's id: 16 hex digits", pattern = "^[0-9a-fA-F]{16}$"),
        ("ply" = String, Path, description = "Moves made before the position: 0 for the start"),
    ),
    responses(
        (status = 200, description = "The position", body = PositionView),
        (status = 400, description = "The ply is not a move count (`bad_ply`)", body = ErrorBody),
        (status = 404, description = "No game with that id (`game_not_found`), or no such ply in its record (`no_such_ply`)", body = ErrorBody),
    )
)]
async fn game_position(
    State(app): State<AppState>,
    path: Result<Path<(String, String)>, PathRejection>,
) -> Result<Response, ApiError> {
    let Ok(Path((id, ply))) = path else {
        return Err(ApiError::new(
            StatusCode::NOT_FOUND,
            "game_not_found",
            "no game has that id: it is not UTF-8 text",
        ));
    };
    let ply: u32 = ply.parse().map_err(|_| {
        ApiError::bad_request(
            "bad_ply",
            format!("'{ply}' is not a ply: expected a move count from 0 (the start) up"),
        )
    })?;
    let engine = app.engine.clone();
    let view = blocking(move || engine.position(&id, ply)).await?;
    Ok(json(StatusCode::OK, &view))
}

/// The current position solved, and every move made judged.
#[utoipa::path(
    get,
    path = "/games/{id}/analysis",
    tag = "games",
    params(("id" = String, Path, description = "The game's id: 16 hex digits", pattern = "^[0-9a-fA-F]{16}$")),
    responses(
        (status = 200, description = "The analysis", body = GameAnalysis),
        (status = 403, description = "An online game under way whose seats have not both agreed to show it (`analysis_not_agreed`)", body = ErrorBody),
        (status = 404, description = "No game with that id (`game_not_found`)", body = ErrorBody),
        (status = 422, description = "The current position is beyond the server's limits (`solver_limit`, `position_too_large`, `too_many_moves`)", body = ErrorBody),
        (status = 429, description = "This client has its share of analyses running or waiting (`too_many_analyses`); see `Retry-After`", body = ErrorBody),
        (status = 503, description = "The server's queue of analyses is full (`server_busy`); see `Retry-After`", body = ErrorBody),
    )
)]
async fn game_analysis(
    State(app): State<AppState>,
    client: Client,
    GameId(id): GameId,
) -> Result<Response, ApiError> {
    let a = heavy(&app, client, move |engine| engine.game_analysis(&id)).await?;
    Ok(json(StatusCode::OK, &a))
}

/// Query of `GET /api/games/{id}/legal-moves`.
#[derive(Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
#[serde(deny_unknown_fields)]
struct PageQuery {
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
    params(("id" = String, Path, description = "The game's id: 16 hex digits", pattern = "^[0-9a-fA-F]{16}$"), PageQuery),
    responses(
        (status = 200, description = "A page of the legal moves", body = MovePage),
        (status = 400, description = "A query parameter does not parse or is out of range (`bad_query`, `bad_request`)", body = ErrorBody),
        (status = 404, description = "No game with that id (`game_not_found`)", body = ErrorBody),
    )
)]
async fn legal_moves(
    State(app): State<AppState>,
    GameId(id): GameId,
    query: Result<Query<PageQuery>, QueryRejection>,
) -> Result<Response, ApiError> {
    let Query(q) = query.map_err(|e| ApiError::bad_request("bad_query", e.body_text()))?;
    let engine = app.engine.clone();
    let page = blocking(move || engine.legal_moves(&id, q.offset.unwrap_or(0), q.limit)).await?;
    Ok(json(StatusCode::OK, &page))
}

/// Query of `GET /api/games`.
#[derive(Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
#[serde(deny_unknown_fields)]
struct ListQuery {
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

async fn list_games(
    State(app): State<AppState>,
    query: Result<Query<ListQuery>, QueryRejection>,
) -> Result<Response, ApiError> {
    let Query(q) = query.map_err(|e| ApiError::bad_request("bad_query", e.body_text()))?;
    let engine = app.engine.clone();
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
        let games = blocking(move || {
            let games = engine.games_with_ids(&ids)?;
            let total = games.len() as u64;
            Ok(GameList { games, total })
        })
        .await?;
        return Ok(json(StatusCode::OK, &games));
    }
    let games = blocking(move || {
        let games = engine.recent(q.limit.unwrap_or(50), q.offset.unwrap_or(0))?;
        let total = engine.store().count()?;
        Ok(GameList { games, total })
    })
    .await?;
    Ok(json(StatusCode::OK, &games))
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
        (status = 413, description = "The body is over 16 KiB (`body_too_large`)", body = ErrorBody),
        (status = 422, description = "Well formed, but not for this game or beyond the server's limits (`bad_position`, `position_too_large`, `too_many_moves`, `solver_limit`, ...)", body = ErrorBody),
        (status = 429, description = "This client has its share of analyses running or waiting (`too_many_analyses`); see `Retry-After`", body = ErrorBody),
        (status = 503, description = "The server's queue of analyses is full (`server_busy`); see `Retry-After`", body = ErrorBody),
    )
)]
async fn analyze(
    State(app): State<AppState>,
    client: Client,
    body: Result<Bytes, BytesRejection>,
) -> Result<Response, ApiError> {
    let req: AnalyzeRequest = parse_body(body, false)?;
    let a = heavy(&app, client, move |engine| engine.analyze_request(&req)).await?;
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
        (status = 429, description = "This client has its share of analyses running or waiting (`too_many_analyses`); see `Retry-After`", body = ErrorBody),
        (status = 503, description = "The server's queue of analyses is full (`server_busy`); see `Retry-After`", body = ErrorBody),
    )
)]
async fn explore_handler(
    State(app): State<AppState>,
    client: Client,
    query: Result<Query<ExploreQuery>, QueryRejection>,
) -> Result<Response, ApiError> {
    let Query(q) = query.map_err(|e| ApiError::bad_request("bad_query", e.body_text()))?;
    let e = heavy(&app, client, move |engine| {
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
async fn catalogue(State(app): State<AppState>) -> Result<Response, ApiError> {
    let engine = app.engine.clone();
    let games = blocking(move || Ok(engine.catalogue())).await?;
    Ok(json(StatusCode::OK, &Catalogue { games }))
}

/// This API as an OpenAPI 3.1 document.
#[utoipa::path(
    get,
    path = "/openapi.json",
    tag = "meta",
    responses((status = 200, description = "The OpenAPI document", body = Object))
)]
async fn openapi_json(headers: HeaderMap) -> Response {
    asset(
        "application/json",
        crate::openapi::document_json().as_bytes(),
        &headers,
    )
}

/// Live updates by server-sent events: the game on connect, then after
/// every change (a move, a join), each as an event `state` whose data is
/// the game's JSON. A comment line keeps the connection alive every 15 s.
#[utoipa::path(
    get,
    path = "/games/{id}/events",
    tag = "games",
    params(("id" = String, Path, description = "The game's id: 16 hex digits", pattern = "^[0-9a-fA-F]{16}$")),
    responses(
        (status = 200, description = "An endless stream of events `state`, each with a game view (`GameView`) as its data", body = crate::openapi::shapes::StateEvent, content_type = "text/event-stream"),
        (status = 404, description = "No game with that id (`game_not_found`)", body = ErrorBody),
        (status = 429, description = "This client holds its share of event streams (`too_many_streams`); see `Retry-After`", body = ErrorBody),
        (status = 503, description = "The server or this game holds the most event streams it takes (`too_many_streams`); see `Retry-After`", body = ErrorBody),
    )
)]
async fn events(
    State(app): State<AppState>,
    client: Client,
    GameId(id): GameId,
) -> Result<Sse<impl Stream<Item = Result<Event, Infallible>>>, ApiError> {
    // An id that cannot be a game's never reaches the hub.
    if !crate::token::plausible_id(&id) {
        return Err(ApiError::game_not_found(&id));
    }
    // The stream's places (in all, per client, per game), held while it is
    // open.
    let places = app.admission.stream(client, &id)?;
    // Subscribe before reading the state, so no update falls in between;
    // if there is no such game, the watcher is dropped with the error and
    // its channel with it.
    let watcher = app.hub.watch(&id);
    let engine = app.engine.clone();
    let game_id = id.clone();
    let first = blocking(move || engine.get(&game_id)).await?;
    let first = serde_json::to_string(&first).map_err(|e| ApiError::internal(e.to_string()))?;
    struct S {
        first: Option<String>,
        _places: crate::limits::StreamPlaces,
        watcher: Watcher,
        shutdown: watch::Receiver<bool>,
        app: AppState,
        id: String,
    }
    let state = S {
        first: Some(first),
        _places: places,
        watcher,
        shutdown: app.hub.shutdown.clone(),
        app: app.clone(),
        id,
    };
    let stream = futures_util::stream::unfold(state, |mut s| async move {
        if let Some(first) = s.first.take() {
            return Some((Ok(Event::default().event("state").data(first)), s));
        }
        if *s.shutdown.borrow() {
            return None;
        }
        let text: Arc<str> = tokio::select! {
            _ = s.shutdown.changed() => return None,
            msg = s.watcher.recv() => match msg {
                Ok(text) => text,
                Err(broadcast::error::RecvError::Lagged(_)) => {
                    // Too far behind: send the state as it is now.
                    let engine = s.app.engine.clone();
                    let id = s.id.clone();
                    let view = blocking(move || engine.get(&id)).await.ok()?;
                    Arc::from(serde_json::to_string(&view).ok()?)
                }
                Err(broadcast::error::RecvError::Closed) => return None,
            },
        };
        Some((Ok(Event::default().event("state").data(&*text)), s))
    });
    Ok(Sse::new(stream).keep_alive(KeepAlive::new().interval(Duration::from_secs(15))))
}

async fn api_not_found(OriginalUri(uri): OriginalUri) -> ApiError {
    ApiError::new(
        StatusCode::NOT_FOUND,
        "not_found",
        format!("no API endpoint at '{}' (see docs/api.md)", uri.path()),
    )
}

async fn method_not_allowed(OriginalUri(uri): OriginalUri) -> ApiError {
    ApiError::new(
        StatusCode::METHOD_NOT_ALLOWED,
        "method_not_allowed",
        format!(
            "'{}' does not take that method (see docs/api.md)",
            uri.path()
        ),
    )
}

/// An embedded file, with its ETag: a browser that has it gets `304 Not
/// Modified` and no body (every asset is `no-cache`: revalidated on each
/// visit, so a new build shows at once).
fn asset(content_type: &'static str, body: &'static [u8], headers: &HeaderMap) -> Response {
    let tag = assets::etag(body);
    let fresh = headers
        .get(header::IF_NONE_MATCH)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.split(',').any(|t| t.trim() == tag || t.trim() == "*"));
    let mut r = if fresh {
        StatusCode::NOT_MODIFIED.into_response()
    } else {
        body.into_response()
    };
    let h = r.headers_mut();
    if !fresh {
        h.insert(header::CONTENT_TYPE, HeaderValue::from_static(content_type));
    }
    h.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-cache"));
    if let Ok(v) = HeaderValue::from_str(&tag) {
        h.insert(header::ETAG, v);
    }
    r
}

async fn page(headers: HeaderMap) -> Response {
    asset(
        "text/html; charset=utf-8",
        assets::INDEX_HTML.as_bytes(),
        &headers,
    )
}

async fn module(Path(name): Path<String>, uri: Uri, headers: HeaderMap) -> Response {
    match assets::module(&name) {
        Some(text) => asset("text/javascript; charset=utf-8", text.as_bytes(), &headers),
        None => page_not_found(uri).await,
    }
}

async fn page_not_found(uri: Uri) -> Response {
    (
        StatusCode::NOT_FOUND,
        format!("Nothing at {} — try /", uri.path()),
    )
        .into_response()
}

/// The API's routes, each registered through its operation's description,
/// so that the router and the OpenAPI document list the same operations.
fn api_routes() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(create_game, list_games))
        .routes(routes!(get_game))
        .routes(routes!(make_move))
        .routes(routes!(computer_move))
        .routes(routes!(join_game))
        .routes(routes!(undo))
        .routes(routes!(resign))
        .routes(routes!(analysis_consent))
        .routes(routes!(rematch))
        .routes(routes!(game_analysis))
        .routes(routes!(game_position))
        .routes(routes!(legal_moves))
        .routes(routes!(events))
        .routes(routes!(analyze))
        .routes(routes!(explore_handler))
        .routes(routes!(catalogue))
        .routes(routes!(openapi_json))
}

/// The API's routes under `/api`, with the document they make.
pub(crate) fn documented_routes() -> OpenApiRouter<AppState> {
    use utoipa::OpenApi;
    OpenApiRouter::with_openapi(crate::openapi::ApiDoc::openapi()).nest("/api", api_routes())
}

/// Hold a place for the request among its client's requests in flight.
async fn client_share(State(app): State<AppState>, req: Request, next: Next) -> Response {
    let client = req
        .extensions()
        .get::<Client>()
        .copied()
        .unwrap_or(Client::UNKNOWN);
    match app.admission.request(client) {
        Ok(_place) => next.run(req).await,
        Err(e) => e.into_response(),
    }
}

/// A panic in a handler: a 500 whose id is in the log, not a dropped
/// connection.
fn panic_reply(panic: Box<dyn std::any::Any + Send + 'static>) -> Response {
    let what = panic
        .downcast_ref::<String>()
        .map(String::as_str)
        .or_else(|| panic.downcast_ref::<&str>().copied())
        .unwrap_or("a panic");
    ApiError::internal(format!("a handler panicked: {what}")).into_response()
}

/// The whole application.
pub fn router(app: AppState) -> Router {
    let (api, _) = api_routes().split_for_parts();
    let api = api
        .fallback(api_not_found)
        .method_not_allowed_fallback(method_not_allowed);
    let limits = app.admission.limits().clone();
    let site = app.site.clone();
    let mut router = Router::new()
        .nest("/api", api)
        // The nested API does not match its own root with a slash (found by
        // the `web_api` fuzz target: '/api/' got the page's plain-text 404).
        .route("/api/", any(api_not_found))
        .route("/", get(page))
        .route("/play/{id}", get(page))
        .route("/explore", get(page))
        .route("/history", get(page))
        .route("/assets/js/{name}", get(module))
        .route(
            "/assets/app.css",
            get(|headers: HeaderMap| async move {
                asset(
                    "text/css; charset=utf-8",
                    assets::APP_CSS.as_bytes(),
                    &headers,
                )
            }),
        )
        .route(
            "/favicon.svg",
            get(|headers: HeaderMap| async move {
                asset("image/svg+xml", assets::FAVICON_SVG.as_bytes(), &headers)
            }),
        )
        .fallback(page_not_found)
        .layer(DefaultBodyLimit::max(BODY_LIMIT))
        .layer(tower_http::timeout::RequestBodyTimeoutLayer::new(
            limits.request_timeout,
        ))
        .layer(tower_http::compression::CompressionLayer::new().gzip(true))
        .layer(axum::middleware::from_fn_with_state(
            app.clone(),
            client_share,
        ))
        .layer(axum::middleware::from_fn_with_state(
            site,
            crate::site::check,
        ));
    for (name, value) in crate::site::security_headers() {
        router = router.layer(tower_http::set_header::SetResponseHeaderLayer::overriding(
            name, value,
        ));
    }
    router
        .layer(tower_http::catch_panic::CatchPanicLayer::custom(
            panic_reply,
        ))
        .with_state(app)
}
