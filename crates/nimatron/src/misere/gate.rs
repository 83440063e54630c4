//! Turns between the misère race and the quotient, which is learnt on a
//! thread of its own so that a turn that ends halfway through a heap loses
//! nothing: the thread waits where it is until its next turn.
//!
//! Only one of the two works at a time. The race gives the quotient a turn
//! ([`Gate::turn`]) and waits; the quotient's budget asks [`pass`] now and
//! then whether its turn lasts, and when it is over, says so and waits for
//! the next turn, or for the race to end ([`Gate::end`]), after which
//! [`pass`] says to stop (the learning then ends as if interrupted, with
//! the heaps it verified). Each heap verified is handed over at once
//! ([`Gate::publish`]), so that the search can use it in its next turn.

use std::cell::RefCell;
use std::sync::{Arc, Condvar, Mutex, MutexGuard};
use std::time::Instant;

use super::QuotientError;
use super::work::Work;

thread_local! {
    /// The gate of the quotient learnt on this thread, if it is one.
    static GATE: RefCell<Option<Arc<Gate>>> = const { RefCell::new(None) };
}

/// Whether the learning on this thread may go on: at once on a thread with
/// no gate, and while its turn lasts on the quotient's thread of a race,
/// which otherwise waits here for its next turn. `false` once the race is
/// over.
pub(super) fn pass() -> bool {
    GATE.with(|g| g.borrow().as_ref().is_none_or(|g| g.pass()))
}

/// What the learning ended with: the quotient verified, where its order
/// grew, and why it stopped (`None`: it reached its target or proved its
/// period).
pub(super) type Learnt = (Work, Vec<(u64, usize)>, Option<QuotientError>);

#[derive(Default)]
struct State {
    /// The quotient may work until then; `None` between its turns.
    until: Option<Instant>,
    /// The race is over: the quotient stops at once.
    over: bool,
    /// The quotient has ended its turn and waits.
    waiting: bool,
    /// The newest quotient verified, not yet taken.
    progress: Option<(Work, Vec<(u64, usize)>)>,
    /// What the learning ended with, once it has.
    done: Option<Learnt>,
    /// The thread is gone (it ended, or panicked).
    gone: bool,
}

/// The turn-taking of one race (see the module's documentation).
#[derive(Default)]
pub(super) struct Gate {
    state: Mutex<State>,
    changed: Condvar,
}

impl Gate {
    fn lock(&self) -> MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// The quotient's side: true while its turn lasts; at its end, waits for
    /// the next; false once the race is over.
    fn pass(&self) -> bool {
        let mut s = self.lock();
        loop {
            if s.over {
                return false;
            }
            match s.until {
                Some(until) if Instant::now() < until => return true,
                _ => {
                    s.until = None;
                    if !s.waiting {
                        s.waiting = true;
                        self.changed.notify_all();
                    }
                    s = self.changed.wait(s).unwrap_or_else(|e| e.into_inner());
                }
            }
        }
    }

    /// The race's side: lets the quotient work until `until`, and waits for
    /// it to end its turn (or the learning).
    pub(super) fn turn(&self, until: Instant) {
        let mut s = self.lock();
        s.until = Some(until);
        s.waiting = false;
        self.changed.notify_all();
        while !s.waiting && !s.gone {
            s = self.changed.wait(s).unwrap_or_else(|e| e.into_inner());
        }
    }

    /// The newest quotient verified since the last call, if any.
    pub(super) fn progress(&self) -> Option<(Work, Vec<(u64, usize)>)> {
        self.lock().progress.take()
    }

    /// What the learning ended with, once it has ended.
    pub(super) fn done(&self) -> Option<Learnt> {
        self.lock().done.take()
    }

    /// Whether the learning has ended (or its thread is gone).
    pub(super) fn finished(&self) -> bool {
        let s = self.lock();
        s.done.is_some() || s.gone
    }

    /// Ends the race: the quotient stops at its next [`pass`].
    pub(super) fn end(&self) {
        self.lock().over = true;
        self.changed.notify_all();
    }

