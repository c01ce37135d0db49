//! Real C in: every shared C file loads or is UNKNOWN with a span, never bad input; the
//! glibc `reach_error`, statement expressions, the comma operator, casts, `sizeof`,
//! `enum`, `typedef`, `switch`, `goto` and `main(argc, argv)` mean what C says; the C
//! preprocessor runs when a file needs it and diagnostics point at the user's lines;
//! SV-COMP task files (`.yml`) are read (`tests/real_c.rs`: the same through the binary).

use crate::diag::SourceFile;
use crate::frontend::{
    load, load_path, load_with, unsupported_reason, DataModel, LoadError, LoadOptions, Loaded,
    Preprocessor,
};
use crate::interp::{run, Limits, ListOracle, Outcome};
use crate::testutil::require_benchmarks;
use num_bigint::BigInt;
use std::path::PathBuf;
use std::process::Command;

fn load_str(name: &str, text: &str) -> Loaded {
    load(SourceFile::new(name, text)).unwrap_or_else(|e| panic!("{name}:\n{}", e.render(false)))
}

/// Run the program with these inputs: whether it reaches an error.
fn reaches_error(l: &Loaded, inputs: &[i64]) -> bool {
    assert!(
        l.analysis.unsupported.is_empty(),
        "{:?}",
        l.analysis.unsupported
    );
    let vals = inputs.iter().map(|v| BigInt::from(*v)).collect();
    let r = run(&l.cfg, &mut ListOracle::new(vals), Limits::default(), false);
    match r.outcome {
        Outcome::Error { .. } => true,
        Outcome::Finished => false,
        o => panic!("{o:?}"),
    }
}

/// The unsupported constructs' names.
fn unsupported(l: &Loaded) -> Vec<String> {
    l.analysis
        .unsupported
        .iter()
        .map(|u| u.construct.clone())
        .collect()
}

/// Whether a C preprocessor is installed (the tests that need one say what they expect
/// without it).
fn have_cpp() -> bool {
    ["cpp", "cc", "gcc", "clang"].iter().any(|c| {
        Command::new(c)
            .arg("--version")
            .output()
            .is_ok_and(|o| o.status.success())
    })
}

#[test]
fn every_shared_c_file_loads_or_is_unknown_with_a_span() {
    let dir = require_benchmarks!("every_shared_c_file_loads_or_is_unknown_with_a_span");
    let mut files: Vec<PathBuf> = crate::testutil::sources(&dir)
        .into_iter()
        .filter(|p| p.extension().is_some_and(|e| e == "c" || e == "i"))
        .collect();
    let wild = crate::testutil::wild_dir()
        .map(|w| crate::testutil::sources(&w))
        .unwrap_or_default();
    files.extend(wild.iter().cloned());
    assert!(files.len() >= 80, "only {} files", files.len());
    let mut unknown = 0;
    for f in &files {
        match load_path(f) {
            Ok(l) => {
                for u in &l.analysis.unsupported {
                    assert!(
                        !u.construct.is_empty() && u.span.end > u.span.start,
                        "{}: {u:?}",
                        f.display()
                    );
                }
                unknown += usize::from(!l.analysis.unsupported.is_empty());
            }
            Err(e) => panic!("{} is bad input:\n{}", f.display(), e.render(false)),
        }
    }
    // The c-in-the-wild tasks are all in the fragment now.
    for f in &wild {
        let l = load_path(f).unwrap_or_else(|e| panic!("{}", e.render(false)));
        assert!(
            l.analysis.unsupported.is_empty(),
            "{}: {:?}",
            f.display(),
            l.analysis.unsupported
        );
    }
    assert!(
        unknown < files.len() / 2,
        "{unknown} of {} unsupported",
        files.len()
    );
}

