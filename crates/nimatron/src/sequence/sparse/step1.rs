//! Step 1 of the sparse method: the options of a block of positions that
//! come from the rare entries (and the simple moves), stamped into a byte
//! row per position or compared against candidates (see [`probe`]), and
//! from them `v`, the least unmarked value of the sparse class, with the
//! need set step 2 must cover.

use super::super::kernel;
use super::super::kernel::stamp::{stamp_block, stamp_lane, stamp_rows};
use super::super::naive::{StepError, mark_simple_options};
use super::super::probe;
use super::super::values::Cell;
use super::pipeline::split_point;
use super::{BLOCK, MAX_SPLITS, Sparse};

impl Sparse {
    /// Sorts the rare entries into stamped and compared ones: about
    /// [`probe::COMPARED_SHARE`] of them, picked by a hash of their
    /// position (see [`Sparse::is_compared`]). Mask evaluations then choose
    /// the stamped ones from the values (see [`Sparse::choose_stamped`]);
    /// entries found later go by the hash.
    pub(super) fn split_rare(&mut self) {
        self.chosen = (0, 0);
        self.stamped.clear();
        self.compare_list.clear();
        for &(a, r) in &self.rare {
            if self.is_compared(a) {
                self.compare_list.push((a, r));
            } else {
                self.stamped.push((a, r));
            }
        }
    }

    /// Whether the rare entry at position `a` is compared rather than
    /// stamped (when blocks compare): a hash of the position below
    /// [`probe::COMPARED_SHARE`] of its range.
    ///
    /// Modelled on Officers' values (a few hundred positions from 2·10^5
    /// to 10^6; the share of positions whose candidates are all hit, with 6
    /// and 8 candidates): comparing a share of 0.4 of the entries picked this way
    /// left 4% and 1% of them, where comparing the entries of smallest
    /// value, as the compare first did, left 9% and 2%; at a share of 0.5,
    /// 13% and 4% against 22% and 11%.
    pub(super) fn is_compared(&self, a: u64) -> bool {
        self.probing && ((a as u32).wrapping_mul(0x9E37_79B9) as u64) < COMPARE_CUT
    }

    /// Step 1 for the far rare entries of the block `n0..n0 + len`
    /// (`n0 = g.len()`): stamps `r ^ G(b)` into the block's rows for every
    /// rare entry `(a, r)` whose partner `b` lies before `n0` at every
    /// position of the block. Returns, per split digit, the range of the
    /// rare list that was handled here; the per-position pass does the rest.
    pub(super) fn far_pass<T: Cell>(
        &mut self,
        g: &[T],
        len: usize,
        shared: Option<(f64, usize)>,
    ) -> [(usize, usize); MAX_SPLITS] {
        let n0 = g.len();
        let width = self.stride();
        let mut handled = [(0usize, 0usize); MAX_SPLITS];
        self.plan_stamped = false;
        self.compare_far = [(0, 0); MAX_SPLITS];
        self.compared = [(0, 0); MAX_SPLITS];
        // Full blocks of one- and two-byte values below 2^15 compare the
        // entries of `compare_list` (see `probe`); other blocks stamp them.
        self.comparing = self.probing
            && len == BLOCK
            && std::mem::size_of::<T>() <= 2
            && width <= 1 << 15
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
            // With a helper, this thread takes its share of the entries the
            // helper knows of, every one of those it cannot take (see
            // `helper_far_pass`), and those committed since the round began.
            let (mine, since) = match shared {
                Some((share, known)) => {
                    let known = known.clamp(lo, hi);
                    (
                        split_point(&self.stamped[..known], lo, known, hi_a, share),
                        known,
                    )
                }
                None => (hi, hi),
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
            stamp(&self.stamped[since..hi]);
            stamp(&self.compare_list[cut..c_hi]);
        }
        self.plan_stamped = self.stamp_plan(g, len);
        handled
    }

