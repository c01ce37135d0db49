//! Convex hull and widening of conjunctions, so that tabulation terminates on loops
//! whose exact analysis does not (beyond EUREKA).
//!
//! - [`Conj::hull_within`]: the exact closed convex hull of two conjunctions over the
//!   rationals (Benoy, King and Mesnard's projection: `x = y + z`, `A₁y ≤ λb₁`,
//!   `A₂z ≤ (1-λ)b₂`, `0 ≤ λ ≤ 1`, then `∃y, λ`), integer-tightened afterwards. Every
//!   integer point of either operand is in the result.
//! - [`Conj::weak_join`]: the cheap fallback, the constraints of each operand that the
//!   other satisfies.
//! - [`Conj::widen`]: Halbwachs' standard widening with the H79 refinement and
//!   thresholds ("widening up to"). Its result contains both operands.

use std::collections::BTreeMap;

use num_traits::{One, Signed, Zero};

use super::conj::{Conj, Domain};
use super::{Constraint, Dim, LinExpr, Rel, Q};
use crate::limits::Deadline;

/// Above this many dimensions (of both operands together) the hull falls back to
/// [`Conj::weak_join`]: Fourier–Motzkin over `2n + 1` eliminated dimensions grows fast.
const HULL_MAX_DIMS: usize = 24;

/// Above this many rows (of both operands together) the hull falls back to
/// [`Conj::weak_join`].
const HULL_MAX_ROWS: usize = 32;

/// Work for one hull's projection ([`crate::limits::add_work`]: eliminations, simplex
/// pivots and big-number arithmetic, weighted by size); past it the hull falls back to
/// [`Conj::weak_join`] (Fourier–Motzkin on the hull system can blow up). A count, not a
/// time, so that which hulls are exact does not depend on the machine's speed or load.
/// About 20 ms at the median rate of the hulls of lp-programs/ and ../shared/benchmarks
/// that take over 2 ms (3840 units per ms; the rates spread from 2000 to 8650).
const HULL_WORK: u64 = 80_000;

impl Conj {
    /// The same constraints over `domain` (tightened when that is [`Domain::Int`]).
    fn in_domain(&self, domain: Domain) -> Conj {
        if !self.feasible {
            let mut c = Conj::top_in(domain);
            c.set_false();
            return c;
        }
        let mut out = Conj::top_in(domain);
        for (key, r) in &self.rows {
            out.insert(key.clone(), r.lo.clone(), r.hi.clone());
        }
        out
    }

    /// Each bound of each row as a constraint `e ≤ 0` (an equality gives two).
    pub fn half_constraints(&self) -> Vec<Constraint> {
        let mut out = Vec::new();
        for c in self.constraints() {
            if c.rel == Rel::Eq {
                out.push(Constraint::new(c.expr.clone(), Rel::Le));
                out.push(Constraint::new(-c.expr, Rel::Le));
            } else {
                out.push(c);
            }
        }
        out
    }

    /// The constraints of each operand that the other implies: a conjunction containing
    /// both (not their hull in general).
    pub fn weak_join(&self, other: &Conj) -> Conj {
        if self.is_empty() {
            return other.clone();
        }
        if other.is_empty() {
            return self.clone();
        }
        let mut out = Conj::top_in(self.domain);
        for c in self.half_constraints() {
            if other.implies(&c) {
                out.add(&c);
            }
        }
        for c in other.half_constraints() {
            if self.implies(&c) {
                out.add(&c);
            }
        }
        out
    }

    /// The closed convex hull of `self ∪ other` over the rationals, tightened to the
    /// integers in [`Domain::Int`]. Falls back to [`Conj::weak_join`] (a superset) when
    /// the operands have more than [`HULL_MAX_DIMS`] dimensions or [`HULL_MAX_ROWS`] rows,
    /// when the projection takes more than [`HULL_WORK`] units of work, or when the
    /// deadline expires.
    pub fn hull_within(&self, other: &Conj, deadline: &Deadline) -> Conj {
        if self.is_empty() {
            return other.clone();
        }
        if other.is_empty() || other.entails(self) {
            return self.clone();
        }
        if self.entails(other) {
            return other.clone();
        }
        let mut dims = self.dims();
        dims.extend(other.dims());
        if dims.len() > HULL_MAX_DIMS
            || self.rows.len() + other.rows.len() > HULL_MAX_ROWS
            || deadline.expired()
        {
            return self.weak_join(other);
        }
        let top = dims.iter().map(|d| d.0).max().unwrap_or(0) + 1;
        let y: BTreeMap<Dim, Dim> = dims
            .iter()
            .enumerate()
            .map(|(i, d)| (*d, Dim(top + i as u32)))
            .collect();
        let lambda = Dim(top + dims.len() as u32);
        let mut sys = Conj::top_in(Domain::Rat);
        // 0 ≤ λ ≤ 1
        sys.add(&Constraint::new(-LinExpr::var(lambda), Rel::Le));
        sys.add(&Constraint::new(
            LinExpr::var(lambda) - LinExpr::int(1),
            Rel::Le,
        ));
        // A₁y ≤ λb₁ (each bound of each row of self over the y's).
        for c in self.half_constraints() {
            // c: a·x + k ≤ 0  →  a·y + k·λ ≤ 0
            let mut e = LinExpr::zero();
            for (d, a) in c.expr.coeffs() {
                e.add_term(y[d], a);
            }
            e.add_term(lambda, c.expr.constant_term());
            sys.add(&Constraint::new(e, Rel::Le));
        }
        // A₂(x - y) ≤ (1-λ)b₂: a·(x - y) + k·(1 - λ) ≤ 0.
        for c in other.half_constraints() {
            let mut e = LinExpr::zero();
            for (d, a) in c.expr.coeffs() {
                e.add_term(*d, a);
                e.add_term(y[d], &-a);
            }
            let k = c.expr.constant_term().clone();
            e.add_constant(&k);
            e.add_term(lambda, &-k);
            sys.add(&Constraint::new(e, Rel::Le));
        }
        let elim: Vec<Dim> = y.values().copied().chain([lambda]).collect();
        let own = deadline.sub_work(HULL_WORK);
        let p = sys.project_out_within(&elim, &own);
        if own.expired() {
            return self.weak_join(other);
        }
        p.in_domain(self.domain)
    }

