//! Positions from Python values: heap sizes from a list, a tuple or a
//! NumPy array of integers; any other position from its text.

use numpy::{PyArrayDescrMethods, PyReadonlyArray1, PyUntypedArrayMethods};
use pyo3::PyTypeCheck;
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyString};

use nimatron::position::{HEAP_SIZE_RULE, HeapSizeError};
use nimatron::{Game, Position, PositionError};

use crate::errors;

/// Heap sizes, borrowed from a NumPy array of `uint64` or owned.
pub enum Heaps<'py> {
    Borrowed(PyReadonlyArray1<'py, u64>),
    Owned(Vec<u64>),
}

impl Heaps<'_> {
    pub fn as_slice(&self) -> PyResult<&[u64]> {
        match self {
            Heaps::Borrowed(a) => a
                .as_slice()
                .map_err(|e| pyo3::exceptions::PyValueError::new_err(format!("heap array: {e}"))),
            Heaps::Owned(v) => Ok(v),
        }
    }
}

fn heap_error(py: Python<'_>, e: HeapSizeError, accepted: &str) -> PyErr {
    errors::from_position(py, PositionError::new(e.to_string(), accepted))
}

/// Whether `obj` is a NumPy array.
pub fn is_ndarray(obj: &Bound<'_, PyAny>) -> bool {
    numpy::PyUntypedArray::type_check(obj)
}

/// Heap sizes from a Python value; `None` if it is text (a `str`).
///
/// A NumPy array of `uint64` (one-dimensional, contiguous) is read in
/// place; other integer arrays are checked for negative values and
/// converted. Lists and tuples take Python integers (anything with
/// `__index__`). Errors are `PositionError`s with the CLI's words.
pub fn heaps_of<'py>(obj: &Bound<'py, PyAny>, accepted: &str) -> PyResult<Option<Heaps<'py>>> {
    let py = obj.py();
    if obj.is_instance_of::<PyString>() {
        return Ok(None);
    }
    if is_ndarray(obj) {
        let array = obj.cast::<numpy::PyUntypedArray>()?;
        if array.ndim() != 1 {
            return Err(errors::position_error(
                py,
                format!(
                    "a heap array must be one-dimensional, not of shape {:?}: {accepted}",
                    array.shape()
                ),
            ));
        }
        if let Ok(a) = obj.extract::<PyReadonlyArray1<'py, u64>>()
            && a.is_contiguous()
        {
            return Ok(Some(Heaps::Borrowed(a)));
        }
        let kind = array.dtype().kind();
        if kind != b'i' && kind != b'u' {
            return Err(errors::position_error(
                py,
                format!(
                    "heap sizes must be integers, not an array of {}: {HEAP_SIZE_RULE}",
                    array.dtype()
                ),
            ));
        }
        if kind == b'i' && array.len() > 0 {
            let low = obj.call_method0("min")?;
            if low.lt(0)? {
                return Err(heap_error(
                    py,
                    HeapSizeError::Negative(low.str()?.to_string()),
                    accepted,
                ));
            }
        }
        let numpy = py.import("numpy")?;
        let converted = numpy.call_method1("ascontiguousarray", (obj, numpy.getattr("uint64")?))?;
        let a = converted.extract::<PyReadonlyArray1<'py, u64>>()?;
        return Ok(Some(Heaps::Owned(a.as_slice()?.to_vec())));
    }
    let iter = obj.try_iter().map_err(|_| {
        errors::position_error(
            py,
            format!(
                "a position is a list of heap sizes or the position's text, not {}: {accepted}",
                obj.get_type()
                    .name()
                    .map(|n| n.to_string())
                    .unwrap_or_default()
            ),
        )
    })?;
    let mut heaps = Vec::with_capacity(obj.len().unwrap_or(0));
    for item in iter {
        let item = item?;
        if item.is_instance_of::<PyBool>() {
            return Err(heap_error(
                py,
                HeapSizeError::NotANumber(item.repr()?.to_string()),
                accepted,
            ));
        }
        let Ok(index) = item.call_method0("__index__") else {
            let word = item.repr()?.to_string();
            let e = if item.extract::<f64>().is_ok() {
                HeapSizeError::NotWhole(word)
            } else {
                HeapSizeError::NotANumber(word)
            };
            return Err(heap_error(py, e, accepted));
        };
        match index.extract::<u64>() {
            Ok(h) => heaps.push(h),
            Err(_) => {
                let word = index.str()?.to_string();
                let e = if index.lt(0)? {
                    HeapSizeError::Negative(word)
                } else {
                    HeapSizeError::TooLarge(word)
                };
                return Err(heap_error(py, e, accepted));
            }
        }
    }
    if heaps.is_empty() {
        return Err(errors::from_position(
            py,
            PositionError::new("no heaps given", accepted),
        ));
    }
    Ok(Some(Heaps::Owned(heaps)))
}

/// A position of `game` from a Python value: text, or heap sizes.
pub fn position_of(game: &dyn Game, obj: &Bound<'_, PyAny>) -> PyResult<Position> {
    let py = obj.py();
    match heaps_of(obj, game.position_syntax())? {
        None => {
            let text: String = obj.extract()?;
            game.parse(&text).map_err(|e| errors::from_position(py, e))
        }
        Some(heaps) => game
            .heap_position(heaps.as_slice()?)
            .map_err(|e| errors::from_position(py, e)),
    }
}
