//! The web app's rules, apart from HTTP: the [`Engine`] that every request
//! goes through to create a game, move, join, show a game, analyse a
//! position or a game, list past games and the catalogue. Everything goes
//! through the library's object-safe [`Game`], so every game that
//! `GameSpec::build` returns works here unchanged.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use nimatron::SplitMix64;
use nimatron::sequence::{GrundySequence, HeapGame, SequenceError};
use nimatron::solve::Limits;
use nimatron::{
    Analysis, AnalyzeOptions, Convention, Game, GameSpec, Outcome, Position, PositionValue,
    Remoteness,
};

use crate::caches::{CustomGame, GameCache, SequenceCache};
use crate::error::{ApiError, game_error, position_error, stored_position, write_error};
use crate::limits::ServerLimits;
use crate::requests::{
    ActionRequest, AnalyzeRequest, MoveRequest, NewGame, check_position_text, default_convention,
    parse_convention,
};
use crate::store::{GameRecord, Mode, MoveRecord, Status, Store, WriteError};
use crate::views::{
    AnalysisView, CatalogueItem, GameAnalysis, GameSummary, GameView, MovePage, MoveReply,
    PlayedMove, PositionView, ReviewedMove, SeatGrant, ValuePoint,
};
use crate::{policy, token, turns};

pub use crate::clock::now_ms;

/// The most material (objects, cells...) a position may hold in the web app
/// by default, so that boards stay drawable and move lists stay short
/// ([`ServerLimits::max_material`]).
pub const MAX_MATERIAL: u64 = 300;

/// How much a request may search for the computer's move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Budget {
    /// A cheap request's: [`ServerLimits::quick_search`] at most. A search
    /// that needs more stops, stores nothing, and asks for a heavy turn.
    Quick,
    /// The server's whole solver limits (a heavy turn's).
    Full,
}

/// How a change that may search for the computer's move ended.
#[derive(Debug)]
pub enum Turn<T> {
    /// Done and committed.
    Done(T),
    /// The computer's search needs more than a cheap request's budget:
    /// nothing was stored; run it again with [`Budget::Full`] in a heavy
    /// turn.
    NeedsHeavy,
}

impl<T> Turn<T> {
    /// The result of a [`Budget::Full`] change, which never asks for more.
    fn done(self) -> Result<T, ApiError> {
        match self {
            Turn::Done(v) => Ok(v),
            Turn::NeedsHeavy => Err(ApiError::internal("a full search asked for more")),
        }
    }
}

/// Why one attempt at a change to a game did not finish.
pub(crate) enum Attempt {
    /// Refused or failed: this is the reply.
    Failed(ApiError),
    /// The game changed between the read and the write (another server, or
    /// another process, wrote it): compute the change again from the new
    /// row.
    Conflict,
    /// The computer's search is beyond a cheap request's budget.
    NeedsHeavy,
}

impl From<ApiError> for Attempt {
    fn from(e: ApiError) -> Attempt {
        Attempt::Failed(e)
    }
}

impl From<WriteError> for Attempt {
    fn from(e: WriteError) -> Attempt {
        match e {
            WriteError::Conflict => Attempt::Conflict,
            WriteError::Db(e) => Attempt::Failed(e.into()),
        }
    }
}

impl From<crate::store::DbError> for Attempt {
    fn from(e: crate::store::DbError) -> Attempt {
        Attempt::Failed(e.into())
    }
}

/// How many times a change is computed again after a conflict before the
/// client is told to reload (`409 stale_ply`).
const ATTEMPTS: usize = 8;

/// The state shared by every request.
pub struct Engine {
    store: Arc<dyn Store>,
    limits: Limits,
    server: ServerLimits,
    explore_to: u64,
    games: GameCache,
    sequences: SequenceCache,
    locks: Mutex<HashMap<String, Arc<Mutex<()>>>>,
}

impl Engine {
    /// An engine over this store.
    pub fn new(store: Arc<dyn Store>, custom: Vec<CustomGame>, limits: Limits) -> Engine {
        Engine {
            store,
            limits,
            server: ServerLimits::default(),
            explore_to: crate::limits::SEQUENCE_TO,
            games: GameCache::new(custom),
            sequences: SequenceCache::new(),
            locks: Mutex::new(HashMap::new()),
        }
    }

