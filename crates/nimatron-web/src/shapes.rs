//! The JSON shapes of the library's types, written to match their
//! `Serialize` (in `nimatron`'s `analysis.rs` and `geometry.rs`), for the
//! OpenAPI document. These types only describe: nothing builds them.
#![allow(dead_code)]

use serde::Serialize;
use utoipa::ToSchema;

/// A position as data: heap sizes for heap games, else the game's
/// canonical text.
#[derive(Serialize, ToSchema)]
#[serde(untagged)]
pub enum PositionValue {
    /// Heap sizes.
    Heaps(Vec<u64>),
    /// Any other position.
    Text(String),
}

/// Moves left under perfect play, the winner hurrying and the loser
/// delaying.
#[derive(Serialize, ToSchema)]
pub struct Remoteness {
    /// The number of moves (exact, or a bound).
    pub moves: u64,
    /// Whether the number is exact (else it is an upper bound).
    pub exact: bool,
}

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

/// What a move is worth to its maker.
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum MoveWorth {
    /// It leaves the opponent a P-position.
    Winning,
    /// It leaves the opponent an N-position.
    Losing,
}

/// A legal move (MOVE in docs/api.md).
#[derive(Serialize, ToSchema)]
#[schema(as = Move)]
pub struct MoveInfo {
    /// Heap games: the 0-based heap, or null for a move that changes
    /// several heaps. Absent in other games.
    #[schema(required = false)]
    pub heap: Option<u64>,
    /// Heap games: the objects removed (in all, for a move that changes
    /// several heaps). Absent in other games.
    #[schema(required = false)]
    pub take: Option<u64>,
    /// The position after the move.
    pub to: PositionValue,
    /// The position after the move, canonical text.
    pub to_text: String,
    /// The move in words.
    pub text: String,
    /// The move in the game's notation, as `POST /api/games/{id}/moves`
    /// takes it.
    #[serde(rename = "move")]
    pub mv: String,
    /// The same as `move`.
    pub notation: String,
    /// The board elements the move acts on.
    pub touches: Vec<Element>,
    /// Other element sets that make the same move (the mirror image
    /// of a run in a row that splits); absent when there are none.
    #[schema(required = false)]
    pub also_touches: Vec<Vec<Element>>,
    /// What the move does, told on the board after it: what a board
    /// previews before the move is played.
    pub trace: Trace,
    /// In analyses: whether the move wins.
    #[schema(required = false)]
    pub value: MoveWorth,
    /// In analyses: moves to the end if this one is played, counting
    /// it; null where unknown.
    #[schema(required = false)]
    pub remoteness: Option<Remoteness>,
    /// In analyses: the value in words, e.g. `wins in 3`.
    #[schema(required = false)]
    pub value_text: String,
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

/// How a position is drawn, by `kind`.
#[derive(Serialize, ToSchema)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Board {
    /// Rows of objects, one row per heap.
    Heaps {
        /// The heap sizes.
        heaps: Vec<u64>,
        /// Each heap's name as moves and explanations write it (A, B, …).
        labels: Vec<String>,
        /// Whether a move may leave a row as several rows.
        rows_split: bool,
        /// Whether one move may take from every heap at once.
        all_heaps_move: bool,
        /// Objects still to be placed on the heaps (Building Nim), or
        /// null in games without a supply.
        #[schema(required)]
        supply: Option<u64>,
    },
    /// Objects on a ring: `true` where an object stands.
    Ring {
        /// The places around the ring.
        objects: Vec<bool>,
    },
    /// A grid of cells in row-major order, the last coordinate fastest.
    Grid {
        /// The side lengths.
        dims: Vec<u64>,
        /// `true` where a cell is still on the board.
        cells: Vec<bool>,
        /// A cell whose taking loses (Chomp's corner), or null.
        #[schema(required)]
        poisoned: Option<Vec<u64>>,
    },
    /// A graph.
    Graph {
        /// The vertices.
        vertices: Vec<Vertex>,
        /// The edges.
        edges: Vec<Edge>,
        /// The vertex the token stands on (Nim on graphs), or null.
        #[schema(required)]
        token: Option<u64>,
        /// The ground (Hackenbush), or null.
        #[schema(required)]
        ground: Option<u64>,
    },
    /// Square boards whose cells players mark (Notakto).
    Marks {
        /// The side of each board.
        side: u64,
        /// Each board's cells in reading order: `true` where marked.
        boards: Vec<Vec<bool>>,
        /// Whether each board is dead.
        dead: Vec<bool>,
    },
    /// A running total, or a heap with a limit on the next take.
    Counter {
        /// The number now.
        value: u64,
        /// The total that ends the game (0 for a heap emptied).
        target: u64,
        /// The least one move changes it by.
        min_step: u64,
        /// The most one move changes it by now.
        max_step: u64,
        /// Whether moves add to the number.
        adds: bool,
    },
    /// Words whose letters players remove (Wordnim).
    Words {
        /// The words, in order.
        words: Vec<String>,
    },
    /// No drawing but the position's text.
    Text {
        /// The position's picture.
        text: String,
    },
}

