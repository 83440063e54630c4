//! Take-and-break codes: the octal (and hexadecimal) notation of Guy and
//! Smith for heap games.
//!
//! A code is written `d0.d1d2d3...`. Digit `d_k` (for `k >= 1`) says what may
//! be left after taking `k` objects from one heap; it is a sum of:
//!
//! | bit | meaning                                             |
//! |-----|-----------------------------------------------------|
//! | 1   | take the whole heap (only when it has exactly `k`)  |
//! | 2   | leave one non-empty heap                            |
//! | 4   | leave two non-empty heaps (split the remainder)     |
//! | 8   | leave three non-empty heaps (hexadecimal codes)     |
//!
//! The digit before the point, `d0`, is for taking nothing: only bits 4 and 8
//! make sense there (split a heap into two or three without taking), so it
//! must be `0`, `4`, `8` or `C`. Digits are hexadecimal, case-insensitive;
//! octal codes are those whose digits are all at most 7. The part before the
//! point may be left out (`.6` is `0.6`).

use std::fmt;
use std::str::FromStr;

/// A take-and-break code such as `0.77` (Kayles), `0.137` (Dawson's chess)
/// or `4.07`.
///
/// Trailing zero digits carry no moves and are dropped, so `0.60` and `0.6`
/// are the same code; `Display` prints the canonical form, with hexadecimal
/// digits in upper case.
///
/// ```
/// use nimatron::sequence::OctalCode;
/// let kayles: OctalCode = "0.77".parse()?;
/// assert_eq!(kayles.digit(1), 7);
/// assert_eq!(kayles.reach(), 2);
/// assert_eq!(kayles.to_string(), "0.77");
/// let hex: OctalCode = "0.f".parse()?;
/// assert_eq!(hex.to_string(), "0.F");
/// # Ok::<(), nimatron::sequence::CodeError>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct OctalCode {
    /// `digits[k]` is `d_k`; `digits[0]` is the digit before the point.
    /// Never ends in a zero digit after the point.
    digits: Vec<u8>,
}

impl OctalCode {
    /// Builds a code from its digits, `digits[0]` being the digit before the
    /// point. Checks the same rules as parsing.
    pub fn from_digits(digits: &[u8]) -> Result<OctalCode, CodeError> {
        let mut digits = digits.to_vec();
        if digits.is_empty() {
            digits.push(0);
        }
        for (position, &d) in digits.iter().enumerate() {
            if d > 15 {
                return Err(CodeError::DigitTooLarge { position, digit: d });
            }
        }
        if digits[0] & 3 != 0 {
            return Err(CodeError::BadLeadingDigit { digit: digits[0] });
        }
        while digits.len() > 1 && digits[digits.len() - 1] == 0 {
            digits.pop();
        }
        Ok(OctalCode { digits })
    }

    /// The digit `d_k` (0 beyond the end of the code).
    pub fn digit(&self, k: usize) -> u8 {
        self.digits.get(k).copied().unwrap_or(0)
    }

    /// All digits, `d_0` first.
    pub fn digits(&self) -> &[u8] {
        &self.digits
    }

    /// The position `t` of the last nonzero digit (0 when only `d_0` is
    /// nonzero or the code has no moves): the most a move can take.
    pub fn reach(&self) -> u64 {
        (self.digits.len() - 1) as u64
    }

    /// The most heaps a single move can leave (0 to 3).
    pub fn max_heaps_left(&self) -> u32 {
        let all = self.digits.iter().fold(0u8, |acc, &d| acc | d);
        if all & 8 != 0 {
            3
        } else if all & 4 != 0 {
            2
        } else if all & 3 != 0 {
            1
        } else {
            0
        }
    }

    /// Whether every digit is at most 7, i.e. this is an octal game proper.
    pub fn is_octal(&self) -> bool {
        self.digits.iter().all(|&d| d < 8)
    }

