//! Reps–Horwitz–Sagiv tabulation with summary edges (paper §4, plus the summary edges the
//! paper leaves out), generic over a [`RelDomain`]. Each node holds a disjunction of facts
//! (path edges); each fact is propagated once (semi-naive), in a deterministic order
//! (reverse post-order of the supergraph, then creation order). Every fact records how it
//! was derived, so a fact at the error node unfolds into a concrete interprocedural trace.

mod budget;
mod order;
mod points;
mod provenance;
mod read;
#[cfg(test)]
mod tests;
mod widen;
mod worklist;

use crate::cfg::Cfg;
use crate::domain::RelDomain;
use crate::ids::{IndexVec, NodeId, ProcId};
use std::collections::BTreeMap;
use std::time::Duration;
use worklist::Engine;

pub use crate::cfg::{live_vars, ret_dead_at_entry};
pub use budget::{Budget, StopReason, Widening};
pub use points::{PointKind, Points};

/// Index of a fact in the engine's arena.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct FactId(pub u32);

/// How a fact was derived.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Origin {
    /// The initial fact at `main`'s entry.
    Init,
    /// By the transfer of the predecessor fact's node.
    Step {
        /// The fact it came from.
        pred: FactId,
    },
    /// By the transfer of an instantiated read's node (the read rule): the predecessor
    /// fact with the read's value constrained by a partner fact at the same node.
    Inst {
        /// The fact it came from.
        pred: FactId,
        /// The partner whose instance constrained the read.
        partner: FactId,
    },
    /// A callee's entry fact, from a caller's fact at a call node.
    CallEntry {
        /// The caller's fact at the call node.
        caller: FactId,
    },
    /// A return-point fact: the caller's fact at the call node composed with a summary.
    Return {
        /// The caller's fact at the call node.
        call: FactId,
        /// The callee's exit fact the summary was made from.
        exit: FactId,
    },
}

/// A fact with its node and provenance.
#[derive(Clone, Debug)]
pub struct FactRec<F> {
    /// The node whose path edges it belongs to.
    pub node: NodeId,
    /// The fact.
    pub fact: F,
    /// How it was derived.
    pub origin: Origin,
    /// At a widening point: how many facts at the same node precede it on its chain
    /// (its ancestors, see [`Points`]); 0 elsewhere.
    pub depth: u32,
    /// Whether widening or a hull merge enlarged it beyond what its derivation gives.
    pub widened: bool,
    /// Its partition cell at a widening point ([`RelDomain::split`]); 0 elsewhere.
    pub cell: u32,
}

/// Facts at a node with an instantiated read beyond which the read rule's pairing
/// (quadratic in the facts there) gives way to an unconstrained read.
pub const MAX_INST_FACTS: usize = 256;

/// Equal shifts in a row after which a chain of facts at a widening point shows no sign of
/// converging ([`Widening::on_divergence`]).
pub const DIVERGING_SHIFTS: u32 = 3;

/// Visits of a widening point along a chain before the engine widens there.
pub const DEFAULT_DELAY: u32 = 3;

/// Disjuncts at a widening point beyond which new facts are merged (by convex hull) with
/// their ancestor.
pub const DEFAULT_MAX_DISJUNCTS: usize = 12;

/// For this many widenings after the delay, a widening point uses the H79 refinement
/// (hull constraints that replace dropped ones); afterwards the plain standard widening,
/// which guarantees that every chain stabilises.
pub const REFINED_WIDENINGS: u32 = 8;

/// What the engine did at one widening point.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PointStats {
    /// Widenings applied.
    pub widenings: u32,
    /// Hull merges (the disjunct bound was reached).
    pub merges: u32,
    /// The longest chain of facts seen there.
    pub max_depth: u32,
}

/// Counters of one tabulation.
#[derive(Clone, Debug, Default)]
pub struct EngineStats {
    /// Facts taken from the worklist.
    pub steps: u64,
    /// Facts kept (path edges).
    pub facts: u64,
    /// Summary facts kept.
    pub summaries: u64,
    /// Candidate facts dropped because already entailed.
    pub entailed: u64,
    /// Facts the candidates were compared with in entailment checks (the work that grows
    /// with the disjuncts at a node).
    pub comparisons: u64,
    /// Per widening point that saw a fact: what widening did there.
    pub points: BTreeMap<NodeId, PointStats>,
    /// Time spent.
    pub time: Duration,
}

/// The result of a tabulation.
#[derive(Clone, Debug)]
pub struct Tabulation<F> {
    /// All facts.
    pub facts: Vec<FactRec<F>>,
    /// The facts of each node.
    pub at_node: IndexVec<NodeId, Vec<FactId>>,
    /// Summary facts per procedure, with the exit fact each came from.
    pub summaries: IndexVec<ProcId, Vec<(F, FactId)>>,
    /// Why it stopped.
    pub stop: StopReason,
    /// Counters.
    pub stats: EngineStats,
}

/// Tabulate `cfg` (which must be array-free: an abstraction P̂) with domain `dom`.
pub fn tabulate<D: RelDomain>(cfg: &Cfg, dom: &mut D, budget: Budget) -> Tabulation<D::Fact> {
    Engine::new(cfg, dom, budget).run()
}
