//! The path engine: every path up to the bound explored one by one (depth first over the
//! branches, one solver level per branch), the encoder folding what the path fixes.

use super::wto::Wto;
use super::{confirm, BmcReport, Explored};
use crate::cfg::{Cfg, NodeKind, ERROR_NODE};
use crate::frontend::Loaded;
use crate::ids::{NodeId, ProcId};
use crate::limits::Deadline;
use crate::report::{node_lines, Engine, GiveUp, Outcome, Proof};
use crate::smt::{SatResult, SmtBackend, SmtError, SolverFactory, Term};
use crate::trace::{Fail, PathEncoder, Trace};
use std::collections::{HashMap, HashSet};
/// The explorer's own part of a call frame (the encoder keeps the values).
#[derive(Clone)]
struct Frame {
    ret_point: NodeId,
    /// Visits of each node in this activation (what the accelerated alternatives read).
    visits: HashMap<NodeId, u32>,
    /// Visits of each loop head in the current entry into its loop: the bound.
    entries: HashMap<NodeId, u32>,
    /// The node this activation stepped from last.
    prev: Option<NodeId>,
    /// The accelerated alternatives (their `$n >= 1` branches) this frame has taken.
    accelerated: Vec<NodeId>,
    /// The last one taken: its head's first count node and that node's visit.
    last_accel: Option<(NodeId, u32)>,
    /// After an accelerated alternative: its branch, and how many nodes of its loop path
    /// the path has followed since (see [`Explorer::repeats_alternative`]).
    follow: Option<(NodeId, usize)>,
}

#[derive(Clone)]
struct State<'a> {
    node: NodeId,
    enc: PathEncoder<'a>,
    frames: Vec<Frame>,
    /// Length of the shared path when this state was created (its node not included).
    path_len: usize,
}

/// A state waiting to be explored, with the guard of its edge and the solver level of
/// its parent.
struct Pending<'a> {
    state: State<'a>,
    guard: Option<Term>,
    level: usize,
}

