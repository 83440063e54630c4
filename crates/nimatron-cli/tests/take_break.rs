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
            vec!["analyze", "--game", "kayles", "2000000"],
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
