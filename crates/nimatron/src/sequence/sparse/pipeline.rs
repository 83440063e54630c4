//! The two-thread mode of the sparse method: this thread runs step 1 a
//! round ahead, taking each `v` as the value, while a helper stamps the far
//! rare entries and both confirm the previous round with step 2; a wrong
//! guess throws the rest of its round away. Near rare positions, where
//! guesses often fail, the rounds run step 2 at once instead, and the
//! helper only stamps.

use super::super::game::TakeBreak;
use super::super::kernel;
use super::super::naive::StepError;
use super::super::parallel::{Handoff, Pair, with_pair};
use super::super::values::Cell;
use super::step1::{ROW_SLACK, far_range, next_tag, stamp_entries};
use super::step2::{Deferred, Verdict};
use super::{BLOCK, Helped, MAX_SPLITS, Sparse};

impl Sparse {
    /// Computes values until `g.len() == until` with two threads when that
    /// helps (more are not used).
    ///
    /// Step 1 of a position needs only the values before it, and step 2
    /// almost always confirms step 1's value `v`. So this thread runs step 1
    /// over a round of [`ROUND`] positions taking each `v` as the value,
    /// while a helper runs step 2 over the previous round. When step 2 finds
    /// a need value missing at some position (a new rare value), the values
    /// from there on are thrown away and computed again from the corrected
    /// one. Mask evaluations happen at the same positions as on one thread,
    /// on values already confirmed; the result is identical.
    pub fn extend_parallel<T: Cell>(
        &mut self,
        g: &mut Vec<T>,
        until: usize,
        threads: usize,
    ) -> Result<(), StepError> {
        if threads <= 1 || self.rule.split_two.is_empty() {
            return self.extend(g, until);
        }
        // The positions pending and the buffers of the round before last,
        // kept for their room from round to round and from call to call: a
        // round's list takes hundreds of KiB, and growing a fresh one copies
        // it and faults its pages in again (the command line calls this
        // about every tenth of a second).
        let [mut pending, mut spare] = std::mem::take(&mut self.deferred_room);
        let result = with_pair(|helper| self.rounds(g, until, helper, &mut pending, &mut spare));
        pending.clear();
        spare.clear();
        self.deferred_room = [pending, spare];
        result
    }

