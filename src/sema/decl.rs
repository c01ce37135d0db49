//! Declarations: `enum` constants, globals (with C's redeclarations and tentative
//! definitions), locals, arrays and their sizes, and `extern` names that are harmless
//! until used.

use super::consts::const_value;
use super::hir::{ArrayInfo, ArraySize, Expr, LValue, Range, Stmt, StmtKind, VarKind};
use super::state::{assign_or_call, err, Resolver, Sym};
use crate::diag::DiagKind;
use crate::ids::VarId;
use crate::syntax::ast::{self, IntTy};
use num_bigint::BigInt;
use num_traits::{One, Signed, ToPrimitive};

impl Resolver {
    /// Bring the constants of `enum` definitions into the current scope.
    pub(super) fn enums(&mut self, defs: &[ast::EnumDef]) {
        for d in defs {
            let mut next = BigInt::from(0);
            for (name, value) in &d.items {
                if let Some(e) = value {
                    let v = self.expr(e);
                    match const_value(&v) {
                        Some(n) => next = n,
                        None => {
                            self.errors.push(
                                err(
                                    DiagKind::BadConstant,
                                    e.span,
                                    format!("the value of `{}` is not a constant", name.name),
                                )
                                .with_label("not a constant expression"),
                            );
                        }
                    }
                }
                self.declare(name, Sym::Const(next.clone()));
                next += BigInt::one();
            }
        }
    }

    /// An `extern` declaration of a type outside the fragment (or of a pointer): harmless
    /// unless used, so its uses are reported, not the declaration.
    fn extern_opaque(&mut self, d: &ast::Decl, v: &ast::VarDecl) -> bool {
        if !d.storage.is_extern || (v.pointer == 0 && d.ty.int().is_some()) {
            return false;
        }
        let what = if v.pointer > 0 {
            "use of the external pointer".to_string()
        } else {
            format!("use of the external variable of type `{}`", ty_text(&d.ty))
        };
        self.declare_opaque(&v.name, format!("{what} `{}`", v.name.name));
        true
    }

    pub(super) fn global_decl(&mut self, d: &ast::Decl) {
        self.enums(&d.enums);
        if d.vars.is_empty() {
            return;
        }
        if d.vars.iter().all(|v| self.would_be_opaque(d, v)) {
            for v in &d.vars {
                self.extern_opaque(d, v);
            }
            return;
        }
        let range = self.ty_range(&d.ty, d.span);
        for v in &d.vars {
            if self.extern_opaque(d, v) || self.redeclared_global(d, v) {
                continue;
            }
            if v.pointer > 0 {
                self.unsupported("pointer variable", v.name.span);
            }
            if v.dims.is_empty() {
                let id = self.new_var(&v.name.name, VarKind::Global, range, v.name.span);
                self.record_type(id, &d.ty, v);
                self.declare(&v.name, Sym::Var(id));
                if d.storage.is_extern && v.init.is_none() {
                    self.extern_only.insert(id);
                }
                let init = match &v.init {
                    None => None,
                    Some(ast::Init::Expr(e)) => {
                        let v = self.tpure_expr(e);
                        Some(self.assign_conv(v, d.ty.int()))
                    }
                    Some(ast::Init::List(_, span)) => {
                        self.errors.push(err(
                            DiagKind::Type,
                            *span,
                            "a scalar cannot have an initialiser list",
                        ));
                        None
                    }
                    Some(ast::Init::Nested(_, span)) => {
                        self.unsupported("nested or designated initialiser", *span);
                        None
                    }
                };
                self.globals.push((id, init));
            } else {
                let Some((size, init, _)) = self.array_shape(v, true, d.ty.int()) else {
                    continue;
                };
                let id = self.arrays.push(ArrayInfo {
                    name: v.name.name.clone(),
                    proc: None,
                    size,
                    range,
                    span: v.name.span,
                });
                if let Some(t) = d.ty.int() {
                    self.array_types.insert(id, t);
                }
                self.declare(&v.name, Sym::Array(id));
                self.global_arrays.push((id, init));
            }
        }
    }

