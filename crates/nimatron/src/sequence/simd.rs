//! The inner loop of the sparse method's step 2: scan the two-heap options
//! `G(b) ^ G(m - b)` for `b = 1, 2, ...` and cross off the values of a need
//! set (a bit set) until none is left. Each [`Simd`] path has its own scan;
//! all of them cross off the same values.
//!
//! - **avx512** (F, BW, VL, VBMI, VBMI2): batches of [`BATCH`] pairs, 32 or
//!   64 per step. The values are XORed lane by lane against the reversed
//!   tail, each lane's bit is fetched from the need set (held in a register,
//!   unchanged during the batch) with a byte permute, and the values that hit
//!   are packed into a list. After the batch the list is crossed off the need
//!   set, which stays in the register for the whole scan. Within a batch no
//!   step waits for another, so the steps overlap.
//! - **avx2**: 32 pairs a step. The need set's 64 bytes sit in four
//!   registers of 16; a lane's byte is fetched with four in-lane byte
//!   shuffles and three blends (one shuffle and no blend while every need
//!   value left is below 128, two and one below 256), its bit with one more
//!   shuffle, and one test says whether any lane hit. Hits are rare after
//!   the first pairs, so the lanes of a step that hits are read back one by
//!   one. As on avx512, the small heaps are read already reversed from
//!   [`front_copy`] where it holds them.
//! - **portable**: once at most [`COMPARED`] need values are left, 32 pairs
//!   a step are compared with each of them in fixed-width loops that the
//!   compiler vectorises for its target (SSE2, NEON); a step that hits is
//!   redone pair by pair. Before that, the none path's byte-table scan.
//! - **none**: pair by pair, each pair's value looked up in a byte per
//!   value of the need set, the 32 lookups of a step tested at once.
//!
//! On avx2, scans of two-byte values may follow a *plan* first (see
//! [`cover_planned`]): a list of steps of 32 pairs spread over the first
//! heap sizes, chosen from the values to find need values sooner than one
//! run of pairs does, then the usual run from the start. The sparse method
//! stamps the pairs of a plan's first [`DENSE_STEPS`] steps in its step 1,
//! and its scans then begin past them (`stamped`).
//!
//! Every path but avx512 first marks [`DENSE_PAIRS`] pairs all at once
//! while more than four need values are left, and the next as well while
//! more than [`DENSE_AGAIN`] are (avx2 computes their two-byte values
//! sixteen at a time), and handles values the vector scans do not (512 and
//! more, four-byte values) with the portable scan.

use super::values::Cell;
use super::vector::Simd;

/// Pairs marked all at once at the start of a scan.
const DENSE_PAIRS: usize = 256;

/// Need values left above which the pairs after a first [`DENSE_PAIRS`]
/// are marked all at once again. A step of the vector scans that hits
/// costs about as much as marking fifty pairs (a mispredicted branch, the
/// values crossed off, the table reloaded): on Officers near 10^6 the scan
/// takes about 10% less time with marking again above 15 values than with
/// one first block alone.
const DENSE_AGAIN: usize = 15;

/// Values covered by the marking table of the first phase.
const DENSE_LIMIT: usize = 1024;

/// Crosses off need values found among pairs `(b, m - b)`, `1 <= b <= half`,
/// stopping once `missing` reaches 0. `bits` (at least 8 words) holds the
/// need set; every pair value is below `xlimit`, and `missing` counts the
/// need values below it. The scan runs from `b = start` up to `half`, then
/// from 1 up to `start - 1` (from 1 when `start` is not in `1..=half`):
/// any order visits the same pairs, and one that begins past the first
/// heap sizes, whose values are still small, often ends much sooner.
/// `front` is empty or [`front_copy`] of the first values of `window` (two-byte
/// values only). `path` is a concrete path this processor has. Returns the
/// pairs visited.
#[allow(clippy::too_many_arguments)]
pub(crate) fn cover<T: Cell>(
    path: Simd,
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
    let mut visited = cover_range(path, window, front, m, start, half, xlimit, bits, missing);
    if start > 1 && *missing > 0 {
        visited += cover_range(path, window, front, m, 1, start - 1, xlimit, bits, missing);
    }
    visited
}

/// Pairs in a step of a scan plan (see [`cover_planned`]).
pub(crate) const STEP: usize = 32;

/// [`cover`], but first over the pairs `b..b + STEP` for each `b` of
/// `steps` in order, and only then from `start` as [`cover`] goes. The
/// steps are chosen from the values to find need values sooner than any
/// one run of pairs does (see the sparse method's scan plan); a pair may be
/// visited twice, which changes nothing but the time. A plan with a step
/// past `half` is not used. With `stamped`, the pairs of the first
/// [`DENSE_STEPS`] steps were marked already (by step 1 of the sparse
/// method, with the rare entries) and are not visited again.
#[allow(clippy::too_many_arguments)]
pub(crate) fn cover_planned<T: Cell>(
    path: Simd,
    window: &[T],
    front: &[u16],
    m: usize,
    half: usize,
    steps: &[u32],
    stamped: bool,
    start: usize,
    xlimit: usize,
    bits: &mut [u64],
    missing: &mut usize,
) -> u64 {
    #[cfg(target_arch = "x86_64")]
    if matches!(path, Simd::Avx2 | Simd::Avx512) {
        // SAFETY: the path is available, so AVX2, BMI1, BMI2 and POPCNT
        // are (see `Simd::is_available`).
        return unsafe {
            cover_planned_v3(
                path, window, front, m, half, steps, stamped, start, xlimit, bits, missing,
            )
        };
    }
    cover_planned_in(
        path, window, front, m, half, steps, stamped, start, xlimit, bits, missing,
    )
}

/// [`cover_planned`] compiled for x86-64-v3: its marking, counts and bit
/// scans take one instruction each (Officers to 10^6 about 2% faster).
///
/// # Safety
/// AVX2, BMI1, BMI2 and POPCNT are present.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,bmi1,bmi2,popcnt")]
#[allow(clippy::too_many_arguments)]
unsafe fn cover_planned_v3<T: Cell>(
    path: Simd,
    window: &[T],
    front: &[u16],
    m: usize,
    half: usize,
    steps: &[u32],
    stamped: bool,
    start: usize,
    xlimit: usize,
    bits: &mut [u64],
    missing: &mut usize,
) -> u64 {
    cover_planned_in(
        path, window, front, m, half, steps, stamped, start, xlimit, bits, missing,
    )
}

