//! The command line, checked once as clap reads it: every flag that names
//! something (a game, an algorithm, a vector path, a shard) or bounds
//! something (threads, seconds, memory) is parsed here into its type by a
//! value parser, so a bad value is refused with exit 2 and a message that
//! names the flag before any command runs, and the commands receive typed
//! configuration, never raw text to check again.

use std::time::Duration;

use clap::{Args, Parser, Subcommand, ValueEnum};
use nimatron::GameSpec;
use nimatron::Level;
use nimatron::sequence::{Algorithm, HeapGame, Shard, Simd};

/// A game spec, checked once as the flags are read: a typo gets a "did you
/// mean" (exit 2, like every bad flag).
fn parse_spec(text: &str) -> Result<GameSpec, String> {
    text.parse().map_err(|e: nimatron::SpecError| e.to_string())
}

/// A time limit in seconds (a positive number, at most 10^9), checked as
/// the flags are read.
fn parse_seconds(text: &str) -> Result<Duration, String> {
    match text.trim().parse::<f64>() {
        Ok(s) if s.is_finite() && s > 0.0 && s <= 1e9 => Ok(Duration::from_secs_f64(s)),
        _ => Err(format!(
            "'{text}' is not a time limit: give a positive number of seconds (at most 1e9)"
        )),
    }
}

/// A heap game for `grundy` (octal and hexadecimal codes, presets,
/// `subtraction:`, `modular:`), with a "did you mean" for a misspelt name.
fn parse_heap_game(text: &str) -> Result<HeapGame, String> {
    text.parse()
        .map_err(|e: nimatron::sequence::HeapGameError| e.to_string())
}

/// `--algorithm`: auto, naive, sparse or plain.
fn parse_algorithm(text: &str) -> Result<Algorithm, String> {
    text.parse()
        .map_err(|e: nimatron::sequence::ParseAlgorithmError| e.to_string())
}

/// `--simd` (or `NIMATRON_SIMD`): a path name, and one this processor has.
fn parse_simd(text: &str) -> Result<Simd, String> {
    let simd: Simd = text
        .parse()
        .map_err(|e: nimatron::sequence::ParseSimdError| e.to_string())?;
    simd.resolve().map_err(|e| e.to_string())?;
    Ok(simd)
}

/// `--plot FILE.svg`: the plot is SVG, so another extension (a `.png`
/// that would hold SVG) is refused rather than written under a wrong name.
fn parse_plot_path(text: &str) -> Result<std::path::PathBuf, String> {
    let path = std::path::PathBuf::from(text);
    match path.extension().and_then(|e| e.to_str()) {
        Some(e) if e.eq_ignore_ascii_case("svg") => Ok(path),
        other => {
            let stem = path.with_extension("svg");
            Err(format!(
                "'{text}': the plot is written as SVG only, so the file name must end in .svg (got {}); try --plot {} (to get a PNG, convert that file, e.g. with rsvg-convert or a browser)",
                other.map_or_else(|| "no extension".to_string(), |e| format!(".{e}")),
                stem.display()
            ))
        }
    }
}

/// `serve --addr`: an address and port (`127.0.0.1:8080`, `[::1]:8080`), a
/// host name and port (`localhost:9000`, resolved now; an IPv4 address is
/// preferred when the name has both), or a bare port (`8081`, `:8081`),
/// which listens on loopback.
pub(crate) fn parse_listen_addr(text: &str) -> Result<std::net::SocketAddr, String> {
    use std::net::{Ipv4Addr, SocketAddr, ToSocketAddrs};
    let t = text.trim();
    let accepted = "give a port (8080), an address and port (127.0.0.1:8080, [::1]:8080, 0.0.0.0:8080 for every interface) or a host name and port (localhost:8080)";
    let port = t.strip_prefix(':').unwrap_or(t);
    if !port.is_empty() && port.bytes().all(|b| b.is_ascii_digit()) {
        return port
            .parse::<u16>()
            .map(|p| SocketAddr::from((Ipv4Addr::LOCALHOST, p)))
            .map_err(|_| format!("'{text}': a port is a number from 0 to 65535"));
    }
    if let Ok(addr) = t.parse::<SocketAddr>() {
        return Ok(addr);
    }
    let Some((host, port)) = t.rsplit_once(':') else {
        return Err(format!("'{text}' has no port: {accepted}"));
    };
    if host.is_empty() || port.parse::<u16>().is_err() {
        return Err(format!(
            "'{text}' is not an address to listen on: {accepted}"
        ));
    }
    let found: Vec<SocketAddr> = t
        .to_socket_addrs()
        .map_err(|e| format!("'{text}': the host name '{host}' did not resolve ({e}); {accepted}"))?
        .collect();
    found
        .iter()
        .find(|a| a.is_ipv4())
        .or(found.first())
        .copied()
        .ok_or_else(|| format!("'{text}': the host name '{host}' has no address; {accepted}"))
}

