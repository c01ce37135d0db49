//! New facts at widening points: a fact is merged (by convex hull) with a partner when
//! the point's disjunct bound is reached, and widened by its ancestor on its chain after
//! the point's delay. At a partitioned loop head each partition cell keeps one growing
//! fact, unless the point is in [`super::Widening::disjunctive`].

use super::worklist::Engine;
use super::{FactId, Origin, PointKind, REFINED_WIDENINGS};
use crate::domain::RelDomain;
use crate::ids::NodeId;

impl<D: RelDomain> Engine<'_, D> {
    /// Add one part (of partition cell `cell`) of a fact at widening point `n`.
    /// `split`: the fact was split, so this part has not been checked for entailment yet.
    pub(super) fn add_at_point(
        &mut self,
        n: NodeId,
        mut fact: D::Fact,
        cell: u32,
        split: bool,
        origin: Origin,
    ) -> Option<FactId> {
        let w = &self.budget.widening;
        let (delay, bound) = (w.delay_at(n), w.disjunct_bound_at(n));
        if self.points.kind[n] == PointKind::LoopHead
            && w.merges_cells_at(n)
            && self.dom.partitioned(n)
        {
            return self.add_to_cell(n, fact, cell, delay, origin);
        }
        let anc = self.ancestor(n, cell, origin);
        let depth = anc.map_or(0, |a| self.t.facts[a.0 as usize].depth + 1);
        // Without an ancestor, the partner is the fact of the same cell closest to this one
        // (the latest among equals): a merge with an unrelated fact, say the cell at a
        // ghost index the loop never wrote, would lose what the loop established.
        // (Only a merge past the bound or a split part uses it: the scan is skipped
        // otherwise.)
        let needs_partner = split || self.t.at_node[n].len() >= bound;
        let partner = anc.or_else(|| {
            if !needs_partner {
                return None;
            }
            let mut best: Option<(usize, FactId)> = None;
            for &f in &self.t.at_node[n] {
                let rec = &self.t.facts[f.0 as usize];
                if rec.cell != cell {
                    continue;
                }
                let score = self.dom.affinity(&rec.fact, &fact);
                if best.is_none_or(|(s, _)| score >= s) {
                    best = Some((score, f));
                }
            }
            best.map(|(_, f)| f)
        });
        let mut merged = false;
        if let Some(p) = partner {
            if self.t.at_node[n].len() >= bound {
                let old = &self.t.facts[p.0 as usize].fact;
                if let Some(j) = self.dom.join(self.cfg, n, old, &fact) {
                    fact = j;
                    merged = true;
                }
            }
        }
        let mut widen_now = false;
        // The fact to widen by: the ancestor after the delay; at a recursive entry or
        // exit past the disjunct bound, also the partner it was merged with (contexts and
        // summaries arrive from many chains, and merges alone may ascend forever).
        // A part that enters its partition cell from another one (no ancestor in the cell:
        // `k = i - 1` entering `k < i` at each iteration) extends the cell's widened fact.
        let by = match anc {
            Some(a) if depth >= delay => Some((a, depth <= delay + REFINED_WIDENINGS)),
            _ if merged && self.points.kind[n] != PointKind::LoopHead => partner.map(|p| (p, true)),
            None if split && self.crossed_cells(n, origin) => partner
                .filter(|p| self.t.facts[p.0 as usize].widened)
                .map(|p| (p, true)),
            _ => None,
        };
        if let Some((a, refine)) = by {
            let old = &self.t.facts[a.0 as usize].fact;
            if let Some(x) = self.dom.widen(self.cfg, n, old, &fact, refine) {
                fact = x;
                widen_now = true;
            }
        }
        let check = merged || widen_now || split;
        self.settle(n, fact, origin, (depth, cell), (merged, widen_now), check)
    }

    /// Count what was done to a new fact at widening point `n` and keep it, unless
    /// `check` asks whether the facts there entail it (and they do).
    fn settle(
        &mut self,
        n: NodeId,
        fact: D::Fact,
        origin: Origin,
        (depth, cell): (u32, u32),
        (merged, widen_now): (bool, bool),
        check: bool,
    ) -> Option<FactId> {
        let ps = self.t.stats.points.entry(n).or_default();
        ps.max_depth = ps.max_depth.max(depth);
        ps.merges += u32::from(merged);
        ps.widenings += u32::from(widen_now);
        if check && self.is_entailed(n, &fact) {
            return None;
        }
        Some(self.push(n, fact, origin, depth, merged || widen_now, cell))
    }

    /// At a partitioned loop head (not in [`super::Widening::disjunctive`]): one growing
    /// fact per partition cell. A new part is joined with the cell's latest fact (which
    /// contains the cell's earlier ones) and, after `delay` joins, widened by it. The join
    /// and the widening only add states; every chain of a cell stabilises once its
    /// widenings are the standard one.
    fn add_to_cell(
        &mut self,
        n: NodeId,
        mut fact: D::Fact,
        cell: u32,
        delay: u32,
        origin: Origin,
    ) -> Option<FactId> {
        let latest = self.t.at_node[n]
            .iter()
            .rev()
            .copied()
            .find(|&f| self.t.facts[f.0 as usize].cell == cell);
        let Some(p) = latest else {
            return self.settle(n, fact, origin, (0, cell), (false, false), true);
        };
        let old = self.t.facts[p.0 as usize].fact.clone();
        if self.dom.entailed(&fact, &[&old]) {
            self.t.stats.entailed += 1;
            return None;
        }
        let depth = self.t.facts[p.0 as usize].depth + 1;
        let mut merged = false;
        if let Some(j) = self.dom.join(self.cfg, n, &old, &fact) {
            fact = j;
            merged = true;
        }
        let mut widen_now = false;
        if depth >= delay {
            if let Some(x) =
                self.dom
                    .widen(self.cfg, n, &old, &fact, depth <= delay + REFINED_WIDENINGS)
            {
                fact = x;
                widen_now = true;
            }
        }
        self.settle(n, fact, origin, (depth, cell), (merged, widen_now), true)
    }

    /// The fact a new fact at widening point `n`, derived by `origin`, extends: walking its
    /// derivation backwards, the last fact at `n` of the same activation (loop heads), of
    /// the enclosing activation (recursive entries), or the exit fact of a nested
    /// activation of the same call-graph SCC (recursive exits).
    pub(super) fn ancestor(&self, n: NodeId, cell: u32, origin: Origin) -> Option<FactId> {
        const WALK_LIMIT: usize = 1 << 16;
        let kind = self.points.kind[n];
        let scc = |f: FactId| {
            self.cfg.nodes[self.t.facts[f.0 as usize].node]
                .proc
                .map(|p| self.points.scc[p])
        };
        let my_scc = self.cfg.nodes[n].proc.map(|p| self.points.scc[p]);
        let mut cur = origin;
        for _ in 0..WALK_LIMIT {
            let next = match cur {
                Origin::Init => return None,
                Origin::Step { pred } | Origin::Inst { pred, .. } => pred,
                Origin::CallEntry { caller } => {
                    if kind != PointKind::RecEntry {
                        return None;
                    }
                    caller
                }
                Origin::Return { call, exit } => {
                    if kind == PointKind::RecExit && scc(exit) == my_scc {
                        exit
                    } else {
                        call
                    }
                }
            };
            let rec = &self.t.facts[next.0 as usize];
            if rec.node == n && rec.cell == cell {
                return Some(next);
            }
            cur = rec.origin;
        }
        None
    }

    /// Whether the derivation `origin` of a new fact at loop head `n` went through `n`
    /// in the current activation (in another partition cell: the fact stays in the loop
    /// and moved to its cell, as `k = i - 1` enters `k < i` at each iteration).
    fn crossed_cells(&self, n: NodeId, origin: Origin) -> bool {
        const WALK_LIMIT: usize = 1 << 16;
        if self.points.kind[n] != PointKind::LoopHead {
            return false;
        }
        let mut cur = origin;
        for _ in 0..WALK_LIMIT {
            let next = match cur {
                Origin::Step { pred } | Origin::Inst { pred, .. } => pred,
                Origin::Return { call, .. } => call,
                Origin::Init | Origin::CallEntry { .. } => return false,
            };
            let rec = &self.t.facts[next.0 as usize];
            if rec.node == n {
                return true;
            }
            cur = rec.origin;
        }
        false
    }
}
