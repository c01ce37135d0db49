//! Abstract domains for the tabulation engine: the small [`Lattice`]-like contract the
//! engine relies on ([`RelDomain`]), and its implementations. A domain element ("fact") is
//! one *disjunct* of a path edge: a set of pairs (values at the procedure's entry, current
//! values) — paper §4, "path edges". The engine keeps the disjunction of facts per node and
//! propagates each fact once (semi-naive).

use crate::cfg::Cfg;
use crate::ids::{NodeId, ProcId, VarId};
use crate::linear::{Dim, Q};

/// How a fact moved along a chain at a widening point: for each linear form of its
/// constraints, the amount both its bounds moved by (forms that stayed put are left out).
/// Two steps of a counting loop (`i = 0`, `i = 1`, `i = 2`) give equal shifts.
pub type Shift = Vec<(Vec<(Dim, Q)>, Q)>;

/// A relational domain over a CFG (paper §4). All methods are pure functions of their
/// arguments and the CFG given at construction, except for statistics counters.
///
/// Laws the engine relies on (for every fact `f`, node `n`):
/// - **Soundness of transfer**: `post(f, n, i)` over-approximates the states reached along
///   the `i`-th successor edge of `n` from the states of `f` (the rules α, β+, β− of §4).
/// - **Entailment is sound**: `entailed(f, gs) == true` only if every pair of valuations in
///   `f` is in some `g ∈ gs`. (It need not be complete, but a complete check makes the
///   engine converge more often.)
/// - **Bottom**: facts returned by the transfer functions are never known-empty (the domain
///   drops them).
/// - **Calls** (RHS tabulation with summary edges): `call_entry` gives the callee's entry
///   facts (entry values = current values, bound from the caller's actuals and globals;
///   callee locals arbitrary); `summarize` turns an exit fact into a summary (entry values
///   of the callee's globals and formals → exit values of the globals); `apply_summary`
///   composes a caller's fact at the call node with a summary into facts at the return
///   point (globals from the summary, the caller's locals restored).
pub trait RelDomain {
    /// One disjunct of a path edge (or of a summary).
    type Fact: Clone + std::fmt::Debug;

    /// The fact at `main`'s entry: entry values = current values, nothing else known.
    fn initial(&mut self, cfg: &Cfg) -> Self::Fact;

    /// The facts after executing node `n` from `f` and taking its `succ_index`-th successor
    /// (`Cfg::succs(n)[succ_index]`). Not called for `Call` and `Exit` nodes.
    fn post(&mut self, cfg: &Cfg, f: &Self::Fact, n: NodeId, succ_index: usize) -> Vec<Self::Fact>;

    /// Entry facts of the callee for fact `f` at call node `call`.
    fn call_entry(&mut self, cfg: &Cfg, f: &Self::Fact, call: NodeId) -> Vec<Self::Fact>;

    /// The summary of exit fact `f` of procedure `p`.
    fn summarize(&mut self, cfg: &Cfg, f: &Self::Fact, p: ProcId) -> Vec<Self::Fact>;

    /// Facts at the return point of `call` from caller fact `f` and callee summary `s`.
    fn apply_summary(
        &mut self,
        cfg: &Cfg,
        f: &Self::Fact,
        s: &Self::Fact,
        call: NodeId,
    ) -> Vec<Self::Fact>;

    /// Forget the values of `vars` (current copies), e.g. dead variables.
    fn forget(&mut self, f: &Self::Fact, vars: &[VarId]) -> Self::Fact;

    /// Forget both the entry and the current values of `vars` (variables whose value at
    /// a procedure's entry cannot matter). Default: keep `f` (always sound).
    fn forget_entry(&mut self, f: &Self::Fact, _vars: &[VarId]) -> Self::Fact {
        f.clone()
    }

