//! The kernels against their definitions and the plain scan, on every
//! path this processor has.

use super::scan::{COMPARED, DENSE_STEPS, STEP, cover_bytes, cover_plain, cross_off};
use super::*;

#[test]
fn names_round_trip_and_bad_names_are_refused() {
    for p in [Simd::Auto].into_iter().chain(Simd::PATHS) {
        assert_eq!(p.name().parse::<Simd>().unwrap(), p);
        assert_eq!(p.to_string(), p.name());
    }
    assert_eq!(" AVX2 ".parse::<Simd>().unwrap(), Simd::Avx2);
    let e = "sse9".parse::<Simd>().unwrap_err();
    assert!(e.to_string().contains("'sse9'") && e.to_string().contains("portable"));
}

/// Every path this processor has gets its own kernels, and the rest are
/// refused with the error that names them.
#[test]
fn kernels_are_those_of_the_path_asked_for() {
    for p in Simd::PATHS {
        match Kernels::get(p) {
            Ok(k) => {
                assert!(p.is_available());
                assert_eq!(k.path(), p);
            }
            Err(e) => {
                assert!(!p.is_available());
                assert_eq!(e.path, p);
            }
        }
    }
    assert_eq!(Kernels::get(Simd::Auto).unwrap().path(), Simd::best());
}

#[test]
fn resolving_keeps_available_paths_and_refuses_the_rest() {
    let best = Simd::Auto.resolve().unwrap();
    assert_eq!(best, Simd::best());
    assert!(Simd::available().contains(&best));
    assert_eq!(Simd::available().last(), Some(&Simd::None));
    for p in Simd::PATHS {
        match p.resolve() {
            Ok(q) => assert_eq!(q, p),
            Err(e) => {
                assert!(!p.is_available());
                assert!(e.to_string().contains(p.name()), "{e}");
                assert!(e.to_string().contains("none"), "{e}");
            }
        }
    }
}

/// Every path turns bytes into the same bits: equal to the tag, or
/// not, one bit per byte.
#[test]
fn byte_bits_agree_with_the_definition() {
    let mut state = 99u64;
    let mut next = || {
        state = state.wrapping_mul(6364136223846793005).wrapping_add(1);
        (state >> 33) as u8
    };
    // Fewer rounds under Miri (scripts/miri-tests.sh), which is slow.
    for round in 0..if cfg!(miri) { 4 } else { 200 } {
        let words = 1 + round % 9;
        let tag = next();
        // Mostly the tag or one bit away from it, so that carries
        // between bytes would show.
        let bytes: Vec<u8> = (0..64 * words)
            .map(|_| match next() % 4 {
                0 => tag,
                1 => tag ^ (1 << (next() % 8)),
                2 => tag.wrapping_add(1),
                _ => next(),
            })
            .collect();
        let want: Vec<u64> = bytes
            .chunks(64)
            .map(|c| {
                c.iter()
                    .enumerate()
                    .fold(0, |acc, (i, &b)| acc | ((b == tag) as u64) << i)
            })
            .collect();
        for path in Simd::available() {
            let kernels = Kernels::get(path).expect("an available path");
            let mut out = vec![0u64; words];
            kernels.byte_bits(&bytes, tag, &mut out);
            assert_eq!(out, want, "{path} tag {tag}");
        }
    }
}

