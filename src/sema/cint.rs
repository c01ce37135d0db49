//! C's integers (C11 §6.2.5, §6.3.1): the one place where the rules live. Under
//! [`IntModel::C`] (`.c`/`.i` files) every value has an integer type; sema inserts the
//! conversions C performs — on assignment, initialisation, argument passing, return,
//! cast, the integer promotions and the usual arithmetic conversions — and the
//! wraparound of arithmetic, as the HIR primitive [`Expr::Wrap`] (and
//! [`Expr::Overflow`] for a signed result, unless [`SignedOverflow::Wrap`] makes it wrap).
//! Every back end (interpreter, trace encoder, DLC domain) implements only these
//! primitives, so they all compute the same semantics.
//!
//! Under [`IntModel::Math`] (`.lp` files, EUREKA's semantics) integers are mathematical:
//! no conversion is inserted, except that a cast to `_Bool` is `e != 0` (exact under both).
//!
//! Choices where C leaves room (all as gcc on x86 and CBMC without checks):
//! - signed overflow is undefined, as C says: the execution ends there without a verdict
//!   ([`SignedOverflow::Undefined`], the default); `--signed-overflow wrap` makes it wrap
//!   (`gcc -fwrapv`) and `--signed-overflow error` an error location;
//! - conversion to a signed type of a value out of its range wraps (implementation-defined
//!   in C, never an overflow error);
//! - plain `char` is signed;
//! - arbitrary values (nondet calls, uninitialised variables, arbitrary array contents,
//!   out-of-range reads) lie in their type's range. Nondet calls become a ranged
//!   nondet value here; the other sources are made in the back ends, which all read the
//!   range from the variable or array ([`Range::Int`]): the interpreter brings its
//!   oracle's value into the range ([`Range::normalize`]), the trace encoder bounds the
//!   value, and the abstraction's arbitrary cells and untracked reads are bounded.

use super::consts::const_value;
use super::hir::{CmpOp, Expr, Range, SignedOverflow, Width};
use super::options::IntModel;
use super::state::Resolver;
use super::types::{common, promote};
use crate::syntax::ast::{BinOp, IntKind, IntTy};
use num_bigint::BigInt;

/// A typed HIR expression.
pub(super) type Typed = (Expr, IntTy);

impl Resolver {
    /// Whether C's integer semantics apply.
    pub(super) fn c_ints(&self) -> bool {
        self.opts.int_model == IntModel::C
    }

    /// The width of an integer type under the data model (`_Bool`: one unsigned bit).
    pub(super) fn width(&self, t: IntTy) -> Width {
        if t.kind == IntKind::Bool {
            return Width {
                bits: 1,
                signed: false,
            };
        }
        Width {
            bits: 8 * self.opts.data_model.size_of(t) as u32,
            signed: t.signed,
        }
    }

    /// The values a variable of type `t` holds, as the CFG's range assumptions read them.
    pub(super) fn range_of(&self, t: IntTy) -> Range {
        if t.kind == IntKind::Bool {
            Range::Bool
        } else if !self.c_ints() {
            if t.signed {
                Range::Any
            } else {
                Range::NonNegative
            }
        } else {
            Range::Int(self.width(t))
        }
    }

    /// Whether every value of `from` is a value of `to`.
    fn fits(&self, from: IntTy, to: IntTy) -> bool {
        let (a, b) = (self.width(from), self.width(to));
        b.lo() <= a.lo() && a.hi() <= b.hi()
    }

    /// C's conversion of a value of type `from` to type `to` (C11 §6.3.1.2–3): `_Bool`
    /// is `e != 0`; a value that may not fit wraps. Under mathematical integers, only
    /// the `_Bool` conversion happens.
    pub(super) fn convert(&self, e: Expr, from: IntTy, to: IntTy) -> Expr {
        if to.kind == IntKind::Bool {
            if from.kind == IntKind::Bool {
                return e;
            }
            return cmp(CmpOp::Ne, e, Expr::int(0));
        }
        if !self.c_ints() || self.fits(from, to) {
            return e;
        }
        wrap(self.width(to), e)
    }

