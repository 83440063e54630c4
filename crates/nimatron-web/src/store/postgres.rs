//! Game records in PostgreSQL, for several app servers sharing one database.
//!
//! - **Connections.** A `deadpool-postgres` pool over `tokio-postgres`,
//!   driven by a small runtime of the store's own, so that the store's
//!   methods block like SQLite's and the engine above them stays the same.
//!   Every statement has a time limit (`statement_timeout`), every wait for
//!   a connection too; a database that cannot be reached makes requests
//!   fail with `503` and `Retry-After`, not hang.
//! - **One statement per write.** A move is one statement: the game row's
//!   update (only if its revision is still the one the move was computed
//!   from), the moves' insert and the `pg_notify` that tells the other
//!   servers, in data-modifying `WITH` clauses that commit together or not
//!   at all. Under PostgreSQL's row lock, two servers that race to store
//!   move N on the same revision cannot both succeed: the second finds the
//!   row at the next revision and stores nothing.
//! - **Live updates.** Each server listens on its own connection (`LISTEN
//!   nimatron_games`); a notification names the game, its new revision and
//!   the server that wrote it. When that connection is lost (PostgreSQL
//!   restarting, say), it is made again and every watched game is read
//!   afresh ([`Change::Resync`]).

use std::fmt;
use std::future::Future;
use std::str::FromStr;
use std::time::Duration;

use deadpool_postgres::{Manager, ManagerConfig, Pool, PoolError, RecyclingMethod, Runtime};
use tokio::sync::{broadcast, watch};
use tokio_postgres::config::{Host, SslMode};
use tokio_postgres::{AsyncMessage, NoTls, Row};

use super::migrations::{self, Dialect};
use super::records::{Change, DbError, GameRecord, Mode, MoveRecord, Status, Store, WriteError};

/// The channel of game changes.
const CHANNEL: &str = "nimatron_games";

/// How long a request waits for a free connection, or for a new one.
const POOL_WAIT: Duration = Duration::from_secs(5);

/// The longest one statement may run.
const STATEMENT_TIMEOUT_MS: u64 = 15_000;

/// A PostgreSQL database named by a `postgres://` URL.
#[derive(Clone)]
pub struct Target {
    url: String,
    config: Box<tokio_postgres::Config>,
}

impl PartialEq for Target {
    fn eq(&self, other: &Target) -> bool {
        self.url == other.url
    }
}

impl Eq for Target {}

impl Target {
    /// Parse `postgres://USER[:PASSWORD]@HOST[:PORT]/DB[?…]` (libpq's URL
    /// form; `?host=/run/postgresql` for a Unix socket).
    pub fn parse(url: &str) -> Result<Target, String> {
        let config = tokio_postgres::Config::from_str(url).map_err(|e| {
            format!(
                "'{}' is not a PostgreSQL URL that Nimatron can use ({e}); the form is \
                 postgres://USER@HOST:PORT/DATABASE",
                redact(url)
            )
        })?;
        if config.get_hosts().is_empty() {
            return Err(format!(
                "'{}' names no host: give one, e.g. postgres://USER@127.0.0.1:5432/DATABASE, \
                 or ?host=/run/postgresql for a Unix socket",
                redact(url)
            ));
        }
        if config.get_dbname().is_none() {
            return Err(format!(
                "'{}' names no database: end it with /DATABASE",
                redact(url)
            ));
        }
        if config.get_ssl_mode() == SslMode::Require {
            return Err(format!(
                "'{}' asks for TLS (sslmode=require), which this build of Nimatron does not \
                 speak: connect over a Unix socket or a private network with sslmode=disable",
                redact(url)
            ));
        }
        Ok(Target {
            url: url.to_string(),
            config: Box::new(config),
        })
    }

    /// The server(s) and database, for messages: `host:port/db as user`.
    pub fn describe(&self) -> String {
        let ports = self.config.get_ports();
        let hosts: Vec<String> = self
            .config
            .get_hosts()
            .iter()
            .enumerate()
            .map(|(i, h)| {
                let port = ports
                    .get(i)
                    .or_else(|| ports.first())
                    .copied()
                    .unwrap_or(5432);
                match h {
                    Host::Tcp(name) => format!("{name}:{port}"),
                    #[cfg(unix)]
                    Host::Unix(dir) => format!("{} (socket, port {port})", dir.display()),
                }
            })
            .collect();
        format!(
            "PostgreSQL at {}, database '{}'{}",
            hosts.join(", "),
            self.config.get_dbname().unwrap_or_default(),
            self.config
                .get_user()
                .map(|u| format!(" as user '{u}'"))
                .unwrap_or_default()
        )
    }

