//! Nim on graphs (Fukuyama's rules, as studied in Erickson's thesis): every
//! edge of an undirected graph has a weight, and a token sits on one
//! vertex. A move picks an edge at the token's vertex, lowers its weight to
//! any smaller value, and moves the token across it. An edge of weight 0 is
//! gone. A player who cannot move loses.
//!
//! Only the token's connected component matters; it is memoised up to
//! isomorphism that keeps the token and the weights.

use crate::games::graph::{self, Syntax};
use crate::{Convention, Nimber, Outcome, Rules};
use crate::{Description, MoveError, Notation, PositionError, Theory};

/// The largest weight an edge may carry: every lower weight is a move.
pub const MAX_WEIGHT: u64 = 10_000;

/// A weighted graph with a token.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct TokenGraph {
    /// Vertex names; empty for an unnamed (canonical) graph, whose vertices
    /// are called 1, 2, ...
    names: Vec<String>,
    /// How many vertices.
    order: usize,
    /// Edges `(i, j, weight)`, `i < j`, weight at least 1, sorted.
    edges: Vec<(usize, usize, u64)>,
    /// The token's vertex.
    token: usize,
}

/// A move: the token goes to `to`, leaving `weight` on the edge it used.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct TokenMove {
    /// The vertex the token moves to.
    pub to: usize,
    /// The edge's weight afterwards (less than before).
    pub weight: u64,
}

impl TokenGraph {
    /// The name of vertex `i`.
    pub fn name(&self, i: usize) -> String {
        self.names
            .get(i)
            .cloned()
            .unwrap_or_else(|| (i + 1).to_string())
    }

    fn edge(&self, a: usize, b: usize) -> Option<u64> {
        let (i, j) = (a.min(b), a.max(b));
        self.edges
            .iter()
            .find(|&&(x, y, _)| x == i && y == j)
            .map(|e| e.2)
    }

    /// The vertices reachable from the token, as a mask.
    fn reachable(&self) -> u64 {
        let mut seen = 1u64 << self.token;
        loop {
            let mut grown = seen;
            for &(i, j, _) in &self.edges {
                if seen >> i & 1 == 1 || seen >> j & 1 == 1 {
                    grown |= 1 << i | 1 << j;
                }
            }
            if grown == seen {
                return seen;
            }
            seen = grown;
        }
    }

    /// The token's component, relabelled by `order` (`order[new] = old`),
    /// names dropped if `unnamed`.
    fn relabelled(&self, order: &[usize], unnamed: bool) -> TokenGraph {
        let mut new_index = vec![usize::MAX; self.order];
        for (new, &old) in order.iter().enumerate() {
            new_index[old] = new;
        }
        let mut edges: Vec<(usize, usize, u64)> = self
            .edges
            .iter()
            .filter(|&&(i, j, _)| new_index[i] != usize::MAX && new_index[j] != usize::MAX)
            .map(|&(i, j, w)| {
                let (a, b) = (new_index[i], new_index[j]);
                (a.min(b), a.max(b), w)
            })
            .collect();
        edges.sort_unstable();
        TokenGraph {
            names: if unnamed {
                Vec::new()
            } else {
                order.iter().map(|&old| self.name(old)).collect()
            },
            order: order.len(),
            edges,
            token: new_index[self.token],
        }
    }

    fn token_component(&self) -> TokenGraph {
        let keep = self.reachable();
        let order: Vec<usize> = (0..self.order).filter(|&i| keep >> i & 1 == 1).collect();
        self.relabelled(&order, false)
    }

    /// The token's component, unnamed, in a canonical vertex order.
    pub fn canonical(&self) -> TokenGraph {
        let part = self.token_component();
        let n = part.order;
        let mut neighbours = vec![Vec::new(); n];
        for &(i, j, w) in &part.edges {
            neighbours[i].push((j, w));
            neighbours[j].push((i, w));
        }
        let initial: Vec<u64> = (0..n).map(|v| u64::from(v != part.token)).collect();
        let order = graph::canonical_order(n, &neighbours, &initial, graph::leaf_budget(n));
        part.relabelled(&order, true)
    }
}

