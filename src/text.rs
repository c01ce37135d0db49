//! The plain-text rendering of reports, as `lpmc check` and `lpmc bmc` print them: the
//! verdict and its reason, the counterexample (a long one shows its start and its end),
//! the engines of a portfolio, and the statistics (`--stats`). An output layer over the
//! typed reports only, as the HTML report is.

use crate::bmc::BmcReport;
use crate::driver::{Report, Stats};
use crate::frontend::Semantics;
use crate::report::{Counterexample, Outcome, Verdict};
use std::fmt::Write;
use std::path::Path;

/// Steps (and inputs) shown at each end of a long trace.
const TRACE_EDGE: usize = 60;

/// `writeln!` into a `String`, which cannot fail.
macro_rules! line {
    ($s:expr, $($t:tt)*) => {{
        let _ = writeln!($s, $($t)*);
    }};
}

/// The report of `lpmc check`: each abstraction's text (with `--show-abstractions`), the
/// outcome, the refinements and cells, the time and the engines of a portfolio.
pub fn check_text(file: &Path, r: &Report) -> String {
    let mut s = String::new();
    for (k, a) in r.abstractions.iter().enumerate() {
        line!(s, "abstraction P̂{k}:\n{a}");
    }
    s.push_str(&outcome_text(file, &r.outcome));
    if r.semantics.property != crate::frontend::Property::UnreachCall {
        line!(s, "  property: {}", r.semantics.property.name());
    }
    if r.verdict() != Verdict::Unknown || r.refinements > 0 {
        line!(s, "  refinements: {}, cells: {:?}", r.refinements, r.cells);
    }
    line!(s, "  time: {} ms", r.time_ms);
    if r.engines.len() > 1 {
        line!(s, "  engines:");
        for e in &r.engines {
            line!(
                s,
                "    {:<7} {:<8} {:>7} ms  {}",
                e.engine.as_str(),
                e.verdict.as_str(),
                e.time_ms,
                e.reason
            );
        }
    }
    s
}

/// The report of `lpmc bmc`.
pub fn bmc_text(file: &Path, r: &BmcReport) -> String {
    let mut s = outcome_text(file, &r.outcome);
    line!(
        s,
        "  unwind: {}, paths: {}, SMT checks: {}",
        r.unwind,
        r.paths,
        r.smt_checks
    );
    line!(s, "  time: {} ms", r.time_ms);
    s
}

/// The verdict, the reason and, for UNSAFE, the counterexample.
pub fn outcome_text(file: &Path, o: &Outcome) -> String {
    let mut s = String::new();
    line!(s, "{}: {}", file.display(), o.headline());
    line!(s, "  reason: {}", o.reason());
    if let Some(t) = o.counterexample() {
        s.push_str(&trace_text(t));
    }
    s
}

/// Whether position `k` of `n` falls in the middle of a long list that is cut.
fn cut(k: usize, n: usize) -> bool {
    n > 2 * TRACE_EDGE && k >= TRACE_EDGE && k < n - TRACE_EDGE
}

/// A counterexample: its inputs and its steps with what each changed.
pub fn trace_text(t: &Counterexample) -> String {
    let mut s = String::new();
    if !t.inputs.is_empty() {
        line!(s, "  inputs:");
        let n = t.inputs.len();
        for (k, i) in t.inputs.iter().enumerate() {
            if cut(k, n) {
                if k == TRACE_EDGE {
                    line!(
                        s,
                        "    ... {} inputs omitted (--json has them all) ...",
                        n - 2 * TRACE_EDGE
                    );
                }
                continue;
            }
            line!(
                s,
                "    step {:>4}  line {:>4}  {} = {}",
                i.step,
                i.line,
                i.what,
                i.value
            );
        }
    }
    if !t.accelerated.is_empty() {
        line!(s, "  accelerated loops:");
        let n = t.accelerated.len();
        for (k, a) in t.accelerated.iter().enumerate() {
            if cut(k, n) {
                if k == TRACE_EDGE {
                    line!(s, "    ... {} more ...", n - 2 * TRACE_EDGE);
                }
                continue;
            }
            line!(
                s,
                "    step {:>4}  accelerated loop at line {}: n = {} iterations",
                a.step,
                a.line,
                a.iterations
            );
        }
    }
    line!(
        s,
        "  trace ({} steps, error at line {}):",
        t.length,
        t.error_line
    );
    line!(
        s,
        "    {:>4}  {:>5}  {:<12} statement",
        "step",
        "line",
        "proc"
    );
    let n = t.length;
    for step in &t.steps {
        let k = step.step;
        if cut(k, n) {
            if k == TRACE_EDGE {
                line!(s, "    ... {} steps omitted ...", n - 2 * TRACE_EDGE);
            }
            continue;
        }
        let stmt = if step.changed.is_empty() {
            step.statement.clone()
        } else {
            format!("{:<40} [{}]", step.statement, step.changed.join(", "))
        };
        line!(
            s,
            "    {:>4}  {:>5}  {:<12} {}",
            k,
            step.line,
            step.proc,
            stmt
        );
    }
    s
}

