//! Parser and pretty-printer tests: every shared benchmark parses and round-trips through
//! the pretty-printer; targeted tests of precedence, statements and diagnostics.

use crate::diag::{DiagKind, SourceFile};
use crate::syntax::ast::{
    AssignOp, BinOp, Expr, ExprKind, Init, IntKind, IntTy, Item, Program, Stmt, StmtKind, Ty, UnOp,
};
use crate::syntax::{erase_spans, parse, pretty, pretty_expr, pretty_stmt};
use std::path::PathBuf;

mod parser_fuzz;

/// The shared benchmark files, empty (after printing the skip line) on a fresh clone.
fn benchmark_files(test: &str) -> Vec<PathBuf> {
    match crate::testutil::bench_dir() {
        Some(d) => crate::testutil::sources(&d),
        None => {
            crate::testutil::skip(test);
            Vec::new()
        }
    }
}

/// Our programs, except the deliberately bad ones in `errors/`.
fn lp_program_files() -> Vec<PathBuf> {
    crate::testutil::sources(&crate::testutil::lp_dir())
        .into_iter()
        .filter(|p| !p.components().any(|c| c.as_os_str() == "errors"))
        .collect()
}

/// The value of a `// key: value` header line of an lp-program.
fn header<'t>(text: &'t str, key: &str) -> Option<&'t str> {
    text.lines()
        .take_while(|l| l.starts_with("//"))
        .find_map(|l| {
            l.strip_prefix("//")?
                .trim()
                .strip_prefix(key)?
                .strip_prefix(':')
        })
        .map(str::trim)
}

/// lp-programs with `// error-kind: syntax` fail to parse exactly at their `error-at`;
/// the other programs (including semantic errors) parse.
#[test]
fn lp_program_headers() {
    for path in lp_program_files() {
        let f = SourceFile::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        match (header(f.text(), "error-kind"), parse(&f)) {
            (Some("syntax"), Ok(_)) => panic!("{} parsed but expects a syntax error", f.name()),
            (Some("syntax"), Err(d)) => {
                let at = f.line_col(d.span.start).to_string();
                assert_eq!(
                    Some(at.as_str()),
                    header(f.text(), "error-at"),
                    "{}",
                    d.render(&f, false)
                );
                assert_eq!(d.kind, DiagKind::Syntax);
            }
            (_, Err(d)) => panic!("{}", d.render(&f, false)),
            (_, Ok(_)) => {}
        }
    }
}

fn parse_str(text: &str) -> Program {
    let f = SourceFile::new("t.c", text);
    match parse(&f) {
        Ok(p) => p,
        Err(d) => panic!("{}", d.render(&f, false)),
    }
}

#[test]
fn every_benchmark_parses() {
    let files = benchmark_files("every_benchmark_parses");
    if files.is_empty() {
        return;
    }
    assert!(
        files.len() >= 40,
        "expected the shared benchmarks, found {} files",
        files.len()
    );
    for path in files {
        let f = SourceFile::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        if let Err(d) = parse(&f) {
            panic!("{}", d.render(&f, false));
        }
    }
}

/// `parse -> erase_spans` equals `parse(pretty(..)) -> erase_spans`.
fn assert_round_trip(name: &str, text: &str) {
    let f = SourceFile::new(name, text);
    let mut p = parse(&f).unwrap_or_else(|d| panic!("{}", d.render(&f, false)));
    let printed = pretty(&p);
    let g = SourceFile::new(format!("{name} (pretty)"), printed.clone());
    let mut q =
        parse(&g).unwrap_or_else(|d| panic!("{}\n--- printed:\n{printed}", d.render(&g, false)));
    erase_spans(&mut p);
    erase_spans(&mut q);
    assert_eq!(p, q, "round trip changed {name}; printed:\n{printed}");
    // Printing is a fixpoint after one round.
    assert_eq!(pretty(&q), printed, "pretty is not stable on {name}");
}

#[test]
fn benchmarks_round_trip() {
    let mut files = benchmark_files("benchmarks_round_trip (shared part)");
    files.extend(lp_program_files());
    for path in files {
        let f = SourceFile::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        if header(f.text(), "error-kind") == Some("syntax") {
            continue;
        }
        assert_round_trip(f.name(), f.text());
    }
}

