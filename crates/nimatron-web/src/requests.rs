//! The request bodies of the JSON API as they arrive, and the words in them
//! (convention, opponent, level, who starts) checked into typed values.

use nimatron::Level;
use nimatron::{Convention, Game};
use serde::Deserialize;
use utoipa::ToSchema;

use crate::error::ApiError;
use crate::store::Mode;
use crate::token;

/// The longest position text accepted.
pub const MAX_POSITION_TEXT: usize = 1000;

/// A request to create a game.
#[derive(Clone, Debug, Default, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct NewGame {
    /// Game spec, default `nim`.
    #[schema(example = "nim")]
    pub game: Option<String>,
    /// `normal` (default) or `misere`.
    #[schema(value_type = Option<ConventionWord>, example = "normal")]
    pub convention: Option<String>,
    /// Start position; default the game's usual start.
    #[schema(example = "3 4 5", max_length = 1000)]
    pub position: Option<String>,
    /// A random start (heap games).
    #[serde(default)]
    pub random: bool,
    /// `you` (default), `opponent` or `random`.
    #[schema(value_type = Option<FirstWord>, example = "you")]
    pub first: Option<String>,
    /// `computer` (default), `local` or `online`.
    #[schema(value_type = Option<OpponentWord>, example = "computer")]
    pub opponent: Option<String>,
    /// Computer level: `perfect` (default), `hard`, `medium`, `easy`. Only
    /// for games against the computer.
    #[schema(value_type = Option<LevelWord>, example = "perfect")]
    pub level: Option<String>,
}

/// A request to move.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct MoveRequest {
    /// The move, in the game's notation (e.g. `A 2`).
    #[serde(rename = "move")]
    #[schema(example = "A 2", max_length = 200)]
    pub mv: String,
    /// The ply the mover saw; if given and the game has moved on, the move
    /// is refused instead of being applied to a position nobody saw.
    #[schema(maximum = 4294967295_u64, example = 0)]
    #[serde(default, deserialize_with = "whole")]
    pub ply: Option<u32>,
    /// Against the computer: whether its reply is made in this request
    /// (`true`, the default), or left for `POST /api/games/{id}/computer-move`
    /// (`false`), so that the player sees their own move at once and may
    /// take it back while the computer thinks.
    pub reply: Option<bool>,
}

/// The body of a seat's act that needs nothing more than, optionally, the
/// ply the player saw: the computer's move, a take-back, resigning, a
/// rematch. It may be left out, or be `{}`.
#[derive(Debug, Default, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct ActionRequest {
    /// The ply the player saw; if given and the game has moved on, the
    /// request is refused (`stale_ply`).
    #[schema(maximum = 4294967295_u64, example = 3)]
    #[serde(default, deserialize_with = "whole")]
    pub ply: Option<u32>,
}

/// A seat's answer on showing the analysis during an online game.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct ConsentRequest {
    /// `true` to agree (the analysis is shown once both seats agree),
    /// `false` to withdraw.
    pub agree: bool,
}

/// A request to take the second seat of an online game.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct JoinRequest {
    /// The invite code the creator sent: 32 hex digits.
    #[schema(pattern = "^[0-9a-f]{32}$")]
    pub invite: String,
}

/// A request to analyse a position without a game.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct AnalyzeRequest {
    /// Game spec, default `nim`.
    #[schema(example = "nim")]
    pub game: Option<String>,
    /// `normal` (default) or `misere`.
    #[schema(value_type = Option<ConventionWord>, example = "normal")]
    pub convention: Option<String>,
    /// The position.
    #[schema(example = "3 4 5", max_length = 1000)]
    pub position: String,
    /// The first legal move to value in `moves`, counting from 0 (default
    /// 0): with `moves_limit`, a page of a position's moves.
    #[schema(maximum = 18446744073709551615_u64, example = 0)]
    #[serde(default, deserialize_with = "whole")]
    pub moves_offset: Option<u64>,
    /// Value at most this many moves (default and most: the server's
    /// `--max-listed`).
    #[schema(minimum = 1, maximum = 18446744073709551615_u64, example = 100)]
    #[serde(default, deserialize_with = "whole")]
    pub moves_limit: Option<u64>,
}

