//! `grundy_sequence` and `census`: the sequence engine of `nimatron grundy`
//! and `nimatron census`, run in steps with the GIL released, reporting
//! progress and checking for Ctrl-C between steps.

use std::fmt::Write as _;
use std::time::Instant;

use numpy::IntoPyArray;
use pyo3::IntoPyObjectExt;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList};

use nimatron::GameSpec;
use nimatron::sequence::{
    Algorithm, CensusRecord, CensusResult, CensusSpec, HeapGame, HeapGameError, SequenceOptions,
    SequenceRun, Simd, Values, census_game, merge,
};

use crate::analysis::escape;
use crate::args::{self, Int};
use crate::errors;
use crate::interrupt;

/// Rows of values shown in a notebook.
const HTML_ROWS: usize = 10;

/// How progress is reported: not at all, to a callable `f(done, total)`,
/// or to a bar with `update(n)` (a `tqdm`, made here for `progress=True`).
enum Progress<'py> {
    None,
    Callback(Bound<'py, PyAny>),
    Bar {
        bar: Bound<'py, PyAny>,
        shown: u64,
        owned: bool,
    },
}

impl<'py> Progress<'py> {
    fn new(
        py: Python<'py>,
        progress: Option<&Bound<'py, PyAny>>,
        total: u64,
        what: &str,
    ) -> PyResult<Progress<'py>> {
        let Some(p) = progress else {
            return Ok(Progress::None);
        };
        if p.is_none() {
            return Ok(Progress::None);
        }
        if let Ok(flag) = p.extract::<bool>() {
            if !flag {
                return Ok(Progress::None);
            }
            let tqdm = py
                .import("tqdm.auto")
                .map_err(|_| {
                    pyo3::exceptions::PyImportError::new_err(
                        "progress=True shows a tqdm bar, but tqdm is not installed: pip install tqdm, or pass a callable progress(done, total)",
                    )
                })?
                .getattr("tqdm")?;
            let kwargs = PyDict::new(py);
            kwargs.set_item("total", total)?;
            kwargs.set_item("unit", what)?;
            kwargs.set_item("unit_scale", true)?;
            let bar = tqdm.call((), Some(&kwargs))?;
            return Ok(Progress::Bar {
                bar,
                shown: 0,
                owned: true,
            });
        }
        if p.is_instance_of::<pyo3::types::PyType>() && p.hasattr("update")? {
            // A bar class such as `tqdm.tqdm`: make one.
            let kwargs = PyDict::new(py);
            kwargs.set_item("total", total)?;
            kwargs.set_item("unit", what)?;
            let bar = p.call((), Some(&kwargs))?;
            return Ok(Progress::Bar {
                bar,
                shown: 0,
                owned: true,
            });
        }
        if p.hasattr("update")? && !p.is_callable() {
            if let Ok(t) = p.getattr("total")
                && t.is_none()
            {
                let _ = p.setattr("total", total);
            }
            return Ok(Progress::Bar {
                bar: p.clone(),
                shown: 0,
                owned: false,
            });
        }
        if p.is_callable() {
            return Ok(Progress::Callback(p.clone()));
        }
        Err(pyo3::exceptions::PyTypeError::new_err(
            "progress must be None, True (a tqdm bar), a tqdm bar, or a callable progress(done, total)",
        ))
    }

    fn show(&mut self, done: u64, total: u64) -> PyResult<()> {
        match self {
            Progress::None => Ok(()),
            Progress::Callback(f) => f.call1((done, total)).map(drop),
            Progress::Bar { bar, shown, .. } => {
                if done > *shown {
                    bar.call_method1("update", (done - *shown,))?;
                    *shown = done;
                }
                Ok(())
            }
        }
    }

    fn close(&mut self) {
        if let Progress::Bar {
            bar, owned: true, ..
        } = self
        {
            let _ = bar.call_method0("close");
        }
    }
}

fn options(
    py: Python<'_>,
    threads: Option<&Int<'_>>,
    algorithm: &str,
    simd: &str,
    memory_limit: Option<f64>,
) -> PyResult<SequenceOptions> {
    let value_error = |m: String| pyo3::exceptions::PyValueError::new_err(m);
    let algorithm: Algorithm = algorithm
        .parse()
        .map_err(|e| value_error(format!("algorithm: {e}")))?;
    let threads = match args::optional(threads, "threads", 1, usize::MAX as u64)? {
        Some(t) => t as usize,
        None => std::thread::available_parallelism().map_or(1, |n| n.get().min(2)),
    };
    let simd: Simd = simd
        .parse()
        .map_err(|e| value_error(format!("simd: {e}")))?;
    simd.resolve()
        .map_err(|e| errors::sequence_error(py, format!("simd={simd}: {e}")))?;
    let memory_limit = match memory_limit {
        Some(g) if !(g > 0.0 && g.is_finite()) => {
            return Err(value_error(
                "memory_limit must be a positive number of GiB".into(),
            ));
        }
        Some(g) => (g * (1u64 << 30) as f64) as u64,
        None => default_memory_limit(),
    };
    Ok(SequenceOptions {
        algorithm,
        threads,
        memory_limit,
        simd,
    })
}

