//! The byte stores of step 1 (stamps of rare entries into rows of a
//! byte per value) and the naive method's marks. They run at the rate the
//! processor commits stores, so each call checks its bounds once and its
//! loop stores without a check (the rows have [`ROW_SLACK`] bytes after
//! them that no value reaches, and the naive table is indexed through a
//! mask of its length).

use super::super::values::Cell;

/// Positions per block of step 1 (one lane of the compare each).
const BLOCK: usize = super::super::probe::LANES;

/// Bytes after a block's rows that stamps may reach: `Cell::xor_index`
/// is below 2^16 without a mask (and below the row width with one), so the
/// stamping loops need no masking and no bounds checks. Values are below the
/// row width, so nothing is ever stamped there.
pub(crate) const ROW_SLACK: usize = 1 << 16;

/// `row[r ^ g[m - a]] = tag` for every entry `(a, r)` (in order of
/// position, each `a` below `m`), with `r ^ g[m - a]` taken modulo the
/// row's length, a power of two.
pub(crate) fn stamp_lane<T: Cell>(
    row: &mut [u8],
    g: &[T],
    m: usize,
    entries: &[(u64, u32)],
    tag: u8,
) {
    let (Some(&(first, _)), Some(&(last, _))) = (entries.first(), entries.last()) else {
        return;
    };
    assert!(row.len().is_power_of_two() && first >= 1 && (last as usize) < m && m <= g.len());
    let mask = row.len() - 1;
    for &(a, r) in entries {
        // SAFETY: entries rise, so every a lies in first..=last, and m - a
        // in 1..m, inside g (the assert above); x is masked below the row's
        // length.
        unsafe {
            let x = (r ^ g.get_unchecked(m - a as usize).get()) as usize & mask;
            *row.get_unchecked_mut(x) = tag;
        }
    }
}

/// [`stamp_rows`] for a whole block of rows of a fixed width: entry
/// `(a, r)` pairs position `j` of the block with `src[start - a + j]`.
#[inline(never)]
pub(crate) fn stamp_block<T: Cell, const W: usize>(
    rows: &mut [u8],
    src: &[T],
    start: usize,
    entries: &[(u64, u32)],
    tag: u8,
) {
    let rows = &mut rows[..BLOCK * W + ROW_SLACK];
    let size = std::mem::size_of::<T>();
    if size <= 2 {
        // One- and two-byte values are read eight bytes at a time and
        // taken apart in a register: one load per four or eight stamps
        // rather than one per stamp. Loads and stores share the load-store
        // units, and with a load per stamp they, not the stores, were the
        // limit (on AMD Zen 3 most of all).
        let bits = 8 * size;
        let lanes = 8 / size;
        let lane_mask = (1u64 << bits) - 1;
        for &(a, r) in entries {
            let base = start - a as usize;
            let window: &[T; BLOCK] = src[base..base + BLOCK]
                .try_into()
                .expect("a block of values");
            // SAFETY: `Cell` is implemented only for u8, u16 and u32, plain
            // integers whose bytes may be read as such.
            let bytes: &[u8] =
                unsafe { std::slice::from_raw_parts(window.as_ptr().cast(), BLOCK * size) };
            let rr = (r as u64 & lane_mask) * (u64::MAX / lane_mask);
            for (q, chunk) in bytes.chunks_exact(8).enumerate() {
                let word = u64::from_ne_bytes(chunk.try_into().expect("eight bytes")) ^ rr;
                for l in 0..lanes {
                    // The value of lane l: its bytes in memory order.
                    let shift = if cfg!(target_endian = "little") {
                        bits * l
                    } else {
                        bits * (lanes - 1 - l)
                    };
                    let x = ((word >> shift) & lane_mask) as usize;
                    // SAFETY: q * lanes + l < BLOCK and x < 2^16 <= ROW_SLACK.
                    unsafe { *rows.get_unchecked_mut((q * lanes + l) * W + x) = tag };
                }
            }
        }
        return;
    }
    for &(a, r) in entries {
        let base = start - a as usize;
        let window: &[T; BLOCK] = src[base..base + BLOCK]
            .try_into()
            .expect("a block of values");
        for (j, b) in window.iter().enumerate() {
            // x < W, as every value is below W; unmasked, it is still below
            // ROW_SLACK (see `Cell::xor_index`).
            let x = b.xor_index(r, W - 1);
            // SAFETY: j < BLOCK and x < ROW_SLACK, inside the rows and slack.
            unsafe { *rows.get_unchecked_mut(j * W + x) = tag };
        }
    }
}