    /// A file-scope name declared again (`extern int x; ... int x = 1;`, or the tentative
    /// definitions `int x; int x;`) is the same object: the declaration only adds the
    /// initialiser, if the object had none. Returns whether `v` was such a redeclaration.
    fn redeclared_global(&mut self, d: &ast::Decl, v: &ast::VarDecl) -> bool {
        let existing = self.scopes[0].get(&v.name.name).cloned();
        match (existing, v.dims.is_empty()) {
            (Some(Sym::Var(id)), true) => {
                if !d.storage.is_extern || v.init.is_some() {
                    self.extern_only.remove(&id);
                }
                if let Some(ast::Init::Expr(e)) = &v.init {
                    let val = self.tpure_expr(e);
                    let init = self.assign_conv(val, Some(self.var_type(id)));
                    if let Some(slot) = self.globals.iter_mut().find(|(g, _)| *g == id) {
                        if slot.1.is_some() {
                            self.errors.push(
                                err(
                                    DiagKind::Redeclared,
                                    v.name.span,
                                    format!("`{}` is initialised twice", v.name.name),
                                )
                                .with_label("second definition"),
                            );
                        }
                        slot.1 = Some(init);
                    }
                }
                true
            }
            (Some(Sym::Array(a)), false) => {
                if let Some(ast::Init::List(es, _)) = &v.init {
                    let elem = self.array_type(a);
                    let init: Vec<Expr> = es
                        .iter()
                        .map(|e| {
                            let val = self.tpure_expr(e);
                            self.assign_conv(val, Some(elem))
                        })
                        .collect();
                    if let Some(slot) = self.global_arrays.iter_mut().find(|(g, _)| *g == a) {
                        if slot.1.is_some() {
                            self.errors.push(
                                err(
                                    DiagKind::Redeclared,
                                    v.name.span,
                                    format!("`{}` is initialised twice", v.name.name),
                                )
                                .with_label("second definition"),
                            );
                        }
                        slot.1 = Some(init);
                    }
                }
                true
            }
            _ => false,
        }
    }

    fn would_be_opaque(&self, d: &ast::Decl, v: &ast::VarDecl) -> bool {
        d.storage.is_extern && (v.pointer > 0 || d.ty.int().is_none())
    }

    fn record_type(&mut self, id: VarId, ty: &ast::Ty, v: &ast::VarDecl) {
        if let (Some(t), 0) = (ty.int(), v.pointer) {
            self.var_types.insert(id, t);
        }
    }

    /// The size and initialiser of an array declarator, and for a VLA its resolved size
    /// expression. `None` after an error.
    #[allow(clippy::type_complexity)]
    fn array_shape(
        &mut self,
        v: &ast::VarDecl,
        global: bool,
        elem: Option<IntTy>,
    ) -> Option<(ArraySize, Option<Vec<Expr>>, Option<Expr>)> {
        if v.dims.len() > 1 {
            self.unsupported("multi-dimensional array", v.name.span);
        }
        let init = match &v.init {
            None => None,
            Some(ast::Init::List(es, _)) => Some(
                es.iter()
                    .map(|e| {
                        let v = self.tpure_expr(e);
                        self.assign_conv(v, elem)
                    })
                    .collect::<Vec<_>>(),
            ),
            Some(ast::Init::Nested(_, span)) => {
                self.unsupported("nested or designated initialiser", *span);
                None
            }
            Some(ast::Init::Expr(e)) => {
                if matches!(e.kind, ast::ExprKind::Str(_)) {
                    self.unsupported("array initialised by a string literal", e.span);
                } else {
                    self.errors.push(err(
                        DiagKind::Type,
                        e.span,
                        "an array needs an initialiser list `{...}`",
                    ));
                }
                None
            }
        };
        let size = match &v.dims[0] {
            None => match &init {
                Some(es) if !es.is_empty() => ArraySize::Const(es.len() as u64),
                _ if matches!(v.init, Some(ast::Init::Nested(..) | ast::Init::Expr(_))) => {
                    return None
                }
                _ => {
                    self.errors.push(
                        err(DiagKind::BadConstant, v.name.span, "array size missing")
                            .with_help("write the size, e.g. `int a[10];`"),
                    );
                    return None;
                }
            },
            Some(e) => {
                let size = self.pure_expr(e);
                match const_value(&size) {
                    Some(n) if n.is_positive() => match n.to_u64() {
                        Some(n) if n <= (1u64 << 40) => ArraySize::Const(n),
                        _ => {
                            self.errors.push(err(
                                DiagKind::BadConstant,
                                e.span,
                                "array size is too large",
                            ));
                            return None;
                        }
                    },
                    Some(_) => {
                        self.errors.push(
                            err(
                                DiagKind::BadConstant,
                                e.span,
                                "array size must be a positive integer",
                            )
                            .with_label("not positive"),
                        );
                        return None;
                    }
                    None if global => {
                        self.errors.push(err(
                            DiagKind::BadConstant,
                            e.span,
                            "a global array needs a constant size",
                        ));
                        return None;
                    }
                    None => {
                        let p = self.cur.expect("local arrays are inside procedures");
                        let sv = self.new_var(
                            &format!("{}#size", v.name.name),
                            VarKind::ArraySize(p),
                            Range::Any,
                            e.span,
                        );
                        return Some((ArraySize::Dynamic(sv), init, Some(size)));
                    }
                }
            }
        };
        if let (ArraySize::Const(n), Some(es)) = (&size, &init) {
            if es.len() as u64 > *n {
                self.errors.push(err(
                    DiagKind::BadConstant,
                    v.span,
                    format!("too many initialisers for an array of size {n}"),
                ));
            }
        }
        Some((size, init, None))
    }

