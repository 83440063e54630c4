//! Higher-dimensional Nim: pieces on the cells of a k1×…×kn board. A move
//! removes one or more pieces that lie next to each other on one line
//! parallel to an axis (a "hyper-row").
//!
//! No move can join or touch two clusters of pieces that are not adjacent
//! (2n-connected), so a position is the disjunctive sum of its clusters.
//! Each cluster is cut to its bounding box and memoised on a canonical form
//! under every reflection and permutation of the axes: a cluster's play does
//! not depend on where it sits.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use crate::solve::{GrundySolver, Limits};
use crate::{Convention, Nimber, Outcome, Rules};
use crate::{Description, MoveError, Notation, PositionError, Theory};

/// The most dimensions a board may have.
pub const MAX_DIMENSIONS: usize = 4;
/// The most cells a board may have.
pub const MAX_CELLS: usize = 128;

/// A pattern of pieces in a box: the box's side lengths and a bit per cell
/// (row-major: the last axis varies fastest).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Pattern {
    dims: [u8; MAX_DIMENSIONS],
    ndim: u8,
    bits: u128,
}

/// A move: remove `count` pieces starting at cell `start` and going up
/// along `axis`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Removal {
    /// The axis the pieces lie along (0 = the first dimension of the spec).
    pub axis: usize,
    /// The cell index of the first piece removed.
    pub start: usize,
    /// How many pieces.
    pub count: usize,
}

impl Pattern {
    /// An empty pattern in a box of these sides.
    pub fn empty(dims: &[usize]) -> Pattern {
        let mut d = [1u8; MAX_DIMENSIONS];
        for (i, &k) in dims.iter().enumerate() {
            d[i] = k as u8;
        }
        Pattern {
            dims: d,
            ndim: dims.len() as u8,
            bits: 0,
        }
    }

    /// The side lengths.
    pub fn dims(&self) -> &[u8] {
        &self.dims[..self.ndim as usize]
    }

    /// How many cells the box has.
    pub fn cells(&self) -> usize {
        self.dims().iter().map(|&k| k as usize).product()
    }

    /// Whether a piece sits on cell `index`.
    pub fn has(&self, index: usize) -> bool {
        self.bits >> index & 1 == 1
    }

    /// Put a piece on cell `index`.
    pub fn set(&mut self, index: usize) {
        self.bits |= 1 << index;
    }

    /// How many pieces.
    pub fn pieces(&self) -> u32 {
        self.bits.count_ones()
    }

    fn strides(&self) -> [usize; MAX_DIMENSIONS] {
        let mut s = [0; MAX_DIMENSIONS];
        let mut acc = 1;
        for a in (0..self.ndim as usize).rev() {
            s[a] = acc;
            acc *= self.dims[a] as usize;
        }
        s
    }

    /// The coordinates of cell `index`.
    pub fn coords(&self, index: usize) -> [usize; MAX_DIMENSIONS] {
        let strides = self.strides();
        let mut c = [0; MAX_DIMENSIONS];
        for a in 0..self.ndim as usize {
            c[a] = index / strides[a] % self.dims[a] as usize;
        }
        c
    }

    fn index(&self, coords: &[usize]) -> usize {
        let strides = self.strides();
        (0..self.ndim as usize)
            .map(|a| coords[a] * strides[a])
            .sum()
    }

    fn occupied(&self) -> impl Iterator<Item = usize> + '_ {
        let mut bits = self.bits;
        std::iter::from_fn(move || {
            if bits == 0 {
                None
            } else {
                let i = bits.trailing_zeros() as usize;
                bits &= bits - 1;
                Some(i)
            }
        })
    }
}

/// Every permutation of `0..n`.
fn permutations(n: usize) -> Vec<Vec<usize>> {
    if n == 0 {
        return vec![vec![]];
    }
    let mut out = Vec::new();
    for p in permutations(n - 1) {
        for at in 0..=p.len() {
            let mut q = p.clone();
            q.insert(at, n - 1);
            out.push(q);
        }
    }
    out
}

/// What the solver needs about one box shape, computed once per shape.
#[derive(Debug)]
struct Geometry {
    ndim: usize,
    strides: [usize; MAX_DIMENSIONS],
    /// The coordinates of every cell.
    coords: Vec<[u8; MAX_DIMENSIONS]>,
    /// Per axis: the cells with a neighbour one step up / down that axis.
    up: [u128; MAX_DIMENSIONS],
    down: [u128; MAX_DIMENSIONS],
    /// The least side lengths any symmetry gives (the sides sorted).
    canonical_dims: [u8; MAX_DIMENSIONS],
    /// For each symmetry that gives `canonical_dims`: old cell → new cell.
    maps: Vec<Vec<u8>>,
}

