//! Load and durability runs against `nimatron serve` (see docs/benchmarks.md).
//!
//! ```text
//! load run    --addr 127.0.0.1:8080[,127.0.0.1:8081...] --players 200 --seconds 20 [--think-ms 0] [--log FILE]
//! load verify --db FILE|URL --log FILE
//! ```
//!
//! `run`: each player is a thread with its own keep-alive connection. It
//! creates a Nim game against the perfect computer (heaps 5 6 7 8), makes
//! random legal moves until the game ends, then starts another. Every move
//! request's latency is recorded; the computer's reply is part of it. With
//! `--log`, every move a success reply reported applied is written as
//! `GAME PLY NOTATION AFTER`. With several addresses (app servers sharing
//! one PostgreSQL database), player N starts on server N mod the count and
//! moves to the next server when its connection fails, as a load balancer
//! would send it. The run ends after `--seconds`, or when every player has
//! failed for 15 s on end (the servers have gone), and prints moves/s and
//! latency percentiles.
//!
//! `verify`: checks that every logged move is in the database (a SQLite
//! file or a `postgres://` URL), as logged.
//!
//! ```text
//! load attack --addr 127.0.0.1:8080 --kind KIND --clients N --seconds S
//! ```
//!
//! `attack`: hostile clients, each from its own loopback address (127.0.1.N,
//! so that the server counts each as a client of its own), for `--seconds`:
//!
//! - `huge-analysis`: `POST /api/analyze` of Moore's Nim (K = 3) on ten
//!   heaps of 30, about 60 bytes for millions of moves (issue #50 point 1);
//! - `big-views`: many views of a game with tens of thousands of legal
//!   moves, a creation refused for its millions, and event streams that
//!   never read (point 2);
//! - `analyses`: `POST /api/analyze` of Chomp on a full 17×17 board in a
//!   loop (point 3);
//! - `game-analysis`: `GET …/analysis` of a 12-move Node Kayles game from a
//!   cycle of 60 in a loop (point 4);
//! - `slow`: connections that send their header a byte every second, and
//!   connections that send nothing (point 5).
//!
//! It prints how each client's requests were answered. In `run`, each
//! player connects from its own address too (127.0.2.N).

