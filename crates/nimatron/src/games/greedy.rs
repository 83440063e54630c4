//! Greedy Nim: remove any positive number of objects, but only from a
//! largest heap.
//!
//! Normal play (Wikipedia's theorem): with `m` the largest size and `p_m`
//! the number of heaps of that size, the player to move loses exactly when
//! `p_m` is even. Misère play (found by exhaustive search, then proved in
//! `docs/games.md`): the player to move loses exactly when `p_m` is even
//! and `m ≥ 2`, or `m = 1` and `p_m` is odd.

use std::fmt::Write as _;

use crate::explain::describe_move;
use crate::games::heaps;
use crate::heap_notation;
use crate::heap_notation::heap_name;
use crate::nim::HeapMove;
use crate::{Convention, Outcome, Rules};
use crate::{Description, MoveError, Notation, PositionError, PositionValue, Theory, Verdict};

/// Greedy Nim.
#[derive(Clone, Copy, Debug, Default)]
pub struct Greedy;

const POSITION_SYNTAX: &str = "heap sizes separated by spaces or commas, e.g. '5 5 3'";

/// The most winning moves a verdict lists one by one; beyond it, each
/// range of winning takes is represented by its ends (the explanation
/// says so and gives the full count).
pub const MAX_LISTED_MOVES: u64 = 10_000;

/// The numbers the theory looks at.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shape {
    /// The largest heap size `m` (0 when every heap is empty).
    pub largest: u64,
    /// `p_m`: how many heaps have the largest size.
    pub largest_count: usize,
    /// The second largest size `n` (0 when there is none).
    pub second: u64,
    /// `p_n`: how many heaps have size `n` (0 when `n` is 0).
    pub second_count: usize,
}

/// `m`, `p_m`, `n`, `p_n` of a position.
pub fn shape(heaps: &[u64]) -> Shape {
    let largest = heaps.iter().copied().max().unwrap_or(0);
    let second = heaps
        .iter()
        .copied()
        .filter(|&h| h < largest)
        .max()
        .unwrap_or(0);
    let count = |v: u64| {
        if v == 0 {
            0
        } else {
            heaps.iter().filter(|&&h| h == v).count()
        }
    };
    Shape {
        largest,
        largest_count: count(largest),
        second,
        second_count: count(second),
    }
}

/// Whether a position whose largest heap is `largest`, held by `count`
/// heaps, is a P-position.
pub fn is_p(largest: u64, count: usize, convention: Convention) -> bool {
    match convention {
        Convention::Normal => count.is_multiple_of(2),
        Convention::Misere => match largest {
            0 => false,
            1 => count % 2 == 1,
            _ => count.is_multiple_of(2),
        },
    }
}

/// The outcome of a position.
pub fn outcome(heaps: &[u64], convention: Convention) -> Outcome {
    let s = shape(heaps);
    Outcome::from_to_move_wins(!is_p(s.largest, s.largest_count, convention))
}

/// The winning moves as ranges of takes from one heap: `(heap, first take,
/// last take)`. A move from a largest heap reduces it to some v < m; the
/// result's largest size and count depend only on whether v is above, at
/// or below the second largest size n, so each class is a range.
pub fn winning_ranges(heaps: &[u64], convention: Convention) -> Vec<(usize, u64, u64)> {
    let s = shape(heaps);
    let (m, n) = (s.largest, s.second);
    if m == 0 {
        return Vec::new();
    }
    let largest_heaps = heaps.iter().enumerate().filter(|&(_, &h)| h == m);
    if s.largest_count >= 2 {
        // Any move leaves m with p_m − 1 copies.
        if is_p(m, s.largest_count - 1, convention) {
            return largest_heaps.map(|(i, _)| (i, 1, m)).collect();
        }
        return Vec::new();
    }
    let heap = heaps.iter().position(|&h| h == m).expect("a largest heap");
    // Reduce heap to v; collect the winning v as ranges [lo, hi].
    let mut values: Vec<(u64, u64)> = Vec::new();
    // v < n: the largest is n, held by p_n heaps.
    if n > 0 && is_p(n, s.second_count, convention) {
        values.push((0, n - 1));
    }
    // v = n.
    let at_n = if n == 0 {
        is_p(0, 0, convention)
    } else {
        is_p(n, s.second_count + 1, convention)
    };
    if at_n {
        values.push((n, n));
    }
    // n < v < m: v is the unique largest; only v = 1 can be P (misère).
    for v in [1] {
        if n < v && v < m && is_p(v, 1, convention) {
            values.push((v, v));
        }
    }
    values
        .into_iter()
        .map(|(lo, hi)| (heap, m - hi, m - lo))
        .collect()
}

