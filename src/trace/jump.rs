//! Deep counterexamples from short abstract traces: the loops a spurious trace went
//! around are jumped over, any number of times, and a concrete run decides.
//!
//! An abstract error trace through a widened loop head usually goes around the loop a
//! few times, while the real error, if there is one, may need the loop to run to a
//! constant bound of 10⁶. The trace is then infeasible for a reason no refinement can
//! remove. Following Kroening, Lewis and Weissenbacher ("Under-approximating loops in C
//! programs for fast counterexample detection", CAV 2013), each run of identical simple
//! iterations of a loop in the trace (an *iteration* goes from the loop head back to it
//! through no call and no node twice) is replaced by that iteration taken `n ≥ 0` times,
//! `n` a fresh count:
//!
//! - a variable the iteration translates (`x + c`) is `x₀ + c·n` after the jump, one it
//!   resets to a value over variables the loop does not change holds that value (if
//!   `n ≥ 1`), and any other assigned variable is arbitrary;
//! - the iteration's conditions must hold at its first and its last iteration (they are
//!   tested at every iteration, so this adds states);
//! - an array the iteration writes once, at an index that moves by a constant `d` per
//!   iteration, is exact: its cell `r` after the jump is the iteration's value at the
//!   iteration `m` that wrote it (`r = idx₀ + d·m`, `0 ≤ m < n`), else its cell before the
//!   jump. This is stated for every cell the rest of the formula reads (one axiom per
//!   read index: no quantifier), the value being the iteration's value expression with
//!   the loop's variables at iteration `m`. Arrays written in another way are arbitrary.
//!
//! The resulting formula may have models that no run has (it drops checks inside the
//! loop and the effects of variables it cannot follow), so a model is only a guess: the
//! interpreter runs the program with the model's inputs (the count jumps shift the steps
//! at which the inputs after a loop are asked for), and only a run that reaches an
//! error location, recorded and replayed as any concrete find, is a counterexample.
//! The jump itself can only find, never refute: an unsatisfiable formula or a run that
//! ends elsewhere just leaves the trace to the refinement.

use super::encode::{cmp_term, PathEncoder};
use super::{read_model, recorded_run, replay, Trace, Witness};
use crate::cfg::{Cfg, NodeKind, ERROR_NODE};
use crate::ids::{ArrayId, NodeId, VarId};
use crate::interp::Limits;
use crate::limits::Deadline;
use crate::sema::Expr;
use crate::smt::{
    Logic, SatResult, SmtBackend, SmtConfig, SolverFactory, Sort, SymId, Term, Value,
};
use num_bigint::BigInt;
use num_integer::Integer;
use num_traits::{One, Signed, ToPrimitive, Zero};
use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet};
use std::rc::Rc;

/// The most steps the concrete run of a jumped trace may take (a safety net against a
/// model with an astronomical count: the run's time is bounded by the deadline anyway).
const MAX_RUN_STEPS: u64 = 10_000_000;

/// A run of identical iterations in a trace: positions `start` (the loop head) to `end`
/// (the head again, where the trace leaves the run), each iteration `len` steps.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Run {
    start: usize,
    end: usize,
    len: usize,
}

/// The trace with each run of iterations taken once (the shape a jump works on): two
/// traces with the same shape give the same jump formula.
pub fn shape(cfg: &Cfg, t: &Trace) -> Option<Vec<NodeId>> {
    let runs = runs(cfg, &t.path);
    if runs.is_empty() {
        return None;
    }
    let mut out = Vec::new();
    let mut j = 0;
    for r in &runs {
        out.extend_from_slice(&t.path[j..r.start]);
        out.extend_from_slice(&t.path[r.start..r.start + r.len]);
        j = r.end;
    }
    out.extend_from_slice(&t.path[j..]);
    Some(out)
}

/// What jumping over a spurious trace's loops gave.
#[derive(Clone, Debug)]
pub enum Jumped {
    /// A run of the program that reaches an error location, replayed.
    Found(Trace, Witness),
    /// The trace with its loops jumped over is infeasible too, whatever the counts.
    Infeasible {
        /// The steps of the trace (outside its jumped iterations) of an unsat core.
        core: Vec<usize>,
        /// The cells of the reads, and of the writes, whose indices the core fixes.
        reads: Vec<(ArrayId, i64)>,
        writes: Vec<(ArrayId, i64)>,
    },
    /// Nothing: no loop to jump over, a model whose run reaches no error, or no answer.
    Nothing,
}

/// Try to turn a (spurious) trace through loops into a real counterexample by jumping
/// over its runs of iterations (see the module docs). [`Jumped::Found`] only for a run of
/// the program that reaches an error location and replays.
pub fn jump_loops(
    cfg: &Cfg,
    t: &Trace,
    solvers: &dyn SolverFactory,
    deadline: &Deadline,
) -> Jumped {
    jump(cfg, t, solvers, deadline).unwrap_or(Jumped::Nothing)
}

