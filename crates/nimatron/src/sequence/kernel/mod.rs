//! The sequence engine's inner loops, one set per vector path, and the
//! choice among them.
//!
//! Four paths compute the same values:
//! - `avx512`: x86-64 with AVX-512 F, BW, VL, VBMI and VBMI2 (Ice Lake and
//!   later Intel server and client chips, AMD Zen 4 and later).
//! - `avx2`: x86-64-v3 (AVX2, BMI1/2, POPCNT: Intel since Haswell, AMD since
//!   Zen 1). Step 2 looks each pair's value up in the need set with byte
//!   shuffles, 32 pairs a step.
//! - `portable`: plain Rust written in fixed-width chunks that the compiler
//!   vectorises for the target it builds for (SSE2 on any x86-64, NEON on
//!   AArch64 such as Apple silicon and Graviton).
//! - `none`: one pair at a time; the reference the others are tested
//!   against.
//!
//! `auto` takes the first of these the processor has. Forcing a path the
//! processor lacks is an error, so that a benchmark never measures a
//! different path from the one it names.
//!
//! The layout follows memchr's:
//! - this module: the [`Simd`] names, the processor checked once
//!   ([`detected`]), and a table of function pointers per path
//!   ([`Kernels`]), chosen once per run by [`Kernels::get`];
//! - [`scan`]: step 2's scans, written once over a [`scan::Path`] (the
//!   hooks a path fills in) and compiled once per path: each path's entry
//!   points carry its `#[target_feature]`, and everything below them is
//!   `#[inline(always)]`;
//! - `x86_64/avx2.rs` and `x86_64/avx512.rs`: every x86 intrinsic, behind
//!   zero-sized tokens ([`x86_64::Avx2`], [`x86_64::avx512::Avx512`]) that only
//!   exist once the processor is known to have the features;
//! - [`portable`] and [`scalar`]: the paths without intrinsics;
//! - [`stamp`]: the byte stores of step 1 and the naive method's marks,
//!   their bounds checked once per call rather than once per store.
//!
//! Every `unsafe` of the library but the two-thread pipeline's (see
//! `sequence::parallel`) lives in this module.

pub(crate) mod portable;
pub(crate) mod scalar;
pub(crate) mod scan;
pub(crate) mod stamp;
#[cfg(target_arch = "x86_64")]
pub(crate) mod x86_64;

/// What a copy folds of the heaps it writes: their XOR, the OR of each
/// heap halved (non-zero when a heap is 2 or more), and their wrapping sum.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct CopyFolds {
    pub(crate) xor: u64,
    pub(crate) or_halved: u64,
    pub(crate) sum: u64,
}

/// Appends to `copy` the longest prefix of `heaps` that this processor
/// can write with streaming stores, straight to memory rather than through
/// the caches, and returns its length and its [`CopyFolds`]. On x86-64
/// that is all but at most seven heaps (SSE2, which every x86-64 has); on
/// other processors (and under Miri) nothing is written, and the caller
/// copies it all.
pub(crate) fn stream_copy(heaps: &[u64], copy: &mut Vec<u64>) -> (usize, CopyFolds) {
    #[cfg(all(target_arch = "x86_64", not(miri)))]
    {
        x86_64::stream::stream_copy(heaps, copy)
    }
    #[cfg(not(all(target_arch = "x86_64", not(miri))))]
    {
        let _ = (heaps, copy);
        (0, CopyFolds::default())
    }
}

use super::probe::Probe;
use super::values::Cell;

use std::fmt;
use std::str::FromStr;

/// A vector path for the Grundy-sequence engine, or `Auto` for the best
/// one this processor has.
///
/// ```
/// use nimatron::sequence::Simd;
/// let best = Simd::Auto.resolve()?;
/// assert!(best.is_available() && best != Simd::Auto);
/// assert!(Simd::None.is_available() && Simd::Portable.is_available());
/// assert_eq!("avx2".parse::<Simd>()?, Simd::Avx2);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Simd {
    /// The best path available.
    #[default]
    Auto,
    /// AVX-512 F, BW, VL, VBMI and VBMI2.
    Avx512,
    /// AVX2 with BMI1, BMI2 and POPCNT (x86-64-v3).
    Avx2,
    /// Fixed-width chunks the compiler vectorises for the build target.
    Portable,
    /// Scalar loops.
    None,
}

