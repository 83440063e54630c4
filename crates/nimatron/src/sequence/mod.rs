//! Grundy sequences of heap games: take-and-break (octal and hexadecimal)
//! codes, Grundy's game, subtraction and modular games.
//!
//! ```
//! use nimatron::sequence::{grundy_sequence, HeapGame, SequenceOptions};
//! let kayles: HeapGame = "kayles".parse()?;
//! let seq = grundy_sequence(&kayles, 300, &SequenceOptions::default())?;
//! assert_eq!(seq.values.get(3), 3);
//! let period = seq.period.expect("Kayles is periodic");
//! assert_eq!((period.period, period.preperiod, period.proven), (12, 71, true));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! Four algorithms:
//! - **naive**: the mex over every option, the reference (`O(n)` per value
//!   for splitting games).
//! - **sparse**: the rare/common method (see the `sparse` notes below), exact
//!   whatever mask it picks.
//! - **plain**: the rare/common method as Winning Ways gives it, one mask,
//!   scalar loops: the baseline the sparse method is measured against.
//! - **auto**: the sparse method for games that split heaps, the direct mex
//!   for the others (residue classes for modular games); and, once the
//!   octal periodicity theorem proves a period, the rest of the sequence is
//!   filled in by the period instead of being computed.
//!
//! Memory: values take 1 byte each while every value is below 256, then 2
//! bytes (4 beyond 65 535). Three-heap (hexadecimal) codes add 64 bytes per
//! value; the fast modular method adds `M` bits per value. Working memory
//! besides is small (the rare list and tables of a few kilobytes). Before a
//! run starts, [`SequenceRun::new`] refuses a size that would not fit the
//! memory limit.
//!
//! Files: [`write_sequence_file`] writes a game and its values in a compact
//! binary form (the layout is on [`SequenceFile`]), and
//! [`read_sequence_file`] reads them back, refusing damaged bytes with a
//! [`FormatError`].
//!
//! The sparse method: a mask sorts values into two classes by the parity of
//! `v & mask` (optionally adding the parity of the position); positions of
//! the minority label are *rare*. Every option in the class the mex usually
//! lands in comes from a pair with exactly one rare part, so scanning the rare
//! positions finds that class's mex exactly; the other class below it is then
//! checked among all pairs, a search that almost always ends early.

mod bytes;
mod census;
mod checkpoint;
mod checkpoint_log;
mod code;
mod format;
mod game;
mod kernel;
pub(crate) use kernel::stream_copy;
mod naive;
mod parallel;
mod period;
mod plain;
mod probe;
mod sparse;
mod values;

use std::fmt;
use std::str::FromStr;

use crate::solve::Interrupt;

pub use census::{
    CensusClass, CensusError, CensusRecord, CensusResult, CensusSpec, CensusTable, EquivalenceRule,
    Fingerprint, MergeError, Shard, census_game, census_record, merge, nimber_string,
    same_moves_key,
};
pub use checkpoint::CheckpointError;
pub use checkpoint_log::{LOG_FRAME_MAX, LOG_FRAME_PREFIX, LOG_FRAME_VALUES, LogLoader};
pub use code::{CodeError, OctalCode};
pub use format::{FormatError, SequenceFile, read_sequence_file, write_sequence_file};
pub use game::{HeapGame, HeapGameError, Preset};
pub use kernel::{ParseSimdError, Simd, SimdUnavailable};
pub use period::Period;
pub use sparse::{SparseCounters, SparseMask};
pub use values::Values;

pub(crate) use game::{Rule, TakeBreak};
use naive::{ModularClasses, ModularNaive, NaiveTakeBreak, Squares, StepError, ThreeHeap, Watch};
use period::ProofRule;
use plain::Plain;
use sparse::Sparse;
use values::Cell;

