//! `misere_quotient`: the misère quotient of a heap game, as
//! `nimatron quotient` computes it, with its presentation, P-portion and
//! heap images, and the misère outcome of any sum of heaps through it.

use std::collections::HashMap;
use std::time::Duration;

use pyo3::prelude::*;
use pyo3::types::PyDict;

use nimatron::misere::{MisereQuotient, QuotientError, QuotientLimits, nim_up_to, quotient};
use nimatron::sequence::HeapGame;

use crate::errors;

/// The misère quotient of the sums of heaps 1 to `to` of a heap game:
/// `"nim"`, or any spec `grundy_sequence` takes (`"kayles"`, `"dawson"`,
/// `"octal:0.137"`, `"hex:0.f"`, `"subtraction:1,2,5"`, `"grundy-game"`,
/// ...), as `nimatron quotient SPEC --to N` computes it (Plambeck and
/// Siegel's method: heap by heap, each step verified).
///
/// The computation stops early at the first heap where the period of the
/// images is proven (`computed_to`); the quotient is then that of the
/// whole game, and `image(n)` and `outcome(heaps)` answer for heaps of any
/// size.
///
/// `max_order` bounds the quotient's order, `max_states` the positions a
/// search or verification stores, and `max_seconds` (None for no bound) the
/// whole computation. The GIL is released while it runs; Ctrl-C is noticed
/// when it returns, which `max_seconds` bounds.
///
/// Raises SpecError (bad spec), ValueError (`to` is 0 or above 10 000,
/// bad limits) or LimitError (a limit was reached; the message names the
/// heap it reached and the keyword that raises the limit).
#[pyfunction]
#[pyo3(signature = (spec, to, *, max_order = QuotientLimits::DEFAULT_MAX_ORDER, max_states = QuotientLimits::DEFAULT_MAX_STATES, max_seconds = Some(crate::game::DEFAULT_MAX_SECONDS)))]
pub fn misere_quotient(
    py: Python<'_>,
    spec: &str,
    to: u64,
    max_order: usize,
    max_states: usize,
    max_seconds: Option<f64>,
) -> PyResult<PyMisereQuotient> {
    let (name, game) = if spec.trim().eq_ignore_ascii_case("nim") {
        let game = nim_up_to(to).map_err(|e| bad_value(&e))?;
        ("nim".to_string(), game)
    } else {
        let game: HeapGame = spec.parse().map_err(|e: nimatron::sequence::HeapGameError| {
            errors::spec_error(
                py,
                format!("{e} (misere_quotient accepts \"nim\" and the heap games of grundy_sequence)"),
            )
        })?;
        (game.to_string(), game)
    };
    if max_order == 0 {
        return Err(pyo3::exceptions::PyValueError::new_err(
            "max_order must be at least 1",
        ));
    }
    if max_states == 0 {
        return Err(pyo3::exceptions::PyValueError::new_err(
            "max_states must be at least 1",
        ));
    }
    let max_time = match max_seconds {
        None => None,
        Some(s) if s.is_finite() && s > 0.0 && s <= 1e9 => Some(Duration::from_secs_f64(s)),
        Some(s) => {
            return Err(pyo3::exceptions::PyValueError::new_err(format!(
                "max_seconds must be a positive number of seconds (at most 1e9) or None, not {s}"
            )));
        }
    };
    let limits = QuotientLimits {
        max_order,
        max_states,
        max_time,
        interrupt: None,
    };
    let q = py
        .detach(|| quotient(&game, to, &limits))
        .map_err(|e| match &e {
            e if e.is_bad_input() => bad_value(e),
            QuotientError::OrderLimit { .. } => {
                errors::limit_message(py, format!("{e}; raise it with max_order=..."))
            }
            QuotientError::StateLimit { .. } => {
                errors::limit_message(py, format!("{e}; raise it with max_states=..."))
            }
            QuotientError::TimeLimit { .. } => {
                errors::limit_message(py, format!("{e}; raise it with max_seconds=..."))
            }
            QuotientError::Unbounded { .. } => errors::limit_message(py, e.to_string()),
            e => errors::nimatron_error(py, e.to_string()),
        })?;
    let names: Vec<String> = (0..q.order()).map(|id| q.element_name(id)).collect();
    let ids = names
        .iter()
        .enumerate()
        .map(|(id, n)| (n.clone(), id))
        .collect();
    Ok(PyMisereQuotient {
        name,
        q,
        names,
        ids,
    })
}

fn bad_value(e: &QuotientError) -> PyErr {
    pyo3::exceptions::PyValueError::new_err(format!("to: {e}"))
}

