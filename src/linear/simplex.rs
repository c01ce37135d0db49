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

use super::rat::{Num, Rat};
use super::{Dim, Point, Q};
#[cfg(test)]
use super::{constraint::canonical, Constraint, Rel};

/// A δ-rational `r + k·δ` for a positive infinitesimal δ, ordered lexicographically.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Debug)]
pub(crate) struct D<N> {
    /// The rational part.
    pub r: N,
    /// The coefficient of δ.
    pub k: N,
}

/// A δ-rational over [`Q`].
pub(crate) type DQ = D<Q>;

impl D<Q> {
    /// `r + k·δ`.
    pub fn new(r: Q, k: i64) -> Self {
        Self {
            r,
            k: Q::from_integer(k.into()),
        }
    }
}

impl<N: Num> D<N> {
    fn zero() -> Self {
        D {
            r: N::zero(),
            k: N::zero(),
        }
    }

    fn add(&self, o: &Self) -> Option<Self> {
        Some(D {
            r: self.r.add(&o.r)?,
            k: self.k.add(&o.k)?,
        })
    }

    fn sub(&self, o: &Self) -> Option<Self> {
        Some(D {
            r: self.r.sub(&o.r)?,
            k: self.k.sub(&o.k)?,
        })
    }

    fn div(&self, a: &N) -> Option<Self> {
        Some(D {
            r: self.r.div(a)?,
            k: self.k.div(a)?,
        })
    }

    fn scale(&self, a: &N) -> Option<Self> {
        Some(D {
            r: a.mul(&self.r)?,
            k: a.mul(&self.k)?,
        })
    }

    fn from_dq(d: &DQ) -> Option<Self> {
        Some(D {
            r: N::from_q(&d.r)?,
            k: N::from_q(&d.k)?,
        })
    }

    fn to_dq(&self) -> DQ {
        D {
            r: self.r.to_q(),
            k: self.k.to_q(),
        }
    }
}

fn conv_opt<N: Num>(d: &Option<DQ>) -> Option<Option<D<N>>> {
    match d {
        None => Some(None),
        Some(d) => D::from_dq(d).map(Some),
    }
}

/// The tableau proper, over a number type `N`; every operation returns `None` if the
/// arithmetic overflowed (the tableau is then left in an unspecified state).
#[derive(Clone, Debug)]
struct Core<N> {
    lower: Vec<Option<D<N>>>,
    upper: Vec<Option<D<N>>>,
    value: Vec<D<N>>,
    /// Row `r`: `basic[r] = Σ rows[r][k]·x_k` over non-basic `x_k`.
    rows: Vec<BTreeMap<usize, N>>,
    basic: Vec<usize>,
    row_of: Vec<Option<usize>>,
}

impl<N: Num> Core<N> {
    fn new() -> Self {
        Core {
            lower: Vec::new(),
            upper: Vec::new(),
            value: Vec::new(),
            rows: Vec::new(),
            basic: Vec::new(),
            row_of: Vec::new(),
        }
    }

    fn fresh(&mut self) -> usize {
        let v = self.value.len();
        self.lower.push(None);
        self.upper.push(None);
        self.value.push(D::zero());
        self.row_of.push(None);
        v
    }

    /// A new basic variable `Σ a·x` over existing variables `x`.
    fn add_slack(&mut self, coeffs: &[(usize, N)]) -> Option<usize> {
        let mut row: BTreeMap<usize, N> = BTreeMap::new();
        let mut val = D::zero();
        for (x, a) in coeffs {
            let x = *x;
            val = val.add(&self.value[x].scale(a)?)?;
            match self.row_of[x] {
                Some(r) => {
                    for (k, b) in &self.rows[r] {
                        add_entry(&mut row, *k, a.mul(b)?)?;
                    }
                }
                None => add_entry(&mut row, x, a.clone())?,
            }
        }
        let v = self.fresh();
        self.value[v] = val;
        self.row_of[v] = Some(self.rows.len());
        self.rows.push(row);
        self.basic.push(v);
        Some(v)
    }

    fn set_bounds(&mut self, v: usize, lo: Option<D<N>>, hi: Option<D<N>>) -> Option<()> {
        self.lower[v] = lo;
        self.upper[v] = hi;
        if self.row_of[v].is_none() {
            let target = match (&self.lower[v], &self.upper[v]) {
                (Some(l), _) if self.value[v] < *l => Some(l.clone()),
                (_, Some(u)) if self.value[v] > *u => Some(u.clone()),
                _ => None,
            };
            if let Some(t) = target {
                self.update(v, t)?;
            }
        }
        Some(())
    }

