//! A census of octal games: every code of up to `D` digits, its Grundy
//! sequence to `N`, and the classes of codes that are equivalent.
//!
//! The census is split into *shards* that can run on different machines;
//! each shard yields one [`CensusRecord`] per code, and [`merge`] turns the
//! records of all shards into one [`CensusTable`]. The table depends only on
//! the set of records, so it is the same whatever the sharding.
//!
//! ```
//! use nimatron::sequence::{census_record, merge, CensusSpec, SequenceOptions, Shard};
//! let spec = CensusSpec::new(1, 0, 200)?;
//! let options = SequenceOptions::default();
//! let mut records = Vec::new();
//! for shard in ["1/2", "2/2"] {
//!     let shard: Shard = shard.parse()?;
//!     for index in shard.indices(&spec) {
//!         records.push(census_record(&spec, index, &options)?);
//!     }
//! }
//! let table = merge(records)?;
//! assert_eq!(table.codes, 8);
//! assert!(table.missing.is_empty());
//! // 0.3 (take one from the end of a row), 0.5 (take one, never from the
//! // end unless it is the last) and 0.7 (take one from anywhere) all have
//! // G(n) = n mod 2: one class, proven equal.
//! let class = table.class_of(&"0.3".parse()?).unwrap();
//! assert_eq!(class.codes(), ["0.3", "0.5", "0.7"]);
//! assert_eq!(class.rule, nimatron::sequence::EquivalenceRule::SameValuesProven);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! **Enumeration.** The codes of a census are `L.d1d2...dD` for a fixed
//! leading digit `L` (0, or 4 for codes that may split a heap without
//! taking) and octal digits `d1..dD`, numbered by reading `d1..dD` as a
//! base-8 number: index 0 is `L.00...0`, index 1 is `L.00...01`, and so on.
//! Codes with fewer digits are those whose last digits are 0 (trailing
//! zeros carry no move), so each code of up to `D` digits appears exactly
//! once, in its canonical form.
//!
//! **Same moves.** Two written codes have the same moves exactly when they
//! are equal once trailing zeros are dropped ([`OctalCode`] does that). No
//! other pair of codes has the same moves: in a heap of `n`, a move of a
//! digit `d_k` leaves no heap (bit 1, `n = k`), one heap of `n - k` (bit 2)
//! or two heaps totalling `n - k` (bit 4), so for `n` large the options of
//! `n` name every bit of every digit. The key is [`same_moves_key`].
//!
//! **Same values.** Two codes whose sequences are both proven periodic,
//! with the same period `p` and preperiod `e`, and whose values
//! `G(0..e+p)` are equal, have equal values for every heap size: the
//! values from `e` on repeat those of `G(e..e+p)`. The census proves
//! equality this way, comparing `G(0..e+p)` value by value. Codes whose
//! values agree up to `N` but are not both proven are equal *as far as
//! computed* only; the table says so, and keeps them in separate classes
//! from proven ones.

use std::collections::BTreeMap;
use std::fmt;
use std::str::FromStr;

use super::{
    GrundySequence, HeapGame, OctalCode, SequenceError, SequenceOptions, SparseMask, Values,
    grundy_sequence,
};

/// Which codes a census covers and how far each sequence is computed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct CensusSpec {
    /// `D`: digits after the point (1 to [`CensusSpec::MAX_DIGITS`]).
    pub digits: u32,
    /// The digit before the point: 0, or 4 (a heap may be split without
    /// taking anything).
    pub leading: u8,
    /// `N`: each sequence is computed for heap sizes `0..=N`.
    pub to: u64,
}

impl CensusSpec {
    /// The most digits a census may have (8^8 = 16 777 216 codes).
    pub const MAX_DIGITS: u32 = 8;

    /// Checks the digits and the leading digit.
    pub fn new(digits: u32, leading: u8, to: u64) -> Result<CensusSpec, CensusError> {
        if digits == 0 || digits > Self::MAX_DIGITS {
            return Err(CensusError::Digits { given: digits });
        }
        if leading != 0 && leading != 4 {
            return Err(CensusError::Leading { given: leading });
        }
        Ok(CensusSpec {
            digits,
            leading,
            to,
        })
    }

    /// How many codes the census covers: `8^D`.
    pub fn code_count(&self) -> u64 {
        8u64.pow(self.digits)
    }

    /// The code numbered `index` (see the module notes). Panics if `index`
    /// is not below [`CensusSpec::code_count`].
    pub fn code(&self, index: u64) -> OctalCode {
        assert!(index < self.code_count(), "code index {index} out of range");
        let d = self.digits as usize;
        let mut digits = vec![0u8; d + 1];
        digits[0] = self.leading;
        let mut rest = index;
        for slot in digits[1..].iter_mut().rev() {
            *slot = (rest % 8) as u8;
            rest /= 8;
        }
        OctalCode::from_digits(&digits).expect("octal digits and leading 0 or 4 form a code")
    }

    /// The index of `code` in this census, if it belongs to it.
    pub fn index_of(&self, code: &OctalCode) -> Option<u64> {
        let digits = code.digits();
        if digits[0] != self.leading || digits.len() > self.digits as usize + 1 {
            return None;
        }
        let mut index = 0u64;
        for k in 1..=self.digits as usize {
            let d = code.digit(k);
            if d > 7 {
                return None;
            }
            index = index * 8 + d as u64;
        }
        Some(index)
    }

    /// The census code whose values give this code's by the dead-heap
    /// shift ([`OctalCode::dead_heap_shift`], applied while the shift is a
    /// code of this census), and how many times it was applied: `G(n) =
    /// G_root(n - depth)` for `n >= depth` and 0 below, for every `n`.
    /// `(index, 0)` for a code that is its own root. The chain ends: a code
    /// with a move has a nonzero value, so no code is its own shift
    /// repeated.
    pub fn shift_root(&self, index: u64) -> (u64, u64) {
        let (mut at, mut depth) = (index, 0);
        while let Some(i) = self
            .code(at)
            .dead_heap_shift()
            .and_then(|b| self.index_of(&b))
        {
            at = i;
            depth += 1;
        }
        (at, depth)
    }

