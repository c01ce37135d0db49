//! Constructors of the AST nodes the rewrites add. New nodes have empty spans: the
//! variants are printed and parsed again, never analysed as trees.

use crate::diag::Span;
use crate::syntax::ast::{
    BinOp, Decl, Expr, ExprKind, Ident, Init, IntLit, IntTy, Stmt, StmtKind, Storage, Ty, UnOp,
    VarDecl,
};
use num_bigint::BigInt;

pub(super) fn ident(name: &str) -> Ident {
    Ident {
        name: name.to_string(),
        span: Span::default(),
    }
}

pub(super) fn expr(kind: ExprKind) -> Expr {
    Expr::new(kind, Span::default())
}

pub(super) fn stmt(kind: StmtKind) -> Stmt {
    Stmt::new(kind, Span::default())
}

pub(super) fn var(name: &str) -> Expr {
    expr(ExprKind::Var(ident(name)))
}

pub(super) fn int(v: impl Into<BigInt>) -> Expr {
    expr(ExprKind::Int(v.into(), IntLit::default()))
}

pub(super) fn bin(op: BinOp, l: Expr, r: Expr) -> Expr {
    expr(ExprKind::Binary {
        op,
        l: Box::new(l),
        r: Box::new(r),
    })
}

pub(super) fn not(e: Expr) -> Expr {
    expr(ExprKind::Unary {
        op: UnOp::Not,
        e: Box::new(e),
    })
}

pub(super) fn call(func: &str, args: Vec<Expr>) -> Expr {
    expr(ExprKind::Call {
        func: ident(func),
        args,
    })
}

pub(super) fn block(ss: Vec<Stmt>) -> Stmt {
    stmt(StmtKind::Block(ss))
}

/// `lhs = rhs;`
pub(super) fn assign(lhs: Expr, rhs: Expr) -> Stmt {
    stmt(StmtKind::Assign {
        lhs: vec![lhs],
        rhs: vec![rhs],
    })
}

/// `f(args);`
pub(super) fn call_stmt(func: &str, args: Vec<Expr>) -> Stmt {
    stmt(StmtKind::Expr(call(func, args)))
}

/// `x++;`
pub(super) fn incr(name: &str) -> Stmt {
    stmt(StmtKind::IncDec {
        lhs: var(name),
        inc: true,
        prefix: false,
    })
}

/// `int`.
pub(super) fn int_ty() -> Ty {
    Ty::Int {
        int: IntTy::INT,
        spelling: "int".to_string(),
    }
}

/// One declarator of `name` (scalar when `dims` is empty).
pub(super) fn var_decl(name: &str, dims: Vec<Option<Expr>>, init: Option<Init>) -> VarDecl {
    VarDecl {
        name: ident(name),
        pointer: 0,
        dims,
        init,
        span: Span::default(),
    }
}

/// A declaration of `vars` with type `ty`.
pub(super) fn decl(ty: Ty, vars: Vec<VarDecl>) -> Decl {
    Decl {
        storage: Storage::default(),
        ty,
        vars,
        enums: Vec::new(),
        span: Span::default(),
    }
}

/// `int name = init;` (or `int name;`).
pub(super) fn int_decl_stmt(name: &str, init: Option<Expr>) -> Stmt {
    stmt(StmtKind::Decl(decl(
        int_ty(),
        vec![var_decl(name, Vec::new(), init.map(Init::Expr))],
    )))
}

/// `return 0;` or `return;`.
pub(super) fn ret(value: bool) -> Stmt {
    stmt(StmtKind::Return(value.then(|| int(0))))
}
