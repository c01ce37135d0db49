//! Concrete runs (`lpmc run`): the interpreter on a loaded program, with input values
//! from a list (then 0) or from a seeded random source. The interpreter is also the
//! oracle of the differential tests.

use crate::frontend::Loaded;
use crate::ids::NodeId;
use crate::interp::{self, Limits, ListOracle, Outcome, RandomOracle};
use crate::search::{self, DrawRanges, InRange};
use num_bigint::BigInt;

/// How a concrete run ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "kebab-case", tag = "outcome")]
pub enum RunOutcome {
    /// An error location was reached, by the statement at this line.
    Error {
        /// Its line.
        line: u32,
    },
    /// `main` returned, or `abort()`/`exit()` was called.
    Finished,
    /// An assumption was false at this line and column: the execution is not considered.
    Blocked {
        /// Its line.
        line: u32,
        /// Its column (1-based), where the assumption's statement starts.
        column: u32,
    },
    /// A signed arithmetic result at this line was out of its type's range, which C
    /// leaves undefined: the execution stops there without a verdict.
    Undefined {
        /// Its line.
        line: u32,
    },
    /// An array access at this line was outside the array's bounds, which C leaves
    /// undefined: the execution stops there without a verdict.
    OutOfBounds {
        /// Its line.
        line: u32,
    },
    /// The step limit was reached.
    StepLimit,
    /// The call-depth limit was reached.
    DepthLimit,
}

impl RunOutcome {
    /// Whether the run reached an error location.
    pub fn is_error(self) -> bool {
        matches!(self, RunOutcome::Error { .. })
    }

    /// How the run ended, for people (`max_steps`: the run's step limit).
    pub fn describe(self, max_steps: usize) -> String {
        match self {
            RunOutcome::Error { line } => format!("error reached at line {line}"),
            RunOutcome::Finished => "finished without error".to_string(),
            RunOutcome::Blocked { line, column } => {
                format!("stopped by a false assumption at line {line}, column {column}")
            }
            RunOutcome::Undefined { line } => format!(
                "stopped by undefined behaviour: a signed integer overflow at line {line} \
                 (--signed-overflow wrap makes it wrap, error reports it)"
            ),
            RunOutcome::OutOfBounds { line } => format!(
                "stopped by undefined behaviour: an array access out of bounds at line {line} \
                 (--array-bounds nondet makes the read arbitrary, error reports it)"
            ),
            RunOutcome::StepLimit => format!("step limit ({max_steps}) reached without error"),
            RunOutcome::DepthLimit => "call-depth limit reached without error".to_string(),
        }
    }
}

/// A concrete run.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
pub struct RunReport {
    /// How it ended.
    pub outcome: RunOutcome,
    /// Statements executed.
    pub steps: usize,
}

fn report(loaded: &Loaded, r: interp::Run) -> RunReport {
    let pos = |n: NodeId| loaded.file.line_col(loaded.cfg.nodes[n].span.start);
    let line = |n: NodeId| pos(n).line;
    RunReport {
        outcome: match r.outcome {
            Outcome::Error { at } => RunOutcome::Error { line: line(at) },
            Outcome::Finished => RunOutcome::Finished,
            Outcome::Blocked { at } => RunOutcome::Blocked {
                line: pos(at).line,
                column: pos(at).col,
            },
            Outcome::Undefined { at } => RunOutcome::Undefined { line: line(at) },
            Outcome::OutOfBounds { at } => RunOutcome::OutOfBounds { line: line(at) },
            Outcome::StepLimit => RunOutcome::StepLimit,
            Outcome::DepthLimit => RunOutcome::DepthLimit,
        },
        steps: r.steps,
    }
}

fn limits(max_steps: usize) -> Limits {
    Limits {
        max_steps,
        ..Limits::default()
    }
}

/// Run with these values for `u`, nondet calls and arbitrary data, in the order the
/// program asks for them (then 0).
pub fn run_inputs(loaded: &Loaded, inputs: Vec<BigInt>, max_steps: usize) -> RunReport {
    let r = interp::run(
        &loaded.cfg,
        &mut ListOracle::new(inputs),
        limits(max_steps),
        false,
    );
    report(loaded, r)
}

/// How far from its end a value of a learned range open on one side lies, in a random
/// run (the random source's own values are mostly within ±20).
const SPREAD: u64 = 20;

/// Runs of one program with values from seeded random sources. A draw that a later
/// assumption bounds is answered inside the bound most of the time (as in the search: see
/// `search::draws`), so a run that draws in a loop gets past its checks; the bounds are
/// learned once, for all the runs.
pub struct RandomRuns<'a> {
    loaded: &'a Loaded,
    ranges: DrawRanges,
}

impl<'a> RandomRuns<'a> {
    /// Learn the ranges of the program's draws.
    pub fn new(loaded: &'a Loaded) -> RandomRuns<'a> {
        let dict = search::dictionary(&loaded.cfg);
        RandomRuns {
            loaded,
            ranges: search::learn_draws(&loaded.cfg, &dict),
        }
    }

    /// The run with the random source seeded with `seed`.
    pub fn run(&self, seed: u64, max_steps: usize) -> RunReport {
        let mut oracle = InRange::new(RandomOracle::new(seed), &self.ranges, seed, SPREAD);
        let r = interp::run(&self.loaded.cfg, &mut oracle, limits(max_steps), false);
        report(self.loaded, r)
    }
}

/// Run with values from a random source seeded with `seed` ([`RandomRuns`], for one run).
pub fn run_random(loaded: &Loaded, seed: u64, max_steps: usize) -> RunReport {
    RandomRuns::new(loaded).run(seed, max_steps)
}
