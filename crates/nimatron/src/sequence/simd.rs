//! The inner loop of the sparse method's step 2: scan the two-heap options
//! `G(b) ^ G(m - b)` for `b = 1, 2, ...` and cross off the values of a need
//! set (a bit set) until none is left.
//!
//! The scan has two phases. The first [`DENSE_PAIRS`] pairs find most need
//! values, so they are all marked in a table without looking at the need
//! set, which is then reduced in one step. After that, hits are few and each
//! pair is looked up in the need set: on x86-64 processors with AVX-512 (BW,
//! VL, VBMI) 32 or 64 pairs per step, the values XORed lane by lane against
//! the reversed tail and each lane's bit fetched with a byte permute from the
//! need set held in a register. Elsewhere, and for values of 512 and more, a
//! plain loop does the same.

use super::values::Cell;

/// Pairs marked all at once at the start of a scan.
pub(crate) const DENSE_PAIRS: usize = 256;

/// Values covered by the marking table of the first phase.
const DENSE_LIMIT: usize = 1024;

/// Crosses off need values found among pairs `(b, m - b)`, `1 <= b <= half`,
/// stopping once `missing` reaches 0. `bits` (at least 8 words) holds the
/// need set; every pair value is below `xlimit`, and `missing` counts the
/// need values below it. Returns the pairs visited.
pub(crate) fn cover<T: Cell>(
    window: &[T],
    m: usize,
    half: usize,
    xlimit: usize,
    bits: &mut [u64],
    missing: &mut usize,
) -> u64 {
    debug_assert!(window.len() >= m && half <= m / 2 && bits.len() >= 8);
    let mut visited = 0;
    let mut from = 1;
    if xlimit <= DENSE_LIMIT && half >= DENSE_PAIRS && *missing > 4 {
        dense_prefix(window, m, xlimit, bits, missing);
        visited = DENSE_PAIRS as u64;
        from = DENSE_PAIRS + 1;
        if *missing == 0 {
            return visited;
        }
    }
    #[cfg(target_arch = "x86_64")]
    {
        if avx512_available() {
            let size = std::mem::size_of::<T>();
            if size == 2 && xlimit <= 512 {
                // SAFETY: T is u16 here (the only 2-byte Cell), so the cast
                // is a reinterpretation of the same memory; the feature
                // check makes the target features available.
                let w = unsafe {
                    std::slice::from_raw_parts(window.as_ptr() as *const u16, window.len())
                };
                return visited
                    + unsafe { cover_u16_avx512(w, m, from, half, xlimit, bits, missing) };
            }
            if size == 1 && xlimit <= 256 {
                // SAFETY: as above, T is u8.
                let w = unsafe {
                    std::slice::from_raw_parts(window.as_ptr() as *const u8, window.len())
                };
                return visited
                    + unsafe { cover_u8_avx512(w, m, from, half, xlimit, bits, missing) };
            }
        }
    }
    visited + cover_plain(window, m, from, half, bits, missing)
}

/// Marks the values of pairs `1..=DENSE_PAIRS`, then crosses them off the
/// need set and recounts `missing`.
fn dense_prefix<T: Cell>(
    window: &[T],
    m: usize,
    xlimit: usize,
    bits: &mut [u64],
    missing: &mut usize,
) {
    let mut seen = [0u8; DENSE_LIMIT];
    let lo = &window[1..=DENSE_PAIRS];
    let hi = &window[m - DENSE_PAIRS..m];
    for (a, b) in lo.iter().zip(hi.iter().rev()) {
        seen[(a.get() ^ b.get()) as usize & (DENSE_LIMIT - 1)] = 1;
    }
    let words = xlimit / 64;
    let mut found = [0u64; DENSE_LIMIT / 64];
    nonzero_bits(&seen[..words * 64], &mut found[..words]);
    let mut left = 0;
    for (word, f) in bits[..words].iter_mut().zip(found) {
        *word &= !f;
        left += word.count_ones() as usize;
    }
    *missing = left;
}

