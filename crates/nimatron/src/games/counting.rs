//! The counting games: players take turns adding 1 to K to a running total
//! that starts at 0, never going past N. One game, [`Counting`], with two
//! endings ([`Ending`]):
//!
//! - `hundred[:K,N]`: whoever reaches N wins. Under misère play whoever
//!   reaches N loses, which is the 21 game again.
//! - `twenty-one[:K,N]`: whoever says N loses. The ending is part of its
//!   rules, so it is played one way only (see [`Ending::SayingNLoses`]).
//!
//! Both are the subtraction game S(1..K) on a heap of what is left to say.
//! A move is typed as the total to say (`12` or `say 12`) or as the amount
//! to add (`+3` or `add 3`). A bare number is always the total to say.

use crate::{BOTH_CONVENTIONS, Convention, Nimber, Outcome, Rules};
use crate::{Description, MoveError, Notation, PositionError, Theory, Verdict};

/// The largest K (most added per turn) the counting games accept: every
/// legal move is listed in play, so K stays small enough to list.
pub const MAX_ADD: u64 = 10_000;

/// The move syntax, for `help` in play.
pub const MOVE_SYNTAX: &str =
    "'12' or 'say 12' says the total 12; '+3' or 'add 3' adds 3 to the total";

/// Saying a new running total.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Say {
    /// The total said.
    pub total: u64,
}

/// The rules both counting games share: add 1..=`max_add`, never past
/// `highest` (the largest total a move may say).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Count {
    /// K: the most added in one turn.
    pub max_add: u64,
    /// The largest total any move may say.
    pub highest: u64,
}

impl Count {
    /// Every total that may be said from `total`, smallest first.
    pub fn moves(&self, total: u64) -> Vec<Say> {
        if total >= self.highest {
            return Vec::new();
        }
        let top = self.highest.min(total.saturating_add(self.max_add));
        (total + 1..=top).map(|t| Say { total: t }).collect()
    }

    /// Parse a typed move from `total` and check that it is legal.
    pub fn parse_move(&self, total: u64, input: &str) -> Result<Say, MoveError> {
        if total >= self.highest {
            return Err(MoveError::new("the game is over: no move is left"));
        }
        let lower = input.trim().to_ascii_lowercase();
        let words: Vec<&str> = lower.split_whitespace().collect();
        let (adding, number) = match words.as_slice() {
            ["say", n] => (false, n.to_string()),
            ["add" | "+", n] => (true, n.to_string()),
            [single] if single.starts_with('+') => (true, single[1..].to_string()),
            [single] => (false, single.to_string()),
            _ => {
                return Err(MoveError::new(format!(
                    "'{}' is not a move: type the total to say ('say 12' or '12') or the amount to add ('+3')",
                    input.trim()
                )));
            }
        };
        let value: u64 = number.parse().map_err(|_| {
            MoveError::new(format!(
                "'{number}' is not a whole number: type the total to say ('say 12' or '12') or the amount to add ('+3')"
            ))
        })?;
        let said = if adding {
            if value == 0 || value > self.max_add {
                return Err(MoveError::new(format!(
                    "you may add 1 to {} per turn, not {value}",
                    self.max_add
                )));
            }
            total.checked_add(value).ok_or_else(|| {
                MoveError::new(format!("adding {value} to {total} is out of range"))
            })?
        } else {
            if value <= total {
                let hint = if (1..=self.max_add).contains(&value) {
                    format!(" (or type '+{value}' to add {value})")
                } else {
                    String::new()
                };
                return Err(MoveError::new(format!(
                    "the total is already {total}: say a larger number, {} to {}{hint}",
                    total + 1,
                    self.highest.min(total.saturating_add(self.max_add))
                )));
            }
            if value - total > self.max_add {
                return Err(MoveError::new(format!(
                    "saying {value} would add {}, but a turn adds 1 to {}",
                    value - total,
                    self.max_add
                )));
            }
            value
        };
        if said > self.highest {
            return Err(MoveError::new(format!(
                "the total may not go past {}; {said} is too far",
                self.highest
            )));
        }
        Ok(Say { total: said })
    }
}

