//! The `none` path: no vector instructions at all (one pair at a time, the
//! byte-table lookup of step 2), and the reference the other paths are
//! tested against. Its byte-to-bit packing, eight bytes to a word, serves
//! the portable path too.

use super::super::probe::Probe;
use super::super::values::Cell;
use super::scan::Path;
use super::{Kernels, Simd};

/// The `none` path's token: every processor has it.
#[derive(Clone, Copy)]
pub(crate) struct Scalar;

impl Path for Scalar {
    const SIMD: Simd = Simd::None;

    /// # Safety
    /// None: the path needs nothing.
    unsafe fn assume() -> Scalar {
        Scalar
    }

    #[inline(always)]
    fn byte_bits(self, bytes: &[u8], tag: u8, out: &mut [u64]) {
        byte_bits_words(bytes, tag, out);
    }
}

/// Bit `i` of `out[w]` is set when `bytes[64 w + i] == tag`, eight bytes
/// at a time in a word (no vector instructions needed): a byte equal to
/// the tag becomes 0x80 in `eq`, and the multiply gathers the eight top
/// bits.
#[inline(always)]
pub(crate) fn byte_bits_words(bytes: &[u8], tag: u8, out: &mut [u64]) {
    for (word, chunk) in out.iter_mut().zip(bytes.chunks_exact(64)) {
        let mut acc = 0u64;
        for (k, eight) in chunk.chunks_exact(8).enumerate() {
            let v = u64::from_le_bytes(eight.try_into().expect("8 bytes"))
                ^ (0x0101_0101_0101_0101 * tag as u64);
            // High bit of each byte set when the byte is nonzero.
            let nonzero =
                (((v & 0x7F7F_7F7F_7F7F_7F7F) + 0x7F7F_7F7F_7F7F_7F7F) | v) & 0x8080_8080_8080_8080;
            let eq = nonzero ^ 0x8080_8080_8080_8080;
            let packed = (eq >> 7).wrapping_mul(0x0102_0408_1020_4080) >> 56;
            acc |= packed << (8 * k);
        }
        *word = acc;
    }
}

/// [`byte_bits_words`] as a table entry.
///
/// # Safety
/// None (an `unsafe fn` only to share the table's type).
unsafe fn byte_bits(bytes: &[u8], tag: u8, out: &mut [u64]) {
    byte_bits_words(bytes, tag, out);
}

/// Step 1's compare, one lane at a time.
///
/// # Safety
/// None (an `unsafe fn` only to share the table's type).
unsafe fn compare<T: Cell>(probe: &mut Probe, g: &[T], start: usize, entries: &[(u64, u32)]) {
    probe.compare_plain(g, start, entries);
}

super::entry_points!(token = Scalar);

/// The `none` path's kernels.
pub(crate) static KERNELS: Kernels = Kernels {
    path: Simd::None,
    bytes: cell_kernels::<u8>(),
    shorts: cell_kernels::<u16>(),
    words: cell_kernels::<u32>(),
    byte_bits,
    greedy,
};
