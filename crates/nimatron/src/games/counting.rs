//! Notation shared by the counting games (`twenty-one`, `hundred`): the
//! position is the running total, and a move says a larger total.
//!
//! A move is typed as the total to say (`12` or `say 12`) or as the amount
//! to add (`+3` or `add 3`). A bare number is always the total to say.

use crate::{MoveError, PositionError};

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

#[cfg(test)]
mod tests {
    use super::*;

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
}
