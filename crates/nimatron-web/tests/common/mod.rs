//! A server on an ephemeral port and a plain HTTP/1.1 client for the API
//! tests (std only, so the tests check the wire format the browser sees).
#![allow(dead_code)]

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::path::PathBuf;
use std::sync::atomic::{AtomicU32, Ordering};
use std::thread::JoinHandle;
use std::time::Duration;

use serde_json::Value;

pub struct TestServer {
    pub addr: SocketAddr,
    stop: Option<tokio::sync::oneshot::Sender<()>>,
    thread: Option<JoinHandle<()>>,
}

/// A fresh database path under the target directory.
pub fn fresh_db(name: &str) -> PathBuf {
    static COUNTER: AtomicU32 = AtomicU32::new(0);
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR"));
    let n = COUNTER.fetch_add(1, Ordering::SeqCst);
    let path = dir.join(format!("{name}-{}-{n}.sqlite3", std::process::id()));
    for suffix in ["", "-wal", "-shm"] {
        let _ = std::fs::remove_file(format!("{}{suffix}", path.display()));
    }
    path
}

/// The PostgreSQL server the tests may use (`NIMATRON_TEST_POSTGRES`, a
/// URL of a database whose user may create databases), if any.
pub fn postgres_admin() -> Option<String> {
    std::env::var("NIMATRON_TEST_POSTGRES")
        .ok()
        .filter(|s| !s.trim().is_empty())
}

/// A new, empty PostgreSQL database on the tests' server, if there is one.
pub fn fresh_postgres(name: &str) -> Option<nimatron_web::Database> {
    static COUNTER: AtomicU32 = AtomicU32::new(0);
    let admin = postgres_admin()?;
    let n = COUNTER.fetch_add(1, Ordering::SeqCst);
    let clean: String = name
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() {
                c.to_ascii_lowercase()
            } else {
                '_'
            }
        })
        .take(30)
        .collect();
    let db = format!("t_{clean}_{}_{n}", std::process::id());
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("runtime");
    runtime.block_on(async {
        let (client, connection) = tokio_postgres::connect(&admin, tokio_postgres::NoTls)
            .await
            .unwrap_or_else(|e| panic!("NIMATRON_TEST_POSTGRES={admin}: {e}"));
        let driver = tokio::spawn(connection);
        client
            .batch_execute(&format!("CREATE DATABASE {db}"))
            .await
            .expect("CREATE DATABASE");
        drop(client);
        let _ = driver.await;
    });
    // The admin URL with this database's name.
    let (head, query) = match admin.split_once('?') {
        Some((h, q)) => (h.to_string(), format!("?{q}")),
        None => (admin.clone(), String::new()),
    };
    let base = head.rsplit_once('/').map_or(head.as_str(), |(b, _)| b);
    let url = format!("{base}/{db}{query}");
    Some(nimatron_web::Database::parse(&url).expect("a database URL"))
}

/// A fresh database for a test that runs on either backend: PostgreSQL when
/// `NIMATRON_TEST_POSTGRES` names a server, else a SQLite file.
pub fn test_db(name: &str) -> nimatron_web::Database {
    fresh_postgres(name).unwrap_or_else(|| fresh_db(name).into())
}

impl TestServer {
    pub fn start(db: impl Into<nimatron_web::Database>) -> TestServer {
        TestServer::start_with(nimatron_web::Config::new(db))
    }

    pub fn start_with(config: nimatron_web::Config) -> TestServer {
        let listener = std::net::TcpListener::bind("127.0.0.1:0").expect("bind");
        let addr = listener.local_addr().expect("addr");
        listener.set_nonblocking(true).expect("nonblocking");
        let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
        let thread = std::thread::spawn(move || {
            let rt = tokio::runtime::Builder::new_multi_thread()
                .worker_threads(2)
                .enable_all()
                .build()
                .expect("runtime");
            rt.block_on(async move {
                let listener = tokio::net::TcpListener::from_std(listener).expect("listener");
                nimatron_web::serve(listener, config, async {
                    let _ = stopped.await;
                })
                .await
                .expect("serve");
            });
        });
        TestServer {
            addr,
            stop: Some(stop),
            thread: Some(thread),
        }
    }

    /// Stop gracefully and wait until the database is closed.
    pub fn stop(mut self) {
        self.shutdown();
    }

    fn shutdown(&mut self) {
        if let Some(stop) = self.stop.take() {
            let _ = stop.send(());
        }
        if let Some(t) = self.thread.take() {
            t.join().expect("server thread");
        }
    }

    pub fn get(&self, path: &str) -> (u16, Value) {
        request(self.addr, "GET", path, None, None)
    }

    pub fn post(&self, path: &str, body: &str) -> (u16, Value) {
        request(self.addr, "POST", path, None, Some(body.as_bytes()))
    }

    pub fn post_as(&self, path: &str, token: &str, body: &str) -> (u16, Value) {
        request(self.addr, "POST", path, Some(token), Some(body.as_bytes()))
    }

