//! Nimbers: the values of impartial games under normal play.

use std::fmt;
use std::iter::Sum;
use std::ops::{Add, AddAssign};

/// A nimber `*n`, the Sprague–Grundy value of an impartial game.
///
/// Nimber addition is the nim-sum: bitwise XOR of the binary expansions.
///
/// ```
/// use nimatron::Nimber;
/// assert_eq!(Nimber(3) + Nimber(4) + Nimber(5), Nimber(2));
/// assert_eq!(Nimber(0).to_string(), "0");
/// assert_eq!(Nimber(1).to_string(), "*");
/// assert_eq!(Nimber(6).to_string(), "*6");
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Nimber(pub u64);

impl Nimber {
    /// The nimber `0`: a second-player win.
    pub const ZERO: Nimber = Nimber(0);

    /// The underlying integer value.
    pub const fn value(self) -> u64 {
        self.0
    }

    /// Whether this is `0`, i.e. the player to move loses under normal play.
    pub const fn is_zero(self) -> bool {
        self.0 == 0
    }
}

impl Add for Nimber {
    type Output = Nimber;
    // Nimber addition is the nim-sum: XOR is the definition, not a slip.
    #[allow(clippy::suspicious_arithmetic_impl)]
    fn add(self, rhs: Nimber) -> Nimber {
        Nimber(self.0 ^ rhs.0)
    }
}

impl AddAssign for Nimber {
    #[allow(clippy::suspicious_op_assign_impl)]
    fn add_assign(&mut self, rhs: Nimber) {
        self.0 ^= rhs.0;
    }
}

impl Sum for Nimber {
    fn sum<I: Iterator<Item = Nimber>>(iter: I) -> Nimber {
        iter.fold(Nimber::ZERO, Add::add)
    }
}

impl From<u64> for Nimber {
    fn from(value: u64) -> Nimber {
        Nimber(value)
    }
}

impl fmt::Display for Nimber {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.0 {
            0 => f.write_str("0"),
            1 => f.write_str("*"),
            n => write!(f, "*{n}"),
        }
    }
}

/// The minimum excludant: the least nimber not in `values`.
///
/// This is the rule that gives every impartial position its Grundy value:
/// the value of a position is the mex of the values of its options.
///
/// ```
/// use nimatron::{mex, Nimber};
/// assert_eq!(mex([Nimber(0), Nimber(1), Nimber(3)]), Nimber(2));
/// assert_eq!(mex([]), Nimber(0));
/// ```
pub fn mex<I: IntoIterator<Item = Nimber>>(values: I) -> Nimber {
    // Values up to 63 are tracked in a bit set; larger ones in a sorted list.
    let mut small: u64 = 0;
    let mut large: Vec<u64> = Vec::new();
    for Nimber(v) in values {
        if v < 64 {
            small |= 1 << v;
        } else {
            large.push(v);
        }
    }
    let first_gap = (!small).trailing_zeros() as u64;
    if first_gap < 64 {
        return Nimber(first_gap);
    }
    large.sort_unstable();
    large.dedup();
    let mut candidate = 64;
    for v in large {
        if v == candidate {
            candidate += 1;
        } else if v > candidate {
            break;
        }
    }
    Nimber(candidate)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mex_skips_values_beyond_the_bit_set() {
        let values: Vec<Nimber> = (0..70).filter(|&v| v != 66).map(Nimber).collect();
        assert_eq!(mex(values), Nimber(66));
        let values: Vec<Nimber> = (0..200).map(Nimber).collect();
        assert_eq!(mex(values), Nimber(200));
    }

    #[test]
    fn sum_is_xor() {
        let total: Nimber = [1u64, 2, 3].into_iter().map(Nimber).sum();
        assert_eq!(total, Nimber(0));
    }
}
