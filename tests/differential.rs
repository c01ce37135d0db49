//! Differential test of `lpmc check` against the concrete interpreter on random small
//! array-free programs (globals, locals, `u` inputs, `?:`, parallel assignment, bounded
//! loops, calls, assertions). Whenever some random run of the interpreter reaches an error,
//! lpmc must not answer SAFE; every UNSAFE answer must come with inputs that drive the
//! interpreter to an error. The same holds for the portfolio of all engines.

mod common;

use common::gen::{array_program, interp_reaches_error, scalar_program};
use lpmc::run_inputs;
use lpmc::CheckOptions;
use lpmc::SourceFile;
use lpmc::Verdict;
use num_bigint::BigInt;
use proptest::prelude::*;
use proptest::test_runner::{Config, TestRunner};

fn differential(
    strategy: impl Strategy<Value = String>,
    default_cases: u32,
    portfolio: bool,
) -> [u32; 3] {
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
            let loaded = lpmc::load(SourceFile::new("gen.c", &src)).map_err(|e| {
                TestCaseError::fail(format!("generated program rejected:\n{}", e.render(false)))
            })?;
            let opts = CheckOptions {
                timeout_s: Some(20.0),
                ..Default::default()
            };
            let report = if portfolio {
                lpmc::portfolio(&loaded, &opts, lpmc::EngineChoice::All)
            } else {
                lpmc::check(&loaded, &opts)
            };
            let reached = interp_reaches_error(&loaded, 30);
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
                if loaded.has_arrays() {
                    return Ok(());
                }
                let vals: Vec<BigInt> = t
                    .inputs
                    .iter()
                    .map(|i| i.value.parse().expect("decimal value"))
                    .collect();
                let r = run_inputs(&loaded, vals, 1_000_000);
                prop_assert!(
                    r.outcome.is_error(),
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
    let [safe, unsafe_, unknown] = differential(scalar_program(), 2000, false);
    eprintln!("differential: {safe} safe, {unsafe_} unsafe, {unknown} unknown");
    assert!(
        safe > 0 && unsafe_ > 0,
        "the generator should produce both kinds"
    );
}

#[test]
fn lpmc_agrees_with_the_interpreter_on_arrays() {
    let [safe, unsafe_, unknown] = differential(array_program(), 500, false);
    eprintln!("differential (arrays): {safe} safe, {unsafe_} unsafe, {unknown} unknown");
    assert!(
        safe > 0 && unsafe_ > 0,
        "the generator should produce both kinds"
    );
}

/// The portfolio (CEGAR, bmc and the concrete search under one deadline) on the same
/// programs: no engine's answer may contradict the interpreter.
#[test]
fn the_portfolio_agrees_with_the_interpreter() {
    let [safe, unsafe_, unknown] = differential(scalar_program(), 300, true);
    eprintln!("differential (portfolio): {safe} safe, {unsafe_} unsafe, {unknown} unknown");
    assert!(
        safe > 0 && unsafe_ > 0,
        "the generator should produce both kinds"
    );
    let [safe, unsafe_, unknown] = differential(array_program(), 100, true);
    eprintln!("differential (portfolio, arrays): {safe} safe, {unsafe_} unsafe, {unknown} unknown");
    assert!(safe > 0 && unsafe_ > 0);
}
