//! A game outside the catalogue, analysed and played through the same
//! object-safe [`Game`] as every built-in game.
//!
//! Run it with `cargo run -p nimatron --example custom_game`.

mod staircase;

use nimatron::computer_move;
use nimatron::{Adapter, Convention, Game, Limits};
use nimatron::{Level, SplitMix64};

use staircase::{Staircase, odd_step_nim_sum};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let game: Box<dyn Game> = Box::new(Adapter::new("staircase", Staircase));
    let mut position = game.parse("3 0 2 1")?;
    let analysis = game.analyze(&position, Convention::Normal, Limits::default())?;
    println!("{} from {}: {}", game.name(), position, analysis.outcome);
    println!("{}", analysis.explanation.trim_end());
    for m in &analysis.winning_moves {
        let value = m.value.map(|v| v.describe()).unwrap_or_default();
        println!("  winning: {} ({value})", m.text);
    }
    // The theory agrees: the odd steps' nim-sum is 3 ^ 2 = 1, not 0.
    assert_eq!(odd_step_nim_sum(&[3, 0, 2, 1]), 1);

    // The computer plays both sides, as it does in every front end.
    let mut rng = SplitMix64::new(7);
    let mut ply = 0;
    while let Some(mv) = computer_move(
        game.as_ref(),
        &position,
        Convention::Normal,
        Level::Perfect,
        &mut rng,
        Limits::default(),
    )? {
        ply += 1;
        println!("{ply:2}. {} → {}", mv.text, mv.to_text);
        position = game.apply(&position, mv.handle())?;
    }
    println!("No move is left after {ply} moves: the player who made the last one wins.");
    Ok(())
}