    /// The connection settings, with Nimatron's defaults where the URL
    /// names none: a connect timeout, a statement timeout, keepalives.
    fn settings(&self) -> tokio_postgres::Config {
        let mut config = (*self.config).clone();
        if config.get_connect_timeout().is_none() {
            config.connect_timeout(Duration::from_secs(5));
        }
        let mut options = config.get_options().unwrap_or_default().to_string();
        if !options.contains("statement_timeout") {
            options.push_str(&format!(" -c statement_timeout={STATEMENT_TIMEOUT_MS}"));
        }
        config.options(options.trim());
        if config.get_application_name().is_none() {
            config.application_name("nimatron");
        }
        config.keepalives_idle(Duration::from_secs(30));
        config
    }
}

impl fmt::Display for Target {
    /// The URL without its password.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&redact(&self.url))
    }
}

/// A URL with its password (if any) replaced by `***`.
fn redact(url: &str) -> String {
    let Some(scheme_end) = url.find("://") else {
        return url.to_string();
    };
    let rest = &url[scheme_end + 3..];
    let authority_end = rest.find(['/', '?']).unwrap_or(rest.len());
    let authority = &rest[..authority_end];
    let Some(at) = authority.rfind('@') else {
        return url.to_string();
    };
    let userinfo = &authority[..at];
    match userinfo.find(':') {
        Some(colon) => format!(
            "{}{}:***{}",
            &url[..scheme_end + 3],
            &userinfo[..colon],
            &rest[at..]
        ),
        None => url.to_string(),
    }
}

/// A database error, in words, marked unavailable when it is the
/// connection's (or the server's shutting down) rather than the statement's.
fn pg_error(what: &str, e: &tokio_postgres::Error) -> DbError {
    if let Some(db) = e.as_db_error() {
        let code = db.code().code();
        // Class 08: connection exceptions; 57P0x: the server is shutting
        // down or starting; 53300: too many connections.
        let unavailable = code.starts_with("08") || code.starts_with("57P") || code == "53300";
        let message = format!("{what}: {} {} ({code})", db.severity(), db.message());
        return DbError {
            message,
            unavailable,
        };
    }
    // No reply from the server: the connection failed or was closed.
    let mut message = format!("{what}: {e}");
    let mut source = std::error::Error::source(e);
    while let Some(s) = source {
        let text = s.to_string();
        if !message.contains(&text) {
            message.push_str(&format!(": {text}"));
        }
        source = s.source();
    }
    DbError::unavailable(message)
}

fn pool_error(what: &str, e: PoolError) -> DbError {
    match e {
        PoolError::Backend(e) => pg_error(what, &e),
        PoolError::Timeout(_) => DbError::unavailable(format!(
            "{what}: no database connection free or made within {} s",
            POOL_WAIT.as_secs()
        )),
        other => DbError::unavailable(format!("{what}: {other}")),
    }
}

/// The game store in PostgreSQL.
pub struct PgStore {
    target: Target,
    runtime: Option<tokio::runtime::Runtime>,
    handle: tokio::runtime::Handle,
    pool: Pool,
    /// This server's name in notifications: its own are not read back.
    instance: String,
    changes: broadcast::Sender<Change>,
    stop: watch::Sender<bool>,
}

impl Drop for PgStore {
    fn drop(&mut self) {
        let _ = self.stop.send(true);
        self.pool.close();
        if let Some(rt) = self.runtime.take() {
            // Never blocks, so it is safe inside another runtime too.
            rt.shutdown_background();
        }
    }
}

/// The game columns, in the order [`game_from_row`] reads.
const GAME_COLUMNS: &str = "id, spec, convention, mode, level, computer_seat, start, first_seat, \
    position, to_move, ply, status, winner, token0, token1, invite, rng, created_at, updated_at, \
    resigned, analysis_votes, rematch_offers, rematch, rev";

const MOVE_COLUMNS: &str =
    "ply, seat, notation, text, before, after, by_computer, random, created_at";

fn seat(v: i64) -> u8 {
    if v == 0 { 0 } else { 1 }
}

fn bad(what: &str, v: &str) -> DbError {
    DbError::new(format!("bad {what} '{v}' in the games table"))
}

fn game_from_row(r: &Row) -> Result<GameRecord, DbError> {
    let get = |e: tokio_postgres::Error| pg_error("reading a game", &e);
    let mode: String = r.try_get("mode").map_err(get)?;
    let status: String = r.try_get("status").map_err(get)?;
    Ok(GameRecord {
        id: r.try_get("id").map_err(get)?,
        spec: r.try_get("spec").map_err(get)?,
        convention: r.try_get("convention").map_err(get)?,
        mode: Mode::parse(&mode).ok_or_else(|| bad("mode", &mode))?,
        level: r.try_get("level").map_err(get)?,
        computer_seat: r
            .try_get::<_, Option<i64>>("computer_seat")
            .map_err(get)?
            .map(seat),
        start: r.try_get("start").map_err(get)?,
        first_seat: seat(r.try_get("first_seat").map_err(get)?),
        position: r.try_get("position").map_err(get)?,
        to_move: seat(r.try_get("to_move").map_err(get)?),
        ply: r
            .try_get::<_, i64>("ply")
            .map_err(get)?
            .clamp(0, u32::MAX as i64) as u32,
        status: Status::parse(&status).ok_or_else(|| bad("status", &status))?,
        winner: r
            .try_get::<_, Option<i64>>("winner")
            .map_err(get)?
            .map(seat),
        token0: r.try_get("token0").map_err(get)?,
        token1: r.try_get("token1").map_err(get)?,
        invite: r.try_get("invite").map_err(get)?,
        rng: r.try_get::<_, i64>("rng").map_err(get)? as u64,
        resigned: r
            .try_get::<_, Option<i64>>("resigned")
            .map_err(get)?
            .map(seat),
        analysis_votes: (r.try_get::<_, i64>("analysis_votes").map_err(get)? & 3) as u8,
        rematch_offers: (r.try_get::<_, i64>("rematch_offers").map_err(get)? & 3) as u8,
        rematch: r.try_get("rematch").map_err(get)?,
        created_at: r.try_get("created_at").map_err(get)?,
        updated_at: r.try_get("updated_at").map_err(get)?,
        rev: r.try_get::<_, i64>("rev").map_err(get)? as u64,
    })
}