    /// Stamps the pairs of the scan plan's first steps into the block's
    /// rows, as if their smaller heaps were rare entries, where every
    /// position of the block would scan them first in step 2 (one split
    /// digit, a plan, its pairs' partners all before the block). Their
    /// values are then options before step 2 begins, which skips those
    /// steps. The stamps cost about what step 2's first marking of the same
    /// pairs did; what is saved is the work around that marking (the
    /// values, the marking table, crossing off): Officers to 10^6 took
    /// 0.978 of the time on one thread, and from 0.94 to 1.0 on two in
    /// separate sets of alternating runs. Returns whether it stamped them.
    fn stamp_plan<T: Cell>(&mut self, g: &[T], len: usize) -> bool {
        let n0 = g.len();
        let [k] = self.rule.split_two[..] else {
            return false;
        };
        let k = k as usize;
        if self.scan_steps.len() < kernel::DENSE_STEPS || std::mem::size_of::<T>() != 2 {
            return false;
        }
        if !std::sync::Arc::ptr_eq(&self.plan_of, &self.scan_steps) {
            self.plan_of = self.scan_steps.clone();
            self.plan_entries.clear();
            for &b in &self.scan_steps[..kernel::DENSE_STEPS] {
                let b = b as usize;
                for (a, x) in g[b..b + kernel::STEP].iter().enumerate() {
                    self.plan_entries.push(((b + a) as u64, x.get()));
                }
            }
            self.plan_entries.sort_unstable();
            self.plan_entries.dedup();
        }
        let (Some(&(first, _)), Some(&(last, _))) =
            (self.plan_entries.first(), self.plan_entries.last())
        else {
            return false;
        };
        // Partners before the block (a >= BLOCK - k), and every pair a
        // two-heap move of the block's first position (a <= its half).
        let half = n0.saturating_sub(k) / 2;
        if (first as usize) < BLOCK.saturating_sub(k).max(1) || last as usize > half {
            return false;
        }
        let width = self.stride();
        let rows = &mut self.rows[..len * width + ROW_SLACK];
        stamp_entries(
            rows,
            width,
            g,
            n0,
            len,
            k,
            &self.plan_entries,
            self.rule.unequal,
            self.tag,
        );
        true
    }

