//! The working quotient of the heaps so far, and the budget that counts a
//! computation's work against its limits. Both the learning and
//! verification ([`super::engine`]) and the recalibration
//! ([`super::recalibrate`]) work on these.

use std::collections::HashMap;
use std::time::Instant;

use super::{QuotientError, QuotientLimits};

/// No value: a heap kind absent from a position.
pub(super) const NONE: u32 = u32::MAX;

/// A working quotient of the heaps `1..=heaps`.
#[derive(Clone, Debug)]
pub(crate) struct Work {
    /// The largest heap covered.
    pub heaps: usize,
    /// Whether each element is in the P-portion.
    pub p: Vec<bool>,
    /// A representative position of each element; element 0 is the identity.
    pub rep: Vec<Vec<u16>>,
    /// `image[h]` for heaps `1..=heaps` (`image[0]` is the identity).
    pub image: Vec<u32>,
    /// Multiplication by each heap image `x`: `cols[&x][q] = q·x`.
    pub cols: HashMap<u32, Vec<u32>>,
}

impl Work {
    /// The quotient of no heaps: the identity alone, not in P (the empty
    /// position is a misère N-position).
    pub(super) fn empty() -> Work {
        let mut cols = HashMap::new();
        cols.insert(0, vec![0]);
        Work {
            heaps: 0,
            p: vec![false],
            rep: vec![Vec::new()],
            image: vec![0],
            cols,
        }
    }

    pub fn order(&self) -> usize {
        self.p.len()
    }

    /// The image of a position of heaps `1..=heaps`, starting from `start`.
    pub fn eval_from(&self, start: u32, position: &[u16]) -> u32 {
        position.iter().fold(start, |q, &h| {
            if h == 0 {
                q
            } else {
                self.cols[&self.image[h as usize]][q as usize]
            }
        })
    }

    /// The image of a position of heaps `1..=heaps`.
    pub fn eval(&self, position: &[u16]) -> u32 {
        self.eval_from(0, position)
    }

    /// The product of two elements.
    pub fn mul(&self, x: u32, y: u32) -> u32 {
        self.eval_from(x, &self.rep[y as usize])
    }

    /// Multiplication by `x` as a column, built from `x`'s representative.
    pub(super) fn column(&self, x: u32) -> Vec<u32> {
        if let Some(c) = self.cols.get(&x) {
            return c.clone();
        }
        (0..self.order() as u32).map(|q| self.mul(q, x)).collect()
    }
}

/// Counts work against the limits and says where a run stopped.
pub(crate) struct Budget {
    /// The order of the quotient of the heaps below the one being added.
    pub(super) base_order: usize,
    pub(super) limits: QuotientLimits,
    started: Instant,
    ticks: u32,
    /// What the last few verifications that passed depended on (see
    /// the engine's `verify`): a heap that changes none of it passes at once.
    pub(super) passed: Vec<Vec<u32>>,
}

/// How many passed verifications [`Budget`] remembers.
pub(super) const PASSED_KEPT: usize = 8;

impl Budget {
    pub fn new(limits: QuotientLimits) -> Budget {
        // Stored positions are numbered in 32 bits.
        let limits = QuotientLimits {
            max_states: limits.max_states.min(u32::MAX as usize - 1),
            ..limits
        };
        Budget {
            base_order: 1,
            limits,
            started: Instant::now(),
            ticks: 0,
            passed: Vec::new(),
        }
    }

    /// Whether the work may go on; a stop names the heap being added and
    /// the order of the quotient of the smaller heaps (not a candidate's).
    pub(super) fn check(&mut self, stored: usize, heap: usize) -> Result<(), QuotientError> {
        let order = self.base_order;
        if stored >= self.limits.max_states {
            return Err(QuotientError::StateLimit {
                limit: self.limits.max_states,
                heap: heap as u64,
                order,
            });
        }
        self.ticks = self.ticks.wrapping_add(1);
        if self.ticks.is_multiple_of(256) {
            if let Some(max) = self.limits.max_time
                && self.started.elapsed() > max
            {
                return Err(QuotientError::TimeLimit {
                    millis: max.as_millis() as u64,
                    heap: heap as u64,
                    order,
                });
            }
            // The quotient of a race waits here between its turns, and
            // stops when the race is over.
            if self.limits.interrupt.is_some_and(|i| i.requested()) || !super::gate::pass() {
                return Err(QuotientError::Interrupted { heap: heap as u64 });
            }
        }
        Ok(())
    }

    pub(super) fn check_order(&self, order: usize, heap: usize) -> Result<(), QuotientError> {
        if order > self.limits.max_order {
            return Err(QuotientError::OrderLimit {
                limit: self.limits.max_order,
                heap: heap as u64,
                order,
            });
        }
        Ok(())
    }
}
