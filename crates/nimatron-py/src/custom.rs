//! `UserGame`: an impartial game defined in Python, solved by the Rust
//! solvers.
//!
//! Positions are any hashable Python values. Each is interned once into an
//! integer id, and the game's `moves` is called once per position. Solving
//! has two phases:
//! 1. *Explore* (with the GIL): from the position asked about, call
//!    `moves` (and `components`, if given) on every position the solver
//!    will need, check for cycles and the limits, and check for Ctrl-C.
//! 2. *Solve* (GIL released): the library's `GrundySolver` or
//!    `OutcomeSearch` runs over the explored graph of ids, in pure Rust.
//!
//! Tables are kept between calls, so asking about many positions of one
//! game reuses the work.

use std::collections::HashMap;
use std::time::{Duration, Instant};

use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList};

use nimatron::solve::{GrundySolver, OutcomeSearch};
use nimatron::{Convention, Limits, Nimber, Outcome, Rules, SolveError};

use crate::analysis::escape;
use crate::args::Int;
use crate::errors;
use crate::game::{DEFAULT_MAX_SECONDS, MAX_STATES, limits};
use crate::interrupt::{self, Ticker};

/// The explored game: options and components of positions by id.
struct Graph<'a> {
    options: &'a [Option<Box<[u32]>>],
    components: Option<&'a [Option<Box<[u32]>>]>,
}

impl Rules for Graph<'_> {
    type Position = u32;
    type Move = u32;

    fn moves(&self, p: &u32) -> Vec<u32> {
        self.options[*p as usize].as_deref().unwrap_or(&[]).to_vec()
    }

    fn apply(&self, _p: &u32, m: &u32) -> u32 {
        *m
    }

    fn options(&self, p: &u32) -> Vec<u32> {
        self.moves(p)
    }

    fn components(&self, p: &u32) -> Vec<u32> {
        match self.components.and_then(|c| c[*p as usize].as_deref()) {
            Some(parts) => parts.to_vec(),
            None => vec![*p],
        }
    }
}

/// An impartial game defined in Python, solved by Nimatron's solvers.
///
/// `rules` is a function `moves(position) -> iterable of positions` (the
/// positions one move away), or an object with such a `moves` method.
/// Positions are any hashable values (ints, tuples, frozensets, strings).
/// An optional `components(position) -> iterable of positions` (a method
/// of `rules`, or the keyword) splits a position into independent parts
/// whose Grundy values add by XOR, as heaps do in Nim.
///
/// Every line of play must end: a position that can be reached from
/// itself raises ValueError. `max_states` and `max_seconds` bound the work
/// as in `Game`; past them LimitError says which to raise.
#[pyclass(name = "UserGame", module = "nimatron")]
pub struct PyUserGame {
    rules: Py<PyAny>,
    moves_fn: Py<PyAny>,
    components_fn: Option<Py<PyAny>>,
    max_states: usize,
    max_seconds: Option<f64>,
    limits: Limits,
    /// Position → id.
    ids: Py<PyDict>,
    /// Id → position.
    positions: Vec<Py<PyAny>>,
    options: Vec<Option<Box<[u32]>>>,
    components: Vec<Option<Box<[u32]>>>,
    /// Components whose exploration for Grundy values finished.
    done_split: Vec<bool>,
    /// Positions whose exploration for outcome search finished.
    done_whole: Vec<bool>,
    grundy: HashMap<u32, Nimber>,
    misere: HashMap<u32, bool>,
    /// When signals were last checked while Python code runs.
    ticker: Ticker,
}

impl PyUserGame {
    fn intern(&mut self, py: Python<'_>, obj: &Bound<'_, PyAny>) -> PyResult<u32> {
        // Every position `moves` or `components` gives comes through here.
        self.ticker.tick(py)?;
        let ids = self.ids.bind(py);
        let found = ids.get_item(obj).map_err(|e| {
            if e.is_instance_of::<pyo3::exceptions::PyTypeError>(py) {
                pyo3::exceptions::PyTypeError::new_err(format!(
                    "positions must be hashable (a tuple or frozenset, not a list or set): {}",
                    obj.repr().map(|r| r.to_string()).unwrap_or_default()
                ))
            } else {
                e
            }
        })?;
        if let Some(id) = found {
            return id.extract();
        }
        if self.positions.len() >= self.max_states {
            return Err(errors::limit_error(
                py,
                &SolveError::StateLimit {
                    limit: self.max_states,
                },
            ));
        }
        let id = self.positions.len() as u32;
        ids.set_item(obj, id)?;
        self.positions.push(obj.clone().unbind());
        self.options.push(None);
        self.components.push(None);
        self.done_split.push(false);
        self.done_whole.push(false);
        Ok(id)
    }

