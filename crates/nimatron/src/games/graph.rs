//! Graphs for the graph games: the text syntax (edge lists, weights, a token,
//! named generators), natural ordering of vertex names, and a canonical
//! labelling so that isomorphic graphs share one table entry.
//!
//! # Syntax
//!
//! A graph is a list of parts separated by commas, spaces, new lines, `;` or
//! `+`. All parts are merged by vertex name.
//! - `a-b` is an edge between vertices `a` and `b`; `a-b:3` gives it weight 3
//!   (graph Nim only; a bare `a-b` there has weight 1).
//! - `v` alone is a vertex (isolated unless an edge names it).
//! - `n=7` declares the vertices `1` to `7`. With a declaration, every edge
//!   must join declared vertices.
//! - `@v` puts the token on `v` (graph Nim only).
//! - Generators, numbered after the largest vertex number used so far:
//!   `path:N`, `cycle:N`, `grid:RxC`, `complete:N`, `star:N` (a centre and N
//!   leaves), `petersen`; in graph Nim each takes an optional weight for all
//!   its edges, `cycle:5:2`.
//! - `empty` is the graph with no vertices.
//! - `#` starts a comment that runs to the end of its line.
//!
//! Vertex names are letters, digits and `_`, at most 16 characters. At most
//! 64 vertices.

use std::cmp::Ordering;

use crate::PositionError;

/// The most vertices a graph may have.
pub const MAX_VERTICES: usize = 64;

/// What a game accepts in its graph text.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Syntax {
    /// Edges carry weights (`a-b:3`).
    pub weights: bool,
    /// A token vertex (`@a`) is required.
    pub token: bool,
    /// The syntax, for messages.
    pub accepted: &'static str,
}

/// A parsed graph: vertex names in natural order, edges as index pairs
/// (`i < j`) with weights, and the token if the syntax has one.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParsedGraph {
    /// Vertex names, in natural order.
    pub names: Vec<String>,
    /// Edges `(i, j, weight)` with `i < j`, sorted.
    pub edges: Vec<(usize, usize, u64)>,
    /// The token's vertex.
    pub token: Option<usize>,
}

/// Natural order of names: numbers by value first, then other names.
pub fn natural_cmp(a: &str, b: &str) -> Ordering {
    match (a.parse::<u64>(), b.parse::<u64>()) {
        (Ok(x), Ok(y)) => x.cmp(&y).then_with(|| a.cmp(b)),
        (Ok(_), Err(_)) => Ordering::Less,
        (Err(_), Ok(_)) => Ordering::Greater,
        (Err(_), Err(_)) => a.cmp(b),
    }
}

/// The generators' names. They, and `empty`, cannot name a vertex (in
/// any case of letters): a lone vertex is written as its name.
const GENERATORS: [&str; 6] = ["path", "cycle", "grid", "complete", "star", "petersen"];

/// Whether `name` can name a vertex: letters, digits and `_`, at most 16.
pub(crate) fn valid_name(name: &str) -> bool {
    !name.is_empty()
        && name.len() <= 16
        && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
}

struct Builder {
    syntax: Syntax,
    names: Vec<String>,
    edges: Vec<(String, String, u64)>,
    token: Option<String>,
    declared: Option<u64>,
    largest_number: u64,
}

impl Builder {
    fn error(&self, problem: String) -> PositionError {
        PositionError::new(problem, self.syntax.accepted)
    }

    fn vertex(&mut self, name: &str, context: &str) -> Result<(), PositionError> {
        if !valid_name(name) {
            return Err(self.error(format!(
                "'{name}' in '{context}' is not a vertex name (letters, digits and '_', at most 16)"
            )));
        }
        // A lone vertex is written as its name, which must not read back
        // as a generator or as 'empty'.
        if GENERATORS
            .iter()
            .chain(&["empty"])
            .any(|k| name.eq_ignore_ascii_case(k))
        {
            return Err(self.error(format!(
                "'{name}' in '{context}' is a word of the graph syntax ({}, empty) and cannot name a vertex",
                GENERATORS.join(", ")
            )));
        }
        if let Ok(k) = name.parse::<u64>() {
            self.largest_number = self.largest_number.max(k);
        }
        if !self.names.iter().any(|n| n == name) {
            self.names.push(name.to_string());
        }
        Ok(())
    }