    pub(super) fn local_decl(&mut self, d: &ast::Decl, out: &mut Vec<Stmt>) {
        let p = self.cur.expect("local declarations are inside procedures");
        self.enums(&d.enums);
        if d.vars.is_empty() {
            return;
        }
        if d.storage.is_extern && d.vars.iter().all(|v| v.init.is_none()) {
            // `extern int g;` in a body names the global `g`.
            for v in &d.vars {
                match self.scopes[0].get(&v.name.name).cloned() {
                    Some(sym) => self.declare(&v.name, sym),
                    None => self.declare_opaque(
                        &v.name,
                        format!("use of `{}`, declared `extern` in a body only", v.name.name),
                    ),
                }
            }
            return;
        }
        if d.vars.iter().all(|v| self.would_be_opaque(d, v)) {
            for v in &d.vars {
                self.extern_opaque(d, v);
            }
            return;
        }
        let range = self.ty_range(&d.ty, d.span);
        for v in &d.vars {
            if self.extern_opaque(d, v) {
                continue;
            }
            if v.pointer > 0 {
                self.unsupported("pointer variable", v.name.span);
            }
            if v.dims.is_empty() {
                // The initialiser is resolved before the name is in scope (`int x = x;`
                // reads an outer `x`, as C's scope starts after the declarator... close
                // enough: C starts it before the initialiser, but such code is rare).
                let init = match &v.init {
                    None => None,
                    Some(ast::Init::Expr(e)) => {
                        let v = self.tvalue_expr(e, out);
                        Some(self.assign_conv(v, d.ty.int()))
                    }
                    Some(ast::Init::List(_, span)) => {
                        self.errors.push(err(
                            DiagKind::Type,
                            *span,
                            "a scalar cannot have an initialiser list",
                        ));
                        None
                    }
                    Some(ast::Init::Nested(_, span)) => {
                        self.unsupported("nested or designated initialiser", *span);
                        None
                    }
                };
                let id = self.new_var(&v.name.name, VarKind::Local(p), range, v.name.span);
                self.record_type(id, &d.ty, v);
                self.declare(&v.name, Sym::Var(id));
                let kind = match init {
                    None => StmtKind::Havoc(id),
                    Some(e) => assign_or_call(LValue::Var(id), e),
                };
                out.push(Stmt { kind, span: v.span });
            } else {
                let Some((size, init, size_expr)) = self.array_shape(v, false, d.ty.int()) else {
                    continue;
                };
                let id = self.arrays.push(ArrayInfo {
                    name: v.name.name.clone(),
                    proc: Some(p),
                    size,
                    range,
                    span: v.name.span,
                });
                if let Some(t) = d.ty.int() {
                    self.array_types.insert(id, t);
                }
                self.procs[p].arrays.push(id);
                self.declare(&v.name, Sym::Array(id));
                out.push(Stmt {
                    kind: StmtKind::ArrayDecl {
                        array: id,
                        size: size_expr,
                        init,
                    },
                    span: v.span,
                });
            }
        }
    }
}

fn ty_text(t: &ast::Ty) -> &str {
    match t {
        ast::Ty::Int { spelling, .. } | ast::Ty::Unsupported { spelling } => spelling,
        ast::Ty::Void => "void",
    }
}