struct Explorer<'a, 's> {
    cfg: &'a Cfg,
    /// The branches `$n >= 1` that enter an accelerated loop path (see `crate::accel`),
    /// each with the first count node of its loop head's chain and the loop path.
    count_branches: HashMap<NodeId, (NodeId, &'a [NodeId])>,
    /// Those of transitions that jump over checks untested: never taken. The unrolling
    /// tests every check anyway, so a jump proves nothing and finds no error it does not,
    /// and offered at each arrival it doubles the paths.
    skip_branches: HashSet<NodeId>,
    /// The weak topological order of each procedure: its loops, by their heads.
    wtos: HashMap<ProcId, Wto>,
    smt: &'s mut dyn SmtBackend,
    level: usize,
    k: u32,
}

/// What happened to one pending state.
// One value per explored path, moved once: a box would buy nothing.
#[allow(clippy::large_enum_variant)]
pub(super) enum Step {
    Continue,
    Bound(String),
    Done(Outcome),
}

impl From<Fail> for Step {
    fn from(f: Fail) -> Step {
        Step::Done(Outcome::Unknown(match f {
            Fail::Smt(e) => GiveUp::SolverUnknown(format!("SMT error: {e}")),
            Fail::Trace(e) => GiveUp::Internal(format!("bmc encoding: {e}")),
        }))
    }
}

impl From<SmtError> for Step {
    fn from(e: SmtError) -> Step {
        Step::from(Fail::Smt(e))
    }
}

/// Explore every path within bound `k` with `smt` (left at the level it came with).
pub(super) fn explore(
    loaded: &Loaded,
    k: u32,
    smt: &mut dyn SmtBackend,
    solvers: &dyn SolverFactory,
    deadline: &Deadline,
    report: &mut BmcReport,
    budget: Option<u64>,
) -> Explored {
    let mut ex = Explorer {
        cfg: &loaded.cfg,
        count_branches: count_branches(&loaded.cfg),
        skip_branches: loaded
            .cfg
            .accel
            .iter()
            .filter(|(_, a)| a.skips)
            .filter_map(|(c, _)| match loaded.cfg.nodes[*c].kind {
                NodeKind::Assign { next, .. } => Some(next),
                _ => None,
            })
            .collect(),
        wtos: loaded
            .cfg
            .procs
            .iter_enumerated()
            .map(|(p, pr)| (p, Wto::new(&loaded.cfg, pr.entry)))
            .collect(),
        smt,
        level: 0,
        k,
    };
    let res = explore_with(&mut ex, loaded, solvers, deadline, report, budget);
    if let Err(e) = ex.set_level(0) {
        return Explored::Done(Outcome::Unknown(GiveUp::SolverUnknown(format!(
            "SMT error: {e}"
        ))));
    }
    res
}

fn explore_with<'a>(
    ex: &mut Explorer<'a, '_>,
    loaded: &'a Loaded,
    solvers: &dyn SolverFactory,
    deadline: &Deadline,
    report: &mut BmcReport,
    budget: Option<u64>,
) -> Explored {
    let cfg = &loaded.cfg;
    let paths_before = report.paths;
    let k = ex.k;
    let Some(main) = cfg.procs.get(cfg.main) else {
        return Explored::Done(Outcome::Unknown(GiveUp::Internal(
            "the program has no main".into(),
        )));
    };
    let enc = PathEncoder::new(cfg, false);
    // The forks of the first encoder share its record of the overflows assumed.
    let first = enc.clone();
    let init = State {
        node: main.entry,
        enc,
        frames: vec![Frame {
            ret_point: ERROR_NODE,
            visits: HashMap::new(),
            entries: HashMap::new(),
            prev: None,
            accelerated: Vec::new(),
            last_accel: None,
            follow: None,
        }],
        path_len: 0,
    };
    let mut work = vec![Pending {
        state: init,
        guard: None,
        level: 0,
    }];
    let mut path: Vec<NodeId> = Vec::new();
    let mut bound_hit: Option<String> = None;
    while let Some(p) = work.pop() {
        if let Err(e) = deadline.check() {
            return Explored::Done(Outcome::Unknown(GiveUp::exhausted(e)));
        }
        if budget.is_some_and(|b| report.paths - paths_before > b) {
            return Explored::TooMany;
        }
        match ex.run_pending(p, &mut path, &mut work, report, loaded, solvers, deadline) {
            Step::Continue => {}
            Step::Bound(why) => {
                report.paths += 1;
                bound_hit.get_or_insert(why);
            }
            Step::Done(o) => {
                report.paths += 1;
                return Explored::Done(o);
            }
        }
    }
    if let Some(why) = bound_hit {
        return Explored::Bound(format!("unwinding bound {k} reached: {why}"));
    }
    let assumed = first.assumed_no_overflow();
    Explored::Done(Outcome::Safe(Proof {
        engine: Engine::Bmc,
        abstraction: None,
        cells: Default::default(),
        symbolic: Vec::new(),
        two_ghosts: false,
        term_cells: Vec::new(),
        bound: Some(k),
        paths: Some(report.paths),
        invariants: Default::default(),
        // Every path that needed a signed result to fit (it was no literal in range).
        assumed_no_overflow: node_lines(loaded, assumed),
        // Every path that needed an access in bounds (its guard was no literal `true`).
        assumed_in_bounds: node_lines(loaded, first.assumed_in_bounds()),
        certificate: None,
    }))
}

