//! Bounded model checking (`lpmc bmc`): UNSAFE only with a replayed trace, never UNSAFE on
//! safe programs, never SAFE when the bound cuts a feasible path.

mod common;

use common::{header, lp_dir, sources, TEST_MEMORY_MB};
use lpmc::Verdict;
use lpmc::{bmc, BmcOptions, BmcReport, Unwind};
use std::path::Path;
use std::process::Command;

fn run_file(path: &Path, k: u32, timeout_s: f64) -> BmcReport {
    run_file_mode(path, k, timeout_s, lpmc::BmcMode::Auto)
}

fn run_file_mode(path: &Path, k: u32, timeout_s: f64, mode: lpmc::BmcMode) -> BmcReport {
    let loaded = lpmc::load_path(path).expect("the program loads");
    bmc(
        &loaded,
        &BmcOptions {
            unwind: Unwind::Fixed(k),
            timeout_s: Some(timeout_s),
            mode,
            memory_mb: TEST_MEMORY_MB,
            ..Default::default()
        },
    )
}

fn run_text(text: &str, unwind: Unwind) -> BmcReport {
    run_text_for(text, unwind, 10.0)
}

/// bmc on a program whose loops stay loops (no accelerated transitions): these tests are
/// about unwinding.
fn run_text_for(text: &str, unwind: Unwind, timeout_s: f64) -> BmcReport {
    run_source(
        lpmc::SourceFile::new("test.lp", text),
        true,
        unwind,
        timeout_s,
    )
}

fn run_source(file: lpmc::SourceFile, no_accel: bool, unwind: Unwind, timeout_s: f64) -> BmcReport {
    run_source_mode(file, no_accel, unwind, timeout_s, lpmc::BmcMode::Auto)
}

fn run_source_mode(
    file: lpmc::SourceFile,
    no_accel: bool,
    unwind: Unwind,
    timeout_s: f64,
    mode: lpmc::BmcMode,
) -> BmcReport {
    let opts = lpmc::LoadOptions {
        no_accel,
        ..Default::default()
    };
    let loaded = lpmc::load_with(file, &opts).expect("the program loads");
    bmc(
        &loaded,
        &BmcOptions {
            unwind,
            timeout_s: Some(timeout_s),
            mode,
            memory_mb: TEST_MEMORY_MB,
            ..Default::default()
        },
    )
}

fn programs(expect: &str) -> Vec<std::path::PathBuf> {
    sources(&lp_dir())
        .into_iter()
        .filter(|p| !p.components().any(|c| c.as_os_str() == "errors"))
        .filter(|p| header(p, "expect").as_deref() == Some(expect))
        .filter(|p| header(p, "open").is_none())
        .collect()
}

#[test]
fn unsafe_programs_are_found_with_replayed_traces() {
    // lp-programs/search/ holds the concrete search's programs: their errors need 15 to 40
    // iterations of one loop, beyond bound 12 by construction (tests/search.rs has them);
    // so do the twins of lp-programs/relational/ (a copy of 1000 cells before the check,
    // found by tests/verdicts.rs) and the programs of lp-programs/big_arrays/ (arrays of
    // 10^3 to 2·10^5 cells filled before the bug, found by the search in src/search.rs).
    let progs: Vec<_> = programs("unsafe")
        .into_iter()
        .filter(|p| {
            !p.parent().is_some_and(|d| {
                ["search", "relational", "big_arrays"]
                    .iter()
                    .any(|x| d.ends_with(x))
            })
        })
        .collect();
    assert!(
        progs.len() >= 10,
        "too few unsafe programs: {}",
        progs.len()
    );
    let mut found = 0;
    let mut missed = Vec::new();
    for p in &progs {
        let start = std::time::Instant::now();
        let r = run_file(p, 12, 5.0);
        assert_ne!(
            r.verdict(),
            Verdict::Safe,
            "{}: {}",
            p.display(),
            r.outcome.reason()
        );
        if r.verdict() == Verdict::Unsafe {
            let t = r
                .outcome
                .counterexample()
                .expect("UNSAFE comes with a trace");
            assert!(!t.steps.is_empty(), "{}", p.display());
            found += 1;
        } else {
            missed.push(format!(
                "{} ({:.1} s): {}",
                p.display(),
                start.elapsed().as_secs_f64(),
                r.outcome.reason()
            ));
        }
    }
    assert!(
        found * 10 >= progs.len() * 8,
        "only {found} of {} unsafe programs found; missed:\n{}",
        progs.len(),
        missed.join("\n")
    );
}

