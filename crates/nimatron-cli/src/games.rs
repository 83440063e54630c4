//! `nimatron games`: the catalogue of games.

use nimatron::{Game, GameSpec};

use crate::args::GamesArgs;
use crate::bad_input;

pub fn run(args: GamesArgs) -> anyhow::Result<()> {
    match args.spec {
        None => {
            println!("Games (use `nimatron games SPEC` for rules, positions and theory):");
            for entry in GameSpec::CATALOGUE {
                println!(
                    "  {:<20} {}{}",
                    entry.syntax,
                    entry.summary,
                    cli_note(entry.example)
                );
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
    if matches!(spec, GameSpec::Wordnim) {
        s.push_str(&format!("\nDictionary: {WORDS_NOTE}"));
    }
    s.push_str(&format!(
        "\n\nTheory: {}\n\nCitation: {}\n",
        d.theory, d.citation
    ));
    s
}

/// How the CLI gives Wordnim another dictionary (the library's words name
/// no option of any front end).
const WORDS_NOTE: &str = "the built-in list; --words FILE (one word per line) gives another";

/// What the CLI adds to a game's line in the catalogue: its own options
/// that only this game takes.
fn cli_note(example: &str) -> &'static str {
    match example.parse::<GameSpec>() {
        Ok(GameSpec::Wordnim) => " (--words FILE)",
        _ => "",
    }
}
