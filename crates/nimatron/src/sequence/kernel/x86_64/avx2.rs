//! The `avx2` path (x86-64-v3: AVX2, BMI1, BMI2, POPCNT), and the AVX2
//! parts the `avx512` path shares.
//!
//! - **Step 2** takes 32 pairs a step. The need set's 64 bytes sit in four
//!   registers of 16; a lane's byte is fetched with four in-lane byte
//!   shuffles and three blends (one shuffle and no blend while every need
//!   value left is below 128, two and one below 256), its bit with one more
//!   shuffle, and one test says whether any lane hit. Hits are rare after
//!   the first pairs, so the lanes of a step that hits are read back one by
//!   one. The small heaps are read already reversed from the front copy
//!   where it holds them. A run of pairs and a plan's list of steps take
//!   the same loop ([`Walk`]).
//! - **Dense phases** compute their two-byte values sixteen at a time.
//! - **Step 1** compares a block's 32 lanes as bytes of one register (see
//!   [`compare`]).

use super::super::super::probe::{CANDIDATES, LANES, NONE, Probe};
use super::super::super::values::Cell;
use super::super::scan::{self, DENSE_PAIRS, DENSE_STEPS, DENSE_WORDS, Path, STEP};
use super::super::{Kernels, Simd};
use std::arch::x86_64::*;

/// The `avx2` path's token: made only where the processor has AVX2, BMI1,
/// BMI2 and POPCNT.
#[derive(Clone, Copy)]
pub(crate) struct Avx2(());

impl Path for Avx2 {
    const SIMD: Simd = Simd::Avx2;

    /// # Safety
    /// The processor has AVX2, BMI1, BMI2 and POPCNT.
    unsafe fn assume() -> Avx2 {
        Avx2(())
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
        if let (Some(w), true) = (T::as_u16s(window), xlimit <= 512) {
            return Some(self.run_u16(w, front, m, from, to, bits, missing));
        }
        if let (Some(w), true) = (T::as_u8s(window), xlimit <= 256) {
            // SAFETY: the token says AVX2 is present.
            return Some(unsafe { cover_u8(w, m, from, to, bits, missing) });
        }
        None
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
        let w = T::as_u16s(window).filter(|_| xlimit <= 512 && bits.len() >= 8)?;
        let list = List::new(steps, m, w.len(), if in_front { front.len() } else { 0 })?;
        let taken = if in_front {
            // SAFETY: the token says AVX2 is present.
            unsafe { cover_u16::<true, _>(w, front, m, &list, bits, missing) }
        } else {
            // SAFETY: as above.
            unsafe { cover_u16::<false, _>(w, &[], m, &list, bits, missing) }
        };
        Some((taken * STEP) as u64)
    }

    #[inline(always)]
    fn dense_run<T: Cell>(
        self,
        window: &[T],
        front: &[u16],
        m: usize,
        from: usize,
    ) -> Option<[u64; DENSE_WORDS]> {
        let w = T::as_u16s(window)?;
        // SAFETY: the token says AVX2 is present.
        Some(unsafe { dense_values(w, front, m, from) })
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
        let w = T::as_u16s(window)?;
        let list = List::new(steps, m, w.len(), if in_front { front.len() } else { 0 })?;
        // SAFETY: the token says AVX2 is present; the list checked its steps.
        Some(unsafe {
            if in_front {
                dense_step_values::<true>(w, front, m, &list)
            } else {
                dense_step_values::<false>(w, front, m, &list)
            }
        })
    }

    #[inline(always)]
    fn byte_bits(self, bytes: &[u8], tag: u8, out: &mut [u64]) {
        // SAFETY: the token says AVX2 is present.
        unsafe { byte_bits_avx2(bytes, tag, out) }
    }
}

