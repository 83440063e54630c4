//! Who may act on a game: the seat a token holds, whether that seat may move
//! now, and whether an invite code may take an online game's second seat.

use axum::http::StatusCode;

use crate::error::ApiError;
use crate::store::{GameRecord, Mode, Status};
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
