//! Moore's index-k Nim (`moore:K`): a move reduces between 1 and K heaps,
//! each by any positive amount — or, with a cap (`moore:K,R`), by at most R.
//!
//! - **No cap.** Moore's theorem: the player to move loses exactly when, in
//!   every binary column, the number of heaps with a 1 there is a multiple
//!   of K + 1. A winning move is built column by column from the top
//!   ([`constructive_move`]), in time linear in the heaps for any `u64`
//!   sizes. Misère play (Moore): the same, except when every heap holds 0
//!   or 1 objects; then the player to move loses exactly when the number of
//!   1-heaps is 1 more than a multiple of K + 1.
//! - **A cap R.** When no heap exceeds R the cap never bites and the above
//!   applies. With K = 1 the game is a sum of subtraction games S(1..R) and
//!   normal play follows Wikipedia's rule (heap sizes mod R + 1, then the
//!   nim-sum). With K ≥ 2 Wikipedia's rule is **false** — `moore:2,1` on
//!   `1 1 1 2` is an N-position although the reduced heaps pass the test —
//!   so Nimatron searches (with the stated state limit); misère play with a
//!   cap is searched too.

use std::fmt::Write as _;

use crate::games::heaps;
use crate::heap_notation;
use crate::heap_notation::heap_name;
use crate::nim::HeapMove;
use crate::solve::{Limits, SolveError};
use crate::{Convention, Nimber, Outcome, Rules};
use crate::{Description, MoveError, Notation, PositionError, PositionValue, Theory, Verdict};

/// Moore's index-k Nim, optionally with a cap per heap.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Moore {
    /// K: the most heaps one move may reduce (at least 1).
    pub heaps_per_move: u64,
    /// R: the most one move may take from a heap, if capped (at least 1).
    pub cap: Option<u64>,
}

/// A move: reduce one to K distinct heaps, in heap order.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct MooreMove {
    /// What is taken from each heap reduced (distinct heaps, in order).
    pub takes: Vec<HeapMove>,
}

impl MooreMove {
    /// The heaps after the move.
    pub fn apply(&self, heaps: &[u64]) -> Vec<u64> {
        let mut after = heaps.to_vec();
        for t in &self.takes {
            after[t.heap] -= t.take;
        }
        after
    }
}

const POSITION_SYNTAX: &str = "heap sizes separated by spaces or commas, e.g. '3 5 6'";

/// Positions with at most this many legal moves have every winning move
/// listed (each move is checked); above it, the constructive move only.
pub const ENUMERATION_LIMIT: u128 = 20_000;

/// The number of heaps with a 1 in each binary column, mod `k + 1`,
/// lowest column first.
pub fn column_residues(heaps: &[u64], k: u64) -> [u128; 64] {
    let modulus = k as u128 + 1;
    let mut counts = [0u128; 64];
    for &h in heaps {
        let mut bits = h;
        while bits != 0 {
            let j = bits.trailing_zeros() as usize;
            counts[j] += 1;
            bits &= bits - 1;
        }
    }
    counts.map(|c| c % modulus)
}

/// Moore's P-test: every binary column's count of 1s is a multiple of
/// `k + 1`.
///
/// ```
/// use nimatron::games::moore_p_test;
/// assert!(moore_p_test(&[3, 3, 3], 2)); // two columns of three 1s
/// assert!(!moore_p_test(&[1, 2, 3], 2)); // each column has two 1s
/// assert!(moore_p_test(&[1, 2, 3], 1)); // K = 1 is Nim
/// ```
pub fn moore_p_test(heaps: &[u64], k: u64) -> bool {
    column_residues(heaps, k).iter().all(|&r| r == 0)
}

/// Moore's misère rule: when every heap holds 0 or 1, P exactly when the
/// number of 1-heaps is 1 more than a multiple of `k + 1`; otherwise the
/// normal-play test.
pub fn moore_misere_p(heaps: &[u64], k: u64) -> bool {
    if heaps.iter().all(|&h| h <= 1) {
        let ones = heaps.iter().filter(|&&h| h == 1).count() as u128;
        ones % (k as u128 + 1) == 1
    } else {
        moore_p_test(heaps, k)
    }
}

/// A winning move under normal play, by Moore's construction, or `None`
/// for a P-position. Returns the heaps reduced and their new sizes.
///
/// Go down the binary columns keeping a set S of heaps already chosen for
/// reduction (at most K); below the column where a heap joined S its bits
/// are free. In each column let r be the count of 1s among heaps outside S,
/// mod K + 1. If K + 1 − r ≤ |S|, give K + 1 − r heaps of S a 1 there; if
/// not, then |S| + r ≤ K, and r heaps outside S with a 1 there join S with
/// a 0 there (they shrink). Either way the column's count becomes a
/// multiple of K + 1, and S never exceeds K heaps.
pub fn constructive_move(heaps: &[u64], k: u64) -> Option<Vec<(usize, u64)>> {
    let modulus = k as u128 + 1;
    let mut chosen: Vec<usize> = Vec::new();
    let mut new: Vec<u64> = heaps.to_vec();
    let mut in_set = vec![false; heaps.len()];
    for j in (0..64).rev() {
        let bit = 1u64 << j;
        let outside: Vec<usize> = (0..heaps.len())
            .filter(|&i| !in_set[i] && heaps[i] & bit != 0)
            .collect();
        let r = outside.len() as u128 % modulus;
        if r == 0 {
            continue;
        }
        let need = modulus - r;
        if need <= chosen.len() as u128 {
            for &i in chosen.iter().take(need as usize) {
                new[i] |= bit;
            }
        } else {
            for &i in outside.iter().take(r as usize) {
                in_set[i] = true;
                chosen.push(i);
                // Keep the bits above j, clear bit j and the free bits below.
                new[i] = heaps[i] & !(bit | (bit - 1));
            }
        }
    }
    if chosen.is_empty() {
        return None;
    }
    chosen.sort_unstable();
    Some(chosen.into_iter().map(|i| (i, new[i])).collect())
}

