//! How a game is written and what its theory knows: the two traits that,
//! with [`Rules`], make a typed game that every front end can play.
//!
//! [`Notation`] says how positions and moves are written and drawn;
//! [`Theory`] gives closed forms where the theory has them. A type with
//! both becomes an object-safe [`Game`](crate::Game) through
//! [`Adapter`](crate::Adapter).

use std::fmt;

use crate::analysis::{Details, PositionValue};
use crate::geometry::{Board, Element, Trace, take_from_end};
use crate::solve::{Limits, SolveError};
use crate::{Convention, Nimber, Outcome, Rules};

/// A position that does not parse, or does not fit the game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PositionError {
    /// What was wrong, naming the offending input.
    pub problem: String,
    /// What the game accepts.
    pub accepted: String,
}

impl PositionError {
    /// An error with both parts.
    pub fn new(problem: impl Into<String>, accepted: impl Into<String>) -> PositionError {
        PositionError {
            problem: problem.into(),
            accepted: accepted.into(),
        }
    }
}

impl fmt::Display for PositionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.problem, self.accepted)
    }
}

impl std::error::Error for PositionError {}

/// A move that does not parse or is not legal here.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MoveError {
    /// What was wrong, naming the offending input.
    pub problem: String,
}

impl MoveError {
    /// A move error with this message.
    pub fn new(problem: impl Into<String>) -> MoveError {
        MoveError {
            problem: problem.into(),
        }
    }
}

impl fmt::Display for MoveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.problem)
    }
}

impl std::error::Error for MoveError {}

/// Anything that can go wrong when analysing.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum GameError {
    /// The position is bad.
    Position(PositionError),
    /// The game is not played under this convention.
    Convention {
        /// The game.
        game: String,
        /// Why not.
        reason: String,
    },
    /// A solver stopped at its limit.
    Solve(SolveError),
}

impl fmt::Display for GameError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            GameError::Position(e) => e.fmt(f),
            GameError::Convention { game, reason } => write!(f, "{game}: {reason}"),
            GameError::Solve(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for GameError {}

impl From<PositionError> for GameError {
    fn from(e: PositionError) -> GameError {
        GameError::Position(e)
    }
}

impl From<SolveError> for GameError {
    fn from(e: SolveError) -> GameError {
        GameError::Solve(e)
    }
}

/// What a closed form says about a position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Verdict<M> {
    /// Win or loss for the player to move.
    pub outcome: Outcome,
    /// The normal-play Grundy value, if the theory gives it.
    pub grundy: Option<Nimber>,
    /// Every winning move.
    pub winning_moves: Vec<M>,
    /// The reasoning, for people.
    pub explanation: String,
    /// The theorem used, for the `method` field.
    pub theorem: String,
    /// Results beyond the verdict (Nim's nim-sum, Candy Nim's split).
    pub details: Details,
}

/// Both conventions.
pub const BOTH_CONVENTIONS: &[Convention] = &[Convention::Normal, Convention::Misere];

