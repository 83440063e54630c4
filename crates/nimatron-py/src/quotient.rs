//! `misere_quotient`: the misère quotient of a heap game, as
//! `nimatron quotient` computes it, with its presentation, P-portion and
//! heap images, and the misère outcome of any sum of heaps through it.

use std::collections::HashMap;
use std::time::Duration;

use pyo3::IntoPyObjectExt;
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict};

use nimatron::misere::{
    MAX_HEAP, MisereQuotient, QuotientError, QuotientLimits, nim_up_to, quotient,
};
use nimatron::sequence::HeapGame;

use crate::analysis::escape;
use crate::args::Int;
use crate::errors;
use crate::interrupt;
use crate::positions::heap_list;

/// The misère quotient of the sums of heaps 1 to `to` of a heap game:
/// `"nim"`, or any spec `grundy_sequence` takes (`"kayles"`, `"dawson"`,
/// `"octal:0.137"`, `"octal:0.F"`, `"subtraction:1,2,5"`, `"grundy-game"`,
/// ...), as `nimatron quotient SPEC --to N` computes it (Plambeck and
/// Siegel's method: heap by heap, each step verified).
///
/// The computation stops early at the first heap where the period of the
/// images is proven (`computed_to`); the quotient is then that of the
/// whole game, and `image(n)` and `outcome(heaps)` answer for heaps of any
/// size.
///
/// `to` is from 1 to 10 000. `max_order` bounds the quotient's order,
/// `max_states` the positions a search or verification stores, and
/// `max_seconds` (None for no bound) the whole computation. The GIL is
/// released while it runs, and Ctrl-C raises KeyboardInterrupt at once.
///
/// Raises SpecError (bad spec), ValueError (an argument out of range) or
/// LimitError (a limit was reached; the message names the heap it reached
/// and the keyword that raises the limit).
#[pyfunction]
#[pyo3(
    signature = (spec, to, *, max_order = Int::Default(QuotientLimits::DEFAULT_MAX_ORDER as u64), max_states = Int::Default(QuotientLimits::DEFAULT_MAX_STATES as u64), max_seconds = Some(crate::game::DEFAULT_MAX_SECONDS)),
    text_signature = "(spec, to, *, max_order=10000, max_states=5000000, max_seconds=120.0)"
)]
pub fn misere_quotient(
    py: Python<'_>,
    spec: &str,
    to: Int<'_>,
    max_order: Int<'_>,
    max_states: Int<'_>,
    max_seconds: Option<f64>,
) -> PyResult<PyMisereQuotient> {
    let to = to.get("to", 1, MAX_HEAP)?;
    let max_order = max_order.count("max_order", 1, usize::MAX)?;
    let max_states = max_states.count("max_states", 1, usize::MAX)?;
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
    let q = interrupt::run(py, |stop| {
        quotient(
            &game,
            to,
            &QuotientLimits {
                interrupt: stop,
                ..limits
            },
        )
    })?
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
    Ok(PyMisereQuotient::computed(name, q))
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
    monoid: Monoid,
    names: Vec<String>,
    ids: HashMap<String, usize>,
    /// The images of heaps `0..=to`, as element ids.
    images: Vec<usize>,
    to: u64,
    computed_to: u64,
    tame: bool,
    presentation: String,
    generators: Vec<(String, u64)>,
    relations: Vec<String>,
    growth: Vec<(u64, usize)>,
    stable_from: u64,
    period: Option<(u64, u64)>,
    proven: bool,
}

/// The products and P-portion: the library's quotient as computed, or a
/// table of products restored from a pickle.
enum Monoid {
    Computed(Box<MisereQuotient>),
    Table {
        order: usize,
        /// `products[x * order + y]`.
        products: Vec<u32>,
        p: Vec<bool>,
    },
}

impl Monoid {
    fn order(&self) -> usize {
        match self {
            Monoid::Computed(q) => q.order(),
            Monoid::Table { order, .. } => *order,
        }
    }

    fn product(&self, x: usize, y: usize) -> usize {
        match self {
            Monoid::Computed(q) => q.product(x, y),
            Monoid::Table {
                order, products, ..
            } => products[x * order + y] as usize,
        }
    }

    fn in_p(&self, x: usize) -> bool {
        match self {
            Monoid::Computed(q) => q.in_p(x),
            Monoid::Table { p, .. } => p[x],
        }
    }
}

/// Quotients are pickled with their table of products up to this order
/// (4 bytes a product: 64 MB at this order).
const PICKLED_ORDER: usize = 4096;

