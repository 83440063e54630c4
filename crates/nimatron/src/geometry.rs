//! How a game is drawn, as data: heaps of objects, rows that split, a ring,
//! a grid of cells, a graph, or a counter. Every legal move says which
//! [`Element`]s it touches, so a board highlights and plays moves without
//! knowing a game's notation or guessing its shape, and what it did to the
//! board ([`Trace`]), told on the board after it, so that a board shows the
//! last move on the pieces it took away and on those it put down.
//!
//! The pieces of a graph have ids that survive a move: a vertex's id is its
//! label, which no move changes, and an edge's id names its two ends. Other
//! boards name their pieces by place (a cell, a place on a ring, an object
//! of a row); where a move moves pieces about (a row that splits, a word
//! whose letters are rearranged) its trace says where they went.

/// A position drawn as a board.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(
    feature = "serde",
    derive(serde::Serialize),
    serde(tag = "kind", rename_all = "snake_case")
)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
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
        #[cfg_attr(feature = "openapi", schema(required))]
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
        #[cfg_attr(feature = "openapi", schema(required))]
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
        #[cfg_attr(feature = "openapi", schema(required))]
        token: Option<usize>,
        /// The ground, in games played on rooted graphs (Hackenbush).
        #[cfg_attr(feature = "openapi", schema(required))]
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
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Vertex {
    /// Its id, the same on the board before and after any move: its label.
    pub id: String,
    /// How the notation names it.
    pub label: String,
    /// Whether it is still in play.
    pub present: bool,
}

/// An edge of a [`Board::Graph`].
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Edge {
    /// Its id, the same on the board before and after any move that keeps
    /// it: the ids of its ends ([`edge_ids`]).
    pub id: String,
    /// One end (a vertex index).
    pub from: usize,
    /// The other end.
    pub to: usize,
    /// A weight, in games that have them.
    #[cfg_attr(feature = "openapi", schema(required))]
    pub weight: Option<u64>,
}

/// A part of a [`Board`] that a move touches.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(
    feature = "serde",
    derive(serde::Serialize),
    serde(tag = "kind", rename_all = "snake_case")
)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
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
        /// The vertex's id ([`Vertex::id`]), which survives moves.
        id: String,
    },
    /// An edge of a graph.
    Edge {
        /// The edge index.
        index: usize,
        /// The edge's id ([`Edge::id`]), which survives moves that keep it.
        id: String,
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

/// What a move did to the board, told on the board after it: the pieces it
/// took away, each where it stood, and the pieces it put down or changed. A
/// board draws the last move with it (ghosts of what went, a mark on what
/// is new), and a board that previews a move before it is played shows the
/// same pieces ([`Trace::between`]).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Trace {
    /// The pieces taken away: those the move touched and those that went
    /// with them (a vertex's neighbours, the edges that fall, the squares a
    /// bite takes).
    pub removed: Vec<Ghost>,
    /// Elements of the board after the move that it put down or changed: a
    /// mark, a placed stone, the rows a split left, the token's new vertex,
    /// an edge whose weight was lowered, the word its letters left.
    pub added: Vec<Element>,
}

/// A piece a move took away, placed on the board after the move.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(
    feature = "serde",
    derive(serde::Serialize),
    serde(tag = "kind", rename_all = "snake_case")
)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub enum Ghost {
    /// `count` objects that stood in row `heap` of the board after, just
    /// before its object `at` (`at` equal to the row's length: at its end).
    Objects {
        /// The row, on the board after the move.
        heap: usize,
        /// Objects of that row left of the ghosts.
        at: u64,
        /// How many objects went.
        count: u64,
    },
    /// A place of a ring whose object went.
    Place {
        /// The place.
        index: usize,
    },
    /// A cell of a grid that went.
    Cell {
        /// Its coordinates.
        at: Vec<usize>,
    },
    /// A vertex that went, by its id (it is on the board before the move).
    Vertex {
        /// Its id.
        id: String,
        /// Its label.
        label: String,
    },
    /// An edge that went, by its id, between vertices named by their ids
    /// (either may have gone too).
    Edge {
        /// Its id.
        id: String,
        /// One end's id.
        from: String,
        /// The other end's id.
        to: String,
        /// Its weight, in games that have them.
        #[cfg_attr(feature = "openapi", schema(required))]
        weight: Option<u64>,
    },
    /// Letters taken from word `word` of the board after.
    Letters {
        /// The word, on the board after the move.
        word: usize,
        /// The letters taken, in the order they stood.
        letters: String,
    },
}

