//! The lessons of the refinement, in the order they are tried ([`ORDER`]): each one
//! function that reads the evidence of one spurious trace ([`Spurious`]) and adds to what
//! the refinement has learnt ([`Learning`]); the first that adds something ends the
//! refinement. The driver walks [`ORDER`] and reports what each lesson added through a
//! [`Watch`].

use super::{
    add_cells, add_symbolic, constant_cells, refine_widening, stale_partner_vars, symbolic_cells,
    Learnt, Refinement, WideningLesson, MAX_DELAY, MAX_PARTNER_PATHS,
};
use crate::abstraction::{reads_two_cells, Precision};
use crate::cfg::{Cfg, NodeKind};
use crate::domain::Fact;
use crate::engine::{FactId, Tabulation, Widening};
use crate::ids::{ArrayId, NodeId, VarId};
use crate::limits::Deadline;
use crate::limits::Exhausted;
use crate::smt::Solvers;
use crate::trace::Trace;
use std::cell::OnceCell;
use std::collections::{BTreeMap, BTreeSet};
use std::ops::ControlFlow::{self, Break, Continue};

/// What the refinement has refined so far, for the report.
#[derive(Clone, Debug, Default)]
pub struct Progress {
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
pub type JumpCore = (Vec<usize>, Vec<(ArrayId, i64)>, Vec<(ArrayId, i64)>);

/// What the refinement has learnt from the spurious traces so far: what the next
/// abstraction and tabulation are built with.
pub struct Learning {
    /// The most refinements of the precision, and of the widening, before UNKNOWN.
    pub max_refinements: u32,
    /// The tracked cells of the next abstraction.
    pub precision: Precision,
    /// Where and how late to widen.
    pub widening: Widening,
    /// The thresholds and partition atoms learnt from spurious traces.
    pub learnt: Learnt,
    /// Whether the facts carry congruences even where no residue is tested: turned on
    /// when a spurious trace leaves nothing else to refine.
    pub congruences: bool,
    /// Variables the facts keep where they are dead, so that the read rule tells runs
    /// apart ([`stale_partner_vars`]).
    pub keep_live: BTreeSet<VarId>,
    /// The unsat core of the last spurious trace with its loops jumped over, if that was
    /// infeasible too (in steps of the trace), and the cells of the reads and of the
    /// writes it fixes.
    pub jump_core: Option<JumpCore>,
    /// The counts of refinements and what they added, for the report.
    pub progress: Progress,
}

impl Learning {
    /// Nothing learnt yet: no cells, the widening `widening`.
    pub fn new(max_refinements: u32, widening: Widening) -> Learning {
        Learning {
            max_refinements,
            precision: Precision::empty(),
            widening,
            learnt: Learnt::default(),
            congruences: false,
            keep_live: BTreeSet::new(),
            jump_core: None,
            progress: Progress::default(),
        }
    }

    /// Whether the refinements of the precision are at their maximum.
    fn at_max(&self) -> bool {
        self.progress.refinements >= self.max_refinements
    }
}

/// The evidence of one spurious trace: the abstraction it ran in, its tabulation, the
/// trace and the unsat core of its check on the original program.
pub struct Spurious<'e> {
    /// The original program.
    pub cfg: &'e Cfg,
    /// The abstraction P̂ the trace ran in.
    pub phat: &'e Cfg,
    /// The tabulation of P̂ that reached the error.
    pub tab: &'e Tabulation<Fact>,
    /// The fact at the error location.
    pub err: FactId,
    /// The abstract error trace.
    pub trace: &'e Trace,
    /// The unsat core of the trace on the original program (steps of the trace).
    pub core: &'e [usize],
    /// Whether the tabulation was the adaptive one.
    pub adaptive: bool,
    /// The solvers and the deadline of the run.
    pub solvers: &'e Solvers,
    /// See [`Spurious::solvers`].
    pub deadline: &'e Deadline,
    /// Whether the trace went through widened facts, once asked.
    widened: OnceCell<bool>,
}

