//! Game records in SQLite, the embedded default: one file, one server.
//!
//! The database runs in WAL mode. Every accepted move is committed, in the
//! same transaction as the game row it changes, before the reply is sent.
//! A move's primary key is `(game_id, ply)` and the game row is updated only
//! if its revision is still the one the move was computed from, so a move
//! can never be stored twice or on top of a move it did not see.

use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::time::Duration;

use rusqlite::{Connection, OpenFlags, OptionalExtension, params};

use super::migrations::{self, Dialect};
use super::records::{DbError, GameRecord, Mode, MoveRecord, Status, Store, WriteError};

impl From<rusqlite::Error> for DbError {
    fn from(e: rusqlite::Error) -> DbError {
        DbError::new(e.to_string())
    }
}

impl From<rusqlite::Error> for WriteError {
    fn from(e: rusqlite::Error) -> WriteError {
        WriteError::Db(e.into())
    }
}

/// Columns added since the first release, with their tables and
/// declarations: a database made before them gains them when it is opened.
const ADDED_COLUMNS: &[(&str, &str, &str)] = &[
    ("games", "resigned", "INTEGER"),
    ("games", "analysis_votes", "INTEGER NOT NULL DEFAULT 0"),
    ("games", "rematch_offers", "INTEGER NOT NULL DEFAULT 0"),
    ("games", "rematch", "TEXT"),
    ("moves", "random", "INTEGER NOT NULL DEFAULT 0"),
];

/// Add the [`ADDED_COLUMNS`] that an older database lacks.
fn add_missing_columns(conn: &Connection) -> Result<(), DbError> {
    for (table, name, declaration) in ADDED_COLUMNS {
        let have: Vec<String> = {
            let mut stmt =
                conn.prepare(&format!("SELECT name FROM pragma_table_info('{table}')"))?;
            let rows = stmt.query_map([], |r| r.get(0))?;
            rows.collect::<rusqlite::Result<_>>()?
        };
        if !have.iter().any(|h| h == name) {
            conn.execute_batch(&format!(
                "ALTER TABLE {table} ADD COLUMN {name} {declaration}"
            ))?;
        }
    }
    Ok(())
}

/// How hard SQLite works to make a commit survive.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Durability {
    /// `synchronous=NORMAL`: a committed move survives the server being
    /// killed; a power cut may lose the last moments.
    #[default]
    Process,
    /// `synchronous=FULL`: every commit is synced to the disk.
    Disk,
}

/// The game store in SQLite: one writer connection, a few readers.
pub struct SqliteStore {
    path: PathBuf,
    writer: Mutex<Connection>,
    readers: Vec<Mutex<Connection>>,
    /// Held for its `Drop`, which stops the thread.
    _checkpointer: Checkpointer,
}

/// The thread that copies the write-ahead log into the database file.
/// SQLite would otherwise do it inside whichever commit crosses 1000 log
/// pages, with a sync of the file, and that move's reply would wait for it.
struct Checkpointer {
    stop: std::sync::mpsc::Sender<()>,
    thread: Option<std::thread::JoinHandle<()>>,
}

/// How often the checkpointer looks at the log.
const CHECKPOINT_EVERY: Duration = Duration::from_millis(200);

impl Checkpointer {
    fn start(conn: Connection) -> Checkpointer {
        let (stop, stopped) = std::sync::mpsc::channel::<()>();
        let thread = std::thread::Builder::new()
            .name("nimatron-checkpoint".into())
            .spawn(move || {
                while let Err(std::sync::mpsc::RecvTimeoutError::Timeout) =
                    stopped.recv_timeout(CHECKPOINT_EVERY)
                {
                    // PASSIVE: copy what no reader still needs, never wait
                    // for a writer or a reader. A failure is retried next
                    // time; the log keeps every commit meanwhile.
                    let _ = conn.query_row("PRAGMA wal_checkpoint(PASSIVE)", [], |_| Ok(()));
                }
            })
            .ok();
        Checkpointer { stop, thread }
    }
}