/// The winning moves, listed one by one when there are at most
/// [`MAX_LISTED_MOVES`]; otherwise each range's first and last take.
/// Returns the moves and the full count.
pub fn winning_moves(heaps: &[u64], convention: Convention) -> (Vec<HeapMove>, u128) {
    let ranges = winning_ranges(heaps, convention);
    let total: u128 = ranges
        .iter()
        .map(|&(_, lo, hi)| (hi - lo) as u128 + 1)
        .sum();
    let mut moves = Vec::new();
    for (heap, lo, hi) in ranges {
        if total <= MAX_LISTED_MOVES as u128 {
            moves.extend((lo..=hi).map(|take| HeapMove { heap, take }));
        } else {
            moves.push(HeapMove { heap, take: lo });
            if hi != lo {
                moves.push(HeapMove { heap, take: hi });
            }
        }
    }
    moves.sort_unstable();
    (moves, total)
}

fn plural(n: usize, word: &str) -> String {
    if n == 1 {
        format!("1 {word}")
    } else {
        format!("{n} {word}s")
    }
}

fn explain(heaps: &[u64], convention: Convention, total: u128) -> String {
    let s = shape(heaps);
    let mut out = String::new();
    let (m, pm) = (s.largest, s.largest_count);
    if m == 0 {
        let _ = writeln!(
            out,
            "No objects are left: {}",
            match convention {
                Convention::Normal =>
                    "the previous player took the last one and won; the player to move has lost.",
                Convention::Misere =>
                    "in misère play the previous player took the last one and lost; the player to move has won.",
            }
        );
        return out;
    }
    let _ = writeln!(
        out,
        "The largest heap holds m = {m}, and p_m = {pm} heap{} hold{} that many.",
        if pm == 1 { "" } else { "s" },
        if pm == 1 { "s" } else { "" }
    );
    match convention {
        Convention::Normal => {
            let _ = writeln!(
                out,
                "Greedy Nim's theorem: the player to move loses exactly when p_m is even. A move from an even number of largest heaps leaves an odd number (or a new, single largest heap), while from an odd number there is always a move back to even."
            );
        }
        Convention::Misere => {
            let _ = writeln!(
                out,
                "Misère Greedy Nim: the player to move loses exactly when p_m is even and m ≥ 2, or when m = 1 and p_m is odd (only 1-heaps left: they go one at a time, and whoever takes the last loses). Found by exhaustive search, and proved in docs/games.md."
            );
        }
    }
    if is_p(m, pm, convention) {
        let _ = writeln!(
            out,
            "So the player to move loses against perfect play: every move leaves the opponent a winning position."
        );
        return out;
    }
    let _ = writeln!(out, "So the player to move wins.");
    if pm >= 2 {
        let _ = writeln!(
            out,
            "There are {pm} largest heaps: any take from any of them leaves {} of size {m}, a losing position for the opponent. That is {total} winning moves.",
            plural(pm - 1, "heap"),
        );
        return out;
    }
    let heap = heaps.iter().position(|&h| h == m).unwrap_or(0);
    let (n, pn) = (s.second, s.second_count);
    if n == 0 {
        let _ = writeln!(out, "Heap {} is the only non-empty heap.", heap_name(heap));
    } else {
        let _ = writeln!(
            out,
            "Heap {} is the only largest heap; the next size is n = {n}, held by p_n = {pn} heap{}.",
            heap_name(heap),
            if pn == 1 { "" } else { "s" }
        );
    }
    for (_, lo, hi) in winning_ranges(heaps, convention) {
        let (v_hi, v_lo) = (m - lo, m - hi);
        let result = if v_hi == v_lo {
            format!("to {v_lo}")
        } else {
            format!("to any size from {v_lo} to {v_hi}")
        };
        let why = if n > 0 && v_hi < n {
            format!(
                "the largest heaps are then the {} of size {n}",
                plural(pn, "heap")
            )
        } else if n > 0 && v_lo == n {
            format!(
                "it joins the {} of size {n}, making {} of them",
                plural(pn, "heap"),
                pn + 1
            )
        } else if v_lo == 0 {
            "no object is left for the opponent".to_string()
        } else {
            format!("only a heap of {v_lo} is left, and the opponent must take it")
        };
        let _ = writeln!(
            out,
            "Reduce heap {} {result} (take {}): {why}.",
            heap_name(heap),
            if lo == hi {
                lo.to_string()
            } else {
                format!("{lo} to {hi}")
            }
        );
    }
    if total > MAX_LISTED_MOVES as u128 {
        let _ = writeln!(
            out,
            "That is {total} winning moves; only the first and last take of each range are listed."
        );
    }
    out
}

