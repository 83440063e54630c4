//! What the two threads of a round of the pipeline share: the values,
//! which this thread (the producer) appends to while the helper reads the
//! ones already published, and a ring of slots through which the helper
//! hands blocks of words over, a slot at a time.
//!
//! [`Handoff::new`] takes the values (`&mut Vec<T>`, with room reserved for
//! the round so that the buffer does not move) and the ring's memory, and
//! splits them into three handles:
//! - [`Grower`], the producer's: reads the values and pushes new ones, and
//!   nothing else (no reallocation, no truncation, no write to a value
//!   already there), so that the helper's view stays valid;
//! - [`Filler`], the helper's: fills slot `t % slots` for block `t` once
//!   the producer is done with the block that last used it;
//! - [`Taker`], the producer's: reads block `t`'s slot once the helper has
//!   filled it, then marks the block done, publishing the values pushed so
//!   far.
//!
//! The [`Handoff`] itself gives either thread the values published so far
//! ([`Handoff::known`]). Counters with release and acquire order carry the
//! values and the slots from one thread to the other.

use std::marker::PhantomData;
use std::ops::Deref;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

/// Values that grow by pushes alone: a `Vec`, or the producer's view of
/// one during a round ([`Grower`]).
pub(crate) trait Grow<T>: Deref<Target = [T]> {
    /// Appends a value.
    fn push(&mut self, value: T);
}

impl<T> Grow<T> for Vec<T> {
    #[inline]
    fn push(&mut self, value: T) {
        Vec::push(self, value);
    }
}

/// The state of a round that both threads share (see the module).
pub(crate) struct Handoff<'a, T> {
    /// The start of the values' buffer, which holds `capacity` values.
    values: *const T,
    capacity: usize,
    /// How many values are published: all initialised, and none of them
    /// written again while the round lasts.
    published: AtomicUsize,
    /// The ring: `slots` slots of `slot_len` words.
    ring: *mut u64,
    slots: usize,
    slot_len: usize,
    /// Blocks the helper has filled, and blocks the producer is done with.
    filled: AtomicUsize,
    done: AtomicUsize,
    /// Whether the filler and the taker have been handed out (one each).
    handed_out: [AtomicBool; 2],
    _borrows: PhantomData<(&'a [T], &'a mut [u64])>,
}

// SAFETY: the values are read through `known` only below `published`, which
// no thread writes while the round lasts; the ring's slots are written by
// the one `Filler` and read by the one `Taker`, never the same slot at once
// (see `Filler::fill` and `Taker::take`). With `T: Sync` and `u64` sharing
// is sound.
unsafe impl<T: Sync> Sync for Handoff<'_, T> {}
// SAFETY: as above; the handoff owns nothing but borrows.
unsafe impl<T: Sync> Send for Handoff<'_, T> {}

impl<'a, T: Copy> Handoff<'a, T> {
    /// Reserves room for `extra` more values and splits the round's state
    /// into its handles. `ring` holds `slots` slots of `slot_len` words.
    pub(crate) fn new(
        values: &'a mut Vec<T>,
        extra: usize,
        ring: &'a mut [u64],
        slots: usize,
        slot_len: usize,
    ) -> (Handoff<'a, T>, Grower<'a, T>) {
        assert!(
            slots >= 1 && ring.len() >= slots * slot_len,
            "room for the ring"
        );
        values.reserve(extra);
        let handoff = Handoff {
            values: values.as_ptr(),
            capacity: values.capacity(),
            published: AtomicUsize::new(values.len()),
            ring: ring.as_mut_ptr(),
            slots,
            slot_len,
            filled: AtomicUsize::new(0),
            done: AtomicUsize::new(0),
            handed_out: [AtomicBool::new(false), AtomicBool::new(false)],
            _borrows: PhantomData,
        };
        (handoff, Grower { values })
    }

    /// The first `len` values, which must be published.
    pub(crate) fn known(&self, len: usize) -> &[T] {
        assert!(
            len <= self.published.load(Ordering::Acquire),
            "values not yet published"
        );
        // SAFETY: the first `published` values are initialised, inside the
        // buffer (which does not move: the grower never grows it past its
        // capacity), and written by no one while the handoff lives.
        unsafe { std::slice::from_raw_parts(self.values, len) }
    }

