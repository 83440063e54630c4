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
    // Misère Dawson's Kayles on eight heaps of 20: the misère quotient
    // and a search race, and the quotient (learnt to heap 20 in well under
    // a second) answers long before a search of 160 pins could. An
    // interrupt stops both, and the quotient is learnt in full by the next
    // question (an interrupt is not a limit to remember: were it kept as
    // one, the quotient would not run again within the same bounds).
    let spec: GameSpec = "dawson".parse().unwrap();
    let game = spec.build().unwrap();
    let position = game.heap_position(&[20; 8]).unwrap();
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

mod sequences {
    //! An interrupt stops a [`SequenceRun`] inside its engine's loops (not
    //! only between calls of `advance`), with `SequenceError::Interrupted`;
    //! the values kept are final, and the run goes on to the same values
    //! as one never interrupted.

    use std::cell::Cell;

    use nimatron::Interrupt;
    use nimatron::sequence::{
        Algorithm, HeapGame, SequenceError, SequenceOptions, SequenceRun, grundy_sequence,
    };

    thread_local! {
        /// Questions asked on this thread (the run's: the interrupt is
        /// asked on the thread that calls `advance`).
        static ASKED: Cell<u64> = const { Cell::new(0) };
        /// The question from which the answer is "stop".
        static STOP_AT: Cell<u64> = const { Cell::new(u64::MAX) };
    }

    fn ask() -> bool {
        let asked = ASKED.get() + 1;
        ASKED.set(asked);
        asked >= STOP_AT.get()
    }

    fn options(algorithm: Algorithm, threads: usize) -> SequenceOptions {
        SequenceOptions {
            algorithm,
            threads,
            ..SequenceOptions::default()
        }
    }

    /// Runs `spec` to `to` asking to stop at question `stop_at`, in one
    /// call of `advance`; returns how many values were known when it
    /// stopped, after checking them and the rest of the run against a run
    /// with no interrupt.
    fn interrupted_run(spec: &str, to: u64, options: &SequenceOptions, stop_at: u64) -> u64 {
        let game: HeapGame = spec.parse().unwrap();
        let truth = grundy_sequence(&game, to, options).unwrap().values;
        let mut run = SequenceRun::new(&game, to, options).unwrap();
        run.set_interrupt(Some(Interrupt::new(ask)));
        ASKED.set(0);
        STOP_AT.set(stop_at);
        let e = run.advance(u64::MAX).unwrap_err();
        let SequenceError::Interrupted { known } = e else {
            panic!("{spec}: {e:?}");
        };
        assert_eq!(
            ASKED.get(),
            stop_at,
            "{spec}: asked once more after stopping"
        );
        assert_eq!(known, run.len(), "{spec}");
        assert!(known <= to, "{spec}: stopped after the last value");
        assert_eq!(
            e.to_string(),
            format!("the computation was interrupted with G(0..{known}) known")
        );
        let kept: Vec<u32> = run.values().iter().collect();
        let want: Vec<u32> = truth.iter().take(known as usize).collect();
        assert!(kept == want, "{spec}: the values kept are not final");
        // Without the request to stop, the same run ends as one never
        // interrupted.
        STOP_AT.set(u64::MAX);
        assert_eq!(run.advance(u64::MAX).unwrap(), to + 1, "{spec}");
        assert!(
            run.finish().values == truth,
            "{spec}: the values after resuming"
        );
        known
    }

    /// Every engine asks: the sparse method (its plain positions and its
    /// blocks, on one thread and in the two-thread rounds), the plain
    /// method, the naive one, subtraction and modular games, and
    /// subtract-a-square. Asked to stop at once, each stops early in its
    /// run, at the first question (after about 2^16 pairs or options).
    #[test]
    fn every_sequence_engine_stops_at_the_first_question() {
        // (spec, n, algorithm, threads, stopped before)
        let cases = [
            ("0.6", 50_000, Algorithm::Auto, 1, 5_000),
            ("0.6", 50_000, Algorithm::Auto, 2, 5_000),
            // No mask for a long while: every position is a plain mex.
            ("0.04", 8_000, Algorithm::Auto, 2, 1_000),
            ("0.6", 20_000, Algorithm::Plain, 1, 5_000),
            ("0.6", 10_000, Algorithm::Naive, 1, 1_000),
            ("4.7", 100_000, Algorithm::Sparse, 2, 5_000),
            ("subtraction:1,3,4", 100_000, Algorithm::Naive, 1, 20_000),
            ("modular:7:1,3", 8_000, Algorithm::Naive, 1, 1_000),
            ("modular:7:1,3", 1_000_000, Algorithm::Auto, 1, 50_000),
            ("subtraction:squares", 100_000, Algorithm::Auto, 1, 20_000),
        ];
        for (spec, to, algorithm, threads, before) in cases {
            let known = interrupted_run(spec, to, &options(algorithm, threads), 1);
            assert!(known < before, "{spec} {algorithm}: stopped at {known}");
        }
    }

    /// Stopped at every point of its two-thread rounds (where values are
    /// first guessed and then confirmed), the sparse method keeps only
    /// confirmed values, and goes on from them to the same sequence.
    #[test]
    fn the_two_thread_sparse_method_stops_on_confirmed_values() {
        for spec in ["0.6", "0.376", "grundy-game"] {
            let game: HeapGame = spec.parse().unwrap();
            let options = options(Algorithm::Sparse, 2);
            // How often a whole run asks.
            let mut run = SequenceRun::new(&game, 100_000, &options).unwrap();
            run.set_interrupt(Some(Interrupt::new(ask)));
            ASKED.set(0);
            STOP_AT.set(u64::MAX);
            run.advance(u64::MAX).unwrap();
            let questions = ASKED.get();
            assert!(questions >= 50, "{spec}: {questions} questions");
            let mut stops = Vec::new();
            for part in [5, 3, 2] {
                stops.push(interrupted_run(spec, 100_000, &options, questions / part));
            }
            // Stopped at different places, far into the run.
            assert!(stops.windows(2).all(|w| w[0] < w[1]), "{spec}: {stops:?}");
            assert!(stops[2] > 25_000, "{spec}: {stops:?}");
        }
    }
}
