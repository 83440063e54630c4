//! `twenty-one` and `hundred` through the binary: play over stdin, the JSON
//! contract, and bad input.

mod common;
use common::run;

use serde_json::Value;

/// Two people replay Wikipedia's sample game of 21: player 2 says 4, 8, 12,
/// 16 and 20, and player 1 is left to say 21.
#[test]
fn friends_replay_the_seeds_sample_game() {
    let out = run(
        &["play", "--game", "twenty-one", "--opponent", "friend"],
        "1\nsay 4\n+1\n8\n10\n12\n15\n16\nadd 3\n20\n",
    );
    assert_eq!(out.status.code(), Some(0));
    let screen = String::from_utf8(out.stdout).expect("utf-8");
    assert!(
        screen.contains("Player 2: say 20 (add 1), forcing the opponent to say 21."),
        "{screen}"
    );
    assert!(
        screen.contains("The player to move must say 21 and loses."),
        "{screen}"
    );
    assert!(screen.contains("Player 2 wins!"), "{screen}");
}

/// Against the perfect computer, moving first from 0 loses: whatever we
/// say, Nimatron answers with the next multiple of 4 and wins.
#[test]
fn the_computer_says_the_multiples_of_4() {
    let out = run(
        &["play", "--game", "twenty-one", "--seed", "5"],
        "3\n+3\n9\nhint\n+3\n17\n",
    );
    assert_eq!(out.status.code(), Some(0));
    let screen = String::from_utf8(out.stdout).expect("utf-8");
    for said in [4, 8, 12, 16, 20] {
        assert!(
            screen.contains(&format!("Nimatron: say {said} (")),
            "{said}: {screen}"
        );
    }
    assert!(screen.contains("Hint: this is a P-position"), "{screen}");
    assert!(screen.contains("Nimatron wins!"), "{screen}");
}

#[test]
fn illegal_moves_are_refused_in_play() {
    let out = run(
        &["play", "--game", "hundred", "--seed", "1"],
        "12\n+11\n0\nquit\n",
    );
    let screen = String::from_utf8(out.stdout).expect("utf-8");
    assert_eq!(out.status.code(), Some(0));
    assert!(
        screen.contains("Illegal move: saying 12 would add 12"),
        "{screen}"
    );
    assert!(
        screen.contains("Illegal move: you may add 1 to 10 per turn, not 11"),
        "{screen}"
    );
    assert!(
        screen.contains("Illegal move: the total is already 0"),
        "{screen}"
    );
}

#[test]
fn analyze_json_keeps_the_contract() {
    let out = run(&["analyze", "--game", "hundred", "--json", "45"], "");
    assert!(out.status.success());
    let v: Value = serde_json::from_slice(&out.stdout).expect("json");
    assert_eq!(v["game"], "hundred:10,100");
    assert_eq!(v["convention"], "normal");
    assert_eq!(v["position"], "45");
    assert_eq!(v["outcome"], "P");
    assert_eq!(v["grundy"], 0);
    assert_eq!(v["winning_moves"], serde_json::json!([]));

    let out = run(&["analyze", "--game", "twenty-one", "--json", "13"], "");
    let v: Value = serde_json::from_slice(&out.stdout).expect("json");
    assert_eq!(v["outcome"], "N");
    assert_eq!(v["grundy"], 3);
    assert_eq!(v["winning_moves"][0]["to"], "16");
    assert!(
        v["winning_moves"][0]["text"]
            .as_str()
            .unwrap()
            .contains("Say 16")
    );

    let out = run(
        &["analyze", "--game", "hundred", "--misere", "--json", "95"],
        "",
    );
    let v: Value = serde_json::from_slice(&out.stdout).expect("json");
    assert_eq!(v["convention"], "misere");
    assert_eq!(v["winning_moves"][0]["to"], "99");
}

#[test]
fn bad_input_exits_2_with_a_clear_message() {
    for (args, says) in [
        (
            vec!["analyze", "--game", "twenty-one", "22"],
            "total 22 is above 21",
        ),
        (
            vec!["analyze", "--game", "twenty-one", "21"],
            "ends the game",
        ),
        (vec!["analyze", "--game", "hundred:10,50", "51"], "above 50"),
        (
            vec!["analyze", "--game", "hundred", "ten"],
            "'ten' is not a total",
        ),
        (
            vec!["analyze", "--game", "twenty-one", "--misere", "3"],
            "no misère form",
        ),
        (
            vec!["play", "--game", "twenty-one", "--misere"],
            "no misère form",
        ),
        (
            vec!["analyze", "--game", "twenty-one:0,21", "3"],
            "at least 1",
        ),
        (vec!["analyze", "--game", "hundred:3", "3"], "K,N"),
        (
            vec!["analyze", "--game", "hundred:99999,100", "3"],
            "at most 10000",
        ),
        (
            vec!["play", "--game", "hundred", "--position", "100"],
            "has no moves",
        ),
    ] {
        let out = run(&args, "");
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains(says), "{args:?}: {err}");
    }
}
