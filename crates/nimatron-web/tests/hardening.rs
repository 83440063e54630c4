//! The server against strangers (issue #50): every request bounded, a
//! poisoned record served bounded, heavy work apart from cheap requests,
//! one budget per request, timeouts and caps, cross-site requests refused,
//! security headers, storage checked, assets compressed and revalidated.

mod common;

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::time::{Duration, Instant};

use common::{TestServer, fresh_db};
use serde_json::Value;

/// One request written by hand; status, head, body bytes.
fn send(addr: SocketAddr, head_lines: &str, body: &[u8]) -> (u16, String, Vec<u8>) {
    let mut s = TcpStream::connect(addr).expect("connect");
    s.set_read_timeout(Some(Duration::from_secs(60))).unwrap();
    let text = format!(
        "{head_lines}Connection: close\r\nContent-Length: {}\r\n\r\n",
        body.len()
    );
    s.write_all(text.as_bytes()).unwrap();
    s.write_all(body).unwrap();
    let mut reader = BufReader::new(s);
    let mut line = String::new();
    reader.read_line(&mut line).unwrap();
    let status = line.split_whitespace().nth(1).unwrap().parse().unwrap();
    let mut head = String::new();
    loop {
        line.clear();
        reader.read_line(&mut line).unwrap();
        if line == "\r\n" || line.is_empty() {
            break;
        }
        head.push_str(&line);
    }
    let mut body = Vec::new();
    if header(&head, "transfer-encoding") == Some("chunked") {
        common::Chunked::new(reader).read_to_end(&mut body).unwrap();
    } else {
        reader.read_to_end(&mut body).unwrap();
    }
    (status, head, body)
}

/// A header's value (the name in any case).
fn header<'a>(head: &'a str, name: &str) -> Option<&'a str> {
    head.lines().find_map(|l| {
        let (n, v) = l.split_once(':')?;
        n.trim().eq_ignore_ascii_case(name).then(|| v.trim())
    })
}

fn config(name: &str) -> nimatron_web::Config {
    nimatron_web::Config::new(fresh_db(name))
}

