//! One object-safe face for every game: [`Game`], over typed handles.
//!
//! A position is parsed once into a [`Position`] handle that holds the
//! game's own typed position. Moves, play and analysis work on handles;
//! text exists only where a person reads or types it. Any type with
//! [`Rules`](crate::Rules), [`Notation`](crate::notation::Notation) and
//! [`Theory`] becomes a `Game` through
//! [`Adapter`], whether it is in the catalogue or not.

use std::any::Any;
use std::collections::HashMap;
use std::fmt;
use std::sync::{Arc, Mutex};
use std::time::Instant;

use crate::analysis::{
    Analysis, AnalyzeOptions, Details, Method, MoveInfo, MoveValue, PositionValue, RaceMethod,
    Remoteness,
};
use crate::geometry::Board;
use crate::notation::{Description, GameError, MoveError, PositionError, Theory};
use crate::solve::{GrundySolver, Limits, OutcomeSearch, RemotenessSearch, SolveError};
use crate::{Convention, Nimber, Outcome};

/// A position of some game, parsed once. It keeps the game's typed
/// position and its canonical text.
#[derive(Clone)]
pub struct Position {
    data: Arc<dyn Any + Send + Sync>,
    text: Arc<str>,
}

impl Position {
    /// The canonical text.
    pub fn text(&self) -> &str {
        &self.text
    }
}

impl fmt::Display for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.text)
    }
}

impl fmt::Debug for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Position({:?})", &*self.text)
    }
}

/// Two handles of the same game are equal when their positions are.
impl PartialEq for Position {
    fn eq(&self, other: &Position) -> bool {
        self.text == other.text
    }
}

impl Eq for Position {}

/// A legal move of some game, typed.
#[derive(Clone)]
pub struct Move(Arc<dyn Any + Send + Sync>);

impl fmt::Debug for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Move(..)")
    }
}

/// The object-safe face of a game: what every front end uses.
pub trait Game: Send + Sync {
    /// The game's name with its parameters: its canonical spec for a
    /// catalogue game.
    fn name(&self) -> String;
    /// The catalogue entry: rules, example, theory, citation.
    fn description(&self) -> Description;
    /// Conventions offered.
    fn conventions(&self) -> &'static [Convention];
    /// Why a convention is missing, if one is.
    fn convention_note(&self) -> &'static str;
    /// Position syntax, for messages.
    fn position_syntax(&self) -> &'static str;
    /// Move syntax, for help.
    fn move_syntax(&self) -> String;

