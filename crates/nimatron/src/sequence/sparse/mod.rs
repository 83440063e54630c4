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
//! per position instead (see [`probe`]). Step 2 follows a plan of steps
//! chosen from sample positions before it goes through the pairs in order
//! (avx2 only; see [`step2`]); the pairs of the plan's first steps are
//! stamped by step 1 with the rare entries, which saves step 2's first
//! marking and the work around it (see [`Sparse::far_pass`]). Step 2 reads
//! the small heaps from
//! a reversed copy of the first values once they are final (see
//! [`kernel::front_copy`](super::kernel::front_copy)). With two threads, step
//! 1 runs a round ahead taking each `v` as the value while step 2 confirms
//! the previous round (see [`Sparse::extend_parallel`]); the result is the
//! same as on one thread.
//!
//! The files, one job each:
//! - this one: the state, the one-thread loop and the block that runs
//!   step 1 and then step 2 (or defers it);
//! - [`mask`]: labels, rare positions and the choice of mask;
//! - [`step1`]: the options of a block through the rare entries (far pass,
//!   stamping, compares);
//! - [`select`]: which rare entries step 1 stamps and which it compares;
//! - [`step2`]: the search for the need set among all pairs, and the
//!   positions whose step 2 is deferred;
//! - [`pipeline`]: the two-thread mode.

mod mask;
mod pipeline;
mod select;
mod step1;
mod step2;

use super::game::TakeBreak;
use super::kernel::{Kernels, Simd};
use super::naive::{Marks, StepError, ThreeHeap, Watch, mark_simple_options};
use super::parallel::{Grow, Pair};
use super::probe::{self, Probe};
use super::values::Cell;

pub use mask::SparseMask;
pub(in crate::sequence) use mask::{SparseSchedule, walsh_hadamard};
use step1::{ROW_SLACK, next_tag};
use step2::{Deferred, search};

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
    /// Positions whose first candidates the compared entries all hit, so
    /// that they took a second set (see the `probe` module).
    pub retried_lanes: u64,
    /// Positions whose candidates were all hit, first and second, so that
    /// they stamped their compared entries after all.
    pub stamped_lanes: u64,
}

