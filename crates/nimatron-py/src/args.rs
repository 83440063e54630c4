//! Integer arguments, checked where they are used so that an error names
//! the argument and the range it accepts.
//!
//! PyO3's own conversion to `u64` or `usize` raises `OverflowError: can't
//! convert negative int to unsigned`, which names neither. An argument
//! declared as [`Int`] takes any object and is converted by [`Int::get`],
//! which raises `TypeError` for what is not an integer and `ValueError`
//! for an integer out of range, both naming the argument.

use pyo3::prelude::*;
use pyo3::types::{PyBool, PyInt};

/// An integer argument as given (or its default), not yet checked.
pub enum Int<'py> {
    Given(Bound<'py, PyAny>),
    Default(u64),
}

impl<'a, 'py> FromPyObject<'a, 'py> for Int<'py> {
    type Error = PyErr;

    fn extract(obj: Borrowed<'a, 'py, PyAny>) -> PyResult<Self> {
        Ok(Int::Given(obj.to_owned()))
    }
}

impl Int<'_> {
    /// The value, if it is an integer from `low` to `high`.
    pub fn get(&self, name: &str, low: u64, high: u64) -> PyResult<u64> {
        match self {
            Int::Given(obj) => int(obj, name, low, high),
            Int::Default(v) => Ok(*v),
        }
    }

    /// [`get`](Self::get) for a count.
    pub fn count(&self, name: &str, low: usize, high: usize) -> PyResult<usize> {
        Ok(self.get(name, low as u64, high as u64)? as usize)
    }
}

/// An optional [`Int`].
pub fn optional(arg: Option<&Int<'_>>, name: &str, low: u64, high: u64) -> PyResult<Option<u64>> {
    arg.map(|a| a.get(name, low, high)).transpose()
}

/// `obj` as an integer from `low` to `high`: anything with `__index__`
/// (Python and NumPy integers), but not a bool.
pub fn int(obj: &Bound<'_, PyAny>, name: &str, low: u64, high: u64) -> PyResult<u64> {
    let type_error = || {
        let kind = obj
            .get_type()
            .name()
            .map(|n| n.to_string())
            .unwrap_or_default();
        pyo3::exceptions::PyTypeError::new_err(format!(
            "{name} must be an integer from {low} to {high}, not {kind}"
        ))
    };
    if obj.is_instance_of::<PyBool>() {
        return Err(type_error());
    }
    let index = if obj.is_instance_of::<PyInt>() {
        obj.clone()
    } else {
        obj.call_method0("__index__").map_err(|_| type_error())?
    };
    match index.extract::<u64>() {
        Ok(v) if (low..=high).contains(&v) => Ok(v),
        _ => Err(pyo3::exceptions::PyValueError::new_err(format!(
            "{name} must be an integer from {low} to {high}, not {}",
            index.str()?
        ))),
    }
}
