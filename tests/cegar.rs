//! The refinement loop on the paper's Fig. 1 and friends: the number of refinements and
//! the cells they add, the printed abstractions, array-size independence, the replay
//! guard on UNSAFE, and `--check-bounds`.

mod common;

use common::lp_dir;
use lpmc::Outcome;
use lpmc::SourceFile;
use lpmc::Verdict;
use lpmc::{CheckOptions, Report};
use std::collections::BTreeMap;

fn check_src(src: &str, opts: &CheckOptions) -> Report {
    let loaded = lpmc::load(SourceFile::new("t.lp", src))
        .unwrap_or_else(|e| panic!("does not load:\n{}", e.render(false)));
    lpmc::check(&loaded, opts)
}

/// Program `p` checked by the CEGAR engine alone (60 s), or `None` if its header says it
/// is open (lpmc cannot decide it yet): then it is checked for 5 s and must not be UNSAFE
/// (its expectation is SAFE). A program whose header says it is slow (decided, but in
/// tens of seconds: a benchmark, `cargo bench --bench slow_tail`) is checked only with
/// `LPMC_SLOW=1`, without a time limit; else `None`, with one printed line.
fn check_unless_open(p: &std::path::Path) -> Option<Report> {
    let name = p.file_name().unwrap().to_string_lossy().to_string();
    let open = common::header(p, "open").is_some();
    let slow = common::header(p, "slow");
    if let Some(why) = &slow {
        if std::env::var_os("LPMC_SLOW").is_none() {
            println!("skipping {name} (slow: {why}); LPMC_SLOW=1 checks it");
            return None;
        }
    }
    let src = std::fs::read_to_string(p).expect("program");
    let loaded = lpmc::load(SourceFile::new(&name, &src))
        .unwrap_or_else(|e| panic!("{name} does not load:\n{}", e.render(false)));
    let opts = CheckOptions {
        timeout_s: match (open, &slow) {
            (true, _) => Some(5.0),
            (false, Some(_)) => None,
            (false, None) => Some(60.0),
        },
        ..Default::default()
    };
    let r = lpmc::check(&loaded, &opts);
    if open {
        assert_ne!(
            r.verdict(),
            Verdict::Unsafe,
            "{name}: {}",
            r.outcome.reason()
        );
        return None;
    }
    Some(r)
}

fn fig1(n: u64) -> String {
    let text = std::fs::read_to_string(lp_dir().join("fig1.lp")).expect("fig1.lp");
    text.replace("a[3]", &format!("a[{n}]"))
        .replace("i < 3", &format!("i < {n}"))
}

fn cells(pairs: &[(&str, &[i64])]) -> BTreeMap<String, Vec<i64>> {
    pairs
        .iter()
        .map(|(a, ks)| (a.to_string(), ks.to_vec()))
        .collect()
}

#[test]
fn fig1_is_safe_after_one_refinement_adding_a1() {
    let r = check_src(
        &fig1(3),
        &CheckOptions {
            show_abstractions: true,
            ..Default::default()
        },
    );
    assert_eq!(r.verdict(), Verdict::Safe, "{}", r.outcome.reason());
    assert_eq!(r.refinements, 1);
    assert_eq!(r.cells, cells(&[("a", &[1])]));
    // P̂0 abstracts the read to u and the writes to skips; P̂1 has the cell a_1.
    assert_eq!(r.abstractions.len(), 2);
    assert!(!r.abstractions[0].contains("a_1"));
    assert!(r.abstractions[0].contains("u"));
    assert!(
        r.abstractions[1].contains("a_1 = 1"),
        "{}",
        r.abstractions[1]
    );
    assert!(
        r.abstractions[1].contains("((i == 1) ? a_1 : u)"),
        "{}",
        r.abstractions[1]
    );
}

#[test]
fn fig1_verdict_and_cells_do_not_depend_on_the_array_size() {
    for n in [3u64, 10, 1000, 1_000_000] {
        let r = check_src(&fig1(n), &CheckOptions::default());
        assert_eq!(
            r.verdict(),
            Verdict::Safe,
            "N = {n}: {}",
            r.outcome.reason()
        );
        assert_eq!(r.refinements, 1, "N = {n}");
        assert_eq!(r.cells, cells(&[("a", &[1])]), "N = {n}");
    }
}

#[test]
fn an_unsafe_verdict_needs_a_replayed_trace() {
    let src = "void main() { int x, a[4]; x = u; a[2] = x; if (a[2] == 7) ERROR: ; }";
    let r = check_src(src, &CheckOptions::default());
    assert_eq!(r.verdict(), Verdict::Unsafe, "{}", r.outcome.reason());
    let t = r.outcome.counterexample().expect("trace");
    assert!(t.inputs.iter().any(|i| i.value == "7"), "{:?}", t.inputs);
    // A witness that does not replay is never UNSAFE: tests/solvers.rs injects a solver
    // that lies.
}

#[test]
fn refinement_without_progress_is_unknown_not_a_loop() {
    // The parity of x is beyond linear constraints, and there is no array to refine.
    let src = "void main() { int x; x = 2 * u; if (x % 2 == 1) ERROR: ; }";
    let r = check_src(src, &CheckOptions::default());
    assert_ne!(r.verdict(), Verdict::Unsafe, "{}", r.outcome.reason());
    let src = "void main() { int x, y; x = u; y = 2 * x; if (y == 2 * x + 1) ERROR: ; }";
    assert_eq!(
        check_src(src, &CheckOptions::default()).verdict(),
        Verdict::Safe
    );
}

