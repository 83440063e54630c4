//! Misère outcomes of sums of heaps by plain search, built for speed and
//! for being paused.
//!
//! The search is the textbook one: a position is a misère P-position when
//! it has a move and every move leaves an N-position. What makes it quick
//! is the representation. A position is a sorted list of 16-bit heap sizes,
//! stored once in a flat set ([`FlatSet`], shared with the quotient's
//! engine) with one bit for its outcome; heaps without moves (a heap of 1
//! in Dawson's Kayles) are the zero game and are dropped; and the options of
//! each heap size are listed once. The generic [`crate::solve::OutcomeSearch`]
//! keeps each position as a `Vec<u64>` in a `HashMap` and lists every
//! move of a position as a new vector: misère Dawson's Kayles `6 12 38`
//! took it 3 s for 124 431 positions, some 24 µs each.
//!
//! Where a verified misère quotient of the heaps `1..=k` is at hand, every
//! position whose heaps are all at most `k` is answered by it (the product
//! of its heaps' images, tested against the P-portion), so the search
//! explores only positions with a larger heap.
//!
//! The search keeps its stack between calls: a call that stops at its
//! budget can be made again for the same position with a fresh budget and
//! goes on where it stopped. That is what lets the misère race
//! ([`super::race`]) give it time in slices.

use crate::solve::{Budget, SolveError};

use super::flat_set::FlatSet;
use super::work::Work;

/// The misère quotient of the heaps `1..=heaps`, for looking up positions
/// made of them alone.
struct Base {
    heaps: usize,
    p: Vec<bool>,
    /// `column[h]`: the index in `columns` of heap `h`'s multiplication.
    column: Vec<u32>,
    columns: Vec<Vec<u32>>,
}

impl Base {
    fn new(work: &Work) -> Base {
        let mut images: Vec<u32> = Vec::new();
        let mut column = vec![0u32; work.heaps + 1];
        let mut columns = Vec::new();
        for (h, &x) in work.image.iter().enumerate().take(work.heaps + 1).skip(1) {
            let at = match images.iter().position(|&y| y == x) {
                Some(at) => at,
                None => {
                    images.push(x);
                    columns.push(work.cols[&x].clone());
                    images.len() - 1
                }
            };
            column[h] = at as u32;
        }
        Base {
            heaps: work.heaps,
            p: work.p.clone(),
            column,
            columns,
        }
    }

    /// Whether a position of heaps `1..=heaps` is a misère P-position.
    fn is_p(&self, position: &[u16]) -> bool {
        let q = position.iter().fold(0u32, |q, &h| {
            self.columns[self.column[h as usize] as usize][q as usize]
        });
        self.p[q as usize]
    }
}

/// One position being searched: the next option to try is option `j` of
/// the heap at index `i`.
struct Frame {
    position: Vec<u16>,
    i: usize,
    j: usize,
}

/// A paused-and-resumed misère search over sums of heaps.
pub(crate) struct HeapSearch {
    /// `options[n]`: the positions one move from a heap of `n` leaves,
    /// without the heaps that have no move.
    options: Vec<Vec<Vec<u16>>>,
    /// Heaps with no move.
    dead: Vec<bool>,
    base: Option<Base>,
    memo: FlatSet<u16>,
    memo_p: Vec<bool>,
    /// The search in progress: the position it is for, and its stack.
    root: Vec<u16>,
    stack: Vec<Frame>,
    /// A spare buffer for building options.
    next: Vec<u16>,
}

impl HeapSearch {
    /// A search of the heap game whose heap `n` has the options
    /// `options[n]` (each a sorted list of the heaps a move leaves, as the
    /// quotient's engine lists them), for heaps up to `options.len() - 1`.
    pub(crate) fn new(options: Vec<Vec<Vec<u16>>>) -> HeapSearch {
        let mut search = HeapSearch {
            options: Vec::with_capacity(options.len()),
            dead: Vec::with_capacity(options.len()),
            base: None,
            memo: FlatSet::new(),
            memo_p: Vec::new(),
            root: Vec::new(),
            stack: Vec::new(),
            next: Vec::new(),
        };
        search.add_heaps(options);
        search
    }

