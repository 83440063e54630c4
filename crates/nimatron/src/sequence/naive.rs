//! The reference algorithm: the mex over every option of every heap size.
//! Also the pieces shared with the sparse method (marks, three-heap sets).

use super::game::TakeBreak;
use super::kernel::stamp::mark_xor_pairs;
use super::values::Cell;
use crate::solve::Interrupt;

/// Why a step stopped before reaching its target.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum StepError {
    /// The value at this position does not fit the storage width.
    Overflow,
    /// A three-heap code produced a value of 256 or more at this position;
    /// three-heap option sets are kept for values below 256 only.
    ThreeHeapTooLarge(u64),
    /// The values before this position cannot be the game's: no value is
    /// left for it (the values came from an altered checkpoint).
    Inconsistent(u64),
    /// The run's [`Interrupt`] asked to stop. Every value pushed so far is
    /// final, so the run may go on from there.
    Interrupted,
}

/// A run's [`Interrupt`], asked after about [`Watch::EVERY`] units of work
/// (a pair, an option or a value looked at) since it was last asked: often
/// enough that a stop comes within milliseconds, rarely enough that asking
/// costs nothing measurable. Without an interrupt it does nothing.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Watch {
    interrupt: Option<Interrupt>,
    work: u64,
}

impl Watch {
    /// Units of work between questions: 2^16 pairs take from about 20 µs
    /// (vector stamping) to 200 µs (a scalar mex over pairs).
    pub const EVERY: u64 = 1 << 16;

    pub const fn new(interrupt: Option<Interrupt>) -> Watch {
        Watch { interrupt, work: 0 }
    }

    /// Counts `units` of work done, and asks the interrupt once
    /// [`Watch::EVERY`] have been done since it was last asked.
    #[inline]
    pub fn spend(&mut self, units: u64) -> Result<(), StepError> {
        if let Some(interrupt) = self.interrupt {
            self.work += units;
            if self.work >= Watch::EVERY {
                self.work = 0;
                if interrupt.requested() {
                    return Err(StepError::Interrupted);
                }
            }
        }
        Ok(())
    }
}

/// A set of small values that is cleared in O(1): each slot holds the
/// epoch in which it was last marked.
#[derive(Clone, Debug)]
pub(crate) struct Marks {
    stamp: Vec<u32>,
    epoch: u32,
}

impl Marks {
    pub fn new() -> Marks {
        Marks {
            stamp: vec![0; 512],
            epoch: 0,
        }
    }

    /// Makes room for option values XORed from values up to `max_value`,
    /// and for their mex: twice the next power of two above `max_value`.
    pub fn ensure(&mut self, max_value: u32) {
        let need = ((max_value as usize + 1).next_power_of_two() * 2).max(512);
        if self.stamp.len() < need {
            self.stamp.resize(need, 0);
        }
    }

    /// Makes room for at least `size` slots (a power of two).
    pub fn grow_to(&mut self, size: usize) {
        if self.stamp.len() < size {
            self.stamp.resize(size, 0);
        }
    }

    /// The number of slots (a power of two).
    #[inline]
    pub fn size(&self) -> usize {
        self.stamp.len()
    }

    /// Starts a new, empty set.
    #[inline]
    pub fn begin(&mut self) {
        self.epoch = self.epoch.wrapping_add(1);
        if self.epoch == 0 {
            self.stamp.fill(0);
            self.epoch = 1;
        }
    }

    #[inline(always)]
    pub fn mark(&mut self, v: u32) {
        let i = v as usize & (self.stamp.len() - 1);
        self.stamp[i] = self.epoch;
    }

    #[inline(always)]
    pub fn has(&self, v: u32) -> bool {
        self.stamp[v as usize] == self.epoch
    }

    /// Marks `G(a) ^ G(m - a)` for every `a` in `from..=to` (`1 <= from`,
    /// `to < m`, `m - from < g.len()` unless the range is empty). The
    /// slices and the masked index leave no bounds check in the loop: two
    /// to four times faster than [`Marks::mark`] pair by pair (0.06 to
    /// 10^5 on one thread: 6.1 s before, 1.5 to 2.5 s after).
    pub fn mark_pairs<T: Cell>(&mut self, g: &[T], m: usize, from: usize, to: usize) {
        if from > to {
            return;
        }
        let low = &g[from..=to];
        let high = &g[m - to..=m - from];
        let mask = self.stamp.len() - 1;
        mark_xor_pairs(&mut self.stamp, mask, low, high, self.epoch);
    }

    /// The least value marked in neither set (`other` at least as large).
    pub fn mex_of_union(&self, other: &Marks) -> u32 {
        self.stamp
            .iter()
            .zip(&other.stamp)
            .position(|(&s, &t)| s != self.epoch && t != other.epoch)
            .expect("marks are sized to hold the mex") as u32
    }

