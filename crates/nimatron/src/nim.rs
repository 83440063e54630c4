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
    /// How many heaps hold exactly one object.
    pub one_heaps: usize,
    /// How many heaps hold two or more objects.
    pub big_heaps: usize,
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

/// Nim-sum and the counts of 1-heaps and bigger heaps, in one pass.
fn scan(heaps: &[u64]) -> (u64, usize, usize) {
    // Independent accumulators in fixed-size chunks keep the loop
    // vectorisable: XOR, and two comparisons summed as integers.
    let mut xor = [0u64; 8];
    let mut ones = [0u64; 8];
    let mut big = [0u64; 8];
    let mut chunks = heaps.chunks_exact(8);
    for chunk in &mut chunks {
        for lane in 0..8 {
            let h = chunk[lane];
            xor[lane] ^= h;
            ones[lane] += (h == 1) as u64;
            big[lane] += (h > 1) as u64;
        }
    }
    let mut x = xor.iter().fold(0, |a, &b| a ^ b);
    let mut o: u64 = ones.iter().sum();
    let mut b: u64 = big.iter().sum();
    for &h in chunks.remainder() {
        x ^= h;
        o += (h == 1) as u64;
        b += (h > 1) as u64;
    }
    (x, o as usize, b as usize)
}

/// Analyse a Nim position in one pass.
pub fn analyze(heaps: &[u64], convention: Convention) -> NimAnalysis {
    let (x, one_heaps, big_heaps) = scan(heaps);
    let nim_sum = Nimber(x);
    let (regime, to_move_wins) = match convention {
        Convention::Normal => (Regime::Bouton, x != 0),
        Convention::Misere => match big_heaps {
            0 => (Regime::MisereOnesOnly, one_heaps % 2 == 0),
            1 => (Regime::MisereEndgame, true),
            _ => (Regime::Bouton, x != 0),
        },
    };
    NimAnalysis {
        convention,
        nim_sum,
        outcome: Outcome::from_to_move_wins(to_move_wins),
        one_heaps,
        big_heaps,
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
                leave: if self.one_heaps % 2 == 1 { 0 } else { 1 },
            },
            (Outcome::N, Regime::MisereOnesOnly) => MoveKind::TakeAOne,
        };
        WinningMoves {
            heaps,
            index: 0,
            kind,
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
    fn scan_matches_plain_counts() {
        let heaps: Vec<u64> = (0..1000u64).map(|i| (i * 7919) % 5).collect();
        let (x, o, b) = scan(&heaps);
        assert_eq!(x, heaps.iter().fold(0, |a, h| a ^ h));
        assert_eq!(o, heaps.iter().filter(|&&h| h == 1).count());
        assert_eq!(b, heaps.iter().filter(|&&h| h > 1).count());
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