    /// `W`, how many values after the leading zeros are compared between
    /// codes for shift equivalence: `N + 1 - (D + 2)`. A heap of `n` has a
    /// move under some digit `d_k` when `n = k` (bit 1), `n = k + 1` (bit 2)
    /// or `n = k + 2` (bit 4), so every code but `0.0` has a move at some
    /// `n <= D + 2`, where its first nonzero value lies (a first move
    /// leads only to heaps of value 0, so its value is 1); `G(s..s+W)`
    /// then lies within `G(0..=N)` for every code.
    pub fn shift_window(&self) -> u64 {
        (self.to + 1).saturating_sub(self.digits as u64 + 2)
    }

    /// Every code in order, with its index.
    pub fn codes(&self) -> impl Iterator<Item = (u64, OctalCode)> + '_ {
        (0..self.code_count()).map(|i| (i, self.code(i)))
    }
}

impl fmt::Display for CensusSpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "codes {}.{} ({} digit{}) to n = {}",
            self.leading,
            "d".repeat(self.digits as usize),
            self.digits,
            if self.digits == 1 { "" } else { "s" },
            self.to
        )
    }
}

/// One part of a census, `I/N`. The `N` shards of a census are disjoint,
/// together cover it, and hold equally many codes (to within one), whatever
/// `N` is: code `i` goes to shard `1 + (mix(i) mod N)`, where `mix` is a
/// fixed permutation of the indices (see [`Shard::slot`]).
///
/// Codes that cost alike tend to be alike in their digits: the codes of a
/// 3-digit census to 10 000 that take longest share their last digit
/// (4 or 6, a split), so shards taken as the index modulo a multiple of 8
/// held all of them or none. The permutation scatters them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Shard {
    /// `I`, from 1 to `count`.
    pub index: u64,
    /// `N`, at least 1.
    pub count: u64,
}

impl Shard {
    /// The whole census, `1/1`.
    pub const WHOLE: Shard = Shard { index: 1, count: 1 };

    /// Checks `1 <= index <= count`.
    pub fn new(index: u64, count: u64) -> Result<Shard, CensusError> {
        if count == 0 || index == 0 || index > count {
            return Err(CensusError::Shard {
                given: format!("{index}/{count}"),
            });
        }
        Ok(Shard { index, count })
    }

    /// The place of code `code_index` in the mixed order of a census of
    /// `digits` digits: a permutation of `0..8^digits`, made of
    /// multiplications by odd constants and xor-shifts modulo `2^(3 digits)`
    /// (each a bijection), so that every digit of the code moves every
    /// digit of its place. The shards deal out the places in turn.
    pub fn slot(digits: u32, code_index: u64) -> u64 {
        let bits = 3 * digits;
        let mask = (1u64 << bits) - 1;
        let shift = bits.div_ceil(2);
        let mut x = code_index & mask;
        for k in [0x9E37_79B9_7F4A_7C15u64, 0xC2B2_AE3D_27D4_EB4F] {
            x = x.wrapping_mul(k) & mask;
            x ^= x >> shift;
        }
        x
    }

    /// Whether the code numbered `code_index` in the census `spec` belongs
    /// to this shard.
    pub fn contains(&self, spec: &CensusSpec, code_index: u64) -> bool {
        Shard::slot(spec.digits, code_index) % self.count == self.index - 1
    }

    /// The indices of this shard's codes, in order.
    pub fn indices(&self, spec: &CensusSpec) -> impl Iterator<Item = u64> + use<> {
        let shard = *self;
        let spec = *spec;
        (0..spec.code_count()).filter(move |&i| shard.contains(&spec, i))
    }

    /// Whether this is the whole census.
    pub fn is_whole(&self) -> bool {
        self.count == 1
    }
}

impl fmt::Display for Shard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.index, self.count)
    }
}

impl FromStr for Shard {
    type Err = CensusError;
    fn from_str(s: &str) -> Result<Shard, CensusError> {
        let bad = || CensusError::Shard { given: s.into() };
        let (i, n) = s.trim().split_once('/').ok_or_else(bad)?;
        let i: u64 = i.trim().parse().map_err(|_| bad())?;
        let n: u64 = n.trim().parse().map_err(|_| bad())?;
        Shard::new(i, n).map_err(|_| bad())
    }
}

/// A census setting that is refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CensusError {
    /// The number of digits is 0 or too large.
    Digits {
        /// What was given.
        given: u32,
    },
    /// The leading digit is neither 0 nor 4.
    Leading {
        /// What was given.
        given: u8,
    },
    /// A shard that is not `I/N` with `1 <= I <= N`.
    Shard {
        /// What was given.
        given: String,
    },
}

impl fmt::Display for CensusError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CensusError::Digits { given } => write!(
                f,
                "{given} digits: a census covers codes of 1 to {} digits after the point",
                CensusSpec::MAX_DIGITS
            ),
            CensusError::Leading { given } => write!(
                f,
                "leading digit {given}: it must be 0 (codes 0.d1d2...) or 4 (4.d1d2..., where a heap may also be split without taking)"
            ),
            CensusError::Shard { given } => write!(
                f,
                "shard '{given}': a shard is written I/N with 1 <= I <= N, e.g. 1/4 (the I-th of N equal parts of the census)"
            ),
        }
    }
}

impl std::error::Error for CensusError {}

/// The key of a code's moves: two codes have the same moves exactly when
/// their keys are equal (see the module notes). It is the canonical code.
pub fn same_moves_key(code: &OctalCode) -> String {
    code.to_string()
}

/// A 128-bit fingerprint of `G(0..=N)`: starting from
/// `h = 0x6c62272e07bb014262b821756295c58d`, for each value `v` in turn
/// `h = (h XOR v) * 0x0000000001000000000000000000013B mod 2^128` (the
/// FNV-1a constants, applied one value at a time).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Fingerprint(pub u128);