    fn restrict(&mut self, v: usize, lo: Option<D<N>>, hi: Option<D<N>>) -> Option<()> {
        let lo = match (self.lower[v].take(), lo) {
            (Some(a), Some(b)) => Some(a.max(b)),
            (a, b) => a.or(b),
        };
        let hi = match (self.upper[v].take(), hi) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        };
        self.set_bounds(v, lo, hi)
    }

    /// Sets the non-basic variable `j` to `t`, updating the basic ones.
    fn update(&mut self, j: usize, t: D<N>) -> Option<()> {
        let diff = t.sub(&self.value[j])?;
        for (r, row) in self.rows.iter().enumerate() {
            if let Some(a) = row.get(&j) {
                let b = self.basic[r];
                self.value[b] = self.value[b].add(&diff.scale(a)?)?;
            }
        }
        self.value[j] = t;
        Some(())
    }

    /// Makes `basic[r]` take value `t` by moving the non-basic `j`, then pivots them.
    fn pivot_and_update(&mut self, r: usize, j: usize, t: D<N>) -> Option<()> {
        let x = self.basic[r];
        let Some(a) = self.rows[r].get(&j) else {
            unreachable!("pivot on a zero entry");
        };
        let theta = t.sub(&self.value[x])?.div(a)?;
        self.value[x] = t;
        self.value[j] = self.value[j].add(&theta)?;
        for (s, row) in self.rows.iter().enumerate() {
            if s != r {
                if let Some(c) = row.get(&j) {
                    let b = self.basic[s];
                    self.value[b] = self.value[b].add(&theta.scale(c)?)?;
                }
            }
        }
        self.pivot(r, j)
    }

    fn pivot(&mut self, r: usize, j: usize) -> Option<()> {
        let x = self.basic[r];
        let mut row = std::mem::take(&mut self.rows[r]);
        let Some(a) = row.remove(&j) else {
            unreachable!("pivot on a zero entry");
        };
        let inv = a.recip()?;
        let ninv = inv.neg()?;
        for v in row.values_mut() {
            *v = v.mul(&ninv)?;
        }
        row.insert(x, inv);
        for (s, other) in self.rows.iter_mut().enumerate() {
            if s == r {
                continue;
            }
            if let Some(c) = other.remove(&j) {
                for (k, b) in &row {
                    add_entry(other, *k, c.mul(b)?)?;
                }
            }
        }
        self.rows[r] = row;
        self.basic[r] = j;
        self.row_of[j] = Some(r);
        self.row_of[x] = None;
        Some(())
    }

    fn check(&mut self) -> Option<bool> {
        for v in 0..self.value.len() {
            if let (Some(l), Some(u)) = (&self.lower[v], &self.upper[v]) {
                if l > u {
                    return Some(false);
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
                return Some(true);
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
                return Some(false);
            };
            self.pivot_and_update(r, j, target)?;
        }
    }

    /// The values of `vars` at a point satisfying all bounds (δ instantiated).
    fn model(&self, vars: impl Iterator<Item = usize>) -> Option<Vec<Q>> {
        let mut delta = N::one();
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
                    let bound = hi.r.sub(&lo.r)?.div(&lo.k.sub(&hi.k)?)?;
                    if bound < delta {
                        delta = bound;
                    }
                }
            }
        }
        vars.map(|v| {
            let x = &self.value[v];
            Some(x.r.add(&x.k.mul(&delta)?)?.to_q())
        })
        .collect()
    }
}

fn add_entry<N: Num>(row: &mut BTreeMap<usize, N>, k: usize, b: N) -> Option<()> {
    if b.is_zero() {
        return Some(());
    }
    match row.entry(k) {
        std::collections::btree_map::Entry::Vacant(e) => {
            e.insert(b);
        }
        std::collections::btree_map::Entry::Occupied(mut e) => {
            let s = e.get().add(&b)?;
            if s.is_zero() {
                e.remove();
            } else {
                *e.get_mut() = s;
            }
        }
    }
    Some(())
}

/// An operation on the small tableau, recorded so that it can be replayed over [`Q`].
#[derive(Clone, Debug)]
enum Op {
    Fresh,
    Slack(Vec<(usize, Rat)>),
    SetBounds(usize, Option<D<Rat>>, Option<D<Rat>>),
    Check,
}

