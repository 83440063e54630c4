//! The sequence file: the values `G(0..=N)` of a heap game in a compact
//! binary form (the layout is on [`SequenceFile`]), with its writer and a
//! reader that checks every field against the bytes it is given.

use std::fmt;
use std::io::{self, Write};

use super::bytes::Fields;
use super::game::{HeapGame, HeapGameError};
use super::values::Values;

/// The first seven bytes of every sequence file.
const MAGIC: &[u8; 7] = b"NIMGSEQ";

/// The version this build writes and reads: the eighth byte.
const VERSION: u8 = b'1';

/// A sequence file: a heap game and its values `G(0), G(1), ...`.
///
/// Layout, all integers little-endian:
///
/// | offset | bytes | content |
/// |---|---|---|
/// | 0 | 7 | magic `NIMGSEQ` |
/// | 7 | 1 | version: the ASCII digit `1` (so the first eight bytes read `NIMGSEQ1`) |
/// | 8 | 1 | bytes per value `w`: 1, 2 or 4 |
/// | 9 | 3 | reserved, zero |
/// | 12 | 4 | length `L` of the game spec |
/// | 16 | `L` | the game spec, UTF-8, as [`HeapGame`] prints it (e.g. `kayles`) |
/// | 16 + `L` | 8 | number of values `V` |
/// | 24 + `L` | `V·w` | `G(0), ..., G(V - 1)`, `w` bytes each |
///
/// Nothing follows the values. [`write_sequence_file`] writes one and
/// [`read_sequence_file`] reads one back.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SequenceFile {
    /// The game the values belong to.
    pub game: HeapGame,
    /// `G(0), G(1), ...`, stored at the width the file gives.
    pub values: Values,
}

/// Why bytes are not a sequence file this build reads.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FormatError {
    /// The bytes do not begin with the magic `NIMGSEQ`.
    BadMagic,
    /// The version byte (after the magic) is not one this build reads.
    UnknownVersion {
        /// The byte found.
        found: u8,
    },
    /// The bytes end inside the header.
    Truncated {
        /// How many bytes there are.
        len: u64,
    },
    /// Bytes per value is not 1, 2 or 4.
    BadWidth {
        /// The width found.
        found: u8,
    },
    /// A reserved header byte is not zero.
    ReservedNotZero,
    /// The game spec is not UTF-8.
    GameNotUtf8,
    /// The game spec does not name a heap game.
    Game(HeapGameError),
    /// The header claims more values than the bytes after it hold.
    TooFewValues {
        /// Values the header claims.
        claimed: u64,
        /// Whole values the bytes after the header hold.
        held: u64,
    },
    /// Bytes follow the last value the header claims.
    TrailingBytes {
        /// How many.
        extra: u64,
    },
}

impl fmt::Display for FormatError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FormatError::BadMagic => {
                f.write_str("not a Nimatron sequence file (it does not begin with NIMGSEQ)")
            }
            FormatError::UnknownVersion { found } if found.is_ascii_graphic() => write!(
                f,
                "sequence file version '{}' is not one this build reads (it reads version 1)",
                *found as char
            ),
            FormatError::UnknownVersion { found } => write!(
                f,
                "sequence file version byte {found} is not one this build reads (it reads version 1)"
            ),
            FormatError::Truncated { len } => {
                write!(f, "the file ends inside its header, after {len} bytes")
            }
            FormatError::BadWidth { found } => {
                write!(f, "the header gives {found} bytes per value, not 1, 2 or 4")
            }
            FormatError::ReservedNotZero => {
                f.write_str("the reserved header bytes (offsets 9 to 11) are not zero")
            }
            FormatError::GameNotUtf8 => f.write_str("the game spec in the header is not UTF-8"),
            FormatError::Game(e) => write!(f, "the game spec in the header does not parse: {e}"),
            FormatError::TooFewValues { claimed, held } => write!(
                f,
                "the header claims {claimed} values but the file holds {held}"
            ),
            FormatError::TrailingBytes { extra } => {
                write!(f, "{extra} bytes follow the last value the header claims")
            }
        }
    }
}

