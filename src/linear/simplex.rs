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

use num_traits::{One, Signed, Zero};

#[cfg(test)]
use super::{constraint::canonical, Constraint, Rel};
use super::{Dim, Point, Q};

/// A δ-rational `r + k·δ` for a positive infinitesimal δ, ordered lexicographically.
#[derive(Clone, PartialEq, Eq, PartialOrd, Ord, Debug)]
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
            k: Q::from_i64(k),
        }
    }

    fn zero() -> Self {
        DQ {
            r: Q::zero(),
            k: Q::zero(),
        }
    }

    fn add(&self, o: &Self) -> Self {
        DQ {
            r: &self.r + &o.r,
            k: &self.k + &o.k,
        }
    }

    fn sub(&self, o: &Self) -> Self {
        DQ {
            r: &self.r - &o.r,
            k: &self.k - &o.k,
        }
    }

    fn div(&self, a: &Q) -> Self {
        DQ {
            r: &self.r / a,
            k: &self.k / a,
        }
    }

    fn scale(&self, a: &Q) -> Self {
        DQ {
            r: a * &self.r,
            k: a * &self.k,
        }
    }
}

/// The saved bounds of a variable ([`Tableau::bounds`]), to be restored with
/// [`Tableau::restore`].
#[derive(Clone, Debug)]
pub(crate) struct Saved(Option<DQ>, Option<DQ>);

impl Saved {
    /// The saved lower bound only.
    pub fn lower_only(self) -> Saved {
        Saved(self.0, None)
    }

    /// The saved upper bound only.
    pub fn upper_only(self) -> Saved {
        Saved(None, self.1)
    }
}

/// A simplex tableau with bounded variables: the dimensions plus one slack per distinct
/// (canonical) linear form. Its numbers are [`Q`]s, which stay machine integers while
/// they fit.
#[derive(Clone, Debug, Default)]
pub(crate) struct Tableau {
    cols: BTreeMap<Dim, usize>,
    slacks: BTreeMap<BTreeMap<Dim, Q>, usize>,
    lower: Vec<Option<DQ>>,
    upper: Vec<Option<DQ>>,
    value: Vec<DQ>,
    /// Row `r`: `basic[r] = Σ rows[r][k]·x_k` over non-basic `x_k`.
    rows: Vec<BTreeMap<usize, Q>>,
    basic: Vec<usize>,
    row_of: Vec<Option<usize>>,
}

impl Tableau {
    /// An empty tableau.
    pub fn new() -> Self {
        Self::default()
    }

    fn fresh(&mut self) -> usize {
        let v = self.value.len();
        self.lower.push(None);
        self.upper.push(None);
        self.value.push(DQ::zero());
        self.row_of.push(None);
        v
    }

    /// The variable of dimension `d` (created on first use).
    pub fn dim_var(&mut self, d: Dim) -> usize {
        if let Some(&v) = self.cols.get(&d) {
            return v;
        }
        let v = self.fresh();
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
        let xs: Vec<(usize, &Q)> = coeffs.iter().map(|(d, a)| (self.dim_var(*d), a)).collect();
        let v = self.add_slack(&xs);
        self.slacks.insert(coeffs.clone(), v);
        v
    }

    /// A new basic variable `Σ a·x` over existing variables `x`.
    fn add_slack(&mut self, coeffs: &[(usize, &Q)]) -> usize {
        let mut row: BTreeMap<usize, Q> = BTreeMap::new();
        let mut val = DQ::zero();
        for &(x, a) in coeffs {
            val = val.add(&self.value[x].scale(a));
            match self.row_of[x] {
                Some(r) => {
                    for (k, b) in &self.rows[r] {
                        add_entry(&mut row, *k, a * b);
                    }
                }
                None => add_entry(&mut row, x, a.clone()),
            }
        }
        let v = self.fresh();
        self.value[v] = val;
        self.row_of[v] = Some(self.rows.len());
        self.rows.push(row);
        self.basic.push(v);
        v
    }

    /// The current bounds of `v`.
    pub fn bounds(&self, v: usize) -> Saved {
        Saved(self.lower[v].clone(), self.upper[v].clone())
    }

