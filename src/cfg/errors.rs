//! Which error locations count: a property other than `unreach-call` (SV-COMP's
//! `no-overflow`, `valid-memsafety`) looks only for its own errors, the checks that
//! `--signed-overflow error` or `--array-bounds error` put in the CFG. Every other edge
//! into the error node (an `ERROR:` label, `reach_error()`, a failing `assert`) ends the
//! execution instead, as the task's `reach_error()` does (it aborts).

use super::{Cfg, Node, NodeKind, ERROR_NODE};
use crate::ids::NodeId;
use std::collections::BTreeSet;

/// Redirect every edge into the error node, except those from `keep`, to a new `Stop`
/// node of the same procedure.
pub fn keep_errors(cfg: &mut Cfg, keep: &BTreeSet<NodeId>) {
    let nodes: Vec<NodeId> = cfg.nodes.indices().collect();
    for n in nodes {
        if keep.contains(&n) {
            continue;
        }
        let (proc, span) = (cfg.nodes[n].proc, cfg.nodes[n].span);
        let mut stop = None;
        let mut redirect = |t: &mut NodeId, nodes: &mut crate::ids::IndexVec<NodeId, Node>| {
            if *t == ERROR_NODE {
                *t = *stop.get_or_insert_with(|| {
                    nodes.push(Node {
                        proc,
                        kind: NodeKind::Stop,
                        span,
                    })
                });
            }
        };
        let mut kind = std::mem::replace(&mut cfg.nodes[n].kind, NodeKind::Stop);
        match &mut kind {
            NodeKind::Skip { next }
            | NodeKind::Assign { next, .. }
            | NodeKind::ArrayWrite { next, .. }
            | NodeKind::ArrayInit { next, .. }
            | NodeKind::Assume { next, .. } => redirect(next, &mut cfg.nodes),
            NodeKind::Branch { then, els, .. } => {
                redirect(then, &mut cfg.nodes);
                redirect(els, &mut cfg.nodes);
            }
            NodeKind::Call { ret_point, .. } => redirect(ret_point, &mut cfg.nodes),
            NodeKind::Error | NodeKind::Stop | NodeKind::Exit => {}
        }
        cfg.nodes[n].kind = kind;
    }
}
