//! Step 2 of the sparse method: the search for the need set among all the
//! two-heap options of a position, where it begins and the plan of steps
//! it takes first, the reversed copy of the first values it reads, and the
//! positions whose step 2 waits for another thread ([`Deferred`],
//! [`Verdict`]).

use super::super::game::TakeBreak;
use super::super::kernel::{self, Kernels, Simd};
use super::super::parallel::Pair;
use super::super::values::Cell;
use super::{MAX_SPLITS, Sparse};
use std::ops::Range;
use std::sync::Arc;

impl Sparse {
    /// Makes [`Sparse::front`] once the values it holds are known; every
    /// value in `g` must be final.
    pub(super) fn keep_front<T: Cell>(&mut self, g: &[T]) {
        if self.fronting
            && self.front.is_none()
            && std::mem::size_of::<T>() == 2
            && g.len() >= kernel::FRONT
        {
            self.front = Some(kernel::front_copy(g, kernel::FRONT).into());
        }
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
    /// values. The same samples choose the scan plan that scans follow
    /// before the start (see [`plan_steps`]).
    ///
    /// With a helper thread, both threads share the work, half the samples each
    /// (the choices are the same).
    pub(super) fn choose_scan_start<T: Cell>(&mut self, g: &[T], helper: Option<&Pair<'_>>) {
        self.scan_start = 1;
        let n = g.len();
        if self.schedule.mask == 0 || n < SCAN_SAMPLE_FROM || self.rule.split_two.is_empty() {
            self.scan_steps = Arc::from([]);
            return;
        }
        let xlimit = self.stride();
        let samples = self.scan_samples(g);
        let mut candidates = vec![1usize];
        let mut c = 256.0f64;
        while (c as usize) < (n / 8).min(SCAN_CAP / 2) {
            candidates.push(c as usize);
            c *= std::f64::consts::SQRT_2;
        }
        let kernels = self.kernels;
        let estimate = |range: Range<usize>| {
            let mut cost = vec![0u64; candidates.len()];
            let mut bits = vec![0u64; samples.words.max(8)];
            for i in range {
                // The estimate ignores pairs past SCAN_CAP, which bounds its cost.
                let (m, half) = samples.sizes[i];
                let half = half.min(SCAN_CAP);
                let need = samples.need(i);
                let count: usize = need.iter().map(|w| w.count_ones() as usize).sum();
                for (j, &start) in candidates.iter().enumerate() {
                    bits[..need.len()].copy_from_slice(need);
                    let mut missing = count;
                    cost[j] += kernels.cover(
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
            cost
        };
        let (mut cost, theirs) = halves(helper, samples.sizes.len(), estimate);
        for (c, t) in cost.iter_mut().zip(theirs) {
            *c += t;
        }
        let best = (0..candidates.len())
            .min_by_key(|&j| (cost[j], j))
            .expect("one candidate at least");
        self.scan_start = candidates[best];
        // A plan is made again once the values have doubled since the last
        // or the mask has changed, as the steps are costlier to choose than
        // the start.
        //
        // Only the avx2 path takes plans, with two-byte values below 512: its
        // scan of a list of steps is as quick as of a run. The others scan a
        // step with a call of its own (in a first version, the plan made
        // Officers to 10^6 16% slower on `none` and 6% on `portable`);
        // avx512's batches gain nothing from one (40% slower); one-byte
        // values come from games whose scans are short (Grundy's game 21%
        // slower with one).
        let generation = (n.ilog2(), self.schedule.mask);
        let planned = self.path == Simd::Avx2 && std::mem::size_of::<T>() == 2 && xlimit <= 512;
        if !planned {
            self.scan_steps = Arc::from([]);
        } else if self.scan_steps.is_empty() || generation != self.plan_generation {
            let plan = plan_steps(
                self.kernels,
                g,
                &samples,
                plan_limit(n),
                &mut self.plan_table,
                helper,
            );
            // Kept only where it saves the samples' scans a quarter of their
            // pairs: where need values are often missing (0.04, 0.06 near
            // 10^5), a plan only adds its pairs to full scans.
            let start = self.scan_start;
            let try_plan = |range: Range<usize>| {
                let mut bits = vec![0u64; samples.words.max(8)];
                let mut planned = 0;
                for i in range {
                    let (m, half) = samples.sizes[i];
                    let need = samples.need(i);
                    bits[..need.len()].copy_from_slice(need);
                    let mut missing = need.iter().map(|w| w.count_ones() as usize).sum();
                    planned += kernels.cover_planned(
                        &g[..m],
                        &[],
                        m,
                        half.min(SCAN_CAP),
                        &plan,
                        false,
                        start,
                        xlimit,
                        &mut bits,
                        &mut missing,
                    );
                }
                planned
            };
            let (planned, theirs) = halves(helper, samples.sizes.len(), try_plan);
            let planned = planned + theirs;
            self.scan_steps = if !plan.is_empty() && planned * 4 <= cost[best] * 3 {
                plan.into()
            } else {
                Arc::from([])
            };
            self.plan_generation = generation;
        }
    }

    /// Sample positions from the second half of the values, each with its
    /// need set taken as every value of the class step 2 looks for below
    /// `G(p)`.
    fn scan_samples<T: Cell>(&self, g: &[T]) -> Samples {
        let n = g.len();
        let k = self.k0 as usize;
        let words = self.stride() / 64;
        let step = (n / 2) / SCAN_SAMPLES;
        let mut samples = Samples {
            words,
            sizes: Vec::with_capacity(SCAN_SAMPLES),
            needs: Vec::with_capacity(SCAN_SAMPLES * words),
        };
        for i in 0..SCAN_SAMPLES {
            let p = n - 1 - i * step;
            let m = p - k;
            let half = if self.rule.unequal {
                (m - 1) / 2
            } else {
                m / 2
            };
            let other = &self.class_bits[1 - self.sparse_class(p as u64)];
            let below = g[p].get() as usize;
            for (w, &class) in other.iter().enumerate().take(words) {
                let keep = if (w + 1) * 64 <= below {
                    u64::MAX
                } else if w * 64 < below {
                    (1u64 << (below - w * 64)) - 1
                } else {
                    0
                };
                samples.needs.push(class & keep);
            }
            samples.sizes.push((m, half));
        }
        samples
    }
}

/// The sample positions of [`Sparse::scan_samples`]: `(m, half)` for the
/// one split digit's heap `m = p - k`, and each need set in `words` words.
struct Samples {
    words: usize,
    sizes: Vec<(usize, usize)>,
    needs: Vec<u64>,
}

impl Samples {
    fn need(&self, i: usize) -> &[u64] {
        &self.needs[i * self.words..(i + 1) * self.words]
    }
}

/// `work` over the two halves of `0..len`: the second half on the other
/// thread when there is a helper.
fn halves<A: Send>(
    helper: Option<&Pair<'_>>,
    len: usize,
    work: impl Fn(Range<usize>) -> A + Sync,
) -> (A, A) {
    let half = len / 2;
    match helper {
        Some(helper) => {
            let (theirs, mine) = helper.join(|| work(half..len), || work(0..half));
            (mine, theirs)
        }
        None => (work(0..half), work(half..len)),
    }
}

/// The heap sizes a plan's steps lie below with `n` values: a quarter of
/// them, so that every step lies within the pairs of every sample (from
/// `n / 2` on) and of every position after. (With an eighth, Officers'
/// plans at 2^15 and 2^16 had half the candidates, and step 2 searched
/// 2 302 pairs per value to 2^16 where it now searches 1 936.)
fn plan_limit(n: usize) -> usize {
    n / 4
}

/// The heap sizes a plan's steps lie below: half of the reversed copy
/// ([`kernel::FRONT`]), as the candidates' cost grows with their number.
const PLAN_REACH: usize = kernel::FRONT / 2;

/// Steps in a scan plan: 2 048 pairs, after which scans go on from the
/// scan start.
const PLAN_STEPS: usize = kernel::scan::PLAN_STEPS;

/// A scan plan: [`PLAN_STEPS`] steps of [`kernel::STEP`] pairs, each
/// beginning at one of `1, 1 + STEP, ...` below `limit` and below
/// [`PLAN_REACH`], chosen one after another as the step that finds the most
/// need values of the samples not yet found by the steps before it. (Pairs
/// whose smaller heaps have the values spread over many classes find the
/// need values sooner than any run of consecutive pairs: on Officers near
/// 10^6 the plan leaves 11 of 57 need values after 256 pairs, where the
/// best run leaves 19.) Each step's gain is kept, and a pick takes from
/// every other step only the values it found too. (Recomputing gains as
/// they were taken, a lazy greedy choice, cost 9 ms a plan on Officers
/// past 2^20, with the table. Kept up to date, the choice took 1.3 ms
/// after 3.3 ms for the table, which both threads fill when there is a
/// helper. At 2^19 the table now takes 0.55 ms on two threads, and the
/// choice about 0.45 ms.) The table holds each sample's need values by
/// number, not by value (see below). Every value of a sample's need set
/// must be below 512.
fn plan_steps<T: Cell>(
    kernels: &Kernels,
    g: &[T],
    samples: &Samples,
    limit: usize,
    found: &mut Vec<u64>,
    helper: Option<&Pair<'_>>,
) -> Vec<u32> {
    let step = kernel::STEP;
    let limit = limit.min(PLAN_REACH);
    let candidates: Vec<usize> = (1..)
        .step_by(step)
        .take_while(|&b| b + step <= limit)
        .collect();
    if candidates.len() < PLAN_STEPS || samples.words > 8 {
        return Vec::new();
    }
    // Every other sample: half of them choose steps about as well.
    let chosen: Vec<usize> = (0..samples.sizes.len()).step_by(2).collect();
    // Each sample's need values are numbered 0, 1, ... in order, and its
    // rows hold those numbers as bits: one word for most need sets (under
    // 64 values on Officers), where the values themselves took eight. A
    // table of eight words a sample took 4 MiB (now about 0.8 MiB), and
    // its fresh pages cost the first plan more than filling them.
    //
    // `first[s]..first[s + 1]`: the words of sample s; word r of the
    // table's rows is `found[r * width..(r + 1) * width]`, one entry per
    // candidate. A pick updates the candidates one word at a time, so
    // those lie together.
    let counts: Vec<u32> = chosen
        .iter()
        .map(|&i| samples.need(i).iter().map(|w| w.count_ones()).sum())
        .collect();
    let mut first = vec![0usize];
    for &count in &counts {
        first.push(first.last().copied().unwrap_or(0) + count.div_ceil(64) as usize);
    }
    let total = first[chosen.len()];
    // The numbers not yet found, per word.
    let mut left = vec![0u64; total];
    for (s, &count) in counts.iter().enumerate() {
        let mut count = count;
        for l in &mut left[first[s]..first[s + 1]] {
            *l = if count >= 64 {
                u64::MAX
            } else {
                (1 << count) - 1
            };
            count = count.saturating_sub(64);
        }
    }
    let width = candidates.len();
    if found.len() < total * width {
        // Every entry is written before it is read.
        *found = vec![0; total * width];
    }
    // The rows of the samples `range`, which begin at word
    // `first[range.start]`.
    let fill = |range: Range<usize>, rows: &mut [u64]| {
        let mut rest = rows;
        // Every candidate's pairs lie below `reach`; `xs[a]` is the value of
        // pair (a, m - a) for the sample at hand.
        let reach = candidates.last().map_or(0, |&b| b + step);
        let mut xs = vec![0u16; reach];
        for s in range {
            let words = first[s + 1] - first[s];
            if words == 0 {
                continue;
            }
            let (rows, tail) = std::mem::take(&mut rest).split_at_mut(words * width);
            rest = tail;
            let (m, _) = samples.sizes[chosen[s]];
            // The pairs' values at once (the loads of the larger heaps run
            // backwards, which the compiler vectorises with a shuffle).
            for (x, (p, q)) in xs[1..]
                .iter_mut()
                .zip(g[1..reach].iter().zip(g[m + 1 - reach..m].iter().rev()))
            {
                *x = (p.get() ^ q.get()) as u16 & 511;
            }
            // The need values in order: value number k is bit k % 64 of
            // row word k / 64.
            let mut values = [0u16; 512];
            let mut count = 0;
            for (w, &word) in samples.need(chosen[s]).iter().enumerate() {
                let mut word = word;
                while word != 0 {
                    values[count] = (w * 64 + word.trailing_zeros() as usize) as u16;
                    count += 1;
                    word &= word - 1;
                }
            }
            // Word w of the rows, one pass each: every value's bit among
            // the numbers of that word (none for the other values), ORed
            // in registers. (Setting bits in an array of words instead
            // made each pair wait on the store before it: Officers' table
            // at 2^19 took 1.7 ms to fill on two threads, now 0.55 ms.)
            let mut bit = [0u64; 512];
            for (w, row) in rows.chunks_exact_mut(width).enumerate() {
                bit.fill(0);
                for (k, &x) in values[..count].iter().enumerate().skip(w * 64).take(64) {
                    bit[x as usize] = 1 << (k % 64);
                }
                for (r, &b) in row.iter_mut().zip(&candidates) {
                    let mut acc = [0u64; 4];
                    for quad in xs[b..b + step].chunks_exact(4) {
                        for (acc, &x) in acc.iter_mut().zip(quad) {
                            *acc |= bit[x as usize & 511];
                        }
                    }
                    *r = acc[0] | acc[1] | acc[2] | acc[3];
                }
            }
        }
    };
    let half = chosen.len() / 2;
    let (mine, theirs) = found[..total * width].split_at_mut(first[half] * width);
    match helper {
        Some(helper) => {
            helper.join(|| fill(half..chosen.len(), theirs), || fill(0..half, mine));
        }
        None => {
            fill(0..half, mine);
            fill(half..chosen.len(), theirs);
        }
    }
    kernels.greedy(&found[..total * width], &mut left, &candidates)
}

/// Sample positions for [`Sparse::choose_scan_start`], and the fewest values
/// before it samples at all.
const SCAN_SAMPLES: usize = 128;
const SCAN_SAMPLE_FROM: usize = 1 << 13;

/// The pairs an estimate looks at, at most.
const SCAN_CAP: usize = 1 << 16;

/// Step 2: looks for every value of the need set `bits` among the two-heap
/// options of a heap of size `n`, first along the scan plan `steps` (with
/// one split digit; see [`plan_steps`]). Returns `None` when all are found (so the
/// step-1 value stands) or the least value not found, and the number of
/// pairs visited. Leaves `bits` all zero. `front` is [`Sparse::front`] or
/// empty. The scans begin at `b = start`
/// (see [`Kernels::cover`]).
///
/// Every option value is below `xlimit` (a power of two above every value so
/// far), so need values from `xlimit` up can never be found.
///
/// With several split digits the digits take turns, a stretch of heap sizes
/// at a time (see [`Kernels::cover_interleaved`]): a need value that only one
/// digit's splits reach early must not wait for a full scan of the others'.
#[allow(clippy::too_many_arguments)]
pub(super) fn search<T: Cell>(
    kernels: &Kernels,
    rule: &TakeBreak,
    g: &[T],
    front: &[u16],
    n: usize,
    steps: &[u32],
    stamped: bool,
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
                visited +=
                    kernels.cover(&g[..m], front, m, half, start, xlimit, bits, &mut missing);
            }
            continue;
        }
        sizes[count] = (m, half);
        count += 1;
    }
    if count == 1 && missing > 0 {
        let (m, half) = sizes[0];
        if stamped {
            // Step 1 marked the first steps' pairs with the rare entries.
            visited += (kernel::DENSE_STEPS * kernel::STEP) as u64;
        }
        visited += kernels.cover_planned(
            &g[..m],
            front,
            m,
            half,
            steps,
            stamped,
            start,
            xlimit,
            bits,
            &mut missing,
        );
    } else if count > 1 && missing > 0 {
        visited +=
            kernels.cover_interleaved(g, front, &sizes[..count], start, xlimit, bits, &mut missing);
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

/// Positions whose step-1 value waits for step 2.
#[derive(Clone, Debug)]
pub(super) struct Deferred {
    /// `(n, v, xlimit, start, len, stamped)`: the need set is
    /// `needs[start..start + len]`; `stamped` as [`search`] takes it.
    pub(super) items: Vec<(usize, u32, usize, usize, usize, bool)>,
    pub(super) needs: Vec<u64>,
    /// Where step 2's scans begin ([`Sparse::scan_start`]) and their plan
    /// ([`Sparse::scan_steps`]).
    pub(super) start: usize,
    pub(super) steps: Arc<[u32]>,
    /// The vector path's kernels ([`Sparse::kernels`]).
    pub(super) kernels: &'static Kernels,
    /// [`Sparse::front`] as the round began.
    pub(super) front: Option<std::sync::Arc<[u16]>>,
}

impl Default for Deferred {
    fn default() -> Deferred {
        Deferred {
            items: Vec::new(),
            needs: Vec::new(),
            start: 1,
            steps: Arc::from([]),
            kernels: Kernels::scalar(),
            front: None,
        }
    }
}

impl Deferred {
    pub(super) fn is_empty(&self) -> bool {
        self.items.is_empty()
    }

    pub(super) fn clear(&mut self) {
        self.items.clear();
        self.needs.clear();
    }

    pub(super) fn push(&mut self, n: usize, v: u32, xlimit: usize, need: &[u64], stamped: bool) {
        self.items
            .push((n, v, xlimit, self.needs.len(), need.len(), stamped));
        if let Ok(words) = <&[u64; 8]>::try_from(need) {
            self.needs.extend(words);
        } else {
            self.needs.extend_from_slice(need);
        }
    }

    /// Forgets the positions from `n` on.
    pub(super) fn drop_from(&mut self, n: usize) {
        let keep = self.items.partition_point(|item| item.0 < n);
        if let Some(&(_, _, _, start, _, _)) = self.items.get(keep) {
            self.needs.truncate(start);
        }
        self.items.truncate(keep);
    }

    /// Step 2 for the positions of `range` in order, stopping at the first
    /// whose need set is not covered. `g` holds at least the values before
    /// the last of them.
    pub(super) fn verify_range<T: Cell>(
        &self,
        rule: &TakeBreak,
        g: &[T],
        range: impl std::slice::SliceIndex<
            [(usize, u32, usize, usize, usize, bool)],
            Output = [(usize, u32, usize, usize, usize, bool)],
        >,
    ) -> Verdict {
        let mut pairs = 0;
        let mut long = Vec::new();
        let front = self.front.as_deref().unwrap_or(&[]);
        for &(n, _v, xlimit, start, len, stamped) in &self.items[range] {
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
            let (outcome, visited) = search(
                self.kernels,
                rule,
                g,
                front,
                n,
                &self.steps,
                stamped,
                self.start,
                xlimit,
                bits,
            );
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

/// What step 2 found on a list of deferred positions.
#[derive(Default)]
pub(super) struct Verdict {
    /// The first position whose value is not `v`, and its value.
    pub(super) failure: Option<(usize, u32)>,
    pub(super) pairs: u64,
}

impl Verdict {
    /// Both threads' findings: the earliest failure counts.
    pub(super) fn merge(self, other: Verdict) -> Verdict {
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

#[cfg(test)]
mod tests {
    use super::super::super::parallel::with_pair;
    use super::super::tests::rule;
    use super::*;

    /// The plan is the greedy choice as defined, taken the slow way: at
    /// each pick, every candidate's gain counted afresh from the values
    /// over the samples' need sets.
    #[test]
    fn plan_is_the_greedy_choice() {
        let mut sparse = Sparse::new(rule("0.6"), Simd::None);
        let mut g: Vec<u16> = Vec::new();
        sparse.extend(&mut g, 1 << 17).expect("no overflow");
        let mut table = Vec::new();
        let mut plans = 0;
        for n in [1 << 14, 40_000, 1 << 16, 1 << 17] {
            let g = &g[..n];
            let samples = sparse.scan_samples(g);
            let plan = plan_steps(sparse.kernels, g, &samples, plan_limit(n), &mut table, None);
            let limit = plan_limit(n).min(PLAN_REACH);
            let candidates: Vec<usize> = (1..)
                .step_by(kernel::STEP)
                .take_while(|&b| b + kernel::STEP <= limit)
                .collect();
            if candidates.len() < PLAN_STEPS {
                assert!(plan.is_empty(), "n = {n}");
                continue;
            }
            // Every other sample, as 512-bit sets.
            let mut left: Vec<[u64; 8]> = (0..samples.sizes.len())
                .step_by(2)
                .map(|i| {
                    let mut need = [0u64; 8];
                    need[..samples.words].copy_from_slice(samples.need(i));
                    need
                })
                .collect();
            let sizes: Vec<usize> = (0..samples.sizes.len())
                .step_by(2)
                .map(|i| samples.sizes[i].0)
                .collect();
            let finds = |b: usize, m: usize| {
                let mut seen = [0u64; 8];
                for a in b..b + kernel::STEP {
                    let x = (g[a] ^ g[m - a]) as usize;
                    seen[x / 64] |= 1 << (x % 64);
                }
                seen
            };
            let mut expected = Vec::new();
            let mut taken = vec![false; candidates.len()];
            for _ in 0..PLAN_STEPS {
                let mut best: Option<(u32, usize)> = None;
                for (c, &b) in candidates.iter().enumerate() {
                    if taken[c] {
                        continue;
                    }
                    let gain: u32 = left
                        .iter()
                        .zip(&sizes)
                        .map(|(l, &m)| {
                            let seen = finds(b, m);
                            (0..8).map(|w| (seen[w] & l[w]).count_ones()).sum::<u32>()
                        })
                        .sum();
                    if best.is_none_or(|(most, _)| gain > most) {
                        best = Some((gain, c));
                    }
                }
                let (_, c) = best.expect("more candidates than steps");
                taken[c] = true;
                expected.push(candidates[c] as u32);
                for (l, &m) in left.iter_mut().zip(&sizes) {
                    let seen = finds(candidates[c], m);
                    for w in 0..8 {
                        l[w] &= !seen[w];
                    }
                }
            }
            assert_eq!(plan, expected, "n = {n}");
            plans += 1;
        }
        assert_eq!(plans, 4, "Officers takes a plan at every size here");
    }

    /// Both threads choose the same scan start and plan as one does.
    #[test]
    fn two_threads_choose_the_same_plan() {
        let path = if Simd::available().contains(&Simd::Avx2) {
            Simd::Avx2
        } else {
            Simd::best()
        };
        let mut sparse = Sparse::new(rule("0.6"), path);
        let mut g: Vec<u16> = Vec::new();
        sparse.extend(&mut g, 1 << 16).expect("no overflow");
        with_pair(|helper| {
            for n in [1 << 14, 40_000, 1 << 16] {
                let g = &g[..n];
                sparse.plan_generation = (0, 0);
                sparse.choose_scan_start(g, None);
                let (start, steps) = (sparse.scan_start, sparse.scan_steps.clone());
                sparse.plan_generation = (0, 0);
                sparse.choose_scan_start(g, Some(helper));
                assert_eq!(sparse.scan_start, start, "n = {n}");
                assert_eq!(sparse.scan_steps, steps, "n = {n}");
                if path == Simd::Avx2 && n == 1 << 16 {
                    assert_eq!(steps.len(), PLAN_STEPS, "Officers takes a plan at 2^16");
                }
            }
        });
    }
}