/// The saved bounds of a variable ([`Tableau::bounds`]), to be restored with
/// [`Tableau::set_bounds`].
#[derive(Clone, Debug)]
pub(crate) enum Saved {
    Small(Option<D<Rat>>, Option<D<Rat>>),
    Big(Option<DQ>, Option<DQ>),
}

impl Saved {
    /// The saved lower bound only.
    pub fn lower_only(self) -> Saved {
        match self {
            Saved::Small(lo, _) => Saved::Small(lo, None),
            Saved::Big(lo, _) => Saved::Big(lo, None),
        }
    }

    /// The saved upper bound only.
    pub fn upper_only(self) -> Saved {
        match self {
            Saved::Small(_, hi) => Saved::Small(None, hi),
            Saved::Big(_, hi) => Saved::Big(None, hi),
        }
    }
}

/// A simplex tableau with bounded variables: the dimensions plus one slack per distinct
/// (canonical) linear form.
///
/// The arithmetic runs over small rationals ([`Rat`], `i64` with overflow checks) while
/// every number fits; the operations are logged, and on the first overflow they are
/// replayed over [`Q`] (reaching exactly the state a run over `Q` would have reached),
/// which is used from then on.
#[derive(Clone, Debug)]
pub(crate) struct Tableau {
    cols: BTreeMap<Dim, usize>,
    slacks: BTreeMap<BTreeMap<Dim, Q>, usize>,
    nvars: usize,
    /// The small tableau and its log, until the first overflow.
    small: Option<(Core<Rat>, Vec<Op>)>,
    big: Core<Q>,
}

impl Default for Tableau {
    fn default() -> Self {
        Self::new()
    }
}

impl Tableau {
    /// An empty tableau.
    pub fn new() -> Self {
        Tableau {
            cols: BTreeMap::new(),
            slacks: BTreeMap::new(),
            nvars: 0,
            small: Some((Core::new(), Vec::new())),
            big: Core::new(),
        }
    }

    fn replay(log: &[Op]) -> Core<Q> {
        let big_d = |d: &Option<D<Rat>>| d.as_ref().map(D::to_dq);
        let mut big = Core::new();
        for op in log {
            match op {
                Op::Fresh => {
                    big.fresh();
                }
                Op::Slack(cs) => {
                    let cs: Vec<(usize, Q)> = cs.iter().map(|(x, a)| (*x, a.to_q())).collect();
                    big.add_slack(&cs);
                }
                Op::SetBounds(v, lo, hi) => {
                    big.set_bounds(*v, big_d(lo), big_d(hi));
                }
                Op::Check => {
                    big.check();
                }
            }
        }
        big
    }

    /// Abandons the small tableau: replays its log over [`Q`].
    fn go_big(&mut self) {
        if let Some((_, log)) = self.small.take() {
            self.big = Self::replay(&log);
        }
    }

    /// The variable of dimension `d` (created on first use).
    pub fn dim_var(&mut self, d: Dim) -> usize {
        if let Some(&v) = self.cols.get(&d) {
            return v;
        }
        let v = self.nvars;
        self.nvars += 1;
        match &mut self.small {
            Some((core, log)) => {
                core.fresh();
                log.push(Op::Fresh);
            }
            None => {
                self.big.fresh();
            }
        }
        self.cols.insert(d, v);
        v
    }

    /// The variable standing for the linear form `coeffs` (taken as is: callers pass
    /// canonical forms so that equal forms share a variable). A unit form `x_d` is `x_d`.
    pub fn var_for(&mut self, coeffs: &BTreeMap<Dim, Q>) -> usize {
        if coeffs.len() == 1 {
            if let Some((d, a)) = coeffs.iter().next() {
                if num_traits::One::is_one(a) {
                    return self.dim_var(*d);
                }
            }
        }
        if let Some(&v) = self.slacks.get(coeffs) {
            return v;
        }
        let xs: Vec<(usize, &Q)> = coeffs.iter().map(|(d, a)| (self.dim_var(*d), a)).collect();
        let v = self.nvars;
        self.nvars += 1;
        if let Some((core, log)) = &mut self.small {
            let small: Option<Vec<(usize, Rat)>> = xs
                .iter()
                .map(|(x, a)| Rat::from_q(a).map(|a| (*x, a)))
                .collect();
            if let Some(small) = small {
                if core.add_slack(&small).is_some() {
                    log.push(Op::Slack(small));
                    self.slacks.insert(coeffs.clone(), v);
                    return v;
                }
            }
            self.go_big();
        }
        let big: Vec<(usize, Q)> = xs.into_iter().map(|(x, a)| (x, a.clone())).collect();
        self.big.add_slack(&big);
        self.slacks.insert(coeffs.clone(), v);
        v
    }

