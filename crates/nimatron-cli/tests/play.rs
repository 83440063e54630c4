//! `nimatron play` driven through standard input, as a person would play.

mod common;
use common::run;

use nimatron::{Convention, nim};

fn play(args: &[&str], input: &str) -> (String, Option<i32>) {
    let mut all = vec!["play"];
    all.extend_from_slice(args);
    let out = run(&all, input);
    (
        String::from_utf8(out.stdout).expect("utf-8"),
        out.status.code(),
    )
}

/// Read the heap sizes off the last board drawn in `screen`.
fn last_board(screen: &str) -> Vec<u64> {
    let lines: Vec<&str> = screen.lines().collect();
    let end = lines
        .iter()
        .rposition(|l| {
            l.trim_start().starts_with('A')
                && l.split_whitespace()
                    .nth(1)
                    .is_some_and(|w| w.parse::<u64>().is_ok())
        })
        .expect("a board");
    let mut heaps = Vec::new();
    for l in &lines[end..] {
        let mut words = l.split_whitespace();
        match (
            words.next(),
            words.next().and_then(|w| w.parse::<u64>().ok()),
        ) {
            (Some(name), Some(size)) if name.chars().all(|c| c.is_ascii_uppercase()) => {
                heaps.push(size)
            }
            _ => break,
        }
    }
    heaps
}

/// A whole game against the perfect computer from 3 4 5, moving first and
/// playing Bouton's moves computed here from the board on the screen: the
/// player must win, and the computer must answer every move.
fn full_game(convention: Convention) {
    let mut args = vec!["play", "--heaps", "3,4,5", "--seed", "11"];
    if convention == Convention::Misere {
        args.push("--misere");
    }
    let (screen, ok) = common::drive(&args, 50, |screen| {
        let heaps = last_board(screen);
        let a = nim::analyze(&heaps, convention);
        let mv = a.winning_move(&heaps).expect("we keep a winning position");
        format!("{} {}", (b'A' + mv.heap as u8) as char, mv.take)
    });
    assert!(ok);
    assert!(screen.contains("You win!"), "{screen}");
    assert!(screen.matches("Nimatron: ").count() >= 2, "{screen}");
}

#[test]
fn full_game_normal_play() {
    full_game(Convention::Normal);
}

#[test]
fn full_game_misere_play() {
    full_game(Convention::Misere);
}

#[test]
fn hint_undo_illegal_move_and_end_of_input() {
    let (screen, code) = play(
        &["--heaps", "3,4,5", "--seed", "5"],
        "hint\nA 9\nZ 1\nbanana\nA 2\nundo\nundo\n",
    );
    assert_eq!(code, Some(0));
    assert!(screen.contains("Hint: take 2 from heap A"), "{screen}");
    assert!(screen.contains("heap A has only 3 objects"), "{screen}");
    assert!(screen.contains("there is no heap Z"), "{screen}");
    assert!(screen.contains("'banana' is not a move"), "{screen}");
    assert!(screen.contains("Move taken back."), "{screen}");
    assert!(screen.contains("Nothing to undo."), "{screen}");
    assert!(screen.contains("End of input: game abandoned."), "{screen}");
    // After the undo the board is back at 3 4 5.
    let after_undo = &screen[screen.find("Move taken back.").expect("undo")..];
    assert_eq!(
        last_board(after_undo.split("Nothing").next().expect("part")),
        vec![3, 4, 5]
    );
}

#[test]
fn computer_moves_first_and_friend_mode() {
    let (screen, code) = play(
        &["--heaps", "1,2", "--first", "computer", "--seed", "1"],
        "quit\n",
    );
    assert_eq!(code, Some(0));
    // 1 2 is an N-position: the perfect computer moves to 1 1.
    assert!(
        screen.contains("Nimatron: take 1 from heap B (2 → 1)"),
        "{screen}"
    );
    let (screen, _) = play(&["--heaps", "2", "--opponent", "friend"], "A 1\nA 1\n");
    assert!(
        screen.contains("Player 2 made the last move. Player 2 wins!"),
        "{screen}"
    );
}

