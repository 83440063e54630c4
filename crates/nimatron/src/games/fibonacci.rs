//! Fibonacci Nim: one heap; the first move takes 1 to n − 1 objects, and
//! each later move takes at least 1 and at most twice the previous take.
//!
//! Normal play (Whinihan 1963): write the heap as a sum of non-consecutive
//! Fibonacci numbers (Zeckendorf); the player to move loses exactly when the
//! smallest term exceeds the largest take now allowed. Misère play reduces
//! to normal play on one object fewer (proved in `docs/games.md` and checked
//! by search).

use std::fmt::Write as _;

use crate::{Convention, Outcome, Rules};
use crate::{Description, MoveError, Notation, PositionError, Theory, Verdict};

/// Fibonacci Nim.
#[derive(Clone, Copy, Debug, Default)]
pub struct Fibonacci;

/// A heap and how much may be taken from it now.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct FibPosition {
    /// Objects left.
    pub heap: u64,
    /// The most the player to move may take (for a fresh heap, heap − 1).
    pub limit: u64,
    /// Whether no move has been made yet (written `20` rather than `20/19`).
    pub fresh: bool,
}

impl FibPosition {
    /// A fresh heap of `heap`: the first move takes 1 to heap − 1.
    pub fn fresh(heap: u64) -> FibPosition {
        FibPosition {
            heap,
            limit: heap.saturating_sub(1),
            fresh: true,
        }
    }

    /// A heap with a limit on the next take.
    pub fn with_limit(heap: u64, limit: u64) -> FibPosition {
        FibPosition {
            heap,
            limit,
            fresh: false,
        }
    }

    /// The most that can actually be taken now.
    pub fn max_take(&self) -> u64 {
        self.limit.min(self.heap)
    }
}

const POSITION_SYNTAX: &str = "a heap size N for a fresh heap (the first move takes 1 to N-1), or N/M: N objects, at most M (at least 1) may be taken now, e.g. '20' or '20/4'";

/// The Fibonacci numbers 1, 2, 3, 5, 8, … up to `u64::MAX`.
pub fn fibonacci_numbers() -> Vec<u64> {
    let mut fibs = vec![1u64, 2];
    while let Some(next) = fibs[fibs.len() - 1].checked_add(fibs[fibs.len() - 2]) {
        fibs.push(next);
    }
    fibs
}

/// The Zeckendorf representation of `n`: non-consecutive Fibonacci
/// numbers summing to `n`, largest first (empty for 0).
///
/// ```
/// use nimatron::games::fibonacci::zeckendorf;
/// assert_eq!(zeckendorf(20), [13, 5, 2]);
/// assert_eq!(zeckendorf(21), [21]);
/// ```
pub fn zeckendorf(mut n: u64) -> Vec<u64> {
    let mut terms = Vec::new();
    for &f in fibonacci_numbers().iter().rev() {
        if f <= n {
            terms.push(f);
            n -= f;
        }
    }
    terms
}

/// Every winning take under normal play, by the Zeckendorf criterion.
///
/// A take t wins when it leaves w = n − t with every Zeckendorf term of w
/// larger than 2t (or w = 0). Then t's terms are at most t < half of w's
/// smallest, so they are not adjacent to w's, and n's representation is
/// w's and t's together: t is a sum of the j smallest terms of n. So only
/// those sums s_j can win, and s_j wins exactly when it is allowed and
/// the next term exceeds 2·s_j (or s_j is the whole heap).
pub fn normal_winning_takes(heap: u64, max_take: u64) -> Vec<u64> {
    let mut terms = zeckendorf(heap);
    terms.reverse(); // smallest first
    let mut takes = Vec::new();
    let mut sum: u64 = 0;
    for j in 0..terms.len() {
        sum += terms[j];
        if sum > max_take {
            break;
        }
        let wins = match terms.get(j + 1) {
            None => true,
            Some(&next) => (next as u128) > 2 * sum as u128,
        };
        if wins {
            takes.push(sum);
        }
    }
    takes
}

