//! The catalogue: every game Nimatron knows, in one place. A [`GameSpec`]
//! names a game and its parameters, is parsed once and printed back the
//! same way, and builds the game. This is the only module that knows every
//! game; the CLI, the web API and the docs list games from it.

use std::fmt;
use std::str::FromStr;

use crate::games::{
    self, board, building, candy, chomp, circular, counting, fibonacci, graph_nim, greedy,
    hackenbush, moore, node_kayles, notakto, take_break, wordnim, wythoff,
};
use crate::sequence::{HeapGame, HeapGameError};
use crate::{Adapter, Game};

/// A game Nimatron knows, with its parameters.
///
/// `Display` prints the canonical spec, and parsing it gives the same value.
///
/// ```
/// use nimatron::GameSpec;
/// let spec: GameSpec = "moore:2".parse()?;
/// assert_eq!(spec, GameSpec::Moore { heaps_per_move: 2, cap: None });
/// assert_eq!(spec.to_string(), "moore:2");
/// assert_eq!("twenty-one".parse::<GameSpec>()?.to_string(), "twenty-one:3,21");
/// # Ok::<(), nimatron::SpecError>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum GameSpec {
    /// A heap game with a Grundy sequence: a take-and-break (octal or
    /// hexadecimal) code or preset, Grundy's game, a subtraction game, or a
    /// modular game. Its spec syntax belongs to [`HeapGame`].
    Heap(HeapGame),
    /// Plain Nim: remove any positive number from one heap.
    Nim,
    /// Add 1..=`max_add` to a running total; whoever says `target` loses.
    TwentyOne {
        /// The most that may be added in one turn.
        max_add: u64,
        /// The total whose sayer loses.
        target: u64,
    },
    /// Add 1..=`max_add` to a running total; whoever reaches `target` wins.
    Hundred {
        /// The most that may be added in one turn.
        max_add: u64,
        /// The total that wins.
        target: u64,
    },
    /// Take any number from one heap, or the same number from every heap.
    Wythoff,
    /// A ring of objects; remove 1..=`max_take` adjacent ones.
    Circular {
        /// The most adjacent objects one move removes.
        max_take: u64,
    },
    /// Remove any positive number from a largest heap only.
    Greedy,
    /// Moore's index-k Nim: reduce between 1 and `heaps_per_move` heaps,
    /// taking at most `cap` from each if a cap is given.
    Moore {
        /// k: how many heaps one move may reduce.
        heaps_per_move: u64,
        /// r: the most one move may take from a heap, if capped.
        cap: Option<u64>,
    },
    /// Fibonacci Nim: one heap; take at most twice the previous take.
    Fibonacci,
    /// Chomp on a `rows` × `columns` rectangle: take a square and every
    /// square above and to the right of it; whoever takes the poisoned
    /// corner loses.
    Chomp {
        /// Rows of the starting rectangle.
        rows: u64,
        /// Columns of the starting rectangle.
        columns: u64,
    },
    /// Higher-dimensional Nim on a k1×…×kn board: remove adjacent pieces
    /// from one line parallel to an axis.
    Board {
        /// The side lengths, 1 to 4 of them.
        dims: Vec<u64>,
    },
    /// Node Kayles: remove a vertex of a graph together with its
    /// neighbours.
    NodeKayles,
    /// Nim on graphs (Fukuyama): move a token along an edge, lowering the
    /// edge's weight.
    GraphNim,
    /// Building Nim BN(n, s): place `stones` stones one at a time onto
    /// `piles` piles, then play Nim on them.
    Building {
        /// n: the stones to place.
        stones: u64,
        /// s: the piles.
        piles: u64,
    },
    /// Candy Nim (Rubinstein-Salzedo): normal-play Nim where players also
    /// maximise the candies they take.
    Candy,
    /// Wordnim: remove letters from a word so that the letters removed and
    /// the letters left each spell a dictionary word.
    Wordnim,
    /// Green Hackenbush: cut an edge of a picture rooted at the ground;
    /// whatever loses touch with the ground falls.
    Hackenbush,
    /// Notakto: X-only tic-tac-toe on several `side` × `side` boards;
    /// whoever completes a line on the last live board loses.
    Notakto {
        /// The side of the boards (3 for the usual game).
        side: u64,
    },
}