impl Simd {
    /// The concrete paths, fastest first.
    pub const PATHS: [Simd; 4] = [Simd::Avx512, Simd::Avx2, Simd::Portable, Simd::None];

    /// The stable name (`auto`, `avx512`, `avx2`, `portable`, `none`).
    pub const fn name(self) -> &'static str {
        match self {
            Simd::Auto => "auto",
            Simd::Avx512 => "avx512",
            Simd::Avx2 => "avx2",
            Simd::Portable => "portable",
            Simd::None => "none",
        }
    }

    /// What the path needs from the processor, in words.
    pub const fn requirement(self) -> &'static str {
        match self {
            Simd::Auto => "nothing",
            Simd::Avx512 => "an x86-64 processor with AVX-512 F, BW, VL, VBMI and VBMI2",
            Simd::Avx2 => "an x86-64 processor with AVX2, BMI1, BMI2 and POPCNT",
            Simd::Portable | Simd::None => "nothing",
        }
    }

    /// Whether this processor can run the path (`Auto` always can).
    pub fn is_available(self) -> bool {
        match self {
            Simd::Auto | Simd::Portable | Simd::None => true,
            Simd::Avx512 => detected().avx512,
            Simd::Avx2 => detected().avx2,
        }
    }

    /// The concrete paths this processor can run, fastest first.
    pub fn available() -> Vec<Simd> {
        Simd::PATHS
            .into_iter()
            .filter(|p| p.is_available())
            .collect()
    }

    /// The fastest path this processor has.
    pub fn best() -> Simd {
        Simd::PATHS
            .into_iter()
            .find(|p| p.is_available())
            .unwrap_or(Simd::None)
    }

    /// `Auto` becomes the best path; a concrete path is kept if the
    /// processor has it.
    pub fn resolve(self) -> Result<Simd, SimdUnavailable> {
        match self {
            Simd::Auto => Ok(Simd::best()),
            p if p.is_available() => Ok(p),
            p => Err(SimdUnavailable { path: p }),
        }
    }
}

impl fmt::Display for Simd {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A vector path name that does not parse.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseSimdError {
    /// The name given.
    pub given: String,
}

impl fmt::Display for ParseSimdError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "unknown vector path '{}': expected auto, avx512, avx2, portable or none",
            self.given
        )
    }
}

impl std::error::Error for ParseSimdError {}

impl FromStr for Simd {
    type Err = ParseSimdError;
    fn from_str(s: &str) -> Result<Simd, ParseSimdError> {
        let name = s.trim().to_ascii_lowercase();
        [Simd::Auto]
            .into_iter()
            .chain(Simd::PATHS)
            .find(|p| p.name() == name)
            .ok_or(ParseSimdError { given: s.into() })
    }
}

/// A vector path this processor cannot run.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SimdUnavailable {
    /// The path asked for.
    pub path: Simd,
}

impl fmt::Display for SimdUnavailable {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let here: Vec<&str> = Simd::available().iter().map(|p| p.name()).collect();
        write!(
            f,
            "the {} vector path needs {}, and this processor lacks it; available here: auto, {}",
            self.path.name(),
            self.path.requirement(),
            here.join(", ")
        )
    }
}

impl std::error::Error for SimdUnavailable {}

/// What this processor has, checked once.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Detected {
    /// AVX-512 F, BW, VL, VBMI and VBMI2 with POPCNT, BMI1 and BMI2.
    pub(crate) avx512: bool,
    /// AVX2 with POPCNT, BMI1 and BMI2.
    pub(crate) avx2: bool,
}

/// The processor's features, read on the first call and kept.
pub(crate) fn detected() -> Detected {
    static DETECTED: std::sync::OnceLock<Detected> = std::sync::OnceLock::new();
    *DETECTED.get_or_init(|| {
        #[cfg(target_arch = "x86_64")]
        {
            x86_64::detect()
        }
        #[cfg(not(target_arch = "x86_64"))]
        Detected {
            avx512: false,
            avx2: false,
        }
    })
}

/// Step 2's scan of a run of pairs (see [`scan::cover`]).
type CoverFn<T> =
    unsafe fn(&[T], &[u16], usize, usize, usize, usize, &mut [u64], &mut usize) -> u64;
