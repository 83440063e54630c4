//! Green Hackenbush: a picture of edges joined to the ground. A move cuts
//! one edge, and every edge that is no longer joined to the ground falls.
//!
//! # Theory (normal play)
//!
//! The parts of a picture that meet only at the ground are independent, so
//! the value is the nim-sum of theirs. Within a part, two principles of
//! Berlekamp, Conway and Guy (*Winning Ways*, ch. 7) give the value without
//! search:
//! - **Fusion.** Vertices on a cycle may be fused into one vertex without
//!   changing the value; an edge between fused vertices becomes a loop, and
//!   a loop is worth `*1`, as a single edge is. Fusing every cycle leaves a
//!   tree of *bridges* (edges on no cycle) with loops at its nodes.
//! - **Colon.** The branches standing on a vertex may be replaced by one
//!   stalk whose length is the nim-sum of their values; a stalk of `n` edges
//!   is worth `*n`. So an edge with branches worth `x` in all on top of it
//!   is worth `*(1 + x)` (ordinary addition).
//!
//! [`Picture::value`] applies both in one pass: bridges by Tarjan's
//! low-link search, nodes by flood fill over the other edges, then values
//! from the top of the tree down to the ground. Misère play has no such
//! theory here and is searched.

use std::collections::{HashMap, VecDeque};
use std::sync::Arc;

use crate::games::graph::{self, natural_cmp, valid_name};
use crate::{Convention, Nimber, Outcome, Rules};
use crate::{Description, MoveError, Notation, PositionError, Theory, Verdict};

/// The most vertices a picture may have, the ground included.
pub const MAX_VERTICES: usize = 256;
/// The most edges a picture may have.
pub const MAX_EDGES: usize = 256;
/// The deepest nesting of brackets in a `tree:` generator.
const MAX_TREE_DEPTH: usize = 64;

/// A Green Hackenbush position: a multigraph rooted at the ground (vertex
/// 0), with loops and parallel edges allowed.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Picture {
    /// Vertex names, the ground's (`g`) first; empty for an unnamed
    /// (canonical) picture, whose vertices are called g, 1, 2, ...
    names: Vec<Arc<str>>,
    /// Edges `(a, b)` with `a <= b` (`a == b` is a loop), sorted; parallel
    /// edges repeat. Every edge is joined to the ground, and every vertex
    /// but the ground has an edge.
    edges: Vec<(u8, u8)>,
}

/// A move: cut an edge between two vertices (one of them, where edges are
/// parallel), given as vertex indices, the smaller first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Cut(pub u8, pub u8);

impl Picture {
    /// How many vertices, the ground included.
    pub fn order(&self) -> usize {
        if self.names.is_empty() {
            self.edges
                .iter()
                .map(|&(_, b)| b as usize + 1)
                .max()
                .unwrap_or(1)
        } else {
            self.names.len()
        }
    }

    /// The edges, as vertex index pairs (smaller first; parallel edges
    /// repeat).
    pub fn edges(&self) -> &[(u8, u8)] {
        &self.edges
    }

    /// The name of vertex `i` (`g` for the ground).
    pub fn name(&self, i: usize) -> String {
        match self.names.get(i) {
            Some(n) => n.to_string(),
            None if i == 0 => GROUND.to_string(),
            None => i.to_string(),
        }
    }

    fn edge_text(&self, a: usize, b: usize) -> String {
        format!("{}-{}", self.name(a), self.name(b))
    }

    fn edges_text(&self) -> String {
        if self.edges.is_empty() {
            return "empty".to_string();
        }
        let parts: Vec<String> = self
            .edges
            .iter()
            .map(|&(a, b)| self.edge_text(a as usize, b as usize))
            .collect();
        parts.join(" ")
    }

    /// The picture made of `edges` over the vertices of `names` (or an
    /// unnamed picture of `order` vertices): what is not joined to the
    /// ground is dropped, and the vertices left are numbered in their old
    /// order.
    fn grounded(names: &[Arc<str>], order: usize, edges: &[(usize, usize)]) -> Picture {
        let mut adjacent: Vec<Vec<usize>> = vec![Vec::new(); order];
        for &(a, b) in edges {
            adjacent[a].push(b);
            adjacent[b].push(a);
        }
        let mut reached = vec![false; order];
        reached[0] = true;
        let mut stack = vec![0];
        while let Some(v) = stack.pop() {
            for &u in &adjacent[v] {
                if !reached[u] {
                    reached[u] = true;
                    stack.push(u);
                }
            }
        }
        let mut index = vec![usize::MAX; order];
        let mut kept = 0;
        for v in 0..order {
            if reached[v] {
                index[v] = kept;
                kept += 1;
            }
        }
        let mut kept_edges: Vec<(u8, u8)> = edges
            .iter()
            .filter(|&&(a, _)| reached[a])
            .map(|&(a, b)| {
                let (x, y) = (index[a], index[b]);
                (x.min(y) as u8, x.max(y) as u8)
            })
            .collect();
        kept_edges.sort_unstable();
        Picture {
            names: if names.is_empty() {
                Vec::new()
            } else {
                (0..order)
                    .filter(|&v| reached[v])
                    .map(|v| names[v].clone())
                    .collect()
            },
            edges: kept_edges,
        }
    }

    fn index_edges(&self) -> Vec<(usize, usize)> {
        self.edges
            .iter()
            .map(|&(a, b)| (a as usize, b as usize))
            .collect()
    }

    /// The parts that meet only at the ground, in the order of their first
    /// edge; each loop at the ground is a part of its own.
    pub fn parts(&self) -> Vec<Picture> {
        let n = self.order();
        let mut root: Vec<usize> = (0..n).collect();
        fn find(root: &mut [usize], mut v: usize) -> usize {
            while root[v] != v {
                root[v] = root[root[v]];
                v = root[v];
            }
            v
        }
        for &(a, b) in &self.edges {
            if a != 0 {
                let (x, y) = (find(&mut root, a as usize), find(&mut root, b as usize));
                root[x] = y;
            }
        }
        // A part is named by a vertex of it other than the ground, or for a
        // loop at the ground by the loop's place in the edge list.
        let mut groups: Vec<(usize, Vec<(usize, usize)>)> = Vec::new();
        for (i, &(a, b)) in self.edges.iter().enumerate() {
            let key = if b == 0 {
                n + i
            } else {
                find(&mut root, b as usize)
            };
            match groups.iter_mut().find(|(k, _)| *k == key) {
                Some((_, edges)) => edges.push((a as usize, b as usize)),
                None => groups.push((key, vec![(a as usize, b as usize)])),
            }
        }
        if groups.len() == 1 {
            return vec![self.clone()];
        }
        groups
            .into_iter()
            .map(|(_, edges)| Picture::grounded(&self.names, n, &edges))
            .collect()
    }

