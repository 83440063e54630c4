//! Playing a game on, in its record: a move applied, the end of the game and
//! its winner, and the computer's replies while it is the computer's turn.

use std::time::{SystemTime, UNIX_EPOCH};

use nimatron::solve::Limits;
use nimatron::strategy::{Level, SplitMix64};
use nimatron::{Convention, Game, MoveInfo};

use crate::error::{ApiError, game_error, stored, stored_position};
use crate::requests::parse_convention;
use crate::store::{GameRecord, MoveRecord, Status};

/// Milliseconds since the Unix epoch.
pub fn now_ms() -> i64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_millis() as i64)
        .unwrap_or(0)
}

/// Apply a legal move to the record, and note it in `out`.
pub(crate) fn play(
    record: &mut GameRecord,
    mv: &MoveInfo,
    by_computer: bool,
    out: &mut Vec<MoveRecord>,
) {
    record.ply += 1;
    out.push(MoveRecord {
        ply: record.ply,
        seat: record.to_move,
        notation: mv.notation.clone(),
        text: mv.text.clone(),
        before: record.position.clone(),
        after: mv.to_text.clone(),
        by_computer,
        random: false,
        created_at: now_ms(),
    });
    record.position = mv.to_text.clone();
    record.to_move = 1 - record.to_move;
}

/// Whether the game is over at its position, and who won.
pub(crate) fn settle(game: &dyn Game, record: &mut GameRecord) -> Result<(), ApiError> {
    let position = stored_position(game, &record.position)?;
    let none_left = game
        .is_terminal(&position)
        .map_err(|e| stored("position", e))?;
    if none_left {
        record.status = Status::Over;
        let convention = parse_convention(Some(&record.convention))?;
        // The player to move cannot move: the other seat moved last.
        record.winner = Some(match convention {
            Convention::Normal => 1 - record.to_move,
            Convention::Misere => record.to_move,
        });
    }
    Ok(())
}

/// Let the computer move while it is its turn. With `stop_at_limit`, a
/// search that reaches `limits` stops there and `false` is returned (the
/// record is then half-played: do not store it); without, the computer
/// plays a random move, saying so, as it does at the server's own limits.
pub(crate) fn computer_turns(
    game: &dyn Game,
    record: &mut GameRecord,
    limits: Limits,
    stop_at_limit: bool,
    out: &mut Vec<MoveRecord>,
) -> Result<bool, ApiError> {
    let Some(seat) = record.computer_seat else {
        return Ok(true);
    };
    let convention = parse_convention(Some(&record.convention))?;
    let level: Level = record
        .level
        .as_deref()
        .unwrap_or("perfect")
        .parse()
        .map_err(|e| stored("level", e))?;
    let mut rng = SplitMix64::new(record.rng);
    while record.status == Status::Playing && record.to_move == seat {
        let position = stored_position(game, &record.position)?;
        let (chosen, why) =
            nimatron::play::computer_choice(game, &position, convention, level, &mut rng, limits)
                .map_err(game_error)?;
        if stop_at_limit && why.is_some() {
            return Ok(false);
        }
        match chosen {
            // A move the limits left unjudged says so in its own words,
            // which the page shows and the record keeps.
            Some(mut mv) => {
                if why.is_some() {
                    mv.text.push_str(
                        " (a random move: the position is beyond what this server judges within its limits)",
                    );
                }
                play(record, &mv, true, out);
                if let Some(last) = out.last_mut() {
                    last.random = why.is_some();
                }
            }
            None => break,
        }
        settle(game, record)?;
    }
    record.rng = rng.next_u64();
    Ok(true)
}
