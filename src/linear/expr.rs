//! Sparse linear expressions `Σ aᵢ·xᵢ + c` with exact rational coefficients.

use std::collections::BTreeMap;
use std::fmt;
use std::ops::{Add, Mul, Neg, Sub};

use num_traits::{One, Signed, Zero};

use super::{Dim, LinearError, Point, Q};

/// A linear expression `Σ aᵢ·xᵢ + c`. Zero coefficients are never stored, so two equal
/// expressions have equal representations.
#[derive(Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Debug, Default)]
pub struct LinExpr {
    coeffs: BTreeMap<Dim, Q>,
    constant: Q,
}

impl LinExpr {
    /// The expression `0`.
    pub fn zero() -> Self {
        Self::default()
    }

    /// The expression `x_d`.
    pub fn var(d: Dim) -> Self {
        Self::term(Q::one(), d)
    }

    /// The expression `k·x_d` (or `0` if `k` is zero).
    pub fn term(k: Q, d: Dim) -> Self {
        let mut coeffs = BTreeMap::new();
        if !k.is_zero() {
            coeffs.insert(d, k);
        }
        Self {
            coeffs,
            constant: Q::zero(),
        }
    }

    /// The constant expression `q`.
    pub fn constant(q: Q) -> Self {
        Self {
            coeffs: BTreeMap::new(),
            constant: q,
        }
    }

    /// The constant expression `n`.
    pub fn int(n: i64) -> Self {
        Self::constant(Q::from_integer(n.into()))
    }

    /// Builds `Σ coeffs + constant`, dropping zero coefficients.
    pub fn from_parts(coeffs: impl IntoIterator<Item = (Dim, Q)>, constant: Q) -> Self {
        let mut e = Self::constant(constant);
        for (d, k) in coeffs {
            e.add_term(d, &k);
        }
        e
    }

    /// The coefficient of `x_d` (zero if absent).
    pub fn coeff(&self, d: Dim) -> Q {
        self.coeffs.get(&d).cloned().unwrap_or_else(Q::zero)
    }

    /// The non-zero coefficients, by dimension.
    pub fn coeffs(&self) -> &BTreeMap<Dim, Q> {
        &self.coeffs
    }

    /// The constant term.
    pub fn constant_term(&self) -> &Q {
        &self.constant
    }

    /// Splits into the coefficient map and the constant.
    pub fn into_parts(self) -> (BTreeMap<Dim, Q>, Q) {
        (self.coeffs, self.constant)
    }

    /// The dimensions with a non-zero coefficient, in increasing order.
    pub fn dims(&self) -> impl Iterator<Item = Dim> + '_ {
        self.coeffs.keys().copied()
    }

    /// Whether no dimension occurs.
    pub fn is_constant(&self) -> bool {
        self.coeffs.is_empty()
    }

    /// Whether the expression is the constant `0`.
    pub fn is_zero(&self) -> bool {
        self.coeffs.is_empty() && self.constant.is_zero()
    }

    /// Adds `k·x_d` in place.
    pub fn add_term(&mut self, d: Dim, k: &Q) {
        if k.is_zero() {
            return;
        }
        match self.coeffs.entry(d) {
            std::collections::btree_map::Entry::Vacant(v) => {
                v.insert(k.clone());
            }
            std::collections::btree_map::Entry::Occupied(mut o) => {
                *o.get_mut() += k;
                if o.get().is_zero() {
                    o.remove();
                }
            }
        }
    }

    /// Adds the constant `q` in place.
    pub fn add_constant(&mut self, q: &Q) {
        self.constant += q;
    }

    /// `self += k·other`, in place (the Fourier–Motzkin inner loop).
    pub fn add_scaled(&mut self, k: &Q, other: &LinExpr) {
        if k.is_zero() {
            return;
        }
        for (d, a) in &other.coeffs {
            self.add_term(*d, &(k * a));
        }
        self.constant += k * &other.constant;
    }

    /// `k·self`.
    pub fn scale(&self, k: &Q) -> LinExpr {
        let mut e = self.clone();
        e.scale_in_place(k);
        e
    }

    /// `self := k·self`.
    pub fn scale_in_place(&mut self, k: &Q) {
        if k.is_zero() {
            *self = LinExpr::zero();
            return;
        }
        for a in self.coeffs.values_mut() {
            *a *= k;
        }
        self.constant *= k;
    }

    /// Replaces `x_d` by `e` (simultaneously in all occurrences).
    pub fn substitute(&self, d: Dim, e: &LinExpr) -> LinExpr {
        match self.coeffs.get(&d) {
            None => self.clone(),
            Some(k) => {
                let k = k.clone();
                let mut out = self.clone();
                out.coeffs.remove(&d);
                out.add_scaled(&k, e);
                out
            }
        }
    }

    /// Renames every dimension through `f` (coefficients of dimensions mapped to the same
    /// target are added).
    pub fn rename(&self, f: &impl Fn(Dim) -> Dim) -> LinExpr {
        let mut out = LinExpr::constant(self.constant.clone());
        for (d, k) in &self.coeffs {
            out.add_term(f(*d), k);
        }
        out
    }

    /// The value at `point`; an error if a dimension of the expression has no value.
    pub fn eval(&self, point: &Point) -> Result<Q, LinearError> {
        let mut v = self.constant.clone();
        for (d, k) in &self.coeffs {
            let x = point.get(d).ok_or(LinearError::UnboundDim(*d))?;
            v += k * x;
        }
        Ok(v)
    }
}