    /// The store.
    pub fn store(&self) -> &dyn Store {
        self.store.as_ref()
    }

    /// Run a change to a game until it is stored: computed again from the
    /// new row when another writer changed the game in between, as if the
    /// two had come one after the other.
    pub(crate) fn retrying<T>(
        &self,
        mut attempt: impl FnMut() -> Result<T, Attempt>,
    ) -> Result<Turn<T>, ApiError> {
        for _ in 0..ATTEMPTS {
            match attempt() {
                Ok(v) => return Ok(Turn::Done(v)),
                Err(Attempt::Failed(e)) => return Err(e),
                Err(Attempt::NeedsHeavy) => return Ok(Turn::NeedsHeavy),
                Err(Attempt::Conflict) => continue,
            }
        }
        Err(write_error(WriteError::Conflict))
    }

    /// The solver limits of the computer's search under `budget`.
    pub(crate) fn computer_limits(&self, budget: Budget) -> Limits {
        match budget {
            Budget::Full => self.limits,
            Budget::Quick => {
                let quick = self.server.quick_search;
                let time = self.limits.max_time.map_or(quick, |t| t.min(quick));
                self.limits.with_time(time.max(Duration::from_millis(1)))
            }
        }
    }

    /// This engine, with Explore computing heap games' values to
    /// `explore_to` (see [`Config::explore_to`](crate::Config::explore_to)).
    pub fn with_explore_to(mut self, explore_to: u64) -> Engine {
        self.explore_to = explore_to;
        self
    }

    /// This engine, under these limits of material, moves and lists.
    pub fn with_server_limits(mut self, server: ServerLimits) -> Engine {
        self.server = server;
        self
    }

    /// The server's limits.
    pub fn server_limits(&self) -> &ServerLimits {
        &self.server
    }

    /// Bound the solver tables that every game keeps between requests.
    pub fn trim_tables(&self) {
        self.games.trim(self.server.max_kept_states);
    }

    /// How far Explore computes a heap game's values.
    pub fn explore_to(&self) -> u64 {
        self.explore_to
    }

    /// The solver limits of this server.
    pub fn limits(&self) -> Limits {
        self.limits
    }

    /// Parse a spec and build its game (cached, so solver tables persist).
    /// A custom game is found by its name; a catalogue game by its spec,
    /// which is returned too.
    pub fn game(&self, spec_text: &str) -> Result<(Option<GameSpec>, Arc<dyn Game>), ApiError> {
        self.games.game(spec_text)
    }

    /// The Grundy sequence g(0..=to) of a heap game from the sequence
    /// engine, kept for the next request (a few games at a time).
    pub fn grundy_sequence(
        &self,
        game: &HeapGame,
        to: u64,
    ) -> Result<Arc<GrundySequence>, SequenceError> {
        self.sequences.grundy_sequence(game, to)
    }

    /// The lock that serialises the changes to one game.
    pub(crate) fn lock_for(&self, id: &str) -> Arc<Mutex<()>> {
        let mut locks = self.locks.lock().unwrap_or_else(|e| e.into_inner());
        if locks.len() > 10_000 {
            locks.retain(|_, l| Arc::strong_count(l) > 1);
        }
        locks.entry(id.to_string()).or_default().clone()
    }

    /// Whether the server can serve `position` within its limits: its
    /// material, then its count of legal moves (counted, not made, where
    /// the game can count them).
    pub(crate) fn check_size(&self, game: &dyn Game, position: &Position) -> Result<(), ApiError> {
        let material = game.material(position).map_err(position_error)?;
        let max = self.server.max_material;
        if material > max {
            return Err(ApiError::unprocessable(
                "position_too_large",
                format!(
                    "the position '{position}' holds {material} objects; this server plays positions of at most {max}"
                ),
            ));
        }
        let moves = game.move_count(position).map_err(position_error)?;
        let max = self.server.max_moves;
        if moves > max as u128 {
            return Err(ApiError::unprocessable(
                "too_many_moves",
                format!(
                    "the position '{position}' has {moves} legal moves; this server plays and analyses positions of at most {max}"
                ),
            ));
        }
        Ok(())
    }

