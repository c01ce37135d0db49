//! [`erase_spans`]: every span of a tree set to `Span::default()`, for comparing trees
//! modulo positions.

use crate::diag::Span;
use crate::syntax::ast::{
    Decl, EnumDef, Expr, ExprKind, FuncProto, Init, Item, Program, Stmt, StmtKind, Typedef,
};

/// Set every span in the program to `Span::default()`.
pub fn erase_spans(p: &mut Program) {
    p.span = Span::default();
    for item in &mut p.items {
        match item {
            Item::Decl(d) => erase_decl(d),
            Item::Func(f) => {
                f.span = Span::default();
                erase_proto(&mut f.proto);
                erase_stmt(&mut f.body);
            }
            Item::Proto(fp) => erase_proto(fp),
            Item::Typedef(t) => erase_typedef(t),
            Item::Other { span, .. } => *span = Span::default(),
        }
    }
}

fn erase_typedef(t: &mut Typedef) {
    t.span = Span::default();
    for (n, _) in &mut t.names {
        n.span = Span::default();
    }
    t.enums.iter_mut().for_each(erase_enum);
}

fn erase_enum(d: &mut EnumDef) {
    d.span = Span::default();
    if let Some(n) = &mut d.name {
        n.span = Span::default();
    }
    for (n, v) in &mut d.items {
        n.span = Span::default();
        if let Some(e) = v {
            erase_expr(e);
        }
    }
}

fn erase_proto(p: &mut FuncProto) {
    p.span = Span::default();
    p.name.span = Span::default();
    for prm in &mut p.params {
        prm.span = Span::default();
        if let Some(n) = &mut prm.name {
            n.span = Span::default();
        }
    }
}

fn erase_decl(d: &mut Decl) {
    d.span = Span::default();
    d.enums.iter_mut().for_each(erase_enum);
    for v in &mut d.vars {
        v.span = Span::default();
        v.name.span = Span::default();
        for e in v.dims.iter_mut().flatten() {
            erase_expr(e);
        }
        match &mut v.init {
            Some(Init::Expr(e)) => erase_expr(e),
            Some(Init::List(es, span)) => {
                *span = Span::default();
                es.iter_mut().for_each(erase_expr);
            }
            Some(Init::Nested(_, span)) => *span = Span::default(),
            None => {}
        }
    }
}

fn erase_stmt(s: &mut Stmt) {
    s.span = Span::default();
    match &mut s.kind {
        StmtKind::Decl(d) => erase_decl(d),
        StmtKind::Assign { lhs, rhs } => lhs.iter_mut().chain(rhs.iter_mut()).for_each(erase_expr),
        StmtKind::CompoundAssign { lhs, rhs, .. } => {
            erase_expr(lhs);
            erase_expr(rhs);
        }
        StmtKind::IncDec { lhs, .. } => erase_expr(lhs),
        StmtKind::Expr(e) | StmtKind::Return(Some(e)) => erase_expr(e),
        StmtKind::If { cond, then, els } => {
            erase_expr(cond);
            erase_stmt(then);
            if let Some(e) = els {
                erase_stmt(e);
            }
        }
        StmtKind::While { cond, body } | StmtKind::DoWhile { body, cond } => {
            erase_expr(cond);
            erase_stmt(body);
        }
        StmtKind::For {
            init,
            cond,
            step,
            body,
        } => {
            for s in [init, step].into_iter().flatten() {
                erase_stmt(s);
            }
            if let Some(c) = cond {
                erase_expr(c);
            }
            erase_stmt(body);
        }
        StmtKind::Block(ss) => ss.iter_mut().for_each(erase_stmt),
        StmtKind::Labeled { label, stmt } => {
            label.span = Span::default();
            erase_stmt(stmt);
        }
        StmtKind::Goto(l) => l.span = Span::default(),
        StmtKind::Switch { cond, body } => {
            erase_expr(cond);
            erase_stmt(body);
        }
        StmtKind::Case { value, stmt } => {
            erase_expr(value);
            erase_stmt(stmt);
        }
        StmtKind::Default(stmt) => erase_stmt(stmt),
        StmtKind::Typedef(t) => erase_typedef(t),
        StmtKind::Proto(fp) => erase_proto(fp),
        StmtKind::Other { .. }
        | StmtKind::Break
        | StmtKind::Continue
        | StmtKind::Return(None)
        | StmtKind::Skip
        | StmtKind::Empty => {}
    }
}

fn erase_expr(e: &mut Expr) {
    e.span = Span::default();
    match &mut e.kind {
        ExprKind::Var(id) => id.span = Span::default(),
        ExprKind::Index { base, index } => {
            erase_expr(base);
            erase_expr(index);
        }
        ExprKind::Unary { e, .. }
        | ExprKind::Cast { e, .. }
        | ExprKind::AddrOf(e)
        | ExprKind::Deref(e)
        | ExprKind::IncDec { e, .. }
        | ExprKind::SizeofExpr(e) => erase_expr(e),
        ExprKind::Member { base, field, .. } => {
            erase_expr(base);
            field.span = Span::default();
        }
        ExprKind::StmtExpr(s) => erase_stmt(s),
        ExprKind::SizeofType { dims, .. } => dims.iter_mut().for_each(erase_expr),
        ExprKind::Comma { l, r } | ExprKind::Binary { l, r, .. } => {
            erase_expr(l);
            erase_expr(r);
        }
        ExprKind::Cond { c, t, e } => {
            erase_expr(c);
            erase_expr(t);
            erase_expr(e);
        }
        ExprKind::Call { func, args } => {
            func.span = Span::default();
            args.iter_mut().for_each(erase_expr);
        }
        ExprKind::Assign { lhs, rhs, .. } => {
            erase_expr(lhs);
            erase_expr(rhs);
        }
        ExprKind::Int(..) | ExprKind::Str(_) | ExprKind::Float(_) | ExprKind::Other { .. } => {}
    }
}
