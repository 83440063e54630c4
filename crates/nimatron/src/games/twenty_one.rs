//! The 21 game (`twenty-one[:K,N]`): players take turns adding 1 to K to a
//! running total that starts at 0, never going past N; whoever says N loses.
//!
//! # How the ending is modelled
//!
//! Saying N loses on the spot, so the player who is left at N − 1 has lost:
//! their only move is to say N. Nimatron therefore models the game with the
//! moves that say 1 to N − 1 and *normal play*: the player to move at N − 1
//! has no move left and loses. This is Wikipedia's subtraction game on a heap
//! of N − 1 − total objects, and it is exactly the game as played, because
//! saying N early is never anything but an immediate loss. A typed `say N`
//! is refused with that reason.
//!
//! The ending is part of the rules, so `--misere` is not offered: the
//! opposite ending (whoever says N wins) is `hundred:K,N`, and
//! `hundred:K,N --misere` is this game again.

use crate::games::counting::{self, Count, Say};
use crate::{Convention, Nimber, Outcome, Rules};
use crate::{Description, MoveError, Notation, PositionError, Theory, Verdict};

/// The 21 game with K = `max_add` and N = `target`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TwentyOne {
    /// K: the most added in one turn (at least 1).
    pub max_add: u64,
    /// N: whoever says this total loses (at least 1).
    pub target: u64,
}

const POSITION_SYNTAX: &str =
    "the running total, a whole number from 0 (the start) to N - 1, e.g. '5'";

impl TwentyOne {
    fn count(&self) -> Count {
        Count {
            max_add: self.max_add,
            highest: self.target - 1,
        }
    }

    /// K + 1, the period of the safe totals.
    fn period(&self) -> u128 {
        self.max_add as u128 + 1
    }

    /// How far the total is from N − 1 modulo K + 1: 0 exactly at the safe
    /// totals. It is also the Grundy value (the subtraction game S(1..K) on
    /// a heap of N − 1 − total).
    pub fn remainder(&self, total: u64) -> u64 {
        ((self.target - 1 - total) as u128 % self.period()) as u64
    }

    /// Whether `total` is safe to say: (N − 1 − total) ≡ 0 mod (K + 1).
    /// Whoever is to move at a safe total loses against perfect play.
    pub fn is_safe(&self, total: u64) -> bool {
        self.remainder(total) == 0
    }

    /// The smallest safe total.
    fn first_safe(&self) -> u64 {
        ((self.target - 1) as u128 % self.period()) as u64
    }

    fn explain(&self, total: u64) -> String {
        let (k, n) = (self.max_add, self.target);
        let safe = counting::list_totals(self.first_safe(), k.saturating_add(1), n - 1);
        let mut s = format!(
            "Twenty-one with K = {k}, N = {n}: each turn adds 1 to {k}, and whoever says {n} loses.\n\
             The safe totals to say are those t with {} − t a multiple of {}: {safe}.\n\
             Whoever says {} leaves the opponent nothing but {n}. From a safe total every addition of 1 to {k} \
             falls short of the next safe total, and the reply adds the rest of {}, so the player who says a safe \
             total can keep doing so until the opponent must say {n}.\n",
            n - 1,
            self.period(),
            n - 1,
            self.period(),
        );
        let r = self.remainder(total);
        if total == n - 1 {
            s.push_str(&format!(
                "The total is {total}: the player to move must say {n} and loses.\n"
            ));
        } else if r == 0 {
            s.push_str(&format!(
                "The total is {total}, a safe total: the player to move loses against perfect play. \
                 Whatever they add, the reply reaches the next safe total.\n"
            ));
        } else {
            s.push_str(&format!(
                "The total is {total}: {} − {total} = {} leaves {r} over a multiple of {}, so say {} (add {r}).\n",
                n - 1,
                n - 1 - total,
                self.period(),
                total + r
            ));
        }
        s.push_str(&format!(
            "As a heap game this is the subtraction game S(1..{k}) on a heap of {} − total = {}, whose Grundy value is that remainder, {}.\n",
            n - 1,
            n - 1 - total,
            Nimber(r)
        ));
        s
    }
}

impl Rules for TwentyOne {
    type Position = u64;
    type Move = Say;

    fn moves(&self, total: &u64) -> Vec<Say> {
        self.count().moves(*total)
    }

    fn apply(&self, _total: &u64, mv: &Say) -> u64 {
        mv.total
    }
}