impl fmt::Display for LinExpr {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut first = true;
        for (d, k) in &self.coeffs {
            let neg = k.is_negative();
            let abs = k.abs();
            if first {
                if neg {
                    write!(f, "-")?;
                }
            } else if neg {
                write!(f, " - ")?;
            } else {
                write!(f, " + ")?;
            }
            if abs.is_one() {
                write!(f, "{d}")?;
            } else {
                write!(f, "{abs}*{d}")?;
            }
            first = false;
        }
        if first {
            write!(f, "{}", self.constant)
        } else if self.constant.is_negative() {
            write!(f, " - {}", -&self.constant)
        } else if self.constant.is_zero() {
            Ok(())
        } else {
            write!(f, " + {}", self.constant)
        }
    }
}

impl Add<&LinExpr> for &LinExpr {
    type Output = LinExpr;
    fn add(self, rhs: &LinExpr) -> LinExpr {
        let mut e = self.clone();
        e.add_scaled(&Q::one(), rhs);
        e
    }
}

impl Add for LinExpr {
    type Output = LinExpr;
    fn add(mut self, rhs: LinExpr) -> LinExpr {
        self.add_scaled(&Q::one(), &rhs);
        self
    }
}

impl Sub<&LinExpr> for &LinExpr {
    type Output = LinExpr;
    fn sub(self, rhs: &LinExpr) -> LinExpr {
        let mut e = self.clone();
        e.add_scaled(&-Q::one(), rhs);
        e
    }
}

impl Sub for LinExpr {
    type Output = LinExpr;
    fn sub(mut self, rhs: LinExpr) -> LinExpr {
        self.add_scaled(&-Q::one(), &rhs);
        self
    }
}

impl Neg for LinExpr {
    type Output = LinExpr;
    fn neg(mut self) -> LinExpr {
        self.scale_in_place(&-Q::one());
        self
    }
}

impl Neg for &LinExpr {
    type Output = LinExpr;
    fn neg(self) -> LinExpr {
        -self.clone()
    }
}

impl Mul<&Q> for &LinExpr {
    type Output = LinExpr;
    fn mul(self, k: &Q) -> LinExpr {
        self.scale(k)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn q(n: i64) -> Q {
        Q::from_integer(n.into())
    }

    #[test]
    fn arithmetic_and_display() {
        let x = LinExpr::var(Dim(3));
        let y = LinExpr::var(Dim(5));
        let e = &(&x * &q(2)) - &y + LinExpr::int(1);
        assert_eq!(e.to_string(), "2*x3 - x5 + 1");
        assert_eq!((&e - &e).to_string(), "0");
        assert!((&e - &e).is_zero());
        assert_eq!((-e.clone()).to_string(), "-2*x3 + x5 - 1");
        let s = e.substitute(Dim(5), &(&x + &LinExpr::int(4)));
        assert_eq!(s.to_string(), "x3 - 3");
        let r = e.rename(&|d: Dim| Dim(d.0 + 1));
        assert_eq!(r.coeff(Dim(4)), q(2));
        assert_eq!(r.coeff(Dim(6)), q(-1));
        let p: Point = [(Dim(3), q(1)), (Dim(5), q(7))].into_iter().collect();
        assert_eq!(e.eval(&p), Ok(q(-4)));
        assert_eq!(e.eval(&Point::new()), Err(LinearError::UnboundDim(Dim(3))));
    }
}
