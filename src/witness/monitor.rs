//! A violation witness as a monitor on the program: a transformation of the CFG (before
//! acceleration and the engines) after which the program reaches an error location
//! exactly when a run of the original program matches the witness.
//!
//! - A fresh global, the *segment counter* `#segment`, starts at 0 (set at `main`'s
//!   entry). It counts the segments the run has passed.
//! - At each waypoint's point ([`Point`]: before a statement, on a branch's edge, after
//!   a call's return or a nondeterministic draw), while the counter is that waypoint's
//!   segment `k`: an `avoid` waypoint whose condition holds blocks the run
//!   (`assume(0)`); a `follow` waypoint whose condition holds ends the segment
//!   (`#segment = k + 1`). The checks at one point read the counter as it was when the
//!   run arrived there, so one step passes at most one waypoint, except assumptions:
//!   consecutive segments whose `follow` waypoints are assumptions at one point (`a[0] ==
//!   3`, then `a[1] == 5`, as witnesses give several values at one statement) are
//!   passed together when all hold.
//! - The format lets a run pass a `follow` waypoint's location without ending its
//!   segment there (the run is cut into parts as some matching allows). Ending it at the
//!   first chance is as good, unless the next segment has `avoid` waypoints (ending
//!   earlier exposes the run to them sooner): then whether the segment ends there is an
//!   arbitrary choice (`#choose = u`), for the engines to make.
//! - Every edge into the error node counts only at the target's location and only when
//!   the counter is the last segment's index; every other one ends the run (a `Stop`).
//!
//! The result is an ordinary program of the fragment: its errors are reachable iff some
//! run passes the segments' `follow` waypoints in order, none of a segment's `avoid`
//! waypoints before its `follow` waypoint, and reaches the error at the target.

use super::segments::{intra_succs, Kind, Locator, Placed, Point, Segment, WitnessProblem};
use crate::cfg::{Cfg, Node, NodeKind, ERROR_NODE};
use crate::diag::Span;
use crate::ids::{NodeId, ProcId, VarId};
use crate::sema::{CmpOp, Expr, Range, VarInfo, VarKind};
use std::collections::{BTreeMap, BTreeSet};

/// One check at a point: segment `seg`'s waypoint with its condition.
#[derive(Clone, Debug)]
struct Check {
    seg: usize,
    follow: bool,
    cond: Expr,
    /// Whether ending the segment here is a choice (see the module docs).
    choose: bool,
    /// A `follow` assumption: the run may pass it in the same step as the previous
    /// segment's (see the module docs).
    assumption: bool,
}

/// The instrumented CFG and what the interpreter needs to replay it.
pub(super) struct Monitored {
    pub cfg: Cfg,
    /// The nodes `#choose = u` (the replay answers 1: end the segment at once).
    pub choices: BTreeSet<NodeId>,
}

/// Instrument `cfg` with the witness's `segments`.
pub(super) fn instrument(
    locator: &Locator,
    cfg: &Cfg,
    segments: &[Segment],
) -> Result<Monitored, WitnessProblem> {
    let last = segments.len() - 1;
    let mut checks: BTreeMap<Point, Vec<Check>> = BTreeMap::new();
    let mut targets = Vec::new();
    for (k, s) in segments.iter().enumerate() {
        // Ending segment k at once is as good as later unless segment k + 1 avoids
        // something.
        let choose = segments.get(k + 1).is_some_and(|n| !n.avoid.is_empty());
        for w in s.avoid.iter().chain([&s.follow]) {
            if w.kind == Kind::Target {
                targets = locator.targets(w);
                if targets.is_empty() {
                    return Err(WitnessProblem::Invalid(format!(
                        "the {} matches no error location of the program",
                        w.describe()
                    )));
                }
                continue;
            }
            for Placed { point, cond } in locator.place(w)? {
                checks.entry(point).or_default().push(Check {
                    seg: k,
                    follow: w.follow,
                    cond,
                    choose: w.follow && choose,
                    assumption: w.follow && w.kind == Kind::Assumption,
                });
            }
        }
    }
    let mut b = Builder {
        cfg: cfg.clone(),
        counter: None,
        choose_vars: BTreeMap::new(),
        choices: BTreeSet::new(),
    };
    let counter = b.counter();
    for (point, cs) in checks {
        b.insert(point, cs, counter);
    }
    b.errors(&targets, last, counter);
    Ok(Monitored {
        cfg: b.cfg,
        choices: b.choices,
    })
}

