//! `Analysis` and `Move`: a solved position and its moves, as Python
//! objects that hold plain data (no handle into a game), so they can be
//! pickled and outlive the game that made them.

use std::fmt::Write as _;
use std::sync::Arc;

use pyo3::IntoPyObjectExt;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList};

use nimatron::heap_name;
use nimatron::nim::Regime;
use nimatron::{Convention, MoveInfo, Outcome, PositionValue, Remoteness};

/// The first letter in upper case: a move's text as a sentence, as the
/// JSON of `nimatron analyze --json` gives it.
fn capitalise(s: &str) -> String {
    let mut c = s.chars();
    match c.next() {
        Some(first) => first.to_uppercase().chain(c).collect(),
        None => String::new(),
    }
}

/// A position as data: heap sizes (the analysis's own copy, shared by its
/// moves, never copied per move), or text.
#[derive(Clone, Debug)]
pub enum PosData {
    Heaps(Arc<Vec<u64>>),
    Text(String),
}

impl PosData {
    pub fn from_value(v: PositionValue) -> PosData {
        match v {
            PositionValue::Heaps(h) => PosData::Heaps(Arc::new(h)),
            PositionValue::Text(t) => PosData::Text(t),
        }
    }

    /// Run `f` on the heap sizes; `None` for a text position.
    fn with_heaps<R>(&self, _py: Python<'_>, f: impl FnOnce(&[u64]) -> R) -> PyResult<Option<R>> {
        match self {
            PosData::Heaps(h) => Ok(Some(f(h))),
            PosData::Text(_) => Ok(None),
        }
    }

    fn to_py<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        match self {
            PosData::Text(t) => t.into_bound_py_any(py),
            _ => self
                .with_heaps(py, |h| h.into_bound_py_any(py))?
                .expect("heaps"),
        }
    }

    fn text(&self, py: Python<'_>) -> PyResult<String> {
        match self {
            PosData::Text(t) => Ok(t.clone()),
            _ => Ok(self.with_heaps(py, heap_text)?.expect("heaps")),
        }
    }
}

/// Heap sizes as the games write them: `3 4 5`.
pub fn heap_text(heaps: &[u64]) -> String {
    let mut s = String::with_capacity(heaps.len() * 4);
    for (i, h) in heaps.iter().enumerate() {
        if i > 0 {
            s.push(' ');
        }
        let _ = write!(s, "{h}");
    }
    s
}

/// Where a move leads: given, or the heaps before with one heap reduced
/// (computed when asked for, so a million-heap position is not copied for
/// every move listed).
#[derive(Clone, Debug)]
pub enum ToData {
    Given {
        to: PosData,
        text: String,
    },
    Reduced {
        before: PosData,
        heap: usize,
        take: u64,
    },
}

impl ToData {
    fn position(&self, py: Python<'_>) -> PyResult<PosData> {
        match self {
            ToData::Given { to, .. } => Ok(to.clone()),
            ToData::Reduced { before, heap, take } => {
                let after = before.with_heaps(py, |h| {
                    let mut after = h.to_vec();
                    if let Some(x) = after.get_mut(*heap) {
                        *x = x.saturating_sub(*take);
                    }
                    after
                })?;
                Ok(PosData::Heaps(Arc::new(after.unwrap_or_default())))
            }
        }
    }

    fn text(&self, py: Python<'_>) -> PyResult<String> {
        match self {
            ToData::Given { text, .. } => Ok(text.clone()),
            ToData::Reduced { .. } => self.position(py)?.text(py),
        }
    }
}

/// One move, described.
#[derive(Clone, Debug)]
pub struct MoveData {
    pub notation: String,
    pub text: String,
    pub heap: Option<usize>,
    pub take: Option<u64>,
    pub to: ToData,
    pub wins: Option<bool>,
    pub remoteness: Option<Remoteness>,
}

impl MoveData {
    pub fn from_info(m: &MoveInfo) -> MoveData {
        MoveData {
            notation: m.notation.clone(),
            text: m.text.clone(),
            heap: m.heap,
            take: m.take,
            to: ToData::Given {
                to: PosData::from_value(m.to.clone()),
                text: m.to_text.clone(),
            },
            wins: m.value.map(|v| v.wins()),
            remoteness: m.value.and_then(|v| v.remoteness),
        }
    }

