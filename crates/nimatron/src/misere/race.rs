//! Misère play of a heap game: the misère quotient and a plain search race
//! against one budget, and the first proven answer is kept.
//!
//! Neither method is always the quicker. Misère Dawson's Kayles `3 36` is
//! settled by a search of a few thousand positions in milliseconds, while
//! its quotient of the heaps up to 36 cannot be finished at all (it passes
//! 500 elements at heap 31); misère Kayles `60 70 80` is past any search,
//! while its quotient, proven for every heap, takes a second or two. So the
//! two take turns, one working while the other waits: the search first,
//! and the quotient whenever a turn leaves it no further ahead of the
//! search in time used, each turn an eighth of the time both have had (4 ms
//! at least). A position that search settles in time `T` is answered in
//! about `2T` at worst; one that the quotient settles in time `Q`, in about
//! `2Q`; and when one method stops at a hard limit (the search's table is
//! full, the quotient outgrows its bounds), the other has what is left of
//! the budget.
//!
//! Nothing is thrown away between turns. The search keeps its stack and
//! goes on where it stopped (see [`super::search`]), and answers every
//! position whose heaps the quotient verified so far from the quotient. The
//! quotient is learnt heap by heap, each heap verified, on a thread of its
//! own that waits where it is between its turns (see [`super::gate`]; it
//! is started at the quotient's first turn, so a position search settles in
//! its first turn starts no thread), so a heap that takes many turns is
//! learnt once. What the quotient reached is kept by the game ([`Kept`])
//! for later positions, so a second position of the same game costs only
//! its new heaps; a race that ends while a heap is being added loses that
//! heap's work alone, and a heap that stopped at a hard limit is not tried
//! again within no larger bounds.

use std::fmt::Write as _;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use crate::analysis::{MisereRace, RaceMethod, RaceRun, RaceStatus};
use crate::sequence::HeapGame;
use crate::solve::{Limits, SolveError};

use super::gate::Gate;
use super::search::HeapSearch;
use super::work::Work;
use super::{MAX_HEAP, MisereQuotient, QuotientError, QuotientLimits, grow, moves};

/// The first turn of each method: short enough that a position search
/// settles at once costs no more.
const FIRST_TURN: Duration = Duration::from_millis(4);

/// A turn is the time both methods have had so far over this (or
/// [`FIRST_TURN`], if longer): small enough that neither runs far ahead
/// of the other, large enough that the turns are few (about this many
/// each time the time spent doubles).
const TURNS_PER_DOUBLING: u32 = 8;

/// The largest heap the search takes. A heap game's heap of `n` has about
/// `n` options (`n²/12` for a game that splits a heap in three), each
/// listed once for every heap size up to the largest; and no search of a
/// heap of thousands ends.
pub(crate) const SEARCH_MAX_HEAP: u64 = 1000;

/// The quotient may store all of an analysis's positions up to this many,
/// and half of a larger budget: a failed turn frees what it stored, and
/// misère Kayles' verification at heap 37 stores 378 099 states, more than
/// half of the server's 500 000.
const QUOTIENT_STATES: usize = 1_000_000;

/// A heap game's misère quotient as learnt so far, and the search's table,
/// kept between analyses.
pub(crate) struct Kept {
    /// The quotient verified for heaps `1..=work.heaps`.
    work: Arc<Work>,
    growth: Vec<(u64, usize)>,
    /// Whether its period is proven, so that it covers every heap.
    proven: bool,
    /// The quotient presented, once asked for.
    presented: Option<Arc<MisereQuotient>>,
    /// A limit that stopped the learning (not a turn's end): the heap it
    /// was adding, the bounds it had and what it said.
    hard_stop: Option<(u64, QuotientLimits, String)>,
    /// The heap a race last ended while adding, and the time it had had
    /// on it (kept in the record, for those who read it).
    stuck: Option<(u64, Duration)>,
    /// The search's table and options, for the next position.
    search: Option<HeapSearch>,
    /// Turns of quotient learning run, for the tests.
    pub(crate) turns: usize,
    /// Heaps added to the quotient in all, for the tests.
    pub(crate) heaps_added: u64,
}

impl Default for Kept {
    fn default() -> Kept {
        Kept {
            work: Arc::new(Work::empty()),
            growth: Vec::new(),
            proven: false,
            presented: None,
            hard_stop: None,
            stuck: None,
            search: None,
            turns: 0,
            heaps_added: 0,
        }
    }
}