/// Bit `i` of `out[w]` is set when `bytes[64 w + i] != 0`.
fn nonzero_bits(bytes: &[u8], out: &mut [u64]) {
    #[cfg(target_arch = "x86_64")]
    {
        if avx512_available() {
            // SAFETY: the features are present (checked above).
            return unsafe { nonzero_bits_avx512(bytes, out) };
        }
    }
    for (word, chunk) in out.iter_mut().zip(bytes.chunks_exact(64)) {
        *word = chunk
            .iter()
            .enumerate()
            .fold(0u64, |acc, (i, &s)| acc | (((s != 0) as u64) << i));
    }
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f,avx512bw")]
unsafe fn nonzero_bits_avx512(bytes: &[u8], out: &mut [u64]) {
    use std::arch::x86_64::*;
    for (word, chunk) in out.iter_mut().zip(bytes.chunks_exact(64)) {
        // SAFETY: the chunk holds 64 bytes.
        let v = unsafe { _mm512_loadu_si512(chunk.as_ptr() as *const _) };
        *word = _mm512_test_epi8_mask(v, v);
    }
}

#[cfg(target_arch = "x86_64")]
pub(crate) fn avx512_available() -> bool {
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

/// The need set below `xlimit` as a 512-bit register (bit `v` is bit
/// `v % 8` of byte `v / 8`, as in the words of `bits`).
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f,avx512bw,avx512vl,avx512vbmi")]
#[inline]
fn load_table(bits: &[u64], xlimit: usize) -> std::arch::x86_64::__m512i {
    use std::arch::x86_64::*;
    assert!(bits.len() >= 8 && xlimit <= 512);
    let bytes = xlimit / 8;
    let keep = if bytes >= 64 {
        u64::MAX
    } else {
        (1u64 << bytes) - 1
    };
    // SAFETY: bits holds at least 8 words = 64 bytes.
    unsafe { _mm512_maskz_loadu_epi8(keep, bits.as_ptr() as *const i8) }
}

/// Writes the table back into `bits` below `xlimit` and recounts `missing`.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f,avx512bw,avx512vl,avx512vbmi")]
#[inline]
fn store_table(
    table: std::arch::x86_64::__m512i,
    bits: &mut [u64],
    xlimit: usize,
    missing: &mut usize,
) {
    use std::arch::x86_64::*;
    let mut words = [0u64; 8];
    // SAFETY: words holds 64 bytes.
    unsafe { _mm512_storeu_si512(words.as_mut_ptr() as *mut _, table) };
    let n = xlimit / 64;
    bits[..n].copy_from_slice(&words[..n]);
    *missing = words[..n].iter().map(|w| w.count_ones() as usize).sum();
}

/// `table` without `v`, computed in registers.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f,avx512bw,avx512vl,avx512vbmi")]
#[inline]
fn clear_bit(table: std::arch::x86_64::__m512i, v: usize) -> std::arch::x86_64::__m512i {
    use std::arch::x86_64::*;
    let one = _mm512_maskz_set1_epi8(1u64 << ((v >> 3) & 63), (1u8 << (v & 7)) as i8);
    _mm512_andnot_si512(one, table)
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f,avx512bw,avx512vl,avx512vbmi")]
unsafe fn cover_u16_avx512(
    w: &[u16],
    m: usize,
    from: usize,
    half: usize,
    xlimit: usize,
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
    // The need bits of the 32 pairs from b, and their values.
    // SAFETY (the loads): callers keep b >= 1 and b + 31 <= half <= m / 2,
    // so w[b..b + 32] and w[m - b - 31..=m - b] lie inside w[1..m].
    let look = |b: usize, table: __m512i| -> u32 {
        let lo = unsafe { _mm512_loadu_si512(w.as_ptr().add(b) as *const _) };
        let hi = unsafe { _mm512_loadu_si512(w.as_ptr().add(m - b - 31) as *const _) };
        let x = _mm512_xor_si512(lo, _mm512_permutexvar_epi16(reverse, hi));
        let byte_index = _mm512_cvtepi16_epi8(_mm512_srli_epi16(x, 3));
        let bit_index = _mm512_cvtepi16_epi8(_mm512_and_si512(x, seven));
        let bytes = _mm512_permutexvar_epi8(_mm512_castsi256_si512(byte_index), table);
        let select = _mm256_shuffle_epi8(one_bit, bit_index);
        _mm256_test_epi8_mask(_mm512_castsi512_si256(bytes), select)
    };
    let pair = |b: usize, i: usize| (w[b + i] ^ w[m - b - i]) as usize;
    let mut table = load_table(bits, xlimit);
    let mut b = from;
    // Four steps against one table: after the first pairs most steps hit
    // nothing and the rest hit one need value, which is crossed off without
    // a branch; a step with two or more hits sends the four through the
    // exact lane-by-lane loop.
    while b + 127 <= half && _mm512_test_epi64_mask(table, table) != 0 {
        let h = [
            look(b, table),
            look(b + 32, table),
            look(b + 64, table),
            look(b + 96, table),
        ];
        let mut several = 0;
        for (c, &hits) in h.iter().enumerate() {
            several |= hits & hits.wrapping_sub(1);
            let i = (hits.trailing_zeros() & 31) as usize;
            let v = pair(b + 32 * c, i);
            let keep = ((hits != 0) as u64).wrapping_neg() & (1u64 << ((v >> 3) & 63));
            table =
                _mm512_andnot_si512(_mm512_maskz_set1_epi8(keep, (1u8 << (v & 7)) as i8), table);
        }
        if several != 0 {
            for c in 0..4 {
                let base = b + 32 * c;
                let mut hits = look(base, table);
                while hits != 0 {
                    let i = hits.trailing_zeros() as usize;
                    hits &= hits - 1;
                    table = clear_bit(table, pair(base, i));
                }
            }
        }
        b += 128;
    }
    while b + 31 <= half && _mm512_test_epi64_mask(table, table) != 0 {
        let mut hits = look(b, table);
        while hits != 0 {
            let i = hits.trailing_zeros() as usize;
            hits &= hits - 1;
            table = clear_bit(table, pair(b, i));
        }
        b += 32;
    }
    store_table(table, bits, xlimit, missing);
    (b - from) as u64 + cover_plain(w, m, b, half, bits, missing)
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f,avx512bw,avx512vl,avx512vbmi")]
unsafe fn cover_u8_avx512(
    w: &[u8],
    m: usize,
    from: usize,
    half: usize,
    xlimit: usize,
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
    let mut table = load_table(bits, xlimit);
    let mut b = from;
    // SAFETY (the loads below): as in the 16-bit version, with 64 lanes:
    // b + 63 <= half keeps w[b..b + 64] and w[m - b - 63..=m - b] in w[1..m].
    while b + 63 <= half && _mm512_test_epi64_mask(table, table) != 0 {
        let lo = unsafe { _mm512_loadu_si512(w.as_ptr().add(b) as *const _) };
        let hi = unsafe { _mm512_loadu_si512(w.as_ptr().add(m - b - 63) as *const _) };
        let x = _mm512_xor_si512(lo, _mm512_permutexvar_epi8(reverse, hi));
        let byte_index = _mm512_and_si512(_mm512_srli_epi16(x, 3), low5);
        let bit_index = _mm512_and_si512(x, seven);
        let bytes = _mm512_permutexvar_epi8(byte_index, table);
        let select = _mm512_shuffle_epi8(one_bit, bit_index);
        let mut hits = _mm512_test_epi8_mask(bytes, select);
        while hits != 0 {
            let i = hits.trailing_zeros() as usize;
            hits &= hits - 1;
            table = clear_bit(table, (w[b + i] ^ w[m - b - i]) as usize);
        }
        b += 64;
    }
    store_table(table, bits, xlimit, missing);
    (b - from) as u64 + cover_plain(w, m, b, half, bits, missing)
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