/// How a game's positions and moves are written.
///
/// Every method has a default. A game whose positions are heap sizes needs
/// only three one-line methods — [`position_of_heaps`](Notation::position_of_heaps),
/// [`heaps_of`](Notation::heaps_of) and, for moves that take from one
/// heap, [`heap_move`](Notation::heap_move) — and the defaults then read and
/// write positions as `3 4 5` and moves as `A 2`, draw heaps as rows and
/// measure material as objects left. Any other game overrides
/// [`parse_position`](Notation::parse_position) and
/// [`format_position`](Notation::format_position); its moves are still read
/// by the default [`parse_move`](Notation::parse_move), which accepts exactly
/// what [`format_move`](Notation::format_move) writes for a legal move.
///
/// ```
/// use nimatron::{Notation, Rules};
///
/// /// Take 1, 3 or 4 from one heap.
/// struct OneThreeFour;
/// impl Rules for OneThreeFour {
///     type Position = Vec<u64>;
///     type Move = (usize, u64); // (heap, take)
///     fn moves(&self, heaps: &Vec<u64>) -> Vec<(usize, u64)> {
///         let mut out = Vec::new();
///         for (i, &n) in heaps.iter().enumerate() {
///             out.extend([1, 3, 4].into_iter().filter(|&t| t <= n).map(|t| (i, t)));
///         }
///         out
///     }
///     fn apply(&self, heaps: &Vec<u64>, &(i, t): &(usize, u64)) -> Vec<u64> {
///         let mut after = heaps.clone();
///         after[i] -= t;
///         after
///     }
/// }
/// impl Notation for OneThreeFour {
///     fn position_of_heaps(&self, heaps: Vec<u64>) -> Option<Vec<u64>> { Some(heaps) }
///     fn heaps_of(&self, heaps: &Vec<u64>) -> Option<Vec<u64>> { Some(heaps.clone()) }
///     fn heap_move(&self, _: &Vec<u64>, &(i, t): &(usize, u64)) -> Option<(usize, u64)> { Some((i, t)) }
/// }
///
/// let game = OneThreeFour;
/// let position = game.parse_position("5, 2")?;
/// assert_eq!(game.format_position(&position), "5 2");
/// let mv = game.parse_move(&position, "a 3")?;
/// assert_eq!(game.format_move(&position, &mv), "A 3");
/// assert!(game.parse_move(&position, "B 3").is_err()); // heap B holds 2
/// assert_eq!(game.material(&position), 7);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub trait Notation: Rules {
    /// For games whose positions are heap sizes: the position of these
    /// heaps, or `None` if they are not a position of the game. The default,
    /// `None`, says the game is not a heap game; with it overridden (and
    /// [`heaps_of`](Notation::heaps_of)), the defaults of
    /// [`parse_position`](Notation::parse_position),
    /// [`format_position`](Notation::format_position),
    /// [`position_value`](Notation::position_value) and
    /// [`material`](Notation::material) serve.
    fn position_of_heaps(&self, _heaps: Vec<u64>) -> Option<Self::Position> {
        None
    }
    /// For games whose positions are heap sizes: the sizes. The default,
    /// `None`, says the game is not a heap game.
    fn heaps_of(&self, _position: &Self::Position) -> Option<Vec<u64>> {
        None
    }
    /// Parse a position in the game's syntax (checking it fits the game).
    /// The default reads heap sizes separated by spaces or commas and
    /// hands them to [`position_of_heaps`](Notation::position_of_heaps).
    fn parse_position(&self, text: &str) -> Result<Self::Position, PositionError> {
        let heaps = crate::heap_notation::parse_heap_list(text.as_bytes())
            .map_err(|e| PositionError::new(e.to_string(), self.position_syntax()))?;
        self.position_of_heaps(heaps).ok_or_else(|| {
            PositionError::new(
                format!("'{}' is not a position of this game", text.trim()),
                self.position_syntax(),
            )
        })
    }
    /// Canonical text; parsing it gives the same position back. The
    /// default writes heap sizes separated by spaces (see
    /// [`heaps_of`](Notation::heaps_of)), or else the position's `Debug`
    /// form.
    fn format_position(&self, position: &Self::Position) -> String {
        match self.heaps_of(position) {
            Some(heaps) => {
                let words: Vec<String> = heaps.iter().map(u64::to_string).collect();
                words.join(" ")
            }
            None => format!("{position:?}"),
        }
    }
    /// The position as data: its heaps for a heap game, else its text.
    fn position_value(&self, position: &Self::Position) -> PositionValue {
        match self.heaps_of(position) {
            Some(heaps) => PositionValue::Heaps(heaps),
            None => PositionValue::Text(self.format_position(position)),
        }
    }
    /// The usual start, if the game has one.
    fn start_position(&self) -> Option<Self::Position> {
        None
    }
    /// Parse a typed move and check that it is legal here. The default
    /// accepts exactly the [`format_move`](Notation::format_move) text of a
    /// legal move (ignoring case and spacing), and names a few legal moves
    /// when the input is none of them.
    fn parse_move(&self, position: &Self::Position, input: &str) -> Result<Self::Move, MoveError> {
        let normal = |s: &str| {
            s.split_whitespace()
                .collect::<Vec<_>>()
                .join(" ")
                .to_lowercase()
        };
        let wanted = normal(input);
        let moves = self.moves(position);
        let mut examples = Vec::new();
        for mv in moves {
            let text = self.format_move(position, &mv);
            if normal(&text) == wanted {
                return Ok(mv);
            }
            if examples.len() < 5 {
                examples.push(text);
            }
        }
        Err(MoveError::new(if examples.is_empty() {
            format!("'{}' is not a move: no move is left", input.trim())
        } else {
            format!(
                "'{}' is not a legal move here (legal moves include {}); {}",
                input.trim(),
                examples.join(", "),
                self.move_syntax()
            )
        }))
    }
    /// A move in the notation `parse_move` accepts. The default writes a
    /// heap move (see [`heap_move`](Notation::heap_move)) as `A 2`, and any
    /// other move as its `Debug` form.
    fn format_move(&self, position: &Self::Position, mv: &Self::Move) -> String {
        match self.heap_move(position, mv) {
            Some((heap, take)) => format!("{} {take}", crate::heap_notation::heap_name(heap)),
            None => format!("{mv:?}"),
        }
    }
    /// A sentence describing the move.
    fn describe_move(&self, position: &Self::Position, mv: &Self::Move) -> String {
        self.format_move(position, mv)
    }
    /// For heap games: (heap index, objects removed).
    fn heap_move(&self, _position: &Self::Position, _mv: &Self::Move) -> Option<(usize, u64)> {
        None
    }
    /// For heap games: the `heap` and `take` a front end reports. The
    /// default splits [`heap_move`](Notation::heap_move); a move that
    /// changes several heaps has no single heap (`None`) but may still say
    /// how many objects it removes in all.
    fn heap_fields(
        &self,
        position: &Self::Position,
        mv: &Self::Move,
    ) -> (Option<usize>, Option<u64>) {
        match self.heap_move(position, mv) {
            Some((heap, take)) => (Some(heap), Some(take)),
            None => (None, None),
        }
    }
    /// A picture of the position for the terminal.
    fn render(&self, position: &Self::Position) -> String {
        self.format_position(position)
    }
    /// How much is left to play with (objects, cells...): more means longer.
    /// The default counts a heap game's objects, and otherwise the moves
    /// open.
    fn material(&self, position: &Self::Position) -> u64 {
        match self.heaps_of(position) {
            Some(heaps) => heaps.iter().fold(0u64, |a, &h| a.saturating_add(h)),
            None => self.moves(position).len() as u64,
        }
    }
    /// The moves worth considering when choosing a move; all of them unless
    /// there are too many to evaluate (huge heaps).
    fn candidate_moves(&self, position: &Self::Position) -> Vec<Self::Move> {
        self.moves(position)
    }
    /// How the position is drawn. The default draws heap games as rows of
    /// objects and anything else as its picture.
    fn board(&self, position: &Self::Position) -> Board {
        match self.position_value(position) {
            PositionValue::Heaps(heaps) => Board::heaps(heaps),
            PositionValue::Text(_) => Board::Text {
                text: self.render(position),
            },
        }
    }
    /// The board elements a move touches. The default, for heap games,
    /// takes from the right-hand end of the heap the move names.
    fn touches(&self, position: &Self::Position, mv: &Self::Move) -> Vec<Element> {
        match (self.heap_move(position, mv), self.position_value(position)) {
            (Some((heap, take)), PositionValue::Heaps(heaps)) if heap < heaps.len() => {
                vec![take_from_end(heap, heaps[heap], take)]
            }
            _ => Vec::new(),
        }
    }
    /// What the move did to the board, told on the board after it (the
    /// position `after` it leads to). The default compares the two boards
    /// ([`Trace::between`]), which suits every game whose pieces keep their
    /// places or ids.
    fn trace(&self, before: &Self::Position, mv: &Self::Move, after: &Self::Position) -> Trace {
        Trace::between(
            &self.board(before),
            &self.board(after),
            &self.touches(before, mv),
        )
    }
    /// Other sets of board elements that make the very same move, where a
    /// game lists a move once for several places on the board: a run taken
    /// from a row is the same move as its mirror image (both leave the same
    /// parts). A board lets a player select any of them.
    fn also_touches(&self, _position: &Self::Position, _mv: &Self::Move) -> Vec<Vec<Element>> {
        Vec::new()
    }
    /// A bound on the moves left in any play from here, where the game has
    /// one (each move uses up at least one object, say): it stands in for
    /// remoteness where search is too large.
    fn moves_left_bound(&self, _position: &Self::Position) -> Option<u64> {
        None
    }
    /// The syntax of positions, for messages and `nimatron games`. The
    /// default describes heap sizes.
    fn position_syntax(&self) -> &'static str {
        "heap sizes separated by spaces or commas, e.g. '3 4 5'"
    }
    /// The syntax of moves, for `help` in play, with an example of each
    /// kind of move. The default describes taking from one heap.
    fn move_syntax(&self) -> String {
        "'A 2' takes 2 objects from heap A".to_string()
    }
}