    /// The least unmarked value.
    pub fn mex(&self) -> u32 {
        self.stamp
            .iter()
            .position(|&s| s != self.epoch)
            .expect("marks are sized to hold the mex") as u32
    }
}

/// A set of values below 256 as four words.
pub(crate) type Set256 = [u64; 4];

/// `{ x ^ g : x in set }` for `g < 256`.
pub(crate) fn xor_translate(set: &Set256, g: u32) -> Set256 {
    const LOW_HALVES: [u64; 6] = [
        0x5555_5555_5555_5555,
        0x3333_3333_3333_3333,
        0x0F0F_0F0F_0F0F_0F0F,
        0x00FF_00FF_00FF_00FF,
        0x0000_FFFF_0000_FFFF,
        0x0000_0000_FFFF_FFFF,
    ];
    let mut out = [0u64; 4];
    let word_xor = (g >> 6) as usize & 3;
    for (i, &w) in set.iter().enumerate() {
        let mut w = w;
        for (j, &low) in LOW_HALVES.iter().enumerate() {
            if g & (1 << j) != 0 {
                let s = 1 << j;
                w = ((w & low) << s) | ((w >> s) & low);
            }
        }
        out[i ^ word_xor] = w;
    }
    out
}

/// Option sets for three-heap moves: `pairs[j]` is the set of
/// `G(b) ^ G(c)` over `b + c = j`, `b, c >= 1`, and `triples[m]` the set of
/// `G(a) ^ G(b) ^ G(c)` over `a + b + c = m`, `a, b, c >= 1` (32 bytes each
/// per heap size). Both depend only on `G(1..m)`, so each is computed once:
/// a code with many three-heap digits then costs one lookup per digit and
/// value, not a pass over every `a`.
#[derive(Clone, Debug, Default)]
pub(crate) struct ThreeHeap {
    pairs: Vec<Set256>,
    triples: Vec<Set256>,
}

impl ThreeHeap {
    /// Bytes used per heap size.
    pub const BYTES_PER_VALUE: u64 = 64;

    /// Computes pair and triple sets for every `j < g.len() + 1` (each
    /// needs `G(1..j)`).
    fn extend<T: Cell>(&mut self, g: &[T]) {
        while self.pairs.len() <= g.len() {
            let j = self.pairs.len();
            let mut set = [0u64; 4];
            for b in 1..j / 2 + 1 {
                let c = j - b;
                let x = (g[b].get() ^ g[c].get()) as usize;
                set[x >> 6] |= 1 << (x & 63);
            }
            self.pairs.push(set);
        }
        while self.triples.len() <= g.len() {
            let m = self.triples.len();
            let mut set = [0u64; 4];
            for (a, ga) in g.iter().enumerate().take(m.saturating_sub(1)).skip(1) {
                let t = xor_translate(&self.pairs[m - a], ga.get());
                for (x, y) in set.iter_mut().zip(t) {
                    *x |= y;
                }
            }
            self.triples.push(set);
        }
    }

    /// Adds to `set` every value `G(a) ^ G(b) ^ G(c)` with `a + b + c = m`.
    fn add_all<T: Cell>(&mut self, g: &[T], m: usize, set: &mut Set256) {
        self.extend(g);
        for (x, y) in set.iter_mut().zip(self.triples[m]) {
            *x |= y;
        }
    }

    pub fn truncate(&mut self, len: usize) {
        self.pairs.truncate(len);
        self.triples.truncate(len);
    }
}

/// Marks the options that leave at most one heap, and all three-heap
/// options, of a heap of size `n`.
#[inline]
pub(crate) fn mark_simple_options<T: Cell>(
    rule: &TakeBreak,
    g: &[T],
    n: usize,
    marks: &mut Marks,
    three: &mut ThreeHeap,
) -> Result<(), StepError> {
    let n64 = n as u64;
    for &k in &rule.take_all {
        if n64 == k {
            marks.mark(0);
        }
    }
    for &k in &rule.leave_one {
        if n64 > k {
            marks.mark(g[n - k as usize].get());
        }
    }
    if !rule.split_three.is_empty() {
        if marks.size() > 512 {
            return Err(StepError::ThreeHeapTooLarge(n64));
        }
        // The union over every three-heap digit first, then one pass of
        // marks: a code with many such digits would otherwise mark the
        // same values once per digit.
        let mut set = [0u64; 4];
        for &k in &rule.split_three {
            if n64 >= k + 3 {
                three.add_all(g, n - k as usize, &mut set);
            }
        }
        mark_set(&set, marks);
    }
    Ok(())
}

