//! The exact rationals [`Q`]: machine integers while a value fits, big integers only
//! beyond.
//!
//! A value `n/d` with `n` and `d` in `i64` is stored as such (16 bytes, no allocation);
//! the arithmetic on two such values runs on `i64` with `i128` intermediates and checked
//! operations, and a result that does not fit is stored as a [`BigRational`]. Every value
//! is kept reduced with a positive denominator, and a value that fits is never stored
//! big, so equality, ordering and hashing are those of the rationals. The values are
//! exactly those of [`BigRational`]: the small path is a faster route to the same
//! numbers (the property tests in `q_tests.rs` check it).
//!
//! The API follows [`BigRational`]'s where the crate uses it (`from_integer`, `numer`,
//! `denom`, `to_integer`, `floor`, `ceil`, the operators and the `num_traits` traits),
//! so that call sites read the same.

use std::cmp::Ordering;
use std::fmt;
use std::hash::{Hash, Hasher};
use std::num::NonZeroU64;
use std::ops::{
    Add, AddAssign, Div, DivAssign, Mul, MulAssign, Neg, Rem, RemAssign, Sub, SubAssign,
};
use std::str::FromStr;

use num_bigint::BigInt;
use num_rational::BigRational;
use num_traits::{One, Signed, ToPrimitive, Zero};

/// An exact rational number (see the module documentation).
#[derive(Clone)]
pub struct Q(Repr);

#[derive(Clone)]
enum Repr {
    /// `n / d` with `1 ≤ d ≤ i64::MAX` and `gcd(n, d) = 1`.
    Small(i64, NonZeroU64),
    /// A reduced value with a positive denominator that is not `Small`.
    Big(Box<BigRational>),
}

/// The denominator 1.
const ONE: NonZeroU64 = NonZeroU64::MIN;

pub(super) fn gcd_u64(mut a: u64, mut b: u64) -> u64 {
    if a == 0 {
        return b;
    }
    if b == 0 {
        return a;
    }
    let shift = (a | b).trailing_zeros();
    a >>= a.trailing_zeros();
    loop {
        b >>= b.trailing_zeros();
        if a > b {
            std::mem::swap(&mut a, &mut b);
        }
        b -= a;
        if b == 0 {
            return a << shift;
        }
    }
}

fn gcd_u128(mut a: u128, mut b: u128) -> u128 {
    if let (Ok(x), Ok(y)) = (u64::try_from(a), u64::try_from(b)) {
        return u128::from(gcd_u64(x, y));
    }
    if a == 0 {
        return b;
    }
    if b == 0 {
        return a;
    }
    let shift = (a | b).trailing_zeros();
    a >>= a.trailing_zeros();
    loop {
        b >>= b.trailing_zeros();
        if a > b {
            std::mem::swap(&mut a, &mut b);
        }
        b -= a;
        if b == 0 {
            return a << shift;
        }
    }
}

/// `d` as a `Small` denominator, if `1 ≤ d ≤ i64::MAX`.
fn den(d: i128) -> Option<NonZeroU64> {
    if d > i128::from(i64::MAX) {
        return None;
    }
    NonZeroU64::new(u64::try_from(d).ok()?)
}

impl Q {
    /// The integer `n`.
    pub const fn from_i64(n: i64) -> Q {
        Q(Repr::Small(n, ONE))
    }

    /// The integer `n` (as [`BigRational::from_integer`]).
    pub fn from_integer(n: BigInt) -> Q {
        match n.to_i64() {
            Some(n) => Q::from_i64(n),
            None => Q(Repr::Big(Box::new(BigRational::from_integer(n)))),
        }
    }

    /// `n / d`, reduced; panics if `d` is zero (as [`BigRational::new`]).
    pub fn new(n: BigInt, d: BigInt) -> Q {
        Q::from_big(BigRational::new(n, d))
    }

    /// `n / d` for `d ≠ 0`, reduced; panics if `d` is zero.
    pub fn ratio(n: i64, d: i64) -> Q {
        assert!(d != 0, "denominator == 0");
        let (n, d) = if d < 0 {
            (-i128::from(n), -i128::from(d))
        } else {
            (i128::from(n), i128::from(d))
        };
        Q::reduce(n, d)
    }