/// The body of [`cover_planned`].
#[allow(clippy::too_many_arguments)]
#[inline(always)]
fn cover_planned_in<T: Cell>(
    path: Simd,
    window: &[T],
    front: &[u16],
    m: usize,
    half: usize,
    steps: &[u32],
    stamped: bool,
    start: usize,
    xlimit: usize,
    bits: &mut [u64],
    missing: &mut usize,
) -> u64 {
    // Where the steps end: min and max over the whole plan compile to a
    // few vector operations, where a test step by step would not.
    let lowest = steps.iter().copied().min().unwrap_or(0) as usize;
    let reach = steps.iter().copied().max().unwrap_or(0) as usize + STEP;
    if lowest < 1 || reach > half + 1 || window.len() < m {
        return cover(path, window, front, m, half, start, xlimit, bits, missing);
    }
    // Whether every step's small heaps lie in the reversed front.
    let in_front = reach <= front.len();
    let mut visited = 0;
    // As in `cover_range`: the first steps all at once while more than 4
    // need values are left, and the next as well while more than
    // DENSE_AGAIN are. Stamped first steps count as the first.
    let (mut rest, mut threshold) = if stamped && steps.len() >= DENSE_STEPS {
        (&steps[DENSE_STEPS..], DENSE_AGAIN)
    } else {
        (steps, 4)
    };
    while path != Simd::Avx512
        && xlimit <= DENSE_LIMIT
        && rest.len() >= DENSE_STEPS
        && *missing > threshold
    {
        dense_steps(
            path,
            window,
            front,
            in_front,
            m,
            &rest[..DENSE_STEPS],
            xlimit,
            bits,
            missing,
        );
        visited += DENSE_PAIRS as u64;
        rest = &rest[DENSE_STEPS..];
        threshold = DENSE_AGAIN;
    }
    if *missing > 0 && !rest.is_empty() {
        visited += cover_steps(
            path, window, front, in_front, m, rest, xlimit, bits, missing,
        );
    }
    if *missing > 0 {
        visited += cover(path, window, front, m, half, start, xlimit, bits, missing);
    }
    visited
}

/// Steps of a scan plan marked all at once.
pub(crate) const DENSE_STEPS: usize = DENSE_PAIRS / STEP;

/// The steps of [`cover_planned`] after its marking, each of [`STEP`]
/// pairs inside `1..=m / 2`, until the need set is covered. `in_front`:
/// every step's small heaps lie in `front`. Returns the pairs visited.
#[allow(clippy::too_many_arguments)]
fn cover_steps<T: Cell>(
    path: Simd,
    window: &[T],
    front: &[u16],
    in_front: bool,
    m: usize,
    steps: &[u32],
    xlimit: usize,
    bits: &mut [u64],
    missing: &mut usize,
) -> u64 {
    // Only the AVX2 scan reads the reversed front.
    #[cfg(not(target_arch = "x86_64"))]
    let _ = in_front;
    #[cfg(target_arch = "x86_64")]
    if matches!(path, Simd::Avx2 | Simd::Avx512)
        && std::mem::size_of::<T>() == 2
        && xlimit <= 512
        && bits.len() >= 8
    {
        // SAFETY: T is u16 (the only 2-byte Cell); AVX2 is present (the
        // AVX-512 path implies it); every step lies in 1..=m / 2 and
        // window.len() >= m (see `cover_planned`), and with the front,
        // inside it.
        let w = unsafe { std::slice::from_raw_parts(window.as_ptr() as *const u16, window.len()) };
        return unsafe {
            if in_front {
                cover_steps_u16_avx2::<true>(w, front, m, steps, bits, missing)
            } else {
                cover_steps_u16_avx2::<false>(w, &[], m, steps, bits, missing)
            }
        };
    }
    let mut visited = 0;
    for &b in steps {
        if *missing == 0 {
            break;
        }
        let b = b as usize;
        visited += cover_range(
            path,
            window,
            front,
            m,
            b,
            b + STEP - 1,
            xlimit,
            bits,
            missing,
        );
    }
    visited
}

/// [`dense_prefix`] over the pairs of [`DENSE_STEPS`] steps of a plan
/// (`in_front` as in [`cover_steps`]).
#[allow(clippy::too_many_arguments)]
#[inline(always)]
fn dense_steps<T: Cell>(
    path: Simd,
    window: &[T],
    front: &[u16],
    in_front: bool,
    m: usize,
    steps: &[u32],
    xlimit: usize,
    bits: &mut [u64],
    missing: &mut usize,
) {
    // SAFETY: the table is used here alone, and the dense phases do not
    // nest.
    let (seen, tag) = unsafe { seen_table() };
    // Only the AVX2 values read the reversed front.
    #[cfg(not(target_arch = "x86_64"))]
    let _ = (front, in_front);
    #[cfg(target_arch = "x86_64")]
    let vector = matches!(path, Simd::Avx2 | Simd::Avx512) && std::mem::size_of::<T>() == 2;
    #[cfg(not(target_arch = "x86_64"))]
    let vector = false;
    if vector {
        #[cfg(target_arch = "x86_64")]
        {
            // SAFETY: T is u16 (the only 2-byte Cell); AVX2 is present; the
            // steps lie in 1..=m / 2 and window.len() >= m.
            let w =
                unsafe { std::slice::from_raw_parts(window.as_ptr() as *const u16, window.len()) };
            let steps: &[u32; DENSE_STEPS] = steps.try_into().expect("a dense phase of steps");
            let values = unsafe {
                if in_front {
                    dense_step_values_avx2::<true>(w, front, m, steps)
                } else {
                    dense_step_values_avx2::<false>(w, front, m, steps)
                }
            };
            mark_packed(seen, tag, &values);
        }
    } else {
        for &b in steps {
            let b = b as usize;
            for a in b..b + STEP {
                seen[(window[a].get() ^ window[m - a].get()) as usize & (DENSE_LIMIT - 1)] = tag;
            }
        }
    }
    cross_off_seen(path, seen, tag, xlimit, bits, missing);
}