/// The body statements of the only function in `text` (wrapped in `void t() { ... }`).
fn body(stmts: &str) -> Vec<Stmt> {
    let p = parse_str(&format!("void t() {{\n{stmts}\n}}"));
    let Some(Item::Func(f)) = p.items.into_iter().next() else {
        panic!("no function")
    };
    let StmtKind::Block(ss) = f.body.kind else {
        panic!("body is not a block")
    };
    ss
}

fn one_stmt(text: &str) -> Stmt {
    let mut ss = body(text);
    assert_eq!(ss.len(), 1, "expected one statement in {text:?}: {ss:?}");
    ss.remove(0)
}

fn expr_of(text: &str) -> Expr {
    match one_stmt(&format!("return {text};")).kind {
        StmtKind::Return(Some(e)) => e,
        k => panic!("not a return: {k:?}"),
    }
}

fn int(e: &Expr) -> i64 {
    match &e.kind {
        ExprKind::Int(v, _) => i64::try_from(v).unwrap_or_else(|_| panic!("too big: {v}")),
        k => panic!("not an integer: {k:?}"),
    }
}

#[test]
fn precedence_and_associativity() {
    // 1 + 2 * 3 - 4 is (1 + (2 * 3)) - 4.
    let e = expr_of("1 + 2 * 3 - 4");
    let ExprKind::Binary {
        op: BinOp::Sub,
        l,
        r,
    } = &e.kind
    else {
        panic!("{e:?}")
    };
    assert_eq!(int(r), 4);
    let ExprKind::Binary {
        op: BinOp::Add,
        l: one,
        r: mul,
    } = &l.kind
    else {
        panic!("{l:?}")
    };
    assert_eq!(int(one), 1);
    assert!(
        matches!(&mul.kind, ExprKind::Binary { op: BinOp::Mul, .. }),
        "{mul:?}"
    );
    assert_eq!(pretty_expr(&e), "1 + 2 * 3 - 4");
    // Relational binds tighter than &&, && tighter than ||.
    assert_eq!(pretty_expr(&expr_of("a || b && c < d")), "a || b && c < d");
    let e = expr_of("a || b && c");
    assert!(
        matches!(e.kind, ExprKind::Binary { op: BinOp::Or, .. }),
        "{e:?}"
    );
    // Subtraction is left associative; parentheses are kept where needed.
    assert_eq!(pretty_expr(&expr_of("a - (b - c)")), "a - (b - c)");
    assert_eq!(pretty_expr(&expr_of("(a - b) - c")), "a - b - c");
    // ?: is right associative and below ||.
    let e = expr_of("a ? b : c ? d : e");
    let ExprKind::Cond { e: inner, .. } = &e.kind else {
        panic!("{e:?}")
    };
    assert!(matches!(inner.kind, ExprKind::Cond { .. }));
    assert_eq!(pretty_expr(&expr_of("(a ? b : c) + 1")), "(a ? b : c) + 1");
    // Unary minus and double negation.
    let e = expr_of("- -x");
    assert!(
        matches!(&e.kind, ExprKind::Unary { op: UnOp::Neg, e } if matches!(e.kind, ExprKind::Unary { op: UnOp::Neg, .. }))
    );
    assert_eq!(pretty_expr(&e), "-(-x)");
    // Assignment inside an expression is right associative.
    let s = one_stmt("a[i] = a[j] = 0;");
    let StmtKind::Assign { lhs, rhs } = &s.kind else {
        panic!("{s:?}")
    };
    assert_eq!(lhs.len(), 1);
    assert!(
        matches!(
            rhs[0].kind,
            ExprKind::Assign {
                op: AssignOp::Set,
                ..
            }
        ),
        "{rhs:?}"
    );
}

