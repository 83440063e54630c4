//! One face for every game: the CLI, the web server and the docs speak to
//! games through [`Game`], an object-safe trait on canonical text positions.
//!
//! A game is written as typed [`Rules`] plus [`Notation`] (how positions and
//! moves are written) and [`Theory`] (closed forms, where the theory has
//! them). [`Adapter`] turns that into a [`Game`], with solvers whose tables
//! persist across calls.

use std::collections::HashMap;
use std::fmt;
use std::sync::Mutex;

use crate::solve::{GrundySolver, Limits, OutcomeSearch, SolveError};
use crate::{Convention, GameSpec, Nimber, Outcome, Rules};

/// A position as data: heap sizes for heap games, else canonical text.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum PositionValue {
    /// Heap sizes.
    Heaps(Vec<u64>),
    /// Any other position, in the game's canonical notation.
    Text(String),
}

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

/// A legal move, described every way a front end needs.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MoveInfo {
    /// The move in the game's notation (what [`Game::parse_move`] accepts).
    pub notation: String,
    /// A sentence for people.
    pub text: String,
    /// For heap games: the 0-based heap index and the number removed.
    pub heap: Option<usize>,
    /// For heap games: how many objects the move removes.
    pub take: Option<u64>,
    /// The resulting position, canonical text.
    pub to_text: String,
    /// The resulting position as data.
    pub to: PositionValue,
}

/// How a verdict was reached.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Method {
    /// A theorem, named.
    ClosedForm(String),
    /// Grundy values by memoised mex (normal play).
    Grundy {
        /// Component values stored.
        states: usize,
    },
    /// Exhaustive outcome search.
    Search {
        /// Positions stored.
        states: usize,
    },
}

impl fmt::Display for Method {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Method::ClosedForm(name) => write!(f, "closed form: {name}"),
            Method::Grundy { states } => {
                write!(
                    f,
                    "Sprague–Grundy values by memoised mex ({states} components stored)"
                )
            }
            Method::Search { states } => write!(f, "exhaustive search ({states} positions stored)"),
        }
    }
}

/// A solved position, ready to print.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Analysis {
    /// The game.
    pub game: GameSpec,
    /// The convention.
    pub convention: Convention,
    /// The position, canonical text.
    pub position_text: String,
    /// The position as data.
    pub position: PositionValue,
    /// Win or loss for the player to move.
    pub outcome: Outcome,
    /// The normal-play Grundy value, where one is computed.
    pub grundy: Option<Nimber>,
    /// Every winning move.
    pub winning_moves: Vec<MoveInfo>,
    /// Why, in words and tables.
    pub explanation: String,
    /// How the verdict was reached.
    pub method: Method,
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
}

/// Both conventions.
pub const BOTH_CONVENTIONS: &[Convention] = &[Convention::Normal, Convention::Misere];