/// A count that must be at least 1 (threads, limits).
fn parse_at_least_one(text: &str) -> Result<usize, String> {
    match text.trim().parse::<usize>() {
        Ok(n) if n >= 1 => Ok(n),
        _ => Err(format!(
            "'{text}' is not a count: give a whole number, 1 or more"
        )),
    }
}

/// `--memory-limit` in GiB, kept in bytes.
fn parse_gib(text: &str) -> Result<u64, String> {
    match text.trim().parse::<f64>() {
        Ok(g) if g.is_finite() && g > 0.0 && g <= 1e9 => Ok((g * (1u64 << 30) as f64) as u64),
        _ => Err(format!(
            "'{text}' is not a memory limit: give a positive number of GiB"
        )),
    }
}

/// `--shard I/N`.
fn parse_shard(text: &str) -> Result<Shard, String> {
    text.parse()
        .map_err(|e: nimatron::sequence::CensusError| e.to_string())
}

/// What `nimatron quotient` computes the quotient of: Nim, whose heaps
/// reach the `--to` given, or a heap game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum QuotientGame {
    /// Nim with heaps up to `--to`.
    Nim,
    /// A heap game of `nimatron grundy`.
    Heaps(HeapGame),
}

fn parse_quotient_game(text: &str) -> Result<QuotientGame, String> {
    if text.trim().eq_ignore_ascii_case("nim") {
        Ok(QuotientGame::Nim)
    } else {
        parse_heap_game(text).map(QuotientGame::Heaps).map_err(|e| {
            format!("{e} (quotient accepts nim and the heap games of `nimatron grundy`)")
        })
    }
}

/// A computer level, checked as the flags are read.
fn parse_level(text: &str) -> Result<Level, String> {
    text.parse()
        .map_err(|e: nimatron::ParseLevelError| e.to_string())
}

