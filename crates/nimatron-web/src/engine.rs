//! The rules of the web app, apart from HTTP: creating games, checking and
//! applying moves, the computer's replies, and the JSON views of games and
//! analyses. Everything goes through the library's object-safe [`Game`], so
//! every game that `GameSpec::build` returns works here unchanged.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::{SystemTime, UNIX_EPOCH};

use nimatron::sequence::{
    GrundySequence, HeapGame, SequenceError, SequenceOptions, grundy_sequence,
};
use nimatron::solve::Limits;
use nimatron::strategy::{Level, SplitMix64};
use nimatron::{
    Analysis, AnalyzeOptions, Board, Convention, Game, GameError, GameSpec, MoveInfo, Outcome,
    Position, PositionError, PositionValue, SpecError,
};
use serde::{Deserialize, Serialize};

use crate::db::{GameRecord, Mode, MoveRecord, Status, Store, WriteError};
use crate::error::ApiError;
use crate::token;

/// A game outside the catalogue that the server plays under its own name:
/// the name and a function that builds it.
pub type CustomGame = (&'static str, fn() -> Box<dyn Game>);

/// The most material (objects, cells...) a position may hold in the web app,
/// so that boards stay drawable and move lists stay short.
pub const MAX_MATERIAL: u64 = 300;
/// The longest position text accepted.
pub const MAX_POSITION_TEXT: usize = 1000;
/// How many different game specs are kept built (with their solver tables).
const GAME_CACHE: usize = 64;
/// How many Grundy sequences the Explore page keeps computed.
const SEQUENCE_CACHE: usize = 16;
/// The most memory one Grundy sequence may plan to use.
const SEQUENCE_MEMORY: u64 = 64 << 20;

/// Milliseconds since the Unix epoch.
pub fn now_ms() -> i64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_millis() as i64)
        .unwrap_or(0)
}

/// The state shared by every request.
pub struct Engine {
    store: Store,
    custom: Vec<CustomGame>,
    limits: Limits,
    games: Mutex<HashMap<String, Arc<dyn Game>>>,
    sequences: Mutex<HashMap<(String, u64), Arc<GrundySequence>>>,
    locks: Mutex<HashMap<String, Arc<Mutex<()>>>>,
}

/// A request to create a game.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NewGame {
    /// Game spec, default `nim`.
    pub game: Option<String>,
    /// `normal` (default) or `misere`.
    pub convention: Option<String>,
    /// Start position; default the game's usual start.
    pub position: Option<String>,
    /// A random start (heap games).
    #[serde(default)]
    pub random: bool,
    /// `you` (default), `opponent` or `random`.
    pub first: Option<String>,
    /// `computer` (default), `local` or `online`.
    pub opponent: Option<String>,
    /// Computer level: `perfect` (default), `hard`, `medium`, `easy`.
    pub level: Option<String>,
}

/// A request to move.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MoveRequest {
    /// The move, in the game's notation (e.g. `A 2`).
    #[serde(rename = "move")]
    pub mv: String,
    /// The ply the mover saw; if given and the game has moved on, the move
    /// is refused instead of being applied to a position nobody saw.
    pub ply: Option<u32>,
}

/// A request to analyse a position without a game.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AnalyzeRequest {
    /// Game spec, default `nim`.
    pub game: Option<String>,
    /// `normal` (default) or `misere`.
    pub convention: Option<String>,
    /// The position.
    pub position: String,
}

fn heaps_of(value: &PositionValue) -> Option<Vec<u64>> {
    value.heaps().map(<[u64]>::to_vec)
}

/// One seat of a game.
#[derive(Clone, Debug, Serialize)]
pub struct SeatView {
    /// 0 or 1.
    pub seat: u8,
    /// `human` or `computer`.
    pub kind: &'static str,
    /// Whether someone holds the seat (online games: false until joined).
    pub taken: bool,
}

/// A move made, as the API shows it.
#[derive(Clone, Debug, Serialize)]
pub struct PlayedMove {
    /// 1 for the first move.
    pub ply: u32,
    /// The seat that moved.
    pub seat: u8,
    /// The move in the game's notation.
    pub notation: String,
    /// The move in words.
    pub text: String,
    /// The position before.
    pub before: String,
    /// The position after.
    pub after: String,
    /// Whether the computer made it.
    pub by_computer: bool,
    /// Unix milliseconds.
    pub at: i64,
}

