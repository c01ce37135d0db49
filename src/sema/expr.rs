//! Expressions: names, calls of procedures and builtins, the linearity check, casts,
//! `sizeof` (a constant of the data model), the comma operator and statement expressions
//! inside expressions.

use super::builtins::{builtin, nondet_type, Builtin};
use super::cint::Typed;
use super::consts::const_value;
use super::hir::{CmpOp, Expr, LValue, Range};
use super::state::{err, Resolver, Sym};
use super::stmt::has_effects;
use super::types::{common, literal_type, promote, string_size};
use crate::diag::{DiagKind, Diagnostic, Span};
use crate::ids::ArrayId;
use crate::syntax::ast::{self, BinOp, ExprKind, IntKind, IntTy, UnOp};
use num_bigint::BigInt;
use num_traits::{Signed, ToPrimitive, Zero};

/// The C type of an expression, as far as `sizeof` needs it.
#[derive(Clone, Copy, Debug)]
enum CType {
    Int(IntTy),
    Array(IntTy, u64),
    Pointer,
    /// A string literal's array: its size in bytes.
    Str(u64),
}

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
        if r.has_effects() && self.cur.is_none() {
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

    /// `sizeof(ty)`.
    fn sizeof_type(&mut self, ty: &ast::Ty, pointer: u8, dims: &[ast::Expr], span: Span) -> Expr {
        let dm = self.opts.data_model;
        let base = if pointer > 0 {
            Some(dm.pointer_size())
        } else {
            match ty {
                ast::Ty::Int { int, .. } => Some(dm.size_of(*int)),
                ast::Ty::Void => Some(1),
                ast::Ty::Unsupported { spelling } => match spelling.as_str() {
                    "float" => Some(4),
                    "double" => Some(8),
                    _ => None,
                },
            }
        };
        let Some(mut n) = base else {
            self.unsupported("`sizeof` of a type outside the fragment", span);
            return Expr::Undef;
        };
        for d in dims {
            let v = self.expr(d);
            match const_value(&v).and_then(|c| c.to_u64()) {
                Some(k) => n = n.saturating_mul(k),
                None => {
                    self.unsupported("`sizeof` of a variable-length array type", span);
                    return Expr::Undef;
                }
            }
        }
        Expr::Const(BigInt::from(n))
    }

    fn size_of(&self, t: CType) -> u64 {
        let dm = self.opts.data_model;
        match t {
            CType::Int(t) => dm.size_of(t),
            CType::Array(t, n) => dm.size_of(t).saturating_mul(n),
            CType::Pointer => dm.pointer_size(),
            CType::Str(n) => n,
        }
    }

    /// The C type of an expression (not evaluated: the operand of `sizeof`).
    fn ctype(&mut self, e: &ast::Expr) -> Option<CType> {
        let dm = self.opts.data_model;
        let int = |t: IntTy| Some(CType::Int(t));
        match &e.kind {
            ExprKind::Int(v, lit) => literal_type(v, *lit, dm).map(CType::Int),
            ExprKind::Var(id) => match self.lookup(&id.name)? {
                Sym::Var(v) => int(self.var_types.get(&v).copied().unwrap_or(IntTy::INT)),
                Sym::Array(a) => {
                    let elem = self.array_types.get(&a).copied().unwrap_or(IntTy::INT);
                    match self.arrays[a].size {
                        super::hir::ArraySize::Const(n) => Some(CType::Array(elem, n)),
                        super::hir::ArraySize::Dynamic(_) => None,
                    }
                }
                Sym::Const(_) => int(IntTy::INT),
                Sym::Opaque(_) => None,
            },
            ExprKind::Index { base, .. } => match self.ctype(base)? {
                CType::Array(t, _) => int(t),
                CType::Str(_) => int(IntTy::new(IntKind::Char, false)),
                _ => None,
            },
            ExprKind::Unary { op, e: x } => match op {
                UnOp::Not => int(IntTy::INT),
                _ => match self.ctype(x)? {
                    CType::Int(t) => int(promote(t)),
                    _ => None,
                },
            },
            ExprKind::Binary { op, l, r } => match op {
                BinOp::Lt
                | BinOp::Le
                | BinOp::Gt
                | BinOp::Ge
                | BinOp::Eq
                | BinOp::Ne
                | BinOp::And
                | BinOp::Or => int(IntTy::INT),
                BinOp::Shl | BinOp::Shr => match self.ctype(l)? {
                    CType::Int(t) => int(promote(t)),
                    _ => None,
                },
                _ => match (self.ctype(l)?, self.ctype(r)?) {
                    (CType::Int(a), CType::Int(b)) => int(common(a, b, dm)),
                    _ => None,
                },
            },
            ExprKind::Cond { t, e: f, .. } => match (self.ctype(t)?, self.ctype(f)?) {
                (CType::Int(a), CType::Int(b)) => int(common(a, b, dm)),
                _ => None,
            },
            ExprKind::Cast { ty, pointer, .. } => {
                if *pointer > 0 {
                    Some(CType::Pointer)
                } else {
                    ty.int().map(CType::Int)
                }
            }
            ExprKind::SizeofType { .. } | ExprKind::SizeofExpr(_) => int(dm.size_t()),
            ExprKind::Str(s) => Some(CType::Str(string_size(s))),
            ExprKind::Assign { lhs, .. } => match self.ctype(lhs)? {
                CType::Int(t) => int(t),
                _ => None,
            },
            ExprKind::IncDec { e: x, .. } => self.ctype(x),
            ExprKind::Comma { r, .. } => self.ctype(r),
            ExprKind::AddrOf(_) => Some(CType::Pointer),
            ExprKind::Deref(x) => match self.ctype(x)? {
                CType::Array(t, _) => int(t),
                _ => None,
            },
            ExprKind::Call { func, .. } => {
                if let Some(sig) = self.sigs.get(&func.name) {
                    return sig.ret.map(CType::Int);
                }
                func.name
                    .strip_prefix("__VERIFIER_nondet_")
                    .and_then(nondet_type)
                    .map(CType::Int)
            }
            _ => None,
        }
    }

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

    /// Checks linearity (ARCHITECTURE §3): a product needs a constant factor; `/` and `%`
    /// need a non-zero constant divisor. `span` is the whole expression's.
    pub(super) fn binary(&mut self, op: BinOp, a: Expr, b: Expr, span: Span, rspan: Span) -> Expr {
        let bx = Box::new;
        match op {
            BinOp::Add => fold2(a, b, |x, y| x + y, |a, b| Expr::Add(bx(a), bx(b))),
            BinOp::Sub => fold2(a, b, |x, y| x - y, |a, b| Expr::Sub(bx(a), bx(b))),
            BinOp::Mul => match (const_value(&a), const_value(&b)) {
                (Some(x), Some(y)) => Expr::Const(x * y),
                (Some(x), None) => Expr::Scale(x, bx(b)),
                (None, Some(y)) => Expr::Scale(y, bx(a)),
                (None, None) => {
                    self.errors.push(
                        err(
                            DiagKind::NonLinear,
                            span,
                            "product of two non-constant expressions is not linear",
                        )
                        .with_label("non-linear product")
                        .with_help(
                            "lpmc handles linear programs: one factor of `*` must be a constant",
                        ),
                    );
                    Expr::Undef
                }
            },
            BinOp::Div | BinOp::Mod => match const_value(&b) {
                Some(c) if c.is_zero() => {
                    self.errors
                        .push(err(DiagKind::BadConstant, rspan, "division by zero"));
                    Expr::Undef
                }
                Some(c) => {
                    let neg = c.is_negative();
                    let c = c.abs();
                    if let Some(x) = const_value(&a) {
                        // C truncates toward zero; BigInt's `/` and `%` do too.
                        let q = if op == BinOp::Div { &x / &c } else { &x % &c };
                        return Expr::Const(if neg && op == BinOp::Div { -q } else { q });
                    }
                    if op == BinOp::Div {
                        let d = Expr::Div(bx(a), c);
                        if neg {
                            Expr::Scale(BigInt::from(-1), bx(d))
                        } else {
                            d
                        }
                    } else {
                        Expr::Mod(bx(a), c) // C: the sign of `%` follows the dividend
                    }
                }
                None => {
                    self.errors.push(
                        err(
                            DiagKind::NonLinear,
                            span,
                            format!(
                                "`{}` by a non-constant is not linear",
                                if op == BinOp::Div { "/" } else { "%" }
                            ),
                        )
                        .with_label("non-constant divisor")
                        .with_help("divide only by a constant"),
                    );
                    Expr::Undef
                }
            },
            BinOp::Lt => cmp(CmpOp::Lt, a, b),
            BinOp::Le => cmp(CmpOp::Le, a, b),
            BinOp::Gt => cmp(CmpOp::Gt, a, b),
            BinOp::Ge => cmp(CmpOp::Ge, a, b),
            BinOp::Eq => cmp(CmpOp::Eq, a, b),
            BinOp::Ne => cmp(CmpOp::Ne, a, b),
            BinOp::And => Expr::And(bx(a), bx(b)),
            BinOp::Or => Expr::Or(bx(a), bx(b)),
            BinOp::BitAnd | BinOp::BitOr | BinOp::BitXor | BinOp::Shl | BinOp::Shr => {
                self.unsupported("bitwise operator", span);
                Expr::Undef
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

fn cmp(op: CmpOp, a: Expr, b: Expr) -> Expr {
    match (const_value(&a), const_value(&b)) {
        (Some(x), Some(y)) => Expr::int(op.holds(&x, &y) as i64),
        _ => Expr::Cmp(op, Box::new(a), Box::new(b)),
    }
}

fn fold2(
    a: Expr,
    b: Expr,
    f: impl Fn(BigInt, BigInt) -> BigInt,
    mk: impl Fn(Expr, Expr) -> Expr,
) -> Expr {
    match (const_value(&a), const_value(&b)) {
        (Some(x), Some(y)) => Expr::Const(f(x, y)),
        _ => mk(a, b),
    }
}
