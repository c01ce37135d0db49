//! Fourier–Motzkin projection (the paper's §4 "Quantifier Elimination", after Lassez and
//! Maher [16]) with equality substitution first and exact redundancy removal after each
//! eliminated variable (ARCHITECTURE.md §4, "Fourier–Motzkin").

use std::collections::{BTreeMap, BTreeSet};

use num_traits::{Signed, Zero};

use super::conj::{Bound, Conj, Range};
use super::simplex::DQ;
use super::{Dim, LinExpr, Q};
use crate::limits::Deadline;

/// One side of a row, read as `sign·L ≤ sign·value` (or strictly).
struct Half<'a> {
    key: &'a BTreeMap<Dim, Q>,
    /// `+1` for the upper side `L ≤ hi`, `-1` for the lower side `L ≥ lo`.
    sign: Q,
    bound: &'a Bound,
    /// The coefficient of the eliminated dimension in `sign·L`.
    coef: Q,
}

impl Conj {
    /// `∃ dims. self`: eliminates `dims` by Fourier–Motzkin.
    ///
    /// Equalities are used first (solve for the dimension and substitute); otherwise each
    /// lower bound is combined with each upper bound (strict if either is). Results are
    /// tightened in [`super::Domain::Int`], and redundant rows are removed exactly after
    /// each combination step. In [`super::Domain::Rat`] the result is exactly the rational
    /// projection; in [`super::Domain::Int`] it contains the integer projection (it never
    /// loses an integer point) and is contained in the rational projection of `self`.
    #[cfg(any(test, feature = "internals"))]
    pub fn project_out(&self, dims: &[Dim]) -> Conj {
        self.project(dims, true, &Deadline::none())
    }

    /// [`Conj::project_out`] that stops early once `deadline` has expired: then the rows
    /// still mentioning `dims` are dropped, which over-approximates the projection (the
    /// caller, seeing the expired deadline, answers UNKNOWN anyway).
    pub fn project_out_within(&self, dims: &[Dim], deadline: &Deadline) -> Conj {
        #[cfg(any(test, feature = "internals"))]
        super::capture::projection(self, dims);
        self.project(dims, true, deadline)
    }

    /// [`Conj::project_out`] without the semantic redundancy removal (syntactic
    /// redundancy is still removed): plain Fourier–Motzkin, for comparison and testing.
    #[cfg(test)]
    pub fn project_out_unsimplified(&self, dims: &[Dim]) -> Conj {
        self.project(dims, false, &Deadline::none())
    }

    fn project(&self, dims: &[Dim], simplify: bool, deadline: &Deadline) -> Conj {
        let mut out = self.clone();
        let mut todo: BTreeSet<Dim> = dims.iter().copied().collect();
        let mut dirty = false;
        while out.feasible {
            todo.retain(|d| out.rows.keys().any(|k| k.contains_key(d)));
            if !todo.is_empty() && deadline.expired() {
                out.rows
                    .retain(|key, _| !key.keys().any(|d| todo.contains(d)));
                return out;
            }
            let Some(d) = out.pick(&todo) else { break };
            todo.remove(&d);
            if out.eliminate_by_equality(d) {
                dirty = true;
                continue;
            }
            out.eliminate_by_combination(d);
            if simplify {
                out.remove_redundant_within(deadline);
            }
            dirty = false;
        }
        if dirty && simplify {
            out.remove_redundant_within(deadline);
        }
        out
    }

    /// Exact redundancy removal: drops every bound implied by the others (which also
    /// detects emptiness). The result is equivalent to `self` over the rationals.
    #[cfg(test)]
    pub fn simplify(&self) -> Conj {
        let mut c = self.clone();
        c.remove_redundant();
        c
    }

    /// The next dimension to eliminate: one with an equality if any, else the one whose
    /// elimination creates the fewest new rows (`|P|·|N| - |P| - |N|`).
    fn pick(&self, todo: &BTreeSet<Dim>) -> Option<Dim> {
        let mut pos: BTreeMap<Dim, i64> = BTreeMap::new();
        let mut neg: BTreeMap<Dim, i64> = BTreeMap::new();
        for (key, r) in &self.rows {
            for (d, a) in key {
                if !todo.contains(d) {
                    continue;
                }
                if r.is_equality() {
                    return Some(*d);
                }
                let (up, down) = if a.is_positive() {
                    (&mut pos, &mut neg)
                } else {
                    (&mut neg, &mut pos)
                };
                if r.hi.is_some() {
                    *up.entry(*d).or_default() += 1;
                }
                if r.lo.is_some() {
                    *down.entry(*d).or_default() += 1;
                }
            }
        }
        todo.iter().copied().min_by_key(|d| {
            let p = pos.get(d).copied().unwrap_or(0);
            let n = neg.get(d).copied().unwrap_or(0);
            p * n - p - n
        })
    }

