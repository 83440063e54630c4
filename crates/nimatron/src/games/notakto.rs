//! Notakto: X-only tic-tac-toe on several boards. Each turn a player puts
//! an X in an empty cell of a live board; a board with N in a row (three on
//! the usual 3×3 board) is dead; whoever completes a line on the last live
//! board loses.
//!
//! Completing a line kills a board, leaving a component with no moves, so
//! the game is the misère play of a sum of boards: whoever makes the last
//! move loses. Normal play is not offered (it would be another game).
//!
//! # Theory (3×3 boards)
//!
//! Misère values do not add, but sums of 3×3 boards have a finite misère
//! quotient: an 18-element commutative monoid `Q` with a P-portion of 4
//! elements (T. E. Plambeck and G. Whitehead, "The Secrets of Notakto:
//! Winning at X-only Tic-Tac-Toe", arXiv:1301.1672, 2013). Nimatron does
//! not copy it: [`BoardQuotient`] enumerates every 3×3 board up to its 8
//! symmetries, orders the live ones so that every move leads to a lower
//! number, and hands that options graph to
//! [`misere::quotient_of_components`], which builds and verifies the
//! quotient. A position is then a P-position exactly when the product of its
//! boards' elements lies in the P-portion. Other board sizes are searched.

use std::collections::HashMap;
use std::sync::OnceLock;

use crate::misere::{self, ComponentQuotient, QuotientLimits};
use crate::{Convention, Nimber, Outcome, Rules};
use crate::{Description, MoveError, Notation, PositionError, Theory, Verdict};

/// The largest side a board may have.
pub const MAX_SIDE: u64 = 5;
/// The most boards a position may have.
pub const MAX_BOARDS: usize = 64;

/// A Notakto position: each board's X's as a bitmask over its cells in
/// reading order (bit `row · N + column`). Dead boards stay, to be shown.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Boards(pub Vec<u32>);

/// A move: an X on `cell` (reading order, from 0) of `board` (from 0).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Mark {
    /// The board, from 0.
    pub board: usize,
    /// The cell, in reading order from 0.
    pub cell: usize,
}

/// A symmetry of the square as a map of (last index, row, column) to the
/// image's (row, column).
type CellMap = fn(usize, usize, usize) -> (usize, usize);

/// Notakto on N×N boards.
#[derive(Clone, Debug)]
pub struct Notakto {
    side: usize,
    /// The lines of N cells: rows, columns and the two diagonals.
    lines: Vec<u32>,
    /// The 8 symmetries of the square, each as the image of every cell.
    symmetries: Vec<Vec<usize>>,
}

impl Notakto {
    /// Notakto on boards of `side` × `side` cells (1 to [`MAX_SIDE`]).
    pub fn new(side: usize) -> Notakto {
        assert!((1..=MAX_SIDE as usize).contains(&side), "side {side}");
        let n = side;
        let bit = |r: usize, c: usize| 1u32 << (r * n + c);
        let mut lines = Vec::new();
        for i in 0..n {
            lines.push((0..n).fold(0, |m, j| m | bit(i, j)));
            lines.push((0..n).fold(0, |m, j| m | bit(j, i)));
        }
        lines.push((0..n).fold(0, |m, i| m | bit(i, i)));
        lines.push((0..n).fold(0, |m, i| m | bit(i, n - 1 - i)));
        lines.sort_unstable();
        lines.dedup();
        let last = n - 1;
        let maps: [CellMap; 8] = [
            |_, r, c| (r, c),
            |l, r, c| (c, l - r),
            |l, r, c| (l - r, l - c),
            |l, r, c| (l - c, r),
            |l, r, c| (r, l - c),
            |l, r, c| (l - r, c),
            |_, r, c| (c, r),
            |l, r, c| (l - c, l - r),
        ];
        let symmetries = maps
            .iter()
            .map(|f| {
                (0..n * n)
                    .map(|cell| {
                        let (r, c) = f(last, cell / n, cell % n);
                        r * n + c
                    })
                    .collect()
            })
            .collect();
        Notakto {
            side,
            lines,
            symmetries,
        }
    }

    /// The side of the boards.
    pub fn side(&self) -> usize {
        self.side
    }

    fn cells(&self) -> usize {
        self.side * self.side
    }

    /// Whether a board has a full line.
    pub fn is_dead(&self, board: u32) -> bool {
        self.lines.iter().any(|&line| line & !board == 0)
    }

    /// The least of the board's 8 images under the square's symmetries.
    pub fn canonical_board(&self, board: u32) -> u32 {
        self.symmetries
            .iter()
            .map(|map| {
                map.iter()
                    .enumerate()
                    .filter(|&(cell, _)| board >> cell & 1 == 1)
                    .fold(0u32, |m, (_, &to)| m | 1 << to)
            })
            .min()
            .unwrap_or(board)
    }

    fn cell_name(&self, cell: usize) -> String {
        format!(
            "{}{}",
            (b'a' + (cell % self.side) as u8) as char,
            cell / self.side + 1
        )
    }

    fn board_text(&self, board: u32) -> String {
        let rows: Vec<String> = (0..self.side)
            .map(|r| {
                (0..self.side)
                    .map(|c| {
                        if board >> (r * self.side + c) & 1 == 1 {
                            'X'
                        } else {
                            '.'
                        }
                    })
                    .collect()
            })
            .collect();
        rows.join("/")
    }

