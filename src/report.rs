//! The outcome types every engine shares, below the engines so that `driver` (CEGAR) and
//! `bmc` are siblings: an [`Outcome`] is `Safe` with a [`Proof`], `Unsafe` with a
//! replayed [`Counterexample`], or `Unknown` with a typed [`GiveUp`] reason (after egg's
//! `StopReason` and CPAchecker's `AlgorithmStatus`). Text and JSON are rendered from it.

use crate::diag::{SourceFile, Span, Unsupported};
use crate::frontend::Loaded;
use crate::invariant::InvariantMap;
use crate::limits::Exhausted;
use crate::trace::{Trace, Witness};
use std::collections::BTreeMap;
use std::fmt;

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

/// The engine that produced an outcome.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Engine {
    /// Abstraction, tabulation and refinement (the EUREKA loop, `driver`).
    Cegar,
    /// Bounded symbolic execution (`bmc`).
    Bmc,
    /// Concrete search over the interpreter (`search`).
    Search,
}

impl Engine {
    /// Lower-case name.
    pub fn as_str(self) -> &'static str {
        match self {
            Engine::Cegar => "cegar",
            Engine::Bmc => "bmc",
            Engine::Search => "search",
        }
    }
}

/// One engine's part in a portfolio run (`lpmc check --engine all`).
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct EngineRun {
    /// The engine.
    pub engine: Engine,
    /// Its verdict (UNKNOWN when it was stopped because another engine decided).
    pub verdict: Verdict,
    /// Why (its outcome's reason, or that it was stopped).
    pub reason: String,
    /// How long it ran, in milliseconds.
    pub time_ms: u128,
}

/// The evidence of a SAFE outcome.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Proof {
    /// The engine that proved it.
    pub engine: Engine,
    /// `Some(k)`: the tabulation of the abstraction P̂k converged without reaching an
    /// error location (CEGAR).
    pub abstraction: Option<u32>,
    /// The precision of that abstraction: the tracked array cells per array.
    pub cells: BTreeMap<String, Vec<i64>>,
    /// The arrays with a symbolic cell `a[k]` in that abstraction.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub symbolic: Vec<String>,
    /// Whether the symbolic cells had a second ghost (`a[k1]`, `a[k2]` with `k1 < k2`).
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub two_ghosts: bool,
    /// `Some(k)`: every feasible path ends within unwinding bound `k` (bmc).
    pub bound: Option<u32>,
    /// Paths explored (bmc).
    pub paths: Option<u64>,
    /// Invariants at loop heads and summaries, when the engine has them.
    pub invariants: InvariantMap,
}

/// The evidence of an UNSAFE outcome: a trace whose SSA form over the original program
/// is satisfiable, replayed by the interpreter with these inputs.
#[derive(Clone, Debug, serde::Serialize)]
pub struct Counterexample {
    /// The engine that found it.
    pub engine: Engine,
    /// The inputs that drive the program to the error, in execution order (the counts
    /// of accelerated loops are not inputs: the loops iterate to the same states).
    pub inputs: Vec<InputValue>,
    /// The accelerated loop transitions the trace takes, with their iteration counts.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub accelerated: Vec<AcceleratedLoop>,
    /// The steps (of a trace longer than twice [`STEPS_KEPT`], the first and the last
    /// [`STEPS_KEPT`]).
    pub steps: Vec<TraceStep>,
    /// The number of steps of the trace.
    pub length: usize,
    /// The line of the first signed arithmetic overflow (wrapped) along the trace, if any.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub signed_overflow_line: Option<u32>,
    /// Line of the error location.
    pub error_line: u32,
}