#[test]
fn max_refinements_bounds_the_loop() {
    let r = check_src(
        &fig1(3),
        &CheckOptions {
            max_refinements: Some(0),
            ..Default::default()
        },
    );
    assert_eq!(r.verdict(), Verdict::Unknown);
    assert_eq!(
        r.outcome.give_up().map(|g| g.kind()),
        Some("budget"),
        "{}",
        r.outcome.reason()
    );
    assert!(
        r.outcome.reason().contains("refinements (0)"),
        "{}",
        r.outcome.reason()
    );
}

#[test]
fn check_bounds_turns_out_of_range_accesses_into_errors() {
    // `.lp` files: EUREKA's rule (a write outside does nothing) unless `--array-bounds
    // error` (`--check-bounds`) makes every access outside an error.
    let check = |src: &str, bounds: Option<lpmc::ArrayBounds>| {
        let opts = lpmc::LoadOptions {
            array_bounds: bounds,
            ..Default::default()
        };
        let loaded = lpmc::load_with(SourceFile::new("t.lp", src), &opts)
            .unwrap_or_else(|e| panic!("does not load:\n{}", e.render(false)));
        lpmc::check(&loaded, &CheckOptions::default())
    };
    let on = Some(lpmc::ArrayBounds::Error);
    let src = "void main() { int a[2] = {0, 0}; int i; i = 10; a[i] = 3; assert(a[0] == 0); }";
    assert_eq!(check(src, None).verdict(), Verdict::Safe);
    let r = check(src, on);
    assert_eq!(r.verdict(), Verdict::Unsafe, "{}", r.outcome.reason());
    assert!(r.outcome.counterexample().is_some_and(|c| c.bounds_error));
    // In-range accesses only: still safe with the checks.
    let ok =
        "void main() { int a[3]; int i; for (i = 0; i < 3; i++) a[i] = i; assert(a[1] == 1); }";
    assert_eq!(check(ok, on).verdict(), Verdict::Safe);
    // A read guarded by `&&` is only checked when it is evaluated.
    let guarded =
        "void main() { int a[3] = {1, 2, 3}; int i; i = 5; if (i < 3 && a[i] == 9) ERROR: ; }";
    assert_eq!(check(guarded, on).verdict(), Verdict::Safe);
    let unguarded =
        "void main() { int a[3] = {1, 2, 3}; int i; i = 5; if (a[i] == 9 && i < 3) ERROR: ; }";
    assert_eq!(check(unguarded, on).verdict(), Verdict::Unsafe);
}

#[test]
fn unsupported_constructs_are_unknown_with_a_position() {
    let r = check_src(
        "struct s { int x; };\nvoid main() { int *p; }",
        &CheckOptions::default(),
    );
    assert!(
        matches!(
            r.outcome.give_up(),
            Some(lpmc::GiveUp::Unsupported { line: 2, .. })
        ),
        "{}",
        r.outcome.reason()
    );
    assert!(r.outcome.reason().contains("2:"), "{}", r.outcome.reason());
}

/// Symbolic cells: a ∀-property of an array of any size (1000, 10^6, a
/// variable-length array of symbolic size) is proved by the CEGAR engine with one cell
/// `a_k` at a ghost index, after the same refinements whatever the size; the unsafe
/// twins are never SAFE.
#[test]
fn symbolic_cells_prove_forall_properties_whatever_the_size() {
    let run = |name: &str, timeout_s: f64| {
        let opts = CheckOptions {
            timeout_s: Some(timeout_s),
            ..Default::default()
        };
        let src = std::fs::read_to_string(lp_dir().join(name)).expect("program");
        let loaded = lpmc::load(SourceFile::new(name, &src))
            .unwrap_or_else(|e| panic!("{name} does not load:\n{}", e.render(false)));
        lpmc::check(&loaded, &opts)
    };
    let mut refinements = Vec::new();
    for name in [
        "sym_init_check.lp",
        "sym_init_check_1e6.lp",
        "sym_init_vla.c",
    ] {
        let r = run(name, 60.0);
        assert_eq!(r.verdict(), Verdict::Safe, "{name}: {}", r.outcome.reason());
        assert_eq!(r.symbolic_cells, vec!["a".to_string()], "{name}");
        // The invariant is stated over every cell, in the program's terms.
        let reason = r.outcome.reason();
        assert!(
            reason.contains("∀k.") && reason.contains("a[k]"),
            "{name}: {reason}"
        );
        // ... and after the loop in the ∀-form: every cell in range is 0.
        assert!(
            reason.contains("after the loop at line") && reason.contains("→ a[k] = 0"),
            "{name}: {reason}"
        );
        refinements.push(r.refinements);
    }
    assert_eq!(
        refinements[0], refinements[1],
        "size 1000 and 10^6 refine alike"
    );
    // A cell defined by the ghost (`a[k] = k`) is stated with the range of `k`, which an
    // equality with the cell no longer hides.
    let r = run("forall/sorted_index.c", 60.0);
    assert_eq!(r.verdict(), Verdict::Safe, "{}", r.outcome.reason());
    let reason = r.outcome.reason();
    // (The loop head's partition may state it in parts: `k = 0 → a[k] = 0` and
    // `n - k ≥ 1 ∧ k ≥ 1 → k - a[k] = 0`, with `n` the array's size. Where the refinement
    // path went through a second ghost, the cell at the upper one, `k2`, carries it.)
    let after = reason
        .split("; ")
        .find(|p| p.starts_with("after the loop"))
        .unwrap_or_else(|| panic!("no ∀ after the loop: {reason}"));
    let stated = |k: &str| {
        (after.contains(&format!("a#size - {k} ≥ 1")) || after.contains(&format!("n - {k} ≥ 1")))
            && after.contains(&format!("{k} - a[{k}] = 0"))
    };
    assert!(stated("k") || stated("k2"), "{reason}");
    for name in [
        "sym_init_check_unsafe.lp",
        "sym_init_vla_unsafe.c",
        "sym_read_out_of_range_unsafe.lp",
    ] {
        let r = run(name, 5.0);
        assert_ne!(r.verdict(), Verdict::Safe, "{name}: {}", r.outcome.reason());
    }
}