/// A vertex of a graph board.
#[derive(Serialize, ToSchema)]
pub struct Vertex {
    /// Its id, kept through every move: its label.
    pub id: String,
    /// How the notation names it.
    pub label: String,
    /// Whether it is still in play.
    pub present: bool,
}

/// An edge of a graph board.
#[derive(Serialize, ToSchema)]
pub struct Edge {
    /// Its id, kept through every move that keeps the edge: its ends'
    /// ids, `a-b` (sorted), with `#2`, `#3` … for parallel edges.
    pub id: String,
    /// One end (a vertex index).
    pub from: u64,
    /// The other end.
    pub to: u64,
    /// A weight, or null in games without them.
    #[schema(required)]
    pub weight: Option<u64>,
}

/// A part of a board that a move touches, by `kind`.
#[derive(Serialize, ToSchema)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Element {
    /// A run of adjacent objects of a heap (object 0 leftmost).
    Objects {
        /// The heap.
        heap: u64,
        /// The first object of the run.
        start: u64,
        /// How many objects.
        count: u64,
    },
    /// The gap left of object `index` of a heap.
    Gap {
        /// The heap.
        heap: u64,
        /// Objects left of the gap.
        index: u64,
    },
    /// A whole heap, where a stone is placed (Building Nim).
    Heap {
        /// The heap.
        heap: u64,
    },
    /// Every heap at once.
    AllHeaps,
    /// A place on a ring.
    Place {
        /// The place.
        index: u64,
    },
    /// A cell: its coordinates (for marks: board, row, column).
    Cell {
        /// One coordinate per dimension.
        at: Vec<u64>,
    },
    /// A vertex of a graph.
    Vertex {
        /// The vertex index.
        index: u64,
        /// The vertex's id.
        id: String,
    },
    /// An edge of a graph.
    Edge {
        /// The edge index.
        index: u64,
        /// The edge's id.
        id: String,
    },
    /// A letter of a word (Wordnim).
    Letter {
        /// The word.
        word: u64,
        /// The letter's place in the word, from 0.
        index: u64,
    },
    /// A step on a counter.
    Step {
        /// The amount added or taken.
        amount: u64,
    },
}

/// What a move did to the board, told on the board after it.
#[derive(Serialize, ToSchema)]
pub struct Trace {
    /// The pieces taken away, each where it stood.
    pub removed: Vec<Ghost>,
    /// Elements of the board after the move that it put down or
    /// changed (a mark, a placed stone, rows a split left, the token's
    /// new vertex, a lowered edge, the word left).
    pub added: Vec<Element>,
}

/// A piece a move took away, on the board after the move, by `kind`.
#[derive(Serialize, ToSchema)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Ghost {
    /// `count` objects that stood in row `heap`, just before its object
    /// `at` (at its end when `at` is the row's length).
    Objects {
        /// The row.
        heap: u64,
        /// Objects of the row left of the ghosts.
        at: u64,
        /// How many objects.
        count: u64,
    },
    /// A place of a ring whose object went.
    Place {
        /// The place.
        index: u64,
    },
    /// A cell of a grid that went.
    Cell {
        /// Its coordinates.
        at: Vec<u64>,
    },
    /// A vertex that went.
    Vertex {
        /// Its id.
        id: String,
        /// Its label.
        label: String,
    },
    /// An edge that went, between vertices given by their ids.
    Edge {
        /// Its id.
        id: String,
        /// One end's id.
        from: String,
        /// The other end's id.
        to: String,
        /// Its weight, or null in games without them.
        #[schema(required)]
        weight: Option<u64>,
    },
    /// Letters taken from a word.
    Letters {
        /// The word, on the board after the move.
        word: u64,
        /// The letters taken, in the order they stood.
        letters: String,
    },
}