/// One catalogue line: the spec syntax and a summary.
pub struct CatalogueEntry {
    /// The game's name for people: "Dawson's Kayles", "Nim on graphs".
    pub title: &'static str,
    /// How the spec is written.
    pub syntax: &'static str,
    /// A spec that plays it: the defaults, or typical parameters where the
    /// game has no defaults (`subtraction:1,2,3`).
    pub example: &'static str,
    /// What the game is.
    pub summary: &'static str,
}

impl GameSpec {
    /// The game this spec names, ready to analyse and play.
    pub fn build(&self) -> Result<Box<dyn crate::Game>, SpecError> {
        build(self)
    }

    /// Every game, in catalogue order.
    pub const CATALOGUE: &'static [CatalogueEntry] = &[
        CatalogueEntry {
            title: "Nim",
            syntax: "nim",
            example: "nim",
            summary: "Nim: remove any number of objects from one heap",
        },
        CatalogueEntry {
            title: "Subtraction game",
            syntax: "subtraction:S",
            example: "subtraction:1,2,3",
            summary: "remove any number in the set S, e.g. subtraction:1,2,3; subtraction:squares",
        },
        CatalogueEntry {
            title: "Modular subtraction",
            syntax: "modular:M:R",
            example: "modular:3:1,2",
            summary: "remove any t with t mod M in R, e.g. modular:3:1,2",
        },
        CatalogueEntry {
            title: "Octal game",
            syntax: "octal:CODE",
            example: "octal:0.137",
            summary: "take-and-break game by its octal or hex code, e.g. octal:0.137",
        },
        CatalogueEntry {
            title: "Kayles",
            syntax: "kayles",
            example: "kayles",
            summary: "Kayles (0.77): knock down one pin or two adjacent pins",
        },
        CatalogueEntry {
            title: "Dawson's Kayles",
            syntax: "dawson",
            example: "dawson",
            summary: "Dawson's Kayles (0.07): knock down two adjacent pins",
        },
        CatalogueEntry {
            title: "Officers",
            syntax: "officers",
            example: "officers",
            summary: "Officers (0.6): take one object, leaving one or two heaps",
        },
        CatalogueEntry {
            title: "Treblecross",
            syntax: "treblecross",
            example: "treblecross",
            summary: "Treblecross (0.007): one-dimensional tic-tac-toe",
        },
        CatalogueEntry {
            title: "Double Kayles",
            syntax: "double-kayles",
            example: "double-kayles",
            summary: "Double Kayles (0.7777): knock down one to four adjacent pins",
        },
        CatalogueEntry {
            title: "Grundy's game",
            syntax: "grundy-game",
            example: "grundy-game",
            summary: "Grundy's game: split a heap into two unequal heaps",
        },
        CatalogueEntry {
            title: "The 21 game",
            syntax: "twenty-one[:K,N]",
            example: "twenty-one",
            summary: "say a total, adding 1..K each turn; whoever says N loses (default 3,21)",
        },
        CatalogueEntry {
            title: "The 100 game",
            syntax: "hundred[:K,N]",
            example: "hundred",
            summary: "add 1..K to a total; whoever reaches N wins (default 10,100)",
        },
        CatalogueEntry {
            title: "Wythoff's game",
            syntax: "wythoff",
            example: "wythoff",
            summary: "take from one heap, or the same number from every heap",
        },
        CatalogueEntry {
            title: "Circular Nim",
            syntax: "circular[:K]",
            example: "circular",
            summary: "circular Nim: a ring; remove 1..K adjacent objects (default 3)",
        },
        CatalogueEntry {
            title: "Greedy Nim",
            syntax: "greedy",
            example: "greedy",
            summary: "Greedy Nim: take only from a largest heap",
        },
        CatalogueEntry {
            title: "Moore's Nim",
            syntax: "moore:K[,R]",
            example: "moore:2",
            summary: "Moore's index-k Nim: reduce up to K heaps at once (at most R from each)",
        },
        CatalogueEntry {
            title: "Fibonacci Nim",
            syntax: "fibonacci",
            example: "fibonacci",
            summary: "Fibonacci Nim: one heap; take at most twice the previous take",
        },
        CatalogueEntry {
            title: "Chomp",
            syntax: "chomp[:RxC]",
            example: "chomp",
            summary: "Chomp: bite a square and all above and right of it; the poisoned corner loses (default 3x4)",
        },
        CatalogueEntry {
            title: "n-dimensional Nim",
            syntax: "board[:AxB[xC[xD]]]",
            example: "board",
            summary: "n-dimensional Nim: remove adjacent pieces from one line of a board (default 3x3)",
        },
        CatalogueEntry {
            title: "Node Kayles",
            syntax: "node-kayles",
            example: "node-kayles",
            summary: "Node Kayles: remove a vertex of a graph with its neighbours",
        },
        CatalogueEntry {
            title: "Nim on graphs",
            syntax: "graph-nim",
            example: "graph-nim",
            summary: "Nim on graphs: move a token along an edge, lowering its weight",
        },
        CatalogueEntry {
            title: "Building Nim",
            syntax: "building:N,S",
            example: "building:4,3",
            summary: "Building Nim: place N stones one by one on S piles, then play Nim",
        },
        CatalogueEntry {
            title: "Candy Nim",
            syntax: "candy",
            example: "candy",
            summary: "Candy Nim: win Nim, then take as many candies as possible",
        },
        CatalogueEntry {
            title: "Wordnim",
            syntax: "wordnim",
            example: "wordnim",
            summary: "Wordnim: split letters off a word; both parts must spell words (any word list may be the dictionary)",
        },
        CatalogueEntry {
            title: "Green Hackenbush",
            syntax: "hackenbush",
            example: "hackenbush",
            summary: "Green Hackenbush: cut an edge; whatever loses touch with the ground falls",
        },
        CatalogueEntry {
            title: "Notakto",
            syntax: "notakto[:N]",
            example: "notakto",
            summary: "Notakto: X-only tic-tac-toe on several NxN boards, misère (3x3 by its quotient, other sizes by search)",
        },
    ];

    /// The known game name closest to `name` in edits (letters added,
    /// dropped, changed or swapped), if it is close enough to be a typo.
    pub fn nearest_name(name: &str) -> Option<&'static str> {
        let name = name.to_ascii_lowercase();
        // Names people reach for that are not the spec's.
        const ALIASES: &[(&str, &str)] = &[
            ("grundy", "grundy-game"),
            ("grundys-game", "grundy-game"),
            ("21", "twenty-one"),
            ("100", "hundred"),
            ("nodekayles", "node-kayles"),
            ("graphnim", "graph-nim"),
        ];
        if let Some(&(_, known)) = ALIASES.iter().find(|(alias, _)| *alias == name) {
            return Some(known);
        }
        GameSpec::names()
            .into_iter()
            .map(|known| (edit_distance(&name, known), known))
            .filter(|&(d, known)| d > 0 && d <= (known.len() / 3).max(1))
            .min()
            .map(|(_, known)| known)
    }

    /// The game names the parser accepts (the part before any `:`).
    pub fn names() -> Vec<&'static str> {
        GameSpec::CATALOGUE
            .iter()
            .map(|e| e.syntax.split(['[', ':']).next().unwrap_or(e.syntax))
            .collect()
    }
}

