//! Refinement (paper §5): from an infeasible abstract trace and the unsat core of its SSA
//! form, the array cells to track next. A cell `a_k` is added for every array access in a
//! core step whose index is fixed to `k` by the core ([`crate::trace::fixed_read_indices`]),
//! provided `k` can be in range. Cells already tracked are not new; if nothing is new the
//! refinement makes no progress and the driver stops with UNKNOWN.

use crate::abstraction::Precision;
use crate::cfg::{Cfg, NodeKind};
use crate::ids::{ArrayId, NodeId};
use crate::limits::Deadline;
use crate::sema::ArraySize;
use crate::smt::{Logic, SmtConfig, SolverFactory};
use crate::trace::{self, Trace};
use std::collections::{BTreeMap, BTreeSet};

pub mod lessons;
mod terms;
mod widening;

pub use terms::{add_copy_term_cells, add_term_cells};

pub use widening::{
    add_new, ghost_splits, refine_widening, var_keys, Learnt, WideningLesson, MAX_DELAY,
    MAX_PARTNER_PATHS,
};

/// The outcome of one refinement step.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Refinement {
    /// These cells are new (already added to the precision).
    NewCells(Vec<(ArrayId, i64)>),
    /// These arrays got a symbolic cell (the core reads them at indices it does not fix).
    NewSymbolic(Vec<ArrayId>),
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

/// Only an array with more cells than this ([`ArraySize::Const`]) or of variable size gets
/// a symbolic cell: when the core reads it at indices it does not fix, or once it has
/// [`SYMBOLIC_AFTER_CELLS`] constant ones.
pub const SYMBOLIC_AFTER_SIZE: u64 = 64;

/// See [`SYMBOLIC_AFTER_SIZE`].
pub const SYMBOLIC_AFTER_CELLS: usize = 4;

/// Add the constant cells `fixed` (accesses an unsat core pins down) to the precision;
/// `None` if none is new. A large or variable-size array whose constant cells keep growing
/// (a loop over a symbolic bound enumerates them one by one) gets a symbolic cell instead.
pub fn add_cells(
    cfg: &Cfg,
    fixed: Vec<(ArrayId, i64)>,
    precision: &mut Precision,
) -> Option<Refinement> {
    let new: Vec<(ArrayId, i64)> = fixed
        .into_iter()
        .filter(|(a, k)| cell_in_range(cfg, *a, *k))
        // An array with a symbolic cell gets no more constant ones.
        .filter(|(a, k)| !precision.is_symbolic(*a) && precision.add(*a, *k))
        .collect();
    if new.is_empty() {
        return None;
    }
    let grow: Vec<ArrayId> = new
        .iter()
        .map(|(a, _)| *a)
        .filter(|a| large_array(cfg, *a) && precision.cells_of(*a) >= SYMBOLIC_AFTER_CELLS)
        .collect();
    let sym: Vec<ArrayId> = grow
        .into_iter()
        .filter(|a| precision.add_symbolic(*a))
        .collect();
    if !sym.is_empty() {
        // The symbolic cell covers every cell: the enumerated ones only add disjuncts.
        for a in &sym {
            precision.drop_cells(*a);
        }
        return Some(Refinement::NewSymbolic(sym));
    }
    Some(Refinement::NewCells(new))
}

/// The constant cells fixed by the core of the infeasible trace `t`, added to `precision`:
/// the reads' first (the paper's refinement); if they are all tracked already, the
/// writes' too. `None` if none is new; [`Refinement::Failed`] if the solver could not
/// answer.
pub fn constant_cells(
    cfg: &Cfg,
    t: &Trace,
    core: &[usize],
    precision: &mut Precision,
    solvers: &dyn SolverFactory,
    deadline: &Deadline,
) -> Option<Refinement> {
    let config = SmtConfig::new(Logic::QfAlia).with_models(true);
    let mut smt = match solvers.make(config, deadline) {
        Ok(s) => s,
        Err(e) => {
            return Some(Refinement::Failed(format!(
                "cannot start the SMT solver: {e}"
            )))
        }
    };
    for include_writes in [false, true] {
        let fixed = match trace::fixed_indices(cfg, t, core, include_writes, smt.as_mut()) {
            Ok(f) => f,
            Err(e) => return Some(Refinement::Failed(format!("refinement failed: {e}"))),
        };
        if let Some(r) = add_cells(cfg, fixed, precision) {
            return Some(r);
        }
    }
    None
}

