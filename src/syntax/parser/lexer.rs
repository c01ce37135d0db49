//! The lexer: nom parsers over the source text that turn it into [`Token`]s, skipping
//! whitespace, comments and preprocessor lines (ARCHITECTURE.md §3: `#` lines are skipped;
//! the front end runs the C preprocessor first when a file needs it, and its line markers
//! are skipped here too).

use crate::diag::{DiagKind, Diagnostic, Span};
use crate::syntax::ast::IntLit;
use nom::branch::alt;
use nom::bytes::complete::{tag, take_until, take_while, take_while1};
use nom::character::complete::{multispace1, satisfy};
use nom::combinator::recognize;
use nom::sequence::pair;
use nom::{IResult, Parser};
use num_bigint::BigInt;

/// Punctuators.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum P {
    LParen,
    RParen,
    LBracket,
    RBracket,
    LBrace,
    RBrace,
    Semi,
    Comma,
    Colon,
    Question,
    Dot,
    Arrow,
    Ellipsis,
    Assign,
    AddAssign,
    SubAssign,
    MulAssign,
    DivAssign,
    ModAssign,
    AndAssign,
    OrAssign,
    XorAssign,
    ShlAssign,
    ShrAssign,
    EqEq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
    Shl,
    Shr,
    Plus,
    Minus,
    Star,
    Slash,
    Percent,
    Inc,
    Dec,
    AndAnd,
    OrOr,
    Amp,
    Pipe,
    Caret,
    Bang,
    Tilde,
}

/// Punctuator spellings, longest first so that the first match is the longest.
const PUNCTS: &[(&str, P)] = &[
    ("...", P::Ellipsis),
    ("<<=", P::ShlAssign),
    (">>=", P::ShrAssign),
    ("->", P::Arrow),
    ("++", P::Inc),
    ("--", P::Dec),
    ("&&", P::AndAnd),
    ("||", P::OrOr),
    ("==", P::EqEq),
    ("!=", P::Ne),
    ("<=", P::Le),
    (">=", P::Ge),
    ("<<", P::Shl),
    (">>", P::Shr),
    ("+=", P::AddAssign),
    ("-=", P::SubAssign),
    ("*=", P::MulAssign),
    ("/=", P::DivAssign),
    ("%=", P::ModAssign),
    ("&=", P::AndAssign),
    ("|=", P::OrAssign),
    ("^=", P::XorAssign),
    ("(", P::LParen),
    (")", P::RParen),
    ("[", P::LBracket),
    ("]", P::RBracket),
    ("{", P::LBrace),
    ("}", P::RBrace),
    (";", P::Semi),
    (",", P::Comma),
    (":", P::Colon),
    ("?", P::Question),
    (".", P::Dot),
    ("=", P::Assign),
    ("<", P::Lt),
    (">", P::Gt),
    ("+", P::Plus),
    ("-", P::Minus),
    ("*", P::Star),
    ("/", P::Slash),
    ("%", P::Percent),
    ("&", P::Amp),
    ("|", P::Pipe),
    ("^", P::Caret),
    ("!", P::Bang),
    ("~", P::Tilde),
];

macro_rules! keywords {
    ($($name:ident = $text:literal),* $(,)?) => {
        /// Reserved words: never identifiers.
        #[derive(Clone, Copy, Debug, PartialEq, Eq)]
        pub(crate) enum Kw { $($name),* }
        const KEYWORDS: &[(&str, Kw)] = &[$(($text, Kw::$name)),*];
    };
}

keywords! {
    Auto = "auto", Break = "break", Case = "case", Char = "char", Const = "const",
    Continue = "continue", Default = "default", Do = "do", Double = "double", Else = "else",
    Enum = "enum", Extern = "extern", Float = "float", For = "for", Goto = "goto", If = "if",
    Inline = "inline", Int = "int", Long = "long", Register = "register",
    Restrict = "restrict", Return = "return", Short = "short", Signed = "signed",
    Sizeof = "sizeof", Static = "static", Struct = "struct", Switch = "switch",
    Typedef = "typedef", Union = "union", Unsigned = "unsigned", Void = "void",
    Volatile = "volatile", While = "while", Bool = "_Bool", Complex = "_Complex",
    Noreturn = "_Noreturn", Alignas = "_Alignas", Alignof = "_Alignof", Atomic = "_Atomic",
    Generic = "_Generic", StaticAssert = "_Static_assert", ThreadLocal = "_Thread_local",
    Attribute = "__attribute__", Attribute2 = "__attribute", Extension = "__extension__",
    Restrict2 = "__restrict", Restrict3 = "__restrict__", Inline2 = "__inline",
    Inline3 = "__inline__", Const2 = "__const", Volatile2 = "__volatile__",
    Signed2 = "__signed__", Asm = "asm", Asm2 = "__asm__", Asm3 = "__asm", Typeof = "typeof",
    Typeof2 = "__typeof__", Typeof3 = "__typeof",
}

