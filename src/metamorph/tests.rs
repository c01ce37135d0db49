//! Unit tests of the metamorphic rewrites: for each transformation a small program and its
//! variant (the text, or the rewritten constructs), and programs where it does not apply.

use super::{variants, Transformation, Variant};
use crate::diag::SourceFile;
use crate::syntax::parse;
use std::collections::BTreeSet;

/// The variants of `src` (a program in a file named `file`).
fn all(file: &str, src: &str) -> Vec<Variant> {
    variants(file, src)
}

/// The variant named `name`, if any.
fn variant(file: &str, src: &str, name: &str) -> Option<Variant> {
    all(file, src).into_iter().find(|v| v.name == name)
}

/// The variant named `name`'s program text, after its header comment.
fn body(file: &str, src: &str, name: &str) -> String {
    let v = variant(file, src, name).unwrap_or_else(|| {
        let names: Vec<String> = all(file, src).into_iter().map(|v| v.name).collect();
        panic!("no variant {name} of\n{src}\n(there are {names:?})")
    });
    v.source
        .lines()
        .skip_while(|l| l.starts_with("//"))
        .collect::<Vec<_>>()
        .join("\n")
}

/// The transformations that produce a variant of `src`.
fn applied(file: &str, src: &str) -> BTreeSet<Transformation> {
    all(file, src).iter().map(|v| v.transformation).collect()
}

/// Whether `text` contains each of `parts` (whitespace-normalised).
fn assert_contains(text: &str, parts: &[&str]) {
    let norm = |s: &str| s.split_whitespace().collect::<Vec<_>>().join(" ");
    let t = norm(text);
    for p in parts {
        assert!(t.contains(&norm(p)), "`{p}` is not in\n{text}");
    }
}

fn assert_lacks(text: &str, parts: &[&str]) {
    let norm = |s: &str| s.split_whitespace().collect::<Vec<_>>().join(" ");
    let t = norm(text);
    for p in parts {
        assert!(!t.contains(&norm(p)), "`{p}` is in\n{text}");
    }
}

const FILL_SAFE: &str = "// expect: safe
// why: every cell is set to 0
void main() {
  int a[100];
  int i, j;
  for (i = 0; i < 100; i++)
    a[i] = 0;
  j = u;
  assume(0 <= j && j <= 99);
  assert(a[j] == 0);
}
";

#[test]
fn the_header_stays_and_names_the_variant() {
    let vs = all("fill.lp", FILL_SAFE);
    assert!(!vs.is_empty());
    let mut names = BTreeSet::new();
    for v in &vs {
        let mut lines = v.source.lines();
        assert_eq!(lines.next(), Some("// expect: safe"));
        assert_eq!(lines.next(), Some("// why: every cell is set to 0"));
        assert_eq!(
            lines.next().map(str::to_string),
            Some(format!("// metamorph: {}", v.name))
        );
        assert!(v.name.starts_with(v.transformation.as_str()));
        assert_eq!(v.file_name, format!("fill.{}.lp", v.name));
        assert!(
            names.insert(v.name.clone()),
            "two variants named {}",
            v.name
        );
        assert!(parse(&SourceFile::new(v.file_name.as_str(), v.source.as_str())).is_ok());
    }
}

#[test]
fn system_includes_stay_and_other_directives_prevent_variants() {
    let src = "// expect: safe\n#include <assert.h>\nint main() {\n  int i;\n  for (i = 0; i < 3; i++) ;\n  assert(i == 3);\n  return 0;\n}\n";
    let v = variant("t.c", src, "for_to_while").expect("a for loop");
    assert!(v.source.contains("\n#include <assert.h>\n"), "{}", v.source);
    assert!(all("t.c", &src.replace("#include <assert.h>", "#define N 3")).is_empty());
    assert!(all("t.c", &src.replace("<assert.h>", "\"x.h\"")).is_empty());
    // No main, or no parse: nothing.
    assert!(all("t.c", "// expect: safe\nvoid f() {}\n").is_empty());
    assert!(all("t.c", "// expect: safe\nvoid main() { x = ; }\n").is_empty());
}

