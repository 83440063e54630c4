//! Game specs: one textual name per game and its parameters, parsed once and
//! printed back the same way. The CLI, the web API and the docs all use it.

use std::fmt;
use std::str::FromStr;

/// A game Nimatron knows, with its parameters.
///
/// `Display` prints the canonical spec, and parsing it gives the same value.
///
/// ```
/// use nimatron::GameSpec;
/// let spec: GameSpec = "nim".parse()?;
/// assert_eq!(spec, GameSpec::Nim);
/// assert_eq!(spec.to_string(), "nim");
/// # Ok::<(), nimatron::SpecError>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum GameSpec {
    /// Plain Nim: remove any positive number from one heap.
    Nim,
}

impl GameSpec {
    /// Every game name the parser accepts, with a one-line summary.
    pub const CATALOGUE: &'static [(&'static str, &'static str)] =
        &[("nim", "Nim: remove any number of objects from one heap")];
}

impl fmt::Display for GameSpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            GameSpec::Nim => f.write_str("nim"),
        }
    }
}

/// A game spec that does not parse.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SpecError {
    /// The name before any `:` is not a known game.
    UnknownGame {
        /// The name given.
        name: String,
    },
    /// The game is known but its parameters are wrong.
    BadParameters {
        /// The game name.
        game: String,
        /// The parameter text given.
        given: String,
        /// What is accepted instead.
        expected: String,
    },
}

impl fmt::Display for SpecError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SpecError::UnknownGame { name } => {
                let names: Vec<&str> = GameSpec::CATALOGUE.iter().map(|(n, _)| *n).collect();
                write!(
                    f,
                    "unknown game '{name}': expected one of {} (see `nimatron games`)",
                    names.join(", ")
                )
            }
            SpecError::BadParameters {
                game,
                given,
                expected,
            } => write!(f, "bad parameters '{given}' for game '{game}': {expected}"),
        }
    }
}

impl std::error::Error for SpecError {}

impl FromStr for GameSpec {
    type Err = SpecError;
    fn from_str(s: &str) -> Result<GameSpec, SpecError> {
        let s = s.trim();
        let (name, params) = match s.split_once(':') {
            Some((n, p)) => (n, Some(p)),
            None => (s, None),
        };
        match name.to_ascii_lowercase().as_str() {
            "nim" => match params {
                None => Ok(GameSpec::Nim),
                Some(p) => Err(SpecError::BadParameters {
                    game: "nim".into(),
                    given: p.into(),
                    expected: "nim takes no parameters; write just 'nim'".into(),
                }),
            },
            _ => Err(SpecError::UnknownGame { name: name.into() }),
        }
    }
}