fn jump(cfg: &Cfg, t: &Trace, solvers: &dyn SolverFactory, deadline: &Deadline) -> Option<Jumped> {
    let runs = runs(cfg, &t.path);
    if runs.is_empty() || deadline.expired() {
        return None;
    }
    let config = SmtConfig::new(Logic::QfAlia)
        .with_models(true)
        .with_unsat_cores(true);
    let mut smt = solvers.make(config, deadline).ok()?;
    let smt = smt.as_mut();
    let r = encode(cfg, &t.path, &runs, smt)?;
    let e = r.enc.encoding();
    let mut plain = r.cs;
    plain.extend(e.aux.iter().cloned());
    let mut all = plain.clone();
    all.extend(e.steps.iter().flatten().cloned());
    let axioms = axioms(&all, &r.fills);
    for c in plain.iter().chain(&axioms) {
        smt.assert(c).ok()?;
    }
    smt.push().ok()?;
    for (i, cs) in e.steps.iter().enumerate() {
        for c in cs {
            smt.assert_labeled(super::label(i), c).ok()?;
        }
    }
    match smt.check().ok()? {
        SatResult::Sat => {}
        SatResult::Unsat => {
            let core: BTreeSet<usize> = smt
                .unsat_core()
                .ok()?
                .into_iter()
                .map(|l| l.0 as usize)
                .collect();
            smt.pop().ok()?;
            let (reads, writes) = fixed_cells(e, &core, smt)?;
            return Some(Jumped::Infeasible {
                core: core
                    .iter()
                    .filter_map(|s| r.orig.get(*s).copied())
                    .collect(),
                reads,
                writes,
            });
        }
        SatResult::Unknown(_) => return None,
    }
    let model = read_model(e, smt).ok()?;
    let mut shifts = Vec::new();
    let mut frame_shifts = Vec::new();
    for j in &r.jumps {
        let n = match smt.value(j.count).ok()? {
            Value::Int(n) => n.to_u64()?,
            _ => return None,
        };
        shifts.push((j.at, n.checked_mul(j.len as u64)?));
        frame_shifts.push((j.first_frame, n.checked_mul(j.calls as u64)?));
    }
    let extra: u64 = shifts.iter().map(|s| s.1).sum();
    let steps = (t.path.len() as u64).checked_add(extra)?;
    if steps > MAX_RUN_STEPS {
        return None;
    }
    let mut oracle = shifted(model, &shifts, &frame_shifts);
    let limits = Limits {
        max_steps: steps as usize + 1,
        max_depth: usize::MAX,
        until: deadline.instant(),
    };
    let (_, found) = recorded_run(cfg, &mut oracle, limits);
    let (trace, w) = found?;
    replay(cfg, &trace, &w).ok()?;
    Some(Jumped::Found(trace, w))
}

/// The cells of the accesses in the core's steps whose indices the core's earlier steps
/// (and the jumps) fix, reads and writes apart (as [`super::fixed_indices`] does on a
/// trace): each step's accesses are evaluated in a model, and an index is fixed if it
/// cannot differ from its value there.
type Cells = Vec<(ArrayId, i64)>;
fn fixed_cells(
    e: &super::Encoding,
    core: &BTreeSet<usize>,
    smt: &mut dyn SmtBackend,
) -> Option<(Cells, Cells)> {
    let (mut reads, mut writes) = (Vec::new(), Vec::new());
    for s in core {
        let acc = e.accesses.get(*s)?;
        if !acc.is_empty() && matches!(smt.check_assuming(&[]).ok()?, SatResult::Sat) {
            let mut cands = Vec::new();
            for a in acc {
                if let Ok(Value::Int(k)) = smt.eval(&a.index) {
                    cands.push((a, k));
                }
            }
            for (a, k) in cands {
                let other = Term::ne(a.index.clone(), Term::int(k.clone()));
                let (Some(ki), SatResult::Unsat) = (k.to_i64(), smt.check_assuming(&[other]).ok()?)
                else {
                    continue;
                };
                let out = if a.write { &mut writes } else { &mut reads };
                if !out.contains(&(a.array, ki)) {
                    out.push((a.array, ki));
                }
            }
        }
        for c in e.steps.get(*s)? {
            smt.assert(c).ok()?;
        }
    }
    Some((reads, writes))
}

/// The model's answers at the steps of the run the jumps stand for: a step after the
/// jump at relaxed step `at` comes `n·len` steps later, and a frame made after a jump
/// whose iterations call comes `n·calls` frames later.
fn shifted(
    m: super::ReplayOracle,
    shifts: &[(usize, u64)],
    frame_shifts: &[(usize, u64)],
) -> super::ReplayOracle {
    let later = |s: usize, by: &[(usize, u64)]| -> usize {
        let extra: u64 = by.iter().filter(|(at, _)| *at <= s).map(|x| x.1).sum();
        s + extra as usize
    };
    let shift = |s: usize| later(s, shifts);
    let frame = |f: usize| later(f, frame_shifts);
    let mut frames = Vec::with_capacity(m.frame_of_step.len());
    for (s, f) in m.frame_of_step.iter().enumerate() {
        for (at, n) in shifts {
            if *at == s {
                frames.extend(std::iter::repeat_n(frame(*f), *n as usize));
            }
        }
        frames.push(frame(*f));
    }
    super::ReplayOracle {
        sites: m
            .sites
            .into_iter()
            .map(|((s, n, k), v)| ((shift(s), n, k), v))
            .collect(),
        frame_of_step: frames,
        uninit: m
            .uninit
            .into_iter()
            .map(|((f, v), x)| ((f.map(frame), v), x))
            .collect(),
        arrays: m
            .arrays
            .into_iter()
            .map(|((s, a), v)| ((shift(s), a), v))
            .collect(),
        read_index: m
            .read_index
            .into_iter()
            .map(|((s, k), v)| ((shift(s), k), v))
            .collect(),
    }
}

/// The frame instance of each step (main's is 0; a call's callee gets the next number)
/// and the call depth.
fn frames(cfg: &Cfg, path: &[NodeId]) -> Vec<(usize, usize)> {
    let mut stack = vec![0usize];
    let mut next = 1;
    let mut out = Vec::with_capacity(path.len());
    for &n in path {
        out.push((*stack.last().unwrap_or(&0), stack.len()));
        match cfg.nodes.get(n).map(|x| &x.kind) {
            Some(NodeKind::Call { .. }) => {
                stack.push(next);
                next += 1;
            }
            Some(NodeKind::Exit) if stack.len() > 1 => {
                stack.pop();
            }
            _ => {}
        }
    }
    out
}