/// 90% of the memory available now (Linux), or 8 GiB when unknown: the
/// CLI's default.
fn default_memory_limit() -> u64 {
    let available = std::fs::read_to_string("/proc/meminfo")
        .ok()
        .and_then(|text| {
            text.lines()
                .find(|l| l.starts_with("MemAvailable:"))
                .and_then(|l| l.split_whitespace().nth(1))
                .and_then(|kb| kb.parse::<u64>().ok())
                .map(|kb| kb * 1024)
        });
    available.map_or(8 << 30, |bytes| bytes / 10 * 9)
}

/// Runs `run` to the end in steps of about a tenth of a second each (for
/// progress reports), the GIL released during a step; between steps,
/// `step` is told how many values are known. Within a step the engine asks
/// the interrupt of [`interrupt::run`] between blocks of work, so Ctrl-C
/// raises KeyboardInterrupt within [`interrupt::POLL_EVERY`] and a block,
/// however long a step turns out.
fn drive(
    py: Python<'_>,
    run: &mut SequenceRun,
    mut step_done: impl FnMut(u64) -> PyResult<()>,
) -> PyResult<()> {
    interrupt::check_not_in_handler()?;
    // The CLI's steps (`nimatron grundy`), of about a tenth of a second:
    // each step starts and joins the engine's helper thread and drains its
    // pipeline, so steps of a few hundredths made the same computation
    // 5-8% slower than the CLI's. Ctrl-C does not wait for a step's end:
    // the engine asks the interrupt between blocks of work. A first step
    // that is slow (a game whose values are slow to compute) halves the
    // next ones, down to a few values.
    let mut step: u64 = 1 << 12;
    while !run.is_complete() {
        let t = Instant::now();
        let target = run.len().saturating_add(step);
        interrupt::run(py, |stop| {
            run.set_interrupt(stop);
            run.advance(target)
        })?
        .map_err(|e| errors::from_sequence(py, e))?;
        let took = t.elapsed().as_secs_f64();
        if took < 0.05 {
            step = step.saturating_mul(2);
        } else if took > 0.2 && step > 1 << 2 {
            step /= 2;
        }
        step_done(run.len())?;
    }
    Ok(())
}

/// The values as a read-only NumPy array: `uint16`, or `uint32` if a
/// value is 65 536 or more. The array is the sequence's own (made here,
/// no one else holds it), and read-only, so the sequence is a value:
/// `seq.values.copy()` gives an array to change.
fn values_array<'py>(py: Python<'py>, values: Values) -> PyResult<Bound<'py, PyAny>> {
    enum Narrow {
        Shorts(Vec<u16>),
        Words(Vec<u32>),
    }
    let narrow = py.detach(|| match values {
        Values::Bytes(v) => Narrow::Shorts(v.into_iter().map(u16::from).collect()),
        Values::Shorts(v) => Narrow::Shorts(v),
        Values::Words(v) => {
            if v.iter().all(|&x| x <= u16::MAX as u32) {
                Narrow::Shorts(v.into_iter().map(|x| x as u16).collect())
            } else {
                Narrow::Words(v)
            }
        }
    });
    let array = match narrow {
        Narrow::Shorts(v) => v.into_pyarray(py).into_any(),
        Narrow::Words(v) => v.into_pyarray(py).into_any(),
    };
    read_only(&array)?;
    Ok(array)
}

/// Marks a NumPy array read-only.
fn read_only(array: &Bound<'_, PyAny>) -> PyResult<()> {
    array.getattr("flags")?.setattr("writeable", false)
}

/// The Grundy values `G(0..=n)` of a heap game, and its period.
///
/// `values` is a NumPy `uint16` array (`uint32` if a value reaches
/// 65 536). `period` and `preperiod` are the smallest period found (None if
/// none), and `proven` says whether the octal periodicity theorem proves
/// it. `len(seq)` and `seq[i]` read the values.
#[pyclass(name = "GrundySequence", module = "nimatron", frozen)]
pub struct PyGrundySequence {
    game: String,
    values: Py<PyAny>,
    period: Option<u64>,
    preperiod: Option<u64>,
    proven: bool,
    max_value: u32,
    method: String,
    simd: String,
    values_to_prove: Option<u64>,
}

