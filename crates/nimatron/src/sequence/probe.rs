//! Step 1 of the sparse method with part of the rare entries compared
//! instead of stamped.
//!
//! Stamping writes one byte per rare entry and position, and the processor
//! commits about one such store per cycle; most of them mark values at or
//! above the answer `v` and are never looked at. So a block stamps most of
//! its far rare entries (the *stamped* part) and finds, for each position,
//! the [`CANDIDATES`] least values of its class left unmarked. Only they can
//! be `v`: every value of the class below the last of them, other than the
//! candidates, is already an option. The other entries (the *compared*
//! part) are then checked against the candidates, all 32 positions of the
//! block at once, with no stores: an entry either hits a candidate or not.
//! `v` is the least candidate that neither the compared entries nor the
//! rest of the position's options hit. When the compared entries hit all
//! the candidates of some positions, those positions take the next
//! [`CANDIDATES`] values and the block compares again; only when every
//! candidate is hit still does a position stamp its compared entries into
//! its row after all and read the row again. (Officers to 10^6, comparing
//! 0.45 of the entries: 10.3% of the positions took a second set and 0.8%
//! stamped, where with one set 10.8% stamped; comparing 0.5, 17.5% and
//! 1.5%. The command line's summary gives these shares.) Stamping them one
//! position at a time costs about three times a block's stamp per entry,
//! so the second compare, which costs as much as the first whatever the
//! number of such positions, took 0.93 to 0.95 of the time on AMD Zen 3
//! (avx2, two threads; 0.965 on one).
//!
//! Which entries are compared matters: with entries picked by a hash of
//! their position, every candidate is hit less often than with the entries
//! of smallest value (see the sparse method's `is_compared`). With a
//! fallback that stamps rather than sets bits one at a time, comparing 0.45
//! of the entries was fastest (Officers to 10^6, avx2: 0.946 of the time
//! of comparing the 0.3 of smallest value on one thread, 0.952 on two);
//! with the second set of candidates, 0.5 is (see [`COMPARED_SHARE`]).
//! Better still, mask evaluations choose the stamped entries from sample
//! positions, greedily (the sparse method's `select` module): on Officers
//! about 470 of its 1 583 entries leave fewer positions with every
//! candidate hit than the half a hash picks (10.7% took a second set to
//! 10^6, against 17.3%), and one thread took 0.89 of the time.
//!
//! The compared entries are only read for the candidates, so a value of the
//! other class that only a compared entry reaches (a pair of two rare
//! heaps) stays in step 2's need list; step 2 looks at every pair, so the
//! result is the same.
//!
//! Blocks compare on the `avx512` and `avx2` paths, whose compares are in
//! `kernel/x86_64/`; [`Probe::compare_plain`] is the reference. The others
//! stamp every entry: on Officers to 10^6 a compare one lane at a time made
//! the `none` path about 1.5 times slower, and one in chunks the compiler
//! vectorises for SSE2 made `portable` about 1.25 times slower, as the
//! stamps it saves are a smaller share of those paths' time.

use super::kernel::Kernels;
use super::values::Cell;

/// Candidates kept per position.
pub(crate) const CANDIDATES: usize = 6;

/// Positions per block (one lane each).
pub(crate) const LANES: usize = 32;

/// The share of a block's far rare entries that is compared rather than
/// stamped. (Officers to 10^6 on avx2, against 0.3 of the entries of
/// smallest value: on one thread 0.35 took 0.971 of the time, 0.4 and 0.45
/// 0.946, and with 8 candidates 0.4 and 0.5 0.970 and 0.971; on two
/// threads 0.4 took 0.962, 0.45 0.952 and 0.5 0.966. With the second set
/// of candidates, on AMD Zen 3: 0.5 took 0.977 of the time of 0.45 on two
/// threads, 0.945 on one, and 0.982 to 10^7; 0.55 about the same as 0.5,
/// 0.65 1.13 times and 0.75 1.44 times, as more positions spend both sets.)
pub(crate) const COMPARED_SHARE: f64 = 0.5;

/// A candidate slot with no candidate in it: never an option, as options
/// are below the row width (at most 2^15 for one- and two-byte values).
pub(crate) const NONE: u16 = u16::MAX;

