//! The `avx512` path (AVX-512 F, BW, VL, VBMI, VBMI2, with AVX2, BMI1,
//! BMI2 and POPCNT). It shares the AVX2 path's code for what it has no
//! kernel of its own for.
//!
//! - **Step 2**: batches of [`BATCH`] pairs, 32 two-byte or 64 one-byte
//!   values per step ([`Width`]). The values are XORed lane by lane against
//!   the reversed tail, each lane's bit is fetched from the need set (held
//!   in a register, unchanged during the batch) with a byte or word
//!   permute, and the values that hit are packed into a list. After the
//!   batch the list is crossed off the need set, which stays in the
//!   register for the whole scan. Within a batch no step waits for another,
//!   so the steps overlap. The scan runs before any dense phase.
//! - **Step 1** compares a block's 32 lanes as two-byte words, one compare
//!   with a mask per candidate and entry.

use super::super::super::probe::{CANDIDATES, Probe};
use super::super::super::values::Cell;
use super::super::scan::{self, DENSE_STEPS, DENSE_WORDS, Path};
use super::super::{Kernels, Simd};
use super::Avx2;
use std::arch::x86_64::*;

/// The `avx512` path's token: made only where the processor has AVX-512
/// F, BW, VL, VBMI and VBMI2 with AVX2, BMI1, BMI2 and POPCNT.
#[derive(Clone, Copy)]
pub(crate) struct Avx512(());

impl Avx512 {
    /// The AVX2 token the features imply.
    #[inline(always)]
    fn avx2(self) -> Avx2 {
        // SAFETY: this token's features include AVX2, BMI1, BMI2 and POPCNT
        // (see `x86_64::detect`).
        unsafe { Avx2::assume() }
    }
}

impl Path for Avx512 {
    const SIMD: Simd = Simd::Avx512;

    /// # Safety
    /// The processor has AVX-512 F, BW, VL, VBMI and VBMI2, AVX2, BMI1,
    /// BMI2 and POPCNT.
    unsafe fn assume() -> Avx512 {
        Avx512(())
    }

    #[inline(always)]
    fn scan_first<T: Cell>(
        self,
        window: &[T],
        front: &[u16],
        m: usize,
        from: usize,
        to: usize,
        xlimit: usize,
        bits: &mut [u64],
        missing: &mut usize,
    ) -> Option<u64> {
        if let (Some(w), true) = (T::as_u16s(window), xlimit <= 512) {
            let mut visited = 0;
            let mut from = from;
            // The steps whose small heaps all lie in `front`.
            let reach = to.min(front.len().saturating_sub(32));
            if from + 31 <= reach && front.len() <= w.len() {
                // SAFETY: the token says the features are present.
                visited = unsafe {
                    batches::<true, Words>(w, front, m, from, reach, xlimit, bits, missing)
                };
                from += visited as usize;
                if *missing == 0 || from > to {
                    return Some(visited);
                }
            }
            // SAFETY: as above.
            let rest =
                unsafe { batches::<false, Words>(w, &[], m, from, to, xlimit, bits, missing) };
            let done = from + rest as usize;
            return Some(visited + rest + scan::cover_plain(w, m, done, to, bits, missing));
        }
        if let (Some(w), true) = (T::as_u8s(window), xlimit <= 256) {
            // SAFETY: the token says the features are present.
            let seen =
                unsafe { batches::<false, Bytes>(w, &[], m, from, to, xlimit, bits, missing) };
            let done = from + seen as usize;
            return Some(seen + scan::cover_plain(w, m, done, to, bits, missing));
        }
        None
    }

    #[inline(always)]
    fn scan_run<T: Cell>(
        self,
        window: &[T],
        front: &[u16],
        m: usize,
        from: usize,
        to: usize,
        xlimit: usize,
        bits: &mut [u64],
        missing: &mut usize,
    ) -> Option<u64> {
        self.avx2()
            .scan_run(window, front, m, from, to, xlimit, bits, missing)
    }

    #[inline(always)]
    fn scan_steps<T: Cell>(
        self,
        window: &[T],
        front: &[u16],
        in_front: bool,
        m: usize,
        steps: &[u32],
        xlimit: usize,
        bits: &mut [u64],
        missing: &mut usize,
    ) -> Option<u64> {
        self.avx2()
            .scan_steps(window, front, in_front, m, steps, xlimit, bits, missing)
    }

    #[inline(always)]
    fn dense_run<T: Cell>(
        self,
        window: &[T],
        front: &[u16],
        m: usize,
        from: usize,
    ) -> Option<[u64; DENSE_WORDS]> {
        self.avx2().dense_run(window, front, m, from)
    }