/// The ∀ seed programs (`lp-programs/forall/`, ACSAR, Flanagan–Qadeer, range
/// predicates, the Horn paper): the CEGAR engine proves each safe one that is not marked
/// `// open:` with symbolic cells; an open one (lpmc cannot decide it yet, the header says
/// why) may be UNKNOWN but never UNSAFE. The unsafe twins are checked, through the
/// portfolio, with the other programs in tests/verdicts.rs.
#[test]
fn forall_seed_programs_are_proved_or_open() {
    let dir = lp_dir().join("forall");
    let mut proved = Vec::new();
    for p in common::sources(&dir) {
        if common::header(&p, "expect").as_deref() != Some("safe") {
            continue;
        }
        let name = p.file_name().unwrap().to_string_lossy().to_string();
        let Some(r) = check_unless_open(&p) else {
            continue;
        };
        assert_eq!(r.verdict(), Verdict::Safe, "{name}: {}", r.outcome.reason());
        assert!(
            !r.symbolic_cells.is_empty(),
            "{name}: proved without symbolic cells"
        );
        if name.starts_with("sorted_fill") || name.starts_with("sorted_ramp") {
            // Sortedness relates two cells: one ghost fails, the second one proves it,
            // and the reason states the ∀ over both.
            assert_eq!(r.ghosts, Some(2), "{name}: {}", r.outcome.reason());
            let reason = r.outcome.reason();
            assert!(
                reason.contains("∀k1, k2.") && reason.contains("a[k1] - a[k2] ≤ 0"),
                "{reason}"
            );
        }
        proved.push(name);
    }
    assert!(proved.len() >= 18, "only {proved:?} proved");
    assert!(proved.iter().any(|n| n == "copy_const.lp"), "{proved:?}");
}

/// Counterexamples behind a loop that must run to a constant bound (10^5 to 10^6
/// iterations) first: the CEGAR engine alone finds them, jumping over the loops of a
/// spurious trace any number of times and running the program on what the jump's model
/// says (`lpmc::trace::jump_loops`). Every unsafe program of deep/ and forall/ (the
/// latter's twins with constant bounds were UNKNOWN under CEGAR alone without the jump);
/// the safe ones of deep/ are proved, or open and never UNSAFE.
#[test]
fn deep_counterexamples_are_found_by_jumping_over_loops() {
    let mut jumped = 0;
    for dir in ["deep", "forall"] {
        for p in common::sources(&lp_dir().join(dir)) {
            let name = format!("{dir}/{}", p.file_name().unwrap().to_string_lossy());
            match common::header(&p, "expect").as_deref() {
                Some("unsafe") => {
                    let src = std::fs::read_to_string(&p).unwrap();
                    let loaded = lpmc::load(SourceFile::new(&name, &src)).unwrap();
                    let opts = CheckOptions {
                        timeout_s: Some(60.0),
                        ..Default::default()
                    };
                    let r = lpmc::check(&loaded, &opts);
                    let reason = r.outcome.reason();
                    assert_eq!(r.verdict(), Verdict::Unsafe, "{name}: {reason}");
                    if reason.contains("loops jumped over") {
                        jumped += 1;
                    } else {
                        assert!(dir != "deep", "{name}: found without a jump: {reason}");
                    }
                }
                Some("safe") if dir == "deep" => {
                    if let Some(r) = check_unless_open(&p) {
                        assert_eq!(r.verdict(), Verdict::Safe, "{name}: {}", r.outcome.reason());
                    }
                }
                _ => {}
            }
        }
    }
    assert!(jumped >= 12, "only {jumped} found by a jump");
}