    /// The value of a reduced [`BigRational`] (which always has a positive denominator).
    fn from_big(b: BigRational) -> Q {
        let d = b.denom().to_i64().and_then(|d| den(d.into()));
        if let (Some(n), Some(d)) = (b.numer().to_i64(), d) {
            return Q(Repr::Small(n, d));
        }
        Q(Repr::Big(Box::new(b)))
    }

    /// `n / d` for `d > 0` already coprime to `n`: small if it fits.
    fn coprime(n: i128, d: i128) -> Q {
        debug_assert!(d > 0);
        if let (Ok(n), Some(dd)) = (i64::try_from(n), den(d)) {
            return Q(Repr::Small(n, dd));
        }
        Q(Repr::Big(Box::new(BigRational::new_raw(
            n.into(),
            d.into(),
        ))))
    }

    /// `n / d` for `d > 0`, reduced.
    fn reduce(n: i128, d: i128) -> Q {
        debug_assert!(d > 0);
        if d == 1 {
            return Q::coprime(n, 1);
        }
        if n == 0 {
            return Q::from_i64(0);
        }
        // |n| ≤ 2^127 and 0 < d < 2^127, so the gcd and the quotients fit.
        let g = gcd_u128(n.unsigned_abs(), d.unsigned_abs());
        if g == 1 {
            return Q::coprime(n, d);
        }
        let g = g as i128;
        Q::coprime(n / g, d / g)
    }

    /// `(n, d)` if the value is stored small: `n / d` reduced, `1 ≤ d ≤ i64::MAX`.
    pub(crate) fn small(&self) -> Option<(i64, i64)> {
        match &self.0 {
            Repr::Small(n, d) => Some((*n, d.get() as i64)),
            Repr::Big(_) => None,
        }
    }

    /// The value as an `i64`, if it is an integer that fits.
    pub fn to_i64_exact(&self) -> Option<i64> {
        match &self.0 {
            Repr::Small(n, d) if *d == ONE => Some(*n),
            _ => None,
        }
    }

    /// The value as a [`BigRational`].
    pub fn to_big(&self) -> BigRational {
        match &self.0 {
            Repr::Small(n, d) => BigRational::new_raw((*n).into(), d.get().into()),
            Repr::Big(b) => (**b).clone(),
        }
    }

    /// The numerator (of the reduced form; it carries the sign).
    pub fn numer(&self) -> BigInt {
        match &self.0 {
            Repr::Small(n, _) => (*n).into(),
            Repr::Big(b) => b.numer().clone(),
        }
    }

    /// The denominator (of the reduced form; positive).
    pub fn denom(&self) -> BigInt {
        match &self.0 {
            Repr::Small(_, d) => d.get().into(),
            Repr::Big(b) => b.denom().clone(),
        }
    }

    /// Whether the value is an integer.
    pub fn is_integer(&self) -> bool {
        match &self.0 {
            Repr::Small(_, d) => *d == ONE,
            Repr::Big(b) => b.is_integer(),
        }
    }

    /// The integer part, rounded towards zero (as [`BigRational::to_integer`]).
    pub fn to_integer(&self) -> BigInt {
        match &self.0 {
            Repr::Small(n, d) => (*n / d.get() as i64).into(),
            Repr::Big(b) => b.to_integer(),
        }
    }

    /// The largest integer not above the value.
    pub fn floor(&self) -> Q {
        match &self.0 {
            Repr::Small(n, d) => Q::from_i64(n.div_euclid(d.get() as i64)),
            Repr::Big(b) => Q::from_big(b.floor()),
        }
    }

    /// The smallest integer not below the value.
    pub fn ceil(&self) -> Q {
        match &self.0 {
            Repr::Small(n, d) => {
                let d = d.get() as i64;
                // For d > 1 the floor is at most i64::MAX / 2 in magnitude, so + 1 fits.
                let f = n.div_euclid(d);
                Q::from_i64(if n.rem_euclid(d) == 0 { f } else { f + 1 })
            }
            Repr::Big(b) => Q::from_big(b.ceil()),
        }
    }