    /// Parse a position written in the game's notation.
    fn parse(&self, text: &str) -> Result<Position, PositionError>;
    /// A heap game's position from its heap sizes.
    fn heap_position(&self, heaps: &[u64]) -> Result<Position, PositionError> {
        let words: Vec<String> = heaps.iter().map(u64::to_string).collect();
        self.parse(&words.join(" "))
    }
    /// The usual start, if the game has one.
    fn start(&self) -> Option<Position>;
    /// The position as data.
    fn value(&self, position: &Position) -> Result<PositionValue, PositionError>;
    /// A picture for the terminal.
    fn render(&self, position: &Position) -> Result<String, PositionError>;
    /// How the position is drawn.
    fn board(&self, position: &Position) -> Result<Board, PositionError>;
    /// Whether no move is left (cheaper than listing the moves).
    fn is_terminal(&self, position: &Position) -> Result<bool, PositionError>;
    /// Material left (objects, cells...): more means longer play.
    fn material(&self, position: &Position) -> Result<u64, PositionError>;
    /// Why the position has too many moves to list, if it does (see
    /// [`Rules::too_many_moves`](crate::Rules::too_many_moves)).
    fn too_many_moves(&self, _position: &Position) -> Result<Option<String>, PositionError> {
        Ok(None)
    }
    /// Every legal move.
    fn legal_moves(&self, position: &Position) -> Result<Vec<MoveInfo>, PositionError>;
    /// How many legal moves there are, without listing them where the game
    /// can count them (a few heaps of Moore's Nim have millions).
    fn move_count(&self, position: &Position) -> Result<u128, PositionError> {
        Ok(self.legal_moves(position)?.len() as u128)
    }
    /// The legal moves from the `offset`-th on, at most `limit` of them, in
    /// the order of [`legal_moves`](Game::legal_moves): what a bounded
    /// reply lists, a page at a time.
    fn legal_moves_page(
        &self,
        position: &Position,
        offset: usize,
        limit: usize,
    ) -> Result<Vec<MoveInfo>, PositionError> {
        Ok(self
            .legal_moves(position)?
            .into_iter()
            .skip(offset)
            .take(limit)
            .collect())
    }
    /// The positions the solvers keep in their tables between calls,
    /// counted as a state limit counts them: what a server that holds many
    /// games weighs to bound its memory.
    fn kept_states(&self) -> usize {
        0
    }
    /// Drop the tables the solvers keep between calls.
    fn forget_tables(&self) {}
    /// The moves a computer player considers (all, unless there are too many).
    fn candidate_moves(&self, position: &Position) -> Result<Vec<MoveInfo>, PositionError>;
    /// Parse a typed move and check that it is legal here.
    fn parse_move(&self, position: &Position, input: &str) -> Result<MoveInfo, MoveError>;
    /// The position after a legal move; an illegal one is refused.
    fn apply(&self, position: &Position, mv: &Move) -> Result<Position, MoveError>;
    /// Solve a position: outcome, value, remoteness, winning moves, and why.
    fn analyze_with(
        &self,
        position: &Position,
        convention: Convention,
        options: &AnalyzeOptions,
    ) -> Result<Analysis, GameError>;
    /// Solve a position with every winning move listed.
    fn analyze(
        &self,
        position: &Position,
        convention: Convention,
        limits: Limits,
    ) -> Result<Analysis, GameError> {
        self.analyze_with(position, convention, &AnalyzeOptions::new(limits))
    }
    /// What misère play of this game has learnt that is worth keeping
    /// between runs, if anything: a heap game's misère quotient as far as
    /// it is verified (see [`crate::misere::QuotientRecord`]). A front end
    /// may store it and give it back to a later run with
    /// [`restore_misere_record`](Game::restore_misere_record), so that the
    /// quotient is not learnt again.
    fn misere_record(&self) -> Option<crate::misere::QuotientRecord> {
        None
    }
    /// Takes back a record from [`misere_record`](Game::misere_record),
    /// after checking it; a record of another game, or one that is not
    /// consistent, is refused and changes nothing.
    fn restore_misere_record(
        &self,
        _record: &crate::misere::QuotientRecord,
    ) -> Result<(), crate::misere::RecordError> {
        Err(crate::misere::RecordError::NotApplicable)
    }
    /// The outcome alone: what a player needs to choose a move.
    fn outcome(
        &self,
        position: &Position,
        convention: Convention,
        limits: Limits,
    ) -> Result<Outcome, GameError>;
}

/// The solvers' tables kept between calls, with the footprint
/// ([`Rules::footprint`](crate::rules::Rules::footprint)) of what each
/// holds: a state limit counts footprints, so a kept table is measured the
/// same way.
struct Tables<P> {
    grundy: Kept<P, Nimber>,
    normal: Kept<P, bool>,
    misere: Kept<P, bool>,
    remote_normal: Kept<P, (bool, u32)>,
    remote_misere: Kept<P, (bool, u32)>,
}

/// One kept table and its footprint.
struct Kept<P, V> {
    map: HashMap<P, V>,
    footprint: usize,
}

impl<P, V> Default for Kept<P, V> {
    fn default() -> Self {
        Kept {
            map: HashMap::new(),
            footprint: 0,
        }
    }
}

impl<P, V> Kept<P, V> {
    /// The table and its footprint, for a solver to start from; nothing is
    /// kept until [`put`](Self::put) brings it back (a solver that fails
    /// drops it).
    fn take(&mut self) -> (HashMap<P, V>, usize) {
        (
            std::mem::take(&mut self.map),
            std::mem::take(&mut self.footprint),
        )
    }

    /// A table back from a solver: the footprint it started with, plus
    /// what the solver added.
    fn put(&mut self, map: HashMap<P, V>, footprint: usize) {
        self.map = map;
        self.footprint = footprint;
    }
}

impl<P> Default for Tables<P> {
    fn default() -> Self {
        Tables {
            grundy: Kept::default(),
            normal: Kept::default(),
            misere: Kept::default(),
            remote_normal: Kept::default(),
            remote_misere: Kept::default(),
        }
    }
}

impl<P> Tables<P> {
    fn largest(&self) -> usize {
        [
            self.grundy.footprint,
            self.normal.footprint,
            self.misere.footprint,
            self.remote_normal.footprint,
            self.remote_misere.footprint,
        ]
        .into_iter()
        .max()
        .unwrap_or(0)
    }
}

