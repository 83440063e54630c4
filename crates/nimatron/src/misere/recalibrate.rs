//! Recalibration: candidates built from the last one with a few heaps cut
//! loose, labelled by play, and mended at their least failure.
//!
//! When heap `n` splits a class of the quotient of the smaller heaps,
//! learning from exact outcomes has to search positions with heap `n` and
//! many smaller heaps, which is what stopped Dawson's Kayles at heap 25.
//! This is the method of Siegel's MisereSolver, as Plambeck and Siegel
//! describe it ("Misère quotients for impartial games", J. Combin. Theory
//! Ser. A 115 (2008), and A. N. Siegel, "Some MisereSolver questions
//! answered", miseregames.wordpress.com, 28 August 2007); it searches no
//! game tree at all.
//! - **The order of positions.** Heaps from the largest down, compared
//!   lexicographically (`[5, 1] < [5, 2] < [5, 2, 1] < [6]`). Adding a heap
//!   raises a position and keeps the order of two, and every option of a
//!   position comes before it.
//! - **A candidate's structure** is the last candidate (at first the
//!   quotient of the smaller heaps) restricted to the heaps that stay in it,
//!   times a cyclic monoid `x^(i+2) = x^i` for heap `n` and for each heap
//!   *cut loose*.
//! - **Its P-portion comes by play**: the elements are taken in the order of
//!   their least representatives, and each is in P exactly when its least
//!   representative has a move and none of its options lands on an element
//!   already in P. Then it is reduced (elements that nothing tells apart are
//!   merged), so it is reduced by construction.
//! - **Its least failure** ([`least_failure`]), a position where the local
//!   rule fails, is the first position whose claimed outcome is wrong: all
//!   before it are right, so its true outcome is the opposite of the claim.
//!   When there is none, the candidate is verified: it is the quotient.
//! - **Mending.** The fewest heaps of the failing position (counted with
//!   their copies, for the index) whose cutting loose from the candidate
//!   labels that position right are cut loose, and the round starts again.
//!
//! Each round's least failure comes after the last one's, but nothing bounds
//! the rounds, so they are bounded by the caller, and a candidate that
//! outgrows its limits ends the attempt; the caller then learns from exact
//! outcomes.

use std::collections::HashMap;

use super::QuotientError;
use super::flat_set::FlatSet;
use super::work::{Budget, NONE, Work};

/// A candidate's structure: which heaps have a generator of their own, and
/// that generator's index (`x^(index + 2) = x^index`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct Cut {
    /// `(heap, index)`, sorted by heap.
    pub loose: Vec<(u16, u32)>,
}

impl Cut {
    /// Heap `n` alone loose, with index 2 (`x^4 = x^2`).
    pub fn new(n: usize) -> Cut {
        Cut {
            loose: vec![(n as u16, 2)],
        }
    }

    /// With `heap` loose at index at least `index`.
    pub fn with(&self, heap: u16, index: u32) -> Cut {
        let mut loose = self.loose.clone();
        match loose.iter_mut().find(|(h, _)| *h == heap) {
            Some((_, i)) => *i = (*i).max(index),
            None => {
                loose.push((heap, index));
                loose.sort_unstable();
            }
        }
        Cut { loose }
    }
}

/// A position as its heaps from the largest down (the order's key), with
/// `heap` added.
fn raised(key: &[u16], heap: u16) -> Vec<u16> {
    let mut v = key.to_vec();
    let at = v.partition_point(|&x| x >= heap);
    v.insert(at, heap);
    v
}

