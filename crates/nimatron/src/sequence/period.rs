//! Periods of Grundy sequences, and their proof by the octal periodicity
//! theorem.
//!
//! **Theorem** (Guy and Smith, 1956; Winning Ways ch. 4). Take a
//! take-and-break game whose moves take at most `t` objects and leave at
//! most `j` heaps. If `G(n + p) = G(n)` for all `n` with
//! `e <= n < j e + (j - 1) p + t` (and at least up to `n = t`), then
//! `G(n + p) = G(n)` for every `n >= e`.
//!
//! For octal games (`j = 2`) this is the familiar bound `2e + p + t`. For
//! subtraction games (`j = 1`) it says that `t` consecutive repeats suffice.
//! The proof: for `n` past the bound, every option of `n + p` keeps a part at
//! least `e + p` long, whose value equals that of the part `p` shorter, which
//! is an option of `n`; and the other way round.

/// A period of a Grundy sequence: `G(n + period) = G(n)` for every computed
/// `n >= preperiod`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Period {
    /// The smallest period `p`.
    pub period: u64,
    /// The smallest preperiod `e` for that period.
    pub preperiod: u64,
    /// Whether the computed values meet the periodicity theorem's bound, so
    /// that the period holds for every heap size. `false` means "apparent
    /// period, not proven".
    pub proven: bool,
}

/// What the theory needs to prove a period.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum ProofRule {
    /// The octal periodicity theorem, for moves leaving at most `heaps`
    /// heaps and taking at most `reach` objects.
    TakeBreak { heaps: u64, reach: u64 },
    /// No theorem applies (Grundy's game, subtract-a-square, modular games).
    Unavailable,
}

impl ProofRule {
    /// The largest preperiod `e` that `len` values can prove with period
    /// `p`, if any: the check range `e <= n < B` must be computed, and so
    /// must `n + p` for each such `n`.
    fn largest_provable_preperiod(self, len: u64, p: u64) -> Option<u64> {
        match self {
            ProofRule::TakeBreak { heaps, reach } => {
                let j = heaps.max(1);
                // B = max(j e + (j - 1) p + t, t + 1); need B + p <= len.
                // (Checked arithmetic: a move may reach up to 2^64 - 1.)
                if reach.checked_add(1)?.checked_add(p)? > len {
                    return None;
                }
                let fixed = j.checked_mul(p)?.checked_add(reach)?;
                if fixed > len {
                    return None;
                }
                Some((len - fixed) / j)
            }
            ProofRule::Unavailable => None,
        }
    }

    /// How many values prove period `p` with preperiod `e`.
    pub fn values_needed(self, p: u64, e: u64) -> Option<u64> {
        match self {
            ProofRule::TakeBreak { heaps, reach } => {
                let j = heaps.max(1);
                let bound = j
                    .checked_mul(e)?
                    .checked_add((j - 1).checked_mul(p)?)?
                    .checked_add(reach)?;
                bound.max(reach.checked_add(1)?).checked_add(p)
            }
            ProofRule::Unavailable => None,
        }
    }
}

/// The largest preperiod accepted as evidence of an apparent period: the
/// periodic tail must cover at least half the values and three periods.
fn largest_apparent_preperiod(len: u64, p: u64) -> Option<u64> {
    (len >= 3 * p).then(|| (len / 2).min(len - 3 * p))
}

/// Scans (values compared) after which a refused period is remembered.
const LONG_SCAN: u64 = 4096;