impl Rules for Greedy {
    type Position = Vec<u64>;
    type Move = HeapMove;

    fn moves(&self, heaps: &Vec<u64>) -> Vec<HeapMove> {
        let m = heaps.iter().copied().max().unwrap_or(0);
        (0..heaps.len())
            .filter(|&i| heaps[i] == m)
            .flat_map(|heap| (1..=m).map(move |take| HeapMove { heap, take }))
            .collect()
    }

    fn apply(&self, heaps: &Vec<u64>, mv: &HeapMove) -> Vec<u64> {
        mv.apply(heaps)
    }
    /// Checked directly: from a largest heap, 1 to all of it.
    fn is_legal(&self, heaps: &Vec<u64>, mv: &HeapMove) -> bool {
        let m = heaps.iter().copied().max().unwrap_or(0);
        heaps.get(mv.heap) == Some(&m) && (1..=m).contains(&mv.take)
    }

    /// Any non-empty heap can lose an object, so only the empty position
    /// is terminal (without listing every move of huge heaps).
    fn is_terminal(&self, heaps: &Vec<u64>) -> bool {
        heaps.iter().all(|&h| h == 0)
    }

    /// Empty heaps never matter, and order does not.
    fn canonical(&self, heaps: &Vec<u64>) -> Vec<u64> {
        heaps::canonical(heaps)
    }
}

impl Notation for Greedy {
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
        Some(vec![3, 5, 5, 7])
    }
    fn parse_move(&self, heaps: &Vec<u64>, input: &str) -> Result<HeapMove, MoveError> {
        let (heap, take) = heap_notation::parse_heap_and_count(input, heaps)?;
        let m = heaps.iter().copied().max().unwrap_or(0);
        if heaps[heap] < m {
            let largest: Vec<String> = (0..heaps.len())
                .filter(|&i| heaps[i] == m)
                .map(heap_name)
                .collect();
            return Err(MoveError::new(format!(
                "heap {} holds {} but the largest heap holds {m}: Greedy Nim takes only from a largest heap ({})",
                heap_name(heap),
                heaps[heap],
                largest.join(" or ")
            )));
        }
        Ok(HeapMove { heap, take })
    }
    fn format_move(&self, _heaps: &Vec<u64>, mv: &HeapMove) -> String {
        format!("{} {}", heap_name(mv.heap), mv.take)
    }
    fn describe_move(&self, heaps: &Vec<u64>, mv: &HeapMove) -> String {
        describe_move(mv, heaps)
    }
    fn heap_move(&self, _heaps: &Vec<u64>, mv: &HeapMove) -> Option<(usize, u64)> {
        Some((mv.heap, mv.take))
    }
    fn render(&self, heaps: &Vec<u64>) -> String {
        heap_notation::render_heaps(heaps)
    }
    fn material(&self, heaps: &Vec<u64>) -> u64 {
        heaps::total(heaps)
    }
    fn candidate_moves(&self, heaps: &Vec<u64>) -> Vec<HeapMove> {
        let m = heaps.iter().copied().max().unwrap_or(0);
        if m <= 200 {
            return self.moves(heaps);
        }
        // Every largest heap plays the same: consider the first.
        let heap = heaps.iter().position(|&h| h == m).unwrap_or(0);
        let mut moves: Vec<HeapMove> = heaps::representative_takes(m)
            .into_iter()
            .map(|take| HeapMove { heap, take })
            .collect();
        for convention in [Convention::Normal, Convention::Misere] {
            moves.extend(winning_moves(heaps, convention).0);
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
            "'A 2' or 'take 2 from A' take 2 from heap A, which must be a largest heap; 'A all' empties it",
        )
    }
    /// Every move removes at least one object.
    fn moves_left_bound(&self, heaps: &Vec<u64>) -> Option<u64> {
        Some(heaps.iter().fold(0u64, |a, &h| a.saturating_add(h)))
    }
}

impl Theory for Greedy {
    fn description(&self) -> Description {
        Description {
            rules: "Heaps of objects; a move removes any positive number of objects from a largest heap (any of them when several tie). Normal play: whoever takes the last object wins. Misère play: whoever takes the last object loses.",
            example: "3 5 5 7",
            theory: "With m the largest size and p_m the number of heaps of that size: normal play is lost for the player to move exactly when p_m is even (Wikipedia's theorem); misère play exactly when p_m is even and m ≥ 2, or m = 1 and p_m is odd (found by search and proved). Every winning move is given: any take from a largest heap when p_m is odd and above 1; otherwise the single largest heap reduced to the second size n, or below it, whichever leaves a losing position. Checked against exhaustive search over every position of up to 4 heaps of up to 7, both conventions.",
            citation: "M. H. Albert and R. J. Nowakowski, \"Nim Restrictions\", Integers 4 (2004) G1.",
        }
    }

