//! Nim solved by Bouton's theorem, in normal and misère play.
//!
//! One pass over the heaps gives the nim-sum and the two counts that the
//! misère rule needs (heaps of size one, heaps of size two or more). Every
//! winning move then follows from the theory without search:
//!
//! * **Normal play.** The player to move loses exactly when the nim-sum is
//!   0. Otherwise the winning moves are the heaps whose size drops when
//!   XORed with the nim-sum, reduced to that XOR.
//! * **Misère play.** While two or more heaps hold at least two objects the
//!   play is exactly as in normal Nim. When exactly one heap holds two or
//!   more, the player to move wins by reducing it to 0 or 1 so as to leave an
//!   **odd** number of 1-heaps (normal play would leave an even number).
//!   With only heaps of size 0 or 1 the player to move loses exactly when the
//!   number of 1-heaps is odd.
//!
//! ```
//! use nimatron::{nim, Convention, Outcome};
//! let heaps = [3, 4, 5];
//! let analysis = nim::analyze(&heaps, Convention::Normal);
//! assert_eq!(analysis.nim_sum.value(), 2);
//! assert_eq!(analysis.outcome, Outcome::N);
//! let moves: Vec<_> = analysis.winning_moves(&heaps).collect();
//! assert_eq!(moves.len(), 1);
//! assert_eq!((moves[0].heap, moves[0].take), (0, 2)); // take 2 from heap A
//! ```

use crate::{Convention, Nimber, Outcome};

/// A move in a heap game: remove `take` objects from heap number `heap`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct HeapMove {
    /// 0-based index of the heap.
    pub heap: usize,
    /// How many objects are removed (at least 1).
    pub take: u64,
}

impl HeapMove {
    /// The heaps after this move. The move must be legal for `heaps`.
    pub fn apply(&self, heaps: &[u64]) -> Vec<u64> {
        let mut after = heaps.to_vec();
        after[self.heap] -= self.take;
        after
    }
}

/// Which part of the theory decides a position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Regime {
    /// Bouton's rule: the nim-sum decides. Normal play always; misère play
    /// while at least two heaps hold two or more objects.
    Bouton,
    /// Misère play with exactly one heap of two or more: the endgame rule
    /// applies, and the winner leaves an odd number of 1-heaps.
    MisereEndgame,
    /// Misère play with only heaps of size 0 or 1: the player to move loses
    /// exactly when the number of 1-heaps is odd.
    MisereOnesOnly,
}

/// The single-pass summary of a Nim position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct NimAnalysis {
    /// The convention the position was analysed under.
    pub convention: Convention,
    /// The nim-sum (XOR) of all heap sizes: the normal-play Grundy value.
    pub nim_sum: Nimber,
    /// Win or loss for the player to move.
    pub outcome: Outcome,
    /// Whether none, one or several heaps hold two or more objects.
    pub big_heaps: BigHeaps,
    /// How many heaps hold exactly one object; counted only when fewer than
    /// two heaps hold two or more (otherwise it does not affect play).
    pub one_heaps: Option<usize>,
    /// Which rule decides the position.
    pub regime: Regime,
}

/// The nim-sum of the heap sizes.
///
/// ```
/// assert_eq!(nimatron::nim::nim_sum(&[19, 20, 21]).value(), 18);
/// ```
pub fn nim_sum(heaps: &[u64]) -> Nimber {
    Nimber(heaps.iter().fold(0, |acc, &h| acc ^ h))
}

/// How many heaps hold two or more objects, as far as the theory cares.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BigHeaps {
    /// Every heap holds 0 or 1.
    None,
    /// Exactly one heap holds two or more: the misère endgame.
    One {
        /// Its index.
        heap: usize,
    },
    /// Two or more heaps hold two or more.
    Several,
}

/// The one-pass summary behind [`analyze`].
struct Scan {
    nim_sum: u64,
    big: BigHeaps,
    /// The number of 1-heaps, when `big` is not `Several`.
    one_heaps: Option<usize>,
}

/// The first pass of [`scan`], over one stretch of the heaps: XOR, OR of
/// `h >> 1` and a wrapping sum, in independent lanes. Only bitwise
/// operations and additions, which baseline x86-64 vectorises, so the pass
/// costs about what a plain XOR costs. Stretches combine by XOR, OR and
/// wrapping addition.
#[derive(Clone, Copy, Default)]
struct Lanes {
    xor: u64,
    any_big: u64,
    sum: u64,
}