/// Whether an iteration can be jumped over: it visits no node twice (so the calls it
/// makes return within it and are not recursive), has only assignments, tests, array
/// writes, skips, calls and returns, and draws no `u` (a model of the jump cannot say
/// what each iteration draws, so the run would not follow it). The count of an inner
/// accelerated loop that the iteration does not take (its test goes on to the original
/// body) is no draw: the run, given no value for it, does not take it either.
fn simple(cfg: &Cfg, it: &[NodeId]) -> bool {
    let mut seen = BTreeSet::new();
    it.iter().enumerate().all(|(j, n)| {
        seen.insert(*n)
            && (!draws(cfg, *n) || untaken_count(cfg, it, j))
            && matches!(
                cfg.nodes.get(*n).map(|x| &x.kind),
                Some(
                    NodeKind::Skip { .. }
                        | NodeKind::Assign { .. }
                        | NodeKind::Branch { .. }
                        | NodeKind::Assume { .. }
                        | NodeKind::ArrayWrite { .. }
                        | NodeKind::Call { .. }
                        | NodeKind::Exit
                )
            )
    })
}

/// Whether `it[j]` is an accelerated loop's count whose test, next in the (cyclic)
/// iteration, leaves it for the original body or the next alternative.
fn untaken_count(cfg: &Cfg, it: &[NodeId], j: usize) -> bool {
    let at = |k: usize| it[(j + k) % it.len()];
    cfg.accel.contains_key(&it[j])
        && matches!(cfg.nodes[at(1)].kind, NodeKind::Branch { els, .. } if els == at(2))
}

/// Whether node `n` draws a `u` (or an accelerated loop's count).
fn draws(cfg: &Cfg, n: NodeId) -> bool {
    let mut found = false;
    let mut look = |e: &Expr| e.visit(&mut |x| found |= matches!(x, Expr::Undef));
    match cfg.nodes.get(n).map(|x| &x.kind) {
        Some(NodeKind::Assign { rhs, .. }) => rhs.iter().for_each(&mut look),
        Some(NodeKind::Branch { cond, .. } | NodeKind::Assume { cond, .. }) => look(cond),
        Some(NodeKind::ArrayWrite { index, value, .. }) => {
            look(index);
            look(value);
        }
        Some(NodeKind::Call { args, .. }) => args.iter().for_each(&mut look),
        _ => {}
    }
    found
}

/// The runs of identical simple iterations at loop heads, in order, not overlapping.
fn runs(cfg: &Cfg, path: &[NodeId]) -> Vec<Run> {
    let heads: BTreeSet<NodeId> = cfg
        .procs
        .indices()
        .flat_map(|p| cfg.natural_loops(p).into_iter().map(|(h, _)| h))
        .collect();
    let fid = frames(cfg, path);
    let mut visits: BTreeMap<(NodeId, usize), Vec<usize>> = BTreeMap::new();
    for (j, n) in path.iter().enumerate() {
        if heads.contains(n) {
            visits.entry((*n, fid[j].0)).or_default().push(j);
        }
    }
    let mut found = Vec::new();
    for ps in visits.values() {
        let mut i = 0;
        while i + 1 < ps.len() {
            let it = &path[ps[i]..ps[i + 1]];
            // The iteration stays in its frame or in callees of it.
            let depth = fid[ps[i]].1;
            if !(simple(cfg, it) && fid[ps[i]..ps[i + 1]].iter().all(|x| x.1 >= depth)) {
                i += 1;
                continue;
            }
            let mut k = i + 1;
            while k + 1 < ps.len() && path[ps[k]..ps[k + 1]] == *it {
                k += 1;
            }
            found.push(Run {
                start: ps[i],
                end: ps[k],
                len: it.len(),
            });
            i = k;
        }
    }
    found.sort_by_key(|r| (r.start, std::cmp::Reverse(r.end)));
    let mut out: Vec<Run> = Vec::new();
    for r in found {
        if out.last().is_none_or(|l| l.end <= r.start) {
            out.push(r);
        }
    }
    out
}

/// A jump in the relaxed formula: at relaxed step `at` (the first step after it), its
/// count symbol and iteration length.
struct Jump {
    at: usize,
    count: SymId,
    len: usize,
    /// The calls of one iteration, and the number the first frame made after the jump
    /// has in the relaxed formula.
    calls: usize,
    first_frame: usize,
}

/// The relaxed trace formula.
struct Relaxed<'a> {
    /// The encoder of the steps before, between and after the jumps.
    enc: PathEncoder<'a>,
    jumps: Vec<Jump>,
    /// The jumps' constraints.
    cs: Vec<Term>,
    /// The arrays the jumps write.
    fills: Vec<Fill<'a>>,
    /// The step of the trace each step of the encoder is.
    orig: Vec<usize>,
}

fn encode<'a>(
    cfg: &'a Cfg,
    path: &[NodeId],
    runs: &[Run],
    smt: &mut dyn SmtBackend,
) -> Option<Relaxed<'a>> {
    let mut enc = PathEncoder::new(cfg, true);
    let mut jumps = Vec::new();
    let mut cs = Vec::new();
    let mut fills = Vec::new();
    let mut orig = Vec::new();
    let mut step = 0;
    let mut j = 0;
    let mut next_run = runs.iter().peekable();
    while j < path.len() {
        if let Some(r) = next_run.next_if(|r| r.start == j) {
            let count = smt
                .declare(&format!("jump{}", jumps.len()), Sort::Int)
                .ok()?;
            let it = Iteration::new(cfg, &path[r.start..r.start + r.len], path[r.start]);
            it.jump(&mut enc, smt, count, &mut cs, &mut fills)?;
            let calls = path[r.start..r.start + r.len]
                .iter()
                .filter(|n| matches!(cfg.nodes[**n].kind, NodeKind::Call { .. }))
                .count();
            jumps.push(Jump {
                at: step,
                count,
                len: r.len,
                calls,
                first_frame: enc.frames_made(),
            });
            j = r.end;
            continue;
        }
        let n = path[j];
        orig.push(j);
        enc.begin_step(step, n);
        enc.step(smt, n, path.get(j + 1).copied().unwrap_or(ERROR_NODE))
            .ok()?;
        enc.end_step();
        step += 1;
        j += 1;
    }
    Some(Relaxed {
        enc,
        jumps,
        cs,
        fills,
        orig,
    })
}