    /// The widening of `self` (the older iterate) by `newer`: Halbwachs' standard
    /// widening (the constraints of `self` that `newer` satisfies), the H79 refinement
    /// when `refine` (the constraints of the hull that can replace a dropped constraint
    /// of `self` without changing it, e.g. `x - y = 0` from `x = y = 0` and
    /// `x = y = 1`, and the facets of the hull that both operands touch, e.g. `m + n ≤ k`
    /// when `m` grows as `n` shrinks), and every threshold both operands satisfy. The result contains both
    /// operands, and its constraints come from `self`, the hull and `thresholds`.
    pub fn widen(
        &self,
        newer: &Conj,
        thresholds: &[Constraint],
        refine: bool,
        deadline: &Deadline,
    ) -> Conj {
        if self.is_empty() {
            return newer.clone();
        }
        if newer.is_empty() {
            return self.clone();
        }
        let old = self.half_constraints();
        let mut out = Conj::top_in(self.domain);
        let mut dropped = Vec::new();
        for (i, c) in old.iter().enumerate() {
            if newer.implies(c) {
                out.add(c);
            } else {
                dropped.push(i);
            }
        }
        if refine && !dropped.is_empty() && !deadline.expired() {
            let hull = self.hull_within(newer, deadline);
            for c in hull.half_constraints() {
                if deadline.expired() {
                    break;
                }
                if out.implies(&c) {
                    continue;
                }
                let replaces = dropped.iter().any(|&j| {
                    let mut sys = Conj::top_in(self.domain);
                    for (i, o) in old.iter().enumerate() {
                        if i != j {
                            sys.add(o);
                        }
                    }
                    sys.add(&c);
                    sys.implies(&old[j])
                });
                // A facet of the hull on which both operands lie is a direction whose
                // bound did not move (`m + n ≤ k` when one argument grows as the other
                // shrinks): keep it as the standard widening keeps stable constraints.
                if replaces || (is_octagonal(&c) && touches(self, &c) && touches(newer, &c)) {
                    out.add(&c);
                }
            }
        }
        for t in thresholds {
            if !out.implies(t) && self.implies(t) && newer.implies(t) {
                out.add(t);
            }
        }
        out
    }
}

/// Whether `c` is `±x ± y ≤ k`: a sum or difference of two dimensions.
fn is_octagonal(c: &Constraint) -> bool {
    let coeffs = c.expr.coeffs();
    coeffs.len() == 2 && coeffs.values().all(|a| a.abs().is_one())
}

/// Whether `p` (contained in `c`) touches the boundary of `c`: `p ∧ c.expr = 0` is
/// satisfiable over the rationals.
fn touches(p: &Conj, c: &Constraint) -> bool {
    let mut q = p.clone();
    q.domain = Domain::Rat;
    q.add(&Constraint::new(c.expr.clone(), Rel::Eq));
    !q.is_empty()
}

