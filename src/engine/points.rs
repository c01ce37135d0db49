//! Widening points: the loop heads of each procedure (targets of back edges of a
//! depth-first search from its entry, a call node stepping to its return point) and the
//! entry and exit nodes of recursive procedures (those in a cycle of the call graph).
//! Elsewhere the tabulation stays exact.

use crate::cfg::{Cfg, NodeKind};
use crate::ids::{IndexVec, NodeId, ProcId};

/// What kind of widening point a node is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PointKind {
    /// Not a widening point.
    None,
    /// A loop head: paired with the last fact at the same node of the same activation.
    LoopHead,
    /// The entry of a recursive procedure: paired with the entry fact of the enclosing
    /// activation of the same procedure.
    RecEntry,
    /// The exit of a recursive procedure: paired with the exit fact of the nested
    /// activation whose summary fed this one.
    RecExit,
}

/// The widening points of a CFG and the call graph's strongly connected components.
#[derive(Clone, Debug)]
pub struct Points {
    /// The kind of each node.
    pub kind: IndexVec<NodeId, PointKind>,
    /// A representative of each procedure's call-graph SCC.
    pub scc: IndexVec<ProcId, ProcId>,
}

impl Points {
    /// Compute the widening points of `cfg`.
    pub fn of(cfg: &Cfg) -> Points {
        let mut kind = vec![PointKind::None; cfg.nodes.len()];
        for (_, p) in cfg.procs.iter_enumerated() {
            for h in loop_heads(cfg, p.entry) {
                kind[h.0 as usize] = PointKind::LoopHead;
            }
        }
        let reach = call_reach(cfg);
        let np = cfg.procs.len();
        let scc: Vec<ProcId> = (0..np)
            .map(|p| {
                let rep = (0..np)
                    .find(|&q| q == p || (reach[p][q] && reach[q][p]))
                    .unwrap_or(p);
                ProcId(rep as u32)
            })
            .collect();
        for (p, row) in reach.iter().enumerate() {
            if row[p] {
                let pr = &cfg.procs[ProcId(p as u32)];
                kind[pr.entry.0 as usize] = PointKind::RecEntry;
                kind[pr.exit.0 as usize] = PointKind::RecExit;
            }
        }
        Points {
            kind: IndexVec::from_raw(kind),
            scc: IndexVec::from_raw(scc),
        }
    }

    /// Whether `n` is a widening point.
    pub fn is_point(&self, n: NodeId) -> bool {
        self.kind[n] != PointKind::None
    }
}

/// Targets of back edges of an iterative DFS from `entry`.
fn loop_heads(cfg: &Cfg, entry: NodeId) -> Vec<NodeId> {
    #[derive(Clone, Copy, PartialEq)]
    enum Mark {
        New,
        OnStack,
        Done,
    }
    let mut mark = vec![Mark::New; cfg.nodes.len()];
    let mut heads = Vec::new();
    let mut stack: Vec<(NodeId, usize, Vec<NodeId>)> = vec![(entry, 0, cfg.intra_succs(entry))];
    mark[entry.0 as usize] = Mark::OnStack;
    while let Some((v, i, ss)) = stack.last_mut() {
        if *i < ss.len() {
            let w = ss[*i];
            *i += 1;
            match mark[w.0 as usize] {
                Mark::New => {
                    mark[w.0 as usize] = Mark::OnStack;
                    let sw = cfg.intra_succs(w);
                    stack.push((w, 0, sw));
                }
                Mark::OnStack => {
                    if !heads.contains(&w) {
                        heads.push(w);
                    }
                }
                Mark::Done => {}
            }
        } else {
            mark[v.0 as usize] = Mark::Done;
            stack.pop();
        }
    }
    heads.sort();
    heads
}

/// `reach[p][q]`: `p` calls `q`, directly or transitively.
fn call_reach(cfg: &Cfg) -> Vec<Vec<bool>> {
    let np = cfg.procs.len();
    let mut calls = vec![Vec::new(); np];
    for (_, node) in cfg.nodes.iter_enumerated() {
        if let (Some(p), NodeKind::Call { proc, .. }) = (node.proc, &node.kind) {
            calls[p.0 as usize].push(proc.0 as usize);
        }
    }
    let mut reach = vec![vec![false; np]; np];
    for (p, row) in reach.iter_mut().enumerate() {
        let mut work = calls[p].clone();
        while let Some(q) = work.pop() {
            if !row[q] {
                row[q] = true;
                work.extend(&calls[q]);
            }
        }
    }
    reach
}
