//! Expressions that statements evaluate, lowered so that no side effect is dropped: a
//! value a statement uses (GNU statement expressions, the left operands of commas and
//! `x = e`, `++x`, `x++` inside it become statements before it), an expression in
//! statement position (the comma operator, `(void)` casts, `c ? f() : g()`, `a && f()`),
//! and calls in statement position (the builtins that are statements: errors, `assert`,
//! `assume`, `abort`, `klee_make_symbolic`).

use super::builtins::{builtin, Builtin};
use super::call::has_effects;
use super::cint::Typed;
use super::hir::{Expr, LValue, Range, Stmt, StmtKind, VarKind};
use super::state::{assign_or_call, err, Resolver, Sym};
use crate::diag::{DiagKind, Span};
use crate::syntax::ast::{self, AssignOp, BinOp, ExprKind, IntTy};
use std::collections::BTreeMap;

impl Resolver {
    /// An expression whose value is used by a statement (an assignment's right-hand side,
    /// an initialiser, `return`, an `if` condition): statement expressions and the left
    /// operands of commas at its top become statements before it, in evaluation order.
    pub(super) fn value_expr(&mut self, e: &ast::Expr, out: &mut Vec<Stmt>) -> Expr {
        self.tvalue_expr(e, out).0
    }

    /// [`Resolver::value_expr`] with the value's C type.
    pub(super) fn tvalue_expr(&mut self, e: &ast::Expr, out: &mut Vec<Stmt>) -> Typed {
        match &e.kind {
            // `if ((x = e))`, `return ++i;`: the assignment, then the new value.
            ExprKind::Assign { lhs, .. }
            | ExprKind::IncDec {
                e: lhs,
                prefix: true,
                ..
            } if is_plain_lvalue(lhs) => {
                self.expr_stmt(e, out);
                self.texpr(lhs)
            }
            // `y = x++`: the old value, saved before the increment.
            ExprKind::IncDec {
                e: lhs,
                prefix: false,
                ..
            } if is_plain_lvalue(lhs) => {
                let p = self.cur.expect("statements are inside procedures");
                let (old, ty) = self.texpr(lhs);
                let t = self.new_var("#old", VarKind::Temp(p), Range::Any, e.span);
                self.var_types.insert(t, ty);
                out.push(Stmt {
                    kind: StmtKind::Assign(vec![(LValue::Var(t), old)]),
                    span: e.span,
                });
                self.expr_stmt(e, out);
                (Expr::Var(t), ty)
            }
            ExprKind::Comma { l, r } => {
                self.expr_stmt(l, out);
                self.tvalue_expr(r, out)
            }
            ExprKind::StmtExpr(block) => {
                let ast::StmtKind::Block(ss) = &block.kind else {
                    return self.texpr(e);
                };
                let Some((last, init)) = ss.split_last() else {
                    self.unsupported("statement expression without a value", e.span);
                    return (Expr::Undef, IntTy::INT);
                };
                let ast::StmtKind::Expr(value) = &last.kind else {
                    self.unsupported("statement expression without a value", e.span);
                    return (Expr::Undef, IntTy::INT);
                };
                self.scopes.push(BTreeMap::new());
                let mut inner = self.stmt_list(init);
                let v = self.tvalue_expr(value, &mut inner);
                self.scopes.pop();
                out.push(Stmt {
                    kind: StmtKind::Block(inner),
                    span: e.span,
                });
                v
            }
            _ => self.texpr(e),
        }
    }

    /// An expression in statement position: its value is discarded, its effects happen.
    pub(super) fn expr_stmt(&mut self, e: &ast::Expr, out: &mut Vec<Stmt>) {
        let span = e.span;
        let push = |out: &mut Vec<Stmt>, kind| out.push(Stmt { kind, span });
        match &e.kind {
            ExprKind::Call { func, args } => self.call_stmt(func, args, span, out),
            ExprKind::Assign { lhs, op, rhs } => {
                let stmt = if *op == AssignOp::Set {
                    ast::StmtKind::Assign {
                        lhs: vec![(**lhs).clone()],
                        rhs: vec![(**rhs).clone()],
                    }
                } else {
                    ast::StmtKind::CompoundAssign {
                        lhs: (**lhs).clone(),
                        op: *op,
                        rhs: (**rhs).clone(),
                    }
                };
                self.stmt(&ast::Stmt::new(stmt, span), out);
            }
            ExprKind::IncDec { e: x, inc, prefix } => {
                let stmt = ast::StmtKind::IncDec {
                    lhs: (**x).clone(),
                    inc: *inc,
                    prefix: *prefix,
                };
                self.stmt(&ast::Stmt::new(stmt, span), out);
            }
            ExprKind::Comma { l, r } => {
                self.expr_stmt(l, out);
                self.expr_stmt(r, out);
            }
            ExprKind::StmtExpr(block) => {
                let b = match &block.kind {
                    ast::StmtKind::Block(ss) => self.block(ss),
                    _ => self.sub(block),
                };
                push(out, StmtKind::Block(b));
            }
            ExprKind::Cast {
                ty: ast::Ty::Void | ast::Ty::Int { .. },
                pointer: 0,
                e: x,
            } => self.expr_stmt(x, out),
            ExprKind::Cond { c, t, e: f } if has_effects(t) || has_effects(f) => {
                let c = self.expr(c);
                let mut ts = Vec::new();
                self.expr_stmt(t, &mut ts);
                let mut fs = Vec::new();
                self.expr_stmt(f, &mut fs);
                push(out, StmtKind::If(c, ts, fs));
            }
            ExprKind::Binary {
                op: op @ (BinOp::And | BinOp::Or),
                l,
                r,
            } if has_effects(r) => {
                let c = self.expr(l);
                let mut rs = Vec::new();
                self.expr_stmt(r, &mut rs);
                let kind = if *op == BinOp::And {
                    StmtKind::If(c, rs, Vec::new())
                } else {
                    StmtKind::If(c, Vec::new(), rs)
                };
                push(out, kind);
            }
            _ => {
                // An expression without effect (e.g. `x;`), or with calls inside: keep the
                // calls' effects by evaluating into a scratch temporary.
                let v = self.expr(e);
                self.discard(v, span, out);
            }
        }
    }

