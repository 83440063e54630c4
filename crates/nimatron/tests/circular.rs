//! Circular Nim against independent truth: Wikipedia's worked example, a
//! plain search over every small ring pattern written here from the rules
//! alone (bit masks, no arcs, no Grundy values), and row values against a
//! naive game-tree computation and the published Kayles values.

use nimatron::TextGame;
use std::collections::{BTreeSet, HashMap};

use nimatron::games::circular::{Circular, row_grundy_values};
use nimatron::solve::Limits;
use nimatron::{Convention, Game, GameSpec, Nimber, Outcome};

fn game(spec: &str) -> Box<dyn Game> {
    spec.parse::<GameSpec>()
        .expect("spec")
        .build()
        .expect("game")
}

/// Wikipedia's example: a ring of ten; three are taken (across the join),
/// then three more, then one; "but then three objects cannot be taken out
/// in one move".
#[test]
fn the_seeds_circular_example() {
    let g = game("circular");
    let start = g.parse_position("10").unwrap();
    assert_eq!(start, "..........");
    assert_eq!(g.parse_position(". . . . . . . . . .").unwrap(), start);
    let steps = [
        ("9-1", "_ . . . . . . . _ _"),
        ("3-5", "_ . _ _ _ . . . _ _"),
        ("8", "_ . _ _ _ . . _ _ _"),
    ];
    let mut position = start;
    for (typed, drawn) in steps {
        let mv = g.parse_move_text(&position, typed).unwrap();
        let expected = g.parse_position(drawn).unwrap();
        assert_eq!(mv.to_text, expected, "{typed}");
        // The move is one of the listed legal moves.
        assert!(
            g.legal_moves_text(&position)
                .unwrap()
                .iter()
                .any(|m| m.to_text == expected),
            "{typed}"
        );
        position = mv.to_text;
    }
    // No legal move takes three objects now: the arcs are 2 and 1.
    let legal = g.legal_moves_text(&position).unwrap();
    assert!(!legal.is_empty());
    for m in &legal {
        let left = m.to_text.matches('.').count();
        assert!(3 - left <= 2, "{} takes three", m.notation);
    }
    for typed in ["6-8", "5-7", "1-3", "2 6 7"] {
        assert!(g.parse_move_text(&position, typed).is_err(), "{typed}");
    }
}

#[test]
fn move_notation_and_errors() {
    let g = game("circular");
    // Places: 1 . 2 _ 3 . 4 . 5 . 6 _ 7 . 8 .
    let ring = "._..._..";
    for (typed, to) in [
        ("1", "__..._.."),
        ("3-5", "._____.."),
        ("take 3 4 5", "._____.."),
        ("5,4", "._.___.."),
        ("7-1", "__...___"),
        ("8-1", "__..._._"),
    ] {
        assert_eq!(
            g.parse_move_text(ring, typed).unwrap().to_text,
            to,
            "{typed}"
        );
    }
    assert_eq!(g.parse_move_text(ring, "7-1").unwrap().notation, "7-1");
    for (typed, says) in [
        ("2", "place 2 has no object"),
        ("4-7", "place 6 has no object"),
        ("3 5", "places 3, 5 are not adjacent"),
        ("9", "'9' is not a place"),
        ("0", "'0' is not a place"),
        ("x", "'x' is not a place"),
        ("", "is not a move"),
    ] {
        let e = g.parse_move_text(ring, typed).unwrap_err().to_string();
        assert!(e.contains(says), "{typed}: {e}");
    }
    let e = g.parse_move_text("10", "1-4").unwrap_err().to_string();
    assert!(e.contains("takes 4 objects; a move takes 1 to 3"), "{e}");
    let e = g.parse_move_text("10", "5-3").unwrap_err().to_string();
    assert!(e.contains("write 3-5"), "{e}");
    // A whole small ring can go at once, from any starting place.
    let g = game("circular:4");
    assert_eq!(g.parse_move_text("3", "2-1").unwrap().to_text, "___");
    assert_eq!(
        g.legal_moves_text("3")
            .unwrap()
            .iter()
            .filter(|m| m.to_text == "___")
            .count(),
        1
    );
}

#[test]
fn bad_positions() {
    let g = game("circular");
    for (text, says) in [
        ("._x.", "'x' (character 3"),
        ("0", "out of range"),
        ("1001", "out of range"),
        ("-3", "neither a ring size"),
        ("", "no ring"),
    ] {
        let e = g.parse_position(text).unwrap_err().to_string();
        assert!(e.contains(says), "{text}: {e}");
    }
    assert_eq!(g.parse_position(" _ . . _ ").unwrap(), "_.._");
}

/// Circular Nim straight from the rules: a ring of `n` places as a bit
/// mask; a move clears 1 to `k` consecutive occupied places (mod n).
struct PlainRing {
    n: usize,
    k: usize,
    convention: Convention,
    memo: HashMap<u32, bool>,
}

impl PlainRing {
    fn options(&self, mask: u32) -> BTreeSet<u32> {
        let mut out = BTreeSet::new();
        for start in 0..self.n {
            for len in 1..=self.k.min(self.n) {
                let cells: u32 = (0..len).map(|i| 1 << ((start + i) % self.n)).sum();
                if mask & cells == cells {
                    out.insert(mask & !cells);
                }
            }
        }
        out
    }

    fn wins(&mut self, mask: u32) -> bool {
        if let Some(&w) = self.memo.get(&mask) {
            return w;
        }
        let options = self.options(mask);
        let w = if options.is_empty() {
            self.convention == Convention::Misere
        } else {
            options.into_iter().any(|o| !self.wins(o))
        };
        self.memo.insert(mask, w);
        w
    }
}

