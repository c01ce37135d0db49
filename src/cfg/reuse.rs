//! Reads of a cell that an earlier read already gave: the second read of `a[e]` takes the
//! first one's value (redundant load elimination), where every access is in bounds or
//! the execution has ended (`--array-bounds undefined` and `error`). In
//! `if (a[i] % 2 == 0) f(a[i]);` both reads are the same cell with the same contents,
//! but the abstraction, which reads each cell anew (as `u`, or from the partner facts of
//! a symbolic cell), would lose that they are equal. Under EUREKA's rule
//! (`--array-bounds nondet`) a read outside the bounds draws a new value each time, so
//! there the program is left as it is.
//!
//! A forward "available reads" analysis per procedure: the pair `(a, e)` (an array and an
//! index expression without reads, `u` or calls) is available at a node when every path
//! from the procedure's entry to it read `a[e]` unconditionally (not under the right
//! operand of `&&`/`||` or a branch of `?:`) with no write to `a` and no assignment to a
//! variable of `e` since (a call kills the pairs of global arrays and of indices over
//! globals). For every pair that is read where it is available, each unconditional read
//! of it becomes a temporary `t = a[e]` just before its node, and every read of the pair
//! where it is available, or after such a temporary in the same node, reads `t`.
//! Exact: the transformed program has the same executions.

use super::{Cfg, Node, NodeKind};
use crate::ids::{ArrayId, NodeId, VarId};
use crate::sema::{Expr, Range, VarInfo, VarKind};
use std::collections::{BTreeMap, BTreeSet};

/// An array and an index expression.
type Pair = (ArrayId, Expr);

/// The pairs of a program, numbered in the order of their first read (node order), so
/// that sets of them iterate deterministically.
#[derive(Default)]
struct Pairs {
    ids: std::collections::HashMap<Pair, usize>,
    list: Vec<Pair>,
}

impl Pairs {
    fn id(&mut self, p: Pair) -> usize {
        if let Some(i) = self.ids.get(&p) {
            return *i;
        }
        self.list.push(p.clone());
        self.ids.insert(p, self.list.len() - 1);
        self.list.len() - 1
    }
}

/// Whether an index expression names a cell the same way wherever its variables keep
/// their values: no reads, no `u`, no calls or nondet values.
fn plain(e: &Expr) -> bool {
    let mut ok = true;
    e.visit(&mut |x| {
        ok &= !matches!(
            x,
            Expr::Read(..) | Expr::Undef | Expr::Call(..) | Expr::Nondet(..)
        )
    });
    ok
}

/// The reads of `e` with a plain index: `(pair, unconditional)`, in evaluation order.
fn reads(e: &Expr, uncond: bool, out: &mut Vec<(Pair, bool)>) {
    match e {
        Expr::Read(a, i) => {
            reads(i, uncond, out);
            if plain(i) {
                out.push(((*a, (**i).clone()), uncond));
            }
        }
        Expr::And(x, y) | Expr::Or(x, y) => {
            reads(x, uncond, out);
            reads(y, false, out);
        }
        Expr::Cond(c, x, y) => {
            reads(c, uncond, out);
            reads(x, false, out);
            reads(y, false, out);
        }
        Expr::Add(x, y) | Expr::Sub(x, y) | Expr::Cmp(_, x, y) => {
            reads(x, uncond, out);
            reads(y, uncond, out);
        }
        Expr::Scale(_, x)
        | Expr::Div(x, _)
        | Expr::Mod(x, _)
        | Expr::Not(x)
        | Expr::Wrap(_, x)
        | Expr::Overflow(_, x) => reads(x, uncond, out),
        Expr::Call(_, args, _) => args.iter().for_each(|a| reads(a, uncond, out)),
        Expr::Const(_) | Expr::Var(_) | Expr::Undef | Expr::Nondet(..) => {}
    }
}

/// The reads of a node with a plain index, numbered: `(pair, unconditional)`.
fn node_reads(kind: &NodeKind, pairs: &mut Pairs) -> Vec<(usize, bool)> {
    let mut out = Vec::new();
    for e in kind.exprs() {
        reads(e, true, &mut out);
    }
    out.into_iter().map(|(p, u)| (pairs.id(p), u)).collect()
}

/// The variables an index uses.
fn vars_of(e: &Expr) -> BTreeSet<VarId> {
    let mut vs = BTreeSet::new();
    e.visit(&mut |x| {
        if let Expr::Var(v) = x {
            vs.insert(*v);
        }
    });
    vs
}

