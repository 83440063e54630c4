//! `circular` through the binary: play over stdin, the JSON contract, and
//! bad input.

mod common;
use common::{json, run};

use serde_json::Value;

/// Two people play Wikipedia's three moves, then an illegal three-object
/// move is refused, and the game is played out.
#[test]
fn friends_play_the_seeds_example() {
    let out = run(
        &["play", "--game", "circular", "--opponent", "friend"],
        "9-1\n3-5\n8\n6-8\n5-7\n2\n6-7\n",
    );
    assert_eq!(out.status.code(), Some(0));
    let screen = String::from_utf8(out.stdout).expect("utf-8");
    for drawn in ["_.......__", "_.___...__", "_.___..___"] {
        assert!(
            screen.contains(&format!("Pattern: {drawn}")),
            "{drawn}: {screen}"
        );
    }
    assert!(
        screen.contains("Illegal move: place 8 has no object"),
        "{screen}"
    );
    assert!(
        screen.contains("Illegal move: place 5 has no object"),
        "{screen}"
    );
    assert!(screen.contains("Player 1 wins!"), "{screen}");
}

/// Against the perfect computer from a position we can win (rows of 3 and
/// 1 are worth *3 ⊕ *1 ≠ 0), playing the winning moves `analyze` gives for
/// the board on the screen: we must win.
#[test]
fn beat_the_computer_with_the_engines_own_advice() {
    let args = [
        "play",
        "--game",
        "circular",
        "--position",
        "_.___...__",
        "--seed",
        "2",
    ];
    let (screen, ok) = common::drive(&args, 20, |screen| {
        let pattern = screen
            .lines()
            .rev()
            .find_map(|l| l.trim().strip_prefix("Pattern: "))
            .expect("a board")
            .to_string();
        let v = json(&["analyze", "--game", "circular", "--json", &pattern]);
        v["winning_moves"][0]["move"]
            .as_str()
            .expect("a winning move")
            .to_string()
    });
    assert!(ok);
    assert!(screen.contains("You win!"), "{screen}");
    assert!(screen.contains("Nimatron: take"), "{screen}");
}

#[test]
fn analyze_json_keeps_the_contract() {
    let out = run(
        &[
            "analyze", "--game", "circular", "--json", "_", ".", ".", ".", "_", ".", "_",
        ],
        "",
    );
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: Value = serde_json::from_slice(&out.stdout).expect("json");
    assert_eq!(v["game"], "circular:3");
    assert_eq!(v["convention"], "normal");
    assert_eq!(v["position"], "_..._._");
    // Rows of 3 (*3) and 1 (*1): value *2; the winning moves leave *1 in
    // the row of 3 (take 2 from an end) — 2-3 or 3-4.
    assert_eq!(v["outcome"], "N");
    assert_eq!(v["grundy"], 2);
    let moves: Vec<&str> = v["winning_moves"]
        .as_array()
        .expect("list")
        .iter()
        .map(|m| m["move"].as_str().expect("move"))
        .collect();
    assert_eq!(moves, vec!["2-3", "3-4"]);
    assert_eq!(v["winning_moves"][0]["to"], "___._._");
    assert!(
        v["winning_moves"][0]["text"]
            .as_str()
            .unwrap()
            .contains("places 2-3")
    );

    let out = run(
        &["analyze", "--game", "circular", "--misere", "--json", "10"],
        "",
    );
    let v: Value = serde_json::from_slice(&out.stdout).expect("json");
    assert_eq!(v["convention"], "misere");
    assert_eq!(v["grundy"], Value::Null);
    assert!(v["method"].as_str().unwrap().contains("search"));
}

#[test]
fn bad_input_exits_2_with_a_clear_message() {
    for (args, says) in [
        (
            vec!["analyze", "--game", "circular", "._x."],
            "'x' (character 3",
        ),
        (vec!["analyze", "--game", "circular", "0"], "out of range"),
        (
            vec!["analyze", "--game", "circular", "5000"],
            "from 1 to 1000",
        ),
        (vec!["analyze", "--game", "circular:0", "5"], "at least 1"),
        (vec!["analyze", "--game", "circular:a", "5"], "circular:3"),
        (
            vec!["play", "--game", "circular", "--position", "___"],
            "has no moves",
        ),
    ] {
        let out = run(&args, "");
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains(says), "{args:?}: {err}");
    }
}