use std::collections::HashMap;
use std::io::{BufRead, BufReader, BufWriter, Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use nimatron::SplitMix64;
use serde_json::Value;

struct Conn {
    addr: SocketAddr,
    /// Every server; on a failed connection the next is tried.
    servers: Vec<SocketAddr>,
    /// The loopback address to connect from, if any.
    from: Option<std::net::IpAddr>,
    reader: Option<BufReader<TcpStream>>,
}

/// A connection to `addr` from the loopback address `from`.
fn connect_from(addr: SocketAddr, from: Option<std::net::IpAddr>) -> std::io::Result<TcpStream> {
    let Some(ip) = from else {
        return TcpStream::connect(addr);
    };
    let socket = socket2::Socket::new(socket2::Domain::IPV4, socket2::Type::STREAM, None)?;
    socket.bind(&SocketAddr::new(ip, 0).into())?;
    socket.connect(&addr.into())?;
    Ok(socket.into())
}

/// The loopback address of client `n` of a group (127.0.G.N, N from 1).
fn client_ip(group: u8, n: u64) -> std::net::IpAddr {
    std::net::IpAddr::V4(std::net::Ipv4Addr::new(
        127,
        group.wrapping_add((n / 250) as u8),
        0,
        1 + (n % 250) as u8,
    ))
}

impl Conn {
    /// The next server, after a failed connection.
    fn fail_over(&mut self) {
        if let Some(i) = self.servers.iter().position(|a| *a == self.addr) {
            self.addr = self.servers[(i + 1) % self.servers.len()];
        }
    }

    fn request(
        &mut self,
        method: &str,
        path: &str,
        token: Option<&str>,
        body: &str,
    ) -> Result<(u16, Value), String> {
        if self.reader.is_none() {
            let s = match connect_from(self.addr, self.from) {
                Ok(s) => s,
                Err(e) => {
                    self.fail_over();
                    return Err(e.to_string());
                }
            };
            s.set_nodelay(true).ok();
            s.set_read_timeout(Some(Duration::from_secs(30))).ok();
            self.reader = Some(BufReader::new(s));
        }
        let result = self.exchange(method, path, token, body);
        if result.is_err() {
            self.reader = None;
            self.fail_over();
        }
        result
    }

    fn exchange(
        &mut self,
        method: &str,
        path: &str,
        token: Option<&str>,
        body: &str,
    ) -> Result<(u16, Value), String> {
        let reader = self.reader.as_mut().expect("connected");
        let mut head = format!(
            "{method} {path} HTTP/1.1\r\nHost: {}\r\nContent-Type: application/json\r\nContent-Length: {}\r\n",
            self.addr,
            body.len()
        );
        if let Some(t) = token {
            head.push_str(&format!("Authorization: Bearer {t}\r\n"));
        }
        head.push_str("\r\n");
        head.push_str(body);
        reader
            .get_mut()
            .write_all(head.as_bytes())
            .map_err(|e| e.to_string())?;
        let mut line = String::new();
        if reader.read_line(&mut line).map_err(|e| e.to_string())? == 0 {
            return Err("connection closed".into());
        }
        let status: u16 = line
            .split_whitespace()
            .nth(1)
            .and_then(|s| s.parse().ok())
            .ok_or_else(|| format!("bad status line {line:?}"))?;
        let mut length = None;
        loop {
            line.clear();
            reader.read_line(&mut line).map_err(|e| e.to_string())?;
            if line == "\r\n" || line.is_empty() {
                break;
            }
            let lower = line.to_ascii_lowercase();
            if let Some(v) = lower.strip_prefix("content-length:") {
                length = v.trim().parse::<usize>().ok();
            }
        }
        let length = length.ok_or("reply without content-length")?;
        let mut buf = vec![0; length];
        reader.read_exact(&mut buf).map_err(|e| e.to_string())?;
        let value = serde_json::from_slice(&buf).map_err(|e| e.to_string())?;
        Ok((status, value))
    }
}

struct Shared {
    stop: AtomicBool,
    moves: AtomicU64,
    games: AtomicU64,
    errors: AtomicU64,
    refused: AtomicU64,
    latencies: Mutex<Vec<u32>>,
    log: Option<Mutex<BufWriter<std::fs::File>>>,
}

/// How long a player goes on failing before it stops.
const GIVE_UP: Duration = Duration::from_secs(15);

fn player(servers: Vec<SocketAddr>, seed: u64, think: Duration, shared: Arc<Shared>) {
    let mut rng = SplitMix64::new(seed);
    let n = (seed - 0x5EED) as usize;
    let mut conn = Conn {
        addr: servers[n % servers.len()],
        servers,
        from: Some(client_ip(2, seed - 0x5EED)),
        reader: None,
    };
    let mut latencies = Vec::new();
    let mut failing_since: Option<Instant> = None;
    let failed = |since: &mut Option<Instant>| -> bool {
        since.get_or_insert_with(Instant::now).elapsed() > GIVE_UP
    };
    let pause = |rng: &mut SplitMix64| {
        if !think.is_zero() {
            let ms = think.as_millis() as u64;
            std::thread::sleep(Duration::from_millis(ms / 2 + rng.below(ms + 1)));
        }
    };
    // Spread the start so that the players do not move in lock step.
    if !think.is_zero() {
        std::thread::sleep(Duration::from_millis(
            rng.below(think.as_millis() as u64 + 1),
        ));
    }
    'games: while !shared.stop.load(Ordering::Relaxed) {
        let created = conn.request(
            "POST",
            "/api/games",
            None,
            r#"{"position":"5 6 7 8","level":"perfect"}"#,
        );
        let (id, token, mut game) = match created {
            Ok((201, v)) => (
                v["game"]["id"].as_str().unwrap_or_default().to_string(),
                v["token"].as_str().unwrap_or_default().to_string(),
                v["game"].clone(),
            ),
            _ => {
                shared.errors.fetch_add(1, Ordering::Relaxed);
                if failed(&mut failing_since) {
                    break;
                }
                std::thread::sleep(Duration::from_millis(50));
                continue;
            }
        };
        shared.games.fetch_add(1, Ordering::Relaxed);
        while game["status"] == "playing" && !shared.stop.load(Ordering::Relaxed) {
            pause(&mut rng);
            let legal = game["legal_moves"].as_array().cloned().unwrap_or_default();
            if legal.is_empty() {
                break;
            }
            let mv = legal[rng.below(legal.len() as u64) as usize]["notation"].clone();
            let body = serde_json::json!({ "move": mv, "ply": game["ply"] }).to_string();
            let t = Instant::now();
            let reply = conn.request(
                "POST",
                &format!("/api/games/{id}/moves"),
                Some(&token),
                &body,
            );
            let micros = t.elapsed().as_micros().min(u32::MAX as u128) as u32;
            match reply {
                Ok((200, v)) => {
                    failing_since = None;
                    latencies.push(micros);
                    shared.moves.fetch_add(1, Ordering::Relaxed);
                    if let Some(log) = &shared.log {
                        let mut log = log.lock().unwrap_or_else(|e| e.into_inner());
                        for m in v["applied"].as_array().into_iter().flatten() {
                            let _ = writeln!(
                                log,
                                "{id} {} {} {}",
                                m["ply"],
                                m["notation"].as_str().unwrap_or_default().replace(' ', "_"),
                                m["after"].as_str().unwrap_or_default().replace(' ', "_")
                            );
                        }
                    }
                    game = v["game"].clone();
                }
                Ok((_, _)) => {
                    shared.refused.fetch_add(1, Ordering::Relaxed);
                    continue 'games;
                }
                Err(_) => {
                    shared.errors.fetch_add(1, Ordering::Relaxed);
                    if failed(&mut failing_since) {
                        break 'games;
                    }
                    continue 'games;
                }
            }
        }
    }
    shared
        .latencies
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .extend(latencies);
}

