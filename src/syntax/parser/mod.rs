//! The parser: the lexer ([`lexer`]) turns text into tokens, and nom parsers over the token
//! slice build the [`ast`](crate::syntax::ast) (the grammar is ARCHITECTURE.md §3). This
//! module tree is the only place in the crate that uses nom.
//!
//! The grammar is deterministic (it decides on one or two tokens of lookahead), so the first
//! error is also the furthest point reached; it becomes one [`Diagnostic`].

mod decl;
mod expr;
mod items;
mod lexer;
mod stmt;
mod types;

use std::cell::{Cell, RefCell};
use std::collections::BTreeMap;

use crate::diag::{DiagKind, Diagnostic, SourceFile, Span};
use crate::syntax::ast::{Program, Ty};
use lexer::{Kw, Tok, Token, P};
use nom::error::{ErrorKind, ParseError};
use nom::{IResult, Input, Needed};

/// Parse a whole file.
pub fn parse(file: &SourceFile) -> Result<Program, Diagnostic> {
    let src = file.text();
    let tokens = lexer::lex(src)?;
    let ctx = Ctx {
        src,
        toks: &tokens,
        depth: Cell::new(0),
        typedefs: RefCell::new(BTreeMap::new()),
    };
    let input = Toks {
        all: &tokens,
        pos: 0,
    };
    match ctx.program(input) {
        Ok((_, p)) => Ok(p),
        Err(nom::Err::Error(e) | nom::Err::Failure(e)) => Err(ctx.diagnostic(e)),
        Err(nom::Err::Incomplete(_)) => Err(Diagnostic::new(
            DiagKind::Syntax,
            Span::new(src.len(), src.len()),
            "unexpected end of file",
        )),
    }
}

/// The maximal nesting of statements and expressions. Deeper input is reported, not
/// parsed, so that no input can overflow the stack.
pub(crate) const MAX_DEPTH: u32 = 256;

/// The end-of-input token returned when peeking past the end.
static EOF: Token = Token {
    tok: Tok::Eof,
    span: Span { start: 0, end: 0 },
};

/// A position in the token vector: nom's input type for the grammar.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Toks<'a> {
    all: &'a [Token],
    pos: usize,
}

impl<'a> Toks<'a> {
    /// The current token (the final `Eof` at and past the end).
    fn peek(&self) -> &'a Token {
        self.nth(0)
    }
    /// The token `n` ahead.
    fn nth(&self, n: usize) -> &'a Token {
        self.all
            .get(self.pos + n)
            .unwrap_or_else(|| self.all.last().unwrap_or(&EOF))
    }
    /// The input after the current token (never past the final `Eof`).
    fn next(self) -> Toks<'a> {
        let stop = self.all.len().saturating_sub(1);
        Toks {
            all: self.all,
            pos: (self.pos + 1).min(stop.max(self.pos)),
        }
    }
    /// Whether the current token is punctuator `p`.
    fn is(&self, p: P) -> bool {
        self.peek().tok == Tok::P(p)
    }
    /// Whether the current token is keyword `k`.
    fn is_kw(&self, k: Kw) -> bool {
        self.peek().tok == Tok::Kw(k)
    }
}

impl<'a> Input for Toks<'a> {
    type Item = &'a Token;
    type Iter = std::slice::Iter<'a, Token>;
    type IterIndices = std::iter::Enumerate<std::slice::Iter<'a, Token>>;

    fn input_len(&self) -> usize {
        self.all.len().saturating_sub(self.pos)
    }
    fn take(&self, index: usize) -> Self {
        Toks {
            all: &self.all[..self.pos + index],
            pos: self.pos,
        }
    }
    fn take_from(&self, index: usize) -> Self {
        Toks {
            all: self.all,
            pos: self.pos + index,
        }
    }
    fn take_split(&self, index: usize) -> (Self, Self) {
        (self.take_from(index), self.take(index))
    }
    fn position<F>(&self, predicate: F) -> Option<usize>
    where
        F: Fn(Self::Item) -> bool,
    {
        self.all[self.pos..].iter().position(predicate)
    }
    fn iter_elements(&self) -> Self::Iter {
        self.all[self.pos..].iter()
    }
    fn iter_indices(&self) -> Self::IterIndices {
        self.all[self.pos..].iter().enumerate()
    }
    fn slice_index(&self, count: usize) -> Result<usize, Needed> {
        if self.input_len() >= count {
            Ok(count)
        } else {
            Err(Needed::new(count - self.input_len()))
        }
    }
}

