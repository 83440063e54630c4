//! `OctalCode::dead_heap_shift`: a code whose heap of one has no move plays
//! as another code on heaps one smaller, `G_A(n) = G_B(n - 1)`. Checked
//! against a plain mex written here from the definition of the digits (not
//! the library's engines), for every code of up to three octal digits with
//! either leading digit and a sample of hexadecimal ones, and against the
//! library's own engine for the 4-digit census's codes.

use std::collections::BTreeSet;

use nimatron::sequence::{CensusSpec, HeapGame, OctalCode, SequenceOptions, grundy_sequence};

/// `G(0..=to)` by the definition: digit `d_k` bit `2^j` lets a move take
/// `k` objects from a heap and leave `j` nonempty heaps (all of it when `j
/// = 0`, which needs a heap of exactly `k`).
fn plain_values(digits: &[u8], to: usize) -> Vec<u32> {
    let mut g: Vec<u32> = Vec::with_capacity(to + 1);
    for n in 0..=to {
        let mut seen = BTreeSet::new();
        for (k, &d) in digits.iter().enumerate() {
            if k > n {
                break;
            }
            let rest = n - k;
            if d & 1 != 0 && rest == 0 && k > 0 {
                seen.insert(0);
            }
            if d & 2 != 0 && rest >= 1 && k > 0 {
                seen.insert(g[rest]);
            }
            if d & 4 != 0 {
                for a in 1..rest {
                    seen.insert(g[a] ^ g[rest - a]);
                }
            }
            if d & 8 != 0 {
                for a in 1..rest {
                    for b in 1..rest - a {
                        seen.insert(g[a] ^ g[b] ^ g[rest - a - b]);
                    }
                }
            }
        }
        let mut mex = 0;
        while seen.contains(&mex) {
            mex += 1;
        }
        g.push(mex);
    }
    g
}

/// Checks `G_A(n) = G_B(n - 1)` for `1 <= n <= to` by the plain mex, and
/// `G_A(0) = 0`; returns whether `A` has a shift at all.
fn check(digits: &[u8], to: usize) -> bool {
    let a = OctalCode::from_digits(digits).unwrap();
    let Some(b) = a.dead_heap_shift() else {
        // Only codes whose heap of one can move, and codes without moves.
        assert!(
            digits.get(1).is_some_and(|d| d & 1 != 0) || digits.iter().all(|&d| d == 0),
            "{a} has a dead heap of one but no shift"
        );
        return false;
    };
    let ga = plain_values(a.digits(), to);
    let gb = plain_values(b.digits(), to);
    assert_eq!(ga[0], 0);
    for n in 1..=to {
        assert_eq!(ga[n], gb[n - 1], "G_{a}({n}) against G_{b}({})", n - 1);
    }
    true
}

#[test]
fn every_short_octal_code_with_a_dead_heap_of_one_is_its_shift() {
    let mut shifted = 0;
    let mut images = BTreeSet::new();
    for leading in [0u8, 4] {
        for index in 0..512u32 {
            let digits = [
                leading,
                (index >> 6) as u8,
                (index >> 3 & 7) as u8,
                (index & 7) as u8,
            ];
            if check(&digits, 90) {
                shifted += 1;
                let b = OctalCode::from_digits(&digits)
                    .unwrap()
                    .dead_heap_shift()
                    .unwrap();
                assert!(b.is_octal(), "an octal code's shift is octal");
                images.insert(b.to_string());
            }
        }
    }
    // d_1 even: half of each 512, less 0.0 (no move at all).
    assert_eq!(shifted, 2 * 256 - 1);
    // Several codes share a shift (0.6 and 0.26 both become 0.37...), so
    // fewer images than codes: the sets of codes with one game.
    assert!(images.len() < shifted, "{} images", images.len());
}

#[test]
fn hexadecimal_codes_shift_too() {
    let mut shifted = 0;
    for leading in [0u8, 4, 8, 12] {
        for d1 in 0..16u8 {
            for d2 in [0u8, 1, 2, 4, 8, 9, 15] {
                if check(&[leading, d1, d2], 40) {
                    shifted += 1;
                }
            }
        }
    }
    assert_eq!(shifted, 4 * 8 * 7 - 1);
}

#[test]
fn published_pairs() {
    let shift = |c: &str| {
        c.parse::<OctalCode>()
            .unwrap()
            .dead_heap_shift()
            .map(|b| b.to_string())
    };
    // Dawson's chess 0.137 is Dawson's Kayles 0.07 with a heap one larger
    // (Winning Ways, chapter 4); Czajka's tables group 0.6 with 0.37.
    assert_eq!(shift("0.07").as_deref(), Some("0.137"));
    assert_eq!(shift("0.6").as_deref(), Some("0.37"));
    assert_eq!(shift("4.0").as_deref(), Some("0.7"));
    assert_eq!(shift("0.0"), None);
    assert_eq!(shift("0.1"), None);
}

/// The 4-digit census's codes whose shift is in the census too, to a few
/// hundred values with the library's engine (the method a census uses).
#[test]
fn four_digit_codes_match_their_shift_with_the_engine() {
    let spec = CensusSpec::new(4, 0, 300).unwrap();
    let options = SequenceOptions::default();
    let mut checked = 0;
    // Every 7th code of the 4 096: a spread of digits, a few seconds.
    for (index, a) in spec.codes().step_by(7) {
        let Some(b) = a.dead_heap_shift() else {
            continue;
        };
        if spec.index_of(&b).is_none() {
            continue;
        }
        let ga = grundy_sequence(&HeapGame::Octal(a.clone()), 300, &options).unwrap();
        let gb = grundy_sequence(&HeapGame::Octal(b.clone()), 300, &options).unwrap();
        assert_eq!(ga.values.get(0), 0);
        for n in 1..=300usize {
            assert_eq!(
                ga.values.get(n),
                gb.values.get(n - 1),
                "{a} (index {index}) at {n} against {b}"
            );
        }
        checked += 1;
    }
    assert!(checked > 100, "{checked} codes checked");
}

/// A derived record is the computed record but for the mask and rare
/// counts (which describe the sparse method's run on the code itself):
/// every code of the 3-digit census with a root other than itself, to 1000.
#[test]
fn derived_records_equal_computed_ones_but_for_the_mask() {
    use nimatron::sequence::{CensusRecord, census_record};
    let spec = CensusSpec::new(3, 0, 1000).unwrap();
    let options = SequenceOptions::default();
    let mut derived = 0;
    let mut deep = 0;
    for (index, _) in spec.codes() {
        let (root, depth) = spec.shift_root(index);
        if depth == 0 {
            assert_eq!(root, index);
            continue;
        }
        let root_seq = grundy_sequence(&HeapGame::Octal(spec.code(root)), 1000, &options).unwrap();
        let got = CensusRecord::derived(&spec, index, &root_seq, depth);
        let mut want = census_record(&spec, index, &options).unwrap();
        want.mask = None;
        want.rare_count = None;
        want.last_rare = None;
        want.derived_from = Some(spec.code(root));
        assert_eq!(got, want, "{}", spec.code(index));
        derived += 1;
        if depth > 1 {
            deep += 1;
        }
    }
    // The 127 codes with d1 even and d3 without bit 4, less 0.0.
    assert_eq!(derived, 127);
    assert!(deep > 0, "chains of shifts occur (0.001 -> 0.01 -> 0.1)");
}
