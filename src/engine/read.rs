//! The read rule in the tabulation: at a node with an instantiated read, a fact is
//! propagated once per pairing with a fact at the same node (as state and as partner),
//! and past too many facts there, with covers of groups of them.

use super::worklist::Engine;
use super::{FactId, Origin, MAX_INST_FACTS};
use crate::cfg::ERROR_NODE;
use crate::domain::RelDomain;
use crate::ids::NodeId;

/// Joins into a partner cover past which it widens instead (so that its chain ends).
const COVER_JOINS: u32 = 3;

/// The partner of a state in one pairing of the read rule.
enum Partner<F> {
    /// A fact at the node.
    Fact(FactId),
    /// A cover of a group of facts at the node (past [`MAX_INST_FACTS`]).
    Cover(F),
    /// None: the read is `u`.
    Free,
}

impl<D: RelDomain> Engine<'_, D> {
    /// Propagate fact `id` (`fact`, at node `n`, which has an instantiated read): pair the
    /// new fact with every fact at the node, as state and as partner (later facts pair
    /// with it in turn). Past [`MAX_INST_FACTS`] facts the node pairs every fact with
    /// covers of the facts there instead ([`Engine::cover_pairs`]), which contain every
    /// pairing, or, if the domain groups no partners, with none (the read is `u`).
    /// Returns the id of a fact at the error node, if one was made.
    pub(super) fn process_read(&mut self, id: FactId, n: NodeId, fact: D::Fact) -> Option<FactId> {
        let cfg = self.cfg;
        let read = &cfg.inst_reads[&n];
        let saturated = self.t.at_node[n].len() > MAX_INST_FACTS;
        if !saturated && self.inst_covered.contains(&id) {
            return None; // a later fact contains it and pairs in its place
        }
        let mut pairs: Vec<(FactId, Partner<D::Fact>)> = Vec::new();
        if saturated {
            let first = self.inst_saturated.insert(n);
            if first {
                tracing::debug!("read rule saturated at node {}", n.0);
            }
            let covered = !self.inst_free.contains(&n)
                && match self.cover_pairs(n, id, first) {
                    Some(p) => {
                        pairs = p;
                        true
                    }
                    None => false,
                };
            if !covered {
                // Every fact once more with the read free, which contains every pairing.
                if self.inst_free.insert(n) {
                    self.inst_covers.remove(&n);
                    pairs.extend(self.t.at_node[n].iter().map(|&h| (h, Partner::Free)));
                } else {
                    pairs.push((id, Partner::Free));
                }
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
                pairs.push((id, Partner::Fact(g)));
                if g != id {
                    pairs.push((g, Partner::Fact(id)));
                }
            }
        }
        for (st, pa) in pairs {
            if self.budget.deadline.expired() {
                return None;
            }
            let sf = self.t.facts[st.0 as usize].fact.clone();
            let states = match &pa {
                Partner::Fact(pa) => {
                    let pf = self.t.facts[pa.0 as usize].fact.clone();
                    self.dom.instantiate(cfg, &sf, &pf, read)
                }
                Partner::Cover(pf) => self.dom.instantiate(cfg, &sf, pf, read),
                Partner::Free => vec![self.dom.forget(&sf, &read.temps())],
            };
            for f2 in states {
                for (i, succ) in cfg.succs(n).into_iter().enumerate() {
                    for f in self.dom.post(cfg, &f2, n, i) {
                        let origin = match pa {
                            Partner::Fact(partner) => Origin::Inst { pred: st, partner },
                            Partner::Cover(_) | Partner::Free => Origin::Step { pred: st },
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

    /// The pairings of a saturated read node `n` when fact `id` arrives there (or, the
    /// `first` time, when the node saturates): the facts at `n` are grouped by the
    /// domain's [`RelDomain::partner_key`], each group has a cover (the join of its facts,
    /// widened after [`COVER_JOINS`] joins), and every fact is paired with every cover.
    /// A new fact inside its group's cover pairs with the covers; one outside enlarges
    /// the cover, which every fact then pairs with again. `None` if the domain has no
    /// key or cannot join.
    fn cover_pairs(
        &mut self,
        n: NodeId,
        id: FactId,
        first: bool,
    ) -> Option<Vec<(FactId, Partner<D::Fact>)>> {
        let cfg = self.cfg;
        let read = &cfg.inst_reads[&n];
        let arrivals: Vec<FactId> = if first {
            self.t.at_node[n].clone()
        } else {
            vec![id]
        };
        let mut covers = self.inst_covers.remove(&n).unwrap_or_default();
        let mut grown: Vec<Vec<u8>> = Vec::new();
        for g in &arrivals {
            let f = self.t.facts[g.0 as usize].fact.clone();
            let key = self.dom.partner_key(cfg, n, read, &f)?;
            let next = match covers.get(&key) {
                None => Some((f, 0)),
                Some((c, _)) if self.dom.entailed(&f, &[c]) => None,
                Some((c, joins)) if *joins < COVER_JOINS => {
                    Some((self.dom.join(cfg, n, c, &f)?, joins + 1))
                }
                Some((c, joins)) => Some((self.dom.widen(cfg, n, c, &f, false)?, *joins)),
            };
            if let Some(next) = next {
                covers.insert(key.clone(), next);
                if !grown.contains(&key) {
                    grown.push(key);
                }
            }
        }
        let mut pairs = Vec::new();
        if first {
            for &g in &self.t.at_node[n] {
                for (c, _) in covers.values() {
                    pairs.push((g, Partner::Cover(c.clone())));
                }
            }
        } else {
            for (c, _) in covers.values() {
                pairs.push((id, Partner::Cover(c.clone())));
            }
            for key in &grown {
                let c = &covers[key].0;
                for &g in self.t.at_node[n].iter().filter(|g| **g != id) {
                    pairs.push((g, Partner::Cover(c.clone())));
                }
            }
        }
        self.inst_covers.insert(n, covers);
        Some(pairs)
    }
}