#[test]
fn parallel_and_compound_assignment() {
    let s = one_stmt("x, a[i] = y + 1, x;");
    let StmtKind::Assign { lhs, rhs } = &s.kind else {
        panic!("{s:?}")
    };
    assert_eq!((lhs.len(), rhs.len()), (2, 2));
    assert!(matches!(lhs[1].kind, ExprKind::Index { .. }));
    assert_eq!(pretty_stmt(&s), "x, a[i] = y + 1, x;");
    let s = one_stmt("x += 2 * y;");
    assert!(
        matches!(
            s.kind,
            StmtKind::CompoundAssign {
                op: AssignOp::Add,
                ..
            }
        ),
        "{s:?}"
    );
    for (text, inc, prefix) in [
        ("x++;", true, false),
        ("++x;", true, true),
        ("x--;", false, false),
        ("--x;", false, true),
    ] {
        let s = one_stmt(text);
        assert!(
            matches!(s.kind, StmtKind::IncDec { inc: i, prefix: p, .. } if i == inc && p == prefix),
            "{text}: {s:?}"
        );
        assert_eq!(pretty_stmt(&s), text);
    }
    // A C comma sequence is a block of simple statements.
    let s = one_stmt("f(x), y = 1;");
    let StmtKind::Block(ss) = &s.kind else {
        panic!("{s:?}")
    };
    assert!(
        matches!(ss[0].kind, StmtKind::Expr(_)) && matches!(ss[1].kind, StmtKind::Assign { .. })
    );
}

#[test]
fn casts_and_parentheses() {
    let e = expr_of("(int)x + (y)");
    let ExprKind::Binary { l, r, .. } = &e.kind else {
        panic!("{e:?}")
    };
    assert!(
        matches!(
            &l.kind,
            ExprKind::Cast {
                ty: Ty::Int {
                    int: IntTy {
                        signed: true,
                        kind: IntKind::Int
                    },
                    ..
                },
                pointer: 0,
                ..
            }
        ),
        "{l:?}"
    );
    assert!(matches!(r.kind, ExprKind::Var(_)), "{r:?}");
    let e = expr_of("(unsigned int)-1");
    let ExprKind::Cast {
        ty: Ty::Int { int, spelling },
        e: inner,
        ..
    } = &e.kind
    else {
        panic!("{e:?}")
    };
    assert_eq!(*int, IntTy::new(IntKind::Int, true));
    assert_eq!(spelling, "unsigned int");
    assert!(matches!(inner.kind, ExprKind::Unary { op: UnOp::Neg, .. }));
    // A typedef name casts; an ordinary name in parentheses does not.
    let p = parse_str("typedef int T;\nint f(int a) { return (T)a + (a) * 2; }");
    assert!(
        matches!(&p.items[0], Item::Typedef(t) if t.names[0].0.name == "T" && t.names[0].1.int() == Some(IntTy::INT))
    );
    let e = expr_of("(float)x");
    assert!(
        matches!(&e.kind, ExprKind::Cast { ty: Ty::Unsupported { spelling }, .. } if spelling == "float")
    );
}

#[test]
fn literals() {
    assert_eq!(int(&expr_of("0x1F")), 31);
    assert_eq!(int(&expr_of("017")), 15);
    assert_eq!(int(&expr_of("0")), 0);
    assert_eq!(int(&expr_of("10UL")), 10);
    assert_eq!(int(&expr_of("0xffffffffu")), 0xffff_ffff);
    assert_eq!(int(&expr_of("'a'")), 97);
    assert_eq!(int(&expr_of("'\\n'")), 10);
    assert_eq!(int(&expr_of("'\\0'")), 0);
    assert_eq!(int(&expr_of("'\\x41'")), 65);
    let big = expr_of("123456789012345678901234567890");
    assert_eq!(pretty_expr(&big), "123456789012345678901234567890");
    assert!(matches!(expr_of("1.5e3f").kind, ExprKind::Float(ref s) if s == "1.5e3f"));
    assert!(matches!(expr_of("\"a\\\"b\" \"c\"").kind, ExprKind::Str(ref s) if s == "a\\\"bc"));
    assert!(matches!(
        expr_of("sizeof(int)").kind,
        ExprKind::SizeofType {
            ty: Ty::Int {
                int: IntTy::INT,
                ..
            },
            pointer: 0,
            ..
        }
    ));
    assert!(matches!(expr_of("sizeof x").kind, ExprKind::SizeofExpr(_)));
    // `u` and names that start with keywords are identifiers.
    for name in ["u", "int_x", "iffy", "u1", "skipper", "returnValue"] {
        assert!(
            matches!(expr_of(name).kind, ExprKind::Var(ref id) if id.name == name),
            "{name}"
        );
    }
}