/// The candidate of heaps `1..=n` with the structure `cut` over `prev` (a
/// candidate or quotient of heaps up to `prev.heaps`; heaps above that must
/// be loose), labelled by play and reduced.
#[allow(clippy::needless_range_loop)] // letters index several tables
pub(super) fn candidate(
    prev: &Work,
    n: usize,
    cut: &Cut,
    options: &[Vec<Vec<u16>>],
    budget: &mut Budget,
) -> Result<Work, QuotientError> {
    // Letters: one per image of the heaps that stay in prev, then one per
    // loose heap; each with the smallest heap that has it.
    let loose_at = |h: usize| cut.loose.iter().position(|&(g, _)| g as usize == h);
    let mut letter_of = vec![usize::MAX; n + 1];
    let mut letter_heap: Vec<u16> = Vec::new();
    let mut base_image: Vec<u32> = Vec::new();
    let mut by_image: HashMap<u32, usize> = HashMap::new();
    let r = cut.loose.len();
    for h in 1..=n {
        if options[h].is_empty() {
            continue;
        }
        if loose_at(h).is_some() {
            continue;
        }
        let x = prev.image[h];
        let next = letter_heap.len();
        let l = *by_image.entry(x).or_insert(next);
        if l == next {
            letter_heap.push(h as u16);
            base_image.push(x);
        }
        letter_of[h] = l;
    }
    let base_letters = letter_heap.len();
    for (i, &(h, _)) in cut.loose.iter().enumerate() {
        letter_of[h as usize] = base_letters + i;
        letter_heap.push(h);
    }
    let letters = letter_heap.len();
    // States: (element of prev, exponent of each loose heap).
    let step = |s: &[u32], l: usize, out: &mut Vec<u32>| {
        out.clear();
        out.extend_from_slice(s);
        if l < base_letters {
            out[0] = prev.cols[&base_image[l]][s[0] as usize];
        } else {
            let i = l - base_letters;
            let index = cut.loose[i].1;
            let e = s[1 + i];
            out[1 + i] = if e == index + 1 { index } else { e + 1 };
        }
    };
    let mut states: FlatSet<u32> = FlatSet::new();
    states.insert(&vec![0u32; 1 + r]);
    let mut moves: Vec<u32> = Vec::new();
    let mut s: Vec<u32> = Vec::with_capacity(1 + r);
    let mut next: Vec<u32> = Vec::with_capacity(1 + r);
    let mut i = 0;
    while i < states.len() {
        s.clear();
        s.extend_from_slice(states.get(i));
        for l in 0..letters {
            step(&s, l, &mut next);
            let id = match states.find(&next) {
                Some(id) => id,
                None => {
                    states.insert(&next);
                    budget.check(states.len(), n)?;
                    states.len() - 1
                }
            };
            moves.push(id as u32);
        }
        i += 1;
    }
    let count = states.len();
    drop(states);
    let eval = |position: &[u16]| -> usize {
        position
            .iter()
            .fold(0usize, |q, &h| match letter_of[h as usize] {
                usize::MAX => q,
                l => moves[q * letters + l] as usize,
            })
    };
    // Least representatives in the order of positions (Dijkstra: adding a
    // heap raises a position, and keeps the order of two), and labels by
    // play in that order: every option of a representative comes before
    // it, so its state is labelled already.
    let mut dist: Vec<Option<Vec<u16>>> = vec![None; count];
    let mut parent = vec![(NONE, NONE); count];
    let mut rep: Vec<Option<Vec<u16>>> = vec![None; count];
    let mut p = vec![false; count];
    let mut labelled = vec![false; count];
    let mut heap = std::collections::BinaryHeap::new();
    dist[0] = Some(Vec::new());
    heap.push(std::cmp::Reverse((Vec::new(), 0usize)));
    while let Some(std::cmp::Reverse((d, q))) = heap.pop() {
        if labelled[q] || dist[q].as_ref().is_some_and(|best| d > *best) {
            continue;
        }
        let position: Vec<u16> = match parent[q] {
            (NONE, _) => Vec::new(),
            (up, l) => {
                let mut v = rep[up as usize]
                    .clone()
                    .expect("a parent is labelled first");
                let h = letter_heap[l as usize];
                let at = v.partition_point(|&x| x <= h);
                v.insert(at, h);
                v
            }
        };
        // By play: in P when it has a move and no option is in P.
        let mut in_p = !position.is_empty();
        'options: for k in 0..position.len() {
            if k > 0 && position[k] == position[k - 1] {
                continue;
            }
            let rest: Vec<u16> = position[..k]
                .iter()
                .chain(&position[k + 1..])
                .copied()
                .collect();
            let base = eval(&rest);
            for option in &options[position[k] as usize] {
                let t = option
                    .iter()
                    .fold(base, |q, &h| match letter_of[h as usize] {
                        usize::MAX => q,
                        l => moves[q * letters + l] as usize,
                    });
                debug_assert!(labelled[t], "an option's state is labelled first");
                if p[t] {
                    in_p = false;
                    break 'options;
                }
            }
        }
        p[q] = in_p;
        labelled[q] = true;
        rep[q] = Some(position);
        for l in 0..letters {
            let t = moves[q * letters + l] as usize;
            let nd = raised(&d, letter_heap[l]);
            if dist[t].as_ref().is_none_or(|best| nd < *best) {
                dist[t] = Some(nd.clone());
                parent[t] = (q as u32, l as u32);
                heap.push(std::cmp::Reverse((nd, t)));
            }
        }
    }
    let work = minimal_work(n, count, &moves, &letter_heap, &letter_of, &p);
    budget.check_order(work.order(), n)?;
    Ok(work)
}

