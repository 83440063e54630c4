//! What players do besides moving: take moves back, resign, agree to show
//! the analysis during an online game, and ask for a rematch.
//!
//! Each act is checked by the seat policy ([`crate::policy`]), applied to
//! the game's record and committed before the reply, like a move.

use crate::clock::now_ms;
use crate::error::ApiError;
use crate::requests::{ActionRequest, ConsentRequest};
use crate::service::{Attempt, Budget, Engine, Turn};
use crate::store::{GameRecord, MoveRecord, Status};
use crate::views::{GameView, PlayedMove, RematchReply, SeatGrant, UndoReply};
use crate::{policy, token, turns};

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
            let count = policy::undo(&record, &moves, token, req.ply)?;
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
            let seat = policy::resigning_seat(&record, token, req.ply)?;
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
            let seat = policy::consenting_seat(&record, token)?;
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
            let seat = policy::rematch_seat(&record, token, req.ply)?;
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
            if !policy::rematch_agreed(&record) {
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