    fn value_text(&self) -> Option<String> {
        let verb = if self.wins? { "wins" } else { "loses" };
        Some(match self.remoteness {
            Some(Remoteness::Exact(n)) => format!("{verb} in {n}"),
            Some(Remoteness::AtMost(n)) => format!("{verb} in at most {n}"),
            None => verb.to_string(),
        })
    }

    fn to_dict<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let d = PyDict::new(py);
        d.set_item("heap", self.heap)?;
        d.set_item("take", self.take)?;
        d.set_item("to", self.to.position(py)?.to_py(py)?)?;
        d.set_item("to_text", self.to.text(py)?)?;
        d.set_item("text", capitalise(&self.text))?;
        d.set_item("move", &self.notation)?;
        d.set_item(
            "value",
            self.wins.map(|w| if w { "winning" } else { "losing" }),
        )?;
        d.set_item("remoteness", remoteness_dict(py, self.remoteness)?)?;
        d.set_item("value_text", self.value_text())?;
        Ok(d)
    }

    fn from_dict(d: &Bound<'_, PyDict>) -> PyResult<MoveData> {
        let to: PosData = pos_from_py(&item(d, "to")?)?;
        let text: String = item(d, "to_text")?.extract()?;
        let value: Option<String> = item(d, "value")?.extract()?;
        Ok(MoveData {
            notation: item(d, "move")?.extract()?,
            text: item(d, "text")?.extract()?,
            heap: item(d, "heap")?.extract()?,
            take: item(d, "take")?.extract()?,
            to: ToData::Given { to, text },
            wins: value.map(|v| v == "winning"),
            remoteness: remoteness_from_py(&item(d, "remoteness")?)?,
        })
    }
}

fn item<'py>(d: &Bound<'py, PyDict>, key: &str) -> PyResult<Bound<'py, PyAny>> {
    d.get_item(key)?
        .ok_or_else(|| pyo3::exceptions::PyKeyError::new_err(key.to_string()))
}

fn pos_from_py(obj: &Bound<'_, PyAny>) -> PyResult<PosData> {
    if let Ok(text) = obj.extract::<String>() {
        Ok(PosData::Text(text))
    } else {
        Ok(PosData::Heaps(Arc::new(obj.extract::<Vec<u64>>()?)))
    }
}

fn remoteness_dict<'py>(
    py: Python<'py>,
    r: Option<Remoteness>,
) -> PyResult<Option<Bound<'py, PyDict>>> {
    r.map(|r| {
        let d = PyDict::new(py);
        d.set_item("moves", r.moves())?;
        d.set_item("exact", r.is_exact())?;
        Ok(d)
    })
    .transpose()
}

fn remoteness_from_py(obj: &Bound<'_, PyAny>) -> PyResult<Option<Remoteness>> {
    if obj.is_none() {
        return Ok(None);
    }
    let d = obj.cast::<PyDict>()?;
    let moves: u64 = item(d, "moves")?.extract()?;
    let exact: bool = item(d, "exact")?.extract()?;
    Ok(Some(if exact {
        Remoteness::Exact(moves)
    } else {
        Remoteness::AtMost(moves)
    }))
}

/// A move of some game: where it leads, in words, and what it is worth.
///
/// `str(move)` is its notation (what `Game.play` accepts).
#[pyclass(name = "Move", module = "nimatron", frozen)]
#[derive(Clone)]
pub struct PyMove {
    pub data: MoveData,
}

