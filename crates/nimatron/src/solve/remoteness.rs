//! Remoteness: how many moves are left under perfect play when the winner
//! hurries and the loser delays (Steinhaus, 1925; Winning Ways, ch. 9).
//!
//! A terminal position has remoteness 0. A position with a move to a lost
//! position is won, and its remoteness is one more than the least
//! remoteness of such a move; otherwise it is lost, and its remoteness is
//! one more than the greatest remoteness of its options.

use std::collections::{HashMap, HashSet};

use super::{Budget, Limits, SolveError, weight};
use crate::{Convention, Outcome, Rules};

/// Outcome and remoteness of every position reached, for any [`Rules`].
///
/// Unlike outcome search it cannot stop at the first winning move (the
/// quickest win needs them all), so it visits every position reachable.
pub struct RemotenessSearch<'r, R: Rules> {
    rules: &'r R,
    convention: Convention,
    /// Canonical position → (whether the player to move wins, remoteness).
    memo: HashMap<R::Position, (bool, u32)>,
    added: usize,
    budget: Budget,
}

impl<'r, R: Rules> RemotenessSearch<'r, R> {
    /// A search with an empty table.
    pub fn new(rules: &'r R, convention: Convention, limits: Limits) -> Self {
        RemotenessSearch::with_table(rules, convention, limits, HashMap::new())
    }

    /// A search that starts from a table kept from earlier work (for the
    /// same convention).
    pub fn with_table(
        rules: &'r R,
        convention: Convention,
        limits: Limits,
        memo: HashMap<R::Position, (bool, u32)>,
    ) -> Self {
        RemotenessSearch {
            rules,
            convention,
            added: 0,
            memo,
            budget: limits.budget(),
        }
    }

    /// The table, to keep for later.
    pub fn into_table(self) -> HashMap<R::Position, (bool, u32)> {
        self.memo
    }

    /// How many positions are stored.
    pub fn states(&self) -> usize {
        self.memo.len()
    }

    /// The footprint ([`Rules::footprint`]) of the states this run added to
    /// its table, the measure its state limit goes by.
    pub fn added_footprint(&self) -> usize {
        self.added
    }

    /// The outcome of `position` for the player to move, and its
    /// remoteness.
    pub fn value(&mut self, position: &R::Position) -> Result<(Outcome, u64), SolveError> {
        let root = self.rules.canonical(position);
        if let Some(&(w, r)) = self.memo.get(&root) {
            return Ok((Outcome::from_to_move_wins(w), u64::from(r)));
        }
        struct Frame<P> {
            key: P,
            options: Vec<P>,
            next: usize,
            /// Least remoteness of a lost option.
            quickest_win: Option<u32>,
            /// Greatest remoteness of a won option.
            slowest_loss: u32,
        }
        let frame = |key: P2<R>, options| Frame {
            key,
            options,
            next: 0,
            quickest_win: None,
            slowest_loss: 0,
        };
        let options = self.canonical_options(&root);
        // Options waiting on the stack are stored positions too: a heap of
        // n in a game that splits heaps lists about n of them at each of up
        // to n levels, far more than the positions in the table.
        let mut held = weight(self.rules, &options);
        let mut stack = vec![frame(root.clone(), options)];
        while let Some(top) = stack.last_mut() {
            if top.next == top.options.len() {
                let value = if top.options.is_empty() {
                    (self.convention == Convention::Misere, 0)
                } else if let Some(r) = top.quickest_win {
                    (true, r + 1)
                } else {
                    (false, top.slowest_loss + 1)
                };
                self.budget.check(self.added + held)?;
                let done = stack.pop().expect("non-empty");
                held -= weight(self.rules, &done.options);
                self.added += self.rules.footprint(&done.key);
                self.memo.insert(done.key, value);
                continue;
            }
            match self.memo.get(&top.options[top.next]) {
                Some(&(wins, r)) => {
                    if wins {
                        top.slowest_loss = top.slowest_loss.max(r);
                    } else {
                        top.quickest_win = Some(top.quickest_win.map_or(r, |q| q.min(r)));
                    }
                    top.next += 1;
                }
                None => {
                    let key = top.options[top.next].clone();
                    self.budget.check_time()?;
                    let options = self.canonical_options(&key);
                    held += weight(self.rules, &options);
                    self.budget.check(self.added + held)?;
                    stack.push(frame(key, options));
                }
            }
        }
        let (w, r) = self.memo[&root];
        Ok((Outcome::from_to_move_wins(w), u64::from(r)))
    }