impl fmt::Display for GameSpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            GameSpec::Nim => f.write_str("nim"),
            GameSpec::Heap(game) => game.fmt(f),
            GameSpec::TwentyOne { max_add, target } => write!(f, "twenty-one:{max_add},{target}"),
            GameSpec::Hundred { max_add, target } => write!(f, "hundred:{max_add},{target}"),
            GameSpec::Wythoff => f.write_str("wythoff"),
            GameSpec::Circular { max_take } => write!(f, "circular:{max_take}"),
            GameSpec::Greedy => f.write_str("greedy"),
            GameSpec::Moore {
                heaps_per_move,
                cap: None,
            } => write!(f, "moore:{heaps_per_move}"),
            GameSpec::Moore {
                heaps_per_move,
                cap: Some(cap),
            } => write!(f, "moore:{heaps_per_move},{cap}"),
            GameSpec::Fibonacci => f.write_str("fibonacci"),
            GameSpec::Chomp { rows, columns } => write!(f, "chomp:{rows}x{columns}"),
            GameSpec::NodeKayles => f.write_str("node-kayles"),
            GameSpec::Candy => f.write_str("candy"),
            GameSpec::Wordnim => f.write_str("wordnim"),
            GameSpec::Hackenbush => f.write_str("hackenbush"),
            GameSpec::Notakto { side } => write!(f, "notakto:{side}"),
            GameSpec::Building { stones, piles } => write!(f, "building:{stones},{piles}"),
            GameSpec::GraphNim => f.write_str("graph-nim"),
            GameSpec::Board { dims } => {
                let sides: Vec<String> = dims.iter().map(u64::to_string).collect();
                write!(f, "board:{}", sides.join("x"))
            }
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
        /// The known name it is closest to, if one is close.
        suggestion: Option<&'static str>,
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
    /// A heap-game spec (take-and-break code, subtraction set, ...) that
    /// does not parse.
    HeapGame(HeapGameError),
    /// The spec is recognised, but this build cannot play that game.
    NotPlayable {
        /// The spec.
        game: String,
    },
}