#[test]
fn safe_programs_are_never_unsafe() {
    let progs = programs("safe");
    assert!(progs.len() >= 10);
    // deep/ holds loops that must run to a constant bound of 10^5 by design, and
    // relational/ copies of 1000 cells or of a symbolic size before the check (as their
    // unsafe twins, above): at bound 12 no path of most of them ends, so they are checked
    // (never UNSAFE) but not counted.
    let counted = |p: &std::path::PathBuf| {
        !p.components()
            .any(|c| c.as_os_str() == "deep" || c.as_os_str() == "relational")
    };
    let mut proved = 0;
    for p in &progs {
        let r = run_file(p, 12, 5.0);
        assert_ne!(
            r.verdict(),
            Verdict::Unsafe,
            "{}: {}",
            p.display(),
            r.outcome.reason()
        );
        if r.verdict() == Verdict::Safe && counted(p) {
            proved += 1;
        }
    }
    let shallow = progs.iter().filter(|p| counted(p)).count();
    assert!(
        proved * 2 >= shallow,
        "only {proved} of {shallow} proved safe"
    );
}

#[test]
fn unbounded_loop_is_unknown_never_safe() {
    let src = "void main() { int x; x = u; while (x > 0) x = x - 1; if (x > 0) ERROR: ; }\n";
    for k in [0, 1, 3, 12] {
        let r = run_text(src, Unwind::Fixed(k));
        assert_eq!(
            r.verdict(),
            Verdict::Unknown,
            "k={k}: {}",
            r.outcome.reason()
        );
        assert!(
            r.outcome.reason().contains("bound"),
            "{}",
            r.outcome.reason()
        );
    }
    let r = run_text_for(src, Unwind::Auto, 1.5);
    assert_eq!(r.verdict(), Verdict::Unknown);
    // `auto` without a timeout ends at its cap. (The memory limit is the process's
    // resident memory, which the tests running beside this one share: the tests' own.)
    let opts = lpmc::LoadOptions {
        no_accel: true,
        ..Default::default()
    };
    let loaded = lpmc::load_with(lpmc::SourceFile::new("t.lp", src), &opts).expect("loads");
    let r = bmc(
        &loaded,
        &BmcOptions {
            unwind: Unwind::Auto,
            timeout_s: None,
            memory_mb: TEST_MEMORY_MB,
            ..Default::default()
        },
    );
    assert_eq!(r.verdict(), Verdict::Unknown, "{}", r.outcome.reason());
    assert_eq!(r.unwind, lpmc::Unwind::AUTO_CAP, "{}", r.outcome.reason());
}

#[test]
fn bounded_safe_loop_is_safe() {
    let src = "void main() { int i, s; i = 0; s = 0; while (i < 5) { s = s + 2; i = i + 1; } if (s != 10) ERROR: ; }\n";
    let r = run_text(src, Unwind::Fixed(5));
    assert_eq!(r.verdict(), Verdict::Safe, "{}", r.outcome.reason());
    // Too small a bound: never SAFE.
    let r = run_text(src, Unwind::Fixed(3));
    assert_eq!(r.verdict(), Verdict::Unknown, "{}", r.outcome.reason());
    let r = run_text(src, Unwind::Auto);
    assert_eq!(r.verdict(), Verdict::Safe, "{}", r.outcome.reason());
}

