//! Heap games with Grundy sequences (subtraction, modular, octal codes,
//! Grundy's game) through `analyze` and `play`.

mod common;
use common::{json, nimatron, run};

#[test]
fn kayles_winning_moves_keep_the_contract() {
    // A row of 4 in Kayles (G = 1) next to a row of 1 (G = 1): P.
    let v = json(&["analyze", "--game", "kayles", "--json", "4", "1"]);
    assert_eq!(v["outcome"], "P");
    assert_eq!(v["grundy"], 0);
    // A single row of 5 (G = 4): knock out the middle pin, leaving 2 and 2.
    let v = json(&["analyze", "--game", "kayles", "--json", "5"]);
    assert_eq!(v["outcome"], "N");
    let moves = v["winning_moves"].as_array().expect("list");
    let split = moves
        .iter()
        .find(|m| m["to"] == serde_json::json!([2, 2]))
        .expect("the middle pin wins");
    assert_eq!(split["heap"], 0);
    assert_eq!(split["take"], 1);
    assert!(
        split["text"]
            .as_str()
            .expect("text")
            .contains("leaving heaps of 2 and 2")
    );
    // Every listed move leaves a P-position.
    for m in moves {
        let to: Vec<String> = m["to"]
            .as_array()
            .expect("heaps")
            .iter()
            .map(|h| h.to_string())
            .collect();
        let mut args = vec!["analyze", "--game", "kayles", "--json"];
        args.extend(to.iter().map(String::as_str));
        assert_eq!(json(&args)["outcome"], "P", "{m}");
    }
}

#[test]
fn subtraction_follows_the_seeds_rule() {
    // S(1,2,3): the second player wins a single heap n iff n ≡ 0 mod 4
    // (normal) and iff n ≡ 1 mod 4 (misère).
    for n in 0..13u64 {
        let n_text = n.to_string();
        let v = json(&["analyze", "--game", "subtraction:1,2,3", "--json", &n_text]);
        assert_eq!(v["outcome"] == "P", n % 4 == 0, "normal {n}");
        let v = json(&[
            "analyze",
            "--game",
            "subtraction:1,2,3",
            "--misere",
            "--json",
            &n_text,
        ]);
        assert_eq!(v["outcome"] == "P", n % 4 == 1, "misère {n}");
    }
}

#[test]
fn bad_specs_and_positions_exit_2() {
    for (args, says) in [
        (
            vec!["analyze", "--game", "subtraction:0,2", "3"],
            "0 is not a move",
        ),
        (
            vec!["analyze", "--game", "subtraction:", "3"],
            "the list is empty",
        ),
        (vec!["analyze", "--game", "octal:0.1z", "3"], "'z'"),
        (vec!["analyze", "--game", "modular:0:1", "3"], "modular"),
        (
            vec!["analyze", "--game", "kayles", "2000000000000000000"],
            "at most 1000000000000000000",
        ),
        (
            vec!["analyze", "--game", "modular:3:1,2", "2000000"],
            "at most 1000000",
        ),
        (vec!["analyze", "--game", "grundy-game", "3", "x"], "'x'"),
    ] {
        let out = nimatron(&args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains(says), "{args:?}: {err}");
    }
}

#[test]
fn grundys_game_is_played_in_the_terminal() {
    let out = run(
        &[
            "play",
            "--game",
            "grundy-game",
            "--position",
            "7",
            "--seed",
            "4",
        ],
        "A 3+3\nA 6+1\nhint\nquit\n",
    );
    assert_eq!(out.status.code(), Some(0));
    let screen = String::from_utf8(out.stdout).expect("utf-8");
    assert!(screen.contains("Illegal move"), "{screen}");
    assert!(screen.contains("split heap A (7) into 1 and 6"), "{screen}");
    assert!(screen.contains("Nimatron: split heap"), "{screen}");
}

/// A heap of a trillion pins: its winning moves are counted by Kayles'
/// period and the first thousand listed, in both conventions; a game with
/// no proven period in that convention says why it cannot answer.
#[test]
fn a_trillion_pins_are_answered_by_the_period() {
    for misere in [false, true] {
        let mut args = vec!["analyze", "--game", "kayles", "--json"];
        if misere {
            args.push("--misere");
        }
        args.extend(["1000000000000", "5", "7"]);
        let out = nimatron(&args);
        assert_eq!(out.status.code(), Some(0), "{args:?}");
        let v: serde_json::Value = serde_json::from_slice(&out.stdout).expect("json");
        let listed = v["winning_moves"].as_array().expect("moves").len();
        let total = v["winning_moves_total"].as_u64().expect("total");
        let unlisted = v["winning_moves_unlisted"].as_u64().expect("unlisted");
        assert_eq!(listed, 1000, "{args:?}");
        assert_eq!(total, listed as u64 + unlisted, "{args:?}");
        assert!(total > 100_000_000_000, "{args:?}: {total}");
        assert!(v["explanation"].as_str().unwrap().contains("period 12"));
    }
    let out = nimatron(&[
        "analyze",
        "--game",
        "dawson",
        "--misere",
        "--max-seconds",
        "2",
        "10000000",
    ]);
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("too many moves to examine one by one"),
        "{err}"
    );
}
