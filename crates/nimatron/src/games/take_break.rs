//! Heap games with a Grundy sequence, as playable games: take-and-break
//! codes and their presets (Kayles, Dawson's Kayles, Officers, ...), Grundy's
//! game, subtraction games and modular games.
//!
//! A position is a list of heaps (rows, for the octal games). A move takes
//! some objects from one heap and may leave it as one heap, none, or split
//! into two or three; the parts replace the heap in place. Under normal play
//! every heap is a component whose value comes from the game's Grundy
//! sequence ([`crate::sequence`]), and the position's value is the XOR.
//! Misère play of S(1..k) uses the rule for misère Nim on the heaps' values
//! (they are tame: checked against search); every other misère position is
//! settled by the game's misère quotient racing a plain search
//! (see `misere/race.rs`).

mod longest;

use std::fmt::Write as _;
use std::sync::Mutex;

use crate::explain::heap_name;
use crate::games::heaps;
use crate::misere::MisereQuotient;
use crate::misere::race::{self, Answer, Kept};
use crate::sequence::{GrundySequence, HeapGame, Period, SequenceOptions, grundy_sequence};
use crate::sequence::{Rule, TakeBreak};
use crate::solve::{Limits, SolveError};
use crate::{
    Board, Description, Details, Element, MisereRace, MoveError, Notation, PositionError,
    PositionValue, Theory, Verdict,
};
use crate::{Convention, Nimber, Outcome, Rules};
use longest::LongestPlay;

/// A move: take `take` objects from heap `heap`, leaving `parts` (the
/// non-empty heaps that remain of it, in non-decreasing order).
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct SplitMove {
    /// 0-based heap index.
    pub heap: usize,
    /// Objects removed (0 for a pure split, as in Grundy's game).
    pub take: u64,
    /// What remains of the heap.
    pub parts: Vec<u64>,
}

/// Heap sizes whose Grundy values are computed directly; beyond this a
/// proven period is needed.
pub const DIRECT_LIMIT: u64 = 1 << 17;

/// The largest heap whose moves are examined one by one in games where a
/// heap of n has about n moves (splits anywhere in a row, modular takes).
/// It is also the largest heap those games accept, but for games that
/// split a heap in at most two: see [`MAX_HEAP_BY_PERIOD`].
pub const MAX_HEAP_MANY_MOVES: u64 = 1_000_000;

/// The largest heap accepted in a game whose moves split a heap in at most
/// two parts. Beyond [`MAX_HEAP_MANY_MOVES`] such a heap is answered only
/// by a proven period: of the Grundy values in normal play, of the misère
/// quotient's heap images in misère play. Its winning moves are then
/// counted class by class (a split's value depends only on the parts'
/// residues), and the first [`LISTED_BY_PERIOD`] are listed.
pub const MAX_HEAP_BY_PERIOD: u64 = 1_000_000_000_000_000_000;

/// The most winning moves listed for a position with a heap above
/// [`MAX_HEAP_MANY_MOVES`]; the rest are counted.
pub const LISTED_BY_PERIOD: usize = 1000;

/// A heap game from its [`HeapGame`] spec.
pub struct TakeBreakGame {
    game: HeapGame,
    rule: Rule,
    values: Mutex<Option<GrundySequence>>,
    /// What misère play has learnt: the misère quotient so far, where its
    /// learning stopped, and the search's table (see `misere::race`).
    misere: Mutex<Kept>,
    /// The longest play of each heap, as far as asked for.
    longest: Mutex<LongestPlay>,
}

/// The winning moves of one heap (see `winning_heap_moves`).
#[derive(Default)]
struct HeapWins {
    /// Those listed, as (take, parts).
    listed: Vec<(u64, Vec<u64>)>,
    /// How many there are in all.
    total: u64,
    /// For a heap above [`MAX_HEAP_MANY_MOVES`], its splits counted by class.
    families: Vec<SplitFamily>,
}

/// The splits of a large heap that take `take` and leave `a` and `b`, `a`
/// from `from` to `to`: they win exactly when `a mod period` is one of
/// `residues` (`count` of them).
struct SplitFamily {
    take: u64,
    from: u64,
    to: u64,
    period: u64,
    residues: Vec<u64>,
    count: u64,
}

impl HeapWins {
    /// The explanation's sentences for a large heap: which splits win.
    fn describe(&self, name: &str, n: u64, what: &str, pre: u64, per: u64) -> String {
        if self.families.is_empty() {
            return String::new();
        }
        let mut text = format!(
            "Heap {name} ({n}) has too many moves to examine one by one. {what} repeat with period {per} from heap {pre}, so once both parts are at least {pre}, whether a split wins depends only on the smaller part a mod {per}:\n"
        );
        for f in &self.families {
            let mut residues = f.residues.clone();
            residues.sort_unstable();
            let r: Vec<String> = residues.iter().map(u64::to_string).collect();
            let _ = if r.is_empty() {
                writeln!(
                    text,
                    "  taking {} and leaving a and b, a from {} to {}: none of these wins.",
                    f.take, f.from, f.to
                )
            } else {
                writeln!(
                    text,
                    "  taking {} and leaving a and b, a from {} to {}: wins exactly when a mod {} is {} ({} moves).",
                    f.take,
                    f.from,
                    f.to,
                    f.period,
                    join_or(&r),
                    f.count
                )
            };
        }
        let _ = writeln!(
            text,
            "In all, {} winning moves from heap {name}.",
            self.total
        );
        text
    }
}

/// The width of the heap-size column of an explanation: 6, or the digits
/// of the largest heap listed.
fn column_width(heaps: &[u64]) -> usize {
    let largest = heaps.iter().take(32).copied().max().unwrap_or(0);
    largest.to_string().len().max(6)
}

/// "1", "1 or 2", "1, 2 or 3".
fn join_or(items: &[String]) -> String {
    match items {
        [] => String::new(),
        [one] => one.clone(),
        [rest @ .., last] => format!("{} or {last}", rest.join(", ")),
    }
}

const POSITION_SYNTAX: &str =
    "heap (row) sizes separated by spaces or commas, e.g. '10' or '3 4 5'";

impl TakeBreakGame {
    /// The game for a heap-game spec.
    pub fn new(game: HeapGame) -> TakeBreakGame {
        let rule = game.rule();
        TakeBreakGame {
            game,
            rule,
            values: Mutex::new(None),
            misere: Mutex::new(Kept::default()),
            longest: Mutex::new(LongestPlay::default()),
        }
    }

    /// Misère play of `heaps` (outcome, and the winning moves when `moves`
    /// is set): by the misère quotient kept, or by the race of the quotient
    /// and a search (`misere::race`).
    fn misere_settle(
        &self,
        heaps: &[u64],
        moves: Option<&std::cell::OnceCell<Vec<SplitMove>>>,
        limits: Limits,
    ) -> Result<(Answer, MisereRace), SolveError> {
        let position = heaps.to_vec();
        let children = || -> Vec<Vec<u64>> {
            let moves = moves.expect("children only when moves are asked for");
            moves
                .get_or_init(|| self.moves(&position))
                .iter()
                .map(|m| self.apply(&position, m))
                .collect()
        };
        let children: Option<&dyn Fn() -> Vec<Vec<u64>>> = match moves {
            Some(_) => Some(&children),
            None => None,
        };
        let unsearchable = self.too_many_moves(&position);
        race::settle(
            &self.game,
            &self.misere,
            heaps,
            children,
            unsearchable,
            limits,
        )
        .map_err(|e| match e {
            // What is proven without the outcome: how long play can last.
            SolveError::Unresolved { limit, reason } => {
                let bound = self.moves_left_bound(&position).unwrap_or(u64::MAX);
                SolveError::Unresolved {
                    limit,
                    reason: format!(
                        "{reason}. Proven without the outcome: every play from here ends within {bound} moves (the longest plays of the heaps, added)"
                    ),
                }
            }
            e => e,
        })
    }

    /// Misère play of a sum of heaps, with its winning moves and words.
    fn misere_verdict(
        &self,
        heaps: &[u64],
        limits: Limits,
    ) -> Result<Verdict<SplitMove>, SolveError> {
        let moves = std::cell::OnceCell::new();
        let (answer, race) = self.misere_settle(heaps, Some(&moves), limits)?;
        let mut verdict = match answer {
            Answer::Quotient(q) => {
                self.misere_by_quotient(&q, heaps)
                    .ok_or_else(|| SolveError::TooLarge {
                        reason: format!(
                            "the winning moves of {} cannot be listed one by one",
                            self.format_position(&heaps.to_vec())
                        ),
                    })?
            }
            Answer::Search { p, winning } => {
                let moves = moves
                    .into_inner()
                    .unwrap_or_else(|| self.moves(&heaps.to_vec()));
                let outcome = Outcome::from_to_move_wins(!p);
                let explanation = format!(
                    "Misère play: Grundy values do not add, and the misère quotient of {} is not yet known for these heaps, so Nimatron searched every line of play (racing the quotient for the answer): the player to move {}.\n",
                    self.game,
                    verdict_words(outcome)
                );
                Verdict {
                    outcome,
                    grundy: None,
                    winning_moves: winning.into_iter().map(|i| moves[i].clone()).collect(),
                    explanation,
                    theorem: "exhaustive search".into(),
                    details: Details::default(),
                }
            }
        };
        verdict.details.misere = Some(race);
        Ok(verdict)
    }