    #[inline(always)]
    fn dense_steps<T: Cell>(
        self,
        window: &[T],
        front: &[u16],
        in_front: bool,
        m: usize,
        steps: &[u32; DENSE_STEPS],
    ) -> Option<[u64; DENSE_WORDS]> {
        self.avx2().dense_steps(window, front, in_front, m, steps)
    }

    #[inline(always)]
    fn byte_bits(self, bytes: &[u8], tag: u8, out: &mut [u64]) {
        // SAFETY: the token says the features are present.
        unsafe { byte_bits_avx512(bytes, tag, out) }
    }
}

/// Pairs per batch of the vector scan.
const BATCH: usize = 512;

/// Hit lists up to this long are crossed off one by one.
const FEW_HITS: usize = 8;

/// The values of a step of [`batches`]: 32 two-byte ([`Words`]) or 64
/// one-byte ([`Bytes`]) lanes of one register.
trait Width {
    /// A value.
    type Value: Copy + Into<usize>;
    /// Lanes per step.
    const LANES: usize;

    /// The step's values `g[b + i] ^ g[m - b - i]` in some order of the
    /// lanes `i`, the small heaps from the reversed `front` with `FRONT`.
    ///
    /// # Safety
    /// The features are present; `1 <= b`, `b + LANES - 1 <= m / 2`,
    /// `w.len() >= m`, and with `FRONT`, `b + 32 <= front.len()`.
    unsafe fn values<const FRONT: bool>(
        w: &[Self::Value],
        front: &[u16],
        m: usize,
        b: usize,
    ) -> __m512i;

    /// The lanes of `x` whose value is in the need set `table`.
    ///
    /// # Safety
    /// The features are present.
    unsafe fn hits(x: __m512i, table: __m512i) -> u64;

    /// Stores the lanes `hits` of `x`, packed, at `to`.
    ///
    /// # Safety
    /// The features are present, and `to` has room for `LANES` values.
    unsafe fn compress_store(hits: u64, x: __m512i, to: *mut Self::Value);
}

/// Two-byte values, 32 a step.
struct Words;

impl Width for Words {
    type Value = u16;
    const LANES: usize = 32;

    #[inline(always)]
    unsafe fn values<const FRONT: bool>(w: &[u16], front: &[u16], m: usize, b: usize) -> __m512i {
        // SAFETY: this function's contract keeps every load inside w and
        // front.
        unsafe {
            let hi = _mm512_loadu_si512(w.as_ptr().add(m - b - 31) as *const _);
            if FRONT {
                // Lane i: g[b + 31 - i] ^ g[m - b - 31 + i].
                let lo = _mm512_loadu_si512(front.as_ptr().add(front.len() - 32 - b) as *const _);
                _mm512_xor_si512(lo, hi)
            } else {
                // Lane i takes lane 31 - i.
                let reverse = _mm512_set_epi16(
                    0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21,
                    22, 23, 24, 25, 26, 27, 28, 29, 30, 31,
                );
                let lo = _mm512_loadu_si512(w.as_ptr().add(b) as *const _);
                _mm512_xor_si512(lo, _mm512_permutexvar_epi16(reverse, hi))
            }
        }
    }

    #[inline(always)]
    unsafe fn hits(x: __m512i, table: __m512i) -> u64 {
        // SAFETY: the features are present (this function's contract).
        unsafe {
            // The table as 32 words of 16 bits: word x / 16, bit x % 16.
            let words = _mm512_permutexvar_epi16(_mm512_srli_epi16(x, 4), table);
            let select = _mm512_sllv_epi16(
                _mm512_set1_epi16(1),
                _mm512_and_si512(x, _mm512_set1_epi16(15)),
            );
            _mm512_test_epi16_mask(words, select) as u64
        }
    }

    #[inline(always)]
    unsafe fn compress_store(hits: u64, x: __m512i, to: *mut u16) {
        // SAFETY: the features are present and `to` has room for 32 values
        // (this function's contract).
        unsafe {
            let packed = _mm512_maskz_compress_epi16(hits as u32, x);
            _mm512_storeu_si512(to as *mut _, packed);
        }
    }
}

/// One-byte values, 64 a step.
struct Bytes;

impl Width for Bytes {
    type Value = u8;
    const LANES: usize = 64;

    #[inline(always)]
    unsafe fn values<const FRONT: bool>(w: &[u8], _front: &[u16], m: usize, b: usize) -> __m512i {
        debug_assert!(!FRONT, "one-byte values have no front copy");
        // SAFETY: this function's contract keeps both loads inside w.
        unsafe {
            // Lane i takes lane 63 - i.
            let reverse = _mm512_set_epi8(
                0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22,
                23, 24, 25, 26, 27, 28, 29, 30, 31, 32, 33, 34, 35, 36, 37, 38, 39, 40, 41, 42, 43,
                44, 45, 46, 47, 48, 49, 50, 51, 52, 53, 54, 55, 56, 57, 58, 59, 60, 61, 62, 63,
            );
            let lo = _mm512_loadu_si512(w.as_ptr().add(b) as *const _);
            let hi = _mm512_loadu_si512(w.as_ptr().add(m - b - 63) as *const _);
            _mm512_xor_si512(lo, _mm512_permutexvar_epi8(reverse, hi))
        }
    }