/// Which algorithm computes the values.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Algorithm {
    /// The best method for the game, and extension by a proven period.
    #[default]
    Auto,
    /// The mex over every option: the reference.
    Naive,
    /// The rare/common sparse-space method (for games that split heaps; the
    /// same as `auto` without period extension for the others).
    Sparse,
    /// The plain rare/common method of Winning Ways: one mask by a
    /// Walsh–Hadamard transform, scalar loops, one thread. A baseline for
    /// benchmarks (the same as `auto` without period extension for games
    /// that do not split heaps).
    Plain,
}

impl Algorithm {
    /// The stable name.
    pub const fn name(self) -> &'static str {
        match self {
            Algorithm::Auto => "auto",
            Algorithm::Naive => "naive",
            Algorithm::Sparse => "sparse",
            Algorithm::Plain => "plain",
        }
    }
}

impl fmt::Display for Algorithm {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// An algorithm name that does not parse.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseAlgorithmError {
    /// The name given.
    pub given: String,
}

impl fmt::Display for ParseAlgorithmError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "unknown algorithm '{}': expected auto, naive, sparse or plain",
            self.given
        )
    }
}

impl std::error::Error for ParseAlgorithmError {}

impl FromStr for Algorithm {
    type Err = ParseAlgorithmError;
    fn from_str(s: &str) -> Result<Algorithm, ParseAlgorithmError> {
        match s.trim().to_ascii_lowercase().as_str() {
            "auto" => Ok(Algorithm::Auto),
            "naive" => Ok(Algorithm::Naive),
            "sparse" => Ok(Algorithm::Sparse),
            "plain" => Ok(Algorithm::Plain),
            _ => Err(ParseAlgorithmError { given: s.into() }),
        }
    }
}

/// How to compute a sequence.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SequenceOptions {
    /// The algorithm.
    pub algorithm: Algorithm,
    /// Threads for the sparse method: 1, or 2 and more, of which two are
    /// used (step 1 a round ahead, step 2 shared; see the `sparse` module).
    pub threads: usize,
    /// The most memory, in bytes, a run may plan to use.
    pub memory_limit: u64,
    /// The vector path of the inner loops: `Auto` for the best this
    /// processor has, or one forced (refused when the processor lacks it).
    pub simd: Simd,
}

impl Default for SequenceOptions {
    /// Auto, one thread, 8 GiB, the best vector path.
    fn default() -> SequenceOptions {
        SequenceOptions {
            algorithm: Algorithm::Auto,
            threads: 1,
            memory_limit: 8 << 30,
            simd: Simd::Auto,
        }
    }
}

/// Why a sequence cannot be computed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SequenceError {
    /// The values up to `to` would not fit the memory limit.
    TooLarge {
        /// The largest heap size asked for.
        to: u64,
        /// Bytes per value the run needs.
        bytes_per_value: u64,
        /// Bytes the run needs.
        needed: u64,
        /// The limit.
        limit: u64,
    },
    /// The game and size are beyond what this implementation handles.
    Unsupported {
        /// What and why.
        reason: String,
    },
    /// The vector path asked for is not on this processor.
    Simd(SimdUnavailable),
    /// The values known before `at` are not the game's, so the next one
    /// cannot be computed: they were resumed from an altered checkpoint.
    Inconsistent {
        /// The heap size whose value could not be computed.
        at: u64,
    },
    /// The run's [`Interrupt`] (see [`SequenceRun::set_interrupt`]) asked
    /// to stop. The values below `known` are final, and the run may be
    /// advanced again from there.
    Interrupted {
        /// How many values are known: `G(0..known)`.
        known: u64,
    },
}

impl fmt::Display for SequenceError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SequenceError::TooLarge {
                to,
                bytes_per_value,
                needed,
                limit,
            } => write!(
                f,
                "values up to n = {to} need {} at {bytes_per_value} bytes per value, above the memory limit of {}: choose a smaller N",
                human_bytes(*needed),
                human_bytes(*limit)
            ),
            SequenceError::Unsupported { reason } => f.write_str(reason),
            SequenceError::Simd(e) => e.fmt(f),
            SequenceError::Inconsistent { at } => write!(
                f,
                "the values below n = {at} are not this game's Grundy values (was the run resumed from an altered checkpoint?)"
            ),
            SequenceError::Interrupted { known } => write!(
                f,
                "the computation was interrupted with G(0..{known}) known"
            ),
        }
    }
}