#[derive(Parser, Debug)]
#[command(
    name = "nimatron",
    version,
    about = "Perfect play and Sprague–Grundy analysis for Nim and its impartial relatives",
    long_about = None,
    after_help = "Examples:\n  nimatron analyze 3 4 5\n  nimatron analyze --misere --json 1 5\n  nimatron positions --heaps 3 --max 9 --both\n  nimatron play --heaps 3,4,5 --level perfect\n\nExit codes: 0 success, 2 bad input, 1 other failure."
)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Subcommand, Debug)]
pub enum Command {
    /// The verdict for a position, the explanation, and every winning move.
    #[command(
        allow_negative_numbers = true,
        after_help = "Examples:\n  nimatron analyze 3 4 5                 Bouton's rule, with binary columns\n  nimatron analyze --misere 0 2 1        the misère endgame rule\n  nimatron analyze --json 1 3 4          one JSON object (game, convention, position,\n                                         outcome, grundy, winning_moves)\n  seq 1 1000000 | nimatron analyze -     read heaps from standard input"
    )]
    Analyze(AnalyzeArgs),
    /// List the P-positions (second-player wins) of Nim with K heaps.
    #[command(
        after_help = "Examples:\n  nimatron positions --heaps 3 --max 9            normal play, marks entries that hold only there\n  nimatron positions --heaps 4 --max 9 --misere   misère play\n  nimatron positions --heaps 2 --max 9 --both     the union, as in Wikipedia's table"
    )]
    Positions(PositionsArgs),
    /// Play in the terminal, against the computer or a friend.
    #[command(
        allow_negative_numbers = true,
        after_help = "Examples:\n  nimatron play                           3 4 5, you first, perfect computer\n  nimatron play --heaps 1,3,5,7 --first computer\n  nimatron play --random --misere --level easy\n  nimatron play --opponent friend\n\nMoves: 'A 2', 'take 2 from A', 'a2'. Commands: hint, undo, help, quit."
    )]
    Play(PlayArgs),
    /// Grundy values G(0..=N) of a heap game, its period and whether it is proven.
    #[command(
        after_help = "Examples:\n  nimatron grundy kayles --to 1000                  period 12, preperiod 71, proven\n  nimatron grundy octal:0.6 --to 10000000 --plot officers.svg\n  nimatron grundy grundy-game --to 1000000 --out grundy.bin --checkpoint grundy.ckpt\n  nimatron grundy subtraction:1,3,4 --to 100 --json\n\nSpecs: octal:CODE or the bare code (e.g. octal:0.137, 0.137, 4.07, hex digits for three heaps), kayles, dawson,\nofficers, treblecross, double-kayles, grundy-game, subtraction:1,2,3, subtraction:squares,\nmodular:M:R (e.g. modular:3:1,2).\n\nCtrl-C stops cleanly and saves the checkpoint when --checkpoint is given; running the same\ncommand again resumes from it."
    )]
    Grundy(GrundyArgs),
    /// A census of octal games: every code of up to D digits, in classes of equivalent codes.
    #[command(
        after_help = "Examples:\n  nimatron census --digits 2 --to 1000                    the whole census, a Markdown table\n  nimatron census --digits 3 --to 100000 --shard 2/8 --out shard-2.jsonl\n  nimatron census merge shard-*.jsonl --json\n\nA shard with --out resumes where it stopped when run again; Ctrl-C stops cleanly.\nRecipes for Slurm, Kubernetes and GNU parallel: docs/census.md."
    )]
    Census(CensusArgs),
    /// The misère quotient of a heap game: presentation, P-portion, heap images.
    #[command(
        after_help = "Examples:\n  nimatron quotient nim --to 3                 the tame quotient of order 6\n  nimatron quotient octal:0.75 --to 20         a wild quotient of order 8\n  nimatron quotient dawson --to 12 --json      one JSON object (game, to, computed_to,\n                                               order, tame, generators, relations, elements,\n                                               p_portion, images, stable_from, period, proven)\n\nSpecs: nim (Nim with heaps up to N), and the heap games of `nimatron grundy`.\nA computation that passes a limit stops with exit code 1 and says where."
    )]
    Quotient(QuotientArgs),
    /// List the games Nimatron knows, or describe one.
    #[command(after_help = "Examples:\n  nimatron games\n  nimatron games nim")]
    Games(GamesArgs),
    /// The browser app: play and analyse at http://127.0.0.1:8080/.
    #[command(
        after_help = "Examples:\n  nimatron serve\n  nimatron serve --addr 9000 --db games.sqlite3     port 9000 on loopback\n  nimatron serve --addr localhost:9000\n  nimatron serve --addr 0.0.0.0:8080 --db postgres://nimatron@db.internal:5432/nimatron \\\n      --public-url https://nim.example.org/ --trusted-proxy 10.0.0.0/8\n  (db.internal and nim.example.org are placeholders: your own hosts go there.)\n\nThe JSON API is documented in docs/api.md; running several servers behind a proxy, in docs/deploy.md."
    )]
    Serve(ServeArgs),
    /// The game records' database: copy a SQLite file's games into PostgreSQL.
    #[command(
        after_help = "Examples:\n  nimatron db migrate --from nimatron.sqlite3 --to postgres://nimatron@127.0.0.1:5432/nimatron\n\nStop the server first. Games the target already holds (by id) are left as they are, so a copy\nthat stopped can be run again. See docs/deploy.md."
    )]
    Db(DbArgs),
}

#[derive(Args, Debug)]
pub struct DbArgs {
    #[command(subcommand)]
    pub command: DbCommand,
}