fn pattern(mask: u32, n: usize) -> String {
    (0..n)
        .map(|i| if mask >> i & 1 == 1 { '.' } else { '_' })
        .collect()
}

fn mask_of(text: &str) -> u32 {
    text.chars()
        .enumerate()
        .filter(|&(_, c)| c == '.')
        .map(|(i, _)| 1 << i)
        .sum()
}

/// Every ring pattern of up to `max_places` places, both conventions: the
/// outcome and the exact set of winning moves agree with the plain search.
fn agrees_with_plain_search(k: usize, max_places: usize) {
    let g = game(&format!("circular:{k}"));
    for convention in [Convention::Normal, Convention::Misere] {
        for n in 1..=max_places {
            let mut plain = PlainRing {
                n,
                k,
                convention,
                memo: HashMap::new(),
            };
            for mask in 0u32..1 << n {
                let text = pattern(mask, n);
                let a = g
                    .analyze_text(&text, convention, Limits::default())
                    .unwrap_or_else(|e| panic!("{text}: {e}"));
                let expected = Outcome::from_to_move_wins(plain.wins(mask));
                assert_eq!(a.outcome, expected, "circular:{k} {convention} {text}");
                let ours: Vec<u32> = a
                    .winning_moves
                    .iter()
                    .map(|m| mask_of(&m.to_text))
                    .collect();
                let ours_set: BTreeSet<u32> = ours.iter().copied().collect();
                assert_eq!(ours.len(), ours_set.len(), "{text}: a move listed twice");
                let theirs: BTreeSet<u32> = plain
                    .options(mask)
                    .into_iter()
                    .filter(|&o| !plain.wins(o))
                    .collect();
                assert_eq!(ours_set, theirs, "circular:{k} {convention} {text}");
            }
        }
    }
}

#[test]
fn k3_agrees_with_plain_search_up_to_12_places() {
    agrees_with_plain_search(3, 12);
}

#[test]
fn k1_k2_k4_agree_with_plain_search_up_to_10_places() {
    for k in [1, 2, 4] {
        agrees_with_plain_search(k, 10);
    }
}

/// Row values by a naive game tree on bit masks (no splitting into parts,
/// no XOR): the mex of the values of the rows a move leaves.
fn naive_row_value(mask: u32, len: usize, k: usize, memo: &mut HashMap<u32, u64>) -> u64 {
    if let Some(&v) = memo.get(&mask) {
        return v;
    }
    let mut seen = BTreeSet::new();
    for start in 0..len {
        for take in 1..=k {
            if start + take > len {
                break;
            }
            let cells: u32 = ((1u32 << take) - 1) << start;
            if mask & cells == cells {
                seen.insert(naive_row_value(mask & !cells, len, k, memo));
            }
        }
    }
    let v = (0..).find(|v| !seen.contains(v)).expect("a gap");
    memo.insert(mask, v);
    v
}

#[test]
fn row_values_agree_with_a_naive_game_tree() {
    for k in 1..=3 {
        let table = row_grundy_values(k, 14);
        for (len, &value) in table.iter().enumerate() {
            let mut memo = HashMap::new();
            let naive = naive_row_value((1u32 << len) - 1, len, k, &mut memo);
            assert_eq!(value, Nimber(naive), "K = {k}, row of {len}");
        }
    }
}

/// Kayles (K = 2) and Double Kayles (K = 4), from the published tables in
/// `tests/data/row_game_grundy_values.txt`.
#[test]
fn row_values_match_the_published_tables() {
    let data = include_str!("../../../tests/data/row_game_grundy_values.txt");
    let mut checked = 0;
    for line in data.lines().filter(|l| !l.starts_with('#')) {
        if let Some((k, values)) = line.split_once(':') {
            let k: usize = k.trim().parse().expect("K");
            let published: Vec<u64> = values
                .split(',')
                .map(|v| v.trim().parse().expect("value"))
                .collect();
            let ours: Vec<u64> = row_grundy_values(k, published.len() - 1)
                .iter()
                .map(|v| v.value())
                .collect();
            assert_eq!(ours, published, "K = {k}");
            checked += 1;
        } else {
            // "K period P from N": g(n + P) = g(n) for n >= N, not for N - 1.
            let words: Vec<usize> = line
                .split_whitespace()
                .filter_map(|w| w.parse().ok())
                .collect();
            let [k, period, from] = words[..] else {
                panic!("bad line {line}")
            };
            let g = row_grundy_values(k, from + 10 * period);
            for n in from..from + 9 * period {
                assert_eq!(g[n + period], g[n], "K = {k}, n = {n}");
            }
            assert_ne!(
                g[from - 1 + period],
                g[from - 1],
                "K = {k}: {} is the last exception",
                from - 1
            );
            checked += 1;
        }
    }
    assert_eq!(checked, 4);
}

/// The typed game and the catalogue agree on what a row is worth.
#[test]
fn the_full_ring_of_ten_is_lost_for_the_first_player() {
    let g = game("circular");
    let a = g
        .analyze_text("10", Convention::Normal, Limits::default())
        .unwrap();
    assert_eq!(a.outcome, Outcome::P);
    assert_eq!(a.grundy, Some(Nimber(0)));
    let c = Circular::new(3);
    let rows = c.row_values(9);
    assert_eq!(c.full_ring_value(10, &rows), Nimber(0));
    assert!(a.explanation.contains("0.777"), "{}", a.explanation);
}