impl From<&MoveRecord> for PlayedMove {
    fn from(m: &MoveRecord) -> PlayedMove {
        PlayedMove {
            ply: m.ply,
            seat: m.seat,
            notation: m.notation.clone(),
            text: m.text.clone(),
            before: m.before.clone(),
            after: m.after.clone(),
            by_computer: m.by_computer,
            at: m.created_at,
        }
    }
}

/// A game, as anyone with its link sees it (no tokens).
#[derive(Clone, Debug, Serialize)]
pub struct GameView {
    /// The game's id.
    pub id: String,
    /// The canonical spec.
    pub game: String,
    /// `normal` or `misere`.
    pub convention: String,
    /// `computer`, `local` or `online`.
    pub mode: &'static str,
    /// The computer's level (computer games).
    pub level: Option<String>,
    /// The start position.
    pub start: String,
    /// The seat that moved first.
    pub first_seat: u8,
    /// The current position, canonical text.
    pub position: String,
    /// The current heaps, for heap games.
    pub heaps: Option<Vec<u64>>,
    /// Heap games whose moves may take objects from inside a row and leave
    /// its two ends as separate rows (Kayles, octal games), or split a row
    /// without taking (Grundy's game): the board selects runs of adjacent
    /// objects (and gaps) instead of a match and everything to its right.
    pub rows_split: bool,
    /// A text picture of the position.
    pub board: String,
    /// How the position is drawn, as data: heaps, a ring, a grid, a graph
    /// or a counter.
    pub geometry: Board,
    /// The seat to move.
    pub to_move: u8,
    /// Moves made.
    pub ply: u32,
    /// `waiting`, `playing` or `over`.
    pub status: &'static str,
    /// The winning seat, when over.
    pub winner: Option<u8>,
    /// Both seats.
    pub seats: [SeatView; 2],
    /// Every move made, in order.
    pub moves: Vec<PlayedMove>,
    /// Every legal move now (empty when the game is over).
    pub legal_moves: Vec<MoveInfo>,
    /// How moves are written.
    pub move_syntax: &'static str,
    /// How positions are written.
    pub position_syntax: &'static str,
    /// Unix milliseconds.
    pub created_at: i64,
    /// Unix milliseconds.
    pub updated_at: i64,
}

/// What a creator or joiner gets back: the game, and their seat's token.
#[derive(Clone, Debug, Serialize)]
pub struct SeatGrant {
    /// The game.
    pub game: GameView,
    /// The seat now held.
    pub seat: u8,
    /// The secret that lets this seat move. Send it as
    /// `Authorization: Bearer TOKEN`.
    pub token: String,
    /// Online games, for the creator: the code that hands out seat 1.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub invite: Option<String>,
    /// Online games, for the creator: the link to send to a friend.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub invite_url: Option<String>,
}

/// The reply to a move: the game after it, and the moves it caused.
#[derive(Clone, Debug, Serialize)]
pub struct MoveReply {
    /// The game after the move (and the computer's reply, if any).
    pub game: GameView,
    /// The moves just applied: yours, then the computer's.
    pub applied: Vec<PlayedMove>,
}

/// The seeds' binary table for Nim: each heap in binary, then the nim-sum.
#[derive(Clone, Debug, Serialize)]
pub struct NimTable {
    /// Bits shown.
    pub bits: u32,
    /// One row per heap.
    pub rows: Vec<NimRow>,
    /// The XOR of the heaps.
    pub nim_sum: u64,
    /// The nim-sum in binary.
    pub nim_sum_binary: String,
}

/// One heap in the binary table.
#[derive(Clone, Debug, Serialize)]
pub struct NimRow {
    /// `A`, `B`, ...
    pub name: String,
    /// The heap size.
    pub size: u64,
    /// The heap size in binary, `bits` wide.
    pub binary: String,
}

/// A solved position: the library's analysis, the same object as
/// `nimatron analyze --json`, with every legal move valued and Nim's
/// binary table.
#[derive(Clone, Debug, Serialize)]
pub struct AnalysisView {
    /// The analysis.
    #[serde(flatten)]
    pub analysis: Analysis,
    /// Nim only: the binary table with the nim-sum.
    pub nim_table: Option<NimTable>,
}

/// One move of a finished or running game, judged.
#[derive(Clone, Debug, Serialize)]
pub struct ReviewedMove {
    /// 1 for the first move.
    pub ply: u32,
    /// The seat that moved.
    pub seat: u8,
    /// The move in words.
    pub text: String,
    /// `N` or `P`: the mover's position before the move.
    pub before: String,
    /// `N` or `P`: the opponent's position after the move.
    pub after: String,
    /// `winning` (kept a win), `blunder` (threw away a win) or `lost`
    /// (every move lost already).
    pub value: &'static str,
}