/// How a game's positions and moves are written.
pub trait Notation: Rules {
    /// Parse a position in the game's syntax (checking it fits the game).
    fn parse_position(&self, text: &str) -> Result<Self::Position, PositionError>;
    /// Canonical text; parsing it gives the same position back.
    fn format_position(&self, position: &Self::Position) -> String;
    /// The position as data.
    fn position_value(&self, position: &Self::Position) -> PositionValue {
        PositionValue::Text(self.format_position(position))
    }
    /// The usual start, if the game has one.
    fn start_position(&self) -> Option<Self::Position> {
        None
    }
    /// Parse a typed move and check that it is legal here.
    fn parse_move(&self, position: &Self::Position, input: &str) -> Result<Self::Move, MoveError>;
    /// A move in the notation `parse_move` accepts.
    fn format_move(&self, position: &Self::Position, mv: &Self::Move) -> String;
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
    fn material(&self, position: &Self::Position) -> u64;
    /// The moves worth considering when choosing a move; all of them unless
    /// there are too many to evaluate (huge heaps).
    fn candidate_moves(&self, position: &Self::Position) -> Vec<Self::Move> {
        self.moves(position)
    }
    /// The syntax of positions, for messages and `nimatron games`.
    fn position_syntax(&self) -> &'static str;
    /// The syntax of moves, for `help` in play.
    fn move_syntax(&self) -> &'static str;
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
    /// Whether normal play may use Grundy values (true for every impartial
    /// game; false only to force plain search).
    fn use_grundy(&self) -> bool {
        true
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

/// The object-safe face of a game.
pub trait Game: Send + Sync {
    /// The spec this game was built from.
    fn spec(&self) -> &GameSpec;
    /// Conventions offered.
    fn conventions(&self) -> &'static [Convention];
    /// Why a convention is missing, if one is.
    fn convention_note(&self) -> &'static str;
    /// The usual start position, canonical text.
    fn start_position(&self) -> Option<String>;
    /// Parse a position; returns its canonical text.
    fn parse_position(&self, text: &str) -> Result<String, PositionError>;
    /// The position as data.
    fn position_value(&self, position: &str) -> Result<PositionValue, PositionError>;
    /// A picture for the terminal.
    fn render(&self, position: &str) -> Result<String, PositionError>;
    /// Whether no move is left (cheaper than listing the moves).
    fn is_terminal(&self, position: &str) -> Result<bool, PositionError>;
    /// Every legal move.
    fn legal_moves(&self, position: &str) -> Result<Vec<MoveInfo>, PositionError>;
    /// The moves a computer player considers (all, unless there are too many).
    fn candidate_moves(&self, position: &str) -> Result<Vec<MoveInfo>, PositionError>;
    /// Parse a typed move and check it is legal.
    fn parse_move(&self, position: &str, input: &str) -> Result<MoveInfo, MoveError>;
    /// Material left.
    fn material(&self, position: &str) -> Result<u64, PositionError>;
    /// Solve a position: outcome, every winning move, and why.
    fn analyze(
        &self,
        position: &str,
        convention: Convention,
        limits: Limits,
    ) -> Result<Analysis, GameError>;
    /// Position syntax, for messages.
    fn position_syntax(&self) -> &'static str;
    /// Move syntax, for help.
    fn move_syntax(&self) -> &'static str;
    /// The catalogue entry.
    fn description(&self) -> Description;
}

struct Tables<P> {
    grundy: HashMap<P, Nimber>,
    normal: HashMap<P, bool>,
    misere: HashMap<P, bool>,
}

/// Turns a typed game into a [`Game`], keeping solver tables between calls.
pub struct Adapter<G: Theory> {
    spec: GameSpec,
    game: G,
    tables: Mutex<Tables<G::Position>>,
}

impl<G: Theory> Adapter<G> {
    /// Wrap a typed game.
    pub fn new(spec: GameSpec, game: G) -> Adapter<G> {
        Adapter {
            spec,
            game,
            tables: Mutex::new(Tables {
                grundy: HashMap::new(),
                normal: HashMap::new(),
                misere: HashMap::new(),
            }),
        }
    }

    /// The typed game.
    pub fn inner(&self) -> &G {
        &self.game
    }

    fn parse(&self, text: &str) -> Result<G::Position, PositionError> {
        self.game.parse_position(text)
    }

    fn info(&self, position: &G::Position, mv: &G::Move) -> MoveInfo {
        let after = self.game.apply(position, mv);
        let (heap, take) = self.game.heap_fields(position, mv);
        MoveInfo {
            notation: self.game.format_move(position, mv),
            text: self.game.describe_move(position, mv),
            heap,
            take,
            to_text: self.game.format_position(&after),
            to: self.game.position_value(&after),
        }
    }

    /// Solve typed: outcome, Grundy value, winning moves, method.
    #[allow(clippy::type_complexity)]
    pub fn solve(
        &self,
        position: &G::Position,
        convention: Convention,
        limits: Limits,
    ) -> Result<(Outcome, Option<Nimber>, Vec<G::Move>, Method), SolveError> {
        let mut tables = self.tables.lock().unwrap_or_else(|e| e.into_inner());
        // Tables are a cache: drop one that has outgrown the limit.
        for size in [
            tables.grundy.len(),
            tables.normal.len(),
            tables.misere.len(),
        ] {
            if size > limits.max_states {
                tables.grundy.clear();
                tables.normal.clear();
                tables.misere.clear();
                break;
            }
        }
        // A failed search must not leave a half-grown table that exceeds
        // the limit for the next call; tables are kept only on success.
        if self.game.use_grundy() && convention == Convention::Normal {
            let mut solver =
                GrundySolver::with_table(&self.game, limits, std::mem::take(&mut tables.grundy));
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
            match result {
                Ok((g, winning)) => {
                    tables.grundy = solver.into_table();
                    Ok((
                        Outcome::from_to_move_wins(!g.is_zero()),
                        Some(g),
                        winning,
                        Method::Grundy { states },
                    ))
                }
                Err(e) => Err(e),
            }
        } else {
            let table = match convention {
                Convention::Normal => std::mem::take(&mut tables.normal),
                Convention::Misere => std::mem::take(&mut tables.misere),
            };
            let mut search = OutcomeSearch::with_table(&self.game, convention, limits, table);
            let result = (|| {
                let outcome = search.outcome(position)?;
                let winning = search.winning_moves(position)?;
                Ok((outcome, winning))
            })();
            let states = search.states();
            match result {
                Ok((outcome, winning)) => {
                    let table = search.into_table();
                    match convention {
                        Convention::Normal => tables.normal = table,
                        Convention::Misere => tables.misere = table,
                    }
                    Ok((outcome, None, winning, Method::Search { states }))
                }
                Err(e) => Err(e),
            }
        }
    }
}

impl<G> Game for Adapter<G>
where
    G: Theory + Send + Sync,
    G::Position: Send,
{
    fn spec(&self) -> &GameSpec {
        &self.spec
    }
    fn conventions(&self) -> &'static [Convention] {
        self.game.conventions()
    }
    fn convention_note(&self) -> &'static str {
        self.game.convention_note()
    }
    fn start_position(&self) -> Option<String> {
        self.game
            .start_position()
            .map(|p| self.game.format_position(&p))
    }
    fn parse_position(&self, text: &str) -> Result<String, PositionError> {
        Ok(self.game.format_position(&self.parse(text)?))
    }
    fn position_value(&self, position: &str) -> Result<PositionValue, PositionError> {
        Ok(self.game.position_value(&self.parse(position)?))
    }
    fn render(&self, position: &str) -> Result<String, PositionError> {
        Ok(self.game.render(&self.parse(position)?))
    }
    fn is_terminal(&self, position: &str) -> Result<bool, PositionError> {
        Ok(self.game.is_terminal(&self.parse(position)?))
    }
    fn legal_moves(&self, position: &str) -> Result<Vec<MoveInfo>, PositionError> {
        let p = self.parse(position)?;
        Ok(self
            .game
            .moves(&p)
            .iter()
            .map(|m| self.info(&p, m))
            .collect())
    }
    fn candidate_moves(&self, position: &str) -> Result<Vec<MoveInfo>, PositionError> {
        let p = self.parse(position)?;
        Ok(self
            .game
            .candidate_moves(&p)
            .iter()
            .map(|m| self.info(&p, m))
            .collect())
    }
    fn parse_move(&self, position: &str, input: &str) -> Result<MoveInfo, MoveError> {
        let p = self
            .parse(position)
            .map_err(|e| MoveError::new(e.to_string()))?;
        let mv = self.game.parse_move(&p, input)?;
        Ok(self.info(&p, &mv))
    }
    fn material(&self, position: &str) -> Result<u64, PositionError> {
        Ok(self.game.material(&self.parse(position)?))
    }
    fn analyze(
        &self,
        position: &str,
        convention: Convention,
        limits: Limits,
    ) -> Result<Analysis, GameError> {
        if !self.game.conventions().contains(&convention) {
            return Err(GameError::Convention {
                game: self.spec.to_string(),
                reason: self.game.convention_note().to_string(),
            });
        }
        let p = self.parse(position)?;
        let (outcome, grundy, winning, explanation, method) =
            match self.game.closed_form_within(&p, convention, limits)? {
                Some(v) => (
                    v.outcome,
                    v.grundy,
                    v.winning_moves,
                    v.explanation,
                    Method::ClosedForm(v.theorem),
                ),
                None => {
                    let (outcome, grundy, winning, method) = self.solve(&p, convention, limits)?;
                    let mut text = self.game.explain_solved(&p, convention, outcome, grundy);
                    if text.is_empty() {
                        text = generic_explanation(outcome, grundy, &method);
                    }
                    (outcome, grundy, winning, text, method)
                }
            };
        Ok(Analysis {
            game: self.spec.clone(),
            convention,
            position_text: self.game.format_position(&p),
            position: self.game.position_value(&p),
            outcome,
            grundy,
            winning_moves: winning.iter().map(|m| self.info(&p, m)).collect(),
            explanation,
            method,
        })
    }
    fn position_syntax(&self) -> &'static str {
        self.game.position_syntax()
    }
    fn move_syntax(&self) -> &'static str {
        self.game.move_syntax()
    }
    fn description(&self) -> Description {
        self.game.description()
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