    fn closed_form(&self, heaps: &Vec<u64>, convention: Convention) -> Option<Verdict<HeapMove>> {
        let (moves, total) = winning_moves(heaps, convention);
        Some(Verdict {
            details: Default::default(),
            outcome: outcome(heaps, convention),
            grundy: None,
            winning_moves: moves,
            explanation: explain(heaps, convention, total),
            theorem: match convention {
                Convention::Normal => "Greedy Nim: p_m even is P",
                Convention::Misere => "misère Greedy Nim rule",
            }
            .to_string(),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::check::{all_tuples, closed_form_agrees_with_search};
    use crate::solve::{Limits, OutcomeSearch};

    #[test]
    fn closed_form_agrees_with_exhaustive_search() {
        let positions: Vec<Vec<u64>> = (1..=4).flat_map(|k| all_tuples(k, 7)).collect();
        let checked = closed_form_agrees_with_search(&Greedy, positions).unwrap();
        assert_eq!(checked, 2 * (8 + 64 + 512 + 4096));
    }

    /// The theorem of Wikipedia's *Nim*, stated as the article states it, against plain search:
    /// positions with p_m even are P, and from p_m odd Wikipedia's move
    /// (empty one largest heap when p_m > 1; else reduce it to n when p_n
    /// is odd, or remove it when p_n is even) reaches p_m even.
    #[test]
    fn seeds_theorem_and_their_constructive_move() {
        let mut search = OutcomeSearch::new(&Greedy, Convention::Normal, Limits::default());
        for heaps in (1..=5).flat_map(|k| all_tuples(k, 5)) {
            let s = shape(&heaps);
            let searched = search.outcome(&heaps).unwrap();
            assert_eq!(
                searched == Outcome::P,
                s.largest_count.is_multiple_of(2),
                "{heaps:?}"
            );
            if s.largest_count % 2 == 1 {
                let heap = heaps.iter().position(|&h| h == s.largest).unwrap();
                let take = if s.largest_count > 1 || s.second_count.is_multiple_of(2) {
                    s.largest
                } else {
                    s.largest - s.second
                };
                let mv = HeapMove { heap, take };
                assert_eq!(
                    search.outcome(&mv.apply(&heaps)).unwrap(),
                    Outcome::P,
                    "{heaps:?}"
                );
                assert!(winning_moves(&heaps, Convention::Normal).0.contains(&mv));
            }
        }
    }

    #[test]
    fn misere_rule_found_by_search() {
        let mut search = OutcomeSearch::new(&Greedy, Convention::Misere, Limits::default());
        for heaps in (1..=5).flat_map(|k| all_tuples(k, 5)) {
            let s = shape(&heaps);
            let rule = (s.largest >= 2 && s.largest_count.is_multiple_of(2))
                || (s.largest == 1 && s.largest_count % 2 == 1);
            assert_eq!(
                search.outcome(&heaps).unwrap() == Outcome::P,
                rule,
                "{heaps:?}"
            );
        }
    }

    #[test]
    fn huge_heaps_list_range_ends() {
        let heaps = vec![1 << 40, 1 << 40, 1 << 40];
        let (moves, total) = winning_moves(&heaps, Convention::Normal);
        assert_eq!(total, 3 << 40);
        assert_eq!(moves.len(), 6);
        // One largest heap, p_n = 2 even: reduce below n.
        let heaps = vec![u64::MAX, 1 << 50, 1 << 50];
        let (moves, total) = winning_moves(&heaps, Convention::Normal);
        assert_eq!(total, 1 << 50);
        assert_eq!(
            moves,
            [
                HeapMove {
                    heap: 0,
                    take: u64::MAX - (1 << 50) + 1
                },
                HeapMove {
                    heap: 0,
                    take: u64::MAX
                }
            ]
        );
    }

    #[test]
    fn only_a_largest_heap_may_be_reduced() {
        let heaps = vec![3, 5, 5];
        let err = Greedy.parse_move(&heaps, "A 1").unwrap_err().problem;
        assert!(err.contains("only from a largest heap (B or C)"), "{err}");
        assert_eq!(
            Greedy.parse_move(&heaps, "C 2"),
            Ok(HeapMove { heap: 2, take: 2 })
        );
    }
}