/// Whether executing `kind` (and, for a call, the callee) may change the cell or the
/// index of `p`.
fn kills(cfg: &Cfg, kind: &NodeKind, p: &Pair) -> bool {
    let (a, e) = p;
    match kind {
        NodeKind::Assign { lhs, .. } => {
            let vs = vars_of(e);
            lhs.iter().any(|v| vs.contains(v))
        }
        NodeKind::ArrayWrite { array, .. } | NodeKind::ArrayInit { array, .. } => array == a,
        NodeKind::Call { .. } => {
            cfg.arrays[*a].proc.is_none()
                || vars_of(e)
                    .iter()
                    .any(|v| matches!(cfg.vars[*v].kind, VarKind::Global | VarKind::Ret))
        }
        _ => false,
    }
}

/// The successor within the procedure (a call continues at its return point).
fn intra_succs(cfg: &Cfg, n: NodeId) -> Vec<NodeId> {
    match &cfg.nodes[n].kind {
        NodeKind::Call { ret_point, .. } => vec![*ret_point],
        NodeKind::Exit => Vec::new(),
        _ => cfg.succs(n),
    }
}

/// The pairs available at each node reached from its procedure's entry.
fn available(cfg: &Cfg, pairs: &mut Pairs) -> BTreeMap<NodeId, BTreeSet<usize>> {
    let mut avail: BTreeMap<NodeId, Option<BTreeSet<usize>>> = BTreeMap::new();
    let mut work: Vec<NodeId> = Vec::new();
    for p in cfg.procs.iter() {
        avail.insert(p.entry, Some(BTreeSet::new()));
        work.push(p.entry);
    }
    let entries: BTreeSet<NodeId> = cfg.procs.iter().map(|p| p.entry).collect();
    while let Some(n) = work.pop() {
        let Some(Some(inp)) = avail.get(&n).cloned() else {
            continue;
        };
        let kind = &cfg.nodes[n].kind;
        let mut out = inp;
        for (p, uncond) in node_reads(kind, pairs) {
            if uncond {
                out.insert(p);
            }
        }
        out.retain(|p| !kills(cfg, kind, &pairs.list[*p]));
        for s in intra_succs(cfg, n) {
            if s.0 == 0 || entries.contains(&s) {
                continue;
            }
            let merged = match avail.get(&s) {
                Some(Some(old)) => old.intersection(&out).cloned().collect(),
                _ => out.clone(),
            };
            if avail.get(&s) != Some(&Some(merged.clone())) {
                avail.insert(s, Some(merged));
                work.push(s);
            }
        }
    }
    avail
        .into_iter()
        .filter_map(|(n, a)| a.map(|a| (n, a)))
        .collect()
}

/// Replace the reads of the pairs in `temps` by their temporaries.
fn replace(e: &mut Expr, temps: &std::collections::HashMap<Pair, VarId>) {
    let taken = std::mem::replace(e, Expr::Undef);
    *e = taken.map_bottom_up(&mut |x| match x {
        Expr::Read(a, i) => match temps.get(&(a, (*i).clone())) {
            Some(t) => Expr::Var(*t),
            None => Expr::Read(a, i),
        },
        x => x,
    });
}

