//! Cross-checks of closed forms against plain search, for tests.
//!
//! Every formula-based game must agree with exhaustive search over small
//! positions: the outcome and the exact set of winning moves.

use std::collections::HashSet;
use std::fmt::Debug;
use std::hash::Hash;

use crate::facade::Theory;
use crate::solve::{GrundySolver, Limits, OutcomeSearch};
use crate::{Convention, Nimber, Outcome};

/// Compare `game`'s closed form with search on every position given, under
/// each of the game's conventions. Returns how many (position, convention)
/// pairs had a closed form, or a description of the first disagreement.
///
/// Under normal play the Grundy value, when the closed form states one, is
/// also compared with the Grundy solver's.
pub fn closed_form_agrees_with_search<G>(
    game: &G,
    positions: impl IntoIterator<Item = G::Position>,
) -> Result<usize, String>
where
    G: Theory,
    G::Move: Hash + Debug,
{
    let positions: Vec<G::Position> = positions.into_iter().collect();
    let mut checked = 0;
    for &convention in game.conventions() {
        let mut search = OutcomeSearch::new(game, convention, Limits::default());
        let mut grundy = GrundySolver::new(game, Limits::default());
        for p in &positions {
            let Some(verdict) = game.closed_form(p, convention) else {
                continue;
            };
            checked += 1;
            let outcome = search
                .outcome(p)
                .map_err(|e| format!("{convention} {p:?}: {e}"))?;
            if verdict.outcome != outcome {
                return Err(format!(
                    "{convention} {p:?}: closed form says {}, search says {outcome}",
                    verdict.outcome
                ));
            }
            let ours: HashSet<G::Move> = verdict.winning_moves.iter().cloned().collect();
            let theirs: HashSet<G::Move> = search
                .winning_moves(p)
                .map_err(|e| format!("{convention} {p:?}: {e}"))?
                .into_iter()
                .collect();
            if ours != theirs {
                return Err(format!(
                    "{convention} {p:?}: winning moves differ: closed form {ours:?}, search {theirs:?}"
                ));
            }
            if outcome == Outcome::P && !ours.is_empty() {
                return Err(format!(
                    "{convention} {p:?}: a P-position with winning moves"
                ));
            }
            if let (Convention::Normal, Some(g)) = (convention, verdict.grundy) {
                let solved: Nimber = grundy.grundy(p).map_err(|e| format!("{p:?}: {e}"))?;
                if g != solved {
                    return Err(format!(
                        "{p:?}: closed form Grundy value {g}, solver {solved}"
                    ));
                }
            }
        }
    }
    Ok(checked)
}

/// Every vector of `len` values in `0..=max`.
pub fn all_tuples(len: usize, max: u64) -> Vec<Vec<u64>> {
    let mut out = vec![vec![]];
    for _ in 0..len {
        out = out
            .into_iter()
            .flat_map(|p: Vec<u64>| {
                (0..=max).map(move |v| {
                    let mut q = p.clone();
                    q.push(v);
                    q
                })
            })
            .collect();
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::nim::Nim;

    #[test]
    fn nim_closed_form_agrees() {
        let positions: Vec<Vec<u64>> = (1..=3).flat_map(|k| all_tuples(k, 5)).collect();
        let checked = closed_form_agrees_with_search(&Nim, positions).unwrap();
        assert_eq!(checked, 2 * (6 + 36 + 216));
    }
}