impl<'e> Spurious<'e> {
    /// The evidence of the spurious trace `trace` to `err` in `tab`, with core `core`.
    #[allow(clippy::too_many_arguments)]
    pub fn new(
        cfg: &'e Cfg,
        phat: &'e Cfg,
        tab: &'e Tabulation<Fact>,
        err: FactId,
        trace: &'e Trace,
        core: &'e [usize],
        adaptive: bool,
        solvers: &'e Solvers,
        deadline: &'e Deadline,
    ) -> Spurious<'e> {
        Spurious {
            cfg,
            phat,
            tab,
            err,
            trace,
            core,
            adaptive,
            solvers,
            deadline,
            widened: OnceCell::new(),
        }
    }

    /// Whether the trace to `err`, or the derivation of a read-rule partner it used, went
    /// through a widened fact.
    pub fn widened(&self) -> bool {
        *self.widened.get_or_init(|| {
            let (tab, err) = (self.tab, self.err);
            tab.path_facts(err).iter().any(|f| tab.fact(*f).widened)
                || tab
                    .partner_paths(err, MAX_PARTNER_PATHS)
                    .iter()
                    .flatten()
                    .any(|f| tab.fact(*f).widened)
        })
    }
}

/// Why the refinement stops without a lesson; the driver answers UNKNOWN with it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Stop {
    /// A budget of refinements is spent (which one).
    Budget(String),
    /// No lesson adds anything from the trace (why).
    NoProgress(String),
    /// The run's time or memory is spent.
    Exhausted(Exhausted),
    /// The solver could not answer (why).
    SolverUnknown(String),
}

/// What watches the lessons: told what each one adds, when it adds it. The driver's
/// observers, behind an adapter; every method does nothing by default.
#[allow(unused_variables)]
pub trait Watch {
    /// A lesson that adds cells starts.
    fn enter_refine(&mut self) {}
    /// The lesson of the widening starts.
    fn enter_refine_widening(&mut self) {}
    /// A lesson of cells gave `r`, from the unsat core `core`.
    fn refined(&mut self, r: &Refinement, core: &[usize]) {}
    /// The symbolic cells got a second ghost.
    fn second_ghost(&mut self) {}
    /// Cells at the index terms `names` were added.
    fn term_cells(&mut self, names: &[String]) {}
    /// The variables `names` are kept where they are dead.
    fn kept_live(&mut self, names: &[String]) {}
    /// The widening learnt `lesson`; `learnt` is what it has learnt in all.
    fn widening_refined(&mut self, phat: &Cfg, lesson: &WideningLesson, learnt: &Learnt) {}
    /// The widening points `points` stay exact from now on.
    fn unrolled(&mut self, points: &[NodeId]) {}
}

/// The lessons of the refinement, as the README's table lists them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Lesson {
    /// [`bounds_guards`]
    BoundsGuards,
    /// [`constant_cells_lesson`]
    ConstantCells,
    /// [`symbolic_cells_lesson`]
    SymbolicCells,
    /// [`loops_jumped_over`]
    LoopsJumpedOver,
    /// [`index_term_cells`]
    IndexTermCells,
    /// [`exact_loops`]
    ExactLoops,
    /// [`second_ghost`]
    SecondGhost,
    /// [`the_widening`]
    Widening,
    /// [`guards_the_widening_lost`]
    GuardsTheWideningLost,
    /// [`live_variables`]
    LiveVariables,
    /// [`copy_term_cells`]
    CopyTermCells,
    /// [`congruences`]
    Congruences,
    /// [`small_arrays_symbolic_cells`]
    SmallArraysSymbolicCells,
}

/// The order the lessons are tried in, by the driver; the first that adds something ends
/// the refinement, and if none does the refinement gives up ([`no_lesson`]).
///
/// Each lesson decides itself whether it applies. The lessons of the widening (exact
/// loops, the widening, the guards it lost) apply only to a trace through widened facts.
/// Exceptions to "try each in turn until one adds something":
/// - the symbolic cells continue the constant cells: the phase and the budget of both
///   are entered and checked by [`constant_cells_lesson`], and the observer hears one
///   [`Watch::refined`] for the two;
/// - exact loops, the first of the widening's lessons, first checks the widening's
///   budget, and ends the refinement with UNKNOWN when it is spent, before any later
///   lesson (even when exact loops itself has nothing to add);
/// - the constant cells, the symbolic cells and the loops jumped over end it with
///   UNKNOWN when their budget is spent or the solver fails.
pub const ORDER: [Lesson; 13] = [
    Lesson::BoundsGuards,
    Lesson::ConstantCells,
    Lesson::SymbolicCells,
    Lesson::LoopsJumpedOver,
    Lesson::IndexTermCells,
    Lesson::ExactLoops,
    Lesson::SecondGhost,
    Lesson::Widening,
    Lesson::GuardsTheWideningLost,
    Lesson::LiveVariables,
    Lesson::CopyTermCells,
    Lesson::Congruences,
    Lesson::SmallArraysSymbolicCells,
];

