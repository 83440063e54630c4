//! `nimatron analyze`: verdict, explanation and every winning move.

use std::io::{self, BufWriter, Read, Write};

use anyhow::Context;
use nimatron::explain::{self, describe_move};
use nimatron::nim::{self, HeapMove};
use nimatron::position::parse_heap_list;
use nimatron::{Convention, GameSpec};

use crate::args::AnalyzeArgs;
use crate::bad_input;

/// Heaps from the command line, or from standard input for `-`.
pub fn read_heaps(words: &[String], example: &str) -> anyhow::Result<Vec<u64>> {
    if words.iter().any(|w| w == "-") {
        if words.len() != 1 {
            return Err(bad_input(
                "'-' reads every heap from standard input and must be the only position argument",
            ));
        }
        let mut text = Vec::new();
        io::stdin()
            .lock()
            .read_to_end(&mut text)
            .context("reading heaps from standard input")?;
        let heaps =
            parse_heap_list(&text).map_err(|e| bad_input(format!("standard input: {e}")))?;
        if heaps.is_empty() {
            return Err(bad_input(
                "no heaps on standard input: give heap sizes separated by spaces, commas or newlines",
            ));
        }
        return Ok(heaps);
    }
    if words.is_empty() {
        return Err(bad_input(format!(
            "no heaps given: list the heap sizes, e.g. `{example}`, or `-` to read them from standard input"
        )));
    }
    let joined = words.join(" ");
    parse_heap_list(joined.as_bytes()).map_err(|e| bad_input(e.to_string()))
}

pub fn run(args: AnalyzeArgs) -> anyhow::Result<()> {
    let spec: GameSpec = args.game.parse().map_err(|e| bad_input(format!("{e}")))?;
    let convention = if args.misere {
        Convention::Misere
    } else {
        Convention::Normal
    };
    let heaps = read_heaps(&args.position, "nimatron analyze 3 4 5")?;
    let limit = match args.limit {
        Some(0) => usize::MAX,
        Some(n) => n,
        None if heaps.len() > 1000 => 1,
        None => 100,
    };
    let analysis = nim::analyze(&heaps, convention);
    let total = analysis.winning_moves(&heaps).count();
    let moves: Vec<HeapMove> = analysis.winning_moves(&heaps).take(limit).collect();
    let stdout = io::stdout();
    let mut out = BufWriter::with_capacity(1 << 16, stdout.lock());
    if args.json {
        write_json(
            &mut out, &spec, convention, &heaps, &analysis, &moves, total,
        )?;
    } else {
        write_text(
            &mut out, &spec, convention, &heaps, &analysis, &moves, total,
        )?;
    }
    out.flush()?;
    Ok(())
}

fn write_heaps(
    out: &mut impl Write,
    heaps: &[u64],
    changed: Option<(usize, u64)>,
) -> io::Result<()> {
    out.write_all(b"[")?;
    for (i, &h) in heaps.iter().enumerate() {
        if i > 0 {
            out.write_all(b",")?;
        }
        let h = match changed {
            Some((j, v)) if j == i => v,
            _ => h,
        };
        write!(out, "{h}")?;
    }
    out.write_all(b"]")
}

fn json_string(s: &str) -> String {
    serde_json::to_string(s).expect("strings always serialise")
}

fn write_json(
    out: &mut impl Write,
    spec: &GameSpec,
    convention: Convention,
    heaps: &[u64],
    analysis: &nim::NimAnalysis,
    moves: &[HeapMove],
    total: usize,
) -> io::Result<()> {
    write!(
        out,
        "{{\"game\":{},\"convention\":\"{}\",\"position\":",
        json_string(&spec.to_string()),
        convention.name()
    )?;
    write_heaps(out, heaps, None)?;
    write!(
        out,
        ",\"outcome\":\"{}\",\"grundy\":{},\"nim_sum\":{},\"regime\":\"{}\",\"winning_moves\":[",
        analysis.outcome,
        analysis.nim_sum.value(),
        analysis.nim_sum.value(),
        regime_name(analysis.regime),
    )?;
    for (i, mv) in moves.iter().enumerate() {
        if i > 0 {
            out.write_all(b",")?;
        }
        write!(out, "{{\"heap\":{},\"take\":{},\"to\":", mv.heap, mv.take)?;
        write_heaps(out, heaps, Some((mv.heap, heaps[mv.heap] - mv.take)))?;
        write!(
            out,
            ",\"text\":{}}}",
            json_string(&capitalise(&describe_move(mv, heaps)))
        )?;
    }
    let explanation = if heaps.len() <= 1000 {
        json_string(&explain::explain_nim(heaps, analysis))
    } else {
        "null".to_string()
    };
    writeln!(
        out,
        "],\"winning_moves_total\":{total},\"winning_moves_truncated\":{},\"explanation\":{explanation}}}",
        moves.len() < total
    )
}

fn regime_name(regime: nim::Regime) -> &'static str {
    match regime {
        nim::Regime::Bouton => "bouton",
        nim::Regime::MisereEndgame => "misere-endgame",
        nim::Regime::MisereOnesOnly => "misere-ones-only",
    }
}

fn capitalise(s: &str) -> String {
    let mut c = s.chars();
    match c.next() {
        Some(first) => first.to_uppercase().chain(c).collect(),
        None => String::new(),
    }
}

fn show_heaps(heaps: &[u64]) -> String {
    const SHOWN: usize = 16;
    let mut words: Vec<String> = heaps.iter().take(SHOWN).map(u64::to_string).collect();
    if heaps.len() > SHOWN {
        words.push(format!("… ({} heaps)", heaps.len()));
    }
    words.join(" ")
}

fn write_text(
    out: &mut impl Write,
    spec: &GameSpec,
    convention: Convention,
    heaps: &[u64],
    analysis: &nim::NimAnalysis,
    moves: &[HeapMove],
    total: usize,
) -> io::Result<()> {
    let rule = match convention {
        Convention::Normal => "normal play: whoever takes the last object wins",
        Convention::Misere => "misère play: whoever takes the last object loses",
    };
    writeln!(out, "Game: {spec} ({rule})")?;
    writeln!(out, "Position: {}", show_heaps(heaps))?;
    writeln!(out)?;
    out.write_all(explain::explain_nim(heaps, analysis).as_bytes())?;
    writeln!(out)?;
    let verdict = if analysis.outcome.to_move_wins() {
        "N: the player to move wins"
    } else {
        "P: the player to move loses against perfect play"
    };
    writeln!(out, "Outcome: {verdict}")?;
    if total == 0 {
        writeln!(out, "Winning moves: none")?;
        return Ok(());
    }
    writeln!(out, "Winning moves ({total}):")?;
    for mv in moves {
        let after = mv.apply_sizes(heaps);
        writeln!(out, "  {} → {}", describe_move(mv, heaps), after)?;
    }
    if moves.len() < total {
        writeln!(
            out,
            "  … {} more (use --limit 0 to list them all)",
            total - moves.len()
        )?;
    }
    Ok(())
}

trait ShowAfter {
    fn apply_sizes(&self, heaps: &[u64]) -> String;
}

impl ShowAfter for HeapMove {
    fn apply_sizes(&self, heaps: &[u64]) -> String {
        if heaps.len() <= 16 {
            show_heaps(&self.apply(heaps))
        } else {
            format!(
                "heap {} = {}",
                explain::heap_name(self.heap),
                heaps[self.heap] - self.take
            )
        }
    }
}
