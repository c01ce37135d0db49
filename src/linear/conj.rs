//! Conjunctions of linear constraints in canonical form: one range `lo ≤ L ≤ hi` per
//! canonical linear form `L`, with exact emptiness, implication and entailment (the
//! "Entailment" operation of the paper's §4, decided by [`super::simplex`]).

use std::collections::{BTreeMap, BTreeSet};
use std::fmt;

use num_traits::{One, Signed, Zero};

use super::constraint::canonical;
use super::expr::LinExpr;
use super::simplex::{Tableau, DQ};
use super::{Constraint, Dim, LinearError, Point, Rel, Q};

/// Which points a [`Conj`] ranges over.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub enum Domain {
    /// Every dimension is integer-valued: constraints are kept integer-tightened
    /// ([`Constraint::tighten`]), so no bound is strict. This is lpmc's domain.
    Int,
    /// Rational points: constraints are kept exactly (strict bounds included). For the
    /// tests and for convex hulls (whose multipliers are not integers).
    Rat,
}

/// One side of a [`Range`]: `L ≤ value` / `L ≥ value`, or strictly.
#[derive(Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub struct Bound {
    /// The bounding constant.
    pub value: Q,
    /// Whether the bound excludes `value` itself (never in [`Domain::Int`]).
    pub strict: bool,
}

impl Bound {
    /// A non-strict bound.
    pub fn closed(value: Q) -> Self {
        Self {
            value,
            strict: false,
        }
    }

    /// As a δ-rational lower bound.
    pub(crate) fn lower_dq(&self) -> DQ {
        DQ::new(self.value.clone(), i64::from(self.strict))
    }

    /// As a δ-rational upper bound.
    pub(crate) fn upper_dq(&self) -> DQ {
        DQ::new(self.value.clone(), -i64::from(self.strict))
    }
}

/// The range `lo ≤ L ≤ hi` of a canonical linear form `L` (either side may be absent).
#[derive(Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Debug, Default)]
pub struct Range {
    /// The lower bound, if any.
    pub lo: Option<Bound>,
    /// The upper bound, if any.
    pub hi: Option<Bound>,
}

impl Range {
    /// Whether this is an equality `L = v`.
    pub fn is_equality(&self) -> bool {
        match (&self.lo, &self.hi) {
            (Some(l), Some(h)) => !l.strict && !h.strict && l.value == h.value,
            _ => false,
        }
    }

    /// Whether `v` lies in the range.
    pub fn contains(&self, v: &Q) -> bool {
        let lo_ok = self.lo.as_ref().is_none_or(|l| {
            if l.strict {
                *v > l.value
            } else {
                *v >= l.value
            }
        });
        let hi_ok = self.hi.as_ref().is_none_or(|h| {
            if h.strict {
                *v < h.value
            } else {
                *v <= h.value
            }
        });
        lo_ok && hi_ok
    }

    fn is_void(&self) -> bool {
        match (&self.lo, &self.hi) {
            (Some(l), Some(h)) => {
                l.value > h.value || (l.value == h.value && (l.strict || h.strict))
            }
            _ => false,
        }
    }
}

/// A conjunction of linear constraints, kept canonical: each linear form is scaled to
/// coprime integer coefficients with a positive first coefficient and carries one
/// [`Range`]; in [`Domain::Int`] all bounds are integer-tightened. Syntactic redundancy
/// (duplicates, weaker constants, `L ≤ a ∧ L ≥ a` as an equality) is thus removed on
/// insertion; [`Conj::simplify`] removes the semantic kind.
#[derive(Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub struct Conj {
    pub(super) domain: Domain,
    /// `false` once a contradiction was found syntactically (then `rows` is empty).
    pub(super) feasible: bool,
    pub(super) rows: BTreeMap<BTreeMap<Dim, Q>, Range>,
}

impl Default for Conj {
    fn default() -> Self {
        Self::top()
    }
}

impl Conj {
    /// The empty conjunction `true` over [`Domain::Int`].
    pub fn top() -> Self {
        Self::top_in(Domain::Int)
    }

    /// The empty conjunction `true` over `domain`.
    pub fn top_in(domain: Domain) -> Self {
        Self {
            domain,
            feasible: true,
            rows: BTreeMap::new(),
        }
    }

