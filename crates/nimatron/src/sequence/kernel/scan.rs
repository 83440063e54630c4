//! The inner loop of the sparse method's step 2, written once for every
//! path: scan the two-heap options `G(b) ^ G(m - b)` for `b = 1, 2, ...`
//! and cross off the values of a need set (a bit set) until none is left.
//! A path fills in the hooks of [`Path`] that it has vectors for; this
//! module holds everything else, `#[inline(always)]`, so that each path's
//! entry points (see [`entry_points`](super::entry_points)) compile it with
//! their own features. All of the paths cross off the same values.
//!
//! - **avx512** (F, BW, VL, VBMI, VBMI2): batches of 512 pairs, 32 or 64
//!   per step, the need set held in a register for the whole scan (see
//!   `x86_64/avx512.rs`). Taken first, before any dense phase.
//! - **avx2**: 32 pairs a step, each lane's need bit fetched with byte
//!   shuffles, the lanes of a step that hits read back one by one (see
//!   `x86_64/avx2.rs`). The small heaps are read already reversed from
//!   [`front_copy`](super::front_copy) where it holds them.
//! - **portable**: once at most [`COMPARED`] need values are left, 32
//!   pairs a step are compared with each of them in fixed-width loops that
//!   the compiler vectorises for its target (SSE2, NEON); a step that hits
//!   is redone pair by pair. Before that, the none path's byte-table scan.
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

use super::super::values::Cell;
use super::Simd;

/// A vector path: a zero-sized token whose existence says that the
/// processor has the path's features, and the hooks the path has vectors
/// for. A hook that returns `None` leaves the work to the generic code.
pub(crate) trait Path: Copy {
    /// The path's name.
    const SIMD: Simd;

    /// The token.
    ///
    /// # Safety
    /// The processor has the path's features (see [`super::detected`]).
    unsafe fn assume() -> Self;

    /// The scan of pairs `from..=to`, taken before any dense phase (the
    /// avx512 batches): the pairs visited, or `None` to go on as the
    /// others do. Arguments as [`cover_range`]'s.
    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    fn scan_first<T: Cell>(
        self,
        _window: &[T],
        _front: &[u16],
        _m: usize,
        _from: usize,
        _to: usize,
        _xlimit: usize,
        _bits: &mut [u64],
        _missing: &mut usize,
    ) -> Option<u64> {
        None
    }

    /// The vector scan of pairs `from..=to` after the dense phases, or
    /// `None` for the portable or byte-table scan.
    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    fn scan_run<T: Cell>(
        self,
        _window: &[T],
        _front: &[u16],
        _m: usize,
        _from: usize,
        _to: usize,
        _xlimit: usize,
        _bits: &mut [u64],
        _missing: &mut usize,
    ) -> Option<u64> {
        None
    }

    /// The vector scan of a plan's steps (see [`cover_steps`]), or `None`
    /// for a run of pairs per step.
    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    fn scan_steps<T: Cell>(
        self,
        _window: &[T],
        _front: &[u16],
        _in_front: bool,
        _m: usize,
        _steps: &[u32],
        _xlimit: usize,
        _bits: &mut [u64],
        _missing: &mut usize,
    ) -> Option<u64> {
        None
    }

    /// The values of the pairs `from..from + DENSE_PAIRS`, four to a word
    /// (see [`mark_packed`]), or `None` to mark them pair by pair.
    #[inline(always)]
    fn dense_run<T: Cell>(
        self,
        _window: &[T],
        _front: &[u16],
        _m: usize,
        _from: usize,
    ) -> Option<[u64; DENSE_WORDS]> {
        None
    }

    /// The values of the [`DENSE_STEPS`] steps of a plan, four to a word,
    /// or `None` to mark them pair by pair.
    #[inline(always)]
    fn dense_steps<T: Cell>(
        self,
        _window: &[T],
        _front: &[u16],
        _in_front: bool,
        _m: usize,
        _steps: &[u32; DENSE_STEPS],
    ) -> Option<[u64; DENSE_WORDS]> {
        None
    }

    /// Bit `i` of `out[w]` is set when `bytes[64 w + i] == tag`;
    /// `bytes.len() == 64 * out.len()`.
    fn byte_bits(self, bytes: &[u8], tag: u8, out: &mut [u64]);
}

/// Pairs marked all at once at the start of a scan.
pub(crate) const DENSE_PAIRS: usize = 256;

/// The words of a dense phase's values, four two-byte values a word.
pub(crate) const DENSE_WORDS: usize = DENSE_PAIRS / 4;

