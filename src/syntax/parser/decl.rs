//! Declarations: types and qualifiers, declarators, initialisers, parameters, and the
//! top-level items (globals, prototypes, procedure definitions, typedefs, struct
//! declarations) of ARCHITECTURE.md §3.

use super::lexer::{Kw, Tok, P};
use super::{expect, expected, expected_help, fail, punct, Ctx, Toks, R};
use crate::diag::Span;
use crate::syntax::ast::{
    Decl, FuncDef, FuncProto, Ident, Init, Item, Param, Program, Storage, Ty, VarDecl,
};
use nom::multi::separated_list1;
use nom::Parser;

/// Declaration specifiers: storage, the base type, and whether `typedef` was among them.
pub(super) struct Specs {
    storage: Storage,
    ty: Ty,
    is_typedef: bool,
    /// Whether the type was a `struct`/`union`/`enum` specifier.
    tagged: bool,
}

/// Keywords that can start a type or declaration.
fn is_spec_kw(k: Kw) -> bool {
    use Kw::*;
    matches!(
        k,
        Char | Const
            | Double
            | Enum
            | Extern
            | Float
            | Inline
            | Int
            | Long
            | Register
            | Restrict
            | Short
            | Signed
            | Static
            | Struct
            | Typedef
            | Union
            | Unsigned
            | Void
            | Volatile
            | Bool
            | Complex
            | Noreturn
            | Atomic
            | ThreadLocal
            | Auto
            | Attribute
            | Attribute2
            | Extension
            | Restrict2
            | Restrict3
            | Inline2
            | Inline3
            | Const2
            | Volatile2
            | Signed2
    )
}

/// The tokens one `*` may be followed by in a declarator (qualifiers, dropped).
fn is_ptr_qualifier(k: Kw) -> bool {
    matches!(
        k,
        Kw::Const
            | Kw::Const2
            | Kw::Volatile
            | Kw::Volatile2
            | Kw::Restrict
            | Kw::Restrict2
            | Kw::Restrict3
    )
}

impl<'a> Ctx<'a> {
    fn is_typedef_name(&self, name: &str) -> bool {
        self.typedefs.borrow().contains(name)
    }

    /// Whether `i` starts a type name (for casts). With `loose`, an unknown identifier
    /// followed by an identifier counts as a typedef name.
    pub(super) fn starts_type(&self, i: Toks<'a>, loose: bool) -> bool {
        match &i.peek().tok {
            Tok::Kw(k) => {
                is_spec_kw(*k)
                    && !matches!(
                        k,
                        Kw::Extern | Kw::Static | Kw::Typedef | Kw::Register | Kw::Auto
                    )
            }
            Tok::Ident(name) => {
                self.is_typedef_name(name) || (loose && matches!(i.nth(1).tok, Tok::Ident(_)))
            }
            _ => false,
        }
    }

    /// Whether a statement starting at `i` is a declaration.
    pub(super) fn starts_decl(&self, i: Toks<'a>) -> bool {
        match &i.peek().tok {
            Tok::Kw(k) => is_spec_kw(*k),
            Tok::Ident(name) => {
                !matches!(i.nth(1).tok, Tok::P(P::Colon))
                    && (self.is_typedef_name(name) || matches!(i.nth(1).tok, Tok::Ident(_)))
            }
            _ => false,
        }
    }