#[test]
fn bounded_unsafe_loop_needs_enough_unwinding() {
    let src = "void main() { int i; i = 0; while (i < 7) i = i + 1; if (i == 7) ERROR: ; }\n";
    let r = run_text(src, Unwind::Fixed(2));
    assert_eq!(r.verdict(), Verdict::Unknown, "{}", r.outcome.reason());
    let r = run_text(src, Unwind::Fixed(7));
    assert_eq!(r.verdict(), Verdict::Unsafe, "{}", r.outcome.reason());
    let r = run_text(src, Unwind::Auto);
    assert_eq!(r.verdict(), Verdict::Unsafe, "{}", r.outcome.reason());
    // Accelerated, the loop takes its seven iterations in one transition.
    let loaded = lpmc::load(lpmc::SourceFile::new("test.lp", src)).expect("loads");
    let r = bmc(
        &loaded,
        &BmcOptions {
            unwind: Unwind::Fixed(1),
            timeout_s: Some(10.0),
            ..Default::default()
        },
    );
    assert_eq!(r.verdict(), Verdict::Unsafe, "{}", r.outcome.reason());
}

#[test]
fn error_behind_input_guarded_loop_is_found() {
    // The error needs an input driving the loop 3 times.
    let src =
        "void main() { int n, i; n = u; i = 0; while (i < n) i = i + 1; if (i == 3) ERROR: ; }\n";
    let r = run_text(src, Unwind::Fixed(4));
    assert_eq!(r.verdict(), Verdict::Unsafe, "{}", r.outcome.reason());
    let t = r.outcome.counterexample().expect("trace");
    assert!(t.inputs.iter().any(|i| i.value == "3"), "{:?}", t.inputs);
}

#[test]
fn cli_exit_codes_and_json() {
    let bin = env!("CARGO_BIN_EXE_lpmc");
    let dir = lp_dir();
    let out = Command::new(bin)
        .args(["bmc", "--unwind", "12", "--json"])
        .arg(dir.join("fig1.lp"))
        .output()
        .expect("runs");
    assert_eq!(out.status.code(), Some(0));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).expect("json");
    assert_eq!(v["verdict"], "safe");
    let out = Command::new(bin)
        .args(["bmc", "--unwind", "12"])
        .arg(dir.join("fig1_marker_at_2.lp"))
        .output()
        .expect("runs");
    assert_eq!(out.status.code(), Some(10));
    assert!(String::from_utf8_lossy(&out.stdout).contains("trace"));
    let out = Command::new(bin)
        .args(["bmc", "--unwind", "nope"])
        .arg(dir.join("fig1.lp"))
        .output()
        .expect("runs");
    assert_eq!(out.status.code(), Some(2));
}

/// A path that forks at every iteration of a loop over a large array (here a check of
/// each cell of a zero-initialised global array of 100000): each fork shares what the
/// path knows of the array's cells, so bounds in the thousands fit in little memory and
/// the time limit, not the memory limit, ends the run; the report names the bound the
/// run had reached, whichever of the engine and the watchdog answered.
#[test]
fn deep_paths_over_a_large_array_stay_small() {
    let out = Command::new(env!("CARGO_BIN_EXE_lpmc"))
        .args(["bmc", "--timeout", "3", "--memory", "1024", "--json"])
        .arg(lp_dir().join("accel/check_zero_global.lp"))
        .output()
        .expect("runs");
    assert_eq!(out.status.code(), Some(20));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).expect("json");
    assert_eq!(v["verdict"], "unknown");
    assert_eq!(v["unknown"], "timeout", "{v}");
    assert!(v["unwind"].as_u64().is_some_and(|k| k >= 16), "{v}");
}

mod differential {
    //! Random small programs with arrays (indices may be out of range), calls and bounded
    //! loops: bmc is never SAFE when a random interpreter run reaches an error, and bmc
    //! and the CEGAR engine never contradict each other.
    use super::common::gen::{array_call_program, interp_reaches_error};
    use lpmc::CheckOptions;
    use lpmc::SourceFile;
    use lpmc::Verdict;
    use lpmc::{bmc, BmcOptions, Unwind};
    use proptest::prelude::*;
    use proptest::test_runner::{Config, TestRunner};

