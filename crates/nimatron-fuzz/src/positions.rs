//! `positions`: the first byte picks a game of [`GAMES`] (by its key, or
//! else by its value modulo their number); the rest, up to an optional
//! `\x1f` (the ASCII unit separator), is a position, and the text after it a
//! move.
//!
//! A position that parses prints canonical text that parses back to the
//! same position and value. Unless it holds more than [`MAX_MATERIAL`]
//! (objects, cells, edges...), its legal moves (at most [`MAX_MOVES`]) each
//! apply, lead to the position the list promises, and have a notation that
//! `parse_move` reads back as the same move; it is terminal exactly when no
//! move is listed. The move text, if any, is either refused, leaving the
//! position as it was, or read as one of the listed moves.

use nimatron::{Game, GameSpec, MoveInfo, Position};
use std::sync::OnceLock;

/// The games, each with the byte that picks it.
pub const GAMES: &[(u8, &str)] = &[
    (b'A', "nim"),
    (b'B', "subtraction:1,2,3"),
    (b'C', "subtraction:squares"),
    (b'D', "modular:3:1,2"),
    (b'E', "octal:0.137"),
    (b'F', "kayles"),
    (b'G', "dawson"),
    (b'H', "officers"),
    (b'I', "treblecross"),
    (b'J', "double-kayles"),
    (b'K', "grundy-game"),
    (b'L', "octal:4.07"),
    (b'M', "octal:0.F"),
    (b'N', "twenty-one:3,21"),
    (b'O', "hundred:10,100"),
    (b'P', "wythoff"),
    (b'Q', "circular:3"),
    (b'R', "greedy"),
    (b'S', "moore:2"),
    (b'T', "moore:2,1"),
    (b'U', "fibonacci"),
    (b'V', "chomp:3x4"),
    (b'W', "board:3x3"),
    (b'X', "board:2x2x3"),
    (b'Y', "node-kayles"),
    (b'Z', "graph-nim"),
    (b'a', "building:4,3"),
    (b'b', "candy"),
    (b'c', "wordnim"),
    (b'd', "hackenbush"),
    (b'e', "notakto:3"),
    (b'f', "notakto:4"),
];

/// Positions holding more are only printed and parsed, not played.
pub const MAX_MATERIAL: u64 = 200;

/// The most legal moves tried from one position.
pub const MAX_MOVES: usize = 64;

/// The separator between the position and the move.
pub const SEPARATOR: char = '\x1f';

fn games() -> &'static [Box<dyn Game>] {
    static GAMES_BUILT: OnceLock<Vec<Box<dyn Game>>> = OnceLock::new();
    GAMES_BUILT.get_or_init(|| GAMES.iter().map(|(_, spec)| build(spec)).collect())
}

pub(crate) fn build(spec: &str) -> Box<dyn Game> {
    spec.parse::<GameSpec>()
        .and_then(|s| s.build())
        .unwrap_or_else(|e| panic!("{spec}: {e}"))
}

/// The game a byte picks, and its spec.
pub fn game_for(key: u8) -> (&'static str, &'static dyn Game) {
    let index = GAMES
        .iter()
        .position(|&(k, _)| k == key)
        .unwrap_or(key as usize % GAMES.len());
    (GAMES[index].1, games()[index].as_ref())
}

/// Check one input.
pub fn check(data: &[u8]) {
    let Some((&key, rest)) = data.split_first() else {
        return;
    };
    let Some(rest) = crate::text(rest) else {
        return;
    };
    let (spec, game) = game_for(key);
    let (position_text, move_text) = match rest.split_once(SEPARATOR) {
        Some((p, m)) => (p, Some(m)),
        None => (rest, None),
    };
    let position = match game.parse(position_text) {
        Ok(p) => p,
        Err(e) => {
            assert!(!e.to_string().is_empty(), "{spec} {position_text:?}");
            return;
        }
    };
    check_round_trip(spec, game, &position);
    let material = game.material(&position).expect("the game's own position");
    if material > MAX_MATERIAL {
        return;
    }
    game.render(&position).expect("the game's own position");
    game.board(&position).expect("the game's own position");
    let legal = game
        .legal_moves(&position)
        .expect("the game's own position");
    let terminal = game
        .is_terminal(&position)
        .expect("the game's own position");
    assert_eq!(
        terminal,
        legal.is_empty(),
        "{spec} {position}: terminal is {terminal} with {} legal moves",
        legal.len()
    );
    for m in legal.iter().take(MAX_MOVES) {
        check_listed_move(spec, game, &position, m);
    }
    if let Some(input) = move_text {
        check_move_text(spec, game, &position, &legal, input);
    }
}

/// The position's text parses back to the same position and value.
pub(crate) fn check_round_trip(spec: &str, game: &dyn Game, position: &Position) {
    let text = position.text();
    let again = game
        .parse(text)
        .unwrap_or_else(|e| panic!("{spec}: the canonical text {text:?} does not parse: {e}"));
    assert_eq!(again.text(), text, "{spec}: the text is not canonical");
    assert_eq!(
        game.value(&again).expect("the game's own position"),
        game.value(position).expect("the game's own position"),
        "{spec} {text:?}: the value changed on parsing it back"
    );
}

/// A listed move applies, leads where the list says, and its notation
/// reads back as the same move.
pub(crate) fn check_listed_move(spec: &str, game: &dyn Game, position: &Position, m: &MoveInfo) {
    let after = game.apply(position, m.handle()).unwrap_or_else(|e| {
        panic!(
            "{spec} {position}: the listed move {} fails: {e}",
            m.notation
        )
    });
    assert_eq!(after.text(), m.to_text, "{spec} {position}: {}", m.notation);
    assert_eq!(&after, m.after(), "{spec} {position}: {}", m.notation);
    check_round_trip(spec, game, &after);
    let parsed = game.parse_move(position, &m.notation).unwrap_or_else(|e| {
        panic!(
            "{spec} {position}: the listed move's notation {:?} does not parse: {e}",
            m.notation
        )
    });
    assert_eq!(
        (parsed.notation.as_str(), parsed.to_text.as_str()),
        (m.notation.as_str(), m.to_text.as_str()),
        "{spec} {position}: the notation reads back as another move"
    );
}

/// Typed move text is refused, changing nothing, or read as a legal move.
pub(crate) fn check_move_text(
    spec: &str,
    game: &dyn Game,
    position: &Position,
    legal: &[MoveInfo],
    input: &str,
) {
    let value = game.value(position).expect("the game's own position");
    let text = position.text().to_string();
    match game.parse_move(position, input) {
        Ok(m) => {
            assert!(
                legal
                    .iter()
                    .any(|l| l.notation == m.notation && l.to_text == m.to_text),
                "{spec} {position}: {input:?} was read as {} to {}, which is not a legal move",
                m.notation,
                m.to_text
            );
            let after = game
                .apply(position, m.handle())
                .unwrap_or_else(|e| panic!("{spec} {position}: {input:?} was read but fails: {e}"));
            assert_eq!(after.text(), m.to_text, "{spec} {position}: {input:?}");
        }
        Err(e) => assert!(!e.to_string().is_empty(), "{spec} {position} {input:?}"),
    }
    assert_eq!(
        position.text(),
        text,
        "{spec}: {input:?} changed the position"
    );
    assert_eq!(
        game.value(position).expect("the game's own position"),
        value,
        "{spec} {text}: {input:?} changed the position's value"
    );
}
