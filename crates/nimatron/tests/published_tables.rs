//! The student report's "illustrative" take-and-break table, checked.
//!
//! The table claims Grundy values for "split a heap into two unequal
//! smaller heaps" (Grundy's game). Computed here from the rule alone, the
//! table is right for heap sizes 0, 1 and 3 and wrong for 2, 4, 5 and 6. It
//! is not the sequence of any octal game with up to three code digits either.
//! `docs/games.md` records the finding.

use std::collections::BTreeSet;

fn mex(values: &BTreeSet<u64>) -> u64 {
    (0..)
        .find(|v| !values.contains(v))
        .expect("some value is missing")
}

/// Grundy's game from its rule: split one heap into two unequal non-empty heaps.
fn grundys_game(up_to: usize) -> Vec<u64> {
    let mut g = vec![0u64; up_to + 1];
    for n in 1..=up_to {
        let options: BTreeSet<u64> = (1..n)
            .filter(|&a| 2 * a != n)
            .map(|a| g[a] ^ g[n - a])
            .collect();
        g[n] = mex(&options);
    }
    g
}

/// An octal game 0.d1d2d3 by the conventional digit meaning: digit d_k for
/// removing k objects; bit 1: the heap may vanish, bit 2: one heap may
/// remain, bit 4: two non-empty heaps may remain.
fn octal(digits: &[u64], up_to: usize) -> Vec<u64> {
    let mut g = vec![0u64; up_to + 1];
    for n in 1..=up_to {
        let mut options = BTreeSet::new();
        for (i, &d) in digits.iter().enumerate() {
            let k = i + 1;
            if k > n {
                break;
            }
            let rest = n - k;
            if d & 1 != 0 && rest == 0 {
                options.insert(0);
            }
            if d & 2 != 0 && rest > 0 {
                options.insert(g[rest]);
            }
            if d & 4 != 0 {
                for a in 1..rest {
                    options.insert(g[a] ^ g[rest - a]);
                }
            }
        }
        g[n] = mex(&options);
    }
    g
}

fn report_table() -> Vec<(usize, u64)> {
    let text = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../tests/data/report_take_and_break_table.txt"
    ))
    .expect("data file");
    text.lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|l| {
            let mut w = l.split_whitespace();
            let n = w.next().expect("n").parse().expect("n");
            let g = w.next().expect("g").parse().expect("g");
            (n, g)
        })
        .collect()
}

#[test]
fn the_reports_table_is_wrong_for_grundys_game() {
    let truth = grundys_game(20);
    // Published start of Grundy's game (OEIS A002188): 0,0,0,1,0,2,1,0,2,1,0,2,1,3.
    assert_eq!(&truth[..14], &[0, 0, 0, 1, 0, 2, 1, 0, 2, 1, 0, 2, 1, 3]);
    let table = report_table();
    assert_eq!(table.len(), 7);
    let wrong: Vec<usize> = table
        .iter()
        .filter(|&&(n, g)| truth[n] != g)
        .map(|&(n, _)| n)
        .collect();
    assert_eq!(wrong, vec![2, 4, 5, 6]);
    // Six objects split as 5+1 or 4+2 (the report's own example): values
    // g(5)^g(1) = 2 and g(4)^g(2) = 0, so g(6) = mex{0, 2} = 1, not 2.
    assert_eq!(truth[5] ^ truth[1], 2);
    assert_eq!(truth[4] ^ truth[2], 0);
    assert_eq!(truth[6], 1);
}

#[test]
fn the_reports_table_is_no_small_octal_game() {
    let claimed: Vec<u64> = report_table().iter().map(|&(_, g)| g).collect();
    let mut matches = Vec::new();
    for d1 in 0..8 {
        for d2 in 0..8 {
            for d3 in 0..8 {
                if octal(&[d1, d2, d3], 6) == claimed {
                    matches.push(format!("0.{d1}{d2}{d3}"));
                }
            }
        }
    }
    assert!(matches.is_empty(), "{matches:?}");
    // The naive octal code is right: Kayles (0.77) starts 0,1,2,3,1,4,3,2,1,4,2,6
    // (OEIS A002186), Dawson's Kayles (0.07) starts 0,0,1,1,2,0,3,1,1,0,3,3.
    assert_eq!(octal(&[7, 7], 11), vec![0, 1, 2, 3, 1, 4, 3, 2, 1, 4, 2, 6]);
    assert_eq!(octal(&[0, 7], 11), vec![0, 0, 1, 1, 2, 0, 3, 1, 1, 0, 3, 3]);
}
