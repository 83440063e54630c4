//! The 100 game (`hundred[:K,N]`): players take turns adding 1 to K to a
//! running total that starts at 0, never going past N; whoever reaches N
//! wins. Under misère play (`--misere`) whoever reaches N loses, which is
//! the 21 game (`twenty-one:K,N`) again.

use crate::games::counting::{self, Count, Say};
use crate::{Convention, Nimber, Outcome, Rules};
use crate::{Description, MoveError, Notation, PositionError, Theory, Verdict};

/// The 100 game with K = `max_add` and N = `target`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Hundred {
    /// K: the most added in one turn (at least 1).
    pub max_add: u64,
    /// N: whoever reaches this total wins (at least 1).
    pub target: u64,
}

const POSITION_SYNTAX: &str =
    "the running total, a whole number from 0 (the start) to N, e.g. '45'";

impl Hundred {
    fn count(&self) -> Count {
        Count {
            max_add: self.max_add,
            highest: self.target,
        }
    }

    fn period(&self) -> u128 {
        self.max_add as u128 + 1
    }

    /// The normal-play Grundy value: (N − total) mod (K + 1), the
    /// subtraction game S(1..K) on a heap of N − total.
    pub fn grundy(&self, total: u64) -> Nimber {
        Nimber(((self.target - total) as u128 % self.period()) as u64)
    }

    /// The winning totals (the ones to reach) under `convention`, smallest
    /// first, as (first, step, last).
    pub fn winning_totals(&self, convention: Convention) -> (u64, u64, u64) {
        let step = self.max_add.saturating_add(1);
        match convention {
            // N - t ≡ 0 mod K + 1.
            Convention::Normal => (
                ((self.target as u128) % self.period()) as u64,
                step,
                self.target,
            ),
            // Whoever reaches N loses: reach t with N - 1 - t ≡ 0.
            Convention::Misere => (
                ((self.target - 1) as u128 % self.period()) as u64,
                step,
                self.target - 1,
            ),
        }
    }

    /// How far `total` is below the next winning total (0 when the player
    /// to move is lost), or None at N itself.
    fn shortfall(&self, total: u64, convention: Convention) -> Option<u64> {
        let left = self.target - total;
        match convention {
            Convention::Normal => Some((left as u128 % self.period()) as u64),
            Convention::Misere if left == 0 => None,
            Convention::Misere => Some(((left - 1) as u128 % self.period()) as u64),
        }
    }

    fn explain(&self, total: u64, convention: Convention) -> String {
        let (k, n) = (self.max_add, self.target);
        let (first, step, last) = self.winning_totals(convention);
        let list = counting::list_totals(first, step, last);
        let mut s = match convention {
            Convention::Normal => format!(
                "The {n} game with K = {k}: each turn adds 1 to {k}, and whoever reaches {n} wins.\n\
                 The winning totals are those t with {n} − t a multiple of {}: {list}.\n\
                 Once a player reaches a winning total, the opponent's addition of 1 to {k} falls short of the next one, \
                 and the reply adds the rest of {}: so the player who reaches a winning total reaches every later one, {n} included.\n",
                self.period(),
                self.period()
            ),
            Convention::Misere => format!(
                "The {n} game with K = {k} under misère play: each turn adds 1 to {k}, and whoever reaches {n} loses \
                 (this is twenty-one:{k},{n}).\n\
                 The winning totals are those t with {} − t a multiple of {}: {list}. Whoever reaches {} forces the opponent to say {n}.\n",
                n - 1,
                self.period(),
                n - 1
            ),
        };
        if convention == Convention::Normal && last >= step && n > k {
            let before = last - step;
            s.push_str(&format!(
                "Once a player reaches {before}, the opponent can only say {} to {}, and the reply reaches {n}.\n",
                before + 1,
                n - 1
            ));
        }
        match self.shortfall(total, convention) {
            None => s.push_str(&format!(
                "The total is {n}: the player who reached it lost, so the player to move has won.\n"
            )),
            Some(0) if total == n => s.push_str(&format!(
                "The total is {n}: the game is over and the player to move has lost.\n"
            )),
            Some(0) => s.push_str(&format!(
                "The total is {total}, a winning total for the player who reached it: the player to move loses against perfect play.\n"
            )),
            Some(r) => s.push_str(&format!(
                "The total is {total}: add {r} to reach the winning total {}.\n",
                total + r
            )),
        }
        s.push_str(&format!(
            "As a heap game this is the subtraction game S(1..{k}) on a heap of {n} − total = {}, whose normal-play Grundy value is {}.\n",
            n - total,
            self.grundy(total)
        ));
        s
    }
}

impl Rules for Hundred {
    type Position = u64;
    type Move = Say;

    fn moves(&self, total: &u64) -> Vec<Say> {
        self.count().moves(*total)
    }

    fn apply(&self, _total: &u64, mv: &Say) -> u64 {
        mv.total
    }
}