/// A misère quotient: a finite commutative monoid with its P-portion, and
/// the image of each heap in it. A sum of heaps is a misère P-position
/// exactly when the product of its heaps' images is in the P-portion.
///
/// Elements are named by their normal-form words in the generators
/// (`"1"`, `"a"`, `"b^2"`, `"ab^2"`, ...), as `nimatron quotient` prints
/// them.
#[pyclass(name = "MisereQuotient", module = "nimatron", frozen)]
pub struct PyMisereQuotient {
    name: String,
    q: MisereQuotient,
    names: Vec<String>,
    ids: HashMap<String, usize>,
}

impl PyMisereQuotient {
    fn image_id(&self, n: u64) -> PyResult<usize> {
        self.q.image(n).ok_or_else(|| {
            pyo3::exceptions::PyValueError::new_err(format!(
                "heap {n} is beyond this quotient, which covers heaps up to {} and has no proven period; compute it with to={n} or more",
                self.q.to()
            ))
        })
    }

    fn position_id(&self, heaps: Vec<u64>) -> PyResult<usize> {
        let mut acc = 0;
        for h in heaps {
            acc = self.q.product(acc, self.image_id(h)?);
        }
        Ok(acc)
    }

    fn id(&self, name: &str) -> PyResult<usize> {
        // Names are written without blanks ("ab^2"); "a b^2" is the same.
        let key: String = name.split_whitespace().collect();
        self.ids.get(&key).copied().ok_or_else(|| {
            pyo3::exceptions::PyValueError::new_err(format!(
                "{name:?} is not an element of this quotient; its elements are {}",
                self.names.join(", ")
            ))
        })
    }

    fn names_of(&self, ids: impl IntoIterator<Item = usize>) -> Vec<String> {
        ids.into_iter().map(|id| self.names[id].clone()).collect()
    }
}