    fn check_declared(&self, name: &str, context: &str) -> Result<(), PositionError> {
        if let Some(n) = self.declared {
            let ok =
                name.parse::<u64>().is_ok_and(|k| (1..=n).contains(&k)) && !name.starts_with('0');
            if !ok && !self.names.iter().any(|v| v == name) {
                return Err(self.error(format!(
                    "'{context}' names vertex {name}, which does not exist: with n={n} the vertices are 1 to {n}"
                )));
            }
        }
        Ok(())
    }

    fn edge(&mut self, a: &str, b: &str, w: u64, context: &str) -> Result<(), PositionError> {
        if a == b {
            return Err(self.error(format!(
                "'{context}' joins vertex {a} to itself: edges join two different vertices"
            )));
        }
        let (x, y) = if natural_cmp(a, b) == Ordering::Less {
            (a, b)
        } else {
            (b, a)
        };
        if self.edges.iter().any(|(p, q, _)| p == x && q == y) {
            return Err(self.error(format!(
                "the edge {x}-{y} is given twice: each pair of vertices has at most one edge"
            )));
        }
        self.vertex(a, context)?;
        self.vertex(b, context)?;
        self.edges.push((x.to_string(), y.to_string(), w));
        Ok(())
    }

    fn weight(&self, text: &str, context: &str) -> Result<u64, PositionError> {
        if !self.syntax.weights {
            return Err(self.error(format!(
                "'{context}' has a weight, but this game's edges carry none"
            )));
        }
        let t = text.trim();
        if t.starts_with('-') {
            return Err(self.error(format!(
                "'{context}' has the negative weight {t}: weights are whole numbers from 0"
            )));
        }
        t.parse::<u64>().map_err(|_| {
            self.error(format!(
                "'{t}' in '{context}' is not a weight (a whole number from 0)"
            ))
        })
    }

    fn generator(&mut self, part: &str) -> Result<bool, PositionError> {
        let mut pieces = part.split(':');
        let kind = pieces.next().unwrap_or("").to_ascii_lowercase();
        if !GENERATORS.contains(&kind.as_str()) {
            return Ok(false);
        }
        let args: Vec<&str> = pieces.collect();
        let (size, weight) = match (kind.as_str(), args.as_slice()) {
            ("petersen", []) => ("", 1),
            ("petersen", [w]) => ("", self.weight(w, part)?),
            (_, [s]) => (*s, 1),
            (_, [s, w]) => (*s, self.weight(w, part)?),
            _ => {
                return Err(self.error(format!(
                    "'{part}' is not a generator: write path:N, cycle:N, grid:RxC, complete:N, star:N or petersen{}",
                    if self.syntax.weights {
                        ", each with an optional :W weight"
                    } else {
                        ""
                    }
                )));
            }
        };
        let number = |s: &str| -> Result<usize, PositionError> {
            s.parse::<usize>()
                .ok()
                .filter(|&k| (1..=MAX_VERTICES).contains(&k))
                .ok_or_else(|| {
                    self.error(format!(
                        "'{s}' in '{part}' is not a size from 1 to {MAX_VERTICES}"
                    ))
                })
        };
        let mut pairs: Vec<(usize, usize)> = Vec::new();
        let count = match kind.as_str() {
            "path" => {
                let n = number(size)?;
                pairs.extend((1..n).map(|i| (i - 1, i)));
                n
            }
            "cycle" => {
                let n = number(size)?;
                if n < 3 {
                    return Err(self.error(format!("'{part}': a cycle has at least 3 vertices")));
                }
                pairs.extend((0..n).map(|i| (i, (i + 1) % n)));
                n
            }
            "complete" => {
                let n = number(size)?;
                for i in 0..n {
                    pairs.extend((i + 1..n).map(|j| (i, j)));
                }
                n
            }
            "star" => {
                let n = number(size)?;
                pairs.extend((1..=n).map(|i| (0, i)));
                n + 1
            }
            "grid" => {
                let (r, c) = size.split_once(['x', 'X']).ok_or_else(|| {
                    self.error(format!("'{part}': write grid:RxC, e.g. grid:3x3"))
                })?;
                let (r, c) = (number(r)?, number(c)?);
                for i in 0..r {
                    for j in 0..c {
                        if j + 1 < c {
                            pairs.push((i * c + j, i * c + j + 1));
                        }
                        if i + 1 < r {
                            pairs.push((i * c + j, (i + 1) * c + j));
                        }
                    }
                }
                r * c
            }
            _ => {
                // The Petersen graph: an outer 5-cycle, an inner pentagram,
                // and spokes.
                for i in 0..5 {
                    pairs.push((i, (i + 1) % 5));
                    pairs.push((5 + i, 5 + (i + 2) % 5));
                    pairs.push((i, 5 + i));
                }
                10
            }
        };
        if count > MAX_VERTICES {
            return Err(self.error(format!(
                "'{part}' has {count} vertices; at most {MAX_VERTICES} are allowed"
            )));
        }
        let base = self.largest_number.max(self.declared.unwrap_or(0));
        let name = |i: usize| (base + 1 + i as u64).to_string();
        for i in 0..count {
            self.vertex(&name(i), part)?;
        }
        for (i, j) in pairs {
            self.edge(&name(i), &name(j), weight, part)?;
        }
        Ok(true)
    }

