//! What an analysis says, as data: the verdict, the value, every winning
//! move with its remoteness, and the words that explain it.
//!
//! Every front end prints these types; none works anything out again. With
//! the `serde` feature they serialise to the JSON object of the CLI
//! contract (`nimatron analyze --json`), which the web API shares.

use std::fmt;
use std::fmt::Write as _;

use crate::dynamic::{Move, Position};
use crate::geometry::{Element, Trace};
use crate::heap_notation::heap_name;
use crate::nim::{HeapMove, Regime};
use crate::solve::Limits;
use crate::{Convention, Nimber, Outcome};

/// A position as data: heap sizes for heap games, else canonical text.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum PositionValue {
    /// Heap sizes.
    Heaps(Vec<u64>),
    /// Any other position, in the game's canonical notation.
    Text(String),
}

impl PositionValue {
    /// The heap sizes, for heap games.
    pub fn heaps(&self) -> Option<&[u64]> {
        match self {
            PositionValue::Heaps(h) => Some(h),
            PositionValue::Text(_) => None,
        }
    }
}

/// How many moves are left under perfect play: the winner hurries and the
/// loser delays (Steinhaus's remoteness; Winning Ways, chapter 9).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Remoteness {
    /// Exactly this many moves, found by search.
    Exact(u64),
    /// At most this many moves: the search was too large, and the bound
    /// comes from the game (every move uses up material, say).
    AtMost(u64),
}

impl Remoteness {
    /// The number of moves (exact, or the bound).
    pub fn moves(self) -> u64 {
        match self {
            Remoteness::Exact(n) | Remoteness::AtMost(n) => n,
        }
    }

    /// Whether the number is exact.
    pub fn is_exact(self) -> bool {
        matches!(self, Remoteness::Exact(_))
    }

    /// One more move: the remoteness of a position reached by this one's
    /// parent through a move.
    pub fn plus_one(self) -> Remoteness {
        match self {
            Remoteness::Exact(n) => Remoteness::Exact(n + 1),
            Remoteness::AtMost(n) => Remoteness::AtMost(n + 1),
        }
    }
}

impl fmt::Display for Remoteness {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Remoteness::Exact(n) => write!(f, "{n}"),
            Remoteness::AtMost(n) => write!(f, "at most {n}"),
        }
    }
}

/// What a move is worth to the player who makes it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MoveValue {
    /// The outcome for the opponent, who moves next: `P` means the move wins.
    pub outcome_after: Outcome,
    /// Moves to the end of the game if this one is played, counting it.
    pub remoteness: Option<Remoteness>,
}

impl MoveValue {
    /// Whether the move wins (leaves the opponent lost).
    pub fn wins(self) -> bool {
        self.outcome_after == Outcome::P
    }

    /// "wins in 3", "loses in 5", "wins": for people.
    pub fn describe(self) -> String {
        let verb = if self.wins() { "wins" } else { "loses" };
        match self.remoteness {
            Some(Remoteness::Exact(n)) => format!("{verb} in {n}"),
            Some(Remoteness::AtMost(n)) => format!("{verb} in at most {n}"),
            None => verb.to_string(),
        }
    }
}

/// A legal move, described every way a front end needs.
#[derive(Clone, Debug)]
pub struct MoveInfo {
    /// The move in the game's notation (what `parse_move` accepts).
    pub notation: String,
    /// A sentence for people (JSON gives it a capital letter).
    pub text: String,
    /// For heap games: the 0-based heap index.
    pub heap: Option<usize>,
    /// For heap games: how many objects the move removes (in all, for a
    /// move that changes several heaps).
    pub take: Option<u64>,
    /// The resulting position as data.
    pub to: PositionValue,
    /// The resulting position, canonical text.
    pub to_text: String,
    /// The board elements the move touches: what a board highlights.
    pub touches: Vec<Element>,
    /// Other sets of elements that make the same move (its mirror image in
    /// a row): a board accepts a selection of any of them.
    pub also_touches: Vec<Vec<Element>>,
    /// What the move does to the board, told on the board after it: the
    /// pieces it takes away (those it touches and those that go with them)
    /// and those it puts down or changes.
    pub trace: Trace,
    /// What the move is worth, when the analysis valued it.
    pub value: Option<MoveValue>,
    pub(crate) handle: Move,
    pub(crate) after: Position,
}