/// A move from columns named with `prefix` (`m_` in the joined read).
fn move_from_row(r: &Row, prefix: &str) -> Result<MoveRecord, DbError> {
    let get = |e: tokio_postgres::Error| pg_error("reading a move", &e);
    let col = |name: &str| format!("{prefix}{name}");
    Ok(MoveRecord {
        ply: r
            .try_get::<_, i64>(col("ply").as_str())
            .map_err(get)?
            .clamp(0, u32::MAX as i64) as u32,
        seat: seat(r.try_get(col("seat").as_str()).map_err(get)?),
        notation: r.try_get(col("notation").as_str()).map_err(get)?,
        text: r.try_get(col("text").as_str()).map_err(get)?,
        before: r.try_get(col("before").as_str()).map_err(get)?,
        after: r.try_get(col("after").as_str()).map_err(get)?,
        by_computer: r
            .try_get::<_, i64>(col("by_computer").as_str())
            .map_err(get)?
            != 0,
        random: r.try_get::<_, i64>(col("random").as_str()).map_err(get)? != 0,
        created_at: r.try_get(col("created_at").as_str()).map_err(get)?,
    })
}

/// A game's columns as statement parameters, in [`GAME_COLUMNS`] order.
struct GameParams {
    id: String,
    spec: String,
    convention: String,
    mode: &'static str,
    level: Option<String>,
    computer_seat: Option<i64>,
    start: String,
    first_seat: i64,
    position: String,
    to_move: i64,
    ply: i64,
    status: &'static str,
    winner: Option<i64>,
    token0: String,
    token1: Option<String>,
    invite: Option<String>,
    rng: i64,
    created_at: i64,
    updated_at: i64,
    resigned: Option<i64>,
    analysis_votes: i64,
    rematch_offers: i64,
    rematch: Option<String>,
    rev: i64,
}

impl From<&GameRecord> for GameParams {
    fn from(g: &GameRecord) -> GameParams {
        GameParams {
            id: g.id.clone(),
            spec: g.spec.clone(),
            convention: g.convention.clone(),
            mode: g.mode.name(),
            level: g.level.clone(),
            computer_seat: g.computer_seat.map(i64::from),
            start: g.start.clone(),
            first_seat: g.first_seat.into(),
            position: g.position.clone(),
            to_move: g.to_move.into(),
            ply: g.ply.into(),
            status: g.status.name(),
            winner: g.winner.map(i64::from),
            token0: g.token0.clone(),
            token1: g.token1.clone(),
            invite: g.invite.clone(),
            rng: g.rng as i64,
            created_at: g.created_at,
            updated_at: g.updated_at,
            resigned: g.resigned.map(i64::from),
            analysis_votes: g.analysis_votes.into(),
            rematch_offers: g.rematch_offers.into(),
            rematch: g.rematch.clone(),
            rev: g.rev as i64,
        }
    }
}

/// Moves as column arrays, for `unnest`.
#[derive(Default)]
struct MoveArrays {
    ply: Vec<i64>,
    seat: Vec<i64>,
    notation: Vec<String>,
    text: Vec<String>,
    before: Vec<String>,
    after: Vec<String>,
    by_computer: Vec<i64>,
    random: Vec<i64>,
    created_at: Vec<i64>,
}

impl From<&[MoveRecord]> for MoveArrays {
    fn from(moves: &[MoveRecord]) -> MoveArrays {
        let mut a = MoveArrays::default();
        for m in moves {
            a.ply.push(m.ply.into());
            a.seat.push(m.seat.into());
            a.notation.push(m.notation.clone());
            a.text.push(m.text.clone());
            a.before.push(m.before.clone());
            a.after.push(m.after.clone());
            a.by_computer.push(m.by_computer.into());
            a.random.push(m.random.into());
            a.created_at.push(m.created_at);
        }
        a
    }
}

