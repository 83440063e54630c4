//! The `analyze` and `positions` commands, run as a user would.

mod common;
use common::{json, nimatron};

use std::io::Write;
use std::process::{Command, Stdio};

use serde_json::Value;

#[test]
fn json_contract_fields() {
    let v = json(&["analyze", "--json", "3", "4", "5"]);
    assert_eq!(v["game"], "nim");
    assert_eq!(v["convention"], "normal");
    assert_eq!(v["position"], serde_json::json!([3, 4, 5]));
    assert_eq!(v["outcome"], "N");
    assert_eq!(v["grundy"], 2);
    let moves = v["winning_moves"].as_array().expect("list");
    assert_eq!(moves.len(), 1);
    assert_eq!(moves[0]["heap"], 0);
    assert_eq!(moves[0]["take"], 2);
    assert_eq!(moves[0]["to"], serde_json::json!([1, 4, 5]));
    assert!(moves[0]["text"].as_str().expect("text").contains("heap A"));
}

#[test]
fn json_misere_and_losing_positions() {
    // The Python doctest in Wikipedia's Nim article: misère [1, 5] → take 5 from heap 1.
    let v = json(&["analyze", "--misere", "--json", "1", "5"]);
    assert_eq!(v["convention"], "misere");
    assert_eq!(v["winning_moves"][0]["heap"], 1);
    assert_eq!(v["winning_moves"][0]["take"], 5);
    // Normal [1, 5] → take 4 from heap 1.
    let v = json(&["analyze", "--json", "1", "5"]);
    assert_eq!(v["winning_moves"][0]["take"], 4);
    // A P-position has no winning moves.
    let v = json(&["analyze", "--json", "1", "2", "3"]);
    assert_eq!(v["outcome"], "P");
    assert_eq!(v["winning_moves"], serde_json::json!([]));
}

#[test]
fn text_explains_with_binary_columns() {
    let out = nimatron(&["analyze", "19", "20", "21"]);
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).expect("utf-8");
    assert!(text.contains("10010"), "{text}"); // the nim-sum 18 in binary
    assert!(text.contains("Winning moves (3)"), "{text}");
}