    /// The loop of [`Sparse::extend_parallel`], with `pending` and `spare`
    /// empty.
    fn rounds<T: Cell>(
        &mut self,
        g: &mut Vec<T>,
        until: usize,
        helper: &Pair<'_>,
        pending: &mut Deferred,
        spare: &mut Deferred,
    ) -> Result<(), StepError> {
        let rule = self.rule.clone();
        let mut overflow = false;
        // Set when the interrupt asked to stop: what is pending is
        // confirmed (so that every value is final) and the run stops.
        let mut interrupted = false;
        loop {
            let n1 = g.len();
            if pending
                .items
                .first()
                .is_none_or(|item| item.0 >= kernel::FRONT)
            {
                // Everything before the positions pending is final.
                self.keep_front(g);
            }
            let quiet_until = self.guess_from();
            let produce = !overflow
                && !interrupted
                && n1 < until
                && self.schedule.mask != 0
                && !self.eval_due(n1 as u64)
                && n1 >= quiet_until;
            if !produce {
                if !pending.is_empty() {
                    // Confirm what is pending before anything else, half on
                    // each thread (positions are checked independently).
                    let half = pending.items.len() / 2;
                    let (rule, pending_ref, values) = (&rule, &*pending, &*g);
                    let (second, first) = helper.join(
                        || pending_ref.verify_range(rule, values, half..),
                        || pending_ref.verify_range(rule, values, ..half),
                    );
                    self.settle(g, pending, first.merge(second));
                    continue;
                }
                if interrupted {
                    return Err(StepError::Interrupted);
                }
                if overflow {
                    return Err(StepError::Overflow);
                }
                if n1 >= until {
                    return Ok(());
                }
                if self.schedule.mask != 0
                    && n1 < quiet_until
                    && n1 >= EXACT_FROM
                    && !self.eval_due(n1 as u64)
                {
                    // Near rare positions: rounds that run step 2 at once,
                    // with the helper stamping far entries only.
                    let target = self.next_boundary(n1, until.min(n1 + ROUND));
                    if target >= n1 + EXACT_MIN {
                        let (produced, _) =
                            self.round(helper, g, target, &rule, pending, spare, true);
                        spare.clear();
                        match produced {
                            Ok(()) => continue,
                            Err(StepError::Overflow) => {
                                overflow = true;
                                continue;
                            }
                            Err(StepError::Interrupted) => {
                                interrupted = true;
                                continue;
                            }
                            Err(e) => return Err(e),
                        }
                    }
                }
                // A mask evaluation, a plain step, or the positions near a
                // rare one, on one thread.
                let stop = if self.schedule.mask != 0 && n1 < quiet_until {
                    quiet_until
                } else {
                    n1 + BLOCK
                };
                let stop = self.next_boundary(n1, until.min(stop)).max(n1 + 1);
                if self.eval_due(n1 as u64) {
                    // Here rather than in `extend`, so that both threads
                    // choose the scan plan.
                    self.evaluate(g, Some(helper));
                }
                self.extend_with(g, stop, Some(helper))?;
                continue;
            }
            // With nothing pending, the helper has only its stamps to do
            // while this thread runs step 1: a short round, so that the
            // next, with step 2 to share, comes soon.
            let round = if pending.is_empty() {
                FIRST_ROUND
            } else {
                ROUND
            };
            let target = self.next_boundary(n1, until.min(n1 + round));
            let mut current = std::mem::take(spare);
            current.clear();
            current.items.reserve(ROUND);
            current.needs.reserve(ROUND * 8);
            current.start = self.scan_start;
            current.steps = self.scan_steps.clone();
            current.kernels = self.kernels;
            current.front = self.front.clone();
            let (produced, verdict) =
                self.round(helper, g, target, &rule, pending, &mut current, false);
            // The values of the round rest on guesses: they are confirmed
            // (pending, or thrown away below) before the run stops.
            interrupted |= produced == Err(StepError::Interrupted);
            if !pending.is_empty() && self.settle(g, pending, verdict) {
                // Everything produced this round rests on a wrong value.
                *spare = current;
                continue;
            }
            *spare = std::mem::replace(pending, current);
            match produced {
                Ok(()) => {}
                Err(StepError::Overflow) => overflow = true,
                Err(StepError::Interrupted) => {}
                Err(e) => return Err(e),
            }
        }
    }