#[test]
fn const_to_param_replaces_the_bound_and_its_predecessor() {
    let b = body("fill.lp", FILL_SAFE, "const_to_param_100");
    assert_contains(
        &b,
        &[
            "int n; n = u; assume(0 < n && n <= 100);",
            "int a[100];",
            "for (i = 0; i < n; i++)",
            "assume(0 <= j && j <= n - 1);",
        ],
    );
    assert_lacks(&b, &["99"]);
}

#[test]
fn const_to_param_in_c_returns_early_and_avoids_taken_names() {
    let src = "// expect: unsafe
int main() {
  int n = 5, i, s = 0;
  for (i = 0; i < 10; i++)
    s = s + 3;
  __VERIFIER_assert(s != 30);
  return 0;
}
";
    let b = body("t.c", src, "const_to_param_10");
    assert_contains(
        &b,
        &[
            "int n_1 = __VERIFIER_nondet_int(); if (!(0 < n_1 && n_1 <= 10)) return 0;",
            "i < n_1",
        ],
    );
}

#[test]
fn const_to_param_keeps_safe_only_for_uniform_programs() {
    // The sum's 450 depends on the bound: not uniform.
    let sum = "// expect: safe
void main() {
  int i, s;
  s = 0;
  for (i = 0; i < 100; i++)
    s = s + 1;
  assert(s <= 450);
}
";
    assert!(!applied("s.lp", sum).contains(&Transformation::ConstToParam));
    // UNSAFE: the original is among the new behaviours (n = 100).
    let unsafe_sum = sum.replace("safe", "unsafe").replace("450", "50");
    assert!(applied("s.lp", &unsafe_sum).contains(&Transformation::ConstToParam));
    // A small bound, a constant index, a factor equal to the bound, a narrow C type.
    let small = FILL_SAFE.replace("100", "8").replace("99", "7");
    assert!(!applied("s.lp", &small).contains(&Transformation::ConstToParam));
    let index = FILL_SAFE.replace("assert(a[j] == 0);", "assert(a[j] == a[3]);");
    assert!(!applied("s.lp", &index).contains(&Transformation::ConstToParam));
    let factor = FILL_SAFE.replace("a[i] = 0;", "a[i] = 100 * i;");
    assert!(!applied("s.lp", &factor).contains(&Transformation::ConstToParam));
    let narrow = "// expect: safe
int main() {
  unsigned char c = 0;
  int i;
  for (i = 0; i < 300; i++) c++;
  __VERIFIER_assert(c == 44);
  return 0;
}
";
    assert!(!applied("c.c", narrow).contains(&Transformation::ConstToParam));
    // No header: only exact rewrites.
    let plain: String = FILL_SAFE.lines().skip(1).collect::<Vec<_>>().join("\n");
    assert!(!applied("s.lp", &plain).contains(&Transformation::ConstToParam));
    assert!(applied("s.lp", &plain).contains(&Transformation::Rename));
}

#[test]
fn param_to_const_fixes_a_bounded_input() {
    let src = "// expect: safe
void main() {
  int n, i;
  n = u;
  assume(0 <= n && n < 50);
  i = 0;
  while (i < n) i = i + 1;
  assert(i == n);
}
";
    let b = body("p.lp", src, "param_to_const_n");
    assert_contains(&b, &["n = 49;", "assume(0 <= n && n < 50);"]);
    let c = "// expect: safe
int main() {
  int n = __VERIFIER_nondet_int();
  if (n <= 0 || n > 100000) return 0;
  int i = 0;
  while (i < n) i++;
  __VERIFIER_assert(i == n);
  return 0;
}
";
    assert_contains(
        &body("p.c", c, "param_to_const_n"),
        &["int n = 100000;", "if (n <= 0 || n > 100000)"],
    );
    // It removes behaviours: never for UNSAFE programs; and not without an upper bound.
    assert!(
        !applied("p.lp", &src.replace("safe", "unsafe")).contains(&Transformation::ParamToConst)
    );
    let unbounded = src.replace("assume(0 <= n && n < 50);", "assume(0 <= n);");
    assert!(!applied("p.lp", &unbounded).contains(&Transformation::ParamToConst));
}

/// A local array written at one cell only.
const PARTIAL: &str = "// expect: safe
void main() {
  int a[4];
  int k;
  a[0] = 1;
  k = u;
  assume(0 <= k && k < 1);
  assert(a[k] == 1);
}
";