impl fmt::Display for SpecError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SpecError::UnknownGame {
                name,
                suggestion: Some(near),
            } => write!(
                f,
                "unknown game '{name}': did you mean '{near}'? (every game: {})",
                GameSpec::names().join(", ")
            ),
            SpecError::UnknownGame {
                name,
                suggestion: None,
            } => write!(
                f,
                "unknown game '{name}': expected one of {}",
                GameSpec::names().join(", ")
            ),
            SpecError::BadParameters {
                game,
                given,
                expected,
            } => write!(f, "bad parameters '{given}' for game '{game}': {expected}"),
            SpecError::HeapGame(e) => e.fmt(f),
            SpecError::NotPlayable { game } => write!(
                f,
                "the game '{game}' is recognised but not available in this build"
            ),
        }
    }
}

impl std::error::Error for SpecError {}

/// Optimal string alignment distance: insertions, deletions,
/// substitutions and swaps of neighbours each cost 1.
fn edit_distance(a: &str, b: &str) -> usize {
    let a: Vec<char> = a.chars().collect();
    let b: Vec<char> = b.chars().collect();
    let mut d = vec![vec![0usize; b.len() + 1]; a.len() + 1];
    for (i, row) in d.iter_mut().enumerate() {
        row[0] = i;
    }
    for (j, cell) in d[0].iter_mut().enumerate() {
        *cell = j;
    }
    for i in 1..=a.len() {
        for j in 1..=b.len() {
            let cost = usize::from(a[i - 1] != b[j - 1]);
            d[i][j] = (d[i - 1][j] + 1)
                .min(d[i][j - 1] + 1)
                .min(d[i - 1][j - 1] + cost);
            if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                d[i][j] = d[i][j].min(d[i - 2][j - 2] + 1);
            }
        }
    }
    d[a.len()][b.len()]
}

fn bad(game: &str, given: &str, expected: &str) -> SpecError {
    SpecError::BadParameters {
        game: game.into(),
        given: given.into(),
        expected: expected.into(),
    }
}

/// Parse `a,b,...` as positive whole numbers, exactly `count` of them when
/// `count` is given.
fn positive_list(game: &str, params: &str, expected: &str) -> Result<Vec<u64>, SpecError> {
    if params.trim().is_empty() {
        return Err(bad(game, params, expected));
    }
    params
        .split(',')
        .map(|w| match w.trim().parse::<u64>() {
            Ok(0) | Err(_) => Err(bad(game, params, expected)),
            Ok(v) => Ok(v),
        })
        .collect()
}

