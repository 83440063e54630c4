//! Chomp: a bar of chocolate whose bottom-left square is poisoned. A move
//! bites one square and every square above and to the right of it; whoever
//! must take the poisoned square loses.
//!
//! Nimatron plays the equivalent normal-play game: the poisoned square is
//! never a move, and the player who cannot move (only the poison is left)
//! has lost. Positions are staircases ("Young diagrams"), written as row
//! lengths from the poisoned row upwards.

use crate::{Convention, Nimber, Outcome, Rules};
use crate::{Description, MoveError, Notation, PositionError, Theory};

/// Chomp on a rectangle of `rows` × `columns`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Chomp {
    rows: usize,
    columns: usize,
}

/// A bite: the square at 0-based (`row`, `column`), row 0 being the
/// poisoned row and column 0 the poisoned column.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Bite {
    /// The row, 0 = the poisoned (bottom) row.
    pub row: usize,
    /// The column, 0 = the poisoned (left) column.
    pub column: usize,
}

const POSITION_SYNTAX: &str = "the row lengths from the poisoned (bottom) row upwards, never growing, e.g. '4 4 3' (the first row holds the poisoned square, so it is at least 1); 'full' is the whole rectangle";

impl Chomp {
    /// Chomp whose start (and largest position) is `rows` × `columns`.
    pub fn new(rows: usize, columns: usize) -> Chomp {
        Chomp { rows, columns }
    }

    /// The full rectangle.
    pub fn full(&self) -> Vec<u8> {
        vec![self.columns as u8; self.rows]
    }
}

/// The conjugate staircase (rows and columns swapped).
pub fn transpose(rows: &[u8]) -> Vec<u8> {
    let width = rows.first().copied().unwrap_or(0);
    (0..width)
        .map(|c| rows.iter().take_while(|&&len| len > c).count() as u8)
        .collect()
}

impl Rules for Chomp {
    type Position = Vec<u8>;
    type Move = Bite;

    fn moves(&self, rows: &Vec<u8>) -> Vec<Bite> {
        let mut out = Vec::new();
        for (row, &len) in rows.iter().enumerate() {
            for column in 0..len as usize {
                if row != 0 || column != 0 {
                    out.push(Bite { row, column });
                }
            }
        }
        out
    }

    fn apply(&self, rows: &Vec<u8>, bite: &Bite) -> Vec<u8> {
        let mut after: Vec<u8> = rows
            .iter()
            .enumerate()
            .map(|(r, &len)| {
                if r >= bite.row {
                    len.min(bite.column as u8)
                } else {
                    len
                }
            })
            .collect();
        while after.last() == Some(&0) {
            after.pop();
        }
        after
    }

    /// A staircase and its mirror image in the diagonal play the same.
    fn canonical(&self, rows: &Vec<u8>) -> Vec<u8> {
        let t = transpose(rows);
        if t < *rows { t } else { rows.clone() }
    }
}

fn parse_error(problem: impl Into<String>) -> PositionError {
    PositionError::new(problem, POSITION_SYNTAX)
}

impl Notation for Chomp {
    fn parse_position(&self, text: &str) -> Result<Vec<u8>, PositionError> {
        let text = text.trim();
        if text.eq_ignore_ascii_case("full") {
            return Ok(self.full());
        }
        let mut rows = Vec::new();
        for word in text
            .split([' ', ',', '\t', '\n', '\r'])
            .filter(|w| !w.is_empty())
        {
            let len: usize = word.parse().map_err(|_| {
                parse_error(format!("'{word}' is not a row length (a whole number)"))
            })?;
            if len > self.columns {
                return Err(parse_error(format!(
                    "a row of {len} squares does not fit the {}x{} board",
                    self.rows, self.columns
                )));
            }
            rows.push(len as u8);
        }
        while rows.last() == Some(&0) {
            rows.pop();
        }
        if rows.is_empty() || rows[0] == 0 {
            return Err(parse_error(format!(
                "'{text}' has no poisoned square: the bottom row must hold at least 1 square"
            )));
        }
        if rows.len() > self.rows {
            return Err(parse_error(format!(
                "{} rows do not fit the {}x{} board",
                rows.len(),
                self.rows,
                self.columns
            )));
        }
        if let Some(r) = (1..rows.len()).find(|&r| rows[r] > rows[r - 1]) {
            return Err(parse_error(format!(
                "row {} ({} squares) is longer than the row below it ({}): every bite takes everything above and to the right, so rows never grow going up",
                r + 1,
                rows[r],
                rows[r - 1]
            )));
        }
        Ok(rows)
    }