impl std::error::Error for SequenceError {}

/// `1.5 GiB` style.
pub fn human_bytes(bytes: u64) -> String {
    const UNITS: [&str; 5] = ["bytes", "KiB", "MiB", "GiB", "TiB"];
    let mut value = bytes as f64;
    let mut unit = 0;
    while value >= 1024.0 && unit + 1 < UNITS.len() {
        value /= 1024.0;
        unit += 1;
    }
    if unit == 0 {
        format!("{bytes} bytes")
    } else {
        format!("{value:.1} {}", UNITS[unit])
    }
}

/// Which periodicity theorem proves periods of a game's values.
fn proof_rule_of(rule: &Rule) -> ProofRule {
    match rule {
        Rule::TakeBreak(t) if !t.unequal => ProofRule::TakeBreak {
            heaps: t.max_heaps_left(),
            reach: t.reach,
        },
        _ => ProofRule::Unavailable,
    }
}

/// [`proof_rule_of`] the game's rule.
pub(crate) fn proof_rule(game: &HeapGame) -> ProofRule {
    proof_rule_of(&game.rule())
}

/// What a finished run reports besides the values.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SequenceSummary {
    /// The method that computed the values: `naive`, `sparse`, `direct`
    /// (mex over few options) or `residue classes` (modular games).
    pub method: &'static str,
    /// The sparse method's final mask, if it chose one.
    pub mask: Option<SparseMask>,
    /// Rare positions under the final mask among all of `G(0..=to)`, heap 0
    /// included (as published tables count them).
    pub rare_count: Option<u64>,
    /// The last rare position.
    pub last_rare: Option<u64>,
    /// The largest value.
    pub max_value: u32,
    /// Values computed by a mex (the rest came from a proven period).
    pub computed: u64,
    /// Values filled in from a proven period.
    pub extended_by_period: u64,
    /// Bytes used per stored value.
    pub bytes_per_value: usize,
    /// For a period that is not proven but could be: how many values
    /// (`G(0..k)`) the periodicity theorem needs.
    pub values_to_prove: Option<u64>,
    /// Counters of the sparse method.
    pub counters: SparseCounters,
    /// The vector path the inner loops used.
    pub simd: Simd,
}

/// A computed Grundy sequence `G(0..=to)`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GrundySequence {
    /// The game.
    pub game: HeapGame,
    /// `G(0), ..., G(to)`.
    pub values: Values,
    /// The smallest period found, proven or apparent.
    pub period: Option<Period>,
    /// How the values were found.
    pub summary: SequenceSummary,
}

/// Computes `G(0..=to)` in one call.
pub fn grundy_sequence(
    game: &HeapGame,
    to: u64,
    options: &SequenceOptions,
) -> Result<GrundySequence, SequenceError> {
    let mut run = SequenceRun::new(game, to, options)?;
    run.advance(u64::MAX)?;
    Ok(run.finish())
}

#[derive(Clone, Debug)]
enum Engine {
    Naive(NaiveTakeBreak),
    Sparse(Box<Sparse>),
    Plain(Box<Plain>),
    Squares(Squares),
    ModularNaive(ModularNaive),
    ModularClasses(ModularClasses),
}

