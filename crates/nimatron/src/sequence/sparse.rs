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
//! With two threads, the pairs of step 1 whose rare part lies far back are
//! computed a block ahead by a helper thread (their partners are already
//! known), while the main thread finishes the current block; the result is
//! the same as on one thread.

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
    need_bits: Vec<u64>,
    hit: Vec<u64>,
    class_bits: [Vec<u64>; 2],
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
            need_bits: Vec::new(),
            hit: Vec::new(),
            class_bits: [Vec::new(), Vec::new()],
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
        let words = size / 64;
        for c in 0..2 {
            self.class_bits[c] = (0..words)
                .map(|w| {
                    (0..64).fold(0u64, |acc, i| {
                        acc | ((self.class[w * 64 + i] as u64 == c as u64) as u64) << i
                    })
                })
                .collect();
        }
        self.hit.resize(words, 0);
        self.need_bits.resize(words.max(8), 0);
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

    /// Step 1 with the rare entries `skip` left out because their pairs are
    /// already in the bit set `far` (computed by another thread). Leaves the
    /// need set in `self.need_bits` and returns `v` and whether the need set
    /// is empty.
    fn predict_with<T: Cell>(
        &mut self,
        g: &[T],
        n: usize,
        skip: std::ops::Range<usize>,
        far: &[u64],
    ) -> Result<(u32, bool), StepError> {
        let hit = &mut self.hit;
        hit.fill(0);
        let slot_mask = hit.len() * 64 - 1;
        let n64 = n as u64;
        for &k in &self.rule.take_all {
            if n64 == k {
                hit[0] |= 1;
            }
        }
        for &k in &self.rule.leave_one {
            if n64 > k {
                let x = g[n - k as usize].get() as usize;
                hit[x / 64] |= 1 << (x % 64);
            }
        }
        if !self.rule.split_three.is_empty() {
            // Three-heap options come as marks; copy them in.
            self.marks.begin();
            mark_simple_options(&self.rule, g, n, &mut self.marks, &mut self.three)?;
            for x in 0..self.marks.size().min(slot_mask + 1) {
                if self.marks.has(x as u32) {
                    hit[x / 64] |= 1 << (x % 64);
                }
            }
        }
        let mut visited = 0u64;
        for &k in &self.rule.split_two {
            let k = k as usize;
            if n < k + 2 {
                continue;
            }
            let m = n - k;
            let end = self.rare.partition_point(|&(a, _)| (a as usize) < m);
            let window = &g[..m];
            let (head, tail) = if skip.start < end {
                (&self.rare[..skip.start], &self.rare[skip.end.min(end)..end])
            } else {
                (&self.rare[..end], &self.rare[..0])
            };
            for pairs in [head, tail] {
                visited += pairs.len() as u64;
                mark_rare_pairs(hit, slot_mask, window, m, pairs, self.rule.unequal);
            }
        }
        for (h, &f) in hit.iter_mut().zip(far) {
            *h |= f;
        }
        self.counters.rare_pairs += visited;
        let sparse_class = 1
            ^ (self.schedule.position_parity as usize & ((n64.wrapping_sub(self.k0)) & 1) as usize);
        let (in_class, other) = (
            &self.class_bits[sparse_class],
            &self.class_bits[1 - sparse_class],
        );
        // v: the least value of the sparse class not hit (it exists: the
        // upper half of the table is never hit and holds both classes).
        let (word, bit) = hit
            .iter()
            .zip(in_class)
            .enumerate()
            .find_map(|(w, (&h, &c))| {
                let free = !h & c;
                (free != 0).then(|| (w, free.trailing_zeros() as usize))
            })
            .expect("tables hold the mex");
        let v = (word * 64 + bit) as u32;
        // The need set: values of the other class below v, not hit.
        let mut empty = true;
        for (w, need) in self.need_bits.iter_mut().enumerate() {
            let below = if w < word {
                u64::MAX
            } else if w == word {
                (1u64 << bit) - 1
            } else {
                0
            };
            let h = hit.get(w).copied().unwrap_or(0);
            let o = other.get(w).copied().unwrap_or(0);
            *need = !h & o & below;
            empty &= *need == 0;
        }
        Ok((v, empty))
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
                let (v, settled) = self.predict_with(g, n, 0..0, &[])?;
                if settled {
                    v
                } else {
                    let xlimit = self.marks.size() / 2;
                    let (outcome, pairs) = search(&self.rule, g, n, xlimit, &mut self.need_bits);
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

    /// Computes values until `g.len() == until` with two threads when that
    /// helps (more are not used yet).
    ///
    /// Step 1 is split: rare entries at positions `a >= A` (the far part,
    /// most of the rare list) pair with values at least `A` positions back,
    /// so a helper thread computes their option sets for the *next* block of
    /// `A / 2` positions while this thread finishes the current block (near
    /// rare entries, step 2, commit). The result is exact and identical to
    /// one thread; mask evaluations happen at the same positions.
    pub fn extend_parallel<T: Cell>(
        &mut self,
        g: &mut Vec<T>,
        until: usize,
        threads: usize,
    ) -> Result<(), StepError> {
        const MIN_BLOCK: usize = 256;
        const MAX_BLOCK: usize = 8192;
        if threads <= 1 || !self.rule.split_three.is_empty() || self.rule.split_two.is_empty() {
            return self.extend(g, until);
        }
        let k_min = *self.rule.split_two.iter().min().expect("non-empty") as usize;
        while g.len() < until {
            let n0 = g.len();
            let snap = self.rare.len();
            // The helper takes the last 85% of the rare list: this thread
            // also runs step 2 and the bookkeeping.
            let lo = snap * 15 / 100;
            let a_far = self.rare.get(lo).map_or(0, |&(a, _)| a as usize);
            let block = ((a_far + k_min) / 2).min(MAX_BLOCK);
            if self.schedule.mask == 0
                || self.eval_due(n0 as u64)
                || block < MIN_BLOCK
                || snap - lo < 64
            {
                let stop = self
                    .next_boundary(n0, until.min(n0 + MAX_BLOCK))
                    .max(n0 + 1);
                self.extend(g, stop)?;
                continue;
            }
            let end_all = self.next_boundary(n0, until);
            let far_entries: Vec<(u64, u32)> = self.rare[lo..snap].to_vec();
            let words = (self.marks.size() / 2).div_ceil(64);
            let split_two = self.rule.split_two.clone();
            let unequal = self.rule.unequal;
            let fill = |prefix: &[T], start: usize, len: usize| -> (Vec<u64>, u64) {
                let mut bits = vec![0u64; len * words];
                let mut visited = 0u64;
                for (row, n) in (start..start + len).enumerate() {
                    let out = &mut bits[row * words..(row + 1) * words];
                    for &k in &split_two {
                        let k = k as usize;
                        if n < k + 2 {
                            continue;
                        }
                        let m = n - k;
                        let end = far_entries.partition_point(|&(a, _)| (a as usize) < m);
                        visited += end as u64;
                        for &(a, r) in &far_entries[..end] {
                            let a = a as usize;
                            if unequal && 2 * a == m {
                                continue;
                            }
                            // m - a < start: the far entries only reach back.
                            let x = (r ^ prefix[m - a].get()) as usize;
                            out[x / 64] |= 1 << (x % 64);
                        }
                    }
                }
                (bits, visited)
            };
            let mut start = n0;
            let mut len = block.min(end_all - n0);
            let (mut far, visited) = fill(&g[..n0], start, len);
            self.counters.rare_pairs += visited;
            loop {
                let next_start = start + len;
                let next_len = block.min(end_all.saturating_sub(next_start));
                g.reserve(len);
                // The helper reads g[..start] only; this thread appends
                // g[start..] without reallocating (room reserved above).
                // SAFETY: the slice covers initialised values that nobody
                // writes while it lives (pushes write past `start` into
                // reserved capacity, so the buffer does not move).
                let prefix: &[T] = unsafe { std::slice::from_raw_parts(g.as_ptr(), start) };
                let (finished, next) = std::thread::scope(|scope| {
                    let helper = (next_len > 0).then(|| {
                        let fill = &fill;
                        scope.spawn(move || fill(prefix, next_start, next_len))
                    });
                    let finished = self.finish_block(g, start, len, &far, words, lo..snap);
                    let next = helper.map(|h| h.join().expect("helper thread"));
                    (finished, next)
                });
                let done = finished?;
                if done < len || next_len == 0 {
                    break;
                }
                let (next_far, visited) = next.expect("helper ran");
                self.counters.rare_pairs += visited;
                start = next_start;
                len = next_len;
                far = next_far;
            }
        }
        Ok(())
    }

    /// Finishes positions `start..start + len` given the far option sets;
    /// stops early (returning how many were done) where a mask evaluation
    /// is due.
    fn finish_block<T: Cell>(
        &mut self,
        g: &mut Vec<T>,
        start: usize,
        len: usize,
        far: &[u64],
        words: usize,
        skip: std::ops::Range<usize>,
    ) -> Result<usize, StepError> {
        for i in 0..len {
            let n = start + i;
            debug_assert_eq!(g.len(), n);
            if i > 0 && self.eval_due(n as u64) {
                return Ok(i);
            }
            let row = &far[i * words..(i + 1) * words];
            let (v, settled) = self.predict_with(g, n, skip.clone(), row)?;
            let value = if settled {
                v
            } else {
                let xlimit = self.marks.size() / 2;
                let (outcome, pairs) = search(&self.rule, g, n, xlimit, &mut self.need_bits);
                self.counters.search_pairs += pairs;
                match outcome {
                    None => v,
                    Some(w) => {
                        self.counters.full_searches += 1;
                        w
                    }
                }
            };
            if value > T::MAX {
                return Err(StepError::Overflow);
            }
            self.commit(g, value);
        }
        Ok(len)
    }

    /// The end of a sequential stretch: never past the next scheduled mask
    /// evaluation, so that every run makes the same choices.
    fn next_boundary(&self, n: usize, stop: usize) -> usize {
        let e = self.schedule.next_eval as usize;
        if e > n && e < stop { e } else { stop }
    }
}

/// Sets bit `r ^ G(m - a)` for rare entries `(a, r)` with `1 <= a < m`.
#[inline]
fn mark_rare_pairs<T: Cell>(
    hit: &mut [u64],
    slot_mask: usize,
    window: &[T],
    m: usize,
    pairs: &[(u64, u32)],
    unequal: bool,
) {
    if unequal {
        for &(a, r) in pairs {
            let a = a as usize;
            if 2 * a != m {
                let x = (r ^ window[m - a].get()) as usize & slot_mask;
                hit[x / 64] |= 1 << (x % 64);
            }
        }
    } else {
        for &(a, r) in pairs {
            // SAFETY: rare positions are at least 1 and below m here, so
            // m - a is in 1..m, inside `window`.
            let b = unsafe { window.get_unchecked(m - a as usize) };
            let x = (r ^ b.get()) as usize & slot_mask;
            // SAFETY: x is masked to the bit length of `hit`.
            unsafe {
                *hit.get_unchecked_mut(x / 64) |= 1 << (x % 64);
            }
        }
    }
}

/// Step 2: looks for every value of the need set `bits` among the two-heap
/// options of a heap of size `n`. Returns `None` when all are found (so the
/// step-1 value stands) or the least value not found, and the number of
/// pairs visited. Leaves `bits` all zero.
///
/// Every option value is below `xlimit` (a power of two above every value so
/// far), so need values from `xlimit` up can never be found.
fn search<T: Cell>(
    rule: &TakeBreak,
    g: &[T],
    n: usize,
    xlimit: usize,
    bits: &mut [u64],
) -> (Option<u32>, u64) {
    let limit_words = xlimit / 64;
    let mut missing: usize = bits[..limit_words.min(bits.len())]
        .iter()
        .map(|w| w.count_ones() as usize)
        .sum();
    // Need values from xlimit up stay in `bits`: if one is the least left
    // after the scan, it is the answer.
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
    let mut result = None;
    for (w, word) in bits.iter_mut().enumerate() {
        if *word != 0 && result.is_none() {
            result = Some((w * 64) as u32 + word.trailing_zeros());
        }
        *word = 0;
    }
    (result, visited)
}