/// The byte-table scan of the none path crosses off what the plain
/// scan does, for values up to 1024, with a step's hits repeated and
/// scans that stop early or see every pair.
#[test]
fn byte_scan_matches_plain_scan() {
    let mut state = 99u64;
    let mut next = || {
        state = state.wrapping_mul(6364136223846793005).wrapping_add(1);
        (state >> 33) as usize
    };
    for round in 0..if cfg!(miri) { 4 } else { 400 } {
        let xlimit = [256, 512, 1024][round % 3];
        let m = 100 + next() % 3000;
        // Mostly small values, so that the larger need values are found
        // late or not at all.
        let g: Vec<u16> = (0..=m)
            .map(|_| (next() % if next() % 8 == 0 { xlimit } else { 16 }) as u16)
            .collect();
        let mut want = vec![0u64; xlimit / 64];
        for _ in 0..1 + next() % 60 {
            let x = next() % xlimit;
            want[x / 64] |= 1 << (x % 64);
        }
        let count: usize = want.iter().map(|w| w.count_ones() as usize).sum();
        let mut got = want.clone();
        let half = m / 2;
        let from = 1 + next() % half.min(64);
        let (mut left_want, mut left_got) = (count, count);
        cover_plain(&g, m, from, half, &mut want, &mut left_want);
        // Stopping once few are left (as the portable scan does), the
        // plain scan finishing the rest.
        let enough = [0, COMPARED][round % 2];
        let seen = cover_bytes(&g, m, from, half, xlimit, &mut got, &mut left_got, enough);
        if left_got > 0 {
            cover_plain(&g, m, from + seen as usize, half, &mut got, &mut left_got);
        }
        assert_eq!(got, want, "round {round}");
        assert_eq!(left_got, left_want, "round {round}");
    }
}

/// The vector and plain scans cross off the same values, for every
/// path this processor has, with plans and front copies.
#[test]
fn vector_scan_matches_plain_scan() {
    let mut state = 12345u64;
    let mut next = || {
        state = state.wrapping_mul(6364136223846793005).wrapping_add(1);
        (state >> 33) as u32
    };
    for round in 0..if cfg!(miri) { 6 } else { 300 } {
        let limit = if round % 2 == 0 { 512 } else { 256 };
        // Every third round: long scans over values mostly below 64, so
        // need values above are found late, a few per batch (crossed
        // off in the register) after a first batch with many hits
        // (through the byte table).
        let skewed = round % 3 == 2;
        let m = if skewed {
            2000 + next() as usize % 4000
        } else {
            70 + next() as usize % 400
        };
        let g16: Vec<u16> = (0..m + 1)
            .map(|_| {
                let spread = if skewed && next() % 64 != 0 {
                    64
                } else {
                    limit
                };
                (next() % spread) as u16
            })
            .collect();
        let g8: Vec<u8> = g16.iter().map(|&x| (x % 256) as u8).collect();
        // The small heaps reversed: none, some (scans cross its end) or
        // all of them.
        let front = match round % 3 {
            0 => Vec::new(),
            1 => front_copy(&g16, 40 + next() as usize % (m / 2)),
            _ => front_copy(&g16, m / 2 + 40),
        };
        // Need values below the limit, or all below 128, 256 or 130, so
        // that the AVX2 lookup narrows to one or two quarters while the
        // pairs' values still reach the limit (and must not hit).
        let need_limit = [limit, 128, 256, 130][(round / 2) % 4].min(limit) as usize;
        let need: Vec<usize> = (0..40).map(|_| next() as usize % need_limit).collect();
        for use_u8 in [false, true] {
            let xlimit = if use_u8 { 256 } else { limit as usize };
            let mut a = vec![0u64; 8];
            for &w in &need {
                if w < xlimit {
                    a[w / 64] |= 1 << (w % 64);
                }
            }
            let mut b = a.clone();
            let count = |v: &[u64]| v.iter().map(|w| w.count_ones() as usize).sum::<usize>();
            let (ma, mut mb) = (count(&a), count(&b));
            let half = m / 2;
            // Scans that start at 1, past the end, or anywhere between.
            let start = match round % 4 {
                0 => 1,
                1 => half + 1 + next() as usize % 8,
                _ => 1 + next() as usize % half,
            };
            if use_u8 {
                cover_plain(&g8, m, 1, half, &mut b, &mut mb);
            } else {
                cover_plain(&g16, m, 1, half, &mut b, &mut mb);
            }
            for path in Simd::available() {
                let kernels = Kernels::get(path).expect("an available path");
                let (mut a, mut ma) = (a.clone(), ma);
                if use_u8 {
                    kernels.cover(&g8, &[], m, half, start, xlimit, &mut a, &mut ma);
                } else {
                    kernels.cover(&g16, &front, m, half, start, xlimit, &mut a, &mut ma);
                }
                // Both stop only when nothing is missing or all pairs
                // are seen, so the sets left agree.
                assert_eq!(a, b, "round {round} u8 {use_u8} {path}");
                assert_eq!(ma, mb, "round {round} u8 {use_u8} {path}");
            }
            // A scan plan first: none, fewer steps than are marked at
            // once, or many (more than one marking's worth), now and
            // then with a step past `half`, which voids the plan.
            let steps: Vec<u32> = if half < STEP + 1 {
                Vec::new()
            } else {
                let count = [0, 3, 8, 20, 70][round % 5];
                let mut steps: Vec<u32> = (0..count)
                    .map(|_| 1 + (next() as usize % (half + 1 - STEP)) as u32)
                    .collect();
                if round % 7 == 6 {
                    steps.push((half + 2 - STEP) as u32);
                }
                steps
            };
            for path in Simd::available() {
                let kernels = Kernels::get(path).expect("an available path");
                let (mut a, mut ma) = (a.clone(), ma);
                if use_u8 {
                    kernels.cover_planned(
                        &g8,
                        &[],
                        m,
                        half,
                        &steps,
                        false,
                        start,
                        xlimit,
                        &mut a,
                        &mut ma,
                    );
                } else {
                    // With the first steps' pairs crossed off before
                    // (as step 1 of the sparse method stamps them), too.
                    let (mut c, mut mc) = (a.clone(), ma);
                    if steps.len() >= DENSE_STEPS {
                        for &s in &steps[..DENSE_STEPS] {
                            for x in s as usize..s as usize + STEP {
                                let value = (g16[x] ^ g16[m - x]) as usize;
                                cross_off(&mut c, value, &mut mc);
                            }
                        }
                    }
                    kernels.cover_planned(
                        &g16, &front, m, half, &steps, true, start, xlimit, &mut c, &mut mc,
                    );
                    assert_eq!(c, b, "round {round} {path} planned, stamped");
                    assert_eq!(mc, mb, "round {round} {path} planned, stamped");
                    kernels.cover_planned(
                        &g16, &front, m, half, &steps, false, start, xlimit, &mut a, &mut ma,
                    );
                }
                assert_eq!(a, b, "round {round} u8 {use_u8} {path} planned");
                assert_eq!(ma, mb, "round {round} u8 {use_u8} {path} planned");
            }
        }
    }
}