#[test]
fn glibc_reach_error_is_the_error_whatever_its_body() {
    let text = "extern void __assert_fail (const char *__assertion, const char *__file,\n\
      unsigned int __line, const char *__function)\n\
      __attribute__ ((__nothrow__ , __leaf__)) __attribute__ ((__noreturn__));\n\
      void reach_error() { ((void) sizeof ((0) ? 1 : 0), __extension__ ({ if (0) ; else __assert_fail (\"0\", \"f.c\", 3, __extension__ __PRETTY_FUNCTION__); })); }\n\
      extern int __VERIFIER_nondet_int(void);\n\
      int main() { int x = __VERIFIER_nondet_int(); if (x == 3) reach_error(); return 0; }\n";
    let l = load_str("g.i", text);
    assert!(reaches_error(&l, &[3]));
    assert!(!reaches_error(&l, &[4]));
    // The same expansion used as `assert(x > 0)` in user code: an `if` around the error.
    let user = "extern void __assert_fail (const char *, const char *, unsigned int, const char *);\n\
      int main() { int x = u; ((void) sizeof ((x > 0) ? 1 : 0), __extension__ ({ if (x > 0) ; else __assert_fail (\"x > 0\", \"f.c\", 3, __extension__ __PRETTY_FUNCTION__); })); return 0; }\n";
    let l = load_str("a.i", user);
    assert!(reaches_error(&l, &[0]));
    assert!(!reaches_error(&l, &[1]));
    // The older form `((x) ? (void) (0) : __assert_fail (...))`.
    let old = "int main() { int x = u; ((x > 0) ? (void) (0) : __assert_fail (\"x\", \"f.c\", 2, __PRETTY_FUNCTION__)); return 0; }";
    let l = load_str("o.i", old);
    assert!(reaches_error(&l, &[-1]));
    assert!(!reaches_error(&l, &[2]));
}

#[test]
fn comma_statement_expressions_casts_sizeof_enum_mean_what_c_says() {
    let l = load_str(
        "s.c",
        "int g;\nint inc() { g = g + 1; return g; }\n\
         enum { A, B = 5, C };\ntypedef unsigned char byte;\n\
         int main() {\n\
           int x = (inc(), inc(), 10);          /* both calls happen: g == 2 */\n\
           int y = ({ int t = x; t = t + C; t; }); /* 16 */\n\
           (void)(inc(), 0);                     /* g == 3 */\n\
           int s = sizeof(long) + sizeof(byte) + sizeof x + sizeof(int[4]) + sizeof \"ab\";\n\
           _Bool b = (_Bool)-7;\n\
           int n = (unsigned)x;\n\
           if (g != 3 || x != 10 || y != 16 || s != 4 + 1 + 4 + 16 + 3 || b != 1 || n != 10)\n\
             reach_error();\n\
           return 0;\n}\n",
    );
    assert!(!reaches_error(&l, &[]));
    // LP64: sizeof(long) and sizeof(size_t) are 8.
    let opts = LoadOptions {
        data_model: DataModel::Lp64,
        ..LoadOptions::default()
    };
    let src = "int main() { if (sizeof(long) == 8 && sizeof(size_t) == 8 && sizeof(int *) == 8) reach_error(); return 0; }";
    let lp64 = load_with(SourceFile::new("m.c", src), &opts).expect("loads");
    assert!(reaches_error(&lp64, &[]));
    assert!(!reaches_error(&load_str("m.c", src), &[]));
}

#[test]
fn side_effects_inside_expressions_are_never_dropped() {
    // A call on the left of a comma inside a larger expression, and a statement
    // expression with statements inside an expression, are unsupported (with a span),
    // not silently simplified.
    let l = load_str(
        "c.c",
        "int f() { return 1; }\nint main() { int x = 1 + (f(), 2); return x; }",
    );
    let names = unsupported(&l);
    assert!(names.iter().any(|n| n.contains("comma")), "{names:?}");
    let why = unsupported_reason(&l.file, &l.analysis.unsupported).expect("a reason");
    assert!(why.contains("2:27"), "{why}");
    let l = load_str(
        "s.c",
        "int main() { int y = 1; int x = 2 * ({ y = 3; y; }); return x; }",
    );
    assert!(
        unsupported(&l)
            .iter()
            .any(|n| n.contains("statement expression")),
        "{:?}",
        unsupported(&l)
    );
    // Assignments and increments whose value is used by a statement happen, in order.
    let l = load_str(
        "i.c",
        "int g;\nint main() { int x = 1, w; int y = x++; int z = ++x;\n\
         if ((w = z)) g = 1; printf(\"%d\", g++);\n\
         if (y != 1 || z != 3 || x != 3 || w != 3 || g != 2) reach_error(); return 0; }",
    );
    assert!(!reaches_error(&l, &[]));
    // A side-effect-free left operand is just discarded; `x = (y++, y)` keeps the `++`.
    let l = load_str(
        "p.c",
        "int main() { int y = 1; int x = (y++, y + 1); if (x != 3) reach_error(); return 0; }",
    );
    assert!(!reaches_error(&l, &[]));
}

