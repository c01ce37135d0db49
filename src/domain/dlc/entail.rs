//! Entailment of conjunctions by disjunctions (the engine's semi-naive check), and the
//! disjunct set `Dlc` it orders as a lattice. The cheap sufficient test (one disjunct
//! contains the conjunction, decided exactly) runs first; then the conjunction is split
//! along the disjuncts' constraints ([`covered`]), each piece one run of the exact
//! simplex; only a split that grows past [`SPLIT_PIECES`] asks `f ∧ ¬g1 ∧ … ∧ ¬gn` of an
//! SMT solver in QF_LRA.

use crate::limits::Deadline;
use crate::linear::{Conj, Dim, Rel};
use crate::smt::{Logic, SatResult, SmtBackend, SmtConfig, Solvers, Sort, SymId, Term};
use std::collections::BTreeMap;

/// A join-semilattice with a partial order, as the engine's facts form one. Laws:
/// `bottom() ⊑ x`; `x ⊑ x`; `x ⊑ y ∧ y ⊑ z ⇒ x ⊑ z`; after `changed = x.join(y)`,
/// `old_x ⊑ x`, `y ⊑ x`, and `changed == !(y ⊑ old_x)`.
#[cfg(any(test, feature = "internals"))]
pub trait Lattice {
    /// Context the operations need (e.g. a decision procedure).
    type Ctx;
    /// The least element.
    fn bottom() -> Self;
    /// Whether `self ⊑ other`.
    fn leq(&self, other: &Self, ctx: &mut Self::Ctx) -> bool;
    /// `self := self ⊔ other`; whether `self` changed (semantically).
    fn join(&mut self, other: &Self, ctx: &mut Self::Ctx) -> bool;
}

/// Pieces the split of one entailment check ([`covered`]) may test before the check goes
/// to the SMT solver. A split is exponential in the number of disjuncts at worst; on the
/// engine's checks it needs up to a few hundred pieces (a median of 15 to 300 on SV-COMP
/// tasks), each one run of the simplex on a small tableau, a few microseconds against
/// milliseconds for a solver call.
pub const SPLIT_PIECES: u32 = 4096;

/// Decides entailment between conjunctions and disjunctions, exactly, counting its work.
/// The exact (SMT) part needs a solver factory; without one ([`Entailment::default`])
/// only the cheap sufficient test runs, which is sound but incomplete.
#[derive(Default)]
pub struct Entailment {
    solvers: Option<Solvers>,
    deadline: Deadline,
    smt: Option<Box<dyn SmtBackend>>,
    syms: BTreeMap<Dim, SymId>,
    /// Checks asked.
    pub checks: u64,
    /// Checks decided by the cheap per-disjunct test.
    pub cheap: u64,
    /// Checks decided by splitting ([`covered`]).
    pub split: u64,
    /// Checks that went to the SMT solver.
    pub smt_calls: u64,
    /// Pieces a split may test before the check goes to the solver (0: no split);
    /// [`Entailment::new`] sets [`SPLIT_PIECES`].
    pub split_pieces: u32,
    /// SMT answers other than sat/unsat (treated as "not entailed").
    pub smt_unknown: u64,
    /// Decide by the cheap per-disjunct test only (a fact is entailed when one disjunct
    /// contains it). Used when tabulating with widening: missing an entailment by a union
    /// only keeps a redundant fact (never unsound), and the widened chains at the widening
    /// points still stabilise, since a stable widened fact is contained in its ancestor.
    pub per_disjunct_only: bool,
}

impl Entailment {
    /// Entailment with exact checks by solvers from `solvers`, each held to `deadline`.
    pub fn new(solvers: Solvers, deadline: Deadline) -> Entailment {
        Entailment {
            solvers: Some(solvers),
            deadline,
            split_pieces: SPLIT_PIECES,
            ..Entailment::default()
        }
    }