impl Engine {
    /// The engine for heap sizes below `count`.
    fn new(rule: &Rule, algorithm: Algorithm, path: Simd, count: u64) -> (Engine, &'static str) {
        match (rule, algorithm) {
            (Rule::TakeBreak(t), Algorithm::Naive) => {
                (Engine::Naive(NaiveTakeBreak::new(t.clone())), "naive")
            }
            (Rule::TakeBreak(t), _) if t.split_two.is_empty() => {
                (Engine::Naive(NaiveTakeBreak::new(t.clone())), "direct")
            }
            (Rule::TakeBreak(t), Algorithm::Plain) => {
                (Engine::Plain(Box::new(Plain::new(t.clone()))), "plain")
            }
            (Rule::TakeBreak(t), _) => (
                Engine::Sparse(Box::new(Sparse::new(t.clone(), path))),
                "sparse",
            ),
            (Rule::Squares, Algorithm::Naive) => (Engine::Squares(Squares::new()), "naive"),
            (Rule::Squares, _) => (Engine::Squares(Squares::new()), "direct"),
            (Rule::Modular { modulus, residues }, Algorithm::Naive) => (
                Engine::ModularNaive(ModularNaive::new(*modulus, residues, count)),
                "naive",
            ),
            (Rule::Modular { modulus, residues }, _) => (
                Engine::ModularClasses(ModularClasses::new(*modulus, residues, count)),
                "residue classes",
            ),
        }
    }

    fn sync<T: Cell>(&mut self, g: &[T]) {
        match self {
            Engine::Naive(e) => e.sync(g),
            Engine::Sparse(e) => e.sync(g),
            Engine::Plain(e) => e.sync(g),
            Engine::Squares(e) => e.sync(g),
            Engine::ModularNaive(e) => e.sync(g),
            Engine::ModularClasses(e) => e.sync(g),
        }
    }

    fn extend<T: Cell>(
        &mut self,
        g: &mut Vec<T>,
        until: usize,
        threads: usize,
        watch: &mut Watch,
    ) -> Result<(), StepError> {
        match self {
            Engine::Naive(e) => e.extend(g, until, watch),
            Engine::Sparse(e) => {
                e.watch = *watch;
                let result = e.extend_parallel(g, until, threads);
                *watch = e.watch;
                result
            }
            Engine::Plain(e) => e.extend(g, until, watch),
            Engine::Squares(e) => e.extend(g, until, watch),
            Engine::ModularNaive(e) => e.extend(g, until, watch),
            Engine::ModularClasses(e) => e.extend(g, until, watch),
        }
    }
}

/// Bytes per value a game plans for, before the run: the widest storage it
/// is expected to need, plus per-value side tables.
fn planned_bytes_per_value(rule: &Rule, algorithm: Algorithm, count: u64) -> u64 {
    match rule {
        Rule::TakeBreak(t) => {
            let width = if t.split_two.is_empty() && t.split_three.is_empty() {
                // Values are at most the number of options.
                let options = t.take_all.len().max(t.leave_one.len()) as u64;
                if options < 256 { 1 } else { 2 }
            } else {
                2
            };
            let three = if t.split_three.is_empty() {
                0
            } else {
                ThreeHeap::BYTES_PER_VALUE
            };
            width + three
        }
        Rule::Squares => 2,
        Rule::Modular { modulus, .. } => {
            if algorithm == Algorithm::Naive {
                4
            } else {
                // A bit per value in each class that heap sizes below
                // `count` fall in.
                4 + (*modulus).min(count).div_ceil(8)
            }
        }
    }
}

/// A computation in progress: advance it step by step (for progress
/// reports), save it to bytes, resume it, and finish it.
///
/// ```
/// use nimatron::sequence::{HeapGame, SequenceOptions, SequenceRun};
/// let game: HeapGame = "officers".parse()?;
/// let mut run = SequenceRun::new(&game, 5_000, &SequenceOptions::default())?;
/// run.advance(2_000)?;
/// let saved = run.checkpoint();
/// let mut resumed = SequenceRun::resume(&saved, &game, 5_000, &SequenceOptions::default())?;
/// resumed.advance(u64::MAX)?;
/// let mut whole = SequenceRun::new(&game, 5_000, &SequenceOptions::default())?;
/// whole.advance(u64::MAX)?;
/// let (a, b) = (resumed.finish(), whole.finish());
/// assert_eq!((a.values, a.period), (b.values, b.period));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug)]
pub struct SequenceRun {
    game: HeapGame,
    to: u64,
    options: SequenceOptions,
    /// The vector path, resolved from `options.simd`.
    path: Simd,
    values: Values,
    engine: Engine,
    method: &'static str,
    proof: ProofRule,
    /// A proven period, once found (auto only).
    found: Option<Period>,
    /// Where extension by the proven period began.
    extended_from: Option<u64>,
    /// When auto next looks for a proven period.
    next_period_check: u64,
    /// The interrupt, asked now and then by the engine's inner loops.
    watch: Watch,
}