    /// Learn the options of more heaps: `more[k]` are those of heap
    /// `max_heap() + 1 + k`. (What is stored stays true.)
    pub(crate) fn add_heaps(&mut self, more: Vec<Vec<Vec<u16>>>) {
        for list in more {
            self.dead.push(list.is_empty());
            let dead = &self.dead;
            let mut list: Vec<Vec<u16>> = list
                .into_iter()
                .map(|o| o.into_iter().filter(|&h| !dead[h as usize]).collect())
                .collect();
            list.sort_unstable();
            list.dedup();
            self.options.push(list);
        }
    }

    /// The largest heap the search knows the moves of.
    pub(crate) fn max_heap(&self) -> usize {
        self.options.len() - 1
    }

    /// Use a verified quotient for the positions of its heaps. (Each answer
    /// kept so far stays true: both are exact.)
    pub(crate) fn set_base(&mut self, work: &Work) {
        if self.base.as_ref().is_none_or(|b| b.heaps < work.heaps) {
            self.base = Some(Base::new(work));
        }
    }

    /// The heaps the quotient in use covers (`1..=covered()`).
    #[cfg(test)]
    pub(crate) fn covered(&self) -> usize {
        self.base.as_ref().map_or(0, |b| b.heaps)
    }

    /// Positions stored.
    pub(crate) fn states(&self) -> usize {
        self.memo.len()
    }

    /// A position as the search keeps it: sorted, without dead heaps.
    pub(crate) fn canonical(&self, heaps: &[u64]) -> Option<Vec<u16>> {
        let mut v = Vec::with_capacity(heaps.len());
        for &h in heaps {
            if h as usize > self.max_heap() {
                return None;
            }
            if !self.dead[h as usize] {
                v.push(h as u16);
            }
        }
        v.sort_unstable();
        Some(v)
    }

    /// The answer for `position` if it is known without search.
    fn known(&self, position: &[u16]) -> Option<bool> {
        let Some(&largest) = position.last() else {
            // No move: the player to move has won (misère).
            return Some(false);
        };
        if let Some(base) = &self.base
            && largest as usize <= base.heaps
        {
            return Some(base.is_p(position));
        }
        self.memo.find(position).map(|id| self.memo_p[id])
    }

