//! The x86-64 paths. Every x86 intrinsic of the library is in `avx2.rs`
//! or `avx512.rs`, behind a token ([`Avx2`], [`avx512::Avx512`]) that is made only
//! where the processor has the path's features, or in `stream.rs`, Nim's
//! streaming copy, which needs only SSE2 (part of every x86-64).

pub(crate) mod avx2;
pub(crate) mod avx512;
#[cfg(not(miri))]
pub(crate) mod stream;

pub(crate) use avx2::Avx2;

use super::{Detected, Kernels, Simd};

/// The features of the two x86 paths (see [`super::detected`], which
/// keeps the answer).
pub(super) fn detect() -> Detected {
    let avx2 = is_x86_feature_detected!("avx2")
        && is_x86_feature_detected!("popcnt")
        && is_x86_feature_detected!("bmi1")
        && is_x86_feature_detected!("bmi2");
    let avx512 = avx2
        && is_x86_feature_detected!("avx512f")
        && is_x86_feature_detected!("avx512bw")
        && is_x86_feature_detected!("avx512vl")
        && is_x86_feature_detected!("avx512vbmi")
        && is_x86_feature_detected!("avx512vbmi2");
    Detected { avx512, avx2 }
}

/// The kernels of an x86 path the processor has, or `None`.
pub(super) fn kernels(path: Simd, here: Detected) -> Option<&'static Kernels> {
    match path {
        Simd::Avx512 if here.avx512 => Some(&avx512::KERNELS),
        Simd::Avx2 if here.avx2 => Some(&avx2::KERNELS),
        _ => None,
    }
}