/// Nim on graphs.
#[derive(Clone, Copy, Debug, Default)]
pub struct GraphNim;

const SYNTAX: Syntax = Syntax {
    weights: true,
    token: true,
    accepted: "a weighted graph and a token: edges 'a-b:3' (weight 0 to 10000; 'a-b' is weight 1) and lone vertices 'v', separated by commas or spaces, and '@a' for the token's vertex, e.g. 'a-b:3,b-c:1,@a'; 'n=7' declares vertices 1 to 7; generators path:N, cycle:N, grid:RxC, complete:N, star:N, petersen, each with an optional weight for all its edges (cycle:5:2); '#' starts a comment to the end of the line; at most 64 vertices",
};

impl Rules for GraphNim {
    type Position = TokenGraph;
    type Move = TokenMove;

    fn moves(&self, g: &TokenGraph) -> Vec<TokenMove> {
        let mut out = Vec::new();
        for &(i, j, w) in &g.edges {
            let to = if i == g.token {
                j
            } else if j == g.token {
                i
            } else {
                continue;
            };
            out.extend((0..w).map(|weight| TokenMove { to, weight }));
        }
        out
    }

    fn apply(&self, g: &TokenGraph, mv: &TokenMove) -> TokenGraph {
        let (i, j) = (g.token.min(mv.to), g.token.max(mv.to));
        let mut after = g.clone();
        after.edges = g
            .edges
            .iter()
            .map(|&(x, y, w)| {
                if x == i && y == j {
                    (x, y, mv.weight)
                } else {
                    (x, y, w)
                }
            })
            .filter(|e| e.2 > 0)
            .collect();
        after.token = mv.to;
        after
    }

    /// Only the token's component can ever be played in.
    fn components(&self, g: &TokenGraph) -> Vec<TokenGraph> {
        vec![g.token_component()]
    }

    fn canonical(&self, g: &TokenGraph) -> TokenGraph {
        g.canonical()
    }
}

impl Notation for GraphNim {
    fn parse_position(&self, text: &str) -> Result<TokenGraph, PositionError> {
        let parsed = graph::parse(text, SYNTAX)?;
        if let Some(&(i, j, w)) = parsed.edges.iter().find(|e| e.2 > MAX_WEIGHT) {
            return Err(PositionError::new(
                format!(
                    "the edge {}-{} has weight {w}, more than the largest allowed, {MAX_WEIGHT}",
                    parsed.names[i], parsed.names[j]
                ),
                SYNTAX.accepted,
            ));
        }
        Ok(TokenGraph {
            order: parsed.names.len(),
            names: parsed.names,
            edges: parsed.edges,
            token: parsed.token.expect("the syntax requires a token"),
        })
    }

    fn format_position(&self, g: &TokenGraph) -> String {
        let mut parts: Vec<String> = g
            .edges
            .iter()
            .map(|&(i, j, w)| format!("{}-{}:{w}", g.name(i), g.name(j)))
            .collect();
        for v in 0..g.order {
            if !g.edges.iter().any(|&(i, j, _)| i == v || j == v) {
                parts.push(g.name(v));
            }
        }
        parts.push(format!("@{}", g.name(g.token)));
        parts.join(",")
    }

    fn start_position(&self) -> Option<TokenGraph> {
        self.parse_position("a-b:2,b-c:2,a-c:2,c-d:3,@a").ok()
    }

