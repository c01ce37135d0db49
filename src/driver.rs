//! The driver: runs the CEGAR loop on a loaded program and produces a [`Report`] with a verdict and its evidence. Only
//! the driver runs the loop (ARCHITECTURE.md §1).

use crate::frontend::{unsupported_reason, Loaded};
use crate::report::{trace_report, TraceReport, Verdict};
use std::collections::BTreeMap;
use std::time::{Duration, Instant};

use crate::abstraction::{abstract_program, Precision};
use crate::domain::DlcDomain;
use crate::engine::{tabulate, Budget, StopReason};
use crate::refine::{refine, Refinement};
use crate::trace::{replay, Feasibility, Trace};

/// Options of `lpmc check`.
#[derive(Clone, Debug, Default)]
pub struct CheckOptions {
    /// Wall-clock budget in seconds (default: none; the step and fact budgets still apply).
    pub timeout_s: Option<f64>,
    /// Maximum number of refinements (default [`DEFAULT_MAX_REFINEMENTS`]).
    pub max_refinements: Option<u32>,
    /// Keep the text of every abstraction P̂k in the report.
    pub show_abstractions: bool,
    /// Treat every out-of-range array access as an error (`--check-bounds`).
    pub check_bounds: bool,
    /// Tabulation budgets (steps and facts) per iteration; the deadline is set from
    /// `timeout_s`.
    pub budget: Option<Budget>,
    /// For tests only: replace the solver's witness by an all-zero one before the replay,
    /// to check that a counterexample that does not replay is never reported.
    #[doc(hidden)]
    pub sabotage_witness: bool,
}

/// Stack size of the thread running the CEGAR loop.
const CHECK_STACK_BYTES: usize = 512 << 20;

/// The default bound on refinement iterations.
pub const DEFAULT_MAX_REFINEMENTS: u32 = 64;

/// Counters and times of one `check`, per phase.
#[derive(Clone, Debug, Default, serde::Serialize)]
pub struct Stats {
    /// Tabulations run (refinements + 1, unless stopped early).
    pub iterations: u32,
    /// Path-edge disjuncts kept, over all iterations.
    pub disjuncts: u64,
    /// Worklist steps of the engine.
    pub engine_steps: u64,
    /// Summary disjuncts.
    pub summaries: u64,
    /// Fourier–Motzkin projections.
    pub fm_projections: u64,
    /// Entailment checks.
    pub entailment_checks: u64,
    /// SMT calls for entailment.
    pub entailment_smt_calls: u64,
    /// Trace checks (SMT).
    pub trace_checks: u32,
    /// Time building abstractions, ms.
    pub abstract_ms: f64,
    /// Time tabulating, ms.
    pub tabulate_ms: f64,
    /// Time checking traces, ms.
    pub trace_ms: f64,
    /// Time refining, ms.
    pub refine_ms: f64,
}

/// The outcome of `lpmc check`.
#[derive(Clone, Debug, serde::Serialize)]
pub struct Report {
    /// The verdict.
    pub verdict: Verdict,
    /// Why (for SAFE and UNSAFE a short summary of the evidence).
    pub reason: String,
    /// Number of refinement iterations.
    pub refinements: u32,
    /// Tracked array cells per array name.
    pub cells: BTreeMap<String, Vec<i64>>,
    /// Wall-clock time.
    pub time_ms: u128,
    /// The counterexample, for UNSAFE.
    pub trace: Option<TraceReport>,
    /// Per-phase counters.
    pub stats: Stats,
    /// The abstractions P̂0, P̂1, ... as text (with `show_abstractions`).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub abstractions: Vec<String>,
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1000.0
}