impl<'a> Explorer<'a, '_> {
    /// The bound at `n`, stepped into by `frame`'s activation: a loop head is entered at
    /// most `K + 1` times per entry into its loop (`K` iterations and the exit test; the
    /// count restarts when control enters the loop from outside, as CBMC unwinds). Every
    /// cycle passes a loop head of the weak topological order, so this bounds every path.
    /// A node outside the order (none is, from the procedure's entry) is bounded per
    /// activation instead. Why, when the bound is hit.
    fn bound(&self, frame: &mut Frame, n: NodeId, loaded: &Loaded) -> Option<String> {
        let cfg = self.cfg;
        let limit = self.k.saturating_add(1);
        let line = || loaded.file.line_col(cfg.nodes[n].span.start).line;
        let wto = cfg.nodes[n].proc.and_then(|p| self.wtos.get(&p));
        let Some(loops) = wto.and_then(|w| w.loops.get(&n)) else {
            return (frame.visits.get(&n).copied().unwrap_or(0) > limit).then(|| {
                format!(
                    "a feasible path executes the statement at line {} more than {limit} times",
                    line()
                )
            });
        };
        // The loops entered by this step (from outside them): their counts restart.
        let before = frame
            .prev
            .and_then(|p| wto.and_then(|w| w.loops.get(&p)))
            .map_or(&[][..], |v| v.as_slice());
        for h in loops.iter().filter(|h| !before.contains(h)) {
            frame.entries.remove(h);
        }
        frame.prev = Some(n);
        if loops.last() != Some(&n) {
            return None;
        }
        let c = frame.entries.entry(n).or_insert(0);
        *c += 1;
        (*c > limit).then(|| {
            format!(
                "a feasible path enters the loop at line {} more than {limit} times",
                line()
            )
        })
    }

    /// Whether stepping into `n` completes one more iteration of the loop path the frame
    /// has just accelerated. Such a path is dropped: the closure is exact and its guard
    /// convex, so the same state is reached by the alternative with one more iteration.
    fn repeats_alternative(&self, frame: &mut Frame, n: NodeId) -> bool {
        let Some((b, i)) = frame.follow else {
            return false;
        };
        let Some((start, path)) = self.count_branches.get(&b) else {
            return false;
        };
        if i == path.len() && n == *start {
            return true;
        }
        frame.follow = match path.get(i) {
            Some(m) if *m == n => Some((b, i + 1)),
            // The alternative's own assume and assignment, before the loop's head.
            _ if i == 0 => Some((b, 0)),
            _ => None,
        };
        false
    }

    fn set_level(&mut self, level: usize) -> Result<(), SmtError> {
        while self.level > level {
            self.smt.pop()?;
            self.level -= 1;
        }
        Ok(())
    }

    /// Check the path so far: `Some(step)` ends the path (pruned, or no answer).
    fn feasible(&mut self, report: &mut BmcReport) -> Result<Option<Step>, SmtError> {
        report.smt_checks += 1;
        Ok(match self.smt.check()? {
            SatResult::Sat => None,
            SatResult::Unsat => {
                report.paths += 1;
                Some(Step::Continue)
            }
            SatResult::Unknown(r) => Some(Step::Done(Outcome::Unknown(GiveUp::SolverUnknown(
                format!("on a path prefix ({r})"),
            )))),
        })
    }

    /// Assert the encoder's new auxiliary definitions and the step's constraints.
    /// Returns `false` if a constraint is the literal `false` (the path is infeasible)
    /// and whether a non-literal constraint was asserted.
    fn assert_step(&mut self, enc: &mut PathEncoder<'a>) -> Result<(bool, bool), SmtError> {
        let cs = enc.end_step();
        for a in enc.take_aux() {
            self.smt.assert(&a)?;
        }
        let mut open = false;
        for c in cs {
            match c {
                Term::Bool(true) => {}
                Term::Bool(false) => return Ok((false, open)),
                c => {
                    self.smt.assert(&c)?;
                    // `assume(x == 7777)` fixes `x` for the rest of the path.
                    enc.learn(&c);
                    open = true;
                }
            }
        }
        Ok((true, open))
    }

    #[allow(clippy::too_many_arguments)]
    fn run_pending(
        &mut self,
        p: Pending<'a>,
        path: &mut Vec<NodeId>,
        work: &mut Vec<Pending<'a>>,
        report: &mut BmcReport,
        loaded: &Loaded,
        solvers: &dyn SolverFactory,
        deadline: &Deadline,
    ) -> Step {
        match self.run(p, path, work, report, loaded, solvers, deadline) {
            Ok(s) => s,
            Err(f) => Step::from(f),
        }
    }

    #[allow(clippy::too_many_arguments)]
    fn run(
        &mut self,
        p: Pending<'a>,
        path: &mut Vec<NodeId>,
        work: &mut Vec<Pending<'a>>,
        report: &mut BmcReport,
        loaded: &Loaded,
        solvers: &dyn SolverFactory,
        deadline: &Deadline,
    ) -> Result<Step, Fail> {
        self.set_level(p.level)?;
        self.smt.push()?;
        self.level += 1;
        let mut st = p.state;
        path.truncate(st.path_len);
        if let Some(g) = &p.guard {
            self.smt.assert(g)?;
            if let Some(s) = self.feasible(report)? {
                return Ok(s);
            }
            // An equation the guard fixes (`x == 7777`) makes later branches fold.
            st.enc.learn(g);
        }
        let cfg = self.cfg;
        loop {
            let n = st.node;
            if n == ERROR_NODE {
                return Ok(self.error_path(path, loaded, solvers, deadline));
            }
            // The bound.
            let Some(frame) = st.frames.last_mut() else {
                return Ok(Step::Done(Outcome::Unknown(GiveUp::Internal(
                    "empty call stack".into(),
                ))));
            };
            if self.repeats_alternative(frame, n) {
                report.paths += 1;
                return Ok(Step::Continue);
            }
            *frame.visits.entry(n).or_insert(0) += 1;
            if let Some(why) = self.bound(frame, n, loaded) {
                return Ok(Step::Bound(why));
            }
            let step = path.len();
            path.push(n);
            st.enc.begin_step(step, n);
            let next = match &cfg.nodes[n].kind {
                NodeKind::Error => return Ok(self.error_path(path, loaded, solvers, deadline)),
                NodeKind::Stop => {
                    report.paths += 1;
                    return Ok(Step::Continue);
                }
                NodeKind::Branch { cond, then, els } => {
                    let (then, els) = (*then, *els);
                    let accel = self.count_branches.get(&n).map(|(s, _)| *s);
                    let c = match accel {
                        Some(_) if self.skip_branches.contains(&n) => Term::Bool(false),
                        Some(start) if !may_accelerate(st.frames.last(), n, start) => {
                            Term::Bool(false)
                        }
                        _ => st.enc.condition(&mut *self.smt, cond)?,
                    };
                    self.assert_step(&mut st.enc)?;
                    match c {
                        _ if then == els => then,
                        Term::Bool(true) => then,
                        Term::Bool(false) => els,
                        c => {
                            // Explore `then` first (pushed last).
                            let mut s_els = st.clone();
                            s_els.node = els;
                            s_els.path_len = path.len();
                            work.push(Pending {
                                state: s_els,
                                guard: Some(Term::not(c.clone())),
                                level: self.level,
                            });
                            st.node = then;
                            st.path_len = path.len();
                            if let (Some(start), Some(f)) = (accel, st.frames.last_mut()) {
                                f.accelerated.push(n);
                                let v = f.visits.get(&start).copied().unwrap_or(0);
                                f.last_accel = Some((start, v));
                                f.follow = Some((n, 0));
                            }
                            work.push(Pending {
                                state: st,
                                guard: Some(c),
                                level: self.level,
                            });
                            return Ok(Step::Continue);
                        }
                    }
                }
                NodeKind::Call {
                    proc, ret_point, ..
                } => {
                    if st.frames.len() > self.k as usize {
                        return Ok(Step::Bound(format!(
                            "a feasible path has more than {} nested calls",
                            self.k
                        )));
                    }
                    let Some(callee) = cfg.procs.get(*proc) else {
                        return Ok(Step::Done(Outcome::Unknown(GiveUp::Internal(
                            "a call of an unknown procedure".into(),
                        ))));
                    };
                    st.enc.step(&mut *self.smt, n, callee.entry)?;
                    self.assert_step(&mut st.enc)?;
                    st.frames.push(Frame {
                        ret_point: *ret_point,
                        visits: HashMap::new(),
                        entries: HashMap::new(),
                        prev: None,
                        accelerated: Vec::new(),
                        last_accel: None,
                        follow: None,
                    });
                    callee.entry
                }
                NodeKind::Exit => {
                    let f = st.frames.pop();
                    match f {
                        Some(f) if !st.frames.is_empty() => {
                            st.enc.step(&mut *self.smt, n, f.ret_point)?;
                            self.assert_step(&mut st.enc)?;
                            f.ret_point
                        }
                        _ => {
                            report.paths += 1;
                            return Ok(Step::Continue);
                        }
                    }
                }
                NodeKind::Assume { next, .. }
                | NodeKind::Skip { next }
                | NodeKind::Assign { next, .. }
                | NodeKind::ArrayWrite { next, .. }
                | NodeKind::ArrayInit { next, .. } => {
                    let next = *next;
                    st.enc.step(&mut *self.smt, n, next)?;
                    let (sat, open) = self.assert_step(&mut st.enc)?;
                    if !sat {
                        report.paths += 1;
                        return Ok(Step::Continue);
                    }
                    // Definitions are always satisfiable; an assumption may not be.
                    if open && matches!(cfg.nodes[n].kind, NodeKind::Assume { .. }) {
                        if let Some(s) = self.feasible(report)? {
                            return Ok(s);
                        }
                    }
                    next
                }
            };
            st.node = next;
            if let Err(e) = deadline.check() {
                return Ok(Step::Done(Outcome::Unknown(GiveUp::exhausted(e))));
            }
        }
    }

    /// A feasible prefix steps into the error node: confirm with the exact trace check and
    /// the interpreter.
    fn error_path(
        &mut self,
        path: &[NodeId],
        loaded: &Loaded,
        solvers: &dyn SolverFactory,
        deadline: &Deadline,
    ) -> Step {
        let tr = Trace {
            path: path.to_vec(),
        };
        match confirm(self.cfg, &tr, loaded, solvers, deadline) {
            None => Step::Continue,
            Some(o) => Step::Done(o),
        }
    }
}