/// Parse `AxBx...` as sizes from 1 to `max`, between `min_count` and
/// `max_count` of them.
fn dimension_list(
    game: &str,
    params: &str,
    expected: &str,
    counts: std::ops::RangeInclusive<usize>,
    max: u64,
) -> Result<Vec<u64>, SpecError> {
    let dims: Vec<u64> = params
        .split(['x', 'X', '×'])
        .map(|w| match w.trim().parse::<u64>() {
            Ok(v) if (1..=max).contains(&v) => Ok(v),
            _ => Err(bad(game, params, expected)),
        })
        .collect::<Result<_, _>>()?;
    if !counts.contains(&dims.len()) {
        return Err(bad(game, params, expected));
    }
    Ok(dims)
}

fn no_params(game: &str, params: Option<&str>, value: GameSpec) -> Result<GameSpec, SpecError> {
    match params {
        None => Ok(value),
        Some(p) => Err(bad(
            game,
            p,
            &format!("{game} takes no parameters; write just '{game}'"),
        )),
    }
}

impl FromStr for GameSpec {
    type Err = SpecError;
    fn from_str(s: &str) -> Result<GameSpec, SpecError> {
        let s = s.trim();
        let (name, params) = match s.split_once(':') {
            Some((n, p)) => (n, Some(p)),
            None => (s, None),
        };
        // As the heap-game parser does: 'octal :0.6' is octal:0.6.
        let name = name.trim().to_ascii_lowercase();
        let heap = |s: &str| {
            s.parse::<HeapGame>()
                .map(GameSpec::Heap)
                .map_err(SpecError::HeapGame)
        };
        match name.as_str() {
            "nim" => no_params("nim", params, GameSpec::Nim),
            "wythoff" => no_params("wythoff", params, GameSpec::Wythoff),
            "greedy" => no_params("greedy", params, GameSpec::Greedy),
            "fibonacci" => no_params("fibonacci", params, GameSpec::Fibonacci),
            "twenty-one" | "hundred" => {
                let expected = "expected K,N: the most added per turn (at least 1) and the target total (at least 1), e.g. 3,21";
                let (max_add, target) = match params {
                    None if name == "twenty-one" => (3, 21),
                    None => (10, 100),
                    Some(p) => match positive_list(&name, p, expected)?.as_slice() {
                        [k, n] => (*k, *n),
                        _ => return Err(bad(&name, p, expected)),
                    },
                };
                Ok(if name == "twenty-one" {
                    GameSpec::TwentyOne { max_add, target }
                } else {
                    GameSpec::Hundred { max_add, target }
                })
            }
            "circular" => {
                let expected = "expected K, the most adjacent objects one move removes (at least 1), e.g. circular:3";
                let max_take = match params {
                    None => 3,
                    Some(p) => match positive_list("circular", p, expected)?.as_slice() {
                        [k] => *k,
                        _ => return Err(bad("circular", p, expected)),
                    },
                };
                Ok(GameSpec::Circular { max_take })
            }
            "moore" => {
                let expected = "expected K or K,R: K heaps per move (at least 1), R the most taken from each (at least 1), e.g. moore:2 or moore:2,1";
                let p = params.ok_or_else(|| bad("moore", "", expected))?;
                match positive_list("moore", p, expected)?.as_slice() {
                    [k] => Ok(GameSpec::Moore {
                        heaps_per_move: *k,
                        cap: None,
                    }),
                    [k, r] => Ok(GameSpec::Moore {
                        heaps_per_move: *k,
                        cap: Some(*r),
                    }),
                    _ => Err(bad("moore", p, expected)),
                }
            }
            "chomp" => {
                let expected = "expected RxC, the rows and columns of the starting rectangle (each 1 to 255), e.g. chomp:3x4";
                let (rows, columns) = match params {
                    None => (3, 4),
                    Some(p) => match dimension_list("chomp", p, expected, 2..=2, 255)?.as_slice() {
                        [r, c] => (*r, *c),
                        _ => return Err(bad("chomp", p, expected)),
                    },
                };
                Ok(GameSpec::Chomp { rows, columns })
            }
            "building" => {
                let expected = "expected N,S: the stones to place (1 to 100000) and the piles (1 to 100), e.g. building:4,3";
                let p = params.ok_or_else(|| bad("building", "", expected))?;
                match positive_list("building", p, expected)?.as_slice() {
                    [n, s] if *n <= 100_000 && *s <= 100 => Ok(GameSpec::Building {
                        stones: *n,
                        piles: *s,
                    }),
                    _ => Err(bad("building", p, expected)),
                }
            }
            "candy" => no_params("candy", params, GameSpec::Candy),
            "wordnim" => no_params("wordnim", params, GameSpec::Wordnim),
            "hackenbush" => no_params("hackenbush", params, GameSpec::Hackenbush),
            "notakto" => {
                let expected = "expected N, the side of the boards (1 to 5), e.g. notakto:3";
                let side = match params {
                    None => 3,
                    Some(p) => match positive_list("notakto", p, expected)?.as_slice() {
                        [n] if *n <= crate::games::notakto::MAX_SIDE => *n,
                        _ => return Err(bad("notakto", p, expected)),
                    },
                };
                Ok(GameSpec::Notakto { side })
            }
            "node-kayles" => no_params("node-kayles", params, GameSpec::NodeKayles),
            "graph-nim" => no_params("graph-nim", params, GameSpec::GraphNim),
            "board" => {
                let expected = "expected the board's sides, 1 to 4 of them joined by 'x' (each at least 1, at most 128 cells in all), e.g. board:3x3 or board:2x2x3";
                let dims = match params {
                    None => vec![3, 3],
                    Some(p) => dimension_list("board", p, expected, 1..=4, 128)?,
                };
                if dims.iter().product::<u64>() > 128 {
                    return Err(bad("board", params.unwrap_or(""), expected));
                }
                Ok(GameSpec::Board { dims })
            }
            "octal" | "kayles" | "dawson" | "officers" | "treblecross" | "double-kayles"
            | "grundy-game" | "subtraction" | "modular" => heap(s),
            _ if params.is_none() && HeapGame::is_bare_code(&name) => heap(s),
            _ => Err(SpecError::UnknownGame {
                suggestion: GameSpec::nearest_name(&name),
                name,
            }),
        }
    }
}

