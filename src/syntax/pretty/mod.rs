//! The pretty-printer: prints an AST back as text that [`parse`](super::parse) reads to
//! the same tree (up to spans), one statement per line, with minimal parentheses chosen
//! from C's precedences. This file prints programs, declarations and statements;
//! expressions are in `expr.rs`. Also [`erase_spans`] (`erase.rs`), for comparing trees
//! modulo positions.

#[cfg(test)]
mod erase;
mod expr;

use super::ast::{
    Decl, FuncProto, Init, Item, Param, Program, Stmt, StmtKind, Storage, Ty, VarDecl,
};
use expr::{assign_op, expr_into, incdec_into, list_into, PREC_ASSIGN, PREC_COND, PREC_UNARY};
use std::fmt::Write;

#[cfg(test)]
pub use erase::erase_spans;

/// The whole program as text.
pub fn pretty(p: &Program) -> String {
    let mut out = String::new();
    for (k, item) in p.items.iter().enumerate() {
        if k > 0 && (matches!(item, Item::Func(_)) || matches!(p.items[k - 1], Item::Func(_))) {
            out.push('\n');
        }
        match item {
            Item::Decl(d) => {
                out.push_str(&decl(d));
                out.push_str(";\n");
            }
            Item::Proto(fp) => {
                out.push_str(&proto(fp));
                out.push_str(";\n");
            }
            Item::Func(f) => {
                out.push_str(&proto(&f.proto));
                out.push(' ');
                stmt_into(&mut out, &f.body, 0);
            }
            Item::Typedef(t) => {
                out.push_str(&t.text);
                out.push('\n');
            }
            Item::Other { text, .. } => {
                out.push_str(text);
                out.push('\n');
            }
        }
    }
    out
}

/// One expression as text.
#[cfg(test)]
pub fn pretty_expr(e: &super::ast::Expr) -> String {
    let mut out = String::new();
    expr_into(&mut out, e, 0);
    out
}

/// One statement as text (several lines for compound statements, no final newline).
#[cfg(test)]
pub fn pretty_stmt(s: &Stmt) -> String {
    let mut out = String::new();
    stmt_into(&mut out, s, 0);
    while out.ends_with('\n') {
        out.pop();
    }
    out
}

fn storage(s: &Storage) -> String {
    let mut out = String::new();
    for (on, w) in [
        (s.is_extern, "extern "),
        (s.is_static, "static "),
        (s.is_const, "const "),
    ] {
        if on {
            out.push_str(w);
        }
    }
    out
}

fn ty(t: &Ty) -> &str {
    match t {
        Ty::Int { spelling, .. } if spelling.is_empty() => "int",
        Ty::Int { spelling, .. } | Ty::Unsupported { spelling } => spelling,
        Ty::Void => "void",
    }
}

fn stars(n: u8) -> String {
    "*".repeat(n as usize)
}

fn var_decl(v: &VarDecl) -> String {
    let mut out = format!("{}{}", stars(v.pointer), v.name.name);
    for d in &v.dims {
        match d {
            Some(e) => {
                out.push('[');
                expr_into(&mut out, e, PREC_ASSIGN);
                out.push(']');
            }
            None => out.push_str("[]"),
        }
    }
    match &v.init {
        Some(Init::Expr(e)) => {
            out.push_str(" = ");
            expr_into(&mut out, e, PREC_ASSIGN);
        }
        Some(Init::List(es, _)) => {
            out.push_str(" = {");
            list_into(&mut out, es);
            out.push('}');
        }
        Some(Init::Nested(text, _)) => {
            out.push_str(" = ");
            out.push_str(text);
        }
        None => {}
    }
    out
}

/// A declaration without its `;`.
fn decl(d: &Decl) -> String {
    let vars: Vec<String> = d.vars.iter().map(var_decl).collect();
    if vars.is_empty() {
        return format!("{}{}", storage(&d.storage), ty(&d.ty));
    }
    format!("{}{} {}", storage(&d.storage), ty(&d.ty), vars.join(", "))
}

fn param(p: &Param) -> String {
    let mut out = ty(&p.ty).to_string();
    if p.pointer > 0 {
        out.push(' ');
        out.push_str(&stars(p.pointer));
    }
    if let Some(n) = &p.name {
        if p.pointer == 0 {
            out.push(' ');
        }
        out.push_str(&n.name);
    }
    if p.is_array {
        out.push_str("[]");
    }
    out
}

/// A prototype without its `;`.
fn proto(p: &FuncProto) -> String {
    let mut params: Vec<String> = p.params.iter().map(param).collect();
    if p.variadic {
        params.push("...".to_string());
    }
    if p.void_params && params.is_empty() {
        params.push("void".to_string());
    }
    let mut out = format!(
        "{}{} {}{}({})",
        storage(&p.storage),
        ty(&p.ret),
        stars(p.ret_pointer),
        p.name.name,
        params.join(", ")
    );
    for a in &p.attributes {
        out.push(' ');
        out.push_str(a);
    }
    out
}

fn indent(out: &mut String, level: usize) {
    for _ in 0..level {
        out.push_str("    ");
    }
}

