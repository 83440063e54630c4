//! Generic solvers for any [`Rules`]: Grundy values by memoised mex,
//! outcome search for either convention, and remoteness. Both keep a transposition table
//! over canonical positions, walk the game tree with an explicit stack (deep
//! games cannot overflow the call stack), and stop with
//! [`SolveError::StateLimit`] rather than exhaust memory.

use std::collections::HashMap;
use std::fmt;
use std::time::{Duration, Instant};

use crate::{Convention, Nimber, Outcome, Rules, mex};

mod remoteness;

pub use remoteness::RemotenessSearch;

/// A way to stop a long computation from outside: a function the solvers
/// call now and then (with their clock checks, every few thousand steps at
/// most), which returns `true` to ask them to stop. They then stop with
/// [`SolveError::Interrupted`] (or the computation's own `Interrupted`
/// error), leaving their tables as they would after any other limit.
///
/// The library itself never stops on its own: a front end supplies the
/// function (the Python package's checks for Ctrl-C). It is called on the
/// thread that runs the computation, so it may keep its state per thread.
///
/// ```
/// use std::sync::atomic::{AtomicBool, Ordering};
/// use nimatron::{Interrupt, Limits};
///
/// static STOP: AtomicBool = AtomicBool::new(false);
/// let limits = Limits::default().with_interrupt(Interrupt::new(|| STOP.load(Ordering::Relaxed)));
/// assert!(!limits.interrupted());
/// STOP.store(true, Ordering::Relaxed);
/// assert!(limits.interrupted());
/// ```
#[derive(Clone, Copy)]
pub struct Interrupt(fn() -> bool);

impl Interrupt {
    /// An interrupt that asks `stop` whether to stop.
    pub const fn new(stop: fn() -> bool) -> Interrupt {
        Interrupt(stop)
    }

    /// Whether the computation should stop now.
    pub fn requested(self) -> bool {
        (self.0)()
    }
}

impl PartialEq for Interrupt {
    fn eq(&self, other: &Interrupt) -> bool {
        std::ptr::fn_addr_eq(self.0, other.0)
    }
}

impl Eq for Interrupt {}

impl fmt::Debug for Interrupt {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Interrupt(..)")
    }
}

/// Bounds on a solver's work.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    /// The most positions a solver may store: those in its table, and the
    /// options waiting on its stack. A position of many parts counts as
    /// several ([`Rules::footprint`]: a row of heaps counts one for every
    /// 8 heaps), so the limit bounds memory. Raise it for bigger searches;
    /// each position counted costs roughly 100 bytes.
    pub max_states: usize,
    /// The longest one solve may run, if bounded.
    pub max_time: Option<Duration>,
    /// Asked now and then whether to stop early (see [`Interrupt`]).
    pub interrupt: Option<Interrupt>,
}

impl Limits {
    /// The default state limit: enough for every small position, well
    /// within memory.
    pub const DEFAULT_MAX_STATES: usize = 5_000_000;

    /// A state limit and no time limit.
    pub const fn states(max_states: usize) -> Limits {
        Limits {
            max_states,
            max_time: None,
            interrupt: None,
        }
    }

    /// The same limits with a time limit added.
    pub const fn with_time(self, max_time: Duration) -> Limits {
        Limits {
            max_time: Some(max_time),
            ..self
        }
    }

    /// The same limits, stopping early when `interrupt` asks.
    pub const fn with_interrupt(self, interrupt: Interrupt) -> Limits {
        Limits {
            interrupt: Some(interrupt),
            ..self
        }
    }

    /// Whether the interrupt (if any) asks to stop now.
    pub fn interrupted(&self) -> bool {
        self.interrupt.is_some_and(Interrupt::requested)
    }

    /// Start counting work against these limits.
    pub fn budget(self) -> Budget {
        Budget {
            limits: self,
            started: Instant::now(),
            ticks: 0,
        }
    }
}

impl Default for Limits {
    fn default() -> Limits {
        Limits::states(Limits::DEFAULT_MAX_STATES)
    }
}

