//! One region of the certificate check: the loop-free part of a procedure from a cut
//! point (a loop head, or the entry of `main` or of a summarized procedure) to the cut
//! points it reaches, with the calls of other procedures followed through their bodies
//! (they have no loops and no recursion) and the calls of summarized procedures replaced
//! by their summaries. The paths of a region are encoded as one DAG, merging the states
//! of paths that meet; what a region must show (the next cut point's claim, the summary,
//! a callee's entry condition, and that no error location is reached) comes out as
//! obligations, each under the condition that its node is reached.

use super::enc::{Enc, EncError, Frame, State, R};
use crate::cfg::{NodeKind, ERROR_NODE};
use crate::ids::{NodeId, ProcId};
use crate::smt::Term;
use std::collections::{BTreeMap, BTreeSet};

/// Node instances beyond which a region is out of reach.
const MAX_INSTANCES: usize = 50_000;

/// A node in its context: the calls (inlined) it is under.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
struct Inst {
    ctx: Vec<NodeId>,
    node: NodeId,
}

/// What an obligation requires of the state where it is met.
#[derive(Debug)]
pub(super) enum Goal {
    /// Nothing: the error node must not be reached (from this node).
    Error { from: NodeId },
    /// The claim at a cut point.
    Cut { head: NodeId, state: State },
    /// The summary of the region's procedure, at its exit.
    Summary { state: State },
    /// The entry condition of a summarized callee, at the call.
    Entry { callee: ProcId, state: State },
    /// A claim where control passes a node.
    Passing { node: NodeId, state: State },
}

/// An obligation: its goal, when `guard` holds (the node is reached).
#[derive(Debug)]
pub(super) struct Obligation {
    pub guard: Term,
    pub goal: Goal,
    /// The number of the region's summary uses met before it (in topological order): the
    /// calls whose summaries it may assume. A use met later is on no path through the
    /// obligation's node before it (a call's own summary, a call after it); an entry
    /// obligation that assumed one would rest on that call's return.
    pub uses: usize,
}

/// A call of a summarized procedure: its summary holds between `entry` (the callee's
/// entry state) and `exit` (the state after the call), when `guard` holds.
#[derive(Debug)]
pub(super) struct SummaryUse {
    pub guard: Term,
    pub callee: ProcId,
    pub entry: State,
    pub exit: State,
}

/// What a region gives: its obligations and the summaries it assumed.
#[derive(Debug, Default)]
pub(super) struct Region {
    pub obligations: Vec<Obligation>,
    pub uses: Vec<SummaryUse>,
}

/// The shape of the program the regions are cut from.
pub(super) struct Plan {
    /// The loop heads.
    pub cuts: BTreeSet<NodeId>,
    /// The procedures whose calls are replaced by their summaries.
    pub summarized: BTreeSet<ProcId>,
    /// The nodes with claims to check when control passes them.
    pub passing: BTreeSet<NodeId>,
}

