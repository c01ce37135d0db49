//! Lowering of the resolved program to the CFG (paper §3). Statements are lowered forward:
//! each lowering step takes the dangling edges ("holes") that lead into it and returns the
//! holes that leave it; creating a node patches its incoming holes.
//!
//! This module holds the builder's state, the per-procedure driver and the primitives that
//! create nodes and patch holes; `expr` hoists effects and array reads out of
//! expressions, and `stmt` lowers statements.

mod expr;
mod stmt;

use super::{Cfg, CfgProc, Node, NodeKind};
use crate::diag::Span;
use crate::ids::{IndexVec, NodeId, ProcId, VarId};
use crate::sema::{CmpOp, Expr, Program, Range, VarInfo, VarKind};
use num_bigint::BigInt;
use std::collections::{BTreeMap, BTreeSet};
use stmt::goto_targets;

/// A successor slot of a node that is not filled yet.
#[derive(Clone, Copy, Debug)]
enum Hole {
    Next(NodeId),
    Then(NodeId),
    Else(NodeId),
}

const PENDING: NodeId = NodeId(u32::MAX);

struct LoopCtx {
    breaks: Vec<Hole>,
    continues: Vec<Hole>,
}

pub(super) struct Builder<'p> {
    prog: &'p Program,
    nodes: IndexVec<NodeId, Node>,
    vars: IndexVec<VarId, VarInfo>,
    procs: IndexVec<ProcId, CfgProc>,
    cur: ProcId,
    loops: Vec<LoopCtx>,
    /// `return` nodes of the current procedure, patched to its exit.
    pending_returns: Vec<Hole>,
    /// Labels of the current procedure that a `goto` jumps to.
    targets: BTreeSet<String>,
    /// The nodes of the labels in `targets` lowered so far.
    labels: BTreeMap<String, NodeId>,
    /// `goto`s to labels not lowered yet (forward jumps).
    pending_gotos: BTreeMap<String, Vec<Hole>>,
    /// The branches made for signed overflows under `--signed-overflow error`.
    overflow_checks: BTreeSet<NodeId>,
}

impl<'p> Builder<'p> {
    pub(super) fn build(prog: &'p Program) -> Cfg {
        let mut nodes = IndexVec::new();
        nodes.push(Node {
            proc: None,
            kind: NodeKind::Error,
            span: Span::default(),
        });
        let procs = prog
            .procs
            .iter()
            .map(|p| CfgProc {
                name: p.name.clone(),
                entry: PENDING,
                exit: PENDING,
                formals: p.formals.clone(),
                locals: p.locals.clone(),
                arrays: p.arrays.clone(),
                returns_value: p.returns_value,
                callers: Vec::new(),
            })
            .collect();
        let mut b = Builder {
            prog,
            nodes,
            vars: prog.vars.clone(),
            procs: IndexVec::from_raw(procs),
            cur: prog.main,
            loops: Vec::new(),
            pending_returns: Vec::new(),
            targets: BTreeSet::new(),
            labels: BTreeMap::new(),
            pending_gotos: BTreeMap::new(),
            overflow_checks: BTreeSet::new(),
        };
        // `main` first, so that its entry is node 1 as in the paper.
        let mut order: Vec<ProcId> = vec![prog.main];
        order.extend(prog.procs.indices().filter(|p| *p != prog.main));
        for p in order {
            b.proc(p);
        }
        let mut procs = b.procs;
        for (n, node) in b.nodes.iter_enumerated() {
            if let NodeKind::Call { proc, .. } = node.kind {
                procs[proc].callers.push(n);
            }
        }
        let mut globals: Vec<VarId> = prog.globals.iter().map(|(v, _)| *v).collect();
        globals.push(prog.ret);
        let cfg = Cfg {
            nodes: b.nodes,
            procs,
            vars: b.vars,
            arrays: prog.arrays.clone(),
            globals,
            global_arrays: prog.global_arrays.iter().map(|(a, _)| *a).collect(),
            ret: prog.ret,
            main: prog.main,
            inst_reads: Default::default(),
            overflow_checks: b.overflow_checks,
            bounds_checks: Default::default(),
            bounds_guards: Default::default(),
            reuse_guards: Default::default(),
            accel: Default::default(),
        };
        for node in cfg.nodes.iter() {
            {
                let s = &node.kind;
                let pending = match s {
                    NodeKind::Skip { next }
                    | NodeKind::Assign { next, .. }
                    | NodeKind::ArrayWrite { next, .. }
                    | NodeKind::ArrayInit { next, .. }
                    | NodeKind::Assume { next, .. } => *next == PENDING,
                    NodeKind::Branch { then, els, .. } => *then == PENDING || *els == PENDING,
                    _ => false,
                };
                assert!(
                    !pending,
                    "internal error: CFG node left without a successor: {node:?}"
                );
            }
        }
        cfg
    }

