//! The CEGAR loop of the paper (§5), as a runner that carries its limits and what it has
//! learnt: abstract → tabulate → converged: SAFE / error reachable: check the trace on
//! the original program → feasible: UNSAFE / infeasible: refine → repeat. Each phase is
//! a method with typed inputs and outputs; every watcher of the loop (the iteration
//! records, the statistics, the debug log) sees it through the [`Observer`] at the phase
//! boundaries, and the loop itself formats no text.

use super::observe::{Observer, Phase, TabRun};
use super::{CheckOptions, ADAPTIVE_STEPS, ADAPTIVE_TIME, ADAPTIVE_WORK, DEFAULT_MAX_REFINEMENTS};
use crate::abstraction::{abstract_program, reads_two_cells, Precision};
use crate::cfg::{Cfg, NodeKind};
use crate::domain::{DlcDomain, Fact};
use crate::engine::{tabulate, Budget, FactId, StopReason, Tabulation, Widening};
use crate::frontend::Loaded;
use crate::ids::NodeId;
use crate::invariant::invariant_map;
use crate::limits::Deadline;
use crate::refine::{
    add_cells, add_new, add_symbolic, ghost_splits, refine, refine_widening, stale_partner_vars,
    var_keys, Learnt, Refinement, MAX_DELAY, MAX_PARTNER_PATHS,
};
use crate::report::{
    assumed_in_bounds, assumed_no_overflow, tested_counterexample, Engine, GiveUp, Outcome, Proof,
};
use crate::smt::Solvers;
use crate::trace::{check_with, replay, Feasibility, Jumped, Trace};
use std::collections::{BTreeMap, BTreeSet};
use std::ops::ControlFlow::{self, Break, Continue};
use std::sync::Arc;

/// What the loop has refined so far, for the report.
#[derive(Clone, Debug, Default)]
pub(super) struct Progress {
    /// Refinements of the precision (cells, symbolic cells, the second ghost).
    pub refinements: u32,
    /// Refinements of the widening (delays, thresholds, partition atoms).
    pub widening_refinements: u32,
    /// The tracked cells, by array name, after the last cell refinement.
    pub cells: BTreeMap<String, Vec<i64>>,
    /// The arrays with a symbolic cell, after the last refinement that added one.
    pub symbolic: Vec<String>,
    /// `Some(2)` once the symbolic cells have a second ghost.
    pub ghosts: Option<u8>,
}

/// An unsat core of a spurious trace with its loops jumped over (steps of the trace), and
/// the cells of the reads and of the writes it fixes.
type JumpCore = (
    Vec<usize>,
    Vec<(crate::ids::ArrayId, i64)>,
    Vec<(crate::ids::ArrayId, i64)>,
);

/// The CEGAR loop on one program: its limits, and what it has learnt.
pub(super) struct Cegar<'a> {
    loaded: &'a Loaded,
    opts: &'a CheckOptions,
    solvers: &'a Solvers,
    deadline: &'a Deadline,
    max_refinements: u32,
    /// The tracked cells of the next abstraction.
    precision: Precision,
    /// Where and how late to widen.
    widening: Widening,
    /// The thresholds and partition atoms learnt from spurious traces.
    learnt: Learnt,
    /// The variables of the previous abstraction, whose dimensions `learnt` refers to.
    learnt_vars: Vec<String>,
    /// Whether an adaptive tabulation ran out of its budget: then every later one widens
    /// everywhere.
    adaptive_failed: bool,
    /// Whether the last tabulation was the adaptive one.
    adaptive: bool,
    progress: Progress,
    /// Whether the facts carry congruences even where no residue is tested: turned on
    /// when a spurious trace leaves nothing else to refine.
    congruences: bool,
    /// Variables the facts keep where they are dead, so that the read rule tells runs
    /// apart ([`crate::refine::stale_partner_vars`]).
    keep_live: BTreeSet<crate::ids::VarId>,
    /// The shapes of the spurious traces whose loops were jumped over already
    /// ([`crate::trace::shape`]): the same shape gives the same jump.
    jumped: BTreeSet<Vec<NodeId>>,
    /// The unsat core of the last spurious trace with its loops jumped over, if that was
    /// infeasible too (in steps of the trace), and the cells of the reads and of the
    /// writes it fixes.
    jump_core: Option<JumpCore>,
}

