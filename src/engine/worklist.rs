//! The tabulation loop: the engine's state, the worklist (facts in reverse post-order of
//! the supergraph, then creation order), adding a fact at a node unless the facts there
//! entail it, and propagating one fact through its node (transfer, calls, exits and
//! summaries).

use super::{
    live_vars, order, ret_dead_at_entry, Budget, EngineStats, FactId, FactRec, Origin, Points,
    StopReason, Tabulation, DIVERGING_SHIFTS,
};
use crate::cfg::{Cfg, NodeKind, ERROR_NODE};
use crate::domain::{RelDomain, Shift};
use crate::ids::{IndexVec, NodeId, ProcId, VarId};
use std::collections::{BTreeMap, BTreeSet};
use std::time::Instant;

/// The partner covers of a saturated read node: per group key, the cover and the joins it
/// has taken.
pub(super) type Covers<F> = BTreeMap<Vec<u8>, (F, u32)>;

/// The state of one tabulation.
pub(super) struct Engine<'a, D: RelDomain> {
    pub(super) cfg: &'a Cfg,
    pub(super) dom: &'a mut D,
    pub(super) budget: Budget,
    pub(super) t: Tabulation<D::Fact>,
    /// Facts at call nodes, per callee: the contexts summaries are applied to.
    callers: IndexVec<ProcId, Vec<FactId>>,
    /// Variables not live at each node (forgotten when a fact is added there).
    dead: IndexVec<NodeId, Vec<VarId>>,
    /// Procedure entries where `$ret` is dead ([`ret_dead_at_entry`]).
    ret_dead_entries: BTreeSet<NodeId>,
    /// Each node's rank in the reverse post-order of the supergraph.
    rank: IndexVec<NodeId, u32>,
    /// The facts still to propagate, by their node's rank, then creation order.
    worklist: BTreeSet<(u32, FactId)>,
    start: Instant,
    /// The widening points.
    pub(super) points: Points,
    /// Nodes with an instantiated read that gave up the read rule (too many facts).
    pub(super) inst_saturated: BTreeSet<NodeId>,
    /// Facts at nodes with an instantiated read that a later fact there contains: the
    /// read rule pairs that later fact instead (its instantiations contain theirs).
    pub(super) inst_covered: BTreeSet<FactId>,
    /// At saturated read nodes: the partner covers, per group key, with the joins each
    /// has taken ([`Engine::cover_pairs`]).
    pub(super) inst_covers: BTreeMap<NodeId, Covers<D::Fact>>,
    /// Saturated read nodes without covers (the domain has none): the read is `u`.
    pub(super) inst_free: BTreeSet<NodeId>,
    /// Without widening, at widening points: the shift from each fact's ancestor and how
    /// many equal shifts in a row end at it ([`super::Widening::on_divergence`]).
    shifts: BTreeMap<FactId, (Shift, u32)>,
    /// Without widening: the widening points whose chains kept growing by equal shifts,
    /// where the tabulation widens from then on.
    diverging: BTreeSet<NodeId>,
}

impl<'a, D: RelDomain> Engine<'a, D> {
    pub(super) fn new(cfg: &'a Cfg, dom: &'a mut D, budget: Budget) -> Self {
        let live = live_vars(cfg, &budget.keep_live);
        let dead = cfg
            .nodes
            .iter_enumerated()
            .map(|(n, _)| {
                cfg.in_scope(n)
                    .into_iter()
                    .filter(|v| !live[n].contains(v))
                    .collect()
            })
            .collect();
        Engine {
            cfg,
            dom,
            budget,
            t: Tabulation {
                facts: Vec::new(),
                at_node: IndexVec::from_raw(vec![Vec::new(); cfg.nodes.len()]),
                summaries: IndexVec::from_raw(vec![Vec::new(); cfg.procs.len()]),
                stop: StopReason::Converged,
                stats: EngineStats::default(),
            },
            callers: IndexVec::from_raw(vec![Vec::new(); cfg.procs.len()]),
            dead: IndexVec::from_raw(dead),
            ret_dead_entries: ret_dead_at_entry(cfg)
                .iter()
                .zip(&cfg.procs)
                .filter(|(d, _)| **d)
                .map(|(_, p)| p.entry)
                .collect(),
            rank: order::rpo_rank(cfg),
            worklist: BTreeSet::new(),
            start: Instant::now(),
            points: Points::of(cfg),
            inst_saturated: BTreeSet::new(),
            inst_covered: BTreeSet::new(),
            inst_covers: BTreeMap::new(),
            inst_free: BTreeSet::new(),
            shifts: BTreeMap::new(),
            diverging: BTreeSet::new(),
        }
    }