    fn proc(&mut self, p: ProcId) {
        self.cur = p;
        let info = &self.prog.procs[p];
        self.targets.clear();
        goto_targets(&info.body, &mut self.targets);
        self.labels.clear();
        let entry = self.node(NodeKind::Skip { next: PENDING }, info.span, vec![]);
        self.procs[p].entry = entry;
        let mut holes = vec![Hole::Next(entry)];
        if p == self.prog.main {
            holes = self.prologue(holes);
        }
        let body = info.body.clone();
        holes = self.stmts(&body, holes);
        if info.returns_value && !holes.is_empty() {
            // Falling off the end of a value-returning procedure returns an arbitrary value.
            holes = self.assign(vec![self.prog.ret], vec![Expr::Undef], info.span, holes);
        }
        let exit = self.node(NodeKind::Exit, info.span, holes);
        self.procs[p].exit = exit;
        // `return` statements were lowered to holes recorded as pending returns.
        let returns = std::mem::take(&mut self.pending_returns);
        for h in returns {
            self.patch(h, exit);
        }
        assert!(
            self.pending_gotos.is_empty(),
            "internal error: goto to a label that was not lowered: {:?}",
            self.pending_gotos.keys().collect::<Vec<_>>()
        );
    }

    /// A label that a `goto` jumps to now has node `n`.
    fn define_label(&mut self, name: &str, n: NodeId) {
        self.labels.insert(name.to_string(), n);
        for h in self.pending_gotos.remove(name).unwrap_or_default() {
            self.patch(h, n);
        }
    }

    /// Zero-initialise the globals (or set their initialisers), and the global arrays.
    fn prologue(&mut self, mut holes: Vec<Hole>) -> Vec<Hole> {
        let span = self.prog.procs[self.prog.main].span;
        let inits: Vec<(VarId, Expr)> = self
            .prog
            .globals
            .iter()
            .map(|(v, e)| (*v, e.clone().unwrap_or_else(|| Expr::int(0))))
            .chain(std::iter::once((self.prog.ret, Expr::int(0))))
            .collect();
        if inits
            .iter()
            .all(|(_, e)| e.vars().is_empty() && !e.has_effects())
        {
            let (l, r) = inits.into_iter().unzip();
            holes = self.assign(l, r, span, holes);
        } else {
            for (v, e) in inits {
                let e = self.pure(e, &mut holes, span);
                holes = self.assign(vec![v], vec![e], span, holes);
            }
        }
        for (a, init) in &self.prog.global_arrays {
            let values = Some(init.clone().unwrap_or_default());
            let n = self.node(
                NodeKind::ArrayInit {
                    array: *a,
                    values,
                    next: PENDING,
                },
                span,
                holes,
            );
            holes = vec![Hole::Next(n)];
        }
        holes
    }

    // ----- nodes and holes -----

    /// A branch on `cond` whose two successors are still to be patched.
    fn branch(&mut self, cond: Expr, span: Span, preds: Vec<Hole>) -> NodeId {
        let kind = NodeKind::Branch {
            cond,
            then: PENDING,
            els: PENDING,
        };
        self.node(kind, span, preds)
    }

    fn node(&mut self, mut kind: NodeKind, span: Span, mut preds: Vec<Hole>) -> NodeId {
        for (t, read) in self.split_reads(&mut kind, span) {
            preds = self.assign(vec![t], vec![read], span, preds);
        }
        let n = self.nodes.push(Node {
            proc: Some(self.cur),
            kind,
            span,
        });
        for h in preds {
            self.patch(h, n);
        }
        n
    }