#[test]
fn bad_play_options_exit_2() {
    let (_, code) = play(&["--level", "godlike"], "");
    assert_eq!(code, Some(2));
    let (_, code) = play(&["--heaps", "0,0"], "");
    assert_eq!(code, Some(2));
    let (_, code) = play(&["--heaps", "3,x"], "");
    assert_eq!(code, Some(2));
}

#[test]
fn reading_lines_is_line_based() {
    // Several commands on separate lines are each processed once.
    let (screen, _) = play(&["--heaps", "3,4,5", "--seed", "2"], "help\nhelp\n");
    assert_eq!(screen.matches("Commands:").count(), 2);
}

/// A hint or an explanation beyond the limits is refused with the reason
/// (misère play of a heap game: neither the search nor the misère quotient
/// settled it), and the game goes on (it used to end the session with exit
/// 1).
#[test]
fn a_hint_beyond_the_limits_does_not_end_the_game() {
    let out = run(
        &[
            "play",
            "--game",
            "dawson",
            "--misere",
            "--heaps",
            "40,30",
            "--max-states",
            "1000",
            "--seed",
            "3",
        ],
        "hint\nwhy\nA 2\nquit\n",
    );
    let screen = String::from_utf8(out.stdout).expect("utf-8");
    assert_eq!(out.status.code(), Some(0), "{screen}");
    let neither = "neither method settled this misère position of dawson within the limits: the search stopped";
    assert!(screen.contains(&format!("No hint: {neither}")), "{screen}");
    assert!(
        screen.contains(&format!("No explanation: {neither}")),
        "{screen}"
    );
    assert!(
        screen.contains("You: take 2 from heap A (40 → 38)"),
        "{screen}"
    );
    assert!(screen.contains("Game abandoned."), "{screen}");
    // The computer's reply could not be judged either, and it says so.
    assert!(
        screen.contains(&format!("(Nimatron could not judge its moves: {neither}")),
        "{screen}"
    );
    assert!(screen.contains("It played a random one.)"), "{screen}");
}

/// The Moves lines of the banner (up to the line after them).
fn banner_moves(screen: &str) -> String {
    let start = screen.find("Moves: ").expect("a Moves line in the banner");
    let end = screen[start..]
        .find("\nComputer level")
        .or_else(|| screen[start..].find("\nYou move"))
        .or_else(|| screen[start..].find("\nPlayer 1 moves"))
        .expect("the banner goes on");
    screen[start..start + end].to_string()
}

