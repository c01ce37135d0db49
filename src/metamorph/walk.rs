//! Walking the AST: a read-only ([`Visit`]) and a mutable ([`VisitMut`]) visitor over
//! statements, declarations and expressions, with default methods that visit every child
//! (a rewrite overrides the node kinds it cares about and calls the `walk_*` function for
//! the rest), and small queries built on them.

use crate::syntax::ast::{Decl, Expr, ExprKind, Init, Item, Program, Stmt, StmtKind};
use std::collections::BTreeSet;

/// A read-only visit. Each default method visits the node's children.
pub(super) trait Visit {
    fn stmt(&mut self, s: &Stmt) {
        walk_stmt(self, s);
    }
    fn expr(&mut self, e: &Expr) {
        walk_expr(self, e);
    }
    fn decl(&mut self, d: &Decl) {
        walk_decl(self, d);
    }
}

/// A mutable visit. Each default method visits the node's children.
pub(super) trait VisitMut {
    fn stmt(&mut self, s: &mut Stmt) {
        walk_stmt_mut(self, s);
    }
    fn expr(&mut self, e: &mut Expr) {
        walk_expr_mut(self, e);
    }
    fn decl(&mut self, d: &mut Decl) {
        walk_decl_mut(self, d);
    }
}

/// The children of a statement: declarations, expressions and sub-statements.
pub(super) fn walk_stmt<V: Visit + ?Sized>(v: &mut V, s: &Stmt) {
    match &s.kind {
        StmtKind::Decl(d) => v.decl(d),
        StmtKind::Assign { lhs, rhs } => lhs.iter().chain(rhs).for_each(|e| v.expr(e)),
        StmtKind::CompoundAssign { lhs, rhs, .. } => {
            v.expr(lhs);
            v.expr(rhs);
        }
        StmtKind::IncDec { lhs, .. } => v.expr(lhs),
        StmtKind::Expr(e) | StmtKind::Return(Some(e)) => v.expr(e),
        StmtKind::If { cond, then, els } => {
            v.expr(cond);
            v.stmt(then);
            if let Some(e) = els {
                v.stmt(e);
            }
        }
        StmtKind::While { cond, body } | StmtKind::DoWhile { body, cond } => {
            v.expr(cond);
            v.stmt(body);
        }
        StmtKind::For {
            init,
            cond,
            step,
            body,
        } => {
            if let Some(i) = init {
                v.stmt(i);
            }
            if let Some(c) = cond {
                v.expr(c);
            }
            if let Some(st) = step {
                v.stmt(st);
            }
            v.stmt(body);
        }
        StmtKind::Block(ss) => ss.iter().for_each(|s| v.stmt(s)),
        StmtKind::Labeled { stmt, .. } | StmtKind::Default(stmt) => v.stmt(stmt),
        StmtKind::Switch { cond, body } => {
            v.expr(cond);
            v.stmt(body);
        }
        StmtKind::Case { value, stmt } => {
            v.expr(value);
            v.stmt(stmt);
        }
        StmtKind::Break
        | StmtKind::Continue
        | StmtKind::Return(None)
        | StmtKind::Skip
        | StmtKind::Empty
        | StmtKind::Goto(_)
        | StmtKind::Typedef(_)
        | StmtKind::Proto(_)
        | StmtKind::Other { .. } => {}
    }
}

/// The sub-expressions of an expression (and the statements of a statement expression).
pub(super) fn walk_expr<V: Visit + ?Sized>(v: &mut V, e: &Expr) {
    match &e.kind {
        ExprKind::Index { base, index } => {
            v.expr(base);
            v.expr(index);
        }
        ExprKind::Unary { e, .. }
        | ExprKind::Cast { e, .. }
        | ExprKind::AddrOf(e)
        | ExprKind::Deref(e)
        | ExprKind::SizeofExpr(e)
        | ExprKind::IncDec { e, .. } => v.expr(e),
        ExprKind::Binary { l, r, .. } | ExprKind::Comma { l, r } => {
            v.expr(l);
            v.expr(r);
        }
        ExprKind::Assign { lhs, rhs, .. } => {
            v.expr(lhs);
            v.expr(rhs);
        }
        ExprKind::Cond { c, t, e } => {
            v.expr(c);
            v.expr(t);
            v.expr(e);
        }
        ExprKind::Call { args, .. } => args.iter().for_each(|a| v.expr(a)),
        ExprKind::SizeofType { dims, .. } => dims.iter().for_each(|d| v.expr(d)),
        ExprKind::StmtExpr(s) => v.stmt(s),
        ExprKind::Member { base, .. } => v.expr(base),
        ExprKind::Int(..)
        | ExprKind::Var(_)
        | ExprKind::Other { .. }
        | ExprKind::Str(_)
        | ExprKind::Float(_) => {}
    }
}