    /// `false` over [`Domain::Int`].
    #[cfg(test)]
    pub fn bottom() -> Self {
        Self::bottom_in(Domain::Int)
    }

    /// `false` over `domain`.
    #[cfg(test)]
    pub fn bottom_in(domain: Domain) -> Self {
        Self {
            domain,
            feasible: false,
            rows: BTreeMap::new(),
        }
    }

    /// The conjunction of `cs` over [`Domain::Int`].
    pub fn from_constraints<'a>(cs: impl IntoIterator<Item = &'a Constraint>) -> Self {
        Self::from_constraints_in(Domain::Int, cs)
    }

    /// The conjunction of `cs` over `domain`.
    pub fn from_constraints_in<'a>(
        domain: Domain,
        cs: impl IntoIterator<Item = &'a Constraint>,
    ) -> Self {
        let mut c = Self::top_in(domain);
        for x in cs {
            c.add(x);
        }
        c
    }

    /// Whether a contradiction was found syntactically (a sufficient test for emptiness).
    pub fn is_trivially_false(&self) -> bool {
        !self.feasible
    }

    /// The number of canonical rows (an equality or a range counts once).
    #[cfg(test)]
    pub fn num_rows(&self) -> usize {
        self.rows.len()
    }

    /// The rows: canonical linear form and its range.
    pub fn rows(&self) -> impl Iterator<Item = (&BTreeMap<Dim, Q>, &Range)> {
        self.rows.iter()
    }

    /// Adds `c` (tightened in [`Domain::Int`]).
    pub fn add(&mut self, c: &Constraint) {
        let zero = || Some(Bound::closed(Q::zero()));
        let (lo, hi) = match c.rel {
            Rel::Le => (None, zero()),
            Rel::Lt => (
                None,
                Some(Bound {
                    value: Q::zero(),
                    strict: true,
                }),
            ),
            Rel::Eq => (zero(), zero()),
        };
        self.add_range(c.expr.coeffs(), c.expr.constant_term(), lo, hi);
    }

    /// `self ∧ other`. Both must be over the same domain.
    pub fn and(&self, other: &Conj) -> Conj {
        assert!(
            self.domain == other.domain,
            "conjunction of constraints over different domains"
        );
        if !other.feasible {
            return other.clone();
        }
        let mut out = self.clone();
        if !out.feasible {
            return out;
        }
        // `other`'s rows are canonical and (in `Domain::Int`) already rounded, so they
        // are intersected as they are.
        for (key, r) in &other.rows {
            match out.rows.get_mut(key) {
                None => {
                    out.rows.insert(key.clone(), r.clone());
                }
                Some(o) => {
                    if let Some(l) = &r.lo {
                        o.lo = Some(match o.lo.take() {
                            Some(a) => tighter_lower(a, l.clone()),
                            None => l.clone(),
                        });
                    }
                    if let Some(h) = &r.hi {
                        o.hi = Some(match o.hi.take() {
                            Some(a) => tighter_upper(a, h.clone()),
                            None => h.clone(),
                        });
                    }
                    if o.is_void() {
                        out.set_false();
                        return out;
                    }
                }
            }
        }
        out
    }

    /// Adds `lo ≤ coeffs·x + constant ≤ hi`.
    pub(super) fn add_range(
        &mut self,
        coeffs: &BTreeMap<Dim, Q>,
        constant: &Q,
        lo: Option<Bound>,
        hi: Option<Bound>,
    ) {
        if !self.feasible {
            return;
        }
        if coeffs.is_empty() {
            let r = Range { lo, hi };
            if !r.contains(constant) {
                self.set_false();
            }
            return;
        }
        let (key, f) = canonical(coeffs);
        // lo - c ≤ coeffs·x ≤ hi - c, and key = f·coeffs.
        let shift = |b: Bound| Bound {
            value: (b.value - constant) * &f,
            strict: b.strict,
        };
        let (lo, hi) = if f.is_positive() {
            (lo.map(shift), hi.map(shift))
        } else {
            (hi.map(shift), lo.map(shift))
        };
        self.insert(key, lo, hi);
    }

    /// Intersects the range of the canonical form `key` with `lo`/`hi`, rounding in
    /// [`Domain::Int`].
    pub(super) fn insert(&mut self, key: BTreeMap<Dim, Q>, lo: Option<Bound>, hi: Option<Bound>) {
        if lo.is_none() && hi.is_none() {
            return;
        }
        let (lo, hi) = match self.domain {
            Domain::Rat => (lo, hi),
            Domain::Int => (
                lo.map(|b| {
                    Bound::closed(if b.strict {
                        b.value.floor() + Q::one()
                    } else {
                        b.value.ceil()
                    })
                }),
                hi.map(|b| {
                    Bound::closed(if b.strict {
                        b.value.ceil() - Q::one()
                    } else {
                        b.value.floor()
                    })
                }),
            ),
        };
        let r = self.rows.entry(key).or_default();
        if let Some(l) = lo {
            r.lo = Some(match r.lo.take() {
                Some(o) => tighter_lower(o, l),
                None => l,
            });
        }
        if let Some(h) = hi {
            r.hi = Some(match r.hi.take() {
                Some(o) => tighter_upper(o, h),
                None => h,
            });
        }
        if r.is_void() {
            self.set_false();
        }
    }

    pub(super) fn set_false(&mut self) {
        self.feasible = false;
        self.rows.clear();
    }

    /// The constraints of the conjunction (canonical form; `false` is `1 ≤ 0`).
    pub fn constraints(&self) -> Vec<Constraint> {
        if !self.feasible {
            return vec![Constraint::new(LinExpr::int(1), Rel::Le)];
        }
        let mut out = Vec::with_capacity(self.rows.len());
        for (key, r) in &self.rows {
            let lin = || LinExpr::from_parts(key.iter().map(|(d, a)| (*d, a.clone())), Q::zero());
            let rel = |b: &Bound| if b.strict { Rel::Lt } else { Rel::Le };
            if r.is_equality() {
                if let Some(h) = &r.hi {
                    let mut e = lin();
                    e.add_constant(&-&h.value);
                    out.push(Constraint::new(e, Rel::Eq));
                }
                continue;
            }
            if let Some(l) = &r.lo {
                let mut e = -lin();
                e.add_constant(&l.value);
                out.push(Constraint::new(e, rel(l)));
            }
            if let Some(h) = &r.hi {
                let mut e = lin();
                e.add_constant(&-&h.value);
                out.push(Constraint::new(e, rel(h)));
            }
        }
        out
    }

    /// The dimensions occurring in the conjunction.
    pub fn dims(&self) -> BTreeSet<Dim> {
        self.rows.keys().flat_map(|k| k.keys().copied()).collect()
    }

    /// Whether `point` satisfies every constraint; an error if it misses a dimension.
    pub fn contains_point(&self, point: &Point) -> Result<bool, LinearError> {
        if !self.feasible {
            return Ok(false);
        }
        for (key, r) in &self.rows {
            let mut v = Q::zero();
            for (d, a) in key {
                v += a * point.get(d).ok_or(LinearError::UnboundDim(*d))?;
            }
            if !r.contains(&v) {
                return Ok(false);
            }
        }
        Ok(true)
    }

    /// Rebuilds the conjunction with every row's form passed through `f`.
    fn map_rows(&self, f: impl Fn(&BTreeMap<Dim, Q>) -> LinExpr) -> Conj {
        if !self.feasible {
            return self.clone();
        }
        let mut out = Conj::top_in(self.domain);
        for (key, r) in &self.rows {
            let e = f(key);
            out.add_range(e.coeffs(), e.constant_term(), r.lo.clone(), r.hi.clone());
        }
        out
    }

    /// Replaces `x_d` by `e` everywhere.
    pub fn substitute(&self, d: Dim, e: &LinExpr) -> Conj {
        self.map_rows(|key| {
            let lin = LinExpr::from_parts(key.iter().map(|(x, a)| (*x, a.clone())), Q::zero());
            lin.substitute(d, e)
        })
    }

    /// Renames every dimension through `f`.
    pub fn rename(&self, f: &impl Fn(Dim) -> Dim) -> Conj {
        self.map_rows(|key| {
            let mut lin = LinExpr::zero();
            for (x, a) in key {
                lin.add_term(f(*x), a);
            }
            lin
        })
    }

    /// A simplex tableau holding the rows, and the variable of each row (in key order).
    pub(super) fn tableau(&self) -> (Tableau, Vec<usize>) {
        let mut t = Tableau::new();
        let mut vars = Vec::with_capacity(self.rows.len());
        for (key, r) in &self.rows {
            let v = t.var_for(key);
            t.restrict(
                v,
                r.lo.as_ref().map(Bound::lower_dq),
                r.hi.as_ref().map(Bound::upper_dq),
            );
            vars.push(v);
        }
        (t, vars)
    }

    /// Whether the conjunction has no rational point (exact). In [`Domain::Int`] the rows
    /// are tightened, so rational emptiness implies that there is no integer point.
    pub fn is_empty(&self) -> bool {
        !self.feasible || !self.tableau().0.check()
    }

    /// A rational point of the conjunction, if it is not empty.
    pub fn feasible_point(&self) -> Option<Point> {
        if !self.feasible {
            return None;
        }
        let (mut t, _) = self.tableau();
        if !t.check() {
            return None;
        }
        let p = t.model();
        assert!(
            self.contains_point(&p) == Ok(true),
            "simplex model {p:?} outside {self}"
        );
        Some(p)
    }

    /// Whether every point of `self` satisfies `c`: `self ∧ ¬c` is empty (exact; in
    /// [`Domain::Int`] the negation is tightened, so this is implication over integer
    /// points).
    pub fn implies(&self, c: &Constraint) -> bool {
        self.implies_all(std::slice::from_ref(c))
    }

    /// Whether `self` implies every constraint of `other` (`self ⊑ other`).
    pub fn entails(&self, other: &Conj) -> bool {
        #[cfg(any(test, feature = "internals"))]
        super::capture::entailment(self, other);
        if !other.feasible {
            return self.is_empty();
        }
        self.implies_all(&other.constraints())
    }

    /// Whether `self` implies each of `cs`, sharing one warm-started tableau.
    pub fn implies_all(&self, cs: &[Constraint]) -> bool {
        if !self.feasible {
            return true;
        }
        let (mut t, _) = self.tableau();
        if !t.check() {
            return true;
        }
        for c in cs {
            for n in c.negate() {
                let neg = Conj::from_constraints_in(self.domain, [&n]);
                if !neg.feasible {
                    continue;
                }
                let Some((key, r)) = neg.rows.into_iter().next() else {
                    // The negation is `true`, and `self` is not empty.
                    return false;
                };
                let v = t.var_for(&key);
                let saved = t.bounds(v);
                t.restrict(
                    v,
                    r.lo.as_ref().map(Bound::lower_dq),
                    r.hi.as_ref().map(Bound::upper_dq),
                );
                let sat = t.check();
                t.restore(v, saved);
                if sat {
                    return false;
                }
            }
        }
        true
    }
}