    fn parse_move(&self, g: &TokenGraph, input: &str) -> Result<TokenMove, MoveError> {
        let is_verb = |w: &str| {
            matches!(
                w.to_ascii_lowercase().as_str(),
                "to" | "leaving" | "leave" | "move"
            )
        };
        let tokens: Vec<&str> = input
            .split([' ', ':', ','])
            .filter(|w| !w.is_empty())
            .collect();
        // The vertex is the first word after the leading verbs that names
        // one and leaves at most a weight after it (verbs there dropped),
        // so that a vertex named like a verb ('leaving 0') is still read
        // as the vertex.
        let start = (0..tokens.len())
            .take_while(|&i| i == 0 || is_verb(tokens[i - 1]))
            .find(|&i| {
                (0..g.order).any(|v| g.name(v) == tokens[i])
                    && tokens[i + 1..].iter().filter(|w| !is_verb(w)).count() <= 1
            });
        let words: Vec<String> = match start {
            Some(i) => std::iter::once(tokens[i])
                .chain(tokens[i + 1..].iter().copied().filter(|w| !is_verb(w)))
                .map(str::to_string)
                .collect(),
            None => tokens
                .iter()
                .copied()
                .filter(|w| !is_verb(w))
                .map(str::to_string)
                .collect(),
        };
        let (name, weight) = match words.as_slice() {
            [name] => (name.clone(), None),
            [name, w] => (name.clone(), Some(w.clone())),
            _ => {
                return Err(MoveError::new(format!(
                    "'{}' is not a move: {}",
                    input.trim(),
                    self.move_syntax()
                )));
            }
        };
        let to = (0..g.order)
            .find(|&v| g.name(v) == name)
            .ok_or_else(|| MoveError::new(format!("there is no vertex {name}")))?;
        let here = g.name(g.token);
        let w = g.edge(g.token, to).ok_or_else(|| {
            MoveError::new(format!(
                "no edge joins {here} to {name}: the token moves along an edge at its vertex"
            ))
        })?;
        let weight = match weight {
            None if w == 1 => 0,
            None => {
                return Err(MoveError::new(format!(
                    "say what weight to leave on {here}-{name} (now {w}): '{name} 0' to '{name} {}'",
                    w - 1
                )));
            }
            Some(t) => t.parse::<u64>().map_err(|_| {
                MoveError::new(format!("'{t}' is not a weight (a whole number from 0)"))
            })?,
        };
        if weight >= w {
            return Err(MoveError::new(format!(
                "the edge {here}-{name} has weight {w}: a move must lower it, to 0 up to {}",
                w - 1
            )));
        }
        Ok(TokenMove { to, weight })
    }

    fn format_move(&self, g: &TokenGraph, mv: &TokenMove) -> String {
        format!("{} {}", g.name(mv.to), mv.weight)
    }

    fn describe_move(&self, g: &TokenGraph, mv: &TokenMove) -> String {
        let w = g.edge(g.token, mv.to).unwrap_or(0);
        format!(
            "move the token from {} to {}, lowering the edge from {w} to {}{}",
            g.name(g.token),
            g.name(mv.to),
            mv.weight,
            if mv.weight == 0 {
                " (the edge is used up)"
            } else {
                ""
            }
        )
    }

    fn render(&self, g: &TokenGraph) -> String {
        let mut s = format!("  token on {}\n", g.name(g.token));
        for &(i, j, w) in &g.edges {
            let mark = if i == g.token || j == g.token {
                "  ← at the token"
            } else {
                ""
            };
            s.push_str(&format!("  {}-{} weight {w}{mark}\n", g.name(i), g.name(j)));
        }
        s.push_str(&format!("  position: {}\n", self.format_position(g)));
        s
    }

    fn material(&self, g: &TokenGraph) -> u64 {
        g.token_component().edges.iter().map(|e| e.2).sum()
    }

    fn candidate_moves(&self, g: &TokenGraph) -> Vec<TokenMove> {
        self.moves(g)
    }

