//! The closure of a loop path: `n ≥ 1` iterations of it as one transition, exact (every
//! state pair it relates is related by `n` iterations of the path, and conversely).
//!
//! After one iteration each variable the path assigns must be *translated* (`x + c`, `c`
//! a constant), *reset* (a value over variables the path does not assign), or
//! *derived* (assigned before the path reads it: its final value is a function of the
//! state at the start of the last iteration). Then at the start of iteration `i`,
//! `x = x₀ + (i−1)·c` for a translated `x`, a reset variable holds its value (from `i = 2`
//! on), and everything else is unchanged. An atom of the path condition is then linear
//! in `i`, so it holds at every iteration `1..n` iff it holds at the first and the last
//! (convexity; from the second on when a reset variable is read, which makes the
//! transition start at `n = 2`, the original body taking the single iterations). A
//! negated conjunction `¬Q` must hold at every iteration: `¬∃i ∈ [1, n]. Q(i)`, with `i`
//! eliminated exactly ([`eliminate`]) or the path is not accelerated.
//!
//! Inner accelerated loops leave auxiliary dimensions (their counts) in a path; each must
//! be fixed by an equality of the path condition (`n_inner = 10` when the inner loop runs
//! from a reset to its bound) or occur only in its conjunction, to be eliminated exactly.

use super::formula::{eliminate, false_atom, solve, tighten_all, Cond};
use super::paths::{dim, var_of, LoopPath, AUX_BASE};
use crate::ids::VarId;
use crate::linear::{Conj, Constraint, Dim, LinExpr, Rel, Q};
use num_traits::{One, Signed, Zero};
use std::collections::{BTreeMap, BTreeSet};

/// The iteration index `i` while it is eliminated.
const ITER: Dim = Dim(u32::MAX);

/// How a variable changes in one iteration.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Update {
    Translate(Q),
    Reset(LinExpr),
    Derived(LinExpr),
}

/// An accelerated loop path: the guard over the values at the head and the count `n`
/// (dimension `count`), and the value of each assigned variable after `n` iterations.
#[derive(Clone, Debug)]
pub(super) struct Closure {
    pub min: u32,
    pub guard: Cond,
    pub assign: Vec<(VarId, LinExpr)>,
}

/// The closure of `path` with count dimension `count`, if the path is a translation
/// loop whose condition accelerates exactly.
pub(super) fn closure(path: &LoopPath, count: Dim) -> Option<Closure> {
    let (state, cond) = without_aux(path)?;
    let modified: BTreeSet<VarId> = state.keys().copied().collect();
    let mut refs: BTreeSet<VarId> = cond.dims().filter_map(var_of).collect();
    for x in state.values() {
        refs.extend(x.dims().filter_map(var_of));
    }
    let mut updates: BTreeMap<VarId, Update> = BTreeMap::new();
    for (v, x) in &state {
        let diff = x - &LinExpr::var(dim(*v));
        let u = if diff.is_constant() {
            Update::Translate(diff.constant_term().clone())
        } else if x
            .dims()
            .all(|d| var_of(d).is_some_and(|w| !modified.contains(&w)))
        {
            Update::Reset(x.clone())
        } else if !refs.contains(v) {
            Update::Derived(x.clone())
        } else {
            return None;
        };
        updates.insert(*v, u);
    }
    // A reset variable the path reads: the iterations from the second on see its reset
    // value, so the transition covers `n ≥ 2` and checks the second iteration too.
    let two_phase = updates
        .iter()
        .any(|(v, u)| matches!(u, Update::Reset(_)) && refs.contains(v));
    let min: u32 = if two_phase { 2 } else { 1 };
    let n = LinExpr::var(count);
    // The values at the start of iteration `it` (an expression in `n` or `i`; `first`:
    // the first iteration).
    let at = |it: &LinExpr, first: bool| -> BTreeMap<Dim, LinExpr> {
        let mut sub = BTreeMap::new();
        for (v, u) in &updates {
            match u {
                Update::Translate(c) if !first => {
                    let mut x = LinExpr::var(dim(*v));
                    x.add_scaled(c, &(it - &LinExpr::int(1)));
                    sub.insert(dim(*v), x);
                }
                Update::Reset(r) if !first && refs.contains(v) => {
                    sub.insert(dim(*v), r.clone());
                }
                _ => {}
            }
        }
        sub
    };
    let apply = |c: &Constraint, sub: &BTreeMap<Dim, LinExpr>| -> Constraint {
        Constraint::new(substitute_all(&c.expr, sub), c.rel)
    };
    let mut all = vec![Constraint::ge(&n, &LinExpr::int(i64::from(min)))];
    let first = at(&LinExpr::int(1), true);
    let last = at(&n, false);
    all.extend(cond.all.iter().map(|c| apply(c, &first)));
    if two_phase {
        let second = at(&LinExpr::int(2), false);
        all.extend(cond.all.iter().map(|c| apply(c, &second)));
    }
    all.extend(cond.all.iter().map(|c| apply(c, &last)));
    let mut none_of = Vec::new();
    let iter = at(&LinExpr::var(ITER), false);
    for q in &cond.none_of {
        let from = if two_phase {
            none_of.push(q.iter().map(|c| apply(c, &first)).collect());
            2
        } else {
            1
        };
        let mut qi: Vec<Constraint> = q.iter().map(|c| apply(c, &iter)).collect();
        qi.push(Constraint::ge(&LinExpr::var(ITER), &LinExpr::int(from)));
        qi.push(Constraint::le(&LinExpr::var(ITER), &n));
        none_of.push(eliminate(&qi, ITER)?);
    }
    let guard = simplified(Cond { all, none_of }.normalised()?)?;
    let assign = updates
        .iter()
        .map(|(v, u)| {
            let x = match u {
                Update::Translate(c) => {
                    let mut x = LinExpr::var(dim(*v));
                    x.add_scaled(c, &n);
                    x
                }
                Update::Reset(r) => r.clone(),
                Update::Derived(x) => substitute_all(x, &last),
            };
            (*v, x)
        })
        .collect();
    Some(Closure { min, guard, assign })
}

