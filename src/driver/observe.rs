//! The one interface through which everything that watches the CEGAR loop sees it: the
//! loop calls an [`Observer`] at its phase boundaries, and observers keep the iteration
//! records and statistics ([`super::record::Recorder`]) or write the debug log
//! ([`DebugLog`], through `tracing`). A pair of observers is an observer.

use crate::abstraction::Precision;
use crate::cfg::Cfg;
use crate::domain::{DlcDomain, Fact};
use crate::engine::{FactId, Tabulation, Widening};
use crate::ids::NodeId;
use crate::refine::{Learnt, Refinement, WideningLesson, MAX_PARTNER_PATHS};
use crate::report::Outcome;
use crate::trace::{Feasibility, Trace, TraceError};

/// A phase of an iteration, announced by [`Observer::enter`] when it begins; the hook
/// named in each variant ends it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Phase {
    /// Building P̂k; ends with [`Observer::abstracted`].
    Abstract,
    /// Tabulating P̂k; ends with [`Observer::tabulated`].
    Tabulate,
    /// Checking the abstract trace on the original program; ends with
    /// [`Observer::checked`].
    CheckTrace,
    /// Refining the precision from the unsat core; ends with [`Observer::refined`].
    Refine,
    /// Refining the widening; ends with [`Observer::widening_refined`].
    RefineWidening,
}

/// Which tabulation of P̂k ran.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TabRun {
    /// The adaptive one: exact, but widened at the points whose chains diverge, on a
    /// small budget.
    Adaptive,
    /// The one with widening.
    Widened,
}

/// Watches the CEGAR loop. Every hook does nothing by default.
#[allow(unused_variables)]
pub trait Observer {
    /// Iteration `k` begins, with this precision.
    fn begin(&mut self, k: u32, precision: &Precision) {}
    /// A phase begins.
    fn enter(&mut self, phase: Phase) {}
    /// P̂k was built; `widening` and `learnt` are what the next tabulation uses.
    fn abstracted(&mut self, phat: &Cfg, widening: &Widening, learnt: &Learnt) {}
    /// One tabulation of P̂k ended (several may run in one [`Phase::Tabulate`]).
    fn tabulation(&mut self, run: TabRun, tab: &Tabulation<Fact>) {}
    /// The tabulation phase ended with `tab`, over `dom`.
    fn tabulated(
        &mut self,
        phat: &Cfg,
        tab: &Tabulation<Fact>,
        dom: &mut DlcDomain,
        widening: &Widening,
    ) {
    }
    /// The tabulation reached an error location along `trace`.
    fn traced(&mut self, trace: &Trace) {}
    /// The check of `trace` on the original program said this.
    fn checked(&mut self, trace: &Trace, feasibility: &Result<Feasibility, TraceError>) {}
    /// The trace to the error fact `err` of `tab` is spurious.
    fn spurious(&mut self, tab: &Tabulation<Fact>, err: FactId) {}
    /// The refinement of the precision from the unsat core `core` gave `r`.
    fn refined(&mut self, r: &Refinement, core: &[usize]) {}
    /// The symbolic cells got a second ghost.
    fn second_ghost(&mut self) {}
    /// The arrays got cells at these index terms of the ghost (`b[2k+1]`).
    fn term_cells(&mut self, names: &[String]) {}
    /// These variables are kept where dead from now on.
    fn kept_live(&mut self, names: &[String]) {}
    /// The refinement of the widening learnt `lesson` (maybe nothing); `learnt` is all
    /// that was learnt so far.
    fn widening_refined(&mut self, phat: &Cfg, lesson: &WideningLesson, learnt: &Learnt) {}
    /// The adaptive tabulation keeps these widening points exact from now on.
    fn unrolled(&mut self, points: &[NodeId]) {}
    /// The loop ended with `outcome`.
    fn finished(&mut self, outcome: &Outcome) {}
}

impl<A: Observer, B: Observer> Observer for (A, B) {
    fn begin(&mut self, k: u32, precision: &Precision) {
        self.0.begin(k, precision);
        self.1.begin(k, precision);
    }
    fn enter(&mut self, phase: Phase) {
        self.0.enter(phase);
        self.1.enter(phase);
    }
    fn abstracted(&mut self, phat: &Cfg, widening: &Widening, learnt: &Learnt) {
        self.0.abstracted(phat, widening, learnt);
        self.1.abstracted(phat, widening, learnt);
    }
    fn tabulation(&mut self, run: TabRun, tab: &Tabulation<Fact>) {
        self.0.tabulation(run, tab);
        self.1.tabulation(run, tab);
    }
    fn tabulated(
        &mut self,
        phat: &Cfg,
        tab: &Tabulation<Fact>,
        dom: &mut DlcDomain,
        widening: &Widening,
    ) {
        self.0.tabulated(phat, tab, dom, widening);
        self.1.tabulated(phat, tab, dom, widening);
    }
    fn traced(&mut self, trace: &Trace) {
        self.0.traced(trace);
        self.1.traced(trace);
    }
    fn checked(&mut self, trace: &Trace, feasibility: &Result<Feasibility, TraceError>) {
        self.0.checked(trace, feasibility);
        self.1.checked(trace, feasibility);
    }
    fn spurious(&mut self, tab: &Tabulation<Fact>, err: FactId) {
        self.0.spurious(tab, err);
        self.1.spurious(tab, err);
    }
    fn refined(&mut self, r: &Refinement, core: &[usize]) {
        self.0.refined(r, core);
        self.1.refined(r, core);
    }
    fn second_ghost(&mut self) {
        self.0.second_ghost();
        self.1.second_ghost();
    }
    fn term_cells(&mut self, names: &[String]) {
        self.0.term_cells(names);
        self.1.term_cells(names);
    }
    fn kept_live(&mut self, names: &[String]) {
        self.0.kept_live(names);
        self.1.kept_live(names);
    }
    fn widening_refined(&mut self, phat: &Cfg, lesson: &WideningLesson, learnt: &Learnt) {
        self.0.widening_refined(phat, lesson, learnt);
        self.1.widening_refined(phat, lesson, learnt);
    }
    fn unrolled(&mut self, points: &[NodeId]) {
        self.0.unrolled(points);
        self.1.unrolled(points);
    }
    fn finished(&mut self, outcome: &Outcome) {
        self.0.finished(outcome);
        self.1.finished(outcome);
    }
}