impl Kw {
    /// The keyword as written.
    pub(crate) fn text(self) -> &'static str {
        KEYWORDS
            .iter()
            .find(|(_, k)| *k == self)
            .map(|(s, _)| *s)
            .unwrap_or("?")
    }
    fn lookup(s: &str) -> Option<Kw> {
        KEYWORDS.iter().find(|(t, _)| *t == s).map(|(_, k)| *k)
    }
}

/// A token kind with its payload.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Tok {
    /// An identifier (never a keyword).
    Ident(String),
    /// A keyword.
    Kw(Kw),
    /// An integer constant with its suffix and base.
    Int(BigInt, IntLit),
    /// A character constant: its code.
    Char(BigInt),
    /// A floating constant as written.
    Float(String),
    /// A string literal: the text between the quotes, escapes as written.
    Str(String),
    /// A punctuator.
    P(P),
    /// End of input.
    Eof,
}

/// A token and its span.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Token {
    /// What it is.
    pub(crate) tok: Tok,
    /// Where it is.
    pub(crate) span: Span,
}

type LResult<'a, T> = IResult<&'a str, T, nom::error::Error<&'a str>>;

fn syntax(span: Span, message: impl Into<String>, label: impl Into<String>) -> Diagnostic {
    Diagnostic::new(DiagKind::Syntax, span, message).with_label(label)
}

/// Split `src` into tokens, ending with one [`Tok::Eof`].
pub(crate) fn lex(src: &str) -> Result<Vec<Token>, Diagnostic> {
    let mut toks = Vec::with_capacity(src.len() / 3 + 1);
    let mut rest = src;
    loop {
        rest = skip_trivia(src, rest)?;
        let start = src.len() - rest.len();
        if rest.is_empty() {
            toks.push(Token {
                tok: Tok::Eof,
                span: Span::new(start, start),
            });
            return Ok(toks);
        }
        let (r, tok) = token(src, rest)?;
        let end = src.len() - r.len();
        toks.push(Token {
            tok,
            span: Span::new(start, end),
        });
        rest = r;
    }
}

/// Whether byte offset `at` is preceded on its line by whitespace only.
fn at_line_start(src: &str, at: usize) -> bool {
    src[..at]
        .bytes()
        .rev()
        .take_while(|&b| b != b'\n')
        .all(|b| b == b' ' || b == b'\t' || b == b'\r')
}

fn line_comment(i: &str) -> LResult<'_, &str> {
    recognize(pair(tag("//"), take_while(|c| c != '\n'))).parse(i)
}

/// Skip whitespace, comments and preprocessor lines.
fn skip_trivia<'a>(src: &'a str, mut rest: &'a str) -> Result<&'a str, Diagnostic> {
    loop {
        if let Ok((r, _)) = alt((multispace1, line_comment)).parse(rest) {
            rest = r;
            continue;
        }
        if let Some(body) = rest.strip_prefix("/*") {
            let start = src.len() - rest.len();
            let found: LResult<'_, &str> = take_until("*/").parse(body);
            match found {
                Ok((r, _)) => rest = &r[2..],
                Err(_) => {
                    return Err(syntax(
                        Span::new(start, start + 2),
                        "unterminated block comment",
                        "comment starts here",
                    )
                    .with_help("close the comment with `*/`"))
                }
            }
            continue;
        }
        let at = src.len() - rest.len();
        if rest.starts_with('#') && at_line_start(src, at) {
            rest = skip_directive(rest);
            continue;
        }
        return Ok(rest);
    }
}

/// Skip a preprocessor line, honouring backslash-newline continuations.
fn skip_directive(rest: &str) -> &str {
    let bytes = rest.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'\n' {
            let mut j = i;
            while j > 0 && bytes[j - 1] == b'\r' {
                j -= 1;
            }
            if j == 0 || bytes[j - 1] != b'\\' {
                return &rest[i..];
            }
        }
        i += 1;
    }
    ""
}

fn ident_text(i: &str) -> LResult<'_, &str> {
    recognize(pair(
        satisfy(|c| c.is_ascii_alphabetic() || c == '_'),
        take_while(|c: char| c.is_ascii_alphanumeric() || c == '_'),
    ))
    .parse(i)
}