    /// The public view of a game, its lists bounded.
    pub(crate) fn view(
        &self,
        game: &dyn Game,
        record: &GameRecord,
        moves: &[MoveRecord],
    ) -> Result<GameView, ApiError> {
        GameView::new(game, record, moves, self.server.max_listed)
    }

    /// A page of the legal moves of a game's current position.
    pub fn legal_moves(
        &self,
        id: &str,
        offset: u64,
        limit: Option<u64>,
    ) -> Result<MovePage, ApiError> {
        let record = self.load(id)?;
        let (_, game) = self.game(&record.spec)?;
        let position = stored_position(game.as_ref(), &record.position)?;
        MovePage::new(
            game.as_ref(),
            &position,
            record.status == Status::Over,
            offset,
            limit,
            self.server.max_listed,
        )
    }

    fn random_start(&self, game: &dyn Game) -> Result<Position, ApiError> {
        let mut rng = SplitMix64::new(token::random_u64());
        let heap_game = game
            .start()
            .and_then(|s| game.value(&s).ok())
            .is_some_and(|v| matches!(v, PositionValue::Heaps(_)));
        if heap_game {
            for _ in 0..20 {
                let count = 3 + rng.below(3) as usize;
                let heaps: Vec<u64> = (0..count).map(|_| 1 + rng.below(9)).collect();
                if let Ok(p) = game.heap_position(&heaps) {
                    return Ok(p);
                }
                // Games of one heap.
                if let Ok(p) = game.heap_position(&[5 + rng.below(26)]) {
                    return Ok(p);
                }
            }
        }
        Err(ApiError::unprocessable(
            "no_random_start",
            format!(
                "random starts are for heap games; give a position for {} ({})",
                game.name(),
                game.position_syntax()
            ),
        ))
    }

    /// Solve a position (without remoteness: callers that want it ask
    /// for an [`AnalysisView`]).
    pub fn analyze(
        &self,
        game: &dyn Game,
        position: &Position,
        convention: Convention,
    ) -> Result<Analysis, ApiError> {
        self.analyze_within(game, position, convention, self.limits)
    }

    /// [`Engine::analyze`] under other limits (what is left of a request's).
    pub fn analyze_within(
        &self,
        game: &dyn Game,
        position: &Position,
        convention: Convention,
        limits: Limits,
    ) -> Result<Analysis, ApiError> {
        let options = AnalyzeOptions {
            remoteness: false,
            ..AnalyzeOptions::new(limits)
        };
        game.analyze_with(position, convention, &options)
            .map_err(game_error)
    }

    /// Create a game; the creator holds seat 0.
    pub fn create(&self, req: NewGame) -> Result<SeatGrant, ApiError> {
        self.create_within(req, Budget::Full)?.done()
    }

