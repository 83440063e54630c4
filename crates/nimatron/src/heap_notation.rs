//! Heap notation, in one place: heap sizes (one word each) and lists of
//! them, heap names (`A`…`Z`, `AA`, …), typed heap moves (`A 2`, `take 2
//! from A`) and heaps drawn as rows of matches.
//!
//! Syntax only: a word either is a heap size (a whole number from 0 to
//! 2^64 − 1) or it is not, and the error says which rule it broke.

use std::fmt;

use crate::{MoveError, PositionError};

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
/// use nimatron::{parse_heap_size, HeapSizeError};
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

/// The name of heap `index`: `A`…`Z`, then `AA`, `AB`, … as spreadsheet columns.
///
/// ```
/// use nimatron::{heap_name, parse_heap_name};
/// assert_eq!(heap_name(0), "A");
/// assert_eq!(heap_name(26), "AA");
/// assert_eq!(parse_heap_name("ab"), Some(27));
/// ```
pub fn heap_name(index: usize) -> String {
    let mut n = index + 1;
    let mut letters = Vec::new();
    while n > 0 {
        let rem = (n - 1) % 26;
        letters.push(b'A' + rem as u8);
        n = (n - 1) / 26;
    }
    letters.reverse();
    String::from_utf8(letters).expect("ASCII letters")
}

/// The index of a heap named by letters (case-insensitive), if it is a name.
pub fn parse_heap_name(name: &str) -> Option<usize> {
    if name.is_empty() || name.len() > 12 || !name.bytes().all(|b| b.is_ascii_alphabetic()) {
        return None;
    }
    let mut n: usize = 0;
    for b in name.bytes() {
        n = n * 26 + (b.to_ascii_uppercase() - b'A' + 1) as usize;
    }
    Some(n - 1)
}

/// Parse a list of heap sizes (`3 4 5` or `3,4,5`); at least one heap.
pub fn parse_heaps(text: &str, accepted: &str) -> Result<Vec<u64>, PositionError> {
    let heaps = parse_heap_list(text.as_bytes())
        .map_err(|e| PositionError::new(e.to_string(), accepted.to_string()))?;
    if heaps.is_empty() {
        return Err(PositionError::new("no heaps given", accepted.to_string()));
    }
    Ok(heaps)
}

/// Heap sizes as canonical text: `3 4 5`.
pub fn format_heaps(heaps: &[u64]) -> String {
    let words: Vec<String> = heaps.iter().map(u64::to_string).collect();
    words.join(" ")
}

/// Rows of matches with heap letters.
pub fn render_heaps(heaps: &[u64]) -> String {
    let mut s = String::new();
    for (i, &h) in heaps.iter().enumerate() {
        let matches = if h <= 30 {
            "| ".repeat(h as usize)
        } else {
            format!("{}… ", "| ".repeat(30))
        };
        s.push_str(&format!(
            "  {:>2}  {:>4}  {}\n",
            heap_name(i),
            h,
            matches.trim_end()
        ));
    }
    s
}

/// A typed heap move, split into the heap and the amount words, before
/// checking it against the rules: `A 2`, `a2`, `take 2 from A`,
/// `2 from heap A`, `A all`.
pub fn parse_heap_and_count(input: &str, heaps: &[u64]) -> Result<(usize, u64), MoveError> {
    let lower = input.trim().to_ascii_lowercase();
    let words: Vec<&str> = lower.split_whitespace().collect();
    let (heap_word, count_word): (String, String) = match words.as_slice() {
        ["take" | "remove", n, "from", "heap", h] | [n, "from", "heap", h] => {
            (h.to_string(), n.to_string())
        }
        ["take" | "remove", n, "from", h] | [n, "from", h] => (h.to_string(), n.to_string()),
        ["heap", h, n] | [h, n] => (h.to_string(), n.to_string()),
        [single] => {
            let split = single
                .find(|c: char| !c.is_ascii_alphabetic())
                .ok_or_else(|| MoveError::new(format!("'{}' is not a move", input.trim())))?;
            let (h, n) = single.split_at(split);
            (h.to_string(), n.to_string())
        }
        _ => return Err(MoveError::new(format!("'{}' is not a move", input.trim()))),
    };
    let heap = parse_heap_name(&heap_word)
        .ok_or_else(|| MoveError::new(format!("'{heap_word}' is not a heap letter")))?;
    if heaps.is_empty() {
        return Err(MoveError::new("there are no heaps"));
    }
    if heap >= heaps.len() {
        return Err(MoveError::new(format!(
            "there is no heap {}: the heaps are A to {}",
            heap_word.to_ascii_uppercase(),
            heap_name(heaps.len() - 1)
        )));
    }
    let size = heaps[heap];
    if size == 0 {
        return Err(MoveError::new(format!("heap {} is empty", heap_name(heap))));
    }
    let take = if count_word == "all" {
        size
    } else {
        count_word.parse::<u64>().map_err(|_| {
            MoveError::new(format!(
                "'{count_word}' is not a number of objects: give a whole number from 1 to {size}, or 'all'"
            ))
        })?
    };
    if take == 0 {
        return Err(MoveError::new("a move must take at least one object"));
    }
    if take > size {
        return Err(MoveError::new(format!(
            "heap {} has only {size} object{}",
            heap_name(heap),
            if size == 1 { "" } else { "s" }
        )));
    }
    Ok((heap, take))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn heap_names_round_trip() {
        for i in 0..2000 {
            assert_eq!(parse_heap_name(&heap_name(i)), Some(i), "{i}");
        }
        assert_eq!(heap_name(25), "Z");
        assert_eq!(heap_name(27), "AB");
        assert_eq!(parse_heap_name("A1"), None);
        assert_eq!(parse_heap_name(""), None);
    }

    #[test]
    fn move_syntax() {
        let heaps = [3, 4, 5];
        assert_eq!(parse_heap_and_count("A 2", &heaps), Ok((0, 2)));
        assert_eq!(parse_heap_and_count("a2", &heaps), Ok((0, 2)));
        assert_eq!(parse_heap_and_count("take 2 from A", &heaps), Ok((0, 2)));
        assert_eq!(
            parse_heap_and_count("take 3 from heap b", &heaps),
            Ok((1, 3))
        );
        assert_eq!(parse_heap_and_count("2 from c", &heaps), Ok((2, 2)));
        assert_eq!(parse_heap_and_count("C all", &heaps), Ok((2, 5)));
        let err = |s: &str| parse_heap_and_count(s, &heaps).unwrap_err().problem;
        assert!(err("D 1").contains("no heap D"));
        assert!(err("A 4").contains("only 3"));
        assert!(err("A 0").contains("at least one"));
        assert!(err("A -1").contains("not a number"));
        assert!(err("hello world again").contains("not a move"));
        assert!(err("7").contains("not a heap letter"));
    }

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