/// The thresholds derived from one atom `e ≤ 0`, `e < 0` or `e = 0`: the atom's linear
/// form bounded above and below at its constant and one either side (so that the loop
/// guard `i < n` gives the invariant `i ≤ n`).
pub fn threshold_family(c: &Constraint) -> Vec<Constraint> {
    let (coeffs, k) = c.expr.clone().into_parts();
    if coeffs.is_empty() {
        return Vec::new();
    }
    let lin = LinExpr::from_parts(coeffs, Q::zero());
    let mut out = Vec::new();
    for shift in [-1i64, 0, 1] {
        let bound = -&k + Q::from_integer(shift.into());
        // lin ≤ bound and lin ≥ bound
        let mut up = lin.clone();
        up.add_constant(&-&bound);
        out.push(Constraint::new(up.clone(), Rel::Le));
        out.push(Constraint::new(-up, Rel::Le));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn x(d: u32) -> LinExpr {
        LinExpr::var(Dim(d))
    }
    fn k(n: i64) -> LinExpr {
        LinExpr::int(n)
    }
    fn conj(cs: &[Constraint]) -> Conj {
        Conj::from_constraints(cs.iter())
    }

    #[test]
    fn hull_of_two_points_is_the_segment() {
        let a = conj(&[Constraint::eq(&x(0), &k(0)), Constraint::eq(&x(1), &k(0))]);
        let b = conj(&[Constraint::eq(&x(0), &k(2)), Constraint::eq(&x(1), &k(2))]);
        let h = a.hull_within(&b, &Deadline::none());
        assert!(h.implies(&Constraint::eq(&x(0), &x(1))), "{h}");
        assert!(h.implies(&Constraint::ge(&x(0), &k(0))), "{h}");
        assert!(h.implies(&Constraint::le(&x(0), &k(2))), "{h}");
        assert!(a.entails(&h) && b.entails(&h));
        assert!(!h.implies(&Constraint::le(&x(0), &k(1))));
    }

    #[test]
    fn hull_with_an_unbounded_operand_keeps_its_direction() {
        // {x = 0} ∪ {x ≥ 5, y = x}: hull is not bounded above in x.
        let a = conj(&[Constraint::eq(&x(0), &k(0)), Constraint::eq(&x(1), &k(0))]);
        let b = conj(&[Constraint::ge(&x(0), &k(5)), Constraint::eq(&x(1), &x(0))]);
        let h = a.hull_within(&b, &Deadline::none());
        assert!(a.entails(&h) && b.entails(&h), "{h}");
        assert!(h.implies(&Constraint::eq(&x(0), &x(1))), "{h}");
        assert!(!h.implies(&Constraint::le(&x(0), &k(1000))), "{h}");
    }

    #[test]
    fn standard_widening_drops_growing_bounds_and_keeps_the_relation() {
        let a = conj(&[Constraint::eq(&x(0), &k(0)), Constraint::eq(&x(1), &k(0))]);
        let b = conj(&[Constraint::eq(&x(0), &k(1)), Constraint::eq(&x(1), &k(1))]);
        let w = a.widen(&b, &[], true, &Deadline::none());
        assert!(a.entails(&w) && b.entails(&w));
        assert!(w.implies(&Constraint::eq(&x(0), &x(1))), "{w}");
        assert!(w.implies(&Constraint::ge(&x(0), &k(0))), "{w}");
        assert!(!w.implies(&Constraint::le(&x(0), &k(100))), "{w}");
        // Without the refinement the relation is lost.
        let plain = a.widen(&b, &[], false, &Deadline::none());
        assert!(!plain.implies(&Constraint::eq(&x(0), &x(1))), "{plain}");
    }

    #[test]
    fn thresholds_are_kept_when_both_operands_satisfy_them() {
        // i = 1 ∧ n ≥ 1, then i = 2 ∧ n ≥ 2: threshold i ≤ n survives.
        let a = conj(&[Constraint::eq(&x(0), &k(1)), Constraint::ge(&x(1), &k(1))]);
        let b = conj(&[Constraint::eq(&x(0), &k(2)), Constraint::ge(&x(1), &k(2))]);
        let guard = Constraint::lt(&x(0), &x(1));
        let ts = threshold_family(&guard);
        let w = a.widen(&b, &ts, false, &Deadline::none());
        assert!(a.entails(&w) && b.entails(&w));
        assert!(w.implies(&Constraint::le(&x(0), &x(1))), "{w}");
        let without = a.widen(&b, &[], false, &Deadline::none());
        assert!(!without.implies(&Constraint::le(&x(0), &x(1))), "{without}");
    }

    #[test]
    fn widening_contains_both_operands_on_random_boxes() {
        // A small deterministic sweep: boxes and diagonals in two dimensions.
        let mut seed = 7u64;
        let mut next = || {
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            ((seed >> 33) % 7) as i64 - 3
        };
        for _ in 0..60 {
            let mk = |a: i64, b: i64, c: i64| {
                conj(&[
                    Constraint::ge(&x(0), &k(a.min(b))),
                    Constraint::le(&x(0), &k(a.max(b))),
                    Constraint::le(&(x(1) - x(0)), &k(c)),
                    Constraint::ge(&x(1), &k(-5)),
                ])
            };
            let a = mk(next(), next(), next());
            let b = mk(next(), next(), next());
            let ts = threshold_family(&Constraint::le(&x(1), &k(2)));
            for refine in [false, true] {
                let w = a.widen(&b, &ts, refine, &Deadline::none());
                assert!(a.entails(&w) && b.entails(&w), "{a} ∇ {b} = {w}");
            }
            let h = a.hull_within(&b, &Deadline::none());
            assert!(a.entails(&h) && b.entails(&h), "{a} ⊔ {b} = {h}");
            assert!(h.entails(&a.weak_join(&b)), "hull inside the weak join");
        }
    }
}