impl Enc<'_> {
    /// The successors of an instance inside the region (targets excluded).
    fn inst_succs(&self, plan: &Plan, i: &Inst) -> Vec<Inst> {
        let cfg = self.cfg;
        match &cfg.nodes[i.node].kind {
            NodeKind::Call {
                proc, ret_point, ..
            } => {
                if plan.summarized.contains(proc) {
                    vec![Inst {
                        ctx: i.ctx.clone(),
                        node: *ret_point,
                    }]
                } else {
                    let mut ctx = i.ctx.clone();
                    ctx.push(i.node);
                    vec![Inst {
                        ctx,
                        node: cfg.procs[*proc].entry,
                    }]
                }
            }
            NodeKind::Exit => match i.ctx.split_last() {
                Some((call, rest)) => match &cfg.nodes[*call].kind {
                    NodeKind::Call { ret_point, .. } => vec![Inst {
                        ctx: rest.to_vec(),
                        node: *ret_point,
                    }],
                    _ => Vec::new(),
                },
                None => Vec::new(),
            },
            NodeKind::Error | NodeKind::Stop => Vec::new(),
            _ => cfg
                .succs(i.node)
                .into_iter()
                .filter(|s| *s != ERROR_NODE && !(i.ctx.is_empty() && plan.cuts.contains(s)))
                .map(|s| Inst {
                    ctx: i.ctx.clone(),
                    node: s,
                })
                .collect(),
        }
    }

    /// The instances of the region from `start`, in topological order.
    fn order(&self, plan: &Plan, start: &Inst) -> R<Vec<Inst>> {
        // Iterative DFS: post-order, reversed; a back edge means a cycle without a cut.
        let mut state: BTreeMap<Inst, bool> = BTreeMap::new(); // false: on stack
        let mut post = Vec::new();
        let mut stack: Vec<(Inst, Vec<Inst>)> = vec![(start.clone(), self.inst_succs(plan, start))];
        state.insert(start.clone(), false);
        while let Some((i, succs)) = stack.last_mut() {
            if let Some(s) = succs.pop() {
                match state.get(&s) {
                    None => {
                        if state.len() >= MAX_INSTANCES {
                            return Err(EncError::Reach(format!(
                                "a region has more than {MAX_INSTANCES} nodes"
                            )));
                        }
                        state.insert(s.clone(), false);
                        let ss = self.inst_succs(plan, &s);
                        stack.push((s, ss));
                    }
                    Some(false) => {
                        return Err(EncError::Reach(format!(
                            "a cycle through node {} has no loop head",
                            s.node
                        )))
                    }
                    Some(true) => {}
                }
            } else {
                let i = i.clone();
                state.insert(i.clone(), true);
                post.push(i);
                stack.pop();
            }
        }
        post.reverse();
        Ok(post)
    }

    /// Encode the region of procedure `base` from node `start` in state `st0` (whose
    /// assumption the caller asserts).
    pub(super) fn region(
        &mut self,
        plan: &Plan,
        base: ProcId,
        start: NodeId,
        st0: State,
    ) -> R<Region> {
        let cfg = self.cfg;
        let first = Inst {
            ctx: Vec::new(),
            node: start,
        };
        let order = self.order(plan, &first)?;
        let mut incoming: BTreeMap<Inst, Vec<(Term, State)>> = BTreeMap::new();
        incoming.insert(first, vec![(Term::tt(), st0)]);
        let mut out = Region::default();
        for inst in order {
            let Some(ins) = incoming.remove(&inst) else {
                continue;
            };
            let (g, st) = self.merge(ins)?;
            let n = inst.node;
            if inst.ctx.is_empty() && plan.passing.contains(&n) {
                out.obligations.push(Obligation {
                    uses: out.uses.len(),
                    guard: g.clone(),
                    goal: Goal::Passing {
                        node: n,
                        state: st.clone(),
                    },
                });
            }
            let mut to = |node: NodeId, ctx: Vec<NodeId>, guard: Term, state: State| {
                incoming
                    .entry(Inst { ctx, node })
                    .or_default()
                    .push((guard, state));
            };
            match &cfg.nodes[n].kind {
                NodeKind::Call {
                    proc,
                    args,
                    ret_point,
                } => {
                    let mut vals = Vec::with_capacity(args.len());
                    self.take_side();
                    for a in args {
                        let x = self.value(&st, a)?;
                        vals.push(self.name(x)?);
                    }
                    // The call happens only where its arguments' signed results fit.
                    let g = Term::and([g, self.take_side()]);
                    if plan.summarized.contains(proc) {
                        let (entry, post) = self.summarized_call(&st, *proc, vals)?;
                        out.obligations.push(Obligation {
                            uses: out.uses.len(),
                            guard: g.clone(),
                            goal: Goal::Entry {
                                callee: *proc,
                                state: entry.clone(),
                            },
                        });
                        out.uses.push(SummaryUse {
                            guard: g.clone(),
                            callee: *proc,
                            entry,
                            exit: post.clone(),
                        });
                        to(*ret_point, inst.ctx.clone(), g, post);
                    } else {
                        let f = self.frame(&st, *proc, Some(vals))?;
                        let mut inner = st;
                        inner.frames.push(f);
                        let mut ctx = inst.ctx.clone();
                        ctx.push(n);
                        to(cfg.procs[*proc].entry, ctx, g, inner);
                    }
                }
                NodeKind::Exit => match inst.ctx.split_last() {
                    Some((call, rest)) => {
                        if let NodeKind::Call { ret_point, .. } = &cfg.nodes[*call].kind {
                            let mut outer = st;
                            outer.frames.pop();
                            to(*ret_point, rest.to_vec(), g, outer);
                        }
                    }
                    None if base == cfg.main => {}
                    None => out.obligations.push(Obligation {
                        uses: out.uses.len(),
                        guard: g,
                        goal: Goal::Summary { state: st },
                    }),
                },
                NodeKind::Error | NodeKind::Stop => {}
                _ => {
                    for (s, cond, post) in self.step(&st, n)? {
                        let guard = Term::and([g.clone(), cond]);
                        if s == ERROR_NODE {
                            out.obligations.push(Obligation {
                                uses: out.uses.len(),
                                guard,
                                goal: Goal::Error { from: n },
                            });
                        } else if inst.ctx.is_empty() && plan.cuts.contains(&s) {
                            out.obligations.push(Obligation {
                                uses: out.uses.len(),
                                guard,
                                goal: Goal::Cut {
                                    head: s,
                                    state: post,
                                },
                            });
                        } else {
                            to(s, inst.ctx.clone(), guard, post);
                        }
                    }
                }
            }
        }
        Ok(out)
    }

    /// A call of summarized procedure `p` with argument values `vals` from `st`: the
    /// callee's entry state (the globals, and `p`'s formals bound), and the state after
    /// the call (every global scalar and array arbitrary, the caller's frame kept).
    fn summarized_call(&mut self, st: &State, p: ProcId, vals: Vec<Term>) -> R<(State, State)> {
        let cfg = self.cfg;
        let mut frame = Frame {
            proc: p,
            vars: BTreeMap::new(),
            arrays: BTreeMap::new(),
        };
        for (f, v) in cfg.procs[p].formals.iter().zip(vals) {
            frame.vars.insert(*f, v);
        }
        let entry = State {
            globals: st.globals.clone(),
            garrays: st.garrays.clone(),
            frames: vec![frame],
        };
        let mut post = st.clone();
        for v in cfg.globals.clone() {
            let t = self.fresh_var(v)?;
            post.globals.insert(v, t);
        }
        for a in cfg.global_arrays.clone() {
            let size = match st.garrays.get(&a) {
                Some(x) => x.size.clone(),
                None => self.array_size(st, a)?,
            };
            let x = self.fresh_array(a, size)?;
            post.garrays.insert(a, x);
        }
        Ok((entry, post))
    }
}
