//! The read rule in the tabulation: at a node with an instantiated read, a fact is
//! propagated once per pairing with a fact at the same node (as state and as partner),
//! and the node gives the rule up when it holds too many facts.

use super::worklist::Engine;
use super::{FactId, Origin, MAX_INST_FACTS};
use crate::cfg::ERROR_NODE;
use crate::domain::RelDomain;
use crate::ids::NodeId;

impl<D: RelDomain> Engine<'_, D> {
    /// Propagate fact `id` (`fact`, at node `n`, which has an instantiated read): pair the
    /// new fact with every fact at the node, as state and as partner (later facts pair
    /// with it in turn). Past [`MAX_INST_FACTS`] facts the node gives up the rule: every
    /// fact, old and new, is propagated once more with the read's temporary free (its
    /// value `u`), which contains every pairing. Returns the id of a fact at the error
    /// node, if one was made.
    pub(super) fn process_read(&mut self, id: FactId, n: NodeId, fact: D::Fact) -> Option<FactId> {
        let cfg = self.cfg;
        let read = &cfg.inst_reads[&n];
        let saturated = self.t.at_node[n].len() > MAX_INST_FACTS;
        if !saturated && self.inst_covered.contains(&id) {
            return None; // a later fact contains it and pairs in its place
        }
        let mut pairs = Vec::new();
        if saturated {
            if self.inst_saturated.insert(n) {
                tracing::debug!("read rule saturated at node {}", n.0);
                pairs.extend(self.t.at_node[n].iter().map(|&h| (h, None)));
            } else {
                pairs.push((id, None));
            }
        } else {
            // The instantiation is monotone in both facts: a fact that the new
            // one contains needs no more pairings (those done stay).
            for &g in &self.t.at_node[n] {
                if g != id
                    && !self.inst_covered.contains(&g)
                    && self
                        .dom
                        .entailed(&self.t.facts[g.0 as usize].fact, &[&fact])
                {
                    self.inst_covered.insert(g);
                }
            }
            for &g in &self.t.at_node[n] {
                if self.inst_covered.contains(&g) {
                    continue;
                }
                pairs.push((id, Some(g)));
                if g != id {
                    pairs.push((g, Some(id)));
                }
            }
        }
        for (st, pa) in pairs {
            if self.budget.deadline.expired() {
                return None;
            }
            let sf = self.t.facts[st.0 as usize].fact.clone();
            let states = match pa {
                Some(pa) => {
                    let pf = self.t.facts[pa.0 as usize].fact.clone();
                    self.dom.instantiate(cfg, &sf, &pf, read)
                }
                None => vec![self.dom.forget(&sf, &read.temps())],
            };
            for f2 in states {
                for (i, succ) in cfg.succs(n).into_iter().enumerate() {
                    for f in self.dom.post(cfg, &f2, n, i) {
                        let origin = match pa {
                            Some(partner) => Origin::Inst { pred: st, partner },
                            None => Origin::Step { pred: st },
                        };
                        if let Some(new) = self.add(succ, f, origin) {
                            if succ == ERROR_NODE {
                                return Some(new);
                            }
                        }
                    }
                }
            }
        }
        None
    }
}
