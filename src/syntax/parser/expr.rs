//! Expressions: C's precedence and associativity (the comma operator, assignment, `?:`,
//! binary operators by precedence climbing, unary operators, casts and `sizeof`, postfix
//! forms, primaries), with the GNU forms `({ ... })` and `__extension__`.

use super::lexer::{Kw, Tok, P};
use super::{expect, expected, punct, Ctx, Toks, R};
use crate::syntax::ast::{AssignOp, BinOp, Expr, ExprKind, Ident, IntLit, UnOp};
use nom::multi::separated_list1;
use nom::Parser;

/// A binary operator token: the operator and its precedence (higher binds tighter).
fn binop(t: &Tok) -> Option<(BinOp, u8)> {
    let Tok::P(p) = t else { return None };
    Some(match p {
        P::OrOr => (BinOp::Or, 1),
        P::AndAnd => (BinOp::And, 2),
        P::Pipe => (BinOp::BitOr, 3),
        P::Caret => (BinOp::BitXor, 4),
        P::Amp => (BinOp::BitAnd, 5),
        P::EqEq => (BinOp::Eq, 6),
        P::Ne => (BinOp::Ne, 6),
        P::Lt => (BinOp::Lt, 7),
        P::Le => (BinOp::Le, 7),
        P::Gt => (BinOp::Gt, 7),
        P::Ge => (BinOp::Ge, 7),
        P::Shl => (BinOp::Shl, 8),
        P::Shr => (BinOp::Shr, 8),
        P::Plus => (BinOp::Add, 9),
        P::Minus => (BinOp::Sub, 9),
        P::Star => (BinOp::Mul, 10),
        P::Slash => (BinOp::Div, 10),
        P::Percent => (BinOp::Mod, 10),
        _ => return None,
    })
}

/// Whether a token can start an expression.
pub(super) fn starts_expr(t: &Tok) -> bool {
    match t {
        Tok::Ident(_) | Tok::Int(..) | Tok::Char(_) | Tok::Float(_) | Tok::Str(_) => true,
        Tok::Kw(k) => matches!(k, Kw::Sizeof | Kw::Extension | Kw::Generic | Kw::Alignof),
        Tok::P(p) => matches!(
            p,
            P::LParen
                | P::Minus
                | P::Plus
                | P::Bang
                | P::Tilde
                | P::Amp
                | P::Star
                | P::Inc
                | P::Dec
        ),
        Tok::Eof => false,
    }
}

/// GNU builtins whose arguments include a type: kept verbatim as unsupported expressions.
const TYPE_BUILTINS: &[&str] = &[
    "__builtin_offsetof",
    "__builtin_va_arg",
    "__builtin_types_compatible_p",
    "__builtin_choose_expr",
    "__alignof__",
    "__alignof",
];

impl<'a> Ctx<'a> {
    /// A full expression: assignment expressions joined by the comma operator (left
    /// associative).
    pub(super) fn expr(&self, i: Toks<'a>) -> R<'a, Expr> {
        let start = i;
        let (mut i, mut e) = self.assign_expr(i)?;
        let mut guards = Vec::new();
        while i.is(P::Comma) {
            guards.push(self.enter(i)?);
            let (j, r) = self.assign_expr(i.next())?;
            let kind = ExprKind::Comma {
                l: Box::new(e),
                r: Box::new(r),
            };
            e = Expr::new(kind, self.span(start, j));
            i = j;
        }
        Ok((i, e))
    }

    /// A verbatim unsupported expression from `start` to `end`.
    fn other(&self, start: Toks<'a>, end: Toks<'a>, what: &str) -> R<'a, Expr> {
        let span = self.span(start, end);
        let kind = ExprKind::Other {
            what: what.to_string(),
            text: self.text(span).to_string(),
        };
        Ok((end, Expr::new(kind, span)))
    }