    /// [`Engine::create`], with the computer's first move (if it has one)
    /// searched within `budget`.
    pub fn create_within(&self, req: NewGame, budget: Budget) -> Result<Turn<SeatGrant>, ApiError> {
        let spec_text = req.game.as_deref().unwrap_or("nim");
        let (_, game) = self.game(spec_text)?;
        let spec = game.name();
        let convention = default_convention(req.convention.as_deref(), game.as_ref())?;
        if !game.conventions().contains(&convention) {
            return Err(ApiError::unprocessable(
                "bad_convention",
                format!("{spec}: {}", game.convention_note()),
            ));
        }
        let start = match (&req.position, req.random) {
            (Some(_), true) => {
                return Err(ApiError::bad_request(
                    "bad_request",
                    "give either 'position' or 'random', not both",
                ));
            }
            (Some(text), false) => {
                check_position_text(text)?;
                game.parse(text).map_err(position_error)?
            }
            (None, true) => self.random_start(game.as_ref())?,
            (None, false) => game.start().ok_or_else(|| {
                ApiError::unprocessable(
                    "position_required",
                    format!(
                        "{spec} has no standard start: give 'position' ({})",
                        game.position_syntax()
                    ),
                )
            })?,
        };
        self.check_size(game.as_ref(), &start)?;
        if game.is_terminal(&start).map_err(position_error)? {
            return Err(ApiError::unprocessable(
                "no_moves",
                format!(
                    "the position '{start}' has no moves: the game would be over before it began"
                ),
            ));
        }
        let mode = req.mode()?;
        let level = req.level(mode)?;
        let first_seat = req.first_seat()?;
        let now = now_ms();
        let invite = (mode == Mode::Online).then(token::new_token);
        let mut record = GameRecord {
            id: token::new_id(),
            spec: spec.to_string(),
            convention: convention.name().to_string(),
            mode,
            level: level.map(|l| l.name().to_string()),
            computer_seat: (mode == Mode::Computer).then_some(1),
            start: start.text().to_string(),
            first_seat,
            position: start.text().to_string(),
            to_move: first_seat,
            ply: 0,
            status: if mode == Mode::Online {
                Status::Waiting
            } else {
                Status::Playing
            },
            winner: None,
            token0: token::new_token(),
            token1: None,
            invite: invite.clone(),
            rng: token::random_u64(),
            resigned: None,
            analysis_votes: 0,
            rematch_offers: 0,
            rematch: None,
            created_at: now,
            updated_at: now,
            rev: 0,
        };
        let mut moves = Vec::new();
        let limits = self.computer_limits(budget);
        if !turns::computer_turns(
            game.as_ref(),
            &mut record,
            limits,
            budget == Budget::Quick,
            &mut moves,
        )? {
            return Ok(Turn::NeedsHeavy);
        }
        self.store
            .insert_game(&record, &moves)
            .map_err(|e| match e {
                WriteError::Conflict => ApiError::internal("game id collision"),
                WriteError::Db(e) => e.into(),
            })?;
        let view = self.view(game.as_ref(), &record, &moves)?;
        Ok(Turn::Done(SeatGrant {
            invite_url: invite
                .as_ref()
                .map(|c| format!("/play/{}?invite={c}", record.id)),
            invite,
            seat: 0,
            token: record.token0.clone(),
            game: view,
        }))
    }

    fn load(&self, id: &str) -> Result<GameRecord, ApiError> {
        if !token::plausible_id(id) {
            return Err(ApiError::game_not_found(id));
        }
        self.store
            .game(id)?
            .ok_or_else(|| ApiError::game_not_found(id))
    }

    pub(crate) fn load_with_moves(
        &self,
        id: &str,
    ) -> Result<(GameRecord, Vec<MoveRecord>), ApiError> {
        if !token::plausible_id(id) {
            return Err(ApiError::game_not_found(id));
        }
        self.store
            .game_with_moves(id)?
            .ok_or_else(|| ApiError::game_not_found(id))
    }

    /// Take seat 1 of an online game with its invite code.
    pub fn join(&self, id: &str, invite: &str) -> Result<SeatGrant, ApiError> {
        let lock = self.lock_for(id);
        let _guard = lock.lock().unwrap_or_else(|e| e.into_inner());
        self.retrying(|| {
            let (mut record, moves) = self.load_with_moves(id)?;
            policy::check_invite(&record, invite)?;
            let (_, game) = self.game(&record.spec)?;
            let token = token::new_token();
            record.token1 = Some(token.clone());
            record.status = Status::Playing;
            record.updated_at = now_ms();
            self.store.advance(&mut record, &[])?;
            Ok(SeatGrant {
                game: self.view(game.as_ref(), &record, &moves)?,
                seat: 1,
                token,
                invite: None,
                invite_url: None,
            })
        })?
        .done()
    }

    /// Check and apply a move by the holder of `token`, then the computer's
    /// reply; everything is committed before this returns.
    pub fn make_move(
        &self,
        id: &str,
        token: Option<&str>,
        req: &MoveRequest,
    ) -> Result<MoveReply, ApiError> {
        self.make_move_within(id, token, req, Budget::Full)?.done()
    }