    fn position_syntax(&self) -> &'static str {
        SYNTAX.accepted
    }

    fn move_syntax(&self) -> String {
        String::from(
            "'b 2' moves the token to the neighbour b, leaving weight 2 on the edge it crosses (any weight below the present one); 'b' alone when the edge has weight 1",
        )
    }
    fn board(&self, g: &TokenGraph) -> crate::Board {
        let edges: Vec<(usize, usize, Option<u64>)> = g
            .edges
            .iter()
            .map(|&(from, to, weight)| (from, to, Some(weight)))
            .collect();
        crate::Board::graph(
            (0..g.order).map(|i| g.name(i)).collect(),
            &edges,
            Some(g.token),
            None,
        )
    }
    /// The vertex the token goes to and the edge it uses.
    fn touches(&self, g: &TokenGraph, mv: &TokenMove) -> Vec<crate::Element> {
        let (a, b) = (g.token.min(mv.to), g.token.max(mv.to));
        let mut out = vec![crate::Element::Vertex {
            index: mv.to,
            id: g.name(mv.to),
        }];
        if let Some(e) = g.edges.iter().position(|&(i, j, _)| (i, j) == (a, b)) {
            let (na, nb) = (g.name(a), g.name(b));
            let id = crate::geometry::edge_ids([(na.as_str(), nb.as_str())]).remove(0);
            out.push(crate::Element::Edge { index: e, id });
        }
        out
    }
    fn moves_left_bound(&self, g: &TokenGraph) -> Option<u64> {
        Some(g.edges.iter().map(|e| e.2).sum())
    }
}

impl Theory for GraphNim {
    fn description(&self) -> Description {
        Description {
            rules: "Every edge of an undirected graph has a weight, and a token sits on one vertex. A move picks an edge at the token's vertex, lowers its weight to any smaller value (0 removes the edge), and moves the token across that edge. Normal play: a player who cannot move loses; misère play: a player who cannot move wins.",
            example: "a-b:3,b-c:1,@a",
            theory: "An impartial game: Nimatron computes the Grundy value by memoised mex over the token's connected component (the rest of the graph can never be reached), memoised up to isomorphism that keeps the token and the weights; misère play by outcome search. A single edge of weight w plays exactly as a Nim heap of w (value w), and the path a-b-c with weights 1, 1 and the token at a is a second-player win. Checked against a plain search over (weights, token) without components or isomorphism on random graphs of up to 5 vertices with weights up to 3, in both conventions.",
            citation: "M. Fukuyama, \"A Nim game played on graphs\", Theoretical Computer Science 304 (2003) 387-399; L. A. Erickson, \"The Game of Nim on Graphs\", North Dakota State University (2011).",
        }
    }

