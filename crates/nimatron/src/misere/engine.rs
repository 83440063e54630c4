//! Building the quotient heap by heap.
//!
//! A working quotient is held as a commutative automaton: its states are the
//! elements, each with a representative position (a sorted multiset of
//! heaps), and multiplication by a heap's image is a column of the table.
//! The P-portion is the set of elements whose representative is a misère
//! P-position.
//!
//! **Verification.** A candidate (automaton, P-portion, heap images) is
//! accepted only when the *local rule* holds for every position `w` of the
//! heaps so far: `w` is in the P-portion exactly when `w` has a move and no
//! option of `w` is. The local rule at `w` depends only on the image of `w`
//! and, for each kind of heap present in `w`, on the image of `w` with one
//! such heap removed; so a breadth-first search over these finitely many
//! *extended states* checks it for all positions at once. When it holds,
//! induction on the game tree shows that every position's image decides its
//! misère outcome. Together with reducedness (distinct elements are told
//! apart by some third element) and surjectivity (every element is the image
//! of a position), this makes the candidate the misère quotient itself:
//! two positions have the same image exactly when no position added to both
//! tells them apart (Plambeck and Siegel, "Misère quotients for impartial
//! games", J. Combin. Theory Ser. A 115 (2008), §3–§6).
//!
//! **Extension.** When heap `n` arrives, each existing element is first
//! tried as its image. If none passes verification, heap `n` breaks the
//! quotient, and it is rebuilt by learning: positions are sorted into classes
//! by their misère outcomes with a list of test positions added, computed by
//! plain search that uses the previous quotient for every position without
//! heap `n`. A verification failure yields a position whose class is wrong,
//! and from it a new test position that splits a class; the loop ends with
//! a verified quotient or at a stated limit.
//!
//! **Recalibration.** Where heap `n` splits a class of the smaller heaps'
//! quotient, pretending fails and the exact learning's searches grow with
//! the number of smaller heaps (Dawson's Kayles stopped at heap 25 that
//! way). Before that, [`super::recalibrate`] builds candidates with heaps cut
//! loose, labels them by play and mends each at its least failure, without
//! searching a game tree: Dawson's Kayles now reaches heap 30, with the 360
//! elements that MisereSolver gives, in about 10 s.
//!
//! **Pretending first.** Plain search on positions with heap `n` and many
//! smaller heaps is what makes learning expensive. So learning first runs on
//! *pretending* outcomes: the smaller heaps of a position are replaced by
//! the representative of their image, as if heap `n` split no class of the
//! previous quotient, which makes each search a handful of positions. Only
//! the exact verification (and the reducedness check) decides whether the
//! result is kept; when a class does split, the candidate fails and the
//! exact learning runs. Misère Kayles, whose quotient grows at heaps 25
//! and 27, went from a stop at heap 25 after ten minutes to heap 100 in
//! under 20 s this way (`docs/journal/misere.md`).

use std::collections::HashMap;

use super::flat_set::FlatSet;
use super::work::{Budget, NONE, PASSED_KEPT, Work};
use super::{QuotientError, QuotientLimits};

/// A pretending run (see [`Oracle`]) gives up when its candidate grows
/// past this many times the order of the quotient of the smaller heaps.
const PRETEND_MAX_GROWTH: usize = 8;

/// Misère outcomes by plain search, using a verified quotient of the smaller
/// heaps for every position made of them alone.
///
/// A *pretending* oracle goes further: in a position with heap `n`, it
/// replaces the smaller heaps by the representative of their image, as if
/// adding heap `n` split no class of the smaller heaps' quotient. Positions
/// with the same image and the same copies of heap `n` then share one
/// search (it replaces only towards positions no larger by a measure that
/// every move lowers, so that the search ends), which makes it tiny. The
/// answers are exact when no class splits, and a quotient learnt from them
/// is kept only if the exact verification accepts it.
struct Oracle<'a> {
    options: &'a [Vec<Vec<u16>>],
    base: &'a Work,
    /// The positions searched so far, and whether each is in P (by id).
    memo: FlatSet<u16>,
    memo_p: Vec<bool>,
    heap: usize,
    pretend: bool,
    /// Spare position buffers for the search, one per level in use.
    buffers: Vec<Vec<u16>>,
}

impl Oracle<'_> {
    /// Whether `position` (sorted) is a misère P-position.
    fn is_p(&mut self, position: &[u16], budget: &mut Budget) -> Result<bool, QuotientError> {
        // Heaps without moves are the zero game: drop them.
        let options = self.options;
        let dropped: Vec<u16>;
        let position: &[u16] = if position
            .iter()
            .all(|&h| h != 0 && !options[h as usize].is_empty())
        {
            position
        } else {
            dropped = position
                .iter()
                .copied()
                .filter(|&h| h != 0 && !options[h as usize].is_empty())
                .collect();
            &dropped
        };
        if position.is_empty() {
            return Ok(false);
        }
        if position.iter().all(|&h| (h as usize) <= self.base.heaps) {
            return Ok(self.base.p[self.base.eval(position) as usize]);
        }
        let canonical: Vec<u16>;
        let position: &[u16] = if self.pretend {
            // Sorted: the smaller heaps come first, then the copies of n.
            let split = position.partition_point(|&h| (h as usize) <= self.base.heaps);
            let image = self.base.eval(&position[..split]);
            let rep = &self.base.rep[image as usize];
            // Only towards positions no larger by the measure that every
            // move lowers, so that the search still ends.
            if measure(rep) <= measure(&position[..split]) {
                // The representative's heaps are all smaller than n: the
                // two parts in a row are sorted.
                canonical = [rep.as_slice(), &position[split..]].concat();
                &canonical
            } else {
                position
            }
        } else {
            position
        };
        // Checked on every call, not only before storing: a run of memo
        // hits can take long too (0.47 ran 21 s past a limit of 10 s).
        budget.check(self.memo.len(), self.heap)?;
        if let Some(id) = self.memo.find(position) {
            return Ok(self.memo_p[id]);
        }
        // One buffer per level of the search, reused for every option.
        let mut next = self.buffers.pop().unwrap_or_default();
        let mut p = true;
        'outer: for i in 0..position.len() {
            if i > 0 && position[i] == position[i - 1] {
                continue;
            }
            for option in &options[position[i] as usize] {
                // The other heaps are sorted already: put the parts in place.
                next.clear();
                next.extend_from_slice(&position[..i]);
                next.extend_from_slice(&position[i + 1..]);
                for &part in option {
                    let at = next.partition_point(|&x| x <= part);
                    next.insert(at, part);
                }
                if self.is_p(&next, budget)? {
                    p = false;
                    break 'outer;
                }
            }
        }
        self.buffers.push(next);
        if self.memo.insert(position) {
            self.memo_p.push(p);
        }
        Ok(p)
    }
}