impl Lanes {
    fn of(heaps: &[u64]) -> Lanes {
        const LANES: usize = 8;
        let mut xor = [0u64; LANES];
        let mut or_big = [0u64; LANES];
        let mut sum = [0u64; LANES];
        let mut chunks = heaps.chunks_exact(LANES);
        for chunk in &mut chunks {
            for lane in 0..LANES {
                let h = chunk[lane];
                xor[lane] ^= h;
                or_big[lane] |= h >> 1;
                sum[lane] = sum[lane].wrapping_add(h);
            }
        }
        let mut out = Lanes::default();
        for lane in 0..LANES {
            out.xor ^= xor[lane];
            out.any_big |= or_big[lane];
            out.sum = out.sum.wrapping_add(sum[lane]);
        }
        for &h in chunks.remainder() {
            out.add(Lanes {
                xor: h,
                any_big: h >> 1,
                sum: h,
            });
        }
        out
    }

    fn add(&mut self, other: Lanes) {
        self.xor ^= other.xor;
        self.any_big |= other.any_big;
        self.sum = self.sum.wrapping_add(other.sum);
    }
}

/// [`Lanes`] over all the heaps, then a second pass, which stops at the
/// second big heap, only when some heap holds two or more.
fn scan(heaps: &[u64]) -> Scan {
    finish_scan(heaps, Lanes::of(heaps))
}

fn finish_scan(heaps: &[u64], lanes: Lanes) -> Scan {
    let Lanes {
        xor: x,
        any_big,
        sum: total,
    } = lanes;
    if any_big == 0 {
        // Every heap is 0 or 1, so the sum counts the 1-heaps exactly.
        return Scan {
            nim_sum: x,
            big: BigHeaps::None,
            one_heaps: Some(total as usize),
        };
    }
    let first = heaps.iter().position(|&h| h > 1).expect("some heap is big");
    if heaps[first + 1..].iter().any(|&h| h > 1) {
        return Scan {
            nim_sum: x,
            big: BigHeaps::Several,
            one_heaps: None,
        };
    }
    // One big heap; the rest are 0 or 1, so the wrapping sum minus the big
    // heap is the exact number of 1-heaps.
    Scan {
        nim_sum: x,
        big: BigHeaps::One { heap: first },
        one_heaps: Some(total.wrapping_sub(heaps[first]) as usize),
    }
}

/// Analyse a Nim position: two passes at most, the second usually short.
pub fn analyze(heaps: &[u64], convention: Convention) -> NimAnalysis {
    from_scan(scan(heaps), convention)
}

/// Heaps copied per stretch by [`analyze_copy`]: 16 KiB, so that the scan
/// reads each stretch from the L1 cache the copy just filled.
const COPY_STRETCH: usize = 2048;

/// From this many heaps (1 MiB, twice a Zen 3 core's L2) [`analyze_copy`]
/// writes the copy around the caches where the processor can
/// (`sequence::stream_copy`).
const STREAM_FROM: usize = 1 << 17;

/// [`analyze`] of `heaps` while copying them to the end of `copy`, reading
/// `heaps` once. The analysis is of what was copied (the values scanned are
/// the values written), so it agrees with `copy` even if `heaps` changes
/// meanwhile.
///
/// Writing the copy is the bulk of the time. A big copy on x86-64 (from
/// 2^17 heaps) is written with non-temporal stores, straight to memory:
/// an ordinary copy first reads each line of the destination into the
/// cache and later writes it back, three times the traffic of the scan;
/// streaming stores cost about 1.3 scans on an AMD EPYC (Zen 3). Smaller
/// copies, and other processors, go stretch by stretch: each stretch
/// copied, then scanned in the copy from the cache the copy just filled.
///
/// ```
/// use nimatron::{nim, Convention};
/// let mut copy = Vec::new();
/// let a = nim::analyze_copy(&[3, 4, 5], Convention::Normal, &mut copy);
/// assert_eq!(copy, [3, 4, 5]);
/// assert_eq!(a, nim::analyze(&[3, 4, 5], Convention::Normal));
/// ```
pub fn analyze_copy(heaps: &[u64], convention: Convention, copy: &mut Vec<u64>) -> NimAnalysis {
    let start = copy.len();
    copy.reserve_exact(heaps.len());
    let lanes = copy_and_scan(heaps, copy);
    from_scan(finish_scan(&copy[start..], lanes), convention)
}

