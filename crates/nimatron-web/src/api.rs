//! HTTP: the JSON API (documented in `docs/api.md`), live updates by
//! server-sent events, and the embedded UI.

use std::collections::HashMap;
use std::convert::Infallible;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use axum::Router;
use axum::body::Bytes;
use axum::extract::rejection::{BytesRejection, QueryRejection};
use axum::extract::{DefaultBodyLimit, OriginalUri, Path, Query, State};
use axum::http::{HeaderMap, HeaderValue, StatusCode, Uri, header};
use axum::response::sse::{Event, KeepAlive, Sse};
use axum::response::{IntoResponse, Response};
use axum::routing::{any, get, post};
use futures_util::Stream;
use serde::Deserialize;
use serde::de::DeserializeOwned;
use tokio::sync::{broadcast, watch};

use crate::assets;
use crate::error::ApiError;
use crate::explore::{self, ExploreQuery};
use crate::requests::{AnalyzeRequest, JoinRequest, MoveRequest, NewGame};
use crate::service::Engine;

/// The largest request body accepted, in bytes.
pub const BODY_LIMIT: usize = 16 * 1024;

/// Live-update channels, one per watched game.
pub struct Hub {
    channels: Mutex<HashMap<String, broadcast::Sender<Arc<str>>>>,
    shutdown: watch::Receiver<bool>,
}

impl Hub {
    /// A hub whose streams end when `shutdown` turns true.
    pub fn new(shutdown: watch::Receiver<bool>) -> Hub {
        Hub {
            channels: Mutex::new(HashMap::new()),
            shutdown,
        }
    }

    fn subscribe(&self, id: &str) -> broadcast::Receiver<Arc<str>> {
        let mut channels = self.channels.lock().unwrap_or_else(|e| e.into_inner());
        channels
            .entry(id.to_string())
            .or_insert_with(|| broadcast::channel(64).0)
            .subscribe()
    }

    fn publish(&self, id: &str, json: String) {
        let mut channels = self.channels.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(tx) = channels.get(id)
            && tx.send(Arc::from(json)).is_err()
        {
            channels.remove(id);
        }
        if channels.len() > 1000 {
            channels.retain(|_, tx| tx.receiver_count() > 0);
        }
    }
}

/// What every handler shares.
#[derive(Clone)]
pub struct AppState {
    /// Games, moves, analysis.
    pub engine: Arc<Engine>,
    /// Live updates.
    pub hub: Arc<Hub>,
}