/// Turns a typed game into a [`Game`], keeping solver tables between calls.
///
/// Your own game: its [`Rules`](crate::Rules), [`Notation`](crate::Notation)
/// and [`Theory`], wrapped under a name. A heap game's notation is three
/// one-line methods; the rest are `Notation`'s defaults. The whole of it:
///
/// ```
/// use nimatron::{Adapter, Convention, Description, Game, Limits, Notation, Outcome, Rules, Theory};
///
/// /// Heaps of objects; a move takes 1, 3 or 4 from one heap.
/// struct OneThreeFour;
///
/// impl Rules for OneThreeFour {
///     type Position = Vec<u64>;  // heap sizes
///     type Move = (usize, u64);  // (heap, take)
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
///
/// // Positions read and written as "3 4 5", moves as "A 3": the defaults
/// // of a heap game's notation.
/// impl Notation for OneThreeFour {
///     fn position_of_heaps(&self, heaps: Vec<u64>) -> Option<Vec<u64>> { Some(heaps) }
///     fn heaps_of(&self, heaps: &Vec<u64>) -> Option<Vec<u64>> { Some(heaps.clone()) }
///     fn heap_move(&self, _: &Vec<u64>, &(i, t): &(usize, u64)) -> Option<(usize, u64)> { Some((i, t)) }
/// }
///
/// impl Theory for OneThreeFour {
///     fn description(&self) -> Description {
///         Description {
///             rules: "Heaps of objects; a move takes 1, 3 or 4 from one heap.",
///             example: "5 7",
///             theory: "Solved by search.",
///             citation: "Winning Ways, chapter 4 (subtraction games).",
///         }
///     }
/// }
///
/// let game = Adapter::new("one-three-four", OneThreeFour);
/// let position = game.parse("2 6")?;
/// let a = game.analyze(&position, Convention::Normal, Limits::default())?;
/// assert_eq!(a.outcome, Outcome::N);
/// assert_eq!(a.winning_moves[0].notation, "B 4"); // leaves 2 2: equal values cancel
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
///
/// `examples/custom_game` does the same for Staircase Nim, with its own
/// position and move syntax, and plays it in the terminal and the browser.
pub struct Adapter<G: Theory> {
    name: String,
    game: G,
    tables: Mutex<Tables<G::Position>>,
}