    /// Blocks the producer is done with.
    pub(crate) fn done(&self) -> usize {
        self.done.load(Ordering::Acquire)
    }

    /// Blocks the helper has filled.
    pub(crate) fn filled(&self) -> usize {
        self.filled.load(Ordering::Acquire)
    }

    /// The helper's handle, the only writer of the ring: a second call
    /// panics.
    pub(crate) fn filler(&self) -> Filler<'_, 'a, T> {
        assert!(
            !self.handed_out[0].swap(true, Ordering::Relaxed),
            "one filler"
        );
        Filler {
            handoff: self,
            next: 0,
        }
    }

    /// The producer's handle for the slots, the only one to free them: a
    /// second call panics.
    pub(crate) fn taker(&self) -> Taker<'_, 'a, T> {
        assert!(
            !self.handed_out[1].swap(true, Ordering::Relaxed),
            "one taker"
        );
        Taker {
            handoff: self,
            next: 0,
        }
    }

    /// Slot `t % slots`.
    fn slot(&self, t: usize) -> *mut u64 {
        // The slot lies inside the ring (checked on making the handoff).
        self.ring.wrapping_add((t % self.slots) * self.slot_len)
    }
}

/// The producer's view of the values during a round: reads, and pushes
/// into the room reserved.
pub(crate) struct Grower<'a, T> {
    values: &'a mut Vec<T>,
}

impl<T> Deref for Grower<'_, T> {
    type Target = [T];
    fn deref(&self) -> &[T] {
        self.values
    }
}

impl<T> Grow<T> for Grower<'_, T> {
    /// Appends a value within the room reserved; more is a bug, and
    /// panics rather than move the buffer under the helper.
    #[inline]
    fn push(&mut self, value: T) {
        assert!(
            self.values.len() < self.values.capacity(),
            "a round pushes no more values than it reserved room for"
        );
        self.values.push(value);
    }
}

/// The helper's handle: fills the slots in order.
pub(crate) struct Filler<'h, 'a, T> {
    handoff: &'h Handoff<'a, T>,
    next: usize,
}

impl<T: Copy> Filler<'_, '_, T> {
    /// The next block to fill.
    pub(crate) fn next(&self) -> usize {
        self.next
    }

    /// Whether the slot of the next block is free: the producer is done
    /// with the block that used it last.
    pub(crate) fn ready(&self) -> bool {
        self.handoff.done() + self.handoff.slots > self.next
    }

    /// Fills the next block's slot with `fill` once it is free (`None`
    /// while it is not), then hands it over.
    pub(crate) fn fill<R>(&mut self, fill: impl FnOnce(&mut [u64]) -> R) -> Option<R> {
        if !self.ready() {
            return None;
        }
        let t = self.next;
        // SAFETY: the slot is inside the ring. The producer last read it
        // for block t - slots, which it is done with (`ready`, read with
        // acquire order), and reads it for block t only once `filled`
        // passes t (stored below, with release order); this is the only
        // filler (`Handoff::filler` hands out one), and `&mut self` keeps
        // its slots one at a time, so no other reference to the slot is
        // live.
        let slot =
            unsafe { std::slice::from_raw_parts_mut(self.handoff.slot(t), self.handoff.slot_len) };
        let out = fill(slot);
        self.handoff.filled.store(t + 1, Ordering::Release);
        self.next = t + 1;
        Some(out)
    }
}

/// The producer's handle: reads the slots in order.
pub(crate) struct Taker<'h, 'a, T> {
    handoff: &'h Handoff<'a, T>,
    next: usize,
}

impl<T: Copy> Taker<'_, '_, T> {
    /// Whether the next block's slot is filled.
    pub(crate) fn ready(&self) -> bool {
        self.handoff.filled() > self.next
    }