fn to_move(reductions: &[(usize, u64)], heaps: &[u64]) -> MooreMove {
    MooreMove {
        takes: reductions
            .iter()
            .map(|&(heap, to)| HeapMove {
                heap,
                take: heaps[heap] - to,
            })
            .collect(),
    }
}

/// A misère winning move by construction, or `None` for a misère
/// P-position (or no move at all).
fn constructive_misere_move(heaps: &[u64], k: u64) -> Option<MooreMove> {
    if moore_misere_p(heaps, k) {
        return None;
    }
    let modulus = k as u128 + 1;
    let big: Vec<usize> = (0..heaps.len()).filter(|&i| heaps[i] >= 2).collect();
    let ones: Vec<usize> = (0..heaps.len()).filter(|&i| heaps[i] == 1).collect();
    if big.is_empty() {
        // Take r ones (1 ≤ r ≤ K) to leave 1 mod K + 1.
        let c = ones.len() as u128;
        let r = (c + modulus - 1) % modulus;
        let r = if r == 0 { modulus } else { r };
        if r as usize > ones.len() || r > k as u128 {
            return None;
        }
        return Some(MooreMove {
            takes: ones
                .iter()
                .take(r as usize)
                .map(|&heap| HeapMove { heap, take: 1 })
                .collect(),
        });
    }
    if big.len() as u128 > k as u128 {
        // Every position reachable still has a big heap: normal play's move.
        return constructive_move(heaps, k).map(|r| to_move(&r, heaps));
    }
    // At most K big heaps: reduce each to 0 or 1 (y of them to 1), and empty
    // x of the 1-heaps, leaving c − x + y ≡ 1 (mod K + 1).
    let c = ones.len() as u128;
    let b = big.len() as u128;
    let spare = (k as u128 - b).min(c);
    for y in 0..=b {
        for x in 0..=spare {
            if (c - x + y) % modulus == 1 {
                let mut takes: Vec<HeapMove> = big
                    .iter()
                    .enumerate()
                    .map(|(n, &heap)| HeapMove {
                        heap,
                        take: heaps[heap] - u64::from((n as u128) < y),
                    })
                    .collect();
                takes.extend(
                    ones.iter()
                        .take(x as usize)
                        .map(|&heap| HeapMove { heap, take: 1 }),
                );
                takes.sort_unstable();
                return Some(MooreMove { takes });
            }
        }
    }
    None
}

impl Moore {
    /// The game for `moore:K` or `moore:K,R`.
    pub fn new(heaps_per_move: u64, cap: Option<u64>) -> Moore {
        Moore {
            heaps_per_move,
            cap,
        }
    }

    fn limit(&self, heap: u64) -> u64 {
        match self.cap {
            Some(r) => heap.min(r),
            None => heap,
        }
    }

    /// Whether the cap can matter in this position (some heap exceeds it).
    pub fn cap_bites(&self, heaps: &[u64]) -> bool {
        self.cap.is_some_and(|r| heaps.iter().any(|&h| h > r))
    }

    /// How many legal moves there are (saturating): the sum over sets of at
    /// most K heaps of the product of the takes each allows.
    pub fn move_count(&self, heaps: &[u64]) -> u128 {
        let k = (self.heaps_per_move as usize).min(heaps.len());
        // e[j] = sum over j-sets of the product (elementary symmetric).
        let mut e = vec![0u128; k + 1];
        e[0] = 1;
        for &h in heaps {
            let options = self.limit(h) as u128;
            if options == 0 {
                continue;
            }
            for j in (1..=k).rev() {
                e[j] = e[j].saturating_add(e[j - 1].saturating_mul(options));
            }
        }
        e[1..].iter().fold(0u128, |a, &v| a.saturating_add(v))
    }

    fn is_p_closed(&self, heaps: &[u64], convention: Convention) -> Option<bool> {
        let k = self.heaps_per_move;
        if !self.cap_bites(heaps) {
            return Some(match convention {
                Convention::Normal => moore_p_test(heaps, k),
                Convention::Misere => moore_misere_p(heaps, k),
            });
        }
        match (k, convention, self.cap) {
            (1, Convention::Normal, Some(r)) => Some(reduced_nim_sum(heaps, r) == 0),
            _ => None,
        }
    }
}

fn reduced_nim_sum(heaps: &[u64], r: u64) -> u64 {
    let m = r as u128 + 1;
    heaps
        .iter()
        .fold(0u64, |acc, &h| acc ^ (h as u128 % m) as u64)
}