/// A game's analysis: the current position, and every move judged.
#[derive(Clone, Debug, Serialize)]
pub struct GameAnalysis {
    /// The current position solved (absent when the game is over).
    pub current: Option<AnalysisView>,
    /// Each move made, judged.
    pub history: Vec<ReviewedMove>,
}

/// A line in the history list.
#[derive(Clone, Debug, Serialize)]
pub struct GameSummary {
    /// The id.
    pub id: String,
    /// The spec.
    pub game: String,
    /// `normal` or `misere`.
    pub convention: String,
    /// How it is played.
    pub mode: &'static str,
    /// The computer's level.
    pub level: Option<String>,
    /// The start position.
    pub start: String,
    /// The position now.
    pub position: String,
    /// Moves made.
    pub ply: u32,
    /// `waiting`, `playing` or `over`.
    pub status: &'static str,
    /// The winning seat.
    pub winner: Option<u8>,
    /// The computer's seat.
    pub computer_seat: Option<u8>,
    /// Unix milliseconds.
    pub created_at: i64,
}

/// A catalogue entry for the game chooser.
#[derive(Clone, Debug, Serialize)]
pub struct CatalogueItem {
    /// How the spec is written, e.g. `moore:K[,R]`.
    pub syntax: &'static str,
    /// One line about it.
    pub summary: &'static str,
    /// A spec that plays it with default parameters, if one exists.
    pub spec: Option<String>,
    /// Whether this build can play it.
    pub playable: bool,
    /// Whether positions are heaps (drawn as rows of stones).
    pub heaps: bool,
    /// The usual start.
    pub start: Option<String>,
    /// Conventions offered.
    pub conventions: Vec<&'static str>,
    /// How positions are written.
    pub position_syntax: Option<&'static str>,
    /// How moves are written.
    pub move_syntax: Option<&'static str>,
    /// The rules.
    pub rules: Option<&'static str>,
}

fn convention_name(c: Convention) -> &'static str {
    match c {
        Convention::Normal => "normal",
        Convention::Misere => "misere",
    }
}

/// The convention asked for, or the game's own when it offers one only
/// (Notakto is misère play), else normal play.
fn default_convention(text: Option<&str>, game: &dyn Game) -> Result<Convention, ApiError> {
    match text {
        None if game.conventions() == [Convention::Misere] => Ok(Convention::Misere),
        _ => parse_convention(text),
    }
}

/// Parse `normal`/`misere`.
pub fn parse_convention(text: Option<&str>) -> Result<Convention, ApiError> {
    match text.map(|s| s.trim().to_ascii_lowercase()) {
        None => Ok(Convention::Normal),
        Some(s) if s == "normal" => Ok(Convention::Normal),
        Some(s) if s == "misere" || s == "misère" => Ok(Convention::Misere),
        Some(s) => Err(ApiError::bad_request(
            "bad_convention",
            format!("unknown convention '{s}': expected 'normal' or 'misere'"),
        )),
    }
}

fn spec_error(e: SpecError) -> ApiError {
    match e {
        SpecError::UnknownGame { .. } => ApiError::bad_request("unknown_game", e.to_string()),
        SpecError::BadParameters { .. } | SpecError::HeapGame(_) => {
            ApiError::bad_request("bad_spec", e.to_string())
        }
        SpecError::NotPlayable { .. } => ApiError::unprocessable("game_unavailable", e.to_string()),
    }
}

/// Map a library error on analysis to an API error.
pub fn game_error(e: GameError) -> ApiError {
    match e {
        GameError::Position(p) => ApiError::unprocessable("bad_position", p.to_string()),
        GameError::Convention { .. } => ApiError::unprocessable("bad_convention", e.to_string()),
        GameError::Solve(s) => ApiError::unprocessable(
            "solver_limit",
            format!("{s}: the position is too large for this server; try a smaller one"),
        ),
    }
}

fn position_error(e: PositionError) -> ApiError {
    ApiError::unprocessable("bad_position", e.to_string())
}

fn stored(what: &str, e: impl std::fmt::Display) -> ApiError {
    ApiError::internal(format!("stored {what} no longer valid: {e}"))
}