impl MoveInfo {
    /// The typed move, for [`Game::apply`](crate::Game::apply).
    pub fn handle(&self) -> &Move {
        &self.handle
    }

    /// The position the move leads to.
    pub fn after(&self) -> &Position {
        &self.after
    }
}

impl PartialEq for MoveInfo {
    fn eq(&self, other: &MoveInfo) -> bool {
        self.notation == other.notation && self.to == other.to && self.value == other.value
    }
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

impl Method {
    /// The positions (or components) a solver had stored: its work, which
    /// depends on what earlier calls left in its tables.
    pub fn states(&self) -> Option<usize> {
        match self {
            Method::ClosedForm(_) => None,
            Method::Grundy { states } | Method::Search { states } => Some(*states),
        }
    }
}

impl fmt::Display for Method {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Method::ClosedForm(name) => write!(f, "closed form: {name}"),
            Method::Grundy { .. } => f.write_str("Sprague–Grundy values by memoised mex"),
            Method::Search { .. } => f.write_str("exhaustive search"),
        }
    }
}

/// Nim's own figures: the nim-sum and which rule decides.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct NimDetail {
    /// The XOR of the heaps.
    pub nim_sum: Nimber,
    /// Bouton's rule, or one of the misère endgame rules.
    pub regime: Regime,
}

/// Results a closed form adds beyond the verdict.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Details {
    /// Nim: the nim-sum and the rule that decides.
    pub nim: Option<NimDetail>,
    /// Candy Nim: how the candies split under perfect play.
    pub candy: Option<CandySplit>,
    /// Winning moves counted but not listed, whatever `max_moves` asks: a
    /// heap too large for its moves to be examined one by one, whose
    /// winning moves are counted by the period of its values.
    pub unlisted_winning: usize,
    /// Misère play of a heap game: how its misère quotient and a plain
    /// search raced for the answer.
    pub misere: Option<MisereRace>,
}

/// How misère play of a heap game was settled. Its misère quotient and a
/// plain search share one budget, in turns of growing length, and the first
/// to prove the answer gives it; a quotient kept from earlier positions
/// answers at once.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MisereRace {
    /// The method that answered.
    pub answered_by: RaceMethod,
    /// What the misère quotient did.
    pub quotient: RaceRun,
    /// What the search did.
    pub search: RaceRun,
    /// After this analysis, the game's misère quotient is verified for the
    /// heaps `1..=quotient_heaps` (every heap when `quotient_proven`).
    pub quotient_heaps: u64,
    /// Its order (elements).
    pub quotient_order: usize,
    /// Whether its heap images are proven periodic, so that it covers every
    /// heap size.
    pub quotient_proven: bool,
}

/// One of the two methods of a [`MisereRace`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RaceMethod {
    /// The misère quotient: a product of the heaps' images.
    Quotient,
    /// Plain search of the game tree.
    Search,
}

impl RaceMethod {
    /// `quotient` or `search`.
    pub fn name(self) -> &'static str {
        match self {
            RaceMethod::Quotient => "quotient",
            RaceMethod::Search => "search",
        }
    }
}

/// How a method of a [`MisereRace`] fared.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RaceStatus {
    /// It answered.
    Answered,
    /// It answered at once: the quotient kept from earlier positions
    /// covers these heaps.
    Kept,
    /// It was still working when the other answered.
    Unfinished,
    /// It stopped at a limit, or cannot reach these heaps.
    Stopped,
    /// It did not run (the note says why).
    NotRun,
}

impl RaceStatus {
    /// `answered`, `kept`, `unfinished`, `stopped` or `not_run`.
    pub fn name(self) -> &'static str {
        match self {
            RaceStatus::Answered => "answered",
            RaceStatus::Kept => "kept",
            RaceStatus::Unfinished => "unfinished",
            RaceStatus::Stopped => "stopped",
            RaceStatus::NotRun => "not_run",
        }
    }
}