#[derive(clap::Subcommand, Debug)]
pub enum DbCommand {
    /// Copy every game and its moves from one database to another (a SQLite
    /// file into PostgreSQL, say).
    Migrate {
        /// The database to copy from: a SQLite file or a postgres:// URL.
        #[arg(long, value_name = "FILE|URL", value_parser = parse_database)]
        from: nimatron_web::Database,
        /// The database to copy into: a postgres:// URL or a SQLite file.
        #[arg(long, value_name = "URL|FILE", value_parser = parse_database)]
        to: nimatron_web::Database,
    },
}

/// `--db`: a SQLite file's path, or a postgres:// URL.
fn parse_database(text: &str) -> Result<nimatron_web::Database, String> {
    nimatron_web::Database::parse(text)
}

/// `--trusted-proxy`: an address or a block of them.
fn parse_cidr(text: &str) -> Result<nimatron_web::limits::Cidr, String> {
    nimatron_web::limits::Cidr::parse(text)
}

#[derive(Args, Debug)]
pub struct AnalyzeArgs {
    /// The game (see `nimatron games`).
    #[arg(long, default_value = "nim", value_name = "SPEC", value_parser = parse_spec)]
    pub game: GameSpec,
    /// Misère play: whoever takes the last object loses.
    #[arg(long)]
    pub misere: bool,
    /// Print one JSON object instead of text.
    #[arg(long)]
    pub json: bool,
    /// List at most this many winning moves (0 = all). Default: 100, or 1
    /// when there are more than 1000 heaps.
    #[arg(long)]
    pub limit: Option<usize>,
    /// The most positions a search may store before it stops (games
    /// solved by search rather than a closed form).
    #[arg(long, default_value_t = nimatron::solve::Limits::DEFAULT_MAX_STATES, value_parser = parse_at_least_one)]
    pub max_states: usize,
    /// The longest a search may run, in seconds, before it stops and says
    /// so. Default: 120, or 8 for misère play of a heap game, where the
    /// misère quotient races a search and a sum of large heaps may be past
    /// both (the error then says how far each got).
    #[arg(long, value_name = "SECONDS", value_parser = parse_seconds)]
    pub max_seconds: Option<Duration>,
    /// Wordnim's dictionary: a word list, one word per line (letters a-z;
    /// default: the list shipped with Nimatron).
    #[arg(long, value_name = "FILE")]
    pub words: Option<std::path::PathBuf>,
    /// Play this move first and analyse the position it leaves (in the
    /// game's move notation, e.g. 'A 2'; repeat for a sequence). An illegal
    /// move is bad input.
    #[arg(long = "move", value_name = "MOVE")]
    pub moves: Vec<String>,
    /// The position: heap sizes for heap games, or `-` to read it from
    /// standard input. Other games: see `nimatron games SPEC`. With no
    /// position, games with a standard start analyse that.
    #[arg(value_name = "POSITION")]
    pub position: Vec<String>,
}

#[derive(Args, Debug)]
pub struct PositionsArgs {
    /// How many non-empty heaps.
    #[arg(long, value_name = "K")]
    pub heaps: usize,
    /// The largest heap size to list.
    #[arg(long, value_name = "M")]
    pub max: u64,
    /// Misère play.
    #[arg(long, conflicts_with = "both")]
    pub misere: bool,
    /// Both conventions at once, marking entries that hold in only one.
    #[arg(long)]
    pub both: bool,
    /// Print JSON.
    #[arg(long)]
    pub json: bool,
}

#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum First {
    /// You move first.
    You,
    /// The computer (or player 2) moves first.
    Computer,
    /// Toss a coin.
    Random,
}

/// Who plays the other side in `nimatron play`.
#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum Opponent {
    /// Nimatron plays the other side.
    Computer,
    /// Two people at one keyboard.
    Friend,
}

