//! Statements, including EUREKA's `skip;` and parallel assignment `x, y = e1, e2;`
//! (ARCHITECTURE.md §3).

use super::expr::starts_expr;
use super::lexer::{Kw, Tok, P};
use super::{expect, expected, expected_help, fail, Ctx, Toks, R};
use crate::diag::Span;
use crate::syntax::ast::{AssignOp, Expr, ExprKind, Ident, Stmt, StmtKind};

/// Whether an expression can be assigned to.
fn is_lvalue(e: &Expr) -> bool {
    matches!(
        e.kind,
        ExprKind::Var(_) | ExprKind::Index { .. } | ExprKind::Deref(_)
    )
}

/// One expression as a statement: assignments and `++`/`--` get their own statement forms.
fn single(e: Expr) -> Stmt {
    let span = e.span;
    let kind = match e.kind {
        ExprKind::Assign {
            lhs,
            op: AssignOp::Set,
            rhs,
        } => StmtKind::Assign {
            lhs: vec![*lhs],
            rhs: vec![*rhs],
        },
        ExprKind::Assign { lhs, op, rhs } => StmtKind::CompoundAssign {
            lhs: *lhs,
            op,
            rhs: *rhs,
        },
        ExprKind::IncDec { e, inc, prefix } => StmtKind::IncDec {
            lhs: *e,
            inc,
            prefix,
        },
        kind => StmtKind::Expr(Expr { kind, span }),
    };
    Stmt::new(kind, span)
}

/// How a comma-separated list of expressions reads as statements.
enum Simple {
    /// The statement.
    Ok(Stmt),
    /// A parallel assignment whose numbers of targets and values differ.
    Mismatch { targets: usize, values: usize },
}

/// Read `e1, ..., en` (assignment expressions) as statements. If exactly one of them is
/// a plain assignment `ek = v` with `k > 1` and `e1 .. ek-1` and its target are lvalues,
/// the list is EUREKA's parallel assignment `e1, ..., ek = v, ek+1, ..., en`; otherwise it
/// is C's comma sequence, held as a `Block`.
fn simple(mut items: Vec<Expr>, span: Span) -> Simple {
    if items.len() == 1 {
        return Simple::Ok(single(items.remove(0)));
    }
    let sets: Vec<usize> = items
        .iter()
        .enumerate()
        .filter(|(_, e)| {
            matches!(
                e.kind,
                ExprKind::Assign {
                    op: AssignOp::Set,
                    ..
                }
            )
        })
        .map(|(k, _)| k)
        .collect();
    if let [k] = sets[..] {
        let targets_ok = k > 0
            && items[..k].iter().all(is_lvalue)
            && matches!(&items[k].kind, ExprKind::Assign { lhs, .. } if is_lvalue(lhs));
        if targets_ok {
            let rest = items.split_off(k + 1);
            let Some(Expr {
                kind: ExprKind::Assign { lhs, rhs, .. },
                ..
            }) = items.pop()
            else {
                return Simple::Ok(Stmt::new(StmtKind::Empty, span));
            };
            let mut lhs_v = items;
            lhs_v.push(*lhs);
            let mut rhs_v = vec![*rhs];
            rhs_v.extend(rest);
            if lhs_v.len() != rhs_v.len() {
                return Simple::Mismatch {
                    targets: lhs_v.len(),
                    values: rhs_v.len(),
                };
            }
            return Simple::Ok(Stmt::new(
                StmtKind::Assign {
                    lhs: lhs_v,
                    rhs: rhs_v,
                },
                span,
            ));
        }
    }
    Simple::Ok(Stmt::new(
        StmtKind::Block(items.into_iter().map(single).collect()),
        span,
    ))
}

