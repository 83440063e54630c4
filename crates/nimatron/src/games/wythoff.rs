//! Wikipedia's "multiple-heap rule": take any number from one heap, or the
//! same number from every heap. With two heaps this is Wythoff's game.
//!
//! What Nimatron uses, each part checked against exhaustive search in both
//! conventions (see the tests at the end of this file):
//!
//! - **An empty heap** (or a single heap) rules the all-heaps move out for
//!   good, so the game is Nim on the other heaps: Bouton's theorem and the
//!   misère Nim rule apply exactly.
//! - **Two heaps**: Wythoff's P-positions `(⌊kφ⌋, ⌊kφ⌋ + k)`, computed with
//!   exact integer arithmetic for every `u64` size; in misère play the first
//!   two pairs `(0,0)`, `(1,2)` are replaced by `(0,1)`, `(2,2)`.
//! - **An odd number of heaps (three or more)**: the P-positions are Nim's,
//!   in both conventions (proved in `docs/games.md`, and checked by
//!   search).
//! - **An even number of heaps (four or more)**: no closed form; exhaustive
//!   search with a canonical form (sorted heaps) and a stated state limit.

use std::fmt::Write as _;

use crate::explain::{describe_move, explain_nim};
use crate::games::heaps;
use crate::heap_notation;
use crate::heap_notation::heap_name;
use crate::nim::{self, HeapMove};
use crate::solve::{Limits, SolveError};
use crate::{Convention, Nimber, Outcome, Rules};
use crate::{Description, MoveError, Notation, PositionError, PositionValue, Theory, Verdict};

/// The multiple-heap rule (Wythoff's game for two heaps).
#[derive(Clone, Copy, Debug, Default)]
pub struct Wythoff;

/// A move: from one heap, or the same number from every heap.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum WythoffMove {
    /// Take from one heap, as in Nim.
    Heap(HeapMove),
    /// Take `take` from every heap (each must hold at least that many).
    All {
        /// Objects taken from each heap.
        take: u64,
    },
}

const POSITION_SYNTAX: &str = "heap sizes separated by spaces or commas, e.g. '3 5'";

// ---------------------------------------------------------------------
// Exact golden-ratio arithmetic.

