//! Two threads for the length of a computation: this one and a helper
//! started once by [`with_pair`] on [`std::thread::scope`], so that each of
//! the many short jobs of a two-thread run starts on it without a thread
//! start. (Measured on Officers to 10^6 with a thread started per round:
//! about 60 µs passed between the spawn and the thread's first
//! instruction, per round of about 2 ms, and the main thread then waited
//! about 40 µs per round in the join.)
//!
//! [`Pair::join`] runs one closure here and one there, like
//! `std::thread::scope` with one spawned thread, and returns when both are
//! done. The closure sent there is a job on this thread's stack (as in
//! rayon's `join`): the helper gets a pointer to it and a function to run
//! it, and `join` does not return, nor unwind, before the helper says it
//! is done with it. Between jobs the helper spins for [`SPIN_FOR`], then
//! parks; when [`with_pair`]'s closure ends (or panics) it is told to stop,
//! and the scope joins it.

use std::cell::UnsafeCell;
use std::panic::{AssertUnwindSafe, catch_unwind, resume_unwind};
use std::sync::Mutex;
use std::sync::atomic::{AtomicU32, Ordering};
use std::thread::{self, Thread};
use std::time::{Duration, Instant};

/// How long the idle helper spins before it parks.
const SPIN_FOR: Duration = Duration::from_micros(200);

const IDLE: u32 = 0;
const POSTED: u32 = 1;
const DONE: u32 = 2;
const QUIT: u32 = 3;

/// A job posted to the helper: a pointer to a [`StackJob`] on the poster's
/// stack and the function that runs it.
struct JobRef {
    job: *const (),
    run: unsafe fn(*const ()),
}

// SAFETY: a `JobRef` only ever points at a `StackJob` whose closure and
// result are `Send`, and the poster keeps the job alive and untouched until
// the helper has run it (see `Pair::join`).
unsafe impl Send for JobRef {}

/// A closure to run on the helper and the room for its result, on the
/// stack of [`Pair::join`].
struct StackJob<F, R> {
    func: UnsafeCell<Option<F>>,
    result: UnsafeCell<Option<thread::Result<R>>>,
}

impl<F: FnOnce() -> R + Send, R: Send> StackJob<F, R> {
    fn new(func: F) -> StackJob<F, R> {
        StackJob {
            func: UnsafeCell::new(Some(func)),
            result: UnsafeCell::new(None),
        }
    }

    /// The job as the helper takes it.
    fn as_job_ref(&self) -> JobRef {
        JobRef {
            job: self as *const StackJob<F, R> as *const (),
            run: Self::run,
        }
    }

    /// Runs the closure and keeps its result (or its panic).
    ///
    /// # Safety
    /// `job` comes from [`StackJob::as_job_ref`] of a job that is still
    /// alive, that has not run yet, and that no other thread touches until
    /// this returns.
    unsafe fn run(job: *const ()) {
        // SAFETY: the pointer is to a live `StackJob<F, R>` that only this
        // thread touches now (this function's contract).
        let job = unsafe { &*(job as *const StackJob<F, R>) };
        // SAFETY: as above: no other reference to the closure or the result
        // is live while this thread runs the job.
        let func = unsafe { (*job.func.get()).take() };
        if let Some(func) = func {
            let result = catch_unwind(AssertUnwindSafe(func));
            // SAFETY: as above.
            unsafe { *job.result.get() = Some(result) };
        }
    }

    /// The result, once the helper has run the job.
    fn into_result(self) -> Option<thread::Result<R>> {
        self.result.into_inner()
    }
}

/// What the two threads share.
struct Shared {
    state: AtomicU32,
    job: Mutex<Option<JobRef>>,
}

impl Shared {
    fn post(&self, job: JobRef) {
        *self
            .job
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner()) = Some(job);
        self.state.store(POSTED, Ordering::Release);
    }

    fn take(&self) -> Option<JobRef> {
        self.job
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
            .take()
    }
}

/// This thread and the helper of [`with_pair`].
pub(crate) struct Pair<'scope> {
    shared: &'scope Shared,
    helper: Thread,
}