    /// The next block's slot once it is filled (`None` while it is not).
    pub(crate) fn take(&self) -> Option<&[u64]> {
        if !self.ready() {
            return None;
        }
        // SAFETY: the slot is inside the ring. The filler finished it
        // (`filled` passed `next`, read with acquire order) and writes it
        // again only for block next + slots, once `done` passes next, which
        // only `finish` stores and which needs this borrow to have ended.
        Some(unsafe {
            std::slice::from_raw_parts(self.handoff.slot(self.next), self.handoff.slot_len)
        })
    }

    /// Marks the next block done: publishes the values pushed so far and
    /// frees the block's slot.
    pub(crate) fn finish(&mut self, grower: &Grower<'_, T>) {
        let handoff = self.handoff;
        assert!(
            grower.values.as_ptr() == handoff.values && grower.len() <= handoff.capacity,
            "the grower of this handoff"
        );
        handoff.published.store(grower.len(), Ordering::Release);
        self.next += 1;
        handoff.done.store(self.next, Ordering::Release);
    }
}

#[cfg(test)]
mod tests {
    use super::super::pair::with_pair;
    use super::*;

    /// The helper fills each block's slot from the values published a few
    /// blocks back while the producer pushes new ones; both see what the
    /// other wrote, in order, and the producer's values are its own.
    #[test]
    fn blocks_and_values_pass_between_the_threads() {
        const SLOTS: usize = 4;
        const WORDS: usize = 8;
        const BLOCK: usize = 16;
        let blocks = if cfg!(miri) { 6 } else { 200 };
        let mut values: Vec<u64> = (0..BLOCK as u64).collect();
        let mut ring = vec![0u64; SLOTS * WORDS];
        with_pair(|pair| {
            let start = values.len();
            let (handoff, mut grower) =
                Handoff::new(&mut values, blocks * BLOCK, &mut ring, SLOTS, WORDS);
            let handoff = &handoff;
            let (sums, ()) = pair.join(
                || {
                    let mut filler = handoff.filler();
                    let mut sums = Vec::new();
                    while filler.next() < blocks {
                        let t = filler.next();
                        // Values of blocks up to t - SLOTS are published once
                        // the slot is free.
                        let seen = filler.fill(|slot| {
                            let known =
                                handoff.known(start + (t + 1).saturating_sub(SLOTS) * BLOCK);
                            let sum: u64 = known.iter().sum();
                            slot.fill(t as u64);
                            slot[0] = sum;
                            sum
                        });
                        match seen {
                            Some(sum) => sums.push(sum),
                            None => std::hint::spin_loop(),
                        }
                    }
                    sums
                },
                || {
                    let mut taker = handoff.taker();
                    for t in 0..blocks {
                        let slot = loop {
                            if let Some(slot) = taker.take() {
                                break slot;
                            }
                            std::hint::spin_loop();
                        };
                        assert!(slot[1..].iter().all(|&w| w == t as u64), "block {t}");
                        let base = grower.len() as u64;
                        for i in 0..BLOCK as u64 {
                            grower.push(base + i);
                        }
                        taker.finish(&grower);
                    }
                },
            );
            // The sum of 0..n for the values each block could see.
            for (t, sum) in sums.into_iter().enumerate() {
                let n = (start + (t + 1).saturating_sub(SLOTS) * BLOCK) as u64;
                assert_eq!(sum, n * n.saturating_sub(1) / 2, "block {t}");
            }
        });
        assert_eq!(
            values,
            (0..((blocks + 1) * BLOCK) as u64).collect::<Vec<_>>()
        );
    }

    /// Pushing past the room reserved panics rather than moving the values.
    #[test]
    fn the_grower_keeps_to_its_room() {
        let mut values = vec![1u8, 2, 3];
        let mut ring = [0u64; 4];
        let (handoff, mut grower) = Handoff::new(&mut values, 2, &mut ring, 2, 2);
        let room = grower.values.capacity() - grower.len();
        for _ in 0..room {
            grower.push(9);
        }
        let over = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| grower.push(9)));
        assert!(over.is_err());
        assert_eq!(handoff.known(3), &[1, 2, 3]);
    }
}