impl Trace {
    /// The trace of a move that touched `touches` on the board `before` and
    /// left the board `after`, by comparing the two: pieces of the same id
    /// (or place) on both are kept, those on `before` only were taken, and
    /// those new or changed on `after` were put down. A row that splits is
    /// followed through the run or gap the move touched; boards of
    /// different kinds, or heaps that cannot be followed, give an empty
    /// trace.
    pub fn between(before: &Board, after: &Board, touches: &[Element]) -> Trace {
        match (before, after) {
            (
                Board::Heaps {
                    heaps: b,
                    rows_split,
                    ..
                },
                Board::Heaps { heaps: a, .. },
            ) => heaps_trace(b, a, *rows_split, touches),
            (Board::Ring { objects: b }, Board::Ring { objects: a }) if a.len() == b.len() => {
                let mut t = Trace::default();
                for (index, (&was, &is)) in b.iter().zip(a).enumerate() {
                    if was && !is {
                        t.removed.push(Ghost::Place { index });
                    } else if is && !was {
                        t.added.push(Element::Place { index });
                    }
                }
                t
            }
            (
                Board::Grid {
                    dims: bd, cells: b, ..
                },
                Board::Grid {
                    dims: ad, cells: a, ..
                },
            ) if bd == ad && a.len() == b.len() => {
                let mut t = Trace::default();
                for (flat, (&was, &is)) in b.iter().zip(a).enumerate() {
                    if was != is {
                        let at = coordinates(flat, ad);
                        if was {
                            t.removed.push(Ghost::Cell { at });
                        } else {
                            t.added.push(Element::Cell { at });
                        }
                    }
                }
                t
            }
            (
                Board::Marks {
                    side: bs,
                    boards: b,
                    ..
                },
                Board::Marks {
                    side: s, boards: a, ..
                },
            ) if bs == s && a.len() == b.len() => {
                let mut t = Trace::default();
                for (board, (bb, ab)) in b.iter().zip(a).enumerate() {
                    for (cell, (&was, &is)) in bb.iter().zip(ab).enumerate() {
                        if is && !was {
                            t.added.push(Element::Cell {
                                at: vec![board, cell / s, cell % s],
                            });
                        }
                    }
                }
                t
            }
            (
                Board::Graph {
                    vertices: bv,
                    edges: be,
                    token: bt,
                    ..
                },
                Board::Graph {
                    vertices: av,
                    edges: ae,
                    token: at,
                    ..
                },
            ) => graph_trace((bv, be, *bt), (av, ae, *at)),
            (Board::Counter { .. }, Board::Counter { .. }) => Trace {
                removed: Vec::new(),
                added: touches
                    .iter()
                    .filter(|e| matches!(e, Element::Step { .. }))
                    .cloned()
                    .collect(),
            },
            (Board::Words { words: b }, Board::Words { words: a }) if a.len() == b.len() => {
                let mut t = Trace::default();
                for (word, (was, is)) in b.iter().zip(a).enumerate() {
                    if was == is {
                        continue;
                    }
                    let mut left: Vec<char> = is.chars().collect();
                    let mut letters = String::new();
                    for c in was.chars() {
                        match left.iter().position(|&l| l == c) {
                            Some(k) => {
                                left.swap_remove(k);
                            }
                            None => letters.push(c),
                        }
                    }
                    if !letters.is_empty() {
                        t.removed.push(Ghost::Letters { word, letters });
                    }
                    t.added.extend(
                        (0..is.chars().count()).map(|index| Element::Letter { word, index }),
                    );
                }
                t
            }
            _ => Trace::default(),
        }
    }

    /// Whether the move left no trace that a board can draw.
    pub fn is_empty(&self) -> bool {
        self.removed.is_empty() && self.added.is_empty()
    }
}

/// The coordinates of cell `flat` of a grid of sides `dims` (row-major, the
/// last coordinate fastest).
fn coordinates(flat: usize, dims: &[usize]) -> Vec<usize> {
    let mut at = vec![0; dims.len()];
    let mut rest = flat;
    for (x, &d) in at.iter_mut().zip(dims).rev() {
        *x = rest % d.max(1);
        rest /= d.max(1);
    }
    at
}

/// Heaps: each heap that shrank lost objects from its end (and one that
/// grew had them placed there), unless rows split, where the touched run
/// or gap says how heap `h` became the rows that replace it.
fn heaps_trace(before: &[u64], after: &[u64], split: bool, touches: &[Element]) -> Trace {
    if split && let Some(t) = split_trace(before, after, touches) {
        return t;
    }
    let mut t = Trace::default();
    if before.len() != after.len() {
        return t;
    }
    for (heap, (&b, &a)) in before.iter().zip(after).enumerate() {
        if a < b {
            t.removed.push(Ghost::Objects {
                heap,
                at: a,
                count: b - a,
            });
        } else if a > b {
            t.added.push(Element::Objects {
                heap,
                start: b,
                count: a - b,
            });
        }
    }
    t
}

