//! `games()`: the library's catalogue, as data to read in Python.

use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::{PyDict, PyList};

use nimatron::sequence::HeapGame;
use nimatron::{GameSpec, SpecError};

/// One game of the catalogue, as `games()` gives it.
struct Entry {
    name: &'static str,
    title: &'static str,
    syntax: &'static str,
    parameters: Option<&'static str>,
    parameters_optional: bool,
    example: &'static str,
    summary: &'static str,
    conventions: Vec<&'static str>,
    position_syntax: &'static str,
    move_syntax: String,
    start: Option<String>,
    grundy_sequence: bool,
}

fn entries() -> Result<Vec<Entry>, SpecError> {
    GameSpec::CATALOGUE
        .iter()
        .map(|e| {
            let split = e.syntax.find(['[', ':']).unwrap_or(e.syntax.len());
            let (name, rest) = e.syntax.split_at(split);
            let parameters_optional = rest.starts_with('[');
            let parameters = rest
                .trim_start_matches('[')
                .trim_end_matches(']')
                .trim_start_matches(':');
            let game = e.example.parse::<GameSpec>()?.build()?;
            Ok(Entry {
                name,
                title: e.title,
                syntax: e.syntax,
                parameters: (!parameters.is_empty()).then_some(parameters),
                parameters_optional,
                example: e.example,
                summary: e.summary,
                conventions: game.conventions().iter().map(|c| c.name()).collect(),
                position_syntax: game.position_syntax(),
                move_syntax: game.move_syntax(),
                start: game.start().map(|p| p.text().to_string()),
                grundy_sequence: e.example.parse::<HeapGame>().is_ok(),
            })
        })
        .collect()
}

/// Every game of the catalogue, in order: a list of dicts with `name`
/// (what a spec starts with), `title`, `syntax` (how a spec is written,
/// e.g. `"subtraction:S"`, `"chomp[:RxC]"` with optional parameters in
/// brackets), `parameters` (the part after the name, e.g. "S", "RxC", or
/// None), `parameters_optional`, `example` (a spec that plays it),
/// `summary`, `conventions` (["normal", "misere"], or fewer),
/// `position_syntax`, `move_syntax`, `start` (the usual start's text, or
/// None) and `grundy_sequence` (whether `grundy_sequence` computes its
/// values heap by heap; Nim's are G(n) = n).
///
/// The specs of `analyze`, `Game` and the CLI are these; `pandas.DataFrame(
/// nimatron.games())` shows them as a table.
#[pyfunction]
#[pyo3(text_signature = "()")]
pub fn games(py: Python<'_>) -> PyResult<Bound<'_, PyList>> {
    static ENTRIES: PyOnceLock<Vec<Entry>> = PyOnceLock::new();
    let entries = ENTRIES.get_or_try_init(py, || {
        entries().map_err(|e| crate::errors::spec_error(py, e.to_string()))
    })?;
    let out = PyList::empty(py);
    for e in entries {
        let d = PyDict::new(py);
        d.set_item("name", e.name)?;
        d.set_item("title", e.title)?;
        d.set_item("syntax", e.syntax)?;
        d.set_item("parameters", e.parameters)?;
        d.set_item("parameters_optional", e.parameters_optional)?;
        d.set_item("example", e.example)?;
        d.set_item("summary", e.summary)?;
        d.set_item("conventions", e.conventions.clone())?;
        d.set_item("position_syntax", e.position_syntax)?;
        d.set_item("move_syntax", &e.move_syntax)?;
        d.set_item("start", e.start.clone())?;
        d.set_item("grundy_sequence", e.grundy_sequence)?;
        out.append(d)?;
    }
    Ok(out)
}
