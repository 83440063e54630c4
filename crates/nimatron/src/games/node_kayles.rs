//! Node Kayles: a move removes a vertex together with its neighbours.
//!
//! Components of the graph are independent, so a position's Grundy value is
//! the XOR of its components' values; components are memoised up to
//! isomorphism (see [`graph::canonical_order`]).

use std::sync::Arc;

use crate::games::graph::{self, Syntax};
use crate::solve::{GrundySolver, Limits};
use crate::{Convention, Nimber, Outcome, Rules};
use crate::{Description, MoveError, Notation, PositionError, Theory};

/// A simple graph of at most 64 vertices, as adjacency bitmasks.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Graph {
    /// Vertex names; empty for an unnamed (canonical) graph, whose
    /// vertices are called 1, 2, ...
    names: Vec<Arc<str>>,
    adjacency: Vec<u64>,
}

impl Graph {
    /// How many vertices.
    pub fn order(&self) -> usize {
        self.adjacency.len()
    }

    /// The name of vertex `i`.
    pub fn name(&self, i: usize) -> String {
        self.names
            .get(i)
            .map(|n| n.to_string())
            .unwrap_or_else(|| (i + 1).to_string())
    }

    /// Whether `i` and `j` are joined.
    pub fn adjacent(&self, i: usize, j: usize) -> bool {
        self.adjacency[i] >> j & 1 == 1
    }

    /// The subgraph on the vertices in `keep`, names kept.
    pub fn induced(&self, keep: u64) -> Graph {
        let keep = keep & self.all();
        let kept: Vec<usize> = bits(keep).collect();
        let adjacency = kept
            .iter()
            .map(|&i| {
                bits(self.adjacency[i] & keep).fold(0u64, |acc, j| acc | 1 << rank_in(keep, j))
            })
            .collect();
        Graph {
            names: if self.names.is_empty() {
                kept.iter()
                    .map(|&i| Arc::from((i + 1).to_string()))
                    .collect()
            } else {
                kept.iter().map(|&i| self.names[i].clone()).collect()
            },
            adjacency,
        }
    }

    fn all(&self) -> u64 {
        if self.order() == 64 {
            u64::MAX
        } else {
            (1u64 << self.order()) - 1
        }
    }

    /// The vertex sets of the connected components.
    pub fn component_masks(&self) -> Vec<u64> {
        let mut left = self.all();
        let mut out = Vec::new();
        while left != 0 {
            let mut comp = left & left.wrapping_neg();
            loop {
                let mut grown = comp;
                let mut bits = comp;
                while bits != 0 {
                    let i = bits.trailing_zeros() as usize;
                    bits &= bits - 1;
                    grown |= self.adjacency[i];
                }
                if grown == comp {
                    break;
                }
                comp = grown;
            }
            left &= !comp;
            out.push(comp);
        }
        out
    }

    /// The same graph, unnamed, in a canonical vertex order.
    pub fn canonical(&self) -> Graph {
        Graph {
            names: Vec::new(),
            adjacency: self.canonical_adjacency(),
        }
    }

    fn canonical_adjacency(&self) -> Vec<u64> {
        let n = self.order();
        let neighbours: Vec<Vec<(usize, u64)>> = (0..n)
            .map(|i| bits(self.adjacency[i]).map(|j| (j, 1)).collect())
            .collect();
        let order = graph::canonical_order(n, &neighbours, &vec![0; n], graph::leaf_budget(n));
        let mut new_index = vec![0; n];
        for (new, &old) in order.iter().enumerate() {
            new_index[old] = new;
        }
        order
            .iter()
            .map(|&old| bits(self.adjacency[old]).fold(0u64, |acc, j| acc | 1 << new_index[j]))
            .collect()
    }

    fn from_parsed(g: &graph::ParsedGraph) -> Graph {
        let mut adjacency = vec![0u64; g.names.len()];
        for &(i, j, _) in &g.edges {
            adjacency[i] |= 1 << j;
            adjacency[j] |= 1 << i;
        }
        Graph {
            names: g.names.iter().map(|n| Arc::from(n.as_str())).collect(),
            adjacency,
        }
    }