impl Rules for Moore {
    type Position = Vec<u64>;
    type Move = MooreMove;

    fn moves(&self, heaps: &Vec<u64>) -> Vec<MooreMove> {
        let k = (self.heaps_per_move as usize).min(heaps.len());
        let mut out = Vec::new();
        let mut current: Vec<HeapMove> = Vec::new();
        fn go(
            game: &Moore,
            heaps: &[u64],
            start: usize,
            k: usize,
            current: &mut Vec<HeapMove>,
            out: &mut Vec<MooreMove>,
        ) {
            for heap in start..heaps.len() {
                for take in 1..=game.limit(heaps[heap]) {
                    current.push(HeapMove { heap, take });
                    out.push(MooreMove {
                        takes: current.clone(),
                    });
                    if current.len() < k {
                        go(game, heaps, heap + 1, k, current, out);
                    }
                    current.pop();
                }
            }
        }
        go(self, heaps, 0, k, &mut current, &mut out);
        out
    }

    fn apply(&self, heaps: &Vec<u64>, mv: &MooreMove) -> Vec<u64> {
        mv.apply(heaps)
    }

    /// Counted by formula: a few small heaps can have millions of moves.
    fn count_moves(&self, heaps: &Vec<u64>) -> u128 {
        self.move_count(heaps)
    }

    /// The page alone is made, in the order of [`moves`](Rules::moves):
    /// the moves before it are counted, not built.
    fn moves_page(&self, heaps: &Vec<u64>, offset: usize, limit: usize) -> Vec<MooreMove> {
        struct Walk<'a> {
            game: &'a Moore,
            heaps: &'a [u64],
            k: usize,
            skip: u128,
            limit: usize,
            current: Vec<HeapMove>,
            out: Vec<MooreMove>,
        }
        impl Walk<'_> {
            /// The moves that extend `current` with heaps from `start` on
            /// (at most `k` heaps in all), without the empty extension.
            fn subtree(&self, start: usize) -> u128 {
                let left = self.k - self.current.len();
                let rest: Vec<u64> = self.heaps[start..].to_vec();
                Moore {
                    heaps_per_move: left as u64,
                    cap: self.game.cap,
                }
                .move_count(&rest)
            }
            fn go(&mut self, start: usize) {
                for heap in start..self.heaps.len() {
                    for take in 1..=self.game.limit(self.heaps[heap]) {
                        if self.out.len() >= self.limit {
                            return;
                        }
                        let deeper = self.current.len() + 1 < self.k;
                        // This move and the moves that extend it.
                        let below = if deeper {
                            self.current.push(HeapMove { heap, take });
                            let n = self.subtree(heap + 1);
                            self.current.pop();
                            n
                        } else {
                            0
                        };
                        if self.skip > below {
                            self.skip -= below + 1;
                            continue;
                        }
                        self.current.push(HeapMove { heap, take });
                        if self.skip == 0 {
                            self.out.push(MooreMove {
                                takes: self.current.clone(),
                            });
                        } else {
                            self.skip -= 1;
                        }
                        if deeper {
                            self.go(heap + 1);
                        }
                        self.current.pop();
                    }
                }
            }
        }
        let mut walk = Walk {
            game: self,
            heaps,
            k: (self.heaps_per_move as usize).min(heaps.len()),
            skip: offset as u128,
            limit,
            current: Vec::new(),
            out: Vec::new(),
        };
        if walk.k > 0 && limit > 0 {
            walk.go(0);
        }
        walk.out
    }

    /// Any non-empty heap can lose an object, so only the empty position
    /// is terminal (without listing every move of huge heaps).
    fn is_terminal(&self, heaps: &Vec<u64>) -> bool {
        heaps.iter().all(|&h| h == 0)
    }

    /// Empty heaps never matter, and order does not.
    fn canonical(&self, heaps: &Vec<u64>) -> Vec<u64> {
        heaps::canonical(heaps)
    }
}