/// The candidates of a block and what the compared entries hit.
#[derive(Clone, Debug)]
pub(crate) struct Probe {
    /// `cand[k][j]`: the `k`-th least value of lane `j`'s class that no
    /// stamped entry hits, or [`NONE`].
    pub(crate) cand: [[u16; LANES]; CANDIDATES],
    /// Bit `j` of `alive[k]`: no compared entry hits `cand[k][j]`.
    pub(crate) alive: [u32; CANDIDATES],
}

impl Default for Probe {
    fn default() -> Probe {
        Probe {
            cand: [[NONE; LANES]; CANDIDATES],
            alive: [u32::MAX; CANDIDATES],
        }
    }
}

impl Probe {
    /// Starts a block: no candidates, nothing hit.
    pub fn clear(&mut self) {
        self.cand = [[NONE; LANES]; CANDIDATES];
        self.alive = [u32::MAX; CANDIDATES];
    }

    /// Sets lane `j`'s candidates: the least values of `class` (bit `x`
    /// of word `x / 64`) not in `hit` (which covers fewer words; values
    /// past it are never hit). Values from 2^16 - 1 up are not kept.
    pub fn set_lane(&mut self, j: usize, class: &[u64], hit: &[u64]) {
        self.set_lane_after(j, class, hit, 0);
    }

    /// [`Probe::set_lane`], but the lane's candidates are the least values
    /// of `class` not in `hit` after the first `skip` of them.
    pub fn set_lane_after(&mut self, j: usize, class: &[u64], hit: &[u64], skip: usize) {
        let mut skip = skip;
        let mut k = 0;
        for (w, &c) in class.iter().enumerate() {
            let mut free = c & !hit.get(w).copied().unwrap_or(0);
            while free != 0 {
                let x = w * 64 + free.trailing_zeros() as usize;
                if x >= NONE as usize || k == CANDIDATES {
                    return;
                }
                free &= free - 1;
                if skip > 0 {
                    skip -= 1;
                    continue;
                }
                self.cand[k][j] = x as u16;
                k += 1;
            }
        }
    }

    /// Checks the entries `(a, r)` against the candidates: lane `j` pairs
    /// with `g[start - a + j]`, whose option is `r ^ g[start - a + j]`.
    /// The entries are in order of `a`, every `start - a + LANES` must be
    /// at most `g.len()`, and every value below 2^15.
    pub fn compare<T: Cell>(
        &mut self,
        kernels: &Kernels,
        g: &[T],
        start: usize,
        entries: &[(u64, u32)],
    ) {
        kernels.compare(self, g, start, entries);
    }

    /// [`Probe::compare`] one lane at a time.
    pub fn compare_plain<T: Cell>(&mut self, g: &[T], start: usize, entries: &[(u64, u32)]) {
        for &(a, r) in entries {
            let base = start - a as usize;
            for (j, b) in g[base..base + LANES].iter().enumerate() {
                let x = r ^ b.get();
                for (alive, cand) in self.alive.iter_mut().zip(&self.cand) {
                    if x == cand[j] as u32 {
                        *alive &= !(1 << j);
                    }
                }
            }
        }
    }

    /// The lanes whose [`CANDIDATES`] candidates are all there and all hit
    /// by the compared entries: their value lies past the candidates,
    /// whatever else they hit.
    pub fn spent_lanes(&self) -> u32 {
        let mut spent = u32::MAX;
        for (cand, &alive) in self.cand.iter().zip(&self.alive) {
            let mut present = 0u32;
            for (j, &c) in cand.iter().enumerate() {
                present |= ((c != NONE) as u32) << j;
            }
            spent &= present & !alive;
        }
        spent
    }

