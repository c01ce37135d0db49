//! The pretty-printer: prints an AST back as text that [`parse`](super::parse) reads to
//! the same tree (up to spans), one statement per line, with minimal parentheses chosen
//! from C's precedences. Also [`erase_spans`], for comparing trees modulo positions.

use super::ast::{
    AssignOp, BinOp, Decl, EnumDef, Expr, ExprKind, FuncProto, Init, IntLit, Item, Param, Program,
    Stmt, StmtKind, Storage, Ty, Typedef, UnOp, VarDecl,
};
use crate::diag::Span;
use std::fmt::Write;

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
pub fn pretty_expr(e: &Expr) -> String {
    let mut out = String::new();
    expr_into(&mut out, e, 0);
    out
}

/// One statement as text (several lines for compound statements, no final newline).
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

// Precedences: higher binds tighter.
const PREC_COMMA: u8 = 0;
const PREC_ASSIGN: u8 = 1;
const PREC_COND: u8 = 2;
const PREC_UNARY: u8 = 13;
const PREC_POSTFIX: u8 = 14;
const PREC_PRIMARY: u8 = 15;

/// A binary operator's text and precedence (3 for `||` up to 12 for `*`).
fn binop(op: BinOp) -> (&'static str, u8) {
    match op {
        BinOp::Or => ("||", 3),
        BinOp::And => ("&&", 4),
        BinOp::BitOr => ("|", 5),
        BinOp::BitXor => ("^", 6),
        BinOp::BitAnd => ("&", 7),
        BinOp::Eq => ("==", 8),
        BinOp::Ne => ("!=", 8),
        BinOp::Lt => ("<", 9),
        BinOp::Le => ("<=", 9),
        BinOp::Gt => (">", 9),
        BinOp::Ge => (">=", 9),
        BinOp::Shl => ("<<", 10),
        BinOp::Shr => (">>", 10),
        BinOp::Add => ("+", 11),
        BinOp::Sub => ("-", 11),
        BinOp::Mul => ("*", 12),
        BinOp::Div => ("/", 12),
        BinOp::Mod => ("%", 12),
    }
}

fn assign_op(op: AssignOp) -> &'static str {
    match op {
        AssignOp::Set => "=",
        AssignOp::Add => "+=",
        AssignOp::Sub => "-=",
        AssignOp::Mul => "*=",
        AssignOp::Div => "/=",
        AssignOp::Mod => "%=",
        AssignOp::BitAnd => "&=",
        AssignOp::BitOr => "|=",
        AssignOp::BitXor => "^=",
        AssignOp::Shl => "<<=",
        AssignOp::Shr => ">>=",
    }
}

/// An integer literal in its base (decimal, or hex for hex and octal literals) with its
/// suffix, so that it reads back with the same C type.
fn int_into(out: &mut String, v: &num_bigint::BigInt, lit: IntLit) {
    if lit.non_decimal && v.sign() != num_bigint::Sign::Minus {
        let _ = write!(out, "0x{v:x}");
    } else {
        let _ = write!(out, "{v}");
    }
    if lit.unsigned {
        out.push('u');
    }
    for _ in 0..lit.longs.min(2) {
        out.push('l');
    }
}

fn prec(e: &Expr) -> u8 {
    match &e.kind {
        ExprKind::Comma { .. } => PREC_COMMA,
        ExprKind::Assign { .. } => PREC_ASSIGN,
        ExprKind::Cond { .. } => PREC_COND,
        ExprKind::Binary { op, .. } => binop(*op).1,
        ExprKind::Unary { .. }
        | ExprKind::Cast { .. }
        | ExprKind::AddrOf(_)
        | ExprKind::Deref(_)
        | ExprKind::SizeofType { .. }
        | ExprKind::SizeofExpr(_) => PREC_UNARY,
        ExprKind::IncDec { prefix: true, .. } => PREC_UNARY,
        ExprKind::Int(v, _) if v.sign() == num_bigint::Sign::Minus => PREC_UNARY,
        ExprKind::Index { .. }
        | ExprKind::Call { .. }
        | ExprKind::IncDec { .. }
        | ExprKind::Member { .. }
        | ExprKind::Other { .. } => PREC_POSTFIX,
        _ => PREC_PRIMARY,
    }
}

fn list_into(out: &mut String, es: &[Expr]) {
    for (k, e) in es.iter().enumerate() {
        if k > 0 {
            out.push_str(", ");
        }
        expr_into(out, e, PREC_ASSIGN);
    }
}

