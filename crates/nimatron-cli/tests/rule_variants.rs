//! Wythoff, Greedy Nim, Moore's Nim and Fibonacci Nim through the binary,
//! as a user or a script would run them.

mod common;
use common::{nimatron, run};

use serde_json::{Value, json};

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
    let mut all = vec!["play"];
    all.extend_from_slice(args);
    let out = run(&all, input);
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

/// Read the heap sizes off the last board drawn in `screen`.
fn last_board(screen: &str) -> Vec<u64> {
    let lines: Vec<&str> = screen.lines().collect();
    let start = lines
        .iter()
        .rposition(|l| {
            let mut w = l.split_whitespace();
            w.next() == Some("A") && w.next().is_some_and(|n| n.parse::<u64>().is_ok())
        })
        .expect("a board");
    lines[start..]
        .iter()
        .map_while(|l| {
            let mut w = l.split_whitespace();
            match (w.next(), w.next().and_then(|n| n.parse::<u64>().ok())) {
                (Some(name), Some(size)) if name.chars().all(|c| c.is_ascii_uppercase()) => {
                    Some(size)
                }
                _ => None,
            }
        })
        .collect()
}

/// A whole game of Greedy Nim through standard input, from 3 5 5 7 (an
/// N-position), answering every computer move with Wikipedia's move computed
/// here from the board on the screen: the player must win.
fn greedy_full_game(misere: bool) {
    use nimatron::Convention;
    use nimatron::games::greedy;
    let mut args = vec!["play", "--game", "greedy", "--seed", "3"];
    if misere {
        args.push("--misere");
    }
    let convention = if misere {
        Convention::Misere
    } else {
        Convention::Normal
    };
    let (screen, ok) = common::drive(&args, 60, |screen| {
        let heaps = last_board(screen);
        let (moves, _) = greedy::winning_moves(&heaps, convention);
        let mv = moves.first().expect("we keep a winning position");
        format!("{} {}", (b'A' + mv.heap as u8) as char, mv.take)
    });
    assert!(ok);
    assert!(screen.contains("You win!"), "{screen}");
    assert!(screen.contains("Nimatron: "), "{screen}");
}

#[test]
fn greedy_full_games_through_standard_input() {
    greedy_full_game(false);
    greedy_full_game(true);
}

#[test]
fn greedy_json_and_bad_moves() {
    // 3 5 5 7: one largest heap, p_n = 2 even: reduce 7 below 5.
    let v = analyze_json(&["--game", "greedy", "3", "5", "5", "7"]);
    assert_eq!(v["outcome"], "N");
    let takes: Vec<u64> = v["winning_moves"]
        .as_array()
        .expect("list")
        .iter()
        .map(|m| m["take"].as_u64().expect("take"))
        .collect();
    assert_eq!(takes, [3, 4, 5, 6, 7]);
    assert_eq!(v["winning_moves"][0]["heap"], 3);
    // Misère 2 1 1: reduce the 2 to 1, leaving three 1-heaps.
    let v = analyze_json(&["--game", "greedy", "--misere", "2", "1", "1"]);
    assert_eq!(v["winning_moves"][0]["to"], json!([1, 1, 1]));
    let (screen, code) = play(&["--game", "greedy", "--position", "3 5 5"], "A 1\nquit\n");
    assert_eq!(code, Some(0));
    assert!(
        screen.contains("Greedy Nim takes only from a largest heap (B or C)"),
        "{screen}"
    );
    bad_input(&["analyze", "--game", "greedy", "3", "-1"], "heap '-1'");
}

#[test]
fn moore_json_constructive_move_and_counterexample() {
    // 3 5 6 7 under moore:2: every column has three 1s (P).
    let v = analyze_json(&["--game", "moore:2", "3", "5", "6", "7"]);
    assert_eq!(v["outcome"], "P");
    // Huge heaps: the constructed move reduces at most 2 heaps and leaves
    // every column a multiple of 3.
    let v = analyze_json(&[
        "--game",
        "moore:2",
        "1000000000000",
        "999999999999",
        "77777777777",
        "5",
        "6",
    ]);
    assert_eq!(v["outcome"], "N");
    let mv = &v["winning_moves"][0];
    let after: Vec<u64> = mv["to"]
        .as_array()
        .expect("to")
        .iter()
        .map(|h| h.as_u64().expect("size"))
        .collect();
    for j in 0..64 {
        let ones = after.iter().filter(|&&h| h >> j & 1 == 1).count();
        assert_eq!(ones % 3, 0, "{v}");
    }
    assert!(mv["heap"].is_null() || mv["heap"].is_u64());
    assert!(
        v["explanation"]
            .as_str()
            .expect("text")
            .contains("only the constructed winning move is listed")
    );
    // Wikipedia's cap claim fails: moore:2,1 on 1 1 1 2 is N, by search.
    let v = analyze_json(&["--game", "moore:2,1", "1", "1", "1", "2"]);
    assert_eq!(v["outcome"], "N");
    assert!(v["method"].as_str().expect("method").contains("memoised"));
    assert!(v["winning_moves"][0]["heap"].is_null());
    assert_eq!(v["winning_moves"][0]["take"], 2);
    assert_eq!(v["winning_moves"][0]["move"], "A 1, D 1");
}

