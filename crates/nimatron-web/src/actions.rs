//! What players do besides moving: take moves back, resign, agree to show
//! the analysis during an online game, and ask for a rematch.
//!
//! Each act is checked against the seat its token holds, applied to the
//! game's record and committed before the reply, like a move.

use crate::error::ApiError;
use crate::requests::{ActionRequest, ConsentRequest};
use crate::service::{Attempt, Budget, Engine, Turn, now_ms};
use crate::store::{GameRecord, Mode, MoveRecord, Status};
use crate::views::{GameView, PlayedMove, RematchReply, SeatGrant, UndoReply};
use crate::{seats, token, turns};

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

/// Whether the analysis of the game may be shown now: always, except in an
/// online game under way that not both seats have agreed to.
pub(crate) fn analysis_shown(record: &GameRecord) -> bool {
    record.mode != Mode::Online || record.status == Status::Over || record.analysis_votes == 3
}

/// The refusal of the analysis of an online game under way.
pub(crate) fn analysis_not_agreed() -> ApiError {
    ApiError::new(
        axum::http::StatusCode::FORBIDDEN,
        "analysis_not_agreed",
        "the analysis of an online game under way is shown only when both players agree \
         (POST /api/games/{id}/analysis-consent with {\"agree\": true} from each seat)",
    )
}

impl Engine {
    /// Take back the last move (at one screen) or the player's last move
    /// and the computer's replies (against the computer).
    pub fn undo(
        &self,
        id: &str,
        token: Option<&str>,
        req: &ActionRequest,
    ) -> Result<UndoReply, ApiError> {
        let lock = self.lock_for(id);
        let _guard = lock.lock().unwrap_or_else(|e| e.into_inner());
        let turn = self.retrying(|| {
            let (mut record, mut moves) = self.load_with_moves(id)?;
            seats::seat_for_token(&record, token)?;
            if record.mode == Mode::Online {
                return Err(ApiError::conflict(
                    "no_takebacks_online",
                    "an online game's moves stand: take-backs are for games against the computer \
                     or at one screen",
                )
                .into());
            }
            if record.resigned.is_some() {
                return Err(ApiError::conflict(
                    "resigned",
                    "the game ended by resignation: ask for a rematch instead",
                )
                .into());
            }
            seats::check_ply(&record, req.ply, "take-back")?;
            let Some(count) = moves_to_undo(&record, &moves) else {
                return Err(ApiError::conflict(
                    "nothing_to_undo",
                    "there is no move of yours to take back",
                )
                .into());
            };
            let undone = moves.split_off(moves.len() - count);
            let first = &undone[0];
            record.position = first.before.clone();
            record.to_move = first.seat;
            record.ply = first.ply - 1;
            record.status = Status::Playing;
            record.winner = None;
            record.rematch_offers = 0;
            record.updated_at = now_ms();
            self.store().rewind(&mut record)?;
            let (_, game) = self.game(&record.spec)?;
            Ok(UndoReply {
                game: self.view(game.as_ref(), &record, &moves)?,
                undone: undone.iter().map(PlayedMove::from).collect(),
            })
        })?;
        done(turn)
    }

    /// Resign: the other seat wins. At one screen the seat to move resigns.
    pub fn resign(
        &self,
        id: &str,
        token: Option<&str>,
        req: &ActionRequest,
    ) -> Result<GameView, ApiError> {
        let lock = self.lock_for(id);
        let _guard = lock.lock().unwrap_or_else(|e| e.into_inner());
        let turn = self.retrying(|| {
            let (mut record, moves) = self.load_with_moves(id)?;
            let seat = seats::seat_for_token(&record, token)?;
            match record.status {
                Status::Waiting => {
                    return Err(ApiError::conflict(
                        "waiting_for_opponent",
                        "the second seat is still free: there is nobody to resign to",
                    )
                    .into());
                }
                Status::Over => {
                    return Err(ApiError::conflict("game_over", "the game is over").into());
                }
                Status::Playing => {}
            }
            seats::check_ply(&record, req.ply, "resignation")?;
            let seat = seat.unwrap_or(record.to_move);
            record.status = Status::Over;
            record.winner = Some(1 - seat);
            record.resigned = Some(seat);
            record.updated_at = now_ms();
            self.store().advance(&mut record, &[])?;
            let (_, game) = self.game(&record.spec)?;
            Ok(self.view(game.as_ref(), &record, &moves)?)
        })?;
        done(turn)
    }

