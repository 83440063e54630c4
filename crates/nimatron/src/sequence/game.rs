//! Heap games whose Grundy sequences Nimatron computes, with one stable
//! textual name each.

use std::fmt;
use std::str::FromStr;

use super::code::{CodeError, OctalCode};

/// A heap game: a rule for moving in one heap, possibly breaking it into
/// several. Its Grundy sequence `G(0), G(1), ...` gives the value of every
/// heap size.
///
/// Names (case-insensitive when parsed; `Display` prints them back):
///
/// | spec                 | game                                                        |
/// |----------------------|-------------------------------------------------------------|
/// | `octal:CODE`         | any take-and-break code, e.g. `octal:0.137`, `octal:4.07`, `octal:0.F` |
/// | `kayles`             | Kayles, `0.77`                                              |
/// | `dawson`             | Dawson's Kayles, `0.07`                                     |
/// | `officers`           | Officers, `0.6`                                             |
/// | `treblecross`        | Treblecross, `0.007`                                        |
/// | `double-kayles`      | Double Kayles, `0.7777`                                     |
/// | `grundy-game`        | split one heap into two unequal non-empty heaps             |
/// | `subtraction:1,2,3`  | remove 1, 2 or 3 (any finite set of positive integers)     |
/// | `subtraction:squares`| remove any positive square                                  |
/// | `modular:M:R`        | remove any positive `t` with `t mod M` in `R`, e.g. `modular:3:1,2` |
///
/// ```
/// use nimatron::sequence::HeapGame;
/// let game: HeapGame = "kayles".parse()?;
/// assert_eq!(game.octal_code().unwrap().to_string(), "0.77");
/// let sub: HeapGame = "subtraction:3,1,2".parse()?;
/// assert_eq!(sub.to_string(), "subtraction:1,2,3");
/// assert!("subtraction:0,2".parse::<HeapGame>().is_err());
/// # Ok::<(), nimatron::sequence::HeapGameError>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum HeapGame {
    /// A take-and-break game given by its code.
    Octal(OctalCode),
    /// A named octal game.
    Preset(Preset),
    /// Grundy's game: split one heap into two unequal non-empty heaps.
    GrundyGame,
    /// Remove any element of a finite set (sorted, without repeats).
    Subtraction(Vec<u64>),
    /// Remove any positive square.
    SubtractSquares,
    /// Remove any positive `t` with `t mod modulus` in `residues` (sorted,
    /// without repeats, each below `modulus`).
    Modular {
        /// `M`.
        modulus: u64,
        /// `R`.
        residues: Vec<u64>,
    },
}

/// The named octal games.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Preset {
    /// Kayles, `0.77`: knock down one pin or two adjacent pins from a row.
    Kayles,
    /// Dawson's Kayles, `0.07`: knock down two adjacent pins.
    Dawson,
    /// Officers, `0.6`: take one object, leaving one or two non-empty heaps.
    Officers,
    /// Treblecross, `0.007`: one-dimensional tic-tac-toe with crosses only.
    Treblecross,
    /// Double Kayles, `0.7777`: knock down one to four adjacent pins.
    DoubleKayles,
}

impl Preset {
    /// Every preset.
    pub const ALL: [Preset; 5] = [
        Preset::Kayles,
        Preset::Dawson,
        Preset::Officers,
        Preset::Treblecross,
        Preset::DoubleKayles,
    ];

    /// The stable name.
    pub const fn name(self) -> &'static str {
        match self {
            Preset::Kayles => "kayles",
            Preset::Dawson => "dawson",
            Preset::Officers => "officers",
            Preset::Treblecross => "treblecross",
            Preset::DoubleKayles => "double-kayles",
        }
    }

    /// The take-and-break code, as text.
    pub const fn code_text(self) -> &'static str {
        match self {
            Preset::Kayles => "0.77",
            Preset::Dawson => "0.07",
            Preset::Officers => "0.6",
            Preset::Treblecross => "0.007",
            Preset::DoubleKayles => "0.7777",
        }
    }

    /// The code.
    pub fn code(self) -> OctalCode {
        self.code_text().parse().expect("preset codes are valid")
    }
}

