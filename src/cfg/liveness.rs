//! Live variables per node (intraprocedural backward dataflow). Globals are always live
//! (procedures may read them). The tabulation's facts forget the dead locals of their
//! node, which keeps path edges small and lets entailment succeed (forgetting a dead
//! variable changes no reachable node); the CFG's simplification drops the assignments
//! nobody reads ([`super::simplify`]).

use crate::cfg::{Cfg, NodeKind};
use crate::ids::{IndexVec, NodeId, VarId};
use crate::sema::Expr;
use std::collections::BTreeSet;

/// The variables live at the start of each node. The variables of `keep` count as read by
/// every instantiated read in their scope: a refinement learnt that forgetting them made
/// the read rule pair a state with partners of other runs.
pub fn live_vars(cfg: &Cfg, keep: &BTreeSet<VarId>) -> IndexVec<NodeId, BTreeSet<VarId>> {
    live_among(cfg, keep, |_| true)
}

/// [`live_vars`] restricted to the variables where `tracked` holds (the others are in no
/// set): the same sets intersected with them, but smaller to compute when few are.
pub fn live_among(
    cfg: &Cfg,
    keep: &BTreeSet<VarId>,
    tracked: impl Fn(VarId) -> bool,
) -> IndexVec<NodeId, BTreeSet<VarId>> {
    let n = cfg.nodes.len();
    let globals: BTreeSet<VarId> = cfg
        .globals
        .iter()
        .copied()
        .filter(|v| tracked(*v))
        .collect();
    let mut live: Vec<BTreeSet<VarId>> = vec![globals.clone(); n];
    // Intraprocedural successors (a call continues at its return point).
    let succ = |v: NodeId| super::simplify::intra_succs(cfg, v);
    let uses = |e: &Expr, out: &mut BTreeSet<VarId>| {
        e.visit(&mut |x| {
            if let Expr::Var(v) = x {
                if tracked(*v) {
                    out.insert(*v);
                }
            }
        })
    };
    // The predecessors of every node: to revisit them when a node's set grows, and for the
    // instantiated reads (see below).
    let mut preds: Vec<Vec<NodeId>> = vec![Vec::new(); n];
    for v in 0..n {
        let node = NodeId(v as u32);
        for s in succ(node) {
            preds[s.0 as usize].push(node);
        }
    }
    // Array sizes of VLAs are read by every access of their procedure; keep them live.
    let mut vla_sizes: std::collections::BTreeMap<Option<crate::ids::ProcId>, Vec<VarId>> =
        std::collections::BTreeMap::new();
    for info in cfg.arrays.iter() {
        if let crate::sema::ArraySize::Dynamic(sv) = info.size {
            if tracked(sv) {
                vla_sizes.entry(info.proc).or_default().push(sv);
            }
        }
    }
    // A worklist, first in reverse node order (mostly backwards along the edges). The sets
    // only grow, so each node is revisited only when a successor's set (or, at an
    // instantiated read, a predecessor's) grew.
    let mut queued = vec![true; n];
    let mut work: std::collections::VecDeque<usize> = (0..n).rev().collect();
    while let Some(v) = work.pop_front() {
        queued[v] = false;
        let node = NodeId(v as u32);
        let mut out: BTreeSet<VarId> = globals.clone();
        for s in succ(node) {
            out.extend(live[s.0 as usize].iter().copied());
        }
        let mut inn = out;
        match &cfg.nodes[node].kind {
            NodeKind::Assign { lhs, rhs, .. } => {
                for y in lhs {
                    inn.remove(y);
                }
                rhs.iter().for_each(|e| uses(e, &mut inn));
            }
            NodeKind::ArrayWrite { index, value, .. } => {
                uses(index, &mut inn);
                uses(value, &mut inn);
            }
            NodeKind::ArrayInit { values, .. } => {
                values.iter().flatten().for_each(|e| uses(e, &mut inn));
            }
            NodeKind::Branch { cond, .. } | NodeKind::Assume { cond, .. } => uses(cond, &mut inn),
            NodeKind::Call { args, .. } => args.iter().for_each(|e| uses(e, &mut inn)),
            NodeKind::Error | NodeKind::Skip { .. } | NodeKind::Exit | NodeKind::Stop => {}
        }
        // At an instantiated read, a variable live before the node also links the
        // state to its partner (the partner is taken at the same values of every
        // other variable): `m = a[i]` needs the old `m` of the partner where
        // `a[i] < m`, and `assert(m <= a[j])` the bounds `lo ≤ j < hi` that make the
        // partner's `m ≤ a_k` apply. Forgetting them there would lose the read's
        // precision (not soundness).
        if cfg.inst_reads.contains_key(&node) {
            for p in &preds[v] {
                inn.extend(live[p.0 as usize].iter().copied());
            }
            if !keep.is_empty() {
                inn.extend(
                    cfg.in_scope(node)
                        .into_iter()
                        .filter(|v| keep.contains(v) && tracked(*v)),
                );
            }
            // The read's temporaries are set by the read itself (the instantiation
            // forgets their old values): dead before it. Kept, a loop would carry
            // the previous iteration's read value all around.
            for t in cfg.inst_reads[&node].temps() {
                inn.remove(&t);
            }
            // With two ghosts the read's expression has no cells: the instantiation
            // reads the state's and the partner's cells.
            if let Some(s) = &cfg.inst_reads[&node].second {
                inn.extend(
                    s.pairs
                        .iter()
                        .flat_map(|(a, b)| [*a, *b])
                        .filter(|v| tracked(*v)),
                );
            }
        }
        if let Some(sizes) = vla_sizes.get(&cfg.nodes[node].proc) {
            inn.extend(sizes.iter().copied());
        }
        if inn == live[v] {
            continue;
        }
        live[v] = inn;
        // Whose sets read this one: the predecessors, and the instantiated reads after it.
        let readers = preds[v].iter().copied().chain(
            succ(node)
                .into_iter()
                .filter(|s| cfg.inst_reads.contains_key(s)),
        );
        for r in readers {
            let r = r.0 as usize;
            if !queued[r] {
                queued[r] = true;
                work.push_back(r);
            }
        }
    }
    IndexVec::from_raw(live)
}

