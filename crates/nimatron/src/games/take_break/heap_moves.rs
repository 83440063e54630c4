//! The moves of one heap: listed, tested without listing, sampled, and,
//! for a heap too large to list (a game that splits a heap in at most two),
//! the winning ones counted class by class through a proven period.

use super::*;

/// The winning moves of one heap (see `winning_heap_moves`).
#[derive(Default)]
pub(super) struct HeapWins {
    /// Those listed, as (take, parts).
    pub(super) listed: Vec<(u64, Vec<u64>)>,
    /// How many there are in all.
    pub(super) total: u64,
    /// For a heap above [`MAX_HEAP_MANY_MOVES`], its splits counted by class.
    pub(super) families: Vec<SplitFamily>,
}

/// The splits of a large heap that take `take` and leave `a` and `b`, `a`
/// from `from` to `to`: they win exactly when `a mod period` is one of
/// `residues` (`count` of them).
pub(super) struct SplitFamily {
    pub(super) take: u64,
    pub(super) from: u64,
    pub(super) to: u64,
    pub(super) period: u64,
    pub(super) residues: Vec<u64>,
    pub(super) count: u64,
}

impl HeapWins {
    /// The explanation's sentences for a large heap: which splits win.
    pub(super) fn describe(&self, name: &str, n: u64, what: &str, pre: u64, per: u64) -> String {
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

/// "1", "1 or 2", "1, 2 or 3".
pub(super) fn join_or(items: &[String]) -> String {
    match items {
        [] => String::new(),
        [one] => one.clone(),
        [rest @ .., last] => format!("{} or {last}", rest.join(", ")),
    }
}

impl TakeBreakGame {
    /// Whether a heap of n has about n moves (or more).
    pub(super) fn many_moves(&self) -> bool {
        match &self.rule {
            Rule::TakeBreak(rule) => !rule.split_two.is_empty() || !rule.split_three.is_empty(),
            Rule::Squares => false,
            Rule::Modular { .. } => true,
        }
    }

    /// Whether a heap of `n` has a move, without listing them.
    pub(super) fn heap_has_move(&self, n: u64) -> bool {
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
    pub(super) fn heap_moves(&self, n: u64) -> Vec<(u64, Vec<u64>)> {
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
    pub(super) fn splits_by_period(&self) -> bool {
        matches!(&self.rule, Rule::TakeBreak(rule) if rule.split_three.is_empty())
            && self.many_moves()
    }

    /// Whether taking `take` from a heap of `n` may leave `parts` (sorted,
    /// none of them empty), without listing the heap's moves.
    pub(super) fn heap_allows(&self, n: u64, take: u64, parts: &[u64]) -> bool {
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
    pub(super) fn heap_takes(&self, n: u64) -> std::collections::BTreeSet<u64> {
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
    pub(super) fn sampled_moves(&self, position: &[u64], limit: usize) -> Vec<SplitMove> {
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
    pub(super) fn winning_heap_moves(
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