/// Why an engine gave up (the UNKNOWN outcome).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum GiveUp {
    /// The time limit (`--timeout`) ran out.
    Timeout,
    /// The memory limit (`--memory`) ran out.
    Memory,
    /// Refinement found nothing new to learn from an infeasible abstract trace.
    NoProgress(String),
    /// The program uses a construct outside the fragment.
    Unsupported {
        /// The construct.
        what: String,
        /// Where.
        span: Span,
        /// Its line and column (1-based), for printing.
        line: u32,
        /// Column.
        col: u32,
        /// How many more unsupported constructs there are.
        more: usize,
    },
    /// The SMT solver gave no answer.
    SolverUnknown(String),
    /// A budget ran out (tabulation steps or facts, refinements, the unwinding bound).
    Budget(String),
    /// A defect of lpmc (a panic, an encoding the interpreter disagrees with).
    Internal(String),
    /// The error is reached only after a signed arithmetic overflow (at this line):
    /// undefined behaviour in C, so the program has no defined error to report.
    UndefinedBehaviour(u32),
}

impl GiveUp {
    /// The reason for the first of `unsupported` (and how many more there are).
    pub fn unsupported(file: &SourceFile, unsupported: &[Unsupported]) -> Option<GiveUp> {
        let first = unsupported.first()?;
        let lc = file.line_col(first.span.start);
        Some(GiveUp::Unsupported {
            what: first.construct.clone(),
            span: first.span,
            line: lc.line,
            col: lc.col,
            more: unsupported.len() - 1,
        })
    }

    /// From an exhausted limit.
    pub fn exhausted(e: Exhausted) -> GiveUp {
        match e {
            Exhausted::Time => GiveUp::Timeout,
            Exhausted::Memory => GiveUp::Memory,
        }
    }

    /// A short machine-readable name.
    pub fn kind(&self) -> &'static str {
        match self {
            GiveUp::Timeout => "timeout",
            GiveUp::Memory => "memory",
            GiveUp::NoProgress(_) => "no-progress",
            GiveUp::Unsupported { .. } => "unsupported",
            GiveUp::SolverUnknown(_) => "solver-unknown",
            GiveUp::Budget(_) => "budget",
            GiveUp::Internal(_) => "internal",
            GiveUp::UndefinedBehaviour(_) => "undefined-behaviour",
        }
    }
}

impl fmt::Display for GiveUp {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            GiveUp::Timeout => f.write_str("time limit reached"),
            GiveUp::Memory => f.write_str("memory limit reached"),
            GiveUp::NoProgress(d) => write!(f, "refinement made no progress: {d}"),
            GiveUp::Unsupported {
                what,
                line,
                col,
                more,
                ..
            } => {
                write!(f, "unsupported construct: {what} at {line}:{col}")?;
                if *more > 0 {
                    write!(f, " (and {more} more)")?;
                }
                Ok(())
            }
            GiveUp::SolverUnknown(d) => write!(f, "the SMT solver gave no answer: {d}"),
            GiveUp::Budget(d) => write!(f, "budget exhausted: {d}"),
            GiveUp::Internal(d) => write!(f, "internal error: {d}"),
            GiveUp::UndefinedBehaviour(line) => write!(
                f,
                "an error location is reachable only after a signed integer overflow at line {line}, which is undefined behaviour in C (with wraparound, as gcc -fwrapv, the error is reachable; --check-overflow reports the overflow itself)"
            ),
        }
    }
}

/// Under C's integers with wraparound (no `--check-overflow`), an UNSAFE outcome whose
/// counterexample needs a signed arithmetic overflow is UNKNOWN: C leaves that overflow
/// undefined, so no verdict about the error location is sound for every compiler.
pub fn defined_behaviour_only(outcome: Outcome) -> Outcome {
    match outcome {
        Outcome::Unsafe(c) if c.signed_overflow_line.is_some() => Outcome::Unknown(
            GiveUp::UndefinedBehaviour(c.signed_overflow_line.unwrap_or(0)),
        ),
        o => o,
    }
}

