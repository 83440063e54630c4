//! Playing a game on, in its record: a move applied, the end of the game and
//! its winner, and the computer's replies while it is the computer's turn.

use nimatron::solve::Limits;
use nimatron::{Convention, Game, MoveInfo};
use nimatron::{Level, SplitMix64};

use crate::clock::now_ms;
use crate::error::{ApiError, game_error, stored, stored_position};
use crate::requests::parse_convention;
use crate::store::{GameRecord, MoveRecord, Status};

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

/// The computer's choice at a record's position: the move (none if it has
/// none), whether it was chosen at random because the position was beyond
/// the limits, and the record's next random state.
pub(crate) struct Pick {
    mv: Option<MoveInfo>,
    random: bool,
    rng: u64,
}

/// Choose the computer's move at the record's position. This reads the
/// record and changes nothing, so it may run without the game's lock.
pub(crate) fn pick(game: &dyn Game, record: &GameRecord, limits: Limits) -> Result<Pick, ApiError> {
    let convention = parse_convention(Some(&record.convention))?;
    let level: Level = record
        .level
        .as_deref()
        .unwrap_or("perfect")
        .parse()
        .map_err(|e| stored("level", e))?;
    let mut rng = SplitMix64::new(record.rng);
    let position = stored_position(game, &record.position)?;
    let (mv, why) = nimatron::computer_choice(game, &position, convention, level, &mut rng, limits)
        .map_err(game_error)?;
    Ok(Pick {
        mv,
        random: why.is_some(),
        rng: rng.next_u64(),
    })
}

impl Pick {
    /// Whether the move was chosen at random, the position being beyond
    /// the limits of the search.
    pub(crate) fn random(&self) -> bool {
        self.random
    }
}

/// Apply the computer's choice to the record (the one it was chosen on),
/// and note it in `out`; returns whether it moved.
pub(crate) fn play_pick(
    game: &dyn Game,
    record: &mut GameRecord,
    pick: Pick,
    out: &mut Vec<MoveRecord>,
) -> Result<bool, ApiError> {
    record.rng = pick.rng;
    let Some(mut mv) = pick.mv else {
        return Ok(false);
    };
    // A move the limits left unjudged says so in its own words, which the
    // page shows and the record keeps.
    if pick.random {
        mv.text.push_str(
            " (a random move: the position is beyond what this server judges within its limits)",
        );
    }
    play(record, &mv, true, out);
    if let Some(last) = out.last_mut() {
        last.random = pick.random;
    }
    settle(game, record)?;
    Ok(true)
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
    while record.status == Status::Playing && record.to_move == seat {
        let chosen = pick(game, record, limits)?;
        if stop_at_limit && chosen.random {
            return Ok(false);
        }
        if !play_pick(game, record, chosen, out)? {
            break;
        }
    }
    Ok(true)
}