/// Normal play: P exactly when the smallest Zeckendorf term exceeds the
/// largest take now allowed (a heap of 0: the previous player took the
/// last object).
pub fn normal_is_p(heap: u64, max_take: u64) -> bool {
    heap == 0 || zeckendorf(heap).last().is_some_and(|&z| z > max_take)
}

/// Outcome and winning takes in either convention.
pub fn solve(position: &FibPosition, convention: Convention) -> (Outcome, Vec<u64>) {
    let max = position.max_take();
    if max == 0 {
        return (convention.terminal_outcome(), Vec::new());
    }
    let (heap, max) = match convention {
        Convention::Normal => (position.heap, max),
        // Taking the last object loses, so nobody does unless forced: play
        // is normal play on one object fewer (see docs/games.md).
        Convention::Misere => (position.heap - 1, max.min(position.heap - 1)),
    };
    if normal_is_p(heap, max) {
        (Outcome::P, Vec::new())
    } else {
        (Outcome::N, normal_winning_takes(heap, max))
    }
}

fn sum_text(terms: &[u64]) -> String {
    let words: Vec<String> = terms.iter().map(u64::to_string).collect();
    words.join(" + ")
}

fn explain(position: &FibPosition, convention: Convention, takes: &[u64]) -> String {
    let mut out = String::new();
    let max = position.max_take();
    let n = position.heap;
    if max == 0 {
        let _ = writeln!(
            out,
            "No move is possible ({}). {}",
            if n == 0 {
                "the heap is empty".to_string()
            } else {
                "a fresh heap of 1: the first move may not take the whole heap".to_string()
            },
            match convention {
                Convention::Normal => "The player to move has lost.",
                Convention::Misere =>
                    "In misère play the player who cannot move wins: the player to move has won.",
            }
        );
        return out;
    }
    let (heap, limit) = match convention {
        Convention::Normal => (n, max),
        Convention::Misere => {
            let _ = writeln!(
                out,
                "Misère play: whoever takes the last object loses, so nobody takes it unless forced, and the game is normal Fibonacci Nim on {} object{} (leaving the last one for the opponent wins). This reduction is Nimatron's (not classical theory); it is proved in docs/games.md and checked by exhaustive search.",
                n - 1,
                if n == 2 { "" } else { "s" }
            );
            (n - 1, max.min(n - 1))
        }
    };
    if heap == 0 {
        let _ = writeln!(
            out,
            "One object is left and it must be taken: the player to move loses."
        );
        return out;
    }
    let terms = zeckendorf(heap);
    let smallest = *terms.last().unwrap_or(&0);
    let _ = writeln!(
        out,
        "Zeckendorf: {heap} = {} (Fibonacci numbers, no two consecutive). Its smallest term is {smallest}; at most {limit} may be taken now{}.",
        sum_text(&terms),
        if position.fresh {
            " (a fresh heap: anything but the whole heap)"
        } else {
            ""
        }
    );
    let _ = writeln!(
        out,
        "Whinihan's rule: the player to move loses exactly when the smallest Zeckendorf term is larger than the take allowed; taking the smallest term leaves a heap whose smallest term is more than twice it, which the opponent cannot match."
    );
    if takes.is_empty() {
        let _ = writeln!(
            out,
            "{smallest} > {limit}: the player to move loses against perfect play{}.",
            if position.fresh && convention == Convention::Normal {
                format!(" ({n} is a Fibonacci number)")
            } else {
                String::new()
            }
        );
        return out;
    }
    let _ = writeln!(
        out,
        "{smallest} ≤ {limit}: the player to move wins by taking {smallest}{}.",
        if takes.len() > 1 {
            let others: Vec<String> = takes[1..].iter().map(u64::to_string).collect();
            format!(
                "; the other winning takes, {}, are sums of the smallest terms that leave a heap whose smallest term exceeds twice the take",
                others.join(", ")
            )
        } else {
            String::new()
        }
    );
    out
}

