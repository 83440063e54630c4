//! Benchmark: analysing 10^6 and 10^8 random u64 heaps (nim-sum plus one
//! winning move) against a plain XOR over the same slice, in one process.
//!
//! Run with `cargo bench -p nimatron --bench nim_scan`. Set
//! `NIM_SCAN_SIZES=1000000` to choose sizes. Every timed result is checked.

use std::hint::black_box;
use std::time::{Duration, Instant};

use nimatron::SplitMix64;
use nimatron::{Convention, Nimber, nim};

fn best_of<T>(reps: usize, mut f: impl FnMut() -> T) -> (Duration, T) {
    let mut best = Duration::MAX;
    let mut last = None;
    for _ in 0..reps {
        let start = Instant::now();
        let value = f();
        best = best.min(start.elapsed());
        last = Some(value);
    }
    (best, last.expect("reps > 0"))
}

fn main() {
    let sizes: Vec<usize> = std::env::var("NIM_SCAN_SIZES")
        .ok()
        .map(|s| {
            s.split(',')
                .map(|x| x.trim().parse().expect("size"))
                .collect()
        })
        .unwrap_or_else(|| vec![1_000_000, 100_000_000]);
    println!(
        "{:>12} {:>10} {:>12} {:>12} {:>12} {:>8}",
        "heaps", "convention", "xor (ms)", "analyze (ms)", "Gheaps/s", "ratio"
    );
    for &n in &sizes {
        let mut rng = SplitMix64::new(0x5EED ^ n as u64);
        let heaps: Vec<u64> = (0..n).map(|_| rng.next_u64()).collect();
        let reps = if n >= 10_000_000 { 5 } else { 50 };
        let (xor_time, plain) =
            best_of(reps, || black_box(&heaps).iter().fold(0u64, |a, &h| a ^ h));
        for convention in [Convention::Normal, Convention::Misere] {
            let (time, (analysis, mv)) = best_of(reps, || {
                let heaps = black_box(&heaps);
                let a = nim::analyze(heaps, convention);
                (a, a.winning_move(heaps))
            });
            // The result must be right, not only fast.
            assert_eq!(analysis.nim_sum, Nimber(plain));
            if plain != 0 {
                let mv = mv.expect("non-zero nim-sum has a winning move");
                let after = heaps[mv.heap] - mv.take;
                assert_eq!(plain ^ heaps[mv.heap] ^ after, 0);
            }
            let ratio = xor_time.as_secs_f64() / time.as_secs_f64();
            println!(
                "{:>12} {:>10} {:>12.3} {:>12.3} {:>12.3} {:>8.2}",
                n,
                convention.name(),
                xor_time.as_secs_f64() * 1e3,
                time.as_secs_f64() * 1e3,
                n as f64 / time.as_secs_f64() / 1e9,
                ratio
            );
        }
    }
    println!("ratio = plain XOR time / analysis time (target: at least 0.5)");
}