impl Avx2 {
    /// The scan of pairs `from..=to`: the steps whose small heaps all lie
    /// in `front` read them already reversed, then the rest reverse the
    /// large heaps in registers, and the pairs after the last full step go
    /// pair by pair.
    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    pub(crate) fn run_u16(
        self,
        w: &[u16],
        front: &[u16],
        m: usize,
        from: usize,
        to: usize,
        bits: &mut [u64],
        missing: &mut usize,
    ) -> u64 {
        let mut visited = 0;
        let mut from = from;
        let reach = to.min(front.len().saturating_sub(32));
        if from + 31 <= reach && front.len() <= w.len() {
            let run = Run::new(from, reach, m, w.len(), front.len());
            // SAFETY: the token says AVX2 is present.
            let seen =
                (unsafe { cover_u16::<true, _>(w, front, m, &run, bits, missing) } * STEP) as u64;
            visited += seen;
            from += seen as usize;
            if *missing == 0 || from > to {
                return visited;
            }
        }
        let run = Run::new(from, to, m, w.len(), 0);
        // SAFETY: as above.
        let seen = unsafe { cover_u16::<false, _>(w, &[], m, &run, bits, missing) } * STEP;
        visited + seen as u64 + scan::cover_plain(w, m, from + seen, to, bits, missing)
    }
}

/// The starts `b` of a scan's steps of 32 pairs, each checked on making
/// the walk: `1 <= b`, `b + 31 <= m / 2` (so that `w[b..b + 32]` and
/// `w[m - b - 31..=m - b]` lie inside `w[1..m]`), `w.len() >= m`, and with
/// a front of length `front`, `b + 32 <= front`.
pub(crate) trait Walk {
    /// Step `i`'s `b`, or `None` past the last.
    fn get(&self, i: usize) -> Option<usize>;
}

/// A run of pairs `from..=to`: the steps `from, from + 32, ...` that end
/// by `to`.
pub(crate) struct Run {
    from: usize,
    to: usize,
}

impl Run {
    /// Panics unless `from >= 1`, `to <= m / 2`, `w_len >= m` and, with a
    /// front (`front > 0`), `to + 32 <= front`.
    fn new(from: usize, to: usize, m: usize, w_len: usize, front: usize) -> Run {
        assert!(from >= 1 && to <= m / 2 && w_len >= m && (front == 0 || to + 32 <= front));
        Run { from, to }
    }
}

impl Walk for Run {
    #[inline(always)]
    fn get(&self, i: usize) -> Option<usize> {
        let b = self.from + STEP * i;
        (b + 31 <= self.to).then_some(b)
    }
}

/// A plan's steps.
pub(crate) struct List<'a>(&'a [u32]);

impl<'a> List<'a> {
    /// The steps, or `None` unless every one is a step of [`Walk`] (with a
    /// front when `front > 0`).
    #[inline(always)]
    fn new(steps: &'a [u32], m: usize, w_len: usize, front: usize) -> Option<List<'a>> {
        // Min and max over the whole plan compile to a few vector
        // operations, where a test step by step would not.
        let lowest = steps.iter().copied().min().unwrap_or(1) as usize;
        let highest = steps.iter().copied().max().unwrap_or(1) as usize;
        let fits = lowest >= 1
            && highest + 31 <= m / 2
            && w_len >= m
            && (front == 0 || highest + 32 <= front);
        fits.then_some(List(steps))
    }
}

impl Walk for List<'_> {
    #[inline(always)]
    fn get(&self, i: usize) -> Option<usize> {
        self.0.get(i).map(|&b| b as usize)
    }
}

/// Reverses the eight words of each half of a register; swapping the
/// halves then reverses all sixteen.
#[target_feature(enable = "avx2")]
#[inline]
fn reverse_words() -> __m256i {
    _mm256_setr_epi8(
        14, 15, 12, 13, 10, 11, 8, 9, 6, 7, 4, 5, 2, 3, 0, 1, 14, 15, 12, 13, 10, 11, 8, 9, 6, 7,
        4, 5, 2, 3, 0, 1,
    )
}

