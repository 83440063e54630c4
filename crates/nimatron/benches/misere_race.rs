//! Benchmark: misère analysis (the misère quotient racing a search) against
//! the plain memoised search, on random positions, in one process.
//!
//! For each game (Kayles, Dawson's Kayles, 0.137, Officers), 200 random
//! positions of 1 to 5 heaps of 1 to 40 (seeded, the same every run). Each
//! position is settled twice, in alternating order: by `analyze` (outcome
//! and every winning move, no remoteness) on one game object kept for the
//! whole run, as the server and the Python package keep it, and by the
//! plain search (`OutcomeSearch`, outcome then every winning move), which
//! keeps its table between positions when it finishes, as `analyze` did
//! before the race. Both have the same limits. Every answer both give is
//! checked to agree (outcome and winning moves).
//!
//! Times are the process's CPU time (`clock_gettime`, every thread's,
//! which other processes on a busy machine do not inflate), with wall time
//! beside; a position that a method cannot settle counts the time it took
//! to stop.
//!
//! `cargo bench -p nimatron --bench misere_race`. Environment:
//! `MISERE_BENCH_GAMES=kayles,dawson` (default: the four),
//! `MISERE_BENCH_COUNT=200` positions per game, `MISERE_BENCH_SECONDS=2`
//! (each method's time limit per position), `MISERE_BENCH_STATES=5000000`,
//! `MISERE_BENCH_SHOW=2` to list each position whose race/plain ratio is
//! over 2 with what each method of the race did,
//! `MISERE_BENCH_FRESH=1` to also run the race on a new game object for
//! each position (a fresh process with no quotient kept),
//! `MISERE_BENCH_POSITIONS="27 18 4 5 37;8"` to settle only these
//! positions of each game, each by a fresh plain search and a fresh race,
//! with what each stored.

use std::collections::HashMap;
use std::time::{Duration, Instant};

use nimatron::SplitMix64;
use nimatron::games::TakeBreakGame;
use nimatron::solve::{Limits, OutcomeSearch};
use nimatron::{
    AnalyzeOptions, Convention, GameSpec, MisereRace, Outcome, PositionValue, RaceMethod,
};

/// The process's CPU time so far: every thread's, those that have ended
/// included (the race may learn the quotient on a thread of its own).
/// `clock_gettime` counts to the nanosecond; `/proc/thread-self/schedstat`,
/// read before, moves only at the scheduler's tick (4 ms here), which made
/// positions settled in a millisecond look 4× slower or faster.
fn cpu_now() -> Duration {
    let mut t = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: `t` is a valid timespec for the call to fill in.
    let ok = unsafe { libc::clock_gettime(libc::CLOCK_PROCESS_CPUTIME_ID, &mut t) } == 0;
    if ok {
        Duration::new(t.tv_sec as u64, t.tv_nsec as u32)
    } else {
        static START: std::sync::OnceLock<Instant> = std::sync::OnceLock::new();
        START.get_or_init(Instant::now).elapsed()
    }
}

/// A method's answer: outcome and winning moves as `(heap, take, to)`.
type Answer = Option<(Outcome, Vec<Vec<u64>>)>;

struct Timed {
    cpu: Duration,
    wall: Duration,
    answer: Answer,
    by: Option<Box<MisereRace>>,
}

fn timed(f: impl FnOnce() -> (Answer, Option<Box<MisereRace>>)) -> Timed {
    let (c, w) = (cpu_now(), Instant::now());
    let (answer, by) = f();
    Timed {
        cpu: cpu_now() - c,
        wall: w.elapsed(),
        answer,
        by,
    }
}

