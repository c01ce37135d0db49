//! Binary operators on resolved operands: constant folding, and the linearity check of
//! ARCHITECTURE §3 (a product needs a constant factor; `/` and `%` need a non-zero constant
//! divisor, which lowers to an exact quotient or remainder).

use super::consts::const_value;
use super::hir::{CmpOp, Expr};
use super::state::{err, Resolver};
use crate::diag::{DiagKind, Span};
use crate::syntax::ast::BinOp;
use num_bigint::BigInt;
use num_traits::{Signed, Zero};

impl Resolver {
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
