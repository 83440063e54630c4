//! Parsing heap positions from text: one word per heap size.
//!
//! Syntax only: a word either is a heap size (a whole number from 0 to
//! 2^64 − 1) or it is not, and the error says which rule it broke.

use std::fmt;

/// Why a word is not a heap size.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum HeapSizeError {
    /// Nothing was given.
    Empty,
    /// The word starts with a minus sign.
    Negative(String),
    /// The word has a decimal point or exponent.
    NotWhole(String),
    /// The word has characters that are not digits.
    NotANumber(String),
    /// The number is larger than 2^64 − 1.
    TooLarge(String),
}

/// What a heap size may be, for error messages.
pub const HEAP_SIZE_RULE: &str = "a heap size is a whole number from 0 to 2^64 − 1";

impl fmt::Display for HeapSizeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            HeapSizeError::Empty => write!(f, "empty heap size: {HEAP_SIZE_RULE}"),
            HeapSizeError::Negative(w) => write!(f, "heap '{w}' is negative: {HEAP_SIZE_RULE}"),
            HeapSizeError::NotWhole(w) => {
                write!(f, "heap '{w}' is not a whole number: {HEAP_SIZE_RULE}")
            }
            HeapSizeError::NotANumber(w) => {
                write!(f, "heap '{w}' is not a number: {HEAP_SIZE_RULE}")
            }
            HeapSizeError::TooLarge(w) => write!(f, "heap '{w}' is too large: {HEAP_SIZE_RULE}"),
        }
    }
}

impl std::error::Error for HeapSizeError {}

/// Parse one heap size.
///
/// ```
/// use nimatron::position::{parse_heap_size, HeapSizeError};
/// assert_eq!(parse_heap_size("42"), Ok(42));
/// assert!(matches!(parse_heap_size("-3"), Err(HeapSizeError::Negative(_))));
/// assert!(matches!(parse_heap_size("2.5"), Err(HeapSizeError::NotWhole(_))));
/// ```
pub fn parse_heap_size(word: &str) -> Result<u64, HeapSizeError> {
    parse_heap_bytes(word.as_bytes())
}

/// [`parse_heap_size`] on raw bytes, for fast bulk input.
pub fn parse_heap_bytes(word: &[u8]) -> Result<u64, HeapSizeError> {
    if word.is_empty() {
        return Err(HeapSizeError::Empty);
    }
    let mut value: u64 = 0;
    let mut overflow = false;
    for &b in word {
        if !b.is_ascii_digit() {
            return Err(classify(word));
        }
        match value
            .checked_mul(10)
            .and_then(|v| v.checked_add((b - b'0') as u64))
        {
            Some(v) => value = v,
            None => overflow = true,
        }
    }
    if overflow {
        return Err(HeapSizeError::TooLarge(lossy(word)));
    }
    Ok(value)
}

fn lossy(word: &[u8]) -> String {
    let s = String::from_utf8_lossy(word);
    // Keep messages readable for absurd input.
    if s.chars().count() > 40 {
        format!("{}…", s.chars().take(40).collect::<String>())
    } else {
        s.into_owned()
    }
}

fn classify(word: &[u8]) -> HeapSizeError {
    let text = lossy(word);
    let body = word.strip_prefix(b"+").unwrap_or(word);
    let is_numeric = |w: &[u8]| {
        !w.is_empty()
            && w.iter().any(u8::is_ascii_digit)
            && w.iter()
                .all(|b| b.is_ascii_digit() || matches!(b, b'.' | b'e' | b'E' | b'-' | b'+'))
    };
    if let Some(rest) = word.strip_prefix(b"-")
        && is_numeric(rest)
    {
        return HeapSizeError::Negative(text);
    }
    if is_numeric(body) && body.iter().any(|b| matches!(b, b'.' | b'e' | b'E')) {
        return HeapSizeError::NotWhole(text);
    }
    HeapSizeError::NotANumber(text)
}

/// Split text into heap sizes: words separated by whitespace or commas.
pub fn parse_heap_list(text: &[u8]) -> Result<Vec<u64>, HeapSizeError> {
    let mut heaps = Vec::with_capacity(text.len() / 4);
    for word in text
        .split(|b| b.is_ascii_whitespace() || *b == b',')
        .filter(|w| !w.is_empty())
    {
        heaps.push(parse_heap_bytes(word)?);
    }
    Ok(heaps)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn errors_are_classified() {
        assert_eq!(parse_heap_size("0"), Ok(0));
        assert_eq!(parse_heap_size("18446744073709551615"), Ok(u64::MAX));
        assert!(matches!(
            parse_heap_size("18446744073709551616"),
            Err(HeapSizeError::TooLarge(_))
        ));
        assert!(matches!(
            parse_heap_size("-0"),
            Err(HeapSizeError::Negative(_))
        ));
        assert!(matches!(
            parse_heap_size("1e3"),
            Err(HeapSizeError::NotWhole(_))
        ));
        assert!(matches!(
            parse_heap_size("abc"),
            Err(HeapSizeError::NotANumber(_))
        ));
        assert!(matches!(
            parse_heap_size("3x"),
            Err(HeapSizeError::NotANumber(_))
        ));
        assert!(matches!(parse_heap_size(""), Err(HeapSizeError::Empty)));
        let e = parse_heap_size("-3").unwrap_err().to_string();
        assert!(
            e.contains("'-3'") && e.contains("whole number from 0"),
            "{e}"
        );
    }

    #[test]
    fn lists_split_on_spaces_and_commas() {
        assert_eq!(parse_heap_list(b" 3, 4\n5\t"), Ok(vec![3, 4, 5]));
        assert_eq!(parse_heap_list(b""), Ok(vec![]));
    }
}