impl SequenceRun {
    /// Plans a run for `G(0..=to)`, refusing sizes beyond the memory limit.
    pub fn new(
        game: &HeapGame,
        to: u64,
        options: &SequenceOptions,
    ) -> Result<SequenceRun, SequenceError> {
        let rule = game.rule();
        let count = to.checked_add(1);
        let per_value =
            planned_bytes_per_value(&rule, options.algorithm, count.unwrap_or(u64::MAX));
        let count = count.ok_or(SequenceError::TooLarge {
            to,
            bytes_per_value: per_value,
            needed: u64::MAX,
            limit: options.memory_limit,
        })?;
        let needed = count.saturating_mul(per_value);
        if needed > options.memory_limit || count > isize::MAX as u64 / 4 {
            return Err(SequenceError::TooLarge {
                to,
                bytes_per_value: per_value,
                needed,
                limit: options.memory_limit,
            });
        }
        if matches!(rule, Rule::Modular { .. }) && to >= u32::MAX as u64 {
            return Err(SequenceError::Unsupported {
                reason: format!(
                    "modular games have values up to n; n = {to} is beyond the 4-byte values Nimatron stores (at most {})",
                    u32::MAX - 1
                ),
            });
        }
        let path = options.simd.resolve().map_err(SequenceError::Simd)?;
        let (engine, method) = Engine::new(&rule, options.algorithm, path, count);
        let proof = proof_rule_of(&rule);
        let values = match rule {
            Rule::Modular { .. } => Values::Words(Vec::new()),
            _ => Values::Bytes(Vec::new()),
        };
        Ok(SequenceRun {
            game: game.clone(),
            to,
            options: *options,
            path,
            values,
            engine,
            method,
            proof,
            found: None,
            extended_from: None,
            next_period_check: 256,
            watch: Watch::default(),
        })
    }

    /// The game.
    pub fn game(&self) -> &HeapGame {
        &self.game
    }

    /// The largest heap size asked for.
    pub fn to(&self) -> u64 {
        self.to
    }

    /// How many values are known: `G(0..len)`.
    pub fn len(&self) -> u64 {
        self.values.len() as u64
    }

    /// Whether no value is known yet.
    pub fn is_empty(&self) -> bool {
        self.values.is_empty()
    }

    /// Whether every value up to `to` is known.
    pub fn is_complete(&self) -> bool {
        self.len() > self.to
    }

    /// The values known so far.
    pub fn values(&self) -> &Values {
        &self.values
    }

    /// The proven period found so far (auto only), if any.
    pub fn proven_period(&self) -> Option<Period> {
        self.found
    }