/// The 32 values of the pairs `b0..b0 + 32` of heap `m` as two vectors, in
/// the lane order [`NeedTable::hits`] numbers: the small heaps from the
/// reversed `front` with `FRONT`, else reversed with the shuffle `reverse`.
/// Needs `1 <= b0`, `b0 + 31 <= m / 2`, `w.len() >= m` and with `FRONT`,
/// `b0 + 32 <= front.len()` (a step of [`Walk`]). (A macro, so that every
/// scan compiles it in place.)
macro_rules! step_values {
    ($front_copy:expr, $w:expr, $front:expr, $m:expr, $b0:expr, $reverse:expr) => {{
        let hi_a = _mm256_loadu_si256($w.as_ptr().add($m - $b0 - 15) as *const _);
        let hi_b = _mm256_loadu_si256($w.as_ptr().add($m - $b0 - 31) as *const _);
        if $front_copy {
            // Lane i: g[b + 15 - i] ^ g[m - b - 15 + i], and
            // g[b + 31 - i] ^ g[m - b - 31 + i].
            let f = $front.as_ptr().add($front.len() - 32 - $b0);
            let lo_b = _mm256_loadu_si256(f as *const _);
            let lo_a = _mm256_loadu_si256(f.add(16) as *const _);
            (_mm256_xor_si256(lo_a, hi_a), _mm256_xor_si256(lo_b, hi_b))
        } else {
            let lo_a = _mm256_loadu_si256($w.as_ptr().add($b0) as *const _);
            let lo_b = _mm256_loadu_si256($w.as_ptr().add($b0 + 16) as *const _);
            let hi_a = _mm256_permute4x64_epi64(_mm256_shuffle_epi8(hi_a, $reverse), 0x4E);
            let hi_b = _mm256_permute4x64_epi64(_mm256_shuffle_epi8(hi_b, $reverse), 0x4E);
            (_mm256_xor_si256(lo_a, hi_a), _mm256_xor_si256(lo_b, hi_b))
        }
    }};
}

/// The scan of two-byte values below 512 along `walk`, 32 pairs a step,
/// until the steps run out or the need set is covered: returns the steps
/// taken. With `FRONT`, the small heaps come from `front` (already
/// reversed); without, the large heaps are reversed in registers.
///
/// The lookup is as narrow as the largest need value left allows (see
/// [`NeedTable::hits`]): one 16-byte quarter of the need set while every
/// need value is below 128, two below 256, else four; the table is made
/// again after each step that hits, so a scan narrows as its largest need
/// values are found.
///
/// # Safety
/// AVX2 is present. (The walk's steps are checked on making it.)
#[target_feature(enable = "avx2,popcnt,bmi1,bmi2")]
unsafe fn cover_u16<const FRONT: bool, W: Walk>(
    w: &[u16],
    front: &[u16],
    m: usize,
    walk: &W,
    bits: &mut [u64],
    missing: &mut usize,
) -> usize {
    assert!(bits.len() >= 8);
    let mut i = 0;
    while walk.get(i).is_some() && *missing > 0 {
        let table = need_table(bits);
        let hit = match table.quarters {
            1 => steps::<FRONT, 1, W>(w, front, m, walk, &mut i, &table),
            2 => steps::<FRONT, 2, W>(w, front, m, walk, &mut i, &table),
            _ => steps::<FRONT, 4, W>(w, front, m, walk, &mut i, &table),
        };
        let Some((found, xs)) = hit else { break };
        cross_off_lanes(found, &xs, bits, missing);
        i += 1;
    }
    i
}

/// The steps of [`cover_u16`] from `*i` with a lookup of `Q` quarters,
/// until one hits: then `*i` is that step's and the result its lanes that
/// hit and its 32 values.
#[target_feature(enable = "avx2,popcnt,bmi1,bmi2")]
#[inline]
fn steps<const FRONT: bool, const Q: usize, W: Walk>(
    w: &[u16],
    front: &[u16],
    m: usize,
    walk: &W,
    i: &mut usize,
    table: &NeedTable,
) -> Option<(u32, [[u16; 16]; 2])> {
    let reverse = reverse_words();
    while let Some(b0) = walk.get(*i) {
        // SAFETY: a step of a walk keeps w[b..b + 32] and
        // w[m - b - 31..=m - b] inside w[1..m], and with FRONT,
        // front[len - 32 - b..len - b] inside front (see `Walk`).
        let (x_a, x_b) = unsafe { step_values!(FRONT, w, front, m, b0, reverse) };
        let found = table.hits::<Q>(x_a, x_b);
        if found != 0 {
            return Some((found, step_store(x_a, x_b)));
        }
        *i += 1;
    }
    None
}