/// Finds the smallest period `p` (and its smallest preperiod) that the
/// values prove or, failing that, show convincingly.
pub(crate) fn detect<T: PartialEq + Copy>(g: &[T], rule: ProofRule) -> Option<Period> {
    let len = g.len() as u64;
    let &last = g.last()?;
    // A period whose top pair differs, G(len - 1 - p) != G(len - 1), has
    // preperiod len - p, above every limit: the apparent limit is at most
    // len - 3p, and the proof's is (len - jp - t) / j, below len - p unless
    // j = 1 and t = 0 (a game that keeps one heap and takes nothing, which
    // is no game). So such periods are passed over with a vector search
    // for the next value equal to the last, not checked one by one (the
    // checks of a run of Officers to 10^7 took 48 ms on one thread that
    // way, 7 ms this way).
    let skip_top = match rule {
        ProofRule::TakeBreak { heaps, reach } => heaps > 1 || reach > 0,
        ProofRule::Unavailable => true,
    };
    let mut p = 1u64;
    // Periods refused after a long scan, with the preperiod they showed.
    // A multiple `q` of such a period `p0` whose top mismatch `e0 - 1` is
    // in view (`e0 - 1 + q < len`) has the same mismatch there, since
    // G(e0 - 1 + q) = G(e0 - 1 + p0) != G(e0 - 1); its preperiod is at least
    // e0, above the limit for p0 and so for q (limits shrink as p grows).
    // Skipping it keeps a long preperiod (0.376: 2 268 248) from costing a
    // full scan for every multiple of its period.
    let mut refused: Vec<(u64, u64)> = Vec::new();
    while p < len {
        if skip_top {
            // The least q >= p with G(len - 1 - q) = G(len - 1).
            match last_equal(&g[..(len - p) as usize], last) {
                Some(i) => p = len - 1 - i as u64,
                None => return None,
            }
        }
        if refused
            .iter()
            .any(|&(p0, e0)| p.is_multiple_of(p0) && e0 - 1 + p < len)
        {
            p += 1;
            continue;
        }
        let proof = rule.largest_provable_preperiod(len, p);
        let apparent = largest_apparent_preperiod(len, p);
        let limit = match (proof, apparent) {
            (None, None) => {
                // Both limits only shrink as p grows.
                return None;
            }
            (a, b) => a.max(b).expect("one is set"),
        };
        // Compare G(i) with G(i + p) from the top down; the preperiod is one
        // past the highest mismatch.
        let top = (len - p) as usize;
        let preperiod = last_mismatch(&g[..top], &g[p as usize..]).map_or(0, |i| i as u64 + 1);
        let rejected = preperiod > limit;
        if rejected && len - p - preperiod > LONG_SCAN && refused.len() < 64 {
            refused.push((p, preperiod));
        }
        if !rejected {
            return Some(Period {
                period: p,
                preperiod,
                proven: proof.is_some_and(|e| preperiod <= e),
            });
        }
        p += 1;
    }
    None
}

/// The last index `i` with `a[i] != b[i]` (over the shorter length), in
/// chunks the compiler vectorises. Multiples of a refused period that lie
/// past its top mismatch can match for long stretches where the values
/// mostly follow the period (0.376 to 3·10^6: every fourth `p` from
/// 731 754 to 1.5·10^6); compared one pair at a time, those scans took
/// 0.9 s of a 2.6 s run.
fn last_mismatch<T: PartialEq + Copy>(a: &[T], b: &[T]) -> Option<usize> {
    const CHUNK: usize = 64;
    let mut end = a.len().min(b.len());
    while end >= CHUNK {
        let (x, y) = (&a[end - CHUNK..end], &b[end - CHUNK..end]);
        if x.iter().zip(y).fold(false, |any, (p, q)| any | (p != q)) {
            return x
                .iter()
                .zip(y)
                .rposition(|(p, q)| p != q)
                .map(|i| end - CHUNK + i);
        }
        end -= CHUNK;
    }
    a[..end].iter().zip(&b[..end]).rposition(|(p, q)| p != q)
}

