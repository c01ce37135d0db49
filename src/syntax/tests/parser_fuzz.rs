//! Robustness of the parser: random bytes, random token soup and random mutations of the
//! shared benchmarks never make `parse` panic, and whatever parses round-trips through the
//! pretty-printer. Deep nesting is reported, not a stack overflow.

use crate::diag::{DiagKind, SourceFile};
use crate::syntax::{erase_spans, parse, pretty};
use proptest::prelude::*;
use std::sync::OnceLock;

/// All shared benchmark texts.
fn corpus() -> &'static [String] {
    static CORPUS: OnceLock<Vec<String>> = OnceLock::new();
    CORPUS.get_or_init(|| {
        // Our programs, plus the shared benchmarks when they are beside the repository.
        let mut files = crate::testutil::sources(&crate::testutil::lp_dir());
        match crate::testutil::bench_dir() {
            Some(d) => files.extend(crate::testutil::sources(&d)),
            None => crate::testutil::skip("parser_fuzz corpus (shared part; lp-programs only)"),
        }
        let texts: Vec<String> = files
            .iter()
            .filter_map(|p| std::fs::read(p).ok())
            .map(|b| String::from_utf8_lossy(&b).into_owned())
            .collect();
        assert!(
            texts.len() >= 40,
            "expected at least 40 corpus files, found {}",
            texts.len()
        );
        texts
    })
}

/// Parse; on success, check the round trip. Returns whether it parsed.
fn check(text: &str) -> Result<bool, TestCaseError> {
    let f = SourceFile::new("fuzz.c", text);
    let Ok(mut p) = parse(&f) else {
        return Ok(false);
    };
    let printed = pretty(&p);
    let g = SourceFile::new("pretty.c", printed.clone());
    let mut q = match parse(&g) {
        Ok(q) => q,
        Err(d) => {
            return Err(TestCaseError::fail(format!(
                "pretty output does not parse: {}\n{printed}",
                d.render(&g, false)
            )))
        }
    };
    erase_spans(&mut p);
    erase_spans(&mut q);
    prop_assert_eq!(
        p,
        q,
        "round trip failed for {:?}\nprinted:\n{}",
        text,
        printed
    );
    Ok(true)
}

const TOKENS: &[&str] = &[
    "int",
    "unsigned",
    "long",
    "char",
    "void",
    "x",
    "y",
    "a",
    "u",
    "f",
    "main",
    "skip",
    "if",
    "else",
    "while",
    "do",
    "for",
    "return",
    "break",
    "continue",
    "goto",
    "L",
    ":",
    ";",
    ",",
    "(",
    ")",
    "[",
    "]",
    "{",
    "}",
    "=",
    "+=",
    "-=",
    "*",
    "/",
    "%",
    "+",
    "-",
    "++",
    "--",
    "!",
    "~",
    "&",
    "&&",
    "||",
    "<",
    "<=",
    "==",
    "!=",
    "?",
    "0",
    "1",
    "42",
    "0x1f",
    "'a'",
    "\"s\"",
    "1.5",
    "sizeof",
    "extern",
    "static",
    "const",
    "typedef",
    "struct",
    "__attribute__",
    "ERROR",
    "reach_error",
    "#include <x.h>\n",
    "//c\n",
    "/* c */",
    "\n",
    "...",
    "->",
    ".",
    "switch",
    "case",
    "default",
    "enum",
    "({",
    "})",
    "__extension__",
    "_Bool",
    "10ul",
    "#define N 3\n",
];

fn token_soup() -> impl Strategy<Value = String> {
    proptest::collection::vec(0..TOKENS.len(), 0..60)
        .prop_map(|ix| ix.iter().map(|&k| TOKENS[k]).collect::<Vec<_>>().join(" "))
}

/// Random expressions as text (with random extra parentheses), in C's syntax.
fn expr_text() -> impl Strategy<Value = String> {
    let leaf = prop_oneof![prop::sample::select(vec![
        "x",
        "y",
        "u",
        "a[i]",
        "n1",
        "int_x",
        "0",
        "1",
        "42",
        "0x1F",
        "'c'",
        "077",
        "99999999999999999999"
    ])
    .prop_map(str::to_string),];
    leaf.prop_recursive(6, 64, 3, |inner| {
        let bin = prop::sample::select(vec![
            "+", "-", "*", "/", "%", "<", "<=", ">", ">=", "==", "!=", "&&", "||", "&", "|", "^",
            "<<", ">>",
        ]);
        let un = prop::sample::select(vec![
            "-",
            "+",
            "!",
            "~",
            "(int)",
            "(unsigned long)",
            "*",
            "&",
        ]);
        prop_oneof![
            (inner.clone(), bin, inner.clone()).prop_map(|(l, op, r)| format!("{l} {op} {r}")),
            (un, inner.clone()).prop_map(|(op, e)| format!("{op}({e})")),
            (inner.clone(), inner.clone(), inner.clone())
                .prop_map(|(c, t, e)| format!("({c} ? {t} : {e})")),
            inner.clone().prop_map(|e| format!("({e})")),
            inner.clone().prop_map(|e| format!("b[{e}]")),
            (inner.clone(), inner.clone()).prop_map(|(a, b)| format!("f({a}, {b})")),
            inner.clone().prop_map(|e| format!("(z = {e})")),
            Just("x++".to_string()),
            Just("--y".to_string()),
        ]
    })
}

