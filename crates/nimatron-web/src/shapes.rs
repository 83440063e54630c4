//! The JSON shapes of the parts of an analysis that the library writes by
//! hand (`nimatron`'s `analysis.rs`) and gives no schema of its own: the
//! convention, the outcome, Nim's regime and Candy Nim's split. These types
//! only describe: nothing builds them. (A board, a move and remoteness get
//! their schemas from the library, with its `openapi` feature.)
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