#[pymethods]
impl PyMove {
    /// The 0-based heap index, for heap games (None for moves that change
    /// several heaps, and in other games).
    #[getter]
    fn heap(&self) -> Option<usize> {
        self.data.heap
    }
    /// Objects removed, for heap games.
    #[getter]
    fn take(&self) -> Option<u64> {
        self.data.take
    }
    /// The position after the move: a list of heap sizes, or text.
    #[getter]
    fn to<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        self.data.to.position(py)?.to_py(py)
    }
    /// The position after the move, in the game's canonical text.
    #[getter]
    fn to_text(&self, py: Python<'_>) -> PyResult<String> {
        self.data.to.text(py)
    }
    /// A sentence for people, e.g. "Take 2 from heap A (3 → 1)".
    #[getter]
    fn text(&self) -> String {
        capitalise(&self.data.text)
    }
    /// The move in the game's notation, e.g. "A 2".
    #[getter]
    fn notation(&self) -> String {
        self.data.notation.clone()
    }
    /// Whether the move wins (leaves the opponent lost); None when the move
    /// was not valued (`Game.legal_moves`).
    #[getter]
    fn wins(&self) -> Option<bool> {
        self.data.wins
    }
    /// Moves to the end of the game under perfect play if this move is
    /// played, counting it; None where unknown.
    #[getter]
    fn remoteness(&self) -> Option<u64> {
        self.data.remoteness.map(Remoteness::moves)
    }
    /// Whether `remoteness` is exact (True) or a bound (False); None when
    /// there is no remoteness.
    #[getter]
    fn remoteness_exact(&self) -> Option<bool> {
        self.data.remoteness.map(Remoteness::is_exact)
    }
    /// "wins in 11", "loses in 3", "wins": what the move is worth, in words.
    #[getter]
    fn value_text(&self) -> Option<String> {
        self.data.value_text()
    }
    /// The move as a dict, in the shape of `nimatron analyze --json`.
    fn to_dict<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        self.data.to_dict(py)
    }
    fn __str__(&self) -> String {
        self.data.notation.clone()
    }
    fn __repr__(&self) -> String {
        format!(
            "Move({:?}, text={:?})",
            self.data.notation,
            capitalise(&self.data.text)
        )
    }
    fn __eq__(&self, py: Python<'_>, other: &Bound<'_, PyAny>) -> PyResult<bool> {
        match other.cast::<PyMove>() {
            Ok(o) => {
                let o = &o.get().data;
                Ok(o.notation == self.data.notation
                    && o.wins == self.data.wins
                    && o.to.text(py)? == self.data.to.text(py)?)
            }
            Err(_) => Ok(false),
        }
    }
    /// The move in a notebook: its notation, in words, and its worth.
    fn _repr_html_(&self, py: Python<'_>) -> PyResult<String> {
        let worth = match self.data.value_text() {
            Some(v) => format!(" <i>({})</i>", escape(&v)),
            None => String::new(),
        };
        Ok(format!(
            "<span class=\"nimatron-move\"><code>{}</code>: {} → <code>{}</code>{worth}</span>",
            escape(&self.data.notation),
            escape(&capitalise(&self.data.text)),
            escape(&self.data.to.text(py)?),
        ))
    }
    fn __reduce__<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let module = py.import("nimatron._nimatron")?;
        let f = module.getattr("_move_from_dict")?;
        (f, (self.data.to_dict(py)?,)).into_bound_py_any(py)
    }
}

#[pyfunction]
pub fn _move_from_dict(d: &Bound<'_, PyDict>) -> PyResult<PyMove> {
    Ok(PyMove {
        data: MoveData::from_dict(d)?,
    })
}

/// Everything an analysis says, as data.
#[derive(Clone, Debug)]
pub struct AnalysisData {
    pub game: String,
    pub convention: Convention,
    pub position: PosData,
    /// Given when cheap; else made from `position` when asked for.
    pub position_text: Option<String>,
    pub outcome: Outcome,
    pub grundy: Option<u64>,
    pub nim_sum: Option<u64>,
    pub regime: Option<&'static str>,
    pub remoteness: Option<Remoteness>,
    pub winning_moves: Vec<MoveData>,
    pub winning_moves_total: Total,
    /// Winning moves counted but not listed whatever `max_moves` asks (a
    /// heap too large for its moves to be examined one by one).
    pub winning_moves_unlisted: usize,
    pub moves: Option<Vec<MoveData>>,
    pub explanation: String,
    pub method: String,
    pub states: Option<usize>,
}

/// How many winning moves there are: known, or (for Nim under Bouton's
/// rule) counted from the position when first asked for, as the heaps
/// with a 1 in the nim-sum's leading bit, `bit`.
#[derive(Debug)]
pub struct Total {
    known: std::sync::OnceLock<usize>,
    leading_bit: Option<u32>,
}

impl Clone for Total {
    fn clone(&self) -> Total {
        Total {
            known: self.known.clone(),
            leading_bit: self.leading_bit,
        }
    }
}

