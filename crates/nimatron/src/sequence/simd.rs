//! The inner loop of the sparse method's step 2: scan the two-heap options
//! `G(b) ^ G(m - b)` for `b = 1, 2, ...` and cross off the values of a need
//! set (a bit set) until none is left.
//!
//! On x86-64 processors with AVX-512 (F, BW, VL, VBMI, VBMI2) the scan goes
//! in batches of [`BATCH`] pairs, 32 or 64 per step: the values are XORed
//! lane by lane against the reversed tail, each lane's bit is fetched from
//! the need set (held in a register, unchanged during the batch) with a byte
//! permute, and the values that hit are packed into a list. After the batch
//! the list is crossed off the need set, which stays in the register for the
//! whole scan. Within a batch no step waits for another, so the steps
//! overlap. Elsewhere, and for values of 512 and more,
//! a plain loop marks the first pairs all at once and then looks pair by
//! pair.

use super::values::Cell;

/// Pairs marked all at once at the start of a scan.
const DENSE_PAIRS: usize = 256;

/// Values covered by the marking table of the first phase.
const DENSE_LIMIT: usize = 1024;

/// Crosses off need values found among pairs `(b, m - b)`, `1 <= b <= half`,
/// stopping once `missing` reaches 0. `bits` (at least 8 words) holds the
/// need set; every pair value is below `xlimit`, and `missing` counts the
/// need values below it. The scan runs from `b = start` up to `half`, then
/// from 1 up to `start - 1` (from 1 when `start` is not in `1..=half`):
/// any order visits the same pairs, and one that begins past the first
/// heap sizes, whose values are still small, often ends much sooner.
/// `front` is empty or [`Front`] of the first values of `window` (two-byte
/// values only). Returns the pairs visited.
#[allow(clippy::too_many_arguments)]
pub(crate) fn cover<T: Cell>(
    window: &[T],
    front: &[u16],
    m: usize,
    half: usize,
    start: usize,
    xlimit: usize,
    bits: &mut [u64],
    missing: &mut usize,
) -> u64 {
    let start = if (1..=half).contains(&start) {
        start
    } else {
        1
    };
    let mut visited = cover_range(window, front, m, start, half, xlimit, bits, missing);
    if start > 1 && *missing > 0 {
        visited += cover_range(window, front, m, 1, start - 1, xlimit, bits, missing);
    }
    visited
}

/// The first values of a sequence in reverse order: `front[i] = g[len - 1
/// - i]` for `len = front.len()`. Step 2 pairs `g[b..b + 32]` with the
/// values ending at `g[m - b]` in reverse; reading the small heaps from
/// here, 32 of them already reversed, saves a lane permute per step (about
/// a tenth of the scan's time). The small heaps are the same for every
/// position, so one copy of the first [`FRONT`] values serves all scans.
pub(crate) fn front_copy<T: Cell>(g: &[T], len: usize) -> Vec<u16> {
    g[..len].iter().rev().map(|x| x.get() as u16).collect()
}

/// Values kept by [`front_copy`]: scans begin below 2^15 (see the sparse
/// method's scan start) and rarely go 2^15 pairs further.
pub(crate) const FRONT: usize = 1 << 16;

