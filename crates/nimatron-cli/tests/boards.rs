//! The games whose positions are not heaps (Chomp, boards, graphs, Building
//! Nim, Candy Nim, Wordnim, Green Hackenbush, Notakto), run as a user would:
//! `analyze` with and without a position, bad input, and `play` driven
//! through standard input.

mod common;
use common::{json, nimatron, run};
use nimatron::TextGame;

/// Exit code 2 and a message containing `says`.
fn bad(args: &[&str], says: &str) {
    let out = nimatron(args);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
    assert!(err.contains(says), "{args:?}: {err}");
}

#[allow(dead_code)]
fn play(args: &[&str], input: &str) -> (String, Option<i32>) {
    let mut all = vec!["play"];
    all.extend_from_slice(args);
    let out = run(&all, input);
    let mut screen = String::from_utf8(out.stdout).expect("utf-8");
    screen.push_str(&String::from_utf8_lossy(&out.stderr));
    (screen, out.status.code())
}

#[test]
fn chomp_start_is_a_first_player_win_with_a_move_found_by_search() {
    let v = json(&["analyze", "--game", "chomp:3x4", "--json"]);
    assert_eq!(v["game"], "chomp:3x4");
    assert_eq!(v["position"], "4 4 4");
    assert_eq!(v["outcome"], "N");
    assert!(v["grundy"].as_u64().is_some_and(|g| g > 0));
    let moves = v["winning_moves"].as_array().expect("list");
    assert!(!moves.is_empty());
    for m in moves {
        assert!(
            m["text"]
                .as_str()
                .expect("text")
                .contains("Bite the square")
        );
        assert!(m["to"].is_string());
    }
    // 2x5: bite the top-right square, leaving 5 4.
    let v = json(&["analyze", "--game", "chomp:2x5", "--json"]);
    assert_eq!(v["winning_moves"][0]["to"], "5 4");
    assert_eq!(v["winning_moves"].as_array().expect("list").len(), 1);
    bad(&["analyze", "--game", "chomp:3x4", "3", "4"], "never grow");
    bad(
        &["analyze", "--game", "chomp:3x4", "--misere"],
        "not offered",
    );
    bad(&["analyze", "--game", "chomp:3x"], "RxC");
    // A state limit that is too small says so; raising it works.
    let out = nimatron(&["analyze", "--game", "chomp:8x8", "--max-states", "50"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("--max-states"));
    let v = json(&["analyze", "--game", "chomp:8x8", "--json"]);
    assert_eq!(v["outcome"], "N");
}

#[test]
fn chomp_play_to_the_end() {
    // 1x3: bite column 2, leaving only the poisoned square: we win.
    let (screen, code) = play(&["--game", "chomp:1x3"], "1 1\n1 2\n");
    assert_eq!(code, Some(0), "{screen}");
    assert!(screen.contains("poisoned square"), "{screen}");
    assert!(screen.contains("You win!"), "{screen}");
}

/// The text after the last `position: ` line on the screen.
fn last_position(screen: &str) -> String {
    screen
        .lines()
        .rev()
        .find_map(|l| l.trim().strip_prefix("position: "))
        .expect("a position line")
        .to_string()
}

/// A whole game against the perfect computer from an N-position, moving
/// first and playing a winning move found by the library from the position
/// on the screen: the player must win, and the computer must answer.
fn full_game(spec: &str, position: &str, extra: &[&str]) -> String {
    let game = spec
        .parse::<nimatron::GameSpec>()
        .expect("spec")
        .build()
        .expect("game");
    let convention = if extra.contains(&"--misere") {
        nimatron::Convention::Misere
    } else {
        nimatron::Convention::Normal
    };
    let mut args = vec![
        "play",
        "--game",
        spec,
        "--position",
        position,
        "--seed",
        "3",
    ];
    args.extend_from_slice(extra);
    let (screen, ok) = common::drive(&args, 200, |screen| {
        let here = last_position(screen);
        let a = game
            .analyze_text(&here, convention, Default::default())
            .expect("analysis");
        let mv = a.winning_moves.first().expect("we keep a winning position");
        mv.notation.clone()
    });
    assert!(ok);
    assert!(screen.contains("You win!"), "{screen}");
    assert!(screen.contains("Nimatron: "), "{screen}");
    screen
}

#[test]
fn board_analyze_and_bad_boards() {
    let v = json(&["analyze", "--game", "board:3x3", "--json"]);
    assert_eq!(v["position"], "###/###/###");
    assert_eq!(v["outcome"], "N");
    let moves = v["winning_moves"].as_array().expect("list");
    assert!(moves.iter().any(|m| m["to"] == "###/.../###"));
    // The facts: a line is a heap, the L-tromino is 3, the 2x2 square 0.
    let v = json(&["analyze", "--game", "board:1x6", "--json"]);
    assert_eq!(v["grundy"], 6);
    let v = json(&["analyze", "--game", "board:2x2", "--json", "##/#."]);
    assert_eq!(v["grundy"], 3);
    let v = json(&["analyze", "--game", "board:2x2", "--json", "##", "##"]);
    assert_eq!(v["grundy"], 0);
    let v = json(&["analyze", "--game", "board:2x2x2", "--json", "--misere"]);
    assert_eq!(v["convention"], "misere");
    assert!(v["grundy"].is_null());
    bad(&["analyze", "--game", "board:3x3", "###/##/###"], "ragged");
    bad(
        &["analyze", "--game", "board:3x3", "###/#?#/###"],
        "'#' for a piece",
    );
    bad(&["analyze", "--game", "board:9x9x9"], "at most 128 cells");
}

#[test]
fn board_play_through_the_terminal() {
    // The full 3x3 board is an N-position; the player wins it against Nimatron.
    let screen = full_game("board:3x3", "###/###/###", &[]);
    assert!(screen.contains("remove"), "{screen}");
    full_game("board:2x3", "###/###", &["--misere"]);
}

#[test]
fn node_kayles_analyze_and_bad_graphs() {
    // The start is the Petersen graph.
    let v = json(&["analyze", "--game", "node-kayles", "--json"]);
    assert_eq!(v["outcome"], "N");
    assert!(v["position"].as_str().expect("text").contains("1-2"));
    // P_5 is Dawson's chess heap 5: value 3 (OEIS A002187).
    let v = json(&["analyze", "--game", "node-kayles", "--json", "path:5"]);
    assert_eq!(v["grundy"], 3);
    let v = json(&["analyze", "--game", "node-kayles", "--json", "1-2,2-3,4-5"]);
    assert_eq!(v["grundy"], 2 ^ 1);
    bad(
        &["analyze", "--game", "node-kayles", "n=4,1-2,2-9"],
        "vertex 9, which does not exist",
    );
    bad(&["analyze", "--game", "node-kayles", "1-2:3"], "carry none");
    bad(&["analyze", "--game", "node-kayles", "1-1"], "itself");
}

#[test]
fn graph_nim_analyze_and_bad_graphs() {
    let v = json(&["analyze", "--game", "graph-nim", "--json", "a-b:1,b-c:1,@a"]);
    assert_eq!(v["outcome"], "P");
    let v = json(&["analyze", "--game", "graph-nim", "--json", "a-b:4,@a"]);
    assert_eq!(v["grundy"], 4);
    // Lowering the edge to 0 uses it up: both ends remain, alone.
    assert_eq!(v["winning_moves"][0]["to"], "a,b,@b");
    let v = json(&["analyze", "--game", "graph-nim", "--json"]);
    assert!(v["outcome"] == "N" || v["outcome"] == "P");
    bad(
        &["analyze", "--game", "graph-nim", "a-b:-3,@a"],
        "negative weight -3",
    );
    bad(
        &["analyze", "--game", "graph-nim", "a-b:3,@z"],
        "token is on vertex z",
    );
    bad(&["analyze", "--game", "graph-nim", "a-b:3"], "no token");
}

#[test]
fn node_kayles_and_graph_nim_play_through_the_terminal() {
    let screen = full_game("node-kayles", "path:7,cycle:5", &[]);
    assert!(screen.contains("remove vertex"), "{screen}");
    full_game("node-kayles", "path:3,cycle:4", &["--misere"]);
    let screen = full_game("graph-nim", "a-b:2,b-c:2,a-c:2,c-d:3,@a", &[]);
    assert!(screen.contains("move the token"), "{screen}");
}

#[test]
fn hackenbush_analyze_describe_and_bad_pictures() {
    // A fork (*1) and a triangle on the ground (*1): a second-player win.
    let fork_and_triangle = ["g-1 1-2 1-3", "g-4 4-5 5-g"];
    let mut args = vec!["analyze", "--game", "hackenbush", "--json"];
    args.extend(fork_and_triangle);
    let v = json(&args);
    assert_eq!(v["game"], "hackenbush");
    assert_eq!(v["position"], "g-1 g-4 g-5 1-2 1-3 4-5");
    assert_eq!(v["outcome"], "P");
    assert_eq!(v["grundy"], 0);
    assert_eq!(v["winning_moves"], serde_json::json!([]));
    // A stalk of 3 (*3) and a square (0): cut the stalk at the ground, or
    // open the square into stalks worth *3 in all.
    let v = json(&[
        "analyze",
        "--game",
        "hackenbush",
        "--json",
        "stalk:3 + cycle:4",
    ]);
    assert_eq!(v["grundy"], 3);
    let cuts: Vec<&str> = v["winning_moves"]
        .as_array()
        .expect("list")
        .iter()
        .map(|m| m["to"].as_str().expect("text"))
        .collect();
    assert_eq!(cuts.len(), 5, "{cuts:?}");
    assert!(cuts.contains(&"g-4 g-6 4-5 5-6"), "{cuts:?}");
    let out = nimatron(&["analyze", "--game", "hackenbush", "tree:1(1,2) cycle:3"]);
    assert!(out.status.success());
    let text = common::stdout(&out);
    assert!(text.contains("Fusion principle"), "{text}");
    assert!(text.contains("colon principle at 1"), "{text}");
    // Misère play is searched: a triangle on the ground is lost for the
    // player to move (every cut leaves a misère N-position).
    let triangle = "g-1 1-2 2-g";
    let v = json(&[
        "analyze",
        "--game",
        "hackenbush",
        "--misere",
        "--json",
        triangle,
    ]);
    assert_eq!(v["convention"], "misere");
    assert_eq!(v["outcome"], "P");
    let out = nimatron(&["games", "hackenbush"]);
    assert!(out.status.success());
    let text = common::stdout(&out);
    for needle in [
        "Green Hackenbush",
        "stalk:N",
        "Colon principle",
        "Winning Ways",
    ] {
        assert!(text.contains(needle), "{needle}: {text}");
    }
    for (position, says) in [
        ("g-1 2-3", "the edge 2-3 is not joined to the ground"),
        ("g-1 7", "lone vertex"),
        ("7-8", "e.g. 'g-1 1-2"),
        ("g-1:3", "carry no weight"),
        ("path:3", "not a generator"),
    ] {
        bad(&["analyze", "--game", "hackenbush", position], says);
    }
    bad(
        &[
            "analyze",
            "--game",
            "hackenbush",
            "--move",
            "1-9",
            "stalk:2",
        ],
        "no vertex 9",
    );
}

#[test]
fn hackenbush_play_through_the_terminal() {
    let screen = full_game("hackenbush", "stalk:3 + cycle:4 + tree:1(1,2)", &[]);
    assert!(screen.contains("cut "), "{screen}");
    full_game("hackenbush", "stalk:2 + cycle:3 + g-a a-a", &["--misere"]);
}

#[test]
fn notakto_analyze_misere_only_and_bad_boards() {
    // One empty board: the first player wins by the centre, and only so.
    let v = json(&[
        "analyze",
        "--game",
        "notakto",
        "--misere",
        "--json",
        ".........",
    ]);
    assert_eq!(v["game"], "notakto:3");
    assert_eq!(v["convention"], "misere");
    assert_eq!(v["outcome"], "N");
    assert!(v["grundy"].is_null());
    let moves = v["winning_moves"].as_array().expect("list");
    assert_eq!(moves.len(), 1);
    assert_eq!(moves[0]["to"], ".../.X./...");
    assert!(
        moves[0]["text"]
            .as_str()
            .expect("text")
            .contains("X on b2 of board 1")
    );
    // Two empty boards: the second player wins.
    let v = json(&["analyze", "--game", "notakto", "--misere", "--json", "2"]);
    assert_eq!(v["position"], ".../.../... .../.../...");
    assert_eq!(v["outcome"], "P");
    // The text names each board's element of the quotient and the product.
    let out = nimatron(&[
        "analyze",
        "--game",
        "notakto",
        "--misere",
        "X...X.... ......... XXX/.../...",
    ]);
    assert!(out.status.success());
    let text = common::stdout(&out);
    for needle in [
        "P-portion {a, b^2, bd, c^2}",
        "board 1 X../.X./...: b",
        "board 2 .../.../...: d",
        "board 3 XXX/.../...: dead",
        "Product: b · d = bd, which is in P.",
    ] {
        assert!(text.contains(needle), "{needle}: {text}");
    }
    // The rules make it misère play, so that is the default; bad boards
    // say what is accepted.
    let v = json(&["analyze", "--game", "notakto", "--json", "3"]);
    assert_eq!(v["convention"], "misere");
    for (position, says) in [
        ("XX", "'XX' has 2 cells; a 3×3 board has 9"),
        ("XO.......", "'O' in 'XO.......' is not a cell"),
        ("X../..", "give 3 rows of 3 cells"),
        ("0", "a number k stands for k empty boards"),
    ] {
        bad(
            &["analyze", "--game", "notakto", "--misere", position],
            says,
        );
    }
    bad(
        &[
            "analyze",
            "--game",
            "notakto",
            "--misere",
            "--move",
            "1 b2",
            "XXX/.../...",
        ],
        "board 1 is dead",
    );
    bad(&["analyze", "--game", "notakto:9"], "1 to 5");
    // Other sizes are searched.
    let v = json(&[
        "analyze",
        "--game",
        "notakto:4",
        "--misere",
        "--json",
        "XX../..X./..../....",
    ]);
    assert_eq!(v["game"], "notakto:4");
    assert!(v["outcome"] == "N" || v["outcome"] == "P");
    let out = nimatron(&["games", "notakto"]);
    let text = common::stdout(&out);
    for needle in [
        "Plambeck and Whitehead",
        "Conventions: misere (",
        "notakto:N",
    ] {
        assert!(text.contains(needle), "{needle}: {text}");
    }
}

#[test]
fn notakto_play_through_the_terminal() {
    let screen = full_game("notakto", "3", &["--misere"]);
    assert!(screen.contains("board 3"), "{screen}");
}

#[test]
fn building_analyze_start_and_bad_positions() {
    let v = json(&["analyze", "--game", "building:4,3", "--json"]);
    assert_eq!(v["position"], "4 / 0 0 0");
    assert_eq!(v["outcome"], "N");
    assert_eq!(v["winning_moves"][0]["to"], "3 / 1 0 0");
    assert!(
        v["winning_moves"][0]["text"]
            .as_str()
            .expect("text")
            .contains("Place a stone on pile A")
    );
    for (spec, outcome) in [
        ("building:6,3", "P"),
        ("building:10,5", "N"),
        ("building:5,4", "P"),
    ] {
        let v = json(&["analyze", "--game", spec, "--json"]);
        assert_eq!(v["outcome"], outcome, "{spec}");
    }
    // In the Nim phase the moves are heap moves.
    let v = json(&["analyze", "--game", "building:6,3", "--json", "0 / 1 2 3"]);
    assert_eq!(v["outcome"], "P");
    let v = json(&["analyze", "--game", "building:6,3", "--json", "0 / 1 2 2"]);
    assert_eq!(v["winning_moves"][0]["heap"], 0);
    assert_eq!(v["winning_moves"][0]["take"], 1);
    let v = json(&[
        "analyze",
        "--game",
        "building:6,3",
        "--misere",
        "--json",
        "1 / 1 2 2",
    ]);
    assert_eq!(v["convention"], "misere");
    bad(
        &["analyze", "--game", "building:6,3", "7 / 0 0 0"],
        "too many stones",
    );
    bad(
        &["analyze", "--game", "building:6,3", "0 / 4 4 0"],
        "too many stones",
    );
    bad(
        &["analyze", "--game", "building:6,3", "2 / 1 1"],
        "has 3 piles",
    );
    let out = nimatron(&[
        "analyze",
        "--game",
        "building:200,12",
        "--max-states",
        "1000",
    ]);
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("limit of 1000"));
}

