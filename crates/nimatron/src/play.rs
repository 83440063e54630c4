//! The computer's move at each level, shared by every front end.

use crate::strategy::{self, Candidate, Level, SplitMix64};
use crate::{Convention, Game, GameError, Limits, MoveInfo, Outcome, Position};

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
    computer_choice(game, position, convention, level, rng, limits).map(|(mv, _)| mv)
}

/// [`computer_move`], and why: `None` when the move was judged, else the
/// limit that stopped the judging (the move is then a random candidate),
/// for a front end to tell the player.
pub fn computer_choice(
    game: &dyn Game,
    position: &Position,
    convention: Convention,
    level: Level,
    rng: &mut SplitMix64,
    limits: Limits,
) -> Result<(Option<MoveInfo>, Option<GameError>), GameError> {
    let moves = game.candidate_moves(position)?;
    // A random move when the search is too large to judge them.
    let fallback = |moves: Vec<MoveInfo>, rng: &mut SplitMix64, why: GameError| {
        if moves.is_empty() {
            return (None, Some(why));
        }
        let i = rng.below(moves.len() as u64) as usize;
        (moves.into_iter().nth(i), Some(why))
    };
    // Each move's outcome first: that is all a level needs when some move
    // wins. Only when every move loses are the replies counted, to lose
    // slowly (`strategy::choose`), which takes a full analysis of each.
    let mut candidates = Vec::with_capacity(moves.len());
    for mv in &moves {
        let outcome_after = match game.outcome(mv.after(), convention, limits) {
            Ok(o) => o,
            Err(e @ GameError::Solve(_)) => return Ok(fallback(moves, rng, e)),
            Err(e) => return Err(e),
        };
        candidates.push(Candidate {
            outcome_after,
            winning_replies: 0,
            material_after: game.material(mv.after())?,
            mv: mv.clone(),
        });
    }
    // Candidates may be a sample of a huge move list that misses every
    // winning move: then the analysis's own winning moves join them.
    if !candidates.is_empty()
        && candidates.iter().all(|c| c.outcome_after == Outcome::N)
        && game.outcome(position, convention, limits).ok() == Some(Outcome::N)
    {
        let options = crate::AnalyzeOptions {
            remoteness: false,
            max_moves: 16,
            ..crate::AnalyzeOptions::new(limits)
        };
        if let Ok(a) = game.analyze_with(position, convention, &options) {
            for mv in a.winning_moves {
                candidates.push(Candidate {
                    outcome_after: Outcome::P,
                    winning_replies: 0,
                    material_after: game.material(mv.after())?,
                    mv,
                });
            }
        }
    }
    if candidates.iter().all(|c| c.outcome_after == Outcome::N) {
        let options = crate::AnalyzeOptions {
            remoteness: false,
            max_moves: 0,
            ..crate::AnalyzeOptions::new(limits)
        };
        for c in &mut candidates {
            match game.analyze_with(c.mv.after(), convention, &options) {
                Ok(a) => c.winning_replies = a.winning_moves_total,
                Err(e @ GameError::Solve(_)) => return Ok(fallback(moves, rng, e)),
                Err(e) => return Err(e),
            }
        }
    }
    Ok((strategy::choose(level, &candidates, rng), None))
}