/// A preprocessing number: digits, letters, `.`, `_`, and signs after an exponent letter.
fn pp_number(i: &str) -> LResult<'_, &str> {
    satisfy(|c| c.is_ascii_digit() || c == '.').parse(i)?;
    let bytes = i.as_bytes();
    let mut n = 1;
    while n < bytes.len() {
        let b = bytes[n];
        let sign = (b == b'+' || b == b'-') && matches!(bytes[n - 1], b'e' | b'E' | b'p' | b'P');
        if b.is_ascii_alphanumeric() || b == b'.' || b == b'_' || sign {
            n += 1;
        } else {
            break;
        }
    }
    Ok((&i[n..], &i[..n]))
}

fn token<'a>(src: &'a str, rest: &'a str) -> Result<(&'a str, Tok), Diagnostic> {
    let start = src.len() - rest.len();
    if let Ok((r, word)) = ident_text(rest) {
        if matches!(word, "L" | "u" | "U" | "u8") && (r.starts_with('\'') || r.starts_with('"')) {
            return quoted(src, r);
        }
        return Ok((
            r,
            Kw::lookup(word).map_or_else(|| Tok::Ident(word.to_string()), Tok::Kw),
        ));
    }
    let starts_number = rest.as_bytes().first().is_some_and(u8::is_ascii_digit)
        || (rest.starts_with('.') && rest.as_bytes().get(1).is_some_and(u8::is_ascii_digit));
    if starts_number {
        if let Ok((r, text)) = pp_number(rest) {
            return number(text, Span::new(start, start + text.len())).map(|t| (r, t));
        }
    }
    if rest.starts_with('\'') || rest.starts_with('"') {
        return quoted(src, rest);
    }
    if let Some((text, p)) = PUNCTS.iter().find(|(t, _)| rest.starts_with(t)) {
        return Ok((&rest[text.len()..], Tok::P(*p)));
    }
    let c = rest.chars().next().unwrap_or('\u{0}');
    let span = Span::new(start, start + c.len_utf8());
    let shown = c.escape_debug().to_string();
    let mut d = syntax(
        span,
        format!("unexpected character `{shown}`"),
        "not valid in a program",
    );
    if c == '\u{FFFD}' {
        d = d.with_help("the file is not valid UTF-8 here");
    } else if c == '#' {
        d = d.with_help("preprocessor directives must start a line");
    }
    Err(d)
}

/// Classify and evaluate a preprocessing number.
fn number(text: &str, span: Span) -> Result<Tok, Diagnostic> {
    let lower = text.to_ascii_lowercase();
    let (radix, body) = if lower.starts_with("0x") {
        (16, &text[2..])
    } else if lower.starts_with("0b") {
        (2, &text[2..])
    } else if text.len() > 1 && text.starts_with('0') && !text.contains(['.', 'e', 'E']) {
        (8, &text[1..])
    } else {
        (10, text)
    };
    let is_float = text.contains('.')
        || (radix == 10 && lower.contains('e') && !lower.starts_with("0x"))
        || (radix == 16 && lower.contains('p'));
    if is_float {
        return if valid_float(text) {
            Ok(Tok::Float(text.to_string()))
        } else {
            Err(syntax(
                span,
                format!("invalid floating-point literal `{text}`"),
                "not a number",
            ))
        };
    }
    let digits_len = body
        .bytes()
        .take_while(|b| b.is_ascii_hexdigit() && (radix == 16 || b.is_ascii_digit()))
        .count();
    let (digits, suffix) = body.split_at(digits_len);
    let lower_suffix = suffix.to_ascii_lowercase();
    let suffix_ok = matches!(
        lower_suffix.as_str(),
        "" | "u" | "l" | "ul" | "lu" | "ll" | "ull" | "llu"
    ) && !suffix.contains("lL")
        && !suffix.contains("Ll");
    let lit = IntLit {
        unsigned: lower_suffix.contains('u'),
        longs: lower_suffix.matches('l').count() as u8,
        non_decimal: radix != 10,
    };
    if !suffix_ok {
        return Err(syntax(
            span,
            format!("invalid suffix `{suffix}` on integer literal `{text}`"),
            "invalid suffix",
        )
        .with_help("integer suffixes are `u`, `l`, `ll` and their combinations"));
    }
    if digits.is_empty() && radix != 8 {
        return Err(syntax(
            span,
            format!("integer literal `{text}` has no digits"),
            "no digits",
        ));
    }
    if let Some(bad) = digits.chars().find(|c| c.to_digit(radix).is_none()) {
        let kind = if radix == 8 { "octal" } else { "binary" };
        return Err(syntax(
            span,
            format!("invalid digit `{bad}` in {kind} literal `{text}`"),
            "invalid digit",
        ));
    }
    if digits.is_empty() {
        return Ok(Tok::Int(BigInt::from(0), lit));
    }
    BigInt::parse_bytes(digits.as_bytes(), radix)
        .map(|v| Tok::Int(v, lit))
        .ok_or_else(|| {
            syntax(
                span,
                format!("invalid integer literal `{text}`"),
                "not a number",
            )
        })
}