impl<'a> Cegar<'a> {
    pub(super) fn new(
        loaded: &'a Loaded,
        opts: &'a CheckOptions,
        solvers: &'a Solvers,
        deadline: &'a Deadline,
    ) -> Cegar<'a> {
        let widening = match (&opts.budget, opts.no_widening) {
            (_, true) => Widening::off(),
            (Some(b), false) => b.widening.clone(),
            (None, false) => Widening::default(),
        };
        Cegar {
            loaded,
            opts,
            solvers,
            deadline,
            max_refinements: opts.max_refinements.unwrap_or(DEFAULT_MAX_REFINEMENTS),
            precision: Precision::empty(),
            widening,
            learnt: Learnt::default(),
            learnt_vars: Vec::new(),
            adaptive_failed: false,
            adaptive: false,
            progress: Progress::default(),
            congruences: false,
            keep_live: BTreeSet::new(),
            jumped: BTreeSet::new(),
            jump_core: None,
        }
    }

    fn cfg(&self) -> &'a Cfg {
        &self.loaded.cfg
    }

    /// Run the loop to its outcome.
    pub(super) fn run(mut self, obs: &mut impl Observer) -> (Outcome, Progress) {
        let outcome = loop {
            if let Break(outcome) = self.iterate(obs) {
                break outcome;
            }
        };
        obs.finished(&outcome);
        (outcome, self.progress)
    }

    /// One iteration k: abstract with the current precision and tabulate; converged →
    /// SAFE; an error reached → check its trace on the original program: feasible and
    /// replayed → UNSAFE; infeasible → refine, and go on.
    fn iterate(&mut self, obs: &mut impl Observer) -> ControlFlow<Outcome> {
        let k = self.progress.refinements;
        let _span = tracing::debug_span!("iteration", k).entered();
        obs.begin(k, &self.precision);
        let phat = self.abstraction(obs);
        let tab = self.tabulate(&phat, obs);
        let err = match tab.stop {
            StopReason::Converged => return Break(self.prove(&phat, &tab)),
            StopReason::ErrorReached(err) => err,
            ref other => return Break(self.gave_up(other, k)),
        };
        let trace = Trace {
            path: tab.trace(err),
        };
        obs.traced(&trace);
        let core = self.check(&trace, obs)?;
        obs.spurious(&tab, err);
        self.refine(&phat, &tab, err, &trace, &core, obs)
    }

    /// P̂k: the program with its arrays abstracted at the current precision; what was
    /// learnt about the previous abstraction follows its variables into this one.
    fn abstraction(&mut self, obs: &mut impl Observer) -> Cfg {
        let _span = tracing::debug_span!("abstract").entered();
        obs.enter(Phase::Abstract);
        let phat = abstract_program(self.cfg(), &self.precision);
        self.learnt.carry_over(&self.learnt_vars, &phat);
        self.learnt_vars = var_keys(&phat);
        obs.abstracted(&phat, &self.widening, &self.learnt);
        phat
    }

    /// Tabulate P̂k: adaptively first ([`Cegar::adaptive_first`]), else with widening at
    /// every widening point.
    fn tabulate(&mut self, phat: &Cfg, obs: &mut impl Observer) -> Tabulation<Fact> {
        let _span = tracing::debug_span!("tabulate").entered();
        let mut budget = self.opts.budget.clone().unwrap_or_default();
        budget.deadline = self.deadline.clone();
        budget.widening = self.widening.clone();
        budget.keep_live = self.keep_live.clone();
        let mut dom = DlcDomain::new(Arc::clone(self.solvers), self.deadline.clone());
        dom.learnt = self.learnt.thresholds.clone();
        dom.splits = self.learnt.splits.clone();
        // A ghost that ranges over a residue class needs the facts' congruences.
        dom.congruences = self.congruences || tests_residue(phat) || ghost_residue(phat);
        dom.residues = if dom.congruences {
            residue_tests(phat)
        } else {
            Vec::new()
        };
        if self.congruences && dom.residues.is_empty() {
            // Turned on by refinement, where nothing tests a residue: parity, the most
            // common congruence, splits the recursive procedures' arguments.
            dom.residues = recursion_residues(phat, &[2], Vec::new());
        }
        for (n, atoms) in ghost_splits(phat) {
            add_new(dom.splits.entry(n).or_default(), atoms, usize::MAX);
        }
        obs.enter(Phase::Tabulate);
        let adaptive = self.adaptive_first(phat, &mut dom, &budget, obs);
        self.adaptive = adaptive.is_some();
        let tab = match adaptive {
            Some(tab) => tab,
            None => {
                dom.entail.per_disjunct_only = self.widening.enabled;
                let tab = tabulate(phat, &mut dom, budget);
                obs.tabulation(TabRun::Widened, &tab);
                tab
            }
        };
        obs.tabulated(phat, &tab, &mut dom, &self.widening);
        tab
    }

    /// The adaptive tabulation: EUREKA's exact one, except that a widening point widens
    /// once its chain of facts shows no sign of converging (the same shift again and
    /// again: a loop counting towards a far bound), with the delays, thresholds and
    /// partition atoms learnt so far. Loops and recursions that end soon stay exact, which
    /// decides them and gives the cell refinement precise traces; the ones that would
    /// take as many steps as their bound are widened, whatever the bound. Its budget
    /// ([`ADAPTIVE_STEPS`], [`ADAPTIVE_WORK`] units of work, and [`ADAPTIVE_TIME`] of CPU
    /// behind them) is a safety net for chains that grow without a repeated shift. `None`
    /// if widening is off, or if this or an earlier adaptive tabulation ran out of its
    /// budget (then every later one widens everywhere).
    fn adaptive_first(
        &mut self,
        phat: &Cfg,
        dom: &mut DlcDomain,
        budget: &Budget,
        obs: &mut impl Observer,
    ) -> Option<Tabulation<Fact>> {
        if !self.widening.enabled || self.adaptive_failed {
            return None;
        }
        let adaptive = Budget {
            max_steps: budget.max_steps.min(ADAPTIVE_STEPS),
            widening: Widening {
                on_divergence: true,
                ..self.widening.clone()
            },
            deadline: self.deadline.sub_work(ADAPTIVE_WORK).sub_cpu(ADAPTIVE_TIME),
            ..budget.clone()
        };
        let tab = tabulate(phat, dom, adaptive);
        obs.tabulation(TabRun::Adaptive, &tab);
        let out_of_time = matches!(tab.stop, StopReason::Exhausted(_)) && !self.deadline.expired();
        if out_of_time || matches!(tab.stop, StopReason::StepLimit | StopReason::FactLimit) {
            self.adaptive_failed = true;
            return None;
        }
        Some(tab)
    }

    /// SAFE: no error location is reachable in P̂k, with its invariants.
    fn prove(&self, phat: &Cfg, tab: &Tabulation<Fact>) -> Outcome {
        let cfg = self.cfg();
        Outcome::Safe(Proof {
            engine: Engine::Cegar,
            abstraction: Some(self.progress.refinements),
            cells: self.precision.by_name(cfg),
            symbolic: self.precision.symbolic_by_name(cfg),
            two_ghosts: self.precision.has_second_ghost(),
            term_cells: self.precision.terms_by_name(cfg),
            bound: None,
            paths: None,
            invariants: invariant_map(&self.loaded.file, phat, tab),
            assumed_no_overflow: assumed_no_overflow(&self.loaded.file, phat, tab),
            assumed_in_bounds: assumed_in_bounds(&self.loaded.file, phat, tab),
            certificate: None,
        })
    }

    /// UNKNOWN: the tabulation of P̂k stopped at a budget or a limit.
    fn gave_up(&self, stop: &StopReason, k: u32) -> Outcome {
        let budget = self.opts.budget.clone().unwrap_or_default();
        Outcome::Unknown(match stop {
            StopReason::StepLimit => GiveUp::Budget(format!(
                "tabulation steps ({}) in iteration {k}",
                budget.max_steps
            )),
            StopReason::FactLimit => {
                GiveUp::Budget(format!("disjuncts ({}) in iteration {k}", budget.max_facts))
            }
            StopReason::Exhausted(e) => GiveUp::exhausted(*e),
            StopReason::Converged | StopReason::ErrorReached(_) => {
                GiveUp::Internal(format!("the tabulation did not stop early ({stop:?})"))
            }
        })
    }

    /// Check the abstract error trace on the original program (arrays included): its
    /// unsat core if it is infeasible; else the outcome (UNSAFE once the interpreter
    /// replays the solver's model, UNKNOWN if the solver gives no answer).
    fn check(
        &mut self,
        trace: &Trace,
        obs: &mut impl Observer,
    ) -> ControlFlow<Outcome, Vec<usize>> {
        let _span = tracing::debug_span!("check trace", steps = trace.path.len()).entered();
        let cfg = self.cfg();
        obs.enter(Phase::CheckTrace);
        let feasibility = check_with(cfg, trace, self.solvers.as_ref(), self.deadline);
        obs.checked(trace, &feasibility);
        Break(match feasibility {
            Ok(Feasibility::Infeasible { core }) => match self.jump(trace) {
                Some(c) => Outcome::Unsafe(c),
                None => return Continue(core),
            },
            Err(e) => Outcome::Unknown(GiveUp::Internal(format!(
                "the abstract trace is not a path of the program: {e}"
            ))),
            Ok(Feasibility::Unknown(why)) => Outcome::Unknown(GiveUp::SolverUnknown(format!(
                "on the abstract error trace: {why}"
            ))),
            Ok(Feasibility::Feasible(w)) => match replay(cfg, trace, &w) {
                Ok(()) => match tested_counterexample(Engine::Cegar, self.loaded, trace, &w) {
                    Ok(c) => Outcome::Unsafe(c),
                    Err(why) => Outcome::Unknown(GiveUp::Internal(why)),
                },
                Err(m) => Outcome::Unknown(GiveUp::Internal(format!(
                    "the solver's counterexample did not replay in the interpreter: {}",
                    m.0
                ))),
            },
        })
    }

    /// A spurious trace through loops may still show where a real error is, many more
    /// iterations away: jump over its loops ([`crate::trace::jump_loops`]), once per
    /// shape of trace; a run that reaches an error location is the counterexample.
    /// If the trace with its loops jumped over is infeasible too, its core is kept for
    /// the refinement ([`Cegar::refine`]).
    fn jump(&mut self, trace: &Trace) -> Option<crate::report::Counterexample> {
        self.jump_core = None;
        let shape = crate::trace::shape(self.cfg(), trace)?;
        if !self.jumped.insert(shape) {
            return None;
        }
        let _span = tracing::debug_span!("jump loops").entered();
        let (t, w) =
            match crate::trace::jump_loops(self.cfg(), trace, self.solvers.as_ref(), self.deadline)
            {
                Jumped::Found(t, w) => (t, w),
                Jumped::Infeasible {
                    core,
                    reads,
                    writes,
                } => {
                    tracing::debug!(
                        "jumped trace infeasible, core {core:?}, cells {reads:?} {writes:?}"
                    );
                    self.jump_core = Some((core, reads, writes));
                    return None;
                }
                Jumped::Nothing => return None,
            };
        let c = tested_counterexample(Engine::Cegar, self.loaded, &t, &w).ok()?;
        Some(crate::report::Counterexample {
            jumped_loops: true,
            ..c
        })
    }

    /// Learn from a spurious trace: array cells (constant or symbolic) from its unsat
    /// core, or from the core of the trace with its loops jumped over ([`Cegar::jump`]);
    /// else, if it went through no widened fact, a second ghost, or dead read indices
    /// kept, or congruences; else a refinement of the widening (and those after it).
    fn refine(
        &mut self,
        phat: &Cfg,
        tab: &Tabulation<Fact>,
        err: FactId,
        trace: &Trace,
        core: &[usize],
        obs: &mut impl Observer,
    ) -> ControlFlow<Outcome> {
        let _span = tracing::debug_span!("refine").entered();
        if self.keep_bounds_guards(trace, core) {
            return Continue(());
        }
        if self.cfg().has_arrays() && self.refine_cells(trace, core, obs)? {
            return Continue(());
        }
        // The trace is spurious whatever its loops' counts: the cells the core of the
        // trace with its loops jumped over fixes are needed whatever the widening learns
        // about the counts (a core of the trace itself may blame only the counts).
        if let Some((core, reads, writes)) = self.jump_core.take() {
            let cfg = self.cfg();
            // Its cells first; if it fixes no new one, the contents of the large arrays it
            // reads, not the counts, make the trace infeasible: they get a symbolic cell,
            // as from a trace's own core.
            let r = (self.progress.refinements < self.max_refinements)
                .then(|| {
                    let p = &mut self.precision;
                    add_cells(cfg, reads, p)
                        .or_else(|| add_cells(cfg, writes, p))
                        .or_else(|| add_symbolic(cfg, trace, &core, p))
                })
                .flatten();
            if let Some(r) = r {
                obs.enter(Phase::Refine);
                obs.refined(&r, &core);
                if self.take_refinement(r)? {
                    return Continue(());
                }
            }
        }
        // The trace's own index terms: cells at the terms that relate two accesses.
        if self.add_term_cells(trace, obs) {
            return Continue(());
        }
        if !went_through_widening(tab, err) {
            if self.add_second_ghost(obs)
                || self.add_keep_live(phat, trace, core, obs)
                || self.add_congruences(phat)
                || self.add_symbolic_small(trace, core, obs)?
            {
                return Continue(());
            }
            return Break(Outcome::Unknown(GiveUp::NoProgress(
                if self.cfg().has_arrays() {
                    format!(
                    "the abstract error trace ({} steps) is infeasible, but its unsat core fixes no new array cell",
                    trace.path.len()
                )
                } else {
                    "the abstract error trace is infeasible, but the program has no arrays to refine: \
                 the linear abstraction is too coarse here (e.g. it keeps no congruences)"
                    .to_string()
                },
            )));
        }
        self.refine_widening(phat, tab, err, trace, core, obs)
    }

    /// The trace is infeasible by an array access out of bounds, which C leaves undefined
    /// (a bounds guard in its unsat core) while P̂ skipped the guards: P̂ keeps them from
    /// now on. Whether it did not before.
    fn keep_bounds_guards(&mut self, trace: &Trace, core: &[usize]) -> bool {
        let guards = &self.cfg().bounds_guards;
        let in_core = core
            .iter()
            .any(|s| trace.path.get(*s).is_some_and(|n| guards.contains(n)));
        in_core && self.bring_back_guards("a guard is in the unsat core")
    }

    /// The spurious trace went through widened facts, and one of its facts at a bounds
    /// guard P̂ skipped has a state the guard would drop (an index out of range): P̂ keeps
    /// the guards from now on (C leaves an access out of bounds undefined, so no run
    /// passes one, and the guard bounds the index where the widened fact does not).
    /// Whether it did not before.
    fn keep_cutting_guards(&mut self, phat: &Cfg, tab: &Tabulation<Fact>, err: FactId) -> bool {
        let cfg = self.cfg();
        let cuts = || {
            tab.path_facts(err).iter().any(|f| {
                let rec = tab.fact(*f);
                cfg.bounds_guards.contains(&rec.node)
                    && match &cfg.nodes[rec.node].kind {
                        NodeKind::Assume { cond, .. } => {
                            crate::domain::may_falsify(cond, &rec.fact.conj, phat.vars.len())
                        }
                        _ => false,
                    }
            })
        };
        !self.precision.keeps_bounds_guards()
            && !cfg.bounds_guards.is_empty()
            && cuts()
            && self.bring_back_guards("they cut the widened trace")
    }

    /// P̂ keeps the bounds guards from now on, unless it did already or the refinements
    /// are at their maximum; whether it did not before.
    fn bring_back_guards(&mut self, why: &str) -> bool {
        if self.precision.keeps_bounds_guards() || self.progress.refinements >= self.max_refinements
        {
            return false;
        }
        tracing::debug!("refinement: P̂ keeps the bounds guards from now on ({why})");
        self.precision.keep_bounds_guards();
        self.progress.refinements += 1;
        true
    }

    /// The core's reads got values from partners of other runs, told apart by a variable
    /// the facts forgot: keep it from now on. Whether there was such a variable.
    fn add_keep_live(
        &mut self,
        phat: &Cfg,
        trace: &Trace,
        core: &[usize],
        obs: &mut impl Observer,
    ) -> bool {
        let new = stale_partner_vars(phat, trace, core, &self.keep_live);
        if new.is_empty() {
            return false;
        }
        let names: Vec<String> = new.iter().map(|v| phat.vars[*v].name.clone()).collect();
        tracing::debug!(
            "refinement: keep {} where an instantiated read follows",
            names.join(", ")
        );
        obs.kept_live(&names);
        self.keep_live.extend(new);
        self.progress.refinements += 1;
        true
    }

    /// Add the array cells the unsat core fixes (or symbolic cells for the arrays it
    /// reads at indices it does not fix); whether there was any.
    fn refine_cells(
        &mut self,
        trace: &Trace,
        core: &[usize],
        obs: &mut impl Observer,
    ) -> ControlFlow<Outcome, bool> {
        if self.progress.refinements >= self.max_refinements {
            return Break(Outcome::Unknown(GiveUp::Budget(format!(
                "refinements ({})",
                self.max_refinements
            ))));
        }
        let cfg = self.cfg();
        obs.enter(Phase::Refine);
        let r = refine(
            cfg,
            trace,
            core,
            &mut self.precision,
            self.solvers.as_ref(),
            self.deadline,
        );
        obs.refined(&r, core);
        self.take_refinement(r)
    }

    /// Take a cell refinement into the precision's bookkeeping: whether it was one.
    fn take_refinement(&mut self, r: Refinement) -> ControlFlow<Outcome, bool> {
        let cfg = self.cfg();
        if let Err(e) = self.deadline.check() {
            return Break(Outcome::Unknown(GiveUp::exhausted(e)));
        }
        match r {
            Refinement::NewCells(_) => self.progress.cells = self.precision.by_name(cfg),
            Refinement::NewSymbolic(_) => {
                self.progress.symbolic = self.precision.symbolic_by_name(cfg);
                // The partition atoms were learnt from the spurious traces of an
                // abstraction in which the array had no symbolic cell: they separate
                // states by what that abstraction lost (its constant cells, the
                // iteration counts of loops it read through), and they fill the places
                // the atoms over the new cell need. The refinement learns those the new
                // abstraction needs, as after a second ghost; so with the disjunct bounds
                // raised for it. (Thresholds stay: a widening keeps one only where both
                // operands satisfy it; so do delays.)
                self.learnt.splits.clear();
                self.widening.disjunct_bounds.clear();
                self.widening.disjunctive.clear();
            }
            Refinement::NoProgress => return Continue(false),
            Refinement::Failed(why) => return Break(Outcome::Unknown(GiveUp::SolverUnknown(why))),
        }
        self.progress.refinements += 1;
        Continue(true)
    }

    /// Nothing else to refine: the facts carry congruences from now on (a trace may be
    /// infeasible by parity alone), unless they already did. Whether they were added.
    fn add_congruences(&mut self, phat: &Cfg) -> bool {
        if self.congruences || tests_residue(phat) {
            return false;
        }
        tracing::debug!("refinement: the facts carry congruences from now on");
        self.congruences = true;
        self.progress.refinements += 1;
        true
    }

    /// Nothing else made progress: symbolic cells for the small arrays the core reads at
    /// indices it does not fix ([`crate::refine::add_symbolic_small`]); whether any.
    fn add_symbolic_small(
        &mut self,
        trace: &Trace,
        core: &[usize],
        obs: &mut impl Observer,
    ) -> ControlFlow<Outcome, bool> {
        if self.progress.refinements >= self.max_refinements {
            return Continue(false);
        }
        let cfg = self.cfg();
        match crate::refine::add_symbolic_small(cfg, trace, core, &mut self.precision) {
            Some(r) => {
                obs.enter(Phase::Refine);
                obs.refined(&r, core);
                self.take_refinement(r)
            }
            None => Continue(false),
        }
    }

    /// Cells at the index terms of the ghost that relate two accesses of a node of the
    /// trace ([`crate::refine::add_term_cells`]); whether any was added.
    fn add_term_cells(&mut self, trace: &Trace, obs: &mut impl Observer) -> bool {
        if self.progress.refinements >= self.max_refinements {
            return false;
        }
        let cfg = self.cfg();
        let new = crate::refine::add_term_cells(cfg, trace, &mut self.precision);
        if new.is_empty() {
            return false;
        }
        let names: Vec<String> = new
            .iter()
            .map(|(a, t)| crate::abstraction::term_cell_name(cfg, *a, t))
            .collect();
        tracing::debug!("refinement: cells at index terms {}", names.join(", "));
        obs.term_cells(&names);
        self.progress.refinements += 1;
        true
    }

    /// One ghost keeps failing (the trace fixes no cell, and the widening has nothing to
    /// learn from it): a second ghost relates two cells, if the program compares two
    /// cells at all. Whether it was added.
    fn add_second_ghost(&mut self, obs: &mut impl Observer) -> bool {
        if self.precision.symbolic().next().is_none()
            || self.precision.has_second_ghost()
            || !reads_two_cells(self.cfg(), &self.precision)
        {
            return false;
        }
        self.precision.add_second_ghost();
        self.progress.refinements += 1;
        self.progress.ghosts = Some(2);
        obs.second_ghost();
        true
    }

    /// Refine the widening where the spurious trace went through widened facts (longer
    /// delays, learnt thresholds and partition atoms), after a second ghost where one
    /// is possible; else dead read indices kept, or congruences.
    fn refine_widening(
        &mut self,
        phat: &Cfg,
        tab: &Tabulation<Fact>,
        err: FactId,
        trace: &Trace,
        core: &[usize],
        obs: &mut impl Observer,
    ) -> ControlFlow<Outcome> {
        if self.progress.widening_refinements >= self.max_refinements {
            return Break(Outcome::Unknown(GiveUp::Budget(format!(
                "refinements of the widening ({})",
                self.max_refinements
            ))));
        }
        if self.adaptive && phat.ghosts().is_empty() && self.unroll(tab, err, obs) {
            self.progress.widening_refinements += 1;
            return Continue(());
        }
        // Where the program compares two cells of an array with one symbolic cell, the
        // second ghost comes before any lesson of the widening: one ghost cannot relate
        // the two cells, and the lessons learnt for it (each a tabulation) are dropped
        // with the second ghost anyway.
        if self.add_second_ghost(obs) {
            self.widening.disjunct_bounds.clear();
            self.widening.disjunctive.clear();
            self.learnt = Learnt::default();
            return Continue(());
        }
        obs.enter(Phase::RefineWidening);
        let lesson = refine_widening(
            phat,
            tab,
            err,
            &mut self.widening,
            &mut self.learnt,
            self.solvers,
            self.deadline,
        );
        obs.widening_refined(phat, &lesson, &self.learnt);
        if lesson.is_progress() {
            self.progress.widening_refinements += 1;
            return Continue(());
        }
        // The program's own bounds guards bound its indices where the widening lost the
        // bound and learns nothing more (a search `while (a[i] != 0) i++` ends below the
        // array's size). (Before the widening's lessons they cost proofs that those
        // lessons find: lp-programs/check_loops/first_match_for.c.)
        if self.keep_cutting_guards(phat, tab, err)
            || self.add_second_ghost(obs)
            || self.add_keep_live(phat, trace, core, obs)
            || self.add_congruences(phat)
            || self.add_symbolic_small(trace, core, obs)?
        {
            return Continue(());
        }
        Break(Outcome::Unknown(GiveUp::NoProgress(format!(
            "the abstract error trace ({} steps) is infeasible and went through widened facts, \
             but refining the widening made no progress (delays at their maximum {MAX_DELAY}, \
             disjunct bounds at theirs, no new thresholds)",
            trace.path.len()
        ))))
    }
}

