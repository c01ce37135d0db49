//! The loop paths of a loop head, executed symbolically: from the head back to it
//! through one branch of every test, each variable's value after the iteration as a
//! linear expression over the values at the head, and the path condition over the same
//! values. Calls of procedures that are not on the call stack are followed (their
//! locals must be set before they are read); array accesses, `u` (other than the
//! iteration count of an inner accelerated loop, a fresh *auxiliary* dimension),
//! division and leaving the loop end the path. A `(T)e` conversion restricts the path
//! to the states where it changes nothing (`lo ≤ e ≤ hi`): the wrapping iteration stays
//! with the original body.

use super::formula::{forms, BoolF, Cond};
use crate::cfg::{Cfg, NodeKind};
use crate::ids::{NodeId, ProcId, VarId};
use crate::linear::{Conj, Constraint, Dim, LinExpr, Q};
use crate::sema::{CmpOp, Expr, Range};
use num_bigint::BigInt;
use std::collections::{BTreeMap, BTreeSet};

/// Dimensions from here on are auxiliary (the counts of inner accelerated loops).
pub(super) const AUX_BASE: u32 = 1 << 30;

/// The dimension of a variable's value at the head.
pub(super) fn dim(v: VarId) -> Dim {
    Dim(v.0)
}

/// The variable of a dimension, if it is one.
pub(super) fn var_of(d: Dim) -> Option<VarId> {
    (d.0 < AUX_BASE).then_some(VarId(d.0))
}

/// One loop path, executed once from the head.
#[derive(Clone, Debug)]
pub(super) struct LoopPath {
    /// Its nodes, from the head.
    pub nodes: Vec<NodeId>,
    /// The values of the variables it assigns (in scope at the head), over the values at
    /// the head and auxiliary dimensions.
    pub state: BTreeMap<VarId, LinExpr>,
    /// The path condition.
    pub cond: Cond,
    /// The auxiliary dimensions used, `AUX_BASE..AUX_BASE + aux`.
    pub aux: u32,
    /// How many checks it passes without testing them (see [`loop_paths`]).
    pub skipped: u32,
}

/// Limits of the exploration of one loop head.
const MAX_STEPS: usize = 20_000;
const MAX_PATHS: usize = 16;
const MAX_LEN: usize = 400;
const MAX_DEPTH: usize = 3;
const MAX_PIECES: usize = 8;

/// A call being executed: where it returns, the callee, and the caller's activation.
#[derive(Clone, Debug)]
struct Frame {
    ret_point: NodeId,
    callee: ProcId,
    caller_act: u32,
}

/// A partial path.
#[derive(Clone, Debug)]
struct St {
    node: NodeId,
    state: BTreeMap<VarId, LinExpr>,
    /// Callee locals not assigned yet (reading one ends the path).
    unset: BTreeSet<VarId>,
    frames: Vec<Frame>,
    /// The activation the current node belongs to (0: the loop's procedure).
    act: u32,
    next_act: u32,
    visited: BTreeSet<(u32, NodeId)>,
    nodes: Vec<NodeId>,
    cond: Cond,
    aux: u32,
    skipped: u32,
}

/// A value in pieces: under each guard (exact, the guards exclusive), a linear value.
type Pieces = Vec<(BoolF, LinExpr)>;

impl St {
    fn read(&self, v: VarId) -> Option<LinExpr> {
        if self.unset.contains(&v) {
            return None;
        }
        Some(
            self.state
                .get(&v)
                .cloned()
                .unwrap_or_else(|| LinExpr::var(dim(v))),
        )
    }

