//! The CEGAR loop of the paper (§5), as a runner that carries its limits and what it has
//! learnt: abstract → tabulate → converged: SAFE / error reachable: check the trace on
//! the original program → feasible: UNSAFE / infeasible: refine → repeat. Each phase is
//! a method with typed inputs and outputs; every watcher of the loop (the iteration
//! records, the statistics, the debug log) sees it through the [`Observer`] at the phase
//! boundaries, and the loop itself formats no text.

use super::observe::{Observer, Phase, TabRun};
use super::{CheckOptions, ADAPTIVE_STEPS, ADAPTIVE_WORK, DEFAULT_MAX_REFINEMENTS};
use crate::abstraction::abstract_program;
use crate::cfg::Cfg;
use crate::domain::{DlcDomain, Fact};
use crate::engine::{tabulate, Budget, FactId, StopReason, Tabulation, Widening};
use crate::frontend::Loaded;
use crate::ids::NodeId;
use crate::invariant::invariant_map;
use crate::limits::Deadline;
use crate::refine::lessons::{self, tests_residue, Learning, Spurious, Watch};
use crate::refine::{add_new, ghost_splits, var_keys, Learnt, Refinement, WideningLesson};
use crate::report::{
    assumed_in_bounds, assumed_no_overflow, tested_counterexample, Engine, GiveUp, Outcome, Proof,
};
use crate::smt::Solvers;
use crate::trace::{check_with, replay, Feasibility, Jumped, Trace};
use std::collections::BTreeSet;
use std::ops::ControlFlow::{self, Break, Continue};
use std::sync::Arc;

pub(super) use crate::refine::lessons::Progress;