    fn live(&self, p: &Boards) -> Vec<usize> {
        (0..p.0.len()).filter(|&i| !self.is_dead(p.0[i])).collect()
    }

    fn syntax_error(&self, problem: String) -> PositionError {
        PositionError::new(problem, self.position_syntax())
    }

    fn parse_board(&self, token: &str) -> Result<u32, PositionError> {
        let n = self.side;
        let rows: Vec<&str> = token.split('/').collect();
        if rows.len() > 1 && (rows.len() != n || rows.iter().any(|r| r.chars().count() != n)) {
            return Err(self.syntax_error(format!(
                "'{token}' is not a {n}×{n} board: with '/' between rows, give {n} rows of {n} cells"
            )));
        }
        let cells: Vec<char> = token.chars().filter(|&c| c != '/').collect();
        if cells.len() != n * n {
            return Err(self.syntax_error(format!(
                "'{token}' has {} cells; a {n}×{n} board has {}",
                cells.len(),
                n * n
            )));
        }
        let mut board = 0u32;
        for (i, &c) in cells.iter().enumerate() {
            match c {
                'X' | 'x' => board |= 1 << i,
                '.' | '-' | '_' => {}
                other => {
                    return Err(self.syntax_error(format!(
                        "'{other}' in '{token}' is not a cell: write X for a mark and . for an empty cell"
                    )));
                }
            }
        }
        Ok(board)
    }

    fn parse_cell(&self, text: &str) -> Option<usize> {
        let n = self.side;
        if let Ok(k) = text.parse::<usize>() {
            return (1..=n * n).contains(&k).then(|| k - 1);
        }
        let mut chars = text.chars();
        let column = chars.next()?.to_ascii_lowercase();
        let row: usize = chars.as_str().parse().ok()?;
        let c = (column as usize).checked_sub('a' as usize)?;
        (c < n && (1..=n).contains(&row)).then(|| (row - 1) * n + c)
    }

    /// Outcome, winning moves and the elements of the live boards, from the
    /// 3×3 quotient.
    fn by_quotient(&self, q: &BoardQuotient, p: &Boards) -> (Outcome, Vec<Mark>, Vec<usize>) {
        let quotient = q.quotient();
        let elements: Vec<usize> = p.0.iter().map(|&b| q.element(b)).collect();
        let total = quotient.product_of(elements.iter().copied());
        let mut winning = Vec::new();
        for mv in self.moves(p) {
            let rest = quotient.product_of(
                (0..elements.len())
                    .filter(|&i| i != mv.board)
                    .map(|i| elements[i]),
            );
            let after = q.element(p.0[mv.board] | 1 << mv.cell);
            if quotient.in_p(quotient.product(rest, after)) {
                winning.push(mv);
            }
        }
        let outcome = Outcome::from_to_move_wins(!quotient.in_p(total));
        (outcome, winning, elements)
    }

    fn explain_quotient(
        &self,
        q: &BoardQuotient,
        p: &Boards,
        outcome: Outcome,
        elements: &[usize],
        winning: usize,
    ) -> String {
        const MAX_LISTED: usize = 20;
        let quotient = q.quotient();
        let names = |ids: Vec<usize>| -> String {
            ids.into_iter()
                .map(|e| quotient.element_name(e))
                .collect::<Vec<_>>()
                .join(", ")
        };
        let mut s = format!(
            "Notakto on 3×3 boards, misère play: whoever completes a line on the last live board loses.\n\
             The boards are played side by side, but misère values do not add as nimbers do. Nimatron uses instead the misère quotient of 3×3 Notakto, \
             computed from the rules (every board up to its 8 symmetries, verified for every sum of boards): a commutative monoid of {} elements,\n  Q = {}\nwith P-portion {{{}}} (Plambeck and Whitehead, arXiv:1301.1672, give the same monoid with c and d exchanged). \
             Each board is worth an element of Q, and a position is lost for the player to move exactly when the product of its boards' elements lies in P.\n",
            quotient.order(),
            quotient.presentation(),
            names(quotient.p_portion())
        );
        for (i, &board) in p.0.iter().enumerate().take(MAX_LISTED) {
            let state = if self.is_dead(board) {
                "dead, worth 1: it takes no further part".to_string()
            } else {
                quotient.element_name(elements[i])
            };
            s.push_str(&format!(
                "  board {} {}: {state}\n",
                i + 1,
                self.board_text(board)
            ));
        }
        if p.0.len() > MAX_LISTED {
            s.push_str(&format!(
                "  … and {} more boards.\n",
                p.0.len() - MAX_LISTED
            ));
        }
        let live: Vec<String> = self
            .live(p)
            .into_iter()
            .map(|i| quotient.element_name(elements[i]))
            .collect();
        let total = quotient.product_of(elements.iter().copied());
        let in_p = quotient.in_p(total);
        if live.is_empty() {
            s.push_str("Every board is dead: the opponent completed the last line and lost, so the player to move has won.\n");
            return s;
        }
        s.push_str(&format!(
            "Product: {} = {}, which is {}in P.\n",
            live.join(" · "),
            quotient.element_name(total),
            if in_p { "" } else { "not " }
        ));
        match outcome {
            Outcome::P => s.push_str(
                "So the player to move loses against perfect play: every move changes one board's element and leaves a product outside P.\n",
            ),
            Outcome::N => s.push_str(&format!(
                "So the player to move wins, by a move that changes one board so that the product lands in P ({winning} such move{}).\n",
                if winning == 1 { "" } else { "s" }
            )),
        }
        s
    }
}

