//! `web_api`: requests sent to the web app's router in process, over a
//! SQLite file of its own. The input is a script of at most
//! [`MAX_REQUESTS`] requests separated by lines `===`; each is written as
//! on the wire, without the version:
//!
//! ```text
//! POST /api/games/{id}/moves
//! Authorization: Bearer {token}
//!
//! {"move": "A 2"}
//! ```
//!
//! `{id}`, `{token}` and `{invite}` stand for the game id, seat token and
//! invite code of the latest successful reply that gave one, so a script
//! can create a game and then play, join or watch it.
//!
//! Every reply is checked: never a 5xx (nor a panic); every reply under
//! `/api` other than a live-update stream is JSON, and every refusal there
//! has the documented shape `{"error": {"code", "message"}}`; and the stored
//! games and moves change only on a 2xx, and never on a `GET` or `HEAD`.
//! Each script starts from an empty database. With `NIMATRON_FUZZ_VERBOSE`
//! set, each request and its status are printed (to check new seeds).

use std::path::{Path, PathBuf};
use std::sync::{Mutex, OnceLock};
use std::time::Duration;

use axum::Router;
use axum::body::Body;
use axum::http::{HeaderName, HeaderValue, Method, Request, Uri, header};
use nimatron::Limits;
use rusqlite::Connection;
use serde_json::Value;
use tower::ServiceExt;

/// The most requests one input sends.
pub const MAX_REQUESTS: usize = 4;

/// The solver limits of the server under test: small, so that every
/// request is quick (a search past them is a 422, as on a real server).
/// Analyses of large Node Kayles and Nim positions pile up in a long run's
/// corpus: with 20 000 positions and 200 ms, a sample of 300 of its inputs
/// took 69 ms each on average; with 2 000 and 20 ms, 15 ms, and a run of
/// 10^7 still slowed to 1 000 inputs a second within 15 minutes, most of it
/// in Node Kayles' canonical forms. Every path past a limit is still taken.
pub const LIMITS: Limits = Limits::states(500).with_time(Duration::from_millis(5));

/// How far Explore computes a heap game's values in the server under test
/// when the request asks for less: 100 rather than 10 000 (it always
/// computes to the N asked for, at most 1 000). Every new code an input
/// explores costs a sequence: at 10 000 such inputs took up to a second
/// under the fuzzer's instrumentation, and at 1 000 the sequences still
/// took a tenth of a long run.
pub const EXPLORE_TO: u64 = 100;

/// A server in process: the router, a runtime to call it on, and a
/// connection of our own to the same database to see what changed.
pub struct Harness {
    runtime: tokio::runtime::Runtime,
    app: Router,
    db: Mutex<Connection>,
    path: PathBuf,
    _stop: tokio::sync::watch::Sender<bool>,
}

/// What the database holds: every game row's state and every move's key.
#[derive(Debug, PartialEq, Eq)]
struct Digest(Vec<String>);

impl Harness {
    /// A server over a new database file in `dir`.
    pub fn new(dir: &Path) -> Harness {
        let path = dir.join(format!("nimatron-fuzz-web-{}.sqlite3", std::process::id()));
        remove_database(&path);
        let mut config = nimatron_web::Config::new(&path);
        config.limits = LIMITS;
        config.explore_to = EXPLORE_TO;
        let (stop, stopped) = tokio::sync::watch::channel(false);
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .expect("a runtime");
        let app = {
            let _entered = runtime.enter();
            nimatron_web::app(&config, stopped).expect("the database opens")
        };
        let db = Connection::open(&path).expect("the database opens");
        db.busy_timeout(Duration::from_secs(10))
            .expect("a busy timeout");
        Harness {
            runtime,
            app,
            db: Mutex::new(db),
            path,
            _stop: stop,
        }
    }

    /// The database file.
    pub fn path(&self) -> &Path {
        &self.path
    }

    fn digest(&self) -> Digest {
        let db = self.db.lock().unwrap_or_else(|e| e.into_inner());
        let mut rows = Vec::new();
        let mut read = |sql: &str| {
            let mut stmt = db.prepare_cached(sql).expect("the schema");
            let found = stmt
                .query_map([], |r| r.get::<_, String>(0))
                .expect("a query")
                .collect::<Result<Vec<_>, _>>()
                .expect("rows");
            rows.extend(found);
        };
        read(
            "SELECT id || '|' || position || '|' || ply || '|' || status || '|' || to_move || '|'
                || ifnull(winner, '-') || '|' || ifnull(token1, '-') || '|' || updated_at
             FROM games ORDER BY id",
        );
        read("SELECT game_id || '|' || ply || '|' || after FROM moves ORDER BY game_id, ply");
        Digest(rows)
    }

    fn clear(&self) {
        let db = self.db.lock().unwrap_or_else(|e| e.into_inner());
        db.execute_batch("DELETE FROM moves; DELETE FROM games;")
            .expect("the database clears");
    }

    /// Check one input.
    pub fn check(&self, data: &[u8]) {
        let mut vars = Vars::default();
        for script in split(data).take(MAX_REQUESTS) {
            let Some((request, method, uri)) = build_request(&vars.substitute(script)) else {
                continue;
            };
            let before = self.digest();
            let (status, json) = self.runtime.block_on(self.send(request, &method, &uri));
            let after = self.digest();
            let what = format!("{method} {uri} -> {status}");
            if std::env::var_os("NIMATRON_FUZZ_VERBOSE").is_some() {
                eprintln!("{what}");
            }
            assert!(status < 500, "{what}: {json:?}");
            if method == Method::GET || method == Method::HEAD {
                assert_eq!(before, after, "{what}: a {method} changed the stored games");
            }
            if !(200..300).contains(&status) {
                assert_eq!(before, after, "{what}: a refusal changed the stored games");
            }
            if let Some(json) = json {
                if !(200..300).contains(&status) {
                    let error = &json["error"];
                    assert!(
                        error["code"].is_string() && error["message"].is_string(),
                        "{what}: a refusal without {{\"error\": {{\"code\", \"message\"}}}}: {json}"
                    );
                } else {
                    vars.learn(&json);
                }
            }
        }
        self.clear();
    }