    fn explain_solved(
        &self,
        g: &TokenGraph,
        convention: Convention,
        outcome: Outcome,
        grundy: Option<Nimber>,
    ) -> String {
        let part = g.token_component();
        let verdict = match outcome {
            Outcome::N => "the player to move wins",
            Outcome::P => "the player to move loses against perfect play",
        };
        let mut s = format!(
            "The token is on {}. Only its component matters: {} vert{} and {} edge{} of total weight {}.\n",
            g.name(g.token),
            part.order,
            if part.order == 1 { "ex" } else { "ices" },
            part.edges.len(),
            if part.edges.len() == 1 { "" } else { "s" },
            part.edges.iter().map(|e| e.2).sum::<u64>()
        );
        if part.edges.len() == 1 {
            s.push_str(&format!(
                "A single edge of weight {w} is a Nim heap of {w}: each move lowers it, and the token only shuttles between its ends.\n",
                w = part.edges[0].2
            ));
        }
        match (convention, grundy) {
            (Convention::Normal, Some(v)) => s.push_str(&format!(
                "Search over every position reachable from here (up to isomorphism) gives the Grundy value {v}, so {verdict}.\n"
            )),
            _ => s.push_str(&format!(
                "Search over every position reachable from here gives: {verdict}.\n"
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
    use crate::solve::{GrundySolver, Limits, OutcomeSearch};
    use crate::strategy::SplitMix64;
    use std::collections::{HashMap, HashSet};

    type Plain = (Vec<u64>, usize);

    /// Options from the definition, on a list of edge weights and the
    /// token's vertex.
    fn naive_options(edges: &[(usize, usize)], (weights, token): &Plain) -> Vec<Plain> {
        let mut out = Vec::new();
        for (k, &(i, j)) in edges.iter().enumerate() {
            let to = if i == *token {
                j
            } else if j == *token {
                i
            } else {
                continue;
            };
            for w in 0..weights[k] {
                let mut after = weights.clone();
                after[k] = w;
                out.push((after, to));
            }
        }
        out
    }

    fn naive_grundy(edges: &[(usize, usize)], p: &Plain, memo: &mut HashMap<Plain, u64>) -> u64 {
        if let Some(&v) = memo.get(p) {
            return v;
        }
        let seen: HashSet<u64> = naive_options(edges, p)
            .iter()
            .map(|q| naive_grundy(edges, q, memo))
            .collect();
        let v = (0..).find(|x| !seen.contains(x)).expect("mex");
        memo.insert(p.clone(), v);
        v
    }

    fn naive_misere(edges: &[(usize, usize)], p: &Plain, memo: &mut HashMap<Plain, bool>) -> bool {
        if let Some(&w) = memo.get(p) {
            return w;
        }
        let options = naive_options(edges, p);
        let w = options.is_empty() || options.iter().any(|q| !naive_misere(edges, q, memo));
        memo.insert(p.clone(), w);
        w
    }

    #[test]
    fn published_facts() {
        let mut solver = GrundySolver::new(&GraphNim, Limits::default());
        for w in 1..=30 {
            let g = GraphNim.parse_position(&format!("a-b:{w},@a")).unwrap();
            assert_eq!(
                solver.grundy(&g).unwrap(),
                Nimber(w),
                "one edge of weight {w}"
            );
        }
        let adapter = Adapter::new(crate::GameSpec::GraphNim, GraphNim);
        let a = adapter
            .analyze_text("a-b:1,b-c:1,@a", Convention::Normal, Limits::default())
            .unwrap();
        assert_eq!(a.outcome, Outcome::P);
        let a = adapter
            .analyze_text("a-b:5,@b", Convention::Normal, Limits::default())
            .unwrap();
        assert_eq!(a.outcome, Outcome::N);
        assert_eq!(a.winning_moves.len(), 1);
        assert_eq!(a.winning_moves[0].notation, "a 0");
        assert!(a.explanation.contains("Nim heap of 5"));
    }

    #[test]
    fn agrees_with_plain_search_on_random_graphs() {
        let mut rng = SplitMix64::new(11);
        let adapter = Adapter::new(crate::GameSpec::GraphNim, GraphNim);
        let mut solver = GrundySolver::new(&GraphNim, Limits::default());
        let mut misere = OutcomeSearch::new(&GraphNim, Convention::Misere, Limits::default());
        for round in 0..120 {
            let n = 2 + round % 4;
            let mut edges = Vec::new();
            let mut weights = Vec::new();
            let mut parts = vec![format!("n={n}")];
            for i in 0..n {
                for j in i + 1..n {
                    if rng.below(100) < 45 {
                        let w = 1 + rng.below(if n <= 4 { 3 } else { 2 });
                        edges.push((i, j));
                        weights.push(w);
                        parts.push(format!("{}-{}:{w}", i + 1, j + 1));
                    }
                }
            }
            let token = rng.below(n as u64) as usize;
            parts.push(format!("@{}", token + 1));
            let text = parts.join(",");
            let g = GraphNim.parse_position(&text).unwrap();
            let plain = (weights, token);
            let mut memo = HashMap::new();
            let expected = naive_grundy(&edges, &plain, &mut memo);
            assert_eq!(solver.grundy(&g).unwrap(), Nimber(expected), "{text}");
            let c = g.canonical();
            assert_eq!(solver.grundy(&c).unwrap(), Nimber(expected), "{text}");
            // Relabelling the vertices does not change the canonical form.
            let mut perm: Vec<usize> = (0..n).collect();
            for i in (1..n).rev() {
                perm.swap(i, rng.below(i as u64 + 1) as usize);
            }
            assert_eq!(g.relabelled(&perm, true).canonical(), c, "{text}");
            // Every winning move, from the definition.
            let a = adapter
                .analyze_text(&text, Convention::Normal, Limits::default())
                .unwrap();
            let mut ours: Vec<String> = a.winning_moves.iter().map(|m| m.to_text.clone()).collect();
            let mut theirs: Vec<String> = GraphNim
                .moves(&g)
                .iter()
                .filter(|m| {
                    let after = GraphNim.apply(&g, m);
                    let mut w = plain.0.clone();
                    let k = edges
                        .iter()
                        .position(|&(i, j)| (i, j) == (g.token.min(m.to), g.token.max(m.to)))
                        .expect("edge");
                    w[k] = m.weight;
                    let _ = after;
                    naive_grundy(&edges, &(w, m.to), &mut memo) == 0
                })
                .map(|m| GraphNim.format_position(&GraphNim.apply(&g, m)))
                .collect();
            ours.sort();
            theirs.sort();
            assert_eq!(ours, theirs, "{text}");
            let mut memo = HashMap::new();
            assert_eq!(
                misere.outcome(&g).unwrap().to_move_wins(),
                naive_misere(&edges, &plain, &mut memo),
                "{text}"
            );
            assert_eq!(
                GraphNim
                    .parse_position(&GraphNim.format_position(&g))
                    .unwrap(),
                g
            );
        }
    }

    /// Found by the `positions` fuzz target: in `a-leaving,@a` the listed
    /// move to the vertex `leaving` is written `leaving 0`, and the parser
    /// dropped `leaving` as a verb and looked for a vertex `0`. Each listed
    /// move must read back, whatever its vertex is named.
    #[test]
    fn a_vertex_named_like_a_verb_can_be_moved_to() {
        let g = GraphNim
            .parse_position("a-leaving:2,a-to,a-move:3,a-b:2,@a")
            .unwrap();
        for mv in GraphNim.moves(&g) {
            let text = GraphNim.format_move(&g, &mv);
            assert_eq!(GraphNim.parse_move(&g, &text).unwrap(), mv, "{text}");
        }
        for (typed, to, weight) in [
            ("leaving 1", "leaving", 1),
            ("to", "to", 0),
            ("move 2", "move", 2),
            ("b leaving 1", "b", 1),
            ("move to b leave 0", "b", 0),
        ] {
            let mv = GraphNim
                .parse_move(&g, typed)
                .unwrap_or_else(|e| panic!("{typed}: {e}"));
            assert_eq!(
                (g.name(mv.to), mv.weight),
                (to.to_string(), weight),
                "{typed}"
            );
        }
    }

    #[test]
    fn moves_and_errors() {
        let g = GraphNim.parse_position("a-b:3,b-c:1,@a").unwrap();
        assert_eq!(GraphNim.format_position(&g), "a-b:3,b-c:1,@a");
        let mv = GraphNim.parse_move(&g, "b 2").unwrap();
        assert_eq!(
            GraphNim.describe_move(&g, &mv),
            "move the token from a to b, lowering the edge from 3 to 2"
        );
        assert_eq!(
            GraphNim.format_position(&GraphNim.apply(&g, &mv)),
            "a-b:2,b-c:1,@b"
        );
        let e = |t: &str| GraphNim.parse_move(&g, t).unwrap_err().problem;
        assert!(e("c 0").contains("no edge joins a to c"));
        assert!(e("b 3").contains("must lower"));
        assert!(e("b").contains("say what weight"));
        assert!(e("z 1").contains("no vertex z"));
        let err = |t: &str| GraphNim.parse_position(t).unwrap_err().to_string();
        assert!(err("a-b:-1,@a").contains("negative weight"));
        assert!(err("a-b:20000,@a").contains("more than the largest"));
        assert!(err("a-b:2").contains("no token"));
        assert!(err("n=3,1-5:2,@1").contains("vertex 5, which does not exist"));
        let adapter = Adapter::new(crate::GameSpec::GraphNim, GraphNim);
        let e = adapter
            .analyze_text("complete:6:9,@1", Convention::Normal, Limits::states(100))
            .unwrap_err();
        assert!(e.to_string().contains("limit of 100"), "{e}");
    }
}
