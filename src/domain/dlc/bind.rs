//! Expressions evaluated in a fact: binding fresh dimensions to their values (every
//! flattening of `?:` and C's wraps), after folding the variables the fact fixes to a
//! constant and dropping the wraps and signed overflows the fact keeps in range.

use super::{cur_dim, DlcDomain};
use crate::domain::encode::{flatten, flatten_size, Fresh, MAX_CASES};
use crate::ids::VarId;
use crate::linear::{Conj, Constraint, Dim, LinExpr, Q};
use crate::sema::fold;
use std::collections::BTreeMap;

impl DlcDomain {
    /// Bind fresh dimensions to the values of `args` evaluated in `f` (all flattenings):
    /// returns the conjunctions and the fresh dims holding the values.
    pub(super) fn bind(
        &mut self,
        f: &Conj,
        args: &[crate::sema::Expr],
        fresh: &mut Fresh,
    ) -> (Vec<Conj>, Vec<Dim>) {
        let known = known_values(f);
        let args: Vec<crate::sema::Expr> = args
            .iter()
            .map(|a| drop_safe_wraps(fold_in(a, &known), f))
            .collect();
        let slots: Vec<Dim> = args.iter().map(|_| fresh.dim()).collect();
        let mut acc = vec![f.clone()];
        for (a, slot) in args.iter().zip(&slots) {
            if self.deadline.expired() {
                return (Vec::new(), slots);
            }
            let cases = if flatten_size(a) > MAX_CASES {
                // Too many cases to enumerate: an arbitrary value (over-approximation).
                vec![(Vec::new(), LinExpr::var(fresh.dim()))]
            } else {
                flatten(a, &cur_dim, fresh)
            };
            let mut next = Vec::new();
            for c in &acc {
                for (g, v) in &cases {
                    let mut d = c.clone();
                    for k in g {
                        d.add(k);
                    }
                    d.add(&Constraint::eq(&LinExpr::var(*slot), v));
                    // Prune infeasible combinations now: the cases of later arguments
                    // multiply with these (cells make reads and writes nested `?:`).
                    if d.is_trivially_false() || (!g.is_empty() && d.is_empty()) {
                        self.stats.empty += 1;
                    } else {
                        next.push(d);
                    }
                }
            }
            acc = next;
        }
        (acc, slots)
    }
}

/// The current values of variables fixed to a constant by `f` (rows `x' = c`).
pub(super) fn known_values(f: &Conj) -> BTreeMap<VarId, num_bigint::BigInt> {
    let mut out = BTreeMap::new();
    for (key, r) in f.rows() {
        if key.len() != 1 || !r.is_equality() {
            continue;
        }
        let (d, a) = key.iter().next().expect("one dimension");
        if d.0 % 2 == 0 {
            continue;
        }
        if let Some(h) = &r.hi {
            let v = &h.value / a;
            if v.is_integer() {
                out.insert(VarId(d.0 / 2), v.to_integer());
            }
        }
    }
    out
}

/// Whether `f` keeps the value of `x` in the range of `w` (an exact LP check per bound;
/// `false` when `x` has guards or arbitrary parts).
fn fits(x: &crate::sema::Expr, w: crate::sema::Width, f: &Conj) -> bool {
    if flatten_size(x) > 1 {
        return false;
    }
    let mut fresh = Fresh::new(u32::MAX / 2);
    let cases = flatten(x, &cur_dim, &mut fresh);
    let [(guards, v)] = cases.as_slice() else {
        return false;
    };
    if !guards.is_empty() || v.coeffs().keys().any(|d| d.0 >= u32::MAX / 2) {
        return false;
    }
    let lo = LinExpr::constant(Q::from_integer(w.lo()));
    let hi = LinExpr::constant(Q::from_integer(w.hi()));
    f.implies_all(&[Constraint::ge(v, &lo), Constraint::le(v, &hi)])
}

/// C's wraparound (`Expr::Wrap`) is the identity on values in range, and a signed result
/// that must fit (`Expr::Overflow`) is its value: drop every wrap and overflow whose
/// operand `f` keeps in its type's range (an exact LP check per bound), and push them
/// into the branches of `?:` so that each branch is decided on its own. This keeps the
/// three-case encoding of a wrap (with a fresh quotient) for the values that may really
/// wrap (ARCHITECTURE: the quotient only where the value may leave the range), and the
/// range guards of an overflow for the values that may really overflow.
pub(super) fn drop_safe_wraps(e: crate::sema::Expr, f: &Conj) -> crate::sema::Expr {
    use crate::sema::Expr;
    fn rule(w: crate::sema::Width, overflow: bool, x: Expr, f: &Conj) -> Expr {
        match x {
            // wrap(c ? a : b) = c ? wrap(a) : wrap(b)
            Expr::Cond(c, a, b) => Expr::Cond(
                c,
                Box::new(rule(w, overflow, *a, f)),
                Box::new(rule(w, overflow, *b, f)),
            ),
            x if fits(&x, w, f) => x,
            x if overflow => Expr::Overflow(w, Box::new(x)),
            x => Expr::Wrap(w, Box::new(x)),
        }
    }
    let mut any = false;
    e.visit(&mut |x| any |= matches!(x, Expr::Wrap(..) | Expr::Overflow(..)));
    if !any {
        return e;
    }
    e.map_bottom_up(&mut |x| match x {
        Expr::Wrap(w, inner) => rule(w, false, *inner, f),
        Expr::Overflow(w, inner) => rule(w, true, *inner, f),
        other => other,
    })
}

/// Whether evaluating `e` in the states of `f` relies on a signed result fitting its
/// type where `f` does not keep it in range (an `Expr::Overflow` that the transfer
/// functions keep as a guard): then the states where it overflows, which C leaves
/// undefined, are dropped there.
pub fn assumes_no_overflow(e: &crate::sema::Expr, f: &Conj) -> bool {
    let mut any = false;
    e.visit(&mut |x| any |= matches!(x, crate::sema::Expr::Overflow(..)));
    if !any {
        return false;
    }
    let kept = drop_safe_wraps(fold_in(e, &known_values(f)), f);
    let mut left = false;
    kept.visit(&mut |x| left |= matches!(x, crate::sema::Expr::Overflow(..)));
    left
}

/// Whether some state of `f` falsifies the guard `cond` of an `assume` in a CFG with
/// `num_vars` scalars: `f ∧ ¬cond` is satisfiable over the rationals (so it may say yes
/// where no integer state falsifies it, and a guard too large to enumerate counts as
/// falsifiable: both over-approximate the states the `assume` drops).
pub fn may_falsify(cond: &crate::sema::Expr, f: &Conj, num_vars: usize) -> bool {
    use crate::domain::encode::{guard, guard_size};
    let cond = drop_safe_wraps(fold_in(cond, &known_values(f)), f);
    if guard_size(&cond, false) > MAX_CASES {
        return true;
    }
    let mut fresh = Fresh::new(2 * num_vars as u32);
    guard(&cond, false, &cur_dim, &mut fresh).iter().any(|d| {
        let mut c = f.clone();
        d.iter().for_each(|k| c.add(k));
        !c.is_empty()
    })
}

/// `e` with the variables of `known` replaced by their values, folded.
pub(super) fn fold_in(
    e: &crate::sema::Expr,
    known: &BTreeMap<VarId, num_bigint::BigInt>,
) -> crate::sema::Expr {
    if known.is_empty() {
        return e.clone();
    }
    fold(e.clone(), &|v| known.get(&v).cloned())
}