fn percentile(sorted: &[u32], p: f64) -> f64 {
    if sorted.is_empty() {
        return f64::NAN;
    }
    let i = ((sorted.len() as f64 - 1.0) * p).round() as usize;
    sorted[i] as f64 / 1000.0
}

fn run(args: &HashMap<String, String>) -> Result<(), String> {
    let servers: Vec<SocketAddr> = args
        .get("addr")
        .map(String::as_str)
        .unwrap_or("127.0.0.1:8080")
        .split(',')
        .map(|a| a.trim().parse().map_err(|e| format!("--addr {a}: {e}")))
        .collect::<Result<_, _>>()?;
    let players: u64 = args
        .get("players")
        .map_or(Ok(200), |s| s.parse())
        .map_err(|e| format!("--players: {e}"))?;
    let seconds: u64 = args
        .get("seconds")
        .map_or(Ok(20), |s| s.parse())
        .map_err(|e| format!("--seconds: {e}"))?;
    let think = Duration::from_millis(
        args.get("think-ms")
            .map_or(Ok(0), |s| s.parse())
            .map_err(|e| format!("--think-ms: {e}"))?,
    );
    let log = match args.get("log") {
        Some(path) => Some(Mutex::new(BufWriter::new(
            std::fs::File::create(path).map_err(|e| format!("{path}: {e}"))?,
        ))),
        None => None,
    };
    let shared = Arc::new(Shared {
        stop: AtomicBool::new(false),
        moves: AtomicU64::new(0),
        games: AtomicU64::new(0),
        errors: AtomicU64::new(0),
        refused: AtomicU64::new(0),
        latencies: Mutex::new(Vec::new()),
        log,
    });
    let start = Instant::now();
    let threads: Vec<_> = (0..players)
        .map(|p| {
            let shared = shared.clone();
            std::thread::Builder::new()
                .stack_size(256 * 1024)
                .spawn({
                    let servers = servers.clone();
                    move || player(servers, 0x5EED + p, think, shared)
                })
                .expect("thread")
        })
        .collect();
    let deadline = start + Duration::from_secs(seconds);
    let mut last = 0;
    while Instant::now() < deadline && threads.iter().any(|t| !t.is_finished()) {
        std::thread::sleep(Duration::from_secs(1));
        let now = shared.moves.load(Ordering::Relaxed);
        eprintln!(
            "{:>5.1} s  {:>7} moves  {:>6} moves/s  errors {}",
            start.elapsed().as_secs_f64(),
            now,
            now - last,
            shared.errors.load(Ordering::Relaxed)
        );
        last = now;
    }
    shared.stop.store(true, Ordering::Relaxed);
    for t in threads {
        let _ = t.join();
    }
    let elapsed = start.elapsed().as_secs_f64();
    if let Some(log) = &shared.log {
        log.lock()
            .unwrap_or_else(|e| e.into_inner())
            .flush()
            .map_err(|e| e.to_string())?;
    }
    let mut lat = shared
        .latencies
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .clone();
    lat.sort_unstable();
    let moves = shared.moves.load(Ordering::Relaxed);
    println!(
        "players {players}, think {} ms, {elapsed:.1} s: {moves} moves ({:.0} moves/s), {} games, {} refused, {} errors",
        think.as_millis(),
        moves as f64 / elapsed,
        shared.games.load(Ordering::Relaxed),
        shared.refused.load(Ordering::Relaxed),
        shared.errors.load(Ordering::Relaxed)
    );
    println!(
        "move latency ms: p50 {:.2}  p90 {:.2}  p99 {:.2}  max {:.2}",
        percentile(&lat, 0.5),
        percentile(&lat, 0.9),
        percentile(&lat, 0.99),
        percentile(&lat, 1.0)
    );
    Ok(())
}

