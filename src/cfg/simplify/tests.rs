use super::simplify;
use crate::cfg::{instrument_bounds, ArrayBounds, Cfg, NodeKind};
use crate::sema::{Expr, IntModel, SemaOptions};

/// The CFG of C source `src` with its accesses guarded (C's default), simplified.
fn simplified(src: &str) -> Cfg {
    let file = crate::diag::SourceFile::new("t.c", src);
    let ast = crate::syntax::parse(&file).expect("parses");
    let opts = SemaOptions {
        int_model: IntModel::C,
        ..Default::default()
    };
    let a = crate::sema::analyze_with(&ast, &opts).expect("resolves");
    let mut cfg = instrument_bounds(&Cfg::build(&a.program), ArrayBounds::Undefined)
        .expect("accesses can be guarded");
    simplify(&mut cfg);
    cfg
}

/// The tests of the simplified CFG whose guard reads an array.
fn array_tests(cfg: &Cfg) -> usize {
    cfg.nodes
        .iter()
        .filter(|n| match &n.kind {
            NodeKind::Branch { cond, .. } => {
                let mut reads = false;
                cond.visit(&mut |e| reads |= matches!(e, Expr::Read(..)));
                reads
            }
            _ => false,
        })
        .count()
}

/// The assignments to the variable named `name`.
fn assignments_to(cfg: &Cfg, name: &str) -> usize {
    cfg.nodes
        .iter()
        .filter(|n| matches!(&n.kind, NodeKind::Assign { lhs, .. } if lhs.iter().any(|v| cfg.vars[*v].name == name)))
        .count()
}

/// A nest that compares cells and sets a flag to the value it always has.
fn nest(init: i32) -> String {
    format!(
        "int main() {{ int a[10]; int i; int r = {init}; \
         for (i = 1; i < 10 && r; i++) {{ int j; \
           for (j = i - 1; j >= 0 && r; j--) {{ if (a[i] == a[j]) {{ r = 1; }} }} }} \
         return 0; }}"
    )
}

#[test]
fn a_flag_set_to_the_value_it_always_has_leaves_a_test_with_no_effect() {
    let cfg = simplified(&nest(1));
    assert_eq!(array_tests(&cfg), 0, "the comparison has no effect");
    assert_eq!(
        assignments_to(&cfg, "r"),
        1,
        "only `r = 1` at its declaration"
    );
    // The read into a temporary went with the test; the draw of `j` (an input) stays.
    let assigns = |what: fn(&Expr) -> bool| {
        cfg.nodes.iter().any(|n| {
            matches!(&n.kind,
            NodeKind::Assign { rhs, .. } if rhs.iter().any(what))
        })
    };
    assert!(!assigns(|e| matches!(e, Expr::Read(..))));
    assert!(assigns(|e| matches!(e, Expr::Undef)));
}

#[test]
fn a_flag_that_changes_keeps_its_test() {
    let cfg = simplified(&nest(0));
    assert_eq!(array_tests(&cfg), 1);
    assert_eq!(assignments_to(&cfg, "r"), 2);
}

#[test]
fn a_call_may_change_a_global() {
    let src = |call: &str| {
        format!(
            "int g; int a[4]; void f(int x) {{ if (x) g = 2; }} \
             int main() {{ int i; g = 1; {call} if (a[i]) {{ g = 1; }} return g; }}"
        )
    };
    let cfg = simplified(&src("f(a[i]);"));
    assert_eq!(
        array_tests(&cfg),
        1,
        "`g = 1` after the call is kept, and its test"
    );
    // Its zero initialisation, `g = 1` twice and `g = 2`.
    assert_eq!(assignments_to(&cfg, "g"), 4);
    let cfg = simplified(&src(""));
    assert_eq!(array_tests(&cfg), 0, "without the call, `g` is still 1");
    assert_eq!(assignments_to(&cfg, "g"), 3);
}

#[test]
fn a_test_that_may_overflow_becomes_the_assume_that_it_does_not() {
    let cfg = simplified("int main() { int x, k; int a[4]; if (x + 1 > a[k]) { } return 0; }");
    assert_eq!(array_tests(&cfg), 0);
    assert!(
        cfg.nodes.iter().any(|n| matches!(&n.kind,
            NodeKind::Assume { cond, .. } if format!("{cond:?}").contains("2147483647"))),
        "its overflow ends some executions"
    );
    // Evaluated only when `x > 0`: an assume would end the others.
    let cfg =
        simplified("int main() { int x; int a[4]; if (x > 0 && x + 1 > a[0]) { } return 0; }");
    assert_eq!(array_tests(&cfg), 1);
}

#[test]
fn a_draw_read_by_an_unsatisfiable_assume_is_kept() {
    let src = "extern void __VERIFIER_assume(int); \
               int main() { int i; for (i = 0; i < 3; i++) { int j; \
               __VERIFIER_assume(j > 5 && j < 3); } return 0; }";
    let cfg = simplified(src);
    assert!(
        cfg.nodes.iter().any(|n| matches!(&n.kind,
            NodeKind::Assume { cond, .. } if format!("{cond:?}").contains("Const(5)"))),
        "the user's assume stays"
    );
    assert!(cfg
        .nodes
        .iter()
        .any(|n| matches!(&n.kind, NodeKind::Assign { rhs, .. } if rhs.contains(&Expr::Undef))));
}