    /// Skip `__attribute__((...))`; returns its span.
    fn attribute(&self, i: Toks<'a>) -> R<'a, Span> {
        let start = i;
        let j = i.next();
        if !j.is(P::LParen) {
            return expected(j, "`(`", " after `__attribute__`");
        }
        let (j, _) = self.balanced(j)?;
        Ok((j, self.span(start, j)))
    }

    /// Skip any `__attribute__((...))` clauses, returning their verbatim texts.
    fn attributes(&self, mut i: Toks<'a>) -> R<'a, Vec<String>> {
        let mut out = Vec::new();
        while i.is_kw(Kw::Attribute) || i.is_kw(Kw::Attribute2) {
            let (j, span) = self.attribute(i)?;
            out.push(self.text(span).to_string());
            i = j;
        }
        Ok((i, out))
    }

    /// Declaration specifiers. With `loose`, a leading unknown identifier is a type name
    /// when an identifier or `*` follows it.
    pub(super) fn specs(&self, i: Toks<'a>, loose: bool) -> R<'a, Specs> {
        let start = i;
        let mut i = i;
        let mut storage = Storage::default();
        let mut words: Vec<String> = Vec::new();
        let mut ints: Vec<&'static str> = Vec::new();
        let (mut named, mut tagged, mut is_typedef, mut unsupported) = (false, false, false, false);
        loop {
            let t = i.peek();
            match &t.tok {
                Tok::Kw(Kw::Extern) => storage.is_extern = true,
                Tok::Kw(Kw::Static) => storage.is_static = true,
                Tok::Kw(Kw::Const | Kw::Const2) => storage.is_const = true,
                Tok::Kw(Kw::Typedef) => is_typedef = true,
                Tok::Kw(
                    Kw::Volatile
                    | Kw::Volatile2
                    | Kw::Inline
                    | Kw::Inline2
                    | Kw::Inline3
                    | Kw::Register
                    | Kw::Auto
                    | Kw::Restrict
                    | Kw::Restrict2
                    | Kw::Restrict3
                    | Kw::Extension
                    | Kw::Noreturn
                    | Kw::ThreadLocal
                    | Kw::Atomic,
                ) => {}
                Tok::Kw(Kw::Attribute | Kw::Attribute2) => {
                    i = self.attribute(i)?.0;
                    continue;
                }
                Tok::Kw(
                    k @ (Kw::Int
                    | Kw::Long
                    | Kw::Short
                    | Kw::Char
                    | Kw::Bool
                    | Kw::Signed
                    | Kw::Unsigned),
                ) if !named && (*k == Kw::Long || !ints.contains(&k.text())) => {
                    ints.push(k.text());
                    words.push(k.text().to_string());
                }
                Tok::Kw(Kw::Signed2) if !named => {
                    ints.push("signed");
                    words.push("signed".to_string());
                }
                Tok::Kw(k @ (Kw::Void | Kw::Float | Kw::Double | Kw::Complex))
                    if !named && !words.iter().any(|w| w == k.text()) =>
                {
                    words.push(k.text().to_string());
                    unsupported |= *k != Kw::Void;
                }
                Tok::Kw(Kw::Struct | Kw::Union | Kw::Enum) if !named && words.is_empty() => {
                    let (j, span) = self.tagged(i)?;
                    words.push(self.text(span).to_string());
                    (named, tagged) = (true, true);
                    i = j;
                    continue;
                }
                Tok::Ident(name) if !named && words.is_empty() => {
                    let next = &i.nth(1).tok;
                    let follows =
                        matches!(next, Tok::Ident(_)) || (loose && matches!(next, Tok::P(P::Star)));
                    if !(self.is_typedef_name(name) || follows) {
                        break;
                    }
                    words.push(name.clone());
                    named = true;
                }
                _ => break,
            }
            i = i.next();
        }
        if words.is_empty() {
            return expected_help(i, "a type", "", "lpmc does not accept C89's implicit `int`");
        }
        let spelling = words.join(" ");
        let ty = if named || unsupported || (words.iter().any(|w| w == "void") && words.len() > 1) {
            Ty::Unsupported { spelling }
        } else if words.len() == 1 && words[0] == "void" {
            Ty::Void
        } else {
            let unsigned = ints.iter().any(|w| *w == "unsigned" || *w == "_Bool");
            Ty::Int { unsigned, spelling }
        };
        let _ = start;
        Ok((
            i,
            Specs {
                storage,
                ty,
                is_typedef,
                tagged,
            },
        ))
    }

    /// `struct X`, `struct X { ... }`, `struct { ... }` (also union, enum): its span.
    fn tagged(&self, i: Toks<'a>) -> R<'a, Span> {
        let start = i;
        let mut j = i.next();
        j = self.attributes(j)?.0;
        let named = matches!(j.peek().tok, Tok::Ident(_));
        if named {
            j = j.next();
        }
        if j.is(P::LBrace) {
            let mut depth = 0usize;
            loop {
                match &j.peek().tok {
                    Tok::P(P::LBrace) => depth += 1,
                    Tok::P(P::RBrace) => {
                        depth = depth.saturating_sub(1);
                        if depth == 0 {
                            j = j.next();
                            break;
                        }
                    }
                    Tok::Eof => return expected(j, "`}`", " to close the body"),
                    _ => {}
                }
                j = j.next();
            }
        } else if !named {
            return expected(j, "a name or `{`", " after `struct`, `union` or `enum`");
        }
        Ok((j, self.span(start, j)))
    }

    /// A type name in a cast: specifiers and `*`s.
    pub(super) fn type_name(&self, i: Toks<'a>) -> R<'a, (Ty, u8)> {
        let (i, specs) = self.specs(i, false)?;
        let (i, pointer) = self.pointers(i)?;
        Ok((i, (specs.ty, pointer)))
    }

    /// A run of `*` (each possibly followed by qualifiers).
    fn pointers(&self, mut i: Toks<'a>) -> R<'a, u8> {
        let mut n: u8 = 0;
        while i.is(P::Star) {
            if n == u8::MAX {
                let msg = "too many `*` in a declarator".to_string();
                return fail(i, i.peek().span, msg, "pointer depth over 255", None);
            }
            n += 1;
            i = i.next();
            while matches!(i.peek().tok, Tok::Kw(k) if is_ptr_qualifier(k)) {
                i = i.next();
            }
        }
        Ok((i, n))
    }

    /// The name of a declarator, with a good message if it is missing.
    fn declarator_name(&self, i: Toks<'a>) -> R<'a, Ident> {
        match &i.peek().tok {
            Tok::Ident(name) => Ok((
                i.next(),
                Ident {
                    name: name.clone(),
                    span: i.peek().span,
                },
            )),
            Tok::P(P::LParen) => {
                let msg =
                    "parenthesised declarators (function pointers) are not supported".to_string();
                fail(i, i.peek().span, msg, "unsupported declarator", None)
            }
            _ => expected(i, "identifier", " in declaration"),
        }
    }

    /// Array dimensions `[e]` / `[]` after a declarator name.
    fn dims(&self, mut i: Toks<'a>) -> R<'a, Vec<Option<crate::syntax::ast::Expr>>> {
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

    /// `= e` or `= {e, ...}`.
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
                let msg = "nested or designated initialisers are not supported".to_string();
                return fail(
                    j,
                    j.peek().span,
                    msg,
                    "only a flat list `{e1, e2, ...}` is supported",
                    None,
                );
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
    fn var_rest(&self, from: Toks<'a>, i: Toks<'a>, pointer: u8, name: Ident) -> R<'a, VarDecl> {
        let (i, dims) = self.dims(i)?;
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
                name,
                pointer,
                dims,
                init,
                span: self.span(from, i),
            },
        ))
    }

    /// A whole variable declarator.
    fn var_decl(&self, i: Toks<'a>) -> R<'a, VarDecl> {
        let from = i;
        let (i, pointer) = self.pointers(i)?;
        let (i, name) = self.declarator_name(i)?;
        if i.is(P::LParen) {
            let msg = "a function cannot be declared here".to_string();
            return fail(
                i,
                name.span,
                msg,
                "function declarator",
                Some("declare procedures at top level"),
            );
        }
        self.var_rest(from, i, pointer, name)
    }

    /// A local declaration `int x, a[3] = {...};` (a statement).
    pub(super) fn local_decl(&self, i: Toks<'a>) -> R<'a, Decl> {
        let start = i;
        if i.is_kw(Kw::Typedef) {
            let msg = "local typedefs are not supported".to_string();
            return fail(
                i,
                i.peek().span,
                msg,
                "typedef inside a procedure",
                Some("move it to top level"),
            );
        }
        let (i, specs) = self.specs(i, true)?;
        if i.is(P::Semi) && specs.tagged {
            let msg = "local struct, union or enum declarations are not supported".to_string();
            return fail(i, self.span(start, i), msg, "move it to top level", None);
        }
        let (i, vars) = separated_list1(punct(P::Comma), |i| self.var_decl(i)).parse(i)?;
        let (i, _) = expect(i, P::Semi, "`;`", " after declaration")?;
        Ok((
            i,
            Decl {
                storage: specs.storage,
                ty: specs.ty,
                vars,
                span: self.span(start, i),
            },
        ))
    }

    /// Parameters after `(`, up to and including `)`.
    fn params(&self, i: Toks<'a>) -> R<'a, (Vec<Param>, bool, bool)> {
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
            let (j, pointer) = self.pointers(j)?;
            let (mut j, name) = match &j.peek().tok {
                Tok::Ident(n) => (
                    j.next(),
                    Some(Ident {
                        name: n.clone(),
                        span: j.peek().span,
                    }),
                ),
                Tok::P(P::LParen) => {
                    let msg = "function pointer parameters are not supported".to_string();
                    return fail(j, j.peek().span, msg, "unsupported declarator", None);
                }
                _ => (j, None),
            };
            let mut is_array = false;
            while j.is(P::LBracket) {
                is_array = true;
                let mut k = j.next();
                while !k.is(P::RBracket) {
                    if matches!(
                        k.peek().tok,
                        Tok::Eof | Tok::P(P::Semi | P::LBrace | P::RBrace)
                    ) {
                        return expected(k, "`]`", " in array parameter");
                    }
                    k = k.next();
                }
                j = k.next();
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
                    },
                ))
            }
            _ => expected(i, "a parameter type", ""),
        }
    }

    /// Skip a top-level construct up to and including its `;`, balancing brackets.
    fn skip_to_semi(&self, mut i: Toks<'a>, after: &'static str) -> R<'a, ()> {
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

    /// Record the names a `typedef` between `from` and `to` declares.
    fn record_typedefs(&self, from: Toks<'a>, to: Toks<'a>) {
        let toks = &self.toks[from.pos..to.pos];
        let mut depth = 0usize;
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
                        self.typedefs.borrow_mut().insert(name.clone());
                    }
                }
                _ => {}
            }
        }
    }

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