/// State of the sparse method. Everything but the schedule is rebuilt from
/// the values, so a checkpoint only needs [`SparseSchedule`].
#[derive(Clone, Debug)]
pub(crate) struct Sparse {
    pub rule: TakeBreak,
    /// The vector path of the inner loops (a concrete path this processor
    /// has).
    path: Simd,
    /// That path's kernels.
    kernels: &'static Kernels,
    k0: u64,
    parity_allowed: bool,
    pub schedule: SparseSchedule,
    rare: Vec<(u64, u32)>,
    /// The rare entries step 1 stamps, and those a block may compare
    /// instead (see [`probe`]), as [`Sparse::is_compared`] sorts them. Both
    /// in order of position.
    stamped: Vec<(u64, u32)>,
    compare_list: Vec<(u64, u32)>,
    /// The number of rare entries and of values when the stamped entries
    /// were last chosen (see [`select`]), or zeros.
    chosen: (usize, usize),
    class: Vec<u8>,
    marks: Marks,
    /// The helper thread's set when a plain mex is shared (two-thread mode).
    helper_marks: Marks,
    three: ThreeHeap,
    need_bits: Vec<u64>,
    /// The values of each class as bit sets over the table size.
    class_bits: [Vec<u64>; 2],
    /// Scratch: the options of one row as bits.
    hit: Vec<u64>,
    /// The helper thread's own byte rows (two-thread mode).
    helper_scratch: Vec<u8>,
    /// The ring of [`LAG`](pipeline::LAG) blocks of option bits the helper
    /// hands over: block `t` of a round in slot `t % LAG`, `width / 64`
    /// words per row.
    helper_bits: Vec<u64>,
    /// The producer's share of the far entries in two-thread mode, tuned
    /// each round so that neither thread waits for the other.
    far_share: f64,
    /// The same share for rounds that run step 2 at once (near rare
    /// positions, see `pipeline`), where the producer has more to do.
    exact_share: f64,
    /// Blocks of rounds that ran step 2 at once which began with entries
    /// the helper did not know of (a test checks that they occur).
    #[cfg(test)]
    grown_blocks: usize,
    /// Rounds of the two-thread pipeline run, and blocks they handed over
    /// (tests check that a run took them).
    #[cfg(test)]
    rounds_run: (usize, usize),
    /// Where step 2's scans begin: chosen from the values with the mask
    /// (see [`Sparse::choose_scan_start`]); it changes only the speed.
    scan_start: usize,
    /// The steps step 2's scans take first, with one split digit (see
    /// [`step2`]'s `plan_steps`); chosen with the scan start.
    scan_steps: std::sync::Arc<[u32]>,
    /// The pairs of the plan's first
    /// [`kernel::DENSE_STEPS`](super::kernel::DENSE_STEPS) steps as rare entries
    /// `(a, G(a))`, which step 1 stamps with the rare entries (see
    /// [`Sparse::far_pass`]), and the plan they were made from.
    plan_entries: Vec<(u64, u32)>,
    plan_of: std::sync::Arc<[u32]>,
    /// Whether the far pass of the current block stamped `plan_entries`,
    /// so that step 2 skips those steps.
    plan_stamped: bool,
    /// `log2` of the values' count, and the mask, when the steps were
    /// chosen.
    plan_generation: (u32, u32),
    /// Room for a plan's table of what each step finds (about 0.8 MiB on
    /// Officers, at most 4 MiB), kept from one plan to the next: fresh
    /// pages cost more to fault in than the table costs to fill.
    plan_table: Vec<u64>,
    /// Room for the positions pending in two-thread mode, kept from one
    /// call to the next (see [`Sparse::extend_parallel`]).
    deferred_room: [Deferred; 2],
    /// The first [`kernel::FRONT`](super::kernel::FRONT) values reversed, for
    /// step 2 (see [`kernel::front_copy`](super::kernel::front_copy)), once
    /// they are known and final and values take two bytes.
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
    /// The next candidates of the lanes in `retried` (see
    /// [`Sparse::prepare_probe`]).
    retry: Probe,
    /// The lanes of the current block whose first candidates the compared
    /// entries all hit, and that have a second set in `retry`.
    retried: u32,
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
    /// The run's interrupt, asked between blocks and plain positions (see
    /// [`Sparse::watch_blocks`]).
    pub watch: Watch,
    /// The pairs of [`Sparse::counters`] already counted by `watch`.
    watched_pairs: u64,
}

/// What the helper thread of the two-thread mode did for a block: its
/// stamps of its share of the far rare entries, as option bits (`width /
/// 64` words per row), the producer's share of those entries, and how many
/// entries of the stamped list the helper knew of as the round began
/// (entries committed since are the producer's alone).
#[derive(Clone, Copy)]
pub(super) struct Helped<'a> {
    bits: &'a [u64],
    share: f64,
    known: usize,
}

impl Sparse {
    pub fn new(rule: TakeBreak, path: Simd) -> Sparse {
        let kernels = Kernels::get(path).expect("a path this processor has");
        let path = kernels.path();
        let k0 = rule.split_two.first().copied().unwrap_or(0);
        let parity_allowed = rule.splits_share_parity();
        let mut s = Sparse {
            rule,
            path,
            kernels,
            k0,
            parity_allowed,
            schedule: SparseSchedule::START,
            rare: Vec::new(),
            stamped: Vec::new(),
            compare_list: Vec::new(),
            chosen: (0, 0),
            class: Vec::new(),
            marks: Marks::new(),
            helper_marks: Marks::new(),
            three: ThreeHeap::default(),
            need_bits: Vec::new(),
            class_bits: [Vec::new(), Vec::new()],
            hit: Vec::new(),
            helper_scratch: Vec::new(),
            helper_bits: Vec::new(),
            far_share: 0.2,
            exact_share: 0.2,
            #[cfg(test)]
            grown_blocks: 0,
            #[cfg(test)]
            rounds_run: (0, 0),
            scan_start: 1,
            scan_steps: std::sync::Arc::from([]),
            plan_entries: Vec::new(),
            plan_of: std::sync::Arc::from([]),
            plan_stamped: false,
            plan_generation: (0, 0),
            plan_table: Vec::new(),
            deferred_room: Default::default(),
            front: None,
            fronting: true,
            rows: Vec::new(),
            probing: matches!(path, Simd::Avx512 | Simd::Avx2),
            probe: Probe::default(),
            retry: Probe::default(),
            retried: 0,
            lane_hits: Vec::new(),
            compare_far: [(0, 0); MAX_SPLITS],
            compared: [(0, 0); MAX_SPLITS],
            comparing: false,
            tag: 0,
            max_value: 0,
            counters: SparseCounters::default(),
            watch: Watch::default(),
            watched_pairs: 0,
        };
        s.resize_tables();
        s
    }

