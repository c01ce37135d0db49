//! The limits of one tabulation: its budgets ([`Budget`]), why it stopped
//! ([`StopReason`]), and the widening policy ([`Widening`]).

use super::{FactId, DEFAULT_DELAY, DEFAULT_MAX_DISJUNCTS};
use crate::ids::{NodeId, VarId};
use crate::limits::{Deadline, Exhausted};
use std::collections::{BTreeMap, BTreeSet};
use std::time::Duration;

/// Why the tabulation stopped. Running out of a budget is a value, not an error.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StopReason {
    /// A fixpoint: no error node is reachable in the (abstract) program.
    Converged,
    /// A fact reached the error node.
    ErrorReached(FactId),
    /// The step budget ran out.
    StepLimit,
    /// The fact budget ran out.
    FactLimit,
    /// The deadline's time or memory limit ran out (or it was cancelled).
    Exhausted(Exhausted),
}

/// Budgets of one tabulation, with documented defaults.
#[derive(Clone, Debug)]
pub struct Budget {
    /// Maximum number of facts processed (default 200 000).
    pub max_steps: u64,
    /// Maximum number of facts kept (default 100 000).
    pub max_facts: usize,
    /// The time and memory limit (default none). The engine polls it before every step
    /// and inside long steps, and never reports convergence once it has expired (the
    /// domain may have cut its work short).
    pub deadline: Deadline,
    /// Where and when to widen (default: at every widening point after
    /// [`DEFAULT_DELAY`] visits).
    pub widening: Widening,
    /// Variables kept wherever an instantiated read in their scope may follow, even where
    /// dead ([`super::live_vars`]).
    pub keep_live: BTreeSet<VarId>,
}

impl Default for Budget {
    fn default() -> Self {
        Budget {
            max_steps: 200_000,
            max_facts: 100_000,
            deadline: Deadline::none(),
            widening: Widening::default(),
            keep_live: BTreeSet::new(),
        }
    }
}

impl Budget {
    /// Set the deadline `d` from now.
    pub fn with_timeout(mut self, d: Duration) -> Self {
        self.deadline = Deadline::after(d);
        self
    }
}

/// The widening policy of one tabulation. Widening only adds states: a fact is replaced
/// by one that contains it.
#[derive(Clone, Debug)]
pub struct Widening {
    /// Whether to widen at all (off: EUREKA's exact tabulation).
    pub enabled: bool,
    /// The delay at points without an entry in `delays`.
    pub delay: u32,
    /// Per-point delays (raised by the refinement of the widening).
    pub delays: BTreeMap<NodeId, u32>,
    /// The disjunct bound per widening point.
    pub max_disjuncts: usize,
    /// Per-point disjunct bounds (raised by the refinement of the widening).
    pub disjunct_bounds: BTreeMap<NodeId, usize>,
    /// Partitioned loop heads (with partition atoms, [`crate::domain::RelDomain::split`])
    /// that keep disjuncts per partition cell. Every other one keeps one growing fact per
    /// cell: a new part is joined with the cell's fact instead of starting a disjunct of
    /// its own (the partition is what stays disjunctive; the facts inside a cell would
    /// otherwise multiply with every path into the loop). The refinement of the widening
    /// sends a point here when a spurious trace went through its merged facts and nothing
    /// better was learnt.
    pub disjunctive: BTreeSet<NodeId>,
    /// Widen at a widening point only once its chain of facts shows no sign of
    /// converging: it has moved by the same shift [`super::DIVERGING_SHIFTS`] times in a row (a
    /// loop counting towards a far bound, a recursion descending step by step). Elsewhere
    /// the tabulation stays exact (as with `enabled` off), so loops that end soon are
    /// unrolled. The delays still apply, counted along the chain.
    pub on_divergence: bool,
    /// With `on_divergence`: points that stay exact even when their chains diverge (a
    /// spurious trace went through facts widened there, and the refinement chose to
    /// unroll instead).
    pub exact_at: BTreeSet<NodeId>,
}

impl Default for Widening {
    fn default() -> Self {
        Widening {
            enabled: true,
            delay: DEFAULT_DELAY,
            delays: BTreeMap::new(),
            max_disjuncts: DEFAULT_MAX_DISJUNCTS,
            disjunct_bounds: BTreeMap::new(),
            disjunctive: BTreeSet::new(),
            on_divergence: false,
            exact_at: BTreeSet::new(),
        }
    }
}

impl Widening {
    /// No widening: the exact tabulation.
    pub fn off() -> Widening {
        Widening {
            enabled: false,
            ..Widening::default()
        }
    }

    /// The delay at `n`.
    pub fn delay_at(&self, n: NodeId) -> u32 {
        self.delays.get(&n).copied().unwrap_or(self.delay)
    }

    /// The disjunct bound at `n`.
    pub fn disjunct_bound_at(&self, n: NodeId) -> usize {
        self.disjunct_bounds
            .get(&n)
            .copied()
            .unwrap_or(self.max_disjuncts)
    }

    /// Whether `n`, if it is a partitioned loop head, keeps one fact per partition cell.
    pub fn merges_cells_at(&self, n: NodeId) -> bool {
        !self.disjunctive.contains(&n)
    }
}