/// The last index of `g` holding `value`, in chunks the compiler
/// vectorises.
fn last_equal<T: PartialEq + Copy>(g: &[T], value: T) -> Option<usize> {
    const CHUNK: usize = 64;
    let mut end = g.len();
    while end >= CHUNK {
        let chunk = &g[end - CHUNK..end];
        if chunk.iter().fold(false, |any, &x| any | (x == value)) {
            return chunk
                .iter()
                .rposition(|&x| x == value)
                .map(|i| end - CHUNK + i);
        }
        end -= CHUNK;
    }
    g[..end].iter().rposition(|&x| x == value)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// [`detect`] without the skip of multiples of refused periods: every
    /// `p` scanned.
    fn detect_every_period(g: &[u8], rule: ProofRule) -> Option<Period> {
        let len = g.len() as u64;
        for p in 1..len {
            let limit = match (
                rule.largest_provable_preperiod(len, p),
                largest_apparent_preperiod(len, p),
            ) {
                (None, None) => return None,
                (a, b) => a.max(b).unwrap(),
            };
            let preperiod = (0..len - p)
                .rev()
                .find(|&i| g[i as usize] != g[(i + p) as usize])
                .map_or(0, |i| i + 1);
            if preperiod <= limit {
                let proven = rule
                    .largest_provable_preperiod(len, p)
                    .is_some_and(|e| preperiod <= e);
                return Some(Period {
                    period: p,
                    preperiod,
                    proven,
                });
            }
        }
        None
    }

    /// Sequences with a long irregular start before a short period (as
    /// 0.376 has) and random ones: neither skip (multiples of refused
    /// periods, periods whose top pair differs) changes an answer.
    #[test]
    fn skipping_multiples_of_refused_periods_changes_nothing() {
        let mut state = 7u64;
        let mut next = || {
            state = state.wrapping_mul(6364136223846793005).wrapping_add(1);
            (state >> 33) as u32
        };
        for round in 0..300 {
            let period = 1 + next() as usize % 6;
            let start = next() as usize % 3000;
            let len = start + 4200 + next() as usize % 6000;
            let cycle: Vec<u8> = (0..period).map(|_| (next() % 5) as u8).collect();
            // The start mostly follows the cycle too, with rare exceptions,
            // so refused periods scan a long way.
            let g: Vec<u8> = (0..len)
                .map(|i| {
                    if i < start && next() % 500 == 0 {
                        7
                    } else {
                        cycle[i % period]
                    }
                })
                .collect();
            for rule in [
                ProofRule::Unavailable,
                ProofRule::TakeBreak { heaps: 2, reach: 3 },
                ProofRule::TakeBreak { heaps: 1, reach: 2 },
                ProofRule::TakeBreak { heaps: 1, reach: 0 },
            ] {
                assert_eq!(
                    detect(&g, rule),
                    detect_every_period(&g, rule),
                    "round {round}"
                );
            }
        }
    }

    /// The chunked search against a pair-by-pair one: mismatches planted
    /// at every distance from a chunk's edge, in slices of every length
    /// around a chunk, for one-, two- and four-byte values.
    #[test]
    fn last_mismatch_finds_the_highest_difference() {
        fn check<T: PartialEq + Copy + From<u8> + std::fmt::Debug>() {
            for len in [0usize, 1, 63, 64, 65, 127, 128, 129, 300] {
                let a: Vec<T> = (0..len).map(|i| T::from((i % 7) as u8)).collect();
                assert_eq!(last_mismatch(&a, &a), None, "len {len}");
                for at in [0, 1, 62, 63, 64, 65, 128, 200, 299] {
                    for second in [None, Some(0), Some(at / 2)] {
                        if at >= len {
                            continue;
                        }
                        let mut b = a.clone();
                        b[at] = T::from(9);
                        if let Some(s) = second {
                            b[s] = T::from(8);
                        }
                        let expected = (0..len).rev().find(|&i| a[i] != b[i]);
                        assert_eq!(expected, Some(at));
                        assert_eq!(last_mismatch(&a, &b), expected, "len {len} at {at}");
                        // The shorter slice bounds the search.
                        assert_eq!(
                            last_mismatch(&a[..at], &b),
                            (0..at).rev().find(|&i| a[i] != b[i]),
                            "len {len} at {at}, cut"
                        );
                    }
                }
            }
        }
        check::<u8>();
        check::<u16>();
        check::<u32>();
    }

    #[test]
    fn finds_smallest_period_and_preperiod() {
        // 5 9 then 1 2 3 repeated.
        let mut g = vec![5u8, 9];
        for _ in 0..20 {
            g.extend([1, 2, 3]);
        }
        let found = detect(&g, ProofRule::Unavailable).unwrap();
        assert_eq!((found.period, found.preperiod, found.proven), (3, 2, false));
    }

    #[test]
    fn proof_needs_the_bound() {
        // Subtraction {1, 2, 3}: 0 1 2 3 repeated, t = 3, one heap.
        let g: Vec<u8> = (0..8).map(|n| (n % 4) as u8).collect();
        let rule = ProofRule::TakeBreak { heaps: 1, reach: 3 };
        let found = detect(&g, rule).unwrap();
        assert_eq!((found.period, found.preperiod), (4, 0));
        assert!(found.proven);
        assert_eq!(rule.values_needed(4, 0), Some(8));
        // One value short of the bound: no proof, and too short to be apparent.
        assert_eq!(detect(&g[..7], rule), None);
    }

    #[test]
    fn no_period_in_a_growing_sequence() {
        let g: Vec<u32> = (0..1000).collect();
        assert_eq!(
            detect(&g, ProofRule::TakeBreak { heaps: 2, reach: 1 }),
            None
        );
    }
}
