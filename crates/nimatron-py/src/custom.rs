//! `UserGame`: an impartial game defined in Python, solved by the Rust
//! solvers.
//!
//! Positions are any hashable Python values. Each is interned once into an
//! integer id, and the game's `moves` is called once per position.
//!
//! *Grundy values* come out of the exploration itself: from the position
//! asked about, depth first (with the GIL, as `moves` is Python), calling
//! `moves` (and `components`, if given) on every position not yet valued,
//! refusing cycles, checking the limits and Ctrl-C; a component is valued
//! (the mex of its options' values, each the XOR of its components')
//! when the last of its options is. The tables are arrays indexed by id,
//! and the search's stack is one array of ids, so a position costs one
//! call of `moves`, one dict lookup per option and no allocation but its
//! list of options: about what a plain Python mex costs.
//!
//! *Misère outcomes* explore whole positions the same way, then the
//! library's `OutcomeSearch` runs over the explored graph of ids, in pure
//! Rust with the GIL released.
//!
//! Tables are kept between calls, so asking about many positions of one
//! game reuses the work.

use std::collections::HashMap;
use std::time::{Duration, Instant};

use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList};

use nimatron::solve::OutcomeSearch;
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
    /// Grundy values of components by id ([`UNKNOWN`] until valued).
    values: Vec<u64>,
    /// How many of `values` are known.
    values_known: usize,
    /// Positions whose exploration for outcome search finished.
    done_whole: Vec<bool>,
    /// Nodes on the exploration's path now (to refuse cycles).
    on_path: Vec<bool>,
    misere: HashMap<u32, bool>,
    /// When signals were last checked while Python code runs.
    ticker: Ticker,
    /// The ids of the positions one call of `moves` gave (reused).
    scratch: Vec<u32>,
}

/// A Grundy value not known yet, in [`PyUserGame::values`].
const UNKNOWN: u64 = u64::MAX;