/// Need values left above which the pairs after a first [`DENSE_PAIRS`]
/// are marked all at once again. A step of the vector scans that hits
/// costs about as much as marking fifty pairs (a mispredicted branch, the
/// values crossed off, the table reloaded): on Officers near 10^6 the scan
/// takes about 10% less time with marking again above 15 values than with
/// one first block alone.
const DENSE_AGAIN: usize = 15;

/// Values covered by the marking table of the first phase.
pub(crate) const DENSE_LIMIT: usize = 1024;

/// Pairs in a step of a scan plan (see [`cover_planned`]).
pub(crate) const STEP: usize = 32;

/// Steps of a scan plan marked all at once.
pub(crate) const DENSE_STEPS: usize = DENSE_PAIRS / STEP;

/// Crosses off need values found among pairs `(b, m - b)`, `1 <= b <= half`,
/// stopping once `missing` reaches 0. `bits` (at least 8 words) holds the
/// need set; every pair value is below `xlimit`, and `missing` counts the
/// need values below it. The scan runs from `b = start` up to `half`, then
/// from 1 up to `start - 1` (from 1 when `start` is not in `1..=half`):
/// any order visits the same pairs, and one that begins past the first
/// heap sizes, whose values are still small, often ends much sooner.
/// `front` is empty or [`front_copy`](super::front_copy) of the first
/// values of `window` (two-byte values only). Returns the pairs visited.
#[allow(clippy::too_many_arguments)]
#[inline(always)]
pub(crate) fn cover<P: Path, T: Cell>(
    path: P,
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

/// [`cover`], but first over the pairs `b..b + STEP` for each `b` of
/// `steps` in order, and only then from `start` as [`cover`] goes. The
/// steps are chosen from the values to find need values sooner than any
/// one run of pairs does (see the sparse method's scan plan); a pair may be
/// visited twice, which changes nothing but the time. A plan with a step
/// past `half` is not used. With `stamped`, the pairs of the first
/// [`DENSE_STEPS`] steps were marked already (by step 1 of the sparse
/// method, with the rare entries) and are not visited again.
#[allow(clippy::too_many_arguments)]
#[inline(always)]
pub(crate) fn cover_planned<P: Path, T: Cell>(
    path: P,
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
    // DENSE_AGAIN are. Stamped first steps count as the first. (Not on
    // avx512, whose batches gain nothing from it.)
    let (mut rest, mut threshold) = if stamped && steps.len() >= DENSE_STEPS {
        (&steps[DENSE_STEPS..], DENSE_AGAIN)
    } else {
        (steps, 4)
    };
    while P::SIMD != Simd::Avx512
        && xlimit <= DENSE_LIMIT
        && rest.len() >= DENSE_STEPS
        && *missing > threshold
    {
        let (first, after) = rest.split_at(DENSE_STEPS);
        let first: &[u32; DENSE_STEPS] = first.try_into().expect("a dense phase of steps");
        dense_steps(
            path, window, front, in_front, m, first, xlimit, bits, missing,
        );
        visited += DENSE_PAIRS as u64;
        rest = after;
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

/// The steps of [`cover_planned`] after its marking, each of [`STEP`]
/// pairs inside `1..=m / 2`, until the need set is covered. `in_front`:
/// every step's small heaps lie in `front`. Returns the pairs visited.
#[allow(clippy::too_many_arguments)]
#[inline(always)]
fn cover_steps<P: Path, T: Cell>(
    path: P,
    window: &[T],
    front: &[u16],
    in_front: bool,
    m: usize,
    steps: &[u32],
    xlimit: usize,
    bits: &mut [u64],
    missing: &mut usize,
) -> u64 {
    if let Some(visited) = path.scan_steps(window, front, in_front, m, steps, xlimit, bits, missing)
    {
        return visited;
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
fn dense_steps<P: Path, T: Cell>(
    path: P,
    window: &[T],
    front: &[u16],
    in_front: bool,
    m: usize,
    steps: &[u32; DENSE_STEPS],
    xlimit: usize,
    bits: &mut [u64],
    missing: &mut usize,
) {
    // SAFETY: the table is used here alone, and the dense phases do not
    // nest.
    let (seen, tag) = unsafe { seen_table() };
    if let Some(values) = path.dense_steps(window, front, in_front, m, steps) {
        mark_packed(seen, tag, &values);
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

/// `seen[x] = tag` for every two-byte value `x` (below [`DENSE_LIMIT`])
/// packed four to a word in `values`. Taking a word apart in a register
/// costs a shift and a mask a value, where reading values one by one out of
/// a vector register (as the compiler did) took two operations each on the
/// units that move data out of vectors, and those set the pace.
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
#[inline(always)]
pub(crate) fn cover_interleaved<P: Path, T: Cell>(
    path: P,
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

/// [`cover`] over the pairs `from <= b <= to` in order (`1 <= from`, `to <=
/// m / 2`).
#[allow(clippy::too_many_arguments)]
#[inline(always)]
fn cover_range<P: Path, T: Cell>(
    path: P,
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
    if let Some(visited) = path.scan_first(window, front, m, from, to, xlimit, bits, missing) {
        return visited;
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
    if let Some(seen) = path.scan_run(window, front, m, from, to, xlimit, bits, missing) {
        return visited + seen;
    }
    if P::SIMD == Simd::None {
        visited + cover_bytes(window, m, from, to, xlimit, bits, missing, 0)
    } else {
        visited + cover_compared(window, m, from, to, xlimit, bits, missing)
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
pub(crate) fn cover_bytes<T: Cell>(
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
pub(crate) const COMPARED: usize = 8;

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

/// Removes `x` from the need set if it is there.
#[inline(always)]
pub(crate) fn cross_off(bits: &mut [u64], x: usize, missing: &mut usize) {
    let word = &mut bits[x / 64];
    let bit = 1u64 << (x % 64);
    if *word & bit != 0 {
        *word &= !bit;
        *missing -= 1;
    }
}

/// Marks the values of pairs `from..from + DENSE_PAIRS`, then crosses them
/// off the need set and recounts `missing`. `front` is as in [`cover`].
#[allow(clippy::too_many_arguments)]
#[inline(always)]
fn dense_prefix<P: Path, T: Cell>(
    path: P,
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
    if let Some(values) = path.dense_run(window, front, m, from) {
        // The values are computed sixteen at a time; the marks, which no
        // vector of AVX2 can scatter, then cost a store each.
        mark_packed(seen, tag, &values);
    } else {
        dense_marks(window, m, from, seen, tag);
    }
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
    // SAFETY: the table lives as long as the thread and only this thread
    // sees it; no other reference to it is live (the caller's promise), so
    // this one is unique while the caller holds it.
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
fn cross_off_seen<P: Path>(
    path: P,
    seen: &[u8; DENSE_LIMIT],
    tag: u8,
    xlimit: usize,
    bits: &mut [u64],
    missing: &mut usize,
) {
    let words = xlimit / 64;
    let mut found = [0u64; DENSE_LIMIT / 64];
    path.byte_bits(&seen[..words * 64], tag, &mut found[..words]);
    let mut left = 0;
    for (word, f) in bits[..words].iter_mut().zip(found) {
        *word &= !f;
        left += word.count_ones() as usize;
    }
    *missing = left;
}

/// `seen[x] = tag` for the value `x` of each pair `from..from +
/// DENSE_PAIRS`, pair by pair.
#[inline(always)]
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

/// The plain loop, for `b` in `from..=half`: the reference every scan is
/// tested against.
#[inline(always)]
pub(crate) fn cover_plain<T: Cell>(
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
            cross_off(bits, x, missing);
        }
        visited += (end - b) as u64;
        b = end;
    }
    visited
}

/// The greedy choice of a scan plan: up to [`PLAN_STEPS`] candidates,
/// each the one that finds the most need numbers still `left` (the lowest
/// among equals). `found` holds a row of one word per candidate for each
/// word of `left`. Compiled per path (the avx2 path's counts of bits take
/// one instruction: a plan of Officers past 2^17 chose its steps in 1.0 ms
/// with a software count).
#[inline(always)]
pub(crate) fn greedy(found: &[u64], left: &mut [u64], candidates: &[usize]) -> Vec<u32> {
    let width = candidates.len();
    // Each candidate's gain, kept up to date: a pick takes its values out
    // of the samples' need sets, and each candidate loses those it found.
    let mut gains = vec![0u32; width];
    for row in found.chunks_exact(width) {
        for (gain, f) in gains.iter_mut().zip(row) {
            *gain += f.count_ones();
        }
    }
    let mut taken = vec![false; width];
    let mut plan = Vec::with_capacity(PLAN_STEPS);
    while plan.len() < PLAN_STEPS {
        // The most need values, and the lowest step among equals.
        let Some(c) = (0..width)
            .filter(|&c| !taken[c])
            .max_by_key(|&c| (gains[c], std::cmp::Reverse(c)))
        else {
            break;
        };
        taken[c] = true;
        plan.push(candidates[c] as u32);
        for (row, l) in found.chunks_exact(width).zip(left.iter_mut()) {
            let gone = row[c] & *l;
            if gone == 0 {
                continue;
            }
            *l &= !gone;
            for (gain, f) in gains.iter_mut().zip(row) {
                *gain -= (f & gone).count_ones();
            }
        }
    }
    plan
}

/// Steps in a scan plan: 2 048 pairs, after which scans go on from the
/// scan start.
pub(crate) const PLAN_STEPS: usize = 64;