    /// Rebuilds everything derived from the values, keeping the schedule.
    pub fn sync<T: Cell>(&mut self, g: &[T]) {
        self.front = None;
        self.max_value = g.iter().map(|x| x.get()).max().unwrap_or(0);
        self.three.truncate(0);
        self.resize_tables();
        self.rebuild_rare(g);
        self.choose_scan_start(g, None);
    }

    /// The plain mex over every option.
    #[inline(never)]
    fn plain_value<T: Cell>(
        &mut self,
        g: &[T],
        n: usize,
        helper: Option<&Pair<'_>>,
    ) -> Result<u32, StepError> {
        self.counters.plain_positions += 1;
        self.marks.begin();
        mark_simple_options(&self.rule, g, n, &mut self.marks, &mut self.three)?;
        // The splits `a + (m - a) = m`, a = 1..=half, for each digit.
        let splits = self.rule.split_two.iter().filter_map(|&k| {
            let m = n.checked_sub(k as usize)?;
            let half = if self.rule.unequal {
                m.saturating_sub(1) / 2
            } else {
                m / 2
            };
            (half >= 1).then_some((m, half))
        });
        let pairs: usize = splits.clone().map(|(_, half)| half).sum();
        self.watch.spend(pairs as u64 + 1)?;
        match helper {
            Some(helper) if pairs >= PLAIN_SHARED => {
                // Each thread marks the pairs of one half of every digit's
                // range in its own set; the mex is the least in neither.
                self.helper_marks.grow_to(self.marks.size());
                self.helper_marks.begin();
                let (mine, theirs) = (&mut self.marks, &mut self.helper_marks);
                let (splits_here, splits_there) = (splits.clone(), splits);
                helper.join(
                    || {
                        for (m, half) in splits_there {
                            theirs.mark_pairs(g, m, half / 2 + 1, half);
                        }
                    },
                    || {
                        for (m, half) in splits_here {
                            mine.mark_pairs(g, m, 1, half / 2);
                        }
                    },
                );
                Ok(self.marks.mex_of_union(&self.helper_marks))
            }
            _ => {
                for (m, half) in splits {
                    self.marks.mark_pairs(g, m, 1, half);
                }
                Ok(self.marks.mex())
            }
        }
    }

    /// Computes values until `g.len() == until`, on one thread, a block of
    /// up to [`BLOCK`] positions at a time.
    pub fn extend<T: Cell>(&mut self, g: &mut Vec<T>, until: usize) -> Result<(), StepError> {
        self.extend_with(g, until, None)
    }

