//! # nimatron-web
//!
//! `nimatron serve`: a local web app to play and analyse every game the
//! Nimatron library knows — against the computer, a friend at the same
//! screen, or a friend elsewhere through an invite link — with a JSON API
//! (documented in `docs/api.md`), live updates by server-sent events, and
//! game records in SQLite (one server) or PostgreSQL (several servers
//! sharing one database, see [`store`]).
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
mod clock;
pub mod error;
pub mod explore;
pub mod limits;
mod policy;
pub mod requests;
mod server;
pub mod service;
pub mod site;
pub mod store;
pub mod token;
mod turns;
pub mod views;

pub use api::openapi;

use std::future::Future;
use std::io::Write;
use std::net::SocketAddr;
use std::sync::Arc;

use nimatron::solve::Limits;

pub use caches::CustomGame;
pub use limits::ServerLimits;
pub use limits::TrustedProxies;
pub use site::PublicUrl;
pub use store::{Database, Durability};

/// How to run the server.
#[derive(Clone, Debug)]
pub struct Config {
    /// Where the game records live: a SQLite file (created if missing) or
    /// a PostgreSQL database.
    pub db: Database,
    /// The most connections to PostgreSQL this server holds (its pool).
    pub db_connections: usize,
    /// The reverse proxies whose `X-Forwarded-For` or `Forwarded` header
    /// names the client; every other peer is the client itself.
    pub trusted_proxies: TrustedProxies,
    /// Games outside the catalogue, served under their own names.
    pub custom_games: Vec<CustomGame>,
    /// The solver's limits for one request: the most positions it stores,
    /// and the time the whole request may take (every position of a game's
    /// analysis shares it).
    pub limits: Limits,
    /// Every request's budget of material, moves and bytes, and admission
    /// control (see [`ServerLimits`]).
    pub server: ServerLimits,
    /// The address players reach the server at, behind a proxy: requests
    /// naming its host are served, with the listening address's.
    pub public_url: Option<PublicUrl>,
    /// The listening address: set by [`serve`] once bound; `None` for an
    /// app called in process, which then answers for any IP address or
    /// `localhost` (but no other host name).
    pub listen: Option<SocketAddr>,
    /// How hard each commit works to survive.
    pub durability: Durability,
    /// How far Explore computes a heap game's values to find its period
    /// (default [`explore::SEQUENCE_TO`]; never less than the N shown).
    pub explore_to: u64,
}

impl Config {
    /// The defaults, with the database at `db` (a SQLite file's path, or a
    /// [`Database`]).
    pub fn new(db: impl Into<Database>) -> Config {
        Config {
            db: db.into(),
            db_connections: 16,
            trusted_proxies: TrustedProxies::default(),
            custom_games: Vec::new(),
            // A request never searches for long: 500 000 positions or 5 s.
            limits: Limits::states(500_000).with_time(std::time::Duration::from_secs(5)),
            server: ServerLimits::default(),
            public_url: None,
            listen: None,
            durability: Durability::default(),
            explore_to: explore::SEQUENCE_TO,
        }
    }
}

/// Why the server could not start or stopped.
#[derive(Debug)]
pub enum ServeError {
    /// The database could not be opened.
    Db(store::DbError),
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
    let store = open_store(config)?;
    Ok(app_over(config, store, shutdown))
}

/// Open the configured database.
fn open_store(config: &Config) -> Result<Arc<dyn store::Store>, ServeError> {
    store::open(&config.db, config.durability, config.db_connections).map_err(ServeError::Db)
}

fn app_over(
    config: &Config,
    store: Arc<dyn store::Store>,
    shutdown: tokio::sync::watch::Receiver<bool>,
) -> axum::Router {
    let changes = store.subscribe();
    let engine = Arc::new(
        service::Engine::new(store, config.custom_games.clone(), config.limits)
            .with_explore_to(config.explore_to)
            .with_server_limits(config.server.clone()),
    );
    let hub = Arc::new(api::Hub::new(shutdown));
    // Other servers' changes reach this server's watchers.
    if let (Some(changes), Ok(runtime)) = (changes, tokio::runtime::Handle::try_current()) {
        runtime.spawn(api::relay_changes(changes, engine.clone(), hub.clone()));
    }
    api::router(api::AppState {
        engine,
        hub,
        admission: Arc::new(limits::Admission::new(config.server.clone())),
        site: Arc::new(site::Site {
            listen: config.listen,
            public: config.public_url.clone(),
        }),
    })
}

/// Serve on `listener` until `shutdown` completes; live-update streams end
/// then too, and the database is closed cleanly.
pub async fn serve(
    listener: tokio::net::TcpListener,
    config: Config,
    shutdown: impl Future<Output = ()> + Send + 'static,
) -> Result<(), ServeError> {
    let store = open_store(&config)?;
    serve_store(listener, config, store, shutdown).await
}

async fn serve_store(
    listener: tokio::net::TcpListener,
    mut config: Config,
    store: Arc<dyn store::Store>,
    shutdown: impl Future<Output = ()> + Send + 'static,
) -> Result<(), ServeError> {
    config.listen = Some(listener.local_addr()?);
    let (stop_tx, stop_rx) = tokio::sync::watch::channel(false);
    let app = app_over(&config, store, stop_rx);
    server::serve(
        listener,
        app,
        &config.server,
        &config.trusted_proxies,
        async move {
            shutdown.await;
            let _ = stop_tx.send(true);
        },
    )
    .await?;
    Ok(())
}

/// Open and check the database, bind `addr`, print the URL, and serve
/// until Ctrl-C or SIGTERM. Nothing is printed as serving until the
/// database has opened and passed its check.
pub fn run(addr: SocketAddr, config: Config) -> Result<(), ServeError> {
    let store = open_store(&config)?;
    // Requests run their SQLite and solver work on the blocking pool: cheap
    // ones as they come (each client's share is capped), heavy ones
    // `heavy_workers` at a time.
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .max_blocking_threads(64)
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
            store.describe()
        );
        if let Some(public) = &config.public_url {
            let _ = writeln!(out, "Public address: {public}");
        }
        let _ = writeln!(out, "Press Ctrl-C to stop.");
        let _ = out.flush();
        serve_store(listener, config, store, stop_signal()).await
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