#[test]
fn building_play_through_the_terminal() {
    let screen = full_game("building:4,3", "4 / 0 0 0", &[]);
    assert!(screen.contains("place a stone on pile"), "{screen}");
    assert!(screen.contains("All stones placed"), "{screen}");
    full_game("building:4,3", "4 / 0 0 0", &["--misere"]);
}

#[test]
fn candy_reports_the_split() {
    let v = json(&["analyze", "--game", "candy", "--json", "8", "16", "24"]);
    assert_eq!(v["outcome"], "P");
    assert_eq!(v["candy"]["loser_candies"], 41);
    assert_eq!(v["candy"]["winner_candies"], 7);
    assert_eq!(v["candy"]["winner"], "opponent");
    let v = json(&["analyze", "--game", "candy", "--json"]);
    assert_eq!(v["position"], serde_json::json!([3, 4, 5]));
    assert_eq!(v["outcome"], "N");
    assert_eq!(v["winning_moves"][0]["heap"], 0);
    let out = nimatron(&["analyze", "--game", "candy", "1", "1", "2", "2", "3", "3"]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("winner 6 / loser 6"), "{text}");
    bad(
        &["analyze", "--game", "candy", "--misere", "1", "2"],
        "not offered",
    );
    bad(&["analyze", "--game", "candy", "1", "-2"], "heap");
    let (screen, code) = play(
        &["--game", "candy", "--position", "1 2"],
        // The computer may empty either heap; one of the replies is legal.
        "B 1\nA 1\nB 1\n",
    );
    assert_eq!(code, Some(0), "{screen}");
    assert!(screen.contains("You win!"), "{screen}");
}