    fn part(&mut self, part: &str) -> Result<(), PositionError> {
        if part.eq_ignore_ascii_case("empty") {
            return Ok(());
        }
        if let Some(name) = part.strip_prefix('@') {
            if !self.syntax.token {
                return Err(self.error(format!("'{part}': this game has no token")));
            }
            if self.token.is_some() {
                return Err(self.error(format!("'{part}': the token is placed twice")));
            }
            if !valid_name(name) {
                return Err(self.error(format!("'{part}' does not name a vertex")));
            }
            self.token = Some(name.to_string());
            return Ok(());
        }
        if let Some(n) = part.strip_prefix("n=").or_else(|| part.strip_prefix("N=")) {
            let n: u64 = n
                .parse()
                .ok()
                .filter(|&k| (1..=MAX_VERTICES as u64).contains(&k))
                .ok_or_else(|| {
                    self.error(format!(
                        "'{part}' is not a vertex count: write n=K with K from 1 to {MAX_VERTICES}"
                    ))
                })?;
            if self.declared.is_some() {
                return Err(self.error(format!("'{part}': the vertices are declared twice")));
            }
            self.declared = Some(n);
            for k in 1..=n {
                self.vertex(&k.to_string(), part)?;
            }
            return Ok(());
        }
        if self.generator(part)? {
            return Ok(());
        }
        let (body, weight) = match part.split_once(':') {
            Some((body, w)) => (body, Some(w)),
            None => (part, None),
        };
        match body.split_once('-') {
            Some((a, b)) => {
                let w = match weight {
                    Some(w) => self.weight(w, part)?,
                    None => 1,
                };
                if b.contains('-') {
                    return Err(self.error(format!(
                        "'{part}' is not an edge: write a-b{}",
                        if self.syntax.weights { " or a-b:3" } else { "" }
                    )));
                }
                self.check_declared(a, part)?;
                self.check_declared(b, part)?;
                if w > 0 {
                    self.edge(a, b, w, part)
                } else {
                    // A used-up edge is no edge; its ends remain.
                    self.vertex(a, part)?;
                    self.vertex(b, part)
                }
            }
            None if weight.is_none() => {
                self.check_declared(body, part)?;
                self.vertex(body, part)
            }
            None => Err(self.error(format!("'{part}' is neither an edge nor a generator"))),
        }
    }
}

