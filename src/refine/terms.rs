//! Cells at index terms of the ghost: where a test of a spurious trace compares two arrays
//! (or one array twice) at index terms linear in one variable, `a[x]` and `b[2x+1]`,
//! `a[x]` and `b[999-x]`, the cell of the second array at that term of the ghost
//! (`b_{2k+1}` beside `a_k`) relates the two reads when the ghost is at the first one. The abstraction keeps such a cell exactly (see
//! [`crate::abstraction`]); the refinement only chooses which.

use crate::abstraction::Precision;
use crate::cfg::{Cfg, NodeKind};
use crate::ids::{ArrayId, NodeId};
use crate::sema::{Affine, Expr};
use crate::trace::Trace;
use std::collections::BTreeSet;

/// The array accesses of node `n`: its reads, and the index of an array write.
fn accesses(cfg: &Cfg, n: NodeId) -> Vec<(ArrayId, Expr)> {
    let mut out = Vec::new();
    let mut reads = |e: &Expr| {
        e.visit(&mut |x| {
            if let Expr::Read(a, i) = x {
                out.push((*a, (**i).clone()));
            }
        })
    };
    match &cfg.nodes[n].kind {
        NodeKind::Assign { rhs, .. } => rhs.iter().for_each(&mut reads),
        NodeKind::Call { args, .. } => args.iter().for_each(&mut reads),
        NodeKind::Branch { cond, .. } | NodeKind::Assume { cond, .. } => reads(cond),
        NodeKind::ArrayWrite {
            array,
            index,
            value,
            ..
        } => {
            reads(index);
            reads(value);
            out.push((*array, index.clone()));
        }
        _ => {}
    }
    out
}

/// The node that uses a read hoisted out of it (`#read = b[c]`), past skips and bounds
/// guards; `None` if `n` is no such read.
fn hoisted_into(cfg: &Cfg, n: NodeId) -> Option<NodeId> {
    let NodeKind::Assign { lhs, rhs, next } = &cfg.nodes[n].kind else {
        return None;
    };
    let ([t], [Expr::Read(..)]) = (lhs.as_slice(), rhs.as_slice()) else {
        return None;
    };
    if !cfg.vars[*t].name.starts_with("#read") {
        return None;
    }
    Some(crate::abstraction::past_guards(cfg, *next))
}

/// `e` as `α·x + β` with `α = ±1`: `(x, α, β)`.
fn unit_in_one(e: &Affine) -> Option<(crate::ids::VarId, i64, i64)> {
    match e.0.iter().collect::<Vec<_>>()[..] {
        [(x, c @ (1 | -1))] => Some((*x, *c, e.1)),
        _ => None,
    }
}

/// The term `coef·k + offset` at which `e2` lies when the ghost `k` is at `e1`, both
/// linear in the same one variable, `e1` with a unit coefficient; `None` otherwise, or
/// when it is the ghost itself.
fn term_of(e1: &Affine, e2: &Affine) -> Option<(i64, i64)> {
    let (x, alpha, beta) = unit_in_one(e1)?;
    let gamma = match e2.0.iter().collect::<Vec<_>>()[..] {
        [(y, c)] if *y == x => *c,
        _ => return None,
    };
    // k = α·x + β, so x = α·(k − β) and e2 = γ·x + δ = γα·k + (δ − γαβ).
    let coef = gamma.checked_mul(alpha)?;
    let offset = e2.1.checked_sub(coef.checked_mul(beta)?)?;
    ((coef, offset) != (1, 0)).then_some((coef, offset))
}

/// Add to `precision` a cell at an index term of the ghost for each pair of accesses to
/// arrays with a symbolic cell, at one test of trace `t` (a read hoisted out of it counts
/// as the test's), whose indices are linear in one variable: the evidence is the trace's
/// own index terms. Returns the cells added, as `(array, coef, offset)`.
pub fn add_term_cells(cfg: &Cfg, t: &Trace, precision: &mut Precision) -> Vec<(ArrayId, i64, i64)> {
    let nodes: BTreeSet<NodeId> = t
        .path
        .iter()
        .copied()
        .filter(|n| cfg.nodes.get(*n).is_some())
        .collect();
    let mut new = Vec::new();
    let compares = |n: NodeId| {
        matches!(
            cfg.nodes[n].kind,
            NodeKind::Branch { .. } | NodeKind::Assume { .. }
        )
    };
    let symbolic = |acc: Vec<(ArrayId, Expr)>, precision: &Precision| -> Vec<(ArrayId, Affine)> {
        acc.into_iter()
            .filter(|(a, _)| precision.is_symbolic(*a))
            .filter_map(|(a, e)| Some((a, e.affine()?)))
            .collect()
    };
    for &n in &nodes {
        // Only a test compares two cells (a copy relates them through the cells the test
        // needs, and an instantiated read often suffices for it); its reads at another
        // index than the first are hoisted out of it. The ghost is at the test's own read
        // (the read rule instantiates it there) and the cell at the hoisted read's term,
        // where the read rule binds it ([`crate::cfg::TermBind`]).
        let Some(user) = hoisted_into(cfg, n).filter(|u| compares(*u)) else {
            continue;
        };
        let own = symbolic(accesses(cfg, user), precision);
        let hoisted = symbolic(accesses(cfg, n), precision);
        for (_, e1) in &own {
            for (b, e2) in &hoisted {
                if let Some((coef, offset)) = term_of(e1, e2) {
                    if precision.add_term(*b, coef, offset) {
                        new.push((*b, coef, offset));
                    }
                }
            }
        }
    }
    new
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ids::VarId;
    use std::collections::BTreeMap;

    fn aff(x: u32, c: i64, d: i64) -> Affine {
        Affine(BTreeMap::from([(VarId(x), c)]), d)
    }

    #[test]
    fn the_term_puts_the_second_index_at_the_ghost_placed_at_the_first() {
        // a[j], b[2j+1]: k = j, so b at 2k+1.
        assert_eq!(term_of(&aff(0, 1, 0), &aff(0, 2, 1)), Some((2, 1)));
        // b[i], a[99999-i]: a at 99999-k; and the other way round, b at 99999-k.
        assert_eq!(
            term_of(&aff(0, 1, 0), &aff(0, -1, 99999)),
            Some((-1, 99999))
        );
        assert_eq!(
            term_of(&aff(0, -1, 99999), &aff(0, 1, 0)),
            Some((-1, 99999))
        );
        // a[i+1], b[i]: k = i+1, b at k-1.
        assert_eq!(term_of(&aff(0, 1, 1), &aff(0, 1, 0)), Some((1, -1)));
        // The same index is the ghost's own cell; a stride on the first index or another
        // variable gives no term.
        assert_eq!(term_of(&aff(0, 1, 0), &aff(0, 1, 0)), None);
        assert_eq!(term_of(&aff(0, 2, 0), &aff(0, 1, 0)), None);
        assert_eq!(term_of(&aff(0, 1, 0), &aff(1, 1, 0)), None);
    }
}