/// A linear expression over the values of variables at the loop head.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
struct Lin {
    c: BigInt,
    terms: BTreeMap<VarId, BigInt>,
}

impl Lin {
    fn var(v: VarId) -> Lin {
        Lin {
            c: BigInt::zero(),
            terms: [(v, BigInt::one())].into(),
        }
    }
    fn add(mut self, o: &Lin, k: &BigInt) -> Lin {
        self.c += &o.c * k;
        for (v, x) in &o.terms {
            let e = self.terms.entry(*v).or_default();
            *e += x * k;
            if e.is_zero() {
                self.terms.remove(v);
            }
        }
        self
    }
    fn scale(&self, k: &BigInt) -> Lin {
        Lin::default().add(self, k)
    }
}

/// What one iteration does to an assigned variable.
#[derive(Clone, Debug)]
enum Effect {
    /// `x + c`
    Translate(BigInt),
    /// A value over variables the iteration does not assign.
    Reset(Lin),
    /// Anything else: arbitrary after a jump.
    Other,
}

/// One iteration of a loop: its nodes from the head, and what it does.
#[derive(Clone)]
struct Iteration<'c> {
    cfg: &'c Cfg,
    nodes: Vec<NodeId>,
    head: NodeId,
    effects: BTreeMap<VarId, Effect>,
    /// The arrays it writes, with the index of each write as a linear expression over
    /// the head's values (`None` if it is not one).
    writes: BTreeMap<ArrayId, Vec<Option<Lin>>>,
}

/// The values of the head's variables and arrays when a jump starts.
struct Start {
    vars: BTreeMap<VarId, Term>,
    arrays: BTreeMap<ArrayId, Term>,
}

/// The iteration's conditions and writes at one iteration.
struct At {
    conds: Vec<Term>,
    writes: Vec<(ArrayId, Option<Term>, Option<Term>)>,
}