    #[test]
    fn bmc_agrees_with_the_interpreter_and_cegar() {
        let cases: u32 = std::env::var("LPMC_BMC_DIFF_CASES")
            .ok()
            .and_then(|s| s.parse().ok())
            .unwrap_or(150);
        let mut runner = TestRunner::new(Config {
            cases,
            failure_persistence: None,
            ..Config::default()
        });
        let counts = std::cell::RefCell::new([0u32; 3]);
        runner
            .run(&array_call_program(), |src| {
                let loaded = lpmc::load(SourceFile::new("gen.c", &src)).map_err(|e| {
                    TestCaseError::fail(format!("generated program rejected:\n{}", e.render(false)))
                })?;
                let r = bmc(
                    &loaded,
                    &BmcOptions {
                        unwind: Unwind::Fixed(4),
                        timeout_s: Some(10.0),
                        ..Default::default()
                    },
                );
                counts.borrow_mut()[r.verdict().exit_code() as usize / 10] += 1;
                if interp_reaches_error(&loaded, 30) {
                    prop_assert_ne!(
                        r.verdict(),
                        Verdict::Safe,
                        "bmc SAFE, interpreter errs:\n{}",
                        src
                    );
                }
                if r.verdict() == Verdict::Unsafe {
                    prop_assert!(r
                        .outcome
                        .counterexample()
                        .is_some_and(|t| !t.steps.is_empty()));
                }
                let c = lpmc::check(
                    &loaded,
                    &CheckOptions {
                        timeout_s: Some(10.0),
                        ..Default::default()
                    },
                );
                let contradict = matches!(
                    (r.verdict(), c.verdict()),
                    (Verdict::Safe, Verdict::Unsafe) | (Verdict::Unsafe, Verdict::Safe)
                );
                prop_assert!(
                    !contradict,
                    "bmc {:?} ({}) vs check {:?} ({}):\n{}",
                    r.verdict(),
                    r.outcome.reason(),
                    c.verdict(),
                    c.outcome.reason(),
                    src
                );
                Ok(())
            })
            .unwrap();
        let [safe, unsafe_, unknown] = *counts.borrow();
        eprintln!("bmc differential: {safe} safe, {unsafe_} unsafe, {unknown} unknown");
        assert!(safe > 0 && unsafe_ > 0);
    }
}

#[test]
fn branches_on_concrete_array_contents_fold() {
    // Relaxation over fixed arrays (initialised, and written at indices the path fixes):
    // every branch folds, so the exploration is one path, whose only solver calls are the
    // range assumptions of the uninitialised `i` and `j`, and the verdicts are those of
    // the twins' headers (path by path: the merged engine asks its one query anyway).
    let dir = lp_dir();
    let paths = lpmc::BmcMode::Paths;
    let r = run_file_mode(&dir.join("array_relax_concrete.c"), 32, 30.0, paths);
    assert_eq!(r.verdict(), Verdict::Safe, "{}", r.outcome.reason());
    assert!(r.smt_checks <= 2, "{r:?}");
    assert_eq!(r.paths, 1, "{r:?}");
    let r = run_file_mode(&dir.join("array_relax_concrete_unsafe.c"), 32, 30.0, paths);
    assert_eq!(r.verdict(), Verdict::Unsafe, "{}", r.outcome.reason());
    assert!(r.smt_checks <= 2, "{r:?}");
    // A write at an index the path does not fix forgets what was known: the branch on
    // the element read back needs the solver, and both of its sides are feasible.
    let src = "void main() { int a[3] = {1, 2, 3}; int k; k = u; assume(0 <= k && k < 3); a[k] = 7; if (a[1] == 7) ERROR: ; }\n";
    let r = run_text(src, Unwind::Fixed(2));
    assert_eq!(r.verdict(), Verdict::Unsafe, "{}", r.outcome.reason());
    let src = "void main() { int a[3] = {1, 2, 3}; int k; k = u; assume(0 <= k && k < 3); a[k] = 7; if (a[1] == 9) ERROR: ; }\n";
    let r = run_text(src, Unwind::Fixed(2));
    assert_eq!(r.verdict(), Verdict::Safe, "{}", r.outcome.reason());
    assert!(r.smt_checks > 0, "{r:?}");
}

fn run_mode(path: &Path, mode: lpmc::BmcMode, timeout_s: f64) -> BmcReport {
    let loaded = lpmc::load_path(path).expect("the program loads");
    bmc(
        &loaded,
        &BmcOptions {
            unwind: Unwind::Auto,
            timeout_s: Some(timeout_s),
            mode,
            memory_mb: TEST_MEMORY_MB,
            ..Default::default()
        },
    )
}