impl Drop for Checkpointer {
    fn drop(&mut self) {
        let _ = self.stop.send(());
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}

fn open(path: &Path, durability: Durability) -> Result<Connection, DbError> {
    let conn = Connection::open_with_flags(
        path,
        OpenFlags::SQLITE_OPEN_READ_WRITE
            | OpenFlags::SQLITE_OPEN_CREATE
            | OpenFlags::SQLITE_OPEN_NO_MUTEX,
    )?;
    conn.busy_timeout(Duration::from_secs(10))?;
    let mode: String = conn.query_row("PRAGMA journal_mode=WAL", [], |r| r.get(0))?;
    if !mode.eq_ignore_ascii_case("wal") {
        return Err(DbError::new(format!(
            "{} cannot use WAL mode (journal mode is {mode})",
            path.display()
        )));
    }
    let sync = match durability {
        Durability::Process => "NORMAL",
        Durability::Disk => "FULL",
    };
    conn.execute_batch(&format!(
        "PRAGMA synchronous={sync}; PRAGMA foreign_keys=ON;"
    ))?;
    Ok(conn)
}

fn seat(v: i64) -> u8 {
    if v == 0 { 0 } else { 1 }
}

fn game_from_row(r: &rusqlite::Row<'_>) -> rusqlite::Result<GameRecord> {
    let mode: String = r.get("mode")?;
    let status: String = r.get("status")?;
    let bad = |what: &str, v: &str| {
        rusqlite::Error::FromSqlConversionFailure(
            0,
            rusqlite::types::Type::Text,
            format!("bad {what} '{v}' in the games table").into(),
        )
    };
    Ok(GameRecord {
        id: r.get("id")?,
        spec: r.get("spec")?,
        convention: r.get("convention")?,
        mode: Mode::parse(&mode).ok_or_else(|| bad("mode", &mode))?,
        level: r.get("level")?,
        computer_seat: r.get::<_, Option<i64>>("computer_seat")?.map(seat),
        start: r.get("start")?,
        first_seat: seat(r.get("first_seat")?),
        position: r.get("position")?,
        to_move: seat(r.get("to_move")?),
        ply: r.get("ply")?,
        rev: r.get::<_, i64>("rev")? as u64,
        status: Status::parse(&status).ok_or_else(|| bad("status", &status))?,
        winner: r.get::<_, Option<i64>>("winner")?.map(seat),
        token0: r.get("token0")?,
        token1: r.get("token1")?,
        invite: r.get("invite")?,
        rng: r.get::<_, i64>("rng")? as u64,
        resigned: r.get::<_, Option<i64>>("resigned")?.map(seat),
        analysis_votes: (r.get::<_, i64>("analysis_votes")? & 3) as u8,
        rematch_offers: (r.get::<_, i64>("rematch_offers")? & 3) as u8,
        rematch: r.get("rematch")?,
        created_at: r.get("created_at")?,
        updated_at: r.get("updated_at")?,
    })
}

fn move_from_row(r: &rusqlite::Row<'_>) -> rusqlite::Result<MoveRecord> {
    Ok(MoveRecord {
        ply: r.get("ply")?,
        seat: seat(r.get("seat")?),
        notation: r.get("notation")?,
        text: r.get("text")?,
        before: r.get("before")?,
        after: r.get("after")?,
        by_computer: r.get::<_, i64>("by_computer")? != 0,
        random: r.get::<_, i64>("random")? != 0,
        created_at: r.get("created_at")?,
    })
}

fn insert_moves(
    tx: &rusqlite::Transaction<'_>,
    id: &str,
    moves: &[MoveRecord],
) -> rusqlite::Result<()> {
    let mut stmt = tx.prepare_cached(
        "INSERT INTO moves (game_id, ply, seat, notation, text, before, after, by_computer, random, created_at)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10)",
    )?;
    for m in moves {
        stmt.execute(params![
            id,
            m.ply,
            m.seat,
            m.notation,
            m.text,
            m.before,
            m.after,
            m.by_computer as i64,
            m.random as i64,
            m.created_at
        ])?;
    }
    Ok(())
}

/// Make the database file if there is none, readable by its owner alone
/// (it holds the seat tokens); refuse an existing file that is empty.
fn prepare_file(path: &Path) -> Result<(), DbError> {
    let shown = path.display();
    match std::fs::metadata(path) {
        Ok(meta) if meta.is_dir() => Err(DbError::new(format!(
            "{shown} is a directory, not a database file"
        ))),
        Ok(meta) if meta.len() == 0 => Err(DbError::new(format!(
            "{shown} is empty (0 bytes): it is not a Nimatron database, and nothing was changed; \
             remove it to start a new database there, or give another --db"
        ))),
        Ok(meta) => {
            #[cfg(unix)]
            {
                use std::os::unix::fs::PermissionsExt;
                let mode = meta.permissions().mode();
                if mode & 0o077 != 0 {
                    eprintln!(
                        "warning: {shown} can be read by other users (mode {:o}) and holds the seat tokens; \
                         consider 'chmod 600 {shown}'",
                        mode & 0o777
                    );
                }
            }
            let _ = meta;
            Ok(())
        }
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            let mut options = std::fs::OpenOptions::new();
            options.write(true).create_new(true);
            #[cfg(unix)]
            {
                use std::os::unix::fs::OpenOptionsExt;
                options.mode(0o600);
            }
            match options.open(path) {
                Ok(_) => Ok(()),
                // Made by another process in between: check it as found.
                Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => Ok(()),
                Err(e) => Err(DbError::new(format!("cannot create {shown}: {e}"))),
            }
        }
        Err(e) => Err(DbError::new(format!("cannot read {shown}: {e}"))),
    }
}

