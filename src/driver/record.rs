//! The observer that keeps the record of a check: the counters and times per phase
//! ([`Stats`]), one [`Iteration`] per CEGAR iteration (`--report`, `--json`) and the text
//! of each abstraction (`--show-abstractions`).

use super::observe::{Observer, Phase, TabRun};
use crate::abstraction::Precision;
use crate::cfg::Cfg;
use crate::domain::{DlcDomain, Fact};
use crate::engine::{Points, Tabulation, Widening};
use crate::frontend::Loaded;
use crate::ids::NodeId;
use crate::invariant::{constraint_text, point_name};
use crate::iteration::{self, Clock, Iteration};
use crate::limits::Deadline;
use crate::linear::Constraint;
use crate::refine::{Learnt, Refinement, WideningLesson};
use crate::report::Outcome;
use crate::smt::Solvers;
use crate::trace::{Feasibility, Trace, TraceError};
use std::collections::BTreeMap;
use std::time::Instant;

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
    /// Entailment checks decided by splitting a conjunction along the disjuncts.
    pub entailment_splits: u64,
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
    /// Widenings applied, over all iterations.
    pub widenings: u64,
    /// Hull merges at the disjunct bound, over all iterations.
    pub hull_merges: u64,
    /// Refinements of the widening (longer delays, learnt thresholds).
    pub widening_refinements: u32,
    /// Per widening point of the last tabulation: what widening did there.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub widening_points: Vec<PointReport>,
}

/// What widening did at one widening point (`--stats`).
#[derive(Clone, Debug, Default, serde::Serialize)]
pub struct PointReport {
    /// The point, as the user reads it (`loop at line 7`, `entry of f`, `summary of f`).
    pub at: String,
    /// Widenings applied there (last tabulation).
    pub widenings: u32,
    /// Hull merges there (last tabulation).
    pub merges: u32,
    /// The longest chain of facts there (last tabulation).
    pub max_depth: u32,
    /// Its delay.
    pub delay: u32,
    /// Thresholds from its procedure's guards.
    pub guard_thresholds: usize,
    /// Thresholds learnt there by refinement, in the program's names.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub learnt: Vec<String>,
}

/// Keeps the statistics, the iteration records and the abstractions' text of a check.
pub(super) struct Recorder<'a> {
    loaded: &'a Loaded,
    solvers: &'a Solvers,
    deadline: &'a Deadline,
    /// Record every iteration in full (`CheckOptions::explain`).
    explain: bool,
    /// Keep the text of every abstraction.
    show_abstractions: bool,
    /// When the current phase began.
    since: Instant,
    pub(super) stats: Stats,
    pub(super) iterations: Vec<Iteration>,
    pub(super) abstractions: Vec<String>,
}

impl<'a> Recorder<'a> {
    pub(super) fn new(
        loaded: &'a Loaded,
        solvers: &'a Solvers,
        deadline: &'a Deadline,
        explain: bool,
        show_abstractions: bool,
    ) -> Recorder<'a> {
        Recorder {
            loaded,
            solvers,
            deadline,
            explain,
            show_abstractions,
            since: Instant::now(),
            stats: Stats::default(),
            iterations: Vec::new(),
            abstractions: Vec::new(),
        }
    }

    /// Milliseconds since the current phase began.
    fn phase_ms(&self) -> f64 {
        self.since.elapsed().as_secs_f64() * 1000.0
    }

    /// The cumulative counters the iteration records are timed with.
    fn clock(&self) -> Clock {
        let s = &self.stats;
        Clock {
            abstract_ms: s.abstract_ms,
            tabulate_ms: s.tabulate_ms,
            trace_ms: s.trace_ms,
            refine_ms: s.refine_ms,
            engine_steps: s.engine_steps,
            smt_calls: s.entailment_smt_calls + u64::from(s.trace_checks),
        }
    }

    fn point_name(&self, phat: &Cfg, points: &Points, n: NodeId) -> String {
        point_name(&self.loaded.file, phat, points, n)
    }
}