impl<'c> Iteration<'c> {
    fn new(cfg: &'c Cfg, nodes: &[NodeId], head: NodeId) -> Iteration<'c> {
        let mut state: BTreeMap<VarId, Option<Lin>> = BTreeMap::new();
        let mut writes: BTreeMap<ArrayId, Vec<Option<Lin>>> = BTreeMap::new();
        for n in nodes {
            match &cfg.nodes[*n].kind {
                NodeKind::Assign { lhs, rhs, .. } => {
                    let vals: Vec<Option<Lin>> = rhs.iter().map(|e| lin(e, &state)).collect();
                    for (v, x) in lhs.iter().zip(vals) {
                        state.insert(*v, x);
                    }
                }
                NodeKind::ArrayWrite { array, index, .. } => {
                    writes.entry(*array).or_default().push(lin(index, &state));
                }
                NodeKind::Call { proc, args, .. } => {
                    let callee = &cfg.procs[*proc];
                    let vals: Vec<Option<Lin>> = args.iter().map(|e| lin(e, &state)).collect();
                    for v in &callee.locals {
                        state.insert(*v, None);
                    }
                    for (v, x) in callee.formals.iter().zip(vals) {
                        state.insert(*v, x);
                    }
                }
                _ => {}
            }
        }
        let assigned: BTreeSet<VarId> = state.keys().copied().collect();
        let effects = state
            .into_iter()
            .map(|(v, x)| {
                let e = match x {
                    Some(l)
                        if l.terms.len() == 1 && l.terms.get(&v).is_some_and(|c| c.is_one()) =>
                    {
                        Effect::Translate(l.c)
                    }
                    Some(l) if l.terms.keys().all(|w| !assigned.contains(w)) => Effect::Reset(l),
                    _ => Effect::Other,
                };
                (v, e)
            })
            .collect();
        Iteration {
            cfg,
            nodes: nodes.to_vec(),
            head,
            effects,
            writes,
        }
    }

    /// The value of variable `v` at the head of iteration `m` (0-based).
    fn at_head(&self, st: &Start, v: VarId, m: &Term) -> Option<Term> {
        let x0 = st.vars.get(&v)?.clone();
        match self.effects.get(&v) {
            None => Some(x0),
            Some(Effect::Translate(c)) => {
                Some(Term::sum([x0, Term::scale_int(c.clone(), m.clone())]))
            }
            Some(Effect::Reset(l)) => Some(Term::ite(
                Term::eq(m.clone(), Term::int(0)),
                x0,
                lin_term(l, st)?,
            )),
            Some(Effect::Other) => (*m == Term::int(0)).then_some(x0),
        }
    }

    /// The conditions and writes of iteration `m`.
    fn at(&self, st: &Start, m: &Term) -> At {
        let mut vars: BTreeMap<VarId, Option<Term>> = BTreeMap::new();
        let mut out = At {
            conds: Vec::new(),
            writes: Vec::new(),
        };
        for (i, n) in self.nodes.iter().enumerate() {
            let succ = self.nodes.get(i + 1).copied().unwrap_or(self.head);
            let ev = Eval {
                it: self,
                st,
                m,
                vars: &vars,
            };
            match &self.cfg.nodes[*n].kind {
                NodeKind::Assign { lhs, rhs, .. } => {
                    let vals: Vec<Option<Term>> = rhs.iter().map(|e| ev.int(e)).collect();
                    for (v, x) in lhs.iter().zip(vals) {
                        vars.insert(*v, x);
                    }
                }
                NodeKind::Branch { cond, then, els } if then != els => {
                    if let Some(b) = ev.boolean(cond) {
                        out.conds.push(if succ == *then { b } else { Term::not(b) });
                    }
                }
                NodeKind::Assume { cond, .. } => out.conds.extend(ev.boolean(cond)),
                NodeKind::ArrayWrite {
                    array,
                    index,
                    value,
                    ..
                } => out.writes.push((*array, ev.int(index), ev.int(value))),
                NodeKind::Call { proc, args, .. } => {
                    // The callee's locals start uninitialised, its formals bound.
                    let callee = &self.cfg.procs[*proc];
                    let vals: Vec<Option<Term>> = args.iter().map(|e| ev.int(e)).collect();
                    for v in &callee.locals {
                        vars.insert(*v, None);
                    }
                    for (v, x) in callee.formals.iter().zip(vals) {
                        vars.insert(*v, x);
                    }
                }
                _ => {}
            }
        }
        out
    }

    /// Jump over `count` iterations in the encoder's state; the constraints go to `cs`,
    /// the written arrays to `fills`.
    fn jump(
        &self,
        enc: &mut PathEncoder<'_>,
        smt: &mut dyn SmtBackend,
        count: SymId,
        cs: &mut Vec<Term>,
        fills: &mut Vec<Fill<'c>>,
    ) -> Option<()> {
        let mut vars = BTreeSet::new();
        let mut arrays = BTreeSet::new();
        for n in &self.nodes {
            let mut exprs: Vec<&Expr> = Vec::new();
            match &self.cfg.nodes[*n].kind {
                NodeKind::Assign { lhs, rhs, .. } => {
                    vars.extend(lhs.iter().copied());
                    exprs.extend(rhs);
                }
                NodeKind::Call { proc, args, .. } => {
                    let callee = &self.cfg.procs[*proc];
                    vars.extend(callee.formals.iter().chain(&callee.locals).copied());
                    exprs.extend(args);
                }
                NodeKind::Branch { cond, .. } | NodeKind::Assume { cond, .. } => exprs.push(cond),
                NodeKind::ArrayWrite {
                    array,
                    index,
                    value,
                    ..
                } => {
                    arrays.insert(*array);
                    exprs.extend([index, value]);
                }
                _ => {}
            }
            for e in exprs {
                e.uses(&mut vars, &mut arrays);
            }
        }
        let mut st = Start {
            vars: BTreeMap::new(),
            arrays: BTreeMap::new(),
        };
        // The callees' variables get their values in the iteration (formals) or none
        // (locals): only the loop's own and global ones have a value at the head.
        let proc = self.cfg.nodes[self.head].proc;
        let own = |v: &VarId| {
            self.cfg.vars[*v]
                .kind
                .proc()
                .is_none_or(|p| Some(p) == proc)
        };
        for v in vars.into_iter().filter(own) {
            st.vars.insert(v, enc.value_of(smt, v).ok()?);
        }
        for a in arrays {
            st.arrays.insert(a, enc.array_value(smt, a).ok()?);
        }
        // The iteration and its start, shared by the exact arrays' axioms.
        let jump = Rc::new((self.clone(), st));
        let st = &jump.1;
        let n = Term::sym(count);
        let some = Term::ge(n.clone(), Term::int(1));
        cs.push(Term::ge(n.clone(), Term::int(0)));
        let first = self.at(st, &Term::int(0));
        let last = self.at(st, &Term::sum([n.clone(), Term::int(-1)]));
        for c in first.conds.into_iter().chain(last.conds) {
            cs.push(Term::implies(some.clone(), c));
        }
        for (a, idx) in &self.writes {
            let h = smt
                .declare(
                    &format!("{}#jump", self.cfg.arrays[*a].name),
                    Sort::IntArray,
                )
                .ok()?;
            let exact = self.disjoint_stride(idx).and_then(|d| {
                let writes = first
                    .writes
                    .iter()
                    .enumerate()
                    .filter(|(_, x)| x.0 == *a)
                    .map(|(w, x)| Some((w, x.1.clone()?)))
                    .collect::<Option<Vec<_>>>()?;
                Some((writes, d))
            });
            fills.push(Fill {
                h,
                base: st.arrays.get(a)?.clone(),
                count: n.clone(),
                exact: exact.map(|(writes, d)| Exact {
                    writes,
                    d,
                    jump: Rc::clone(&jump),
                }),
            });
            enc.replace_array(smt, *a, Term::sym(h)).ok()?;
        }
        for (v, e) in self.effects.iter().filter(|(v, _)| own(v)) {
            let x0 = st.vars.get(v)?.clone();
            let t = match e {
                Effect::Translate(c) => Term::sum([x0, Term::scale_int(c.clone(), n.clone())]),
                Effect::Reset(l) => {
                    Term::ite(Term::eq(n.clone(), Term::int(0)), x0, lin_term(l, st)?)
                }
                Effect::Other => {
                    let s = smt
                        .declare(&format!("{}#jump", self.cfg.var_name(*v)), Sort::Int)
                        .ok()?;
                    Term::ite(Term::eq(n.clone(), Term::int(0)), x0, Term::sym(s))
                }
            };
            enc.assign(*v, t);
        }
        Some(())
    }

    /// The stride `d` the indices `idx` of an iteration's writes to one array move by,
    /// when each write hits a cell at most once and no cell is hit by two writes: one
    /// write, or several with the same stride `d ≠ 0` whose indices differ by constants
    /// distinct modulo `d` (`c[2i]` and `c[2i+1]`), so that every cell the jump writes
    /// has one write and one iteration that wrote it.
    fn disjoint_stride(&self, idx: &[Option<Lin>]) -> Option<BigInt> {
        let first = idx.first()?.as_ref()?;
        let d = self.stride(first)?;
        if idx.len() == 1 {
            return Some(d);
        }
        if d.is_zero() {
            return None;
        }
        let mut residues = BTreeSet::new();
        for l in idx {
            let l = l.as_ref()?;
            let diff = l.clone().add(first, &-BigInt::one());
            if !diff.terms.is_empty() || self.stride(l)? != d {
                return None;
            }
            if !residues.insert(diff.c.mod_floor(&d.abs())) {
                return None;
            }
        }
        Some(d)
    }

    /// How much an index moves per iteration, if only translated and unchanged
    /// variables occur in it.
    fn stride(&self, l: &Lin) -> Option<BigInt> {
        let mut d = BigInt::zero();
        for (v, k) in &l.terms {
            match self.effects.get(v) {
                None => {}
                Some(Effect::Translate(c)) => d += k * c,
                Some(_) => return None,
            }
        }
        Some(d)
    }
}

/// The terms of an iteration's expressions at iteration `m`.
struct Eval<'e, 'c> {
    it: &'e Iteration<'c>,
    st: &'e Start,
    m: &'e Term,
    vars: &'e BTreeMap<VarId, Option<Term>>,
}

impl Eval<'_, '_> {
    fn var(&self, v: VarId) -> Option<Term> {
        match self.vars.get(&v) {
            Some(x) => x.clone(),
            None => self.it.at_head(self.st, v, self.m),
        }
    }