impl Cegar<'_> {
    /// After a spurious trace of the adaptive tabulation through facts it widened where
    /// their chains diverged: those points stay exact from now on (the loops are unrolled,
    /// within the adaptive tabulation's budget; past it, every later tabulation widens
    /// everywhere and learns where and how). Whether there was such a point. (With
    /// symbolic cells the property is ∀-shaped: unrolling cannot prove it faster than the
    /// loop's bound, and the refinement of the widening learns partition atoms instead.)
    fn unroll(&mut self, tab: &Tabulation<Fact>, err: FactId, obs: &mut impl Observer) -> bool {
        let widened: BTreeSet<NodeId> = tab
            .path_facts(err)
            .into_iter()
            .chain(
                tab.partner_paths(err, MAX_PARTNER_PATHS)
                    .into_iter()
                    .flatten(),
            )
            .map(|f| tab.fact(f))
            .filter(|r| r.widened)
            .map(|r| r.node)
            .collect();
        let new: Vec<NodeId> = widened
            .into_iter()
            .filter(|n| self.widening.exact_at.insert(*n))
            .collect();
        if new.is_empty() {
            return false;
        }
        obs.unrolled(&new);
        true
    }
}

/// Whether the trace to `err`, or the derivation of a read-rule partner it used, went
/// through a widened fact.
fn went_through_widening(tab: &Tabulation<Fact>, err: FactId) -> bool {
    tab.path_facts(err).iter().any(|f| tab.fact(*f).widened)
        || tab
            .partner_paths(err, MAX_PARTNER_PATHS)
            .iter()
            .flatten()
            .any(|f| tab.fact(*f).widened)
}