impl<G> Adapter<G>
where
    G: Theory,
    G::Position: Send + Sync + 'static,
    G::Move: Send + Sync + 'static,
{
    /// Wrap a typed game under a name (its spec, for a catalogue game).
    pub fn new(name: impl fmt::Display, game: G) -> Adapter<G> {
        Adapter {
            name: name.to_string(),
            game,
            tables: Mutex::new(Tables::default()),
        }
    }

    /// The typed game.
    pub fn inner(&self) -> &G {
        &self.game
    }

    /// [`solve`](Self::solve) after a closed form's attempt that began at
    /// `started` (a misère quotient may have been computed): the search has
    /// only the time that is left, so that the whole answer keeps to the
    /// time limit, and a stop names that whole limit.
    #[allow(clippy::type_complexity)]
    fn solve_after(
        &self,
        position: &G::Position,
        convention: Convention,
        limits: Limits,
        started: Instant,
    ) -> Result<(Outcome, Option<Nimber>, Vec<G::Move>, Method), SolveError> {
        let Some(max) = limits.max_time else {
            return self.solve(position, convention, limits);
        };
        let whole = SolveError::TimeLimit {
            millis: max.as_millis() as u64,
        };
        let left = max.saturating_sub(started.elapsed());
        if left.is_zero() {
            return Err(whole);
        }
        self.solve(position, convention, limits.with_time(left))
            .map_err(|e| match e {
                SolveError::TimeLimit { .. } => whole,
                e => e,
            })
    }

    /// Solve typed: outcome, Grundy value, winning moves, method.
    #[allow(clippy::type_complexity)]
    pub fn solve(
        &self,
        position: &G::Position,
        convention: Convention,
        limits: Limits,
    ) -> Result<(Outcome, Option<Nimber>, Vec<G::Move>, Method), SolveError> {
        if let Some(reason) = self.game.too_many_moves(position) {
            return Err(SolveError::TooLarge { reason });
        }
        let mut tables = self.tables.lock().unwrap_or_else(|e| e.into_inner());
        // Tables are a cache: drop them once one outgrows the limit.
        if tables.largest() > limits.max_states {
            *tables = Tables::default();
        }
        // A failed search must not leave a half-grown table that exceeds
        // the limit for the next call; tables are kept only on success.
        if self.game.use_grundy() && convention == Convention::Normal {
            let (table, before) = tables.grundy.take();
            let mut solver = GrundySolver::with_table(&self.game, limits, table);
            let result = (|| {
                let g = solver.grundy(position)?;
                let mut winning = Vec::new();
                for mv in self.game.moves(position) {
                    if solver.grundy(&self.game.apply(position, &mv))?.is_zero() {
                        winning.push(mv);
                    }
                }
                Ok((g, winning))
            })();
            let states = solver.states();
            let (g, winning) = result?;
            let footprint = before.saturating_add(solver.added_footprint());
            tables.grundy.put(solver.into_table(), footprint);
            Ok((
                Outcome::from_to_move_wins(!g.is_zero()),
                Some(g),
                winning,
                Method::Grundy { states },
            ))
        } else {
            let kept = match convention {
                Convention::Normal => &mut tables.normal,
                Convention::Misere => &mut tables.misere,
            };
            let (table, before) = kept.take();
            let mut search = OutcomeSearch::with_table(&self.game, convention, limits, table);
            let result = (|| {
                let outcome = search.outcome(position)?;
                let winning = search.winning_moves(position)?;
                Ok((outcome, winning))
            })();
            let states = search.states();
            let (outcome, winning) = result?;
            let footprint = before.saturating_add(search.added_footprint());
            kept.put(search.into_table(), footprint);
            Ok((outcome, None, winning, Method::Search { states }))
        }
    }

    /// The verdict: by the theory where it applies, else by a solver.
    #[allow(clippy::type_complexity)]
    fn verdict(
        &self,
        p: &G::Position,
        convention: Convention,
        limits: Limits,
    ) -> Result<
        (
            Outcome,
            Option<Nimber>,
            Vec<G::Move>,
            String,
            Method,
            Details,
        ),
        SolveError,
    > {
        let started = Instant::now();
        if let Some(v) = self.game.closed_form_within(p, convention, limits)? {
            // Misère play of a heap game may be settled by its search.
            let method = match &v.details.misere {
                Some(race) if race.answered_by == RaceMethod::Search => Method::Search {
                    states: race.search.states.unwrap_or(0),
                },
                _ => Method::ClosedForm(v.theorem),
            };
            return Ok((
                v.outcome,
                v.grundy,
                v.winning_moves,
                v.explanation,
                method,
                v.details,
            ));
        }
        let (outcome, grundy, winning, method) =
            self.solve_after(p, convention, limits, started)?;
        let mut text = self.game.explain_solved(p, convention, outcome, grundy);
        if text.is_empty() {
            text = generic_explanation(outcome, grundy, &method);
        }
        Ok((outcome, grundy, winning, text, method, Details::default()))
    }

    fn outcome_typed(
        &self,
        p: &G::Position,
        convention: Convention,
        limits: Limits,
    ) -> Result<Outcome, SolveError> {
        let started = Instant::now();
        if let Some(o) = self.game.closed_outcome_within(p, convention, limits)? {
            return Ok(o);
        }
        Ok(self.solve_after(p, convention, limits, started)?.0)
    }

    /// Remoteness of `p` by a search within `states` positions, or the
    /// game's bound if the search is too large.
    fn remoteness(
        &self,
        p: &G::Position,
        outcome: Outcome,
        convention: Convention,
        limits: Limits,
        states: usize,
    ) -> Option<Remoteness> {
        // A position with more material than the budget has states is
        // beyond the search (one expansion may list billions of moves).
        if self.game.material(p) > states as u64 {
            return self.bound(p, outcome, convention);
        }
        let mut tables = self.tables.lock().unwrap_or_else(|e| e.into_inner());
        let slot = match convention {
            Convention::Normal => &mut tables.remote_normal,
            Convention::Misere => &mut tables.remote_misere,
        };
        if slot.footprint > states {
            *slot = Kept::default();
        }
        let budget = Limits {
            max_states: states,
            ..limits
        };
        let (table, before) = slot.take();
        let mut search = RemotenessSearch::with_table(&self.game, convention, budget, table);
        let found = search.value(p);
        let footprint = before.saturating_add(search.added_footprint());
        slot.put(search.into_table(), footprint);
        match found {
            Ok((_, moves)) => Some(Remoteness::Exact(moves)),
            Err(_) => self.bound(p, outcome, convention),
        }
    }

    /// Refuse a position whose moves cannot be listed one by one.
    fn listable(&self, p: &G::Position, position: &Position) -> Result<(), PositionError> {
        match self.game.too_many_moves(p) {
            Some(reason) => Err(PositionError::new(
                format!("the moves of {} cannot be listed", position.text),
                reason,
            )),
            None => Ok(()),
        }
    }

    /// The game's bound on the moves left ([`moves_left_bound`](crate::notation::Notation::moves_left_bound)),
    /// with the parity of the remoteness of a position of this outcome: a
    /// lost position is an even number of moves from the end in normal
    /// play (the last mover wins) and an odd number in misère play, and a
    /// won one the other way round.
    fn bound(
        &self,
        p: &G::Position,
        outcome: Outcome,
        convention: Convention,
    ) -> Option<Remoteness> {
        let b = self.game.moves_left_bound(p)?;
        let odd = (outcome == Outcome::N) == (convention == Convention::Normal);
        let b = if (b % 2 == 1) == odd {
            b
        } else {
            b.saturating_sub(1)
        };
        Some(Remoteness::AtMost(b))
    }

    fn typed<'a>(&self, position: &'a Position) -> Result<&'a G::Position, PositionError> {
        position.data.downcast_ref::<G::Position>().ok_or_else(|| {
            PositionError::new(
                format!(
                    "the position '{}' belongs to another game than {}",
                    position.text, self.name
                ),
                self.game.position_syntax(),
            )
        })
    }

    fn info(&self, position: &G::Position, mv: &G::Move) -> MoveInfo {
        let after = self.game.apply(position, mv);
        let (heap, take) = self.game.heap_fields(position, mv);
        MoveInfo {
            notation: self.game.format_move(position, mv),
            text: self.game.describe_move(position, mv),
            heap,
            take,
            to: self.game.position_value(&after),
            to_text: self.game.format_position(&after),
            touches: self.game.touches(position, mv),
            also_touches: self.game.also_touches(position, mv),
            trace: self.game.trace(position, mv, &after),
            value: None,
            handle: Move(Arc::new(mv.clone())),
            after: self.handle(after),
        }
    }

    /// A handle for a typed position of this game.
    pub fn handle(&self, position: G::Position) -> Position {
        let text = self.game.format_position(&position);
        Position {
            data: Arc::new(position),
            text: text.into(),
        }
    }
}

