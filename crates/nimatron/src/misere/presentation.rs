//! Generators, normal forms and relations of a finite commutative monoid
//! given as an automaton over its heap images.

use std::collections::{HashMap, HashSet};

use super::work::Work;

/// A presentation: generators, every element as a normal-form word, and
/// the relations that rewrite any other word to its normal form.
pub(crate) struct Built {
    /// The element each generator stands for, and the heap it is the image of.
    pub generators: Vec<(u32, u64)>,
    /// Normal forms (exponent vectors), in presentation order.
    pub normal_forms: Vec<Vec<u32>>,
    /// The work element of each normal form, in presentation order.
    pub element_of: Vec<u32>,
    /// Relations `lhs = rhs` as exponent vectors.
    pub relations: Vec<(Vec<u32>, Vec<u32>)>,
}

/// Builds the presentation. Generators are the images of heaps, in heap
/// order, that the earlier generators do not already produce. Normal forms
/// are the least words in degree-then-lexicographic order (a monomial order,
/// so the relations from the least non-normal words are a complete
/// rewriting system).
pub(crate) fn present(work: &Work) -> Built {
    let order = work.order();
    let mut generators: Vec<(u32, u64)> = Vec::new();
    let mut reached: HashSet<u32> = HashSet::from([0]);
    for h in 1..=work.heaps {
        let x = work.image[h];
        if reached.contains(&x) {
            continue;
        }
        generators.push((x, h as u64));
        // Close under all generators.
        let mut frontier: Vec<u32> = reached.iter().copied().collect();
        while let Some(q) = frontier.pop() {
            for &(g, _) in &generators {
                let r = work.cols[&g][q as usize];
                if reached.insert(r) {
                    frontier.push(r);
                }
            }
        }
    }
    debug_assert_eq!(reached.len(), order);
    let k = generators.len();
    let mut normal_forms: Vec<Vec<u32>> = vec![vec![0; k]];
    let mut element_of: Vec<u32> = vec![0];
    let mut seen: HashMap<u32, usize> = HashMap::from([(0, 0)]);
    let mut normal: HashSet<Vec<u32>> = HashSet::from([vec![0; k]]);
    let mut relations = Vec::new();
    let mut level: Vec<usize> = vec![0];
    while !level.is_empty() {
        let mut candidates: Vec<(Vec<u32>, u32)> = Vec::new();
        for &i in &level {
            for (j, &(g, _)) in generators.iter().enumerate() {
                let mut word = normal_forms[i].clone();
                word[j] += 1;
                let elem = work.cols[&g][element_of[i] as usize];
                candidates.push((word, elem));
            }
        }
        // Earlier generators first: a^2 before ab before b^2.
        candidates.sort_by(|a, b| b.0.cmp(&a.0));
        candidates.dedup_by(|a, b| a.0 == b.0);
        let mut next = Vec::new();
        for (word, elem) in candidates {
            if let std::collections::hash_map::Entry::Vacant(e) = seen.entry(elem) {
                e.insert(normal_forms.len());
                next.push(normal_forms.len());
                normal.insert(word.clone());
                normal_forms.push(word);
                element_of.push(elem);
            } else {
                let minimal = (0..k).all(|j| {
                    word[j] == 0 || {
                        let mut d = word.clone();
                        d[j] -= 1;
                        normal.contains(&d)
                    }
                });
                if minimal {
                    relations.push((word, normal_forms[seen[&elem]].clone()));
                }
            }
        }
        level = next;
    }
    Built {
        generators,
        normal_forms,
        element_of,
        relations,
    }
}

/// The name of generator `i`: `a` to `z`, then `g27`, `g28`, ...
pub fn generator_name(i: usize) -> String {
    if i < 26 {
        ((b'a' + i as u8) as char).to_string()
    } else {
        format!("g{}", i + 1)
    }
}

/// A word as text: `1`, `a`, `b^2`, `ab^2`.
pub fn word_text(exponents: &[u32]) -> String {
    let mut s = String::new();
    for (i, &e) in exponents.iter().enumerate() {
        if e == 0 {
            continue;
        }
        let name = generator_name(i);
        if i >= 26 && !s.is_empty() {
            s.push('·');
        }
        s.push_str(&name);
        if e > 1 {
            s.push('^');
            s.push_str(&e.to_string());
        }
    }
    if s.is_empty() {
        s.push('1');
    }
    s
}
