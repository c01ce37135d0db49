//! Disjunctive linear constraints (paper §4): a [`Dlc`] is a set of conjunctions over two
//! copies of the variables, entry values `x` and current values `x'`. Entailment
//! `D1 ⊑ D2` is complete: cheap sufficient checks first (each disjunct of D1 inside one
//! disjunct of D2, decided exactly), then `D1 ∧ ¬D2` unsat, asked of cvc5 in QF_LRA.
//! [`DlcDomain`] implements the engine's [`crate::domain::RelDomain`] with the transfer
//! relations α, β+ and β− of §4 (one fact = one conjunction).
//!
//! This file holds the dimensions of a variable, the domain's state and its projection.
//! The parts:
//! - `fact`: a disjunct with its congruences (the reduced product with Granger's
//!   congruences, on when the program tests a residue: [`DlcDomain::congruences`]);
//! - `entail`: entailment ([`Entailment`]) and the disjunct set (`Dlc`);
//! - `presolve`: integer-exact equality propagation before projection ([`int_presolve`]);
//! - `bind`: expressions evaluated in a fact (fresh dimensions bound to their values);
//! - `thresholds`: the widening thresholds and the partition atoms ([`split_atom`]);
//! - `read`: the read rule (a cell read through the ghost index, one or two ghosts);
//! - `transfer`: the [`crate::domain::RelDomain`] implementation.

mod bind;
mod entail;
mod fact;
mod presolve;
mod read;
mod thresholds;
mod transfer;

pub use bind::{assumes_no_overflow, may_falsify};
pub use entail::Entailment;
#[cfg(any(test, feature = "internals"))]
pub use entail::{Dlc, Lattice};
use fact::Congs;
pub use fact::Fact;
pub use presolve::int_presolve;
pub use thresholds::split_atom;

use crate::cfg::Cfg;
use crate::domain::encode::Fresh;
use crate::ids::{NodeId, ProcId, VarId};
use crate::limits::Deadline;
use crate::linear::{Conj, Constraint, Dim, Q};
use crate::smt::Solvers;
use std::collections::BTreeMap;

/// The dimension of the entry value of `v`.
pub fn entry_dim(v: VarId) -> Dim {
    Dim(2 * v.0)
}

/// The dimension of the current value of `v`.
pub fn cur_dim(v: VarId) -> Dim {
    Dim(2 * v.0 + 1)
}

/// Counters of the DLC domain.
#[derive(Clone, Debug, Default)]
pub struct DlcStats {
    /// Transfer functions computed.
    pub transfers: u64,
    /// Fourier–Motzkin projections.
    pub projections: u64,
    /// Candidate disjuncts found empty.
    pub empty: u64,
    /// Widenings computed.
    pub widenings: u64,
    /// Convex hulls computed (merges at the disjunct bound).
    pub hulls: u64,
}

/// The DLC domain for the tabulation engine: a fact is one conjunction over entry and
/// current dimensions ([`entry_dim`], [`cur_dim`]).
///
/// Its long loops poll the deadline. Past it, they cut their work short (dropping cases
/// or rows): the results are then meaningless, and the engine, which checks the same
/// deadline before it concludes anything, answers with a timeout.
#[derive(Default)]
pub struct DlcDomain {
    /// Entailment decisions.
    pub entail: Entailment,
    /// Counters.
    pub stats: DlcStats,
    deadline: Deadline,
    /// Widening thresholds learnt by refinement, per widening point (over the point's
    /// entry and current dimensions).
    pub learnt: BTreeMap<NodeId, Vec<Constraint>>,
    /// Partition atoms learnt by refinement, per widening point (each `e ≤ 0`, see
    /// [`split_atom`]): facts there are split by each atom's truth.
    pub splits: BTreeMap<NodeId, Vec<Constraint>>,
    /// The thresholds of each procedure from its guards (computed on first use).
    guards: BTreeMap<ProcId, Vec<Constraint>>,
    /// Whether facts carry congruences (see `fact`). Off, every fact's congruences stay
    /// empty and the domain is the plain DLC.
    pub congruences: bool,
    /// Residues to split facts by at the widening points of a procedure (`None`: the
    /// global code): a dimension, a modulus (2 to 15) and the procedure; at most four
    /// (see `split`).
    pub residues: Vec<(Dim, u32, Option<ProcId>)>,
}

impl DlcDomain {
    /// A domain whose exact entailment checks use solvers from `solvers`, and whose work
    /// stops at `deadline`.
    pub fn new(solvers: Solvers, deadline: Deadline) -> DlcDomain {
        DlcDomain {
            entail: Entailment::new(solvers, deadline.clone()),
            stats: DlcStats::default(),
            deadline,
            learnt: BTreeMap::new(),
            splits: BTreeMap::new(),
            guards: BTreeMap::new(),
            congruences: false,
            residues: Vec::new(),
        }
    }

