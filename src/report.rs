//! The outcome types every engine shares, below the engines so that `driver` (CEGAR) and
//! `bmc` are siblings: an [`Outcome`] is `Safe` with a [`Proof`], `Unsafe` with a
//! replayed [`Counterexample`], or `Unknown` with a typed [`GiveUp`] reason (after egg's
//! `StopReason` and CPAchecker's `AlgorithmStatus`). Text and JSON are rendered from it.

use crate::certify::Certificate;
use crate::diag::{SourceFile, Span, Unsupported};
use crate::frontend::Loaded;
use crate::invariant::InvariantMap;
use crate::limits::Exhausted;
use crate::trace::{Trace, Witness};
use itertools::Itertools;
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
    /// The cells at index terms of the ghost in that abstraction (`b[2k+1]`).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub term_cells: Vec<String>,
    /// `Some(k)`: every feasible path ends within unwinding bound `k` (bmc).
    pub bound: Option<u32>,
    /// Paths explored (bmc).
    pub paths: Option<u64>,
    /// Invariants at loop heads and summaries, when the engine has them.
    pub invariants: InvariantMap,
    /// The lines of the signed arithmetic whose overflow the proof assumed away (C leaves
    /// it undefined, so the executions where it happens have no meaning): where the
    /// engine's states did not keep the result in range. Empty when no overflow was
    /// assumed (always under `--signed-overflow wrap` and `error`).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub assumed_no_overflow: Vec<u32>,
    /// The lines of the array accesses the proof assumed in bounds (C leaves an access
    /// outside undefined, so the executions with one have no meaning): where the engine's
    /// states did not keep the index in range. Empty when none was assumed (always under
    /// `--array-bounds nondet` and `error`).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub assumed_in_bounds: Vec<u32>,
    /// The certificate check of this proof, once it was made (every SAFE that `lpmc`
    /// prints has passed one).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub certificate: Option<Certificate>,
}

impl Proof {
    /// The assumptions the proof rests on, if any: "assuming no signed overflow
    /// (undefined in C) at lines 12, 15; `--signed-overflow error` checks them", and
    /// "assuming every array access is in bounds (undefined in C otherwise) at line 7;
    /// `--array-bounds error` checks it".
    pub fn assumption(&self) -> Option<String> {
        let phrase = |lines: &[u32], what: &str, flag: &str| {
            let list = lines.iter().map(u32::to_string).join(", ");
            let (s, them) = if lines.len() == 1 {
                ("", "it")
            } else {
                ("s", "them")
            };
            (!lines.is_empty())
                .then(|| format!("assuming {what} at line{s} {list}; `{flag}` checks {them}"))
        };
        let parts: Vec<String> = [
            phrase(
                &self.assumed_no_overflow,
                "no signed overflow (undefined in C)",
                "--signed-overflow error",
            ),
            phrase(
                &self.assumed_in_bounds,
                "every array access is in bounds (undefined in C otherwise)",
                "--array-bounds error",
            ),
        ]
        .into_iter()
        .flatten()
        .collect();
        (!parts.is_empty()).then(|| parts.join("; "))
    }
}

