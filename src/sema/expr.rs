//! Expressions: names (variables, array elements, `enum` constants, `u`), assignment
//! targets, the C type of each value, operators (through `cint` and `arith`), casts, the
//! comma operator and statement expressions inside expressions. Calls are in `call.rs`,
//! `sizeof` in `sizeof.rs`.

use super::cint::Typed;
use super::hir::{Expr, LValue};
use super::state::{err, Resolver, Sym};
use super::types::{common, literal_type, promote};
use crate::diag::{DiagKind, Diagnostic, Span};
use crate::ids::ArrayId;
use crate::syntax::ast::{self, ExprKind, IntKind, IntTy, UnOp};
use num_bigint::BigInt;

/// Names that are not declared but mean something in C: `__func__` and friends are string
/// literals.
fn is_function_name(name: &str) -> bool {
    matches!(name, "__func__" | "__FUNCTION__" | "__PRETTY_FUNCTION__")
}

impl Resolver {
    pub(super) fn lvalue(&mut self, e: &ast::Expr) -> LValue {
        match &e.kind {
            ExprKind::Var(id) => match self.lookup(&id.name) {
                Some(Sym::Var(v)) => LValue::Var(v),
                Some(Sym::Array(_)) => {
                    self.errors.push(
                        err(
                            DiagKind::Type,
                            id.span,
                            format!("cannot assign to array `{}` as a whole", id.name),
                        )
                        .with_help("assign its elements, e.g. `a[i] = e;`"),
                    );
                    LValue::Var(self.ret)
                }
                Some(Sym::Const(_)) => {
                    self.errors.push(err(
                        DiagKind::Type,
                        id.span,
                        format!("cannot assign to the enumeration constant `{}`", id.name),
                    ));
                    LValue::Var(self.ret)
                }
                Some(Sym::Opaque(k)) => {
                    self.unsupported(self.opaque[k].clone(), id.span);
                    LValue::Var(self.ret)
                }
                None => {
                    self.errors.push(undeclared(id));
                    LValue::Var(self.ret)
                }
            },
            ExprKind::Index { base, index } => {
                let i = self.expr(index);
                match self.array_of(base) {
                    Some(a) => LValue::Elem(a, i),
                    None => LValue::Var(self.ret),
                }
            }
            ExprKind::Deref(_) => {
                self.unsupported("pointer dereference", e.span);
                LValue::Var(self.ret)
            }
            ExprKind::Member { .. } => {
                self.unsupported("struct member access", e.span);
                LValue::Var(self.ret)
            }
            _ => {
                self.errors.push(
                    err(DiagKind::Type, e.span, "this cannot be assigned to")
                        .with_help("assign to a variable or an array element"),
                );
                LValue::Var(self.ret)
            }
        }
    }

    fn array_of(&mut self, base: &ast::Expr) -> Option<ArrayId> {
        match &base.kind {
            ExprKind::Var(id) => match self.lookup(&id.name) {
                Some(Sym::Array(a)) => Some(a),
                Some(Sym::Var(_) | Sym::Const(_)) => {
                    self.errors.push(
                        err(
                            DiagKind::Type,
                            id.span,
                            format!("`{}` is not an array", id.name),
                        )
                        .with_label("a scalar is indexed here"),
                    );
                    None
                }
                Some(Sym::Opaque(k)) => {
                    self.unsupported(self.opaque[k].clone(), id.span);
                    None
                }
                None => {
                    self.errors.push(undeclared(id));
                    None
                }
            },
            ExprKind::Index { .. } => {
                let mut root = base;
                while let ExprKind::Index { base: b, .. } = &root.kind {
                    root = b;
                }
                match &root.kind {
                    ExprKind::Var(id) => match self.lookup(&id.name) {
                        Some(Sym::Opaque(k)) => self.unsupported(self.opaque[k].clone(), id.span),
                        _ => self.unsupported("multi-dimensional array access", base.span),
                    },
                    _ => self.unsupported("multi-dimensional array access", base.span),
                }
                None
            }
            _ => {
                self.unsupported("indexing something other than an array name", base.span);
                None
            }
        }
    }

