//! Positions from Python values: heap sizes from any iterable of integers
//! (a list, a tuple, a generator, a NumPy array), always copied; any other
//! position from its text.

use numpy::{PyArrayDescrMethods, PyReadonlyArray1, PyUntypedArrayMethods};
use pyo3::PyTypeCheck;
use pyo3::prelude::*;
use pyo3::types::{
    PyBool, PyByteArray, PyBytes, PyDict, PyFrozenSet, PyMemoryView, PySet, PyString,
};

use nimatron::{Game, Position, PositionError};
use nimatron::{HEAP_SIZE_RULE, HeapSizeError};

use crate::errors;

fn heap_error(py: Python<'_>, e: HeapSizeError, accepted: &str) -> PyErr {
    errors::from_position(py, PositionError::new(e.to_string(), accepted))
}

/// Whether `obj` is a NumPy array.
pub fn is_ndarray(obj: &Bound<'_, PyAny>) -> bool {
    numpy::PyUntypedArray::type_check(obj)
}

/// What a position argument may not be: a `TypeError` naming what it is
/// and what is accepted.
fn wrong_type(obj: &Bound<'_, PyAny>, why: &str, accepted: &str) -> PyErr {
    let kind = obj
        .get_type()
        .name()
        .map(|n| n.to_string())
        .unwrap_or_default();
    pyo3::exceptions::PyTypeError::new_err(format!(
        "a position is an iterable of heap sizes (a list, tuple, generator or NumPy array of integers) or the position's text (a str), not {kind}{why}: {accepted}"
    ))
}

/// Heap sizes from a Python value; `None` if it is text (a `str`).
///
/// Any iterable of integers (anything with `__index__`) is read once, in
/// order: lists, tuples, ranges, generators, iterators, NumPy arrays (of
/// any integer dtype, one-dimensional). The heaps are always copied: what
/// is made from them never reads the caller's object again. Refused with
/// `TypeError`: bytes and other byte buffers (their items are byte
/// values, not heap sizes), sets (they have no order), dicts, and what is
/// not iterable. Bad heap sizes, and no heaps at all (whatever the
/// container), are `PositionError`s with the CLI's words.
pub fn heaps_of(obj: &Bound<'_, PyAny>, accepted: &str) -> PyResult<Option<Vec<u64>>> {
    let py = obj.py();
    if obj.is_instance_of::<PyString>() {
        return Ok(None);
    }
    if obj.is_instance_of::<PyBytes>()
        || obj.is_instance_of::<PyByteArray>()
        || obj.is_instance_of::<PyMemoryView>()
    {
        return Err(wrong_type(
            obj,
            " (its items are byte values; decode text first, e.g. b'3 4 5'.decode())",
            accepted,
        ));
    }
    if obj.is_instance_of::<PySet>() || obj.is_instance_of::<PyFrozenSet>() {
        return Err(wrong_type(
            obj,
            " (a set has no order and holds each size once; pass a list)",
            accepted,
        ));
    }
    if obj.is_instance_of::<PyDict>() {
        return Err(wrong_type(obj, "", accepted));
    }
    let heaps = if is_ndarray(obj) {
        array_heaps(obj, accepted)?
    } else {
        let iter = obj.try_iter().map_err(|_| wrong_type(obj, "", accepted))?;
        let mut heaps = Vec::with_capacity(obj.len().unwrap_or(0));
        for item in iter {
            heaps.push(heap_size(&item?, accepted)?);
            // A generator may be long (or endless): Ctrl-C stops it.
            if heaps.len().is_multiple_of(1 << 12) {
                py.check_signals()?;
            }
        }
        heaps
    };
    if heaps.is_empty() {
        return Err(errors::from_position(
            py,
            PositionError::new(
                "no heaps given (a position with no objects left is [0])",
                accepted,
            ),
        ));
    }
    Ok(Some(heaps))
}

/// One heap size: a Python or NumPy integer from 0 to 2^64 - 1.
fn heap_size(item: &Bound<'_, PyAny>, accepted: &str) -> PyResult<u64> {
    let py = item.py();
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
    index.extract::<u64>().or_else(|_| {
        let word = index.str()?.to_string();
        let e = if index.lt(0)? {
            HeapSizeError::Negative(word)
        } else {
            HeapSizeError::TooLarge(word)
        };
        Err(heap_error(py, e, accepted))
    })
}

/// The heap sizes of a NumPy array, copied: a one-dimensional array of
/// integers, checked for negative values.
fn array_heaps(obj: &Bound<'_, PyAny>, accepted: &str) -> PyResult<Vec<u64>> {
    let py = obj.py();
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
    if array.len() == 0 {
        // No heaps, whatever the dtype: as [] (refused by the caller).
        return Ok(Vec::new());
    }
    if let Ok(a) = obj.extract::<PyReadonlyArray1<'_, u64>>() {
        if let Ok(slice) = a.as_slice() {
            // Contiguous: one copy (the GIL released for big ones).
            if slice.len() >= 1 << 16 {
                return Ok(py.detach(|| slice.to_vec()));
            }
            return Ok(slice.to_vec());
        }
        return Ok(a.as_array().iter().copied().collect());
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
    let a = converted.extract::<PyReadonlyArray1<'_, u64>>()?;
    Ok(a.as_slice()?.to_vec())
}

/// Heap sizes for a misère quotient's questions: as [`heaps_of`], but
/// text is refused too.
pub fn heap_list(obj: &Bound<'_, PyAny>) -> PyResult<Vec<u64>> {
    const ACCEPTED: &str = "a list of heap sizes, e.g. [3, 4, 5]";
    match heaps_of(obj, ACCEPTED)? {
        Some(h) => Ok(h),
        None => Err(wrong_type(obj, "", ACCEPTED)),
    }
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
            .heap_position(&heaps)
            .map_err(|e| errors::from_position(py, e)),
    }
}