/// [`cover`] over the pairs `from <= b <= to` in order (`1 <= from`, `to <=
/// m / 2`).
#[allow(clippy::too_many_arguments)]
fn cover_range<T: Cell>(
    window: &[T],
    front: &[u16],
    m: usize,
    from: usize,
    to: usize,
    xlimit: usize,
    bits: &mut [u64],
    missing: &mut usize,
) -> u64 {
    debug_assert!(window.len() >= m && from >= 1 && to <= m / 2 && bits.len() >= 8);
    if from > to {
        return 0;
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
                let mut visited = 0;
                let mut from = from;
                // The steps whose small heaps all lie in `front`.
                let reach = to.min(front.len().saturating_sub(32));
                if from + 31 <= reach && front.len() <= window.len() {
                    // SAFETY: as below; the front loads stay inside front.
                    visited = unsafe {
                        cover_u16_avx512::<true>(w, front, m, from, reach, xlimit, bits, missing)
                    };
                    from += visited as usize;
                    if *missing == 0 || from > to {
                        return visited;
                    }
                }
                return visited
                    + unsafe {
                        cover_u16_avx512::<false>(w, &[], m, from, to, xlimit, bits, missing)
                    };
            }
            if size == 1 && xlimit <= 256 {
                // SAFETY: as above, T is u8.
                let w = unsafe {
                    std::slice::from_raw_parts(window.as_ptr() as *const u8, window.len())
                };
                return unsafe { cover_u8_avx512(w, m, from, to, xlimit, bits, missing) };
            }
        }
    }
    let mut visited = 0;
    let mut from = from;
    if xlimit <= DENSE_LIMIT && to + 1 - from >= DENSE_PAIRS && *missing > 4 {
        dense_prefix(window, m, from, xlimit, bits, missing);
        visited = DENSE_PAIRS as u64;
        from += DENSE_PAIRS;
        if *missing == 0 {
            return visited;
        }
    }
    visited + cover_plain(window, m, from, to, bits, missing)
}

/// Pairs per batch of the vector scan.
const BATCH: usize = 512;

