//! `Game`: any catalogue game, its position, analysis and play; and
//! `analyze`, the one-call analysis (Nim's many-heap positions by Bouton's
//! scan over the caller's array, without a copy into text).

use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock};
use std::time::Duration;

use numpy::PyReadonlyArray1;
use pyo3::IntoPyObjectExt;
use pyo3::prelude::*;

use nimatron::computer_choice;
use nimatron::nim::{self, Regime};
use nimatron::{
    AnalyzeOptions, Convention, Game, GameSpec, Limits, Method, Position, PositionValue,
};
use nimatron::{EXPLAINED_HEAPS, describe_move, explain_nim};
use nimatron::{Level, SplitMix64};

use crate::analysis::{
    AnalysisData, MoveData, PosData, PyAnalysis, PyMove, ToData, Total, escape, regime_name,
};
use crate::args::{self, Int};
use crate::errors;
use crate::interrupt;
use crate::positions::{heaps_of, is_ndarray, position_of};

/// Moves of the history shown in a notebook.
const HTML_HISTORY: usize = 20;
/// Characters of a position's text shown in a notebook.
const HTML_TEXT: usize = 200;

/// `text` cut to about `chars` characters, with "…" if cut.
pub fn truncated(text: &str, chars: usize) -> String {
    match text.char_indices().nth(chars) {
        Some((cut, _)) => format!("{}…", &text[..cut]),
        None => text.to_string(),
    }
}

/// The default state limit of the solvers (as the CLI's `--max-states`).
pub const DEFAULT_MAX_STATES: usize = Limits::DEFAULT_MAX_STATES;
/// The default time limit, in seconds (as the CLI's `--max-seconds`).
pub const DEFAULT_MAX_SECONDS: f64 = 120.0;

/// The default of `max_states`, as an argument.
pub const MAX_STATES: Int<'static> = Int::Default(DEFAULT_MAX_STATES as u64);

/// `max_states`, checked.
pub fn max_states(max_states: &Int<'_>) -> PyResult<usize> {
    max_states.count("max_states", 1, usize::MAX)
}

/// `max_moves`, checked (None: the default).
pub fn max_moves(max_moves: Option<&Int<'_>>) -> PyResult<Option<usize>> {
    Ok(args::optional(max_moves, "max_moves", 0, usize::MAX as u64)?.map(|n| n as usize))
}

/// Solver limits from the keyword arguments, checked.
pub fn limits(max_states: usize, max_seconds: Option<f64>) -> PyResult<Limits> {
    let mut limits = Limits::states(max_states);
    if let Some(s) = max_seconds {
        if !(s > 0.0 && s.is_finite() && s < 1e9) {
            return Err(pyo3::exceptions::PyValueError::new_err(format!(
                "max_seconds must be a positive number of seconds (or None for no limit), not {s}"
            )));
        }
        limits = limits.with_time(Duration::from_secs_f64(s));
    }
    Ok(limits)
}

/// Built games, by canonical spec: their solver tables are kept between
/// calls, as the CLI's are within one run and the web server's always.
fn built(py: Python<'_>, spec: &str) -> PyResult<(String, Arc<dyn Game>)> {
    static GAMES: OnceLock<Mutex<HashMap<String, Arc<dyn Game>>>> = OnceLock::new();
    let parsed: GameSpec = spec.parse().map_err(|e| errors::from_spec(py, e))?;
    let name = parsed.to_string();
    let games = GAMES.get_or_init(Default::default);
    if let Some(g) = games.lock().unwrap_or_else(|e| e.into_inner()).get(&name) {
        return Ok((name, Arc::clone(g)));
    }
    let game: Arc<dyn Game> = Arc::from(parsed.build().map_err(|e| errors::from_spec(py, e))?);
    games
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .insert(name.clone(), Arc::clone(&game));
    Ok((name, game))
}

fn convention_for(misere: bool, game: &dyn Game) -> Convention {
    if misere || game.conventions() == [Convention::Misere] {
        Convention::Misere
    } else {
        Convention::Normal
    }
}

fn value_to_py<'py>(py: Python<'py>, v: PositionValue) -> PyResult<Bound<'py, PyAny>> {
    match v {
        PositionValue::Heaps(h) => h.into_bound_py_any(py),
        PositionValue::Text(t) => t.into_bound_py_any(py),
    }
}