fn strides_of(dims: &[u8; MAX_DIMENSIONS], ndim: usize) -> [usize; MAX_DIMENSIONS] {
    let mut s = [0; MAX_DIMENSIONS];
    let mut acc = 1;
    for a in (0..ndim).rev() {
        s[a] = acc;
        acc *= dims[a] as usize;
    }
    s
}

impl Geometry {
    fn new(dims: [u8; MAX_DIMENSIONS], ndim: usize, symmetries: &[(Vec<usize>, u32)]) -> Geometry {
        let strides = strides_of(&dims, ndim);
        let cells: usize = dims[..ndim].iter().map(|&k| k as usize).product();
        let mut coords = Vec::with_capacity(cells);
        let mut up = [0u128; MAX_DIMENSIONS];
        let mut down = [0u128; MAX_DIMENSIONS];
        for i in 0..cells {
            let mut c = [0u8; MAX_DIMENSIONS];
            for a in 0..ndim {
                c[a] = (i / strides[a] % dims[a] as usize) as u8;
                if c[a] + 1 < dims[a] {
                    up[a] |= 1 << i;
                }
                if c[a] > 0 {
                    down[a] |= 1 << i;
                }
            }
            coords.push(c);
        }
        let mut canonical_dims = dims;
        canonical_dims[..ndim].sort_unstable();
        let target_strides = strides_of(&canonical_dims, ndim);
        let mut maps = Vec::new();
        for (perm, flips) in symmetries {
            let mut new_dims = [1u8; MAX_DIMENSIONS];
            for new in 0..ndim {
                new_dims[new] = dims[perm[new]];
            }
            if new_dims != canonical_dims {
                continue;
            }
            let map: Vec<u8> = coords
                .iter()
                .map(|c| {
                    (0..ndim)
                        .map(|new| {
                            let v = c[perm[new]];
                            let v = if flips >> new & 1 == 1 {
                                new_dims[new] - 1 - v
                            } else {
                                v
                            };
                            v as usize * target_strides[new]
                        })
                        .sum::<usize>() as u8
                })
                .collect();
            if !maps.contains(&map) {
                maps.push(map);
            }
        }
        Geometry {
            ndim,
            strides,
            coords,
            up,
            down,
            canonical_dims,
            maps,
        }
    }
}

/// Higher-dimensional Nim on a board of the given side lengths.
#[derive(Debug)]
pub struct NimBoard {
    dims: Vec<usize>,
    /// Every (permutation, reflections) of the axes.
    symmetries: Vec<(Vec<usize>, u32)>,
    /// Geometry per box shape met so far.
    geometry: Mutex<HashMap<[u8; MAX_DIMENSIONS], Arc<Geometry>>>,
}

impl Clone for NimBoard {
    fn clone(&self) -> NimBoard {
        NimBoard::new(&self.dims)
    }
}

const POSITION_SYNTAX: &str = "the board's cells line by line, '#' for a piece and '.' for an empty cell; rows are separated by '/' (or spaces or new lines), layers of a 3-D board by '|' (or a blank line), blocks of a 4-D board by '||'; every row must have the board's full length, e.g. '###/#.#/###' on board:3x3 (quote it in a shell, where '#' starts a comment); 'full' is the whole board";

impl NimBoard {
    /// A board with these side lengths (1 to 4 of them, at most 128 cells).
    pub fn new(dims: &[usize]) -> NimBoard {
        let n = dims.len();
        let mut symmetries = Vec::new();
        for perm in permutations(n) {
            for flips in 0..1u32 << n {
                symmetries.push((perm.clone(), flips));
            }
        }
        NimBoard {
            dims: dims.to_vec(),
            symmetries,
            geometry: Mutex::new(HashMap::new()),
        }
    }

    fn geometry(&self, p: &Pattern) -> Arc<Geometry> {
        let mut table = self.geometry.lock().unwrap_or_else(|e| e.into_inner());
        table
            .entry(p.dims)
            .or_insert_with(|| Arc::new(Geometry::new(p.dims, p.ndim as usize, &self.symmetries)))
            .clone()
    }

    /// The pattern cut to the bounding box of its pieces.
    pub fn cropped(&self, p: &Pattern) -> Pattern {
        let g = self.geometry(p);
        let n = g.ndim;
        if p.bits == 0 {
            return Pattern::empty(&vec![1; n]);
        }
        let mut lo = [u8::MAX; MAX_DIMENSIONS];
        let mut hi = [0u8; MAX_DIMENSIONS];
        for i in p.occupied() {
            let c = &g.coords[i];
            for a in 0..n {
                lo[a] = lo[a].min(c[a]);
                hi[a] = hi[a].max(c[a]);
            }
        }
        let mut dims = [1u8; MAX_DIMENSIONS];
        for a in 0..n {
            dims[a] = hi[a] - lo[a] + 1;
        }
        if dims == p.dims {
            return *p;
        }
        let strides = strides_of(&dims, n);
        let mut bits = 0u128;
        for i in p.occupied() {
            let c = &g.coords[i];
            let j: usize = (0..n).map(|a| (c[a] - lo[a]) as usize * strides[a]).sum();
            bits |= 1 << j;
        }
        Pattern {
            dims,
            ndim: p.ndim,
            bits,
        }
    }