impl Lesson {
    /// Try this lesson on `ev`: whether it added something to `l`; `Break` with the
    /// outcome if the refinement must stop.
    pub fn learn(
        self,
        l: &mut Learning,
        ev: &Spurious,
        watch: &mut dyn Watch,
    ) -> ControlFlow<Stop, bool> {
        match self {
            Lesson::BoundsGuards => Continue(bounds_guards(l, ev)),
            Lesson::ConstantCells => constant_cells_lesson(l, ev, watch),
            Lesson::SymbolicCells => symbolic_cells_lesson(l, ev, watch),
            Lesson::LoopsJumpedOver => loops_jumped_over(l, ev, watch),
            Lesson::IndexTermCells => Continue(index_term_cells(l, ev, watch)),
            Lesson::ExactLoops => exact_loops(l, ev, watch),
            Lesson::SecondGhost => Continue(second_ghost(l, ev, watch)),
            Lesson::Widening => Continue(the_widening(l, ev, watch)),
            Lesson::GuardsTheWideningLost => Continue(guards_the_widening_lost(l, ev)),
            Lesson::LiveVariables => Continue(live_variables(l, ev, watch)),
            Lesson::CopyTermCells => Continue(copy_term_cells(l, ev, watch)),
            Lesson::Congruences => Continue(congruences(l, ev)),
            Lesson::SmallArraysSymbolicCells => small_arrays_symbolic_cells(l, ev, watch),
        }
    }
}

/// UNKNOWN: no lesson added anything from the spurious trace `ev`.
pub fn no_lesson(ev: &Spurious) -> Stop {
    let trace = ev.trace;
    Stop::NoProgress(if ev.widened() {
        format!(
            "the abstract error trace ({} steps) is infeasible and went through widened facts, \
             but refining the widening made no progress (delays at their maximum {MAX_DELAY}, \
             disjunct bounds at theirs, no new thresholds)",
            trace.path.len()
        )
    } else if ev.cfg.has_arrays() {
        format!(
            "the abstract error trace ({} steps) is infeasible, but its unsat core fixes no new array cell",
            trace.path.len()
        )
    } else {
        "the abstract error trace is infeasible, but the program has no arrays to refine: \
         the linear abstraction is too coarse here (e.g. it keeps no congruences)"
            .to_string()
    })
}

/// Lesson 1, bounds guards. Reads: the core, for a bounds guard P̂ skipped. The trace is
/// infeasible by an array access out of bounds, which C leaves undefined, while P̂
/// skipped the guards. Adds: P̂ keeps the guards from now on (unless it did already).
pub fn bounds_guards(l: &mut Learning, ev: &Spurious) -> bool {
    let guards = &ev.cfg.bounds_guards;
    let in_core = ev
        .core
        .iter()
        .any(|s| ev.trace.path.get(*s).is_some_and(|n| guards.contains(n)));
    in_core && bring_back_guards(l, "a guard is in the unsat core")
}

/// Lesson 2, constant cells. Reads: the core's array accesses whose index the trace
/// fixes ([`constant_cells`]). Adds: those cells, or a symbolic cell for a large array
/// whose constant cells keep growing. Only in a program with arrays; ends the refinement
/// with UNKNOWN when the refinements are at their maximum or the solver fails. When no
/// cell is new, [`symbolic_cells_lesson`] goes on in the same phase.
pub fn constant_cells_lesson(
    l: &mut Learning,
    ev: &Spurious,
    watch: &mut dyn Watch,
) -> ControlFlow<Stop, bool> {
    if !ev.cfg.has_arrays() {
        return Continue(false);
    }
    if l.at_max() {
        return Break(Stop::Budget(format!("refinements ({})", l.max_refinements)));
    }
    watch.enter_refine();
    let r = constant_cells(
        ev.cfg,
        ev.trace,
        ev.core,
        &mut l.precision,
        ev.solvers.as_ref(),
        ev.deadline,
    );
    match r {
        Some(r) => {
            watch.refined(&r, ev.core);
            take_refinement(l, ev, r)
        }
        None => Continue(false),
    }
}