/// The array sizes, initialisers and `enum` values of a declaration.
pub(super) fn walk_decl<V: Visit + ?Sized>(v: &mut V, d: &Decl) {
    for en in &d.enums {
        en.items.iter().flat_map(|(_, e)| e).for_each(|e| v.expr(e));
    }
    for var in &d.vars {
        var.dims.iter().flatten().for_each(|e| v.expr(e));
        match &var.init {
            Some(Init::Expr(e)) => v.expr(e),
            Some(Init::List(es, _)) => es.iter().for_each(|e| v.expr(e)),
            Some(Init::Nested(..)) | None => {}
        }
    }
}

/// [`walk_stmt`], mutably.
pub(super) fn walk_stmt_mut<V: VisitMut + ?Sized>(v: &mut V, s: &mut Stmt) {
    match &mut s.kind {
        StmtKind::Decl(d) => v.decl(d),
        StmtKind::Assign { lhs, rhs } => lhs.iter_mut().chain(rhs).for_each(|e| v.expr(e)),
        StmtKind::CompoundAssign { lhs, rhs, .. } => {
            v.expr(lhs);
            v.expr(rhs);
        }
        StmtKind::IncDec { lhs, .. } => v.expr(lhs),
        StmtKind::Expr(e) | StmtKind::Return(Some(e)) => v.expr(e),
        StmtKind::If { cond, then, els } => {
            v.expr(cond);
            v.stmt(then);
            if let Some(e) = els {
                v.stmt(e);
            }
        }
        StmtKind::While { cond, body } | StmtKind::DoWhile { body, cond } => {
            v.expr(cond);
            v.stmt(body);
        }
        StmtKind::For {
            init,
            cond,
            step,
            body,
        } => {
            if let Some(i) = init {
                v.stmt(i);
            }
            if let Some(c) = cond {
                v.expr(c);
            }
            if let Some(st) = step {
                v.stmt(st);
            }
            v.stmt(body);
        }
        StmtKind::Block(ss) => ss.iter_mut().for_each(|s| v.stmt(s)),
        StmtKind::Labeled { stmt, .. } | StmtKind::Default(stmt) => v.stmt(stmt),
        StmtKind::Switch { cond, body } => {
            v.expr(cond);
            v.stmt(body);
        }
        StmtKind::Case { value, stmt } => {
            v.expr(value);
            v.stmt(stmt);
        }
        StmtKind::Break
        | StmtKind::Continue
        | StmtKind::Return(None)
        | StmtKind::Skip
        | StmtKind::Empty
        | StmtKind::Goto(_)
        | StmtKind::Typedef(_)
        | StmtKind::Proto(_)
        | StmtKind::Other { .. } => {}
    }
}

/// [`walk_expr`], mutably.
pub(super) fn walk_expr_mut<V: VisitMut + ?Sized>(v: &mut V, e: &mut Expr) {
    match &mut e.kind {
        ExprKind::Index { base, index } => {
            v.expr(base);
            v.expr(index);
        }
        ExprKind::Unary { e, .. }
        | ExprKind::Cast { e, .. }
        | ExprKind::AddrOf(e)
        | ExprKind::Deref(e)
        | ExprKind::SizeofExpr(e)
        | ExprKind::IncDec { e, .. } => v.expr(e),
        ExprKind::Binary { l, r, .. } | ExprKind::Comma { l, r } => {
            v.expr(l);
            v.expr(r);
        }
        ExprKind::Assign { lhs, rhs, .. } => {
            v.expr(lhs);
            v.expr(rhs);
        }
        ExprKind::Cond { c, t, e } => {
            v.expr(c);
            v.expr(t);
            v.expr(e);
        }
        ExprKind::Call { args, .. } => args.iter_mut().for_each(|a| v.expr(a)),
        ExprKind::SizeofType { dims, .. } => dims.iter_mut().for_each(|d| v.expr(d)),
        ExprKind::StmtExpr(s) => v.stmt(s),
        ExprKind::Member { base, .. } => v.expr(base),
        ExprKind::Int(..)
        | ExprKind::Var(_)
        | ExprKind::Other { .. }
        | ExprKind::Str(_)
        | ExprKind::Float(_) => {}
    }
}

