//! Differential test of `lpmc check` against the concrete interpreter on random small
//! array-free programs (globals, locals, `u` inputs, `?:`, parallel assignment, bounded
//! loops, calls, assertions). Whenever some random run of the interpreter reaches an error,
//! lpmc must not answer SAFE; every UNSAFE answer must come with inputs that drive the
//! interpreter to an error. The same holds for the portfolio of all engines. Random
//! programs over large and variable-length arrays exercise the symbolic cells.

mod common;

use common::gen::{array_program, interp_reaches_error, scalar_program, vla_program};
use lpmc::run_inputs;
use lpmc::CheckOptions;
use lpmc::Outcome;
use lpmc::SourceFile;
use lpmc::Verdict;
use num_bigint::BigInt;
use proptest::prelude::*;
use proptest::test_runner::{Config, TestRunner};

/// Counts of SAFE, UNSAFE and UNKNOWN answers (each check within `timeout_s`), of the
/// programs where some of `runs` random runs of the interpreter reach an error, and of the
/// SAFE proofs with symbolic cells.
fn differential(
    strategy: impl Strategy<Value = String>,
    default_cases: u32,
    portfolio: bool,
    runs: u64,
    timeout_s: f64,
) -> [u32; 5] {
    let cases: u32 = std::env::var("LPMC_DIFF_CASES")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(default_cases);
    let mut runner = TestRunner::new(Config {
        cases,
        failure_persistence: None,
        ..Config::default()
    });
    let mut counts = [0u32; 5];
    let counts_ref = std::cell::RefCell::new(&mut counts);
    runner
        .run(&strategy, |src| {
            let loaded = lpmc::load(SourceFile::new("gen.c", &src)).map_err(|e| {
                TestCaseError::fail(format!("generated program rejected:\n{}", e.render(false)))
            })?;
            let opts = CheckOptions {
                timeout_s: Some(timeout_s),
                ..Default::default()
            };
            let report = if portfolio {
                lpmc::portfolio(&loaded, &opts, lpmc::EngineChoice::All)
            } else {
                lpmc::check(&loaded, &opts)
            };
            let reached = interp_reaches_error(&loaded, runs);
            counts_ref.borrow_mut()[report.verdict().exit_code() as usize / 10] += 1;
            counts_ref.borrow_mut()[3] += u32::from(reached);
            if let Outcome::Safe(proof) = &report.outcome {
                counts_ref.borrow_mut()[4] += u32::from(!proof.symbolic.is_empty());
            }
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
    let [safe, unsafe_, unknown, ..] = differential(scalar_program(), 2000, false, 30, 20.0);
    eprintln!("differential: {safe} safe, {unsafe_} unsafe, {unknown} unknown");
    assert!(
        safe > 0 && unsafe_ > 0,
        "the generator should produce both kinds"
    );
}

#[test]
fn lpmc_agrees_with_the_interpreter_on_arrays() {
    let [safe, unsafe_, unknown, ..] = differential(array_program(), 500, false, 30, 20.0);
    eprintln!("differential (arrays): {safe} safe, {unsafe_} unsafe, {unknown} unknown");
    assert!(
        safe > 0 && unsafe_ > 0,
        "the generator should produce both kinds"
    );
}

/// Symbolic cells: arrays of nondet size, or of 100 cells, filled, copied,
/// summed and checked in loops up to a nondet `n`, and read at a nondet index. More random
/// runs than above (they must pass the assumptions on `n` and `j`), a shorter timeout (a
/// few programs wrap `char` cells past 127 and time out).
#[test]
fn lpmc_agrees_with_the_interpreter_on_symbolic_cells() {
    let [safe, unsafe_, unknown, reached, symbolic] =
        differential(vla_program(), 50, false, 200, 10.0);
    eprintln!(
        "differential (symbolic cells): {safe} safe ({symbolic} with symbolic cells), \
         {unsafe_} unsafe, {unknown} unknown; the interpreter reached an error in {reached}"
    );
    assert!(
        safe > 0 && unsafe_ > 0,
        "the generator should produce both kinds"
    );
    assert!(symbolic > 0, "the generator should need symbolic cells");
}

/// The portfolio (CEGAR, bmc and the concrete search under one deadline) on the same
/// programs: no engine's answer may contradict the interpreter.
#[test]
fn the_portfolio_agrees_with_the_interpreter() {
    let [safe, unsafe_, unknown, ..] = differential(scalar_program(), 300, true, 30, 20.0);
    eprintln!("differential (portfolio): {safe} safe, {unsafe_} unsafe, {unknown} unknown");
    assert!(
        safe > 0 && unsafe_ > 0,
        "the generator should produce both kinds"
    );
    let [safe, unsafe_, unknown, ..] = differential(array_program(), 100, true, 30, 20.0);
    eprintln!("differential (portfolio, arrays): {safe} safe, {unsafe_} unsafe, {unknown} unknown");
    assert!(safe > 0 && unsafe_ > 0);
}