    /// The value of `e`; the conditions under which no conversion wraps go to `side`.
    fn value(&self, e: &Expr, side: &mut Vec<Constraint>) -> Option<Pieces> {
        let one = |x: LinExpr| Some(vec![(BoolF::True, x)]);
        let out = match e {
            Expr::Const(n) => one(LinExpr::constant(Q::from_integer(n.clone())))?,
            Expr::Var(v) => one(self.read(*v)?)?,
            Expr::Add(a, b) | Expr::Sub(a, b) => {
                let (pa, pb) = (self.value(a, side)?, self.value(b, side)?);
                let mut out = Vec::new();
                for (ga, xa) in &pa {
                    for (gb, xb) in &pb {
                        let x = if matches!(e, Expr::Add(..)) {
                            xa + xb
                        } else {
                            xa - xb
                        };
                        out.push((BoolF::and(ga.clone(), gb.clone()), x));
                    }
                }
                out
            }
            Expr::Scale(c, a) => {
                let c = Q::from_integer(c.clone());
                self.value(a, side)?
                    .into_iter()
                    .map(|(g, x)| (g, x.scale(&c)))
                    .collect()
            }
            // A conversion that would wrap, or a signed result that C leaves undefined
            // out of range (the execution ends there): either way the accelerated
            // transition covers only the iterations where the value is in range, and the
            // original body takes the one where it is not.
            Expr::Wrap(w, a) | Expr::Overflow(w, a) => {
                let p = self.value(a, side)?;
                let lo = LinExpr::constant(Q::from_integer(w.lo()));
                let hi = LinExpr::constant(Q::from_integer(w.hi()));
                for (_, x) in &p {
                    side.push(Constraint::ge(x, &lo));
                    side.push(Constraint::le(x, &hi));
                }
                p
            }
            Expr::Cond(c, a, b) => {
                let f = self.boolean(c, side)?;
                let mut out: Pieces = Vec::new();
                for (g, x) in self.value(a, side)? {
                    out.push((BoolF::and(f.clone(), g), x));
                }
                for (g, x) in self.value(b, side)? {
                    out.push((BoolF::and(BoolF::not(f.clone()), g), x));
                }
                out
            }
            Expr::Cmp(..) | Expr::Not(_) | Expr::And(..) | Expr::Or(..) => {
                let f = self.boolean(e, side)?;
                vec![
                    (f.clone(), LinExpr::int(1)),
                    (BoolF::not(f), LinExpr::int(0)),
                ]
            }
            Expr::Undef
            | Expr::Read(..)
            | Expr::Div(..)
            | Expr::Mod(..)
            | Expr::Call(..)
            | Expr::Nondet(..) => return None,
        };
        (out.len() <= MAX_PIECES).then_some(out)
    }

    /// `e` as a boolean formula (`e ≠ 0`); wrap conditions go to `side`.
    fn boolean(&self, e: &Expr, side: &mut Vec<Constraint>) -> Option<BoolF> {
        Some(match e {
            Expr::Cmp(op, a, b) => {
                let (pa, pb) = (self.value(a, side)?, self.value(b, side)?);
                let mut f = BoolF::False;
                for (ga, xa) in &pa {
                    for (gb, xb) in &pb {
                        let atom = match op {
                            CmpOp::Lt => BoolF::Atom(Constraint::lt(xa, xb)),
                            CmpOp::Le => BoolF::Atom(Constraint::le(xa, xb)),
                            CmpOp::Gt => BoolF::Atom(Constraint::gt(xa, xb)),
                            CmpOp::Ge => BoolF::Atom(Constraint::ge(xa, xb)),
                            CmpOp::Eq => BoolF::Atom(Constraint::eq(xa, xb)),
                            CmpOp::Ne => BoolF::not(BoolF::Atom(Constraint::eq(xa, xb))),
                        };
                        let g = BoolF::and(ga.clone(), gb.clone());
                        f = BoolF::or(f, BoolF::and(g, atom));
                    }
                }
                f
            }
            Expr::Not(a) => BoolF::not(self.boolean(a, side)?),
            Expr::And(a, b) => BoolF::and(self.boolean(a, side)?, self.boolean(b, side)?),
            Expr::Or(a, b) => BoolF::or(self.boolean(a, side)?, self.boolean(b, side)?),
            _ => {
                let mut f = BoolF::False;
                for (g, x) in self.value(e, side)? {
                    let nz = BoolF::not(BoolF::Atom(Constraint::eq(&x, &LinExpr::zero())));
                    f = BoolF::or(f, BoolF::and(g, nz));
                }
                f
            }
        })
    }
}