impl Notation for Moore {
    fn parse_position(&self, text: &str) -> Result<Vec<u64>, PositionError> {
        heap_notation::parse_heaps(text, POSITION_SYNTAX)
    }
    fn format_position(&self, heaps: &Vec<u64>) -> String {
        heap_notation::format_heaps(heaps)
    }
    fn position_value(&self, heaps: &Vec<u64>) -> PositionValue {
        PositionValue::Heaps(heaps.clone())
    }
    fn start_position(&self) -> Option<Vec<u64>> {
        Some(vec![3, 5, 6, 7])
    }
    fn parse_move(&self, heaps: &Vec<u64>, input: &str) -> Result<MooreMove, MoveError> {
        let lower = input.to_ascii_lowercase().replace(" and ", ",");
        let mut takes: Vec<HeapMove> = Vec::new();
        for part in lower.split([',', ';']) {
            if part.trim().is_empty() {
                return Err(MoveError::new(format!(
                    "'{}' is not a move: list heap moves separated by commas, e.g. 'A 2, C 1'",
                    input.trim()
                )));
            }
            let (heap, take) = heap_notation::parse_heap_and_count(part, heaps)?;
            if takes.iter().any(|t| t.heap == heap) {
                return Err(MoveError::new(format!(
                    "heap {} is named twice: reduce each heap once",
                    heap_name(heap)
                )));
            }
            if let Some(r) = self.cap.filter(|&r| take > r) {
                return Err(MoveError::new(format!(
                    "at most {r} may be taken from a heap in moore:{},{r}; {take} from heap {} is too many",
                    self.heaps_per_move,
                    heap_name(heap)
                )));
            }
            takes.push(HeapMove { heap, take });
        }
        if takes.len() as u64 > self.heaps_per_move {
            return Err(MoveError::new(format!(
                "a move reduces at most {} heap{} here; {} were named",
                self.heaps_per_move,
                if self.heaps_per_move == 1 { "" } else { "s" },
                takes.len()
            )));
        }
        takes.sort_unstable();
        Ok(MooreMove { takes })
    }
    fn format_move(&self, _heaps: &Vec<u64>, mv: &MooreMove) -> String {
        let parts: Vec<String> = mv
            .takes
            .iter()
            .map(|t| format!("{} {}", heap_name(t.heap), t.take))
            .collect();
        parts.join(", ")
    }
    fn describe_move(&self, heaps: &Vec<u64>, mv: &MooreMove) -> String {
        let parts: Vec<String> = mv
            .takes
            .iter()
            .map(|t| {
                format!(
                    "{} from heap {} ({} → {})",
                    t.take,
                    heap_name(t.heap),
                    heaps[t.heap],
                    heaps[t.heap] - t.take
                )
            })
            .collect();
        let list = match parts.as_slice() {
            [one] => one.clone(),
            [init @ .., last] => format!("{} and {last}", init.join(", ")),
            [] => String::new(),
        };
        format!("take {list}")
    }
    fn heap_move(&self, _heaps: &Vec<u64>, mv: &MooreMove) -> Option<(usize, u64)> {
        match mv.takes.as_slice() {
            [t] => Some((t.heap, t.take)),
            _ => None,
        }
    }
    /// A move over several heaps has `heap` null and `take` the number of
    /// objects removed in all.
    fn heap_fields(&self, _heaps: &Vec<u64>, mv: &MooreMove) -> (Option<usize>, Option<u64>) {
        match mv.takes.as_slice() {
            [t] => (Some(t.heap), Some(t.take)),
            many => (
                None,
                Some(many.iter().fold(0u64, |a, t| a.saturating_add(t.take))),
            ),
        }
    }
    fn render(&self, heaps: &Vec<u64>) -> String {
        heap_notation::render_heaps(heaps)
    }
    fn material(&self, heaps: &Vec<u64>) -> u64 {
        heaps::total(heaps)
    }
    fn candidate_moves(&self, heaps: &Vec<u64>) -> Vec<MooreMove> {
        if self.move_count(heaps) <= 400 {
            return self.moves(heaps);
        }
        let mut moves: Vec<MooreMove> = (0..heaps.len())
            .flat_map(|heap| {
                heaps::representative_takes(self.limit(heaps[heap]))
                    .into_iter()
                    .filter(|&t| t >= 1)
                    .map(move |take| MooreMove {
                        takes: vec![HeapMove { heap, take }],
                    })
            })
            .collect();
        for convention in [Convention::Normal, Convention::Misere] {
            if let Some(v) = self.closed_form(heaps, convention) {
                moves.extend(v.winning_moves);
            }
        }
        moves.sort_unstable();
        moves.dedup();
        moves
    }
    fn position_syntax(&self) -> &'static str {
        POSITION_SYNTAX
    }
    fn move_syntax(&self) -> String {
        String::from(
            "one to K heap moves separated by commas: 'A 2, C 1' takes 2 from heap A and 1 from heap C; 'B all' empties heap B",
        )
    }
    /// Every move removes at least one object.
    fn moves_left_bound(&self, heaps: &Vec<u64>) -> Option<u64> {
        Some(heaps.iter().fold(0u64, |a, &h| a.saturating_add(h)))
    }
    /// The run taken from the end of each heap reduced.
    fn touches(&self, heaps: &Vec<u64>, mv: &MooreMove) -> Vec<crate::Element> {
        mv.takes
            .iter()
            .map(|t| {
                crate::geometry::take_from_end(
                    t.heap,
                    heaps.get(t.heap).copied().unwrap_or(0),
                    t.take,
                )
            })
            .collect()
    }
}

/// The heaps in binary with each column's count of 1s mod K + 1.
pub fn column_table(heaps: &[u64], k: u64) -> String {
    let residues = column_residues(heaps, k);
    let widest = heaps.iter().copied().max().unwrap_or(0);
    let bits = (64 - widest.leading_zeros()).max(1) as usize;
    let cell = (k.to_string().len()).max(1);
    let sep = if cell > 1 { " " } else { "" };
    let mut out = String::new();
    let label = format!("mod {}", k as u128 + 1);
    let name_width = label.len().max(6);
    for (i, &h) in heaps.iter().enumerate().take(crate::explain::TABLE_ROWS) {
        let row: Vec<String> = (0..bits)
            .rev()
            .map(|j| format!("{:>cell$}", h >> j & 1))
            .collect();
        let _ = writeln!(out, "{:<name_width$} {}  {h}", heap_name(i), row.join(sep));
    }
    if heaps.len() > crate::explain::TABLE_ROWS {
        let _ = writeln!(
            out,
            "… {} more heaps (counted below)",
            heaps.len() - crate::explain::TABLE_ROWS
        );
    }
    let row: Vec<String> = (0..bits)
        .rev()
        .map(|j| format!("{:>cell$}", residues[j]))
        .collect();
    let _ = writeln!(out, "{:<name_width$} {}", label, row.join(sep));
    out
}

