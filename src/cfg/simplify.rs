//! Simplifications of the CFG that change no execution's outcome, so that more loops
//! become the translations and resets acceleration summarises (`crate::accel`):
//!
//! - **Assignments of the value a variable already has.** A forward constant
//!   propagation (per procedure, a variable known only where every path to the node gives
//!   it the same constant) finds `r = 1` where `r` is 1 on every path: the pair is
//!   dropped from its assignment.
//! - **Tests with no effect.** A branch whose two successors lead, through `skip`s only,
//!   to the same node becomes a `skip`: its guard is evaluated for nothing. (An array
//!   read in it has no effect either where its bounds are guarded or checked in separate
//!   nodes, see [`super::bounds`]; under EUREKA's rule a read out of bounds draws an
//!   input, and the test stays.)
//! - **Assignments nobody reads.** A pair whose target, a temporary of the procedure, is
//!   dead after the node ([`super::live_vars`]) is dropped (`#read = a[j]` once the test
//!   that read it is gone), unless it draws: a `u`, or a read out of bounds under EUREKA's
//!   rule, is an input of the run, and the inputs a list gives (`lpmc run --inputs`) keep
//!   their order. Variables of the program stay, so that traces show them.
//!
//! An expression with a signed overflow ([`Expr::Overflow`]) ends an execution where it
//! overflows: an assignment with one is never dropped, and a test with no effect becomes
//! the `assume` that its overflows stay in range (`assume(INT_MIN <= j - 1 && j - 1 <= INT_MAX)`
//! for `if (a[j - 1] > x) {}`), or stays when one is evaluated only in some states. An
//! `assume` that guards an array access is never dropped (its failure is reported apart,
//! as an access out of bounds).

use super::{Cfg, NodeKind};
use crate::ids::{NodeId, ProcId, VarId};
use crate::sema::{fold, CmpOp, Expr, VarKind};
use num_bigint::BigInt;
use std::collections::BTreeSet;

/// Simplify `cfg` in place (see the module documentation); returns how many nodes changed.
pub fn simplify(cfg: &mut Cfg) -> usize {
    let mut changed = 0;
    loop {
        let procs: Vec<ProcId> = cfg.procs.indices().collect();
        let round = procs
            .into_iter()
            .map(|p| same_values(cfg, p) + no_effect_tests(cfg, p))
            .sum::<usize>()
            + dead_assignments(cfg);
        if round == 0 {
            return changed;
        }
        changed += round;
    }
}

/// The nodes of procedure `p`.
fn nodes_of(cfg: &Cfg, p: ProcId) -> Vec<NodeId> {
    cfg.nodes
        .iter_enumerated()
        .filter(|(_, n)| n.proc == Some(p))
        .map(|(id, _)| id)
        .collect()
}

/// Intraprocedural successors: a call continues at its return point, an exit nowhere.
pub(super) fn intra_succs(cfg: &Cfg, n: NodeId) -> Vec<NodeId> {
    match &cfg.nodes[n].kind {
        NodeKind::Call { ret_point, .. } => vec![*ret_point],
        NodeKind::Exit => Vec::new(),
        _ => cfg.succs(n),
    }
}

/// Whether `v` belongs to the activation of `p` (a call cannot change it).
fn own(cfg: &Cfg, p: ProcId, v: VarId) -> bool {
    matches!(cfg.vars[v].kind, VarKind::Local(q) | VarKind::Temp(q) | VarKind::Formal(q) if q == p)
}

/// Whether `e` may end an execution (a signed overflow).
fn may_stop(e: &Expr) -> bool {
    let mut found = false;
    e.visit(&mut |x| found |= matches!(x, Expr::Overflow(..)));
    found
}

/// The variables with a known constant value at a point: a persistent map, since most
/// nodes pass on their predecessor's map unchanged (a clone shares it).
type Known = imbl::OrdMap<VarId, BigInt>;

/// The constant value of `e` where the variables of `known` have their values.
fn value(e: &Expr, known: &Known) -> Option<BigInt> {
    match fold(e.clone(), &|v| known.get(&v).cloned()) {
        Expr::Const(c) => Some(c),
        _ => None,
    }
}

