//! Wikipedia's statements about the 21 game and the 100 game, through the
//! same `Game` face the CLI uses.

use nimatron::TextGame;
use nimatron::solve::Limits;
use nimatron::{Convention, Game, GameSpec, Outcome};

fn game(spec: &str) -> Box<dyn Game> {
    spec.parse::<GameSpec>()
        .expect("spec")
        .build()
        .expect("game")
}

fn winning_totals(g: &dyn Game, total: u64, convention: Convention) -> Vec<String> {
    g.analyze_text(&total.to_string(), convention, Limits::default())
        .expect("analysis")
        .winning_moves
        .into_iter()
        .map(|m| m.to_text)
        .collect()
}

fn outcome(g: &dyn Game, total: u64, convention: Convention) -> Outcome {
    g.analyze_text(&total.to_string(), convention, Limits::default())
        .expect("analysis")
        .outcome
}

/// Wikipedia's sample game of 21: player 1 says 1, player 2 says 4, player
/// 1 says 5, 6 or 7, player 2 says 8, … player 2 says 20 and player 1 must
/// say 21. Every one of player 1's choices in the table is tried: at each of
/// player 2's turns the engine's winning moves include Wikipedia's number,
/// and every position player 1 faces is lost.
#[test]
fn the_seeds_sample_game_of_21() {
    let g = game("twenty-one");
    let player_two = [4, 8, 12, 16, 20];
    let player_one_choices: [&[u64]; 5] =
        [&[1], &[5, 6, 7], &[9, 10, 11], &[13, 14, 15], &[17, 18, 19]];
    let mut before = 0; // player 1 faces 0, then each of player 2's totals
    for (choices, &reply) in player_one_choices.iter().zip(&player_two) {
        assert_eq!(outcome(g.as_ref(), before, Convention::Normal), Outcome::P);
        let legal: Vec<String> = g
            .legal_moves_text(&before.to_string())
            .unwrap()
            .into_iter()
            .map(|m| m.to_text)
            .collect();
        for &said in *choices {
            assert!(legal.contains(&said.to_string()), "{said} from {before}");
            // Player 2's turn: Wikipedia's reply is a winning move.
            let winning = winning_totals(g.as_ref(), said, Convention::Normal);
            assert!(winning.contains(&reply.to_string()), "{said}: {winning:?}");
            assert_eq!(
                g.parse_move_text(&said.to_string(), &reply.to_string())
                    .unwrap()
                    .to_text,
                reply.to_string()
            );
        }
        before = reply;
    }
    // Player 1 at 20 is forced to say 21: no move is left in the model.
    assert_eq!(before, 20);
    assert_eq!(outcome(g.as_ref(), 20, Convention::Normal), Outcome::P);
    assert!(g.legal_moves_text("20").unwrap().is_empty());
    assert!(g.render_text("20").unwrap().contains("must say 21"));
    // The first player opens with a losing move: from 0 nothing wins.
    assert!(winning_totals(g.as_ref(), 0, Convention::Normal).is_empty());
}

/// "Add at most 5; lose on 34": the totals to say are 3, 9, 15, 21, 27, 33,
/// so here the first player wins by saying 3.
#[test]
fn add_at_most_5_lose_on_34() {
    let g = game("twenty-one:5,34");
    assert_eq!(winning_totals(g.as_ref(), 0, Convention::Normal), vec!["3"]);
    for t in [3, 9, 15, 21, 27, 33] {
        assert_eq!(
            outcome(g.as_ref(), t, Convention::Normal),
            Outcome::P,
            "{t}"
        );
    }
    assert_eq!(
        winning_totals(g.as_ref(), 10, Convention::Normal),
        vec!["15"]
    );
    assert!(g.legal_moves_text("33").unwrap().is_empty());
}

/// The 100 game: "reach a number whose digits are subsequent (01, 12, 23,
/// 34, …)"; "once a player reaches 89, the opponent can only choose numbers
/// from 90 to 99, and the next answer can in any case be 100".
#[test]
fn the_seeds_100_game() {
    let g = game("hundred");
    let winning = [1, 12, 23, 34, 45, 56, 67, 78, 89, 100];
    for t in 0..=100u64 {
        let expected = if winning.contains(&t) {
            Outcome::P
        } else {
            Outcome::N
        };
        assert_eq!(outcome(g.as_ref(), t, Convention::Normal), expected, "{t}");
    }
    let after_89: Vec<String> = g
        .legal_moves_text("89")
        .unwrap()
        .into_iter()
        .map(|m| m.to_text)
        .collect();
    let expected: Vec<String> = (90..=99).map(|t| t.to_string()).collect();
    assert_eq!(after_89, expected);
    for t in 90..=99 {
        assert_eq!(
            winning_totals(g.as_ref(), t, Convention::Normal),
            vec!["100"],
            "{t}"
        );
    }
    // From 0, the first player says 1 and keeps to the sequence.
    assert_eq!(winning_totals(g.as_ref(), 0, Convention::Normal), vec!["1"]);
    let a = g
        .analyze_text("0", Convention::Normal, Limits::default())
        .unwrap();
    assert!(
        a.explanation
            .contains("1, 12, 23, 34, 45, 56, 67, 78, 89, 100")
    );
    assert!(a.explanation.contains("89"));
}

#[test]
fn typed_moves_and_bad_positions() {
    let g = game("twenty-one");
    for typed in ["8", "say 8", "+3", "add 3"] {
        assert_eq!(
            g.parse_move_text("5", typed).unwrap().to_text,
            "8",
            "{typed}"
        );
    }
    let e = g.parse_move_text("18", "21").unwrap_err().to_string();
    assert!(e.contains("loses on the spot"), "{e}");
    for (position, says) in [
        ("21", "ends the game"),
        ("22", "above 21"),
        ("x", "'x' is not a total"),
        ("", "no total"),
        ("-1", "'-1' is not a total"),
    ] {
        let e = g.parse_position(position).unwrap_err().to_string();
        assert!(e.contains(says), "{position}: {e}");
    }
    let g = game("hundred");
    assert_eq!(g.parse_position("100").unwrap(), "100");
    let e = g.parse_position("101").unwrap_err().to_string();
    assert!(e.contains("above 100"), "{e}");
    assert!(g.parse_move_text("95", "+6").is_err());
    // Misère hundred: reaching 100 loses, so from 95 say 99.
    assert_eq!(
        winning_totals(g.as_ref(), 95, Convention::Misere),
        vec!["99"]
    );
    let e = game("twenty-one")
        .analyze_text("3", Convention::Misere, Limits::default())
        .unwrap_err()
        .to_string();
    assert!(e.contains("hundred:K,N"), "{e}");
}
