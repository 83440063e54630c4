//! `nimatron analyze`: verdict, explanation and every winning move.

use std::io::{self, BufWriter, Read, Write};

use anyhow::Context;
use nimatron::explain::{self, describe_move};
use nimatron::facade::{Analysis, GameError, PositionValue};
use nimatron::nim::{self, HeapMove};
use nimatron::position::parse_heap_list;
use nimatron::{Convention, GameSpec};

use crate::args::AnalyzeArgs;
use crate::bad_input;

fn read_stdin() -> anyhow::Result<Vec<u8>> {
    let mut text = Vec::new();
    io::stdin()
        .lock()
        .read_to_end(&mut text)
        .context("reading the position from standard input")?;
    Ok(text)
}

/// Heaps from the command line, or from standard input for `-`.
pub fn read_heaps(words: &[String], example: &str) -> anyhow::Result<Vec<u64>> {
    if words.iter().any(|w| w == "-") {
        if words.len() != 1 {
            return Err(bad_input(
                "'-' reads every heap from standard input and must be the only position argument",
            ));
        }
        let heaps = parse_heap_list(&read_stdin()?)
            .map_err(|e| bad_input(format!("standard input: {e}")))?;
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

/// The game a spec names; Wordnim with the word list in `words` if given.
pub fn build_game(
    spec: &GameSpec,
    words: Option<&std::path::Path>,
) -> anyhow::Result<Box<dyn nimatron::Game>> {
    match words {
        Some(path) if *spec == GameSpec::Wordnim => {
            let text = std::fs::read_to_string(path).map_err(|e| {
                bad_input(format!("cannot read the word list {}: {e}", path.display()))
            })?;
            nimatron::games::wordnim::game_with_words(&text)
                .map_err(|e| bad_input(format!("{}: {e}", path.display())))
        }
        Some(_) => Err(bad_input(format!(
            "--words gives Wordnim's dictionary; it does not apply to {spec}"
        ))),
        None => spec.build().map_err(|e| bad_input(e.to_string())),
    }
}

/// Map a library error to the CLI's exit codes: bad positions and
/// conventions are bad input (2); a search limit is a failure (1).
pub fn game_error(e: GameError) -> anyhow::Error {
    match e {
        GameError::Position(_) | GameError::Convention { .. } => bad_input(e.to_string()),
        GameError::Solve(_) => anyhow::anyhow!("{e}"),
    }
}

pub fn run(args: AnalyzeArgs) -> anyhow::Result<()> {
    let spec: GameSpec = args.game.parse().map_err(|e| bad_input(format!("{e}")))?;
    let convention = if args.misere {
        Convention::Misere
    } else {
        Convention::Normal
    };
    if args.words.is_some() && spec != GameSpec::Wordnim {
        return Err(bad_input(format!(
            "--words gives Wordnim's dictionary; it does not apply to {spec}"
        )));
    }
    if spec == GameSpec::Nim && args.moves.is_empty() {
        return run_nim(&args, &spec, convention);
    }
    let game = build_game(&spec, args.words.as_deref())?;
    let text = if args.position.iter().any(|w| w == "-") {
        if args.position.len() != 1 {
            return Err(bad_input(
                "'-' reads the position from standard input and must be the only position argument",
            ));
        }
        String::from_utf8(read_stdin()?)
            .map_err(|_| bad_input("standard input is not UTF-8 text"))?
    } else if args.position.is_empty() {
        game.start_position().ok_or_else(|| {
            bad_input(format!(
                "no position given for {spec}: {}",
                game.position_syntax()
            ))
        })?
    } else {
        args.position.join(" ")
    };
    let mut text = game
        .parse_position(&text)
        .map_err(|e| bad_input(e.to_string()))?;
    for mv in &args.moves {
        let info = game
            .parse_move(&text, mv)
            .map_err(|e| bad_input(format!("--move '{mv}' from {text}: {e}")))?;
        text = info.to_text;
    }
    let limits = crate::limits(args.max_states, args.max_seconds)?;
    let analysis = game
        .analyze(&text, convention, limits)
        .map_err(game_error)?;
    let limit = match args.limit {
        Some(0) | None => usize::MAX,
        Some(n) => n,
    };
    let stdout = io::stdout();
    let mut out = BufWriter::new(stdout.lock());
    if args.json {
        writeln!(out, "{}", analysis_json(&analysis, limit))?;
    } else {
        write_analysis_text(&mut out, &analysis, limit)?;
    }
    out.flush()?;
    Ok(())
}

/// A position as JSON: heaps as an array, anything else as a string.
pub fn position_json(value: &PositionValue) -> serde_json::Value {
    match value {
        PositionValue::Heaps(h) => serde_json::json!(h),
        PositionValue::Text(t) => serde_json::json!(t),
    }
}

/// The contract's JSON object for any game.
pub fn analysis_json(a: &Analysis, limit: usize) -> serde_json::Value {
    let moves: Vec<serde_json::Value> = a
        .winning_moves
        .iter()
        .take(limit)
        .map(|m| {
            let mut entry = serde_json::json!({
                "to": position_json(&m.to),
                "text": capitalise(&m.text),
                "move": m.notation,
            });
            // A move that changes several heaps has `heap` null and `take`
            // the number of objects it removes in all.
            if m.heap.is_some() || m.take.is_some() {
                entry["heap"] = serde_json::json!(m.heap);
                entry["take"] = serde_json::json!(m.take);
            }
            entry
        })
        .collect();
    let mut object = serde_json::json!({
        "game": a.game.to_string(),
        "convention": a.convention.name(),
        "position": position_json(&a.position),
        "outcome": a.outcome.to_string(),
        "grundy": a.grundy.map(|g| g.value()),
        "winning_moves": moves,
        "winning_moves_total": a.winning_moves.len(),
        "winning_moves_truncated": a.winning_moves.len() > limit,
        "method": a.method.to_string(),
        "explanation": a.explanation,
    });
    // Games with extra results (Candy Nim's split) state them in the
    // explanation as a `candy: {...}` JSON line; surface it as a field.
    for line in a.explanation.lines() {
        if let Some(data) = line.strip_prefix("candy: ")
            && let Ok(value) = serde_json::from_str::<serde_json::Value>(data)
        {
            object["candy"] = value;
        }
    }
    object
}

fn write_analysis_text(out: &mut impl Write, a: &Analysis, limit: usize) -> io::Result<()> {
    writeln!(
        out,
        "Game: {} ({} play)",
        a.game,
        convention_word(a.convention)
    )?;
    writeln!(out, "Position: {}", a.position_text)?;
    writeln!(out)?;
    out.write_all(a.explanation.as_bytes())?;
    if !a.explanation.ends_with('\n') {
        writeln!(out)?;
    }
    writeln!(out)?;
    writeln!(out, "Outcome: {}", verdict(a.outcome))?;
    if let Some(g) = a.grundy {
        writeln!(out, "Grundy value (normal play): {g}")?;
    }
    writeln!(out, "Method: {}", a.method)?;
    if a.winning_moves.is_empty() {
        writeln!(out, "Winning moves: none")?;
        return Ok(());
    }
    writeln!(out, "Winning moves ({}):", a.winning_moves.len())?;
    for m in a.winning_moves.iter().take(limit) {
        writeln!(out, "  {} → {}", m.text, m.to_text)?;
    }
    if a.winning_moves.len() > limit {
        writeln!(out, "  … {} more", a.winning_moves.len() - limit)?;
    }
    Ok(())
}

fn convention_word(c: Convention) -> &'static str {
    match c {
        Convention::Normal => "normal",
        Convention::Misere => "misère",
    }
}

fn verdict(o: nimatron::Outcome) -> &'static str {
    if o.to_move_wins() {
        "N: the player to move wins"
    } else {
        "P: the player to move loses against perfect play"
    }
}