#[derive(Args, Debug)]
pub struct PlayArgs {
    /// The game (see `nimatron games`).
    #[arg(long, default_value = "nim", value_name = "SPEC", value_parser = parse_spec)]
    pub game: GameSpec,
    /// Misère play: whoever takes the last object loses.
    #[arg(long)]
    pub misere: bool,
    /// Starting heaps for heap games: 3,4,5 (or 3 4 5).
    #[arg(long, num_args = 1.., value_delimiter = ',', value_name = "SIZES", conflicts_with_all = ["random", "position"])]
    pub heaps: Option<Vec<String>>,
    /// The starting position in the game's notation (see `nimatron games SPEC`).
    #[arg(long, conflicts_with = "random")]
    pub position: Option<String>,
    /// Random starting heaps (heap games).
    #[arg(long)]
    pub random: bool,
    /// The most positions a search may store before it stops.
    #[arg(long, default_value_t = nimatron::solve::Limits::DEFAULT_MAX_STATES, value_parser = parse_at_least_one)]
    pub max_states: usize,
    /// The longest a search may run for one move, in seconds, before it
    /// stops and says so. Default: 120, or 8 for misère play of a heap game
    /// (as for `analyze`).
    #[arg(long, value_name = "SECONDS", value_parser = parse_seconds)]
    pub max_seconds: Option<Duration>,
    /// Who moves first.
    #[arg(long, value_enum, default_value = "you")]
    pub first: First,
    /// Who plays the other side.
    #[arg(long, value_enum, default_value = "computer")]
    pub opponent: Opponent,
    /// Computer strength: perfect, hard, medium or easy.
    #[arg(long, default_value = "perfect", value_parser = parse_level)]
    pub level: Level,
    /// Seed for random heaps and the computer's choices (default: from the clock).
    #[arg(long)]
    pub seed: Option<u64>,
    /// Wordnim's dictionary: a word list, one word per line (letters a-z;
    /// default: the list shipped with Nimatron).
    #[arg(long, value_name = "FILE")]
    pub words: Option<std::path::PathBuf>,
}

#[derive(Args, Debug)]
pub struct GamesArgs {
    /// A game spec to describe in full.
    #[arg(value_parser = parse_spec)]
    pub spec: Option<GameSpec>,
}