    /// Create a game; returns (id, token, whole reply).
    pub fn create(&self, body: &str) -> (String, String, Value) {
        let (status, reply) = self.post("/api/games", body);
        assert_eq!(status, 201, "create {body}: {reply}");
        let id = reply["game"]["id"].as_str().expect("id").to_string();
        let token = reply["token"].as_str().expect("token").to_string();
        (id, token, reply)
    }

    pub fn play(&self, id: &str, token: &str, mv: &str) -> (u16, Value) {
        let body = serde_json::json!({ "move": mv }).to_string();
        self.post_as(&format!("/api/games/{id}/moves"), token, &body)
    }
}

impl Drop for TestServer {
    fn drop(&mut self) {
        self.shutdown();
    }
}

/// One request on a fresh connection; the reply's status and JSON body.
pub fn request(
    addr: SocketAddr,
    method: &str,
    path: &str,
    token: Option<&str>,
    body: Option<&[u8]>,
) -> (u16, Value) {
    let (status, _, body) = raw_request(addr, method, path, token, body);
    let value = serde_json::from_slice(&body).unwrap_or_else(|e| {
        panic!(
            "{method} {path}: reply {status} is not JSON ({e}): {}",
            String::from_utf8_lossy(&body)
        )
    });
    (status, value)
}

/// One request; status, lower-cased headers and body bytes.
pub fn raw_request(
    addr: SocketAddr,
    method: &str,
    path: &str,
    token: Option<&str>,
    body: Option<&[u8]>,
) -> (u16, String, Vec<u8>) {
    let mut stream = TcpStream::connect(addr).expect("connect");
    stream
        .set_read_timeout(Some(Duration::from_secs(60)))
        .expect("timeout");
    let mut head = format!("{method} {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n");
    if let Some(t) = token {
        head.push_str(&format!("Authorization: Bearer {t}\r\n"));
    }
    if let Some(b) = body {
        head.push_str(&format!(
            "Content-Type: application/json\r\nContent-Length: {}\r\n",
            b.len()
        ));
    }
    head.push_str("\r\n");
    stream.write_all(head.as_bytes()).expect("write head");
    if let Some(b) = body {
        // The server may refuse an oversized body before reading it all.
        let _ = stream.write_all(b);
    }
    let mut reader = BufReader::new(stream);
    let (status, headers) = read_head(&mut reader);
    let mut body = Vec::new();
    if headers.contains("transfer-encoding: chunked") {
        let mut chunks = Chunked::new(reader);
        chunks.read_to_end(&mut body).expect("read chunked body");
    } else {
        reader.read_to_end(&mut body).expect("read body");
    }
    (status, headers, body)
}

fn read_head(reader: &mut impl BufRead) -> (u16, String) {
    let mut line = String::new();
    reader.read_line(&mut line).expect("status line");
    let status: u16 = line
        .split_whitespace()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or_else(|| panic!("bad status line {line:?}"));
    let mut headers = String::new();
    loop {
        line.clear();
        reader.read_line(&mut line).expect("header");
        if line == "\r\n" || line.is_empty() {
            break;
        }
        headers.push_str(&line.to_ascii_lowercase());
    }
    (status, headers)
}

/// A chunked transfer-encoding decoder.
pub struct Chunked<R> {
    inner: R,
    left: usize,
    done: bool,
}

impl<R: BufRead> Chunked<R> {
    pub fn new(inner: R) -> Chunked<R> {
        Chunked {
            inner,
            left: 0,
            done: false,
        }
    }
}

impl<R: BufRead> Read for Chunked<R> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        if self.done {
            return Ok(0);
        }
        if self.left == 0 {
            let mut line = String::new();
            self.inner.read_line(&mut line)?;
            if line == "\r\n" {
                line.clear();
                self.inner.read_line(&mut line)?;
            }
            let size = usize::from_str_radix(line.trim(), 16).map_err(|_| {
                std::io::Error::new(std::io::ErrorKind::InvalidData, format!("chunk {line:?}"))
            })?;
            if size == 0 {
                self.done = true;
                return Ok(0);
            }
            self.left = size;
        }
        let n = buf.len().min(self.left);
        let got = self.inner.read(&mut buf[..n])?;
        self.left -= got;
        Ok(got)
    }
}

/// A live-update subscription: yields each `state` event's JSON.
pub struct Events {
    lines: std::io::Lines<BufReader<Chunked<BufReader<TcpStream>>>>,
}

