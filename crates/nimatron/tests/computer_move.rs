//! The computer at the perfect level wins every won position it is given,
//! also where a heap has too many moves for each to be valued and the
//! moves it values are a sample.

use nimatron::computer_move;
use nimatron::{Convention, GameSpec, Limits, Outcome};
use nimatron::{Level, SplitMix64};

#[test]
fn the_perfect_computer_finds_a_winning_move_among_many() {
    let game = "kayles".parse::<GameSpec>().unwrap().build().unwrap();
    let limits = Limits::default();
    let mut rng = SplitMix64::new(7);
    let mut won = 0;
    // A heap of about 10 000 pins has about 20 000 moves, of which the
    // computer values a sample of 5 000; for about a third of these heaps
    // the sample held no winning move.
    for n in (10_000..10_060).chain([10_000_003, 1_000_000_000_004]) {
        for convention in [Convention::Normal, Convention::Misere] {
            let position = game.heap_position(&[n]).unwrap();
            if game.outcome(&position, convention, limits).unwrap() != Outcome::N {
                continue;
            }
            let mv = computer_move(
                game.as_ref(),
                &position,
                convention,
                Level::Perfect,
                &mut rng,
                limits,
            )
            .unwrap()
            .expect("a move");
            let after = game.outcome(mv.after(), convention, limits).unwrap();
            assert_eq!(after, Outcome::P, "{convention:?} {n}: {}", mv.text);
            won += 1;
        }
    }
    assert!(won >= 60, "only {won} won positions");
}
