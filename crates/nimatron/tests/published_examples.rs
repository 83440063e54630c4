//! Every worked example in Wikipedia's *Nim*, cut-the-knot's page on Nim and the student report on Nim games (README, References), as a test.

use nimatron::nim::{self, HeapMove};
use nimatron::{Convention, Nimber, Outcome, explain_position};

fn moves(heaps: &[u64], convention: Convention) -> Vec<HeapMove> {
    nim::analyze(heaps, convention)
        .winning_moves(heaps)
        .collect()
}

fn mv(heap: usize, take: u64) -> HeapMove {
    HeapMove { heap, take }
}

/// Bob and Alice, normal play from 3 4 5. Bob follows the winning strategy:
/// each of his moves must be a winning move, each of Alice's positions a
/// P-position for her (she is to move and loses).
#[test]
fn bob_and_alice() {
    // (heaps before, heap, take, who)
    let game: [([u64; 3], usize, u64, &str); 9] = [
        ([3, 4, 5], 0, 2, "Bob"),
        ([1, 4, 5], 2, 3, "Alice"),
        ([1, 4, 2], 1, 1, "Bob"),
        ([1, 3, 2], 1, 1, "Alice"),
        ([1, 2, 2], 0, 1, "Bob"),
        ([0, 2, 2], 1, 1, "Alice"),
        ([0, 1, 2], 2, 1, "Bob"),
        ([0, 1, 1], 1, 1, "Alice"),
        ([0, 0, 1], 2, 1, "Bob"),
    ];
    for (heaps, heap, take, who) in game {
        let a = nim::analyze(&heaps, Convention::Normal);
        if who == "Bob" {
            assert_eq!(a.outcome, Outcome::N, "{heaps:?}");
            assert!(
                moves(&heaps, Convention::Normal).contains(&mv(heap, take)),
                "{heaps:?}"
            );
        } else {
            assert_eq!(a.outcome, Outcome::P, "{heaps:?}");
        }
    }
    // "In misère play he would take 2 from C leaving [0, 1, 0]."
    assert_eq!(moves(&[0, 1, 2], Convention::Misere), vec![mv(2, 2)]);
    // Bob takes the entire C heap and wins.
    assert_eq!(
        nim::analyze(&[0, 0, 0], Convention::Normal).outcome,
        Outcome::P
    );
}

/// The misère walkthrough from 3 4 5: at each of "my" turns the engine's
/// winning moves include the article's move, and the nim-sum column matches.
#[test]
fn misere_3_4_5_walkthrough() {
    // (heaps, published nim-sum, my move if it is my turn)
    let rows: [([u64; 3], u64, Option<HeapMove>); 8] = [
        ([3, 4, 5], 2, Some(mv(0, 2))),
        ([1, 4, 5], 0, None),
        ([1, 4, 3], 6, Some(mv(1, 2))),
        ([1, 2, 3], 0, None),
        ([1, 2, 2], 1, Some(mv(0, 1))),
        ([0, 2, 2], 0, None),
        ([0, 2, 1], 3, Some(mv(1, 2))),
        ([0, 0, 1], 1, None),
    ];
    for (heaps, published_sum, my_move) in rows {
        let a = nim::analyze(&heaps, Convention::Misere);
        assert_eq!(a.nim_sum, Nimber(published_sum), "{heaps:?}");
        match my_move {
            Some(m) => {
                assert_eq!(a.outcome, Outcome::N, "{heaps:?}");
                assert!(moves(&heaps, Convention::Misere).contains(&m), "{heaps:?}");
            }
            None => assert_eq!(a.outcome, Outcome::P, "{heaps:?}"),
        }
    }
    // At 0 2 1 the normal-play move differs: take 1 from B.
    assert_eq!(moves(&[0, 2, 1], Convention::Normal), vec![mv(1, 1)]);
}

/// The Python example's doctests: (heaps, misère answer, normal answer),
/// where an answer is the (heap index, amount) the article prints, or None for
/// "You will lose". Where the article prints one move, ours must include it.
/// A published answer: (heap index, amount), or None for "You will lose".
type Answer = Option<(usize, u64)>;

#[test]
#[allow(clippy::type_complexity)]
fn python_example_doctests() {
    let cases: [(&[u64], Answer, Answer); 6] = [
        (&[1, 2, 3], None, None),
        (&[1, 2, 4], Some((2, 1)), Some((2, 1))),
        (&[1], None, Some((0, 1))),
        (&[1, 1], Some((0, 1)), None),
        (&[1, 5], Some((1, 5)), Some((1, 4))),
        (&[3, 4, 5], Some((0, 2)), Some((0, 2))),
    ];
    for (heaps, misere, normal) in cases {
        for (convention, expected) in [(Convention::Misere, misere), (Convention::Normal, normal)] {
            let ours = moves(heaps, convention);
            match expected {
                None => assert!(ours.is_empty(), "{convention} {heaps:?}: {ours:?}"),
                Some((heap, take)) => {
                    assert!(
                        ours.contains(&mv(heap, take)),
                        "{convention} {heaps:?}: {ours:?}"
                    )
                }
            }
        }
    }
}

/// 19, 20, 21: X = 18, and every row has a winning move.
#[test]
fn nineteen_twenty_twentyone() {
    let heaps = [19, 20, 21];
    let a = nim::analyze(&heaps, Convention::Normal);
    assert_eq!(a.nim_sum, Nimber(18));
    assert_eq!(a.leading_bit(), 16);
    // Row 1: 19 → 20^21 = 1, row 2: 20 → 19^21 = 6, row 3: 21 → 19^20 = 7.
    assert_eq!(
        moves(&heaps, Convention::Normal),
        vec![mv(0, 18), mv(1, 14), mv(2, 14)]
    );
}

/// The report's worked example: (1, 3, 4) → reduce the third heap to 2.
#[test]
fn one_three_four() {
    let heaps = [1, 3, 4];
    let a = nim::analyze(&heaps, Convention::Normal);
    assert_eq!(a.nim_sum, Nimber(6));
    assert_eq!(moves(&heaps, Convention::Normal), vec![mv(2, 2)]);
    let text = explain_position(&heaps, Convention::Normal);
    assert!(text.contains("reduce C from 4 to 2"), "{text}");
}

/// Wikipedia's "nim-sum of heaps A, B, and C, 3 ⊕ 4 ⊕ 5 = 2" table, and the
/// three XORs A⊕X = 1, B⊕X = 6, C⊕X = 7.
#[test]
fn binary_columns_for_3_4_5() {
    let text = explain_position(&[3, 4, 5], Convention::Normal);
    for line in ["011", "100", "101", "010"] {
        assert!(text.contains(line), "{line} missing from\n{text}");
    }
    assert!(text.contains("3 ⊕ 2 = 1"), "{text}");
    assert!(text.contains("4 ⊕ 2 = 6"), "{text}");
    assert!(text.contains("5 ⊕ 2 = 7"), "{text}");
    assert!(text.contains("take 2 from heap A (3 → 1)"), "{text}");
}

/// The cut-the-knot examples: 1^4^5 = 0 and 3^5^6 = 0, while 3^5^8 = 14.
#[test]
fn xor_examples() {
    assert_eq!(nim::nim_sum(&[7, 11]), Nimber(0b1100));
    assert_eq!(nim::nim_sum(&[1, 4, 5]), Nimber(0));
    assert_eq!(nim::nim_sum(&[3, 5, 6]), Nimber(0));
    assert_eq!(nim::nim_sum(&[3, 5, 8]), Nimber(14));
}
