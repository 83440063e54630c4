//! Which rare entries step 1 stamps and which it compares (see [`probe`]).
//!
//! The stamped entries must reach every value of a position's sparse class
//! below its `v` but a few, or the compared entries hit all the candidates
//! (the least values left unmarked) and the position takes a second set,
//! or stamps after all. Entries differ in how well they do that: the
//! value an entry `(a, r)` gives a position is `r ^ G(b)`, and the values
//! of `G` are far from uniform, so some entries reach the values that
//! others rarely do. So the stamped entries are chosen greedily from
//! sample positions, as step 2's scan plan is: each pick is the entry that
//! reaches the most values of the samples not reached yet, until they are
//! left with half such a value each on average ([`LEFT`]). A choice
//! takes a few milliseconds on one thread, so it is made again only when
//! the entries have grown by a quarter or the values sixteenfold.
//!
//! On Officers (0.6) near 10^6, modelled from its values: stamping a half
//! of the 1 583 entries picked by a hash of their position, as step 1 did
//! before, left 16.7% of the positions with their first candidates all hit;
//! stamping the 508 entries this picks from 256 positions before 2^15 left
//! 7.4% of those near 9·10^5 (with 1 024 samples, 612 entries left 0.9%:
//! more samples pick better, and cost more). In the run to 10^6 the share
//! was 10.7%, and one thread took 0.89 of the time.
//!
//! [`probe`]: super::super::probe

use super::super::values::Cell;
use super::{MAX_SPLITS, Sparse};

/// Sample positions the stamped entries are chosen from: the last ones
/// before the choice.
const SAMPLES: usize = 256;

/// The choice stops once the samples are left with this many values in
/// all (half a value each on average) that the stamped entries do not
/// reach.
const LEFT: usize = SAMPLES / 2;

/// At least one entry in this many is stamped: with fewer, the samples
/// can look covered while the positions after them are not (on 0.376, 24
/// of 470 entries chosen at 2^17 left a fifth of the positions to 10^6
/// with every candidate hit, and two threads took 1.14 times as long).
const FEWEST: usize = 4;

/// The widest rows the choice is made for (values of two bytes).
const WIDTH_LIMIT: usize = 1 << 15;

/// No value (an entry with no pair at a sample).
const NONE: u16 = u16::MAX;

