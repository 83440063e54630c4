//! The rules of an impartial game: which moves exist and what a move does.
//!
//! Everything else — outcome, Grundy value, winning moves, checked play — is
//! provided by the solvers on top of this small trait.

use std::fmt::Debug;
use std::hash::Hash;

/// The rules of an impartial game.
///
/// Implement [`moves`](Rules::moves) and [`apply`](Rules::apply). Implement
/// [`components`](Rules::components) when a position falls apart into
/// independent parts (the heaps of a heap game, the clusters of a board):
/// that split is what lets Grundy values add by XOR. Implement
/// [`canonical`](Rules::canonical) to let transposition tables share
/// positions that play the same (sorted heaps, a board up to symmetry).
///
/// ```
/// use nimatron::{Rules, solve::GrundySolver, Nimber};
///
/// /// Take 1 or 2 from a single heap.
/// struct TakeOneOrTwo;
/// impl Rules for TakeOneOrTwo {
///     type Position = u64;
///     type Move = u64;
///     fn moves(&self, n: &u64) -> Vec<u64> {
///         (1..=2).filter(|t| t <= n).collect()
///     }
///     fn apply(&self, n: &u64, t: &u64) -> u64 {
///         n - t
///     }
/// }
///
/// let mut solver = GrundySolver::new(&TakeOneOrTwo, Default::default());
/// assert_eq!(solver.grundy(&7)?, Nimber(1)); // 7 mod 3
/// # Ok::<(), nimatron::solve::SolveError>(())
/// ```
pub trait Rules {
    /// A position. Cheap to clone is better: solvers store many.
    type Position: Clone + Eq + Hash + Debug;
    /// A move.
    type Move: Clone + Eq + Hash + Debug;

    /// Every legal move from `position`. Empty when no move is left.
    fn moves(&self, position: &Self::Position) -> Vec<Self::Move>;

    /// The position after a legal `mv`.
    fn apply(&self, position: &Self::Position, mv: &Self::Move) -> Self::Position;

    /// The independent parts of `position`, whose disjunctive sum it is.
    /// Parts with no moves may be left out. The default is the position
    /// itself, undivided.
    fn components(&self, position: &Self::Position) -> Vec<Self::Position> {
        vec![position.clone()]
    }

    /// A representative of every position that plays the same, for
    /// transposition tables. The default is the position itself.
    fn canonical(&self, position: &Self::Position) -> Self::Position {
        position.clone()
    }

    /// How many positions a stored copy of `position` counts as against a
    /// solver's state limit ([`Limits::max_states`](crate::Limits)), so
    /// that the limit bounds memory: 1 by default, more for a position that
    /// can grow into many parts (a row of heaps that splits).
    fn footprint(&self, _position: &Self::Position) -> usize {
        1
    }

    /// Why `position` has too many moves to list one by one, if it does (a
    /// heap of a trillion objects that splits anywhere). Searches and move
    /// lists refuse such a position with this reason; only a game's closed
    /// form answers it. `None` by default.
    fn too_many_moves(&self, _position: &Self::Position) -> Option<String> {
        None
    }

    /// How many legal moves `position` has (saturating). The default lists
    /// them; a game whose moves can number millions in a small position
    /// (Moore's Nim) counts them without listing.
    fn count_moves(&self, position: &Self::Position) -> u128 {
        self.moves(position).len() as u128
    }

    /// The legal moves from the `offset`-th on, at most `limit` of them, in
    /// the order of [`moves`](Rules::moves). The default lists every move
    /// and keeps the page; a game whose moves can number millions makes
    /// only the page.
    fn moves_page(
        &self,
        position: &Self::Position,
        offset: usize,
        limit: usize,
    ) -> Vec<Self::Move> {
        self.moves(position)
            .into_iter()
            .skip(offset)
            .take(limit)
            .collect()
    }

    /// Whether no move is left.
    fn is_terminal(&self, position: &Self::Position) -> bool {
        self.moves(position).is_empty()
    }

    /// The positions one move away.
    fn options(&self, position: &Self::Position) -> Vec<Self::Position> {
        self.moves(position)
            .iter()
            .map(|m| self.apply(position, m))
            .collect()
    }

    /// Whether `mv` is legal in `position`. The default looks for it among
    /// the legal moves; games with huge move lists check it directly.
    fn is_legal(&self, position: &Self::Position, mv: &Self::Move) -> bool {
        self.moves(position).contains(mv)
    }

    /// Play `mv` if it is legal; otherwise hand the position back untouched.
    fn play(
        &self,
        position: Self::Position,
        mv: &Self::Move,
    ) -> Result<Self::Position, IllegalMove<Self::Position>> {
        if self.is_legal(&position, mv) {
            Ok(self.apply(&position, mv))
        } else {
            Err(IllegalMove { position })
        }
    }
}

/// A move that is not legal in the position; the position is handed back.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct IllegalMove<P> {
    /// The position, unchanged.
    pub position: P,
}

impl<P> std::fmt::Display for IllegalMove<P> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("that move is not legal in this position")
    }
}

impl<P: Debug> std::error::Error for IllegalMove<P> {}