impl std::error::Error for FormatError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            FormatError::Game(e) => Some(e),
            _ => None,
        }
    }
}

/// Writes `game` and `values` as a [`SequenceFile`] to `out`, the values
/// at the width they are stored at, without copying them all first. Fails
/// only when `out` does (or for a game spec of 4 GiB or more).
pub fn write_sequence_file<W: Write>(
    mut out: W,
    game: &HeapGame,
    values: &Values,
) -> io::Result<()> {
    let spec = game.to_string();
    let spec_len = u32::try_from(spec.len()).map_err(|_| {
        io::Error::new(
            io::ErrorKind::InvalidInput,
            "the game spec is 4 GiB or longer",
        )
    })?;
    out.write_all(MAGIC)?;
    out.write_all(&[VERSION, values.bytes_per_value() as u8, 0, 0, 0])?;
    out.write_all(&spec_len.to_le_bytes())?;
    out.write_all(spec.as_bytes())?;
    out.write_all(&(values.len() as u64).to_le_bytes())?;
    match values {
        Values::Bytes(v) => out.write_all(v),
        Values::Shorts(v) => write_le(&mut out, v, u16::to_le_bytes),
        Values::Words(v) => write_le(&mut out, v, u32::to_le_bytes),
    }
}

/// Writes `values` little-endian through a small buffer.
fn write_le<W: Write, T: Copy, const B: usize>(
    out: &mut W,
    values: &[T],
    le: fn(T) -> [u8; B],
) -> io::Result<()> {
    let mut buf = [0u8; 1 << 14];
    for chunk in values.chunks(buf.len() / B) {
        for (slot, &x) in buf.chunks_exact_mut(B).zip(chunk) {
            slot.copy_from_slice(&le(x));
        }
        out.write_all(&buf[..chunk.len() * B])?;
    }
    Ok(())
}