fn verify(args: &HashMap<String, String>) -> Result<(), String> {
    let db = args.get("db").ok_or("verify needs --db FILE|URL")?;
    let log = args.get("log").ok_or("verify needs --log FILE")?;
    let database = nimatron_web::Database::parse(db)?;
    if let nimatron_web::Database::Sqlite(path) = &database
        && !path.exists()
    {
        return Err(format!("{db}: no such file"));
    }
    let store = nimatron_web::store::open(&database, nimatron_web::Durability::default(), 2)
        .map_err(|e| format!("{db}: {e}"))?;
    let text = std::fs::read_to_string(log).map_err(|e| format!("{log}: {e}"))?;
    let mut games: HashMap<String, Vec<nimatron_web::store::MoveRecord>> = HashMap::new();
    let (mut checked, mut missing) = (0u64, 0u64);
    for line in text.lines() {
        let w: Vec<&str> = line.split(' ').collect();
        let [id, ply, notation, after] = w.as_slice() else {
            return Err(format!("bad log line {line:?}"));
        };
        let ply: u32 = ply.parse().map_err(|_| format!("bad ply in {line:?}"))?;
        if !games.contains_key(*id) {
            let moves = store.moves(id).map_err(|e| e.to_string())?;
            games.insert(id.to_string(), moves);
        }
        let row = games[*id].iter().find(|m| m.ply == ply);
        checked += 1;
        match row {
            Some(m)
                if m.notation.replace(' ', "_") == *notation
                    && m.after.replace(' ', "_") == *after => {}
            other => {
                missing += 1;
                if missing <= 10 {
                    eprintln!("not stored as acknowledged: {line} (database has {other:?})");
                }
            }
        }
    }
    let total = store.count().map_err(|e| e.to_string())?;
    println!(
        "acknowledged moves checked: {checked}; missing or different: {missing}; games in the database: {total}"
    );
    if missing > 0 {
        return Err(format!(
            "{missing} acknowledged moves are not in the database"
        ));
    }
    Ok(())
}

/// How a hostile client's requests were answered.
#[derive(Default)]
struct Tally {
    statuses: Mutex<HashMap<String, u64>>,
}

