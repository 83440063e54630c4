//! The request bodies of the JSON API as they arrive, and the words in them
//! (convention, opponent, level, who starts) checked into typed values.

use nimatron::strategy::Level;
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
    #[schema(example = "normal")]
    pub convention: Option<String>,
    /// Start position; default the game's usual start.
    #[schema(example = "3 4 5")]
    pub position: Option<String>,
    /// A random start (heap games).
    #[serde(default)]
    pub random: bool,
    /// `you` (default), `opponent` or `random`.
    #[schema(example = "you")]
    pub first: Option<String>,
    /// `computer` (default), `local` or `online`.
    #[schema(example = "computer")]
    pub opponent: Option<String>,
    /// Computer level: `perfect` (default), `hard`, `medium`, `easy`.
    #[schema(example = "perfect")]
    pub level: Option<String>,
}

/// A request to move.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct MoveRequest {
    /// The move, in the game's notation (e.g. `A 2`).
    #[serde(rename = "move")]
    #[schema(example = "A 2")]
    pub mv: String,
    /// The ply the mover saw; if given and the game has moved on, the move
    /// is refused instead of being applied to a position nobody saw.
    #[schema(maximum = 4294967295_u64, example = 0)]
    pub ply: Option<u32>,
    /// Against the computer: whether its reply is made in this request
    /// (`true`, the default), or left for `POST /api/games/{id}/computer-move`
    /// (`false`), so that the player sees their own move at once and may
    /// take it back while the computer thinks.
    pub reply: Option<bool>,
}

/// A request to take back moves, to resign, or to ask for a rematch: the
/// body may be empty (`{}`).
#[derive(Debug, Default, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct ActionRequest {
    /// The ply the player saw; if given and the game has moved on, the
    /// request is refused (`stale_ply`).
    #[schema(maximum = 4294967295_u64, example = 3)]
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
    /// The invite code the creator sent.
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
    #[schema(example = "normal")]
    pub convention: Option<String>,
    /// The position.
    #[schema(example = "3 4 5")]
    pub position: String,
    /// The first legal move to value in `moves`, counting from 0 (default
    /// 0): with `moves_limit`, a page of a position's moves.
    #[schema(maximum = 18446744073709551615_u64, example = 0)]
    pub moves_offset: Option<u64>,
    /// Value at most this many moves (default and most: the server's
    /// `--max-listed`).
    #[schema(minimum = 1, maximum = 18446744073709551615_u64, example = 100)]
    pub moves_limit: Option<u64>,
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
    if text.len() > MAX_POSITION_TEXT {
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

/// How a convention is written in requests, records and views.
pub(crate) fn convention_name(c: Convention) -> &'static str {
    match c {
        Convention::Normal => "normal",
        Convention::Misere => "misere",
    }
}
