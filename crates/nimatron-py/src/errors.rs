//! Nimatron's exceptions, and the library's errors in Python's terms.
//!
//! Bad input (a spec, a position, a move, a convention) raises a subclass
//! of both `NimatronError` and `ValueError`; a solver that stops at a limit
//! raises `LimitError`, a `RuntimeError`, whose message says which keyword
//! argument raises the limit.

use pyo3::exceptions::{PyRuntimeError, PyValueError};
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::{PyDict, PyTuple, PyType};

use nimatron::sequence::SequenceError;
use nimatron::{GameError, MoveError, PositionError, SolveError, SpecError};

/// The exception classes, made once when the module loads.
pub struct Classes {
    pub base: Py<PyType>,
    pub spec: Py<PyType>,
    pub position: Py<PyType>,
    pub illegal_move: Py<PyType>,
    pub convention: Py<PyType>,
    pub limit: Py<PyType>,
    pub sequence: Py<PyType>,
}

static CLASSES: PyOnceLock<Classes> = PyOnceLock::new();

const DOCS: [(&str, &str); 7] = [
    (
        "NimatronError",
        "Base class of every error Nimatron raises.",
    ),
    (
        "SpecError",
        "A game spec that does not parse (an unknown game, bad parameters).",
    ),
    (
        "PositionError",
        "A position that does not parse or does not fit the game.",
    ),
    (
        "IllegalMoveError",
        "A move that does not parse or is not legal in the position; the position is unchanged.",
    ),
    (
        "ConventionError",
        "The game is not played under the convention asked for.",
    ),
    (
        "LimitError",
        "A solver stopped at its state or time limit before the answer; the message names the keyword argument that raises it.",
    ),
    (
        "SequenceError",
        "A Grundy sequence that cannot be computed as asked (too large for the memory limit, values too large to store).",
    ),
];

fn make_class<'py>(
    py: Python<'py>,
    module: &str,
    name: &str,
    doc: &str,
    bases: &[Bound<'py, PyAny>],
) -> PyResult<Py<PyType>> {
    let dict = PyDict::new(py);
    dict.set_item("__module__", module)?;
    dict.set_item("__doc__", doc)?;
    let bases = PyTuple::new(py, bases)?;
    let builtins = py.import("builtins")?;
    let class = builtins.getattr("type")?.call1((name, bases, dict))?;
    Ok(class.cast_into::<PyType>()?.unbind())
}

/// Create the classes and add them to `module`.
pub fn register(module: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = module.py();
    let value_error = py.get_type::<PyValueError>().into_any();
    let runtime_error = py.get_type::<PyRuntimeError>().into_any();
    let exception = py.get_type::<pyo3::exceptions::PyException>().into_any();
    let name = "nimatron";
    let base = make_class(py, name, DOCS[0].0, DOCS[0].1, &[exception])?;
    let b = base.bind(py).clone().into_any();
    let bad = |i: usize| {
        make_class(
            py,
            name,
            DOCS[i].0,
            DOCS[i].1,
            &[b.clone(), value_error.clone()],
        )
    };
    let classes = Classes {
        spec: bad(1)?,
        position: bad(2)?,
        illegal_move: bad(3)?,
        convention: bad(4)?,
        limit: make_class(
            py,
            name,
            DOCS[5].0,
            DOCS[5].1,
            &[b.clone(), runtime_error.clone()],
        )?,
        sequence: bad(6)?,
        base,
    };
    for class in [
        &classes.base,
        &classes.spec,
        &classes.position,
        &classes.illegal_move,
        &classes.convention,
        &classes.limit,
        &classes.sequence,
    ] {
        let class = class.bind(py);
        module.add(class.name()?, class)?;
    }
    let _ = CLASSES.set(py, classes);
    Ok(())
}

fn classes(py: Python<'_>) -> &Classes {
    CLASSES
        .get(py)
        .expect("the exception classes are made when the module loads")
}

fn raise(py: Python<'_>, class: &Py<PyType>, message: String) -> PyErr {
    PyErr::from_type(class.bind(py).clone(), message)
}

/// `SpecError`.
pub fn spec_error(py: Python<'_>, message: impl Into<String>) -> PyErr {
    raise(py, &classes(py).spec, message.into())
}

/// `PositionError`.
pub fn position_error(py: Python<'_>, message: impl Into<String>) -> PyErr {
    raise(py, &classes(py).position, message.into())
}

/// `IllegalMoveError`.
pub fn move_error(py: Python<'_>, message: impl Into<String>) -> PyErr {
    raise(py, &classes(py).illegal_move, message.into())
}

/// `SequenceError`.
pub fn sequence_error(py: Python<'_>, message: impl Into<String>) -> PyErr {
    raise(py, &classes(py).sequence, message.into())
}

/// The base class, for errors of no other kind.
pub fn nimatron_error(py: Python<'_>, message: impl Into<String>) -> PyErr {
    raise(py, &classes(py).base, message.into())
}

/// A solver's limit in Python's words: which keyword argument raises it.
pub fn limit_error(py: Python<'_>, e: &SolveError) -> PyErr {
    let message = match e {
        SolveError::StateLimit { .. } => {
            format!("{e}; raise the limit (max_states=...) or try a smaller position")
        }
        SolveError::TimeLimit { .. } => {
            format!("{e}; raise the limit (max_seconds=...) or try a smaller position")
        }
        SolveError::TooLarge { .. } | SolveError::Interrupted => e.to_string(),
        SolveError::Unresolved { limit, .. } => match **limit {
            SolveError::TimeLimit { .. } => {
                format!("{e}; raise the time limit (max_seconds=...) to give both longer")
            }
            _ => format!("{e}; raise the limit (max_states=...) to give both more room"),
        },
    };
    raise(py, &classes(py).limit, message)
}

/// `LimitError` with a message that already names its keyword argument.
pub fn limit_message(py: Python<'_>, message: String) -> PyErr {
    raise(py, &classes(py).limit, message)
}

pub fn from_spec(py: Python<'_>, e: SpecError) -> PyErr {
    spec_error(py, e.to_string())
}

pub fn from_position(py: Python<'_>, e: PositionError) -> PyErr {
    position_error(py, e.to_string())
}

pub fn from_move(py: Python<'_>, e: MoveError) -> PyErr {
    move_error(py, e.to_string())
}

pub fn from_game(py: Python<'_>, e: GameError) -> PyErr {
    match e {
        GameError::Position(p) => from_position(py, p),
        GameError::Convention { .. } => raise(py, &classes(py).convention, e.to_string()),
        GameError::Solve(s) => limit_error(py, &s),
    }
}

pub fn from_sequence(py: Python<'_>, e: SequenceError) -> PyErr {
    sequence_error(py, e.to_string())
}