/// The merged engine (one formula per bound) and the path-by-path engine agree wherever
/// both decide, and neither contradicts a program's expectation. A fixed sample of
/// lp-programs (every fourth in name order); all of them with `LPMC_BMC_ALL=1`.
#[test]
fn merged_and_path_engines_agree() {
    let mut progs: Vec<_> = programs("safe");
    progs.extend(programs("unsafe"));
    progs.sort();
    let all = std::env::var("LPMC_BMC_ALL").is_ok();
    let sample: Vec<_> = progs
        .iter()
        .enumerate()
        .filter(|(i, _)| all || i % 4 == 0)
        .map(|(_, p)| p)
        .collect();
    let (mut both, mut merged_decided) = (0, 0);
    for p in &sample {
        let expect = header(p, "expect");
        let m = run_mode(p, lpmc::BmcMode::Merged, 1.0);
        let s = run_mode(p, lpmc::BmcMode::Paths, 1.0);
        for (what, r) in [("merged", &m), ("paths", &s)] {
            let v = r.verdict();
            if v != Verdict::Unknown {
                assert_eq!(
                    Some(format!("{v:?}").to_lowercase()),
                    expect,
                    "{what} on {}: {}",
                    p.display(),
                    r.outcome.reason()
                );
            }
        }
        if m.verdict() != Verdict::Unknown {
            merged_decided += 1;
            if s.verdict() != Verdict::Unknown {
                both += 1;
                assert_eq!(m.verdict(), s.verdict(), "{}", p.display());
            }
        }
    }
    // The merged engine decides most of the sample (bounded loops, small programs).
    assert!(
        merged_decided * 2 >= sample.len(),
        "the merged engine decided only {merged_decided} of {}",
        sample.len()
    );
    assert!(both > 0);
}

/// Three feasible branches in each of ten rounds: 3^10 paths, one merged formula of a
/// few dozen states. The merged engine decides both twins; path by path does not come
/// near (tens of thousands of paths, each with solver calls, against a 1 s budget).
#[test]
fn many_branches_per_iteration_need_the_merged_formula() {
    for (name, want) in [
        ("branchy_sum.lp", Verdict::Safe),
        ("branchy_sum_unsafe.lp", Verdict::Unsafe),
    ] {
        let p = lp_dir().join(name);
        for mode in [lpmc::BmcMode::Merged, lpmc::BmcMode::Auto] {
            let r = run_mode(&p, mode, 20.0);
            assert_eq!(
                r.verdict(),
                want,
                "{mode} on {name}: {}",
                r.outcome.reason()
            );
            assert!(r.states > 0, "{mode} on {name} built no merged formula");
        }
        let r = run_mode(&p, lpmc::BmcMode::Paths, 1.0);
        assert_eq!(r.verdict(), Verdict::Unknown, "paths on {name}");
    }
}

/// Joins after a loop left at different iterations, calls inside a loop, and the bound:
/// SAFE needs every path inside it; UNSAFE is replayed.
#[test]
fn merged_engine_on_loops_calls_and_bounds() {
    let text = "int a[4]; int s;
void add(int x) { if (x > 0) s = s + x; }
void main() {
  int i, n;
  n = u;
  assume(n >= 0 && n <= 4);
  s = 0;
  i = 0;
  while (i < n) { a[i] = u; assume(a[i] <= 2); add(a[i]); i = i + 1; }
  assert(s <= LIMIT);
}";
    let run = |limit: &str, unwind: Unwind| {
        let file = lpmc::SourceFile::new("t.lp", text.replace("LIMIT", limit));
        let loaded = lpmc::load(file).expect("the program loads");
        bmc(
            &loaded,
            &BmcOptions {
                unwind,
                timeout_s: Some(20.0),
                mode: lpmc::BmcMode::Merged,
                ..Default::default()
            },
        )
    };
    assert_eq!(run("8", Unwind::Auto).verdict(), Verdict::Safe);
    assert_eq!(run("7", Unwind::Auto).verdict(), Verdict::Unsafe);
    // Four iterations need bound 4: below it the answer is never SAFE.
    assert_eq!(run("8", Unwind::Fixed(3)).verdict(), Verdict::Unknown);
    assert_eq!(run("8", Unwind::Fixed(4)).verdict(), Verdict::Safe);
}