#[test]
fn statements() {
    assert!(matches!(one_stmt("skip;").kind, StmtKind::Skip));
    assert!(matches!(one_stmt(";").kind, StmtKind::Empty));
    let s = one_stmt("ERROR: {reach_error();abort();}");
    let StmtKind::Labeled { label, stmt } = &s.kind else {
        panic!("{s:?}")
    };
    assert_eq!(label.name, "ERROR");
    assert!(matches!(&stmt.kind, StmtKind::Block(b) if b.len() == 2));
    assert!(
        matches!(one_stmt("ERROR: ;").kind, StmtKind::Labeled { ref stmt, .. } if stmt.kind == StmtKind::Empty)
    );
    assert!(matches!(one_stmt("goto L;").kind, StmtKind::Goto(ref l) if l.name == "L"));
    let s = one_stmt("for (int i = 0, j = 1; i < n; i++) x = x + i;");
    let StmtKind::For {
        init: Some(init),
        cond: Some(_),
        step: Some(step),
        ..
    } = &s.kind
    else {
        panic!("{s:?}")
    };
    assert!(matches!(&init.kind, StmtKind::Decl(d) if d.vars.len() == 2));
    assert!(matches!(step.kind, StmtKind::IncDec { .. }));
    let s = one_stmt("for (i = 0, j = 1; ; i++, j--) ;");
    let StmtKind::For {
        init: Some(init),
        cond: None,
        step: Some(step),
        ..
    } = &s.kind
    else {
        panic!("{s:?}")
    };
    assert!(matches!(&init.kind, StmtKind::Block(b) if b.len() == 2));
    assert!(matches!(&step.kind, StmtKind::Block(b) if b.len() == 2));
    assert_eq!(pretty_stmt(&s), "for (i = 0, j = 1;; i++, j--)\n    ;");
    // Dangling else binds to the nearest if.
    let s = one_stmt("if (a) if (b) x = 1; else x = 2;");
    let StmtKind::If {
        then, els: None, ..
    } = &s.kind
    else {
        panic!("{s:?}")
    };
    assert!(matches!(then.kind, StmtKind::If { els: Some(_), .. }));
    let s = one_stmt("do { x--; } while (x > 0);");
    assert!(matches!(s.kind, StmtKind::DoWhile { .. }));
    let ss = body("int a[3] = {1, 2, 3}, b[] = {4,}; unsigned long int c; return;");
    let StmtKind::Decl(d) = &ss[0].kind else {
        panic!("{ss:?}")
    };
    assert!(matches!(&d.vars[0].init, Some(Init::List(es, _)) if es.len() == 3));
    assert!(d.vars[1].dims == vec![None]);
    let StmtKind::Decl(d) = &ss[1].kind else {
        panic!("{ss:?}")
    };
    assert!(
        matches!(&d.ty, Ty::Int { int, spelling } if spelling == "unsigned long int" && *int == IntTy::new(IntKind::Long, true))
    );
}

#[test]
fn top_level_items() {
    let p = parse_str(
        "#include <stdio.h>\n#define N 10 \\\n  + 1\nextern int f(int, const char *, ...);\nstatic int g(void) __attribute__((noreturn));\n\
         struct s { int a; };\ntypedef unsigned int uint;\nuint x = 3, *p;\nint main() { return f(1, \"x\"); }\n",
    );
    assert!(
        matches!(&p.items[0], Item::Proto(fp) if fp.variadic && fp.params.len() == 2 && fp.params[1].pointer == 1)
    );
    assert!(
        matches!(&p.items[1], Item::Proto(fp) if fp.void_params && fp.attributes == vec!["__attribute__((noreturn))".to_string()])
    );
    assert!(matches!(&p.items[2], Item::Other { what, .. } if what == "struct declaration"));
    assert!(matches!(&p.items[3], Item::Typedef(_)));
    assert!(
        matches!(&p.items[4], Item::Decl(d) if matches!(&d.ty, Ty::Int { spelling, int } if spelling == "uint" && !int.signed) && d.vars[1].pointer == 1)
    );
    assert!(matches!(&p.items[5], Item::Func(f) if f.proto.name.name == "main"));
    assert_round_trip("items.c", &pretty(&p));
}