/// The constants known before each reachable node of `p`, by node index (forward
/// propagation; a join keeps the variables with one value on every incoming path).
fn known_constants(cfg: &Cfg, p: ProcId) -> Vec<Option<Known>> {
    let mut at: Vec<Option<Known>> = vec![None; cfg.nodes.len()];
    let entry = cfg.procs[p].entry;
    at[entry.0 as usize] = Some(Known::new());
    let mut work = vec![entry];
    while let Some(n) = work.pop() {
        let Some(mut out) = at[n.0 as usize].clone() else {
            continue;
        };
        match &cfg.nodes[n].kind {
            NodeKind::Assign { lhs, rhs, .. } => {
                let vals: Vec<Option<BigInt>> = rhs.iter().map(|e| value(e, &out)).collect();
                for (y, v) in lhs.iter().zip(vals) {
                    match v {
                        Some(c) => out.insert(*y, c),
                        None => out.remove(y),
                    };
                }
            }
            NodeKind::Call { .. } => {
                out = out.into_iter().filter(|(v, _)| own(cfg, p, *v)).collect()
            }
            _ => {}
        }
        for s in intra_succs(cfg, n) {
            let slot = &mut at[s.0 as usize];
            let merged = match slot {
                None => out.clone(),
                Some(old) if old.ptr_eq(&out) => continue,
                Some(old) => old
                    .iter()
                    .filter(|(v, c)| out.get(*v) == Some(c))
                    .map(|(v, c)| (*v, c.clone()))
                    .collect(),
            };
            if slot.as_ref() != Some(&merged) {
                *slot = Some(merged);
                work.push(s);
            }
        }
    }
    at
}

/// Drop the pairs `y = e` of `p`'s assignments where `y` already has `e`'s value.
fn same_values(cfg: &mut Cfg, p: ProcId) -> usize {
    let known = known_constants(cfg, p);
    let mut changed = 0;
    for n in nodes_of(cfg, p) {
        let Some(k) = &known[n.0 as usize] else {
            continue;
        };
        let NodeKind::Assign { lhs, rhs, next } = &cfg.nodes[n].kind else {
            continue;
        };
        let keep: Vec<bool> = lhs
            .iter()
            .zip(rhs)
            .map(|(y, e)| k.get(y).is_none() || k.get(y) != value(e, k).as_ref())
            .collect();
        if keep.iter().all(|b| *b) {
            continue;
        }
        cfg.nodes[n].kind = keep_pairs(lhs, rhs, *next, &keep);
        changed += 1;
    }
    changed
}

/// The assignment of the kept pairs (a `skip` if none is kept).
fn keep_pairs(lhs: &[VarId], rhs: &[Expr], next: NodeId, keep: &[bool]) -> NodeKind {
    let (lhs, rhs): (Vec<VarId>, Vec<Expr>) = lhs
        .iter()
        .zip(rhs)
        .zip(keep)
        .filter(|(_, k)| **k)
        .map(|((y, e), _)| (*y, e.clone()))
        .unzip();
    if lhs.is_empty() {
        NodeKind::Skip { next }
    } else {
        NodeKind::Assign { lhs, rhs, next }
    }
}

/// Where `n` leads through `skip`s (itself if it is no `skip`; a cycle of `skip`s stops
/// where it closes).
fn past_skips(cfg: &Cfg, mut n: NodeId) -> NodeId {
    let mut seen = BTreeSet::new();
    while let NodeKind::Skip { next } = cfg.nodes[n].kind {
        if !seen.insert(n) {
            break;
        }
        n = next;
    }
    n
}

/// Turn `p`'s tests whose successors meet past `skip`s into `skip`s.
fn no_effect_tests(cfg: &mut Cfg, p: ProcId) -> usize {
    let mut changed = 0;
    for n in nodes_of(cfg, p) {
        let NodeKind::Branch { cond, then, els } = &cfg.nodes[n].kind else {
            continue;
        };
        let to = past_skips(cfg, *then);
        if to != past_skips(cfg, *els) || draws(cfg, cond) {
            continue;
        }
        cfg.nodes[n].kind = if may_stop(cond) {
            let mut guards = Vec::new();
            if !overflow_guards(cond, &mut guards) {
                continue;
            }
            NodeKind::Assume {
                cond: guards
                    .into_iter()
                    .reduce(|a, b| Expr::And(Box::new(a), Box::new(b)))
                    .expect("an overflow"),
                next: to,
            }
        } else {
            NodeKind::Skip { next: to }
        };
        changed += 1;
    }
    changed
}