/// Check an opened database before anything is served from it: SQLite's
/// quick check of its structure, and that it is Nimatron's (an empty
/// database, or one with the `games` table).
fn check_database(conn: &Connection, path: &Path) -> Result<(), DbError> {
    let shown = path.display();
    let problems: Vec<String> = {
        let mut stmt = conn
            .prepare("PRAGMA quick_check(10)")
            .map_err(|e| DbError::new(format!("{shown} cannot be checked: {e}")))?;
        let rows = stmt
            .query_map([], |r| r.get::<_, String>(0))
            .map_err(|e| DbError::new(format!("{shown} cannot be checked: {e}")))?;
        rows.collect::<rusqlite::Result<_>>()
            .map_err(|e| DbError::new(format!("{shown} cannot be checked: {e}")))?
    };
    if problems.len() != 1 || problems[0] != "ok" {
        return Err(DbError::new(format!(
            "{shown} is damaged (SQLite's quick check: {}); nothing was changed: restore it from a \
             backup, or give another --db",
            problems.join("; ")
        )));
    }
    let tables: Vec<String> = {
        let mut stmt = conn.prepare("SELECT name FROM sqlite_schema WHERE type = 'table'")?;
        let rows = stmt.query_map([], |r| r.get(0))?;
        rows.collect::<rusqlite::Result<_>>()?
    };
    if !tables.is_empty() && !tables.iter().any(|t| t == "games") {
        return Err(DbError::new(format!(
            "{shown} is a SQLite database of something else (its tables: {}), not Nimatron's; \
             nothing was changed: give another --db",
            tables.join(", ")
        )));
    }
    Ok(())
}

/// Bring the database to the current schema: the migrations it lacks, in
/// one transaction. A database of a newer schema than this build knows is
/// refused, unchanged.
fn migrate(conn: &mut Connection, path: &Path) -> Result<(), DbError> {
    let tx = conn.transaction_with_behavior(rusqlite::TransactionBehavior::Immediate)?;
    tx.execute_batch(migrations::SCHEMA_TABLE)?;
    let applied: Vec<i64> = {
        let mut stmt = tx.prepare("SELECT version FROM nimatron_schema")?;
        let rows = stmt.query_map([], |r| r.get(0))?;
        rows.collect::<rusqlite::Result<_>>()?
    };
    if let Some(newest) = applied.iter().max()
        && *newest > migrations::latest()
    {
        return Err(DbError::new(format!(
            "{} has schema version {newest}, newer than this build of Nimatron knows ({}): \
             nothing was changed; use a newer nimatron",
            path.display(),
            migrations::latest()
        )));
    }
    for m in migrations::MIGRATIONS {
        if applied.contains(&m.version) {
            continue;
        }
        tx.execute_batch(&m.sql(Dialect::Sqlite))?;
        if m.version == 1 {
            add_missing_columns(&tx)?;
        }
        tx.execute(
            "INSERT INTO nimatron_schema (version, name, applied_at) VALUES (?1, ?2, ?3)",
            params![m.version, m.name, crate::clock::now_ms()],
        )?;
    }
    tx.commit()?;
    Ok(())
}

