//! A measurement for the census plan (docs/census.md, "A census of the
//! 4-digit codes"): codes whose values no mask splits into a rare and a
//! common class cost `n/2` splits per split digit for every value, `n²/4`
//! in all. The library marks every split's XOR in a table of stamps (a
//! store per pair) and then looks for the least unmarked value. This
//! compares that with *guess and verify*: mark the XORs of the first few
//! splits only, take the least unmarked values as candidates (the mex is
//! the least candidate no split reaches, and values of `2^b` and more,
//! where every value is below `2^b`, are never reached), then test the
//! remaining splits against the candidates with compares, which the
//! compiler turns into vector code, and no stores.
//!
//! Both are checked to give the same values, and the library's own
//! sequence is compared with them too.
//!
//! ```text
//! cargo run --release -p nimatron --example nomask_mex -- 0.76 100000
//! ```

use std::time::Instant;

use nimatron::sequence::{HeapGame, SequenceOptions, grundy_sequence};

/// A code's moves: takes that leave nothing, one heap, or split in two.
struct Rule {
    take_all: Vec<usize>,
    leave_one: Vec<usize>,
    split: Vec<usize>,
}

fn rule(code: &str) -> Rule {
    let (lead, digits) = code.split_once('.').expect("a code like 0.76");
    let mut r = Rule {
        take_all: Vec::new(),
        leave_one: Vec::new(),
        split: Vec::new(),
    };
    let all: Vec<u32> = std::iter::once(lead)
        .chain(digits.split("").filter(|s| !s.is_empty()))
        .map(|d| d.parse().expect("octal digits"))
        .collect();
    for (k, &d) in all.iter().enumerate() {
        if d & 1 != 0 && k > 0 {
            r.take_all.push(k);
        }
        if d & 2 != 0 && k > 0 {
            r.leave_one.push(k);
        }
        if d & 4 != 0 {
            r.split.push(k);
        }
    }
    r
}

/// Options that are not splits: heaps of `n - k`, or none.
fn simple(r: &Rule, g: &[u16], n: usize, seen: &mut [u32], epoch: u32) {
    for &k in &r.take_all {
        if n == k {
            seen[0] = epoch;
        }
    }
    for &k in &r.leave_one {
        if n > k {
            seen[g[n - k] as usize] = epoch;
        }
    }
}

/// The library's way: every split's XOR stamped, then the least unstamped.
fn mark_all(r: &Rule, to: usize) -> Vec<u16> {
    let mut g: Vec<u16> = Vec::with_capacity(to + 1);
    let mut seen = vec![0u32; 1 << 16];
    for n in 0..=to {
        let epoch = n as u32 + 1;
        simple(r, &g, n, &mut seen, epoch);
        for &k in &r.split {
            if n < k + 2 {
                continue;
            }
            let m = n - k;
            for a in 1..=m / 2 {
                seen[(g[a] ^ g[m - a]) as usize] = epoch;
            }
        }
        let v = seen.iter().position(|&s| s != epoch).expect("room") as u16;
        g.push(v);
    }
    g
}

/// Splits marked before the candidates are taken.
const FIRST: usize = 1024;
/// Candidates kept.
const CANDIDATES: usize = 8;
/// Splits compared at a time.
const CHUNK: usize = 64;

/// Guess and verify.
fn guess_verify(r: &Rule, to: usize) -> (Vec<u16>, u64) {
    let mut g: Vec<u16> = Vec::with_capacity(to + 1);
    let mut seen = vec![0u32; 1 << 17];
    let mut largest = 0u16;
    let mut fallbacks = 0u64;
    for n in 0..=to {
        let epoch = n as u32 + 1;
        simple(r, &g, n, &mut seen, epoch);
        let bound = (largest as usize + 1).next_power_of_two(); // every XOR is below it
        let ranges: Vec<(usize, usize)> = r
            .split
            .iter()
            .filter(|&&k| n >= k + 2)
            .map(|&k| (n - k, (n - k) / 2))
            .collect();
        for &(m, half) in &ranges {
            for a in 1..=half.min(FIRST) {
                seen[(g[a] ^ g[m - a]) as usize] = epoch;
            }
        }
        // The least unmarked values up to `bound` (which no split reaches,
        // so there is always one).
        let mut cand: Vec<u16> = (0..=bound)
            .filter(|&v| seen[v] != epoch)
            .take(CANDIDATES)
            .map(|v| v as u16)
            .collect();
        'digits: for &(m, half) in &ranges {
            // A fixed number of candidates (padded with a repeat), so the
            // compares below become vector code.
            let mut fixed = [cand[cand.len() - 1]; CANDIDATES];
            fixed[..cand.len()].copy_from_slice(&cand);
            let mut a = FIRST + 1;
            while a <= half {
                let end = (a + CHUNK - 1).min(half);
                let len = end - a + 1;
                let low = &g[a..=end];
                let high = &g[m - end..=m - a];
                // Any XOR equal to a candidate in this chunk?
                let mut hit = 0u16;
                for (x, y) in low.iter().zip(high.iter().rev()) {
                    let v = x ^ y;
                    for &c in &fixed {
                        hit |= (v == c) as u16;
                    }
                }
                if hit != 0 {
                    // Reached candidates drop out.
                    for i in 0..len {
                        let v = low[i] ^ high[len - 1 - i];
                        cand.retain(|&c| c != v);
                    }
                    if cand.is_empty() {
                        break 'digits;
                    }
                    fixed = [cand[cand.len() - 1]; CANDIDATES];
                    fixed[..cand.len()].copy_from_slice(&cand);
                }
                a = end + 1;
            }
        }
        let v = match cand.first() {
            Some(&v) => v,
            None => {
                // Every candidate reached: mark everything.
                fallbacks += 1;
                for &(m, half) in &ranges {
                    for a in 1..=half {
                        seen[(g[a] ^ g[m - a]) as usize] = epoch;
                    }
                }
                seen.iter().position(|&s| s != epoch).expect("room") as u16
            }
        };
        largest = largest.max(v);
        g.push(v);
    }
    (g, fallbacks)
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let code = args.get(1).map_or("0.76", String::as_str);
    let to: usize = args.get(2).map_or(100_000, |s| s.parse().expect("N"));
    let r = rule(code);
    let t = Instant::now();
    let a = mark_all(&r, to);
    let ta = t.elapsed().as_secs_f64();
    let t = Instant::now();
    let (b, fallbacks) = guess_verify(&r, to);
    let tb = t.elapsed().as_secs_f64();
    assert_eq!(a, b, "the two methods disagree");
    let game: HeapGame = format!("octal:{code}").parse().expect("a code");
    let options = SequenceOptions {
        threads: 1,
        ..SequenceOptions::default()
    };
    let t = Instant::now();
    let lib = grundy_sequence(&game, to as u64, &options).expect("computes");
    let tl = t.elapsed().as_secs_f64();
    assert!(
        lib.values.len() == a.len() && lib.values.iter().zip(&a).all(|(x, &y)| x == u32::from(y)),
        "the library disagrees"
    );
    println!(
        "{code} to {to}: library {tl:.2} s ({} , mask {:?}); mark every split {ta:.2} s; guess and verify {tb:.2} s ({fallbacks} fallbacks); largest value {}",
        lib.summary.method,
        lib.summary.mask.map(|m| m.mask),
        a.iter().max().unwrap()
    );
}