/// `⌊k·√5⌋`, exactly, for every `u64` k.
///
/// Write `k√5 = 2k + s + f` with `s` a whole number and `0 ≤ f < 1`; then
/// `s` is the largest whole number with `(2k + s)² ≤ 5k²`, that is with
/// `s·(4k + s) ≤ k²` — a comparison that fits in `u128` (a product that
/// overflows is certainly larger than `k² < 2^128`). Binary search on `s`.
pub fn floor_k_sqrt5(k: u64) -> u128 {
    let k = k as u128;
    let k2 = k * k;
    let fits = |s: u128| s.checked_mul(4 * k + s).is_some_and(|v| v <= k2);
    // √5 − 2 ≈ 0.236 < 1/4, so s ≤ k/4 < k/4 + 1.
    let (mut lo, mut hi) = (0u128, k / 4 + 1);
    while hi - lo > 1 {
        let mid = lo + (hi - lo) / 2;
        if fits(mid) {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    2 * k + lo
}

/// The lower Wythoff number `a_k = ⌊kφ⌋`, φ = (1 + √5)/2, exactly.
///
/// `⌊kφ⌋ = ⌊(k + k√5)/2⌋ = ⌊(k + ⌊k√5⌋)/2⌋`.
///
/// ```
/// use nimatron::games::{wythoff_lower, wythoff_upper};
/// assert_eq!((1..=6).map(wythoff_lower).collect::<Vec<_>>(), [1, 3, 4, 6, 8, 9]);
/// assert_eq!((1..=6).map(wythoff_upper).collect::<Vec<_>>(), [2, 5, 7, 10, 13, 15]);
/// ```
pub fn lower(k: u64) -> u128 {
    (k as u128 + floor_k_sqrt5(k)) / 2
}

/// The upper Wythoff number `b_k = ⌊kφ²⌋ = a_k + k`, exactly.
pub fn upper(k: u64) -> u128 {
    lower(k) + k as u128
}

/// Where `n` sits among Wythoff's pairs: `(k, is_lower)` with
/// `n = a_k` or `n = b_k`. By Beatty's theorem every positive whole number
/// is in exactly one of the two sequences (`0 = a_0 = b_0`).
pub fn wythoff_index(n: u64) -> (u64, bool) {
    if n == 0 {
        return (0, true);
    }
    // k0 = ⌊n/φ⌋ = ⌊(n√5 − n)/2⌋ = ⌊(⌊n√5⌋ − n)/2⌋.
    let k0 = ((floor_k_sqrt5(n) - n as u128) / 2) as u64;
    // n = a_k needs k = ⌈n/φ⌉ ∈ {k0, k0+1}; n = b_k needs k ∈ {n−k0−1, n−k0}.
    for k in [k0, k0 + 1] {
        if lower(k) == n as u128 {
            return (k, true);
        }
    }
    for k in [n - k0 - 1, n - k0] {
        if upper(k) == n as u128 {
            return (k, false);
        }
    }
    unreachable!("Beatty's theorem: {n} is a lower or an upper Wythoff number")
}

/// The other heap of the P-position that contains a heap of `n`, under
/// `convention`. In misère play the pairs `(0,1)` and `(2,2)` replace
/// `(0,0)` and `(1,2)`; every other pair is the same.
pub fn partner(n: u64, convention: Convention) -> u128 {
    if convention == Convention::Misere && n <= 2 {
        return [1, 0, 2][n as usize];
    }
    match wythoff_index(n) {
        (k, true) => upper(k),
        (k, false) => lower(k),
    }
}

/// The P-position whose heaps differ by `d`, smaller heap first.
pub fn pair_with_difference(d: u64, convention: Convention) -> (u128, u128) {
    match (convention, d) {
        (Convention::Misere, 0) => (2, 2),
        (Convention::Misere, 1) => (0, 1),
        _ => (lower(d), upper(d)),
    }
}

/// Whether two heaps `x`, `y` form a P-position of Wythoff's game.
pub fn is_p_pair(x: u64, y: u64, convention: Convention) -> bool {
    partner(x, convention) == y as u128
}

/// Every winning move from two heaps, by construction: each heap reduced to
/// the partner of the other, and the diagonal move to the pair with the
/// same difference. Each row, column and diagonal of the board holds
/// exactly one P-position, so these are all of them.
fn two_heap_winning_moves(h: [u64; 2], convention: Convention) -> Vec<WythoffMove> {
    let mut moves = Vec::new();
    for i in 0..2 {
        let p = partner(h[1 - i], convention);
        if p < h[i] as u128 {
            moves.push(WythoffMove::Heap(HeapMove {
                heap: i,
                take: h[i] - p as u64,
            }));
        }
    }
    let (lo, hi) = (h[0].min(h[1]), h[0].max(h[1]));
    let (a, _) = pair_with_difference(hi - lo, convention);
    if a < lo as u128 {
        moves.push(WythoffMove::All {
            take: lo - a as u64,
        });
    }
    moves
}

// ---------------------------------------------------------------------
// Three or more heaps.

/// The one `t` for which taking `t` from every heap of an odd number of
/// heaps leaves nim-sum 0, if `1 ≤ t ≤` the smallest heap.
///
/// Bit `j` of `t` is forced: subtracting `2^j` flips bit `j` of every heap
/// (and nothing below), so with an odd number of heaps it flips the parity
/// of column `j`; choose it so that column `j` of `h − t` XORs to 0.
pub fn diagonal_to_nim_sum_zero(heaps: &[u64]) -> Option<u64> {
    debug_assert!(heaps.len() % 2 == 1);
    let mut t: u64 = 0;
    for j in 0..64 {
        let column = heaps
            .iter()
            .fold(0u64, |acc, &h| acc ^ (h.wrapping_sub(t) >> j & 1));
        t |= column << j;
    }
    let smallest = heaps.iter().copied().min()?;
    let ok = t >= 1 && t <= smallest && heaps.iter().fold(0, |acc, &h| acc ^ (h - t)) == 0;
    ok.then_some(t)
}

/// How a position is decided.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Case {
    /// An empty heap or a single heap: plain Nim.
    Nim,
    /// Two non-empty heaps: Wythoff's pairs.
    Two,
    /// An odd number (≥ 3) of non-empty heaps: Nim's P-positions.
    Odd,
    /// An even number (≥ 4) of non-empty heaps: search.
    Even,
}

fn case(heaps: &[u64]) -> Case {
    if heaps.len() <= 1 || heaps.contains(&0) {
        Case::Nim
    } else if heaps.len() == 2 {
        Case::Two
    } else if heaps.len() % 2 == 1 {
        Case::Odd
    } else {
        Case::Even
    }
}

fn all_move_after(heaps: &[u64], take: u64) -> Vec<u64> {
    heaps.iter().map(|&h| h - take).collect()
}

impl Rules for Wythoff {
    type Position = Vec<u64>;
    type Move = WythoffMove;

    fn moves(&self, heaps: &Vec<u64>) -> Vec<WythoffMove> {
        let mut moves: Vec<WythoffMove> = (0..heaps.len())
            .flat_map(|heap| {
                (1..=heaps[heap]).map(move |take| WythoffMove::Heap(HeapMove { heap, take }))
            })
            .collect();
        // With one heap, taking from "every heap" is the same move as taking
        // from heap A, so it is listed once.
        if heaps.len() >= 2 {
            let smallest = heaps.iter().copied().min().unwrap_or(0);
            moves.extend((1..=smallest).map(|take| WythoffMove::All { take }));
        }
        moves
    }

    fn apply(&self, heaps: &Vec<u64>, mv: &WythoffMove) -> Vec<u64> {
        match mv {
            WythoffMove::Heap(m) => m.apply(heaps),
            WythoffMove::All { take } => all_move_after(heaps, *take),
        }
    }

    /// Any non-empty heap can lose an object, so only the empty position
    /// is terminal (without listing every move of huge heaps).
    fn is_terminal(&self, heaps: &Vec<u64>) -> bool {
        heaps.iter().all(|&h| h == 0)
    }

    /// Heap order does not matter. Once a heap is empty (or there is only
    /// one heap) the game is Nim on the non-empty heaps, so every such
    /// position is stored as `[0, sorted non-empty heaps…]`.
    fn canonical(&self, heaps: &Vec<u64>) -> Vec<u64> {
        let mut sorted: Vec<u64> = heaps.clone();
        sorted.sort_unstable();
        if sorted.len() <= 1 || sorted[0] == 0 {
            sorted.retain(|&h| h > 0);
            sorted.insert(0, 0);
        }
        sorted
    }
}

fn parse_all_move(input: &str) -> Option<Result<u64, String>> {
    let lower = input.trim().to_ascii_lowercase();
    let words: Vec<&str> = lower.split_whitespace().collect();
    let is_all = |w: &str| matches!(w, "all" | "every" | "each" | "both");
    let count = match words.as_slice() {
        [a, n] if is_all(a) => *n,
        [a, "heaps", n] if is_all(a) => *n,
        ["take" | "remove", n, "from", a] | [n, "from", a] if is_all(a) => *n,
        ["take" | "remove", n, "from", a, "heaps"] | [n, "from", a, "heaps"] if is_all(a) => *n,
        _ => return None,
    };
    Some(match count.parse::<u64>() {
        Ok(0) => Err("a move must take at least one object".to_string()),
        Ok(n) => Ok(n),
        Err(_) => Err(format!(
            "'{count}' is not a number of objects: 'all N' takes N from every heap"
        )),
    })
}

impl Notation for Wythoff {
    fn parse_position(&self, text: &str) -> Result<Vec<u64>, PositionError> {
        heap_notation::parse_heaps(text, POSITION_SYNTAX)
    }
    fn format_position(&self, heaps: &Vec<u64>) -> String {
        heap_notation::format_heaps(heaps)
    }
    fn position_value(&self, heaps: &Vec<u64>) -> PositionValue {
        PositionValue::Heaps(heaps.clone())
    }
    fn start_position(&self) -> Option<Vec<u64>> {
        Some(vec![5, 8])
    }
    fn parse_move(&self, heaps: &Vec<u64>, input: &str) -> Result<WythoffMove, MoveError> {
        if let Some(parsed) = parse_all_move(input) {
            let take = parsed.map_err(MoveError::new)?;
            if let Some(empty) = heaps.iter().position(|&h| h == 0) {
                return Err(MoveError::new(format!(
                    "heap {} is empty, so no move can take from every heap",
                    heap_name(empty)
                )));
            }
            let smallest = heaps.iter().copied().min().unwrap_or(0);
            if take > smallest {
                return Err(MoveError::new(format!(
                    "taking {take} from every heap needs every heap to hold at least {take}; the smallest holds {smallest}, so at most {smallest}"
                )));
            }
            if heaps.len() == 1 {
                return Ok(WythoffMove::Heap(HeapMove { heap: 0, take }));
            }
            return Ok(WythoffMove::All { take });
        }
        let (heap, take) = heap_notation::parse_heap_and_count(input, heaps)?;
        Ok(WythoffMove::Heap(HeapMove { heap, take }))
    }
    fn format_move(&self, _heaps: &Vec<u64>, mv: &WythoffMove) -> String {
        match mv {
            WythoffMove::Heap(m) => format!("{} {}", heap_name(m.heap), m.take),
            WythoffMove::All { take } => format!("all {take}"),
        }
    }
    fn describe_move(&self, heaps: &Vec<u64>, mv: &WythoffMove) -> String {
        match mv {
            WythoffMove::Heap(m) => describe_move(m, heaps),
            WythoffMove::All { take } => format!(
                "take {take} from every heap ({} → {})",
                heap_notation::format_heaps(heaps),
                heap_notation::format_heaps(&all_move_after(heaps, *take))
            ),
        }
    }
    fn heap_move(&self, _heaps: &Vec<u64>, mv: &WythoffMove) -> Option<(usize, u64)> {
        match mv {
            WythoffMove::Heap(m) => Some((m.heap, m.take)),
            WythoffMove::All { .. } => None,
        }
    }
    /// The all-heaps move has no single heap (`heap` null); its `take` is
    /// the number of objects it removes in all (heaps × the amount).
    fn heap_fields(&self, heaps: &Vec<u64>, mv: &WythoffMove) -> (Option<usize>, Option<u64>) {
        match mv {
            WythoffMove::Heap(m) => (Some(m.heap), Some(m.take)),
            WythoffMove::All { take } => (None, Some(take.saturating_mul(heaps.len() as u64))),
        }
    }
    fn render(&self, heaps: &Vec<u64>) -> String {
        heap_notation::render_heaps(heaps)
    }
    fn material(&self, heaps: &Vec<u64>) -> u64 {
        heaps::total(heaps)
    }
    fn candidate_moves(&self, heaps: &Vec<u64>) -> Vec<WythoffMove> {
        if heaps::total(heaps) <= 2000 {
            return self.moves(heaps);
        }
        let mut moves: Vec<WythoffMove> = (0..heaps.len())
            .flat_map(|heap| {
                heaps::representative_takes(heaps[heap])
                    .into_iter()
                    .map(move |take| WythoffMove::Heap(HeapMove { heap, take }))
            })
            .collect();
        if heaps.len() >= 2 {
            let smallest = heaps.iter().copied().min().unwrap_or(0);
            if smallest > 0 {
                moves.extend(
                    heaps::representative_takes(smallest)
                        .into_iter()
                        .map(|take| WythoffMove::All { take }),
                );
            }
        }
        for convention in [Convention::Normal, Convention::Misere] {
            if let Some(v) = self.closed_form(heaps, convention) {
                moves.extend(v.winning_moves);
            }
        }
        moves.sort_unstable();
        moves.dedup();
        moves
    }
    fn position_syntax(&self) -> &'static str {
        POSITION_SYNTAX
    }
    fn move_syntax(&self) -> String {
        String::from(
            "'A 2' or 'take 2 from A' take 2 from heap A; 'all 2' or 'take 2 from all' take 2 from every heap",
        )
    }
    fn board(&self, heaps: &Vec<u64>) -> crate::Board {
        crate::Board::Heaps {
            heaps: heaps.clone(),
            labels: crate::geometry::heap_labels(heaps.len()),
            rows_split: false,
            all_heaps_move: true,
            supply: None,
        }
    }
    /// One heap's end, or the same run from the end of every heap.
    fn touches(&self, heaps: &Vec<u64>, mv: &WythoffMove) -> Vec<crate::Element> {
        match mv {
            WythoffMove::Heap(m) => vec![crate::geometry::take_from_end(
                m.heap,
                heaps.get(m.heap).copied().unwrap_or(0),
                m.take,
            )],
            WythoffMove::All { take } => std::iter::once(crate::Element::AllHeaps)
                .chain(
                    heaps
                        .iter()
                        .enumerate()
                        .map(|(i, &h)| crate::geometry::take_from_end(i, h, *take)),
                )
                .collect(),
        }
    }
    fn moves_left_bound(&self, heaps: &Vec<u64>) -> Option<u64> {
        Some(heaps.iter().fold(0u64, |a, &h| a.saturating_add(h)))
    }
}