impl Notation for TwentyOne {
    fn parse_position(&self, text: &str) -> Result<u64, PositionError> {
        let n = self.target;
        let total = counting::parse_total(text, n - 1, POSITION_SYNTAX)?;
        if total == n {
            return Err(PositionError::new(
                format!("total {n} ends the game: whoever said {n} has lost"),
                format!("give a total from 0 to {}", n - 1),
            ));
        }
        if total > n {
            return Err(PositionError::new(
                format!(
                    "total {total} is above {n}, which no game of twenty-one:{},{n} reaches",
                    self.max_add
                ),
                format!("give a total from 0 to {}", n - 1),
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
        let n = self.target;
        // Saying N is the losing move the model leaves out; say why.
        let count = Count {
            max_add: self.max_add,
            highest: n,
        };
        if count.parse_move(*total, input) == Ok(Say { total: n }) {
            return Err(MoveError::new(format!(
                "saying {n} loses on the spot; say a smaller total (you are only forced to say {n} from {}, and then the game is already over)",
                n - 1
            )));
        }
        self.count().parse_move(*total, input)
    }
    fn format_move(&self, _total: &u64, mv: &Say) -> String {
        format!("say {}", mv.total)
    }
    fn describe_move(&self, total: &u64, mv: &Say) -> String {
        let mut s = format!("say {} (add {})", mv.total, mv.total - total);
        if mv.total == self.target - 1 {
            s.push_str(&format!(", forcing the opponent to say {}", self.target));
        }
        s
    }
    fn render(&self, total: &u64) -> String {
        let n = self.target;
        if *total == n - 1 {
            format!("  Total: {total}. The player to move must say {n} and loses.\n")
        } else {
            format!(
                "  Total: {total}   (add 1 to {}; whoever says {n} loses)\n",
                self.max_add
            )
        }
    }
    fn material(&self, total: &u64) -> u64 {
        self.target - 1 - total
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

impl Theory for TwentyOne {
    fn description(&self) -> Description {
        Description {
            rules: "Players take turns adding 1 to K to a running total that starts at 0, never going past N; whoever says N loses (twenty-one:3,21 is the classic 21 game). The player left at N - 1 has lost, since they must say N.",
            example: "5",
            theory: "Say the totals t with N - 1 - t a multiple of K + 1 (for 3,21: 0, 4, 8, 12, 16, 20; for 5,34: 3, 9, 15, 21, 27, 33): from such a total every addition falls short of the next one and the reply completes it, so the opponent is finally forced to say N. It is the subtraction game S(1..K) on a heap of N - 1 - total, Grundy value (N - 1 - total) mod (K + 1). Checked against exhaustive search for every total of every game with K up to 8 and N up to 40, and on Wikipedia's sample game. The ending is fixed by the rules, so --misere is not offered.",
            citation: "Nim, Wikipedia, section \"The 21 game\"; E. R. Berlekamp, J. H. Conway, R. K. Guy, Winning Ways for your Mathematical Plays, 2nd ed., A K Peters 2001, vol. 1 ch. 4 (subtraction games).",
        }
    }

    fn conventions(&self) -> &'static [Convention] {
        &[Convention::Normal]
    }

    fn convention_note(&self) -> &'static str {
        "the 21 game fixes its own ending: whoever says N loses. There is no misère form of it; the opposite ending, whoever reaches N wins, is hundred:K,N, and hundred:K,N in misère play is this game again"
    }

    fn closed_form(&self, total: &u64, convention: Convention) -> Option<Verdict<Say>> {
        if convention != Convention::Normal || *total >= self.target {
            return None;
        }
        let r = self.remainder(*total);
        Some(Verdict {
            details: Default::default(),
            outcome: Outcome::from_to_move_wins(r != 0),
            grundy: Some(Nimber(r)),
            winning_moves: if r == 0 {
                Vec::new()
            } else {
                vec![Say { total: total + r }]
            },
            explanation: self.explain(*total),
            theorem: format!("say the totals t with N - 1 - t ≡ 0 mod {}", self.period()),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::check::closed_form_agrees_with_search;

    #[test]
    fn closed_form_agrees_with_search_for_many_games() {
        let mut checked = 0;
        for k in 1..=8 {
            for n in 1..=40 {
                let game = TwentyOne {
                    max_add: k,
                    target: n,
                };
                checked += closed_form_agrees_with_search(&game, 0..n)
                    .unwrap_or_else(|e| panic!("twenty-one:{k},{n}: {e}"));
            }
        }
        assert_eq!(checked, 8 * (1..=40).sum::<usize>());
    }

    #[test]
    fn the_safe_totals_of_the_classic_games() {
        let game = TwentyOne {
            max_add: 3,
            target: 21,
        };
        let safe: Vec<u64> = (0..21).filter(|&t| game.is_safe(t)).collect();
        assert_eq!(safe, vec![0, 4, 8, 12, 16, 20]); // "say a multiple of 4"
        let game = TwentyOne {
            max_add: 5,
            target: 34,
        };
        let safe: Vec<u64> = (0..34).filter(|&t| game.is_safe(t)).collect();
        assert_eq!(safe, vec![3, 9, 15, 21, 27, 33]);
    }

    #[test]
    fn huge_parameters_do_not_overflow() {
        let game = TwentyOne {
            max_add: u64::MAX,
            target: u64::MAX,
        };
        let v = game.closed_form(&0, Convention::Normal).expect("a verdict");
        assert_eq!(v.outcome, Outcome::N);
        assert_eq!(
            v.winning_moves,
            vec![Say {
                total: u64::MAX - 1
            }]
        );
    }
}