    /// Evaluate `v` for its effects only.
    pub(super) fn discard(&mut self, v: Expr, span: Span, out: &mut Vec<Stmt>) {
        if v.has_effects() {
            let p = self.cur.expect("statements are inside procedures");
            let t = self.new_var("#discard", VarKind::Temp(p), Range::Any, span);
            out.push(Stmt {
                kind: assign_or_call(LValue::Var(t), v),
                span,
            });
        } else {
            out.push(Stmt {
                kind: StmtKind::Skip,
                span,
            });
        }
    }

    /// A call in statement position.
    fn call_stmt(
        &mut self,
        func: &ast::Ident,
        args: &[ast::Expr],
        span: Span,
        out: &mut Vec<Stmt>,
    ) {
        let push = |out: &mut Vec<Stmt>, kind| out.push(Stmt { kind, span });
        match builtin(&func.name) {
            Some(Builtin::Error) => push(out, StmtKind::Error),
            Some(Builtin::Stop) => push(out, StmtKind::Stop),
            Some(b @ (Builtin::Assert | Builtin::Assume)) => {
                if args.len() != 1 {
                    self.errors.push(err(
                        DiagKind::Arity,
                        func.span,
                        format!(
                            "`{}` takes 1 argument but {} were given",
                            func.name,
                            args.len()
                        ),
                    ));
                    return;
                }
                let c = self.expr(&args[0]);
                if b == Builtin::Assert {
                    push(out, StmtKind::Assert(c));
                } else {
                    push(out, StmtKind::Assume(c));
                }
            }
            Some(Builtin::MakeSymbolic) => self.make_symbolic(func, args, out, span),
            Some(Builtin::Nondet(_)) => {}
            Some(Builtin::Ignored | Builtin::Identity) => {
                // Output and hints: only the effects of the arguments matter. Arguments
                // without effects (strings, `stderr`, ...) are not even resolved.
                for a in args.iter().filter(|a| has_effects(a)) {
                    self.expr_stmt(a, out);
                }
            }
            None => {
                // An external call was reported by `call_expr`.
                if let (Expr::Call(proc, args, _), _) = self.call_expr(func, args, span, false) {
                    push(
                        out,
                        StmtKind::Call {
                            dest: None,
                            proc,
                            args,
                        },
                    );
                }
            }
        }
    }

    fn make_symbolic(
        &mut self,
        func: &ast::Ident,
        args: &[ast::Expr],
        out: &mut Vec<Stmt>,
        span: Span,
    ) {
        let Some(first) = args.first() else {
            self.errors.push(err(
                DiagKind::Arity,
                func.span,
                "`klee_make_symbolic` needs the object as first argument",
            ));
            return;
        };
        let target = match &first.kind {
            ExprKind::AddrOf(x) => &**x,
            _ => first,
        };
        match &target.kind {
            ExprKind::Var(id) => match self.lookup(&id.name) {
                Some(Sym::Var(v)) => out.push(Stmt {
                    kind: StmtKind::Havoc(v),
                    span,
                }),
                Some(Sym::Array(a)) => out.push(Stmt {
                    kind: StmtKind::ArrayHavoc(a),
                    span,
                }),
                Some(_) => self.unsupported(
                    "klee_make_symbolic on something other than a variable or array",
                    first.span,
                ),
                None => self.errors.push(err(
                    DiagKind::Undeclared,
                    id.span,
                    format!("`{}` is not declared", id.name),
                )),
            },
            _ => self.unsupported(
                "klee_make_symbolic on something other than a variable or array",
                first.span,
            ),
        }
    }
}

/// A variable or an array element with a side-effect-free index: reading it again after
/// assigning it gives the assigned value.
fn is_plain_lvalue(e: &ast::Expr) -> bool {
    match &e.kind {
        ExprKind::Var(_) => true,
        ExprKind::Index { base, index } => {
            matches!(base.kind, ExprKind::Var(_)) && !has_effects(index)
        }
        _ => false,
    }
}