impl SqliteStore {
    /// Open (or create, readable by its owner alone) the database at
    /// `path`, after checking it: an empty, damaged or foreign file is
    /// reported, never replaced.
    pub fn open(path: &Path, durability: Durability) -> Result<SqliteStore, DbError> {
        prepare_file(path)?;
        let mut writer = open(path, durability).map_err(|e| {
            DbError::new(format!(
                "{} cannot be opened as a database ({}); nothing was changed",
                path.display(),
                e.message
            ))
        })?;
        check_database(&writer, path)?;
        migrate(&mut writer, path)?;
        // Checkpoints run on their own thread, not inside a commit.
        writer.execute_batch("PRAGMA wal_autocheckpoint=0")?;
        let checkpointer = Checkpointer::start(open(path, durability)?);
        let readers = (0..4)
            .map(|_| open(path, durability).map(Mutex::new))
            .collect::<Result<Vec<_>, _>>()?;
        Ok(SqliteStore {
            path: path.to_path_buf(),
            writer: Mutex::new(writer),
            readers,
            _checkpointer: checkpointer,
        })
    }

    fn read<T>(&self, f: impl FnOnce(&Connection) -> rusqlite::Result<T>) -> Result<T, DbError> {
        // Any free reader will do; wait on the first if all are busy.
        for r in &self.readers {
            if let Ok(conn) = r.try_lock() {
                return Ok(f(&conn)?);
            }
        }
        let conn = self.readers[0].lock().unwrap_or_else(|e| e.into_inner());
        Ok(f(&conn)?)
    }

    fn write<T>(
        &self,
        f: impl FnOnce(&rusqlite::Transaction<'_>) -> Result<T, WriteError>,
    ) -> Result<T, WriteError> {
        let mut conn = self.writer.lock().unwrap_or_else(|e| e.into_inner());
        let tx = conn.transaction()?;
        let out = f(&tx)?;
        tx.commit()?;
        Ok(out)
    }
}

impl Store for SqliteStore {
    fn describe(&self) -> String {
        format!("SQLite file {}", self.path.display())
    }

    fn game(&self, id: &str) -> Result<Option<GameRecord>, DbError> {
        self.read(|c| {
            c.prepare_cached("SELECT * FROM games WHERE id = ?1")?
                .query_row([id], game_from_row)
                .optional()
        })
    }

    fn moves(&self, id: &str) -> Result<Vec<MoveRecord>, DbError> {
        self.read(|c| {
            let mut stmt =
                c.prepare_cached("SELECT * FROM moves WHERE game_id = ?1 ORDER BY ply")?;
            let rows = stmt.query_map([id], move_from_row)?;
            rows.collect()
        })
    }

    fn game_with_moves(&self, id: &str) -> Result<Option<(GameRecord, Vec<MoveRecord>)>, DbError> {
        self.read(|c| {
            let tx = c.unchecked_transaction()?;
            let game = tx
                .prepare_cached("SELECT * FROM games WHERE id = ?1")?
                .query_row([id], game_from_row)
                .optional()?;
            let Some(game) = game else {
                return Ok(None);
            };
            let moves = {
                let mut stmt =
                    tx.prepare_cached("SELECT * FROM moves WHERE game_id = ?1 ORDER BY ply")?;
                let rows = stmt.query_map([id], move_from_row)?;
                rows.collect::<rusqlite::Result<Vec<_>>>()?
            };
            tx.commit()?;
            Ok(Some((game, moves)))
        })
    }

    fn recent(&self, limit: u32, offset: u32) -> Result<Vec<GameRecord>, DbError> {
        self.read(|c| {
            let mut stmt = c.prepare_cached(
                "SELECT * FROM games ORDER BY created_at DESC, id LIMIT ?1 OFFSET ?2",
            )?;
            let rows = stmt.query_map([limit, offset], game_from_row)?;
            rows.collect()
        })
    }