/// Lesson 3, symbolic cells. Reads: the core's reads at indices it does not fix, and the
/// reads the trace's loop-free end depends on ([`symbolic_cells`]). Adds: a symbolic cell
/// for each such large array. Tried right after [`constant_cells_lesson`] found no new
/// cell (in a program with arrays, within the budget that lesson checked), and reports
/// what the two found together, [`Refinement::NoProgress`] included.
pub fn symbolic_cells_lesson(
    l: &mut Learning,
    ev: &Spurious,
    watch: &mut dyn Watch,
) -> ControlFlow<Stop, bool> {
    if !ev.cfg.has_arrays() {
        return Continue(false);
    }
    let r = symbolic_cells(ev.cfg, ev.trace, ev.core, &mut l.precision);
    watch.refined(&r, ev.core);
    take_refinement(l, ev, r)
}

/// Lesson 4, loops jumped over. Reads: the core of the trace with its loops' runs of
/// identical iterations jumped over, if that was infeasible too ([`Learning::jump_core`],
/// taken). The trace is spurious whatever its loops' counts: the cells that core fixes
/// are needed whatever the widening learns about the counts (a core of the trace itself
/// may blame only the counts). Adds: the cells of its reads, else of its writes; if it
/// fixes no new one, the contents of the large arrays it reads, not the counts, make the
/// trace infeasible: they get a symbolic cell, as from a trace's own core.
pub fn loops_jumped_over(
    l: &mut Learning,
    ev: &Spurious,
    watch: &mut dyn Watch,
) -> ControlFlow<Stop, bool> {
    let Some((core, reads, writes)) = l.jump_core.take() else {
        return Continue(false);
    };
    let cfg = ev.cfg;
    let r = (!l.at_max())
        .then(|| {
            let p = &mut l.precision;
            add_cells(cfg, reads, p)
                .or_else(|| add_cells(cfg, writes, p))
                .or_else(|| add_symbolic(cfg, ev.trace, &core, p))
        })
        .flatten();
    match r {
        Some(r) => {
            watch.enter_refine();
            watch.refined(&r, &core);
            take_refinement(l, ev, r)
        }
        None => Continue(false),
    }
}

/// Lesson 5, cells at index terms. Reads: the trace's checks that compare reads at
/// index terms linear in one variable ([`super::add_term_cells`]). Adds: cells at the
/// terms of the ghost that relate two accesses of a node of the trace.
pub fn index_term_cells(l: &mut Learning, ev: &Spurious, watch: &mut dyn Watch) -> bool {
    learn_term_cells(l, ev, watch, super::add_term_cells)
}

/// The cells at index terms that `add` finds in the trace of `ev`, added to the precision
/// and told to `watch`; whether there were any. Not past the refinements' budget.
fn learn_term_cells(
    l: &mut Learning,
    ev: &Spurious,
    watch: &mut dyn Watch,
    add: fn(&Cfg, &Trace, &mut Precision) -> Vec<(ArrayId, crate::sema::IndexTerm)>,
) -> bool {
    if l.at_max() {
        return false;
    }
    let cfg = ev.cfg;
    let new = add(cfg, ev.trace, &mut l.precision);
    if new.is_empty() {
        return false;
    }
    let names: Vec<String> = new
        .iter()
        .map(|(a, t)| crate::abstraction::term_cell_name(cfg, *a, t))
        .collect();
    tracing::debug!("refinement: cells at index terms {}", names.join(", "));
    watch.term_cells(&names);
    l.progress.refinements += 1;
    true
}

