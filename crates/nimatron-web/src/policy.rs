//! Seat policy: who may do what to a game, and when. The seat a token
//! holds; whether it may move now, ask for the computer's move, take moves
//! back, resign, answer on the analysis, or ask for a rematch; whether an
//! invite code may take an online game's second seat; and whether the
//! analysis may be shown.
//!
//! Every rule here reads a game's record and answers yes (with what the act
//! needs: the seat, the moves to take back) or a refusal naming what was
//! wrong. Nothing here changes a record: [`crate::service`] and
//! [`crate::actions`] apply the acts, and [`crate::views`] shows the same
//! answers (`can_undo`, `analysis.shown`) to the page.

use axum::http::StatusCode;

use crate::error::ApiError;
use crate::store::{GameRecord, Mode, MoveRecord, Status};
use crate::token;

/// Which seat a token holds in this game: `None` in a local game, where one
/// token moves for both sides.
pub(crate) fn seat_for_token(
    game: &GameRecord,
    token: Option<&str>,
) -> Result<Option<u8>, ApiError> {
    let Some(token) = token else {
        return Err(ApiError::new(
            StatusCode::UNAUTHORIZED,
            "missing_token",
            "this needs your seat token: send 'Authorization: Bearer TOKEN'",
        ));
    };
    if token::same(token, &game.token0) {
        // In a local game one token moves for both sides.
        return Ok(if game.mode == Mode::Local {
            None
        } else {
            Some(0)
        });
    }
    if let Some(t1) = &game.token1
        && token::same(token, t1)
    {
        return Ok(Some(1));
    }
    Err(ApiError::new(
        StatusCode::FORBIDDEN,
        "wrong_token",
        format!("that token does not hold a seat in game '{}'", game.id),
    ))
}

/// Check that the holder of `token`, who saw the game at `ply` if given,
/// may move now: the game is under way, has not moved on, and it is their
/// seat's turn. Returns their seat, as [`seat_for_token`] does.
pub(crate) fn moving_seat(
    record: &GameRecord,
    token: Option<&str>,
    ply: Option<u32>,
) -> Result<Option<u8>, ApiError> {
    let seat = seat_for_token(record, token)?;
    match record.status {
        Status::Waiting => {
            return Err(ApiError::conflict(
                "waiting_for_opponent",
                "the second seat is still free: send the invite link first",
            ));
        }
        Status::Over => {
            return Err(ApiError::conflict("game_over", "the game is over"));
        }
        Status::Playing => {}
    }
    check_ply(record, ply, "move")?;
    if let Some(seat) = seat
        && seat != record.to_move
    {
        return Err(ApiError::conflict(
            "not_your_turn",
            format!("not your turn: seat {} is to move", record.to_move),
        ));
    }
    Ok(seat)
}

/// Check that the player, who saw the game at `ply` if given, acts on the
/// game as it is: `what` names the act in the refusal.
pub(crate) fn check_ply(record: &GameRecord, ply: Option<u32>, what: &str) -> Result<(), ApiError> {
    match ply {
        Some(ply) if ply != record.ply => Err(ApiError::conflict(
            "stale_ply",
            format!(
                "the {what} was made at ply {ply}, but the game is at ply {}: reload and try again",
                record.ply
            ),
        )),
        _ => Ok(()),
    }
}

/// Check that `invite` takes the second seat of the online game `record`:
/// it is the game's code and the seat is still free.
pub(crate) fn check_invite(record: &GameRecord, invite: &str) -> Result<(), ApiError> {
    let id = &record.id;
    let Some(code) = record
        .invite
        .as_deref()
        .filter(|_| record.mode == Mode::Online)
    else {
        return Err(ApiError::conflict(
            "not_online",
            format!("game '{id}' is not an online game: there is no seat to join"),
        ));
    };
    if !token::same(invite, code) {
        return Err(ApiError::new(
            StatusCode::FORBIDDEN,
            "wrong_invite",
            format!("that is not the invite code of game '{id}'"),
        ));
    }
    if record.token1.is_some() {
        return Err(ApiError::conflict(
            "seat_taken",
            format!("the second seat of game '{id}' is already taken"),
        ));
    }
    Ok(())
}

/// How many moves at the end of the record an undo takes back, or `None`
/// if it cannot: against the computer, the player's last move and the
/// computer's replies to it; at one screen, the last move. Online games and
/// resigned games take nothing back.
pub(crate) fn moves_to_undo(record: &GameRecord, moves: &[MoveRecord]) -> Option<usize> {
    if record.resigned.is_some() || record.status == Status::Waiting {
        return None;
    }
    match record.mode {
        Mode::Online => None,
        Mode::Local => (!moves.is_empty()).then_some(1),
        Mode::Computer => {
            let replies = moves.iter().rev().take_while(|m| m.by_computer).count();
            (replies < moves.len()).then_some(replies + 1)
        }
    }
}