    /// Eliminates `d` with an equality containing it, if there is one (the one with the
    /// smallest coefficient of `d`, then the shortest).
    fn eliminate_by_equality(&mut self, d: Dim) -> bool {
        crate::limits::add_work(self.rows.len() as u64);
        let best = self
            .rows
            .iter()
            .filter(|(k, r)| r.is_equality() && k.contains_key(&d))
            .min_by(|(k1, _), (k2, _)| {
                let a1 = k1.get(&d).map(Q::abs);
                let a2 = k2.get(&d).map(Q::abs);
                a1.cmp(&a2).then(k1.len().cmp(&k2.len()))
            })
            .map(|(k, r)| (k.clone(), r.clone()));
        let Some((key, range)) = best else {
            return false;
        };
        self.rows.remove(&key);
        let (Some(v), Some(a)) = (range.hi, key.get(&d)) else {
            unreachable!("an equality has both bounds and contains d");
        };
        // key·x = v  ⇒  d = (v - Σ_{k≠d} key_k·x_k) / a.
        let sol = LinExpr::from_parts(
            key.iter()
                .filter(|(k, _)| **k != d)
                .map(|(k, c)| (*k, -(c / a))),
            &v.value / a,
        );
        let rows = std::mem::take(&mut self.rows);
        let (with, without): (BTreeMap<_, _>, BTreeMap<_, _>) =
            rows.into_iter().partition(|(k, _)| k.contains_key(&d));
        self.rows = without;
        for (k, r) in with {
            let e = LinExpr::from_parts(k, Q::zero()).substitute(d, &sol);
            self.add_range(e.coeffs(), e.constant_term(), r.lo, r.hi);
        }
        true
    }

    /// Eliminates `d` by combining each lower bound with each upper bound.
    fn eliminate_by_combination(&mut self, d: Dim) {
        let rows = std::mem::take(&mut self.rows);
        let (with, without): (BTreeMap<_, _>, BTreeMap<_, _>) =
            rows.into_iter().partition(|(k, _)| k.contains_key(&d));
        self.rows = without;
        let one = Q::from_integer(1.into());
        let mut ups = Vec::new();
        let mut downs = Vec::new();
        for (key, r) in &with {
            let a = key.get(&d).cloned().unwrap_or_else(Q::zero);
            for (bound, sign) in [(&r.hi, one.clone()), (&r.lo, -one.clone())] {
                if let Some(bound) = bound {
                    let coef = &sign * &a;
                    let h = Half {
                        key,
                        sign,
                        bound,
                        coef,
                    };
                    if h.coef.is_positive() {
                        ups.push(h);
                    } else {
                        downs.push(h);
                    }
                }
            }
        }
        crate::limits::add_work((ups.len() * downs.len()) as u64 + with.len() as u64);
        for u in &ups {
            for l in &downs {
                // (-l.coef)·(u.sign·Lu - u.sign·bu) + u.coef·(l.sign·Ll - l.sign·bl) ≤ 0
                let fu = -&l.coef * &u.sign;
                let fl = &u.coef * &l.sign;
                let mut coeffs: BTreeMap<Dim, Q> = BTreeMap::new();
                for (x, c) in u.key {
                    coeffs.insert(*x, &fu * c);
                }
                for (x, c) in l.key {
                    let v = &fl * c;
                    match coeffs.entry(*x) {
                        std::collections::btree_map::Entry::Vacant(e) => {
                            e.insert(v);
                        }
                        std::collections::btree_map::Entry::Occupied(mut e) => {
                            *e.get_mut() += v;
                            if e.get().is_zero() {
                                e.remove();
                            }
                        }
                    }
                }
                assert!(!coeffs.contains_key(&d), "FM combination kept {d}");
                let constant = -(&fu * &u.bound.value + &fl * &l.bound.value);
                let strict = u.bound.strict || l.bound.strict;
                self.add_range(
                    &coeffs,
                    &constant,
                    None,
                    Some(Bound {
                        value: Q::zero(),
                        strict,
                    }),
                );
                if !self.feasible {
                    return;
                }
            }
        }
    }

