//! What the widening of the DLC domain keeps: the thresholds of each widening point (the
//! guards of its procedure, C's integer ranges, and what refinement learnt there), and
//! the partition atoms that split the facts at a point.

use super::{cur_dim, entry_dim, DlcDomain};
use crate::cfg::{Cfg, NodeKind};
use crate::domain::encode::{flatten, flatten_size, guard, guard_size, Fresh};
use crate::ids::{NodeId, ProcId};
use crate::linear::{threshold_family, Constraint, Dim, LinExpr, Rel, Tightened, Q};
use num_traits::{One, Signed};
use std::collections::BTreeMap;

impl DlcDomain {
    /// The widening thresholds at node `n`: the families ([`threshold_family`]) of the
    /// atoms of every branch, loop, assertion and `assume` condition of its procedure and
    /// of the tests of its assignments' conditional expressions (an array access's range
    /// test), over current values and (for globals and formals) entry values, and the
    /// thresholds learnt at `n`.
    pub fn thresholds_at(&mut self, cfg: &Cfg, n: NodeId) -> Vec<Constraint> {
        let mut out = match cfg.nodes[n].proc {
            Some(p) => self
                .guards
                .entry(p)
                .or_insert_with(|| guard_thresholds(cfg, p))
                .clone(),
            None => Vec::new(),
        };
        if let Some(l) = self.learnt.get(&n) {
            for c in l {
                if !out.contains(c) {
                    out.push(c.clone());
                }
            }
        }
        out
    }
}

/// `¬(e ≤ 0)` over the integers: `-e + 1 ≤ 0`.
pub(super) fn negate_atom(a: &Constraint) -> Constraint {
    let mut e = -a.expr.clone();
    e.add_constant(&Q::one());
    Constraint::new(e, Rel::Le)
}

/// The partition atom of constraint `c`: `c` tightened to `e ≤ 0` with coprime integer
/// coefficients, or its complement when `e`'s first coefficient is negative, so that an
/// atom and its negation give the same atom. `None` for equalities and constants.
pub fn split_atom(c: &Constraint) -> Option<Constraint> {
    let Tightened::Atom(a) = c.tighten() else {
        return None;
    };
    if a.rel != Rel::Le {
        return None;
    }
    let first = a.expr.coeffs().values().next()?.clone();
    if first.is_negative() {
        return Some(negate_atom(&a));
    }
    Some(a)
}

/// Conditions with more DNF cases than this give no thresholds.
const MAX_GUARD_CASES: usize = 16;

/// The threshold families of the guard atoms of procedure `p` (see
/// [`DlcDomain::thresholds_at`]).
fn guard_thresholds(cfg: &Cfg, p: ProcId) -> Vec<Constraint> {
    let base = 2 * cfg.vars.len() as u32;
    let pr = &cfg.procs[p];
    let entry: BTreeMap<Dim, Dim> = cfg
        .globals
        .iter()
        .chain(&pr.formals)
        .map(|v| (cur_dim(*v), entry_dim(*v)))
        .collect();
    let mut out: Vec<Constraint> = Vec::new();
    let push = |c: Constraint, out: &mut Vec<Constraint>| {
        if !out.contains(&c) {
            out.push(c);
        }
    };
    for (_, node) in cfg.nodes.iter_enumerated() {
        if node.proc != Some(p) {
            continue;
        }
        let conds: Vec<crate::sema::Expr> = match &node.kind {
            NodeKind::Assign { rhs, .. } => {
                for t in wrap_thresholds(rhs, base) {
                    push(t, &mut out);
                }
                // The tests of the conditional expressions: an array access's range test
                // (`0 ≤ nb < size` in a write's `?:`) bounds the index the loop grows.
                let mut tests = Vec::new();
                for e in rhs {
                    e.visit(&mut |sub| {
                        if let crate::sema::Expr::Cond(c, _, _) = sub {
                            tests.push((**c).clone());
                        }
                    });
                }
                tests
            }
            NodeKind::Branch { cond, .. } | NodeKind::Assume { cond, .. } => vec![cond.clone()],
            _ => continue,
        };
        for cond in &conds {
            // Bounded before it is built: a chain of `?:` (a read among many cells) has
            // exponentially many cases.
            if guard_size(cond, true) > MAX_GUARD_CASES as u64 {
                continue;
            }
            let mut fresh = Fresh::new(base);
            let dnf = guard(cond, true, &cur_dim, &mut fresh);
            for atom in dnf.iter().flatten() {
                if atom.expr.coeffs().keys().any(|d| d.0 >= base) {
                    continue;
                }
                for t in threshold_family(atom) {
                    let dims: Vec<Dim> = t.expr.coeffs().keys().copied().collect();
                    if dims.iter().all(|d| entry.contains_key(d)) {
                        let e = t.rename(&|d| entry.get(&d).copied().unwrap_or(d));
                        push(e, &mut out);
                    }
                    push(t, &mut out);
                }
            }
        }
    }
    out
}

/// C integers: for every conversion `(T)(e)` of a computed value in `rhs`, and every
/// signed result `e` of type `T` that must fit, the range of `T` as bounds on `e`
/// (`e ≥ T_MIN`, `e ≤ T_MAX`), so that a widening keeps the absence of wraparound (of
/// overflow) when both of its operands have it. Only cases over variables (below
/// dimension `base`) count.
fn wrap_thresholds(rhs: &[crate::sema::Expr], base: u32) -> Vec<Constraint> {
    use crate::sema::Expr;
    let mut out = Vec::new();
    for e in rhs {
        e.visit(&mut |sub| {
            let (Expr::Wrap(w, a) | Expr::Overflow(w, a)) = sub else {
                return;
            };
            if matches!(**a, Expr::Undef) {
                return;
            }
            if flatten_size(a) > MAX_GUARD_CASES as u64 {
                return;
            }
            let mut fresh = Fresh::new(base);
            let cases = flatten(a, &cur_dim, &mut fresh);
            for (_, x) in cases {
                if x.coeffs().is_empty() || x.coeffs().keys().any(|d| d.0 >= base) {
                    continue;
                }
                let lo = LinExpr::constant(Q::from_integer(w.lo()));
                let hi = LinExpr::constant(Q::from_integer(w.hi()));
                out.push(Constraint::ge(&x, &lo));
                out.push(Constraint::le(&x, &hi));
            }
        });
    }
    out
}
