//! Checkpoint logs: a run saved often, each save appending only the values
//! computed since the last one.
//!
//! A [`SequenceRun::checkpoint`] holds every value, so saving a long run
//! every minute copies and rewrites all of them each time (at 10^8 values
//! of Officers, 200 MB a minute and twice the run's memory while saving).
//! A log is written once and then only appended to: [`SequenceRun::log_header`]
//! starts it, and [`SequenceRun::log_since`] gives the frames that bring
//! it up to date, one at a time, each at most [`LOG_FRAME_MAX`] bytes — all
//! the memory a save needs besides the run. [`LogLoader`] reads a log back
//! frame by frame into a run, identical to an uninterrupted one.
//!
//! Layout: a sequence of frames, each
//!
//! | bytes | content |
//! |-------|---------|
//! | 4     | `L`, the length of the kind and the payload (little-endian, as every integer) |
//! | 1     | kind: `H`, `V` or `C` |
//! | L − 1 | payload |
//! | 8     | FNV-1a 64 checksum of the length, the kind and the payload |
//!
//! - `H` (the first frame, once): magic `NIMGRLG1`, then the game spec,
//!   UTF-8, as `HeapGame` prints it.
//! - `V`: the first heap size `s` (8 bytes), bytes per value `w` (1, 2 or
//!   4), then values `G(s), G(s+1), ...` (at most [`LOG_FRAME_VALUES`]).
//!   `s` is the number of values logged before.
//! - `C` (commit): the number of values `V` (8 bytes; values past it are
//!   dropped), then the state as in a checkpoint: the sparse schedule
//!   (4+1+8+8+8), the next period check (8), the proven period (1+8+8) and
//!   where extension by it began (8, `u64::MAX` for none).
//!
//! A run resumes from the last commit; frames after it (a save cut short by
//! a crash) are ignored, and [`LogLoader::committed_bytes`] says where to
//! cut the file before appending again.

use super::bytes::Fields;
use super::checkpoint::{CheckpointError, RunState, fnv1a};
use super::values::Values;
use super::{HeapGame, Rule, SequenceOptions, SequenceRun};

const MAGIC: &[u8; 8] = b"NIMGRLG1";

/// The most values one `V` frame holds.
pub const LOG_FRAME_VALUES: usize = 1 << 18;

/// The largest frame in bytes (a `V` frame of four-byte values): the memory
/// a save or a load needs besides the run, 1 MiB and a few bytes.
pub const LOG_FRAME_MAX: usize = 4 + 1 + 8 + 1 + 4 * LOG_FRAME_VALUES + 8;

/// The length prefix of a frame.
pub const LOG_FRAME_PREFIX: usize = 4;

/// A frame around `body` (the kind and the payload).
fn frame(kind: u8, payload: impl FnOnce(&mut Vec<u8>), capacity: usize) -> Vec<u8> {
    let mut out = Vec::with_capacity(capacity + 13);
    out.extend_from_slice(&[0; 4]);
    out.push(kind);
    payload(&mut out);
    let len = (out.len() - 4) as u32;
    out[..4].copy_from_slice(&len.to_le_bytes());
    let sum = fnv1a(&out);
    out.extend_from_slice(&sum.to_le_bytes());
    out
}

impl SequenceRun {
    /// The first frame of a checkpoint log of this run's game.
    pub fn log_header(&self) -> Vec<u8> {
        let game = self.game.to_string();
        frame(
            b'H',
            |out| {
                out.extend_from_slice(MAGIC);
                out.extend_from_slice(game.as_bytes());
            },
            8 + game.len(),
        )
    }

