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

#[cfg(test)]
mod tests {
    use crate::frontend::{load_with, LoadOptions, Property};
    use crate::interp::{run, ListOracle, Outcome};

    fn outcome(src: &str, property: Property, inputs: &[i64]) -> Outcome {
        let opts = LoadOptions {
            property,
            ..LoadOptions::default()
        };
        let l = load_with(crate::diag::SourceFile::new("t.c", src), &opts).expect("loads");
        let inputs = inputs.iter().map(|i| (*i).into()).collect();
        run(
            &l.cfg,
            &mut ListOracle::new(inputs),
            Default::default(),
            false,
        )
        .outcome
    }

    #[test]
    fn a_property_counts_only_its_own_errors() {
        let src = "extern int __VERIFIER_nondet_int(void);\n\
                   void reach_error(void);\n\
                   int main() { int a[4]; int x = __VERIFIER_nondet_int();\n\
                   if (x == 7) reach_error();\n\
                   if (x == 8) { int y = x + 2147483647; }\n\
                   if (x == 9) a[x] = 1;\n\
                   return 0; }";
        use Property::*;
        let err = |o: &Outcome| matches!(o, Outcome::Error { .. });
        // x = 7: only unreach-call sees an error.
        assert!(err(&outcome(src, UnreachCall, &[7])));
        assert!(!err(&outcome(src, NoOverflow, &[7])));
        assert!(!err(&outcome(src, ValidMemsafety, &[7])));
        // x = 8: the overflow is an error only under no-overflow.
        assert!(err(&outcome(src, NoOverflow, &[8])));
        assert!(!err(&outcome(src, UnreachCall, &[8])));
        assert!(!err(&outcome(src, ValidMemsafety, &[8])));
        // x = 9: the write out of bounds is an error only under valid-memsafety.
        assert!(err(&outcome(src, ValidMemsafety, &[9])));
        assert!(!err(&outcome(src, UnreachCall, &[9])));
        assert!(!err(&outcome(src, NoOverflow, &[9])));
    }
}
