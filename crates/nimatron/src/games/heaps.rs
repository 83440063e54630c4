//! Heap-game helpers: components, canonical forms, totals and sample
//! takes. Heap notation (sizes, names, typed moves) has a module of its
//! own, re-exported at the crate root ([`crate::heap_name`],
//! [`crate::parse_heap_list`]).

/// The non-empty heaps as one-heap components, for games in which heaps are
/// independent.
pub fn components(heaps: &[u64]) -> Vec<Vec<u64>> {
    heaps.iter().filter(|&&h| h > 0).map(|&h| vec![h]).collect()
}

/// The canonical form of a heap position where order and empty heaps do not
/// matter: the non-empty heaps, sorted.
pub fn canonical(heaps: &[u64]) -> Vec<u64> {
    let mut sorted: Vec<u64> = heaps.iter().copied().filter(|&h| h > 0).collect();
    sorted.sort_unstable();
    sorted
}

/// The sum of the heaps, saturating.
pub fn total(heaps: &[u64]) -> u64 {
    heaps.iter().fold(0u64, |a, &h| a.saturating_add(h))
}

/// Takes worth considering from one heap when heaps are too big to try
/// every take: small takes, emptying, and leaving one.
pub fn representative_takes(size: u64) -> Vec<u64> {
    let mut takes: Vec<u64> = (1..=size.min(8)).collect();
    takes.push(size);
    takes.push(size.saturating_sub(1).max(1));
    takes.sort_unstable();
    takes.dedup();
    takes.retain(|&t| t >= 1 && t <= size);
    takes
}