/// When no constant cell is new: a symbolic cell for every array read in a core step of
/// the infeasible trace `t`, or read by a step that the trace's loop-free end depends on
/// (whose reads the abstraction made `u`, while the core may blame a widened loop count
/// instead), that has none yet; [`Refinement::NoProgress`] if there is none.
pub fn symbolic_cells(
    cfg: &Cfg,
    t: &Trace,
    core: &[usize],
    precision: &mut Precision,
) -> Refinement {
    let steps: Vec<usize> = core.iter().copied().chain(deciding_steps(cfg, t)).collect();
    add_symbolic(cfg, t, &steps, precision).unwrap_or(Refinement::NoProgress)
}

/// When nothing else makes progress: a symbolic cell for the small arrays too that the
/// core of trace `t` (or its loop-free end) reads, at indices it does not fix (a check at
/// an arbitrary index), which their constant cells cannot cover.
pub fn add_symbolic_small(
    cfg: &Cfg,
    t: &Trace,
    core: &[usize],
    precision: &mut Precision,
) -> Option<Refinement> {
    let steps: Vec<usize> = core.iter().copied().chain(deciding_steps(cfg, t)).collect();
    add_symbolic_of(cfg, t, &steps, precision, |_| true)
}

/// A symbolic cell for every large array read at the steps `steps` of trace `t`, and for
/// the arrays whose values flow into those (a copy `b[i] = a[i]`), that has none yet;
/// `None` if none is new.
pub fn add_symbolic(
    cfg: &Cfg,
    t: &Trace,
    steps: &[usize],
    precision: &mut Precision,
) -> Option<Refinement> {
    // Small arrays are refined by their constant cells (EUREKA's way) first.
    add_symbolic_of(cfg, t, steps, precision, |a| large_array(cfg, a))
}

/// [`add_symbolic`] for the arrays that `eligible` accepts.
fn add_symbolic_of(
    cfg: &Cfg,
    t: &Trace,
    steps: &[usize],
    precision: &mut Precision,
    eligible: impl Fn(ArrayId) -> bool,
) -> Option<Refinement> {
    let mut sym = Vec::new();
    for &i in steps {
        let Some(&n) = t.path.get(i) else { continue };
        let mut reads = |e: &crate::sema::Expr| {
            e.visit(&mut |x| {
                if let crate::sema::Expr::Read(a, _) = x {
                    if !sym.contains(a) {
                        sym.push(*a);
                    }
                }
            })
        };
        match &cfg.nodes[n].kind {
            NodeKind::Assign { rhs, .. } => rhs.iter().for_each(&mut reads),
            NodeKind::Call { args, .. } => args.iter().for_each(&mut reads),
            NodeKind::Branch { cond, .. } | NodeKind::Assume { cond, .. } => reads(cond),
            _ => {}
        }
    }
    let mut i = 0;
    while i < sym.len() {
        for a in flows_into(cfg, sym[i]) {
            if !sym.contains(&a) {
                sym.push(a);
            }
        }
        i += 1;
    }
    sym.retain(|a| eligible(*a));
    let new: Vec<ArrayId> = sym
        .into_iter()
        .filter(|a| precision.add_symbolic(*a))
        .collect();
    if new.is_empty() {
        return None;
    }
    // The symbolic cell stands for every cell; the constant ones would only multiply
    // the disjuncts.
    for a in &new {
        precision.drop_cells(*a);
    }
    Some(Refinement::NewSymbolic(new))
}

