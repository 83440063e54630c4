//! Which vector instructions the sequence engine's inner loops use.
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
//! - `none`: one pair at a time.
//!
//! `auto` takes the first of these the processor has. Forcing a path the
//! processor lacks is an error, so that a benchmark never measures a
//! different path from the one it names.

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
            Simd::Avx512 => avx512(),
            Simd::Avx2 => avx2(),
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

/// AVX-512 F, BW, VL, VBMI, VBMI2 with POPCNT, BMI1 and BMI2, checked once.
fn avx512() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
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
    #[cfg(not(target_arch = "x86_64"))]
    false
}

/// AVX2 with POPCNT, BMI1 and BMI2, checked once.
fn avx2() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        static AVAILABLE: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
        *AVAILABLE.get_or_init(|| {
            is_x86_feature_detected!("avx2")
                && is_x86_feature_detected!("popcnt")
                && is_x86_feature_detected!("bmi1")
                && is_x86_feature_detected!("bmi2")
        })
    }
    #[cfg(not(target_arch = "x86_64"))]
    false
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip_and_bad_names_are_refused() {
        for p in [Simd::Auto].into_iter().chain(Simd::PATHS) {
            assert_eq!(p.name().parse::<Simd>().unwrap(), p);
            assert_eq!(p.to_string(), p.name());
        }
        assert_eq!(" AVX2 ".parse::<Simd>().unwrap(), Simd::Avx2);
        let e = "sse9".parse::<Simd>().unwrap_err();
        assert!(e.to_string().contains("'sse9'") && e.to_string().contains("portable"));
    }

    #[test]
    fn resolving_keeps_available_paths_and_refuses_the_rest() {
        let best = Simd::Auto.resolve().unwrap();
        assert_eq!(best, Simd::best());
        assert!(Simd::available().contains(&best));
        assert_eq!(Simd::available().last(), Some(&Simd::None));
        for p in Simd::PATHS {
            match p.resolve() {
                Ok(q) => assert_eq!(q, p),
                Err(e) => {
                    assert!(!p.is_available());
                    assert!(e.to_string().contains(p.name()), "{e}");
                    assert!(e.to_string().contains("none"), "{e}");
                }
            }
        }
    }
}
