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
            std::fs::write(&tmp, serde_json::to_vec(&record)?)?;
            std::fs::rename(&tmp, path)
        };
        // A cache that cannot be written only costs the next run time.
        let _ = write();
    }
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
}