/// A measure that every move lowers: three per object less one per heap (a
/// move takes k objects and leaves at most three parts of the heap, or
/// takes none and leaves at least two).
fn measure(position: &[u16]) -> u64 {
    position.iter().map(|&h| 3 * u64::from(h) - 1).sum()
}

/// Adds a heap to a sorted position.
fn with(position: &[u16], heap: u16) -> Vec<u16> {
    let mut v = position.to_vec();
    let at = v.partition_point(|&x| x <= heap);
    v.insert(at, heap);
    v
}

/// The union of two sorted positions.
fn union(a: &[u16], b: &[u16]) -> Vec<u16> {
    let mut v = [a, b].concat();
    v.sort_unstable();
    v
}

/// Why a candidate failed verification: a position where the local rule
/// fails.
struct LocalRuleFails(Vec<u16>);

/// Checks the local rule for every position of the heaps so far. (Distinct
/// elements are told apart by construction: each was split off by a test
/// position on which the outcomes differ.)
fn verify(
    work: &Work,
    options: &[Vec<Vec<u16>>],
    budget: &mut Budget,
) -> Result<Result<(), LocalRuleFails>, QuotientError> {
    verify_as(work, options, budget, Width::Narrowest)
}

/// The cells [`verify`] stores its states in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Width {
    /// The narrowest that holds every element: bytes below order 255.
    Narrowest,
    /// 16 bits (up to order 65 534).
    #[cfg_attr(not(test), allow(dead_code))]
    U16,
    /// 32 bits.
    #[cfg_attr(not(test), allow(dead_code))]
    U32,
}

/// [`verify`], storing states in cells of `width` (the tests compare them).
#[allow(clippy::needless_range_loop)] // heap sizes index several tables
fn verify_as(
    work: &Work,
    options: &[Vec<Vec<u16>>],
    budget: &mut Budget,
    width: Width,
) -> Result<Result<(), LocalRuleFails>, QuotientError> {
    let n = work.heaps;
    // Heap kinds: (image, option images), with the smallest heap as example.
    let mut kinds: HashMap<(u32, Vec<u32>), usize> = HashMap::new();
    let mut kind_heap: Vec<u16> = Vec::new();
    let mut kind_image: Vec<u32> = Vec::new();
    let mut kind_opts: Vec<Vec<u32>> = Vec::new();
    for h in 1..=n {
        if options[h].is_empty() && work.image[h] == 0 {
            // The zero game changes nothing.
            continue;
        }
        let mut opt: Vec<u32> = options[h].iter().map(|o| work.eval(o)).collect();
        opt.sort_unstable();
        opt.dedup();
        let key = (work.image[h], opt.clone());
        if let std::collections::hash_map::Entry::Vacant(e) = kinds.entry(key) {
            e.insert(kind_heap.len());
            kind_heap.push(h as u16);
            kind_image.push(work.image[h]);
            kind_opts.push(opt);
        }
    }
    let order = work.order();
    // bad[k][c]: from an element c, some option of a kind-k heap lands in P.
    let bad: Vec<Vec<bool>> = kind_opts
        .iter()
        .map(|opts| {
            (0..order as u32)
                .map(|c| opts.iter().any(|&y| work.p[work.mul(c, y) as usize]))
                .collect()
        })
        .collect();
    let kinds_n = kind_heap.len();
    // A heap without moves must be the identity, and the empty position
    // (an N-position) must not be in P.
    if work.p[0] || (0..kinds_n).any(|k| kind_opts[k].is_empty() && kind_image[k] != 0) {
        let k = (0..kinds_n).find(|&k| kind_opts[k].is_empty() && kind_image[k] != 0);
        return Ok(Err(LocalRuleFails(
            k.map(|k| vec![kind_heap[k]]).unwrap_or_default(),
        )));
    }
    // (A) A position in P has no option in P: for every element c (each is
    // the image of some position) and kind k, c·x_k in P rules out an
    // option of the k-heap from c landing in P.
    for k in 0..kinds_n {
        let col = &work.cols[&kind_image[k]];
        if let Some(c) = (0..order).find(|&c| work.p[col[c] as usize] && bad[k][c]) {
            let mut w = work.rep[c].clone();
            w.push(kind_heap[k]);
            w.sort_unstable();
            return Ok(Err(LocalRuleFails(w)));
        }
    }
    // (B) A position outside P with a move has an option in P. It suffices
    // that from every element y, each kind k with y·x_k outside P has an
    // option into P (a winning move in that heap itself); when that fails,
    // the positions are searched. Heaps with
    // one image leave the same value when removed, and for a failure one
    // heap kind per image suffices: so the state is the image of the
    // position and, for each image present, the image with one such heap
    // removed, kept only as its class for "some kind of this image has no
    // option into P from here" (Moore's refinement). Classes from which that
    // can never hold again cannot lead to a failure and are not explored.
    let every_heap_wins = (0..kinds_n).all(|k| {
        let col = &work.cols[&kind_image[k]];
        (0..order).all(|y| work.p[col[y] as usize] || bad[k][y])
    });
    if every_heap_wins {
        return Ok(Ok(()));
    }
    let mut images: Vec<u32> = kind_image.clone();
    images.sort_unstable();
    images.dedup();
    let m = images.len();
    let cols: Vec<&Vec<u32>> = images.iter().map(|x| &work.cols[x]).collect();
    let good: Vec<Vec<bool>> = images
        .iter()
        .map(|x| {
            (0..order)
                .map(|c| (0..kinds_n).any(|k| kind_image[k] == *x && !bad[k][c]))
                .collect()
        })
        .collect();
    let classes: Vec<Vec<u32>> = (0..m).map(|i| refine(order, &good[i], &cols)).collect();
    let n_classes: Vec<usize> = classes
        .iter()
        .map(|c| c.iter().max().map_or(0, |&x| x as usize + 1))
        .collect();
    let class_good: Vec<Vec<bool>> = (0..m)
        .map(|i| {
            let mut g = vec![false; n_classes[i]];
            for c in 0..order {
                g[classes[i][c] as usize] = good[i][c];
            }
            g
        })
        .collect();
    let class_step: Vec<Vec<Vec<u32>>> = (0..m)
        .map(|i| {
            (0..m)
                .map(|j| {
                    let mut step = vec![0u32; n_classes[i]];
                    for c in 0..order {
                        step[classes[i][c] as usize] = classes[i][cols[j][c] as usize];
                    }
                    step
                })
                .collect()
        })
        .collect();
    // alive[i][class]: some class reachable from it is good.
    let alive: Vec<Vec<bool>> = (0..m)
        .map(|i| {
            let mut alive = class_good[i].clone();
            loop {
                let mut changed = false;
                for c in 0..n_classes[i] {
                    if !alive[c] && (0..m).any(|j| alive[class_step[i][j][c] as usize]) {
                        alive[c] = true;
                        changed = true;
                    }
                }
                if !changed {
                    break alive;
                }
            }
        })
        .collect();
    // The search below depends only on the P-portion, the columns of the
    // heap images and which images have a kind with no option into P from
    // each element. A new heap whose image is an old one, and which has no
    // such element that some old kind of that image lacks, leaves all of it
    // as it was: a search that passed on it passes again. (Debug builds,
    // and so the tests, search anyway and check that it does.)
    let mut key: Vec<u32> = Vec::with_capacity(2 + m * (1 + 2 * order) + order);
    key.extend([order as u32, m as u32]);
    key.extend_from_slice(&images);
    key.extend(work.p.iter().map(|&p| p as u32));
    for j in 0..m {
        key.extend_from_slice(cols[j]);
        key.extend(good[j].iter().map(|&g| g as u32));
    }
    let known = budget.passed.contains(&key);
    if known && !cfg!(debug_assertions) {
        return Ok(Ok(()));
    }
    let tables = Tables {
        p: &work.p,
        cols: &cols,
        classes: &classes,
        class_good: &class_good,
        class_step: &class_step,
        alive: &alive,
    };
    // States of small numbers take fewer bytes to store, hash and compare.
    let failure = match width {
        Width::Narrowest if order < u8::MAX as usize => find_failure::<u8>(&tables, budget, n)?,
        Width::Narrowest | Width::U16 if order < u16::MAX as usize => {
            find_failure::<u16>(&tables, budget, n)?
        }
        _ => find_failure::<u32>(&tables, budget, n)?,
    };
    if let Some(letters) = failure {
        debug_assert!(!known, "a verification that passed before fails");
        // Rebuild the position: for each image present, one kind with
        // no option into P from the value with that heap removed.
        let mut kind_for = vec![usize::MAX; m];
        for &j in &letters {
            if kind_for[j] != usize::MAX {
                continue;
            }
            let at = letters.iter().position(|&l| l == j).unwrap();
            let c = letters
                .iter()
                .enumerate()
                .filter(|&(idx, _)| idx != at)
                .fold(0u32, |v, (_, &l)| cols[l][v as usize]);
            kind_for[j] = (0..kinds_n)
                .find(|&k| kind_image[k] == images[j] && !bad[k][c as usize])
                .expect("a good kind, as the class says");
        }
        let mut w: Vec<u16> = letters.iter().map(|&j| kind_heap[kind_for[j]]).collect();
        w.sort_unstable();
        return Ok(Err(LocalRuleFails(w)));
    }
    if !known {
        if budget.passed.len() == PASSED_KEPT {
            budget.passed.remove(0);
        }
        budget.passed.push(key);
    }
    Ok(Ok(()))
}

