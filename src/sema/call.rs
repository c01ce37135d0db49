//! Calls inside expressions: builtins with a value (`__VERIFIER_nondet_T()`,
//! `__builtin_expect`), calls of defined procedures (arity, `void` results, arguments
//! converted to the parameters' types), and calls of names that are not procedures,
//! external or undeclared. Also [`has_effects`], whether an AST expression may have a side
//! effect.

use super::builtins::{builtin, Builtin};
use super::cint::Typed;
use super::hir::{Expr, Range};
use super::state::{err, Resolver, Sym};
use crate::diag::{DiagKind, Span};
use crate::syntax::ast::{self, ExprKind, IntTy};

impl Resolver {
    /// A call; `want_value` when its result is used.
    pub(super) fn call_expr(
        &mut self,
        func: &ast::Ident,
        args: &[ast::Expr],
        span: Span,
        want_value: bool,
    ) -> Typed {
        if let Some(b) = builtin(&func.name) {
            return match b {
                Builtin::Nondet(t) => match self.range_of(t) {
                    Range::Any => (Expr::Undef, t),
                    r => (Expr::Nondet(r, span), t),
                },
                Builtin::Identity if !args.is_empty() => {
                    if args[1..].iter().any(has_effects) {
                        self.unsupported(
                            format!("`{}` with side effects in its hint", func.name),
                            span,
                        );
                    }
                    self.texpr(&args[0])
                }
                _ => {
                    self.unsupported(format!("`{}` inside an expression", func.name), span);
                    (Expr::Undef, IntTy::INT)
                }
            };
        }
        let params = self
            .sigs
            .get(&func.name)
            .map(|s| s.params.clone())
            .unwrap_or_default();
        let resolved: Vec<Expr> = args
            .iter()
            .enumerate()
            .map(|(k, a)| {
                let v = self.arg_expr(a);
                // An argument converts to its parameter's type, as by assignment.
                self.assign_conv(v, params.get(k).copied().flatten())
            })
            .collect();
        if let Some(sig) = self.sigs.get(&func.name).cloned() {
            if sig.arity != args.len() {
                self.errors.push(
                    err(
                        DiagKind::Arity,
                        func.span,
                        format!(
                            "`{}` takes {} argument{} but {} were given",
                            func.name,
                            sig.arity,
                            if sig.arity == 1 { "" } else { "s" },
                            args.len()
                        ),
                    )
                    .with_label("wrong number of arguments"),
                );
            }
            if want_value && !sig.returns_value {
                self.errors.push(err(
                    DiagKind::Type,
                    func.span,
                    format!("`{}` returns `void`; its value cannot be used", func.name),
                ));
            }
            return (
                Expr::Call(sig.id, resolved, span),
                sig.ret.unwrap_or(IntTy::INT),
            );
        }
        if self.lookup(&func.name).is_some() {
            self.errors.push(err(
                DiagKind::Type,
                func.span,
                format!("`{}` is not a procedure", func.name),
            ));
        } else if self.externs.contains_key(&func.name) {
            self.unsupported(
                format!("call to external function `{}`", func.name),
                func.span,
            );
        } else if self.opts.implicit_functions {
            self.unsupported(
                format!(
                    "call to `{}`, which the program does not declare (a library function?)",
                    func.name
                ),
                func.span,
            );
        } else {
            self.errors.push(
                err(
                    DiagKind::Undeclared,
                    func.span,
                    format!("call to undeclared procedure `{}`", func.name),
                )
                .with_label("not declared"),
            );
        }
        (Expr::Undef, IntTy::INT)
    }

    /// An actual parameter: an array name passed to a function is a pointer in C
    /// (outside the fragment), not a type error.
    fn arg_expr(&mut self, a: &ast::Expr) -> Typed {
        if let ExprKind::Var(id) = &a.kind {
            if let Some(Sym::Array(_)) = self.lookup(&id.name) {
                self.unsupported("array passed as an argument (a pointer)", a.span);
                return (Expr::Undef, IntTy::INT);
            }
        }
        self.texpr(a)
    }
}

/// Whether evaluating `e` may have a side effect (a call, an assignment, `++`/`--`, or a
/// statement expression).
pub(super) fn has_effects(e: &ast::Expr) -> bool {
    let sub = |x: &ast::Expr| has_effects(x);
    match &e.kind {
        ExprKind::Call { .. }
        | ExprKind::Assign { .. }
        | ExprKind::IncDec { .. }
        | ExprKind::StmtExpr(_)
        | ExprKind::Other { .. } => true,
        ExprKind::Int(..)
        | ExprKind::Var(_)
        | ExprKind::Str(_)
        | ExprKind::Float(_)
        | ExprKind::SizeofType { .. }
        | ExprKind::SizeofExpr(_) => false,
        ExprKind::Index { base, index } => sub(base) || sub(index),
        ExprKind::Unary { e, .. }
        | ExprKind::Cast { e, .. }
        | ExprKind::AddrOf(e)
        | ExprKind::Deref(e) => sub(e),
        ExprKind::Member { base, .. } => sub(base),
        ExprKind::Binary { l, r, .. } | ExprKind::Comma { l, r } => sub(l) || sub(r),
        ExprKind::Cond { c, t, e } => sub(c) || sub(t) || sub(e),
    }
}