fn run_loaded(path: &Path, no_accel: bool, unwind: Unwind) -> BmcReport {
    let text = std::fs::read_to_string(path).expect("the program reads");
    let file = lpmc::SourceFile::new(path.to_string_lossy(), text);
    // Path by path: the bounds compared are the path engine's.
    run_source_mode(file, no_accel, unwind, 30.0, lpmc::BmcMode::Paths)
}

/// Loop acceleration offers a shortcut at every loop head. bmc takes it once per loop
/// entry, so a program whose loops bmc unwinds completely without acceleration is still
/// SAFE within the same bound with it (the shortcut does not double the paths per
/// unwinding), and the deep errors of the accelerated twins are found at bound 1.
#[test]
fn acceleration_keeps_unwinding_proofs_and_finds_deep_errors() {
    let lp = lp_dir();
    for name in [
        "const_global.lp",
        "deep_magic_constant.lp",
        "widen_two_phase.lp",
        "cint_uchar_counter.c",
        "nested_loops.c",
    ] {
        let p = lp.join(name);
        let plain = run_loaded(&p, true, Unwind::Auto);
        assert_eq!(
            plain.verdict(),
            Verdict::Safe,
            "{name} without acceleration"
        );
        let k = match &plain.outcome {
            lpmc::Outcome::Safe(pr) => pr.bound.expect("a bmc proof has a bound"),
            o => panic!("{name}: {}", o.reason()),
        };
        let accel = run_loaded(&p, false, Unwind::Fixed(k));
        assert_eq!(
            accel.verdict(),
            Verdict::Safe,
            "{name} with acceleration at bound {k}: {}",
            accel.outcome.reason()
        );
    }
    // The loops that only check (`check_*`) are not among them: bmc does not take their
    // transitions, which jump over checks its unrolling tests anyway.
    let twins: Vec<_> = sources(&lp.join("accel"))
        .into_iter()
        .filter(|p| header(p, "expect").as_deref() == Some("unsafe"))
        .filter(|p| {
            !p.file_name()
                .is_some_and(|n| n.to_string_lossy().starts_with("check_"))
        })
        .collect();
    assert!(twins.len() >= 5, "too few accelerated twins");
    for p in &twins {
        let r = run_loaded(p, false, Unwind::Fixed(1));
        let doubling = p.to_string_lossy().contains("doubling");
        if !doubling {
            assert_eq!(
                r.verdict(),
                Verdict::Unsafe,
                "{}: {}",
                p.display(),
                r.outcome.reason()
            );
        }
    }
}

/// A fixed bound past the first merged bounds (as the certificate of a bounded proof
/// re-checks it) runs the way the growing schedule runs at that bound: path by path.
/// break_fill_down_100.lp's paths all end within 128; the merged formula of that bound
/// has over a thousand states.
#[test]
fn a_fixed_bound_runs_as_the_growing_schedule_does_at_that_bound() {
    let p = lp_dir().join("break_fill_down_100.lp");
    let r = run_file(&p, 128, 60.0);
    assert_eq!(r.verdict(), Verdict::Safe, "{}", r.outcome.reason());
    assert_eq!(r.states, 0, "a merged formula was built");
    assert!(r.paths > 0);
}

