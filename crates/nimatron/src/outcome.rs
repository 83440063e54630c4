//! Outcomes and play conventions.

use std::fmt;
use std::str::FromStr;

/// The outcome class of a position, relative to the player to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Outcome {
    /// The **N**ext player, the one to move, wins with perfect play.
    N,
    /// The **P**revious player, the one who just moved, wins with perfect play.
    P,
}

impl Outcome {
    /// Whether the player to move wins.
    pub const fn to_move_wins(self) -> bool {
        matches!(self, Outcome::N)
    }

    /// The outcome class from a "player to move wins" flag.
    pub const fn from_to_move_wins(wins: bool) -> Outcome {
        if wins { Outcome::N } else { Outcome::P }
    }

    /// The stable name: `N` or `P`.
    pub const fn name(self) -> &'static str {
        match self {
            Outcome::N => "N",
            Outcome::P => "P",
        }
    }

    /// The verdict in words, for explanations.
    pub const fn verdict(self) -> &'static str {
        match self {
            Outcome::N => "the player to move wins",
            Outcome::P => "the player to move loses against perfect play",
        }
    }
}

impl fmt::Display for Outcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Who wins when no move is left.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Convention {
    /// The player who makes the last move wins.
    #[default]
    Normal,
    /// The player who makes the last move loses.
    Misere,
}

impl Convention {
    /// The stable name: `normal` or `misere`.
    pub const fn name(self) -> &'static str {
        match self {
            Convention::Normal => "normal",
            Convention::Misere => "misere",
        }
    }

    /// The outcome of a position with no moves at all.
    pub const fn terminal_outcome(self) -> Outcome {
        match self {
            Convention::Normal => Outcome::P,
            Convention::Misere => Outcome::N,
        }
    }
}

impl fmt::Display for Convention {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A convention name that is neither `normal` nor `misere`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseConventionError(pub String);

impl fmt::Display for ParseConventionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "unknown convention '{}': expected 'normal' or 'misere'",
            self.0
        )
    }
}

impl std::error::Error for ParseConventionError {}

impl FromStr for Convention {
    type Err = ParseConventionError;
    fn from_str(s: &str) -> Result<Convention, ParseConventionError> {
        match s.to_ascii_lowercase().as_str() {
            "normal" => Ok(Convention::Normal),
            "misere" | "misère" => Ok(Convention::Misere),
            _ => Err(ParseConventionError(s.to_string())),
        }
    }
}
