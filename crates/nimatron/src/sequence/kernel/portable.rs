//! The `portable` path: plain Rust written in fixed-width chunks that the
//! compiler vectorises for the target it builds for (SSE2 on any x86-64,
//! NEON on AArch64). Step 2 compares 32 pairs a step with each of the last
//! few need values (see [`scan`](super::scan)); step 1 stamps every entry
//! (a compare in chunks vectorised for SSE2 made Officers to 10^6 about
//! 1.25 times slower, as the stamps it saves are a smaller share of this
//! path's time).

use super::super::probe::Probe;
use super::super::values::Cell;
use super::scalar::byte_bits_words;
use super::scan::Path;
use super::{Kernels, Simd};

/// The `portable` path's token: every processor has it.
#[derive(Clone, Copy)]
pub(crate) struct Portable;

impl Path for Portable {
    const SIMD: Simd = Simd::Portable;

    /// # Safety
    /// None: the path needs nothing the build target lacks.
    unsafe fn assume() -> Portable {
        Portable
    }

    #[inline(always)]
    fn byte_bits(self, bytes: &[u8], tag: u8, out: &mut [u64]) {
        byte_bits_words(bytes, tag, out);
    }
}

/// [`byte_bits_words`] as a table entry.
///
/// # Safety
/// None (an `unsafe fn` only to share the table's type).
unsafe fn byte_bits(bytes: &[u8], tag: u8, out: &mut [u64]) {
    byte_bits_words(bytes, tag, out);
}

/// Step 1's compare, one lane at a time (see the module's note).
///
/// # Safety
/// None (an `unsafe fn` only to share the table's type).
unsafe fn compare<T: Cell>(probe: &mut Probe, g: &[T], start: usize, entries: &[(u64, u32)]) {
    probe.compare_plain(g, start, entries);
}

super::entry_points!(token = Portable);

/// The `portable` path's kernels.
pub(crate) static KERNELS: Kernels = Kernels {
    path: Simd::Portable,
    bytes: cell_kernels::<u8>(),
    shorts: cell_kernels::<u16>(),
    words: cell_kernels::<u32>(),
    byte_bits,
    greedy,
};
