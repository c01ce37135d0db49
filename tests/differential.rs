//! Differential test of `lpmc check` against the concrete interpreter on random small
//! array-free programs (globals, locals, `u` inputs, `?:`, parallel assignment, bounded
//! loops, calls, assertions). Whenever some random run of the interpreter reaches an error,
//! lpmc must not answer SAFE; every UNSAFE answer must come with inputs that drive the
//! interpreter to an error.

use lpmc::diag::SourceFile;
use lpmc::driver::{self, CheckOptions};
use lpmc::interp::{self, Limits, ListOracle, Outcome, RandomOracle};
use lpmc::report::Verdict;
use num_bigint::BigInt;
use proptest::prelude::*;
use proptest::test_runner::{Config, TestRunner};

const VARS: &[&str] = &["x", "y", "g"];

fn var() -> impl Strategy<Value = String> {
    prop::sample::select(VARS).prop_map(|s| s.to_string())
}

fn atom() -> impl Strategy<Value = String> {
    prop_oneof![
        var(),
        (-3i32..6).prop_map(|c| c.to_string()),
        Just("u".to_string()),
    ]
}

fn expr() -> impl Strategy<Value = String> {
    prop_oneof![
        4 => atom(),
        2 => (atom(), prop::sample::select(&["+", "-"][..]), atom())
            .prop_map(|(a, o, b)| format!("{a} {o} {b}")),
        1 => (-2i32..4, var()).prop_map(|(c, v)| format!("{c} * {v}")),
        1 => (cond(), atom(), atom()).prop_map(|(c, a, b)| format!("({c} ? {a} : {b})")),
        1 => (var(), 2i32..4).prop_map(|(v, c)| format!("{v} % {c}")),
    ]
}

fn cond() -> impl Strategy<Value = String> {
    (
        var(),
        prop::sample::select(&["<", "<=", "==", "!=", ">", ">="][..]),
        atom(),
    )
        .prop_map(|(a, o, b)| format!("{a} {o} {b}"))
}

fn stmt(depth: u32) -> BoxedStrategy<String> {
    let leaf = prop_oneof![
        4 => (var(), expr()).prop_map(|(v, e)| format!("{v} = {e};")),
        1 => (expr(), expr()).prop_map(|(a, b)| format!("x, y = {a}, {b};")),
        2 => cond().prop_map(|c| format!("assert({c});")),
        1 => cond().prop_map(|c| format!("assume({c});")),
        1 => var().prop_map(|v| format!("{v} = f({v});")),
    ];
    if depth == 0 {
        return leaf.boxed();
    }
    let inner = move || prop::collection::vec(stmt(depth - 1), 1..3).prop_map(|v| v.join(" "));
    prop_oneof![
        5 => leaf,
        1 => (cond(), inner(), inner())
            .prop_map(|(c, a, b)| format!("if ({c}) {{ {a} }} else {{ {b} }}")),
        1 => (1i32..4, inner()).prop_map(|(k, body)| format!(
            "for (i = 0; i < {k}; i++) {{ {body} }}"
        )),
    ]
    .boxed()
}

fn program() -> impl Strategy<Value = String> {
    (
        prop::collection::vec(stmt(2), 1..6),
        expr(),
        prop::bool::ANY,
    )
        .prop_map(|(body, fexpr, init)| {
            let init = if init { "x = u; y = u;" } else { "" };
            format!(
                "int g;\nint f(int a) {{ int x, y; x = a; y = u; return {fexpr}; }}\nvoid main() {{\n  int x, y, i;\n  {init}\n  {}\n}}\n",
                body.join("\n  ")
            )
        })
}

fn index() -> impl Strategy<Value = String> {
    prop_oneof![
        3 => (-1i32..4).prop_map(|c| c.to_string()),
        2 => var(),
        1 => (var(), 1i32..3).prop_map(|(v, c)| format!("{v} + {c}")),
    ]
}

fn arr_atom() -> impl Strategy<Value = String> {
    prop_oneof![
        3 => atom(),
        2 => (prop::sample::select(&["a", "b"][..]), index()).prop_map(|(a, i)| format!("{a}[{i}]")),
    ]
}

fn arr_cond() -> impl Strategy<Value = String> {
    (
        arr_atom(),
        prop::sample::select(&["<", "<=", "==", "!=", ">", ">="][..]),
        arr_atom(),
    )
        .prop_map(|(a, o, b)| format!("{a} {o} {b}"))
}