/// A loop that checks every cell an earlier loop appended (`for (k = 0; k < nb; k++)
/// assert(b[k] >= 0)` after `b[nb] = x; nb++` under a filter): the check loop's index
/// runs up to `nb`, so the widenings must keep `nb` within the array, as the range test
/// of the write `b[nb]` (a test of a conditional expression in the abstraction) says;
/// past it a read is `u` and the check fails. And the ∀ the filter loop establishes
/// (`∀k < nc. c[k] < 0`) must survive the later loops' joins: the atom `k < nc` learnt at
/// the filter loop is carried to the loops after it that change neither `nc` nor `c`.
#[test]
fn a_loop_checking_every_appended_cell_is_proved() {
    let dir = lp_dir().join("forall");
    for name in [
        "filter_check_all.lp",
        "partition_check_all.lp",
        "part_init.c",
        "partition.lp",
    ] {
        let src = std::fs::read_to_string(dir.join(name)).unwrap();
        // The check at a nondet index becomes a loop over every cell below the bound.
        let src = match name {
            "part_init.c" => src.replace(
                "  int j = __VERIFIER_nondet_int();\n  if (j < 0 || j >= m) return 0;\n  __VERIFIER_assert(b[j] > 0);",
                "  for (int j = 0; j < m; j++) __VERIFIER_assert(b[j] > 0);",
            ),
            "partition.lp" => src.replace(
                "  k = u;\n  assume(0 <= k && k < nc);\n  assert(c[k] < 0);",
                "  for (k = 0; k < nc; k++)\n    assert(c[k] < 0);",
            ),
            _ => src,
        };
        assert!(
            src.contains("for (int j = 0; j < m; j++)") || src.contains("for (k = 0; k < n"),
            "{name}: not rewritten"
        );
        let loaded = lpmc::load(SourceFile::new(name, &src))
            .unwrap_or_else(|e| panic!("{name} does not load:\n{}", e.render(false)));
        let opts = CheckOptions {
            timeout_s: Some(60.0),
            ..Default::default()
        };
        let r = lpmc::check(&loaded, &opts);
        assert_eq!(r.verdict(), Verdict::Safe, "{name}: {}", r.outcome.reason());
        assert!(!r.symbolic_cells.is_empty(), "{name}: no symbolic cells");
    }
}

/// Sortedness with a constant bound (`forall/sorted_*_const.lp`, `sorted_ramp_big_const.lp`):
/// the one-ghost abstraction cannot state `a[k1] ≤ a[k2]`, and its spurious traces go
/// through widened facts. Whatever the widening learnt for one ghost (thresholds, atoms,
/// longer delays, more disjuncts) is dropped with the second ghost, so the second ghost
/// comes before any lesson of the widening: no iteration before it refines the widening.
#[test]
fn the_second_ghost_comes_before_any_lesson_of_the_widening() {
    for name in [
        "sorted_fill_const.lp",
        "sorted_ramp_const.lp",
        "sorted_ramp_big_const.lp",
    ] {
        let p = lp_dir().join("forall").join(name);
        let loaded = lpmc::load_path(&p)
            .unwrap_or_else(|e| panic!("{name} does not load:\n{}", e.render(false)));
        let opts = CheckOptions {
            timeout_s: Some(60.0),
            explain: true,
            ..Default::default()
        };
        let r = lpmc::check(&loaded, &opts);
        assert_eq!(r.verdict(), Verdict::Safe, "{name}: {}", r.outcome.reason());
        assert_eq!(r.ghosts, Some(2), "{name}");
        let second = r
            .iterations
            .iter()
            .position(|it| it.added_second_ghost)
            .unwrap_or_else(|| panic!("{name}: no iteration added the second ghost"));
        let lessons: Vec<_> = r.iterations.iter().map(|it| &it.widening).collect();
        assert!(
            r.iterations[..=second]
                .iter()
                .all(|it| it.widening.is_empty()),
            "{name}: {lessons:?}"
        );
    }
}

/// A read whose index is dead before a later read of the same cell (`m = a[lo]; for (j =
/// lo; j < hi; j++) assert(m <= a[j])`): the read rule takes the later read's value from
/// a partner that agrees on the live variables only, a run with another `lo`, and the
/// shortest abstract error (at `j == lo`) is spurious with no cell to add. The refinement
/// keeps `lo` from then on, and the CEGAR engine alone finds the real error (a later `j`),
/// in every variant: bound, global array, `while`, count-down, procedure, C.
#[test]
fn a_dead_read_index_is_kept_when_partners_of_other_runs_make_the_trace_spurious() {
    for name in [
        "first_scan_unsafe.lp",
        "first_scan_global_unsafe.lp",
        "first_scan_down_unsafe.lp",
        "first_scan_late_unsafe.lp",
        "first_scan_proc_unsafe.lp",
        "slice_min_scan_unsafe.c",
    ] {
        let p = lp_dir().join(name);
        assert_eq!(
            common::header(&p, "expect").as_deref(),
            Some("unsafe"),
            "{name}"
        );
        let loaded = lpmc::load_path(&p)
            .unwrap_or_else(|e| panic!("{name} does not load:\n{}", e.render(false)));
        let opts = CheckOptions {
            timeout_s: Some(60.0),
            ..Default::default()
        };
        let r = lpmc::check(&loaded, &opts);
        assert_eq!(
            r.verdict(),
            Verdict::Unsafe,
            "{name}: {}",
            r.outcome.reason()
        );
        let t = r.outcome.counterexample().expect("trace");
        assert!(!t.steps.is_empty(), "{name}: empty trace");
    }
}