/// The exploration of one loop head.
struct Explorer<'a> {
    cfg: &'a Cfg,
    head: NodeId,
    proc: ProcId,
    body: &'a BTreeSet<NodeId>,
    skip_checks: bool,
    steps: usize,
    out: Vec<LoopPath>,
}

/// The loop paths from `head` (of procedure `proc`) through the nodes of `body` back to
/// `head`, at most [`MAX_PATHS`] of them.
///
/// With `skip_checks`, a *check* (a test whose condition is not linear, an array read
/// say, and one of whose branches goes straight to the error node) does not end the path:
/// the path passes it on its other branch without constraining the state, and counts it
/// in [`LoopPath::skipped`]. Such a path over-approximates the iterations that pass their
/// checks; see [`crate::accel`] for why a transition made of it keeps the verdict.
pub(super) fn loop_paths(
    cfg: &Cfg,
    proc: ProcId,
    head: NodeId,
    body: &BTreeSet<NodeId>,
    skip_checks: bool,
) -> Vec<LoopPath> {
    let mut x = Explorer {
        cfg,
        head,
        proc,
        body,
        skip_checks,
        steps: 0,
        out: Vec::new(),
    };
    let start = St {
        node: head,
        state: BTreeMap::new(),
        unset: BTreeSet::new(),
        frames: Vec::new(),
        act: 0,
        next_act: 1,
        visited: BTreeSet::new(),
        nodes: Vec::new(),
        cond: Cond::default(),
        aux: 0,
        skipped: 0,
    };
    let mut work = vec![start];
    while let Some(st) = work.pop() {
        if x.out.len() >= MAX_PATHS || x.steps >= MAX_STEPS {
            break;
        }
        x.steps += 1;
        // Successors are pushed in reverse, so that `then` branches come first.
        let mut next = x.step(st);
        next.reverse();
        work.extend(next);
    }
    x.out
}

