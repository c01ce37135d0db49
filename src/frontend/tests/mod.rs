//! Front-end behaviour: our programs and every shared benchmark load (or are reported
//! unsupported), bad programs give a diagnostic at the right line and column, and the
//! interpreter reaches the error of the deterministic EUREKA programs exactly when they
//! are unsafe. (`tests/frontend.rs`: diagnostics through the public API.)

use crate::diag::SourceFile;
use crate::frontend::{load, load_path};
use crate::interp::{run, Limits, ListOracle, Outcome};
use crate::testutil::require_benchmarks;

mod real_c;

#[test]
fn our_programs_load_without_unsupported_constructs() {
    let files: Vec<_> = crate::testutil::sources(&crate::testutil::lp_dir())
        .into_iter()
        .filter(|p| !p.to_string_lossy().contains("/errors/"))
        .collect();
    assert!(files.len() >= 30, "only {} programs", files.len());
    for f in files {
        let expect = crate::testutil::header(&f, "expect")
            .unwrap_or_else(|| panic!("{} has no `// expect:` header", f.display()));
        assert!(
            ["safe", "unsafe", "unknown"].contains(&expect.as_str()),
            "{}: bad header {expect}",
            f.display()
        );
        match load_path(&f) {
            Ok(l) => assert!(
                l.analysis.unsupported.is_empty(),
                "{}: {:?}",
                f.display(),
                l.analysis.unsupported
            ),
            Err(e) => panic!("{}:\n{}", f.display(), e.render(false)),
        }
    }
}

#[test]
fn every_shared_benchmark_loads_or_is_unsupported_with_a_span() {
    let dir = require_benchmarks!("every_shared_benchmark_loads_or_is_unsupported_with_a_span");
    let files = crate::testutil::sources(&dir);
    assert!(files.len() >= 50, "only {} benchmarks", files.len());
    for f in files {
        match load_path(&f) {
            Ok(l) => {
                for u in &l.analysis.unsupported {
                    assert!(
                        !u.construct.is_empty() && u.span.end > u.span.start,
                        "{}: {u:?}",
                        f.display()
                    );
                }
            }
            Err(e) => panic!("{}:\n{}", f.display(), e.render(false)),
        }
    }
}

#[test]
fn deterministic_eureka_programs_reach_the_error_exactly_when_unsafe() {
    let dir =
        require_benchmarks!("deterministic_eureka_programs_reach_the_error_exactly_when_unsafe")
            .join("eureka");
    let cases = [
        ("array_init_klee.c", false),
        ("array_init_assign_klee.c", false),
        ("sequential_swap_klee.c", false),
        ("simple_array_inversion_klee.c", false),
        ("bubblesort_inner_loop_klee.c", true),
        ("wrong_loop_klee.c", true),
        ("loop_on_input_klee.c", true),
    ];
    for (name, unsafe_) in cases {
        let l =
            load_path(&dir.join(name)).unwrap_or_else(|e| panic!("{name}: {}", e.render(false)));
        let r = run(
            &l.cfg,
            &mut ListOracle::new(vec![]),
            Limits::default(),
            false,
        );
        assert_eq!(
            matches!(r.outcome, Outcome::Error { .. }),
            unsafe_,
            "{name}: {:?}",
            r.outcome
        );
    }
}

#[test]
fn unsupported_constructs_are_named_with_their_position() {
    let src = "struct s { int a; };\nint main() {\n  float f;\n  int *p;\n  return 0;\n}\n";
    let l = load(SourceFile::new("u.c", src)).unwrap_or_else(|e| panic!("{}", e.render(false)));
    let names: Vec<&str> = l
        .analysis
        .unsupported
        .iter()
        .map(|u| u.construct.as_str())
        .collect();
    assert!(names.iter().any(|n| n.contains("float")), "{names:?}");
    assert!(names.iter().any(|n| n.contains("pointer")), "{names:?}");
    let why =
        crate::frontend::unsupported_reason(&l.file, &l.analysis.unsupported).expect("a reason");
    assert!(why.contains("3:"), "{why}");
}

