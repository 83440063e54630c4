//! # nimatron-web
//!
//! `nimatron serve`: a local web app to play and analyse every game the
//! Nimatron library knows — against the computer, a friend at the same
//! screen, or a friend elsewhere through an invite link — with a JSON API
//! (documented in `docs/api.md`), live updates by server-sent events, and
//! game records in SQLite.
//!
//! ```no_run
//! # fn main() -> Result<(), Box<dyn std::error::Error>> {
//! let config = nimatron_web::Config::new("nimatron.sqlite3");
//! nimatron_web::run("127.0.0.1:8080".parse()?, config)?; // until Ctrl-C
//! # Ok(()) }
//! ```
#![deny(missing_docs)]

mod actions;
pub mod api;
mod assets;
mod caches;
pub mod db;
pub mod error;
pub mod explore;
pub mod openapi;
pub mod requests;
mod seats;
pub mod service;
pub mod token;
mod turns;
pub mod views;

use std::future::Future;
use std::io::Write;
use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::Arc;

use nimatron::solve::Limits;

pub use caches::CustomGame;
pub use db::Durability;

/// How to run the server.
#[derive(Clone, Debug)]
pub struct Config {
    /// The SQLite file (created if missing).
    pub db: PathBuf,
    /// Games outside the catalogue, served under their own names.
    pub custom_games: Vec<CustomGame>,
    /// The most positions a solver stores for one request.
    pub limits: Limits,
    /// How hard each commit works to survive.
    pub durability: Durability,
    /// How far Explore computes a heap game's values to find its period
    /// (default [`explore::SEQUENCE_TO`]; never less than the N shown).
    pub explore_to: u64,
}

impl Config {
    /// The defaults, with the database at `db`.
    pub fn new(db: impl Into<PathBuf>) -> Config {
        Config {
            db: db.into(),
            custom_games: Vec::new(),
            // A request never searches for long: 500 000 positions or 5 s.
            limits: Limits::states(500_000).with_time(std::time::Duration::from_secs(5)),
            durability: Durability::default(),
            explore_to: explore::SEQUENCE_TO,
        }
    }
}

/// Why the server could not start or stopped.
#[derive(Debug)]
pub enum ServeError {
    /// The database could not be opened.
    Db(db::DbError),
    /// Binding or serving failed.
    Io(std::io::Error),
}

impl std::fmt::Display for ServeError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ServeError::Db(e) => e.fmt(f),
            ServeError::Io(e) => write!(f, "server: {e}"),
        }
    }
}

impl std::error::Error for ServeError {}

impl From<std::io::Error> for ServeError {
    fn from(e: std::io::Error) -> ServeError {
        ServeError::Io(e)
    }
}

/// The whole application over `config`'s database, ready to serve or to
/// call in process (as the tests and the fuzzer do). Its live-update
/// streams end when `shutdown` turns true.
pub fn app(
    config: &Config,
    shutdown: tokio::sync::watch::Receiver<bool>,
) -> Result<axum::Router, ServeError> {
    let store = db::Store::open(&config.db, config.durability).map_err(ServeError::Db)?;
    let engine = Arc::new(
        service::Engine::new(store, config.custom_games.clone(), config.limits)
            .with_explore_to(config.explore_to),
    );
    Ok(api::router(api::AppState {
        engine,
        hub: Arc::new(api::Hub::new(shutdown)),
    }))
}

/// Serve on `listener` until `shutdown` completes; live-update streams end
/// then too, and the database is closed cleanly.
pub async fn serve(
    listener: tokio::net::TcpListener,
    config: Config,
    shutdown: impl Future<Output = ()> + Send + 'static,
) -> Result<(), ServeError> {
    let (stop_tx, stop_rx) = tokio::sync::watch::channel(false);
    let app = app(&config, stop_rx)?;
    axum::serve(listener, app)
        .with_graceful_shutdown(async move {
            shutdown.await;
            let _ = stop_tx.send(true);
        })
        .await?;
    Ok(())
}

/// Bind `addr`, print the URL, and serve until Ctrl-C or SIGTERM.
pub fn run(addr: SocketAddr, config: Config) -> Result<(), ServeError> {
    // Requests run their SQLite and solver work on the blocking pool; a
    // small pool serves many players better than a thread per request.
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .max_blocking_threads(16)
        .enable_all()
        .build()?;
    runtime.block_on(async move {
        let listener = tokio::net::TcpListener::bind(addr).await?;
        let local = listener.local_addr()?;
        // A closed stdout must not stop the server.
        let mut out = std::io::stdout();
        let _ = writeln!(
            out,
            "Nimatron is serving at http://{local}/  (database: {})",
            config.db.display()
        );
        let _ = writeln!(out, "Press Ctrl-C to stop.");
        let _ = out.flush();
        serve(listener, config, stop_signal()).await
    })
}

async fn stop_signal() {
    #[cfg(unix)]
    {
        let mut term =
            match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
                Ok(s) => s,
                Err(_) => {
                    let _ = tokio::signal::ctrl_c().await;
                    return;
                }
            };
        tokio::select! {
            _ = tokio::signal::ctrl_c() => {}
            _ = term.recv() => {}
        }
    }
    #[cfg(not(unix))]
    {
        let _ = tokio::signal::ctrl_c().await;
    }
}