fn arr_stmt(depth: u32) -> BoxedStrategy<String> {
    let leaf = prop_oneof![
        3 => (var(), arr_atom()).prop_map(|(v, e)| format!("{v} = {e};")),
        3 => (prop::sample::select(&["a", "b"][..]), index(), arr_atom())
            .prop_map(|(a, i, e)| format!("{a}[{i}] = {e};")),
        2 => arr_cond().prop_map(|c| format!("assert({c});")),
        1 => arr_cond().prop_map(|c| format!("assume({c});")),
    ];
    if depth == 0 {
        return leaf.boxed();
    }
    let inner = move || prop::collection::vec(arr_stmt(depth - 1), 1..3).prop_map(|v| v.join(" "));
    prop_oneof![
        5 => leaf,
        1 => (arr_cond(), inner(), inner())
            .prop_map(|(c, a, b)| format!("if ({c}) {{ {a} }} else {{ {b} }}")),
        1 => (1i32..4, inner()).prop_map(|(k, body)| format!(
            "for (i = 0; i < {k}; i++) {{ {body} }}"
        )),
    ]
    .boxed()
}

/// Programs with a global array `a[3]` (zero-initialised) and a local `b[2]` (arbitrary
/// contents), read and written at constant, variable and out-of-range indices.
fn array_program() -> impl Strategy<Value = String> {
    (prop::collection::vec(arr_stmt(2), 1..6), prop::bool::ANY).prop_map(|(body, init)| {
        let init = if init { "x = u; y = u;" } else { "" };
        format!(
            "int g;\nint a[3];\nvoid main() {{\n  int x, y, i;\n  int b[2];\n  {init}\n  {}\n}}\n",
            body.join("\n  ")
        )
    })
}

/// Whether some of `runs` random runs reach an error.
fn interp_reaches_error(cfg: &lpmc::cfg::Cfg, runs: u64) -> bool {
    (0..runs).any(|seed| {
        let r = interp::run(
            cfg,
            &mut RandomOracle::new(seed),
            Limits {
                max_steps: 10_000,
                ..Limits::default()
            },
            false,
        );
        matches!(r.outcome, Outcome::Error { .. })
    })
}

fn differential(strategy: impl Strategy<Value = String>, default_cases: u32) -> [u32; 3] {
    let cases: u32 = std::env::var("LPMC_DIFF_CASES")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(default_cases);
    let mut runner = TestRunner::new(Config {
        cases,
        failure_persistence: None,
        ..Config::default()
    });
    let mut counts = [0u32; 3];
    let counts_ref = std::cell::RefCell::new(&mut counts);
    runner
        .run(&strategy, |src| {
            let loaded = lpmc::frontend::load(SourceFile::new("gen.c", &src)).map_err(|e| {
                TestCaseError::fail(format!("generated program rejected:\n{}", e.render(false)))
            })?;
            let report = driver::check(
                &loaded,
                &CheckOptions {
                    timeout_s: Some(20.0),
                    ..Default::default()
                },
            );
            let reached = interp_reaches_error(&loaded.cfg, 30);
            counts_ref.borrow_mut()[report.verdict().exit_code() as usize / 10] += 1;
            if reached {
                prop_assert_ne!(
                    report.verdict(),
                    Verdict::Safe,
                    "SAFE, but the interpreter reaches an error:\n{}",
                    src
                );
            }
            if report.verdict() == Verdict::Unsafe {
                let t = report
                    .outcome
                    .counterexample()
                    .expect("UNSAFE carries a trace");
                // Independently: the reported inputs, in execution order, drive the
                // interpreter to an error. (With arrays the interpreter asks for initial
                // cells lazily, at their first read, while the report lists them at the
                // step that made the array arbitrary; the driver's own replay covers
                // those programs.)
                if loaded.cfg.has_arrays() {
                    return Ok(());
                }
                let vals: Vec<BigInt> = t
                    .inputs
                    .iter()
                    .map(|i| i.value.parse().expect("decimal value"))
                    .collect();
                let r = interp::run(
                    &loaded.cfg,
                    &mut ListOracle::new(vals),
                    Limits::default(),
                    false,
                );
                prop_assert!(
                    matches!(r.outcome, Outcome::Error { .. }),
                    "UNSAFE inputs do not reach an error ({:?}):\n{}",
                    r.outcome,
                    src
                );
            }
            Ok(())
        })
        .unwrap();
    counts
}

#[test]
fn lpmc_agrees_with_the_interpreter() {
    let [safe, unsafe_, unknown] = differential(program(), 2000);
    eprintln!("differential: {safe} safe, {unsafe_} unsafe, {unknown} unknown");
    assert!(
        safe > 0 && unsafe_ > 0,
        "the generator should produce both kinds"
    );
}

#[test]
fn lpmc_agrees_with_the_interpreter_on_arrays() {
    let [safe, unsafe_, unknown] = differential(array_program(), 500);
    eprintln!("differential (arrays): {safe} safe, {unsafe_} unsafe, {unknown} unknown");
    assert!(
        safe > 0 && unsafe_ > 0,
        "the generator should produce both kinds"
    );
}