/// The scan along a plan first (see [`scan::cover_planned`]).
type PlannedFn<T> = unsafe fn(
    &[T],
    &[u16],
    usize,
    usize,
    &[u32],
    bool,
    usize,
    usize,
    &mut [u64],
    &mut usize,
) -> u64;
/// The scans of several split digits in turn (see
/// [`scan::cover_interleaved`]).
type InterleavedFn<T> =
    unsafe fn(&[T], &[u16], &[(usize, usize)], usize, usize, &mut [u64], &mut usize) -> u64;
/// Step 1's compare of a block's candidates (see [`Probe::compare`]).
type CompareFn<T> = unsafe fn(&mut Probe, &[T], usize, &[(u64, u32)]);

/// The greedy choice of a scan plan (see [`scan::greedy`]).
type GreedyFn = unsafe fn(&[u64], &mut [u64], &[usize]) -> Vec<u32>;

/// One path's kernels for one width of values.
pub(crate) struct CellKernels<T> {
    cover: CoverFn<T>,
    cover_planned: PlannedFn<T>,
    cover_interleaved: InterleavedFn<T>,
    compare: CompareFn<T>,
}

impl<T> CellKernels<T> {
    /// The table of a path whose entry points are those of its module.
    const fn new(
        cover: CoverFn<T>,
        cover_planned: PlannedFn<T>,
        cover_interleaved: InterleavedFn<T>,
        compare: CompareFn<T>,
    ) -> CellKernels<T> {
        CellKernels {
            cover,
            cover_planned,
            cover_interleaved,
            compare,
        }
    }
}

/// A vector path's kernels: function pointers to its entry points, one set
/// per width of values, resolved once per run.
///
/// The pointers are `unsafe fn`: the x86 entry points are compiled with
/// their path's `#[target_feature]` and may run only where the processor
/// has those features. The only values of this type are the statics of the
/// path modules, and [`Kernels::get`] hands one out only for a path
/// [`detected`] says the processor has; so calling through any `Kernels`
/// is sound, and its methods are safe.
pub(crate) struct Kernels {
    path: Simd,
    bytes: CellKernels<u8>,
    shorts: CellKernels<u16>,
    words: CellKernels<u32>,
    byte_bits: unsafe fn(&[u8], u8, &mut [u64]),
    greedy: GreedyFn,
}

impl std::fmt::Debug for Kernels {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Kernels({})", self.path)
    }
}

/// Chooses a [`CellKernels`] by the width of the values, and lets the
/// vector kernels see the values as the integers they are.
pub(crate) trait Pick: Sized {
    fn pick(kernels: &Kernels) -> &CellKernels<Self>;
    /// The values as two-byte values, when they are.
    #[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]
    #[inline(always)]
    fn as_u16s(values: &[Self]) -> Option<&[u16]> {
        let _ = values;
        None
    }
    /// The values as one-byte values, when they are.
    #[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]
    #[inline(always)]
    fn as_u8s(values: &[Self]) -> Option<&[u8]> {
        let _ = values;
        None
    }
}

impl Pick for u8 {
    fn pick(kernels: &Kernels) -> &CellKernels<u8> {
        &kernels.bytes
    }
    #[inline(always)]
    fn as_u8s(values: &[u8]) -> Option<&[u8]> {
        Some(values)
    }
}

impl Pick for u16 {
    fn pick(kernels: &Kernels) -> &CellKernels<u16> {
        &kernels.shorts
    }
    #[inline(always)]
    fn as_u16s(values: &[u16]) -> Option<&[u16]> {
        Some(values)
    }
}

impl Pick for u32 {
    fn pick(kernels: &Kernels) -> &CellKernels<u32> {
        &kernels.words
    }
}

