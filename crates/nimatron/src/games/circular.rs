//! Circular Nim (`circular[:K]`): objects on a ring; a move removes 1 to K
//! *adjacent* objects, and adjacency wraps around the ring.
//!
//! # Positions
//!
//! A position is the ring as drawn in Wikipedia's Nim article: places 1 to n, each holding
//! an object (`.`) or a gap (`_`). A whole number `n` is a full ring of n
//! objects.
//!
//! # Theory
//!
//! The first move cuts the ring open: from then on the objects form arcs,
//! and an arc of length L plays exactly like a row of L objects from which a
//! move takes 1 to K adjacent ones, possibly splitting the row in two. That
//! row game is the octal game 0.77…7 (K sevens): 0.7 for K = 1, Kayles
//! (0.77) for K = 2, 0.777 for K = 3. So the components of a position are
//! its arcs (or the whole ring, before the first move), and under normal play
//! the Grundy value is the XOR of the arcs' row values; the full ring of n is
//! the mex of the rows a first move leaves. Row values come from a table
//! built by direct mex over every split.
//!
//! The canonical form of a position lists its arc lengths, longest first,
//! each followed by one gap (a full ring stays as it is): where the arcs sit
//! and how wide the gaps are does not matter. The solvers memoise rows by
//! length this way, and misère play is solved by search over these
//! canonical multisets of arcs.

use std::collections::BTreeSet;
use std::sync::Mutex;

use crate::{Convention, Nimber, Outcome, Rules, mex};
use crate::{Description, MoveError, Notation, PositionError, Theory, Verdict};

/// The most places a ring may have: every legal move is listed in play,
/// and each names the whole resulting ring.
pub const MAX_PLACES: usize = 1000;

const POSITION_SYNTAX: &str = "a ring: a count n for a full ring of n objects (e.g. '10'), or a pattern of places with '.' for an object and '_' for a gap, as in Wikipedia's Nim article (e.g. '._..._..' or '_ . . . . . . . _ _'); at most 1000 places";

/// A ring of places; `true` is an object, `false` a gap. Place i (1-based)
/// is next to places i − 1 and i + 1, and place n is next to place 1.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Ring(pub Vec<bool>);

/// Hash 64 places per word: the searches hash many rings.
impl std::hash::Hash for Ring {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        state.write_usize(self.0.len());
        for chunk in self.0.chunks(64) {
            let word = chunk
                .iter()
                .enumerate()
                .fold(0u64, |w, (i, &c)| w | (c as u64) << i);
            state.write_u64(word);
        }
    }
}

impl Ring {
    /// A full ring of `n` objects.
    pub fn full(n: usize) -> Ring {
        Ring(vec![true; n])
    }

    /// A row of `len` objects, as a ring with one gap.
    pub fn row(len: usize) -> Ring {
        let mut cells = vec![true; len];
        cells.push(false);
        Ring(cells)
    }

    /// How many objects are left.
    pub fn objects(&self) -> usize {
        self.0.iter().filter(|&&c| c).count()
    }
}

/// A move: remove the `len` objects at places `start`, `start + 1`, …
/// (0-based, wrapping around the ring).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Take {
    /// The first place taken, 0-based, going clockwise.
    pub start: usize,
    /// How many adjacent objects are taken.
    pub len: usize,
}

/// A run of adjacent objects with gaps at both ends.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Arc {
    /// Its first place, 0-based, going clockwise.
    pub start: usize,
    /// How many objects.
    pub len: usize,
}

/// How the objects of a ring lie.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Layout {
    /// No gap yet: a full ring of this many objects.
    Full(usize),
    /// Arcs separated by gaps (none when the ring is empty).
    Arcs(Vec<Arc>),
}

/// The layout of a ring: the full ring, or its arcs in clockwise order.
pub fn layout(cells: &[bool]) -> Layout {
    let n = cells.len();
    let Some(gap) = cells.iter().position(|&c| !c) else {
        return if n == 0 {
            Layout::Arcs(Vec::new())
        } else {
            Layout::Full(n)
        };
    };
    let mut arcs = Vec::new();
    let mut current: Option<Arc> = None;
    for step in 1..=n {
        let i = (gap + step) % n;
        if cells[i] {
            match current.as_mut() {
                Some(arc) => arc.len += 1,
                None => current = Some(Arc { start: i, len: 1 }),
            }
        } else if let Some(arc) = current.take() {
            arcs.push(arc);
        }
    }
    arcs.sort_by_key(|a| a.start);
    Layout::Arcs(arcs)
}

