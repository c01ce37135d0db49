//! Refinement (paper §5): from an infeasible abstract trace and the unsat core of its SSA
//! form, the array cells to track next. A cell `a_k` is added for every array access in a
//! core step whose index is fixed to `k` by the core ([`crate::trace::fixed_read_indices`]),
//! provided `k` can be in range. Cells already tracked are not new; if nothing is new the
//! refinement makes no progress and the driver stops with UNKNOWN.

use crate::abstraction::Precision;
use crate::cfg::Cfg;
use crate::ids::ArrayId;
use crate::limits::Deadline;
use crate::sema::ArraySize;
use crate::smt::{Logic, SmtConfig, SolverFactory};
use crate::trace::{self, Trace};

/// The outcome of one refinement step.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Refinement {
    /// These cells are new (already added to the precision).
    NewCells(Vec<(ArrayId, i64)>),
    /// The core fixes no index that is not tracked already.
    NoProgress,
    /// The solver could not answer.
    Failed(String),
}

/// Whether cell `k` of `a` can exist: `0 <= k < size` for a fixed size; `k >= 0` for a
/// variable-length array (the abstraction guards its cells with `k < size`).
pub fn cell_in_range(cfg: &Cfg, a: ArrayId, k: i64) -> bool {
    match cfg.arrays[a].size {
        ArraySize::Const(n) => k >= 0 && (k as u64) < n,
        ArraySize::Dynamic(_) => k >= 0,
    }
}

/// Refine `precision` with the cells fixed by the core of the infeasible trace `t`.
pub fn refine(
    cfg: &Cfg,
    t: &Trace,
    core: &[usize],
    precision: &mut Precision,
    solvers: &dyn SolverFactory,
    deadline: &Deadline,
) -> Refinement {
    let config = SmtConfig::new(Logic::QfAlia).with_models(true);
    let mut smt = match solvers.make(config, deadline) {
        Ok(s) => s,
        Err(e) => return Refinement::Failed(format!("cannot start the SMT solver: {e}")),
    };
    // Cells for the reads first (the paper's refinement); if they are all tracked
    // already, cells for the writes too.
    for include_writes in [false, true] {
        let fixed = match trace::fixed_indices(cfg, t, core, include_writes, smt.as_mut()) {
            Ok(f) => f,
            Err(e) => return Refinement::Failed(format!("refinement failed: {e}")),
        };
        let new: Vec<(ArrayId, i64)> = fixed
            .into_iter()
            .filter(|(a, k)| cell_in_range(cfg, *a, *k))
            .filter(|(a, k)| precision.add(*a, *k))
            .collect();
        if !new.is_empty() {
            return Refinement::NewCells(new);
        }
    }
    Refinement::NoProgress
}