impl<G> Game for Adapter<G>
where
    G: Theory + Send + Sync,
    G::Position: Send + Sync + 'static,
    G::Move: Send + Sync + 'static,
{
    fn name(&self) -> String {
        self.name.clone()
    }
    fn description(&self) -> Description {
        self.game.description()
    }
    fn conventions(&self) -> &'static [Convention] {
        self.game.conventions()
    }
    fn convention_note(&self) -> &'static str {
        self.game.convention_note()
    }
    fn position_syntax(&self) -> &'static str {
        self.game.position_syntax()
    }
    fn move_syntax(&self) -> String {
        self.game.move_syntax()
    }
    fn parse(&self, text: &str) -> Result<Position, PositionError> {
        Ok(self.handle(self.game.parse_position(text)?))
    }
    fn start(&self) -> Option<Position> {
        self.game.start_position().map(|p| self.handle(p))
    }
    fn value(&self, position: &Position) -> Result<PositionValue, PositionError> {
        Ok(self.game.position_value(self.typed(position)?))
    }
    fn render(&self, position: &Position) -> Result<String, PositionError> {
        Ok(self.game.render(self.typed(position)?))
    }
    fn board(&self, position: &Position) -> Result<Board, PositionError> {
        Ok(self.game.board(self.typed(position)?))
    }
    fn is_terminal(&self, position: &Position) -> Result<bool, PositionError> {
        Ok(self.game.is_terminal(self.typed(position)?))
    }
    fn material(&self, position: &Position) -> Result<u64, PositionError> {
        Ok(self.game.material(self.typed(position)?))
    }
    fn too_many_moves(&self, position: &Position) -> Result<Option<String>, PositionError> {
        Ok(self.game.too_many_moves(self.typed(position)?))
    }
    fn legal_moves(&self, position: &Position) -> Result<Vec<MoveInfo>, PositionError> {
        let p = self.typed(position)?;
        self.listable(p, position)?;
        Ok(self.game.moves(p).iter().map(|m| self.info(p, m)).collect())
    }
    fn move_count(&self, position: &Position) -> Result<u128, PositionError> {
        let p = self.typed(position)?;
        self.listable(p, position)?;
        Ok(self.game.count_moves(p))
    }
    fn legal_moves_page(
        &self,
        position: &Position,
        offset: usize,
        limit: usize,
    ) -> Result<Vec<MoveInfo>, PositionError> {
        let p = self.typed(position)?;
        self.listable(p, position)?;
        Ok(self
            .game
            .moves_page(p, offset, limit)
            .iter()
            .map(|m| self.info(p, m))
            .collect())
    }
    /// A solver at work holds the tables: they count as none until it is
    /// done (and the caller never waits for it).
    fn kept_states(&self) -> usize {
        let Ok(t) = self.tables.try_lock() else {
            return 0;
        };
        [
            t.grundy.footprint,
            t.normal.footprint,
            t.misere.footprint,
            t.remote_normal.footprint,
            t.remote_misere.footprint,
        ]
        .into_iter()
        .fold(0usize, usize::saturating_add)
    }
    /// Tables a solver is using are left to it.
    fn forget_tables(&self) {
        if let Ok(mut t) = self.tables.try_lock() {
            *t = Tables::default();
        }
    }
    fn candidate_moves(&self, position: &Position) -> Result<Vec<MoveInfo>, PositionError> {
        let p = self.typed(position)?;
        Ok(self
            .game
            .candidate_moves(p)
            .iter()
            .map(|m| self.info(p, m))
            .collect())
    }
    fn parse_move(&self, position: &Position, input: &str) -> Result<MoveInfo, MoveError> {
        let p = self
            .typed(position)
            .map_err(|e| MoveError::new(e.to_string()))?;
        let mv = self.game.parse_move(p, input)?;
        Ok(self.info(p, &mv))
    }
    fn apply(&self, position: &Position, mv: &Move) -> Result<Position, MoveError> {
        let p = self
            .typed(position)
            .map_err(|e| MoveError::new(e.to_string()))?;
        let Some(mv) = mv.0.downcast_ref::<G::Move>() else {
            return Err(MoveError::new(format!(
                "that move belongs to another game than {}",
                self.name
            )));
        };
        if !self.game.is_legal(p, mv) {
            return Err(MoveError::new(format!(
                "{} is not a legal move from {}",
                self.game.format_move(p, mv),
                position.text
            )));
        }
        Ok(self.handle(self.game.apply(p, mv)))
    }
    fn analyze_with(
        &self,
        position: &Position,
        convention: Convention,
        options: &AnalyzeOptions,
    ) -> Result<Analysis, GameError> {
        if !self.game.conventions().contains(&convention) {
            return Err(GameError::Convention {
                game: self.name.clone(),
                reason: self.game.convention_note().to_string(),
            });
        }
        let p = self.typed(position)?;
        let limits = options.limits;
        // The whole analysis keeps to the time limit: each later step has
        // what is left of it, and a step with nothing left is skipped (a
        // remoteness falls back to the game's bound).
        let started = Instant::now();
        let left = || -> Option<Limits> {
            match limits.max_time {
                None => Some(limits),
                Some(max) => {
                    let rest = max.saturating_sub(started.elapsed());
                    (!rest.is_zero()).then(|| limits.with_time(rest))
                }
            }
        };
        let (outcome, grundy, winning, explanation, method, details) =
            self.verdict(p, convention, limits)?;
        let remoteness = match left() {
            Some(rest) if options.remoteness => {
                self.remoteness(p, outcome, convention, rest, options.remoteness_states)
            }
            _ if options.remoteness => self.bound(p, outcome, convention),
            _ => None,
        };
        // Each listed move's remoteness counts the move itself. When the
        // search for this position did not finish, the moves' would not
        // either: they get the game's bound at once.
        let searched = matches!(remoteness, Some(Remoteness::Exact(_)));
        let value_of = |after: &G::Position, outcome_after: Outcome| MoveValue {
            outcome_after,
            remoteness: if !options.remoteness {
                None
            } else if let (true, Some(rest)) = (searched, left()) {
                self.remoteness(
                    after,
                    outcome_after,
                    convention,
                    rest,
                    options.remoteness_states,
                )
                .map(Remoteness::plus_one)
            } else {
                self.bound(after, outcome_after, convention)
                    .map(Remoteness::plus_one)
            },
        };
        let winning_moves: Vec<MoveInfo> = winning
            .iter()
            .take(options.max_moves)
            .map(|m| {
                let mut info = self.info(p, m);
                info.value = Some(value_of(&self.game.apply(p, m), Outcome::P));
                info
            })
            .collect();
        let (moves, moves_total) = if options.every_move {
            if let Some(reason) = self.game.too_many_moves(p) {
                return Err(GameError::Solve(SolveError::TooLarge {
                    reason: format!("every move cannot be valued: {reason}"),
                }));
            }
            // A set, not the list: a heap game can have a million moves and
            // a hundred thousand winning ones.
            let winning_set: std::collections::HashSet<&G::Move> = winning.iter().collect();
            // Where the winning moves are not all listed (a closed form
            // that constructs one of millions), each move is valued by the
            // outcome it leaves.
            let complete = details.unlisted_winning == 0;
            let mut all = Vec::new();
            for m in self
                .game
                .moves_page(p, options.moves_offset, options.moves_limit)
            {
                let after = self.game.apply(p, &m);
                // `winning` holds every move to a P-position, so every other
                // move leaves an N-position: no search for it. (Debug
                // builds, and so the tests, search and check.)
                let outcome_after = if winning_set.contains(&m) {
                    Outcome::P
                } else if !complete {
                    let rest = left().ok_or(SolveError::TimeLimit {
                        millis: limits.max_time.unwrap_or_default().as_millis() as u64,
                    })?;
                    self.outcome_typed(&after, convention, rest)?
                } else {
                    if cfg!(debug_assertions)
                        && let Ok(o) = self.outcome_typed(&after, convention, limits)
                    {
                        debug_assert_eq!(
                            o,
                            Outcome::N,
                            "{}: a move missing from the winning moves wins",
                            self.name
                        );
                    }
                    Outcome::N
                };
                let mut info = self.info(p, &m);
                info.value = Some(value_of(&after, outcome_after));
                all.push(info);
            }
            let total = self.game.count_moves(p);
            (Some(all), Some(u64::try_from(total).unwrap_or(u64::MAX)))
        } else {
            (None, None)
        };
        Ok(Analysis {
            game: self.name.clone(),
            convention,
            position: self.game.position_value(p),
            position_text: position.text.to_string(),
            outcome,
            grundy,
            remoteness,
            winning_moves_total: winning.len() + details.unlisted_winning,
            winning_moves,
            moves,
            moves_total,
            moves_offset: options.moves_offset,
            explanation,
            method,
            details,
        })
    }
    fn misere_record(&self) -> Option<crate::misere::QuotientRecord> {
        self.game.misere_record()
    }
    fn restore_misere_record(
        &self,
        record: &crate::misere::QuotientRecord,
    ) -> Result<(), crate::misere::RecordError> {
        self.game.restore_misere_record(record)
    }
    fn outcome(
        &self,
        position: &Position,
        convention: Convention,
        limits: Limits,
    ) -> Result<Outcome, GameError> {
        if !self.game.conventions().contains(&convention) {
            return Err(GameError::Convention {
                game: self.name.clone(),
                reason: self.game.convention_note().to_string(),
            });
        }
        Ok(self.outcome_typed(self.typed(position)?, convention, limits)?)
    }
}