/// The 32 values of a step, stored.
#[target_feature(enable = "avx2")]
#[inline]
fn step_store(x_a: __m256i, x_b: __m256i) -> [[u16; 16]; 2] {
    let mut xs = [[0u16; 16]; 2];
    // SAFETY: each store writes 32 bytes into its own row of 32 bytes.
    unsafe {
        _mm256_storeu_si256(xs[0].as_mut_ptr() as *mut _, x_a);
        _mm256_storeu_si256(xs[1].as_mut_ptr() as *mut _, x_b);
    }
    xs
}

/// Crosses off the values of the lanes `found` of a step's values `xs`.
#[inline(always)]
fn cross_off_lanes(mut found: u32, xs: &[[u16; 16]; 2], bits: &mut [u64], missing: &mut usize) {
    while found != 0 {
        // Byte j of a pack: half j / 16; its first eight bytes come from
        // the first sixteen pairs, the next eight from the second.
        let j = found.trailing_zeros() as usize;
        let (half, k) = (j / 16, j % 16);
        let x = xs[k / 8][8 * half + k % 8] as usize;
        scan::cross_off(bits, x, missing);
        found &= found - 1;
    }
}

/// The scan of one-byte values, 32 pairs a step, the pairs after the last
/// full step pair by pair.
///
/// # Safety
/// AVX2 is present.
#[target_feature(enable = "avx2,popcnt,bmi1,bmi2")]
unsafe fn cover_u8(
    w: &[u8],
    m: usize,
    from: usize,
    to: usize,
    bits: &mut [u64],
    missing: &mut usize,
) -> u64 {
    assert!(bits.len() >= 8 && from >= 1 && to <= m / 2 && w.len() >= m);
    let reverse = _mm256_setr_epi8(
        15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0, 15, 14, 13, 12, 11, 10, 9, 8, 7, 6,
        5, 4, 3, 2, 1, 0,
    );
    let seven = _mm256_set1_epi8(7);
    let low5 = _mm256_set1_epi8(0x1F);
    let mut table = need_table(bits);
    let mut b = from;
    while b + 31 <= to && *missing > 0 {
        // SAFETY: 1 <= b and b + 31 <= to <= m / 2 keep w[b..b + 32] and
        // w[m - b - 31..=m - b] inside w[1..m] (the assert above).
        let x = unsafe {
            let lo = _mm256_loadu_si256(w.as_ptr().add(b) as *const _);
            let hi = _mm256_loadu_si256(w.as_ptr().add(m - b - 31) as *const _);
            let hi = _mm256_permute4x64_epi64(_mm256_shuffle_epi8(hi, reverse), 0x4E);
            _mm256_xor_si256(lo, hi)
        };
        let index = _mm256_and_si256(_mm256_srli_epi16(x, 3), low5);
        let bit = _mm256_and_si256(x, seven);
        let found = table.hits_bytes(index, bit);
        if found != 0 {
            let mut xs = [0u8; 32];
            // SAFETY: 32 bytes into a 32-byte array.
            unsafe { _mm256_storeu_si256(xs.as_mut_ptr() as *mut _, x) };
            let mut found = found;
            while found != 0 {
                let j = found.trailing_zeros() as usize;
                scan::cross_off(bits, xs[j] as usize, missing);
                found &= found - 1;
            }
            table = need_table(bits);
        }
        b += 32;
    }
    (b - from) as u64 + scan::cover_plain(w, m, b, to, bits, missing)
}

/// The first 512 need bits as four 16-byte quarters, each in both halves
/// of a register, for in-lane byte shuffles, and how many of the quarters
/// hold a need value or lie below one (1, 2 or 4).
#[derive(Clone, Copy)]
struct NeedTable {
    quarters: usize,
    table: [__m256i; 4],
}

/// The 16-byte quarters of the first 512 bits of `bits` up to the last
/// that holds one: 1, 2 or 4.
#[inline(always)]
fn quarters_of(bits: &[u64]) -> usize {
    if bits[2..8].iter().all(|&w| w == 0) {
        1
    } else if bits[4..8].iter().all(|&w| w == 0) {
        2
    } else {
        4
    }
}