    /// One round of the two-thread mode: this thread runs step 1 over
    /// `g.len()..target` block by block, deferring step 2 into `current`.
    /// The helper stamps the far rare entries (`a >= LAG * BLOCK`, whose
    /// partners lie [`LAG`] - 1 blocks back) into its own rows, up to
    /// `LAG - 1` blocks ahead, and hands each block over as bits through a
    /// ring of `LAG` slots (see [`Handoff`]). Both threads confirm `pending`
    /// with step 2, on the values from before the round, whenever they would
    /// otherwise wait, the helper from the front and this thread from the
    /// back. With `exact`, this thread runs step 2 of each position at once
    /// (nothing is deferred, `pending` is empty), and a rare value found on
    /// the way is stamped by this thread alone (see [`Sparse::far_pass`]).
    #[allow(clippy::too_many_arguments)]
    fn round<T: Cell>(
        &mut self,
        helper: &Pair<'_>,
        g: &mut Vec<T>,
        target: usize,
        rule: &TakeBreak,
        pending: &Deferred,
        current: &mut Deferred,
        exact: bool,
    ) -> (Result<(), StepError>, Verdict) {
        use std::sync::atomic::{AtomicBool, Ordering};
        let n1 = g.len();
        let kernels = self.kernels;
        let size = self.marks.size();
        let width = self.stride();
        let words = width / 64;
        let blocks = (target - n1).div_ceil(BLOCK);
        if self.helper_scratch.len() < BLOCK * width + ROW_SLACK {
            self.helper_scratch = vec![0; BLOCK * width + ROW_SLACK];
        }
        if self.helper_bits.len() < LAG * BLOCK * words {
            self.helper_bits = vec![0; LAG * BLOCK * words];
        }
        let rare = self.stamped.clone();
        let stop = AtomicBool::new(false);
        let queue = Queue::new(pending.items.len());
        let mut scratch = std::mem::take(&mut self.helper_scratch);
        let mut ring = std::mem::take(&mut self.helper_bits);
        // Rounds that run step 2 at once keep a share of their own.
        let share = if exact {
            self.exact_share
        } else {
            self.far_share
        };
        // Step 2 reads the values from before the round; step 1 appends to
        // them within the room reserved here.
        let (handoff, mut grower) = Handoff::new(g, target - n1, &mut ring, LAG, BLOCK * words);
        let prefix = handoff.known(n1);
        let (handoff, stop, queue, rare) = (&handoff, &stop, &queue, &rare);
        let scratch_ref = &mut scratch;
        let ((theirs, their_idle), (produced, mine, idle)) = helper.join(
            move || {
                let scratch = scratch_ref;
                let mut filler = handoff.filler();
                let mut verdict = Verdict::default();
                let mut idle = 0u64;
                let mut budget = SPIN_START;
                // The rows are this thread's own: fresh ones each round.
                scratch[..BLOCK * width].fill(0);
                let mut tag = 0u8;
                'blocks: while filler.next() < blocks {
                    let t = filler.next();
                    let mut spins = 0u32;
                    while !filler.ready() {
                        if stop.load(Ordering::Acquire) {
                            break 'blocks;
                        }
                        if !queue.confirm(true, pending, rule, prefix, &mut verdict) {
                            spin(&mut spins, budget);
                        }
                    }
                    idle += spins as u64;
                    budget = next_budget(spins, budget);
                    if stop.load(Ordering::Acquire) {
                        break;
                    }
                    let n0 = n1 + t * BLOCK;
                    let len = BLOCK.min(target - n0);
                    // The slot is free once the producer is done with block
                    // t - LAG, and so with every value before
                    // n0 - (LAG - 1) BLOCK.
                    filler.fill(|slot| {
                        let known = handoff.known(n0.saturating_sub((LAG - 1) * BLOCK));
                        next_tag(&mut tag, scratch);
                        helper_far_pass(scratch, width, known, n0, len, rule, rare, share, tag);
                        for (row, bits) in scratch
                            .chunks_exact(width)
                            .zip(slot.chunks_exact_mut(words))
                            .take(len)
                        {
                            kernels.byte_bits(row, tag, bits);
                        }
                    });
                }
                while queue.confirm(true, pending, rule, prefix, &mut verdict) {}
                (verdict, idle)
            },
            || {
                // The helper waits on `stop` as well as on the blocks done:
                // set it even if this side panics, so that the join can end.
                let _stop = StopOnDrop(stop);
                let mut taker = handoff.taker();
                let mut produced = Ok(());
                let mut mine = Verdict::default();
                let mut idle = 0u64;
                let mut budget = SPIN_START;
                for t in 0..blocks {
                    let n0 = grower.len();
                    if n0 != n1 + t * BLOCK || self.eval_due(n0 as u64) || self.marks.size() != size
                    {
                        break;
                    }
                    let mut spins = 0u32;
                    while !taker.ready() {
                        if helper.finished() {
                            // Only a panic ends the helper early; join re-raises it.
                            break;
                        }
                        if !queue.confirm(false, pending, rule, prefix, &mut mine) {
                            spin(&mut spins, budget);
                        }
                    }
                    let Some(slot) = taker.take() else { break };
                    idle += spins as u64;
                    budget = next_budget(spins, budget);
                    let len = BLOCK.min(target - n0);
                    #[cfg(test)]
                    if self.stamped.len() > rare.len() {
                        self.grown_blocks += 1;
                    }
                    let defer = (!exact).then_some(&mut *current);
                    let helped = Helped {
                        bits: &slot[..len * words],
                        share,
                        known: rare.len(),
                    };
                    if let Err(e) = self.block(&mut grower, len, defer, Some(helped)) {
                        produced = Err(e);
                        break;
                    }
                    if grower.len() != n0 + len {
                        break;
                    }
                    taker.finish(&grower);
                    #[cfg(test)]
                    {
                        self.rounds_run.1 += 1;
                    }
                }
                #[cfg(test)]
                {
                    self.rounds_run.0 += 1;
                }
                stop.store(true, Ordering::Release);
                while queue.confirm(false, pending, rule, prefix, &mut mine) {}
                (produced, mine, idle)
            },
        );
        self.helper_scratch = scratch;
        self.helper_bits = ring;
        let verdict = mine.merge(theirs);
        // Whoever waited has time to spare: move far entries towards it.
        let tuned = if idle > their_idle + 64 {
            (share + 0.02).min(0.9)
        } else if their_idle > idle + 64 {
            (share - 0.02).max(0.0)
        } else {
            share
        };
        if exact {
            self.exact_share = tuned;
        } else {
            self.far_share = tuned;
        }
        (produced, verdict)
    }

    /// Applies a verdict on `pending`: counts its work, and at a failure
    /// cuts the values back to that position and records the right value.
    /// Returns whether it failed.
    fn settle<T: Cell>(
        &mut self,
        g: &mut Vec<T>,
        pending: &mut Deferred,
        verdict: Verdict,
    ) -> bool {
        self.counters.search_pairs += verdict.pairs;
        pending.clear();
        let Some((n, value)) = verdict.failure else {
            return false;
        };
        self.counters.full_searches += 1;
        if n < kernel::FRONT {
            self.front = None;
        }
        g.truncate(n);
        self.three.truncate(n);
        self.commit(g, value);
        true
    }

    /// Where guessing may resume: [`QUIET`] positions past the last rare
    /// one. Rare values come in runs, and a wrong guess throws away the
    /// rest of its round, so near them one thread is faster.
    fn guess_from(&self) -> usize {
        self.rare
            .last()
            .map_or(0, |&(p, _)| (p as usize).saturating_add(QUIET))
    }

    /// The end of a sequential stretch: never past the next scheduled mask
    /// evaluation, so that every run makes the same choices.
    fn next_boundary(&self, n: usize, stop: usize) -> usize {
        let e = self.schedule.next_eval as usize;
        if e > n && e < stop { e } else { stop }
    }
}

