//! Atomic linear constraints `e ≤ 0`, `e < 0`, `e = 0`, their negation and integer
//! tightening (ARCHITECTURE.md §4, "Integer tightening").

use std::collections::BTreeMap;
use std::fmt;

use num_bigint::BigInt;
use num_integer::Integer;
use num_traits::{One, Signed, Zero};

use super::q::gcd_u64;
use super::{Dim, LinExpr, Q};
#[cfg(test)]
use super::{LinearError, Point};

/// The relation of a constraint `e REL 0`.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub enum Rel {
    /// `e ≤ 0`.
    Le,
    /// `e < 0`.
    Lt,
    /// `e = 0`.
    Eq,
}

impl Rel {
    /// Whether `v REL 0` holds.
    pub fn holds(self, v: &Q) -> bool {
        match self {
            Rel::Le => !v.is_positive(),
            Rel::Lt => v.is_negative(),
            Rel::Eq => v.is_zero(),
        }
    }

    fn symbol(self) -> &'static str {
        match self {
            Rel::Le => "<=",
            Rel::Lt => "<",
            Rel::Eq => "=",
        }
    }
}

/// A linear constraint `expr REL 0`.
#[derive(Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub struct Constraint {
    /// The left-hand side; the right-hand side is `0`.
    pub expr: LinExpr,
    /// The relation to `0`.
    pub rel: Rel,
}

/// The result of integer tightening: a constraint, or a truth value when no variable is
/// left.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum Tightened {
    /// Every point satisfies the constraint.
    True,
    /// No integer point satisfies the constraint.
    False,
    /// The tightened constraint: `≤` or `=`, integer coprime coefficients, integer constant.
    Atom(Constraint),
}

/// Scales a non-empty coefficient map to coprime integers: returns `(key, f)` with
/// `key = f·coeffs`, `f > 0`, and the coefficients of `key` coprime integers.
pub(crate) fn primitive(coeffs: &BTreeMap<Dim, Q>) -> (BTreeMap<Dim, Q>, Q) {
    if let Some(r) = primitive_small(coeffs) {
        return r;
    }
    let mut l = BigInt::one();
    for a in coeffs.values() {
        l = l.lcm(&a.denom());
    }
    let mut g = BigInt::zero();
    for a in coeffs.values() {
        let n = a.numer() * (&l / a.denom());
        g = g.gcd(&n);
    }
    if g.is_zero() {
        g = BigInt::one();
    }
    let f = Q::new(l, g);
    let key = coeffs
        .iter()
        .map(|(d, a)| (*d, a * &f))
        .collect::<BTreeMap<_, _>>();
    (key, f)
}

/// [`primitive`] for coefficients stored as machine rationals whose scaled integers fit
/// in `i64` (the common case), without big-integer gcds; `None` otherwise.
fn primitive_small(coeffs: &BTreeMap<Dim, Q>) -> Option<(BTreeMap<Dim, Q>, Q)> {
    // l: the lcm of the denominators.
    let mut l: i64 = 1;
    for a in coeffs.values() {
        let (_, d) = a.small()?;
        if d != 1 {
            l = l.checked_mul(d / gcd_u64(l as u64, d as u64) as i64)?;
        }
    }
    // g: the gcd of the numerators scaled to the common denominator.
    let mut g: u64 = 0;
    for a in coeffs.values() {
        let (n, d) = a.small()?;
        let m = n.checked_mul(l / d)?;
        g = gcd_u64(g, m.unsigned_abs());
    }
    if l == 1 && g <= 1 {
        return Some((coeffs.clone(), Q::one()));
    }
    let g = i64::try_from(g).ok().filter(|g| *g > 0)?;
    let f = Q::ratio(l, g);
    let key = coeffs
        .iter()
        .map(|(d, a)| {
            let (n, den) = a.small().unwrap_or((0, 1));
            // n·(l/den)/g is an exact integer and fits (|n·(l/den)| fits, g ≥ 1).
            (*d, Q::from_i64(n * (l / den) / g))
        })
        .collect();
    Some((key, f))
}

/// Like [`primitive`] but also makes the first coefficient positive, so that `e` and `k·e`
/// (any `k ≠ 0`) get the same key; `f` may then be negative.
pub(crate) fn canonical(coeffs: &BTreeMap<Dim, Q>) -> (BTreeMap<Dim, Q>, Q) {
    let (mut key, mut f) = primitive(coeffs);
    if key.values().next().is_some_and(|a| a.is_negative()) {
        for a in key.values_mut() {
            *a = -&*a;
        }
        f = -f;
    }
    (key, f)
}

impl Constraint {
    /// `expr REL 0`.
    pub fn new(expr: LinExpr, rel: Rel) -> Self {
        Self { expr, rel }
    }

    /// `a ≤ b`.
    pub fn le(a: &LinExpr, b: &LinExpr) -> Self {
        Self::new(a - b, Rel::Le)
    }

    /// `a < b`.
    pub fn lt(a: &LinExpr, b: &LinExpr) -> Self {
        Self::new(a - b, Rel::Lt)
    }

    /// `a = b`.
    pub fn eq(a: &LinExpr, b: &LinExpr) -> Self {
        Self::new(a - b, Rel::Eq)
    }

    /// `a ≥ b`.
    pub fn ge(a: &LinExpr, b: &LinExpr) -> Self {
        Self::le(b, a)
    }

    /// `a > b`.
    pub fn gt(a: &LinExpr, b: &LinExpr) -> Self {
        Self::lt(b, a)
    }