    /// [`Engine::make_move`], with the computer's reply searched within
    /// `budget`.
    pub fn make_move_within(
        &self,
        id: &str,
        token: Option<&str>,
        req: &MoveRequest,
        budget: Budget,
    ) -> Result<Turn<MoveReply>, ApiError> {
        let lock = self.lock_for(id);
        let _guard = lock.lock().unwrap_or_else(|e| e.into_inner());
        self.retrying(|| {
            let (mut record, mut moves) = self.load_with_moves(id)?;
            policy::moving_seat(&record, token, req.ply)?;
            if req.mv.len() > 200 {
                return Err(ApiError::unprocessable(
                    "illegal_move",
                    "a move is at most 200 characters",
                )
                .into());
            }
            let (_, game) = self.game(&record.spec)?;
            let position = stored_position(game.as_ref(), &record.position)?;
            let mv = game.parse_move(&position, &req.mv).map_err(|e| {
                ApiError::unprocessable(
                    "illegal_move",
                    format!("illegal move '{}': {e}", req.mv.trim()),
                )
            })?;
            let mut applied = Vec::new();
            turns::play(&mut record, &mv, false, &mut applied);
            turns::settle(game.as_ref(), &mut record)?;
            // With `"reply": false` the computer's move is asked for on its
            // own (`POST …/computer-move`).
            if req.reply != Some(false) {
                let limits = self.computer_limits(budget);
                if !turns::computer_turns(
                    game.as_ref(),
                    &mut record,
                    limits,
                    budget == Budget::Quick,
                    &mut applied,
                )? {
                    return Err(Attempt::NeedsHeavy);
                }
            }
            record.updated_at = now_ms();
            self.store.advance(&mut record, &applied)?;
            moves.extend(applied.iter().cloned());
            Ok(MoveReply {
                game: self.view(game.as_ref(), &record, &moves)?,
                applied: applied
                    .iter()
                    .map(|m| PlayedMove::detailed(game.as_ref(), m))
                    .collect::<Result<_, _>>()?,
            })
        })
    }

    /// The computer's move, asked for by the player (after a move sent with
    /// `"reply": false`, or a page opened while the computer is to move).
    pub fn computer_move(
        &self,
        id: &str,
        token: Option<&str>,
        req: &ActionRequest,
    ) -> Result<MoveReply, ApiError> {
        self.computer_move_within(id, token, req, Budget::Full)?
            .done()
    }

    /// [`Engine::computer_move`], searched within `budget`. The computer
    /// thinks without holding the game's lock, so the player may take their
    /// move back meanwhile; the move is then applied only if the game is
    /// still where it was, else refused as `stale_ply`.
    pub fn computer_move_within(
        &self,
        id: &str,
        token: Option<&str>,
        req: &ActionRequest,
        budget: Budget,
    ) -> Result<Turn<MoveReply>, ApiError> {
        let seen = {
            let lock = self.lock_for(id);
            let _guard = lock.lock().unwrap_or_else(|e| e.into_inner());
            let record = self.load(id)?;
            policy::computer_to_move(&record, token, req.ply)?;
            record
        };
        let (_, game) = self.game(&seen.spec)?;
        let chosen = turns::pick(game.as_ref(), &seen, self.computer_limits(budget))?;
        if budget == Budget::Quick && chosen.random() {
            return Ok(Turn::NeedsHeavy);
        }
        let stale = |now: u32| {
            ApiError::conflict(
                "stale_ply",
                format!(
                    "the game changed while the computer thought (it was at ply {}, it is at ply {now}): \
                     the computer's move was not made",
                    seen.ply
                ),
            )
        };
        let lock = self.lock_for(id);
        let _guard = lock.lock().unwrap_or_else(|e| e.into_inner());
        let (mut record, mut moves) = self.load_with_moves(id)?;
        if record.ply != seen.ply || record.rev != seen.rev {
            return Err(stale(record.ply));
        }
        let mut applied = Vec::new();
        turns::play_pick(game.as_ref(), &mut record, chosen, &mut applied)?;
        record.updated_at = now_ms();
        match self.store.advance(&mut record, &applied) {
            Ok(()) => {}
            Err(WriteError::Conflict) => return Err(stale(record.ply)),
            Err(e) => return Err(write_error(e)),
        }
        moves.extend(applied.iter().cloned());
        Ok(Turn::Done(MoveReply {
            game: self.view(game.as_ref(), &record, &moves)?,
            applied: applied
                .iter()
                .map(|m| PlayedMove::detailed(game.as_ref(), m))
                .collect::<Result<_, _>>()?,
        }))
    }

