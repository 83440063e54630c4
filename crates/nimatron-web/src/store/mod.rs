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
mod records;
pub mod sqlite;

pub use records::{Change, DbError, GameRecord, Mode, MoveRecord, Status, Store, WriteError};
pub use sqlite::Durability;

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
