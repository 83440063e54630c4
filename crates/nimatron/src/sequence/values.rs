//! Compact storage of a Grundy sequence: one byte per value while every
//! value is below 256, two bytes while below 65 536, four bytes beyond.

use crate::Nimber;

/// One stored Grundy value: `u8`, `u16` or `u32`.
pub(crate) trait Cell:
    Copy
    + Default
    + Send
    + Sync
    + PartialEq
    + std::ops::BitXor<Output = Self>
    + super::kernel::Pick
    + 'static
{
    /// The largest value this width holds.
    const MAX: u32;
    fn get(self) -> u32;
    /// `v` must be at most `MAX`.
    fn new(v: u32) -> Self;
    /// `self ^ r` as an index: below 2^16 for one- and two-byte cells (no
    /// mask needed, as `r` is a value of the same width), and `& mask` for
    /// four-byte cells.
    fn xor_index(self, r: u32, mask: usize) -> usize;
}

impl Cell for u8 {
    const MAX: u32 = u8::MAX as u32;
    #[inline(always)]
    fn get(self) -> u32 {
        self as u32
    }
    #[inline(always)]
    fn new(v: u32) -> Self {
        v as u8
    }
    #[inline(always)]
    fn xor_index(self, r: u32, _mask: usize) -> usize {
        (self as u32 ^ (r & 0xFF)) as usize
    }
}

impl Cell for u16 {
    const MAX: u32 = u16::MAX as u32;
    #[inline(always)]
    fn get(self) -> u32 {
        self as u32
    }
    #[inline(always)]
    fn new(v: u32) -> Self {
        v as u16
    }
    #[inline(always)]
    fn xor_index(self, r: u32, _mask: usize) -> usize {
        (self as u32 ^ (r & 0xFFFF)) as usize
    }
}

impl Cell for u32 {
    const MAX: u32 = u32::MAX;
    #[inline(always)]
    fn get(self) -> u32 {
        self
    }
    #[inline(always)]
    fn new(v: u32) -> Self {
        v
    }
    #[inline(always)]
    fn xor_index(self, r: u32, mask: usize) -> usize {
        (self ^ r) as usize & mask
    }
}

/// The values `G(0), G(1), ...` computed so far, stored as compactly as the
/// largest value allows.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Values {
    /// One byte per value (all values below 256).
    Bytes(Vec<u8>),
    /// Two bytes per value (all values below 65 536).
    Shorts(Vec<u16>),
    /// Four bytes per value.
    Words(Vec<u32>),
}

impl Default for Values {
    fn default() -> Values {
        Values::Bytes(Vec::new())
    }
}

impl Values {
    /// How many values are stored.
    pub fn len(&self) -> usize {
        match self {
            Values::Bytes(v) => v.len(),
            Values::Shorts(v) => v.len(),
            Values::Words(v) => v.len(),
        }
    }

    /// Whether no value is stored.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// `G(n)` as a plain integer. Panics if `n` is not stored.
    #[inline]
    pub fn get(&self, n: usize) -> u32 {
        match self {
            Values::Bytes(v) => v[n] as u32,
            Values::Shorts(v) => v[n] as u32,
            Values::Words(v) => v[n],
        }
    }

    /// `G(n)` as a nimber, or `None` if `n` is not stored.
    pub fn nimber(&self, n: usize) -> Option<Nimber> {
        (n < self.len()).then(|| Nimber(self.get(n) as u64))
    }

    /// Bytes used per value.
    pub fn bytes_per_value(&self) -> usize {
        match self {
            Values::Bytes(_) => 1,
            Values::Shorts(_) => 2,
            Values::Words(_) => 4,
        }
    }