/// What an engine concluded. Serialised as the fields `verdict`, `reason`, `engine`
/// (SAFE and UNSAFE), `unknown` (the [`GiveUp::kind`], for UNKNOWN), `proof` (SAFE) and
/// `trace` (the counterexample for UNSAFE, else `null`).
#[derive(Clone, Debug)]
pub enum Outcome {
    /// No error location is reachable.
    Safe(Proof),
    /// An error location is reachable.
    Unsafe(Counterexample),
    /// Undecided.
    Unknown(GiveUp),
}

impl Outcome {
    /// The verdict.
    pub fn verdict(&self) -> Verdict {
        match self {
            Outcome::Safe(_) => Verdict::Safe,
            Outcome::Unsafe(_) => Verdict::Unsafe,
            Outcome::Unknown(_) => Verdict::Unknown,
        }
    }

    /// The counterexample, for UNSAFE.
    pub fn counterexample(&self) -> Option<&Counterexample> {
        match self {
            Outcome::Unsafe(c) => Some(c),
            _ => None,
        }
    }

    /// The reason, for UNKNOWN.
    pub fn give_up(&self) -> Option<&GiveUp> {
        match self {
            Outcome::Unknown(g) => Some(g),
            _ => None,
        }
    }

    /// One line saying why, for people.
    pub fn reason(&self) -> String {
        match self {
            Outcome::Safe(p) => {
                let mut s = match (p.abstraction, p.bound) {
                    (Some(k), _) => {
                        let n: usize = p.cells.values().map(Vec::len).sum();
                        let what = match (n, p.symbolic.is_empty()) {
                            (0, true) => "every array read abstracted to u".to_string(),
                            (_, true) => format!("{n} tracked array cell(s)"),
                            (_, false) => {
                                let sym = p
                                    .symbolic
                                    .iter()
                                    .map(|a| {
                                        if p.two_ghosts {
                                            format!("{a}[k1], {a}[k2] at two ghost indices k1 < k2")
                                        } else {
                                            format!("{a}[k]")
                                        }
                                    })
                                    .collect::<Vec<_>>()
                                    .join(", ");
                                if n == 0 {
                                    format!("the symbolic cell(s) {sym}")
                                } else {
                                    format!("{n} tracked array cell(s) and the symbolic cell(s) {sym}")
                                }
                            }
                        };
                        format!(
                            "no error location is reachable in the abstraction P̂{k} ({what}), which over-approximates the program"
                        )
                    }
                    (None, Some(k)) => format!(
                        "no error location is reachable: all {} path(s) end within unwinding bound {k}",
                        p.paths.unwrap_or(0)
                    ),
                    (None, None) => "no error location is reachable".to_string(),
                };
                for i in &p.invariants {
                    s.push_str(&format!("; {}: {}", i.at, i.text()));
                }
                s
            }
            Outcome::Unsafe(c) if c.engine == Engine::Search => format!(
                "an error location is reachable: a concrete run of {} steps found it, replayed by the interpreter",
                c.length
            ),
            Outcome::Unsafe(c) => format!(
                "an error location is reachable: a trace of {} steps, confirmed over integers and arrays and replayed by the interpreter",
                c.length
            ),
            Outcome::Unknown(g) => g.to_string(),
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

/// An accelerated loop transition of a counterexample: `iterations` iterations of the
/// loop at `line` in one step.
#[derive(Clone, Debug, serde::Serialize)]
pub struct AcceleratedLoop {
    /// The step choosing the count.
    pub step: usize,
    /// The loop's line.
    pub line: u32,
    /// The number of iterations, in decimal.
    pub iterations: String,
}

/// Steps kept at each end of a very long counterexample.
pub const STEPS_KEPT: usize = 5_000;

/// One step of a printed counterexample.
#[derive(Clone, Debug, serde::Serialize)]
pub struct TraceStep {
    /// Its position in the trace (0-based).
    pub step: usize,
    /// Source line.
    pub line: u32,
    /// The procedure.
    pub proc: String,
    /// The statement.
    pub statement: String,
    /// The variables and cells it set, as `name = value`.
    pub changed: Vec<String>,
}

/// The printable counterexample of a replayed trace.
pub fn counterexample(engine: Engine, loaded: &Loaded, t: &Trace, w: &Witness) -> Counterexample {
    counterexample_run(engine, loaded, t, w).0
}

/// The printable counterexample of a trace whose witness has not been replayed yet: the
/// run that prints it is the replay. `Err` (why) unless the interpreter, with the
/// witness's oracle, follows the trace's path exactly into the error location.
pub fn replayed_counterexample(
    engine: Engine,
    loaded: &Loaded,
    t: &Trace,
    w: &Witness,
) -> Result<Counterexample, String> {
    let (c, run) = counterexample_run(engine, loaded, t, w);
    let expected = crate::interp::Outcome::Error {
        at: t.path.last().copied().unwrap_or(crate::cfg::ERROR_NODE),
    };
    if run.path != t.path || run.outcome != expected {
        return Err(format!(
            "the replay ends with {:?} after {} steps; the trace has {} steps",
            run.outcome,
            run.path.len(),
            t.path.len()
        ));
    }
    Ok(c)
}

fn counterexample_run(
    engine: Engine,
    loaded: &Loaded,
    t: &Trace,
    w: &Witness,
) -> (Counterexample, crate::interp::Run) {
    let cfg = &loaded.cfg;
    let line = |n: crate::ids::NodeId| loaded.file.line_col(cfg.nodes[n].span.start).line;
    // The replay (already done once) again, recording what each step changes.
    let n = t.path.len();
    let recording = if n > 2 * STEPS_KEPT {
        crate::interp::Recording {
            path: true,
            changes_head: STEPS_KEPT,
            changes_tail: n - STEPS_KEPT,
        }
    } else {
        crate::interp::Recording::all()
    };
    let run = crate::interp::run_with(
        cfg,
        &mut w.oracle.clone(),
        crate::interp::Limits {
            max_steps: n + 1,
            ..Default::default()
        },
        recording,
    );
    // A very long trace (a concrete run through many loop iterations) keeps its first
    // and last steps.
    let keep = |k: usize| n <= 2 * STEPS_KEPT || k < STEPS_KEPT || k >= n - STEPS_KEPT;
    let steps = t
        .path
        .iter()
        .enumerate()
        .filter(|(k, _)| keep(*k))
        .map(|(k, &n)| TraceStep {
            step: k,
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
    // The counts of accelerated loops: a count below the least lets the loop iterate
    // one step at a time.
    let count_at = |i: &crate::trace::InputValue| {
        let node = t.path.get(i.step)?;
        cfg.accel.get(node)
    };
    let accelerated = inputs
        .iter()
        .filter_map(|i| {
            let a = count_at(i)?;
            (i.value >= num_bigint::BigInt::from(a.min)).then(|| AcceleratedLoop {
                step: i.step,
                line: i.line,
                iterations: i.value.to_string(),
            })
        })
        .collect();
    inputs.retain(|i| count_at(i).is_none());
    let c = Counterexample {
        engine,
        accelerated,
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
        length: n,
        signed_overflow_line: run.overflow.and_then(|k| t.path.get(k)).map(|n| line(*n)),
        error_line: t.path.last().map(|n| line(*n)).unwrap_or(0),
    };
    (c, run)
}

impl serde::Serialize for Outcome {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        let mut m = s.serialize_map(None)?;
        m.serialize_entry("verdict", &self.verdict())?;
        m.serialize_entry("reason", &self.reason())?;
        match self {
            Outcome::Safe(p) => {
                m.serialize_entry("engine", &p.engine)?;
                m.serialize_entry("proof", p)?;
            }
            Outcome::Unsafe(c) => m.serialize_entry("engine", &c.engine)?,
            Outcome::Unknown(g) => m.serialize_entry("unknown", g.kind())?,
        }
        m.serialize_entry("trace", &self.counterexample())?;
        m.end()
    }
}