/// A whole number of a body, which JSON may write as `3` or `3.0` (JSON
/// Schema's `integer`, which the document gives, takes both); `null` is
/// none. Anything else (a fraction, a negative number, one past the
/// type's range, text) is refused, naming what is accepted.
fn whole<'de, D, T>(d: D) -> Result<Option<T>, D::Error>
where
    D: serde::Deserializer<'de>,
    T: TryFrom<u64> + num_bounds::Max,
{
    use serde::de::Error;
    let Some(n) = Option::<serde_json::Number>::deserialize(d)? else {
        return Ok(None);
    };
    let max = T::MAX_U64;
    let value = match (n.as_u64(), n.as_f64()) {
        (Some(v), _) => Some(v),
        // 2^64: below it, a whole float is a u64 exactly.
        (None, Some(f)) if f.fract() == 0.0 && (0.0..18_446_744_073_709_551_616.0).contains(&f) => {
            Some(f as u64)
        }
        _ => None,
    };
    value
        .and_then(|v| T::try_from(v).ok())
        .map(Some)
        .ok_or_else(|| D::Error::custom(format!("{n} is not a whole number from 0 to {max}")))
}

mod num_bounds {
    /// The largest value of an unsigned type, as a `u64`.
    pub trait Max {
        const MAX_U64: u64;
    }

    impl Max for u32 {
        const MAX_U64: u64 = u32::MAX as u64;
    }

    impl Max for u64 {
        const MAX_U64: u64 = u64::MAX;
    }
}

/// The conventions, as the document lists them (the server also reads
/// `misère`, in any case). These types only describe a field.
#[derive(ToSchema)]
#[schema(rename_all = "lowercase")]
#[allow(dead_code)]
pub(crate) enum ConventionWord {
    /// The player who makes the last move wins.
    Normal,
    /// The player who makes the last move loses.
    Misere,
}

/// Who moves first in a new game.
#[derive(ToSchema)]
#[schema(rename_all = "lowercase")]
#[allow(dead_code)]
pub(crate) enum FirstWord {
    /// The creator.
    You,
    /// The computer or the friend.
    Opponent,
    /// A coin toss.
    Random,
}

/// Whom a new game is played against.
#[derive(ToSchema)]
#[schema(rename_all = "lowercase")]
#[allow(dead_code)]
pub(crate) enum OpponentWord {
    /// The computer.
    Computer,
    /// A friend at the same screen.
    Local,
    /// A friend elsewhere, through an invite link.
    Online,
}

/// The computer's level.
#[derive(ToSchema)]
#[schema(rename_all = "lowercase")]
#[allow(dead_code)]
pub(crate) enum LevelWord {
    /// Never misses a win.
    Perfect,
    /// Strong, with the odd slip.
    Hard,
    /// Wins when it is easy to.
    Medium,
    /// Mostly random.
    Easy,
}

impl NewGame {
    /// How the game is played: `opponent`, default against the computer.
    pub(crate) fn mode(&self) -> Result<Mode, ApiError> {
        match self.opponent.as_deref() {
            None => Ok(Mode::Computer),
            Some(s) => Mode::parse(s).ok_or_else(|| {
                ApiError::bad_request(
                    "bad_opponent",
                    format!("unknown opponent '{s}': expected 'computer', 'local' or 'online'"),
                )
            }),
        }
    }

    /// The computer's level in a game against it (default perfect); no
    /// level otherwise.
    pub(crate) fn level(&self, mode: Mode) -> Result<Option<Level>, ApiError> {
        match (mode, self.level.as_deref()) {
            (Mode::Computer, l) => {
                Ok(Some(l.unwrap_or("perfect").parse::<Level>().map_err(
                    |e| ApiError::bad_request("bad_level", e.to_string()),
                )?))
            }
            (_, None) => Ok(None),
            (_, Some(_)) => Err(ApiError::bad_request(
                "bad_request",
                "'level' is for games against the computer",
            )),
        }
    }