/// A node of the exploration's path: its children are `kids[start..end]`,
/// where `end` is the next frame's `start` (or the end of `kids`); `next`
/// is the first child not yet looked at.
struct Frame {
    node: u32,
    start: usize,
    next: usize,
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
        self.values.push(UNKNOWN);
        self.done_whole.push(false);
        self.on_path.push(false);
        Ok(id)
    }

    fn call_list(&mut self, py: Python<'_>, f: &Py<PyAny>, id: u32) -> PyResult<Box<[u32]>> {
        let result = f.bind(py).call1((self.positions[id as usize].bind(py),))?;
        let mut out = std::mem::take(&mut self.scratch);
        out.clear();
        let filled = self.intern_all(py, &result, &mut out);
        let list = Box::from(&out[..]);
        self.scratch = out;
        filled.map(|()| list)
    }

    fn intern_all(
        &mut self,
        py: Python<'_>,
        result: &Bound<'_, PyAny>,
        out: &mut Vec<u32>,
    ) -> PyResult<()> {
        for item in result.try_iter()? {
            out.push(self.intern(py, &item?)?);
        }
        Ok(())
    }

    fn split(&mut self, py: Python<'_>, id: u32) -> PyResult<()> {
        if self.components[id as usize].is_some() {
            return Ok(());
        }
        // Without a `components` function a position is its one
        // component, and nothing is stored (see `value_of`).
        if let Some(f) = self.components_fn.as_ref().map(|f| f.clone_ref(py)) {
            let parts = self.call_list(py, &f, id)?;
            self.components[id as usize] = Some(parts);
        }
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

    /// Explore every position needed from `root`: with `split`, the
    /// components of whole positions and the options of components, each
    /// component valued when its exploration ends (Grundy values); without,
    /// the options of whole positions (for outcome search). Depth first,
    /// refusing cycles.
    fn explore(&mut self, py: Python<'_>, root: u32, split: bool) -> PyResult<()> {
        let mut starts = Vec::new();
        if split {
            self.split(py, root)?;
            match &self.components[root as usize] {
                Some(parts) => starts.extend_from_slice(parts),
                None => starts.push(root),
            }
        } else {
            starts.push(root);
        }
        let mut path = Vec::new();
        let mut kids = Vec::new();
        let explored = self.explore_from(py, &starts, split, &mut path, &mut kids);
        // After an error (a cycle, a limit, Ctrl-C, the rules raising), the
        // path is left: what was valued stays, the rest is explored again
        // when asked for.
        for frame in path {
            self.on_path[frame.node as usize] = false;
        }
        explored
    }

    fn explore_from(
        &mut self,
        py: Python<'_>,
        starts: &[u32],
        split: bool,
        path: &mut Vec<Frame>,
        kids: &mut Vec<u32>,
    ) -> PyResult<()> {
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
        for &start in starts {
            if self.is_done(split, start) {
                continue;
            }
            self.enter(py, start, split, path, kids)?;
            while let Some(top) = path.last_mut() {
                if top.next == kids.len() {
                    let Frame { node, start, .. } = path.pop().expect("non-empty");
                    kids.truncate(start);
                    self.on_path[node as usize] = false;
                    if split {
                        self.values[node as usize] = self.mex_of_options(node);
                        self.values_known += 1;
                    } else {
                        self.done_whole[node as usize] = true;
                    }
                    continue;
                }
                let child = kids[top.next];
                top.next += 1;
                if self.on_path[child as usize] {
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
                self.enter(py, child, split, path, kids)?;
            }
        }
        Ok(())
    }

    /// Puts `node` on the path, its children at the end of `kids`: with
    /// `split`, the components of each option of the component `node`;
    /// without, the options of `node`.
    fn enter(
        &mut self,
        py: Python<'_>,
        node: u32,
        split: bool,
        path: &mut Vec<Frame>,
        kids: &mut Vec<u32>,
    ) -> PyResult<()> {
        let start = kids.len();
        self.expand(py, node)?;
        let options = self.options[node as usize].as_deref().expect("expanded");
        if !split || self.components_fn.is_none() {
            // The children are the options themselves.
            kids.extend_from_slice(options);
        } else {
            for i in 0..options.len() {
                let option = self.options[node as usize].as_deref().expect("expanded")[i];
                self.split(py, option)?;
                kids.extend_from_slice(self.components[option as usize].as_deref().expect("split"));
            }
        }
        self.on_path[node as usize] = true;
        path.push(Frame {
            node,
            start,
            next: start,
        });
        Ok(())
    }

    /// Whether everything below `id` is explored, for the mode.
    fn is_done(&self, split: bool, id: u32) -> bool {
        if split {
            self.values[id as usize] != UNKNOWN
        } else {
            self.done_whole[id as usize]
        }
    }

    /// The value of an explored position: the XOR of its components'.
    fn value_of(&self, id: u32) -> u64 {
        match &self.components[id as usize] {
            Some(parts) => parts.iter().fold(0, |x, &c| {
                debug_assert_ne!(self.values[c as usize], UNKNOWN);
                x ^ self.values[c as usize]
            }),
            // No `components` function: the position is its one component.
            None => self.values[id as usize],
        }
    }

    /// The Grundy value of the component `node`, whose options' components
    /// are all valued: the least value no option has.
    fn mex_of_options(&self, node: u32) -> u64 {
        let options = self.options[node as usize].as_deref().unwrap_or(&[]);
        // The mex is at most the number of options.
        if options.len() < 64 {
            let mut seen = 0u64;
            for &o in options {
                let v = self.value_of(o);
                if v < 64 {
                    seen |= 1 << v;
                }
            }
            return u64::from(seen.trailing_ones());
        }
        let mut seen = vec![false; options.len() + 1];
        for &o in options {
            if let Some(s) = usize::try_from(self.value_of(o))
                .ok()
                .and_then(|v| seen.get_mut(v))
            {
                *s = true;
            }
        }
        seen.iter().position(|&s| !s).unwrap_or(options.len()) as u64
    }

    fn grundy_of(&mut self, py: Python<'_>, id: u32) -> PyResult<Nimber> {
        self.explore(py, id, true)?;
        Ok(Nimber(self.value_of(id)))
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
        self.values.clear();
        self.values_known = 0;
        self.done_whole.clear();
        self.on_path.clear();
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
            values: Vec::new(),
            values_known: 0,
            done_whole: Vec::new(),
            on_path: Vec::new(),
            misere: HashMap::new(),
            ticker: Ticker::new(),
            scratch: Vec::new(),
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
            self.values_known,
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