/// The values of the [`DENSE_STEPS`] steps of a dense phase, four to a
/// word (see [`mark_packed`]).
///
/// # Safety
/// As [`step_values_u16`]'s needs, for every step; AVX2 is present.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
#[inline]
unsafe fn dense_step_values_avx2<const FRONT: bool>(
    w: &[u16],
    front: &[u16],
    m: usize,
    steps: &[u32; DENSE_STEPS],
) -> [u64; DENSE_PAIRS / 4] {
    use std::arch::x86_64::*;
    let reverse = _mm256_setr_epi8(
        14, 15, 12, 13, 10, 11, 8, 9, 6, 7, 4, 5, 2, 3, 0, 1, 14, 15, 12, 13, 10, 11, 8, 9, 6, 7,
        4, 5, 2, 3, 0, 1,
    );
    let mut out = [0u64; DENSE_PAIRS / 4];
    for (chunk, &b) in out.chunks_exact_mut(STEP / 4).zip(steps) {
        // SAFETY: as this function's; the stores write the chunk's 64 bytes.
        unsafe {
            let (x_a, x_b) = step_values_u16!(FRONT, w, front, m, b as usize, reverse);
            _mm256_storeu_si256(chunk.as_mut_ptr() as *mut _, x_a);
            _mm256_storeu_si256(chunk.as_mut_ptr().add(4) as *mut _, x_b);
        }
    }
    out
}

/// `seen[x] = tag` for every two-byte value `x` (below [`DENSE_LIMIT`])
/// packed four to a word in `values`. Taking a word apart in a register
/// costs a shift and a mask a value, where reading values one by one out of
/// a vector register (as the compiler did) took two operations each on the
/// units that move data out of vectors, and those set the pace.
#[cfg(target_arch = "x86_64")]
#[inline(always)]
fn mark_packed(seen: &mut [u8; DENSE_LIMIT], tag: u8, values: &[u64]) {
    for &word in values {
        for l in 0..4 {
            seen[(word >> (16 * l)) as usize & (DENSE_LIMIT - 1)] = tag;
        }
    }
}

/// [`cover`] for several heap sizes at once: `sizes` holds `(m, half)` for
/// each split digit, and the scans of all of them go together, a stretch of
/// `b` at a time (stretches of [`STRETCH`] pairs, doubling up to 64 times
/// that), in the order `start..=half` then `1..start`, where `half` is the
/// largest. Returns the pairs visited.
#[allow(clippy::too_many_arguments)]
pub(crate) fn cover_interleaved<T: Cell>(
    path: Simd,
    g: &[T],
    front: &[u16],
    sizes: &[(usize, usize)],
    start: usize,
    xlimit: usize,
    bits: &mut [u64],
    missing: &mut usize,
) -> u64 {
    let top = sizes.iter().map(|&(_, half)| half).max().unwrap_or(0);
    let start = if (1..=top).contains(&start) { start } else { 1 };
    let mut visited = 0;
    let mut stretch = STRETCH;
    for (lo, hi) in [(start, top), (1, start - 1)] {
        let mut from = lo;
        while from <= hi && *missing > 0 {
            let to = (from + stretch - 1).min(hi);
            for &(m, half) in sizes {
                let (a, b) = (from, to.min(half));
                if a <= b && *missing > 0 {
                    visited += cover_range(path, &g[..m], front, m, a, b, xlimit, bits, missing);
                }
            }
            from = to + 1;
            stretch = (stretch * 2).min(64 * STRETCH);
        }
    }
    visited
}

/// The first stretch of [`cover_interleaved`].
const STRETCH: usize = 256;

/// The first values of a sequence in reverse order: `front[i] = g[len - 1 - i]`
/// for `len = front.len()`. Step 2 pairs `g[b..b + 32]` with the
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
    path: Simd,
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
    debug_assert!(path.is_available() && path != Simd::Auto);
    if from > to {
        return 0;
    }
    let size = std::mem::size_of::<T>();
    // Only the x86 paths look at the width.
    #[cfg(not(target_arch = "x86_64"))]
    let _ = size;
    #[cfg(target_arch = "x86_64")]
    if path == Simd::Avx512 {
        if size == 2 && xlimit <= 512 {
            // SAFETY: T is u16 here (the only 2-byte Cell), so the cast
            // is a reinterpretation of the same memory; the path is
            // available, so its target features are.
            let w =
                unsafe { std::slice::from_raw_parts(window.as_ptr() as *const u16, window.len()) };
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
                + unsafe { cover_u16_avx512::<false>(w, &[], m, from, to, xlimit, bits, missing) };
        }
        if size == 1 && xlimit <= 256 {
            // SAFETY: as above, T is u8.
            let w =
                unsafe { std::slice::from_raw_parts(window.as_ptr() as *const u8, window.len()) };
            return unsafe { cover_u8_avx512(w, m, from, to, xlimit, bits, missing) };
        }
    }
    let mut visited = 0;
    let mut from = from;
    // The first pairs all at once while more than 4 need values are left,
    // and again while more than DENSE_AGAIN are.
    let mut threshold = 4;
    while xlimit <= DENSE_LIMIT && to + 1 - from >= DENSE_PAIRS && *missing > threshold {
        dense_prefix(path, window, front, m, from, xlimit, bits, missing);
        visited += DENSE_PAIRS as u64;
        from += DENSE_PAIRS;
        if *missing == 0 || from > to {
            return visited;
        }
        threshold = DENSE_AGAIN;
    }
    match path {
        #[cfg(target_arch = "x86_64")]
        Simd::Avx2 | Simd::Avx512 if size == 2 && xlimit <= 512 => {
            // SAFETY: T is u16 (the only 2-byte Cell); AVX2 is present
            // (the AVX-512 path implies it).
            let w =
                unsafe { std::slice::from_raw_parts(window.as_ptr() as *const u16, window.len()) };
            // The steps whose small heaps all lie in `front` read them
            // already reversed, as the AVX-512 scan does.
            let reach = to.min(front.len().saturating_sub(32));
            if from + 31 <= reach && front.len() <= window.len() {
                // SAFETY: as below; the front loads stay inside front.
                let seen =
                    unsafe { cover_u16_avx2::<true>(w, front, m, from, reach, bits, missing) };
                visited += seen;
                from += seen as usize;
                if *missing == 0 || from > to {
                    return visited;
                }
            }
            visited + unsafe { cover_u16_avx2::<false>(w, &[], m, from, to, bits, missing) }
        }
        #[cfg(target_arch = "x86_64")]
        Simd::Avx2 | Simd::Avx512 if size == 1 && xlimit <= 256 => {
            // SAFETY: as above, T is u8.
            let w =
                unsafe { std::slice::from_raw_parts(window.as_ptr() as *const u8, window.len()) };
            visited + unsafe { cover_u8_avx2(w, m, from, to, bits, missing) }
        }
        #[cfg(target_arch = "x86_64")]
        Simd::Avx2 | Simd::Avx512 => {
            // SAFETY: AVX2 is present.
            visited + unsafe { cover_compared_avx2(window, m, from, to, xlimit, bits, missing) }
        }
        Simd::None => visited + cover_bytes(window, m, from, to, xlimit, bits, missing, 0),
        _ => visited + cover_compared(window, m, from, to, xlimit, bits, missing),
    }
}