    /// The clusters of pieces joined face to face, each cut to its box.
    pub fn clusters(&self, p: &Pattern) -> Vec<Pattern> {
        let g = self.geometry(p);
        let mut left = p.bits;
        let mut out = Vec::new();
        while left != 0 {
            let mut cluster = left & left.wrapping_neg();
            loop {
                let mut grown = cluster;
                for a in 0..g.ndim {
                    grown |= (cluster & g.up[a]) << g.strides[a];
                    grown |= (cluster & g.down[a]) >> g.strides[a];
                }
                grown &= left;
                if grown == cluster {
                    break;
                }
                cluster = grown;
            }
            left &= !cluster;
            out.push(self.cropped(&Pattern {
                bits: cluster,
                ..*p
            }));
        }
        out
    }

    /// Every cell holds a piece.
    pub fn full(&self) -> Pattern {
        let mut p = Pattern::empty(&self.dims);
        for i in 0..p.cells() {
            p.set(i);
        }
        p
    }

    fn spec_text(&self) -> String {
        let d: Vec<String> = self.dims.iter().map(|k| k.to_string()).collect();
        format!("board:{}", d.join("x"))
    }

    /// A cell as 1-based coordinates, `2,3`.
    fn cell_name(&self, p: &Pattern, index: usize) -> String {
        let c = p.coords(index);
        (0..p.ndim as usize)
            .map(|a| (c[a] + 1).to_string())
            .collect::<Vec<_>>()
            .join(",")
    }

    fn line_name(&self, p: &Pattern, mv: &Removal) -> String {
        let c = p.coords(mv.start);
        match (p.ndim, mv.axis) {
            (1, _) => "the row".to_string(),
            (2, 1) => format!("row {}", c[0] + 1),
            (2, _) => format!("column {}", c[1] + 1),
            _ => format!("the line along axis {}", mv.axis + 1),
        }
    }

    /// The Grundy value of each cluster, if they can be computed within the
    /// default limit.
    pub fn cluster_values(&self, p: &Pattern) -> Option<Vec<(Pattern, Nimber)>> {
        let mut solver = GrundySolver::new(self, Limits::default());
        self.clusters(p)
            .into_iter()
            .map(|c| solver.grundy(&c).ok().map(|g| (c, g)))
            .collect()
    }
}

impl Rules for NimBoard {
    type Position = Pattern;
    type Move = Removal;

    fn moves(&self, p: &Pattern) -> Vec<Removal> {
        let g = self.geometry(p);
        let strides = g.strides;
        let mut out = Vec::new();
        for start in p.occupied() {
            out.push(Removal {
                axis: 0,
                start,
                count: 1,
            });
            let c = &g.coords[start];
            for axis in 0..g.ndim {
                let mut count = 1;
                while c[axis] as usize + count < p.dims[axis] as usize
                    && p.has(start + count * strides[axis])
                {
                    count += 1;
                    out.push(Removal { axis, start, count });
                }
            }
        }
        out
    }

    fn apply(&self, p: &Pattern, mv: &Removal) -> Pattern {
        let stride = p.strides()[mv.axis];
        let mut after = *p;
        for k in 0..mv.count {
            after.bits &= !(1 << (mv.start + k * stride));
        }
        after
    }

    fn components(&self, p: &Pattern) -> Vec<Pattern> {
        self.clusters(p)
    }

    /// Cut to the bounding box, then the least image under every
    /// permutation and reflection of the axes.
    fn canonical(&self, p: &Pattern) -> Pattern {
        let cropped = self.cropped(p);
        let g = self.geometry(&cropped);
        g.maps
            .iter()
            .map(|map| {
                let mut bits = 0u128;
                for i in cropped.occupied() {
                    bits |= 1 << map[i];
                }
                Pattern {
                    dims: g.canonical_dims,
                    ndim: cropped.ndim,
                    bits,
                }
            })
            .min()
            .unwrap_or(cropped)
    }
}

fn position_error(problem: impl Into<String>) -> PositionError {
    PositionError::new(problem, POSITION_SYNTAX)
}

