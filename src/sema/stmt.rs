//! Statements: scopes of blocks, assignments (chains `a = b = e` and parallel
//! assignments), compound assignments, `++`/`--`, and control flow (`switch` lowers to
//! `goto`s and labels). The expressions a statement evaluates are lowered in `effects.rs`.

use super::consts::const_value;
use super::hir::{CmpOp, Expr, LValue, Range, Stmt, StmtKind, VarKind};
use super::state::{assign_or_call, err, Resolver, SwitchCtx};
use crate::diag::{DiagKind, Span};
use crate::syntax::ast::{self, AssignOp, BinOp, ExprKind, IntTy};
use std::collections::{BTreeMap, VecDeque};

impl Resolver {
    pub(super) fn block(&mut self, ss: &[ast::Stmt]) -> Vec<Stmt> {
        self.scopes.push(BTreeMap::new());
        let out = self.stmt_list(ss);
        self.scopes.pop();
        out
    }

    pub(super) fn stmt_list(&mut self, ss: &[ast::Stmt]) -> Vec<Stmt> {
        let mut out = Vec::new();
        for s in ss {
            self.stmt(s, &mut out);
        }
        out
    }

    /// A statement that gets its own scope when it is a block (branches, loop bodies).
    pub(super) fn sub(&mut self, s: &ast::Stmt) -> Vec<Stmt> {
        match &s.kind {
            ast::StmtKind::Block(ss) => self.block(ss),
            _ => {
                self.scopes.push(BTreeMap::new());
                let mut out = Vec::new();
                self.stmt(s, &mut out);
                self.scopes.pop();
                out
            }
        }
    }

    /// A loop body: `break` leaves the loop.
    fn loop_body(&mut self, s: &ast::Stmt) -> Vec<Stmt> {
        self.loop_depth += 1;
        self.breaks.push(None);
        let b = self.sub(s);
        self.breaks.pop();
        self.loop_depth -= 1;
        b
    }