/// What went wrong, before it is rendered.
#[derive(Debug)]
pub(crate) enum ErrKind {
    /// `expected {what}{after}, found <token>`.
    Expected {
        what: &'static str,
        after: &'static str,
    },
    /// A finished message about a span.
    Message {
        message: String,
        label: String,
        help: Option<String>,
        span: Span,
    },
    /// An error from a nom combinator.
    Nom(ErrorKind),
}

/// The grammar's error: a token position and what went wrong there.
#[derive(Debug)]
pub(crate) struct PErr {
    pos: usize,
    kind: ErrKind,
    help: Option<&'static str>,
}

impl<'a> ParseError<Toks<'a>> for PErr {
    fn from_error_kind(input: Toks<'a>, kind: ErrorKind) -> Self {
        PErr {
            pos: input.pos,
            kind: ErrKind::Nom(kind),
            help: None,
        }
    }
    fn append(_: Toks<'a>, _: ErrorKind, other: Self) -> Self {
        other
    }
    /// Keep the error that got further (`alt` calls this).
    fn or(self, other: Self) -> Self {
        if other.pos > self.pos || (other.pos == self.pos && matches!(self.kind, ErrKind::Nom(_))) {
            other
        } else {
            self
        }
    }
}

/// The grammar's result type.
pub(crate) type R<'a, T> = IResult<Toks<'a>, T, PErr>;

/// `expected {what}{after}` at `i`, as a failure (no backtracking).
fn expected<'a, T>(i: Toks<'a>, what: &'static str, after: &'static str) -> R<'a, T> {
    Err(nom::Err::Failure(PErr {
        pos: i.pos,
        kind: ErrKind::Expected { what, after },
        help: None,
    }))
}

/// Like [`expected`], with a help line.
fn expected_help<'a, T>(
    i: Toks<'a>,
    what: &'static str,
    after: &'static str,
    help: &'static str,
) -> R<'a, T> {
    Err(nom::Err::Failure(PErr {
        pos: i.pos,
        kind: ErrKind::Expected { what, after },
        help: Some(help),
    }))
}

/// A finished message about `span`, as a failure.
fn fail<'a, T>(
    i: Toks<'a>,
    span: Span,
    message: String,
    label: &str,
    help: Option<&str>,
) -> R<'a, T> {
    let kind = ErrKind::Message {
        message,
        label: label.to_string(),
        help: help.map(str::to_string),
        span,
    };
    Err(nom::Err::Failure(PErr {
        pos: i.pos,
        kind,
        help: None,
    }))
}

/// Match punctuator `p` (a recoverable error if absent).
fn punct<'a>(p: P) -> impl Fn(Toks<'a>) -> R<'a, Span> {
    move |i: Toks<'a>| {
        if i.is(p) {
            Ok((i.next(), i.peek().span))
        } else {
            Err(nom::Err::Error(PErr {
                pos: i.pos,
                kind: ErrKind::Nom(ErrorKind::Tag),
                help: None,
            }))
        }
    }
}

/// Require punctuator `p`; otherwise fail with `expected `p`{after}`.
fn expect<'a>(i: Toks<'a>, p: P, what: &'static str, after: &'static str) -> R<'a, Span> {
    if i.is(p) {
        Ok((i.next(), i.peek().span))
    } else {
        expected(i, what, after)
    }
}

