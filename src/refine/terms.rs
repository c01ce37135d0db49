//! Cells at index terms of the ghost: where a test of a spurious trace compares two arrays
//! (or one array twice) at index terms linear in one variable, `a[x]` and `b[2x+1]`,
//! `a[x]` and `b[999-x]`, the cell of the second array at that term of the ghost
//! (`b_{2k+1}` beside `a_k`) relates the two reads when the ghost is at the first one. The abstraction keeps such a cell exactly (see
//! [`crate::abstraction`]); the refinement only chooses which.

use crate::abstraction::Precision;
use crate::cfg::{Cfg, NodeKind};
use crate::ids::{ArrayId, NodeId};
use crate::sema::{Affine, Expr, IndexTerm};
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

/// The term of the ghost at which `e2` lies when the ghost is at `e1`
/// ([`IndexTerm::relating`]).
fn term_of(e1: &Affine, e2: &Affine) -> Option<IndexTerm> {
    IndexTerm::relating(e1, e2)
}

/// Whether a cell of `a` at a term over variable `v` stays what it names wherever it is
/// used: every assignment to `v` is where the cell is in scope (the abstraction makes the
/// cell arbitrary there), so `v` is a global with `a` global, or a variable of the
/// procedure `a` belongs to; or `v` is a variable of the entry procedure, which nothing
/// calls, and every access of a global `a` is in it.
fn term_var_ok(cfg: &Cfg, a: ArrayId, v: crate::ids::VarId) -> bool {
    let (vp, ap) = (cfg.vars[v].kind.proc(), cfg.arrays[a].proc);
    match (vp, ap) {
        (None, None) => true,
        (Some(p), Some(q)) => p == q,
        (None, Some(_)) => false,
        (Some(p), None) => {
            let called = cfg
                .nodes
                .iter()
                .any(|n| matches!(n.kind, NodeKind::Call { proc, .. } if proc == p));
            !called
                && cfg
                    .nodes
                    .indices()
                    .filter(|n| accesses(cfg, *n).iter().any(|(b, _)| *b == a))
                    .all(|n| cfg.nodes[n].proc == Some(p))
        }
    }
}

/// Add to `precision` a cell at an index term of the ghost for each pair of accesses to
/// arrays with a symbolic cell, at one test of trace `t` (a read hoisted out of it counts
/// as the test's), whose indices are linear in one variable: the evidence is the trace's
/// own index terms. Returns the cells added.
pub fn add_term_cells(
    cfg: &Cfg,
    t: &Trace,
    precision: &mut Precision,
) -> Vec<(ArrayId, IndexTerm)> {
    let nodes = trace_nodes(cfg, t);
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
                add_term(cfg, precision, e1, *b, e2, &mut new);
            }
        }
    }
    new
}

/// The nodes of trace `t` that are nodes of `cfg`.
fn trace_nodes(cfg: &Cfg, t: &Trace) -> BTreeSet<NodeId> {
    t.path
        .iter()
        .copied()
        .filter(|n| cfg.nodes.get(*n).is_some())
        .collect()
}

/// Add to `precision` the cell of `b` at the term where index `e2` lies when the ghost is
/// at index `e1`, if there is one and it is in scope wherever its variable changes
/// ([`term_var_ok`]); pushed on `new` if it is new.
fn add_term(
    cfg: &Cfg,
    precision: &mut Precision,
    e1: &Affine,
    b: ArrayId,
    e2: &Affine,
    new: &mut Vec<(ArrayId, IndexTerm)>,
) {
    let Some(t) = term_of(e1, e2) else { return };
    if t.by.is_some_and(|(v, _)| !term_var_ok(cfg, b, v)) {
        return;
    }
    if precision.add_term(b, t) {
        new.push((b, t));
    }
}

