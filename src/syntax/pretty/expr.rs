//! Expressions as text, with minimal parentheses chosen from C's precedences.

use super::{stars, stmt_into, ty};
use crate::syntax::ast::{AssignOp, BinOp, Expr, ExprKind, IntLit, UnOp};
use std::fmt::Write;

// Precedences: higher binds tighter.
const PREC_COMMA: u8 = 0;
pub(super) const PREC_ASSIGN: u8 = 1;
pub(super) const PREC_COND: u8 = 2;
pub(super) const PREC_UNARY: u8 = 13;
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

pub(super) fn assign_op(op: AssignOp) -> &'static str {
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

pub(super) fn list_into(out: &mut String, es: &[Expr]) {
    for (k, e) in es.iter().enumerate() {
        if k > 0 {
            out.push_str(", ");
        }
        expr_into(out, e, PREC_ASSIGN);
    }
}

pub(super) fn incdec_into(out: &mut String, e: &Expr, inc: bool, prefix: bool) {
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
pub(super) fn expr_into(out: &mut String, e: &Expr, min: u8) {
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