/// Values the byte table of [`cover_bytes`] covers.
const BYTE_LIMIT: usize = 1024;

/// Scans shorter than this go to [`cover_plain`]: the byte table costs
/// about as much to set up as that many pairs.
const BYTE_MIN_PAIRS: usize = 128;

/// The scalar scan, still one pair at a time: each pair's value is looked
/// up in a table of a byte per value (one load, where the bit set takes a
/// shift, a load and a bit test), and the 32 bytes of a step are gathered
/// into a mask of the pairs that hit, tested once. (ORing the bytes alone
/// and looking again after a hit was slower on an AMD EPYC.)
///
/// It stops after the first step that leaves at most `enough` need values
/// (and at the end when `enough` is 0).
#[allow(clippy::too_many_arguments)]
#[inline(always)]
fn cover_bytes<T: Cell>(
    window: &[T],
    m: usize,
    from: usize,
    to: usize,
    xlimit: usize,
    bits: &mut [u64],
    missing: &mut usize,
    enough: usize,
) -> u64 {
    if xlimit > BYTE_LIMIT || to < from + BYTE_MIN_PAIRS {
        return cover_plain(window, m, from, to, bits, missing);
    }
    // need[x] != 0 exactly when x is in the need set (every pair value,
    // and so every x looked up, is below xlimit).
    let mut need = [0u8; BYTE_LIMIT];
    for (w, &word) in bits[..xlimit.div_ceil(64)].iter().enumerate() {
        let mut word = word;
        while word != 0 {
            need[(w * 64 + word.trailing_zeros() as usize) & (BYTE_LIMIT - 1)] = 1;
            word &= word - 1;
        }
    }
    let mut b = from;
    while b + 31 <= to && *missing > enough {
        let lo: &[T; 32] = window[b..b + 32].try_into().expect("32 pairs");
        let hi: &[T; 32] = window[m - b - 31..=m - b].try_into().expect("32 pairs");
        let value = |j: usize| (lo[j] ^ hi[31 - j]).get() as usize & (BYTE_LIMIT - 1);
        let mut found = 0u32;
        for j in 0..32 {
            found |= (need[value(j)] as u32) << j;
        }
        while found != 0 {
            let x = value(found.trailing_zeros() as usize);
            // A value found twice in the step is crossed off once.
            if need[x] != 0 {
                need[x] = 0;
                cross_off(bits, x, missing);
            }
            found &= found - 1;
        }
        b += 32;
    }
    if *missing > enough {
        (b - from) as u64 + cover_plain(window, m, b, to, bits, missing)
    } else {
        (b - from) as u64
    }
}

/// Need values the portable scan compares each pair with.
const COMPARED: usize = 8;

/// The portable scan: pair by pair while more than [`COMPARED`] need
/// values are left, then 32 pairs a step compared with each of them.
#[inline(always)]
fn cover_compared<T: Cell>(
    window: &[T],
    m: usize,
    from: usize,
    to: usize,
    xlimit: usize,
    bits: &mut [u64],
    missing: &mut usize,
) -> u64 {
    let mut b = from;
    let mut visited = 0u64;
    while b <= to && *missing > 0 {
        if *missing > COMPARED && to >= b + BYTE_MIN_PAIRS {
            // Many need values: the byte-table scan, until few are left.
            let seen = cover_bytes(window, m, b, to, xlimit, bits, missing, COMPARED);
            visited += seen;
            b += seen as usize;
            continue;
        }
        if *missing > COMPARED || b + 31 > to {
            let end = (b + 31).min(to);
            visited += cover_plain(window, m, b, end, bits, missing);
            b = end + 1;
            continue;
        }
        let needs = need_values::<T>(bits, xlimit);
        while b + 31 <= to {
            let lo: &[T; 32] = window[b..b + 32].try_into().expect("32 pairs");
            let hi: &[T; 32] = window[m - b - 31..=m - b].try_into().expect("32 pairs");
            let mut hit = 0u8;
            for j in 0..32 {
                let x = lo[j] ^ hi[31 - j];
                for &n in &needs {
                    hit |= (x == n) as u8;
                }
            }
            if hit != 0 {
                visited += cover_plain(window, m, b, b + 31, bits, missing);
                b += 32;
                break;
            }
            visited += 32;
            b += 32;
        }
    }
    visited
}

/// [`cover_compared`] built for AVX2, for the values the AVX2 scans do not
/// take.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,popcnt,bmi1,bmi2")]
fn cover_compared_avx2<T: Cell>(
    window: &[T],
    m: usize,
    from: usize,
    to: usize,
    xlimit: usize,
    bits: &mut [u64],
    missing: &mut usize,
) -> u64 {
    cover_compared(window, m, from, to, xlimit, bits, missing)
}