/// Parse a running total: one whole number from 0 to `highest`.
pub fn parse_total(text: &str, highest: u64, accepted: &str) -> Result<u64, PositionError> {
    let word = text.trim();
    if word.is_empty() {
        return Err(PositionError::new("no total given", accepted));
    }
    let total: u64 = word.parse().map_err(|_| {
        PositionError::new(
            format!("'{word}' is not a total (a whole number from 0 to {highest})"),
            accepted,
        )
    })?;
    Ok(total)
}

/// The totals `first, first + step, …` up to `last`, for explanations; long
/// lists are cut in the middle.
pub fn list_totals(first: u64, step: u64, last: u64) -> String {
    if first > last {
        return "none".to_string();
    }
    let count = (last - first) as u128 / step as u128 + 1;
    let at = |i: u128| (first as u128 + i * step as u128).to_string();
    if count <= 16 {
        (0..count).map(at).collect::<Vec<_>>().join(", ")
    } else {
        format!(
            "{}, {}, {}, …, {}, {}, {} ({count} totals)",
            at(0),
            at(1),
            at(2),
            at(count - 3),
            at(count - 2),
            at(count - 1)
        )
    }
}

/// A running total drawn as a counter: add 1 to K, never past the target.
pub fn board(total: u64, max_add: u64, target: u64) -> crate::Board {
    crate::Board::Counter {
        value: total,
        target,
        min_step: 1,
        max_step: max_add.min(target.saturating_sub(total)),
        adds: true,
    }
}

/// The amount a move adds, as the counter's step.
pub fn touches(total: u64, say: &Say) -> Vec<crate::Element> {
    vec![crate::Element::Step {
        amount: say.total - total,
    }]
}

/// How a counting game ends.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ending {
    /// The 21 game (`twenty-one[:K,N]`): whoever says N loses.
    ///
    /// Saying N loses on the spot, so the player who is left at N − 1 has
    /// lost: their only move is to say N. Nimatron therefore models the game
    /// with the moves that say 1 to N − 1 and *normal play*: the player to
    /// move at N − 1 has no move left and loses. This is Wikipedia's
    /// subtraction game on a heap of N − 1 − total objects, and it is exactly
    /// the game as played, because saying N early is never anything but an
    /// immediate loss. A typed `say N` is refused with that reason.
    ///
    /// The ending is part of the rules, so misère play is not offered: the
    /// opposite ending (whoever says N wins) is [`Ending::ReachingNWins`],
    /// which in misère play is this game again.
    SayingNLoses,
    /// The 100 game (`hundred[:K,N]`): whoever reaches N wins. Under misère
    /// play whoever reaches N loses, which is [`Ending::SayingNLoses`] again.
    ReachingNWins,
}

/// A counting game with K = `max_add` and N = `target`, ended by `ending`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Counting {
    /// K: the most added in one turn (at least 1).
    pub max_add: u64,
    /// N: the total that ends the game (at least 1).
    pub target: u64,
    /// Whether saying N loses (21) or reaching it wins (100).
    pub ending: Ending,
}

const TWENTY_ONE_SYNTAX: &str =
    "the running total, a whole number from 0 (the start) to N - 1, e.g. '5'";

const HUNDRED_SYNTAX: &str = "the running total, a whole number from 0 (the start) to N, e.g. '45'";

impl Counting {
    /// The largest total a move may say: N − 1 when saying N loses (the
    /// model leaves that move out), N when reaching it wins.
    fn highest(&self) -> u64 {
        match self.ending {
            Ending::SayingNLoses => self.target - 1,
            Ending::ReachingNWins => self.target,
        }
    }

    fn count(&self) -> Count {
        Count {
            max_add: self.max_add,
            highest: self.highest(),
        }
    }

    /// K + 1, the period of the winning totals.
    fn period(&self) -> u128 {
        self.max_add as u128 + 1
    }

    /// The normal-play Grundy value: (highest − total) mod (K + 1), the
    /// subtraction game S(1..K) on a heap of what is left to say.
    fn grundy(&self, total: u64) -> Nimber {
        Nimber(((self.highest() - total) as u128 % self.period()) as u64)
    }

    /// The winning totals (the ones to reach) under `convention`, smallest
    /// first, as (first, step, last): those t with highest − t (normal
    /// play) or highest − 1 − t (misère play) a multiple of K + 1.
    fn winning_totals(&self, convention: Convention) -> (u64, u64, u64) {
        let step = self.max_add.saturating_add(1);
        let last = match convention {
            Convention::Normal => self.highest(),
            Convention::Misere => self.highest() - 1,
        };
        ((last as u128 % self.period()) as u64, step, last)
    }