/// What the search of extended states in [`verify`] goes by, for the
/// images present: element `c` times image `j` is `cols[j][c]`; the class of
/// `c` for image `j` is `classes[j][c]`, and `class_step[j][l]` moves such a
/// class on by image `l`; `class_good[j]` says that some kind of image `j`
/// has no option into P from the class, and `alive[j]` that a good class is
/// reachable from it.
struct Tables<'a> {
    p: &'a [bool],
    cols: &'a [&'a Vec<u32>],
    classes: &'a [Vec<u32>],
    class_good: &'a [Vec<bool>],
    class_step: &'a [Vec<Vec<u32>>],
    alive: &'a [Vec<bool>],
}

/// A number in a stored state: an element or a class, or `NONE`.
trait Cell: Copy + Eq + Into<u64> {
    const NONE: Self;
    /// `x`, which is below `Self::NONE` or is the module's `NONE`.
    fn of(x: u32) -> Self;
    fn index(self) -> usize {
        self.into() as usize
    }
}

macro_rules! cell {
    ($t:ty) => {
        impl Cell for $t {
            const NONE: $t = <$t>::MAX;
            fn of(x: u32) -> $t {
                if x == NONE { <$t>::MAX } else { x as $t }
            }
        }
    };
}
cell!(u8);
cell!(u16);
cell!(u32);

/// The breadth-first search of [`verify`] over extended states (the image of
/// a position, then for each image the class of the position with one such
/// heap removed), in cells of type `C`, each number of which is below
/// `C::NONE`. Returns the images of the heaps, one per letter, of a
/// position where the local rule fails, or `None` when it holds everywhere.
fn find_failure<C: Cell>(
    t: &Tables,
    budget: &mut Budget,
    heap: usize,
) -> Result<Option<Vec<usize>>, QuotientError> {
    let m = t.cols.len();
    let narrow = |table: &[u32]| -> Vec<C> { table.iter().map(|&x| C::of(x)).collect() };
    let cols: Vec<Vec<C>> = t.cols.iter().map(|c| narrow(c)).collect();
    let classes: Vec<Vec<C>> = t.classes.iter().map(|c| narrow(c)).collect();
    let class_step: Vec<Vec<Vec<C>>> = t
        .class_step
        .iter()
        .map(|row| row.iter().map(|c| narrow(c)).collect())
        .collect();
    let start: Vec<C> = std::iter::once(C::of(0))
        .chain(std::iter::repeat_n(C::NONE, m))
        .collect();
    let mut states: FlatSet<C> = FlatSet::new();
    states.insert(&start);
    let mut parent: Vec<(u32, u32)> = vec![(NONE, NONE)];
    let mut s: Vec<C> = Vec::with_capacity(1 + m);
    let mut next: Vec<C> = Vec::with_capacity(1 + m);
    let mut i = 0;
    while i < states.len() {
        s.clear();
        s.extend_from_slice(states.get(i));
        // Every kind has a move (heaps without one are left out).
        let movable = (0..m).any(|j| s[1 + j] != C::NONE);
        let fails = movable
            && !t.p[s[0].index()]
            && (0..m).all(|j| s[1 + j] == C::NONE || t.class_good[j][s[1 + j].index()]);
        if fails {
            let mut letters = Vec::new();
            let mut at = i as u32;
            while parent[at as usize].0 != NONE {
                let (up, j) = parent[at as usize];
                letters.push(j as usize);
                at = up;
            }
            letters.reverse();
            return Ok(Some(letters));
        }
        for j in 0..m {
            next.clear();
            next.push(cols[j][s[0].index()]);
            let mut dead = false;
            for (l, &c) in s[1..].iter().enumerate() {
                let class = if l == j {
                    classes[l][s[0].index()]
                } else if c == C::NONE {
                    C::NONE
                } else {
                    class_step[l][j][c.index()]
                };
                if class != C::NONE && !t.alive[l][class.index()] {
                    dead = true;
                }
                next.push(class);
            }
            if dead {
                continue;
            }
            if states.insert(&next) {
                budget.check(states.len() - 1, heap)?;
                parent.push((i as u32, j as u32));
            }
        }
        i += 1;
    }
    Ok(None)
}