#[test]
fn local_to_global_keeps_safe_or_needs_all_cells_written_first() {
    let b = body("l.lp", PARTIAL, "local_to_global_a");
    assert!(b.starts_with("int a[4];\n\nvoid main() {"), "{b}");
    assert!(!b.contains("    int a[4];"), "{b}");
    // UNSAFE: the arbitrary cells may matter, so only when every cell is written first.
    let unsafe_partial = PARTIAL.replace("safe", "unsafe").replace("k < 1", "k < 2");
    assert!(!applied("l.lp", &unsafe_partial).contains(&Transformation::LocalToGlobal));
    let written = "// expect: unsafe
void main() {
  int i, a[4], k;
  i = 0;
  while (i < 4) { a[i] = 2; i = i + 1; }
  k = u;
  assume(0 <= k && k <= 4);
  assert(a[k] == 2);
}
";
    let b = body("w.lp", written, "local_to_global_a");
    assert_contains(&b, &["int a[4];", "int i, k;"]);
    // A name declared twice (here in another procedure) stays.
    let twice = PARTIAL.replace("void main()", "void f() { int a; a = 1; }\nvoid main()");
    assert!(!applied("l.lp", &twice).contains(&Transformation::LocalToGlobal));
}

#[test]
fn global_to_local_keeps_unsafe_or_needs_all_cells_written_first() {
    let src = "// expect: unsafe
int g[3];
void main() {
  g[0] = 1;
  if (g[0] == 1)
    ERROR: ;
}
";
    let b = body("g.c", src, "global_to_local_g");
    assert_contains(&b, &["void main() { int g[3]; g[0] = 1;"]);
    assert!(
        !applied("g.c", &src.replace("unsafe", "safe")).contains(&Transformation::GlobalToLocal)
    );
    let written = "// expect: safe
int g[3];
void main() {
  int i;
  for (i = 0; i < 3; i++) g[i] = i;
  assert(g[2] == 2);
}
";
    assert!(applied("g.c", written).contains(&Transformation::GlobalToLocal));
    // Another procedure uses it: it stays global.
    let shared = written.replace("void main()", "int get() { return g[0]; }\nvoid main()");
    assert!(!applied("g.c", &shared).contains(&Transformation::GlobalToLocal));
}

const SUM: &str = "// expect: safe
void main() {
  int i, s;
  s = 0;
  for (i = 0; i < 10; i++)
    s = s + i;
  assert(s == 45);
}
";

#[test]
fn for_to_while_is_exact_text() {
    assert_eq!(
        body("s.lp", SUM, "for_to_while"),
        "void main() {
    int i, s;
    s = 0;
    {
        i = 0;
        while (i < 10) {
            s = s + i;
            i++;
        }
    }
    assert(s == 45);
}"
    );
    // A `continue` would skip the step in a while.
    let cont = SUM.replace("s = s + i;", "{ if (i == 3) continue; s = s + i; }");
    assert!(!applied("s.lp", &cont).contains(&Transformation::ForToWhile));
    // A `continue` of an inner loop does not matter.
    let inner = SUM.replace("s = s + i;", "{ while (s < 0) { continue; } s = s + i; }");
    assert!(applied("s.lp", &inner).contains(&Transformation::ForToWhile));
}

#[test]
fn while_to_for_takes_the_init_and_the_step() {
    let src = "// expect: safe
void main() {
  int i, s;
  s = 0;
  i = 0;
  while (i < 10) {
    s = s + i;
    i = i + 1;
  }
  assert(s == 45);
}
";
    assert_eq!(
        body("w.lp", src, "while_to_for"),
        "void main() {
    int i, s;
    s = 0;
    for (i = 0; i < 10; i = i + 1) {
        s = s + i;
    }
    assert(s == 45);
}"
    );
    let cont = src.replace(
        "s = s + i;",
        "if (i == 3) { i = i + 1; continue; } s = s + i;",
    );
    assert_contains(
        &body("w.lp", &cont, "while_to_for"),
        &["for (i = 0; i < 10;) {"],
    );
}

