//! An exact simplex over `Q` deciding feasibility of linear constraints (strict ones
//! included) and producing a rational witness point.
//!
//! This is the general simplex of Dutertre and de Moura ("A Fast Linear-Arithmetic Solver
//! for DPLL(T)", CAV 2006): every constraint `Σ aᵢxᵢ REL c` gets a slack variable
//! `s = Σ aᵢxᵢ` with bounds, strict bounds use δ-rationals `r + k·δ` (δ an infinitesimal),
//! and pivots follow Bland's rule (smallest variable index), so the search terminates.
//! It decides the emptiness, implication and redundancy questions of the paper's §4
//! (entailment and quantifier elimination) exactly: no floating point is involved.
//!
//! Bounds can be changed between checks and the tableau is kept, so a sequence of related
//! questions (each constraint's redundancy, say) warm-starts from the previous basis.

use std::collections::BTreeMap;
use std::ops::{AddAssign, Mul};

use num_traits::{One, Signed, Zero};

use super::constraint::canonical;
use super::{Constraint, Dim, Point, Rel, Q};

/// A δ-rational `r + k·δ` for a positive infinitesimal δ, ordered lexicographically.
#[derive(Clone, PartialEq, Eq, PartialOrd, Ord, Debug, Default)]
pub(crate) struct DQ {
    /// The rational part.
    pub r: Q,
    /// The coefficient of δ.
    pub k: Q,
}

impl DQ {
    /// `r + k·δ`.
    pub fn new(r: Q, k: i64) -> Self {
        Self {
            r,
            k: Q::from_integer(k.into()),
        }
    }

    fn sub(&self, o: &DQ) -> DQ {
        DQ {
            r: &self.r - &o.r,
            k: &self.k - &o.k,
        }
    }

    fn div(&self, a: &Q) -> DQ {
        DQ {
            r: &self.r / a,
            k: &self.k / a,
        }
    }
}

impl AddAssign<&DQ> for DQ {
    fn add_assign(&mut self, o: &DQ) {
        self.r += &o.r;
        self.k += &o.k;
    }
}

impl Mul<&DQ> for &Q {
    type Output = DQ;
    fn mul(self, o: &DQ) -> DQ {
        DQ {
            r: self * &o.r,
            k: self * &o.k,
        }
    }
}

/// A simplex tableau with bounded variables: the dimensions plus one slack per distinct
/// (canonical) linear form.
#[derive(Clone, Debug, Default)]
pub(crate) struct Tableau {
    cols: BTreeMap<Dim, usize>,
    dims: Vec<Option<Dim>>,
    lower: Vec<Option<DQ>>,
    upper: Vec<Option<DQ>>,
    value: Vec<DQ>,
    /// Row `r`: `basic[r] = Σ rows[r][k]·x_k` over non-basic `x_k`.
    rows: Vec<BTreeMap<usize, Q>>,
    basic: Vec<usize>,
    row_of: Vec<Option<usize>>,
    slacks: BTreeMap<BTreeMap<Dim, Q>, usize>,
}

impl Tableau {
    /// An empty tableau.
    pub fn new() -> Self {
        Self::default()
    }

    fn fresh(&mut self, dim: Option<Dim>) -> usize {
        let v = self.value.len();
        self.dims.push(dim);
        self.lower.push(None);
        self.upper.push(None);
        self.value.push(DQ::default());
        self.row_of.push(None);
        v
    }

    /// The variable of dimension `d` (created on first use).
    pub fn dim_var(&mut self, d: Dim) -> usize {
        if let Some(&v) = self.cols.get(&d) {
            return v;
        }
        let v = self.fresh(Some(d));
        self.cols.insert(d, v);
        v
    }

    /// The variable standing for the linear form `coeffs` (taken as is: callers pass
    /// canonical forms so that equal forms share a variable). A unit form `x_d` is `x_d`.
    pub fn var_for(&mut self, coeffs: &BTreeMap<Dim, Q>) -> usize {
        if coeffs.len() == 1 {
            if let Some((d, a)) = coeffs.iter().next() {
                if a.is_one() {
                    return self.dim_var(*d);
                }
            }
        }
        if let Some(&v) = self.slacks.get(coeffs) {
            return v;
        }
        let mut row: BTreeMap<usize, Q> = BTreeMap::new();
        let mut val = DQ::default();
        for (d, a) in coeffs {
            let x = self.dim_var(*d);
            val += &(a * &self.value[x]);
            match self.row_of[x] {
                Some(r) => {
                    for (k, b) in &self.rows[r] {
                        add_entry(&mut row, *k, &(a * b));
                    }
                }
                None => add_entry(&mut row, x, a),
            }
        }
        let v = self.fresh(None);
        self.value[v] = val;
        self.row_of[v] = Some(self.rows.len());
        self.rows.push(row);
        self.basic.push(v);
        self.slacks.insert(coeffs.clone(), v);
        v
    }

    /// The current bounds of `v`.
    pub fn bounds(&self, v: usize) -> (Option<DQ>, Option<DQ>) {
        (self.lower[v].clone(), self.upper[v].clone())
    }

