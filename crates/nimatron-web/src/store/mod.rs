//! Game records: one trait, [`Store`], with two implementations, SQLite
//! ([`sqlite`], the embedded default: one server on one machine) and
//! PostgreSQL ([`postgres`]: several app servers sharing one database).
//!
//! A game is one row, its moves one row each. Every write is checked
//! against the revision of the game row it was computed from (`rev`, which
//! every change of the row increases), in the same statement or transaction
//! as the write itself: a move, a join or a vote computed from a row that
//! someone else changed in between is refused with [`WriteError::Conflict`],
//! never stored on top. That is what serialises the changes to one game
//! across several servers; within one server a lock per game keeps such
//! conflicts rare, and the engine computes a refused change again from the
//! new row (see `service.rs`).
//!
//! Both backends share their migrations ([`migrations`]); a write is
//! committed (and, on PostgreSQL, announced to the other servers through
//! `NOTIFY`) before the reply is sent.

use std::fmt;
use std::path::PathBuf;
use std::sync::Arc;

pub mod migrations;
pub mod postgres;
pub mod sqlite;

pub use sqlite::Durability;

/// How a game is played.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    /// One person against the computer.
    Computer,
    /// Two people at one screen (one token moves for both).
    Local,
    /// Two people, each with their own seat token.
    Online,
}

impl Mode {
    /// The stable name used in the API and the database.
    pub fn name(self) -> &'static str {
        match self {
            Mode::Computer => "computer",
            Mode::Local => "local",
            Mode::Online => "online",
        }
    }

    /// Parse a stored or requested name.
    pub fn parse(s: &str) -> Option<Mode> {
        match s {
            "computer" => Some(Mode::Computer),
            "local" | "friend" => Some(Mode::Local),
            "online" | "invite" => Some(Mode::Online),
            _ => None,
        }
    }
}

/// Where a game stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Status {
    /// An online game whose second seat is still free.
    Waiting,
    /// Moves are being made.
    Playing,
    /// The player to move has no move.
    Over,
}

impl Status {
    /// The stable name used in the API and the database.
    pub fn name(self) -> &'static str {
        match self {
            Status::Waiting => "waiting",
            Status::Playing => "playing",
            Status::Over => "over",
        }
    }

    /// Parse a stored name.
    pub fn parse(s: &str) -> Option<Status> {
        match s {
            "waiting" => Some(Status::Waiting),
            "playing" => Some(Status::Playing),
            "over" => Some(Status::Over),
            _ => None,
        }
    }
}

/// One game, as stored.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameRecord {
    /// Public id, used in links.
    pub id: String,
    /// The canonical game spec.
    pub spec: String,
    /// `normal` or `misere`.
    pub convention: String,
    /// How the game is played.
    pub mode: Mode,
    /// The computer's level, in computer games.
    pub level: Option<String>,
    /// The computer's seat, in computer games.
    pub computer_seat: Option<u8>,
    /// The start position, canonical text.
    pub start: String,
    /// The seat that moved first.
    pub first_seat: u8,
    /// The current position, canonical text.
    pub position: String,
    /// The seat to move.
    pub to_move: u8,
    /// Moves made so far.
    pub ply: u32,
    /// Waiting, playing or over.
    pub status: Status,
    /// The winning seat, once the game is over.
    pub winner: Option<u8>,
    /// Seat 0's token (also seat 1's in local games).
    pub token0: String,
    /// Seat 1's token, once an online seat is taken.
    pub token1: Option<String>,
    /// The invite code that hands out seat 1 (online games).
    pub invite: Option<String>,
    /// The computer's random state.
    pub rng: u64,
    /// The seat that resigned, if the game ended that way.
    pub resigned: Option<u8>,
    /// Online games: bit `s` is set while seat `s` agrees to show the
    /// analysis during play.
    pub analysis_votes: u8,
    /// Bit `s` is set once seat `s` has asked for a rematch.
    pub rematch_offers: u8,
    /// The rematch's game id, once it exists.
    pub rematch: Option<String>,
    /// Unix milliseconds.
    pub created_at: i64,
    /// Unix milliseconds.
    pub updated_at: i64,
    /// The row's revision: 0 when made, one more after each change. A
    /// write names the revision it was computed from.
    pub rev: u64,
}