    fn with_ids(&self, ids: &[String]) -> Result<Vec<GameRecord>, DbError> {
        if ids.is_empty() {
            return Ok(Vec::new());
        }
        let marks = vec!["?"; ids.len()].join(",");
        self.read(|c| {
            let mut stmt = c.prepare(&format!(
                "SELECT * FROM games WHERE id IN ({marks}) ORDER BY created_at DESC, id"
            ))?;
            let rows = stmt.query_map(rusqlite::params_from_iter(ids), game_from_row)?;
            rows.collect()
        })
    }

    fn count(&self) -> Result<u64, DbError> {
        self.read(|c| c.query_row("SELECT COUNT(*) FROM games", [], |r| r.get::<_, i64>(0)))
            .map(|n| n as u64)
    }

    fn insert_game(&self, game: &GameRecord, moves: &[MoveRecord]) -> Result<(), WriteError> {
        self.write(|tx| {
            insert_game(tx, game)?;
            insert_moves(tx, &game.id, moves)?;
            Ok(())
        })
    }

    fn insert_rematch(
        &self,
        old: &mut GameRecord,
        game: &GameRecord,
        moves: &[MoveRecord],
    ) -> Result<(), WriteError> {
        self.write(|tx| {
            update_game(tx, old)?;
            insert_game(tx, game)?;
            insert_moves(tx, &game.id, moves)?;
            Ok(())
        })?;
        old.rev += 1;
        Ok(())
    }

    fn advance(&self, game: &mut GameRecord, moves: &[MoveRecord]) -> Result<(), WriteError> {
        self.write(|tx| {
            update_game(tx, game)?;
            insert_moves(tx, &game.id, moves)?;
            Ok(())
        })?;
        game.rev += 1;
        Ok(())
    }

    fn rewind(&self, game: &mut GameRecord) -> Result<(), WriteError> {
        self.write(|tx| {
            update_game(tx, game)?;
            tx.prepare_cached("DELETE FROM moves WHERE game_id = ?1 AND ply > ?2")?
                .execute(params![game.id, game.ply])?;
            Ok(())
        })?;
        game.rev += 1;
        Ok(())
    }
}

fn insert_game(tx: &rusqlite::Transaction<'_>, game: &GameRecord) -> Result<(), WriteError> {
    let inserted = tx
        .prepare_cached(
            "INSERT INTO games (id, spec, convention, mode, level, computer_seat, start, first_seat,
            position, to_move, ply, status, winner, token0, token1, invite, rng, created_at, updated_at,
            resigned, analysis_votes, rematch_offers, rematch, rev)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17, ?18, ?19,
            ?20, ?21, ?22, ?23, ?24)
         ON CONFLICT (id) DO NOTHING",
        )?
        .execute(params![
            game.id,
            game.spec,
            game.convention,
            game.mode.name(),
            game.level,
            game.computer_seat,
            game.start,
            game.first_seat,
            game.position,
            game.to_move,
            game.ply,
            game.status.name(),
            game.winner,
            game.token0,
            game.token1,
            game.invite,
            game.rng as i64,
            game.created_at,
            game.updated_at,
            game.resigned,
            game.analysis_votes,
            game.rematch_offers,
            game.rematch,
            game.rev as i64
        ])?;
    if inserted != 1 {
        return Err(WriteError::Conflict);
    }
    Ok(())
}

/// Store the game row's changeable fields and its next revision, if the
/// row is still at `game.rev`; [`WriteError::Conflict`] if it moved on.
fn update_game(tx: &rusqlite::Transaction<'_>, game: &GameRecord) -> Result<(), WriteError> {
    let changed = tx
        .prepare_cached(
            "UPDATE games SET position = ?1, to_move = ?2, ply = ?3, status = ?4, winner = ?5,
                token1 = ?6, rng = ?7, updated_at = ?8, resigned = ?9, analysis_votes = ?10,
                rematch_offers = ?11, rematch = ?12, rev = rev + 1
             WHERE id = ?13 AND rev = ?14",
        )?
        .execute(params![
            game.position,
            game.to_move,
            game.ply,
            game.status.name(),
            game.winner,
            game.token1,
            game.rng as i64,
            game.updated_at,
            game.resigned,
            game.analysis_votes,
            game.rematch_offers,
            game.rematch,
            game.id,
            game.rev as i64
        ])?;
    if changed != 1 {
        return Err(WriteError::Conflict);
    }
    Ok(())
}