/// Whether a ghost of `phat` ranges over a residue class of the indices.
fn ghost_residue(phat: &Cfg) -> bool {
    phat.ghosts().into_iter().any(|g| {
        matches!(
            phat.vars[g].kind,
            crate::sema::VarKind::Ghost {
                residue: Some(_),
                ..
            }
        )
    })
}

/// Whether some expression of `phat` takes a residue or a quotient (`%`, `/` by a
/// constant): only then do the facts carry congruences (unless refinement asks for them).
fn tests_residue(phat: &Cfg) -> bool {
    use crate::cfg::NodeKind;
    use crate::sema::Expr;
    let mut any = false;
    for node in phat.nodes.iter() {
        let exprs: Vec<&Expr> = match &node.kind {
            NodeKind::Assign { rhs, .. } => rhs.iter().collect(),
            NodeKind::Branch { cond, .. } | NodeKind::Assume { cond, .. } => vec![cond],
            NodeKind::Call { args, .. } => args.iter().collect(),
            NodeKind::ArrayWrite { index, value, .. } => vec![index, value],
            _ => Vec::new(),
        };
        for e in exprs {
            e.visit(&mut |x| any |= matches!(x, Expr::Mod(..) | Expr::Div(..)));
        }
        if any {
            return true;
        }
    }
    false
}