/// The coarsest partition of the elements that separates `output` and is
/// kept by multiplication with every column: Moore's refinement.
fn refine(order: usize, output: &[bool], cols: &[&Vec<u32>]) -> Vec<u32> {
    let mut block: Vec<u32> = output.iter().map(|&b| b as u32).collect();
    let mut count = {
        let mut b = block.clone();
        b.sort_unstable();
        b.dedup();
        b.len()
    };
    loop {
        let mut ids: HashMap<Vec<u32>, u32> = HashMap::new();
        let next: Vec<u32> = (0..order)
            .map(|q| {
                let mut key = vec![block[q]];
                key.extend(cols.iter().map(|c| block[c[q] as usize]));
                let len = ids.len() as u32;
                *ids.entry(key).or_insert(len)
            })
            .collect();
        block = next;
        if ids.len() == count {
            return block;
        }
        count = ids.len();
    }
}

/// Whether distinct elements are always told apart by some element
/// (Moore's partition refinement over the heap images).
pub(crate) fn is_reduced(work: &Work) -> bool {
    let order = work.order();
    let mut block: Vec<u32> = work.p.iter().map(|&p| p as u32).collect();
    let mut images: Vec<u32> = work.cols.keys().copied().collect();
    images.sort_unstable();
    loop {
        let mut ids: HashMap<Vec<u32>, u32> = HashMap::new();
        let next: Vec<u32> = (0..order)
            .map(|q| {
                let mut key = vec![block[q]];
                key.extend(images.iter().map(|x| block[work.cols[x][q] as usize]));
                let len = ids.len() as u32;
                *ids.entry(key).or_insert(len)
            })
            .collect();
        let count = ids.len();
        let before = {
            let mut b = block.clone();
            b.sort_unstable();
            b.dedup();
            b.len()
        };
        block = next;
        if count == before {
            return count == order;
        }
    }
}

/// The quotient of heaps `1..=n` from that of `1..n-1`.
fn extend(
    prev: &Work,
    n: usize,
    options: &[Vec<Vec<u16>>],
    budget: &mut Budget,
) -> Result<Work, QuotientError> {
    // Try each existing element as the image of heap n.
    let opt_images: Vec<u32> = options[n].iter().map(|o| prev.eval(o)).collect();
    let alone_p = !opt_images.is_empty() && !opt_images.iter().any(|&y| prev.p[y as usize]);
    for q in 0..prev.order() as u32 {
        if prev.p[q as usize] != alone_p {
            continue;
        }
        if is_mex(prev, q, &opt_images, options) {
            let mut work = prev.clone();
            work.heaps = n;
            work.image.push(q);
            work.cols.entry(q).or_insert_with(|| prev.column(q));
            return Ok(work);
        }
    }
    // Verification is what costs, so first keep only the elements whose
    // products agree with the pretending outcomes of heap n with each
    // element's representative. When some element is heap n's image, no
    // class splits, the pretending outcomes are exact, and that element is
    // kept; verification still decides.
    let mut oracle = Oracle {
        options,
        base: prev,
        memo: FlatSet::new(),
        memo_p: Vec::new(),
        heap: n,
        pretend: true,
        buffers: Vec::new(),
    };
    let mut column = Vec::with_capacity(prev.order());
    for r in &prev.rep {
        column.push(oracle.is_p(&with(r, n as u16), budget)?);
    }
    drop(oracle);
    for q in 0..prev.order() as u32 {
        if prev.p[q as usize] != alone_p
            || (0..prev.order() as u32)
                .any(|c| prev.p[prev.mul(q, c) as usize] != column[c as usize])
        {
            continue;
        }
        let mut work = prev.clone();
        work.heaps = n;
        work.image.push(q);
        work.cols.entry(q).or_insert_with(|| prev.column(q));
        if verify(&work, options, budget)?.is_ok() {
            return Ok(work);
        }
    }
    // First as if heap n split no class of the smaller heaps (fast); the
    // exact verification decides, and if it refuses, learn from exact
    // outcomes.
    if let Some(work) = learn(prev, n, options, budget, true)? {
        return Ok(work);
    }
    // Heap n split a class of the smaller heaps. Recalibrating searches no
    // game tree; learning from exact outcomes, the last resort, does.
    if let Some(work) = recalibrate(prev, n, options, budget)? {
        return Ok(work);
    }
    Ok(learn(prev, n, options, budget, false)?
        .expect("exact learning ends with a verified quotient"))
}

/// Rounds of [`recalibrate`] for one heap before it gives up.
const RECALIBRATE_ROUNDS: usize = 1000;

/// A recalibration's candidate may grow to this many times the order of
/// the smaller heaps' quotient. (On the way to the 360 elements of Dawson's
/// Kayles at heap 30, one candidate has 848, from a quotient of 176.)
const RECALIBRATE_MAX_GROWTH: usize = 64;

/// Rounds in a row of [`recalibrate`] that cut loose only heaps cut loose
/// before, while the largest cycle index rises by [`RUNAWAY_RISE`] to at
/// least [`RUNAWAY_INDEX`], after which it stops: the quotient looks
/// infinite ([`QuotientError::Unbounded`]). On `0.76` at heap 12 every
/// round raises the index of heap 7 or heap 12 by one (past 80 when let
/// run), each least failure a position with one more copy of each; on
/// `4.76` and `4.77` at heap 6 it is heaps 2 and 5.
const RUNAWAY_ROUNDS: usize = 16;