    /// [`Sparse::extend`], with the plain mex's pairs shared with the
    /// helper thread of `helper` (the method is otherwise one-thread here).
    fn extend_with<T: Cell>(
        &mut self,
        g: &mut Vec<T>,
        until: usize,
        helper: Option<&Pair<'_>>,
    ) -> Result<(), StepError> {
        while g.len() < until {
            self.keep_front(g);
            let n = g.len();
            if self.eval_due(n as u64) {
                self.evaluate(g, None);
            }
            if self.schedule.mask == 0 {
                let value = self.plain_value(g, n, helper)?;
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

    /// Computes the block `g.len()..g.len() + len` (fewer positions when a
    /// mask evaluation falls due or the value tables grow).
    fn block<T: Cell, G: Grow<T>>(
        &mut self,
        g: &mut G,
        len: usize,
        mut defer: Option<&mut Deferred>,
        helped: Option<Helped<'_>>,
    ) -> Result<(), StepError> {
        // Before any of the block is done, so that an interrupt leaves
        // every value final.
        self.watch_blocks(len)?;
        let n0 = g.len();
        let size = self.marks.size();
        let width = self.stride();
        if self.rows.len() < BLOCK * width + ROW_SLACK {
            self.rows.resize(BLOCK * width + ROW_SLACK, 0);
        }
        next_tag(&mut self.tag, &mut self.rows);
        let helper_bits = helped.map(|h| h.bits);
        let handled = self.far_pass(g, len, helped.map(|h| (h.share, h.known)));
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
                d.push(n, v, width, &self.need_bits, self.plan_stamped);
                v
            } else {
                let (outcome, pairs) = search(
                    self.kernels,
                    &self.rule,
                    g,
                    self.front.as_deref().unwrap_or(&[]),
                    n,
                    &self.scan_steps,
                    self.plan_stamped,
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

    /// Counts for [`Sparse::watch`] the pairs visited since it last counted
    /// and 64 units for each of the `positions` of the next block (whose
    /// pairs are counted next time), so that the interrupt is asked every
    /// few hundred microseconds of blocks, however the work is spread.
    fn watch_blocks(&mut self, positions: usize) -> Result<(), StepError> {
        let pairs = self.counters.rare_pairs + self.counters.search_pairs;
        let units = pairs.saturating_sub(self.watched_pairs) + 64 * positions as u64;
        self.watched_pairs = pairs;
        self.watch.spend(units)
    }

    /// The length of a row: options are XORs of values below half the
    /// table size, so they are below it too.
    fn stride(&self) -> usize {
        self.marks.size() / 2
    }

    /// Records `G(n) = value`.
    fn commit<T: Cell, G: Grow<T>>(&mut self, g: &mut G, value: u32) {
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
            if self.is_compared(n) {
                self.compare_list.push((n, value));
            } else {
                self.stamped.push((n, value));
            }
        }
    }
}

/// Positions per block of the sparse method.
const BLOCK: usize = probe::LANES;

/// Split digits handled by the far pass (codes with more use the
/// per-position pass for all of them).
const MAX_SPLITS: usize = 8;

/// Pairs from which a plain mex is shared between two threads. Each
/// handoff costs a few microseconds; 8 192 pairs take 5 to 8 µs.
const PLAIN_SHARED: usize = 8192;

#[cfg(test)]
mod tests {
    use super::super::code::OctalCode;
    use super::super::kernel;
    use super::super::naive::NaiveTakeBreak;
    use super::*;

    /// An octal code, or Grundy's game (unequal splits) for "grundy".
    pub(super) fn rule(code: &str) -> TakeBreak {
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
            .extend(&mut g, to, &mut Watch::default())
            .expect("no overflow");
        g
    }

    /// The sparse method's values up to `to`, comparing or not, with the
    /// reversed copy or not, on `threads` threads; and its final state.
    pub(super) fn sparse(
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
        // The rare list kept as values came (and went, in two-thread mode)
        // is the one the values give: mask evaluations rely on it. The
        // stamped and compared entries split it, whichever way they were
        // chosen.
        let kept = sparse.rare.clone();
        let mut split = [sparse.stamped.clone(), sparse.compare_list.clone()].concat();
        split.sort_unstable();
        assert_eq!(split, kept, "the split of {path}, threads {threads}");
        sparse.rebuild_rare(&g);
        assert!(
            kept == sparse.rare,
            "the rare list of {path}, threads {threads}"
        );
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

    /// Near rare positions, two threads run rounds in which step 2 runs at
    /// once, and a rare value found in such a round is stamped by the
    /// producer alone while the helper keeps the list it began with. The
    /// values are the naive ones on games whose rare values keep coming.
    #[test]
    fn a_short_two_thread_run_gives_the_naive_values() {
        // Small enough for Miri (scripts/miri-tests.sh): rounds of the
        // pipeline, with blocks handed over through the ring, on the `none`
        // path (the one Miri can run), against the naive values.
        let (code, to) = ("0.56", 6_000);
        let rule = rule(code);
        let want = naive(&rule, to);
        let (g, sparse) = sparse_on(Simd::None, &rule, true, true, 2, want.len());
        assert!(g == want, "{code} to {to}");
        let (rounds, blocks) = sparse.rounds_run;
        assert!(
            rounds >= 1 && blocks >= 2 * pipeline::LAG,
            "{rounds} rounds, {blocks} blocks"
        );
    }

    #[test]
    fn rounds_that_find_rare_values_give_the_naive_values() {
        let mut grown = 0;
        for code in ["0.376", "0.16", "0.127", "0.56", "0.354"] {
            let rule = rule(code);
            let want = naive(&rule, 40_000);
            let (g, sparse) = sparse(&rule, true, true, 2, want.len());
            let first_difference = g.iter().zip(&want).position(|(a, b)| a != b);
            assert_eq!(first_difference, None, "{code}");
            assert_eq!(g.len(), want.len(), "{code}");
            grown += sparse.grown_blocks;
        }
        assert!(
            grown > 0,
            "some block began after a rare value of its round"
        );
    }

    /// Codes whose values no mask makes sparse (every position takes the
    /// plain mex), with one split digit and two, and with unequal splits:
    /// on two threads the positions with at least [`PLAIN_SHARED`] pairs
    /// share them, and the values are the naive ones.
    #[test]
    fn plain_positions_shared_by_two_threads_give_the_naive_values() {
        for (code, unequal) in [
            ("0.06", false),
            ("0.0606", false),
            ("0.76", false),
            ("0.0606", true),
            ("0.026", true),
        ] {
            let mut rule = rule(code);
            rule.unequal = unequal;
            let want = naive(&rule, 20_000);
            let pairs_at_end: usize = rule
                .split_two
                .iter()
                .map(|&k| (want.len() - 1 - k as usize) / 2)
                .sum();
            assert!(
                pairs_at_end > PLAIN_SHARED + 1000,
                "{code}: the shared path is reached"
            );
            for threads in [1, 2] {
                let (g, sparse) = sparse(&rule, true, true, threads, want.len());
                assert_eq!(sparse.schedule.mask, 0, "{code}: no mask, all plain");
                let plain = sparse.counters.plain_positions as usize;
                assert!(plain + 1000 > want.len(), "{code}: {plain} plain positions");
                assert_eq!(g, want, "{code} unequal {unequal}, threads {threads}");
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

    /// Officers far enough out that the rare entries are all known, most
    /// positions take their value from the candidates, and step 2 reads the
    /// small heaps from the reversed copy; and Grundy's game (unequal
    /// splits) through its rare values at n = 33 697 to 82 860: comparing
    /// or stamping, with the copy or without, on one thread or two, the
    /// values agree.
    #[test]
    fn comparing_and_the_front_copy_agree_far_out() {
        for (code, to) in [("0.6", kernel::FRONT + 20_000), ("grundy", 90_000)] {
            let mut runs = Vec::new();
            for (probing, fronting, threads) in [
                (false, false, 1),
                (true, false, 1),
                (false, true, 1),
                (true, true, 1),
                (true, true, 2),
            ] {
                let (g, sparse) = sparse(&rule(code), probing, fronting, threads, to);
                // Part of the rare entries are compared.
                assert_eq!(sparse.compare_list.is_empty(), !probing, "{code}");
                // On avx2 the blocks stamp the scan plan's first steps by
                // now (the values here take two bytes).
                if sparse.path == Simd::Avx2 {
                    assert!(sparse.plan_stamped, "{code}");
                }
                assert_eq!(sparse.front.is_some(), fronting, "{code}");
                // Blocks that compare give lanes whose first candidates are
                // all hit a second set, and rarely stamp them after all.
                let counters = sparse.counters;
                if probing && code == "0.6" {
                    assert!(
                        counters.retried_lanes > 1000
                            && counters.stamped_lanes < counters.retried_lanes / 4,
                        "{counters:?}"
                    );
                }
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