impl HeapGame {
    /// Every spec form the parser accepts, with a one-line summary.
    pub const CATALOGUE: &'static [(&'static str, &'static str)] = &[
        (
            "octal:CODE",
            "take-and-break game by its code, e.g. octal:0.137, octal:4.07 (hex digits for three heaps)",
        ),
        ("kayles", "Kayles, octal 0.77"),
        ("dawson", "Dawson's Kayles, octal 0.07"),
        ("officers", "Officers, octal 0.6"),
        ("treblecross", "Treblecross, octal 0.007"),
        ("double-kayles", "Double Kayles, octal 0.7777"),
        (
            "grundy-game",
            "Grundy's game: split a heap into two unequal heaps",
        ),
        (
            "subtraction:S",
            "remove any element of S, e.g. subtraction:1,2,3",
        ),
        ("subtraction:squares", "remove any positive square"),
        (
            "modular:M:R",
            "remove any positive t with t mod M in R, e.g. modular:3:1,2",
        ),
    ];

    /// The take-and-break code, for octal games and presets (and finite
    /// subtraction games, which are the codes with digits 3).
    pub fn octal_code(&self) -> Option<OctalCode> {
        match self {
            HeapGame::Octal(code) => Some(code.clone()),
            HeapGame::Preset(p) => Some(p.code()),
            _ => None,
        }
    }

    /// The compiled move rule used by the solvers.
    pub(crate) fn rule(&self) -> Rule {
        match self {
            HeapGame::Octal(code) => Rule::TakeBreak(TakeBreak::from_code(code)),
            HeapGame::Preset(p) => Rule::TakeBreak(TakeBreak::from_code(&p.code())),
            HeapGame::GrundyGame => Rule::TakeBreak(TakeBreak {
                take_all: Vec::new(),
                leave_one: Vec::new(),
                split_two: vec![0],
                split_three: Vec::new(),
                unequal: true,
                reach: 0,
            }),
            HeapGame::Subtraction(set) => Rule::TakeBreak(TakeBreak {
                take_all: set.clone(),
                leave_one: set.clone(),
                split_two: Vec::new(),
                split_three: Vec::new(),
                unequal: false,
                reach: set.last().copied().unwrap_or(0),
            }),
            HeapGame::SubtractSquares => Rule::Squares,
            HeapGame::Modular { modulus, residues } => Rule::Modular {
                modulus: *modulus,
                residues: residues.clone(),
            },
        }
    }

    /// Whether the octal periodicity theorem (or its subtraction-game form)
    /// can prove a period for this game.
    pub fn periodicity_provable(&self) -> bool {
        matches!(self.rule(), Rule::TakeBreak(ref t) if !t.unequal)
    }
}

/// The move rule of a heap game, in the form the solvers use.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Rule {
    TakeBreak(TakeBreak),
    Squares,
    Modular { modulus: u64, residues: Vec<u64> },
}

/// A take-and-break rule, digit by digit.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct TakeBreak {
    /// `k` such that taking `k` may empty a heap of exactly `k`.
    pub take_all: Vec<u64>,
    /// `k` such that taking `k` may leave one non-empty heap.
    pub leave_one: Vec<u64>,
    /// `k` such that taking `k` may leave two non-empty heaps.
    pub split_two: Vec<u64>,
    /// `k` such that taking `k` may leave three non-empty heaps.
    pub split_three: Vec<u64>,
    /// Two-heap splits must be unequal (Grundy's game).
    pub unequal: bool,
    /// The largest `k` of any move.
    pub reach: u64,
}

impl Rule {
    /// A bound on the Grundy value of a heap of `n`: a mex is at most the
    /// number of options. Three-heap codes are computed only while values
    /// stay below 256.
    pub fn max_value(&self, n: u64) -> u64 {
        match self {
            Rule::TakeBreak(t) if !t.split_three.is_empty() => 255,
            Rule::TakeBreak(t) => {
                (t.take_all.len() + t.leave_one.len()) as u64
                    + (t.split_two.len() as u64).saturating_mul(n)
            }
            Rule::Squares | Rule::Modular { .. } => n,
        }
    }
}