#[test]
fn c89_definitions_and_redeclarations() {
    // K&R definitions; `extern` then definition, and tentative definitions, name one
    // object; a global only declared `extern` is defined elsewhere, so it is arbitrary;
    // `extern int x;` in a body names the global.
    let l = load_str(
        "k.c",
        "extern int x;\nint x;\nint x = 3;\nextern int y;\n\
         int f(a, b) int a; unsigned b; { return a + b; }\nint g(c) { return c; }\n\
         int main() { extern int x; int arr[] = {1, 2, 3};\n\
           if (sizeof arr / sizeof *arr != 3 || f(1, 2) + g(4) != 7 || x != 3) reach_error();\n\
           if (y == 5) reach_error(); return 0; }\n",
    );
    assert!(!reaches_error(&l, &[4]));
    assert!(reaches_error(&l, &[5]));
    let e = load(SourceFile::new(
        "t.c",
        "int x = 1;\nint x = 2;\nint main() { return x; }",
    ))
    .expect_err("an error");
    assert!(
        e.render(false).contains("initialised twice"),
        "{}",
        e.render(false)
    );
}

#[test]
fn switch_lowers_to_jumps() {
    let l = load_str(
        "w.c",
        "int main() { int x = u, r = 0;\n\
         switch (x) { case 1: r = 1; case 2: r = r + 2; break; default: r = 9; }\n\
         if (r == 3) reach_error(); return 0; }",
    );
    assert!(reaches_error(&l, &[1]));
    assert!(!reaches_error(&l, &[2]));
    assert!(!reaches_error(&l, &[7]));
}

#[test]
fn goto_jumps_forward_backward_and_out_of_loops() {
    let src = "int main() {\n  int i = 0, n = u;\nagain:\n  i++;\n  while (1) { if (i > n) goto out; goto again; }\nout:\n  if (i == 4) reach_error();\n  return 0;\n}\n";
    let l = load_str("g.c", src);
    assert!(reaches_error(&l, &[3]));
    assert!(!reaches_error(&l, &[5]));
    // A goto into the statement of an `ERROR:` label runs that statement, not the error.
    let l = load_str(
        "e.c",
        "int main() { int x = u; if (x) goto in; return 0; ERROR: { in: x = 0; } return x; }",
    );
    assert!(!reaches_error(&l, &[1]));
    // An undefined label is bad input, at the label's line and column.
    let e =
        load(SourceFile::new("b.c", "int main() {\n  goto nowhere;\n}\n")).expect_err("an error");
    let LoadError::Invalid { file, diagnostics } = e else {
        panic!("{e}")
    };
    assert_eq!(file.line_col(diagnostics[0].span.start).to_string(), "2:8");
    assert!(diagnostics[0].message.contains("nowhere"));
}

#[test]
fn main_argc_is_an_input_and_argv_is_unsupported_when_used() {
    let l = load_str(
        "a.c",
        "int main(int argc, char *argv[]) { if (argc == 2) reach_error(); return 0; }",
    );
    assert!(reaches_error(&l, &[2]));
    // argc < 1 is not an execution.
    let l = load_str(
        "b.c",
        "int main(int argc, char **argv) { if (argc < 1) reach_error(); return 0; }",
    );
    let r = run(
        &l.cfg,
        &mut ListOracle::new(vec![BigInt::from(0)]),
        Limits::default(),
        false,
    );
    assert!(
        matches!(r.outcome, Outcome::Blocked { .. }),
        "{:?}",
        r.outcome
    );
    let l = load_str(
        "c.c",
        "int main(int argc, char *argv[]) {\n  return argv[1][0];\n}",
    );
    let why = unsupported_reason(&l.file, &l.analysis.unsupported).expect("unsupported");
    assert!(why.contains("argv") && why.contains("2:10"), "{why}");
}

#[test]
fn library_declarations_are_harmless_until_used() {
    // Extern pointers and library prototypes; printf is output only; a procedure that
    // main never calls may use anything.
    let l = load_str(
        "l.c",
        "typedef struct _IO_FILE FILE;\nextern FILE *stderr;\n\
         extern int fprintf(FILE *__restrict s, const char *__restrict f, ...);\n\
         extern void *memcpy(void *d, const void *s, unsigned long n);\n\
         void unused(int *p) { *p = 1; }\n\
         int main() { int x = u; fprintf(stderr, \"x = %d\\n\", x); printf(\"%s\", __func__);\n\
           if (x == 1) reach_error(); return 0; }\n",
    );
    assert!(reaches_error(&l, &[1]));
    let l = load_str(
        "m.c",
        "extern int *p;\nint main() { int a[2]; memcpy(a, p, 8); return 0; }\n\
         extern void *memcpy(void *, const void *, unsigned long);",
    );
    let names = unsupported(&l);
    assert!(names.iter().any(|n| n.contains("memcpy")), "{names:?}");
}