    /// Fresh dimensions above the two dimensions of every variable.
    fn fresh(cfg: &Cfg) -> Fresh {
        Fresh::new(2 * cfg.vars.len() as u32)
    }

    /// `∃ dims. c`, dropping it if empty.
    fn project(&mut self, c: Conj, dims: &[Dim]) -> Option<Conj> {
        if c.is_trivially_false() {
            self.stats.empty += 1;
            return None;
        }
        self.stats.projections += 1;
        let c = int_presolve(&c, dims);
        if c.is_trivially_false() {
            self.stats.empty += 1;
            return None;
        }
        let p = if dims.is_empty() {
            c
        } else {
            c.project_out_within(dims, &self.deadline)
        };
        if p.is_empty() {
            self.stats.empty += 1;
            return None;
        }
        Some(p)
    }

    /// `∃ dims. c` as a fact, where `c` came from a fact with congruences `congs`: the
    /// congruences are closed under `c`'s equalities first (so a fresh quotient's `x = 2q`
    /// leaves `x ≡ 0 (mod 2)`), then those of the eliminated dimensions and of the ones
    /// `keep` rejects go, and the bounds are reduced by the rest. `None` if empty.
    fn project_fact(
        &mut self,
        c: Conj,
        congs: &Congs,
        dims: &[Dim],
        keep: impl Fn(Dim) -> bool,
    ) -> Option<Fact> {
        if !self.congruences {
            return self.project(c, dims).map(Fact::from);
        }
        let Some(k) = fact::derive(&c, congs) else {
            self.stats.empty += 1;
            return None;
        };
        // Ranges tightened by the congruences (before the fresh quotients go) may become
        // equalities that say more: derive once more then.
        let mut c = c;
        let before = c.clone();
        if !fact::tighten(&mut c, &k) {
            self.stats.empty += 1;
            return None;
        }
        let k = if c != before {
            match fact::derive(&c, &k) {
                Some(k) => k,
                None => {
                    self.stats.empty += 1;
                    return None;
                }
            }
        } else {
            k
        };
        let conj = self.project(c, dims)?;
        let mut f = Fact {
            conj,
            congs: fact::kept(k, |d| !dims.contains(&d) && keep(d)),
        };
        if !fact::reduce(&mut f) {
            self.stats.empty += 1;
            return None;
        }
        Some(f)
    }

    /// The congruences of a join or widening of `old` and `new` (none when off).
    fn join_congs(&self, old: &Fact, new: &Fact) -> Congs {
        if self.congruences {
            fact::join(old, new)
        } else {
            Congs::new()
        }
    }

    /// `c` without the current values of `vars`.
    fn forget_conj(&mut self, f: &Conj, vars: &[VarId]) -> Conj {
        let dims: Vec<Dim> = vars.iter().map(|v| cur_dim(*v)).collect();
        let present = f.dims();
        if dims.iter().all(|d| !present.contains(d)) {
            return f.clone();
        }
        self.stats.projections += 1;
        f.project_out_within(&dims, &self.deadline)
    }

    /// Dimensions at or above the fresh base.
    fn fresh_dims(c: &Conj, base: u32) -> Vec<Dim> {
        c.dims().into_iter().filter(|d| d.0 >= base).collect()
    }
}

/// The translation from `old` to `new` ([`crate::domain::RelDomain::shift`]): the same
/// linear forms, each with both of its bounds moved by one amount (a missing bound stays
/// missing), and some amount not zero.
pub(crate) fn shift(old: &Conj, new: &Conj) -> Option<crate::domain::Shift> {
    if old.rows().count() != new.rows().count()
        || old.is_trivially_false()
        || new.is_trivially_false()
    {
        return None;
    }
    let mut out = Vec::new();
    for ((k0, r0), (k1, r1)) in old.rows().zip(new.rows()) {
        if k0 != k1 {
            return None;
        }
        // How one end moved: `Some(None)` if it is missing on both sides.
        macro_rules! moved {
            ($a:expr, $b:expr) => {
                match (&$a, &$b) {
                    (None, None) => None,
                    (Some(x), Some(y)) if x.strict == y.strict => Some(&y.value - &x.value),
                    _ => return None,
                }
            };
        }
        let d = match (moved!(r0.lo, r1.lo), moved!(r0.hi, r1.hi)) {
            (Some(a), Some(b)) if a == b => a,
            (Some(a), None) | (None, Some(a)) => a,
            (None, None) => Q::from_integer(0.into()),
            _ => return None,
        };
        if !num_traits::Zero::is_zero(&d) {
            out.push((k0.iter().map(|(d, q)| (*d, q.clone())).collect(), d));
        }
    }
    (!out.is_empty()).then_some(out)
}
