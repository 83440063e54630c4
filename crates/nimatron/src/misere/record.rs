//! What a heap game has learnt of its misère quotient, as plain data that a
//! front end may keep between runs (the CLI keeps it on disk; the library
//! does no I/O).
//!
//! A record is the verified working quotient of the heaps `1..=heaps` (each
//! element's side of the P-portion, a representative position of each, the
//! image of each heap and multiplication by each heap image), with where its
//! order grew and where learning last stopped. Taking one back checks that
//! it is whole and consistent: every number in range, every representative
//! evaluating to its own element, multiplication commuting, distinct
//! elements told apart, and every sum of up to three heaps of up to 12
//! (those the quotient covers) given the outcome a plain search gives. The
//! verification that made it (the local rule over every position) is not
//! run again: that is the work the record saves.

use std::collections::HashMap;
use std::fmt;
use std::time::Duration;

use crate::sequence::HeapGame;
use crate::solve::Limits;

use super::QuotientLimits;
use super::engine::is_reduced;
use super::race::Kept;
use super::search::HeapSearch;
use super::work::Work;

/// What a heap game has learnt of its misère quotient, to keep between
/// runs. Produced by [`crate::Game::misere_record`] and taken back by
/// [`crate::Game::restore_misere_record`].
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct QuotientRecord {
    /// The layout of the record (see [`QuotientRecord::FORMAT`]).
    pub format: u32,
    /// The game's spec.
    pub game: String,
    /// The quotient is verified for the heaps `1..=heaps`.
    pub heaps: u64,
    /// Whether each element (by id, 0 the identity) is in the P-portion.
    pub p: Vec<bool>,
    /// A position of each element, as its sorted heaps.
    pub representatives: Vec<Vec<u16>>,
    /// The element of each heap `0..=heaps`.
    pub images: Vec<u32>,
    /// For each heap image `x`, multiplication by `x`: `column[q]` is
    /// `q·x`.
    pub columns: Vec<(u32, Vec<u32>)>,
    /// The heaps at which the order grew, with the order after each.
    pub growth: Vec<(u64, u64)>,
    /// Where learning stopped at a hard limit: the heap it was adding and
    /// the most positions and elements it had.
    pub stopped: Option<RecordedStop>,
    /// The heap a turn of learning last ended at, and the longest turn it
    /// had there, in milliseconds.
    pub stuck: Option<(u64, u64)>,
}

/// Where a quotient's learning stopped at a hard limit.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct RecordedStop {
    /// The heap it was adding.
    pub heap: u64,
    /// The most positions it might store.
    pub max_states: u64,
    /// The most elements it might have.
    pub max_order: u64,
    /// What it said.
    pub message: String,
}

impl QuotientRecord {
    /// The layout written now; a record of another is refused.
    pub const FORMAT: u32 = 1;
}

/// Why a record was not taken back.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RecordError {
    /// The game keeps no such record (it is not a heap game with a misère
    /// quotient).
    NotApplicable,
    /// The record is of another layout.
    Format {
        /// Its layout.
        found: u32,
    },
    /// The record is of another game.
    Game {
        /// The game it is of.
        found: String,
        /// The game it was offered to.
        expected: String,
    },
    /// The record is not whole or not consistent.
    Invalid {
        /// What is wrong.
        reason: String,
    },
}

impl fmt::Display for RecordError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RecordError::NotApplicable => {
                f.write_str("this game keeps no misère quotient (only heap games do)")
            }
            RecordError::Format { found } => write!(
                f,
                "the record has layout {found}; this version of Nimatron reads layout {}",
                QuotientRecord::FORMAT
            ),
            RecordError::Game { found, expected } => {
                write!(f, "the record is of {found}, not of {expected}")
            }
            RecordError::Invalid { reason } => write!(f, "the record is not consistent: {reason}"),
        }
    }
}

impl std::error::Error for RecordError {}

fn invalid(reason: impl Into<String>) -> RecordError {
    RecordError::Invalid {
        reason: reason.into(),
    }
}