    fn canonical_options(&self, position: &R::Position) -> Vec<R::Position> {
        let mut seen = HashSet::new();
        self.rules
            .options(position)
            .iter()
            .map(|p| self.rules.canonical(p))
            .filter(|p| seen.insert(p.clone()))
            .collect()
    }
}

type P2<R> = <R as Rules>::Position;

#[cfg(test)]
mod tests {
    use super::*;

    /// Subtraction {1, 2} on one heap, by hand: losing heaps are multiples
    /// of 3, and play lasts as long as possible only for the loser.
    struct OneOrTwo;
    impl Rules for OneOrTwo {
        type Position = u64;
        type Move = u64;
        fn moves(&self, n: &u64) -> Vec<u64> {
            (1..=2).filter(|t| t <= n).collect()
        }
        fn apply(&self, n: &u64, t: &u64) -> u64 {
            n - t
        }
    }

    /// Remoteness by the definition, with plain recursion.
    fn plain<R: Rules>(rules: &R, p: &R::Position, convention: Convention) -> (bool, u64) {
        let options = rules.options(p);
        if options.is_empty() {
            return (convention == Convention::Misere, 0);
        }
        let values: Vec<(bool, u64)> = options
            .iter()
            .map(|o| plain(rules, o, convention))
            .collect();
        match values.iter().filter(|v| !v.0).map(|v| v.1).min() {
            Some(r) => (true, r + 1),
            None => (false, values.iter().map(|v| v.1).max().unwrap_or(0) + 1),
        }
    }

    #[test]
    fn one_or_two_by_hand() {
        let mut s = RemotenessSearch::new(&OneOrTwo, Convention::Normal, Limits::default());
        // 3k is lost in 2k moves (each side takes 3 per round); 3k+1 and
        // 3k+2 are won in 2k+1.
        for n in 0..60u64 {
            let (o, r) = s.value(&n).unwrap();
            let k = n / 3;
            if n % 3 == 0 {
                assert_eq!((o, r), (Outcome::P, 2 * k), "{n}");
            } else {
                assert_eq!((o, r), (Outcome::N, 2 * k + 1), "{n}");
            }
        }
    }

    #[test]
    fn agrees_with_the_definition_on_nim() {
        struct SmallNim;
        impl Rules for SmallNim {
            type Position = Vec<u64>;
            type Move = (usize, u64);
            fn moves(&self, p: &Vec<u64>) -> Vec<(usize, u64)> {
                (0..p.len())
                    .flat_map(|i| (1..=p[i]).map(move |t| (i, t)))
                    .collect()
            }
            fn apply(&self, p: &Vec<u64>, &(i, t): &(usize, u64)) -> Vec<u64> {
                let mut q = p.clone();
                q[i] -= t;
                q
            }
            fn canonical(&self, p: &Vec<u64>) -> Vec<u64> {
                let mut q: Vec<u64> = p.iter().copied().filter(|&h| h > 0).collect();
                q.sort_unstable();
                q
            }
        }
        for convention in [Convention::Normal, Convention::Misere] {
            let mut s = RemotenessSearch::new(&SmallNim, convention, Limits::default());
            for a in 0..4 {
                for b in 0..4 {
                    for c in 0..4 {
                        let p = vec![a, b, c];
                        let (o, r) = s.value(&p).unwrap();
                        let (w, r2) = plain(&SmallNim, &p, convention);
                        assert_eq!((o.to_move_wins(), r), (w, r2), "{convention} {p:?}");
                        assert_eq!(o, crate::nim::outcome(&p, convention), "{p:?}");
                    }
                }
            }
        }
    }

    #[test]
    fn the_limit_stops_it() {
        let mut s = RemotenessSearch::new(&OneOrTwo, Convention::Normal, Limits::states(10));
        assert_eq!(
            s.value(&1000).unwrap_err(),
            SolveError::StateLimit { limit: 10 }
        );
    }
}