/// With `--jump-checks`, loops that only check cells (`for (j = lo; j < hi; j++)
/// assert(P(a[j]))`) jump over iterations: their transition passes the checks untested, so their head
/// needs no widening, and the CEGAR engine proves them like a check at one arbitrary
/// index: a global array or a local one, constant or symbolic bounds, counting up or
/// down, one check or two. A counterexample that jumps is run again testing every check,
/// so the one reported is a run of the program as written: it fails the first failing
/// check, or passes them all on the way to a later error.
#[test]
fn a_loop_that_only_checks_cells_is_proved_without_widening_and_its_errors_test_every_check() {
    let run = |name: &str| {
        let p = lp_dir().join("accel").join(name);
        let jumping = lpmc::LoadOptions {
            jump_checks: true,
            ..Default::default()
        };
        let loaded = lpmc::load_path_with(&p, &jumping)
            .unwrap_or_else(|e| panic!("{name} does not load:\n{}", e.render(false)));
        let opts = CheckOptions {
            timeout_s: Some(60.0),
            ..Default::default()
        };
        let expect = common::header(&p, "expect");
        (lpmc::check(&loaded, &opts), expect)
    };
    for name in [
        "check_zero_global.lp",
        "check_down_two.lp",
        "check_fill.c",
        "check_fill_n.c",
    ] {
        let (r, expect) = run(name);
        assert_eq!(expect.as_deref(), Some("safe"), "{name}");
        assert_eq!(r.verdict(), Verdict::Safe, "{name}: {}", r.outcome.reason());
    }
    // (program, line of the error reached, least trace length: every check before it)
    for (name, line, steps) in [
        ("check_zero_global_unsafe.lp", 9, 61_234),
        ("check_then_error_unsafe.lp", 10, 100_000),
        ("check_fill_n_unsafe.c", 14, 1),
    ] {
        let (r, expect) = run(name);
        assert_eq!(expect.as_deref(), Some("unsafe"), "{name}");
        assert_eq!(
            r.verdict(),
            Verdict::Unsafe,
            "{name}: {}",
            r.outcome.reason()
        );
        let c = r.outcome.counterexample().expect("a counterexample");
        assert_eq!(c.error_line, line, "{name}");
        assert!(c.length >= steps, "{name}: {} steps", c.length);
        assert!(c.accelerated.is_empty(), "{name}: {:?}", c.accelerated);
        if name == "check_then_error_unsafe.lp" {
            // Only a jump reaches the error past 100000 checks in time: the reason says
            // that the run reported is the jumping trace's run testing every check.
            assert!(c.checks_retested, "{name}");
            let reason = r.outcome.reason();
            assert!(reason.contains("jumped over checks"), "{reason}");
        }
    }
}

/// A read among tracked cells at an index the fact does not fix is a chain of `?:` with
/// exponentially many cases; past the transfer's cap it used to constrain nothing. When
/// the fact bounds the index to a few values (a check loop that jumps to any of the
/// remaining indices, a widened counter), the transfer splits the fact by the index's
/// value instead and stays exact: array_copy.lp (8 cells compared at an index in 1..3)
/// and its versions with 8 and 20 cells per array are proved with every cell tracked.
#[test]
fn a_read_among_tracked_cells_at_an_index_in_a_small_range_is_split_by_value() {
    let text = std::fs::read_to_string(lp_dir().join("array_copy.lp")).expect("array_copy.lp");
    for n in [4, 8, 20] {
        let src = text.replace('4', &n.to_string());
        let r = check_src(
            &src,
            &CheckOptions {
                timeout_s: Some(60.0),
                ..Default::default()
            },
        );
        assert_eq!(
            r.verdict(),
            Verdict::Safe,
            "size {n}: {}",
            r.outcome.reason()
        );
        let all: Vec<i64> = (0..n).collect();
        assert_eq!(r.cells, cells(&[("a", &all), ("b", &all)]), "size {n}");
    }
}

/// A variable-length array larger than `i64` is undefined behaviour (as one of size < 1),
/// so a claim bounds every size. Without that bound, the certificate check of the proof
/// of check_append.c (found with `--jump-checks`) started a region in a state of size
/// 2^63, where the interpreter's semantics give the array no cells, and failed.
#[test]
fn a_proof_over_variable_length_arrays_is_certified() {
    let p = lp_dir().join("accel").join("check_append.c");
    assert_eq!(common::header(&p, "expect").as_deref(), Some("safe"));
    let jumping = lpmc::LoadOptions {
        jump_checks: true,
        ..Default::default()
    };
    let loaded = lpmc::load_path_with(&p, &jumping)
        .unwrap_or_else(|e| panic!("does not load:\n{}", e.render(false)));
    let opts = CheckOptions {
        timeout_s: Some(60.0),
        ..Default::default()
    };
    let r = lpmc::portfolio(&loaded, &opts, lpmc::EngineChoice::Cegar);
    assert_eq!(r.verdict(), Verdict::Safe, "{}", r.outcome.reason());
    let lpmc::Outcome::Safe(proof) = &r.outcome else {
        unreachable!()
    };
    let cert = proof.certificate.as_ref().expect("a certificate check");
    assert_eq!(cert.status, lpmc::CertStatus::Checked);
}