fn pair_list(convention: Convention) -> String {
    let first: Vec<String> = match convention {
        Convention::Normal => (0..6)
            .map(|k| format!("({}, {})", lower(k), upper(k)))
            .collect(),
        Convention::Misere => ["(0, 1)".to_string(), "(2, 2)".to_string()]
            .into_iter()
            .chain((2..6).map(|k| format!("({}, {})", lower(k), upper(k))))
            .collect(),
    };
    format!("{}, …", first.join(", "))
}

fn explain_two(h: [u64; 2], convention: Convention, winning: &[WythoffMove]) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "Two heaps: this is Wythoff's game. Its P-positions are the pairs (⌊kφ⌋, ⌊kφ⌋ + k), k = 0, 1, 2, …, with φ = (1 + √5)/2 the golden ratio: {}.",
        pair_list(Convention::Normal)
    );
    let _ = writeln!(
        out,
        "Every size is in exactly one pair, and the k-th pair's heaps differ by k, so a P-position cannot move to another: a one-heap move breaks the pair, and the all-heaps move keeps the difference k but leaves the one pair with that difference."
    );
    if convention == Convention::Misere {
        let _ = writeln!(
            out,
            "Misère play changes only the start of the list: (0, 1) and (2, 2) replace (0, 0) and (1, 2), giving {} (found and checked by exhaustive search).",
            pair_list(Convention::Misere)
        );
    }
    let (x, y) = (h[0], h[1]);
    let px = partner(x, convention);
    if px == y as u128 {
        let (lo, hi) = (x.min(y), x.max(y));
        let _ = writeln!(
            out,
            "{lo} and {hi} form a P-pair: the player to move loses against perfect play."
        );
        return out;
    }
    let _ = writeln!(
        out,
        "{x} and {y} are not a P-pair (the partner of {x} is {px}), so the player to move wins:"
    );
    for mv in winning {
        match mv {
            WythoffMove::Heap(m) => {
                let other = h[1 - m.heap];
                let _ = writeln!(
                    out,
                    "  heap {} = {other} belongs to the pair ({}, {}): reduce heap {} from {} to {}.",
                    heap_name(1 - m.heap),
                    other.min(h[m.heap] - m.take),
                    other.max(h[m.heap] - m.take),
                    heap_name(m.heap),
                    h[m.heap],
                    h[m.heap] - m.take
                );
            }
            WythoffMove::All { take } => {
                let d = x.abs_diff(y);
                let _ = writeln!(
                    out,
                    "  the heaps differ by {d}, and the pair with difference {d} is ({}, {}): take {take} from both heaps.",
                    x.min(y) - take,
                    x.max(y) - take
                );
            }
        }
    }
    out
}