    #[inline(always)]
    unsafe fn hits(x: __m512i, table: __m512i) -> u64 {
        // SAFETY: the features are present (this function's contract).
        unsafe {
            let one_bit = _mm512_set1_epi64(0x8040_2010_0804_0201u64 as i64);
            let byte_index = _mm512_and_si512(_mm512_srli_epi16(x, 3), _mm512_set1_epi8(0x1F));
            let bit_index = _mm512_and_si512(x, _mm512_set1_epi8(7));
            let bytes = _mm512_permutexvar_epi8(byte_index, table);
            let select = _mm512_shuffle_epi8(one_bit, bit_index);
            _mm512_test_epi8_mask(bytes, select)
        }
    }

    #[inline(always)]
    unsafe fn compress_store(hits: u64, x: __m512i, to: *mut u8) {
        // SAFETY: the features are present and `to` has room for 64 values
        // (this function's contract).
        unsafe {
            let packed = _mm512_maskz_compress_epi8(hits, x);
            _mm512_storeu_si512(to as *mut _, packed);
        }
    }
}

/// The batch scan over the full steps of `from..=to`, `W::LANES` pairs a
/// step, with the need set below `xlimit` in a register; returns the pairs
/// visited (the pairs after the last full step are the caller's). With
/// `FRONT`, the small heaps are read from `front` (see
/// [`front_copy`](super::super::front_copy)).
///
/// # Safety
/// The features are present.
#[target_feature(enable = "avx512f,avx512bw,avx512vl,avx512vbmi,avx512vbmi2,popcnt,bmi1,bmi2")]
#[allow(clippy::too_many_arguments)]
unsafe fn batches<const FRONT: bool, W: Width>(
    w: &[W::Value],
    front: &[u16],
    m: usize,
    from: usize,
    to: usize,
    xlimit: usize,
    bits: &mut [u64],
    missing: &mut usize,
) -> u64 {
    assert!(bits.len() >= 8 && xlimit <= 512 && from >= 1 && to <= m / 2 && w.len() >= m);
    assert!(!FRONT || to + 32 <= front.len());
    let lanes = W::LANES;
    // Left uninitialised: a call is a few hundred pairs, and clearing the
    // list cost more than 1% of the whole computation. Only the `count`
    // entries the stores below have written are read.
    let mut list = std::mem::MaybeUninit::<[W::Value; BATCH + 64]>::uninit();
    let list_ptr = list.as_mut_ptr() as *mut W::Value;
    let mut b = from;
    let mut table = load_table(bits, xlimit);
    while b + lanes - 1 <= to && _mm512_test_epi64_mask(table, table) != 0 {
        let stop = (b + BATCH).min(to + 1);
        let mut count = 0;
        while b + lanes - 1 < stop {
            // SAFETY: b >= 1 and b + lanes - 1 <= to <= m / 2, with the
            // asserts above, are the loads' contract; at most BATCH lanes
            // are packed before the list is emptied, so each store of
            // `lanes` entries from `count` <= BATCH fits in BATCH + 64.
            unsafe {
                let x = W::values::<FRONT>(w, front, m, b);
                let hits = W::hits(x, table);
                W::compress_store(hits, x, list_ptr.add(count));
                count += hits.count_ones() as usize;
            }
            b += lanes;
        }
        // SAFETY: the stores above wrote list[..count].
        let hits = unsafe { std::slice::from_raw_parts(list_ptr, count) };
        table = cross_off_table(hits, table);
    }
    store_table(bits, xlimit, table);
    *missing = count_below(bits, xlimit);
    (b - from) as u64
}