/// The need values below `xlimit` (at most [`COMPARED`] of them, at least
/// one), the list filled up with repeats of the first.
#[inline(always)]
fn need_values<T: Cell>(bits: &[u64], xlimit: usize) -> [T; COMPARED] {
    let mut needs = [T::default(); COMPARED];
    let mut count = 0;
    for (w, &word) in bits[..xlimit.div_ceil(64)].iter().enumerate() {
        let mut word = word;
        while word != 0 && count < COMPARED {
            let v = w * 64 + word.trailing_zeros() as usize;
            if v < xlimit {
                needs[count] = T::new(v as u32);
                count += 1;
            }
            word &= word - 1;
        }
    }
    debug_assert!(count > 0);
    for i in count..COMPARED {
        needs[i] = needs[0];
    }
    needs
}

/// The AVX2 scan of two-byte values below 512, 32 pairs a step. With
/// `FRONT`, the small heaps come from `front` ([`front_copy`], already
/// reversed), and the scan stops after the last full step at or before `to`,
/// leaving the pairs after it to the caller; without, the large heaps are
/// reversed in registers and the pairs after the last full step go pair by
/// pair.
///
/// The lookup is as narrow as the largest need value left allows (see
/// [`NeedTable::hits`]): one 16-byte quarter of the need set while every
/// need value is below 128, two below 256, else four; the table is made
/// again after each step that hits, so a scan narrows as its largest need
/// values are found.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,popcnt,bmi1,bmi2")]
fn cover_u16_avx2<const FRONT: bool>(
    w: &[u16],
    front: &[u16],
    m: usize,
    from: usize,
    to: usize,
    bits: &mut [u64],
    missing: &mut usize,
) -> u64 {
    assert!(bits.len() >= 8 && from >= 1 && to <= m / 2 && w.len() >= m);
    assert!(!FRONT || to + 32 <= front.len());
    let mut b = from;
    while b + 31 <= to && *missing > 0 {
        let table = need_table(bits);
        // SAFETY: the asserts above are those of the steps.
        let hit = unsafe {
            match table.quarters {
                1 => steps_u16_avx2::<FRONT, 1>(w, front, m, &mut b, to, &table),
                2 => steps_u16_avx2::<FRONT, 2>(w, front, m, &mut b, to, &table),
                _ => steps_u16_avx2::<FRONT, 4>(w, front, m, &mut b, to, &table),
            }
        };
        let Some((found, xs)) = hit else { break };
        let mut found = found;
        while found != 0 {
            // Byte j of a pack: half j / 16; its first eight bytes
            // come from the first sixteen pairs, the next eight from the
            // second.
            let j = found.trailing_zeros() as usize;
            let (half, k) = (j / 16, j % 16);
            let x = xs[k / 8][8 * half + k % 8] as usize;
            cross_off(bits, x, missing);
            found &= found - 1;
        }
        b += 32;
    }
    if FRONT {
        return (b - from) as u64;
    }
    (b - from) as u64 + cover_plain(w, m, b, to, bits, missing)
}

/// Steps of [`cover_u16_avx2`] from `*b` while `*b + 31 <= to`, with a
/// lookup of `Q` quarters, until one hits: then `*b` is that step's and
/// the result its lanes that hit and its 32 values.
///
/// # Safety
/// As [`cover_u16_avx2`]'s asserts: `1 <= *b`, `to <= m / 2`, `w.len() >=
/// m`, and with `FRONT`, `to + 32 <= front.len()`; AVX2 is present.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,popcnt,bmi1,bmi2")]
#[inline]
unsafe fn steps_u16_avx2<const FRONT: bool, const Q: usize>(
    w: &[u16],
    front: &[u16],
    m: usize,
    b: &mut usize,
    to: usize,
    table: &NeedTable,
) -> Option<(u32, [[u16; 16]; 2])> {
    use std::arch::x86_64::*;
    // Reverses the eight words of each half; swapping the halves then
    // reverses all sixteen.
    let reverse = _mm256_setr_epi8(
        14, 15, 12, 13, 10, 11, 8, 9, 6, 7, 4, 5, 2, 3, 0, 1, 14, 15, 12, 13, 10, 11, 8, 9, 6, 7,
        4, 5, 2, 3, 0, 1,
    );
    while *b + 31 <= to {
        let b0 = *b;
        // SAFETY: 1 <= b and b + 31 <= to <= m / 2 keep w[b..b + 32] and
        // w[m - b - 31..=m - b] inside w[1..m]; with FRONT, to + 32 <=
        // front.len() keeps front[len - 32 - b..len - b] inside front.
        let (x_a, x_b) = unsafe { step_values_u16!(FRONT, w, front, m, b0, reverse) };
        let found = table.hits::<Q>(x_a, x_b);
        if found != 0 {
            return Some((found, step_store(x_a, x_b)));
        }
        *b += 32;
    }
    None
}

