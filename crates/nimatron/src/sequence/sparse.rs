//! The sparse-space ("rare and common") method of Berlekamp, Conway and Guy
//! (Winning Ways, chapter 4) and Gangolli and Plambeck, for take-and-break
//! games whose moves split a heap in two.
//!
//! A *mask* `m` sorts values into two classes by the parity of the bits of
//! `v & m`; with the position-parity refinement (codes whose two-heap digits
//! all have one parity) the parity of the position is added in. Each
//! position gets a *label*; the positions of the minority label are *rare*.
//! The class of `G(a) ^ G(b)` for a split `a + b = n - k` is the XOR of the
//! labels (plus a known constant), so:
//!
//! 1. every option of the "sparse" class `S(n)` comes from a pair with
//!    exactly one rare part: scanning the rare positions marks all of them,
//!    and `v`, the least unmarked value of class `S(n)`, is exact;
//! 2. `G(n)` is `v` unless some value of the other class below `v` is not an
//!    option. Those values (the *need* list) are looked for among all pairs;
//!    the search usually ends after a few hundred pairs, and only a genuinely
//!    new rare value costs a full scan.
//!
//! Both steps are exact whatever the mask; a poor mask only makes the rare
//! list long. The mask is chosen automatically (a Walsh–Hadamard transform of
//! the value histogram finds the mask with fewest rare positions) at every
//! power of two, and sooner when rare positions pile up.
//!
//! With more than one thread, step 1 runs ahead speculatively over a block
//! of positions assuming every prediction holds, while the other threads run
//! step 2 for the block; the first failed check rolls the block back.

use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};

use super::game::TakeBreak;
use super::naive::{Marks, StepError, ThreeHeap, mark_simple_options};
use super::simd;
use super::values::Cell;

/// The mask chosen by the sparse method.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct SparseMask {
    /// Values `v` are sorted by the parity of `v & mask`.
    pub mask: u32,
    /// Whether the parity of the position is added to the label.
    pub position_parity: bool,
}

/// Counters from the sparse method.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SparseCounters {
    /// Pairs visited through the rare list (step 1).
    pub rare_pairs: u64,
    /// Pairs visited while looking for the need list (step 2).
    pub search_pairs: u64,
    /// Positions whose step 2 scanned every pair without covering the need
    /// list, i.e. new values of the other class.
    pub full_searches: u64,
    /// Positions computed by the plain mex (before a mask is chosen).
    pub plain_positions: u64,
    /// Blocks rolled back after a failed speculative check.
    pub rollbacks: u64,
}

/// State of the sparse method. Everything but the schedule is rebuilt from
/// the values, so a checkpoint only needs [`SparseSchedule`].
#[derive(Clone, Debug)]
pub(crate) struct Sparse {
    pub rule: TakeBreak,
    k0: u64,
    parity_allowed: bool,
    pub schedule: SparseSchedule,
    rare: Vec<(u64, u32)>,
    class: Vec<u8>,
    marks: Marks,
    three: ThreeHeap,
    need: Vec<u32>,
    need_bits: Vec<u64>,
    max_value: u32,
    pub counters: SparseCounters,
}

/// The part of the sparse state that is not a function of the values: the
/// mask and when it is next reconsidered.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct SparseSchedule {
    /// 0 until a mask is chosen (plain mex meanwhile).
    pub mask: u32,
    pub position_parity: bool,
    pub next_eval: u64,
    pub rare_at_eval: u64,
    pub eval_allowed_from: u64,
}

impl SparseSchedule {
    pub const START: SparseSchedule = SparseSchedule {
        mask: 0,
        position_parity: false,
        next_eval: 64,
        rare_at_eval: 0,
        eval_allowed_from: 0,
    };
}

/// Bits needed for values up to `max` (at least 1).
fn bits(max: u32) -> u32 {
    (32 - max.leading_zeros()).max(1)
}