    /// One part's edges under a canonical labelling: colour refinement and
    /// tie-breaking from [`graph::canonical_order`], with parallel edges as
    /// weights, loops in the starting colours and the ground kept apart and
    /// numbered 0.
    fn canonical_part(&self) -> Vec<(u8, u8)> {
        let n = self.order();
        let mut loops = vec![0u64; n];
        let mut multiplicity: HashMap<(usize, usize), u64> = HashMap::new();
        for &(a, b) in &self.edges {
            if a == b {
                loops[a as usize] += 1;
            } else {
                *multiplicity.entry((a as usize, b as usize)).or_default() += 1;
            }
        }
        let mut neighbours: Vec<Vec<(usize, u64)>> = vec![Vec::new(); n];
        for (&(a, b), &m) in &multiplicity {
            neighbours[a].push((b, m));
            neighbours[b].push((a, m));
        }
        // Even colours for the ground, odd for the rest.
        let initial: Vec<u64> = (0..n).map(|v| 2 * loops[v] + u64::from(v != 0)).collect();
        let order = graph::canonical_order(n, &neighbours, &initial, graph::leaf_budget(n));
        let mut new_index = vec![0usize; n];
        let rest = order.into_iter().filter(|&v| v != 0);
        for (new, old) in std::iter::once(0).chain(rest).enumerate() {
            new_index[old] = new;
        }
        let mut edges: Vec<(u8, u8)> = self
            .edges
            .iter()
            .map(|&(a, b)| {
                let (x, y) = (new_index[a as usize], new_index[b as usize]);
                (x.min(y) as u8, x.max(y) as u8)
            })
            .collect();
        edges.sort_unstable();
        edges
    }

    /// The same picture, unnamed: its parts each labelled canonically and
    /// sorted, so that pictures that differ only in their labels and the
    /// order of their parts share one key.
    pub fn canonical(&self) -> Picture {
        let mut parts: Vec<Vec<(u8, u8)>> =
            self.parts().iter().map(Picture::canonical_part).collect();
        parts.sort_unstable();
        let mut edges = Vec::with_capacity(self.edges.len());
        let mut offset = 0usize;
        for part in &parts {
            let shift = |v: u8| {
                if v == 0 {
                    0
                } else {
                    (v as usize + offset) as u8
                }
            };
            edges.extend(part.iter().map(|&(a, b)| (shift(a), shift(b))));
            offset += part.iter().map(|&(_, b)| b as usize).max().unwrap_or(0);
        }
        edges.sort_unstable();
        Picture {
            names: Vec::new(),
            edges,
        }
    }

    /// The normal-play value, by the fusion and colon principles.
    pub fn value(&self) -> Nimber {
        Nimber(Fused::new(self).above[0])
    }
}

/// The picture after the fusion principle: each class of vertices joined by
/// cycles is one node, the edges inside a node are its loops, and the
/// bridges between nodes form a tree rooted at the ground's node (node 0).
/// Nodes are numbered in breadth-first order from the root.
struct Fused {
    /// The vertices of each node, in index order.
    members: Vec<Vec<usize>>,
    /// How many edges lie inside each node: after fusion, its loops.
    loops: Vec<usize>,
    /// The nodes standing on each node, each with its bridge
    /// (lower vertex, upper vertex).
    children: Vec<Vec<(usize, usize, usize)>>,
    /// The nim-sum of everything standing on each node: its branches and
    /// its loops.
    above: Vec<u64>,
}

impl Fused {
    fn new(picture: &Picture) -> Fused {
        let n = picture.order();
        let edges = picture.index_edges();
        let bridge = bridges(n, &edges);
        let adjacent = incidence(n, &edges);
        let mut node_of = vec![usize::MAX; n];
        let mut members: Vec<Vec<usize>> = Vec::new();
        let mut children: Vec<Vec<(usize, usize, usize)>> = Vec::new();
        // (entry vertex, the node below and the bridge's lower vertex)
        let mut queue: VecDeque<(usize, Option<(usize, usize)>)> = VecDeque::from([(0, None)]);
        while let Some((entry, below)) = queue.pop_front() {
            let id = members.len();
            if let Some((parent, lower)) = below {
                children[parent].push((id, lower, entry));
            }
            let mut inside = vec![entry];
            node_of[entry] = id;
            let mut stack = vec![entry];
            while let Some(v) = stack.pop() {
                for &(u, e) in &adjacent[v] {
                    if !bridge[e] && node_of[u] == usize::MAX {
                        node_of[u] = id;
                        inside.push(u);
                        stack.push(u);
                    }
                }
            }
            inside.sort_unstable();
            for &v in &inside {
                for &(u, e) in &adjacent[v] {
                    if bridge[e] && node_of[u] == usize::MAX {
                        queue.push_back((u, Some((id, v))));
                    }
                }
            }
            members.push(inside);
            children.push(Vec::new());
        }
        let mut loops = vec![0usize; members.len()];
        for (id, &(a, _)) in edges.iter().enumerate() {
            if !bridge[id] {
                loops[node_of[a]] += 1;
            }
        }
        let mut above = vec![0u64; members.len()];
        for id in (0..members.len()).rev() {
            above[id] = children[id]
                .iter()
                .fold((loops[id] % 2) as u64, |acc, &(c, _, _)| {
                    acc ^ (1 + above[c])
                });
        }
        Fused {
            members,
            loops,
            children,
            above,
        }
    }

    /// Whether the part is a single stalk: a path from the ground, with no
    /// cycle and no loop.
    fn is_stalk(&self) -> bool {
        self.loops.iter().all(|&k| k == 0)
            && self.members.iter().all(|m| m.len() == 1)
            && self.children.iter().all(|c| c.len() <= 1)
    }

    fn has_cycle(&self) -> bool {
        self.loops.iter().any(|&k| k > 0)
    }
}

/// For each vertex, its neighbours with the index of the edge to each;
/// loops are left out.
fn incidence(n: usize, edges: &[(usize, usize)]) -> Vec<Vec<(usize, usize)>> {
    let mut adjacent: Vec<Vec<(usize, usize)>> = vec![Vec::new(); n];
    for (id, &(a, b)) in edges.iter().enumerate() {
        if a != b {
            adjacent[a].push((b, id));
            adjacent[b].push((a, id));
        }
    }
    adjacent
}

/// Which edges are bridges (on no cycle), by Tarjan's low-link search with
/// an explicit stack. Loops and parallel edges are never bridges: the search
/// skips only the very edge it came in by.
fn bridges(n: usize, edges: &[(usize, usize)]) -> Vec<bool> {
    let adjacent = incidence(n, edges);
    let mut found = vec![usize::MAX; n];
    let mut low = vec![0usize; n];
    let mut bridge = vec![false; edges.len()];
    let mut time = 0;
    for root in 0..n {
        if found[root] != usize::MAX {
            continue;
        }
        found[root] = time;
        low[root] = time;
        time += 1;
        // (vertex, the edge it was entered by, next neighbour to look at)
        let mut stack: Vec<(usize, usize, usize)> = vec![(root, usize::MAX, 0)];
        while let Some(top) = stack.last_mut() {
            let (v, entered_by) = (top.0, top.1);
            if let Some(&(u, id)) = adjacent[v].get(top.2) {
                top.2 += 1;
                if id == entered_by {
                    continue;
                }
                if found[u] == usize::MAX {
                    found[u] = time;
                    low[u] = time;
                    time += 1;
                    stack.push((u, id, 0));
                } else {
                    low[v] = low[v].min(found[u]);
                }
            } else {
                stack.pop();
                if let Some(&(p, _, _)) = stack.last() {
                    low[p] = low[p].min(low[v]);
                    if low[v] > found[p] {
                        bridge[entered_by] = true;
                    }
                }
            }
        }
    }
    bridge
}