impl Kept {
    /// Whether the quotient covers a position whose largest heap is `max`.
    fn covers(&self, max: u64) -> bool {
        self.proven || max <= self.work.heaps as u64
    }

    /// The quotient presented (computed once for each quotient learnt).
    fn presented(&mut self, game: &HeapGame) -> Arc<MisereQuotient> {
        if let Some(q) = &self.presented
            && q.computed_to() == self.work.heaps as u64
        {
            return q.clone();
        }
        let q = Arc::new(MisereQuotient::from_work(
            game,
            self.work.heaps as u64,
            (*self.work).clone(),
            self.growth.clone(),
        ));
        self.presented = Some(q.clone());
        q
    }

    /// Take what a quotient turn reached, if it reached further.
    fn learnt(&mut self, work: &Arc<Work>, growth: &[(u64, usize)], proven: bool) {
        if work.heaps > self.work.heaps || (proven && !self.proven) {
            self.heaps_added += work.heaps.saturating_sub(self.work.heaps) as u64;
            self.work = work.clone();
            self.growth = growth.to_vec();
            self.proven = proven;
            self.presented = None;
        }
    }

    /// The heaps the quotient is verified for (`1..=heaps()`).
    #[cfg(test)]
    pub(crate) fn heaps(&self) -> u64 {
        self.work.heaps as u64
    }

    /// The quotient kept, where its order grew, and whether it is proven.
    pub(super) fn parts(&self) -> (&Work, &[(u64, usize)], bool) {
        (&self.work, &self.growth, self.proven)
    }

    /// Where learning stopped at a hard limit: the heap, the bounds and
    /// what it said.
    pub(super) fn hard_stop(&self) -> Option<(u64, QuotientLimits, String)> {
        self.hard_stop.clone()
    }

    /// The heap a race last ended while adding, and the time it had had
    /// on it.
    pub(super) fn stuck(&self) -> Option<(u64, Duration)> {
        self.stuck
    }

    /// Takes back what was learnt before (from a record): the quotient if
    /// it reaches further than the one kept, and where learning stopped if
    /// nothing is known of that here.
    pub(super) fn take_back(
        &mut self,
        game: &HeapGame,
        work: Work,
        growth: Vec<(u64, usize)>,
        stop: Option<(u64, QuotientLimits, String)>,
        stuck: Option<(u64, Duration)>,
    ) {
        let proven = super::proven_period(game, &work);
        self.learnt(&Arc::new(work), &growth, proven);
        if self.hard_stop.is_none() {
            self.hard_stop = stop;
        }
        if self.stuck.is_none() {
            self.stuck = stuck.filter(|&(h, _)| h as usize > self.work.heaps);
        }
    }

    /// Learns the quotient up to heap `to` (or to where its period is
    /// proven) within `limits`, with no search racing it, and keeps what it
    /// reached.
    #[cfg(test)]
    pub(crate) fn learn(
        &mut self,
        game: &HeapGame,
        to: u64,
        limits: &QuotientLimits,
    ) -> Result<Arc<MisereQuotient>, QuotientError> {
        if !self.covers(to) {
            self.turns += 1;
            let (work, growth, stop) = grow(
                game,
                (*self.work).clone(),
                self.growth.clone(),
                to.min(MAX_HEAP),
                limits,
                &mut |_, _| {},
            );
            let proven = super::proven_period(game, &work);
            self.learnt(&Arc::new(work), &growth, proven);
            if let Some(stop) = stop {
                return Err(stop);
            }
            if !self.covers(to) {
                return Err(QuotientError::TooLarge { to, max: MAX_HEAP });
            }
        }
        Ok(self.presented(game))
    }
}

/// How a race ended.
pub(crate) enum Answer {
    /// By the quotient, which covers the position.
    Quotient(Arc<MisereQuotient>),
    /// By search: whether the position is a misère P-position, and which of
    /// the positions its moves lead to (as given) are.
    Search {
        /// The position is a misère P-position.
        p: bool,
        /// Indices of the moves that leave a P-position.
        winning: Vec<usize>,
    },
}

/// One method's account, while the race runs.
struct Runner {
    time: Duration,
    /// `Some(note)` once it stopped for good.
    stopped: Option<String>,
}