#[derive(Args, Debug)]
pub struct ServeArgs {
    /// Where to listen: a port (8081, on loopback), an address and port
    /// (127.0.0.1:9000, 0.0.0.0:8080 for every interface) or a host name and
    /// port (localhost:9000).
    #[arg(long, default_value = "127.0.0.1:8080", value_parser = parse_listen_addr)]
    pub addr: std::net::SocketAddr,
    /// Where the game records live: a SQLite file (created if missing), or
    /// a PostgreSQL database, `postgres://USER[:PASSWORD]@HOST:PORT/DB`, which
    /// several servers may share.
    #[arg(long, env = "NIMATRON_DB", default_value = "nimatron.sqlite3", value_name = "FILE|URL", value_parser = parse_database)]
    pub db: nimatron_web::Database,
    /// The most connections this server holds to PostgreSQL.
    #[arg(long, default_value_t = 16, value_name = "N", value_parser = parse_at_least_one)]
    pub db_connections: usize,
    /// A reverse proxy (an address, or a block such as 10.0.0.0/8) whose
    /// X-Forwarded-For or Forwarded header names the client: limits per
    /// client then count each client, not the proxy. Repeat for more.
    #[arg(long, value_name = "CIDR", value_parser = parse_cidr)]
    pub trusted_proxy: Vec<nimatron_web::limits::Cidr>,
    /// Sync every commit to the disk (slower), not just to the OS; either
    /// way a committed move survives the server being killed.
    #[arg(long)]
    pub sync_full: bool,
    /// The address players reach the server at behind a proxy, e.g.
    /// `https://nim.example.org/` (your own host in place of that
    /// placeholder): requests naming its host (and pages of
    /// its origin) are served, besides the listening address's.
    #[arg(long, value_name = "URL", value_parser = parse_public_url)]
    pub public_url: Option<nimatron_web::PublicUrl>,
    /// The time one request may spend solving, in seconds: every position
    /// of a game's analysis shares it.
    #[arg(long, default_value = "5", value_name = "SECONDS", value_parser = parse_seconds, help_heading = "Limits")]
    pub request_seconds: Duration,
    /// The most positions a solver stores for one request (about 100 bytes
    /// each).
    #[arg(long, default_value_t = 500_000, value_parser = parse_at_least_one, help_heading = "Limits")]
    pub max_states: usize,
    /// The most objects (heap sizes, cells, vertices...) a position may hold.
    #[arg(long, default_value_t = 300, value_parser = parse_at_least_one_u64, help_heading = "Limits")]
    pub max_material: u64,
    /// The most legal moves a position may have to be played or analysed
    /// (games are refused at creation beyond it).
    #[arg(long, default_value_t = 100_000, value_parser = parse_at_least_one_u64, help_heading = "Limits")]
    pub max_moves: u64,
    /// The most moves one reply lists; the rest are counted and paged.
    #[arg(long, default_value_t = 1000, value_parser = parse_at_least_one, help_heading = "Limits")]
    pub max_listed: usize,
    /// How many analyses (and Explore requests) run at once [default: the
    /// cores less one, at least 1].
    #[arg(long, value_name = "N", value_parser = parse_at_least_one, help_heading = "Limits")]
    pub heavy_workers: Option<usize>,
    /// How many analyses may wait for a worker; more get 503 with
    /// Retry-After.
    #[arg(long, default_value_t = 16, help_heading = "Limits")]
    pub heavy_queue: usize,
    /// How many analyses one client (IP address) may have running or
    /// waiting; more get 429 with Retry-After.
    #[arg(long, default_value_t = 2, value_parser = parse_at_least_one, help_heading = "Limits")]
    pub heavy_per_client: usize,
    /// How many requests one client may have in flight.
    #[arg(long, default_value_t = 64, value_parser = parse_at_least_one, help_heading = "Limits")]
    pub requests_per_client: usize,
    /// How many connections the server holds open.
    #[arg(long, default_value_t = 4096, value_parser = parse_at_least_one, help_heading = "Limits")]
    pub max_connections: usize,
    /// How many connections one client may hold open.
    #[arg(long, default_value_t = 64, value_parser = parse_at_least_one, help_heading = "Limits")]
    pub connections_per_client: usize,
    /// How many live-update streams the server holds open.
    #[arg(long, default_value_t = 512, value_parser = parse_at_least_one, help_heading = "Limits")]
    pub max_streams: usize,
    /// How many live-update streams one game may have.
    #[arg(long, default_value_t = 32, value_parser = parse_at_least_one, help_heading = "Limits")]
    pub streams_per_game: usize,
    /// How many live-update streams one client may hold.
    #[arg(long, default_value_t = 32, value_parser = parse_at_least_one, help_heading = "Limits")]
    pub streams_per_client: usize,
    /// How long a client may take to send a request's header (also how
    /// long a kept-alive connection may wait for its next request).
    #[arg(long, default_value = "10", value_name = "SECONDS", value_parser = parse_seconds, help_heading = "Limits")]
    pub header_timeout: Duration,
    /// How long a connection may sit with nothing read or written.
    #[arg(long, default_value = "60", value_name = "SECONDS", value_parser = parse_seconds, help_heading = "Limits")]
    pub idle_timeout: Duration,
    /// How long a reply may wait for a client that does not read it (an
    /// event stream's among them) before the connection is dropped.
    #[arg(long, default_value = "20", value_name = "SECONDS", value_parser = parse_seconds, help_heading = "Limits")]
    pub write_timeout: Duration,
    /// How long a client may take to send a request's body.
    #[arg(long, default_value = "30", value_name = "SECONDS", value_parser = parse_seconds, help_heading = "Limits")]
    pub body_timeout: Duration,
    /// The most positions the solvers of every game keep between requests,
    /// in all.
    #[arg(long, default_value_t = 2_000_000, help_heading = "Limits")]
    pub max_kept_states: usize,
    /// How long the computer's reply may search inside a move request, in
    /// milliseconds; a search that needs more waits for a heavy worker, as
    /// analyses do.
    #[arg(long, default_value_t = 50, value_name = "MS", value_parser = parse_at_least_one, help_heading = "Limits")]
    pub quick_search_ms: usize,
}

fn parse_public_url(text: &str) -> Result<nimatron_web::PublicUrl, String> {
    nimatron_web::PublicUrl::parse(text)
}