/// One meaning of the bound in every mode: at most K iterations per entry into a loop, as
/// CBMC unwinds. Each program needs exactly `need` iterations in some entry into some
/// loop, and more than `need` in all entries of a loop together (a nested loop, a loop in
/// a procedure called from a loop, two loops in sequence with a loop around them): bound
/// `need` is SAFE in every mode and `need - 1` never is; a merged proof of the growing
/// bound names `need`.
#[test]
fn the_bound_counts_iterations_per_loop_entry_in_every_mode() {
    let nested = "extern int __VERIFIER_nondet_int(void);
int main() {
  int i, j, s = 0, x;
  x = __VERIFIER_nondet_int();
  for (i = 0; i < 3; i++) {
    for (j = 0; j < 5; j++) { if (x > j) { s = s + 1; } else { s = s + 2; } }
  }
  if (s < 15 || s > 30) { ERROR: ; }
  return 0;
}";
    let callee = "extern int __VERIFIER_nondet_int(void);
int g;
void add(int x) { int j; for (j = 0; j < 5; j++) { if (x > j) g = g + 1; } }
int main() {
  int i, x = __VERIFIER_nondet_int();
  for (i = 0; i < 2; i++) { add(x); }
  if (g > 10) { ERROR: ; }
  return 0;
}";
    let sequence = "extern int __VERIFIER_nondet_int(void);
int main() {
  int i, j, k, s = 0;
  for (i = 0; i < 2; i++) {
    for (j = 0; j < 4; j++) { s = s + 1; }
    for (k = 0; k < 4; k++) { s = s - 1; }
  }
  if (s != 0) { ERROR: ; }
  return 0;
}";
    for (name, text, need) in [
        ("nested", nested, 5),
        ("callee", callee, 5),
        ("sequence", sequence, 4),
    ] {
        for mode in [
            lpmc::BmcMode::Paths,
            lpmc::BmcMode::Merged,
            lpmc::BmcMode::Auto,
        ] {
            let run = |k: u32| {
                run_source_mode(
                    lpmc::SourceFile::new(format!("{name}.c"), text),
                    true,
                    Unwind::Fixed(k),
                    60.0,
                    mode,
                )
            };
            let r = run(need);
            assert_eq!(
                r.verdict(),
                Verdict::Safe,
                "{name}, {mode} at bound {need}: {}",
                r.outcome.reason()
            );
            let r = run(need - 1);
            assert_eq!(
                r.verdict(),
                Verdict::Unknown,
                "{name}, {mode} at bound {}: {}",
                need - 1,
                r.outcome.reason()
            );
            assert!(
                r.outcome.reason().contains("enters the loop at line"),
                "{name}, {mode}: {}",
                r.outcome.reason()
            );
            // The growing bound: a merged proof names the least bound its formula is
            // the unrolling of, `need`, whatever bound the formula was built for.
            let r = run_source_mode(
                lpmc::SourceFile::new(format!("{name}.c"), text),
                true,
                Unwind::Auto,
                60.0,
                mode,
            );
            assert_eq!(r.verdict(), Verdict::Safe, "{name}, {mode}, auto");
            if mode != lpmc::BmcMode::Paths {
                assert_eq!(r.unwind, need, "{name}, {mode}, auto");
                assert!(
                    r.outcome
                        .reason()
                        .contains(&format!("within unwinding bound {need}")),
                    "{name}, {mode}: {}",
                    r.outcome.reason()
                );
            }
        }
    }
}

/// Loops with constant bounds, nested, in callees, branching on inputs
/// (lp-programs/bounded/): the growing bound decides each with merged formulas, by bound
/// 8. A proof names a signed overflow as an assumption only where an execution within
/// the bound may overflow (`// bmc-assumes:` lines; `none` where every value stays
/// small).
#[test]
fn nested_constant_loops_are_decided_by_merged_formulas() {
    let progs = sources(&lp_dir().join("bounded"));
    assert!(progs.len() >= 8, "only {} programs", progs.len());
    for p in progs {
        let want = header(&p, "expect").expect("an expect header");
        let loaded = lpmc::load_path(&p).expect("the program loads");
        let r = bmc(
            &loaded,
            &BmcOptions {
                timeout_s: Some(60.0),
                memory_mb: TEST_MEMORY_MB,
                ..Default::default()
            },
        );
        let reason = r.outcome.reason();
        let got = match r.verdict() {
            Verdict::Safe => "safe",
            Verdict::Unsafe => "unsafe",
            Verdict::Unknown => "unknown",
        };
        assert_eq!(got, want, "{}: {reason}", p.display());
        // Their loops have accelerated alternatives, but the merged formulas decide them
        // before any path is explored alone (an UNSAFE reads back the one it confirms).
        let paths = u64::from(got == "unsafe");
        assert_eq!(r.paths, paths, "{}: paths explored alone", p.display());
        assert!(
            r.unwind <= 8 && r.states > 0,
            "{}: bound {}, {} merged states",
            p.display(),
            r.unwind,
            r.states
        );
        if let lpmc::Outcome::Safe(proof) = &r.outcome {
            let want: Vec<u32> = match header(&p, "bmc-assumes")
                .expect("a bmc-assumes header")
                .as_str()
            {
                "none" => Vec::new(),
                list => list.split(',').map(|l| l.trim().parse().unwrap()).collect(),
            };
            assert_eq!(proof.assumed_no_overflow, want, "{}", p.display());
            // In the portfolio the bounded engine races for its verdict alone; the re-check
            // of its proof asks which assumptions some execution may break.
            let opts = lpmc::CheckOptions {
                timeout_s: Some(60.0),
                memory_mb: TEST_MEMORY_MB,
                ..Default::default()
            };
            let c = lpmc::portfolio(&loaded, &opts, lpmc::EngineChoice::Bmc);
            let lpmc::Outcome::Safe(again) = &c.outcome else {
                panic!("{}: {}", p.display(), c.outcome.reason());
            };
            assert!(again.certificate.is_some(), "{}", p.display());
            assert_eq!(
                again.assumed_no_overflow,
                want,
                "{}: portfolio",
                p.display()
            );
        }
    }
}