fn list_moves(game: &Moore, heaps: &[u64], convention: Convention) -> (Vec<MooreMove>, bool) {
    let k = game.heaps_per_move;
    let count = game.move_count(heaps);
    if count <= ENUMERATION_LIMIT {
        // Results have no bigger heaps, so the cap does not bite there
        // either and the closed form applies.
        let p = |after: &[u64]| game.is_p_closed(after, convention) == Some(true);
        let moves = game
            .moves(&heaps.to_vec())
            .into_iter()
            .filter(|m| p(&m.apply(heaps)))
            .collect();
        return (moves, true);
    }
    let mv = match convention {
        Convention::Normal => constructive_move(heaps, k).map(|r| to_move(&r, heaps)),
        Convention::Misere => constructive_misere_move(heaps, k),
    };
    (mv.into_iter().collect(), false)
}

impl Theory for Moore {
    fn description(&self) -> Description {
        Description {
            rules: "Heaps of objects; a move reduces between 1 and K heaps, each by any positive amount (moore:K) or by at most R (moore:K,R). Normal play: whoever takes the last object wins. Misère play: whoever takes the last object loses.",
            example: "3 5 6 7",
            theory: "Moore's theorem: the player to move loses exactly when every binary column's count of 1s is a multiple of K + 1; a winning move is built column by column from the top (any u64 sizes, any number of heaps), and every winning move is listed when there are at most 20 000 legal moves to check. Misère play (Moore): the same unless every heap holds 0 or 1, when the player to move loses exactly with 1 more than a multiple of K + 1 one-heaps. With a cap R that some heap exceeds: K = 1 uses heap sizes mod R + 1 and the nim-sum (normal play); for K ≥ 2 Wikipedia's 'mod R + 1 then the P-test' rule is false (moore:2,1 on 1 1 1 2 is an N-position), so Nimatron searches, as it does for misère play with a cap. Every closed form is checked against exhaustive search in both conventions.",
            citation: "E. H. Moore, \"A generalization of the game called Nim\", Annals of Mathematics 11 (1910) 93-94.",
        }
    }

    /// Searched cases (a cap with K ≥ 2, misère with a cap) refuse
    /// positions whose first expansion alone is beyond the limits.
    fn closed_form_within(
        &self,
        heaps: &Vec<u64>,
        convention: Convention,
        limits: Limits,
    ) -> Result<Option<Verdict<MooreMove>>, SolveError> {
        if let Some(verdict) = self.closed_form(heaps, convention) {
            return Ok(Some(verdict));
        }
        let moves = self.move_count(heaps);
        if moves > limits.max_states as u128
            || moves.saturating_mul(heaps.len() as u128) > 10_000_000
        {
            return Err(SolveError::TooLarge {
                reason: format!(
                    "this position of {} heaps is searched (no closed form covers it), but it has {moves} moves from the start alone: too many to search; try fewer or smaller heaps",
                    heaps.len()
                ),
            });
        }
        Ok(None)
    }

    fn closed_form(&self, heaps: &Vec<u64>, convention: Convention) -> Option<Verdict<MooreMove>> {
        let k = self.heaps_per_move;
        let p = self.is_p_closed(heaps, convention)?;
        let outcome = Outcome::from_to_move_wins(!p);
        let capped_nim = self.cap_bites(heaps);
        let (winning, all_listed) = if p {
            (Vec::new(), true)
        } else if capped_nim {
            // K = 1 with a cap: subtraction games S(1..R) in a sum.
            let r = self.cap.unwrap_or(u64::MAX);
            let x = reduced_nim_sum(heaps, r);
            let m = r as u128 + 1;
            let moves = heaps
                .iter()
                .enumerate()
                .filter_map(|(heap, &h)| {
                    let g = (h as u128 % m) as u64;
                    let y = g ^ x;
                    let take = if y as u128 >= m {
                        // Residues run from 0 to R only.
                        return None;
                    } else if y < g {
                        g - y
                    } else if h > r {
                        (g as u128 + m - y as u128) as u64
                    } else {
                        return None;
                    };
                    Some(MooreMove {
                        takes: vec![HeapMove { heap, take }],
                    })
                })
                .collect();
            (moves, true)
        } else {
            list_moves(self, heaps, convention)
        };
        let grundy = match (convention, k, capped_nim, self.cap) {
            (Convention::Normal, 1, true, Some(r)) => Some(Nimber(reduced_nim_sum(heaps, r))),
            (Convention::Normal, 1, false, _) => Some(Nimber(heaps.iter().fold(0, |a, &h| a ^ h))),
            _ => None,
        };
        let explanation = self.explain(heaps, convention, p, &winning, all_listed);
        Some(Verdict {
            details: Default::default(),
            outcome,
            grundy,
            winning_moves: winning,
            explanation,
            theorem: if capped_nim {
                "sum of subtraction games S(1..R): sizes mod R + 1, nim-sum".to_string()
            } else {
                match convention {
                    Convention::Normal => "Moore's theorem (column sums mod K + 1)",
                    Convention::Misere => "Moore's misère rule",
                }
                .to_string()
            },
        })
    }

