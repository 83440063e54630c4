//! How a take-and-break move is written: the syntax of a rule's moves,
//! with an example of each kind, and the parser of typed moves.

use super::heap_moves::join_or;
use super::*;

/// "1, 2 or 3".
fn or_list(values: &[u64]) -> String {
    let words: Vec<String> = values.iter().map(u64::to_string).collect();
    join_or(&words)
}

/// The move syntax of a rule, with one example of each kind of move it
/// allows (see [`parse_split_move`] for everything accepted).
pub(super) fn split_move_syntax(rule: &Rule) -> String {
    let t = match rule {
        Rule::Squares => {
            return "'A 4' takes 4 objects from heap A (a move takes a square number: 1, 4, 9, 16, ...); 'A all' empties a heap whose size is a square".to_string();
        }
        Rule::Modular { modulus, residues } => {
            let first = residues
                .iter()
                .copied()
                .find(|&r| r > 0)
                .unwrap_or(*modulus);
            return format!(
                "'A {first}' takes {first} object{} from heap A (a move takes any t with t mod {modulus} one of {}); 'A all' empties heap A when its size is such a t",
                if first == 1 { "" } else { "s" },
                or_list(residues)
            );
        }
        Rule::TakeBreak(t) => t,
    };
    let takes = |ks: &[u64]| -> Vec<u64> { ks.iter().copied().filter(|&k| k > 0).collect() };
    let leave_one = takes(&t.leave_one);
    let split_two = takes(&t.split_two);
    let split_three = takes(&t.split_three);
    let take_all = takes(&t.take_all);
    let splits = !split_two.is_empty() || !split_three.is_empty();
    let mut kinds: Vec<String> = Vec::new();
    let amounts = |ks: &[u64]| {
        if ks.len() > 1 {
            format!(" (taking {} this way)", or_list(ks))
        } else {
            String::new()
        }
    };
    if let Some(&k) = leave_one.first() {
        let amounts = amounts(&leave_one);
        kinds.push(if splits {
            format!(
                "'A {k}' takes {k} from the end of heap A, leaving the rest as one heap{amounts}"
            )
        } else {
            format!("'A {k}' takes {k} from heap A{amounts}")
        });
    }
    if let Some(&k) = split_two.first() {
        let (a, b) = if t.unequal { (1, 2) } else { (1, 3) };
        kinds.push(format!(
            "'A {k} {a}+{b}' takes {k} from inside heap A (of {}), leaving heaps of {a} and {b}{}",
            k + a + b,
            amounts(&split_two)
        ));
    }
    if let Some(&k) = split_three.first() {
        kinds.push(format!(
            "'A {k} 1+1+2' takes {k} from heap A (of {}), leaving heaps of 1, 1 and 2",
            k + 4
        ));
    }
    if t.split_two.contains(&0) {
        kinds.push(format!(
            "'A 4+2' splits heap A (of 6) into heaps of 4 and 2 without taking anything{}",
            if t.unequal {
                " (the two must differ in size)"
            } else {
                ""
            }
        ));
    }
    if t.split_three.contains(&0) {
        kinds.push(
            "'A 1+2+3' splits heap A (of 6) into three heaps without taking anything".to_string(),
        );
    }
    if !take_all.is_empty() {
        let whole = if take_all.len() == 1 {
            format!("when it holds exactly {}", take_all[0])
        } else {
            format!("when it holds exactly {}", or_list(&take_all))
        };
        kinds.push(format!("'A all' takes the whole of heap A, {whole}"));
    }
    if kinds.is_empty() {
        return "this rule allows no move".to_string();
    }
    let mut text = kinds.join("; ");
    if let Some(&k) = leave_one.first() {
        text.push_str(&format!(" ('take {k} from A' and 'a{k}' are read too)"));
    }
    text
}