/// Positions per round of the two-thread mode.
const ROUND: usize = 4096;

/// Positions in a round that follows no other (nothing to confirm).
const FIRST_ROUND: usize = 512;

/// Where rounds that run step 2 at once may begin: before it, few rare
/// entries are far enough back for the helper.
const EXACT_FROM: usize = 4 * LAG * BLOCK;

/// The fewest positions worth a round that runs step 2 at once.
const EXACT_MIN: usize = 4 * LAG * BLOCK;

/// Positions after the last rare one whose values are not guessed: they
/// are computed in rounds that run step 2 at once (on one thread before
/// [`EXACT_FROM`]).
/// (Measured while those positions ran on one thread: Officers' last rare
/// position is 20 627. With 8 192 here, its values
/// to 28 819 ran on one thread, and reaching 2^16 on two threads took
/// 56 ms; with 2 048, 52 ms, though to 10^6 the difference is lost in the
/// spread. With 1 024 and 512, wrong guesses near the rare positions
/// before it cost more: 56 and 60 ms. Other games were unchanged, 0.376
/// to 10^6 6% faster.)
const QUIET: usize = ROUND / 2;

/// How many blocks the helper thread may run ahead of the producer, plus
/// one: it takes the rare entries with `a >= LAG * BLOCK`.
pub(super) const LAG: usize = 16;

/// Where the producer's part of a block's far entries `lo..hi` ends and
/// the helper's begins: after about `share` of them, and never before the
/// first entry with `a >= LAG * BLOCK` (the helper's partners must lie
/// `LAG - 1` blocks back).
pub(super) fn split_point(
    rare: &[(u64, u32)],
    lo: usize,
    hi: usize,
    hi_a: usize,
    share: f64,
) -> usize {
    let lagging = far_range(rare, LAG * BLOCK, hi_a).0;
    let wanted = lo + ((hi - lo) as f64 * share) as usize;
    wanted.max(lagging).clamp(lo, hi)
}