impl Fingerprint {
    const OFFSET: u128 = 0x6c62272e07bb014262b821756295c58d;
    const PRIME: u128 = 0x0000000001000000000000000000013B;

    /// The fingerprint of a list of values.
    pub fn of(values: impl IntoIterator<Item = u32>) -> Fingerprint {
        Fingerprint(values.into_iter().fold(Self::OFFSET, |h, v| {
            (h ^ v as u128).wrapping_mul(Self::PRIME)
        }))
    }

    /// The fingerprint of stored values.
    pub fn of_values(values: &Values) -> Fingerprint {
        match values {
            Values::Bytes(v) => Fingerprint::of(v.iter().map(|&x| x as u32)),
            Values::Shorts(v) => Fingerprint::of(v.iter().map(|&x| x as u32)),
            Values::Words(v) => Fingerprint::of(v.iter().copied()),
        }
    }
}

impl fmt::Display for Fingerprint {
    /// 32 lower-case hexadecimal digits.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:032x}", self.0)
    }
}

impl FromStr for Fingerprint {
    type Err = std::num::ParseIntError;
    fn from_str(s: &str) -> Result<Fingerprint, Self::Err> {
        u128::from_str_radix(s, 16).map(Fingerprint)
    }
}

/// What the census found for one code.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CensusResult {
    /// Periodic for every heap size, by the octal periodicity theorem.
    Proven {
        /// The smallest period `p`.
        period: u64,
        /// The smallest preperiod `e` for it.
        preperiod: u64,
        /// `G(0..e+p)`: with the period, every value.
        cycle: Vec<u32>,
    },
    /// No proven period up to `N`.
    Unsolved {
        /// An apparent period `(p, e)` the values show, if any (not proven).
        apparent: Option<(u64, u64)>,
        /// How many values (`G(0..k)`) would prove the apparent period.
        values_to_prove: Option<u64>,
    },
}

impl CensusResult {
    /// Whether the period is proven.
    pub fn is_proven(&self) -> bool {
        matches!(self, CensusResult::Proven { .. })
    }

    /// For a proven code, every value as published tables write them: the
    /// preperiod's values, then the period's in parentheses, one character
    /// a value (see [`nimber_string`]); e.g. `0.75` is `0(12)`.
    pub fn nimbers(&self) -> Option<String> {
        match self {
            CensusResult::Proven {
                preperiod, cycle, ..
            } => {
                let e = *preperiod as usize;
                Some(format!(
                    "{}({})",
                    nimber_string(cycle[..e].iter().copied()),
                    nimber_string(cycle[e..].iter().copied())
                ))
            }
            CensusResult::Unsolved { .. } => None,
        }
    }
}

/// Values written one character each: `0`-`9`, then `A`-`Z` for 10 to 35
/// (as in Czajka's and Flammenkamp's tables); a larger value is written in
/// braces, `{36}`, so the string reads back unambiguously.
pub fn nimber_string(values: impl IntoIterator<Item = u32>) -> String {
    let mut out = String::new();
    for v in values {
        match v {
            0..=9 => out.push((b'0' + v as u8) as char),
            10..=35 => out.push((b'A' + (v - 10) as u8) as char),
            _ => {
                out.push('{');
                out.push_str(&v.to_string());
                out.push('}');
            }
        }
    }
    out
}

/// `G(n)` of a proven sequence from its `G(0..e+p)`.
fn periodic_value(cycle: &[u32], preperiod: u64, period: u64, n: u64) -> u32 {
    if n < preperiod + period {
        cycle[n as usize]
    } else {
        cycle[(preperiod + (n - preperiod) % period) as usize]
    }
}

/// One code's line in a census.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CensusRecord {
    /// The census it belongs to.
    pub spec: CensusSpec,
    /// Its index in the census.
    pub index: u64,
    /// The code, canonical.
    pub code: OctalCode,
    /// Its same-moves key ([`same_moves_key`]).
    pub moves: String,
    /// The largest of `G(0..=N)`.
    pub max_value: u32,
    /// The first heap size where the largest value occurs (`None` in
    /// records written before it was kept).
    pub max_value_at: Option<u64>,
    /// The fingerprint of `G(0..=N)`.
    pub values: Fingerprint,
    /// The first heap size with a nonzero value: the heaps below it have no
    /// move at all (`None` if every value up to `N` is 0).
    pub shift: Option<u64>,
    /// The fingerprint of the values after the leading zeros,
    /// `G(s..s+W)` with `s` = [`CensusRecord::shift`] and `W` =
    /// [`CensusSpec::shift_window`], the same for every code of the census.
    pub shifted_values: Option<Fingerprint>,
    /// The sparse method's final mask, if it used one.
    pub mask: Option<SparseMask>,
    /// For a record derived rather than computed
    /// ([`CensusRecord::derived`]): the root code its values came from.
    pub derived_from: Option<OctalCode>,
    /// Rare positions in `0..=N` under that mask.
    pub rare_count: Option<u64>,
    /// The last rare position.
    pub last_rare: Option<u64>,
    /// Proven or unsolved.
    pub result: CensusResult,
}

impl CensusRecord {
    /// The record of a sequence computed for the code numbered `index`
    /// (`seq` must hold `G(0..=spec.to)` of that code).
    pub fn from_sequence(spec: &CensusSpec, index: u64, seq: &GrundySequence) -> CensusRecord {
        let code = spec.code(index);
        let result = match seq.period {
            Some(p) if p.proven => CensusResult::Proven {
                period: p.period,
                preperiod: p.preperiod,
                cycle: seq
                    .values
                    .iter()
                    .take((p.preperiod + p.period) as usize)
                    .collect(),
            },
            other => CensusResult::Unsolved {
                apparent: other.map(|p| (p.period, p.preperiod)),
                values_to_prove: seq.summary.values_to_prove,
            },
        };
        let values = &seq.values;
        let max_value_at = values.iter().position(|v| v == seq.summary.max_value);
        let shift = values.iter().position(|v| v != 0).map(|n| n as u64);
        let window = spec.shift_window();
        let shifted_values = shift
            .filter(|_| window > 0)
            .map(|s| Fingerprint::of((s..s + window).map(|n| values.get(n as usize))));
        CensusRecord {
            spec: *spec,
            index,
            moves: same_moves_key(&code),
            code,
            max_value: seq.summary.max_value,
            max_value_at: max_value_at.map(|n| n as u64),
            values: Fingerprint::of_values(&seq.values),
            shift,
            shifted_values,
            mask: seq.summary.mask,
            derived_from: None,
            rare_count: seq.summary.rare_count,
            last_rare: seq.summary.last_rare,
            result,
        }
    }
}

