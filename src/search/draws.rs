//! Draws that respect the assumptions: for each draw `t = u` (a `u`, a nondet call), the
//! range of values that can still lead to an error, learned statically from the CFG.
//!
//! Programs often check an input right after drawing it and give up on a value out of its
//! range (`y = nondet(); if (!(-8 <= y && y <= -3)) return 0;`, `assume(0 < y && y < 100)`).
//! A run that draws each input uniformly rarely passes many such checks, so a bug behind
//! a loop of draws is out of reach. Here each draw's fresh value is followed along the
//! CFG (through copies, over statements that do not change it) to the tests that bound it:
//! an `assume` bounds it always, a branch only when its other side cannot reach the error
//! node. The result is a sound over-approximation: a value outside a learned range never
//! leads to an error. [`InRange`] then draws inside it most of the time.
//!
//! Where nothing sound is learned, a *hint* may be: a procedure that gives up on a value
//! by returning (`if (!(-8 <= y && y <= -3)) return 0;` in a callee) lets its caller go
//! on, possibly to the error, so the test bounds nothing soundly; but the side that gives
//! up returns at once without the value, while the other side goes on with it: the
//! program's author meant the values of that side. A hint is the range learned with such
//! sides left out ([`DrawRange::hint`]). It is a
//! preference, not a bound: the draws outside it that [`InRange`] keeps make up for it.

use super::range_at;
use crate::accel::CountRange;
use crate::cfg::{Cfg, NodeKind, ERROR_NODE};
use crate::ids::{ArrayId, Idx, NodeId, ProcId, VarId};
use crate::interp::{Oracle, Site};
use crate::sema::{CmpOp, Expr, Range};
use num_bigint::BigInt;
use num_integer::Integer;
use num_traits::{Signed, ToPrimitive, Zero};
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};
use std::collections::{BTreeMap, BTreeSet};

/// The nodes a walk from one draw may visit (each visit of a node on another path counts
/// again). A walk out of budget learns nothing more on that path.
const BUDGET: u32 = 512;

/// How many of the program's constants inside a range a draw may pick from.
const MAX_CONSTS: usize = 64;

/// An interval of integers, possibly empty or unbounded on either side (`None`).
#[derive(Clone, Debug, PartialEq, Eq)]
enum Hull {
    /// No value.
    Empty,
    /// `lo ..= hi`.
    Span(Option<BigInt>, Option<BigInt>),
}

impl Hull {
    /// Every integer.
    fn full() -> Hull {
        Hull::Span(None, None)
    }

    /// `lo ..= hi`, empty when `lo > hi`.
    fn new(lo: Option<BigInt>, hi: Option<BigInt>) -> Hull {
        match (&lo, &hi) {
            (Some(l), Some(h)) if l > h => Hull::Empty,
            _ => Hull::Span(lo, hi),
        }
    }

    fn point(v: BigInt) -> Hull {
        Hull::Span(Some(v.clone()), Some(v))
    }

    /// The intersection.
    fn meet(self, other: Hull) -> Hull {
        match (self, other) {
            (Hull::Span(a, b), Hull::Span(c, d)) => {
                let lo = match (a, c) {
                    (Some(a), Some(c)) => Some(a.max(c)),
                    (a, c) => a.or(c),
                };
                let hi = match (b, d) {
                    (Some(b), Some(d)) => Some(b.min(d)),
                    (b, d) => b.or(d),
                };
                Hull::new(lo, hi)
            }
            _ => Hull::Empty,
        }
    }

    /// The least interval holding both.
    fn join(self, other: Hull) -> Hull {
        match (self, other) {
            (Hull::Empty, h) | (h, Hull::Empty) => h,
            (Hull::Span(a, b), Hull::Span(c, d)) => {
                let lo = match (a, c) {
                    (Some(a), Some(c)) => Some(a.min(c)),
                    _ => None,
                };
                let hi = match (b, d) {
                    (Some(b), Some(d)) => Some(b.max(d)),
                    _ => None,
                };
                Hull::Span(lo, hi)
            }
        }
    }

