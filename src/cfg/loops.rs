//! Loops of a procedure's control flow, as the engines and refinements see them.

use super::{Cfg, NodeKind, ERROR_NODE};
use crate::ids::{NodeId, ProcId};
use std::collections::{BTreeMap, BTreeSet};

impl Cfg {
    /// Intraprocedural successors: a call continues at its return point; exits and the error
    /// node have none.
    pub fn intra_succs(&self, n: NodeId) -> Vec<NodeId> {
        match &self.nodes[n].kind {
            NodeKind::Call { ret_point, .. } => vec![*ret_point],
            NodeKind::Exit => vec![],
            _ => self
                .succs(n)
                .into_iter()
                .filter(|s| *s != ERROR_NODE)
                .collect(),
        }
    }

    /// The loops of procedure `p`: each target of a back edge of a depth-first search from
    /// the entry, with its natural loop (the nodes that reach a back edge's source without
    /// passing the head, and the head).
    pub fn natural_loops(&self, p: ProcId) -> Vec<(NodeId, BTreeSet<NodeId>)> {
        let entry = self.procs[p].entry;
        let mut on_stack: BTreeSet<NodeId> = BTreeSet::new();
        let mut done: BTreeSet<NodeId> = BTreeSet::new();
        let mut back: BTreeMap<NodeId, Vec<NodeId>> = BTreeMap::new();
        let mut preds: BTreeMap<NodeId, Vec<NodeId>> = BTreeMap::new();
        let mut stack: Vec<(NodeId, Vec<NodeId>, usize)> =
            vec![(entry, self.intra_succs(entry), 0)];
        on_stack.insert(entry);
        while let Some((v, ss, i)) = stack.last_mut() {
            if *i < ss.len() {
                let (v, w) = (*v, ss[*i]);
                *i += 1;
                preds.entry(w).or_default().push(v);
                if on_stack.contains(&w) {
                    back.entry(w).or_default().push(v);
                } else if !done.contains(&w) {
                    on_stack.insert(w);
                    stack.push((w, self.intra_succs(w), 0));
                }
            } else {
                on_stack.remove(v);
                done.insert(*v);
                stack.pop();
            }
        }
        back.into_iter()
            .map(|(h, sources)| {
                let mut body: BTreeSet<NodeId> = BTreeSet::from([h]);
                let mut work: Vec<NodeId> = sources.into_iter().filter(|s| *s != h).collect();
                while let Some(x) = work.pop() {
                    if body.insert(x) {
                        work.extend(preds.get(&x).into_iter().flatten().copied());
                    }
                }
                (h, body)
            })
            .collect()
    }

    /// Whether `to` is reachable from `from` within `from`'s procedure (a call steps to
    /// its return point).
    pub fn reaches_within(&self, from: NodeId, to: NodeId) -> bool {
        let mut seen = BTreeSet::from([from]);
        let mut work = vec![from];
        while let Some(n) = work.pop() {
            if n == to {
                return true;
            }
            for s in self.intra_succs(n) {
                if seen.insert(s) {
                    work.push(s);
                }
            }
        }
        false
    }
}