/// The Grundy values g(0..=`up_to`) of the row game in which a move takes 1
/// to `max_take` adjacent objects from a row, possibly splitting it: the
/// octal game 0.77…7. Plain mex over every (take, split).
pub fn row_grundy_values(max_take: usize, up_to: usize) -> Vec<Nimber> {
    let mut values = vec![Nimber::ZERO];
    extend_rows(&mut values, max_take, up_to);
    values
}

fn extend_rows(values: &mut Vec<Nimber>, max_take: usize, up_to: usize) {
    let mut largest = values.iter().map(|v| v.0).max().unwrap_or(0);
    while values.len() <= up_to {
        let n = values.len();
        // XORs of values below 2^b stay below 2^b.
        let size = (largest as usize + 1).next_power_of_two();
        let mut seen = vec![false; size + 1];
        for take in 1..=max_take.min(n) {
            let rest = n - take;
            for left in 0..=rest / 2 {
                let v = (values[left] + values[rest - left]).0 as usize;
                seen[v] = true;
            }
        }
        let g = seen.iter().position(|&s| !s).unwrap_or(size + 1) as u64;
        largest = largest.max(g);
        values.push(Nimber(g));
    }
}

/// Circular Nim with K = `max_take`.
#[derive(Debug)]
pub struct Circular {
    max_take: u64,
    rows: Mutex<Vec<Nimber>>,
}

impl Circular {
    /// Circular Nim in which a move removes 1 to `max_take` adjacent objects.
    pub fn new(max_take: u64) -> Circular {
        Circular {
            max_take,
            rows: Mutex::new(vec![Nimber::ZERO]),
        }
    }

    /// K, as given.
    pub fn max_take(&self) -> u64 {
        self.max_take
    }

    /// K as a length (no ring is longer than [`MAX_PLACES`]).
    fn k(&self) -> usize {
        self.max_take.min(MAX_PLACES as u64 + 1) as usize
    }

    /// Row values g(0..=`up_to`), from the table kept by this game.
    pub fn row_values(&self, up_to: usize) -> Vec<Nimber> {
        let mut rows = self.rows.lock().unwrap_or_else(|e| e.into_inner());
        if rows.len() <= up_to {
            extend_rows(&mut rows, self.k(), up_to);
        }
        rows[..=up_to].to_vec()
    }

    /// The Grundy value of a full ring of `n` objects: the mex of the rows
    /// a first move leaves.
    pub fn full_ring_value(&self, n: usize, rows: &[Nimber]) -> Nimber {
        mex((1..=self.k().min(n)).map(|take| rows[n - take]))
    }

    /// The octal code of the row game.
    pub fn octal_code(&self) -> String {
        if self.max_take <= 12 {
            format!("0.{}", "7".repeat(self.max_take as usize))
        } else {
            format!("0.77…7 ({} sevens)", self.max_take)
        }
    }

    fn longest(&self, cells: &[bool]) -> usize {
        match layout(cells) {
            Layout::Full(n) => n,
            Layout::Arcs(arcs) => arcs.iter().map(|a| a.len).max().unwrap_or(0),
        }
    }