/// What one method of a [`MisereRace`] did.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RaceRun {
    /// How it fared.
    pub status: RaceStatus,
    /// The time it had, in milliseconds.
    pub millis: u64,
    /// For the search: the positions it had stored.
    pub states: Option<usize>,
    /// Why, in words: what it reached, or why it stopped or did not run.
    pub note: String,
}

impl MisereRace {
    /// The race in a sentence or two, for people.
    pub fn describe(&self) -> String {
        let (winner, loser, other) = match self.answered_by {
            RaceMethod::Quotient => (&self.quotient, &self.search, "search"),
            RaceMethod::Search => (&self.search, &self.quotient, "quotient"),
        };
        let mut text = format!("{} {}", self.answered_by.name(), winner.note);
        let _ = write!(text, "; the {other} {}", loser.note);
        text.push('.');
        capitalise(&text)
    }
}

/// The candies each side collects from a position under optimal Candy Nim
/// play.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CandySplit {
    /// Whether the player to move wins (takes the last candy).
    pub mover_wins: bool,
    /// Candies the winner collects from here on.
    pub winner_candies: u64,
    /// Candies the loser collects from here on.
    pub loser_candies: u64,
    /// The moves that achieve the split for the player to move (winning
    /// moves for a winner, any moves for a loser).
    pub best_moves: Vec<HeapMove>,
    /// Positions stored by the search.
    pub states: usize,
}

impl CandySplit {
    /// Candies the player to move collects.
    pub fn mover_candies(&self) -> u64 {
        if self.mover_wins {
            self.winner_candies
        } else {
            self.loser_candies
        }
    }

    /// Candies the opponent collects.
    pub fn opponent_candies(&self) -> u64 {
        if self.mover_wins {
            self.loser_candies
        } else {
            self.winner_candies
        }
    }

    /// Who takes the last candy, as the JSON names them: `player to move`
    /// when the player to move wins (`mover_wins`), else `opponent`.
    pub const fn winner_name(mover_wins: bool) -> &'static str {
        if mover_wins {
            "player to move"
        } else {
            "opponent"
        }
    }

    /// The split as one line of JSON.
    pub fn to_json(&self) -> String {
        let moves: Vec<String> = self
            .best_moves
            .iter()
            .map(|m| format!("\"{} {}\"", heap_name(m.heap), m.take))
            .collect();
        format!(
            "{{\"winner\":\"{}\",\"winner_candies\":{},\"loser_candies\":{},\"mover_candies\":{},\"opponent_candies\":{},\"best_moves\":[{}]}}",
            CandySplit::winner_name(self.mover_wins),
            self.winner_candies,
            self.loser_candies,
            self.mover_candies(),
            self.opponent_candies(),
            moves.join(",")
        )
    }
}

impl fmt::Display for CandySplit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "winner {} candies, loser {}",
            self.winner_candies, self.loser_candies
        )
    }
}

/// What to compute beyond the verdict.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct AnalyzeOptions {
    /// Bounds on the solvers' work.
    pub limits: Limits,
    /// List at most this many winning moves (all are counted).
    pub max_moves: usize,
    /// Value every legal move, not only the winning ones.
    pub every_move: bool,
    /// With `every_move`: the first move valued, counting from 0 in the
    /// order of [`Game::legal_moves`](crate::Game::legal_moves).
    pub moves_offset: usize,
    /// With `every_move`: value at most this many moves (all are counted).
    pub moves_limit: usize,
    /// Compute remoteness (by a search bounded by `remoteness_states`).
    pub remoteness: bool,
    /// The most positions the remoteness search may store; beyond it the
    /// game's own bound is given, or none.
    pub remoteness_states: usize,
}

impl AnalyzeOptions {
    /// The default remoteness budget: small positions get exact figures
    /// at once, and large ones do not wait for them.
    pub const DEFAULT_REMOTENESS_STATES: usize = 50_000;

    /// Every winning move and remoteness, within `limits`.
    pub fn new(limits: Limits) -> AnalyzeOptions {
        AnalyzeOptions {
            limits,
            max_moves: usize::MAX,
            every_move: false,
            moves_offset: 0,
            moves_limit: usize::MAX,
            remoteness: true,
            remoteness_states: AnalyzeOptions::DEFAULT_REMOTENESS_STATES,
        }
    }
}

