//! A second thread kept for the length of a two-thread computation, so that
//! each round's work starts on it without a thread start. Measured on
//! Officers to 10^6 with a thread started per round: about 60 µs passed
//! between the spawn and the thread's first instruction, per round of about
//! 2 ms, and the main thread then waited about 40 µs per round in the
//! join (that wait also holds the helper's last confirmations).
//!
//! [`Relay::join`] runs one closure here and one there, like
//! `std::thread::scope` with one spawned thread, and returns when both are
//! done. Between jobs the second thread spins for [`SPIN_FOR`], then parks.

use std::any::Any;
use std::panic::{AssertUnwindSafe, catch_unwind, resume_unwind};
use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// How long the idle thread spins before it parks.
const SPIN_FOR: Duration = Duration::from_micros(200);

const IDLE: u32 = 0;
const POSTED: u32 = 1;
const DONE: u32 = 2;
const QUIT: u32 = 3;

type Job = Box<dyn FnOnce() + Send>;

struct Shared {
    state: AtomicU32,
    job: Mutex<Option<Job>>,
}

/// The second thread; it ends when the relay is dropped.
pub(crate) struct Relay {
    shared: Arc<Shared>,
    worker: Option<JoinHandle<()>>,
}

impl Relay {
    /// Starts the second thread.
    pub(crate) fn new() -> Relay {
        let shared = Arc::new(Shared {
            state: AtomicU32::new(IDLE),
            job: Mutex::new(None),
        });
        let theirs = Arc::clone(&shared);
        let worker = std::thread::Builder::new()
            .name("nimatron-helper".into())
            .spawn(move || work(&theirs))
            .expect("starting the helper thread");
        Relay {
            shared,
            worker: Some(worker),
        }
    }

    /// Runs `there` on the second thread and `here` on this one, and
    /// returns both results once both are done. A panic in either is
    /// raised here, after both have ended.
    pub(crate) fn join<A: Send, B>(
        &self,
        there: impl FnOnce() -> A + Send,
        here: impl FnOnce() -> B,
    ) -> (A, B) {
        let mut theirs: Option<std::thread::Result<A>> = None;
        let out = &mut theirs as *mut Option<std::thread::Result<A>> as usize;
        let task: Box<dyn FnOnce() + Send + '_> = Box::new(move || {
            let result = catch_unwind(AssertUnwindSafe(there));
            // SAFETY: `out` points at `theirs`, which `join` neither reads
            // nor drops before the state says DONE (stored after this).
            unsafe { *(out as *mut Option<std::thread::Result<A>>) = Some(result) };
        });
        // SAFETY: the task borrows only what outlives this call, and this
        // call does not return (or unwind) before the task has run: the
        // wait below comes after `here`, whose panic is caught.
        let task: Job = unsafe { std::mem::transmute::<Box<dyn FnOnce() + Send + '_>, Job>(task) };
        *self.shared.job.lock().expect("relay lock") = Some(task);
        self.shared.state.store(POSTED, Ordering::Release);
        if let Some(worker) = &self.worker {
            worker.thread().unpark();
        }
        let mine = catch_unwind(AssertUnwindSafe(here));
        self.wait();
        match (theirs.expect("the task ran"), mine) {
            (Ok(a), Ok(b)) => (a, b),
            (Err(payload), _) | (_, Err(payload)) => resume_unwind(payload),
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
                std::thread::yield_now();
            }
        }
        self.shared.state.store(IDLE, Ordering::Relaxed);
    }
}

impl Drop for Relay {
    fn drop(&mut self) {
        self.shared.state.store(QUIT, Ordering::Release);
        if let Some(worker) = self.worker.take() {
            worker.thread().unpark();
            // The worker catches every panic of a job, so it ends cleanly.
            let _: Result<(), Box<dyn Any + Send>> = worker.join();
        }
    }
}

/// The second thread: waits for a job, runs it, says so; until QUIT.
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
                std::thread::park();
            } else {
                std::hint::spin_loop();
            }
        }
        let job = shared.job.lock().expect("relay lock").take();
        if let Some(job) = job {
            job();
        }
        shared.state.store(DONE, Ordering::Release);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn runs_both_sides_with_borrowed_data() {
        let relay = Relay::new();
        let mut total = 0u64;
        for round in 0..200u64 {
            let data: Vec<u64> = (0..1000).map(|i| i * round).collect();
            let (a, b) = relay.join(
                || data[..500].iter().sum::<u64>(),
                || data[500..].iter().sum::<u64>(),
            );
            total += a + b;
            assert_eq!(a + b, data.iter().sum::<u64>());
        }
        assert_eq!(total, (0..200u64).map(|r| r * 999 * 1000 / 2).sum::<u64>());
    }

    #[test]
    fn a_panic_on_either_side_is_raised_after_both_end() {
        let relay = Relay::new();
        let there = catch_unwind(AssertUnwindSafe(|| {
            relay.join(|| panic!("there"), || 1);
        }));
        assert!(there.is_err());
        let here = catch_unwind(AssertUnwindSafe(|| {
            relay.join(|| 1, || panic!("here"));
        }));
        assert!(here.is_err());
        // The relay still works.
        assert_eq!(relay.join(|| 2, || 3), (2, 3));
    }

    #[test]
    fn finished_reports_the_end_of_the_job() {
        let relay = Relay::new();
        let (_, saw_end) = relay.join(
            || (),
            || {
                while !relay.finished() {
                    std::hint::spin_loop();
                }
                true
            },
        );
        assert!(saw_end);
    }
}
