//! Granger's non-relational congruences ("Static analysis of arithmetical congruences",
//! 1989): a set of integers `{r + k·m | k ∈ ℤ}`, written `x ≡ r (mod m)`.
//!
//! [`Cong`] is one element of the lattice (bottom, the empty set, is `None` where an
//! operation can produce it): modulus `0` is the constant `r`, modulus `1` is every
//! integer (top). The order is `(r₁, m₁) ⊑ (r₂, m₂)` iff `m₂ | m₁` and `m₂ | r₁ − r₂`.
//! Ascending chains are finite (each strict step replaces the modulus by a proper divisor,
//! or a constant by a modulus), so the join is also a widening.

use num_bigint::BigInt;
use num_integer::Integer;
use num_traits::{One, Signed, Zero};
use std::fmt;

/// `x ≡ r (mod m)`, canonical: `m ≥ 0`, and `0 ≤ r < m` when `m > 0`.
#[derive(Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub struct Cong {
    /// The residue (the value itself when `m = 0`).
    pub r: BigInt,
    /// The modulus (`0`: a constant; `1`: any integer).
    pub m: BigInt,
}

impl Cong {
    /// `x ≡ r (mod m)`, canonicalised (the sign of `m` does not matter).
    pub fn new(r: BigInt, m: BigInt) -> Cong {
        let m = m.abs();
        let r = if m.is_zero() { r } else { r.mod_floor(&m) };
        Cong { r, m }
    }

    /// Every integer.
    pub fn top() -> Cong {
        Cong::new(BigInt::zero(), BigInt::one())
    }

    /// The constant `c`.
    pub fn constant(c: BigInt) -> Cong {
        Cong::new(c, BigInt::zero())
    }

    /// Whether every integer is in it.
    pub fn is_top(&self) -> bool {
        self.m.is_one()
    }

    /// Whether `v` is in it.
    pub fn contains(&self, v: &BigInt) -> bool {
        if self.m.is_zero() {
            *v == self.r
        } else {
            (v - &self.r).mod_floor(&self.m).is_zero()
        }
    }

    /// `self ⊑ other`.
    pub fn leq(&self, other: &Cong) -> bool {
        // m₂ | m₁ and m₂ | r₁ − r₂ (0 divides only 0).
        let divides = |a: &BigInt, b: &BigInt| {
            if a.is_zero() {
                b.is_zero()
            } else {
                b.mod_floor(a).is_zero()
            }
        };
        divides(&other.m, &self.m) && divides(&other.m, &(&self.r - &other.r))
    }

    /// The least congruence containing both.
    pub fn join(&self, other: &Cong) -> Cong {
        let m = self.m.gcd(&other.m).gcd(&(&self.r - &other.r));
        Cong::new(self.r.clone(), m)
    }

    /// The intersection (Chinese remainder theorem), `None` if empty.
    pub fn meet(&self, other: &Cong) -> Option<Cong> {
        match (self.m.is_zero(), other.m.is_zero()) {
            (true, _) => other.contains(&self.r).then(|| self.clone()),
            (_, true) => self.contains(&other.r).then(|| other.clone()),
            _ => {
                // x = r₁ + m₁·k with m₁·k ≡ r₂ − r₁ (mod m₂).
                let g = self.m.extended_gcd(&other.m);
                let d = &other.r - &self.r;
                if !d.mod_floor(&g.gcd).is_zero() {
                    return None;
                }
                let l = self.m.lcm(&other.m);
                // k = (d / g) · x₀ where m₁·x₀ ≡ g (mod m₂).
                let k = (&d / &g.gcd) * &g.x;
                Some(Cong::new(&self.r + &self.m * k, l))
            }
        }
    }

    /// `{a + b}` for `a` in `self`, `b` in `other`.
    pub fn add(&self, other: &Cong) -> Cong {
        Cong::new(&self.r + &other.r, self.m.gcd(&other.m))
    }

    /// `{k·a}` for `a` in `self`.
    pub fn scale(&self, k: &BigInt) -> Cong {
        Cong::new(k * &self.r, k * &self.m)
    }

    /// `{a / k}` for the `a` in `self` that `k` divides, when that is exact: `k` must
    /// divide both the residue and the modulus (then the quotients form `(r/k, m/k)`).
    /// `None` when not exact (the caller then knows nothing).
    pub fn divide(&self, k: &BigInt) -> Option<Cong> {
        if k.is_zero() {
            return None;
        }
        let ok = |v: &BigInt| v.mod_floor(k).is_zero();
        (ok(&self.r) && ok(&self.m)).then(|| Cong::new(&self.r / k, &self.m / k))
    }

    /// The least integer `≥ lo` in it (`None` for a constant below `lo`).
    pub fn at_least(&self, lo: &BigInt) -> Option<BigInt> {
        if self.m.is_zero() {
            return (self.r >= *lo).then(|| self.r.clone());
        }
        Some(lo + (&self.r - lo).mod_floor(&self.m))
    }

