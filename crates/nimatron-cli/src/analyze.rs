//! `nimatron analyze`: verdict, explanation and every winning move.

use std::io::{self, BufWriter, Read, Write};

use anyhow::Context;

use nimatron::parse_heap_list;
use nimatron::{
    Analysis, AnalyzeOptions, Convention, GameError, GameSpec, PositionValue, Remoteness,
};

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

/// Misère play if asked for, or if it is the only play the game offers
/// (Notakto); else normal play.
pub fn convention_for(misere: bool, game: &dyn nimatron::Game) -> Convention {
    if misere || game.conventions() == [Convention::Misere] {
        Convention::Misere
    } else {
        Convention::Normal
    }
}

/// Map a library error to the CLI's exit codes: bad positions and
/// conventions are bad input (2); a search limit is a failure (1).
pub fn game_error(e: GameError) -> anyhow::Error {
    match e {
        GameError::Position(_) | GameError::Convention { .. } => bad_input(e.to_string()),
        GameError::Solve(s) => anyhow::anyhow!("{}", solve_error_words(&s)),
    }
}

/// A solver's limit in the CLI's words: which flag raises it.
pub fn solve_error_words(e: &nimatron::SolveError) -> String {
    match e {
        nimatron::SolveError::StateLimit { .. } => {
            format!("{e}; raise the limit (--max-states) or try a smaller position")
        }
        nimatron::SolveError::TimeLimit { .. } => {
            format!("{e}; raise the limit (--max-seconds) or try a smaller position")
        }
        nimatron::SolveError::TooLarge { .. } | nimatron::SolveError::Interrupted => e.to_string(),
        nimatron::SolveError::Unresolved { limit, .. } => match **limit {
            nimatron::SolveError::TimeLimit { .. } => {
                format!("{e}; raise the time limit (--max-seconds) to give both longer")
            }
            _ => format!("{e}; raise the limit (--max-states) to give both more room"),
        },
    }
}

pub fn run(args: AnalyzeArgs) -> anyhow::Result<()> {
    let spec = args.game.clone();
    if args.words.is_some() && spec != GameSpec::Wordnim {
        return Err(bad_input(format!(
            "--words gives Wordnim's dictionary; it does not apply to {spec}"
        )));
    }
    let game = build_game(&spec, args.words.as_deref())?;
    let convention = convention_for(args.misere, game.as_ref());
    let mut position = if spec == GameSpec::Nim && args.moves.is_empty() {
        // Nim reads millions of heaps as numbers, not as one long text.
        let heaps = read_heaps(&args.position, "nimatron analyze 3 4 5")?;
        game.heap_position(&heaps)
            .map_err(|e| bad_input(e.to_string()))?
    } else {
        let text = if args.position.iter().any(|w| w == "-") {
            if args.position.len() != 1 {
                return Err(bad_input(
                    "'-' reads the position from standard input and must be the only position argument",
                ));
            }
            String::from_utf8(read_stdin()?)
                .map_err(|_| bad_input("standard input is not UTF-8 text"))?
        } else if args.position.is_empty() {
            let start = game.start().ok_or_else(|| {
                bad_input(format!(
                    "no position given for {spec}: {}",
                    game.position_syntax()
                ))
            })?;
            start.text().to_string()
        } else {
            args.position.join(" ")
        };
        if let Some(note) = numbers_note(&spec, &text) {
            eprintln!("note: {note}");
        }
        game.parse(&text).map_err(|e| bad_input(e.to_string()))?
    };
    for mv in &args.moves {
        let info = game
            .parse_move(&position, mv)
            .map_err(|e| bad_input(format!("--move '{mv}' from {position}: {e}")))?;
        position = info.after().clone();
    }
    let heap_count = match game.value(&position) {
        Ok(PositionValue::Heaps(h)) => h.len(),
        _ => 0,
    };
    let limit = match args.limit {
        Some(0) => usize::MAX,
        Some(n) => n,
        // Huge Nim positions list one move unless asked for more.
        None if heap_count > 1000 => 1,
        None if spec == GameSpec::Nim => 100,
        None => usize::MAX,
    };
    let options = AnalyzeOptions {
        max_moves: limit,
        ..AnalyzeOptions::new(crate::limits(
            args.max_states,
            crate::default_seconds(args.max_seconds, &spec, convention),
        ))
    };
    // What earlier runs learnt of the game's misère quotient, kept.
    let _kept = crate::kept::Kept::load(game.as_ref(), convention);
    let analysis = game
        .analyze_with(&position, convention, &options)
        .map_err(game_error)?;
    let stdout = io::stdout();
    let mut out = BufWriter::with_capacity(1 << 16, stdout.lock());
    if args.json {
        serde_json::to_writer(&mut out, &analysis)?;
        writeln!(out)?;
    } else {
        write_analysis_text(&mut out, &analysis)?;
    }
    out.flush()?;
    Ok(())
}

