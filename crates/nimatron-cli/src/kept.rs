//! Misère quotients kept on disk between runs.
//!
//! Misère play of a heap game learns the game's misère quotient heap by
//! heap (see the library's `misere::race`). A process keeps it for later
//! positions; this keeps it for later processes: `analyze --misere` and
//! `play --misere` read what earlier runs learnt of the game before they
//! start, and write it back when they end if it grew. Misère Dawson's
//! Kayles takes tens of seconds to learn its quotient to heap 30, and a
//! second run reads it in milliseconds (`docs/benchmarks.md`).
//!
//! The files live in `$NIMATRON_CACHE_DIR` if that is set (set it empty to
//! keep nothing), else in `$XDG_CACHE_HOME/nimatron`, else in
//! `~/.cache/nimatron`, under `misere/`, one JSON file per game. A file
//! that cannot be read, or that the library refuses (another version's
//! layout, or not consistent), is ignored and replaced.

use std::path::PathBuf;

use nimatron::misere::QuotientRecord;
use nimatron::{Convention, Game};

/// The largest record read (a quotient of 10 000 elements with 100 heap
/// images is about 10 MB as JSON).
const MAX_BYTES: u64 = 64 << 20;

/// The most records kept: when a run writes one more, the records least
/// recently written go first, so the directory never holds more than this
/// many (and so at most `MAX_FILES × MAX_BYTES` that are ever read back).
const MAX_FILES: usize = 32;

/// The directory of kept quotients, if any.
fn dir() -> Option<PathBuf> {
    let base = match std::env::var_os("NIMATRON_CACHE_DIR") {
        Some(d) if d.is_empty() => return None,
        Some(d) => PathBuf::from(d),
        None => match std::env::var_os("XDG_CACHE_HOME").filter(|d| !d.is_empty()) {
            Some(d) => PathBuf::from(d).join("nimatron"),
            None => PathBuf::from(std::env::var_os("HOME")?).join(".cache/nimatron"),
        },
    };
    Some(base.join("misere"))
}

/// A file name for a game's spec: letters, digits, `.` and `-` kept, every
/// other byte as `_` and two hex digits.
fn file_name(game: &str) -> String {
    let mut name = String::new();
    for b in game.bytes().take(120) {
        if b.is_ascii_alphanumeric() || b == b'.' || b == b'-' {
            name.push(b as char);
        } else {
            name.push_str(&format!("_{b:02x}"));
        }
    }
    name.push_str(".json");
    name
}

/// A game's quotient, read from disk for this run and written back when
/// the run ends (on drop) if it grew.
pub struct Kept<'g> {
    game: &'g dyn Game,
    path: Option<PathBuf>,
    read: Option<QuotientRecord>,
}

impl<'g> Kept<'g> {
    /// Reads what earlier runs learnt of `game`'s misère quotient (for
    /// misère play of a heap game; nothing otherwise).
    pub fn load(game: &'g dyn Game, convention: Convention) -> Kept<'g> {
        let path = (convention == Convention::Misere)
            .then(dir)
            .flatten()
            .map(|d| d.join(file_name(&game.name())));
        let mut kept = Kept {
            game,
            path,
            read: None,
        };
        // Only games that keep a record are looked for (a first record may
        // be empty, and then there is nothing to read yet).
        if let Some(path) = &kept.path
            && std::fs::metadata(path).is_ok_and(|m| m.len() <= MAX_BYTES)
            && let Ok(text) = std::fs::read(path)
            && let Ok(record) = serde_json::from_slice::<QuotientRecord>(&text)
            && game.restore_misere_record(&record).is_ok()
        {
            kept.read = Some(record);
        }
        kept
    }
}

impl Drop for Kept<'_> {
    fn drop(&mut self) {
        let Some(path) = &self.path else { return };
        let Some(record) = self.game.misere_record() else {
            return;
        };
        if self.read.as_ref() == Some(&record) {
            return;
        }
        // Written whole to a file of its own, then renamed over the old
        // one: a reader sees the old record or the new, never half of one.
        let write = || -> std::io::Result<()> {
            let dir = path.parent().expect("a directory");
            std::fs::create_dir_all(dir)?;
            let tmp = dir.join(format!(
                ".{}.{}",
                path.file_name()
                    .and_then(|n| n.to_str())
                    .unwrap_or("quotient"),
                std::process::id()
            ));
            let bytes = serde_json::to_vec(&record)?;
            // A record too large to be read back is not written.
            if bytes.len() as u64 > MAX_BYTES {
                return Ok(());
            }
            std::fs::write(&tmp, bytes)?;
            std::fs::rename(&tmp, path)?;
            prune(dir, MAX_FILES)
        };
        // A cache that cannot be written only costs the next run time.
        let _ = write();
    }
}

/// Removes the records least recently written until `dir` holds at most
/// `keep` of them (files named `*.json`; nothing else is touched).
fn prune(dir: &std::path::Path, keep: usize) -> std::io::Result<()> {
    let mut records: Vec<(std::time::SystemTime, PathBuf)> = std::fs::read_dir(dir)?
        .filter_map(Result::ok)
        .filter(|e| {
            e.file_name()
                .to_str()
                .is_some_and(|n| n.ends_with(".json") && !n.starts_with('.'))
        })
        .filter_map(|e| {
            let meta = e.metadata().ok().filter(|m| m.is_file())?;
            Some((meta.modified().ok()?, e.path()))
        })
        .collect();
    if records.len() > keep {
        records.sort();
        for (_, path) in &records[..records.len() - keep] {
            let _ = std::fs::remove_file(path);
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn file_names_keep_plain_characters_and_encode_the_rest() {
        assert_eq!(file_name("kayles"), "kayles.json");
        assert_eq!(file_name("octal:0.137"), "octal_3a0.137.json");
        assert_eq!(file_name("../x"), ".._2fx.json");
    }

    #[test]
    fn pruning_keeps_the_records_written_last_and_nothing_else_is_touched() {
        let dir = std::env::temp_dir().join(format!("nimatron-prune-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let t0 = std::time::SystemTime::now() - std::time::Duration::from_secs(1000);
        for i in 0..5u64 {
            let path = dir.join(format!("g{i}.json"));
            std::fs::write(&path, b"{}").unwrap();
            let f = std::fs::File::options().write(true).open(&path).unwrap();
            f.set_modified(t0 + std::time::Duration::from_secs(10 * i))
                .unwrap();
        }
        std::fs::write(dir.join("notes.txt"), b"x").unwrap();
        prune(&dir, 3).unwrap();
        let mut left: Vec<String> = std::fs::read_dir(&dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().into_string().unwrap())
            .collect();
        left.sort();
        assert_eq!(left, ["g2.json", "g3.json", "g4.json", "notes.txt"]);
        let _ = std::fs::remove_dir_all(&dir);
    }
}