/// [`walk_decl`], mutably.
pub(super) fn walk_decl_mut<V: VisitMut + ?Sized>(v: &mut V, d: &mut Decl) {
    for en in &mut d.enums {
        en.items
            .iter_mut()
            .flat_map(|(_, e)| e)
            .for_each(|e| v.expr(e));
    }
    for var in &mut d.vars {
        var.dims.iter_mut().flatten().for_each(|e| v.expr(e));
        match &mut var.init {
            Some(Init::Expr(e)) => v.expr(e),
            Some(Init::List(es, _)) => es.iter_mut().for_each(|e| v.expr(e)),
            Some(Init::Nested(..)) | None => {}
        }
    }
}

/// Every statement and expression of a whole program (global declarations, then each
/// procedure's body).
pub(super) fn walk_program<V: Visit + ?Sized>(v: &mut V, p: &Program) {
    for item in &p.items {
        match item {
            Item::Decl(d) => v.decl(d),
            Item::Func(f) => v.stmt(&f.body),
            Item::Proto(_) | Item::Typedef(_) | Item::Other { .. } => {}
        }
    }
}

/// Collects what a closure picks from every expression it is shown.
struct Exprs<F>(F);

impl<F: FnMut(&Expr)> Visit for Exprs<F> {
    fn expr(&mut self, e: &Expr) {
        (self.0)(e);
        walk_expr(self, e);
    }
}

/// Call `f` on every expression (and sub-expression) of a statement.
pub(super) fn each_expr(s: &Stmt, f: impl FnMut(&Expr)) {
    Exprs(f).stmt(s);
}

/// Call `f` on every expression (and sub-expression) of an expression.
pub(super) fn each_subexpr(e: &Expr, f: impl FnMut(&Expr)) {
    Exprs(f).expr(e);
}

/// Whether some expression of `s` satisfies `pred`.
pub(super) fn any_expr(s: &Stmt, mut pred: impl FnMut(&Expr) -> bool) -> bool {
    let mut found = false;
    each_expr(s, |e| found |= pred(e));
    found
}

/// Whether some sub-expression of `e` satisfies `pred`.
pub(super) fn any_subexpr(e: &Expr, mut pred: impl FnMut(&Expr) -> bool) -> bool {
    let mut found = false;
    each_subexpr(e, |x| found |= pred(x));
    found
}

/// The variable name an expression is, if it is a plain variable.
pub(super) fn var_name(e: &Expr) -> Option<&str> {
    match &e.kind {
        ExprKind::Var(id) => Some(&id.name),
        _ => None,
    }
}

/// Whether `e` names `name` anywhere (as a variable or an indexed array).
pub(super) fn expr_mentions(e: &Expr, name: &str) -> bool {
    any_subexpr(e, |x| var_name(x) == Some(name))
}

/// Whether `s` names `name` anywhere: in an expression, or as a declared name.
pub(super) fn mentions(s: &Stmt, name: &str) -> bool {
    any_expr(s, |x| var_name(x) == Some(name)) || declared_names(s).contains(name)
}

/// The variables an expression reads or writes, by name.
pub(super) fn expr_vars(e: &Expr) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    each_subexpr(e, |x| {
        if let Some(n) = var_name(x) {
            out.insert(n.to_string());
        }
    });
    out
}

/// Collects every statement it is shown (pre-order).
struct Stmts<F>(F);

impl<F: FnMut(&Stmt)> Visit for Stmts<F> {
    fn stmt(&mut self, s: &Stmt) {
        (self.0)(s);
        walk_stmt(self, s);
    }
}