/// `digits? . digits? ([eE][+-]?digits)? [fFlL]?`, or digits with an exponent, or a hex float.
fn valid_float(text: &str) -> bool {
    let lower = text.to_ascii_lowercase();
    let s = lower.strip_suffix(['f', 'l']).unwrap_or(&lower);
    let (hex, s, exp_char) = match s.strip_prefix("0x") {
        Some(rest) => (true, rest, 'p'),
        None => (false, s, 'e'),
    };
    let (mant, exp) = match s.split_once(exp_char) {
        Some((m, e)) => (m, Some(e)),
        None => (s, None),
    };
    let is_digit = |c: char| {
        if hex {
            c.is_ascii_hexdigit()
        } else {
            c.is_ascii_digit()
        }
    };
    let (int, frac) = mant.split_once('.').unwrap_or((mant, ""));
    let mant_ok = (!int.is_empty() || !frac.is_empty())
        && int.chars().all(is_digit)
        && frac.chars().all(is_digit);
    let exp_ok = match exp {
        Some(e) => {
            let e = e.strip_prefix(['+', '-']).unwrap_or(e);
            !e.is_empty() && e.chars().all(|c| c.is_ascii_digit())
        }
        None => !hex,
    };
    mant_ok && exp_ok
}

/// A character constant or string literal starting at `rest` (at its quote).
fn quoted<'a>(src: &'a str, rest: &'a str) -> Result<(&'a str, Tok), Diagnostic> {
    let start = src.len() - rest.len();
    let quote = if rest.starts_with('\'') { '\'' } else { '"' };
    let body = &rest[1..];
    let content: LResult<'_, &str> = recognize(nom::multi::many0_count(alt((
        recognize(pair(tag("\\"), satisfy(|c| c != '\n'))),
        take_while1(|c| c != quote && c != '\\' && c != '\n'),
    ))))
    .parse(body);
    let (after, text) = content.unwrap_or_default();
    let Some(after) = after.strip_prefix(quote) else {
        let what = if quote == '"' {
            "string literal"
        } else {
            "character literal"
        };
        return Err(syntax(
            Span::new(start, start + 1),
            format!("unterminated {what}"),
            "starts here",
        )
        .with_help(format!("close it with `{quote}` on the same line")));
    };
    let span = Span::new(start, src.len() - after.len());
    if quote == '"' {
        return Ok((after, Tok::Str(text.to_string())));
    }
    let mut chars = text.chars().peekable();
    let Some(first) = chars.next() else {
        return Err(syntax(span, "empty character literal", "no character"));
    };
    let code = if first == '\\' {
        escape(&mut chars, span)?
    } else {
        BigInt::from(first as u32)
    };
    if chars.next().is_some() {
        return Err(syntax(
            span,
            "character literal may only contain one character",
            "several characters",
        )
        .with_help("use a string literal (`\"...\"`) for several characters"));
    }
    Ok((after, Tok::Char(code)))
}

/// The value of an escape sequence, after its backslash.
fn escape(
    chars: &mut std::iter::Peekable<std::str::Chars<'_>>,
    span: Span,
) -> Result<BigInt, Diagnostic> {
    let Some(c) = chars.next() else {
        return Err(syntax(
            span,
            "incomplete escape sequence",
            "ends after `\\`",
        ));
    };
    let simple = match c {
        'n' => Some(10),
        't' => Some(9),
        'r' => Some(13),
        'a' => Some(7),
        'b' => Some(8),
        'f' => Some(12),
        'v' => Some(11),
        'e' => Some(27),
        '\\' | '\'' | '"' | '?' => Some(c as u32),
        _ => None,
    };
    if let Some(v) = simple {
        return Ok(BigInt::from(v));
    }
    if c.is_digit(8) {
        let mut v = c.to_digit(8).unwrap_or(0);
        for _ in 0..2 {
            match chars.peek().and_then(|d| d.to_digit(8)) {
                Some(d) => {
                    v = v * 8 + d;
                    chars.next();
                }
                None => break,
            }
        }
        return Ok(BigInt::from(v));
    }
    if c == 'x' {
        let mut digits = String::new();
        while let Some(d) = chars.peek().filter(|d| d.is_ascii_hexdigit()) {
            digits.push(*d);
            chars.next();
        }
        return BigInt::parse_bytes(digits.as_bytes(), 16)
            .ok_or_else(|| syntax(span, "`\\x` escape without hex digits", "bad escape"));
    }
    Err(syntax(
        span,
        format!("unknown escape sequence `\\{}`", c.escape_debug()),
        "unknown escape",
    ))
}