    /// Misère play by the misère quotient: multiply the heaps' images and
    /// test the product for membership in the P-portion.
    fn misere_by_quotient(&self, q: &MisereQuotient, heaps: &[u64]) -> Option<Verdict<SplitMove>> {
        let images: Vec<usize> = heaps.iter().map(|&h| q.image(h)).collect::<Option<_>>()?;
        // Products of the heaps before and after each one.
        let mut before = vec![0usize; heaps.len() + 1];
        for (i, &x) in images.iter().enumerate() {
            before[i + 1] = q.product(before[i], x);
        }
        let mut after = vec![0usize; heaps.len() + 1];
        for i in (0..images.len()).rev() {
            after[i] = q.product(images[i], after[i + 1]);
        }
        let total = before[heaps.len()];
        let proven = q
            .period()
            .filter(|_| q.proven())
            .map(|p| (p.preperiod, p.period));
        let large = heaps.iter().any(|&h| h > MAX_HEAP_MANY_MOVES);
        let mut winning = Vec::new();
        let mut unlisted = 0u64;
        let mut large_text = String::new();
        for (heap, &n) in heaps.iter().enumerate() {
            let others = q.product(before[heap], after[heap + 1]);
            let cap = if large {
                LISTED_BY_PERIOD.saturating_sub(winning.len())
            } else {
                usize::MAX
            };
            // Every part is at most n, whose image is known, so each
            // part's is too.
            let wins = self
                .winning_heap_moves(n, proven, cap, |parts| {
                    let image = parts.iter().fold(others, |acc, &part| {
                        q.product(acc, q.image(part).expect("parts below a known heap"))
                    });
                    q.in_p(image)
                })
                .ok()?;
            unlisted += wins.total - wins.listed.len() as u64;
            if let Some((e, p)) = proven {
                large_text.push_str(&wins.describe(&heap_name(heap), n, "Its heap images", e, p));
            }
            winning.extend(wins.listed.into_iter().map(|(take, parts)| SplitMove {
                heap,
                take,
                parts,
            }));
        }
        let outcome = if q.in_p(total) {
            Outcome::P
        } else {
            Outcome::N
        };
        let scope = if q.proven() {
            format!(
                "every heap size (its heap images are periodic, proven at heap {})",
                q.computed_to()
            )
        } else {
            format!("heaps of up to {}", q.to())
        };
        let mut text = String::new();
        let _ = writeln!(
            text,
            "Misère play: Grundy values do not add, so Nimatron uses the misère quotient of {} (Plambeck; Plambeck and Siegel), computed from the rules for {scope}. It has {} elements: {}{}.",
            self.game,
            q.order(),
            brief_presentation(q),
            if q.tame() {
                ", the quotient of misère Nim (the game is tame)"
            } else {
                ""
            }
        );
        let p_portion = q.p_portion();
        let mut p_names: Vec<String> = p_portion
            .iter()
            .take(SHOWN_P_ELEMENTS)
            .map(|&e| q.element_name(e))
            .collect();
        if p_portion.len() > SHOWN_P_ELEMENTS {
            p_names.push(format!(
                "… {} more: {} of the {} elements in all",
                p_portion.len() - SHOWN_P_ELEMENTS,
                p_portion.len(),
                q.order()
            ));
        }
        let _ = writeln!(
            text,
            "A sum of heaps is a misère P-position exactly when the product of its heaps' elements lies in the P-portion {{{}}}.",
            p_names.join(", ")
        );
        let width = column_width(heaps);
        for (i, (&h, &e)) in heaps.iter().zip(&images).enumerate().take(32) {
            let _ = writeln!(
                text,
                "  {:<3} {h:>width$}   ↦ {}",
                heap_name(i),
                q.element_name(e)
            );
        }
        if heaps.len() > 32 {
            let _ = writeln!(text, "  … {} more heaps", heaps.len() - 32);
        }
        let _ = writeln!(
            text,
            "The product is {}. {}",
            q.element_name(total),
            if outcome == Outcome::P {
                "It is in the P-portion, so the player to move loses against perfect play: every move changes one heap's element and takes the product out of P."
            } else {
                "It is not in the P-portion, so the player to move wins by changing one heap so that the product lands in P."
            }
        );
        text.push_str(&large_text);
        Some(Verdict {
            details: Details {
                unlisted_winning: unlisted as usize,
                ..Default::default()
            },
            outcome,
            grundy: None,
            winning_moves: winning,
            explanation: text,
            theorem: format!(
                "misère quotient of {} (order {}, {scope})",
                self.game,
                q.order()
            ),
        })
    }

    /// Whether this is a subtraction game S(1..k), and its k.
    fn consecutive_subtraction(&self) -> Option<u64> {
        match &self.game {
            HeapGame::Subtraction(set) if set.iter().copied().eq(1..=set.len() as u64) => {
                Some(set.len() as u64)
            }
            _ => None,
        }
    }

    /// Whether a heap of n has about n moves (or more).
    fn many_moves(&self) -> bool {
        match &self.rule {
            Rule::TakeBreak(rule) => !rule.split_two.is_empty() || !rule.split_three.is_empty(),
            Rule::Squares => false,
            Rule::Modular { .. } => true,
        }
    }

    /// Whether a heap of `n` has a move, without listing them.
    fn heap_has_move(&self, n: u64) -> bool {
        match &self.rule {
            Rule::TakeBreak(rule) => {
                rule.take_all.contains(&n)
                    || rule.leave_one.iter().any(|&k| k < n)
                    || rule
                        .split_two
                        .iter()
                        .any(|&k| k < n && n - k >= if rule.unequal { 3 } else { 2 })
                    || rule.split_three.iter().any(|&k| k < n && n - k >= 3)
            }
            Rule::Squares => n >= 1,
            Rule::Modular { modulus, residues } => residues
                .iter()
                .any(|&r| n >= if r == 0 { *modulus } else { r }),
        }
    }

    /// The moves from one heap of `n`, as (take, parts).
    fn heap_moves(&self, n: u64) -> Vec<(u64, Vec<u64>)> {
        let mut out = Vec::new();
        match &self.rule {
            Rule::TakeBreak(rule) => take_break_moves(rule, n, &mut out),
            Rule::Squares => {
                let mut s = 1u64;
                while s.saturating_mul(s) <= n {
                    let t = s * s;
                    out.push((t, if t == n { vec![] } else { vec![n - t] }));
                    s += 1;
                }
            }
            Rule::Modular { modulus, residues } => {
                for t in 1..=n {
                    if residues.contains(&(t % modulus)) {
                        out.push((t, if t == n { vec![] } else { vec![n - t] }));
                    }
                }
            }
        }
        out
    }

    /// Whether heaps above [`MAX_HEAP_MANY_MOVES`] are accepted and
    /// answered by a proven period: take-and-break games whose moves leave
    /// at most two parts of a heap.
    fn splits_by_period(&self) -> bool {
        matches!(&self.rule, Rule::TakeBreak(rule) if rule.split_three.is_empty())
            && self.many_moves()
    }

    /// Whether taking `take` from a heap of `n` may leave `parts` (sorted,
    /// none of them empty), without listing the heap's moves.
    fn heap_allows(&self, n: u64, take: u64, parts: &[u64]) -> bool {
        if take > n || parts.contains(&0) || !parts.is_sorted() {
            return false;
        }
        let rest = n - take;
        let sum = parts.iter().try_fold(0u64, |a, &p| a.checked_add(p));
        if sum != Some(rest) {
            return false;
        }
        match &self.rule {
            Rule::TakeBreak(rule) => match parts {
                [] => rule.take_all.contains(&take),
                [_] => rule.leave_one.contains(&take),
                [a, b] => rule.split_two.contains(&take) && !(rule.unequal && a == b),
                [_, _, _] => rule.split_three.contains(&take),
                _ => false,
            },
            Rule::Squares => {
                let root = take.isqrt();
                parts.len() <= 1 && take >= 1 && root * root == take
            }
            Rule::Modular { modulus, residues } => {
                parts.len() <= 1 && take >= 1 && residues.contains(&(take % modulus))
            }
        }
    }

    /// The numbers of objects a move may take from a heap of `n`.
    fn heap_takes(&self, n: u64) -> std::collections::BTreeSet<u64> {
        match &self.rule {
            Rule::TakeBreak(rule) => {
                let two = if rule.unequal { 3 } else { 2 };
                let mut takes: std::collections::BTreeSet<u64> =
                    rule.take_all.iter().copied().filter(|&k| k == n).collect();
                takes.extend(rule.leave_one.iter().copied().filter(|&k| k < n));
                takes.extend(
                    rule.split_two
                        .iter()
                        .copied()
                        .filter(|&k| k < n && n - k >= two),
                );
                takes.extend(
                    rule.split_three
                        .iter()
                        .copied()
                        .filter(|&k| k < n && n - k >= 3),
                );
                takes
            }
            _ => self.heap_moves(n).into_iter().map(|(t, _)| t).collect(),
        }
    }