#[test]
fn body_to_proc_moves_the_last_check() {
    let b = body("s.lp", SUM, "body_to_proc");
    assert_contains(
        &b,
        &["void check(int s) { assert(s == 45); }", "check(s);\n}"],
    );
    // An ERROR branch, and an array written all first (moved to file scope with it).
    let src = "// expect: unsafe
void main() {
  int i, a[3], k;
  for (i = 0; i < 3; i++) a[i] = i;
  k = u;
  if (a[k] > 1) { ERROR: ; }
}
";
    let b = body("e.lp", src, "body_to_proc");
    assert_contains(
        &b,
        &[
            "int a[3];",
            "void check(int k) { if (a[k] > 1) { ERROR: ; } }",
            "int i, k;",
            "check(k);",
        ],
    );
    // An array of main read arbitrary first: not for UNSAFE; a variable-length one: never.
    let arbitrary = src.replace("for (i = 0; i < 3; i++) a[i] = i;", "a[0] = 0;");
    assert!(!applied("e.lp", &arbitrary).contains(&Transformation::BodyToProc));
    let vla = "// expect: safe
int main() {
  int n = __VERIFIER_nondet_int();
  if (n <= 0 || n > 10) return 0;
  int a[n];
  a[0] = 1;
  __VERIFIER_assert(a[0] == 1);
  return 0;
}
";
    assert!(!applied("v.c", vla).contains(&Transformation::BodyToProc));
}

#[test]
fn rename_renames_locals_only() {
    let src = "// expect: safe
int g;
int f(int x) { int y; y = x + g; return y; }
void main() {
  int i, a[2];
  i = u;
  a[0] = f(i);
  assert(a[0] == i + g);
}
";
    let b = body("r.lp", src, "rename");
    assert_contains(
        &b,
        &[
            "int f(int idx_x) { int idx_y; idx_y = idx_x + g; return idx_y; }",
            "int idx_i, idx_a[2];",
            "idx_i = u;",
            "idx_a[0] = f(idx_i);",
            "assert(idx_a[0] == idx_i + g);",
        ],
    );
    // A local with a global's name keeps it.
    let shadow = src
        .replace("int y;", "int g;")
        .replace("y = x + g; return y;", "g = x; return g;");
    assert_contains(
        &body("r.lp", &shadow, "rename"),
        &["int g; g = idx_x; return g;"],
    );
}

#[test]
fn extra_counter_counts_every_loop() {
    let src = SUM.replace("int i, s;", "int i, s, extra;");
    let b = body("s.lp", &src, "extra_counter");
    assert_contains(
        &b,
        &[
            "int extra_1 = 0;",
            "for (i = 0; i < 10; i++) { extra_1 = extra_1 + 1; s = s + i; }",
        ],
    );
    let none = "// expect: safe\nvoid main() { assert(1); }\n";
    assert!(!applied("n.lp", none).contains(&Transformation::ExtraCounter));
}

#[test]
fn scale_size_multiplies_the_size_and_its_bounds() {
    let b = body("fill.lp", FILL_SAFE, "scale_size_10");
    assert_contains(&b, &["int a[1000];", "i < 1000;", "j <= 999"]);
    let b = body("fill.lp", FILL_SAFE, "scale_size_1000");
    assert_contains(&b, &["int a[100000];", "i < 100000;", "j <= 99999"]);
    // Not for UNSAFE programs, nor arrays of two sizes.
    let unsafe_fill = FILL_SAFE.replace("safe", "unsafe");
    assert!(!applied("f.lp", &unsafe_fill).contains(&Transformation::ScaleSize10));
    let two = FILL_SAFE.replace("int i, j;", "int i, j, b[7];");
    assert!(!applied("f.lp", &two).contains(&Transformation::ScaleSize10));
}