/// In-place Walsh–Hadamard transform: `w[m] = sum_v h[v] (-1)^parity(v & m)`.
fn walsh_hadamard(w: &mut [i64]) {
    let mut len = 1;
    while len < w.len() {
        for block in w.chunks_mut(2 * len) {
            let (lo, hi) = block.split_at_mut(len);
            for (x, y) in lo.iter_mut().zip(hi.iter_mut()) {
                let (a, b) = (*x, *y);
                *x = a + b;
                *y = a - b;
            }
        }
        len *= 2;
    }
}

impl Sparse {
    pub fn new(rule: TakeBreak) -> Sparse {
        let k0 = rule.split_two.first().copied().unwrap_or(0);
        let parity_allowed = rule.splits_share_parity();
        let mut s = Sparse {
            rule,
            k0,
            parity_allowed,
            schedule: SparseSchedule::START,
            rare: Vec::new(),
            class: Vec::new(),
            marks: Marks::new(),
            three: ThreeHeap::default(),
            need: Vec::new(),
            need_bits: Vec::new(),
            max_value: 0,
            counters: SparseCounters::default(),
        };
        s.resize_tables();
        s
    }

    /// The mask in use, if one has been chosen.
    pub fn mask(&self) -> Option<SparseMask> {
        (self.schedule.mask != 0).then_some(SparseMask {
            mask: self.schedule.mask,
            position_parity: self.schedule.position_parity,
        })
    }

    /// The label a value at a position gets under the current mask; rare
    /// positions are those whose label is [`Sparse::rare_label`].
    #[inline]
    fn label(&self, n: u64, value: u32) -> u32 {
        ((value & self.schedule.mask).count_ones() & 1)
            ^ (self.schedule.position_parity as u32 & n as u32 & 1)
    }

    /// The label of common positions is that of the class step 1 computes,
    /// `1 ^ s (k0 mod 2)`; rare positions have the other label.
    #[inline]
    fn rare_label(&self) -> u32 {
        self.schedule.position_parity as u32 & self.k0 as u32 & 1
    }

    /// Whether a position/value pair is rare under the current mask.
    pub fn is_rare(&self, n: u64, value: u32) -> bool {
        self.schedule.mask != 0 && n >= 1 && self.label(n, value) == self.rare_label()
    }

    fn resize_tables(&mut self) {
        self.marks.ensure(self.max_value);
        let size = self.marks.size();
        let mask = self.schedule.mask;
        self.class = (0..size as u32)
            .map(|v| ((v & mask).count_ones() & 1) as u8)
            .collect();
    }

    /// Rebuilds everything derived from the values, keeping the schedule.
    pub fn sync<T: Cell>(&mut self, g: &[T]) {
        self.max_value = g.iter().map(|x| x.get()).max().unwrap_or(0);
        self.three.truncate(0);
        self.resize_tables();
        self.rebuild_rare(g);
    }

    fn rebuild_rare<T: Cell>(&mut self, g: &[T]) {
        self.rare.clear();
        if self.schedule.mask == 0 {
            return;
        }
        for (n, x) in g.iter().enumerate().skip(1) {
            if self.label(n as u64, x.get()) == self.rare_label() {
                self.rare.push((n as u64, x.get()));
            }
        }
    }

    fn eval_due(&self, n: u64) -> bool {
        !self.rule.split_two.is_empty()
            && (n == self.schedule.next_eval
                || (self.rare.len() as u64 > 2 * self.schedule.rare_at_eval + 64
                    && n >= self.schedule.eval_allowed_from))
    }