    /// An expression that must not call procedures (global initialisers, array sizes).
    pub(super) fn pure_expr(&mut self, e: &ast::Expr) -> Expr {
        self.tpure_expr(e).0
    }

    /// [`Resolver::pure_expr`] with the value's C type.
    pub(super) fn tpure_expr(&mut self, e: &ast::Expr) -> Typed {
        let (r, t) = self.texpr(e);
        if r.has_calls() && self.cur.is_none() {
            self.errors.push(err(
                DiagKind::Structure,
                e.span,
                "a global initialiser cannot call procedures",
            ));
        }
        (r, t)
    }

    pub(super) fn expr(&mut self, e: &ast::Expr) -> Expr {
        self.texpr(e).0
    }

    /// An expression with its C type (C11 §6.5); under C's integers the conversions and
    /// the wraparound are in the result (see `cint`).
    pub(super) fn texpr(&mut self, e: &ast::Expr) -> Typed {
        let int = IntTy::INT;
        let undef = (Expr::Undef, int);
        match &e.kind {
            ExprKind::Int(n, lit) => {
                let t = literal_type(n, *lit, self.opts.data_model)
                    .unwrap_or(IntTy::new(IntKind::Int128, lit.unsigned));
                (Expr::Const(n.clone()), t)
            }
            ExprKind::Var(id) => match self.lookup(&id.name) {
                Some(Sym::Var(v)) => (Expr::Var(v), self.var_type(v)),
                Some(Sym::Const(c)) => (Expr::Const(c), int),
                Some(Sym::Array(_)) => {
                    self.errors.push(
                        err(
                            DiagKind::Type,
                            id.span,
                            format!("array `{}` used as a scalar", id.name),
                        )
                        .with_help("read an element, e.g. `a[i]`"),
                    );
                    undef
                }
                Some(Sym::Opaque(k)) => {
                    self.unsupported(self.opaque[k].clone(), id.span);
                    undef
                }
                None if id.name == "u" => {
                    if self.c_ints() {
                        // An arbitrary `int`.
                        (Expr::Nondet(self.range_of(int), e.span), int)
                    } else {
                        undef
                    }
                }
                None if id.name == "true" => (Expr::int(1), int),
                None if id.name == "false" => (Expr::int(0), int),
                None if is_function_name(&id.name) => {
                    self.unsupported("string literal", e.span);
                    undef
                }
                None => {
                    self.errors.push(undeclared(id));
                    undef
                }
            },
            ExprKind::Index { base, index } => {
                let i = self.expr(index);
                match self.array_of(base) {
                    Some(a) => (Expr::Read(a, Box::new(i)), self.array_type(a)),
                    None => undef,
                }
            }
            ExprKind::Unary { op, e: x } => {
                let (v, t) = self.texpr(x);
                match op {
                    UnOp::Neg => self.neg((v, t)),
                    UnOp::Plus => (v, promote(t)),
                    UnOp::Not => (Expr::Not(Box::new(v)), int),
                    UnOp::BitNot => {
                        self.unsupported("bitwise operator `~`", e.span);
                        undef
                    }
                }
            }
            ExprKind::Binary { op, l, r } => {
                let a = self.texpr(l);
                let b = self.texpr(r);
                self.tbinary(*op, a, b, e.span, r.span)
            }
            ExprKind::Cond { c, t, e: f } => {
                let c = self.expr(c);
                let (x, tx) = self.texpr(t);
                let (y, ty) = self.texpr(f);
                let common = common(tx, ty, self.opts.data_model);
                let x = self.convert(x, tx, common);
                let y = self.convert(y, ty, common);
                (Expr::Cond(Box::new(c), Box::new(x), Box::new(y)), common)
            }
            ExprKind::Call { func, args } => self.call_expr(func, args, e.span, true),
            ExprKind::Cast { ty, pointer, e: x } => self.cast(ty, *pointer, x, e.span),
            ExprKind::AddrOf(_) => {
                self.unsupported("address-of `&`", e.span);
                undef
            }
            ExprKind::Deref(_) => {
                self.unsupported("pointer dereference", e.span);
                undef
            }
            ExprKind::SizeofType { ty, pointer, dims } => (
                self.sizeof_type(ty, *pointer, dims, e.span),
                self.opts.data_model.size_t(),
            ),
            ExprKind::SizeofExpr(x) => match self.ctype(x) {
                Some(t) => (
                    Expr::Const(BigInt::from(self.size_of(t))),
                    self.opts.data_model.size_t(),
                ),
                None => {
                    self.unsupported("`sizeof` of this expression", e.span);
                    undef
                }
            },
            ExprKind::Str(_) => {
                self.unsupported("string literal", e.span);
                undef
            }
            ExprKind::Assign { .. } | ExprKind::IncDec { .. } => {
                self.unsupported("assignment inside an expression", e.span);
                undef
            }
            ExprKind::Float(_) => {
                self.unsupported("floating-point constant", e.span);
                undef
            }
            ExprKind::Comma { l, r } => {
                // The left operand's value is discarded; its effects must not be.
                let lv = self.expr(l);
                let mut calls = false;
                lv.visit(&mut |x| calls |= matches!(x, Expr::Call(..)));
                if calls {
                    self.unsupported(
                        "comma operator whose left operand calls a procedure, inside an expression",
                        l.span,
                    );
                }
                self.texpr(r)
            }
            ExprKind::StmtExpr(block) => match &block.kind {
                ast::StmtKind::Block(ss)
                    if ss.len() == 1 && matches!(ss[0].kind, ast::StmtKind::Expr(_)) =>
                {
                    let ast::StmtKind::Expr(x) = &ss[0].kind else {
                        return undef;
                    };
                    self.texpr(x)
                }
                _ => {
                    self.unsupported("statement expression inside an expression", e.span);
                    undef
                }
            },
            ExprKind::Member { .. } => {
                self.unsupported("struct member access", e.span);
                undef
            }
            ExprKind::Other { what, .. } => {
                self.unsupported(what.clone(), e.span);
                undef
            }
        }
    }