    /// `1 / self`; panics if the value is zero (as [`BigRational::recip`]).
    pub fn recip(&self) -> Q {
        match &self.0 {
            Repr::Small(n, d) => {
                assert!(*n != 0, "denominator == 0");
                let (n, d) = (i128::from(*n), i128::from(d.get()));
                if n > 0 {
                    Q::coprime(d, n)
                } else {
                    Q::coprime(-d, -n)
                }
            }
            Repr::Big(b) => Q::from_big(b.recip()),
        }
    }

    /// An operation for values not both small: on `i128` parts (`wide`) when both values
    /// have such parts and the result's do too, else over [`BigRational`]. Counted as
    /// work ([`crate::limits::add_work`]) by the product of the operands' sizes in 64-bit
    /// words, whichever route computes it, so that the count does not depend on the
    /// route: the reduction's gcd takes time quadratic in the sizes, and on values this
    /// large it is where the time of an exact projection goes.
    fn big(
        a: &Q,
        b: &Q,
        wide: impl FnOnce(Wide, Wide) -> Option<Q>,
        f: impl FnOnce(BigRational, BigRational) -> BigRational,
    ) -> Q {
        crate::limits::add_work(a.words() * b.words());
        if let Some(q) = a.wide().zip(b.wide()).and_then(|(x, y)| wide(x, y)) {
            return q;
        }
        Q::from_big(f(a.to_big(), b.to_big()))
    }

    /// The value as `(n, d)`, reduced with `d > 0`, if both parts fit in `i128`.
    fn wide(&self) -> Option<Wide> {
        match &self.0 {
            Repr::Small(n, d) => Some(Wide(i128::from(*n), i128::from(d.get()))),
            Repr::Big(b) => Some(Wide(b.numer().to_i128()?, b.denom().to_i128()?)),
        }
    }

    /// The size of the value in 64-bit words (numerator and denominator).
    fn words(&self) -> u64 {
        match &self.0 {
            Repr::Small(..) => 2,
            Repr::Big(b) => (b.numer().bits() + b.denom().bits()) / 64 + 2,
        }
    }

    fn add_ref(a: &Q, b: &Q) -> Q {
        match (&a.0, &b.0) {
            (Repr::Small(n1, d1), Repr::Small(n2, d2)) => {
                if *d1 == ONE && *d2 == ONE {
                    return match n1.checked_add(*n2) {
                        Some(s) => Q::from_i64(s),
                        None => Q::coprime(i128::from(*n1) + i128::from(*n2), 1),
                    };
                }
                let (n1, d1, n2, d2) = (
                    i128::from(*n1),
                    i128::from(d1.get()),
                    i128::from(*n2),
                    i128::from(d2.get()),
                );
                if d1 == d2 {
                    return Q::reduce(n1 + n2, d1);
                }
                // |n1·d2|, |n2·d1| < 2^126, so the sum fits.
                Q::reduce(n1 * d2 + n2 * d1, d1 * d2)
            }
            _ => Q::big(a, b, Wide::add, |x, y| x + y),
        }
    }

    fn sub_ref(a: &Q, b: &Q) -> Q {
        match (&a.0, &b.0) {
            (Repr::Small(n1, d1), Repr::Small(n2, d2)) => {
                if *d1 == ONE && *d2 == ONE {
                    return match n1.checked_sub(*n2) {
                        Some(s) => Q::from_i64(s),
                        None => Q::coprime(i128::from(*n1) - i128::from(*n2), 1),
                    };
                }
                let (n1, d1, n2, d2) = (
                    i128::from(*n1),
                    i128::from(d1.get()),
                    i128::from(*n2),
                    i128::from(d2.get()),
                );
                if d1 == d2 {
                    return Q::reduce(n1 - n2, d1);
                }
                Q::reduce(n1 * d2 - n2 * d1, d1 * d2)
            }
            _ => Q::big(a, b, Wide::sub, |x, y| x - y),
        }
    }