impl Rules for Fibonacci {
    type Position = FibPosition;
    type Move = u64;

    fn moves(&self, p: &FibPosition) -> Vec<u64> {
        (1..=p.max_take()).collect()
    }

    fn apply(&self, p: &FibPosition, take: &u64) -> FibPosition {
        FibPosition::with_limit(p.heap - take, take.saturating_mul(2))
    }

    /// No move is left exactly when nothing may be taken.
    fn is_terminal(&self, p: &FibPosition) -> bool {
        p.max_take() == 0
    }

    /// A limit above the heap plays like the heap itself.
    fn canonical(&self, p: &FibPosition) -> FibPosition {
        FibPosition::with_limit(p.heap, p.max_take())
    }
}

fn parse_number(word: &str, what: &str) -> Result<u64, PositionError> {
    word.trim().parse::<u64>().map_err(|_| {
        PositionError::new(
            format!(
                "{what} '{}' is not a whole number from 0 to {}",
                word.trim(),
                u64::MAX
            ),
            POSITION_SYNTAX,
        )
    })
}

impl Notation for Fibonacci {
    fn parse_position(&self, text: &str) -> Result<FibPosition, PositionError> {
        let text = text.trim();
        if text.is_empty() {
            return Err(PositionError::new("no position given", POSITION_SYNTAX));
        }
        if text.split_whitespace().count() > 1 && !text.contains('/') {
            return Err(PositionError::new(
                format!("'{text}' has several heaps, but Fibonacci Nim has one"),
                POSITION_SYNTAX,
            ));
        }
        match text.split_once('/') {
            None => Ok(FibPosition::fresh(parse_number(text, "heap size")?)),
            Some((heap, limit)) => {
                let heap = parse_number(heap, "heap size")?;
                let limit = parse_number(limit, "limit")?;
                if limit == 0 {
                    return Err(PositionError::new(
                        format!("'{text}' allows no take: the limit must be at least 1"),
                        POSITION_SYNTAX,
                    ));
                }
                Ok(FibPosition::with_limit(heap, limit))
            }
        }
    }
    fn format_position(&self, p: &FibPosition) -> String {
        if p.fresh {
            p.heap.to_string()
        } else {
            format!("{}/{}", p.heap, p.limit)
        }
    }
    fn start_position(&self) -> Option<FibPosition> {
        Some(FibPosition::fresh(20))
    }
    fn parse_move(&self, p: &FibPosition, input: &str) -> Result<u64, MoveError> {
        let lower = input.trim().to_ascii_lowercase();
        let words: Vec<&str> = lower.split_whitespace().collect();
        let word = match words.as_slice() {
            [n] | ["take" | "remove", n] | ["a", n] | ["take" | "remove", n, "from", "a"] => *n,
            _ => {
                return Err(MoveError::new(format!(
                    "'{}' is not a move: type how many to take, e.g. 'take 3' or '3'",
                    input.trim()
                )));
            }
        };
        let take = if word == "all" {
            p.heap
        } else {
            word.parse::<u64>().map_err(|_| {
                MoveError::new(format!(
                    "'{word}' is not a number of objects: type how many to take, e.g. 'take 3'"
                ))
            })?
        };
        if take == 0 {
            return Err(MoveError::new("a move must take at least one object"));
        }
        if take > p.heap {
            return Err(MoveError::new(format!(
                "the heap has only {} object{}",
                p.heap,
                if p.heap == 1 { "" } else { "s" }
            )));
        }
        if take > p.limit {
            return Err(MoveError::new(if p.fresh {
                format!(
                    "the first move may take at most {} (any number but the whole heap); {take} is too many",
                    p.limit
                )
            } else {
                format!(
                    "at most {} may be taken now (twice the previous take); {take} is too many",
                    p.limit
                )
            }));
        }
        Ok(take)
    }
    fn format_move(&self, _p: &FibPosition, take: &u64) -> String {
        format!("take {take}")
    }
    fn describe_move(&self, p: &FibPosition, take: &u64) -> String {
        let after = p.heap - take;
        if after == 0 {
            return format!("take all {take} (nothing is left)");
        }
        format!(
            "take {take} ({} → {after}; the opponent may then take at most {})",
            p.heap,
            take.saturating_mul(2).min(after)
        )
    }
    fn heap_move(&self, _p: &FibPosition, take: &u64) -> Option<(usize, u64)> {
        Some((0, *take))
    }
    fn render(&self, p: &FibPosition) -> String {
        let matches = if p.heap <= 40 {
            "| ".repeat(p.heap as usize)
        } else {
            format!("{}… ", "| ".repeat(40))
        };
        format!(
            "  heap {:>4}  {}\n  may take 1 to {}{}\n",
            p.heap,
            matches.trim_end(),
            p.max_take(),
            if p.fresh {
                " (first move: not the whole heap)"
            } else {
                ""
            }
        )
    }
    fn material(&self, p: &FibPosition) -> u64 {
        p.heap
    }
    fn candidate_moves(&self, p: &FibPosition) -> Vec<u64> {
        let max = p.max_take();
        if max <= 200 {
            return self.moves(p);
        }
        let mut takes: Vec<u64> = (1..=8).chain([max, max - 1]).collect();
        for convention in [Convention::Normal, Convention::Misere] {
            takes.extend(solve(p, convention).1);
        }
        takes.sort_unstable();
        takes.dedup();
        takes.retain(|&t| t >= 1 && t <= max);
        takes
    }
    fn position_syntax(&self) -> &'static str {
        POSITION_SYNTAX
    }
    fn move_syntax(&self) -> String {
        String::from(
            "'take 3' or '3' takes 3 objects (at most twice the previous take; the first move may take anything but the whole heap)",
        )
    }
    /// A heap counted down, with the most the next move may take.
    fn board(&self, p: &FibPosition) -> crate::Board {
        crate::Board::Counter {
            value: p.heap,
            target: 0,
            min_step: 1,
            max_step: p.limit.min(p.heap),
            adds: false,
        }
    }
    fn touches(&self, _p: &FibPosition, take: &u64) -> Vec<crate::Element> {
        vec![crate::Element::Step { amount: *take }]
    }
    fn moves_left_bound(&self, p: &FibPosition) -> Option<u64> {
        Some(p.heap)
    }
}