#[pymethods]
impl PyGrundySequence {
    /// The game's canonical spec.
    #[getter]
    fn game(&self) -> String {
        self.game.clone()
    }
    /// `G(0), ..., G(n)` as a NumPy array.
    #[getter]
    fn values(&self, py: Python<'_>) -> Py<PyAny> {
        self.values.clone_ref(py)
    }
    /// The largest heap size computed, n.
    #[getter]
    fn to(&self, py: Python<'_>) -> PyResult<usize> {
        Ok(self.values.bind(py).len()? - 1)
    }
    /// The smallest period found, or None.
    #[getter]
    fn period(&self) -> Option<u64> {
        self.period
    }
    /// The preperiod of that period, or None.
    #[getter]
    fn preperiod(&self) -> Option<u64> {
        self.preperiod
    }
    /// Whether the octal periodicity theorem proves the period for every
    /// heap size (else it is only apparent up to n).
    #[getter]
    fn proven(&self) -> bool {
        self.proven
    }
    /// The largest value.
    #[getter]
    fn max_value(&self) -> u32 {
        self.max_value
    }
    /// How the values were computed: "sparse", "naive", "direct", ...
    #[getter]
    fn method(&self) -> String {
        self.method.clone()
    }
    /// The vector path the inner loops used ("avx512", "avx2", ...).
    #[getter]
    fn simd(&self) -> String {
        self.simd.clone()
    }
    /// For an apparent period the theorem could prove: how many values it
    /// needs.
    #[getter]
    fn values_to_prove(&self) -> Option<u64> {
        self.values_to_prove
    }
    fn __len__(&self, py: Python<'_>) -> PyResult<usize> {
        self.values.bind(py).len()
    }
    fn __getitem__<'py>(
        &self,
        py: Python<'py>,
        index: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyAny>> {
        self.values.bind(py).get_item(index)
    }
    fn __repr__(&self, py: Python<'_>) -> PyResult<String> {
        let n = self.values.bind(py).len()?;
        let period = match (self.period, self.preperiod) {
            (Some(p), Some(e)) => format!(
                ", period={p}, preperiod={e}, proven={}",
                if self.proven { "True" } else { "False" }
            ),
            _ => ", period=None".to_string(),
        };
        Ok(format!(
            "GrundySequence(game={:?}, n={}{period})",
            self.game,
            n.saturating_sub(1)
        ))
    }
    /// The sequence in a notebook: its period, and its first values in
    /// rows of the period's length (12 when there is none or it is long),
    /// the preperiod shaded.
    fn _repr_html_(&self, py: Python<'_>) -> PyResult<String> {
        let values = self.values.bind(py);
        let count = values.len()?;
        let width = match self.period {
            Some(p) if (2..=24).contains(&p) => p as usize,
            _ => 12,
        };
        let shown = count.min(width * HTML_ROWS);
        let head: Vec<u64> = values
            .get_item(pyo3::types::PySlice::new(py, 0, shown as isize, 1))?
            .call_method0("tolist")?
            .extract()?;
        let period = match (self.period, self.preperiod) {
            (Some(p), Some(e)) if self.proven => {
                format!("period {p} from heap {e}, proven for every heap size")
            }
            (Some(p), Some(e)) => {
                let prove = self
                    .values_to_prove
                    .map(|v| format!("; the theorem would prove it with {v} values"))
                    .unwrap_or_default();
                format!("apparent period {p} from heap {e} (up to n, not proven{prove})")
            }
            _ => "no period found up to n".to_string(),
        };
        let mut s = format!(
            "<div class=\"nimatron-sequence\"><p><b>{}</b>: G(0) … G({}), largest value {}; {}. <small>({}, {})</small></p>",
            escape(&self.game),
            count.saturating_sub(1),
            self.max_value,
            escape(&period),
            escape(&self.method),
            escape(&self.simd),
        );
        s.push_str("<table style=\"font-family: monospace; text-align: right\"><tr><th>n</th>");
        for i in 0..width {
            let _ = write!(s, "<th>+{i}</th>");
        }
        s.push_str("</tr>");
        let preperiod = self.preperiod.unwrap_or(0) as usize;
        for (row, chunk) in head.chunks(width).enumerate() {
            let _ = write!(s, "<tr><th>{}</th>", row * width);
            for (i, v) in chunk.iter().enumerate() {
                let style = if row * width + i < preperiod {
                    " style=\"background: #f1f1f1\""
                } else {
                    ""
                };
                let _ = write!(s, "<td{style}>{v}</td>");
            }
            s.push_str("</tr>");
        }
        s.push_str("</table>");
        if count > shown {
            let _ = write!(
                s,
                "<p>… and {} more values (<code>.values</code>)</p>",
                count - shown
            );
        }
        s.push_str("</div>");
        Ok(s)
    }
    fn __reduce__<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let f = py
            .import("nimatron._nimatron")?
            .getattr("_sequence_from_state")?;
        let state = (
            self.game.clone(),
            self.values.clone_ref(py),
            self.period,
            self.preperiod,
            self.proven,
            self.max_value,
            self.method.clone(),
            self.simd.clone(),
            self.values_to_prove,
        );
        (f, state).into_bound_py_any(py)
    }
}

