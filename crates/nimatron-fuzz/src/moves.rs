//! `moves`: move text against fixed positions. The first byte picks a
//! position of [`POSITIONS`] (by its key, or else by its value modulo their
//! number) and the rest is typed as a move there. The text is refused,
//! leaving the position as it was, or read as one of the legal moves, which
//! then applies; the legal moves themselves pass the `positions` checks.

use std::sync::OnceLock;

use nimatron::{Game, MoveInfo, Position};

use crate::positions::{build, check_listed_move, check_move_text};

/// The positions, each with the byte that picks it: heap games, graphs,
/// boards and words.
pub const POSITIONS: &[(u8, &str, &str)] = &[
    (b'A', "nim", "3 4 5"),
    (b'B', "kayles", "4 7"),
    (b'C', "grundy-game", "7 3"),
    (b'D', "octal:4.07", "9 4"),
    (b'E', "subtraction:1,2,3", "10 7"),
    (b'F', "circular:3", "10"),
    (b'G', "wythoff", "3 5"),
    (b'H', "moore:2,1", "3 5 6 7"),
    (b'I', "fibonacci", "20/4"),
    (b'J', "twenty-one:3,21", "5"),
    (b'K', "greedy", "3 5 5 7"),
    (b'L', "candy", "8 16 24"),
    (b'M', "building:6,3", "3 / 1 0 2"),
    (b'N', "node-kayles", "path:7+cycle:5"),
    (b'O', "graph-nim", "a-b:3,b-c:1,@a"),
    (b'P', "hackenbush", "g-1 1-2 1-3 g-4 4-5 5-g"),
    (b'Q', "chomp:3x4", "4 4 3"),
    (b'R', "board:3x3", "###/#.#/###"),
    (b'S', "board:2x2x3", "###/#.#|##./..."),
    (b'T', "notakto:3", "X...X.... ........."),
    (b'U', "wordnim", "heart stone"),
];

struct Fixed {
    spec: &'static str,
    game: Box<dyn Game>,
    position: Position,
    legal: Vec<MoveInfo>,
}

fn fixed() -> &'static [Fixed] {
    static FIXED: OnceLock<Vec<Fixed>> = OnceLock::new();
    FIXED.get_or_init(|| {
        POSITIONS
            .iter()
            .map(|&(_, spec, text)| {
                let game = build(spec);
                let position = game
                    .parse(text)
                    .unwrap_or_else(|e| panic!("{spec} {text}: {e}"));
                let legal = game.legal_moves(&position).expect("its own position");
                assert!(!legal.is_empty(), "{spec} {text} has no move");
                for m in &legal {
                    check_listed_move(spec, game.as_ref(), &position, m);
                }
                Fixed {
                    spec,
                    game,
                    position,
                    legal,
                }
            })
            .collect()
    })
}

/// Check one input.
pub fn check(data: &[u8]) {
    let Some((&key, rest)) = data.split_first() else {
        return;
    };
    let Some(input) = crate::text(rest) else {
        return;
    };
    let index = POSITIONS
        .iter()
        .position(|&(k, _, _)| k == key)
        .unwrap_or(key as usize % POSITIONS.len());
    let f = &fixed()[index];
    check_move_text(f.spec, f.game.as_ref(), &f.position, &f.legal, input);
}