/// Point 1: a 60-byte analysis of a position with hundreds of thousands of
/// moves is refused at once, naming the limit; one within the limits lists a
/// page of its moves with their total, and the next page on request.
#[test]
fn an_analysis_is_bounded_and_paged() {
    let mut c = config("bounded-analysis");
    c.server.max_listed = 100;
    let server = TestServer::start_with(c);
    let t = Instant::now();
    let (status, reply) = server.post(
        "/api/analyze",
        r#"{"game":"moore:3","position":"20 20 20 20 20 20 20 20"}"#,
    );
    assert_eq!(status, 422, "{reply}");
    assert_eq!(reply["error"]["code"], "too_many_moves");
    assert!(
        reply["error"]["message"]
            .as_str()
            .unwrap()
            .contains("459360"),
        "{reply}"
    );
    assert!(t.elapsed() < Duration::from_secs(5));

    // Four heaps of 9 under K = 3: 36 + 6·81 + 4·729 = 3438 moves.
    let (status, a) = server.post("/api/analyze", r#"{"game":"moore:3","position":"9 9 9 9"}"#);
    assert_eq!(status, 200, "{a}");
    assert_eq!(a["moves"].as_array().unwrap().len(), 100);
    assert_eq!(a["moves_total"], 3438);
    assert_eq!(a["moves_truncated"], true);
    let (status, page) = server.post(
        "/api/analyze",
        r#"{"game":"moore:3","position":"9 9 9 9","moves_offset":3400,"moves_limit":50}"#,
    );
    assert_eq!(status, 200, "{page}");
    let moves = page["moves"].as_array().unwrap();
    assert_eq!(moves.len(), 38);
    assert_eq!(page["moves_offset"], 3400);
    // Each valued move, against Moore's P-test on the heaps it leaves.
    for m in moves {
        let to: Vec<u64> = m["to"]
            .as_array()
            .unwrap()
            .iter()
            .map(|v| v.as_u64().unwrap())
            .collect();
        let p = nimatron::games::moore_p_test(&to, 3);
        let want = if p { "winning" } else { "losing" };
        assert_eq!(m["value"], want, "{m}");
    }
}

/// Point 2: a game whose start is beyond the limits is refused before
/// anything is saved; a record stored before the limits is served bounded
/// (its legal moves counted, a page listed, the rest paged).
#[test]
fn a_poisoned_record_is_refused_or_served_bounded() {
    let db = fresh_db("poison");
    {
        let mut c = nimatron_web::Config::new(&db);
        c.server.max_listed = 50;
        let server = TestServer::start_with(c);
        let (status, reply) = server.post(
            "/api/games",
            r#"{"game":"moore:4","position":"30 30 30 30 30 30","opponent":"local"}"#,
        );
        assert_eq!(status, 422, "{reply}");
        assert_eq!(reply["error"]["code"], "too_many_moves");
        let (_, list) = server.get("/api/games");
        assert_eq!(list["total"], 0, "nothing is saved: {list}");
        // A record of such a game, as an older server stored it.
        let (id, _, _) = server.create(r#"{"game":"moore:3","position":"1 1","opponent":"local"}"#);
        let conn = rusqlite::Connection::open(&db).unwrap();
        let heaps = "20 20 20 20 20 20 20 20";
        conn.execute(
            "UPDATE games SET start = ?1, position = ?1 WHERE id = ?2",
            rusqlite::params![heaps, id],
        )
        .unwrap();
        let t = Instant::now();
        let (status, head, body) = send(
            server.addr,
            &format!("GET /api/games/{id} HTTP/1.1\r\nHost: {}\r\n", server.addr),
            b"",
        );
        assert_eq!(status, 200, "{}", String::from_utf8_lossy(&body));
        assert!(t.elapsed() < Duration::from_secs(5));
        assert!(body.len() < 200_000, "{} bytes", body.len());
        let view: Value = serde_json::from_slice(&body).unwrap();
        assert!(header(&head, "content-security-policy").is_some());
        assert_eq!(view["legal_moves"].as_array().unwrap().len(), 50);
        assert_eq!(view["legal_moves_total"], 459_360);
        assert_eq!(view["legal_moves_truncated"], true);
        // The last page: the last move of the game's own list.
        let (status, page) = server.get(&format!(
            "/api/games/{id}/legal-moves?offset=459359&limit=10"
        ));
        assert_eq!(status, 200, "{page}");
        assert_eq!(page["total"], 459_360);
        assert_eq!(page["more"], false);
        let game = "moore:3"
            .parse::<nimatron::GameSpec>()
            .unwrap()
            .build()
            .unwrap();
        let p = game.parse(heaps).unwrap();
        let last = game.legal_moves_page(&p, 459_359, 10).unwrap();
        assert_eq!(page["moves"][0]["notation"], last[0].notation.as_str());
        // Its analysis is refused, and so is a rematch from it, both naming
        // the limit; the server is still up.
        let (status, a) = server.get(&format!("/api/games/{id}/analysis"));
        assert_eq!(status, 422, "{a}");
        assert_eq!(a["error"]["code"], "too_many_moves");
        let (status, _) = server.get("/api/catalogue");
        assert_eq!(status, 200);
    }
}

/// Point 3: while the heavy worker is busy and its queue full, another
/// analysis is refused at once with `503` and `Retry-After`, and cheap
/// requests are served at once.
#[test]
fn cheap_requests_never_wait_behind_analyses() {
    let mut c = config("fair");
    c.limits = nimatron::Limits::states(2_000_000).with_time(Duration::from_secs(3));
    c.server.heavy_workers = 1;
    c.server.heavy_queue = 0;
    c.server.heavy_per_client = 8;
    let server = TestServer::start_with(c);
    let (id, _, _) = server.create(r#"{"game":"nim","position":"3 4 5"}"#);
    let addr = server.addr;
    // Chomp on a full 17×17 board: a search that runs to its limits.
    let slow = std::thread::spawn(move || {
        common::request(
            addr,
            "POST",
            "/api/analyze",
            None,
            Some(br#"{"game":"chomp:17x17","position":"full"}"#),
        )
    });
    std::thread::sleep(Duration::from_millis(700));
    let t = Instant::now();
    let (status, head, body) = send(
        addr,
        &format!(
            "POST /api/analyze HTTP/1.1\r\nHost: {addr}\r\nContent-Type: application/json\r\n"
        ),
        br#"{"game":"nim","position":"1 2"}"#,
    );
    assert_eq!(status, 503, "{}", String::from_utf8_lossy(&body));
    assert_eq!(header(&head, "retry-after"), Some("2"));
    assert!(String::from_utf8_lossy(&body).contains("server_busy"));
    for path in ["/api/catalogue", &format!("/api/games/{id}"), "/"] {
        let t = Instant::now();
        let (status, _, _) = send(
            addr,
            &format!("GET {path} HTTP/1.1\r\nHost: {addr}\r\n"),
            b"",
        );
        assert_eq!(status, 200, "{path}");
        assert!(
            t.elapsed() < Duration::from_millis(1500),
            "{path}: {:?}",
            t.elapsed()
        );
    }
    assert!(t.elapsed() < Duration::from_secs(3));
    let (status, reply) = slow.join().unwrap();
    assert!(status == 200 || status == 422, "{reply}");
}

/// Point 4: a game's analysis keeps to one budget for the whole request,
/// whatever the number of positions: it stops with what it judged, and
/// names the limit.
#[test]
fn a_game_analysis_keeps_to_one_budget() {
    let mut c = config("budget");
    c.limits = nimatron::Limits::states(500_000).with_time(Duration::from_millis(1500));
    c.server.max_listed = 4;
    let server = TestServer::start_with(c);
    // A longer record than one reply judges: the first four moves.
    let (id, token, _) = server.create(r#"{"game":"nim","position":"9 9","opponent":"local"}"#);
    for mv in ["A 1", "B 1", "A 1", "B 1", "A 1", "B 1"] {
        let (status, reply) = server.play(&id, &token, mv);
        assert_eq!(status, 200, "{reply}");
    }
    let (status, a) = server.get(&format!("/api/games/{id}/analysis"));
    assert_eq!(status, 200, "{a}");
    assert_eq!(a["history"].as_array().unwrap().len(), 4);
    assert_eq!(a["values"].as_array().unwrap().len(), 5);
    assert_eq!(a["history_total"], 6);
    assert_eq!(a["history_truncated"], true);
    assert!(a["stopped"].as_str().unwrap().contains("at most 4"), "{a}");

    // Node Kayles on a cycle of 60: each position a search of its own.
    let (id, token, created) =
        server.create(r#"{"game":"node-kayles","position":"cycle:60","opponent":"local"}"#);
    let mut game = created["game"].clone();
    for _ in 0..12 {
        let mv = game["legal_moves"][0]["notation"]
            .as_str()
            .unwrap()
            .to_string();
        let (status, reply) = server.play(&id, &token, &mv);
        assert_eq!(status, 200, "{reply}");
        game = reply["game"].clone();
    }
    let t = Instant::now();
    let (status, a) = server.get(&format!("/api/games/{id}/analysis"));
    let took = t.elapsed();
    assert!(took < Duration::from_secs(5), "{took:?}");
    match status {
        200 => {
            if a["history_truncated"] == true {
                assert!(a["stopped"].as_str().unwrap().contains("time limit"), "{a}");
            }
        }
        422 => assert_eq!(a["error"]["code"], "solver_limit", "{a}"),
        other => panic!("{other}: {a}"),
    }
}

/// Point 5: a client that sends its header a byte at a time, or nothing,
/// is cut off; connections and event streams are capped.
#[test]
fn slow_idle_and_excess_connections_are_closed() {
    let mut c = config("timeouts");
    c.server.header_timeout = Duration::from_millis(500);
    c.server.connections_per_client = 3;
    c.server.streams_per_game = 2;
    let server = TestServer::start_with(c);
    let closed_within = |s: &mut TcpStream, limit: Duration| {
        s.set_read_timeout(Some(limit)).unwrap();
        let mut buf = [0u8; 256];
        // Closed: end of stream (or a reset), perhaps after a 408.
        loop {
            match s.read(&mut buf) {
                Ok(0) => return true,
                Ok(_) => continue,
                Err(e)
                    if e.kind() == std::io::ErrorKind::WouldBlock
                        || e.kind() == std::io::ErrorKind::TimedOut =>
                {
                    return false;
                }
                Err(_) => return true,
            }
        }
    };
    // A header a byte at a time: closed although bytes keep coming.
    let mut slow = TcpStream::connect(server.addr).unwrap();
    let t = Instant::now();
    for b in b"GET / HTTP/1.1\r\nHost: x" {
        if slow.write_all(&[*b]).is_err() {
            break;
        }
        std::thread::sleep(Duration::from_millis(100));
        if t.elapsed() > Duration::from_secs(3) {
            break;
        }
    }
    assert!(closed_within(&mut slow, Duration::from_secs(2)));
    assert!(t.elapsed() < Duration::from_secs(4), "{:?}", t.elapsed());
    drop(slow);
    // Nothing sent: closed after the header timeout.
    let mut silent = TcpStream::connect(server.addr).unwrap();
    assert!(closed_within(&mut silent, Duration::from_secs(3)));
    drop(silent);
    std::thread::sleep(Duration::from_millis(200));
    // Three connections held; a fourth from the same client is closed.
    let held: Vec<TcpStream> = (0..3)
        .map(|_| TcpStream::connect(server.addr).unwrap())
        .collect();
    std::thread::sleep(Duration::from_millis(200));
    let mut fourth = TcpStream::connect(server.addr).unwrap();
    let _ = fourth.write_all(format!("GET / HTTP/1.1\r\nHost: {}\r\n\r\n", server.addr).as_bytes());
    let mut buf = [0u8; 64];
    fourth
        .set_read_timeout(Some(Duration::from_secs(2)))
        .unwrap();
    let got = fourth.read(&mut buf).unwrap_or(0);
    assert_eq!(got, 0, "{}", String::from_utf8_lossy(&buf[..got]));
    drop(held);
    std::thread::sleep(Duration::from_millis(300));
    // Event streams: two per game; the third is refused.
    let (id, _, _) = server.create(r#"{"game":"nim","position":"3 4 5"}"#);
    let open_stream = || {
        let mut s = TcpStream::connect(server.addr).unwrap();
        s.write_all(
            format!(
                "GET /api/games/{id}/events HTTP/1.1\r\nHost: {}\r\n\r\n",
                server.addr
            )
            .as_bytes(),
        )
        .unwrap();
        let mut reader = BufReader::new(s);
        let mut line = String::new();
        reader.read_line(&mut line).unwrap();
        (line, reader)
    };
    let (a, _ra) = open_stream();
    let (b, _rb) = open_stream();
    assert!(a.contains(" 200 ") && b.contains(" 200 "), "{a} {b}");
    let (c, _rc) = open_stream();
    assert!(c.contains(" 503 "), "{c}");
}

/// Point 6: bodies that are not JSON, pages of other sites, and host names
/// the server is not are refused; its own are served.
#[test]
fn cross_site_requests_are_refused() {
    let mut c = config("cross-site");
    c.public_url = Some(nimatron_web::PublicUrl::parse("https://nim.example.org/").unwrap());
    let server = TestServer::start_with(c);
    let addr = server.addr;
    let post = |extra: &str| {
        send(
            addr,
            &format!("POST /api/games HTTP/1.1\r\nHost: {addr}\r\n{extra}"),
            br#"{"game":"nim"}"#,
        )
    };
    let (status, _, body) = post("Content-Type: text/plain\r\n");
    assert_eq!(status, 415, "{}", String::from_utf8_lossy(&body));
    let (status, _, _) = post("");
    assert_eq!(status, 415);
    let (status, _, body) =
        post("Content-Type: application/json\r\nOrigin: http://evil.example\r\n");
    assert_eq!(status, 403);
    assert!(String::from_utf8_lossy(&body).contains("foreign_origin"));
    let (status, _, _) = post(&format!(
        "Content-Type: application/json; charset=utf-8\r\nOrigin: http://{addr}\r\n"
    ));
    assert_eq!(status, 201);
    let (status, _, _) =
        post("Content-Type: application/json\r\nOrigin: https://nim.example.org\r\n");
    assert_eq!(status, 201);
    let (status, _, body) = send(
        addr,
        "GET /api/catalogue HTTP/1.1\r\nHost: evil.example\r\n",
        b"",
    );
    assert_eq!(status, 421, "{}", String::from_utf8_lossy(&body));
    let port = addr.port();
    let (status, _, _) = send(
        addr,
        &format!("GET /api/catalogue HTTP/1.1\r\nHost: localhost:{port}\r\n"),
        b"",
    );
    assert_eq!(status, 200);
    let (status, _, _) = send(addr, "GET / HTTP/1.1\r\nHost: nim.example.org\r\n", b"");
    assert_eq!(status, 200);
    // Nothing was created by the refused requests.
    let (_, list) = server.get("/api/games");
    assert_eq!(list["total"], 2);
}

/// Point 7: every reply carries the security headers.
#[test]
fn every_reply_has_the_security_headers() {
    let server = TestServer::start_with(config("headers"));
    let addr = server.addr;
    for path in [
        "/",
        "/play/0123456789abcdef",
        "/assets/js/main.js",
        "/api/catalogue",
        "/api/nothing",
    ] {
        let (_, head, _) = send(
            addr,
            &format!("GET {path} HTTP/1.1\r\nHost: {addr}\r\n"),
            b"",
        );
        let csp =
            header(&head, "content-security-policy").unwrap_or_else(|| panic!("{path}: {head}"));
        assert!(csp.contains("frame-ancestors 'none'"), "{csp}");
        assert!(
            csp.contains("script-src 'self'") && !csp.contains("unsafe-inline"),
            "{csp}"
        );
        assert_eq!(header(&head, "x-content-type-options"), Some("nosniff"));
        assert_eq!(header(&head, "x-frame-options"), Some("DENY"));
        assert_eq!(header(&head, "referrer-policy"), Some("no-referrer"));
    }
    // No inline script in the page.
    let (_, _, page) = send(addr, &format!("GET / HTTP/1.1\r\nHost: {addr}\r\n"), b"");
    let page = String::from_utf8(page).unwrap();
    assert!(!page.contains("<script>") && page.contains("<script type=\"module\" src="));
    assert!(!page.contains(" style=\""));
}

/// Point 8: the database file is its owner's alone; a 500 says "internal
/// error" with an id, not SQLite's or the server's own words; an empty,
/// damaged or foreign file is reported and left as it was.
#[test]
fn storage_is_private_checked_and_never_replaced() {
    use std::os::unix::fs::PermissionsExt;
    let db = fresh_db("storage");
    {
        let server = TestServer::start(&db);
        let (id, _, _) = server.create(r#"{"game":"nim","position":"3 4 5"}"#);
        for suffix in ["", "-wal", "-shm"] {
            let path = format!("{}{suffix}", db.display());
            let mode = std::fs::metadata(&path).unwrap().permissions().mode() & 0o777;
            assert_eq!(mode, 0o600, "{path}");
        }
        // A stored position that no longer parses: a fault of the server.
        let conn = rusqlite::Connection::open(&db).unwrap();
        conn.execute("UPDATE games SET position = 'x y z' WHERE id = ?1", [&id])
            .unwrap();
        let (status, reply) = server.get(&format!("/api/games/{id}"));
        assert_eq!(status, 500);
        let message = reply["error"]["message"].as_str().unwrap();
        assert!(message.starts_with("internal error "), "{message}");
        assert!(
            !message.contains("x y z") && !message.contains("stored"),
            "{message}"
        );
    }
    let refused = |path: &std::path::Path| {
        let (_, stop) = tokio::sync::watch::channel(false);
        nimatron_web::app(&nimatron_web::Config::new(path), stop)
            .err()
            .map(|e| e.to_string())
    };
    let empty = fresh_db("storage-empty");
    std::fs::write(&empty, b"").unwrap();
    let e = refused(&empty).expect("an empty file is refused");
    assert!(e.contains("empty"), "{e}");
    assert_eq!(std::fs::metadata(&empty).unwrap().len(), 0);
    // Garbage in the middle of a database with games in it.
    let damaged = fresh_db("storage-damaged");
    {
        let server = TestServer::start(&damaged);
        for _ in 0..200 {
            server.create(r#"{"game":"nim","position":"3 4 5"}"#);
        }
    }
    let mut bytes = std::fs::read(&damaged).unwrap();
    assert!(bytes.len() > 16_384, "{}", bytes.len());
    for b in &mut bytes[8192..12288] {
        *b = 0xA5;
    }
    std::fs::write(&damaged, &bytes).unwrap();
    let e = refused(&damaged).expect("a damaged file is refused");
    assert!(
        e.contains("damaged") || e.contains("cannot be opened"),
        "{e}"
    );
    assert_eq!(std::fs::read(&damaged).unwrap(), bytes, "left as it was");
    let foreign = fresh_db("storage-foreign");
    rusqlite::Connection::open(&foreign)
        .unwrap()
        .execute_batch("CREATE TABLE invoices (n INTEGER)")
        .unwrap();
    let e = refused(&foreign).expect("another program's database is refused");
    assert!(e.contains("something else"), "{e}");
}

/// Issue #51 point 11: assets and API replies are compressed for a browser
/// that accepts gzip, and an asset it has is revalidated with `304`.
#[test]
fn assets_are_compressed_and_revalidated() {
    let server = TestServer::start_with(config("assets"));
    let addr = server.addr;
    let (status, head, body) = send(
        addr,
        &format!("GET /assets/js/play.js HTTP/1.1\r\nHost: {addr}\r\nAccept-Encoding: gzip\r\n"),
        b"",
    );
    assert_eq!(status, 200);
    assert_eq!(header(&head, "content-encoding"), Some("gzip"), "{head}");
    let plain = nimatron_web_asset("play.js");
    assert!(
        body.len() * 2 < plain.len(),
        "{} of {}",
        body.len(),
        plain.len()
    );
    assert_eq!(&body[..2], &[0x1f, 0x8b], "a gzip stream");
    let etag = header(&head, "etag").expect("an ETag").to_string();
    let (status, head, body) = send(
        addr,
        &format!("GET /assets/js/play.js HTTP/1.1\r\nHost: {addr}\r\nIf-None-Match: {etag}\r\n"),
        b"",
    );
    assert_eq!(status, 304, "{head}");
    assert!(body.is_empty());
    // A changed asset (another ETag) is sent whole.
    let (status, _, body) = send(
        addr,
        &format!("GET /assets/js/play.js HTTP/1.1\r\nHost: {addr}\r\nIf-None-Match: W/\"0-0\"\r\n"),
        b"",
    );
    assert_eq!(status, 200);
    assert_eq!(body, plain);
    let (status, head, _) = send(
        addr,
        &format!("GET /api/catalogue HTTP/1.1\r\nHost: {addr}\r\nAccept-Encoding: gzip\r\n"),
        b"",
    );
    assert_eq!(status, 200);
    assert_eq!(header(&head, "content-encoding"), Some("gzip"));
}

fn nimatron_web_asset(name: &str) -> Vec<u8> {
    std::fs::read(format!("{}/assets/js/{name}", env!("CARGO_MANIFEST_DIR"))).unwrap()
}

/// The status line's code of a request sent on `s` (kept open), with
/// `extra` header lines.
fn open_with(addr: SocketAddr, path: &str, extra: &str) -> (TcpStream, u16) {
    let mut s = TcpStream::connect(addr).expect("connect");
    s.set_read_timeout(Some(Duration::from_secs(20))).unwrap();
    // A server that closes a connection over the cap at once may do so
    // before the request is written: that is a refusal too.
    if write!(s, "GET {path} HTTP/1.1\r\nHost: {addr}\r\n{extra}\r\n").is_err() {
        return (s, 0);
    }
    let mut line = Vec::new();
    let mut byte = [0u8; 1];
    while !line.ends_with(b"\r\n") {
        match s.read(&mut byte) {
            Ok(1) => {}
            _ => break,
        }
        line.push(byte[0]);
    }
    // Closed unanswered: 0.
    let line = String::from_utf8_lossy(&line).to_string();
    let status = line
        .split_whitespace()
        .nth(1)
        .map_or(0, |code| code.parse().unwrap());
    (s, status)
}

/// Behind a trusted reverse proxy each client counts on its own, named by
/// `X-Forwarded-For`; from any other peer the header is ignored (a client
/// cannot choose its address by sending it).
#[test]
fn behind_a_trusted_proxy_limits_count_each_forwarded_client() {
    for trusted in [true, false] {
        let mut c = config(if trusted { "proxy" } else { "no-proxy" });
        c.server.streams_per_client = 1;
        c.server.connections_per_client = 3;
        if trusted {
            c.trusted_proxies = nimatron_web::TrustedProxies::new(vec![
                nimatron_web::limits::Cidr::parse("127.0.0.1/32").unwrap(),
            ]);
        }
        let server = TestServer::start_with(c);
        let (id, _, _) = server.create(r#"{"opponent":"local","position":"2 3"}"#);
        let events = format!("/api/games/{id}/events");
        let xff = |ip: &str| format!("X-Forwarded-For: {ip}\r\n");
        let (_first, status) = open_with(server.addr, &events, &xff("203.0.113.1"));
        assert_eq!(status, 200);
        // The same client again: over its share of one stream.
        let (_again, status) = open_with(server.addr, &events, &xff("203.0.113.1"));
        assert_eq!(status, 429, "trusted {trusted}");
        // Another client through the proxy: its own share, if the proxy is
        // trusted; otherwise it is the same peer, over its share.
        let (_other, status) = open_with(server.addr, &events, &xff("203.0.113.2"));
        assert_eq!(status, if trusted { 200 } else { 429 }, "trusted {trusted}");
        // The proxy's connections are many clients': not capped as one's.
        let held: Vec<_> = (0..5)
            .map(|_| TcpStream::connect(server.addr).unwrap())
            .collect();
        let (_, status) = open_with(server.addr, "/api/catalogue", "Connection: close\r\n");
        if trusted {
            assert_eq!(status, 200);
        } else {
            // Over the per-client cap: closed unanswered, or refused.
            assert_ne!(status, 200);
        }
        drop(held);
    }
}

/// A computer move that needs more than a cheap request's search runs in
/// a heavy turn, under the same queue as analyses: a flood of them is
/// refused with 503 beyond the queue, and cheap requests go on meanwhile.
#[test]
fn hard_computer_moves_wait_for_a_heavy_turn() {
    let mut c = config("computer-turns");
    c.limits = nimatron::Limits::states(3_000_000).with_time(Duration::from_secs(3));
    c.server.heavy_workers = 1;
    c.server.heavy_queue = 0;
    c.server.heavy_per_client = 16;
    c.server.quick_search = Duration::from_millis(20);
    let server = TestServer::start_with(c);
    let addr = server.addr;
    // Chomp on a full 17×17 board, the computer first: a long search.
    let hard = r#"{"game":"chomp:17x17","position":"full","first":"opponent"}"#;
    let threads: Vec<_> = (0..6)
        .map(|i| {
            std::thread::spawn(move || {
                std::thread::sleep(Duration::from_millis(50 * i));
                common::request(addr, "POST", "/api/games", None, Some(hard.as_bytes()))
            })
        })
        .collect();
    std::thread::sleep(Duration::from_millis(400));
    // Cheap requests, a Nim game against the computer among them, while
    // the hard searches run or are refused.
    for _ in 0..3 {
        let t = Instant::now();
        let (id, token, _) = server.create(r#"{"position":"3 4 5"}"#);
        let (status, reply) = server.play(&id, &token, "A 1");
        assert_eq!(status, 200, "{reply}");
        let (status, _) = server.get("/api/catalogue");
        assert_eq!(status, 200);
        assert!(
            t.elapsed() < Duration::from_millis(1500),
            "cheap requests waited {:?}",
            t.elapsed()
        );
    }
    let replies: Vec<(u16, Value)> = threads.into_iter().map(|t| t.join().unwrap()).collect();
    let summary: Vec<String> = replies
        .iter()
        .map(|(s, r)| format!("{s} {}", r["error"]["code"]))
        .collect();
    let made: Vec<&Value> = replies
        .iter()
        .filter(|(s, _)| *s == 201)
        .map(|(_, r)| r)
        .collect();
    let busy = replies
        .iter()
        .filter(|(s, r)| *s == 503 && r["error"]["code"] == "server_busy")
        .count();
    assert!(!made.is_empty(), "{summary:?}");
    assert!(busy >= 1, "refused beyond the heavy queue: {summary:?}");
    assert_eq!(made.len() + busy, replies.len(), "{summary:?}");
    for reply in made {
        // The computer moved first, in the heavy turn.
        assert_eq!(reply["game"]["ply"], 1, "{}", reply["game"]["moves"]);
        assert_eq!(reply["game"]["moves"][0]["seat"], 1);
    }
}