/// Work done so far against [`Limits`]: positions stored, and time.
#[derive(Clone, Debug)]
pub struct Budget {
    limits: Limits,
    started: Instant,
    ticks: u32,
}

impl Budget {
    /// Check before storing one more position, when `stored` are stored.
    pub fn check(&mut self, stored: usize) -> Result<(), SolveError> {
        if stored >= self.limits.max_states {
            return Err(SolveError::StateLimit {
                limit: self.limits.max_states,
            });
        }
        self.check_time()
    }

    /// Check the clock and the interrupt (every 16th call; reading the
    /// clock costs tens of nanoseconds, and one expansion of a big position
    /// can take far longer).
    pub fn check_time(&mut self) -> Result<(), SolveError> {
        self.ticks = self.ticks.wrapping_add(1);
        if self.ticks.is_multiple_of(16) {
            if let Some(max) = self.limits.max_time
                && self.started.elapsed() > max
            {
                return Err(SolveError::TimeLimit {
                    millis: max.as_millis() as u64,
                });
            }
            if self.limits.interrupted() {
                return Err(SolveError::Interrupted);
            }
        }
        Ok(())
    }
}

/// The footprint of `positions` (see [`Rules::footprint`]).
fn weight<R: Rules>(rules: &R, positions: &[R::Position]) -> usize {
    positions.iter().map(|p| rules.footprint(p)).sum()
}

/// Why a solver gave up.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SolveError {
    /// The transposition table reached its limit before the answer.
    StateLimit {
        /// The limit that was reached.
        limit: usize,
    },
    /// The search ran out of time before the answer.
    TimeLimit {
        /// The time limit, in milliseconds.
        millis: u64,
    },
    /// The position is beyond what this game's method can value; the
    /// reason says what the bound is and what to do instead.
    TooLarge {
        /// Why, in words.
        reason: String,
    },
    /// The [`Interrupt`] of the limits asked the search to stop.
    Interrupted,
    /// Misère play of a heap game: neither its misère quotient nor a plain
    /// search reached the answer within the limits. The reason says how far
    /// each got (the heaps the quotient is verified for, the positions the
    /// search stored).
    Unresolved {
        /// The limit that ended the work: [`SolveError::StateLimit`] when
        /// the search filled its table (the quotient stopped too), else
        /// [`SolveError::TimeLimit`].
        limit: Box<SolveError>,
        /// What each method reached, in words.
        reason: String,
    },
}

impl fmt::Display for SolveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SolveError::StateLimit { limit } => write!(
                f,
                "the search stopped at its limit of {limit} positions without an answer"
            ),
            SolveError::TimeLimit { millis } => write!(
                f,
                "the search stopped at its time limit of {} s without an answer",
                *millis as f64 / 1000.0
            ),
            SolveError::TooLarge { reason } | SolveError::Unresolved { reason, .. } => {
                f.write_str(reason)
            }
            SolveError::Interrupted => f.write_str("the search was interrupted"),
        }
    }
}

impl std::error::Error for SolveError {}

/// Grundy values under normal play, for any [`Rules`].
///
/// The value of a position is the XOR of its components' values; the value
/// of a component is the mex of its options' values.
pub struct GrundySolver<'r, R: Rules> {
    rules: &'r R,
    limits: Limits,
    memo: HashMap<R::Position, Nimber>,
    /// The footprint of the states this solver added: the limit counts
    /// new states.
    added: usize,
    budget: Budget,
}

impl<'r, R: Rules> GrundySolver<'r, R> {
    /// A solver with an empty table.
    pub fn new(rules: &'r R, limits: Limits) -> Self {
        GrundySolver {
            rules,
            limits,
            memo: HashMap::new(),
            added: 0,
            budget: limits.budget(),
        }
    }

    /// A solver that starts from a table kept from earlier work.
    pub fn with_table(rules: &'r R, limits: Limits, memo: HashMap<R::Position, Nimber>) -> Self {
        GrundySolver {
            rules,
            limits,
            memo,
            added: 0,
            budget: limits.budget(),
        }
    }