/// Check a loaded program: the CEGAR loop of the paper (§5). Abstract with the current
/// precision, tabulate; no error reachable → SAFE; else check the abstract trace on the
/// original program: feasible and replayed → UNSAFE; infeasible → add the cells its unsat
/// core fixes and repeat. Budgets, solver failures and refinements without progress give
/// UNKNOWN with the reason.
pub fn check(loaded: &Loaded, opts: &CheckOptions) -> Report {
    let start = Instant::now();
    let mut report = Report {
        verdict: Verdict::Unknown,
        reason: String::new(),
        refinements: 0,
        cells: BTreeMap::new(),
        time_ms: 0,
        trace: None,
        stats: Stats::default(),
        abstractions: Vec::new(),
    };
    if let Some(r) = unsupported_reason(&loaded.file, &loaded.analysis.unsupported) {
        report.reason = r;
        report.time_ms = start.elapsed().as_millis();
        return report;
    }
    let instrumented;
    let loaded = if opts.check_bounds {
        match crate::cfg::check_bounds(&loaded.cfg) {
            Ok(cfg) => {
                instrumented = Loaded {
                    cfg,
                    ..loaded.clone()
                };
                &instrumented
            }
            Err(span) => {
                let lc = loaded.file.line_col(span.start);
                report.reason = format!(
                    "--check-bounds: unsupported construct at {}:{}: an array access whose evaluation depends on `u`",
                    lc.line, lc.col
                );
                report.time_ms = start.elapsed().as_millis();
                return report;
            }
        }
    } else {
        loaded
    };
    let deadline = opts
        .timeout_s
        .filter(|t| t.is_finite() && *t >= 0.0)
        .map(|t| start + Duration::from_secs_f64(t.min(1e9)));
    // The solver recurses deeply on long array traces: run the loop on a thread with a
    // large stack (the memory is only reserved, not committed).
    let outcome = std::thread::scope(|s| {
        std::thread::Builder::new()
            .name("lpmc-check".into())
            .stack_size(CHECK_STACK_BYTES)
            .spawn_scoped(s, || {
                let mut r = report.clone();
                let vr = cegar(loaded, opts, deadline, &mut r);
                (vr, r)
            })
            .map(|h| h.join())
    });
    let (verdict, reason) = match outcome {
        Ok(Ok((vr, r))) => {
            report = r;
            vr
        }
        Ok(Err(_)) => (
            Verdict::Unknown,
            "internal error: the verification thread panicked".to_string(),
        ),
        Err(e) => (
            Verdict::Unknown,
            format!("cannot start the verification thread: {e}"),
        ),
    };
    report.verdict = verdict;
    report.reason = reason;
    report.time_ms = start.elapsed().as_millis();
    report
}