impl Tally {
    fn note(&self, what: String) {
        *self
            .statuses
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .entry(what)
            .or_default() += 1;
    }
}

fn answered(r: &Result<(u16, Value), String>) -> String {
    match r {
        Ok((status, v)) => match v["error"]["code"].as_str() {
            Some(code) => format!("{status} {code}"),
            None => status.to_string(),
        },
        Err(e) if e.contains("timed out") || e.contains("WouldBlock") => "timeout".into(),
        Err(_) => "connection error".into(),
    }
}

fn attacker(addr: SocketAddr, kind: &str, n: u64, deadline: Instant, tally: &Tally) {
    let mut conn = Conn {
        addr,
        servers: vec![addr],
        from: Some(client_ip(1, n)),
        reader: None,
    };
    let json = |c: &mut Conn, method: &str, path: &str, body: &str| {
        let r = c.request(method, path, None, body);
        tally.note(format!(
            "{method} {}: {}",
            path.split('/').take(3).collect::<Vec<_>>().join("/"),
            answered(&r)
        ));
        r
    };
    match kind {
        "huge-analysis" => {
            let body = r#"{"game":"moore:3","position":"30 30 30 30 30 30 30 30 30 30"}"#;
            while Instant::now() < deadline {
                if json(&mut conn, "POST", "/api/analyze", body).is_err() {
                    std::thread::sleep(Duration::from_millis(20));
                }
            }
        }
        "analyses" => {
            let body = r#"{"game":"chomp:17x17","position":"full"}"#;
            while Instant::now() < deadline {
                match json(&mut conn, "POST", "/api/analyze", body) {
                    // Told to retry: a hammering client retries at once.
                    Ok(_) => {}
                    Err(_) => std::thread::sleep(Duration::from_millis(20)),
                }
            }
        }
        "big-views" => {
            // A creation refused for its millions of moves.
            let _ = json(
                &mut conn,
                "POST",
                "/api/games",
                r#"{"game":"moore:4","position":"30 30 30 30 30 30","opponent":"local"}"#,
            );
            // A game within the limits with tens of thousands of moves.
            let Ok((201, v)) = json(
                &mut conn,
                "POST",
                "/api/games",
                r#"{"game":"moore:3","position":"12 12 12 12 12 12","opponent":"local"}"#,
            ) else {
                return;
            };
            let id = v["game"]["id"].as_str().unwrap_or_default().to_string();
            // Event streams that never read.
            let mut streams = Vec::new();
            for _ in 0..8 {
                if let Ok(mut s) = connect_from(addr, conn.from) {
                    let _ = s.write_all(
                        format!("GET /api/games/{id}/events HTTP/1.1\r\nHost: {addr}\r\n\r\n")
                            .as_bytes(),
                    );
                    streams.push(s);
                }
            }
            let path = format!("/api/games/{id}");
            while Instant::now() < deadline {
                if json(&mut conn, "GET", &path, "").is_err() {
                    std::thread::sleep(Duration::from_millis(20));
                }
            }
            drop(streams);
        }
        "game-analysis" => {
            let Ok((201, v)) = json(
                &mut conn,
                "POST",
                "/api/games",
                r#"{"game":"node-kayles","position":"cycle:60","opponent":"local"}"#,
            ) else {
                return;
            };
            let id = v["game"]["id"].as_str().unwrap_or_default().to_string();
            let token = v["token"].as_str().unwrap_or_default().to_string();
            let mut game = v["game"].clone();
            for _ in 0..12 {
                let Some(mv) = game["legal_moves"][0]["notation"].as_str() else {
                    break;
                };
                let body = serde_json::json!({ "move": mv }).to_string();
                match conn.request(
                    "POST",
                    &format!("/api/games/{id}/moves"),
                    Some(&token),
                    &body,
                ) {
                    Ok((200, r)) => game = r["game"].clone(),
                    _ => break,
                }
            }
            let path = format!("/api/games/{id}/analysis");
            while Instant::now() < deadline {
                if json(&mut conn, "GET", &path, "").is_err() {
                    std::thread::sleep(Duration::from_millis(20));
                }
            }
        }
        "slow" => {
            // Half send a header a byte a second; half send nothing. Each is
            // reopened when the server closes it.
            let mut open: Vec<(TcpStream, usize)> = Vec::new();
            let header = format!(
                "GET / HTTP/1.1\r\nHost: {addr}\r\nX-Pad: {}\r\n",
                "a".repeat(200)
            );
            let target = 100usize;
            while Instant::now() < deadline {
                while open.len() < target {
                    match connect_from(addr, conn.from) {
                        Ok(s) => {
                            s.set_nonblocking(true).ok();
                            open.push((s, 0));
                            tally.note("slow: opened".into());
                        }
                        Err(_) => {
                            tally.note("slow: connect refused".into());
                            break;
                        }
                    }
                }
                let mut kept = Vec::new();
                for (i, (mut s, sent)) in open.drain(..).enumerate() {
                    let mut buf = [0u8; 512];
                    let closed = matches!(s.read(&mut buf), Ok(0))
                        || (i % 2 == 0
                            && sent < header.len()
                            && s.write_all(&header.as_bytes()[sent..sent + 1]).is_err());
                    if closed {
                        tally.note("slow: closed by the server".into());
                    } else {
                        kept.push((s, sent + usize::from(i % 2 == 0)));
                    }
                }
                open = kept;
                std::thread::sleep(Duration::from_secs(1));
            }
        }
        other => {
            eprintln!("unknown attack '{other}'");
        }
    }
}

