//! What the stores hold and do: a game and its moves as stored, the
//! errors of a write, the changes other servers make, and the [`Store`]
//! trait that both backends implement.

use std::fmt;

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
