//! The census's per-code data against published tables: T. Czajka's tables
//! of octal games (github.com/tczajka/octal-games, `SolvedGames.md` and
//! `UnsolvedGames.md`) give, for each game, the rare mask, the number of
//! rare values among `G(0..=N)` (heap 0 included), the last rare one, the
//! largest value and the index where it first occurs. Each count is also
//! checked against a plain count over the computed values.

use nimatron::sequence::{HeapGame, SequenceOptions, Values, grundy_sequence};

/// The label of `G(n) = v` under a mask: the parity of `v AND mask`, plus
/// the parity of `n` when the mask uses the position's parity.
fn label(n: usize, v: u32, mask: u32, position_parity: bool) -> u32 {
    ((v & mask).count_ones() & 1) ^ (position_parity as u32 & n as u32 & 1)
}

/// The rare positions, counted without the engine: the smaller of the two
/// label classes among all of `G(0..=N)`.
fn naive_rare(values: &Values, mask: u32, position_parity: bool) -> (u64, Option<u64>) {
    let mut count = [0u64; 2];
    let mut last = [None; 2];
    for (n, v) in values.iter().enumerate() {
        let l = label(n, v, mask, position_parity) as usize;
        count[l] += 1;
        last[l] = Some(n as u64);
    }
    let rare = if count[0] <= count[1] { 0 } else { 1 };
    (count[rare], last[rare])
}

/// The largest value and the first heap size where it occurs, by a plain scan.
fn naive_largest(values: &Values) -> (u32, u64) {
    let mut best = (0, 0);
    for (n, v) in values.iter().enumerate() {
        if v > best.0 {
            best = (v, n as u64);
        }
    }
    best
}

struct Published {
    code: &'static str,
    to: u64,
    mask: u32,
    position_parity: bool,
    rare: u64,
    last_rare: u64,
    largest: u32,
    largest_at: u64,
}

/// Czajka's rows. His solved games are listed with all their values; the
/// range here reaches past the last rare value and the first largest one.
const PUBLISHED: [Published; 6] = [
    // UnsolvedGames.md: Grundy's game, n = 2^21 (not an octal code, but
    // counted the same way).
    Published {
        code: "grundy-game",
        to: 1 << 21,
        mask: 0xfe,
        position_parity: false,
        rare: 1274,
        last_rare: 82860,
        largest: 231,
        largest_at: 763_622,
    },
    // UnsolvedGames.md: .6, n = 2^21.
    Published {
        code: "0.6",
        to: 1 << 21,
        mask: 0x1ee,
        position_parity: false,
        rare: 1584,
        last_rare: 20627,
        largest: 319,
        largest_at: 1_274_955,
    },
    // SolvedGames.md: .16 (prefix 105 351, period 149 459).
    Published {
        code: "0.16",
        to: 300_000,
        mask: 0x1e,
        position_parity: false,
        rare: 53,
        last_rare: 13935,
        largest: 23,
        largest_at: 229_790,
    },
    // .376 (prefix 2 268 248, period 4).
    Published {
        code: "0.376",
        to: 1_200_000,
        mask: 0xfe,
        position_parity: false,
        rare: 510,
        last_rare: 1_140_540,
        largest: 176,
        largest_at: 341_612,
    },
    // .354 (prefix 10 061 916, period 1 180).
    Published {
        code: "0.354",
        to: 20_000,
        mask: 0x3f,
        position_parity: false,
        rare: 132,
        last_rare: 3227,
        largest: 113,
        largest_at: 1152,
    },
    // .127 (prefix 46 578, period 4), mask "1+pos".
    Published {
        code: "0.127",
        to: 100_000,
        mask: 0x1,
        position_parity: true,
        rare: 693,
        last_rare: 27106,
        largest: 56,
        largest_at: 24734,
    },
];

#[test]
fn rare_counts_cover_heap_zero_as_published() {
    for p in &PUBLISHED {
        let game: HeapGame = if p.code.contains('.') {
            format!("octal:{}", p.code).parse().unwrap()
        } else {
            p.code.parse().unwrap()
        };
        let seq = grundy_sequence(&game, p.to, &SequenceOptions::default()).unwrap();
        let s = &seq.summary;
        let mask = s.mask.expect("a sparse mask");
        assert_eq!(
            (mask.mask, mask.position_parity),
            (p.mask, p.position_parity),
            "{}: mask",
            p.code
        );
        let naive = naive_rare(&seq.values, mask.mask, mask.position_parity);
        assert_eq!(
            (s.rare_count, s.last_rare),
            (Some(naive.0), naive.1),
            "{}: engine against a plain count",
            p.code
        );
        assert_eq!(
            (naive.0, naive.1),
            (p.rare, Some(p.last_rare)),
            "{}: against Czajka's table",
            p.code
        );
        let largest = naive_largest(&seq.values);
        assert_eq!(largest, (p.largest, p.largest_at), "{}: largest", p.code);
        assert_eq!(s.max_value, p.largest, "{}", p.code);
    }
}