    /// Whether `f ⊑ g1 ∨ ... ∨ gn` over the integers. Sound: `true` only if every integer
    /// point of `f` is in some `gi` (the cheap test rounds negated constraints to
    /// integers, so it may see inclusions that hold over ℤ only). Complete for rational
    /// inclusion unless the solver fails (then `false`).
    pub fn conj_leq(&mut self, f: &Conj, gs: &[&Conj]) -> bool {
        self.checks += 1;
        // One point of f (one simplex run) filters the candidates cheaply: a g that
        // misses it cannot contain f over the rationals, and one that contains it is
        // compatible with f. (Over the integers such a g might still contain f; missing
        // that only costs precision of the semi-naive check, never soundness.)
        let Some(p) = f.feasible_point() else {
            self.cheap += 1;
            return true;
        };
        let holds = |g: &Conj| g.contains_point(&p).unwrap_or(true);
        if gs.iter().any(|g| holds(g) && f.entails(g)) {
            self.cheap += 1;
            return true;
        }
        if self.per_disjunct_only {
            return false;
        }
        // Only disjuncts compatible with f can help; if none or one is, the cheap test
        // was already complete.
        let relevant: Vec<&Conj> = gs
            .iter()
            .copied()
            .filter(|g| holds(g) || !f.and(g).is_empty())
            .collect();
        if relevant.len() <= 1 {
            return false;
        }
        let mut pieces = self.split_pieces;
        if let Some(b) = covered(f, &relevant, &mut pieces) {
            self.split += 1;
            return b;
        }
        if self.solvers.is_none() || self.deadline.expired() {
            return false;
        }
        self.smt_calls += 1;
        match self.smt_leq(f, &relevant) {
            Ok(Some(b)) => b,
            _ => {
                self.smt_unknown += 1;
                false
            }
        }
    }

    fn smt_leq(&mut self, f: &Conj, gs: &[&Conj]) -> Result<Option<bool>, crate::smt::SmtError> {
        if self.smt.is_none() {
            let Some(solvers) = &self.solvers else {
                return Ok(None);
            };
            self.smt = Some(solvers.make(
                SmtConfig::new(Logic::QfLra).with_models(false),
                &self.deadline,
            )?);
        }
        let fa = self.conj_term(f)?;
        let negs: Vec<Term> = gs
            .iter()
            .map(|g| self.conj_term(g).map(Term::not))
            .collect::<Result<_, _>>()?;
        let smt = self.smt.as_mut().expect("created above");
        smt.push()?;
        smt.assert(&fa)?;
        for n in &negs {
            smt.assert(n)?;
        }
        let r = smt.check();
        smt.pop()?;
        Ok(match r? {
            SatResult::Unsat => Some(true),
            SatResult::Sat => Some(false),
            SatResult::Unknown(_) => None,
        })
    }

    fn sym(&mut self, d: Dim) -> Result<SymId, crate::smt::SmtError> {
        if let Some(s) = self.syms.get(&d) {
            return Ok(*s);
        }
        let smt = self.smt.as_mut().expect("created before use");
        let s = smt.declare(&format!("d{}", d.0), Sort::Real)?;
        self.syms.insert(d, s);
        Ok(s)
    }

    fn conj_term(&mut self, c: &Conj) -> Result<Term, crate::smt::SmtError> {
        if c.is_trivially_false() {
            return Ok(Term::ff());
        }
        let mut parts = Vec::new();
        for k in c.constraints() {
            let mut sum = vec![Term::real(k.expr.constant_term().to_big())];
            for (d, a) in k.expr.coeffs() {
                let s = self.sym(*d)?;
                sum.push(Term::scale(a.to_big(), Term::sym(s)));
            }
            let e = Term::sum(sum);
            let zero = Term::int(0);
            parts.push(match k.rel {
                Rel::Le => Term::le(e, zero),
                Rel::Lt => Term::lt(e, zero),
                Rel::Eq => Term::eq(e, zero),
            });
        }
        Ok(Term::and(parts))
    }
}

