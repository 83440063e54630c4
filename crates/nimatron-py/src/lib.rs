//! Python bindings for Nimatron: the module `nimatron._nimatron`, which the
//! package `nimatron` (in `python/`) re-exports.
//!
//! - `analyze`, `Analysis`, `Move`: a position solved, with its winning
//!   moves and the explanation (Nim's binary table as HTML in notebooks).
//! - `Game`: any catalogue game, analysed and played; `games()`, the
//!   catalogue.
//! - `grundy_sequence`, `GrundySequence`, `census`: the sequence engine.
//! - `misere_quotient`, `MisereQuotient`: misère quotients of heap games.
//! - `UserGame`: a game defined in Python, solved by the Rust solvers.
//! - The exceptions: `NimatronError` and its subclasses.
//!
//! Every call that can run long releases the GIL and stops on Ctrl-C
//! (`interrupt`); every integer argument is checked with an error naming
//! it (`args`); positions are copied from any iterable of integers
//! (`positions`).
//!
//! Built by maturin (`crates/nimatron-py/pyproject.toml`) as one abi3
//! wheel for CPython 3.9 and later; tested from Python
//! (`scripts/python-tests.sh`).

use pyo3::prelude::*;

mod analysis;
mod args;
mod catalogue;
mod custom;
mod errors;
mod game;
mod interrupt;
mod positions;
mod quotient;
mod sequence;

#[pymodule]
fn _nimatron(m: &Bound<'_, PyModule>) -> PyResult<()> {
    errors::register(m)?;
    interrupt::init(m.py())?;
    m.add_class::<analysis::PyAnalysis>()?;
    m.add_class::<analysis::PyMove>()?;
    m.add_class::<game::PyGame>()?;
    m.add_class::<sequence::PyGrundySequence>()?;
    m.add_class::<custom::PyUserGame>()?;
    m.add_class::<quotient::PyMisereQuotient>()?;
    m.add_function(wrap_pyfunction!(game::analyze, m)?)?;
    m.add_function(wrap_pyfunction!(catalogue::games, m)?)?;
    m.add_function(wrap_pyfunction!(sequence::grundy_sequence, m)?)?;
    m.add_function(wrap_pyfunction!(sequence::census, m)?)?;
    m.add_function(wrap_pyfunction!(quotient::misere_quotient, m)?)?;
    m.add_function(wrap_pyfunction!(analysis::_analysis_from_dict, m)?)?;
    m.add_function(wrap_pyfunction!(analysis::_move_from_dict, m)?)?;
    m.add_function(wrap_pyfunction!(sequence::_sequence_from_state, m)?)?;
    m.add_function(wrap_pyfunction!(quotient::_quotient_from_state, m)?)?;
    m.add("DEFAULT_MAX_STATES", game::DEFAULT_MAX_STATES)?;
    m.add("DEFAULT_MAX_SECONDS", game::DEFAULT_MAX_SECONDS)?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    Ok(())
}