    fn mul_ref(a: &Q, b: &Q) -> Q {
        match (&a.0, &b.0) {
            (Repr::Small(n1, d1), Repr::Small(n2, d2)) => {
                if *d1 == ONE && *d2 == ONE {
                    return match n1.checked_mul(*n2) {
                        Some(p) => Q::from_i64(p),
                        None => Q::coprime(i128::from(*n1) * i128::from(*n2), 1),
                    };
                }
                if *n1 == 0 || *n2 == 0 {
                    return Q::from_i64(0);
                }
                // Cross-reduce, so the product is reduced: gcd(n1/g1 · n2/g2, d1/g2 · d2/g1)
                // = 1 since each numerator factor is coprime to both denominator factors.
                let g1 = gcd_u64(n1.unsigned_abs(), d2.get()) as i128;
                let g2 = gcd_u64(n2.unsigned_abs(), d1.get()) as i128;
                let n = (i128::from(*n1) / g1) * (i128::from(*n2) / g2);
                let d = (i128::from(d1.get()) / g2) * (i128::from(d2.get()) / g1);
                Q::coprime(n, d)
            }
            _ => Q::big(a, b, Wide::mul, |x, y| x * y),
        }
    }

    fn div_ref(a: &Q, b: &Q) -> Q {
        match (&a.0, &b.0) {
            (Repr::Small(n1, d1), Repr::Small(n2, d2)) => {
                assert!(*n2 != 0, "denominator == 0");
                if *n1 == 0 {
                    return Q::from_i64(0);
                }
                // (n1/d1) / (n2/d2) = (n1·d2) / (d1·n2), cross-reduced as in `mul_ref`.
                let g1 = gcd_u64(n1.unsigned_abs(), n2.unsigned_abs()) as i128;
                let g2 = gcd_u64(d1.get(), d2.get()) as i128;
                let mut n = (i128::from(*n1) / g1) * (i128::from(d2.get()) / g2);
                let mut d = (i128::from(d1.get()) / g2) * (i128::from(*n2) / g1);
                if d < 0 {
                    n = -n;
                    d = -d;
                }
                Q::coprime(n, d)
            }
            _ => Q::big(a, b, Wide::div, |x, y| x / y),
        }
    }

    fn neg_ref(a: &Q) -> Q {
        match &a.0 {
            Repr::Small(n, d) => match n.checked_neg() {
                Some(m) => Q(Repr::Small(m, *d)),
                None => Q::coprime(-i128::from(*n), i128::from(d.get())),
            },
            Repr::Big(b) => Q::from_big(-&**b),
        }
    }
}

/// A rational `n / d` with `i128` parts, reduced and `d > 0`: the arithmetic of values
/// too large for `Small` (products of coefficients near `2^32`, say) but far from the
/// sizes where [`BigRational`]'s allocation and binary gcd on digit vectors pay. Each
/// operation is checked and gives `None` where a part would overflow.
#[derive(Clone, Copy)]
struct Wide(i128, i128);

impl Wide {
    fn add(Wide(n1, d1): Wide, Wide(n2, d2): Wide) -> Option<Q> {
        // Over the lcm of the denominators: n1·(d2/g) + n2·(d1/g) over d1·(d2/g).
        let g = gcd_u128(d1.unsigned_abs(), d2.unsigned_abs()) as i128;
        let n = n1
            .checked_mul(d2 / g)?
            .checked_add(n2.checked_mul(d1 / g)?)?;
        Some(Q::reduce(n, d1.checked_mul(d2 / g)?))
    }

    fn sub(a: Wide, Wide(n2, d2): Wide) -> Option<Q> {
        Wide::add(a, Wide(n2.checked_neg()?, d2))
    }

    fn mul(Wide(n1, d1): Wide, Wide(n2, d2): Wide) -> Option<Q> {
        if n1 == 0 || n2 == 0 {
            return Some(Q::from_i64(0));
        }
        // Cross-reduced as in `Q::mul_ref`, so the product is reduced.
        let g1 = gcd_u128(n1.unsigned_abs(), d2.unsigned_abs()) as i128;
        let g2 = gcd_u128(n2.unsigned_abs(), d1.unsigned_abs()) as i128;
        let n = (n1 / g1).checked_mul(n2 / g2)?;
        let d = (d1 / g2).checked_mul(d2 / g1)?;
        Some(Q::coprime(n, d))
    }

