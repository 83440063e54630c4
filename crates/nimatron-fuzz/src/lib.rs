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
//! | [`word_list`] | `word_list` | Wordnim's word-list reader: a refusal names the bad line; a list's words play as positions |
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
pub mod word_list;

use std::fmt::{Debug, Display};
use std::str::FromStr;

/// The input as text, if it is UTF-8.
pub(crate) fn text(data: &[u8]) -> Option<&str> {
    std::str::from_utf8(data).ok()
}

/// Parse `text`; a value prints text that parses back to the same value
/// and prints the same again, and a refusal has a message.
pub(crate) fn round_trip<T>(text: &str) -> Option<T>
where
    T: FromStr + Display + PartialEq + Debug,
    T::Err: Display,
{
    let value = match text.parse::<T>() {
        Ok(value) => value,
        Err(e) => {
            assert!(!e.to_string().is_empty(), "{text:?}: an empty error");
            return None;
        }
    };
    let printed = value.to_string();
    let again: T = printed
        .parse()
        .unwrap_or_else(|e| panic!("{text:?} printed as {printed:?}, which does not parse: {e}"));
    assert_eq!(again, value, "{text:?} printed as {printed:?}");
    assert_eq!(again.to_string(), printed, "{text:?}");
    Some(value)
}