impl Sparse {
    /// Chooses the stamped entries from the last [`SAMPLES`] positions of
    /// `g` (see the module notes) and sorts the rare entries into
    /// `stamped` and `compare_list` by it. Leaves them as they are when
    /// blocks do not compare, or the values are too few or too wide.
    pub(super) fn choose_stamped<T: Cell>(&mut self, g: &[T]) {
        let n = g.len();
        let width = self.stride();
        // Again only when the entries have grown by a quarter since the
        // last choice, or the values are 16 times as many (each choice
        // takes a few milliseconds on one thread).
        let (then_len, then_n) = self.chosen;
        if then_len > 0 && self.rare.len() < then_len + then_len / 4 && n < 16 * then_n {
            return;
        }
        let digits = self.rule.split_two.len();
        if !self.probing
            || self.rare.is_empty()
            || n < 2 * SAMPLES
            || width > WIDTH_LIMIT
            || digits == 0
            || digits > MAX_SPLITS
        {
            return;
        }
        let count = self.rare.len();
        let words = width / 64;
        let first = n - SAMPLES;
        // xs[(i * digits + e) * SAMPLES + s]: the value entry i gives sample
        // s (position first + s) through split digit e, or NONE. Entry by
        // entry, so that a pick reads one run, and the partners of an
        // entry are one run of g.
        let mut xs = vec![NONE; count * digits * SAMPLES];
        let mut hit = vec![0u64; SAMPLES * words];
        for (i, &(a, r)) in self.rare.iter().enumerate() {
            let a = a as usize;
            for (e, &k) in self.rule.split_two.iter().enumerate() {
                let k = k as usize;
                let run = &mut xs[(i * digits + e) * SAMPLES..][..SAMPLES];
                // Sample s pairs a with b = first + s - k - a, a heap when
                // b >= 1.
                let lo = (1 + k + a).saturating_sub(first);
                if lo >= SAMPLES {
                    continue;
                }
                let partners = &g[first + lo - k - a..first + SAMPLES - k - a];
                for (s, (x_out, b)) in run[lo..].iter_mut().zip(partners).enumerate() {
                    let x = (r ^ b.get()) as usize & (width - 1);
                    *x_out = x as u16;
                    hit[(lo + s) * words + x / 64] |= 1 << (x % 64);
                }
                // With unequal splits, (a, a) is no move.
                if let Some(s) = (2 * a + k)
                    .checked_sub(first)
                    .filter(|&s| self.rule.unequal && s < SAMPLES)
                {
                    run[s] = NONE;
                }
            }
        }
        // Each sample's `v` (from the rare entries alone). Its values below
        // `v` are cells `starts[s]..starts[s] + v`; `open` marks those an
        // entry reaches and no stamped one does yet.
        let mut starts = vec![0usize; SAMPLES + 1];
        let mut open = Vec::new();
        for s in 0..SAMPLES {
            let class = &self.class_bits[self.sparse_class((first + s) as u64)];
            let hit = &hit[s * words..(s + 1) * words];
            let v = (0..words)
                .find_map(|w| {
                    let free = class[w] & !hit[w];
                    (free != 0).then(|| w * 64 + free.trailing_zeros() as usize)
                })
                .unwrap_or(width);
            open.extend((0..v).map(|x| (class[x / 64] & hit[x / 64]) >> (x % 64) & 1 != 0));
            starts[s + 1] = open.len();
        }
        let mut total_left = open.iter().filter(|&&o| o).count();
        if total_left == 0 {
            return;
        }
        // The open cells each entry reaches (entry by entry: reach[ends[i]..
        // ends[i + 1]]), and the entries reaching each cell (cell by cell:
        // reached_by[firsts[c]..firsts[c + 1]]).
        // Without branches: a cell out of range or closed goes to the
        // spare slot past the end, and is written over.
        let spare = open.len();
        let mut reach = vec![0u32; count * digits * SAMPLES + 1];
        let mut len = 0;
        let mut ends = vec![0usize; count + 1];
        let mut firsts = vec![0u32; open.len() + 2];
        for i in 0..count {
            for run in xs[i * digits * SAMPLES..(i + 1) * digits * SAMPLES].chunks_exact(SAMPLES) {
                for (s, &x) in run.iter().enumerate() {
                    let c = starts[s] + x as usize;
                    let good = (c < starts[s + 1]) & open[c.min(spare - 1)];
                    let c = if good { c } else { spare };
                    reach[len] = c as u32;
                    len += good as usize;
                    firsts[c + 1] += 1;
                }
            }
            ends[i + 1] = len;
        }
        reach.truncate(len);
        for c in 1..firsts.len() {
            firsts[c] += firsts[c - 1];
        }
        let mut reached_by = vec![0u32; len];
        let mut fill = firsts.clone();
        for i in 0..count {
            for &c in &reach[ends[i]..ends[i + 1]] {
                reached_by[fill[c as usize] as usize] = i as u32;
                fill[c as usize] += 1;
            }
        }
        drop(fill);
        let mut gains: Vec<i64> = (0..count).map(|i| (ends[i + 1] - ends[i]) as i64).collect();
        // Greedy picks, never more than half of the entries (the share
        // stamped before the choice was made).
        const TAKEN: i64 = i64::MIN / 2;
        let mut stamped = vec![false; count];
        let mut picks = 0;
        while (total_left > LEFT || picks < count / FEWEST) && picks < count / 2 {
            let Some((i, &gain)) = gains
                .iter()
                .enumerate()
                .max_by_key(|&(i, &gain)| (gain, std::cmp::Reverse(i)))
            else {
                break;
            };
            if gain <= 0 {
                break;
            }
            stamped[i] = true;
            gains[i] = TAKEN;
            picks += 1;
            for &c in &reach[ends[i]..ends[i + 1]] {
                let c = c as usize;
                if open[c] {
                    open[c] = false;
                    total_left -= 1;
                    for &j in &reached_by[firsts[c] as usize..firsts[c + 1] as usize] {
                        gains[j as usize] -= 1;
                    }
                }
            }
        }
        // Short of the fewest (the samples all covered), the hash fills up.
        for (i, &(a, _)) in self.rare.iter().enumerate() {
            if picks >= count / FEWEST {
                break;
            }
            if !stamped[i] && !self.is_compared(a) {
                stamped[i] = true;
                picks += 1;
            }
        }
        self.chosen = (count, n);
        self.stamped.clear();
        self.compare_list.clear();
        for (&entry, &stamp) in self.rare.iter().zip(&stamped) {
            if stamp {
                self.stamped.push(entry);
            } else {
                self.compare_list.push(entry);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::tests::{rule, sparse};
    use super::*;

    /// The values below `v` of the last [`SAMPLES`] positions of `g` that
    /// none of `entries` reaches, counted pair by pair.
    fn left_by(sparse: &Sparse, g: &[u16], entries: &[(u64, u32)]) -> usize {
        let n = g.len();
        let mut left = 0;
        for p in n - SAMPLES..n {
            let reached = |list: &[(u64, u32)]| {
                let mut seen = vec![false; sparse.stride()];
                for &(a, r) in list {
                    for &k in &sparse.rule.split_two {
                        let b = p as i64 - k as i64 - a as i64;
                        if b >= 1 {
                            seen[(r ^ g[b as usize] as u32) as usize] = true;
                        }
                    }
                }
                seen
            };
            let all = reached(&sparse.rare);
            let mine = reached(entries);
            let class = sparse.sparse_class(p as u64);
            let in_class = |x: usize| sparse.class[x] as usize == class;
            let v = (0..all.len())
                .find(|&x| in_class(x) && !all[x])
                .expect("a free value");
            left += (0..v)
                .filter(|&x| in_class(x) && all[x] && !mine[x])
                .count();
        }
        left
    }

    /// On Officers past its last rare position, the entries chosen leave the
    /// samples at most `LEFT` values unreached, counted pair by pair, with
    /// at most half of the entries; the half a hash picks leaves more.
    #[test]
    fn the_chosen_entries_reach_more_than_the_hashed_half() {
        let (g, mut sparse) = sparse(&rule("0.6"), true, false, 1, 40_000);
        sparse.split_rare();
        let hashed = sparse.stamped.clone();
        sparse.choose_stamped(&g);
        let chosen = sparse.stamped.clone();
        assert!(chosen.len() <= sparse.rare.len() / 2 && !chosen.is_empty());
        let (by_chosen, by_hash) = (left_by(&sparse, &g, &chosen), left_by(&sparse, &g, &hashed));
        assert!(by_chosen <= LEFT, "{by_chosen}");
        assert!(by_hash > 4 * by_chosen, "{by_hash} against {by_chosen}");
    }
}