/// Call `f` on `s` and every statement inside it, in pre-order (statement expressions
/// included).
pub(super) fn each_stmt(s: &Stmt, f: impl FnMut(&Stmt)) {
    Stmts(f).stmt(s);
}

/// Whether `s` or a statement inside it satisfies `pred`.
pub(super) fn any_stmt(s: &Stmt, mut pred: impl FnMut(&Stmt) -> bool) -> bool {
    let mut found = false;
    each_stmt(s, |x| found |= pred(x));
    found
}

/// The names declared by the declarations inside `s` (at any depth).
pub(super) fn declared_names(s: &Stmt) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    each_stmt(s, |x| {
        if let StmtKind::Decl(d) = &x.kind {
            out.extend(d.vars.iter().map(|v| v.name.name.clone()));
            for en in &d.enums {
                out.extend(en.items.iter().map(|(n, _)| n.name.clone()));
            }
        }
    });
    out
}

/// Every identifier the program uses or declares: variables, procedures, parameters,
/// labels, `enum` constants and `typedef` names (for choosing fresh names).
pub(super) fn all_names(p: &Program) -> BTreeSet<String> {
    struct Names(BTreeSet<String>);
    impl Visit for Names {
        fn stmt(&mut self, s: &Stmt) {
            match &s.kind {
                StmtKind::Labeled { label, .. } | StmtKind::Goto(label) => {
                    self.0.insert(label.name.clone());
                }
                StmtKind::Typedef(t) => {
                    self.0.extend(t.names.iter().map(|(n, _)| n.name.clone()));
                }
                StmtKind::Proto(fp) => {
                    self.0.insert(fp.name.name.clone());
                }
                _ => {}
            }
            walk_stmt(self, s);
        }
        fn expr(&mut self, e: &Expr) {
            match &e.kind {
                ExprKind::Var(id) | ExprKind::Call { func: id, .. } => {
                    self.0.insert(id.name.clone());
                }
                ExprKind::Member { field, .. } => {
                    self.0.insert(field.name.clone());
                }
                _ => {}
            }
            walk_expr(self, e);
        }
        fn decl(&mut self, d: &Decl) {
            self.0.extend(d.vars.iter().map(|v| v.name.name.clone()));
            for en in &d.enums {
                self.0.extend(en.items.iter().map(|(n, _)| n.name.clone()));
            }
            walk_decl(self, d);
        }
    }
    let mut names = Names(BTreeSet::new());
    for item in &p.items {
        match item {
            Item::Func(f) => {
                names.0.insert(f.proto.name.name.clone());
                names.0.extend(
                    f.proto
                        .params
                        .iter()
                        .flat_map(|p| &p.name)
                        .map(|n| n.name.clone()),
                );
            }
            Item::Proto(fp) => {
                names.0.insert(fp.name.name.clone());
            }
            Item::Typedef(t) => {
                names.0.extend(t.names.iter().map(|(n, _)| n.name.clone()));
            }
            Item::Decl(_) | Item::Other { .. } => {}
        }
    }
    walk_program(&mut names, p);
    names.0
}

/// A name starting with `base` that is not in `taken` (nor a C keyword, nor `u`), added to
/// `taken`.
pub(super) fn fresh(base: &str, taken: &mut BTreeSet<String>) -> String {
    let mut name = base.to_string();
    let mut k = 1;
    while taken.contains(&name) || is_reserved(&name) {
        name = format!("{base}_{k}");
        k += 1;
    }
    taken.insert(name.clone());
    name
}

/// C keywords and EUREKA's `u` and `skip`.
fn is_reserved(name: &str) -> bool {
    matches!(
        name,
        "u" | "skip"
            | "auto"
            | "break"
            | "case"
            | "char"
            | "const"
            | "continue"
            | "default"
            | "do"
            | "double"
            | "else"
            | "enum"
            | "extern"
            | "float"
            | "for"
            | "goto"
            | "if"
            | "inline"
            | "int"
            | "long"
            | "register"
            | "restrict"
            | "return"
            | "short"
            | "signed"
            | "sizeof"
            | "static"
            | "struct"
            | "switch"
            | "typedef"
            | "union"
            | "unsigned"
            | "void"
            | "volatile"
            | "while"
            | "assert"
            | "assume"
    )
}
