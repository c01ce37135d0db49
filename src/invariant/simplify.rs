//! Readable invariants: the disjuncts of a point's facts, simplified before they are
//! shown, written to a witness and certified. Every step keeps a formula that contains the
//! facts (a weakening at most), so the certificate check of the result is what counts:
//! - internal variables (temporaries, `$ret` where it is not the result) are projected
//!   out (Fourier–Motzkin, exact over the rationals and integer-tightened);
//! - constraints implied by the rest of their disjunct are removed;
//! - a disjunct contained in another is dropped;
//! - two disjuncts whose convex hull adds no integer point are replaced by the hull.
//!
//! The work is bounded by counts, never by time, so the same facts always give the same
//! invariant.

use std::collections::{HashMap, HashSet};

use crate::limits::Deadline;
use crate::linear::{Conj, Constraint, Dim};

/// Disjuncts beyond which the pairwise hull merging is not tried (it is quadratic).
const MAX_MERGE_DISJUNCTS: usize = 16;

/// Disjuncts beyond which a coarser candidate is offered ([`coarse`]).
pub(crate) const READABLE_DISJUNCTS: usize = 3;

/// Hulls computed at most per point.
const MAX_HULLS: usize = 4_000;

/// The facts of one point, readable: `hidden` projected out, the constraints `always`
/// holds of every state (a C variable within its type's range) and redundant ones
/// removed, contained disjuncts dropped, exact hulls merged.
pub(crate) fn readable(
    facts: &[Conj],
    hidden: &[Dim],
    always: &dyn Fn(&Constraint) -> bool,
) -> Vec<Conj> {
    let none = Deadline::none();
    let mut ds: Vec<Conj> = Vec::new();
    for f in facts {
        let present = f.dims();
        let drop: Vec<Dim> = hidden
            .iter()
            .copied()
            .filter(|d| present.contains(d))
            .collect();
        let c = if drop.is_empty() {
            f.clone()
        } else {
            f.project_out_within(&drop, &none)
        };
        if c.is_empty() {
            continue;
        }
        let kept: Vec<Constraint> = c.constraints().into_iter().filter(|x| !always(x)).collect();
        ds.push(irredundant(&Conj::from_constraints(&kept)));
    }
    let mut ds = drop_subsumed(ds);
    if ds.len() <= MAX_MERGE_DISJUNCTS {
        merge_exact_hulls(&mut ds);
    }
    ds
}

/// A coarser candidate for a loop head's many disjuncts: their hull within each part of
/// a partition by `atoms` (the loop's test and the conditions that guard an error
/// location: a disjunct inside an atom, outside it, or across), at most one disjunct per
/// part. It contains the facts but may not be inductive: the certificate check decides
/// whether it replaces them.
pub(crate) fn coarse(ds: &[Conj], atoms: &[Constraint]) -> Option<Vec<Conj>> {
    if ds.len() <= READABLE_DISJUNCTS || atoms.is_empty() {
        return None;
    }
    let none = Deadline::none();
    let mut parts: Vec<(Vec<u8>, Conj)> = Vec::new();
    for d in ds {
        let key: Vec<u8> = atoms
            .iter()
            .map(|a| {
                if d.implies(a) {
                    0
                } else if a.negate().iter().all(|n| d.implies(n)) {
                    1
                } else {
                    2
                }
            })
            .collect();
        match parts.iter_mut().find(|(k, _)| *k == key) {
            Some((_, h)) => *h = h.hull_within(d, &none),
            None => parts.push((key, d.clone())),
        }
    }
    if parts.len() >= ds.len() {
        return None;
    }
    Some(parts.into_iter().map(|(_, h)| irredundant(&h)).collect())
}

/// `c` without the constraints that the others imply (over the integers).
pub(crate) fn irredundant(c: &Conj) -> Conj {
    let mut cs = c.constraints();
    let mut i = 0;
    while i < cs.len() {
        let rest: Vec<&Constraint> = cs
            .iter()
            .enumerate()
            .filter(|(j, _)| *j != i)
            .map(|(_, x)| x)
            .collect();
        if Conj::from_constraints(rest).implies(&cs[i]) {
            cs.remove(i);
        } else {
            i += 1;
        }
    }
    Conj::from_constraints(&cs)
}

