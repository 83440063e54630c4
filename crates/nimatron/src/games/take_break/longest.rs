//! The longest play of a heap game: a bound on the moves left that comes
//! from the game's own rules.
//!
//! Heaps are independent, so the longest play of a sum is the sum of its
//! heaps' longest plays, and that of a heap of `n` is one more than the
//! longest of its options: `L(n) = max(1 + L(a) + L(b) + …)` over the moves
//! that leave heaps `a, b, …`, and 0 with no move. Kayles gives `L(n) = n`
//! (take one pin from an end each time) and Dawson's Kayles `⌊n/2⌋`, so
//! misère Kayles `60 70 80` lasts at most 210 moves, where a count of three
//! per pin gave 630. Heaps beyond those computed move by move get a count
//! that holds for every heap: `⌊n/k⌋` when every move takes at least `k`
//! objects, `2n − 1` when a move may split a heap without taking (each move
//! lowers twice the objects less the heaps by at least one).

use crate::sequence::Rule;

/// The heaps measured move by move: a split in two costs `n` steps at
/// heap `n`, a split in three `n²/12`.
fn exact_to(rule: &Rule) -> u64 {
    match rule {
        Rule::TakeBreak(t) if !t.split_three.is_empty() => 300,
        _ => 3000,
    }
}

/// The longest plays of a heap game's heaps, computed as far as asked.
#[derive(Debug, Default)]
pub(super) struct LongestPlay {
    /// `table[n]` = `L(n)`.
    table: Vec<u64>,
}

impl LongestPlay {
    /// The most moves any play from a heap of `n` can last (exact for heaps
    /// up to [`exact_to`], a bound beyond).
    pub(super) fn of(&mut self, rule: &Rule, n: u64) -> u64 {
        if n > exact_to(rule) {
            return beyond(rule, n);
        }
        if self.table.is_empty() {
            self.table.push(0);
        }
        while (self.table.len() as u64) <= n {
            let m = self.table.len() as u64;
            let l = step(rule, &self.table, m);
            self.table.push(l);
        }
        self.table[n as usize]
    }
}

/// `L(n)` from `L(0..n)`.
fn step(rule: &Rule, l: &[u64], n: u64) -> u64 {
    let at = |h: u64| l[h as usize];
    let mut best: Option<u64> = None;
    let mut consider = |moves: u64| best = Some(best.map_or(moves, |b| b.max(moves)));
    match rule {
        Rule::TakeBreak(t) => {
            if t.take_all.contains(&n) {
                consider(1);
            }
            for &k in &t.leave_one {
                if k < n {
                    consider(1 + at(n - k));
                }
            }
            for &k in &t.split_two {
                if n < k + 2 {
                    continue;
                }
                let rest = n - k;
                for a in 1..=rest / 2 {
                    if t.unequal && 2 * a == rest {
                        continue;
                    }
                    consider(1 + at(a) + at(rest - a));
                }
            }
            for &k in &t.split_three {
                if n < k + 3 {
                    continue;
                }
                let rest = n - k;
                for a in 1..=rest / 3 {
                    for b in a..=(rest - a) / 2 {
                        consider(1 + at(a) + at(b) + at(rest - a - b));
                    }
                }
            }
        }
        Rule::Squares => {
            let mut s = 1u64;
            while s * s <= n {
                consider(1 + at(n - s * s));
                s += 1;
            }
        }
        Rule::Modular { modulus, residues } => {
            for t in 1..=n {
                if residues.contains(&(t % modulus)) {
                    consider(1 + at(n - t));
                }
            }
        }
    }
    best.unwrap_or(0)
}

/// A bound on `L(n)` for any heap: `⌊n/k⌋` when every move takes at least
/// `k` objects, else `2n − 1`.
fn beyond(rule: &Rule, n: u64) -> u64 {
    let least = match rule {
        Rule::TakeBreak(t) => t
            .take_all
            .iter()
            .chain(&t.leave_one)
            .chain(&t.split_two)
            .chain(&t.split_three)
            .copied()
            .min()
            .unwrap_or(1),
        Rule::Squares => 1,
        Rule::Modular { modulus, residues } => residues
            .iter()
            .map(|&r| if r == 0 { *modulus } else { r })
            .min()
            .unwrap_or(1),
    };
    n.checked_div(least)
        .unwrap_or_else(|| n.saturating_mul(2).saturating_sub(1))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sequence::HeapGame;
    use std::collections::HashMap;

    /// The longest play by brute force over whole positions (sorted heap
    /// lists), with the moves from the quotient engine's option lists.
    fn brute(rule: &Rule, position: Vec<u16>, memo: &mut HashMap<Vec<u16>, u64>) -> u64 {
        if let Some(&l) = memo.get(&position) {
            return l;
        }
        let mut best = 0;
        for i in 0..position.len() {
            for option in crate::misere::moves::options_of(rule, position[i] as usize) {
                let mut next: Vec<u16> = position[..i].to_vec();
                next.extend_from_slice(&position[i + 1..]);
                next.extend(option);
                next.sort_unstable();
                best = best.max(1 + brute(rule, next, memo));
            }
        }
        memo.insert(position, best);
        best
    }

    /// Exact against brute force over every sum of up to three heaps of up
    /// to 10, and the bound beyond holds where both are known: for Kayles,
    /// Dawson's Kayles, 0.137, Officers, Grundy's game, 4.07 (a split
    /// without taking), a three-way split, S(2,5), subtraction of squares
    /// and a modular game.
    #[test]
    fn the_longest_play_agrees_with_brute_force() {
        for spec in [
            "kayles",
            "dawson",
            "octal:0.137",
            "officers",
            "grundy-game",
            "octal:4.07",
            "octal:0.8",
            "subtraction:2,5",
            "subtraction:squares",
            "modular:3:1,2",
        ] {
            let rule = spec.parse::<HeapGame>().unwrap().rule();
            let mut longest = LongestPlay::default();
            let mut memo = HashMap::new();
            for a in 0..=10u16 {
                for b in a..=10 {
                    for c in b..=10 {
                        let heaps: Vec<u16> = [a, b, c].into_iter().filter(|&h| h > 0).collect();
                        let truth = brute(&rule, heaps, &mut memo);
                        let sum: u64 = [a, b, c].iter().map(|&h| longest.of(&rule, h as u64)).sum();
                        assert_eq!(sum, truth, "{spec} {a} {b} {c}");
                    }
                }
            }
            for n in 1..=exact_to(&rule) {
                assert!(beyond(&rule, n) >= longest.of(&rule, n), "{spec} {n}");
            }
        }
        // Kayles lasts one move per pin at most; Dawson's Kayles one per two.
        let mut longest = LongestPlay::default();
        let kayles = "kayles".parse::<HeapGame>().unwrap().rule();
        let dawson = "dawson".parse::<HeapGame>().unwrap().rule();
        assert_eq!(longest.of(&kayles, 80), 80);
        assert_eq!(longest.of(&kayles, 1_000_000_000_000), 1_000_000_000_000);
        let mut longest = LongestPlay::default();
        assert_eq!(longest.of(&dawson, 81), 40);
    }
}
