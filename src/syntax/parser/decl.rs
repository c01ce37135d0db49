//! Declarators and declarations: pointers, array dimensions, parenthesised (function
//! pointer) declarators, initialisers, local declarations and prototypes, typedefs, and
//! parameter lists.

use super::lexer::{Kw, Tok, P};
use super::types::{is_ptr_qualifier, Specs};
use super::{expect, expected, expected_help, fail, punct, Ctx, Toks, R};
use crate::diag::Span;
use crate::syntax::ast::{
    Decl, Expr, FuncProto, Ident, Init, Param, StmtKind, Storage, Ty, Typedef, VarDecl,
};
use nom::multi::separated_list1;
use nom::Parser;

/// A declarator's name and shape.
pub(super) struct Declarator {
    pub(super) name: Ident,
    pub(super) pointer: u8,
    /// Written with parentheses (`(*f)(int)`, `(*a)[3]`): a pointer of some kind.
    pub(super) paren: bool,
}

impl<'a> Ctx<'a> {
    /// A type name in a cast or `sizeof`: specifiers and `*`s.
    pub(super) fn type_name(&self, i: Toks<'a>) -> R<'a, (Ty, u8)> {
        let (i, specs) = self.specs(i, false)?;
        let (i, pointer) = self.pointers(i)?;
        Ok((i, (specs.ty, pointer)))
    }

    /// A run of `*` (each possibly followed by qualifiers and attributes).
    pub(super) fn pointers(&self, mut i: Toks<'a>) -> R<'a, u8> {
        let mut n: u8 = 0;
        while i.is(P::Star) {
            if n == u8::MAX {
                let msg = "too many `*` in a declarator".to_string();
                return fail(i, i.peek().span, msg, "pointer depth over 255", None);
            }
            n += 1;
            i = i.next();
            loop {
                match i.peek().tok {
                    Tok::Kw(k) if is_ptr_qualifier(k) => i = i.next(),
                    Tok::Kw(Kw::Attribute | Kw::Attribute2) => i = self.attribute(i)?.0,
                    _ => break,
                }
            }
        }
        Ok((i, n))
    }

    /// Skip a balanced `[ ... ]` group.
    fn skip_brackets(&self, mut i: Toks<'a>) -> R<'a, ()> {
        let mut depth = 0usize;
        loop {
            match &i.peek().tok {
                Tok::P(P::LBracket) => depth += 1,
                Tok::P(P::RBracket) => {
                    depth = depth.saturating_sub(1);
                    if depth == 0 {
                        return Ok((i.next(), ()));
                    }
                }
                Tok::Eof | Tok::P(P::Semi | P::LBrace | P::RBrace) => {
                    return expected(i, "`]`", " in array declarator")
                }
                _ => {}
            }
            i = i.next();
        }
    }

    /// A parenthesised declarator `(*name)(params)`, `(*name)[N]`, `(name)` at `i` (at
    /// its `(`): the name (if any: abstract declarators have none), after skipping the
    /// parameter lists and dimensions that follow.
    fn paren_declarator(&self, i: Toks<'a>) -> R<'a, Option<Ident>> {
        let (mut j, inner) = self.balanced(i)?;
        let name = self
            .toks
            .iter()
            .skip(i.pos)
            .take(j.pos - i.pos)
            .find_map(|t| match &t.tok {
                Tok::Ident(n) if t.span.start >= inner.start && t.span.end <= inner.end => {
                    Some(Ident {
                        name: n.clone(),
                        span: t.span,
                    })
                }
                _ => None,
            });
        loop {
            if j.is(P::LParen) {
                j = self.balanced(j)?.0;
            } else if j.is(P::LBracket) {
                j = self.skip_brackets(j)?.0;
            } else {
                return Ok((j, name));
            }
        }
    }

    /// Pointers and the name of a declarator (plain or parenthesised).
    pub(super) fn declarator(&self, i: Toks<'a>) -> R<'a, Declarator> {
        let (i, pointer) = self.pointers(i)?;
        match &i.peek().tok {
            Tok::Ident(name) => Ok((
                i.next(),
                Declarator {
                    name: Ident {
                        name: name.clone(),
                        span: i.peek().span,
                    },
                    pointer,
                    paren: false,
                },
            )),
            Tok::P(P::LParen) => {
                let (j, name) = self.paren_declarator(i)?;
                match name {
                    Some(name) => Ok((
                        j,
                        Declarator {
                            name,
                            pointer: pointer.max(1),
                            paren: true,
                        },
                    )),
                    None => expected(i.next(), "identifier", " in declaration"),
                }
            }
            _ => expected(i, "identifier", " in declaration"),
        }
    }

    /// Array dimensions `[e]` / `[]` after a declarator name.
    pub(super) fn dims(&self, mut i: Toks<'a>) -> R<'a, Vec<Option<Expr>>> {
        let mut dims = Vec::new();
        while i.is(P::LBracket) {
            let _g = self.enter(i)?;
            if i.next().is(P::RBracket) {
                dims.push(None);
                i = i.next().next();
                continue;
            }
            let (j, e) = self.assign_expr(i.next())?;
            let (j, _) = expect(j, P::RBracket, "`]`", " after array size")?;
            dims.push(Some(e));
            i = j;
        }
        Ok((i, dims))
    }

    /// `= e` or `= {e, ...}`; nested and designated lists are kept verbatim.
    fn initializer(&self, i: Toks<'a>) -> R<'a, Init> {
        if !i.is(P::LBrace) {
            let (j, e) = self.assign_expr(i)?;
            return Ok((j, Init::Expr(e)));
        }
        let start = i;
        let mut j = i.next();
        let mut items = Vec::new();
        while !j.is(P::RBrace) {
            if j.is(P::LBrace) || j.is(P::Dot) || j.is(P::LBracket) {
                let (k, _) = self.skip_braces(start)?;
                let span = self.span(start, k);
                return Ok((k, Init::Nested(self.text(span).to_string(), span)));
            }
            let (k, e) = self.assign_expr(j)?;
            items.push(e);
            j = k;
            if j.is(P::Comma) {
                j = j.next();
            } else if !j.is(P::RBrace) {
                return expected(j, "`,` or `}`", " in initialiser list");
            }
        }
        let j = j.next();
        Ok((j, Init::List(items, self.span(start, j))))
    }

    /// One variable declarator after the name: dimensions, attributes, initialiser.
    pub(super) fn var_rest(&self, from: Toks<'a>, i: Toks<'a>, d: Declarator) -> R<'a, VarDecl> {
        let (i, dims) = if d.paren {
            (i, Vec::new())
        } else {
            self.dims(i)?
        };
        let (mut i, _) = self.attributes(i)?;
        let mut init = None;
        if i.is(P::Assign) {
            let (j, v) = self.initializer(i.next())?;
            init = Some(v);
            i = j;
        }
        Ok((
            i,
            VarDecl {
                name: d.name,
                pointer: d.pointer,
                dims,
                init,
                span: self.span(from, i),
            },
        ))
    }

    /// A whole variable declarator.
    fn var_decl(&self, i: Toks<'a>) -> R<'a, VarDecl> {
        let from = i;
        let (i, d) = self.declarator(i)?;
        if i.is(P::LParen) {
            let msg = "a function cannot be declared here".to_string();
            return fail(
                i,
                d.name.span,
                msg,
                "function declarator",
                Some("declare a procedure in its own declaration"),
            );
        }
        self.var_rest(from, i, d)
    }

    /// A local declaration statement: `int x, a[3] = {...};`, a typedef, a bare
    /// `enum`/`struct` declaration, or a function prototype.
    pub(super) fn local_decl(&self, i: Toks<'a>) -> R<'a, StmtKind> {
        let start = i;
        let (i, specs) = self.specs(i, true)?;
        if specs.is_typedef {
            let (j, t) = self.typedef_rest(start, i, specs)?;
            return Ok((j, StmtKind::Typedef(t)));
        }
        if i.is(P::Semi) && specs.tagged {
            let j = i.next();
            return Ok((j, StmtKind::Decl(bare_decl(specs, self.span(start, j)))));
        }
        // A function prototype `int f(int);` inside a body.
        let (j, d) = self.declarator(i)?;
        if j.is(P::LParen) && !d.paren {
            let (k, (params, void_params, variadic)) = self.params(j.next())?;
            let (k, attributes) = self.attributes(k)?;
            let (k, _) = expect(k, P::Semi, "`;`", " after function declaration")?;
            let proto = FuncProto {
                storage: specs.storage,
                ret: specs.ty,
                ret_pointer: d.pointer,
                name: d.name,
                params,
                void_params,
                variadic,
                attributes,
                span: self.span(start, k),
            };
            return Ok((k, StmtKind::Proto(proto)));
        }
        let (j, first) = self.var_rest(i, j, d)?;
        let mut vars = vec![first];
        let (j, more) = if j.is(P::Comma) {
            separated_list1(punct(P::Comma), |i| self.var_decl(i)).parse(j.next())?
        } else {
            (j, Vec::new())
        };
        vars.extend(more);
        let (j, _) = expect(j, P::Semi, "`;`", " after declaration")?;
        Ok((
            j,
            StmtKind::Decl(Decl {
                storage: specs.storage,
                ty: specs.ty,
                vars,
                enums: specs.enums,
                span: self.span(start, j),
            }),
        ))
    }

    /// The declarators of a `typedef` after its specifiers, up to and including `;`.
    /// Names of plain integer types resolve to them; any other shape is unsupported. A
    /// typedef whose declarators do not parse here (unusual function types) is skipped to
    /// its `;`, and the names it declares are recorded as unsupported types.
    pub(super) fn typedef_rest(
        &self,
        start: Toks<'a>,
        i: Toks<'a>,
        specs: Specs,
    ) -> R<'a, Typedef> {
        let structured = || -> R<'a, Vec<(Ident, Ty)>> {
            let mut names = Vec::new();
            let mut j = i;
            loop {
                let (k, d) = self.declarator(j)?;
                let (k, dims) = if d.paren {
                    (k, Vec::new())
                } else {
                    self.dims(k)?
                };
                let (k, is_fn) = if k.is(P::LParen) {
                    (self.balanced(k)?.0, true)
                } else {
                    (k, false)
                };
                let (k, _) = self.attributes(k)?;
                let ty = match &specs.ty {
                    Ty::Int { int, .. } if d.pointer == 0 && dims.is_empty() && !is_fn => Ty::Int {
                        int: *int,
                        spelling: d.name.name.clone(),
                    },
                    _ => Ty::Unsupported {
                        spelling: d.name.name.clone(),
                    },
                };
                names.push((d.name, ty));
                if k.is(P::Comma) {
                    j = k.next();
                } else {
                    let (k, _) = expect(k, P::Semi, "`;`", " after typedef")?;
                    return Ok((k, names));
                }
            }
        };
        let (j, names) = match structured() {
            Ok(r) => r,
            Err(_) => {
                let (j, _) = self.skip_to_semi(i, " after typedef")?;
                (j, self.typedef_names(i, j))
            }
        };
        for (n, ty) in &names {
            self.define_typedef(&n.name, ty.clone());
        }
        let span = self.span(start, j);
        Ok((
            j,
            Typedef {
                names,
                enums: specs.enums,
                text: self.text(span).to_string(),
                span,
            },
        ))
    }

    /// Skip a construct up to and including its `;`, balancing brackets.
    pub(super) fn skip_to_semi(&self, mut i: Toks<'a>, after: &'static str) -> R<'a, ()> {
        let mut depth = 0usize;
        loop {
            match &i.peek().tok {
                Tok::P(P::LParen | P::LBracket | P::LBrace) => depth += 1,
                Tok::P(P::RParen | P::RBracket | P::RBrace) => depth = depth.saturating_sub(1),
                Tok::P(P::Semi) if depth == 0 => return Ok((i.next(), ())),
                Tok::Eof => return expected(i, "`;`", after),
                _ => {}
            }
            i = i.next();
        }
    }

    /// The names a skipped `typedef` between `from` and `to` declares (as unsupported).
    fn typedef_names(&self, from: Toks<'a>, to: Toks<'a>) -> Vec<(Ident, Ty)> {
        let toks = &self.toks[from.pos..to.pos];
        let mut depth = 0usize;
        let mut out = Vec::new();
        for (k, t) in toks.iter().enumerate() {
            match &t.tok {
                Tok::P(P::LParen | P::LBracket | P::LBrace) => depth += 1,
                Tok::P(P::RParen | P::RBracket | P::RBrace) => depth = depth.saturating_sub(1),
                Tok::Ident(name) => {
                    let next = toks.get(k + 1).map(|t| &t.tok);
                    let prev = k.checked_sub(1).and_then(|p| toks.get(p)).map(|t| &t.tok);
                    let ends = matches!(
                        next,
                        Some(Tok::P(P::Semi | P::Comma | P::LBracket))
                            | Some(Tok::Kw(Kw::Attribute))
                    );
                    let fn_ptr = prev == Some(&Tok::P(P::Star)) && next == Some(&Tok::P(P::RParen));
                    if (depth == 0 && ends) || fn_ptr {
                        let id = Ident {
                            name: name.clone(),
                            span: t.span,
                        };
                        let ty = Ty::Unsupported {
                            spelling: name.clone(),
                        };
                        out.push((id, ty));
                    }
                }
                _ => {}
            }
        }
        out
    }

    /// Parameters after `(`, up to and including `)`.
    pub(super) fn params(&self, i: Toks<'a>) -> R<'a, (Vec<Param>, bool, bool)> {
        if i.is(P::RParen) {
            return Ok((i.next(), (Vec::new(), false, false)));
        }
        if i.is_kw(Kw::Void) && i.next().is(P::RParen) {
            return Ok((i.next().next(), (Vec::new(), true, false)));
        }
        let mut params = Vec::new();
        let mut i = i;
        loop {
            if i.is(P::Ellipsis) {
                let (j, _) = expect(i.next(), P::RParen, "`)`", " after `...`")?;
                return Ok((j, (params, false, true)));
            }
            let start = i;
            if !(self.starts_type(i, true) || matches!(i.peek().tok, Tok::Ident(_))) {
                return expected_help(i, "a parameter type", "", "write parameters as `int x`");
            }
            let (j, specs) = self.specs(i, true).or_else(|_| self.unknown_type(i))?;
            let (j, mut pointer) = self.pointers(j)?;
            let (mut j, name) = match &j.peek().tok {
                Tok::Ident(n) => (
                    j.next(),
                    Some(Ident {
                        name: n.clone(),
                        span: j.peek().span,
                    }),
                ),
                Tok::P(P::LParen) => {
                    let (k, name) = self.paren_declarator(j)?;
                    pointer = pointer.max(1);
                    (k, name)
                }
                _ => (j, None),
            };
            let mut is_array = false;
            while j.is(P::LBracket) {
                is_array = true;
                j = self.skip_brackets(j)?.0;
            }
            let (j, _) = self.attributes(j)?;
            params.push(Param {
                ty: specs.ty,
                pointer,
                name,
                is_array,
                span: self.span(start, j),
            });
            if j.is(P::Comma) {
                i = j.next();
            } else if j.is(P::RParen) {
                return Ok((j.next(), (params, false, false)));
            } else {
                return expected(j, "`,` or `)`", " in parameter list");
            }
        }
    }

    /// A lone identifier as a parameter type (an unknown typedef name in a prototype).
    fn unknown_type(&self, i: Toks<'a>) -> R<'a, Specs> {
        match &i.peek().tok {
            Tok::Ident(name) => {
                let ty = Ty::Unsupported {
                    spelling: name.clone(),
                };
                Ok((
                    i.next(),
                    Specs {
                        storage: Storage::default(),
                        ty,
                        is_typedef: false,
                        tagged: false,
                        enums: Vec::new(),
                    },
                ))
            }
            _ => expected(i, "a parameter type", ""),
        }
    }
}

/// A declaration without declarators (`enum E { ... };`, `struct s { ... };`).
pub(super) fn bare_decl(specs: Specs, span: Span) -> Decl {
    Decl {
        storage: specs.storage,
        ty: specs.ty,
        vars: Vec::new(),
        enums: specs.enums,
        span,
    }
}