/// The least cycle index (`x^(i+2) = x^i`) a runaway must have reached.
const RUNAWAY_INDEX: u32 = 12;

/// How much the largest cycle index must rise during a runaway.
const RUNAWAY_RISE: u32 = 4;

/// Sets of a failing position's heaps a round tries to cut loose, fewest
/// heaps first, before it gives up.
const RECALIBRATE_TRIES: usize = 256;

/// The quotient of heaps `1..=n` by recalibration (see
/// [`super::recalibrate`]), or `None` when it gives up: after
/// [`RECALIBRATE_ROUNDS`] rounds, when a candidate grows past
/// [`RECALIBRATE_MAX_GROWTH`] times `prev`'s order, or when no set of the
/// heaps of a least failure mends it.
fn recalibrate(
    prev: &Work,
    n: usize,
    options: &[Vec<Vec<u16>>],
    budget: &mut Budget,
) -> Result<Option<Work>, QuotientError> {
    use super::recalibrate::{Cut, candidate, least_failure};
    // Each round cuts heaps loose from the last candidate, so the structure
    // stays about as small as the candidate.
    let mut current: Work = prev.clone();
    let mut cut = Cut::new(n);
    // The largest index each heap has been cut loose with; how many rounds in a row
    // cut loose only heaps cut loose before, and the largest index when that
    // run began.
    let mut indices: HashMap<u16, u32> = HashMap::new();
    let (mut steady, mut steady_from) = (0, 0);
    for round in 0..RECALIBRATE_ROUNDS {
        let work = candidate(&current, n, &cut, options, budget)?;
        if work.order() > RECALIBRATE_MAX_GROWTH * prev.order().max(1) {
            return Ok(None);
        }
        let Some(w) = least_failure(&work, options, budget)? else {
            debug_assert!(is_reduced(&work));
            // Debug builds (and so the tests) check it with the other
            // verification too, where that stays within a million states.
            #[cfg(debug_assertions)]
            {
                let limits = QuotientLimits {
                    max_states: budget.limits.max_states.min(1_000_000),
                    ..budget.limits
                };
                if let Ok(checked) = verify(&work, options, &mut Budget::new(limits)) {
                    assert!(checked.is_ok(), "both verifications agree");
                }
            }
            return Ok(Some(work));
        };
        // Every position before w is right, so w's outcome is the local
        // rule's: the opposite of the claim.
        let truth = !work.p[work.eval(&w) as usize];
        // The heaps of w, with their copies.
        let mut heaps: Vec<(u16, u32)> = Vec::new();
        for &h in &w {
            if options[h as usize].is_empty() {
                continue;
            }
            match heaps.last_mut() {
                Some((g, k)) if *g == h => *k += 1,
                _ => heaps.push((h, 1)),
            }
        }
        // Cut loose the fewest of them that label w right; each new
        // generator's index covers its old image's and w's copies.
        let mut subsets: Vec<u32> = (1..1u32 << heaps.len().min(16)).collect();
        subsets.sort_by_key(|s| s.count_ones());
        let mut mended = None;
        for &subset in subsets.iter().take(RECALIBRATE_TRIES) {
            let mut next = Cut { loose: Vec::new() };
            for (i, &(h, k)) in heaps.iter().enumerate() {
                if subset >> i & 1 == 1 {
                    let index = cycle_index(&work, work.image[h as usize]).max(k - 1).max(1);
                    next = next.with(h, index);
                }
            }
            let tried = candidate(&work, n, &next, options, budget)?;
            if tried.p[tried.eval(&w) as usize] == truth {
                mended = Some(next);
                break;
            }
        }
        match mended {
            Some(next) => {
                let before = indices.values().copied().max().unwrap_or(0);
                let mut known = true;
                for &(h, index) in &next.loose {
                    let old = indices.entry(h).or_insert_with(|| {
                        known = false;
                        index
                    });
                    *old = (*old).max(index);
                }
                let top = indices.values().copied().max().unwrap_or(0);
                if known {
                    steady += 1;
                } else {
                    (steady, steady_from) = (0, before);
                }
                if steady >= RUNAWAY_ROUNDS
                    && top >= RUNAWAY_INDEX
                    && top >= steady_from + RUNAWAY_RISE
                {
                    let mut heaps: Vec<u64> = indices.keys().map(|&h| h as u64).collect();
                    heaps.sort_unstable();
                    return Err(QuotientError::Unbounded {
                        heap: n as u64,
                        order: prev.order(),
                        heaps,
                        index: top,
                        rounds: round + 1,
                        failure: w.iter().map(|&h| h as u64).collect(),
                    });
                }
                current = work;
                cut = next;
            }
            None => return Ok(None),
        }
    }
    Ok(None)
}

/// The least `i` with `x^(i+2) = x^i` in `work` (every element of a misère
/// quotient has one, and so does every candidate built by
/// [`super::recalibrate::candidate`]), at most 64.
fn cycle_index(work: &Work, x: u32) -> u32 {
    let col = work.column(x);
    let mut powers = vec![0u32];
    for _ in 0..66 {
        let last = *powers.last().expect("x^0");
        powers.push(col[last as usize]);
    }
    (0..64).find(|&i| powers[i] == powers[i + 2]).unwrap_or(64) as u32
}

/// Whether `x` is the mex of the option images `options` (Plambeck and
/// Siegel): for every element `y`, `x·y` is in P exactly when no `s·y`
/// (`s` an option image) is. Then a new heap with these options is
/// indistinguishable from any position of image `x`, and the quotient does
/// not grow. Proof, by induction on the number of copies of the new heap
/// `G` and then on height, for a position `G + W` with `y` the image of `W`:
/// if `x·y` is not in P, some option `G' + W` is in P; if it is, no `G' + W`
/// is, and no `G + W'` is either, because `X + W` (with `X` a position of
/// smaller heaps whose image is `x`) is a P-position with one copy fewer of
/// `G`, so its options `X + W'` are not.
fn is_mex(work: &Work, x: u32, options: &[u32], all_options: &[Vec<Vec<u16>>]) -> bool {
    if options.is_empty() {
        return x == 0;
    }
    // The option images of X, the representative of x.
    let rep = &work.rep[x as usize];
    let mut rep_options: Vec<u32> = Vec::new();
    for i in 0..rep.len() {
        if i > 0 && rep[i] == rep[i - 1] {
            continue;
        }
        let rest: Vec<u16> = rep[..i].iter().chain(&rep[i + 1..]).copied().collect();
        let base = work.eval(&rest);
        for o in &all_options[rep[i] as usize] {
            rep_options.push(work.eval_from(base, o));
        }
    }
    rep_options.sort_unstable();
    rep_options.dedup();
    (0..work.order() as u32).all(|y| {
        let option_in_p = options.iter().any(|&s| work.p[work.mul(s, y) as usize]);
        if work.p[work.mul(x, y) as usize] {
            !option_in_p
        } else {
            option_in_p || !rep_options.iter().any(|&s| work.p[work.mul(s, y) as usize])
        }
    })
}