/// Parse `text` expecting an error; returns (line, col, message).
fn error_at(text: &str) -> (u32, u32, String) {
    let f = SourceFile::new("bad.c", text);
    let d = match parse(&f) {
        Ok(p) => panic!("{text:?} parsed: {p:?}"),
        Err(d) => d,
    };
    assert_eq!(d.kind, DiagKind::Syntax);
    let render = d.render(&f, false);
    assert!(render.contains("bad.c:"), "{render}");
    let lc = f.line_col(d.span.start);
    (lc.line, lc.col, d.message)
}

#[test]
fn diagnostics() {
    // A missing `;` is reported right after the expression.
    let (l, c, m) = error_at("int main() {\n  x = 1\n  y = 2;\n}\n");
    assert_eq!((l, c), (2, 8), "{m}");
    assert_eq!(m, "expected `;` after expression, found identifier `y`");
    let (l, c, m) = error_at("int main() {\n  f(1, );\n}");
    assert_eq!((l, c), (2, 8));
    assert_eq!(m, "expected expression, found `)`");
    let (l, c, m) = error_at("int main() {\n  if (x > 1 {\n}");
    assert_eq!((l, c), (2, 13));
    assert!(m.starts_with("expected `)` after condition"), "{m}");
    // A `for` declaration declares variables only (C11 6.8.5); a typedef there is
    // reported at the declaration, whatever its form.
    for init in ["typedef int i = 0;", "typedef unsigned t;", "int f(int);"] {
        let text = format!("int main() {{\n  for ({init} i < 3; i++) ;\n}}");
        let (l, c, m) = error_at(&text);
        assert_eq!((l, c), (2, 8), "{init}: {m}");
        assert_eq!(m, "a `for` loop's declaration may only declare variables");
    }
    let (l, c, m) = error_at("int main() {\n  x, y = 1;\n}");
    assert_eq!((l, c), (2, 3));
    assert_eq!(m, "parallel assignment has 2 targets but 1 value");
    let (l, c, m) = error_at("int main() {\n  return 0;\n");
    assert_eq!((l, c), (3, 1));
    assert!(
        m.contains("expected `}`") && m.contains("end of file"),
        "{m}"
    );
    let (l, c, m) = error_at("int x = 09;");
    assert_eq!((l, c), (1, 9));
    assert!(m.contains("octal"), "{m}");
    let (l, c, m) = error_at("int x;\n /* open");
    assert_eq!((l, c), (2, 2));
    assert!(m.contains("unterminated"), "{m}");
    let (_, _, m) = error_at("int int = 3;");
    assert_eq!(m, "expected identifier in declaration, found keyword `int`");
    let (l, c, m) = error_at("int main() { x = 1 @ 2; }");
    assert_eq!((l, c), (1, 20));
    assert!(m.contains("unexpected character `@`"), "{m}");
    let (l, c, _) = error_at("int main() { while (1) }");
    assert_eq!((l, c), (1, 24));
    let (_, _, m) = error_at("int main() { x = \u{FFFD}; }");
    assert!(m.contains("unexpected character"), "{m}");
    let (_, _, m) = error_at("main() { }");
    assert!(m.starts_with("expected a type"), "{m}");
}

#[test]
fn diagnostics_for_constructs_outside_the_grammar() {
    let cases = [
        (
            "int main() { x = 'ab'; }",
            (1, 18),
            "character literal may only contain one character",
        ),
        (
            "int main() { x = 12abc; }",
            (1, 18),
            "invalid suffix `abc` on integer literal `12abc`",
        ),
        (
            "int main() { case: ; }",
            (1, 18),
            "expected expression, found `:`",
        ),
        (
            "int main() { goto; }",
            (1, 18),
            "expected a label after `goto`, found `;`",
        ),
        (
            "int main() { do x++; (x); }",
            (1, 22),
            "expected `while` after the body of `do`, found `(`",
        ),
        (
            "int main() { int x = 1 }",
            (1, 23),
            "expected `;` after declaration, found `}`",
        ),
        (
            "extern int f(int x",
            (1, 19),
            "expected `,` or `)` in parameter list, found end of file",
        ),
    ];
    for (text, at, message) in cases {
        let (l, c, m) = error_at(text);
        assert_eq!(m, message, "for {text:?}");
        assert_eq!((l, c), at, "for {text:?}: {m}");
    }
    // The rendered diagnostic carries a label and, where useful, a help line.
    let f = SourceFile::new("bad.c", "int main() {\n  x = 1\n}\n");
    let d = parse(&f).err().unwrap_or_else(|| panic!("parsed"));
    let r = d.render(&f, false);
    assert!(
        r.contains("bad.c:2:8") && r.contains("expected `;` here"),
        "{r}"
    );
    let f = SourceFile::new("bad.c", "int main() { x, y = 1; }");
    let r = parse(&f)
        .err()
        .map(|d| d.render(&f, false))
        .unwrap_or_default();
    assert!(r.contains("help: a parallel assignment"), "{r}");
}