/// Build the game a spec names.
fn build(spec: &GameSpec) -> Result<Box<dyn Game>, SpecError> {
    match spec {
        GameSpec::Nim => Ok(Box::new(Adapter::new(spec.to_string(), games::nim::Nim))),
        GameSpec::Heap(game) => Ok(Box::new(Adapter::new(
            spec.to_string(),
            take_break::TakeBreakGame::new(game.clone()),
        ))),
        GameSpec::Fibonacci => Ok(Box::new(Adapter::new(
            spec.to_string(),
            fibonacci::Fibonacci,
        ))),
        GameSpec::Greedy => Ok(Box::new(Adapter::new(spec.to_string(), greedy::Greedy))),
        GameSpec::Moore {
            heaps_per_move,
            cap,
        } => Ok(Box::new(Adapter::new(
            spec.to_string(),
            moore::Moore::new(*heaps_per_move, *cap),
        ))),
        GameSpec::Wythoff => Ok(Box::new(Adapter::new(spec.to_string(), wythoff::Wythoff))),
        GameSpec::TwentyOne { max_add, target } | GameSpec::Hundred { max_add, target } => {
            check_max_add(spec, *max_add)?;
            let game = counting::Counting {
                max_add: *max_add,
                target: *target,
                ending: if matches!(spec, GameSpec::TwentyOne { .. }) {
                    counting::Ending::SayingNLoses
                } else {
                    counting::Ending::ReachingNWins
                },
            };
            Ok(Box::new(Adapter::new(spec.to_string(), game)))
        }
        GameSpec::Circular { max_take } => Ok(Box::new(Adapter::new(
            spec.to_string(),
            circular::Circular::new(*max_take),
        ))),
        GameSpec::Chomp { rows, columns } => Ok(Box::new(Adapter::new(
            spec.to_string(),
            chomp::Chomp::new(*rows as usize, *columns as usize),
        ))),
        GameSpec::Board { dims } => {
            let dims: Vec<usize> = dims.iter().map(|&k| k as usize).collect();
            Ok(Box::new(Adapter::new(
                spec.to_string(),
                board::NimBoard::new(&dims),
            )))
        }
        GameSpec::NodeKayles => Ok(Box::new(Adapter::new(
            spec.to_string(),
            node_kayles::NodeKayles,
        ))),
        GameSpec::GraphNim => Ok(Box::new(Adapter::new(
            spec.to_string(),
            graph_nim::GraphNim,
        ))),
        GameSpec::Building { stones, piles } => Ok(Box::new(Adapter::new(
            spec.to_string(),
            building::Building::new(*stones, *piles as usize),
        ))),
        GameSpec::Candy => Ok(Box::new(Adapter::new(spec.to_string(), candy::CandyNim))),
        GameSpec::Wordnim => Ok(Box::new(Adapter::new(
            spec.to_string(),
            wordnim::Wordnim::default(),
        ))),
        GameSpec::Hackenbush => Ok(Box::new(Adapter::new(
            spec.to_string(),
            hackenbush::Hackenbush,
        ))),
        GameSpec::Notakto { side } => Ok(Box::new(Adapter::new(
            spec.to_string(),
            notakto::Notakto::new(*side as usize),
        ))),
    }
}