    fn div(a: Wide, Wide(n2, d2): Wide) -> Option<Q> {
        assert!(n2 != 0, "denominator == 0");
        // a / (n2/d2) = a · (d2/n2), the reciprocal with a positive denominator.
        let recip = if n2 > 0 {
            Wide(d2, n2)
        } else {
            Wide(d2.checked_neg()?, n2.checked_neg()?)
        };
        Wide::mul(a, recip)
    }
}

impl PartialEq for Q {
    fn eq(&self, o: &Q) -> bool {
        match (&self.0, &o.0) {
            (Repr::Small(n1, d1), Repr::Small(n2, d2)) => n1 == n2 && d1 == d2,
            (Repr::Big(a), Repr::Big(b)) => a == b,
            // A value that fits is never stored big.
            _ => false,
        }
    }
}

impl Eq for Q {}

impl Hash for Q {
    fn hash<H: Hasher>(&self, h: &mut H) {
        match &self.0 {
            Repr::Small(n, d) => {
                0u8.hash(h);
                n.hash(h);
                d.hash(h);
            }
            Repr::Big(b) => {
                1u8.hash(h);
                b.hash(h);
            }
        }
    }
}

impl PartialOrd for Q {
    fn partial_cmp(&self, o: &Q) -> Option<Ordering> {
        Some(self.cmp(o))
    }
}

impl Ord for Q {
    fn cmp(&self, o: &Q) -> Ordering {
        match (&self.0, &o.0) {
            (Repr::Small(n1, d1), Repr::Small(n2, d2)) => {
                if d1 == d2 {
                    n1.cmp(n2)
                } else {
                    (i128::from(*n1) * i128::from(d2.get()))
                        .cmp(&(i128::from(*n2) * i128::from(d1.get())))
                }
            }
            _ => {
                // n1/d1 against n2/d2 is n1·d2 against n2·d1 (d1, d2 > 0).
                let cross = self
                    .wide()
                    .zip(o.wide())
                    .and_then(|(Wide(n1, d1), Wide(n2, d2))| {
                        Some(n1.checked_mul(d2)?.cmp(&n2.checked_mul(d1)?))
                    });
                match (cross, &self.0, &o.0) {
                    (Some(c), _, _) => c,
                    (None, Repr::Big(a), Repr::Big(b)) => a.cmp(b),
                    _ => self.to_big().cmp(&o.to_big()),
                }
            }
        }
    }
}

impl Default for Q {
    fn default() -> Q {
        Q::from_i64(0)
    }
}

impl fmt::Display for Q {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.0 {
            Repr::Small(n, d) if *d == ONE => write!(f, "{n}"),
            Repr::Small(n, d) => write!(f, "{n}/{d}"),
            Repr::Big(b) => write!(f, "{b}"),
        }
    }
}

impl fmt::Debug for Q {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

impl FromStr for Q {
    type Err = num_rational::ParseRatioError;

