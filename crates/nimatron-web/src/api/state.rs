//! What every handler shares ([`AppState`]), and how a handler's work runs:
//! off the async threads, as a cheap request or in a heavy turn, with the
//! computer's reply searched within a cheap request's budget first.

use std::sync::Arc;
use std::time::Duration;

use crate::error::ApiError;
use crate::limits::{Admission, Client};
use crate::service::{Budget, Engine, Turn};
use crate::site::Site;
use crate::views::{GameView, MoveReply, RematchReply, SeatGrant, UndoReply};

use super::hub::Hub;

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

/// A reply that holds a game as it now is: what the game's watchers are
/// sent after a change.
pub(crate) trait ChangedGame {
    /// The game after the change.
    fn changed(&self) -> &GameView;
}

impl ChangedGame for GameView {
    fn changed(&self) -> &GameView {
        self
    }
}

impl ChangedGame for MoveReply {
    fn changed(&self) -> &GameView {
        &self.game
    }
}

impl ChangedGame for UndoReply {
    fn changed(&self) -> &GameView {
        &self.game
    }
}

impl ChangedGame for SeatGrant {
    fn changed(&self) -> &GameView {
        &self.game
    }
}

impl ChangedGame for RematchReply {
    fn changed(&self) -> &GameView {
        &self.game
    }
}

impl<T: ChangedGame> ChangedGame for (T, bool) {
    fn changed(&self) -> &GameView {
        self.0.changed()
    }
}

/// A seat's act on a game, as the engine does it: the game's id, the seat
/// token sent (if any) and the request's body.
pub(crate) type SeatAct<Req, Out> = fn(&Engine, &str, Option<&str>, &Req) -> Result<Out, ApiError>;

/// A seat's act after which the computer may search for its move, within
/// a budget.
pub(crate) type SeatTurn<Req, Out> =
    fn(&Engine, &str, Option<&str>, &Req, Budget) -> Result<Turn<Out>, ApiError>;

impl AppState {
    /// Send a game's new state to everyone watching it.
    pub(crate) fn publish(&self, view: &GameView) {
        self.hub
            .publish(&view.id, view.rev, || serde_json::to_string(view).ok());
    }

    /// Heavy work (a solver's): run when a heavy worker is free, if the
    /// queue and the client's share allow, else refused with `Retry-After`.
    /// The turn is held by the work itself, so a client that hangs up does
    /// not free a worker whose thread still runs.
    pub(crate) async fn heavy<T: Send + 'static>(
        &self,
        client: Client,
        f: impl FnOnce(&Engine) -> Result<T, ApiError> + Send + 'static,
    ) -> Result<T, ApiError> {
        let wait = self
            .engine
            .limits()
            .max_time
            .unwrap_or(Duration::from_secs(5))
            .max(Duration::from_secs(1));
        let turn = self.admission.heavy(client, wait).await?;
        let engine = self.engine.clone();
        blocking(move || {
            let _turn = turn;
            f(&engine)
        })
        .await
    }

    /// Cheap work (a read, a change without a search): run off the async
    /// threads.
    pub(crate) async fn cheap<T: Send + 'static>(
        &self,
        f: impl FnOnce(&Engine) -> Result<T, ApiError> + Send + 'static,
    ) -> Result<T, ApiError> {
        let engine = self.engine.clone();
        blocking(move || f(&engine)).await
    }

    /// A change in which the computer may search for its move: tried first
    /// within a cheap request's budget; a search that needs more runs again
    /// with the full budget in a heavy turn (queued, shared and refused like
    /// an analysis), so that a flood of hard computer moves cannot hold the
    /// threads that cheap requests run on.
    pub(crate) async fn with_computer<T: Send + 'static>(
        &self,
        client: Client,
        act: impl Fn(&Engine, Budget) -> Result<Turn<T>, ApiError> + Send + Sync + 'static,
    ) -> Result<T, ApiError> {
        let act = Arc::new(act);
        let quick = act.clone();
        match self
            .cheap(move |engine| quick(engine, Budget::Quick))
            .await?
        {
            Turn::Done(v) => Ok(v),
            Turn::NeedsHeavy => {
                self.heavy(client, move |engine| match act(engine, Budget::Full)? {
                    Turn::Done(v) => Ok(v),
                    Turn::NeedsHeavy => Err(ApiError::internal("a full search asked for more")),
                })
                .await
            }
        }
    }

    /// A seat's act on game `id`, its watchers sent the game after it.
    pub(crate) async fn seat_act<Req, Out>(
        &self,
        id: String,
        token: Option<String>,
        req: Req,
        act: SeatAct<Req, Out>,
    ) -> Result<Out, ApiError>
    where
        Req: Send + 'static,
        Out: ChangedGame + Send + 'static,
    {
        let out = self
            .cheap(move |engine| act(engine, &id, token.as_deref(), &req))
            .await?;
        self.publish(out.changed());
        Ok(out)
    }

    /// A seat's act on game `id` after which the computer may move
    /// ([`AppState::with_computer`]), its watchers sent the game after it.
    pub(crate) async fn seat_turn<Req, Out>(
        &self,
        client: Client,
        id: String,
        token: Option<String>,
        req: Req,
        act: SeatTurn<Req, Out>,
    ) -> Result<Out, ApiError>
    where
        Req: Send + Sync + 'static,
        Out: ChangedGame + Send + 'static,
    {
        let out = self
            .with_computer(client, move |engine, budget| {
                act(engine, &id, token.as_deref(), &req, budget)
            })
            .await?;
        self.publish(out.changed());
        Ok(out)
    }
}

/// Run blocking work (SQLite, solvers) off the async threads.
pub(crate) async fn blocking<T: Send + 'static>(
    f: impl FnOnce() -> Result<T, ApiError> + Send + 'static,
) -> Result<T, ApiError> {
    tokio::task::spawn_blocking(f)
        .await
        .map_err(|e| ApiError::internal(format!("request failed: {e}")))?
}