    /// The code `B` with the same game as this code `A` on heaps one
    /// smaller: `G_A(n) = G_B(n - 1)` for every `n >= 1` (and `G_A(0) =
    /// 0`), for every heap size, when a heap of one has no move in `A`
    /// (`d_1` has no bit 1). `None` when it has one, or when `A` has no
    /// move at all.
    ///
    /// Digit by digit, `e_m` of `B` is the union, over the bits `2^j` of
    /// `A`'s digits `d_{m+1-j}` (`j = 0` to 3 heaps left, `d_0` included),
    /// of the bits `1, 2, ..., 2^j`:
    ///
    /// ```
    /// use nimatron::sequence::OctalCode;
    /// let shifted = |c: &str| c.parse::<OctalCode>().unwrap().dead_heap_shift().map(|b| b.to_string());
    /// assert_eq!(shifted("0.6").as_deref(), Some("0.37"));   // as Czajka's tables group them
    /// assert_eq!(shifted("0.07").as_deref(), Some("0.137")); // Dawson's Kayles, Dawson's chess
    /// assert_eq!(shifted("0.4").as_deref(), Some("0.07"));
    /// assert_eq!(shifted("0.77"), None);                      // a heap of one can be taken
    /// ```
    ///
    /// *Proof.* A heap of one is a dead heap of `A` (value 0, no move), so
    /// a position of `A` has the value of the same position with its ones
    /// removed. Map a heap of `h >= 1` of `A` to a heap of `h - 1` of `B`
    /// (a heap of one to no heap). A move of `A` from a heap of `n + 1`
    /// takes `k` and leaves `j` nonempty heaps `a_1..a_j` (the bit `2^j` of
    /// `d_k`), `sum a_i = n + 1 - k`. Its image leaves the `j'` heaps
    /// `a_i - 1` that are not empty, `sum (a_i - 1) = n - (k + j - 1)`: a
    /// move of `B` from a heap of `n` that takes `m = k + j - 1` and leaves
    /// `j' <= j` heaps, which `e_m` allows since it holds the bits up to
    /// `2^j`. (When `j = 0`, `k >= 2`, as `d_1` has no bit 1, so `m >= 1`.)
    /// Conversely a move of `B` from `n` taking `m` and leaving `j'` heaps
    /// `b_i` comes from a bit `2^j`, `j >= j'`, of `d_k`, `k = m + 1 - j`:
    /// the move of `A` from `n + 1` taking `k` and leaving the heaps `b_i +
    /// 1` and `j - j'` heaps of one (their sum is `n + 1 - k`) maps to it.
    /// So the options of a heap of `n + 1` in `A` map onto the options of a
    /// heap of `n` in `B`, and by induction on `n` (values of positions
    /// being XORs of heap values) `G_A(n + 1) = G_B(n)`: the same sets of
    /// option values have the same mex. Checked against a plain mex of
    /// every code of up to three digits in `tests/dead_heap_shift.rs`.
    pub fn dead_heap_shift(&self) -> Option<OctalCode> {
        if self.digit(1) & 1 != 0 || self.digits.iter().all(|&d| d == 0) {
            return None;
        }
        let mut e = vec![0u8; self.digits.len() + 3];
        for (k, &d) in self.digits.iter().enumerate() {
            for j in 0..4 {
                if d >> j & 1 != 0 {
                    // Taking k and leaving j heaps becomes taking k + j - 1,
                    // leaving at most j (k + j >= 1: d_0 has no bit 1 or 2,
                    // d_1 no bit 1).
                    e[k + j - 1] |= (1u8 << (j + 1)) - 1;
                }
            }
        }
        Some(OctalCode::from_digits(&e).expect("digits below 16, d_0 = 0"))
    }
}

impl fmt::Display for OctalCode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:X}.", self.digits[0])?;
        if self.digits.len() == 1 {
            return f.write_str("0");
        }
        for d in &self.digits[1..] {
            write!(f, "{d:X}")?;
        }
        Ok(())
    }
}

/// A take-and-break code that does not parse.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CodeError {
    /// Nothing was given.
    Empty,
    /// No `.` separates `d0` from the other digits.
    MissingPoint {
        /// The text given.
        given: String,
    },
    /// A character that is not a hexadecimal digit.
    BadCharacter {
        /// The character.
        character: char,
        /// Its byte offset in the code.
        position: usize,
    },
    /// More than one digit before the point.
    LongIntegerPart {
        /// The part before the point.
        given: String,
    },
    /// `d0` has bit 1 or 2 set (taking nothing and leaving nothing or the
    /// same heap is not a move).
    BadLeadingDigit {
        /// The digit.
        digit: u8,
    },
    /// A digit above 15 (only from [`OctalCode::from_digits`]).
    DigitTooLarge {
        /// Which digit.
        position: usize,
        /// Its value.
        digit: u8,
    },
}