/// The most heap sizes one search expansion may copy (about 80 MB).
pub const MAX_EXPANSION_WORDS: u128 = 10_000_000;

impl Theory for Wythoff {
    fn description(&self) -> Description {
        Description {
            rules: "Heaps of objects; a move takes any positive number of objects from one heap, or the same positive number from every heap (only when every heap holds at least that many). Normal play: whoever takes the last object wins. Misère play: whoever takes the last object loses.",
            example: "3 5",
            theory: "Two heaps (Wythoff's game): the P-positions are (⌊kφ⌋, ⌊kφ⌋ + k), computed exactly with integer square roots for any u64 heap, and every winning move is constructed (a heap to its partner, or both heaps down to the pair with the same difference); misère play swaps (0,0), (1,2) for (0,1), (2,2), found by search. An empty heap, or a single heap, makes it plain Nim. Three, five, … heaps: the P-positions are Nim's (nim-sum 0) in normal play — taking t from every heap flips the lowest set bit of t in an odd number of heaps — and misère Nim's in misère play (proof in docs/games.md); the winning moves are Nim's plus at most one all-heaps move. Four, six, … heaps: exhaustive search (sorted heaps, stated state limit); there the P-positions are not Nim's. Every closed form is checked against search over all small positions in both conventions.",
            citation: "W. A. Wythoff, \"A modification of the game of Nim\", Nieuw Archief voor Wiskunde 7 (1907) 199-202. S. Beatty, Problem 3173, American Mathematical Monthly 33 (1926) 159.",
        }
    }