#[test]
fn check_all_cells_loops_over_the_range() {
    let b = body("fill.lp", FILL_SAFE, "check_all_cells");
    assert_contains(&b, &["for (j = 0; j <= 99; j++) assert(a[j] == 0);\n}"]);
    assert_lacks(&b, &["j = u;", "assume"]);
    let c = "// expect: safe
int main() {
  int n = __VERIFIER_nondet_int();
  if (n <= 0 || n > 10) return 0;
  int a[n];
  for (int i = 0; i < n; i++) a[i] = 0;
  int j = __VERIFIER_nondet_int();
  if (j < 0 || j >= n) return 0;
  __VERIFIER_assert(a[j] == 0);
  return 0;
}
";
    assert_contains(
        &body("c.c", c, "check_all_cells"),
        &["for (int j = 0; j < n; j++) __VERIFIER_assert(a[j] == 0); return 0;"],
    );
    // `j` outside an index, `j` used afterwards, a check after it: no variant.
    let direct = FILL_SAFE.replace("a[j] == 0", "a[j] == j - j");
    assert!(!applied("f.lp", &direct).contains(&Transformation::CheckAllCells));
    let later = FILL_SAFE.replace("assert(a[j] == 0);", "assert(a[j] == 0);\n  i = j;");
    assert!(!applied("f.lp", &later).contains(&Transformation::CheckAllCells));
    let then = FILL_SAFE.replace(
        "assert(a[j] == 0);",
        "assert(a[j] == 0);\n  assert(i == 100);",
    );
    assert!(!applied("f.lp", &then).contains(&Transformation::CheckAllCells));
    // Inside a loop the triple runs again: no variant.
    let looped = "// expect: safe
void main() {
  int a[3], r, j;
  a[0] = 0; a[1] = 0; a[2] = 0;
  for (r = 0; r < 2; r++) {
    j = u;
    assume(0 <= j && j < 3);
    assert(a[j] == 0);
  }
}
";
    assert!(!applied("l.lp", looped).contains(&Transformation::CheckAllCells));
}

/// The variant named `name`'s program text (as [`body`]), after checking that the whole
/// variant parses (`metamorph` comes before `sema` in the pipeline; tests/metamorphic.rs
/// loads every variant of lp-programs/).
fn loaded(file: &str, src: &str, name: &str) -> String {
    let b = body(file, src, name);
    let v = variant(file, src, name).expect("body found it");
    if let Err(e) = parse(&SourceFile::new(v.file_name.as_str(), v.source.as_str())) {
        panic!("{name} does not parse: {e:?}\n{}", v.source);
    }
    b
}

/// A copy loop, with the counter set again afterwards.
const COPY: &str = "// expect: safe
void main() {
  int a[10], b[10];
  int i, j;
  for (i = 0; i < 10; i++)
    b[i] = a[i];
  i = 0;
  j = u;
  assume(0 <= j && j < 10);
  assert(b[j] == a[j]);
}
";

#[test]
fn copy_counts_down_reverses_independent_iterations() {
    let b = loaded("c.lp", COPY, "copy_counts_down");
    assert_contains(&b, &["for (i = 9; i >= 0; i--) b[i] = a[i]; i = 0;"]);
    // The while form, from a start other than 0 and to a symbolic bound.
    let w = "// expect: safe
void main() {
  int a[100], b[100];
  int i, n;
  n = u;
  assume(0 <= n && n <= 100);
  i = 2;
  while (i < n) { a[i] = b[i] + i; i = i + 1; }
}
";
    assert_contains(
        &loaded("w.lp", w, "copy_counts_down"),
        &["i = n - 1; while (i >= 2) { a[i] = b[i] + i; i = i - 1; }"],
    );
    // C: under `c < E` for a symbolic bound, not for a literal one.
    let c = "// expect: safe
int main() {
  int n = __VERIFIER_nondet_int();
  if (n <= 0 || n > 1000) return 0;
  int a[n], b[1000];
  for (int i = 0; i < n; i++) a[i] = __VERIFIER_nondet_int();
  for (int i = 0; i < 1000; i++) b[i] = 7;
  int j = __VERIFIER_nondet_int();
  if (j < 0 || j >= n) return 0;
  __VERIFIER_assert(b[j] == 7);
  return 0;
}
";
    assert_contains(
        &loaded("c.c", c, "copy_counts_down"),
        &[
            "if (0 < n) for (int i = n - 1; i >= 0; i--) a[i] = __VERIFIER_nondet_int();",
            "for (int i = 999; i >= 0; i--) b[i] = 7;",
        ],
    );
    // The counter read after the loop; a body reading the array it writes at another
    // index; a step other than +1; an unsigned counter in C: no variant.
    let after = COPY
        .replace("i = 0;\n", "")
        .replace("a[j]);", "a[j] + i - 10);");
    assert!(!applied("c.lp", &after).contains(&Transformation::CopyCountsDown));
    let shifted = COPY.replace("b[i] = a[i];", "b[i] = b[i - 1];");
    assert!(!applied("c.lp", &shifted).contains(&Transformation::CopyCountsDown));
    let two = COPY.replace("i++", "i += 2");
    assert!(!applied("c.lp", &two).contains(&Transformation::CopyCountsDown));
    let unsigned = c.replace(
        "for (int i = 0; i < 1000; i++) b[i] = 7;",
        "for (unsigned k = 0; k < 1000; k++) b[k] = 7;",
    );
    let b = body("u.c", &unsigned, "copy_counts_down");
    assert_contains(&b, &["for (unsigned k = 0; k < 1000; k++) b[k] = 7;"]);
    // Another array may be read anywhere.
    let other = COPY.replace("b[i] = a[i];", "b[i] = a[9 - i];");
    assert_contains(
        &loaded("c.lp", &other, "copy_counts_down"),
        &["for (i = 9; i >= 0; i--) b[i] = a[9 - i];"],
    );
}