#[target_feature(enable = "avx2")]
fn need_table(bits: &[u64]) -> NeedTable {
    let bits: &[u64; 8] = bits[..8].try_into().expect("eight words of need bits");
    let bytes = bits.as_ptr() as *const u8;
    NeedTable {
        quarters: quarters_of(bits),
        // SAFETY: bits holds 64 bytes; quarter q reads bytes 16q..16q + 16.
        table: std::array::from_fn(|q| unsafe {
            _mm256_broadcastsi128_si256(_mm_loadu_si128(bytes.add(16 * q) as *const _))
        }),
    }
}

impl NeedTable {
    /// Bit `j` is set when lane `j`'s value `8 index + bit` is in the set
    /// (`index` below 64, `bit` below 8, lane by lane).
    #[target_feature(enable = "avx2")]
    fn hits_bytes(&self, index: __m256i, bit: __m256i) -> u32 {
        let [t0, t1, t2, t3] = self.table;
        // Indices below 64 leave bit 7 clear, so each shuffle reads byte
        // index % 16 of its quarter; bits 4 and 5 then pick the quarter.
        let q0 = _mm256_shuffle_epi8(t0, index);
        let q1 = _mm256_shuffle_epi8(t1, index);
        let q2 = _mm256_shuffle_epi8(t2, index);
        let q3 = _mm256_shuffle_epi8(t3, index);
        let bit4 = _mm256_slli_epi16(index, 3);
        let bit5 = _mm256_slli_epi16(index, 2);
        let bytes = _mm256_blendv_epi8(
            _mm256_blendv_epi8(q0, q1, bit4),
            _mm256_blendv_epi8(q2, q3, bit4),
            bit5,
        );
        let select = _mm256_shuffle_epi8(one_bit(), bit);
        Self::lanes(bytes, select)
    }

    /// The lanes of the 32 values `x_a`, `x_b` (two-byte, below 512) that
    /// are in the set, as [`NeedTable::hits_bytes`] numbers them, looking in
    /// the first `Q` quarters only: the table must have at most `Q`. A value
    /// past them takes a bit index past 7 (saturated to 255 by the pack),
    /// whose byte of [`one_bit`] is 0, so it misses whatever its quarter
    /// byte.
    #[target_feature(enable = "avx2")]
    #[inline]
    fn hits<const Q: usize>(&self, x_a: __m256i, x_b: __m256i) -> u32 {
        debug_assert!(self.quarters <= Q);
        // Bits 0 to 2 of the value, and the bits above the Q quarters'
        // 128 Q values.
        let keep = _mm256_set1_epi16((7 | (0x1FF & !(128 * Q as i32 - 1))) as i16);
        let index = _mm256_packus_epi16(_mm256_srli_epi16(x_a, 3), _mm256_srli_epi16(x_b, 3));
        let bit = _mm256_packus_epi16(_mm256_and_si256(x_a, keep), _mm256_and_si256(x_b, keep));
        let [t0, t1, t2, t3] = self.table;
        let bytes = match Q {
            1 => _mm256_shuffle_epi8(t0, index),
            2 => {
                let bit4 = _mm256_slli_epi16(index, 3);
                _mm256_blendv_epi8(
                    _mm256_shuffle_epi8(t0, index),
                    _mm256_shuffle_epi8(t1, index),
                    bit4,
                )
            }
            _ => {
                let bit4 = _mm256_slli_epi16(index, 3);
                let bit5 = _mm256_slli_epi16(index, 2);
                _mm256_blendv_epi8(
                    _mm256_blendv_epi8(
                        _mm256_shuffle_epi8(t0, index),
                        _mm256_shuffle_epi8(t1, index),
                        bit4,
                    ),
                    _mm256_blendv_epi8(
                        _mm256_shuffle_epi8(t2, index),
                        _mm256_shuffle_epi8(t3, index),
                        bit4,
                    ),
                    bit5,
                )
            }
        };
        let select = _mm256_shuffle_epi8(one_bit(), bit);
        Self::lanes(bytes, select)
    }

    /// The lanes where `bytes & select` is nonzero.
    #[target_feature(enable = "avx2")]
    #[inline]
    fn lanes(bytes: __m256i, select: __m256i) -> u32 {
        let both = _mm256_and_si256(bytes, select);
        if _mm256_testz_si256(both, both) != 0 {
            return 0;
        }
        !(_mm256_movemask_epi8(_mm256_cmpeq_epi8(both, _mm256_setzero_si256())) as u32)
    }
}