    /// After the far pass of the block `g.len()..g.len() + len`: reads each
    /// position's stamped options (and the helper's, `extra`) into
    /// `lane_hits`, takes its candidates from them, then checks the compared
    /// entries against the candidates.
    pub(super) fn prepare_probe<T: Cell>(&mut self, g: &[T], len: usize, extra: Option<&[u64]>) {
        let n0 = g.len();
        let width = self.stride();
        let words = width / 64;
        self.probe.clear();
        self.lane_hits.resize(BLOCK * words, 0);
        for j in 0..len {
            let class = self.sparse_class((n0 + j) as u64);
            let hit = &mut self.lane_hits[j * words..(j + 1) * words];
            self.kernels
                .byte_bits(&self.rows[j * width..(j + 1) * width], self.tag, hit);
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
                self.probe.compare(
                    self.kernels,
                    g,
                    n0 - k as usize,
                    &self.compare_list[from..to],
                );
            }
        }
        // Lanes whose candidates were all hit take the next ones, and the
        // block compares again (see `probe`).
        let lanes = if len == BLOCK {
            u32::MAX
        } else {
            (1u32 << len) - 1
        };
        let spent = self.probe.spent_lanes() & lanes;
        self.retried = 0;
        if spent == 0 {
            return;
        }
        self.retry.clear();
        let mut left = spent;
        while left != 0 {
            let j = left.trailing_zeros() as usize;
            left &= left - 1;
            let class = self.sparse_class((n0 + j) as u64);
            let hit = &self.lane_hits[j * words..(j + 1) * words];
            self.retry
                .set_lane_after(j, &self.class_bits[class], hit, probe::CANDIDATES);
        }
        for (slot, &k) in self.rule.split_two.iter().enumerate() {
            let (from, to) = self.compared[slot];
            if from < to {
                self.retry.compare(
                    self.kernels,
                    g,
                    n0 - k as usize,
                    &self.compare_list[from..to],
                );
            }
        }
        self.retried = spent;
        self.counters.retried_lanes += spent.count_ones() as u64;
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
    pub(super) fn finish_row<T: Cell>(
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
            if probed.is_none() && self.retried >> j & 1 != 0 {
                probed = self.retry.lane_value(j, hit);
            }
            if probed.is_none() {
                self.counters.stamped_lanes += 1;
                // Every candidate is an option: stamp the compared entries
                // into the row after all (their partners are all before the
                // block), and read the row again. (Setting bits one by one
                // took more than twice as long: each waits for the last.)
                let row = &mut self.rows[j * width..(j + 1) * width];
                for (slot, &k) in self.rule.split_two.iter().enumerate() {
                    let (from, to) = self.compared[slot];
                    if from == to {
                        // Also every digit k > n: no entry is compared.
                        continue;
                    }
                    stamp_lane(row, g, n - k as usize, &self.compare_list[from..to], tag);
                }
                for (bytes, words) in row.chunks(512).zip(hit.chunks_mut(8)) {
                    let mut again = [0u64; 8];
                    let again = &mut again[..words.len()];
                    self.kernels.byte_bits(bytes, tag, again);
                    for (h, a) in words.iter_mut().zip(again.iter()) {
                        *h |= a;
                    }
                }
            }
        } else {
            self.kernels
                .byte_bits(&self.rows[j * width..(j + 1) * width], tag, hit);
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
        // The class sets reach past every option of values that are the
        // game's; values that are not (resumed from a checkpoint whose
        // values were altered, found by the fuzzer) may leave none free.
        let v = match probed {
            Some(v) => v,
            None => in_class
                .iter()
                .enumerate()
                .find_map(|(w, &c)| {
                    let free = c & !hit_at(w);
                    (free != 0).then(|| w as u32 * 64 + free.trailing_zeros())
                })
                .ok_or(StepError::Inconsistent(n64))?,
        };
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

/// The hash threshold of [`Sparse::is_compared`]: [`probe::COMPARED_SHARE`]
/// of the 32-bit range.
const COMPARE_CUT: u64 = (probe::COMPARED_SHARE * (1u64 << 32) as f64) as u64;

/// Moves on to the next tag of a set of rows (rows hold the tag of the
/// block that last stamped them); when the tags run out, clears the rows.
pub(super) fn next_tag(tag: &mut u8, rows: &mut [u8]) {
    *tag = tag.wrapping_add(1);
    if *tag == 0 {
        rows.fill(0);
        *tag = 1;
    }
}

pub(super) use super::super::kernel::stamp::ROW_SLACK;

/// The index range of the rare entries with `lo_a <= a <= hi_a`.
pub(super) fn far_range(rare: &[(u64, u32)], lo_a: usize, hi_a: usize) -> (usize, usize) {
    let lo = rare.partition_point(|&(a, _)| (a as usize) < lo_a);
    let hi = rare.partition_point(|&(a, _)| (a as usize) <= hi_a);
    (lo, hi.max(lo))
}

/// Stamps `r ^ G(n0 + j - k - a)` into row `j` (rows of `width` bytes for
/// positions `n0..n0 + len`) for every entry `(a, r)`; every partner must be
/// in `g`. With unequal splits the pair `(a, a)` is no move.
#[allow(clippy::too_many_arguments)]
pub(super) fn stamp_entries<T: Cell>(
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

#[cfg(test)]
mod tests {
    use super::super::super::kernel::Simd;
    use super::super::tests::rule;
    use super::*;

    /// With unequal splits a block compares only rare entries whose twin
    /// `(a, a)` lies before the block; the others are stamped, which skips
    /// the twin.
    #[test]
    fn unequal_splits_compare_only_entries_without_a_twin_in_the_block() {
        let mut sparse = Sparse::new(rule("grundy"), Simd::best());
        sparse.probing = true;
        let g: Vec<u16> = (0..1000).map(|i| (i % 7) as u16).collect();
        sparse.compare_list = vec![(100, 1), (300, 1), (480, 1), (499, 1), (500, 1), (600, 1)];
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
}