/// A pair of heap images whose columns do not commute at some element.
fn commutes(work: &Work) -> Option<(u32, u32, u32)> {
    let mut images: Vec<u32> = work.cols.keys().copied().collect();
    images.sort_unstable();
    for (i, &x) in images.iter().enumerate() {
        for &y in &images[i + 1..] {
            let (cx, cy) = (&work.cols[&x], &work.cols[&y]);
            for q in 0..work.order() {
                if cx[cy[q] as usize] != cy[cx[q] as usize] {
                    return Some((x, y, q as u32));
                }
            }
        }
    }
    None
}

/// Rebuilds the quotient of heaps `1..=n` from misère outcomes: exact ones,
/// or with `pretend`, those of the pretending oracle (see [`Oracle`]). A
/// pretending run gives up (`None`) as soon as its candidate fails the exact
/// verification or is not reduced; an exact run always ends with a verified
/// quotient or at a limit.
#[allow(clippy::needless_range_loop)] // heap sizes index several tables
fn learn(
    prev: &Work,
    n: usize,
    options: &[Vec<Vec<u16>>],
    budget: &mut Budget,
    pretend: bool,
) -> Result<Option<Work>, QuotientError> {
    let mut oracle = Oracle {
        options,
        base: prev,
        memo: FlatSet::new(),
        memo_p: Vec::new(),
        heap: n,
        pretend,
        buffers: Vec::new(),
    };
    let mut tests: Vec<Vec<u16>> = vec![Vec::new()];
    for r in &prev.rep {
        for t in [r.clone(), with(r, n as u16)] {
            if !tests.contains(&t) {
                tests.push(t);
            }
        }
    }
    // Each position's outcomes with the tests so far, in the tests' order.
    let mut outcomes: HashMap<Vec<u16>, Vec<bool>> = HashMap::new();
    loop {
        // Exact outcomes always yield a new test; pretending ones may not,
        // and then the exact run takes over.
        if pretend && tests[..tests.len() - 1].contains(&tests[tests.len() - 1]) {
            return Ok(None);
        }
        // Classes of positions by their outcomes with the tests added. The
        // tests only grow, and the same positions come back in every round,
        // so each position's outcomes are kept and only the new tests'
        // are asked for (each ask builds, sorts and looks up a position).
        let mut signature = |oracle: &mut Oracle, w: &[u16], budget: &mut Budget| {
            let known = outcomes.entry(w.to_vec()).or_default();
            for t in &tests[known.len()..] {
                known.push(oracle.is_p(&union(w, t), budget)?);
            }
            Ok::<Vec<bool>, QuotientError>(known.clone())
        };
        let mut sigs: Vec<Vec<bool>> = vec![signature(&mut oracle, &[], budget)?];
        let mut by_sig: HashMap<Vec<bool>, u32> = HashMap::new();
        by_sig.insert(sigs[0].clone(), 0);
        let mut reps: Vec<Vec<u16>> = vec![Vec::new()];
        let mut trans: Vec<Vec<u32>> = vec![Vec::new(); n + 1];
        let mut i = 0;
        while i < reps.len() {
            for h in 1..=n {
                let w = with(&reps[i], h as u16);
                let sig = signature(&mut oracle, &w, budget)?;
                let id = match by_sig.get(&sig) {
                    Some(&id) => id,
                    None => {
                        let id = reps.len() as u32;
                        if pretend && reps.len() >= PRETEND_MAX_GROWTH * prev.order() {
                            // Pretending outcomes need not come from a finite
                            // quotient: leave it to the exact run.
                            return Ok(None);
                        }
                        budget.check_order(reps.len() + 1, n)?;
                        by_sig.insert(sig.clone(), id);
                        sigs.push(sig);
                        reps.push(w);
                        id
                    }
                };
                trans[h].push(id);
            }
            i += 1;
        }
        let order = reps.len();
        let image: Vec<u32> = (0..=n)
            .map(|h| if h == 0 { 0 } else { trans[h][0] })
            .collect();
        // Heaps with one image must act alike; otherwise a test splits them.
        let mut cols: HashMap<u32, Vec<u32>> = HashMap::new();
        let mut first: HashMap<u32, usize> = HashMap::new();
        let mut new_test = None;
        for h in 1..=n {
            match first.get(&image[h]) {
                None => {
                    first.insert(image[h], h);
                    cols.insert(image[h], trans[h].clone());
                }
                Some(&g) => {
                    if let Some(q) = (0..order).find(|&q| trans[h][q] != trans[g][q]) {
                        let (a, b) = (trans[h][q] as usize, trans[g][q] as usize);
                        let t = (0..tests.len())
                            .find(|&t| sigs[a][t] != sigs[b][t])
                            .unwrap();
                        new_test = Some(union(&reps[q], &tests[t]));
                        break;
                    }
                }
            }
        }
        if let Some(t) = new_test {
            tests.push(t);
            continue;
        }
        cols.entry(0).or_insert_with(|| (0..order as u32).collect());
        let work = Work {
            heaps: n,
            p: sigs.iter().map(|s| s[0]).collect(),
            rep: reps,
            image,
            cols,
        };
        if let Some((x, y, q)) = commutes(&work) {
            // q·x·y reached two ways: one of the steps merged positions that
            // a test tells apart.
            let (cx, cy) = (&work.cols[&x], &work.cols[&y]);
            let (hx, hy) = (first[&x] as u16, first[&y] as u16);
            let (s1, s2) = (cy[cx[q as usize] as usize], cx[cy[q as usize] as usize]);
            let t = (0..tests.len())
                .find(|&t| sigs[s1 as usize][t] != sigs[s2 as usize][t])
                .unwrap();
            let w = with(&with(&work.rep[q as usize], hx), hy);
            let truth = oracle.is_p(&union(&w, &tests[t]), budget)?;
            let added = if truth != sigs[s1 as usize][t] {
                with(&tests[t], hy)
            } else {
                with(&tests[t], hx)
            };
            tests.push(added);
            continue;
        }
        match verify(&work, options, budget)? {
            Ok(()) if pretend => {
                // Verified: its images decide every outcome. It is the
                // quotient when its elements are also told apart.
                return Ok(is_reduced(&work).then_some(work));
            }
            Ok(()) => {
                debug_assert!(is_reduced(&work));
                return Ok(Some(work));
            }
            Err(LocalRuleFails(w)) => {
                // Pretending outcomes need not follow the local rule, so
                // there the search for a new test may find none.
                let suffix = match misclassified(&work, &mut oracle, w, budget)? {
                    Some(wrong) => splitting_test(&work, &mut oracle, &wrong, budget)?,
                    None => None,
                };
                match suffix {
                    Some(t) if !tests.contains(&t) => tests.push(t),
                    _ if pretend => return Ok(None),
                    _ => unreachable!("a failing local rule yields a new test on exact outcomes"),
                }
            }
        }
    }
}

