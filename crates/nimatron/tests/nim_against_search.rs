//! Bouton's closed form against a deliberately plain minimax: every position
//! of up to 4 heaps of sizes up to 7, both conventions. The outcome and the
//! exact set of winning moves must match.

use std::collections::{BTreeSet, HashMap};

use nimatron::nim::{self, HeapMove};
use nimatron::{Convention, Outcome};

/// True when the player to move wins. No theory: try every move.
fn wins(heaps: &[u64], convention: Convention, memo: &mut HashMap<Vec<u64>, bool>) -> bool {
    if let Some(&w) = memo.get(heaps) {
        return w;
    }
    let mut any_move = false;
    let mut result = false;
    'outer: for i in 0..heaps.len() {
        for take in 1..=heaps[i] {
            any_move = true;
            let mut next = heaps.to_vec();
            next[i] -= take;
            if !wins(&next, convention, memo) {
                result = true;
                break 'outer;
            }
        }
    }
    if !any_move {
        // No move: normal play, the player to move has lost; misère, won.
        result = convention == Convention::Misere;
    }
    memo.insert(heaps.to_vec(), result);
    result
}

fn brute_winning_moves(
    heaps: &[u64],
    convention: Convention,
    memo: &mut HashMap<Vec<u64>, bool>,
) -> BTreeSet<HeapMove> {
    let mut moves = BTreeSet::new();
    for i in 0..heaps.len() {
        for take in 1..=heaps[i] {
            let mut next = heaps.to_vec();
            next[i] -= take;
            if !wins(&next, convention, memo) {
                moves.insert(HeapMove { heap: i, take });
            }
        }
    }
    moves
}

fn all_positions(max_heaps: usize, max_size: u64) -> Vec<Vec<u64>> {
    let mut out = vec![vec![]];
    let mut frontier = vec![vec![]];
    for _ in 0..max_heaps {
        let mut next = Vec::new();
        for p in &frontier {
            for s in 0..=max_size {
                let mut q: Vec<u64> = p.clone();
                q.push(s);
                next.push(q);
            }
        }
        out.extend(next.iter().cloned());
        frontier = next;
    }
    out
}

#[test]
fn bouton_matches_exhaustive_search_up_to_4_heaps_of_7() {
    let positions = all_positions(4, 7);
    assert_eq!(positions.len(), 1 + 8 + 64 + 512 + 4096);
    for convention in [Convention::Normal, Convention::Misere] {
        let mut memo = HashMap::new();
        let mut p_count = 0;
        for heaps in &positions {
            let expected_win = wins(heaps, convention, &mut memo);
            let analysis = nim::analyze(heaps, convention);
            assert_eq!(
                analysis.outcome,
                Outcome::from_to_move_wins(expected_win),
                "{convention} {heaps:?}"
            );
            let ours: BTreeSet<HeapMove> = analysis.winning_moves(heaps).collect();
            let brute = brute_winning_moves(heaps, convention, &mut memo);
            assert_eq!(ours, brute, "{convention} {heaps:?}");
            if !expected_win {
                p_count += 1;
            }
        }
        // The test must have seen both kinds of position.
        assert!(p_count > 100 && p_count < positions.len() / 2, "{p_count}");
    }
}