    fn contains(&self, v: &BigInt) -> bool {
        match self {
            Hull::Empty => false,
            Hull::Span(lo, hi) => {
                lo.as_ref().is_none_or(|l| l <= v) && hi.as_ref().is_none_or(|h| v <= h)
            }
        }
    }

    /// A type's range as an interval.
    fn of_range(r: Range) -> Hull {
        match r {
            Range::Any => Hull::full(),
            Range::NonNegative => Hull::Span(Some(BigInt::zero()), None),
            Range::Bool => Hull::Span(Some(BigInt::zero()), Some(BigInt::from(1))),
            Range::Int(w) => Hull::Span(Some(w.lo()), Some(w.hi())),
        }
    }
}

/// `e` as `a·x + k`, where `x` is the drawn value (which every variable of `aliases`
/// holds); `None` when `e` reads anything else or is not linear. A signed result that
/// must not overflow is taken as its mathematical value: where it would overflow, the run
/// ends without a verdict.
fn linear(e: &Expr, aliases: &[VarId]) -> Option<(BigInt, BigInt)> {
    match e {
        Expr::Const(c) => Some((BigInt::zero(), c.clone())),
        Expr::Var(v) if aliases.contains(v) => Some((BigInt::from(1), BigInt::zero())),
        Expr::Add(a, b) => {
            let (a1, k1) = linear(a, aliases)?;
            let (a2, k2) = linear(b, aliases)?;
            Some((a1 + a2, k1 + k2))
        }
        Expr::Sub(a, b) => {
            let (a1, k1) = linear(a, aliases)?;
            let (a2, k2) = linear(b, aliases)?;
            Some((a1 - a2, k1 - k2))
        }
        Expr::Scale(c, a) => {
            let (a1, k1) = linear(a, aliases)?;
            Some((c * a1, c * k1))
        }
        Expr::Overflow(_, a) => linear(a, aliases),
        _ => None,
    }
}

/// The values `x` for which `a·x + k op 0` holds.
fn solve(op: CmpOp, a: BigInt, k: BigInt) -> Hull {
    if a.is_zero() {
        // No `x` in it: true for all values or for none.
        let holds = match op {
            CmpOp::Lt => k < BigInt::zero(),
            CmpOp::Le => k <= BigInt::zero(),
            CmpOp::Gt => k > BigInt::zero(),
            CmpOp::Ge => k >= BigInt::zero(),
            CmpOp::Eq => k.is_zero(),
            CmpOp::Ne => !k.is_zero(),
        };
        return if holds { Hull::full() } else { Hull::Empty };
    }
    // Make `a` positive: `a·x + k op 0` is `(-a)·x + (-k) op' 0` with op' mirrored.
    let (a, k, op) = if a.is_negative() {
        let mirrored = match op {
            CmpOp::Lt => CmpOp::Gt,
            CmpOp::Le => CmpOp::Ge,
            CmpOp::Gt => CmpOp::Lt,
            CmpOp::Ge => CmpOp::Le,
            o => o,
        };
        (-a, -k, mirrored)
    } else {
        (a, k, op)
    };
    // a·x ≤ m  ⇔  x ≤ ⌊m/a⌋;  a·x ≥ m  ⇔  x ≥ ⌈m/a⌉.
    let at_most = |m: BigInt| Hull::Span(None, Some(m.div_floor(&a)));
    let at_least = |m: BigInt| Hull::Span(Some(-((-m).div_floor(&a))), None);
    let m = -k;
    match op {
        CmpOp::Le => at_most(m),
        CmpOp::Lt => at_most(m - 1),
        CmpOp::Ge => at_least(m),
        CmpOp::Gt => at_least(m + 1),
        CmpOp::Eq if m.is_multiple_of(&a) => Hull::point(m / a),
        CmpOp::Eq => Hull::Empty,
        // Everything but one value: its hull is everything.
        CmpOp::Ne => Hull::full(),
    }
}