#[test]
fn moore_bad_specs_and_moves() {
    bad_input(&["analyze", "--game", "moore:0", "1"], "K heaps per move");
    bad_input(&["analyze", "--game", "moore:2,0", "1"], "at least 1");
    bad_input(&["analyze", "--game", "moore", "1"], "K or K,R");
    let (screen, code) = play(
        &["--game", "moore:2,3", "--position", "3 5 6"],
        "A 1, B 1, C 1\nB 4\nquit\n",
    );
    assert_eq!(code, Some(0));
    assert!(screen.contains("at most 2 heaps"), "{screen}");
    assert!(screen.contains("at most 3 may be taken"), "{screen}");
}

/// A whole game of Fibonacci Nim through standard input from a fresh heap
/// of 20, taking the Zeckendorf move computed here from the screen.
fn fibonacci_full_game(misere: bool) {
    use nimatron::Convention;
    use nimatron::games::fibonacci::{FibPosition, solve};
    let mut args = vec!["play", "--game", "fibonacci", "--seed", "9"];
    if misere {
        args.push("--misere");
    }
    let convention = if misere {
        Convention::Misere
    } else {
        Convention::Normal
    };
    let (screen, ok) = common::drive(&args, 40, |screen| {
        let number_after = |key: &str| -> u64 {
            let line = screen
                .lines()
                .rev()
                .find(|l| l.trim_start().starts_with(key));
            line.and_then(|l| l.trim_start()[key.len()..].split_whitespace().next())
                .and_then(|w| w.parse().ok())
                .expect("a number on the board")
        };
        let position = FibPosition::with_limit(number_after("heap"), number_after("may take 1 to"));
        let (_, takes) = solve(&position, convention);
        format!(
            "take {}",
            takes.first().expect("we keep a winning position")
        )
    });
    assert!(ok);
    assert!(screen.contains("You win!"), "{screen}");
    assert!(screen.contains("Nimatron: "), "{screen}");
}

#[test]
fn fibonacci_full_games_through_standard_input() {
    fibonacci_full_game(false);
    fibonacci_full_game(true);
}

#[test]
fn fibonacci_positions_moves_and_limits() {
    let v = analyze_json(&["--game", "fibonacci", "21"]);
    assert_eq!(v["outcome"], "P");
    assert_eq!(v["position"], "21");
    let v = analyze_json(&["--game", "fibonacci", "20/4"]);
    assert_eq!(v["outcome"], "N");
    assert_eq!(v["winning_moves"][0]["heap"], 0);
    assert_eq!(v["winning_moves"][0]["take"], 2);
    assert_eq!(v["winning_moves"][0]["to"], "18/4");
    // 20 = 13 + 5 + 2 and the limit is 1: lost.
    let v = analyze_json(&["--game", "fibonacci", "20/1"]);
    assert_eq!(v["outcome"], "P");
    bad_input(
        &["analyze", "--game", "fibonacci", "3", "4"],
        "Fibonacci Nim has one",
    );
    bad_input(&["analyze", "--game", "fibonacci", "20/0"], "at least 1");
    bad_input(&["analyze", "--game", "fibonacci", "20/x"], "limit 'x'");
    bad_input(&["analyze", "--game", "fibonacci:2", "20"], "no parameters");
    // A take above the limit is refused in play, naming the limit.
    let (screen, code) = play(
        &["--game", "fibonacci", "--position", "20/4"],
        "take 5\nquit\n",
    );
    assert_eq!(code, Some(0));
    assert!(screen.contains("at most 4 may be taken now"), "{screen}");
    let (screen, _) = play(
        &["--game", "fibonacci", "--position", "20"],
        "take 20\nquit\n",
    );
    assert!(
        screen.contains("the first move may take at most 19"),
        "{screen}"
    );
}