/// Random statements as text.
fn stmt_text() -> impl Strategy<Value = String> {
    let simple = prop_oneof![
        expr_text().prop_map(|e| format!("x = {e};")),
        (expr_text(), expr_text()).prop_map(|(a, b)| format!("x, a[i] = {a}, {b};")),
        expr_text().prop_map(|e| format!("y -= {e};")),
        Just("x++;".to_string()),
        Just("--a[0];".to_string()),
        Just("skip;".to_string()),
        Just(";".to_string()),
        expr_text().prop_map(|e| format!("g({e});")),
        expr_text().prop_map(|e| format!("int v = {e}, w[3] = {{1, 2, 3}};")),
        Just("break;".to_string()),
        expr_text().prop_map(|e| format!("return {e};")),
    ];
    simple.prop_recursive(4, 32, 4, |inner| {
        prop_oneof![
            (expr_text(), inner.clone()).prop_map(|(c, s)| format!("if ({c}) {s}")),
            (expr_text(), inner.clone(), inner.clone())
                .prop_map(|(c, s, t)| format!("if ({c}) {s} else {t}")),
            (expr_text(), inner.clone()).prop_map(|(c, s)| format!("while ({c}) {s}")),
            (inner.clone(), expr_text()).prop_map(|(s, c)| format!("do {s} while ({c});")),
            (expr_text(), inner.clone())
                .prop_map(|(c, s)| format!("for (int k = 0, m; {c}; k++, m--) {s}")),
            inner.clone().prop_map(|s| format!("for (;;) {s}")),
            prop::collection::vec(inner.clone(), 0..4)
                .prop_map(|ss| format!("{{ {} }}", ss.join(" "))),
            inner.clone().prop_map(|s| format!("ERROR: {s}")),
        ]
    })
}

/// One edit of a byte string.
#[derive(Clone, Debug)]
enum Mutation {
    Delete(usize, usize),
    Insert(usize, Vec<u8>),
    Replace(usize, usize, Vec<u8>),
    Duplicate(usize, usize),
    Token(usize, usize),
}

fn mutation() -> impl Strategy<Value = Mutation> {
    let bytes = proptest::collection::vec(any::<u8>(), 1..8);
    prop_oneof![
        (any::<usize>(), 1usize..20).prop_map(|(a, n)| Mutation::Delete(a, n)),
        (any::<usize>(), bytes.clone()).prop_map(|(a, b)| Mutation::Insert(a, b)),
        (any::<usize>(), 1usize..10, bytes).prop_map(|(a, n, b)| Mutation::Replace(a, n, b)),
        (any::<usize>(), 1usize..40).prop_map(|(a, n)| Mutation::Duplicate(a, n)),
        (any::<usize>(), 0..TOKENS.len()).prop_map(|(a, t)| Mutation::Token(a, t)),
    ]
}

fn apply(text: &str, ms: &[Mutation]) -> String {
    let mut b = text.as_bytes().to_vec();
    for m in ms {
        let len = b.len().max(1);
        match m {
            Mutation::Delete(a, n) => {
                let a = a % len;
                let e = (a + n).min(b.len());
                b.drain(a.min(e)..e);
            }
            Mutation::Insert(a, bytes) => {
                let a = a % (b.len() + 1);
                b.splice(a..a, bytes.iter().copied());
            }
            Mutation::Replace(a, n, bytes) => {
                let a = a % len;
                let e = (a + n).min(b.len());
                b.splice(a.min(e)..e, bytes.iter().copied());
            }
            Mutation::Duplicate(a, n) => {
                let a = a % len;
                let e = (a + n).min(b.len());
                let chunk: Vec<u8> = b[a.min(e)..e].to_vec();
                b.splice(e..e, chunk);
            }
            Mutation::Token(a, t) => {
                let a = a % (b.len() + 1);
                let tok = format!(" {} ", TOKENS[*t]);
                b.splice(a..a, tok.bytes());
            }
        }
    }
    String::from_utf8_lossy(&b).into_owned()
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 500, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn random_bytes_never_panic(bytes in proptest::collection::vec(any::<u8>(), 0..300)) {
        check(&String::from_utf8_lossy(&bytes))?;
    }

    #[test]
    fn token_soup_never_panics(text in token_soup()) {
        check(&text)?;
    }

    #[test]
    fn mutated_benchmarks_never_panic(k in any::<usize>(), ms in proptest::collection::vec(mutation(), 1..4)) {
        let corpus = corpus();
        let text = apply(&corpus[k % corpus.len()], &ms);
        check(&text)?;
    }
    #[test]
    fn generated_programs_parse_and_round_trip(ss in prop::collection::vec(stmt_text(), 1..6)) {
        let text = format!("int g(int p);\nint main(void) {{\n{}\n}}\n", ss.join("\n"));
        prop_assert!(check(&text)?, "generated program did not parse:\n{}", text);
    }

    #[test]
    fn line_mutations_of_benchmarks(k in any::<usize>(), ops in prop::collection::vec((0u8..3, any::<usize>(), any::<usize>()), 1..4)) {
        let corpus = corpus();
        let mut lines: Vec<&str> = corpus[k % corpus.len()].lines().collect();
        for (op, a, b) in ops {
            if lines.is_empty() {
                break;
            }
            let (a, b) = (a % lines.len(), b % lines.len());
            match op {
                0 => {
                    lines.remove(a);
                }
                1 => lines.insert(b, lines[a]),
                _ => lines.swap(a, b),
            }
        }
        check(&lines.join("\n"))?;
    }
}

