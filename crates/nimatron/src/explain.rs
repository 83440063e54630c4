//! Explanations a person can follow: heaps in binary columns, the nim-sum,
//! which heap to reduce and why, and the misère endgame rule.

use std::fmt::Write as _;

use crate::nim::{HeapMove, NimAnalysis, Regime, analyze};
use crate::{Convention, Outcome};

use crate::heap_notation::heap_name;

/// How many heaps are drawn in full before the table is summarised.
pub const TABLE_ROWS: usize = 32;

/// One sentence describing a heap move, e.g. `take 2 from heap A (3 → 1)`.
pub fn describe_move(mv: &HeapMove, heaps: &[u64]) -> String {
    let before = heaps[mv.heap];
    let after = before - mv.take;
    if after == 0 {
        format!(
            "take all {} from heap {} (leaving it empty)",
            mv.take,
            heap_name(mv.heap)
        )
    } else {
        format!(
            "take {} from heap {} ({} → {})",
            mv.take,
            heap_name(mv.heap),
            before,
            after
        )
    }
}

/// The binary table of Wikipedia's *Nim*: each heap in binary, then the nim-sum line.
///
/// ```text
/// heap   binary  decimal
/// A         011        3
/// B         100        4
/// C         101        5
/// nim-sum   010        2
/// ```
pub fn binary_table(heaps: &[u64], nim_sum: u64) -> String {
    let widest = heaps.iter().copied().max().unwrap_or(0).max(nim_sum);
    let bits = (64 - widest.leading_zeros()).max(1) as usize;
    let dec = widest.to_string().len().max(7);
    let bin = bits.max(6);
    let mut out = String::new();
    let _ = writeln!(out, "{:<8} {:>bin$} {:>dec$}", "heap", "binary", "decimal");
    let shown = heaps.len().min(TABLE_ROWS);
    for (i, &h) in heaps.iter().take(shown).enumerate() {
        let _ = writeln!(
            out,
            "{:<8} {:>bin$} {:>dec$}",
            heap_name(i),
            format!("{h:0bits$b}"),
            h
        );
    }
    if heaps.len() > shown {
        let _ = writeln!(out, "… and {} more heaps", heaps.len() - shown);
    }
    let _ = writeln!(out, "{}", "-".repeat(8 + 1 + bin + 1 + dec));
    let _ = writeln!(
        out,
        "{:<8} {:>bin$} {:>dec$}",
        "nim-sum",
        format!("{nim_sum:0bits$b}"),
        nim_sum
    );
    out
}

fn column_name(bit: u64) -> String {
    format!("{bit}s")
}

/// Above this many heaps, [`explain_nim`] gives a summary instead of the
/// binary table.
pub const EXPLAINED_HEAPS: usize = 1000;

/// A full explanation of a Nim position: why it is won or lost, and how to
/// play, in the words and tables of Bouton's theory.
pub fn explain_nim(heaps: &[u64], analysis: &NimAnalysis) -> String {
    if heaps.len() > EXPLAINED_HEAPS {
        // A table of a million rows explains nothing: say the rule and the sum.
        let verdict = if analysis.outcome.to_move_wins() {
            "the player to move wins"
        } else {
            "the player to move loses against perfect play"
        };
        let rule = match analysis.regime {
            Regime::Bouton => "Bouton's theorem: the nim-sum decides",
            Regime::MisereEndgame => {
                "misère play with one heap of two or more: the endgame rule decides"
            }
            Regime::MisereOnesOnly => "misère play with 1-heaps only: their parity decides",
        };
        return format!(
            "{} heaps (too many to show in binary columns). The nim-sum of the heap sizes is {}; {rule}, so {verdict}.\n",
            heaps.len(),
            analysis.nim_sum.0
        );
    }
    let mut out = binary_table(heaps, analysis.nim_sum.0);
    out.push('\n');
    let x = analysis.nim_sum.0;
    match analysis.regime {
        Regime::Bouton => explain_bouton(&mut out, heaps, analysis),
        Regime::MisereEndgame => {
            let big = heaps.iter().position(|&h| h > 1).expect("one big heap");
            let ones = analysis.one_heaps.unwrap_or(0);
            let _ = writeln!(
                out,
                "Misère play, and only heap {} holds two or more objects: the endgame rule decides.",
                heap_name(big)
            );
            if let Some(normal) = analysis.normal_play_move(heaps) {
                let left = heaps[big] - normal.take;
                let _ = writeln!(
                    out,
                    "Normal play would {} (nim-sum {x} → 0), leaving {} heap{} of size 1: an even number.",
                    describe_move(&normal, heaps),
                    ones + left as usize,
                    if ones + left as usize == 1 { "" } else { "s" },
                );
            }
            let mv = analysis.winning_move(heaps).expect("endgame is a win");
            let left_ones = ones + (heaps[big] - mv.take) as usize;
            let _ = writeln!(
                out,
                "In misère play the winner leaves an odd number of 1-heaps instead, so that the opponent takes the last object: {}, leaving {} heap{} of size 1.",
                describe_move(&mv, heaps),
                left_ones,
                if left_ones == 1 { "" } else { "s" },
            );
        }
        Regime::MisereOnesOnly => {
            let ones = analysis.one_heaps.unwrap_or(0);
            if ones == 0 {
                let _ = writeln!(
                    out,
                    "No objects are left. In misère play the previous player took the last object and lost: the player to move has won."
                );
            } else if analysis.outcome == Outcome::P {
                let _ = writeln!(
                    out,
                    "Misère play with only 1-heaps: {ones} of them, an odd number. Moves alternate one object at a time, and the player to move must take the last one: a loss."
                );
            } else {
                let _ = writeln!(
                    out,
                    "Misère play with only 1-heaps: {ones} of them, an even number. Taking any one leaves an odd number, and the opponent must take the last object: a win."
                );
            }
        }
    }
    out
}