    fn int(&self, e: &Expr) -> Option<Term> {
        Some(match e {
            Expr::Const(c) => Term::int(c.clone()),
            Expr::Var(v) => self.var(*v)?,
            Expr::Add(a, b) => Term::sum([self.int(a)?, self.int(b)?]),
            Expr::Sub(a, b) => Term::sum([self.int(a)?, Term::scale_int(-1, self.int(b)?)]),
            Expr::Scale(c, a) => Term::scale_int(c.clone(), self.int(a)?),
            Expr::Cmp(..) | Expr::Not(_) | Expr::And(..) | Expr::Or(..) => {
                Term::ite(self.boolean(e)?, Term::int(1), Term::int(0))
            }
            Expr::Cond(c, a, b) => Term::ite(self.boolean(c)?, self.int(a)?, self.int(b)?),
            // An array the iteration writes changes under it; one it only reads does not.
            Expr::Read(a, i) if !self.it.writes.contains_key(a) => {
                Term::select(self.st.arrays.get(a)?.clone(), self.int(i)?)
            }
            // The value as if it fits (the run decides).
            Expr::Wrap(_, a) | Expr::Overflow(_, a) => self.int(a)?,
            _ => return None,
        })
    }

    fn boolean(&self, e: &Expr) -> Option<Term> {
        Some(match e {
            Expr::Cmp(op, a, b) => cmp_term(*op, self.int(a)?, self.int(b)?),
            Expr::Not(a) => Term::not(self.boolean(a)?),
            Expr::And(a, b) => Term::and([self.boolean(a)?, self.boolean(b)?]),
            Expr::Or(a, b) => Term::or([self.boolean(a)?, self.boolean(b)?]),
            _ => Term::ne(self.int(e)?, Term::int(0)),
        })
    }
}

fn lin(e: &Expr, state: &BTreeMap<VarId, Option<Lin>>) -> Option<Lin> {
    Some(match e {
        Expr::Const(c) => Lin {
            c: c.clone(),
            terms: BTreeMap::new(),
        },
        Expr::Var(v) => match state.get(v) {
            Some(x) => x.clone()?,
            None => Lin::var(*v),
        },
        Expr::Add(a, b) => lin(a, state)?.add(&lin(b, state)?, &BigInt::one()),
        Expr::Sub(a, b) => lin(a, state)?.add(&lin(b, state)?, &-BigInt::one()),
        Expr::Scale(c, a) => lin(a, state)?.scale(c),
        Expr::Wrap(_, a) | Expr::Overflow(_, a) => lin(a, state)?,
        _ => return None,
    })
}

fn lin_term(l: &Lin, st: &Start) -> Option<Term> {
    let mut ts = vec![Term::int(l.c.clone())];
    for (v, k) in &l.terms {
        ts.push(Term::scale_int(k.clone(), st.vars.get(v)?.clone()));
    }
    Some(Term::sum(ts))
}

/// An array after a jump: symbol `h`, equal to `base` except at the cells the jumped
/// iterations wrote, which `exact` describes (if it can).
struct Fill<'c> {
    h: SymId,
    base: Term,
    count: Term,
    exact: Option<Exact<'c>>,
}

/// The writes of an iteration to one array, each at `idx₀ + d·m` at iteration `m` (the
/// `w`-th write of the iteration, with its `idx₀`), no two at one cell.
struct Exact<'c> {
    writes: Vec<(usize, Term)>,
    d: BigInt,
    /// The jumped iteration and its start.
    jump: Rc<(Iteration<'c>, Start)>,
}

/// The array symbols an array-valued term is made from (through stores and `ite`).
fn array_syms(t: &Term, f: &mut dyn FnMut(SymId)) {
    match t {
        Term::Sym(s) => f(*s),
        Term::Store(a, _, _) => array_syms(a, f),
        Term::Ite(_, a, b) => {
            array_syms(a, f);
            array_syms(b, f);
        }
        _ => {}
    }
}