#[test]
fn u_is_the_undefined_value_unless_a_variable_u_is_in_scope() {
    let undef = load(SourceFile::new(
        "a.lp",
        "void main() { int x; x = u; if (x == 3) { ERROR: ; } }",
    ))
    .expect("loads");
    let r = run(
        &undef.cfg,
        &mut ListOracle::new(vec![0.into(), 3.into()]),
        Limits::default(),
        false,
    );
    assert!(
        matches!(r.outcome, Outcome::Error { .. }),
        "{:?}",
        r.outcome
    );
    let var = load(SourceFile::new(
        "b.lp",
        "void main() { int u, x; u = 5; x = u; if (x != 5) { ERROR: ; } }",
    ))
    .expect("loads");
    let r = run(
        &var.cfg,
        &mut ListOracle::new(vec![3.into(), 3.into(), 3.into()]),
        Limits::default(),
        false,
    );
    assert_eq!(r.outcome, Outcome::Finished);
}

/// The reads of one node at different indices: all but the first index's move to
/// temporaries just before the node (so the read rule of symbolic cells sees one index
/// per node), except a read that C evaluates only conditionally.
#[test]
fn reads_at_two_indices_are_split_unless_conditional() {
    use crate::cfg::NodeKind;
    use crate::sema::Expr;
    let src = "void main() { int a[10]; int i, j; i = u; j = u;\n\
               assert(a[i] <= a[j] + a[i]);\n\
               assume(i < 5 && a[i] < a[j]);\n\
               if (a[0] == a[1]) { i = 0; } }";
    let cfg = load(SourceFile::new("split.lp", src)).expect("loads").cfg;
    let read_indices = |e: &Expr| {
        let mut out = Vec::new();
        e.visit(&mut |x| {
            if let Expr::Read(_, i) = x {
                out.push((**i).clone());
            }
        });
        out
    };
    let mut branch_reads = Vec::new();
    let mut hoisted = Vec::new();
    for node in cfg.nodes.iter() {
        match &node.kind {
            NodeKind::Branch { cond, .. } | NodeKind::Assume { cond, .. } => {
                branch_reads.push(read_indices(cond))
            }
            NodeKind::Assign { lhs, rhs, next } if cfg.vars[lhs[0]].name == "#read" => {
                hoisted.push(read_indices(&rhs[0]));
                // The temporary is read by the very next node.
                let used = match &cfg.nodes[*next].kind {
                    NodeKind::Branch { cond, .. } | NodeKind::Assume { cond, .. } => cond.vars(),
                    k => panic!("{k:?} after a hoisted read"),
                };
                assert!(used.contains(&lhs[0]), "{}", crate::cfg::to_text(&cfg));
            }
            _ => {}
        }
    }
    let (i, j) = (
        Expr::Var(
            cfg.vars
                .indices()
                .find(|v| cfg.vars[*v].name == "i")
                .unwrap(),
        ),
        Expr::Var(
            cfg.vars
                .indices()
                .find(|v| cfg.vars[*v].name == "j")
                .unwrap(),
        ),
    );
    // assert: a[j] hoisted, both reads of a[i] stay; assume: a[j] is under `&&`, stays;
    // if: a[1] hoisted.
    assert_eq!(
        hoisted,
        vec![vec![j.clone()], vec![Expr::int(1)]],
        "{}",
        crate::cfg::to_text(&cfg)
    );
    assert!(
        branch_reads.contains(&vec![i.clone(), i.clone()]),
        "{branch_reads:?}"
    );
    assert!(
        branch_reads.contains(&vec![i.clone(), j.clone()]),
        "{branch_reads:?}"
    );
    assert!(
        branch_reads.contains(&vec![Expr::int(0)]),
        "{branch_reads:?}"
    );
}