    /// The C type of a scalar (`int` for temporaries).
    pub(super) fn var_type(&self, v: crate::ids::VarId) -> IntTy {
        self.var_types.get(&v).copied().unwrap_or(IntTy::INT)
    }

    /// The C element type of an array.
    pub(super) fn array_type(&self, a: ArrayId) -> IntTy {
        self.array_types.get(&a).copied().unwrap_or(IntTy::INT)
    }

    /// The C type of an assignment target.
    pub(super) fn lvalue_type(&self, l: &LValue) -> IntTy {
        match l {
            LValue::Var(v) => self.var_type(*v),
            LValue::Elem(a, _) => self.array_type(*a),
        }
    }

    /// `(ty) e`.
    fn cast(&mut self, ty: &ast::Ty, pointer: u8, x: &ast::Expr, span: Span) -> Typed {
        if pointer > 0 {
            self.unsupported("cast to a pointer type", span);
            return (Expr::Undef, IntTy::INT);
        }
        match ty {
            // A `(void)` cast discards a value: only its effects matter.
            ast::Ty::Void => self.texpr(x),
            ast::Ty::Unsupported { spelling } => {
                self.unsupported(format!("cast to `{spelling}`"), span);
                (Expr::Undef, IntTy::INT)
            }
            ast::Ty::Int { int, .. } => {
                // C's conversion (C11 §6.3.1.3; see `cint`); under mathematical integers
                // only `_Bool` changes the value (to 0/1).
                let (v, t) = self.texpr(x);
                (self.convert(v, t, *int), *int)
            }
        }
    }
}

fn undeclared(id: &ast::Ident) -> Diagnostic {
    err(
        DiagKind::Undeclared,
        id.span,
        format!("`{}` is not declared", id.name),
    )
    .with_label("not found in this scope")
}