    /// Brings a log that holds `G(0..from)` of this run (written by earlier
    /// calls) up to the run's present state: the values `G(from..len)` in
    /// frames of at most [`LOG_FRAME_VALUES`], then a commit. Each frame is
    /// handed to `write` as soon as it is made, so at most one frame
    /// ([`LOG_FRAME_MAX`] bytes) is held at a time. Returns the number of
    /// values the log then holds (`len`), the `from` of the next call.
    ///
    /// A `from` past `len` (values dropped on resuming with a smaller `to`)
    /// is fine: the commit drops the logged values past `len`.
    pub fn log_since<E>(
        &self,
        from: u64,
        mut write: impl FnMut(&[u8]) -> Result<(), E>,
    ) -> Result<u64, E> {
        let len = self.values.len();
        let width = self.values.bytes_per_value();
        let mut start = (from as usize).min(len);
        while start < len {
            let end = len.min(start + LOG_FRAME_VALUES);
            let bytes = frame(
                b'V',
                |out| {
                    out.extend_from_slice(&(start as u64).to_le_bytes());
                    out.push(width as u8);
                    match &self.values {
                        Values::Bytes(v) => out.extend_from_slice(&v[start..end]),
                        Values::Shorts(v) => {
                            v[start..end]
                                .iter()
                                .for_each(|x| out.extend_from_slice(&x.to_le_bytes()));
                        }
                        Values::Words(v) => {
                            v[start..end]
                                .iter()
                                .for_each(|x| out.extend_from_slice(&x.to_le_bytes()));
                        }
                    }
                },
                9 + (end - start) * width,
            );
            write(&bytes)?;
            start = end;
        }
        let state = RunState::of(self);
        let commit = frame(
            b'C',
            |out| {
                out.extend_from_slice(&(len as u64).to_le_bytes());
                state.write(out);
            },
            8 + RunState::BYTES,
        );
        write(&commit)?;
        Ok(len as u64)
    }
}

/// Reads a checkpoint log frame by frame into a run.
///
/// ```
/// use nimatron::sequence::{HeapGame, LogLoader, SequenceOptions, SequenceRun};
/// let game: HeapGame = "officers".parse()?;
/// let options = SequenceOptions::default();
/// let mut run = SequenceRun::new(&game, 5_000, &options)?;
/// let mut log = run.log_header();
/// run.advance(2_000)?;
/// let logged = run.log_since(0, |f| { log.extend_from_slice(f); Ok::<(), ()>(()) }).unwrap();
/// run.advance(3_000)?;
/// run.log_since(logged, |f| { log.extend_from_slice(f); Ok::<(), ()>(()) }).unwrap();
///
/// let mut loader = LogLoader::new(&game, 5_000, &options)?;
/// let mut rest = &log[..];
/// while !rest.is_empty() {
///     let len = LogLoader::frame_len(rest[..4].try_into().unwrap())?;
///     loader.push(&rest[..len])?;
///     rest = &rest[len..];
/// }
/// let mut resumed = loader.finish()?;
/// assert_eq!(resumed.len(), 3_000);
/// resumed.advance(u64::MAX)?;
/// run.advance(u64::MAX)?;
/// assert_eq!(resumed.finish().values, run.finish().values);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub struct LogLoader {
    run: SequenceRun,
    rule: Rule,
    /// Values in the log so far (those past `to` are not stored).
    logged: u64,
    header: bool,
    bytes: u64,
    /// The state of the last commit, the values it counts, and the bytes of
    /// the log up to its end.
    commit: Option<(RunState, u64, u64)>,
}

impl LogLoader {
    /// Plans the run the log resumes (refused beyond the memory limit, as
    /// [`SequenceRun::new`]), with room for all its values at once.
    pub fn new(
        game: &HeapGame,
        to: u64,
        options: &SequenceOptions,
    ) -> Result<LogLoader, CheckpointError> {
        let mut run = SequenceRun::new(game, to, options).map_err(CheckpointError::Run)?;
        run.values.reserve_total(to as usize + 1);
        Ok(LogLoader {
            rule: game.rule(),
            run,
            logged: 0,
            header: false,
            bytes: 0,
            commit: None,
        })
    }

    /// The whole size of the frame whose first [`LOG_FRAME_PREFIX`] bytes
    /// are `prefix` (prefix and checksum included); a size beyond
    /// [`LOG_FRAME_MAX`] is refused before anything is read.
    pub fn frame_len(prefix: [u8; LOG_FRAME_PREFIX]) -> Result<usize, CheckpointError> {
        let len = u32::from_le_bytes(prefix) as usize + 4 + 8;
        if !(4 + 1 + 8..=LOG_FRAME_MAX).contains(&len) {
            return Err(CheckpointError::Corrupt {
                reason: "a frame length is impossible",
            });
        }
        Ok(len)
    }