    fn explain_solved(
        &self,
        heaps: &Vec<u64>,
        convention: Convention,
        outcome: Outcome,
        grundy: Option<Nimber>,
    ) -> String {
        let verdict = match outcome {
            Outcome::N => "the player to move wins",
            Outcome::P => "the player to move loses against perfect play",
        };
        let r = self.cap.unwrap_or(u64::MAX);
        let mut out = String::new();
        let _ = writeln!(
            out,
            "A heap exceeds the cap of {r}, and no closed form covers moore:{},{r} here{}. Nimatron searched every line of play{}: {verdict}.",
            self.heaps_per_move,
            match convention {
                Convention::Normal if self.heaps_per_move >= 2 =>
                    " — Wikipedia's rule (sizes mod R + 1, then Moore's test) is false for K ≥ 2; for example moore:2,1 on 1 1 1 2 is an N-position, though 1 1 1 0 passes the test",
                Convention::Normal => "",
                Convention::Misere => " in misère play",
            },
            match grundy {
                Some(g) => format!(" (Sprague–Grundy value {g})"),
                None => String::new(),
            }
        );
        if self.heaps_per_move >= 2 && convention == Convention::Normal {
            let m = r as u128 + 1;
            let reduced: Vec<u64> = heaps.iter().map(|&h| (h as u128 % m) as u64).collect();
            let seeds = moore_p_test(&reduced, self.heaps_per_move);
            let _ = writeln!(
                out,
                "For comparison, Wikipedia's rule reduces the heaps to {} and says {}{}.",
                heap_notation::format_heaps(&reduced),
                if seeds { "P" } else { "N" },
                if seeds == (outcome == Outcome::P) {
                    ", which agrees here"
                } else {
                    ", which is wrong here"
                }
            );
        }
        out
    }
}

