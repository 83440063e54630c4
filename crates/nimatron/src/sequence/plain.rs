//! The plain rare/common method, kept as a baseline for the sparse method's
//! benchmarks and as a second exact method for tests: `--algorithm plain`.
//!
//! It is the method as Berlekamp, Conway and Guy describe it (Winning Ways,
//! chapter 4), with one mask and nothing else. At every power of two from
//! 64 on, a Walsh–Hadamard transform of the value histogram picks the mask
//! `m` under which most values have odd parity of `v & m`; values of even
//! parity are *rare*, and so are the positions holding them. For a heap of
//! size `n`:
//!
//! 1. the options that leave at most one heap, and every split with a rare
//!    part, are marked; the common value `c` is the least unmarked value of
//!    odd parity (two common parts XOR to an even value, so no other split
//!    gives an odd one);
//! 2. if some rare value below `c` is still unmarked, the splits are
//!    scanned from the smallest heap up (every split digit at each heap
//!    size), marking, until none is left; `G(n)` is then the least unmarked
//!    value (`c`, or a new rare value).
//!
//! Single thread, scalar loops, no blocks: what a careful researcher writes
//! in a page, and what [`super::sparse`] must beat on every game.

use super::game::TakeBreak;
use super::naive::{Marks, StepError, ThreeHeap, Watch, mark_simple_options, push_value};
use super::values::Cell;

/// State of the plain method.
#[derive(Clone, Debug)]
pub(crate) struct Plain {
    rule: TakeBreak,
    /// 0 until the first mask is chosen (plain mex meanwhile).
    mask: u32,
    rare: Vec<usize>,
    next_eval: usize,
    marks: Marks,
    three: ThreeHeap,
    max_value: u32,
    /// Pairs marked through the rare list, and by the scan.
    pub rare_pairs: u64,
    pub search_pairs: u64,
}

impl Plain {
    pub fn new(rule: TakeBreak) -> Plain {
        Plain {
            rule,
            mask: 0,
            rare: Vec::new(),
            next_eval: 64,
            marks: Marks::new(),
            three: ThreeHeap::default(),
            max_value: 0,
            rare_pairs: 0,
            search_pairs: 0,
        }
    }

    /// Prepares for continuing after `g` (e.g. after a resume).
    pub fn sync<T: Cell>(&mut self, g: &[T]) {
        self.max_value = g.iter().map(|x| x.get()).max().unwrap_or(0);
        self.marks.ensure(self.max_value);
        self.three.truncate(0);
        self.next_eval = 64;
        while self.next_eval <= g.len() {
            self.next_eval *= 2;
        }
        if g.len() >= 64 {
            self.choose_mask(g);
        }
    }

    /// The mask whose odd class holds the most values; the rare list.
    fn choose_mask<T: Cell>(&mut self, g: &[T]) {
        let size = (self.max_value as usize + 1).next_power_of_two().max(2);
        let mut w = vec![0i64; size];
        for x in g {
            w[x.get() as usize] += 1;
        }
        super::sparse::walsh_hadamard(&mut w);
        // w[m] = (even) - (odd): the least is the best mask.
        let best = (1..size).min_by_key(|&m| w[m]).unwrap_or(1);
        self.mask = best as u32;
        self.rare = (0..g.len()).filter(|&n| self.is_rare(g[n].get())).collect();
    }

    #[inline]
    fn is_rare(&self, v: u32) -> bool {
        (v & self.mask).count_ones().is_multiple_of(2)
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
            if n == self.next_eval {
                self.next_eval *= 2;
                self.choose_mask(g);
            }
            // The pairs this position visits: every split without a mask,
            // the rare positions (and a short search) with one.
            watch.spend(if self.mask == 0 {
                (self.rule.split_two.len() * n / 2) as u64
            } else {
                self.rare.len() as u64 + 1
            })?;
            self.marks.begin();
            mark_simple_options(&self.rule, g, n, &mut self.marks, &mut self.three)?;
            let value = if self.mask == 0 {
                self.mark_every_split(g, n);
                self.marks.mex()
            } else {
                self.rare_common(g, n)
            };
            push_value(g, &mut self.marks, &mut self.max_value, value)?;
            if self.mask != 0 && self.is_rare(value) {
                self.rare.push(n);
            }
        }
        Ok(())
    }

    /// The splits `(a, m - a)` of every split digit, with `m = n - k`.
    fn splits(&self, n: usize) -> impl Iterator<Item = usize> + '_ {
        self.rule
            .split_two
            .iter()
            .map(move |&k| k as usize)
            .filter(move |&k| n >= k + 2)
            .map(move |k| n - k)
    }

    fn mark_every_split<T: Cell>(&mut self, g: &[T], n: usize) {
        for m in self.splits(n).collect::<Vec<_>>() {
            for a in 1..=m / 2 {
                if !(self.rule.unequal && 2 * a == m) {
                    self.marks.mark(g[a].get() ^ g[m - a].get());
                }
            }
        }
    }

    fn rare_common<T: Cell>(&mut self, g: &[T], n: usize) -> u32 {
        let sizes: Vec<usize> = self.splits(n).collect();
        for &m in &sizes {
            for &r in &self.rare {
                if r == 0 || r >= m || (self.rule.unequal && 2 * r == m) {
                    continue;
                }
                self.marks.mark(g[r].get() ^ g[m - r].get());
                self.rare_pairs += 1;
            }
        }
        let common = (0..)
            .find(|&v| !self.is_rare(v) && !self.marks.has(v))
            .expect("the marks hold values of both classes");
        let mut left = (0..common)
            .filter(|&v| self.is_rare(v) && !self.marks.has(v))
            .count();
        // Every split digit at each smaller heap `a` in turn.
        let top = sizes.iter().map(|&m| m / 2).max().unwrap_or(0);
        'scan: for a in 1..=top {
            for &m in &sizes {
                if left == 0 {
                    break 'scan;
                }
                if a > m / 2 || (self.rule.unequal && 2 * a == m) {
                    continue;
                }
                self.search_pairs += 1;
                let x = g[a].get() ^ g[m - a].get();
                if x < common && !self.marks.has(x) {
                    self.marks.mark(x);
                    if self.is_rare(x) {
                        left -= 1;
                    }
                }
            }
        }
        if left == 0 { common } else { self.marks.mex() }
    }
}