/// The condition without redundant atoms: an atom of `all` implied by the others, an
/// atom of a negated conjunction implied by `all` (`C ∧ ¬Q` is `C ∧ ¬(Q without it)`).
/// `None` if the condition cannot hold.
fn simplified(c: Cond) -> Option<Cond> {
    let mut all = Conj::from_constraints(&c.all).constraints();
    let mut i = 0;
    while i < all.len() {
        let others: Vec<Constraint> = (0..all.len())
            .filter(|j| *j != i)
            .map(|j| all[j].clone())
            .collect();
        if Conj::from_constraints(&others).implies(&all[i]) {
            all.remove(i);
        } else {
            i += 1;
        }
    }
    let conj = Conj::from_constraints(&all);
    if conj.is_empty() {
        return None;
    }
    let none_of = c
        .none_of
        .into_iter()
        .map(|q| q.into_iter().filter(|a| !conj.implies(a)).collect())
        .collect();
    Cond { all, none_of }.normalised()
}

/// Apply a simultaneous substitution.
fn substitute_all(e: &LinExpr, sub: &BTreeMap<Dim, LinExpr>) -> LinExpr {
    let mut out = LinExpr::constant(e.constant_term().clone());
    for (d, k) in e.coeffs() {
        match sub.get(d) {
            Some(x) => out.add_scaled(k, x),
            None => out.add_term(*d, k),
        }
    }
    out
}

/// The path's state and condition without auxiliary dimensions: each is fixed by an
/// equality (two opposite inequalities count) with coefficient ±1 and substituted, or,
/// if only the conjunction mentions it, eliminated exactly. `None` otherwise.
fn without_aux(path: &LoopPath) -> Option<(BTreeMap<VarId, LinExpr>, Cond)> {
    let mut state = path.state.clone();
    let mut cond = path.cond.clone();
    for k in 0..path.aux {
        let a = Dim(AUX_BASE + k);
        let in_state = state.values().any(|x| !x.coeff(a).is_zero());
        let in_negs = cond
            .none_of
            .iter()
            .flatten()
            .any(|c| !c.expr.coeff(a).is_zero());
        let in_all = cond.all.iter().any(|c| !c.expr.coeff(a).is_zero());
        if !in_state && !in_negs && !in_all {
            continue;
        }
        if let Some(e) = fixed(&cond.all, a) {
            for x in state.values_mut() {
                *x = x.substitute(a, &e);
            }
            cond = cond.substitute(a, &e)?;
        } else if !in_state && !in_negs {
            let all = eliminate(&cond.all, a)?;
            if all.contains(&false_atom()) {
                return None;
            }
            cond.all = all;
        } else {
            return None;
        }
    }
    let cond = cond.normalised()?;
    Some((state, cond))
}

/// The value of `a` if the atoms fix it: an equality with coefficient ±1, or a pair of
/// opposite inequalities `e ≤ 0`, `-e ≤ 0`.
fn fixed(all: &[Constraint], a: Dim) -> Option<LinExpr> {
    let all = tighten_all(all)?;
    let unit = |c: &Constraint| c.expr.coeff(a).abs().is_one();
    if let Some(c) = all.iter().find(|c| c.rel == Rel::Eq && unit(c)) {
        return Some(solve(&c.expr, a));
    }
    for (i, c) in all.iter().enumerate() {
        if c.rel != Rel::Le || !unit(c) || !c.expr.coeff(a).is_positive() {
            continue;
        }
        let opposite = all[..]
            .iter()
            .enumerate()
            .any(|(j, d)| j != i && d.rel == Rel::Le && (&c.expr + &d.expr).is_zero());
        if opposite {
            return Some(solve(&c.expr, a));
        }
    }
    None
}