/// The CEGAR loop on one program: its limits, and what it has learnt.
pub(super) struct Cegar<'a> {
    loaded: &'a Loaded,
    opts: &'a CheckOptions,
    solvers: &'a Solvers,
    deadline: &'a Deadline,
    /// What the refinement has learnt so far.
    learning: Learning,
    /// The variables of the previous abstraction, whose dimensions `learnt` refers to.
    learnt_vars: Vec<String>,
    /// Whether an adaptive tabulation ran out of its budget: then every later one widens
    /// everywhere.
    adaptive_failed: bool,
    /// Whether the last tabulation was the adaptive one.
    adaptive: bool,
    /// The shapes of the spurious traces whose loops were jumped over already
    /// ([`crate::trace::shape`]): the same shape gives the same jump.
    jumped: BTreeSet<Vec<NodeId>>,
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
            learning: Learning::new(
                opts.max_refinements.unwrap_or(DEFAULT_MAX_REFINEMENTS),
                widening,
            ),
            learnt_vars: Vec::new(),
            adaptive_failed: false,
            adaptive: false,
            jumped: BTreeSet::new(),
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
        (outcome, self.learning.progress)
    }

    /// One iteration k: abstract with the current precision and tabulate; converged →
    /// SAFE; an error reached → check its trace on the original program: feasible and
    /// replayed → UNSAFE; infeasible → refine, and go on.
    fn iterate(&mut self, obs: &mut impl Observer) -> ControlFlow<Outcome> {
        let k = self.learning.progress.refinements;
        let _span = tracing::debug_span!("iteration", k).entered();
        obs.begin(k, &self.learning.precision);
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
        let phat = abstract_program(self.cfg(), &self.learning.precision);
        self.learning.learnt.carry_over(&self.learnt_vars, &phat);
        self.learnt_vars = var_keys(&phat);
        obs.abstracted(&phat, &self.learning.widening, &self.learning.learnt);
        phat
    }

    /// Tabulate P̂k: adaptively first ([`Cegar::adaptive_first`]), else with widening at
    /// every widening point.
    fn tabulate(&mut self, phat: &Cfg, obs: &mut impl Observer) -> Tabulation<Fact> {
        let _span = tracing::debug_span!("tabulate").entered();
        let mut budget = self.opts.budget.clone().unwrap_or_default();
        budget.deadline = self.deadline.clone();
        budget.widening = self.learning.widening.clone();
        budget.keep_live = self.learning.keep_live.clone();
        let mut dom = DlcDomain::new(Arc::clone(self.solvers), self.deadline.clone());
        dom.learnt = self.learning.learnt.thresholds.clone();
        dom.splits = self.learning.learnt.splits.clone();
        // A ghost that ranges over a residue class needs the facts' congruences.
        dom.congruences = self.learning.congruences || tests_residue(phat) || ghost_residue(phat);
        dom.residues = if dom.congruences {
            residue_tests(phat)
        } else {
            Vec::new()
        };
        if self.learning.congruences && dom.residues.is_empty() {
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
                dom.entail.per_disjunct_only = self.learning.widening.enabled;
                let tab = tabulate(phat, &mut dom, budget);
                obs.tabulation(TabRun::Widened, &tab);
                tab
            }
        };
        obs.tabulated(phat, &tab, &mut dom, &self.learning.widening);
        tab
    }

    /// The adaptive tabulation: EUREKA's exact one, except that a widening point widens
    /// once its chain of facts shows no sign of converging (the same shift again and
    /// again: a loop counting towards a far bound), with the delays, thresholds and
    /// partition atoms learnt so far. Loops and recursions that end soon stay exact, which
    /// decides them and gives the cell refinement precise traces; the ones that would
    /// take as many steps as their bound are widened, whatever the bound. Its budget
    /// ([`ADAPTIVE_STEPS`] and [`ADAPTIVE_WORK`] units of work, both counted, so that
    /// where it gives up does not depend on the machine) is a safety net for chains that
    /// grow without a repeated shift. `None`
    /// if widening is off, or if this or an earlier adaptive tabulation ran out of its
    /// budget (then every later one widens everywhere).
    fn adaptive_first(
        &mut self,
        phat: &Cfg,
        dom: &mut DlcDomain,
        budget: &Budget,
        obs: &mut impl Observer,
    ) -> Option<Tabulation<Fact>> {
        if !self.learning.widening.enabled || self.adaptive_failed {
            return None;
        }
        let adaptive = Budget {
            max_steps: budget.max_steps.min(ADAPTIVE_STEPS),
            widening: Widening {
                on_divergence: true,
                ..self.learning.widening.clone()
            },
            deadline: self.deadline.sub_work(ADAPTIVE_WORK),
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
            abstraction: Some(self.learning.progress.refinements),
            cells: self.learning.precision.by_name(cfg),
            symbolic: self.learning.precision.symbolic_by_name(cfg),
            two_ghosts: self.learning.precision.has_second_ghost(),
            term_cells: self.learning.precision.terms_by_name(cfg),
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
        self.learning.jump_core = None;
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
                    self.learning.jump_core = Some((core, reads, writes));
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

    /// Learn from a spurious trace: the lessons of the refinement, in their order
    /// ([`lessons::ORDER`]); the first that adds something ends the refinement. Each
    /// lesson's additions reach the observer as it makes them.
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
        let ev = Spurious::new(
            self.cfg(),
            phat,
            tab,
            err,
            trace,
            core,
            self.adaptive,
            self.solvers,
            self.deadline,
        );
        let mut watch = Watching(obs);
        for lesson in lessons::ORDER {
            match lesson.learn(&mut self.learning, &ev, &mut watch) {
                Continue(true) => return Continue(()),
                Continue(false) => {}
                Break(stop) => return Break(unknown(stop)),
            }
        }
        Break(unknown(lessons::no_lesson(&ev)))
    }
}

/// UNKNOWN, for the reason the refinement stopped.
fn unknown(stop: lessons::Stop) -> Outcome {
    Outcome::Unknown(match stop {
        lessons::Stop::Budget(what) => GiveUp::Budget(what),
        lessons::Stop::NoProgress(why) => GiveUp::NoProgress(why),
        lessons::Stop::Exhausted(e) => GiveUp::exhausted(e),
        lessons::Stop::SolverUnknown(why) => GiveUp::SolverUnknown(why),
    })
}

/// The driver's observers, watching the lessons of the refinement.
struct Watching<'o, O>(&'o mut O);

impl<O: Observer> Watch for Watching<'_, O> {
    fn enter_refine(&mut self) {
        self.0.enter(Phase::Refine);
    }
    fn enter_refine_widening(&mut self) {
        self.0.enter(Phase::RefineWidening);
    }
    fn refined(&mut self, r: &Refinement, core: &[usize]) {
        self.0.refined(r, core);
    }
    fn second_ghost(&mut self) {
        self.0.second_ghost();
    }
    fn term_cells(&mut self, names: &[String]) {
        self.0.term_cells(names);
    }
    fn kept_live(&mut self, names: &[String]) {
        self.0.kept_live(names);
    }
    fn widening_refined(&mut self, phat: &Cfg, lesson: &WideningLesson, learnt: &Learnt) {
        self.0.widening_refined(phat, lesson, learnt);
    }
    fn unrolled(&mut self, points: &[NodeId]) {
        self.0.unrolled(points);
    }
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