const GROUND: &str = "g";

fn is_ground(name: &str) -> bool {
    name.eq_ignore_ascii_case("g") || name.eq_ignore_ascii_case("ground") || name == "0"
}

/// Green Hackenbush.
#[derive(Clone, Copy, Debug, Default)]
pub struct Hackenbush;

const SYNTAX: &str = "edges 'a-b' separated by spaces or commas, the ground written g (or 0), e.g. 'g-1 1-2 1-3 g-4 4-5 5-g'; a loop is 'a-a', and an edge written twice is two parallel edges; generators standing on the ground, numbered after the vertices so far: stalk:N (a path of N edges), cycle:N (a cycle of N edges through the ground: cycle:1 is a loop, cycle:2 two parallel edges), tree:T (a trunk of T edges, or T(B,...) with branches B of the same form on its top, e.g. tree:1(2,1(1,1))); parts joined by '+' are merged by vertex name; 'empty' is no edges; '#' starts a comment to the end of the line; every edge must be joined to the ground; vertex names are letters, digits and '_'; at most 256 vertices and 256 edges";

/// A tree generator: a trunk of `trunk` edges with `branches` on its top.
struct Branch {
    trunk: usize,
    branches: Vec<Branch>,
}

struct Builder {
    /// Vertex names other than the ground, in order of appearance.
    names: Vec<String>,
    /// Edges by name, the ground as `g`.
    edges: Vec<(String, String)>,
    largest_number: u64,
}

fn error(problem: String) -> PositionError {
    PositionError::new(problem, SYNTAX)
}

impl Builder {
    fn vertex(&mut self, name: &str, context: &str) -> Result<String, PositionError> {
        if is_ground(name) {
            return Ok(GROUND.to_string());
        }
        if !valid_name(name) {
            return Err(error(format!(
                "'{name}' in '{context}' is not a vertex name (letters, digits and '_', at most 16)"
            )));
        }
        if let Ok(k) = name.parse::<u64>() {
            self.largest_number = self.largest_number.max(k);
        }
        if !self.names.iter().any(|n| n == name) {
            self.names.push(name.to_string());
            if self.names.len() + 1 > MAX_VERTICES {
                return Err(error(format!(
                    "the picture has more than {MAX_VERTICES} vertices (the ground included)"
                )));
            }
        }
        Ok(name.to_string())
    }

    /// A vertex numbered after every number used so far.
    fn fresh(&mut self, context: &str) -> Result<String, PositionError> {
        let name = (self.largest_number + 1).to_string();
        self.vertex(&name, context)
    }

    fn edge(&mut self, a: &str, b: &str, context: &str) -> Result<(), PositionError> {
        let a = self.vertex(a, context)?;
        let b = self.vertex(b, context)?;
        if self.edges.len() == MAX_EDGES {
            return Err(error(format!(
                "the picture has more than {MAX_EDGES} edges"
            )));
        }
        self.edges.push((a, b));
        Ok(())
    }

    /// A chain of `length` new edges up from `from`; returns its top.
    fn chain(&mut self, from: &str, length: usize, context: &str) -> Result<String, PositionError> {
        let mut at = from.to_string();
        for _ in 0..length {
            let next = self.fresh(context)?;
            self.edge(&at, &next, context)?;
            at = next;
        }
        Ok(at)
    }

    fn tree(&mut self, from: &str, branch: &Branch, context: &str) -> Result<(), PositionError> {
        let top = self.chain(from, branch.trunk, context)?;
        for b in &branch.branches {
            self.tree(&top, b, context)?;
        }
        Ok(())
    }

    fn generator(&mut self, part: &str) -> Result<bool, PositionError> {
        let Some((kind, argument)) = part.split_once(':') else {
            return Ok(false);
        };
        let kind = kind.to_ascii_lowercase();
        if !kind.chars().all(|c| c.is_ascii_alphabetic()) || kind == GROUND {
            return Ok(false);
        }
        let size = |s: &str| -> Result<usize, PositionError> {
            s.parse::<usize>()
                .ok()
                .filter(|&k| (1..=MAX_EDGES).contains(&k))
                .ok_or_else(|| {
                    error(format!(
                        "'{s}' in '{part}' is not a number of edges from 1 to {MAX_EDGES}"
                    ))
                })
        };
        match kind.as_str() {
            "stalk" => {
                let n = size(argument)?;
                self.chain(GROUND, n, part)?;
            }
            "cycle" => {
                let n = size(argument)?;
                let top = self.chain(GROUND, n - 1, part)?;
                self.edge(&top, GROUND, part)?;
            }
            "tree" => {
                let text: String = argument.chars().filter(|c| !c.is_whitespace()).collect();
                let mut at = 0;
                let tree = parse_branch(text.as_bytes(), &mut at, 0)
                    .filter(|_| at == text.len())
                    .ok_or_else(|| {
                        error(format!(
                            "'{part}' is not a tree: write tree:N for a trunk of N edges, or N(B,B,...) with branches of the same form on its top, e.g. tree:1(2,1(1,1)) (brackets nested at most {MAX_TREE_DEPTH} deep)"
                        ))
                    })?;
                self.tree(GROUND, &tree, part)?;
            }
            _ => {
                return Err(error(format!(
                    "'{part}' is not a generator: write stalk:N, cycle:N or tree:T"
                )));
            }
        }
        Ok(true)
    }

    fn part(&mut self, part: &str) -> Result<(), PositionError> {
        if part.eq_ignore_ascii_case("empty") || is_ground(part) {
            return Ok(());
        }
        if self.generator(part)? {
            return Ok(());
        }
        if part.contains(':') {
            return Err(error(format!(
                "'{part}': Hackenbush edges carry no weight; for parallel edges write the edge again, e.g. 'g-1 g-1'"
            )));
        }
        match part.split_once('-') {
            Some((a, b)) if !b.contains('-') => self.edge(a, b, part),
            Some(_) => Err(error(format!("'{part}' is not an edge: write a-b"))),
            None => Err(error(format!(
                "'{part}' is a lone vertex: a position is made of edges such as g-1 or 1-2 (a vertex with no edge takes no part)"
            ))),
        }
    }
}

/// `N` or `N(B,B,...)`, from `at`; `None` when it does not parse.
fn parse_branch(text: &[u8], at: &mut usize, depth: usize) -> Option<Branch> {
    if depth > MAX_TREE_DEPTH {
        return None;
    }
    let start = *at;
    while *at < text.len() && text[*at].is_ascii_digit() {
        *at += 1;
    }
    let trunk: usize = std::str::from_utf8(&text[start..*at]).ok()?.parse().ok()?;
    if trunk > MAX_EDGES {
        return None;
    }
    let mut branches = Vec::new();
    if text.get(*at) == Some(&b'(') {
        *at += 1;
        loop {
            branches.push(parse_branch(text, at, depth + 1)?);
            match text.get(*at) {
                Some(b',') => *at += 1,
                Some(b')') => {
                    *at += 1;
                    break;
                }
                _ => return None,
            }
        }
    }
    Some(Branch { trunk, branches })
}

