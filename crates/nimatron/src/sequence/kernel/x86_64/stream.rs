//! A copy of heaps written around the caches (SSE2 non-temporal stores),
//! folding the heaps as they pass: Nim's `analyze_copy` of big arrays.
//! SSE2 is part of x86-64, so this needs no detection. Miri cannot run
//! streaming stores (they are inline assembly), so under Miri nothing is
//! streamed; AddressSanitizer checks this code (scripts/sanitizer-tests.sh).

use super::super::CopyFolds;
use std::arch::x86_64::{
    __m128i, _mm_add_epi64, _mm_loadu_si128, _mm_or_si128, _mm_setzero_si128, _mm_sfence,
    _mm_srli_epi64, _mm_storeu_si128, _mm_stream_si128, _mm_xor_si128,
};

/// Heaps per step: four 16-byte vectors.
const STEP: usize = 8;

/// See [`super::super::stream_copy`].
pub(crate) fn stream_copy(heaps: &[u64], copy: &mut Vec<u64>) -> (usize, CopyFolds) {
    let mut folds = CopyFolds::default();
    // Room for all first: the alignment below is of this allocation.
    copy.reserve(heaps.len());
    // A head of one heap, if need be, so that the streaming stores are
    // 16-byte aligned (a Vec<u64> is 8-byte aligned).
    let misaligned = !(copy.as_ptr().wrapping_add(copy.len()) as usize).is_multiple_of(16);
    let head = usize::from(misaligned).min(heaps.len());
    for &h in &heaps[..head] {
        copy.push(h);
        folds.xor ^= h;
        folds.or_halved |= h >> 1;
        folds.sum = folds.sum.wrapping_add(h);
    }
    let body = (heaps.len() - head) / STEP * STEP;
    let source = &heaps[head..head + body];
    let spare = &mut copy.spare_capacity_mut()[..body];
    let (mut x, mut o, mut s) = ([zero(); 4], [zero(); 4], [zero(); 4]);
    for (from, to) in source.chunks_exact(STEP).zip(spare.chunks_exact_mut(STEP)) {
        for k in 0..4 {
            // SAFETY: `from` holds 8 heaps, so 16 bytes at 2k are in it
            // (unaligned loads); `to` is 8 heaps of the Vec's spare
            // capacity, 16-byte aligned (the head made the first so, and
            // each step is 64 bytes), so aligned 16-byte stores at 2k are
            // in it; SSE2 is part of x86-64.
            unsafe {
                let v = _mm_loadu_si128(from.as_ptr().add(2 * k).cast::<__m128i>());
                _mm_stream_si128(to.as_mut_ptr().add(2 * k).cast::<__m128i>(), v);
                x[k] = _mm_xor_si128(x[k], v);
                o[k] = _mm_or_si128(o[k], _mm_srli_epi64::<1>(v));
                s[k] = _mm_add_epi64(s[k], v);
            }
        }
    }
    // SAFETY: the streaming stores are ordered before what follows (the
    // Vec's length is set after them; another thread may read it).
    unsafe { _mm_sfence() };
    // SAFETY: the loop wrote every one of the `body` heaps after the
    // length (the chunks of `spare` cover it exactly).
    unsafe { copy.set_len(copy.len() + body) };
    for k in 0..4 {
        let (x, o, s) = (words(x[k]), words(o[k]), words(s[k]));
        for lane in 0..2 {
            folds.xor ^= x[lane];
            folds.or_halved |= o[lane];
            folds.sum = folds.sum.wrapping_add(s[lane]);
        }
    }
    (head + body, folds)
}

fn zero() -> __m128i {
    // SAFETY: SSE2 is part of x86-64.
    unsafe { _mm_setzero_si128() }
}

fn words(v: __m128i) -> [u64; 2] {
    let mut out = [0u64; 2];
    // SAFETY: `out` is 16 bytes; SSE2 is part of x86-64.
    unsafe { _mm_storeu_si128(out.as_mut_ptr().cast::<__m128i>(), v) };
    out
}