impl Theory for Fibonacci {
    fn description(&self) -> Description {
        Description {
            rules: "One heap. The first move takes 1 to n - 1 objects (not the whole heap); after that each move takes at least 1 and at most twice what the previous move took. Normal play: whoever takes the last object wins. Misère play: whoever takes the last object loses.",
            example: "20",
            theory: "Zeckendorf's theorem writes every heap as a sum of non-consecutive Fibonacci numbers. Normal play (Whinihan): the player to move loses exactly when the smallest term exceeds the largest take allowed, so a fresh heap is lost exactly when its size is a Fibonacci number; taking the smallest term wins. Every winning take is a sum of the j smallest terms whose next term exceeds twice the sum (or the whole heap), found exactly for any u64 heap. Misère play reduces to normal play on one object fewer (Nimatron's derivation, proved in the docs). Both are checked against exhaustive search for every heap up to 60 and every limit.",
            citation: "M. J. Whinihan, \"Fibonacci Nim\", Fibonacci Quarterly 1(4) (1963) 9-13. E. Zeckendorf, \"Représentation des nombres naturels par une somme de nombres de Fibonacci ou de nombres de Lucas\", Bull. Soc. Roy. Sci. Liège 41 (1972) 179-182.",
        }
    }

    fn closed_form(&self, p: &FibPosition, convention: Convention) -> Option<Verdict<u64>> {
        let (outcome, takes) = solve(p, convention);
        Some(Verdict {
            details: Default::default(),
            outcome,
            grundy: None,
            explanation: explain(p, convention, &takes),
            winning_moves: takes,
            theorem: match convention {
                Convention::Normal => "Zeckendorf strategy (Whinihan)",
                Convention::Misere => "misère Fibonacci Nim: normal play on one object fewer",
            }
            .to_string(),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::check::closed_form_agrees_with_search;
    use crate::solve::{Limits, OutcomeSearch};

    fn small_positions(max_heap: u64) -> Vec<FibPosition> {
        let mut out = Vec::new();
        for n in 0..=max_heap {
            out.push(FibPosition::fresh(n));
            for m in 1..=n + 1 {
                out.push(FibPosition::with_limit(n, m));
            }
        }
        out
    }

    #[test]
    fn closed_form_agrees_with_search_up_to_60() {
        let positions = small_positions(60);
        let count = positions.len();
        let checked = closed_form_agrees_with_search(&Fibonacci, positions).unwrap();
        assert_eq!(checked, 2 * count);
    }

    #[test]
    fn fresh_heaps_are_lost_exactly_at_fibonacci_numbers() {
        let mut search = OutcomeSearch::new(&Fibonacci, Convention::Normal, Limits::default());
        let lost: Vec<u64> = (2..=150)
            .filter(|&n| search.outcome(&FibPosition::fresh(n)).unwrap() == Outcome::P)
            .collect();
        assert_eq!(lost, [2, 3, 5, 8, 13, 21, 34, 55, 89, 144]);
    }

    #[test]
    fn zeckendorf_is_unique_and_non_consecutive() {
        let fibs = fibonacci_numbers();
        assert_eq!(fibs.len(), 92); // F(2) = 1 to F(93), the last below 2^64
        assert_eq!(*fibs.last().unwrap(), 12_200_160_415_121_876_738);
        for n in (0..5000).chain([u64::MAX, u64::MAX - 1, 1 << 63]) {
            let terms = zeckendorf(n);
            assert_eq!(terms.iter().map(|&t| t as u128).sum::<u128>(), n as u128);
            for w in terms.windows(2) {
                let i = fibs.iter().position(|&f| f == w[0]).unwrap();
                let j = fibs.iter().position(|&f| f == w[1]).unwrap();
                assert!(i >= j + 2, "{n}: {terms:?}");
            }
        }
    }

    #[test]
    fn huge_heaps_are_exact() {
        // 2^63: every winning take leaves a P-position by the rule, and no
        // smaller take than the smallest term wins.
        let p = FibPosition::fresh(1 << 63);
        let (outcome, takes) = solve(&p, Convention::Normal);
        assert_eq!(outcome, Outcome::N);
        let smallest = *zeckendorf(1 << 63).last().unwrap();
        assert_eq!(takes[0], smallest);
        for &t in &takes {
            let after = Fibonacci.apply(&p, &t);
            assert!(normal_is_p(after.heap, after.max_take()));
        }
        let f = *fibonacci_numbers().last().unwrap();
        assert_eq!(
            solve(&FibPosition::fresh(f), Convention::Normal).0,
            Outcome::P
        );
        assert_eq!(
            solve(&FibPosition::fresh(f + 1), Convention::Misere).0,
            Outcome::N
        );
    }

    #[test]
    fn notation_and_limits() {
        let p = Fibonacci.parse_position("20/4").unwrap();
        assert_eq!(p, FibPosition::with_limit(20, 4));
        assert_eq!(Fibonacci.format_position(&p), "20/4");
        assert_eq!(Fibonacci.format_position(&FibPosition::fresh(20)), "20");
        let err = Fibonacci.parse_move(&p, "take 5").unwrap_err().problem;
        assert!(err.contains("at most 4 may be taken now"), "{err}");
        let err = Fibonacci
            .parse_move(&FibPosition::fresh(20), "20")
            .unwrap_err()
            .problem;
        assert!(err.contains("at most 19"), "{err}");
        assert_eq!(Fibonacci.parse_move(&p, "take 4"), Ok(4));
        for bad in ["3 4", "20/0", "20/x", "x", "", "-3"] {
            assert!(Fibonacci.parse_position(bad).is_err(), "{bad}");
        }
    }
}