    /// How far `total` is below the next winning total (0 when the player
    /// to move is lost), or None at the highest total in misère play.
    fn shortfall(&self, total: u64, convention: Convention) -> Option<u64> {
        let left = self.highest() - total;
        match convention {
            Convention::Normal => Some((left as u128 % self.period()) as u64),
            Convention::Misere if left == 0 => None,
            Convention::Misere => Some(((left - 1) as u128 % self.period()) as u64),
        }
    }

    fn explain(&self, total: u64, convention: Convention) -> String {
        match self.ending {
            Ending::SayingNLoses => self.explain_twenty_one(total),
            Ending::ReachingNWins => self.explain_hundred(total, convention),
        }
    }

    fn explain_twenty_one(&self, total: u64) -> String {
        let (k, n) = (self.max_add, self.target);
        let (first, step, last) = self.winning_totals(Convention::Normal);
        let safe = list_totals(first, step, last);
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
        let r = self.grundy(total).0;
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

    fn explain_hundred(&self, total: u64, convention: Convention) -> String {
        let (k, n) = (self.max_add, self.target);
        let (first, step, last) = self.winning_totals(convention);
        let list = list_totals(first, step, last);
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

impl Rules for Counting {
    type Position = u64;
    type Move = Say;

    fn moves(&self, total: &u64) -> Vec<Say> {
        self.count().moves(*total)
    }

    fn apply(&self, _total: &u64, mv: &Say) -> u64 {
        mv.total
    }
}

impl Notation for Counting {
    fn parse_position(&self, text: &str) -> Result<u64, PositionError> {
        let (n, highest) = (self.target, self.highest());
        let total = parse_total(text, highest, self.position_syntax())?;
        let (name, past) = match self.ending {
            Ending::SayingNLoses if total == n => {
                return Err(PositionError::new(
                    format!("total {n} ends the game: whoever said {n} has lost"),
                    format!("give a total from 0 to {highest}"),
                ));
            }
            Ending::SayingNLoses => ("twenty-one", "reaches"),
            Ending::ReachingNWins => ("hundred", "passes"),
        };
        if total > n {
            return Err(PositionError::new(
                format!(
                    "total {total} is above {n}, which no game of {name}:{},{n} {past}",
                    self.max_add
                ),
                format!("give a total from 0 to {highest}"),
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
        if self.ending == Ending::SayingNLoses {
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
        }
        self.count().parse_move(*total, input)
    }
    fn format_move(&self, _total: &u64, mv: &Say) -> String {
        format!("say {}", mv.total)
    }
    fn describe_move(&self, total: &u64, mv: &Say) -> String {
        let mut s = format!("say {} (add {})", mv.total, mv.total - total);
        if self.ending == Ending::SayingNLoses && mv.total == self.target - 1 {
            s.push_str(&format!(", forcing the opponent to say {}", self.target));
        }
        s
    }
    fn render(&self, total: &u64) -> String {
        let n = self.target;
        match self.ending {
            Ending::SayingNLoses if *total == n - 1 => {
                format!("  Total: {total}. The player to move must say {n} and loses.\n")
            }
            Ending::SayingNLoses => format!(
                "  Total: {total}   (add 1 to {}; whoever says {n} loses)\n",
                self.max_add
            ),
            Ending::ReachingNWins if *total == n => {
                format!("  Total: {total}. The total is reached.\n")
            }
            Ending::ReachingNWins => format!(
                "  Total: {total}   (add 1 to {}; the game ends at {n})\n",
                self.max_add
            ),
        }
    }
    fn material(&self, total: &u64) -> u64 {
        self.highest() - total
    }
    fn position_syntax(&self) -> &'static str {
        match self.ending {
            Ending::SayingNLoses => TWENTY_ONE_SYNTAX,
            Ending::ReachingNWins => HUNDRED_SYNTAX,
        }
    }
    fn move_syntax(&self) -> String {
        String::from(MOVE_SYNTAX)
    }
    fn board(&self, total: &u64) -> crate::Board {
        board(*total, self.max_add, self.target)
    }
    fn touches(&self, total: &u64, say: &Say) -> Vec<crate::Element> {
        touches(*total, say)
    }
    fn moves_left_bound(&self, total: &u64) -> Option<u64> {
        Some(self.target.saturating_sub(*total))
    }
}

impl Theory for Counting {
    fn description(&self) -> Description {
        match self.ending {
            Ending::SayingNLoses => Description {
                rules: "Players take turns adding 1 to K to a running total that starts at 0, never going past N; whoever says N loses (twenty-one:3,21 is the classic 21 game). The player left at N - 1 has lost, since they must say N.",
                example: "5",
                theory: "Say the totals t with N - 1 - t a multiple of K + 1 (for 3,21: 0, 4, 8, 12, 16, 20; for 5,34: 3, 9, 15, 21, 27, 33): from such a total every addition falls short of the next one and the reply completes it, so the opponent is finally forced to say N. It is the subtraction game S(1..K) on a heap of N - 1 - total, Grundy value (N - 1 - total) mod (K + 1). Checked against exhaustive search for every total of every game with K up to 8 and N up to 40, and on Wikipedia's sample game. The ending is fixed by the rules, so misère play is not offered.",
                citation: "Nim, Wikipedia, section \"The 21 game\"; E. R. Berlekamp, J. H. Conway, R. K. Guy, Winning Ways for your Mathematical Plays, 2nd ed., A K Peters 2001, vol. 1 ch. 4 (subtraction games).",
            },
            Ending::ReachingNWins => Description {
                rules: "Players take turns adding 1 to K to a running total that starts at 0, never going past N; whoever reaches N wins (hundred:10,100 is the classic 100 game). Under misère play whoever reaches N loses, which is twenty-one:K,N.",
                example: "45",
                theory: "Reach the totals t with N - t a multiple of K + 1 (for 10,100: 1, 12, 23, 34, 45, 56, 67, 78, 89, 100 - Wikipedia's totals with consecutive digits; once you reach 89 the opponent can only say 90 to 99): from such a total every addition falls short of the next one and the reply completes it. It is the subtraction game S(1..K) on a heap of N - total, Grundy value (N - total) mod (K + 1); under misère play the totals to reach are those with N - 1 - t a multiple of K + 1. Checked against exhaustive search for every total of every game with K up to 8 and N up to 40, in both conventions.",
                citation: "Nim, Wikipedia, section \"The 100 game\"; E. R. Berlekamp, J. H. Conway, R. K. Guy, Winning Ways for your Mathematical Plays, 2nd ed., A K Peters 2001, vol. 1 ch. 4 (subtraction games).",
            },
        }
    }

    fn conventions(&self) -> &'static [Convention] {
        match self.ending {
            Ending::SayingNLoses => &[Convention::Normal],
            Ending::ReachingNWins => BOTH_CONVENTIONS,
        }
    }

    fn convention_note(&self) -> &'static str {
        match self.ending {
            Ending::SayingNLoses => {
                "the 21 game fixes its own ending: whoever says N loses. There is no misère form of it; the opposite ending, whoever reaches N wins, is hundred:K,N, and hundred:K,N in misère play is this game again"
            }
            Ending::ReachingNWins => "",
        }
    }

    fn closed_form(&self, total: &u64, convention: Convention) -> Option<Verdict<Say>> {
        if !self.conventions().contains(&convention) || *total > self.highest() {
            return None;
        }
        let (outcome, winning_moves) = match self.shortfall(*total, convention) {
            None => (Outcome::N, Vec::new()),
            Some(0) => (Outcome::P, Vec::new()),
            Some(r) => (Outcome::N, vec![Say { total: total + r }]),
        };
        let period = self.period();
        Some(Verdict {
            details: Default::default(),
            outcome,
            grundy: Some(self.grundy(*total)),
            winning_moves,
            explanation: self.explain(*total, convention),
            theorem: match (self.ending, convention) {
                (Ending::SayingNLoses, _) => {
                    format!("say the totals t with N - 1 - t ≡ 0 mod {period}")
                }
                (Ending::ReachingNWins, Convention::Normal) => {
                    format!("reach the totals t with N - t ≡ 0 mod {period}")
                }
                (Ending::ReachingNWins, Convention::Misere) => {
                    format!("misère: reach the totals t with N - 1 - t ≡ 0 mod {period}")
                }
            },
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::check::closed_form_agrees_with_search;

    fn twenty_one(max_add: u64, target: u64) -> Counting {
        Counting {
            max_add,
            target,
            ending: Ending::SayingNLoses,
        }
    }

    fn hundred(max_add: u64, target: u64) -> Counting {
        Counting {
            max_add,
            target,
            ending: Ending::ReachingNWins,
        }
    }

    #[test]
    fn moves_stop_at_the_highest_total() {
        let c = Count {
            max_add: 3,
            highest: 20,
        };
        let totals: Vec<u64> = c.moves(18).iter().map(|s| s.total).collect();
        assert_eq!(totals, vec![19, 20]);
        assert!(c.moves(20).is_empty());
    }

    #[test]
    fn typed_moves() {
        let c = Count {
            max_add: 3,
            highest: 20,
        };
        assert_eq!(c.parse_move(5, "8"), Ok(Say { total: 8 }));
        assert_eq!(c.parse_move(5, "say 8"), Ok(Say { total: 8 }));
        assert_eq!(c.parse_move(5, "+3"), Ok(Say { total: 8 }));
        assert_eq!(c.parse_move(5, "add 3"), Ok(Say { total: 8 }));
        assert_eq!(c.parse_move(5, "+ 1"), Ok(Say { total: 6 }));
        for (input, says) in [
            ("9", "would add 4"),
            ("3", "already 5"),
            ("+4", "add 1 to 3"),
            ("+0", "add 1 to 3"),
            ("x", "'x' is not a whole number"),
            ("say", "not a whole number"),
            ("say 8 now", "is not a move"),
        ] {
            let e = c.parse_move(5, input).unwrap_err().to_string();
            assert!(e.contains(says), "{input}: {e}");
        }
        let e = c.parse_move(19, "21").unwrap_err().to_string();
        assert!(e.contains("past 20"), "{e}");
    }

    #[test]
    fn long_lists_are_cut() {
        assert_eq!(
            list_totals(1, 11, 100),
            "1, 12, 23, 34, 45, 56, 67, 78, 89, 100"
        );
        assert_eq!(
            list_totals(0, 2, 100),
            "0, 2, 4, …, 96, 98, 100 (51 totals)"
        );
    }

    #[test]
    fn twenty_one_closed_form_agrees_with_search() {
        let mut checked = 0;
        for k in 1..=8 {
            for n in 1..=40 {
                let game = twenty_one(k, n);
                checked += closed_form_agrees_with_search(&game, 0..n)
                    .unwrap_or_else(|e| panic!("twenty-one:{k},{n}: {e}"));
            }
        }
        assert_eq!(checked, 8 * (1..=40).sum::<usize>());
    }

    #[test]
    fn the_safe_totals_of_the_classic_games() {
        let game = twenty_one(3, 21);
        let safe: Vec<u64> = (0..21).filter(|&t| game.grundy(t) == Nimber(0)).collect();
        assert_eq!(safe, vec![0, 4, 8, 12, 16, 20]); // "say a multiple of 4"
        let game = twenty_one(5, 34);
        let safe: Vec<u64> = (0..34).filter(|&t| game.grundy(t) == Nimber(0)).collect();
        assert_eq!(safe, vec![3, 9, 15, 21, 27, 33]);
    }

    #[test]
    fn huge_parameters_do_not_overflow() {
        let game = twenty_one(u64::MAX, u64::MAX);
        let v = game.closed_form(&0, Convention::Normal).expect("a verdict");
        assert_eq!(v.outcome, Outcome::N);
        assert_eq!(
            v.winning_moves,
            vec![Say {
                total: u64::MAX - 1
            }]
        );
    }

    #[test]
    fn hundred_closed_form_agrees_with_search() {
        let mut checked = 0;
        for k in 1..=8 {
            for n in 1..=40 {
                let game = hundred(k, n);
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
                let (misere_hundred, classic) = (hundred(k, n), twenty_one(k, n));
                for t in 0..n {
                    let a = misere_hundred.closed_form(&t, Convention::Misere).unwrap();
                    let b = classic.closed_form(&t, Convention::Normal).unwrap();
                    assert_eq!(a.outcome, b.outcome, "{k},{n} at {t}");
                    assert_eq!(a.winning_moves, b.winning_moves, "{k},{n} at {t}");
                }
            }
        }
    }

    #[test]
    fn the_seeds_totals() {
        let game = hundred(10, 100);
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
