//! `nimatron games`: the catalogue of games.

use nimatron::{Game, GameSpec};

use crate::args::GamesArgs;
use crate::bad_input;

pub fn run(args: GamesArgs) -> anyhow::Result<()> {
    match args.spec {
        None => {
            println!("Games (use `nimatron games SPEC` for rules, positions and theory):");
            for entry in GameSpec::CATALOGUE {
                println!("  {:<20} {}", entry.syntax, entry.summary);
            }
        }
        Some(spec) => {
            let game = spec.build().map_err(|e| bad_input(e.to_string()))?;
            print!("{}", describe(&spec, game.as_ref()));
        }
    }
    Ok(())
}

/// The full catalogue entry for one game.
pub fn describe(spec: &GameSpec, game: &dyn Game) -> String {
    let d = game.description();
    let conventions: Vec<&str> = game.conventions().iter().map(|c| c.name()).collect();
    let mut s = format!(
        "{spec}\n\nRules: {}\n\nPosition: {}\nExample: nimatron analyze --game {spec} {}\nStart: {}\nMoves in play: {}\nConventions: {}",
        d.rules,
        game.position_syntax(),
        d.example,
        game.start().map_or_else(
            || "none (give a position)".to_string(),
            |p| p.text().to_string()
        ),
        game.move_syntax(),
        conventions.join(", "),
    );
    if !game.convention_note().is_empty() {
        s.push_str(&format!(" ({})", game.convention_note()));
    }
    s.push_str(&format!(
        "\n\nTheory: {}\n\nCitation: {}\n",
        d.theory, d.citation
    ));
    s
}