    /// Even numbers of heaps (four or more) are searched: refuse positions
    /// whose first expansion alone would exceed the state limit or copy more
    /// than [`MAX_EXPANSION_WORDS`] heap sizes.
    ///
    /// whose first move alone would exceed the search's state limit.
    fn closed_form_within(
        &self,
        heaps: &Vec<u64>,
        convention: Convention,
        limits: Limits,
    ) -> Result<Option<Verdict<WythoffMove>>, SolveError> {
        if let Some(verdict) = self.closed_form(heaps, convention) {
            return Ok(Some(verdict));
        }
        let moves: u128 = heaps.iter().map(|&h| h as u128).sum::<u128>()
            + heaps.iter().copied().min().unwrap_or(0) as u128;
        // One expansion copies every option: moves × heaps numbers.
        if moves > limits.max_states as u128 || moves * heaps.len() as u128 > MAX_EXPANSION_WORDS {
            return Err(SolveError::TooLarge {
                reason: format!(
                    "with {} heaps Wythoff's game has no closed form and is searched, but this position alone has {moves} moves: too many to search (limits: {} positions, {MAX_EXPANSION_WORDS} heap sizes per expansion); try fewer or smaller heaps",
                    heaps.len(),
                    limits.max_states
                ),
            });
        }
        Ok(None)
    }