/// Byte `i` (and `16 + i`) is bit `i` for `i` below 8, else 0: a bit index
/// of 8 or more (and one with bit 7 set) selects nothing.
#[target_feature(enable = "avx2")]
#[inline]
fn one_bit() -> __m256i {
    _mm256_setr_epi8(
        1, 2, 4, 8, 16, 32, 64, -128, 0, 0, 0, 0, 0, 0, 0, 0, 1, 2, 4, 8, 16, 32, 64, -128, 0, 0,
        0, 0, 0, 0, 0, 0,
    )
}

/// The values of pairs `from..from + DENSE_PAIRS` (in some order, four to
/// a word as the dense phase takes them), sixteen pairs a step, the small
/// heaps from `front` (already reversed) when it holds them all, else
/// reversed in registers.
///
/// # Safety
/// AVX2 is present.
#[target_feature(enable = "avx2")]
unsafe fn dense_values(w: &[u16], front: &[u16], m: usize, from: usize) -> [u64; DENSE_WORDS] {
    assert!(from >= 1 && from + DENSE_PAIRS - 1 <= m / 2 && w.len() >= m);
    let reverse = reverse_words();
    let mut out = [0u64; DENSE_WORDS];
    let use_front = from + DENSE_PAIRS <= front.len();
    for (i, chunk) in out.chunks_exact_mut(4).enumerate() {
        let b = from + 16 * i;
        // SAFETY: b + 15 < from + DENSE_PAIRS <= m / 2 + 1 keeps
        // w[b..b + 16] and w[m - b - 15..=m - b] inside w[1..m]; with the
        // front, b + 16 <= front.len() keeps front[len - 16 - b..len - b]
        // inside it; the store writes the chunk's 16 values.
        unsafe {
            let hi = _mm256_loadu_si256(w.as_ptr().add(m - b - 15) as *const _);
            // Lane j: g[b + 15 - j] ^ g[m - b - 15 + j].
            let lo = if use_front {
                _mm256_loadu_si256(front.as_ptr().add(front.len() - 16 - b) as *const _)
            } else {
                let lo = _mm256_loadu_si256(w.as_ptr().add(b) as *const _);
                _mm256_permute4x64_epi64(_mm256_shuffle_epi8(lo, reverse), 0x4E)
            };
            _mm256_storeu_si256(chunk.as_mut_ptr() as *mut _, _mm256_xor_si256(lo, hi));
        }
    }
    out
}

/// The values of the [`DENSE_STEPS`] steps of a dense phase of a plan,
/// four to a word.
///
/// # Safety
/// AVX2 is present. (The list's steps are checked on making it.)
#[target_feature(enable = "avx2")]
#[inline]
unsafe fn dense_step_values<const FRONT: bool>(
    w: &[u16],
    front: &[u16],
    m: usize,
    steps: &List<'_>,
) -> [u64; DENSE_WORDS] {
    let reverse = reverse_words();
    let mut out = [0u64; DENSE_WORDS];
    for (i, chunk) in out.chunks_exact_mut(STEP / 4).enumerate() {
        let Some(b) = steps.get(i) else { break };
        // SAFETY: a step of a walk keeps its loads inside w and front (see
        // `Walk`); the stores write the chunk's 64 bytes.
        unsafe {
            let (x_a, x_b) = step_values!(FRONT, w, front, m, b, reverse);
            _mm256_storeu_si256(chunk.as_mut_ptr() as *mut _, x_a);
            _mm256_storeu_si256(chunk.as_mut_ptr().add(4) as *mut _, x_b);
        }
    }
    out
}

/// Bit `i` of `out[w]` is set when `bytes[64 w + i] == tag`.
///
/// # Safety
/// AVX2 is present.
#[target_feature(enable = "avx2")]
unsafe fn byte_bits_avx2(bytes: &[u8], tag: u8, out: &mut [u64]) {
    let t = _mm256_set1_epi8(tag as i8);
    for (word, chunk) in out.iter_mut().zip(bytes.chunks_exact(64)) {
        // SAFETY: the chunk holds 64 bytes, read as two halves of 32.
        let (lo, hi) = unsafe {
            (
                _mm256_loadu_si256(chunk.as_ptr() as *const _),
                _mm256_loadu_si256(chunk.as_ptr().add(32) as *const _),
            )
        };
        let lo = _mm256_movemask_epi8(_mm256_cmpeq_epi8(lo, t)) as u32 as u64;
        let hi = _mm256_movemask_epi8(_mm256_cmpeq_epi8(hi, t)) as u32 as u64;
        *word = lo | hi << 32;
    }
}