fn incdec_into(out: &mut String, e: &Expr, inc: bool, prefix: bool) {
    let op = if inc { "++" } else { "--" };
    if prefix {
        out.push_str(op);
        operand_into(out, e);
    } else {
        expr_into(out, e, PREC_POSTFIX);
        out.push_str(op);
    }
}

/// The operand of a prefix operator: parenthesised if it is itself a prefix form, so that
/// `-(-x)` does not print as `--x`.
fn operand_into(out: &mut String, e: &Expr) {
    if prec(e) == PREC_UNARY {
        out.push('(');
        expr_into(out, e, 0);
        out.push(')');
    } else {
        expr_into(out, e, PREC_UNARY);
    }
}

/// `e`, parenthesised if its precedence is below `min`.
fn expr_into(out: &mut String, e: &Expr, min: u8) {
    if prec(e) < min {
        out.push('(');
        expr_into(out, e, 0);
        out.push(')');
        return;
    }
    match &e.kind {
        ExprKind::Int(v, lit) => int_into(out, v, *lit),
        ExprKind::Var(id) => out.push_str(&id.name),
        ExprKind::Index { base, index } => {
            expr_into(out, base, PREC_POSTFIX);
            out.push('[');
            expr_into(out, index, PREC_COMMA);
            out.push(']');
        }
        ExprKind::Unary { op, e } => {
            out.push_str(match op {
                UnOp::Neg => "-",
                UnOp::Plus => "+",
                UnOp::Not => "!",
                UnOp::BitNot => "~",
            });
            operand_into(out, e);
        }
        ExprKind::Binary { op, l, r } => {
            let (text, p) = binop(*op);
            expr_into(out, l, p);
            let _ = write!(out, " {text} ");
            expr_into(out, r, p + 1);
        }
        ExprKind::Cond { c, t, e } => {
            expr_into(out, c, PREC_COND + 1);
            out.push_str(" ? ");
            expr_into(out, t, PREC_ASSIGN);
            out.push_str(" : ");
            expr_into(out, e, PREC_COND);
        }
        ExprKind::Call { func, args } => {
            out.push_str(&func.name);
            out.push('(');
            list_into(out, args);
            out.push(')');
        }
        ExprKind::Cast { ty: t, pointer, e } => {
            out.push('(');
            out.push_str(ty(t));
            if *pointer > 0 {
                out.push(' ');
                out.push_str(&stars(*pointer));
            }
            out.push(')');
            expr_into(out, e, PREC_UNARY);
        }
        ExprKind::AddrOf(e) => {
            out.push('&');
            operand_into(out, e);
        }
        ExprKind::Deref(e) => {
            out.push('*');
            operand_into(out, e);
        }
        ExprKind::SizeofType {
            ty: t,
            pointer,
            dims,
        } => {
            out.push_str("sizeof(");
            out.push_str(ty(t));
            if *pointer > 0 {
                out.push(' ');
                out.push_str(&stars(*pointer));
            }
            for d in dims {
                out.push('[');
                expr_into(out, d, PREC_ASSIGN);
                out.push(']');
            }
            out.push(')');
        }
        ExprKind::SizeofExpr(e) => {
            out.push_str("sizeof ");
            operand_into(out, e);
        }
        ExprKind::Comma { l, r } => {
            expr_into(out, l, PREC_COMMA);
            out.push_str(", ");
            expr_into(out, r, PREC_ASSIGN);
        }
        ExprKind::StmtExpr(block) => {
            out.push('(');
            stmt_into(out, block, 0);
            while out.ends_with('\n') {
                out.pop();
            }
            out.push(')');
        }
        ExprKind::Member { base, field, arrow } => {
            expr_into(out, base, PREC_POSTFIX);
            out.push_str(if *arrow { "->" } else { "." });
            out.push_str(&field.name);
        }
        ExprKind::Other { text, .. } => out.push_str(text),
        ExprKind::Str(s) => {
            let _ = write!(out, "\"{s}\"");
        }
        ExprKind::Assign { lhs, op, rhs } => {
            expr_into(out, lhs, PREC_UNARY);
            let _ = write!(out, " {} ", assign_op(*op));
            expr_into(out, rhs, PREC_ASSIGN);
        }
        ExprKind::IncDec { e, inc, prefix } => incdec_into(out, e, *inc, *prefix),
        ExprKind::Float(s) => out.push_str(s),
    }
}

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