    /// `n` or `n/d` in decimal (as [`BigRational`]'s parser).
    fn from_str(s: &str) -> Result<Q, Self::Err> {
        let small = match s.split_once('/') {
            None => s.parse::<i64>().ok().map(Q::from_i64),
            Some((n, d)) => match (n.parse::<i64>(), d.parse::<i64>()) {
                (Ok(n), Ok(d)) if d != 0 => Some(Q::ratio(n, d)),
                _ => None,
            },
        };
        match small {
            Some(q) => Ok(q),
            None => BigRational::from_str(s).map(Q::from_big),
        }
    }
}

impl From<i64> for Q {
    fn from(n: i64) -> Q {
        Q::from_i64(n)
    }
}

impl From<BigInt> for Q {
    fn from(n: BigInt) -> Q {
        Q::from_integer(n)
    }
}

impl From<BigRational> for Q {
    fn from(b: BigRational) -> Q {
        // `BigRational`'s values are reduced with a positive denominator.
        Q::from_big(b)
    }
}

impl From<&Q> for BigRational {
    fn from(q: &Q) -> BigRational {
        q.to_big()
    }
}

/// The four owned/borrowed combinations of a binary operator and its assigning form.
macro_rules! binop {
    ($Op:ident, $op:ident, $OpAssign:ident, $op_assign:ident, $f:path) => {
        impl $Op<&Q> for &Q {
            type Output = Q;
            fn $op(self, o: &Q) -> Q {
                $f(self, o)
            }
        }
        impl $Op<Q> for &Q {
            type Output = Q;
            fn $op(self, o: Q) -> Q {
                $f(self, &o)
            }
        }
        impl $Op<&Q> for Q {
            type Output = Q;
            fn $op(self, o: &Q) -> Q {
                $f(&self, o)
            }
        }
        impl $Op<Q> for Q {
            type Output = Q;
            fn $op(self, o: Q) -> Q {
                $f(&self, &o)
            }
        }
        impl $OpAssign<&Q> for Q {
            fn $op_assign(&mut self, o: &Q) {
                *self = $f(self, o);
            }
        }
        impl $OpAssign<Q> for Q {
            fn $op_assign(&mut self, o: Q) {
                *self = $f(self, &o);
            }
        }
    };
}

fn rem_ref(a: &Q, b: &Q) -> Q {
    Q::big(a, b, |_, _| None, |x, y| x % y)
}

binop!(Add, add, AddAssign, add_assign, Q::add_ref);
binop!(Sub, sub, SubAssign, sub_assign, Q::sub_ref);
binop!(Mul, mul, MulAssign, mul_assign, Q::mul_ref);
binop!(Div, div, DivAssign, div_assign, Q::div_ref);
binop!(Rem, rem, RemAssign, rem_assign, rem_ref);

impl Neg for &Q {
    type Output = Q;
    fn neg(self) -> Q {
        Q::neg_ref(self)
    }
}

impl Neg for Q {
    type Output = Q;
    fn neg(self) -> Q {
        Q::neg_ref(&self)
    }
}

impl std::iter::Sum for Q {
    fn sum<I: Iterator<Item = Q>>(it: I) -> Q {
        it.fold(Q::from_i64(0), |a, b| a + b)
    }
}

impl<'a> std::iter::Sum<&'a Q> for Q {
    fn sum<I: Iterator<Item = &'a Q>>(it: I) -> Q {
        it.fold(Q::from_i64(0), |a, b| a + b)
    }
}

impl Zero for Q {
    fn zero() -> Q {
        Q::from_i64(0)
    }
    fn is_zero(&self) -> bool {
        matches!(self.0, Repr::Small(0, _))
    }
}

impl One for Q {
    fn one() -> Q {
        Q::from_i64(1)
    }
    fn is_one(&self) -> bool {
        matches!(self.0, Repr::Small(1, d) if d == ONE)
    }
}

impl num_traits::Num for Q {
    type FromStrRadixErr = num_rational::ParseRatioError;
    fn from_str_radix(s: &str, radix: u32) -> Result<Q, Self::FromStrRadixErr> {
        BigRational::from_str_radix(s, radix).map(Q::from_big)
    }
}

impl Signed for Q {
    fn abs(&self) -> Q {
        if self.is_negative() {
            -self
        } else {
            self.clone()
        }
    }
    fn abs_sub(&self, o: &Q) -> Q {
        if self <= o {
            Q::zero()
        } else {
            self - o
        }
    }
    fn signum(&self) -> Q {
        Q::from_i64(match &self.0 {
            Repr::Small(n, _) => n.signum(),
            Repr::Big(b) => {
                if b.is_negative() {
                    -1
                } else {
                    1
                }
            }
        })
    }
    fn is_positive(&self) -> bool {
        match &self.0 {
            Repr::Small(n, _) => *n > 0,
            Repr::Big(b) => b.is_positive(),
        }
    }
    fn is_negative(&self) -> bool {
        match &self.0 {
            Repr::Small(n, _) => *n < 0,
            Repr::Big(b) => b.is_negative(),
        }
    }
}

#[cfg(test)]
#[path = "q_tests.rs"]
mod tests;