/// The procedures at whose entry the return register `$ret` is dead: no path from the
/// entry reads its entry value (directly, or in a callee, or by a callee not assigning it
/// before a read), and every path to the exit assigns it (where the caller may read it).
/// Its value on entry then cannot matter, so its entry copy need not be tracked.
pub fn ret_dead_at_entry(cfg: &Cfg) -> Vec<bool> {
    let n = cfg.nodes.len();
    let ret = cfg.ret;
    let nprocs = cfg.procs.len();
    let callee = |v: usize| match &cfg.nodes[NodeId(v as u32)].kind {
        NodeKind::Call { proc, .. } => Some(proc.0 as usize),
        _ => None,
    };
    let writes = |v: usize| matches!(&cfg.nodes[NodeId(v as u32)].kind, NodeKind::Assign { lhs, .. } if lhs.contains(&ret));
    // must[p]: every path from p's entry to its exit assigns $ret (greatest fixpoint:
    // paths that recurse forever never reach the exit).
    let mut must = vec![true; nprocs];
    loop {
        // unwritten[v]: some path from the entry of v's procedure to v has not assigned it.
        let mut unwritten = vec![false; n];
        for p in &cfg.procs {
            unwritten[p.entry.0 as usize] = true;
        }
        let mut changed = true;
        while changed {
            changed = false;
            for v in 0..n {
                if !unwritten[v] || writes(v) || callee(v).is_some_and(|c| must[c]) {
                    continue;
                }
                let next = match &cfg.nodes[NodeId(v as u32)].kind {
                    NodeKind::Call { ret_point, .. } => vec![*ret_point],
                    NodeKind::Exit => vec![],
                    _ => cfg.succs(NodeId(v as u32)),
                };
                for s in next {
                    if !unwritten[s.0 as usize] {
                        unwritten[s.0 as usize] = true;
                        changed = true;
                    }
                }
            }
        }
        let next: Vec<bool> = cfg
            .procs
            .iter()
            .map(|p| !unwritten[p.exit.0 as usize])
            .collect();
        if next == must {
            break;
        }
        must = next;
    }
    // live[v]: the value of $ret at v can be read (least fixpoint).
    let mut live = vec![false; n];
    let mut entry_live = vec![false; nprocs];
    let reads = |e: &Expr| e.vars().contains(&ret);
    let mut changed = true;
    while changed {
        changed = false;
        for v in (0..n).rev() {
            let node = NodeId(v as u32);
            let inn = match &cfg.nodes[node].kind {
                NodeKind::Exit => true,
                NodeKind::Error | NodeKind::Stop => false,
                NodeKind::Assign { lhs, rhs, next } => {
                    rhs.iter().any(reads) || (live[next.0 as usize] && !lhs.contains(&ret))
                }
                NodeKind::Call {
                    proc,
                    args,
                    ret_point,
                } => {
                    let c = proc.0 as usize;
                    args.iter().any(reads)
                        || entry_live[c]
                        || (live[ret_point.0 as usize] && !must[c])
                }
                NodeKind::ArrayWrite { index, value, .. } => {
                    reads(index)
                        || reads(value)
                        || cfg.succs(node).iter().any(|s| live[s.0 as usize])
                }
                NodeKind::ArrayInit { values, .. } => {
                    values.iter().flatten().any(reads)
                        || cfg.succs(node).iter().any(|s| live[s.0 as usize])
                }
                NodeKind::Branch { cond, .. } | NodeKind::Assume { cond, .. } => {
                    reads(cond) || cfg.succs(node).iter().any(|s| live[s.0 as usize])
                }
                NodeKind::Skip { .. } => cfg.succs(node).iter().any(|s| live[s.0 as usize]),
            };
            if inn != live[v] {
                live[v] = inn;
                changed = true;
            }
        }
        for (i, p) in cfg.procs.iter().enumerate() {
            let l = live[p.entry.0 as usize];
            if l != entry_live[i] {
                entry_live[i] = l;
                changed = true;
            }
        }
    }
    entry_live
        .iter()
        .zip(&must)
        .map(|(l, m)| !l && *m)
        .collect()
}