/// The seats' token check: which seat a token holds in this game.
fn seat_for_token(game: &GameRecord, token: Option<&str>) -> Result<Option<u8>, ApiError> {
    let Some(token) = token else {
        return Err(ApiError::new(
            axum::http::StatusCode::UNAUTHORIZED,
            "missing_token",
            "this needs your seat token: send 'Authorization: Bearer TOKEN'",
        ));
    };
    if token::same(token, &game.token0) {
        // In a local game one token moves for both sides.
        return Ok(if game.mode == Mode::Local {
            None
        } else {
            Some(0)
        });
    }
    if let Some(t1) = &game.token1
        && token::same(token, t1)
    {
        return Ok(Some(1));
    }
    Err(ApiError::new(
        axum::http::StatusCode::FORBIDDEN,
        "wrong_token",
        format!("that token does not hold a seat in game '{}'", game.id),
    ))
}

impl Engine {
    /// An engine over this store.
    pub fn new(store: Store, custom: Vec<CustomGame>, limits: Limits) -> Engine {
        Engine {
            store,
            custom,
            limits,
            games: Mutex::new(HashMap::new()),
            sequences: Mutex::new(HashMap::new()),
            locks: Mutex::new(HashMap::new()),
        }
    }

    /// The store.
    pub fn store(&self) -> &Store {
        &self.store
    }

    /// Parse a spec and build its game (cached, so solver tables persist).
    /// A custom game is found by its name; a catalogue game by its spec,
    /// which is returned too.
    pub fn game(&self, spec_text: &str) -> Result<(Option<GameSpec>, Arc<dyn Game>), ApiError> {
        if spec_text.len() > 200 {
            return Err(ApiError::bad_request(
                "bad_spec",
                "a game spec is at most 200 characters",
            ));
        }
        let custom = self
            .custom
            .iter()
            .find(|(name, _)| name.eq_ignore_ascii_case(spec_text.trim()));
        let (spec, key) = match custom {
            Some((name, _)) => (None, name.to_string()),
            None => {
                let spec: GameSpec = spec_text.parse().map_err(spec_error)?;
                let key = spec.to_string();
                (Some(spec), key)
            }
        };
        if let Some(g) = self
            .games
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .get(&key)
        {
            return Ok((spec, g.clone()));
        }
        let built: Arc<dyn Game> = match (custom, &spec) {
            (Some((_, build)), _) => Arc::from(build()),
            (None, Some(spec)) => Arc::from(spec.build().map_err(spec_error)?),
            (None, None) => return Err(ApiError::internal("no game was built")),
        };
        let mut games = self.games.lock().unwrap_or_else(|e| e.into_inner());
        if games.len() >= GAME_CACHE {
            games.clear();
        }
        let g = games.entry(key).or_insert(built).clone();
        Ok((spec, g))
    }

    /// The Grundy sequence g(0..=to) of a heap game from the sequence
    /// engine, kept for the next request (a few games at a time).
    pub fn grundy_sequence(
        &self,
        game: &HeapGame,
        to: u64,
    ) -> Result<Arc<GrundySequence>, SequenceError> {
        let key = (game.to_string(), to);
        if let Some(seq) = self
            .sequences
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .get(&key)
        {
            return Ok(seq.clone());
        }
        let options = SequenceOptions {
            memory_limit: SEQUENCE_MEMORY,
            ..SequenceOptions::default()
        };
        let seq = Arc::new(grundy_sequence(game, to, &options)?);
        let mut cache = self.sequences.lock().unwrap_or_else(|e| e.into_inner());
        if cache.len() >= SEQUENCE_CACHE {
            cache.clear();
        }
        cache.insert(key, seq.clone());
        Ok(seq)
    }

    fn lock_for(&self, id: &str) -> Arc<Mutex<()>> {
        let mut locks = self.locks.lock().unwrap_or_else(|e| e.into_inner());
        if locks.len() > 10_000 {
            locks.retain(|_, l| Arc::strong_count(l) > 1);
        }
        locks.entry(id.to_string()).or_default().clone()
    }

    fn check_size(&self, game: &dyn Game, position: &Position) -> Result<(), ApiError> {
        let material = game.material(position).map_err(position_error)?;
        if material > MAX_MATERIAL {
            return Err(ApiError::unprocessable(
                "position_too_large",
                format!(
                    "the position '{position}' holds {material} objects; the web app plays positions of at most {MAX_MATERIAL}"
                ),
            ));
        }
        Ok(())
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
        let options = AnalyzeOptions {
            remoteness: false,
            ..AnalyzeOptions::new(self.limits)
        };
        game.analyze_with(position, convention, &options)
            .map_err(game_error)
    }

