//! Checkpoints: a run's state as bytes, to resume after an interruption.
//!
//! Layout (all integers little-endian):
//!
//! | bytes | content                                                    |
//! |-------|------------------------------------------------------------|
//! | 8     | magic `NIMGRCK1`                                           |
//! | 4     | game spec length `L`                                       |
//! | L     | game spec, UTF-8 (as `HeapGame` prints it)                 |
//! | 1     | bytes per value `w` (1, 2 or 4)                            |
//! | 8     | number of values `V`                                       |
//! | 4+1+8+8+8 | sparse mask, position-parity flag, next evaluation, rare count at the last evaluation, earliest early evaluation |
//! | 8     | next period check                                          |
//! | 1+8+8+8 | proven period found (flag, period, preperiod, extension start) |
//! | V·w   | the values                                                 |
//! | 8     | FNV-1a 64 checksum of everything before                    |
//!
//! Everything else the algorithms keep (the rare list, tables) is rebuilt
//! from the values on resume.

use std::fmt;

use super::bytes::Fields;
use super::period::Period;
use super::sparse::SparseSchedule;
use super::values::Values;
use super::{Engine, SequenceError, SequenceRun};

const MAGIC: &[u8; 8] = b"NIMGRCK1";

/// A checkpoint that cannot be resumed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CheckpointError {
    /// Not a checkpoint file, or from another version.
    NotACheckpoint,
    /// The bytes end early or the checksum does not match.
    Corrupt {
        /// What is wrong.
        reason: &'static str,
    },
    /// The checkpoint is for another game.
    OtherGame {
        /// The game saved.
        saved: String,
        /// The game asked for.
        asked: String,
    },
    /// The resumed run cannot be planned.
    Run(SequenceError),
}

