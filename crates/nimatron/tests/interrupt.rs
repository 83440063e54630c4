//! An [`Interrupt`] stops the solvers and the misère quotient early, with
//! their own `Interrupted` error, and leaves a game's tables fit for the
//! next question: the answers after an interrupted search are those of a
//! game that was never interrupted.

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

use nimatron::misere::{QuotientError, QuotientLimits, quotient};
use nimatron::sequence::HeapGame;
use nimatron::{Convention, GameError, GameSpec, Interrupt, Limits, SolveError};

static SOLVER_STOP: AtomicBool = AtomicBool::new(false);
static SOLVER_POLLS: AtomicUsize = AtomicUsize::new(0);

fn solver_stop() -> bool {
    SOLVER_POLLS.fetch_add(1, Ordering::Relaxed);
    SOLVER_STOP.load(Ordering::Relaxed)
}

#[test]
fn an_interrupted_search_stops_and_the_game_answers_as_before_afterwards() {
    let spec: GameSpec = "chomp:5x6".parse().unwrap();
    let game = spec.build().unwrap();
    let position = game.start().unwrap();
    let interrupt = Interrupt::new(solver_stop);
    let limits = Limits::default().with_interrupt(interrupt);
    SOLVER_STOP.store(true, Ordering::Relaxed);
    let stopped = game.analyze(&position, Convention::Normal, limits);
    assert_eq!(
        stopped.unwrap_err(),
        GameError::Solve(SolveError::Interrupted)
    );
    assert!(SOLVER_POLLS.load(Ordering::Relaxed) >= 1);
    // The same game, asked again without the request to stop, answers as
    // a game that never was interrupted.
    SOLVER_STOP.store(false, Ordering::Relaxed);
    let fresh = spec.build().unwrap();
    for &convention in game.conventions() {
        let again = game.analyze(&position, convention, limits).unwrap();
        let truth = fresh
            .analyze(&position, convention, Limits::default())
            .unwrap();
        assert_eq!(again.outcome, truth.outcome);
        assert_eq!(again.grundy, truth.grundy);
        assert_eq!(again.winning_moves_total, truth.winning_moves_total);
    }
    assert_eq!(
        SolveError::Interrupted.to_string(),
        "the search was interrupted"
    );
}

static QUOTIENT_POLLS: AtomicUsize = AtomicUsize::new(0);

/// Stops at the tenth question.
fn quotient_stop() -> bool {
    QUOTIENT_POLLS.fetch_add(1, Ordering::Relaxed) >= 10
}

#[test]
fn an_interrupted_quotient_names_the_heap_it_was_adding() {
    let game: HeapGame = "dawson".parse().unwrap();
    let limits = QuotientLimits {
        interrupt: Some(Interrupt::new(quotient_stop)),
        ..QuotientLimits::default()
    };
    let e = quotient(&game, 40, &limits).unwrap_err();
    let QuotientError::Interrupted { heap } = e else {
        panic!("{e:?}");
    };
    assert!((1..=40).contains(&heap));
    assert_eq!(
        e.to_string(),
        format!("the computation was interrupted while adding heap {heap}")
    );
    assert!(!e.is_bad_input());
    // Asked once per stop, not once per step.
    assert_eq!(QUOTIENT_POLLS.load(Ordering::Relaxed), 11);
}

static MISERE_STOP: AtomicBool = AtomicBool::new(false);

fn misere_stop() -> bool {
    MISERE_STOP.load(Ordering::Relaxed)
}

#[test]
fn a_misere_analysis_through_the_quotient_is_interrupted_and_does_not_keep_the_stop() {
    // Misère Dawson's Kayles on heaps of 30: the quotient is tried first,
    // then search. An interrupt stops both, and the quotient is computed
    // in full by the next question (an interrupt is not a limit to
    // remember).
    let spec: GameSpec = "dawson".parse().unwrap();
    let game = spec.build().unwrap();
    let position = game.heap_position(&[20, 21]).unwrap();
    MISERE_STOP.store(true, Ordering::Relaxed);
    let limits = Limits::default().with_interrupt(Interrupt::new(misere_stop));
    let e = game.analyze(&position, Convention::Misere, limits);
    assert_eq!(e.unwrap_err(), GameError::Solve(SolveError::Interrupted));
    MISERE_STOP.store(false, Ordering::Relaxed);
    let again = game.analyze(&position, Convention::Misere, limits).unwrap();
    let truth = spec
        .build()
        .unwrap()
        .analyze(&position, Convention::Misere, Limits::default())
        .unwrap();
    assert_eq!(again.outcome, truth.outcome);
    assert_eq!(again.method.to_string(), truth.method.to_string());
    assert!(
        truth.method.to_string().contains("misère quotient"),
        "{}",
        truth.method
    );
}
