//! # Nimatron
//!
//! Perfect play, explanations and Sprague–Grundy analysis for Nim and its
//! family of impartial games. The crate is a pure library: no I/O, no async.
//!
//! ## Nim in one call
//!
//! ```
//! use nimatron::{nim, Convention, Outcome};
//!
//! // Bob and Alice's game from Wikipedia's Nim article: heaps 3, 4, 5.
//! let heaps = [3, 4, 5];
//! let a = nim::analyze(&heaps, Convention::Normal);
//! assert_eq!(a.outcome, Outcome::N);
//! let best = a.winning_move(&heaps).expect("a win");
//! assert_eq!((best.heap, best.take), (0, 2)); // take 2 from heap A
//!
//! // Misère play changes only the endgame: from 0 2 1, take all of heap B.
//! let heaps = [0, 2, 1];
//! let a = nim::analyze(&heaps, Convention::Misere);
//! let best = a.winning_move(&heaps).expect("a win");
//! assert_eq!((best.heap, best.take), (1, 2));
//! ```
//!
//! ## Explanations
//!
//! ```
//! use nimatron::{explain_position, Convention};
//! let text = explain_position(&[1, 3, 4], Convention::Normal);
//! assert!(text.contains("reduce C from 4 to 2"));
//! ```
//!
//! ## Any game, one `use` line
//!
//! ```
//! use nimatron::{Convention, GameSpec, Limits, Outcome, Remoteness};
//!
//! let game = "kayles".parse::<GameSpec>()?.build()?;
//! let position = game.parse("4 7")?; // parsed once into a typed handle
//! let a = game.analyze(&position, Convention::Normal, Limits::default())?;
//! assert_eq!(a.outcome, Outcome::N);
//! assert!(a.winning_moves.iter().all(|m| m.value.unwrap().wins()));
//! assert!(matches!(a.remoteness, Some(Remoteness::Exact(_))));
//! let next = game.apply(&position, a.winning_moves[0].handle())?;
//! assert_eq!(game.outcome(&next, Convention::Normal, Limits::default())?, Outcome::P);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! ## Your own game
//!
//! A game is its [`Rules`] (the moves and what each does), its
//! [`Notation`] (how positions and moves are written; a heap game takes the
//! defaults) and its [`Theory`] (a description, and closed forms where it
//! has them). [`Adapter`] turns it into a [`Game`], which analyses, explains
//! and plays it as it does every catalogue game: by memoised search here,
//! with the solver's tables kept between calls.
//!
//! ```
//! use nimatron::{Adapter, Convention, Description, Game, Limits, Notation, Outcome, Rules, Theory};
//!
//! /// Heaps of objects; a move takes 1, 3 or 4 from one heap.
//! struct OneThreeFour;
//!
//! impl Rules for OneThreeFour {
//!     type Position = Vec<u64>;  // heap sizes
//!     type Move = (usize, u64);  // (heap, take)
//!     fn moves(&self, heaps: &Vec<u64>) -> Vec<(usize, u64)> {
//!         let mut out = Vec::new();
//!         for (i, &n) in heaps.iter().enumerate() {
//!             out.extend([1, 3, 4].into_iter().filter(|&t| t <= n).map(|t| (i, t)));
//!         }
//!         out
//!     }
//!     fn apply(&self, heaps: &Vec<u64>, &(i, t): &(usize, u64)) -> Vec<u64> {
//!         let mut after = heaps.clone();
//!         after[i] -= t;
//!         after
//!     }
//! }
//!
//! // Positions read and written as "3 4 5", moves as "A 3": the defaults
//! // of a heap game's notation.
//! impl Notation for OneThreeFour {
//!     fn position_of_heaps(&self, heaps: Vec<u64>) -> Option<Vec<u64>> { Some(heaps) }
//!     fn heaps_of(&self, heaps: &Vec<u64>) -> Option<Vec<u64>> { Some(heaps.clone()) }
//!     fn heap_move(&self, _: &Vec<u64>, &(i, t): &(usize, u64)) -> Option<(usize, u64)> { Some((i, t)) }
//! }
//!
//! impl Theory for OneThreeFour {
//!     fn description(&self) -> Description {
//!         Description {
//!             rules: "Heaps of objects; a move takes 1, 3 or 4 from one heap.",
//!             example: "5 7",
//!             theory: "Solved by search.",
//!             citation: "Winning Ways, chapter 4 (subtraction games).",
//!         }
//!     }
//! }
//!
//! let game = Adapter::new("one-three-four", OneThreeFour);
//! let position = game.parse("2 6")?;
//! let a = game.analyze(&position, Convention::Normal, Limits::default())?;
//! assert_eq!(a.outcome, Outcome::N);
//! assert_eq!(a.winning_moves[0].notation, "B 4"); // leaves 2 2: equal values cancel
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! `Rules` alone is enough for Grundy values ([`solve::GrundySolver`]).
//! The example `examples/custom_game` (`cargo run -p nimatron --example
//! custom_game`) writes Staircase Nim with its own position and move
//! syntax, and plays it in the terminal (`nimatron_cli::play::play`) and the
//! browser (`nimatron_web::Config::custom_games`).
//!
//! ## Feature flags
//!
//! - `serde`: `Analysis`, `MoveInfo`, `PositionValue`, `Remoteness`,
//!   `Board` and `Element` serialise to the JSON of the CLI contract
//!   (`nimatron analyze --json`), which the web API shares.
//! - `openapi` (with `serde`): their OpenAPI schemas (utoipa's `ToSchema`),
//!   for the web API's document.
#![deny(missing_docs)]

mod analysis;
mod catalogue;
mod check;
mod dynamic;
mod explain;
pub mod games;
pub mod geometry;
mod heap_notation;
pub mod misere;
pub mod nim;
mod nimber;
mod notation;
mod outcome;
mod play;
mod rules;
#[cfg(feature = "openapi")]
mod schema;
pub mod sequence;
pub mod solve;
mod strategy;

pub use analysis::{
    Analysis, AnalyzeOptions, CandySplit, Details, Method, MisereRace, MoveInfo, MoveValue,
    NimDetail, PositionValue, RaceMethod, RaceRun, RaceStatus, Remoteness,
};
pub use catalogue::{CatalogueEntry, GameSpec, SpecError};
pub use check::{TextGame, all_tuples, closed_form_agrees_with_search};
pub use dynamic::{Adapter, Game, Move, Position};
pub use explain::{EXPLAINED_HEAPS, describe_move, explain_nim, explain_position};
pub use geometry::{Board, Element, Ghost, Trace};
pub use heap_notation::{
    HEAP_SIZE_RULE, HeapSizeError, heap_name, parse_heap_bytes, parse_heap_list, parse_heap_name,
    parse_heap_size,
};
pub use nimber::{Nimber, mex};
pub use notation::{
    BOTH_CONVENTIONS, Description, GameError, MoveError, Notation, PositionError, Theory, Verdict,
};
pub use outcome::{Convention, Outcome, ParseConventionError};
pub use play::{computer_choice, computer_move};
pub use rules::{IllegalMove, Rules};
pub use solve::{Interrupt, Limits, SolveError};
pub use strategy::{Level, ParseLevelError, SplitMix64};
