//! The interpreter's values: a machine integer while the value fits in `i64`, a big
//! integer beyond.
//!
//! A run of millions of steps evaluates an expression per step; with [`BigInt`] values
//! every non-zero intermediate result and every copy of a variable allocated. A [`Val`]
//! that fits is 16 bytes and copied without allocation; an operation on two such values
//! runs on `i64` with checked arithmetic, and only a result that overflows is computed
//! (and stored) as a [`BigInt`]. A value that fits is never stored big, so the values
//! are exactly those of [`BigInt`] arithmetic (the property tests below check it).
//!
//! The crate's small rationals ([`crate::linear::Q`]) do the same for the tabulation;
//! a general small-value big-integer crate (`dashu-int`, `ibig`) would need a conversion
//! at every boundary with the rest of the crate, which speaks `num-bigint` (constants,
//! oracles, C's integer widths).

use crate::sema::{CmpOp, Width};
use num_bigint::BigInt;
use num_traits::ToPrimitive;
use std::cmp::Ordering;

/// An integer value of a run (see the module documentation).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Val {
    /// A value in `i64`'s range.
    Small(i64),
    /// A value outside `i64`'s range.
    Big(Box<BigInt>),
}

impl Val {
    /// 0 or 1.
    pub(crate) fn bool(b: bool) -> Val {
        Val::Small(b as i64)
    }

    /// `x`, small when it fits.
    pub(crate) fn big(x: BigInt) -> Val {
        match x.to_i64() {
            Some(s) => Val::Small(s),
            None => Val::Big(Box::new(x)),
        }
    }

    /// `x`, without a copy of a big integer when it fits.
    pub(crate) fn of(x: &BigInt) -> Val {
        match x.to_i64() {
            Some(s) => Val::Small(s),
            None => Val::Big(Box::new(x.clone())),
        }
    }

    /// `x` as a big integer.
    pub(crate) fn to_big(&self) -> BigInt {
        match self {
            Val::Small(s) => BigInt::from(*s),
            Val::Big(b) => (**b).clone(),
        }
    }

    /// The value as an `i64`, if it fits.
    pub(crate) fn to_i64(&self) -> Option<i64> {
        match self {
            Val::Small(s) => Some(*s),
            Val::Big(_) => None,
        }
    }

    pub(crate) fn is_zero(&self) -> bool {
        matches!(self, Val::Small(0))
    }

    /// `op(self, other)`: the small operation when both fit and it does not overflow,
    /// else `big` on the big integers.
    fn binary(
        &self,
        other: &Val,
        small: fn(i64, i64) -> Option<i64>,
        big: fn(BigInt, BigInt) -> BigInt,
    ) -> Val {
        if let (Val::Small(x), Val::Small(y)) = (self, other) {
            if let Some(z) = small(*x, *y) {
                return Val::Small(z);
            }
        }
        Val::big(big(self.to_big(), other.to_big()))
    }

    pub(crate) fn add(&self, other: &Val) -> Val {
        self.binary(other, i64::checked_add, |x, y| x + y)
    }

    pub(crate) fn sub(&self, other: &Val) -> Val {
        self.binary(other, i64::checked_sub, |x, y| x - y)
    }

    /// `c · self`.
    pub(crate) fn scale(&self, c: &BigInt) -> Val {
        self.binary(&Val::of(c), i64::checked_mul, |x, y| y * x)
    }

    /// `self / c`, rounded towards zero (as [`BigInt`]'s and C's division).
    pub(crate) fn div(&self, c: &BigInt) -> Val {
        self.binary(&Val::of(c), i64::checked_div, |x, y| x / y)
    }

    /// `self % c`, with the sign of `self` (as [`BigInt`]'s and C's remainder).
    pub(crate) fn rem(&self, c: &BigInt) -> Val {
        self.binary(&Val::of(c), i64::checked_rem, |x, y| x % y)
    }