    /// Lane `j`'s value: its least candidate that no compared entry hits and
    /// that is not set in `hit` (the lane's other options; values from
    /// `64 * hit.len()` up are never options). `None` when every candidate
    /// is hit: the answer is above them, and the lane must be stamped.
    #[inline(never)]
    pub fn lane_value(&self, j: usize, hit: &[u64]) -> Option<u32> {
        for (cand, alive) in self.cand.iter().zip(self.alive) {
            let x = cand[j];
            if x == NONE {
                return None;
            }
            let x = x as usize;
            let taken = hit.get(x / 64).is_some_and(|w| w >> (x % 64) & 1 != 0);
            if alive >> j & 1 != 0 && !taken {
                return Some(x as u32);
            }
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::super::kernel::Simd;
    use super::*;

    fn rng(seed: u64) -> impl FnMut() -> u64 {
        let mut s = seed;
        move || {
            s = s
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            s >> 33
        }
    }

    /// The compare of every path and the plain one agree, and both match a direct
    /// count of which candidates some entry hits.
    #[test]
    fn compare_matches_direct_check() {
        let mut next = rng(7);
        let mut drops = 0;
        // Fewer rounds under Miri (scripts/miri-tests.sh), which is slow.
        for round in 0..if cfg!(miri) { 3 } else { 200 } {
            let limit = if round % 2 == 0 { 512 } else { 256 };
            let g16: Vec<u16> = (0..3000).map(|_| (next() % limit) as u16).collect();
            let g8: Vec<u8> = g16.iter().map(|&v| (v % 256) as u8).collect();
            let start = 2000;
            let mut entries: Vec<(u64, u32)> = (0..(next() % 300) as usize)
                .map(|_| (next() % 1900 + 1, (next() % limit) as u32))
                .collect();
            // In order of position, as the compare takes them.
            entries.sort_unstable();
            let mut probe = Probe::default();
            for j in 0..LANES {
                // A free set of about an eighth of the values, or (one
                // round in four, of values below 512) a sixty-fourth, whose
                // candidates spread past what a byte holds.
                let free: Vec<u64> = (0..limit / 64)
                    .map(|_| {
                        let w = next() << 31 ^ next();
                        let w = w & (next() << 31 ^ next()) & (next() << 31 ^ next());
                        if round % 4 == 2 {
                            w & (next() << 31 ^ next())
                                & (next() << 31 ^ next())
                                & (next() << 31 ^ next())
                        } else {
                            w
                        }
                    })
                    .collect();
                probe.set_lane(j, &free, &[]);
            }
            for use_u8 in [false, true] {
                let mut plain = probe.clone();
                if use_u8 {
                    plain.compare_plain(&g8, start, &entries);
                } else {
                    plain.compare_plain(&g16, start, &entries);
                }
                for path in Simd::available() {
                    let kernels = Kernels::get(path).expect("an available path");
                    let mut fast = probe.clone();
                    if use_u8 {
                        fast.compare(kernels, &g8, start, &entries);
                    } else {
                        fast.compare(kernels, &g16, start, &entries);
                    }
                    // A path may drop a lane's candidates from one more
                    // than 254 past its least less one (past 254 with one-byte
                    // values) on; the candidates it keeps are hit alike.
                    for j in 0..LANES {
                        let least = probe.cand[0][j];
                        let reach = if use_u8 {
                            254
                        } else {
                            least.saturating_sub(1) + 254
                        };
                        let mut dropped = false;
                        for k in 0..CANDIDATES {
                            let (was, now) = (probe.cand[k][j], fast.cand[k][j]);
                            if now == NONE && was != NONE {
                                assert!(dropped || was > reach, "round {round} {path} lane {j}");
                                dropped = true;
                                drops += 1;
                                continue;
                            }
                            assert_eq!(now, was, "round {round} {path} lane {j}");
                            if now != NONE {
                                assert!(!dropped, "round {round} {path} lane {j}");
                                assert_eq!(
                                    fast.alive[k] >> j & 1,
                                    plain.alive[k] >> j & 1,
                                    "round {round} u8 {use_u8} {path} lane {j} candidate {k}"
                                );
                            }
                        }
                    }
                }
                for k in 0..CANDIDATES {
                    for j in 0..LANES {
                        let c = probe.cand[k][j] as u32;
                        let hit = entries.iter().any(|&(a, r)| {
                            let b = start - a as usize + j;
                            let v = if use_u8 { g8[b] as u32 } else { g16[b] as u32 };
                            r ^ v == c
                        });
                        assert_eq!(
                            plain.alive[k] >> j & 1 == 0,
                            hit,
                            "round {round} k {k} j {j}"
                        );
                    }
                }
            }
        }
        // The AVX2 compare dropped candidates, and kept the rest right.
        if Simd::available().contains(&Simd::Avx2) {
            assert!(drops > 100, "{drops} candidates dropped");
        }
    }

    /// Candidates are the least free values, and a lane's value is the
    /// least candidate hit by nothing.
    #[test]
    fn lane_value_is_least_unhit_candidate() {
        let mut probe = Probe::default();
        // Lane 3: free values 5, 9, 70, 71, 200, 300, 400 (only six kept),
        // from a class with 2, 5, 9, 70, 71, 200, 300, 400 and 600 and
        // option 2 (values past the one word of options are free).
        let mut class = [0u64; 16];
        for x in [2usize, 5, 9, 70, 71, 200, 300, 400, 600] {
            class[x / 64] |= 1 << (x % 64);
        }
        probe.set_lane(3, &class, &[1 << 2]);
        assert_eq!(probe.cand.map(|c| c[3]), [5, 9, 70, 71, 200, 300]);
        assert_eq!(probe.lane_value(3, &[0; 8]), Some(5));
        // An entry hitting 5 at lane 3: g[start - a + 3] ^ r == 5.
        let g = vec![1u16; 100];
        probe.compare_plain(&g, 50, &[(10, 4)]);
        assert_eq!(probe.lane_value(3, &[0; 8]), Some(9));
        // Another option of the lane hits 9 and 70.
        let mut hit = [0u64; 8];
        hit[0] |= 1 << 9;
        hit[1] |= 1 << 6;
        assert_eq!(probe.lane_value(3, &hit), Some(71));
        // Every candidate hit: the lane must be stamped.
        for x in [71usize, 200, 300] {
            hit[x / 64] |= 1 << (x % 64);
        }
        assert_eq!(probe.lane_value(3, &hit), None);
        // A lane with no candidates at all.
        assert_eq!(probe.lane_value(0, &hit), None);
    }

    /// A lane is spent when it has all its candidates and the compared
    /// entries hit every one; its second set is the free values after the
    /// first [`CANDIDATES`].
    #[test]
    fn spent_lanes_and_the_second_set() {
        let mut class = [0u64; 16];
        let values = [
            2usize, 5, 9, 70, 71, 200, 300, 400, 600, 601, 700, 900, 1000,
        ];
        for x in values {
            class[x / 64] |= 1 << (x % 64);
        }
        // Lane 3 has its six candidates (5 to 400, 2 being an option);
        // lane 4 has only two (its class is 5 and 9).
        let mut probe = Probe::default();
        probe.set_lane(3, &class, &[1 << 2]);
        probe.set_lane(4, &[1 << 5 | 1 << 9], &[]);
        assert_eq!(probe.spent_lanes(), 0);
        // An entry (10, x) pairs lane j with g[60 - 10 + j], so with
        // g[53] = 0 it hits x at lane 3.
        let mut g = vec![1000u16; 200];
        g[53] = 0;
        for x in [5u32, 9, 70, 71, 200] {
            probe.compare_plain(&g, 60, &[(10, x)]);
        }
        // Five of six hit: not spent.
        assert_eq!(probe.spent_lanes(), 0);
        probe.compare_plain(&g, 60, &[(10, 300)]);
        assert_eq!(probe.spent_lanes(), 1 << 3);
        // Lane 4 with both of its two candidates hit is not spent: it has
        // fewer than six, so the value may lie past them without a second set.
        g[54] = 0;
        probe.compare_plain(&g, 60, &[(10, 5), (10, 9)]);
        assert_eq!(probe.lane_value(4, &[0; 16]), None);
        assert_eq!(probe.spent_lanes() & 1 << 4, 0);
        // The second set: the free values after the first six.
        let mut retry = Probe::default();
        retry.set_lane_after(3, &class, &[1 << 2], CANDIDATES);
        assert_eq!(retry.cand.map(|c| c[3]), [400, 600, 601, 700, 900, 1000]);
        retry.set_lane_after(5, &class, &[1 << 2], CANDIDATES + 4);
        assert_eq!(
            retry.cand.map(|c| c[5]),
            [900, 1000, NONE, NONE, NONE, NONE]
        );
    }
}