    /// Reads one whole frame.
    pub fn push(&mut self, frame: &[u8]) -> Result<(), CheckpointError> {
        let corrupt = |reason| CheckpointError::Corrupt { reason };
        if frame.len() < 13
            || Self::frame_len(frame[..4].try_into().expect("4 bytes"))? != frame.len()
        {
            return Err(corrupt("a frame's length does not match"));
        }
        let (body, sum) = frame.split_at(frame.len() - 8);
        if fnv1a(body) != u64::from_le_bytes(sum.try_into().expect("8 bytes")) {
            return Err(corrupt("the checksum does not match"));
        }
        let kind = body[4];
        let mut r = Fields::new(body, 5, corrupt("a frame ends early"));
        if !self.header {
            if kind != b'H' || r.take(8).ok() != Some(&MAGIC[..]) {
                return Err(CheckpointError::NotACheckpoint);
            }
            let saved = String::from_utf8(r.rest().to_vec())
                .map_err(|_| corrupt("the game name is not UTF-8"))?;
            let asked = self.run.game.to_string();
            if saved != asked {
                return Err(CheckpointError::OtherGame { saved, asked });
            }
            self.header = true;
        } else {
            match kind {
                b'V' => self.push_values(&mut r)?,
                b'C' => self.push_commit(&mut r)?,
                _ => return Err(corrupt("a frame of unknown kind")),
            }
        }
        self.bytes += frame.len() as u64;
        if kind == b'C'
            && let Some(commit) = &mut self.commit
        {
            commit.2 = self.bytes;
        }
        Ok(())
    }

    fn push_values(&mut self, r: &mut Fields<CheckpointError>) -> Result<(), CheckpointError> {
        let corrupt = |reason| CheckpointError::Corrupt { reason };
        let start = r.u64()?;
        let width = r.u8()? as usize;
        let raw = r.rest();
        if !matches!(width, 1 | 2 | 4) || !raw.len().is_multiple_of(width) {
            return Err(corrupt("the value width is not 1, 2 or 4"));
        }
        if start != self.logged {
            return Err(corrupt("values do not follow those logged before"));
        }
        let count = (raw.len() / width) as u64;
        let cap = self.run.to + 1;
        let values = &mut self.run.values;
        self.logged = start + count;
        // Values past `to` are not kept.
        let keep = (cap.saturating_sub(start)).min(count) as usize;
        if width > values.bytes_per_value() {
            while values.bytes_per_value() < width {
                values.widen(cap as usize);
            }
        }
        for (i, c) in raw.chunks_exact(width).take(keep).enumerate() {
            let v = match width {
                1 => c[0] as u32,
                2 => u16::from_le_bytes([c[0], c[1]]) as u32,
                _ => u32::from_le_bytes([c[0], c[1], c[2], c[3]]),
            };
            // Tables grow with the largest value: a value no heap of its
            // size can have is refused before it is used.
            if v as u64 > self.rule.max_value(start + i as u64) {
                return Err(corrupt(
                    "a saved value is larger than any value its heap can have",
                ));
            }
            match values {
                Values::Bytes(x) => x.push(v as u8),
                Values::Shorts(x) => x.push(v as u16),
                Values::Words(x) => x.push(v),
            }
        }
        Ok(())
    }

    fn push_commit(&mut self, r: &mut Fields<CheckpointError>) -> Result<(), CheckpointError> {
        let count = r.u64()?;
        let commit = RunState::read(r, count)?;
        if !r.rest().is_empty() {
            return Err(CheckpointError::Corrupt {
                reason: "extra bytes after a commit",
            });
        }
        if count > self.logged {
            return Err(CheckpointError::Corrupt {
                reason: "a commit counts more values than were logged",
            });
        }
        self.logged = count;
        let cap = self.run.to + 1;
        self.run.values.truncate(count.min(cap) as usize);
        self.commit = Some((commit, count, 0));
        Ok(())
    }

    /// How many bytes of the log the last commit covers: cut the file there
    /// before appending (what follows is a save cut short). 0 before any
    /// commit.
    pub fn committed_bytes(&self) -> u64 {
        self.commit.map_or(0, |(_, _, b)| b)
    }

    /// How many values the log holds at its last commit: the `from` of the
    /// next [`SequenceRun::log_since`].
    pub fn committed_values(&self) -> u64 {
        self.commit.map_or(0, |(_, n, _)| n)
    }