/// Parse a graph in the syntax described in the module docs.
pub fn parse(text: &str, syntax: Syntax) -> Result<ParsedGraph, PositionError> {
    let mut b = Builder {
        syntax,
        names: Vec::new(),
        edges: Vec::new(),
        token: None,
        declared: None,
        largest_number: 0,
    };
    // '#' starts a comment that runs to the end of its line.
    let text: String = text
        .lines()
        .map(|line| line.split('#').next().unwrap_or(""))
        .collect::<Vec<_>>()
        .join("\n");
    let parts: Vec<&str> = text
        .split([',', ' ', '\t', '\n', '\r', ';', '+'])
        .filter(|p| !p.is_empty())
        .collect();
    if parts.is_empty() {
        return Err(b.error("no graph given".to_string()));
    }
    // Declarations first, so that edges before them are checked too.
    for part in parts
        .iter()
        .filter(|p| p.starts_with("n=") || p.starts_with("N="))
    {
        b.part(part)?;
    }
    for part in parts
        .iter()
        .filter(|p| !(p.starts_with("n=") || p.starts_with("N=")))
    {
        b.part(part)?;
        if b.names.len() > MAX_VERTICES {
            return Err(b.error(format!("the graph has more than {MAX_VERTICES} vertices")));
        }
    }
    b.names.sort_by(|x, y| natural_cmp(x, y));
    let index = |name: &str| {
        b.names
            .iter()
            .position(|n| n == name)
            .expect("known vertex")
    };
    let mut edges: Vec<(usize, usize, u64)> = b
        .edges
        .iter()
        .map(|(x, y, w)| {
            let (i, j) = (index(x), index(y));
            (i.min(j), i.max(j), *w)
        })
        .collect();
    edges.sort_unstable();
    let token = match (&b.token, syntax.token) {
        (Some(t), _) => match b.names.iter().position(|n| n == t) {
            Some(i) => Some(i),
            None => {
                return Err(b.error(format!(
                    "the token is on vertex {t}, which is not in the graph"
                )));
            }
        },
        (None, true) => {
            return Err(b.error("no token: put it on a vertex with '@v'".to_string()));
        }
        (None, false) => None,
    };
    Ok(ParsedGraph {
        names: b.names,
        edges,
        token,
    })
}

/// How many orderings [`canonical_order`] tries for a graph of `n`
/// vertices: many for small graphs, which recur often in a search and gain
/// most from sharing; none for graphs of more than 24 vertices, which rarely
/// recur, and are then kept in their own order.
pub fn leaf_budget(n: usize) -> usize {
    match n {
        0..=12 => 256,
        13..=24 => 32,
        _ => 0,
    }
}

/// A canonical labelling: the vertex order (`order[new] = old`) that gives
/// the least encoding among those the search visits. Vertices are first
/// split by colour refinement (starting from `initial` colours and edge
/// labels), then ties are broken by trying each vertex of the first tied
/// class in turn. When more than `budget` orderings would be tried the best
/// so far is kept: still a correct key (the graph relabelled), though
/// isomorphic graphs may then get different keys. A budget of 0 keeps the
/// given order.
pub fn canonical_order(
    n: usize,
    neighbours: &[Vec<(usize, u64)>],
    initial: &[u64],
    budget: usize,
) -> Vec<usize> {
    if budget == 0 {
        return (0..n).collect();
    }
    let mut best: Option<(Vec<u64>, Vec<usize>)> = None;
    let mut leaves = 0;
    let sorted: Vec<Vec<(usize, u64)>> = neighbours
        .iter()
        .map(|list| {
            let mut l = list.clone();
            l.sort_unstable();
            l
        })
        .collect();
    let colours = refine(n, &sorted, rank(initial));
    search(n, &sorted, colours, budget, &mut leaves, &mut best);
    best.map(|(_, order)| order).unwrap_or_default()
}

/// Ranks of values: equal values share a rank, ranks follow the order.
fn rank(values: &[u64]) -> Vec<u64> {
    let mut sorted: Vec<u64> = values.to_vec();
    sorted.sort_unstable();
    sorted.dedup();
    values
        .iter()
        .map(|v| sorted.binary_search(v).expect("present") as u64)
        .collect()
}

