//! Number types for the exact simplex: a small rational over `i64` with checked
//! arithmetic (every operation reports overflow instead of wrapping), and the arbitrary
//! precision [`Q`]. Both implement [`Num`], whose operations return `None` on overflow
//! (never for [`Q`]), so the simplex can run on small numbers and fall back to [`Q`].

use std::cmp::Ordering;
use std::fmt::Debug;

use num_bigint::BigInt;
use num_traits::{One, Signed, ToPrimitive, Zero};

use super::Q;

/// Exact rational arithmetic that may overflow (`None`).
pub(crate) trait Num: Clone + Ord + Debug {
    fn zero() -> Self;
    fn one() -> Self;
    fn is_zero(&self) -> bool;
    fn is_positive(&self) -> bool;
    fn add(&self, o: &Self) -> Option<Self>;
    fn sub(&self, o: &Self) -> Option<Self>;
    fn mul(&self, o: &Self) -> Option<Self>;
    /// `self / o` for a non-zero `o`.
    fn div(&self, o: &Self) -> Option<Self>;
    fn neg(&self) -> Option<Self>;
    /// `1 / self` for a non-zero `self`.
    fn recip(&self) -> Option<Self>;
    fn from_q(q: &Q) -> Option<Self>;
    fn to_q(&self) -> Q;
}

impl Num for Q {
    fn zero() -> Self {
        Zero::zero()
    }
    fn one() -> Self {
        One::one()
    }
    fn is_zero(&self) -> bool {
        Zero::is_zero(self)
    }
    fn is_positive(&self) -> bool {
        Signed::is_positive(self)
    }
    fn add(&self, o: &Self) -> Option<Self> {
        Some(self + o)
    }
    fn sub(&self, o: &Self) -> Option<Self> {
        Some(self - o)
    }
    fn mul(&self, o: &Self) -> Option<Self> {
        Some(self * o)
    }
    fn div(&self, o: &Self) -> Option<Self> {
        Some(self / o)
    }
    fn neg(&self) -> Option<Self> {
        Some(-self)
    }
    fn recip(&self) -> Option<Self> {
        Some(Q::recip(self))
    }
    fn from_q(q: &Q) -> Option<Self> {
        Some(q.clone())
    }
    fn to_q(&self) -> Q {
        self.clone()
    }
}

/// A rational `n / d` with `d > 0` and `gcd(n, d) = 1` (so equality is structural).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub(crate) struct Rat {
    n: i64,
    d: i64,
}