/// One move, as stored.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MoveRecord {
    /// 1 for the first move of the game.
    pub ply: u32,
    /// The seat that moved.
    pub seat: u8,
    /// The move in the game's notation.
    pub notation: String,
    /// The move in words.
    pub text: String,
    /// The position before, canonical text.
    pub before: String,
    /// The position after, canonical text.
    pub after: String,
    /// Whether the computer made it.
    pub by_computer: bool,
    /// Whether the computer chose it at random, because the position was
    /// beyond what the server judges within its limits.
    pub random: bool,
    /// Unix milliseconds.
    pub created_at: i64,
}

/// A database problem (not the user's fault).
#[derive(Debug, Clone)]
pub struct DbError {
    /// What failed.
    pub message: String,
    /// Whether the database could not be reached (down, restarting, every
    /// connection busy): the request may succeed if retried shortly.
    pub unavailable: bool,
}

impl DbError {
    /// A failure of the database.
    pub fn new(message: impl Into<String>) -> DbError {
        DbError {
            message: message.into(),
            unavailable: false,
        }
    }

    /// The database cannot be reached now.
    pub fn unavailable(message: impl Into<String>) -> DbError {
        DbError {
            message: message.into(),
            unavailable: true,
        }
    }
}

impl fmt::Display for DbError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "database: {}", self.message)
    }
}

impl std::error::Error for DbError {}

/// Why a write was refused.
#[derive(Debug)]
pub enum WriteError {
    /// Someone else changed the game first (its revision moved on), or a
    /// new game's id is taken.
    Conflict,
    /// The database failed.
    Db(DbError),
}

impl From<DbError> for WriteError {
    fn from(e: DbError) -> WriteError {
        WriteError::Db(e)
    }
}

/// A change to a game made by another server, heard from the database.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Change {
    /// Game `id` is now at revision `rev`.
    Game {
        /// The game's id.
        id: String,
        /// Its revision after the change.
        rev: u64,
    },
    /// Changes may have been missed (the connection that listens was lost
    /// and made again): every watched game should be read again.
    Resync,
}

/// Where game records live: what `nimatron serve --db` names.
#[derive(Clone, PartialEq, Eq)]
pub enum Database {
    /// A SQLite file (created if missing).
    Sqlite(PathBuf),
    /// A PostgreSQL database, by its `postgres://` URL.
    Postgres(postgres::Target),
}

impl Database {
    /// `postgres://…` or `postgresql://…` names a PostgreSQL database;
    /// anything else is a SQLite file's path.
    pub fn parse(text: &str) -> Result<Database, String> {
        let t = text.trim();
        if t.is_empty() {
            return Err(
                "the database is empty: give a SQLite file's path or a postgres:// URL".into(),
            );
        }
        let lower = t.to_ascii_lowercase();
        if lower.starts_with("postgres://") || lower.starts_with("postgresql://") {
            return postgres::Target::parse(t).map(Database::Postgres);
        }
        if lower.contains("://") {
            return Err(format!(
                "'{t}' is a URL of a database Nimatron does not use: give a SQLite file's path or a postgres:// URL"
            ));
        }
        Ok(Database::Sqlite(PathBuf::from(text)))
    }
}

impl fmt::Display for Database {
    /// The file, or the URL without its password.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Database::Sqlite(p) => write!(f, "{}", p.display()),
            Database::Postgres(t) => t.fmt(f),
        }
    }
}

impl fmt::Debug for Database {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Database({self})")
    }
}

impl From<PathBuf> for Database {
    fn from(p: PathBuf) -> Database {
        Database::Sqlite(p)
    }
}

impl From<&std::path::Path> for Database {
    fn from(p: &std::path::Path) -> Database {
        Database::Sqlite(p.to_path_buf())
    }
}

impl From<&PathBuf> for Database {
    fn from(p: &PathBuf) -> Database {
        Database::Sqlite(p.clone())
    }
}

impl From<&str> for Database {
    /// A path or a URL, as [`Database::parse`] reads it; a URL that does
    /// not parse is kept as a path (and fails to open, naming it).
    fn from(s: &str) -> Database {
        Database::parse(s).unwrap_or_else(|_| Database::Sqlite(PathBuf::from(s)))
    }
}

/// The game records. Every method blocks (call it off the async threads);
/// writes are committed when they return.
pub trait Store: Send + Sync {
    /// What this store is, for messages: the file, or the server and
    /// database.
    fn describe(&self) -> String;