impl Rules for Notakto {
    type Position = Boards;
    type Move = Mark;

    fn moves(&self, p: &Boards) -> Vec<Mark> {
        let mut moves = Vec::new();
        for board in self.live(p) {
            for cell in 0..self.cells() {
                if p.0[board] >> cell & 1 == 0 {
                    moves.push(Mark { board, cell });
                }
            }
        }
        moves
    }

    fn apply(&self, p: &Boards, mv: &Mark) -> Boards {
        let mut boards = p.0.clone();
        boards[mv.board] |= 1 << mv.cell;
        Boards(boards)
    }

    fn components(&self, p: &Boards) -> Vec<Boards> {
        self.live(p)
            .into_iter()
            .map(|i| Boards(vec![p.0[i]]))
            .collect()
    }

    fn canonical(&self, p: &Boards) -> Boards {
        let mut boards: Vec<u32> = self
            .live(p)
            .into_iter()
            .map(|i| self.canonical_board(p.0[i]))
            .collect();
        boards.sort_unstable();
        Boards(boards)
    }
}

/// The misère quotient of 3×3 Notakto, computed from the rules, with the
/// element of every board.
#[derive(Clone, Debug)]
pub struct BoardQuotient {
    quotient: ComponentQuotient,
    /// Each live board up to symmetry, by its component number.
    boards: Vec<u32>,
    component_of: HashMap<u32, usize>,
    rules: Notakto,
}

impl BoardQuotient {
    /// Computes the quotient: the live 3×3 boards up to symmetry are the
    /// components, numbered by decreasing number of X's (so every move leads
    /// to a lower number), a move that completes a line leads to nothing,
    /// and [`misere::quotient_of_components`] does the rest.
    pub fn compute() -> Result<BoardQuotient, misere::QuotientError> {
        let rules = Notakto::new(3);
        let mut boards: Vec<u32> = (0..1u32 << 9)
            .filter(|&b| !rules.is_dead(b) && rules.canonical_board(b) == b)
            .collect();
        boards.sort_by_key(|&b| (std::cmp::Reverse(b.count_ones()), b));
        boards.insert(0, u32::MAX); // component 0 stands for nothing
        let component_of: HashMap<u32, usize> =
            boards.iter().enumerate().map(|(k, &b)| (b, k)).collect();
        let options: Vec<Vec<Vec<usize>>> = boards
            .iter()
            .enumerate()
            .map(|(k, &board)| {
                if k == 0 {
                    return Vec::new();
                }
                (0..9)
                    .filter(|&cell| board >> cell & 1 == 0)
                    .map(|cell| {
                        let next = board | 1 << cell;
                        if rules.is_dead(next) {
                            Vec::new()
                        } else {
                            vec![component_of[&rules.canonical_board(next)]]
                        }
                    })
                    .collect()
            })
            .collect();
        let quotient = misere::quotient_of_components(&options, &QuotientLimits::default())?;
        Ok(BoardQuotient {
            quotient,
            boards,
            component_of,
            rules,
        })
    }

    /// The quotient, computed once per process; `None` if the computation
    /// failed (it does not, within the default limits).
    pub fn shared() -> Option<&'static BoardQuotient> {
        static SHARED: OnceLock<Option<BoardQuotient>> = OnceLock::new();
        SHARED
            .get_or_init(|| BoardQuotient::compute().ok())
            .as_ref()
    }

    /// The quotient of sums of boards.
    pub fn quotient(&self) -> &ComponentQuotient {
        &self.quotient
    }

    /// The live boards up to symmetry, in component order (from 1).
    pub fn boards(&self) -> &[u32] {
        &self.boards[1..]
    }

    /// The element of a 3×3 board in any orientation (the identity when it
    /// is dead).
    pub fn element(&self, board: u32) -> usize {
        if self.rules.is_dead(board) {
            return 0;
        }
        let k = self.component_of[&self.rules.canonical_board(board)];
        self.quotient.image(k)
    }
}

impl Notation for Notakto {
    fn parse_position(&self, text: &str) -> Result<Boards, PositionError> {
        let mut boards = Vec::new();
        for token in text
            .split([' ', '\t', '\n', '\r', ',', ';', '+'])
            .filter(|t| !t.is_empty())
        {
            if token.chars().all(|c| c.is_ascii_digit()) {
                let k: usize = token
                    .parse()
                    .ok()
                    .filter(|&k| (1..=MAX_BOARDS).contains(&k))
                    .ok_or_else(|| {
                        self.syntax_error(format!(
                            "'{token}' is not a number of empty boards from 1 to {MAX_BOARDS}"
                        ))
                    })?;
                boards.extend(std::iter::repeat_n(0, k));
            } else {
                boards.push(self.parse_board(token)?);
            }
            if boards.len() > MAX_BOARDS {
                return Err(self.syntax_error(format!("more than {MAX_BOARDS} boards are given")));
            }
        }
        if boards.is_empty() {
            return Err(self.syntax_error("no boards given".to_string()));
        }
        Ok(Boards(boards))
    }

    fn format_position(&self, p: &Boards) -> String {
        let boards: Vec<String> = p.0.iter().map(|&b| self.board_text(b)).collect();
        boards.join(" ")
    }

    fn start_position(&self) -> Option<Boards> {
        Some(Boards(vec![0; if self.side == 3 { 3 } else { 1 }]))
    }

