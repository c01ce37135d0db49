//! The concrete search and random runs on programs that draw inputs inside loops, each
//! checked against its own range right after the draw (`lp-programs/search/`): most runs
//! whose draws pass their checks reach the error, and draws from the learned ranges get
//! there. Every budget here is counted (runs), never wall-clock time, so the verdicts do
//! not depend on the machine's speed.

mod common;

use common::{header, lp_dir, sources};
use lpmc::{CheckOptions, EngineChoice, RandomRuns, RunOutcome, Verdict};
use num_bigint::BigInt;
use std::path::PathBuf;
use std::process::Command;

fn programs() -> Vec<PathBuf> {
    let progs = sources(&lp_dir().join("search"));
    assert!(progs.len() >= 4, "only {} programs", progs.len());
    progs
}

fn load(p: &std::path::Path) -> lpmc::Loaded {
    lpmc::load_path(p)
        .unwrap_or_else(|e| panic!("{} does not load:\n{}", p.display(), e.render(false)))
}

/// `--engine search` without a time limit: the search alone, with its budget of runs.
#[test]
fn the_search_engine_finds_each_program_unsafe() {
    for p in programs() {
        assert_eq!(
            header(&p, "expect").as_deref(),
            Some("unsafe"),
            "{}",
            p.display()
        );
        let r = lpmc::portfolio(&load(&p), &CheckOptions::default(), EngineChoice::Search);
        assert_eq!(
            r.verdict(),
            Verdict::Unsafe,
            "{}: {}",
            p.display(),
            r.outcome.reason()
        );
    }
}

/// `lpmc run --random 40` reaches the error of each program.
#[test]
fn random_runs_reach_each_error() {
    for p in programs() {
        let loaded = load(&p);
        let runs = RandomRuns::new(&loaded);
        let errors = (0..40)
            .filter(|&s| runs.run(s, 100_000).outcome.is_error())
            .count();
        assert!(errors >= 2, "{}: {errors} of 40 runs err", p.display());
    }
}

/// A run that fails an assumption says at which one: line and column.
#[test]
fn a_blocked_run_names_its_assumption() {
    let p = lp_dir().join("search/assume_range_unsafe.c");
    // The first draw passes `0 < y && y < 100`, the second does not.
    let inputs = vec![BigInt::from(5), BigInt::from(200)];
    let r = lpmc::run_inputs(&load(&p), inputs, 10_000);
    assert_eq!(
        r.outcome,
        RunOutcome::Blocked {
            line: 10,
            column: 5
        }
    );
    let out = Command::new(env!("CARGO_BIN_EXE_lpmc"))
        .args(["run", "--inputs", "5,200"])
        .arg(&p)
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(
        text.trim(),
        format!(
            "inputs: stopped by a false assumption at line 10, column 5 (path length {})",
            r.steps
        )
    );
    assert_eq!(out.status.code(), Some(0));
}