fn parse_at_least_one_u64(text: &str) -> Result<u64, String> {
    match text.trim().parse::<u64>() {
        Ok(n) if n >= 1 => Ok(n),
        _ => Err(format!(
            "'{text}' is not a count: give a whole number, 1 or more"
        )),
    }
}

#[derive(Args, Debug)]
pub struct GrundyArgs {
    /// The heap game, e.g. kayles, octal:0.137, grundy-game, subtraction:1,2,3.
    #[arg(value_parser = parse_heap_game)]
    pub spec: HeapGame,
    /// Compute G(0) up to G(N).
    #[arg(long, value_name = "N")]
    pub to: u64,
    /// Print one JSON object: game, values, period, preperiod, proven (and more).
    #[arg(long)]
    pub json: bool,
    /// Print the values as CSV (n,g).
    #[arg(long, conflicts_with = "json")]
    pub csv: bool,
    /// Write the values to a compact binary file (see docs/games.md).
    #[arg(long, value_name = "FILE")]
    pub out: Option<std::path::PathBuf>,
    /// Draw G(n) against n as an SVG scatter plot (the name must end in
    /// .svg).
    #[arg(long, value_name = "FILE.svg", value_parser = parse_plot_path)]
    pub plot: Option<std::path::PathBuf>,
    /// auto, naive, sparse or plain (the plain rare/common method, a
    /// baseline for benchmarks).
    #[arg(long, default_value = "auto", value_parser = parse_algorithm)]
    pub algorithm: Algorithm,
    /// Threads for the sparse method: 1, or 2 and more (two are used: one
    /// runs step 1 a round ahead while both confirm the previous round with
    /// step 2). Default: 2 when the machine has two cores or more.
    #[arg(long, value_name = "T", value_parser = parse_at_least_one)]
    pub threads: Option<usize>,
    /// The vector path of the inner loops: auto (the best this processor
    /// has), avx512, avx2, portable or none. A path the processor lacks is
    /// refused.
    #[arg(
        long,
        value_name = "PATH",
        default_value = "auto",
        env = "NIMATRON_SIMD",
        value_parser = parse_simd
    )]
    pub simd: Simd,
    /// Save progress here periodically and on Ctrl-C; resume from it if it exists.
    #[arg(long, value_name = "FILE")]
    pub checkpoint: Option<std::path::PathBuf>,
    /// Compute only the values below this heap size this time, then save the
    /// checkpoint and stop (for runs spread over several sessions).
    #[arg(long, value_name = "N", requires = "checkpoint")]
    pub stop_at: Option<u64>,
    /// The most memory to plan for, in GiB (default: 90% of the smaller of
    /// the available memory and the process's cgroup memory limit).
    #[arg(long, value_name = "GIB", value_parser = parse_gib)]
    pub memory_limit: Option<u64>,
}

#[derive(Args, Debug)]
#[command(args_conflicts_with_subcommands = true, subcommand_negates_reqs = true)]
pub struct CensusArgs {
    #[command(subcommand)]
    pub command: Option<CensusCommand>,
    #[command(flatten)]
    pub run: CensusRunArgs,
}

#[derive(Subcommand, Debug)]
pub enum CensusCommand {
    /// Merge the JSON Lines of census shards into one table.
    #[command(
        after_help = "Examples:\n  nimatron census merge shard-*.jsonl                 the table in Markdown\n  nimatron census merge --json shard-*.jsonl --out census.json\n\nThe table is the same whatever the sharding. Records of another census (digits, leading\ndigit, N), corrupt lines and missing codes are refused with exit code 2 (--partial accepts\nmissing codes)."
    )]
    Merge(CensusMergeArgs),
}