    /// The solver limits of this server.
    pub fn limits(&self) -> Limits {
        self.limits
    }

    /// A stored position, parsed.
    fn stored_position(&self, game: &dyn Game, text: &str) -> Result<Position, ApiError> {
        game.parse(text).map_err(|e| stored("position", e))
    }

    /// Whether the game is over at its position, and who won.
    fn settle(&self, game: &dyn Game, record: &mut GameRecord) -> Result<(), ApiError> {
        let position = self.stored_position(game, &record.position)?;
        let none_left = game
            .is_terminal(&position)
            .map_err(|e| stored("position", e))?;
        if none_left {
            record.status = Status::Over;
            let convention = parse_convention(Some(&record.convention))?;
            // The player to move cannot move: the other seat moved last.
            record.winner = Some(match convention {
                Convention::Normal => 1 - record.to_move,
                Convention::Misere => record.to_move,
            });
        }
        Ok(())
    }

    fn play(
        &self,
        record: &mut GameRecord,
        mv: &MoveInfo,
        by_computer: bool,
        out: &mut Vec<MoveRecord>,
    ) {
        record.ply += 1;
        out.push(MoveRecord {
            ply: record.ply,
            seat: record.to_move,
            notation: mv.notation.clone(),
            text: mv.text.clone(),
            before: record.position.clone(),
            after: mv.to_text.clone(),
            by_computer,
            created_at: now_ms(),
        });
        record.position = mv.to_text.clone();
        record.to_move = 1 - record.to_move;
    }

    /// Let the computer move while it is its turn.
    fn computer_turns(
        &self,
        game: &dyn Game,
        record: &mut GameRecord,
        out: &mut Vec<MoveRecord>,
    ) -> Result<(), ApiError> {
        let Some(seat) = record.computer_seat else {
            return Ok(());
        };
        let convention = parse_convention(Some(&record.convention))?;
        let level: Level = record
            .level
            .as_deref()
            .unwrap_or("perfect")
            .parse()
            .map_err(|e| stored("level", e))?;
        let mut rng = SplitMix64::new(record.rng);
        while record.status == Status::Playing && record.to_move == seat {
            let position = self.stored_position(game, &record.position)?;
            let chosen = nimatron::play::computer_move(
                game,
                &position,
                convention,
                level,
                &mut rng,
                self.limits,
            )
            .map_err(game_error)?;
            match chosen {
                Some(mv) => self.play(record, &mv, true, out),
                None => break,
            }
            self.settle(game, record)?;
        }
        record.rng = rng.next_u64();
        Ok(())
    }

    /// Create a game; the creator holds seat 0.
    pub fn create(&self, req: NewGame) -> Result<SeatGrant, ApiError> {
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
                if text.len() > MAX_POSITION_TEXT {
                    return Err(ApiError::unprocessable(
                        "position_too_large",
                        format!("a position is at most {MAX_POSITION_TEXT} characters"),
                    ));
                }
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
        let mode = match req.opponent.as_deref() {
            None => Mode::Computer,
            Some(s) => Mode::parse(s).ok_or_else(|| {
                ApiError::bad_request(
                    "bad_opponent",
                    format!("unknown opponent '{s}': expected 'computer', 'local' or 'online'"),
                )
            })?,
        };
        let level = match (mode, req.level.as_deref()) {
            (Mode::Computer, l) => Some(
                l.unwrap_or("perfect")
                    .parse::<Level>()
                    .map_err(|e| ApiError::bad_request("bad_level", e.to_string()))?,
            ),
            (_, None) => None,
            (_, Some(_)) => {
                return Err(ApiError::bad_request(
                    "bad_request",
                    "'level' is for games against the computer",
                ));
            }
        };
        let first_seat = match req.first.as_deref().unwrap_or("you") {
            "you" | "me" | "creator" => 0,
            "opponent" | "computer" | "friend" => 1,
            "random" => (token::random_u64() & 1) as u8,
            other => {
                return Err(ApiError::bad_request(
                    "bad_first",
                    format!(
                        "unknown first player '{other}': expected 'you', 'opponent' or 'random'"
                    ),
                ));
            }
        };
        let now = now_ms();
        let invite = (mode == Mode::Online).then(token::new_token);
        let mut record = GameRecord {
            id: token::new_id(),
            spec: spec.to_string(),
            convention: convention_name(convention).to_string(),
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
            created_at: now,
            updated_at: now,
        };
        let mut moves = Vec::new();
        self.computer_turns(game.as_ref(), &mut record, &mut moves)?;
        self.store
            .insert_game(&record, &moves)
            .map_err(|e| match e {
                WriteError::Conflict => ApiError::internal("game id collision"),
                WriteError::Db(e) => e.into(),
            })?;
        let view = self.view(game.as_ref(), &record, &moves)?;
        Ok(SeatGrant {
            invite_url: invite
                .as_ref()
                .map(|c| format!("/play/{}?invite={c}", record.id)),
            invite,
            seat: 0,
            token: record.token0.clone(),
            game: view,
        })
    }