impl Notation for NimBoard {
    fn parse_position(&self, text: &str) -> Result<Pattern, PositionError> {
        let text = text.trim();
        if text.eq_ignore_ascii_case("full") {
            return Ok(self.full());
        }
        let n = self.dims.len();
        // Lines of cells, and the level of the separator before each line:
        // 1 between rows, 2 between layers, 3 between blocks.
        let mut lines: Vec<Vec<bool>> = vec![Vec::new()];
        let mut levels: Vec<usize> = Vec::new();
        let mut sep_level = 0usize;
        let mut bars = 0usize;
        let mut newlines = 0usize;
        for ch in text.chars() {
            let cell = match ch {
                '#' | 'x' | 'X' | 'o' | 'O' | '1' => Some(true),
                '.' | '_' | '0' => Some(false),
                '/' | ' ' | '\t' | '\r' => {
                    sep_level = sep_level.max(1);
                    None
                }
                '\n' => {
                    newlines += 1;
                    sep_level = sep_level.max(if newlines >= 2 { 2 } else { 1 });
                    None
                }
                '|' => {
                    bars += 1;
                    sep_level = sep_level.max(bars + 1);
                    None
                }
                other => {
                    return Err(position_error(format!(
                        "'{other}' is not a cell: use '#' for a piece and '.' for an empty cell"
                    )));
                }
            };
            if let Some(piece) = cell {
                if sep_level > 0 {
                    levels.push(sep_level);
                    lines.push(Vec::new());
                    sep_level = 0;
                    bars = 0;
                    newlines = 0;
                }
                lines.last_mut().expect("a line").push(piece);
            }
        }
        if lines.len() == 1 && lines[0].is_empty() {
            return Err(position_error("no cells given"));
        }
        let width = self.dims[n - 1];
        let expected_lines: usize = self.dims[..n - 1].iter().product();
        for (i, line) in lines.iter().enumerate() {
            if line.len() != width {
                return Err(position_error(format!(
                    "the board is ragged: line {} has {} cell{} but every row of {} has {width}",
                    i + 1,
                    line.len(),
                    if line.len() == 1 { "" } else { "s" },
                    self.spec_text()
                )));
            }
        }
        if lines.len() != expected_lines {
            return Err(position_error(format!(
                "{} has {expected_lines} row{} of {width} cells, but {} were given",
                self.spec_text(),
                if expected_lines == 1 { "" } else { "s" },
                lines.len()
            )));
        }
        for (i, &level) in levels.iter().enumerate() {
            let j = i + 1;
            let expected = separator_level(&self.dims, j);
            if level > 1 && level != expected {
                let names = ["", "row", "layer", "block", "block"];
                return Err(position_error(format!(
                    "the board is ragged: a {} separator '{}' comes after line {j}, which ends a {} of {}",
                    names[level.min(4)],
                    ["", "/", "|", "||", "|||"][level.min(4)],
                    names[expected.min(4)],
                    self.spec_text()
                )));
            }
        }
        let mut p = Pattern::empty(&self.dims);
        for (i, piece) in lines.iter().flatten().enumerate() {
            if *piece {
                p.set(i);
            }
        }
        Ok(p)
    }

    fn format_position(&self, p: &Pattern) -> String {
        let n = p.ndim as usize;
        let dims: Vec<usize> = p.dims().iter().map(|&k| k as usize).collect();
        let width = dims[n - 1];
        let mut s = String::new();
        for i in 0..p.cells() {
            if i > 0 && i % width == 0 {
                s.push_str(["", "/", "|", "||"][separator_level(&dims, i / width).min(3)]);
            }
            s.push(if p.has(i) { '#' } else { '.' });
        }
        s
    }

    fn start_position(&self) -> Option<Pattern> {
        Some(self.full())
    }