    fn format_position(&self, rows: &Vec<u8>) -> String {
        rows.iter()
            .map(|l| l.to_string())
            .collect::<Vec<_>>()
            .join(" ")
    }

    fn start_position(&self) -> Option<Vec<u8>> {
        Some(self.full())
    }

    fn parse_move(&self, rows: &Vec<u8>, input: &str) -> Result<Bite, MoveError> {
        let numbers: Vec<&str> = input
            .split(|c: char| !c.is_ascii_digit())
            .filter(|w| !w.is_empty())
            .collect();
        let words_ok = input
            .split(|c: char| c.is_ascii_digit() || c == ',' || c.is_whitespace())
            .all(|w| {
                w.is_empty()
                    || matches!(
                        w.to_ascii_lowercase().as_str(),
                        "row" | "column" | "col" | "r" | "c" | "take" | "bite"
                    )
            });
        let (row, column) = match numbers.as_slice() {
            [r, c] if words_ok => (
                r.parse::<usize>().unwrap_or(usize::MAX),
                c.parse::<usize>().unwrap_or(usize::MAX),
            ),
            _ => {
                return Err(MoveError::new(format!(
                    "'{}' is not a move: give the row and column of the square to bite, e.g. '2 3'",
                    input.trim()
                )));
            }
        };
        if row == 0 || column == 0 {
            return Err(MoveError::new("rows and columns are counted from 1"));
        }
        if row > rows.len() || column > rows[row - 1] as usize {
            return Err(MoveError::new(format!(
                "there is no square at row {row}, column {column}"
            )));
        }
        if row == 1 && column == 1 {
            return Err(MoveError::new(
                "that is the poisoned square: taking it loses at once (you may bite any other square)",
            ));
        }
        Ok(Bite {
            row: row - 1,
            column: column - 1,
        })
    }

    fn format_move(&self, _rows: &Vec<u8>, bite: &Bite) -> String {
        format!("{} {}", bite.row + 1, bite.column + 1)
    }

    fn describe_move(&self, rows: &Vec<u8>, bite: &Bite) -> String {
        let taken = self.material(rows) - self.material(&self.apply(rows, bite));
        format!(
            "bite the square at row {}, column {} ({taken} square{} taken)",
            bite.row + 1,
            bite.column + 1,
            if taken == 1 { "" } else { "s" }
        )
    }

    fn render(&self, rows: &Vec<u8>) -> String {
        let mut s = String::new();
        for (r, &len) in rows.iter().enumerate().rev() {
            let cells: Vec<&str> = (0..len)
                .map(|c| if r == 0 && c == 0 { "X" } else { "#" })
                .collect();
            s.push_str(&format!("  {:>3}  {}\n", r + 1, cells.join(" ")));
        }
        let width = rows.first().copied().unwrap_or(0);
        let labels: Vec<String> = (1..=width).map(|c| (c % 10).to_string()).collect();
        s.push_str(&format!("       {}\n", labels.join(" ")));
        s.push_str("  (X is the poisoned square; a move is 'row column')\n");
        s.push_str(&format!("  position: {}\n", self.format_position(rows)));
        s
    }

    fn material(&self, rows: &Vec<u8>) -> u64 {
        rows.iter().map(|&l| l as u64).sum()
    }