    /// The run as of the last commit.
    pub fn finish(self) -> Result<SequenceRun, CheckpointError> {
        let (commit, count, _) = self.commit.ok_or(CheckpointError::Corrupt {
            reason: "no save was completed",
        })?;
        let mut run = self.run;
        let cap = run.to + 1;
        run.values.truncate(count.min(cap) as usize);
        commit.restore(&mut run)?;
        Ok(run)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sequence::grundy_sequence;

    /// Splits a log into its frames.
    fn frames(log: &[u8]) -> Vec<&[u8]> {
        let mut out = Vec::new();
        let mut rest = log;
        while !rest.is_empty() {
            let len = LogLoader::frame_len(rest[..4].try_into().unwrap()).unwrap();
            out.push(&rest[..len]);
            rest = &rest[len..];
        }
        out
    }

    /// Loads a log, stopping at the first frame that does not read (as the
    /// CLI does), and returns the loader.
    fn load(log: &[u8], game: &HeapGame, to: u64) -> Result<LogLoader, CheckpointError> {
        let mut loader = LogLoader::new(game, to, &SequenceOptions::default())?;
        let mut rest = log;
        while rest.len() >= 4 {
            let Ok(len) = LogLoader::frame_len(rest[..4].try_into().unwrap()) else {
                break;
            };
            if rest.len() < len {
                break;
            }
            match loader.push(&rest[..len]) {
                Ok(()) => {}
                Err(e @ (CheckpointError::NotACheckpoint | CheckpointError::OtherGame { .. })) => {
                    return Err(e);
                }
                Err(_) => break,
            }
            rest = &rest[len..];
        }
        Ok(loader)
    }

    fn append(log: &mut Vec<u8>) -> impl FnMut(&[u8]) -> Result<(), ()> + '_ {
        |f| {
            assert!(f.len() <= LOG_FRAME_MAX);
            log.extend_from_slice(f);
            Ok(())
        }
    }

    /// Saves `game` at each of `stops` and checks that every save resumes
    /// to exactly the uninterrupted result; returns the log.
    fn saved_and_resumed(game: &str, to: u64, stops: &[u64]) -> Vec<u8> {
        let game: HeapGame = game.parse().unwrap();
        let options = SequenceOptions::default();
        let truth = grundy_sequence(&game, to, &options).unwrap();
        let mut run = SequenceRun::new(&game, to, &options).unwrap();
        let mut log = run.log_header();
        let mut logged = 0;
        let mut saves = Vec::new();
        for &stop in stops {
            run.advance(stop).unwrap();
            logged = run.log_since(logged, append(&mut log)).unwrap();
            assert_eq!(logged, run.len());
            saves.push((log.len(), logged));
        }
        for (bytes, values) in saves {
            let loader = load(&log[..bytes], &game, to).unwrap();
            assert_eq!(loader.committed_bytes(), bytes as u64);
            assert_eq!(loader.committed_values(), values);
            let mut resumed = loader.finish().unwrap();
            assert_eq!(resumed.len(), values);
            resumed.advance(u64::MAX).unwrap();
            let done = resumed.finish();
            assert_eq!(done.values, truth.values, "{game} resumed at {values}");
            assert_eq!(done.period, truth.period);
            assert_eq!(done.summary.mask, truth.summary.mask);
            assert_eq!(done.summary.rare_count, truth.summary.rare_count);
        }
        log
    }

    /// Officers saved at several points, across the widening of its values
    /// to two bytes (at n = 10 344), resumes from any save to exactly the
    /// uninterrupted result.
    #[test]
    fn a_log_saved_often_resumes_to_the_uninterrupted_run() {
        saved_and_resumed("officers", 30_000, &[0, 1, 5000, 10_344, 10_345, 20_000]);
    }

    /// Kayles, proven periodic early and filled in by its period: a save of
    /// a million values goes out in frames of at most `LOG_FRAME_VALUES`.
    #[test]
    fn a_long_save_is_cut_into_frames() {
        let log = saved_and_resumed("kayles", 1_000_000, &[100, 1_000_001]);
        let sizes: Vec<usize> = frames(&log)
            .iter()
            .filter(|f| f[4] == b'V')
            .map(|f| f.len())
            .collect();
        assert_eq!(sizes.len(), 1 + 1_000_001usize.div_ceil(LOG_FRAME_VALUES));
        assert!(sizes.iter().all(|&s| s <= LOG_FRAME_MAX));
    }