    fn is_path(&self) -> bool {
        let n = self.order();
        let degrees: Vec<u32> = self.adjacency.iter().map(|a| a.count_ones()).collect();
        let edges: u32 = degrees.iter().sum::<u32>() / 2;
        n >= 1
            && edges as usize == n - 1
            && degrees.iter().all(|&d| d <= 2)
            && self.component_masks().len() == 1
    }
}

/// The indices of the set bits, lowest first.
fn bits(mut mask: u64) -> impl Iterator<Item = usize> {
    std::iter::from_fn(move || {
        if mask == 0 {
            None
        } else {
            let i = mask.trailing_zeros() as usize;
            mask &= mask - 1;
            Some(i)
        }
    })
}

/// How many set bits of `mask` lie below bit `j`.
fn rank_in(mask: u64, j: usize) -> usize {
    (mask & ((1u64 << j) - 1)).count_ones() as usize
}

/// Node Kayles.
#[derive(Clone, Copy, Debug, Default)]
pub struct NodeKayles;

const SYNTAX: Syntax = Syntax {
    weights: false,
    token: false,
    accepted: "a graph: edges 'a-b' and lone vertices 'v' separated by commas or spaces, e.g. '1-2,2-3,4-5'; 'n=7' declares vertices 1 to 7; generators path:N, cycle:N, grid:RxC, complete:N, star:N, petersen (numbered after the vertices so far); parts joined by '+' are merged by name; 'empty' is no vertices; '#' starts a comment to the end of the line; at most 64 vertices",
};

impl Rules for NodeKayles {
    type Position = Graph;
    type Move = usize;

    fn moves(&self, g: &Graph) -> Vec<usize> {
        (0..g.order()).collect()
    }

    fn apply(&self, g: &Graph, &v: &usize) -> Graph {
        g.induced(g.all() & !(g.adjacency[v] | 1 << v))
    }

    fn components(&self, g: &Graph) -> Vec<Graph> {
        let masks = g.component_masks();
        if masks.len() <= 1 {
            return vec![g.clone()];
        }
        masks.into_iter().map(|m| g.induced(m)).collect()
    }

    fn canonical(&self, g: &Graph) -> Graph {
        g.canonical()
    }
}

impl Notation for NodeKayles {
    fn parse_position(&self, text: &str) -> Result<Graph, PositionError> {
        Ok(Graph::from_parsed(&graph::parse(text, SYNTAX)?))
    }

    fn format_position(&self, g: &Graph) -> String {
        if g.order() == 0 {
            return "empty".to_string();
        }
        let mut parts = Vec::new();
        for i in 0..g.order() {
            for j in i + 1..g.order() {
                if g.adjacent(i, j) {
                    parts.push(format!("{}-{}", g.name(i), g.name(j)));
                }
            }
        }
        for i in 0..g.order() {
            if g.adjacency[i] == 0 {
                parts.push(g.name(i));
            }
        }
        parts.join(",")
    }

    fn start_position(&self) -> Option<Graph> {
        self.parse_position("petersen").ok()
    }

    fn parse_move(&self, g: &Graph, input: &str) -> Result<usize, MoveError> {
        // The vertex is the last word, after any of the verbs; a vertex may
        // itself be called 'take' (found by the `positions` fuzz target:
        // the move listed as 'take' was refused).
        let words: Vec<&str> = input.split_whitespace().collect();
        let verbs = |ws: &[&str]| {
            ws.iter().all(|w| {
                matches!(
                    w.to_ascii_lowercase().as_str(),
                    "remove" | "take" | "vertex" | "node"
                )
            })
        };
        match words.as_slice() {
            [before @ .., name] if verbs(before) => {
                (0..g.order()).find(|&i| g.name(i) == *name).ok_or_else(|| {
                    MoveError::new(format!(
                        "there is no vertex {name}: the vertices left are {}",
                        (0..g.order())
                            .map(|i| g.name(i))
                            .collect::<Vec<_>>()
                            .join(", ")
                    ))
                })
            }
            _ => Err(MoveError::new(format!(
                "'{}' is not a move: give the vertex to remove, e.g. '3'",
                input.trim()
            ))),
        }
    }