    /// Restores bounds saved by [`bounds`](Self::bounds).
    pub fn restore(&mut self, v: usize, saved: Saved) {
        self.set_bounds(v, saved.0, saved.1);
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
        let lo = match (self.lower[v].take(), lo) {
            (Some(a), Some(b)) => Some(a.max(b)),
            (a, b) => a.or(b),
        };
        let hi = match (self.upper[v].take(), hi) {
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
                let b = self.basic[r];
                self.value[b] = self.value[b].add(&diff.scale(a));
            }
        }
        self.value[j] = t;
    }

    /// Makes `basic[r]` take value `t` by moving the non-basic `j`, then pivots them.
    fn pivot_and_update(&mut self, r: usize, j: usize, t: DQ) {
        let x = self.basic[r];
        let Some(a) = self.rows[r].get(&j) else {
            unreachable!("pivot on a zero entry");
        };
        let theta = t.sub(&self.value[x]).div(a);
        self.value[x] = t;
        self.value[j] = self.value[j].add(&theta);
        for (s, row) in self.rows.iter().enumerate() {
            if s != r {
                if let Some(c) = row.get(&j) {
                    let b = self.basic[s];
                    self.value[b] = self.value[b].add(&theta.scale(c));
                }
            }
        }
        self.pivot(r, j);
    }

    fn pivot(&mut self, r: usize, j: usize) {
        crate::limits::add_work(self.rows.len() as u64);
        let x = self.basic[r];
        let mut row = std::mem::take(&mut self.rows[r]);
        let Some(a) = row.remove(&j) else {
            unreachable!("pivot on a zero entry");
        };
        let inv = a.recip();
        let ninv = -&inv;
        for v in row.values_mut() {
            *v *= &ninv;
        }
        row.insert(x, inv);
        for (s, other) in self.rows.iter_mut().enumerate() {
            if s == r {
                continue;
            }
            if let Some(c) = other.remove(&j) {
                for (k, b) in &row {
                    add_entry(other, *k, &c * b);
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
        crate::limits::add_work(1 + self.rows.len() as u64);
        for v in 0..self.value.len() {
            if let (Some(l), Some(u)) = (&self.lower[v], &self.upper[v]) {
                if l > u {
                    return false;
                }
            }
        }
        loop {
            // Bland: the violated basic variable of smallest index.
            let mut best: Option<(usize, usize, bool)> = None;
            for (r, &x) in self.basic.iter().enumerate() {
                if best.as_ref().is_some_and(|b| b.0 < x) {
                    continue;
                }
                if let Some(l) = &self.lower[x] {
                    if self.value[x] < *l {
                        best = Some((x, r, true));
                        continue;
                    }
                }
                if let Some(u) = &self.upper[x] {
                    if self.value[x] > *u {
                        best = Some((x, r, false));
                    }
                }
            }
            let Some((x, r, below)) = best else {
                return true;
            };
            let target = if below {
                self.lower[x].clone()
            } else {
                self.upper[x].clone()
            };
            let Some(target) = target else {
                unreachable!("violated bound exists");
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
        for v in 0..self.value.len() {
            let val = &self.value[v];
            for (lo, hi) in [
                (self.lower[v].as_ref(), Some(val)),
                (Some(val), self.upper[v].as_ref()),
            ] {
                let (Some(lo), Some(hi)) = (lo, hi) else {
                    continue;
                };
                // Need lo.r + lo.k·δ ≤ hi.r + hi.k·δ.
                if lo.r < hi.r && lo.k > hi.k {
                    let bound = (&hi.r - &lo.r) / (&lo.k - &hi.k);
                    if bound < delta {
                        delta = bound;
                    }
                }
            }
        }
        self.cols
            .iter()
            .map(|(d, &v)| {
                let x = &self.value[v];
                (*d, &x.r + &(&x.k * &delta))
            })
            .collect()
    }
}

fn add_entry(row: &mut BTreeMap<usize, Q>, k: usize, b: Q) {
    if b.is_zero() {
        return;
    }
    match row.entry(k) {
        std::collections::btree_map::Entry::Vacant(e) => {
            e.insert(b);
        }
        std::collections::btree_map::Entry::Occupied(mut e) => {
            *e.get_mut() += &b;
            if e.get().is_zero() {
                e.remove();
            }
        }
    }
}

/// A canonical linear form with a lower and an upper bound.
#[cfg(test)]
pub(crate) type KeyBounds = (BTreeMap<Dim, Q>, Option<DQ>, Option<DQ>);

/// The bounds `(lower, upper)` on the canonical form of `c`'s linear part that `c`
/// amounts to, as δ-rationals; `None` for a constraint without variables.
#[cfg(test)]
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

#[cfg(test)]
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
#[cfg(test)]
pub fn is_feasible(cs: &[Constraint]) -> bool {
    load(cs).is_some_and(|mut t| t.check())
}

/// A rational point satisfying all the constraints, or `None` if there is none. The point
/// gives a value to every dimension occurring in `cs`.
#[cfg(test)]
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
    use crate::linear::{Conj, Domain, LinExpr};

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

    /// Whether `cs` has a rational solution, by Fourier–Motzkin alone (no simplex):
    /// projecting every dimension out of the rational conjunction leaves `true` or
    /// `false`.
    fn fm_feasible(cs: &[Constraint]) -> bool {
        let c = Conj::from_constraints_in(Domain::Rat, cs);
        let dims: Vec<Dim> = c.dims().into_iter().collect();
        !c.project_out_unsimplified(&dims).is_trivially_false()
    }

    #[test]
    fn large_coefficients_agree_with_fourier_motzkin() {
        // Pseudo-random systems with coefficients near the i64 range, so that the
        // numbers leave the machine integers at various points (while loading, checking
        // or building the model).
        let mut seed: u64 = 0x1234_5678;
        let mut next = move || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        };
        for round in 0..300 {
            let big = round % 3;
            let mut cs = Vec::new();
            for _ in 0..(3 + next() % 5) {
                let mut terms = Vec::new();
                for d in 0..3u32 {
                    let r = next();
                    let k = match big {
                        0 => (r % 11) as i64 - 5,
                        1 => ((r % 2001) as i64 - 1000) * 1_000_003,
                        _ => (r >> 2) as i64 * if r % 2 == 0 { 1 } else { -1 } / 3,
                    };
                    if k != 0 {
                        terms.push((d, k));
                    }
                }
                if terms.is_empty() {
                    continue;
                }
                let c = (next() % 41) as i64 - 20;
                let rel = [Rel::Le, Rel::Lt, Rel::Eq][(next() % 3) as usize];
                cs.push(Constraint::new(e(&terms, c), rel));
            }
            let sat = is_feasible(&cs);
            assert_eq!(sat, fm_feasible(&cs), "{cs:?}");
            // `feasible` asserts that its model satisfies every constraint.
            assert_eq!(feasible(&cs).is_some(), sat);
        }
    }
}
