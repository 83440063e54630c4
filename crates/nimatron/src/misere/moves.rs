//! The options of one heap, as multisets of the heaps a move leaves.

#[cfg(test)]
use crate::sequence::HeapGame;
use crate::sequence::Rule;

/// Every heap's options, for heaps `0..=to`: `options[n]` lists the
/// positions one move from a single heap of `n` can leave, each a sorted
/// list of non-empty heap sizes (the empty list when the move takes the
/// whole heap), without repeats.
#[cfg(test)]
pub(crate) fn heap_options(game: &HeapGame, to: usize) -> Vec<Vec<Vec<u16>>> {
    let rule = game.rule();
    (0..=to).map(|n| options_of(&rule, n)).collect()
}

/// The options of a heap of `n`, sorted, without repeats.
pub(crate) fn options_of(rule: &Rule, n: usize) -> Vec<Vec<u16>> {
    let mut out: Vec<Vec<u16>> = Vec::new();
    let left = |m: usize| -> Vec<u16> { if m == 0 { Vec::new() } else { vec![m as u16] } };
    match rule {
        Rule::TakeBreak(t) => {
            for &k in &t.take_all {
                if k as usize == n {
                    out.push(Vec::new());
                }
            }
            for &k in &t.leave_one {
                if (k as usize) < n {
                    out.push(left(n - k as usize));
                }
            }
            for &k in &t.split_two {
                let k = k as usize;
                if n < k + 2 {
                    continue;
                }
                let rest = n - k;
                for a in 1..=rest / 2 {
                    let b = rest - a;
                    if t.unequal && a == b {
                        continue;
                    }
                    out.push(vec![a as u16, b as u16]);
                }
            }
            for &k in &t.split_three {
                let k = k as usize;
                if n < k + 3 {
                    continue;
                }
                let rest = n - k;
                for a in 1..=rest / 3 {
                    for b in a..=(rest - a) / 2 {
                        let c = rest - a - b;
                        out.push(vec![a as u16, b as u16, c as u16]);
                    }
                }
            }
        }
        Rule::Squares => {
            let mut s = 1usize;
            while s * s <= n {
                out.push(left(n - s * s));
                s += 1;
            }
        }
        Rule::Modular { modulus, residues } => {
            for t in 1..=n {
                if residues.contains(&(t as u64 % modulus)) {
                    out.push(left(n - t));
                }
            }
        }
    }
    out.sort_unstable();
    out.dedup();
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kayles_options() {
        let game: HeapGame = "kayles".parse().unwrap();
        let opts = heap_options(&game, 4);
        assert_eq!(opts[1], vec![Vec::<u16>::new()]);
        assert_eq!(opts[2], vec![vec![], vec![1]]);
        assert_eq!(opts[4], vec![vec![1, 1], vec![1, 2], vec![2], vec![3]]);
        let grundy: HeapGame = "grundy-game".parse().unwrap();
        let opts = heap_options(&grundy, 6);
        assert!(opts[2].is_empty());
        assert_eq!(opts[6], vec![vec![1, 5], vec![2, 4]]);
    }
}