/// Settles misère play of `heaps` in `game` by its quotient or by search,
/// within `limits` (see the module's documentation). `children` lists the
/// positions the moves lead to, when the winning moves are wanted from a
/// search; the quotient finds them itself. `unsearchable` says why the
/// position cannot be searched, where it cannot (too many moves to list).
pub(crate) fn settle(
    game: &HeapGame,
    kept: &Mutex<Kept>,
    heaps: &[u64],
    children: Option<&dyn Fn() -> Vec<Vec<u64>>>,
    unsearchable: Option<String>,
    limits: Limits,
) -> Result<(Answer, MisereRace), SolveError> {
    let started = Instant::now();
    let max = heaps.iter().copied().max().unwrap_or(0);
    let lock = || kept.lock().unwrap_or_else(|e| e.into_inner());
    let (mut work, mut growth, mut proven, hard_stop, stuck, search) = {
        let mut k = lock();
        if k.covers(max) {
            let q = k.presented(game);
            let report = MisereRace {
                answered_by: RaceMethod::Quotient,
                quotient: RaceRun {
                    status: RaceStatus::Kept,
                    millis: started.elapsed().as_millis() as u64,
                    states: None,
                    note: format!("answered at once: {}", scope(&k)),
                },
                search: RaceRun {
                    status: RaceStatus::NotRun,
                    millis: 0,
                    states: None,
                    note: "was not needed".into(),
                },
                quotient_heaps: k.work.heaps as u64,
                quotient_order: k.work.order(),
                quotient_proven: k.proven,
            };
            return Ok((Answer::Quotient(q), report));
        }
        (
            k.work.clone(),
            k.growth.clone(),
            k.proven,
            k.hard_stop.clone(),
            k.stuck,
            k.search.take(),
        )
    };
    let rule = game.rule();
    let deadline = limits.max_time.map(|t| started + t);
    let left = || deadline.map(|d| d.saturating_duration_since(Instant::now()));

    // The search, with the positions it must settle: this one, then those
    // its moves lead to.
    let mut search_runner = Runner {
        time: Duration::ZERO,
        stopped: None,
    };
    let mut queue: Vec<Vec<u16>> = Vec::new();
    let mut search = if let Some(why) = unsearchable {
        search_runner.stopped = Some(format!("did not run: {why}"));
        None
    } else if max > SEARCH_MAX_HEAP {
        search_runner.stopped = Some(format!(
            "did not run: a heap of {max} is beyond what a search can finish (it takes heaps of up to {SEARCH_MAX_HEAP})"
        ));
        None
    } else {
        let mut s = search.unwrap_or_else(|| HeapSearch::new(vec![Vec::new()]));
        // A table that has outgrown half the budget is dropped.
        if s.states() > limits.max_states / 2 {
            s = HeapSearch::new(vec![Vec::new()]);
        }
        let from = s.max_heap() + 1;
        s.add_heaps(
            (from..=max as usize)
                .map(|n| moves::options_of(&rule, n))
                .collect(),
        );
        s.set_base(&work);
        queue.push(s.canonical(heaps).expect("heaps within the search's"));
        if let Some(children) = children {
            for child in children() {
                queue.push(s.canonical(&child).expect("a move leaves smaller heaps"));
            }
        }
        Some(s)
    };
    let mut results: Vec<bool> = Vec::with_capacity(queue.len());

    // The quotient: heaps up to the largest here, or up to where its period
    // is proven (beyond MAX_HEAP only a proven period covers a heap).
    let target = max.min(MAX_HEAP);
    let bounds = QuotientLimits {
        max_order: QuotientLimits::DEFAULT_MAX_ORDER,
        max_states: (limits.max_states / 2).max(limits.max_states.min(QUOTIENT_STATES)),
        max_time: None,
        interrupt: limits.interrupt,
    };
    let mut quotient_runner = Runner {
        time: Duration::ZERO,
        stopped: None,
    };
    if work.heaps as u64 >= target {
        quotient_runner.stopped = Some(format!(
            "cannot reach a heap of {max}: heaps beyond {MAX_HEAP} are covered only by a proven period of the heap images, and none is proven up to heap {MAX_HEAP}"
        ));
    } else if let Some((heap, before, e)) = &hard_stop
        && target >= *heap
        && bounds.max_order <= before.max_order
        && bounds.max_states <= before.max_states
    {
        quotient_runner.stopped = Some(format!(
            "did not run: it stopped before at heap {heap} within no smaller bounds ({e})"
        ));
    }
    let mut new_stop: Option<(u64, QuotientLimits, String)> = None;
    let mut new_stuck = stuck;
    let mut turns = 0usize;
    let mut timed_out = false;
    let mut interrupted = false;
    // The quotient's time on the heap it is adding.
    let mut on_heap = Duration::ZERO;
    let gate = Arc::new(Gate::default());

    let answer = std::thread::scope(|scope| {
        let mut thread = None;
        let answer = loop {
            let left_now = left();
            if left_now.is_some_and(|l| l.is_zero()) {
                timed_out = true;
                break None;
            }
            let search_on = search.is_some() && search_runner.stopped.is_none();
            let quotient_on = quotient_runner.stopped.is_none();
            if !search_on && !quotient_on {
                break None;
            }
            // Turns grow with the time spent, so that there are few of them.
            let turn =
                ((search_runner.time + quotient_runner.time) / TURNS_PER_DOUBLING).max(FIRST_TURN);
            let turn = left_now.map_or(turn, |l| l.min(turn));
            // The quotient goes when a turn leaves it no further ahead than
            // the search.
            let quotient_next =
                quotient_on && (!search_on || quotient_runner.time + turn <= search_runner.time);
            if !quotient_next {
                let s = search.as_mut().expect("the search is on");
                let mut budget = Limits {
                    max_time: if quotient_on { Some(turn) } else { left_now },
                    ..limits
                }
                .budget();
                let t = Instant::now();
                let mut stop = None;
                while results.len() < queue.len() {
                    match s.is_p(&queue[results.len()], &mut budget) {
                        Ok(p) => results.push(p),
                        Err(e) => {
                            stop = Some(e);
                            break;
                        }
                    }
                }
                search_runner.time += t.elapsed();
                match stop {
                    None => break Some(RaceMethod::Search),
                    Some(SolveError::TimeLimit { .. }) => {}
                    Some(SolveError::Interrupted) => {
                        interrupted = true;
                        break None;
                    }
                    Some(e) => {
                        search_runner.stopped = Some(format!("stopped: {e}"));
                    }
                }
                continue;
            }
            // The quotient's turn, on its thread (started at its first turn,
            // so that a position search settles at once costs no thread).
            if thread.is_none() {
                let (g, start, start_growth) = (gate.clone(), (*work).clone(), growth.clone());
                let spawned = std::thread::Builder::new()
                    .name("misère quotient".into())
                    .spawn_scoped(scope, move || {
                        g.run(|| {
                            grow(
                                game,
                                start,
                                start_growth,
                                target,
                                &bounds,
                                &mut |w, growth| g.publish(w, growth),
                            )
                        })
                    });
                match spawned {
                    Ok(handle) => thread = Some(handle),
                    Err(e) => {
                        quotient_runner.stopped =
                            Some(format!("did not run: its thread did not start ({e})"));
                        continue;
                    }
                }
            }
            let length = if search_on {
                turn
            } else {
                left_now.unwrap_or(Duration::from_secs(3600))
            };
            let t = Instant::now();
            turns += 1;
            gate.turn(t + length);
            let took = t.elapsed();
            quotient_runner.time += took;
            on_heap += took;
            let done = gate.done();
            let newest = done
                .as_ref()
                .map(|(w, g, _)| (w.clone(), g.clone()))
                .or_else(|| gate.progress());
            if let Some((next, next_growth)) = newest
                && next.heaps > work.heaps
            {
                on_heap = Duration::ZERO;
                proven = super::proven_period(game, &next);
                work = Arc::new(next);
                growth = next_growth;
                lock().learnt(&work, &growth, proven);
                if let Some(s) = search.as_mut() {
                    s.set_base(&work);
                }
            }
            if proven || work.heaps as u64 >= max {
                break Some(RaceMethod::Quotient);
            }
            match done {
                Some((_, _, None)) => {
                    quotient_runner.stopped = Some(format!(
                        "cannot reach a heap of {max}: heaps beyond {MAX_HEAP} are covered only by a proven period of the heap images, and none is proven up to heap {MAX_HEAP}"
                    ));
                }
                // The race has not ended it: an interrupt.
                Some((_, _, Some(QuotientError::Interrupted { .. }))) => {
                    interrupted = true;
                    break None;
                }
                Some((_, _, Some(e))) => {
                    let heap = match &e {
                        QuotientError::StateLimit { heap, .. }
                        | QuotientError::OrderLimit { heap, .. }
                        | QuotientError::Unbounded { heap, .. }
                        | QuotientError::TimeLimit { heap, .. } => *heap,
                        _ => work.heaps as u64 + 1,
                    };
                    quotient_runner.stopped = Some(format!("stopped: {e}"));
                    new_stop = Some((heap, bounds, e.to_string()));
                }
                // Its thread is gone without an answer: it panicked (the
                // panic is raised again below).
                None if gate.finished() => break None,
                None => {}
            }
        };
        // The race is over: the quotient stops where it is, keeping the
        // heaps it verified.
        gate.end();
        if let Some(handle) = thread
            && let Err(panic) = handle.join()
        {
            std::panic::resume_unwind(panic);
        }
        answer
    });
    if let Some((last, last_growth)) = gate
        .done()
        .map(|(w, g, _)| (w, g))
        .or_else(|| gate.progress())
        && last.heaps > work.heaps
    {
        on_heap = Duration::ZERO;
        proven = super::proven_period(game, &last);
        work = Arc::new(last);
        growth = last_growth;
        lock().learnt(&work, &growth, proven);
    }
    if answer != Some(RaceMethod::Quotient) && !on_heap.is_zero() {
        new_stuck = Some((work.heaps as u64 + 1, on_heap));
    }

    // Keep what was learnt for the next position.
    let states = search.as_ref().map(|s| s.states());
    let presented = {
        let mut k = lock();
        k.turns += turns;
        if new_stop.is_some() {
            k.hard_stop = new_stop;
        }
        if let Some((heap, had)) = new_stuck
            && heap as usize > k.work.heaps
        {
            k.stuck = Some((heap, had));
        }
        // A table that filled its budget is of no more use.
        if search
            .as_ref()
            .is_some_and(|s| s.states() < limits.max_states)
        {
            k.search = search.take();
        }
        let presented = (answer == Some(RaceMethod::Quotient)).then(|| k.presented(game));
        (presented, k.work.heaps as u64, k.work.order(), k.proven)
    };
    let (presented, quotient_heaps, quotient_order, quotient_proven) = presented;
    let search_note = |runner: &Runner| {
        let mut note = match &runner.stopped {
            Some(why) => why.clone(),
            None if answer == Some(RaceMethod::Search) => "answered".into(),
            None => "was unfinished".into(),
        };
        if runner.time > Duration::ZERO {
            let _ = write!(
                note,
                " (after {}, {} positions stored)",
                seconds(runner.time),
                states.unwrap_or(0)
            );
        }
        note
    };
    let covered =
        format!("it is verified for heaps 1 to {quotient_heaps} ({quotient_order} elements)");
    let quotient_note = |runner: &Runner| {
        let mut note = match &runner.stopped {
            Some(why) => format!("{why}; {covered}"),
            None if answer == Some(RaceMethod::Quotient) => {
                format!("answered: {covered}")
            }
            None => format!("was unfinished: {covered}, and the largest heap here is {max}"),
        };
        if runner.time > Duration::ZERO {
            let _ = write!(note, " (it had {})", seconds(runner.time));
        }
        note
    };
    let status = |runner: &Runner, method: RaceMethod| match (&runner.stopped, answer) {
        (_, Some(m)) if m == method => RaceStatus::Answered,
        (Some(_), _) if runner.time.is_zero() => RaceStatus::NotRun,
        (Some(_), _) => RaceStatus::Stopped,
        (None, _) => RaceStatus::Unfinished,
    };
    let report = MisereRace {
        answered_by: answer.unwrap_or(RaceMethod::Search),
        quotient: RaceRun {
            status: status(&quotient_runner, RaceMethod::Quotient),
            millis: quotient_runner.time.as_millis() as u64,
            states: None,
            note: quotient_note(&quotient_runner),
        },
        search: RaceRun {
            status: status(&search_runner, RaceMethod::Search),
            millis: search_runner.time.as_millis() as u64,
            states,
            note: search_note(&search_runner),
        },
        quotient_heaps,
        quotient_order,
        quotient_proven,
    };
    if interrupted {
        return Err(SolveError::Interrupted);
    }
    match answer {
        Some(RaceMethod::Quotient) => Ok((
            Answer::Quotient(presented.expect("presented for its answer")),
            report,
        )),
        Some(RaceMethod::Search) => Ok((
            Answer::Search {
                p: results[0],
                winning: (1..results.len())
                    .filter(|&i| results[i])
                    .map(|i| i - 1)
                    .collect(),
            },
            report,
        )),
        None => {
            let limit = if timed_out {
                SolveError::TimeLimit {
                    millis: limits.max_time.map_or(0, |t| t.as_millis() as u64),
                }
            } else {
                SolveError::StateLimit {
                    limit: limits.max_states,
                }
            };
            let reason = format!(
                "neither method settled this misère position of {game} within the limits{}: the search {}; the misère quotient {}",
                if timed_out {
                    format!(
                        " (the time limit of {} s passed)",
                        limits.max_time.unwrap_or_default().as_secs_f64()
                    )
                } else {
                    String::new()
                },
                report.search.note,
                report.quotient.note
            );
            Err(SolveError::Unresolved {
                limit: Box::new(limit),
                reason,
            })
        }
    }
}