/// Whether `f ⊆ g1 ∪ … ∪ gn`, by splitting `f`: take a point `p` of `f` (none: `f` is
/// empty, covered); if no `gi` contains `p`, `f` is not covered (`p` is a rational point
/// outside them all). Else, with `g` a disjunct containing `p` (or one that may), `f`
/// is `f ∧ g`, which `g` covers, and the pieces `f ∧ c1 ∧ … ∧ c(j-1) ∧ ¬cj` for the
/// constraints `cj` of `g`, each outside `g`, so covered only by the other disjuncts:
/// each piece is decided the same way without `g`. Each step removes a disjunct, so the
/// split ends. `None` once it would test more than `pieces` pieces.
///
/// In [`crate::linear::Domain::Int`] a piece's negated constraint is tightened, which
/// leaves out only points that are not integer: `true` means that every integer point of
/// `f` is covered (and every rational one, when nothing was tightened), and every
/// rational inclusion gives `true`, since a piece is a subset of `f` outside `g`.
fn covered(f: &Conj, gs: &[&Conj], pieces: &mut u32) -> Option<bool> {
    *pieces = pieces.checked_sub(1)?;
    let Some(p) = f.feasible_point() else {
        return Some(true);
    };
    let holds: Vec<Option<bool>> = gs.iter().map(|g| g.contains_point(&p).ok()).collect();
    // A disjunct that contains p, else one that mentions a dimension p leaves free.
    let Some(i) = holds
        .iter()
        .position(|h| *h == Some(true))
        .or_else(|| holds.iter().position(Option::is_none))
    else {
        return Some(false);
    };
    let rest: Vec<&Conj> = gs
        .iter()
        .enumerate()
        .filter(|(j, _)| *j != i)
        .map(|(_, g)| *g)
        .collect();
    let mut prefix = f.clone();
    for c in gs[i].constraints() {
        for n in c.negate() {
            let mut piece = prefix.clone();
            piece.add(&n);
            if !covered(&piece, &rest, pieces)? {
                return Some(false);
            }
        }
        prefix.add(&c);
    }
    Some(true)
}

/// A disjunctive linear constraint: a set of non-empty conjunctions, none entailed by
/// another.
#[cfg(any(test, feature = "internals"))]
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Dlc {
    disjuncts: Vec<Conj>,
}

#[cfg(any(test, feature = "internals"))]
impl Dlc {
    /// The DLC of the given conjunctions (empty ones dropped).
    pub fn from_conjs(cs: impl IntoIterator<Item = Conj>) -> Dlc {
        Dlc {
            disjuncts: cs.into_iter().filter(|c| !c.is_empty()).collect(),
        }
    }
    /// The disjuncts.
    pub fn disjuncts(&self) -> &[Conj] {
        &self.disjuncts
    }
    /// Whether it denotes the empty set.
    pub fn is_empty(&self) -> bool {
        self.disjuncts.iter().all(|c| c.is_empty())
    }
    /// `self ⊓ other`: pairwise conjunctions, empty ones dropped.
    pub fn meet(&self, other: &Dlc) -> Dlc {
        Dlc::from_conjs(
            self.disjuncts
                .iter()
                .flat_map(|a| other.disjuncts.iter().map(move |b| a.and(b))),
        )
    }
    /// Add one disjunct unless it is entailed; removes old disjuncts it subsumes. Returns
    /// whether the DLC changed.
    pub fn add(&mut self, c: Conj, ctx: &mut Entailment) -> bool {
        let refs: Vec<&Conj> = self.disjuncts.iter().collect();
        if ctx.conj_leq(&c, &refs) {
            return false;
        }
        // Drop the disjuncts c subsumes, decided by the same test as `leq` so that
        // `old ⊑ new` keeps holding.
        self.disjuncts.retain(|d| !ctx.conj_leq(d, &[&c]));
        self.disjuncts.push(c);
        true
    }
}

#[cfg(any(test, feature = "internals"))]
impl Lattice for Dlc {
    type Ctx = Entailment;
    fn bottom() -> Dlc {
        Dlc::default()
    }
    fn leq(&self, other: &Dlc, ctx: &mut Entailment) -> bool {
        let refs: Vec<&Conj> = other.disjuncts.iter().collect();
        self.disjuncts.iter().all(|c| ctx.conj_leq(c, &refs))
    }
    fn join(&mut self, other: &Dlc, ctx: &mut Entailment) -> bool {
        let mut changed = false;
        for c in &other.disjuncts {
            changed |= self.add(c.clone(), ctx);
        }
        changed
    }
}
