//! A game's live updates, by server-sent events.

use std::convert::Infallible;
use std::sync::Arc;
use std::time::Duration;

use axum::extract::State;
use axum::response::sse::{Event, KeepAlive, Sse};
use futures_util::Stream;
use serde::Serialize;
use tokio::sync::{broadcast, watch};
use utoipa::ToSchema;

use crate::error::{ApiError, ErrorBody};
use crate::limits::{Client, StreamPlaces};

use super::extract::GameId;
use super::hub::Watcher;
use super::responses::NoGame;
use super::state::AppState;

/// One event of a game's live-update stream (the schema of each event
/// of `text/event-stream`, as OpenAPI 3.2 and schemathesis read it). It
/// only describes: the stream writes its events itself.
#[derive(Serialize, ToSchema)]
#[allow(dead_code)]
pub(crate) struct StateEvent {
    /// Always `state`: the game changed (or the stream began).
    event: StateEventName,
    /// The game as JSON, a `GameView`.
    #[schema(content_media_type = "application/json")]
    data: String,
}

/// The one kind of live-update event.
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "lowercase")]
#[allow(dead_code)]
pub(crate) enum StateEventName {
    /// The game as it is now.
    State,
}

/// Live updates by server-sent events: the game on connect, then after
/// every change (a move, a join), each as an event `state` whose data is
/// the game's JSON. A comment line keeps the connection alive every 15 s.
#[utoipa::path(
    get,
    path = "/games/{id}/events",
    tag = "games",
    params(GameId),
    responses(
        (status = 200, description = "An endless stream of events `state`, each with a game view (`GameView`) as its data", body = StateEvent, content_type = "text/event-stream"),
        (status = 429, description = "This client holds its share of event streams (`too_many_streams`); see `Retry-After`", body = ErrorBody),
        (status = 503, description = "The server or this game holds the most event streams it takes (`too_many_streams`); see `Retry-After`", body = ErrorBody),
        NoGame,
    )
)]
pub(crate) async fn events(
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
    let game_id = id.clone();
    let first = app.cheap(move |engine| engine.get(&game_id)).await?;
    let first = serde_json::to_string(&first).map_err(|e| ApiError::internal(e.to_string()))?;
    struct S {
        first: Option<String>,
        _places: StreamPlaces,
        watcher: Watcher,
        shutdown: watch::Receiver<bool>,
        app: AppState,
        id: String,
    }
    let state = S {
        first: Some(first),
        _places: places,
        watcher,
        shutdown: app.hub.shutdown(),
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
                    let id = s.id.clone();
                    let view = s.app.cheap(move |engine| engine.get(&id)).await.ok()?;
                    Arc::from(serde_json::to_string(&view).ok()?)
                }
                Err(broadcast::error::RecvError::Closed) => return None,
            },
        };
        Some((Ok(Event::default().event("state").data(&*text)), s))
    });
    Ok(Sse::new(stream).keep_alive(KeepAlive::new().interval(Duration::from_secs(15))))
}