/// Appends `heaps` to `copy` and returns the [`Lanes`] of what it wrote.
fn copy_and_scan(heaps: &[u64], copy: &mut Vec<u64>) -> Lanes {
    if heaps.len() < STREAM_FROM {
        return copy_and_scan_stretches(heaps, copy);
    }
    let (streamed, folds) = crate::sequence::stream_copy(heaps, copy);
    let mut lanes = Lanes {
        xor: folds.xor,
        any_big: folds.or_halved,
        sum: folds.sum,
    };
    lanes.add(copy_and_scan_stretches(&heaps[streamed..], copy));
    lanes
}

fn copy_and_scan_stretches(heaps: &[u64], copy: &mut Vec<u64>) -> Lanes {
    let mut lanes = Lanes::default();
    for stretch in heaps.chunks(COPY_STRETCH) {
        let at = copy.len();
        copy.extend_from_slice(stretch);
        lanes.add(Lanes::of(&copy[at..]));
    }
    lanes
}

fn from_scan(scan: Scan, convention: Convention) -> NimAnalysis {
    let x = scan.nim_sum;
    let ones = scan.one_heaps.unwrap_or(0);
    let (regime, to_move_wins) = match (convention, scan.big) {
        (Convention::Normal, _) | (Convention::Misere, BigHeaps::Several) => {
            (Regime::Bouton, x != 0)
        }
        (Convention::Misere, BigHeaps::None) => (Regime::MisereOnesOnly, ones.is_multiple_of(2)),
        (Convention::Misere, BigHeaps::One { .. }) => (Regime::MisereEndgame, true),
    };
    NimAnalysis {
        convention,
        nim_sum: Nimber(x),
        outcome: Outcome::from_to_move_wins(to_move_wins),
        big_heaps: scan.big,
        one_heaps: scan.one_heaps,
        regime,
    }
}

impl NimAnalysis {
    /// The most significant bit of the nim-sum, as a mask (0 if the nim-sum is 0).
    pub fn leading_bit(&self) -> u64 {
        let x = self.nim_sum.0;
        if x == 0 {
            0
        } else {
            1 << (63 - x.leading_zeros())
        }
    }

    /// Every winning move, in heap order. Empty exactly when the player to
    /// move loses (or, in misère play, when no object is left: the previous
    /// player took the last one and lost). Lazy: one more pass over `heaps`.
    ///
    /// `heaps` must be the position this analysis was made from.
    pub fn winning_moves<'a>(&self, heaps: &'a [u64]) -> WinningMoves<'a> {
        let kind = match (self.outcome, self.regime) {
            (Outcome::P, _) => MoveKind::None,
            (Outcome::N, Regime::Bouton) => MoveKind::Bouton {
                nim_sum: self.nim_sum.0,
                leading_bit: self.leading_bit(),
            },
            (Outcome::N, Regime::MisereEndgame) => MoveKind::Endgame {
                // Leave an odd number of 1-heaps: if there already is an odd
                // number, empty the big heap, else reduce it to 1.
                leave: if self.one_heaps.unwrap_or(0) % 2 == 1 {
                    0
                } else {
                    1
                },
            },
            (Outcome::N, Regime::MisereOnesOnly) => MoveKind::TakeAOne,
        };
        WinningMoves {
            heaps,
            index: 0,
            kind,
        }
    }

    /// How many winning moves there are: what `winning_moves(heaps).count()`
    /// gives, in one branch-free pass for Bouton's rule (a heap has a
    /// winning move exactly when it has a 1 in the nim-sum's leading bit), so
    /// a million random heaps cost about what their XOR costs.
    ///
    /// `heaps` must be the position this analysis was made from.
    ///
    /// ```
    /// use nimatron::{nim, Convention};
    /// let heaps = [3, 5, 6, 9];
    /// let a = nim::analyze(&heaps, Convention::Normal);
    /// assert_eq!(a.count_winning_moves(&heaps), a.winning_moves(&heaps).count());
    /// ```
    pub fn count_winning_moves(&self, heaps: &[u64]) -> usize {
        match (self.outcome, self.regime) {
            (Outcome::N, Regime::Bouton) => {
                // Shifts, masks and additions only: baseline x86-64
                // vectorises them (a 64-bit compare needs SSE4.1).
                let bit = self.leading_bit().trailing_zeros();
                heaps.iter().map(|&h| (h >> bit) & 1).sum::<u64>() as usize
            }
            _ => self.winning_moves(heaps).count(),
        }
    }

    /// The first winning move, if any. Usually stops after a few heaps.
    pub fn winning_move(&self, heaps: &[u64]) -> Option<HeapMove> {
        self.winning_moves(heaps).next()
    }

    /// In misère play with exactly one big heap: the move normal play would
    /// make there (which leaves an even number of 1-heaps), for comparison.
    pub fn normal_play_move(&self, heaps: &[u64]) -> Option<HeapMove> {
        analyze(heaps, Convention::Normal).winning_move(heaps)
    }
}