/// The branches `$n >= c` that enter an accelerated loop path, each with the first count
/// node of its head's chain (where every edge into the head now arrives).
fn count_branches(cfg: &Cfg) -> HashMap<NodeId, (NodeId, &[NodeId])> {
    let mut start: HashMap<NodeId, NodeId> = HashMap::new();
    for (c, info) in &cfg.accel {
        let s = start.entry(info.head).or_insert(*c);
        *s = (*s).min(*c);
    }
    cfg.accel
        .iter()
        .filter_map(|(c, info)| match cfg.nodes.get(*c).map(|n| &n.kind) {
            Some(NodeKind::Assign { next, .. }) => {
                Some((*next, (*start.get(&info.head)?, info.path.as_slice())))
            }
            _ => None,
        })
        .filter(|(b, _)| {
            matches!(
                cfg.nodes.get(*b).map(|n| &n.kind),
                Some(NodeKind::Branch { .. })
            )
        })
        .collect()
}

/// Whether the path may take the accelerated alternative whose branch is `b` (its head's
/// chain starts at `start`): once per frame, and only on the loop's first arrival at its
/// head or right after another alternative of the same head. The closure is exact and
/// the original body stays, so every execution is still explored through concrete
/// iterations; the shortcut only reaches deep errors sooner. Offered at every unwinding
/// it would double the paths with each one.
fn may_accelerate(frame: Option<&Frame>, b: NodeId, start: NodeId) -> bool {
    let Some(f) = frame else { return false };
    let v = f.visits.get(&start).copied().unwrap_or(0);
    !f.accelerated.contains(&b) && (v <= 1 || f.last_accel == Some((start, v - 1)))
}
