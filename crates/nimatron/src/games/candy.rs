//! Candy Nim (Rubinstein-Salzedo): normal-play Nim in which every object
//! is a candy kept by whoever takes it. The first goal is to take the last
//! candy; the second, to take as many candies as possible. The winner (who
//! can force the last candy) plays only winning moves and, among them,
//! maximises their candies; the loser maximises theirs.
//!
//! Who wins is Bouton's theorem. The candy split is computed by
//! [`candy_split`], a memoised search over sorted heaps.

use std::collections::HashMap;

use crate::explain::{describe_move, explain_nim};
use crate::games::heaps;
use crate::heap_notation;
use crate::heap_notation::heap_name;
use crate::nim::{self, HeapMove};
use crate::solve::{Limits, SolveError};
use crate::{Convention, Rules};
use crate::{Description, MoveError, Notation, PositionError, PositionValue, Theory, Verdict};

pub use crate::analysis::CandySplit;

fn key(heaps: &[u64]) -> Vec<u64> {
    let mut k: Vec<u64> = heaps.iter().copied().filter(|&h| h > 0).collect();
    k.sort_unstable();
    k
}

/// The options that matter for the player to move from sorted `heaps`:
/// the winning moves when the nim-sum is not 0, else every move; each with
/// the candies it takes and the sorted heaps it leaves.
fn relevant_options(heaps: &[u64]) -> Vec<(HeapMove, u64, Vec<u64>)> {
    let x = nim::nim_sum(heaps).value();
    let mut out = Vec::new();
    for (i, &h) in heaps.iter().enumerate() {
        if x != 0 {
            let target = h ^ x;
            if target < h {
                let mv = HeapMove {
                    heap: i,
                    take: h - target,
                };
                out.push((mv, h - target, key(&mv.apply(heaps))));
            }
        } else {
            for take in 1..=h {
                let mv = HeapMove { heap: i, take };
                out.push((mv, take, key(&mv.apply(heaps))));
            }
        }
    }
    out
}

/// (winner's candies, loser's candies) from a position whose relevant
/// children are all in `memo`.
fn combine(heaps: &[u64], memo: &HashMap<Vec<u64>, (u64, u64)>) -> ((u64, u64), Vec<HeapMove>) {
    let total: u64 = heaps.iter().sum();
    if total == 0 {
        return ((0, 0), Vec::new());
    }
    let mover_wins = !nim::nim_sum(heaps).is_zero();
    let mut best = 0u64;
    let mut moves = Vec::new();
    for (mv, take, child) in relevant_options(heaps) {
        let (w, l) = memo[&child];
        // The mover is the winner here and the previous mover (loser) in
        // the child when the mover wins; the child's loser otherwise.
        let mine = take + if mover_wins { w } else { l };
        if mine > best || moves.is_empty() {
            if mine > best {
                moves.clear();
            }
            best = mine;
            moves.push(mv);
        } else if mine == best {
            moves.push(mv);
        }
    }
    let split = if mover_wins {
        (best, total - best)
    } else {
        (total - best, best)
    };
    (split, moves)
}

/// The Candy Nim split from `heaps` under optimal play, searching at most
/// `limits.max_states` positions.
///
/// ```
/// use nimatron::games::candy_split;
/// // Rubinstein-Salzedo: from (1,2,3) the loser, moving first, gets 4
/// // candies and the winner 2.
/// let split = candy_split(&[1, 2, 3], Default::default())?;
/// assert!(!split.mover_wins);
/// assert_eq!((split.loser_candies, split.winner_candies), (4, 2));
/// # Ok::<(), nimatron::solve::SolveError>(())
/// ```
pub fn candy_split(heaps: &[u64], limits: Limits) -> Result<CandySplit, SolveError> {
    // Every position has about `total` options of `heaps.len()` heaps each.
    let total: u128 = heaps.iter().map(|&h| h as u128).sum();
    if total * heaps.len() as u128 > 100_000_000 {
        return Err(SolveError::TooLarge {
            reason: format!(
                "the candy split of {} heaps holding {total} candies is beyond a bounded search",
                heaps.len()
            ),
        });
    }
    let root = key(heaps);
    let mut budget = limits.budget();
    let mut memo: HashMap<Vec<u64>, (u64, u64)> = HashMap::new();
    // Depth-first with an explicit stack: (position, its relevant children).
    let mut stack: Vec<(Vec<u64>, Vec<Vec<u64>>)> = Vec::new();
    let children = |p: &[u64]| -> Vec<Vec<u64>> {
        let mut c: Vec<Vec<u64>> = relevant_options(p).into_iter().map(|o| o.2).collect();
        c.sort_unstable();
        c.dedup();
        c
    };
    stack.push((root.clone(), children(&root)));
    while let Some((p, pending)) = stack.last_mut() {
        while pending.last().is_some_and(|c| memo.contains_key(c)) {
            pending.pop();
        }
        match pending.last() {
            Some(c) => {
                let c = c.clone();
                let grandchildren = children(&c);
                stack.push((c, grandchildren));
            }
            None => {
                budget.check(memo.len())?;
                let (split, _) = combine(p, &memo);
                let p = p.clone();
                stack.pop();
                memo.insert(p, split);
            }
        }
    }
    let ((winner_candies, loser_candies), _) = combine(&root, &memo);
    // The best moves, in the caller's heap order.
    let mover_wins = !nim::nim_sum(heaps).is_zero();
    let best_moves = relevant_options(heaps)
        .into_iter()
        .filter(|(_, take, child)| {
            let (w, l) = memo[child];
            let mine = take + if mover_wins { w } else { l };
            mine == if mover_wins {
                winner_candies
            } else {
                loser_candies
            }
        })
        .map(|o| o.0)
        .collect();
    Ok(CandySplit {
        mover_wins,
        winner_candies,
        loser_candies,
        best_moves,
        states: memo.len(),
    })
}