/// Reads a [`SequenceFile`] from the whole of `bytes`. Every field is
/// checked before it is used: nothing is allocated for the values until
/// the bytes are known to hold exactly the values the header claims, and
/// no input makes it panic.
///
/// ```
/// use nimatron::sequence::{
///     FormatError, HeapGame, SequenceOptions, grundy_sequence, read_sequence_file,
///     write_sequence_file,
/// };
/// let kayles: HeapGame = "kayles".parse()?;
/// let seq = grundy_sequence(&kayles, 100, &SequenceOptions::default())?;
/// let mut bytes = Vec::new();
/// write_sequence_file(&mut bytes, &seq.game, &seq.values)?;
/// assert_eq!(&bytes[..8], b"NIMGSEQ1");
/// let file = read_sequence_file(&bytes)?;
/// assert_eq!((file.game, file.values), (seq.game, seq.values));
/// // A file cut short is refused, and says so.
/// let cut = read_sequence_file(&bytes[..bytes.len() - 1]);
/// assert_eq!(cut, Err(FormatError::TooFewValues { claimed: 101, held: 100 }));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn read_sequence_file(bytes: &[u8]) -> Result<SequenceFile, FormatError> {
    let len = bytes.len() as u64;
    // A short prefix of the magic is a file cut short, not another file.
    let start = &bytes[..bytes.len().min(MAGIC.len())];
    if start != &MAGIC[..start.len()] {
        return Err(FormatError::BadMagic);
    }
    let mut r = Fields::new(bytes, MAGIC.len(), FormatError::Truncated { len });
    let version = r.u8()?;
    if version != VERSION {
        return Err(FormatError::UnknownVersion { found: version });
    }
    let width = r.u8()?;
    if !matches!(width, 1 | 2 | 4) {
        return Err(FormatError::BadWidth { found: width });
    }
    if r.take(3)?.iter().any(|&b| b != 0) {
        return Err(FormatError::ReservedNotZero);
    }
    let spec_len = usize::try_from(r.u32()?).map_err(|_| FormatError::Truncated { len })?;
    let spec = std::str::from_utf8(r.take(spec_len)?).map_err(|_| FormatError::GameNotUtf8)?;
    let game: HeapGame = spec.parse().map_err(FormatError::Game)?;
    let claimed = r.u64()?;
    let rest = r.rest();
    let present = rest.len() as u64;
    let held = present / width as u64;
    match claimed.checked_mul(width as u64) {
        Some(needed) if needed == present => {}
        Some(needed) if needed < present => {
            return Err(FormatError::TrailingBytes {
                extra: present - needed,
            });
        }
        _ => return Err(FormatError::TooFewValues { claimed, held }),
    }
    let values = Values::from_le_bytes(width as usize, rest)
        .ok_or(FormatError::BadWidth { found: width })?;
    Ok(SequenceFile { game, values })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// G(0..=12) of Kayles.
    const KAYLES: [u8; 13] = [0, 1, 2, 3, 1, 4, 3, 2, 1, 4, 2, 6, 4];

    fn write(game: &HeapGame, values: &Values) -> Vec<u8> {
        let mut out = Vec::new();
        write_sequence_file(&mut out, game, values).expect("a Vec takes every byte");
        out
    }

    fn game(spec: &str) -> HeapGame {
        spec.parse().expect("a valid spec")
    }

    /// Small files of every width, the game spec, and the header length.
    fn samples() -> Vec<(SequenceFile, Vec<u8>, usize)> {
        [
            ("kayles", Values::Bytes(KAYLES.to_vec())),
            ("octal:0.137", Values::Shorts(vec![0, 1, 300, 513, 65535])),
            (
                "subtraction:1,2,3",
                Values::Words(vec![0, 1, 70_000, u32::MAX]),
            ),
        ]
        .into_iter()
        .map(|(spec, values)| {
            let file = SequenceFile {
                game: game(spec),
                values,
            };
            let bytes = write(&file.game, &file.values);
            (file, bytes, 24 + spec.len())
        })
        .collect()
    }

    #[test]
    fn the_layout_is_the_documented_one() {
        let mut want = b"NIMGSEQ1".to_vec();
        want.extend([1, 0, 0, 0]);
        want.extend(6u32.to_le_bytes());
        want.extend(b"kayles");
        want.extend(13u64.to_le_bytes());
        want.extend(KAYLES);
        assert_eq!(
            write(&game("kayles"), &Values::Bytes(KAYLES.to_vec())),
            want
        );
        let shorts = write(&game("officers"), &Values::Shorts(vec![0x0102, 0xA0B0]));
        assert_eq!(shorts[8], 2);
        assert_eq!(&shorts[shorts.len() - 4..], [0x02, 0x01, 0xB0, 0xA0]);
    }

    #[test]
    fn every_width_and_the_empty_sequence_round_trip() {
        for (file, bytes, _) in samples() {
            assert_eq!(read_sequence_file(&bytes), Ok(file));
        }
        for spec in ["grundy-game", "modular:3:1,2", "subtraction:squares"] {
            for values in [
                Values::Bytes(Vec::new()),
                Values::Shorts(Vec::new()),
                Values::Words(Vec::new()),
            ] {
                let file = SequenceFile {
                    game: game(spec),
                    values,
                };
                let bytes = write(&file.game, &file.values);
                assert_eq!(read_sequence_file(&bytes), Ok(file), "{spec}");
            }
        }
    }

    /// More four-byte values than the writer's buffer holds.
    #[test]
    fn values_longer_than_the_write_buffer_round_trip() {
        let values = Values::Words((0..10_000u32).map(|n| n * 7919).collect());
        let file = SequenceFile {
            game: game("officers"),
            values,
        };
        let bytes = write(&file.game, &file.values);
        assert_eq!(bytes.len(), 24 + "officers".len() + 40_000);
        assert_eq!(read_sequence_file(&bytes), Ok(file));
    }

    #[test]
    fn a_file_cut_at_any_byte_is_refused() {
        for (file, bytes, header) in samples() {
            let width = file.values.bytes_per_value();
            for cut in 0..bytes.len() {
                let want = if cut < header {
                    FormatError::Truncated { len: cut as u64 }
                } else {
                    FormatError::TooFewValues {
                        claimed: file.values.len() as u64,
                        held: ((cut - header) / width) as u64,
                    }
                };
                assert_eq!(read_sequence_file(&bytes[..cut]), Err(want), "cut at {cut}");
            }
        }
    }

    /// `bytes` with `at..at + new.len()` replaced.
    fn patched(bytes: &[u8], at: usize, new: &[u8]) -> Vec<u8> {
        let mut out = bytes.to_vec();
        out[at..at + new.len()].copy_from_slice(new);
        out
    }

    #[test]
    fn each_wrong_header_field_has_its_error() {
        let (_, bytes, header) = samples().swap_remove(0);
        let count_at = header - 8;
        let read = |at: usize, new: &[u8]| read_sequence_file(&patched(&bytes, at, new));
        for (at, &byte) in bytes[..7].iter().enumerate() {
            assert_eq!(read(at, &[byte ^ 0x20]), Err(FormatError::BadMagic));
        }
        assert_eq!(
            read_sequence_file(b"PK\x03\x04"),
            Err(FormatError::BadMagic)
        );
        assert_eq!(
            read(7, b"2"),
            Err(FormatError::UnknownVersion { found: b'2' })
        );
        for width in [0, 3, 8, 255] {
            assert_eq!(
                read(8, &[width]),
                Err(FormatError::BadWidth { found: width })
            );
        }
        // Thirteen one-byte values read as two-byte ones: six and a half.
        assert_eq!(
            read(8, &[2]),
            Err(FormatError::TooFewValues {
                claimed: 13,
                held: 6
            })
        );
        for at in 9..12 {
            assert_eq!(read(at, &[1]), Err(FormatError::ReservedNotZero));
        }
        assert_eq!(
            read(12, &u32::MAX.to_le_bytes()),
            Err(FormatError::Truncated {
                len: bytes.len() as u64
            })
        );
        assert!(matches!(
            read(12, &0u32.to_le_bytes()),
            Err(FormatError::Game(_))
        ));
        assert_eq!(read(16, &[0xFF]), Err(FormatError::GameNotUtf8));
        assert!(matches!(read(16, b"q"), Err(FormatError::Game(_))));
        for (count, want) in [
            (
                14,
                FormatError::TooFewValues {
                    claimed: 14,
                    held: 13,
                },
            ),
            (12, FormatError::TrailingBytes { extra: 1 }),
            (0, FormatError::TrailingBytes { extra: 13 }),
            (
                u64::MAX,
                FormatError::TooFewValues {
                    claimed: u64::MAX,
                    held: 13,
                },
            ),
        ] {
            assert_eq!(
                read(count_at, &count.to_le_bytes()),
                Err(want),
                "count {count}"
            );
        }
        // A count whose byte size overflows is refused before any allocation.
        let (_, words, header) = samples().swap_remove(2);
        let huge = u64::MAX / 4 + 1;
        assert_eq!(
            read_sequence_file(&patched(&words, header - 8, &huge.to_le_bytes())),
            Err(FormatError::TooFewValues {
                claimed: huge,
                held: 4
            })
        );
    }

    /// Any one byte of a header changed (three ways) is refused or reads
    /// as another file, never as the original and never with a panic.
    #[test]
    fn no_header_byte_changes_unnoticed() {
        for (file, bytes, header) in samples() {
            for at in 0..header {
                for flip in [0x01, 0x80, 0xFF] {
                    let bad = patched(&bytes, at, &[bytes[at] ^ flip]);
                    let read = read_sequence_file(&bad);
                    assert_ne!(read, Ok(file.clone()), "byte {at} ^ {flip:#x}");
                }
            }
        }
    }
}
