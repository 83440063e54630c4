//! The inner loop of the sparse method's step 2: scan the two-heap options
//! `G(b) ^ G(m - b)` for `b = 1, 2, ...` and cross off the values of a need
//! set (a bit set) until none is left.
//!
//! On x86-64 processors with AVX-512 (BW, VL, VBMI) the scan handles 32 or
//! 64 pairs per step: the values are XORed lane by lane against the reversed
//! tail, and each lane looks its result up in the need set with a byte
//! permute. Lanes that hit are then handled one by one. Elsewhere, and for
//! values of 512 and more, a plain loop does the same.

use super::values::Cell;

/// Crosses off need values found among pairs `(b, m - b)`, `1 <= b <= half`,
/// stopping once `missing` reaches 0. `bits` (at least 8 words) holds the
/// need set; every pair value is below `xlimit`. Returns the pairs visited.
pub(crate) fn cover<T: Cell>(
    window: &[T],
    m: usize,
    half: usize,
    xlimit: usize,
    bits: &mut [u64],
    missing: &mut usize,
) -> u64 {
    debug_assert!(window.len() >= m && half <= m / 2 && bits.len() >= 8);
    #[cfg(target_arch = "x86_64")]
    {
        if avx512_available() {
            let size = std::mem::size_of::<T>();
            if size == 2 && xlimit <= 512 {
                // SAFETY: T is u16 here (the only 2-byte Cell), so the cast
                // is a reinterpretation of the same memory; the feature
                // check above makes the target features available.
                let w = unsafe {
                    std::slice::from_raw_parts(window.as_ptr() as *const u16, window.len())
                };
                return unsafe { cover_u16_avx512(w, m, half, bits, missing) };
            }
            if size == 1 && xlimit <= 256 {
                // SAFETY: as above, T is u8.
                let w = unsafe {
                    std::slice::from_raw_parts(window.as_ptr() as *const u8, window.len())
                };
                return unsafe { cover_u8_avx512(w, m, half, bits, missing) };
            }
        }
    }
    cover_plain(window, m, 1, half, bits, missing)
}

#[cfg(target_arch = "x86_64")]
fn avx512_available() -> bool {
    is_x86_feature_detected!("avx512f")
        && is_x86_feature_detected!("avx512bw")
        && is_x86_feature_detected!("avx512vl")
        && is_x86_feature_detected!("avx512vbmi")
}

/// The plain loop, for `b` in `from..=half`.
fn cover_plain<T: Cell>(
    window: &[T],
    m: usize,
    from: usize,
    half: usize,
    bits: &mut [u64],
    missing: &mut usize,
) -> u64 {
    let mut b = from;
    let mut visited = 0u64;
    while b <= half && *missing > 0 {
        let end = (b + 32).min(half + 1);
        for i in b..end {
            let x = (window[i].get() ^ window[m - i].get()) as usize;
            let word = &mut bits[x / 64];
            let bit = 1u64 << (x % 64);
            if *word & bit != 0 {
                *word &= !bit;
                *missing -= 1;
            }
        }
        visited += (end - b) as u64;
        b = end;
    }
    visited
}