    fn format_move(&self, g: &Graph, &v: &usize) -> String {
        g.name(v)
    }

    fn describe_move(&self, g: &Graph, &v: &usize) -> String {
        let around: Vec<String> = (0..g.order())
            .filter(|&j| g.adjacent(v, j))
            .map(|j| g.name(j))
            .collect();
        if around.is_empty() {
            format!("remove vertex {} (it has no neighbours)", g.name(v))
        } else {
            format!(
                "remove vertex {} with its neighbour{} {}",
                g.name(v),
                if around.len() == 1 { "" } else { "s" },
                around.join(", ")
            )
        }
    }

    fn render(&self, g: &Graph) -> String {
        let mut s = String::new();
        if g.order() == 0 {
            s.push_str("  (no vertices left)\n");
        }
        for i in 0..g.order() {
            let around: Vec<String> = (0..g.order())
                .filter(|&j| g.adjacent(i, j))
                .map(|j| g.name(j))
                .collect();
            s.push_str(&format!(
                "  {:>4} — {}\n",
                g.name(i),
                if around.is_empty() {
                    "(alone)".to_string()
                } else {
                    around.join(" ")
                }
            ));
        }
        s.push_str(&format!("  position: {}\n", self.format_position(g)));
        s
    }

    fn material(&self, g: &Graph) -> u64 {
        g.order() as u64
    }

    fn position_syntax(&self) -> &'static str {
        SYNTAX.accepted
    }

    fn move_syntax(&self) -> String {
        String::from(
            "the name of a vertex, e.g. '3' or 'remove 3': it goes, with every vertex next to it",
        )
    }
    fn board(&self, g: &Graph) -> crate::Board {
        let n = g.order();
        let mut edges = Vec::new();
        for i in 0..n {
            for j in i + 1..n {
                if g.adjacent(i, j) {
                    edges.push((i, j, None));
                }
            }
        }
        crate::Board::graph((0..n).map(|i| g.name(i)).collect(), &edges, None, None)
    }
    /// The vertex chosen (its neighbours go with it).
    fn touches(&self, g: &Graph, v: &usize) -> Vec<crate::Element> {
        vec![crate::Element::Vertex {
            index: *v,
            id: g.name(*v),
        }]
    }
    fn moves_left_bound(&self, g: &Graph) -> Option<u64> {
        Some(g.order() as u64)
    }
}

impl Theory for NodeKayles {
    fn description(&self) -> Description {
        Description {
            rules: "An undirected graph. A move removes one vertex together with every vertex joined to it. Normal play: whoever removes the last vertex wins; misère play: whoever removes it loses.",
            example: "1-2,2-3,3-4,5-6",
            theory: "Components are independent, so a position's Grundy value is the XOR of its components' values, each the mex over its moves; components are memoised up to isomorphism (colour refinement, then trying each vertex of a tied class). On the path P_n a move removes one or two vertices from an end or three from the middle, which is the octal game 0.137 (Dawson's chess): the values are OEIS A002187. Misère play is solved by search over whole graphs. Checked against a plain mex over vertex bitmasks (no components, no isomorphism) on random graphs of up to 10 vertices, misère outcomes against a plain minimax, and P_n for n up to 60 against an independent computation of 0.137 and A002187's published terms.",
            citation: "T. R. Dawson (1935) and R. K. Guy, C. A. B. Smith, \"The G-values of various games\", Proc. Cambridge Philos. Soc. 52 (1956) 514-526; OEIS A002187; E. R. Berlekamp, J. H. Conway, R. K. Guy, Winning Ways, ch. 4; H. L. Bodlaender, D. Kratsch, \"Kayles and nimbers\", J. Algorithms 43 (2002).",
        }
    }