/// The steps of trace `t` whose values decide its loop-free end: the conditions
/// (branches and assumptions) after the last step at a node the trace visits more than
/// once, and, backwards through the trace, the assignments, parameter bindings and array
/// writes whose values flow into them, with the branch that chose such an assignment when
/// it comes right after one. A loop's count cannot explain why that end reaches the error:
/// the values it reads can.
fn deciding_steps(cfg: &Cfg, t: &Trace) -> Vec<usize> {
    use crate::ids::VarId;
    use crate::sema::Expr;
    let mut visits: BTreeMap<NodeId, usize> = BTreeMap::new();
    for n in &t.path {
        *visits.entry(*n).or_default() += 1;
    }
    let tail = t
        .path
        .iter()
        .rposition(|n| visits[n] > 1)
        .map_or(0, |i| i + 1);
    let mut vars: BTreeSet<VarId> = BTreeSet::new();
    let mut arrays: BTreeSet<ArrayId> = BTreeSet::new();
    let uses =
        |e: &Expr, vars: &mut BTreeSet<VarId>, arrays: &mut BTreeSet<ArrayId>| e.uses(vars, arrays);
    let mut out = Vec::new();
    // Whether the step before is a branch that chose the deciding assignment after it
    // (`if (c) f = 0;`): its condition decides too (control dependence).
    let mut chose = false;
    for (i, n) in t.path.iter().enumerate().rev() {
        let Some(node) = cfg.nodes.get(*n) else {
            continue;
        };
        let control = std::mem::take(&mut chose);
        let decides = match &node.kind {
            NodeKind::Branch { cond, .. } | NodeKind::Assume { cond, .. }
                if i >= tail || (control && matches!(node.kind, NodeKind::Branch { .. })) =>
            {
                uses(cond, &mut vars, &mut arrays);
                true
            }
            NodeKind::Assign { lhs, rhs, .. } => {
                let hit: Vec<usize> = (0..lhs.len()).filter(|j| vars.contains(&lhs[*j])).collect();
                for j in &hit {
                    vars.remove(&lhs[*j]);
                }
                for j in &hit {
                    uses(&rhs[*j], &mut vars, &mut arrays);
                }
                chose = !hit.is_empty();
                !hit.is_empty()
            }
            NodeKind::Call { proc, args, .. } => {
                let formals = &cfg.procs[*proc].formals;
                let hit: Vec<usize> = (0..formals.len().min(args.len()))
                    .filter(|j| vars.contains(&formals[*j]))
                    .collect();
                for j in &hit {
                    uses(&args[*j], &mut vars, &mut arrays);
                }
                !hit.is_empty()
            }
            NodeKind::ArrayWrite {
                array,
                index,
                value,
                ..
            } if arrays.contains(array) => {
                uses(index, &mut vars, &mut arrays);
                uses(value, &mut vars, &mut arrays);
                true
            }
            _ => false,
        };
        if decides {
            out.push(i);
        }
    }
    out
}

/// Whether `a` has more than [`SYMBOLIC_AFTER_SIZE`] cells or a variable size: only such
/// arrays get symbolic cells.
fn large_array(cfg: &Cfg, a: ArrayId) -> bool {
    match cfg.arrays[a].size {
        ArraySize::Const(n) => n > SYMBOLIC_AFTER_SIZE,
        ArraySize::Dynamic(_) => true,
    }
}

/// The arrays read by the values written into array `b`.
fn flows_into(cfg: &Cfg, b: ArrayId) -> Vec<ArrayId> {
    let mut out = Vec::new();
    for node in cfg.nodes.iter() {
        if let NodeKind::ArrayWrite { array, value, .. } = &node.kind {
            if *array == b {
                value.visit(&mut |x| {
                    if let crate::sema::Expr::Read(a, _) = x {
                        if !out.contains(a) {
                            out.push(*a);
                        }
                    }
                });
            }
        }
    }
    out
}

/// Variables to keep where they are dead, learnt from the unsat core of an infeasible
/// trace of the abstraction `phat` (whose nodes are the trace's): the index variables of
/// an instantiated read in the core that are dead at a later instantiated read in the
/// core. There the read rule pairs the state with a partner that agrees on the live
/// variables only, so a partner of another run (another `lo` in `m = a[lo]; j = lo;
/// assert(m <= a[j])`) gives the later read a value the state's own run excludes. Kept
/// live, the variable tells the runs apart. The variables not in `keep` already.
pub fn stale_partner_vars(
    phat: &Cfg,
    t: &Trace,
    core: &[usize],
    keep: &BTreeSet<crate::ids::VarId>,
) -> BTreeSet<crate::ids::VarId> {
    let reads: Vec<NodeId> = core
        .iter()
        .filter_map(|&i| t.path.get(i).copied())
        .filter(|n| phat.inst_reads.contains_key(n))
        .collect();
    let mut out = BTreeSet::new();
    if reads.len() < 2 {
        return out;
    }
    let live = crate::engine::live_vars(phat, keep);
    for (i, n) in reads.iter().enumerate() {
        let index_vars = phat.inst_reads[n].index.vars();
        for later in &reads[i + 1..] {
            let scope = phat.in_scope(*later);
            // A kept variable is live at every read in its scope: never new here.
            out.extend(
                index_vars
                    .iter()
                    .filter(|v| scope.contains(v) && !live[*later].contains(v)),
            );
        }
    }
    out
}