    /// Replaces the bounds of `v` (keeping a non-basic variable within them).
    pub fn set_bounds(&mut self, v: usize, lo: Option<DQ>, hi: Option<DQ>) {
        self.lower[v] = lo;
        self.upper[v] = hi;
        if self.row_of[v].is_none() {
            let target = match (&self.lower[v], &self.upper[v]) {
                (Some(l), _) if self.value[v] < *l => Some(l.clone()),
                (_, Some(u)) if self.value[v] > *u => Some(u.clone()),
                _ => None,
            };
            if let Some(t) = target {
                self.update(v, t);
            }
        }
    }

    /// Intersects the bounds of `v` with `lo`/`hi`.
    pub fn restrict(&mut self, v: usize, lo: Option<DQ>, hi: Option<DQ>) {
        let (l, u) = self.bounds(v);
        let lo = match (l, lo) {
            (Some(a), Some(b)) => Some(a.max(b)),
            (a, b) => a.or(b),
        };
        let hi = match (u, hi) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        };
        self.set_bounds(v, lo, hi);
    }

    /// Sets the non-basic variable `j` to `t`, updating the basic ones.
    fn update(&mut self, j: usize, t: DQ) {
        let diff = t.sub(&self.value[j]);
        for (r, row) in self.rows.iter().enumerate() {
            if let Some(a) = row.get(&j) {
                let inc = a * &diff;
                self.value[self.basic[r]] += &inc;
            }
        }
        self.value[j] = t;
    }

    /// Makes `basic[r]` take value `t` by moving the non-basic `j`, then pivots them.
    fn pivot_and_update(&mut self, r: usize, j: usize, t: DQ) {
        let x = self.basic[r];
        let Some(a) = self.rows[r].get(&j).cloned() else {
            unreachable!("pivot on a zero entry");
        };
        let theta = t.sub(&self.value[x]).div(&a);
        self.value[x] = t;
        self.value[j] += &theta;
        for (s, row) in self.rows.iter().enumerate() {
            if s != r {
                if let Some(c) = row.get(&j) {
                    let inc = c * &theta;
                    self.value[self.basic[s]] += &inc;
                }
            }
        }
        self.pivot(r, j);
    }

    fn pivot(&mut self, r: usize, j: usize) {
        let x = self.basic[r];
        let mut row = std::mem::take(&mut self.rows[r]);
        let Some(a) = row.remove(&j) else {
            unreachable!("pivot on a zero entry");
        };
        let inv = a.recip();
        for v in row.values_mut() {
            *v = -(&*v * &inv);
        }
        row.insert(x, inv);
        for (s, other) in self.rows.iter_mut().enumerate() {
            if s == r {
                continue;
            }
            if let Some(c) = other.remove(&j) {
                for (k, b) in &row {
                    add_entry(other, *k, &(&c * b));
                }
            }
        }
        self.rows[r] = row;
        self.basic[r] = j;
        self.row_of[j] = Some(r);
        self.row_of[x] = None;
    }

    /// Decides whether the bounds are satisfiable together (exactly, over `Q`).
    pub fn check(&mut self) -> bool {
        for v in 0..self.value.len() {
            if let (Some(l), Some(u)) = (&self.lower[v], &self.upper[v]) {
                if l > u {
                    return false;
                }
            }
        }
        loop {
            // Bland: the violated basic variable of smallest index.
            let mut best: Option<(usize, usize, bool, DQ)> = None;
            for (r, &x) in self.basic.iter().enumerate() {
                if best.as_ref().is_some_and(|b| b.0 < x) {
                    continue;
                }
                if let Some(l) = &self.lower[x] {
                    if self.value[x] < *l {
                        best = Some((x, r, true, l.clone()));
                        continue;
                    }
                }
                if let Some(u) = &self.upper[x] {
                    if self.value[x] > *u {
                        best = Some((x, r, false, u.clone()));
                    }
                }
            }
            let Some((_, r, below, target)) = best else {
                return true;
            };
            // Bland: the suitable non-basic variable of smallest index.
            let mut entering = None;
            for (&j, a) in &self.rows[r] {
                let can_inc = self.upper[j].as_ref().is_none_or(|u| self.value[j] < *u);
                let can_dec = self.lower[j].as_ref().is_none_or(|l| self.value[j] > *l);
                let pos = a.is_positive();
                let ok = if below {
                    (pos && can_inc) || (!pos && can_dec)
                } else {
                    (!pos && can_inc) || (pos && can_dec)
                };
                if ok {
                    entering = Some(j);
                    break;
                }
            }
            let Some(j) = entering else {
                return false;
            };
            self.pivot_and_update(r, j, target);
        }
    }

    /// A rational point of the dimensions satisfying all bounds, after a successful
    /// [`check`](Self::check): δ is instantiated small enough for every bound.
    pub fn model(&self) -> Point {
        let mut delta = Q::one();
        let mut limit = |lo: &DQ, hi: &DQ| {
            // Need lo.r + lo.k·δ ≤ hi.r + hi.k·δ.
            if lo.r < hi.r && lo.k > hi.k {
                let bound = (&hi.r - &lo.r) / (&lo.k - &hi.k);
                if bound < delta {
                    delta = bound;
                }
            }
        };
        for v in 0..self.value.len() {
            if let Some(l) = &self.lower[v] {
                limit(l, &self.value[v]);
            }
            if let Some(u) = &self.upper[v] {
                limit(&self.value[v], u);
            }
        }
        self.cols
            .iter()
            .map(|(d, &v)| {
                let x = &self.value[v];
                (*d, &x.r + &x.k * &delta)
            })
            .collect()
    }
}