/// The text split at separators outside brackets.
fn split_parts(text: &str) -> Vec<&str> {
    let mut parts = Vec::new();
    let mut depth = 0i32;
    let mut start = 0;
    for (i, c) in text.char_indices() {
        match c {
            '(' => depth += 1,
            ')' => depth -= 1,
            ',' | ' ' | '\t' | '\n' | '\r' | ';' | '+' if depth <= 0 => {
                parts.push(&text[start..i]);
                start = i + c.len_utf8();
            }
            _ => {}
        }
    }
    parts.push(&text[start..]);
    parts.into_iter().filter(|p| !p.is_empty()).collect()
}

/// Parse a picture in the syntax of [`SYNTAX`].
fn parse_picture(text: &str) -> Result<Picture, PositionError> {
    let text: String = text
        .lines()
        .map(|line| line.split('#').next().unwrap_or(""))
        .collect::<Vec<_>>()
        .join("\n");
    let parts = split_parts(&text);
    if parts.is_empty() {
        return Err(error("no position given".to_string()));
    }
    let mut b = Builder {
        names: Vec::new(),
        edges: Vec::new(),
        largest_number: 0,
    };
    for part in parts {
        b.part(part)?;
    }
    b.names.sort_by(|x, y| natural_cmp(x, y));
    let names: Vec<Arc<str>> = std::iter::once(GROUND)
        .chain(b.names.iter().map(String::as_str))
        .map(Arc::from)
        .collect();
    let index: HashMap<&str, usize> = names
        .iter()
        .enumerate()
        .map(|(i, n)| (n.as_ref(), i))
        .collect();
    let edges: Vec<(usize, usize)> = b
        .edges
        .iter()
        .map(|(x, y)| {
            let (i, j) = (index[x.as_str()], index[y.as_str()]);
            (i.min(j), i.max(j))
        })
        .collect();
    let picture = Picture::grounded(&names, names.len(), &edges);
    if picture.edges.len() < edges.len() {
        let kept: Vec<&str> = picture.names.iter().map(|n| n.as_ref()).collect();
        let mut floating: Vec<&(usize, usize)> = edges
            .iter()
            .filter(|&&(a, _)| !kept.contains(&names[a].as_ref()))
            .collect();
        floating.sort_unstable();
        let &(a, b) = floating[0];
        return Err(error(format!(
            "the edge {}-{} is not joined to the ground: every edge must reach the ground g through other edges",
            names[a], names[b]
        )));
    }
    Ok(picture)
}

impl Rules for Hackenbush {
    type Position = Picture;
    type Move = Cut;

    fn moves(&self, p: &Picture) -> Vec<Cut> {
        let mut cuts: Vec<Cut> = p.edges.iter().map(|&(a, b)| Cut(a, b)).collect();
        cuts.dedup();
        cuts
    }

    fn apply(&self, p: &Picture, cut: &Cut) -> Picture {
        let mut edges = p.index_edges();
        if let Some(i) = p.edges.iter().position(|&e| e == (cut.0, cut.1)) {
            edges.remove(i);
        }
        Picture::grounded(&p.names, p.order(), &edges)
    }

    fn components(&self, p: &Picture) -> Vec<Picture> {
        if p.edges.is_empty() {
            return Vec::new();
        }
        p.parts()
    }

    fn canonical(&self, p: &Picture) -> Picture {
        p.canonical()
    }
}

impl Hackenbush {
    fn find_vertex(&self, p: &Picture, name: &str) -> Result<usize, MoveError> {
        if is_ground(name) {
            return Ok(0);
        }
        (1..p.order()).find(|&i| p.name(i) == name).ok_or_else(|| {
            let all: Vec<String> = (0..p.order()).map(|i| p.name(i)).collect();
            MoveError::new(format!(
                "there is no vertex {name}: the vertices are {}",
                all.join(", ")
            ))
        })
    }

    /// One part, step by step, into `s`; returns its value.
    fn explain_part(&self, part: &Picture, s: &mut String) -> u64 {
        const MAX_STEPS: usize = 24;
        let f = Fused::new(part);
        if f.is_stalk() {
            let n = part.edges.len();
            s.push_str(&format!(
                "  a stalk of {n} edge{}: {}, the Nim heap of {n}.\n",
                plural(n),
                Nimber(n as u64)
            ));
            return n as u64;
        }
        let node_name = |id: usize| {
            if id == 0 {
                "the ground".to_string()
            } else {
                part.name(f.members[id][0])
            }
        };
        let mut steps = Vec::new();
        // Children before parents: the reverse of breadth-first order.
        for id in (0..f.members.len()).rev() {
            let k = f.loops[id];
            if f.members[id].len() > 1 {
                let names: Vec<String> = f.members[id].iter().map(|&v| part.name(v)).collect();
                steps.push(format!(
                    "fusion: {} lie on a cycle and fuse into {}; the {k} edge{} between them become loops, each worth * like a single edge: {} together ({k} is {}).",
                    list(&names),
                    if id == 0 {
                        "the ground".to_string()
                    } else {
                        format!("one vertex, {}", node_name(id))
                    },
                    plural(k),
                    Nimber((k % 2) as u64),
                    if k % 2 == 1 { "odd" } else { "even" }
                ));
            } else if k == 1 {
                steps.push(format!(
                    "a loop at {}, worth * like a single edge.",
                    node_name(id)
                ));
            } else if k > 1 {
                steps.push(format!(
                    "{k} loops at {}, each worth * like a single edge: {} together.",
                    node_name(id),
                    Nimber((k % 2) as u64)
                ));
            }
            let mut terms: Vec<String> = f.children[id]
                .iter()
                .map(|&(c, lower, upper)| {
                    format!(
                        "{} ({})",
                        part.edge_text(lower, upper),
                        Nimber(1 + f.above[c])
                    )
                })
                .collect();
            if k > 0 {
                terms.push(format!("loops ({})", Nimber((k % 2) as u64)));
            }
            let x = Nimber(f.above[id]);
            let below = f
                .children
                .iter()
                .flatten()
                .find(|&&(c, _, _)| c == id)
                .map(|&(_, lower, upper)| part.edge_text(lower, upper));
            match below {
                None if terms.len() >= 2 => {
                    steps.push(format!("at the ground: {} = {x}.", terms.join(" ⊕ ")));
                }
                Some(edge) if terms.len() >= 2 => steps.push(format!(
                    "colon principle at {}: {} = {x}, so all that stands on {} counts as a stalk of {} edge{}; with the edge {edge} under it, a stalk of {}: {}.",
                    node_name(id),
                    terms.join(" ⊕ "),
                    node_name(id),
                    x.value(),
                    plural(x.value() as usize),
                    x.value() + 1,
                    Nimber(x.value() + 1)
                )),
                Some(edge) if k > 0 => steps.push(format!(
                    "the edge {edge} with {} on top is a stalk of {}: {}.",
                    if k == 1 {
                        "the loop".to_string()
                    } else {
                        format!("those loops ({x})")
                    },
                    x.value() + 1,
                    Nimber(x.value() + 1)
                )),
                _ => {}
            }
        }
        let shown = steps.len().min(MAX_STEPS);
        for step in &steps[..shown] {
            s.push_str(&format!("  {step}\n"));
        }
        if steps.len() > shown {
            s.push_str(&format!(
                "  … and {} more steps of the same kind.\n",
                steps.len() - shown
            ));
        }
        let value = Nimber(f.above[0]);
        match (f.children[0].as_slice(), f.loops[0]) {
            ([(_, lower, upper)], 0) => s.push_str(&format!(
                "  value of the part: {} and all above it form a stalk of {} edge{}: {value}.\n",
                part.edge_text(*lower, *upper),
                value.value(),
                plural(value.value() as usize)
            )),
            _ => s.push_str(&format!("  value of the part: {value}.\n")),
        }
        f.above[0]
    }

