//! The top-level items of ARCHITECTURE.md §3: globals, prototypes, procedure definitions,
//! typedefs, `enum`/`struct` declarations, and GNU/C11 items that carry no semantics for
//! lpmc (`_Static_assert`, top-level `asm`).

use super::decl::bare_decl;
use super::lexer::{Kw, Tok, P};
use super::types::Specs;
use super::{expect, expected, fail, Ctx, Toks, R};
use crate::diag::Span;
use crate::syntax::ast::{Decl, FuncDef, FuncProto, Ident, IntTy, Item, Param, Program, Ty};

impl<'a> Ctx<'a> {
    /// The whole translation unit.
    pub(super) fn program(&self, mut i: Toks<'a>) -> R<'a, Program> {
        let mut items = Vec::new();
        while !matches!(i.peek().tok, Tok::Eof) {
            if i.is(P::Semi) {
                i = i.next();
                continue;
            }
            let (j, item) = self.item(i)?;
            items.push(item);
            i = j;
        }
        Ok((
            i,
            Program {
                items,
                span: Span::new(0, self.src.len()),
            },
        ))
    }

    /// A construct skipped to its `;` and kept verbatim as [`Item::Other`].
    fn other_item(&self, start: Toks<'a>, what: &str) -> R<'a, Item> {
        let (j, _) = self.skip_to_semi(start, "")?;
        let span = self.span(start, j);
        Ok((
            j,
            Item::Other {
                what: what.to_string(),
                text: self.text(span).to_string(),
                span,
            },
        ))
    }

    /// One top-level item.
    fn item(&self, i: Toks<'a>) -> R<'a, Item> {
        let start = i;
        let k = self.skip_extension(i);
        match k.peek().tok {
            Tok::Kw(Kw::StaticAssert) => return self.other_item(start, "static assertion"),
            Tok::Kw(Kw::Asm | Kw::Asm2 | Kw::Asm3) => {
                return self.other_item(start, "inline assembly")
            }
            _ => {}
        }
        if !(self.starts_type(k, true) || matches!(k.peek().tok, Tok::Ident(_) | Tok::Kw(_))) {
            return expected(k, "a declaration or procedure", "");
        }
        let (i, specs) = self.specs(k, true)?;
        if specs.is_typedef {
            let (j, t) = self.typedef_rest(start, i, specs)?;
            return Ok((j, Item::Typedef(t)));
        }
        if i.is(P::Semi) {
            let j = i.next();
            let span = self.span(start, j);
            if specs.tagged && !specs.enums.is_empty() {
                return Ok((j, Item::Decl(bare_decl(specs, span))));
            }
            if specs.tagged {
                let keyword = self.toks[start.pos..i.pos]
                    .iter()
                    .find_map(|t| match t.tok {
                        Tok::Kw(k @ (Kw::Struct | Kw::Union | Kw::Enum)) => Some(k.text()),
                        _ => None,
                    });
                let what = format!("{} declaration", keyword.unwrap_or("struct"));
                return Ok((
                    j,
                    Item::Other {
                        what,
                        text: self.text(span).to_string(),
                        span,
                    },
                ));
            }
            return fail(
                i,
                span,
                "declaration declares nothing".to_string(),
                "no name declared",
                None,
            );
        }
        let from = i;
        let (i, d) = self.declarator(i)?;
        if i.is(P::LParen) && !d.paren {
            return self.function(start, specs, d.pointer, d.name, i.next());
        }
        let (mut i, first) = self.var_rest(from, i, d)?;
        let mut vars = vec![first];
        while i.is(P::Comma) {
            let from = i.next();
            let (j, d) = self.declarator(from)?;
            if j.is(P::LParen) && !d.paren {
                let msg = "a function cannot be declared here".to_string();
                return fail(
                    j,
                    d.name.span,
                    msg,
                    "function declarator",
                    Some("declare a procedure in its own declaration"),
                );
            }
            let (j, v) = self.var_rest(from, j, d)?;
            vars.push(v);
            i = j;
        }
        let (i, _) = expect(i, P::Semi, "`;`", " after declaration")?;
        let decl = Decl {
            storage: specs.storage,
            ty: specs.ty,
            vars,
            enums: specs.enums,
            span: self.span(start, i),
        };
        Ok((i, Item::Decl(decl)))
    }

    /// A K&R definition `int f(a, b) int a; int b; { ... }`: the identifier list gets its
    /// types from the declarations before the body (`int` when not declared). Other
    /// parameter lists are returned as they are.
    fn kr_params(&self, i: Toks<'a>, params: Vec<Param>) -> R<'a, Vec<Param>> {
        let is_kr = !params.is_empty()
            && params.iter().all(|p| {
                p.name.is_none()
                    && p.pointer == 0
                    && !p.is_array
                    && matches!(&p.ty, Ty::Unsupported { spelling } if !spelling.contains(' '))
            });
        if !is_kr || !(i.is(P::LBrace) || self.starts_decl(i)) {
            return Ok((i, params));
        }
        let mut decls: Vec<(Ident, Ty, u8, bool)> = Vec::new();
        let mut i = i;
        while !i.is(P::LBrace) {
            let (mut j, specs) = self.specs(i, true)?;
            loop {
                let (k, d) = self.declarator(j)?;
                let (k, dims) = self.dims(k)?;
                decls.push((d.name, specs.ty.clone(), d.pointer, !dims.is_empty()));
                if k.is(P::Comma) {
                    j = k.next();
                } else {
                    j = expect(k, P::Semi, "`;`", " after parameter declaration")?.0;
                    break;
                }
            }
            i = j;
        }
        let params = params
            .into_iter()
            .map(|p| {
                let Ty::Unsupported { spelling } = &p.ty else {
                    return p;
                };
                let name = Ident {
                    name: spelling.clone(),
                    span: p.span,
                };
                match decls.iter().find(|d| d.0.name == *spelling) {
                    Some((n, ty, pointer, is_array)) => Param {
                        ty: ty.clone(),
                        pointer: *pointer,
                        name: Some(Ident {
                            name: n.name.clone(),
                            span: p.span,
                        }),
                        is_array: *is_array,
                        span: p.span,
                    },
                    None => Param {
                        ty: Ty::Int {
                            int: IntTy::INT,
                            spelling: "int".to_string(),
                        },
                        pointer: 0,
                        name: Some(name),
                        is_array: false,
                        span: p.span,
                    },
                }
            })
            .collect();
        Ok((i, params))
    }

    /// A prototype or definition, after `name(`.
    fn function(
        &self,
        start: Toks<'a>,
        specs: Specs,
        ret_pointer: u8,
        name: Ident,
        i: Toks<'a>,
    ) -> R<'a, Item> {
        let (i, (params, void_params, variadic)) = self.params(i)?;
        let (i, attributes) = self.attributes(i)?;
        let (i, params) = self.kr_params(i, params)?;
        let proto_end = i;
        let proto = |span| FuncProto {
            storage: specs.storage.clone(),
            ret: specs.ty.clone(),
            ret_pointer,
            name: name.clone(),
            params: params.clone(),
            void_params,
            variadic,
            attributes: attributes.clone(),
            span,
        };
        if i.is(P::Semi) {
            let j = i.next();
            return Ok((j, Item::Proto(proto(self.span(start, j)))));
        }
        if i.is(P::LBrace) {
            let (j, body) = self.block(i)?;
            let def = FuncDef {
                proto: proto(self.span(start, proto_end)),
                body,
                span: self.span(start, j),
            };
            return Ok((j, Item::Func(def)));
        }
        expected(i, "`;` or `{`", " after procedure declarator")
    }
}