impl Kept {
    /// What is worth keeping, if anything was learnt.
    pub(crate) fn record(&self, game: &HeapGame) -> Option<QuotientRecord> {
        let (work, growth, _) = self.parts();
        if work.heaps == 0 && self.hard_stop().is_none() {
            return None;
        }
        let mut columns: Vec<(u32, Vec<u32>)> =
            work.cols.iter().map(|(&x, c)| (x, c.clone())).collect();
        columns.sort_unstable();
        Some(QuotientRecord {
            format: QuotientRecord::FORMAT,
            game: game.to_string(),
            heaps: work.heaps as u64,
            p: work.p.clone(),
            representatives: work.rep.clone(),
            images: work.image.clone(),
            columns,
            growth: growth.iter().map(|&(h, o)| (h, o as u64)).collect(),
            stopped: self.hard_stop().map(|(heap, bounds, e)| RecordedStop {
                heap,
                max_states: bounds.max_states as u64,
                max_order: bounds.max_order as u64,
                message: e,
            }),
            stuck: self.stuck().map(|(h, d)| (h, d.as_millis() as u64)),
        })
    }

    /// Takes back a record, if it reaches further than what is kept.
    pub(crate) fn restore(
        &mut self,
        game: &HeapGame,
        record: &QuotientRecord,
    ) -> Result<(), RecordError> {
        if record.format != QuotientRecord::FORMAT {
            return Err(RecordError::Format {
                found: record.format,
            });
        }
        let expected = game.to_string();
        if record.game != expected {
            return Err(RecordError::Game {
                found: record.game.clone(),
                expected,
            });
        }
        let work = check(game, record)?;
        let growth = record
            .growth
            .iter()
            .map(|&(h, o)| (h, o as usize))
            .collect();
        let stop = record.stopped.as_ref().map(|s| {
            (
                s.heap,
                QuotientLimits {
                    max_order: s.max_order as usize,
                    max_states: s.max_states as usize,
                    ..QuotientLimits::default()
                },
                s.message.clone(),
            )
        });
        let stuck = record.stuck.map(|(h, ms)| (h, Duration::from_millis(ms)));
        self.take_back(game, work, growth, stop, stuck);
        Ok(())
    }
}