    /// Asks `interrupt` (None: nothing) now and then whether to stop: the
    /// inner loops ask it after a bounded amount of work (about a
    /// millisecond at most, between blocks of positions, not per value),
    /// and [`SequenceRun::advance`] then stops with
    /// [`SequenceError::Interrupted`], every value it kept final.
    ///
    /// ```
    /// use std::sync::atomic::{AtomicBool, Ordering};
    /// use nimatron::Interrupt;
    /// use nimatron::sequence::{HeapGame, SequenceError, SequenceOptions, SequenceRun};
    ///
    /// static STOP: AtomicBool = AtomicBool::new(true);
    /// let game: HeapGame = "officers".parse()?;
    /// let mut run = SequenceRun::new(&game, 100_000, &SequenceOptions::default())?;
    /// run.set_interrupt(Some(Interrupt::new(|| STOP.load(Ordering::Relaxed))));
    /// let Err(SequenceError::Interrupted { known }) = run.advance(u64::MAX) else {
    ///     panic!("not interrupted");
    /// };
    /// assert!(known < 100_000 && known == run.len());
    /// STOP.store(false, Ordering::Relaxed);
    /// assert_eq!(run.advance(u64::MAX)?, 100_001);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn set_interrupt(&mut self, interrupt: Option<Interrupt>) {
        self.watch = Watch::new(interrupt);
    }

    /// Computes values until `G(0..until)` are known (or all up to `to`),
    /// returning how many values are known.
    pub fn advance(&mut self, until: u64) -> Result<u64, SequenceError> {
        let target = until.min(self.to + 1) as usize;
        let auto = self.options.algorithm == Algorithm::Auto;
        while self.values.len() < target {
            if let Some(found) = self.found {
                self.values
                    .extend_periodically(found.period as usize, target);
                break;
            }
            let len = self.values.len() as u64;
            let stop = if auto && self.proof != ProofRule::Unavailable {
                target.min(self.next_period_check.max(len + 1) as usize)
            } else {
                target
            };
            self.extend_to(stop)?;
            if auto
                && self.proof != ProofRule::Unavailable
                && self.values.len() as u64 == self.next_period_check
            {
                self.next_period_check *= 2;
                let found = match &self.values {
                    Values::Bytes(v) => period::detect(v, self.proof),
                    Values::Shorts(v) => period::detect(v, self.proof),
                    Values::Words(v) => period::detect(v, self.proof),
                };
                if let Some(p) = found.filter(|p| p.proven) {
                    self.found = Some(p);
                    self.extended_from = Some(self.values.len() as u64);
                }
            }
        }
        Ok(self.values.len() as u64)
    }

    /// Runs the engine to `stop` values, widening storage as values grow.
    fn extend_to(&mut self, stop: usize) -> Result<(), SequenceError> {
        let threads = self.options.threads.max(1);
        // Room for every value asked for, at once (the plan in `new` keeps it
        // within the memory limit; pages are only taken as values arrive).
        // Growing by doubling instead copied the values at each power of
        // two, on one thread, while the other waited: about 40 ms at 2^23.
        self.values.reserve_total(self.to as usize + 1);
        loop {
            let watch = &mut self.watch;
            let result = match &mut self.values {
                Values::Bytes(v) => self.engine.extend(v, stop, threads, watch),
                Values::Shorts(v) => self.engine.extend(v, stop, threads, watch),
                Values::Words(v) => self.engine.extend(v, stop, threads, watch),
            };
            match result {
                Ok(()) => return Ok(()),
                Err(StepError::Overflow) => {
                    if matches!(self.values, Values::Words(_)) {
                        return Err(SequenceError::Unsupported {
                            reason: format!(
                                "a value at n = {} does not fit in 4 bytes",
                                self.values.len()
                            ),
                        });
                    }
                    let next_width = 2 * self.values.bytes_per_value() as u64;
                    let count = self.to + 1;
                    let needed = count.saturating_mul(next_width)
                        + self.values.len() as u64 * self.values.bytes_per_value() as u64;
                    if needed > self.options.memory_limit {
                        return Err(SequenceError::TooLarge {
                            to: self.to,
                            bytes_per_value: next_width,
                            needed,
                            limit: self.options.memory_limit,
                        });
                    }
                    self.values.widen(count as usize);
                    match &self.values {
                        Values::Bytes(v) => self.engine.sync(v),
                        Values::Shorts(v) => self.engine.sync(v),
                        Values::Words(v) => self.engine.sync(v),
                    }
                }
                Err(StepError::Inconsistent(at)) => {
                    return Err(SequenceError::Inconsistent { at });
                }
                Err(StepError::Interrupted) => {
                    return Err(SequenceError::Interrupted {
                        known: self.values.len() as u64,
                    });
                }
                Err(StepError::ThreeHeapTooLarge(n)) => {
                    return Err(SequenceError::Unsupported {
                        reason: format!(
                            "{}: a value of 256 or more appears near n = {n}; codes with three-heap digits (8 and above) are supported while values stay below 256",
                            self.game
                        ),
                    });
                }
            }
        }
    }

    /// Reports on the values known so far (all of them, once [`advance`]
    /// has reached `to`): the period and the summary.
    ///
    /// [`advance`]: SequenceRun::advance
    pub fn finish(self) -> GrundySequence {
        let period = match self.found {
            Some(p) => Some(p),
            None => match &self.values {
                Values::Bytes(v) => period::detect(v, self.proof),
                Values::Shorts(v) => period::detect(v, self.proof),
                Values::Words(v) => period::detect(v, self.proof),
            },
        };
        let len = self.values.len() as u64;
        let extended = self
            .extended_from
            .map_or(0, |from| len.saturating_sub(from));
        let (mask, rare_count, last_rare, counters) = match &self.engine {
            Engine::Sparse(s) => {
                let mut count = 0u64;
                let mut last = None;
                if s.mask().is_some() {
                    for (n, v) in self.values.iter().enumerate() {
                        if s.has_rare_label(n as u64, v) {
                            count += 1;
                            last = Some(n as u64);
                        }
                    }
                }
                (s.mask(), s.mask().map(|_| count), last, s.counters)
            }
            Engine::Plain(p) => {
                let counters = SparseCounters {
                    rare_pairs: p.rare_pairs,
                    search_pairs: p.search_pairs,
                    ..SparseCounters::default()
                };
                (None, None, None, counters)
            }
            _ => (None, None, None, SparseCounters::default()),
        };
        let summary = SequenceSummary {
            method: self.method,
            mask,
            rare_count,
            last_rare,
            max_value: self.values.max_value(),
            computed: len - extended,
            extended_by_period: extended,
            bytes_per_value: self.values.bytes_per_value(),
            values_to_prove: period
                .filter(|p| !p.proven)
                .and_then(|p| self.proof.values_needed(p.period, p.preperiod)),
            counters,
            simd: self.path,
        };
        GrundySequence {
            game: self.game,
            values: self.values,
            period,
            summary,
        }
    }

    /// The run's state as bytes (see [`SequenceRun::resume`]).
    pub fn checkpoint(&self) -> Vec<u8> {
        checkpoint::write(self)
    }

    /// Resumes a run saved by [`SequenceRun::checkpoint`]. The game must be
    /// the same; `to` and the options may differ (values already known past
    /// `to` are dropped). The result is identical to an uninterrupted run.
    pub fn resume(
        bytes: &[u8],
        game: &HeapGame,
        to: u64,
        options: &SequenceOptions,
    ) -> Result<SequenceRun, CheckpointError> {
        let saved = checkpoint::read(bytes)?;
        if saved.game != game.to_string() {
            return Err(CheckpointError::OtherGame {
                saved: saved.game,
                asked: game.to_string(),
            });
        }
        let mut run = SequenceRun::new(game, to, options).map_err(CheckpointError::Run)?;
        // Tables grow with the largest value, so a value no heap of its size
        // can have is refused before it is used (found by the fuzzer: one
        // of 2^30 in a modular game's checkpoint asked for 128 MiB a class).
        let rule = game.rule();
        if saved
            .values
            .iter()
            .enumerate()
            .any(|(n, v)| v as u64 > rule.max_value(n as u64))
        {
            return Err(CheckpointError::Corrupt {
                reason: "a saved value is larger than any value its heap can have",
            });
        }
        let mut values = saved.values;
        if values.len() as u64 > to + 1 {
            values.truncate(to as usize + 1);
        }
        run.values = values;
        saved.state.restore(&mut run)?;
        Ok(run)
    }

    fn sparse_schedule(&self) -> sparse::SparseSchedule {
        match &self.engine {
            Engine::Sparse(s) => s.schedule,
            _ => sparse::SparseSchedule::START,
        }
    }
}