impl Observer for Recorder<'_> {
    fn begin(&mut self, k: u32, precision: &Precision) {
        let now = self.clock();
        iteration::begin(&mut self.iterations, k, &self.loaded.cfg, precision, now);
    }

    fn enter(&mut self, _phase: Phase) {
        self.since = Instant::now();
    }

    fn abstracted(&mut self, phat: &Cfg, widening: &Widening, learnt: &Learnt) {
        self.stats.abstract_ms += self.phase_ms();
        if self.show_abstractions {
            let mut text = crate::cfg::to_text(phat);
            text.push_str(&self.learnt_text(phat, widening, learnt));
            self.abstractions.push(text);
        }
        iteration::abstraction(&mut self.iterations, self.loaded, phat, self.explain);
    }

    fn tabulation(&mut self, _run: TabRun, tab: &Tabulation<Fact>) {
        self.stats.engine_steps += tab.stats.steps;
    }

    fn tabulated(
        &mut self,
        phat: &Cfg,
        tab: &Tabulation<Fact>,
        dom: &mut DlcDomain,
        widening: &Widening,
    ) {
        let s = &mut self.stats;
        s.tabulate_ms += self.since.elapsed().as_secs_f64() * 1000.0;
        s.iterations += 1;
        s.disjuncts += tab.stats.facts;
        s.summaries += tab.stats.summaries;
        s.fm_projections += dom.stats.projections;
        s.entailment_checks += dom.entail.checks;
        s.entailment_splits += dom.entail.split;
        s.entailment_smt_calls += dom.entail.smt_calls;
        s.widenings += dom.stats.widenings;
        s.hull_merges += dom.stats.hulls;
        self.stats.widening_points = self.point_reports(phat, tab, widening, dom);
        iteration::tabulated(&mut self.iterations, &tab.stop);
    }

    fn traced(&mut self, trace: &Trace) {
        iteration::traced(&mut self.iterations, self.loaded, trace, self.explain);
    }

    fn checked(&mut self, trace: &Trace, feasibility: &Result<Feasibility, TraceError>) {
        self.stats.trace_ms += self.phase_ms();
        self.stats.trace_checks += 1;
        iteration::checked(
            &mut self.iterations,
            self.loaded,
            trace,
            feasibility,
            self.solvers,
            self.deadline,
            self.explain,
        );
    }

    fn refined(&mut self, r: &Refinement, _core: &[usize]) {
        self.stats.refine_ms += self.phase_ms();
        iteration::refined(&mut self.iterations, &self.loaded.cfg, r);
    }

    fn second_ghost(&mut self) {
        iteration::second_ghost(&mut self.iterations);
    }

    fn term_cells(&mut self, names: &[String]) {
        iteration::term_cells(&mut self.iterations, names);
    }

    fn kept_live(&mut self, names: &[String]) {
        iteration::kept_live(&mut self.iterations, names);
    }

    fn widening_refined(&mut self, phat: &Cfg, lesson: &WideningLesson, learnt: &Learnt) {
        self.stats.refine_ms += self.phase_ms();
        if lesson.is_progress() {
            self.stats.widening_refinements += 1;
            let text = self.lesson_text(phat, lesson, learnt);
            iteration::widening_refined(&mut self.iterations, text);
        }
    }

    fn unrolled(&mut self, points: &[NodeId]) {
        self.stats.widening_refinements += 1;
        let cfg = &self.loaded.cfg;
        let all = Points::of(cfg);
        let text = points
            .iter()
            .map(|n| {
                format!(
                    "{}: unrolled exactly from now on",
                    self.point_name(cfg, &all, *n)
                )
            })
            .collect();
        iteration::widening_refined(&mut self.iterations, text);
    }

    fn finished(&mut self, _outcome: &Outcome) {
        let now = self.clock();
        iteration::close(&mut self.iterations, now);
    }
}

impl Recorder<'_> {
    /// What widening did at each widening point of a tabulation (`--stats`).
    fn point_reports(
        &self,
        phat: &Cfg,
        tab: &Tabulation<Fact>,
        widening: &Widening,
        dom: &mut DlcDomain,
    ) -> Vec<PointReport> {
        let points = Points::of(phat);
        let mut out = Vec::new();
        for (n, ps) in &tab.stats.points {
            let learnt = dom.learnt.get(n).cloned().unwrap_or_default();
            let guard_thresholds = dom
                .thresholds_at(phat, *n)
                .len()
                .saturating_sub(learnt.len());
            out.push(PointReport {
                at: self.point_name(phat, &points, *n),
                widenings: ps.widenings,
                merges: ps.merges,
                max_depth: ps.max_depth,
                delay: widening.delay_at(*n),
                guard_thresholds,
                learnt: learnt.iter().map(|c| constraint_text(phat, c)).collect(),
            });
        }
        out
    }

    /// What one refinement of the widening learnt, per point, in the program's names.
    fn lesson_text(&self, phat: &Cfg, lesson: &WideningLesson, learnt: &Learnt) -> Vec<String> {
        let points = Points::of(phat);
        let name = |n: NodeId| self.point_name(phat, &points, n);
        let mut out = Vec::new();
        for (n, k) in &lesson.splits {
            let atoms = learnt.splits.get(n).map(Vec::as_slice).unwrap_or_default();
            let new: Vec<String> = atoms[atoms.len().saturating_sub(*k)..]
                .iter()
                .map(|c| constraint_text(phat, c))
                .collect();
            out.push(format!("{}: partition by {}", name(*n), new.join(", ")));
        }
        for (n, k) in &lesson.thresholds {
            out.push(format!("{}: {k} new thresholds", name(*n)));
        }
        for (n, d) in &lesson.delays {
            out.push(format!("{}: widening delayed to visit {d}", name(*n)));
        }
        for (n, b) in &lesson.disjuncts {
            out.push(format!("{}: up to {b} disjuncts", name(*n)));
        }
        for n in &lesson.disjunctive {
            out.push(format!(
                "{}: keeps disjuncts within each partition cell",
                name(*n)
            ));
        }
        out
    }

    /// The learnt thresholds, partition atoms and raised delays, as comment lines after
    /// an abstraction's text (`--show-abstractions`).
    fn learnt_text(&self, phat: &Cfg, widening: &Widening, learnt: &Learnt) -> String {
        let points = Points::of(phat);
        let mut s = String::new();
        let mut section = |what: &str, map: &BTreeMap<NodeId, Vec<Constraint>>| {
            for (n, cs) in map {
                let ts: Vec<String> = cs.iter().map(|c| constraint_text(phat, c)).collect();
                s.push_str(&format!(
                    "// {what} at {}: {}\n",
                    self.point_name(phat, &points, *n),
                    ts.join(", ")
                ));
            }
        };
        section("partition", &learnt.splits);
        section("learnt thresholds", &learnt.thresholds);
        for (n, d) in &widening.delays {
            s.push_str(&format!(
                "// widening delay at {}: {d}\n",
                self.point_name(phat, &points, *n)
            ));
        }
        for n in &widening.disjunctive {
            s.push_str(&format!(
                "// disjuncts within partition cells at {}\n",
                self.point_name(phat, &points, *n)
            ));
        }
        s
    }
}