/// Marks the values of pairs `from..from + DENSE_PAIRS`, then crosses them
/// off the need set and recounts `missing`.
fn dense_prefix<T: Cell>(
    window: &[T],
    m: usize,
    from: usize,
    xlimit: usize,
    bits: &mut [u64],
    missing: &mut usize,
) {
    let mut seen = [0u8; DENSE_LIMIT];
    let lo = &window[from..from + DENSE_PAIRS];
    let hi = &window[m + 1 - from - DENSE_PAIRS..=m - from];
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

/// Whether the AVX-512 paths can run (F, BW, VL, VBMI and VBMI2, with
/// POPCNT, BMI1 and BMI2), checked once.
#[cfg(target_arch = "x86_64")]
pub(crate) fn avx512_available() -> bool {
    static AVAILABLE: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    *AVAILABLE.get_or_init(|| {
        is_x86_feature_detected!("avx512f")
            && is_x86_feature_detected!("avx512bw")
            && is_x86_feature_detected!("avx512vl")
            && is_x86_feature_detected!("avx512vbmi")
            && is_x86_feature_detected!("avx512vbmi2")
            && is_x86_feature_detected!("popcnt")
            && is_x86_feature_detected!("bmi1")
            && is_x86_feature_detected!("bmi2")
    })
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

/// Crosses the packed hit values `list` (all below 512) off the need set
/// held in `table`. A few are cleared one by one in registers; many are
/// first marked in a byte table, so that no step waits for the one before.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f,avx512bw,avx512vl,avx512vbmi,avx512vbmi2,popcnt,bmi1,bmi2")]
#[inline]
fn cross_off_table<V: Copy + Into<usize>>(
    list: &[V],
    table: std::arch::x86_64::__m512i,
) -> std::arch::x86_64::__m512i {
    use std::arch::x86_64::*;
    let mut found = _mm512_setzero_si512();
    if list.len() <= FEW_HITS {
        for &x in list {
            let x: usize = x.into() & 511;
            // Bit x % 8 of byte x / 8.
            let one = _mm512_maskz_set1_epi8(1u64 << (x >> 3), (1u8 << (x & 7)) as i8);
            found = _mm512_or_si512(found, one);
        }
    } else {
        let mut seen = [0u8; 512];
        for &x in list {
            let x: usize = x.into();
            seen[x & 511] = 1;
        }
        for (i, chunk) in seen.chunks_exact(64).enumerate() {
            // SAFETY: the chunk holds 64 bytes.
            let bytes = unsafe { _mm512_loadu_si512(chunk.as_ptr() as *const _) };
            let word = _mm512_test_epi8_mask(bytes, bytes);
            found = _mm512_mask_set1_epi64(found, 1 << i, word as i64);
        }
    }
    _mm512_andnot_si512(found, table)
}

/// Hit lists up to this long are crossed off one by one.
const FEW_HITS: usize = 8;

/// Recounts the need values below `xlimit`.
#[inline]
fn count_below(bits: &[u64], xlimit: usize) -> usize {
    bits[..xlimit / 64]
        .iter()
        .map(|w| w.count_ones() as usize)
        .sum()
}

/// The bytes of a 512-bit need-set register that hold values below
/// `xlimit` (at most 512), as a byte mask.
fn table_bytes(xlimit: usize) -> u64 {
    let bytes = xlimit / 8;
    if bytes >= 64 {
        u64::MAX
    } else {
        (1u64 << bytes) - 1
    }
}

/// The need set below `xlimit` as a 512-bit register (bit `v` is bit
/// `v % 8` of byte `v / 8`, as in the words of `bits`).
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f,avx512bw,avx512vl,avx512vbmi,avx512vbmi2,popcnt,bmi1,bmi2")]
#[inline]
fn load_table(bits: &[u64], xlimit: usize) -> std::arch::x86_64::__m512i {
    use std::arch::x86_64::*;
    assert!(bits.len() >= 8 && xlimit <= 512);
    let keep = table_bytes(xlimit);
    // SAFETY: bits holds at least 8 words = 64 bytes.
    unsafe { _mm512_maskz_loadu_epi8(keep, bits.as_ptr() as *const i8) }
}

/// Writes the need set below `xlimit` back from a register made by
/// [`load_table`]; the words from `xlimit` up are left as they are.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f,avx512bw,avx512vl,avx512vbmi,avx512vbmi2,popcnt,bmi1,bmi2")]
#[inline]
fn store_table(bits: &mut [u64], xlimit: usize, table: std::arch::x86_64::__m512i) {
    use std::arch::x86_64::*;
    assert!(bits.len() >= 8 && xlimit <= 512);
    let keep = table_bytes(xlimit);
    // SAFETY: bits holds at least 8 words = 64 bytes.
    unsafe { _mm512_mask_storeu_epi8(bits.as_mut_ptr() as *mut i8, keep, table) }
}

/// The 16-bit vector scan over `from..=to`. With `FRONT`, the small heaps
/// are read from `front` (see [`front_copy`]), `to + 32 <= front.len()`,
/// and the scan stops after the last full step, leaving the few pairs
/// after it to the caller; without, it finishes them.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f,avx512bw,avx512vl,avx512vbmi,avx512vbmi2,popcnt,bmi1,bmi2")]
#[allow(clippy::too_many_arguments)]
unsafe fn cover_u16_avx512<const FRONT: bool>(
    w: &[u16],
    front: &[u16],
    m: usize,
    from: usize,
    to: usize,
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
    let one = _mm512_set1_epi16(1);
    let fifteen = _mm512_set1_epi16(15);
    // Left uninitialised: a call is a few hundred pairs, and clearing the
    // list cost more than 1% of the whole computation. Only the `count`
    // entries the stores below have written are read.
    let mut list = std::mem::MaybeUninit::<[u16; BATCH + 32]>::uninit();
    let list_ptr = list.as_mut_ptr() as *mut u16;
    let mut b = from;
    let mut table = load_table(bits, xlimit);
    while b + 31 <= to && _mm512_test_epi64_mask(table, table) != 0 {
        let stop = (b + BATCH).min(to + 1);
        let mut count = 0;
        // SAFETY (the loads): b >= 1 and b + 31 <= to <= m / 2 keep
        // w[b..b + 32] and w[m - b - 31..=m - b] inside w[1..m], and with
        // FRONT, to + 32 <= front.len() keeps front[len - 32 - b..len - b]
        // inside front; at most
        // BATCH lanes are packed before the list is emptied, and each
        // store writes 32 entries from `count` <= BATCH.
        while b + 31 < stop {
            let hi = unsafe { _mm512_loadu_si512(w.as_ptr().add(m - b - 31) as *const _) };
            let x = if FRONT {
                // Lane i: g[b + 31 - i] ^ g[m - b - 31 + i].
                let lo = unsafe {
                    _mm512_loadu_si512(front.as_ptr().add(front.len() - 32 - b) as *const _)
                };
                _mm512_xor_si512(lo, hi)
            } else {
                let lo = unsafe { _mm512_loadu_si512(w.as_ptr().add(b) as *const _) };
                _mm512_xor_si512(lo, _mm512_permutexvar_epi16(reverse, hi))
            };
            // The table as 32 words of 16 bits: word x / 16, bit x % 16.
            let words = _mm512_permutexvar_epi16(_mm512_srli_epi16(x, 4), table);
            let select = _mm512_sllv_epi16(one, _mm512_and_si512(x, fifteen));
            let hits = _mm512_test_epi16_mask(words, select);
            let packed = _mm512_maskz_compress_epi16(hits, x);
            unsafe { _mm512_storeu_si512(list_ptr.add(count) as *mut _, packed) };
            count += hits.count_ones() as usize;
            b += 32;
        }
        // SAFETY: the stores above wrote list[..count].
        let hits = unsafe { std::slice::from_raw_parts(list_ptr, count) };
        table = cross_off_table(hits, table);
    }
    store_table(bits, xlimit, table);
    *missing = count_below(bits, xlimit);
    if FRONT {
        return (b - from) as u64;
    }
    (b - from) as u64 + cover_plain(w, m, b, to, bits, missing)
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f,avx512bw,avx512vl,avx512vbmi,avx512vbmi2,popcnt,bmi1,bmi2")]
unsafe fn cover_u8_avx512(
    w: &[u8],
    m: usize,
    from: usize,
    to: usize,
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
    // Left uninitialised: a call is a few hundred pairs, and clearing the
    // list cost more than 1% of the whole computation. Only the `count`
    // entries the stores below have written are read.
    let mut list = std::mem::MaybeUninit::<[u8; BATCH + 64]>::uninit();
    let list_ptr = list.as_mut_ptr() as *mut u8;
    let mut b = from;
    let mut table = load_table(bits, xlimit);
    while b + 63 <= to && _mm512_test_epi64_mask(table, table) != 0 {
        let stop = (b + BATCH).min(to + 1);
        let mut count = 0;
        // SAFETY (the loads and stores): as in the 16-bit version, with 64
        // lanes.
        while b + 63 < stop {
            let lo = unsafe { _mm512_loadu_si512(w.as_ptr().add(b) as *const _) };
            let hi = unsafe { _mm512_loadu_si512(w.as_ptr().add(m - b - 63) as *const _) };
            let x = _mm512_xor_si512(lo, _mm512_permutexvar_epi8(reverse, hi));
            let byte_index = _mm512_and_si512(_mm512_srli_epi16(x, 3), low5);
            let bit_index = _mm512_and_si512(x, seven);
            let bytes = _mm512_permutexvar_epi8(byte_index, table);
            let select = _mm512_shuffle_epi8(one_bit, bit_index);
            let hits = _mm512_test_epi8_mask(bytes, select);
            let packed = _mm512_maskz_compress_epi8(hits, x);
            unsafe { _mm512_storeu_si512(list_ptr.add(count) as *mut _, packed) };
            count += hits.count_ones() as usize;
            b += 64;
        }
        // SAFETY: the stores above wrote list[..count].
        let hits = unsafe { std::slice::from_raw_parts(list_ptr, count) };
        table = cross_off_table(hits, table);
    }
    store_table(bits, xlimit, table);
    *missing = count_below(bits, xlimit);
    (b - from) as u64 + cover_plain(w, m, b, to, bits, missing)
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
        for round in 0..300 {
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
                // Scans that start at 1, past the end, or anywhere between.
                let start = match round % 4 {
                    0 => 1,
                    1 => half + 1 + next() as usize % 8,
                    _ => 1 + next() as usize % half,
                };
                if use_u8 {
                    cover(&g8, &[], m, half, start, xlimit, &mut a, &mut ma);
                    cover_plain(&g8, m, 1, half, &mut b, &mut mb);
                } else {
                    cover(&g16, &front, m, half, start, xlimit, &mut a, &mut ma);
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