impl Kernels {
    /// The kernels of `path` (`Auto`: the best this processor has), or the
    /// error naming what the processor lacks.
    pub(crate) fn get(path: Simd) -> Result<&'static Kernels, SimdUnavailable> {
        let path = path.resolve()?;
        match path {
            Simd::Portable => Ok(&portable::KERNELS),
            Simd::None => Ok(&scalar::KERNELS),
            _ => {
                #[cfg(target_arch = "x86_64")]
                if let Some(kernels) = x86_64::kernels(path, detected()) {
                    return Ok(kernels);
                }
                // `resolve` refused every path the processor lacks.
                Err(SimdUnavailable { path })
            }
        }
    }

    /// The `none` path's kernels, which every processor has.
    pub(crate) fn scalar() -> &'static Kernels {
        &scalar::KERNELS
    }

    /// The path these kernels are.
    pub(crate) fn path(&self) -> Simd {
        self.path
    }

    /// Crosses off need values found among pairs `(b, m - b)`, `1 <= b <=
    /// half`, stopping once `missing` reaches 0 (see [`scan::cover`]).
    #[allow(clippy::too_many_arguments)]
    #[inline]
    pub(crate) fn cover<T: Cell>(
        &self,
        window: &[T],
        front: &[u16],
        m: usize,
        half: usize,
        start: usize,
        xlimit: usize,
        bits: &mut [u64],
        missing: &mut usize,
    ) -> u64 {
        // SAFETY: this table is one [`Kernels::get`] handed out for a path
        // the processor has (see the type's documentation).
        unsafe { (T::pick(self).cover)(window, front, m, half, start, xlimit, bits, missing) }
    }

    /// [`Kernels::cover`], first along the scan plan `steps` (see
    /// [`scan::cover_planned`]).
    #[allow(clippy::too_many_arguments)]
    #[inline]
    pub(crate) fn cover_planned<T: Cell>(
        &self,
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
        // SAFETY: as in `cover`.
        unsafe {
            (T::pick(self).cover_planned)(
                window, front, m, half, steps, stamped, start, xlimit, bits, missing,
            )
        }
    }

    /// [`Kernels::cover`] for several heap sizes at once (see
    /// [`scan::cover_interleaved`]).
    #[allow(clippy::too_many_arguments)]
    #[inline]
    pub(crate) fn cover_interleaved<T: Cell>(
        &self,
        g: &[T],
        front: &[u16],
        sizes: &[(usize, usize)],
        start: usize,
        xlimit: usize,
        bits: &mut [u64],
        missing: &mut usize,
    ) -> u64 {
        // SAFETY: as in `cover`.
        unsafe { (T::pick(self).cover_interleaved)(g, front, sizes, start, xlimit, bits, missing) }
    }

    /// Bit `i` of `out[w]` is set when `bytes[64 w + i] == tag`;
    /// `bytes.len() == 64 * out.len()`.
    #[inline]
    pub(crate) fn byte_bits(&self, bytes: &[u8], tag: u8, out: &mut [u64]) {
        assert_eq!(bytes.len(), out.len() * 64, "64 bytes per word");
        // SAFETY: as in `cover`.
        unsafe { (self.byte_bits)(bytes, tag, out) }
    }

    /// Step 1's compare of `probe`'s candidates with the entries (see
    /// [`Probe::compare`]): lane `j` pairs with `g[start - a + j]`. The
    /// entries are in order of `a`, and every `start - a + LANES` must be
    /// at most `g.len()`.
    pub(crate) fn compare<T: Cell>(
        &self,
        probe: &mut Probe,
        g: &[T],
        start: usize,
        entries: &[(u64, u32)],
    ) {
        debug_assert!(entries.is_sorted_by_key(|&(a, _)| a));
        // With the entries in order, the first and last bound every load.
        let (Some(&(low, _)), Some(&(high, _))) = (entries.first(), entries.last()) else {
            return;
        };
        assert!(
            low <= high
                && (high as usize) <= start
                && start - low as usize + super::probe::LANES <= g.len(),
            "every entry's lanes lie inside the values"
        );
        // SAFETY: the table is for a path the processor has (as in
        // `cover`); by the assert, every a lies in low..=high, at most
        // start, and every start - a + LANES is at most g.len(), the
        // kernels' contract.
        unsafe { (T::pick(self).compare)(probe, g, start, entries) }
    }

    /// The greedy choice of a scan plan (see [`scan::greedy`]).
    pub(crate) fn greedy(&self, found: &[u64], left: &mut [u64], candidates: &[usize]) -> Vec<u32> {
        // SAFETY: as in `cover`.
        unsafe { (self.greedy)(found, left, candidates) }
    }
}

