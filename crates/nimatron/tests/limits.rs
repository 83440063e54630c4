//! A stated time limit holds for a whole answer: a misère analysis that
//! first tries the game's quotient and then searches stops at the limit it
//! was given, and says so with that limit, not with what was left of it.

use std::time::Duration;

use nimatron::{Convention, GameError, GameSpec, Limits, SolveError};

#[test]
fn a_misere_analysis_that_tries_the_quotient_then_searches_names_the_whole_limit() {
    // Misère Dawson's Kayles: its quotient takes seconds to reach heap 30
    // (and stops at heap 32 within the default limits), and three heaps of
    // 30 are far beyond search in a second. The quotient and the search
    // race on one budget; neither settles it, and the error names the
    // whole limit (as the limit that ended the race, and in its words).
    let game = "dawson".parse::<GameSpec>().unwrap().build().unwrap();
    let position = game.heap_position(&[30, 30, 30]).unwrap();
    let limits = Limits::default().with_time(Duration::from_millis(1500));
    let whole = SolveError::TimeLimit { millis: 1500 };
    let check = |e: GameError| {
        let GameError::Solve(SolveError::Unresolved { limit, reason }) = e else {
            panic!("{e:?}");
        };
        assert_eq!(*limit, whole);
        assert!(
            reason.contains("the time limit of 1.5 s passed"),
            "{reason}"
        );
    };
    check(
        game.analyze(&position, Convention::Misere, limits)
            .unwrap_err(),
    );
    // A fresh game (this one kept the search's table and the quotient's
    // heaps from the question before, and goes on from there), and eight
    // heaps: the outcome alone of three heaps of 30 (N) may be found by
    // search within the limit, one winning move being enough.
    let fresh = "dawson".parse::<GameSpec>().unwrap().build().unwrap();
    let many = fresh.heap_position(&[30; 8]).unwrap();
    check(
        fresh
            .outcome(&many, Convention::Misere, limits)
            .unwrap_err(),
    );
}
