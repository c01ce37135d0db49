//! Live variables per node (intraprocedural backward dataflow). Globals are always live
//! (procedures may read them); a fact forgets the dead locals of its node, which keeps
//! path edges small and lets entailment succeed (forgetting a dead variable changes no
//! reachable node).

use crate::cfg::{Cfg, NodeKind};
use crate::ids::{IndexVec, NodeId, VarId};
use crate::sema::Expr;
use std::collections::BTreeSet;

/// The variables live at the start of each node.
pub fn live_vars(cfg: &Cfg) -> IndexVec<NodeId, BTreeSet<VarId>> {
    let n = cfg.nodes.len();
    let globals: BTreeSet<VarId> = cfg.globals.iter().copied().collect();
    let mut live: Vec<BTreeSet<VarId>> = vec![globals.clone(); n];
    // Intraprocedural successors (a call continues at its return point).
    let succ = |v: NodeId| -> Vec<NodeId> {
        match &cfg.nodes[v].kind {
            NodeKind::Call { ret_point, .. } => vec![*ret_point],
            NodeKind::Exit => vec![],
            _ => cfg.succs(v),
        }
    };
    let uses = |e: &Expr, out: &mut BTreeSet<VarId>| out.extend(e.vars());
    let mut changed = true;
    while changed {
        changed = false;
        for v in (0..n).rev() {
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
                NodeKind::Branch { cond, .. } | NodeKind::Assume { cond, .. } => {
                    uses(cond, &mut inn)
                }
                NodeKind::Call { args, .. } => args.iter().for_each(|e| uses(e, &mut inn)),
                NodeKind::Error | NodeKind::Skip { .. } | NodeKind::Exit | NodeKind::Stop => {}
            }
            // Array sizes of VLAs are read by every access; keep them live.
            for (a, info) in cfg.arrays.iter_enumerated() {
                let _ = a;
                if let crate::sema::ArraySize::Dynamic(sv) = info.size {
                    if cfg.nodes[node].proc == info.proc {
                        inn.insert(sv);
                    }
                }
            }
            if inn != live[v] {
                live[v] = inn;
                changed = true;
            }
        }
    }
    IndexVec::from_raw(live)
}