    fn explain_normal(&self, p: &Picture, total: Nimber, winning: usize) -> String {
        const MAX_PARTS: usize = 12;
        if p.edges.is_empty() {
            return "Green Hackenbush, normal play: no edge is left, so the player to move has lost.\n".to_string();
        }
        let parts = p.parts();
        let fused: Vec<Fused> = parts.iter().map(Fused::new).collect();
        let mut s = String::from(
            "Green Hackenbush, normal play: whoever cuts the last edge wins. The position splits into parts that meet only at the ground; they are independent, so its value is the nim-sum of theirs.\n",
        );
        if fused.iter().all(Fused::is_stalk) {
            s.push_str("Every part is a stalk, and a stalk of n edges is the Nim heap n (a cut leaves any shorter stalk): this is Nim.\n");
        } else {
            if fused.iter().any(Fused::has_cycle) {
                s.push_str("Fusion principle (Winning Ways, ch. 7): the vertices of a cycle may be fused into one without changing the value; the edges between them become loops, and a loop is worth *, as a single edge is.\n");
            }
            s.push_str("Colon principle (Winning Ways, ch. 7): the branches standing on a vertex may be replaced by one stalk whose length is the nim-sum of their values, and a stalk of n edges is worth *n.\n");
        }
        let mut values = Vec::new();
        for (k, part) in parts.iter().enumerate() {
            if k < MAX_PARTS {
                s.push_str(&format!("Part {}, {}:\n", k + 1, part.edges_text()));
                values.push(self.explain_part(part, &mut s));
            } else {
                values.push(Fused::new(part).above[0]);
            }
        }
        if parts.len() > MAX_PARTS {
            let rest: Vec<String> = values[MAX_PARTS..]
                .iter()
                .map(|&v| Nimber(v).to_string())
                .collect();
            s.push_str(&format!(
                "Parts {} to {} are worth {}.\n",
                MAX_PARTS + 1,
                parts.len(),
                rest.join(", ")
            ));
        }
        if parts.len() > 1 {
            let terms: Vec<String> = values.iter().map(|&v| Nimber(v).to_string()).collect();
            s.push_str(&format!(
                "The nim-sum of the parts: {} = {total}.\n",
                terms.join(" ⊕ ")
            ));
        }
        if total.is_zero() {
            s.push_str("The value is 0, so the player to move loses against perfect play: every cut leaves a non-zero value.\n");
        } else {
            s.push_str(&format!(
                "The value is {total}, not 0, so the player to move wins by a cut that leaves value 0 ({winning} such cut{}, each found by valuing what it leaves the same way).\n",
                plural(winning)
            ));
        }
        s
    }
}

fn plural(n: usize) -> &'static str {
    if n == 1 { "" } else { "s" }
}

/// `a`, `a and b`, `a, b and c`.
fn list(items: &[String]) -> String {
    match items {
        [] => String::new(),
        [one] => one.clone(),
        [rest @ .., last] => format!("{} and {last}", rest.join(", ")),
    }
}

impl Notation for Hackenbush {
    fn parse_position(&self, text: &str) -> Result<Picture, PositionError> {
        parse_picture(text)
    }

    fn format_position(&self, p: &Picture) -> String {
        p.edges_text()
    }

    fn start_position(&self) -> Option<Picture> {
        parse_picture("g-1 1-2 1-3 g-4 4-5 5-g stalk:3").ok()
    }

    fn parse_move(&self, p: &Picture, input: &str) -> Result<Cut, MoveError> {
        let words: Vec<&str> = input
            .split_whitespace()
            .filter(|w| {
                !matches!(
                    w.to_ascii_lowercase().as_str(),
                    "cut" | "hack" | "edge" | "the"
                )
            })
            .collect();
        let (a, b) = match words.as_slice() {
            [edge] => edge.split_once('-').filter(|(_, b)| !b.contains('-')),
            [a, b] => Some((*a, *b)),
            _ => None,
        }
        .ok_or_else(|| {
            MoveError::new(format!(
                "'{}' is not a move: name the edge to cut by its ends, e.g. 'g-1' or 'cut 1-2'",
                input.trim()
            ))
        })?;
        let (x, y) = (self.find_vertex(p, a)?, self.find_vertex(p, b)?);
        let cut = Cut(x.min(y) as u8, x.max(y) as u8);
        if p.edges.contains(&(cut.0, cut.1)) {
            Ok(cut)
        } else {
            Err(MoveError::new(format!(
                "there is no edge {}: the edges are {}",
                p.edge_text(x, y),
                p.edges_text()
            )))
        }
    }

    fn format_move(&self, p: &Picture, cut: &Cut) -> String {
        p.edge_text(cut.0 as usize, cut.1 as usize)
    }

    fn describe_move(&self, p: &Picture, cut: &Cut) -> String {
        let after = self.apply(p, cut);
        let fallen = p.edges.len() - 1 - after.edges.len();
        let edge = p.edge_text(cut.0 as usize, cut.1 as usize);
        if fallen == 0 {
            format!("cut {edge}")
        } else {
            format!(
                "cut {edge}; {fallen} edge{} above it {} no longer joined to the ground and fall{}",
                plural(fallen),
                if fallen == 1 { "is" } else { "are" },
                if fallen == 1 { "s" } else { "" }
            )
        }
    }

    fn render(&self, p: &Picture) -> String {
        let mut s = String::new();
        if p.edges.is_empty() {
            s.push_str("  (no edges left)\n");
        }
        for (k, part) in p.parts().iter().enumerate() {
            let f = Fused::new(part);
            let kind = if f.is_stalk() {
                format!("a stalk of {}", part.edges.len())
            } else if f.has_cycle() {
                "with cycles or loops".to_string()
            } else {
                "a tree".to_string()
            };
            s.push_str(&format!(
                "  part {} ({kind}): {}\n",
                k + 1,
                part.edges_text()
            ));
        }
        s.push_str(&format!("  position: {}\n", p.edges_text()));
        s
    }

    fn material(&self, p: &Picture) -> u64 {
        p.edges.len() as u64
    }