fn tighter_lower(a: Bound, b: Bound) -> Bound {
    match a.value.cmp(&b.value) {
        std::cmp::Ordering::Greater => a,
        std::cmp::Ordering::Less => b,
        std::cmp::Ordering::Equal => Bound {
            value: a.value,
            strict: a.strict || b.strict,
        },
    }
}

fn tighter_upper(a: Bound, b: Bound) -> Bound {
    match a.value.cmp(&b.value) {
        std::cmp::Ordering::Less => a,
        std::cmp::Ordering::Greater => b,
        std::cmp::Ordering::Equal => Bound {
            value: a.value,
            strict: a.strict || b.strict,
        },
    }
}

impl fmt::Display for Conj {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if !self.feasible {
            return write!(f, "false");
        }
        if self.rows.is_empty() {
            return write!(f, "true");
        }
        for (i, (key, r)) in self.rows.iter().enumerate() {
            if i > 0 {
                write!(f, " && ")?;
            }
            let lin = LinExpr::from_parts(key.iter().map(|(d, a)| (*d, a.clone())), Q::zero());
            let op = |b: &Bound| if b.strict { "<" } else { "<=" };
            if r.is_equality() {
                if let Some(h) = &r.hi {
                    write!(f, "{lin} = {}", h.value)?;
                }
                continue;
            }
            match (&r.lo, &r.hi) {
                (Some(l), Some(h)) => {
                    write!(f, "{} {} {lin} {} {}", l.value, op(l), op(h), h.value)?
                }
                (Some(l), None) => {
                    write!(f, "{lin} {} {}", if l.strict { ">" } else { ">=" }, l.value)?
                }
                (None, Some(h)) => write!(f, "{lin} {} {}", op(h), h.value)?,
                (None, None) => write!(f, "true")?,
            }
        }
        Ok(())
    }
}