/// Step 1's compare on AVX2 (see [`compare_lanes`]); four-byte values go
/// lane by lane.
///
/// # Safety
/// AVX2 is present; every `a` of the entries is at most `start` and every
/// `start - a + LANES` at most `g.len()`.
#[target_feature(enable = "avx2")]
unsafe fn compare<T: Cell>(probe: &mut Probe, g: &[T], start: usize, entries: &[(u64, u32)]) {
    if std::mem::size_of::<T>() <= 2 {
        // SAFETY: this function's contract.
        unsafe { compare_lanes(probe, g, start, entries) }
    } else {
        probe.compare_plain(g, start, entries);
    }
}

/// [`Probe::compare`] on AVX2, the 32 lanes as bytes of one register:
/// one compare and one OR per candidate and entry (as two-byte lanes,
/// it took two of each).
///
/// Lane `j` compares values less its base `b_j`, one below its least
/// candidate (or 0; always 0 for one-byte values, which are exact as
/// they are): a value `x` becomes `min(x -sat b_j, 255)`, which
/// equals `c - b_j` exactly when `x = c`, for every candidate `c` with
/// `c - b_j <= 254`. Candidates past that are dropped (set to
/// [`NONE`], with those after them), so that a lane whose value lies
/// beyond its first few candidates is stamped instead, as when all its
/// candidates are hit.
///
/// # Safety
/// As [`compare`]'s, and `T` is of one or two bytes.
#[target_feature(enable = "avx2")]
unsafe fn compare_lanes<T: Cell>(probe: &mut Probe, g: &[T], start: usize, entries: &[(u64, u32)]) {
    let wide = std::mem::size_of::<T>() == 2;
    // A lane's candidates rise, so those dropped are the last ones.
    // (Lanes with no candidates keep none.)
    let mut base = [0u16; LANES];
    if wide {
        for (b, &least) in base.iter_mut().zip(&probe.cand[0]) {
            *b = least.saturating_sub(1);
        }
    }
    let mut bytes = [[0u8; LANES]; CANDIDATES];
    for (cand, bytes) in probe.cand.iter_mut().zip(&mut bytes) {
        for ((c, byte), &b) in cand.iter_mut().zip(bytes.iter_mut()).zip(&base) {
            let d = c.wrapping_sub(b);
            *byte = d as u8;
            if d > 254 {
                *c = NONE;
            }
        }
    }
    // The pack of two-byte lanes 0..16 and 16..32 orders its 8-byte
    // quarters as lanes 0..8, 16..24, 8..16, 24..32; this permute turns
    // lane order into that order and back.
    let order = |v: __m256i| {
        if wide {
            _mm256_permute4x64_epi64(v, 0xD8)
        } else {
            v
        }
    };
    let cand: [__m256i; CANDIDATES] = std::array::from_fn(|k| {
        // SAFETY: 32 bytes.
        order(unsafe { _mm256_loadu_si256(bytes[k].as_ptr() as *const _) })
    });
    // SAFETY: 16 lanes of two bytes each, 32 bytes.
    let (base_a, base_b) = unsafe {
        (
            _mm256_loadu_si256(base.as_ptr() as *const _),
            _mm256_loadu_si256(base.as_ptr().add(16) as *const _),
        )
    };
    let mut hits = [_mm256_setzero_si256(); CANDIDATES];
    for &(a, r) in entries {
        let p = g.as_ptr().wrapping_add(start - a as usize);
        // SAFETY: the caller checked that the 32 lanes from start - a
        // lie in g.
        let y = unsafe {
            if wide {
                let r = _mm256_set1_epi16(r as u16 as i16);
                let x_a = _mm256_xor_si256(_mm256_loadu_si256(p as *const _), r);
                let x_b = _mm256_xor_si256(_mm256_loadu_si256(p.add(16) as *const _), r);
                // Values, and so the differences, lie below 2^15: the
                // pack's signed saturation takes each to min(d, 255).
                _mm256_packus_epi16(
                    _mm256_subs_epu16(x_a, base_a),
                    _mm256_subs_epu16(x_b, base_b),
                )
            } else {
                // One-byte values: the bases are 0, and x is exact, but
                // for an r past a byte, whose x are past every candidate.
                if r > 255 {
                    continue;
                }
                let r = _mm256_set1_epi8(r as u8 as i8);
                _mm256_xor_si256(_mm256_loadu_si256(p as *const _), r)
            }
        };
        for (h, c) in hits.iter_mut().zip(&cand) {
            *h = _mm256_or_si256(*h, _mm256_cmpeq_epi8(y, *c));
        }
    }
    for (alive, h) in probe.alive.iter_mut().zip(hits) {
        *alive &= !(_mm256_movemask_epi8(order(h)) as u32);
    }
}

