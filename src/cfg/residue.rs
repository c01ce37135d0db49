//! The residue class of the indices at which some arrays are accessed: a forward analysis
//! of Granger's congruences per variable ([`Cong`]), procedure by procedure. A loop
//! `for (i = 0; i < n; i += 2) a[i] = …` accesses `a` only at even indices; a ghost index
//! that ranges over that class alone (`k ≡ 0 (mod 2)`) then keeps the facts the proof
//! needs, which a ghost at every index cannot (the cells at odd indices are never
//! written).
//!
//! The analysis is sound for every run: at each procedure's entry every variable is any
//! integer (parameters, uninitialised locals, and globals, which other procedures may
//! have changed), after a call so is every variable the caller does not own (the callee
//! may write globals and the return value), and an assignment gives its target the
//! congruence of its right-hand side (any integer for what is not linear: a read, a
//! nondeterministic value, a division, a wrap-around). Branches and assumptions pass
//! their state on unchanged.

use super::{Cfg, NodeKind};
use crate::ids::{ArrayId, Idx, NodeId};
use crate::linear::Cong;
use crate::sema::Expr;
use num_bigint::BigInt;
use std::collections::{BTreeSet, VecDeque};

/// The congruence of each variable (indexed by `VarId`).
type State = Vec<Cong>;

/// The class `r (mod m)` (with `m ≥ 2`) of every index at which a run accesses one of
/// `arrays`, when there is one; `None` when the indices may be any integer (or there is
/// no access).
pub fn index_residue(cfg: &Cfg, arrays: &BTreeSet<ArrayId>) -> Option<Cong> {
    let states = analyse(cfg);
    let mut class: Option<Cong> = None;
    for (n, node) in cfg.nodes.iter_enumerated() {
        let Some(st) = &states[n.index()] else {
            continue;
        };
        let mut found: Vec<Cong> = Vec::new();
        if let NodeKind::ArrayWrite { array, index, .. } = &node.kind {
            if arrays.contains(array) {
                found.push(cong_of(index, st));
            }
        }
        for e in node_exprs(&node.kind) {
            e.visit(&mut |x| {
                if let Expr::Read(a, i) = x {
                    if arrays.contains(a) {
                        found.push(cong_of(i, st));
                    }
                }
            });
        }
        for c in found {
            let joined = match class {
                None => c,
                Some(k) => k.join(&c),
            };
            if joined.is_top() {
                return None;
            }
            class = Some(joined);
        }
    }
    // A constant index alone (m = 0) is no class to range over.
    class.filter(|c| c.m >= BigInt::from(2))
}

/// The expressions a node evaluates.
fn node_exprs(k: &NodeKind) -> Vec<&Expr> {
    match k {
        NodeKind::Assign { rhs, .. } => rhs.iter().collect(),
        NodeKind::Branch { cond, .. } | NodeKind::Assume { cond, .. } => vec![cond],
        NodeKind::Call { args, .. } => args.iter().collect(),
        NodeKind::ArrayWrite { index, value, .. } => vec![index, value],
        NodeKind::ArrayInit {
            values: Some(vs), ..
        } => vs.iter().collect(),
        _ => Vec::new(),
    }
}

/// The congruence of `e` in state `st` (any integer where `e` is not linear).
fn cong_of(e: &Expr, st: &State) -> Cong {
    match e {
        Expr::Const(c) => Cong::constant(c.clone()),
        Expr::Var(v) => st[v.index()].clone(),
        Expr::Add(a, b) => cong_of(a, st).add(&cong_of(b, st)),
        Expr::Sub(a, b) => cong_of(a, st).add(&cong_of(b, st).scale(&BigInt::from(-1))),
        Expr::Scale(c, a) => cong_of(a, st).scale(c),
        // An arithmetic check of signed overflow keeps the value (a run that overflows
        // stops).
        Expr::Overflow(_, a) => cong_of(a, st),
        _ => Cong::top(),
    }
}