/// What the kept quotient covers, in words.
fn scope(k: &Kept) -> String {
    if k.proven {
        format!(
            "the quotient kept from earlier positions ({} elements) covers every heap (its heap images are proven periodic at heap {})",
            k.work.order(),
            k.work.heaps
        )
    } else {
        format!(
            "the quotient kept from earlier positions ({} elements) is verified for heaps 1 to {}",
            k.work.order(),
            k.work.heaps
        )
    }
}

/// A duration for people: `0.004 s`, `1.25 s`.
fn seconds(d: Duration) -> String {
    let s = d.as_secs_f64();
    if s < 0.01 {
        format!("{s:.3} s")
    } else {
        format!("{s:.2} s")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::misere::tests::Plain;
    use crate::strategy::SplitMix64;

    /// The positions one move from `heaps`, by the engine's option lists.
    fn children(game: &HeapGame, heaps: &[u64]) -> Vec<Vec<u64>> {
        let rule = game.rule();
        let mut out = Vec::new();
        for (i, &h) in heaps.iter().enumerate() {
            for option in moves::options_of(&rule, h as usize) {
                let mut next: Vec<u64> = heaps[..i].to_vec();
                next.extend_from_slice(&heaps[i + 1..]);
                next.extend(option.iter().map(|&x| x as u64));
                out.push(next);
            }
        }
        out
    }

    /// Settles `heaps` and checks the outcome and every winning move against
    /// the plain minimax of the quotient's tests.
    fn check(
        code: &str,
        kept: &Mutex<Kept>,
        heaps: &[u64],
        limits: Limits,
        plain: &mut Plain,
    ) -> Result<MisereRace, SolveError> {
        let game: HeapGame = format!("octal:{code}").parse().unwrap();
        let kids = children(&game, heaps);
        let list = || kids.clone();
        let (answer, race) = settle(&game, kept, heaps, Some(&list), None, limits)?;
        let small = |w: &[u64]| -> Vec<u16> { w.iter().map(|&h| h as u16).collect() };
        let truth = plain.is_p(&small(heaps));
        let winning: Vec<usize> = (0..kids.len())
            .filter(|&i| plain.is_p(&small(&kids[i])))
            .collect();
        match answer {
            Answer::Quotient(q) => {
                assert_eq!(q.is_p_position(heaps), Some(truth), "{code} {heaps:?}");
                for (i, kid) in kids.iter().enumerate() {
                    let p = q.is_p_position(kid).unwrap();
                    assert_eq!(p, winning.contains(&i), "{code} {heaps:?} → {kid:?}");
                }
            }
            Answer::Search { p, winning: found } => {
                assert_eq!(p, truth, "{code} {heaps:?}");
                assert_eq!(found, winning, "{code} {heaps:?}");
            }
        }
        Ok(race)
    }

    /// Random sums of one to four heaps of up to 14, for Kayles, Dawson's
    /// Kayles, 0.137 and Officers, settled by the race and checked against
    /// the plain minimax: under the default limits (either method may
    /// answer), with the quotient held to a few hundred positions (search
    /// answers), and after the quotient is learnt (it answers).
    #[test]
    fn every_answer_of_the_race_agrees_with_the_plain_minimax() {
        let mut rng = SplitMix64::new(57);
        for code in ["0.77", "0.07", "0.137", "0.6"] {
            let mut plain = Plain::new(code);
            let game: HeapGame = format!("octal:{code}").parse().unwrap();
            let positions: Vec<Vec<u64>> = (0..60)
                .map(|_| {
                    let k = 1 + rng.next_u64() % 4;
                    (0..k).map(|_| 1 + rng.next_u64() % 14).collect()
                })
                .collect();
            let (mut by_search, mut by_quotient) = (0, 0);
            for limits in [Limits::default(), Limits::states(300)] {
                let kept = Mutex::new(Kept::default());
                for heaps in &positions {
                    match check(code, &kept, heaps, limits, &mut plain) {
                        Ok(race) if race.answered_by == RaceMethod::Search => by_search += 1,
                        Ok(_) => by_quotient += 1,
                        // The small limits may stop both.
                        Err(SolveError::Unresolved { .. }) if limits.max_states == 300 => {}
                        Err(e) => panic!("{code} {heaps:?}: {e}"),
                    }
                }
            }
            let kept = Mutex::new(Kept::default());
            kept.lock()
                .unwrap()
                .learn(&game, 14, &QuotientLimits::default())
                .unwrap();
            for heaps in &positions {
                let race = check(code, &kept, heaps, Limits::default(), &mut plain).unwrap();
                assert_eq!(race.quotient.status, RaceStatus::Kept, "{code} {heaps:?}");
                by_quotient += 1;
            }
            assert!(
                by_search >= 10 && by_quotient >= 60,
                "{code}: {by_search} {by_quotient}"
            );
        }
    }

    /// Misère Dawson's Kayles `3 36` took 19.6 s and 400 MB, the quotient
    /// spending half the time limit before search began; a search of a
    /// few thousand positions settles it. Now search answers first, and
    /// the quotient has had no more time than the search (give or take a
    /// turn).
    #[test]
    fn dawson_3_36_is_settled_by_search_before_the_quotient_is_learnt() {
        let kept = Mutex::new(Kept::default());
        let mut plain = Plain::new("0.07");
        let limits = Limits::default().with_time(Duration::from_secs(120));
        let race = check("0.07", &kept, &[3, 36], limits, &mut plain).unwrap();
        assert_eq!(race.answered_by, RaceMethod::Search, "{race:?}");
        assert_eq!(race.search.status, RaceStatus::Answered);
        assert_eq!(race.quotient.status, RaceStatus::Unfinished);
        assert!(race.search.states.unwrap() < 100_000, "{race:?}");
        assert!(
            race.quotient.millis <= 2 * race.search.millis + 100,
            "{race:?}"
        );
        assert!(
            race.describe().starts_with("Search answered"),
            "{}",
            race.describe()
        );
    }

    /// A second position of the same game costs only its new heaps: the
    /// quotient learnt for eight heaps of 20 of Dawson's Kayles (past any
    /// quick search) answers for other heaps up to 20 at once, and a heap
    /// of 22 adds heaps 21 and 22 alone.
    #[test]
    fn a_second_position_reuses_the_kept_quotient() {
        let kept = Mutex::new(Kept::default());
        let game: HeapGame = "dawson".parse().unwrap();
        let limits = Limits::default();
        let (_, race) = settle(&game, &kept, &[20; 8], None, None, limits).unwrap();
        assert_eq!(race.answered_by, RaceMethod::Quotient, "{race:?}");
        assert_eq!(race.quotient_heaps, 20);
        let added = kept.lock().unwrap().heaps_added;
        assert_eq!(added, 20);
        let (_, race) = settle(&game, &kept, &[19, 20, 3, 7], None, None, limits).unwrap();
        assert_eq!(race.quotient.status, RaceStatus::Kept, "{race:?}");
        assert_eq!(race.search.status, RaceStatus::NotRun);
        let mut position = vec![20; 7];
        position.push(22);
        let (_, race) = settle(&game, &kept, &position, None, None, limits).unwrap();
        assert_eq!(race.answered_by, RaceMethod::Quotient, "{race:?}");
        assert_eq!(race.quotient_heaps, 22);
        assert_eq!(kept.lock().unwrap().heaps_added, 22);
    }
}