fn explain_bouton(out: &mut String, heaps: &[u64], analysis: &NimAnalysis) {
    let x = analysis.nim_sum.0;
    let misere_note = analysis.convention == Convention::Misere;
    if misere_note {
        let _ = writeln!(
            out,
            "Misère play, but two or more heaps hold two or more objects, so the play is as in normal Nim until only one such heap is left."
        );
    }
    if x == 0 {
        let _ = writeln!(
            out,
            "The nim-sum is 0, so the player to move loses against perfect play (Bouton's theorem): every move changes exactly one heap and so makes the nim-sum non-zero, and the opponent can always make it 0 again."
        );
        return;
    }
    let lead = analysis.leading_bit();
    let _ = writeln!(
        out,
        "The nim-sum is {x}, not 0, so the player to move wins (Bouton's theorem). Its leading 1 is in the {} column (binary {lead:b}).",
        column_name(lead)
    );
    let _ = writeln!(
        out,
        "XOR each heap with the nim-sum {x}; a heap whose size drops is a winning move, reduced to that value:"
    );
    for (i, &h) in heaps.iter().enumerate().take(TABLE_ROWS) {
        let y = h ^ x;
        let verdict = if y < h {
            format!(
                "smaller: reduce {} from {h} to {y} (take {})",
                heap_name(i),
                h - y
            )
        } else {
            "not smaller".to_string()
        };
        let _ = writeln!(out, "  {} ⊕ X = {h} ⊕ {x} = {y}   {verdict}", heap_name(i));
    }
    if heaps.len() > TABLE_ROWS {
        let _ = writeln!(out, "  … {} more heaps", heaps.len() - TABLE_ROWS);
    }
    if let Some(mv) = analysis.winning_move(heaps) {
        let _ = writeln!(
            out,
            "Winning move: {}. The heaps then have nim-sum 0.",
            describe_move(&mv, heaps)
        );
    }
}

/// Explain a position from scratch.
pub fn explain_position(heaps: &[u64], convention: Convention) -> String {
    explain_nim(heaps, &analyze(heaps, convention))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seed_binary_table_for_3_4_5() {
        let table = binary_table(&[3, 4, 5], 2);
        assert!(table.contains("A           011       3"), "{table}");
        assert!(table.contains("nim-sum     010       2"), "{table}");
    }

    #[test]
    fn misere_explanation_names_the_rule_change() {
        // Seed walkthrough: 0 2 1 in misère, take the entire B heap.
        let text = explain_position(&[0, 2, 1], Convention::Misere);
        assert!(text.contains("odd number of 1-heaps"), "{text}");
        assert!(text.contains("take all 2 from heap B"), "{text}");
        assert!(
            text.contains("Normal play would take 1 from heap B"),
            "{text}"
        );
    }
}