/// The entry points of a path, each the generic code of [`scan`] compiled
/// with the path's features (the attributes given) and the path's token,
/// and its [`CellKernels`] for a width of values. Used once in each path
/// module.
macro_rules! entry_points {
    ($(#[$feature:meta])* token = $token:ty) => {
        /// [`scan::cover`](crate::sequence::kernel::scan::cover) on this
        /// path.
        ///
        /// # Safety
        /// The processor has this path's features.
        #[allow(clippy::too_many_arguments)]
        $(#[$feature])*
        unsafe fn cover<T: $crate::sequence::values::Cell>(
            window: &[T],
            front: &[u16],
            m: usize,
            half: usize,
            start: usize,
            xlimit: usize,
            bits: &mut [u64],
            missing: &mut usize,
        ) -> u64 {
            // SAFETY: this function's contract.
            let path = unsafe { <$token as $crate::sequence::kernel::scan::Path>::assume() };
            $crate::sequence::kernel::scan::cover(
                path, window, front, m, half, start, xlimit, bits, missing,
            )
        }

        /// [`scan::cover_planned`](crate::sequence::kernel::scan::cover_planned)
        /// on this path.
        ///
        /// # Safety
        /// The processor has this path's features.
        #[allow(clippy::too_many_arguments)]
        $(#[$feature])*
        unsafe fn cover_planned<T: $crate::sequence::values::Cell>(
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
            // SAFETY: this function's contract.
            let path = unsafe { <$token as $crate::sequence::kernel::scan::Path>::assume() };
            $crate::sequence::kernel::scan::cover_planned(
                path, window, front, m, half, steps, stamped, start, xlimit, bits, missing,
            )
        }

        /// [`scan::cover_interleaved`](crate::sequence::kernel::scan::cover_interleaved)
        /// on this path.
        ///
        /// # Safety
        /// The processor has this path's features.
        #[allow(clippy::too_many_arguments)]
        $(#[$feature])*
        unsafe fn cover_interleaved<T: $crate::sequence::values::Cell>(
            g: &[T],
            front: &[u16],
            sizes: &[(usize, usize)],
            start: usize,
            xlimit: usize,
            bits: &mut [u64],
            missing: &mut usize,
        ) -> u64 {
            // SAFETY: this function's contract.
            let path = unsafe { <$token as $crate::sequence::kernel::scan::Path>::assume() };
            $crate::sequence::kernel::scan::cover_interleaved(
                path, g, front, sizes, start, xlimit, bits, missing,
            )
        }

        /// [`scan::greedy`](crate::sequence::kernel::scan::greedy) compiled
        /// for this path.
        ///
        /// # Safety
        /// The processor has this path's features.
        $(#[$feature])*
        unsafe fn greedy(found: &[u64], left: &mut [u64], candidates: &[usize]) -> Vec<u32> {
            $crate::sequence::kernel::scan::greedy(found, left, candidates)
        }

        /// This path's kernels for the values of type `T`.
        const fn cell_kernels<T: $crate::sequence::values::Cell>(
        ) -> $crate::sequence::kernel::CellKernels<T> {
            $crate::sequence::kernel::CellKernels::new(
                cover::<T>,
                cover_planned::<T>,
                cover_interleaved::<T>,
                compare::<T>,
            )
        }
    };
}
pub(crate) use entry_points;

/// Pairs in a step of a scan plan (see [`scan::cover_planned`]).
pub(crate) const STEP: usize = scan::STEP;

/// Steps of a scan plan marked all at once.
pub(crate) const DENSE_STEPS: usize = scan::DENSE_STEPS;

/// Values kept by [`front_copy`]: scans begin below 2^15 (see the sparse
/// method's scan start) and rarely go 2^15 pairs further.
pub(crate) const FRONT: usize = 1 << 16;

/// The first values of a sequence in reverse order: `front[i] = g[len - 1 - i]`
/// for `len = front.len()`. Step 2 pairs `g[b..b + 32]` with the
/// values ending at `g[m - b]` in reverse; reading the small heaps from
/// here, 32 of them already reversed, saves a lane permute per step (about
/// a tenth of the scan's time). The small heaps are the same for every
/// position, so one copy of the first [`FRONT`] values serves all scans.
pub(crate) fn front_copy<T: Cell>(g: &[T], len: usize) -> Vec<u16> {
    g[..len].iter().rev().map(|x| x.get() as u16).collect()
}

#[cfg(test)]
mod tests;