/// The glibc `assert` expansion that preprocessed SV-COMP files use as `reach_error`.
const GLIBC_REACH_ERROR: &str = "extern void __assert_fail (const char *__assertion, const char *__file,\n      unsigned int __line, const char *__function)\n     __attribute__ ((__nothrow__ , __leaf__)) __attribute__ ((__noreturn__));\n\
void reach_error() { ((void) sizeof ((0) ? 1 : 0), __extension__ ({ if (0) ; else __assert_fail (\"0\", \"f.c\", 3, __extension__ __PRETTY_FUNCTION__); })); }\n\
int main() { reach_error(); return 0; }\n";

#[test]
fn glibc_reach_error_parses_and_round_trips() {
    let p = parse_str(GLIBC_REACH_ERROR);
    let Item::Func(f) = &p.items[1] else {
        panic!("{:?}", p.items[1])
    };
    let StmtKind::Block(ss) = &f.body.kind else {
        panic!("{:?}", f.body)
    };
    // One expression statement: a comma whose left is a `(void) sizeof` and whose right is
    // a statement expression.
    let StmtKind::Expr(e) = &ss[0].kind else {
        panic!("{:?}", ss[0])
    };
    let ExprKind::Comma { l, r } = &e.kind else {
        panic!("{e:?}")
    };
    assert!(
        matches!(&l.kind, ExprKind::Cast { ty: Ty::Void, e, .. } if matches!(e.kind, ExprKind::SizeofExpr(_))),
        "{l:?}"
    );
    assert!(
        matches!(&r.kind, ExprKind::StmtExpr(b) if matches!(&b.kind, StmtKind::Block(x) if matches!(x[0].kind, StmtKind::If { .. }))),
        "{r:?}"
    );
    assert_round_trip("reach_error.c", GLIBC_REACH_ERROR);
}

/// The integer type of the only declaration in `text`.
fn decl_int(text: &str) -> IntTy {
    let p = parse_str(text);
    match p.items.last() {
        Some(Item::Decl(d)) => d.ty.int().unwrap_or_else(|| panic!("{text}: {:?}", d.ty)),
        other => panic!("{text}: {other:?}"),
    }
}

#[test]
fn integer_types_in_any_word_order() {
    use IntKind::*;
    let cases: &[(&str, IntKind, bool)] = &[
        ("int x;", Int, true),
        ("unsigned x;", Int, false),
        ("int unsigned x;", Int, false),
        ("unsigned int x;", Int, false),
        ("long unsigned int x;", Long, false),
        ("int long unsigned x;", Long, false),
        ("signed char x;", Char, true),
        ("char x;", Char, true),
        ("char unsigned x;", Char, false),
        ("unsigned char x;", Char, false),
        ("short x;", Short, true),
        ("short int unsigned x;", Short, false),
        ("long long x;", LongLong, true),
        ("unsigned long long x;", LongLong, false),
        ("long long unsigned int x;", LongLong, false),
        ("long int long x;", LongLong, true),
        ("_Bool x;", Bool, false),
        ("__int128 x;", Int128, true),
        ("unsigned __int128 x;", Int128, false),
        ("const volatile unsigned x;", Int, false),
        ("static __inline long __signed__ x;", Long, true),
        ("register int x;", Int, true),
    ];
    for (text, kind, signed) in cases {
        let t = decl_int(text);
        assert_eq!((t.kind, t.signed), (*kind, *signed), "{text}");
    }
    // Typedefs of integer types resolve, also through other typedefs; well-known library
    // names resolve without a typedef.
    let t = decl_int("typedef unsigned int size_t;\ntypedef size_t sz;\nsz x;");
    assert_eq!(t, IntTy::new(Int, true));
    assert_eq!(
        decl_int("typedef long long i64; i64 x;"),
        IntTy::new(LongLong, false)
    );
    assert_eq!(decl_int("uint32_t x;"), IntTy::new(Int, true));
    assert_eq!(decl_int("int8_t x;"), IntTy::new(Char, false));
    assert_eq!(decl_int("size_t x;"), IntTy::new(Long, true));
    assert_eq!(decl_int("bool x;"), IntTy::BOOL);
    // An enum type is int; a typedef of a pointer is not an integer type.
    assert_eq!(decl_int("enum e { A, B } x;"), IntTy::INT);
    let p = parse_str("typedef int *ip; ip x;");
    assert!(
        matches!(&p.items[1], Item::Decl(d) if matches!(&d.ty, Ty::Unsupported { spelling } if spelling == "ip"))
    );
    // Casts keep their target type.
    let e = expr_of("(unsigned char)(long unsigned)x");
    let ExprKind::Cast { ty, e: inner, .. } = &e.kind else {
        panic!("{e:?}")
    };
    assert_eq!(ty.int(), Some(IntTy::new(Char, true)));
    assert!(
        matches!(&inner.kind, ExprKind::Cast { ty, .. } if ty.int() == Some(IntTy::new(Long, true)))
    );
    let e = expr_of("(_Bool)x");
    assert!(matches!(&e.kind, ExprKind::Cast { ty, .. } if ty.int() == Some(IntTy::BOOL)));
}