impl Events {
    pub fn open(addr: SocketAddr, id: &str) -> Events {
        let mut stream = TcpStream::connect(addr).expect("connect");
        stream
            .set_read_timeout(Some(Duration::from_secs(20)))
            .expect("timeout");
        let head = format!(
            "GET /api/games/{id}/events HTTP/1.1\r\nHost: {addr}\r\nAccept: text/event-stream\r\n\r\n"
        );
        stream.write_all(head.as_bytes()).expect("write");
        let mut reader = BufReader::new(stream);
        let (status, headers) = read_head(&mut reader);
        assert_eq!(status, 200, "events: {headers}");
        assert!(
            headers.contains("content-type: text/event-stream"),
            "{headers}"
        );
        Events {
            lines: BufReader::new(Chunked::new(reader)).lines(),
        }
    }

    /// The next `state` event.
    pub fn next_state(&mut self) -> Value {
        let mut event = String::new();
        for line in self.lines.by_ref() {
            let line = line.expect("event line");
            if let Some(name) = line.strip_prefix("event: ") {
                event = name.to_string();
            } else if let Some(data) = line.strip_prefix("data: ")
                && event == "state"
            {
                return serde_json::from_str(data).expect("event JSON");
            }
        }
        panic!("the event stream ended");
    }
}

/// The heaps of a game view.
pub fn heaps(game: &Value) -> Vec<u64> {
    game["heaps"]
        .as_array()
        .expect("heaps")
        .iter()
        .map(|h| h.as_u64().expect("heap"))
        .collect()
}

/// A winning Nim move by Bouton's rule (normal play), computed here from
/// scratch: the heap to reduce and the new size. None at nim-sum 0.
pub fn bouton_move(heaps: &[u64]) -> Option<(usize, u64)> {
    let x = heaps.iter().fold(0, |a, &h| a ^ h);
    if x == 0 {
        return None;
    }
    heaps
        .iter()
        .enumerate()
        .find(|&(_, &h)| h ^ x < h)
        .map(|(i, &h)| (i, h - (h ^ x)))
}

/// `A 2` for heap 0, take 2.
pub fn nim_move(heap: usize, take: u64) -> String {
    format!("{} {take}", (b'A' + heap as u8) as char)
}

/// Every move in a game view follows from the one before by a legal Nim
/// move (one heap reduced), seats alternate from `first_seat`, and the
/// position is the last move's result.
pub fn check_nim_history(game: &Value) {
    let moves = game["moves"].as_array().expect("moves");
    let mut position = game["start"].as_str().unwrap().to_string();
    let mut seat = game["first_seat"].as_u64().unwrap();
    for (i, m) in moves.iter().enumerate() {
        assert_eq!(m["ply"].as_u64().unwrap(), i as u64 + 1, "{m}");
        assert_eq!(m["before"].as_str().unwrap(), position, "ply {}", i + 1);
        assert_eq!(m["seat"].as_u64().unwrap(), seat, "ply {}", i + 1);
        let parse =
            |s: &str| -> Vec<u64> { s.split_whitespace().map(|w| w.parse().unwrap()).collect() };
        let before = parse(&position);
        let after = parse(m["after"].as_str().unwrap());
        assert_eq!(before.len(), after.len());
        let changed: Vec<usize> = (0..before.len())
            .filter(|&h| before[h] != after[h])
            .collect();
        assert_eq!(changed.len(), 1, "ply {}: {position} -> {after:?}", i + 1);
        assert!(after[changed[0]] < before[changed[0]], "ply {}", i + 1);
        position = m["after"].as_str().unwrap().to_string();
        seat = 1 - seat;
    }
    assert_eq!(game["position"].as_str().unwrap(), position);
    assert_eq!(game["ply"].as_u64().unwrap(), moves.len() as u64);
    assert_eq!(game["to_move"].as_u64().unwrap(), seat);
    let empty = heaps(game).iter().all(|&h| h == 0);
    assert_eq!(game["status"] == "over", empty, "{game}");
}

/// A concrete spec for each catalogue entry (parameters filled in).
pub fn concrete(syntax: &str) -> &'static str {
    let name = syntax.split(['[', ':']).next().unwrap_or(syntax);
    match name {
        "nim" => "nim",
        "subtraction" => "subtraction:1,2,3",
        "modular" => "modular:3:1,2",
        "octal" => "octal:0.137",
        "kayles" => "kayles",
        "dawson" => "dawson",
        "officers" => "officers",
        "treblecross" => "treblecross",
        "double-kayles" => "double-kayles",
        "grundy-game" => "grundy-game",
        "twenty-one" => "twenty-one:3,21",
        "hundred" => "hundred:10,100",
        "wythoff" => "wythoff",
        "circular" => "circular:3",
        "greedy" => "greedy",
        "moore" => "moore:2",
        "fibonacci" => "fibonacci",
        "chomp" => "chomp:3x4",
        "board" => "board:2x3",
        "node-kayles" => "node-kayles",
        "graph-nim" => "graph-nim",
        "building" => "building:4,3",
        "candy" => "candy",
        "wordnim" => "wordnim",
        "hackenbush" => "hackenbush",
        "notakto" => "notakto:3",
        other => panic!("catalogue entry '{other}' has no concrete spec in this test: add one"),
    }
}