    /// Up to about `limit` moves of `position`, spread over each heap's
    /// moves, without listing the moves of a heap above
    /// [`MAX_HEAP_MANY_MOVES`].
    fn sampled_moves(&self, position: &[u64], limit: usize) -> Vec<SplitMove> {
        let per_heap = (limit / position.len().max(1)).max(16) as u64;
        let mut out = Vec::new();
        for (heap, &n) in position.iter().enumerate() {
            let mut options = Vec::new();
            match &self.rule {
                Rule::TakeBreak(rule) if n > MAX_HEAP_MANY_MOVES => {
                    options.extend(
                        rule.leave_one
                            .iter()
                            .filter(|&&k| k < n)
                            .map(|&k| (k, vec![n - k])),
                    );
                    for &k in rule.split_two.iter().filter(|&&k| k < n) {
                        let r = n - k;
                        let step = (r / 2 / per_heap).max(1);
                        let mut a = 1;
                        while a <= r / 2 {
                            if !(rule.unequal && 2 * a == r) {
                                options.push((k, vec![a, r - a]));
                            }
                            a += step;
                        }
                    }
                }
                _ => {
                    let all = self.heap_moves(n);
                    let step = all.len() / per_heap as usize + 1;
                    options.extend(all.into_iter().step_by(step));
                }
            }
            out.extend(
                options
                    .into_iter()
                    .map(|(take, parts)| SplitMove { heap, take, parts }),
            );
        }
        out
    }

    /// The moves of a heap of `n` whose parts `wins` accepts, the first
    /// `cap` of them listed and all counted. A heap of at most
    /// [`MAX_HEAP_MANY_MOVES`] (or of a game with few moves per heap) has
    /// every move examined. A larger one (a game that splits in two only)
    /// needs `period = (e, p)` such that `wins` answers alike for parts
    /// that are equal below `e` and equal mod `p` from `e` on (the period
    /// of the values, or of the misère heap images): its splits into `a`
    /// and `b` with `a >= e` fall into `p` classes, each tried once and
    /// counted, and the moves are listed in order of `a`.
    fn winning_heap_moves(
        &self,
        n: u64,
        period: Option<(u64, u64)>,
        cap: usize,
        mut wins: impl FnMut(&[u64]) -> bool,
    ) -> Result<HeapWins, String> {
        let mut out = HeapWins::default();
        if n <= MAX_HEAP_MANY_MOVES || !self.many_moves() {
            out.listed = self
                .heap_moves(n)
                .into_iter()
                .filter(|(_, parts)| wins(parts))
                .collect();
            out.total = out.listed.len() as u64;
            out.listed.truncate(cap);
            return Ok(out);
        }
        let (Rule::TakeBreak(rule), true) = (&self.rule, self.splits_by_period()) else {
            return Err(self.too_many_moves(&vec![n]).unwrap_or_default());
        };
        let Some((pre, per)) = period.filter(|&(e, p)| p >= 1 && e + p <= MAX_HEAP_MANY_MOVES / 4)
        else {
            return Err(format!(
                "{}; no such period is known here",
                self.too_many_moves(&vec![n]).unwrap_or_default()
            ));
        };
        let add = |out: &mut HeapWins, take: u64, parts: Vec<u64>| {
            out.total += 1;
            if out.listed.len() < cap {
                out.listed.push((take, parts));
            }
        };
        for &k in rule.take_all.iter().filter(|&&k| k == n) {
            if wins(&[]) {
                add(&mut out, k, vec![]);
            }
        }
        for &k in rule.leave_one.iter().filter(|&&k| k < n) {
            if wins(&[n - k]) {
                add(&mut out, k, vec![n - k]);
            }
        }
        for &k in rule.split_two.iter().filter(|&&k| k < n) {
            let r = n - k;
            // a runs over 1..=hi, b = r - a; b >= r / 2 is far above e.
            let hi = if rule.unequal && r.is_multiple_of(2) {
                r / 2 - 1
            } else {
                r / 2
            };
            let from = pre.max(1);
            for a in 1..from.min(hi + 1) {
                if wins(&[a, r - a]) {
                    add(&mut out, k, vec![a, r - a]);
                }
            }
            // From `from` on, a split's answer depends only on a mod p.
            let classes: Vec<u64> = (from..from + per)
                .filter(|&a| a <= hi && wins(&[a, r - a]))
                .collect();
            let count: u64 = classes.iter().map(|&a| (hi - a) / per + 1).sum();
            out.total += count;
            // In order of a: every class once per period, until hi or cap.
            let mut i = 0;
            'list: while !classes.is_empty() {
                for &a0 in &classes {
                    let a = a0 + i * per;
                    if a > hi || out.listed.len() >= cap {
                        break 'list;
                    }
                    out.listed.push((k, vec![a, r - a]));
                }
                i += 1;
            }
            out.families.push(SplitFamily {
                take: k,
                from,
                to: hi,
                period: per,
                residues: classes.iter().map(|&a| a % per).collect(),
                count,
            });
        }
        Ok(out)
    }

    /// Grundy values up to `max` (or by a proven period beyond the direct
    /// limit), as a lookup closure's table.
    fn with_values<T>(
        &self,
        max: u64,
        f: impl FnOnce(&dyn Fn(u64) -> Nimber, Option<Period>) -> T,
    ) -> Result<T, String> {
        let mut cache = self.values.lock().unwrap_or_else(|e| e.into_inner());
        let have = cache.as_ref().map_or(0, |s| s.values.len() as u64);
        let want = max.min(DIRECT_LIMIT);
        if have <= want {
            let to = (want + 1)
                .max(64)
                .max(have.saturating_mul(2))
                .min(DIRECT_LIMIT);
            let seq = grundy_sequence(&self.game, to, &SequenceOptions::default())
                .map_err(|e| e.to_string())?;
            *cache = Some(seq);
        }
        let seq = cache.as_ref().expect("just computed");
        let len = seq.values.len() as u64;
        let period = seq.period.filter(|p| p.proven);
        if max >= len && period.is_none() {
            return Err(format!(
                "a heap of {max} is beyond the {} heap sizes whose values Nimatron computes for analysis, and {} has no proven period; its Grundy sequence can be computed to that heap instead",
                len - 1,
                self.game,
            ));
        }
        let lookup = |n: u64| -> Nimber {
            let index = if n < len {
                n
            } else {
                let p = period.expect("checked above");
                p.preperiod + (n - p.preperiod) % p.period
            };
            Nimber(seq.values.get(index as usize) as u64)
        };
        Ok(f(&lookup, seq.period))
    }

    fn describe(&self, heaps_before: &[u64], mv: &SplitMove) -> String {
        let n = heaps_before[mv.heap];
        let name = heap_name(mv.heap);
        let parts: Vec<String> = mv.parts.iter().map(u64::to_string).collect();
        match (mv.take, mv.parts.len()) {
            (0, _) => format!("split heap {name} ({n}) into {}", parts.join(" and ")),
            (t, 0) if t == n => format!("take all {t} from heap {name} (leaving it empty)"),
            (t, 1) => format!("take {t} from heap {name} ({n} → {})", mv.parts[0]),
            (t, _) => format!(
                "take {t} from heap {name} ({n}), leaving heaps of {}",
                parts.join(" and ")
            ),
        }
    }

    fn misere_subtraction(&self, heaps: &[u64], k: u64) -> Verdict<SplitMove> {
        let outcome_of = |hs: &[u64]| misere_residue_outcome(hs, k);
        let outcome = outcome_of(heaps);
        let winning: Vec<SplitMove> = self
            .moves(&heaps.to_vec())
            .into_iter()
            .filter(|m| outcome_of(&self.apply(&heaps.to_vec(), m)) == Outcome::P)
            .collect();
        let residues: Vec<u64> = heaps.iter().map(|h| h % (k + 1)).collect();
        let mut text = format!(
            "Misère play of S(1..{k}). Reduce every heap mod {} (its value in normal play): {}.\n",
            k + 1,
            words(&residues)
        );
        text.push_str(
            "These games are tame: they play like misère Nim on those values. While some value is 2 or more, the player to move loses exactly when the XOR is 0; when every value is 0 or 1, exactly when the number of 1s is odd. (When every heap reduces to 0, the winning move takes k from a heap, leaving one 1: Wikipedia's rule.)\n",
        );
        let _ = writeln!(text, "So the player to move {}.", verdict_words(outcome));
        Verdict {
            details: Default::default(),
            outcome,
            grundy: None,
            winning_moves: winning,
            explanation: text,
            theorem: format!("misère S(1..{k}): misère Nim on heap sizes mod {}", k + 1),
        }
    }
}

/// Misère outcome of S(1..k) heaps: misère Nim on the values h mod (k+1).
fn misere_residue_outcome(heaps: &[u64], k: u64) -> Outcome {
    let values: Vec<u64> = heaps.iter().map(|h| h % (k + 1)).collect();
    let x = values.iter().fold(0, |a, v| a ^ v);
    let any_big = values.iter().any(|&v| v >= 2);
    let to_move_wins = if any_big {
        x != 0
    } else {
        values.iter().filter(|&&v| v == 1).count() % 2 == 0
    };
    Outcome::from_to_move_wins(to_move_wins)
}

fn words(values: &[u64]) -> String {
    let w: Vec<String> = values.iter().map(u64::to_string).collect();
    w.join(" ")
}

fn verdict_words(outcome: Outcome) -> &'static str {
    match outcome {
        Outcome::N => "wins",
        Outcome::P => "loses against perfect play",
    }
}