/// Crosses off one lane's value (a hit from the vector lookup).
#[inline(always)]
fn cross_off(x: usize, bits: &mut [u64], missing: &mut usize) {
    let word = &mut bits[x / 64];
    let bit = 1u64 << (x % 64);
    if *word & bit != 0 {
        *word &= !bit;
        *missing -= 1;
    }
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f,avx512bw,avx512vl,avx512vbmi")]
unsafe fn cover_u16_avx512(
    w: &[u16],
    m: usize,
    half: usize,
    bits: &mut [u64],
    missing: &mut usize,
) -> u64 {
    use std::arch::x86_64::*;
    // Lane i takes lane 31 - i.
    let reverse = _mm512_set_epi16(
        0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24,
        25, 26, 27, 28, 29, 30, 31,
    );
    let one_bit = _mm256_set1_epi64x(0x8040_2010_0804_0201u64 as i64);
    let seven = _mm512_set1_epi16(7);
    // SAFETY (all loads below): `bits` has at least 8 words; the value
    // loads read w[b..b + 32] and w[m - b - 31..=m - b], which lie inside
    // w[1..m] because b >= 1 and b + 31 <= half <= m / 2.
    let mut table = unsafe { _mm512_loadu_si512(bits.as_ptr() as *const _) };
    let mut b = 1usize;
    let mut visited = 0u64;
    while b + 31 <= half && *missing > 0 {
        let lo = unsafe { _mm512_loadu_si512(w.as_ptr().add(b) as *const _) };
        let hi = unsafe { _mm512_loadu_si512(w.as_ptr().add(m - b - 31) as *const _) };
        let x = _mm512_xor_si512(lo, _mm512_permutexvar_epi16(reverse, hi));
        let byte_index = _mm512_cvtepi16_epi8(_mm512_srli_epi16(x, 3));
        let bit_index = _mm512_cvtepi16_epi8(_mm512_and_si512(x, seven));
        let bytes = _mm512_permutexvar_epi8(_mm512_castsi256_si512(byte_index), table);
        let select = _mm256_shuffle_epi8(one_bit, bit_index);
        let mut hits = _mm256_test_epi8_mask(_mm512_castsi512_si256(bytes), select);
        if hits != 0 {
            while hits != 0 {
                let i = hits.trailing_zeros() as usize;
                hits &= hits - 1;
                cross_off((w[b + i] ^ w[m - b - i]) as usize, bits, missing);
            }
            table = unsafe { _mm512_loadu_si512(bits.as_ptr() as *const _) };
        }
        b += 32;
        visited += 32;
    }
    visited + cover_plain(w, m, b, half, bits, missing)
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f,avx512bw,avx512vl,avx512vbmi")]
unsafe fn cover_u8_avx512(
    w: &[u8],
    m: usize,
    half: usize,
    bits: &mut [u64],
    missing: &mut usize,
) -> u64 {
    use std::arch::x86_64::*;
    // Lane i takes lane 63 - i.
    let reverse = _mm512_set_epi8(
        0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24,
        25, 26, 27, 28, 29, 30, 31, 32, 33, 34, 35, 36, 37, 38, 39, 40, 41, 42, 43, 44, 45, 46, 47,
        48, 49, 50, 51, 52, 53, 54, 55, 56, 57, 58, 59, 60, 61, 62, 63,
    );
    let one_bit = _mm512_set1_epi64(0x8040_2010_0804_0201u64 as i64);
    let seven = _mm512_set1_epi8(7);
    let low5 = _mm512_set1_epi8(0x1F);
    // SAFETY (all loads below): as in the 16-bit version, with 64 lanes:
    // b + 63 <= half keeps w[b..b + 64] and w[m - b - 63..=m - b] in w[1..m].
    let mut table = unsafe { _mm512_loadu_si512(bits.as_ptr() as *const _) };
    let mut b = 1usize;
    let mut visited = 0u64;
    while b + 63 <= half && *missing > 0 {
        let lo = unsafe { _mm512_loadu_si512(w.as_ptr().add(b) as *const _) };
        let hi = unsafe { _mm512_loadu_si512(w.as_ptr().add(m - b - 63) as *const _) };
        let x = _mm512_xor_si512(lo, _mm512_permutexvar_epi8(reverse, hi));
        let byte_index = _mm512_and_si512(_mm512_srli_epi16(x, 3), low5);
        let bit_index = _mm512_and_si512(x, seven);
        let bytes = _mm512_permutexvar_epi8(byte_index, table);
        let select = _mm512_shuffle_epi8(one_bit, bit_index);
        let mut hits = _mm512_test_epi8_mask(bytes, select);
        if hits != 0 {
            while hits != 0 {
                let i = hits.trailing_zeros() as usize;
                hits &= hits - 1;
                cross_off((w[b + i] ^ w[m - b - i]) as usize, bits, missing);
            }
            table = unsafe { _mm512_loadu_si512(bits.as_ptr() as *const _) };
        }
        b += 64;
        visited += 64;
    }
    visited + cover_plain(w, m, b, half, bits, missing)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The vector and plain scans cross off the same values.
    #[test]
    fn vector_scan_matches_plain_scan() {
        let mut state = 12345u64;
        let mut next = || {
            state = state.wrapping_mul(6364136223846793005).wrapping_add(1);
            (state >> 33) as u32
        };
        for round in 0..200 {
            let m = 70 + (next() as usize % 400);
            let limit = if round % 2 == 0 { 512 } else { 256 };
            let g16: Vec<u16> = (0..m + 1).map(|_| (next() % limit) as u16).collect();
            let g8: Vec<u8> = g16.iter().map(|&x| (x % 256) as u8).collect();
            let need: Vec<usize> = (0..40).map(|_| next() as usize % limit as usize).collect();
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
                let (mut ma, mut mb) = (count(&a), count(&b));
                let half = m / 2;
                if use_u8 {
                    cover(&g8, m, half, xlimit, &mut a, &mut ma);
                    cover_plain(&g8, m, 1, half, &mut b, &mut mb);
                } else {
                    cover(&g16, m, half, xlimit, &mut a, &mut ma);
                    cover_plain(&g16, m, 1, half, &mut b, &mut mb);
                }
                // Both stop only when nothing is missing or all pairs are seen,
                // so the sets left agree.
                assert_eq!(a, b, "round {round} u8 {use_u8}");
                assert_eq!(ma, mb);
            }
        }
    }
}