/// The lines of a program's nodes, sorted and without repetitions.
pub fn node_lines(
    loaded: &Loaded,
    nodes: impl IntoIterator<Item = crate::ids::NodeId>,
) -> Vec<u32> {
    let cfg = &loaded.cfg;
    let lines: std::collections::BTreeSet<u32> = nodes
        .into_iter()
        .filter_map(|n| cfg.nodes.get(n))
        .map(|node| loaded.file.line_col(node.span.start).line)
        .collect();
    lines.into_iter().collect()
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
    /// The line of the first signed arithmetic overflow along the trace, wrapped as under
    /// `gcc -fwrapv` (`--signed-overflow wrap`), if any: C leaves it undefined.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub signed_overflow_line: Option<u32>,
    /// Whether the error reached is a signed overflow (`--signed-overflow error`), not an
    /// error location of the program.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub overflow_error: bool,
    /// The line of the first array access outside its bounds along the trace (under
    /// `--array-bounds nondet`, where such a read is arbitrary), if any: C leaves it
    /// undefined.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub out_of_bounds_line: Option<u32>,
    /// Whether the error reached is an array access outside its bounds (`--array-bounds
    /// error`), not an error location of the program.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub bounds_error: bool,
    /// Line of the error location (of the overflow, for an overflow error).
    pub error_line: u32,
    /// Whether the trace confirmed by the solver jumped over loop iterations without
    /// testing their checks (`--jump-checks`), so that this is its run testing every one.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub checks_retested: bool,
    /// Whether a CEGAR trace that was spurious led to it by jumping over its loops
    /// ([`crate::trace::jump_loops`]): the steps are then those of the concrete run.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub jumped_loops: bool,
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
    /// An engine proved SAFE, but the certificate check of its proof failed or was out
    /// of reach (why).
    Certificate(String),
    /// The property asked for is not one lpmc checks (its name).
    Property(String),
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

    /// Why no engine checks `loaded`, if none does: the property is not one lpmc
    /// checks, or the program has constructs outside the fragment.
    pub fn refused(loaded: &Loaded) -> Option<GiveUp> {
        if let crate::frontend::Property::Other(p) = &loaded.semantics.property {
            return Some(GiveUp::Property(p.clone()));
        }
        GiveUp::unsupported(&loaded.file, &loaded.analysis.unsupported)
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
            GiveUp::Certificate(_) => "certificate",
            GiveUp::Property(_) => "unsupported-property",
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
            GiveUp::Certificate(d) => write!(f, "certificate did not check: {d}"),
            GiveUp::Property(p) => write!(
                f,
                "the property `{p}` is not checked by lpmc (it checks unreach-call, no-overflow, \
                 and valid-memsafety for programs whose memory is arrays)"
            ),
        }
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

    /// The verdict as printed first: a SAFE names the assumption it rests on, if any
    /// ("SAFE, assuming no signed overflow ...").
    pub fn headline(&self) -> String {
        match self {
            Outcome::Safe(p) => match p.assumption() {
                Some(a) => format!("SAFE, {a}"),
                None => "SAFE".to_string(),
            },
            o => o.verdict().as_str().to_string(),
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
                                    .chain(p.term_cells.iter().cloned())
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
                    (None, Some(k)) => match p.paths {
                        Some(n) => format!(
                            "no error location is reachable: all {n} path(s) end within unwinding bound {k}"
                        ),
                        None => format!(
                            "no error location is reachable: every path ends within unwinding bound {k}"
                        ),
                    },
                    (None, None) => "no error location is reachable".to_string(),
                };
                for i in p.invariants.shown() {
                    s.push_str(&format!("; {}: {}", i.at, i.text()));
                }
                s
            }
            Outcome::Unsafe(c) => {
                let what = if c.overflow_error {
                    format!(
                        "a signed integer overflow at line {} is reachable (undefined in C; --signed-overflow error reports it)",
                        c.error_line
                    )
                } else if c.bounds_error {
                    format!(
                        "an array access out of bounds at line {} is reachable (undefined in C; --array-bounds error reports it)",
                        c.error_line
                    )
                } else {
                    "an error location is reachable".to_string()
                };
                let how = if c.engine == Engine::Search {
                    format!(
                        "a concrete run of {} steps found it, replayed by the interpreter",
                        c.length
                    )
                } else if c.jumped_loops {
                    format!(
                        "a spurious trace with its loops jumped over led to a concrete run of {} steps, replayed by the interpreter",
                        c.length
                    )
                } else if c.checks_retested {
                    format!(
                        "a trace that jumped over checks, confirmed over integers and arrays; its run testing every check ({} steps) replayed by the interpreter",
                        c.length
                    )
                } else {
                    format!(
                        "a trace of {} steps, confirmed over integers and arrays and replayed by the interpreter",
                        c.length
                    )
                };
                let mut s = format!("{what}: {how}");
                if let Some(line) = c.signed_overflow_line {
                    s.push_str(&format!(
                        "; the trace wraps a signed integer overflow at line {line} (--signed-overflow wrap, as gcc -fwrapv; C leaves it undefined)"
                    ));
                }
                if let Some(line) = c.out_of_bounds_line {
                    s.push_str(&format!(
                        "; the trace accesses an array out of bounds at line {line} (--array-bounds nondet: a read there is arbitrary; C leaves it undefined)"
                    ));
                }
                s
            }
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
    /// The CFG node that asks for it.
    pub node: u32,
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
    /// Its CFG node.
    pub node: u32,
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

/// The counterexample of a trace that reaches an error location with its witness (the
/// interpreter follows it). A trace that jumps over loop iterations without testing
/// their checks ([`crate::accel`]) is not a run of the program as written: the run that
/// tests them ([`crate::trace::test_skipped_checks`]) is printed instead. `Err` (why) if
/// that run reaches no error location, or the run printed does not replay.
pub fn tested_counterexample(
    engine: Engine,
    loaded: &Loaded,
    t: &Trace,
    w: &Witness,
) -> Result<Counterexample, String> {
    match crate::trace::test_skipped_checks(&loaded.cfg, t, w)? {
        None => replayed_counterexample(engine, loaded, t, w),
        Some((t, w)) => replayed_counterexample(engine, loaded, &t, &w).map(|c| Counterexample {
            checks_retested: true,
            ..c
        }),
    }
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
        &mut &w.oracle,
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
                .changes_at(k)
                .map(|c| c.iter().map(|(v, x)| format!("{v} = {x}")).collect())
                .unwrap_or_default(),
            line: line(n),
            proc: cfg.nodes[n]
                .proc
                .map(|p| cfg.procs[p].name.clone())
                .unwrap_or_default(),
            statement: crate::cfg::node_label(cfg, &cfg.nodes[n].kind),
            node: n.0,
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
                node: t.path.get(i.step).map_or(0, |n| n.0),
                value: i.value.to_string(),
            })
            .collect(),
        steps,
        length: n,
        signed_overflow_line: run.overflow.and_then(|k| t.path.get(k)).map(|n| line(*n)),
        overflow_error: t
            .path
            .last()
            .is_some_and(|n| cfg.overflow_checks.contains(n)),
        out_of_bounds_line: run
            .out_of_bounds
            .and_then(|k| t.path.get(k))
            .map(|n| line(*n)),
        bounds_error: t.path.last().is_some_and(|n| cfg.bounds_checks.contains(n)),
        error_line: t.path.last().map(|n| line(*n)).unwrap_or(0),
        checks_retested: false,
        jumped_loops: false,
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

