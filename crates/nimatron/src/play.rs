//! The computer's move at each level, shared by every front end.

use crate::strategy::{self, Candidate, Level, SplitMix64};
use crate::{Convention, Game, GameError, Limits, MoveInfo, Position};

/// The computer's move from `position` at `level`: a winning move when it
/// has one (at the perfect level), else the move that leaves the opponent
/// the fewest winning replies and the most play. `None` when no move is
/// left. If valuing the moves outgrows `limits`, it plays a random
/// candidate rather than leave the game stuck.
pub fn computer_move(
    game: &dyn Game,
    position: &Position,
    convention: Convention,
    level: Level,
    rng: &mut SplitMix64,
    limits: Limits,
) -> Result<Option<MoveInfo>, GameError> {
    let moves = game.candidate_moves(position)?;
    let mut candidates = Vec::with_capacity(moves.len());
    for mv in &moves {
        let after = match game.analyze_with(
            mv.after(),
            convention,
            &crate::AnalyzeOptions {
                remoteness: false,
                ..crate::AnalyzeOptions::new(limits)
            },
        ) {
            Ok(a) => a,
            Err(GameError::Solve(_)) => {
                if moves.is_empty() {
                    return Ok(None);
                }
                let i = rng.below(moves.len() as u64) as usize;
                return Ok(moves.into_iter().nth(i));
            }
            Err(e) => return Err(e),
        };
        candidates.push(Candidate {
            outcome_after: after.outcome,
            winning_replies: after.winning_moves_total,
            material_after: game.material(mv.after())?,
            mv: mv.clone(),
        });
    }
    Ok(strategy::choose(level, &candidates, rng))
}