#[derive(Clone, Copy, Debug)]
enum MoveKind {
    None,
    Bouton { nim_sum: u64, leading_bit: u64 },
    Endgame { leave: u64 },
    TakeAOne,
}

/// Iterator over the winning moves of a Nim position; see
/// [`NimAnalysis::winning_moves`].
#[derive(Clone, Debug)]
pub struct WinningMoves<'a> {
    heaps: &'a [u64],
    index: usize,
    kind: MoveKind,
}

impl Iterator for WinningMoves<'_> {
    type Item = HeapMove;

    fn next(&mut self) -> Option<HeapMove> {
        while self.index < self.heaps.len() {
            let heap = self.index;
            let h = self.heaps[heap];
            self.index += 1;
            let target = match self.kind {
                MoveKind::None => {
                    self.index = self.heaps.len();
                    return None;
                }
                MoveKind::Bouton {
                    nim_sum,
                    leading_bit,
                } => (h & leading_bit != 0).then_some(h ^ nim_sum),
                MoveKind::Endgame { leave } => (h > 1).then_some(leave),
                MoveKind::TakeAOne => (h == 1).then_some(0),
            };
            if let Some(target) = target {
                return Some(HeapMove {
                    heap,
                    take: h - target,
                });
            }
        }
        None
    }
}

/// The outcome of a position (a shortcut for [`analyze`]).
pub fn outcome(heaps: &[u64], convention: Convention) -> Outcome {
    analyze(heaps, convention).outcome
}

/// Every P-position with exactly `heap_count` non-empty heaps of size at most
/// `max`, each listed once with sizes in non-decreasing order, in
/// lexicographic order. Entries are produced lazily.
pub fn p_positions(
    heap_count: usize,
    max: u64,
    convention: Convention,
) -> impl Iterator<Item = Vec<u64>> {
    SortedTuples::new(heap_count, max).filter(move |t| outcome(t, convention) == Outcome::P)
}

/// All non-decreasing tuples of `len` values in `1..=max`.
struct SortedTuples {
    current: Option<Vec<u64>>,
    max: u64,
}

impl SortedTuples {
    fn new(len: usize, max: u64) -> SortedTuples {
        let current = (len > 0 && max >= 1).then(|| vec![1; len]);
        SortedTuples { current, max }
    }
}

impl Iterator for SortedTuples {
    type Item = Vec<u64>;
    fn next(&mut self) -> Option<Vec<u64>> {
        let out = self.current.clone()?;
        let cur = self.current.as_mut().expect("checked above");
        // Advance: find the rightmost entry below max, bump it, and reset
        // everything to its right to the same value.
        match cur.iter().rposition(|&v| v < self.max) {
            None => self.current = None,
            Some(i) => {
                let v = cur[i] + 1;
                for slot in &mut cur[i..] {
                    *slot = v;
                }
            }
        }
        Some(out)
    }
}