impl CensusRecord {
    /// The record of the code numbered `index` derived from its shift
    /// root's sequence: `root` holds `G(0..=N)` of `spec.shift_root(index).0`
    /// and `depth` is `spec.shift_root(index).1`. The code's values are
    /// `depth` zeros then `G_root(0..=N - depth)` ([`OctalCode::dead_heap_shift`]
    /// proves it for every heap size), so its values' fingerprints, largest
    /// value, shift and period (found by the same search a computation ends
    /// with) are those a computation gives. Its mask and rare counts are
    /// not: they describe the sparse method's run on the code itself, which
    /// never took place, so they are `None`, and `derived_from` names the
    /// root. Panics if `root` holds fewer than `N + 1` values.
    pub fn derived(
        spec: &CensusSpec,
        index: u64,
        root: &GrundySequence,
        depth: u64,
    ) -> CensusRecord {
        let n = spec.to as usize + 1;
        let d = (depth as usize).min(n);
        assert!(root.values.len() >= n, "the root's values reach N");
        fn shifted<T: Copy + Default>(v: &[T], d: usize, n: usize) -> Vec<T> {
            let mut out = vec![T::default(); d];
            out.extend_from_slice(&v[..n - d]);
            out
        }
        let values = match &root.values {
            Values::Bytes(v) => Values::Bytes(shifted(v, d, n)),
            Values::Shorts(v) => Values::Shorts(shifted(v, d, n)),
            Values::Words(v) => Values::Words(shifted(v, d, n)),
        };
        let game = census_game(spec, index);
        let proof = super::proof_rule(&game);
        let period = match &values {
            Values::Bytes(v) => super::period::detect(v, proof),
            Values::Shorts(v) => super::period::detect(v, proof),
            Values::Words(v) => super::period::detect(v, proof),
        };
        let summary = super::SequenceSummary {
            method: "derived",
            mask: None,
            rare_count: None,
            last_rare: None,
            max_value: values.max_value(),
            computed: 0,
            extended_by_period: 0,
            bytes_per_value: values.bytes_per_value(),
            values_to_prove: period
                .filter(|p| !p.proven)
                .and_then(|p| proof.values_needed(p.period, p.preperiod)),
            counters: Default::default(),
            simd: root.summary.simd,
        };
        let seq = GrundySequence {
            game,
            values,
            period,
            summary,
        };
        let mut record = CensusRecord::from_sequence(spec, index, &seq);
        record.derived_from = Some(spec.code(spec.shift_root(index).0));
        record
    }
}

/// The game of a census code.
pub fn census_game(spec: &CensusSpec, index: u64) -> HeapGame {
    HeapGame::Octal(spec.code(index))
}

/// Computes the record of the code numbered `index` in one call.
pub fn census_record(
    spec: &CensusSpec,
    index: u64,
    options: &SequenceOptions,
) -> Result<CensusRecord, SequenceError> {
    let seq = grundy_sequence(&census_game(spec, index), spec.to, options)?;
    Ok(CensusRecord::from_sequence(spec, index, &seq))
}

/// Why codes share a class.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum EquivalenceRule {
    /// The class has one code.
    Single,
    /// The codes have the same moves.
    SameMoves,
    /// Proven equal for every heap size: both periodic by the theorem, with
    /// the same period and preperiod and equal `G(0..e+p)`.
    SameValuesProven,
    /// Equal values up to `N`, not proven beyond.
    SameValuesObserved,
}

impl EquivalenceRule {
    /// The stable name used in the JSON table.
    pub const fn name(self) -> &'static str {
        match self {
            EquivalenceRule::Single => "single",
            EquivalenceRule::SameMoves => "same-moves",
            EquivalenceRule::SameValuesProven => "same-values-proven",
            EquivalenceRule::SameValuesObserved => "same-values-observed",
        }
    }
}

/// A class of equivalent codes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CensusClass {
    /// Its number in the table, from 1.
    pub number: usize,
    /// Why its codes are equivalent.
    pub rule: EquivalenceRule,
    /// Its records, by index; the first is the representative.
    pub members: Vec<CensusRecord>,
    /// Other classes with the same values up to `N` (observed, not proven).
    pub same_values_up_to_n: Vec<usize>,
    /// Its shift group: classes whose values agree after their leading
    /// zeros (see [`CensusTable::shift_groups`]), numbered from 1 by their
    /// first class.
    pub shift_group: usize,
}

impl CensusClass {
    /// The representative record (the code of smallest index).
    pub fn representative(&self) -> &CensusRecord {
        &self.members[0]
    }

    /// The codes, as text, by index.
    pub fn codes(&self) -> Vec<String> {
        self.members.iter().map(|r| r.code.to_string()).collect()
    }
}

/// The merged census.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CensusTable {
    /// The census.
    pub spec: CensusSpec,
    /// How many codes have a record.
    pub codes: u64,
    /// The classes, ordered by their smallest code index.
    pub classes: Vec<CensusClass>,
    /// Indices of codes with no record (empty for a complete census).
    pub missing: Vec<u64>,
    /// How many shift groups the classes form. A heap too small for any
    /// move has value 0, and the codes differ in how many such heaps they
    /// have (`0.6` cannot touch a heap of 1, `0.16` can); codes whose
    /// values agree once those leading zeros are dropped form a group. For
    /// proven classes the agreement holds at every heap size (both
    /// sequences are known entirely: the same period and, after the zeros,
    /// the same preperiod and values); for unsolved classes it is observed
    /// over `G(s..s+W)` ([`CensusSpec::shift_window`]).
    pub shift_groups: usize,
}