/// The reduced quotient of an automaton over `letters` (a move per state and
/// letter, state 0 the empty position) with outputs `p`: Moore's
/// refinement, classes numbered breadth first from the empty position's, a
/// representative of fewest heaps each. `letter_of[h]` is heap `h`'s letter
/// (`usize::MAX` for the zero game), `letter_heap[l]` a heap of letter `l`.
pub(super) fn minimal_work(
    n: usize,
    count: usize,
    moves: &[u32],
    letter_heap: &[u16],
    letter_of: &[usize],
    p: &[bool],
) -> Work {
    let letters = letter_heap.len();
    let mut block: Vec<u32> = p.iter().map(|&b| b as u32).collect();
    let mut blocks = 0;
    loop {
        let mut ids: HashMap<Vec<u32>, u32> = HashMap::new();
        let next: Vec<u32> = (0..count)
            .map(|q| {
                let mut key = Vec::with_capacity(1 + letters);
                key.push(block[q]);
                key.extend(
                    moves[q * letters..(q + 1) * letters]
                        .iter()
                        .map(|&t| block[t as usize]),
                );
                let len = ids.len() as u32;
                *ids.entry(key).or_insert(len)
            })
            .collect();
        let now = ids.len();
        block = next;
        if now == blocks {
            break;
        }
        blocks = now;
    }
    let mut number = vec![NONE; blocks];
    let mut some_state: Vec<usize> = vec![0];
    let mut rep: Vec<Vec<u16>> = vec![Vec::new()];
    number[block[0] as usize] = 0;
    let mut j = 0;
    while j < some_state.len() {
        let q = some_state[j];
        for l in 0..letters {
            let t = moves[q * letters + l] as usize;
            if number[block[t] as usize] == NONE {
                number[block[t] as usize] = some_state.len() as u32;
                some_state.push(t);
                let mut r = rep[j].clone();
                let at = r.partition_point(|&x| x <= letter_heap[l]);
                r.insert(at, letter_heap[l]);
                rep.push(r);
            }
        }
        j += 1;
    }
    let order = some_state.len();
    let class_of = |q: usize| number[block[q] as usize];
    let mut cols: HashMap<u32, Vec<u32>> = HashMap::new();
    cols.insert(0, (0..order as u32).collect());
    let mut letter_image = vec![0u32; letters];
    for l in 0..letters {
        let x = class_of(moves[l] as usize);
        letter_image[l] = x;
        let col: Vec<u32> = some_state
            .iter()
            .map(|&q| class_of(moves[q * letters + l] as usize))
            .collect();
        // Letters with one image act alike: the classes of a commutative
        // automaton form a congruence.
        debug_assert!(cols.get(&x).is_none_or(|c| *c == col));
        cols.insert(x, col);
    }
    let image: Vec<u32> = (0..=n)
        .map(|h| match letter_of[h] {
            usize::MAX => 0,
            l => letter_image[l],
        })
        .collect();
    Work {
        heaps: n,
        p: some_state.iter().map(|&q| p[q]).collect(),
        rep,
        image,
        cols,
    }
}