    fn parse_move(&self, p: &Pattern, input: &str) -> Result<Removal, MoveError> {
        let n = p.ndim as usize;
        let syntax = self.move_syntax();
        let lower = input.trim().to_ascii_lowercase();
        let ends: Vec<&str> = if lower.contains(" to ") {
            lower.split(" to ").collect()
        } else {
            lower.split('-').collect()
        };
        let parse_cell = |w: &str| -> Result<Vec<usize>, MoveError> {
            let coords: Vec<usize> = w
                .split([',', '.', ' '])
                .filter(|x| !x.is_empty())
                .map(|x| x.parse::<usize>())
                .collect::<Result<_, _>>()
                .map_err(|_| MoveError::new(format!("'{}' is not a cell: {syntax}", w.trim())))?;
            if coords.len() != n {
                return Err(MoveError::new(format!(
                    "'{}' is not a cell of {}: a cell has {n} coordinate{}; {syntax}",
                    w.trim(),
                    self.spec_text(),
                    if n == 1 { "" } else { "s" }
                )));
            }
            for (a, &v) in coords.iter().enumerate() {
                if v == 0 || v > p.dims[a] as usize {
                    return Err(MoveError::new(format!(
                        "'{}' is off the board: coordinate {} runs from 1 to {}",
                        w.trim(),
                        a + 1,
                        p.dims[a]
                    )));
                }
            }
            Ok(coords.iter().map(|v| v - 1).collect())
        };
        let (from, to) = match ends.as_slice() {
            [one] => {
                let c = parse_cell(one)?;
                (c.clone(), c)
            }
            [a, b] => (parse_cell(a)?, parse_cell(b)?),
            _ => {
                return Err(MoveError::new(format!(
                    "'{}' is not a move: {syntax}",
                    input.trim()
                )));
            }
        };
        let differing: Vec<usize> = (0..n).filter(|&a| from[a] != to[a]).collect();
        let axis = match differing.as_slice() {
            [] => 0,
            [a] => *a,
            _ => {
                return Err(MoveError::new(format!(
                    "'{}' does not lie on one line: the two ends may differ in one coordinate only",
                    input.trim()
                )));
            }
        };
        let (lo, hi) = if from[axis] <= to[axis] {
            (from, to)
        } else {
            (to, from)
        };
        let start = p.index(&lo);
        let count = hi[axis] - lo[axis] + 1;
        let stride = p.strides()[axis];
        if let Some(k) = (0..count).find(|k| !p.has(start + k * stride)) {
            return Err(MoveError::new(format!(
                "there is no piece on {}: a move removes pieces that lie next to each other",
                self.cell_name(p, start + k * stride)
            )));
        }
        Ok(Removal { axis, start, count })
    }

    fn format_move(&self, p: &Pattern, mv: &Removal) -> String {
        let stride = p.strides()[mv.axis];
        if mv.count == 1 {
            self.cell_name(p, mv.start)
        } else {
            format!(
                "{}-{}",
                self.cell_name(p, mv.start),
                self.cell_name(p, mv.start + (mv.count - 1) * stride)
            )
        }
    }

    fn describe_move(&self, p: &Pattern, mv: &Removal) -> String {
        if mv.count == 1 {
            format!("remove the piece on {}", self.cell_name(p, mv.start))
        } else {
            format!(
                "remove {} pieces from {} ({})",
                mv.count,
                self.line_name(p, mv),
                self.format_move(p, mv)
            )
        }
    }

    fn render(&self, p: &Pattern) -> String {
        let n = p.ndim as usize;
        let dims: Vec<usize> = p.dims().iter().map(|&k| k as usize).collect();
        let width = dims[n - 1];
        let rows = if n >= 2 { dims[n - 2] } else { 1 };
        let header: Vec<String> = (1..=width).map(|c| (c % 10).to_string()).collect();
        let mut s = String::new();
        let planes = p.cells() / (width * rows);
        for plane in 0..planes {
            if n >= 3 {
                let c = p.coords(plane * width * rows);
                let which: Vec<String> = (0..n - 2).map(|a| (c[a] + 1).to_string()).collect();
                s.push_str(&format!("  layer {}:\n", which.join(",")));
            }
            s.push_str(&format!("       {}\n", header.join(" ")));
            for r in 0..rows {
                let base = (plane * rows + r) * width;
                let cells: Vec<&str> = (0..width)
                    .map(|c| if p.has(base + c) { "#" } else { "." })
                    .collect();
                s.push_str(&format!("  {:>3}  {}\n", r + 1, cells.join(" ")));
            }
        }
        s.push_str(&format!("  position: {}\n", self.format_position(p)));
        s
    }

    fn material(&self, p: &Pattern) -> u64 {
        p.pieces() as u64
    }

    fn position_syntax(&self) -> &'static str {
        POSITION_SYNTAX
    }

    fn move_syntax(&self) -> String {
        String::from(
            "cells are 1-based coordinates in the order of the spec's sides (row,column on a 2-D board; layer,row,column in 3-D); '2,1-2,3' removes the pieces from 2,1 to 2,3 along one line, '2,2' removes one piece",
        )
    }
    fn board(&self, p: &Pattern) -> crate::Board {
        let dims: Vec<usize> = p.dims().iter().map(|&d| d as usize).collect();
        crate::Board::Grid {
            cells: (0..p.cells()).map(|i| p.has(i)).collect(),
            dims,
            poisoned: None,
        }
    }
    /// The pieces removed, cell by cell along the move's axis.
    fn touches(&self, p: &Pattern, mv: &Removal) -> Vec<crate::Element> {
        let ndim = p.dims().len();
        let first = p.coords(mv.start);
        (0..mv.count)
            .map(|k| {
                let mut at: Vec<usize> = first[..ndim].to_vec();
                at[mv.axis] += k;
                crate::Element::Cell { at }
            })
            .collect()
    }
    fn moves_left_bound(&self, p: &Pattern) -> Option<u64> {
        Some(u64::from(p.pieces()))
    }
}