#[pyfunction]
#[allow(clippy::too_many_arguments)]
pub fn _sequence_from_state(
    game: String,
    values: Bound<'_, PyAny>,
    period: Option<u64>,
    preperiod: Option<u64>,
    proven: bool,
    max_value: u32,
    method: String,
    simd: String,
    values_to_prove: Option<u64>,
) -> PyResult<PyGrundySequence> {
    // The sequence's own read-only copy, as when it was computed.
    let values = values
        .py()
        .import("numpy")?
        .call_method1("array", (values,))?;
    read_only(&values)?;
    Ok(PyGrundySequence {
        game,
        values: values.unbind(),
        period,
        preperiod,
        proven,
        max_value,
        method,
        simd,
        values_to_prove,
    })
}

/// A heap game for `grundy_sequence` from its spec; the error says what
/// is accepted, and why Nim and the catalogue's other games are not.
pub fn heap_game(py: Python<'_>, spec: &str) -> PyResult<HeapGame> {
    spec.parse().map_err(|e: HeapGameError| {
        let heap_games: Vec<&str> = HeapGame::CATALOGUE.iter().map(|(n, _)| *n).collect();
        let heap_games = heap_games.join(", ");
        let name = spec.split(':').next().unwrap_or("").trim().to_ascii_lowercase();
        let message = if name == "nim" {
            format!(
                "Nim needs no Grundy sequence: a heap of n objects has Grundy value n (G(n) = n), so a Nim position's value is the XOR of its heaps (nimatron.analyze gives it with the winning moves). Grundy sequences are computed for the games played on heaps that may also split: {heap_games}"
            )
        } else if matches!(e, HeapGameError::UnknownName { .. })
            && spec.parse::<GameSpec>().is_ok()
        {
            format!(
                "'{}' is a game of the catalogue (nimatron.games()), but not one played on a single heap, so it has no Grundy sequence of heap sizes; grundy_sequence computes those of: {heap_games}",
                spec.trim()
            )
        } else {
            e.to_string()
        };
        errors::spec_error(py, message)
    })
}

/// The Grundy values G(0..=n) of a single heap of a heap game.
///
/// `spec` is a heap-game spec of `nimatron grundy`: "kayles", "dawson",
/// "officers", "octal:0.137", "grundy-game", "subtraction:1,3,4",
/// "modular:M:R", ... (`nimatron.games()` says which games have one; Nim's
/// is G(n) = n). `threads` (default: up to 2) and `algorithm` ("auto",
/// "naive", "sparse", "plain") and `simd` ("auto", "avx512", "avx2",
/// "portable", "none") are the CLI's options; `memory_limit` is in GiB
/// (default: 90% of the memory available).
///
/// `progress` is None, True (a tqdm bar), a tqdm bar (its `update` is
/// called), or a callable `progress(done, total)`. The GIL is released
/// while values are computed, and Ctrl-C raises KeyboardInterrupt within
/// about a tenth of a second (the engine stops between blocks of work).
///
/// Raises SpecError (bad spec), SequenceError (too large) or ValueError
/// (bad options).
#[pyfunction]
#[pyo3(
    signature = (spec, n, *, threads = None, algorithm = "auto", simd = "auto", memory_limit = None, progress = None),
    text_signature = "(spec, n, *, threads=None, algorithm='auto', simd='auto', memory_limit=None, progress=None)"
)]
#[allow(clippy::too_many_arguments)]
pub fn grundy_sequence(
    py: Python<'_>,
    spec: &str,
    n: Int<'_>,
    threads: Option<Int<'_>>,
    algorithm: &str,
    simd: &str,
    memory_limit: Option<f64>,
    progress: Option<&Bound<'_, PyAny>>,
) -> PyResult<PyGrundySequence> {
    let n = n.get("n", 0, u64::MAX - 1)?;
    let game = heap_game(py, spec)?;
    let options = options(py, threads.as_ref(), algorithm, simd, memory_limit)?;
    let mut run = SequenceRun::new(&game, n, &options).map_err(|e| errors::from_sequence(py, e))?;
    let total = n + 1;
    let mut progress = Progress::new(py, progress, total, "values")?;
    let result = drive(py, &mut run, |done| progress.show(done, total));
    progress.close();
    result?;
    let seq = interrupt::run(py, |_| run.finish())?;
    let values = values_array(py, seq.values)?;
    Ok(PyGrundySequence {
        game: seq.game.to_string(),
        values: values.unbind(),
        period: seq.period.map(|p| p.period),
        preperiod: seq.period.map(|p| p.preperiod),
        proven: seq.period.is_some_and(|p| p.proven),
        max_value: seq.summary.max_value,
        method: seq.summary.method.to_string(),
        simd: seq.summary.simd.to_string(),
        values_to_prove: seq.summary.values_to_prove,
    })
}