    /// Chooses the mask with fewest rare positions among `g[..n]`.
    fn evaluate<T: Cell>(&mut self, g: &[T]) {
        let n = g.len() as u64;
        if n == self.schedule.next_eval {
            self.schedule.next_eval *= 2;
        }
        let size = 1usize << bits(self.max_value);
        let mut even = vec![0i64; size];
        let mut odd = vec![0i64; size];
        for (i, x) in g.iter().enumerate() {
            if i & 1 == 0 {
                even[x.get() as usize] += 1;
            } else {
                odd[x.get() as usize] += 1;
            }
        }
        let total = n as i64;
        // (rare count, parity flag, mask): the smallest wins.
        let mut best: Option<(i64, bool, u32)> = None;
        for parity in [false, true] {
            if parity && !self.parity_allowed {
                continue;
            }
            let mut w: Vec<i64> = even
                .iter()
                .zip(&odd)
                .map(|(e, o)| if parity { e - o } else { e + o })
                .collect();
            walsh_hadamard(&mut w);
            let rare_label = parity as u64 & self.k0 & 1;
            for (mask, &wm) in w.iter().enumerate().skip(1) {
                // wm = #label0 - #label1.
                let rare = if rare_label == 0 {
                    (total + wm) / 2
                } else {
                    (total - wm) / 2
                };
                let candidate = (rare, parity, mask as u32);
                if best.is_none_or(|b| candidate < b) {
                    best = Some(candidate);
                }
            }
        }
        let (rare, parity, mask) = best.expect("at least one mask");
        if rare * 8 > total {
            // Too many rare positions for the method to pay: plain mex.
            self.schedule.mask = 0;
            self.schedule.position_parity = false;
        } else {
            self.schedule.mask = mask;
            self.schedule.position_parity = parity;
        }
        self.resize_tables();
        self.rebuild_rare(g);
        self.schedule.rare_at_eval = self.rare.len() as u64;
        self.schedule.eval_allowed_from = n + n / 2;
    }

    /// The plain mex over every option.
    fn plain_value<T: Cell>(&mut self, g: &[T], n: usize) -> Result<u32, StepError> {
        self.counters.plain_positions += 1;
        self.marks.begin();
        mark_simple_options(&self.rule, g, n, &mut self.marks, &mut self.three)?;
        for &k in &self.rule.split_two {
            let k = k as usize;
            if n >= k + 2 {
                let m = n - k;
                let half = if self.rule.unequal {
                    (m - 1) / 2
                } else {
                    m / 2
                };
                for a in 1..=half {
                    self.marks.mark(g[a].get() ^ g[m - a].get());
                }
            }
        }
        Ok(self.marks.mex())
    }

    /// Step 1: marks every option of the sparse class (and more), returns
    /// the least unmarked value `v` of that class and fills `self.need` with
    /// the unmarked values of the other class below `v`.
    fn predict<T: Cell>(&mut self, g: &[T], n: usize) -> Result<u32, StepError> {
        self.marks.begin();
        mark_simple_options(&self.rule, g, n, &mut self.marks, &mut self.three)?;
        let mut visited = 0u64;
        let (stamp, epoch) = self.marks.raw();
        let slot_mask = stamp.len() - 1;
        for &k in &self.rule.split_two {
            let k = k as usize;
            if n < k + 2 {
                continue;
            }
            let m = n - k;
            let end = self.rare.partition_point(|&(a, _)| (a as usize) < m);
            let pairs = &self.rare[..end];
            visited += pairs.len() as u64;
            let window = &g[..m];
            if self.rule.unequal {
                for &(a, r) in pairs {
                    let a = a as usize;
                    if 2 * a != m {
                        stamp[(r ^ window[m - a].get()) as usize & slot_mask] = epoch;
                    }
                }
            } else {
                for &(a, r) in pairs {
                    // SAFETY: rare positions are at least 1 and below m here,
                    // so m - a is in 1..m, inside `window`.
                    let b = unsafe { window.get_unchecked(m - a as usize) };
                    // SAFETY: `slot_mask` is the length minus one of a slice
                    // whose length is a power of two.
                    unsafe {
                        *stamp.get_unchecked_mut((r ^ b.get()) as usize & slot_mask) = epoch;
                    }
                }
            }
        }
        self.counters.rare_pairs += visited;
        let sparse_class = 1
            ^ (self.schedule.position_parity as u8 & ((n as u64).wrapping_sub(self.k0) & 1) as u8);
        self.need.clear();
        let mut v = 0u32;
        loop {
            if !self.marks.has(v) {
                if self.class[v as usize] == sparse_class {
                    break;
                }
                self.need.push(v);
            }
            v += 1;
        }
        Ok(v)
    }