fn env<T: std::str::FromStr>(name: &str, default: T) -> T {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

/// The plain search, keeping its table between positions when it finishes.
struct Plain {
    game: TakeBreakGame,
    table: HashMap<Vec<u64>, bool>,
}

impl Plain {
    fn settle(&mut self, position: &[u64], limits: Limits) -> Answer {
        let table = std::mem::take(&mut self.table);
        let mut search = OutcomeSearch::with_table(&self.game, Convention::Misere, limits, table);
        let p = position.to_vec();
        let outcome = search.outcome(&p).ok()?;
        let winning = search.winning_moves(&p).ok()?;
        let mut to: Vec<Vec<u64>> = winning
            .iter()
            .map(|m| nimatron::Rules::apply(&self.game, &p, m))
            .collect();
        to.sort();
        if search.states() < limits.max_states / 2 {
            self.table = search.into_table();
        }
        Some((outcome, to))
    }
}

fn race(
    game: &dyn nimatron::Game,
    position: &[u64],
    limits: Limits,
) -> (Answer, Option<Box<MisereRace>>) {
    let p = game.heap_position(position).expect("heaps");
    let options = AnalyzeOptions {
        remoteness: false,
        ..AnalyzeOptions::new(limits)
    };
    match game.analyze_with(&p, Convention::Misere, &options) {
        Ok(a) => {
            let mut to: Vec<Vec<u64>> = a
                .winning_moves
                .iter()
                .map(|m| match &m.to {
                    PositionValue::Heaps(h) => h.clone(),
                    other => panic!("{other:?}"),
                })
                .collect();
            to.sort();
            let by = a.details.misere.clone().map(Box::new);
            (Some((a.outcome, to)), by)
        }
        Err(_) => (None, None),
    }
}

/// Settles each position by a fresh plain search and a fresh race, and
/// says what each took and stored.
fn one_by_one(spec: &str, positions: &[Vec<u64>], limits: Limits) {
    let parsed: GameSpec = spec.parse().expect("a game spec");
    let GameSpec::Heap(heap_game) = &parsed else {
        panic!("{spec} is not a heap game");
    };
    for position in positions {
        let mut plain = Plain {
            game: TakeBreakGame::new(heap_game.clone()),
            table: HashMap::new(),
        };
        let p = timed(|| (plain.settle(position, limits), None));
        let plain_states = plain.table.len();
        let game = parsed.build().expect("a game");
        let r = timed(|| race(game.as_ref(), position, limits));
        println!(
            "{spec} {position:?}: plain {:.4}s cpu {:.4}s wall ({} stored, {}); race {:.4}s cpu {:.4}s wall ({})",
            p.cpu.as_secs_f64(),
            p.wall.as_secs_f64(),
            plain_states,
            if p.answer.is_some() {
                "settled"
            } else {
                "unsettled"
            },
            r.cpu.as_secs_f64(),
            r.wall.as_secs_f64(),
            r.by.as_ref().map_or("no report".to_string(), |b| format!(
                "by {}, quotient {} ms ({:?}, heaps 1-{}), search {} ms ({:?}, {:?} stored)",
                b.answered_by.name(),
                b.quotient.millis,
                b.quotient.status,
                b.quotient_heaps,
                b.search.millis,
                b.search.status,
                b.search.states
            ))
        );
    }
}

fn main() {
    let games: Vec<String> = env(
        "MISERE_BENCH_GAMES",
        "kayles,dawson,octal:0.137,officers".to_string(),
    )
    .split(',')
    .map(str::to_string)
    .collect();
    let count: usize = env("MISERE_BENCH_COUNT", 200);
    let seconds: f64 = env("MISERE_BENCH_SECONDS", 2.0);
    let states: usize = env("MISERE_BENCH_STATES", Limits::DEFAULT_MAX_STATES);
    let fresh = env("MISERE_BENCH_FRESH", 0u32) == 1;
    let show: f64 = env("MISERE_BENCH_SHOW", f64::INFINITY);
    let limits = Limits::states(states).with_time(Duration::from_secs_f64(seconds));
    if let Ok(list) = std::env::var("MISERE_BENCH_POSITIONS") {
        let positions: Vec<Vec<u64>> = list
            .split(';')
            .map(|p| {
                p.split_whitespace()
                    .map(|h| h.parse().expect("a heap"))
                    .collect()
            })
            .collect();
        for spec in &games {
            one_by_one(spec, &positions, limits);
        }
        return;
    }
    println!(
        "misère race against plain search: {count} positions per game, 1-5 heaps of 1-40, limits {states} positions and {seconds} s per method"
    );
    println!(
        "{:<12} {:>9} {:>9} {:>11} {:>11} {:>9} {:>9} {:>7} {:>6} {:>10}",
        "game",
        "plain ok",
        "race ok",
        "plain cpu",
        "race cpu",
        "plain wall",
        "race wall",
        "worst×",
        ">2×",
        "by q/s"
    );
    for spec in &games {
        let parsed: GameSpec = spec.parse().expect("a game spec");
        let GameSpec::Heap(heap_game) = &parsed else {
            panic!("{spec} is not a heap game");
        };
        let mut plain = Plain {
            game: TakeBreakGame::new(heap_game.clone()),
            table: HashMap::new(),
        };
        let kept = parsed.build().expect("a game");
        let mut rng = SplitMix64::new(0x5EED ^ spec.len() as u64);
        let (mut plain_cpu, mut race_cpu, mut plain_wall, mut race_wall) = (
            Duration::ZERO,
            Duration::ZERO,
            Duration::ZERO,
            Duration::ZERO,
        );
        let (mut plain_ok, mut race_ok, mut over, mut by_q, mut by_s) = (0, 0, 0, 0, 0);
        let mut fresh_cpu = Duration::ZERO;
        let mut fresh_ok = 0;
        let mut worst = 0f64;
        let mut worst_at = Vec::new();
        for i in 0..count {
            let heaps = 1 + rng.next_u64() % 5;
            let position: Vec<u64> = (0..heaps).map(|_| 1 + rng.next_u64() % 40).collect();
            let run_plain = |plain: &mut Plain| timed(|| (plain.settle(&position, limits), None));
            let run_race = || timed(|| race(kept.as_ref(), &position, limits));
            let (p, r) = if i % 2 == 0 {
                let p = run_plain(&mut plain);
                (p, run_race())
            } else {
                let r = run_race();
                (run_plain(&mut plain), r)
            };
            if let (Some(a), Some(b)) = (&p.answer, &r.answer) {
                assert_eq!(
                    a, b,
                    "{spec} {position:?}: the race and the plain search disagree"
                );
            }
            plain_ok += p.answer.is_some() as usize;
            race_ok += r.answer.is_some() as usize;
            match r.by.as_ref().map(|b| b.answered_by) {
                Some(RaceMethod::Quotient) => by_q += 1,
                Some(RaceMethod::Search) => by_s += 1,
                None => {}
            }
            plain_cpu += p.cpu;
            race_cpu += r.cpu;
            plain_wall += p.wall;
            race_wall += r.wall;
            // Below a millisecond, the ratio is noise: compare from there.
            let floor = Duration::from_millis(1);
            let ratio = r.cpu.max(floor).as_secs_f64() / p.cpu.max(floor).as_secs_f64();
            if ratio > 2.0 {
                over += 1;
            }
            if ratio > show {
                println!(
                    "  {position:?}: plain {:.4}s, race {:.4}s ({ratio:.2}×); {}",
                    p.cpu.as_secs_f64(),
                    r.cpu.as_secs_f64(),
                    r.by.as_ref().map_or("no report".to_string(), |b| format!(
                        "by {}, quotient {} ms ({:?}), search {} ms ({:?}, {:?} stored)",
                        b.answered_by.name(),
                        b.quotient.millis,
                        b.quotient.status,
                        b.search.millis,
                        b.search.status,
                        b.search.states
                    ))
                );
            }
            if ratio > worst {
                worst = ratio;
                worst_at = position.clone();
            }
            if fresh {
                let game = parsed.build().expect("a game");
                let f = timed(|| race(game.as_ref(), &position, limits));
                fresh_cpu += f.cpu;
                fresh_ok += f.answer.is_some() as usize;
                if let (Some(a), Some(b)) = (&p.answer, &f.answer) {
                    assert_eq!(a, b, "{spec} {position:?}: a fresh race disagrees");
                }
            }
        }
        println!(
            "{:<12} {:>9} {:>9} {:>10.2}s {:>10.2}s {:>9.2}s {:>8.2}s {:>7.2} {:>6} {:>10}",
            spec,
            plain_ok,
            race_ok,
            plain_cpu.as_secs_f64(),
            race_cpu.as_secs_f64(),
            plain_wall.as_secs_f64(),
            race_wall.as_secs_f64(),
            worst,
            over,
            format!("{by_q}/{by_s}")
        );
        println!("  worst ratio at {worst_at:?}");
        if fresh {
            println!(
                "  fresh game object per position: {fresh_ok} answered, {:.2}s cpu",
                fresh_cpu.as_secs_f64()
            );
        }
    }
}