#[test]
fn preprocessed_files_keep_the_users_lines() {
    if !have_cpp() {
        eprintln!("skipped preprocessed_files_keep_the_users_lines: no C preprocessor");
        return;
    }
    // A syntax error after a multi-line #define block points at the user's line.
    let src = "#define TWICE(x) \\\n  ((x) + \\\n   (x))\n#define N 4\n\nint main(void) {\n  int a[N];\n  a[0] = TWICE(N);\n  a[1] = 3 $ 4;\n  return 0;\n}\n";
    let e = load(SourceFile::new("d.c", src)).expect_err("an error");
    let LoadError::Invalid { file, diagnostics } = &e else {
        panic!("{e}")
    };
    assert_eq!(file.line_col(diagnostics[0].span.start).to_string(), "9:12");
    let text = e.render(false);
    assert!(
        text.contains("d.c:9:12") && text.contains("a[1] = 3 $ 4;"),
        "{text}"
    );
    // Traces and reasons too: the error location is on line 9 of the user's file.
    let ok = src.replace("a[1] = 3 $ 4;", "if (a[0] == 8)\n    reach_error();");
    let l = load_str("d.c", &ok);
    assert!(l.file.is_preprocessed());
    assert!(reaches_error(&l, &[]));
    let err_node = l
        .cfg
        .nodes
        .iter()
        .find(|n| matches!(n.kind, crate::cfg::NodeKind::Skip { next } if next == crate::cfg::ERROR_NODE))
        .expect("an error node");
    assert_eq!(l.file.line_col(err_node.span.start).line, 10);
    // `#include "..."` of a user header; INT_MAX from <limits.h> through the retry.
    let dir = std::env::temp_dir().join(format!("lpmc-cpp-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    std::fs::write(dir.join("size.h"), "#define SIZE 3\nint helper(int v);\n").expect("write");
    std::fs::write(
        dir.join("main.c"),
        "#include \"size.h\"\nint helper(int v) { return v + SIZE; }\nint main(void) {\n  if (helper(1) == 4)\n    reach_error();\n  return 0;\n}\n",
    )
    .expect("write");
    let l = load_path(&dir.join("main.c")).unwrap_or_else(|e| panic!("{}", e.render(false)));
    assert!(reaches_error(&l, &[]));
    let lim = "#include <limits.h>\nint main(void) {\n  int x = INT_MAX;\n  if (x == 2147483647)\n    reach_error();\n  return 0;\n}\n";
    let l = load_str("lim.c", lim);
    assert!(reaches_error(&l, &[]));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn files_with_only_system_includes_are_read_without_the_preprocessor() {
    let src = "#include <assert.h>\n#include <stdio.h>\nint main(void) {\n  int x = u;\n  assert(x != 2);\n  return 0;\n}\n";
    let l = load_str("s.c", src);
    assert!(!l.file.is_preprocessed());
    assert!(reaches_error(&l, &[2]));
}

#[test]
fn without_a_preprocessor_a_file_that_needs_one_is_unknown() {
    let src = "// a comment\n#include <stdio.h>\n\n#define N 3\nint a[N];\nint main(void) { return a[0] }\n";
    let opts = LoadOptions {
        preprocessor: Preprocessor::Command(vec!["/nonexistent/lpmc-test-cpp".to_string()]),
        ..LoadOptions::default()
    };
    // Even though the file does not parse without the preprocessor.
    let l = load_with(SourceFile::new("n.c", src), &opts).expect("loads as unknown");
    let why = unsupported_reason(&l.file, &l.analysis.unsupported).expect("unsupported");
    assert!(
        why.contains("preprocessor") && why.contains("at 4:1"),
        "{why}"
    );
    // --no-cpp: `#` lines are skipped and N is undeclared.
    let off = LoadOptions {
        preprocessor: Preprocessor::Off,
        ..LoadOptions::default()
    };
    let src = "#define N 3\nint a[N];\nint main(void) { return 0; }\n";
    let e = load_with(SourceFile::new("n.c", src), &off).expect_err("an error");
    assert!(
        e.render(false).contains("`N` is not declared"),
        "{}",
        e.render(false)
    );
}

mod robustness {
    //! The whole front end (parser, sema, CFG) never panics: random statements of real C
    //! inside `main`, and line mutations of real-C programs.
    use super::*;
    use proptest::prelude::*;

    const STMTS: &[&str] = &[
        "x = (f(), 1);",
        "y = ({ int t = x; t + 1; });",
        "({ x++; });",
        "(void)(x, y);",
        "goto L;",
        "goto M;",
        "L: x = x + 1;",
        "M: ;",
        "ERROR: ;",
        "switch (x) { case 1: y = 2; case 2: break; default: goto L; }",
        "case 3: ;",
        "default: ;",
        "break;",
        "continue;",
        "while (x < 3) { x++; if (y) goto L; }",
        "for (int i = 0; i < 2; i++) { if (i) break; }",
        "do { goto M; } while (0);",
        "x = sizeof(long) + sizeof x + sizeof(a) / sizeof a[0];",
        "x = (unsigned char)y + (_Bool)x;",
        "enum { P, Q = 4 }; x = Q;",
        "typedef int T; T z = 3;",
        "reach_error();",
        "((void) sizeof ((x) ? 1 : 0), __extension__ ({ if (x) ; else __assert_fail (\"x\", \"f.c\", 3, __extension__ __PRETTY_FUNCTION__); }));",
        "x ? f() : g();",
        "x && f();",
        "a[x] = argc;",
        "x = argv[0][0];",
        "printf(\"%d\", f());",
        "return (f(), g());",
        "{ int x = 2; goto L; }",
        "x = (x = 1, x + 1);",
        "x = 1 + (f(), 2);",
        "if (({ int t = 1; t; })) x = 0;",
    ];

    fn program(picks: &[usize]) -> String {
        let body: Vec<&str> = picks.iter().map(|&k| STMTS[k]).collect();
        format!(
            "int f() {{ return 1; }}\nint g() {{ return 2; }}\n\
             int main(int argc, char *argv[]) {{\n  int x = 0, y = 1, a[4];\n  {}\n  return 0;\n}}\n",
            body.join("\n  ")
        )
    }

    fn off() -> LoadOptions {
        LoadOptions {
            preprocessor: Preprocessor::Off,
            ..LoadOptions::default()
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(400))]

        #[test]
        fn loading_random_real_c_never_panics(picks in proptest::collection::vec(0..STMTS.len(), 0..12)) {
            let text = program(&picks);
            match load_with(SourceFile::new("r.c", text.clone()), &off()) {
                Ok(l) => {
                    if l.analysis.unsupported.is_empty() {
                        // Whatever loads runs (bounded) without panicking.
                        let limits = Limits { max_steps: 2_000, ..Limits::default() };
                        let _ = run(&l.cfg, &mut ListOracle::new(vec![]), limits, false);
                    }
                }
                Err(LoadError::Invalid { diagnostics, .. }) => prop_assert!(!diagnostics.is_empty()),
                Err(e) => prop_assert!(false, "{e}"),
            }
        }

        #[test]
        fn line_mutations_of_real_c_never_panic(
            file in 0usize..6,
            ops in proptest::collection::vec((0usize..3, 0usize..200), 1..4),
        ) {
            let names = [
                "glibc_reach_error.c",
                "stmt_expr_comma.c",
                "switch_cases.c",
                "goto_backward_loop_wrong.c",
                "casts_sizeof_enum_typedef.c",
                "main_argc.c",
            ];
            let text = std::fs::read_to_string(crate::testutil::lp_dir().join(names[file])).expect("read");
            let mut lines: Vec<String> = text.lines().map(str::to_string).collect();
            for (op, at) in ops {
                if lines.is_empty() {
                    break;
                }
                let k = at % lines.len();
                match op {
                    0 => {
                        lines.remove(k);
                    }
                    1 => {
                        let l = lines[k].clone();
                        lines.insert(k, l);
                    }
                    _ => {
                        let j = (k * 7 + 3) % lines.len();
                        lines.swap(k, j);
                    }
                }
            }
            let _ = load_with(SourceFile::new("m.c", lines.join("\n")), &off());
        }
    }
}