fn take_break_moves(rule: &TakeBreak, n: u64, out: &mut Vec<(u64, Vec<u64>)>) {
    for &k in &rule.take_all {
        if k == n {
            out.push((k, vec![]));
        }
    }
    for &k in &rule.leave_one {
        if k < n {
            out.push((k, vec![n - k]));
        }
    }
    for &k in &rule.split_two {
        if k < n {
            let r = n - k;
            for a in 1..=r / 2 {
                let b = r - a;
                if rule.unequal && a == b {
                    continue;
                }
                out.push((k, vec![a, b]));
            }
        }
    }
    for &k in &rule.split_three {
        if k < n {
            let r = n - k;
            for a in 1..=r / 3 {
                for b in a..=(r - a) / 2 {
                    let c = r - a - b;
                    if c >= b {
                        out.push((k, vec![a, b, c]));
                    }
                }
            }
        }
    }
}

impl Rules for TakeBreakGame {
    type Position = Vec<u64>;
    type Move = SplitMove;

    fn moves(&self, position: &Vec<u64>) -> Vec<SplitMove> {
        let mut out = Vec::new();
        for (heap, &n) in position.iter().enumerate() {
            for (take, parts) in self.heap_moves(n) {
                out.push(SplitMove { heap, take, parts });
            }
        }
        out
    }

    fn apply(&self, position: &Vec<u64>, mv: &SplitMove) -> Vec<u64> {
        let mut after = Vec::with_capacity(position.len() + mv.parts.len());
        after.extend_from_slice(&position[..mv.heap]);
        if mv.parts.is_empty() {
            after.push(0);
        } else {
            after.extend_from_slice(&mv.parts);
        }
        after.extend_from_slice(&position[mv.heap + 1..]);
        after
    }

    fn is_terminal(&self, position: &Vec<u64>) -> bool {
        !position.iter().any(|&n| self.heap_has_move(n))
    }

    fn is_legal(&self, position: &Vec<u64>, mv: &SplitMove) -> bool {
        position
            .get(mv.heap)
            .is_some_and(|&n| self.heap_allows(n, mv.take, &mv.parts))
    }

    fn too_many_moves(&self, position: &Vec<u64>) -> Option<String> {
        if !self.many_moves() {
            return None;
        }
        let &big = position.iter().find(|&&h| h > MAX_HEAP_MANY_MOVES)?;
        Some(format!(
            "a heap of {big} has too many moves to examine one by one (Nimatron does so for heaps of up to {MAX_HEAP_MANY_MOVES}); beyond that only a proven period answers: of {}'s Grundy values in normal play, of its misère quotient's heap images in misère play",
            self.game
        ))
    }

    fn components(&self, position: &Vec<u64>) -> Vec<Vec<u64>> {
        heaps::components(position)
    }

    fn canonical(&self, position: &Vec<u64>) -> Vec<u64> {
        heaps::canonical(position)
    }

    /// One, plus one for every full 8 heaps (64 bytes): moves that split
    /// heaps make positions of thousands of heaps from one.
    fn footprint(&self, position: &Vec<u64>) -> usize {
        1 + position.len() / 8
    }
}

impl Notation for TakeBreakGame {
    fn parse_position(&self, text: &str) -> Result<Vec<u64>, PositionError> {
        let heaps = heaps::parse_heaps(text, POSITION_SYNTAX)?;
        let (bound, why) = match &self.rule {
            Rule::Squares => (
                MAX_HEAP_MANY_MOVES * MAX_HEAP_MANY_MOVES,
                "since every move of a heap is examined",
            ),
            _ if self.splits_by_period() => (
                MAX_HEAP_BY_PERIOD,
                "(heaps above 1000000 are answered by a proven period)",
            ),
            _ if self.many_moves() => (
                MAX_HEAP_MANY_MOVES,
                "since every move of a heap is examined",
            ),
            _ => (u64::MAX, ""),
        };
        if let Some(&big) = heaps.iter().find(|&&h| h > bound) {
            return Err(PositionError::new(
                format!("heap {big} is too large for {}", self.game),
                format!(
                    "heaps of at most {bound}, {why} (the Grundy sequence of {} reaches larger heaps)",
                    self.game
                ),
            ));
        }
        Ok(heaps)
    }
    fn format_position(&self, position: &Vec<u64>) -> String {
        heaps::format_heaps(position)
    }
    fn position_value(&self, position: &Vec<u64>) -> PositionValue {
        PositionValue::Heaps(position.clone())
    }
    fn start_position(&self) -> Option<Vec<u64>> {
        Some(vec![10])
    }
    fn parse_move(&self, position: &Vec<u64>, input: &str) -> Result<SplitMove, MoveError> {
        let (heap, take, parts) = parse_split_move(input, position)?;
        let n = position[heap];
        let parts = match parts {
            Some(mut p) => {
                p.retain(|&x| x > 0);
                p.sort_unstable();
                p
            }
            // No parts given: the rest stays one heap (or none).
            None => {
                let rest = n.checked_sub(take).ok_or_else(|| {
                    MoveError::new(format!("heap {} has only {n} objects", heap_name(heap)))
                })?;
                if rest == 0 { vec![] } else { vec![rest] }
            }
        };
        if self.heap_allows(n, take, &parts) {
            return Ok(SplitMove { heap, take, parts });
        }
        let takes = self.heap_takes(n);
        let allowed = if takes.is_empty() {
            format!("no move is possible from heap {}", heap_name(heap))
        } else {
            let t: Vec<String> = takes.iter().map(u64::to_string).collect();
            format!(
                "from heap {} ({n}) {} may take {}; give the heaps left after the take as e.g. 'A 1 2+3' where splitting is allowed",
                heap_name(heap),
                self.game,
                t.join(", ")
            )
        };
        Err(MoveError::new(format!(
            "'{}' is not a legal move here: {allowed}",
            input.trim()
        )))
    }
    fn format_move(&self, _position: &Vec<u64>, mv: &SplitMove) -> String {
        let parts: Vec<String> = mv.parts.iter().map(u64::to_string).collect();
        if mv.parts.len() >= 2 {
            format!("{} {} {}", heap_name(mv.heap), mv.take, parts.join("+"))
        } else {
            format!("{} {}", heap_name(mv.heap), mv.take)
        }
    }
    fn describe_move(&self, position: &Vec<u64>, mv: &SplitMove) -> String {
        self.describe(position, mv)
    }
    fn heap_move(&self, _position: &Vec<u64>, mv: &SplitMove) -> Option<(usize, u64)> {
        Some((mv.heap, mv.take))
    }
    /// Rows split when some move leaves two parts of one row.
    fn board(&self, position: &Vec<u64>) -> Board {
        Board::Heaps {
            heaps: position.clone(),
            labels: crate::geometry::heap_labels(position.len()),
            supply: None,
            rows_split: self
                .heap_moves(12)
                .iter()
                .any(|(_, parts)| parts.len() >= 2),
            all_heaps_move: false,
        }
    }
    /// The run taken lies after the first part (from the end when one
    /// part is left); a pure split is the gap after the first part.
    fn touches(&self, position: &Vec<u64>, mv: &SplitMove) -> Vec<Element> {
        let n = position.get(mv.heap).copied().unwrap_or(0);
        let left = if mv.parts.len() >= 2 {
            mv.parts[0]
        } else {
            n - mv.take
        };
        if mv.take == 0 {
            vec![Element::Gap {
                heap: mv.heap,
                index: left,
            }]
        } else {
            vec![Element::Objects {
                heap: mv.heap,
                start: left,
                count: mv.take,
            }]
        }
    }
    /// The mirror image of the run or gap: the same parts, counted from the
    /// other end of the row.
    fn also_touches(&self, position: &Vec<u64>, mv: &SplitMove) -> Vec<Vec<Element>> {
        let n = position.get(mv.heap).copied().unwrap_or(0);
        let mirror = match self.touches(position, mv).as_slice() {
            [Element::Gap { heap, index }] => Element::Gap {
                heap: *heap,
                index: n - index,
            },
            [Element::Objects { heap, start, count }] => Element::Objects {
                heap: *heap,
                start: n - start - count,
                count: *count,
            },
            _ => return Vec::new(),
        };
        if self.touches(position, mv) == [mirror.clone()] {
            Vec::new()
        } else {
            vec![vec![mirror]]
        }
    }
    fn moves_left_bound(&self, position: &Vec<u64>) -> Option<u64> {
        // The longest play of a sum is the sum of its heaps' (see
        // `longest`): Kayles lasts one move per pin at most.
        let mut longest = self.longest.lock().unwrap_or_else(|e| e.into_inner());
        Some(
            position
                .iter()
                .fold(0u64, |a, &h| a.saturating_add(longest.of(&self.rule, h))),
        )
    }
    fn render(&self, position: &Vec<u64>) -> String {
        heaps::render_heaps(position)
    }
    fn material(&self, position: &Vec<u64>) -> u64 {
        heaps::total(position)
    }
    fn candidate_moves(&self, position: &Vec<u64>) -> Vec<SplitMove> {
        if self.too_many_moves(position).is_some() {
            return self.sampled_moves(position, 5000);
        }
        let mut moves = self.moves(position);
        if moves.len() > 5000 {
            // Keep every move of the smaller heaps' worth: a sample spread
            // over the list, plus the first and last of each heap.
            let step = moves.len() / 5000 + 1;
            moves = moves.into_iter().step_by(step).collect();
        }
        moves
    }
    fn position_syntax(&self) -> &'static str {
        POSITION_SYNTAX
    }
    /// The moves of this game's rule, one example of each kind it has
    /// (taking from the end, from inside, a whole heap, splitting without
    /// taking), so Kayles is not told about Grundy's game's splits.
    fn move_syntax(&self) -> String {
        split_move_syntax(&self.rule)
    }
}