/// A simple statement (assignment, `x++`, call) without `;`; a `Block` of them is printed
/// as a comma sequence (the `for` header form). Returns `false` if `s` is not simple.
fn simple_into(out: &mut String, s: &Stmt) -> bool {
    match &s.kind {
        StmtKind::Assign { lhs, rhs } => {
            for (k, l) in lhs.iter().enumerate() {
                if k > 0 {
                    out.push_str(", ");
                }
                expr_into(out, l, PREC_UNARY);
            }
            out.push_str(" = ");
            list_into(out, rhs);
        }
        StmtKind::CompoundAssign { lhs, op, rhs } => {
            expr_into(out, lhs, PREC_UNARY);
            let _ = write!(out, " {} ", assign_op(*op));
            expr_into(out, rhs, PREC_ASSIGN);
        }
        StmtKind::IncDec { lhs, inc, prefix } => incdec_into(out, lhs, *inc, *prefix),
        StmtKind::Expr(e) => expr_into(out, e, PREC_ASSIGN),
        StmtKind::Decl(d) => out.push_str(&decl(d)),
        StmtKind::Block(ss)
            if !ss.is_empty()
                && ss
                    .iter()
                    .all(|s| is_simple(s) && !matches!(s.kind, StmtKind::Block(_))) =>
        {
            for (k, s) in ss.iter().enumerate() {
                if k > 0 {
                    out.push_str(", ");
                }
                simple_into(out, s);
            }
        }
        _ => return false,
    }
    true
}

fn is_simple(s: &Stmt) -> bool {
    matches!(
        s.kind,
        StmtKind::Assign { .. }
            | StmtKind::CompoundAssign { .. }
            | StmtKind::IncDec { .. }
            | StmtKind::Expr(_)
    )
}

/// A statement at `level`, ending with a newline. The first line is not indented (the
/// caller has placed it).
fn stmt_into(out: &mut String, s: &Stmt, level: usize) {
    match &s.kind {
        StmtKind::Decl(d) => {
            out.push_str(&decl(d));
            out.push_str(";\n");
        }
        StmtKind::Assign { .. }
        | StmtKind::CompoundAssign { .. }
        | StmtKind::IncDec { .. }
        | StmtKind::Expr(_) => {
            simple_into(out, s);
            out.push_str(";\n");
        }
        StmtKind::If { cond, then, els } => {
            out.push_str("if (");
            expr_into(out, cond, 0);
            out.push(')');
            body_into(out, then, level);
            if let Some(e) = els {
                trim_newline_after_block(out);
                if !out.ends_with('}') {
                    indent(out, level);
                } else {
                    out.push(' ');
                }
                out.push_str("else");
                if matches!(e.kind, StmtKind::If { .. }) {
                    out.push(' ');
                    stmt_into(out, e, level);
                } else {
                    body_into(out, e, level);
                }
            }
        }
        StmtKind::While { cond, body } => {
            out.push_str("while (");
            expr_into(out, cond, 0);
            out.push(')');
            body_into(out, body, level);
        }
        StmtKind::DoWhile { body, cond } => {
            out.push_str("do");
            body_into(out, body, level);
            trim_newline_after_block(out);
            if out.ends_with('}') {
                out.push(' ');
            } else {
                indent(out, level);
            }
            out.push_str("while (");
            expr_into(out, cond, 0);
            out.push_str(");\n");
        }
        StmtKind::For {
            init,
            cond,
            step,
            body,
        } => {
            out.push_str("for (");
            if let Some(i) = init {
                simple_into(out, i);
            }
            out.push(';');
            if let Some(c) = cond {
                out.push(' ');
                expr_into(out, c, 0);
            }
            out.push(';');
            if let Some(st) = step {
                out.push(' ');
                simple_into(out, st);
            }
            out.push(')');
            body_into(out, body, level);
        }
        StmtKind::Break => out.push_str("break;\n"),
        StmtKind::Continue => out.push_str("continue;\n"),
        StmtKind::Return(None) => out.push_str("return;\n"),
        StmtKind::Return(Some(e)) => {
            out.push_str("return ");
            expr_into(out, e, 0);
            out.push_str(";\n");
        }
        StmtKind::Skip => out.push_str("skip;\n"),
        StmtKind::Empty => out.push_str(";\n"),
        StmtKind::Block(ss) => {
            out.push_str("{\n");
            for s in ss {
                indent(out, level + 1);
                stmt_into(out, s, level + 1);
            }
            indent(out, level);
            out.push_str("}\n");
        }
        StmtKind::Labeled { label, stmt } => {
            let _ = write!(out, "{}: ", label.name);
            stmt_into(out, stmt, level);
        }
        StmtKind::Goto(l) => {
            let _ = writeln!(out, "goto {};", l.name);
        }
        StmtKind::Switch { cond, body } => {
            out.push_str("switch (");
            expr_into(out, cond, 0);
            out.push(')');
            body_into(out, body, level);
        }
        StmtKind::Case { value, stmt } => {
            out.push_str("case ");
            expr_into(out, value, PREC_COND);
            out.push_str(": ");
            stmt_into(out, stmt, level);
        }
        StmtKind::Default(stmt) => {
            out.push_str("default: ");
            stmt_into(out, stmt, level);
        }
        StmtKind::Typedef(t) => {
            out.push_str(&t.text);
            out.push('\n');
        }
        StmtKind::Proto(fp) => {
            out.push_str(&proto(fp));
            out.push_str(";\n");
        }
        StmtKind::Other { text, .. } => {
            out.push_str(text);
            out.push('\n');
        }
    }
}

/// The body of `if`/`while`/`for`/`do`: a block on the same line, any other statement on
/// the next line, indented.
fn body_into(out: &mut String, s: &Stmt, level: usize) {
    if matches!(s.kind, StmtKind::Block(_)) {
        out.push(' ');
        stmt_into(out, s, level);
    } else {
        out.push('\n');
        indent(out, level + 1);
        stmt_into(out, s, level + 1);
    }
}

/// After a branch, put `else`/`while` on the same line as a closing `}`.
fn trim_newline_after_block(out: &mut String) {
    if out.ends_with("}\n") {
        out.pop();
    }
}
