//! Games that are not drawn as heaps work through the same API: a game
//! with text positions, injected through the server's game builder.

mod common;

use common::TestServer;
use nimatron::{Adapter, Description, MoveError, Notation, PositionError, Theory};
use nimatron::{Game, GameSpec, Rules, SpecError};
use serde_json::Value;

/// A line of coins written `coins:N`; take one or two from the end.
struct Coins;

impl Rules for Coins {
    type Position = u64;
    type Move = u64;
    fn moves(&self, n: &u64) -> Vec<u64> {
        (1..=2).filter(|t| t <= n).collect()
    }
    fn apply(&self, n: &u64, t: &u64) -> u64 {
        n - t
    }
}

impl Notation for Coins {
    fn parse_position(&self, text: &str) -> Result<u64, PositionError> {
        text.trim()
            .strip_prefix("coins:")
            .and_then(|n| n.parse().ok())
            .filter(|&n| n <= 100)
            .ok_or_else(|| {
                PositionError::new(
                    format!("'{text}' is not a line of coins"),
                    "coins:N, N ≤ 100",
                )
            })
    }
    fn format_position(&self, n: &u64) -> String {
        format!("coins:{n}")
    }
    fn parse_move(&self, n: &u64, input: &str) -> Result<u64, MoveError> {
        match input.trim().parse::<u64>() {
            Ok(t) if (1..=2).contains(&t) && t <= *n => Ok(t),
            _ => Err(MoveError::new(format!(
                "'{input}' is not 1 or 2 coins here"
            ))),
        }
    }
    fn format_move(&self, _: &u64, t: &u64) -> String {
        t.to_string()
    }
    fn material(&self, n: &u64) -> u64 {
        *n
    }
    fn position_syntax(&self) -> &'static str {
        "coins:N"
    }
    fn move_syntax(&self) -> &'static str {
        "1 or 2"
    }
}

impl Theory for Coins {
    fn description(&self) -> Description {
        Description {
            rules: "take one or two coins",
            example: "coins:7",
            theory: "solved by search",
            citation: "none",
        }
    }
}

fn build(spec: &GameSpec) -> Result<Box<dyn Game>, SpecError> {
    match spec {
        GameSpec::TwentyOne { .. } => Ok(Box::new(Adapter::new(spec.clone(), Coins))),
        other => nimatron::games::build(other),
    }
}

#[test]
fn a_text_position_game_plays_and_analyses_through_the_api() {
    let mut config = nimatron_web::Config::new(common::fresh_db("generic"));
    config.builder = build;
    let server = TestServer::start_with(config);
    let (id, token, reply) =
        server.create(r#"{"game":"twenty-one","position":"coins:10","first":"you"}"#);
    let mut game: Value = reply["game"].clone();
    assert_eq!(game["game"], "twenty-one:3,21");
    assert!(game["heaps"].is_null(), "text positions are not heaps");
    assert_eq!(game["legal_moves"].as_array().unwrap().len(), 2);
    // g(n) = n mod 3: take n mod 3 and the perfect computer must lose.
    while game["status"] == "playing" {
        let n: u64 = game["position"].as_str().unwrap()[6..].parse().unwrap();
        assert_ne!(n % 3, 0, "the computer cannot escape: {game}");
        let (status, reply) = server.play(&id, &token, &(n % 3).to_string());
        assert_eq!(status, 200, "{reply}");
        game = reply["game"].clone();
    }
    assert_eq!(game["winner"], 0);
    let (status, err) = server.play(&id, &token, "1");
    assert_eq!(status, 409, "{err}");

    let (status, a) = server.post(
        "/api/analyze",
        r#"{"game":"twenty-one","position":"coins:7"}"#,
    );
    assert_eq!(status, 200, "{a}");
    assert_eq!(a["grundy"], 1);
    assert_eq!(a["winning_moves"][0]["notation"], "1");
    assert!(a["nim_table"].is_null());
    let (status, err) = server.post(
        "/api/analyze",
        r#"{"game":"twenty-one","position":"7 coins"}"#,
    );
    assert_eq!(status, 422, "{err}");
    assert_eq!(err["error"]["code"], "bad_position");
    let (status, err) = server.get("/api/explore?game=twenty-one");
    assert_eq!(status, 422, "{err}");
    assert_eq!(err["error"]["code"], "not_a_heap_game");
}
