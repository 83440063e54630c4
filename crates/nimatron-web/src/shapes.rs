//! The JSON shapes of the parts of an analysis that the library writes by
//! hand (`nimatron`'s `analysis.rs`) and gives no schema of its own: the
//! convention, the outcome, Nim's regime, Candy Nim's split and the misère
//! race. These types only describe: nothing builds them. (A board, a move
//! and remoteness get their schemas from the library, with its `openapi`
//! feature.)
#![allow(dead_code)]

use serde::Serialize;
use utoipa::ToSchema;

/// `normal` or `misere`.
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum Convention {
    /// The player who makes the last move wins.
    Normal,
    /// The player who makes the last move loses.
    Misere,
}

/// `N` when the player to move wins, `P` otherwise.
#[derive(Serialize, ToSchema)]
pub enum Outcome {
    /// The player to move wins.
    N,
    /// The player to move loses.
    P,
}

/// Which rule decides Nim.
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "kebab-case")]
pub enum Regime {
    /// Bouton's rule (normal play, or misère with a heap over 1).
    Bouton,
    /// Misère play once every heap but one has at most one object.
    MisereEndgame,
    /// Misère play with heaps of one object only.
    MisereOnesOnly,
}

/// Who wins Candy Nim from here.
#[derive(Serialize, ToSchema)]
pub enum CandyWinner {
    /// The player to move.
    #[serde(rename = "player to move")]
    PlayerToMove,
    /// The other player.
    #[serde(rename = "opponent")]
    Opponent,
}

/// Candy Nim: how the candies split under perfect play.
#[derive(Serialize, ToSchema)]
pub struct CandySplit {
    /// Who takes the last candy.
    pub winner: CandyWinner,
    /// Candies the winner collects from here on.
    pub winner_candies: u64,
    /// Candies the loser collects from here on.
    pub loser_candies: u64,
    /// Candies the player to move collects.
    pub mover_candies: u64,
    /// Candies the other player collects.
    pub opponent_candies: u64,
    /// The moves that achieve the split, in the game's notation.
    pub best_moves: Vec<String>,
}

/// How misère play of a heap game was settled: its misère quotient and a
/// plain search share one budget, and the first to prove the answer gives
/// it.
#[derive(Serialize, ToSchema)]
pub struct MisereRace {
    /// The method that answered.
    pub answered_by: RaceMethod,
    /// What the misère quotient did.
    pub quotient: RaceRun,
    /// What the search did.
    pub search: RaceRun,
    /// The game's misère quotient is now verified for heaps 1 to this.
    pub quotient_heaps: u64,
    /// Its order (elements).
    pub quotient_order: u64,
    /// Whether its heap images are proven periodic (it covers every heap).
    pub quotient_proven: bool,
    /// The race in a sentence or two.
    pub text: String,
}

/// `quotient` or `search`.
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum RaceMethod {
    /// The misère quotient.
    Quotient,
    /// Plain search.
    Search,
}

/// What one method of a misère race did.
#[derive(Serialize, ToSchema)]
pub struct RaceRun {
    /// How it fared.
    pub status: RaceStatus,
    /// The time it had.
    pub seconds: f64,
    /// For the search: the positions it stored.
    #[schema(required = false)]
    pub states: u64,
    /// Why, in words.
    pub note: String,
}

/// How a method of a misère race fared.
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum RaceStatus {
    /// It answered.
    Answered,
    /// It answered at once from the quotient kept from earlier positions.
    Kept,
    /// It was still working when the other answered.
    Unfinished,
    /// It stopped at a limit, or cannot reach these heaps.
    Stopped,
    /// It did not run.
    NotRun,
}