/// The separator before line `j` (lines run along the last axis): 1
/// between rows, 2 between layers, 3 between blocks.
fn separator_level(dims: &[usize], j: usize) -> usize {
    let n = dims.len();
    let mut level = 1;
    let mut block = 1;
    for m in 1..n.saturating_sub(1) {
        block *= dims[n - 1 - m];
        if j.is_multiple_of(block) {
            level += 1;
        }
    }
    level
}

impl Theory for NimBoard {
    fn description(&self) -> Description {
        Description {
            rules: "Pieces sit on the cells of a k1x...xkn board (the spec gives the sides; the start is the full board). A move removes one or more pieces that lie next to each other on one line parallel to an axis (a row, a column, or a line through the layers). Normal play: whoever removes the last piece wins; misère play: whoever removes it loses.",
            example: if self.dims == [3, 3] {
                ".#./###/.#."
            } else {
                "full"
            },
            theory: "A move never joins two clusters of pieces that do not touch face to face, so a position is the sum of its clusters and its Grundy value the XOR of theirs. A straight line of n pieces is a Nim heap of n; the L-tromino has value 3 and the 2x2 square value 0. Nimatron computes each cluster's value by memoised mex, storing clusters cut to their bounding box and reduced under every reflection and permutation of the axes; misère play is solved by search over whole positions under the same symmetries. Checked against a plain mex over every pattern of the 3x3, 2x2x2 and 2x2x3 boards without clusters or symmetry, and against plain misère minimax on the 3x3 board.",
            citation: "The game: Wikipedia, \"Nim\", section \"Higher-dimensional Nim\". Sums of games: R. P. Sprague (1935), P. M. Grundy (1939); E. R. Berlekamp, J. H. Conway, R. K. Guy, Winning Ways.",
        }
    }

