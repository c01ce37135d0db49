//! Types: declaration specifiers (storage words, qualifiers, GNU attributes), integer types
//! in any word order, `enum` specifiers with their constants, `struct`/`union` specifiers
//! (skipped: outside the fragment), and typedef names, resolved to their integer types.

use super::lexer::{Kw, Tok, P};
use super::{expected, expected_help, Ctx, Toks, R};
use crate::diag::Span;
use crate::syntax::ast::{EnumDef, Ident, IntKind, IntTy, Storage, Ty};

/// Declaration specifiers: storage, the base type, whether `typedef` was among them, and
/// the `enum` definitions they contain.
pub(super) struct Specs {
    pub(super) storage: Storage,
    pub(super) ty: Ty,
    pub(super) is_typedef: bool,
    /// Whether the type was a `struct`/`union`/`enum` specifier.
    pub(super) tagged: bool,
    /// `enum { ... }` definitions.
    pub(super) enums: Vec<EnumDef>,
}

/// Keywords that can start a type or declaration.
pub(super) fn is_spec_kw(k: Kw) -> bool {
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
            | Alignas
            | Typeof
            | Typeof2
            | Typeof3
    )
}

/// The tokens one `*` may be followed by in a declarator (qualifiers, dropped).
pub(super) fn is_ptr_qualifier(k: Kw) -> bool {
    matches!(
        k,
        Kw::Const
            | Kw::Const2
            | Kw::Volatile
            | Kw::Volatile2
            | Kw::Restrict
            | Kw::Restrict2
            | Kw::Restrict3
            | Kw::Atomic
    )
}

/// Integer type names of the C library and GNU C that are understood without their
/// `typedef` (a file that uses them usually includes a system header, which lpmc does not
/// read). `size_t` is `unsigned long`: 4 bytes under ILP32 and 8 under LP64, as in glibc.
pub(super) fn well_known_int(name: &str) -> Option<IntTy> {
    use IntKind::*;
    let (kind, unsigned) = match name {
        "bool" => (Bool, true),
        "int8_t" => (Char, false),
        "uint8_t" | "u_int8_t" => (Char, true),
        "int16_t" => (Short, false),
        "uint16_t" | "u_int16_t" => (Short, true),
        "int32_t" | "wchar_t" => (Int, false),
        "uint32_t" | "u_int32_t" => (Int, true),
        "int64_t" | "intmax_t" => (LongLong, false),
        "uint64_t" | "u_int64_t" | "uintmax_t" => (LongLong, true),
        "size_t" | "uintptr_t" => (Long, true),
        "ssize_t" | "ptrdiff_t" | "intptr_t" => (Long, false),
        "__int128_t" => (Int128, false),
        "__uint128_t" => (Int128, true),
        _ => return None,
    };
    Some(IntTy::new(kind, unsigned))
}

/// The integer type named by a multiset of specifier words, in any order
/// (`long unsigned int`, `int unsigned`, `signed char`, `unsigned long long`, ...).
fn int_ty(words: &[&str]) -> IntTy {
    let has = |w: &str| words.contains(&w);
    let longs = words.iter().filter(|w| **w == "long").count();
    let kind = if has("_Bool") {
        IntKind::Bool
    } else if has("char") {
        IntKind::Char
    } else if has("short") {
        IntKind::Short
    } else if has("__int128") {
        IntKind::Int128
    } else {
        match longs {
            0 => IntKind::Int,
            1 => IntKind::Long,
            _ => IntKind::LongLong,
        }
    };
    IntTy::new(kind, has("unsigned"))
}

impl<'a> Ctx<'a> {
    /// The type a name denotes as a type name: a typedef of this file, else a well-known
    /// library type name.
    pub(super) fn type_of_name(&self, name: &str) -> Option<Ty> {
        if let Some(t) = self.typedefs.borrow().get(name) {
            return Some(t.clone());
        }
        well_known_int(name).map(|int| Ty::Int {
            int,
            spelling: name.to_string(),
        })
    }

    /// Record a typedef name.
    pub(super) fn define_typedef(&self, name: &str, ty: Ty) {
        self.typedefs.borrow_mut().insert(name.to_string(), ty);
    }