impl<'a> Ctx<'a> {
    /// A simple statement (assignment, parallel assignment, `x++`, a call, or a comma
    /// sequence of them), without its terminator.
    fn simple_stmt(&self, i: Toks<'a>) -> R<'a, Stmt> {
        let start = i;
        let (j, items) = self.expr_list(i)?;
        let span = self.span(start, j);
        match simple(items, span) {
            Simple::Ok(s) => Ok((j, s)),
            Simple::Mismatch { targets, values } => {
                let plural =
                    |n: usize, w: &str| format!("{n} {w}{}", if n == 1 { "" } else { "s" });
                let msg = format!(
                    "parallel assignment has {} but {}",
                    plural(targets, "target"),
                    plural(values, "value")
                );
                let help = "a parallel assignment `x, y = e1, e2;` needs as many values as targets";
                fail(j, span, msg, "mismatched parallel assignment", Some(help))
            }
        }
    }

    /// A `{ ... }` block.
    pub(super) fn block(&self, i: Toks<'a>) -> R<'a, Stmt> {
        let start = i;
        let (mut i, _) = expect(i, P::LBrace, "`{`", "")?;
        let mut stmts = Vec::new();
        while !i.is(P::RBrace) {
            if matches!(i.peek().tok, Tok::Eof) {
                return expected_help(i, "`}`", " to close the block", "a `{` is not closed");
            }
            let (j, s) = self.stmt(i)?;
            stmts.push(s);
            i = j;
        }
        let i = i.next();
        Ok((i, Stmt::new(StmtKind::Block(stmts), self.span(start, i))))
    }

    /// `( expr )` after `if`/`while`/`switch`.
    fn paren_cond(&self, i: Toks<'a>, after: &'static str) -> R<'a, Expr> {
        let (i, _) = expect(i, P::LParen, "`(`", after)?;
        let (i, c) = self.expr(i)?;
        let (i, _) = expect(i, P::RParen, "`)`", " after condition")?;
        Ok((i, c))
    }

    /// Require `;` after a statement.
    fn semi(&self, i: Toks<'a>, after: &'static str) -> R<'a, Span> {
        expect(i, P::Semi, "`;`", after)
    }