    pub(super) fn stmt(&mut self, s: &ast::Stmt, out: &mut Vec<Stmt>) {
        let span = s.span;
        let push = |out: &mut Vec<Stmt>, kind| out.push(Stmt { kind, span });
        match &s.kind {
            ast::StmtKind::Decl(d) => self.local_decl(d, out),
            ast::StmtKind::Assign { lhs, rhs } => self.assign(lhs, rhs, span, out),
            ast::StmtKind::CompoundAssign { lhs, op, rhs } => {
                let bop = match op {
                    AssignOp::Set => BinOp::Add, // not produced by the parser
                    AssignOp::Add => BinOp::Add,
                    AssignOp::Sub => BinOp::Sub,
                    AssignOp::Mul => BinOp::Mul,
                    AssignOp::Div => BinOp::Div,
                    AssignOp::Mod => BinOp::Mod,
                    AssignOp::BitAnd
                    | AssignOp::BitOr
                    | AssignOp::BitXor
                    | AssignOp::Shl
                    | AssignOp::Shr => {
                        self.unsupported("bitwise compound assignment", span);
                        return;
                    }
                };
                let target = self.lvalue(lhs);
                let cur = self.texpr(lhs);
                let r = self.texpr(rhs);
                let v = self.tbinary(bop, cur, r, s.span, rhs.span);
                let e = self.assign_conv(v, Some(self.lvalue_type(&target)));
                push(out, StmtKind::Assign(vec![(target, e)]));
            }
            ast::StmtKind::IncDec { lhs, inc, .. } => {
                let target = self.lvalue(lhs);
                let cur = self.texpr(lhs);
                let one = (Expr::int(1), IntTy::INT);
                let op = if *inc { BinOp::Add } else { BinOp::Sub };
                let v = self.tbinary(op, cur, one, s.span, s.span);
                let e = self.assign_conv(v, Some(self.lvalue_type(&target)));
                push(out, StmtKind::Assign(vec![(target, e)]));
            }
            ast::StmtKind::Expr(e) => self.expr_stmt(e, out),
            ast::StmtKind::If { cond, then, els } => {
                let c = self.value_expr(cond, out);
                let t = self.sub(then);
                let e = els.as_ref().map(|e| self.sub(e)).unwrap_or_default();
                push(out, StmtKind::If(c, t, e));
            }
            ast::StmtKind::While { cond, body } => {
                let c = self.expr(cond);
                let b = self.loop_body(body);
                push(
                    out,
                    StmtKind::Loop {
                        cond: c,
                        body: b,
                        step: Vec::new(),
                        do_while: false,
                    },
                );
            }
            ast::StmtKind::DoWhile { body, cond } => {
                let b = self.loop_body(body);
                let c = self.expr(cond);
                push(
                    out,
                    StmtKind::Loop {
                        cond: c,
                        body: b,
                        step: Vec::new(),
                        do_while: true,
                    },
                );
            }
            ast::StmtKind::For {
                init,
                cond,
                step,
                body,
            } => {
                self.scopes.push(BTreeMap::new());
                let mut stmts = Vec::new();
                if let Some(i) = init {
                    self.flat_stmt(i, &mut stmts);
                }
                let c = cond
                    .as_ref()
                    .map(|c| self.expr(c))
                    .unwrap_or_else(|| Expr::int(1));
                let b = self.loop_body(body);
                let mut st = Vec::new();
                if let Some(x) = step {
                    self.flat_stmt(x, &mut st);
                }
                self.scopes.pop();
                stmts.push(Stmt {
                    kind: StmtKind::Loop {
                        cond: c,
                        body: b,
                        step: st,
                        do_while: false,
                    },
                    span,
                });
                push(out, StmtKind::Block(stmts));
            }
            ast::StmtKind::Break => match self.breaks.last() {
                Some(Some(end)) => {
                    let end = end.clone();
                    push(out, StmtKind::Goto(end));
                }
                Some(None) => push(out, StmtKind::Break),
                None => self.errors.push(err(
                    DiagKind::Structure,
                    span,
                    "`break` outside a loop or `switch`",
                )),
            },
            ast::StmtKind::Continue => {
                if self.loop_depth == 0 {
                    self.errors
                        .push(err(DiagKind::Structure, span, "`continue` outside a loop"));
                } else {
                    push(out, StmtKind::Continue);
                }
            }
            ast::StmtKind::Return(e) => {
                let p = self.cur.expect("statements are inside procedures");
                let ret = self.sigs.get(&self.procs[p].name).and_then(|s| s.ret);
                let v = e.as_ref().map(|e| {
                    let v = self.tvalue_expr(e, out);
                    self.assign_conv(v, ret)
                });
                if v.is_some() && !self.procs[p].returns_value {
                    self.errors.push(err(
                        DiagKind::Type,
                        span,
                        format!(
                            "`{}` returns `void` but this returns a value",
                            self.procs[p].name
                        ),
                    ));
                }
                push(out, StmtKind::Return(v));
            }
            ast::StmtKind::Skip | ast::StmtKind::Empty => push(out, StmtKind::Skip),
            ast::StmtKind::Block(ss) => {
                let b = self.block(ss);
                push(out, StmtKind::Block(b));
            }
            ast::StmtKind::Labeled { label, stmt } => {
                if let Some(prev) = self.labels.insert(label.name.clone(), label.span) {
                    if prev != label.span {
                        self.errors.push(err(
                            DiagKind::Structure,
                            label.span,
                            format!("label `{}` is defined twice", label.name),
                        ));
                    }
                }
                let is_error = label.name == "ERROR";
                self.labelled(label.name.clone(), is_error, stmt, span, out);
            }
            ast::StmtKind::Goto(l) => {
                self.gotos.push(l.clone());
                push(out, StmtKind::Goto(l.name.clone()));
            }
            ast::StmtKind::Switch { cond, body } => self.switch(cond, body, span, out),
            ast::StmtKind::Case { value, stmt } => {
                match self.switches.last_mut().and_then(|s| s.cases.pop_front()) {
                    Some(name) => self.labelled(name, false, stmt, span, out),
                    None => {
                        self.errors.push(err(
                            DiagKind::Structure,
                            value.span,
                            "`case` outside a `switch`",
                        ));
                    }
                }
            }
            ast::StmtKind::Default(stmt) => {
                match self.switches.last_mut().and_then(|s| s.default.take()) {
                    Some(name) => self.labelled(name, false, stmt, span, out),
                    None => {
                        self.errors.push(err(
                            DiagKind::Structure,
                            span,
                            "`default` outside a `switch` (or twice in one)",
                        ));
                    }
                }
            }
            ast::StmtKind::Typedef(t) => self.enums(&t.enums),
            ast::StmtKind::Proto(fp) => {
                if !self.sigs.contains_key(&fp.name.name) {
                    self.externs
                        .entry(fp.name.name.clone())
                        .or_insert(fp.name.span);
                }
            }
            ast::StmtKind::Other { what, .. } => {
                if what != "static assertion" {
                    self.unsupported(what.clone(), span);
                }
            }
        }
    }