/// A copy in C from an array made symbolic by a call.
const COPY_C: &str = "// expect: safe
int main() {
  int a[10], b[10];
  int i;
  klee_make_symbolic(a, sizeof(a), \"a\");
  for (i = 0; i < 10; i++) b[i] = a[i];
  int j = __VERIFIER_nondet_int();
  if (j < 0 || j >= 10) return 0;
  __VERIFIER_assert(b[j] == a[j]);
  return 0;
}
";

#[test]
fn offset_both_indices_moves_every_access() {
    let b = loaded("c.lp", COPY, "offset_both_indices_b");
    assert_contains(
        &b,
        &[
            "int a[10], b[13];",
            "b[i + 3] = a[i];",
            "assert(b[j + 3] == a[j]);",
        ],
    );
    assert_lacks(&b, &["a[i + 3]", "b[i] "]);
    // C, with a check loop reading a shifted index and an early exit bounding the input.
    let c = "// expect: safe
int main() {
  int a[100], b[100];
  for (int i = 0; i < 100; i++) b[i] = a[i];
  for (int k = 0; k < 99; k++) __VERIFIER_assert(b[k + 1] == a[k + 1]);
  int j = __VERIFIER_nondet_int();
  if (j < 0 || j >= 100) return 0;
  __VERIFIER_assert(b[99 - j] == a[99 - j]);
  return 0;
}
";
    assert_contains(
        &loaded("c.c", c, "offset_both_indices_b"),
        &[
            "int a[100], b[103];",
            "b[i + 3] = a[i];",
            "b[k + 4] == a[k + 1]",
            "b[99 - j + 3] == a[99 - j]",
        ],
    );
    // An index that may be negative (only bounded above), an array passed to a
    // procedure, an initialiser: no variant.
    let negative = COPY.replace("0 <= j && j < 10", "j < 10");
    assert!(!applied("c.lp", &negative).contains(&Transformation::OffsetBothIndices));
    assert_contains(
        &loaded("k.c", COPY_C, "offset_both_indices_b"),
        &["b[i + 3] = a[i];"],
    );
    let passed = COPY_C.replace("(a, sizeof(a)", "(b, sizeof(b)");
    assert!(!applied("k.c", &passed).contains(&Transformation::OffsetBothIndices));
    let init = COPY.replace("b[10];", "b[10] = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0};");
    assert!(!applied("c.lp", &init).contains(&Transformation::OffsetBothIndices));
}

#[test]
fn stride_2_doubles_the_arrays_and_the_loops_steps() {
    let b = loaded("c.lp", COPY, "stride_2");
    assert_contains(
        &b,
        &[
            "int a[20], b[20];",
            "for (i = 0; i < 20; i = i + 2) b[i] = a[i];",
            "assert(b[2 * j] == a[2 * j]);",
        ],
    );
    // The counter used as a value, or after the loop: the loop keeps its step and the
    // accesses double.
    let value = COPY.replace("b[i] = a[i];", "b[i] = a[i] + i;");
    assert_contains(
        &loaded("c.lp", &value, "stride_2"),
        &["for (i = 0; i < 10; i++) b[2 * i] = a[2 * i] + i;"],
    );
    let after = COPY
        .replace("i = 0;\n", "")
        .replace("a[j]);", "a[j] + i - 10);");
    assert_contains(
        &loaded("c.lp", &after, "stride_2"),
        &["for (i = 0; i < 10; i++) b[2 * i] = a[2 * i];"],
    );
    // A while loop in C, with literal bounds; `b[2 * i + 1]` uses `i` as a value, and
    // that loop keeps its step.
    let c = "// expect: safe
int main() {
  int a[50], b[100];
  int i = 0;
  while (i < 50) { a[i] = 3; i++; }
  for (int k = 0; k < 50; k++) a[k] = b[2 * k + 1];
  int j = __VERIFIER_nondet_int();
  if (j < 0 || j >= 50) return 0;
  __VERIFIER_assert(a[j] == b[2 * j + 1]);
  return 0;
}
";
    assert_contains(
        &loaded("c.c", c, "stride_2"),
        &[
            "int a[100], b[200];",
            "int i = 0; while (i < 100) { a[i] = 3; i = i + 2; }",
            "for (int k = 0; k < 50; k++) a[2 * k] = b[2 * (2 * k + 1)];",
            "__VERIFIER_assert(a[2 * j] == b[2 * (2 * j + 1)]);",
        ],
    );
    // An array passed to a procedure is not doubled, nor a loop indexing it strided.
    let b = loaded("k.c", COPY_C, "stride_2");
    assert_contains(
        &b,
        &[
            "int a[10], b[20];",
            "for (i = 0; i < 10; i++) b[2 * i] = a[i];",
            "__VERIFIER_assert(b[2 * j] == a[j]);",
        ],
    );
    assert!(!applied(
        "c.lp",
        "// expect: safe\nvoid main() { int x; x = 1; assert(x == 1); }\n"
    )
    .contains(&Transformation::Stride2));
}

#[test]
fn swap_check_operands_flips_the_comparisons() {
    let b = loaded("c.lp", COPY, "swap_check_operands");
    assert_contains(&b, &["assert(a[j] == b[j]);"]);
    let src = "// expect: unsafe
int main() {
  int x = __VERIFIER_nondet_int(), y = 3;
  __VERIFIER_assert(x < 10 && !(y >= x));
  if (x <= y - 1) {
    ERROR: ;
  }
  return 0;
}
";
    assert_contains(
        &loaded("s.c", src, "swap_check_operands"),
        &[
            "__VERIFIER_assert(10 > x && !(x <= y));",
            "if (y - 1 >= x) { ERROR: ; }",
            "int x = __VERIFIER_nondet_int(), y = 3;",
        ],
    );
    // A condition with an effect, or with no comparison: no variant.
    let effect = "// expect: safe
int f(int v) { return v; }
int main() {
  int x = 1;
  __VERIFIER_assert(f(x) == 1);
  __VERIFIER_assert(x);
  return 0;
}
";
    assert!(!applied("e.c", effect).contains(&Transformation::SwapCheckOperands));
}

/// Every variant of every lp-program parses, differs from the others, and each
/// transformation applies somewhere.
#[test]
fn the_lp_programs_have_variants_of_every_kind() {
    let mut seen = BTreeSet::new();
    for path in crate::testutil::sources(&crate::testutil::lp_dir()) {
        if path.components().any(|c| c.as_os_str() == "errors") {
            continue;
        }
        let text = std::fs::read_to_string(&path).expect("readable");
        let name = path.display().to_string();
        let vs = variants(&name, &text);
        let sources: BTreeSet<&str> = vs.iter().map(|v| v.source.as_str()).collect();
        assert_eq!(sources.len(), vs.len(), "{name}: two equal variants");
        for v in &vs {
            seen.insert(v.transformation);
            if let Err(d) = parse(&SourceFile::new(v.file_name.as_str(), v.source.as_str())) {
                let f = SourceFile::new(v.file_name.as_str(), v.source.as_str());
                panic!("{}: {}\n{}", v.file_name, d.render(&f, false), v.source);
            }
        }
    }
    for t in Transformation::ALL {
        assert!(seen.contains(&t), "no lp-program has a {t} variant");
    }
}