/// "1, 2 or 3".
fn or_list(values: &[u64]) -> String {
    let words: Vec<String> = values.iter().map(u64::to_string).collect();
    join_or(&words)
}

/// The move syntax of a rule, with one example of each kind of move it
/// allows (see [`parse_split_move`] for everything accepted).
fn split_move_syntax(rule: &Rule) -> String {
    let t = match rule {
        Rule::Squares => {
            return "'A 4' takes 4 objects from heap A (a move takes a square number: 1, 4, 9, 16, ...); 'A all' empties a heap whose size is a square".to_string();
        }
        Rule::Modular { modulus, residues } => {
            let first = residues
                .iter()
                .copied()
                .find(|&r| r > 0)
                .unwrap_or(*modulus);
            return format!(
                "'A {first}' takes {first} object{} from heap A (a move takes any t with t mod {modulus} one of {}); 'A all' empties heap A when its size is such a t",
                if first == 1 { "" } else { "s" },
                or_list(residues)
            );
        }
        Rule::TakeBreak(t) => t,
    };
    let takes = |ks: &[u64]| -> Vec<u64> { ks.iter().copied().filter(|&k| k > 0).collect() };
    let leave_one = takes(&t.leave_one);
    let split_two = takes(&t.split_two);
    let split_three = takes(&t.split_three);
    let take_all = takes(&t.take_all);
    let splits = !split_two.is_empty() || !split_three.is_empty();
    let mut kinds: Vec<String> = Vec::new();
    let amounts = |ks: &[u64]| {
        if ks.len() > 1 {
            format!(" (taking {} this way)", or_list(ks))
        } else {
            String::new()
        }
    };
    if let Some(&k) = leave_one.first() {
        let amounts = amounts(&leave_one);
        kinds.push(if splits {
            format!(
                "'A {k}' takes {k} from the end of heap A, leaving the rest as one heap{amounts}"
            )
        } else {
            format!("'A {k}' takes {k} from heap A{amounts}")
        });
    }
    if let Some(&k) = split_two.first() {
        let (a, b) = if t.unequal { (1, 2) } else { (1, 3) };
        kinds.push(format!(
            "'A {k} {a}+{b}' takes {k} from inside heap A (of {}), leaving heaps of {a} and {b}{}",
            k + a + b,
            amounts(&split_two)
        ));
    }
    if let Some(&k) = split_three.first() {
        kinds.push(format!(
            "'A {k} 1+1+2' takes {k} from heap A (of {}), leaving heaps of 1, 1 and 2",
            k + 4
        ));
    }
    if t.split_two.contains(&0) {
        kinds.push(format!(
            "'A 4+2' splits heap A (of 6) into heaps of 4 and 2 without taking anything{}",
            if t.unequal {
                " (the two must differ in size)"
            } else {
                ""
            }
        ));
    }
    if t.split_three.contains(&0) {
        kinds.push(
            "'A 1+2+3' splits heap A (of 6) into three heaps without taking anything".to_string(),
        );
    }
    if !take_all.is_empty() {
        let whole = if take_all.len() == 1 {
            format!("when it holds exactly {}", take_all[0])
        } else {
            format!("when it holds exactly {}", or_list(&take_all))
        };
        kinds.push(format!("'A all' takes the whole of heap A, {whole}"));
    }
    if kinds.is_empty() {
        return "this rule allows no move".to_string();
    }
    let mut text = kinds.join("; ");
    if let Some(&k) = leave_one.first() {
        text.push_str(&format!(" ('take {k} from A' and 'a{k}' are read too)"));
    }
    text
}

/// Parse `A 2`, `a2`, `take 2 from A`, `A 1 2+3`, `A 1 -> 2+3`, `A 4+2`,
/// `A all`: (heap, take, parts if given).
fn parse_split_move(
    input: &str,
    heaps: &[u64],
) -> Result<(usize, u64, Option<Vec<u64>>), MoveError> {
    let lower = input.trim().to_ascii_lowercase().replace("->", " ");
    let filler = [
        "take", "from", "heap", "leaving", "leave", "into", "split", "remove",
    ];
    let words: Vec<&str> = lower
        .split_whitespace()
        .filter(|w| !filler.contains(w))
        .collect();
    let mut heap_word: Option<String> = None;
    let mut numbers: Vec<String> = Vec::new();
    let mut parts: Option<Vec<u64>> = None;
    for w in words {
        if w.contains('+') {
            let p: Result<Vec<u64>, _> = w.split('+').map(|x| x.parse::<u64>()).collect();
            parts = Some(p.map_err(|_| {
                MoveError::new(format!("'{w}' is not a list of heap sizes like 2+3"))
            })?);
        } else if w.chars().next().is_some_and(|c| c.is_ascii_alphabetic()) && w != "all" {
            // A heap letter, possibly glued to a number: a2.
            let split = w
                .find(|c: char| !c.is_ascii_alphabetic())
                .unwrap_or(w.len());
            let (h, rest) = w.split_at(split);
            if heap_word.replace(h.to_string()).is_some() {
                return Err(MoveError::new(format!(
                    "'{}' names two heaps",
                    input.trim()
                )));
            }
            if !rest.is_empty() {
                numbers.push(rest.to_string());
            }
        } else {
            numbers.push(w.to_string());
        }
    }
    let heap_word = heap_word
        .ok_or_else(|| MoveError::new(format!("'{}' names no heap letter", input.trim())))?;
    let heap = crate::explain::parse_heap_name(&heap_word)
        .ok_or_else(|| MoveError::new(format!("'{heap_word}' is not a heap letter")))?;
    if heap >= heaps.len() {
        return Err(MoveError::new(format!(
            "there is no heap {}: the heaps are A to {}",
            heap_word.to_ascii_uppercase(),
            heap_name(heaps.len().saturating_sub(1))
        )));
    }
    let n = heaps[heap];
    if n == 0 {
        return Err(MoveError::new(format!("heap {} is empty", heap_name(heap))));
    }
    let take = match numbers.as_slice() {
        [] if parts.is_some() => 0,
        [] => {
            return Err(MoveError::new(format!(
                "'{}' says how many to take nowhere",
                input.trim()
            )));
        }
        [t] if t == "all" => n,
        [t] => t.parse::<u64>().map_err(|_| {
            MoveError::new(format!(
                "'{t}' is not a number of objects: give a whole number, or 'all'"
            ))
        })?,
        [t, rest] if parts.is_none() => {
            // 'A 1 5': take 1 leaving one heap of 5.
            let t = t
                .parse::<u64>()
                .map_err(|_| MoveError::new(format!("'{t}' is not a number")))?;
            let r = rest
                .parse::<u64>()
                .map_err(|_| MoveError::new(format!("'{rest}' is not a number")))?;
            parts = Some(vec![r]);
            t
        }
        _ => return Err(MoveError::new(format!("'{}' is not a move", input.trim()))),
    };
    if take > n {
        return Err(MoveError::new(format!(
            "heap {} has only {n} object{}",
            heap_name(heap),
            if n == 1 { "" } else { "s" }
        )));
    }
    if let Some(p) = &parts {
        let sum = p.iter().fold(0u64, |a, &x| a.saturating_add(x));
        if sum.saturating_add(take) != n {
            return Err(MoveError::new(format!(
                "taking {take} from heap {} ({n}) leaves {} objects, not {sum}",
                heap_name(heap),
                n - take
            )));
        }
    }
    Ok((heap, take, parts))
}

impl Theory for TakeBreakGame {
    fn description(&self) -> Description {
        let (rules, theory) = match &self.game {
            HeapGame::GrundyGame => (
                "Heaps of objects; a move splits one heap into two non-empty heaps of different sizes. Normal play: whoever makes the last move wins.",
                "Grundy values from the game's sequence (OEIS A002188), XOR over heaps. No period is known; in misère play the misère quotient of the heaps at hand races a plain search, and the first proven answer is given.",
            ),
            HeapGame::Subtraction(_) | HeapGame::SubtractSquares => (
                "Heaps of objects; a move removes from one heap a number of objects in the set S.",
                "Grundy values from the game's sequence, XOR over heaps; for S = {1..k} the value of a heap is its size mod k+1 (Wikipedia's rule), and misère play is misère Nim on those values. Other misère positions go by the misère quotient racing a plain search.",
            ),
            HeapGame::Modular { .. } => (
                "Heaps of objects; a move removes from one heap any positive number t with t mod M in R.",
                "Grundy values by dynamic programming over heap sizes, XOR over heaps. Misère play: the misère quotient races a plain search.",
            ),
            HeapGame::Preset(preset) => (preset_rules(*preset), OCTAL_THEORY),
            _ => (
                "Rows of objects; a move takes objects as the take-and-break code allows: digit k says whether taking k may leave no heap (1), one heap (2), two heaps (4) or three (8).",
                OCTAL_THEORY,
            ),
        };
        Description {
            rules,
            example: "3 4 5",
            theory,
            citation: "E. R. Berlekamp, J. H. Conway, R. K. Guy, Winning Ways for your Mathematical Plays, 2nd ed., A K Peters 2001, vol. 1 ch. 4; R. K. Guy, C. A. B. Smith, The G-values of various games, Proc. Cambridge Philos. Soc. 52 (1956) 514-526.",
        }
    }