/// Marks every value in `set`.
fn mark_set(set: &Set256, marks: &mut Marks) {
    for (i, &w) in set.iter().enumerate() {
        let mut w = w;
        while w != 0 {
            let bit = w.trailing_zeros();
            marks.mark(i as u32 * 64 + bit);
            w &= w - 1;
        }
    }
}

/// The naive method for take-and-break games.
#[derive(Clone, Debug)]
pub(crate) struct NaiveTakeBreak {
    pub rule: TakeBreak,
    marks: Marks,
    three: ThreeHeap,
    max_value: u32,
}

impl NaiveTakeBreak {
    pub fn new(rule: TakeBreak) -> NaiveTakeBreak {
        NaiveTakeBreak {
            rule,
            marks: Marks::new(),
            three: ThreeHeap::default(),
            max_value: 0,
        }
    }

    /// Prepares for continuing after `g` (e.g. after a resume).
    pub fn sync<T: Cell>(&mut self, g: &[T]) {
        self.max_value = g.iter().map(|x| x.get()).max().unwrap_or(0);
        self.marks.ensure(self.max_value);
        self.three.truncate(0);
    }

    /// Computes values until `g.len() == until`.
    pub fn extend<T: Cell>(
        &mut self,
        g: &mut Vec<T>,
        until: usize,
        watch: &mut Watch,
    ) -> Result<(), StepError> {
        while g.len() < until {
            let n = g.len();
            // Options: the takes, and about n / 2 splits per split digit
            // (three-heap sets cost about n more).
            let splits = self.rule.split_two.len() + self.rule.split_three.len();
            watch.spend(
                1 + (self.rule.take_all.len() + self.rule.leave_one.len()) as u64
                    + (splits * n / 2) as u64,
            )?;
            self.marks.begin();
            mark_simple_options(&self.rule, g, n, &mut self.marks, &mut self.three)?;
            for &k in &self.rule.split_two {
                let k = k as usize;
                if n >= k + 2 {
                    let m = n - k;
                    for a in 1..=m / 2 {
                        if self.rule.unequal && 2 * a == m {
                            continue;
                        }
                        self.marks.mark(g[a].get() ^ g[m - a].get());
                    }
                }
            }
            push_mex(g, &mut self.marks, &mut self.max_value)?;
        }
        Ok(())
    }
}

/// Subtract-a-square: the mex over `G(n - k^2)`.
#[derive(Clone, Debug)]
pub(crate) struct Squares {
    marks: Marks,
    max_value: u32,
}

impl Squares {
    pub fn new() -> Squares {
        Squares {
            marks: Marks::new(),
            max_value: 0,
        }
    }

    pub fn sync<T: Cell>(&mut self, g: &[T]) {
        self.max_value = g.iter().map(|x| x.get()).max().unwrap_or(0);
        self.marks.ensure(self.max_value);
    }

    pub fn extend<T: Cell>(
        &mut self,
        g: &mut Vec<T>,
        until: usize,
        watch: &mut Watch,
    ) -> Result<(), StepError> {
        while g.len() < until {
            let n = g.len();
            watch.spend(1 + n.isqrt() as u64)?;
            self.marks.begin();
            let mut k = 1usize;
            while k * k <= n {
                self.marks.mark(g[n - k * k].get());
                k += 1;
            }
            push_mex(g, &mut self.marks, &mut self.max_value)?;
        }
        Ok(())
    }
}

/// Append the mex of the marked values to `g`, widening the marks when a
/// new largest value appears; the common tail of the naive steppers.
fn push_mex<T: Cell>(
    g: &mut Vec<T>,
    marks: &mut Marks,
    max_value: &mut u32,
) -> Result<(), StepError> {
    let value = marks.mex();
    push_value(g, marks, max_value, value)
}

/// Append `value` to `g` (an overflow if the cell cannot hold it),
/// widening the marks when it is a new largest value.
#[inline]
pub(super) fn push_value<T: Cell>(
    g: &mut Vec<T>,
    marks: &mut Marks,
    max_value: &mut u32,
    value: u32,
) -> Result<(), StepError> {
    if value > T::MAX {
        return Err(StepError::Overflow);
    }
    g.push(T::new(value));
    if value > *max_value {
        *max_value = value;
        marks.ensure(value);
    }
    Ok(())
}

/// Modular games, naively: the mex over every `m < n` with
/// `(n - m) mod M` in `R`.
#[derive(Clone, Debug)]
pub(crate) struct ModularNaive {
    modulus: u64,
    allowed: Vec<bool>,
    marks: Marks,
    max_value: u32,
}

impl ModularNaive {
    /// For heap sizes below `count`: a take `t < count` has `t mod M < count`,
    /// so only the residues below `min(M, count)` are kept.
    pub fn new(modulus: u64, residues: &[u64], count: u64) -> ModularNaive {
        let mut allowed = vec![false; modulus.min(count) as usize];
        for &r in residues {
            if let Some(slot) = allowed.get_mut(r as usize) {
                *slot = true;
            }
        }
        ModularNaive {
            modulus,
            allowed,
            marks: Marks::new(),
            max_value: 0,
        }
    }

