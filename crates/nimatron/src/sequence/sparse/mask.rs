//! The mask of the sparse method: the label of each value and position,
//! the rare positions it makes, and the choice of the mask with fewest rare
//! positions by a Walsh–Hadamard transform of the value histogram.

use super::super::parallel::Pair;
use super::super::values::Cell;
use super::Sparse;

/// The mask chosen by the sparse method.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct SparseMask {
    /// Values `v` are sorted by the parity of `v & mask`.
    pub mask: u32,
    /// Whether the parity of the position is added to the label.
    pub position_parity: bool,
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
pub(in crate::sequence) fn walsh_hadamard(w: &mut [i64]) {
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
    /// The mask in use, if one has been chosen.
    pub fn mask(&self) -> Option<SparseMask> {
        (self.schedule.mask != 0).then_some(SparseMask {
            mask: self.schedule.mask,
            position_parity: self.schedule.position_parity,
        })
    }

    /// Whether a saved schedule can be resumed: any mask gives exact values,
    /// but the position-parity refinement only where the splits allow it
    /// (a checkpoint altered to use it gave wrong values; found by the
    /// fuzzer).
    pub(in crate::sequence) fn accepts(&self, schedule: &SparseSchedule) -> bool {
        !schedule.position_parity || self.parity_allowed
    }

    /// The label a value at a position gets under the current mask; rare
    /// positions are those whose label is [`Sparse::rare_label`].
    #[inline]
    pub(super) fn label(&self, n: u64, value: u32) -> u32 {
        ((value & self.schedule.mask).count_ones() & 1)
            ^ (self.schedule.position_parity as u32 & n as u32 & 1)
    }

    /// The label of common positions is that of the class step 1 computes,
    /// `1 ^ s (k0 mod 2)`; rare positions have the other label.
    #[inline]
    pub(super) fn rare_label(&self) -> u32 {
        self.schedule.position_parity as u32 & self.k0 as u32 & 1
    }

    /// The class of the values step 1 finds exactly at position `n` (that of
    /// an XOR with exactly one rare part).
    #[inline]
    pub(super) fn sparse_class(&self, n: u64) -> usize {
        1 ^ (self.schedule.position_parity as usize & (n.wrapping_sub(self.k0) & 1) as usize)
    }

    /// Whether a position/value pair is rare under the current mask.
    pub fn is_rare(&self, n: u64, value: u32) -> bool {
        n >= 1 && self.has_rare_label(n, value)
    }

    /// Whether a position/value pair falls in the rare class under the
    /// current mask, heap 0 included: what published tables count (the
    /// method itself never needs heap 0, which no split leaves).
    pub fn has_rare_label(&self, n: u64, value: u32) -> bool {
        self.schedule.mask != 0 && self.label(n, value) == self.rare_label()
    }

    pub(super) fn resize_tables(&mut self) {
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

    pub(super) fn rebuild_rare<T: Cell>(&mut self, g: &[T]) {
        self.rare.clear();
        if self.schedule.mask == 0 {
            self.split_rare();
            return;
        }
        for (n, x) in g.iter().enumerate().skip(1) {
            if self.label(n as u64, x.get()) == self.rare_label() {
                self.rare.push((n as u64, x.get()));
            }
        }
        self.split_rare();
    }

    pub(super) fn eval_due(&self, n: u64) -> bool {
        !self.rule.split_two.is_empty()
            && (n == self.schedule.next_eval
                // Saturating: a resumed schedule may hold any count.
                || (self.rare.len() as u64
                    > self.schedule.rare_at_eval.saturating_mul(2).saturating_add(64)
                    && n >= self.schedule.eval_allowed_from))
    }

    /// Chooses the mask with fewest rare positions among `g[..n]`, and
    /// with it the scan start and plan (on both threads with a helper).
    pub(super) fn evaluate<T: Cell>(&mut self, g: &[T], helper: Option<&Pair<'_>>) {
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
        let before = (self.schedule.mask, self.schedule.position_parity);
        if rare * 4 > total {
            // Too many rare positions for the method to pay: plain mex.
            self.schedule.mask = 0;
            self.schedule.position_parity = false;
        } else {
            self.schedule.mask = mask;
            self.schedule.position_parity = parity;
        }
        self.resize_tables();
        // With the same mask the rare list is already that of every value
        // (kept by `commit`; a value step 2 corrects is the only rare one
        // of its round), and rebuilding it scans all of them on one thread
        // (at 2^19 on Officers, part of the 1 ms an evaluation spends
        // outside its sample scans).
        if before != (self.schedule.mask, self.schedule.position_parity) || self.schedule.mask == 0
        {
            self.rebuild_rare(g);
        }
        self.choose_scan_start(g, helper);
        self.choose_stamped(g);
        self.schedule.rare_at_eval = self.rare.len() as u64;
        self.schedule.eval_allowed_from = n + n / 2;
    }
}