/// An interval holding every drawn value `x` for which `cond` evaluates to `holds`
/// (true: non-zero), whatever the other variables are: linear comparisons of `x` with
/// constants, under `!`, `&&` and `||`; anything else bounds nothing.
fn bound(cond: &Expr, holds: bool, aliases: &[VarId]) -> Hull {
    match cond {
        Expr::Cmp(op, l, r) => {
            let (Some((a1, k1)), Some((a2, k2))) = (linear(l, aliases), linear(r, aliases)) else {
                return Hull::full();
            };
            let op = if holds { *op } else { op.negate() };
            solve(op, a1 - a2, k1 - k2)
        }
        Expr::Not(e) => bound(e, !holds, aliases),
        // `a && b` holds when both do; it fails when one of them fails.
        Expr::And(a, b) if holds => bound(a, true, aliases).meet(bound(b, true, aliases)),
        Expr::And(a, b) => bound(a, false, aliases).join(bound(b, false, aliases)),
        Expr::Or(a, b) if holds => bound(a, true, aliases).join(bound(b, true, aliases)),
        Expr::Or(a, b) => bound(a, false, aliases).meet(bound(b, false, aliases)),
        // Any other value is a truth value: `e != 0`.
        e => match linear(e, aliases) {
            Some((a, k)) => solve(if holds { CmpOp::Ne } else { CmpOp::Eq }, a, k),
            None => Hull::full(),
        },
    }
}

/// The range learned for one draw.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct DrawRange {
    /// The least value that can lead to an error (`None`: unbounded below, or bounded by
    /// the type's range only).
    pub(crate) lo: Option<BigInt>,
    /// The greatest one (`None`: unbounded above, or by the type's range only).
    pub(crate) hi: Option<BigInt>,
    /// The drawn variable's type range (a draw never leaves it).
    range: Hull,
    /// The program's constants (and their neighbours) inside the range.
    pub(crate) consts: Vec<BigInt>,
    /// A hint (values outside may lead to an error too), not a sound range.
    pub(crate) hint: bool,
}

impl DrawRange {
    /// A value inside the range: one of its ends (1 in 4), one of the program's constants
    /// inside it (1 in 4), else a value spread over it; where one side is open (or the
    /// range is far wider than `spread`), within `spread` of the finite end.
    pub(crate) fn pick(&self, rng: &mut SmallRng, spread: u64) -> BigInt {
        let r = rng.gen_range(0..8u32);
        let ends: Vec<&BigInt> = self.lo.iter().chain(self.hi.iter()).collect();
        let v = if r < 2 && !ends.is_empty() {
            ends[rng.gen_range(0..ends.len())].clone()
        } else if r < 4 && !self.consts.is_empty() {
            self.consts[rng.gen_range(0..self.consts.len())].clone()
        } else {
            let near = BigInt::from(rng.gen_range(0..=spread));
            match (&self.lo, &self.hi) {
                (Some(l), Some(h)) => {
                    let width = (h - l).to_u64().unwrap_or(u64::MAX);
                    if width > spread.saturating_mul(4) && rng.gen_bool(0.5) {
                        if rng.gen_bool(0.5) {
                            l + near
                        } else {
                            h - near
                        }
                    } else if width < u64::MAX {
                        l + BigInt::from(rng.gen_range(0..=width))
                    } else {
                        l + near
                    }
                }
                (Some(l), None) => l + near,
                (None, Some(h)) => h - near,
                // Not learned (see `learn`): no narrowing.
                (None, None) => near,
            }
        };
        // Stay inside the type's range (an open side's spread may pass its end).
        match &self.range {
            Hull::Span(Some(l), _) if v < *l => l.clone(),
            Hull::Span(_, Some(h)) if v > *h => h.clone(),
            _ => v,
        }
    }
}

/// The ranges learned for a program's draws, by node (the draw `t = u` of the node).
#[derive(Clone, Debug, Default)]
pub(crate) struct DrawRanges {
    sites: BTreeMap<NodeId, DrawRange>,
}

impl DrawRanges {
    /// The range learned for the value asked at `site` of `node`, if any.
    pub(crate) fn get(&self, node: NodeId, site: Site) -> Option<&DrawRange> {
        match site {
            Site::Undef(0) => self.sites.get(&node),
            _ => None,
        }
    }