/// A file in a temporary directory for this test run.
fn temp_file(name: &str, text: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("nimatron-boards-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let path = dir.join(name);
    std::fs::write(&path, text).expect("write");
    path
}

#[test]
fn wordnim_default_list_custom_list_and_bad_words() {
    let v = json(&["analyze", "--game", "wordnim", "--json"]);
    assert_eq!(v["position"], "heart stone planet");
    assert_eq!(v["outcome"], "N");
    assert!(
        v["winning_moves"][0]["text"]
            .as_str()
            .expect("text")
            .starts_with("Take '")
    );
    // A list of our own: a, t, at, tat. 'tat' has value 2, 'at' 1.
    let list = temp_file("tiny.txt", "# a tiny list\na\nT\nat\n\ntat\n");
    let list = list.to_str().expect("path");
    let v = json(&[
        "analyze", "--game", "wordnim", "--words", list, "--json", "tat", "at",
    ]);
    assert_eq!(v["grundy"], 3);
    assert_eq!(v["winning_moves"][0]["to"], "at at");
    bad(
        &["analyze", "--game", "wordnim", "heart", "st0ne"],
        "outside the alphabet",
    );
    let bad_list = temp_file("bad.txt", "cat\ndon't\n");
    bad(
        &[
            "analyze",
            "--game",
            "wordnim",
            "--words",
            bad_list.to_str().expect("path"),
            "cat",
        ],
        "line 2",
    );
    bad(
        &[
            "analyze",
            "--game",
            "wordnim",
            "--words",
            "/nonexistent/words.txt",
            "cat",
        ],
        "cannot read the word list",
    );
    bad(
        &["analyze", "--game", "nim", "--words", list, "3"],
        "does not apply to nim",
    );
    // The library's texts name no CLI option; the CLI says how it takes a
    // word list, in the catalogue and in the game's entry.
    let listing = String::from_utf8_lossy(&nimatron(&["games"]).stdout).to_string();
    let line = listing
        .lines()
        .find(|l| l.trim_start().starts_with("wordnim "))
        .expect("a wordnim line");
    assert!(line.ends_with("(--words FILE)"), "{line}");
    let entry = String::from_utf8_lossy(&nimatron(&["games", "wordnim"]).stdout).to_string();
    assert!(
        entry.contains("--words FILE (one word per line)"),
        "{entry}"
    );
    assert_eq!(entry.matches("--words").count(), 1, "{entry}");
    let (screen, code) = play(
        &["--game", "wordnim", "--words", list, "--position", "tat at"],
        "take t from tat\nquit\n",
    );
    assert_eq!(code, Some(0), "{screen}");
    assert!(
        screen.contains("You: take 't' from 'tat', leaving 'at'"),
        "{screen}"
    );
}

#[test]
fn every_catalogue_example_runs() {
    for spec in [
        "chomp:3x4",
        "chomp:2x2",
        "board:3x3",
        "board:2x2x3",
        "node-kayles",
        "graph-nim",
        "building:6,3",
        "building:4,3",
        "candy",
        "wordnim",
        "hackenbush",
        "notakto",
    ] {
        let out = nimatron(&["games", spec]);
        assert!(out.status.success(), "{spec}");
        let text = String::from_utf8_lossy(&out.stdout).to_string();
        let example = text
            .lines()
            .find_map(|l| l.strip_prefix("Example: nimatron "))
            .expect("an example line");
        // Split as a shell would (the examples need no quoting); a game
        // played only misère is asked for misère play.
        let mut args: Vec<&str> = example.split_whitespace().collect();
        if text.contains("Conventions: misere (") {
            args.insert(1, "--misere");
        }
        let run = nimatron(&args);
        assert!(
            run.status.success(),
            "{spec}: {example}: {}",
            String::from_utf8_lossy(&run.stderr)
        );
        assert!(text.contains("Start: "), "{spec}");
    }
}