impl Total {
    pub fn known(n: usize) -> Total {
        Total {
            known: std::sync::OnceLock::from(n),
            leading_bit: None,
        }
    }

    pub fn counted_later(leading_bit: u32) -> Total {
        Total {
            known: std::sync::OnceLock::new(),
            leading_bit: Some(leading_bit),
        }
    }

    fn get(&self, py: Python<'_>, position: &PosData) -> PyResult<usize> {
        if let Some(&n) = self.known.get() {
            return Ok(n);
        }
        let bit = self.leading_bit.unwrap_or(0);
        let n = position
            .with_heaps(py, |h| {
                h.iter().map(|&x| (x >> bit) & 1).sum::<u64>() as usize
            })?
            .unwrap_or(0);
        Ok(*self.known.get_or_init(|| n))
    }
}

pub fn regime_name(regime: Regime) -> &'static str {
    match regime {
        Regime::Bouton => "bouton",
        Regime::MisereEndgame => "misere-endgame",
        Regime::MisereOnesOnly => "misere-ones-only",
    }
}

fn regime_from_name(name: &str) -> Option<&'static str> {
    ["bouton", "misere-endgame", "misere-ones-only"]
        .into_iter()
        .find(|r| *r == name)
}

impl AnalysisData {
    pub fn from_analysis(a: &nimatron::Analysis) -> AnalysisData {
        AnalysisData {
            game: a.game.clone(),
            convention: a.convention,
            position: PosData::from_value(a.position.clone()),
            position_text: Some(a.position_text.clone()),
            outcome: a.outcome,
            grundy: a.grundy.map(|g| g.value()),
            nim_sum: a.details.nim.map(|n| n.nim_sum.value()),
            regime: a.details.nim.map(|n| regime_name(n.regime)),
            remoteness: a.remoteness,
            winning_moves: a.winning_moves.iter().map(MoveData::from_info).collect(),
            winning_moves_total: Total::known(a.winning_moves_total),
            winning_moves_unlisted: a.details.unlisted_winning,
            moves: a
                .moves
                .as_ref()
                .map(|m| m.iter().map(MoveData::from_info).collect()),
            explanation: a.explanation.clone(),
            method: a.method.to_string(),
            states: a.method.states(),
        }
    }

    fn position_text(&self, py: Python<'_>) -> PyResult<String> {
        match &self.position_text {
            Some(t) => Ok(t.clone()),
            None => self.position.text(py),
        }
    }