    fn misere_record(&self) -> Option<crate::misere::QuotientRecord> {
        let kept = self.misere.lock().unwrap_or_else(|e| e.into_inner());
        kept.record(&self.game)
    }

    fn restore_misere_record(
        &self,
        record: &crate::misere::QuotientRecord,
    ) -> Result<(), crate::misere::RecordError> {
        let mut kept = self.misere.lock().unwrap_or_else(|e| e.into_inner());
        kept.restore(&self.game, record)
    }

    /// The outcome alone, without the winning moves: the XOR of the
    /// values, or the quotient's product. (The computer values thousands
    /// of moves of a large heap this way; listing each one's winning moves
    /// took a minute for a heap of 999 999.)
    fn closed_outcome_within(
        &self,
        position: &Vec<u64>,
        convention: Convention,
        limits: Limits,
    ) -> Result<Option<Outcome>, SolveError> {
        if convention == Convention::Misere {
            if let Some(k) = self.consecutive_subtraction() {
                return Ok(Some(misere_residue_outcome(position, k)));
            }
            return match self.misere_settle(position, None, limits)?.0 {
                Answer::Quotient(q) => Ok(q.outcome(position)),
                Answer::Search { p, .. } => Ok(Some(Outcome::from_to_move_wins(!p))),
            };
        }
        let max = position.iter().copied().max().unwrap_or(0);
        self.with_values(max, |g, _| {
            let total: Nimber = position.iter().map(|&h| g(h)).sum();
            Some(Outcome::from_to_move_wins(!total.is_zero()))
        })
        .map_err(|reason| SolveError::TooLarge { reason })
    }

    fn closed_form(
        &self,
        position: &Vec<u64>,
        convention: Convention,
    ) -> Option<Verdict<SplitMove>> {
        self.closed_form_within(position, convention, Limits::default())
            .ok()
            .flatten()
    }

    fn closed_form_within(
        &self,
        position: &Vec<u64>,
        convention: Convention,
        limits: Limits,
    ) -> Result<Option<Verdict<SplitMove>>, SolveError> {
        if convention == Convention::Misere {
            // Misère S(1..k) is tame; other games go by their misère
            // quotient, and to search where it outgrows the limits.
            if let Some(k) = self.consecutive_subtraction() {
                return Ok(Some(self.misere_subtraction(position, k)));
            }
            return self.misere_verdict(position, limits).map(Some);
        }
        let max = position.iter().copied().max().unwrap_or(0);
        self.with_values(max, |g, period| {
            let values: Vec<Nimber> = position.iter().map(|&h| g(h)).collect();
            let total: Nimber = values.iter().copied().sum();
            let proven = period.filter(|p| p.proven).map(|p| (p.preperiod, p.period));
            let large = position.iter().any(|&h| h > MAX_HEAP_MANY_MOVES);
            let mut winning = Vec::new();
            let mut unlisted = 0u64;
            let mut large_text = String::new();
            if !total.is_zero() {
                for (heap, &n) in position.iter().enumerate() {
                    let target = total + values[heap];
                    let cap = if large {
                        LISTED_BY_PERIOD.saturating_sub(winning.len())
                    } else {
                        usize::MAX
                    };
                    let wins = self.winning_heap_moves(n, proven, cap, |parts| {
                        parts.iter().map(|&p| g(p)).sum::<Nimber>() == target
                    })?;
                    unlisted += wins.total - wins.listed.len() as u64;
                    if let Some((e, p)) = proven {
                        let what = format!("The Grundy values of {}", self.game);
                        large_text.push_str(&wins.describe(&heap_name(heap), n, &what, e, p));
                    }
                    winning.extend(
                        wins.listed
                            .into_iter()
                            .map(|(take, parts)| SplitMove { heap, take, parts }),
                    );
                }
            }
            let mut text = String::new();
            let _ = writeln!(
                text,
                "Each heap is an independent game; its Grundy value comes from the sequence of {}:",
                self.game
            );
            let width = column_width(position);
            for (i, (&h, v)) in position.iter().zip(&values).enumerate().take(32) {
                let _ = writeln!(text, "  {:<3} {h:>width$}   G = {}", heap_name(i), v.value());
            }
            if position.len() > 32 {
                let _ = writeln!(text, "  … {} more heaps", position.len() - 32);
            }
            let _ = writeln!(
                text,
                "The position's value is the XOR of these: {}. {}",
                total.value(),
                if total.is_zero() {
                    "It is 0, so the player to move loses against perfect play: every move changes one heap's value and so the XOR."
                } else {
                    "It is not 0, so the player to move wins by changing one heap so that the XOR becomes 0."
                }
            );
            if let Some(k) = self.consecutive_subtraction() {
                let _ = writeln!(
                    text,
                    "For S(1..{k}) a heap's value is its size mod {} (the sequence 0, 1, …, {k}, 0, 1, …), so this is Bouton's rule on the reduced heaps.",
                    k + 1
                );
            }
            if let Some(p) = period {
                let _ = writeln!(
                    text,
                    "The sequence has period {} from n = {}{}.",
                    p.period,
                    p.preperiod,
                    if p.proven {
                        ", proven by the periodicity theorem"
                    } else {
                        " as far as computed (not proven)"
                    }
                );
            }
            text.push_str(&large_text);
            if let Some(mv) = winning.first() {
                let _ = writeln!(text, "Winning move: {}.", self.describe(position, mv));
            }
            let theorem = match self.consecutive_subtraction() {
                Some(k) => format!("Sprague–Grundy: S(1..{k}) heaps mod {}", k + 1),
                None => format!("Sprague–Grundy values of {} (XOR over heaps)", self.game),
            };
            Ok(Some(Verdict {
                details: Details {
                    unlisted_winning: unlisted as usize,
                    ..Default::default()
                },
                outcome: Outcome::from_to_move_wins(!total.is_zero()),
                grundy: Some(total),
                winning_moves: winning,
                explanation: text,
                theorem,
            }))
        })
        .and_then(|r| r)
        .map_err(|reason| SolveError::TooLarge { reason })
    }
}

/// How take-and-break games are solved, for their descriptions.
const OCTAL_THEORY: &str = "Grundy values from the game's sequence, with its period proven by the octal periodicity theorem where it applies; XOR over rows. Misère play: the game's misère quotient (Plambeck and Siegel), computed from the rules for the heaps at hand (for every heap size where its period is proven) and kept for later positions, races a plain search against one budget, and the first proven answer is given: by the quotient, a product of the heaps' images tested against the P-portion. Checked against search on every sum of up to three heaps of up to 8 for Kayles, Dawson's Kayles, 0.137, 0.75, Grundy's game and S(1,3,4).";

/// The rules of a named take-and-break game in the words its players use,
/// rather than its octal code.
fn preset_rules(preset: crate::sequence::Preset) -> &'static str {
    use crate::sequence::Preset;
    match preset {
        Preset::Kayles => {
            "A row of pins; a move knocks down one pin or two neighbouring pins, which may split the row in two (octal 0.77). Normal play: whoever knocks down the last pin wins."
        }
        Preset::Dawson => {
            "A row of pins; a move knocks down two neighbouring pins, which may split the row in two (octal 0.07). Normal play: whoever makes the last move wins."
        }
        Preset::Officers => {
            "Heaps of coins; a move takes one coin from a heap and leaves the rest as one or two non-empty heaps, so a heap of one coin cannot be played (octal 0.6). Normal play: whoever makes the last move wins."
        }
        Preset::Treblecross => {
            "One-dimensional tic-tac-toe with crosses only, as a row game: a move takes three neighbouring objects from a row, which may split it in two (octal 0.007). Normal play: whoever makes the last move wins."
        }
        Preset::DoubleKayles => {
            "A row of pins; a move knocks down one to four neighbouring pins, which may split the row in two (octal 0.7777). Normal play: whoever knocks down the last pin wins."
        }
    }
}

/// Relations above which an explanation shows only the first
/// [`SHOWN_RELATIONS`] and counts the rest.
const MAX_RELATIONS_IN_FULL: usize = 24;
const SHOWN_RELATIONS: usize = 12;

/// Elements of the P-portion an explanation lists before it only counts the
/// rest.
const SHOWN_P_ELEMENTS: usize = 32;