fn gcd_u64(mut a: u64, mut b: u64) -> u64 {
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

impl Rat {
    /// `n / d` for `d > 0`, reduced; `None` if it does not fit.
    fn make(n: i128, d: i128) -> Option<Rat> {
        debug_assert!(d > 0);
        if d == 1 {
            return Some(Rat {
                n: i64::try_from(n).ok()?,
                d: 1,
            });
        }
        if n == 0 {
            return Some(Rat { n: 0, d: 1 });
        }
        // Both magnitudes are below 2^127, so the gcd fits in i128.
        let g = gcd_u128(n.unsigned_abs(), d.unsigned_abs()) as i128;
        Some(Rat {
            n: i64::try_from(n / g).ok()?,
            d: i64::try_from(d / g).ok()?,
        })
    }
}

impl PartialOrd for Rat {
    fn partial_cmp(&self, o: &Self) -> Option<Ordering> {
        Some(self.cmp(o))
    }
}

impl Ord for Rat {
    fn cmp(&self, o: &Self) -> Ordering {
        if self.d == o.d {
            self.n.cmp(&o.n)
        } else {
            (i128::from(self.n) * i128::from(o.d)).cmp(&(i128::from(o.n) * i128::from(self.d)))
        }
    }
}

impl Num for Rat {
    fn zero() -> Self {
        Rat { n: 0, d: 1 }
    }
    fn one() -> Self {
        Rat { n: 1, d: 1 }
    }
    fn is_zero(&self) -> bool {
        self.n == 0
    }
    fn is_positive(&self) -> bool {
        self.n > 0
    }
    fn add(&self, o: &Self) -> Option<Self> {
        if self.d == 1 && o.d == 1 {
            return Some(Rat {
                n: self.n.checked_add(o.n)?,
                d: 1,
            });
        }
        let (n1, d1, n2, d2) = (
            i128::from(self.n),
            i128::from(self.d),
            i128::from(o.n),
            i128::from(o.d),
        );
        // |n1·d2|, |n2·d1| ≤ 2^126, so the sum fits.
        Rat::make(n1 * d2 + n2 * d1, d1 * d2)
    }
    fn sub(&self, o: &Self) -> Option<Self> {
        if self.d == 1 && o.d == 1 {
            return Some(Rat {
                n: self.n.checked_sub(o.n)?,
                d: 1,
            });
        }
        let (n1, d1, n2, d2) = (
            i128::from(self.n),
            i128::from(self.d),
            i128::from(o.n),
            i128::from(o.d),
        );
        Rat::make(n1 * d2 - n2 * d1, d1 * d2)
    }
    fn mul(&self, o: &Self) -> Option<Self> {
        if self.d == 1 && o.d == 1 {
            return Some(Rat {
                n: self.n.checked_mul(o.n)?,
                d: 1,
            });
        }
        Rat::make(
            i128::from(self.n) * i128::from(o.n),
            i128::from(self.d) * i128::from(o.d),
        )
    }
    fn div(&self, o: &Self) -> Option<Self> {
        debug_assert!(o.n != 0);
        let mut n = i128::from(self.n) * i128::from(o.d);
        let mut d = i128::from(self.d) * i128::from(o.n);
        if d < 0 {
            n = -n;
            d = -d;
        }
        Rat::make(n, d)
    }
    fn neg(&self) -> Option<Self> {
        Some(Rat {
            n: self.n.checked_neg()?,
            d: self.d,
        })
    }
    fn recip(&self) -> Option<Self> {
        debug_assert!(self.n != 0);
        if self.n > 0 {
            Some(Rat {
                n: self.d,
                d: self.n,
            })
        } else {
            Some(Rat {
                n: self.d.checked_neg()?,
                d: self.n.checked_neg()?,
            })
        }
    }
    fn from_q(q: &Q) -> Option<Self> {
        // `Q` is kept reduced with a positive denominator.
        let n = i128::from(q.numer().to_i64()?);
        let d = i128::from(q.denom().to_i64()?);
        match d.cmp(&0) {
            Ordering::Greater => Rat::make(n, d),
            Ordering::Less => Rat::make(-n, -d),
            Ordering::Equal => None,
        }
    }
    fn to_q(&self) -> Q {
        Q::new_raw(BigInt::from(self.n), BigInt::from(self.d))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn q(n: i64, d: i64) -> Q {
        Q::new(n.into(), d.into())
    }

    #[test]
    fn agrees_with_q() {
        let vals: Vec<Q> = [
            (0, 1),
            (1, 1),
            (-1, 1),
            (3, 4),
            (-7, 6),
            (5, 3),
            (i64::MAX, 1),
            (i64::MIN + 1, 1),
            (i64::MAX, i64::MAX - 1),
            (-(1 << 40), 3),
            (1, 1 << 40),
        ]
        .iter()
        .map(|&(n, d)| q(n, d))
        .collect();
        for a in &vals {
            let ra = Rat::from_q(a).expect("fits");
            assert_eq!(ra.to_q(), *a);
            for b in &vals {
                let rb = Rat::from_q(b).expect("fits");
                assert_eq!(ra.cmp(&rb), a.cmp(b), "{a} vs {b}");
                let check = |r: Option<Rat>, e: Q| {
                    if let Some(r) = r {
                        assert_eq!(r.to_q(), e);
                    } else {
                        assert!(Rat::from_q(&e).is_none(), "spurious overflow: {e}");
                    }
                };
                check(Num::add(&ra, &rb), a + b);
                check(Num::sub(&ra, &rb), a - b);
                check(Num::mul(&ra, &rb), a * b);
                if !Zero::is_zero(b) {
                    check(Num::div(&ra, &rb), a / b);
                    check(Num::recip(&rb), Q::recip(b));
                }
                check(Num::neg(&ra), -a);
            }
        }
    }
}