/// Whether the local rule holds at `position` for `work`'s claims: it is
/// claimed in P exactly when it has a move and no option is claimed in P.
#[cfg(test)]
fn local_rule_holds(work: &Work, options: &[Vec<Vec<u16>>], position: &[u16]) -> bool {
    let mut any_move = false;
    let mut option_in_p = false;
    for i in 0..position.len() {
        let rest: Vec<u16> = position[..i]
            .iter()
            .chain(&position[i + 1..])
            .copied()
            .collect();
        let base = work.eval(&rest);
        for option in &options[position[i] as usize] {
            any_move = true;
            option_in_p |= work.p[work.eval_from(base, option) as usize];
        }
    }
    work.p[work.eval(position) as usize] == (any_move && !option_in_p)
}

/// From a position where the local rule fails, a position whose image
/// gives the wrong outcome.
fn misclassified(
    work: &Work,
    oracle: &mut Oracle,
    mut w: Vec<u16>,
    budget: &mut Budget,
) -> Result<Option<Vec<u16>>, QuotientError> {
    loop {
        let truth = oracle.is_p(&w, budget)?;
        if work.p[work.eval(&w) as usize] != truth {
            return Ok(Some(w));
        }
        // The image is right, so some option's image is wrong.
        let mut found = None;
        'outer: for i in 0..w.len() {
            let h = w[i] as usize;
            for option in &oracle.options[h] {
                let mut next: Vec<u16> = Vec::new();
                next.extend_from_slice(&w[..i]);
                next.extend_from_slice(&w[i + 1..]);
                next.extend_from_slice(option);
                next.sort_unstable();
                let claimed = work.p[work.eval(&next) as usize];
                if claimed != oracle.is_p(&next, budget)? {
                    found = Some(next);
                    break 'outer;
                }
            }
        }
        // On exact outcomes the local rule fails, so some option is
        // misclassified.
        match found {
            Some(next) => w = next,
            None => return Ok(None),
        }
    }
}

/// A test position that separates two positions the automaton merged,
/// found along the path of a misclassified position.
fn splitting_test(
    work: &Work,
    oracle: &mut Oracle,
    wrong: &[u16],
    budget: &mut Budget,
) -> Result<Option<Vec<u16>>, QuotientError> {
    // u_j = rep(state after j letters) + the remaining letters.
    let mut state = 0u32;
    let mut prev_truth = oracle.is_p(wrong, budget)?;
    for j in 0..wrong.len() {
        let next_state = work.cols[&work.image[wrong[j] as usize]][state as usize];
        let rest = &wrong[j + 1..];
        let truth = oracle.is_p(&union(&work.rep[next_state as usize], rest), budget)?;
        if truth != prev_truth {
            return Ok(Some(rest.to_vec()));
        }
        prev_truth = truth;
        state = next_state;
    }
    // On exact outcomes the misclassified position's differs from its
    // image's, so some step changes it.
    Ok(None)
}

/// Builds the quotients of heaps `1..=n` for every `n` up to `to`, calling
/// `step` after each heap; `step` returning false ends the build there.
/// `options_of(n)` lists the options of heap `n`; each is asked for when
/// its heap is added, and all those kept count against the state limit
/// (a game that splits a heap in three has about `n²/12` options at heap
/// `n`).
pub(crate) fn build(
    options_of: impl FnMut(usize) -> Vec<Vec<u16>>,
    to: usize,
    limits: QuotientLimits,
    step: impl FnMut(&Work) -> bool,
) -> Result<Work, QuotientError> {
    match build_from(Work::empty(), options_of, to, limits, step) {
        (work, None) => Ok(work),
        (_, Some(stop)) => Err(stop),
    }
}

/// [`build`] from a verified quotient of the heaps `1..=start.heaps` (the
/// empty quotient to start afresh). Returns the quotient of the most heaps
/// reached: all of them, or, with the limit that stopped the build, those
/// below the heap it was adding. Each is verified, so a build that stops
/// keeps what it proved.
pub(crate) fn build_from(
    start: Work,
    mut options_of: impl FnMut(usize) -> Vec<Vec<u16>>,
    to: usize,
    limits: QuotientLimits,
    mut step: impl FnMut(&Work) -> bool,
) -> (Work, Option<QuotientError>) {
    let mut budget = Budget::new(limits);
    let mut work = start;
    let mut options: Vec<Vec<Vec<u16>>> = vec![Vec::new()];
    let mut kept = 0usize;
    for n in 1..=work.heaps {
        let heap = options_of(n);
        kept += heap.len();
        options.push(heap);
    }
    // The image of each heap so far by the set of its options' images, for
    // the quotient of the heaps so far (rebuilt when that is rebuilt).
    let mut same_options: HashMap<Vec<u32>, u32> = (1..=work.heaps)
        .map(|h| (option_images(&work, &options[h]), work.image[h]))
        .collect();
    for n in work.heaps + 1..=to {
        budget.base_order = work.order();
        let heap = options_of(n);
        kept += heap.len();
        if let Err(stop) = budget.check(kept, n) {
            return (work, Some(stop));
        }
        options.push(heap);
        let key = option_images(&work, &options[n]);
        if let Some(&q) = same_options.get(&key) {
            // Heap n has the options' images of an earlier heap: it is
            // that heap's equal (see `option_images`), and the kinds of
            // heap that verification goes by are those already verified.
            work.heaps = n;
            work.image.push(q);
        } else {
            let next = match extend(&work, n, &options, &mut budget) {
                Ok(next) => next,
                Err(stop) => return (work, Some(stop)),
            };
            if let Err(stop) = budget.check_order(next.order(), n) {
                return (work, Some(stop));
            }
            if next.rep == work.rep {
                same_options.insert(key, next.image[n]);
            } else {
                same_options = (1..=n)
                    .map(|h| (option_images(&next, &options[h]), next.image[h]))
                    .collect();
            }
            work = next;
        }
        if !step(&work) {
            break;
        }
    }
    (work, None)
}