    fn explain_normal(
        &self,
        ring: &Ring,
        rows: &[Nimber],
        total: Nimber,
        winning: &[Take],
    ) -> String {
        let k = self.max_take;
        let mut s = format!(
            "Circular Nim with K = {k}: a move removes 1 to {k} adjacent objects on the ring.\n"
        );
        match layout(&ring.0) {
            Layout::Full(n) => {
                s.push_str(&format!(
                    "The ring is full: {n} objects. A first move of 1 to {} objects cuts it open and leaves one row",
                    self.k().min(n)
                ));
                if n as u64 <= k {
                    s.push_str(&format!(
                        " (or nothing: all {n} can go at once, which wins at once)"
                    ));
                }
                let options: Vec<String> = (1..=self.k().min(n))
                    .map(|t| format!("row {} = {}", n - t, rows[n - t]))
                    .collect();
                s.push_str(&format!(
                    ". A row is the octal game {}: take 1 to {k} adjacent objects, perhaps splitting the row in two. \
                     The rows left have values {}, so the full ring has value mex = {total}.\n",
                    self.octal_code(),
                    options.join(", ")
                ));
                if k >= 2 && n as u64 > k {
                    s.push_str(
                        "Every non-empty row is a first-player win (take 1 or 2 from its middle to leave two equal rows, then copy every move on the other side), \
                         so whoever opens a full ring too big to clear at once loses.\n",
                    );
                }
            }
            Layout::Arcs(arcs) if arcs.is_empty() => {
                s.push_str("No object is left: the player to move has lost.\n");
            }
            Layout::Arcs(arcs) => {
                s.push_str(&format!(
                    "The ring is open: {} arc{} of adjacent objects. Each arc is a row of the octal game {} \
                     (take 1 to {k} adjacent objects, perhaps splitting the row in two), and the arcs are independent, \
                     so the position's value is the XOR (nim-sum) of the arcs' values.\n",
                    arcs.len(),
                    if arcs.len() == 1 { "" } else { "s" },
                    self.octal_code()
                ));
                for (i, arc) in arcs.iter().enumerate() {
                    if i == 20 {
                        s.push_str(&format!("  … and {} more arcs\n", arcs.len() - 20));
                        break;
                    }
                    s.push_str(&format!(
                        "  {:<14} row of {:>3}: {}\n",
                        places(arc.start, arc.len, ring.0.len()),
                        arc.len,
                        rows[arc.len]
                    ));
                }
                let values: Vec<String> = arcs.iter().map(|a| rows[a.len].to_string()).collect();
                if arcs.len() <= 20 {
                    s.push_str(&format!("Nim-sum: {} = {total}.\n", values.join(" ⊕ ")));
                } else {
                    s.push_str(&format!("Nim-sum of all arcs: {total}.\n"));
                }
            }
        }
        if total.is_zero() {
            s.push_str(
                "The value is 0: every move leaves a non-zero value, so the player to move loses against perfect play.\n",
            );
        } else {
            s.push_str(&format!(
                "The value is {total}, not 0: the player to move wins by leaving value 0 ({} winning move{}).\n",
                winning.len(),
                if winning.len() == 1 { "" } else { "s" }
            ));
        }
        s
    }
}

/// Places `start..start+len` (0-based, wrapping) as 1-based text.
fn places(start: usize, len: usize, n: usize) -> String {
    if len == 1 {
        format!("place {}", start + 1)
    } else {
        format!("places {}-{}", start + 1, (start + len - 1) % n + 1)
    }
}

fn summary(cells: &[bool]) -> String {
    match layout(cells) {
        Layout::Full(n) => format!("a full ring of {n}"),
        Layout::Arcs(arcs) if arcs.is_empty() => "nothing".to_string(),
        Layout::Arcs(arcs) => {
            let mut lens: Vec<usize> = arcs.iter().map(|a| a.len).collect();
            lens.sort_unstable_by(|a, b| b.cmp(a));
            let words: Vec<String> = lens.iter().map(usize::to_string).collect();
            if lens.len() == 1 {
                format!("a row of {}", words[0])
            } else {
                format!("rows of {}", words.join(", "))
            }
        }
    }
}

impl Rules for Circular {
    type Position = Ring;
    type Move = Take;

    fn moves(&self, ring: &Ring) -> Vec<Take> {
        let k = self.k();
        let n = ring.0.len();
        let mut moves = Vec::new();
        match layout(&ring.0) {
            Layout::Full(n) => {
                for len in 1..=k.min(n) {
                    if len == n {
                        moves.push(Take { start: 0, len });
                    } else {
                        moves.extend((0..n).map(|start| Take { start, len }));
                    }
                }
            }
            Layout::Arcs(arcs) => {
                for arc in arcs {
                    for len in 1..=k.min(arc.len) {
                        for offset in 0..=arc.len - len {
                            moves.push(Take {
                                start: (arc.start + offset) % n,
                                len,
                            });
                        }
                    }
                }
            }
        }
        moves.sort_unstable();
        moves
    }

    fn apply(&self, ring: &Ring, mv: &Take) -> Ring {
        let n = ring.0.len();
        let mut cells = ring.0.clone();
        for i in 0..mv.len {
            cells[(mv.start + i) % n] = false;
        }
        Ring(cells)
    }