impl PyMisereQuotient {
    fn computed(name: String, q: MisereQuotient) -> PyMisereQuotient {
        let names: Vec<String> = (0..q.order()).map(|id| q.element_name(id)).collect();
        PyMisereQuotient {
            ids: ids_of(&names),
            names,
            name,
            images: q.images().to_vec(),
            to: q.to(),
            computed_to: q.computed_to(),
            tame: q.tame(),
            presentation: q.presentation(),
            generators: q
                .generators()
                .iter()
                .map(|g| (g.name.clone(), g.heap))
                .collect(),
            relations: q.relations_text(),
            growth: q.growth().to_vec(),
            stable_from: q.stable_from(),
            period: q.period().map(|p| (p.period, p.preperiod)),
            proven: q.proven(),
            monoid: Monoid::Computed(Box::new(q)),
        }
    }

    /// The image of heap `n`: known up to `to`, and beyond through a
    /// proven period (as the library's `MisereQuotient::image`).
    fn image_id(&self, n: u64) -> PyResult<usize> {
        if n <= self.to {
            return Ok(self.images[n as usize]);
        }
        if let Monoid::Computed(q) = &self.monoid {
            if let Some(id) = q.image(n) {
                return Ok(id);
            }
        } else if let Some((period, _)) = self.period.filter(|_| self.proven) {
            let back = (n - self.to).div_ceil(period) * period;
            return Ok(self.images[(n - back) as usize]);
        }
        Err(pyo3::exceptions::PyValueError::new_err(format!(
            "heap {n} is beyond this quotient, which covers heaps up to {} and has no proven period; compute it with to={n} or more",
            self.to
        )))
    }