    fn position_syntax(&self) -> &'static str {
        SYNTAX
    }

    fn move_syntax(&self) -> String {
        String::from(
            "the edge to cut, by its ends: 'g-1', '1-2' or 'cut 1 2'; every edge no longer joined to the ground falls with it",
        )
    }
    /// The picture as a graph on the ground (vertex 0).
    fn board(&self, p: &Picture) -> crate::Board {
        let edges: Vec<(usize, usize, Option<u64>)> = p
            .edges()
            .iter()
            .map(|&(a, b)| (a as usize, b as usize, None))
            .collect();
        crate::Board::graph(
            (0..p.order()).map(|i| p.name(i)).collect(),
            &edges,
            None,
            Some(0),
        )
    }
    /// The edge cut (the first of parallel ones).
    fn touches(&self, p: &Picture, cut: &Cut) -> Vec<crate::Element> {
        p.edges()
            .iter()
            .position(|&(a, b)| (a, b) == (cut.0, cut.1))
            .map(|index| {
                let (a, b) = (p.name(cut.0 as usize), p.name(cut.1 as usize));
                let id = crate::geometry::edge_ids([(a.as_str(), b.as_str())]).remove(0);
                vec![crate::Element::Edge { index, id }]
            })
            .unwrap_or_default()
    }
    /// Every cut removes at least one edge.
    fn moves_left_bound(&self, p: &Picture) -> Option<u64> {
        Some(p.edges().len() as u64)
    }
}

impl Theory for Hackenbush {
    fn description(&self) -> Description {
        Description {
            rules: "A picture of edges joined to the ground (loops and parallel edges allowed). A move cuts one edge; every edge no longer joined to the ground, through other edges, falls with it. Normal play: whoever cuts the last edge wins; misère play: whoever cuts it loses.",
            example: "g-1 1-2 1-3 g-4 4-5 5-g",
            theory: "Parts that meet only at the ground are independent, so the value is the nim-sum of theirs. A stalk of n edges is the Nim heap n. Colon principle: the branches standing on a vertex may be replaced by a stalk whose length is the nim-sum of their values, so an edge carrying branches worth x is worth *(1 + x). Fusion principle: the vertices of a cycle may be fused, and the edges between them become loops, each worth *1, so they count by their parity. Nimatron finds the bridges (edges on no cycle), fuses what lies between them, and values the tree that remains from the top down; each winning cut is found by valuing what the cut leaves the same way. Misère play is solved by search over pictures up to relabelling. Checked against a plain mex over the sets of remaining edges on 400 random pictures of up to 12 edges with loops, parallel edges and cycles (values, winning cuts and misère outcomes), stalks against Nim, and textbook examples.",
            citation: "E. R. Berlekamp, J. H. Conway, R. K. Guy, Winning Ways for your Mathematical Plays, vol. 1, ch. 7 (the colon and fusion principles); T. S. Ferguson, Game Theory, Part I, §6 (Green Hackenbush); R. E. Tarjan, \"A note on finding the bridges of a graph\", Inform. Process. Lett. 2 (1974) 160-161.",
        }
    }

    fn closed_form(&self, p: &Picture, convention: Convention) -> Option<Verdict<Cut>> {
        if convention != Convention::Normal {
            return None;
        }
        let total = p.value();
        let winning: Vec<Cut> = self
            .moves(p)
            .into_iter()
            .filter(|cut| self.apply(p, cut).value().is_zero())
            .collect();
        let fused: Vec<Fused> = p.parts().iter().map(Fused::new).collect();
        let theorem = if fused.iter().all(Fused::is_stalk) {
            "stalks are Nim heaps (Sprague–Grundy)"
        } else if fused.iter().any(Fused::has_cycle) {
            "the colon and fusion principles of Green Hackenbush"
        } else {
            "the colon principle of Green Hackenbush"
        };
        Some(Verdict {
            details: Default::default(),
            outcome: Outcome::from_to_move_wins(!total.is_zero()),
            grundy: Some(total),
            explanation: self.explain_normal(p, total, winning.len()),
            winning_moves: winning,
            theorem: theorem.to_string(),
        })
    }