/// The least position, in the order of positions (see the module
/// documentation), where the local rule fails for `work`, or `None` when it
/// holds everywhere: a full verification.
///
/// Every position before it then has the outcome `work` claims, by
/// induction, so its true outcome is the local rule's: the opposite of the
/// claim. There are two kinds of failure:
/// - *P-failures*, claimed in P with an option claimed in P. If `V + h` is
///   one through a move in heap `h`, so is `R + h` for the least
///   representative `R` of `V`'s image, which comes no later: these are
///   checked directly.
/// - *N-failures*, with a move but no option claimed in P. Positions are
///   searched in order, each as its image and the set of its options'
///   images; one is passed over when an earlier one had the same image and
///   a subset of its option images, because every failure that extends it
///   extends the earlier one as well, and sooner.
#[allow(clippy::needless_range_loop)] // kinds index several tables
pub(super) fn least_failure(
    work: &Work,
    options: &[Vec<Vec<u16>>],
    budget: &mut Budget,
) -> Result<Option<Vec<u16>>, QuotientError> {
    let n = work.heaps;
    let order = work.order();
    let words = order.div_ceil(64);
    let mut kinds: HashMap<(u32, Vec<u32>), usize> = HashMap::new();
    let mut kind_heap: Vec<u16> = Vec::new();
    let mut kind_image: Vec<u32> = Vec::new();
    let mut kind_opts: Vec<Vec<u32>> = Vec::new();
    for h in 1..=n {
        if options[h].is_empty() {
            continue;
        }
        let mut opt: Vec<u32> = options[h].iter().map(|o| work.eval(o)).collect();
        opt.sort_unstable();
        opt.dedup();
        if let std::collections::hash_map::Entry::Vacant(e) =
            kinds.entry((work.image[h], opt.clone()))
        {
            e.insert(kind_heap.len());
            kind_heap.push(h as u16);
            kind_image.push(work.image[h]);
            kind_opts.push(opt);
        }
    }
    let kn = kind_heap.len();
    let mut p_bits = vec![0u64; words];
    for c in 0..order {
        if work.p[c] {
            p_bits[c / 64] |= 1 << (c % 64);
        }
    }
    // P-failures: a position claimed in P with an option claimed in P.
    // The least one is some element's least representative plus one heap
    // (Plambeck and Siegel's argument: the heap the move is made in).
    let mut least_rep: Vec<Option<Vec<u16>>> = vec![None; order];
    {
        let mut queue = std::collections::BinaryHeap::new();
        queue.push(std::cmp::Reverse((Vec::<u16>::new(), 0u32)));
        while let Some(std::cmp::Reverse((key, x))) = queue.pop() {
            if least_rep[x as usize].is_some() {
                continue;
            }
            for k in 0..kn {
                let y = work.cols[&kind_image[k]][x as usize];
                if least_rep[y as usize].is_none() {
                    queue.push(std::cmp::Reverse((raised(&key, kind_heap[k]), y)));
                }
            }
            least_rep[x as usize] = Some(key);
        }
    }
    let mut p_failure: Option<Vec<u16>> = None;
    for x in 0..order {
        let Some(r) = &least_rep[x] else { continue };
        for k in 0..kn {
            let y = work.cols[&kind_image[k]][x] as usize;
            if work.p[y]
                && kind_opts[k]
                    .iter()
                    .any(|&t| work.p[work.mul(x as u32, t) as usize])
            {
                let key = raised(r, kind_heap[k]);
                if p_failure.as_ref().is_none_or(|f| key < *f) {
                    p_failure = Some(key);
                }
            }
        }
    }
    let sorted = |mut w: Vec<u16>| {
        w.sort_unstable();
        w
    };
    let mut kept: HashMap<u32, Vec<Vec<u64>>> = HashMap::new();
    let mut queue = std::collections::BinaryHeap::new();
    // (the position as its key, its image, its options' images)
    queue.push(std::cmp::Reverse((
        Vec::<u16>::new(),
        0u32,
        vec![0u64; words],
    )));
    let mut stored = 0usize;
    while let Some(std::cmp::Reverse((key, s, set))) = queue.pop() {
        if p_failure.as_ref().is_some_and(|f| *f < key) {
            return Ok(p_failure.map(sorted));
        }
        // Checked before the position is passed over: an earlier position
        // that covers it may be the empty one, which has no move.
        let in_p = set.iter().zip(&p_bits).any(|(a, b)| a & b != 0);
        if !key.is_empty() && !work.p[s as usize] && !in_p {
            return Ok(Some(sorted(key)));
        }
        let list = kept.entry(s).or_default();
        if list
            .iter()
            .any(|k| k.iter().zip(&set).all(|(a, b)| a & !b == 0))
        {
            continue;
        }
        list.retain(|k| !set.iter().zip(k).all(|(a, b)| a & !b == 0));
        list.push(set.clone());
        for k in 0..kn {
            let col = &work.cols[&kind_image[k]];
            let mut next = vec![0u64; words];
            for (wi, &word) in set.iter().enumerate() {
                let mut word = word;
                while word != 0 {
                    let o = wi * 64 + word.trailing_zeros() as usize;
                    let t = col[o] as usize;
                    next[t / 64] |= 1 << (t % 64);
                    word &= word - 1;
                }
            }
            for &t in &kind_opts[k] {
                let u = work.mul(s, t) as usize;
                next[u / 64] |= 1 << (u % 64);
            }
            queue.push(std::cmp::Reverse((
                raised(&key, kind_heap[k]),
                col[s as usize],
                next,
            )));
            stored += 1;
            budget.check(stored / kn.max(1), n)?;
        }
    }
    Ok(p_failure.map(sorted))
}