    fn position_id(&self, heaps: &Bound<'_, PyAny>) -> PyResult<usize> {
        let mut acc = 0;
        for h in heap_list(heaps)? {
            acc = self.monoid.product(acc, self.image_id(h)?);
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

    fn p_portion_ids(&self) -> Vec<usize> {
        (0..self.monoid.order())
            .filter(|&x| self.monoid.in_p(x))
            .collect()
    }
}

fn ids_of(names: &[String]) -> HashMap<String, usize> {
    names
        .iter()
        .enumerate()
        .map(|(id, n)| (n.clone(), id))
        .collect()
}

/// The state a pickle keeps: every field, and the products as bytes.
fn state<'py>(q: &PyMisereQuotient, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
    let order = q.monoid.order();
    if order > PICKLED_ORDER {
        return Err(pyo3::exceptions::PyValueError::new_err(format!(
            "a quotient of order {order} is too large to pickle (its table of products would take {} MB; at most order {PICKLED_ORDER}): pickle its spec and `to` and compute it again",
            (order * order * 4) >> 20
        )));
    }
    let mut products = Vec::with_capacity(order * order * 4);
    for x in 0..order {
        for y in 0..order {
            products.extend_from_slice(&(q.monoid.product(x, y) as u32).to_le_bytes());
        }
    }
    let d = PyDict::new(py);
    d.set_item("version", 1)?;
    d.set_item("game", &q.name)?;
    d.set_item("elements", &q.names)?;
    d.set_item("products", PyBytes::new(py, &products))?;
    d.set_item("p_portion", q.p_portion_ids())?;
    d.set_item("images", &q.images)?;
    d.set_item("to", q.to)?;
    d.set_item("computed_to", q.computed_to)?;
    d.set_item("tame", q.tame)?;
    d.set_item("presentation", &q.presentation)?;
    d.set_item("generators", q.generators.clone())?;
    d.set_item("relations", &q.relations)?;
    d.set_item("growth", q.growth.clone())?;
    d.set_item("stable_from", q.stable_from)?;
    d.set_item("period", q.period)?;
    d.set_item("proven", q.proven)?;
    Ok(d)
}

/// A quotient from a pickle's state, checked (a state that does not fit
/// together raises ValueError, never a crash).
#[pyfunction]
pub fn _quotient_from_state(d: &Bound<'_, PyDict>) -> PyResult<PyMisereQuotient> {
    let get = |key: &str| -> PyResult<Bound<'_, PyAny>> {
        d.get_item(key)?
            .ok_or_else(|| pyo3::exceptions::PyKeyError::new_err(key.to_string()))
    };
    let bad = |what: &str| {
        pyo3::exceptions::PyValueError::new_err(format!(
            "not the state of a pickled MisereQuotient: {what}"
        ))
    };
    let version: u32 = get("version")?.extract()?;
    if version != 1 {
        return Err(bad(&format!("version {version}, expected 1")));
    }
    let names: Vec<String> = get("elements")?.extract()?;
    let order = names.len();
    if order == 0 || order > PICKLED_ORDER {
        return Err(bad(&format!("{order} elements")));
    }
    let bytes: Vec<u8> = get("products")?.cast::<PyBytes>()?.as_bytes().to_vec();
    if bytes.len() != order * order * 4 {
        return Err(bad("the table of products is not of the order's size"));
    }
    let products: Vec<u32> = bytes
        .chunks_exact(4)
        .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect();
    if products.iter().any(|&x| x as usize >= order) {
        return Err(bad("a product is not an element"));
    }
    let mut p = vec![false; order];
    for id in get("p_portion")?.extract::<Vec<usize>>()? {
        *p.get_mut(id)
            .ok_or_else(|| bad("a P-portion element is out of range"))? = true;
    }
    let images: Vec<usize> = get("images")?.extract()?;
    let to: u64 = get("to")?.extract()?;
    if images.len() as u64 != to + 1 || images.iter().any(|&x| x >= order) {
        return Err(bad("the images do not fit the order and `to`"));
    }
    let period: Option<(u64, u64)> = get("period")?.extract()?;
    if period.is_some_and(|(p, _)| p == 0 || p > to) {
        return Err(bad("the period does not fit `to`"));
    }
    Ok(PyMisereQuotient {
        ids: ids_of(&names),
        names,
        name: get("game")?.extract()?,
        images,
        to,
        computed_to: get("computed_to")?.extract()?,
        tame: get("tame")?.extract()?,
        presentation: get("presentation")?.extract()?,
        generators: get("generators")?.extract()?,
        relations: get("relations")?.extract()?,
        growth: get("growth")?.extract()?,
        stable_from: get("stable_from")?.extract()?,
        period,
        proven: get("proven")?.extract()?,
        monoid: Monoid::Table { order, products, p },
    })
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
        self.to
    }
    /// The largest heap computed heap by heap; below `to` when the period
    /// was proven there (the larger heaps' images follow from it).
    #[getter]
    fn computed_to(&self) -> u64 {
        self.computed_to
    }
    /// The number of elements.
    #[getter]
    fn order(&self) -> usize {
        self.monoid.order()
    }
    /// Whether the quotient is tame (that of a set of Nim positions).
    #[getter]
    fn tame(&self) -> bool {
        self.tame
    }
    /// The presentation, `⟨a, b | a^2 = 1, b^3 = b⟩`.
    #[getter]
    fn presentation(&self) -> String {
        self.presentation.clone()
    }
    /// The generators as `(name, heap)`: each is the image of that heap.
    #[getter]
    fn generators(&self) -> Vec<(String, u64)> {
        self.generators.clone()
    }
    /// The relations, `"a^2 = 1"`, ...
    #[getter]
    fn relations(&self) -> Vec<String> {
        self.relations.clone()
    }
    /// Every element, identity first, in presentation order.
    #[getter]
    fn elements(&self) -> Vec<String> {
        self.names.clone()
    }
    /// The P-portion: the elements whose sums are misère P-positions.
    #[getter]
    fn p_portion(&self) -> Vec<String> {
        self.names_of(self.p_portion_ids())
    }
    /// The image of each heap `0..=to`: `images[n]` is heap `n`'s (heap 0,
    /// the empty sum, is the identity `"1"`).
    #[getter]
    fn images(&self) -> Vec<String> {
        self.names_of(self.images.iter().copied())
    }
    /// The heaps at which the quotient grew, as `(heap, order)`.
    #[getter]
    fn growth(&self) -> Vec<(u64, usize)> {
        self.growth.clone()
    }
    /// The heap from which on the presentation did not change (up to `to`).
    #[getter]
    fn stable_from(&self) -> u64 {
        self.stable_from
    }
    /// The period of the heap images, or None.
    #[getter]
    fn period(&self) -> Option<u64> {
        self.period.map(|p| p.0)
    }
    /// The heap from which that period holds, or None.
    #[getter]
    fn preperiod(&self) -> Option<u64> {
        self.period.map(|p| p.1)
    }
    /// Whether the period is proven: then this is the quotient of every sum
    /// of heaps of any size, not only of heaps up to `to`.
    #[getter]
    fn proven(&self) -> bool {
        self.proven
    }
    /// The image of heap `n`; beyond `to` through the proven period
    /// (ValueError when there is none).
    #[pyo3(text_signature = "(self, n)")]
    fn image(&self, n: Int<'_>) -> PyResult<String> {
        let n = n.get("n", 0, u64::MAX)?;
        Ok(self.names[self.image_id(n)?].clone())
    }
    /// The product of the images of a sum of heaps (a list or any iterable
    /// of heap sizes).
    fn image_of(&self, heaps: &Bound<'_, PyAny>) -> PyResult<String> {
        Ok(self.names[self.position_id(heaps)?].clone())
    }
    /// "P" or "N": the misère outcome of a sum of heaps, from the product
    /// of their images. Heaps beyond `to` need a proven period.
    fn outcome(&self, heaps: &Bound<'_, PyAny>) -> PyResult<&'static str> {
        Ok(if self.monoid.in_p(self.position_id(heaps)?) {
            "P"
        } else {
            "N"
        })
    }
    /// Whether a sum of heaps is a misère P-position (a loss for the
    /// player to move).
    fn is_p_position(&self, heaps: &Bound<'_, PyAny>) -> PyResult<bool> {
        Ok(self.monoid.in_p(self.position_id(heaps)?))
    }
    /// The product of elements given by name (the identity for none).
    #[pyo3(signature = (*elements))]
    fn product(&self, elements: Vec<String>) -> PyResult<String> {
        let mut acc = 0;
        for e in &elements {
            acc = self.monoid.product(acc, self.id(e)?);
        }
        Ok(self.names[acc].clone())
    }
    /// Whether an element (by name) is in the P-portion.
    fn in_p_portion(&self, element: &str) -> PyResult<bool> {
        Ok(self.monoid.in_p(self.id(element)?))
    }
    /// The quotient as a dict with the fields of `nimatron quotient --json`.
    fn to_dict<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let d = PyDict::new(py);
        d.set_item("game", &self.name)?;
        d.set_item("to", self.to)?;
        d.set_item("computed_to", self.computed_to)?;
        d.set_item("order", self.monoid.order())?;
        d.set_item("tame", self.tame)?;
        d.set_item("presentation", &self.presentation)?;
        let generators: Vec<Bound<'py, PyDict>> = self
            .generators
            .iter()
            .map(|(name, heap)| {
                let d = PyDict::new(py);
                d.set_item("name", name)?;
                d.set_item("heap", heap)?;
                Ok(d)
            })
            .collect::<PyResult<_>>()?;
        d.set_item("generators", generators)?;
        d.set_item("relations", &self.relations)?;
        d.set_item("elements", &self.names)?;
        d.set_item("p_portion", self.p_portion())?;
        // As the CLI: heaps 1..=to.
        d.set_item("images", self.names_of(self.images[1..].iter().copied()))?;
        let growth: Vec<Bound<'py, PyDict>> = self
            .growth
            .iter()
            .map(|&(heap, order)| {
                let d = PyDict::new(py);
                d.set_item("heap", heap)?;
                d.set_item("order", order)?;
                Ok(d)
            })
            .collect::<PyResult<_>>()?;
        d.set_item("growth", growth)?;
        d.set_item("stable_from", self.stable_from)?;
        d.set_item("period", self.period())?;
        d.set_item("preperiod", self.preperiod())?;
        d.set_item("proven", self.proven)?;
        Ok(d)
    }
    fn __len__(&self) -> usize {
        self.monoid.order()
    }
    fn __repr__(&self) -> String {
        format!(
            "MisereQuotient(game={:?}, to={}, order={}, tame={}, proven={})",
            self.name,
            self.to,
            self.monoid.order(),
            if self.tame { "True" } else { "False" },
            if self.proven { "True" } else { "False" },
        )
    }
    /// Pickled with every field and its table of products (quotients up to
    /// order 4096), so that unpickling computes nothing.
    fn __reduce__<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let f = py
            .import("nimatron._nimatron")?
            .getattr("_quotient_from_state")?;
        (f, (state(self, py)?,)).into_bound_py_any(py)
    }
    /// The presentation and P-portion, as a notebook shows them.
    fn _repr_html_(&self) -> String {
        let status = if self.proven {
            format!(
                "proven for every heap size (heap images periodic from heap {} with period {})",
                self.preperiod().unwrap_or(0),
                self.period().unwrap_or(0)
            )
        } else {
            format!("exact for sums of heaps 1 to {}", self.to)
        };
        format!(
            "<div><p><b>Misère quotient of {}</b>: order {}, {}; {}.</p><p>{}</p><p>P-portion: {{{}}}</p></div>",
            escape(&self.name),
            self.monoid.order(),
            if self.tame { "tame" } else { "wild" },
            escape(&status),
            escape(&self.presentation),
            escape(&self.p_portion().join(", ")),
        )
    }
}
