//! Games outside the catalogue work through the same API, registered under
//! their own names: a game with text positions, and Staircase Nim from the
//! library's `custom_game` example.

mod common;
#[path = "../../nimatron/examples/custom_game/staircase.rs"]
mod staircase;

use common::TestServer;
use nimatron::{Adapter, Description, MoveError, Notation, PositionError, Theory};
use nimatron::{Game, Rules};
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
    fn move_syntax(&self) -> String {
        String::from("1 or 2")
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

fn coins() -> Box<dyn Game> {
    Box::new(Adapter::new("coins", Coins))
}

fn staircase() -> Box<dyn Game> {
    Box::new(Adapter::new("staircase", staircase::Staircase))
}

#[test]
fn a_text_position_game_plays_and_analyses_through_the_api() {
    let mut config = nimatron_web::Config::new(common::fresh_db("generic"));
    config.custom_games = vec![("coins", coins), ("staircase", staircase)];
    let server = TestServer::start_with(config);
    let (id, token, reply) =
        server.create(r#"{"game":"coins","position":"coins:10","first":"you"}"#);
    let mut game: Value = reply["game"].clone();
    assert_eq!(game["game"], "coins");
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

    let (status, a) = server.post("/api/analyze", r#"{"game":"coins","position":"coins:7"}"#);
    assert_eq!(status, 200, "{a}");
    assert_eq!(a["grundy"], 1);
    assert_eq!(a["winning_moves"][0]["notation"], "1");
    assert!(a["nim_table"].is_null());
    let (status, err) = server.post("/api/analyze", r#"{"game":"coins","position":"7 coins"}"#);
    assert_eq!(status, 422, "{err}");
    assert_eq!(err["error"]["code"], "bad_position");
    let (status, err) = server.get("/api/explore?game=coins");
    assert_eq!(status, 422, "{err}");
    assert_eq!(err["error"]["code"], "not_a_heap_game");
}

#[test]
fn a_developers_own_game_is_served_with_a_board_and_remoteness() {
    let mut config = nimatron_web::Config::new(common::fresh_db("staircase"));
    config.custom_games = vec![("staircase", staircase)];
    let server = TestServer::start_with(config);
    let (id, token, reply) = server
        .create(r#"{"game":"staircase","position":"3 0 2 1","first":"you","opponent":"computer"}"#);
    let mut game: Value = reply["game"].clone();
    assert_eq!(game["game"], "staircase");
    assert_eq!(game["geometry"]["kind"], "heaps", "{game}");
    assert_eq!(game["heaps"], serde_json::json!([3, 0, 2, 1]));
    // Play the theory's move (odd steps' nim-sum 0) until the end.
    while game["status"] == "playing" {
        let steps: Vec<u64> = serde_json::from_value(game["heaps"].clone()).unwrap();
        let mv = game["legal_moves"]
            .as_array()
            .unwrap()
            .iter()
            .find(|m| {
                let to: Vec<u64> = serde_json::from_value(m["to"].clone()).unwrap();
                staircase::odd_step_nim_sum(&to) == 0
            })
            .unwrap_or_else(|| panic!("the theory has a move from {steps:?}"));
        let (status, reply) = server.play(&id, &token, mv["notation"].as_str().unwrap());
        assert_eq!(status, 200, "{reply}");
        game = reply["game"].clone();
    }
    assert_eq!(game["winner"], 0, "{game}");
    let (status, a) = server.post(
        "/api/analyze",
        r#"{"game":"staircase","position":"3 0 2 1"}"#,
    );
    assert_eq!(status, 200, "{a}");
    assert_eq!(a["outcome"], "N");
    assert_eq!(a["remoteness"]["exact"], true, "{a}");
    let moves = a["moves"].as_array().unwrap();
    assert!(
        moves
            .iter()
            .all(|m| m["remoteness"]["moves"].as_u64().is_some()),
        "{a}"
    );
    let (status, e) = server.post("/api/analyze", r#"{"game":"staircase","position":"x"}"#);
    assert_eq!(status, 422, "{e}");
    assert!(
        e["error"]["message"]
            .as_str()
            .unwrap()
            .contains("coins on steps"),
        "{e}"
    );
}