/// How many tuples [`p_positions`] examines: C(max + heap_count − 1, heap_count),
/// saturating at `u64::MAX`.
pub fn tuple_count(heap_count: usize, max: u64) -> u64 {
    // C(n, k) computed incrementally; every intermediate value is an integer.
    let n = max as u128 + heap_count as u128 - 1;
    let mut acc: u128 = 1;
    for i in 0..heap_count as u128 {
        acc = acc * (n - i) / (i + 1);
        if acc > u64::MAX as u128 {
            return u64::MAX;
        }
    }
    acc as u64
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sorted_tuples_enumerates_multisets() {
        let all: Vec<Vec<u64>> = SortedTuples::new(2, 3).collect();
        assert_eq!(
            all,
            vec![
                vec![1, 1],
                vec![1, 2],
                vec![1, 3],
                vec![2, 2],
                vec![2, 3],
                vec![3, 3]
            ]
        );
        assert_eq!(tuple_count(2, 3), 6);
        assert_eq!(tuple_count(4, 13), SortedTuples::new(4, 13).count() as u64);
    }

    #[test]
    fn analyze_copy_is_analyze_and_a_copy() {
        // Lengths across the copy's stretches; heaps all 0 or 1, with one
        // big heap (in any stretch), or random; a copy appended after
        // earlier contents.
        let mut rng = crate::strategy::SplitMix64::new(7);
        let lengths = [0, 1, 7, 8, 9, 2047, 2048, 2049, 4096 + 3, 3 * 2048 + 17];
        // From 2^17 heaps, x86-64 streams the copy.
        let streamed = [1 << 17, (1 << 17) + 1, (1 << 17) + 13];
        let rounds = lengths
            .iter()
            .cycle()
            .take(200)
            .chain(streamed.iter().cycle().take(12));
        for (round, &len) in rounds.enumerate() {
            let mut heaps: Vec<u64> = match round % 4 {
                0 => (0..len).map(|_| rng.below(2)).collect(),
                1 | 2 => (0..len).map(|_| rng.below(2)).collect(),
                _ => (0..len).map(|_| rng.next_u64() >> rng.below(64)).collect(),
            };
            if round % 4 == 1 && len > 0 {
                let at = rng.below(len as u64) as usize;
                heaps[at] = 2 + rng.below(100);
            }
            if round % 4 == 2 && len > 1 {
                let at = rng.below(len as u64) as usize;
                heaps[at] = 2 + rng.below(100);
                heaps[len - 1 - at.min(len - 1)] = 2 + rng.below(100);
            }
            let before = vec![9; round % 3];
            for convention in [Convention::Normal, Convention::Misere] {
                let mut copy = before.clone();
                let a = analyze_copy(&heaps, convention, &mut copy);
                assert_eq!(&copy[..before.len()], &before[..]);
                assert_eq!(&copy[before.len()..], &heaps[..]);
                assert_eq!(a, analyze(&heaps, convention), "{heaps:?}");
            }
        }
    }

    #[test]
    fn counted_winning_moves_are_the_listed_ones() {
        let mut rng = crate::strategy::SplitMix64::new(42);
        for round in 0..2000u64 {
            let len = 1 + rng.below(12) as usize;
            let top = [2, 3, 8, 1 << 20, u64::MAX][(round % 5) as usize];
            let heaps: Vec<u64> = (0..len)
                .map(|_| {
                    if top == u64::MAX {
                        rng.next_u64()
                    } else {
                        rng.below(top)
                    }
                })
                .collect();
            for convention in [Convention::Normal, Convention::Misere] {
                let a = analyze(&heaps, convention);
                assert_eq!(
                    a.count_winning_moves(&heaps),
                    a.winning_moves(&heaps).count(),
                    "{heaps:?} {convention}"
                );
            }
        }
    }

    #[test]
    fn scan_matches_plain_counts() {
        let cases: Vec<Vec<u64>> = vec![
            (0..1000u64).map(|i| (i * 7919) % 5).collect(),
            (0..1001u64).map(|i| (i * 31) % 2).collect(),
            (0..37u64)
                .map(|i| if i == 20 { 9 } else { i % 2 })
                .collect(),
            vec![u64::MAX, 1, 1, 0],
            vec![],
        ];
        for heaps in cases {
            let s = scan(&heaps);
            assert_eq!(s.nim_sum, heaps.iter().fold(0, |a, h| a ^ h));
            let big: Vec<usize> = (0..heaps.len()).filter(|&i| heaps[i] > 1).collect();
            let ones = heaps.iter().filter(|&&h| h == 1).count();
            match big.len() {
                0 => assert_eq!((s.big, s.one_heaps), (BigHeaps::None, Some(ones))),
                1 => assert_eq!(
                    (s.big, s.one_heaps),
                    (BigHeaps::One { heap: big[0] }, Some(ones))
                ),
                _ => assert_eq!(s.big, BigHeaps::Several),
            }
        }
    }

    #[test]
    fn empty_position() {
        let normal = analyze(&[], Convention::Normal);
        assert_eq!(normal.outcome, Outcome::P);
        let misere = analyze(&[], Convention::Misere);
        assert_eq!(misere.outcome, Outcome::N);
        assert_eq!(misere.winning_moves(&[]).count(), 0);
    }

    #[test]
    fn huge_heaps_use_the_whole_u64_range() {
        let heaps = [u64::MAX, u64::MAX - 1, 1 << 63];
        let a = analyze(&heaps, Convention::Normal);
        let moves: Vec<HeapMove> = a.winning_moves(&heaps).collect();
        assert!(!moves.is_empty());
        for m in moves {
            assert_eq!(nim_sum(&m.apply(&heaps)), Nimber::ZERO);
        }
    }
}