/// The working quotient of a record, checked.
fn check(game: &HeapGame, r: &QuotientRecord) -> Result<Work, RecordError> {
    let order = r.p.len();
    if order == 0 || order > super::QuotientLimits::DEFAULT_MAX_ORDER.max(1 << 20) {
        return Err(invalid(format!("{order} elements")));
    }
    if r.representatives.len() != order {
        return Err(invalid("one representative per element"));
    }
    if r.heaps > super::MAX_HEAP || r.images.len() as u64 != r.heaps + 1 {
        return Err(invalid("one image per heap"));
    }
    if r.p[0] || r.images[0] != 0 || !r.representatives[0].is_empty() {
        return Err(invalid("the identity comes first, empty and outside P"));
    }
    let heaps = r.heaps as usize;
    if r.images.iter().any(|&x| x as usize >= order)
        || r.representatives
            .iter()
            .flatten()
            .any(|&h| h == 0 || h as usize > heaps)
        || r.representatives.iter().any(|w| !w.is_sorted())
    {
        return Err(invalid("an element or a heap out of range"));
    }
    let mut cols: HashMap<u32, Vec<u32>> = HashMap::new();
    for (x, column) in &r.columns {
        if *x as usize >= order
            || column.len() != order
            || column.iter().any(|&y| y as usize >= order)
            || cols.insert(*x, column.clone()).is_some()
        {
            return Err(invalid("a column out of range"));
        }
    }
    if r.images.iter().any(|x| !cols.contains_key(x))
        || cols
            .get(&0)
            .is_some_and(|c| c.iter().enumerate().any(|(q, &y)| q as u32 != y))
    {
        return Err(invalid("a heap image without its column"));
    }
    let work = Work {
        heaps,
        p: r.p.clone(),
        rep: r.representatives.clone(),
        image: r.images.clone(),
        cols,
    };
    for (q, w) in work.rep.iter().enumerate() {
        if work.eval(w) as usize != q {
            return Err(invalid(format!("the representative of element {q}")));
        }
    }
    let mut images: Vec<u32> = work.cols.keys().copied().collect();
    images.sort_unstable();
    for (i, &x) in images.iter().enumerate() {
        for &y in &images[i + 1..] {
            let (cx, cy) = (&work.cols[&x], &work.cols[&y]);
            if (0..order).any(|q| cx[cy[q] as usize] != cy[cx[q] as usize]) {
                return Err(invalid("multiplication does not commute"));
            }
        }
    }
    if !is_reduced(&work) {
        return Err(invalid("two elements are not told apart"));
    }
    // Every sum of up to three heaps of up to 12 against plain search.
    let rule = game.rule();
    let small = heaps.min(12);
    let mut search = HeapSearch::new(
        (0..=small)
            .map(|n| super::moves::options_of(&rule, n))
            .collect(),
    );
    let mut budget = Limits::states(1_000_000).budget();
    for a in 1..=small as u16 {
        for b in a..=small as u16 {
            for c in b..=small as u16 {
                for w in [vec![a], vec![a, b], vec![a, b, c]] {
                    let heaps: Vec<u64> = w.iter().map(|&h| h as u64).collect();
                    let position = search.canonical(&heaps).expect("small heaps");
                    let truth = search
                        .is_p(&position, &mut budget)
                        .map_err(|e| invalid(e.to_string()))?;
                    if work.p[work.eval(&w) as usize] != truth {
                        return Err(invalid(format!("the outcome of heaps {w:?}")));
                    }
                }
            }
        }
    }
    Ok(work)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn learnt(spec: &str, to: u64) -> (HeapGame, Kept) {
        let game: HeapGame = spec.parse().unwrap();
        let mut kept = Kept::default();
        kept.learn(&game, to, &QuotientLimits::default()).unwrap();
        (game, kept)
    }

    /// A record taken back gives the same quotient, answering as the one
    /// that made it; a record is refused when it is of another layout or
    /// game, or when any part of it is changed so that it no longer holds.
    #[test]
    fn a_record_taken_back_answers_alike_and_a_damaged_one_is_refused() {
        let (game, kept) = learnt("dawson", 20);
        let record = kept.record(&game).expect("a record");
        assert_eq!(record.heaps, 20);
        let mut back = Kept::default();
        back.restore(&game, &record).unwrap();
        assert_eq!(back.record(&game).as_ref(), Some(&record));
        let (a, b) = (kept.parts().0, back.parts().0);
        for x in 0..a.order() as u32 {
            for y in 0..a.order() as u32 {
                assert_eq!(a.mul(x, y), b.mul(x, y));
            }
        }
        // Refused, and nothing taken.
        let refused = |r: &QuotientRecord| {
            let mut fresh = Kept::default();
            let e = fresh.restore(&game, r).unwrap_err();
            assert_eq!(fresh.parts().0.heaps, 0, "{e}");
            e
        };
        let mut r = record.clone();
        r.format = 0;
        assert!(matches!(refused(&r), RecordError::Format { found: 0 }));
        let kayles: HeapGame = "kayles".parse().unwrap();
        let mut fresh = Kept::default();
        assert!(matches!(
            fresh.restore(&kayles, &record),
            Err(RecordError::Game { .. })
        ));
        // A heap's image moved to another element, a P-portion flipped, a
        // column entry changed, a truncated list, an element out of range.
        let mut r = record.clone();
        r.images[5] = (r.images[5] + 1) % r.p.len() as u32;
        refused(&r);
        let mut r = record.clone();
        let x = r.images[7] as usize;
        r.p[x] = !r.p[x];
        refused(&r);
        let mut r = record.clone();
        let last = r.columns.len() - 1;
        r.columns[last].1[1] = (r.columns[last].1[1] + 1) % r.p.len() as u32;
        refused(&r);
        let mut r = record.clone();
        r.representatives.pop();
        refused(&r);
        let mut r = record.clone();
        r.images[3] = 1 << 30;
        refused(&r);
        let mut r = record.clone();
        r.heaps = 1 << 40;
        refused(&r);
    }
}