#[test]
fn integer_literals_keep_their_suffix_and_base() {
    let lit = |text: &str| match expr_of(text).kind {
        ExprKind::Int(_, l) => (l.unsigned, l.longs, l.non_decimal),
        k => panic!("{text}: {k:?}"),
    };
    assert_eq!(lit("10"), (false, 0, false));
    assert_eq!(lit("10u"), (true, 0, false));
    assert_eq!(lit("10UL"), (true, 1, false));
    assert_eq!(lit("10ll"), (false, 2, false));
    assert_eq!(lit("0x10"), (false, 0, true));
    assert_eq!(lit("017"), (false, 0, true));
    for text in ["0xffffffffu", "10ull", "017", "42l"] {
        let e = expr_of(text);
        assert_eq!(expr_of(&pretty_expr(&e)).kind, e.kind, "{text}");
    }
}

#[test]
fn sizeof_comma_and_statement_expressions() {
    let e = expr_of("sizeof(unsigned long) + sizeof a[0] + sizeof(int *) + sizeof(char[3])");
    assert_eq!(
        pretty_expr(&e),
        "sizeof(unsigned long) + sizeof a[0] + sizeof(int *) + sizeof(char[3])"
    );
    let e = expr_of("sizeof (x + 1)");
    assert!(
        matches!(&e.kind, ExprKind::SizeofExpr(x) if matches!(x.kind, ExprKind::Binary { .. }))
    );
    // The comma operator is left associative and lowest; a call's commas are arguments.
    let e = expr_of("(a, b, c)");
    let ExprKind::Comma { l, .. } = &e.kind else {
        panic!("{e:?}")
    };
    assert!(matches!(l.kind, ExprKind::Comma { .. }));
    assert!(
        matches!(expr_of("f((a, b), c)").kind, ExprKind::Call { ref args, .. } if args.len() == 2)
    );
    assert!(matches!(
        one_stmt("return a, b;").kind,
        StmtKind::Return(Some(Expr {
            kind: ExprKind::Comma { .. },
            ..
        }))
    ));
    assert!(matches!(
        one_stmt("if (x = f(), x > 0) ;").kind,
        StmtKind::If {
            cond: Expr {
                kind: ExprKind::Comma { .. },
                ..
            },
            ..
        }
    ));
    let e = expr_of("({ int t = x; t + 1; })");
    let ExprKind::StmtExpr(b) = &e.kind else {
        panic!("{e:?}")
    };
    assert!(matches!(&b.kind, StmtKind::Block(ss) if ss.len() == 2));
    assert!(matches!(expr_of("__extension__ 1").kind, ExprKind::Int(..)));
    for text in [
        "void f() { x = ({ int t = y; t; }) + (a, b); (void)(c, d); y = sizeof(int) * 2; }",
        "int f(void) { return (a, ({ g(); 1; })); }",
    ] {
        assert_round_trip("gnu.c", text);
    }
}