fn cegar(
    loaded: &Loaded,
    opts: &CheckOptions,
    deadline: Option<Instant>,
    report: &mut Report,
) -> (Verdict, String) {
    let cfg = &loaded.cfg;
    let max_refinements = opts.max_refinements.unwrap_or(DEFAULT_MAX_REFINEMENTS);
    let mut precision = Precision::empty();
    let remaining_ms = || {
        deadline.map(|d| {
            d.saturating_duration_since(Instant::now())
                .as_millis()
                .clamp(1, u64::MAX as u128) as u64
        })
    };
    loop {
        let k = report.refinements;
        let t0 = Instant::now();
        let phat = abstract_program(cfg, &precision);
        report.stats.abstract_ms += ms(t0.elapsed());
        if opts.show_abstractions {
            report.abstractions.push(crate::cfg::to_text(&phat));
        }
        if std::env::var_os("LPMC_DEBUG").is_some() {
            eprintln!(
                "[lpmc] iteration {k}: cells {:?}\n{}",
                precision.by_name(cfg),
                crate::cfg::to_text(&phat)
            );
        }
        let mut budget = opts.budget.unwrap_or_default();
        budget.deadline = deadline;
        let mut dom = DlcDomain::new();
        let t0 = Instant::now();
        let tab = tabulate(&phat, &mut dom, budget);
        report.stats.tabulate_ms += ms(t0.elapsed());
        report.stats.iterations += 1;
        report.stats.disjuncts += tab.stats.facts;
        report.stats.engine_steps += tab.stats.steps;
        report.stats.summaries += tab.stats.summaries;
        report.stats.fm_projections += dom.stats.projections;
        report.stats.entailment_checks += dom.entail.checks;
        report.stats.entailment_smt_calls += dom.entail.smt_calls;
        let id = match tab.stop {
            StopReason::Converged => {
                let what = if precision.is_empty() {
                    "every array read abstracted to u".to_string()
                } else {
                    format!("{} tracked array cell(s)", precision.len())
                };
                return (
                    Verdict::Safe,
                    format!(
                        "no error location is reachable in the abstraction P̂{k} ({what}), which over-approximates the program"
                    ),
                );
            }
            StopReason::StepLimit => {
                return (
                    Verdict::Unknown,
                    format!(
                        "tabulation step budget ({}) exhausted in iteration {k}",
                        budget.max_steps
                    ),
                )
            }
            StopReason::FactLimit => {
                return (
                    Verdict::Unknown,
                    format!(
                        "disjunct budget ({}) exhausted in iteration {k}",
                        budget.max_facts
                    ),
                )
            }
            StopReason::Timeout => {
                return (
                    Verdict::Unknown,
                    format!("timeout during tabulation (iteration {k})"),
                )
            }
            StopReason::ErrorReached(id) => id,
        };
        let path = tab.trace(id);
        let tr = Trace { path };
        let t0 = Instant::now();
        report.stats.trace_checks += 1;
        let feas = crate::trace::check_with_config(cfg, &tr, remaining_ms());
        report.stats.trace_ms += ms(t0.elapsed());
        let core = match feas {
            Err(e) => {
                return (
                    Verdict::Unknown,
                    format!("internal error: the abstract trace is not a path of the program: {e}"),
                )
            }
            Ok(Feasibility::Unknown(why)) => {
                return (
                    Verdict::Unknown,
                    format!("the SMT check of the abstract error trace gave no answer: {why}"),
                )
            }
            Ok(Feasibility::Feasible(mut w)) => {
                if opts.sabotage_witness {
                    w.oracle = Default::default();
                }
                return match replay(cfg, &tr, &w) {
                    Ok(()) => {
                        report.trace = Some(trace_report(loaded, &tr, &w));
                        (
                            Verdict::Unsafe,
                            format!(
                                "an error location is reachable: a trace of {} steps, confirmed over integers and arrays and replayed by the interpreter",
                                tr.path.len()
                            ),
                        )
                    }
                    Err(m) => (
                        Verdict::Unknown,
                        format!(
                            "the solver's counterexample did not replay in the interpreter: {}",
                            m.0
                        ),
                    ),
                };
            }
            Ok(Feasibility::Infeasible { core }) => core,
        };
        if !cfg.has_arrays() {
            return (
                Verdict::Unknown,
                "the abstract error trace is infeasible, but the program has no arrays to refine: \
                 the linear abstraction is too coarse here (e.g. it keeps no congruences)"
                    .to_string(),
            );
        }
        if report.refinements >= max_refinements {
            return (
                Verdict::Unknown,
                format!("refinement limit ({max_refinements}) reached"),
            );
        }
        let t0 = Instant::now();
        let r = refine(cfg, &tr, &core, &mut precision, remaining_ms());
        report.stats.refine_ms += ms(t0.elapsed());
        match r {
            Refinement::NewCells(_) => {
                report.refinements += 1;
                report.cells = precision.by_name(cfg);
            }
            Refinement::NoProgress => {
                return (
                    Verdict::Unknown,
                    format!(
                        "refinement made no progress: the abstract error trace ({} steps) is infeasible, but its unsat core fixes no new array cell",
                        tr.path.len()
                    ),
                )
            }
            Refinement::Failed(why) => return (Verdict::Unknown, why),
        }
        if deadline.is_some_and(|d| Instant::now() >= d) {
            return (
                Verdict::Unknown,
                format!("timeout after {} refinement(s)", report.refinements),
            );
        }
    }
}