/// The residues to split facts by at widening points: each variable the program tests
/// with `x % m` (`m` from 2 to 15), in the procedure of the test; and for each such
/// modulus, the entry value of each formal of a recursive procedure, in that procedure
/// (a recursion that treats even and odd arguments apart keeps one summary for each).
/// At most four.
fn residue_tests(phat: &Cfg) -> Vec<(crate::linear::Dim, u32, Option<crate::ids::ProcId>)> {
    use crate::cfg::NodeKind;
    use crate::domain::cur_dim;
    use crate::sema::Expr;
    const MAX: usize = 4;
    let mut out = Vec::new();
    let mut moduli: Vec<u32> = Vec::new();
    for node in phat.nodes.iter() {
        let exprs: Vec<&Expr> = match &node.kind {
            NodeKind::Assign { rhs, .. } => rhs.iter().collect(),
            NodeKind::Branch { cond, .. } | NodeKind::Assume { cond, .. } => vec![cond],
            _ => Vec::new(),
        };
        for e in exprs {
            e.visit(&mut |x| {
                if let Expr::Mod(a, m) = x {
                    if let (Expr::Var(v), Ok(m)) = (a.as_ref(), u32::try_from(m)) {
                        let t = (cur_dim(*v), m, node.proc);
                        if (2..=15).contains(&m) && !out.contains(&t) && out.len() < MAX {
                            out.push(t);
                            if !moduli.contains(&m) {
                                moduli.push(m);
                            }
                        }
                    }
                }
            });
        }
    }
    recursion_residues(phat, &moduli, out)
}

/// `out` and, for each modulus in `moduli`, the entry value of each formal of a
/// recursive procedure, in that procedure; at most four in all.
fn recursion_residues(
    phat: &Cfg,
    moduli: &[u32],
    mut out: Vec<(crate::linear::Dim, u32, Option<crate::ids::ProcId>)>,
) -> Vec<(crate::linear::Dim, u32, Option<crate::ids::ProcId>)> {
    use crate::domain::entry_dim;
    use crate::engine::{PointKind, Points};
    const MAX: usize = 4;
    let points = Points::of(phat);
    for (p, pr) in phat.procs.iter_enumerated() {
        if points.kind[pr.entry] != PointKind::RecEntry {
            continue;
        }
        for f in &pr.formals {
            for m in moduli {
                let t = (entry_dim(*f), *m, Some(p));
                if out.len() < MAX && !out.contains(&t) {
                    out.push(t);
                }
            }
        }
    }
    out
}