/// Candy Nim.
#[derive(Clone, Copy, Debug, Default)]
pub struct CandyNim;

const POSITION_SYNTAX: &str =
    "heap sizes (candies per heap) separated by spaces or commas, e.g. '1 2 3'";

impl Rules for CandyNim {
    type Position = Vec<u64>;
    type Move = HeapMove;

    fn moves(&self, heaps: &Vec<u64>) -> Vec<HeapMove> {
        (0..heaps.len())
            .flat_map(|heap| (1..=heaps[heap]).map(move |take| HeapMove { heap, take }))
            .collect()
    }

    fn apply(&self, heaps: &Vec<u64>, mv: &HeapMove) -> Vec<u64> {
        mv.apply(heaps)
    }
    /// Checked directly: a huge heap has too many moves to list.
    fn is_legal(&self, heaps: &Vec<u64>, mv: &HeapMove) -> bool {
        heaps
            .get(mv.heap)
            .is_some_and(|&h| (1..=h).contains(&mv.take))
    }

    fn components(&self, heaps: &Vec<u64>) -> Vec<Vec<u64>> {
        heaps::components(heaps)
    }

    fn canonical(&self, heaps: &Vec<u64>) -> Vec<u64> {
        key(heaps)
    }
}

impl Notation for CandyNim {
    fn parse_position(&self, text: &str) -> Result<Vec<u64>, PositionError> {
        let heaps = heap_notation::parse_heaps(text, POSITION_SYNTAX)?;
        // Candies are counted: the total must be a u64 too.
        if heaps
            .iter()
            .try_fold(0u64, |a, &h| a.checked_add(h))
            .is_none()
        {
            return Err(PositionError::new(
                "the heaps hold more than 18446744073709551615 candies in all",
                POSITION_SYNTAX,
            ));
        }
        Ok(heaps)
    }
    fn format_position(&self, heaps: &Vec<u64>) -> String {
        heap_notation::format_heaps(heaps)
    }
    fn position_value(&self, heaps: &Vec<u64>) -> PositionValue {
        PositionValue::Heaps(heaps.clone())
    }
    fn start_position(&self) -> Option<Vec<u64>> {
        Some(vec![3, 4, 5])
    }
    fn parse_move(&self, heaps: &Vec<u64>, input: &str) -> Result<HeapMove, MoveError> {
        let (heap, take) = heap_notation::parse_heap_and_count(input, heaps)?;
        Ok(HeapMove { heap, take })
    }
    fn format_move(&self, _heaps: &Vec<u64>, mv: &HeapMove) -> String {
        format!("{} {}", heap_name(mv.heap), mv.take)
    }
    fn describe_move(&self, heaps: &Vec<u64>, mv: &HeapMove) -> String {
        describe_move(mv, heaps)
    }
    fn heap_move(&self, _heaps: &Vec<u64>, mv: &HeapMove) -> Option<(usize, u64)> {
        Some((mv.heap, mv.take))
    }
    fn render(&self, heaps: &Vec<u64>) -> String {
        let mut s = heap_notation::render_heaps(heaps);
        s.push_str(&format!(
            "  position: {}\n",
            heap_notation::format_heaps(heaps)
        ));
        s
    }
    fn material(&self, heaps: &Vec<u64>) -> u64 {
        heaps::total(heaps)
    }
    /// The computer plays Candy Nim: the candy-best moves when the split
    /// can be computed, else every move.
    fn candidate_moves(&self, heaps: &Vec<u64>) -> Vec<HeapMove> {
        match candy_split(heaps, Limits::states(200_000)) {
            Ok(split) if !split.best_moves.is_empty() => split.best_moves,
            _ => self.moves(heaps),
        }
    }
    fn position_syntax(&self) -> &'static str {
        POSITION_SYNTAX
    }
    fn move_syntax(&self) -> String {
        String::from(
            "'A 2', 'a2' or 'take 2 from A' take 2 candies from heap A; 'A all' empties heap A",
        )
    }
    /// Every move removes at least one object.
    fn moves_left_bound(&self, heaps: &Vec<u64>) -> Option<u64> {
        Some(heaps.iter().fold(0u64, |a, &h| a.saturating_add(h)))
    }
}