    /// The greatest integer `≤ hi` in it (`None` for a constant above `hi`).
    pub fn at_most(&self, hi: &BigInt) -> Option<BigInt> {
        if self.m.is_zero() {
            return (self.r <= *hi).then(|| self.r.clone());
        }
        Some(hi - (hi - &self.r).mod_floor(&self.m))
    }
}

impl fmt::Display for Cong {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.m.is_zero() {
            write!(f, "= {}", self.r)
        } else {
            write!(f, "≡ {} (mod {})", self.r, self.m)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn c(r: i64, m: i64) -> Cong {
        Cong::new(r.into(), m.into())
    }

    fn n(v: i64) -> BigInt {
        BigInt::from(v)
    }

    #[test]
    fn join_of_constants_is_their_difference() {
        assert_eq!(c(0, 0).join(&c(2, 0)), c(0, 2));
        assert_eq!(c(1, 0).join(&c(7, 0)), c(1, 6));
        assert_eq!(c(3, 0).join(&c(3, 0)), c(3, 0));
        assert_eq!(c(0, 4).join(&c(2, 4)), c(0, 2));
        assert_eq!(c(0, 4).join(&c(1, 4)), Cong::top());
        assert_eq!(c(1, 6).join(&c(1, 4)), c(1, 2));
    }

    #[test]
    fn meet_is_the_chinese_remainder() {
        assert_eq!(c(1, 2).meet(&c(0, 3)), Some(c(3, 6)));
        assert_eq!(c(1, 2).meet(&c(0, 2)), None);
        assert_eq!(c(1, 4).meet(&c(3, 6)), Some(c(9, 12)));
        assert_eq!(c(1, 4).meet(&c(2, 6)), None);
        assert_eq!(c(5, 0).meet(&c(1, 2)), Some(c(5, 0)));
        assert_eq!(c(4, 0).meet(&c(1, 2)), None);
        assert_eq!(Cong::top().meet(&c(2, 3)), Some(c(2, 3)));
    }

    #[test]
    fn transfer_of_sums_and_multiples() {
        // x ≡ 0 (mod 4), x + 4: still 0 (mod 4); plus a multiple of 2³² keeps it.
        let x = c(0, 4);
        assert_eq!(x.add(&c(4, 0)), c(0, 4));
        assert_eq!(x.add(&Cong::top().scale(&n(1 << 32))), c(0, 4));
        assert_eq!(x.add(&Cong::top().scale(&n(6))), c(0, 2));
        assert_eq!(c(1, 2).scale(&n(3)), c(1, 2).scale(&n(3)));
        assert_eq!(c(1, 2).scale(&n(3)), c(3, 6));
        assert_eq!(c(1, 2).scale(&n(0)), c(0, 0));
        assert_eq!(c(2, 4).divide(&n(2)), Some(c(1, 2)));
        assert_eq!(c(1, 4).divide(&n(2)), None);
        assert_eq!(c(3, 5).at_least(&n(0)), Some(n(3)));
        assert_eq!(c(1, 2).at_most(&n(0)), Some(n(-1)));
        assert_eq!(c(1, 2).at_least(&n(0)), Some(n(1)));
        assert_eq!(c(7, 0).at_most(&n(6)), None);
    }

    fn cong() -> impl Strategy<Value = Cong> {
        (-20i64..20, 0i64..9).prop_map(|(r, m)| c(r, m))
    }

    proptest! {
        /// The operations over-approximate their concrete counterparts, and join and meet
        /// are the least upper and the greatest lower bound on the sampled values.
        #[test]
        fn operations_are_sound(a in cong(), b in cong(), k in -5i64..5, x in -60i64..60, y in -60i64..60) {
            let (x, y) = (n(x), n(y));
            let j = a.join(&b);
            prop_assert!(a.leq(&j) && b.leq(&j));
            if a.contains(&x) || b.contains(&x) {
                prop_assert!(j.contains(&x));
            }
            let m = a.meet(&b);
            prop_assert_eq!(a.contains(&x) && b.contains(&x), m.as_ref().is_some_and(|m| m.contains(&x)));
            if let Some(m) = &m {
                prop_assert!(m.leq(&a) && m.leq(&b));
            }
            if a.contains(&x) && b.contains(&y) {
                prop_assert!(a.add(&b).contains(&(&x + &y)));
                prop_assert!(a.scale(&n(k)).contains(&(n(k) * &x)));
                if k != 0 && (&x % n(k)).is_zero() {
                    if let Some(d) = a.divide(&n(k)) {
                        prop_assert!(d.contains(&(&x / n(k))));
                    }
                }
            }
            if let Some(v) = a.at_least(&x) {
                prop_assert!(v >= x && a.contains(&v));
                prop_assert!(!a.contains(&x) || v == x);
            }
            prop_assert_eq!(a.leq(&b), (-60..60).all(|v| !a.contains(&n(v)) || b.contains(&n(v))) || a.m.is_zero() && b.contains(&a.r));
        }
    }
}
