//! Ctrl-C for every long computation.
//!
//! Python runs its signal handlers (the one that raises
//! `KeyboardInterrupt`, and any the program installed) only on the main
//! thread, and only when that thread holds the GIL and calls
//! `PyErr_CheckSignals`. A computation runs with the GIL released, so
//! [`run`] hands the library an [`Interrupt`]: the solvers ask it, with
//! their clock checks, whether to stop, and it takes the GIL back to check
//! for signals at most every [`POLL_EVERY`]. When a handler raises, the
//! exception is kept, the interrupt answers "stop", the library returns
//! its `Interrupted` error (its tables as after any other limit), and
//! [`run`] raises the handler's exception instead of the result.
//!
//! Calls from other threads get no interrupt: signals are not theirs to
//! see, and taking the GIL back every few milliseconds would slow them
//! for nothing.

use std::cell::{Cell, RefCell};
use std::time::{Duration, Instant};

use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;

use nimatron::{Interrupt, Limits};

/// How often a computation on the main thread looks for signals: the
/// delay Ctrl-C may take, beyond the library's own step between questions.
pub const POLL_EVERY: Duration = Duration::from_millis(50);

thread_local! {
    /// Computations with an interrupt running on this thread.
    static ACTIVE: Cell<u32> = const { Cell::new(0) };
    /// When signals were last checked.
    static LAST: Cell<Option<Instant>> = const { Cell::new(None) };
    /// Whether a signal handler is running from [`poll`].
    static IN_HANDLER: Cell<bool> = const { Cell::new(false) };
    /// The exception a handler raised, to raise when the work returns.
    static RAISED: RefCell<Option<PyErr>> = const { RefCell::new(None) };
    /// Whether this thread is Python's main thread (known once asked).
    static MAIN: Cell<Option<bool>> = const { Cell::new(None) };
}

/// The library's question "stop now?", answered for Python.
fn poll() -> bool {
    if ACTIVE.get() == 0 {
        // A worker thread of the library, or no Python call: nothing to see.
        return false;
    }
    if RAISED.with_borrow(Option::is_some) {
        return true;
    }
    let now = Instant::now();
    if LAST
        .get()
        .is_some_and(|last| now.duration_since(last) < POLL_EVERY)
    {
        return false;
    }
    LAST.set(Some(now));
    IN_HANDLER.set(true);
    let checked = Python::attach(|py| py.check_signals());
    IN_HANDLER.set(false);
    match checked {
        Ok(()) => false,
        Err(e) => {
            RAISED.with_borrow_mut(|r| *r = Some(e));
            true
        }
    }
}

/// The interrupt the library is given on the main thread.
const PYTHON_SIGNALS: Interrupt = Interrupt::new(poll);

/// `threading.current_thread` and `threading.main_thread`.
static THREADING: PyOnceLock<(Py<PyAny>, Py<PyAny>)> = PyOnceLock::new();

/// Imports what [`run`] needs, when the module loads (so that no call
/// pays for an import).
pub fn init(py: Python<'_>) -> PyResult<()> {
    THREADING.get_or_try_init(py, || -> PyResult<_> {
        let threading = py.import("threading")?;
        Ok((
            threading.getattr("current_thread")?.unbind(),
            threading.getattr("main_thread")?.unbind(),
        ))
    })?;
    Ok(())
}

fn is_main_thread(py: Python<'_>) -> PyResult<bool> {
    if let Some(known) = MAIN.get() {
        return Ok(known);
    }
    init(py)?;
    let (current, main) = THREADING.get(py).expect("just made");
    let known = current.bind(py).call0()?.is(&main.bind(py).call0()?);
    MAIN.set(Some(known));
    Ok(known)
}

/// Refuses to start a computation from a signal handler that interrupted
/// another one on this thread: it could wait forever on the tables the
/// interrupted one holds.
pub fn check_not_in_handler() -> PyResult<()> {
    if IN_HANDLER.get() {
        return Err(pyo3::exceptions::PyRuntimeError::new_err(
            "a Nimatron computation cannot start in a signal handler that runs while another Nimatron computation is under way on the same thread",
        ));
    }
    Ok(())
}

/// Runs `work` with the GIL released, giving it the interrupt to pass to
/// the library (None off the main thread). A signal handler's exception
/// (`KeyboardInterrupt` for Ctrl-C) is raised instead of the work's
/// result, whatever the work returned, so that it is not lost behind an
/// error made from a result that the interrupt cut short.
pub fn run<T, F>(py: Python<'_>, work: F) -> PyResult<T>
where
    T: Send,
    F: FnOnce(Option<Interrupt>) -> T + Send,
{
    check_not_in_handler()?;
    if !is_main_thread(py)? {
        return Ok(py.detach(|| work(None)));
    }
    ACTIVE.set(ACTIVE.get() + 1);
    LAST.set(Some(Instant::now()));
    let out = py.detach(|| work(Some(PYTHON_SIGNALS)));
    ACTIVE.set(ACTIVE.get() - 1);
    if let Some(e) = RAISED.with_borrow_mut(Option::take) {
        return Err(e);
    }
    // A signal that came as the work ended goes first too.
    py.check_signals()?;
    Ok(out)
}

/// `limits` with the interrupt [`run`] gave, if any.
pub fn limits(limits: Limits, interrupt: Option<Interrupt>) -> Limits {
    match interrupt {
        Some(i) => limits.with_interrupt(i),
        None => limits,
    }
}

/// Checks for signals now if [`POLL_EVERY`] has passed since the last
/// check (for loops that hold the GIL, such as a user game's exploration).
/// The clock is read every [`Ticker::CLOCK_EVERY`] ticks only: a tick is
/// one position a user game's `moves` gave, and reading the clock for each
/// cost a tenth of the exploration. Python code (the game's `moves`) runs
/// its own signal handlers meanwhile, so a slow `moves` is interrupted
/// without waiting for a tick.
pub struct Ticker {
    last: Instant,
    ticks: u32,
}

impl Ticker {
    /// Ticks between readings of the clock.
    pub const CLOCK_EVERY: u32 = 64;

    pub fn new() -> Ticker {
        Ticker {
            last: Instant::now(),
            ticks: 0,
        }
    }

    pub fn tick(&mut self, py: Python<'_>) -> PyResult<()> {
        self.ticks = self.ticks.wrapping_add(1);
        if !self.ticks.is_multiple_of(Self::CLOCK_EVERY) {
            return Ok(());
        }
        let now = Instant::now();
        if now.duration_since(self.last) >= POLL_EVERY {
            self.last = now;
            py.check_signals()?;
        }
        Ok(())
    }
}