/// A loop that checks every cell below a bound an earlier loop set (`r`, the first match;
/// `[lo, hi)`, the slice whose maximum was taken): the check loop's head needs `k < r` and
/// `a_k ≠ e`, and so does the earlier loop's head, where the trace's own lesson does not
/// reach. When a spurious trace teaches nothing new at its widened points, the atoms known
/// at a later loop head are offered to the earlier ones; and the read rule's covers, past
/// too many facts at the check's read, keep apart the partners whose cell lies on either
/// side of a variable (`a_k < e`, `a_k > e`). The programs of lp-programs/check_loops/ are
/// decided by the CEGAR engine alone: the safe ones proved with a symbolic cell, the
/// unsafe ones with a replayed error (an open one, never UNSAFE). Without the covers' key,
/// first_match_for.c is UNKNOWN; without the shared atoms, first_below.lp and slice_max.c.
#[test]
fn a_check_of_every_cell_below_a_bound_set_by_an_earlier_loop_is_proved() {
    let dir = lp_dir().join("check_loops");
    let mut decided = 0;
    for p in common::sources(&dir) {
        let name = p.file_name().unwrap().to_string_lossy().to_string();
        let expect = common::header(&p, "expect").expect("an expect header");
        let Some(r) = check_unless_open(&p) else {
            continue;
        };
        match expect.as_str() {
            "safe" => {
                assert_eq!(r.verdict(), Verdict::Safe, "{name}: {}", r.outcome.reason());
                assert!(
                    !r.symbolic_cells.is_empty(),
                    "{name}: proved without symbolic cells"
                );
            }
            "unsafe" => {
                assert_eq!(
                    r.verdict(),
                    Verdict::Unsafe,
                    "{name}: {}",
                    r.outcome.reason()
                );
            }
            other => panic!("{name}: unexpected expectation {other}"),
        }
        decided += 1;
    }
    // Of the twelve, one takes tens of seconds (`// slow:`, checked with LPMC_SLOW=1):
    // the rest are decided here.
    assert!(
        decided >= 11,
        "only {decided} programs in {}",
        dir.display()
    );
}

/// The partitioning programs with one array global (zero-initialised instead of
/// arbitrary). With `b` global, a spurious trace that goes around the final check loop
/// (`for (k = 0; k < nb; k++) assert(b[k] >= 0)`) is infeasible by its counts alone (`k <
/// nb` with both folded to literals), so its own core names no array; the trace with its
/// loops jumped over is infeasible because of what it reads, and `b` gets its symbolic
/// cell from that core before the widening is refined for the counts. So the global `b`
/// costs no more widening refinements than the local one (it took 7 instead of 3, and 11
/// s, when only constant cells came from the jumped core). Every other array global is
/// proved too.
#[test]
fn a_global_array_gets_its_symbolic_cell_from_the_jumped_trace() {
    let dir = lp_dir().join("forall");
    let opts = CheckOptions {
        timeout_s: Some(120.0),
        ..Default::default()
    };
    for name in ["partition_check_then_all.lp", "partition_check_all.lp"] {
        let src = std::fs::read_to_string(dir.join(name)).unwrap();
        let local = check_src(&src, &opts);
        assert_eq!(
            local.verdict(),
            Verdict::Safe,
            "{name}: {}",
            local.outcome.reason()
        );
        // The metamorphic generator's variants that move one array of `main` to file scope.
        let globals: Vec<_> = lpmc::metamorph::variants(name, &src)
            .into_iter()
            .filter(|v| v.transformation == lpmc::metamorph::Transformation::LocalToGlobal)
            .collect();
        assert_eq!(globals.len(), 3, "{name}: one variant per array");
        for v in globals {
            let a = v.name.trim_start_matches("local_to_global_");
            let r = check_src(&v.source, &opts);
            let what = format!("{name} with {a} global");
            assert_eq!(r.verdict(), Verdict::Safe, "{what}: {}", r.outcome.reason());
            if a == "b" {
                // As many symbolic cells as the local program's proof.
                assert_eq!(r.symbolic_cells.len(), local.symbolic_cells.len(), "{what}");
                assert!(
                    r.stats.widening_refinements <= local.stats.widening_refinements,
                    "{what}: {} widening refinements, the local program {}",
                    r.stats.widening_refinements,
                    local.stats.widening_refinements
                );
            }
        }
    }
}

/// The proofs across calls of lp-programs/certify/ (unread parameters first and last, a
/// global passed by value, two call sites) pass their certificate check: the entry
/// condition of a summarized procedure states its parameters, and each obligation assumes
/// only the summaries of the calls before it.
#[test]
fn proofs_across_calls_are_certified() {
    let mut n = 0;
    for p in common::sources(&lp_dir().join("certify")) {
        if common::header(&p, "expect").as_deref() != Some("safe") {
            continue;
        }
        let loaded =
            lpmc::load_path(&p).unwrap_or_else(|e| panic!("does not load:\n{}", e.render(false)));
        let opts = CheckOptions {
            timeout_s: Some(60.0),
            ..Default::default()
        };
        let r = lpmc::portfolio(&loaded, &opts, lpmc::EngineChoice::Cegar);
        assert_eq!(
            r.verdict(),
            Verdict::Safe,
            "{}: {}",
            p.display(),
            r.outcome.reason()
        );
        let lpmc::Outcome::Safe(proof) = &r.outcome else {
            unreachable!()
        };
        let cert = proof.certificate.as_ref().expect("a certificate check");
        assert_eq!(cert.status, lpmc::CertStatus::Checked, "{}", p.display());
        n += 1;
    }
    assert!(n >= 4, "only {n} safe programs in lp-programs/certify");
}