    /// A save cut short anywhere leaves the run of the save before it, and
    /// says where to cut the file.
    #[test]
    fn a_save_cut_short_resumes_from_the_one_before() {
        let game: HeapGame = "kayles".parse().unwrap();
        let options = SequenceOptions::default();
        let mut run = SequenceRun::new(&game, 3000, &options).unwrap();
        let mut log = run.log_header();
        run.advance(40).unwrap();
        let first = run.log_since(0, append(&mut log)).unwrap();
        let committed = log.len();
        run.advance(50).unwrap();
        run.log_since(first, append(&mut log)).unwrap();
        for cut in committed..log.len() {
            let loader = load(&log[..cut], &game, 3000).unwrap();
            assert_eq!(loader.committed_bytes(), committed as u64, "cut at {cut}");
            assert_eq!(loader.finish().unwrap().len(), 40, "cut at {cut}");
        }
        let loader = load(&log, &game, 3000).unwrap();
        assert_eq!(loader.finish().unwrap().len(), 50);
        // Cut inside the first save: nothing to resume.
        for cut in 0..committed {
            if let Ok(loader) = load(&log[..cut], &game, 3000) {
                assert!(loader.finish().is_err(), "cut at {cut}");
            }
        }
    }

    #[test]
    fn a_log_of_another_game_or_damaged_is_refused() {
        let game: HeapGame = "kayles".parse().unwrap();
        let options = SequenceOptions::default();
        let mut run = SequenceRun::new(&game, 1000, &options).unwrap();
        let mut log = run.log_header();
        run.advance(300).unwrap();
        run.log_since(0, append(&mut log)).unwrap();
        let officers: HeapGame = "officers".parse().unwrap();
        assert!(matches!(
            load(&log, &officers, 1000).err(),
            Some(CheckpointError::OtherGame { .. })
        ));
        assert!(matches!(
            load(&run.checkpoint(), &game, 1000).err(),
            Some(CheckpointError::NotACheckpoint) | None
        ));
        // A flipped byte in the values: that frame is refused.
        let header = frames(&log)[0].len();
        let mut bad = log.clone();
        bad[header + 20] ^= 1;
        let mut loader = LogLoader::new(&game, 1000, &options).unwrap();
        let fs = frames(&bad);
        loader.push(fs[0]).unwrap();
        assert_eq!(
            loader.push(fs[1]).err(),
            Some(CheckpointError::Corrupt {
                reason: "the checksum does not match"
            })
        );
        // A frame length beyond the largest frame is refused unread.
        assert!(LogLoader::frame_len((LOG_FRAME_MAX as u32).to_le_bytes()).is_err());
        assert!(LogLoader::frame_len(0u32.to_le_bytes()).is_err());
    }

    /// A value no heap of its size can have is refused (sealed with a valid
    /// checksum), as in whole checkpoints.
    #[test]
    fn a_logged_value_too_large_for_its_heap_is_refused() {
        let game: HeapGame = "kayles".parse().unwrap();
        let options = SequenceOptions::default();
        let mut run = SequenceRun::new(&game, 1000, &options).unwrap();
        let header = run.log_header();
        run.advance(30).unwrap();
        let value = frame(
            b'V',
            |out| {
                out.extend_from_slice(&0u64.to_le_bytes());
                out.push(1);
                out.extend_from_slice(&[0, 1, 2, 3, 200]);
            },
            16,
        );
        let mut loader = LogLoader::new(&game, 1000, &options).unwrap();
        loader.push(&header).unwrap();
        assert_eq!(
            loader.push(&value).err(),
            Some(CheckpointError::Corrupt {
                reason: "a saved value is larger than any value its heap can have"
            })
        );
    }

    /// Resumed with a smaller `to`, the values past it are dropped, and the
    /// next save's commit drops them from the log too.
    #[test]
    fn a_smaller_to_drops_the_values_past_it() {
        let game: HeapGame = "officers".parse().unwrap();
        let options = SequenceOptions::default();
        let mut run = SequenceRun::new(&game, 5000, &options).unwrap();
        let mut log = run.log_header();
        run.advance(4000).unwrap();
        let logged = run.log_since(0, append(&mut log)).unwrap();
        let loader = load(&log, &game, 1000).unwrap();
        assert_eq!(loader.committed_values(), 4000);
        let mut small = loader.finish().unwrap();
        assert_eq!(small.len(), 1001);
        let n = small.log_since(logged, append(&mut log)).unwrap();
        assert_eq!(n, 1001);
        let again = load(&log, &game, 5000).unwrap();
        assert_eq!(again.committed_values(), 1001);
        small.advance(u64::MAX).unwrap();
        assert_eq!(
            small.finish().values,
            grundy_sequence(&game, 1000, &options).unwrap().values
        );
    }
}