fn mix(x: u64) -> u64 {
    // SplitMix64's finaliser: spreads the bits of colours and weights.
    let mut z = x.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// Colour refinement: each round a vertex's colour becomes its old colour
/// together with the multiset of (neighbour colour, edge weight), summarised
/// by a commutative hash; ranks keep it independent of the labels. A hash
/// collision can only leave two classes merged, which costs sharing, never
/// correctness: the key is always the graph itself, relabelled.
fn refine(n: usize, neighbours: &[Vec<(usize, u64)>], mut colours: Vec<u64>) -> Vec<u64> {
    let mut classes = count_classes(&colours);
    let mut signatures: Vec<(u64, u64)> = vec![(0, 0); n];
    let mut distinct: Vec<(u64, u64)> = Vec::with_capacity(n);
    loop {
        for v in 0..n {
            let around = neighbours[v].iter().fold(0u64, |acc, &(u, w)| {
                acc.wrapping_add(mix(colours[u].wrapping_mul(0x1_0000_0001) ^ mix(w)))
            });
            signatures[v] = (colours[v], around);
        }
        distinct.clear();
        distinct.extend_from_slice(&signatures);
        distinct.sort_unstable();
        distinct.dedup();
        for v in 0..n {
            colours[v] = distinct.binary_search(&signatures[v]).expect("present") as u64;
        }
        if distinct.len() == classes {
            return colours;
        }
        classes = distinct.len();
    }
}

fn count_classes(colours: &[u64]) -> usize {
    let mut c = colours.to_vec();
    c.sort_unstable();
    c.dedup();
    c.len()
}

/// Whether swapping `u` and `v` maps the graph to itself: the same
/// neighbours with the same weights, apart from each other.
fn twins(sorted: &[Vec<(usize, u64)>], u: usize, v: usize) -> bool {
    let a = sorted[u].iter().filter(|&&(x, _)| x != v);
    let b = sorted[v].iter().filter(|&&(x, _)| x != u);
    a.eq(b)
}

fn search(
    n: usize,
    neighbours: &[Vec<(usize, u64)>],
    colours: Vec<u64>,
    budget: usize,
    leaves: &mut usize,
    best: &mut Option<(Vec<u64>, Vec<usize>)>,
) {
    if *leaves >= budget && best.is_some() {
        return;
    }
    // The first colour class with more than one vertex.
    let mut counts = vec![0usize; n];
    for &c in &colours {
        counts[c as usize] += 1;
    }
    let Some(tied) = (0..n).find(|&c| counts[c] > 1) else {
        *leaves += 1;
        let mut order = vec![0; n];
        for v in 0..n {
            order[colours[v] as usize] = v;
        }
        let code = encode(n, neighbours, &colours);
        if best.as_ref().is_none_or(|(b, _)| code < *b) {
            *best = Some((code, order));
        }
        return;
    };
    let mut tried: Vec<usize> = Vec::new();
    for v in 0..n {
        if colours[v] as usize != tied {
            continue;
        }
        // A twin of a vertex already tried leads to the same codes.
        if tried.iter().any(|&t| twins(neighbours, t, v)) {
            continue;
        }
        tried.push(v);
        let split: Vec<u64> = (0..n)
            .map(|u| 2 * colours[u] + u64::from(colours[u] as usize == tied && u != v))
            .collect();
        let refined = refine(n, neighbours, rank(&split));
        search(n, neighbours, refined, budget, leaves, best);
        if *leaves >= budget {
            return;
        }
    }
}

/// The graph's edges under the numbering `colours` (all distinct), as a
/// sorted list flattened to numbers.
fn encode(n: usize, neighbours: &[Vec<(usize, u64)>], colours: &[u64]) -> Vec<u64> {
    let mut edges: Vec<(u64, u64, u64)> = Vec::new();
    for v in 0..n {
        for &(u, w) in &neighbours[v] {
            let (a, b) = (colours[v], colours[u]);
            if a < b {
                edges.push((a, b, w));
            }
        }
    }
    edges.sort_unstable();
    edges.into_iter().flat_map(|(a, b, w)| [a, b, w]).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    const PLAIN: Syntax = Syntax {
        weights: false,
        token: false,
        accepted: "edges like 1-2",
    };
    const WEIGHTED: Syntax = Syntax {
        weights: true,
        token: true,
        accepted: "edges like a-b:3 and a token @a",
    };

    #[test]
    fn edge_lists_and_generators() {
        let g = parse("2-3, 1-2 4", PLAIN).unwrap();
        assert_eq!(parse("# a file\n1-2 # first\n2-3\n4\n", PLAIN).unwrap(), g);
        assert_eq!(g.names, vec!["1", "2", "3", "4"]);
        assert_eq!(g.edges, vec![(0, 1, 1), (1, 2, 1)]);
        let g = parse("petersen", PLAIN).unwrap();
        assert_eq!(g.names.len(), 10);
        assert_eq!(g.edges.len(), 15);
        let g = parse("path:3+cycle:4", PLAIN).unwrap();
        assert_eq!(g.names.len(), 7);
        assert_eq!(g.edges.len(), 6);
        let g = parse("grid:2x3", PLAIN).unwrap();
        assert_eq!(g.edges.len(), 7);
        assert_eq!(parse("complete:5", PLAIN).unwrap().edges.len(), 10);
        assert_eq!(parse("star:3", PLAIN).unwrap().edges.len(), 3);
        assert_eq!(parse("n=5 1-2", PLAIN).unwrap().names.len(), 5);
        let g = parse("a-b:3 b-c @a", WEIGHTED).unwrap();
        assert_eq!(g.edges, vec![(0, 1, 3), (1, 2, 1)]);
        assert_eq!(g.token, Some(0));
        assert_eq!(parse("cycle:3:2 @1", WEIGHTED).unwrap().edges[0].2, 2);
        assert_eq!(parse("empty", PLAIN).unwrap().names.len(), 0);
    }

    #[test]
    fn bad_graphs_say_what_is_wrong() {
        let e = |t: &str, s: Syntax| parse(t, s).unwrap_err().to_string();
        assert!(e("n=3 1-2 2-7", PLAIN).contains("vertex 7, which does not exist"));
        assert!(e("a-b:-3 @a", WEIGHTED).contains("negative weight -3"));
        assert!(e("a-b:x @a", WEIGHTED).contains("not a weight"));
        assert!(e("a-b:2", PLAIN).contains("carry none"));
        assert!(e("a-b @c", WEIGHTED).contains("token is on vertex c"));
        assert!(e("a-b", WEIGHTED).contains("no token"));
        assert!(e("a-a", PLAIN).contains("itself"));
        assert!(e("a-b b-a", PLAIN).contains("twice"));
        assert!(e("a-b-c", PLAIN).contains("not an edge"));
        assert!(e("a?-b", PLAIN).contains("not a vertex name"));
        assert!(e("path:0", PLAIN).contains("not a size"));
        assert!(e("cycle:2", PLAIN).contains("at least 3"));
        assert!(e("path:40 path:40", PLAIN).contains("more than 64"));
        assert!(e("", PLAIN).contains("no graph"));
        assert!(e("@a a-b", PLAIN).contains("no token"));
        assert!(e("a-a", PLAIN).contains("edges like 1-2"));
    }

    #[test]
    fn canonical_order_ignores_labels() {
        // A path and a relabelled path get the same encoding.
        let nb = |n: usize, edges: &[(usize, usize)]| {
            let mut v = vec![Vec::new(); n];
            for &(a, b) in edges {
                v[a].push((b, 1));
                v[b].push((a, 1));
            }
            v
        };
        let a = nb(5, &[(0, 1), (1, 2), (2, 3), (3, 4)]);
        let b = nb(5, &[(3, 0), (0, 4), (4, 1), (1, 2)]);
        let enc = |g: &[Vec<(usize, u64)>]| {
            let order = canonical_order(5, g, &[0; 5], 1000);
            let mut colours = vec![0; 5];
            for (new, &old) in order.iter().enumerate() {
                colours[old] = new as u64;
            }
            encode(5, g, &colours)
        };
        assert_eq!(enc(&a), enc(&b));
    }
}