    /// Skip `__extension__` tokens.
    pub(super) fn skip_extension(&self, mut i: Toks<'a>) -> Toks<'a> {
        while i.is_kw(Kw::Extension) {
            i = i.next();
        }
        i
    }

    /// Whether `i` starts a type name (for casts and `sizeof`). With `loose`, an unknown
    /// identifier followed by an identifier counts as a typedef name.
    pub(super) fn starts_type(&self, i: Toks<'a>, loose: bool) -> bool {
        let i = self.skip_extension(i);
        match &i.peek().tok {
            Tok::Kw(k) => {
                is_spec_kw(*k)
                    && !matches!(
                        k,
                        Kw::Extern | Kw::Static | Kw::Typedef | Kw::Register | Kw::Auto
                    )
            }
            Tok::Ident(name) => {
                name == "__int128"
                    || self.type_of_name(name).is_some()
                    || (loose && matches!(i.nth(1).tok, Tok::Ident(_)))
            }
            _ => false,
        }
    }

    /// Whether a statement starting at `i` is a declaration.
    pub(super) fn starts_decl(&self, i: Toks<'a>) -> bool {
        let i = self.skip_extension(i);
        match &i.peek().tok {
            Tok::Kw(k) => is_spec_kw(*k),
            Tok::Ident(name) => {
                !matches!(i.nth(1).tok, Tok::P(P::Colon))
                    && (name == "__int128"
                        || self.type_of_name(name).is_some()
                        || matches!(i.nth(1).tok, Tok::Ident(_)))
            }
            _ => false,
        }
    }

    /// Skip `__attribute__((...))`; returns its span.
    pub(super) fn attribute(&self, i: Toks<'a>) -> R<'a, Span> {
        let start = i;
        let j = i.next();
        if !j.is(P::LParen) {
            return expected(j, "`(`", " after `__attribute__`");
        }
        let (j, _) = self.balanced(j)?;
        Ok((j, self.span(start, j)))
    }

    /// Skip any `__attribute__((...))` clauses (and `__asm__("name")` labels after a
    /// declarator), returning the attributes' verbatim texts.
    pub(super) fn attributes(&self, mut i: Toks<'a>) -> R<'a, Vec<String>> {
        let mut out = Vec::new();
        loop {
            if i.is_kw(Kw::Attribute) || i.is_kw(Kw::Attribute2) {
                let (j, span) = self.attribute(i)?;
                out.push(self.text(span).to_string());
                i = j;
            } else if matches!(i.peek().tok, Tok::Kw(Kw::Asm | Kw::Asm2 | Kw::Asm3))
                && i.next().is(P::LParen)
            {
                i = self.balanced(i.next())?.0;
            } else {
                return Ok((i, out));
            }
        }
    }

    /// Declaration specifiers. With `loose`, a leading unknown identifier is a type name
    /// when an identifier or `*` follows it.
    pub(super) fn specs(&self, i: Toks<'a>, loose: bool) -> R<'a, Specs> {
        let mut i = i;
        let mut storage = Storage::default();
        let mut words: Vec<String> = Vec::new();
        let mut ints: Vec<&'static str> = Vec::new();
        let mut enums = Vec::new();
        let mut named_ty: Option<Ty> = None;
        let (mut named, mut tagged, mut is_typedef, mut unsupported, mut is_enum) =
            (false, false, false, false, false);
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
                    | Kw::ThreadLocal,
                ) => {}
                Tok::Kw(Kw::Atomic) if !i.next().is(P::LParen) => {}
                Tok::Kw(Kw::Attribute | Kw::Attribute2) => {
                    i = self.attribute(i)?.0;
                    continue;
                }
                Tok::Kw(Kw::Alignas) if i.next().is(P::LParen) => {
                    i = self.balanced(i.next())?.0;
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
                Tok::Kw(Kw::Signed2) if !named && !ints.contains(&"signed") => {
                    ints.push("signed");
                    words.push("signed".to_string());
                }
                Tok::Ident(name) if name == "__int128" && !named && !ints.contains(&"__int128") => {
                    ints.push("__int128");
                    words.push(name.clone());
                }
                Tok::Kw(k @ (Kw::Void | Kw::Float | Kw::Double | Kw::Complex))
                    if !named && !words.iter().any(|w| w == k.text()) =>
                {
                    words.push(k.text().to_string());
                    unsupported |= *k != Kw::Void;
                }
                Tok::Kw(Kw::Struct | Kw::Union) if !named && words.is_empty() => {
                    let (j, span) = self.tagged(i)?;
                    words.push(self.text(span).to_string());
                    (named, tagged) = (true, true);
                    i = j;
                    continue;
                }
                Tok::Kw(Kw::Enum) if !named && words.is_empty() => {
                    let (j, (span, def)) = self.enum_spec(i)?;
                    words.push(self.text(span).to_string());
                    enums.extend(def);
                    (named, tagged, is_enum) = (true, true, true);
                    i = j;
                    continue;
                }
                Tok::Kw(Kw::Typeof | Kw::Typeof2 | Kw::Typeof3 | Kw::Atomic)
                    if !named && words.is_empty() && i.next().is(P::LParen) =>
                {
                    let (j, _) = self.balanced(i.next())?;
                    words.push(self.text(self.span(i, j)).to_string());
                    (named, unsupported) = (true, true);
                    i = j;
                    continue;
                }
                Tok::Ident(name) if !named && words.is_empty() => {
                    let next = &i.nth(1).tok;
                    let follows =
                        matches!(next, Tok::Ident(_)) || (loose && matches!(next, Tok::P(P::Star)));
                    let known = self.type_of_name(name);
                    if known.is_none() && !follows {
                        break;
                    }
                    words.push(name.clone());
                    named = true;
                    named_ty = known;
                }
                _ => break,
            }
            i = i.next();
        }
        if words.is_empty() {
            return expected_help(i, "a type", "", "lpmc does not accept C89's implicit `int`");
        }
        let spelling = words.join(" ");
        let ty = if is_enum {
            Ty::Int {
                int: IntTy::INT,
                spelling,
            }
        } else if named {
            match named_ty {
                Some(Ty::Int { int, .. }) => Ty::Int { int, spelling },
                _ => Ty::Unsupported { spelling },
            }
        } else if unsupported || (words.iter().any(|w| w == "void") && words.len() > 1) {
            Ty::Unsupported { spelling }
        } else if words.len() == 1 && words[0] == "void" {
            Ty::Void
        } else {
            Ty::Int {
                int: int_ty(&ints),
                spelling,
            }
        };
        Ok((
            i,
            Specs {
                storage,
                ty,
                is_typedef,
                tagged,
                enums,
            },
        ))
    }

    /// `struct X`, `struct X { ... }`, `struct { ... }` (also union): its span.
    pub(super) fn tagged(&self, i: Toks<'a>) -> R<'a, Span> {
        let start = i;
        let mut j = i.next();
        j = self.attributes(j)?.0;
        let named = matches!(j.peek().tok, Tok::Ident(_));
        if named {
            j = j.next();
        }
        if j.is(P::LBrace) {
            j = self.skip_braces(j)?.0;
            j = self.attributes(j)?.0;
        } else if !named {
            return expected(j, "a name or `{`", " after `struct`, `union` or `enum`");
        }
        Ok((j, self.span(start, j)))
    }

    /// Skip a balanced `{ ... }` group starting at `i`.
    pub(super) fn skip_braces(&self, i: Toks<'a>) -> R<'a, ()> {
        let mut depth = 0usize;
        let mut j = i;
        loop {
            match &j.peek().tok {
                Tok::P(P::LBrace) => depth += 1,
                Tok::P(P::RBrace) => {
                    depth = depth.saturating_sub(1);
                    if depth == 0 {
                        return Ok((j.next(), ()));
                    }
                }
                Tok::Eof => return expected(j, "`}`", " to close the body"),
                _ => {}
            }
            j = j.next();
        }
    }

    /// `enum E`, `enum E { A, B = 5, C }`, `enum { ... }`: the specifier's span and its
    /// definition, if it has a body.
    fn enum_spec(&self, i: Toks<'a>) -> R<'a, (Span, Option<EnumDef>)> {
        let start = i;
        let (mut j, _) = self.attributes(i.next())?;
        let name = match &j.peek().tok {
            Tok::Ident(n) => {
                let id = Ident {
                    name: n.clone(),
                    span: j.peek().span,
                };
                j = j.next();
                Some(id)
            }
            _ => None,
        };
        if !j.is(P::LBrace) {
            if name.is_none() {
                return expected(j, "a name or `{`", " after `enum`");
            }
            return Ok((j, (self.span(start, j), None)));
        }
        let _g = self.enter(j)?;
        j = j.next();
        let mut items = Vec::new();
        while !j.is(P::RBrace) {
            let Tok::Ident(n) = &j.peek().tok else {
                return expected(j, "an enumeration constant", " in `enum`");
            };
            let id = Ident {
                name: n.clone(),
                span: j.peek().span,
            };
            j = self.attributes(j.next())?.0;
            let value = if j.is(P::Assign) {
                let (k, e) = self.cond_expr(j.next())?;
                j = k;
                Some(e)
            } else {
                None
            };
            items.push((id, value));
            if j.is(P::Comma) {
                j = j.next();
            } else if !j.is(P::RBrace) {
                return expected(j, "`,` or `}`", " in `enum`");
            }
        }
        j = j.next();
        let (j, _) = self.attributes(j)?;
        let span = self.span(start, j);
        Ok((j, (span, Some(EnumDef { name, items, span }))))
    }
}