    fn components(&self, ring: &Ring) -> Vec<Ring> {
        match layout(&ring.0) {
            Layout::Full(n) => vec![Ring::full(n)],
            Layout::Arcs(arcs) => arcs.iter().map(|a| Ring::row(a.len)).collect(),
        }
    }

    fn canonical(&self, ring: &Ring) -> Ring {
        match layout(&ring.0) {
            Layout::Full(n) => Ring::full(n),
            Layout::Arcs(arcs) => from_lengths(arcs.iter().map(|a| a.len).collect()),
        }
    }

    /// The positions one move away, in canonical form and each once: moves
    /// that differ only by where they fall in equal arcs, or by mirror
    /// image within an arc, give the same multiset of arcs. Options whose
    /// normal-play value is 0 come first: they are the likeliest wins in
    /// either convention, so a search that stops at the first winning
    /// option stops early. Together this keeps the misère search quick.
    fn options(&self, ring: &Ring) -> Vec<Ring> {
        let k = self.k();
        let longest = self.longest(&ring.0);
        let mut rows = self.rows.lock().unwrap_or_else(|e| e.into_inner());
        if rows.len() <= longest {
            extend_rows(&mut rows, k, longest);
        }
        let mut first = Vec::new();
        let mut later = Vec::new();
        match layout(&ring.0) {
            Layout::Full(n) => {
                for len in 1..=k.min(n) {
                    let option = from_lengths(vec![n - len]);
                    if rows[n - len].is_zero() {
                        first.push(option);
                    } else {
                        later.push(option);
                    }
                }
            }
            Layout::Arcs(arcs) => {
                let mut lens: Vec<usize> = arcs.iter().map(|a| a.len).collect();
                lens.sort_unstable_by(|a, b| b.cmp(a));
                let total: Nimber = lens.iter().map(|&l| rows[l]).sum();
                for (i, &arc) in lens.iter().enumerate() {
                    if i > 0 && lens[i - 1] == arc {
                        continue;
                    }
                    for len in 1..=k.min(arc) {
                        for left in 0..=(arc - len) / 2 {
                            let right = arc - len - left;
                            let mut next = lens.clone();
                            next.swap_remove(i);
                            next.push(left);
                            next.push(right);
                            let value = total + rows[arc] + rows[left] + rows[right];
                            if value.is_zero() {
                                first.push(from_lengths(next));
                            } else {
                                later.push(from_lengths(next));
                            }
                        }
                    }
                }
            }
        }
        first.append(&mut later);
        first
    }
}

/// The canonical ring for arcs of these lengths: longest first, each
/// followed by one gap; no arcs at all is a single gap.
fn from_lengths(mut lens: Vec<usize>) -> Ring {
    lens.retain(|&l| l > 0);
    if lens.is_empty() {
        return Ring(vec![false]);
    }
    lens.sort_unstable_by(|a, b| b.cmp(a));
    let mut cells = Vec::with_capacity(lens.iter().sum::<usize>() + lens.len());
    for len in lens {
        cells.extend(std::iter::repeat_n(true, len));
        cells.push(false);
    }
    Ring(cells)
}

fn bad_place(word: &str, n: usize) -> MoveError {
    MoveError::new(format!(
        "'{word}' is not a place on this ring: places are numbered 1 to {n}"
    ))
}

impl Notation for Circular {
    fn parse_position(&self, text: &str) -> Result<Ring, PositionError> {
        let t = text.trim();
        if t.is_empty() {
            return Err(PositionError::new("no ring given", POSITION_SYNTAX));
        }
        if !t.contains(['.', '_']) {
            let n: u64 = t.parse().map_err(|_| {
                PositionError::new(
                    format!(
                        "'{t}' is neither a ring size (a whole number) nor a pattern of '.' and '_'"
                    ),
                    POSITION_SYNTAX,
                )
            })?;
            if n == 0 || n > MAX_PLACES as u64 {
                return Err(PositionError::new(
                    format!("a ring of {n} places is out of range"),
                    format!("give a ring size from 1 to {MAX_PLACES}"),
                ));
            }
            return Ok(Ring::full(n as usize));
        }
        let mut cells = Vec::new();
        for (i, c) in t.chars().enumerate() {
            match c {
                '.' => cells.push(true),
                '_' => cells.push(false),
                c if c.is_whitespace() => {}
                other => {
                    return Err(PositionError::new(
                        format!(
                            "'{other}' (character {} of '{t}') is not a place of a ring",
                            i + 1
                        ),
                        "write '.' for an object and '_' for a gap, e.g. '._..._..'",
                    ));
                }
            }
        }
        if cells.len() > MAX_PLACES {
            return Err(PositionError::new(
                format!("the pattern has {} places", cells.len()),
                format!("a ring has at most {MAX_PLACES} places"),
            ));
        }
        Ok(Ring(cells))
    }