fn add_entry(row: &mut BTreeMap<usize, Q>, k: usize, b: &Q) {
    if b.is_zero() {
        return;
    }
    match row.entry(k) {
        std::collections::btree_map::Entry::Vacant(e) => {
            e.insert(b.clone());
        }
        std::collections::btree_map::Entry::Occupied(mut e) => {
            *e.get_mut() += b;
            if e.get().is_zero() {
                e.remove();
            }
        }
    }
}

/// A canonical linear form with a lower and an upper bound.
pub(crate) type KeyBounds = (BTreeMap<Dim, Q>, Option<DQ>, Option<DQ>);

/// The bounds `(lower, upper)` on the canonical form of `c`'s linear part that `c`
/// amounts to, as δ-rationals; `None` for a constraint without variables.
pub(crate) fn bounds_of(c: &Constraint) -> Option<KeyBounds> {
    if c.expr.is_constant() {
        return None;
    }
    let (key, f) = canonical(c.expr.coeffs());
    // c: key/f + k REL 0, i.e. key REL' -f·k (REL flipped if f < 0).
    let v = -(c.expr.constant_term() * &f);
    let strict = i64::from(c.rel == Rel::Lt);
    Some(match c.rel {
        Rel::Eq => (key, Some(DQ::new(v.clone(), 0)), Some(DQ::new(v, 0))),
        _ if f.is_positive() => (key, None, Some(DQ::new(v, -strict))),
        _ => (key, Some(DQ::new(v, strict)), None),
    })
}

fn load(cs: &[Constraint]) -> Option<Tableau> {
    let mut t = Tableau::new();
    for c in cs {
        match bounds_of(c) {
            None => {
                if c.truth() == Some(false) {
                    return None;
                }
            }
            Some((key, lo, hi)) => {
                let v = t.var_for(&key);
                t.restrict(v, lo, hi);
            }
        }
    }
    Some(t)
}

/// Whether the constraints have a common rational solution (strict ones included).
pub fn is_feasible(cs: &[Constraint]) -> bool {
    load(cs).is_some_and(|mut t| t.check())
}

/// A rational point satisfying all the constraints, or `None` if there is none. The point
/// gives a value to every dimension occurring in `cs`.
pub fn feasible(cs: &[Constraint]) -> Option<Point> {
    let mut t = load(cs)?;
    if !t.check() {
        return None;
    }
    let p = t.model();
    for c in cs {
        assert!(
            c.holds(&p) == Ok(true),
            "simplex model violates {c} at {p:?}"
        );
    }
    Some(p)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::linear::LinExpr;

    fn q(n: i64) -> Q {
        Q::from_integer(n.into())
    }

    fn e(terms: &[(u32, i64)], c: i64) -> LinExpr {
        LinExpr::from_parts(terms.iter().map(|&(d, k)| (Dim(d), q(k))), q(c))
    }

    #[test]
    fn strict_and_equal() {
        // x > 0, y > 0, x + y < 1: feasible with rational point.
        let cs = vec![
            Constraint::new(e(&[(0, -1)], 0), Rel::Lt),
            Constraint::new(e(&[(1, -1)], 0), Rel::Lt),
            Constraint::new(e(&[(0, 1), (1, 1)], -1), Rel::Lt),
        ];
        let p = feasible(&cs).expect("feasible");
        assert!(cs.iter().all(|c| c.holds(&p) == Ok(true)));
        // x + y = 1, x - y = 0, x > 1/2 is empty.
        let cs = vec![
            Constraint::new(e(&[(0, 1), (1, 1)], -1), Rel::Eq),
            Constraint::new(e(&[(0, 1), (1, -1)], 0), Rel::Eq),
            Constraint::new(LinExpr::from_parts([(Dim(0), q(-2))], q(1)), Rel::Lt),
        ];
        assert!(feasible(&cs).is_none());
        // x <= 0 and x >= 0 but x < 0
        let cs = vec![
            Constraint::new(e(&[(0, 1)], 0), Rel::Le),
            Constraint::new(e(&[(0, -1)], 0), Rel::Le),
        ];
        assert_eq!(feasible(&cs), Some([(Dim(0), q(0))].into_iter().collect()));
        let mut more = cs.clone();
        more.push(Constraint::new(e(&[(0, 2)], 0), Rel::Lt));
        assert!(!is_feasible(&more));
    }
}