    /// Send one request; its status, and its JSON body for an API reply
    /// (none for a live-update stream or a `HEAD`).
    async fn send(
        &self,
        request: Request<Body>,
        method: &Method,
        uri: &Uri,
    ) -> (u16, Option<Value>) {
        let response = self
            .app
            .clone()
            .oneshot(request)
            .await
            .unwrap_or_else(|e| match e {});
        let status = response.status().as_u16();
        let stream = response
            .headers()
            .get(header::CONTENT_TYPE)
            .is_some_and(|v| v.as_bytes().starts_with(b"text/event-stream"));
        let path = uri.path();
        let api = path == "/api" || path.starts_with("/api/");
        if stream || !api || method == Method::HEAD {
            return (status, None);
        }
        let body = axum::body::to_bytes(response.into_body(), usize::MAX)
            .await
            .expect("the body is read");
        let json = serde_json::from_slice(&body).unwrap_or_else(|e| {
            panic!(
                "{method} {uri} -> {status}: the reply is not JSON ({e}): {}",
                String::from_utf8_lossy(&body)
            )
        });
        (status, Some(json))
    }
}

impl Drop for Harness {
    fn drop(&mut self) {
        remove_database(&self.path);
    }
}

/// Where the fuzzer keeps its database: `/dev/shm`, a file system in
/// memory, where there is one (the commits of SQLite's write-ahead log then
/// cost no disk writes: about half the time of an input that creates and
/// plays games), else the temporary directory.
fn database_dir() -> PathBuf {
    let shm = Path::new("/dev/shm");
    if shm.is_dir() {
        shm.to_path_buf()
    } else {
        std::env::temp_dir()
    }
}

fn remove_database(path: &Path) {
    for suffix in ["", "-wal", "-shm"] {
        let _ = std::fs::remove_file(format!("{}{suffix}", path.display()));
    }
}

/// Ids and secrets learnt from earlier replies.
#[derive(Default)]
struct Vars {
    id: Option<String>,
    token: Option<String>,
    invite: Option<String>,
}

impl Vars {
    fn learn(&mut self, json: &Value) {
        let text = |v: &Value| v.as_str().map(str::to_string);
        if let Some(id) = text(&json["game"]["id"]) {
            self.id = Some(id);
        }
        if let Some(token) = text(&json["token"]) {
            self.token = Some(token);
        }
        if let Some(invite) = text(&json["invite"]) {
            self.invite = Some(invite);
        }
    }

    fn substitute(&self, script: &[u8]) -> Vec<u8> {
        let mut out = script.to_vec();
        for (name, value) in [
            (&b"{id}"[..], &self.id),
            (b"{token}", &self.token),
            (b"{invite}", &self.invite),
        ] {
            if let Some(value) = value {
                out = replace(&out, name, value.as_bytes());
            }
        }
        out
    }
}

fn replace(haystack: &[u8], needle: &[u8], with: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(haystack.len());
    let mut rest = haystack;
    while let Some(at) = rest.windows(needle.len()).position(|w| w == needle) {
        out.extend_from_slice(&rest[..at]);
        out.extend_from_slice(with);
        rest = &rest[at + needle.len()..];
    }
    out.extend_from_slice(rest);
    out
}

/// The requests of a script: the parts between lines `===`.
fn split(data: &[u8]) -> impl Iterator<Item = &[u8]> {
    const SEPARATOR: &[u8] = b"\n===\n";
    let mut rest = Some(data);
    std::iter::from_fn(move || {
        let text = rest?;
        match text.windows(SEPARATOR.len()).position(|w| w == SEPARATOR) {
            Some(at) => {
                rest = Some(&text[at + SEPARATOR.len()..]);
                Some(&text[..at])
            }
            None => {
                rest = None;
                Some(text)
            }
        }
    })
}

/// The request a part of a script writes, if the `http` types accept its
/// method, target and headers (what they refuse never reaches a server).
fn build_request(part: &[u8]) -> Option<(Request<Body>, Method, Uri)> {
    let (head, body) = match part.windows(2).position(|w| w == b"\n\n") {
        Some(at) => (&part[..at], &part[at + 2..]),
        None => (part, &b""[..]),
    };
    let mut lines = head.split(|&b| b == b'\n');
    let first = lines.next()?;
    let space = first.iter().position(|&b| b == b' ')?;
    let method = Method::from_bytes(&first[..space]).ok()?;
    let uri = Uri::try_from(&first[space + 1..]).ok()?;
    let mut request = Request::builder().method(method.clone()).uri(uri.clone());
    for line in lines {
        let Some(colon) = line.iter().position(|&b| b == b':') else {
            continue;
        };
        let name = HeaderName::from_bytes(line[..colon].trim_ascii());
        let value = HeaderValue::from_bytes(line[colon + 1..].trim_ascii());
        if let (Ok(name), Ok(value)) = (name, value) {
            request = request.header(name, value);
        }
    }
    let request = request.body(Body::from(body.to_vec())).ok()?;
    Some((request, method, uri))
}

/// Check one input against a server shared by every call in this process,
/// over a database in memory (`/dev/shm`) where the system has one, else in
/// the temporary directory.
pub fn check(data: &[u8]) {
    static HARNESS: OnceLock<Harness> = OnceLock::new();
    HARNESS
        .get_or_init(|| Harness::new(&database_dir()))
        .check(data);
}