/// `rows[j * width + (r ^ src[j])] = tag` for every `j` but `skip`.
#[inline]
pub(crate) fn stamp_rows<T: Cell>(
    rows: &mut [u8],
    width: usize,
    src: &[T],
    r: u32,
    tag: u8,
    skip: Option<usize>,
) {
    assert!(rows.len() >= src.len() * width + ROW_SLACK && width.is_power_of_two());
    let mask = width - 1;
    match skip {
        None => {
            for (j, b) in src.iter().enumerate() {
                let x = b.xor_index(r, mask);
                // SAFETY: j < src.len() and x < ROW_SLACK, and the assert
                // above makes rows hold src.len() rows of width and the slack.
                unsafe { *rows.get_unchecked_mut(j * width + x) = tag };
            }
        }
        Some(s) => {
            for (j, b) in src.iter().enumerate() {
                if j != s {
                    let x = (r ^ b.get()) as usize & mask;
                    rows[j * width + x] = tag;
                }
            }
        }
    }
}

/// `table[(low[i] ^ high[high.len() - 1 - i]) & mask] = value` for every
/// `i`: the marks of the naive method's pairs, `high` read backwards.
/// `mask` must be below `table.len()` (a power of two less one, as the
/// naive table's is).
#[inline]
pub(crate) fn mark_xor_pairs<T: Cell, S: Copy>(
    table: &mut [S],
    mask: usize,
    low: &[T],
    high: &[T],
    value: S,
) {
    assert!(mask < table.len() && low.len() == high.len());
    for (x, y) in low.iter().zip(high.iter().rev()) {
        let i = (x.get() ^ y.get()) as usize & mask;
        // SAFETY: i <= mask < table.len() (the assert above).
        unsafe { *table.get_unchecked_mut(i) = value };
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn values(seed: u64, len: usize, below: u32) -> Vec<u16> {
        let mut s = seed;
        (0..len)
            .map(|_| {
                s = s
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                ((s >> 33) as u32 % below) as u16
            })
            .collect()
    }

    /// The stamps of a block, of a row and of a lane, and the naive marks,
    /// land where their definitions say, for one- and two-byte values.
    #[test]
    fn stamps_and_marks_follow_their_definitions() {
        const W: usize = 256;
        let g16 = values(5, 600, W as u32);
        let g8: Vec<u8> = g16.iter().map(|&x| x as u8).collect();
        let start = 500;
        let entries: Vec<(u64, u32)> = (0..12)
            .map(|i| (40 + 30 * i as u64, (i * 37 % W) as u32))
            .collect();
        let tag = 7;
        for wide in [false, true] {
            let value = |i: usize| {
                if wide {
                    g16[i] as usize
                } else {
                    g8[i] as usize
                }
            };
            let mut rows = vec![0u8; BLOCK * W + ROW_SLACK];
            if wide {
                stamp_block::<u16, W>(&mut rows, &g16, start, &entries, tag);
            } else {
                stamp_block::<u8, W>(&mut rows, &g8, start, &entries, tag);
            }
            let mut want = vec![0u8; BLOCK * W + ROW_SLACK];
            for &(a, r) in &entries {
                for j in 0..BLOCK {
                    want[j * W + (r as usize ^ value(start - a as usize + j))] = tag;
                }
            }
            assert!(rows == want, "stamp_block, wide {wide}");
        }
        // A row per position, one skipped.
        let mut rows = vec![0u8; 8 * W + ROW_SLACK];
        stamp_rows(&mut rows, W, &g16[100..108], 5, tag, Some(3));
        for j in 0..8 {
            for x in 0..W {
                let want = j != 3 && x == 5 ^ g16[100 + j] as usize;
                assert_eq!(rows[j * W + x] == tag, want, "stamp_rows {j} {x}");
            }
        }
        // One lane.
        let mut row = vec![0u8; W];
        stamp_lane(&mut row, &g16, 500, &entries, tag);
        for (x, &byte) in row.iter().enumerate() {
            let want = entries
                .iter()
                .any(|&(a, r)| x == (r as usize ^ g16[500 - a as usize] as usize) % W);
            assert_eq!(byte == tag, want, "stamp_lane {x}");
        }
        // The naive marks.
        let mut table = vec![0u32; 64];
        mark_xor_pairs(&mut table, 63, &g16[10..30], &g16[50..70], 9);
        for (i, &t) in table.iter().enumerate() {
            let want = (0..20).any(|k| (g16[10 + k] ^ g16[69 - k]) as usize & 63 == i);
            assert_eq!(t == 9, want, "mark_xor_pairs {i}");
        }
    }
}