    /// The quotient's side: a heap more is verified.
    pub(super) fn publish(&self, work: &Work, growth: &[(u64, usize)]) {
        self.lock().progress = Some((work.clone(), growth.to_vec()));
    }

    /// Runs `learn` as the quotient of this gate on the calling thread (a
    /// thread of its own): it waits for its first turn, and whatever way it
    /// ends (a panic too), the race waiting on it is told.
    pub(super) fn run(self: &Arc<Gate>, learn: impl FnOnce() -> Learnt) {
        struct Gone<'a>(&'a Gate);
        impl Drop for Gone<'_> {
            fn drop(&mut self) {
                GATE.with(|g| g.borrow_mut().take());
                self.0.lock().gone = true;
                self.0.changed.notify_all();
            }
        }
        let _gone = Gone(self);
        GATE.with(|g| *g.borrow_mut() = Some(self.clone()));
        if !self.pass() {
            return;
        }
        let learnt = learn();
        self.lock().done = Some(learnt);
    }
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use super::*;
    use crate::misere::{QuotientLimits, grow, quotient};
    use crate::sequence::HeapGame;

    /// Learns misère Dawson's Kayles towards heap `to` on a thread of its
    /// own, in turns of 100 µs, ending the race after `turns` turns if it
    /// has not finished; returns what it learnt and the turns it had.
    fn in_turns(to: u64, turns: Option<usize>) -> (Learnt, usize) {
        let game: HeapGame = "dawson".parse().unwrap();
        let gate = Arc::new(Gate::default());
        let mut had = 0;
        std::thread::scope(|scope| {
            let (g, game) = (gate.clone(), &game);
            let thread = scope.spawn(move || {
                g.run(|| {
                    grow(
                        game,
                        Work::empty(),
                        Vec::new(),
                        to,
                        &QuotientLimits::default(),
                        &mut |w, growth| g.publish(w, growth),
                    )
                })
            });
            while !gate.finished() && turns.is_none_or(|t| had < t) {
                had += 1;
                gate.turn(Instant::now() + Duration::from_micros(100));
            }
            gate.end();
            thread.join().unwrap();
        });
        (gate.done().expect("the learning ended"), had)
    }

    /// Checks a quotient learnt in turns against the one learnt at once:
    /// the same order, growth and image of every heap.
    fn same_as_at_once(work: Work, growth: Vec<(u64, usize)>) {
        let game: HeapGame = "dawson".parse().unwrap();
        let heaps = work.heaps as u64;
        let whole = quotient(&game, heaps, &QuotientLimits::default()).unwrap();
        let learnt = crate::misere::MisereQuotient::from_work(&game, heaps, work, growth);
        assert_eq!(learnt.order(), whole.order(), "heaps 1 to {heaps}");
        assert_eq!(learnt.growth(), whole.growth(), "heaps 1 to {heaps}");
        for h in 1..=heaps {
            assert_eq!(learnt.image(h), whole.image(h), "heap {h}");
        }
    }

    /// Paused and resumed many times, even halfway through a heap, the
    /// quotient of Dawson's Kayles' heaps up to 24 is the one learnt at once.
    #[test]
    fn a_quotient_learnt_in_short_turns_is_the_one_learnt_at_once() {
        let ((work, growth, stop), turns) = in_turns(24, None);
        assert!(stop.is_none(), "{stop:?}");
        assert_eq!(work.heaps, 24);
        assert!(turns > 1, "{turns} turns");
        same_as_at_once(work, growth);
    }

    /// A race that ends while the quotient waits for its turn stops the
    /// learning, which keeps the heaps it verified before.
    #[test]
    fn a_race_that_ends_keeps_the_heaps_verified() {
        let ((work, growth, stop), turns) = in_turns(30, Some(3));
        assert_eq!(turns, 3);
        assert!(
            matches!(stop, Some(QuotientError::Interrupted { heap }) if heap == work.heaps as u64 + 1),
            "{stop:?} after heap {}",
            work.heaps
        );
        same_as_at_once(work, growth);
    }
}