/// The moves' insert, for game `g`'s id, from arrays `$first…$first+8`.
fn insert_moves_clause(first: usize) -> String {
    let p = |i: usize| format!("${}", first + i);
    format!(
        "INSERT INTO moves (game_id, {MOVE_COLUMNS}) \
         SELECT g.id, x.* FROM g, unnest({}::bigint[], {}::bigint[], {}::text[], {}::text[], \
         {}::text[], {}::text[], {}::bigint[], {}::bigint[], {}::bigint[]) AS x \
         RETURNING 1",
        p(0),
        p(1),
        p(2),
        p(3),
        p(4),
        p(5),
        p(6),
        p(7),
        p(8)
    )
}

/// The game row's update to its next revision, if still at `$14`: the
/// changeable fields `$2…$13`, the id `$1`.
const UPDATE_GAME: &str = "UPDATE games SET position = $2, to_move = $3, ply = $4, status = $5, \
    winner = $6, token1 = $7, rng = $8, updated_at = $9, resigned = $10, analysis_votes = $11, \
    rematch_offers = $12, rematch = $13, rev = rev + 1 WHERE id = $1 AND rev = $14 \
    RETURNING id, rev";

/// The notification of game `g`'s new revision, from server `$n`.
fn notify_clause(instance_param: usize) -> String {
    format!(
        "SELECT pg_notify('{CHANNEL}', ${instance_param}::text || ' ' || g.id || ' ' || g.rev) FROM g"
    )
}

impl PgStore {
    /// Connect, check, bring the schema up to date and start listening for
    /// other servers' changes; an unreachable server, a wrong password or a
    /// missing database is an error naming the server and what failed.
    pub fn open(target: &Target, connections: usize) -> Result<PgStore, DbError> {
        let where_ = target.describe();
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(2)
            .thread_name("nimatron-postgres")
            .enable_all()
            .build()
            .map_err(|e| DbError::new(format!("cannot start the PostgreSQL client: {e}")))?;
        let handle = runtime.handle().clone();
        let settings = target.settings();
        let manager = Manager::from_config(
            settings.clone(),
            NoTls,
            ManagerConfig {
                recycling_method: RecyclingMethod::Fast,
            },
        );
        let pool = Pool::builder(manager)
            .max_size(connections.max(1))
            .wait_timeout(Some(POOL_WAIT))
            .create_timeout(Some(POOL_WAIT))
            .recycle_timeout(Some(POOL_WAIT))
            .runtime(Runtime::Tokio1)
            .build()
            .map_err(|e| DbError::new(format!("cannot make a connection pool: {e}")))?;
        let (changes, _) = broadcast::channel(1024);
        let (stop, stopped) = watch::channel(false);
        let store = PgStore {
            target: target.clone(),
            runtime: Some(runtime),
            handle,
            pool,
            instance: format!("{:016x}", crate::token::random_u64()),
            changes,
            stop,
        };
        // The first connection: what fails here fails the start.
        let pool = store.pool.clone();
        let describe = where_.clone();
        store
            .run(async move {
                let client = pool.get().await.map_err(|e| {
                    let e = pool_error(&format!("cannot connect to {describe}"), e);
                    DbError::new(e.message)
                })?;
                migrate(&client, &describe).await
            })
            .map_err(|e| DbError::new(e.message))?;
        // The listener's connection: its first attempt fails the start too.
        let (ready_tx, ready_rx) = std::sync::mpsc::sync_channel(1);
        let listener = listen(
            settings,
            store.instance.clone(),
            store.changes.clone(),
            stopped,
            ready_tx,
        );
        store.handle.spawn(listener);
        match ready_rx.recv_timeout(POOL_WAIT * 2) {
            Ok(Ok(())) => {}
            Ok(Err(e)) => {
                return Err(DbError::new(format!(
                    "cannot listen for changes on {where_}: {}",
                    e.message
                )));
            }
            Err(_) => {
                return Err(DbError::new(format!(
                    "cannot listen for changes on {where_}: no answer within {} s",
                    (POOL_WAIT * 2).as_secs()
                )));
            }
        }
        Ok(store)
    }