/// The 32 values of the pairs `b0..b0 + 32` of heap `m` as two vectors, in
/// the lane order [`NeedTable::hits`] numbers: the small heaps from the
/// reversed `front` with `FRONT`, else reversed with the shuffle `reverse`.
/// Needs `1 <= b0`, `b0 + 31 <= m / 2`, `w.len() >= m` and with `FRONT`,
/// `b0 + 32 <= front.len()`. (A macro, so that every scan compiles it in
/// place.)
#[cfg(target_arch = "x86_64")]
macro_rules! step_values_u16 {
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
#[cfg(target_arch = "x86_64")]
use step_values_u16;

/// The 32 values of a step, stored.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
#[inline]
fn step_store(x_a: std::arch::x86_64::__m256i, x_b: std::arch::x86_64::__m256i) -> [[u16; 16]; 2] {
    use std::arch::x86_64::*;
    let mut xs = [[0u16; 16]; 2];
    // SAFETY: each store writes 32 bytes into its own row.
    unsafe {
        _mm256_storeu_si256(xs[0].as_mut_ptr() as *mut _, x_a);
        _mm256_storeu_si256(xs[1].as_mut_ptr() as *mut _, x_b);
    }
    xs
}

/// [`cover_u16_avx2`] over the steps of a scan plan (see
/// [`cover_planned`]), each `b..b + 32`, until none is left or the need
/// set is covered. Returns the pairs visited.
///
/// # Safety
/// Every step has `1 <= b` and `b + 31 <= m / 2`, and with `FRONT`, `b +
/// 32 <= front.len()`; `w.len() >= m` and `bits.len() >= 8`; AVX2 is
/// present.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,popcnt,bmi1,bmi2")]
unsafe fn cover_steps_u16_avx2<const FRONT: bool>(
    w: &[u16],
    front: &[u16],
    m: usize,
    steps: &[u32],
    bits: &mut [u64],
    missing: &mut usize,
) -> u64 {
    let mut i = 0;
    while i < steps.len() && *missing > 0 {
        let table = need_table(bits);
        // SAFETY: as this function's.
        let hit = unsafe {
            match table.quarters {
                1 => list_steps_u16_avx2::<FRONT, 1>(w, front, m, steps, &mut i, &table),
                2 => list_steps_u16_avx2::<FRONT, 2>(w, front, m, steps, &mut i, &table),
                _ => list_steps_u16_avx2::<FRONT, 4>(w, front, m, steps, &mut i, &table),
            }
        };
        let Some((found, xs)) = hit else { break };
        cross_off_lanes(found, &xs, bits, missing);
        i += 1;
    }
    (i * STEP) as u64
}

/// [`steps_u16_avx2`] over `steps[*i..]`: stops at the first step that
/// hits, with `*i` its index.
///
/// # Safety
/// As [`cover_steps_u16_avx2`].
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,popcnt,bmi1,bmi2")]
#[inline]
unsafe fn list_steps_u16_avx2<const FRONT: bool, const Q: usize>(
    w: &[u16],
    front: &[u16],
    m: usize,
    steps: &[u32],
    i: &mut usize,
    table: &NeedTable,
) -> Option<(u32, [[u16; 16]; 2])> {
    use std::arch::x86_64::*;
    let reverse = _mm256_setr_epi8(
        14, 15, 12, 13, 10, 11, 8, 9, 6, 7, 4, 5, 2, 3, 0, 1, 14, 15, 12, 13, 10, 11, 8, 9, 6, 7,
        4, 5, 2, 3, 0, 1,
    );
    while let Some(&b) = steps.get(*i) {
        let b0 = b as usize;
        // SAFETY: as this function's.
        let (x_a, x_b) = unsafe { step_values_u16!(FRONT, w, front, m, b0, reverse) };
        let found = table.hits::<Q>(x_a, x_b);
        if found != 0 {
            return Some((found, step_store(x_a, x_b)));
        }
        *i += 1;
    }
    None
}

/// Crosses off the values of the lanes `found` of a step's values `xs`.
#[cfg(target_arch = "x86_64")]
#[inline]
fn cross_off_lanes(mut found: u32, xs: &[[u16; 16]; 2], bits: &mut [u64], missing: &mut usize) {
    while found != 0 {
        // Byte j of a pack: half j / 16; its first eight bytes come from
        // the first sixteen pairs, the next eight from the second.
        let j = found.trailing_zeros() as usize;
        let (half, k) = (j / 16, j % 16);
        let x = xs[k / 8][8 * half + k % 8] as usize;
        cross_off(bits, x, missing);
        found &= found - 1;
    }
}

/// The AVX2 scan of one-byte values, 32 pairs a step.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,popcnt,bmi1,bmi2")]
fn cover_u8_avx2(
    w: &[u8],
    m: usize,
    from: usize,
    to: usize,
    bits: &mut [u64],
    missing: &mut usize,
) -> u64 {
    use std::arch::x86_64::*;
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
        // SAFETY: as in the two-byte scan.
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
                cross_off(bits, xs[j] as usize, missing);
                found &= found - 1;
            }
            table = need_table(bits);
        }
        b += 32;
    }
    (b - from) as u64 + cover_plain(w, m, b, to, bits, missing)
}

/// Removes `x` from the need set if it is there.
#[inline(always)]
fn cross_off(bits: &mut [u64], x: usize, missing: &mut usize) {
    let word = &mut bits[x / 64];
    let bit = 1u64 << (x % 64);
    if *word & bit != 0 {
        *word &= !bit;
        *missing -= 1;
    }
}

/// The first 512 need bits as four 16-byte quarters, each in both halves
/// of a register, for in-lane byte shuffles, and how many of the quarters
/// hold a need value or lie below one (1, 2 or 4).
#[cfg(target_arch = "x86_64")]
#[derive(Clone, Copy)]
struct NeedTable {
    quarters: usize,
    table: [std::arch::x86_64::__m256i; 4],
}