    fn call_list(&mut self, py: Python<'_>, f: &Py<PyAny>, id: u32) -> PyResult<Box<[u32]>> {
        let result = f.bind(py).call1((self.positions[id as usize].bind(py),))?;
        let mut out = Vec::new();
        for item in result.try_iter()? {
            out.push(self.intern(py, &item?)?);
        }
        Ok(out.into_boxed_slice())
    }

    fn split(&mut self, py: Python<'_>, id: u32) -> PyResult<()> {
        if self.components[id as usize].is_some() {
            return Ok(());
        }
        let parts = match self.components_fn.as_ref().map(|f| f.clone_ref(py)) {
            Some(f) => self.call_list(py, &f, id)?,
            None => vec![id].into_boxed_slice(),
        };
        self.components[id as usize] = Some(parts);
        Ok(())
    }

    fn expand(&mut self, py: Python<'_>, id: u32) -> PyResult<()> {
        if self.options[id as usize].is_some() {
            return Ok(());
        }
        let f = self.moves_fn.clone_ref(py);
        let options = self.call_list(py, &f, id)?;
        self.options[id as usize] = Some(options);
        Ok(())
    }

    /// Explore every position the solvers need from `root`: with `split`,
    /// the components of whole positions and the options of components
    /// (for Grundy values); without, the options of whole positions (for
    /// outcome search). Depth first, refusing cycles.
    fn explore(&mut self, py: Python<'_>, root: u32, split: bool) -> PyResult<()> {
        let started = Instant::now();
        let mut calls = 0u32;
        let max_seconds = self.max_seconds;
        let mut tick = |py: Python<'_>| -> PyResult<()> {
            calls = calls.wrapping_add(1);
            // Signals are checked in `intern`, by the clock.
            if calls.is_multiple_of(64)
                && let Some(max) = max_seconds
                && started.elapsed() > Duration::from_secs_f64(max)
            {
                return Err(errors::limit_error(
                    py,
                    &SolveError::TimeLimit {
                        millis: (max * 1000.0) as u64,
                    },
                ));
            }
            Ok(())
        };
        // The nodes to finish: components (with `split`) or positions.
        let mut starts = Vec::new();
        if split {
            self.split(py, root)?;
            starts.extend(
                self.components[root as usize]
                    .as_deref()
                    .unwrap_or(&[])
                    .iter()
                    .copied(),
            );
        } else {
            starts.push(root);
        }
        let mut on_stack: HashMap<u32, ()> = HashMap::new();
        for start in starts {
            if self.is_done(split, start) {
                continue;
            }
            // (node, children, next child)
            let mut stack: Vec<(u32, Vec<u32>, usize)> = Vec::new();
            let children = self.children(py, start, split)?;
            on_stack.insert(start, ());
            stack.push((start, children, 0));
            while let Some(top) = stack.last_mut() {
                if top.2 == top.1.len() {
                    let (node, _, _) = stack.pop().expect("non-empty");
                    on_stack.remove(&node);
                    if split {
                        self.done_split[node as usize] = true;
                    } else {
                        self.done_whole[node as usize] = true;
                    }
                    continue;
                }
                let child = top.1[top.2];
                top.2 += 1;
                if on_stack.contains_key(&child) {
                    let shown = self.positions[child as usize]
                        .bind(py)
                        .repr()
                        .map(|r| r.to_string())
                        .unwrap_or_default();
                    return Err(pyo3::exceptions::PyValueError::new_err(format!(
                        "the position {shown} can be reached from itself: Nimatron's solvers need a game in which every line of play ends"
                    )));
                }
                if self.is_done(split, child) {
                    continue;
                }
                tick(py)?;
                let children = self.children(py, child, split)?;
                on_stack.insert(child, ());
                stack.push((child, children, 0));
            }
        }
        Ok(())
    }

    /// Whether everything below `id` is explored, for the mode.
    fn is_done(&self, split: bool, id: u32) -> bool {
        if split {
            self.done_split[id as usize]
        } else {
            self.done_whole[id as usize]
        }
    }

    /// The nodes below `node`: with `split`, the components of each option
    /// of the component `node`; without, the options of `node`.
    fn children(&mut self, py: Python<'_>, node: u32, split: bool) -> PyResult<Vec<u32>> {
        self.expand(py, node)?;
        let options = self.options[node as usize].clone().unwrap_or_default();
        if !split {
            return Ok(options.to_vec());
        }
        let mut out = Vec::new();
        for o in options.iter() {
            self.split(py, *o)?;
            out.extend(
                self.components[*o as usize]
                    .as_deref()
                    .unwrap_or(&[])
                    .iter()
                    .copied(),
            );
        }
        Ok(out)
    }

    fn graph(&self) -> Graph<'_> {
        Graph {
            options: &self.options,
            components: Some(&self.components),
        }
    }

    fn grundy_of(&mut self, py: Python<'_>, id: u32) -> PyResult<Nimber> {
        self.explore(py, id, true)?;
        let table = std::mem::take(&mut self.grundy);
        let limits = self.limits;
        let graph = self.graph();
        let (result, table) = interrupt::run(py, move |stop| {
            let limits = interrupt::limits(limits, stop);
            let mut solver = GrundySolver::with_table(&graph, limits, table);
            let r = solver.grundy(&id);
            (r, solver.into_table())
        })?;
        // A failed solve keeps only what it had stored before (all exact).
        self.grundy = table;
        result.map_err(|e| errors::limit_error(py, &e))
    }

    fn outcome_of(&mut self, py: Python<'_>, id: u32, convention: Convention) -> PyResult<Outcome> {
        if convention == Convention::Normal {
            return Ok(Outcome::from_to_move_wins(
                !self.grundy_of(py, id)?.is_zero(),
            ));
        }
        self.explore(py, id, false)?;
        let table = std::mem::take(&mut self.misere);
        let limits = self.limits;
        let graph = Graph {
            options: &self.options,
            components: None,
        };
        let (result, table) = interrupt::run(py, move |stop| {
            let limits = interrupt::limits(limits, stop);
            let mut search = OutcomeSearch::with_table(&graph, Convention::Misere, limits, table);
            let r = search.outcome(&id);
            (r, search.into_table())
        })?;
        self.misere = table;
        result.map_err(|e| errors::limit_error(py, &e))
    }

    /// The id of a position asked about. Tables are a cache: once they
    /// have reached the state limit they are dropped, so that the limit
    /// bounds each question rather than the game's whole life.
    fn id_of(&mut self, position: &Bound<'_, PyAny>) -> PyResult<u32> {
        if self.positions.len() >= self.max_states {
            self.forget(position.py());
        }
        self.intern(position.py(), position)
    }

    fn forget(&mut self, py: Python<'_>) {
        self.ids = PyDict::new(py).unbind();
        self.positions.clear();
        self.options.clear();
        self.components.clear();
        self.done_split.clear();
        self.done_whole.clear();
        self.grundy.clear();
        self.misere.clear();
    }
}