impl CensusTable {
    /// The class holding `code`, if it has a record.
    pub fn class_of(&self, code: &OctalCode) -> Option<&CensusClass> {
        self.classes
            .iter()
            .find(|c| c.members.iter().any(|r| &r.code == code))
    }

    /// The classes of shift group `group`, by number.
    pub fn shift_group(&self, group: usize) -> Vec<&CensusClass> {
        self.classes
            .iter()
            .filter(|c| c.shift_group == group)
            .collect()
    }

    /// Proven classes and the codes in them.
    pub fn proven(&self) -> (usize, u64) {
        let proven = self
            .classes
            .iter()
            .filter(|c| c.representative().result.is_proven());
        proven.fold((0, 0), |(k, n), c| (k + 1, n + c.members.len() as u64))
    }
}

/// Records that cannot be merged.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MergeError {
    /// No records at all.
    Empty,
    /// Records of two different censuses.
    MixedCensus {
        /// The census of the first record.
        first: CensusSpec,
        /// Another census.
        other: CensusSpec,
        /// The code of the record that differs.
        code: String,
    },
    /// A record whose code is not the one its index names.
    WrongCode {
        /// The index.
        index: u64,
        /// The code in the record.
        code: String,
        /// The code the index names.
        expected: String,
    },
    /// Two different records for one code.
    Conflict {
        /// The code.
        code: String,
    },
}

impl fmt::Display for MergeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MergeError::Empty => f.write_str("no census records to merge"),
            MergeError::MixedCensus { first, other, code } => write!(
                f,
                "records of two censuses: {first} and, for code {code}, {other}; merge the shards of one census (same digits, leading digit and N)"
            ),
            MergeError::WrongCode {
                index,
                code,
                expected,
            } => write!(
                f,
                "record {index} names code {code}, but index {index} is code {expected}"
            ),
            MergeError::Conflict { code } => write!(
                f,
                "two different records for code {code}: the shards disagree (rerun that code's shard)"
            ),
        }
    }
}

impl std::error::Error for MergeError {}