    /// Whether `position` (see [`canonical`](Self::canonical)) is a misère
    /// P-position. A stop at the budget keeps the work done: asking again
    /// for the same position goes on from there.
    pub(crate) fn is_p(
        &mut self,
        position: &[u16],
        budget: &mut Budget,
    ) -> Result<bool, SolveError> {
        if let Some(p) = self.known(position) {
            return Ok(p);
        }
        if self.root != position || self.stack.is_empty() {
            self.root = position.to_vec();
            self.stack.clear();
            budget.check(self.memo.len() + 1)?;
            self.stack.push(Frame {
                position: position.to_vec(),
                i: 0,
                j: 0,
            });
        }
        // The result of the frame just finished, to hand to its parent.
        let mut finished: Option<bool> = None;
        loop {
            if let Some(p) = finished.take() {
                let frame = self.stack.pop().expect("a frame finished");
                if self.memo.insert(&frame.position) {
                    self.memo_p.push(p);
                }
                let Some(parent) = self.stack.last_mut() else {
                    return Ok(p);
                };
                if p {
                    // A move to a P-position: the parent wins.
                    finished = Some(false);
                } else {
                    parent.j += 1;
                }
                continue;
            }
            let top = self.stack.last_mut().expect("a frame in progress");
            // The next option: heap i (the first of equal heaps), option j.
            let position = &top.position;
            while top.i < position.len()
                && (top.j >= self.options[position[top.i] as usize].len()
                    || (top.i > 0 && position[top.i] == position[top.i - 1]))
            {
                top.i += 1;
                top.j = 0;
            }
            if top.i == position.len() {
                // Every move leaves an N-position (every live heap has one).
                finished = Some(true);
                continue;
            }
            let heap = position[top.i] as usize;
            let parts = &self.options[heap][top.j];
            self.next.clear();
            self.next.extend_from_slice(&position[..top.i]);
            self.next.extend_from_slice(&position[top.i + 1..]);
            for &part in parts {
                let at = self.next.partition_point(|&x| x <= part);
                self.next.insert(at, part);
            }
            match self.known(&self.next) {
                Some(true) => finished = Some(false),
                Some(false) => {
                    self.stack.last_mut().expect("top").j += 1;
                }
                None => {
                    // Checked before anything changes, so that a stop here
                    // can be resumed at this very option.
                    budget.check(self.memo.len() + self.stack.len() + 1)?;
                    let position = self.next.clone();
                    self.stack.push(Frame {
                        position,
                        i: 0,
                        j: 0,
                    });
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::misere::moves::heap_options;
    use crate::misere::tests::{Plain, sums};
    use crate::misere::{QuotientLimits, quotient};
    use crate::sequence::HeapGame;
    use crate::solve::Limits;

    fn search_for(code: &str, max: usize) -> HeapSearch {
        let game: HeapGame = format!("octal:{code}").parse().unwrap();
        HeapSearch::new(heap_options(&game, max))
    }

    /// Every sum of up to four heaps of up to 12, for Kayles, Dawson's
    /// Kayles, 0.137, 0.75 and Officers, against the plain minimax of the
    /// quotient's tests: with no quotient, and with the quotient of the
    /// heaps up to 6 answering the positions of those heaps.
    #[test]
    fn the_search_agrees_with_the_plain_minimax() {
        for code in ["0.77", "0.07", "0.137", "0.75", "0.6"] {
            let mut plain = Plain::new(code);
            let game: HeapGame = format!("octal:{code}").parse().unwrap();
            let q = quotient(&game, 6, &QuotientLimits::default()).unwrap();
            for with_base in [false, true] {
                let mut search = search_for(code, 12);
                if with_base {
                    search.set_base(&q.monoid.work);
                    assert_eq!(search.covered(), 6);
                }
                let mut budget = Limits::default().budget();
                for s in sums(12, 4) {
                    let heaps: Vec<u64> = s.iter().map(|&h| h as u64).collect();
                    let position = search.canonical(&heaps).unwrap();
                    let got = search.is_p(&position, &mut budget).unwrap();
                    assert_eq!(got, plain.is_p(&s), "{code} {s:?} (base {with_base})");
                }
            }
        }
    }

    /// A search stopped at its budget again and again goes on where it
    /// stopped, and ends with the right answer.
    #[test]
    fn a_search_stopped_at_its_budget_goes_on_where_it_stopped() {
        let mut plain = Plain::new("0.07");
        for position in [vec![9u16, 11, 14], vec![5, 8, 10, 12], vec![20, 21]] {
            let mut search = search_for("0.07", 21);
            let heaps: Vec<u64> = position.iter().map(|&h| h as u64).collect();
            let canonical = search.canonical(&heaps).unwrap();
            let mut stops = 0;
            let mut allowed = 50;
            let answer = loop {
                let mut budget = Limits::states(allowed).budget();
                match search.is_p(&canonical, &mut budget) {
                    Ok(p) => break p,
                    Err(SolveError::StateLimit { .. }) => {
                        stops += 1;
                        allowed += 50;
                    }
                    Err(e) => panic!("{e}"),
                }
            };
            assert!(stops > 3, "{position:?}: {stops} stops");
            assert_eq!(answer, plain.is_p(&position), "{position:?}");
            // Nothing was searched twice: a fresh search stores as many.
            let mut fresh = search_for("0.07", 21);
            let mut budget = Limits::default().budget();
            fresh.is_p(&canonical, &mut budget).unwrap();
            assert_eq!(fresh.states(), search.states(), "{position:?}");
        }
    }
}