    pub(super) fn run(mut self) -> Tabulation<D::Fact> {
        let entry = self.cfg.procs[self.cfg.main].entry;
        let init = self.dom.initial(self.cfg);
        self.add(entry, init, Origin::Init);
        while let Some((_, id)) = self.worklist.pop_first() {
            if let Some(stop) = self.out_of_budget() {
                self.t.stop = stop;
                break;
            }
            self.t.stats.steps += 1;
            if let Some(err) = self.process(id) {
                self.t.stop = StopReason::ErrorReached(err);
                break;
            }
        }
        if self.t.stop == StopReason::Converged {
            if let Err(e) = self.budget.deadline.check() {
                self.t.stop = StopReason::Exhausted(e);
            }
        }
        self.t.stats.time = self.start.elapsed();
        self.t
    }

    fn out_of_budget(&self) -> Option<StopReason> {
        if self.t.stats.steps >= self.budget.max_steps {
            return Some(StopReason::StepLimit);
        }
        if self.t.facts.len() >= self.budget.max_facts {
            return Some(StopReason::FactLimit);
        }
        self.budget
            .deadline
            .check()
            .err()
            .map(StopReason::Exhausted)
    }

    /// Add a fact at `n` unless it is entailed by the facts already there. At a widening
    /// point the fact is first merged with its ancestor when the disjunct bound is reached,
    /// and widened by it after the point's delay. Returns its id if it was added.
    pub(super) fn add(&mut self, n: NodeId, fact: D::Fact, origin: Origin) -> Option<FactId> {
        let mut fact = if n == ERROR_NODE || self.dead[n].is_empty() {
            fact
        } else {
            self.dom.forget(&fact, &self.dead[n])
        };
        if self.ret_dead_entries.contains(&n) {
            fact = self.dom.forget_entry(&fact, &[self.cfg.ret]);
        }
        if self.is_entailed(n, &fact) {
            return None;
        }
        if !self.points.is_point(n) || !self.budget.widening.enabled {
            return Some(self.push(n, fact, origin, 0, false, 0));
        }
        if self.budget.widening.on_divergence && !self.diverging.contains(&n) {
            return Some(self.add_exact_at_point(n, fact, origin));
        }
        let mut added = None;
        let parts = self.dom.split(self.cfg, n, &fact);
        let split = parts.len() > 1;
        for (part, cell) in parts {
            added = self.add_at_point(n, part, cell, split, origin).or(added);
        }
        added
    }

    /// At widening point `n`, before its chain shows signs of diverging
    /// ([`Widening::on_divergence`]): the fact is kept as it is, with its depth on the
    /// chain and its shift from its ancestor; after [`DIVERGING_SHIFTS`] equal shifts in a
    /// row the tabulation widens at `n` from then on.
    fn add_exact_at_point(&mut self, n: NodeId, fact: D::Fact, origin: Origin) -> FactId {
        let anc = self.ancestor(n, 0, origin);
        let depth = anc.map_or(0, |a| self.t.facts[a.0 as usize].depth + 1);
        let shift = anc.and_then(|a| self.dom.shift(&self.t.facts[a.0 as usize].fact, &fact));
        let id = self.push(n, fact, origin, depth, false, 0);
        if let (Some(a), Some(shift)) = (anc, shift) {
            let run = match self.shifts.get(&a) {
                Some((s, k)) if *s == shift => k + 1,
                _ => 1,
            };
            if run >= DIVERGING_SHIFTS && !self.budget.widening.exact_at.contains(&n) {
                self.diverging.insert(n);
            }
            self.shifts.insert(id, (shift, run));
        }
        id
    }