/// A census of octal games: every code of up to `digits` digits (after
/// `leading`, 0 or 4), each sequence to `n`, grouped into classes of
/// equivalent codes, as `nimatron census --digits D --to N` computes them.
///
/// Returns a list of dicts, one per class: `number`, `rule`
/// ("single", "same-moves", "same-values-proven", "same-values-observed"),
/// `codes`, `proven`, `period`, `preperiod` (None when unsolved),
/// `max_value`, `values_to_prove` and `same_values_up_to_n` (the numbers of
/// classes with the same values up to n, not proven equal). Progress and
/// Ctrl-C as for `grundy_sequence`, counted in codes.
#[pyfunction]
#[pyo3(
    signature = (digits, n, *, leading = Int::Default(0), threads = None, progress = None),
    text_signature = "(digits, n, *, leading=0, threads=None, progress=None)"
)]
pub fn census<'py>(
    py: Python<'py>,
    digits: Int<'py>,
    n: Int<'py>,
    leading: Int<'py>,
    threads: Option<Int<'py>>,
    progress: Option<&Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyList>> {
    let digits = digits.get("digits", 1, u32::MAX as u64)? as u32;
    let n = n.get("n", 0, u64::MAX - 1)?;
    let leading = leading.get("leading", 0, 4)? as u8;
    let spec = CensusSpec::new(digits, leading, n)
        .map_err(|e| pyo3::exceptions::PyValueError::new_err(e.to_string()))?;
    let options = options(py, threads.as_ref(), "auto", "auto", None)?;
    let total = spec.code_count();
    let mut progress = Progress::new(py, progress, total, "codes")?;
    let mut records = Vec::with_capacity(total.min(1 << 20) as usize);
    let mut result = Ok(());
    for index in 0..total {
        // Each code's sequence in steps, as grundy_sequence's.
        let record = SequenceRun::new(&census_game(&spec, index), spec.to, &options)
            .map_err(|e| errors::from_sequence(py, e))
            .and_then(|mut run| {
                drive(py, &mut run, |_| Ok(()))?;
                let seq = interrupt::run(py, |_| run.finish())?;
                Ok(CensusRecord::from_sequence(&spec, index, &seq))
            });
        match record.and_then(|r| {
            records.push(r);
            progress.show(index + 1, total)
        }) {
            Ok(()) => {}
            Err(e) => {
                result = Err(e);
                break;
            }
        }
    }
    progress.close();
    result?;
    let table = merge(records).map_err(|e| errors::nimatron_error(py, e.to_string()))?;
    let out = PyList::empty(py);
    for class in &table.classes {
        let d = PyDict::new(py);
        let r = class.representative();
        d.set_item("number", class.number)?;
        d.set_item("rule", class.rule.name())?;
        d.set_item("codes", class.codes())?;
        d.set_item("proven", r.result.is_proven())?;
        let (period, preperiod, to_prove) = match &r.result {
            CensusResult::Proven {
                period, preperiod, ..
            } => (Some(*period), Some(*preperiod), None),
            CensusResult::Unsolved {
                apparent,
                values_to_prove,
            } => (
                apparent.map(|a| a.0),
                apparent.map(|a| a.1),
                *values_to_prove,
            ),
        };
        d.set_item("period", period)?;
        d.set_item("preperiod", preperiod)?;
        d.set_item("max_value", r.max_value)?;
        d.set_item("values_to_prove", to_prove)?;
        d.set_item("same_values_up_to_n", class.same_values_up_to_n.clone())?;
        out.append(d)?;
    }
    Ok(out)
}