/// Relational programs (`lp-programs/relational/`: a reversed copy, a palindrome made in
/// place, shifted copies, a stride, two indices, interleaving, tiles of two cells,
/// checked once or by a loop, at sizes 10 and 1000 and a symbolic size): the check
/// compares two cells at index terms linear in one variable (`a[x] == b[999-x]`,
/// `a[x] == b[n-1-x]`), and the CEGAR engine alone proves each safe one that is not open
/// with a cell at that term of the ghost beside the symbolic cells (`b[999-k]`,
/// `b[n-1-k]`), after them, certified on the original program. An open one may be UNKNOWN but never UNSAFE; the unsafe twins are checked,
/// through the portfolio, in tests/verdicts.rs.
#[test]
fn relational_programs_are_proved_with_cells_at_index_terms() {
    let dir = lp_dir().join("relational");
    let mut proved = Vec::new();
    for p in common::sources(&dir) {
        if common::header(&p, "expect").as_deref() != Some("safe") {
            continue;
        }
        let name = p.file_name().unwrap().to_string_lossy().to_string();
        if common::header(&p, "open").is_some() {
            assert!(check_unless_open(&p).is_none());
            continue;
        }
        // The CEGAR engine with the certificate check of its proof.
        let loaded = lpmc::load_path(&p)
            .unwrap_or_else(|e| panic!("{name} does not load:\n{}", e.render(false)));
        let opts = CheckOptions {
            timeout_s: Some(60.0),
            ..Default::default()
        };
        let r = lpmc::portfolio(&loaded, &opts, lpmc::EngineChoice::Cegar);
        assert_eq!(r.verdict(), Verdict::Safe, "{name}: {}", r.outcome.reason());
        let Outcome::Safe(proof) = &r.outcome else {
            unreachable!()
        };
        // At size 10 the constant cells may do, or the symbolic cell alone (a tile
        // `a[k] == k`).
        if !name.ends_with("_10.lp") {
            assert!(
                !proof.term_cells.is_empty(),
                "{name}: proved without a cell at an index term: {}",
                r.outcome.reason()
            );
            let added = r
                .iterations
                .iter()
                .position(|it| !it.added_term_cells.is_empty())
                .unwrap_or_else(|| panic!("{name}: no iteration added a term cell"));
            let symbolic = r
                .iterations
                .iter()
                .position(|it| !it.added_symbolic.is_empty())
                .unwrap_or_else(|| panic!("{name}: no iteration added a symbolic cell"));
            // After the symbolic cells (those of a symbolic size may first need
            // partition atoms of the widening).
            assert!(added > symbolic, "{name}: {:?}", proof.term_cells);
        }
        assert!(
            proof.certificate.as_ref().is_some_and(|c| c.checked()),
            "{name}: {:?}",
            proof.certificate
        );
        proved.push((name, proof.term_cells.clone()));
    }
    let cells = |n: &str| proved.iter().find(|p| p.0 == n).map(|p| p.1.clone());
    assert_eq!(cells("reverse_copy.lp"), Some(vec!["b[999-k]".to_string()]));
    assert_eq!(cells("shift_copy.lp"), Some(vec!["b[k+1]".to_string()]));
    assert_eq!(
        cells("palindrome_in_place.lp"),
        Some(vec!["a[999-k]".to_string()])
    );
    // A copy checked by a loop (two indices, a stride, a shift with the shifted read
    // second): the cell at the term is kept apart where the term is past the end.
    assert_eq!(cells("two_index.lp"), Some(vec!["b[2k+1]".to_string()]));
    assert_eq!(cells("stride_gather.lp"), Some(vec!["b[2k+1]".to_string()]));
    assert_eq!(
        cells("shift_copy_loop.lp"),
        Some(vec!["b[k+1]".to_string()])
    );
    assert_eq!(
        cells("shift_copy_loop_n.c"),
        Some(vec!["b[k+1]".to_string()])
    );
    assert_eq!(
        cells("offset_copy_loop_swapped.lp"),
        Some(vec!["b[k+10]".to_string()])
    );
    // Interleaved and tiled: the check's reads at `2x+1` and `x` (or `2x`), whichever is
    // read first, give a cell at `2k+1` (or `k+1`).
    for name in ["interleave.lp", "interleave_n.lp"] {
        assert_eq!(cells(name), Some(vec!["c[2k+1]".to_string()]), "{name}");
    }
    assert_eq!(cells("tiling_pairs.lp"), Some(vec!["a[k+1]".to_string()]));
    // A symbolic size: the term has the size's variable in it.
    assert_eq!(
        cells("reverse_copy_n.lp"),
        Some(vec!["b[n-1-k]".to_string()])
    );
    assert_eq!(
        cells("palindrome_in_place_n.lp"),
        Some(vec!["a[n-1-k]".to_string()])
    );
    // A symbolic size checked by a second loop: the check loop's partition by `k < n`
    // (`2k + 1 < n`, `3k < n` for two indices) comes from the saturation of its error's
    // pre-image.
    for name in [
        "stride_gather_n.lp",
        "two_index_n.lp",
        "stride_gather_down_n.lp",
    ] {
        assert_eq!(cells(name), Some(vec!["b[2k+1]".to_string()]), "{name}");
    }
    assert_eq!(
        cells("stride3_gather_n.lp"),
        Some(vec!["b[3k+2]".to_string()])
    );
    assert_eq!(cells("three_index_n.lp"), Some(vec!["b[3k]".to_string()]));
    // The check's operands swapped: the ghost at the shifted read, and the copy's read
    // at another term of it.
    assert_eq!(
        cells("shift_copy_n_swapped.lp"),
        Some(vec!["a[k-1]".to_string(), "b[k+1]".to_string()])
    );
    assert!(proved.len() >= 28, "only {proved:?} proved");
}