/// The lines of the array accesses the converged tabulation `tab` of `phat` assumed in
/// bounds (C leaves an access outside undefined): the bounds guards
/// ([`crate::cfg::Cfg::bounds_guards`]) that some fact there may falsify. The proof holds
/// for every execution whose accesses at these lines are in bounds; elsewhere the facts
/// keep every index in range.
pub fn assumed_in_bounds(
    file: &SourceFile,
    phat: &crate::cfg::Cfg,
    tab: &crate::engine::Tabulation<crate::domain::Fact>,
) -> Vec<u32> {
    use crate::cfg::NodeKind;
    let mut assumed = std::collections::BTreeSet::new();
    let mut checks = 0;
    for r in &tab.facts {
        if !phat.bounds_guards.contains(&r.node) || assumed.contains(&r.node) {
            continue;
        }
        // P̂ keeps in `bounds_guards` only the guards it did not skip: all `assume`s.
        let NodeKind::Assume { cond, .. } = &phat.nodes[r.node].kind else {
            continue;
        };
        // Past the budget, every guard a fact reaches counts as assumed (a sound
        // over-approximation).
        checks += 1;
        let falsified = checks > MAX_OVERFLOW_CHECKS
            || crate::domain::may_falsify(cond, &r.fact, phat.vars.len());
        if falsified {
            assumed.insert(r.node);
        }
    }
    assumed
        .into_iter()
        .map(|n| file.line_col(phat.nodes[n].span.start).line)
        .collect::<std::collections::BTreeSet<u32>>()
        .into_iter()
        .collect()
}

/// Facts whose states [`assumed_no_overflow`] examines one by one; past them, every node
/// with a signed result left counts as assumed (a sound over-approximation).
const MAX_OVERFLOW_CHECKS: usize = 20_000;

/// The lines where the converged tabulation `tab` of `phat` assumed that a signed result
/// fits its type (C leaves the overflow undefined): the nodes with a signed result whose
/// range some fact there does not imply. The proof holds for every execution that does
/// not overflow at these lines; elsewhere the facts keep every result in range, so it
/// holds whatever an overflow would do there.
pub fn assumed_no_overflow(
    file: &SourceFile,
    phat: &crate::cfg::Cfg,
    tab: &crate::engine::Tabulation<crate::domain::Fact>,
) -> Vec<u32> {
    use crate::sema::Expr;
    let exprs = |n: crate::ids::NodeId| -> Vec<&Expr> {
        phat.nodes
            .get(n)
            .map_or(Vec::new(), |node| node.kind.exprs())
    };
    let has_overflow = |n: crate::ids::NodeId| {
        let mut any = false;
        for e in exprs(n) {
            e.visit(&mut |x| any |= matches!(x, Expr::Overflow(..)));
        }
        any
    };
    let candidates: std::collections::BTreeSet<crate::ids::NodeId> =
        phat.nodes.indices().filter(|n| has_overflow(*n)).collect();
    let mut assumed = std::collections::BTreeSet::new();
    let mut checks = 0;
    let mut exceeded = false;
    for r in &tab.facts {
        if !candidates.contains(&r.node) || assumed.contains(&r.node) {
            continue;
        }
        if checks == MAX_OVERFLOW_CHECKS {
            exceeded = true;
            break;
        }
        checks += 1;
        if exprs(r.node)
            .into_iter()
            .any(|e| crate::domain::assumes_no_overflow(e, &r.fact))
        {
            assumed.insert(r.node);
        }
    }
    if exceeded {
        // Not every fact was examined: the nodes left unexamined count as assumed.
        let seen: std::collections::BTreeSet<crate::ids::NodeId> =
            tab.facts.iter().map(|r| r.node).collect();
        assumed.extend(candidates.into_iter().filter(|n| seen.contains(n)));
    }
    let lines: std::collections::BTreeSet<u32> = assumed
        .into_iter()
        .map(|n| file.line_col(phat.nodes[n].span.start).line)
        .collect();
    lines.into_iter().collect()
}