/// Nim's own path: streams millions of heaps without building text.
fn run_nim(args: &AnalyzeArgs, spec: &GameSpec, convention: Convention) -> anyhow::Result<()> {
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
        write_nim_json(&mut out, spec, convention, &heaps, &analysis, &moves, total)?;
    } else {
        write_nim_text(&mut out, spec, convention, &heaps, &analysis, &moves, total)?;
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

fn write_nim_json(
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
            ",\"text\":{},\"move\":\"{} {}\"}}",
            json_string(&capitalise(&describe_move(mv, heaps))),
            explain::heap_name(mv.heap),
            mv.take
        )?;
    }
    let explanation = if heaps.len() <= 1000 {
        json_string(&explain::explain_nim(heaps, analysis))
    } else {
        "null".to_string()
    };
    writeln!(
        out,
        "],\"winning_moves_total\":{total},\"winning_moves_truncated\":{},\"method\":\"closed form: Bouton's theorem\",\"explanation\":{explanation}}}",
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

/// The first letter in upper case.
pub fn capitalise(s: &str) -> String {
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

fn write_nim_text(
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
    writeln!(out, "Outcome: {}", verdict(analysis.outcome))?;
    if total == 0 {
        writeln!(out, "Winning moves: none")?;
        return Ok(());
    }
    writeln!(out, "Winning moves ({total}):")?;
    for mv in moves {
        let after = if heaps.len() <= 16 {
            show_heaps(&mv.apply(heaps))
        } else {
            format!(
                "heap {} = {}",
                explain::heap_name(mv.heap),
                heaps[mv.heap] - mv.take
            )
        };
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
