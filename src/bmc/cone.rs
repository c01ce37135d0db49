//! The nodes from which an error can still be reached: the merged unrolling leaves out
//! the states outside (their executions reach no error, so neither an error query nor
//! the question whether the bound cuts a path needs them: code after the last check, a
//! call after it, a loop that no check follows).
//!
//! In `main`, a call counts as reaching an error when its callee contains one (itself or
//! through its own calls) and its return point is followed like any successor: exact per
//! call. Elsewhere the question is asked of the whole graph, an exit leading to every
//! return point of its procedure: a node outside reaches no error in any context.

use crate::cfg::{Cfg, NodeKind, ERROR_NODE};
use crate::ids::{NodeId, ProcId};
use std::collections::{HashMap, HashSet};

pub(super) struct Cone {
    main: ProcId,
    /// The nodes of `main` from which an error can be reached.
    in_main: HashSet<NodeId>,
    /// Every node from which an error can be reached in some context.
    anywhere: HashSet<NodeId>,
}

impl Cone {
    pub(super) fn new(cfg: &Cfg) -> Cone {
        let is_error = |n: NodeId| n == ERROR_NODE || matches!(cfg.nodes[n].kind, NodeKind::Error);
        let errors: Vec<NodeId> = cfg.nodes.indices().filter(|&n| is_error(n)).collect();
        // The whole graph.
        let mut preds: HashMap<NodeId, Vec<NodeId>> = HashMap::new();
        for n in cfg.nodes.indices() {
            if !is_error(n) {
                for s in cfg.succs(n) {
                    preds.entry(s).or_default().push(n);
                }
            }
        }
        let anywhere = closure(&errors, &preds);
        // The procedures that contain an error, or call one that does.
        let mut with_error: HashSet<ProcId> = HashSet::new();
        loop {
            let before = with_error.len();
            for n in cfg.nodes.indices() {
                let Some(p) = cfg.nodes[n].proc else { continue };
                let reaches = is_error(n)
                    || cfg.succs(n).into_iter().any(is_error)
                    || matches!(&cfg.nodes[n].kind,
                        NodeKind::Call { proc, .. } if with_error.contains(proc));
                if reaches {
                    with_error.insert(p);
                }
            }
            if with_error.len() == before {
                break;
            }
        }
        // `main` alone, a call stepping to its return point.
        let mut preds: HashMap<NodeId, Vec<NodeId>> = HashMap::new();
        let mut seeds = Vec::new();
        for n in cfg.nodes.indices() {
            if cfg.nodes[n].proc != Some(cfg.main) {
                continue;
            }
            let succs = match &cfg.nodes[n].kind {
                NodeKind::Call {
                    proc, ret_point, ..
                } => {
                    if with_error.contains(proc) {
                        seeds.push(n);
                    }
                    vec![*ret_point]
                }
                NodeKind::Exit => Vec::new(),
                _ => cfg.succs(n),
            };
            for s in succs {
                if is_error(s) {
                    seeds.push(n);
                } else {
                    preds.entry(s).or_default().push(n);
                }
            }
            if is_error(n) {
                seeds.push(n);
            }
        }
        Cone {
            main: cfg.main,
            in_main: closure(&seeds, &preds),
            anywhere,
        }
    }

    /// Whether an error can be reached from node `n` of procedure `p`.
    pub(super) fn reaches_error(&self, p: ProcId, n: NodeId) -> bool {
        if p == self.main {
            self.in_main.contains(&n)
        } else {
            self.anywhere.contains(&n)
        }
    }
}

/// `from` and every node with a path into it along `preds`.
fn closure(from: &[NodeId], preds: &HashMap<NodeId, Vec<NodeId>>) -> HashSet<NodeId> {
    let mut seen: HashSet<NodeId> = from.iter().copied().collect();
    let mut work: Vec<NodeId> = from.to_vec();
    while let Some(n) = work.pop() {
        for &p in preds.get(&n).map(Vec::as_slice).unwrap_or(&[]) {
            if seen.insert(p) {
                work.push(p);
            }
        }
    }
    seen
}