    /// [`Resolver::convert`] for assignments and initialisations: the conversion happens
    /// only under C's integers (mathematical integers keep every value, even for a
    /// `_Bool` target, as they always did).
    pub(super) fn assign_conv(&self, (e, from): Typed, to: Option<IntTy>) -> Expr {
        match to {
            Some(to) if self.c_ints() => self.convert(e, from, to),
            _ => e,
        }
    }

    /// [`Resolver::convert`] only under C's integers (where C converts implicitly, as a
    /// `case` value to the promoted type of the `switch`).
    pub(super) fn convert_if_c(&self, e: Expr, from: IntTy, to: IntTy) -> Expr {
        if self.c_ints() {
            self.convert(e, from, to)
        } else {
            e
        }
    }

    /// The result of arithmetic in type `t`: unsigned, it wraps; signed, it must fit
    /// (an [`Expr::Overflow`]), unless signed overflow wraps too.
    pub(super) fn arith(&self, t: IntTy, e: Expr) -> Expr {
        if !self.c_ints() {
            return e;
        }
        let w = self.width(t);
        if let Some(v) = const_value(&e) {
            if w.contains(&v) {
                return Expr::Const(v);
            }
        }
        if w.signed && self.opts.signed_overflow != SignedOverflow::Wrap {
            Expr::Overflow(w, Box::new(e))
        } else {
            wrap(w, e)
        }
    }

    /// A typed binary operation (C11 §6.5.5–§6.5.14): the operands of arithmetic and
    /// comparisons go through the usual arithmetic conversions, arithmetic wraps in the
    /// common type, and comparisons and logical operators give `int`.
    pub(super) fn tbinary(
        &mut self,
        op: BinOp,
        (a, ta): Typed,
        (b, tb): Typed,
        span: crate::diag::Span,
        rspan: crate::diag::Span,
    ) -> Typed {
        let dm = self.opts.data_model;
        match op {
            BinOp::Add | BinOp::Sub | BinOp::Mul | BinOp::Div | BinOp::Mod => {
                let t = common(ta, tb, dm);
                let a = self.convert(a, ta, t);
                let b = self.convert(b, tb, t);
                let r = self.binary(op, a, b, span, rspan);
                // A remainder is never larger than its operands; an unsigned quotient
                // neither. A signed quotient overflows only for MIN / -1.
                let may_overflow = match op {
                    BinOp::Mod => false,
                    BinOp::Div => t.signed,
                    _ => true,
                };
                (if may_overflow { self.arith(t, r) } else { r }, t)
            }
            BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge | BinOp::Eq | BinOp::Ne => {
                let t = common(ta, tb, dm);
                let a = self.convert(a, ta, t);
                let b = self.convert(b, tb, t);
                (self.binary(op, a, b, span, rspan), IntTy::INT)
            }
            _ => (self.binary(op, a, b, span, rspan), IntTy::INT),
        }
    }

    /// `-e`: the promoted type, wrapping (`-x` of an unsigned `x`, `-INT_MIN`).
    pub(super) fn neg(&self, (v, t): Typed) -> Typed {
        let t = promote(t);
        let n = match const_value(&v) {
            Some(n) => Expr::Const(-n),
            None => Expr::Scale(BigInt::from(-1), Box::new(v)),
        };
        (self.arith(t, n), t)
    }
}

/// `Wrap(w, e)`, folded for a constant.
fn wrap(w: Width, e: Expr) -> Expr {
    match const_value(&e) {
        Some(v) => Expr::Const(w.wrap(&v)),
        None => Expr::Wrap(w, Box::new(e)),
    }
}

fn cmp(op: CmpOp, a: Expr, b: Expr) -> Expr {
    match (const_value(&a), const_value(&b)) {
        (Some(x), Some(y)) => Expr::int(op.holds(&x, &y) as i64),
        _ => Expr::Cmp(op, Box::new(a), Box::new(b)),
    }
}