    /// The table, to keep for later.
    pub fn into_table(self) -> HashMap<R::Position, Nimber> {
        self.memo
    }

    /// How many component values are stored.
    pub fn states(&self) -> usize {
        self.memo.len()
    }

    /// The footprint ([`Rules::footprint`]) of the states this run added to
    /// its table, the measure its state limit goes by.
    pub fn added_footprint(&self) -> usize {
        self.added
    }

    /// Change the limit (for example, to raise it and try again).
    pub fn set_limits(&mut self, limits: Limits) {
        self.limits = limits;
        self.budget = limits.budget();
    }

    /// The Grundy value of `position`.
    pub fn grundy(&mut self, position: &R::Position) -> Result<Nimber, SolveError> {
        let mut total = Nimber::ZERO;
        for component in self.rules.components(position) {
            // Even a component already known costs a canonical form.
            self.budget.check_time()?;
            total += self.component(&component)?;
        }
        Ok(total)
    }

    /// The value of a position if every component is already known.
    fn known(&self, position: &R::Position) -> Result<Nimber, R::Position> {
        let mut total = Nimber::ZERO;
        for component in self.rules.components(position) {
            let key = self.rules.canonical(&component);
            match self.memo.get(&key) {
                Some(&v) => total += v,
                None => return Err(key),
            }
        }
        Ok(total)
    }

    fn component(&mut self, component: &R::Position) -> Result<Nimber, SolveError> {
        let root = self.rules.canonical(component);
        if let Some(&v) = self.memo.get(&root) {
            return Ok(v);
        }
        struct Frame<P> {
            key: P,
            options: Vec<P>,
            next: usize,
            values: Vec<Nimber>,
        }
        let options = self.rules.options(&root);
        // Options waiting on the stack count as stored positions (see
        // `RemotenessSearch::value`).
        let mut held = weight(self.rules, &options);
        let mut stack: Vec<Frame<R::Position>> = vec![Frame {
            options,
            key: root.clone(),
            next: 0,
            values: Vec::new(),
        }];
        while let Some(top) = stack.last_mut() {
            if top.next == top.options.len() {
                let value = mex(top.values.iter().copied());
                let frame = stack.pop().expect("non-empty");
                held -= weight(self.rules, &frame.options);
                self.budget.check(self.added + held)?;
                self.added += self.rules.footprint(&frame.key);
                self.memo.insert(frame.key, value);
                continue;
            }
            // Valuing an option canonicalises each of its components, which
            // for a big graph costs far more than reading the clock: count
            // it against the time limit even when every component is known.
            self.budget.check_time()?;
            match self.known(&top.options[top.next]) {
                Ok(v) => {
                    top.values.push(v);
                    top.next += 1;
                }
                Err(missing) => {
                    let options = self.rules.options(&missing);
                    held += weight(self.rules, &options);
                    self.budget.check(self.added + held)?;
                    stack.push(Frame {
                        key: missing,
                        options,
                        next: 0,
                        values: Vec::new(),
                    });
                }
            }
        }
        Ok(self.memo[&root])
    }
}

/// Outcome search under either convention, for any [`Rules`].
///
/// Under normal play with components it is faster to use [`GrundySolver`];
/// this search treats the position as a whole, which misère play needs.
pub struct OutcomeSearch<'r, R: Rules> {
    rules: &'r R,
    convention: Convention,
    limits: Limits,
    /// Canonical position → whether the player to move wins.
    memo: HashMap<R::Position, bool>,
    /// The footprint of the states this search added: the limit counts
    /// new states.
    added: usize,
    budget: Budget,
}

impl<'r, R: Rules> OutcomeSearch<'r, R> {
    /// A search with an empty table.
    pub fn new(rules: &'r R, convention: Convention, limits: Limits) -> Self {
        OutcomeSearch {
            rules,
            convention,
            limits,
            memo: HashMap::new(),
            added: 0,
            budget: limits.budget(),
        }
    }

