//! Statements of the CFG builder: each statement is lowered after the holes that lead
//! into it (assignments, calls, array declarations, branches, loops, `break`/`continue`,
//! `return`, labels and `goto`, assertions and assumptions).

use super::{Builder, Hole, LoopCtx, PENDING};
use crate::cfg::{NodeKind, ERROR_NODE};
use crate::diag::Span;
use crate::sema::{ArraySize, CmpOp, Expr, LValue, Stmt, StmtKind};
use std::collections::BTreeSet;

impl Builder<'_> {
    pub(super) fn stmts(&mut self, ss: &[Stmt], mut holes: Vec<Hole>) -> Vec<Hole> {
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
                    // A VLA of size < 1 is undefined behaviour in C, and so is one larger
                    // than any object (beyond `i64`, where the interpreter and the
                    // solver encodings would give it no cells): such executions are not
                    // considered. The upper bound also keeps the size bounded in every
                    // fact, so that a certificate's claims carry it.
                    let bound = |op, k| {
                        Box::new(Expr::Cmp(
                            op,
                            Box::new(Expr::Var(sv)),
                            Box::new(Expr::int(k)),
                        ))
                    };
                    holes = self.assume(
                        Expr::And(bound(CmpOp::Ge, 1), bound(CmpOp::Le, i64::MAX)),
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
                let br = self.branch(c, span, holes);
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
            let br = self.branch(c, span, after_body);
            (br, vec![Hole::Then(br)])
        } else {
            // The condition's calls, if any, are re-evaluated at each iteration.
            let mut ch = vec![Hole::Next(head)];
            let c = self.pure(cond.clone(), &mut ch, span);
            let br = self.branch(c, span, ch);
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
}

/// The labels that `goto` statements in `ss` jump to (the labels nested in `ss` that need
/// a node of their own).
pub(super) fn goto_targets(ss: &[Stmt], out: &mut BTreeSet<String>) {
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