    /// Drops, one at a time, every bound implied by the remaining ones (exact simplex,
    /// warm-started), after a cheap exact filter: a bound that is the only one pushing
    /// some dimension in one direction cannot be implied by the others (when they are
    /// satisfiable). Sets the conjunction to `false` if it is empty.
    #[cfg(test)]
    pub(super) fn remove_redundant(&mut self) {
        self.remove_redundant_within(&Deadline::none());
    }

    /// [`Conj::remove_redundant`] that stops looking for redundant bounds once `deadline`
    /// has expired (the result stays equivalent; it only keeps more rows).
    pub(super) fn remove_redundant_within(&mut self, deadline: &Deadline) {
        if !self.feasible || self.rows.len() <= 1 {
            return;
        }
        let (mut t, vars) = self.tableau();
        if !t.check() {
            self.set_false();
            return;
        }
        let mut rows: Vec<(BTreeMap<Dim, Q>, Range)> =
            std::mem::take(&mut self.rows).into_iter().collect();
        // Number of bounds with a positive / negative coefficient of each dimension, in
        // their `≤` reading.
        let mut pos: BTreeMap<Dim, usize> = BTreeMap::new();
        let mut neg: BTreeMap<Dim, usize> = BTreeMap::new();
        let count = |pos: &mut BTreeMap<Dim, usize>,
                     neg: &mut BTreeMap<Dim, usize>,
                     key: &BTreeMap<Dim, Q>,
                     upper: bool,
                     add: bool| {
            for (d, a) in key {
                let m = if a.is_positive() == upper {
                    &mut *pos
                } else {
                    &mut *neg
                };
                let c = m.entry(*d).or_default();
                if add {
                    *c += 1;
                } else {
                    *c -= 1;
                }
            }
        };
        for (key, r) in &rows {
            if r.hi.is_some() {
                count(&mut pos, &mut neg, key, true, true);
            }
            if r.lo.is_some() {
                count(&mut pos, &mut neg, key, false, true);
            }
        }
        let sole = |pos: &BTreeMap<Dim, usize>,
                    neg: &BTreeMap<Dim, usize>,
                    key: &BTreeMap<Dim, Q>,
                    upper: bool| {
            key.iter().any(|(d, a)| {
                let m = if a.is_positive() == upper { pos } else { neg };
                m.get(d) == Some(&1)
            })
        };
        for (i, (key, r)) in rows.iter_mut().enumerate() {
            if deadline.expired() {
                break;
            }
            let v = vars[i];
            let eq = r.is_equality();
            let mut implied = [false, false];
            for (side, upper) in [(0, true), (1, false)] {
                let bound = if upper { &r.hi } else { &r.lo };
                let Some(b) = bound else { continue };
                if sole(&pos, &neg, key, upper) {
                    if eq {
                        break;
                    }
                    continue;
                }
                let saved = t.bounds(v);
                // ¬(L ≤ b) is L > b; ¬(L ≥ b) is L < b (rational negation, so that the
                // result stays equivalent over the rationals).
                let k = if b.strict { 0 } else { 1 };
                if upper {
                    t.set_bounds(v, Some(DQ::new(b.value.clone(), k)), None);
                } else {
                    t.set_bounds(v, None, Some(DQ::new(b.value.clone(), -k)));
                }
                let sat = t.check();
                if sat {
                    t.restore(v, saved);
                    if eq {
                        break;
                    }
                    continue;
                }
                implied[side] = true;
                if eq {
                    t.restore(v, saved);
                } else if upper {
                    t.restore(v, saved.lower_only());
                    r.hi = None;
                    count(&mut pos, &mut neg, key, true, false);
                } else {
                    t.restore(v, saved.upper_only());
                    r.lo = None;
                    count(&mut pos, &mut neg, key, false, false);
                }
            }
            if eq && implied[0] && implied[1] {
                t.set_bounds(v, None, None);
                r.hi = None;
                r.lo = None;
                count(&mut pos, &mut neg, key, true, false);
                count(&mut pos, &mut neg, key, false, false);
            }
        }
        self.rows = rows
            .into_iter()
            .filter(|(_, r)| r.lo.is_some() || r.hi.is_some())
            .collect();
    }
}
