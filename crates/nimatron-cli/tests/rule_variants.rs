//! Wythoff, Greedy Nim, Moore's Nim and Fibonacci Nim through the binary,
//! as a user or a script would run them.

use std::io::Write;
use std::process::{Command, Output, Stdio};

use serde_json::{Value, json};

fn nimatron(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_nimatron"))
        .args(args)
        .output()
        .expect("nimatron runs")
}

fn analyze_json(args: &[&str]) -> Value {
    let mut all = vec!["analyze", "--json"];
    all.extend_from_slice(args);
    let out = nimatron(&all);
    assert!(
        out.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).expect("valid JSON")
}

/// Exit code 2 and a message on standard error containing `says`.
fn bad_input(args: &[&str], says: &str) {
    let out = nimatron(args);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
    assert!(err.contains(says), "{args:?}: {err}");
}

fn play(args: &[&str], input: &str) -> (String, Option<i32>) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_nimatron"))
        .arg("play")
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn");
    child
        .stdin
        .take()
        .expect("stdin")
        .write_all(input.as_bytes())
        .expect("write");
    let out = child.wait_with_output().expect("output");
    (
        String::from_utf8(out.stdout).expect("utf-8"),
        out.status.code(),
    )
}

#[test]
fn wythoff_json_keeps_the_contract_fields() {
    let v = analyze_json(&["--game", "wythoff", "3", "5"]);
    assert_eq!(v["game"], "wythoff");
    assert_eq!(v["convention"], "normal");
    assert_eq!(v["position"], json!([3, 5]));
    assert_eq!(v["outcome"], "P");
    assert!(v["grundy"].is_null());
    assert_eq!(v["winning_moves"], json!([]));

    // 4 5: reduce A to 3 (the partner of 5), or take 3 from both (→ 1 2).
    let v = analyze_json(&["--game", "wythoff", "4", "5"]);
    assert_eq!(v["outcome"], "N");
    let moves = v["winning_moves"].as_array().expect("list");
    assert_eq!(moves.len(), 2);
    assert_eq!(moves[0]["heap"], 0);
    assert_eq!(moves[0]["take"], 1);
    assert_eq!(moves[0]["to"], json!([3, 5]));
    // The all-heaps move: no single heap; `take` counts every object removed.
    assert!(moves[1]["heap"].is_null());
    assert_eq!(moves[1]["take"], 6);
    assert_eq!(moves[1]["to"], json!([1, 2]));
    assert_eq!(moves[1]["move"], "all 3");
    assert!(
        moves[1]["text"]
            .as_str()
            .expect("text")
            .contains("from every heap"),
        "{v}"
    );

    // Misère Wythoff: (2, 2) is a P-position, (1, 2) is not.
    let v = analyze_json(&["--game", "wythoff", "--misere", "2", "2"]);
    assert_eq!(v["outcome"], "P");
    let v = analyze_json(&["--game", "wythoff", "--misere", "1", "2"]);
    assert_eq!(v["winning_moves"][0]["to"], json!([1, 0]));
}

#[test]
fn wythoff_huge_heaps_and_search_for_four_heaps() {
    // (⌊kφ⌋, ⌊kφ⌋ + k) for k = 10^18: 1618033988749894848, 2618033988749894848.
    let v = analyze_json(&[
        "--game",
        "wythoff",
        "1618033988749894848",
        "2618033988749894848",
    ]);
    assert_eq!(v["outcome"], "P");
    let v = analyze_json(&["--game", "wythoff", "1", "1", "1", "1"]);
    assert_eq!(v["outcome"], "N");
    assert!(v["method"].as_str().expect("method").contains("memoised"));
    assert_eq!(v["winning_moves"][0]["to"], json!([0, 0, 0, 0]));
}

#[test]
fn wythoff_play_takes_from_every_heap() {
    let (screen, code) = play(
        &["--game", "wythoff", "--position", "4 5", "--seed", "1"],
        "all 9\nall 3\nquit\n",
    );
    assert_eq!(code, Some(0), "{screen}");
    assert!(screen.contains("at most 4"), "{screen}");
    assert!(
        screen.contains("You: take 3 from every heap (4 5 → 1 2)"),
        "{screen}"
    );
    // 1 2 is a P-position: whatever the computer does, it answers.
    assert!(screen.contains("Nimatron: "), "{screen}");
}

#[test]
fn wythoff_bad_input_exits_2() {
    bad_input(
        &["analyze", "--game", "wythoff:2", "3"],
        "wythoff takes no parameters",
    );
    bad_input(&["analyze", "--game", "wythoff", "3", "x"], "heap 'x'");
}