    fn position_syntax(&self) -> &'static str {
        POSITION_SYNTAX
    }

    fn move_syntax(&self) -> String {
        String::from(
            "'2 3' bites the square at row 2, column 3 (rows count up from the poisoned row 1, columns right from the poisoned column 1) and everything above and to its right",
        )
    }
    /// Row 0 (the poisoned row) first; a cell is on the board while its
    /// row is longer than its column.
    fn board(&self, rows: &Vec<u8>) -> crate::Board {
        let mut cells = Vec::with_capacity(self.rows * self.columns);
        for r in 0..self.rows {
            let len = rows.get(r).copied().unwrap_or(0) as usize;
            cells.extend((0..self.columns).map(|c| c < len));
        }
        crate::Board::Grid {
            dims: vec![self.rows, self.columns],
            cells,
            poisoned: Some(vec![0, 0]),
        }
    }
    fn touches(&self, _rows: &Vec<u8>, bite: &Bite) -> Vec<crate::Element> {
        vec![crate::Element::Cell {
            at: vec![bite.row, bite.column],
        }]
    }
    fn moves_left_bound(&self, rows: &Vec<u8>) -> Option<u64> {
        Some(rows.iter().map(|&r| u64::from(r)).sum())
    }
}

impl Theory for Chomp {
    fn description(&self) -> Description {
        Description {
            rules: "A rectangle of squares whose bottom-left square is poisoned. A move bites one square and takes every square above it, to its right, or both; whoever must take the poisoned square loses. Nimatron plays the equivalent normal-play game: the poisoned square is never bitten, and the player left with only the poisoned square has lost.",
            example: if self.rows >= 3 && self.columns >= 4 {
                "4 4 3"
            } else {
                "full"
            },
            theory: "Every full rectangle other than 1x1 is a first-player win, by strategy stealing: if biting the top-right square lost, the winning reply would have been available as a first move. The argument gives no move, so Nimatron finds the winning moves by Sprague–Grundy search over staircases, memoised up to reflection in the diagonal. Known cases it reproduces: with two rows, (a, b) loses exactly when b = a − 1, so 2xn is won by biting the top-right square; on an nxn square, biting (2, 2) leaves two equal arms and wins. Checked against a plain minimax (with the poisoned square as a losing move) over every position in a 4x5 board, and the theorem for every rectangle up to 7x7.",
            citation: "D. Gale, \"A curious Nim-type game\", American Mathematical Monthly 81 (1974) 876-879; F. Schuh, \"Spel van delers\", Nieuw Tijdschrift voor Wiskunde 39 (1952) 299-304; E. R. Berlekamp, J. H. Conway, R. K. Guy, Winning Ways, ch. 18.",
        }
    }