    /// Records `G(n) = value`.
    fn commit<T: Cell>(&mut self, g: &mut Vec<T>, value: u32) {
        let n = g.len() as u64;
        g.push(T::new(value));
        if value > self.max_value {
            self.max_value = value;
            if (value as usize) * 2 >= self.marks.size() {
                self.resize_tables();
            }
        }
        if self.is_rare(n, value) {
            self.rare.push((n, value));
        }
    }

    /// Computes values until `g.len() == until`, on one thread.
    pub fn extend<T: Cell>(&mut self, g: &mut Vec<T>, until: usize) -> Result<(), StepError> {
        while g.len() < until {
            let n = g.len();
            if self.eval_due(n as u64) {
                self.evaluate(g);
            }
            let value = if self.schedule.mask == 0 {
                self.plain_value(g, n)?
            } else {
                let v = self.predict(g, n)?;
                if self.need.is_empty() {
                    v
                } else {
                    let xlimit = self.marks.size() / 2;
                    let (outcome, pairs) =
                        search(&self.rule, g, n, &self.need, xlimit, &mut self.need_bits);
                    self.counters.search_pairs += pairs;
                    match outcome {
                        None => v,
                        Some(w) => {
                            self.counters.full_searches += 1;
                            w
                        }
                    }
                }
            };
            if value > T::MAX {
                return Err(StepError::Overflow);
            }
            self.commit(g, value);
        }
        Ok(())
    }

    /// Computes values until `g.len() == until` with `threads` threads
    /// (speculative blocks). Falls back to one thread where speculation does
    /// not apply (three-heap codes, no mask yet).
    pub fn extend_parallel<T: Cell>(
        &mut self,
        g: &mut Vec<T>,
        until: usize,
        threads: usize,
    ) -> Result<(), StepError> {
        const BLOCK: usize = 16_384;
        if threads <= 1 || !self.rule.split_three.is_empty() {
            return self.extend(g, until);
        }
        g.reserve(until.saturating_sub(g.len()));
        let mut flags: Vec<Vec<u64>> = vec![Vec::new(); threads];
        while g.len() < until {
            let n = g.len();
            if self.schedule.mask == 0 || g.len() < 4 * BLOCK || self.eval_due(n as u64) {
                // Sequential until a mask exists and there is room to speculate.
                let stop = (n + 1).max(until.min(n + BLOCK));
                let stop = self.next_boundary(n, stop);
                self.extend(g, stop)?;
                continue;
            }
            // Predict a block: step 1 only, storing each need list.
            let start = n;
            let limit = self.next_boundary(start, until.min(start + BLOCK));
            let mut need_offsets: Vec<usize> = Vec::with_capacity(limit - start + 1);
            let mut needs: Vec<u32> = Vec::new();
            need_offsets.push(0);
            let mut overflow = false;
            let max_before = self.max_value;
            while g.len() < limit {
                let m = g.len();
                if m > start && self.eval_due(m as u64) {
                    break;
                }
                let v = self.predict(g, m)?;
                if v > T::MAX {
                    overflow = true;
                    break;
                }
                needs.extend_from_slice(&self.need);
                need_offsets.push(needs.len());
                self.commit(g, v);
            }
            let end = g.len();
            // Verify the block on all threads.
            let first_fail = AtomicU64::new(u64::MAX);
            let failure: Mutex<Option<(usize, u32)>> = Mutex::new(None);
            let next_chunk = AtomicUsize::new(start);
            let pairs_total = AtomicU64::new(0);
            let xlimit = self.marks.size() / 2;
            {
                let rule = &self.rule;
                let g_ref: &[T] = g;
                let (needs, need_offsets) = (&needs, &need_offsets);
                let work = |flag: &mut Vec<u64>| {
                    const CHUNK: usize = 256;
                    let mut pairs = 0u64;
                    loop {
                        let c = next_chunk.fetch_add(CHUNK, Ordering::Relaxed);
                        if c >= end || c as u64 > first_fail.load(Ordering::Relaxed) {
                            break;
                        }
                        for p in c..(c + CHUNK).min(end) {
                            if p as u64 > first_fail.load(Ordering::Relaxed) {
                                break;
                            }
                            let i = p - start;
                            let need = &needs[need_offsets[i]..need_offsets[i + 1]];
                            if need.is_empty() {
                                continue;
                            }
                            // Only values before p are read to check p.
                            let (outcome, visited) =
                                search(rule, &g_ref[..p], p, need, xlimit, flag);
                            pairs += visited;
                            if let Some(w) = outcome {
                                first_fail.fetch_min(p as u64, Ordering::Relaxed);
                                let mut slot = failure.lock().unwrap_or_else(|e| e.into_inner());
                                if slot.is_none_or(|(q, _)| p < q) {
                                    *slot = Some((p, w));
                                }
                                break;
                            }
                        }
                    }
                    pairs_total.fetch_add(pairs, Ordering::Relaxed);
                };
                let (first, rest) = flags.split_first_mut().expect("threads >= 2");
                std::thread::scope(|scope| {
                    for flag in rest.iter_mut() {
                        scope.spawn(|| work(flag));
                    }
                    work(first);
                });
            }
            self.counters.search_pairs += pairs_total.load(Ordering::Relaxed);
            let failure = failure.into_inner().unwrap_or_else(|e| e.into_inner());
            if let Some((fail, w)) = failure {
                // Keep the values before the failure; the failed position
                // takes the value the search found; the rest is discarded.
                self.counters.rollbacks += 1;
                self.counters.full_searches += 1;
                g.truncate(fail);
                while self.rare.last().is_some_and(|&(a, _)| a as usize >= fail) {
                    self.rare.pop();
                }
                self.max_value = g[start..]
                    .iter()
                    .map(|x| x.get())
                    .max()
                    .unwrap_or(0)
                    .max(max_before);
                if w > T::MAX {
                    return Err(StepError::Overflow);
                }
                self.commit(g, w);
                continue;
            }
            if overflow {
                return Err(StepError::Overflow);
            }
        }
        Ok(())
    }