/// Parse `A 2`, `a2`, `take 2 from A`, `A 1 2+3`, `A 1 -> 2+3`, `A 4+2`,
/// `A all`: (heap, take, parts if given).
pub(super) fn parse_split_move(
    input: &str,
    heaps: &[u64],
) -> Result<(usize, u64, Option<Vec<u64>>), MoveError> {
    let lower = input.trim().to_ascii_lowercase().replace("->", " ");
    let filler = [
        "take", "from", "heap", "leaving", "leave", "into", "split", "remove",
    ];
    let words: Vec<&str> = lower
        .split_whitespace()
        .filter(|w| !filler.contains(w))
        .collect();
    let mut heap_word: Option<String> = None;
    let mut numbers: Vec<String> = Vec::new();
    let mut parts: Option<Vec<u64>> = None;
    for w in words {
        if w.contains('+') {
            let p: Result<Vec<u64>, _> = w.split('+').map(|x| x.parse::<u64>()).collect();
            parts = Some(p.map_err(|_| {
                MoveError::new(format!("'{w}' is not a list of heap sizes like 2+3"))
            })?);
        } else if w.chars().next().is_some_and(|c| c.is_ascii_alphabetic()) && w != "all" {
            // A heap letter, possibly glued to a number: a2.
            let split = w
                .find(|c: char| !c.is_ascii_alphabetic())
                .unwrap_or(w.len());
            let (h, rest) = w.split_at(split);
            if heap_word.replace(h.to_string()).is_some() {
                return Err(MoveError::new(format!(
                    "'{}' names two heaps",
                    input.trim()
                )));
            }
            if !rest.is_empty() {
                numbers.push(rest.to_string());
            }
        } else {
            numbers.push(w.to_string());
        }
    }
    let heap_word = heap_word
        .ok_or_else(|| MoveError::new(format!("'{}' names no heap letter", input.trim())))?;
    let heap = crate::heap_notation::parse_heap_name(&heap_word)
        .ok_or_else(|| MoveError::new(format!("'{heap_word}' is not a heap letter")))?;
    if heap >= heaps.len() {
        return Err(MoveError::new(format!(
            "there is no heap {}: the heaps are A to {}",
            heap_word.to_ascii_uppercase(),
            heap_name(heaps.len().saturating_sub(1))
        )));
    }
    let n = heaps[heap];
    if n == 0 {
        return Err(MoveError::new(format!("heap {} is empty", heap_name(heap))));
    }
    let take = match numbers.as_slice() {
        [] if parts.is_some() => 0,
        [] => {
            return Err(MoveError::new(format!(
                "'{}' says how many to take nowhere",
                input.trim()
            )));
        }
        [t] if t == "all" => n,
        [t] => t.parse::<u64>().map_err(|_| {
            MoveError::new(format!(
                "'{t}' is not a number of objects: give a whole number, or 'all'"
            ))
        })?,
        [t, rest] if parts.is_none() => {
            // 'A 1 5': take 1 leaving one heap of 5.
            let t = t
                .parse::<u64>()
                .map_err(|_| MoveError::new(format!("'{t}' is not a number")))?;
            let r = rest
                .parse::<u64>()
                .map_err(|_| MoveError::new(format!("'{rest}' is not a number")))?;
            parts = Some(vec![r]);
            t
        }
        _ => return Err(MoveError::new(format!("'{}' is not a move", input.trim()))),
    };
    if take > n {
        return Err(MoveError::new(format!(
            "heap {} has only {n} object{}",
            heap_name(heap),
            if n == 1 { "" } else { "s" }
        )));
    }
    if let Some(p) = &parts {
        let sum = p.iter().fold(0u64, |a, &x| a.saturating_add(x));
        if sum.saturating_add(take) != n {
            return Err(MoveError::new(format!(
                "taking {take} from heap {} ({n}) leaves {} objects, not {sum}",
                heap_name(heap),
                n - take
            )));
        }
    }
    Ok((heap, take, parts))
}