/// An access out of bounds in every execution stops it there: the accesses after it are
/// never reached by a defined execution, so the merged formula's proof assumes only the
/// first (the conditions are asked in the order of the states).
#[test]
fn a_merged_proof_assumes_only_the_first_undefined_access() {
    let p = lp_dir().join("array_oob_write_safe.c");
    let r = run_file_mode(&p, 4, 60.0, lpmc::BmcMode::Merged);
    let lpmc::Outcome::Safe(proof) = &r.outcome else {
        panic!("{}", r.outcome.reason());
    };
    assert_eq!(proof.assumed_in_bounds, vec![9]);
}

/// States from which no error can be reached get no place in the merged formula: an
/// unbounded loop after the last check, or in a procedure called after it, cuts no path
/// that matters, so bound 1 proves the check; the same loop before the check does not.
#[test]
fn a_loop_after_the_last_check_needs_no_unwinding() {
    let after = "void spin(int y) { while (y > 0) y = y - 1; }
void main() { int x; x = u; if (x > 0 && x < 0) ERROR: ; spin(x); while (x > 0) x = x - 1; }\n";
    let before =
        "void main() { int x; x = u; while (x > 0) x = x - 1; if (x > 0 && x < 0) ERROR: ; }\n";
    for (src, want) in [(after, Verdict::Safe), (before, Verdict::Unknown)] {
        let r = run_source_mode(
            lpmc::SourceFile::new("t.lp", src),
            true,
            Unwind::Fixed(1),
            60.0,
            lpmc::BmcMode::Merged,
        );
        assert_eq!(r.verdict(), want, "{src}: {}", r.outcome.reason());
    }
}

/// The accelerated alternatives are explored path by path at bound 1 once the merged
/// formulas of the small bounds leave a program undecided: an error behind a loop of
/// 10^5 iterations is found under `auto` whether the bound grows or is fixed.
#[test]
fn a_deep_error_behind_an_accelerated_loop_is_found_after_the_merged_bounds() {
    for name in ["deep_loop_100000_unsafe.c", "deep_magic_constant_unsafe.lp"] {
        let p = lp_dir().join(name);
        let loaded = lpmc::load_path(&p).expect("the program loads");
        assert!(
            loaded.cfg_text().contains("$n = u"),
            "{name}: no accelerated loop"
        );
        for unwind in [Unwind::Auto, Unwind::Fixed(1), Unwind::Fixed(4)] {
            let r = bmc(
                &loaded,
                &BmcOptions {
                    unwind,
                    timeout_s: Some(60.0),
                    memory_mb: TEST_MEMORY_MB,
                    ..Default::default()
                },
            );
            assert_eq!(
                r.verdict(),
                Verdict::Unsafe,
                "{name} at {unwind}: {}",
                r.outcome.reason()
            );
        }
    }
}
