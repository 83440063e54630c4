//! # nimatron-fuzz
//!
//! What each fuzz target in `fuzz/` checks, as plain functions: the
//! libFuzzer entry points call them, and `tests/corpus.rs` runs them on
//! stable over every file of `fuzz/corpus/<target>/`, so the fuzzer and the
//! replay cannot drift apart. A check returns quietly on input it has no
//! use for and panics when the code under test breaks a promise.
//!
//! | module | target | what it checks |
//! |---|---|---|
//! | [`game_spec`] | `game_spec` | a `GameSpec` prints and parses back to itself; the game builds |
//! | [`positions`] | `positions` | positions print and parse back; every legal move applies; a refused move changes nothing |
//! | [`moves`] | `moves` | move text against fixed positions: accepted moves are legal, refused ones change nothing |
//! | [`heap_codes`] | `heap_codes` | heap-game specs and codes round-trip; every algorithm gives the same `G(0..=64)` |
//! | [`sequence_file`] | `sequence_file` | the sequence-file reader on any bytes: a typed error, or a file that writes back the same |
//! | [`checkpoint`] | `checkpoint` | resuming from any bytes: a typed error, or a run that finishes |
//! | [`web_api`] | `web_api` | requests to the router in process: never a 5xx, state changes only on a 2xx |
//!
//! The targets and how to run them: `docs/fuzzing.md`.
#![deny(missing_docs)]

pub mod checkpoint;
pub mod game_spec;
pub mod heap_codes;
pub mod moves;
pub mod positions;
pub mod sequence_file;
pub mod web_api;

/// The input as text, if it is UTF-8.
pub(crate) fn text(data: &[u8]) -> Option<&str> {
    std::str::from_utf8(data).ok()
}
