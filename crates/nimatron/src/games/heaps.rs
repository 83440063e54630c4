//! Notation shared by heap games: heap lists, heap letters, `A 2` moves,
//! and rows of matches.

use crate::explain::{heap_name, parse_heap_name};
use crate::position::parse_heap_list;
use crate::{MoveError, PositionError};

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

/// The non-empty heaps as one-heap components, for games in which heaps are
/// independent.
pub fn components(heaps: &[u64]) -> Vec<Vec<u64>> {
    heaps.iter().filter(|&&h| h > 0).map(|&h| vec![h]).collect()
}

/// The canonical form of a heap position where order and empty heaps do not
/// matter: the non-empty heaps, sorted.
pub fn canonical(heaps: &[u64]) -> Vec<u64> {
    let mut sorted: Vec<u64> = heaps.iter().copied().filter(|&h| h > 0).collect();
    sorted.sort_unstable();
    sorted
}

/// The sum of the heaps, saturating.
pub fn total(heaps: &[u64]) -> u64 {
    heaps.iter().fold(0u64, |a, &h| a.saturating_add(h))
}

/// Takes worth considering from one heap when heaps are too big to try
/// every take: small takes, emptying, and leaving one.
pub fn representative_takes(size: u64) -> Vec<u64> {
    let mut takes: Vec<u64> = (1..=size.min(8)).collect();
    takes.push(size);
    takes.push(size.saturating_sub(1).max(1));
    takes.sort_unstable();
    takes.dedup();
    takes.retain(|&t| t >= 1 && t <= size);
    takes
}

#[cfg(test)]
mod tests {
    use super::*;

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
}