    /// Run `fut` on the store's runtime and wait for it.
    fn run<T: Send + 'static>(
        &self,
        fut: impl Future<Output = Result<T, DbError>> + Send + 'static,
    ) -> Result<T, DbError> {
        let (tx, rx) = std::sync::mpsc::sync_channel(1);
        self.handle.spawn(async move {
            let _ = tx.send(fut.await);
        });
        rx.recv()
            .unwrap_or_else(|_| Err(DbError::unavailable("the PostgreSQL client has stopped")))
    }

    /// A game's update, the moves' insert and the notification, in one
    /// statement; `Conflict` if the row had moved on.
    fn write_update(
        &self,
        game: &mut GameRecord,
        moves: &[MoveRecord],
        rewind: bool,
    ) -> Result<(), WriteError> {
        let pool = self.pool.clone();
        let g = GameParams::from(&*game);
        let m = MoveArrays::from(moves);
        let instance = self.instance.clone();
        let expected = moves.len() as i64;
        let new_rev = self.run(async move {
            let client = pool
                .get()
                .await
                .map_err(|e| pool_error("storing a game", e))?;
            let second = if rewind {
                "DELETE FROM moves WHERE game_id IN (SELECT id FROM g) AND ply > $4 RETURNING 1"
                    .to_string()
            } else {
                insert_moves_clause(15)
            };
            let instance_param = if rewind { 15 } else { 24 };
            let sql = format!(
                "WITH g AS ({UPDATE_GAME}), m AS ({second}), n AS ({}) \
                 SELECT (SELECT count(*) FROM g), (SELECT count(*) FROM m), \
                 (SELECT count(*) FROM n), (SELECT max(rev) FROM g)",
                notify_clause(instance_param)
            );
            let stmt = client
                .prepare_cached(&sql)
                .await
                .map_err(|e| pg_error("storing a game", &e))?;
            let head: [&(dyn tokio_postgres::types::ToSql + Sync); 14] = [
                &g.id,
                &g.position,
                &g.to_move,
                &g.ply,
                &g.status,
                &g.winner,
                &g.token1,
                &g.rng,
                &g.updated_at,
                &g.resigned,
                &g.analysis_votes,
                &g.rematch_offers,
                &g.rematch,
                &g.rev,
            ];
            let mut params: Vec<&(dyn tokio_postgres::types::ToSql + Sync)> = head.to_vec();
            if !rewind {
                params.extend([
                    &m.ply as &(dyn tokio_postgres::types::ToSql + Sync),
                    &m.seat,
                    &m.notation,
                    &m.text,
                    &m.before,
                    &m.after,
                    &m.by_computer,
                    &m.random,
                    &m.created_at,
                ]);
            }
            params.push(&instance);
            let row = client
                .query_one(&stmt, &params)
                .await
                .map_err(|e| pg_error("storing a game", &e))?;
            let updated: i64 = row.get(0);
            let inserted: i64 = row.get(1);
            if updated != 1 {
                return Ok(None);
            }
            if !rewind && inserted != expected {
                return Err(DbError::new(format!(
                    "storing a game: {inserted} of {expected} moves stored"
                )));
            }
            Ok(row.get::<_, Option<i64>>(3))
        })?;
        match new_rev {
            Some(rev) => {
                game.rev = rev as u64;
                Ok(())
            }
            None => Err(WriteError::Conflict),
        }
    }
}

/// The new game's insert (nothing if its id is taken) and its moves', in
/// one statement.
fn insert_game_sql() -> String {
    let values: Vec<String> = (1..=24).map(|i| format!("${i}")).collect();
    format!(
        "WITH g AS (INSERT INTO games ({GAME_COLUMNS}) VALUES ({}) ON CONFLICT (id) DO NOTHING \
         RETURNING id), m AS ({}) SELECT (SELECT count(*) FROM g), (SELECT count(*) FROM m)",
        values.join(", "),
        insert_moves_clause(25)
    )
}

/// Store a new game and its moves (nothing if its id is taken) on a
/// connection or within a transaction; whether it was stored. `what` names
/// the write in errors.
async fn insert_game(
    client: &impl deadpool_postgres::GenericClient,
    g: &GameParams,
    m: &MoveArrays,
    expected: i64,
    what: &str,
) -> Result<bool, DbError> {
    let stmt = client
        .prepare_cached(&insert_game_sql())
        .await
        .map_err(|e| pg_error(what, &e))?;
    let row = client
        .query_one(
            &stmt,
            &[
                &g.id,
                &g.spec,
                &g.convention,
                &g.mode,
                &g.level,
                &g.computer_seat,
                &g.start,
                &g.first_seat,
                &g.position,
                &g.to_move,
                &g.ply,
                &g.status,
                &g.winner,
                &g.token0,
                &g.token1,
                &g.invite,
                &g.rng,
                &g.created_at,
                &g.updated_at,
                &g.resigned,
                &g.analysis_votes,
                &g.rematch_offers,
                &g.rematch,
                &g.rev,
                &m.ply,
                &m.seat,
                &m.notation,
                &m.text,
                &m.before,
                &m.after,
                &m.by_computer,
                &m.random,
                &m.created_at,
            ],
        )
        .await
        .map_err(|e| pg_error(what, &e))?;
    let inserted: i64 = row.get(0);
    let moves: i64 = row.get(1);
    if inserted == 1 && moves != expected {
        return Err(DbError::new(format!(
            "{what}: {moves} of {expected} moves stored"
        )));
    }
    Ok(inserted == 1)
}

impl Store for PgStore {
    fn describe(&self) -> String {
        self.target.describe()
    }

    fn game(&self, id: &str) -> Result<Option<GameRecord>, DbError> {
        let pool = self.pool.clone();
        let id = id.to_string();
        self.run(async move {
            let client = pool
                .get()
                .await
                .map_err(|e| pool_error("reading a game", e))?;
            let stmt = client
                .prepare_cached(&format!("SELECT {GAME_COLUMNS} FROM games WHERE id = $1"))
                .await
                .map_err(|e| pg_error("reading a game", &e))?;
            let row = client
                .query_opt(&stmt, &[&id])
                .await
                .map_err(|e| pg_error("reading a game", &e))?;
            row.as_ref().map(game_from_row).transpose()
        })
    }