/// Keeps the last abstraction P̂k the loop built: after a SAFE answer, the one proved safe
/// (`lpmc horn --cells found` writes its clauses).
#[derive(Clone, Debug, Default)]
pub struct LastAbstraction(pub Option<Cfg>);

impl Observer for LastAbstraction {
    fn abstracted(&mut self, phat: &Cfg, _widening: &Widening, _learnt: &Learnt) {
        self.0 = Some(phat.clone());
    }
}

/// Watches nothing.
impl Observer for () {}

/// The debug log of the loop, as `tracing` events of target `lpmc::driver` (enable with
/// `LPMC_LOG=lpmc::driver=debug`, or `trace` for every fact of the busiest nodes).
#[derive(Clone, Copy, Debug, Default)]
pub struct DebugLog;

/// Nodes listed in the log of a widened tabulation, most facts first.
const BUSIEST_NODES: usize = 12;

impl Observer for DebugLog {
    fn abstracted(&mut self, phat: &Cfg, _widening: &Widening, _learnt: &Learnt) {
        if !tracing::enabled!(tracing::Level::DEBUG) {
            return;
        }
        let dims: Vec<String> = phat
            .vars
            .iter_enumerated()
            .map(|(v, i)| format!("x{}={}", 2 * v.0 + 1, i.name))
            .collect();
        tracing::debug!(
            "abstraction:\n{}dimensions (current values; x-1 is the entry): {}",
            crate::cfg::to_text(phat),
            dims.join(" ")
        );
    }

    fn begin(&mut self, k: u32, precision: &Precision) {
        tracing::debug!(
            k,
            cells = precision.len(),
            symbolic = precision.symbolic().count(),
            "iteration begins"
        );
    }

    fn tabulation(&mut self, run: TabRun, tab: &Tabulation<Fact>) {
        tracing::debug!(
            ?run,
            stop = ?tab.stop,
            steps = tab.stats.steps,
            facts = tab.stats.facts,
            comparisons = tab.stats.comparisons,
            "tabulation ended"
        );
        if run == TabRun::Widened && tracing::enabled!(tracing::Level::DEBUG) {
            let mut per: Vec<(usize, u32)> = tab
                .at_node
                .iter_enumerated()
                .map(|(n, fs)| (fs.len(), n.0))
                .collect();
            per.sort_unstable_by(|a, b| b.cmp(a));
            per.truncate(BUSIEST_NODES);
            tracing::debug!("facts per node (most first): {per:?}");
            for (_, n) in &per {
                for f in &tab.at_node[crate::ids::NodeId(*n)] {
                    tracing::trace!("  {n}: {}", tab.fact(*f).fact);
                }
            }
        }
    }

    fn spurious(&mut self, tab: &Tabulation<Fact>, err: FactId) {
        if !tracing::enabled!(tracing::Level::DEBUG) {
            return;
        }
        let marks = |path: &[FactId]| -> String {
            path.iter()
                .map(|f| {
                    let r = tab.fact(*f);
                    format!("{}{}", r.node.0, if r.widened { "*" } else { "" })
                })
                .collect::<Vec<_>>()
                .join(" ")
        };
        let path = tab.path_facts(err);
        tracing::debug!("infeasible trace (* widened): {}", marks(&path));
        for f in path {
            let r = tab.fact(f);
            if r.widened {
                tracing::debug!("  at {}: {}", r.node.0, r.fact);
            }
        }
        for p in tab.partner_paths(err, MAX_PARTNER_PATHS) {
            let Some(last) = p.last().map(|f| tab.fact(*f)) else {
                continue;
            };
            tracing::debug!(
                "partner at {}: {}\n  its path: {}",
                last.node.0,
                last.fact,
                marks(&p)
            );
        }
    }

    fn refined(&mut self, r: &Refinement, core: &[usize]) {
        tracing::debug!("cell refinement: {r:?} (core steps {core:?})");
    }

    fn widening_refined(&mut self, _phat: &Cfg, lesson: &WideningLesson, learnt: &Learnt) {
        tracing::debug!(
            "widening refinement: {lesson:?}; splits now {:?}",
            learnt.splits
        );
        tracing::trace!("thresholds now {:?}", learnt.thresholds);
    }

    fn unrolled(&mut self, points: &[NodeId]) {
        tracing::debug!("unrolled exactly from now on: {points:?}");
    }

    fn finished(&mut self, outcome: &Outcome) {
        tracing::debug!(verdict = outcome.verdict().as_str(), "the loop ended");
    }
}