/// The CEGAR engine's proof of a safe program, whose certificate was checked on the
/// original program; the test fails otherwise. No time limit: the engine's own counted
/// budgets end it, so the verdict does not depend on the machine's load.
fn certified_cegar_proof(p: &std::path::Path) -> (Report, lpmc::Proof) {
    let name = p.file_name().unwrap().to_string_lossy().to_string();
    let loaded =
        lpmc::load_path(p).unwrap_or_else(|e| panic!("{name} does not load:\n{}", e.render(false)));
    let opts = CheckOptions {
        timeout_s: None,
        ..Default::default()
    };
    let r = lpmc::portfolio(&loaded, &opts, lpmc::EngineChoice::Cegar);
    let Outcome::Safe(proof) = &r.outcome else {
        panic!("{name}: {}", r.outcome.reason());
    };
    assert!(
        proof.certificate.as_ref().is_some_and(|c| c.checked()),
        "{name}: {:?}",
        proof.certificate
    );
    let proof = proof.clone();
    (r, proof)
}

/// Searches that stop before an array's end (`lp-programs/sentinel/`: a sentinel in the
/// last cell, a prefix of cells `>= 0`, at sizes 10 and 1000 and a symbolic size): the
/// search's index is bounded only by its own read, which C leaves undefined past the end.
/// The CEGAR engine proves each safe one that is not open, certified on the original
/// program (an open one may be UNKNOWN, never UNSAFE). A prefix
/// search can only be proved with P̂ keeping the bounds guards, so its proof assumes the
/// search's read in bounds; a sentinel search either so, or with the sentinel known
/// through the array's symbolic cell. The unsafe twins are checked, through the
/// portfolio, in tests/verdicts.rs.
#[test]
fn searches_are_bounded_by_their_reads() {
    let dir = lp_dir().join("sentinel");
    let mut proved = Vec::new();
    for p in common::sources(&dir) {
        if common::header(&p, "expect").as_deref() != Some("safe") {
            continue;
        }
        if common::header(&p, "open").is_some() {
            assert!(check_unless_open(&p).is_none());
            continue;
        }
        let name = p.file_name().unwrap().to_string_lossy().to_string();
        let (_, proof) = certified_cegar_proof(&p);
        // The search is the loop whose condition reads the array.
        let text = std::fs::read_to_string(&p).unwrap();
        let search = text
            .lines()
            .position(|l| (l.contains("while (") || l.contains("for (")) && l.contains("] "))
            .unwrap_or_else(|| panic!("{name}: no search")) as u32
            + 1;
        let sentinel = name.starts_with("sentinel") && !proof.symbolic.is_empty();
        assert!(
            proof.assumed_in_bounds.contains(&search) || sentinel,
            "{name}: the proof assumed lines {:?}, not the search's read at line {search}, \
             and tracks no symbolic cell",
            proof.assumed_in_bounds
        );
        proved.push(name);
    }
    assert_eq!(proved.len(), 5, "{proved:?}");
}

/// Strided loops (`lp-programs/strided/`: both loops step by 2 from 0, or by 4 from 1, at
/// sizes 10 and 1000 and a symbolic size): the arrays are accessed only at the indices of
/// one residue class, and the ghost ranges over that class alone, so the facts say `b[k] =
/// 20` wherever `a[k] = 10` for the cells the loops visit. The CEGAR engine proves each
/// safe one with the ghost's congruence in its invariants, certified on the original
/// program. The unsafe twins are checked, through the portfolio, in tests/verdicts.rs.
#[test]
fn strided_loops_are_proved_with_a_ghost_in_their_class() {
    let dir = lp_dir().join("strided");
    let mut proved = Vec::new();
    for p in common::sources(&dir) {
        if common::header(&p, "expect").as_deref() != Some("safe") {
            continue;
        }
        let name = p.file_name().unwrap().to_string_lossy().to_string();
        let (r, _) = certified_cegar_proof(&p);
        let class = if name.starts_with("stride4_odd") {
            "k ≡ 1 (mod 4)"
        } else {
            "k ≡ 0 (mod 2)"
        };
        assert!(
            r.outcome.reason().contains(class),
            "{name}: no `{class}` in {}",
            r.outcome.reason()
        );
        proved.push(name);
    }
    assert_eq!(proved.len(), 4, "{proved:?}");
}

/// Flags cleared in a branch of a check loop (`lp-programs/flags/`: a running flag as in
/// SV-COMP's standard_running, a copy compared cell by cell, a search's `found`): the
/// error is decided by the branch that clears the flag, whose condition reads the arrays,
/// while the trace's own unsat core blames only the loops' counts. The CEGAR engine gives
/// those arrays symbolic cells and proves each safe one at size 1000 and at a symbolic
/// size, certified on the original program. (At size 10 its constant cells come first,
/// one by one; the portfolio decides those, in tests/verdicts.rs, with the unsafe twins.)
#[test]
fn flags_cleared_in_a_branch_are_proved_with_symbolic_cells() {
    let dir = lp_dir().join("flags");
    let mut proved = Vec::new();
    for p in common::sources(&dir) {
        let name = p.file_name().unwrap().to_string_lossy().to_string();
        if common::header(&p, "expect").as_deref() != Some("safe") || name.contains("_10.") {
            continue;
        }
        let (r, proof) = certified_cegar_proof(&p);
        assert!(
            !proof.symbolic.is_empty(),
            "{name}: proved without symbolic cells: {}",
            r.outcome.reason()
        );
        proved.push(name);
    }
    assert_eq!(proved.len(), 4, "{proved:?}");
}