/// The program with its redundant reads taken from temporaries (see the module
/// documentation). Only for programs whose accesses are in bounds on every execution
/// that goes on (bounds guards or checks in place).
pub fn reuse_reads(cfg: &mut Cfg) {
    // Arrays whose contents the engines know exactly (set only by an initialiser list, or
    // zeroed globals never written) need no reuse: a read there is a known constant at
    // a known index. (Their reuse also made cvc5 give up on long traces: "write-chains
    // connecting two different constant arrays".)
    let unknown: BTreeSet<ArrayId> = cfg
        .nodes
        .iter()
        .filter_map(|n| match &n.kind {
            NodeKind::ArrayWrite { array, .. }
            | NodeKind::ArrayInit {
                array,
                values: None,
                ..
            } => Some(*array),
            _ => None,
        })
        .collect();
    let mut pairs = Pairs::default();
    let avail = available(cfg, &mut pairs);
    // The pairs read where they are available (or twice in one node, the first time
    // unconditionally).
    let mut reused: BTreeSet<usize> = BTreeSet::new();
    for n in cfg.nodes.indices() {
        if matches!(cfg.nodes[n].kind, NodeKind::ArrayWrite { .. }) {
            continue;
        }
        let rs = node_reads(&cfg.nodes[n].kind, &mut pairs);
        let here = avail.get(&n);
        let mut seen: BTreeSet<usize> = BTreeSet::new();
        for (p, uncond) in rs {
            let again = here.is_some_and(|a| a.contains(&p)) || seen.contains(&p);
            if again && unknown.contains(&pairs.list[p].0) {
                reused.insert(p);
            }
            if uncond {
                seen.insert(p);
            }
        }
    }
    if reused.is_empty() {
        return;
    }
    // The guard before each guard or node (the chains `instrument_bounds` built).
    let guard_before: BTreeMap<NodeId, NodeId> = cfg
        .bounds_guards
        .iter()
        .filter_map(|g| match cfg.nodes[*g].kind {
            NodeKind::Assume { next, .. } => Some((next, *g)),
            _ => None,
        })
        .collect();
    // One temporary per pair and procedure.
    let mut temp: BTreeMap<(crate::ids::ProcId, usize), VarId> = BTreeMap::new();
    let nodes: Vec<NodeId> = cfg.nodes.indices().collect();
    for n in nodes {
        let Some(proc) = cfg.nodes[n].proc else {
            continue;
        };
        // A write keeps its own reads: the abstraction relates the written cell to the
        // cell read in the same statement (a copy `b[m] = a[i]`), and loses proofs when
        // the value comes through a temporary.
        if matches!(cfg.nodes[n].kind, NodeKind::ArrayWrite { .. }) {
            continue;
        }
        let rs = node_reads(&cfg.nodes[n].kind, &mut pairs);
        let here = avail.get(&n).cloned().unwrap_or_default();
        let mut hoist: Vec<usize> = Vec::new();
        let mut using: Vec<usize> = Vec::new();
        for (p, uncond) in rs {
            if !reused.contains(&p) || using.contains(&p) {
                continue;
            }
            if here.contains(&p) {
                using.push(p);
            } else if uncond {
                hoist.push(p);
                using.push(p);
            }
        }
        if using.is_empty() {
            continue;
        }
        let span = cfg.nodes[n].span;
        let mut temps: std::collections::HashMap<Pair, VarId> = Default::default();
        for &p in &using {
            let t = match temp.get(&(proc, p)) {
                Some(t) => *t,
                None => {
                    let v = cfg.vars.push(VarInfo {
                        name: format!("#{}[]", cfg.arrays[pairs.list[p].0].name),
                        kind: VarKind::Temp(proc),
                        range: Range::Any,
                        span,
                    });
                    cfg.procs[proc].locals.push(v);
                    temp.insert((proc, p), v);
                    v
                }
            };
            temps.insert(pairs.list[p].clone(), t);
        }
        let mut kind = cfg.nodes[n].kind.clone();
        kind.exprs_mut()
            .into_iter()
            .for_each(|e| replace(e, &temps));
        if hoist.is_empty() {
            cfg.nodes[n].kind = kind;
            continue;
        }
        // The reuse rests on the hoisted reads being in bounds: their guards stay.
        let mut g = n;
        while let Some(prev) = guard_before.get(&g) {
            cfg.reuse_guards.insert(*prev);
            g = *prev;
        }
        // `t1, t2 = a[e1], b[e2]` before the node: the node's id stays at the front (every
        // edge into it stays valid), its statement moves to a new node.
        let moved = cfg.nodes.push(Node {
            proc: Some(proc),
            kind,
            span,
        });
        for set in [
            &mut cfg.bounds_guards,
            &mut cfg.reuse_guards,
            &mut cfg.bounds_checks,
            &mut cfg.overflow_checks,
        ] {
            if set.remove(&n) {
                set.insert(moved);
            }
        }
        if let NodeKind::Call { proc: callee, .. } = &cfg.nodes[moved].kind {
            for c in cfg.procs[*callee].callers.iter_mut() {
                if *c == n {
                    *c = moved;
                }
            }
        }
        let lhs = hoist.iter().map(|p| temps[&pairs.list[*p]]).collect();
        let rhs = hoist
            .iter()
            .map(|p| {
                let (a, e) = pairs.list[*p].clone();
                Expr::Read(a, Box::new(e))
            })
            .collect();
        cfg.nodes[n].kind = NodeKind::Assign {
            lhs,
            rhs,
            next: moved,
        };
    }
}