/// The counting games list every move in play, so K must stay listable.
fn check_max_add(spec: &GameSpec, max_add: u64) -> Result<(), SpecError> {
    if max_add > counting::MAX_ADD {
        let text = spec.to_string();
        let (game, given) = text.split_once(':').unwrap_or((&text, ""));
        return Err(SpecError::BadParameters {
            game: game.to_string(),
            given: given.to_string(),
            expected: format!(
                "K (the most added per turn) may be at most {}",
                counting::MAX_ADD
            ),
        });
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The library's words serve every front end, so they name no option
    /// of one (`--misere`, `--words FILE`): the front end adds its own.
    #[test]
    fn no_catalogue_text_names_a_command_line_option() {
        let option = |text: &str| {
            text.as_bytes()
                .windows(3)
                .any(|w| w[0] == b'-' && w[1] == b'-' && w[2].is_ascii_alphabetic())
        };
        for entry in GameSpec::CATALOGUE {
            assert!(
                !option(entry.summary),
                "{}: {}",
                entry.syntax,
                entry.summary
            );
            let game = entry.example.parse::<GameSpec>().unwrap().build().unwrap();
            let d = game.description();
            for text in [
                d.rules,
                d.example,
                d.theory,
                d.citation,
                game.convention_note(),
            ] {
                assert!(!option(text), "{}: {text}", entry.syntax);
            }
            for text in [game.position_syntax().to_string(), game.move_syntax()] {
                assert!(!option(&text), "{}: {text}", entry.syntax);
            }
        }
    }

    #[test]
    fn specs_round_trip() {
        for text in [
            "nim",
            "twenty-one:3,21",
            "twenty-one:5,34",
            "hundred:10,100",
            "wythoff",
            "circular:3",
            "greedy",
            "moore:2",
            "moore:2,1",
            "fibonacci",
            "chomp:3x4",
            "chomp:1x1",
            "board:3x3",
            "board:5",
            "board:2x2x3",
            "board:2x2x2x2",
            "node-kayles",
            "graph-nim",
            "building:4,3",
            "building:12,7",
            "candy",
            "wordnim",
            "hackenbush",
            "notakto:3",
            "notakto:4",
        ] {
            let spec: GameSpec = text.parse().unwrap();
            assert_eq!(spec.to_string(), text);
            assert_eq!(spec.to_string().parse::<GameSpec>().unwrap(), spec);
        }
        assert_eq!(
            "hundred".parse::<GameSpec>().unwrap().to_string(),
            "hundred:10,100"
        );
        assert_eq!(
            "circular".parse::<GameSpec>().unwrap().to_string(),
            "circular:3"
        );
        assert_eq!("NIM".parse::<GameSpec>().unwrap(), GameSpec::Nim);
        assert_eq!(
            "notakto".parse::<GameSpec>().unwrap(),
            GameSpec::Notakto { side: 3 }
        );
    }

    /// Found by the `heap_codes` fuzz target: `HeapGame` read
    /// "\toctal\t:4.7" as octal:4.7, but the catalogue kept the blank in the
    /// name and called it an unknown game.
    #[test]
    fn blanks_around_the_name_are_ignored_as_by_the_heap_game_parser() {
        for (text, canonical) in [
            ("\toctal\t:4.7", "octal:4.7"),
            ("kayles ", "kayles"),
            (" subtraction : 1,2", "subtraction:1,2"),
            ("chomp :3x4", "chomp:3x4"),
            ("moore\t:2", "moore:2"),
        ] {
            let spec: GameSpec = text.parse().unwrap_or_else(|e| panic!("{text:?}: {e}"));
            assert_eq!(spec.to_string(), canonical, "{text:?}");
        }
    }

    /// Found by the `heap_codes` fuzz target once heap-game specs took bare
    /// codes: the catalogue must read `0.77` as the same game.
    #[test]
    fn a_bare_code_is_the_octal_game_here_too() {
        for (text, canonical) in [
            ("0.77", "octal:0.77"),
            (".6", "octal:0.6"),
            ("4.07", "octal:4.07"),
        ] {
            let spec: GameSpec = text.parse().unwrap_or_else(|e| panic!("{text:?}: {e}"));
            assert_eq!(spec.to_string(), canonical, "{text:?}");
        }
        let e = "0.7z".parse::<GameSpec>().unwrap_err().to_string();
        assert!(e.contains("bad take-and-break code '0.7z'"), "{e}");
    }

    #[test]
    fn bad_specs_say_what_is_accepted() {
        for (text, says) in [
            ("moore:0", "K heaps per move"),
            ("moore", "K heaps per move"),
            ("moore:1,2,3", "K or K,R"),
            ("twenty-one:3", "K,N"),
            ("twenty-one:0,21", "at least 1"),
            ("circular:x", "circular:3"),
            ("nim:3", "no parameters"),
            ("chess", "unknown game 'chess'"),
            ("kayels", "did you mean 'kayles'?"),
            ("wythof", "did you mean 'wythoff'?"),
            ("grundy", "did you mean 'grundy-game'?"),
            ("fibonaci:", "did you mean 'fibonacci'?"),
            ("subtraction:0,2", "subtraction"),
            ("subtraction:", "subtraction"),
            ("octal:0.1z", "'z'"),
            ("chomp:3", "RxC"),
            ("chomp:0x4", "each 1 to 255"),
            ("chomp:3x4x5", "RxC"),
            ("chomp:3xy", "e.g. chomp:3x4"),
            ("board:2x2x2x2x2", "1 to 4"),
            ("board:12x12", "at most 128 cells"),
            ("board:0x3", "at least 1"),
            ("building", "N,S"),
            ("building:4", "N,S"),
            ("building:0,3", "1 to 100000"),
            ("building:4,300", "1 to 100"),
            ("hackenbush:3", "no parameters"),
            ("notakto:0", "1 to 5"),
            ("notakto:6", "1 to 5"),
            ("notakto:3x3", "e.g. notakto:3"),
        ] {
            let e = text.parse::<GameSpec>().unwrap_err().to_string();
            assert!(e.contains(says), "{text}: {e}");
        }
    }
}