fn attack(args: &HashMap<String, String>) -> Result<(), String> {
    let addr: SocketAddr = args
        .get("addr")
        .map(String::as_str)
        .unwrap_or("127.0.0.1:8080")
        .parse()
        .map_err(|e| format!("--addr: {e}"))?;
    let kind = args.get("kind").cloned().ok_or("attack needs --kind")?;
    let clients: u64 = args
        .get("clients")
        .map_or(Ok(16), |s| s.parse())
        .map_err(|e| format!("--clients: {e}"))?;
    let seconds: u64 = args
        .get("seconds")
        .map_or(Ok(20), |s| s.parse())
        .map_err(|e| format!("--seconds: {e}"))?;
    let deadline = Instant::now() + Duration::from_secs(seconds);
    let tally = Arc::new(Tally::default());
    let threads: Vec<_> = (0..clients)
        .map(|n| {
            let tally = tally.clone();
            let kind = kind.clone();
            std::thread::Builder::new()
                .stack_size(256 * 1024)
                .spawn(move || attacker(addr, &kind, n, deadline, &tally))
                .expect("thread")
        })
        .collect();
    for t in threads {
        let _ = t.join();
    }
    let statuses = tally.statuses.lock().unwrap_or_else(|e| e.into_inner());
    let mut lines: Vec<_> = statuses.iter().collect();
    lines.sort();
    let summary: Vec<String> = lines.iter().map(|(k, v)| format!("{k} ×{v}")).collect();
    println!(
        "attack {kind}, {clients} clients, {seconds} s: {}",
        summary.join("; ")
    );
    Ok(())
}

fn main() {
    let argv: Vec<String> = std::env::args().skip(1).collect();
    let mut args = HashMap::new();
    let mut i = 1;
    while i < argv.len() {
        if let Some(k) = argv[i].strip_prefix("--") {
            args.insert(k.to_string(), argv.get(i + 1).cloned().unwrap_or_default());
            i += 2;
        } else {
            i += 1;
        }
    }
    let result = match argv.first().map(String::as_str) {
        Some("run") => run(&args),
        Some("verify") => verify(&args),
        Some("attack") => attack(&args),
        _ => Err("usage: load run --addr HOST:PORT[,HOST:PORT...] --players N --seconds S [--think-ms MS] [--log FILE] | load verify --db FILE|URL --log FILE | load attack --addr HOST:PORT --kind KIND --clients N --seconds S".into()),
    };
    if let Err(e) = result {
        eprintln!("error: {e}");
        std::process::exit(1);
    }
}
