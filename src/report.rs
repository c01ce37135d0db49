//! The report types every engine shares (the verdict and the printable counterexample),
//! below the engines so that `driver` (CEGAR) and `bmc` are siblings.

use crate::frontend::Loaded;
use crate::trace::{Trace, Witness};

/// The answer to "can an error location be reached?".
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Verdict {
    /// No error location is reachable.
    Safe,
    /// An error location is reachable; the report has a replayed trace.
    Unsafe,
    /// lpmc could not decide; the report says why.
    Unknown,
}

impl Verdict {
    /// The process exit code (0 SAFE, 10 UNSAFE, 20 UNKNOWN).
    pub fn exit_code(self) -> i32 {
        match self {
            Verdict::Safe => 0,
            Verdict::Unsafe => 10,
            Verdict::Unknown => 20,
        }
    }
    /// Upper-case name.
    pub fn as_str(self) -> &'static str {
        match self {
            Verdict::Safe => "SAFE",
            Verdict::Unsafe => "UNSAFE",
            Verdict::Unknown => "UNKNOWN",
        }
    }
}

/// One input value of a counterexample.
#[derive(Clone, Debug, serde::Serialize)]
pub struct InputValue {
    /// Position in the trace (0-based step).
    pub step: usize,
    /// Source line.
    pub line: u32,
    /// What the value is for (`u`, an uninitialised variable, an array cell, ...).
    pub what: String,
    /// The value, in decimal.
    pub value: String,
}

/// One step of a printed counterexample.
#[derive(Clone, Debug, serde::Serialize)]
pub struct TraceStep {
    /// Source line.
    pub line: u32,
    /// The procedure.
    pub proc: String,
    /// The statement.
    pub statement: String,
    /// The variables and cells it set, as `name = value`.
    pub changed: Vec<String>,
}

/// A counterexample.
#[derive(Clone, Debug, Default, serde::Serialize)]
pub struct TraceReport {
    /// The inputs that drive the program to the error, in execution order.
    pub inputs: Vec<InputValue>,
    /// The steps.
    pub steps: Vec<TraceStep>,
    /// Line of the error location.
    pub error_line: u32,
    /// Whether the concrete interpreter replayed the inputs to the same error (always
    /// true in a report: an UNSAFE verdict is only given after a successful replay).
    pub replayed: bool,
}

/// The printable counterexample of a replayed trace.
pub fn trace_report(loaded: &Loaded, t: &Trace, w: &Witness) -> TraceReport {
    let cfg = &loaded.cfg;
    let line = |n: crate::ids::NodeId| loaded.file.line_col(cfg.nodes[n].span.start).line;
    // The replay (already done once) again, recording what each step changes.
    let run = crate::interp::run(
        cfg,
        &mut w.oracle.clone(),
        crate::interp::Limits {
            max_steps: t.path.len() + 1,
            ..Default::default()
        },
        true,
    );
    let steps = t
        .path
        .iter()
        .enumerate()
        .map(|(k, &n)| TraceStep {
            changed: run
                .changes
                .get(k)
                .map(|c| c.iter().map(|(v, x)| format!("{v} = {x}")).collect())
                .unwrap_or_default(),
            line: line(n),
            proc: cfg.nodes[n]
                .proc
                .map(|p| cfg.procs[p].name.clone())
                .unwrap_or_default(),
            statement: crate::cfg::node_label(cfg, &cfg.nodes[n].kind),
        })
        .collect();
    let mut inputs = w.inputs.clone();
    crate::trace::set_input_lines(cfg, t, &loaded.file, &mut inputs);
    TraceReport {
        inputs: inputs
            .iter()
            .map(|i| InputValue {
                step: i.step,
                line: i.line,
                what: i.what.clone(),
                value: i.value.to_string(),
            })
            .collect(),
        steps,
        error_line: t.path.last().map(|n| line(*n)).unwrap_or(0),
        replayed: true,
    }
}