#[test]
fn enums_typedefs_and_gnu_declarations() {
    let p = parse_str(
        "enum color { RED, GREEN = 5, BLUE };\ntypedef enum { X = RED + 1, Y } t;\n\
         __extension__ typedef unsigned long long u64;\n\
         static inline __attribute__((always_inline)) int f(int a) __attribute__((pure));\n\
         extern int printf(const char *__restrict fmt, ...) __asm__(\"\" \"printf\");\n\
         int (*fp)(int, int);\n\
         int main(int argc, char *argv[]) { enum { LOCAL = 2 }; typedef int loc; loc z = LOCAL; \
         int g(int); struct s { int a; }; int q[2][2] = {{1, 2}, {3, 4}}; return z; }\n",
    );
    let Item::Decl(d) = &p.items[0] else {
        panic!("{:?}", p.items[0])
    };
    assert!(d.vars.is_empty());
    let names: Vec<&str> = d.enums[0]
        .items
        .iter()
        .map(|(n, _)| n.name.as_str())
        .collect();
    assert_eq!(names, ["RED", "GREEN", "BLUE"]);
    assert!(
        matches!(&p.items[1], Item::Typedef(t) if t.enums.len() == 1 && t.names[0].1.int() == Some(IntTy::INT))
    );
    assert!(
        matches!(&p.items[2], Item::Typedef(t) if t.names[0].1.int() == Some(IntTy::new(IntKind::LongLong, true)))
    );
    assert!(matches!(&p.items[3], Item::Proto(fp) if fp.attributes.len() == 1));
    assert!(matches!(&p.items[4], Item::Proto(fp) if fp.variadic));
    assert!(
        matches!(&p.items[5], Item::Decl(d) if d.vars[0].name.name == "fp" && d.vars[0].pointer == 1)
    );
    let Item::Func(m) = &p.items[6] else {
        panic!("{:?}", p.items[6])
    };
    assert!(m.proto.params[1].is_array && m.proto.params[1].pointer == 1);
    let StmtKind::Block(ss) = &m.body.kind else {
        panic!()
    };
    assert!(matches!(&ss[0].kind, StmtKind::Decl(d) if d.enums.len() == 1));
    assert!(matches!(&ss[1].kind, StmtKind::Typedef(_)));
    assert!(matches!(&ss[2].kind, StmtKind::Decl(d) if d.ty.int() == Some(IntTy::INT)));
    assert!(matches!(&ss[3].kind, StmtKind::Proto(fp) if fp.name.name == "g"));
    assert!(matches!(&ss[4].kind, StmtKind::Decl(d) if d.vars.is_empty()));
    assert!(
        matches!(&ss[5].kind, StmtKind::Decl(d) if matches!(d.vars[0].init, Some(Init::Nested(..))))
    );
    assert_round_trip("decls.c", &pretty(&p));
}

/// Valid C outside lpmc's fragment parses (sema reports it as unsupported): it is never a
/// syntax error.
#[test]
fn valid_c_outside_the_fragment_parses() {
    for text in [
        "int main() { x &= 1; x <<= 2; }",
        "int main() { switch (x) { case 1: y = 2; break; case 2: case 3: { y = 3; } default: ; } }",
        "int a[2][2] = {{1, 2}, {3, 4}}; int b[3] = {[1] = 2};",
        "int main() { s.f = 1; p->g = s.h; }",
        "int main() { L: }",
        "int main() { asm volatile (\"nop\"); _Static_assert(1, \"x\"); }",
        "_Static_assert(sizeof(int) == 4, \"int\");",
        "int main() { x = (int){1}; y = (*fp)(2); z = _Generic(x, int: 1); }",
        "int main() { __attribute__((unused)) int x; __attribute__((fallthrough)); }",
        "int main() { x = __builtin_offsetof(struct s, f); }",
        "int f(int (*cmp)(int, int), int a[static 3]);",
        "typedef int (*handler)(void *); handler h;",
        "__extension__ typedef struct { long long q; } big;",
        "int f(a, b, p) int a; unsigned b; char *p; { return a + b; }\nint g(c) { return c; }",
    ] {
        let p = parse_str(text);
        assert_round_trip("c.c", &pretty(&p));
    }
}