    /// One statement.
    pub(super) fn stmt(&self, i: Toks<'a>) -> R<'a, Stmt> {
        let _g = self.enter(i)?;
        let start = i;
        let done = |j: Toks<'a>, kind: StmtKind| Ok((j, Stmt::new(kind, self.span(start, j))));
        let t = i.peek();
        match &t.tok {
            Tok::P(P::LBrace) => self.block(i),
            Tok::P(P::Semi) => done(i.next(), StmtKind::Empty),
            Tok::Kw(Kw::If) => {
                let (j, cond) = self.paren_cond(i.next(), " after `if`")?;
                let (j, then) = self.stmt(j)?;
                let (j, els) = if j.is_kw(Kw::Else) {
                    let (k, e) = self.stmt(j.next())?;
                    (k, Some(Box::new(e)))
                } else {
                    (j, None)
                };
                done(
                    j,
                    StmtKind::If {
                        cond,
                        then: Box::new(then),
                        els,
                    },
                )
            }
            Tok::Kw(Kw::While) => {
                let (j, cond) = self.paren_cond(i.next(), " after `while`")?;
                let (j, body) = self.stmt(j)?;
                done(
                    j,
                    StmtKind::While {
                        cond,
                        body: Box::new(body),
                    },
                )
            }
            Tok::Kw(Kw::Do) => {
                let (j, body) = self.stmt(i.next())?;
                if !j.is_kw(Kw::While) {
                    return expected(j, "`while`", " after the body of `do`");
                }
                let (j, cond) = self.paren_cond(j.next(), " after `while`")?;
                let (j, _) = self.semi(j, " after `do ... while (...)`")?;
                done(
                    j,
                    StmtKind::DoWhile {
                        body: Box::new(body),
                        cond,
                    },
                )
            }
            Tok::Kw(Kw::For) => self.for_stmt(i),
            Tok::Kw(Kw::Break) => {
                let (j, _) = self.semi(i.next(), " after `break`")?;
                done(j, StmtKind::Break)
            }
            Tok::Kw(Kw::Continue) => {
                let (j, _) = self.semi(i.next(), " after `continue`")?;
                done(j, StmtKind::Continue)
            }
            Tok::Kw(Kw::Return) => {
                let j = i.next();
                if j.is(P::Semi) {
                    return done(j.next(), StmtKind::Return(None));
                }
                let (j, e) = self.expr(j)?;
                let (j, _) = self.semi(j, " after return value")?;
                done(j, StmtKind::Return(Some(e)))
            }
            Tok::Kw(Kw::Goto) => {
                let j = i.next();
                let Tok::Ident(name) = &j.peek().tok else {
                    return expected(j, "a label", " after `goto`");
                };
                let label = Ident {
                    name: name.clone(),
                    span: j.peek().span,
                };
                let (j, _) = self.semi(j.next(), " after `goto` label")?;
                done(j, StmtKind::Goto(label))
            }
            Tok::Kw(Kw::Switch) => {
                let (j, cond) = self.paren_cond(i.next(), " after `switch`")?;
                let (j, body) = self.stmt(j)?;
                done(
                    j,
                    StmtKind::Switch {
                        cond,
                        body: Box::new(body),
                    },
                )
            }
            Tok::Kw(Kw::Case) => {
                let (j, value) = self.cond_expr(i.next())?;
                let (j, _) = expect(j, P::Colon, "`:`", " after `case` value")?;
                let (j, s) = self.labelled(j)?;
                done(
                    j,
                    StmtKind::Case {
                        value,
                        stmt: Box::new(s),
                    },
                )
            }
            Tok::Kw(Kw::Default) => {
                let (j, _) = expect(i.next(), P::Colon, "`:`", " after `default`")?;
                let (j, s) = self.labelled(j)?;
                done(j, StmtKind::Default(Box::new(s)))
            }
            Tok::Kw(k @ (Kw::Asm | Kw::Asm2 | Kw::Asm3 | Kw::StaticAssert)) => {
                let what = if *k == Kw::StaticAssert {
                    "static assertion"
                } else {
                    "inline assembly"
                };
                let (j, _) = self.skip_to_semi(i, " after the statement")?;
                let text = self.text(self.span(start, j)).to_string();
                done(
                    j,
                    StmtKind::Other {
                        what: what.to_string(),
                        text,
                    },
                )
            }
            Tok::Kw(Kw::Attribute | Kw::Attribute2)
                if self.attributes(i).is_ok_and(|(j, _)| j.is(P::Semi)) =>
            {
                let (j, _) = self.attributes(i)?;
                done(j.next(), StmtKind::Empty)
            }
            Tok::Ident(name) if name == "skip" && i.next().is(P::Semi) => {
                done(i.next().next(), StmtKind::Skip)
            }
            Tok::Ident(name) if i.next().is(P::Colon) => {
                let label = Ident {
                    name: name.clone(),
                    span: t.span,
                };
                let j = self.attributes(i.next().next())?.0;
                let (j, s) = self.labelled(j)?;
                done(
                    j,
                    StmtKind::Labeled {
                        label,
                        stmt: Box::new(s),
                    },
                )
            }
            _ if self.starts_decl(i) => {
                let (j, kind) = self.local_decl(i)?;
                done(j, kind)
            }
            tok if starts_expr(tok) => {
                let (j, s) = self.simple_stmt(i)?;
                let (j, _) = self.semi(j, " after expression")?;
                Ok((
                    j,
                    Stmt {
                        span: self.span(start, j),
                        ..s
                    },
                ))
            }
            _ => expected(i, "statement", ""),
        }
    }

    /// The statement after a label, `case` or `default`; a label just before `}` labels
    /// an empty statement (C23).
    fn labelled(&self, j: Toks<'a>) -> R<'a, Stmt> {
        if j.is(P::RBrace) {
            let at = j.peek().span.start as usize;
            return Ok((j, Stmt::new(StmtKind::Empty, Span::new(at, at))));
        }
        self.stmt(j)
    }

    /// `for (init; cond; step) body`.
    fn for_stmt(&self, i: Toks<'a>) -> R<'a, Stmt> {
        let start = i;
        let (i, _) = expect(i.next(), P::LParen, "`(`", " after `for`")?;
        let (i, init) = if i.is(P::Semi) {
            (i.next(), None)
        } else if self.starts_decl(i) {
            let init_start = i;
            let (j, kind) = self.local_decl(i)?;
            let span = self.span(init_start, j);
            // C11 6.8.5: the declaration of a `for` declares objects only.
            if !matches!(kind, StmtKind::Decl(_)) {
                return fail(
                    j,
                    span,
                    "a `for` loop's declaration may only declare variables".to_string(),
                    "not a variable declaration",
                    Some("declare it before the loop"),
                );
            }
            (j, Some(Box::new(Stmt::new(kind, span))))
        } else {
            let (j, s) = self.simple_stmt(i)?;
            let (j, _) = self.semi(j, " after `for` initialisation")?;
            (j, Some(Box::new(s)))
        };
        let (i, cond) = if i.is(P::Semi) {
            (i.next(), None)
        } else {
            let (j, c) = self.expr(i)?;
            let (j, _) = self.semi(j, " after `for` condition")?;
            (j, Some(c))
        };
        let (i, step) = if i.is(P::RParen) {
            (i, None)
        } else {
            let (j, s) = self.simple_stmt(i)?;
            (j, Some(Box::new(s)))
        };
        let (i, _) = expect(i, P::RParen, "`)`", " after `for` clauses")?;
        let (i, body) = self.stmt(i)?;
        let kind = StmtKind::For {
            init,
            cond,
            step,
            body: Box::new(body),
        };
        Ok((i, Stmt::new(kind, self.span(start, i))))
    }
}