struct Builder {
    cfg: Cfg,
    counter: Option<VarId>,
    /// Each procedure's `#choose` temporary.
    choose_vars: BTreeMap<ProcId, VarId>,
    choices: BTreeSet<NodeId>,
}

fn var(v: VarId) -> Box<Expr> {
    Box::new(Expr::Var(v))
}

fn eq(v: VarId, k: usize) -> Expr {
    Expr::Cmp(CmpOp::Eq, var(v), Box::new(Expr::int(k as i64)))
}

impl Builder {
    fn node(&mut self, proc: Option<ProcId>, span: Span, kind: NodeKind) -> NodeId {
        self.cfg.nodes.push(Node { proc, kind, span })
    }

    /// The segment counter: a new global, set to 0 at `main`'s entry.
    fn counter(&mut self) -> VarId {
        if let Some(c) = self.counter {
            return c;
        }
        let main = self.cfg.main;
        let entry = self.cfg.procs[main].entry;
        let span = self.cfg.nodes[entry].span;
        let c = self.cfg.vars.push(VarInfo {
            name: "#segment".into(),
            kind: VarKind::Global,
            range: Range::Any,
            span,
        });
        self.cfg.globals.push(c);
        let init = self.node(
            Some(main),
            span,
            NodeKind::Assign {
                lhs: vec![c],
                rhs: vec![Expr::int(0)],
                next: entry,
            },
        );
        self.cfg.procs[main].entry = init;
        self.counter = Some(c);
        c
    }

    fn choose_var(&mut self, p: ProcId, span: Span) -> VarId {
        if let Some(v) = self.choose_vars.get(&p) {
            return *v;
        }
        let v = self.cfg.vars.push(VarInfo {
            name: "#choose".into(),
            kind: VarKind::Temp(p),
            range: Range::Any,
            span,
        });
        self.cfg.procs[p].locals.push(v);
        self.choose_vars.insert(p, v);
        v
    }

    /// The checks `cs` at `point`: a chain of tests of the counter, one per segment, in
    /// front of the point's successor.
    fn insert(&mut self, point: Point, mut cs: Vec<Check>, counter: VarId) {
        let at = match point {
            Point::Before(n) | Point::Edge(n, _) | Point::After(n) => n,
        };
        let (proc, span) = (self.cfg.nodes[at].proc, self.cfg.nodes[at].span);
        // Where the run goes on after the checks.
        let to = match point {
            Point::Before(n) => n,
            Point::Edge(n, then) => match self.cfg.nodes[n].kind {
                NodeKind::Branch { then: t, els, .. } => {
                    if then {
                        t
                    } else {
                        els
                    }
                }
                _ => return,
            },
            Point::After(n) => match intra_succs(&self.cfg, n).as_slice() {
                [s] => *s,
                _ => return,
            },
        };
        // Avoid waypoints before the follow waypoint of the same segment.
        cs.sort_by_key(|c| (c.seg, c.follow));
        let mut by_seg: BTreeMap<usize, Vec<Check>> = BTreeMap::new();
        for c in cs {
            by_seg.entry(c.seg).or_default().push(c);
        }
        let first_new = self.cfg.nodes.len();
        // What each segment does here, then a balanced tree of tests of the counter that
        // leads to it (a witness may have thousands of segments at one point: a test per
        // segment in a row would cost the run that many steps at each pass).
        let mut acts: Vec<(usize, NodeId)> = Vec::new();
        // The actions of the segments whose follow waypoint here is an assumption.
        let mut assumptions: BTreeMap<usize, NodeId> = BTreeMap::new();
        for (k, group) in by_seg.into_iter().rev() {
            // Where the run goes once segment k ends here: to segment k + 1's assumption
            // at the same point, if there is one.
            let after = assumptions.get(&(k + 1)).copied().unwrap_or(to);
            let mut act = to;
            for c in group.iter().rev() {
                act = if c.follow {
                    let inc = self.node(
                        proc,
                        span,
                        NodeKind::Assign {
                            lhs: vec![counter],
                            rhs: vec![Expr::int(k as i64 + 1)],
                            next: after,
                        },
                    );
                    if c.choose {
                        let p = proc.expect("waypoints are in procedures");
                        let ch = self.choose_var(p, span);
                        let cond = Expr::And(
                            Box::new(c.cond.clone()),
                            Box::new(Expr::Cmp(CmpOp::Ne, var(ch), Box::new(Expr::int(0)))),
                        );
                        let test = self.node(
                            proc,
                            span,
                            NodeKind::Branch {
                                cond,
                                then: inc,
                                els: act,
                            },
                        );
                        let draw = self.node(
                            proc,
                            span,
                            NodeKind::Assign {
                                lhs: vec![ch],
                                rhs: vec![Expr::Undef],
                                next: test,
                            },
                        );
                        self.choices.insert(draw);
                        draw
                    } else {
                        self.node(
                            proc,
                            span,
                            NodeKind::Branch {
                                cond: c.cond.clone(),
                                then: inc,
                                els: act,
                            },
                        )
                    }
                } else {
                    let block = self.node(
                        proc,
                        span,
                        NodeKind::Assume {
                            cond: Expr::int(0),
                            next: to,
                        },
                    );
                    self.node(
                        proc,
                        span,
                        NodeKind::Branch {
                            cond: c.cond.clone(),
                            then: block,
                            els: act,
                        },
                    )
                };
            }
            if group.iter().any(|c| c.assumption) {
                assumptions.insert(k, act);
            }
            acts.push((k, act));
        }
        acts.reverse();
        let head = self.tree(&acts, counter, to, proc, span);
        match point {
            Point::Before(n) => {
                // Every edge into `n` from outside the new chain, and the procedure's entry.
                let old: Vec<NodeId> = self.cfg.nodes.indices().take(first_new).collect();
                for m in old {
                    self.cfg.nodes[m].kind.redirect(n, head);
                }
                for p in self.cfg.procs.iter_mut() {
                    if p.entry == n {
                        p.entry = head;
                    }
                }
            }
            Point::Edge(n, then) => {
                if let NodeKind::Branch { then: t, els, .. } = &mut self.cfg.nodes[n].kind {
                    if then {
                        *t = head
                    } else {
                        *els = head
                    }
                }
            }
            Point::After(n) => set_next(&mut self.cfg.nodes[n].kind, head),
        }
    }