#[pymethods]
impl PyMisereQuotient {
    /// The game: "nim" or its canonical heap-game spec.
    #[getter]
    fn game(&self) -> String {
        self.name.clone()
    }
    /// The largest heap asked for: `images` covers heaps 0 to it.
    #[getter]
    fn to(&self) -> u64 {
        self.q.to()
    }
    /// The largest heap computed heap by heap; below `to` when the period
    /// was proven there (the larger heaps' images follow from it).
    #[getter]
    fn computed_to(&self) -> u64 {
        self.q.computed_to()
    }
    /// The number of elements.
    #[getter]
    fn order(&self) -> usize {
        self.q.order()
    }
    /// Whether the quotient is tame (that of a set of Nim positions).
    #[getter]
    fn tame(&self) -> bool {
        self.q.tame()
    }
    /// The presentation, `⟨a, b | a^2 = 1, b^3 = b⟩`.
    #[getter]
    fn presentation(&self) -> String {
        self.q.presentation()
    }
    /// The generators as `(name, heap)`: each is the image of that heap.
    #[getter]
    fn generators(&self) -> Vec<(String, u64)> {
        self.q
            .generators()
            .iter()
            .map(|g| (g.name.clone(), g.heap))
            .collect()
    }
    /// The relations, `"a^2 = 1"`, ...
    #[getter]
    fn relations(&self) -> Vec<String> {
        self.q.relations_text()
    }
    /// Every element, identity first, in presentation order.
    #[getter]
    fn elements(&self) -> Vec<String> {
        self.names.clone()
    }
    /// The P-portion: the elements whose sums are misère P-positions.
    #[getter]
    fn p_portion(&self) -> Vec<String> {
        self.names_of(self.q.p_portion())
    }
    /// The image of each heap `0..=to`: `images[n]` is heap `n`'s (heap 0,
    /// the empty sum, is the identity `"1"`).
    #[getter]
    fn images(&self) -> Vec<String> {
        self.names_of(self.q.images().iter().copied())
    }
    /// The heaps at which the quotient grew, as `(heap, order)`.
    #[getter]
    fn growth(&self) -> Vec<(u64, usize)> {
        self.q.growth().to_vec()
    }
    /// The heap from which on the presentation did not change (up to `to`).
    #[getter]
    fn stable_from(&self) -> u64 {
        self.q.stable_from()
    }
    /// The period of the heap images, or None.
    #[getter]
    fn period(&self) -> Option<u64> {
        self.q.period().map(|p| p.period)
    }
    /// The heap from which that period holds, or None.
    #[getter]
    fn preperiod(&self) -> Option<u64> {
        self.q.period().map(|p| p.preperiod)
    }
    /// Whether the period is proven: then this is the quotient of every sum
    /// of heaps of any size, not only of heaps up to `to`.
    #[getter]
    fn proven(&self) -> bool {
        self.q.proven()
    }
    /// The image of heap `n`; beyond `to` through the proven period
    /// (ValueError when there is none).
    fn image(&self, n: u64) -> PyResult<String> {
        Ok(self.names[self.image_id(n)?].clone())
    }
    /// The product of the images of a sum of heaps.
    fn image_of(&self, heaps: Vec<u64>) -> PyResult<String> {
        Ok(self.names[self.position_id(heaps)?].clone())
    }
    /// "P" or "N": the misère outcome of a sum of heaps, from the product
    /// of their images. Heaps beyond `to` need a proven period.
    fn outcome(&self, heaps: Vec<u64>) -> PyResult<&'static str> {
        Ok(if self.q.in_p(self.position_id(heaps)?) {
            "P"
        } else {
            "N"
        })
    }
    /// Whether a sum of heaps is a misère P-position (a loss for the
    /// player to move).
    fn is_p_position(&self, heaps: Vec<u64>) -> PyResult<bool> {
        Ok(self.q.in_p(self.position_id(heaps)?))
    }
    /// The product of elements given by name (the identity for none).
    #[pyo3(signature = (*elements))]
    fn product(&self, elements: Vec<String>) -> PyResult<String> {
        let mut acc = 0;
        for e in &elements {
            acc = self.q.product(acc, self.id(e)?);
        }
        Ok(self.names[acc].clone())
    }
    /// Whether an element (by name) is in the P-portion.
    fn in_p_portion(&self, element: &str) -> PyResult<bool> {
        Ok(self.q.in_p(self.id(element)?))
    }
    /// The quotient as a dict with the fields of `nimatron quotient --json`.
    fn to_dict<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let d = PyDict::new(py);
        d.set_item("game", &self.name)?;
        d.set_item("to", self.q.to())?;
        d.set_item("computed_to", self.q.computed_to())?;
        d.set_item("order", self.q.order())?;
        d.set_item("tame", self.q.tame())?;
        d.set_item("presentation", self.q.presentation())?;
        let generators: Vec<Bound<'py, PyDict>> = self
            .q
            .generators()
            .iter()
            .map(|g| {
                let d = PyDict::new(py);
                d.set_item("name", &g.name)?;
                d.set_item("heap", g.heap)?;
                Ok(d)
            })
            .collect::<PyResult<_>>()?;
        d.set_item("generators", generators)?;
        d.set_item("relations", self.q.relations_text())?;
        d.set_item("elements", &self.names)?;
        d.set_item("p_portion", self.p_portion())?;
        // As the CLI: heaps 1..=to.
        d.set_item(
            "images",
            self.names_of(self.q.images()[1..].iter().copied()),
        )?;
        let growth: Vec<Bound<'py, PyDict>> = self
            .q
            .growth()
            .iter()
            .map(|&(heap, order)| {
                let d = PyDict::new(py);
                d.set_item("heap", heap)?;
                d.set_item("order", order)?;
                Ok(d)
            })
            .collect::<PyResult<_>>()?;
        d.set_item("growth", growth)?;
        d.set_item("stable_from", self.q.stable_from())?;
        d.set_item("period", self.period())?;
        d.set_item("preperiod", self.preperiod())?;
        d.set_item("proven", self.q.proven())?;
        Ok(d)
    }
    fn __len__(&self) -> usize {
        self.q.order()
    }
    fn __repr__(&self) -> String {
        format!(
            "MisereQuotient(game={:?}, to={}, order={}, tame={}, proven={})",
            self.name,
            self.q.to(),
            self.q.order(),
            if self.q.tame() { "True" } else { "False" },
            if self.q.proven() { "True" } else { "False" },
        )
    }
    /// The presentation and P-portion, as a notebook shows them.
    fn _repr_html_(&self) -> String {
        let esc = |s: &str| {
            s.replace('&', "&amp;")
                .replace('<', "&lt;")
                .replace('>', "&gt;")
        };
        let status = if self.q.proven() {
            format!(
                "proven for every heap size (heap images periodic from heap {} with period {})",
                self.preperiod().unwrap_or(0),
                self.period().unwrap_or(0)
            )
        } else {
            format!("exact for sums of heaps 1 to {}", self.q.to())
        };
        format!(
            "<div><p><b>Misère quotient of {}</b>: order {}, {}; {}.</p><p>{}</p><p>P-portion: {{{}}}</p></div>",
            esc(&self.name),
            self.q.order(),
            if self.q.tame() { "tame" } else { "wild" },
            esc(&status),
            esc(&self.q.presentation()),
            esc(&self.p_portion().join(", ")),
        )
    }
}