/// The 16-byte quarters of the first 512 bits of `bits` up to the last
/// that holds one: 1, 2 or 4.
#[cfg(target_arch = "x86_64")]
fn quarters_of(bits: &[u64]) -> usize {
    if bits[2..8].iter().all(|&w| w == 0) {
        1
    } else if bits[4..8].iter().all(|&w| w == 0) {
        2
    } else {
        4
    }
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
fn need_table(bits: &[u64]) -> NeedTable {
    use std::arch::x86_64::*;
    assert!(bits.len() >= 8);
    let bytes = bits.as_ptr() as *const u8;
    NeedTable {
        quarters: quarters_of(bits),
        // SAFETY: bits holds at least 64 bytes; quarter q reads bytes 16q..16q + 16.
        table: std::array::from_fn(|q| unsafe {
            _mm256_broadcastsi128_si256(_mm_loadu_si128(bytes.add(16 * q) as *const _))
        }),
    }
}

#[cfg(target_arch = "x86_64")]
impl NeedTable {
    /// Bit `j` is set when lane `j`'s value `8 index + bit` is in the set
    /// (`index` below 64, `bit` below 8, lane by lane).
    #[target_feature(enable = "avx2")]
    fn hits_bytes(
        &self,
        index: std::arch::x86_64::__m256i,
        bit: std::arch::x86_64::__m256i,
    ) -> u32 {
        use std::arch::x86_64::*;
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
        let select = _mm256_shuffle_epi8(ONE_BIT, bit);
        Self::lanes(bytes, select)
    }

    /// The lanes of the 32 values `x_a`, `x_b` (two-byte, below 512) that
    /// are in the set, as [`NeedTable::hits_bytes`] numbers them, looking in
    /// the first `Q` quarters only: the table must have at most `Q`. A value
    /// past them takes a bit index past 7 (saturated to 255 by the pack),
    /// whose byte of [`ONE_BIT`] is 0, so it misses whatever its quarter
    /// byte.
    #[target_feature(enable = "avx2")]
    #[inline]
    fn hits<const Q: usize>(
        &self,
        x_a: std::arch::x86_64::__m256i,
        x_b: std::arch::x86_64::__m256i,
    ) -> u32 {
        use std::arch::x86_64::*;
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
        let select = _mm256_shuffle_epi8(ONE_BIT, bit);
        Self::lanes(bytes, select)
    }

    /// The lanes where `bytes & select` is nonzero.
    #[target_feature(enable = "avx2")]
    #[inline]
    fn lanes(bytes: std::arch::x86_64::__m256i, select: std::arch::x86_64::__m256i) -> u32 {
        use std::arch::x86_64::*;
        let both = _mm256_and_si256(bytes, select);
        if _mm256_testz_si256(both, both) != 0 {
            return 0;
        }
        !(_mm256_movemask_epi8(_mm256_cmpeq_epi8(both, _mm256_setzero_si256())) as u32)
    }
}

/// Byte `i` (and `16 + i`) is bit `i` for `i` below 8, else 0: a bit index
/// of 8 or more (and one with bit 7 set) selects nothing.
#[cfg(target_arch = "x86_64")]
const ONE_BIT: std::arch::x86_64::__m256i = unsafe {
    std::mem::transmute::<[u8; 32], std::arch::x86_64::__m256i>([
        1, 2, 4, 8, 16, 32, 64, 128, 0, 0, 0, 0, 0, 0, 0, 0, 1, 2, 4, 8, 16, 32, 64, 128, 0, 0, 0,
        0, 0, 0, 0, 0,
    ])
};

/// Pairs per batch of the vector scan.
#[cfg(target_arch = "x86_64")]
const BATCH: usize = 512;

/// Marks the values of pairs `from..from + DENSE_PAIRS`, then crosses them
/// off the need set and recounts `missing`. `front` is as in [`cover`].
#[allow(clippy::too_many_arguments)]
fn dense_prefix<T: Cell>(
    path: Simd,
    window: &[T],
    front: &[u16],
    m: usize,
    from: usize,
    xlimit: usize,
    bits: &mut [u64],
    missing: &mut usize,
) {
    // SAFETY: the table is used here alone, and the dense phases do not
    // nest.
    let (seen, tag) = unsafe { seen_table() };
    // Only the AVX2 values read the reversed front.
    #[cfg(not(target_arch = "x86_64"))]
    let _ = front;
    #[cfg(target_arch = "x86_64")]
    if matches!(path, Simd::Avx2 | Simd::Avx512) && std::mem::size_of::<T>() == 2 {
        // SAFETY: T is u16 here (the only 2-byte Cell), so the cast is a
        // reinterpretation of the same memory; the path is available, so
        // AVX2 is.
        let w = unsafe { std::slice::from_raw_parts(window.as_ptr() as *const u16, window.len()) };
        let values = unsafe { dense_values_avx2(w, front, m, from) };
        // The values are computed sixteen at a time; the marks, which no
        // vector of AVX2 can scatter, then cost a store each.
        mark_packed(seen, tag, &values);
    } else {
        dense_marks(window, m, from, seen, tag);
    }
    #[cfg(not(target_arch = "x86_64"))]
    dense_marks(window, m, from, seen, tag);
    cross_off_seen(path, seen, tag, xlimit, bits, missing);
}

/// This thread's table of [`DENSE_LIMIT`] bytes for the dense phases, and
/// a tag no byte of it holds: a value is marked when its byte holds the
/// tag. (Each dense phase cleared a fresh table of its own, about 1.5% of
/// the time of Officers to 10^6; the tags run out every 255 phases.)
///
/// A pointer rather than a closure over the table, so that the marking
/// stays inside the caller's vector code: in a closure it was compiled
/// without AVX2, and Officers to 10^6 took 1.1 times as long.
///
/// # Safety
/// The caller holds no other reference to the table while it uses this one,
/// and drops it before it calls this again (the dense phases do not nest).
#[inline(always)]
unsafe fn seen_table<'a>() -> (&'a mut [u8; DENSE_LIMIT], u8) {
    thread_local! {
        static SEEN: std::cell::UnsafeCell<(u8, [u8; DENSE_LIMIT])> =
            const { std::cell::UnsafeCell::new((0, [0; DENSE_LIMIT])) };
    }
    // SAFETY: the table lives as long as the thread, no other reference to
    // it is live (the caller's promise), and only this thread sees it.
    let (tag, seen) = unsafe { &mut *SEEN.with(|table| table.get()) };
    *tag = tag.wrapping_add(1);
    if *tag == 0 {
        seen.fill(0);
        *tag = 1;
    }
    (seen, *tag)
}

/// Crosses the values marked with `tag` in `seen` off the need set and
/// recounts `missing`.
#[inline(always)]
fn cross_off_seen(
    path: Simd,
    seen: &[u8; DENSE_LIMIT],
    tag: u8,
    xlimit: usize,
    bits: &mut [u64],
    missing: &mut usize,
) {
    let words = xlimit / 64;
    let mut found = [0u64; DENSE_LIMIT / 64];
    byte_bits(path, &seen[..words * 64], tag, &mut found[..words]);
    let mut left = 0;
    for (word, f) in bits[..words].iter_mut().zip(found) {
        *word &= !f;
        left += word.count_ones() as usize;
    }
    *missing = left;
}

/// `seen[x] = tag` for the value `x` of each pair `from..from +
/// DENSE_PAIRS`, pair by pair.
fn dense_marks<T: Cell>(
    window: &[T],
    m: usize,
    from: usize,
    seen: &mut [u8; DENSE_LIMIT],
    tag: u8,
) {
    let lo = &window[from..from + DENSE_PAIRS];
    let hi = &window[m + 1 - from - DENSE_PAIRS..=m - from];
    for (a, b) in lo.iter().zip(hi.iter().rev()) {
        seen[(a.get() ^ b.get()) as usize & (DENSE_LIMIT - 1)] = tag;
    }
}