    fn load(&self, id: &str) -> Result<GameRecord, ApiError> {
        if !token::plausible_id(id) {
            return Err(ApiError::game_not_found(id));
        }
        self.store
            .game(id)?
            .ok_or_else(|| ApiError::game_not_found(id))
    }

    fn load_with_moves(&self, id: &str) -> Result<(GameRecord, Vec<MoveRecord>), ApiError> {
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
        let mut record = self.load(id)?;
        let Some(code) = record
            .invite
            .clone()
            .filter(|_| record.mode == Mode::Online)
        else {
            return Err(ApiError::conflict(
                "not_online",
                format!("game '{id}' is not an online game: there is no seat to join"),
            ));
        };
        if !token::same(invite, &code) {
            return Err(ApiError::new(
                axum::http::StatusCode::FORBIDDEN,
                "wrong_invite",
                format!("that is not the invite code of game '{id}'"),
            ));
        }
        if record.token1.is_some() {
            return Err(ApiError::conflict(
                "seat_taken",
                format!("the second seat of game '{id}' is already taken"),
            ));
        }
        let (_, game) = self.game(&record.spec)?;
        let token = token::new_token();
        record.token1 = Some(token.clone());
        record.status = Status::Playing;
        record.updated_at = now_ms();
        let ply = record.ply;
        self.store.advance(&record, ply, &[]).map_err(write_error)?;
        let moves = self.store.moves(id)?;
        Ok(SeatGrant {
            game: self.view(game.as_ref(), &record, &moves)?,
            seat: 1,
            token,
            invite: None,
            invite_url: None,
        })
    }

    /// Check and apply a move by the holder of `token`, then the computer's
    /// reply; everything is committed before this returns.
    pub fn make_move(
        &self,
        id: &str,
        token: Option<&str>,
        req: &MoveRequest,
    ) -> Result<MoveReply, ApiError> {
        let lock = self.lock_for(id);
        let _guard = lock.lock().unwrap_or_else(|e| e.into_inner());
        let (mut record, mut moves) = self.load_with_moves(id)?;
        let seat = seat_for_token(&record, token)?;
        match record.status {
            Status::Waiting => {
                return Err(ApiError::conflict(
                    "waiting_for_opponent",
                    "the second seat is still free: send the invite link first",
                ));
            }
            Status::Over => {
                return Err(ApiError::conflict("game_over", "the game is over"));
            }
            Status::Playing => {}
        }
        if let Some(ply) = req.ply
            && ply != record.ply
        {
            return Err(ApiError::conflict(
                "stale_ply",
                format!(
                    "the move was made at ply {ply}, but the game is at ply {}: reload and try again",
                    record.ply
                ),
            ));
        }
        if let Some(seat) = seat
            && seat != record.to_move
        {
            return Err(ApiError::conflict(
                "not_your_turn",
                format!("not your turn: seat {} is to move", record.to_move),
            ));
        }
        if req.mv.len() > 200 {
            return Err(ApiError::unprocessable(
                "illegal_move",
                "a move is at most 200 characters",
            ));
        }
        let (_, game) = self.game(&record.spec)?;
        let position = self.stored_position(game.as_ref(), &record.position)?;
        let mv = game.parse_move(&position, &req.mv).map_err(|e| {
            ApiError::unprocessable(
                "illegal_move",
                format!("illegal move '{}': {e}", req.mv.trim()),
            )
        })?;
        let ply = record.ply;
        let mut applied = Vec::new();
        self.play(&mut record, &mv, false, &mut applied);
        self.settle(game.as_ref(), &mut record)?;
        self.computer_turns(game.as_ref(), &mut record, &mut applied)?;
        record.updated_at = now_ms();
        self.store
            .advance(&record, ply, &applied)
            .map_err(write_error)?;
        moves.extend(applied.iter().cloned());
        Ok(MoveReply {
            game: self.view(game.as_ref(), &record, &moves)?,
            applied: applied.iter().map(PlayedMove::from).collect(),
        })
    }