fn generic_explanation(outcome: Outcome, grundy: Option<Nimber>, method: &Method) -> String {
    let verdict = match outcome {
        Outcome::N => "the player to move wins",
        Outcome::P => "the player to move loses against perfect play",
    };
    match (method, grundy) {
        (Method::Grundy { .. }, Some(g)) => format!(
            "The Sprague–Grundy value is {g}: the XOR of the values of the independent parts, each the mex of the values of its options. It is {}, so {verdict}. A winning move leaves value 0.\n",
            if g.is_zero() { "0" } else { "not 0" }
        ),
        _ => format!(
            "No closed form applies here, so Nimatron searched every line of play ({method}): {verdict}.\n"
        ),
    }
}

#[cfg(test)]
mod tests {
    use crate::{Convention, GameSpec, Limits, Outcome};

    #[test]
    fn handles_apply_and_refuse() {
        let nim = "nim".parse::<GameSpec>().unwrap().build().unwrap();
        let kayles = "kayles".parse::<GameSpec>().unwrap().build().unwrap();
        // Huge heaps: a legal move is checked without listing every move.
        let p = nim.heap_position(&[u64::MAX, 7]).unwrap();
        let mv = nim.parse_move(&p, "A 5").unwrap();
        let after = nim.apply(&p, mv.handle()).unwrap();
        assert_eq!(after.text(), format!("{} 7", u64::MAX - 5));
        // A move of one position is refused on another, which is unchanged.
        let small = nim.parse("3 4").unwrap();
        assert!(nim.apply(&small, mv.handle()).is_err());
        assert_eq!(small.text(), "3 4");
        // Another game's handles are refused, not misread.
        let k = kayles.parse("3 4").unwrap();
        let e = nim.legal_moves(&kayles.parse("5").unwrap());
        assert!(
            e.is_ok(),
            "both games' positions are heaps: read as Nim heaps"
        );
        let kmv = kayles.legal_moves(&k).unwrap();
        assert!(nim.apply(&small, kmv[0].handle()).is_err());
        let a = nim
            .analyze(&small, Convention::Normal, Limits::default())
            .unwrap();
        assert_eq!(a.outcome, Outcome::N);
    }