fn write_analysis_text(out: &mut impl Write, a: &Analysis) -> io::Result<()> {
    writeln!(
        out,
        "Game: {} ({} play)",
        a.game,
        convention_word(a.convention)
    )?;
    writeln!(out, "Position: {}", shown_position(a))?;
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
    if let Some(r) = a.remoteness {
        writeln!(out, "Remoteness: {}", remoteness_words(a.outcome, r))?;
    }
    match a.method.states() {
        Some(n) => writeln!(out, "Method: {} ({n} stored)", a.method)?,
        None => writeln!(out, "Method: {}", a.method)?,
    }
    if let Some(race) = &a.details.misere {
        writeln!(out, "Race: {}", race.describe())?;
    }
    if a.winning_moves_total == 0 {
        writeln!(out, "Winning moves: none")?;
        return Ok(());
    }
    writeln!(out, "Winning moves ({}):", a.winning_moves_total)?;
    for m in &a.winning_moves {
        let value = m
            .value
            .and_then(|v| v.remoteness.map(|_| format!(" ({})", v.describe())))
            .unwrap_or_default();
        writeln!(out, "  {} → {}{value}", m.text, shown_after(m))?;
    }
    if a.details.unlisted_winning > 0 {
        writeln!(
            out,
            "  … {} more, counted by the period as above: a heap this large has too many to list",
            a.winning_moves_total - a.winning_moves.len()
        )?;
    } else if a.truncated() {
        writeln!(
            out,
            "  … {} more (use --limit 0 to list them all)",
            a.winning_moves_total - a.winning_moves.len()
        )?;
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

fn show_heaps(heaps: &[u64]) -> String {
    const SHOWN: usize = 16;
    let mut words: Vec<String> = heaps.iter().take(SHOWN).map(u64::to_string).collect();
    if heaps.len() > SHOWN {
        words.push(format!("… ({} heaps)", heaps.len()));
    }
    words.join(" ")
}

/// The position as the text output shows it: long heap lists shortened.
fn shown_position(a: &Analysis) -> String {
    match &a.position {
        PositionValue::Heaps(h) if h.len() > 16 => show_heaps(h),
        _ => a.position_text.clone(),
    }
}

/// Where a move leads, shortened for long heap lists.
fn shown_after(m: &nimatron::MoveInfo) -> String {
    match (&m.to, m.heap) {
        (PositionValue::Heaps(h), Some(i)) if h.len() > 16 => {
            format!("heap {} = {}", nimatron::heap_name(i), h[i])
        }
        _ => m.to_text.clone(),
    }
}

fn remoteness_words(outcome: nimatron::Outcome, r: Remoteness) -> String {
    let who = if outcome.to_move_wins() {
        "the player to move wins"
    } else {
        "the player to move loses"
    };
    let moves = |n: u64| if n == 1 { "move" } else { "moves" };
    match r {
        Remoteness::Exact(n) => format!("{who} in {n} {} with perfect play", moves(n)),
        Remoteness::AtMost(n) => format!("{who} in at most {n} {}", moves(n)),
    }
}

/// A warning for a position that reads as heap sizes but is not: in
/// Notakto a number k stands for k empty boards, so `3 4` is seven empty
/// boards, not boards of 3 and 4 of anything.
pub(crate) fn numbers_note(spec: &GameSpec, text: &str) -> Option<String> {
    let GameSpec::Notakto { .. } = spec else {
        return None;
    };
    let words: Vec<&str> = text.split_whitespace().collect();
    let numbers: Vec<u64> = words.iter().filter_map(|w| w.parse().ok()).collect();
    if words.len() < 2 || numbers.len() != words.len() {
        return None;
    }
    let total = numbers.iter().fold(0u64, |a, &n| a.saturating_add(n));
    Some(format!(
        "in Notakto a number k stands for k empty boards, so '{}' is {total} empty boards in all (not heaps); give boards by their cells for anything else, e.g. 'X...X.... .........'",
        words.join(" ")
    ))
}