#[test]
fn a_streamed_copy_is_the_heaps_and_their_folds() {
    // Every start (aligned or not, after earlier contents) and lengths
    // around the eight heaps of a step; the heaps random, some 0 or 1.
    let mut rng = crate::strategy::SplitMix64::new(11);
    for before in 0..3 {
        for len in [0, 1, 2, 7, 8, 9, 15, 16, 17, 64, 67] {
            let heaps: Vec<u64> = (0..len)
                .map(|i| {
                    if i % 3 == 0 {
                        rng.below(2)
                    } else {
                        rng.next_u64()
                    }
                })
                .collect();
            let mut copy = vec![5; before];
            let (streamed, folds) = super::stream_copy(&heaps, &mut copy);
            assert_eq!(&copy[..before], &vec![5; before][..]);
            assert_eq!(&copy[before..], &heaps[..streamed]);
            let done = &heaps[..streamed];
            let xor = done.iter().fold(0, |x, &h| x ^ h);
            let or_halved = done.iter().fold(0, |o, &h| o | (h >> 1));
            let sum = done.iter().fold(0u64, |s, &h| s.wrapping_add(h));
            assert_eq!(
                (folds.xor, folds.or_halved, folds.sum),
                (xor, or_halved, sum)
            );
            if cfg!(all(target_arch = "x86_64", not(miri))) {
                assert!(len - streamed < 8, "{len} heaps, {streamed} streamed");
            } else {
                assert_eq!(streamed, 0);
            }
        }
    }
}