/// Lesson 6, exact loops. Reads: a trace of the adaptive tabulation through facts it
/// widened where their chains diverged, in an abstraction without a ghost. Adds: those
/// points stay exact from now on (the loops are unrolled, within the adaptive
/// tabulation's budget; past it, every later tabulation widens everywhere and learns
/// where and how). With symbolic cells the property is ∀-shaped: unrolling cannot prove
/// it faster than the loop's bound, and the widening learns partition atoms instead.
/// The first of the widening's lessons, it applies only to a trace through widened facts,
/// and first checks their budget: when the refinements of the widening are at their
/// maximum it ends the refinement with UNKNOWN, before any later lesson.
pub fn exact_loops(
    l: &mut Learning,
    ev: &Spurious,
    watch: &mut dyn Watch,
) -> ControlFlow<Stop, bool> {
    if !ev.widened() {
        return Continue(false);
    }
    if l.progress.widening_refinements >= l.max_refinements {
        return Break(Stop::Budget(format!(
            "refinements of the widening ({})",
            l.max_refinements
        )));
    }
    if !ev.adaptive || !ev.phat.ghosts().is_empty() {
        return Continue(false);
    }
    let (tab, err) = (ev.tab, ev.err);
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
        .filter(|n| l.widening.exact_at.insert(*n))
        .collect();
    if new.is_empty() {
        return Continue(false);
    }
    watch.unrolled(&new);
    l.progress.widening_refinements += 1;
    Continue(true)
}

/// Lesson 7, a second ghost. Reads: the precision, for symbolic cells with one ghost,
/// and the program, for a statement that compares two cells. One ghost keeps failing
/// (the trace fixes no cell): adds a second ghost that relates two cells. Where the
/// program compares two cells of an array with one symbolic cell, it comes before any
/// lesson of the widening: one ghost cannot relate the two cells, and the lessons
/// learnt for it (each a tabulation) are dropped with the second ghost anyway; so after
/// a trace through widened facts, it also drops the widening's disjunct bounds and its
/// learnt thresholds and partition atoms.
pub fn second_ghost(l: &mut Learning, ev: &Spurious, watch: &mut dyn Watch) -> bool {
    if l.precision.symbolic().next().is_none()
        || l.precision.has_second_ghost()
        || !reads_two_cells(ev.cfg, &l.precision)
    {
        return false;
    }
    l.precision.add_second_ghost();
    l.progress.refinements += 1;
    l.progress.ghosts = Some(2);
    watch.second_ghost();
    if ev.widened() {
        l.widening.disjunct_bounds.clear();
        l.widening.disjunctive.clear();
        l.learnt = Learnt::default();
    }
    true
}

/// Lesson 8, the widening. Reads: a trace through widened facts, its tabulation and
/// the pre-image of its suffix ([`refine_widening`]). Adds: thresholds, partition atoms
/// at the widening point, longer delays, more disjuncts.
pub fn the_widening(l: &mut Learning, ev: &Spurious, watch: &mut dyn Watch) -> bool {
    if !ev.widened() {
        return false;
    }
    watch.enter_refine_widening();
    let lesson = refine_widening(
        ev.phat,
        ev.tab,
        ev.err,
        &mut l.widening,
        &mut l.learnt,
        ev.solvers,
        ev.deadline,
    );
    watch.widening_refined(ev.phat, &lesson, &l.learnt);
    if lesson.is_progress() {
        l.progress.widening_refinements += 1;
        return true;
    }
    false
}

