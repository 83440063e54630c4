//! `nimatron serve` starts, prints its URL, and answers on it.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::process::{Command, Stdio};

#[test]
fn serve_prints_its_url_and_answers() {
    let db = std::path::Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("serve-cli-{}.sqlite3", std::process::id()));
    let mut child = Command::new(env!("CARGO_BIN_EXE_nimatron"))
        .args(["serve", "--addr", "127.0.0.1:0", "--db"])
        .arg(&db)
        .stdout(Stdio::piped())
        .spawn()
        .expect("start nimatron serve");
    let mut line = String::new();
    BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut line)
        .expect("first line");
    let url = line
        .split_whitespace()
        .find(|w| w.starts_with("http://127.0.0.1:"))
        .unwrap_or_else(|| panic!("no loopback URL in {line:?}"));
    let host = url.trim_start_matches("http://").trim_end_matches('/');
    let mut stream = TcpStream::connect(host).expect("connect");
    write!(
        stream,
        "GET /api/catalogue HTTP/1.1\r\nHost: {host}\r\nConnection: close\r\n\r\n"
    )
    .unwrap();
    let mut reply = String::new();
    stream.read_to_string(&mut reply).unwrap();
    child.kill().ok();
    child.wait().ok();
    assert!(reply.starts_with("HTTP/1.1 200"), "{reply}");
    assert!(reply.contains("\"syntax\":\"nim\""), "{reply}");
    assert!(db.exists());
}

#[test]
fn serve_refuses_a_bad_address() {
    let out = Command::new(env!("CARGO_BIN_EXE_nimatron"))
        .args(["serve", "--addr", "localhost-ish"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("localhost-ish"));
}

/// An empty database file is reported and left alone, and the server never
/// says it is serving (it used to print its URL, then start empty).
#[test]
fn serve_reports_an_empty_database_before_serving() {
    let db = std::path::Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("serve-cli-empty-{}.sqlite3", std::process::id()));
    std::fs::write(&db, b"").unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_nimatron"))
        .args(["serve", "--addr", "127.0.0.1:0", "--db"])
        .arg(&db)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(!stdout.contains("serving"), "{stdout}");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("empty"), "{stderr}");
    assert_eq!(std::fs::metadata(&db).unwrap().len(), 0);
}

/// Limits are flags, their defaults in `serve --help`; a bad public URL is
/// bad input.
#[test]
fn serve_states_its_limits_and_checks_the_public_url() {
    let out = Command::new(env!("CARGO_BIN_EXE_nimatron"))
        .args(["serve", "--help"])
        .output()
        .unwrap();
    let help = String::from_utf8_lossy(&out.stdout);
    for flag in [
        "--public-url",
        "--request-seconds <SECONDS>",
        "--max-moves",
        "--max-listed",
        "--heavy-workers",
        "--max-connections",
        "--header-timeout",
        "[default: 100000]",
    ] {
        assert!(help.contains(flag), "{flag} missing from:\n{help}");
    }
    let out = Command::new(env!("CARGO_BIN_EXE_nimatron"))
        .args(["serve", "--public-url", "nim.example.org"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("http://"));
}

/// Starts `nimatron serve --addr ADDR`, reads the URL it prints, asks it
/// for the catalogue, and stops it. Returns the URL.
fn serve_and_ask(addr: &str) -> String {
    let db = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!(
        "serve-addr-{}-{}.sqlite3",
        std::process::id(),
        addr.replace([':', '.'], "_")
    ));
    let mut child = Command::new(env!("CARGO_BIN_EXE_nimatron"))
        .args(["serve", "--addr", addr, "--db"])
        .arg(&db)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start nimatron serve");
    let mut line = String::new();
    BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut line)
        .expect("first line");
    let url = line
        .split_whitespace()
        .find(|w| w.starts_with("http://"))
        .unwrap_or_else(|| {
            child.kill().ok();
            let mut err = String::new();
            child.stderr.take().unwrap().read_to_string(&mut err).ok();
            panic!("--addr {addr}: no URL in {line:?}; stderr {err}")
        })
        .to_string();
    let host = url.trim_start_matches("http://").trim_end_matches('/');
    let reply = TcpStream::connect(host).map(|mut stream| {
        write!(
            stream,
            "GET /api/catalogue HTTP/1.1\r\nHost: {host}\r\nConnection: close\r\n\r\n"
        )
        .unwrap();
        let mut reply = String::new();
        stream.read_to_string(&mut reply).unwrap();
        reply
    });
    child.kill().ok();
    child.wait().ok();
    let reply = reply.expect("connect");
    assert!(reply.starts_with("HTTP/1.1 200"), "{reply}");
    url
}