/// The CLI's default listing: every winning move, or one above 1000 heaps.
fn default_max_moves(heaps: Option<usize>, max_moves: Option<usize>) -> usize {
    match (max_moves, heaps) {
        (Some(0), _) => usize::MAX,
        (Some(n), _) => n,
        (None, Some(n)) if n > EXPLAINED_HEAPS => 1,
        (None, _) => usize::MAX,
    }
}

/// Nim by Bouton's scan straight over the heaps: what the library's Nim
/// closed form computes, without turning the position into text. The
/// analysis keeps the heaps (its own copy): the moves' `to` are made from
/// them when asked for. `a` is `nim::analyze` of `heaps`.
fn nim_fast(heaps: Vec<u64>, a: nim::NimAnalysis, max_moves: usize) -> AnalysisData {
    let convention = a.convention;
    let kept = Arc::new(heaps);
    let heaps: &[u64] = &kept;
    let source = PosData::Heaps(Arc::clone(&kept));
    let listed: Vec<MoveData> = a
        .winning_moves(heaps)
        .take(max_moves)
        .map(|mv| MoveData {
            notation: format!("{} {}", nimatron::heap_name(mv.heap), mv.take),
            text: describe_move(&mv, heaps),
            heap: Some(mv.heap),
            take: Some(mv.take),
            to: ToData::Reduced {
                before: source.clone(),
                heap: mv.heap,
                take: mv.take,
            },
            wins: Some(true),
            remoteness: None,
        })
        .collect();
    // All listed, or Bouton's rule: counted when first asked for (the
    // analysis itself is then one pass, as the Rust scan); else counted now.
    let total = if listed.len() < max_moves {
        Total::known(listed.len())
    } else if a.regime == Regime::Bouton {
        Total::counted_later(a.leading_bit().trailing_zeros())
    } else {
        Total::known(a.count_winning_moves(heaps))
    };
    let theorem = match a.regime {
        Regime::Bouton => "Bouton's theorem",
        Regime::MisereEndgame => "misère Nim endgame rule",
        Regime::MisereOnesOnly => "misère Nim with 1-heaps only",
    };
    AnalysisData {
        game: "nim".to_string(),
        convention,
        position: source,
        position_text: None,
        outcome: a.outcome,
        grundy: Some(a.nim_sum.value()),
        nim_sum: Some(a.nim_sum.value()),
        regime: Some(regime_name(a.regime)),
        remoteness: None,
        winning_moves: listed,
        winning_moves_total: total,
        winning_moves_unlisted: 0,
        moves: None,
        explanation: explain_nim(heaps, &a),
        method: Method::ClosedForm(theorem.to_string()).to_string(),
        states: None,
    }
}

/// Nim of a contiguous, non-empty `uint64` NumPy array (None for anything
/// else): the heaps copied and scanned in one pass (`nim::analyze_copy`),
/// the GIL released for big arrays. The analysis is of the copy, so it is
/// a value even if another thread writes to the array meanwhile.
fn nim_of_u64_array(
    py: Python<'_>,
    position: &Bound<'_, PyAny>,
    convention: Convention,
    max_moves: Option<usize>,
) -> Option<AnalysisData> {
    if !is_ndarray(position) {
        return None;
    }
    let array = position.extract::<PyReadonlyArray1<'_, u64>>().ok()?;
    let heaps = array.as_slice().ok()?;
    if heaps.is_empty() {
        // Refused by `heaps_of`, with its words.
        return None;
    }
    let max_moves = default_max_moves(Some(heaps.len()), max_moves);
    let work = || {
        let mut copy = Vec::new();
        let a = nim::analyze_copy(heaps, convention, &mut copy);
        nim_fast(copy, a, max_moves)
    };
    Some(if heaps.len() >= 1 << 16 {
        py.detach(work)
    } else {
        work()
    })
}