/// The disjuncts without those contained in another (of two equal ones, the first stays).
fn drop_subsumed(ds: Vec<Conj>) -> Vec<Conj> {
    let mut keep = vec![true; ds.len()];
    for i in 0..ds.len() {
        for j in 0..ds.len() {
            if i == j || !keep[j] || !keep[i] {
                continue;
            }
            if ds[j].entails(&ds[i]) && (!ds[i].entails(&ds[j]) || j > i) {
                keep[j] = false;
            }
        }
    }
    ds.into_iter()
        .zip(keep)
        .filter_map(|(d, k)| k.then_some(d))
        .collect()
}

/// Replace pairs of disjuncts by their hull while the hull adds no integer point, until
/// no pair merges (or [`MAX_HULLS`] hulls were computed). After a merge the pairs are
/// tried again from the first; a pair already found inexact is not hulled again (its
/// hull is the same), so the merges are those of trying every pair each time.
fn merge_exact_hulls(ds: &mut Vec<Conj>) {
    let none = Deadline::none();
    let mut hulls = 0usize;
    // The pairs found inexact, by their first disjunct (looked up without copies).
    let mut inexact: HashMap<Conj, HashSet<Conj>> = HashMap::new();
    'outer: loop {
        for i in 0..ds.len() {
            for j in i + 1..ds.len() {
                if inexact.get(&ds[i]).is_some_and(|s| s.contains(&ds[j])) {
                    continue;
                }
                if hulls >= MAX_HULLS {
                    return;
                }
                hulls += 1;
                let h = ds[i].hull_within(&ds[j], &none);
                if !exact(&h, &ds[i], &ds[j]) {
                    inexact
                        .entry(ds[i].clone())
                        .or_default()
                        .insert(ds[j].clone());
                } else {
                    let h = irredundant(&h);
                    ds[i] = h;
                    ds.remove(j);
                    *ds = drop_subsumed(std::mem::take(ds));
                    continue 'outer;
                }
            }
        }
        return;
    }
}

/// Whether every integer point of `h` lies in `a` or in `b`: for each constraint `c` of
/// `a`, the points of `h` that violate it (the tightened negation) lie in `b`. The test
/// is over the rationals of the tightened sets, so `true` is always right.
fn exact(h: &Conj, a: &Conj, b: &Conj) -> bool {
    for c in a.constraints() {
        for n in c.negate() {
            let mut outside = h.clone();
            outside.add(&n);
            if outside.is_empty() {
                continue;
            }
            if !outside.entails(b) {
                return false;
            }
        }
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::linear::{LinExpr, Q};

    fn x() -> LinExpr {
        LinExpr::var(Dim(1))
    }
    fn y() -> LinExpr {
        LinExpr::var(Dim(3))
    }
    fn c(n: i64) -> LinExpr {
        LinExpr::constant(Q::from_integer(n.into()))
    }

    #[test]
    fn adjacent_integer_intervals_merge_and_a_gap_does_not() {
        let a = Conj::from_constraints(&[Constraint::ge(&x(), &c(0)), Constraint::le(&x(), &c(3))]);
        let b = Conj::from_constraints(&[Constraint::ge(&x(), &c(4)), Constraint::le(&x(), &c(9))]);
        let gap =
            Conj::from_constraints(&[Constraint::ge(&x(), &c(5)), Constraint::le(&x(), &c(9))]);
        let merged = readable(&[a.clone(), b], &[], &|_| false);
        assert_eq!(merged.len(), 1, "{merged:?}");
        assert!(merged[0].implies(&Constraint::le(&x(), &c(9))));
        assert_eq!(readable(&[a, gap], &[], &|_| false).len(), 2);
    }

    #[test]
    fn hidden_variables_are_projected_and_implied_constraints_removed() {
        // x = y ∧ y ≤ 3 ∧ x ≤ 5, hiding y: x ≤ 3.
        let f = Conj::from_constraints(&[
            Constraint::eq(&x(), &y()),
            Constraint::le(&y(), &c(3)),
            Constraint::le(&x(), &c(5)),
        ]);
        let r = readable(&[f], &[Dim(3)], &|_| false);
        assert_eq!(r.len(), 1);
        assert_eq!(r[0].constraints(), vec![Constraint::le(&x(), &c(3))]);
    }

    #[test]
    fn a_contained_disjunct_is_dropped() {
        let big = Conj::from_constraints(&[Constraint::le(&x(), &c(10))]);
        let small =
            Conj::from_constraints(&[Constraint::le(&x(), &c(3)), Constraint::ge(&y(), &c(0))]);
        assert_eq!(readable(&[small, big.clone()], &[], &|_| false), vec![big]);
    }
}