/// For every cell of a jump array that the formula reads (directly, or through an array
/// defined from it by later writes), the axiom that says what the cell holds.
fn axioms(cs: &[Term], fills: &[Fill<'_>]) -> Vec<Term> {
    let mut from: HashMap<SymId, BTreeSet<usize>> = fills
        .iter()
        .enumerate()
        .map(|(i, f)| (f.h, BTreeSet::from([i])))
        .collect();
    let mut changed = true;
    while changed {
        changed = false;
        for c in cs {
            let Term::Eq(l, r) = c else { continue };
            let Term::Sym(s) = **l else { continue };
            let mut b = BTreeSet::new();
            array_syms(r, &mut |x| {
                b.extend(from.get(&x).into_iter().flatten().copied())
            });
            let e = from.entry(s).or_default();
            let before = e.len();
            e.extend(b);
            changed |= e.len() != before;
        }
    }
    let mut out = Vec::new();
    let mut done: HashSet<(usize, Term)> = HashSet::new();
    let mut work: Vec<Term> = cs.to_vec();
    while let Some(t) = work.pop() {
        let mut found = Vec::new();
        t.visit(&mut |x| {
            if let Term::Select(a, r) = x {
                array_syms(a, &mut |s| {
                    for i in from.get(&s).into_iter().flatten() {
                        found.push((*i, (**r).clone()));
                    }
                });
            }
        });
        for (i, r) in found {
            if done.insert((i, r.clone())) {
                if let Some(ax) = axiom(&fills[i], &r) {
                    work.push(ax.clone());
                    out.push(ax);
                }
            }
        }
    }
    out
}

/// What cell `r` of a jump array holds (`None` if nothing is known of it).
fn axiom(f: &Fill<'_>, r: &Term) -> Option<Term> {
    let x = f.exact.as_ref()?;
    let cell = Term::select(Term::sym(f.h), r.clone());
    let before = Term::eq(cell.clone(), Term::select(f.base.clone(), r.clone()));
    let (it, start) = &*x.jump;
    // The writes hit disjoint cells: the cell is the one write's that hit it, else as
    // before the jump.
    let mut out = before;
    for (w, idx0) in x.writes.iter().rev() {
        let n = f.count.clone();
        let (written, m) = if x.d.is_zero() {
            (
                Term::and([
                    Term::eq(r.clone(), idx0.clone()),
                    Term::ge(n.clone(), Term::int(1)),
                ]),
                Term::sum([n, Term::int(-1)]),
            )
        } else {
            // The distance from the first write, in the direction the writes move.
            let e = if x.d.is_positive() {
                Term::sum([r.clone(), Term::scale_int(-1, idx0.clone())])
            } else {
                Term::sum([idx0.clone(), Term::scale_int(-1, r.clone())])
            };
            let d = x.d.abs();
            let m = Term::int_div(e.clone(), d.clone());
            (
                Term::and([
                    Term::ge(e.clone(), Term::int(0)),
                    Term::eq(Term::modulo(e, d), Term::int(0)),
                    Term::lt(m.clone(), n),
                ]),
                m,
            )
        };
        let at = it.at(start, &m);
        out = match at.writes.get(*w).and_then(|w| w.2.clone()) {
            Some(v) => Term::ite(written, Term::eq(cell.clone(), v), out),
            None => Term::implies(Term::not(written), out),
        };
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::diag::SourceFile;
    use crate::frontend::load;
    use crate::smt::Cvc5Factory;
    use crate::trace::{check_with, Feasibility};

    fn cfg_of(src: &str) -> Cfg {
        match load(SourceFile::new("test.lp", src)) {
            Ok(l) => l.cfg,
            Err(e) => panic!("cannot load:\n{}", e.render(false)),
        }
    }

    /// A trace around the loop `iterations` times, then out of it, then into the error
    /// (the programs below test the loop's condition, then the error's).
    fn around(cfg: &Cfg, iterations: usize) -> Trace {
        let mut choices = vec![true; iterations];
        choices.extend([false, true]);
        crate::trace::tests::walk(cfg, &choices)
    }

    const STRIDE: &str = "void main() {
  int a[1000];
  int i, j;
  for (i = 0; i < 1000; i = i + STEP)
    a[i] = 42;
  j = u;
  assume(0 <= j && j < 1000);
  if (a[j] != 42) ERROR: ;
}";

    #[test]
    fn a_spurious_trace_around_a_loop_twice_leads_to_the_error_after_500_iterations() {
        let cfg = cfg_of(&STRIDE.replace("STEP", "2"));
        let t = around(&cfg, 2);
        let d = Deadline::none();
        assert!(matches!(
            check_with(&cfg, &t, &Cvc5Factory, &d),
            Ok(Feasibility::Infeasible { .. })
        ));
        let Jumped::Found(found, w) = jump_loops(&cfg, &t, &Cvc5Factory, &d) else {
            panic!("no run to the error")
        };
        replay(&cfg, &found, &w).expect("the run replays");
        let iterations = found
            .path
            .iter()
            .filter(|n| **n == t.path[runs(&cfg, &t.path)[0].start])
            .count();
        assert_eq!(
            iterations, 501,
            "the loop test runs 500 times and once to leave"
        );
        // The inputs: j odd (the loop writes the even cells), at its last `u`.
        let j = w.inputs.iter().rfind(|x| x.what == "u (assigned to j)");
        let j = j.unwrap_or_else(|| panic!("{:?}", w.inputs)).value.clone();
        assert!(num_integer::Integer::is_odd(&j), "j = {j}");
    }

    #[test]
    fn a_jump_over_a_loop_that_writes_every_cell_finds_nothing() {
        let cfg = cfg_of(&STRIDE.replace("STEP", "1"));
        for k in 1..=3 {
            let t = around(&cfg, k);
            let j = jump_loops(&cfg, &t, &Cvc5Factory, &Deadline::none());
            assert!(matches!(j, Jumped::Infeasible { .. }), "{j:?}");
        }
    }

    /// A loop that writes two cells of one array per iteration, at `2i` and `2i + 1`.
    const INTERLEAVE: &str = "void main() {
  int c[2000];
  int i, j;
  for (i = 0; i < 1000; i = i + 1) { c[2 * i] = 1; c[2 * i + 1] = ODD; }
  j = u;
  assume(0 <= j && j < 1000);
  if (c[2 * j + 1] != 2) ERROR: ;
}";

    #[test]
    fn a_jump_over_two_writes_to_disjoint_cells_is_exact() {
        // Every odd cell is 2: each jump is refuted (the cells are known, not arbitrary).
        let cfg = cfg_of(&INTERLEAVE.replace("ODD", "2"));
        for k in 1..=3 {
            let j = jump_loops(&cfg, &around(&cfg, k), &Cvc5Factory, &Deadline::none());
            assert!(matches!(j, Jumped::Infeasible { .. }), "{j:?}");
        }
        // One odd cell differs, at iteration 777: the jump's model must name it.
        let cfg = cfg_of(&INTERLEAVE.replace("ODD", "(i == 777 ? 3 : 2)"));
        let t = around(&cfg, 2);
        let Jumped::Found(found, w) = jump_loops(&cfg, &t, &Cvc5Factory, &Deadline::none()) else {
            panic!("no run to the error")
        };
        replay(&cfg, &found, &w).expect("the run replays");
        let j = w.inputs.iter().rfind(|x| x.what == "u (assigned to j)");
        let j = j.unwrap_or_else(|| panic!("{:?}", w.inputs)).value.clone();
        assert_eq!(j, 777.into());
    }

    #[test]
    fn writes_that_may_hit_one_cell_leave_the_array_arbitrary() {
        // `c[i + 1] = 1` then `c[i] = 2`: cell j is written twice, the later write (2) is
        // what stays, so `c[j] != 1` is reached. An exact encoding that took either write
        // for the cell would refute it with 1; the array stays arbitrary and a run finds
        // the error.
        let cfg = cfg_of(
            "void main() {
  int c[1001];
  int i, j;
  for (i = 0; i < 1000; i = i + 1) { c[i + 1] = 1; c[i] = 2; }
  j = u;
  assume(1 <= j && j < 1000);
  if (c[j] != 1) ERROR: ;
}",
        );
        let t = around(&cfg, 2);
        let Jumped::Found(found, w) = jump_loops(&cfg, &t, &Cvc5Factory, &Deadline::none()) else {
            panic!("no run to the error")
        };
        replay(&cfg, &found, &w).expect("the run replays");
    }

    #[test]
    fn traces_that_differ_in_how_often_they_go_around_have_one_shape() {
        let cfg = cfg_of(&STRIDE.replace("STEP", "2"));
        let shapes: BTreeSet<Vec<NodeId>> = (1..=4)
            .filter_map(|k| shape(&cfg, &around(&cfg, k)))
            .collect();
        assert_eq!(shapes.len(), 1);
        // Not around the loop: nothing to jump over.
        assert_eq!(shape(&cfg, &around(&cfg, 0)), None);
    }

    #[test]
    fn an_iteration_that_calls_is_jumped_over_and_one_that_draws_is_not() {
        let calls = cfg_of(
            "int a[1000];
void set(int k) { a[k] = 42; }
void main() {
  int i, j;
  for (i = 0; i < 999; i = i + 1)
    set(i);
  j = u;
  assume(0 <= j && j < 1000);
  if (a[j] != 42) ERROR: ;
}",
        );
        let t = around(&calls, 2);
        let d = Deadline::none();
        let Jumped::Found(found, w) = jump_loops(&calls, &t, &Cvc5Factory, &d) else {
            panic!("no run to the error")
        };
        replay(&calls, &found, &w).expect("the run replays");
        // 999 calls, each of at least three steps.
        assert!(found.path.len() > 3 * 999, "{} steps", found.path.len());
        let draws = cfg_of(
            "void main() {
  int a[1000];
  int i, j;
  for (i = 0; i < 999; i = i + 1)
    a[i] = u;
  j = u;
  assume(0 <= j && j < 1000);
  if (a[j] != 42) ERROR: ;
}",
        );
        let t = around(&draws, 2);
        assert!(runs(&draws, &t.path).is_empty());
        let j = jump_loops(&draws, &t, &Cvc5Factory, &d);
        assert!(matches!(j, Jumped::Nothing), "{j:?}");
    }

    #[test]
    fn a_jump_that_stays_infeasible_names_the_cells_its_core_fixes() {
        // Spurious for the loop count in every unrolling; with the loop jumped over, for
        // the last value written into a[0].
        let cfg = cfg_of(
            "void main() {
  int a[10];
  int i;
  for (i = 0; i < 1000; i = i + 1)
    a[0] = i;
  if (a[0] != 999) ERROR: ;
}",
        );
        for k in 1..=3 {
            match jump_loops(&cfg, &around(&cfg, k), &Cvc5Factory, &Deadline::none()) {
                Jumped::Infeasible { reads, core, .. } => {
                    let named: Vec<(String, i64)> = reads
                        .iter()
                        .map(|(a, i)| (cfg.arrays[*a].name.clone(), *i))
                        .collect();
                    assert_eq!(named, vec![("a".to_string(), 0)]);
                    assert!(!core.is_empty());
                }
                j => panic!("{j:?}"),
            }
        }
    }
}