    fn moves(&self, id: &str) -> Result<Vec<MoveRecord>, DbError> {
        let pool = self.pool.clone();
        let id = id.to_string();
        self.run(async move {
            let client = pool
                .get()
                .await
                .map_err(|e| pool_error("reading moves", e))?;
            let stmt = client
                .prepare_cached(&format!(
                    "SELECT {MOVE_COLUMNS} FROM moves WHERE game_id = $1 ORDER BY ply"
                ))
                .await
                .map_err(|e| pg_error("reading moves", &e))?;
            let rows = client
                .query(&stmt, &[&id])
                .await
                .map_err(|e| pg_error("reading moves", &e))?;
            rows.iter().map(|r| move_from_row(r, "")).collect()
        })
    }

    fn game_with_moves(&self, id: &str) -> Result<Option<(GameRecord, Vec<MoveRecord>)>, DbError> {
        let pool = self.pool.clone();
        let id = id.to_string();
        self.run(async move {
            let client = pool
                .get()
                .await
                .map_err(|e| pool_error("reading a game", e))?;
            // One statement, so one snapshot: the game and its moves agree.
            let moves: Vec<String> = MOVE_COLUMNS
                .split(", ")
                .map(|c| format!("m.{c} AS m_{c}"))
                .collect();
            let games: Vec<String> = GAME_COLUMNS.split(", ").map(|c| format!("g.{c}")).collect();
            let stmt = client
                .prepare_cached(&format!(
                    "SELECT {}, {} FROM games g LEFT JOIN moves m ON m.game_id = g.id \
                     WHERE g.id = $1 ORDER BY m.ply",
                    games.join(", "),
                    moves.join(", ")
                ))
                .await
                .map_err(|e| pg_error("reading a game", &e))?;
            let rows = client
                .query(&stmt, &[&id])
                .await
                .map_err(|e| pg_error("reading a game", &e))?;
            let Some(first) = rows.first() else {
                return Ok(None);
            };
            let game = game_from_row(first)?;
            let mut list = Vec::with_capacity(rows.len());
            for r in &rows {
                let ply: Option<i64> = r
                    .try_get("m_ply")
                    .map_err(|e| pg_error("reading a game", &e))?;
                if ply.is_some() {
                    list.push(move_from_row(r, "m_")?);
                }
            }
            Ok(Some((game, list)))
        })
    }

    fn recent(&self, limit: u32, offset: u32) -> Result<Vec<GameRecord>, DbError> {
        let pool = self.pool.clone();
        self.run(async move {
            let client = pool
                .get()
                .await
                .map_err(|e| pool_error("listing games", e))?;
            let stmt = client
                .prepare_cached(&format!(
                    "SELECT {GAME_COLUMNS} FROM games ORDER BY created_at DESC, id \
                     LIMIT $1 OFFSET $2"
                ))
                .await
                .map_err(|e| pg_error("listing games", &e))?;
            let rows = client
                .query(&stmt, &[&i64::from(limit), &i64::from(offset)])
                .await
                .map_err(|e| pg_error("listing games", &e))?;
            rows.iter().map(game_from_row).collect()
        })
    }

    fn with_ids(&self, ids: &[String]) -> Result<Vec<GameRecord>, DbError> {
        if ids.is_empty() {
            return Ok(Vec::new());
        }
        let pool = self.pool.clone();
        let ids = ids.to_vec();
        self.run(async move {
            let client = pool
                .get()
                .await
                .map_err(|e| pool_error("listing games", e))?;
            let stmt = client
                .prepare_cached(&format!(
                    "SELECT {GAME_COLUMNS} FROM games WHERE id = ANY($1) \
                     ORDER BY created_at DESC, id"
                ))
                .await
                .map_err(|e| pg_error("listing games", &e))?;
            let rows = client
                .query(&stmt, &[&ids])
                .await
                .map_err(|e| pg_error("listing games", &e))?;
            rows.iter().map(game_from_row).collect()
        })
    }

    fn count(&self) -> Result<u64, DbError> {
        let pool = self.pool.clone();
        self.run(async move {
            let client = pool
                .get()
                .await
                .map_err(|e| pool_error("counting games", e))?;
            let row = client
                .query_one("SELECT count(*) FROM games", &[])
                .await
                .map_err(|e| pg_error("counting games", &e))?;
            Ok(row.get::<_, i64>(0) as u64)
        })
    }

    fn insert_game(&self, game: &GameRecord, moves: &[MoveRecord]) -> Result<(), WriteError> {
        let pool = self.pool.clone();
        let g = GameParams::from(game);
        let m = MoveArrays::from(moves);
        let expected = moves.len() as i64;
        let inserted = self.run(async move {
            let client = pool
                .get()
                .await
                .map_err(|e| pool_error("storing a new game", e))?;
            insert_game(&client, &g, &m, expected, "storing a new game").await
        })?;
        if inserted {
            Ok(())
        } else {
            Err(WriteError::Conflict)
        }
    }