    /// `name: stmt` in the HIR.
    fn labelled(
        &mut self,
        name: String,
        is_error: bool,
        stmt: &ast::Stmt,
        span: Span,
        out: &mut Vec<Stmt>,
    ) {
        let mut inner = Vec::new();
        self.stmt(stmt, &mut inner);
        let inner = if inner.len() == 1 {
            inner.pop().expect("one statement")
        } else {
            Stmt {
                kind: StmtKind::Block(inner),
                span: stmt.span,
            }
        };
        out.push(Stmt {
            kind: StmtKind::Label {
                name,
                is_error,
                stmt: Box::new(inner),
            },
            span,
        });
    }

    /// `switch (e) body`: `t = e; if (t == c1) goto case1; ...; goto default (or end);
    /// body; end:` with `case`/`default` as labels and `break` as `goto end`.
    fn switch(&mut self, cond: &ast::Expr, body: &ast::Stmt, span: Span, out: &mut Vec<Stmt>) {
        let p = self.cur.expect("statements are inside procedures");
        let (v, vt) = self.tvalue_expr(cond, out);
        let vt = super::types::promote(vt);
        let t = self.new_var("#switch", VarKind::Temp(p), Range::Any, cond.span);
        self.var_types.insert(t, vt);
        out.push(Stmt {
            kind: assign_or_call(LValue::Var(t), v),
            span: cond.span,
        });
        let mut cases = Vec::new();
        let mut has_default = false;
        collect_cases(body, &mut cases, &mut has_default);
        let end = self.fresh_label("switch_end");
        let mut labels = VecDeque::new();
        for value in cases {
            let name = self.fresh_label("case");
            let (c, ct) = self.texpr(value);
            let c = self.convert_if_c(c, ct, vt);
            if const_value(&c).is_none() {
                self.errors.push(
                    err(
                        DiagKind::BadConstant,
                        value.span,
                        "a `case` value must be a constant",
                    )
                    .with_label("not a constant expression"),
                );
            }
            let hit = Expr::Cmp(CmpOp::Eq, Box::new(Expr::Var(t)), Box::new(c));
            let jump = Stmt {
                kind: StmtKind::Goto(name.clone()),
                span: value.span,
            };
            out.push(Stmt {
                kind: StmtKind::If(hit, vec![jump], Vec::new()),
                span: value.span,
            });
            labels.push_back(name);
        }
        let default = has_default.then(|| self.fresh_label("default"));
        out.push(Stmt {
            kind: StmtKind::Goto(default.clone().unwrap_or_else(|| end.clone())),
            span,
        });
        self.switches.push(SwitchCtx {
            cases: labels,
            default,
        });
        self.breaks.push(Some(end.clone()));
        let b = self.sub(body);
        self.breaks.pop();
        self.switches.pop();
        out.push(Stmt {
            kind: StmtKind::Block(b),
            span: body.span,
        });
        let skip = Stmt {
            kind: StmtKind::Skip,
            span,
        };
        out.push(Stmt {
            kind: StmtKind::Label {
                name: end,
                is_error: false,
                stmt: Box::new(skip),
            },
            span,
        });
    }