    pub(super) fn push(
        &mut self,
        n: NodeId,
        fact: D::Fact,
        origin: Origin,
        depth: u32,
        widened: bool,
        cell: u32,
    ) -> FactId {
        let id = FactId(self.t.facts.len() as u32);
        self.t.facts.push(FactRec {
            node: n,
            fact,
            origin,
            depth,
            widened,
            cell,
        });
        self.t.at_node[n].push(id);
        self.t.stats.facts += 1;
        self.worklist.insert((self.rank[n], id));
        id
    }

    pub(super) fn is_entailed(&mut self, n: NodeId, fact: &D::Fact) -> bool {
        let existing: Vec<&D::Fact> = self.t.at_node[n]
            .iter()
            .map(|id| &self.t.facts[id.0 as usize].fact)
            .collect();
        self.t.stats.comparisons += existing.len() as u64;
        crate::limits::add_work(existing.len() as u64);
        if !existing.is_empty() && self.dom.entailed(fact, &existing) {
            self.t.stats.entailed += 1;
            return true;
        }
        false
    }

    /// Propagate one fact. Returns the id of a fact at the error node, if one was made.
    fn process(&mut self, id: FactId) -> Option<FactId> {
        let cfg = self.cfg;
        let n = self.t.facts[id.0 as usize].node;
        let fact = self.t.facts[id.0 as usize].fact.clone();
        match &cfg.nodes[n].kind {
            NodeKind::Error | NodeKind::Stop => None,
            NodeKind::Call {
                proc, ret_point, ..
            } => {
                let (proc, ret_point) = (*proc, *ret_point);
                self.callers[proc].push(id);
                let entry = cfg.procs[proc].entry;
                for f in self.dom.call_entry(cfg, &fact, n) {
                    self.add(entry, f, Origin::CallEntry { caller: id });
                }
                let sums: Vec<(D::Fact, FactId)> = self.t.summaries[proc].clone();
                for (s, exit) in sums {
                    for f in self.dom.apply_summary(cfg, &fact, &s, n) {
                        self.add(ret_point, f, Origin::Return { call: id, exit });
                    }
                }
                None
            }
            NodeKind::Exit => {
                let p = cfg.nodes[n].proc.expect("exit nodes belong to procedures");
                for s in self.dom.summarize(cfg, &fact, p) {
                    let existing: Vec<&D::Fact> =
                        self.t.summaries[p].iter().map(|(f, _)| f).collect();
                    if !existing.is_empty() && self.dom.entailed(&s, &existing) {
                        self.t.stats.entailed += 1;
                        continue;
                    }
                    self.t.summaries[p].push((s.clone(), id));
                    self.t.stats.summaries += 1;
                    let callers = self.callers[p].clone();
                    for c in callers {
                        if self.budget.deadline.expired() {
                            return None;
                        }
                        let cf = self.t.facts[c.0 as usize].fact.clone();
                        let cnode = self.t.facts[c.0 as usize].node;
                        let NodeKind::Call { ret_point, .. } = cfg.nodes[cnode].kind else {
                            unreachable_caller()
                        };
                        for f in self.dom.apply_summary(cfg, &cf, &s, cnode) {
                            self.add(ret_point, f, Origin::Return { call: c, exit: id });
                        }
                    }
                }
                None
            }
            _ if cfg.inst_reads.contains_key(&n) => self.process_read(id, n, fact),
            _ => {
                for (i, succ) in cfg.succs(n).into_iter().enumerate() {
                    for f in self.dom.post(cfg, &fact, n, i) {
                        if let Some(new) = self.add(succ, f, Origin::Step { pred: id }) {
                            if succ == ERROR_NODE {
                                return Some(new);
                            }
                        }
                    }
                }
                None
            }
        }
    }
}

fn unreachable_caller() -> ! {
    panic!("internal error: a caller fact is not at a call node")
}