    /// A position of a game's record, drawn: the start (ply 0) or the
    /// position after move `ply`.
    pub fn position(&self, id: &str, ply: u32) -> Result<PositionView, ApiError> {
        let (record, moves) = self.load_with_moves(id)?;
        let (_, game) = self.game(&record.spec)?;
        PositionView::new(game.as_ref(), &record, &moves, ply)
    }

    /// The public view of a game.
    pub fn get(&self, id: &str) -> Result<GameView, ApiError> {
        let (record, moves) = self.load_with_moves(id)?;
        let (_, game) = self.game(&record.spec)?;
        self.view(game.as_ref(), &record, &moves)
    }

    /// Solve a position and value its legal moves: a page of at most the
    /// server's `max_listed`, from `offset`.
    pub fn analysis_view(
        &self,
        game: &dyn Game,
        position: &Position,
        convention: Convention,
    ) -> Result<AnalysisView, ApiError> {
        self.analysis_page(game, position, convention, 0, None, self.limits)
    }

    fn analysis_page(
        &self,
        game: &dyn Game,
        position: &Position,
        convention: Convention,
        offset: u64,
        limit: Option<u64>,
        limits: Limits,
    ) -> Result<AnalysisView, ApiError> {
        self.check_size(game, position)?;
        let max = self.server.max_listed;
        let options = AnalyzeOptions {
            every_move: true,
            max_moves: max,
            moves_offset: usize::try_from(offset).unwrap_or(usize::MAX),
            moves_limit: crate::limits::page_limit(limit, max)?,
            ..AnalyzeOptions::new(limits)
        };
        let analysis = game
            .analyze_with(position, convention, &options)
            .map_err(game_error)?;
        Ok(AnalysisView::new(game, analysis))
    }

    /// Analyse a position given in a request.
    pub fn analyze_request(&self, req: &AnalyzeRequest) -> Result<AnalysisView, ApiError> {
        let (_, game) = self.game(req.game.as_deref().unwrap_or("nim"))?;
        let convention = default_convention(req.convention.as_deref(), game.as_ref())?;
        check_position_text(&req.position)?;
        let position = game.parse(&req.position).map_err(position_error)?;
        let view = self.analysis_page(
            game.as_ref(),
            &position,
            convention,
            req.moves_offset.unwrap_or(0),
            req.moves_limit,
            self.limits,
        );
        self.trim_tables();
        view
    }

    /// The current position solved, and every move made judged, within one
    /// budget for the whole request: the server's solver limits, shared by
    /// every position valued. When it runs out, the moves judged so far are
    /// sent, with `history_truncated` and the limit named in `stopped`.
    pub fn game_analysis(&self, id: &str) -> Result<GameAnalysis, ApiError> {
        let result = self.game_analysis_within(id);
        self.trim_tables();
        result
    }

