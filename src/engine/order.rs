//! The deterministic worklist order: reverse post-order of the supergraph from `main`'s
//! entry (intraprocedural edges, call node → callee entry and → return point).

use crate::cfg::{Cfg, NodeKind};
use crate::ids::{IndexVec, NodeId};

/// The rank of each node in reverse post-order (unreachable nodes rank last).
pub(super) fn rpo_rank(cfg: &Cfg) -> IndexVec<NodeId, u32> {
    let n = cfg.nodes.len();
    let mut visited = vec![false; n];
    let mut post = Vec::with_capacity(n);
    let succ = |v: NodeId| -> Vec<NodeId> {
        match &cfg.nodes[v].kind {
            NodeKind::Call {
                proc, ret_point, ..
            } => vec![cfg.procs[*proc].entry, *ret_point],
            NodeKind::Exit => vec![],
            _ => cfg.succs(v),
        }
    };
    // Iterative DFS: (node, next successor index).
    let root = cfg.procs[cfg.main].entry;
    let mut stack: Vec<(NodeId, usize, Vec<NodeId>)> = vec![(root, 0, succ(root))];
    visited[root.0 as usize] = true;
    while let Some((v, i, ss)) = stack.last_mut() {
        if *i < ss.len() {
            let w = ss[*i];
            *i += 1;
            if !visited[w.0 as usize] {
                visited[w.0 as usize] = true;
                let sw = succ(w);
                stack.push((w, 0, sw));
            }
        } else {
            post.push(*v);
            stack.pop();
        }
    }
    let mut rank = vec![u32::MAX; n];
    for (r, v) in post.iter().rev().enumerate() {
        rank[v.0 as usize] = r as u32;
    }
    IndexVec::from_raw(rank)
}