/// Add to `precision` a cell at an index term of the ghost for each copy of trace `t`
/// between arrays with a symbolic cell (`a[i] = b[i+1]`) whose indices are linear in one
/// variable: the ghost at the write's index (the write updates `a_k` there), the cell at
/// the read's term (`b_{k+1}`), so that the written cell's value is a cell too. For the
/// traces whose tests' terms ([`add_term_cells`]) put the ghost elsewhere: `b[x+1] ==
/// a[x]` puts it at `x + 1`, with `a_{k-1}`, and the copy of `b[i+1]` into `a[i]` at `i ==
/// k` then reads a partner's `b[k+1]`. Returns the cells added.
pub fn add_copy_term_cells(
    cfg: &Cfg,
    t: &Trace,
    precision: &mut Precision,
) -> Vec<(ArrayId, IndexTerm)> {
    let mut new = Vec::new();
    for n in trace_nodes(cfg, t) {
        let NodeKind::ArrayWrite {
            array,
            index,
            value,
            ..
        } = &cfg.nodes[n].kind
        else {
            continue;
        };
        let Some(e1) = index.affine().filter(|_| precision.is_symbolic(*array)) else {
            continue;
        };
        let mut reads = Vec::new();
        value.visit(&mut |x| {
            if let Expr::Read(b, i) = x {
                reads.push((*b, (**i).clone()));
            }
        });
        for (b, e2) in reads {
            if let Some(e2) = e2.affine().filter(|_| precision.is_symbolic(b)) {
                add_term(cfg, precision, &e1, b, &e2, &mut new);
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

    fn t(coef: i64, offset: i64) -> Option<IndexTerm> {
        Some(IndexTerm {
            coef,
            offset,
            by: None,
        })
    }

    #[test]
    fn the_term_puts_the_second_index_at_the_ghost_placed_at_the_first() {
        // a[j], b[2j+1]: k = j, so b at 2k+1.
        assert_eq!(term_of(&aff(0, 1, 0), &aff(0, 2, 1)), t(2, 1));
        // b[i], a[99999-i]: a at 99999-k; and the other way round, b at 99999-k.
        assert_eq!(term_of(&aff(0, 1, 0), &aff(0, -1, 99999)), t(-1, 99999));
        assert_eq!(term_of(&aff(0, -1, 99999), &aff(0, 1, 0)), t(-1, 99999));
        // a[i+1], b[i]: k = i+1, b at k-1.
        assert_eq!(term_of(&aff(0, 1, 1), &aff(0, 1, 0)), t(1, -1));
        // a[2x], a[2x+1]: k = 2x, a at k+1; a[2x+1], a[4x]: k = 2x+1, a at 2k-2.
        assert_eq!(term_of(&aff(0, 2, 0), &aff(0, 2, 1)), t(1, 1));
        assert_eq!(term_of(&aff(0, 2, 1), &aff(0, 4, 0)), t(2, -2));
        // The same index is the ghost's own cell; a coefficient on the first index that
        // does not divide the second's, or another variable, gives no term.
        assert_eq!(term_of(&aff(0, 1, 0), &aff(0, 1, 0)), None);
        assert_eq!(term_of(&aff(0, 2, 0), &aff(0, 1, 0)), None);
        assert_eq!(term_of(&aff(0, 2, 0), &aff(0, 3, 0)), None);
        assert_eq!(term_of(&aff(0, 1, 0), &aff(1, 1, 0)), None);
    }

    #[test]
    fn a_copy_gives_the_cell_at_its_read_term_of_the_ghost_at_its_write() {
        let src = "void main() { int a[100], b[100], c[100]; int i, n, x;
                   n = u; i = 0;
                   while (i < n) { a[i] = b[i + 1]; c[2 * i] = a[i]; c[i] = b[i]; i = i + 1; }
                   x = u; assert(b[x + 1] == a[x]); }";
        let cfg = crate::frontend::load(crate::SourceFile::new("t.lp", src))
            .unwrap_or_else(|e| panic!("{}", e.render(false)))
            .cfg;
        let trace = Trace {
            path: cfg.nodes.indices().collect(),
        };
        let name = |(a, t): &(ArrayId, IndexTerm)| crate::abstraction::term_cell_name(&cfg, *a, t);
        // Without symbolic cells, no copy relates cells.
        let mut precision = Precision::empty();
        assert!(add_copy_term_cells(&cfg, &trace, &mut precision).is_empty());
        for a in cfg.arrays.indices() {
            precision.add_symbolic(a);
        }
        // `a[i] = b[i+1]`: b at k+1; `c[2i] = a[i]`: from c's ghost at 2i, a at 2k would
        // need 2 to divide 1: none; `c[i] = b[i]`: the ghost's own cell.
        let new: Vec<String> = add_copy_term_cells(&cfg, &trace, &mut precision)
            .iter()
            .map(name)
            .collect();
        assert_eq!(new, vec!["b[k+1]".to_string()]);
        // Added once.
        assert!(add_copy_term_cells(&cfg, &trace, &mut precision).is_empty());
    }

    #[test]
    fn a_term_may_have_one_variable_besides_the_ghost() {
        // a[x], b[n-1-x] (x = v0, n = v1): b at n-1-k; and from b[n-1-x], a at n-1-k.
        let rev = Affine(BTreeMap::from([(VarId(0), -1), (VarId(1), 1)]), -1);
        let n_1_k = Some(IndexTerm {
            coef: -1,
            offset: -1,
            by: Some((VarId(1), 1)),
        });
        assert_eq!(term_of(&aff(0, 1, 0), &rev), n_1_k);
        assert_eq!(term_of(&rev, &aff(0, 1, 0)), n_1_k);
        // a[x], b[x+n+m]: two variables besides the ghost, no term.
        let two = Affine(
            BTreeMap::from([(VarId(0), 1), (VarId(1), 1), (VarId(2), 1)]),
            0,
        );
        assert_eq!(term_of(&aff(0, 1, 0), &two), None);
    }
}