/// The values of pairs `from..from + DENSE_PAIRS` (in some order, four to
/// a word as [`mark_packed`] takes them), sixteen pairs a step, the small
/// heaps from `front` (already reversed) when it holds them all, else
/// reversed in registers.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
fn dense_values_avx2(w: &[u16], front: &[u16], m: usize, from: usize) -> [u64; DENSE_PAIRS / 4] {
    use std::arch::x86_64::*;
    assert!(from >= 1 && from + DENSE_PAIRS - 1 <= m / 2 && w.len() >= m);
    let reverse = _mm256_setr_epi8(
        14, 15, 12, 13, 10, 11, 8, 9, 6, 7, 4, 5, 2, 3, 0, 1, 14, 15, 12, 13, 10, 11, 8, 9, 6, 7,
        4, 5, 2, 3, 0, 1,
    );
    let mut out = [0u64; DENSE_PAIRS / 4];
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

/// Bit `i` of `out[w]` is set when `bytes[64 w + i] == tag`;
/// `bytes.len() == 64 * out.len()`.
pub(crate) fn byte_bits(path: Simd, bytes: &[u8], tag: u8, out: &mut [u64]) {
    debug_assert_eq!(bytes.len(), out.len() * 64);
    match path {
        #[cfg(target_arch = "x86_64")]
        Simd::Avx512 => {
            // SAFETY: the path is available, so its features are.
            unsafe { byte_bits_avx512(bytes, tag, out) }
        }
        #[cfg(target_arch = "x86_64")]
        Simd::Avx2 => {
            // SAFETY: as above.
            unsafe { byte_bits_avx2(bytes, tag, out) }
        }
        _ => {
            // Eight bytes at a time in a word (portable, and none, as it
            // needs no vector instructions): a byte equal to the tag becomes
            // 0x80 in `eq`, and the multiply gathers the eight top bits.
            for (word, chunk) in out.iter_mut().zip(bytes.chunks_exact(64)) {
                let mut acc = 0u64;
                for (k, eight) in chunk.chunks_exact(8).enumerate() {
                    let v = u64::from_le_bytes(eight.try_into().expect("8 bytes"))
                        ^ (0x0101_0101_0101_0101 * tag as u64);
                    // High bit of each byte set when the byte is nonzero.
                    let nonzero = (((v & 0x7F7F_7F7F_7F7F_7F7F) + 0x7F7F_7F7F_7F7F_7F7F) | v)
                        & 0x8080_8080_8080_8080;
                    let eq = nonzero ^ 0x8080_8080_8080_8080;
                    let packed = (eq >> 7).wrapping_mul(0x0102_0408_1020_4080) >> 56;
                    acc |= packed << (8 * k);
                }
                *word = acc;
            }
        }
    }
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f,avx512bw")]
fn byte_bits_avx512(bytes: &[u8], tag: u8, out: &mut [u64]) {
    use std::arch::x86_64::*;
    let t = _mm512_set1_epi8(tag as i8);
    for (word, chunk) in out.iter_mut().zip(bytes.chunks_exact(64)) {
        // SAFETY: the chunk holds 64 bytes.
        let v = unsafe { _mm512_loadu_si512(chunk.as_ptr() as *const _) };
        *word = _mm512_cmpeq_epi8_mask(v, t);
    }
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
fn byte_bits_avx2(bytes: &[u8], tag: u8, out: &mut [u64]) {
    use std::arch::x86_64::*;
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
#[cfg(target_arch = "x86_64")]
const FEW_HITS: usize = 8;

/// Recounts the need values below `xlimit`.
#[inline]
#[cfg(target_arch = "x86_64")]
fn count_below(bits: &[u64], xlimit: usize) -> usize {
    bits[..xlimit / 64]
        .iter()
        .map(|w| w.count_ones() as usize)
        .sum()
}

/// The bytes of a 512-bit need-set register that hold values below
/// `xlimit` (at most 512), as a byte mask.
#[cfg(target_arch = "x86_64")]
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

    /// Every path turns bytes into the same bits: equal to the tag, or
    /// not, one bit per byte.
    #[test]
    fn byte_bits_agree_with_the_definition() {
        let mut state = 99u64;
        let mut next = || {
            state = state.wrapping_mul(6364136223846793005).wrapping_add(1);
            (state >> 33) as u8
        };
        for round in 0..200 {
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
                let mut out = vec![0u64; words];
                byte_bits(path, &bytes, tag, &mut out);
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
        for round in 0..400 {
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

    /// The vector and plain scans cross off the same values.
    /// The AVX2 lookup of one, two or four quarters finds exactly the lanes
    /// whose values are in the set, values past the quarters included
    /// (they must miss, not hit the value 128 or 256 below them).
    #[cfg(target_arch = "x86_64")]
    #[test]
    fn the_narrow_lookups_find_exactly_the_lanes_in_the_set() {
        use std::arch::x86_64::*;
        if !Simd::Avx2.is_available() {
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
            let found = unsafe {
                let table = need_table(&bits);
                assert!(table.quarters <= q);
                let x_a = _mm256_loadu_si256(xs.as_ptr() as *const _);
                let x_b = _mm256_loadu_si256(xs.as_ptr().add(16) as *const _);
                match q {
                    1 => table.hits::<1>(x_a, x_b),
                    2 => table.hits::<2>(x_a, x_b),
                    _ => table.hits::<4>(x_a, x_b),
                }
            };
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
                    let (mut a, mut ma) = (a.clone(), ma);
                    if use_u8 {
                        cover(path, &g8, &[], m, half, start, xlimit, &mut a, &mut ma);
                    } else {
                        cover(path, &g16, &front, m, half, start, xlimit, &mut a, &mut ma);
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
                    let (mut a, mut ma) = (a.clone(), ma);
                    if use_u8 {
                        cover_planned(
                            path,
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
                        cover_planned(
                            path, &g16, &front, m, half, &steps, true, start, xlimit, &mut c,
                            &mut mc,
                        );
                        assert_eq!(c, b, "round {round} {path} planned, stamped");
                        assert_eq!(mc, mb, "round {round} {path} planned, stamped");
                        cover_planned(
                            path, &g16, &front, m, half, &steps, false, start, xlimit, &mut a,
                            &mut ma,
                        );
                    }
                    assert_eq!(a, b, "round {round} u8 {use_u8} {path} planned");
                    assert_eq!(ma, mb, "round {round} u8 {use_u8} {path} planned");
                }
            }
        }
    }
}
