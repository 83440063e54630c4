//! `sequence_file`: [`read_sequence_file`] on any bytes gives a typed
//! error, or a file that [`write_sequence_file`] writes back to bytes that
//! read as the same file (and, when the game's spec was written in its
//! canonical form, to the very same bytes). The reader must not allocate a
//! size the header claims before checking it against the bytes: the fuzzer
//! runs with a small malloc limit to catch that.

use nimatron::sequence::{read_sequence_file, write_sequence_file};

/// Check one input.
pub fn check(data: &[u8]) {
    let file = match read_sequence_file(data) {
        Ok(file) => file,
        Err(e) => {
            assert!(!e.to_string().is_empty());
            return;
        }
    };
    let mut bytes = Vec::new();
    write_sequence_file(&mut bytes, &file.game, &file.values).expect("a Vec takes every byte");
    assert_eq!(read_sequence_file(&bytes).as_ref(), Ok(&file));
    let spec = file.game.to_string();
    let spec_len = (spec.len() as u32).to_le_bytes();
    if data.get(12..16) == Some(&spec_len[..])
        && data.get(16..16 + spec.len()) == Some(spec.as_bytes())
    {
        assert_eq!(bytes, data, "{spec}: written back differently");
    }
}
