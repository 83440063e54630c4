//! How a game is drawn, as data: heaps of objects, rows that split, a ring,
//! a grid of cells, a graph, or a counter. Every legal move says which
//! [`Element`]s it touches, so a board highlights and plays moves without
//! knowing a game's notation or guessing its shape.

/// A position drawn as a board.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(
    feature = "serde",
    derive(serde::Serialize),
    serde(tag = "kind", rename_all = "snake_case")
)]
pub enum Board {
    /// Rows of objects, one row per heap.
    Heaps {
        /// The heap sizes.
        heaps: Vec<u64>,
        /// Each heap's name, as the game's moves and explanations write it
        /// (`A`, `B`, … `Z`, `AA`, …).
        labels: Vec<String>,
        /// Whether a move may take objects from inside a row and leave its
        /// two ends as separate rows (Kayles, octal games), or split a row
        /// without taking (Grundy's game): a board then selects runs of
        /// adjacent objects rather than an object and all to its right.
        rows_split: bool,
        /// Whether one move may take from every heap at once (Wythoff's
        /// diagonal move); such a move touches [`Element::AllHeaps`].
        all_heaps_move: bool,
        /// Objects still to be placed on the heaps, one per move, before
        /// any is taken (Building Nim's placing phase); such a move touches
        /// [`Element::Heap`]. `None` in games without a supply.
        supply: Option<u64>,
    },
    /// Objects on a ring (circular Nim): `true` where an object stands.
    Ring {
        /// The places around the ring.
        objects: Vec<bool>,
    },
    /// A grid of cells (Chomp, n-dimensional Nim), in row-major order with
    /// the last coordinate fastest.
    Grid {
        /// The side lengths.
        dims: Vec<usize>,
        /// `true` where a cell is still on the board.
        cells: Vec<bool>,
        /// A cell whose taking loses (Chomp's poisoned corner).
        poisoned: Option<Vec<usize>>,
    },
    /// A graph with vertices, edges and, for some games, weights and a
    /// token.
    Graph {
        /// The vertices.
        vertices: Vec<Vertex>,
        /// The edges.
        edges: Vec<Edge>,
        /// The vertex the token stands on (Nim on graphs).
        token: Option<usize>,
        /// The ground, in games played on rooted graphs (Hackenbush).
        ground: Option<usize>,
    },
    /// Square boards of cells that players mark (Notakto's X's).
    Marks {
        /// The side of each board.
        side: usize,
        /// Each board's cells in reading order: `true` where marked.
        boards: Vec<Vec<bool>>,
        /// Whether each board is dead (a line is complete).
        dead: Vec<bool>,
    },
    /// A running total that players add to (the 21 and 100 games), or a
    /// heap with a limit on the next take (Fibonacci Nim).
    Counter {
        /// The number now: the total said, or the objects left.
        value: u64,
        /// The total that ends the game (0 for a heap that is emptied).
        target: u64,
        /// The least one move changes it by.
        min_step: u64,
        /// The most one move changes it by now.
        max_step: u64,
        /// Whether moves add to the number (`true`) or take from it.
        adds: bool,
    },
    /// Words whose letters players remove (Wordnim).
    Words {
        /// The words, in order.
        words: Vec<String>,
    },
    /// Positions with no drawing but their text.
    Text {
        /// The position's picture.
        text: String,
    },
}

/// A vertex of a [`Board::Graph`].
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct Vertex {
    /// How the notation names it.
    pub label: String,
    /// Whether it is still in play.
    pub present: bool,
}

/// An edge of a [`Board::Graph`].
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct Edge {
    /// One end (a vertex index).
    pub from: usize,
    /// The other end.
    pub to: usize,
    /// A weight, in games that have them.
    pub weight: Option<u64>,
}

/// A part of a [`Board`] that a move touches.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(
    feature = "serde",
    derive(serde::Serialize),
    serde(tag = "kind", rename_all = "snake_case")
)]
pub enum Element {
    /// A run of adjacent objects of a heap (object 0 is the leftmost).
    Objects {
        /// The heap.
        heap: usize,
        /// The first object of the run.
        start: u64,
        /// How many objects.
        count: u64,
    },
    /// A gap between objects `index - 1` and `index` of a heap, where a
    /// move splits a row without taking (Grundy's game).
    Gap {
        /// The heap.
        heap: usize,
        /// Objects left of the gap.
        index: u64,
    },
    /// A whole heap, as the place an object is put (Building Nim's
    /// placing move).
    Heap {
        /// The heap.
        heap: usize,
    },
    /// Every heap at once (Wythoff's diagonal move).
    AllHeaps,
    /// A place on a ring.
    Place {
        /// The place.
        index: usize,
    },
    /// A cell of a grid, or of one of several boards (coordinates
    /// board, row, column).
    Cell {
        /// Its coordinates, one per dimension.
        at: Vec<usize>,
    },
    /// A vertex of a graph.
    Vertex {
        /// The vertex index.
        index: usize,
    },
    /// An edge of a graph.
    Edge {
        /// The edge index.
        index: usize,
    },
    /// A letter of a word (Wordnim): letter `index` of word `word`,
    /// counting from 0.
    Letter {
        /// The word.
        word: usize,
        /// The letter's place in the word.
        index: usize,
    },
    /// A step on a counter: the amount added or taken.
    Step {
        /// The amount.
        amount: u64,
    },
}

impl Board {
    /// Rows of objects for heaps of these sizes, named as the moves name
    /// them ([`heap_labels`]): Nim's board, where rows do not split, no move
    /// takes from every heap, and there is no supply. Games that differ
    /// build [`Board::Heaps`] themselves.
    pub fn heaps(heaps: Vec<u64>) -> Board {
        Board::Heaps {
            labels: heap_labels(heaps.len()),
            heaps,
            rows_split: false,
            all_heaps_move: false,
            supply: None,
        }
    }
}

/// The names of `count` heaps as moves and explanations write them: `A`,
/// `B`, … `Z`, `AA`, `AB`, …
pub fn heap_labels(count: usize) -> Vec<String> {
    (0..count).map(crate::explain::heap_name).collect()
}

/// The element of a move that takes `take` objects from the right-hand end
/// of heap `heap` of `size` objects.
pub fn take_from_end(heap: usize, size: u64, take: u64) -> Element {
    let count = take.min(size);
    Element::Objects {
        heap,
        start: size - count,
        count,
    }
}