impl Notation for Hundred {
    fn parse_position(&self, text: &str) -> Result<u64, PositionError> {
        let n = self.target;
        let total = counting::parse_total(text, n, POSITION_SYNTAX)?;
        if total > n {
            return Err(PositionError::new(
                format!(
                    "total {total} is above {n}, which no game of hundred:{},{n} passes",
                    self.max_add
                ),
                format!("give a total from 0 to {n}"),
            ));
        }
        Ok(total)
    }
    fn format_position(&self, total: &u64) -> String {
        total.to_string()
    }
    fn start_position(&self) -> Option<u64> {
        Some(0)
    }
    fn parse_move(&self, total: &u64, input: &str) -> Result<Say, MoveError> {
        self.count().parse_move(*total, input)
    }
    fn format_move(&self, _total: &u64, mv: &Say) -> String {
        format!("say {}", mv.total)
    }
    fn describe_move(&self, total: &u64, mv: &Say) -> String {
        format!("say {} (add {})", mv.total, mv.total - total)
    }
    fn render(&self, total: &u64) -> String {
        if *total == self.target {
            format!("  Total: {total}. The total is reached.\n")
        } else {
            format!(
                "  Total: {total}   (add 1 to {}; the game ends at {})\n",
                self.max_add, self.target
            )
        }
    }
    fn material(&self, total: &u64) -> u64 {
        self.target - total
    }
    fn position_syntax(&self) -> &'static str {
        POSITION_SYNTAX
    }
    fn move_syntax(&self) -> String {
        String::from(counting::MOVE_SYNTAX)
    }
    fn board(&self, total: &u64) -> crate::Board {
        counting::board(*total, self.max_add, self.target)
    }
    fn touches(&self, total: &u64, say: &Say) -> Vec<crate::Element> {
        counting::touches(*total, say)
    }
    fn moves_left_bound(&self, total: &u64) -> Option<u64> {
        Some(self.target.saturating_sub(*total))
    }
}

impl Theory for Hundred {
    fn description(&self) -> Description {
        Description {
            rules: "Players take turns adding 1 to K to a running total that starts at 0, never going past N; whoever reaches N wins (hundred:10,100 is the classic 100 game). Under misère play whoever reaches N loses, which is twenty-one:K,N.",
            example: "45",
            theory: "Reach the totals t with N - t a multiple of K + 1 (for 10,100: 1, 12, 23, 34, 45, 56, 67, 78, 89, 100 - Wikipedia's totals with consecutive digits; once you reach 89 the opponent can only say 90 to 99): from such a total every addition falls short of the next one and the reply completes it. It is the subtraction game S(1..K) on a heap of N - total, Grundy value (N - total) mod (K + 1); under misère play the totals to reach are those with N - 1 - t a multiple of K + 1. Checked against exhaustive search for every total of every game with K up to 8 and N up to 40, in both conventions.",
            citation: "Nim, Wikipedia, section \"The 100 game\"; E. R. Berlekamp, J. H. Conway, R. K. Guy, Winning Ways for your Mathematical Plays, 2nd ed., A K Peters 2001, vol. 1 ch. 4 (subtraction games).",
        }
    }

    fn closed_form(&self, total: &u64, convention: Convention) -> Option<Verdict<Say>> {
        if *total > self.target {
            return None;
        }
        let (outcome, winning_moves) = match self.shortfall(*total, convention) {
            None => (Outcome::N, Vec::new()),
            Some(0) => (Outcome::P, Vec::new()),
            Some(r) => (Outcome::N, vec![Say { total: total + r }]),
        };
        Some(Verdict {
            details: Default::default(),
            outcome,
            grundy: Some(self.grundy(*total)),
            winning_moves,
            explanation: self.explain(*total, convention),
            theorem: match convention {
                Convention::Normal => {
                    format!("reach the totals t with N - t ≡ 0 mod {}", self.period())
                }
                Convention::Misere => format!(
                    "misère: reach the totals t with N - 1 - t ≡ 0 mod {}",
                    self.period()
                ),
            },
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::check::closed_form_agrees_with_search;
    use crate::games::twenty_one::TwentyOne;

    #[test]
    fn closed_form_agrees_with_search_for_many_games() {
        let mut checked = 0;
        for k in 1..=8 {
            for n in 1..=40 {
                let game = Hundred {
                    max_add: k,
                    target: n,
                };
                checked += closed_form_agrees_with_search(&game, 0..=n)
                    .unwrap_or_else(|e| panic!("hundred:{k},{n}: {e}"));
            }
        }
        assert_eq!(checked, 2 * 8 * (1..=40).map(|n| n + 1).sum::<usize>());
    }

    /// Misère hundred is the 21 game: same outcome and winning moves at
    /// every total below N.
    #[test]
    fn misere_hundred_is_twenty_one() {
        for k in 1..=6 {
            for n in 1..=30 {
                let hundred = Hundred {
                    max_add: k,
                    target: n,
                };
                let twenty_one = TwentyOne {
                    max_add: k,
                    target: n,
                };
                for t in 0..n {
                    let a = hundred.closed_form(&t, Convention::Misere).unwrap();
                    let b = twenty_one.closed_form(&t, Convention::Normal).unwrap();
                    assert_eq!(a.outcome, b.outcome, "{k},{n} at {t}");
                    assert_eq!(a.winning_moves, b.winning_moves, "{k},{n} at {t}");
                }
            }
        }
    }

    #[test]
    fn the_seeds_totals() {
        let game = Hundred {
            max_add: 10,
            target: 100,
        };
        let winning: Vec<u64> = (0..=100)
            .filter(|&t| game.closed_form(&t, Convention::Normal).unwrap().outcome == Outcome::P)
            .collect();
        // "subsequent digits: 01, 12, 23, 34, …" and 100.
        assert_eq!(winning, vec![1, 12, 23, 34, 45, 56, 67, 78, 89, 100]);
        let text = game
            .closed_form(&0, Convention::Normal)
            .unwrap()
            .explanation;
        assert!(
            text.contains("1, 12, 23, 34, 45, 56, 67, 78, 89, 100"),
            "{text}"
        );
        assert!(
            text.contains("reaches 89, the opponent can only say 90 to 99"),
            "{text}"
        );
    }
}
