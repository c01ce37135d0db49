//! Differential test on random small C programs of the kind of verification tasks
//! ([`common::cgen`]: inputs bounded by assumptions, also inside loops; nested constant
//! loops; `%` and `/` by constants; a small array; procedures with unused parameters,
//! globals and several call sites; bounded recursion), against the interpreter:
//! - every SAFE proof of the CEGAR engine passes its certificate check (a proof the
//!   check refuses is an answer lost);
//! - no SAFE where a run of the program that passes its assumptions reaches an error
//!   (runs of the program's in-range twin);
//! - every UNSAFE comes with inputs that drive the interpreter to an error;
//! - an error that at least 1 in 10 in-range runs reaches, the concrete search finds
//!   (within its budget of runs).
//!
//! `LPMC_RANDOM_C_CASES` sets the number of programs (a fixed-seed sample of 40 by
//! default), `LPMC_RANDOM_C_FIRST` the first seed, `LPMC_RANDOM_C_TIMEOUT` the time
//! limit of one check in seconds (5; a safety net, UNKNOWN is accepted). Seeds 0 to 1254
//! (about 40 minutes in a release build) give no failure; seed 854 was one
//! (lp-programs/certify/callee_local_split.c).

mod common;

use common::cgen::c_program;
use lpmc::{CheckOptions, Outcome, SourceFile};
use num_bigint::BigInt;

/// Programs per CI run.
const CASES: u64 = 40;
/// In-range runs of each program's twin.
const RUNS: u64 = 40;

fn env_u64(name: &str, default: u64) -> u64 {
    std::env::var(name)
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(default)
}

/// How many of `runs` in-range runs (seeds 0, 7919, 2·7919, …) of the twin reach an error.
fn in_range_errors(twin: &lpmc::Loaded, runs: u64) -> u64 {
    (0..runs)
        .filter(|r| {
            let seed = BigInt::from((r * 7919) % 65537);
            lpmc::run_inputs(twin, vec![seed], 1_000_000)
                .outcome
                .is_error()
        })
        .count() as u64
}

#[test]
fn every_proof_on_random_c_programs_is_certified_and_agrees_with_in_range_runs() {
    let cases = env_u64("LPMC_RANDOM_C_CASES", CASES);
    let first = env_u64("LPMC_RANDOM_C_FIRST", 0);
    let solvers = lpmc::smt::cvc5_solvers();
    let mut counts = [0u64; 3];
    let mut failures = Vec::new();
    for seed in first..first + cases {
        let g = c_program(seed);
        let load = |name: &str, text: &str| {
            lpmc::load(SourceFile::new(name, text)).unwrap_or_else(|e| {
                panic!(
                    "seed {seed}: generated program rejected:\n{}\n{text}",
                    e.render(false)
                )
            })
        };
        let loaded = load("gen.c", &g.program);
        let twin = load("twin.c", &g.in_range);
        // Counted budgets (the time limit is a safety net): a check that runs out of
        // either is UNKNOWN, which this test accepts; its assertions are about the
        // answers given.
        let opts = CheckOptions {
            timeout_s: Some(env_u64("LPMC_RANDOM_C_TIMEOUT", 5) as f64),
            memory_mb: common::TEST_MEMORY_MB,
            max_refinements: Some(10),
            budget: Some(lpmc::Budget {
                max_steps: 20_000,
                max_facts: 20_000,
                ..Default::default()
            }),
            ..Default::default()
        };
        let t0 = std::time::Instant::now();
        let report = lpmc::check(&loaded, &opts);
        let reached = in_range_errors(&twin, RUNS);
        eprintln!(
            "seed {seed}: {:?} in {} ms; {reached} of {RUNS} in-range runs reach an error",
            report.verdict(),
            t0.elapsed().as_millis()
        );
        counts[report.verdict().exit_code() as usize / 10] += 1;
        let mut fail = |why: String| failures.push(format!("seed {seed}: {why}\n{}", g.program));
        match &report.outcome {
            Outcome::Safe(_) => {
                if reached > 0 {
                    fail(format!(
                        "SAFE, but {reached} of {RUNS} in-range runs reach an error"
                    ));
                    continue;
                }
                let certified = lpmc::certified(
                    &loaded,
                    report.outcome.clone(),
                    &solvers,
                    &lpmc::Deadline::none(),
                );
                if let Outcome::Unknown(g) = &certified {
                    fail(format!("the proof did not certify: {g}"));
                }
            }
            Outcome::Unsafe(_) => {
                let t = report
                    .outcome
                    .counterexample()
                    .expect("UNSAFE carries a trace");
                let vals: Vec<BigInt> = t
                    .inputs
                    .iter()
                    .map(|i| i.value.parse().expect("decimal value"))
                    .collect();
                let r = lpmc::run_inputs(&loaded, vals, 1_000_000);
                if !r.outcome.is_error() {
                    fail(format!(
                        "UNSAFE inputs do not reach an error ({:?})",
                        r.outcome
                    ));
                }
            }
            Outcome::Unknown(_) => {}
        }
        // An error that 1 in 10 runs within the assumptions reaches, the search finds
        // (with its own budget of runs: no time limit). Seeds 82, 92 and 108 need the
        // hints of draws whose failed assumption returns from a procedure.
        if reached * 10 >= RUNS {
            let r = lpmc::portfolio(
                &loaded,
                &CheckOptions::default(),
                lpmc::EngineChoice::Search,
            );
            if r.verdict() != lpmc::Verdict::Unsafe {
                fail(format!(
                    "{reached} of {RUNS} in-range runs reach an error, the search answered {}",
                    r.outcome.reason()
                ));
            }
        }
    }
    eprintln!(
        "random C programs {first}..{}: {} safe, {} unsafe, {} unknown",
        first + cases,
        counts[0],
        counts[1],
        counts[2]
    );
    assert!(
        failures.is_empty(),
        "{} failures:\n{}",
        failures.len(),
        failures.join("\n")
    );
    assert!(
        counts[0] > 0 && counts[1] > 0,
        "the generator should produce both kinds"
    );
}

/// `LPMC_RANDOM_C_WRITE=DIR`: write the programs of the seeds chosen by
/// `LPMC_RANDOM_C_FIRST` and `LPMC_RANDOM_C_CASES` to DIR (to look at one).
#[test]
fn write_programs_when_asked() {
    let Some(dir) = std::env::var_os("LPMC_RANDOM_C_WRITE") else {
        return;
    };
    let first = env_u64("LPMC_RANDOM_C_FIRST", 0);
    for seed in first..first + env_u64("LPMC_RANDOM_C_CASES", CASES) {
        let g = c_program(seed);
        let dir = std::path::Path::new(&dir);
        std::fs::write(dir.join(format!("gen{seed}.c")), g.program).unwrap();
        std::fs::write(dir.join(format!("twin{seed}.c")), g.in_range).unwrap();
    }
}