/// `--addr 0` (a bare port, here "any free one") listens on loopback, and
/// `--addr localhost:0` takes a host name.
#[test]
fn serve_accepts_a_bare_port_and_a_host_name() {
    let url = serve_and_ask("0");
    assert!(url.starts_with("http://127.0.0.1:"), "{url}");
    let url = serve_and_ask(":0");
    assert!(url.starts_with("http://127.0.0.1:"), "{url}");
    let url = serve_and_ask("localhost:0");
    assert!(
        url.starts_with("http://127.0.0.1:") || url.starts_with("http://[::1]:"),
        "{url}"
    );
}

/// Regression: "Error: server: Address already in use (os error 98)" left
/// the user no way forward. The error names the address, says it is in
/// use, and names --addr with an example (exit 1: not bad input, a busy
/// machine).
#[test]
fn serve_on_a_busy_port_says_to_choose_another_with_addr() {
    let taken = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let port = taken.local_addr().unwrap().port();
    let db = std::path::Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("serve-busy-{}.sqlite3", std::process::id()));
    for addr in [format!("127.0.0.1:{port}"), port.to_string()] {
        let out = Command::new(env!("CARGO_BIN_EXE_nimatron"))
            .args(["serve", "--addr", &addr, "--db"])
            .arg(&db)
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{stderr}");
        assert!(stderr.contains(&format!("127.0.0.1:{port}")), "{stderr}");
        assert!(stderr.contains("already in use"), "{stderr}");
        assert!(stderr.contains("--addr"), "{stderr}");
    }
    drop(taken);
}

#[test]
fn serve_refuses_addresses_it_cannot_read_saying_what_it_takes() {
    for (addr, needle) in [
        ("localhost", "no port"),
        ("70000", "0 to 65535"),
        ("127.0.0.1:port", "host name and port"),
        (":", "not an address"),
    ] {
        let out = Command::new(env!("CARGO_BIN_EXE_nimatron"))
            .args(["serve", "--addr", addr])
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{addr}: {stderr}");
        assert!(stderr.contains(needle), "{addr}: {stderr}");
    }
}

/// A PostgreSQL URL that cannot be reached is an error at start that names
/// the server and what failed; nothing is said to be serving, and the exit
/// code is not 0. A URL that cannot be one, or names no database, is bad
/// input (exit 2), from the flag or from NIMATRON_DB.
#[test]
fn serve_reports_an_unreachable_database_before_serving() {
    // Port 1 on loopback: nothing listens there.
    let out = Command::new(env!("CARGO_BIN_EXE_nimatron"))
        .args([
            "serve",
            "--addr",
            "127.0.0.1:0",
            "--db",
            "postgres://nimatron:secret@127.0.0.1:1/records",
        ])
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stdout}{stderr}");
    assert!(!stdout.contains("serving"), "{stdout}");
    assert!(
        stderr.contains("127.0.0.1:1") && stderr.contains("records"),
        "names the server and database: {stderr}"
    );
    assert!(
        stderr.to_lowercase().contains("refused"),
        "says what failed: {stderr}"
    );
    assert!(!stderr.contains("secret"), "shows no password: {stderr}");

    let out = Command::new(env!("CARGO_BIN_EXE_nimatron"))
        .args(["serve", "--addr", "127.0.0.1:0"])
        .env("NIMATRON_DB", "postgres://nimatron@127.0.0.1:1")
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("names no database"), "{stderr}");

    let out = Command::new(env!("CARGO_BIN_EXE_nimatron"))
        .args(["serve", "--db", "mysql://nim@127.0.0.1/records"])
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("postgres://"), "{stderr}");
}

/// `nimatron db migrate` refuses a missing source file and a copy onto
/// itself, saying which.
#[test]
fn db_migrate_refuses_what_cannot_be_copied() {
    let missing = std::path::Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("no-such-{}.sqlite3", std::process::id()));
    let out = Command::new(env!("CARGO_BIN_EXE_nimatron"))
        .args(["db", "migrate", "--from"])
        .arg(&missing)
        .args(["--to", "postgres://nimatron@127.0.0.1:1/records"])
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("no such file"), "{stderr}");
    assert!(!missing.exists(), "no file was made");
    let out = Command::new(env!("CARGO_BIN_EXE_nimatron"))
        .args(["db", "migrate", "--from", "a.sqlite3", "--to", "a.sqlite3"])
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("same database"), "{stderr}");
}
