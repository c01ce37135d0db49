//! Provenance: every fact records how it was derived ([`Origin`]), so a fact unfolds into
//! the interprocedural path along which it was derived (for the trace check), and into
//! the derivations of the read rule's partners that path used.

use super::{FactId, FactRec, Origin, Tabulation};
use crate::cfg::ERROR_NODE;
use crate::ids::NodeId;

impl<F> Tabulation<F> {
    /// The record of a fact.
    pub fn fact(&self, id: FactId) -> &FactRec<F> {
        &self.facts[id.0 as usize]
    }

    /// The interprocedural path (CFG nodes from `main`'s entry) along which fact `id` was
    /// derived, ending at its node. For a fact at the error node the path ends at the node
    /// before it, as a [`crate::interp::Run`]'s path does.
    pub fn trace(&self, id: FactId) -> Vec<NodeId> {
        self.path_facts(id)
            .into_iter()
            .map(|f| self.fact(f).node)
            .filter(|n| *n != ERROR_NODE)
            .collect()
    }

    /// The facts along the derivation of `id`, one per step of its path (as
    /// [`Tabulation::trace`], but with the error fact itself at the end if `id` is one).
    pub fn path_facts(&self, id: FactId) -> Vec<FactId> {
        // Unfold the provenance backwards with an explicit stack (traces can be long),
        // collecting the facts in reverse.
        let mut rev = Vec::new();
        let mut stack = vec![id];
        while let Some(f) = stack.pop() {
            rev.push(f);
            match self.fact(f).origin {
                Origin::Init => {}
                Origin::Step { pred } | Origin::Inst { pred, .. } => stack.push(pred),
                Origin::CallEntry { caller } => stack.push(caller),
                Origin::Return { call, exit } => {
                    // path(call) ++ inner(exit) ++ [ret_point]: emit the callee's part from
                    // its exit back to its entry, then continue with the caller.
                    stack.push(call);
                    self.inner(exit, &mut rev);
                }
            }
        }
        rev.reverse();
        rev
    }

    /// The derivations of the read rule's partners ([`Origin::Inst`]) that the path of
    /// `id` used, and of the partners those used in turn (at most `limit`), each as
    /// [`Tabulation::path_facts`] gives it. A spurious path may owe its read value to an
    /// imprecise partner: its widened facts are to refine too.
    pub fn partner_paths(&self, id: FactId, limit: usize) -> Vec<Vec<FactId>> {
        let mut seen = std::collections::BTreeSet::new();
        let mut out = Vec::new();
        let mut work = vec![self.path_facts(id)];
        while let Some(path) = work.pop() {
            for f in &path {
                if let Origin::Inst { partner, .. } = self.fact(*f).origin {
                    if out.len() < limit && seen.insert(partner) {
                        let p = self.path_facts(partner);
                        out.push(p.clone());
                        work.push(p);
                    }
                }
            }
        }
        out
    }

    /// Push (in reverse) the facts of the path of fact `id` inside its procedure, from the
    /// procedure's entry, stopping at the entry fact.
    fn inner(&self, id: FactId, rev: &mut Vec<FactId>) {
        let mut work = vec![id];
        while let Some(f) = work.pop() {
            rev.push(f);
            match self.fact(f).origin {
                Origin::Init | Origin::CallEntry { .. } => {}
                Origin::Step { pred } | Origin::Inst { pred, .. } => work.push(pred),
                Origin::Return { call, exit } => {
                    // Reverse order: this procedure's part before the call comes after the
                    // callee's part in `rev`.
                    work.push(call);
                    self.inner(exit, rev);
                }
            }
        }
    }
}