    fn parse_move(&self, p: &Boards, input: &str) -> Result<Mark, MoveError> {
        let mut words: Vec<String> = Vec::new();
        for word in input
            .split([' ', '\t', ':', ','])
            .filter(|w| !w.is_empty())
            .filter(|w| {
                !matches!(
                    w.to_ascii_lowercase().as_str(),
                    "board" | "cell" | "at" | "on" | "mark" | "x"
                )
            })
        {
            // "2b2": a board number glued to a cell name.
            match word.find(|c: char| c.is_ascii_alphabetic()) {
                Some(at) if at > 0 && word[..at].chars().all(|c| c.is_ascii_digit()) => {
                    words.push(word[..at].to_string());
                    words.push(word[at..].to_string());
                }
                _ => words.push(word.to_string()),
            }
        }
        let live = self.live(p);
        let not_a_move = || {
            MoveError::new(format!(
                "'{}' is not a move: give the board and the cell, e.g. '2 b2' (board 2, column b, row 2) or '2 5' (its fifth cell in reading order)",
                input.trim()
            ))
        };
        let (board, cell) = match words.as_slice() {
            [cell] if live.len() == 1 => (live[0], cell.as_str()),
            [_] => {
                return Err(MoveError::new(format!(
                    "'{}' names no board, and {} boards are live: give the board first, e.g. '{} b2'",
                    input.trim(),
                    live.len(),
                    live.first().map_or(1, |b| b + 1)
                )));
            }
            [board, cell] => {
                let board = board
                    .parse::<usize>()
                    .ok()
                    .filter(|b| (1..=p.0.len()).contains(b))
                    .ok_or_else(|| {
                        MoveError::new(format!(
                            "there is no board {board}: the boards are numbered 1 to {}",
                            p.0.len()
                        ))
                    })?;
                (board - 1, cell.as_str())
            }
            _ => return Err(not_a_move()),
        };
        let n = self.side;
        let cell = self.parse_cell(cell).ok_or_else(|| {
            MoveError::new(format!(
                "'{cell}' is not a cell: name it by column a to {} and row 1 to {n}, e.g. b2, or by its number 1 to {} in reading order",
                (b'a' + n as u8 - 1) as char,
                n * n
            ))
        })?;
        if self.is_dead(p.0[board]) {
            return Err(MoveError::new(format!(
                "board {} is dead (it has a full line): play on a live board",
                board + 1
            )));
        }
        if p.0[board] >> cell & 1 == 1 {
            return Err(MoveError::new(format!(
                "{} on board {} already has an X",
                self.cell_name(cell),
                board + 1
            )));
        }
        Ok(Mark { board, cell })
    }

    fn format_move(&self, _p: &Boards, mv: &Mark) -> String {
        format!("{} {}", mv.board + 1, self.cell_name(mv.cell))
    }

    fn describe_move(&self, p: &Boards, mv: &Mark) -> String {
        let after = self.apply(p, mv);
        let mut s = format!("X on {} of board {}", self.cell_name(mv.cell), mv.board + 1);
        if self.is_dead(after.0[mv.board]) {
            if self.live(&after).is_empty() {
                s.push_str(", completing a line on the last live board: this move loses");
            } else {
                s.push_str(", completing a line: the board is dead");
            }
        }
        s
    }

    fn render(&self, p: &Boards) -> String {
        const PER_ROW: usize = 4;
        let n = self.side;
        let width = (2 * n + 3).max(16);
        let mut s = String::new();
        for group in (0..p.0.len()).collect::<Vec<_>>().chunks(PER_ROW) {
            let mut lines = vec![String::new(); n + 2];
            for &i in group {
                let board = p.0[i];
                let title = format!(
                    "board {}{}",
                    i + 1,
                    if self.is_dead(board) { " (dead)" } else { "" }
                );
                lines[0].push_str(&format!("  {title:<width$}"));
                let letters: String = (0..n)
                    .map(|c| format!(" {}", (b'a' + c as u8) as char))
                    .collect();
                lines[1].push_str(&format!("  {:<width$}", format!(" {letters}")));
                for r in 0..n {
                    let row: String = (0..n)
                        .map(|c| {
                            if board >> (r * n + c) & 1 == 1 {
                                " X"
                            } else {
                                " ."
                            }
                        })
                        .collect();
                    lines[r + 2].push_str(&format!("  {:<width$}", format!("{}{row}", r + 1)));
                }
            }
            for line in lines {
                s.push_str(line.trim_end());
                s.push('\n');
            }
        }
        s.push_str(&format!("  position: {}\n", self.format_position(p)));
        s
    }

    fn material(&self, p: &Boards) -> u64 {
        self.live(p)
            .into_iter()
            .map(|i| (self.cells() - p.0[i].count_ones() as usize) as u64)
            .sum()
    }