    fn explain_solved(
        &self,
        g: &Graph,
        convention: Convention,
        outcome: Outcome,
        grundy: Option<Nimber>,
    ) -> String {
        let verdict = match outcome {
            Outcome::N => "the player to move wins",
            Outcome::P => "the player to move loses against perfect play",
        };
        let masks = g.component_masks();
        let mut s = format!(
            "The graph has {} vertices in {} component{}; a move never reaches across components, so the position is their sum.\n",
            g.order(),
            masks.len(),
            if masks.len() == 1 { "" } else { "s" }
        );
        let mut solver = GrundySolver::new(self, Limits::default());
        for (k, m) in masks.iter().enumerate().take(20) {
            let c = g.induced(*m);
            let path = if c.is_path() {
                format!(
                    ", a path of {}: Dawson's chess heap {}",
                    c.order(),
                    c.order()
                )
            } else {
                String::new()
            };
            let value = match (masks.len(), grundy) {
                (1, Some(v)) => Ok(v),
                _ => solver.grundy(&c),
            };
            match value {
                Ok(v) => s.push_str(&format!(
                    "  component {}: {} {}{path}, value {v}\n",
                    k + 1,
                    c.order(),
                    if c.order() == 1 { "vertex" } else { "vertices" }
                )),
                Err(_) => break,
            }
        }
        match (convention, grundy) {
            (Convention::Normal, Some(v)) => s.push_str(&format!(
                "The Grundy value is the XOR of the components' values: {v}, so {verdict}.\n"
            )),
            _ => s.push_str(&format!(
                "Misère play does not add by XOR, so Nimatron searched whole graphs (up to isomorphism): {verdict}.\n"
            )),
        }
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Adapter;
    use crate::check::TextGame;
    use crate::solve::OutcomeSearch;
    use crate::strategy::SplitMix64;
    use std::collections::{HashMap, HashSet};

    fn spec() -> crate::GameSpec {
        crate::GameSpec::NodeKayles
    }

    /// Octal game 0.137 computed from its code, independently of graphs:
    /// take 1 only as a whole heap; take 2 from an end (leaving one heap or
    /// none); take 3 leaving zero, one or two heaps.
    fn dawson(max: usize) -> Vec<u64> {
        let mut g = vec![0u64; max + 1];
        for n in 1..=max {
            let mut seen = HashSet::new();
            if n == 1 {
                seen.insert(0);
            }
            if n >= 2 {
                seen.insert(g[n - 2]);
            }
            if n >= 3 {
                for a in 0..=n - 3 {
                    seen.insert(g[a] ^ g[n - 3 - a]);
                }
            }
            g[n] = (0..).find(|v| !seen.contains(v)).expect("mex");
        }
        g
    }

    /// OEIS A002187, a(0..=33): Sprague-Grundy values of Dawson's chess.
    const A002187: [u64; 34] = [
        0, 1, 1, 2, 0, 3, 1, 1, 0, 3, 3, 2, 2, 4, 0, 5, 2, 2, 3, 3, 0, 1, 1, 3, 0, 2, 1, 1, 0, 4,
        5, 2, 7, 4,
    ];

    #[test]
    fn paths_are_dawsons_chess() {
        let expected = dawson(60);
        assert_eq!(&expected[..34], &A002187);
        let mut solver = GrundySolver::new(&NodeKayles, Limits::default());
        for (n, &value) in expected.iter().enumerate().skip(1) {
            let g = NodeKayles.parse_position(&format!("path:{n}")).unwrap();
            assert_eq!(solver.grundy(&g).unwrap(), Nimber(value), "P_{n}");
        }
        // A cycle loses a vertex and its two neighbours, leaving P_{n-3}.
        for n in 4..=30 {
            let g = NodeKayles.parse_position(&format!("cycle:{n}")).unwrap();
            let v = solver.grundy(&g).unwrap();
            assert_eq!(v, Nimber(if expected[n - 3] == 0 { 1 } else { 0 }), "C_{n}");
        }
        for n in 1..=12 {
            let g = NodeKayles.parse_position(&format!("complete:{n}")).unwrap();
            assert_eq!(solver.grundy(&g).unwrap(), Nimber(1), "K_{n}");
        }
    }

    fn naive_grundy(g: &Graph, mask: u64, memo: &mut HashMap<u64, u64>) -> u64 {
        if let Some(&v) = memo.get(&mask) {
            return v;
        }
        let mut seen = HashSet::new();
        for v in 0..g.order() {
            if mask >> v & 1 == 1 {
                let after = mask & !(g.adjacency[v] | 1 << v);
                seen.insert(naive_grundy(g, after, memo));
            }
        }
        let value = (0..).find(|x| !seen.contains(x)).expect("mex");
        memo.insert(mask, value);
        value
    }

    fn naive_misere(g: &Graph, mask: u64, memo: &mut HashMap<u64, bool>) -> bool {
        if let Some(&w) = memo.get(&mask) {
            return w;
        }
        let w = mask == 0
            || (0..g.order()).any(|v| {
                mask >> v & 1 == 1 && !naive_misere(g, mask & !(g.adjacency[v] | 1 << v), memo)
            });
        memo.insert(mask, w);
        w
    }

    fn random_graph(rng: &mut SplitMix64, n: usize, percent: u64) -> Graph {
        let mut edges = Vec::new();
        for i in 1..=n {
            for j in i + 1..=n {
                if rng.below(100) < percent {
                    edges.push(format!("{i}-{j}"));
                }
            }
        }
        edges.push(format!("n={n}"));
        NodeKayles.parse_position(&edges.join(",")).unwrap()
    }

    #[test]
    fn agrees_with_plain_search_on_random_graphs() {
        let mut rng = SplitMix64::new(7);
        let adapter = Adapter::new(spec(), NodeKayles);
        let mut solver = GrundySolver::new(&NodeKayles, Limits::default());
        let mut misere = OutcomeSearch::new(&NodeKayles, Convention::Misere, Limits::default());
        for round in 0..150 {
            let n = 1 + (round % 10);
            let g = random_graph(&mut rng, n, [15, 30, 50][round % 3]);
            let full = g.all();
            let mut memo = HashMap::new();
            let expected = naive_grundy(&g, full, &mut memo);
            assert_eq!(solver.grundy(&g).unwrap(), Nimber(expected), "{g:?}");
            // Canonical forms play the same and ignore the labels.
            let c = g.canonical();
            assert_eq!(solver.grundy(&c).unwrap(), Nimber(expected));
            let mut perm: Vec<usize> = (0..n).collect();
            for i in (1..n).rev() {
                perm.swap(i, rng.below(i as u64 + 1) as usize);
            }
            let shuffled = Graph {
                names: Vec::new(),
                adjacency: (0..n)
                    .map(|i| {
                        (0..n)
                            .filter(|&j| g.adjacent(perm[i], perm[j]))
                            .fold(0u64, |acc, j| acc | 1 << j)
                    })
                    .collect(),
            };
            assert_eq!(shuffled.canonical(), c, "{g:?}");
            // Winning moves, and misère play.
            let text = NodeKayles.format_position(&g);
            assert_eq!(NodeKayles.parse_position(&text).unwrap(), g);
            let a = adapter
                .analyze_text(&text, Convention::Normal, Limits::default())
                .unwrap();
            let ours: Vec<String> = a.winning_moves.iter().map(|m| m.notation.clone()).collect();
            let theirs: Vec<String> = (0..n)
                .filter(|&v| naive_grundy(&g, full & !(g.adjacency[v] | 1 << v), &mut memo) == 0)
                .map(|v| g.name(v))
                .collect();
            assert_eq!(ours, theirs, "{text}");
            let mut memo = HashMap::new();
            assert_eq!(
                misere.outcome(&g).unwrap().to_move_wins(),
                naive_misere(&g, full, &mut memo),
                "{text}"
            );
        }
    }

    /// Found by the `positions` fuzz target: in a graph with a vertex
    /// called 'take', the legal move listed as 'take' was refused, the word
    /// being dropped as a verb.
    #[test]
    fn a_vertex_named_like_a_verb_can_be_removed_by_its_name() {
        let g = NodeKayles.parse_position("take-remove,node,x").unwrap();
        for name in ["take", "remove", "node"] {
            for typed in [
                name.to_string(),
                format!("remove {name}"),
                format!("take vertex {name}"),
            ] {
                let v = NodeKayles
                    .parse_move(&g, &typed)
                    .unwrap_or_else(|e| panic!("{typed}: {e}"));
                assert_eq!(NodeKayles.format_move(&g, &v), name, "{typed}");
            }
        }
        let x = NodeKayles.parse_move(&g, "remove x").unwrap();
        assert_eq!(NodeKayles.format_move(&g, &x), "x");
        let plain = NodeKayles.parse_position("a-b").unwrap();
        let e = NodeKayles.parse_move(&plain, "remove").unwrap_err().problem;
        assert!(e.contains("no vertex remove"), "{e}");
    }

    /// Found by the `positions` fuzz target: `path-2,2-3` parsed, and
    /// removing vertex 2 left a lone vertex `path`, printed as `path`,
    /// which reads back as a generator lacking its size. A word of the
    /// graph syntax cannot name a vertex, in any case of letters.
    #[test]
    fn a_vertex_named_like_a_generator_is_refused() {
        for word in [
            "path", "cycle", "grid", "complete", "star", "petersen", "empty", "Path", "STAR",
        ] {
            for text in [format!("{word}-2,2-3"), format!("1-2,{word}-1")] {
                let e = NodeKayles.parse_position(&text).unwrap_err().problem;
                assert!(
                    e.contains(&format!("'{word}'")) && e.contains("cannot name a vertex"),
                    "{text}: {e}"
                );
            }
        }
        // Names that merely contain such a word are still names.
        let g = NodeKayles.parse_position("paths-2,2-starry").unwrap();
        let v = NodeKayles.parse_move(&g, "2").unwrap();
        let after = NodeKayles.apply(&g, &v);
        let text = NodeKayles.format_position(&after);
        assert_eq!(NodeKayles.parse_position(&text).unwrap(), after, "{text}");
    }

    #[test]
    fn moves_positions_and_errors() {
        let g = NodeKayles.parse_position("a-b,b-c,d").unwrap();
        assert_eq!(NodeKayles.format_position(&g), "a-b,b-c,d");
        let b = NodeKayles.parse_move(&g, "remove b").unwrap();
        assert_eq!(
            NodeKayles.describe_move(&g, &b),
            "remove vertex b with its neighbours a, c"
        );
        assert_eq!(NodeKayles.format_position(&NodeKayles.apply(&g, &b)), "d");
        let e = |t: &str| NodeKayles.parse_move(&g, t).unwrap_err().problem;
        assert!(e("z").contains("no vertex z"));
        assert!(e("a b").contains("not a move"));
        let err = NodeKayles
            .parse_position("n=3,1-4")
            .unwrap_err()
            .to_string();
        assert!(err.contains("vertex 4, which does not exist"), "{err}");
        let adapter = Adapter::new(spec(), NodeKayles);
        let a = adapter
            .analyze_text("path:5,path:3", Convention::Normal, Limits::default())
            .unwrap();
        assert!(
            a.explanation.contains("Dawson's chess heap 5"),
            "{}",
            a.explanation
        );
        assert_eq!(a.grundy, Some(Nimber(3 ^ 2)));
        let e = adapter
            .analyze_text("grid:7x7", Convention::Normal, Limits::states(50))
            .unwrap_err();
        assert!(e.to_string().contains("limit of 50"), "{e}");
    }
}