    fn insert_rematch(
        &self,
        old: &mut GameRecord,
        game: &GameRecord,
        moves: &[MoveRecord],
    ) -> Result<(), WriteError> {
        let pool = self.pool.clone();
        let o = GameParams::from(&*old);
        let g = GameParams::from(game);
        let m = MoveArrays::from(moves);
        let expected = moves.len() as i64;
        let instance = self.instance.clone();
        let new_rev = self.run(async move {
            let mut client = pool
                .get()
                .await
                .map_err(|e| pool_error("storing a rematch", e))?;
            let tx = client
                .transaction()
                .await
                .map_err(|e| pg_error("storing a rematch", &e))?;
            let sql = format!(
                "WITH g AS ({UPDATE_GAME}), n AS ({}) SELECT (SELECT max(rev) FROM g), \
                 (SELECT count(*) FROM n)",
                notify_clause(15)
            );
            let stmt = tx
                .prepare_cached(&sql)
                .await
                .map_err(|e| pg_error("storing a rematch", &e))?;
            let row = tx
                .query_one(
                    &stmt,
                    &[
                        &o.id,
                        &o.position,
                        &o.to_move,
                        &o.ply,
                        &o.status,
                        &o.winner,
                        &o.token1,
                        &o.rng,
                        &o.updated_at,
                        &o.resigned,
                        &o.analysis_votes,
                        &o.rematch_offers,
                        &o.rematch,
                        &o.rev,
                        &instance,
                    ],
                )
                .await
                .map_err(|e| pg_error("storing a rematch", &e))?;
            let Some(rev) = row.get::<_, Option<i64>>(0) else {
                return Ok(None);
            };
            // The new game: a taken id is a conflict (the transaction is
            // dropped, and with it the old game's update).
            if !insert_game(&tx, &g, &m, expected, "storing a rematch").await? {
                return Ok(None);
            }
            tx.commit()
                .await
                .map_err(|e| pg_error("storing a rematch", &e))?;
            Ok(Some(rev))
        })?;
        match new_rev {
            Some(rev) => {
                old.rev = rev as u64;
                Ok(())
            }
            None => Err(WriteError::Conflict),
        }
    }

    fn advance(&self, game: &mut GameRecord, moves: &[MoveRecord]) -> Result<(), WriteError> {
        self.write_update(game, moves, false)
    }

    fn rewind(&self, game: &mut GameRecord) -> Result<(), WriteError> {
        self.write_update(game, &[], true)
    }

    fn subscribe(&self) -> Option<broadcast::Receiver<Change>> {
        Some(self.changes.subscribe())
    }
}

/// Apply the migrations the database lacks, in one transaction under an
/// advisory lock (servers starting together apply each once).
async fn migrate(client: &deadpool_postgres::Client, describe: &str) -> Result<(), DbError> {
    let fail = |e: tokio_postgres::Error| pg_error(&format!("preparing {describe}"), &e);
    // The client is the pool's; a transaction needs it mutable, so run
    // the statements by hand.
    client.batch_execute("BEGIN").await.map_err(fail)?;
    let result = async {
        // Any number; the same for every Nimatron server.
        client
            .execute("SELECT pg_advisory_xact_lock(7243311852)", &[])
            .await
            .map_err(fail)?;
        let before = client
            .query_one(
                "SELECT to_regclass('nimatron_schema') IS NOT NULL, to_regclass('games') IS NOT NULL",
                &[],
            )
            .await
            .map_err(fail)?;
        let (had_schema, had_games): (bool, bool) = (before.get(0), before.get(1));
        if had_games && !had_schema {
            return Err(DbError::new(format!(
                "{describe} has a table 'games' that Nimatron did not make (no \
                 nimatron_schema table): nothing was changed; give a database of its own"
            )));
        }
        client
            .batch_execute(migrations::SCHEMA_TABLE)
            .await
            .map_err(fail)?;
        let applied: Vec<i64> = client
            .query("SELECT version FROM nimatron_schema", &[])
            .await
            .map_err(fail)?
            .iter()
            .map(|r| r.get(0))
            .collect();
        if let Some(newest) = applied.iter().max()
            && *newest > migrations::latest()
        {
            return Err(DbError::new(format!(
                "{describe} has schema version {newest}, newer than this build of Nimatron \
                 knows ({}): nothing was changed; use a newer nimatron",
                migrations::latest()
            )));
        }
        for m in migrations::MIGRATIONS {
            if applied.contains(&m.version) {
                continue;
            }
            client
                .batch_execute(&m.sql(Dialect::Postgres))
                .await
                .map_err(fail)?;
            client
                .execute(
                    "INSERT INTO nimatron_schema (version, name, applied_at) VALUES ($1, $2, $3)",
                    &[&m.version, &m.name, &crate::clock::now_ms()],
                )
                .await
                .map_err(fail)?;
        }
        Ok(())
    }
    .await;
    match result {
        Ok(()) => client.batch_execute("COMMIT").await.map_err(fail),
        Err(e) => {
            let _ = client.batch_execute("ROLLBACK").await;
            Err(e)
        }
    }
}