    /// The truth value of a constraint without variables, `None` otherwise.
    pub fn truth(&self) -> Option<bool> {
        self.expr
            .is_constant()
            .then(|| self.rel.holds(self.expr.constant_term()))
    }

    /// Whether `point` satisfies the constraint; an error if a dimension has no value.
    #[cfg(test)]
    pub fn holds(&self, point: &Point) -> Result<bool, LinearError> {
        Ok(self.rel.holds(&self.expr.eval(point)?))
    }

    /// Constraints whose disjunction is the negation of `self` (over the rationals):
    /// `¬(e ≤ 0)` is `-e < 0`, `¬(e < 0)` is `-e ≤ 0`, `¬(e = 0)` is `e < 0 ∨ -e < 0`.
    pub fn negate(&self) -> Vec<Constraint> {
        let neg = -&self.expr;
        match self.rel {
            Rel::Le => vec![Constraint::new(neg, Rel::Lt)],
            Rel::Lt => vec![Constraint::new(neg, Rel::Le)],
            Rel::Eq => vec![
                Constraint::new(self.expr.clone(), Rel::Lt),
                Constraint::new(neg, Rel::Lt),
            ],
        }
    }

    /// Integer tightening, assuming every dimension is integer-valued: scale the variable
    /// coefficients to coprime integers; then `e < 0` becomes `e + 1 ≤ 0`, `e ≤ 0` rounds
    /// its constant up (`g·s + c ≤ 0` becomes `s + ⌈c/g⌉ ≤ 0`), and an equality whose
    /// constant is not an integer after the scaling is false. No integer point is lost.
    pub fn tighten(&self) -> Tightened {
        if let Some(t) = self.truth() {
            return if t { Tightened::True } else { Tightened::False };
        }
        let (key, f) = primitive(self.expr.coeffs());
        let c = self.expr.constant_term() * &f;
        let (c, rel) = match self.rel {
            Rel::Le => (c.ceil(), Rel::Le),
            Rel::Lt => (c.floor() + Q::one(), Rel::Le),
            Rel::Eq => {
                if !c.is_integer() {
                    return Tightened::False;
                }
                (c, Rel::Eq)
            }
        };
        Tightened::Atom(Constraint::new(LinExpr::from_parts(key, c), rel))
    }

    /// Replaces `x_d` by `e`.
    pub fn substitute(&self, d: Dim, e: &LinExpr) -> Constraint {
        Constraint::new(self.expr.substitute(d, e), self.rel)
    }

    /// Renames every dimension through `f`.
    pub fn rename(&self, f: &impl Fn(Dim) -> Dim) -> Constraint {
        Constraint::new(self.expr.rename(f), self.rel)
    }
}

impl fmt::Display for Constraint {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} {} 0", self.expr, self.rel.symbol())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn q(n: i64) -> Q {
        Q::from_integer(n.into())
    }

    fn e(terms: &[(u32, i64)], c: i64) -> LinExpr {
        LinExpr::from_parts(terms.iter().map(|&(d, k)| (Dim(d), q(k))), q(c))
    }

    #[test]
    fn tighten_examples() {
        // 2x + 4y - 3 <= 0  ->  x + 2y - 1 <= 0   (x + 2y <= 3/2 -> <= 1)
        let c = Constraint::new(e(&[(0, 2), (1, 4)], -3), Rel::Le);
        assert_eq!(
            c.tighten(),
            Tightened::Atom(Constraint::new(e(&[(0, 1), (1, 2)], -1), Rel::Le))
        );
        // 2x < 0  ->  x + 1 <= 0
        let c = Constraint::new(e(&[(0, 2)], 0), Rel::Lt);
        assert_eq!(
            c.tighten(),
            Tightened::Atom(Constraint::new(e(&[(0, 1)], 1), Rel::Le))
        );
        // 2x - 1 = 0 has no integer solution
        let c = Constraint::new(e(&[(0, 2)], -1), Rel::Eq);
        assert_eq!(c.tighten(), Tightened::False);
        // x/2 - 1/3 <= 0  ->  x <= 2/3  ->  x <= 0
        let c = Constraint::new(
            LinExpr::from_parts(
                [(Dim(0), Q::new(1.into(), 2.into()))],
                Q::new((-1).into(), 3.into()),
            ),
            Rel::Le,
        );
        assert_eq!(
            c.tighten(),
            Tightened::Atom(Constraint::new(e(&[(0, 1)], 0), Rel::Le))
        );
        assert_eq!(
            Constraint::new(e(&[], -1), Rel::Lt).tighten(),
            Tightened::True
        );
        assert_eq!(
            Constraint::new(e(&[], 0), Rel::Lt).tighten(),
            Tightened::False
        );
    }

    #[test]
    fn negate_and_display() {
        let c = Constraint::le(&e(&[(0, 1)], 0), &e(&[], 3));
        assert_eq!(c.to_string(), "x0 - 3 <= 0");
        let n = c.negate();
        assert_eq!(n.len(), 1);
        assert_eq!(n[0].to_string(), "-x0 + 3 < 0");
        assert_eq!(
            Constraint::eq(&e(&[(1, 1)], 0), &e(&[], 0)).negate().len(),
            2
        );
        let (key, f) = canonical(&e(&[(0, -2), (1, 4)], 0).coeffs().clone());
        assert_eq!(key, e(&[(0, 1), (1, -2)], 0).coeffs().clone());
        assert_eq!(f, Q::new((-1).into(), 2.into()));
    }
}
