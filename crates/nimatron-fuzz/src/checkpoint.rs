//! `checkpoint`: resuming a Grundy-sequence run from any bytes
//! ([`SequenceRun::resume`]) gives a typed error, or a run that computes
//! on to [`TO`] without a panic. The bytes are tried as they are and again
//! with a valid checksum appended, so that the fields behind the checksum
//! are fuzzed too. The game asked for is the one the bytes name, when they
//! name one, so that the saved state is used rather than refused.

use nimatron::sequence::{HeapGame, SequenceOptions, SequenceRun};

/// How far a resumed run computes.
pub const TO: u64 = 300;

/// FNV-1a 64, the checkpoint's checksum.
pub fn fnv1a(bytes: &[u8]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for &b in bytes {
        h ^= b as u64;
        h = h.wrapping_mul(0x0000_0100_0000_01B3);
    }
    h
}

/// The game a checkpoint names (after the 8-byte magic, a 4-byte length
/// and the spec), or Kayles.
fn named_game(bytes: &[u8]) -> HeapGame {
    let named = || {
        let len = u32::from_le_bytes(bytes.get(8..12)?.try_into().ok()?) as usize;
        let spec = std::str::from_utf8(bytes.get(12..12usize.checked_add(len)?)?).ok()?;
        spec.parse().ok()
    };
    named().unwrap_or(HeapGame::Preset(nimatron::sequence::Preset::Kayles))
}

/// Check one input.
pub fn check(data: &[u8]) {
    resume(data);
    let mut sealed = data.to_vec();
    sealed.extend_from_slice(&fnv1a(data).to_le_bytes());
    resume(&sealed);
}

fn resume(bytes: &[u8]) {
    let game = named_game(bytes);
    let mut run = match SequenceRun::resume(bytes, &game, TO, &SequenceOptions::default()) {
        Ok(run) => run,
        Err(e) => {
            assert!(!e.to_string().is_empty());
            return;
        }
    };
    if let Err(e) = run.advance(u64::MAX) {
        assert!(!e.to_string().is_empty());
        return;
    }
    let seq = run.finish();
    assert_eq!(seq.values.len() as u64, TO + 1, "{game}");
}