    fn to_dict<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let d = PyDict::new(py);
        d.set_item("game", &self.game)?;
        d.set_item("convention", self.convention.name())?;
        d.set_item("position", self.position.to_py(py)?)?;
        d.set_item("position_text", self.position_text(py)?)?;
        d.set_item("outcome", self.outcome.to_string())?;
        d.set_item("grundy", self.grundy)?;
        d.set_item("nim_sum", self.nim_sum)?;
        d.set_item("regime", self.regime)?;
        d.set_item("remoteness", remoteness_dict(py, self.remoteness)?)?;
        let moves = PyList::empty(py);
        for m in &self.winning_moves {
            moves.append(m.to_dict(py)?)?;
        }
        d.set_item("winning_moves", moves)?;
        let total = self.winning_moves_total.get(py, &self.position)?;
        d.set_item("winning_moves_total", total)?;
        d.set_item("winning_moves_truncated", self.winning_moves.len() < total)?;
        if self.winning_moves_unlisted > 0 {
            // As the CLI: present only for a heap too large to list.
            d.set_item("winning_moves_unlisted", self.winning_moves_unlisted)?;
        }
        if let Some(all) = &self.moves {
            let moves = PyList::empty(py);
            for m in all {
                moves.append(m.to_dict(py)?)?;
            }
            d.set_item("moves", moves)?;
        }
        d.set_item("method", &self.method)?;
        d.set_item("states", self.states)?;
        d.set_item("explanation", &self.explanation)?;
        Ok(d)
    }

    fn from_dict(d: &Bound<'_, PyDict>) -> PyResult<AnalysisData> {
        let convention: String = item(d, "convention")?.extract()?;
        let outcome: String = item(d, "outcome")?.extract()?;
        let regime: Option<String> = item(d, "regime")?.extract()?;
        let moves_of = |list: Bound<'_, PyAny>| -> PyResult<Vec<MoveData>> {
            let mut out = Vec::new();
            for m in list.try_iter()? {
                out.push(MoveData::from_dict(m?.cast::<PyDict>()?)?);
            }
            Ok(out)
        };
        let moves = match d.get_item("moves")? {
            Some(m) if !m.is_none() => Some(moves_of(m)?),
            _ => None,
        };
        Ok(AnalysisData {
            game: item(d, "game")?.extract()?,
            convention: convention
                .parse()
                .map_err(|e: nimatron::ParseConventionError| {
                    pyo3::exceptions::PyValueError::new_err(e.to_string())
                })?,
            position: pos_from_py(&item(d, "position")?)?,
            position_text: Some(item(d, "position_text")?.extract()?),
            outcome: if outcome == "N" {
                Outcome::N
            } else {
                Outcome::P
            },
            grundy: item(d, "grundy")?.extract()?,
            nim_sum: item(d, "nim_sum")?.extract()?,
            regime: regime.as_deref().and_then(regime_from_name),
            remoteness: remoteness_from_py(&item(d, "remoteness")?)?,
            winning_moves: moves_of(item(d, "winning_moves")?)?,
            winning_moves_total: Total::known(item(d, "winning_moves_total")?.extract()?),
            // Absent from dictionaries written before it existed.
            winning_moves_unlisted: match d.get_item("winning_moves_unlisted")? {
                Some(v) => v.extract()?,
                None => 0,
            },
            moves,
            explanation: item(d, "explanation")?.extract()?,
            method: item(d, "method")?.extract()?,
            states: item(d, "states")?.extract()?,
        })
    }
}

/// A solved position: who wins, the value, every winning move, and why.
///
/// In a notebook it displays as HTML: for Nim, the heaps in binary with
/// the nim-sum line (Wikipedia's table), then the winning moves.
#[pyclass(name = "Analysis", module = "nimatron", frozen)]
pub struct PyAnalysis {
    pub data: AnalysisData,
}

fn moves_list(py: Python<'_>, moves: &[MoveData]) -> PyResult<Vec<Py<PyMove>>> {
    moves
        .iter()
        .map(|m| Py::new(py, PyMove { data: m.clone() }))
        .collect()
}