impl Explorer<'_> {
    /// The successors of a partial path (a complete path is recorded instead).
    fn step(&mut self, mut st: St) -> Vec<St> {
        let n = st.node;
        if n == self.head && st.frames.is_empty() && !st.nodes.is_empty() {
            self.finish(st);
            return vec![];
        }
        if st.nodes.len() >= MAX_LEN || !st.visited.insert((st.act, n)) {
            return vec![];
        }
        if st.frames.is_empty() && !self.body.contains(&n) {
            return vec![];
        }
        st.nodes.push(n);
        let cfg = self.cfg;
        match &cfg.nodes[n].kind {
            NodeKind::Skip { next } => {
                st.node = *next;
                vec![st]
            }
            NodeKind::Assign { lhs, rhs, next } => {
                if let Some(a) = cfg.accel.get(&n) {
                    // An inner loop's iteration count: an auxiliary dimension; 0 for a
                    // transition that passes checks untested, which stays out of outer
                    // transitions (they take its loop one iteration at a time).
                    let count = if a.skips {
                        LinExpr::zero()
                    } else {
                        st.aux += 1;
                        LinExpr::var(Dim(AUX_BASE + st.aux - 1))
                    };
                    st.state.insert(lhs[0], count);
                    st.node = *next;
                    return vec![st];
                }
                let mut side = Vec::new();
                let mut combos: Vec<(BoolF, Vec<LinExpr>)> = vec![(BoolF::True, vec![])];
                for e in rhs {
                    let Some(p) = st.value(e, &mut side) else {
                        return vec![];
                    };
                    let mut next_combos = Vec::new();
                    for (g, vals) in &combos {
                        for (h, x) in &p {
                            let mut v = vals.clone();
                            v.push(x.clone());
                            next_combos.push((BoolF::and(g.clone(), h.clone()), v));
                        }
                    }
                    if next_combos.len() > MAX_PIECES {
                        return vec![];
                    }
                    combos = next_combos;
                }
                let mut out = Vec::new();
                for (g, vals) in combos {
                    for mut s in self.constrain(&st, &g, true, &side) {
                        for (v, x) in lhs.iter().zip(&vals) {
                            s.state.insert(*v, x.clone());
                            s.unset.remove(v);
                        }
                        s.node = *next;
                        out.push(s);
                    }
                }
                out
            }
            NodeKind::Branch { cond, then, els } => {
                let mut side = Vec::new();
                let Some(f) = st.boolean(cond, &mut side) else {
                    return self.skip_check(st, cond, *then, *els).into_iter().collect();
                };
                let mut out = Vec::new();
                for (pos, succ) in [(true, *then), (false, *els)] {
                    for mut s in self.constrain(&st, &f, pos, &side) {
                        s.node = succ;
                        out.push(s);
                    }
                }
                out
            }
            NodeKind::Assume { cond, next } => {
                let mut side = Vec::new();
                let Some(f) = st.boolean(cond, &mut side) else {
                    return vec![];
                };
                let mut out = self.constrain(&st, &f, true, &side);
                out.iter_mut().for_each(|s| s.node = *next);
                out
            }
            NodeKind::Call {
                proc,
                args,
                ret_point,
            } => self.call(st, *proc, args, *ret_point),
            NodeKind::Exit => {
                let Some(f) = st.frames.pop() else {
                    return vec![];
                };
                let callee = &cfg.procs[f.callee];
                for v in callee.formals.iter().chain(&callee.locals) {
                    st.state.remove(v);
                    st.unset.remove(v);
                }
                st.act = f.caller_act;
                st.node = f.ret_point;
                vec![st]
            }
            NodeKind::Error
            | NodeKind::Stop
            | NodeKind::ArrayWrite { .. }
            | NodeKind::ArrayInit { .. } => vec![],
        }
    }

    /// Pass a check (see [`loop_paths`]) on its branch that does not fail, if checks are
    /// skipped and the test is one: its condition has no side effect and no call, and
    /// one branch reaches the error node through skips only.
    fn skip_check(&self, mut st: St, cond: &Expr, then: NodeId, els: NodeId) -> Option<St> {
        if !self.skip_checks || !pure(cond) {
            return None;
        }
        let cfg = self.cfg;
        let fails = |mut n: NodeId| {
            for _ in 0..8 {
                match &cfg.nodes[n].kind {
                    NodeKind::Error => return true,
                    NodeKind::Skip { next } => n = *next,
                    _ => return false,
                }
            }
            false
        };
        st.node = match (fails(then), fails(els)) {
            (true, false) => els,
            (false, true) => then,
            _ => return None,
        };
        st.skipped += 1;
        Some(st)
    }

    /// Enter a callee that is not active yet (no recursion), binding its formals.
    fn call(&mut self, mut st: St, proc: ProcId, args: &[Expr], ret_point: NodeId) -> Vec<St> {
        let active = proc == self.proc || st.frames.iter().any(|f| f.callee == proc);
        if active || st.frames.len() >= MAX_DEPTH {
            return vec![];
        }
        let mut side = Vec::new();
        let mut vals = Vec::new();
        for a in args {
            match st.value(a, &mut side) {
                Some(p) if p.len() == 1 => vals.push(p[0].1.clone()),
                _ => return vec![],
            }
        }
        let Some(cond) = st.cond.and(&Cond {
            all: side,
            none_of: vec![],
        }) else {
            return vec![];
        };
        st.cond = cond;
        let callee = &self.cfg.procs[proc];
        for v in &callee.locals {
            st.state.remove(v);
            st.unset.insert(*v);
        }
        for (v, x) in callee.formals.iter().zip(vals) {
            st.unset.remove(v);
            st.state.insert(*v, x);
        }
        st.frames.push(Frame {
            ret_point,
            callee: proc,
            caller_act: st.act,
        });
        st.act = st.next_act;
        st.next_act += 1;
        st.node = callee.entry;
        vec![st]
    }

    /// The partial path `st` under `f` (`¬f` when `pos` is false) and `side`, one state per
    /// disjunct, without the infeasible ones.
    fn constrain(&self, st: &St, f: &BoolF, pos: bool, side: &[Constraint]) -> Vec<St> {
        let Some(fs) = forms(f, pos) else {
            return vec![];
        };
        let side = Cond {
            all: side.to_vec(),
            none_of: vec![],
        };
        let mut out = Vec::new();
        for c in fs {
            let Some(c) = st.cond.and(&c).and_then(|c| c.and(&side)) else {
                continue;
            };
            if !self.feasible(&c) {
                continue;
            }
            let mut s = st.clone();
            s.cond = c;
            out.push(s);
        }
        out
    }

    /// Whether a condition may hold (over the rationals, with the variables' ranges):
    /// only an optimisation, as a path that never runs gains nothing from acceleration.
    fn feasible(&self, c: &Cond) -> bool {
        let mut cs = c.all.clone();
        let vars: BTreeSet<VarId> = c
            .all
            .iter()
            .flat_map(|a| a.expr.dims())
            .filter_map(var_of)
            .collect();
        for v in vars {
            let (lo, hi) = match self.cfg.vars[v].range {
                Range::Int(w) => (Some(w.lo()), Some(w.hi())),
                Range::Bool => (Some(BigInt::from(0)), Some(BigInt::from(1))),
                Range::NonNegative | Range::Any => continue,
            };
            let x = LinExpr::var(dim(v));
            if let Some(lo) = lo {
                cs.push(Constraint::ge(&x, &LinExpr::constant(Q::from_integer(lo))));
            }
            if let Some(hi) = hi {
                cs.push(Constraint::le(&x, &LinExpr::constant(Q::from_integer(hi))));
            }
        }
        !Conj::from_constraints(&cs).is_empty()
    }

    /// Record a complete path: the values of the variables in scope at the head.
    fn finish(&mut self, mut st: St) {
        // Counts of inner loops are dead at their loop heads: not part of the state.
        let counts: BTreeSet<VarId> = self.cfg.accel.values().map(|a| a.count).collect();
        let scope: BTreeSet<VarId> = self.cfg.proc_scope(self.proc).into_iter().collect();
        st.state
            .retain(|v, x| scope.contains(v) && !counts.contains(v) && *x != LinExpr::var(dim(*v)));
        self.out.push(LoopPath {
            nodes: st.nodes,
            state: st.state,
            cond: st.cond,
            aux: st.aux,
            skipped: st.skipped,
        });
    }
}

/// Whether evaluating `e` has no effect, calls nothing and cannot end the execution (it
/// may read arrays, divide, or be `u`; a signed overflow that C leaves undefined ends
/// the execution, as a false `assume` does, so a check that holds one is not skipped).
fn pure(e: &Expr) -> bool {
    match e {
        Expr::Call(..) | Expr::Nondet(..) | Expr::Overflow(..) => false,
        Expr::Const(_) | Expr::Var(_) | Expr::Undef => true,
        Expr::Read(_, a)
        | Expr::Scale(_, a)
        | Expr::Div(a, _)
        | Expr::Mod(a, _)
        | Expr::Not(a)
        | Expr::Wrap(_, a) => pure(a),
        Expr::Add(a, b)
        | Expr::Sub(a, b)
        | Expr::Cmp(_, a, b)
        | Expr::And(a, b)
        | Expr::Or(a, b) => pure(a) && pure(b),
        Expr::Cond(c, a, b) => pure(c) && pure(a) && pure(b),
    }
}