/// Merges records (in any order, from any shards; exact duplicates are
/// kept once) into classes.
///
/// Records with the same moves key form one class. Then proven records with
/// the same period, preperiod and `G(0..e+p)` form one class (proven equal);
/// unsolved records with the same fingerprint of `G(0..=N)` form one class
/// (observed equal). Classes whose values agree up to `N` but are not proven
/// equal name each other in [`CensusClass::same_values_up_to_n`].
pub fn merge(records: impl IntoIterator<Item = CensusRecord>) -> Result<CensusTable, MergeError> {
    let mut by_index: BTreeMap<u64, CensusRecord> = BTreeMap::new();
    let mut spec: Option<CensusSpec> = None;
    for record in records {
        let first = *spec.get_or_insert(record.spec);
        if record.spec != first {
            return Err(MergeError::MixedCensus {
                first,
                other: record.spec,
                code: record.code.to_string(),
            });
        }
        let index_ok = record.index < first.code_count();
        let expected = index_ok.then(|| first.code(record.index));
        if expected.as_ref() != Some(&record.code) || record.moves != same_moves_key(&record.code) {
            return Err(MergeError::WrongCode {
                index: record.index,
                code: record.code.to_string(),
                expected: expected.map_or_else(|| "none".into(), |c| c.to_string()),
            });
        }
        match by_index.get(&record.index) {
            Some(seen) if *seen != record => {
                return Err(MergeError::Conflict {
                    code: record.code.to_string(),
                });
            }
            Some(_) => {}
            None => {
                by_index.insert(record.index, record);
            }
        }
    }
    let spec = spec.ok_or(MergeError::Empty)?;

    // Group: first by moves, then proven records by their whole sequence,
    // unsolved ones by their values up to N. Each key maps to the member
    // indices, in index order (the map is filled in index order).
    #[derive(PartialEq, Eq, PartialOrd, Ord)]
    enum Key<'a> {
        Proven(u64, u64, &'a [u32]),
        Unsolved(Fingerprint),
    }
    let mut moves_groups: BTreeMap<&str, Vec<u64>> = BTreeMap::new();
    for (index, r) in &by_index {
        moves_groups.entry(&r.moves).or_default().push(*index);
    }
    let mut groups: BTreeMap<Key, Vec<&[u64]>> = BTreeMap::new();
    for members in moves_groups.values() {
        let r = &by_index[&members[0]];
        let key = match &r.result {
            CensusResult::Proven {
                period,
                preperiod,
                cycle,
            } => Key::Proven(*period, *preperiod, cycle),
            CensusResult::Unsolved { .. } => Key::Unsolved(r.values),
        };
        groups.entry(key).or_default().push(members);
    }
    let mut classes: Vec<CensusClass> = groups
        .into_values()
        .map(|parts| {
            let rule = match (parts.len(), parts[0].len()) {
                (1, 1) => EquivalenceRule::Single,
                (1, _) => EquivalenceRule::SameMoves,
                _ if by_index[&parts[0][0]].result.is_proven() => EquivalenceRule::SameValuesProven,
                _ => EquivalenceRule::SameValuesObserved,
            };
            let mut indices: Vec<u64> = parts.concat();
            indices.sort_unstable();
            CensusClass {
                number: 0,
                rule,
                members: indices.iter().map(|i| by_index[i].clone()).collect(),
                same_values_up_to_n: Vec::new(),
                shift_group: 0,
            }
        })
        .collect();
    classes.sort_by_key(|c| c.members[0].index);
    let mut by_values: BTreeMap<Fingerprint, Vec<usize>> = BTreeMap::new();
    for (i, class) in classes.iter_mut().enumerate() {
        class.number = i + 1;
        by_values
            .entry(class.members[0].values)
            .or_default()
            .push(i + 1);
    }
    for class in &mut classes {
        class.same_values_up_to_n = by_values[&class.members[0].values]
            .iter()
            .copied()
            .filter(|&n| n != class.number)
            .collect();
    }
    // Shift groups: the values after the leading zeros, whole for proven
    // classes, by their fingerprint for unsolved ones.
    #[derive(PartialEq, Eq, PartialOrd, Ord)]
    enum ShiftKey {
        Proven(u64, u64, Vec<u32>),
        Unsolved(Fingerprint),
        Alone(usize),
    }
    let mut shift_groups: BTreeMap<ShiftKey, usize> = BTreeMap::new();
    for class in &mut classes {
        let r = &class.members[0];
        let key = match (&r.result, r.shift) {
            (
                CensusResult::Proven {
                    period,
                    preperiod,
                    cycle,
                },
                Some(z),
            ) => {
                let (p, e) = (*period, *preperiod);
                let es = e.saturating_sub(z);
                let after = (0..es + p).map(|i| periodic_value(cycle, e, p, z + i));
                ShiftKey::Proven(p, es, after.collect())
            }
            (
                CensusResult::Proven {
                    period,
                    preperiod,
                    cycle,
                },
                None,
            ) => ShiftKey::Proven(*period, *preperiod, cycle.clone()),
            (CensusResult::Unsolved { .. }, _) => match r.shifted_values {
                Some(f) => ShiftKey::Unsolved(f),
                None => ShiftKey::Alone(class.number),
            },
        };
        let next = shift_groups.len() + 1;
        class.shift_group = *shift_groups.entry(key).or_insert(next);
    }
    let missing = (0..spec.code_count())
        .filter(|i| !by_index.contains_key(i))
        .collect();
    Ok(CensusTable {
        spec,
        codes: by_index.len() as u64,
        classes,
        missing,
        shift_groups: shift_groups.len(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::BTreeSet;

    fn spec(digits: u32, leading: u8, to: u64) -> CensusSpec {
        CensusSpec::new(digits, leading, to).unwrap()
    }

    #[test]
    fn census_enumeration_covers_every_code_once_in_order() {
        let s = spec(2, 0, 10);
        let codes: Vec<String> = s.codes().map(|(_, c)| c.to_string()).collect();
        assert_eq!(codes.len(), 64);
        assert_eq!(
            &codes[..10],
            [
                "0.0", "0.01", "0.02", "0.03", "0.04", "0.05", "0.06", "0.07", "0.1", "0.11"
            ]
        );
        assert_eq!(codes[63], "0.77");
        let distinct: BTreeSet<&String> = codes.iter().collect();
        assert_eq!(distinct.len(), 64);
        // Every written code of one or two octal digits is in it, once.
        for d1 in 0..8u8 {
            let one = OctalCode::from_digits(&[0, d1]).unwrap();
            assert_eq!(s.index_of(&one), Some(d1 as u64 * 8));
            for d2 in 0..8u8 {
                let two = OctalCode::from_digits(&[0, d1, d2]).unwrap();
                let i = s.index_of(&two).unwrap();
                assert_eq!(s.code(i), two);
            }
        }
        assert_eq!(s.index_of(&"0.777".parse().unwrap()), None);
        assert_eq!(s.index_of(&"4.7".parse().unwrap()), None);
        assert_eq!(s.index_of(&"0.8".parse().unwrap()), None);
        let four = spec(1, 4, 10);
        assert_eq!(four.code(0).to_string(), "4.0");
        assert_eq!(four.code(5).to_string(), "4.5");
    }

    #[test]
    fn census_settings_are_checked() {
        assert_eq!(
            CensusSpec::new(0, 0, 5),
            Err(CensusError::Digits { given: 0 })
        );
        assert!(CensusSpec::new(9, 0, 5).is_err());
        assert!(CensusSpec::new(8, 0, 5).is_ok());
        assert_eq!(
            CensusSpec::new(2, 2, 5),
            Err(CensusError::Leading { given: 2 })
        );
        for bad in ["0/4", "5/4", "1/0", "1", "a/4", "1/4/2", "-1/4", ""] {
            let e = bad.parse::<Shard>().unwrap_err();
            assert!(e.to_string().contains("1 <= I <= N"), "{bad}: {e}");
        }
        assert_eq!("3/4".parse::<Shard>(), Ok(Shard { index: 3, count: 4 }));
        assert_eq!(" 1/1 ".parse::<Shard>(), Ok(Shard::WHOLE));
    }

    #[test]
    fn census_shards_are_disjoint_and_cover_the_census() {
        for digits in 1..=3 {
            let s = spec(digits, 0, 10);
            for count in [1u64, 2, 3, 4, 7, 64, 600] {
                let mut seen = vec![0u32; s.code_count() as usize];
                for i in 1..=count {
                    let shard = Shard::new(i, count).unwrap();
                    for index in shard.indices(&s) {
                        assert!(shard.contains(&s, index));
                        seen[index as usize] += 1;
                    }
                    let listed = shard.indices(&s).count() as u64;
                    let belongs = (0..s.code_count())
                        .filter(|&x| shard.contains(&s, x))
                        .count();
                    assert_eq!(listed, belongs as u64);
                    // Equally many codes in each shard, to within one.
                    let share = s.code_count() / count;
                    assert!(
                        listed == share || listed == share + 1,
                        "{digits} digits, shard {i}/{count}: {listed} codes"
                    );
                }
                assert!(
                    seen.iter().all(|&k| k == 1),
                    "{digits} digits, {count} shards"
                );
            }
        }
    }

    #[test]
    fn census_same_moves_key_is_the_canonical_code() {
        let a: OctalCode = "0.70".parse().unwrap();
        let b: OctalCode = "0.7".parse().unwrap();
        assert_eq!(same_moves_key(&a), same_moves_key(&b));
        assert_ne!(same_moves_key(&"0.07".parse().unwrap()), same_moves_key(&b));
    }

    /// Options of a heap of `n` under a code, as (heaps left, total left),
    /// straight from the digit table: the data the same-moves key claims to
    /// capture.
    fn options(code: &OctalCode, n: u64) -> BTreeSet<(u8, u64)> {
        let mut out = BTreeSet::new();
        for (k, &d) in code.digits().iter().enumerate() {
            let k = k as u64;
            if k > n {
                break;
            }
            let rest = n - k;
            if d & 1 != 0 && k > 0 && rest == 0 {
                out.insert((0, 0));
            }
            if d & 2 != 0 && k > 0 && rest >= 1 {
                out.insert((1, rest));
            }
            if d & 4 != 0 && rest >= 2 {
                out.insert((2, rest));
            }
        }
        out
    }

    #[test]
    fn census_codes_with_different_keys_have_different_moves() {
        for leading in [0, 4] {
            let s = spec(2, leading, 10);
            let all: Vec<(u64, OctalCode)> = s.codes().collect();
            for (i, a) in &all {
                for (j, b) in &all {
                    if i < j {
                        let differ = (0..=6).any(|n| options(a, n) != options(b, n));
                        assert!(differ, "{a} and {b}");
                        assert_ne!(same_moves_key(a), same_moves_key(b));
                    }
                }
            }
        }
    }

    #[test]
    fn census_fingerprint_is_fnv1a_per_value() {
        assert_eq!(
            Fingerprint::of([]).to_string(),
            "6c62272e07bb014262b821756295c58d"
        );
        let a = Fingerprint::of([0, 1, 2]);
        assert_ne!(a, Fingerprint::of([0, 2, 1]));
        assert_ne!(a, Fingerprint::of([0, 1, 2, 0]));
        assert_eq!(a.to_string().parse::<Fingerprint>(), Ok(a));
        let v = Values::Shorts(vec![0, 1, 2]);
        assert_eq!(Fingerprint::of_values(&v), a);
    }

    fn records(s: &CensusSpec, shard: Shard) -> Vec<CensusRecord> {
        let options = SequenceOptions::default();
        shard
            .indices(s)
            .map(|i| census_record(s, i, &options).unwrap())
            .collect()
    }

    #[test]
    fn census_merge_is_the_same_whatever_the_sharding_and_order() {
        let s = spec(2, 0, 300);
        let whole = merge(records(&s, Shard::WHOLE)).unwrap();
        assert_eq!(whole.codes, 64);
        assert!(whole.missing.is_empty());
        for count in [2, 3, 5] {
            let mut all = Vec::new();
            for i in (1..=count).rev() {
                all.extend(records(&s, Shard::new(i, count).unwrap()));
            }
            // A shard merged twice changes nothing.
            all.extend(records(&s, Shard::new(1, count).unwrap()));
            assert_eq!(merge(all).unwrap(), whole, "{count} shards");
        }
        let members: usize = whole.classes.iter().map(|c| c.members.len()).sum();
        assert_eq!(members, 64);
        let numbers: Vec<usize> = whole.classes.iter().map(|c| c.number).collect();
        assert_eq!(numbers, (1..=whole.classes.len()).collect::<Vec<_>>());
    }

    #[test]
    fn census_classes_follow_the_rules() {
        let s = spec(2, 0, 400);
        let table = merge(records(&s, Shard::WHOLE)).unwrap();
        // 0.0 has no move: G = 0, proven with period 1.
        let none = table.class_of(&"0.0".parse().unwrap()).unwrap();
        let first = none.representative();
        assert_eq!(first.code.to_string(), "0.0");
        assert!(matches!(
            first.result,
            CensusResult::Proven {
                period: 1,
                preperiod: 0,
                ..
            }
        ));
        for class in &table.classes {
            let rep = class.representative();
            for r in &class.members {
                match class.rule {
                    EquivalenceRule::Single => assert_eq!(class.members.len(), 1),
                    EquivalenceRule::SameMoves => assert_eq!(r.moves, rep.moves),
                    EquivalenceRule::SameValuesProven => {
                        assert!(r.result.is_proven());
                        assert_eq!(r.result, rep.result);
                        assert_eq!(r.values, rep.values);
                    }
                    EquivalenceRule::SameValuesObserved => {
                        assert!(!r.result.is_proven());
                        assert_eq!(r.values, rep.values);
                    }
                }
            }
            for &other in &class.same_values_up_to_n {
                let o = &table.classes[other - 1];
                assert_eq!(o.representative().values, rep.values);
                assert_ne!(
                    o.representative().result.is_proven(),
                    rep.result.is_proven()
                );
            }
        }
        // Officers (0.6) is not known to be periodic.
        let officers = table.class_of(&"0.6".parse().unwrap()).unwrap();
        assert!(!officers.representative().result.is_proven());
    }

    #[test]
    fn census_shift_is_the_first_heap_with_a_move() {
        for leading in [0, 4] {
            let s = spec(3, leading, 40);
            for (index, code) in s.codes() {
                let r = census_record(&s, index, &SequenceOptions::default()).unwrap();
                let first_move = (0..=40).find(|&n| !options(&code, n).is_empty());
                assert_eq!(r.shift, first_move, "{code}");
                if let Some(z) = first_move {
                    assert!(z <= 3 + 2, "{code}: first move at {z}");
                }
            }
        }
    }

    /// `G(0..=to)` by the naive mex over every option, written out here.
    fn naive_values(code: &OctalCode, to: u64) -> Vec<u32> {
        let mut g: Vec<u32> = Vec::new();
        let mut largest = 0u32;
        for n in 0..=to {
            // Two values below 2^k XOR to a value below 2^k.
            let mut seen = vec![false; 2 * (largest as usize + 1).next_power_of_two()];
            for (heaps, total) in options(code, n) {
                match heaps {
                    0 => seen[0] = true,
                    1 => seen[g[total as usize] as usize] = true,
                    _ => {
                        for a in 1..=total / 2 {
                            seen[(g[a as usize] ^ g[(total - a) as usize]) as usize] = true;
                        }
                    }
                }
            }
            let v = seen.iter().position(|&x| !x).unwrap() as u32;
            largest = largest.max(v);
            g.push(v);
        }
        g
    }

    #[test]
    fn census_shift_groups_hold_by_the_naive_values_and_differ_otherwise() {
        let s = spec(3, 0, 600);
        let table = merge(records(&s, Shard::WHOLE)).unwrap();
        // T. Czajka's tables (github.com/tczajka/octal-games) group the
        // 3-digit codes into 150 games; the census has 178 classes of equal
        // values, and the same 150 once shifts are merged.
        assert_eq!((table.classes.len(), table.shift_groups), (178, 150));
        assert_eq!(
            table.shift_groups,
            table
                .classes
                .iter()
                .map(|c| c.shift_group)
                .collect::<BTreeSet<_>>()
                .len()
        );
        // Far beyond N for proven groups (they claim every heap size).
        const FAR: u64 = 2000;
        let mut stripped_of = BTreeMap::new();
        for class in &table.classes {
            let r = class.representative();
            let far = if r.result.is_proven() { FAR } else { 600 };
            let g = naive_values(&r.code, far);
            let z = g.iter().position(|&v| v != 0).unwrap_or(g.len());
            assert_eq!(r.shift, (z < g.len()).then_some(z as u64), "{}", r.code);
            let len = far as usize + 1 - (3 + 2);
            let stripped: Vec<u32> = g[z.min(g.len())..].iter().copied().take(len).collect();
            stripped_of.insert(class.number, (stripped, r.result.is_proven()));
        }
        let mut merged_shifted = 0;
        for a in &table.classes {
            for b in &table.classes {
                if a.number >= b.number {
                    continue;
                }
                let (sa, pa) = &stripped_of[&a.number];
                let (sb, pb) = &stripped_of[&b.number];
                // 0.0 has no nonzero value: nothing to compare.
                let n = sa.len().min(sb.len());
                let agree = n > 0 && sa[..n] == sb[..n];
                if a.shift_group == b.shift_group {
                    assert_eq!(pa, pb, "classes {} and {}", a.number, b.number);
                    assert!(
                        agree,
                        "classes {} and {}: shifted values differ",
                        a.number, b.number
                    );
                    if a.representative().shift != b.representative().shift {
                        merged_shifted += 1;
                    }
                } else if pa == pb {
                    assert!(
                        !agree,
                        "classes {} and {} agree but are apart",
                        a.number, b.number
                    );
                }
            }
        }
        // Shifts do join classes: 0.6 (no move on a heap of 1) and 0.16.
        assert!(merged_shifted > 0);
        let six = table.class_of(&"0.6".parse().unwrap()).unwrap();
        let sixteen = table.class_of(&"0.16".parse().unwrap()).unwrap();
        assert_ne!(six.number, sixteen.number);
    }

    #[test]
    fn census_nimber_strings_are_those_published() {
        // T. Czajka, TrivialGames.md (github.com/tczajka/octal-games): a
        // game, its preperiod and period, and its values.
        let published = [
            ("0.1", 2, 1, "01(0)"),
            (
                "0.17",
                33,
                34,
                "011021301132234153223110312011442(6411021301132234457223110312011443)",
            ),
            ("0.35", 1, 6, "0(120102)"),
            ("0.53", 11, 9, "01122102240(122112241)"),
            (
                "0.77",
                71,
                12,
                "01231432142641271432146741285472186741231472182741281472142741281472186(741281472182)",
            ),
            (
                "0.116",
                139,
                96,
                "011002120211044152411204120411544252021544858282524A1A0A52425114051202114A514201120A120A1189818201120A12061104415241120415041152425A0A15428(58285524A1A0A52425114051202114A514201120A120A818981C201120A12061104415241120415041152425A0A1542C)",
            ),
            ("4.3", 2, 2, "01(20)"),
            // Czajka lists 4.444, which cannot move on a heap of 1, by its
            // values with that dead heap size dropped (prefix 142): the
            // census keeps G(1) = 0, one more zero in front.
            (
                "4.444",
                143,
                24,
                "00123456732897654328945CD982345FE328976543289DCFE982345GHAB89EF5432GHDCFE982345673289EF5432GH45FE982345GH3289EF54328945FE982345GH3289EF5432GHDC(FE982345GH3289EF5432GH45)",
            ),
        ];
        for (code, pre, period, text) in published {
            let code: OctalCode = code.parse().unwrap();
            let leading = code.digit(0);
            let s = spec(3, leading, 2000);
            let index = s.index_of(&code).unwrap();
            let r = census_record(&s, index, &SequenceOptions::default()).unwrap();
            match &r.result {
                CensusResult::Proven {
                    period: p,
                    preperiod: e,
                    ..
                } => assert_eq!((*e, *p), (pre, period), "{code}"),
                other => panic!("{code}: {other:?}"),
            }
            assert_eq!(r.result.nimbers().as_deref(), Some(text), "{code}");
        }
        assert_eq!(
            nimber_string([0, 1, 2, 10, 11, 35, 36, 100]),
            "012ABZ{36}{100}"
        );
    }

    #[test]
    fn census_merge_refuses_mixed_and_conflicting_records() {
        let a = spec(1, 0, 50);
        let b = spec(1, 0, 60);
        let options = SequenceOptions::default();
        let ra = census_record(&a, 3, &options).unwrap();
        let rb = census_record(&b, 3, &options).unwrap();
        assert!(matches!(
            merge([ra.clone(), rb]),
            Err(MergeError::MixedCensus { .. })
        ));
        let mut changed = ra.clone();
        changed.max_value += 1;
        assert_eq!(
            merge([ra.clone(), changed]),
            Err(MergeError::Conflict { code: "0.3".into() })
        );
        let mut wrong = ra.clone();
        wrong.index = 4;
        assert!(matches!(merge([wrong]), Err(MergeError::WrongCode { .. })));
        assert_eq!(merge(Vec::new()), Err(MergeError::Empty));
        let partial = merge([ra]).unwrap();
        assert_eq!(partial.missing, vec![0, 1, 2, 4, 5, 6, 7]);
    }
}