#[test]
fn bad_heaps_exit_2_naming_the_word() {
    for (word, says) in [
        ("-3", "negative"),
        ("abc", "not a number"),
        ("18446744073709551616", "too large"),
        ("2.5", "not a whole number"),
    ] {
        let out = nimatron(&["analyze", "3", word]);
        assert_eq!(out.status.code(), Some(2), "{word}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(
            err.contains(&format!("'{word}'")) && err.contains(says),
            "{word}: {err}"
        );
        assert!(err.contains("whole number from 0 to"), "{word}: {err}");
        assert!(!err.contains("panicked"), "{err}");
    }
    let out = nimatron(&["analyze"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("no heaps given"));
    let out = nimatron(&["analyze", "--game", "chess", "1"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("unknown game 'chess'"));
}

#[test]
fn heaps_from_standard_input() {
    let heaps: Vec<String> = (1..=100_000u64).map(|h| h.to_string()).collect();
    let mut child = Command::new(env!("CARGO_BIN_EXE_nimatron"))
        .args(["analyze", "--json", "-"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("spawn");
    let input = heaps.join("\n");
    let mut stdin = child.stdin.take().expect("stdin");
    let writer = std::thread::spawn(move || stdin.write_all(input.as_bytes()));
    let out = child.wait_with_output().expect("output");
    writer.join().expect("writer").expect("write");
    assert!(out.status.success());
    let v: Value = serde_json::from_slice(&out.stdout).expect("JSON");
    let expected = (1..=100_000u64).fold(0, |a, h| a ^ h);
    assert_eq!(v["grundy"], expected);
    assert_eq!(v["position"].as_array().expect("list").len(), 100_000);
    // More than 1000 heaps: one winning move listed by default, total given.
    assert_eq!(v["winning_moves"].as_array().expect("list").len(), 1);
    assert!(v["winning_moves_total"].as_u64().expect("count") >= 1);

    let out = Command::new(env!("CARGO_BIN_EXE_nimatron"))
        .args(["analyze", "-"])
        .stdin(Stdio::null())
        .output()
        .expect("run");
    assert_eq!(out.status.code(), Some(2));
}

/// The "winning positions" table of Wikipedia's Nim article, reproduced by `positions`.
#[test]
fn positions_reproduce_wikipedias_table() {
    let table = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../tests/data/wikipedia_winning_positions.txt"
    ))
    .expect("data file");
    for heaps in 2..=4usize {
        let v = json(&[
            "positions",
            "--heaps",
            &heaps.to_string(),
            "--max",
            "13",
            "--both",
            "--json",
        ]);
        let listed: Vec<(Vec<u64>, bool, bool)> = v["p_positions"]
            .as_array()
            .expect("list")
            .iter()
            .map(|e| {
                let hs = e["heaps"]
                    .as_array()
                    .expect("heaps")
                    .iter()
                    .map(|h| h.as_u64().expect("u64"))
                    .collect();
                (
                    hs,
                    e["normal"].as_bool().expect("bool"),
                    e["misere"].as_bool().expect("bool"),
                )
            })
            .collect();
        let lookup = |p: &[u64]| {
            listed
                .iter()
                .find(|(q, _, _)| q == p)
                .map(|(_, n, m)| (*n, *m))
        };
        let mut checked = 0;
        for line in table
            .lines()
            .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        {
            let (column, entry) = line.split_once(':').expect("column");
            if column.trim().parse::<usize>().expect("column") != heaps {
                continue;
            }
            let words: Vec<&str> = entry.split_whitespace().collect();
            let (normal_only, misere_only) = (words.contains(&"*"), words.contains(&"**"));
            let values: Vec<&str> = words.into_iter().filter(|w| !w.starts_with('*')).collect();
            // Generic rows: substitute n, m in 1..=9.
            for n in 1..=9u64 {
                for m in 1..=9u64 {
                    let mut p: Vec<u64> = values
                        .iter()
                        .map(|w| match *w {
                            "n" => n,
                            "m" => m,
                            x => x.parse().expect("number"),
                        })
                        .collect();
                    p.sort_unstable();
                    let got = lookup(&p).unwrap_or((false, false));
                    if p.iter().all(|&x| x == 1) {
                        // All-ones positions: the explicit marked rows decide.
                        let expected = (p.len().is_multiple_of(2), p.len() % 2 == 1);
                        assert_eq!(got, expected, "{p:?}");
                    } else {
                        let expected = (!misere_only, !normal_only);
                        assert_eq!(got, expected, "{line} as {p:?}");
                    }
                    checked += 1;
                }
            }
        }
        assert!(checked > 0);
    }
}

#[test]
fn positions_refuse_huge_listings() {
    let out = nimatron(&["positions", "--heaps", "12", "--max", "1000"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("limit"));
}

#[test]
fn a_move_before_the_analysis() {
    // Wikipedia's Bob and Alice game: after Bob takes 2 from A, Alice faces a P-position.
    let v = json(&["analyze", "--json", "--move", "A 2", "3", "4", "5"]);
    assert_eq!(v["position"], serde_json::json!([1, 4, 5]));
    assert_eq!(v["outcome"], "P");
    // Fibonacci Nim: after taking 2 from 20/4 the opponent faces 18/4, lost.
    let v = json(&[
        "analyze",
        "--game",
        "fibonacci",
        "--json",
        "--move",
        "take 2",
        "20/4",
    ]);
    assert_eq!(v["position"], "18/4");
    assert_eq!(v["outcome"], "P");
    // A take larger than allowed is bad input, naming the limit.
    let out = nimatron(&["analyze", "--game", "fibonacci", "--move", "take 9", "20/4"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("at most 4 may be taken"));
    let out = nimatron(&["analyze", "--move", "A 9", "3", "4", "5"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("heap A has only 3 objects"));
}

#[test]
fn searches_stop_at_their_time_limit_and_say_so() {
    // Node Kayles on an 8x8 grid is far beyond a fraction of a second.
    let out = nimatron(&[
        "analyze",
        "--game",
        "node-kayles",
        "--max-seconds",
        "0.3",
        "grid:8x8",
    ]);
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("time limit of 0.3 s"), "{err}");
    let out = nimatron(&["analyze", "--max-seconds", "0", "--game", "kayles", "3"]);
    assert_eq!(out.status.code(), Some(2));
}

const MAX: &str = "18446744073709551615";

#[test]
fn wythoff_with_four_huge_heaps_is_refused_not_a_capacity_overflow() {
    let out = nimatron(&["analyze", "--game", "wythoff", MAX, MAX, MAX, MAX]);
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("too many to search"), "{err}");
}

#[test]
fn candy_heaps_whose_total_overflows_are_bad_input() {
    let out = nimatron(&["analyze", "--game", "candy", MAX, "1"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("candies in all"));
}

#[test]
fn a_subtraction_set_reaching_u64_max_does_not_overflow_the_period_bound() {
    let spec = format!("subtraction:{MAX}");
    let out = nimatron(&["grundy", &spec, "--to", "100", "--json"]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let out = nimatron(&["analyze", "--game", &spec, MAX]);
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("no proven period"));
}

#[test]
fn play_with_huge_heaps_does_not_list_every_move() {
    let out = common::run(
        &["play", "--heaps", &format!("{MAX},{MAX}")],
        "hint\nquit\n",
    );
    assert_eq!(out.status.code(), Some(0));
    let screen = String::from_utf8_lossy(&out.stdout);
    assert!(screen.contains("Hint: this is a P-position"), "{screen}");
}

/// `analyze --game notakto 3 4` is seven empty boards (a number k stands
/// for k boards): a trap for anyone thinking in heaps, so it says so.
#[test]
fn notakto_numbers_are_counts_of_boards_and_say_so() {
    let out = common::nimatron(&["analyze", "--game", "notakto", "3", "4"]);
    assert!(out.status.success());
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("7 empty boards"), "{stderr}");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let position = stdout
        .lines()
        .find(|l| l.starts_with("Position: "))
        .unwrap();
    assert_eq!(position.matches(".../.../...").count(), 7, "{position}");
    // One number, or boards by their cells, are not warned about.
    for args in [vec!["7"], vec!["X...X....", "........."]] {
        let mut all = vec!["analyze", "--game", "notakto"];
        all.extend(args.iter());
        let out = common::nimatron(&all);
        assert!(out.status.success());
        assert!(
            !String::from_utf8_lossy(&out.stderr).contains("note:"),
            "{args:?}"
        );
    }
}