    fn closed_form(
        &self,
        heaps: &Vec<u64>,
        convention: Convention,
    ) -> Option<Verdict<WythoffMove>> {
        match case(heaps) {
            Case::Nim => {
                let a = nim::analyze(heaps, convention);
                let mut explanation = String::new();
                if heaps.len() >= 2 {
                    let empty = heaps.iter().position(|&h| h == 0).unwrap_or(0);
                    let _ = writeln!(
                        explanation,
                        "Heap {} is empty, so no move can take from every heap again: the rest of the game is plain Nim.",
                        heap_name(empty)
                    );
                } else {
                    let _ = writeln!(
                        explanation,
                        "One heap: taking from every heap is taking from this heap, so this is plain Nim."
                    );
                }
                explanation.push_str(&explain_nim(heaps, &a));
                Some(Verdict {
                    details: Default::default(),
                    outcome: a.outcome,
                    grundy: (convention == Convention::Normal).then_some(a.nim_sum),
                    winning_moves: a.winning_moves(heaps).map(WythoffMove::Heap).collect(),
                    explanation,
                    theorem: "Nim (no all-heaps move is possible)".to_string(),
                })
            }
            Case::Two => {
                let h = [heaps[0], heaps[1]];
                let winning = two_heap_winning_moves(h, convention);
                let outcome = Outcome::from_to_move_wins(!is_p_pair(h[0], h[1], convention));
                Some(Verdict {
                    details: Default::default(),
                    outcome,
                    grundy: None,
                    explanation: explain_two(h, convention, &winning),
                    winning_moves: winning,
                    theorem: match convention {
                        Convention::Normal => "Wythoff's pairs (⌊kφ⌋, ⌊kφ⌋ + k)",
                        Convention::Misere => "misère Wythoff pairs",
                    }
                    .to_string(),
                })
            }
            Case::Odd => {
                let a = nim::analyze(heaps, convention);
                let mut winning: Vec<WythoffMove> =
                    a.winning_moves(heaps).map(WythoffMove::Heap).collect();
                let mut takes: Vec<u64> = Vec::new();
                if a.outcome == Outcome::N {
                    takes.extend(diagonal_to_nim_sum_zero(heaps));
                    if convention == Convention::Misere {
                        // Results with every heap 0 or 1.
                        let (smallest, largest) = (
                            heaps.iter().copied().min().unwrap_or(0),
                            heaps.iter().copied().max().unwrap_or(0),
                        );
                        for t in [largest.saturating_sub(1), largest] {
                            if t >= 1 && t <= smallest {
                                takes.push(t);
                            }
                        }
                    }
                    takes.sort_unstable();
                    takes.dedup();
                    takes.retain(|&t| {
                        nim::outcome(&all_move_after(heaps, t), convention) == Outcome::P
                    });
                }
                winning.extend(takes.iter().map(|&take| WythoffMove::All { take }));
                let mut explanation = format!(
                    "{} heaps, an odd number, none empty: the P-positions are exactly Nim's{}. Taking t from every heap flips, in every heap, the bit of t's lowest 1 (the bits below it are untouched); with an odd number of heaps that column's parity changes, so a position with nim-sum 0 cannot move to another, and Bouton's one-heap move still reaches nim-sum 0 from any other.\n",
                    heaps.len(),
                    match convention {
                        Convention::Normal => "",
                        Convention::Misere =>
                            " — in misère play, misère Nim's (proved in docs/games.md, and checked by exhaustive search)",
                    }
                );
                explanation.push_str(&explain_nim(heaps, &a));
                for t in &takes {
                    let _ = writeln!(
                        explanation,
                        "The all-heaps move also wins: take {t} from every heap ({} → {}).",
                        heap_notation::format_heaps(heaps),
                        heap_notation::format_heaps(&all_move_after(heaps, *t))
                    );
                }
                Some(Verdict {
                    details: Default::default(),
                    outcome: a.outcome,
                    grundy: None,
                    winning_moves: winning,
                    explanation,
                    theorem: match convention {
                        Convention::Normal => "odd number of heaps: Nim's P-positions",
                        Convention::Misere => "odd number of heaps: misère Nim's P-positions",
                    }
                    .to_string(),
                })
            }
            Case::Even => None,
        }
    }