impl TakeBreak {
    pub fn from_code(code: &OctalCode) -> TakeBreak {
        let mut rule = TakeBreak {
            take_all: Vec::new(),
            leave_one: Vec::new(),
            split_two: Vec::new(),
            split_three: Vec::new(),
            unequal: false,
            reach: code.reach(),
        };
        for (k, &d) in code.digits().iter().enumerate() {
            let k = k as u64;
            if d & 1 != 0 && k > 0 {
                rule.take_all.push(k);
            }
            if d & 2 != 0 && k > 0 {
                rule.leave_one.push(k);
            }
            if d & 4 != 0 {
                rule.split_two.push(k);
            }
            if d & 8 != 0 {
                rule.split_three.push(k);
            }
        }
        rule
    }

    /// The most heaps one move leaves.
    pub fn max_heaps_left(&self) -> u64 {
        if !self.split_three.is_empty() {
            3
        } else if !self.split_two.is_empty() {
            2
        } else {
            1
        }
    }

    /// Whether all two-heap split digits have the same parity, so that the
    /// position-parity refinement of the sparse method applies.
    pub fn splits_share_parity(&self) -> bool {
        self.split_two
            .first()
            .is_some_and(|&k0| self.split_two.iter().all(|&k| (k ^ k0) & 1 == 0))
    }
}

impl fmt::Display for HeapGame {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            HeapGame::Octal(code) => write!(f, "octal:{code}"),
            HeapGame::Preset(p) => f.write_str(p.name()),
            HeapGame::GrundyGame => f.write_str("grundy-game"),
            HeapGame::Subtraction(set) => {
                f.write_str("subtraction:")?;
                write_list(f, set)
            }
            HeapGame::SubtractSquares => f.write_str("subtraction:squares"),
            HeapGame::Modular { modulus, residues } => {
                write!(f, "modular:{modulus}:")?;
                write_list(f, residues)
            }
        }
    }
}

fn write_list(f: &mut fmt::Formatter<'_>, list: &[u64]) -> fmt::Result {
    for (i, x) in list.iter().enumerate() {
        if i > 0 {
            f.write_str(",")?;
        }
        write!(f, "{x}")?;
    }
    Ok(())
}

/// A heap-game spec that does not parse.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum HeapGameError {
    /// The name before any `:` is not a heap game.
    UnknownName {
        /// The name given.
        name: String,
    },
    /// `octal:` with a bad code.
    BadCode {
        /// The code given.
        given: String,
        /// What is wrong with it.
        error: CodeError,
    },
    /// The game takes no parameters but was given some.
    UnexpectedParameters {
        /// The game.
        game: String,
        /// The parameters given.
        given: String,
    },
    /// Bad parameters for `subtraction:` or `modular:`.
    BadParameters {
        /// The game.
        game: &'static str,
        /// The parameter text given.
        given: String,
        /// What is wrong and what is accepted.
        reason: String,
    },
}

impl fmt::Display for HeapGameError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            HeapGameError::UnknownName { name } => {
                let names: Vec<&str> = HeapGame::CATALOGUE.iter().map(|(n, _)| *n).collect();
                // A typo of a heap game's name gets the name it meant.
                let near = crate::GameSpec::nearest_name(name)
                    .filter(|near| names.iter().any(|n| n.split(':').next() == Some(*near)));
                write!(f, "unknown heap game '{name}': ")?;
                if let Some(near) = near {
                    write!(f, "did you mean '{near}'? ")?;
                }
                write!(f, "expected one of {}", names.join(", "))
            }
            HeapGameError::BadCode { given, error } => {
                write!(f, "bad take-and-break code '{given}': {error}")
            }
            HeapGameError::UnexpectedParameters { game, given } => write!(
                f,
                "'{game}' takes no parameters, but ':{given}' was given; write just '{game}'"
            ),
            HeapGameError::BadParameters {
                game,
                given,
                reason,
            } => write!(f, "bad parameters '{given}' for '{game}': {reason}"),
        }
    }
}

impl std::error::Error for HeapGameError {}

/// Parses a comma-separated list of whole numbers.
fn parse_list(text: &str) -> Result<Vec<u64>, String> {
    if text.trim().is_empty() {
        return Err("the list is empty".into());
    }
    text.split(',')
        .map(|item| {
            let item = item.trim();
            item.parse::<u64>().map_err(|_| {
                if item.is_empty() {
                    "an element of the list is empty (two commas in a row?)".to_string()
                } else {
                    format!("'{item}' is not a whole number")
                }
            })
        })
        .collect()
}