    pub fn sync<T: Cell>(&mut self, g: &[T]) {
        self.max_value = g.iter().map(|x| x.get()).max().unwrap_or(0);
        self.marks.ensure(self.max_value);
    }

    pub fn extend<T: Cell>(
        &mut self,
        g: &mut Vec<T>,
        until: usize,
        watch: &mut Watch,
    ) -> Result<(), StepError> {
        while g.len() < until {
            let n = g.len();
            watch.spend(1 + n as u64)?;
            self.marks.begin();
            for t in 1..=n {
                if self
                    .allowed
                    .get((t as u64 % self.modulus) as usize)
                    .is_some_and(|&a| a)
                {
                    self.marks.mark(g[n - t].get());
                }
            }
            push_mex(g, &mut self.marks, &mut self.max_value)?;
        }
        Ok(())
    }
}

/// Modular games, fast: the options of `n` are all earlier positions in
/// certain residue classes, so each class of `n mod M` keeps the growing set
/// of values it can reach and a mex pointer that only moves up. Amortised
/// O(|R|) per value; `M` bits of set per value of memory.
#[derive(Clone, Debug)]
pub(crate) struct ModularClasses {
    modulus: u64,
    residues: Vec<u64>,
    /// `reach[rho]`: values of every position `m` with `m mod M` in
    /// `{(rho - r) mod M : r in R}`, as a growable bit set.
    reach: Vec<Vec<u64>>,
    /// `mex[rho]`: the mex of `reach[rho]`.
    mex: Vec<u64>,
    synced: usize,
}

impl ModularClasses {
    /// For heap sizes below `count`: only the classes of those sizes are
    /// ever asked for, `min(M, count)` of them, so only those are kept
    /// (a modulus far above the sizes costs nothing).
    pub fn new(modulus: u64, residues: &[u64], count: u64) -> ModularClasses {
        let classes = modulus.min(count) as usize;
        ModularClasses {
            modulus,
            residues: residues.to_vec(),
            reach: vec![Vec::new(); classes],
            mex: vec![0; classes],
            synced: 0,
        }
    }

    fn insert(&mut self, position: usize, value: u32) {
        let c = position as u64 % self.modulus;
        for &r in &self.residues {
            let rho = ((c + r) % self.modulus) as usize;
            let Some(set) = self.reach.get_mut(rho) else {
                continue;
            };
            let word = value as usize / 64;
            if set.len() <= word {
                set.resize(word + 1, 0);
            }
            set[word] |= 1 << (value % 64);
            let mut m = self.mex[rho];
            while (m as usize / 64) < set.len() && set[m as usize / 64] & (1 << (m % 64)) != 0 {
                m += 1;
            }
            self.mex[rho] = m;
        }
    }

    pub fn sync<T: Cell>(&mut self, g: &[T]) {
        if self.synced > g.len() {
            *self = ModularClasses::new(self.modulus, &self.residues, self.reach.len() as u64);
        }
        for (n, value) in g.iter().enumerate().skip(self.synced) {
            self.insert(n, value.get());
        }
        self.synced = g.len();
    }

    pub fn extend<T: Cell>(
        &mut self,
        g: &mut Vec<T>,
        until: usize,
        watch: &mut Watch,
    ) -> Result<(), StepError> {
        self.sync(g);
        while g.len() < until {
            let n = g.len();
            watch.spend(1 + self.residues.len() as u64)?;
            let value = self.mex[(n as u64 % self.modulus) as usize];
            if value > T::MAX as u64 {
                return Err(StepError::Overflow);
            }
            g.push(T::new(value as u32));
            self.insert(n, value as u32);
            self.synced = g.len();
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn xor_translate_moves_every_bit() {
        for g in [0u32, 1, 5, 63, 64, 130, 255] {
            for x in [0u32, 1, 7, 64, 200, 255] {
                let mut set = [0u64; 4];
                set[(x >> 6) as usize] |= 1 << (x & 63);
                let t = xor_translate(&set, g);
                let y = x ^ g;
                let mut expect = [0u64; 4];
                expect[(y >> 6) as usize] |= 1 << (y & 63);
                assert_eq!(t, expect, "x={x} g={g}");
            }
        }
    }

    #[test]
    fn marks_mex() {
        let mut m = Marks::new();
        m.begin();
        for v in [0, 1, 2, 4] {
            m.mark(v);
        }
        assert_eq!(m.mex(), 3);
        m.begin();
        assert_eq!(m.mex(), 0);
    }
}