/// A human description of a token, for "found ..." messages.
fn describe(src: &str, t: &Token) -> String {
    let text = src
        .get(t.span.start as usize..t.span.end as usize)
        .unwrap_or("");
    let short: String = text.chars().take(24).collect();
    match &t.tok {
        Tok::Eof => "end of file".to_string(),
        Tok::Ident(_) => format!("identifier `{short}`"),
        Tok::Kw(_) => format!("keyword `{short}`"),
        Tok::Int(..) | Tok::Char(_) | Tok::Float(_) => format!("literal `{short}`"),
        Tok::Str(_) => "string literal".to_string(),
        Tok::P(_) => format!("`{short}`"),
    }
}

/// The parser's state: the text, the tokens, the nesting depth, and the typedef names
/// seen so far with their types (C's grammar needs them: `(T)x` is a cast only when `T`
/// names a type).
pub(crate) struct Ctx<'a> {
    src: &'a str,
    toks: &'a [Token],
    depth: Cell<u32>,
    typedefs: RefCell<BTreeMap<String, Ty>>,
}

/// Decrements the nesting depth when dropped.
pub(crate) struct DepthGuard<'c> {
    depth: &'c Cell<u32>,
}

impl Drop for DepthGuard<'_> {
    fn drop(&mut self) {
        self.depth.set(self.depth.get().saturating_sub(1));
    }
}

impl<'a> Ctx<'a> {
    /// Enter one level of nesting, failing past [`MAX_DEPTH`].
    fn enter(&self, i: Toks<'a>) -> Result<DepthGuard<'_>, nom::Err<PErr>> {
        let d = self.depth.get() + 1;
        if d > MAX_DEPTH {
            let span = i.peek().span;
            let kind = ErrKind::Message {
                message: format!("nesting too deep (more than {MAX_DEPTH} levels)"),
                label: "too deeply nested".to_string(),
                help: Some("split the expression or statement into smaller parts".to_string()),
                span,
            };
            return Err(nom::Err::Failure(PErr {
                pos: i.pos,
                kind,
                help: None,
            }));
        }
        self.depth.set(d);
        Ok(DepthGuard { depth: &self.depth })
    }

    /// The span from the token at `from` up to (not including) the token at `to`.
    fn span(&self, from: Toks<'a>, to: Toks<'a>) -> Span {
        let start = from.peek().span.start as usize;
        let end = if to.pos > from.pos {
            self.toks[to.pos - 1].span.end as usize
        } else {
            start
        };
        Span::new(start, end)
    }

    /// The source text of a span.
    fn text(&self, span: Span) -> &'a str {
        self.src
            .get(span.start as usize..span.end as usize)
            .unwrap_or("")
    }

    /// Render a grammar error.
    fn diagnostic(&self, e: PErr) -> Diagnostic {
        let tok = self
            .toks
            .get(e.pos)
            .unwrap_or_else(|| self.toks.last().unwrap_or(&EOF));
        let found = describe(self.src, tok);
        let mut d = match e.kind {
            ErrKind::Expected { what, after } => {
                let message = format!("expected {what}{after}, found {found}");
                if what == "`;`" && e.pos > 0 {
                    let at = Span::new(
                        self.toks[e.pos - 1].span.end as usize,
                        self.toks[e.pos - 1].span.end as usize,
                    );
                    Diagnostic::new(DiagKind::Syntax, at, message).with_label("expected `;` here")
                } else {
                    Diagnostic::new(DiagKind::Syntax, tok.span, message)
                        .with_label(format!("expected {what}"))
                }
            }
            ErrKind::Message {
                message,
                label,
                help,
                span,
            } => {
                let d = Diagnostic::new(DiagKind::Syntax, span, message).with_label(label);
                match help {
                    Some(h) => d.with_help(h),
                    None => d,
                }
            }
            ErrKind::Nom(kind) => {
                Diagnostic::new(DiagKind::Syntax, tok.span, format!("unexpected {found}"))
                    .with_label(format!("parse error ({})", kind.description()))
            }
        };
        if let Some(h) = e.help {
            d = d.with_help(h);
        }
        d
    }
}