/// Analyse a position: who wins, the value, every winning move, and why.
///
/// `position` is a list (or tuple, or NumPy array) of heap sizes for heap
/// games, or the position's text for any game. `game` is any catalogue
/// spec ("nim", "kayles", "subtraction:1,3,4", "chomp:3x4", ...).
/// `max_moves` caps the winning moves listed (all are counted); by default
/// all are listed, or one above 1000 heaps; 0 lists all.
///
/// Nim positions given as a NumPy array, or with more than 1000 heaps, are
/// scanned in place by Bouton's rule; their `remoteness` is not computed.
/// Raises SpecError, PositionError, ConventionError or LimitError.
#[pyfunction]
#[pyo3(
    signature = (position, misere = false, *, game = "nim", max_moves = None, every_move = false, max_states = MAX_STATES, max_seconds = Some(DEFAULT_MAX_SECONDS)),
    text_signature = "(position, misere=False, *, game='nim', max_moves=None, every_move=False, max_states=5000000, max_seconds=120.0)"
)]
#[allow(clippy::too_many_arguments)]
pub fn analyze(
    py: Python<'_>,
    position: &Bound<'_, PyAny>,
    misere: bool,
    game: &str,
    max_moves: Option<Int<'_>>,
    every_move: bool,
    max_states: Int<'_>,
    max_seconds: Option<f64>,
) -> PyResult<PyAnalysis> {
    let limits = limits(self::max_states(&max_states)?, max_seconds)?;
    let max_moves = self::max_moves(max_moves.as_ref())?;
    let (name, built) = built(py, game)?;
    let convention = convention_for(misere, built.as_ref());
    if name == "nim"
        && !every_move
        && let Some(data) = nim_of_u64_array(py, position, convention, max_moves)
    {
        return Ok(PyAnalysis { data });
    }
    // Read once: an iterator or a generator gives its heaps only once.
    let position = match heaps_of(position, built.position_syntax())? {
        None => {
            let text: String = position.extract()?;
            built
                .parse(&text)
                .map_err(|e| errors::from_position(py, e))?
        }
        Some(heaps) => {
            if name == "nim"
                && !every_move
                && (is_ndarray(position) || heaps.len() > EXPLAINED_HEAPS)
            {
                let max_moves = default_max_moves(Some(heaps.len()), max_moves);
                let big = heaps.len() >= 1 << 16;
                let work = || {
                    let a = nim::analyze(&heaps, convention);
                    nim_fast(heaps, a, max_moves)
                };
                let data = if big { py.detach(work) } else { work() };
                return Ok(PyAnalysis { data });
            }
            built
                .heap_position(&heaps)
                .map_err(|e| errors::from_position(py, e))?
        }
    };
    analyze_position(
        py,
        built.as_ref(),
        &position,
        convention,
        limits,
        max_moves,
        every_move,
    )
}

fn analyze_position(
    py: Python<'_>,
    game: &dyn Game,
    position: &Position,
    convention: Convention,
    limits: Limits,
    max_moves: Option<usize>,
    every_move: bool,
) -> PyResult<PyAnalysis> {
    let heap_count = match game.value(position) {
        Ok(PositionValue::Heaps(h)) => Some(h.len()),
        _ => None,
    };
    let options = AnalyzeOptions {
        max_moves: default_max_moves(heap_count, max_moves),
        every_move,
        ..AnalyzeOptions::new(limits)
    };
    let a = interrupt::run(py, |stop| {
        let options = AnalyzeOptions {
            limits: interrupt::limits(options.limits, stop),
            ..options
        };
        game.analyze_with(position, convention, &options)
    })?
    .map_err(|e| errors::from_game(py, e))?;
    Ok(PyAnalysis {
        data: AnalysisData::from_analysis(&a),
    })
}

/// A game of the catalogue and a position in it, to analyse and play.
///
/// `Game("kayles")` starts from the game's usual start, `Game("nim",
/// [3, 4, 5])` from the heaps given; `Game("chomp:3x4", "...")` from the
/// position's text. `str(game)` draws the board.
#[pyclass(name = "Game", module = "nimatron")]
pub struct PyGame {
    spec: String,
    game: Arc<dyn Game>,
    position: Position,
    start: Position,
    /// Each move played: the position before it, and its notation.
    history: Vec<(Position, String)>,
    misere: bool,
    max_states: usize,
    max_seconds: Option<f64>,
    limits: Limits,
}

impl PyGame {
    fn at(&self, position: Option<&Bound<'_, PyAny>>) -> PyResult<Position> {
        match position {
            None => Ok(self.position.clone()),
            Some(p) if p.is_none() => Ok(self.position.clone()),
            Some(p) => position_of(self.game.as_ref(), p),
        }
    }