/// Listen for other servers' changes until `stop`, connecting again (and
/// asking for a resync) whenever the connection is lost. The first
/// attempt's outcome goes to `ready`.
async fn listen(
    settings: tokio_postgres::Config,
    instance: String,
    changes: broadcast::Sender<Change>,
    mut stop: watch::Receiver<bool>,
    ready: std::sync::mpsc::SyncSender<Result<(), DbError>>,
) {
    let mut ready = Some(ready);
    let mut backoff = Duration::from_millis(100);
    loop {
        if *stop.borrow() {
            return;
        }
        match settings.connect(NoTls).await {
            Ok((client, mut connection)) => {
                // The connection's messages: the notifications, and its end.
                let (tx, mut rx) = tokio::sync::mpsc::unbounded_channel();
                let driver = tokio::spawn(async move {
                    while let Some(message) =
                        std::future::poll_fn(|cx| connection.poll_message(cx)).await
                    {
                        match message {
                            Ok(AsyncMessage::Notification(n)) => {
                                if tx.send(n.payload().to_string()).is_err() {
                                    break;
                                }
                            }
                            Ok(_) => {}
                            Err(_) => break,
                        }
                    }
                });
                match client.batch_execute(&format!("LISTEN {CHANNEL}")).await {
                    Ok(()) => {
                        backoff = Duration::from_millis(100);
                        match ready.take() {
                            Some(r) => {
                                let _ = r.send(Ok(()));
                            }
                            // Changes may have been missed while away.
                            None => {
                                let _ = changes.send(Change::Resync);
                            }
                        }
                        loop {
                            tokio::select! {
                                payload = rx.recv() => match payload {
                                    Some(p) => {
                                        if let Some(change) = parse_payload(&p, &instance) {
                                            let _ = changes.send(change);
                                        }
                                    }
                                    None => break,
                                },
                                _ = stop.changed() => {
                                    driver.abort();
                                    return;
                                }
                            }
                        }
                    }
                    Err(e) => {
                        if let Some(r) = ready.take() {
                            let _ = r.send(Err(pg_error("LISTEN", &e)));
                            driver.abort();
                            return;
                        }
                    }
                }
                driver.abort();
            }
            Err(e) => {
                if let Some(r) = ready.take() {
                    let _ = r.send(Err(pg_error("connecting", &e)));
                    return;
                }
            }
        }
        tokio::select! {
            _ = tokio::time::sleep(backoff) => {}
            _ = stop.changed() => return,
        }
        backoff = (backoff * 2).min(Duration::from_secs(2));
    }
}

/// `INSTANCE ID REV`, unless it is this server's own.
fn parse_payload(payload: &str, instance: &str) -> Option<Change> {
    let mut words = payload.split(' ');
    let from = words.next()?;
    let id = words.next()?;
    let rev = words.next()?.parse().ok()?;
    (from != instance).then(|| Change::Game {
        id: id.to_string(),
        rev,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn urls_are_shown_without_their_password() {
        assert_eq!(
            redact("postgres://nim:s3cret@db.example:5433/games"),
            "postgres://nim:***@db.example:5433/games"
        );
        assert_eq!(
            redact("postgres://nim@db.example/games"),
            "postgres://nim@db.example/games"
        );
        let t = Target::parse("postgresql://nim:pw@127.0.0.1:5999/records").unwrap();
        assert_eq!(t.to_string(), "postgresql://nim:***@127.0.0.1:5999/records");
        assert_eq!(
            t.describe(),
            "PostgreSQL at 127.0.0.1:5999, database 'records' as user 'nim'"
        );
    }

    #[test]
    fn urls_that_cannot_work_are_refused_with_the_reason() {
        let e = Target::parse("postgres://nim@127.0.0.1:5432")
            .err()
            .unwrap();
        assert!(e.contains("names no database"), "{e}");
        let e = Target::parse("postgres://nim@127.0.0.1:notaport/db")
            .err()
            .unwrap();
        assert!(e.contains("not a PostgreSQL URL"), "{e}");
        let e = Target::parse("postgres://nim:pw@h/db?sslmode=require")
            .err()
            .unwrap();
        assert!(e.contains("TLS") && !e.contains("pw@"), "{e}");
    }

    #[test]
    fn a_servers_own_notifications_are_not_read_back() {
        assert_eq!(
            parse_payload("aaaa 0123456789abcdef 7", "bbbb"),
            Some(Change::Game {
                id: "0123456789abcdef".into(),
                rev: 7
            })
        );
        assert_eq!(parse_payload("aaaa 0123456789abcdef 7", "aaaa"), None);
        assert_eq!(parse_payload("garbage", "aaaa"), None);
    }
}
