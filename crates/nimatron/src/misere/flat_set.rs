//! A set of short lists of numbers kept flat, for the misère quotient's
//! searches and verifications.

/// A set of short lists of numbers (the verification's extended states,
/// the search's positions), each stored once in one flat array and found
/// again through an open-addressing table of their ids.
///
/// A map from `Vec` keys keeps every list in an allocation of its own (the
/// verification also kept each state a second time, in the list it walks),
/// and most lookups follow a pointer to compare keys: three fifths of a
/// misère Kayles run went to such a map. Here a slot holds the id and 32
/// bits of the list's hash, so a probe reads the list itself only when
/// those bits agree.
pub(super) struct FlatSet<T> {
    arena: Vec<T>,
    /// Where each list starts in `arena`; the next one's start (or the
    /// end of `arena`) is where it ends.
    starts: Vec<usize>,
    /// `tag << 32 | (id + 1)`, 0 when empty; a power of two long, at most
    /// half full.
    slots: Vec<u64>,
}

impl<T: Copy + Eq + Into<u64>> FlatSet<T> {
    pub(super) fn new() -> FlatSet<T> {
        FlatSet {
            arena: Vec::new(),
            starts: Vec::new(),
            slots: vec![0; 1024],
        }
    }

    pub(super) fn len(&self) -> usize {
        self.starts.len()
    }

    pub(super) fn get(&self, id: usize) -> &[T] {
        let end = self.starts.get(id + 1).copied().unwrap_or(self.arena.len());
        &self.arena[self.starts[id]..end]
    }

    /// A hash of a list: each number mixed in by a rotation and a
    /// multiplication, then the high bits folded down. The lists are short
    /// and made of small numbers that no one chooses so as to collide,
    /// which is why a quick hash will do.
    fn hash(list: &[T]) -> u64 {
        let h = list.iter().fold(list.len() as u64, |h, &x| {
            (h.rotate_left(5) ^ x.into()).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95)
        });
        h ^ h >> 29
    }

    /// The slot where `list` is, or the empty slot where it would go.
    fn slot(&self, list: &[T], h: u64) -> usize {
        let tag = h >> 32;
        let mask = self.slots.len() - 1;
        let mut i = h as usize & mask;
        loop {
            let slot = self.slots[i];
            if slot == 0 || (slot >> 32 == tag && self.get((slot as u32 - 1) as usize) == list) {
                return i;
            }
            i = (i + 1) & mask;
        }
    }

    /// The id of `list`, if it is in the set.
    pub(super) fn find(&self, list: &[T]) -> Option<usize> {
        let slot = self.slots[self.slot(list, Self::hash(list))];
        (slot != 0).then(|| (slot as u32 - 1) as usize)
    }

    /// Adds `list` if it is new, and says whether it was.
    pub(super) fn insert(&mut self, list: &[T]) -> bool {
        if 2 * (self.len() + 1) > self.slots.len() {
            self.grow();
        }
        let h = Self::hash(list);
        let i = self.slot(list, h);
        if self.slots[i] != 0 {
            return false;
        }
        self.slots[i] = (h >> 32) << 32 | (self.len() as u64 + 1);
        self.starts.push(self.arena.len());
        self.arena.extend_from_slice(list);
        true
    }

    /// Doubles the table and places every list again.
    fn grow(&mut self) {
        let size = self.slots.len() * 2;
        let mut slots = vec![0u64; size];
        for id in 0..self.len() {
            let h = Self::hash(self.get(id));
            let mut i = h as usize & (size - 1);
            while slots[i] != 0 {
                i = (i + 1) & (size - 1);
            }
            slots[i] = (h >> 32) << 32 | (id as u64 + 1);
        }
        self.slots = slots;
    }
}

#[cfg(test)]
mod tests {
    use super::FlatSet;

    /// Against a standard set: lists that differ in one number or in
    /// length, repeats, and enough of them to grow the table several times.
    #[test]
    fn the_flat_set_keeps_each_list_once() {
        let mut seed = 7u64;
        let mut next = || {
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (seed >> 33) as u32
        };
        for width in [1, 2, 5] {
            let mut set: FlatSet<u32> = FlatSet::new();
            let mut plain = std::collections::HashSet::new();
            let mut order = Vec::new();
            for _ in 0..20_000 {
                // Small numbers (many repeats), with NONE among them; lists
                // of every length up to 5 in the last round.
                let len = if width == 5 {
                    next() as usize % 6
                } else {
                    width
                };
                let state: Vec<u32> = (0..len)
                    .map(|_| match next() % 9 {
                        0 => u32::MAX,
                        r if width == 1 => r + next() % 3000,
                        r => r % 6,
                    })
                    .collect();
                let new = plain.insert(state.clone());
                assert_eq!(set.find(&state).is_some(), !new, "{state:?}");
                assert_eq!(set.insert(&state), new, "{state:?}");
                if new {
                    order.push(state);
                }
            }
            assert_eq!(set.len(), plain.len());
            for (id, state) in order.iter().enumerate() {
                assert_eq!(set.get(id), &state[..]);
            }
        }
    }
}