    fn format_position(&self, ring: &Ring) -> String {
        ring.0.iter().map(|&c| if c { '.' } else { '_' }).collect()
    }

    fn start_position(&self) -> Option<Ring> {
        Some(Ring::full(10))
    }

    fn parse_move(&self, ring: &Ring, input: &str) -> Result<Take, MoveError> {
        let n = ring.0.len();
        let lower = input.trim().to_ascii_lowercase();
        let body = lower
            .strip_prefix("take")
            .or_else(|| lower.strip_prefix("remove"))
            .unwrap_or(&lower)
            .trim();
        let words: Vec<&str> = body
            .split(|c: char| c.is_whitespace() || c == ',')
            .filter(|w| !w.is_empty())
            .collect();
        if words.is_empty() {
            return Err(MoveError::new(format!(
                "'{}' is not a move: give the places to take, e.g. '3' or '3-5'",
                input.trim()
            )));
        }
        let place = |w: &str| -> Result<usize, MoveError> {
            match w.parse::<usize>() {
                Ok(p) if (1..=n).contains(&p) => Ok(p - 1),
                _ => Err(bad_place(w, n)),
            }
        };
        let mut taken = BTreeSet::new();
        let mut wrapping_range = None;
        for w in &words {
            match w.split_once('-') {
                Some((a, b)) => {
                    let (a, b) = (place(a)?, place(b)?);
                    let len = (b + n - a) % n + 1;
                    if b < a {
                        wrapping_range = Some((a, b, len));
                    }
                    taken.extend((0..len).map(|i| (a + i) % n));
                }
                None => {
                    taken.insert(place(w)?);
                }
            }
        }
        if let Some(&empty) = taken.iter().find(|&&p| !ring.0[p]) {
            return Err(MoveError::new(format!(
                "place {} has no object: a move takes adjacent objects only",
                empty + 1
            )));
        }
        let len = taken.len();
        let start = if len == n {
            0
        } else {
            // A run starts where the place before it is not taken; an
            // adjacent set has exactly one such start.
            let starts: Vec<usize> = taken
                .iter()
                .copied()
                .filter(|&p| !taken.contains(&((p + n - 1) % n)))
                .collect();
            if starts.len() != 1 {
                let shown: Vec<String> = taken.iter().map(|p| (p + 1).to_string()).collect();
                return Err(MoveError::new(format!(
                    "places {} are not adjacent: a move takes objects next to each other on the ring",
                    shown.join(", ")
                )));
            }
            starts[0]
        };
        if len as u64 > self.max_take {
            let mut e = format!(
                "that takes {len} objects; a move takes 1 to {}",
                self.max_take
            );
            if let Some((a, b, range)) = wrapping_range {
                e.push_str(&format!(
                    " (a range runs clockwise: {}-{} is {range} places through place {n}; for places {} to {} write {}-{})",
                    a + 1,
                    b + 1,
                    b + 1,
                    a + 1,
                    b + 1,
                    a + 1
                ));
            }
            return Err(MoveError::new(e));
        }
        Ok(Take { start, len })
    }

    fn format_move(&self, ring: &Ring, mv: &Take) -> String {
        let n = ring.0.len();
        if mv.len == 1 {
            (mv.start + 1).to_string()
        } else {
            format!("{}-{}", mv.start + 1, (mv.start + mv.len - 1) % n + 1)
        }
    }

    fn describe_move(&self, ring: &Ring, mv: &Take) -> String {
        let after = self.apply(ring, mv);
        let what = if mv.len == 1 {
            format!("take the object at {}", places(mv.start, 1, ring.0.len()))
        } else {
            format!(
                "take {} objects at {}",
                mv.len,
                places(mv.start, mv.len, ring.0.len())
            )
        };
        format!("{what}, leaving {}", summary(&after.0))
    }