#[derive(Args, Debug)]
pub struct CensusRunArgs {
    /// Codes of up to D octal digits after the point (1 to 8).
    #[arg(long, value_name = "D", required = true)]
    pub digits: Option<u32>,
    /// The digit before the point: 0 (codes 0.d1d2...) or 4 (4.d1d2...: a
    /// heap may also be split without taking).
    #[arg(long, value_name = "0|4", default_value_t = 0)]
    pub leading: u8,
    /// Compute each code's values G(0..=N).
    #[arg(long, value_name = "N", default_value_t = 10_000)]
    pub to: u64,
    /// Run only shard I of N (the I-th of N equal parts, the codes dealt
    /// out in a fixed mixed order so that slow codes spread evenly).
    #[arg(long, value_name = "I/N", value_parser = parse_shard)]
    pub shard: Option<Shard>,
    /// Append one JSON line per code to FILE; if FILE already holds some,
    /// carry on from where it stopped.
    #[arg(long, value_name = "FILE")]
    pub out: Option<std::path::PathBuf>,
    /// Compute at most K codes this time, then stop (run again to go on).
    #[arg(long, value_name = "K")]
    pub stop_after: Option<u64>,
    /// Print the table as JSON (whole census only).
    #[arg(long, conflicts_with = "markdown")]
    pub json: bool,
    /// Print the table in Markdown (the default).
    #[arg(long)]
    pub markdown: bool,
    /// Threads per code for the sparse method (default 1: shards are the
    /// way to use more cores).
    #[arg(long, value_name = "T", default_value = "1", value_parser = parse_at_least_one)]
    pub threads: usize,
    /// The vector path: auto, avx512, avx2, portable or none (as for
    /// `grundy`).
    #[arg(
        long,
        value_name = "PATH",
        default_value = "auto",
        env = "NIMATRON_SIMD",
        value_parser = parse_simd
    )]
    pub simd: Simd,
    /// The most memory one code may plan for, in GiB (default: 90% of the
    /// smaller of the available memory and the process's cgroup memory
    /// limit, e.g. Slurm's --mem or a Kubernetes memory limit).
    #[arg(long, value_name = "GIB", value_parser = parse_gib)]
    pub memory_limit: Option<u64>,
    /// Print one line per finished code on standard error: its result,
    /// mask, largest value and the processor and clock seconds it took
    /// (for planning a census; the records themselves hold no timing).
    #[arg(long)]
    pub timing: bool,
    /// Compute once the codes that are another code of the census on
    /// heaps one smaller (a heap of one cannot move: d1 even), and derive
    /// their records from it, without mask and rare counts. A derived code
    /// goes in the shard of the code it comes from, so a shard holds other
    /// codes than without --derive: give it its own --out files.
    #[arg(long)]
    pub derive: bool,
}

#[derive(Args, Debug)]
pub struct CensusMergeArgs {
    /// The shards' JSON Lines files.
    #[arg(value_name = "FILE", required = true)]
    pub files: Vec<std::path::PathBuf>,
    /// Print the table as JSON.
    #[arg(long, conflicts_with = "markdown")]
    pub json: bool,
    /// Print the table in Markdown (the default).
    #[arg(long)]
    pub markdown: bool,
    /// Write the table to FILE instead of standard output.
    #[arg(long, value_name = "FILE")]
    pub out: Option<std::path::PathBuf>,
    /// Accept records that do not cover every code (the table says which
    /// are missing).
    #[arg(long)]
    pub partial: bool,
}

/// `nimatron quotient`.
#[derive(Args, Debug)]
pub struct QuotientArgs {
    /// The heap game: nim, kayles, octal:0.137, subtraction:1,2,3, ...
    #[arg(value_parser = parse_quotient_game)]
    pub spec: QuotientGame,
    /// The largest heap: the quotient is of the sums of heaps 1 to N.
    #[arg(long, value_name = "N", default_value_t = 20)]
    pub to: u64,
    /// Print one JSON object instead of text.
    #[arg(long)]
    pub json: bool,
    /// The most elements the quotient may have.
    #[arg(long, default_value_t = nimatron::misere::QuotientLimits::DEFAULT_MAX_ORDER, value_parser = parse_at_least_one)]
    pub max_order: usize,
    /// The most positions a search or verification may store.
    #[arg(long, default_value_t = nimatron::misere::QuotientLimits::DEFAULT_MAX_STATES, value_parser = parse_at_least_one)]
    pub max_states: usize,
    /// The longest the computation may run, in seconds.
    #[arg(long, default_value = "120", value_name = "SECONDS", value_parser = parse_seconds)]
    pub max_seconds: Duration,
}