impl Theory for CandyNim {
    fn description(&self) -> Description {
        Description {
            rules: "Normal-play Nim with candies: a move takes any positive number of candies from one heap, and the player keeps them. The first goal is to take the last candy; the second is to end with as many candies as possible. The winner (who can force the last candy) plays only winning moves and, among them, maximises their candies; the loser maximises theirs.",
            example: "1 2 3",
            theory: "Who wins is Bouton's theorem. The candy split comes from a memoised search over sorted heaps: from an N-position the winner picks, among the moves to nim-sum 0, one maximising their candies; from a P-position the loser picks, among all moves, one maximising theirs. The analysis lists every winning move (candy-best first) and reports the split (the `candy` field of the analysis and its JSON). Rubinstein-Salzedo's examples, loser moving first from a P-position (loser/winner): (1,2,3) 4/2, (2,4,6) 9/3, (1,1,2,2,3,3) 6/6, (8,16,24) 41/7. Checked against a plain recursion on unsorted heaps for every position of up to 3 heaps of up to 5.",
            citation: "S. Rubinstein-Salzedo, \"P Play in Candy Nim\", arXiv:1805.07019 (2018); C. L. Bouton (1901-1902).",
        }
    }

    fn conventions(&self) -> &'static [Convention] {
        &[Convention::Normal]
    }

    fn convention_note(&self) -> &'static str {
        "Candy Nim is defined for normal play (whoever takes the last candy wins), so misère play is not offered"
    }

    fn closed_form(&self, heaps: &Vec<u64>, convention: Convention) -> Option<Verdict<HeapMove>> {
        self.closed_form_within(heaps, convention, Limits::default())
            .ok()
            .flatten()
    }

    fn closed_form_within(
        &self,
        heaps: &Vec<u64>,
        convention: Convention,
        limits: Limits,
    ) -> Result<Option<Verdict<HeapMove>>, SolveError> {
        if convention != Convention::Normal {
            return Ok(None);
        }
        let a = nim::analyze(heaps, Convention::Normal);
        let mut winning: Vec<HeapMove> = a.winning_moves(heaps).collect();
        let mut explanation = format!(
            "Who takes the last candy is decided as in Nim.\n{}",
            explain_nim(heaps, &a)
        );
        let mut details = crate::Details {
            nim: Some(crate::NimDetail {
                nim_sum: a.nim_sum,
                regime: a.regime,
            }),
            candy: None,
            unlisted_winning: 0,
            misere: None,
        };
        match candy_split(heaps, limits) {
            Ok(split) => {
                // Candy-best winning moves first.
                winning.sort_by_key(|m| !split.best_moves.contains(m));
                let best: Vec<String> = split
                    .best_moves
                    .iter()
                    .map(|m| describe_move(m, heaps))
                    .collect();
                let total = heaps::total(heaps);
                explanation.push_str(&format!(
                    "\nCandies: {total} in all. With both players playing Candy Nim perfectly, the {} wins and the split is winner {} / loser {} (the player to move gets {}, the opponent {}). {} best move{}: {}.\n",
                    if split.mover_wins {
                        "player to move"
                    } else {
                        "opponent"
                    },
                    split.winner_candies,
                    split.loser_candies,
                    split.mover_candies(),
                    split.opponent_candies(),
                    if split.mover_wins {
                        "The winner's"
                    } else {
                        "The loser's"
                    },
                    if split.best_moves.len() == 1 { " is" } else { "s are" },
                    if best.is_empty() {
                        "none (no candies left)".to_string()
                    } else {
                        best.join("; ")
                    },
                ));
                details.candy = Some(split);
            }
            Err(e) => explanation.push_str(&format!("\nThe candy split was not computed: {e}.\n")),
        }
        Ok(Some(Verdict {
            details,
            outcome: a.outcome,
            grundy: Some(a.nim_sum),
            winning_moves: winning,
            explanation,
            theorem: "Bouton's theorem; candy split by memoised search".to_string(),
        }))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Adapter;
    use crate::check::TextGame;
    use crate::check::{all_tuples, closed_form_agrees_with_search};

    /// Plain recursion on the heaps as given (no sorting, no memo):
    /// (candies of the player to move, candies of the opponent).
    fn naive(heaps: &[u64]) -> (u64, u64) {
        let total: u64 = heaps.iter().sum();
        if total == 0 {
            return (0, 0);
        }
        let wins = heaps.iter().fold(0, |a, &h| a ^ h) != 0;
        let mut best: Option<(u64, u64)> = None;
        for i in 0..heaps.len() {
            for take in 1..=heaps[i] {
                let mut after = heaps.to_vec();
                after[i] -= take;
                let after_wins = after.iter().fold(0, |a, &h| a ^ h) != 0;
                if wins && after_wins {
                    continue; // the winner plays only winning moves
                }
                let (theirs, mine_later) = naive(&after);
                let mine = take + mine_later;
                if best.is_none_or(|(b, _)| mine > b) {
                    best = Some((mine, theirs));
                }
            }
        }
        best.expect("a move")
    }

    #[test]
    fn published_vectors() {
        // Rubinstein-Salzedo, arXiv:1805.07019: the loser moves first from a
        // P-position; loser's candies / winner's candies.
        for (heaps, loser, winner) in [
            (vec![1, 2, 3], 4, 2),
            (vec![2, 4, 6], 9, 3),
            (vec![1, 1, 2, 2, 3, 3], 6, 6),
            (vec![8, 16, 24], 41, 7),
        ] {
            let split = candy_split(&heaps, Limits::default()).unwrap();
            assert!(!split.mover_wins, "{heaps:?}");
            assert_eq!(
                (split.loser_candies, split.winner_candies),
                (loser, winner),
                "{heaps:?}"
            );
        }
    }

    #[test]
    fn agrees_with_plain_recursion() {
        for heaps in (1..=3).flat_map(|k| all_tuples(k, 5)) {
            let split = candy_split(&heaps, Limits::default()).unwrap();
            assert_eq!(
                (split.mover_candies(), split.opponent_candies()),
                naive(&heaps),
                "{heaps:?}"
            );
            // Every best move achieves the split.
            for mv in &split.best_moves {
                let after = mv.apply(&heaps);
                let (theirs, mine_later) = naive(&after);
                assert_eq!(
                    mv.take + mine_later,
                    split.mover_candies(),
                    "{heaps:?} {mv:?}"
                );
                assert_eq!(theirs, split.opponent_candies());
            }
        }
        // Win/loss and winning moves are Bouton's, checked against search.
        let positions: Vec<Vec<u64>> = (1..=3).flat_map(|k| all_tuples(k, 4)).collect();
        closed_form_agrees_with_search(&CandyNim, positions).unwrap();
    }

    #[test]
    fn analysis_reports_the_split_and_stops_at_the_limit() {
        let adapter = Adapter::new(crate::GameSpec::Candy, CandyNim);
        let a = adapter
            .analyze_text("8 16 24", Convention::Normal, Limits::default())
            .unwrap();
        assert!(
            a.explanation.contains("winner 7 / loser 41"),
            "{}",
            a.explanation
        );
        let split = a.details.candy.as_ref().expect("a typed split");
        assert_eq!((split.winner_candies, split.loser_candies), (7, 41));
        assert!(!a.explanation.contains("candy: {"), "{}", a.explanation);
        let a = adapter
            .analyze_text("1 2 4", Convention::Normal, Limits::default())
            .unwrap();
        assert_eq!(a.winning_moves.len(), 1);
        assert!(a.explanation.contains("The winner's best move is"));
        let a = adapter
            .analyze_text("30 40 50 60", Convention::Normal, Limits::states(100))
            .unwrap();
        assert!(a.explanation.contains("not computed"), "{}", a.explanation);
        assert!(a.explanation.contains("limit of 100"), "{}", a.explanation);
        assert!(a.details.candy.is_none());
        assert!(
            adapter
                .analyze_text("1 2", Convention::Misere, Limits::default())
                .is_err()
        );
    }
}