    fn convention(&self) -> Convention {
        convention_for(self.misere, self.game.as_ref())
    }

    fn check_convention(&self, py: Python<'_>) -> PyResult<()> {
        let c = self.convention();
        if !self.game.conventions().contains(&c) {
            return Err(errors::from_game(
                py,
                nimatron::GameError::Convention {
                    game: self.spec.clone(),
                    reason: self.game.convention_note().to_string(),
                },
            ));
        }
        Ok(())
    }
}

#[pymethods]
impl PyGame {
    #[new]
    #[pyo3(
        signature = (spec = "nim", position = None, *, misere = false, max_states = MAX_STATES, max_seconds = Some(DEFAULT_MAX_SECONDS)),
        text_signature = "(spec='nim', position=None, *, misere=False, max_states=5000000, max_seconds=120.0)"
    )]
    fn new(
        py: Python<'_>,
        spec: &str,
        position: Option<&Bound<'_, PyAny>>,
        misere: bool,
        max_states: Int<'_>,
        max_seconds: Option<f64>,
    ) -> PyResult<PyGame> {
        let max_states = self::max_states(&max_states)?;
        let limits = limits(max_states, max_seconds)?;
        let (name, game) = built(py, spec)?;
        let position = match position {
            Some(p) if !p.is_none() => position_of(game.as_ref(), p)?,
            _ => game.start().ok_or_else(|| {
                errors::position_error(
                    py,
                    format!("no position given for {name}: {}", game.position_syntax()),
                )
            })?,
        };
        let g = PyGame {
            spec: name,
            game,
            start: position.clone(),
            position,
            history: Vec::new(),
            misere,
            max_states,
            max_seconds,
            limits,
        };
        g.check_convention(py)?;
        Ok(g)
    }

    /// The game's canonical spec.
    #[getter]
    fn spec(&self) -> String {
        self.spec.clone()
    }
    /// The current position: a list of heap sizes, or text.
    #[getter]
    fn get_position<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let v = self
            .game
            .value(&self.position)
            .map_err(|e| errors::from_position(py, e))?;
        value_to_py(py, v)
    }
    /// Set the position (heap sizes or text); the move history is cleared.
    #[setter]
    fn set_position(&mut self, position: &Bound<'_, PyAny>) -> PyResult<()> {
        self.position = position_of(self.game.as_ref(), position)?;
        self.start = self.position.clone();
        self.history.clear();
        Ok(())
    }
    /// The current position in the game's canonical text.
    #[getter]
    fn position_text(&self) -> String {
        self.position.text().to_string()
    }
    /// Whether the game is played under misère rules (the last mover loses).
    #[getter]
    fn misere(&self) -> bool {
        self.convention() == Convention::Misere
    }
    /// "normal" or "misere".
    #[getter]
    fn convention_name(&self) -> &'static str {
        self.convention().name()
    }
    /// The conventions the game offers: ["normal", "misere"], or fewer.
    #[getter]
    fn conventions(&self) -> Vec<&'static str> {
        self.game.conventions().iter().map(|c| c.name()).collect()
    }
    /// How positions are written.
    #[getter]
    fn position_syntax(&self) -> &'static str {
        self.game.position_syntax()
    }
    /// How moves are written.
    #[getter]
    fn move_syntax(&self) -> String {
        self.game.move_syntax()
    }
    /// The moves played since the start (their notation), in order.
    #[getter]
    fn history(&self) -> Vec<String> {
        self.history.iter().map(|(_, m)| m.clone()).collect()
    }
    /// Whether no move is left.
    #[getter]
    fn is_over(&self, py: Python<'_>) -> PyResult<bool> {
        self.game
            .is_terminal(&self.position)
            .map_err(|e| errors::from_position(py, e))
    }

    /// Analyse the current position, or the one given.
    ///
    /// `max_moves` caps the winning moves listed (0 or None: all, or one
    /// above 1000 heaps); `every_move=True` also values every legal move
    /// (`Analysis.moves`). Raises PositionError or LimitError; the GIL is
    /// released while the solvers run.
    #[pyo3(signature = (position = None, *, max_moves = None, every_move = false))]
    fn analyze(
        &self,
        py: Python<'_>,
        position: Option<&Bound<'_, PyAny>>,
        max_moves: Option<Int<'_>>,
        every_move: bool,
    ) -> PyResult<PyAnalysis> {
        let max_moves = self::max_moves(max_moves.as_ref())?;
        let p = self.at(position)?;
        analyze_position(
            py,
            self.game.as_ref(),
            &p,
            self.convention(),
            self.limits,
            max_moves,
            every_move,
        )
    }

    /// "N" if the player to move wins from the current position (or the
    /// one given), else "P".
    #[pyo3(signature = (position = None))]
    fn outcome(&self, py: Python<'_>, position: Option<&Bound<'_, PyAny>>) -> PyResult<String> {
        let p = self.at(position)?;
        let (game, convention, limits) = (self.game.as_ref(), self.convention(), self.limits);
        interrupt::run(py, |stop| {
            game.outcome(&p, convention, interrupt::limits(limits, stop))
        })?
        .map(|o| o.to_string())
        .map_err(|e| errors::from_game(py, e))
    }

    /// Every legal move from the current position (or the one given).
    #[pyo3(signature = (position = None))]
    fn legal_moves(
        &self,
        py: Python<'_>,
        position: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Vec<PyMove>> {
        let p = self.at(position)?;
        // Too many to list is a limit, not bad input.
        if let Some(reason) = self
            .game
            .too_many_moves(&p)
            .map_err(|e| errors::from_position(py, e))?
        {
            return Err(errors::limit_error(
                py,
                &nimatron::solve::SolveError::TooLarge { reason },
            ));
        }
        let moves = self
            .game
            .legal_moves(&p)
            .map_err(|e| errors::from_position(py, e))?;
        Ok(moves
            .iter()
            .map(|m| PyMove {
                data: MoveData::from_info(m),
            })
            .collect())
    }

    /// Play a move: its notation ("A 2", "take 2 from A", ...) or a `Move`
    /// from `legal_moves`, `analyze` or `computer_move`. Returns the move
    /// played. An illegal move raises IllegalMoveError and leaves the
    /// position unchanged.
    #[pyo3(name = "play")]
    fn play_move(&mut self, py: Python<'_>, r#move: &Bound<'_, PyAny>) -> PyResult<PyMove> {
        let text: String = match r#move.cast::<PyMove>() {
            Ok(m) => m.get().data.notation.clone(),
            Err(_) => r#move.extract().map_err(|_| {
                errors::move_error(
                    py,
                    format!(
                        "a move is its notation (a str) or a Move, not {}: {}",
                        r#move
                            .get_type()
                            .name()
                            .map(|n| n.to_string())
                            .unwrap_or_default(),
                        self.game.move_syntax()
                    ),
                )
            })?,
        };
        let info = self
            .game
            .parse_move(&self.position, &text)
            .map_err(|e| errors::move_error(py, format!("'{text}' from {}: {e}", self.position)))?;
        let after = self
            .game
            .apply(&self.position, info.handle())
            .map_err(|e| errors::from_move(py, e))?;
        self.history
            .push((self.position.clone(), info.notation.clone()));
        self.position = after;
        Ok(PyMove {
            data: MoveData::from_info(&info),
        })
    }

    /// Take back the last move played; False if there is none.
    fn undo(&mut self) -> bool {
        match self.history.pop() {
            Some((p, _)) => {
                self.position = p;
                true
            }
            None => false,
        }
    }

    /// The computer's choice from the current position at `level`
    /// ("perfect", "hard", "medium" or "easy"), without playing it: pass it
    /// to `play`. None when no move is left. `seed` makes the weaker
    /// levels' random choices repeatable.
    #[pyo3(signature = (level = "perfect", *, seed = None))]
    fn computer_move(
        &self,
        py: Python<'_>,
        level: &str,
        seed: Option<Int<'_>>,
    ) -> PyResult<Option<PyMove>> {
        let seed = args::optional(seed.as_ref(), "seed", 0, u64::MAX)?;
        let level: Level = level.parse().map_err(|e: nimatron::ParseLevelError| {
            pyo3::exceptions::PyValueError::new_err(e.to_string())
        })?;
        self.check_convention(py)?;
        let seed = seed.unwrap_or_else(|| {
            std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map_or(0x5EED, |d| d.as_nanos() as u64)
        });
        let mut rng = SplitMix64::new(seed);
        let (game, convention, limits) = (self.game.as_ref(), self.convention(), self.limits);
        let position = &self.position;
        let (chosen, why) = interrupt::run(py, |stop| {
            let limits = interrupt::limits(limits, stop);
            computer_choice(game, position, convention, level, &mut rng, limits)
        })?
        .map_err(|e| errors::from_game(py, e))?;
        let Some(m) = chosen else {
            return Ok(None);
        };
        let mut data = MoveData::from_info(&m);
        if let Some(why) = why {
            // Not judged: say so, and leave its worth unknown.
            data.text.push_str(&format!(
                " (a random move: {why}; raise max_states or max_seconds)"
            ));
            data.wins = None;
            return Ok(Some(PyMove { data }));
        }
        // What the move is worth (the solver's tables already hold it).
        let after = interrupt::run(py, |stop| {
            game.outcome(m.after(), convention, interrupt::limits(limits, stop))
        })?
        .map_err(|e| errors::from_game(py, e))?;
        data.wins = Some(after == nimatron::Outcome::P);
        Ok(Some(PyMove { data }))
    }

    /// A copy of the game at its current position.
    fn copy(&self) -> PyGame {
        PyGame {
            spec: self.spec.clone(),
            game: Arc::clone(&self.game),
            position: self.position.clone(),
            start: self.start.clone(),
            history: self.history.clone(),
            misere: self.misere,
            max_states: self.max_states,
            max_seconds: self.max_seconds,
            limits: self.limits,
        }
    }

    fn __copy__(&self) -> PyGame {
        self.copy()
    }

    fn __str__(&self, py: Python<'_>) -> PyResult<String> {
        self.game
            .render(&self.position)
            .map_err(|e| errors::from_position(py, e))
    }

    fn __repr__(&self) -> String {
        let misere = if self.misere { ", misere=True" } else { "" };
        format!("Game({:?}, {:?}{misere})", self.spec, self.position.text())
    }

    /// The game in a notebook: its spec and convention, the board, the
    /// position's text and the moves played.
    fn _repr_html_(&self, py: Python<'_>) -> PyResult<String> {
        let board = self
            .game
            .render(&self.position)
            .map_err(|e| errors::from_position(py, e))?;
        let over = self
            .game
            .is_terminal(&self.position)
            .map_err(|e| errors::from_position(py, e))?;
        let convention = match self.convention() {
            Convention::Normal => "normal play",
            Convention::Misere => "misère play",
        };
        let state = if over {
            "no move is left".to_string()
        } else {
            format!(
                "moves are written <code>{}</code>",
                escape(&self.game.move_syntax())
            )
        };
        let history = if self.history.is_empty() {
            String::new()
        } else {
            let shown: Vec<String> = self
                .history
                .iter()
                .rev()
                .take(HTML_HISTORY)
                .rev()
                .map(|(_, m)| format!("<code>{}</code>", escape(m)))
                .collect();
            let earlier = self.history.len().saturating_sub(HTML_HISTORY);
            let more = if earlier > 0 {
                format!("… {earlier} earlier, ")
            } else {
                String::new()
            };
            format!("<p>Moves played: {more}{}</p>", shown.join(", "))
        };
        Ok(format!(
            "<div class=\"nimatron-game\"><p><b>{}</b> ({convention}): position <code>{}</code>; {state}.</p><pre>{}</pre>{history}</div>",
            escape(&self.spec),
            escape(&truncated(self.position.text(), HTML_TEXT)),
            escape(&board),
        ))
    }

    /// Pickled as its spec, position, convention and limits (the move
    /// history is not kept).
    fn __reduce__<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let cls = py.get_type::<PyGame>();
        let kwargs = pyo3::types::PyDict::new(py);
        kwargs.set_item("misere", self.misere)?;
        kwargs.set_item("max_states", self.max_states)?;
        kwargs.set_item("max_seconds", self.max_seconds)?;
        let functools = py.import("functools")?;
        let ctor = functools.call_method("partial", (cls,), Some(&kwargs))?;
        (ctor, (self.spec.clone(), self.position.text().to_string())).into_bound_py_any(py)
    }
}