/// A row that splits: heap `h` of `left + taken + right` objects became
/// the rows `parts` in its place, in either order, the others kept.
fn split_trace(before: &[u64], after: &[u64], touches: &[Element]) -> Option<Trace> {
    let (h, left, taken) = match touches {
        [Element::Objects { heap, start, count }] => (*heap, *start, *count),
        [Element::Gap { heap, index }] => (*heap, *index, 0),
        _ => return None,
    };
    let n = *before.get(h)?;
    let right = n.checked_sub(left.checked_add(taken)?)?;
    let fits = |parts: &[u64]| {
        after.len() + 1 == before.len() + parts.len()
            && after[..h] == before[..h]
            && after[h..h + parts.len()] == *parts
            && after[h + parts.len()..] == before[h + 1..]
    };
    let ghost = |at: u64| Ghost::Objects {
        heap: h,
        at,
        count: taken,
    };
    let mut t = Trace::default();
    if left > 0 && right > 0 {
        // Two rows: the ghosts stand at the end of the first, and the
        // second is new (both are, where a gap split the row).
        let first = if fits(&[left, right]) {
            left
        } else if fits(&[right, left]) {
            right
        } else {
            return None;
        };
        if taken > 0 {
            t.removed.push(ghost(first));
        } else {
            t.added.push(Element::Heap { heap: h });
        }
        t.added.push(Element::Heap { heap: h + 1 });
    } else if fits(&[left + right]) && taken > 0 {
        // One row left (or none: an empty heap kept in its place).
        t.removed.push(ghost(left));
    } else {
        return None;
    }
    Some(t)
}

/// Graphs, by id: vertices and edges on `before` only went, an edge whose
/// weight changed and the token's new vertex were put down.
fn graph_trace(
    (bv, be, bt): (&[Vertex], &[Edge], Option<usize>),
    (av, ae, at): (&[Vertex], &[Edge], Option<usize>),
) -> Trace {
    let mut t = Trace::default();
    let kept: std::collections::HashSet<&str> = av
        .iter()
        .filter(|v| v.present)
        .map(|v| v.id.as_str())
        .collect();
    for v in bv.iter().filter(|v| v.present) {
        if !kept.contains(v.id.as_str()) {
            t.removed.push(Ghost::Vertex {
                id: v.id.clone(),
                label: v.label.clone(),
            });
        }
    }
    let after: std::collections::HashMap<&str, (usize, &Edge)> = ae
        .iter()
        .enumerate()
        .map(|(i, e)| (e.id.as_str(), (i, e)))
        .collect();
    for e in be {
        match after.get(e.id.as_str()) {
            None => t.removed.push(Ghost::Edge {
                id: e.id.clone(),
                from: bv.get(e.from).map(|v| v.id.clone()).unwrap_or_default(),
                to: bv.get(e.to).map(|v| v.id.clone()).unwrap_or_default(),
                weight: e.weight,
            }),
            Some(&(index, kept)) if kept.weight != e.weight => t.added.push(Element::Edge {
                index,
                id: kept.id.clone(),
            }),
            Some(_) => {}
        }
    }
    fn id_of(v: &[Vertex], i: Option<usize>) -> Option<&str> {
        i.and_then(|i| v.get(i)).map(|v| v.id.as_str())
    }
    if let Some(index) = at
        && id_of(av, at) != id_of(bv, bt)
    {
        t.added.push(Element::Vertex {
            index,
            id: av[index].id.clone(),
        });
    }
    t
}

/// The ids of a graph's edges, given by the ids of their ends: `a-b`, the
/// two ids in sorted order, and `a-b#2`, `a-b#3`, … for the second and
/// later of parallel edges (in the order given). A move that keeps an edge
/// keeps its id, parallel edges being alike.
pub fn edge_ids<'a>(ends: impl IntoIterator<Item = (&'a str, &'a str)>) -> Vec<String> {
    let mut seen: std::collections::HashMap<String, usize> = std::collections::HashMap::new();
    ends.into_iter()
        .map(|(a, b)| {
            let base = if a <= b {
                format!("{a}-{b}")
            } else {
                format!("{b}-{a}")
            };
            let k = seen.entry(base.clone()).or_insert(0);
            *k += 1;
            if *k == 1 { base } else { format!("{base}#{k}") }
        })
        .collect()
}

impl Board {
    /// A graph board from vertex labels and edges `(from, to, weight)`
    /// between vertex indices, each vertex's id its label and each edge's
    /// id from its ends' ([`edge_ids`]).
    pub fn graph(
        labels: Vec<String>,
        edges: &[(usize, usize, Option<u64>)],
        token: Option<usize>,
        ground: Option<usize>,
    ) -> Board {
        let ids = edge_ids(
            edges
                .iter()
                .map(|&(a, b, _)| (labels[a].as_str(), labels[b].as_str())),
        );
        Board::Graph {
            edges: edges
                .iter()
                .zip(ids)
                .map(|(&(from, to, weight), id)| Edge {
                    id,
                    from,
                    to,
                    weight,
                })
                .collect(),
            vertices: labels
                .into_iter()
                .map(|label| Vertex {
                    id: label.clone(),
                    label,
                    present: true,
                })
                .collect(),
            token,
            ground,
        }
    }

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
    (0..count).map(crate::heap_notation::heap_name).collect()
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