    /// The public view of a game.
    pub fn get(&self, id: &str) -> Result<GameView, ApiError> {
        if !token::plausible_id(id) {
            return Err(ApiError::game_not_found(id));
        }
        let (record, moves) = self
            .store
            .game_with_moves(id)?
            .ok_or_else(|| ApiError::game_not_found(id))?;
        let (_, game) = self.game(&record.spec)?;
        self.view(game.as_ref(), &record, &moves)
    }

    fn view(
        &self,
        game: &dyn Game,
        record: &GameRecord,
        moves: &[MoveRecord],
    ) -> Result<GameView, ApiError> {
        let position = self.stored_position(game, &record.position)?;
        let legal = if record.status == Status::Over {
            Vec::new()
        } else {
            game.legal_moves(&position)
                .map_err(|e| stored("position", e))?
        };
        let value = game.value(&position).map_err(|e| stored("position", e))?;
        let geometry = game.board(&position).map_err(|e| stored("position", e))?;
        let human = |taken| SeatView {
            seat: 0,
            kind: "human",
            taken,
        };
        let seat1 = match record.mode {
            Mode::Computer => SeatView {
                seat: 1,
                kind: "computer",
                taken: true,
            },
            Mode::Local => SeatView {
                seat: 1,
                ..human(true)
            },
            Mode::Online => SeatView {
                seat: 1,
                ..human(record.token1.is_some())
            },
        };
        Ok(GameView {
            id: record.id.clone(),
            game: record.spec.clone(),
            convention: record.convention.clone(),
            mode: record.mode.name(),
            level: record.level.clone(),
            start: record.start.clone(),
            first_seat: record.first_seat,
            position: record.position.clone(),
            heaps: heaps_of(&value),
            rows_split: matches!(
                geometry,
                Board::Heaps {
                    rows_split: true,
                    ..
                }
            ),
            board: game.render(&position).map_err(|e| stored("position", e))?,
            geometry,
            to_move: record.to_move,
            ply: record.ply,
            status: record.status.name(),
            winner: record.winner,
            seats: [human(true), seat1],
            moves: moves.iter().map(PlayedMove::from).collect(),
            legal_moves: legal,
            move_syntax: game.move_syntax(),
            position_syntax: game.position_syntax(),
            created_at: record.created_at,
            updated_at: record.updated_at,
        })
    }

    /// Solve a position and value every legal move.
    pub fn analysis_view(
        &self,
        game: &dyn Game,
        position: &Position,
        convention: Convention,
    ) -> Result<AnalysisView, ApiError> {
        self.check_size(game, position)?;
        let options = AnalyzeOptions {
            every_move: true,
            ..AnalyzeOptions::new(self.limits)
        };
        let analysis = game
            .analyze_with(position, convention, &options)
            .map_err(game_error)?;
        let nim_table = match (analysis.details.nim, &analysis.position) {
            (Some(_), PositionValue::Heaps(heaps)) if game.name() == "nim" => {
                Some(nim_table(heaps))
            }
            _ => None,
        };
        Ok(AnalysisView {
            analysis,
            nim_table,
        })
    }

    /// Analyse a position given in a request.
    pub fn analyze_request(&self, req: &AnalyzeRequest) -> Result<AnalysisView, ApiError> {
        let (_, game) = self.game(req.game.as_deref().unwrap_or("nim"))?;
        let convention = default_convention(req.convention.as_deref(), game.as_ref())?;
        if req.position.len() > MAX_POSITION_TEXT {
            return Err(ApiError::unprocessable(
                "position_too_large",
                format!("a position is at most {MAX_POSITION_TEXT} characters"),
            ));
        }
        let position = game.parse(&req.position).map_err(position_error)?;
        self.analysis_view(game.as_ref(), &position, convention)
    }