/// Runs `f` with a helper thread, started here and ended (and joined)
/// when `f` returns or panics.
pub(crate) fn with_pair<R>(f: impl FnOnce(&Pair<'_>) -> R) -> R {
    let shared = Shared {
        state: AtomicU32::new(IDLE),
        job: Mutex::new(None),
    };
    thread::scope(|scope| {
        let worker = thread::Builder::new()
            .name("nimatron-helper".into())
            .spawn_scoped(scope, || work(&shared))
            .expect("starting the helper thread");
        let pair = Pair {
            shared: &shared,
            helper: worker.thread().clone(),
        };
        // Tells the helper to stop however `f` ends, so that the scope's
        // join of it returns.
        let _quit = Quit(&pair);
        f(&pair)
    })
}

/// Stops the helper when dropped.
struct Quit<'a, 'scope>(&'a Pair<'scope>);

impl Drop for Quit<'_, '_> {
    fn drop(&mut self) {
        self.0.shared.state.store(QUIT, Ordering::Release);
        self.0.helper.unpark();
    }
}

impl Pair<'_> {
    /// Runs `there` on the helper and `here` on this thread, and returns
    /// both results once both are done. A panic in either is raised here,
    /// after both have ended.
    pub(crate) fn join<A: Send, B>(
        &self,
        there: impl FnOnce() -> A + Send,
        here: impl FnOnce() -> B,
    ) -> (A, B) {
        let job = StackJob::new(there);
        self.shared.post(job.as_job_ref());
        self.helper.unpark();
        let mine = catch_unwind(AssertUnwindSafe(here));
        // The helper is done with `job` once the state says DONE; until
        // then nothing here returns or unwinds (`here`'s panic is caught,
        // and the wait cannot panic).
        self.wait();
        let theirs = job.into_result();
        match (theirs, mine) {
            (Some(Ok(a)), Ok(b)) => (a, b),
            (Some(Err(payload)), _) | (_, Err(payload)) => resume_unwind(payload),
            (None, Ok(_)) => unreachable!("the helper runs every job it is posted"),
        }
    }

    /// Whether the job posted last has ended (normally or by a panic).
    pub(crate) fn finished(&self) -> bool {
        self.shared.state.load(Ordering::Acquire) == DONE
    }

    fn wait(&self) {
        let mut spins = 0u32;
        while self.shared.state.load(Ordering::Acquire) != DONE {
            spins += 1;
            if spins < 1 << 12 {
                std::hint::spin_loop();
            } else {
                thread::yield_now();
            }
        }
        self.shared.state.store(IDLE, Ordering::Relaxed);
    }
}

/// The helper: waits for a job, runs it, says so; until QUIT.
fn work(shared: &Shared) {
    loop {
        let start = Instant::now();
        let mut spins = 0u32;
        loop {
            match shared.state.load(Ordering::Acquire) {
                POSTED => break,
                QUIT => return,
                _ => {}
            }
            spins = spins.wrapping_add(1);
            if spins.is_multiple_of(256) && start.elapsed() > SPIN_FOR {
                // `join` unparks after posting, so no post is missed.
                thread::park();
            } else {
                std::hint::spin_loop();
            }
        }
        if let Some(job) = shared.take() {
            // SAFETY: the job was posted by `Pair::join`, which keeps it
            // alive and touches it again only after DONE is stored below;
            // it runs once, as it is taken out of the slot.
            unsafe { (job.run)(job.job) };
        }
        shared.state.store(DONE, Ordering::Release);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn runs_both_sides_with_borrowed_data() {
        // Fewer rounds under Miri, which runs threads slowly.
        let rounds = if cfg!(miri) { 8 } else { 200 };
        with_pair(|pair| {
            let mut total = 0u64;
            for round in 0..rounds {
                let data: Vec<u64> = (0..1000).map(|i| i * round).collect();
                let (a, b) = pair.join(
                    || data[..500].iter().sum::<u64>(),
                    || data[500..].iter().sum::<u64>(),
                );
                total += a + b;
                assert_eq!(a + b, data.iter().sum::<u64>());
            }
            assert_eq!(total, (0..rounds).map(|r| r * 999 * 1000 / 2).sum::<u64>());
        });
    }

    #[test]
    fn the_helper_writes_into_borrowed_data() {
        with_pair(|pair| {
            let mut left = vec![0u32; 64];
            let mut right = vec![0u32; 64];
            for round in 1..5u32 {
                let (l, r) = (&mut left, &mut right);
                pair.join(
                    || l.iter_mut().for_each(|x| *x += round),
                    || r.iter_mut().for_each(|x| *x += 2 * round),
                );
            }
            assert!(left.iter().all(|&x| x == 10));
            assert!(right.iter().all(|&x| x == 20));
        });
    }

    #[test]
    fn a_panic_on_either_side_is_raised_after_both_end() {
        with_pair(|pair| {
            let there = catch_unwind(AssertUnwindSafe(|| {
                pair.join(|| panic!("there"), || 1);
            }));
            assert!(there.is_err());
            let here = catch_unwind(AssertUnwindSafe(|| {
                pair.join(|| 1, || panic!("here"));
            }));
            assert!(here.is_err());
            // The pair still works.
            assert_eq!(pair.join(|| 2, || 3), (2, 3));
        });
    }

    #[test]
    fn a_panic_in_the_closure_ends_the_helper_too() {
        let outcome = catch_unwind(|| with_pair(|_| panic!("inside")));
        assert!(outcome.is_err());
    }

    #[test]
    fn finished_reports_the_end_of_the_job() {
        with_pair(|pair| {
            let (_, saw_end) = pair.join(
                || (),
                || {
                    while !pair.finished() {
                        std::hint::spin_loop();
                    }
                    true
                },
            );
            assert!(saw_end);
        });
    }
}