#[pymethods]
impl PyAnalysis {
    /// The game, as its canonical spec (e.g. "nim", "octal:0.77").
    #[getter]
    fn game(&self) -> String {
        self.data.game.clone()
    }
    /// "normal" or "misere".
    #[getter]
    fn convention(&self) -> &'static str {
        self.data.convention.name()
    }
    /// Whether the analysis is for misère play.
    #[getter]
    fn misere(&self) -> bool {
        self.data.convention == Convention::Misere
    }
    /// The position: a list of heap sizes, or the position's text.
    #[getter]
    fn position<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        self.data.position.to_py(py)
    }
    /// The position in the game's canonical text.
    #[getter]
    fn position_text(&self, py: Python<'_>) -> PyResult<String> {
        self.data.position_text(py)
    }
    /// "N" if the player to move wins, "P" if the player to move loses.
    #[getter]
    fn outcome(&self) -> String {
        self.data.outcome.to_string()
    }
    /// Whether the player to move wins (outcome "N").
    #[getter]
    fn to_move_wins(&self) -> bool {
        self.data.outcome.to_move_wins()
    }
    /// The normal-play Sprague–Grundy value, where one is computed.
    #[getter]
    fn grundy(&self) -> Option<u64> {
        self.data.grundy
    }
    /// Nim only: the XOR of the heap sizes (None for other games).
    #[getter]
    fn nim_sum(&self) -> Option<u64> {
        self.data.nim_sum
    }
    /// Nim only: the rule that decides ("bouton", "misere-endgame",
    /// "misere-ones-only").
    #[getter]
    fn regime(&self) -> Option<&'static str> {
        self.data.regime
    }
    /// Moves left under perfect play (the winner hurrying, the loser
    /// delaying), where known.
    #[getter]
    fn remoteness(&self) -> Option<u64> {
        self.data.remoteness.map(Remoteness::moves)
    }
    /// Whether `remoteness` is exact (True) or a bound (False).
    #[getter]
    fn remoteness_exact(&self) -> Option<bool> {
        self.data.remoteness.map(Remoteness::is_exact)
    }
    /// The winning moves listed (at most `max_moves` of them).
    #[getter]
    fn winning_moves(&self, py: Python<'_>) -> PyResult<Vec<Py<PyMove>>> {
        moves_list(py, &self.data.winning_moves)
    }
    /// How many winning moves there are in all.
    #[getter]
    fn winning_moves_total(&self, py: Python<'_>) -> PyResult<usize> {
        self.data.winning_moves_total.get(py, &self.data.position)
    }
    /// Winning moves counted but not listed, whatever `max_moves` asks: a
    /// heap too large for its moves to be examined one by one has them
    /// counted by the period of its values (0 otherwise).
    #[getter]
    fn winning_moves_unlisted(&self) -> usize {
        self.data.winning_moves_unlisted
    }
    /// Every legal move with its value, when asked for (`every_move=True`).
    #[getter]
    fn moves(&self, py: Python<'_>) -> PyResult<Option<Vec<Py<PyMove>>>> {
        self.data
            .moves
            .as_ref()
            .map(|m| moves_list(py, m))
            .transpose()
    }
    /// Why, in words and tables (Nim: the heaps in binary and Bouton's rule).
    #[getter]
    fn explanation(&self) -> String {
        self.data.explanation.clone()
    }
    /// How the verdict was reached: "closed form: Bouton's theorem", a
    /// solver, ...
    #[getter]
    fn method(&self) -> String {
        self.data.method.clone()
    }
    /// For a solver: the positions it had stored.
    #[getter]
    fn states(&self) -> Option<usize> {
        self.data.states
    }
    /// The analysis as a dict, in the shape of `nimatron analyze --json`.
    fn to_dict<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        self.data.to_dict(py)
    }
    fn __repr__(&self, py: Python<'_>) -> PyResult<String> {
        let a = &self.data;
        let mut position = match &a.position {
            PosData::Text(_) => a.position_text(py)?,
            _ => a
                .position
                .with_heaps(py, |h| heap_text(&h[..h.len().min(30)]))?
                .unwrap_or_default(),
        };
        if position.len() > 60 {
            let cut = position
                .char_indices()
                .take_while(|(i, _)| *i < 57)
                .last()
                .map_or(0, |(i, c)| i + c.len_utf8());
            position.truncate(cut);
            position.push('…');
        }
        let mut s = format!(
            "Analysis(game={:?}, position={position:?}, convention={:?}, outcome={:?}",
            a.game,
            a.convention.name(),
            a.outcome.to_string()
        );
        if let Some(x) = a.nim_sum {
            let _ = write!(s, ", nim_sum={x}");
        } else if let Some(g) = a.grundy {
            let _ = write!(s, ", grundy={g}");
        }
        let total = a.winning_moves_total.get(py, &a.position)?;
        let _ = write!(s, ", winning_moves={total})");
        Ok(s)
    }
    fn __str__(&self) -> String {
        self.data.explanation.clone()
    }
    fn _repr_html_(&self, py: Python<'_>) -> PyResult<String> {
        html(py, &self.data)
    }
    fn __reduce__<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let module = py.import("nimatron._nimatron")?;
        let f = module.getattr("_analysis_from_dict")?;
        (f, (self.data.to_dict(py)?,)).into_bound_py_any(py)
    }
}

#[pyfunction]
pub fn _analysis_from_dict(d: &Bound<'_, PyDict>) -> PyResult<PyAnalysis> {
    Ok(PyAnalysis {
        data: AnalysisData::from_dict(d)?,
    })
}

pub fn escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

/// Rows of the binary table shown before "… and N more heaps".
const HTML_ROWS: usize = 64;
/// Winning moves listed in the HTML.
const HTML_MOVES: usize = 20;