/// Regression: `play --game kayles` and `games kayles` told Kayles players
/// about Grundy's game's "'A 4+2' splits heap A without taking". The help
/// of each game gives its own kinds of move with an example of each, and
/// each example, typed in a position that fits it, is a legal move.
#[test]
fn play_and_games_give_the_moves_of_the_game_played() {
    // (game, a start where each example fits, examples that must appear,
    // words that must not)
    let cases: [(&str, &str, &[&str], &[&str]); 5] = [
        (
            "kayles",
            "5",
            &["'A 1'", "'A 1 1+3'", "'A all'"],
            &["4+2", "Grundy"],
        ),
        (
            "grundy-game",
            "6",
            &["'A 4+2'"],
            &["'A all'", "'A 1'", "1+3"],
        ),
        ("dawson", "6", &["'A 2'", "'A 2 1+3'"], &["4+2", "'A 1'"]),
        ("subtraction:1,2,3", "5", &["'A 1'"], &["+", "inside"]),
        ("nim", "5", &["'A 2'", "'A all'"], &["+"]),
    ];
    for (game, start, wanted, unwanted) in cases {
        let (screen, code) = play(
            &["--game", game, "--opponent", "friend", "--position", start],
            "help\nquit\n",
        );
        assert_eq!(code, Some(0), "{game}: {screen}");
        let banner = banner_moves(&screen);
        let help = &screen[screen.find("Moves:    ").expect("help's Moves")..];
        let help = &help[..help.find("Commands:").unwrap()];
        let games = common::nimatron(&["games", game]);
        let games = String::from_utf8(games.stdout).unwrap();
        let listed = games
            .lines()
            .find(|l| l.starts_with("Moves in play:"))
            .unwrap_or_else(|| panic!("{game}: no moves in {games}"))
            .to_string();
        for text in [&banner, &help.to_string(), &listed] {
            for w in wanted {
                assert!(text.contains(w), "{game}: {w} missing from {text}");
            }
            for u in unwanted {
                assert!(!text.contains(u), "{game}: {u} in {text}");
            }
        }
        // Each example, typed: a legal move (Kayles' 'A 1 1+3' needs a
        // heap of 5, which the start gives; 'A all' a heap of 1 or 2 in
        // Kayles, of any size in Nim).
        for w in wanted {
            let typed = w.trim_matches('\'');
            if typed == "A all" && game == "kayles" {
                continue;
            }
            let (screen, _) = play(
                &["--game", game, "--opponent", "friend", "--position", start],
                &format!("{typed}\nquit\n"),
            );
            assert!(
                !screen.contains("Illegal move"),
                "{game}: {typed}: {screen}"
            );
            assert!(screen.contains("Player 1: "), "{game}: {typed}: {screen}");
        }
    }
    // Kayles' 'A all' takes a row of 2 whole.
    let (screen, _) = play(
        &[
            "--game",
            "kayles",
            "--opponent",
            "friend",
            "--position",
            "2 3",
        ],
        "A all\nquit\n",
    );
    assert!(
        screen.contains("Player 1: ") && !screen.contains("Illegal"),
        "{screen}"
    );
}

/// A hint says what to type, and what it says to type is the move it
/// names and wins: checked here against the library's own analysis of the
/// position it leaves (a P-position for the opponent).
#[test]
fn a_hint_says_what_to_type_and_that_wins() {
    for (game, start) in [
        ("kayles", "4 7"),
        ("nim", "3 4 5"),
        ("grundy-game", "5 6"),
        ("dawson", "10"),
        ("octal:0.137", "6 9"),
    ] {
        let (screen, _) = play(
            &["--game", game, "--opponent", "friend", "--position", start],
            "hint\nquit\n",
        );
        let hint = screen
            .lines()
            .find(|l| l.contains("Hint: "))
            .unwrap_or_else(|| panic!("{game}: no hint in {screen}"));
        let from = hint
            .find("type '")
            .unwrap_or_else(|| panic!("{game}: {hint}"))
            + 6;
        let typed = &hint[from..from + hint[from..].find('\'').unwrap()];
        let (screen, _) = play(
            &["--game", game, "--opponent", "friend", "--position", start],
            &format!("{typed}\nquit\n"),
        );
        assert!(
            !screen.contains("Illegal move"),
            "{game}: {typed}: {screen}"
        );
        let spec: nimatron::GameSpec = game.parse().unwrap();
        let g = spec.build().unwrap();
        let position = g.parse(start).unwrap();
        let mv = g.parse_move(&position, typed).unwrap();
        // The hint's sentence is the move typed.
        assert!(hint.contains(&mv.text), "{game}: {hint} / {}", mv.text);
        let after = g
            .analyze(mv.after(), Convention::Normal, nimatron::Limits::default())
            .unwrap();
        assert_eq!(after.outcome, nimatron::Outcome::P, "{game}: {typed}");
    }
}

/// Regression: `play --heaps 3 4 5` said "unexpected argument '4'". Heaps
/// are read with commas, spaces, or both.
#[test]
fn heaps_are_read_with_commas_or_spaces() {
    for args in [
        vec!["--heaps", "3", "4", "5"],
        vec!["--heaps", "3,4,5"],
        vec!["--heaps", "3,4", "5"],
    ] {
        let mut all = args.clone();
        all.extend(["--opponent", "friend"]);
        let (screen, code) = play(&all, "quit\n");
        assert_eq!(code, Some(0), "{args:?}: {screen}");
        assert_eq!(last_board(&screen), vec![3, 4, 5], "{args:?}");
    }
}