    fn explain_solved(
        &self,
        p: &Picture,
        convention: Convention,
        outcome: Outcome,
        _grundy: Option<Nimber>,
    ) -> String {
        if convention != Convention::Misere {
            return String::new();
        }
        format!(
            "Green Hackenbush, misère play: whoever cuts the last edge loses. The normal-play value ({}) does not decide misère play, since misère values do not add, so Nimatron searched every line of play, storing each picture up to relabelling and the order of its parts: {}.\n",
            p.value(),
            outcome.verdict()
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Adapter;
    use crate::check::TextGame;
    use crate::check::closed_form_agrees_with_search;
    use crate::solve::{GrundySolver, Limits, OutcomeSearch};
    use crate::strategy::SplitMix64;
    use std::collections::{BTreeSet, HashSet};

    fn picture(text: &str) -> Picture {
        Hackenbush
            .parse_position(text)
            .unwrap_or_else(|e| panic!("{text}: {e}"))
    }

    fn value(text: &str) -> u64 {
        picture(text).value().value()
    }

    /// A plain solver written for the test: a position is the set of
    /// remaining edges (a bitmask over the picture's edge list); a cut
    /// removes one edge and then every edge no longer joined to the ground,
    /// found by a walk from the ground. No parts, no relabelling, no theory.
    struct Plain {
        edges: Vec<(usize, usize)>,
        grundy: HashMap<u32, u64>,
        misere: HashMap<u32, bool>,
    }

    impl Plain {
        fn new(p: &Picture) -> Plain {
            Plain {
                edges: p.index_edges(),
                grundy: HashMap::new(),
                misere: HashMap::new(),
            }
        }

        fn full(&self) -> u32 {
            (1u32 << self.edges.len()) - 1
        }

        fn cut(&self, mask: u32, i: usize) -> u32 {
            let mask = mask & !(1 << i);
            let mut reached = HashSet::from([0usize]);
            let mut kept = 0u32;
            loop {
                let before = kept;
                for (j, &(a, b)) in self.edges.iter().enumerate() {
                    if mask >> j & 1 == 1 && (reached.contains(&a) || reached.contains(&b)) {
                        kept |= 1 << j;
                        reached.insert(a);
                        reached.insert(b);
                    }
                }
                if kept == before {
                    return kept;
                }
            }
        }

        fn grundy(&mut self, mask: u32) -> u64 {
            if let Some(&v) = self.grundy.get(&mask) {
                return v;
            }
            let seen: HashSet<u64> = (0..self.edges.len())
                .filter(|&i| mask >> i & 1 == 1)
                .map(|i| {
                    let next = self.cut(mask, i);
                    self.grundy(next)
                })
                .collect();
            let v = (0..).find(|x| !seen.contains(x)).expect("mex");
            self.grundy.insert(mask, v);
            v
        }

        /// Whether the player to move wins under misère play.
        fn misere_wins(&mut self, mask: u32) -> bool {
            if let Some(&w) = self.misere.get(&mask) {
                return w;
            }
            let w = mask == 0
                || (0..self.edges.len()).any(|i| {
                    mask >> i & 1 == 1 && {
                        let next = self.cut(mask, i);
                        !self.misere_wins(next)
                    }
                });
            self.misere.insert(mask, w);
            w
        }
    }

    /// A random picture of `edges` edges, each joined to what is already
    /// there: a loop (one in eight), an edge up to a new vertex, or an edge
    /// between two vertices already there (which may repeat an edge or close
    /// a cycle). The ground is written `g` or `0`.
    fn random_picture(rng: &mut SplitMix64, edges: usize) -> String {
        let ground = if rng.below(2) == 0 { "g" } else { "0" };
        let name = |v: u64| {
            if v == 0 {
                ground.to_string()
            } else {
                format!("v{v}")
            }
        };
        let mut vertices = 1;
        let mut parts = Vec::new();
        for _ in 0..edges {
            let a = rng.below(vertices);
            let b = match rng.below(8) {
                0 => a,
                1..=4 => {
                    vertices += 1;
                    vertices - 1
                }
                _ => rng.below(vertices),
            };
            parts.push(format!("{}-{}", name(a), name(b)));
        }
        parts.join(" ")
    }

    #[test]
    fn agrees_with_a_plain_mex_over_edge_sets_on_random_pictures() {
        let mut rng = SplitMix64::new(1968);
        let adapter = Adapter::new(crate::GameSpec::Hackenbush, Hackenbush);
        let mut grundy = GrundySolver::new(&Hackenbush, Limits::default());
        let mut misere = OutcomeSearch::new(&Hackenbush, Convention::Misere, Limits::default());
        let (mut loops, mut parallel, mut cycles) = (0, 0, 0);
        for round in 0..400 {
            let text = random_picture(&mut rng, 1 + round % 12);
            let p = picture(&text);
            let mut plain = Plain::new(&p);
            let full = plain.full();
            let expected = plain.grundy(full);
            assert_eq!(p.value(), Nimber(expected), "{text}");
            // The generic solver (parts, canonical keys) agrees too.
            assert_eq!(grundy.grundy(&p).unwrap(), Nimber(expected), "{text}");
            // Winning cuts: the ends of every edge whose cut leaves 0.
            let a = adapter
                .analyze_text(&text, Convention::Normal, Limits::default())
                .unwrap();
            assert_eq!(a.grundy, Some(Nimber(expected)));
            let ours: BTreeSet<String> =
                a.winning_moves.iter().map(|m| m.notation.clone()).collect();
            let theirs: BTreeSet<String> = (0..p.edges.len())
                .filter(|&i| plain.grundy(plain.cut(full, i)) == 0)
                .map(|i| p.edge_text(p.edges[i].0 as usize, p.edges[i].1 as usize))
                .collect();
            assert_eq!(ours, theirs, "{text}");
            assert_eq!(
                misere.outcome(&p).unwrap().to_move_wins(),
                plain.misere_wins(full),
                "misère {text}"
            );
            // Printing and parsing give the picture back.
            assert_eq!(picture(&Hackenbush.format_position(&p)), p, "{text}");
            loops += usize::from(p.edges.iter().any(|&(a, b)| a == b));
            parallel += usize::from(p.edges.windows(2).any(|w| w[0] == w[1] && w[0].0 != w[0].1));
            cycles += usize::from(Fused::new(&p).members.iter().any(|m| m.len() > 1));
        }
        eprintln!(
            "400 pictures: {loops} with loops, {parallel} with parallel edges, {cycles} with cycles"
        );
        // The sample has every feature many times over.
        assert!(
            loops > 50 && parallel > 50 && cycles > 100,
            "{loops} {parallel} {cycles}"
        );
    }

    #[test]
    fn stalks_are_nim_heaps() {
        for n in 1..=30 {
            assert_eq!(value(&format!("stalk:{n}")), n as u64);
        }
        // A forest of stalks is Nim: the winning cuts are Bouton's moves.
        let p = picture("stalk:3 + stalk:4 + stalk:5");
        assert_eq!(p.value(), Nimber(3 ^ 4 ^ 5));
        let verdict = Hackenbush.closed_form(&p, Convention::Normal).unwrap();
        // Bouton: reduce the stalk of 3 to 1 (cut its second edge).
        let cuts: Vec<String> = verdict
            .winning_moves
            .iter()
            .map(|c| Hackenbush.format_move(&p, c))
            .collect();
        assert_eq!(cuts, ["1-2"]);
        assert!(verdict.explanation.contains("this is Nim"));
        for heaps in crate::check::all_tuples(3, 4) {
            let text: Vec<String> = heaps
                .iter()
                .filter(|&&h| h > 0)
                .map(|h| format!("stalk:{h}"))
                .collect();
            let text = if text.is_empty() {
                "empty".to_string()
            } else {
                text.join(" ")
            };
            let p = picture(&text);
            assert_eq!(p.value(), Nimber(heaps[0] ^ heaps[1] ^ heaps[2]), "{text}");
            // Misère play of stalks is misère Nim.
            let mut misere = OutcomeSearch::new(&Hackenbush, Convention::Misere, Limits::default());
            assert_eq!(
                misere.outcome(&p).unwrap(),
                crate::nim::outcome(&heaps, Convention::Misere),
                "{text}"
            );
        }
    }

    /// The principles of Winning Ways (vol. 1, ch. 7) and Ferguson (Game
    /// Theory, Part I, §6) on small pictures, each value also found by the
    /// plain mex of the previous test.
    #[test]
    fn textbook_examples() {
        for (text, expected) in [
            // Fusion: a triangle standing on the ground at one vertex fuses
            // into the ground, its three edges become loops: *1. By hand:
            // cutting a side at the ground leaves a stalk of 2, cutting the
            // far side two stalks of 1; mex{2, 0} = 1.
            ("g-1 1-2 2-g", 1),
            // A square on the ground: four loops, an even number: 0.
            ("cycle:4", 0),
            // A cycle counts as one edge when it is odd and none when it is
            // even; two parallel edges are a cycle of two.
            ("cycle:5", 1),
            ("g-1 g-1", 0),
            // A loop is worth a single edge; a stalk with a loop on top is a
            // stalk one edge longer.
            ("g-g", 1),
            ("stalk:2 2-2", 3),
            // A triangle on a stalk of one edge: the triangle fuses to one
            // vertex with three loops, *1, so the edge carries *1: *2.
            ("g-1 1-2 2-3 3-1", 2),
            // Colon principle: a trunk of one edge carrying two twigs
            // (*1 ⊕ *1 = 0) is *1 ...
            ("tree:1(1,1)", 1),
            // ... carrying branches of 1 and 2 edges (*1 ⊕ *2 = *3) is *4 ...
            ("tree:1(1,2)", 4),
            // ... and a tree of two levels: the upper fork 1(1,1) is *1, so
            // the root carries *1 ⊕ *2 = *3 on a trunk of 2: *5.
            ("tree:2(1(1,1),2)", 5),
            // A fork (*1) and a triangle on the ground (*1): 0.
            ("g-1 1-2 1-3 g-4 4-5 5-g", 0),
        ] {
            assert_eq!(value(text), expected, "{text}");
            let p = picture(text);
            let mut plain = Plain::new(&p);
            assert_eq!(plain.grundy(plain.full()), expected, "plain {text}");
        }
    }

    #[test]
    fn closed_form_agrees_with_search_on_small_pictures() {
        let mut rng = SplitMix64::new(7);
        let positions: Vec<Picture> = (0..120)
            .map(|i| picture(&random_picture(&mut rng, 1 + i % 9)))
            .collect();
        let checked = closed_form_agrees_with_search(&Hackenbush, positions).unwrap();
        // The closed form covers normal play only.
        assert_eq!(checked, 120);
    }

    #[test]
    fn canonical_forms_ignore_labels_and_the_order_of_parts() {
        let a = picture("g-1 1-2 1-3 g-4 4-5 5-g 6-6 g-6");
        // The same parts, renamed and in another order.
        let c = picture("g-q q-q g-r r-s s-g g-t t-u t-v");
        // The same edge count and kinds of part, but the loop sits on the
        // fork rather than on a stalk of its own.
        let b = picture("g-1 1-2 1-3 g-4 4-5 5-g 3-3 g-6");
        assert_eq!(a.canonical(), c.canonical());
        assert_ne!(a.canonical(), b.canonical());
        let mut rng = SplitMix64::new(11);
        for round in 0..100 {
            let text = random_picture(&mut rng, 1 + round % 12);
            let p = picture(&text);
            // Rename the vertices at random: same canonical form.
            let renamed: Vec<String> = text
                .split(' ')
                .map(|e| {
                    let (x, y) = e.split_once('-').unwrap();
                    let rename = |v: &str| {
                        if is_ground(v) {
                            "ground".to_string()
                        } else {
                            format!("w{}", 97 - v[1..].parse::<u64>().unwrap())
                        }
                    };
                    format!("{}-{}", rename(y), rename(x))
                })
                .collect();
            let q = picture(&renamed.join(","));
            assert_eq!(p.canonical(), q.canonical(), "{text}");
            assert_eq!(p.canonical().value(), p.value());
        }
    }

    #[test]
    fn cuts_drop_what_loses_the_ground() {
        let p = picture("g-1 1-2 2-3 2-4 g-5");
        let cut = Hackenbush.parse_move(&p, "cut 1-2").unwrap();
        assert_eq!(
            Hackenbush.describe_move(&p, &cut),
            "cut 1-2; 2 edges above it are no longer joined to the ground and fall"
        );
        assert_eq!(
            Hackenbush.format_position(&Hackenbush.apply(&p, &cut)),
            "g-1 g-5"
        );
        let cut = Hackenbush.parse_move(&p, "5 g").unwrap();
        assert_eq!(Hackenbush.describe_move(&p, &cut), "cut g-5");
        // Parallel edges: one cut removes one of them.
        let p = picture("g-1 g-1 1-1");
        assert_eq!(Hackenbush.moves(&p).len(), 2);
        let after = Hackenbush.apply(&p, &Cut(0, 1));
        assert_eq!(Hackenbush.format_position(&after), "g-1 1-1");
        let e = |t: &str| Hackenbush.parse_move(&p, t).unwrap_err().problem;
        assert!(e("1-2").contains("no vertex 2"), "{}", e("1-2"));
        assert!(e("g-g").contains("no edge g-g"), "{}", e("g-g"));
        assert!(e("cut").contains("not a move"));
    }

    #[test]
    fn syntax_generators_and_errors() {
        assert_eq!(
            Hackenbush.format_position(&picture("stalk:3 + cycle:4")),
            "g-1 g-4 g-6 1-2 2-3 4-5 5-6"
        );
        assert_eq!(Hackenbush.format_position(&picture("cycle:1")), "g-g");
        assert_eq!(Hackenbush.format_position(&picture("cycle:2")), "g-1 g-1");
        assert_eq!(
            Hackenbush.format_position(&picture("tree:1(2,1(1,1))")),
            "g-1 1-2 1-4 2-3 4-5 4-6"
        );
        assert_eq!(
            picture("# a fork\ng-a, a-b;a-c # done\n"),
            picture("0-a a-b a-c")
        );
        assert_eq!(Hackenbush.format_position(&picture("empty")), "empty");
        assert_eq!(picture("g").edges.len(), 0);
        let e = |t: &str| Hackenbush.parse_position(t).unwrap_err().to_string();
        assert!(e("g-1 2-3").contains("edge 2-3 is not joined to the ground"));
        assert!(e("g-1 1").contains("lone vertex"));
        assert!(e("g-1:2").contains("carry no weight"));
        assert!(e("g-1-2").contains("not an edge"));
        assert!(e("path:3").contains("not a generator"));
        assert!(e("stalk:0").contains("from 1 to 256"));
        assert!(e("tree:1(2").contains("not a tree"));
        assert!(e("tree:1()").contains("not a tree"));
        assert!(e("g-a?").contains("not a vertex name"));
        assert!(e("stalk:200 stalk:100").contains("more than 256"));
        assert!(e("").contains("no position"));
        assert!(e("1-2").contains("e.g. 'g-1 1-2 1-3"));
    }

    #[test]
    fn explanations_name_the_principles_and_the_branches() {
        let adapter = Adapter::new(crate::GameSpec::Hackenbush, Hackenbush);
        let a = adapter
            .analyze_text(
                "tree:1(1,2) g-a a-b b-g",
                Convention::Normal,
                Limits::default(),
            )
            .unwrap();
        assert_eq!(a.grundy, Some(Nimber(4 ^ 1)));
        let text = &a.explanation;
        for needle in [
            "Fusion principle",
            "Colon principle",
            "colon principle at 1: 1-2 (*) ⊕ 1-3 (*2) = *3",
            "with the edge g-1 under it, a stalk of 4: *4",
            "fusion: g, a and b lie on a cycle and fuse into the ground",
            "The nim-sum of the parts: *4 ⊕ * = *5",
        ] {
            assert!(text.contains(needle), "{needle}:\n{text}");
        }
        let a = adapter
            .analyze_text(
                "g-1 1-2 1-3 g-4 4-5 5-g",
                Convention::Normal,
                Limits::default(),
            )
            .unwrap();
        assert_eq!(a.outcome, Outcome::P);
        assert!(a.explanation.contains("loses against perfect play"));
        let a = adapter
            .analyze_text("g-1 1-2 2-3 3-1", Convention::Misere, Limits::default())
            .unwrap();
        assert!(a.explanation.contains("misère play"), "{}", a.explanation);
        let a = adapter
            .analyze_text(
                "tree:2(1(1,1),2) g-a a-b b-g b-c c-c g-d d-e d-e",
                Convention::Normal,
                Limits::default(),
            )
            .unwrap();
        assert_eq!(a.grundy, Some(Nimber(5 ^ 3 ^ 1)));
        for needle in [
            "value of the part: g-1 and all above it form a stalk of 5 edges: *5.",
            "the edge b-c with the loop on top is a stalk of 2: *2.",
            "at the ground: b-c (*2) ⊕ loops (*) = *3.",
            "fusion: d and e lie on a cycle and fuse into one vertex, d",
            "the edge g-d with those loops (0) on top is a stalk of 1: *.",
        ] {
            assert!(
                a.explanation.contains(needle),
                "{needle}:\n{}",
                a.explanation
            );
        }
        let text = Hackenbush.render(&picture("stalk:2 tree:1(1,1) cycle:3"));
        assert!(text.contains("part 1 (a stalk of 2)"), "{text}");
        assert!(
            text.contains("(a tree)") && text.contains("(with cycles or loops)"),
            "{text}"
        );
    }
}