    /// Every move listed with `every_move` is valued as the library's own
    /// `outcome` of the position it leaves, for every catalogue game's
    /// start under each convention it offers.
    #[test]
    fn every_listed_move_is_valued_by_the_outcome_it_leaves() {
        use crate::AnalyzeOptions;
        let limits = Limits::states(200_000);
        let options = crate::AnalyzeOptions {
            every_move: true,
            ..AnalyzeOptions::new(limits)
        };
        let mut checked = 0;
        for entry in GameSpec::CATALOGUE {
            let game = entry.example.parse::<GameSpec>().unwrap().build().unwrap();
            let Some(start) = game.start() else { continue };
            for &convention in game.conventions() {
                let Ok(a) = game.analyze_with(&start, convention, &options) else {
                    continue;
                };
                for m in a.moves.as_ref().expect("every move listed") {
                    let Ok(truth) = game.outcome(m.after(), convention, limits) else {
                        continue;
                    };
                    let value = m.value.as_ref().expect("a listed move is valued");
                    assert_eq!(
                        value.outcome_after, truth,
                        "{}: {}",
                        entry.example, m.notation
                    );
                    checked += 1;
                }
            }
        }
        assert!(checked > 200, "{checked}");
    }

    /// Kept tables are measured by footprint, as the state limit is: after
    /// a misère remoteness search of Kayles on eight heaps of 3 (positions of up to 16
    /// heaps, footprint 1 + heaps/8), the kept footprint is the sum over
    /// the table's positions, above its count of entries; and a limit below
    /// that footprint, though above the count, clears the table before the
    /// next search.
    #[test]
    fn kept_tables_count_footprints() {
        use super::Adapter;
        use crate::games::take_break::TakeBreakGame;
        use crate::rules::Rules;
        use crate::sequence::HeapGame;
        // Misère play of a heap game is settled by the race (its own
        // tables); the exact remoteness is still the generic search's, kept
        // in the adapter's table.
        let game = TakeBreakGame::new("kayles".parse::<HeapGame>().unwrap());
        let adapter = Adapter::new("kayles", game);
        let eight = adapter.handle(vec![3; 8]);
        let a =
            crate::Game::analyze(&adapter, &eight, Convention::Misere, Limits::default()).unwrap();
        assert!(
            matches!(a.remoteness, Some(crate::Remoteness::Exact(_))),
            "{:?}",
            a.remoteness
        );
        let (entries, footprint) = {
            let tables = adapter.tables.lock().unwrap();
            let kept = &tables.remote_misere;
            let sum: usize = kept.map.keys().map(|p| adapter.inner().footprint(p)).sum();
            assert_eq!(kept.footprint, sum);
            (kept.map.len(), kept.footprint)
        };
        assert!(footprint > entries, "{footprint} <= {entries}");
        // A small position under a limit between the two: the table is
        // cleared first, so only the new search's positions are kept.
        let small = adapter.handle(vec![2, 3]);
        let options = crate::AnalyzeOptions {
            remoteness_states: (entries + footprint) / 2,
            ..crate::AnalyzeOptions::new(Limits::default())
        };
        crate::Game::analyze_with(&adapter, &small, Convention::Misere, &options).unwrap();
        let fresh = Adapter::new(
            "kayles",
            TakeBreakGame::new("kayles".parse::<HeapGame>().unwrap()),
        );
        crate::Game::analyze_with(
            &fresh,
            &fresh.handle(vec![2, 3]),
            Convention::Misere,
            &options,
        )
        .unwrap();
        let alone = fresh.tables.lock().unwrap().remote_misere.map.len();
        assert!(alone > 0 && alone < entries, "{alone} {entries}");
        assert_eq!(
            adapter.tables.lock().unwrap().remote_misere.map.len(),
            alone
        );
    }
}
