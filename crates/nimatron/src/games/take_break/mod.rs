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

mod heap_moves;
mod longest;
mod misere_play;
mod syntax;
#[cfg(test)]
mod tests;

use longest::LongestPlay;
use misere_play::column_width;
use syntax::{parse_split_move, split_move_syntax};

use std::fmt::Write as _;
use std::sync::Mutex;

use crate::games::heaps;
use crate::heap_notation;
use crate::heap_notation::heap_name;
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

    /// Whether this is a subtraction game S(1..k), and its k.
    fn consecutive_subtraction(&self) -> Option<u64> {
        match &self.game {
            HeapGame::Subtraction(set) if set.iter().copied().eq(1..=set.len() as u64) => {
                Some(set.len() as u64)
            }
            _ => None,
        }
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
        let heaps = heap_notation::parse_heaps(text, POSITION_SYNTAX)?;
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
        heap_notation::format_heaps(position)
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
        heap_notation::render_heaps(position)
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