    /// The tests of the counter that lead to the action of its segment among `acts`
    /// (sorted by segment), and to `to` when it is none of them.
    fn tree(
        &mut self,
        acts: &[(usize, NodeId)],
        counter: VarId,
        to: NodeId,
        proc: Option<ProcId>,
        span: Span,
    ) -> NodeId {
        match acts {
            [] => to,
            [(k, act)] => self.node(
                proc,
                span,
                NodeKind::Branch {
                    cond: eq(counter, *k),
                    then: *act,
                    els: to,
                },
            ),
            _ => {
                let (lo, hi) = acts.split_at(acts.len() / 2);
                let below = self.tree(lo, counter, to, proc, span);
                let above = self.tree(hi, counter, to, proc, span);
                let cond = Expr::Cmp(CmpOp::Lt, var(counter), Box::new(Expr::int(hi[0].0 as i64)));
                self.node(
                    proc,
                    span,
                    NodeKind::Branch {
                        cond,
                        then: below,
                        els: above,
                    },
                )
            }
        }
    }

    /// Every edge into the error node: to a test that the counter is `last` when it comes
    /// from a target node, else to a `Stop`.
    fn errors(&mut self, targets: &[NodeId], last: usize, counter: VarId) {
        let nodes: Vec<NodeId> = self.cfg.nodes.indices().collect();
        for n in nodes {
            if n == ERROR_NODE || !intra_succs(&self.cfg, n).contains(&ERROR_NODE) {
                continue;
            }
            let (proc, span) = (self.cfg.nodes[n].proc, self.cfg.nodes[n].span);
            let stop = self.node(proc, span, NodeKind::Stop);
            let to = if targets.contains(&n) {
                self.node(
                    proc,
                    span,
                    NodeKind::Branch {
                        cond: eq(counter, last),
                        then: ERROR_NODE,
                        els: stop,
                    },
                )
            } else {
                stop
            };
            match &mut self.cfg.nodes[n].kind {
                NodeKind::Call { ret_point, .. } if *ret_point == ERROR_NODE => *ret_point = to,
                kind => kind.redirect(ERROR_NODE, to),
            }
        }
    }
}

/// Set the successor of a node with one successor.
fn set_next(kind: &mut NodeKind, to: NodeId) {
    match kind {
        NodeKind::Skip { next }
        | NodeKind::Assign { next, .. }
        | NodeKind::ArrayWrite { next, .. }
        | NodeKind::ArrayInit { next, .. }
        | NodeKind::Assume { next, .. } => *next = to,
        _ => {}
    }
}