    /// Constrain the value of the instantiated read `read` at node `n` (the read rule,
    /// through the ghost index): `f` with the read's temporary set to a cell value that
    /// the partner fact `g` (a fact at the same node) allows at the ghost index
    /// `read.index`. Default: the temporary is forgotten (any value; always sound).
    fn instantiate(
        &mut self,
        _cfg: &Cfg,
        f: &Self::Fact,
        _g: &Self::Fact,
        read: &crate::cfg::InstRead,
    ) -> Vec<Self::Fact> {
        vec![self.forget(f, &read.temps())]
    }

    /// Which group of partners fact `f` (a fact at node `n`, which has the instantiated
    /// read `read`) belongs to, when the read rule has too many facts at `n` to pair
    /// each with each: the engine then pairs every state with one cover per group (a
    /// join of the group's facts), which contains every partner of the group. Facts
    /// whose partners are told apart by the key keep what distinguishes them (`a_k ≤ 0`
    /// where `k < i`, nothing where `k ≥ i`). `None` (the default): no covers; the read
    /// is then `u`.
    fn partner_key(
        &mut self,
        _cfg: &Cfg,
        _n: NodeId,
        _read: &crate::cfg::InstRead,
        _f: &Self::Fact,
    ) -> Option<Vec<u8>> {
        None
    }

    /// The step from `old` to `new`, two facts on one chain at a widening point, when
    /// `new` is `old` translated: every constraint of one is a constraint of the other with
    /// both bounds moved by the same amount, and some moved. `None` otherwise (and by
    /// default).
    fn shift(&self, _old: &Self::Fact, _new: &Self::Fact) -> Option<Shift> {
        None
    }

    /// Whether `f` is included in the union of `gs`.
    fn entailed(&mut self, f: &Self::Fact, gs: &[&Self::Fact]) -> bool;

    /// The parts of fact `f` at widening point `n`, each with its partition cell: the
    /// engine widens a part only with an ancestor of the same cell (trace partitioning
    /// at widening points). The parts must cover `f`. Default: `f` itself, cell 0.
    fn split(&mut self, _cfg: &Cfg, _n: NodeId, f: &Self::Fact) -> Vec<(Self::Fact, u32)> {
        vec![(f.clone(), 0)]
    }

    /// Whether widening point `n` has a partition ([`RelDomain::split`] may give more than
    /// one cell there). Default: no.
    fn partitioned(&self, _n: NodeId) -> bool {
        false
    }

    /// How much of each other two facts keep in a join (higher: a closer partner for a
    /// merge past the disjunct bound). Default: 0 (no preference).
    fn affinity(&self, _a: &Self::Fact, _b: &Self::Fact) -> usize {
        0
    }

    /// A fact containing both `old` and `new` at widening point `n` (ideally their convex
    /// hull), or `None` if the domain cannot join (then the engine keeps `new`).
    fn join(
        &mut self,
        _cfg: &Cfg,
        _n: NodeId,
        _old: &Self::Fact,
        _new: &Self::Fact,
    ) -> Option<Self::Fact> {
        None
    }

    /// The widening of `old` by `new` at widening point `n`: a fact containing both, such
    /// that every chain `w₀ = f₀, wᵢ₊₁ = wᵢ ∇ fᵢ₊₁` with `refine == false` from some index on
    /// stabilises. `None` if the domain does not widen (then the engine keeps `new`).
    fn widen(
        &mut self,
        _cfg: &Cfg,
        _n: NodeId,
        _old: &Self::Fact,
        _new: &Self::Fact,
        _refine: bool,
    ) -> Option<Self::Fact> {
        None
    }
}

pub mod dlc;
pub mod encode;
#[cfg(test)]
mod tests;

pub use dlc::{assumes_no_overflow, cur_dim, entry_dim, may_falsify, split_atom};
#[cfg(any(test, feature = "internals"))]
pub use dlc::{Dlc, Entailment, Lattice};
pub use dlc::{DlcDomain, Fact};