fn html(py: Python<'_>, a: &AnalysisData) -> PyResult<String> {
    let mut s = String::from("<div class=\"nimatron-analysis\">");
    let verdict = if a.outcome.to_move_wins() {
        "N: the player to move wins"
    } else {
        "P: the player to move loses against perfect play"
    };
    let convention = match a.convention {
        Convention::Normal => "normal play",
        Convention::Misere => "misère play",
    };
    let _ = write!(
        s,
        "<p><b>{}</b> ({convention}): <b>{}</b></p>",
        escape(&a.game),
        escape(verdict)
    );
    let shown = a
        .position
        .with_heaps(py, |h| h[..h.len().min(HTML_ROWS)].to_vec())?;
    let count = a.position.with_heaps(py, <[u64]>::len)?.unwrap_or(0);
    match (shown, a.nim_sum) {
        (Some(heaps), Some(x)) => {
            let widest = heaps.iter().copied().max().unwrap_or(0).max(x);
            let bits = (64 - widest.leading_zeros()).max(1) as usize;
            s.push_str("<table style=\"font-family: monospace; text-align: right\">");
            s.push_str("<tr><th style=\"text-align: left\">heap</th>");
            for b in (0..bits).rev() {
                let _ = write!(s, "<th>2<sup>{b}</sup></th>");
            }
            s.push_str("<th>decimal</th></tr>");
            let winners: std::collections::HashSet<usize> =
                a.winning_moves.iter().filter_map(|m| m.heap).collect();
            let row = |s: &mut String, name: &str, v: u64, style: &str| {
                let _ = write!(
                    s,
                    "<tr style=\"{style}\"><td style=\"text-align: left\">{name}</td>"
                );
                for b in (0..bits).rev() {
                    let _ = write!(s, "<td>{}</td>", (v >> b) & 1);
                }
                let _ = write!(s, "<td>{v}</td></tr>");
            };
            for (i, &h) in heaps.iter().take(HTML_ROWS).enumerate() {
                let style = if winners.contains(&i) {
                    "background: #e6f4ea"
                } else {
                    ""
                };
                row(&mut s, &heap_name(i), h, style);
            }
            if count > HTML_ROWS {
                let _ = write!(
                    s,
                    "<tr><td colspan=\"{}\" style=\"text-align: left\">… and {} more heaps</td></tr>",
                    bits + 2,
                    count - HTML_ROWS
                );
            }
            row(
                &mut s,
                "nim-sum",
                x,
                "border-top: 2px solid; font-weight: bold",
            );
            s.push_str("</table>");
            if let Some(regime) = a.regime {
                let rule = match regime {
                    "bouton" if x == 0 => {
                        "The nim-sum is 0: every move makes it non-zero (Bouton's theorem)."
                    }
                    "bouton" => {
                        "The nim-sum is not 0: a move that makes it 0 wins (Bouton's theorem)."
                    }
                    "misere-endgame" => {
                        "Misère play with one heap of two or more: leave an odd number of 1-heaps."
                    }
                    _ => "Misère play with 1-heaps only: their parity decides.",
                };
                let _ = write!(s, "<p>{}</p>", escape(rule));
            }
        }
        _ => {
            let _ = write!(
                s,
                "<p>Position: <code>{}</code></p>",
                escape(&a.position_text(py)?)
            );
            if let Some(g) = a.grundy {
                let _ = write!(s, "<p>Grundy value (normal play): {g}</p>");
            }
            let _ = write!(
                s,
                "<details><summary>Why</summary><pre>{}</pre></details>",
                escape(&a.explanation)
            );
        }
    }
    let total = a.winning_moves_total.get(py, &a.position)?;
    if total == 0 {
        s.push_str("<p>Winning moves: none.</p>");
    } else {
        let _ = write!(s, "<p>Winning moves ({total}):</p><ul>");
        for m in a.winning_moves.iter().take(HTML_MOVES) {
            let value = m
                .remoteness
                .and(m.value_text())
                .map(|v| format!(" ({v})"))
                .unwrap_or_default();
            let _ = write!(
                s,
                "<li><code>{}</code>: {}{}</li>",
                escape(&m.notation),
                escape(&capitalise(&m.text)),
                escape(&value)
            );
        }
        let listed = a.winning_moves.len().min(HTML_MOVES);
        if total > listed {
            let _ = write!(s, "<li>… {} more</li>", total - listed);
        }
        s.push_str("</ul>");
    }
    s.push_str("</div>");
    Ok(s)
}