    fn explain_solved(
        &self,
        p: &Pattern,
        convention: Convention,
        outcome: Outcome,
        grundy: Option<Nimber>,
    ) -> String {
        let clusters = self.clusters(p);
        let verdict = match outcome {
            Outcome::N => "the player to move wins",
            Outcome::P => "the player to move loses against perfect play",
        };
        let mut s = format!(
            "The {} piece{} form{} {} cluster{} (pieces joined face to face). No move can join clusters, so the position is their sum.\n",
            p.pieces(),
            if p.pieces() == 1 { "" } else { "s" },
            if p.pieces() == 1 { "s" } else { "" },
            clusters.len(),
            if clusters.len() == 1 { "" } else { "s" },
        );
        // One cluster: its value is the position's, already known.
        let values = match (clusters.len(), grundy) {
            (1, Some(g)) => Some(vec![(clusters[0], g)]),
            _ => self.cluster_values(p),
        };
        if let Some(values) = values {
            for (k, (c, g)) in values.iter().enumerate() {
                let shape = c
                    .dims()
                    .iter()
                    .map(|d| d.to_string())
                    .collect::<Vec<_>>()
                    .join("x");
                let line = c.dims().iter().filter(|&&d| d > 1).count() <= 1
                    && c.pieces() as usize == c.cells();
                s.push_str(&format!(
                    "  cluster {}: {} piece{} in a {shape} box ({}), value {g}{}\n",
                    k + 1,
                    c.pieces(),
                    if c.pieces() == 1 { "" } else { "s" },
                    self.format_position(c),
                    if line {
                        format!(", a straight line: a Nim heap of {}", c.pieces())
                    } else {
                        String::new()
                    }
                ));
            }
        }
        match (convention, grundy) {
            (Convention::Normal, Some(g)) => s.push_str(&format!(
                "The Grundy value is the XOR of the clusters' values: {g}, so {verdict}.{}\n",
                if g.is_zero() {
                    ""
                } else {
                    " A winning move leaves value 0: it changes one cluster (or splits it) so that the XOR becomes 0."
                }
            )),
            _ => s.push_str(&format!(
                "Misère play does not add by XOR, so Nimatron searched whole positions (up to the board's symmetries): {verdict}.\n"
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
    use std::collections::{HashMap, HashSet};

    fn spec(dims: &[usize]) -> crate::GameSpec {
        crate::GameSpec::Board {
            dims: dims.iter().map(|&k| k as u64).collect(),
        }
    }

    /// Plain rules on a bitmask over a fixed box, written from the
    /// definition: every line along every axis, every run of adjacent
    /// pieces on it. No clusters, no symmetry, no memo key but the bits.
    fn naive_options(bits: u64, dims: &[usize]) -> Vec<u64> {
        let n = dims.len();
        let total: usize = dims.iter().product();
        let mut out = Vec::new();
        let coord = |mut i: usize| -> Vec<usize> {
            let mut c = vec![0; n];
            for a in (0..n).rev() {
                c[a] = i % dims[a];
                i /= dims[a];
            }
            c
        };
        let index =
            |c: &[usize]| -> usize { c.iter().zip(dims).fold(0, |acc, (v, d)| acc * d + v) };
        for start in 0..total {
            if bits >> start & 1 == 0 {
                continue;
            }
            out.push(bits & !(1 << start));
            for axis in 0..n {
                let mut c = coord(start);
                let mut removed = bits & !(1 << start);
                loop {
                    c[axis] += 1;
                    if c[axis] >= dims[axis] {
                        break;
                    }
                    let j = index(&c);
                    if bits >> j & 1 == 0 {
                        break;
                    }
                    removed &= !(1 << j);
                    out.push(removed);
                }
            }
        }
        out
    }

    fn naive_grundy(bits: u64, dims: &[usize], memo: &mut HashMap<u64, u64>) -> u64 {
        if let Some(&g) = memo.get(&bits) {
            return g;
        }
        let values: HashSet<u64> = naive_options(bits, dims)
            .into_iter()
            .map(|q| naive_grundy(q, dims, memo))
            .collect();
        let g = (0..).find(|v| !values.contains(v)).expect("mex");
        memo.insert(bits, g);
        g
    }

    fn naive_misere_wins(bits: u64, dims: &[usize], memo: &mut HashMap<u64, bool>) -> bool {
        if let Some(&w) = memo.get(&bits) {
            return w;
        }
        let options = naive_options(bits, dims);
        let w = options.is_empty() || options.iter().any(|&q| !naive_misere_wins(q, dims, memo));
        memo.insert(bits, w);
        w
    }

    fn pattern(dims: &[usize], bits: u64) -> Pattern {
        let mut p = Pattern::empty(dims);
        p.bits = bits as u128;
        p
    }

    #[test]
    fn clusters_and_symmetry_agree_with_plain_mex() {
        for dims in [vec![3, 3], vec![2, 2, 2], vec![2, 2, 3], vec![1, 7]] {
            let board = NimBoard::new(&dims);
            let mut solver = GrundySolver::new(&board, Limits::default());
            let mut memo = HashMap::new();
            let cells: usize = dims.iter().product();
            for bits in 0..1u64 << cells {
                let p = pattern(&dims, bits);
                let g = solver.grundy(&p).unwrap();
                assert_eq!(
                    g.value(),
                    naive_grundy(bits, &dims, &mut memo),
                    "{dims:?} {bits:b}"
                );
                // The canonical form plays the same and is a fixed point.
                let c = board.canonical(&p);
                assert_eq!(solver.grundy(&c).unwrap(), g);
                assert_eq!(board.canonical(&c), c);
            }
        }
    }

    #[test]
    fn winning_moves_and_misere_agree_with_plain_search() {
        let dims = [3, 3];
        let board = NimBoard::new(&dims);
        let adapter = Adapter::new(spec(&dims), board.clone());
        let mut memo = HashMap::new();
        let mut misere = HashMap::new();
        let mut search = OutcomeSearch::new(&board, Convention::Misere, Limits::default());
        for bits in 0..1u64 << 9 {
            let p = pattern(&dims, bits);
            let text = board.format_position(&p);
            assert_eq!(board.parse_position(&text).unwrap(), p);
            let a = adapter
                .analyze_text(&text, Convention::Normal, Limits::default())
                .unwrap();
            let mut ours: Vec<String> = a.winning_moves.iter().map(|m| m.to_text.clone()).collect();
            let mut theirs: Vec<String> = naive_options(bits, &dims)
                .into_iter()
                .filter(|&q| naive_grundy(q, &dims, &mut memo) == 0)
                .map(|q| board.format_position(&pattern(&dims, q)))
                .collect();
            ours.sort();
            theirs.sort();
            assert_eq!(ours, theirs, "{text}");
            let wins = naive_misere_wins(bits, &dims, &mut misere);
            assert_eq!(search.outcome(&p).unwrap().to_move_wins(), wins, "{text}");
        }
    }

    #[test]
    fn published_facts() {
        // A straight line of n pieces is a Nim heap of n.
        for n in 1..=12usize {
            let board = NimBoard::new(&[1, n]);
            let mut solver = GrundySolver::new(&board, Limits::default());
            assert_eq!(solver.grundy(&board.full()).unwrap(), Nimber(n as u64));
            let board = NimBoard::new(&[n, 1, 1]);
            let mut solver = GrundySolver::new(&board, Limits::default());
            assert_eq!(solver.grundy(&board.full()).unwrap(), Nimber(n as u64));
        }
        let board = NimBoard::new(&[3, 3]);
        let value = |t: &str| {
            let mut solver = GrundySolver::new(&board, Limits::default());
            solver.grundy(&board.parse_position(t).unwrap()).unwrap()
        };
        // The L-tromino, in all four orientations, has value 3.
        for l in ["##./#../...", "##./.#./...", "#../##./...", ".#./##./..."] {
            assert_eq!(value(l), Nimber(3), "{l}");
        }
        // The 2x2 square has value 0, wherever it is.
        assert_eq!(value("##./##./..."), Nimber(0));
        assert_eq!(value(".../.##/.##"), Nimber(0));
        // Two clusters add by XOR: a line of 3 and a single piece.
        assert_eq!(value("###/.../..#"), Nimber(3 ^ 1));
    }

    #[test]
    fn parse_format_and_bad_positions() {
        let board = NimBoard::new(&[3, 3]);
        assert_eq!(board.format_position(&board.full()), "###/###/###");
        assert_eq!(board.parse_position("### #.# ###").unwrap().pieces(), 8);
        assert_eq!(board.parse_position("###\n#.#\n###\n").unwrap().pieces(), 8);
        let err = |b: &NimBoard, t: &str| b.parse_position(t).unwrap_err().to_string();
        assert!(err(&board, "###/##/###").contains("ragged"));
        assert!(err(&board, "###/###").contains("3 rows"));
        assert!(err(&board, "###/#?#/###").contains("'?' is not a cell"));
        assert!(err(&board, "").contains("no cells"));
        let cube = NimBoard::new(&[2, 2, 3]);
        let p = cube.parse_position("###/#.#|##./...").unwrap();
        assert_eq!(cube.format_position(&p), "###/#.#|##./...");
        assert_eq!(cube.parse_position("###\n#.#\n\n##.\n...").unwrap(), p);
        assert!(err(&cube, "###|#.#/##./...").contains("ragged"));
        assert!(err(&cube, "###/#.#/##./.../###").contains("4 rows"));
        let hyper = NimBoard::new(&[2, 2, 1, 2]);
        let p = hyper.parse_position("##|##||#.|.#").unwrap();
        assert_eq!(hyper.format_position(&p), "##|##||#.|.#");
        assert_eq!(
            NimBoard::new(&[5]).format_position(&NimBoard::new(&[5]).full()),
            "#####"
        );
    }

    #[test]
    fn moves_parse_and_describe() {
        let board = NimBoard::new(&[3, 3]);
        let p = board.parse_position("###/#.#/###").unwrap();
        let mv = board.parse_move(&p, "1,1-1,3").unwrap();
        assert_eq!(
            mv,
            Removal {
                axis: 1,
                start: 0,
                count: 3
            }
        );
        assert_eq!(board.parse_move(&p, "1,3 to 1,1").unwrap(), mv);
        assert_eq!(
            board.describe_move(&p, &mv),
            "remove 3 pieces from row 1 (1,1-1,3)"
        );
        let col = board.parse_move(&p, "3,3-1,3").unwrap();
        assert_eq!(board.format_move(&p, &col), "1,3-3,3");
        assert_eq!(
            board.describe_move(&p, &col),
            "remove 3 pieces from column 3 (1,3-3,3)"
        );
        let e = |t: &str| board.parse_move(&p, t).unwrap_err().problem;
        assert!(e("1,2-3,2").contains("no piece on 2,2"));
        assert!(e("1,1-2,2").contains("one line"));
        assert!(e("4,1").contains("off the board"));
        assert!(e("1").contains("2 coordinates"));
        assert!(e("2,2").contains("no piece"));
        // Every move the rules list is distinct and parses back.
        let moves = board.moves(&p);
        let options: HashSet<Pattern> = moves.iter().map(|m| board.apply(&p, m)).collect();
        assert_eq!(options.len(), moves.len());
        for m in &moves {
            assert_eq!(&board.parse_move(&p, &board.format_move(&p, m)).unwrap(), m);
        }
    }

    #[test]
    fn explanation_lists_clusters_and_limit_is_reported() {
        let adapter = Adapter::new(spec(&[3, 3]), NimBoard::new(&[3, 3]));
        let a = adapter
            .analyze_text("###/.../#.#", Convention::Normal, Limits::default())
            .unwrap();
        assert!(a.explanation.contains("3 clusters"), "{}", a.explanation);
        assert!(
            a.explanation.contains("a Nim heap of 3"),
            "{}",
            a.explanation
        );
        assert_eq!(a.grundy, Some(Nimber(3)));
        let big = Adapter::new(spec(&[6, 6]), NimBoard::new(&[6, 6]));
        let e = big
            .analyze_text("full", Convention::Normal, Limits::states(1000))
            .unwrap_err();
        assert!(e.to_string().contains("limit of 1000"), "{e}");
    }
}
