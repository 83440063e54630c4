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
//! // Bob and Alice's game from the seeds: heaps 3, 4, 5.
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
//! use nimatron::{explain, Convention};
//! let text = explain::explain_position(&[1, 3, 4], Convention::Normal);
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
//! ## Feature flags
//!
//! - `serde`: `Analysis`, `MoveInfo`, `PositionValue`, `Remoteness`,
//!   `Board` and `Element` serialise to the JSON of the CLI contract
//!   (`nimatron analyze --json`), which the web API shares.
#![deny(missing_docs)]

mod analysis;
mod catalogue;
pub mod check;
mod dynamic;
pub mod explain;
pub mod games;
pub mod geometry;
pub mod misere;
pub mod nim;
mod nimber;
mod notation;
mod outcome;
pub mod play;
pub mod position;
mod rules;
pub mod sequence;
pub mod solve;
pub mod strategy;

pub use analysis::{
    Analysis, AnalyzeOptions, Details, Method, MoveInfo, MoveValue, NimDetail, PositionValue,
    Remoteness, capitalise,
};
pub use catalogue::{CatalogueEntry, GameSpec, SpecError};
pub use dynamic::{Adapter, Game, Move, Position};
pub use geometry::{Board, Element};
pub use nimber::{Nimber, mex};
pub use notation::{
    BOTH_CONVENTIONS, Description, GameError, MoveError, Notation, PositionError, Theory, Verdict,
};
pub use outcome::{Convention, Outcome, ParseConventionError};
pub use rules::{IllegalMove, Rules};
pub use solve::{Limits, SolveError};
pub use strategy::Level;