/// Check that the holder of `token`, who saw the game at `ply` if given,
/// may take moves back now; returns how many moves go.
pub(crate) fn undo(
    record: &GameRecord,
    moves: &[MoveRecord],
    token: Option<&str>,
    ply: Option<u32>,
) -> Result<usize, ApiError> {
    seat_for_token(record, token)?;
    if record.mode == Mode::Online {
        return Err(ApiError::conflict(
            "no_takebacks_online",
            "an online game's moves stand: take-backs are for games against the computer \
             or at one screen",
        ));
    }
    if record.resigned.is_some() {
        return Err(ApiError::conflict(
            "resigned",
            "the game ended by resignation: ask for a rematch instead",
        ));
    }
    check_ply(record, ply, "take-back")?;
    moves_to_undo(record, moves).ok_or_else(|| {
        ApiError::conflict("nothing_to_undo", "there is no move of yours to take back")
    })
}

/// Check that the holder of `token`, who saw the game at `ply` if given,
/// may resign now; returns the seat that resigns (at one screen, the seat
/// to move).
pub(crate) fn resigning_seat(
    record: &GameRecord,
    token: Option<&str>,
    ply: Option<u32>,
) -> Result<u8, ApiError> {
    let seat = seat_for_token(record, token)?;
    match record.status {
        Status::Waiting => {
            return Err(ApiError::conflict(
                "waiting_for_opponent",
                "the second seat is still free: there is nobody to resign to",
            ));
        }
        Status::Over => return Err(ApiError::conflict("game_over", "the game is over")),
        Status::Playing => {}
    }
    check_ply(record, ply, "resignation")?;
    Ok(seat.unwrap_or(record.to_move))
}

/// Check that the holder of `token`, who saw the game at `ply` if given,
/// may ask for the computer's move now; returns the computer's seat.
pub(crate) fn computer_to_move(
    record: &GameRecord,
    token: Option<&str>,
    ply: Option<u32>,
) -> Result<u8, ApiError> {
    seat_for_token(record, token)?;
    let Some(seat) = record.computer_seat else {
        return Err(ApiError::conflict(
            "not_a_computer_game",
            "this game has no computer player: moves are made by the players",
        ));
    };
    match record.status {
        Status::Playing => {}
        Status::Over => return Err(ApiError::conflict("game_over", "the game is over")),
        Status::Waiting => {
            return Err(ApiError::conflict(
                "waiting_for_opponent",
                "the game has not started",
            ));
        }
    }
    check_ply(record, ply, "request for the computer's move")?;
    if record.to_move != seat {
        return Err(ApiError::conflict(
            "not_computers_turn",
            "it is your move, not the computer's",
        ));
    }
    Ok(seat)
}

/// Whether the analysis of the game may be shown now: always, except in an
/// online game under way that not both seats have agreed to.
pub(crate) fn analysis_shown(record: &GameRecord) -> bool {
    record.mode != Mode::Online || record.status == Status::Over || record.analysis_votes == 3
}

/// Check that the analysis of the game may be shown now ([`analysis_shown`]).
pub(crate) fn check_analysis_shown(record: &GameRecord) -> Result<(), ApiError> {
    if analysis_shown(record) {
        return Ok(());
    }
    Err(ApiError::new(
        StatusCode::FORBIDDEN,
        "analysis_not_agreed",
        "the analysis of an online game under way is shown only when both players agree \
         (POST /api/games/{id}/analysis-consent with {\"agree\": true} from each seat)",
    ))
}

/// Check that the holder of `token` may answer on showing the analysis:
/// a seat of an online game. Returns the seat.
pub(crate) fn consenting_seat(record: &GameRecord, token: Option<&str>) -> Result<u8, ApiError> {
    let seat = seat_for_token(record, token)?;
    match (record.mode, seat) {
        (Mode::Online, Some(seat)) => Ok(seat),
        _ => Err(ApiError::conflict(
            "not_online",
            format!(
                "game '{}' is not an online game: its analysis is always shown, \
                 with no need to agree",
                record.id
            ),
        )),
    }
}

/// Check that the holder of `token`, who saw the game at `ply` if given,
/// may ask for a rematch: the game is over. Returns the asking seat (seat
/// 0 at one screen, where one token holds both).
pub(crate) fn rematch_seat(
    record: &GameRecord,
    token: Option<&str>,
    ply: Option<u32>,
) -> Result<u8, ApiError> {
    let seat = seat_for_token(record, token)?.unwrap_or(0);
    if record.status != Status::Over {
        return Err(ApiError::conflict(
            "game_not_over",
            "a rematch can be asked for once the game is over (resign to end it now)",
        ));
    }
    check_ply(record, ply, "rematch request")?;
    Ok(seat)
}

/// Whether a rematch starts now, its offers as they stand: at once against
/// the computer or at one screen; online, once both seats have asked.
pub(crate) fn rematch_agreed(record: &GameRecord) -> bool {
    record.mode != Mode::Online || record.rematch_offers == 3
}