impl HeapGame {
    /// Whether a spec with no `:` is written as a bare take-and-break code
    /// (`0.6`, `.137`, `4.07`), which reads as `octal:CODE`.
    pub(crate) fn is_bare_code(name: &str) -> bool {
        name.contains('.') && name.starts_with(|c: char| c.is_ascii_hexdigit() || c == '.')
    }
}

impl FromStr for HeapGame {
    type Err = HeapGameError;
    fn from_str(s: &str) -> Result<HeapGame, HeapGameError> {
        let s = s.trim();
        let (name, params) = match s.split_once(':') {
            Some((n, p)) => (n.trim(), Some(p)),
            None => (s, None),
        };
        let lower = name.to_ascii_lowercase();
        let no_params = |game: HeapGame| match params {
            None => Ok(game),
            Some(p) => Err(HeapGameError::UnexpectedParameters {
                game: lower.clone(),
                given: p.into(),
            }),
        };
        if let Some(p) = Preset::ALL.iter().find(|p| p.name() == lower) {
            return no_params(HeapGame::Preset(*p));
        }
        // A bare code, as octal-game tables and other solvers write it
        // (`0.6`, `4.07`, `.137`): the same as `octal:CODE`.
        if params.is_none() && HeapGame::is_bare_code(name) {
            return name
                .parse::<OctalCode>()
                .map(HeapGame::Octal)
                .map_err(|error| HeapGameError::BadCode {
                    given: name.into(),
                    error,
                });
        }
        match lower.as_str() {
            "grundy-game" => no_params(HeapGame::GrundyGame),
            "octal" => {
                let given = params.unwrap_or("").trim();
                given
                    .parse::<OctalCode>()
                    .map(HeapGame::Octal)
                    .map_err(|error| HeapGameError::BadCode {
                        given: given.into(),
                        error,
                    })
            }
            "subtraction" => {
                let given = params.unwrap_or("").trim();
                if given.eq_ignore_ascii_case("squares") {
                    return Ok(HeapGame::SubtractSquares);
                }
                let bad = |reason: String| HeapGameError::BadParameters {
                    game: "subtraction",
                    given: given.into(),
                    reason: format!(
                        "{reason}; expected positive whole numbers separated by commas (e.g. subtraction:1,2,3) or 'squares'"
                    ),
                };
                let mut set = parse_list(given).map_err(bad)?;
                if set.contains(&0) {
                    return Err(bad("0 is not a move (nothing would be removed)".into()));
                }
                set.sort_unstable();
                set.dedup();
                Ok(HeapGame::Subtraction(set))
            }
            "modular" => {
                let given = params.unwrap_or("").trim();
                let bad = |reason: String| HeapGameError::BadParameters {
                    game: "modular",
                    given: given.into(),
                    reason: format!(
                        "{reason}; expected modular:M:R with a modulus M >= 1 and residues R below M separated by commas (e.g. modular:3:1,2)"
                    ),
                };
                let Some((m, r)) = given.split_once(':') else {
                    return Err(bad(
                        "missing ':' between the modulus and the residues".into()
                    ));
                };
                let modulus: u64 = m
                    .trim()
                    .parse()
                    .map_err(|_| bad(format!("modulus '{}' is not a whole number", m.trim())))?;
                if modulus == 0 {
                    return Err(bad("the modulus must be at least 1".into()));
                }
                let mut residues = parse_list(r).map_err(bad)?;
                if let Some(&x) = residues.iter().find(|&&x| x >= modulus) {
                    return Err(bad(format!(
                        "residue {x} is not below the modulus {modulus}"
                    )));
                }
                residues.sort_unstable();
                residues.dedup();
                Ok(HeapGame::Modular { modulus, residues })
            }
            _ => Err(HeapGameError::UnknownName { name: name.into() }),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A misspelt heap game gets the name it meant, as the catalogue's
    /// specs do; a name that is no typo of a heap game gets the list only.
    #[test]
    fn a_typo_gets_did_you_mean() {
        for (typo, meant) in [
            ("kayels", "kayles"),
            ("dawsn", "dawson"),
            ("grundy", "grundy-game"),
        ] {
            let e = typo.parse::<HeapGame>().unwrap_err().to_string();
            assert!(
                e.contains(&format!("did you mean '{meant}'?")),
                "{typo}: {e}"
            );
        }
        for other in ["chess", "chomp", "wythoff"] {
            let e = other.parse::<HeapGame>().unwrap_err().to_string();
            assert!(!e.contains("did you mean"), "{other}: {e}");
            assert!(e.contains("expected one of"), "{other}: {e}");
        }
    }

    #[test]
    fn every_form_round_trips() {
        for text in [
            "octal:0.137",
            "octal:4.07",
            "octal:0.F",
            "kayles",
            "dawson",
            "officers",
            "treblecross",
            "double-kayles",
            "grundy-game",
            "subtraction:1,2,3",
            "subtraction:squares",
            "modular:3:1,2",
            "modular:5:0",
        ] {
            let game: HeapGame = text.parse().unwrap();
            assert_eq!(game.to_string(), text);
            assert_eq!(game.to_string().parse::<HeapGame>().unwrap(), game);
        }
        let game: HeapGame = "Kayles".parse().unwrap();
        assert_eq!(game, HeapGame::Preset(Preset::Kayles));
        let game: HeapGame = "subtraction:4, 1,4".parse().unwrap();
        assert_eq!(game, HeapGame::Subtraction(vec![1, 4]));
    }

    /// A bare code, as tables and other solvers write it, is the octal
    /// game of that code; a bad one names what is wrong with the code.
    #[test]
    fn a_bare_code_is_an_octal_game() {
        for (bare, spec) in [
            ("0.6", "octal:0.6"),
            (".137", "octal:0.137"),
            ("4.07", "octal:4.07"),
            ("0.F", "octal:0.F"),
        ] {
            let game: HeapGame = bare.parse().unwrap();
            assert_eq!(game, spec.parse::<HeapGame>().unwrap(), "{bare}");
        }
        let e = "0.6x".parse::<HeapGame>().unwrap_err();
        assert!(matches!(e, HeapGameError::BadCode { .. }), "{e}");
        assert!(e.to_string().contains("0.6x"), "{e}");
    }

    #[test]
    fn bad_specs_are_typed_errors() {
        let e = "subtraction:0,2".parse::<HeapGame>().unwrap_err();
        assert!(matches!(
            e,
            HeapGameError::BadParameters {
                game: "subtraction",
                ..
            }
        ));
        assert!(e.to_string().contains("0 is not a move"), "{e}");
        let e = "subtraction:".parse::<HeapGame>().unwrap_err();
        assert!(e.to_string().contains("empty"), "{e}");
        let e = "subtraction:1,x".parse::<HeapGame>().unwrap_err();
        assert!(e.to_string().contains("'x'"), "{e}");
        let e = "octal:0.1z".parse::<HeapGame>().unwrap_err();
        assert!(matches!(
            e,
            HeapGameError::BadCode {
                error: CodeError::BadCharacter { character: 'z', .. },
                ..
            }
        ));
        let e = "modular:3:4".parse::<HeapGame>().unwrap_err();
        assert!(e.to_string().contains("residue 4"), "{e}");
        let e = "modular:0:1".parse::<HeapGame>().unwrap_err();
        assert!(e.to_string().contains("at least 1"), "{e}");
        let e = "modular:3".parse::<HeapGame>().unwrap_err();
        assert!(e.to_string().contains("missing ':'"), "{e}");
        let e = "kayles:2".parse::<HeapGame>().unwrap_err();
        assert!(matches!(e, HeapGameError::UnexpectedParameters { .. }));
        let e = "chess".parse::<HeapGame>().unwrap_err();
        assert!(e.to_string().contains("grundy-game"), "{e}");
    }

    #[test]
    fn rules_follow_the_digits() {
        let Rule::TakeBreak(r) = HeapGame::Preset(Preset::Kayles).rule() else {
            panic!("kayles is take-and-break")
        };
        assert_eq!(r.take_all, vec![1, 2]);
        assert_eq!(r.leave_one, vec![1, 2]);
        assert_eq!(r.split_two, vec![1, 2]);
        assert_eq!(r.reach, 2);
        assert!(!r.splits_share_parity());
        let Rule::TakeBreak(r) = "octal:4.07".parse::<HeapGame>().unwrap().rule() else {
            panic!()
        };
        assert_eq!(r.split_two, vec![0, 2]);
        assert!(r.splits_share_parity());
    }
}
