//! Nim as a [`Game`](crate::Game): Bouton's closed form in both conventions.

use crate::explain::{describe_move, explain_nim};
use crate::games::heaps;
use crate::heap_notation;
use crate::nim::{self, HeapMove};
use crate::{Convention, Rules};
use crate::{Description, MoveError, Notation, PositionError, PositionValue, Theory, Verdict};

/// Nim: remove any positive number of objects from one heap.
#[derive(Clone, Copy, Debug, Default)]
pub struct Nim;

const POSITION_SYNTAX: &str = "heap sizes separated by spaces or commas, e.g. '3 4 5'";

impl Rules for Nim {
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

    /// Any non-empty heap can lose an object, so only the empty position
    /// is terminal (without listing every move of huge heaps).
    fn is_terminal(&self, heaps: &Vec<u64>) -> bool {
        heaps.iter().all(|&h| h == 0)
    }

    fn components(&self, heaps: &Vec<u64>) -> Vec<Vec<u64>> {
        heaps::components(heaps)
    }

    fn canonical(&self, heaps: &Vec<u64>) -> Vec<u64> {
        heaps::canonical(heaps)
    }
}

impl Notation for Nim {
    fn parse_position(&self, text: &str) -> Result<Vec<u64>, PositionError> {
        heap_notation::parse_heaps(text, POSITION_SYNTAX)
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
        format!("{} {}", crate::heap_notation::heap_name(mv.heap), mv.take)
    }
    fn describe_move(&self, heaps: &Vec<u64>, mv: &HeapMove) -> String {
        describe_move(mv, heaps)
    }
    fn heap_move(&self, _heaps: &Vec<u64>, mv: &HeapMove) -> Option<(usize, u64)> {
        Some((mv.heap, mv.take))
    }
    fn render(&self, heaps: &Vec<u64>) -> String {
        heap_notation::render_heaps(heaps)
    }
    fn material(&self, heaps: &Vec<u64>) -> u64 {
        heaps::total(heaps)
    }
    fn candidate_moves(&self, heaps: &Vec<u64>) -> Vec<HeapMove> {
        if heaps::total(heaps) <= 2000 {
            return self.moves(heaps);
        }
        let mut moves: Vec<HeapMove> = (0..heaps.len())
            .flat_map(|heap| {
                heaps::representative_takes(heaps[heap])
                    .into_iter()
                    .map(move |take| HeapMove { heap, take })
            })
            .collect();
        for convention in [Convention::Normal, Convention::Misere] {
            moves.extend(nim::analyze(heaps, convention).winning_moves(heaps));
        }
        moves.sort_unstable();
        moves.dedup();
        moves
    }
    fn position_syntax(&self) -> &'static str {
        POSITION_SYNTAX
    }
    fn move_syntax(&self) -> String {
        String::from(
            "'A 2', 'a2' or 'take 2 from A' take 2 objects from heap A; 'A all' empties heap A",
        )
    }
    /// Every move removes at least one object.
    fn moves_left_bound(&self, heaps: &Vec<u64>) -> Option<u64> {
        Some(heaps.iter().fold(0u64, |a, &h| a.saturating_add(h)))
    }
}

impl Theory for Nim {
    fn description(&self) -> Description {
        Description {
            rules: "Heaps of objects; a move removes any positive number of objects from one heap. Normal play: whoever takes the last object wins. Misère play: whoever takes the last object loses.",
            example: "3 4 5",
            theory: "Bouton's theorem: the player to move loses exactly when the nim-sum (XOR of the heap sizes) is 0; a winning move reduces a heap h to h XOR s when that is smaller. Misère play is the same until exactly one heap holds two or more objects; then the winner leaves an odd number of 1-heaps. Checked against exhaustive search over every position of up to 4 heaps of up to 7.",
            citation: "C. L. Bouton, \"Nim, a game with a complete mathematical theory\", Annals of Mathematics 3 (1901-1902) 35-39.",
        }
    }

    fn closed_outcome_within(
        &self,
        heaps: &Vec<u64>,
        convention: Convention,
        _limits: crate::Limits,
    ) -> Result<Option<crate::Outcome>, crate::solve::SolveError> {
        Ok(Some(nim::outcome(heaps, convention)))
    }

    fn closed_form(&self, heaps: &Vec<u64>, convention: Convention) -> Option<Verdict<HeapMove>> {
        let a = nim::analyze(heaps, convention);
        Some(Verdict {
            details: crate::Details {
                nim: Some(crate::NimDetail {
                    nim_sum: a.nim_sum,
                    regime: a.regime,
                }),
                candy: None,
                unlisted_winning: 0,
                misere: None,
            },
            outcome: a.outcome,
            grundy: Some(a.nim_sum),
            winning_moves: a.winning_moves(heaps).collect(),
            explanation: explain_nim(heaps, &a),
            theorem: match a.regime {
                nim::Regime::Bouton => "Bouton's theorem".to_string(),
                nim::Regime::MisereEndgame => "misère Nim endgame rule".to_string(),
                nim::Regime::MisereOnesOnly => "misère Nim with 1-heaps only".to_string(),
            },
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The cheap outcome the computer judges moves by is the verdict's.
    #[test]
    fn the_closed_outcome_is_the_closed_forms() {
        let limits = crate::Limits::default();
        for a in 0..6u64 {
            for b in 0..6 {
                for c in 0..6 {
                    let heaps = vec![a, b, c];
                    for convention in [Convention::Normal, Convention::Misere] {
                        let verdict = Nim.closed_form(&heaps, convention).unwrap();
                        let outcome = Nim.closed_outcome_within(&heaps, convention, limits);
                        assert_eq!(outcome.unwrap(), Some(verdict.outcome), "{heaps:?}");
                    }
                }
            }
        }
    }
}