    /// Whether the value lies in `w`'s range.
    pub(crate) fn fits(&self, w: Width) -> bool {
        match self {
            Val::Small(x) => w.contains_i64(*x),
            Val::Big(b) => w.contains(b),
        }
    }

    /// The value wrapped into `w`'s range ([`Width::wrap`]).
    pub(crate) fn wrap(&self, w: Width) -> Val {
        match self {
            Val::Small(x) if w.contains_i64(*x) => self.clone(),
            _ => Val::big(w.wrap(&self.to_big())),
        }
    }

    /// Whether `op(self, other)` holds.
    pub(crate) fn holds(&self, op: CmpOp, other: &Val) -> bool {
        op.holds_ordering(self.cmp(other))
    }
}

impl Ord for Val {
    fn cmp(&self, other: &Val) -> Ordering {
        match (self, other) {
            (Val::Small(x), Val::Small(y)) => x.cmp(y),
            _ => self.to_big().cmp(&other.to_big()),
        }
    }
}

impl PartialOrd for Val {
    fn partial_cmp(&self, other: &Val) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl Default for Val {
    fn default() -> Val {
        Val::Small(0)
    }
}

impl From<BigInt> for Val {
    fn from(x: BigInt) -> Val {
        Val::big(x)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use num_traits::Zero;
    use proptest::prelude::*;

    /// Values near 0 and near `i64`'s bounds, where the small path overflows.
    fn value() -> impl Strategy<Value = BigInt> {
        prop_oneof![
            (-1000i64..1000).prop_map(BigInt::from),
            any::<i64>().prop_map(BigInt::from),
            (-1000i64..1000).prop_map(|d| BigInt::from(i64::MAX) + d),
            (-1000i64..1000).prop_map(|d| BigInt::from(i64::MIN) + d),
            (any::<i64>(), any::<i64>()).prop_map(|(a, b)| BigInt::from(a) * b),
        ]
    }

    fn nonzero() -> impl Strategy<Value = BigInt> {
        value().prop_filter("a divisor", |c| !c.is_zero())
    }

    fn widths() -> impl Strategy<Value = Width> {
        (
            prop::sample::select(vec![1u32, 8, 16, 32, 63, 64, 65, 128]),
            any::<bool>(),
        )
            .prop_map(|(bits, signed)| Width { bits, signed })
    }

    proptest! {
        #[test]
        fn the_arithmetic_is_that_of_big_integers(x in value(), y in value(), c in nonzero()) {
            let (vx, vy) = (Val::big(x.clone()), Val::big(y.clone()));
            prop_assert_eq!(vx.add(&vy), Val::big(&x + &y));
            prop_assert_eq!(vx.sub(&vy), Val::big(&x - &y));
            prop_assert_eq!(vx.scale(&y), Val::big(&y * &x));
            prop_assert_eq!(vx.div(&c), Val::big(&x / &c));
            prop_assert_eq!(vx.rem(&c), Val::big(&x % &c));
            prop_assert_eq!(vx.cmp(&vy), x.cmp(&y));
            prop_assert_eq!(vx.to_big(), x.clone());
            prop_assert_eq!(vx.is_zero(), x.is_zero());
            // A value that fits is small: equality is that of the numbers.
            prop_assert_eq!(matches!(vx, Val::Small(_)), x.to_i64().is_some());
        }

        #[test]
        fn wrapping_is_that_of_big_integers(x in value(), w in widths()) {
            let v = Val::big(x.clone());
            prop_assert_eq!(v.fits(w), w.contains(&x));
            prop_assert_eq!(v.wrap(w), Val::big(w.wrap(&x)));
        }
    }

    #[test]
    fn the_quotient_of_the_least_i64_by_minus_one_is_big() {
        let v = Val::Small(i64::MIN);
        assert_eq!(v.div(&BigInt::from(-1)).to_big(), -BigInt::from(i64::MIN));
        assert_eq!(v.rem(&BigInt::from(-1)), Val::Small(0));
    }
}