    /// The seat that moves first: 0 for the creator (default), 1 for the
    /// opponent, or a coin toss.
    pub(crate) fn first_seat(&self) -> Result<u8, ApiError> {
        match self.first.as_deref().unwrap_or("you") {
            "you" | "me" | "creator" => Ok(0),
            "opponent" | "computer" | "friend" => Ok(1),
            "random" => Ok((token::random_u64() & 1) as u8),
            other => Err(ApiError::bad_request(
                "bad_first",
                format!("unknown first player '{other}': expected 'you', 'opponent' or 'random'"),
            )),
        }
    }
}

/// Refuse a position text longer than [`MAX_POSITION_TEXT`].
pub(crate) fn check_position_text(text: &str) -> Result<(), ApiError> {
    // Characters, as the document's `maxLength` counts them (the body's
    // 16 KiB bounds the bytes).
    if text.chars().count() > MAX_POSITION_TEXT {
        return Err(ApiError::unprocessable(
            "position_too_large",
            format!("a position is at most {MAX_POSITION_TEXT} characters"),
        ));
    }
    Ok(())
}

/// Parse `normal`/`misere`.
pub fn parse_convention(text: Option<&str>) -> Result<Convention, ApiError> {
    match text.map(|s| s.trim().to_ascii_lowercase()) {
        None => Ok(Convention::Normal),
        Some(s) if s == "normal" => Ok(Convention::Normal),
        Some(s) if s == "misere" || s == "misère" => Ok(Convention::Misere),
        Some(s) => Err(ApiError::bad_request(
            "bad_convention",
            format!("unknown convention '{s}': expected 'normal' or 'misere'"),
        )),
    }
}

/// The convention asked for, or the game's own when it offers one only
/// (Notakto is misère play), else normal play.
pub(crate) fn default_convention(
    text: Option<&str>,
    game: &dyn Game,
) -> Result<Convention, ApiError> {
    match text {
        None if game.conventions() == [Convention::Misere] => Ok(Convention::Misere),
        _ => parse_convention(text),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ply(body: &str) -> Result<Option<u32>, String> {
        serde_json::from_str::<ActionRequest>(body)
            .map(|r| r.ply)
            .map_err(|e| e.to_string())
    }

    /// Found by schemathesis: JSON Schema's `integer` takes `3.0`, which
    /// the body refused as malformed JSON.
    #[test]
    fn a_whole_number_may_be_written_with_a_fraction_of_zero() {
        assert_eq!(ply("{}"), Ok(None));
        assert_eq!(ply(r#"{"ply": null}"#), Ok(None));
        assert_eq!(ply(r#"{"ply": 3}"#), Ok(Some(3)));
        assert_eq!(ply(r#"{"ply": 52818846.0}"#), Ok(Some(52_818_846)));
        assert_eq!(ply(r#"{"ply": 4294967295}"#), Ok(Some(u32::MAX)));
        assert_eq!(ply(r#"{"ply": 4.0e9}"#), Ok(Some(4_000_000_000)));
        for bad in [
            "3.5",
            "-1",
            "-0.5",
            "4294967296",
            "4294967296.0",
            "1e300",
            "\"3\"",
            "true",
        ] {
            let e = ply(&format!(r#"{{"ply": {bad}}}"#)).expect_err(bad);
            assert!(
                e.contains("whole number from 0 to 4294967295") || e.contains("invalid type"),
                "{bad}: {e}"
            );
        }
        let r: AnalyzeRequest =
            serde_json::from_str(r#"{"position": "1 2", "moves_limit": 1e19}"#).unwrap();
        assert_eq!(r.moves_limit, Some(10_000_000_000_000_000_000));
        assert!(
            serde_json::from_str::<AnalyzeRequest>(
                r#"{"position": "1", "moves_offset": 1.8446744073709552e19}"#
            )
            .is_err()
        );
    }
}