/// The set of a heap's options' images (sorted, without repeats).
///
/// Two heaps `A` and `B` with the same set are equal in every sum of the
/// heaps so far. Compare `k·A + W` with `k·B + W` (`W` of smaller heaps),
/// by induction on the game tree. A move in `W` leads to `k·A + W'` and
/// `k·B + W'`, alike by induction. A move in a copy of `A` leads to
/// `(k-1)·A + A' + W`, alike by induction to `(k-1)·B + A' + W`, a position
/// of smaller heaps only; it has the outcome of `(k-1)·B + B' + W` for an
/// option `B'` of `B` with the image of `A'`, because positions of smaller
/// heaps with one image are told apart by no position of smaller heaps.
/// The same holds the other way round, so the two have options of the same
/// outcomes (and one is over when the other is): their outcomes agree, and
/// the later heap takes the earlier one's image.
fn option_images(work: &Work, options: &[Vec<u16>]) -> Vec<u32> {
    let mut images: Vec<u32> = options.iter().map(|o| work.eval(o)).collect();
    images.sort_unstable();
    images.dedup();
    images
}

#[cfg(test)]
mod tests {
    /// The verification's search gives the same answer, and the same
    /// position where it fails, whatever cells its states are stored in: on
    /// misère Kayles' quotients heap by heap, each as computed (they pass)
    /// and with one element's side of the P-portion switched (most fail).
    #[test]
    fn verification_answers_alike_in_every_cell_width() {
        use super::{Budget, QuotientLimits, Width, Work, build, verify_as};
        let rule = "kayles"
            .parse::<crate::sequence::HeapGame>()
            .unwrap()
            .rule();
        let options: Vec<Vec<Vec<u16>>> = (0..=30)
            .map(|n| super::super::moves::options_of(&rule, n))
            .collect();
        let mut works: Vec<Work> = Vec::new();
        build(
            |n| options[n].clone(),
            30,
            QuotientLimits::default(),
            |w| {
                works.push(w.clone());
                true
            },
        )
        .unwrap();
        let (mut passed, mut failed) = (0, 0);
        for work in &works {
            let mut candidates = vec![work.clone()];
            for e in 1..work.order() {
                let mut wrong = work.clone();
                wrong.p[e] = !wrong.p[e];
                candidates.push(wrong);
            }
            for candidate in &candidates {
                let answers: Vec<Option<Vec<u16>>> = [Width::Narrowest, Width::U16, Width::U32]
                    .into_iter()
                    .map(|width| {
                        let mut budget = Budget::new(QuotientLimits::default());
                        verify_as(candidate, &options, &mut budget, width)
                            .unwrap()
                            .err()
                            .map(|f| f.0)
                    })
                    .collect();
                assert_eq!(answers[0], answers[1]);
                assert_eq!(answers[0], answers[2]);
                match answers[0] {
                    None => passed += 1,
                    Some(_) => failed += 1,
                }
            }
        }
        // Every computed quotient passes; the switched ones mostly fail.
        assert!(passed >= works.len(), "{passed}");
        assert!(failed > passed, "{failed} failed, {passed} passed");
    }

    /// The least-failure search of recalibration is a verification too: on
    /// Kayles' and Dawson's Kayles' quotients heap by heap, as computed and
    /// with one element's side of the P-portion switched, it finds a
    /// failure exactly when the breadth-first search does, and its failure
    /// is one (the local rule fails there).
    #[test]
    fn the_least_failure_search_verifies_as_the_breadth_first_one_does() {
        use super::super::recalibrate::least_failure;
        use super::{Budget, QuotientLimits, Work, build, verify};
        for (spec, to) in [("kayles", 26), ("dawson", 24)] {
            let rule = spec.parse::<crate::sequence::HeapGame>().unwrap().rule();
            let options: Vec<Vec<Vec<u16>>> = (0..=to)
                .map(|n| super::super::moves::options_of(&rule, n))
                .collect();
            let mut works: Vec<Work> = Vec::new();
            build(
                |n| options[n].clone(),
                to,
                QuotientLimits::default(),
                |w| {
                    works.push(w.clone());
                    true
                },
            )
            .unwrap();
            let mut failures = 0;
            for work in &works {
                for e in 0..work.order() {
                    let mut candidate = work.clone();
                    if e > 0 {
                        candidate.p[e] = !candidate.p[e];
                    }
                    let mut budget = Budget::new(QuotientLimits::default());
                    let wide = verify(&candidate, &options, &mut budget).unwrap();
                    let least = least_failure(&candidate, &options, &mut budget).unwrap();
                    assert_eq!(wide.is_ok(), least.is_none(), "{spec} to {}", work.heaps);
                    if let Some(w) = least {
                        failures += 1;
                        let claim = candidate.p[candidate.eval(&w) as usize];
                        let rule = super::local_rule_holds(&candidate, &options, &w);
                        assert!(!rule, "{spec}: the local rule holds at {w:?} ({claim})");
                    }
                }
            }
            assert!(failures > 100, "{spec}: {failures}");
        }
    }

    /// A position with a move whose image is the identity, with no option
    /// in P, is a failure even though the empty position (with the same
    /// image and fewer option images) comes first: the search checks each
    /// position before passing it over.
    #[test]
    fn a_failure_with_the_identity_as_its_image_is_found() {
        use super::super::recalibrate::least_failure;
        use super::{Budget, QuotientLimits, Work};
        // Heap 1 has one move, to nothing; a candidate that gives it the
        // identity and leaves P empty is wrong at [1].
        let options: Vec<Vec<Vec<u16>>> = vec![Vec::new(), vec![Vec::new()]];
        let mut cols = std::collections::HashMap::new();
        cols.insert(0, vec![0]);
        let wrong = Work {
            heaps: 1,
            p: vec![false],
            rep: vec![Vec::new()],
            image: vec![0, 0],
            cols,
        };
        let mut budget = Budget::new(QuotientLimits::default());
        assert_eq!(
            least_failure(&wrong, &options, &mut budget).unwrap(),
            Some(vec![1])
        );
    }
}
