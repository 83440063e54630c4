//! The CLI's `analyze --json` and the web API's `POST /api/analyze` print
//! the same analysis object for every catalogue game: both serialise the
//! library's one `Analysis` type. The web adds `moves` (every legal move
//! valued) and `nim_table`, which only it documents.

mod common;

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::process::{Child, Command, Stdio};

use nimatron::GameSpec;
use nimatron::TextGame;
use serde_json::{Value, json};

struct Server {
    child: Child,
    host: String,
}

impl Drop for Server {
    fn drop(&mut self) {
        self.child.kill().ok();
        self.child.wait().ok();
    }
}

fn serve() -> Server {
    let db = std::path::Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("same-json-{}.sqlite3", std::process::id()));
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
    let host = line
        .split_whitespace()
        .find(|w| w.starts_with("http://127.0.0.1:"))
        .unwrap_or_else(|| panic!("no loopback URL in {line:?}"))
        .trim_start_matches("http://")
        .trim_end_matches('/')
        .to_string();
    Server { child, host }
}

fn post(server: &Server, path: &str, body: &str) -> (u16, Value) {
    let mut stream = TcpStream::connect(&server.host).expect("connect");
    write!(
        stream,
        "POST {path} HTTP/1.1\r\nHost: {}\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
        server.host,
        body.len()
    )
    .unwrap();
    let mut reply = String::new();
    stream.read_to_string(&mut reply).unwrap();
    let status: u16 = reply[9..12].parse().expect("status");
    let (_, body) = reply.split_once("\r\n\r\n").expect("body");
    // The server may answer in chunks; the JSON is the one line in it
    // that starts with '{'.
    let json_text = body
        .lines()
        .find(|l| l.starts_with('{'))
        .unwrap_or_else(|| panic!("no JSON in {reply}"));
    (status, serde_json::from_str(json_text).expect("JSON"))
}

/// A spec with default parameters for a catalogue line.
fn concrete(syntax: &str) -> String {
    match syntax {
        "subtraction:S" => "subtraction:1,2,3".into(),
        "modular:M:R" => "modular:3:1,2".into(),
        "octal:CODE" => "octal:0.137".into(),
        "moore:K[,R]" => "moore:2".into(),
        "building:N,S" => "building:4,3".into(),
        other => other.split(['[', ':']).next().unwrap_or(other).to_string(),
    }
}

#[test]
fn cli_and_web_print_the_same_analysis() {
    let server = serve();
    let mut compared = 0;
    for entry in GameSpec::CATALOGUE {
        let spec_text = concrete(entry.syntax);
        let spec: GameSpec = spec_text.parse().unwrap();
        let Ok(game) = spec.build() else { continue };
        // The start, and the positions one and two moves on.
        let Some(start) = game
            .start_position()
            .or_else(|| game.parse_position(game.description().example).ok())
        else {
            continue;
        };
        let mut positions = vec![start.clone()];
        if let Ok(moves) = game.legal_moves_text(&start)
            && let Some(m) = moves.first()
        {
            positions.push(m.to_text.clone());
            if let Ok(next) = game.legal_moves_text(&m.to_text)
                && let Some(m2) = next.last()
            {
                positions.push(m2.to_text.clone());
            }
        }
        for position in positions {
            for &convention in game.conventions() {
                let misere = convention == nimatron::Convention::Misere;
                let words: Vec<&str> = position.split_whitespace().collect();
                let mut args = vec!["analyze", "--game", &spec_text, "--json", "--limit", "0"];
                if misere {
                    args.push("--misere");
                }
                args.push("--");
                args.extend(words.iter().copied());
                let out = common::nimatron(&args);
                let body = json!({
                    "game": spec_text,
                    "position": position,
                    "convention": convention.name(),
                })
                .to_string();
                let (status, mut web) = post(&server, "/api/analyze", &body);
                if !out.status.success() {
                    // Both refuse (a limit, or a position too large for the
                    // web app).
                    assert_ne!(status, 200, "{spec_text} {position}: {web}");
                    continue;
                }
                assert_eq!(status, 200, "{spec_text} {position}: {web}");
                let mut cli: Value = serde_json::from_slice(&out.stdout).expect("CLI JSON");
                // A solver's stored-state count is the work it did, which
                // depends on what the server's cache already held.
                cli.as_object_mut().unwrap().remove("states");
                let web = web.as_object_mut().unwrap();
                web.remove("states");
                // How the misère race went (its times, and how far the
                // quotient had got) depends on timing and on what the
                // server's game already learnt; the answer does not.
                cli.as_object_mut().unwrap().remove("misere");
                web.remove("misere");
                for field in [
                    "moves",
                    "moves_total",
                    "moves_offset",
                    "moves_truncated",
                    "nim_table",
                ] {
                    web.remove(field);
                }
                assert_eq!(
                    &cli,
                    &Value::Object(web.clone()),
                    "{spec_text} {convention} {position}"
                );
                compared += 1;
            }
        }
    }
    assert!(compared >= 40, "only {compared} analyses compared");
}
