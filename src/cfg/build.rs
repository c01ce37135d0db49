//! Lowering of the resolved program to the CFG (paper §3). Statements are lowered forward:
//! each lowering step takes the dangling edges ("holes") that lead into it and returns the
//! holes that leave it; creating a node patches its incoming holes.

use super::{Cfg, CfgProc, Node, NodeKind, ERROR_NODE};
use crate::diag::Span;
use crate::ids::{IndexVec, NodeId, ProcId, VarId};
use crate::sema::{
    ArraySize, CmpOp, Expr, LValue, Program, Range, Stmt, StmtKind, VarInfo, VarKind,
};
use num_bigint::BigInt;
use std::collections::{BTreeMap, BTreeSet};

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

    /// A node whose expressions read arrays at two or more different indices keeps the
    /// reads at the first index; every other read that C evaluates unconditionally (not
    /// under `?:`, nor the right operand of `&&`, `||`) moves to a temporary assigned just
    /// before the node. The semantics is unchanged (a read has no effect, its index and
    /// the arrays are those of the node's pre-state, an out-of-range read still draws its
    /// own arbitrary value), but each node then reads at one index, which is what the read
    /// rule of symbolic cells instantiates (one index per node, as in `a[j1] <= a[j2]`).
    /// Returns the temporaries with the reads they take, in evaluation order.
    fn split_reads(&mut self, kind: &mut NodeKind, span: Span) -> Vec<(VarId, Expr)> {
        let exprs: Vec<&mut Expr> = match kind {
            NodeKind::Assign { rhs, .. } => rhs.iter_mut().collect(),
            NodeKind::ArrayWrite { index, value, .. } => vec![index, value],
            NodeKind::Branch { cond, .. } | NodeKind::Assume { cond, .. } => vec![cond],
            NodeKind::Call { args, .. } => args.iter_mut().collect(),
            _ => return Vec::new(),
        };
        let mut first = None;
        let mut several = false;
        for e in &exprs {
            e.visit(&mut |x| {
                if let Expr::Read(_, i) = x {
                    match &first {
                        None => first = Some((**i).clone()),
                        Some(f) => several |= f != &**i,
                    }
                }
            });
        }
        let Some(first) = first.filter(|_| several) else {
            return Vec::new();
        };
        let mut hoisted = Vec::new();
        for e in exprs {
            let old = std::mem::replace(e, Expr::Undef);
            *e = self.hoist_reads(old, &first, &mut hoisted, span);
        }
        hoisted
    }

    /// `e` with its unconditionally evaluated reads at an index other than `first` (and
    /// with no read in the index) replaced by fresh temporaries, recorded in `out`.
    fn hoist_reads(
        &mut self,
        e: Expr,
        first: &Expr,
        out: &mut Vec<(VarId, Expr)>,
        span: Span,
    ) -> Expr {
        let bx = Box::new;
        match e {
            Expr::Read(a, i) => {
                let mut nested = false;
                i.visit(&mut |x| nested |= matches!(x, Expr::Read(..)));
                if nested || *i == *first {
                    return Expr::Read(a, i);
                }
                let t = self.temp("#read", span);
                self.vars[t].range = self.prog.arrays[a].range;
                out.push((t, Expr::Read(a, i)));
                Expr::Var(t)
            }
            Expr::Add(x, y) => {
                let x = self.hoist_reads(*x, first, out, span);
                Expr::Add(bx(x), bx(self.hoist_reads(*y, first, out, span)))
            }
            Expr::Sub(x, y) => {
                let x = self.hoist_reads(*x, first, out, span);
                Expr::Sub(bx(x), bx(self.hoist_reads(*y, first, out, span)))
            }
            Expr::Cmp(op, x, y) => {
                let x = self.hoist_reads(*x, first, out, span);
                Expr::Cmp(op, bx(x), bx(self.hoist_reads(*y, first, out, span)))
            }
            Expr::Scale(c, x) => Expr::Scale(c, bx(self.hoist_reads(*x, first, out, span))),
            Expr::Div(x, c) => Expr::Div(bx(self.hoist_reads(*x, first, out, span)), c),
            Expr::Mod(x, c) => Expr::Mod(bx(self.hoist_reads(*x, first, out, span)), c),
            Expr::Wrap(w, x) => Expr::Wrap(w, bx(self.hoist_reads(*x, first, out, span))),
            Expr::Not(x) => Expr::Not(bx(self.hoist_reads(*x, first, out, span))),
            // Only the first operand of `&&`, `||` and the condition of `?:` are always
            // evaluated.
            Expr::And(x, y) => Expr::And(bx(self.hoist_reads(*x, first, out, span)), y),
            Expr::Or(x, y) => Expr::Or(bx(self.hoist_reads(*x, first, out, span)), y),
            Expr::Cond(c, x, y) => Expr::Cond(bx(self.hoist_reads(*c, first, out, span)), x, y),
            e => e,
        }
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

    /// Hoist the calls and ranged nondet values out of `e` (in evaluation order), emitting
    /// their nodes after `holes`, and return the remaining side-effect-free expression.
    /// Effects under `&&`, `||` and `?:` are lowered with branches, so they happen only
    /// when C evaluates them.
    fn pure(&mut self, e: Expr, holes: &mut Vec<Hole>, span: Span) -> Expr {
        if !e.has_effects() {
            return e;
        }
        let bx = Box::new;
        match e {
            Expr::Call(proc, args, cspan) => {
                let args: Vec<Expr> = args
                    .into_iter()
                    .map(|a| self.pure(a, holes, cspan))
                    .collect();
                let t = self.temp(&format!("{}#result", self.prog.procs[proc].name), cspan);
                let (_, h) = self.call(proc, args, cspan, std::mem::take(holes));
                *holes = self.assign(vec![t], vec![Expr::Var(self.prog.ret)], cspan, h);
                Expr::Var(t)
            }
            Expr::Overflow(w, a) => {
                // t = a; assert(lo <= t <= hi): a signed overflow is an error location.
                let a = self.pure(*a, holes, span);
                let t = self.temp("#checked", span);
                let h = self.assign(vec![t], vec![a], span, std::mem::take(holes));
                let fits = range_cond(Range::Int(w), t).unwrap_or(Expr::int(1));
                let br = self.node(
                    NodeKind::Branch {
                        cond: fits,
                        then: PENDING,
                        els: ERROR_NODE,
                    },
                    span,
                    h,
                );
                *holes = vec![Hole::Then(br)];
                Expr::Var(t)
            }
            Expr::Nondet(range, nspan) => {
                let t = self.temp("#nondet", nspan);
                self.vars[t].range = range;
                *holes = self.havoc(t, nspan, std::mem::take(holes));
                Expr::Var(t)
            }
            Expr::And(a, b) if b.has_effects() => self.short_circuit(*a, *b, true, holes, span),
            Expr::Or(a, b) if b.has_effects() => self.short_circuit(*a, *b, false, holes, span),
            Expr::Cond(c, x, y) if x.has_effects() || y.has_effects() => {
                let c = self.pure(*c, holes, span);
                let t = self.temp("#cond", span);
                let br = self.node(
                    NodeKind::Branch {
                        cond: c,
                        then: PENDING,
                        els: PENDING,
                    },
                    span,
                    std::mem::take(holes),
                );
                let mut th = vec![Hole::Then(br)];
                let xv = self.pure(*x, &mut th, span);
                let mut out = self.assign(vec![t], vec![xv], span, th);
                let mut el = vec![Hole::Else(br)];
                let yv = self.pure(*y, &mut el, span);
                out.extend(self.assign(vec![t], vec![yv], span, el));
                *holes = out;
                Expr::Var(t)
            }
            Expr::Read(a, i) => Expr::Read(a, bx(self.pure(*i, holes, span))),
            Expr::Add(a, b) => {
                let a = self.pure(*a, holes, span);
                Expr::Add(bx(a), bx(self.pure(*b, holes, span)))
            }
            Expr::Sub(a, b) => {
                let a = self.pure(*a, holes, span);
                Expr::Sub(bx(a), bx(self.pure(*b, holes, span)))
            }
            Expr::Scale(c, a) => Expr::Scale(c, bx(self.pure(*a, holes, span))),
            Expr::Div(a, c) => Expr::Div(bx(self.pure(*a, holes, span)), c),
            Expr::Mod(a, c) => Expr::Mod(bx(self.pure(*a, holes, span)), c),
            Expr::Wrap(w, a) => Expr::Wrap(w, bx(self.pure(*a, holes, span))),
            Expr::Cmp(op, a, b) => {
                let a = self.pure(*a, holes, span);
                Expr::Cmp(op, bx(a), bx(self.pure(*b, holes, span)))
            }
            Expr::Not(a) => Expr::Not(bx(self.pure(*a, holes, span))),
            Expr::And(a, b) => {
                let a = self.pure(*a, holes, span);
                Expr::And(bx(a), b)
            }
            Expr::Or(a, b) => {
                let a = self.pure(*a, holes, span);
                Expr::Or(bx(a), b)
            }
            Expr::Cond(c, x, y) => Expr::Cond(bx(self.pure(*c, holes, span)), x, y),
            e @ (Expr::Const(_) | Expr::Var(_) | Expr::Undef) => e,
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

    // ----- statements -----

    fn stmts(&mut self, ss: &[Stmt], mut holes: Vec<Hole>) -> Vec<Hole> {
        for s in ss {
            holes = self.stmt(s, holes);
        }
        holes
    }

    fn stmt(&mut self, s: &Stmt, mut holes: Vec<Hole>) -> Vec<Hole> {
        let span = s.span;
        match &s.kind {
            StmtKind::Assign(pairs) => {
                let mut rhs = Vec::new();
                let mut targets = Vec::new();
                for (l, r) in pairs {
                    let l = match l {
                        LValue::Var(v) => LValue::Var(*v),
                        LValue::Elem(a, i) => {
                            LValue::Elem(*a, self.pure(i.clone(), &mut holes, span))
                        }
                    };
                    targets.push(l);
                    rhs.push(self.pure(r.clone(), &mut holes, span));
                }
                self.store(targets, rhs, span, holes)
            }
            StmtKind::Call { dest, proc, args } => {
                let args = args
                    .iter()
                    .map(|a| self.pure(a.clone(), &mut holes, span))
                    .collect();
                let (_, holes) = self.call(*proc, args, span, holes);
                match dest {
                    None => holes,
                    Some(l) => {
                        self.store(vec![l.clone()], vec![Expr::Var(self.prog.ret)], span, holes)
                    }
                }
            }
            StmtKind::Havoc(v) => self.havoc(*v, span, holes),
            StmtKind::ArrayDecl { array, size, init } => {
                if let (Some(size), ArraySize::Dynamic(sv)) = (size, &self.prog.arrays[*array].size)
                {
                    let sv = *sv;
                    let size = self.pure(size.clone(), &mut holes, span);
                    holes = self.assign(vec![sv], vec![size], span, holes);
                    // A VLA of size < 1 is undefined behaviour in C: such executions are
                    // not considered.
                    holes = self.assume(
                        Expr::Cmp(CmpOp::Ge, Box::new(Expr::Var(sv)), Box::new(Expr::int(1))),
                        span,
                        holes,
                    );
                }
                let values = init.as_ref().map(|es| {
                    es.iter()
                        .map(|e| self.pure(e.clone(), &mut holes, span))
                        .collect()
                });
                let n = self.node(
                    NodeKind::ArrayInit {
                        array: *array,
                        values,
                        next: PENDING,
                    },
                    span,
                    holes,
                );
                vec![Hole::Next(n)]
            }
            StmtKind::ArrayHavoc(a) => {
                let n = self.node(
                    NodeKind::ArrayInit {
                        array: *a,
                        values: None,
                        next: PENDING,
                    },
                    span,
                    holes,
                );
                vec![Hole::Next(n)]
            }
            StmtKind::If(c, t, e) => {
                let c = self.pure(c.clone(), &mut holes, span);
                let br = self.node(
                    NodeKind::Branch {
                        cond: c,
                        then: PENDING,
                        els: PENDING,
                    },
                    span,
                    holes,
                );
                let mut out = self.stmts(t, vec![Hole::Then(br)]);
                out.extend(self.stmts(e, vec![Hole::Else(br)]));
                out
            }
            StmtKind::Loop {
                cond,
                body,
                step,
                do_while,
            } => self.lower_loop(cond, body, step, *do_while, span, holes),
            StmtKind::Break => {
                self.loops
                    .last_mut()
                    .expect("sema checked `break` is in a loop")
                    .breaks
                    .extend(holes);
                vec![]
            }
            StmtKind::Continue => {
                self.loops
                    .last_mut()
                    .expect("sema checked `continue` is in a loop")
                    .continues
                    .extend(holes);
                vec![]
            }
            StmtKind::Return(e) => {
                if let Some(e) = e {
                    let v = self.pure(e.clone(), &mut holes, span);
                    holes = self.assign(vec![self.prog.ret], vec![v], span, holes);
                }
                let n = self.node(NodeKind::Skip { next: PENDING }, span, holes);
                self.pending_returns.push(Hole::Next(n));
                vec![]
            }
            StmtKind::Skip => {
                let n = self.node(NodeKind::Skip { next: PENDING }, span, holes);
                vec![Hole::Next(n)]
            }
            StmtKind::Label {
                name,
                is_error: true,
                stmt,
            } => {
                let n = self.node(NodeKind::Skip { next: ERROR_NODE }, span, holes);
                if self.targets.contains(name) {
                    self.define_label(name, n);
                }
                // Reaching the label is the error; a `goto` to a label inside its statement
                // still runs that statement.
                let mut inner = BTreeSet::new();
                labels_in(std::slice::from_ref(stmt), &mut inner);
                if inner.iter().any(|t| self.targets.contains(t)) {
                    self.stmt(stmt, vec![])
                } else {
                    vec![]
                }
            }
            StmtKind::Error => {
                self.node(NodeKind::Skip { next: ERROR_NODE }, span, holes);
                vec![]
            }
            StmtKind::Label { name, stmt, .. } if self.targets.contains(name) => {
                let n = self.node(NodeKind::Skip { next: PENDING }, span, holes);
                self.define_label(name, n);
                self.stmt(stmt, vec![Hole::Next(n)])
            }
            StmtKind::Label { stmt, .. } => self.stmt(stmt, holes),
            StmtKind::Goto(name) => {
                match self.labels.get(name) {
                    Some(&n) => {
                        for h in holes {
                            self.patch(h, n);
                        }
                    }
                    None => self
                        .pending_gotos
                        .entry(name.clone())
                        .or_default()
                        .extend(holes),
                }
                vec![]
            }
            StmtKind::Assert(c) => {
                let c = self.pure(c.clone(), &mut holes, span);
                let br = self.node(
                    NodeKind::Branch {
                        cond: c,
                        then: PENDING,
                        els: ERROR_NODE,
                    },
                    span,
                    holes,
                );
                vec![Hole::Then(br)]
            }
            StmtKind::Assume(c) => {
                let c = self.pure(c.clone(), &mut holes, span);
                self.assume(c, span, holes)
            }
            StmtKind::Stop => {
                self.node(NodeKind::Stop, span, holes);
                vec![]
            }
            StmtKind::Block(ss) => self.stmts(ss, holes),
        }
    }

    /// Assign the values to the targets: scalars in one parallel assignment, then array
    /// elements one by one (their indices and values were evaluated before any change).
    fn store(
        &mut self,
        targets: Vec<LValue>,
        values: Vec<Expr>,
        span: Span,
        mut holes: Vec<Hole>,
    ) -> Vec<Hole> {
        let mut lhs = Vec::new();
        let mut rhs = Vec::new();
        let mut writes = Vec::new();
        for (l, v) in targets.into_iter().zip(values) {
            match l {
                LValue::Var(x) => {
                    if let Some(i) = lhs.iter().position(|y| *y == x) {
                        rhs[i] = v; // `x, x = 1, 2`: the last one wins
                    } else {
                        lhs.push(x);
                        rhs.push(v);
                    }
                }
                LValue::Elem(a, i) => writes.push((a, i, v)),
            }
        }
        if writes.len() + usize::from(!lhs.is_empty()) > 1 {
            // A parallel assignment reads every old value before anything changes: save
            // the operands of the array writes first.
            let mut saved = Vec::new();
            for (a, i, v) in writes {
                let ti = self.temp("#idx", span);
                let tv = self.temp("#val", span);
                holes = self.assign(vec![ti, tv], vec![i, v], span, holes);
                saved.push((a, Expr::Var(ti), Expr::Var(tv)));
            }
            writes = saved;
        }
        if !lhs.is_empty() {
            holes = self.assign(lhs, rhs, span, holes);
        }
        for (a, index, value) in writes {
            let n = self.node(
                NodeKind::ArrayWrite {
                    array: a,
                    index,
                    value,
                    next: PENDING,
                },
                span,
                holes,
            );
            holes = vec![Hole::Next(n)];
        }
        holes
    }

    fn lower_loop(
        &mut self,
        cond: &Expr,
        body: &[Stmt],
        step: &[Stmt],
        do_while: bool,
        span: Span,
        holes: Vec<Hole>,
    ) -> Vec<Hole> {
        self.loops.push(LoopCtx {
            breaks: vec![],
            continues: vec![],
        });
        // The loop head, where the back edge returns.
        let head = self.node(NodeKind::Skip { next: PENDING }, span, holes);
        let (br, after_step) = if do_while {
            let mut after_body = self.stmts(body, vec![Hole::Next(head)]);
            after_body.extend(std::mem::take(
                &mut self.loops.last_mut().expect("pushed above").continues,
            ));
            let c = self.pure(cond.clone(), &mut after_body, span);
            let br = self.node(
                NodeKind::Branch {
                    cond: c,
                    then: PENDING,
                    els: PENDING,
                },
                span,
                after_body,
            );
            (br, vec![Hole::Then(br)])
        } else {
            // The condition's calls, if any, are re-evaluated at each iteration.
            let mut ch = vec![Hole::Next(head)];
            let c = self.pure(cond.clone(), &mut ch, span);
            let br = self.node(
                NodeKind::Branch {
                    cond: c,
                    then: PENDING,
                    els: PENDING,
                },
                span,
                ch,
            );
            let mut after_body = self.stmts(body, vec![Hole::Then(br)]);
            after_body.extend(std::mem::take(
                &mut self.loops.last_mut().expect("pushed above").continues,
            ));
            (br, self.stmts(step, after_body))
        };
        for h in after_step {
            self.patch(h, head);
        }
        let ctx = self.loops.pop().expect("pushed above");
        let mut out = vec![Hole::Else(br)];
        out.extend(ctx.breaks);
        out
    }

    /// `a && b` (`is_and`) or `a || b` where `b` has effects: `b` is evaluated only when
    /// C would evaluate it; the 0/1 result goes into a temporary.
    fn short_circuit(
        &mut self,
        a: Expr,
        b: Expr,
        is_and: bool,
        holes: &mut Vec<Hole>,
        span: Span,
    ) -> Expr {
        let a = self.pure(a, holes, span);
        let t = self.temp(if is_and { "#and" } else { "#or" }, span);
        let br = self.node(
            NodeKind::Branch {
                cond: a,
                then: PENDING,
                els: PENDING,
            },
            span,
            std::mem::take(holes),
        );
        let (mut eval, short) = if is_and {
            (vec![Hole::Then(br)], vec![Hole::Else(br)])
        } else {
            (vec![Hole::Else(br)], vec![Hole::Then(br)])
        };
        let bv = self.pure(b, &mut eval, span);
        let nonzero = Expr::Cmp(CmpOp::Ne, Box::new(bv), Box::new(Expr::int(0)));
        let mut out = self.assign(vec![t], vec![nonzero], span, eval);
        out.extend(self.assign(
            vec![t],
            vec![Expr::int(if is_and { 0 } else { 1 })],
            span,
            short,
        ));
        *holes = out;
        Expr::Var(t)
    }
}

/// The labels that `goto` statements in `ss` jump to (the labels nested in `ss` that need
/// a node of their own).
fn goto_targets(ss: &[Stmt], out: &mut BTreeSet<String>) {
    for s in ss {
        match &s.kind {
            StmtKind::Goto(l) => {
                out.insert(l.clone());
            }
            StmtKind::If(_, t, e) => {
                goto_targets(t, out);
                goto_targets(e, out);
            }
            StmtKind::Loop { body, step, .. } => {
                goto_targets(body, out);
                goto_targets(step, out);
            }
            StmtKind::Label { stmt, .. } => goto_targets(std::slice::from_ref(stmt), out),
            StmtKind::Block(b) => goto_targets(b, out),
            _ => {}
        }
    }
}

/// The labels defined in `ss`.
fn labels_in(ss: &[Stmt], out: &mut BTreeSet<String>) {
    for s in ss {
        match &s.kind {
            StmtKind::Label { name, stmt, .. } => {
                out.insert(name.clone());
                labels_in(std::slice::from_ref(stmt), out);
            }
            StmtKind::If(_, t, e) => {
                labels_in(t, out);
                labels_in(e, out);
            }
            StmtKind::Loop { body, step, .. } => {
                labels_in(body, out);
                labels_in(step, out);
            }
            StmtKind::Block(b) => labels_in(b, out),
            _ => {}
        }
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