    /// A `for` init or step: a declaration, a simple statement, or a brace-less block of
    /// them (resolved in the current scope).
    fn flat_stmt(&mut self, s: &ast::Stmt, out: &mut Vec<Stmt>) {
        match &s.kind {
            ast::StmtKind::Block(ss) => ss.iter().for_each(|x| self.stmt(x, out)),
            _ => self.stmt(s, out),
        }
    }

    /// `lhs = rhs` (one target, possibly a chain `a = b = e`) or a parallel assignment.
    fn assign(&mut self, lhs: &[ast::Expr], rhs: &[ast::Expr], span: Span, out: &mut Vec<Stmt>) {
        let push = |out: &mut Vec<Stmt>, kind| out.push(Stmt { kind, span });
        if lhs.len() != 1 {
            let pairs = lhs
                .iter()
                .zip(rhs)
                .map(|(l, r)| {
                    let target = self.lvalue(l);
                    let v = self.texpr(r);
                    let e = self.assign_conv(v, Some(self.lvalue_type(&target)));
                    (target, e)
                })
                .collect();
            push(out, StmtKind::Assign(pairs));
            return;
        }
        // `a = b = e` chains: do the inner assignment first.
        let mut value = &rhs[0];
        let mut chain = Vec::new();
        while let ExprKind::Assign {
            lhs: inner,
            op: AssignOp::Set,
            rhs: v,
        } = &value.kind
        {
            chain.push(inner.as_ref());
            value = v;
        }
        if let Some(innermost) = chain.pop() {
            let target = self.lvalue(innermost);
            let v = self.tvalue_expr(value, out);
            let e = self.assign_conv(v, Some(self.lvalue_type(&target)));
            push(out, assign_or_call(target, e));
            let mut src = innermost;
            for t in chain.into_iter().rev().chain(std::iter::once(&lhs[0])) {
                let target = self.lvalue(t);
                let v = self.texpr(src);
                let e = self.assign_conv(v, Some(self.lvalue_type(&target)));
                push(out, StmtKind::Assign(vec![(target, e)]));
                src = t;
            }
            return;
        }
        let v = self.tvalue_expr(&rhs[0], out);
        let target = self.lvalue(&lhs[0]);
        let e = self.assign_conv(v, Some(self.lvalue_type(&target)));
        push(out, assign_or_call(target, e));
    }
}

/// The `case` values of a `switch` body in source order (not those of nested `switch`es),
/// and whether it has a `default`.
fn collect_cases<'e>(s: &'e ast::Stmt, cases: &mut Vec<&'e ast::Expr>, default: &mut bool) {
    use ast::StmtKind as K;
    match &s.kind {
        K::Case { value, stmt } => {
            cases.push(value);
            collect_cases(stmt, cases, default);
        }
        K::Default(stmt) => {
            *default = true;
            collect_cases(stmt, cases, default);
        }
        K::Block(ss) => ss.iter().for_each(|x| collect_cases(x, cases, default)),
        K::If { then, els, .. } => {
            collect_cases(then, cases, default);
            if let Some(e) = els {
                collect_cases(e, cases, default);
            }
        }
        K::While { body, .. } | K::DoWhile { body, .. } | K::For { body, .. } => {
            collect_cases(body, cases, default)
        }
        K::Labeled { stmt, .. } => collect_cases(stmt, cases, default),
        _ => {}
    }
}