/// A game's entry in the catalogue.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Description {
    /// The rules, in a few sentences.
    pub rules: &'static str,
    /// An example position in the game's notation.
    pub example: &'static str,
    /// The theory Nimatron uses, and what it checked.
    pub theory: &'static str,
    /// Where the theory comes from.
    pub citation: &'static str,
}

/// What the theory knows about a game.
pub trait Theory: Notation {
    /// The catalogue entry: rules, example, theory, citation.
    fn description(&self) -> Description;

    /// The conventions the game can be played under.
    fn conventions(&self) -> &'static [Convention] {
        BOTH_CONVENTIONS
    }
    /// Why a convention is not offered, if it is not.
    fn convention_note(&self) -> &'static str {
        ""
    }
    /// The verdict by a closed form, where one applies.
    fn closed_form(
        &self,
        _position: &Self::Position,
        _convention: Convention,
    ) -> Option<Verdict<Self::Move>> {
        None
    }
    /// The verdict by the game's own bounded solver, where the theory is an
    /// algorithm rather than a formula (a search over a placing phase that
    /// ends in Nim, say). It may stop at `limits` with an error. The default
    /// is [`closed_form`](Theory::closed_form), which does no bounded work.
    fn closed_form_within(
        &self,
        position: &Self::Position,
        convention: Convention,
        _limits: Limits,
    ) -> Result<Option<Verdict<Self::Move>>, SolveError> {
        Ok(self.closed_form(position, convention))
    }
    /// The outcome alone by the theory, where it gives one: what the
    /// computer needs to judge each of its moves. The default takes it
    /// from [`closed_form_within`](Theory::closed_form_within); a game
    /// whose verdict carries costly words (the binary table of Nim) says
    /// it more cheaply.
    fn closed_outcome_within(
        &self,
        position: &Self::Position,
        convention: Convention,
        limits: Limits,
    ) -> Result<Option<Outcome>, SolveError> {
        Ok(self
            .closed_form_within(position, convention, limits)?
            .map(|v| v.outcome))
    }
    /// Whether normal play may use Grundy values (true for every impartial
    /// game; false only to force plain search).
    fn use_grundy(&self) -> bool {
        true
    }
    /// What misère play has learnt that is worth keeping between runs (a
    /// heap game's misère quotient), if anything.
    fn misere_record(&self) -> Option<crate::misere::QuotientRecord> {
        None
    }
    /// Takes back a record kept from an earlier run (see
    /// [`misere_record`](Theory::misere_record)).
    fn restore_misere_record(
        &self,
        _record: &crate::misere::QuotientRecord,
    ) -> Result<(), crate::misere::RecordError> {
        Err(crate::misere::RecordError::NotApplicable)
    }
    /// Extra words for a verdict reached by a solver (not a closed form).
    fn explain_solved(
        &self,
        _position: &Self::Position,
        _convention: Convention,
        _outcome: Outcome,
        _grundy: Option<Nimber>,
    ) -> String {
        String::new()
    }
}