/// Push to `out` the conditions under which the overflows of `e` stay in range
/// (`lo <= x && x <= hi` for each `Overflow(x)`, inner ones first); `false` if one of
/// them is evaluated only in some states (under `&&`, `||` or `? :`), where a condition
/// would end executions that never evaluate it.
fn overflow_guards(e: &Expr, out: &mut Vec<Expr>) -> bool {
    let cmp = |op, a: &Expr, b: Expr| Expr::Cmp(op, Box::new(a.clone()), Box::new(b));
    match e {
        Expr::Overflow(w, x) => {
            if !overflow_guards(x, out) {
                return false;
            }
            out.push(Expr::And(
                Box::new(cmp(CmpOp::Ge, x, Expr::Const(w.lo()))),
                Box::new(cmp(CmpOp::Le, x, Expr::Const(w.hi()))),
            ));
            true
        }
        Expr::And(a, b) | Expr::Or(a, b) => overflow_guards(a, out) && !may_stop(b),
        Expr::Cond(c, a, b) => overflow_guards(c, out) && !may_stop(a) && !may_stop(b),
        Expr::Add(a, b) | Expr::Sub(a, b) | Expr::Cmp(_, a, b) => {
            overflow_guards(a, out) && overflow_guards(b, out)
        }
        Expr::Read(_, x)
        | Expr::Scale(_, x)
        | Expr::Div(x, _)
        | Expr::Mod(x, _)
        | Expr::Wrap(_, x)
        | Expr::Not(x) => overflow_guards(x, out),
        Expr::Const(_) | Expr::Var(_) | Expr::Undef => true,
        Expr::Nondet(..) | Expr::Call(..) => false,
    }
}

/// Whether evaluating `e` may draw an input: a `u`, or a read out of its array's bounds
/// under EUREKA's rule (a CFG without bounds guards or checks).
fn draws(cfg: &Cfg, e: &Expr) -> bool {
    draws_with(
        cfg.bounds_guards.is_empty() && cfg.bounds_checks.is_empty(),
        e,
    )
}

/// [`draws`], told whether reads draw.
fn draws_with(reads_draw: bool, e: &Expr) -> bool {
    let mut found = false;
    e.visit(&mut |x| {
        found |= matches!(x, Expr::Undef) || (reads_draw && matches!(x, Expr::Read(..)))
    });
    found
}

/// Drop the assignments of dead temporaries that draw nothing: a `u` is an input of the
/// run (`lpmc run --inputs` gives them in order), and so is a read out of its array's
/// bounds under EUREKA's rule (no bounds guards or checks in the CFG).
fn dead_assignments(cfg: &mut Cfg) -> usize {
    // Only temporaries can go: their liveness alone is computed (small sets).
    let temp = |v: VarId| matches!(cfg.vars[v].kind, VarKind::Temp(_));
    let live = super::liveness::live_among(cfg, &BTreeSet::new(), temp);
    let reads_draw = cfg.bounds_guards.is_empty() && cfg.bounds_checks.is_empty();
    let mut changed = 0;
    for n in cfg.nodes.indices() {
        let Some(p) = cfg.nodes[n].proc else { continue };
        let NodeKind::Assign { lhs, rhs, next } = &cfg.nodes[n].kind else {
            continue;
        };
        let next = *next;
        let dead = |y: &VarId, e: &Expr| {
            matches!(cfg.vars[*y].kind, VarKind::Temp(q) if q == p)
                && !live[next].contains(y)
                && !may_stop(e)
                && !draws_with(reads_draw, e)
        };
        let keep: Vec<bool> = lhs.iter().zip(rhs).map(|(y, e)| !dead(y, e)).collect();
        if keep.iter().any(|k| !k) {
            cfg.nodes[n].kind = keep_pairs(lhs, rhs, next, &keep);
            changed += 1;
        }
    }
    changed
}

#[cfg(test)]
mod tests;