    fn game_analysis_within(&self, id: &str) -> Result<GameAnalysis, ApiError> {
        let started = std::time::Instant::now();
        let (record, moves) = self.load_with_moves(id)?;
        policy::check_analysis_shown(&record)?;
        let (_, game) = self.game(&record.spec)?;
        let convention = parse_convention(Some(&record.convention))?;
        // What is left of the request's time, or None once it is used up.
        let max_time = self.limits.max_time;
        let left = || -> Option<Limits> {
            match max_time {
                None => Some(self.limits),
                Some(max) => {
                    let rest = max.saturating_sub(started.elapsed());
                    (!rest.is_zero()).then(|| self.limits.with_time(rest))
                }
            }
        };
        let time_used = || {
            format!(
                "the analysis used the server's time limit of {} ms for one request",
                max_time.unwrap_or_default().as_millis()
            )
        };
        let current = if record.status == Status::Over {
            None
        } else {
            let position = stored_position(game.as_ref(), &record.position)?;
            let limits =
                left().ok_or_else(|| ApiError::unprocessable("solver_limit", time_used()))?;
            Some(self.analysis_page(game.as_ref(), &position, convention, 0, None, limits)?)
        };
        // Each position of the record valued once: who wins it, and in how
        // many moves (the value history), then each move judged by them.
        let mut value_of: HashMap<String, Valued> = HashMap::new();
        let mut value = |text: &String| -> Result<Valued, String> {
            if let Some(v) = value_of.get(text) {
                return Ok(v.clone());
            }
            let position = stored_position(game.as_ref(), text).map_err(|e| e.message)?;
            self.check_size(game.as_ref(), &position)
                .map_err(|e| e.message)?;
            let limits = left().ok_or_else(time_used)?;
            let options = AnalyzeOptions {
                max_moves: 1,
                ..AnalyzeOptions::new(limits)
            };
            let a = game
                .analyze_with(&position, convention, &options)
                .map_err(|e| match e {
                    nimatron::GameError::Solve(nimatron::SolveError::TimeLimit { .. }) => {
                        time_used()
                    }
                    e => game_error(e).message,
                })?;
            let v = Valued {
                outcome: a.outcome,
                remoteness: a.remoteness,
                winning_move: a.winning_moves.first().map(|m| m.text.clone()),
            };
            value_of.insert(text.clone(), v.clone());
            Ok(v)
        };
        let listed = moves.len().min(self.server.max_listed);
        let mut history = Vec::with_capacity(listed);
        let mut values = Vec::with_capacity(listed + 1);
        let mut stopped = None;
        match value(&record.start) {
            Ok(start) => values.push(start.point(0, record.first_seat)),
            Err(why) => stopped = Some(why),
        }
        for m in moves.iter().take(listed) {
            if stopped.is_some() {
                break;
            }
            let judged = value(&m.before).and_then(|before| Ok((before, value(&m.after)?)));
            match judged {
                Ok((before, after)) => {
                    history.push(ReviewedMove::judge(
                        m,
                        before.outcome,
                        after.outcome,
                        before.winning_move.as_ref(),
                    ));
                    values.push(after.point(m.ply, 1 - m.seat));
                }
                Err(why) => stopped = Some(why),
            }
        }
        if stopped.is_none() && listed < moves.len() {
            stopped = Some(format!(
                "the record has {} moves; one reply judges at most {}",
                moves.len(),
                self.server.max_listed
            ));
        }
        Ok(GameAnalysis {
            current,
            history_total: moves.len() as u64,
            history_truncated: history.len() < moves.len(),
            stopped,
            history,
            values,
        })
    }

    /// The games with these ids (those that exist), newest first.
    pub fn games_with_ids(&self, ids: &[String]) -> Result<Vec<GameSummary>, ApiError> {
        Ok(self
            .store
            .with_ids(ids)?
            .into_iter()
            .map(GameSummary::from)
            .collect())
    }

    /// The newest games.
    pub fn recent(&self, limit: u32, offset: u32) -> Result<Vec<GameSummary>, ApiError> {
        Ok(self
            .store
            .recent(limit.min(200), offset)?
            .into_iter()
            .map(GameSummary::from)
            .collect())
    }

    /// Every game in the catalogue, with what this build can do with it.
    pub fn catalogue(&self) -> Vec<CatalogueItem> {
        GameSpec::CATALOGUE
            .iter()
            .map(|entry| {
                let built = self.game(entry.example).ok().map(|(_, g)| g);
                CatalogueItem::new(entry, built.as_ref())
            })
            .collect()
    }
}

/// A position of a record, valued for the game's analysis.
#[derive(Clone)]
struct Valued {
    outcome: Outcome,
    remoteness: Option<Remoteness>,
    winning_move: Option<String>,
}

impl Valued {
    fn point(&self, ply: u32, to_move: u8) -> ValuePoint {
        ValuePoint::new(
            ply,
            to_move,
            self.outcome,
            self.remoteness,
            self.winning_move.clone(),
        )
    }
}