impl fmt::Display for CheckpointError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CheckpointError::NotACheckpoint => {
                f.write_str("not a Nimatron sequence checkpoint (expected the NIMGRCK1 header)")
            }
            CheckpointError::Corrupt { reason } => {
                write!(f, "the checkpoint is damaged: {reason}")
            }
            CheckpointError::OtherGame { saved, asked } => write!(
                f,
                "the checkpoint is for game '{saved}', not '{asked}': use another checkpoint file or the same game"
            ),
            CheckpointError::Run(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for CheckpointError {}

pub(crate) struct Saved {
    pub game: String,
    pub values: Values,
    pub state: RunState,
}

/// What a run keeps besides its values, saved alike by a checkpoint and by
/// a checkpoint log's commit: the sparse schedule (4+1+8+8+8 bytes), the
/// next period check (8), the proven period (1+8+8) and where extension by
/// it began (8, `u64::MAX` for none).
#[derive(Clone, Copy)]
pub(crate) struct RunState {
    schedule: SparseSchedule,
    next_period_check: u64,
    found: Option<Period>,
    extended_from: Option<u64>,
}

impl RunState {
    /// The bytes [`RunState::write`] writes.
    pub(crate) const BYTES: usize = 29 + 8 + 17 + 8;

    /// The state of `run`.
    pub(crate) fn of(run: &SequenceRun) -> RunState {
        RunState {
            schedule: run.sparse_schedule(),
            next_period_check: run.next_period_check,
            found: run.found,
            extended_from: run.extended_from,
        }
    }

    /// Appends the state's [`RunState::BYTES`] bytes to `out`.
    pub(crate) fn write(&self, out: &mut Vec<u8>) {
        let s = &self.schedule;
        out.extend_from_slice(&s.mask.to_le_bytes());
        out.push(s.position_parity as u8);
        out.extend_from_slice(&s.next_eval.to_le_bytes());
        out.extend_from_slice(&s.rare_at_eval.to_le_bytes());
        out.extend_from_slice(&s.eval_allowed_from.to_le_bytes());
        out.extend_from_slice(&self.next_period_check.to_le_bytes());
        match self.found {
            Some(p) => {
                out.push(1);
                out.extend_from_slice(&p.period.to_le_bytes());
                out.extend_from_slice(&p.preperiod.to_le_bytes());
            }
            None => {
                out.push(0);
                out.extend_from_slice(&[0; 16]);
            }
        }
        out.extend_from_slice(&self.extended_from.unwrap_or(u64::MAX).to_le_bytes());
    }

    /// Reads a state saved beside `count` values. A proven period is found
    /// among the values, so it must fit in them: a resumed run extends the
    /// values by it (found by the fuzzer: period 0 looped forever, a period
    /// longer than the values underflowed).
    pub(crate) fn read(
        r: &mut Fields<CheckpointError>,
        count: u64,
    ) -> Result<RunState, CheckpointError> {
        let schedule = SparseSchedule {
            mask: r.u32()?,
            position_parity: r.u8()? != 0,
            next_eval: r.u64()?,
            rare_at_eval: r.u64()?,
            eval_allowed_from: r.u64()?,
        };
        let next_period_check = r.u64()?;
        let has_found = r.u8()? != 0;
        let period = r.u64()?;
        let preperiod = r.u64()?;
        let extended_from = r.u64()?;
        if has_found && (period == 0 || period.checked_add(preperiod).is_none_or(|end| end > count))
        {
            return Err(CheckpointError::Corrupt {
                reason: "the saved period does not fit the saved values",
            });
        }
        Ok(RunState {
            schedule,
            next_period_check,
            found: has_found.then_some(Period {
                period,
                preperiod,
                proven: true,
            }),
            extended_from: (extended_from != u64::MAX).then_some(extended_from),
        })
    }

    /// Puts the state into `run`, whose values are those saved with it, and
    /// readies its engine to go on from them.
    pub(crate) fn restore(self, run: &mut SequenceRun) -> Result<(), CheckpointError> {
        run.next_period_check = self.next_period_check;
        run.found = self.found;
        run.extended_from = self.extended_from;
        if let Engine::Sparse(s) = &mut run.engine {
            if !s.accepts(&self.schedule) {
                return Err(CheckpointError::Corrupt {
                    reason: "the saved mask uses the position's parity, which this game's splits do not allow",
                });
            }
            s.schedule = self.schedule;
        }
        match &run.values {
            Values::Bytes(v) => run.engine.sync(v),
            Values::Shorts(v) => run.engine.sync(v),
            Values::Words(v) => run.engine.sync(v),
        }
        Ok(())
    }
}

/// The FNV-1a 64 checksum of checkpoints and checkpoint logs.
pub(super) fn fnv1a(bytes: &[u8]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for &b in bytes {
        h ^= b as u64;
        h = h.wrapping_mul(0x0000_0100_0000_01B3);
    }
    h
}

pub(crate) fn write(run: &SequenceRun) -> Vec<u8> {
    let mut out = Vec::with_capacity(run.values.len() * run.values.bytes_per_value() + 128);
    out.extend_from_slice(MAGIC);
    let game = run.game.to_string();
    out.extend_from_slice(&(game.len() as u32).to_le_bytes());
    out.extend_from_slice(game.as_bytes());
    out.push(run.values.bytes_per_value() as u8);
    out.extend_from_slice(&(run.values.len() as u64).to_le_bytes());
    RunState::of(run).write(&mut out);
    out.extend_from_slice(&run.values.to_le_bytes());
    let sum = fnv1a(&out);
    out.extend_from_slice(&sum.to_le_bytes());
    out
}

pub(crate) fn read(bytes: &[u8]) -> Result<Saved, CheckpointError> {
    if bytes.len() < 8 || &bytes[..8] != MAGIC {
        return Err(CheckpointError::NotACheckpoint);
    }
    if bytes.len() < 16 {
        return Err(CheckpointError::Corrupt {
            reason: "it ends early",
        });
    }
    let (body, sum) = bytes.split_at(bytes.len() - 8);
    if fnv1a(body) != u64::from_le_bytes(sum.try_into().expect("8 bytes")) {
        return Err(CheckpointError::Corrupt {
            reason: "the checksum does not match",
        });
    }
    let mut r = Fields::new(
        body,
        8,
        CheckpointError::Corrupt {
            reason: "it ends early",
        },
    );
    let game_len = r.u32()? as usize;
    let game =
        String::from_utf8(r.take(game_len)?.to_vec()).map_err(|_| CheckpointError::Corrupt {
            reason: "the game name is not UTF-8",
        })?;
    let width = r.u8()? as usize;
    let count = r.u64()?;
    let state = RunState::read(&mut r, count)?;
    let value_bytes = (count as usize)
        .checked_mul(width)
        .ok_or(CheckpointError::Corrupt {
            reason: "the value count is impossible",
        })?;
    let raw = r.take(value_bytes)?;
    if r.at() != body.len() {
        return Err(CheckpointError::Corrupt {
            reason: "extra bytes after the values",
        });
    }
    let values = Values::from_le_bytes(width, raw).ok_or(CheckpointError::Corrupt {
        reason: "the value width is not 1, 2 or 4",
    })?;
    Ok(Saved {
        game,
        values,
        state,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sequence::{HeapGame, SequenceOptions};

    /// A Kayles run far enough to have proven its period (12, preperiod 71).
    fn kayles_with_period() -> (HeapGame, Vec<u8>) {
        let game: HeapGame = "kayles".parse().unwrap();
        let mut run = SequenceRun::new(&game, 3000, &SequenceOptions::default()).unwrap();
        run.advance(1000).unwrap();
        assert!(run.proven_period().is_some());
        (game, run.checkpoint())
    }

    /// The offset of the saved period: after the magic, the spec and its
    /// length, the width, the count, the schedule (4 + 1 + 8 + 8 + 8), the
    /// next period check and the found flag.
    fn period_at(game: &HeapGame) -> usize {
        8 + 4 + game.to_string().len() + 1 + 8 + 29 + 8 + 1
    }

    fn with_period(bytes: &[u8], at: usize, period: u64, preperiod: u64) -> Vec<u8> {
        let mut body = bytes[..bytes.len() - 8].to_vec();
        body[at..at + 8].copy_from_slice(&period.to_le_bytes());
        body[at + 8..at + 16].copy_from_slice(&preperiod.to_le_bytes());
        let sum = fnv1a(&body);
        body.extend_from_slice(&sum.to_le_bytes());
        body
    }

    /// Found by the `checkpoint` fuzz target: a checkpoint with a valid
    /// checksum whose proven period was 0 made the resumed run loop
    /// forever, and one whose period was longer than the values made it
    /// underflow; both are refused as damaged.
    #[test]
    fn a_saved_period_that_does_not_fit_the_values_is_refused() {
        let (game, bytes) = kayles_with_period();
        let at = period_at(&game);
        assert_eq!(
            read(&bytes).unwrap().state.found.map(|p| p.period),
            Some(12)
        );
        let options = SequenceOptions::default();
        assert!(
            SequenceRun::resume(&with_period(&bytes, at, 12, 71), &game, 3000, &options).is_ok()
        );
        for (period, preperiod) in [(0, 71), (5000, 0), (12, 5000), (u64::MAX, 1)] {
            let damaged = with_period(&bytes, at, period, preperiod);
            assert_eq!(
                SequenceRun::resume(&damaged, &game, 3000, &options).err(),
                Some(CheckpointError::Corrupt {
                    reason: "the saved period does not fit the saved values"
                }),
                "period {period}, preperiod {preperiod}"
            );
        }
    }

    /// Sealed with a valid checksum.
    fn sealed(mut body: Vec<u8>) -> Vec<u8> {
        let sum = fnv1a(&body);
        body.extend_from_slice(&sum.to_le_bytes());
        body
    }

    /// Found by the `checkpoint` fuzz target: a saved count of rare
    /// positions near `u64::MAX` overflowed when doubled. The schedule's
    /// counts only say when to look for a better mask, so any of them
    /// resumes to the true values.
    #[test]
    fn any_saved_schedule_counts_resume_to_the_true_values() {
        let game: HeapGame = "kayles".parse().unwrap();
        let options = SequenceOptions::default();
        let truth = crate::sequence::grundy_sequence(&game, 1000, &options).unwrap();
        let mut run = SequenceRun::new(&game, 1000, &options).unwrap();
        run.advance(200).unwrap();
        let bytes = run.checkpoint();
        // The schedule's counts follow the mask (4 bytes) and the parity flag.
        let at = 8 + 4 + "kayles".len() + 1 + 8 + 4 + 1;
        for count in [0, 1, u64::MAX / 2, u64::MAX] {
            let mut body = bytes[..bytes.len() - 8].to_vec();
            for field in 0..3 {
                let start = at + 8 * field;
                body[start..start + 8].copy_from_slice(&count.to_le_bytes());
            }
            let mut resumed = SequenceRun::resume(&sealed(body), &game, 1000, &options).unwrap();
            resumed.advance(u64::MAX).unwrap();
            assert_eq!(resumed.finish().values, truth.values, "counts {count}");
        }
    }

    /// Found by the `checkpoint` fuzz target: resuming Kayles from values
    /// that are not its own (here, a fuzzed checkpoint of 100 values) left
    /// the sparse method no free value and it panicked. These values are
    /// larger than their heaps allow, so the checkpoint is refused now; and
    /// values that pass that bound but leave no free value stop the run
    /// with `SequenceError::Inconsistent` rather than a panic.
    #[test]
    fn values_that_are_not_the_games_stop_the_run_with_an_error() {
        const FUZZED: [&str; 7] = [
            "4e494d4752434b31060000006b61796c6573016400000000000000000008",
            "000000000080006000000000000000000000000100000000000000000000",
            "000000000000f9000000ffffffffffffffff494d4752434b31060000006b",
            "61796c65050000000000000000000000000000000000000100000001000a",
            "0000ff080607040102030104b3524300070401020f010407020104e40704",
            "0102494d4752434b30060000006b61796c65730131000000000441010407",
            "020108020700010208",
        ];
        let hex = FUZZED.concat();
        let body: Vec<u8> = (0..hex.len())
            .step_by(2)
            .map(|i| u8::from_str_radix(&hex[i..i + 2], 16).unwrap())
            .collect();
        let game: HeapGame = "kayles".parse().unwrap();
        assert_eq!(
            SequenceRun::resume(&sealed(body), &game, 300, &SequenceOptions::default()).err(),
            Some(CheckpointError::Corrupt {
                reason: "a saved value is larger than any value its heap can have"
            })
        );
    }

    /// A checkpoint altered to use the position-parity refinement in a game
    /// whose splits do not allow it (Kayles takes 1 or 2 and splits) is
    /// refused: resumed, it would give wrong values.
    #[test]
    fn the_parity_refinement_is_refused_where_the_splits_do_not_allow_it() {
        let game: HeapGame = "kayles".parse().unwrap();
        let options = SequenceOptions::default();
        let mut run = SequenceRun::new(&game, 1000, &options).unwrap();
        run.advance(200).unwrap();
        let bytes = run.checkpoint();
        assert_ne!(read(&bytes).unwrap().state.schedule.mask, 0);
        let mut body = bytes[..bytes.len() - 8].to_vec();
        body[8 + 4 + "kayles".len() + 1 + 8 + 4] = 1;
        assert!(matches!(
            SequenceRun::resume(&sealed(body), &game, 1000, &options),
            Err(CheckpointError::Corrupt { .. })
        ));
    }

    /// Found by the `checkpoint` fuzz target: a modular game's checkpoint
    /// altered to hold a value near 2^30 made the resumed run allocate a
    /// bit set that large for a residue class. A value larger than any its
    /// heap can have (a mex is at most the number of options) is refused.
    #[test]
    fn a_saved_value_no_heap_of_its_size_can_have_is_refused() {
        let game: HeapGame = "modular:3:1,2".parse().unwrap();
        let options = SequenceOptions::default();
        let mut run = SequenceRun::new(&game, 100, &options).unwrap();
        run.advance(20).unwrap();
        let bytes = run.checkpoint();
        assert_eq!(read(&bytes).unwrap().values.bytes_per_value(), 4);
        assert!(SequenceRun::resume(&bytes, &game, 100, &options).is_ok());
        // The last value, G(19), 4 bytes before the checksum.
        let at = bytes.len() - 8 - 4;
        for value in [20u32, 1 << 30, u32::MAX] {
            let mut body = bytes[..bytes.len() - 8].to_vec();
            body[at..at + 4].copy_from_slice(&value.to_le_bytes());
            assert_eq!(
                SequenceRun::resume(&sealed(body), &game, 100, &options).err(),
                Some(CheckpointError::Corrupt {
                    reason: "a saved value is larger than any value its heap can have"
                }),
                "G(19) = {value}"
            );
        }
    }
}
