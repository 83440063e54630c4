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

/// A hint or an explanation beyond the limits is refused with the reason,
/// and the game goes on (it used to end the session with exit 1).
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
    assert!(screen.contains("No hint: the search stopped"), "{screen}");
    assert!(
        screen.contains("No explanation: the search stopped"),
        "{screen}"
    );
    assert!(
        screen.contains("You: take 2 from heap A (40 → 38)"),
        "{screen}"
    );
    assert!(screen.contains("Game abandoned."), "{screen}");
    // The computer's reply could not be judged either, and it says so.
    assert!(
        screen.contains("(Nimatron could not judge its moves: the search stopped"),
        "{screen}"
    );
    assert!(screen.contains("It played a random one.)"), "{screen}");
}
