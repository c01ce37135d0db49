//! `sizeof`, a constant of the data model: the size of a type (`sizeof(T)`, with array
//! dimensions) and the C type of an expression that is not evaluated (`sizeof e`).

use super::builtins::nondet_type;
use super::consts::const_value;
use super::hir::Expr;
use super::state::{Resolver, Sym};
use super::types::{common, literal_type, promote, string_size};
use crate::diag::Span;
use crate::syntax::ast::{self, BinOp, ExprKind, IntKind, IntTy, UnOp};
use num_bigint::BigInt;
use num_traits::ToPrimitive;

/// The C type of an expression, as far as `sizeof` needs it.
#[derive(Clone, Copy, Debug)]
pub(super) enum CType {
    Int(IntTy),
    Array(IntTy, u64),
    Pointer,
    /// A string literal's array: its size in bytes.
    Str(u64),
}

impl Resolver {
    /// `sizeof(ty)`.
    pub(super) fn sizeof_type(
        &mut self,
        ty: &ast::Ty,
        pointer: u8,
        dims: &[ast::Expr],
        span: Span,
    ) -> Expr {
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

    pub(super) fn size_of(&self, t: CType) -> u64 {
        let dm = self.opts.data_model;
        match t {
            CType::Int(t) => dm.size_of(t),
            CType::Array(t, n) => dm.size_of(t).saturating_mul(n),
            CType::Pointer => dm.pointer_size(),
            CType::Str(n) => n,
        }
    }

    /// The C type of an expression (not evaluated: the operand of `sizeof`).
    pub(super) fn ctype(&mut self, e: &ast::Expr) -> Option<CType> {
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
}