    /// The draws with a learned range, in node order.
    #[cfg(test)]
    pub(crate) fn iter(&self) -> impl Iterator<Item = (NodeId, &DrawRange)> {
        self.sites.iter().map(|(n, r)| (*n, r))
    }
}

/// What the walks share: which nodes can reach the error, which procedures can reach it
/// before they return.
struct Learner<'a> {
    cfg: &'a Cfg,
    /// By node: the error node is reachable from it (over-approximated: a procedure's
    /// exit leads to the return points of all its calls).
    to_error: Vec<bool>,
    /// By procedure: an error is reachable inside it or its callees, before it returns.
    errs_inside: Vec<bool>,
    globals: BTreeSet<VarId>,
    /// The nodes on the current walk's path (a node met again: a loop, learn nothing).
    on_path: Vec<bool>,
    budget: u32,
    /// Learning hints: a branch's side that gives up on the value ([`Learner::gives_up`])
    /// while the other side does not is left out.
    hint: bool,
}

impl<'a> Learner<'a> {
    fn new(cfg: &'a Cfg) -> Learner<'a> {
        let n = cfg.nodes.len();
        let mut preds: Vec<Vec<NodeId>> = vec![Vec::new(); n];
        for m in cfg.nodes.indices() {
            for s in cfg.succs(m) {
                preds[s.index()].push(m);
            }
        }
        let mut to_error = vec![false; n];
        let mut work = vec![ERROR_NODE];
        to_error[ERROR_NODE.index()] = true;
        while let Some(m) = work.pop() {
            for &p in &preds[m.index()] {
                if !to_error[p.index()] {
                    to_error[p.index()] = true;
                    work.push(p);
                }
            }
        }
        let mut errs_inside = vec![false; cfg.procs.len()];
        for (m, node) in cfg.nodes.iter_enumerated() {
            if let Some(p) = node.proc {
                let direct = !matches!(node.kind, NodeKind::Call { .. })
                    && cfg.succs(m).contains(&ERROR_NODE);
                errs_inside[p.index()] |= direct;
            }
        }
        // A procedure that calls one that can reach the error can reach it too.
        let mut changed = true;
        while changed {
            changed = false;
            for node in cfg.nodes.iter() {
                if let (Some(p), NodeKind::Call { proc, .. }) = (node.proc, &node.kind) {
                    if errs_inside[proc.index()] && !errs_inside[p.index()] {
                        errs_inside[p.index()] = true;
                        changed = true;
                    }
                }
            }
        }
        Learner {
            cfg,
            to_error,
            errs_inside,
            globals: cfg.globals.iter().copied().collect(),
            on_path: vec![false; n],
            budget: 0,
            hint: false,
        }
    }

    fn errs_inside(&self, p: ProcId) -> bool {
        self.errs_inside[p.index()]
    }

    /// An interval holding every value `x` of the variables `aliases` at `n` from which
    /// a run can reach the error node.
    fn walk(&mut self, n: NodeId, aliases: &[VarId]) -> Hull {
        if !self.to_error[n.index()] {
            return Hull::Empty;
        }
        if self.budget == 0 || self.on_path[n.index()] {
            return Hull::full();
        }
        self.budget -= 1;
        self.on_path[n.index()] = true;
        let h = self.step(n, aliases);
        self.on_path[n.index()] = false;
        h
    }

    /// Whether the side from `n` gives up on the value of `aliases`: it returns at once
    /// (a `return` whose value is not the drawn one, or the end of the run), with nothing
    /// on the way but skips.
    fn gives_up(&self, mut n: NodeId, aliases: &[VarId]) -> bool {
        let cfg = self.cfg;
        let mut returned_other = false;
        // A `return e;` is a few nodes long: an assignment to `$ret`, skips, the exit.
        for _ in 0..16 {
            match &cfg.nodes[n].kind {
                NodeKind::Skip { next } => n = *next,
                NodeKind::Assign { lhs, rhs, next }
                    if lhs.as_slice() == [cfg.ret]
                        && !rhs
                            .iter()
                            .any(|r| r.vars().iter().any(|v| aliases.contains(v))) =>
                {
                    returned_other = true;
                    n = *next;
                }
                NodeKind::Exit => return returned_other || !aliases.contains(&cfg.ret),
                NodeKind::Stop => return true,
                _ => return false,
            }
        }
        false
    }

    fn step(&mut self, n: NodeId, aliases: &[VarId]) -> Hull {
        let cfg = self.cfg;
        match &cfg.nodes[n].kind {
            NodeKind::Error => Hull::full(),
            NodeKind::Stop => Hull::Empty,
            NodeKind::Skip { next }
            | NodeKind::ArrayWrite { next, .. }
            | NodeKind::ArrayInit { next, .. } => self.walk(*next, aliases),
            NodeKind::Assign { lhs, rhs, next } => {
                let copies = |r: &Expr| matches!(r, Expr::Var(v) if aliases.contains(v));
                if !lhs.iter().any(|l| aliases.contains(l)) && !rhs.iter().any(copies) {
                    // (Most assignments: the value stays where it was.)
                    return self.walk(*next, aliases);
                }
                // The targets lose the value, except those assigned a copy of it.
                let mut now: Vec<VarId> = aliases
                    .iter()
                    .filter(|v| !lhs.contains(v))
                    .copied()
                    .collect();
                for (l, r) in lhs.iter().zip(rhs) {
                    if copies(r) {
                        now.push(*l);
                    }
                }
                if now.is_empty() {
                    return Hull::full();
                }
                now.sort();
                now.dedup();
                self.walk(*next, &now)
            }
            NodeKind::Assume { cond, next } => match bound(cond, true, aliases) {
                Hull::Empty => Hull::Empty,
                b => b.meet(self.walk(*next, aliases)),
            },
            NodeKind::Branch { cond, then, els } => {
                // Learning hints, a side that gives up on the value while the other does
                // not is left out (where both do, the test itself is what uses it).
                let (skip_then, skip_els) = if self.hint {
                    let (t, e) = (self.gives_up(*then, aliases), self.gives_up(*els, aliases));
                    (t && !e, e && !t)
                } else {
                    (false, false)
                };
                let mut side = |holds: bool, to: NodeId| match bound(cond, holds, aliases) {
                    Hull::Empty => Hull::Empty,
                    _ if (holds && skip_then) || (!holds && skip_els) => Hull::Empty,
                    b => b.meet(self.walk(to, aliases)),
                };
                let t = side(true, *then);
                if t == Hull::full() {
                    // Nothing the other side can add.
                    return t;
                }
                t.join(side(false, *els))
            }
            NodeKind::Call {
                proc, ret_point, ..
            } => {
                // A callee that cannot reach the error returns (or ends the run) without
                // touching the caller's locals; it may change the globals.
                if self.errs_inside(*proc) {
                    return Hull::full();
                }
                let kept: Vec<VarId> = aliases
                    .iter()
                    .filter(|v| !self.globals.contains(v))
                    .copied()
                    .collect();
                if kept.is_empty() {
                    return Hull::full();
                }
                self.walk(*ret_point, &kept)
            }
            NodeKind::Exit => {
                // Back to every caller, with the value in the globals (the return value
                // `$ret` among them); the callee's locals are gone.
                let kept: Vec<VarId> = aliases
                    .iter()
                    .filter(|v| self.globals.contains(v))
                    .copied()
                    .collect();
                if kept.is_empty() {
                    return Hull::full();
                }
                let mut h = Hull::Empty;
                for r in cfg.succs(n) {
                    h = h.join(self.walk(r, &kept));
                    if h == Hull::full() {
                        break;
                    }
                }
                h
            }
        }
    }
}

/// Learn a range for each draw `t = u` of `cfg` that some later assumption bounds (see the
/// module's documentation); `dict` is the program's constants ([`super::dictionary`]).
/// A draw gets a range only when it is narrower than the type's, and not empty (a draw
/// no value of which leads to an error is drawn as before).
pub(crate) fn learn(cfg: &Cfg, dict: &[BigInt]) -> DrawRanges {
    let mut learner = Learner::new(cfg);
    let mut sites = BTreeMap::new();
    for (n, node) in cfg.nodes.iter_enumerated() {
        let NodeKind::Assign { lhs, rhs, next } = &node.kind else {
            continue;
        };
        // An accelerated loop's count is chosen otherwise (`Oracle::count`).
        if lhs.len() != 1 || rhs.first() != Some(&Expr::Undef) || cfg.accel.contains_key(&n) {
            continue;
        }
        if !learner.to_error[n.index()] {
            continue;
        }
        let range = Hull::of_range(range_at(cfg, n, Site::Undef(0)));
        // An end at the type's own end narrows nothing: draw near the other end.
        let (tlo, thi) = match &range {
            Hull::Span(l, h) => (l.clone(), h.clone()),
            Hull::Empty => (None, None),
        };
        let mut narrowed = |hint: bool| {
            learner.budget = BUDGET;
            learner.hint = hint;
            let Hull::Span(lo, hi) = learner.walk(*next, &[lhs[0]]).meet(range.clone()) else {
                return None;
            };
            let lo = lo.filter(|l| tlo.as_ref() != Some(l));
            let hi = hi.filter(|h| thi.as_ref() != Some(h));
            (lo.is_some() || hi.is_some()).then_some((lo, hi))
        };
        let (hint, (lo, hi)) = match narrowed(false) {
            Some(r) => (false, r),
            None => match narrowed(true) {
                Some(r) => (true, r),
                None => continue,
            },
        };
        let inside = Hull::new(lo.clone(), hi.clone());
        let consts = dict
            .iter()
            .filter(|c| inside.contains(c))
            .take(MAX_CONSTS)
            .cloned()
            .collect();
        sites.insert(
            n,
            DrawRange {
                lo,
                hi,
                range,
                consts,
                hint,
            },
        );
    }
    DrawRanges { sites }
}

/// How often a run draws inside a learned range, by run: mostly (3 in 4), almost always
/// (a loop of 30 draws passes its checks), or half the time. Outside draws keep the search
/// complete in distribution (they are what an imprecise range would miss).
const IN_RANGE: [f64; 4] = [0.75, 0.98, 0.75, 0.5];

/// An oracle that answers a draw with a learned range from inside it (with probability
/// [`IN_RANGE`] of the run), and everything else as `inner` does. Where nothing was
/// learned, `inner` answers alone, with its own random sequence unchanged.
#[derive(Clone, Debug)]
pub(crate) struct InRange<'a, O> {
    inner: O,
    draws: &'a DrawRanges,
    rng: SmallRng,
    p_in: f64,
    spread: u64,
}