/// The deferred positions still to confirm in a round: the helper takes
/// chunks from the front, the producer from the back.
struct Queue {
    /// The front end in the low 32 bits, the back end in the high 32.
    ends: std::sync::atomic::AtomicU64,
}

impl Queue {
    const CHUNK: usize = 16;

    fn new(len: usize) -> Queue {
        let len = u32::try_from(len).expect("a round is far below 2^32 positions");
        Queue {
            ends: std::sync::atomic::AtomicU64::new((len as u64) << 32),
        }
    }

    fn take(&self, front: bool) -> Option<std::ops::Range<usize>> {
        use std::sync::atomic::Ordering;
        let mut ends = self.ends.load(Ordering::Relaxed);
        loop {
            let (lo, hi) = ((ends & 0xFFFF_FFFF) as usize, (ends >> 32) as usize);
            if lo >= hi {
                return None;
            }
            let (range, next) = if front {
                let to = (lo + Self::CHUNK).min(hi);
                (lo..to, (hi as u64) << 32 | to as u64)
            } else {
                let from = hi.saturating_sub(Self::CHUNK).max(lo);
                (from..hi, (from as u64) << 32 | lo as u64)
            };
            match self
                .ends
                .compare_exchange_weak(ends, next, Ordering::Relaxed, Ordering::Relaxed)
            {
                Ok(_) => return Some(range),
                Err(now) => ends = now,
            }
        }
    }

    /// Confirms one chunk from the front (`front`) or the back; false
    /// when none is left.
    fn confirm<T: Cell>(
        &self,
        front: bool,
        pending: &Deferred,
        rule: &TakeBreak,
        g: &[T],
        verdict: &mut Verdict,
    ) -> bool {
        let Some(range) = self.take(front) else {
            return false;
        };
        let found = pending.verify_range(rule, g, range);
        *verdict = std::mem::take(verdict).merge(found);
        true
    }
}

/// Sets the flag when dropped.
struct StopOnDrop<'a>(&'a std::sync::atomic::AtomicBool);

impl Drop for StopOnDrop<'_> {
    fn drop(&mut self) {
        self.0.store(true, std::sync::atomic::Ordering::Release);
    }
}

/// Waits a little: spins up to `budget` times, then yields the core.
fn spin(spins: &mut u32, budget: u32) {
    *spins += 1;
    if *spins < budget {
        std::hint::spin_loop();
    } else {
        std::thread::yield_now();
    }
}

/// The first spin budget of a round.
const SPIN_START: u32 = 64;

/// The two threads may share one core (the scheduler does not always
/// spread a short run at once), and then a long spin holds up the very
/// thread it waits for. So a wait that only ended after yielding halves
/// the spin budget, and one that ended while spinning doubles it.
fn next_budget(spins: u32, budget: u32) -> u32 {
    if spins >= budget {
        (budget / 2).max(16)
    } else if spins > 0 {
        (budget * 2).min(1 << 12)
    } else {
        budget
    }
}

/// The helper's part of step 1 for the block `n0..n0 + len`: the rare
/// entries with `a >= LAG * BLOCK` (partners before `n0 - (LAG - 1) BLOCK`,
/// all in `known`) past the producer's share, stamped with `tag`.
#[allow(clippy::too_many_arguments)]
fn helper_far_pass<T: Cell>(
    rows: &mut [u8],
    width: usize,
    known: &[T],
    n0: usize,
    len: usize,
    rule: &TakeBreak,
    rare: &[(u64, u32)],
    share: f64,
    tag: u8,
) {
    if rule.split_two.len() > MAX_SPLITS {
        return;
    }
    for &k in &rule.split_two {
        let k = k as usize;
        let lo_a = (BLOCK.saturating_sub(k)).max(1);
        let Some(hi_a) = n0.checked_sub(k + 1) else {
            continue;
        };
        if hi_a < lo_a {
            continue;
        }
        let (lo, hi) = far_range(rare, lo_a, hi_a);
        let from = split_point(rare, lo, hi, hi_a, share);
        stamp_entries(
            rows,
            width,
            known,
            n0,
            len,
            k,
            &rare[from..hi],
            rule.unequal,
            tag,
        );
    }
}