    /// The end of a sequential stretch: never past the next scheduled mask
    /// evaluation, so that every run makes the same choices.
    fn next_boundary(&self, n: usize, stop: usize) -> usize {
        let e = self.schedule.next_eval as usize;
        if e > n && e < stop { e } else { stop }
    }
}

/// Step 2: looks for every value of `need` among the two-heap options of a
/// heap of size `n`. Returns `None` when all are found (so the step-1 value
/// stands) or the least value not found, and the number of pairs visited.
///
/// Every option value is below `xlimit` (a power of two above every value so
/// far), so need values from `xlimit` up can never be found. `bits` is
/// scratch space, left all zero.
fn search<T: Cell>(
    rule: &TakeBreak,
    g: &[T],
    n: usize,
    need: &[u32],
    xlimit: usize,
    bits: &mut Vec<u64>,
) -> (Option<u32>, u64) {
    let words = xlimit.div_ceil(64).max(8);
    if bits.len() < words {
        bits.resize(words, 0);
    }
    let mut missing = 0usize;
    let mut uncoverable: Option<u32> = None;
    for &w in need {
        if (w as usize) < xlimit {
            bits[w as usize / 64] |= 1 << (w % 64);
            missing += 1;
        } else {
            uncoverable = Some(uncoverable.map_or(w, |u| u.min(w)));
        }
    }
    let mut visited = 0u64;
    for &k in &rule.split_two {
        if missing == 0 {
            break;
        }
        let k = k as usize;
        if n < k + 2 {
            continue;
        }
        let m = n - k;
        let half = if rule.unequal { (m - 1) / 2 } else { m / 2 };
        visited += simd::cover(&g[..m], m, half, xlimit, bits, &mut missing);
    }
    let mut result = uncoverable;
    for &w in need {
        let (word, bit) = (w as usize / 64, w % 64);
        if (w as usize) < xlimit && bits[word] & (1 << bit) != 0 {
            result = Some(result.map_or(w, |r: u32| r.min(w)));
            bits[word] &= !(1 << bit);
        }
    }
    (result, visited)
}