impl<'a, O> InRange<'a, O> {
    /// `inner` with the learned `draws`, for the run numbered `run` (seeding its own
    /// random source); values of an open range lie within `spread` of its finite end.
    pub(crate) fn new(inner: O, draws: &'a DrawRanges, run: u64, spread: u64) -> Self {
        InRange {
            inner,
            draws,
            rng: SmallRng::seed_from_u64(run ^ 0x5eed_d4a5_0f1a_e6e5),
            p_in: IN_RANGE[(run % IN_RANGE.len() as u64) as usize],
            spread,
        }
    }
}

impl<O: Oracle> Oracle for InRange<'_, O> {
    fn undef(&mut self, step: usize, node: NodeId, site: Site) -> BigInt {
        if let Some(r) = self.draws.get(node, site) {
            if self.rng.gen_bool(self.p_in) {
                return r.pick(&mut self.rng, self.spread);
            }
        }
        self.inner.undef(step, node, site)
    }
    fn array_cell(&mut self, init_step: usize, array: ArrayId, index: i64) -> BigInt {
        self.inner.array_cell(init_step, array, index)
    }
    fn array_init(&mut self, step: usize, array: ArrayId) {
        self.inner.array_init(step, array)
    }
    fn count(
        &mut self,
        step: usize,
        node: NodeId,
        site: Site,
        range: Option<&CountRange>,
    ) -> BigInt {
        self.inner.count(step, node, site, range)
    }
}
