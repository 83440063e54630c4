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
//! Step 1 goes a block of positions at a time, writing the option values of
//! the far rare pairs into a byte row per position; with vector compares,
//! the rare entries of smallest value are checked against a few candidates
//! per position instead (see [`probe`]). Step 2 reads the small heaps from
//! a reversed copy of the first values once they are final (see
//! [`simd::front_copy`]). With two threads, step
//! 1 runs a round ahead taking each `v` as the value while step 2 confirms
//! the previous round (see [`Sparse::extend_parallel`]); the result is the
//! same as on one thread.

use super::game::TakeBreak;
use super::naive::{Marks, StepError, ThreeHeap, mark_simple_options};
use super::probe::{self, Probe};
use super::relay::Relay;
use super::simd;
use super::values::Cell;
use super::vector::Simd;

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
    /// The vector path of the inner loops (a concrete path this processor
    /// has).
    path: Simd,
    k0: u64,
    parity_allowed: bool,
    pub schedule: SparseSchedule,
    rare: Vec<(u64, u32)>,
    /// The rare entries step 1 stamps, and those a block may compare
    /// instead (see [`probe`]): the entries whose value is below
    /// `compare_below`. Both in order of position.
    stamped: Vec<(u64, u32)>,
    compare_list: Vec<(u64, u32)>,
    compare_below: u32,
    class: Vec<u8>,
    marks: Marks,
    three: ThreeHeap,
    need_bits: Vec<u64>,
    /// The values of each class as bit sets over the table size.
    class_bits: [Vec<u64>; 2],
    /// Scratch: the options of one row as bits.
    hit: Vec<u64>,
    /// The helper thread's own byte rows (two-thread mode).
    helper_scratch: Vec<u8>,
    /// The ring of [`LAG`] blocks of option bits the helper hands over:
    /// block `t` of a round in slot `t % LAG`, `width / 64` words per row.
    helper_bits: Vec<u64>,
    /// The producer's share of the far entries in two-thread mode, tuned
    /// each round so that neither thread waits for the other.
    far_share: f64,
    /// Where step 2's scans begin: chosen from the values with the mask
    /// (see [`Sparse::choose_scan_start`]); it changes only the speed.
    scan_start: usize,
    /// The first [`simd::FRONT`] values reversed, for step 2 (see
    /// [`simd::front_copy`]), once they are known and final and values
    /// take two bytes.
    front: Option<std::sync::Arc<[u16]>>,
    /// Whether [`Sparse::front`] is made (tests turn it off).
    fronting: bool,
    /// One row of stamps per position of the current block: `rows[j *
    /// size + x] == tag` when `x` is an option of position `n0 + j`.
    rows: Vec<u8>,
    /// Whether blocks compare part of their far rare entries (see
    /// [`probe`]): on where the compare runs on vectors (tests turn it on
    /// elsewhere).
    probing: bool,
    /// The candidates of the current block.
    probe: Probe,
    /// In a block that compares: the far options of each position as bits,
    /// `width / 64` words per position.
    lane_hits: Vec<u64>,
    /// Per split digit, the far range of `compare_list` in the current
    /// block: the part the per-position pass leaves alone.
    compare_far: [(usize, usize); MAX_SPLITS],
    /// The part of `compare_far` the block compares; the far pass stamps
    /// the rest.
    compared: [(usize, usize); MAX_SPLITS],
    /// Whether the current block compares (see [`Sparse::prepare_probe`]).
    comparing: bool,
    tag: u8,
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
pub(super) fn walsh_hadamard(w: &mut [i64]) {
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
    pub fn new(rule: TakeBreak, path: Simd) -> Sparse {
        debug_assert!(path.is_available() && path != Simd::Auto);
        let k0 = rule.split_two.first().copied().unwrap_or(0);
        let parity_allowed = rule.splits_share_parity();
        let mut s = Sparse {
            rule,
            path,
            k0,
            parity_allowed,
            schedule: SparseSchedule::START,
            rare: Vec::new(),
            stamped: Vec::new(),
            compare_list: Vec::new(),
            compare_below: 0,
            class: Vec::new(),
            marks: Marks::new(),
            three: ThreeHeap::default(),
            need_bits: Vec::new(),
            class_bits: [Vec::new(), Vec::new()],
            hit: Vec::new(),
            helper_scratch: Vec::new(),
            helper_bits: Vec::new(),
            far_share: 0.2,
            scan_start: 1,
            front: None,
            fronting: true,
            rows: Vec::new(),
            probing: path == Simd::Avx512,
            probe: Probe::default(),
            lane_hits: Vec::new(),
            compare_far: [(0, 0); MAX_SPLITS],
            compared: [(0, 0); MAX_SPLITS],
            comparing: false,
            tag: 0,
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

    /// The class of the values step 1 finds exactly at position `n` (that of
    /// an XOR with exactly one rare part).
    #[inline]
    fn sparse_class(&self, n: u64) -> usize {
        1 ^ (self.schedule.position_parity as usize & (n.wrapping_sub(self.k0) & 1) as usize)
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
        self.front = None;
        self.max_value = g.iter().map(|x| x.get()).max().unwrap_or(0);
        self.three.truncate(0);
        self.resize_tables();
        self.rebuild_rare(g);
        self.choose_scan_start(g);
    }

    /// Chooses where step 2's scans begin. Pairs whose smaller heap is one
    /// of the first few hundred or thousand sizes tend to have small values
    /// (values grow with the heap for a while), so the need values are found
    /// sooner among later pairs; for Officers starting near `b = 6000`
    /// visits a quarter fewer pairs than starting at 1. The choice is the
    /// candidate with the fewest pairs visited over sample positions from
    /// the second half of the values, their need sets taken as every value
    /// of the class step 2 looks for below `G(n)`. It depends on the values
    /// alone, so every run makes the same choices; any start gives the same
    /// values.
    fn choose_scan_start<T: Cell>(&mut self, g: &[T]) {
        self.scan_start = 1;
        let n = g.len();
        if self.schedule.mask == 0 || n < SCAN_SAMPLE_FROM || self.rule.split_two.is_empty() {
            return;
        }
        let k = self.k0 as usize;
        let xlimit = self.stride();
        let words = xlimit / 64;
        let mut candidates = vec![1usize];
        let mut c = 256.0f64;
        while (c as usize) < (n / 8).min(SCAN_CAP / 2) {
            candidates.push(c as usize);
            c *= std::f64::consts::SQRT_2;
        }
        let mut cost = vec![0u64; candidates.len()];
        let step = (n / 2) / SCAN_SAMPLES;
        // Every value of the searched class below G(p), as bits.
        let mut need = vec![0u64; words.max(8)];
        let mut bits = need.clone();
        for i in 0..SCAN_SAMPLES {
            let p = n - 1 - i * step;
            let m = p - k;
            let half = if self.rule.unequal {
                (m - 1) / 2
            } else {
                m / 2
            };
            // The estimate ignores pairs past SCAN_CAP, which bounds its cost.
            let half = half.min(SCAN_CAP);
            let other = &self.class_bits[1 - self.sparse_class(p as u64)];
            let below = g[p].get() as usize;
            for (w, word) in need.iter_mut().enumerate().take(words) {
                let keep = if (w + 1) * 64 <= below {
                    u64::MAX
                } else if w * 64 < below {
                    (1u64 << (below - w * 64)) - 1
                } else {
                    0
                };
                *word = other[w] & keep;
            }
            let count: usize = need.iter().map(|w| w.count_ones() as usize).sum();
            for (j, &start) in candidates.iter().enumerate() {
                bits.copy_from_slice(&need);
                let mut missing = count;
                cost[j] += simd::cover(
                    self.path,
                    &g[..m],
                    &[],
                    m,
                    half,
                    start,
                    xlimit,
                    &mut bits,
                    &mut missing,
                );
            }
        }
        let best = (0..candidates.len())
            .min_by_key(|&j| (cost[j], j))
            .expect("one candidate at least");
        self.scan_start = candidates[best];
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
        self.split_rare();
    }

    /// Sorts the rare entries into stamped and compared ones: about
    /// [`probe::COMPARED_SHARE`] of them, those with the smallest values,
    /// are compared. (Measured on Officers, comparing the entries of small
    /// value leaves a position's candidates hit far less often than
    /// comparing those of large value or of large position: 1% against
    /// 22% and 5%.) Entries found later go by the same threshold.
    fn split_rare(&mut self) {
        self.compare_below = 0;
        if self.probing && !self.rare.is_empty() {
            let mut values: Vec<u32> = self.rare.iter().map(|&(_, r)| r).collect();
            values.sort_unstable();
            let rank = (values.len() as f64 * probe::COMPARED_SHARE) as usize;
            self.compare_below = values[rank.min(values.len() - 1)];
        }
        self.stamped.clear();
        self.compare_list.clear();
        for &(a, r) in &self.rare {
            if r < self.compare_below {
                self.compare_list.push((a, r));
            } else {
                self.stamped.push((a, r));
            }
        }
    }

    fn eval_due(&self, n: u64) -> bool {
        !self.rule.split_two.is_empty()
            && (n == self.schedule.next_eval
                || (self.rare.len() as u64 > 2 * self.schedule.rare_at_eval + 64
                    && n >= self.schedule.eval_allowed_from))
    }

    /// Makes [`Sparse::front`] once the values it holds are known; every
    /// value in `g` must be final.
    fn keep_front<T: Cell>(&mut self, g: &[T]) {
        if self.fronting
            && self.front.is_none()
            && std::mem::size_of::<T>() == 2
            && g.len() >= simd::FRONT
        {
            self.front = Some(simd::front_copy(g, simd::FRONT).into());
        }
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
        if rare * 4 > total {
            // Too many rare positions for the method to pay: plain mex.
            self.schedule.mask = 0;
            self.schedule.position_parity = false;
        } else {
            self.schedule.mask = mask;
            self.schedule.position_parity = parity;
        }
        self.resize_tables();
        self.rebuild_rare(g);
        self.choose_scan_start(g);
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

    /// Computes values until `g.len() == until`, on one thread, a block of
    /// up to [`BLOCK`] positions at a time.
    pub fn extend<T: Cell>(&mut self, g: &mut Vec<T>, until: usize) -> Result<(), StepError> {
        while g.len() < until {
            self.keep_front(g);
            let n = g.len();
            if self.eval_due(n as u64) {
                self.evaluate(g);
            }
            if self.schedule.mask == 0 {
                let value = self.plain_value(g, n)?;
                if value > T::MAX {
                    return Err(StepError::Overflow);
                }
                self.commit(g, value);
                continue;
            }
            let len = BLOCK.min(until - n);
            self.block(g, len, None, None)?;
        }
        Ok(())
    }

    /// Step 1 for the far rare entries of the block `n0..n0 + len`
    /// (`n0 = g.len()`): stamps `r ^ G(b)` into the block's rows for every
    /// rare entry `(a, r)` whose partner `b` lies before `n0` at every
    /// position of the block. Returns, per split digit, the range of the
    /// rare list that was handled here; the per-position pass does the rest.
    fn far_pass<T: Cell>(
        &mut self,
        g: &[T],
        len: usize,
        shared: Option<f64>,
    ) -> [(usize, usize); MAX_SPLITS] {
        let n0 = g.len();
        let width = self.stride();
        let mut handled = [(0usize, 0usize); MAX_SPLITS];
        self.compare_far = [(0, 0); MAX_SPLITS];
        self.compared = [(0, 0); MAX_SPLITS];
        // Full blocks of one- and two-byte values compare the entries of
        // `compare_list` (see `probe`); other blocks stamp them.
        self.comparing = self.probing
            && len == BLOCK
            && std::mem::size_of::<T>() <= 2
            && !self.compare_list.is_empty();
        if self.rule.split_two.len() > MAX_SPLITS {
            self.comparing = false;
            return handled;
        }
        let tag = self.tag;
        let rows = &mut self.rows[..len * width + ROW_SLACK];
        for (slot, &k) in self.rule.split_two.iter().enumerate() {
            let k = k as usize;
            // Far: a >= BLOCK - k keeps b = p - k - a below n0 for every p
            // of the block; a <= n0 - k - 1 keeps b >= 1.
            let lo_a = (BLOCK.saturating_sub(k)).max(1);
            let Some(hi_a) = n0.checked_sub(k + 1) else {
                continue;
            };
            if hi_a < lo_a {
                continue;
            }
            let (lo, hi) = far_range(&self.stamped, lo_a, hi_a);
            handled[slot] = (lo, hi);
            // With a helper, this thread takes its share of the entries and
            // every one the helper cannot (see `helper_far_pass`).
            let mine = match shared {
                Some(share) => split_point(&self.stamped, lo, hi, hi_a, share),
                None => hi,
            };
            let (c_lo, c_hi) = far_range(&self.compare_list, lo_a, hi_a);
            self.compare_far[slot] = (c_lo, c_hi);
            let unequal = self.rule.unequal;
            let cut = if !self.comparing {
                c_lo
            } else if unequal {
                // Equal parts are no move, and the compare does not skip
                // them: it takes only entries with a < (n0 - k) / 2, whose
                // partners n0 + j - k - a are all larger than a.
                let limit = (n0 - k) / 2;
                c_lo + self.compare_list[c_lo..c_hi].partition_point(|&(a, _)| (a as usize) < limit)
            } else {
                c_hi
            };
            self.compared[slot] = (c_lo, cut);
            let mut stamp = |entries: &[(u64, u32)]| {
                stamp_entries(rows, width, g, n0, len, k, entries, unequal, tag);
            };
            stamp(&self.stamped[lo..mine]);
            stamp(&self.compare_list[cut..c_hi]);
        }
        handled
    }

    /// Computes the block `g.len()..g.len() + len` (fewer positions when a
    /// mask evaluation falls due or the value tables grow).
    fn block<T: Cell>(
        &mut self,
        g: &mut Vec<T>,
        len: usize,
        mut defer: Option<&mut Deferred>,
        helper_bits: Option<&[u64]>,
    ) -> Result<(), StepError> {
        let n0 = g.len();
        let size = self.marks.size();
        let width = self.stride();
        if self.rows.len() < BLOCK * width + ROW_SLACK {
            self.rows.resize(BLOCK * width + ROW_SLACK, 0);
        }
        next_tag(&mut self.tag, &mut self.rows);
        let handled = self.far_pass(g, len, helper_bits.map(|_| self.far_share));
        if self.comparing {
            self.prepare_probe(g, len, helper_bits);
        }
        for j in 0..len {
            let n = n0 + j;
            if j > 0 && (self.eval_due(n as u64) || self.marks.size() != size) {
                break;
            }
            let words = width / 64;
            let extra = helper_bits.map(|bits| &bits[j * words..(j + 1) * words]);
            let (v, settled) = self.finish_row(g, n, j, &handled, extra)?;
            let value = if settled {
                v
            } else if let Some(d) = defer.as_deref_mut() {
                // Step 2 later, on another thread: v is what it confirms.
                d.push(n, v, width, &self.need_bits);
                v
            } else {
                let (outcome, pairs) = search(
                    self.path,
                    &self.rule,
                    g,
                    self.front.as_deref().unwrap_or(&[]),
                    n,
                    self.scan_start,
                    width,
                    &mut self.need_bits,
                );
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
                if let Some(d) = defer {
                    d.drop_from(n);
                }
                return Err(StepError::Overflow);
            }
            self.commit(g, value);
        }
        Ok(())
    }

    /// After the far pass of the block `g.len()..g.len() + len`: reads each
    /// position's stamped options (and the helper's, `extra`) into
    /// `lane_hits`, takes its candidates from them, then checks the compared
    /// entries against the candidates.
    fn prepare_probe<T: Cell>(&mut self, g: &[T], len: usize, extra: Option<&[u64]>) {
        let n0 = g.len();
        let width = self.stride();
        let words = width / 64;
        self.probe.clear();
        self.lane_hits.resize(BLOCK * words, 0);
        for j in 0..len {
            let class = self.sparse_class((n0 + j) as u64);
            let hit = &mut self.lane_hits[j * words..(j + 1) * words];
            simd::byte_bits(
                self.path,
                &self.rows[j * width..(j + 1) * width],
                self.tag,
                false,
                hit,
            );
            if let Some(extra) = extra {
                for (h, e) in hit.iter_mut().zip(&extra[j * words..(j + 1) * words]) {
                    *h |= e;
                }
            }
            self.probe.set_lane(j, &self.class_bits[class], hit);
        }
        for (slot, &k) in self.rule.split_two.iter().enumerate() {
            let (from, to) = self.compared[slot];
            if from < to {
                self.probe
                    .compare(self.path, g, n0 - k as usize, &self.compare_list[from..to]);
            }
        }
    }

    /// Completes the options of position `n` (row `j` of the block): those
    /// leaving at most one or three heaps and the rare entries not handled
    /// by [`Sparse::far_pass`]. Then finds `v`, the least value of the
    /// sparse class that is not an option, and leaves in `self.need_bits`
    /// the values of the other class below `v` that are not options yet.
    /// Returns `v` and whether that need set is empty.
    ///
    /// The options go into the row's stamps and are then read as bits
    /// into `self.hit`; in a block that compares, the far stamps were read
    /// already (see [`Sparse::prepare_probe`]) and the rest go straight into
    /// the bits.
    fn finish_row<T: Cell>(
        &mut self,
        g: &[T],
        n: usize,
        j: usize,
        handled: &[(usize, usize); MAX_SPLITS],
        extra: Option<&[u64]>,
    ) -> Result<(u32, bool), StepError> {
        let width = self.stride();
        // Options are below `width`, so values from there up are never hit.
        let hit_words = width / 64;
        let tag = self.tag;
        let n64 = n as u64;
        let sparse_class = self.sparse_class(n64);
        // The position's options as bits: in a block that compares, its
        // far options are there already.
        let hit = if self.comparing {
            &mut self.lane_hits[j * hit_words..(j + 1) * hit_words]
        } else {
            &mut self.hit[..hit_words]
        };
        let mut out = if self.comparing {
            Options::Bits(&mut *hit)
        } else {
            Options::Row(&mut self.rows[j * width..(j + 1) * width], tag)
        };
        if !self.rule.split_three.is_empty() {
            self.marks.begin();
            mark_simple_options(&self.rule, g, n, &mut self.marks, &mut self.three)?;
            for x in 0..width {
                if self.marks.has(x as u32) {
                    out.mark(x);
                }
            }
        } else {
            for &k in &self.rule.take_all {
                if n64 == k {
                    out.mark(0);
                }
            }
            for &k in &self.rule.leave_one {
                if n64 > k {
                    out.mark(g[n - k as usize].get() as usize);
                }
            }
        }
        let mut visited = 0u64;
        for (slot, &k) in self.rule.split_two.iter().enumerate() {
            let k = k as usize;
            let Some(m) = n.checked_sub(k) else {
                continue;
            };
            let (lo, hi) = handled.get(slot).copied().unwrap_or((0, 0));
            let (c_lo, c_hi) = self.compare_far.get(slot).copied().unwrap_or((0, 0));
            let parts = [
                &self.stamped[..lo],
                &self.stamped[hi..],
                &self.compare_list[..c_lo],
                &self.compare_list[c_hi..],
            ];
            let unequal = self.rule.unequal;
            for part in parts {
                for &(a, r) in part {
                    let a = a as usize;
                    if a >= m {
                        break;
                    }
                    let b = m - a;
                    if unequal && a == b {
                        continue;
                    }
                    visited += 1;
                    out.mark((r ^ g[b].get()) as usize & (width - 1));
                }
            }
            visited += (hi - lo + c_hi - c_lo) as u64;
        }
        self.counters.rare_pairs += visited;
        let mut probed = None;
        if self.comparing {
            probed = self.probe.lane_value(j, hit);
            if probed.is_none() {
                // Every candidate is an option: mark the compared entries
                // after all (their partners are all before the block).
                for (slot, &k) in self.rule.split_two.iter().enumerate() {
                    let (from, to) = self.compared[slot];
                    let m = n - k as usize;
                    for &(a, r) in &self.compare_list[from..to] {
                        let x = (r ^ g[m - a as usize].get()) as usize & (width - 1);
                        hit[x / 64] |= 1 << (x % 64);
                    }
                }
            }
        } else {
            simd::byte_bits(
                self.path,
                &self.rows[j * width..(j + 1) * width],
                tag,
                false,
                hit,
            );
            if let Some(extra) = extra {
                // The helper's far pairs, already as bits.
                for (h, m) in hit.iter_mut().zip(extra) {
                    *h |= m;
                }
            }
        }
        let (in_class, other) = (
            &self.class_bits[sparse_class],
            &self.class_bits[1 - sparse_class],
        );
        let hit_at = |w: usize| hit.get(w).copied().unwrap_or(0);
        let v = probed.unwrap_or_else(|| {
            in_class
                .iter()
                .enumerate()
                .find_map(|(w, &c)| {
                    let free = c & !hit_at(w);
                    (free != 0).then(|| w as u32 * 64 + free.trailing_zeros())
                })
                .expect("the class sets reach past every option")
        });
        let (word, bit) = (v as usize / 64, v as usize % 64);
        // The need set is below v: words past v's are empty.
        let mut left = 0;
        let need = &mut self.need_bits;
        need.fill(0);
        for w in 0..=word.min(need.len() - 1) {
            let below = if w < word {
                u64::MAX
            } else {
                (1u64 << bit) - 1
            };
            need[w] = other.get(w).copied().unwrap_or(0) & !hit_at(w) & below;
            left |= need[w];
        }
        Ok((v, left == 0))
    }

    /// The length of a row: options are XORs of values below half the
    /// table size, so they are below it too.
    fn stride(&self) -> usize {
        self.marks.size() / 2
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
            if value < self.compare_below {
                self.compare_list.push((n, value));
            } else {
                self.stamped.push((n, value));
            }
        }
    }

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
        let rule = self.rule.clone();
        let relay = Relay::new();
        let mut pending = Deferred::default();
        // The buffers of the round before last, kept for their room: a
        // round's list grows to hundreds of KiB, and growing a fresh one
        // each round copies it and faults its pages in again.
        let mut spare = Deferred::default();
        let mut overflow = false;
        loop {
            let n1 = g.len();
            if pending
                .items
                .first()
                .is_none_or(|item| item.0 >= simd::FRONT)
            {
                // Everything before the positions pending is final.
                self.keep_front(g);
            }
            let quiet_until = self.guess_from();
            let produce = !overflow
                && n1 < until
                && self.schedule.mask != 0
                && !self.eval_due(n1 as u64)
                && n1 >= quiet_until;
            if !produce {
                if !pending.is_empty() {
                    // Confirm what is pending before anything else, half on
                    // each thread (positions are checked independently).
                    let half = pending.items.len() / 2;
                    let (rule, pending_ref, values) = (&rule, &pending, &*g);
                    let (second, first) = relay.join(
                        || pending_ref.verify_range(rule, values, half..),
                        || pending_ref.verify_range(rule, values, ..half),
                    );
                    self.settle(g, &mut pending, first.merge(second));
                    continue;
                }
                if overflow {
                    return Err(StepError::Overflow);
                }
                if n1 >= until {
                    return Ok(());
                }
                // A mask evaluation, a plain step, or the positions near a
                // rare one, on one thread.
                let stop = if self.schedule.mask != 0 && n1 < quiet_until {
                    quiet_until
                } else {
                    n1 + BLOCK
                };
                let stop = self.next_boundary(n1, until.min(stop)).max(n1 + 1);
                self.extend(g, stop)?;
                continue;
            }
            let target = self.next_boundary(n1, until.min(n1 + ROUND));
            g.reserve(target - n1);
            let mut current = std::mem::take(&mut spare);
            current.clear();
            current.start = self.scan_start;
            current.path = self.path;
            current.front = self.front.clone();
            // Step 2 reads g[..n1] only; step 1 appends g[n1..] within the
            // room reserved above, so the buffer does not move.
            // SAFETY: the slice covers initialised values that nobody writes
            // while it is used, which is only inside `round` (pushes write
            // past n1 into reserved capacity; `round` never truncates g).
            let prefix: &[T] = unsafe { std::slice::from_raw_parts(g.as_ptr(), n1) };
            let (produced, verdict) =
                self.round(&relay, g, prefix, target, &rule, &pending, &mut current);
            if !pending.is_empty() && self.settle(g, &mut pending, verdict) {
                // Everything produced this round rests on a wrong value.
                spare = current;
                continue;
            }
            spare = std::mem::replace(&mut pending, current);
            match produced {
                Ok(()) => {}
                Err(StepError::Overflow) => overflow = true,
                Err(e) => return Err(e),
            }
        }
    }

    /// One round of the two-thread mode: this thread runs step 1 over
    /// `g.len()..target` block by block, deferring step 2 into `current`.
    /// The helper stamps the far rare entries (`a >= LAG * BLOCK`, whose
    /// partners lie [`LAG`] - 1 blocks back) into its own rows, up to
    /// `LAG - 1` blocks ahead, and hands each block over as bits through a
    /// ring of `LAG` slots. Both threads confirm `pending` with step 2
    /// whenever they would otherwise wait, the helper from the front and
    /// this thread from the back. `prefix` is `g` as it was when the round
    /// began.
    #[allow(clippy::too_many_arguments)]
    fn round<T: Cell>(
        &mut self,
        relay: &Relay,
        g: &mut Vec<T>,
        prefix: &[T],
        target: usize,
        rule: &TakeBreak,
        pending: &Deferred,
        current: &mut Deferred,
    ) -> (Result<(), StepError>, Verdict) {
        use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
        let n1 = g.len();
        let path = self.path;
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
        let a_done = AtomicUsize::new(0);
        let b_done = AtomicUsize::new(0);
        let stop = AtomicBool::new(false);
        let queue = Queue::new(pending.items.len());
        let ring = self.helper_bits.as_mut_ptr() as usize;
        let values = g.as_ptr() as usize;
        let mut scratch = std::mem::take(&mut self.helper_scratch);
        let share = self.far_share;
        let (a_done, b_done, stop, queue, rare) = (&a_done, &b_done, &stop, &queue, &rare);
        let scratch_ref = &mut scratch;
        let ((theirs, their_idle), (produced, mine, idle)) = relay.join(
            move || {
                let scratch = scratch_ref;
                let mut verdict = Verdict::default();
                let mut idle = 0u64;
                let mut budget = SPIN_START;
                // The rows are this thread's own: fresh ones each round.
                scratch[..BLOCK * width].fill(0);
                let mut tag = 0u8;
                'blocks: for t in 0..blocks {
                    let mut spins = 0u32;
                    while a_done.load(Ordering::Acquire) + LAG < t + 1 {
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
                    // SAFETY: the producer has committed every value before
                    // n0 - (LAG - 1) BLOCK (a_done >= t + 1 - LAG, read with
                    // Acquire) and appends only past them, within reserved
                    // room. Slot t % LAG was last read by the producer for
                    // block t - LAG, which it has finished (same a_done),
                    // and it reads this one only after b_done says so.
                    let known = unsafe {
                        std::slice::from_raw_parts(
                            values as *const T,
                            n0.saturating_sub((LAG - 1) * BLOCK),
                        )
                    };
                    let slot = unsafe {
                        std::slice::from_raw_parts_mut(
                            (ring as *mut u64).add((t % LAG) * BLOCK * words),
                            BLOCK * words,
                        )
                    };
                    next_tag(&mut tag, scratch);
                    helper_far_pass(scratch, width, known, n0, len, rule, rare, share, tag);
                    for (row, bits) in scratch
                        .chunks_exact(width)
                        .zip(slot.chunks_exact_mut(words))
                        .take(len)
                    {
                        simd::byte_bits(path, row, tag, false, bits);
                    }
                    b_done.store(t + 1, Ordering::Release);
                }
                while queue.confirm(true, pending, rule, prefix, &mut verdict) {}
                (verdict, idle)
            },
            || {
                // The helper waits on `stop` as well as on `a_done`: set it
                // even if this side panics, so that the join can end.
                let _stop = StopOnDrop(stop);
                let mut produced = Ok(());
                let mut mine = Verdict::default();
                let mut idle = 0u64;
                let mut budget = SPIN_START;
                for t in 0..blocks {
                    let n0 = g.len();
                    if n0 != n1 + t * BLOCK || self.eval_due(n0 as u64) || self.marks.size() != size
                    {
                        break;
                    }
                    let mut spins = 0u32;
                    while b_done.load(Ordering::Acquire) < t + 1 {
                        if relay.finished() {
                            // Only a panic ends the helper early; join re-raises it.
                            break;
                        }
                        if !queue.confirm(false, pending, rule, prefix, &mut mine) {
                            spin(&mut spins, budget);
                        }
                    }
                    if b_done.load(Ordering::Acquire) < t + 1 {
                        break;
                    }
                    idle += spins as u64;
                    budget = next_budget(spins, budget);
                    let len = BLOCK.min(target - n0);
                    // SAFETY: the helper finished this slot (b_done > t, read
                    // with Acquire) and does not write it again until this block
                    // is done (a_done).
                    let bits = unsafe {
                        std::slice::from_raw_parts(
                            (ring as *const u64).add((t % LAG) * BLOCK * words),
                            len * words,
                        )
                    };
                    if let Err(e) = self.block(g, len, Some(&mut *current), Some(bits)) {
                        produced = Err(e);
                        break;
                    }
                    if g.len() != n0 + len {
                        break;
                    }
                    a_done.store(t + 1, Ordering::Release);
                }
                stop.store(true, Ordering::Release);
                while queue.confirm(false, pending, rule, prefix, &mut mine) {}
                (produced, mine, idle)
            },
        );
        self.helper_scratch = scratch;
        let verdict = mine.merge(theirs);
        // Whoever waited has time to spare: move far entries towards it.
        if idle > their_idle + 64 {
            self.far_share = (self.far_share + 0.02).min(0.9);
        } else if their_idle > idle + 64 {
            self.far_share = (self.far_share - 0.02).max(0.0);
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
        if n < simd::FRONT {
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

/// Sample positions for [`Sparse::choose_scan_start`], and the fewest values
/// before it samples at all.
const SCAN_SAMPLES: usize = 128;
const SCAN_SAMPLE_FROM: usize = 1 << 13;
/// The pairs an estimate looks at, at most.
const SCAN_CAP: usize = 1 << 16;

/// Positions per round of the two-thread mode.
const ROUND: usize = 4096;

/// Positions after the last rare one that are computed on one thread.
const QUIET: usize = 2 * ROUND;

/// Positions whose step-1 value waits for step 2.
#[derive(Debug, Default)]
struct Deferred {
    /// `(n, v, xlimit, start, len)`: the need set is `needs[start..start + len]`.
    items: Vec<(usize, u32, usize, usize, usize)>,
    needs: Vec<u64>,
    /// Where step 2's scans begin ([`Sparse::scan_start`]).
    start: usize,
    /// The vector path ([`Sparse::path`]).
    path: Simd,
    /// [`Sparse::front`] as the round began.
    front: Option<std::sync::Arc<[u16]>>,
}

/// What step 2 found on a list of deferred positions.
#[derive(Default)]
struct Verdict {
    /// The first position whose value is not `v`, and its value.
    failure: Option<(usize, u32)>,
    pairs: u64,
}

impl Verdict {
    /// Both threads' findings: the earliest failure counts.
    fn merge(self, other: Verdict) -> Verdict {
        let failure = match (self.failure, other.failure) {
            (Some(a), Some(b)) => Some(if a.0 <= b.0 { a } else { b }),
            (a, b) => a.or(b),
        };
        Verdict {
            failure,
            pairs: self.pairs + other.pairs,
        }
    }
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

impl Deferred {
    fn is_empty(&self) -> bool {
        self.items.is_empty()
    }

    fn clear(&mut self) {
        self.items.clear();
        self.needs.clear();
    }

    fn push(&mut self, n: usize, v: u32, xlimit: usize, need: &[u64]) {
        self.items
            .push((n, v, xlimit, self.needs.len(), need.len()));
        if let Ok(words) = <&[u64; 8]>::try_from(need) {
            self.needs.extend(words);
        } else {
            self.needs.extend_from_slice(need);
        }
    }

    /// Forgets the positions from `n` on.
    fn drop_from(&mut self, n: usize) {
        let keep = self.items.partition_point(|item| item.0 < n);
        if let Some(&(_, _, _, start, _)) = self.items.get(keep) {
            self.needs.truncate(start);
        }
        self.items.truncate(keep);
    }

    /// Step 2 for the positions of `range` in order, stopping at the first
    /// whose need set is not covered. `g` holds at least the values before
    /// the last of them.
    fn verify_range<T: Cell>(
        &self,
        rule: &TakeBreak,
        g: &[T],
        range: impl std::slice::SliceIndex<
            [(usize, u32, usize, usize, usize)],
            Output = [(usize, u32, usize, usize, usize)],
        >,
    ) -> Verdict {
        let mut pairs = 0;
        let mut long = Vec::new();
        let front = self.front.as_deref().unwrap_or(&[]);
        for &(n, _v, xlimit, start, len) in &self.items[range] {
            let need = &self.needs[start..start + len];
            // Need sets of eight words (values below 512) are copied whole,
            // without a call.
            let mut short = [0u64; 8];
            let bits: &mut [u64] = if need.len() == short.len() {
                short.copy_from_slice(need);
                &mut short
            } else {
                long.clear();
                long.extend_from_slice(need);
                long.resize(len.max(8), 0);
                &mut long
            };
            let (outcome, visited) = search(self.path, rule, g, front, n, self.start, xlimit, bits);
            pairs += visited;
            if let Some(w) = outcome {
                return Verdict {
                    failure: Some((n, w)),
                    pairs,
                };
            }
        }
        Verdict {
            failure: None,
            pairs,
        }
    }
}

/// Where a position's options are marked: stamps in its row, or bits.
enum Options<'a> {
    Row(&'a mut [u8], u8),
    Bits(&'a mut [u64]),
}

impl Options<'_> {
    /// Marks `x` (below the row width) as an option.
    #[inline]
    fn mark(&mut self, x: usize) {
        match self {
            Options::Row(row, tag) => row[x] = *tag,
            Options::Bits(bits) => bits[x / 64] |= 1 << (x % 64),
        }
    }
}

/// Positions per block of the sparse method.
const BLOCK: usize = probe::LANES;

/// Split digits handled by the far pass (codes with more use the
/// per-position pass for all of them).
const MAX_SPLITS: usize = 8;

/// Moves on to the next tag of a set of rows (rows hold the tag of the
/// block that last stamped them); when the tags run out, clears the rows.
fn next_tag(tag: &mut u8, rows: &mut [u8]) {
    *tag = tag.wrapping_add(1);
    if *tag == 0 {
        rows.fill(0);
        *tag = 1;
    }
}

/// Bytes after a block's rows that stamps may reach: `Cell::xor_index`
/// is below 2^16 without a mask (and below the row width with one), so the
/// stamping loops need no masking and no bounds checks. Values are below the
/// row width, so nothing is ever stamped there.
const ROW_SLACK: usize = 1 << 16;

/// How many blocks the helper thread may run ahead of the producer, plus
/// one: it takes the rare entries with `a >= LAG * BLOCK`.
const LAG: usize = 16;

/// The index range of the rare entries with `lo_a <= a <= hi_a`.
fn far_range(rare: &[(u64, u32)], lo_a: usize, hi_a: usize) -> (usize, usize) {
    let lo = rare.partition_point(|&(a, _)| (a as usize) < lo_a);
    let hi = rare.partition_point(|&(a, _)| (a as usize) <= hi_a);
    (lo, hi.max(lo))
}

/// Where the producer's part of a block's far entries `lo..hi` ends and
/// the helper's begins: after about `share` of them, and never before the
/// first entry with `a >= LAG * BLOCK` (the helper's partners must lie
/// `LAG - 1` blocks back).
fn split_point(rare: &[(u64, u32)], lo: usize, hi: usize, hi_a: usize, share: f64) -> usize {
    let lagging = far_range(rare, LAG * BLOCK, hi_a).0;
    let wanted = lo + ((hi - lo) as f64 * share) as usize;
    wanted.max(lagging).clamp(lo, hi)
}

/// Stamps `r ^ G(n0 + j - k - a)` into row `j` (rows of `width` bytes for
/// positions `n0..n0 + len`) for every entry `(a, r)`; every partner must be
/// in `g`. With unequal splits the pair `(a, a)` is no move.
#[allow(clippy::too_many_arguments)]
fn stamp_entries<T: Cell>(
    rows: &mut [u8],
    width: usize,
    g: &[T],
    n0: usize,
    len: usize,
    k: usize,
    entries: &[(u64, u32)],
    unequal: bool,
    tag: u8,
) {
    if unequal || len != BLOCK {
        for &(a, r) in entries {
            let a = a as usize;
            let base = n0 - k - a;
            let src = &g[base..base + len];
            let skip = if unequal {
                (2 * a + k).checked_sub(n0).filter(|&j| j < len)
            } else {
                None
            };
            stamp_rows(rows, width, src, r, tag, skip);
        }
        return;
    }
    match width {
        256 => stamp_block::<T, 256>(rows, g, n0 - k, entries, tag),
        512 => stamp_block::<T, 512>(rows, g, n0 - k, entries, tag),
        1024 => stamp_block::<T, 1024>(rows, g, n0 - k, entries, tag),
        _ => {
            for &(a, r) in entries {
                let base = n0 - k - a as usize;
                stamp_rows(rows, width, &g[base..base + len], r, tag, None);
            }
        }
    }
}

/// [`stamp_rows`] for a whole block of rows of a fixed width: entry
/// `(a, r)` pairs position `j` of the block with `src[start - a + j]`.
#[inline(never)]
fn stamp_block<T: Cell, const W: usize>(
    rows: &mut [u8],
    src: &[T],
    start: usize,
    entries: &[(u64, u32)],
    tag: u8,
) {
    let rows = &mut rows[..BLOCK * W + ROW_SLACK];
    for &(a, r) in entries {
        let base = start - a as usize;
        let window: &[T; BLOCK] = src[base..base + BLOCK]
            .try_into()
            .expect("a block of values");
        for (j, b) in window.iter().enumerate() {
            // x < W, as every value is below W; unmasked, it is still below
            // ROW_SLACK (see `Cell::xor_index`).
            let x = b.xor_index(r, W - 1);
            // SAFETY: j < BLOCK and x < ROW_SLACK, inside the rows and slack.
            unsafe { *rows.get_unchecked_mut(j * W + x) = tag };
        }
    }
}

/// `rows[j * width + (r ^ src[j])] = tag` for every `j` but `skip`.
#[inline]
fn stamp_rows<T: Cell>(
    rows: &mut [u8],
    width: usize,
    src: &[T],
    r: u32,
    tag: u8,
    skip: Option<usize>,
) {
    assert!(rows.len() >= src.len() * width + ROW_SLACK && width.is_power_of_two());
    let mask = width - 1;
    match skip {
        None => {
            for (j, b) in src.iter().enumerate() {
                let x = b.xor_index(r, mask);
                // SAFETY: j < src.len() and x < ROW_SLACK, and the assert
                // above makes rows hold src.len() rows of width and the slack.
                unsafe { *rows.get_unchecked_mut(j * width + x) = tag };
            }
        }
        Some(s) => {
            for (j, b) in src.iter().enumerate() {
                if j != s {
                    let x = (r ^ b.get()) as usize & mask;
                    rows[j * width + x] = tag;
                }
            }
        }
    }
}

/// Step 2: looks for every value of the need set `bits` among the two-heap
/// options of a heap of size `n`. Returns `None` when all are found (so the
/// step-1 value stands) or the least value not found, and the number of
/// pairs visited. Leaves `bits` all zero. `front` is [`Sparse::front`] or
/// empty. The scans begin at `b = start`
/// (see [`simd::cover`]).
///
/// Every option value is below `xlimit` (a power of two above every value so
/// far), so need values from `xlimit` up can never be found.
///
/// With several split digits the digits take turns, a stretch of heap sizes
/// at a time (see [`simd::cover_interleaved`]): a need value that only one
/// digit's splits reach early must not wait for a full scan of the others'.
#[allow(clippy::too_many_arguments)]
fn search<T: Cell>(
    path: Simd,
    rule: &TakeBreak,
    g: &[T],
    front: &[u16],
    n: usize,
    start: usize,
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
    let mut sizes = [(0usize, 0usize); MAX_SPLITS];
    let mut count = 0;
    for &k in &rule.split_two {
        let k = k as usize;
        if n < k + 2 {
            continue;
        }
        let m = n - k;
        let half = if rule.unequal { (m - 1) / 2 } else { m / 2 };
        if count == MAX_SPLITS || half == 0 {
            // More digits than the interleaved scan takes: this one alone.
            if missing > 0 && half > 0 {
                visited += simd::cover(
                    path,
                    &g[..m],
                    front,
                    m,
                    half,
                    start,
                    xlimit,
                    bits,
                    &mut missing,
                );
            }
            continue;
        }
        sizes[count] = (m, half);
        count += 1;
    }
    if count == 1 && missing > 0 {
        let (m, half) = sizes[0];
        visited += simd::cover(
            path,
            &g[..m],
            front,
            m,
            half,
            start,
            xlimit,
            bits,
            &mut missing,
        );
    } else if count > 1 && missing > 0 {
        visited += simd::cover_interleaved(
            path,
            g,
            front,
            &sizes[..count],
            start,
            xlimit,
            bits,
            &mut missing,
        );
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

#[cfg(test)]
mod tests {
    use super::super::code::OctalCode;
    use super::super::naive::NaiveTakeBreak;
    use super::*;

    /// An octal code, or Grundy's game (unequal splits) for "grundy".
    fn rule(code: &str) -> TakeBreak {
        if code == "grundy" {
            match super::super::game::HeapGame::GrundyGame.rule() {
                super::super::game::Rule::TakeBreak(t) => return t,
                _ => unreachable!("Grundy's game splits heaps"),
            }
        }
        TakeBreak::from_code(&code.parse::<OctalCode>().expect("a valid code"))
    }

    fn naive(rule: &TakeBreak, to: usize) -> Vec<u16> {
        let mut g = Vec::new();
        NaiveTakeBreak::new(rule.clone())
            .extend(&mut g, to)
            .expect("no overflow");
        g
    }

    /// The sparse method's values up to `to`, comparing or not, with the
    /// reversed copy or not, on `threads` threads; and its final state.
    fn sparse(
        rule: &TakeBreak,
        probing: bool,
        fronting: bool,
        threads: usize,
        to: usize,
    ) -> (Vec<u16>, Sparse) {
        sparse_on(Simd::best(), rule, probing, fronting, threads, to)
    }

    /// [`sparse`] on the vector path `path`.
    fn sparse_on(
        path: Simd,
        rule: &TakeBreak,
        probing: bool,
        fronting: bool,
        threads: usize,
        to: usize,
    ) -> (Vec<u16>, Sparse) {
        let mut sparse = Sparse::new(rule.clone(), path);
        sparse.probing = probing;
        sparse.fronting = fronting;
        let mut g: Vec<u16> = Vec::new();
        sparse
            .extend_parallel(&mut g, to, threads)
            .expect("no overflow");
        (g, sparse)
    }

    /// With the compare pass forced on (on vectors where the processor
    /// has them, one lane at a time elsewhere) or off, on one thread or two,
    /// the sparse method gives the naive values. The codes include ones
    /// with two split digits and with position parity.
    #[test]
    fn comparing_or_stamping_gives_the_naive_values() {
        for code in [
            "0.6", "0.77", "0.137", "4.7", "0.16", "0.356", "0.165", "grundy",
        ] {
            let want = naive(&rule(code), 6000);
            for path in Simd::available() {
                for probing in [false, true] {
                    for threads in [1, 2] {
                        let (g, _) =
                            sparse_on(path, &rule(code), probing, true, threads, want.len());
                        assert_eq!(g, want, "{code} {path} probing {probing} threads {threads}");
                    }
                }
            }
        }
    }

    /// Take-and-break rules whose two heaps must differ (as in Grundy's
    /// game), from codes with one or two split digits: the pair of equal
    /// heaps is no move, and the compare pass must not count it.
    #[test]
    fn unequal_splits_give_the_naive_values() {
        for code in ["0.6", "0.16", "4.7", "0.137", "0.356", "0.26", "0.4"] {
            let mut unequal = rule(code);
            unequal.unequal = true;
            let want = naive(&unequal, 8000);
            for path in Simd::available() {
                for threads in [1, 2] {
                    let (g, _) = sparse_on(path, &unequal, true, true, threads, want.len());
                    assert_eq!(g, want, "{code} unequal, {path}, threads {threads}");
                }
            }
        }
    }

    /// With unequal splits a block compares only rare entries whose twin
    /// `(a, a)` lies before the block; the others are stamped, which skips
    /// the twin.
    #[test]
    fn unequal_splits_compare_only_entries_without_a_twin_in_the_block() {
        let mut sparse = Sparse::new(rule("grundy"), Simd::best());
        sparse.probing = true;
        let g: Vec<u16> = (0..1000).map(|i| (i % 7) as u16).collect();
        sparse.compare_list = vec![(100, 1), (300, 1), (480, 1), (499, 1), (500, 1), (600, 1)];
        sparse.compare_below = 2;
        let width = sparse.stride();
        sparse.rows.resize(BLOCK * width + ROW_SLACK, 0);
        next_tag(&mut sparse.tag, &mut sparse.rows);
        sparse.far_pass(&g, BLOCK, None);
        // n0 = 1000, k = 0: the twin of a is at n = 2a, in the block from
        // a = 500 on.
        assert!(sparse.comparing);
        assert_eq!(sparse.compare_far[0], (0, 6));
        assert_eq!(sparse.compared[0], (0, 4));
        // Entry (500, 1) was stamped for every position but n = 1000.
        let tag = sparse.tag;
        for j in 0..BLOCK {
            let x = 1 ^ g[1000 + j - 500] as usize;
            let stamped = sparse.rows[j * width + x] == tag;
            assert_eq!(stamped, j != 0, "position {}", 1000 + j);
        }
    }

    /// Officers far enough out that the rare entries are all known, most
    /// positions take their value from the candidates, and step 2 reads the
    /// small heaps from the reversed copy; and Grundy's game (unequal
    /// splits) through its rare values at n = 33 697 to 82 860: comparing
    /// or stamping, with the copy or without, on one thread or two, the
    /// values agree.
    #[test]
    fn comparing_and_the_front_copy_agree_far_out() {
        for (code, to) in [("0.6", simd::FRONT + 20_000), ("grundy", 90_000)] {
            let mut runs = Vec::new();
            for (probing, fronting, threads) in [
                (false, false, 1),
                (true, false, 1),
                (false, true, 1),
                (true, true, 1),
                (true, true, 2),
            ] {
                let (g, sparse) = sparse(&rule(code), probing, fronting, threads, to);
                // About 30% of the rare entries have the smallest values.
                assert_eq!(sparse.compare_list.is_empty(), !probing, "{code}");
                assert_eq!(sparse.front.is_some(), fronting, "{code}");
                runs.push(g);
            }
            for run in &runs[1..] {
                let first_difference = run.iter().zip(&runs[0]).position(|(a, b)| a != b);
                assert_eq!(first_difference, None, "{code}");
                assert_eq!(run.len(), runs[0].len(), "{code}");
            }
        }
    }
}