impl Moore {
    fn explain(
        &self,
        heaps: &[u64],
        convention: Convention,
        p: bool,
        winning: &[MooreMove],
        all_listed: bool,
    ) -> String {
        let k = self.heaps_per_move;
        let mut out = String::new();
        if self.cap_bites(heaps) {
            let r = self.cap.unwrap_or(u64::MAX);
            let m = r as u128 + 1;
            let reduced: Vec<u64> = heaps.iter().map(|&h| (h as u128 % m) as u64).collect();
            let _ = writeln!(
                out,
                "One heap per move, at most {r} from it: each heap is a subtraction game S(1..{r}), whose Grundy value is its size mod {m}. Reduced heaps: {}; their nim-sum is {}.",
                heap_notation::format_heaps(&reduced),
                reduced_nim_sum(heaps, r)
            );
            let _ = writeln!(
                out,
                "{}",
                if p {
                    "The nim-sum is 0: the player to move loses against perfect play."
                } else {
                    "The nim-sum is not 0: the player to move wins by making it 0 (from a heap of more than R, reducing its residue upwards also works, by taking R + 1 minus the difference)."
                }
            );
            return out;
        }
        let m = k as u128 + 1;
        if self.cap.is_some() {
            let _ = writeln!(
                out,
                "No heap exceeds the cap of {}, so the cap cannot matter and Moore's theorem applies.",
                self.cap.unwrap_or(0)
            );
        }
        let _ = writeln!(
            out,
            "Moore's index-{k} Nim: a move may reduce up to {k} heap{}. Write the heaps in binary and count the 1s in each column, mod K + 1 = {m}:",
            if k == 1 { "" } else { "s" }
        );
        out.push_str(&column_table(heaps, k));
        let all_small = heaps.iter().all(|&h| h <= 1);
        if convention == Convention::Misere && all_small {
            let ones = heaps.iter().filter(|&&h| h == 1).count();
            let _ = writeln!(
                out,
                "Misère play with only heaps of 0 and 1 (Moore's exceptional case): {ones} one-heap{}. Each move removes 1 to {k} of them, and whoever takes the last loses, so the player to move loses exactly when the count is 1 more than a multiple of {m}. {ones} mod {m} = {}: {}.",
                if ones == 1 { "" } else { "s" },
                ones as u128 % m,
                if p {
                    "a loss for the player to move"
                } else if ones == 0 {
                    "no objects are left, so the previous player took the last one and lost"
                } else {
                    "a win: take enough 1-heaps to leave 1 more than a multiple"
                }
            );
        } else {
            if convention == Convention::Misere {
                let _ = writeln!(
                    out,
                    "Misère play: a heap of two or more remains, so Moore's normal-play test decides (his misère rule differs only when every heap holds 0 or 1)."
                );
            }
            if p {
                let _ = writeln!(
                    out,
                    "Every column is a multiple of {m}: the player to move loses against perfect play. A move changes at most {k} heaps, and in the highest column where one of them changes, only 1s can turn into 0s (each heap shrinks), between 1 and {k} of them: that column's count stops being a multiple of {m}."
                );
            } else {
                let _ = writeln!(
                    out,
                    "Some column is not a multiple of {m}: the player to move wins. Going down the columns from the highest, choose heaps to reduce (at most {k}): a column that is off by r is mended by turning r 1s of unchosen heaps into 0s (those heaps join the chosen ones), or by setting free low bits of already-chosen heaps to 1."
                );
            }
        }
        if !p {
            if let Some(first) = winning.first() {
                let after = first.apply(heaps);
                let _ = writeln!(
                    out,
                    "Winning move: {} → {}.",
                    self.describe_move(&heaps.to_vec(), first),
                    heap_notation::format_heaps(&after)
                );
            }
            if !all_listed {
                let _ = writeln!(
                    out,
                    "This position has {} legal moves, more than the {ENUMERATION_LIMIT} Nimatron checks one by one, so only the constructed winning move is listed; there may be others.",
                    self.move_count(heaps)
                );
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::check::{all_tuples, closed_form_agrees_with_search};
    use crate::solve::{Limits, OutcomeSearch};
    use crate::strategy::SplitMix64;

    fn positions(heaps: usize, max: u64) -> Vec<Vec<u64>> {
        (1..=heaps).flat_map(|n| all_tuples(n, max)).collect()
    }

    #[test]
    fn closed_forms_agree_with_search() {
        for (k, heaps, max) in [(1, 3, 5), (2, 4, 5), (3, 4, 4), (2, 5, 2), (4, 5, 2)] {
            let game = Moore::new(k, None);
            closed_form_agrees_with_search(&game, positions(heaps, max))
                .unwrap_or_else(|e| panic!("moore:{k}: {e}"));
        }
        // Capped: K = 1 (normal play closed form; misère searched) and the
        // positions where no heap exceeds the cap.
        for (k, r, heaps, max) in [(1, 2, 3, 6), (1, 3, 3, 7), (2, 3, 3, 5), (2, 1, 4, 3)] {
            let game = Moore::new(k, Some(r));
            closed_form_agrees_with_search(&game, positions(heaps, max))
                .unwrap_or_else(|e| panic!("moore:{k},{r}: {e}"));
        }
    }

    /// Wikipedia's statement of Moore's P-test, against plain search.
    #[test]
    fn seeds_p_test_against_search() {
        for k in 1..=3 {
            let game = Moore::new(k, None);
            let mut search = OutcomeSearch::new(&game, Convention::Normal, Limits::default());
            for p in positions(4, 5) {
                let columns_ok = (0..3).all(|j| {
                    p.iter().filter(|&&h| h >> j & 1 == 1).count() % (k as usize + 1) == 0
                });
                assert_eq!(
                    search.outcome(&p).unwrap() == Outcome::P,
                    columns_ok,
                    "moore:{k} {p:?}"
                );
            }
        }
    }

    #[test]
    fn misere_rule_found_by_search() {
        for k in 1..=3 {
            let game = Moore::new(k, None);
            let mut search = OutcomeSearch::new(&game, Convention::Misere, Limits::default());
            for p in positions(4, 4) {
                assert_eq!(
                    search.outcome(&p).unwrap() == Outcome::P,
                    moore_misere_p(&p, k),
                    "moore:{k} {p:?}"
                );
            }
        }
    }

    /// The constructed move is legal and reaches a P-position, checked by
    /// search on small positions and by the P-test on huge ones.
    #[test]
    fn constructive_moves_win() {
        for k in 1..=3 {
            let game = Moore::new(k, None);
            let mut normal = OutcomeSearch::new(&game, Convention::Normal, Limits::default());
            let mut misere = OutcomeSearch::new(&game, Convention::Misere, Limits::default());
            for p in positions(4, 5) {
                let legal = game.moves(&p);
                match constructive_move(&p, k) {
                    None => assert!(moore_p_test(&p, k)),
                    Some(red) => {
                        let mv = to_move(&red, &p);
                        assert!(legal.contains(&mv), "moore:{k} {p:?} {mv:?}");
                        assert_eq!(normal.outcome(&mv.apply(&p)).unwrap(), Outcome::P);
                    }
                }
                match constructive_misere_move(&p, k) {
                    None => assert!(moore_misere_p(&p, k) || p.iter().all(|&h| h == 0)),
                    Some(mv) => {
                        assert!(legal.contains(&mv), "moore:{k} {p:?} {mv:?}");
                        assert_eq!(misere.outcome(&mv.apply(&p)).unwrap(), Outcome::P);
                    }
                }
            }
        }
        let mut rng = SplitMix64::new(42);
        for round in 0..300 {
            let k = 1 + rng.below(5);
            let n = 1 + rng.below(12) as usize;
            let heaps: Vec<u64> = (0..n)
                .map(|_| match round % 3 {
                    0 => rng.next_u64(),
                    1 => rng.next_u64() >> rng.below(64),
                    _ => u64::MAX - rng.below(4),
                })
                .collect();
            if let Some(red) = constructive_move(&heaps, k) {
                assert!(red.len() as u64 <= k);
                assert!(red.iter().all(|&(i, to)| to < heaps[i]));
                let mv = to_move(&red, &heaps);
                assert!(moore_p_test(&mv.apply(&heaps), k), "{heaps:?}");
            }
            if let Some(mv) = constructive_misere_move(&heaps, k) {
                assert!(mv.takes.len() as u64 <= k);
                assert!(moore_misere_p(&mv.apply(&heaps), k), "{heaps:?}");
            }
        }
    }

    /// Wikipedia's claim for a cap: reduce the heaps mod R + 1, then apply
    /// the P-test. It holds for K = 1 and fails for K ≥ 2.
    #[test]
    fn seeds_cap_claim_holds_for_one_heap_per_move_only() {
        let seeds = |p: &[u64], k: u64, r: u64| {
            let reduced: Vec<u64> = p.iter().map(|&h| h % (r + 1)).collect();
            moore_p_test(&reduced, k)
        };
        for r in 1..=3 {
            let game = Moore::new(1, Some(r));
            let mut search = OutcomeSearch::new(&game, Convention::Normal, Limits::default());
            for p in positions(3, 7) {
                assert_eq!(
                    search.outcome(&p).unwrap() == Outcome::P,
                    seeds(&p, 1, r),
                    "moore:1,{r} {p:?}"
                );
            }
        }
        let game = Moore::new(2, Some(1));
        let mut search = OutcomeSearch::new(&game, Convention::Normal, Limits::default());
        let p = vec![1, 1, 1, 2];
        assert!(seeds(&p, 2, 1));
        assert_eq!(search.outcome(&p).unwrap(), Outcome::N);
        // The win: take 1 from the 2 and 1 from a 1-heap, leaving 1 1 0 1.
        assert!(
            search
                .winning_moves(&p)
                .unwrap()
                .iter()
                .any(|m| m.apply(&p) == [0, 1, 1, 1] || m.apply(&p) == [1, 1, 0, 1])
        );
        assert!(game.closed_form(&p, Convention::Normal).is_none());
    }

    #[test]
    fn move_notation() {
        let game = Moore::new(2, Some(3));
        let h = vec![3, 5, 6];
        let mv = game.parse_move(&h, "C 1, A 2").unwrap();
        assert_eq!(game.format_move(&h, &mv), "A 2, C 1");
        assert_eq!(
            game.describe_move(&h, &mv),
            "take 2 from heap A (3 → 1) and 1 from heap C (6 → 5)"
        );
        let err = |s: &str| game.parse_move(&h, s).unwrap_err().problem;
        assert!(err("A 1, B 1, C 1").contains("at most 2 heaps"));
        assert!(err("B 4").contains("at most 3 may be taken"));
        assert!(err("A 1, a 2").contains("named twice"));
        for mv in game.moves(&h) {
            let text = game.format_move(&h, &mv);
            assert_eq!(game.parse_move(&h, &text), Ok(mv), "{text}");
        }
        assert_eq!(game.move_count(&h) as usize, game.moves(&h).len());
    }
}

#[cfg(test)]
mod page_tests {
    use super::*;

    /// A page is the same slice of the full list, whatever K, cap, heaps,
    /// offset and limit; the count is the list's length.
    #[test]
    fn pages_are_slices_of_the_move_list() {
        let games = [
            Moore {
                heaps_per_move: 1,
                cap: None,
            },
            Moore {
                heaps_per_move: 2,
                cap: None,
            },
            Moore {
                heaps_per_move: 3,
                cap: Some(2),
            },
            Moore {
                heaps_per_move: 4,
                cap: None,
            },
        ];
        let positions: [&[u64]; 5] = [&[], &[0, 0], &[3], &[2, 0, 3, 1], &[1, 2, 3, 4, 2]];
        for game in games {
            for &heaps in &positions {
                let heaps = heaps.to_vec();
                let all = game.moves(&heaps);
                assert_eq!(
                    game.count_moves(&heaps),
                    all.len() as u128,
                    "{game:?} {heaps:?}"
                );
                for offset in 0..=all.len() + 1 {
                    for limit in [0, 1, 2, 5, 1000] {
                        let want: Vec<_> = all.iter().skip(offset).take(limit).cloned().collect();
                        assert_eq!(
                            game.moves_page(&heaps, offset, limit),
                            want,
                            "{game:?} {heaps:?} offset {offset} limit {limit}"
                        );
                    }
                }
            }
        }
    }

    /// Six heaps of 30 under K = 4 have about 13 million moves: counted by
    /// formula and paged at once, without listing them (the web server
    /// serves such a position a page at a time).
    #[test]
    fn a_page_of_millions_is_made_alone() {
        let game = Moore {
            heaps_per_move: 4,
            cap: None,
        };
        let heaps = vec![30; 6];
        // e1 + e2 + e3 + e4 of six 30s.
        let want = 6 * 30 + 15 * 900 + 20 * 27_000 + 15 * 810_000;
        assert_eq!(game.count_moves(&heaps), want);
        let last = game.moves_page(&heaps, want as usize - 1, 10);
        assert_eq!(last.len(), 1);
        // The last move in list order: the last heap alone, emptied.
        assert_eq!(last[0].takes, vec![HeapMove { heap: 5, take: 30 }]);
        assert_eq!(game.moves_page(&heaps, 1_000_000, 3).len(), 3);
    }
}