    fn position_syntax(&self) -> &'static str {
        "boards separated by spaces, each its cells in reading order with X for a mark and . for an empty cell, rows optionally separated by '/': for 3×3, 'X...X.... .........' or 'X../.X./... .../.../...'; a number k stands for k empty boards ('3' is three empty boards); a board with a full line is dead; at most 64 boards"
    }

    fn move_syntax(&self) -> String {
        String::from(
            "the board and the cell: '2 b2' puts an X on board 2, column b, row 2 (rows are numbered from the top); '2 5' names the cell by its number in reading order; with one live board the cell alone will do",
        )
    }
    fn board(&self, p: &Boards) -> crate::Board {
        let cells = self.side * self.side;
        crate::Board::Marks {
            side: self.side,
            boards: p
                .0
                .iter()
                .map(|&b| (0..cells).map(|c| b >> c & 1 == 1).collect())
                .collect(),
            dead: p.0.iter().map(|&b| self.is_dead(b)).collect(),
        }
    }
    /// The cell marked: (board, row, column).
    fn touches(&self, _p: &Boards, mark: &Mark) -> Vec<crate::Element> {
        vec![crate::Element::Cell {
            at: vec![mark.board, mark.cell / self.side, mark.cell % self.side],
        }]
    }
    /// Every move marks one empty cell.
    fn moves_left_bound(&self, p: &Boards) -> Option<u64> {
        let cells = (self.side * self.side) as u32;
        Some(p.0.iter().map(|&b| u64::from(cells - b.count_ones())).sum())
    }
}

impl Theory for Notakto {
    fn description(&self) -> Description {
        Description {
            rules: "X-only tic-tac-toe on several N×N boards (3×3 unless notakto:N says otherwise). Each turn a player puts an X in an empty cell of any live board; a board with N X's in a row (a row, a column or a diagonal) is dead. Whoever completes a line on the last live board loses.",
            example: "X...X.... .........",
            theory: "Completing a line kills a board, which then has no moves, so Notakto is the misère play of a sum of boards. For 3×3 boards Nimatron computes the misère quotient from the rules: every board up to its 8 symmetries is a component, numbered so that each move leads lower, and the misère quotient engine builds the quotient of all their sums and verifies it (the local rule over every sum). It has 18 elements and a P-portion of 4, as Plambeck and Whitehead found, and is checked isomorphic to their presentation ⟨a, b, c, d | a² = 1, b³ = b, b²c = c, c³ = ac², b²d = d, cd = ad, d² = c²⟩ with P = {a, b², bc, c²} (generators and P-portion mapped onto Nimatron's, all products preserved). A position is a P-position exactly when the product of its boards' elements is in P; each winning move is one whose board's new element puts the product in P. Checked against a plain memoised minimax on every position of up to 3 boards (every multiset of 3×3 boards up to symmetry, live or dead). Boards of other sizes have no quotient here and are solved by search (a single 4×4 board is within reach; more boards or larger ones soon reach the search limits).",
            citation: "T. E. Plambeck and G. Whitehead, \"The Secrets of Notakto: Winning at X-only Tic-Tac-Toe\", arXiv:1301.1672 (2013); T. E. Plambeck and A. N. Siegel, \"Misère quotients for impartial games\", J. Combin. Theory Ser. A 115 (2008) 593-622.",
        }
    }

