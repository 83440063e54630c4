//! `nimatron games`: the catalogue of games.

use nimatron::GameSpec;

use crate::args::GamesArgs;
use crate::bad_input;

pub fn run(args: GamesArgs) -> anyhow::Result<()> {
    match args.spec {
        None => {
            println!("Games (use `nimatron games SPEC` for rules, positions and theory):");
            for (name, summary) in GameSpec::CATALOGUE {
                println!("  {name:<24} {summary}");
            }
        }
        Some(text) => {
            let spec: GameSpec = text.parse().map_err(|e| bad_input(format!("{e}")))?;
            match spec {
                GameSpec::Nim => print!("{}", NIM_ENTRY),
            }
        }
    }
    Ok(())
}

const NIM_ENTRY: &str = "\
nim — Nim

Rules: heaps of objects; a move removes any positive number of objects from
one heap. Normal play: whoever takes the last object wins. Misère play
(--misere): whoever takes the last object loses.

Position: the heap sizes, e.g. `nimatron analyze 3 4 5` (whole numbers up to
2^64 - 1, any number of heaps; `-` reads them from standard input).

Theory: Bouton's theorem. The player to move loses exactly when the nim-sum
(XOR of the heap sizes) is 0; a winning move reduces a heap h to h XOR s when
that is smaller. Misère play is the same until exactly one heap holds two or
more objects; then the winner leaves an odd number of 1-heaps.

Citation: C. L. Bouton, \"Nim, a game with a complete mathematical theory\",
Annals of Mathematics 3 (1901–1902) 35–39.
";