    /// One game, if it exists.
    fn game(&self, id: &str) -> Result<Option<GameRecord>, DbError>;

    /// Every move of a game, in order.
    fn moves(&self, id: &str) -> Result<Vec<MoveRecord>, DbError>;

    /// A game and its moves, read in one snapshot.
    fn game_with_moves(&self, id: &str) -> Result<Option<(GameRecord, Vec<MoveRecord>)>, DbError>;

    /// The newest games first.
    fn recent(&self, limit: u32, offset: u32) -> Result<Vec<GameRecord>, DbError>;

    /// The games with these ids (those that exist), newest first.
    fn with_ids(&self, ids: &[String]) -> Result<Vec<GameRecord>, DbError>;

    /// How many games are stored.
    fn count(&self) -> Result<u64, DbError>;

    /// Store a new game with the moves already made (the computer may move
    /// first), all or nothing; [`WriteError::Conflict`] if its id is taken.
    fn insert_game(&self, game: &GameRecord, moves: &[MoveRecord]) -> Result<(), WriteError>;

    /// Store `old`'s new state (it names its rematch) if its row is still
    /// at `old.rev`, and the rematch `game` with the moves already made,
    /// all or nothing. On success `old.rev` is the row's new revision.
    fn insert_rematch(
        &self,
        old: &mut GameRecord,
        game: &GameRecord,
        moves: &[MoveRecord],
    ) -> Result<(), WriteError>;

    /// Store the game's new state and its new moves, if its row is still at
    /// `game.rev`; all or nothing. On success `game.rev` is the row's new
    /// revision.
    fn advance(&self, game: &mut GameRecord, moves: &[MoveRecord]) -> Result<(), WriteError>;

    /// Take back the moves after ply `game.ply` and store the game's state
    /// there, if its row is still at `game.rev`; all or nothing. On success
    /// `game.rev` is the row's new revision.
    fn rewind(&self, game: &mut GameRecord) -> Result<(), WriteError>;

    /// Changes made by other servers, where the database can tell (on
    /// PostgreSQL, through `LISTEN`); `None` for a store that one server
    /// alone writes.
    fn subscribe(&self) -> Option<tokio::sync::broadcast::Receiver<Change>> {
        None
    }
}

/// Open (and check, and bring to the current schema) the database.
/// Nothing is served from it before this returns.
pub fn open(
    database: &Database,
    durability: Durability,
    connections: usize,
) -> Result<Arc<dyn Store>, DbError> {
    Ok(match database {
        Database::Sqlite(path) => Arc::new(sqlite::SqliteStore::open(path, durability)?),
        Database::Postgres(target) => Arc::new(postgres::PgStore::open(target, connections)?),
    })
}

/// What [`copy_games`] did.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct CopyReport {
    /// Games copied, with their moves.
    pub games: u64,
    /// Moves copied.
    pub moves: u64,
    /// Games the target already held (by id), left as they were.
    pub skipped: u64,
}

/// Copy every game and its moves from `from` to `to` (to move a site from
/// SQLite to PostgreSQL): each game in one write, a game whose id the
/// target already holds left alone, so that a copy that stopped can be run
/// again. `progress` hears the count after each game.
pub fn copy_games(
    from: &dyn Store,
    to: &dyn Store,
    mut progress: impl FnMut(&CopyReport),
) -> Result<CopyReport, DbError> {
    let mut report = CopyReport::default();
    let total = from.count()?;
    // Oldest first, by pages from the end of the newest-first list, so the
    // target's ids keep their order of creation.
    let page = 200u32;
    let mut seen = 0u64;
    while seen < total {
        let offset = total.saturating_sub(seen + page as u64);
        let limit = (total - seen - offset) as u32;
        let mut games = from.recent(limit, offset as u32)?;
        games.reverse();
        for game in &games {
            let Some((game, moves)) = from.game_with_moves(&game.id)? else {
                continue;
            };
            match to.insert_game(&game, &moves) {
                Ok(()) => {
                    report.games += 1;
                    report.moves += moves.len() as u64;
                }
                Err(WriteError::Conflict) => report.skipped += 1,
                Err(WriteError::Db(e)) => return Err(e),
            }
            progress(&report);
        }
        seen += limit as u64;
        if limit == 0 {
            break;
        }
    }
    Ok(report)
}