/// Parse `text` and expect a "nesting too deep" diagnostic.
fn assert_too_deep(text: &str) {
    let f = SourceFile::new("deep.c", text);
    match parse(&f) {
        Ok(_) => panic!("deeply nested input parsed"),
        Err(d) => {
            assert_eq!(d.kind, DiagKind::Syntax);
            assert!(d.message.contains("nesting too deep"), "{}", d.message);
        }
    }
}

#[test]
fn deep_nesting_is_an_error_not_a_stack_overflow() {
    let n = 10_000;
    assert_too_deep(&format!("int x = {}1{};", "(".repeat(n), ")".repeat(n)));
    assert_too_deep(&format!("int main() {{ {} }}", "{".repeat(n)));
    assert_too_deep(&format!("int main() {{ {}x; }}", "-".repeat(n)));
    assert_too_deep(&format!("int main() {{ {}x; }}", "! ".repeat(n)));
    assert_too_deep(&format!("int main() {{ x = 1{}; }}", " + 1".repeat(n)));
    assert_too_deep(&format!("int main() {{ x = a{}; }}", "[0]".repeat(n)));
    assert_too_deep(&format!("int main() {{ x = {}; }}", "a = ".repeat(n)));
    assert_too_deep(&format!("int main() {{ x = 1{}; }}", " ? 1 : 1".repeat(n)));
    assert_too_deep(&format!("int main() {{ {} ; }}", "if (x) ".repeat(n)));
    assert_too_deep(&format!(
        "int main() {{ if (x) ; {} }}",
        "else if (x) ;".repeat(n)
    ));
    assert_too_deep(&format!("int main() {{ {} ; }}", "L: ".repeat(n)));
    assert_too_deep(&format!("int main() {{ {} ; }}", "while (1) ".repeat(n)));
}

#[test]
fn moderate_nesting_parses() {
    // Well below the limit, nesting works and round-trips.
    let n = 60;
    let text = format!(
        "int main() {{ x = {}1{}; {} y = 1; {} }}",
        "(".repeat(n),
        ")".repeat(n),
        "{".repeat(n),
        "}".repeat(n)
    );
    assert!(
        check(&text).unwrap_or(false),
        "nested program did not parse"
    );
}

/// A nested program of a given depth.
type Shape = fn(usize) -> String;

#[test]
fn near_limit_nesting_fits_in_one_megabyte_of_stack() {
    // Every nesting shape, just under the limit (256 levels; `a[...]` and `f(...)` count
    // two levels each) and far over it, in a thread with half the default test stack.
    let shapes: Vec<(usize, Shape)> = vec![
        (250, |n| {
            format!("int x = {}1{};", "(".repeat(n), ")".repeat(n))
        }),
        (250, |n| {
            format!("int main() {} {}", "{".repeat(n), "}".repeat(n))
        }),
        (250, |n| {
            format!("int main() {{ {} ; }}", "if (x) ".repeat(n))
        }),
        (250, |n| {
            format!("int main() {{ x = 1{}; }}", " ? 1 : 1".repeat(n))
        }),
        (250, |n| {
            format!("int main() {{ x = {}1; }}", "a = ".repeat(n))
        }),
        (250, |n| format!("int main() {{ x = {}1; }}", "-".repeat(n))),
        (120, |n| {
            format!("int main() {{ x = {}1{}; }}", "a[".repeat(n), "]".repeat(n))
        }),
        (120, |n| {
            format!("int main() {{ x = {}1{}; }}", "f(".repeat(n), ")".repeat(n))
        }),
    ];
    let worker = std::thread::Builder::new()
        .stack_size(1 << 20)
        .spawn(move || {
            for (ok_depth, shape) in shapes {
                let f = SourceFile::new("near.c", shape(ok_depth));
                if let Err(d) = parse(&f) {
                    return Err(format!(
                        "depth {ok_depth} rejected: {}",
                        d.render(&f, false)
                    ));
                }
                let f = SourceFile::new("far.c", shape(5_000));
                match parse(&f) {
                    Err(d) if d.message.contains("nesting too deep") => {}
                    other => return Err(format!("depth 5000 not reported: {other:?}")),
                }
            }
            Ok(())
        });
    let joined = worker
        .map_err(|e| e.to_string())
        .and_then(|h| h.join().map_err(|_| "worker panicked".to_string()));
    assert_eq!(joined, Ok(Ok(())));
}