    /// One top-level item.
    fn item(&self, i: Toks<'a>) -> R<'a, Item> {
        let start = i;
        let mut k = i;
        while k.is_kw(Kw::Extension) {
            k = k.next();
        }
        if k.is_kw(Kw::Typedef) {
            let (j, _) = self.skip_to_semi(i, " after typedef")?;
            self.record_typedefs(k, j);
            let span = self.span(start, j);
            return Ok((
                j,
                Item::Other {
                    what: "typedef".to_string(),
                    text: self.text(span).to_string(),
                    span,
                },
            ));
        }
        if !(self.starts_type(i, true) || matches!(i.peek().tok, Tok::Ident(_) | Tok::Kw(_))) {
            return expected(i, "a declaration or procedure", "");
        }
        let (i, specs) = self.specs(i, true)?;
        if specs.is_typedef {
            let (j, _) = self.skip_to_semi(i, " after typedef")?;
            self.record_typedefs(i, j);
            let span = self.span(start, j);
            return Ok((
                j,
                Item::Other {
                    what: "typedef".to_string(),
                    text: self.text(span).to_string(),
                    span,
                },
            ));
        }
        if i.is(P::Semi) {
            let j = i.next();
            let span = self.span(start, j);
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
        let (i, pointer) = self.pointers(i)?;
        let (i, name) = self.declarator_name(i)?;
        if i.is(P::LParen) {
            return self.function(start, specs, pointer, name, i.next());
        }
        let (mut i, first) = self.var_rest(from, i, pointer, name)?;
        let mut vars = vec![first];
        while i.is(P::Comma) {
            let (j, v) = self.var_decl(i.next())?;
            vars.push(v);
            i = j;
        }
        let (i, _) = expect(i, P::Semi, "`;`", " after declaration")?;
        let decl = Decl {
            storage: specs.storage,
            ty: specs.ty,
            vars,
            span: self.span(start, i),
        };
        Ok((i, Item::Decl(decl)))
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