    /// Agree to show the analysis during an online game, or withdraw.
    pub fn analysis_consent(
        &self,
        id: &str,
        token: Option<&str>,
        req: &ConsentRequest,
    ) -> Result<GameView, ApiError> {
        let lock = self.lock_for(id);
        let _guard = lock.lock().unwrap_or_else(|e| e.into_inner());
        let turn = self.retrying(|| {
            let (mut record, moves) = self.load_with_moves(id)?;
            let seat = seats::seat_for_token(&record, token)?;
            let (Mode::Online, Some(seat)) = (record.mode, seat) else {
                return Err(ApiError::conflict(
                    "not_online",
                    format!(
                        "game '{id}' is not an online game: its analysis is always shown, \
                         with no need to agree"
                    ),
                )
                .into());
            };
            let bit = 1 << seat;
            if req.agree {
                record.analysis_votes |= bit;
            } else {
                record.analysis_votes &= !bit;
            }
            record.updated_at = now_ms();
            self.store().advance(&mut record, &[])?;
            let (_, game) = self.game(&record.spec)?;
            Ok(self.view(game.as_ref(), &record, &moves)?)
        })?;
        done(turn)
    }

    /// Ask for a rematch of a finished game: the same game from the same
    /// start, the other seat moving first, each player in their seat with
    /// the same token. Against the computer or at one screen it starts at
    /// once; online, once both seats have asked. The flag says whether
    /// this request made the rematch.
    pub fn rematch(
        &self,
        id: &str,
        token: Option<&str>,
        req: &ActionRequest,
    ) -> Result<(RematchReply, bool), ApiError> {
        done(self.rematch_within(id, token, req, Budget::Full)?)
    }

    /// [`Engine::rematch`], with the computer's first move in the new game
    /// (if it has one) searched within `budget`.
    pub fn rematch_within(
        &self,
        id: &str,
        token: Option<&str>,
        req: &ActionRequest,
        budget: Budget,
    ) -> Result<Turn<(RematchReply, bool)>, ApiError> {
        let lock = self.lock_for(id);
        let _guard = lock.lock().unwrap_or_else(|e| e.into_inner());
        self.retrying(|| {
            let (mut record, moves) = self.load_with_moves(id)?;
            let seat = seats::seat_for_token(&record, token)?.unwrap_or(0);
            if record.status != Status::Over {
                return Err(ApiError::conflict(
                    "game_not_over",
                    "a rematch can be asked for once the game is over (resign to end it now)",
                )
                .into());
            }
            seats::check_ply(&record, req.ply, "rematch request")?;
            let (_, game) = self.game(&record.spec)?;
            let grant =
                |new: &GameRecord, new_moves: &[MoveRecord]| -> Result<SeatGrant, ApiError> {
                    Ok(SeatGrant {
                        game: self.view(game.as_ref(), new, new_moves)?,
                        seat,
                        token: token.unwrap_or_default().to_string(),
                        invite: None,
                        invite_url: None,
                    })
                };
            // Asked before and made: the rematch as it stands.
            if let Some(new_id) = record.rematch.clone() {
                let (new, new_moves) = self.load_with_moves(&new_id)?;
                let reply = RematchReply {
                    game: self.view(game.as_ref(), &record, &moves)?,
                    rematch: Some(grant(&new, &new_moves)?),
                };
                return Ok((reply, false));
            }
            record.rematch_offers |= 1 << seat;
            record.updated_at = now_ms();
            let everyone = record.mode != Mode::Online || record.rematch_offers == 3;
            if !everyone {
                self.store().advance(&mut record, &[])?;
                let reply = RematchReply {
                    game: self.view(game.as_ref(), &record, &moves)?,
                    rematch: None,
                };
                return Ok((reply, false));
            }
            // A record stored before the server's limits (or under looser
            // ones) is served, but no new game starts from a position beyond
            // them.
            let start = crate::error::stored_position(game.as_ref(), &record.start)?;
            self.check_size(game.as_ref(), &start)?;
            let now = now_ms();
            let first_seat = 1 - record.first_seat;
            let mut new = GameRecord {
                id: token::new_id(),
                position: record.start.clone(),
                first_seat,
                to_move: first_seat,
                ply: 0,
                status: Status::Playing,
                winner: None,
                invite: None,
                rng: token::random_u64(),
                resigned: None,
                analysis_votes: 0,
                rematch_offers: 0,
                rematch: None,
                created_at: now,
                updated_at: now,
                rev: 0,
                ..record.clone()
            };
            let mut new_moves = Vec::new();
            let limits = self.computer_limits(budget);
            if !turns::computer_turns(
                game.as_ref(),
                &mut new,
                limits,
                budget == Budget::Quick,
                &mut new_moves,
            )? {
                return Err(Attempt::NeedsHeavy);
            }
            record.rematch = Some(new.id.clone());
            self.store().insert_rematch(&mut record, &new, &new_moves)?;
            let reply = RematchReply {
                game: self.view(game.as_ref(), &record, &moves)?,
                rematch: Some(grant(&new, &new_moves)?),
            };
            Ok((reply, true))
        })
    }
}

/// The result of a change that never asks for a heavy turn.
fn done<T>(turn: Turn<T>) -> Result<T, ApiError> {
    match turn {
        Turn::Done(v) => Ok(v),
        Turn::NeedsHeavy => Err(ApiError::internal("a full search asked for more")),
    }
}
