//! Integer-exact presolving before Fourier–Motzkin projection: equalities with a unit
//! coefficient are used as pivots, so that projection keeps divisibility.

use crate::linear::{Conj, Dim, Rel, Q};
use num_traits::{One, Signed, Zero};

/// Integer-exact equality propagation before Fourier–Motzkin (a step of the Omega test).
///
/// Rational projection loses divisibility: from `x = 0 ∧ x - 2q = 1` eliminating the
/// integer `q` leaves `x = 0`, although no integer `q` exists. So first, every equality
/// with a variable of coefficient ±1 (all coefficients being integers after tightening) is
/// used as a pivot: the variable is replaced by its definition everywhere else. The pivot
/// equality is dropped when its variable is to be projected out (`∃v. v = e ∧ φ ≡ φ[e/v]`
/// over ℤ), kept otherwise. Each equality is a pivot at most once, so this terminates;
/// the result is equivalent to `∃ (eliminated dims). c` over the integers, and re-adding
/// the constraints tightens them, so e.g. `-2q = 1` becomes `false`.
pub fn int_presolve(c: &Conj, project: &[Dim]) -> Conj {
    if c.is_trivially_false() {
        return c.clone();
    }
    let mut cs = c.constraints();
    if !cs.iter().any(|k| k.rel == Rel::Eq) {
        return c.clone();
    }
    let mut pivoted = vec![false; cs.len()];
    let mut changed = false;
    loop {
        // Pick an unused equality with a unit coefficient; prefer projected variables.
        let mut best: Option<(usize, Dim, bool)> = None;
        for (i, k) in cs.iter().enumerate() {
            if k.rel != Rel::Eq || pivoted[i] {
                continue;
            }
            if !k.expr.constant_term().is_integer()
                || !k.expr.coeffs().values().all(|a| a.is_integer())
            {
                continue;
            }
            for (d, a) in k.expr.coeffs() {
                if a.abs() != Q::one() {
                    continue;
                }
                let proj = project.contains(d);
                let occurs_elsewhere = cs
                    .iter()
                    .enumerate()
                    .any(|(j, o)| j != i && !o.expr.coeff(*d).is_zero());
                if !occurs_elsewhere && !proj {
                    continue;
                }
                if best.is_none_or(|(_, _, p)| proj && !p) {
                    best = Some((i, *d, proj));
                }
            }
        }
        let Some((i, d, proj)) = best else { break };
        // k: a·d + rest = 0 with a = ±1, so d = -rest/a.
        let k = cs[i].clone();
        let a = k.expr.coeff(d);
        let mut rest = k.expr.clone();
        rest.add_term(d, &-&a);
        let def = rest.scale(&(-Q::one() / a));
        for (j, o) in cs.iter_mut().enumerate() {
            if j != i && !o.expr.coeff(d).is_zero() {
                *o = o.substitute(d, &def);
            }
        }
        pivoted[i] = true;
        if proj {
            cs.remove(i);
            pivoted.remove(i);
        }
        changed = true;
    }
    if !changed {
        return c.clone();
    }
    Conj::from_constraints(cs.iter())
}