    /// A comma-separated list of assignment expressions (at least one).
    pub(super) fn expr_list(&self, i: Toks<'a>) -> R<'a, Vec<Expr>> {
        separated_list1(punct(P::Comma), |i| self.assign_expr(i)).parse(i)
    }

    /// `lhs = rhs`, `lhs op= rhs` (right associative), or a conditional expression.
    pub(super) fn assign_expr(&self, i: Toks<'a>) -> R<'a, Expr> {
        let _g = self.enter(i)?;
        let start = i;
        let (i, lhs) = self.cond_expr(i)?;
        let op = match &i.peek().tok {
            Tok::P(P::Assign) => AssignOp::Set,
            Tok::P(P::AddAssign) => AssignOp::Add,
            Tok::P(P::SubAssign) => AssignOp::Sub,
            Tok::P(P::MulAssign) => AssignOp::Mul,
            Tok::P(P::DivAssign) => AssignOp::Div,
            Tok::P(P::ModAssign) => AssignOp::Mod,
            Tok::P(P::AndAssign) => AssignOp::BitAnd,
            Tok::P(P::OrAssign) => AssignOp::BitOr,
            Tok::P(P::XorAssign) => AssignOp::BitXor,
            Tok::P(P::ShlAssign) => AssignOp::Shl,
            Tok::P(P::ShrAssign) => AssignOp::Shr,
            _ => return Ok((i, lhs)),
        };
        let (i, rhs) = self.assign_expr(i.next())?;
        let kind = ExprKind::Assign {
            lhs: Box::new(lhs),
            op,
            rhs: Box::new(rhs),
        };
        Ok((i, Expr::new(kind, self.span(start, i))))
    }

    /// `c ? t : e` (right associative) or a binary expression.
    pub(super) fn cond_expr(&self, i: Toks<'a>) -> R<'a, Expr> {
        let start = i;
        let (i, c) = self.binary(i, 1)?;
        if !i.is(P::Question) {
            return Ok((i, c));
        }
        let _g = self.enter(i)?;
        let (i, t) = self.expr(i.next())?;
        let (i, _) = expect(i, P::Colon, "`:`", " in conditional expression")?;
        let (i, e) = self.cond_expr(i)?;
        let kind = ExprKind::Cond {
            c: Box::new(c),
            t: Box::new(t),
            e: Box::new(e),
        };
        Ok((i, Expr::new(kind, self.span(start, i))))
    }

    /// Binary operators of precedence at least `min_prec`, left associative
    /// (precedence climbing). Each operator counts as a nesting level of the tree.
    fn binary(&self, i: Toks<'a>, min_prec: u8) -> R<'a, Expr> {
        let start = i;
        let (mut i, mut lhs) = self.unary(i)?;
        let mut guards = Vec::new();
        while let Some((op, prec)) = binop(&i.peek().tok) {
            if prec < min_prec {
                break;
            }
            guards.push(self.enter(i)?);
            let (j, rhs) = self.binary(i.next(), prec + 1)?;
            let kind = ExprKind::Binary {
                op,
                l: Box::new(lhs),
                r: Box::new(rhs),
            };
            lhs = Expr::new(kind, self.span(start, j));
            i = j;
        }
        Ok((i, lhs))
    }

    /// Prefix operators, casts, `sizeof`, or a postfix expression.
    fn unary(&self, i: Toks<'a>) -> R<'a, Expr> {
        let start = i;
        let tok = &i.peek().tok;
        let wrap = |j: Toks<'a>, kind: ExprKind| Ok((j, Expr::new(kind, self.span(start, j))));
        match tok {
            Tok::P(
                p @ (P::Minus | P::Plus | P::Bang | P::Tilde | P::Amp | P::Star | P::Inc | P::Dec),
            ) => {
                let _g = self.enter(i)?;
                let (j, e) = self.unary(i.next())?;
                let e = Box::new(e);
                let kind = match p {
                    P::Minus => ExprKind::Unary { op: UnOp::Neg, e },
                    P::Plus => ExprKind::Unary { op: UnOp::Plus, e },
                    P::Bang => ExprKind::Unary { op: UnOp::Not, e },
                    P::Tilde => ExprKind::Unary {
                        op: UnOp::BitNot,
                        e,
                    },
                    P::Amp => ExprKind::AddrOf(e),
                    P::Star => ExprKind::Deref(e),
                    _ => ExprKind::IncDec {
                        e,
                        inc: *p == P::Inc,
                        prefix: true,
                    },
                };
                wrap(j, kind)
            }
            Tok::Kw(Kw::Sizeof) => self.sizeof(i),
            Tok::Kw(Kw::Extension) => {
                let _g = self.enter(i)?;
                self.unary(i.next())
            }
            Tok::Kw(Kw::Alignof | Kw::Generic) if i.next().is(P::LParen) => {
                let (j, _) = self.balanced(i.next())?;
                let what = if tok == &Tok::Kw(Kw::Generic) {
                    "`_Generic`"
                } else {
                    "`_Alignof`"
                };
                self.other(i, j, what)
            }
            Tok::P(P::LParen) if self.starts_type(i.next(), false) => {
                let _g = self.enter(i)?;
                let (j, (ty, pointer)) = self.type_name(i.next())?;
                let (j, _) = expect(j, P::RParen, "`)`", " after the type of a cast")?;
                if j.is(P::LBrace) {
                    let (k, _) = self.skip_braces(j)?;
                    return self.other(i, k, "compound literal");
                }
                let (j, e) = self.unary(j)?;
                wrap(
                    j,
                    ExprKind::Cast {
                        ty,
                        pointer,
                        e: Box::new(e),
                    },
                )
            }
            _ => self.postfix(i),
        }
    }

    /// `sizeof(type)`, `sizeof(type[N])` or `sizeof e`.
    fn sizeof(&self, i: Toks<'a>) -> R<'a, Expr> {
        let start = i;
        let i = i.next();
        let _g = self.enter(i)?;
        if i.is(P::LParen) && self.starts_type(i.next(), false) {
            let (j, (ty, pointer)) = self.type_name(i.next())?;
            let mut dims = Vec::new();
            let mut j = j;
            while j.is(P::LBracket) {
                let (k, e) = self.assign_expr(j.next())?;
                let (k, _) = expect(k, P::RBracket, "`]`", " after array size")?;
                dims.push(e);
                j = k;
            }
            let (j, _) = expect(j, P::RParen, "`)`", " after the type in `sizeof`")?;
            if j.is(P::LBrace) {
                let (k, _) = self.skip_braces(j)?;
                return self.other(start, k, "`sizeof` of a compound literal");
            }
            let kind = ExprKind::SizeofType { ty, pointer, dims };
            return Ok((j, Expr::new(kind, self.span(start, j))));
        }
        let (j, e) = self.unary(i)?;
        let kind = ExprKind::SizeofExpr(Box::new(e));
        Ok((j, Expr::new(kind, self.span(start, j))))
    }

    /// Skip a balanced `( ... )` group starting at `i`; returns the span of its contents.
    pub(super) fn balanced(&self, i: Toks<'a>) -> R<'a, crate::diag::Span> {
        let open = i;
        let mut depth = 0usize;
        let mut j = i;
        loop {
            match &j.peek().tok {
                Tok::P(P::LParen) => depth += 1,
                Tok::P(P::RParen) => {
                    depth = depth.saturating_sub(1);
                    if depth == 0 {
                        let inner = self.span(open.next(), j);
                        return Ok((j.next(), inner));
                    }
                }
                Tok::Eof => return expected(j, "`)`", " to close `(`"),
                _ => {}
            }
            j = j.next();
        }
    }

    /// Index, call and postfix `++`/`--`.
    fn postfix(&self, i: Toks<'a>) -> R<'a, Expr> {
        let start = i;
        let (mut i, mut e) = self.primary(i)?;
        let mut guards = Vec::new();
        loop {
            let kind = match &i.peek().tok {
                Tok::P(P::LBracket) => {
                    guards.push(self.enter(i)?);
                    let (j, index) = self.expr(i.next())?;
                    let (j, _) = expect(j, P::RBracket, "`]`", " after array index")?;
                    i = j;
                    ExprKind::Index {
                        base: Box::new(e),
                        index: Box::new(index),
                    }
                }
                Tok::P(P::LParen) => {
                    guards.push(self.enter(i)?);
                    let (j, args) = if i.next().is(P::RParen) {
                        (i.next(), Vec::new())
                    } else {
                        self.expr_list(i.next())?
                    };
                    let (j, _) = expect(j, P::RParen, "`,` or `)`", " in argument list")?;
                    i = j;
                    match e.kind {
                        ExprKind::Var(func) => ExprKind::Call { func, args },
                        _ => {
                            let text = self.text(self.span(start, i)).to_string();
                            ExprKind::Other {
                                what: "call through a function pointer".to_string(),
                                text,
                            }
                        }
                    }
                }
                Tok::P(p @ (P::Inc | P::Dec)) => {
                    guards.push(self.enter(i)?);
                    i = i.next();
                    ExprKind::IncDec {
                        e: Box::new(e),
                        inc: *p == P::Inc,
                        prefix: false,
                    }
                }
                Tok::P(p @ (P::Dot | P::Arrow)) => {
                    let arrow = *p == P::Arrow;
                    let j = i.next();
                    let Tok::Ident(name) = &j.peek().tok else {
                        return expected(j, "a field name", " after `.` or `->`");
                    };
                    guards.push(self.enter(i)?);
                    let field = Ident {
                        name: name.clone(),
                        span: j.peek().span,
                    };
                    i = j.next();
                    ExprKind::Member {
                        base: Box::new(e),
                        field,
                        arrow,
                    }
                }
                _ => break,
            };
            e = Expr::new(kind, self.span(start, i));
        }
        Ok((i, e))
    }

    /// Literals, names and parenthesised expressions.
    fn primary(&self, i: Toks<'a>) -> R<'a, Expr> {
        let t = i.peek();
        let one = |kind: ExprKind| Ok((i.next(), Expr::new(kind, t.span)));
        match &t.tok {
            Tok::Int(v, lit) => one(ExprKind::Int(v.clone(), *lit)),
            Tok::Char(v) => one(ExprKind::Int(v.clone(), IntLit::default())),
            Tok::Float(s) => one(ExprKind::Float(s.clone())),
            Tok::Ident(name)
                if TYPE_BUILTINS.contains(&name.as_str()) && i.next().is(P::LParen) =>
            {
                let (j, _) = self.balanced(i.next())?;
                self.other(i, j, &format!("`{name}`"))
            }
            Tok::Ident(name) => one(ExprKind::Var(Ident {
                name: name.clone(),
                span: t.span,
            })),
            Tok::Str(s) => {
                let mut text = s.clone();
                let mut j = i.next();
                while let Tok::Str(more) = &j.peek().tok {
                    text.push_str(more);
                    j = j.next();
                }
                Ok((j, Expr::new(ExprKind::Str(text), self.span(i, j))))
            }
            Tok::P(P::LParen) => {
                if i.next().is(P::LBrace) {
                    let (j, block) = self.block(i.next())?;
                    let (j, _) = expect(j, P::RParen, "`)`", " to close `({`")?;
                    let kind = ExprKind::StmtExpr(Box::new(block));
                    return Ok((j, Expr::new(kind, self.span(i, j))));
                }
                let (j, e) = self.expr(i.next())?;
                let (j, _) = expect(j, P::RParen, "`)`", " to close `(`")?;
                Ok((j, e))
            }
            _ => expected(i, "expression", ""),
        }
    }
}
