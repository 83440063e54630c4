//! `nimatron positions`: the P-positions of Nim with K heaps, as in the
//! "winning positions" table of Wikipedia's Nim article.

use std::io::{self, BufWriter, Write};

use nimatron::nim::{self, p_positions, tuple_count};
use nimatron::{Convention, Outcome};

use crate::args::PositionsArgs;
use crate::bad_input;

/// The most candidate tuples one listing may examine.
pub const TUPLE_LIMIT: u64 = 50_000_000;

pub fn run(args: PositionsArgs) -> anyhow::Result<()> {
    if args.heaps == 0 {
        return Err(bad_input("--heaps must be at least 1"));
    }
    if args.max == 0 {
        return Err(bad_input(
            "--max must be at least 1 (heaps in this table are non-empty)",
        ));
    }
    let count = tuple_count(args.heaps, args.max);
    if count > TUPLE_LIMIT {
        return Err(bad_input(format!(
            "--heaps {} --max {} means {} candidate positions, above the limit of {TUPLE_LIMIT}: choose fewer heaps or a smaller --max",
            args.heaps,
            args.max,
            if count == u64::MAX {
                "more than 2^64".to_string()
            } else {
                count.to_string()
            }
        )));
    }
    // Which conventions to list, and which to compare against for marks.
    let listed: Vec<Convention> = if args.both {
        vec![Convention::Normal, Convention::Misere]
    } else if args.misere {
        vec![Convention::Misere]
    } else {
        vec![Convention::Normal]
    };
    let mut rows: Vec<(Vec<u64>, bool, bool)> = Vec::new();
    for convention in &listed {
        for p in p_positions(args.heaps, args.max, *convention) {
            let normal = nim::outcome(&p, Convention::Normal) == Outcome::P;
            let misere = nim::outcome(&p, Convention::Misere) == Outcome::P;
            rows.push((p, normal, misere));
        }
    }
    rows.sort();
    rows.dedup();
    let stdout = io::stdout();
    let mut out = BufWriter::new(stdout.lock());
    if args.json {
        let entries: Vec<serde_json::Value> = rows
            .iter()
            .map(|(p, normal, misere)| {
                serde_json::json!({"heaps": p, "normal": normal, "misere": misere})
            })
            .collect();
        let doc = serde_json::json!({
            "game": "nim",
            "heaps": args.heaps,
            "max": args.max,
            "conventions": listed.iter().map(|c| c.name()).collect::<Vec<_>>(),
            "p_positions": entries,
        });
        writeln!(out, "{doc}")?;
    } else {
        let which = if args.both {
            "normal or misère play"
        } else if args.misere {
            "misère play"
        } else {
            "normal play"
        };
        writeln!(
            out,
            "P-positions of Nim with {} non-empty heaps of at most {} ({which}):",
            args.heaps, args.max
        )?;
        for (p, normal, misere) in &rows {
            let words: Vec<String> = p.iter().map(u64::to_string).collect();
            let mark = match (normal, misere) {
                (true, false) => "  *  only in normal play",
                (false, true) => "  ** only in misère play",
                _ => "",
            };
            writeln!(out, "{}{mark}", words.join(" "))?;
        }
        writeln!(out, "{} positions.", rows.len())?;
    }
    out.flush()?;
    Ok(())
}