impl Default for AnalyzeOptions {
    fn default() -> AnalyzeOptions {
        AnalyzeOptions::new(Limits::default())
    }
}

/// A solved position.
#[derive(Clone, Debug, PartialEq)]
pub struct Analysis {
    /// The game, as its canonical spec.
    pub game: String,
    /// The convention.
    pub convention: Convention,
    /// The position as data.
    pub position: PositionValue,
    /// The position, canonical text.
    pub position_text: String,
    /// Win or loss for the player to move.
    pub outcome: Outcome,
    /// The normal-play Grundy value, where one is computed.
    pub grundy: Option<Nimber>,
    /// Moves to the end under perfect play, where known or bounded.
    pub remoteness: Option<Remoteness>,
    /// The winning moves listed (at most the `max_moves` asked for).
    pub winning_moves: Vec<MoveInfo>,
    /// How many winning moves there are in all.
    pub winning_moves_total: usize,
    /// Every legal move with its value, when asked for (the page of them
    /// that `moves_offset` and `moves_limit` asked for).
    pub moves: Option<Vec<MoveInfo>>,
    /// How many legal moves there are in all, when `moves` is given.
    pub moves_total: Option<u64>,
    /// Where `moves` starts among them, when given.
    pub moves_offset: usize,
    /// Why, in words and tables.
    pub explanation: String,
    /// How the verdict was reached.
    pub method: Method,
    /// Results particular to the game (Nim's nim-sum, Candy Nim's split).
    pub details: Details,
}

impl Analysis {
    /// Whether some winning moves were left out of the list.
    pub fn truncated(&self) -> bool {
        self.winning_moves.len() < self.winning_moves_total
    }

    /// Whether `moves`, when given, leaves some legal moves out (it is one
    /// page of them).
    pub fn moves_truncated(&self) -> bool {
        match (&self.moves, self.moves_total) {
            (Some(moves), Some(total)) => self.moves_offset > 0 || (moves.len() as u64) < total,
            _ => false,
        }
    }
}

/// The first letter in upper case.
pub(crate) fn capitalise(s: &str) -> String {
    let mut c = s.chars();
    match c.next() {
        Some(first) => first.to_uppercase().chain(c).collect(),
        None => String::new(),
    }
}

#[cfg(feature = "serde")]
pub(crate) mod json {
    //! The JSON shapes of the CLI contract.
    use serde::ser::{Serialize, SerializeMap, Serializer};

    use super::*;
    use crate::heap_notation::heap_name;