    fn conventions(&self) -> &'static [Convention] {
        &[Convention::Normal]
    }

    fn convention_note(&self) -> &'static str {
        "Chomp's poisoned square already decides the loser (whoever must take it), so it is played only one way; misère play is not offered"
    }

    fn explain_solved(
        &self,
        rows: &Vec<u8>,
        _convention: Convention,
        outcome: Outcome,
        grundy: Option<Nimber>,
    ) -> String {
        let mut s = String::new();
        let full = rows.iter().all(|&l| l == rows[0]);
        if rows.len() == 1 && rows[0] == 1 {
            s.push_str(
                "Only the poisoned square is left: the player to move must take it and loses.\n",
            );
        } else if full {
            s.push_str(&format!(
                "This is a full {}x{} rectangle. Strategy stealing shows the first player wins: if biting the top-right square lost, the opponent would have a winning reply; but any position that reply leaves can also be reached from the full rectangle in one bite (the top-right square is taken by every bite), so the first player could have made that move instead. The argument names no move, so Nimatron searched for the winning moves.\n",
                rows.len(),
                rows[0]
            ));
        }
        let verdict = match outcome {
            Outcome::N => "the player to move wins",
            Outcome::P => "the player to move loses against perfect play",
        };
        if let Some(g) = grundy {
            s.push_str(&format!(
                "Search over every staircase reachable from here (each counted once with its mirror image) gives the Sprague–Grundy value {g}, so {verdict}. A winning move leaves a position of value 0, from which every bite can be answered until only the poisoned square is left for the opponent.\n"
            ));
        }
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Adapter;
    use crate::check::TextGame;
    use crate::solve::{GrundySolver, Limits};
    use std::collections::HashMap;

    /// Squares as a bitmask over a 4x5 grid; the poisoned square is a legal
    /// move that loses at once. No symmetry, no Grundy theory.
    fn naive_wins(cells: u32, rows: usize, cols: usize, memo: &mut HashMap<u32, bool>) -> bool {
        if let Some(&w) = memo.get(&cells) {
            return w;
        }
        let mut wins = false;
        for r in 0..rows {
            for c in 0..cols {
                if cells & (1 << (r * cols + c)) == 0 || (r == 0 && c == 0) {
                    continue;
                }
                let mut after = cells;
                for r2 in r..rows {
                    for c2 in c..cols {
                        after &= !(1 << (r2 * cols + c2));
                    }
                }
                if !naive_wins(after, rows, cols, memo) {
                    wins = true;
                }
            }
        }
        // Taking the poisoned square loses, so without another move the
        // player to move loses.
        memo.insert(cells, wins);
        wins
    }

    fn to_cells(rows: &[u8], cols: usize) -> u32 {
        let mut cells = 0;
        for (r, &len) in rows.iter().enumerate() {
            for c in 0..len as usize {
                cells |= 1 << (r * cols + c);
            }
        }
        cells
    }

    fn all_staircases(rows: usize, cols: u8) -> Vec<Vec<u8>> {
        let mut out = vec![];
        fn go(prefix: &mut Vec<u8>, rows: usize, max: u8, out: &mut Vec<Vec<u8>>) {
            if !prefix.is_empty() {
                out.push(prefix.clone());
            }
            if prefix.len() == rows {
                return;
            }
            for len in 1..=max {
                prefix.push(len);
                go(prefix, rows, len, out);
                prefix.pop();
            }
        }
        go(&mut vec![], rows, cols, &mut out);
        out
    }

    #[test]
    fn agrees_with_plain_minimax_on_every_small_position() {
        let (rows, cols) = (4, 5);
        let game = Chomp::new(rows, cols);
        let adapter = Adapter::new(
            crate::GameSpec::Chomp {
                rows: rows as u64,
                columns: cols as u64,
            },
            game,
        );
        let mut memo = HashMap::new();
        let positions = all_staircases(rows, cols as u8);
        assert_eq!(positions.len(), 125); // C(9,4) - 1 staircases with a poisoned square
        for p in positions {
            let naive = naive_wins(to_cells(&p, cols), rows, cols, &mut memo);
            let text = game.format_position(&p);
            let a = adapter
                .analyze_text(&text, Convention::Normal, Limits::default())
                .unwrap();
            assert_eq!(a.outcome.to_move_wins(), naive, "{text}");
            let ours: Vec<String> = a.winning_moves.iter().map(|m| m.notation.clone()).collect();
            let theirs: Vec<String> = game
                .moves(&p)
                .into_iter()
                .filter(|m| !naive_wins(to_cells(&game.apply(&p, m), cols), rows, cols, &mut memo))
                .map(|m| game.format_move(&p, &m))
                .collect();
            assert_eq!(ours, theirs, "{text}");
        }
    }

    #[test]
    fn canonical_form_does_not_change_values() {
        // Grundy values with the mirror-image table equal those of the
        // mirrored position and of a solver that never mirrors.
        struct Plain(Chomp);
        impl Rules for Plain {
            type Position = Vec<u8>;
            type Move = Bite;
            fn moves(&self, p: &Vec<u8>) -> Vec<Bite> {
                self.0.moves(p)
            }
            fn apply(&self, p: &Vec<u8>, m: &Bite) -> Vec<u8> {
                self.0.apply(p, m)
            }
        }
        let game = Chomp::new(5, 5);
        let mut with = GrundySolver::new(&game, Limits::default());
        let plain = Plain(game);
        let mut without = GrundySolver::new(&plain, Limits::default());
        for p in all_staircases(5, 5) {
            let g = with.grundy(&p).unwrap();
            assert_eq!(g, without.grundy(&p).unwrap(), "{p:?}");
            assert_eq!(g, without.grundy(&transpose(&p)).unwrap(), "{p:?}");
        }
    }

    #[test]
    fn full_rectangles_are_first_player_wins() {
        let square = Chomp::new(7, 7);
        let mut solver = GrundySolver::new(&square, Limits::default());
        for r in 1..=7usize {
            for c in 1..=7u8 {
                let p = vec![c; r];
                let g = solver.grundy(&p).unwrap();
                assert_eq!(g.is_zero(), r == 1 && c == 1, "{r}x{c}");
            }
        }
        let adapter = Adapter::new(
            crate::GameSpec::Chomp {
                rows: 2,
                columns: 9,
            },
            Chomp::new(2, 9),
        );
        // 2xn: the only winning bite is the top-right square (Gale 1974).
        for n in 2..=9 {
            let a = adapter
                .analyze_text(&format!("{n} {n}"), Convention::Normal, Limits::default())
                .unwrap();
            let moves: Vec<&str> = a
                .winning_moves
                .iter()
                .map(|m| m.notation.as_str())
                .collect();
            assert_eq!(moves, vec![format!("2 {n}")], "2x{n}");
            // Two rows (a, b) lose exactly when b = a - 1.
            for b in 0..n {
                let text = format!("{n} {b}");
                let a = adapter
                    .analyze_text(&text, Convention::Normal, Limits::default())
                    .unwrap();
                assert_eq!(a.outcome == Outcome::P, b + 1 == n, "{text}");
            }
        }
        // nxn: biting (2, 2) leaves two equal arms and wins.
        let adapter = Adapter::new(
            crate::GameSpec::Chomp {
                rows: 6,
                columns: 6,
            },
            Chomp::new(6, 6),
        );
        for n in 2..=6 {
            let text = vec![n.to_string(); n].join(" ");
            let a = adapter
                .analyze_text(&text, Convention::Normal, Limits::default())
                .unwrap();
            assert!(
                a.winning_moves.iter().any(|m| m.notation == "2 2"),
                "{n}x{n}: {:?}",
                a.winning_moves
            );
            assert!(a.explanation.contains("Strategy stealing"));
        }
    }

    #[test]
    fn bad_positions_and_moves() {
        let game = Chomp::new(3, 4);
        let err = |t: &str| game.parse_position(t).unwrap_err().to_string();
        assert!(err("3 4").contains("never grow"));
        assert!(err("5").contains("does not fit"));
        assert!(err("1 1 1 1").contains("4 rows do not fit"));
        assert!(err("0").contains("poisoned"));
        assert!(err("a b").contains("not a row length"));
        assert!(err("").contains("row lengths"));
        assert_eq!(game.parse_position("full").unwrap(), vec![4, 4, 4]);
        assert_eq!(game.parse_position("4,2 0").unwrap(), vec![4, 2]);
        let p = vec![4, 2];
        let mv = |t: &str| game.parse_move(&p, t);
        assert_eq!(mv("2 2"), Ok(Bite { row: 1, column: 1 }));
        assert_eq!(mv("row 1 column 3"), Ok(Bite { row: 0, column: 2 }));
        assert!(mv("1 1").unwrap_err().problem.contains("poisoned"));
        assert!(mv("2 3").unwrap_err().problem.contains("no square"));
        assert!(mv("0 3").unwrap_err().problem.contains("from 1"));
        assert!(mv("banana").unwrap_err().problem.contains("not a move"));
        assert_eq!(game.apply(&p, &Bite { row: 0, column: 1 }), vec![1, 1]);
        assert_eq!(game.apply(&p, &Bite { row: 1, column: 0 }), vec![4]);
    }

    #[test]
    fn state_limit_is_reported() {
        let adapter = Adapter::new(
            crate::GameSpec::Chomp {
                rows: 12,
                columns: 12,
            },
            Chomp::new(12, 12),
        );
        let start = adapter.start_position().unwrap();
        let e = adapter
            .analyze_text(&start, Convention::Normal, Limits::states(100))
            .unwrap_err();
        assert!(e.to_string().contains("limit of 100 positions"), "{e}");
        assert!(
            adapter
                .analyze_text(&start, Convention::Misere, Limits::default())
                .is_err()
        );
    }
}