    /// A search that starts from a table kept from earlier work (for the
    /// same convention).
    pub fn with_table(
        rules: &'r R,
        convention: Convention,
        limits: Limits,
        memo: HashMap<R::Position, bool>,
    ) -> Self {
        OutcomeSearch {
            rules,
            convention,
            limits,
            memo,
            added: 0,
            budget: limits.budget(),
        }
    }

    /// The table, to keep for later.
    pub fn into_table(self) -> HashMap<R::Position, bool> {
        self.memo
    }

    /// How many positions are stored.
    pub fn states(&self) -> usize {
        self.memo.len()
    }

    /// The footprint ([`Rules::footprint`]) of the states this run added to
    /// its table, the measure its state limit goes by.
    pub fn added_footprint(&self) -> usize {
        self.added
    }

    /// Change the limit.
    pub fn set_limits(&mut self, limits: Limits) {
        self.limits = limits;
        self.budget = limits.budget();
    }

    /// The convention searched.
    pub fn convention(&self) -> Convention {
        self.convention
    }

    /// The outcome of `position` for the player to move.
    pub fn outcome(&mut self, position: &R::Position) -> Result<Outcome, SolveError> {
        let root = self.rules.canonical(position);
        if let Some(&w) = self.memo.get(&root) {
            return Ok(Outcome::from_to_move_wins(w));
        }
        struct Frame<P> {
            key: P,
            options: Vec<P>,
            next: usize,
        }
        let options = self.canonical_options(&root);
        // Options waiting on the stack count as stored positions (see
        // `RemotenessSearch::value`).
        let mut held = weight(self.rules, &options);
        let mut stack = vec![Frame {
            options,
            key: root.clone(),
            next: 0,
        }];
        while let Some(top) = stack.last_mut() {
            let result = if top.options.is_empty() {
                Some(self.convention == Convention::Misere)
            } else if top.next == top.options.len() {
                Some(false) // every option wins for the opponent
            } else {
                match self.memo.get(&top.options[top.next]) {
                    Some(false) => Some(true), // a move to a lost position
                    Some(true) => {
                        top.next += 1;
                        None
                    }
                    None => {
                        let key = top.options[top.next].clone();
                        self.budget.check_time()?;
                        let options = self.canonical_options(&key);
                        held += weight(self.rules, &options);
                        self.budget.check(self.added + held)?;
                        stack.push(Frame {
                            key,
                            options,
                            next: 0,
                        });
                        None
                    }
                }
            };
            if let Some(wins) = result {
                self.budget.check(self.added + held)?;
                let frame = stack.pop().expect("non-empty");
                held -= weight(self.rules, &frame.options);
                self.added += self.rules.footprint(&frame.key);
                self.memo.insert(frame.key, wins);
            }
        }
        Ok(Outcome::from_to_move_wins(self.memo[&root]))
    }

    fn canonical_options(&self, position: &R::Position) -> Vec<R::Position> {
        let mut options: Vec<R::Position> = self
            .rules
            .options(position)
            .iter()
            .map(|p| self.rules.canonical(p))
            .collect();
        // Duplicates waste work; keep the first of each.
        let mut seen = std::collections::HashSet::with_capacity(options.len());
        options.retain(|p| seen.insert(p.clone()));
        options
    }