    impl Serialize for PositionValue {
        fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
            match self {
                PositionValue::Heaps(h) => h.serialize(s),
                PositionValue::Text(t) => t.serialize(s),
            }
        }
    }

    impl Serialize for Remoteness {
        fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
            let mut m = s.serialize_map(Some(2))?;
            m.serialize_entry("moves", &self.moves())?;
            m.serialize_entry("exact", &self.is_exact())?;
            m.end()
        }
    }

    impl Serialize for MoveInfo {
        fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
            let mut m = s.serialize_map(None)?;
            // A move that changes several heaps has `heap` null and `take`
            // the objects it removes in all; other games have neither.
            if self.heap.is_some() || self.take.is_some() {
                m.serialize_entry("heap", &self.heap)?;
                m.serialize_entry("take", &self.take)?;
            }
            m.serialize_entry("to", &self.to)?;
            m.serialize_entry("to_text", &self.to_text)?;
            m.serialize_entry("text", &capitalise(&self.text))?;
            m.serialize_entry("move", &self.notation)?;
            m.serialize_entry("notation", &self.notation)?;
            m.serialize_entry("touches", &self.touches)?;
            if !self.also_touches.is_empty() {
                m.serialize_entry("also_touches", &self.also_touches)?;
            }
            m.serialize_entry("trace", &self.trace)?;
            if let Some(v) = self.value {
                m.serialize_entry("value", if v.wins() { "winning" } else { "losing" })?;
                m.serialize_entry("remoteness", &v.remoteness)?;
                m.serialize_entry("value_text", &v.describe())?;
            }
            m.end()
        }
    }

    impl Serialize for CandySplit {
        fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
            let moves: Vec<String> = self
                .best_moves
                .iter()
                .map(|m| format!("{} {}", heap_name(m.heap), m.take))
                .collect();
            let mut m = s.serialize_map(Some(6))?;
            m.serialize_entry("winner", CandySplit::winner_name(self.mover_wins))?;
            m.serialize_entry("winner_candies", &self.winner_candies)?;
            m.serialize_entry("loser_candies", &self.loser_candies)?;
            m.serialize_entry("mover_candies", &self.mover_candies())?;
            m.serialize_entry("opponent_candies", &self.opponent_candies())?;
            m.serialize_entry("best_moves", &moves)?;
            m.end()
        }
    }

    impl Serialize for RaceRun {
        fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
            let mut m = s.serialize_map(None)?;
            m.serialize_entry("status", self.status.name())?;
            m.serialize_entry("seconds", &(self.millis as f64 / 1000.0))?;
            if let Some(states) = self.states {
                m.serialize_entry("states", &states)?;
            }
            m.serialize_entry("note", &self.note)?;
            m.end()
        }
    }

    impl Serialize for MisereRace {
        fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
            let mut m = s.serialize_map(None)?;
            m.serialize_entry("answered_by", self.answered_by.name())?;
            m.serialize_entry("quotient", &self.quotient)?;
            m.serialize_entry("search", &self.search)?;
            m.serialize_entry("quotient_heaps", &self.quotient_heaps)?;
            m.serialize_entry("quotient_order", &self.quotient_order)?;
            m.serialize_entry("quotient_proven", &self.quotient_proven)?;
            m.serialize_entry("text", &self.describe())?;
            m.end()
        }
    }

    /// A regime's name in the JSON: `bouton`, `misere-endgame` or
    /// `misere-ones-only`.
    pub(crate) fn regime_name(regime: Regime) -> &'static str {
        match regime {
            Regime::Bouton => "bouton",
            Regime::MisereEndgame => "misere-endgame",
            Regime::MisereOnesOnly => "misere-ones-only",
        }
    }

    impl Serialize for Analysis {
        fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
            let mut m = s.serialize_map(None)?;
            m.serialize_entry("game", &self.game)?;
            m.serialize_entry("convention", self.convention.name())?;
            m.serialize_entry("position", &self.position)?;
            m.serialize_entry("position_text", &self.position_text)?;
            m.serialize_entry("outcome", self.outcome.name())?;
            m.serialize_entry("grundy", &self.grundy.map(|g| g.value()))?;
            if let Some(nim) = &self.details.nim {
                m.serialize_entry("nim_sum", &nim.nim_sum.value())?;
                m.serialize_entry("regime", regime_name(nim.regime))?;
            }
            m.serialize_entry("remoteness", &self.remoteness)?;
            m.serialize_entry("winning_moves", &self.winning_moves)?;
            m.serialize_entry("winning_moves_total", &self.winning_moves_total)?;
            m.serialize_entry("winning_moves_truncated", &self.truncated())?;
            if self.details.unlisted_winning > 0 {
                m.serialize_entry("winning_moves_unlisted", &self.details.unlisted_winning)?;
            }
            if let Some(moves) = &self.moves {
                m.serialize_entry("moves", moves)?;
                let total = self.moves_total.unwrap_or(moves.len() as u64);
                m.serialize_entry("moves_total", &total)?;
                m.serialize_entry("moves_offset", &self.moves_offset)?;
                m.serialize_entry("moves_truncated", &self.moves_truncated())?;
            }
            m.serialize_entry("method", &self.method.to_string())?;
            if let Some(states) = self.method.states() {
                m.serialize_entry("states", &states)?;
            }
            m.serialize_entry("explanation", &self.explanation)?;
            if let Some(candy) = &self.details.candy {
                m.serialize_entry("candy", candy)?;
            }
            if let Some(race) = &self.details.misere {
                m.serialize_entry("misere", race)?;
            }
            m.end()
        }
    }
}