    /// The current position solved, and every move made judged.
    pub fn game_analysis(&self, id: &str) -> Result<GameAnalysis, ApiError> {
        if !token::plausible_id(id) {
            return Err(ApiError::game_not_found(id));
        }
        let (record, moves) = self
            .store
            .game_with_moves(id)?
            .ok_or_else(|| ApiError::game_not_found(id))?;
        let (_, game) = self.game(&record.spec)?;
        let convention = parse_convention(Some(&record.convention))?;
        let current = if record.status == Status::Over {
            None
        } else {
            let position = self.stored_position(game.as_ref(), &record.position)?;
            Some(self.analysis_view(game.as_ref(), &position, convention)?)
        };
        let mut history = Vec::with_capacity(moves.len());
        let mut outcome_of = HashMap::new();
        for m in &moves {
            for p in [&m.before, &m.after] {
                if !outcome_of.contains_key(p) {
                    let position = self.stored_position(game.as_ref(), p)?;
                    let o = game
                        .outcome(&position, convention, self.limits)
                        .map_err(game_error)?;
                    outcome_of.insert(p.clone(), o);
                }
            }
            let before = outcome_of[&m.before];
            let after = outcome_of[&m.after];
            history.push(ReviewedMove {
                ply: m.ply,
                seat: m.seat,
                text: m.text.clone(),
                before: before.to_string(),
                after: after.to_string(),
                value: match (before, after) {
                    (Outcome::N, Outcome::P) => "winning",
                    (Outcome::N, Outcome::N) => "blunder",
                    (Outcome::P, _) => "lost",
                },
            });
        }
        Ok(GameAnalysis { current, history })
    }

    /// The newest games.
    pub fn recent(&self, limit: u32, offset: u32) -> Result<Vec<GameSummary>, ApiError> {
        Ok(self
            .store
            .recent(limit.min(200), offset)?
            .into_iter()
            .map(|g| GameSummary {
                id: g.id,
                game: g.spec,
                convention: g.convention,
                mode: g.mode.name(),
                level: g.level,
                start: g.start,
                position: g.position,
                ply: g.ply,
                status: g.status.name(),
                winner: g.winner,
                computer_seat: g.computer_seat,
                created_at: g.created_at,
            })
            .collect())
    }

    /// Every game in the catalogue, with what this build can do with it.
    pub fn catalogue(&self) -> Vec<CatalogueItem> {
        GameSpec::CATALOGUE
            .iter()
            .map(|entry| {
                let name = entry
                    .syntax
                    .split(['[', ':'])
                    .next()
                    .unwrap_or(entry.syntax);
                let built = self.game(name).ok();
                let start = built.as_ref().and_then(|(_, g)| g.start());
                let heaps = built
                    .as_ref()
                    .and_then(|(_, g)| {
                        let p = match &start {
                            Some(p) => p.clone(),
                            None => g.parse(g.description().example).ok()?,
                        };
                        g.value(&p).ok()
                    })
                    .is_some_and(|v| matches!(v, PositionValue::Heaps(_)));
                let start = start.map(|p| p.text().to_string());
                CatalogueItem {
                    syntax: entry.syntax,
                    summary: entry.summary,
                    spec: built.as_ref().map(|(_, g)| g.name()),
                    playable: built.is_some(),
                    heaps,
                    start,
                    conventions: built
                        .as_ref()
                        .map(|(_, g)| {
                            g.conventions()
                                .iter()
                                .map(|&c| convention_name(c))
                                .collect()
                        })
                        .unwrap_or_default(),
                    position_syntax: built.as_ref().map(|(_, g)| g.position_syntax()),
                    move_syntax: built.as_ref().map(|(_, g)| g.move_syntax()),
                    rules: built.as_ref().map(|(_, g)| g.description().rules),
                }
            })
            .collect()
    }
}

fn write_error(e: WriteError) -> ApiError {
    match e {
        WriteError::Conflict => ApiError::conflict(
            "stale_ply",
            "the game changed while the move was being checked: reload and try again",
        ),
        WriteError::Db(e) => e.into(),
    }
}

/// The seeds' binary table for Nim heaps.
pub fn nim_table(heaps: &[u64]) -> NimTable {
    let nim_sum = heaps.iter().fold(0, |a, &h| a ^ h);
    let widest = heaps.iter().copied().max().unwrap_or(0).max(nim_sum);
    let bits = (64 - widest.leading_zeros()).max(1);
    let w = bits as usize;
    NimTable {
        bits,
        rows: heaps
            .iter()
            .enumerate()
            .map(|(i, &h)| NimRow {
                name: nimatron::explain::heap_name(i),
                size: h,
                binary: format!("{h:0w$b}"),
            })
            .collect(),
        nim_sum,
        nim_sum_binary: format!("{nim_sum:0w$b}"),
    }
}