    /// The current bounds of `v`.
    pub fn bounds(&self, v: usize) -> Saved {
        match &self.small {
            Some((core, _)) => Saved::Small(core.lower[v], core.upper[v]),
            None => Saved::Big(self.big.lower[v].clone(), self.big.upper[v].clone()),
        }
    }

    /// Restores bounds saved by [`bounds`](Self::bounds).
    pub fn restore(&mut self, v: usize, saved: Saved) {
        match saved {
            Saved::Small(lo, hi) => {
                if let Some((core, log)) = &mut self.small {
                    if core.set_bounds(v, lo, hi).is_some() {
                        log.push(Op::SetBounds(v, lo, hi));
                        return;
                    }
                    self.go_big();
                }
                self.big
                    .set_bounds(v, lo.as_ref().map(D::to_dq), hi.as_ref().map(D::to_dq));
            }
            Saved::Big(lo, hi) => self.set_bounds(v, lo, hi),
        }
    }

    /// Replaces the bounds of `v` (keeping a non-basic variable within them).
    pub fn set_bounds(&mut self, v: usize, lo: Option<DQ>, hi: Option<DQ>) {
        if let Some((core, log)) = &mut self.small {
            if let (Some(l), Some(h)) = (conv_opt(&lo), conv_opt(&hi)) {
                if core.set_bounds(v, l, h).is_some() {
                    log.push(Op::SetBounds(v, l, h));
                    return;
                }
            }
            self.go_big();
        }
        self.big.set_bounds(v, lo, hi);
    }

    /// Intersects the bounds of `v` with `lo`/`hi`.
    pub fn restrict(&mut self, v: usize, lo: Option<DQ>, hi: Option<DQ>) {
        if let Some((core, log)) = &mut self.small {
            if let (Some(l), Some(h)) = (conv_opt(&lo), conv_opt(&hi)) {
                if core.restrict(v, l, h).is_some() {
                    log.push(Op::SetBounds(v, core.lower[v], core.upper[v]));
                    return;
                }
                // `restrict` changed the bounds before overflowing; the log still has
                // the old ones.
            }
            self.go_big();
        }
        self.big.restrict(v, lo, hi);
    }

    /// Decides whether the bounds are satisfiable together (exactly, over `Q`).
    pub fn check(&mut self) -> bool {
        if let Some((core, log)) = &mut self.small {
            if let Some(sat) = core.check() {
                log.push(Op::Check);
                return sat;
            }
            self.go_big();
        }
        self.big
            .check()
            .unwrap_or_else(|| unreachable!("no overflow over Q"))
    }

    /// A rational point of the dimensions satisfying all bounds, after a successful
    /// [`check`](Self::check): δ is instantiated small enough for every bound.
    pub fn model(&self) -> Point {
        let vars = || self.cols.values().copied();
        let vals = match &self.small {
            Some((core, log)) => core
                .model(vars())
                .or_else(|| Self::replay(log).model(vars())),
            None => self.big.model(vars()),
        };
        let Some(vals) = vals else {
            unreachable!("no overflow over Q");
        };
        self.cols.keys().copied().zip(vals).collect()
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

    /// The same question over `Q` only, without the small fast path.
    fn big_only(cs: &[Constraint]) -> Option<bool> {
        let mut t = Tableau::new();
        t.go_big();
        for c in cs {
            match bounds_of(c) {
                None if c.truth() == Some(false) => return None,
                None => {}
                Some((key, lo, hi)) => {
                    let v = t.var_for(&key);
                    t.restrict(v, lo, hi);
                }
            }
        }
        Some(t.check())
    }

    #[test]
    fn overflow_falls_back_exactly() {
        // Pseudo-random systems with coefficients near the i64 range, so that the small
        // tableau overflows at various points (during loading, checking or the model).
        let mut seed: u64 = 0x1234_5678;
        let mut next = move || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        };
        let mut overflowed = 0;
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
            let mut t = load(&cs);
            let fast = t.as_mut().map(|t| t.check());
            if t.as_ref().is_some_and(|t| t.small.is_none()) {
                overflowed += 1;
            }
            assert_eq!(fast, big_only(&cs), "{cs:?}");
            // `feasible` asserts that its model satisfies every constraint.
            assert_eq!(feasible(&cs).is_some(), fast == Some(true));
        }
        assert!(overflowed > 10, "only {overflowed} overflows");
    }
}