    fn patch(&mut self, h: Hole, to: NodeId) {
        let (n, which) = match h {
            Hole::Next(n) => (n, 0),
            Hole::Then(n) => (n, 1),
            Hole::Else(n) => (n, 2),
        };
        let slot = match (&mut self.nodes[n].kind, which) {
            (
                NodeKind::Skip { next }
                | NodeKind::Assign { next, .. }
                | NodeKind::ArrayWrite { next, .. }
                | NodeKind::ArrayInit { next, .. }
                | NodeKind::Assume { next, .. },
                0,
            ) => next,
            (NodeKind::Branch { then, .. }, 1) => then,
            (NodeKind::Branch { els, .. }, 2) => els,
            (k, _) => panic!("internal error: cannot patch {h:?} of {k:?}"),
        };
        assert_eq!(*slot, PENDING, "internal error: successor patched twice");
        *slot = to;
    }

    fn temp(&mut self, name: &str, span: Span) -> VarId {
        let v = self.vars.push(VarInfo {
            name: name.into(),
            kind: VarKind::Temp(self.cur),
            range: Range::Any,
            span,
        });
        self.procs[self.cur].locals.push(v);
        v
    }

    fn assign(
        &mut self,
        lhs: Vec<VarId>,
        rhs: Vec<Expr>,
        span: Span,
        holes: Vec<Hole>,
    ) -> Vec<Hole> {
        let n = self.node(
            NodeKind::Assign {
                lhs,
                rhs,
                next: PENDING,
            },
            span,
            holes,
        );
        vec![Hole::Next(n)]
    }

    fn assume(&mut self, cond: Expr, span: Span, holes: Vec<Hole>) -> Vec<Hole> {
        let n = self.node(
            NodeKind::Assume {
                cond,
                next: PENDING,
            },
            span,
            holes,
        );
        vec![Hole::Next(n)]
    }

    /// `x = u` followed by the range assumption of `x`'s type.
    fn havoc(&mut self, v: VarId, span: Span, holes: Vec<Hole>) -> Vec<Hole> {
        let holes = self.assign(vec![v], vec![Expr::Undef], span, holes);
        match range_cond(self.vars[v].range, v) {
            Some(c) => self.assume(c, span, holes),
            None => holes,
        }
    }

    /// A call node and its return point; returns the call node and the holes after the
    /// return point.
    fn call(
        &mut self,
        proc: ProcId,
        args: Vec<Expr>,
        span: Span,
        holes: Vec<Hole>,
    ) -> (NodeId, Vec<Hole>) {
        let c = self.node(
            NodeKind::Call {
                proc,
                args,
                ret_point: PENDING,
            },
            span,
            holes,
        );
        let r = self.node(NodeKind::Skip { next: PENDING }, span, vec![]);
        if let NodeKind::Call { ret_point, .. } = &mut self.nodes[c].kind {
            *ret_point = r;
        }
        (c, vec![Hole::Next(r)])
    }
}

/// The assumption a variable's range imposes, if any.
pub(crate) fn range_cond(range: Range, v: VarId) -> Option<Expr> {
    let x = || Box::new(Expr::Var(v));
    match range {
        Range::Any => None,
        Range::NonNegative => Some(Expr::Cmp(
            CmpOp::Ge,
            x(),
            Box::new(Expr::Const(BigInt::from(0))),
        )),
        Range::Int(w) => Some(Expr::And(
            Box::new(Expr::Cmp(CmpOp::Ge, x(), Box::new(Expr::Const(w.lo())))),
            Box::new(Expr::Cmp(CmpOp::Le, x(), Box::new(Expr::Const(w.hi())))),
        )),
        Range::Bool => Some(Expr::And(
            Box::new(Expr::Cmp(CmpOp::Ge, x(), Box::new(Expr::int(0)))),
            Box::new(Expr::Cmp(CmpOp::Le, x(), Box::new(Expr::int(1)))),
        )),
    }
}