    fn render(&self, ring: &Ring) -> String {
        let n = ring.0.len();
        let objects = ring.objects();
        let mut s = format!(
            "  Ring of {n} place{} (place {n} is next to place 1); {objects} object{} left: {}.\n",
            if n == 1 { "" } else { "s" },
            if objects == 1 { "" } else { "s" },
            summary(&ring.0)
        );
        for chunk in (0..n).collect::<Vec<_>>().chunks(20) {
            let numbers: String = chunk.iter().map(|i| format!("{:>4}", i + 1)).collect();
            let marks: String = chunk
                .iter()
                .map(|&i| format!("{:>4}", if ring.0[i] { '.' } else { '_' }))
                .collect();
            s.push_str(&format!("  {numbers}\n  {marks}\n"));
        }
        s.push_str(&format!("  Pattern: {}\n", self.format_position(ring)));
        s
    }

    fn material(&self, ring: &Ring) -> u64 {
        ring.objects() as u64
    }

    fn position_syntax(&self) -> &'static str {
        POSITION_SYNTAX
    }

    fn move_syntax(&self) -> String {
        String::from(
            "the places to take, numbered 1 to n clockwise: '3' takes place 3, '3-5' places 3, 4 and 5, '9-1' places 9, 10 and 1 across the join (also 'take 3 4 5'); the objects must be adjacent",
        )
    }
    fn board(&self, ring: &Ring) -> crate::Board {
        crate::Board::Ring {
            objects: ring.0.clone(),
        }
    }
    fn touches(&self, ring: &Ring, mv: &Take) -> Vec<crate::Element> {
        let n = ring.0.len().max(1);
        (0..mv.len)
            .map(|k| crate::Element::Place {
                index: (mv.start + k) % n,
            })
            .collect()
    }
    fn moves_left_bound(&self, ring: &Ring) -> Option<u64> {
        Some(ring.objects() as u64)
    }
}

impl Theory for Circular {
    fn description(&self) -> Description {
        Description {
            rules: "Objects lie on a ring; a move removes 1 to K adjacent objects (place n is next to place 1). Normal play: whoever takes the last object wins; misère play: whoever takes it loses. Wikipedia's game has K = 3.",
            example: "._..._..",
            theory: "The first move cuts the ring into a row; from then on every arc of adjacent objects is an independent row of the octal game 0.77…7 with K sevens (0.777 for K = 3; Kayles, 0.77, for K = 2): take 1 to K adjacent objects from a row, possibly splitting it. Normal play: the Grundy value is the XOR of the arcs' row values (direct mex over every split), and a full ring of n is the mex of the rows n - 1 … n - K. For K >= 2 every full ring too big to clear in one move is a P-position. Misère play: exhaustive search over canonical positions (the multiset of arc lengths). Checked against a plain search over every ring pattern of up to 12 places (K = 3) and 10 places (K = 1, 2, 4), in both conventions; row values checked against a naive game-tree computation for K = 1, 2, 3 and against the published Kayles values.",
            citation: "Nim, Wikipedia, section \"Circular Nim\"; E. R. Berlekamp, J. H. Conway, R. K. Guy, Winning Ways for your Mathematical Plays, 2nd ed., A K Peters 2001, vol. 1 ch. 4 (octal games, Kayles).",
        }
    }

    fn closed_form(&self, ring: &Ring, convention: Convention) -> Option<Verdict<Take>> {
        if convention != Convention::Normal {
            return None;
        }
        let n = ring.0.len();
        let rows = self.row_values(self.longest(&ring.0));
        let mut winning = Vec::new();
        let total = match layout(&ring.0) {
            Layout::Full(n) => {
                let total = self.full_ring_value(n, &rows);
                // Every first move leaves one row of n - len.
                for mv in self.moves(ring) {
                    if rows[n - mv.len].is_zero() {
                        winning.push(mv);
                    }
                }
                total
            }
            Layout::Arcs(arcs) => {
                let total: Nimber = arcs.iter().map(|a| rows[a.len]).sum();
                for arc in &arcs {
                    let without = total + rows[arc.len];
                    for len in 1..=self.k().min(arc.len) {
                        for offset in 0..=arc.len - len {
                            let right = arc.len - len - offset;
                            if (without + rows[offset] + rows[right]).is_zero() {
                                winning.push(Take {
                                    start: (arc.start + offset) % n,
                                    len,
                                });
                            }
                        }
                    }
                }
                total
            }
        };
        winning.sort_unstable();
        Some(Verdict {
            details: Default::default(),
            outcome: Outcome::from_to_move_wins(!total.is_zero()),
            grundy: Some(total),
            explanation: self.explain_normal(ring, &rows, total, &winning),
            winning_moves: winning,
            theorem: format!(
                "Sprague–Grundy: XOR of the arcs' values in the row game {}",
                self.octal_code()
            ),
        })
    }