fn convention(misere: bool) -> Convention {
    if misere {
        Convention::Misere
    } else {
        Convention::Normal
    }
}

#[pymethods]
impl PyUserGame {
    #[new]
    #[pyo3(
        signature = (rules, *, components = None, max_states = MAX_STATES, max_seconds = Some(DEFAULT_MAX_SECONDS)),
        text_signature = "(rules, *, components=None, max_states=5000000, max_seconds=120.0)"
    )]
    fn new(
        py: Python<'_>,
        rules: &Bound<'_, PyAny>,
        components: Option<&Bound<'_, PyAny>>,
        max_states: Int<'_>,
        max_seconds: Option<f64>,
    ) -> PyResult<PyUserGame> {
        let max_states = crate::game::max_states(&max_states)?;
        let limits = limits(max_states, max_seconds)?;
        let moves_fn = if rules.hasattr("moves")? {
            rules.getattr("moves")?
        } else if rules.is_callable() {
            rules.clone()
        } else {
            return Err(pyo3::exceptions::PyTypeError::new_err(
                "a user game is a function moves(position) -> positions, or an object with a moves(position) method",
            ));
        };
        if !moves_fn.is_callable() {
            return Err(pyo3::exceptions::PyTypeError::new_err(
                "the game's moves must be callable: moves(position) -> iterable of positions",
            ));
        }
        let components_fn = match components {
            Some(c) if !c.is_none() => Some(c.clone()),
            _ if rules.hasattr("components")? => Some(rules.getattr("components")?),
            _ => None,
        };
        if let Some(c) = &components_fn
            && !c.is_callable()
        {
            return Err(pyo3::exceptions::PyTypeError::new_err(
                "components must be callable: components(position) -> iterable of positions",
            ));
        }
        Ok(PyUserGame {
            rules: rules.clone().unbind(),
            moves_fn: moves_fn.unbind(),
            components_fn: components_fn.map(Bound::unbind),
            max_states,
            max_seconds,
            limits,
            ids: PyDict::new(py).unbind(),
            positions: Vec::new(),
            options: Vec::new(),
            components: Vec::new(),
            done_split: Vec::new(),
            done_whole: Vec::new(),
            grundy: HashMap::new(),
            misere: HashMap::new(),
            ticker: Ticker::new(),
        })
    }

    /// The Sprague–Grundy value of `position` (normal play).
    fn grundy(&mut self, py: Python<'_>, position: &Bound<'_, PyAny>) -> PyResult<u64> {
        let id = self.id_of(position)?;
        Ok(self.grundy_of(py, id)?.value())
    }

    /// "N" if the player to move wins from `position`, else "P". Normal
    /// play by Grundy values; misère play by outcome search over whole
    /// positions.
    #[pyo3(signature = (position, misere = false))]
    fn outcome(
        &mut self,
        py: Python<'_>,
        position: &Bound<'_, PyAny>,
        misere: bool,
    ) -> PyResult<String> {
        let id = self.id_of(position)?;
        Ok(self.outcome_of(py, id, convention(misere))?.to_string())
    }

    /// The positions one move away that leave the opponent lost, in the
    /// order `moves` gives them (each once).
    #[pyo3(signature = (position, misere = false))]
    fn winning_moves<'py>(
        &mut self,
        py: Python<'py>,
        position: &Bound<'py, PyAny>,
        misere: bool,
    ) -> PyResult<Bound<'py, PyList>> {
        let id = self.id_of(position)?;
        self.expand(py, id)?;
        let options = self.options[id as usize].clone().unwrap_or_default();
        let out = PyList::empty(py);
        let mut seen = std::collections::HashSet::new();
        for o in options.iter() {
            if seen.insert(*o) && self.outcome_of(py, *o, convention(misere))? == Outcome::P {
                out.append(self.positions[*o as usize].bind(py))?;
            }
        }
        Ok(out)
    }

    /// How many distinct positions (and components) have been seen.
    #[getter]
    fn positions_seen(&self) -> usize {
        self.positions.len()
    }

    /// Forget every position and value (to free memory).
    fn clear(&mut self, py: Python<'_>) {
        self.forget(py);
    }

    fn __repr__(&self, py: Python<'_>) -> String {
        let rules = self
            .rules
            .bind(py)
            .repr()
            .map(|r| r.to_string())
            .unwrap_or_default();
        format!("UserGame({rules}, positions_seen={})", self.positions.len())
    }

    /// The game in a notebook: its rules and how much it has explored.
    fn _repr_html_(&self, py: Python<'_>) -> String {
        let rules = self
            .rules
            .bind(py)
            .repr()
            .map(|r| r.to_string())
            .unwrap_or_default();
        let split = if self.components_fn.is_some() {
            "; positions split into components whose values add by XOR"
        } else {
            ""
        };
        let limit = match self.max_seconds {
            Some(s) => format!("{} positions, {s} s", self.max_states),
            None => format!("{} positions, no time limit", self.max_states),
        };
        format!(
            "<div class=\"nimatron-user-game\"><p><b>User game</b> <code>{}</code>{split}.</p><p>{} positions seen, {} Grundy values and {} misère outcomes stored (limits: {}).</p></div>",
            escape(&crate::game::truncated(&rules, 200)),
            self.positions.len(),
            self.grundy.len(),
            self.misere.len(),
            escape(&limit),
        )
    }

    /// `UserGame[int]` and the like, for type checkers (the class itself
    /// at run time, as `list[int]` is `list`'s).
    #[classmethod]
    fn __class_getitem__<'py>(
        cls: &Bound<'py, pyo3::types::PyType>,
        item: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let generic_alias = cls.py().import("types")?.getattr("GenericAlias")?;
        generic_alias.call1((cls, item))
    }

    /// Pickled as its rules and limits (which must be picklable: a
    /// module-level function or class); the tables are recomputed.
    fn __reduce__<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        use pyo3::IntoPyObjectExt;
        let kwargs = PyDict::new(py);
        if let Some(c) = &self.components_fn
            && !self.rules.bind(py).hasattr("components")?
        {
            kwargs.set_item("components", c.bind(py))?;
        }
        kwargs.set_item("max_states", self.max_states)?;
        kwargs.set_item("max_seconds", self.max_seconds)?;
        let functools = py.import("functools")?;
        let ctor =
            functools.call_method("partial", (py.get_type::<PyUserGame>(),), Some(&kwargs))?;
        (ctor, (self.rules.clone_ref(py),)).into_bound_py_any(py)
    }
}
