//! Cross-checks of closed forms against plain search, for tests.
//!
//! Every formula-based game must agree with exhaustive search over small
//! positions: the outcome and the exact set of winning moves.

use std::collections::HashSet;
use std::fmt::Debug;
use std::hash::Hash;

use crate::Theory;
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

/// A [`Game`](crate::Game) driven by position text, for tests and scripts
/// that hold positions as strings: each call parses, then acts on the
/// typed handle.
pub trait TextGame {
    /// The game.
    fn game(&self) -> &dyn crate::Game;

    /// The canonical text of a position.
    fn parse_position(&self, text: &str) -> Result<String, crate::PositionError> {
        Ok(self.game().parse(text)?.text().to_string())
    }
    /// The usual start, as text.
    fn start_position(&self) -> Option<String> {
        self.game().start().map(|p| p.text().to_string())
    }
    /// A position as data.
    fn position_value(&self, text: &str) -> Result<crate::PositionValue, crate::PositionError> {
        let game = self.game();
        game.value(&game.parse(text)?)
    }
    /// The terminal picture of a position.
    fn render_text(&self, text: &str) -> Result<String, crate::PositionError> {
        let game = self.game();
        game.render(&game.parse(text)?)
    }
    /// Whether no move is left.
    fn is_terminal_text(&self, text: &str) -> Result<bool, crate::PositionError> {
        let game = self.game();
        game.is_terminal(&game.parse(text)?)
    }
    /// Material left.
    fn material_text(&self, text: &str) -> Result<u64, crate::PositionError> {
        let game = self.game();
        game.material(&game.parse(text)?)
    }
    /// Every legal move.
    fn legal_moves_text(&self, text: &str) -> Result<Vec<crate::MoveInfo>, crate::PositionError> {
        let game = self.game();
        game.legal_moves(&game.parse(text)?)
    }
    /// The moves a computer player considers.
    fn candidate_moves_text(
        &self,
        text: &str,
    ) -> Result<Vec<crate::MoveInfo>, crate::PositionError> {
        let game = self.game();
        game.candidate_moves(&game.parse(text)?)
    }
    /// A typed move, checked.
    fn parse_move_text(
        &self,
        text: &str,
        input: &str,
    ) -> Result<crate::MoveInfo, crate::MoveError> {
        let game = self.game();
        let p = game
            .parse(text)
            .map_err(|e| crate::MoveError::new(e.to_string()))?;
        game.parse_move(&p, input)
    }
    /// Solve a position.
    fn analyze_text(
        &self,
        text: &str,
        convention: Convention,
        limits: Limits,
    ) -> Result<crate::Analysis, crate::GameError> {
        let game = self.game();
        game.analyze(&game.parse(text)?, convention, limits)
    }
}

impl TextGame for dyn crate::Game + '_ {
    fn game(&self) -> &dyn crate::Game {
        self
    }
}

impl TextGame for Box<dyn crate::Game> {
    fn game(&self) -> &dyn crate::Game {
        self.as_ref()
    }
}

impl TextGame for std::sync::Arc<dyn crate::Game> {
    fn game(&self) -> &dyn crate::Game {
        self.as_ref()
    }
}

impl<G> TextGame for crate::Adapter<G>
where
    G: Theory + Send + Sync,
    G::Position: Send + Sync + 'static,
    G::Move: Send + Sync + 'static,
{
    fn game(&self) -> &dyn crate::Game {
        self
    }
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