/// Run blocking work (SQLite, solvers) off the async threads.
async fn blocking<T: Send + 'static>(
    f: impl FnOnce() -> Result<T, ApiError> + Send + 'static,
) -> Result<T, ApiError> {
    tokio::task::spawn_blocking(f)
        .await
        .map_err(|e| ApiError::internal(format!("request failed: {e}")))?
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
    let bytes: &[u8] = if empty_ok && bytes.iter().all(u8::is_ascii_whitespace) {
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

fn json<T: serde::Serialize>(status: StatusCode, value: &T) -> Response {
    (status, axum::Json(value)).into_response()
}

async fn create_game(
    State(app): State<AppState>,
    body: Result<Bytes, BytesRejection>,
) -> Result<Response, ApiError> {
    let req: NewGame = parse_body(body, true)?;
    let engine = app.engine.clone();
    let grant = blocking(move || engine.create(req)).await?;
    Ok(json(StatusCode::CREATED, &grant))
}

async fn get_game(
    State(app): State<AppState>,
    Path(id): Path<String>,
) -> Result<Response, ApiError> {
    let engine = app.engine.clone();
    let view = blocking(move || engine.get(&id)).await?;
    Ok(json(StatusCode::OK, &view))
}

async fn make_move(
    State(app): State<AppState>,
    Path(id): Path<String>,
    headers: HeaderMap,
    body: Result<Bytes, BytesRejection>,
) -> Result<Response, ApiError> {
    let token = bearer(&headers)?;
    let req: MoveRequest = parse_body(body, false)?;
    let engine = app.engine.clone();
    let game_id = id.clone();
    let reply = blocking(move || engine.make_move(&game_id, token.as_deref(), &req)).await?;
    if let Ok(text) = serde_json::to_string(&reply.game) {
        app.hub.publish(&id, text);
    }
    Ok(json(StatusCode::OK, &reply))
}

async fn join_game(
    State(app): State<AppState>,
    Path(id): Path<String>,
    body: Result<Bytes, BytesRejection>,
) -> Result<Response, ApiError> {
    let req: JoinRequest = parse_body(body, false)?;
    let engine = app.engine.clone();
    let game_id = id.clone();
    let grant = blocking(move || engine.join(&game_id, &req.invite)).await?;
    if let Ok(text) = serde_json::to_string(&grant.game) {
        app.hub.publish(&id, text);
    }
    Ok(json(StatusCode::OK, &grant))
}

async fn game_position(
    State(app): State<AppState>,
    Path((id, ply)): Path<(String, String)>,
) -> Result<Response, ApiError> {
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

async fn game_analysis(
    State(app): State<AppState>,
    Path(id): Path<String>,
) -> Result<Response, ApiError> {
    let engine = app.engine.clone();
    let a = blocking(move || engine.game_analysis(&id)).await?;
    Ok(json(StatusCode::OK, &a))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ListQuery {
    limit: Option<u32>,
    offset: Option<u32>,
}

async fn list_games(
    State(app): State<AppState>,
    query: Result<Query<ListQuery>, QueryRejection>,
) -> Result<Response, ApiError> {
    let Query(q) = query.map_err(|e| ApiError::bad_request("bad_query", e.body_text()))?;
    let engine = app.engine.clone();
    let games = blocking(move || {
        let games = engine.recent(q.limit.unwrap_or(50), q.offset.unwrap_or(0))?;
        let total = engine.store().count()?;
        Ok(serde_json::json!({ "games": games, "total": total }))
    })
    .await?;
    Ok(json(StatusCode::OK, &games))
}

async fn analyze(
    State(app): State<AppState>,
    body: Result<Bytes, BytesRejection>,
) -> Result<Response, ApiError> {
    let req: AnalyzeRequest = parse_body(body, false)?;
    let engine = app.engine.clone();
    let a = blocking(move || engine.analyze_request(&req)).await?;
    Ok(json(StatusCode::OK, &a))
}

async fn explore_handler(
    State(app): State<AppState>,
    query: Result<Query<ExploreQuery>, QueryRejection>,
) -> Result<Response, ApiError> {
    let Query(q) = query.map_err(|e| ApiError::bad_request("bad_query", e.body_text()))?;
    let engine = app.engine.clone();
    let e = blocking(move || explore::explore(&engine, &q)).await?;
    Ok(json(StatusCode::OK, &e))
}

async fn catalogue(State(app): State<AppState>) -> Result<Response, ApiError> {
    let engine = app.engine.clone();
    let c = blocking(move || Ok(engine.catalogue())).await?;
    Ok(json(StatusCode::OK, &serde_json::json!({ "games": c })))
}

async fn events(
    State(app): State<AppState>,
    Path(id): Path<String>,
) -> Result<Sse<impl Stream<Item = Result<Event, Infallible>>>, ApiError> {
    // Subscribe before reading the state, so no update falls in between.
    let rx = app.hub.subscribe(&id);
    let engine = app.engine.clone();
    let game_id = id.clone();
    let first = blocking(move || engine.get(&game_id)).await?;
    let first = serde_json::to_string(&first).map_err(|e| ApiError::internal(e.to_string()))?;
    struct S {
        first: Option<String>,
        rx: broadcast::Receiver<Arc<str>>,
        shutdown: watch::Receiver<bool>,
        app: AppState,
        id: String,
    }
    let state = S {
        first: Some(first),
        rx,
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
            msg = s.rx.recv() => match msg {
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

fn asset(content_type: &'static str, body: &'static [u8]) -> Response {
    let mut r = body.into_response();
    r.headers_mut()
        .insert(header::CONTENT_TYPE, HeaderValue::from_static(content_type));
    r.headers_mut()
        .insert(header::CACHE_CONTROL, HeaderValue::from_static("no-cache"));
    r
}

async fn page() -> Response {
    asset("text/html; charset=utf-8", assets::INDEX_HTML.as_bytes())
}

async fn module(Path(name): Path<String>, uri: Uri) -> Response {
    match assets::module(&name) {
        Some(text) => asset("text/javascript; charset=utf-8", text.as_bytes()),
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

/// The whole application.
pub fn router(app: AppState) -> Router {
    let api = Router::new()
        .route("/games", post(create_game).get(list_games))
        .route("/games/{id}", get(get_game))
        .route("/games/{id}/moves", post(make_move))
        .route("/games/{id}/join", post(join_game))
        .route("/games/{id}/analysis", get(game_analysis))
        .route("/games/{id}/positions/{ply}", get(game_position))
        .route("/games/{id}/events", get(events))
        .route("/analyze", post(analyze))
        .route("/explore", get(explore_handler))
        .route("/catalogue", get(catalogue))
        .fallback(api_not_found)
        .method_not_allowed_fallback(method_not_allowed);
    Router::new()
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
            get(|| async { asset("text/css; charset=utf-8", assets::APP_CSS.as_bytes()) }),
        )
        .route(
            "/favicon.svg",
            get(|| async { asset("image/svg+xml", assets::FAVICON_SVG.as_bytes()) }),
        )
        .fallback(page_not_found)
        .layer(DefaultBodyLimit::max(BODY_LIMIT))
        .with_state(app)
}