    fn explain_solved(
        &self,
        ring: &Ring,
        convention: Convention,
        outcome: Outcome,
        _grundy: Option<Nimber>,
    ) -> String {
        if convention != Convention::Misere {
            return String::new();
        }
        let verdict = match outcome {
            Outcome::N => "the player to move wins",
            Outcome::P => "the player to move loses against perfect play",
        };
        format!(
            "Circular Nim with K = {}, misère play: whoever takes the last object loses.\nThe position is {}. \
             Under misère play the arcs' Grundy values do not decide the game (misère values do not add), \
             so Nimatron searched every line of play, storing each position as its canonical form — the full ring as it is, \
             or once it is open the multiset of arc lengths, since where the arcs lie and how wide the gaps are does not matter: {verdict}.\n",
            self.max_take,
            summary(&ring.0)
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::check::closed_form_agrees_with_search;

    fn all_patterns(max_places: usize) -> Vec<Ring> {
        (1..=max_places)
            .flat_map(|n| {
                (0u32..1 << n).map(move |mask| Ring((0..n).map(|i| mask >> i & 1 == 1).collect()))
            })
            .collect()
    }

    #[test]
    fn closed_form_agrees_with_search_on_every_small_ring() {
        for k in 1..=4 {
            let game = Circular::new(k);
            let positions = all_patterns(9);
            let count = positions.len();
            let checked = closed_form_agrees_with_search(&game, positions)
                .unwrap_or_else(|e| panic!("circular:{k}: {e}"));
            // The closed form covers normal play; misère has none.
            assert_eq!(checked, count, "circular:{k}");
        }
    }

    #[test]
    fn options_are_the_canonical_results_of_the_moves_each_once() {
        for k in 1..=4 {
            let game = Circular::new(k);
            for ring in all_patterns(9) {
                let options = game.options(&ring);
                let ours: BTreeSet<Ring> = options.iter().cloned().collect();
                let theirs: BTreeSet<Ring> = game
                    .moves(&ring)
                    .iter()
                    .map(|m| game.canonical(&game.apply(&ring, m)))
                    .collect();
                assert_eq!(ours, theirs, "circular:{k} {ring:?}");
                assert_eq!(ours.len(), options.len(), "circular:{k} {ring:?}");
            }
        }
    }

    #[test]
    fn layout_wraps_around_the_join() {
        // .__..._. : arcs at places 4-6 and 8-1 (across the join).
        let ring = Ring(".__..._.".chars().map(|c| c == '.').collect());
        assert_eq!(
            layout(&ring.0),
            Layout::Arcs(vec![Arc { start: 3, len: 3 }, Arc { start: 7, len: 2 }])
        );
        assert_eq!(layout(&[true; 4]), Layout::Full(4));
        assert_eq!(layout(&[false; 3]), Layout::Arcs(vec![]));
        let game = Circular::new(3);
        assert_eq!(game.canonical(&ring), Ring::row(3).concat_row(2));
    }

    impl Ring {
        fn concat_row(mut self, len: usize) -> Ring {
            self.0.extend(Ring::row(len).0);
            self
        }
    }

    #[test]
    fn full_rings_too_big_to_clear_are_lost() {
        for k in 2..=5u64 {
            let game = Circular::new(k);
            let rows = game.row_values(60);
            for n in 1..=60usize {
                let v = game.full_ring_value(n, &rows);
                assert_eq!(v.is_zero(), n as u64 > k, "circular:{k} ring {n}");
            }
        }
    }
}