    fn conventions(&self) -> &'static [Convention] {
        &[Convention::Misere]
    }

    fn convention_note(&self) -> &'static str {
        "Notakto is misère by its rules: whoever completes a line on the last live board loses. Normal play, where that player would win, is another game and is not offered: ask for misère play"
    }

    fn use_grundy(&self) -> bool {
        false
    }

    fn closed_form(&self, p: &Boards, convention: Convention) -> Option<Verdict<Mark>> {
        if convention != Convention::Misere || self.side != 3 {
            return None;
        }
        let q = BoardQuotient::shared()?;
        let (outcome, winning, elements) = self.by_quotient(q, p);
        Some(Verdict {
            details: Default::default(),
            outcome,
            grundy: None,
            explanation: self.explain_quotient(q, p, outcome, &elements, winning.len()),
            winning_moves: winning,
            theorem: format!(
                "the misère quotient of 3×3 Notakto (order {}), computed from the rules",
                q.quotient().order()
            ),
        })
    }

    fn explain_solved(
        &self,
        p: &Boards,
        _convention: Convention,
        outcome: Outcome,
        _grundy: Option<Nimber>,
    ) -> String {
        format!(
            "Notakto on {n}×{n} boards, misère play: whoever completes a line on the last live board loses. {} of {} boards are live. \
             Misère values do not add and Nimatron has no quotient for {n}×{n} boards, so it searched every line of play, storing positions with the live boards up to symmetry and in any order: {}.\n",
            self.live(p).len(),
            p.0.len(),
            outcome.verdict(),
            n = self.side
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Adapter;
    use crate::check::TextGame;
    use crate::check::closed_form_agrees_with_search;
    use crate::solve::{Limits, OutcomeSearch};
    use std::collections::{BTreeSet, HashSet};
    use std::time::Instant;

    /// The eight lines of a 3×3 board, by cell number, written out here.
    const LINES: [[usize; 3]; 8] = [
        [0, 1, 2],
        [3, 4, 5],
        [6, 7, 8],
        [0, 3, 6],
        [1, 4, 7],
        [2, 5, 8],
        [0, 4, 8],
        [2, 4, 6],
    ];

    fn dead(board: u16) -> bool {
        LINES
            .iter()
            .any(|line| line.iter().all(|&c| board >> c & 1 == 1))
    }

    /// The least image of a board under the 8 symmetries, from the
    /// coordinates: rotate a quarter turn (r, c) → (c, 2 − r) four times,
    /// with and without a mirror (r, c) → (r, 2 − c).
    fn least_image(board: u16) -> u16 {
        let map = |b: u16, f: &dyn Fn(usize, usize) -> (usize, usize)| {
            (0..9).fold(0u16, |m, cell| {
                if b >> cell & 1 == 1 {
                    let (r, c) = f(cell / 3, cell % 3);
                    m | 1 << (3 * r + c)
                } else {
                    m
                }
            })
        };
        let mut best = u16::MAX;
        for mirrored in [board, map(board, &|r, c| (r, 2 - c))] {
            let mut b = mirrored;
            for _ in 0..4 {
                best = best.min(b);
                b = map(b, &|r, c| (c, 2 - r));
            }
        }
        best
    }

    /// A plain misère minimax over sums of boards, memoised on the sorted
    /// least images of the live boards: the player to move wins when no
    /// board is live (the opponent completed the last line) or some move
    /// leaves a position the opponent loses.
    #[derive(Default)]
    struct Plain {
        memo: HashMap<Vec<u16>, bool>,
    }

    impl Plain {
        fn key(boards: &[u16]) -> Vec<u16> {
            let mut key: Vec<u16> = boards
                .iter()
                .filter(|&&b| !dead(b))
                .map(|&b| least_image(b))
                .collect();
            key.sort_unstable();
            key
        }

        fn wins(&mut self, boards: &[u16]) -> bool {
            let key = Plain::key(boards);
            if let Some(&w) = self.memo.get(&key) {
                return w;
            }
            let mut w = key.is_empty();
            'search: for i in 0..key.len() {
                for cell in 0..9 {
                    if key[i] >> cell & 1 == 0 {
                        let mut next = key.clone();
                        next[i] |= 1 << cell;
                        if !self.wins(&next) {
                            w = true;
                            break 'search;
                        }
                    }
                }
            }
            self.memo.insert(key, w);
            w
        }
    }

    fn every_board_up_to_symmetry() -> Vec<u16> {
        let set: BTreeSet<u16> = (0..1u16 << 9).map(least_image).collect();
        set.into_iter().collect()
    }

    #[test]
    fn the_quotient_agrees_with_plain_minimax_on_every_position_of_up_to_three_boards() {
        let started = Instant::now();
        let fresh = BoardQuotient::compute().expect("the quotient");
        let computed = started.elapsed();
        assert_eq!(fresh.quotient().order(), 18);
        let q = BoardQuotient::shared().expect("the quotient");
        let game = Notakto::new(3);
        let boards = every_board_up_to_symmetry();
        assert_eq!(boards.len(), 102);
        let mut plain = Plain::default();
        let mut positions = 0;
        let mut p_positions = 0;
        let started = Instant::now();
        for i in 0..boards.len() {
            for j in i..=boards.len() {
                for k in j..=boards.len() {
                    // Index boards.len() stands for "no board here".
                    let chosen: Vec<u16> = [i, j, k]
                        .iter()
                        .filter(|&&x| x < boards.len())
                        .map(|&x| boards[x])
                        .collect();
                    positions += 1;
                    let p = Boards(chosen.iter().map(|&b| u32::from(b)).collect());
                    let (outcome, winning, _) = game.by_quotient(q, &p);
                    let wins = plain.wins(&chosen);
                    assert_eq!(outcome.to_move_wins(), wins, "{}", game.format_position(&p));
                    p_positions += usize::from(!wins);
                    let theirs: Vec<Mark> = game
                        .moves(&p)
                        .into_iter()
                        .filter(|mv| {
                            let mut next = chosen.clone();
                            next[mv.board] |= 1 << mv.cell;
                            !plain.wins(&next)
                        })
                        .collect();
                    assert_eq!(winning, theirs, "{}", game.format_position(&p));
                }
            }
        }
        eprintln!(
            "quotient of {} live boards computed in {computed:?}; {positions} positions of 1 to 3 boards ({p_positions} P-positions, {} positions stored by the minimax) checked in {:?}",
            fresh.boards().len(),
            plain.memo.len(),
            started.elapsed()
        );
        assert_eq!(positions, 102 + 103 * 102 / 2 + 104 * 103 * 102 / 6);
    }

    /// The published quotient (Plambeck and Whitehead, arXiv:1301.1672,
    /// 2013), built here from its presentation: exponent vectors (a, b, c,
    /// d) in a box, joined by every translate of every relation; each
    /// element has a representative with a ≤ 1, b ≤ 2, c ≤ 2, d ≤ 1.
    struct Published {
        /// Class of each vector of the box, indexed by `index`.
        class: Vec<usize>,
    }

    const BOX: [usize; 4] = [4, 6, 6, 4];
    const RELATIONS: [([usize; 4], [usize; 4]); 7] = [
        ([2, 0, 0, 0], [0, 0, 0, 0]), // a² = 1
        ([0, 3, 0, 0], [0, 1, 0, 0]), // b³ = b
        ([0, 2, 1, 0], [0, 0, 1, 0]), // b²c = c
        ([0, 0, 3, 0], [1, 0, 2, 0]), // c³ = ac²
        ([0, 2, 0, 1], [0, 0, 0, 1]), // b²d = d
        ([0, 0, 1, 1], [1, 0, 0, 1]), // cd = ad
        ([0, 0, 0, 2], [0, 0, 2, 0]), // d² = c²
    ];
    const PUBLISHED_P: [[usize; 4]; 4] = [[1, 0, 0, 0], [0, 2, 0, 0], [0, 1, 1, 0], [0, 0, 2, 0]];

    fn index(v: [usize; 4]) -> usize {
        ((v[0] * BOX[1] + v[1]) * BOX[2] + v[2]) * BOX[3] + v[3]
    }

    fn vectors(limit: [usize; 4]) -> Vec<[usize; 4]> {
        let mut out = Vec::new();
        for a in 0..limit[0] {
            for b in 0..limit[1] {
                for c in 0..limit[2] {
                    for d in 0..limit[3] {
                        out.push([a, b, c, d]);
                    }
                }
            }
        }
        out
    }

    impl Published {
        fn new() -> Published {
            let size = BOX.iter().product();
            let mut root: Vec<usize> = (0..size).collect();
            fn find(root: &mut [usize], mut v: usize) -> usize {
                while root[v] != v {
                    root[v] = root[root[v]];
                    v = root[v];
                }
                v
            }
            for m in vectors(BOX) {
                for (l, r) in RELATIONS {
                    let add = |x: [usize; 4]| -> Option<[usize; 4]> {
                        let v = [x[0] + m[0], x[1] + m[1], x[2] + m[2], x[3] + m[3]];
                        (0..4).all(|i| v[i] < BOX[i]).then_some(v)
                    };
                    if let (Some(x), Some(y)) = (add(l), add(r)) {
                        let (x, y) = (find(&mut root, index(x)), find(&mut root, index(y)));
                        root[x] = y;
                    }
                }
            }
            let class = (0..size).map(|v| find(&mut root, v)).collect();
            Published { class }
        }

        fn small() -> Vec<[usize; 4]> {
            vectors([2, 3, 3, 2])
        }

        /// One representative vector of each element.
        fn elements(&self) -> Vec<[usize; 4]> {
            let mut seen = HashSet::new();
            Published::small()
                .into_iter()
                .filter(|&v| seen.insert(self.class[index(v)]))
                .collect()
        }
    }

    #[test]
    fn the_computed_quotient_is_isomorphic_to_the_published_one() {
        let q = BoardQuotient::shared().expect("the quotient").quotient();
        eprintln!(
            "computed: order {}, {}, P = {:?}",
            q.order(),
            q.presentation(),
            q.p_portion()
                .into_iter()
                .map(|e| q.element_name(e))
                .collect::<Vec<_>>()
        );
        assert_eq!(q.order(), 18);
        assert_eq!(q.p_portion().len(), 4);
        let published = Published::new();
        let elements = published.elements();
        assert_eq!(elements.len(), 18, "the presentation defines 18 elements");
        // Every vector of the box up to the products of two small ones
        // falls in the class of a small one (the box is large enough).
        // Now find every assignment of the generators a, b, c, d to
        // computed elements that satisfies the relations, reaches 18
        // distinct elements and maps the P-portion onto the P-portion.
        let table: Vec<Vec<usize>> = (0..18)
            .map(|x| (0..18).map(|y| q.product(x, y)).collect())
            .collect();
        let power = |x: usize, k: usize| (0..k).fold(0, |acc, _| table[acc][x]);
        let image =
            |g: [usize; 4], v: [usize; 4]| (0..4).fold(0, |acc, i| table[acc][power(g[i], v[i])]);
        let p_set: BTreeSet<usize> = q.p_portion().into_iter().collect();
        let mut isomorphisms = Vec::new();
        for g in vectors([18, 18, 18, 18]) {
            if RELATIONS.iter().any(|&(l, r)| image(g, l) != image(g, r)) {
                continue;
            }
            let reached: BTreeSet<usize> = elements.iter().map(|&v| image(g, v)).collect();
            let p: BTreeSet<usize> = PUBLISHED_P.iter().map(|&v| image(g, v)).collect();
            if reached.len() == 18 && p == p_set {
                isomorphisms.push(g);
            }
        }
        let named: Vec<Vec<String>> = isomorphisms
            .iter()
            .map(|g| g.iter().map(|&e| q.element_name(e)).collect())
            .collect();
        eprintln!("the published a, b, c, d map to: {named:?}");
        // The explanation says the paper's c and d are Nimatron's d and c.
        assert!(named.contains(&vec![
            "a".to_string(),
            "b".to_string(),
            "d".to_string(),
            "c".to_string()
        ]));
        // Products: the map is a homomorphism by construction (it sends
        // words to products), and it is onto 18 of 18 elements, so it is an
        // isomorphism; check the products of all pairs once more anyway.
        let g = isomorphisms[0];
        for &x in &elements {
            for &y in &elements {
                let sum = [x[0] + y[0], x[1] + y[1], x[2] + y[2], x[3] + y[3]];
                let class = published.class[index(sum)];
                let same = elements
                    .iter()
                    .find(|&&v| published.class[index(v)] == class)
                    .expect("every product has a small representative");
                assert_eq!(image(g, sum), image(g, *same));
                assert_eq!(q.product(image(g, x), image(g, y)), image(g, sum));
            }
        }
    }

    #[test]
    fn elements_of_some_boards() {
        let q = BoardQuotient::shared().expect("the quotient");
        let game = Notakto::new(3);
        for (board, name) in [
            (".........", "d"),
            ("....X....", "c^2"),
            ("X........", "1"),
            (".X.......", "1"),
            ("X...X....", "b"),
            ("XX.......", "ac"),
            ("X.......X", "a"),
        ] {
            let b = game.parse_position(board).unwrap().0[0];
            assert_eq!(q.quotient().element_name(q.element(b)), name, "{board}");
        }
        // One board: first player; two: second; three: first, and every
        // opening wins (a corner or an edge is worth 1, leaving d^2 = c^2).
        for (boards, outcome, winning) in [
            (1, Outcome::N, 1),
            (2, Outcome::P, 0),
            (3, Outcome::N, 27),
            (4, Outcome::P, 0),
        ] {
            let (o, w, _) = game.by_quotient(q, &Boards(vec![0; boards]));
            assert_eq!((o, w.len()), (outcome, winning), "{boards} boards");
        }
    }

    #[test]
    fn closed_form_agrees_with_search_on_two_boards() {
        let game = Notakto::new(3);
        let boards = every_board_up_to_symmetry();
        let positions: Vec<Boards> = boards
            .iter()
            .step_by(5)
            .flat_map(|&x| {
                boards
                    .iter()
                    .step_by(7)
                    .map(move |&y| Boards(vec![u32::from(x), u32::from(y)]))
            })
            .collect();
        let count = positions.len();
        let checked = closed_form_agrees_with_search(&game, positions).unwrap();
        assert_eq!(checked, count);
    }

    #[test]
    fn one_board_center_wins_and_other_sizes_are_searched() {
        let adapter = Adapter::new(crate::GameSpec::Notakto { side: 3 }, Notakto::new(3));
        // The first player wins one board by the centre, and only by it
        // (Plambeck and Whitehead, §1, after the mathoverflow thread).
        let a = adapter
            .analyze_text(".........", Convention::Misere, Limits::default())
            .unwrap();
        assert_eq!(a.outcome, Outcome::N);
        let moves: Vec<&str> = a
            .winning_moves
            .iter()
            .map(|m| m.notation.as_str())
            .collect();
        assert_eq!(moves, ["1 b2"]);
        assert!(a.explanation.contains("P-portion"), "{}", a.explanation);
        assert!(
            a.explanation.contains("board 1 .../.../...: "),
            "{}",
            a.explanation
        );
        assert!(matches!(a.method, crate::Method::ClosedForm(_)));
        let e = adapter
            .analyze_text("3", Convention::Normal, Limits::default())
            .unwrap_err();
        assert!(e.to_string().contains("misère by its rules"), "{e}");
        // A dead board takes no part; with every board dead the player to
        // move has won.
        let a = adapter
            .analyze_text("XXX...... XXX......", Convention::Misere, Limits::default())
            .unwrap();
        assert_eq!(a.outcome, Outcome::N);
        assert!(a.winning_moves.is_empty());
        // 4×4: searched, and the search agrees with itself under symmetry.
        let four = Notakto::new(4);
        let adapter = Adapter::new(crate::GameSpec::Notakto { side: 4 }, four.clone());
        let a = adapter
            .analyze_text("XX../..X./..../....", Convention::Misere, Limits::default())
            .unwrap();
        assert!(matches!(a.method, crate::Method::Search { .. }));
        assert!(
            a.explanation.contains("no quotient for 4×4"),
            "{}",
            a.explanation
        );
        let mut search = OutcomeSearch::new(&four, Convention::Misere, Limits::default());
        let turned = four.parse_position("...X/...X/..X./....").unwrap();
        assert_eq!(search.outcome(&turned).unwrap(), a.outcome);
    }

    #[test]
    fn positions_moves_and_errors() {
        let game = Notakto::new(3);
        let p = game.parse_position("X...x.... 2 xx./.../..x").unwrap();
        assert_eq!(
            game.format_position(&p),
            "X../.X./... .../.../... .../.../... XX./.../..X"
        );
        assert_eq!(game.material(&p), 7 + 9 + 9 + 6);
        for (input, board, cell) in [("1 c3", 0, 8), ("2:b2", 1, 4), ("4 3", 3, 2), ("3a1", 2, 0)] {
            assert_eq!(
                game.parse_move(&p, input).unwrap(),
                Mark { board, cell },
                "{input}"
            );
        }
        let e = |t: &str| game.parse_move(&p, t).unwrap_err().problem;
        assert!(e("b2").contains("names no board"), "{}", e("b2"));
        assert!(e("5 b2").contains("no board 5"), "{}", e("5 b2"));
        assert!(e("1 a1").contains("already has an X"), "{}", e("1 a1"));
        assert!(e("1 d1").contains("not a cell"), "{}", e("1 d1"));
        assert!(e("1 2 3").contains("not a move"), "{}", e("1 2 3"));
        let dead = game.parse_position("XXX/.../... ...X.....").unwrap();
        assert!(
            game.parse_move(&dead, "1 b2")
                .unwrap_err()
                .problem
                .contains("dead")
        );
        // One live board: the cell alone names the move.
        let mv = game.parse_move(&dead, "c3").unwrap();
        assert_eq!(mv, Mark { board: 1, cell: 8 });
        let last = game.parse_position("XXX/.../... X.X/.../...").unwrap();
        let mv = game.parse_move(&last, "2 b1").unwrap();
        assert!(game.describe_move(&last, &mv).contains("this move loses"));
        let screen = game.render(&dead);
        assert!(screen.contains("board 1 (dead)"), "{screen}");
        assert!(
            screen.contains("position: XXX/.../... .../X../..."),
            "{screen}"
        );
        let bad = |t: &str| game.parse_position(t).unwrap_err().to_string();
        assert!(bad("XX").contains("'XX' has 2 cells"), "{}", bad("XX"));
        assert!(bad("XO.......").contains("'O' in 'XO.......' is not a cell"));
        assert!(bad("X../..").contains("give 3 rows of 3 cells"));
        assert!(bad("0").contains("from 1 to 64"));
        assert!(bad("65").contains("from 1 to 64"));
        assert!(bad("").contains("no boards"));
        assert!(bad("XX").contains("a number k stands for k empty boards"));
    }
}