/// Lesson 9, guards the widening lost. Reads: a trace through widened facts (after the
/// widening learnt nothing more from it), for a fact at a bounds guard P̂ skipped with a
/// state the guard would drop (an index out of range). Adds: P̂ keeps the guards from
/// now on (C leaves an access out of bounds undefined, so no run passes one, and the
/// guard bounds the index where the widened fact does not: a search `while (a[i] != 0)
/// i++` ends below the array's size). Tried before the widening's lessons, the guards
/// cost proofs that those lessons find (`lp-programs/check_loops/first_match_for.c`).
pub fn guards_the_widening_lost(l: &mut Learning, ev: &Spurious) -> bool {
    if !ev.widened() {
        return false;
    }
    let (cfg, phat, tab) = (ev.cfg, ev.phat, ev.tab);
    let cuts = || {
        tab.path_facts(ev.err).iter().any(|f| {
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
    !l.precision.keeps_bounds_guards()
        && !cfg.bounds_guards.is_empty()
        && cuts()
        && bring_back_guards(l, "they cut the widened trace")
}

/// Lesson 10, live variables. Reads: the core's reads, whose values came from partners
/// of other runs told apart by a variable the facts forgot ([`stale_partner_vars`]).
/// Adds: that variable is kept where a read is instantiated.
pub fn live_variables(l: &mut Learning, ev: &Spurious, watch: &mut dyn Watch) -> bool {
    let phat = ev.phat;
    let new = stale_partner_vars(phat, ev.trace, ev.core, &l.keep_live);
    if new.is_empty() {
        return false;
    }
    let names: Vec<String> = new.iter().map(|v| phat.vars[*v].name.clone()).collect();
    tracing::debug!(
        "refinement: keep {} where an instantiated read follows",
        names.join(", ")
    );
    watch.kept_live(&names);
    l.keep_live.extend(new);
    l.progress.refinements += 1;
    true
}

/// Lesson 11, cells at a copy's index terms. Reads: the trace's copies between arrays
/// with a symbolic cell at index terms linear in one variable, `a[i] = b[i+1]`
/// ([`super::add_copy_term_cells`]). The tests' terms put the ghost where the check
/// reads, and a copy read at another term of it comes from a partner of another run.
/// Adds: the cell at the copy's read term of the ghost placed at its write (`b[k+1]`).
pub fn copy_term_cells(l: &mut Learning, ev: &Spurious, watch: &mut dyn Watch) -> bool {
    learn_term_cells(l, ev, watch, super::add_copy_term_cells)
}

/// Lesson 12, congruences. Reads: nothing but P̂, for a test of a residue (then the
/// facts carry congruences already). Nothing else to refine: adds congruences to the
/// facts from now on (a trace may be infeasible by parity alone).
pub fn congruences(l: &mut Learning, ev: &Spurious) -> bool {
    if l.congruences || tests_residue(ev.phat) {
        return false;
    }
    tracing::debug!("refinement: the facts carry congruences from now on");
    l.congruences = true;
    l.progress.refinements += 1;
    true
}

/// Lesson 13, small arrays' symbolic cells. Reads: the core's reads of small arrays at
/// indices it does not fix ([`super::add_symbolic_small`]). Nothing else made progress:
/// adds a symbolic cell for each such array too.
pub fn small_arrays_symbolic_cells(
    l: &mut Learning,
    ev: &Spurious,
    watch: &mut dyn Watch,
) -> ControlFlow<Stop, bool> {
    if l.at_max() {
        return Continue(false);
    }
    match super::add_symbolic_small(ev.cfg, ev.trace, ev.core, &mut l.precision) {
        Some(r) => {
            watch.enter_refine();
            watch.refined(&r, ev.core);
            take_refinement(l, ev, r)
        }
        None => Continue(false),
    }
}

/// P̂ keeps the bounds guards from now on, unless it did already or the refinements are
/// at their maximum; whether it did not before.
fn bring_back_guards(l: &mut Learning, why: &str) -> bool {
    if l.precision.keeps_bounds_guards() || l.at_max() {
        return false;
    }
    tracing::debug!("refinement: P̂ keeps the bounds guards from now on ({why})");
    l.precision.keep_bounds_guards();
    l.progress.refinements += 1;
    true
}

/// Take a cell refinement into the precision's bookkeeping: whether it was one; UNKNOWN
/// past the deadline or if the solver failed.
fn take_refinement(l: &mut Learning, ev: &Spurious, r: Refinement) -> ControlFlow<Stop, bool> {
    let cfg = ev.cfg;
    if let Err(e) = ev.deadline.check() {
        return Break(Stop::Exhausted(e));
    }
    match r {
        Refinement::NewCells(_) => l.progress.cells = l.precision.by_name(cfg),
        Refinement::NewSymbolic(_) => {
            l.progress.symbolic = l.precision.symbolic_by_name(cfg);
            // The partition atoms were learnt from the spurious traces of an abstraction
            // in which the array had no symbolic cell: they separate states by what that
            // abstraction lost (its constant cells, the iteration counts of loops it read
            // through), and they fill the places the atoms over the new cell need. The
            // refinement learns those the new abstraction needs, as after a second ghost;
            // so with the disjunct bounds raised for it. (Thresholds stay: a widening
            // keeps one only where both operands satisfy it; so do delays.)
            l.learnt.splits.clear();
            l.learnt.saturated.clear();
            l.widening.disjunct_bounds.clear();
            l.widening.disjunctive.clear();
        }
        Refinement::NoProgress => return Continue(false),
        Refinement::Failed(why) => return Break(Stop::SolverUnknown(why)),
    }
    l.progress.refinements += 1;
    Continue(true)
}

/// Whether some expression of `phat` takes a residue or a quotient (`%`, `/` by a
/// constant): only then do the facts carry congruences (unless refinement asks for them).
pub fn tests_residue(phat: &Cfg) -> bool {
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
