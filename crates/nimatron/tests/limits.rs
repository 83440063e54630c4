//! A stated time limit holds for a whole answer: a misère analysis that
//! first tries the game's quotient and then searches stops at the limit it
//! was given, and says so with that limit, not with what was left of it.

use std::time::Duration;

use nimatron::{Convention, GameError, GameSpec, Limits, SolveError};

#[test]
fn a_misere_analysis_that_tries_the_quotient_then_searches_names_the_whole_limit() {
    // Misère Dawson's Kayles: its quotient takes seconds to reach heap 30
    // (and stops at heap 32 within the default limits), and three heaps of
    // 30 are far beyond search in a second.
    let game = "dawson".parse::<GameSpec>().unwrap().build().unwrap();
    let position = game.heap_position(&[30, 30, 30]).unwrap();
    let limits = Limits::default().with_time(Duration::from_millis(1500));
    let whole = GameError::Solve(SolveError::TimeLimit { millis: 1500 });
    let analysis = game.analyze(&position, Convention::Misere, limits);
    assert_eq!(analysis.unwrap_err(), whole);
    let outcome = game.outcome(&position, Convention::Misere, limits);
    assert_eq!(outcome.unwrap_err(), whole);
}