    /// The values in order, as plain integers.
    pub fn iter(&self) -> impl Iterator<Item = u32> + '_ {
        (0..self.len()).map(move |n| self.get(n))
    }

    /// The largest value stored (0 when empty).
    pub fn max_value(&self) -> u32 {
        match self {
            Values::Bytes(v) => v.iter().copied().max().unwrap_or(0) as u32,
            Values::Shorts(v) => v.iter().copied().max().unwrap_or(0) as u32,
            Values::Words(v) => v.iter().copied().max().unwrap_or(0),
        }
    }

    /// Keeps the first `len` values.
    pub(crate) fn truncate(&mut self, len: usize) {
        match self {
            Values::Bytes(v) => v.truncate(len),
            Values::Shorts(v) => v.truncate(len),
            Values::Words(v) => v.truncate(len),
        }
    }

    /// Moves to the next wider storage, reserving room for `capacity` values.
    pub(crate) fn widen(&mut self, capacity: usize) {
        let next = match self {
            Values::Bytes(v) => {
                let mut w: Vec<u16> = Vec::with_capacity(capacity.max(v.len()));
                w.extend(v.iter().map(|&x| x as u16));
                Values::Shorts(w)
            }
            Values::Shorts(v) => {
                let mut w: Vec<u32> = Vec::with_capacity(capacity.max(v.len()));
                w.extend(v.iter().map(|&x| x as u32));
                Values::Words(w)
            }
            Values::Words(_) => return,
        };
        *self = next;
    }

    /// Reserves room for `total` values in all.
    pub(crate) fn reserve_total(&mut self, total: usize) {
        let extra = total.saturating_sub(self.len());
        match self {
            Values::Bytes(v) => v.reserve_exact(extra),
            Values::Shorts(v) => v.reserve_exact(extra),
            Values::Words(v) => v.reserve_exact(extra),
        }
    }

    /// Extends to `total` values by the period: `G(n) = G(n - period)`.
    pub(crate) fn extend_periodically(&mut self, period: usize, total: usize) {
        fn go<T: Copy>(v: &mut Vec<T>, period: usize, total: usize) {
            v.reserve_exact(total.saturating_sub(v.len()));
            while v.len() < total {
                let start = v.len() - period;
                let count = period.min(total - v.len());
                v.extend_from_within(start..start + count);
            }
        }
        match self {
            Values::Bytes(v) => go(v, period, total),
            Values::Shorts(v) => go(v, period, total),
            Values::Words(v) => go(v, period, total),
        }
    }

    /// The values as little-endian bytes, `bytes_per_value()` each.
    pub fn to_le_bytes(&self) -> Vec<u8> {
        match self {
            Values::Bytes(v) => v.clone(),
            Values::Shorts(v) => v.iter().flat_map(|x| x.to_le_bytes()).collect(),
            Values::Words(v) => v.iter().flat_map(|x| x.to_le_bytes()).collect(),
        }
    }

    /// Reads values written by [`Values::to_le_bytes`].
    pub fn from_le_bytes(bytes_per_value: usize, bytes: &[u8]) -> Option<Values> {
        match bytes_per_value {
            1 => Some(Values::Bytes(bytes.to_vec())),
            2 if bytes.len().is_multiple_of(2) => Some(Values::Shorts(
                bytes
                    .chunks_exact(2)
                    .map(|c| u16::from_le_bytes([c[0], c[1]]))
                    .collect(),
            )),
            4 if bytes.len().is_multiple_of(4) => Some(Values::Words(
                bytes
                    .chunks_exact(4)
                    .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
                    .collect(),
            )),
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn widening_keeps_values() {
        let mut v = Values::Bytes(vec![0, 1, 255]);
        v.widen(10);
        assert_eq!(v, Values::Shorts(vec![0, 1, 255]));
        v.widen(10);
        assert_eq!(v.iter().collect::<Vec<_>>(), vec![0, 1, 255]);
        assert_eq!(v.bytes_per_value(), 4);
    }

    #[test]
    fn periodic_extension_repeats_the_tail() {
        let mut v = Values::Bytes(vec![9, 1, 2, 3]);
        v.extend_periodically(3, 10);
        assert_eq!(
            v.iter().collect::<Vec<_>>(),
            vec![9, 1, 2, 3, 1, 2, 3, 1, 2, 3]
        );
    }

    #[test]
    fn bytes_round_trip() {
        let v = Values::Shorts(vec![1, 513, 65535]);
        let back = Values::from_le_bytes(2, &v.to_le_bytes()).unwrap();
        assert_eq!(back, v);
    }
}