    fn explain_solved(
        &self,
        heaps: &Vec<u64>,
        convention: Convention,
        outcome: Outcome,
        grundy: Option<Nimber>,
    ) -> String {
        let verdict = match outcome {
            Outcome::N => "the player to move wins",
            Outcome::P => "the player to move loses against perfect play",
        };
        let value = match grundy {
            Some(g) => format!(" (Sprague–Grundy value {g})"),
            None => String::new(),
        };
        let nim_says = nim::outcome(heaps, convention);
        format!(
            "{} heaps, an even number, none empty: no closed form is known here, so Nimatron searched every line of play{value}: {verdict}. (With an even number of heaps the all-heaps move can keep a nim-sum of 0, so Nim's rule does not apply{}.)\n",
            heaps.len(),
            if nim_says == outcome {
                ""
            } else {
                "; here Nim's rule would give the wrong answer"
            }
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::check::{all_tuples, closed_form_agrees_with_search};
    use crate::solve::{Limits, OutcomeSearch};

    /// Wythoff's pairs by their definition (each new pair takes the smallest
    /// unused size, with difference one more than the last): an
    /// independent construction to test the golden-ratio formula against.
    fn pairs_by_mex(count: usize) -> Vec<(u64, u64)> {
        let mut used = std::collections::HashSet::new();
        let mut pairs = Vec::new();
        let mut a = 0u64;
        for k in 0..count as u64 {
            while used.contains(&a) {
                a += 1;
            }
            pairs.push((a, a + k));
            used.insert(a);
            used.insert(a + k);
        }
        pairs
    }

    #[test]
    fn golden_ratio_pairs_match_the_construction() {
        for (k, (a, b)) in pairs_by_mex(20_000).into_iter().enumerate() {
            assert_eq!(lower(k as u64), a as u128, "a_{k}");
            assert_eq!(upper(k as u64), b as u128, "b_{k}");
            assert_eq!(partner(a, Convention::Normal), b as u128);
            assert_eq!(partner(b, Convention::Normal), a as u128);
        }
        // OEIS A000201 (lower Wythoff sequence) from a_1, and A001950.
        let a: Vec<u128> = (1..=15).map(lower).collect();
        assert_eq!(a, [1, 3, 4, 6, 8, 9, 11, 12, 14, 16, 17, 19, 21, 22, 24]);
        let b: Vec<u128> = (1..=10).map(upper).collect();
        assert_eq!(b, [2, 5, 7, 10, 13, 15, 18, 20, 23, 26]);
    }

    #[test]
    fn exact_arithmetic_holds_for_huge_heaps() {
        // ⌊k√5⌋ is the integer square root of 5k²: check (r)² ≤ 5k² < (r+1)²
        // with exact 256-bit-free reasoning: compare via r² − 4k² ≤ k².
        for k in [
            1u64,
            u64::MAX,
            u64::MAX - 1,
            1 << 63,
            (1 << 62) + 12345,
            8_250_000_000_000_000_000,
        ] {
            let r = floor_k_sqrt5(k);
            let (k, two_k) = (k as u128, 2 * k as u128);
            let s = r - two_k;
            assert!(s * (4 * k + s) <= k * k, "{k}");
            let s1 = s + 1;
            assert!(s1.checked_mul(4 * k + s1).is_none_or(|v| v > k * k), "{k}");
        }
        // Beatty: consecutive lower numbers differ by 1 or 2, upper by 2 or
        // 3, and every size near the top of u64 has exactly one partner
        // that points back.
        for n in (u64::MAX - 2000)..=u64::MAX {
            let (k, is_lower) = wythoff_index(n);
            let p = partner(n, Convention::Normal);
            if is_lower {
                assert_eq!(p, n as u128 + k as u128);
                assert!(lower(k + 1) - lower(k) <= 2 && lower(k + 1) > lower(k));
            } else {
                assert_eq!(p + k as u128, n as u128);
                if let Ok(p) = u64::try_from(p) {
                    assert_eq!(partner(p, Convention::Normal), n as u128);
                }
            }
        }
    }

    #[test]
    fn misere_two_heap_pairs_found_by_search() {
        let mut search = OutcomeSearch::new(&Wythoff, Convention::Misere, Limits::default());
        let mut p_positions = Vec::new();
        for x in 0..=12u64 {
            for y in x..=20u64 {
                if search.outcome(&vec![x, y]).unwrap() == Outcome::P {
                    p_positions.push((x, y));
                }
            }
        }
        assert_eq!(
            p_positions,
            [
                (0, 1),
                (2, 2),
                (3, 5),
                (4, 7),
                (6, 10),
                (8, 13),
                (9, 15),
                (11, 18),
                (12, 20)
            ]
        );
    }

    #[test]
    fn closed_forms_agree_with_search() {
        let mut positions: Vec<Vec<u64>> = all_tuples(1, 12);
        positions.extend(all_tuples(2, 12));
        positions.extend(all_tuples(3, 10));
        positions.extend(all_tuples(5, 5));
        positions.extend(all_tuples(7, 2));
        let checked = closed_form_agrees_with_search(&Wythoff, positions).unwrap();
        assert!(checked > 2 * (13 + 169 + 343), "{checked}");
    }

    #[test]
    fn four_heaps_are_not_nim() {
        // With an even number of heaps the all-heaps move can keep a
        // nim-sum of 0: 1 1 1 1 → take 1 from every heap → 0 0 0 0.
        let mut search = OutcomeSearch::new(&Wythoff, Convention::Normal, Limits::default());
        assert_eq!(search.outcome(&vec![1, 1, 1, 1]).unwrap(), Outcome::N);
        assert_eq!(search.outcome(&vec![1, 2, 4, 7]).unwrap(), Outcome::N);
        assert!(
            Wythoff
                .closed_form(&vec![1, 1, 1, 1], Convention::Normal)
                .is_none()
        );
        // Among four non-empty heaps of at most 6, search finds 16
        // P-positions (up to order), and not one of them has nim-sum 0.
        let mut p_positions = Vec::new();
        for p in all_tuples(4, 6) {
            if p.contains(&0) || !p.is_sorted() {
                continue;
            }
            if search.outcome(&p).unwrap() == Outcome::P {
                p_positions.push(p);
            }
        }
        assert_eq!(p_positions.len(), 16, "{p_positions:?}");
        assert!(p_positions.contains(&vec![1, 1, 1, 2]));
        assert!(
            p_positions
                .iter()
                .all(|p| p.iter().fold(0, |a, h| a ^ h) != 0)
        );
    }

    #[test]
    fn huge_two_heap_positions_are_instant() {
        let k = 5_000_000_000_000_000_000u64;
        let (a, b) = (lower(k) as u64, upper(k) as u64);
        let v = Wythoff
            .closed_form(&vec![a, b], Convention::Normal)
            .unwrap();
        assert_eq!(v.outcome, Outcome::P);
        let v = Wythoff
            .closed_form(&vec![a + 10, b + 10], Convention::Normal)
            .unwrap();
        assert!(v.winning_moves.contains(&WythoffMove::All { take: 10 }));
        let v = Wythoff
            .closed_form(&vec![a, u64::MAX], Convention::Misere)
            .unwrap();
        assert!(v.winning_moves.contains(&WythoffMove::Heap(HeapMove {
            heap: 1,
            take: u64::MAX - b
        })));
    }

    #[test]
    fn move_notation() {
        let h = vec![3, 5];
        assert_eq!(
            Wythoff.parse_move(&h, "all 2"),
            Ok(WythoffMove::All { take: 2 })
        );
        assert_eq!(
            Wythoff.parse_move(&h, "take 3 from all"),
            Ok(WythoffMove::All { take: 3 })
        );
        assert_eq!(
            Wythoff.parse_move(&h, "B 1"),
            Ok(WythoffMove::Heap(HeapMove { heap: 1, take: 1 }))
        );
        let err = Wythoff.parse_move(&h, "all 4").unwrap_err().problem;
        assert!(err.contains("at most 3"), "{err}");
        let err = Wythoff
            .parse_move(&vec![0, 5], "all 1")
            .unwrap_err()
            .problem;
        assert!(err.contains("heap A is empty"), "{err}");
        for mv in Wythoff.moves(&h) {
            let text = Wythoff.format_move(&h, &mv);
            assert_eq!(Wythoff.parse_move(&h, &text), Ok(mv), "{text}");
        }
    }
}