    /// Every move from `position` that leaves the opponent lost.
    pub fn winning_moves(&mut self, position: &R::Position) -> Result<Vec<R::Move>, SolveError> {
        let mut winning = Vec::new();
        for mv in self.rules.moves(position) {
            let after = self.rules.apply(position, &mv);
            if self.outcome(&after)? == Outcome::P {
                winning.push(mv);
            }
        }
        Ok(winning)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Nim as plain rules: (heap, take) moves, heaps as components.
    struct PlainNim;
    impl Rules for PlainNim {
        type Position = Vec<u64>;
        type Move = (usize, u64);
        fn moves(&self, p: &Vec<u64>) -> Vec<(usize, u64)> {
            (0..p.len())
                .flat_map(|i| (1..=p[i]).map(move |t| (i, t)))
                .collect()
        }
        fn apply(&self, p: &Vec<u64>, &(i, t): &(usize, u64)) -> Vec<u64> {
            let mut q = p.clone();
            q[i] -= t;
            q
        }
        fn components(&self, p: &Vec<u64>) -> Vec<Vec<u64>> {
            p.iter().filter(|&&h| h > 0).map(|&h| vec![h]).collect()
        }
        fn canonical(&self, p: &Vec<u64>) -> Vec<u64> {
            let mut q: Vec<u64> = p.iter().copied().filter(|&h| h > 0).collect();
            q.sort_unstable();
            q
        }
    }

    #[test]
    fn grundy_of_nim_is_the_nim_sum() {
        let mut solver = GrundySolver::new(&PlainNim, Limits::default());
        for a in 0..6 {
            for b in 0..6 {
                for c in 0..6 {
                    assert_eq!(solver.grundy(&vec![a, b, c]).unwrap(), Nimber(a ^ b ^ c));
                }
            }
        }
    }

    #[test]
    fn search_matches_bouton_in_both_conventions() {
        for convention in [Convention::Normal, Convention::Misere] {
            let mut search = OutcomeSearch::new(&PlainNim, convention, Limits::default());
            for a in 0..5 {
                for b in 0..5 {
                    for c in 0..5 {
                        let p = vec![a, b, c];
                        assert_eq!(
                            search.outcome(&p).unwrap(),
                            crate::nim::outcome(&p, convention),
                            "{convention} {p:?}"
                        );
                    }
                }
            }
        }
    }

    #[test]
    fn deep_games_do_not_overflow_the_stack() {
        /// Take exactly one: a chain 100 000 deep.
        struct Chain;
        impl Rules for Chain {
            type Position = u64;
            type Move = ();
            fn moves(&self, n: &u64) -> Vec<()> {
                if *n > 0 { vec![()] } else { vec![] }
            }
            fn apply(&self, n: &u64, _: &()) -> u64 {
                n - 1
            }
        }
        let mut solver = GrundySolver::new(&Chain, Limits::default());
        assert_eq!(solver.grundy(&100_001).unwrap(), Nimber(1));
        let mut search = OutcomeSearch::new(&Chain, Convention::Misere, Limits::default());
        assert_eq!(search.outcome(&100_001).unwrap(), Outcome::P);
    }

    #[test]
    fn limits_stop_the_search() {
        let limits = Limits::states(10);
        let mut search = OutcomeSearch::new(&PlainNim, Convention::Misere, limits);
        let err = search.outcome(&vec![9, 9, 9, 9]).unwrap_err();
        assert_eq!(err, SolveError::StateLimit { limit: 10 });
        assert!(err.to_string().contains("limit of 10 positions"));
        let mut solver = GrundySolver::new(&PlainNim, limits);
        assert!(solver.grundy(&vec![30]).is_err());
    }

    #[test]
    fn time_limits_stop_the_search() {
        let limits = Limits::states(usize::MAX).with_time(Duration::from_millis(1));
        let mut search = OutcomeSearch::new(&PlainNim, Convention::Misere, limits);
        let err = search.outcome(&vec![9, 9, 9, 9, 9, 9, 9]).unwrap_err();
        assert_eq!(err, SolveError::TimeLimit { millis: 1 });
        assert!(err.to_string().contains("time limit of 0.001 s"), "{err}");
    }

    /// A single Nim heap of 1 000 ends with 1 001 positions in the table,
    /// but a depth-first search holds every option of every position on its
    /// path: about 500 000 at once. Those count against the limit too (a
    /// misère Kayles heap of 20 000 once held 13 GB that way under a limit
    /// of 50 000 positions).
    #[test]
    fn options_waiting_on_the_stack_count_against_the_limit() {
        let limits = Limits::states(10_000);
        let heap = vec![1000];
        let stopped = SolveError::StateLimit { limit: 10_000 };
        let mut solver = GrundySolver::new(&PlainNim, limits);
        assert_eq!(solver.grundy(&heap).unwrap_err(), stopped);
        let mut search = OutcomeSearch::new(&PlainNim, Convention::Misere, limits);
        assert_eq!(search.outcome(&heap).unwrap_err(), stopped);
        let mut remote = remoteness::RemotenessSearch::new(&PlainNim, Convention::Normal, limits);
        assert_eq!(remote.value(&heap).unwrap_err(), stopped);
        // A heap whose whole path fits is still solved by each.
        let heap = vec![100];
        let mut solver = GrundySolver::new(&PlainNim, limits);
        assert_eq!(solver.grundy(&heap).unwrap(), Nimber(100));
        let mut search = OutcomeSearch::new(&PlainNim, Convention::Misere, limits);
        assert_eq!(search.outcome(&heap).unwrap(), Outcome::N);
        let mut remote = remoteness::RemotenessSearch::new(&PlainNim, Convention::Normal, limits);
        assert_eq!(remote.value(&heap).unwrap(), (Outcome::N, 1));
    }

    /// Positions of many parts count as several against the limit
    /// ([`Rules::footprint`]): misère Grundy's game on heaps 3 and 5 000
    /// once took 24 GB under a limit of 5 000 000 positions, each position a
    /// list of hundreds of heaps.
    #[test]
    fn positions_count_by_their_footprint() {
        /// Nim where a position counts one for each heap.
        struct WideNim;
        impl Rules for WideNim {
            type Position = Vec<u64>;
            type Move = (usize, u64);
            fn moves(&self, p: &Vec<u64>) -> Vec<(usize, u64)> {
                PlainNim.moves(p)
            }
            fn apply(&self, p: &Vec<u64>, mv: &(usize, u64)) -> Vec<u64> {
                PlainNim.apply(p, mv)
            }
            fn canonical(&self, p: &Vec<u64>) -> Vec<u64> {
                PlainNim.canonical(p)
            }
            fn footprint(&self, p: &Vec<u64>) -> usize {
                p.len().max(1)
            }
        }
        // Thirty heaps of one (an N-position in misère play: an even number):
        // 31 positions, of footprint 1 + 1 + 2 + ... + 30.
        let ones = vec![1; 30];
        let limits = Limits::states(100);
        let mut plain = OutcomeSearch::new(&PlainNim, Convention::Misere, limits);
        assert_eq!(plain.outcome(&ones).unwrap(), Outcome::N);
        assert_eq!(plain.states(), 31);
        let mut wide = OutcomeSearch::new(&WideNim, Convention::Misere, limits);
        assert_eq!(
            wide.outcome(&ones).unwrap_err(),
            SolveError::StateLimit { limit: 100 }
        );
        let mut remote = remoteness::RemotenessSearch::new(&WideNim, Convention::Misere, limits);
        assert!(remote.value(&ones).is_err());
        let mut wide = OutcomeSearch::new(&WideNim, Convention::Misere, Limits::states(1000));
        assert_eq!(wide.outcome(&ones).unwrap(), Outcome::N);
    }

    /// Valuing a known component still costs its canonical form (for a big
    /// graph, far more than a clock read), so a sum of known components is
    /// counted against the time limit too: a web request once ran for a
    /// second under a limit of 5 ms this way.
    #[test]
    fn time_limits_count_components_already_known() {
        let mut warm = GrundySolver::new(&PlainNim, Limits::default());
        assert_eq!(warm.grundy(&vec![1, 2, 3, 4, 5]).unwrap(), Nimber(1));
        let table = warm.into_table();
        let limits = Limits::states(usize::MAX).with_time(Duration::ZERO);
        let mut solver = GrundySolver::with_table(&PlainNim, limits, table);
        let many: Vec<u64> = (0..64).map(|i| 1 + i % 5).collect();
        let err = solver.grundy(&many).unwrap_err();
        assert_eq!(err, SolveError::TimeLimit { millis: 0 });
    }
}