/// Crosses the packed hit values `list` (all below 512) off the need set
/// held in `table`. A few are cleared one by one in registers; many are
/// first marked in a byte table, so that no step waits for the one before.
#[target_feature(enable = "avx512f,avx512bw,avx512vl,avx512vbmi,avx512vbmi2,popcnt,bmi1,bmi2")]
#[inline]
fn cross_off_table<V: Copy + Into<usize>>(list: &[V], table: __m512i) -> __m512i {
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

/// Recounts the need values below `xlimit`.
#[inline(always)]
fn count_below(bits: &[u64], xlimit: usize) -> usize {
    bits[..xlimit / 64]
        .iter()
        .map(|w| w.count_ones() as usize)
        .sum()
}

/// The bytes of a 512-bit need-set register that hold values below
/// `xlimit` (at most 512), as a byte mask.
#[inline(always)]
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
#[target_feature(enable = "avx512f,avx512bw,avx512vl,avx512vbmi,avx512vbmi2,popcnt,bmi1,bmi2")]
#[inline]
fn load_table(bits: &[u64], xlimit: usize) -> __m512i {
    let bits: &[u64; 8] = bits[..8].try_into().expect("eight words of need bits");
    assert!(xlimit <= 512);
    // SAFETY: bits holds 8 words = 64 bytes, and the masked load reads no
    // more.
    unsafe { _mm512_maskz_loadu_epi8(table_bytes(xlimit), bits.as_ptr() as *const i8) }
}

/// Writes the need set below `xlimit` back from a register made by
/// [`load_table`]; the words from `xlimit` up are left as they are.
#[target_feature(enable = "avx512f,avx512bw,avx512vl,avx512vbmi,avx512vbmi2,popcnt,bmi1,bmi2")]
#[inline]
fn store_table(bits: &mut [u64], xlimit: usize, table: __m512i) {
    let bits: &mut [u64; 8] = (&mut bits[..8])
        .try_into()
        .expect("eight words of need bits");
    assert!(xlimit <= 512);
    // SAFETY: bits holds 8 words = 64 bytes, and the masked store writes no
    // more.
    unsafe { _mm512_mask_storeu_epi8(bits.as_mut_ptr() as *mut i8, table_bytes(xlimit), table) }
}

/// Bit `i` of `out[w]` is set when `bytes[64 w + i] == tag`.
///
/// # Safety
/// AVX-512 F and BW are present.
#[target_feature(enable = "avx512f,avx512bw")]
unsafe fn byte_bits_avx512(bytes: &[u8], tag: u8, out: &mut [u64]) {
    let t = _mm512_set1_epi8(tag as i8);
    for (word, chunk) in out.iter_mut().zip(bytes.chunks_exact(64)) {
        // SAFETY: the chunk holds 64 bytes.
        let v = unsafe { _mm512_loadu_si512(chunk.as_ptr() as *const _) };
        *word = _mm512_cmpeq_epi8_mask(v, t);
    }
}

/// [`byte_bits_avx512`] as the table's entry.
///
/// # Safety
/// AVX-512 F and BW are present.
unsafe fn byte_bits(bytes: &[u8], tag: u8, out: &mut [u64]) {
    // SAFETY: this function's contract.
    unsafe { byte_bits_avx512(bytes, tag, out) }
}

/// Step 1's compare: 32 lanes of two bytes, one masked compare per
/// candidate and entry; four-byte values go lane by lane.
///
/// # Safety
/// The features are present; every `a` of the entries is at most `start`
/// and every `start - a + LANES` at most `g.len()`.
#[target_feature(enable = "avx512f,avx512bw,avx512vl")]
unsafe fn compare<T: Cell>(probe: &mut Probe, g: &[T], start: usize, entries: &[(u64, u32)]) {
    let wide = std::mem::size_of::<T>() == 2;
    if std::mem::size_of::<T>() > 2 {
        probe.compare_plain(g, start, entries);
        return;
    }
    let mut cand = [_mm512_setzero_si512(); CANDIDATES];
    for (c, lanes) in cand.iter_mut().zip(&probe.cand) {
        // SAFETY: 32 lanes of two bytes, 64 bytes.
        *c = unsafe { _mm512_loadu_si512(lanes.as_ptr() as *const _) };
    }
    let mut alive = probe.alive;
    for &(a, r) in entries {
        let p = g.as_ptr().wrapping_add(start - a as usize);
        // SAFETY: the caller checked that p..p + 32 lies in g.
        let values = unsafe {
            if wide {
                _mm512_loadu_si512(p as *const _)
            } else {
                _mm512_cvtepu8_epi16(_mm256_loadu_si256(p as *const _))
            }
        };
        let x = _mm512_xor_si512(values, _mm512_set1_epi16(r as u16 as i16));
        for (alive, c) in alive.iter_mut().zip(&cand) {
            *alive = _mm512_mask_cmpneq_epi16_mask(*alive, x, *c);
        }
    }
    probe.alive = alive;
}

// The entry points are compiled for x86-64-v3 as the avx2 path's are; the
// AVX-512 kernels are functions of their own, as before the re-layout.
super::super::entry_points!(
    #[target_feature(enable = "avx2,bmi1,bmi2,popcnt")]
    token = Avx512
);

/// The `avx512` path's kernels.
pub(crate) static KERNELS: Kernels = Kernels {
    path: Simd::Avx512,
    bytes: cell_kernels::<u8>(),
    shorts: cell_kernels::<u16>(),
    words: cell_kernels::<u32>(),
    byte_bits,
    greedy,
};