/// The counters and times per phase (`--stats`).
pub fn stats_text(st: &Stats, semantics: &Semantics) -> String {
    let mut s = String::new();
    line!(s, "  stats:");
    line!(s, "    semantics             {semantics}");
    line!(s, "    iterations            {}", st.iterations);
    line!(s, "    disjuncts (facts)     {}", st.disjuncts);
    line!(s, "    engine steps          {}", st.engine_steps);
    line!(s, "    summaries             {}", st.summaries);
    line!(s, "    FM projections        {}", st.fm_projections);
    line!(s, "    entailment checks     {}", st.entailment_checks);
    line!(s, "    entailment splits     {}", st.entailment_splits);
    line!(s, "    entailment SMT calls  {}", st.entailment_smt_calls);
    line!(s, "    trace checks (SMT)    {}", st.trace_checks);
    line!(s, "    widenings             {}", st.widenings);
    line!(s, "    hull merges           {}", st.hull_merges);
    line!(s, "    widening refinements  {}", st.widening_refinements);
    for p in &st.widening_points {
        line!(
            s,
            "    widening point {}: {} widenings, {} merges, longest chain {}, delay {}, {} guard thresholds{}",
            p.at,
            p.widenings,
            p.merges,
            p.max_depth,
            p.delay,
            p.guard_thresholds,
            if p.learnt.is_empty() {
                String::new()
            } else {
                format!(", learnt: {}", p.learnt.join(", "))
            }
        );
    }
    line!(
        s,
        "    time (ms): abstract {:.2}, tabulate {:.2}, trace check {:.2}, refine {:.2}",
        st.abstract_ms,
        st.tabulate_ms,
        st.trace_ms,
        st.refine_ms
    );
    s
}

/// `--expect`: the outcome against the expected verdict (`Some(true)`: SAFE expected), as
/// MATCH, MISMATCH, or why there is nothing to compare. An expected SAFE (an unreach-call
/// verdict, which ignores executions with undefined behaviour) says nothing of a
/// counterexample through a signed overflow or an out-of-bounds array access.
pub fn expectation(expected_safe: Option<bool>, got: &Outcome) -> String {
    let name = |safe: bool| if safe { "SAFE" } else { "UNSAFE" };
    let through_overflow = got
        .counterexample()
        .is_some_and(|c| c.overflow_error || c.signed_overflow_line.is_some());
    let through_bounds = got
        .counterexample()
        .is_some_and(|c| c.bounds_error || c.out_of_bounds_line.is_some());
    match (expected_safe, got.verdict()) {
        (None, _) => "expect: no expected verdict for this program".to_string(),
        (Some(true), Verdict::Unsafe) if through_overflow => {
            "expect: SAFE, got UNSAFE through a signed overflow, which the expected verdict ignores: no verdict to compare".to_string()
        }
        (Some(true), Verdict::Unsafe) if through_bounds => {
            "expect: SAFE, got UNSAFE through an out-of-bounds array access, which the expected verdict ignores: no verdict to compare".to_string()
        }
        (Some(safe), Verdict::Unknown) => {
            format!("expect: {}, got UNKNOWN: no verdict to compare", name(safe))
        }
        (Some(safe), v) => {
            let ok = (v == Verdict::Safe) == safe;
            format!(
                "expect: {}, got {}: {}",
                name(safe),
                v.as_str(),
                if ok { "MATCH" } else { "MISMATCH" }
            )
        }
    }
}