/// Bit `i` of `out[w]` is set when `bytes[64 w + i] == tag` (the table's
/// entry).
///
/// # Safety
/// AVX2 is present.
unsafe fn byte_bits(bytes: &[u8], tag: u8, out: &mut [u64]) {
    // SAFETY: this function's contract.
    unsafe { byte_bits_avx2(bytes, tag, out) }
}

super::super::entry_points!(
    #[target_feature(enable = "avx2,bmi1,bmi2,popcnt")]
    token = Avx2
);

/// The `avx2` path's kernels.
pub(crate) static KERNELS: Kernels = Kernels {
    path: Simd::Avx2,
    bytes: cell_kernels::<u8>(),
    shorts: cell_kernels::<u16>(),
    words: cell_kernels::<u32>(),
    byte_bits,
    greedy,
};

#[cfg(test)]
mod tests {
    use super::*;

    /// The lookup of one, two or four quarters finds exactly the lanes
    /// whose values are in the set, values past the quarters included
    /// (they must miss, not hit the value 128 or 256 below them).
    #[test]
    fn the_narrow_lookups_find_exactly_the_lanes_in_the_set() {
        if !super::super::super::detected().avx2 {
            return;
        }
        let mut state = 99u64;
        let mut next = || {
            state = state.wrapping_mul(6364136223846793005).wrapping_add(1);
            (state >> 33) as usize
        };
        for round in 0..3000 {
            let q = [1, 2, 4][round % 3];
            let mut bits = [0u64; 8];
            for _ in 0..1 + next() % 40 {
                let v = next() % (128 * q);
                bits[v / 64] |= 1 << (v % 64);
            }
            // Values near the quarters' ends half the time.
            let xs: [u16; 32] = std::array::from_fn(|_| {
                if next() % 2 == 0 {
                    (next() % 512) as u16
                } else {
                    let edge = 128 * [1, 2, 4][next() % 3];
                    ((edge + next() % 8).saturating_sub(4) % 512) as u16
                }
            });
            // SAFETY: AVX2 is present; the loads read the 32 values.
            let found = unsafe { lookup(&bits, &xs, q) };
            for j in 0..32 {
                let x = xs[(j & 7) | ((j & 16) >> 1) | ((j & 8) << 1)] as usize;
                let want = bits[x / 64] >> (x % 64) & 1 == 1;
                assert_eq!(
                    found >> j & 1 == 1,
                    want,
                    "round {round}, lane {j}, value {x}"
                );
            }
        }
    }

    /// [`NeedTable::hits`] of `q` quarters on the 32 values.
    ///
    /// # Safety
    /// AVX2 is present.
    #[target_feature(enable = "avx2")]
    unsafe fn lookup(bits: &[u64; 8], xs: &[u16; 32], q: usize) -> u32 {
        let table = need_table(bits);
        assert!(table.quarters <= q);
        // SAFETY: the loads read the 32 values.
        let (x_a, x_b) = unsafe {
            (
                _mm256_loadu_si256(xs.as_ptr() as *const _),
                _mm256_loadu_si256(xs.as_ptr().add(16) as *const _),
            )
        };
        match q {
            1 => table.hits::<1>(x_a, x_b),
            2 => table.hits::<2>(x_a, x_b),
            _ => table.hits::<4>(x_a, x_b),
        }
    }
}