/// The state before each node (`None`: unreached), indexed by `NodeId`.
fn analyse(cfg: &Cfg) -> Vec<Option<State>> {
    let nvars = cfg.vars.len();
    let top: State = vec![Cong::top(); nvars];
    let mut states: Vec<Option<State>> = vec![None; cfg.nodes.len()];
    let mut work: VecDeque<NodeId> = VecDeque::new();
    for p in cfg.procs.iter() {
        states[p.entry.index()] = Some(top.clone());
        work.push_back(p.entry);
    }
    while let Some(n) = work.pop_front() {
        let Some(st) = states[n.index()].clone() else {
            continue;
        };
        let node = &cfg.nodes[n];
        let outs: Vec<(NodeId, State)> = match &node.kind {
            NodeKind::Assign { lhs, rhs, next } => {
                let vals: Vec<Cong> = rhs.iter().map(|e| cong_of(e, &st)).collect();
                let mut s = st;
                for (v, c) in lhs.iter().zip(vals) {
                    s[v.index()] = c;
                }
                vec![(*next, s)]
            }
            NodeKind::Call { ret_point, .. } => {
                let mut s = st;
                for (v, info) in cfg.vars.iter_enumerated() {
                    if info.kind.proc() != node.proc || info.kind.proc().is_none() {
                        s[v.index()] = Cong::top();
                    }
                }
                vec![(*ret_point, s)]
            }
            NodeKind::Exit => Vec::new(),
            _ => cfg.succs(n).into_iter().map(|m| (m, st.clone())).collect(),
        };
        for (m, s) in outs {
            let joined = match &states[m.index()] {
                None => s,
                Some(old) => old.iter().zip(&s).map(|(a, b)| a.join(b)).collect(),
            };
            if states[m.index()].as_ref() != Some(&joined) {
                states[m.index()] = Some(joined);
                work.push_back(m);
            }
        }
    }
    states
}

#[cfg(test)]
mod tests {
    use super::*;

    fn residue_of(src: &str, array: &str) -> Option<(i64, i64)> {
        let file = crate::diag::SourceFile::new("t.c", src);
        let ast = crate::syntax::parse(&file).expect("parses");
        let opts = crate::sema::SemaOptions {
            int_model: crate::sema::IntModel::C,
            ..Default::default()
        };
        let a = crate::sema::analyze_with(&ast, &opts).expect("resolves");
        let cfg = &crate::cfg::Cfg::build(&a.program);
        let a = cfg
            .arrays
            .iter_enumerated()
            .find(|(_, x)| x.name == array)
            .map(|(a, _)| a)
            .expect("the array");
        index_residue(cfg, &BTreeSet::from([a])).map(|c| {
            (
                i64::try_from(&c.r).expect("small"),
                i64::try_from(&c.m).expect("small"),
            )
        })
    }

    #[test]
    fn a_stride_two_loop_accesses_even_indices() {
        let src = "int main() { int a[100]; int i; \
                   for (i = 0; i < 100; i = i + 2) a[i] = 1; \
                   for (i = 0; i < 100; i += 2) if (a[i] != 1) return 1; return 0; }";
        assert_eq!(residue_of(src, "a"), Some((0, 2)));
    }

    #[test]
    fn an_odd_start_and_a_stride_of_four() {
        let src = "int main() { int a[100]; int i; \
                   for (i = 1; i < 100; i = i + 4) a[i] = 1; return 0; }";
        assert_eq!(residue_of(src, "a"), Some((1, 4)));
        // Two loops of stride 4 from 1 and from 3 meet in the odd indices.
        let src = "int main() { int a[100]; int i; \
                   for (i = 1; i < 100; i = i + 4) a[i] = 1; \
                   for (i = 3; i < 100; i = i + 4) a[i] = 2; return 0; }";
        assert_eq!(residue_of(src, "a"), Some((1, 2)));
    }

    #[test]
    fn any_index_where_a_step_of_one_or_an_input_reaches() {
        let src = "int main() { int a[100]; int i; \
                   for (i = 0; i < 100; i = i + 2) a[i] = 1; \
                   for (i = 0; i < 100; i++) a[i] = 2; return 0; }";
        assert_eq!(residue_of(src, "a"), None);
        let src = "extern int __VERIFIER_nondet_int(void); \
                   int main() { int a[100]; int i = 2 * __VERIFIER_nondet_int(); \
                   if (i >= 0 && i < 100) a[i] = 1; int j; a[j] = 3; return 0; }";
        assert_eq!(residue_of(src, "a"), None);
    }

    #[test]
    fn a_call_may_change_a_global_index() {
        let src = "int g; void f() { g = g + 1; } \
                   int main() { int a[100]; g = 0; f(); a[g] = 1; \
                   g = 4; a[g] = 2; return 0; }";
        assert_eq!(residue_of(src, "a"), None);
        let src = "int g; void f() { } \
                   int main() { int a[100]; int i = 0; f(); a[i] = 1; \
                   i = 4; a[i] = 2; return 0; }";
        assert_eq!(residue_of(src, "a"), Some((0, 4)));
    }
}