impl fmt::Display for CodeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        const ACCEPTED: &str =
            "a code is written d0.d1d2... with hexadecimal digits 0-9, A-F, e.g. 0.77, 0.137, 4.07";
        match self {
            CodeError::Empty => write!(f, "empty code: {ACCEPTED}"),
            CodeError::MissingPoint { given } => {
                write!(f, "code '{given}' has no point: {ACCEPTED}")
            }
            CodeError::BadCharacter {
                character,
                position,
            } => write!(
                f,
                "'{character}' at offset {position} is not a digit: {ACCEPTED}"
            ),
            CodeError::LongIntegerPart { given } => write!(
                f,
                "'{given}' before the point: only one digit (0, 4, 8 or C) may stand there"
            ),
            CodeError::BadLeadingDigit { digit } => write!(
                f,
                "digit {digit:X} before the point: it must be 0, 4, 8 or C (taking nothing may only split a heap into two or three)"
            ),
            CodeError::DigitTooLarge { position, digit } => write!(
                f,
                "digit {digit} at position {position} is above 15: each digit is a sum of 1, 2, 4 and 8"
            ),
        }
    }
}

impl std::error::Error for CodeError {}

fn hex_value(c: char) -> Option<u8> {
    c.to_digit(16).map(|d| d as u8)
}

impl FromStr for OctalCode {
    type Err = CodeError;
    fn from_str(s: &str) -> Result<OctalCode, CodeError> {
        let s = s.trim();
        if s.is_empty() {
            return Err(CodeError::Empty);
        }
        let Some(point) = s.find('.') else {
            // Name the first bad character if there is one; otherwise the point is missing.
            if let Some((position, character)) =
                s.char_indices().find(|(_, c)| hex_value(*c).is_none())
            {
                return Err(CodeError::BadCharacter {
                    character,
                    position,
                });
            }
            return Err(CodeError::MissingPoint { given: s.into() });
        };
        let (head, tail) = (&s[..point], &s[point + 1..]);
        if let Some((position, character)) = head
            .char_indices()
            .chain(tail.char_indices().map(|(i, c)| (i + point + 1, c)))
            .find(|(_, c)| hex_value(*c).is_none())
        {
            return Err(CodeError::BadCharacter {
                character,
                position,
            });
        }
        if head.chars().count() > 1 {
            return Err(CodeError::LongIntegerPart { given: head.into() });
        }
        let d0 = head.chars().next().and_then(hex_value).unwrap_or(0);
        let mut digits = vec![d0];
        digits.extend(tail.chars().filter_map(hex_value));
        OctalCode::from_digits(&digits)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_and_prints_canonically() {
        for (text, canonical) in [
            ("0.77", "0.77"),
            ("0.137", "0.137"),
            ("4.07", "4.07"),
            (".6", "0.6"),
            ("0.60", "0.6"),
            ("0.f", "0.F"),
            ("c.0", "C.0"),
            ("4.", "4.0"),
            (" 0.007 ", "0.007"),
        ] {
            let code: OctalCode = text.parse().unwrap();
            assert_eq!(code.to_string(), canonical, "{text}");
            let again: OctalCode = canonical.parse().unwrap();
            assert_eq!(again, code);
        }
    }

    #[test]
    fn digits_and_reach() {
        let code: OctalCode = "0.137".parse().unwrap();
        assert_eq!(code.digits(), &[0, 1, 3, 7]);
        assert_eq!(code.reach(), 3);
        assert_eq!(code.max_heaps_left(), 2);
        assert!(code.is_octal());
        let hex: OctalCode = "0.8".parse().unwrap();
        assert_eq!(hex.max_heaps_left(), 3);
        assert!(!hex.is_octal());
    }

    #[test]
    fn errors_name_the_problem() {
        assert_eq!(
            "0.1z".parse::<OctalCode>(),
            Err(CodeError::BadCharacter {
                character: 'z',
                position: 3
            })
        );
        assert_eq!("".parse::<OctalCode>(), Err(CodeError::Empty));
        assert_eq!(
            "077".parse::<OctalCode>(),
            Err(CodeError::MissingPoint {
                given: "077".into()
            })
        );
        assert_eq!(
            "1.5".parse::<OctalCode>(),
            Err(CodeError::BadLeadingDigit { digit: 1 })
        );
        assert_eq!(
            "10.5".parse::<OctalCode>(),
            Err(CodeError::LongIntegerPart { given: "10".into() })
        );
        assert!(matches!(
            "0.7.7".parse::<OctalCode>(),
            Err(CodeError::BadCharacter { character: '.', .. })
        ));
        let message = "0.1z".parse::<OctalCode>().unwrap_err().to_string();
        assert!(
            message.contains("'z'") && message.contains("0-9, A-F"),
            "{message}"
        );
    }
}