/// The presentation for an explanation: whole when it has at most
/// [`MAX_RELATIONS_IN_FULL`] relations; else every generator with the heap
/// it is the image of, the first relations and how many there are in all
/// (the quotient itself, from the library, the CLI and Python, has them
/// all).
fn brief_presentation(q: &MisereQuotient) -> String {
    let relations = q.relations_text();
    if relations.len() <= MAX_RELATIONS_IN_FULL {
        return q.presentation();
    }
    let generators: Vec<String> = q
        .generators()
        .iter()
        .map(|g| format!("{} (heap {})", g.name, g.heap))
        .collect();
    format!(
        "{} generators, {}, with {} relations, the first {} of them {} and {} more",
        generators.len(),
        generators.join(", "),
        relations.len(),
        SHOWN_RELATIONS,
        relations[..SHOWN_RELATIONS].join(", "),
        relations.len() - SHOWN_RELATIONS
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::check::{all_tuples, closed_form_agrees_with_search};
    use crate::misere::{self, QuotientLimits};
    use crate::{RaceMethod, RaceStatus};
    use std::sync::Arc;

    fn game(spec: &str) -> TakeBreakGame {
        TakeBreakGame::new(spec.parse().unwrap())
    }

    /// The misère quotient learnt up to heap `max` (or to where its period
    /// is proven) within `limits`, with no search racing it.
    fn learn(g: &TakeBreakGame, max: u64, limits: Limits) -> Option<Arc<MisereQuotient>> {
        let bounds = QuotientLimits {
            max_states: limits.max_states,
            max_time: limits.max_time,
            ..QuotientLimits::default()
        };
        let mut kept = g.misere.lock().unwrap();
        kept.learn(&g.game, max, &bounds).ok()
    }

    /// The race's account of a misère verdict.
    fn race_of(v: &Verdict<SplitMove>) -> &MisereRace {
        v.details.misere.as_ref().expect("a misère race")
    }

    /// An explanation gives a presentation of many relations in brief:
    /// every generator with its heap, the first relations and the count of
    /// the rest; a small one whole.
    #[test]
    fn a_large_presentation_is_explained_in_brief() {
        let limits = QuotientLimits::default();
        let q = misere::quotient(&"octal:0.35".parse().unwrap(), 12, &limits).unwrap();
        let relations = q.relations_text();
        assert!(
            relations.len() > MAX_RELATIONS_IN_FULL,
            "{}",
            relations.len()
        );
        let text = brief_presentation(&q);
        for g in q.generators() {
            assert!(
                text.contains(&format!("{} (heap {})", g.name, g.heap)),
                "{text}"
            );
        }
        assert!(text.contains(&format!("with {} relations", relations.len())));
        assert!(text.contains(&relations[..SHOWN_RELATIONS].join(", ")));
        assert!(!text.contains(&relations[..=SHOWN_RELATIONS].join(", ")));
        let more = format!(" and {} more", relations.len() - SHOWN_RELATIONS);
        assert!(text.ends_with(&more), "{text}");
        let kayles = misere::quotient(&"kayles".parse().unwrap(), 30, &limits).unwrap();
        assert_eq!(brief_presentation(&kayles), kayles.presentation());
    }

    /// Within the web server's budget (500 000 positions), misère Kayles'
    /// quotient covers large heaps: its verification at heap 37 stores
    /// 378 099 states, more than half that budget. A heap of 80 is past
    /// search, so the race goes to the quotient.
    #[test]
    fn misere_kayles_quotient_fits_the_server_budget() {
        let g = game("kayles");
        let server = Limits::states(500_000);
        let v = g
            .closed_form_within(&vec![80], Convention::Misere, server)
            .unwrap()
            .expect("a misère verdict");
        let race = race_of(&v);
        assert_eq!(race.answered_by, RaceMethod::Quotient, "{race:?}");
        assert_eq!(race.quotient_order, 40);
        assert!(race.quotient_heaps >= 80, "{race:?}");
    }

    /// A quotient that stopped at a hard limit keeps the heaps it verified,
    /// and is not run again for heaps that far within no larger bounds;
    /// larger bounds run it. Misère Dawson's Kayles stops at heap 28 with
    /// 100 000 positions, and search cannot finish four heaps of 30 within
    /// them either.
    #[test]
    fn a_quotient_that_stopped_is_not_run_again_within_the_same_bounds() {
        let g = game("dawson");
        let small = Limits::states(100_000);
        let position = vec![30, 30, 30, 30];
        let turns = |g: &TakeBreakGame| g.misere.lock().unwrap().turns;
        let err = g
            .closed_form_within(&position, Convention::Misere, small)
            .unwrap_err();
        let SolveError::Unresolved { limit, reason } = &err else {
            panic!("{err}");
        };
        assert_eq!(**limit, SolveError::StateLimit { limit: 100_000 });
        assert!(reason.contains("while adding heap 28"), "{reason}");
        assert!(reason.contains("verified for heaps 1 to 27"), "{reason}");
        assert_eq!(g.misere.lock().unwrap().heaps(), 27);
        let before = turns(&g);
        assert!(before >= 1);
        // The same bounds: the quotient does not run, and says why.
        let err = g
            .closed_form_within(&position, Convention::Misere, small)
            .unwrap_err();
        assert!(
            err.to_string().contains("stopped before at heap 28"),
            "{err}"
        );
        assert_eq!(turns(&g), before);
        // Heaps it verified are answered by it at once.
        let v = g
            .closed_form_within(&vec![27, 27, 26], Convention::Misere, small)
            .unwrap()
            .unwrap();
        assert_eq!(race_of(&v).quotient.status, RaceStatus::Kept);
        assert_eq!(turns(&g), before);
        // Larger bounds run it again (and stop again, later or not).
        let larger = Limits::states(200_000);
        let _ = g.closed_form_within(&position, Convention::Misere, larger);
        assert!(turns(&g) > before);
    }

    #[test]
    fn closed_forms_agree_with_search() {
        for spec in [
            "subtraction:1,2,3",
            "subtraction:1,2",
            "subtraction:2,5",
            "subtraction:squares",
            "modular:3:1,2",
            "kayles",
            "dawson",
            "officers",
            "grundy-game",
            "octal:4.07",
            "octal:0.F",
        ] {
            let g = game(spec);
            let positions: Vec<Vec<u64>> = (1..=2).flat_map(|k| all_tuples(k, 9)).collect();
            let checked = closed_form_agrees_with_search(&g, positions)
                .unwrap_or_else(|e| panic!("{spec}: {e}"));
            assert!(checked >= 110, "{spec}: {checked}");
        }
        // Three heaps for Wikipedia's S(1..k) rule, both conventions.
        for k in 1..=3u64 {
            let set: Vec<String> = (1..=k).map(|x| x.to_string()).collect();
            let g = game(&format!("subtraction:{}", set.join(",")));
            let checked = closed_form_agrees_with_search(&g, all_tuples(3, 8)).unwrap();
            assert_eq!(checked, 2 * 729);
        }
    }

    /// Misère play by the quotient: the outcome and the exact winning moves
    /// of every sum of up to three heaps agree with plain search.
    #[test]
    fn misere_quotient_verdicts_agree_with_search() {
        for spec in [
            "kayles",
            "dawson",
            "octal:0.137",
            "octal:0.75",
            "grundy-game",
            "subtraction:1,3,4",
        ] {
            let g = game(spec);
            // Before the quotient is learnt, search settles small positions.
            let v = g.closed_form(&vec![3, 4], Convention::Misere).unwrap();
            assert_eq!(race_of(&v).answered_by, RaceMethod::Search, "{spec}");
            learn(&g, 8, Limits::default()).expect("a quotient to 8");
            let positions: Vec<Vec<u64>> = (1..=3).flat_map(|k| all_tuples(k, 8)).collect();
            let misere = positions
                .iter()
                .filter(|p| {
                    let v = g.closed_form(p, Convention::Misere).unwrap();
                    race_of(&v).answered_by == RaceMethod::Quotient
                })
                .count();
            assert_eq!(
                misere,
                positions.len(),
                "{spec}: the quotient covers every position"
            );
            closed_form_agrees_with_search(&g, positions).unwrap_or_else(|e| panic!("{spec}: {e}"));
        }
        // A sum of large heaps of a game with a finite, proven quotient
        // answers at once: misère 0.75 has period 4 in its images.
        let g = game("octal:0.75");
        let v = g
            .closed_form(&vec![1_000_001, 999_998, 4_321], Convention::Misere)
            .expect("a proven quotient covers every heap");
        assert!(v.theorem.contains("every heap size"), "{}", v.theorem);
    }

    #[test]
    fn seed_subtraction_rule() {
        // A single heap of n in S(1..k): the second player wins iff
        // n ≡ 0 (mod k+1) in normal play, n ≡ 1 in misère play.
        for k in 1..=4u64 {
            let set: Vec<String> = (1..=k).map(|x| x.to_string()).collect();
            let g = game(&format!("subtraction:{}", set.join(",")));
            for n in 0..40u64 {
                let normal = g.closed_form(&vec![n], Convention::Normal).unwrap();
                assert_eq!(
                    normal.outcome == Outcome::P,
                    n % (k + 1) == 0,
                    "k={k} n={n}"
                );
                let misere = g.closed_form(&vec![n], Convention::Misere).unwrap();
                assert_eq!(
                    misere.outcome == Outcome::P,
                    n % (k + 1) == 1,
                    "k={k} n={n}"
                );
            }
            // "If this makes all the heaps of size zero (in misère play), the
            // winning move is to take k objects from one of the heaps."
            let heaps = vec![k + 1, 2 * (k + 1)];
            let v = g.closed_form(&heaps, Convention::Misere).unwrap();
            assert_eq!(v.outcome, Outcome::N);
            assert!(
                v.winning_moves.iter().all(|m| m.take == k),
                "{:?}",
                v.winning_moves
            );
        }
    }

    #[test]
    fn moves_split_in_place_and_parse() {
        let k = game("kayles");
        let heaps = vec![5, 3];
        let mv = k.parse_move(&heaps, "A 1 2+2").unwrap();
        assert_eq!(k.apply(&heaps, &mv), vec![2, 2, 3]);
        let mv = k.parse_move(&heaps, "take 2 from A").unwrap();
        assert_eq!(k.apply(&heaps, &mv), vec![3, 3]);
        let mv = k.parse_move(&heaps, "B all").unwrap_err();
        assert!(mv.problem.contains("may take 1, 2"), "{}", mv.problem);
        let gg = game("grundy-game");
        let mv = gg.parse_move(&vec![6], "A 5+1").unwrap();
        assert_eq!(gg.apply(&vec![6], &mv), vec![1, 5]);
        assert!(gg.parse_move(&vec![6], "A 3+3").is_err());
        assert!(
            gg.parse_move(&vec![6], "A 2+3")
                .unwrap_err()
                .problem
                .contains("leaves 6")
        );
    }

    #[test]
    fn huge_heaps_use_a_proven_period() {
        let k = game("kayles");
        let big = MAX_HEAP_MANY_MOVES - 1;
        let v = k.closed_form(&vec![big, 5], Convention::Normal).unwrap();
        // Kayles has period 12 from 71: G(n) = G(71 + (n - 71) mod 12).
        let small = 71 + (big - 71) % 12;
        let w = k.closed_form(&vec![small, 5], Convention::Normal).unwrap();
        assert_eq!(v.grundy, w.grundy);
        // Every winning move of the big row is found: each leaves XOR 0.
        assert!(!v.winning_moves.is_empty());
        for m in &v.winning_moves {
            let after = k.apply(&vec![big, 5], m);
            assert!(
                k.closed_form(&after, Convention::Normal)
                    .unwrap()
                    .grundy
                    .unwrap()
                    .is_zero()
            );
        }
        // No proven period: refused rather than guessed, with the reason.
        let err = game("grundy-game")
            .closed_form_within(&vec![500_000], Convention::Normal, Limits::default())
            .unwrap_err();
        assert!(err.to_string().contains("no proven period"), "{err}");
        // Games that split a heap in three or take any residue list every
        // move of a heap: a position error naming the bound.
        for spec in ["octal:0.8", "modular:3:1,2"] {
            let err = game(spec).parse_position("2000000").unwrap_err();
            assert!(err.to_string().contains("at most 1000000"), "{spec}: {err}");
        }
        // Games that split in two take heaps up to 10^18, by the period.
        assert!(k.parse_position("2000000").is_ok());
        let err = k.parse_position("1000000000000000001").unwrap_err();
        assert!(
            err.to_string().contains("at most 1000000000000000000"),
            "{err}"
        );
        // Subtraction games have few moves per heap: any u64 heap.
        let s = game("subtraction:1,2,3");
        let v = s.closed_form(&vec![u64::MAX], Convention::Normal).unwrap();
        assert_eq!(v.grundy, Some(Nimber(u64::MAX % 4)));
    }

    /// The winning moves of heaps too large to examine one by one are
    /// counted class by class. Against every move of the heap examined
    /// one by one (a heap just past the bound still allows it): the same
    /// total, and the listed moves are the first ones of the full list.
    #[test]
    fn large_heaps_count_their_winning_moves_by_class() {
        let mut checked = 0;
        for spec in ["kayles", "dawson", "octal:0.137", "octal:0.15", "octal:4.7"] {
            let g = game(spec);
            for (n, others) in [
                (MAX_HEAP_MANY_MOVES + 1, vec![5u64]),
                (MAX_HEAP_MANY_MOVES + 2, vec![7, 3]),
                (MAX_HEAP_MANY_MOVES + 35, vec![]),
                (MAX_HEAP_MANY_MOVES + 60, vec![1, 2]),
            ] {
                let position: Vec<u64> = [n].iter().chain(&others).copied().collect();
                let Ok(Some(v)) =
                    g.closed_form_within(&position, Convention::Normal, Limits::default())
                else {
                    // No proven period: nothing to count.
                    continue;
                };
                let total = v.grundy.unwrap();
                let brute: Vec<SplitMove> = g
                    .with_values(n, |value, _| {
                        let mut out = Vec::new();
                        for (heap, &h) in position.iter().enumerate() {
                            for (take, parts) in g.heap_moves(h) {
                                let after: Nimber = total
                                    + value(h)
                                    + parts.iter().map(|&p| value(p)).sum::<Nimber>();
                                if after.is_zero() {
                                    out.push(SplitMove { heap, take, parts });
                                }
                            }
                        }
                        out
                    })
                    .unwrap();
                let listed = brute.len().min(LISTED_BY_PERIOD);
                assert_eq!(
                    v.winning_moves.len() + v.details.unlisted_winning,
                    brute.len(),
                    "{spec} {position:?}"
                );
                let first_difference = v.winning_moves.iter().zip(&brute).position(|(a, b)| a != b);
                assert_eq!(first_difference, None, "{spec} {position:?}");
                assert_eq!(v.winning_moves.len(), listed, "{spec} {position:?}");
                checked += 1;
            }
        }
        assert!(
            checked >= 12,
            "only {checked} positions had a proven period"
        );
        // Misère Kayles, by its quotient's periodic heap images.
        let k = game("kayles");
        for position in [
            vec![MAX_HEAP_MANY_MOVES + 1, 5, 7],
            vec![MAX_HEAP_MANY_MOVES + 6],
            vec![MAX_HEAP_MANY_MOVES + 11, 4],
        ] {
            let v = k
                .closed_form_within(&position, Convention::Misere, Limits::default())
                .unwrap()
                .expect("misère Kayles' quotient is proven");
            let q = learn(&k, position[0], Limits::default()).unwrap();
            let mut brute = Vec::new();
            for (heap, &h) in position.iter().enumerate() {
                for (take, parts) in k.heap_moves(h) {
                    let m = SplitMove { heap, take, parts };
                    if q.is_p_position(&k.apply(&position, &m)) == Some(true) {
                        brute.push(m);
                    }
                }
            }
            let listed = brute.len().min(LISTED_BY_PERIOD);
            assert_eq!(
                v.winning_moves.len() + v.details.unlisted_winning,
                brute.len()
            );
            let first_difference = v.winning_moves.iter().zip(&brute).position(|(a, b)| a != b);
            assert_eq!(first_difference, None, "{position:?}");
            assert_eq!(v.winning_moves.len(), listed, "{position:?}");
        }
    }

    /// A move's legality, checked without listing a heap's moves, agrees
    /// with the list, for every rule kind.
    #[test]
    fn legality_agrees_with_the_move_list() {
        for spec in [
            "kayles",
            "octal:0.137",
            "octal:0.8",
            "octal:4.7",
            "grundy-game",
            "subtraction:1,3,4",
            "subtraction:squares",
            "modular:3:1,2",
        ] {
            let g = game(spec);
            for n in 0..=13u64 {
                let list = g.heap_moves(n);
                let mut allowed = 0;
                for take in 0..=n + 1 {
                    for parts in sorted_parts(n.saturating_sub(take), 3) {
                        let legal = g.heap_allows(n, take, &parts);
                        assert_eq!(
                            legal,
                            list.contains(&(take, parts.clone())),
                            "{spec}: heap {n}, take {take}, leave {parts:?}"
                        );
                        allowed += usize::from(legal);
                    }
                }
                assert_eq!(allowed, list.len(), "{spec}: heap {n}");
                let takes: std::collections::BTreeSet<u64> = list.iter().map(|(t, _)| *t).collect();
                assert_eq!(g.heap_takes(n), takes, "{spec}: heap {n}");
                // Parts out of order, empty, or summing wrong never are.
                assert!(!g.heap_allows(n, 1, &[n, 0]));
                assert!(!g.heap_allows(n, 0, &[n + 1]));
                if n >= 4 {
                    assert!(!g.heap_allows(n, 1, &[2, 1]));
                }
            }
        }
    }

    /// Every sorted list of at most `len` positive parts with sum `total`.
    fn sorted_parts(total: u64, len: usize) -> Vec<Vec<u64>> {
        let mut out = Vec::new();
        fn go(left: u64, min: u64, len: usize, cur: &mut Vec<u64>, out: &mut Vec<Vec<u64>>) {
            if left == 0 {
                out.push(cur.clone());
                return;
            }
            if len == 0 {
                return;
            }
            for p in min..=left {
                cur.push(p);
                go(left - p, p, len - 1, cur, out);
                cur.pop();
            }
        }
        go(total, 1, len, &mut Vec::new(), &mut out);
        out
    }

    /// The outcome alone agrees with the full verdict's, in both
    /// conventions, on every sum of up to three heaps of up to 9.
    #[test]
    fn the_outcome_alone_agrees_with_the_verdict() {
        let limits = Limits::default();
        for spec in [
            "kayles",
            "dawson",
            "octal:0.137",
            "grundy-game",
            "subtraction:1,2,3",
            "subtraction:1,3,4",
        ] {
            let g = game(spec);
            // Misère positions go by the quotient kept, or by the race.
            learn(&g, 9, limits);
            let mut by_quotient = 0;
            for a in 0..=9u64 {
                for b in a..=9 {
                    for c in b..=9 {
                        let position = vec![a, b, c];
                        for convention in [Convention::Normal, Convention::Misere] {
                            let alone = g
                                .closed_outcome_within(&position, convention, limits)
                                .unwrap();
                            let verdict =
                                g.closed_form_within(&position, convention, limits).unwrap();
                            assert_eq!(
                                alone,
                                verdict.map(|v| v.outcome),
                                "{spec} {position:?} {convention:?}"
                            );
                            if convention == Convention::Misere && alone.is_some() {
                                by_quotient += 1;
                            }
                        }
                    }
                }
            }
            assert_eq!(by_quotient, 220, "{spec}");
        }
    }
}
