//! The cvc5 adapter of [`SmtBackend`]: the only file of lpmc that names cvc5 types
//! (ARCHITECTURE §7 "Contained FFI"). Every cvc5 failure becomes an [`SmtError`].
//!
//! Layout: the `cvc5` crate's `Solver` and `Term` take their own references to the term
//! manager's arena (cvc5 ≥ 1.4.0 reference-counts it), so the backend simply owns its
//! `TermManager`, its `Solver` and the terms it made, with no lifetimes and no `unsafe`.
//! Each backend has its own term manager: there is no global solver context.
//!
//! Unsat cores use indicator literals: `assert_labeled(l, f)` asserts `b => f` for a fresh
//! Boolean `b`, checks assume every live indicator, and the core is the set of labels of
//! the indicators in cvc5's unsat assumptions.

use std::collections::{BTreeMap, BTreeSet};
use std::str::FromStr;

use ::cvc5::{Kind, Solver, SortKind, TermManager, UnknownExplanation};
use num_bigint::BigInt;
use num_rational::BigRational;
use num_traits::{One, Signed};

use super::error::SmtError;
use super::term::{Sort, SymId, Term};
use super::value::Value;
use super::{Label, SatResult, SmtBackend, SmtConfig, SolverFactory, UnknownReason};
use crate::limits::Deadline;

/// The cvc5 version this build is written against (the bindings of `cvc5-sys 0.6.1`).
pub const CVC5_VERSION: &str = "1.4.0";

type CTerm = ::cvc5::Term;

/// Wrap a cvc5 error with the name of the operation that failed.
fn solver_err(operation: &'static str) -> impl FnOnce(::cvc5::Error) -> SmtError {
    move |e| SmtError::Solver {
        operation,
        message: e.message().to_string(),
    }
}

/// The version string of the linked cvc5 library.
pub fn cvc5_version() -> String {
    let tm = TermManager::new();
    let solver = Solver::new(&tm);
    solver.version()
}

/// Check that the linked library is cvc5 [`CVC5_VERSION`] and that a few enum values
/// mean what our bindings think they mean (a mismatched library renumbers enums
/// silently; see `../shared/notes/cvc5.md`).
pub fn check_cvc5_library() -> Result<(), SmtError> {
    check_version(&cvc5_version())?;
    let names = [
        (::cvc5::kind_to_string(Kind::Add), "CVC5_KIND_ADD"),
        (::cvc5::kind_to_string(Kind::Select), "CVC5_KIND_SELECT"),
        (::cvc5::kind_to_string(Kind::Store), "CVC5_KIND_STORE"),
        (
            ::cvc5::kind_to_string(Kind::IntsModulus),
            "CVC5_KIND_INTS_MODULUS",
        ),
        (::cvc5::kind_to_string(Kind::ToReal), "CVC5_KIND_TO_REAL"),
        (
            ::cvc5::kind_to_string(Kind::InstPatternList),
            "CVC5_KIND_INST_PATTERN_LIST",
        ),
        (
            ::cvc5::sort_kind_to_string(SortKind::ArraySort),
            "CVC5_SORT_KIND_ARRAY_SORT",
        ),
        (
            ::cvc5::unknown_explanation_to_string(UnknownExplanation::Timeout),
            "TIMEOUT",
        ),
        // The enums that cvc5 1.4.1 renumbers (see `../shared/notes/cvc5.md`).
        (
            ::cvc5::proof_rule_to_string(::cvc5::ProofRule::Unknown),
            "UNKNOWN",
        ),
        (
            ::cvc5::proof_rewrite_rule_to_string(::cvc5::ProofRewriteRule::SetsCardEmp),
            "sets-card-emp",
        ),
        (
            ::cvc5::skolem_id_to_string(::cvc5::SkolemId::BvToIntUf),
            "bv_to_int_uf",
        ),
    ];
    let wrong: Vec<String> = names
        .iter()
        .filter(|(found, expected)| found != expected)
        .map(|(found, expected)| format!("{expected} is named {found}"))
        .collect();
    if wrong.is_empty() {
        Ok(())
    } else {
        Err(SmtError::VersionMismatch {
            expected: CVC5_VERSION,
            found: format!("a library whose enum values disagree: {}", wrong.join(", ")),
        })
    }
}

fn check_version(found: &str) -> Result<(), SmtError> {
    let ok = found == CVC5_VERSION
        || found
            .strip_prefix(CVC5_VERSION)
            .is_some_and(|rest| !rest.starts_with(|c: char| c.is_ascii_digit()));
    if ok {
        Ok(())
    } else {
        Err(SmtError::VersionMismatch {
            expected: CVC5_VERSION,
            found: found.to_string(),
        })
    }
}

/// The cvc5 sorts we use, made once per backend.
struct Sorts {
    bool_: ::cvc5::Sort,
    int: ::cvc5::Sort,
    real: ::cvc5::Sort,
    array: ::cvc5::Sort,
}

/// An incremental cvc5 solver implementing [`SmtBackend`].
pub struct Cvc5Backend {
    solver: Solver,
    tm: TermManager,
    sorts: Sorts,
    config: SmtConfig,
    /// Declared symbols, indexed by [`SymId`].
    syms: Vec<(CTerm, Sort)>,
    /// Live indicator literals of labeled assertions (only with unsat cores on).
    labeled: Vec<(CTerm, Label)>,
    /// `labeled.len()` at each open `push`.
    scopes: Vec<usize>,
    /// The answer of the last check, while it is still valid.
    last: Option<SatResult>,
    /// The minimised core of the last `Unsat` answer (with `minimal_cores` only).
    core: Option<Vec<Label>>,
    /// Whether the last cvc5 check had assumptions (else there are no unsat assumptions).
    last_assumed: bool,
    /// Counter for indicator names.
    fresh: u64,
    /// The limit every check is held to (with `config.timeout_ms` as a per-check cap).
    deadline: Deadline,
    /// The `tlimit-per` value last given to cvc5 (0: none).
    tlimit: u64,
    /// A cap on each check below the configured one ([`SmtBackend::set_check_cap_ms`]).
    cap_ms: Option<u64>,
}

impl Cvc5Backend {
    /// A fresh, independent solver set up by `config`. Fails if the linked library is not
    /// cvc5 [`CVC5_VERSION`] or rejects an option.
    pub fn new(config: SmtConfig) -> Result<Cvc5Backend, SmtError> {
        Cvc5Backend::with_deadline(config, Deadline::none())
    }

    /// A fresh solver whose every check is limited to the time `deadline` leaves (and to
    /// `config.timeout_ms`): once it has expired, checks answer `Unknown(Timeout)` without
    /// calling cvc5.
    pub fn with_deadline(config: SmtConfig, deadline: Deadline) -> Result<Cvc5Backend, SmtError> {
        let mut tm = TermManager::new();
        let mut solver = Solver::new(&tm);
        check_version(&solver.version())?;
        let mut set = |opt: &str, val: &str| {
            solver
                .set_option(opt, val)
                .map_err(solver_err("set_option"))
        };
        set("incremental", "true")?;
        if config.models {
            set("produce-models", "true")?;
        }
        if config.unsat_cores {
            set("produce-unsat-assumptions", "true")?;
        }
        if config.logic.has_arrays() {
            // Constant arrays (`Term::ConstArray`) need cvc5's extended array solver.
            set("arrays-exp", "true")?;
        }
        solver
            .set_logic(config.logic.smtlib_name())
            .map_err(solver_err("set_logic"))?;
        let bool_ = tm.boolean_sort();
        let int = tm.integer_sort();
        let real = tm.real_sort();
        let array = tm
            .mk_array_sort(int.clone(), int.clone())
            .map_err(solver_err("mk_array_sort"))?;
        Ok(Cvc5Backend {
            solver,
            tm,
            sorts: Sorts {
                bool_,
                int,
                real,
                array,
            },
            config,
            syms: Vec::new(),
            labeled: Vec::new(),
            scopes: Vec::new(),
            last: None,
            core: None,
            last_assumed: false,
            fresh: 0,
            deadline,
            tlimit: 0,
            cap_ms: None,
        })
    }

    /// The configuration this backend was made with.
    pub fn config(&self) -> &SmtConfig {
        &self.config
    }

    /// The number of open `push` scopes.
    pub fn depth(&self) -> usize {
        self.scopes.len()
    }

    /// Sort-check `t` and translate it to a cvc5 term.
    fn translate(&mut self, t: &Term) -> Result<(CTerm, Sort), SmtError> {
        let syms = &self.syms;
        t.sort_with(&|s: SymId| syms.get(s.0 as usize).map(|(_, so)| *so))?;
        let mut tr = Translator {
            tm: &mut self.tm,
            syms: &self.syms,
            sorts: &self.sorts,
        };
        tr.term(t)
    }

    /// Translate a formula, rejecting non-Boolean terms.
    fn formula(&mut self, t: &Term) -> Result<CTerm, SmtError> {
        match self.translate(t)? {
            (ct, Sort::Bool) => Ok(ct),
            (_, s) => Err(SmtError::NotAFormula(s)),
        }
    }

    fn run_check(&mut self, extra: &[Term]) -> Result<SatResult, SmtError> {
        self.last = None;
        self.core = None;
        let mut extra_c = Vec::with_capacity(extra.len());
        for t in extra {
            extra_c.push(self.formula(t)?);
        }
        let indicators: Vec<CTerm> = self.labeled.iter().map(|(b, _)| b.clone()).collect();
        let answer = self.check_with(&indicators, &extra_c)?;
        if answer == SatResult::Unsat && self.config.minimal_cores && self.config.unsat_cores {
            self.core = Some(self.minimise_core(&extra_c)?);
        }
        self.last = Some(answer);
        Ok(answer)
    }

    /// Deletion-based core minimisation: drop each indicator of the current core in turn,
    /// keeping the drop whenever the rest (with the unlabeled assertions and `extra`)
    /// stays unsat. Must be called right after an `Unsat` answer.
    fn minimise_core(&mut self, extra: &[CTerm]) -> Result<Vec<Label>, SmtError> {
        let mut core = self.core_indicators()?;
        let mut i = 0;
        while i < core.len() {
            let mut candidate = core.clone();
            candidate.remove(i);
            if self.check_with(&candidate, extra)? != SatResult::Unsat {
                i += 1;
            } else if candidate.is_empty() && extra.is_empty() {
                // Unsat without assumptions: the unlabeled assertions alone conflict.
                core = candidate;
            } else {
                // cvc5's new core is a subset of the candidate; keep position `i`.
                let ids: BTreeSet<u64> = self.core_indicators()?.iter().map(|t| t.id()).collect();
                candidate.retain(|t| ids.contains(&t.id()));
                core = candidate;
            }
        }
        let by_id = self.indicator_labels();
        let labels: BTreeSet<Label> = core
            .iter()
            .filter_map(|t| by_id.get(&t.id()).copied())
            .collect();
        Ok(labels.into_iter().collect())
    }

    /// Map from indicator term ids to their labels.
    fn indicator_labels(&self) -> BTreeMap<u64, Label> {
        self.labeled.iter().map(|(b, l)| (b.id(), *l)).collect()
    }

    /// The indicators among cvc5's unsat assumptions of the last (unsat) check.
    fn core_indicators(&self) -> Result<Vec<CTerm>, SmtError> {
        if !self.last_assumed {
            return Ok(Vec::new());
        }
        let by_id = self.indicator_labels();
        let core = self
            .solver
            .get_unsat_assumptions()
            .map_err(solver_err("get_unsat_assumptions"))?;
        Ok(core
            .into_iter()
            .filter(|t| by_id.contains_key(&t.id()))
            .collect())
    }

    /// Give cvc5 the per-check limit: the smaller of the configured cap and the time the
    /// deadline leaves. `false` if the deadline has expired (then there is no check).
    fn set_limit(&mut self) -> Result<bool, SmtError> {
        if self.deadline.expired() {
            return Ok(false);
        }
        let cap = match (self.config.timeout_ms, self.cap_ms) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        };
        let ms = match (cap, self.deadline.remaining_ms()) {
            (Some(a), Some(b)) => a.min(b),
            (a, b) => a.or(b).unwrap_or(0),
        };
        if ms != self.tlimit {
            self.solver
                .set_option("tlimit-per", &ms.to_string())
                .map_err(solver_err("set_option"))?;
            self.tlimit = ms;
        }
        Ok(true)
    }

    /// One cvc5 check under the given indicator literals and extra assumptions.
    fn check_with(&mut self, indicators: &[CTerm], extra: &[CTerm]) -> Result<SatResult, SmtError> {
        if !self.set_limit()? {
            self.last_assumed = false;
            return Ok(SatResult::Unknown(UnknownReason::Timeout));
        }
        let assumptions: Vec<CTerm> = indicators.iter().chain(extra).cloned().collect();
        self.last_assumed = !assumptions.is_empty();
        let r = if assumptions.is_empty() {
            self.solver.check_sat().map_err(solver_err("check_sat"))?
        } else {
            self.solver
                .check_sat_assuming(&assumptions)
                .map_err(solver_err("check_sat_assuming"))?
        };
        Ok(if r.is_sat() {
            SatResult::Sat
        } else if r.is_unsat() {
            SatResult::Unsat
        } else {
            SatResult::Unknown(match r.unknown_explanation() {
                UnknownExplanation::Timeout => {
                    // The limit was the time the deadline left, in whole milliseconds, and
                    // cvc5's clock may end it a little early: wait out the rest, so that
                    // the caller sees the deadline expired and answers "time limit".
                    let left = self
                        .deadline
                        .remaining()
                        .unwrap_or(std::time::Duration::MAX);
                    if left < std::time::Duration::from_millis(50) {
                        std::thread::sleep(left);
                    }
                    UnknownReason::Timeout
                }
                UnknownExplanation::Resourceout => UnknownReason::ResourceOut,
                UnknownExplanation::Memout => UnknownReason::MemoryOut,
                UnknownExplanation::Interrupted => UnknownReason::Interrupted,
                UnknownExplanation::Unsupported => UnknownReason::Unsupported,
                UnknownExplanation::Incomplete
                | UnknownExplanation::RequiresFullCheck
                | UnknownExplanation::RequiresCheckAgain => UnknownReason::Incomplete,
                UnknownExplanation::Other
                | UnknownExplanation::UnknownReason
                | UnknownExplanation::Last => UnknownReason::Unexplained,
            })
        })
    }
}

impl SmtBackend for Cvc5Backend {
    fn declare(&mut self, name: &str, sort: Sort) -> Result<SymId, SmtError> {
        if name.contains('\0') {
            return Err(SmtError::InvalidName(name.to_string()));
        }
        let id = u32::try_from(self.syms.len())
            .map_err(|_| SmtError::InvalidName(format!("{name} (too many symbols)")))?;
        let cs = match sort {
            Sort::Bool => self.sorts.bool_.clone(),
            Sort::Int => self.sorts.int.clone(),
            Sort::Real => self.sorts.real.clone(),
            Sort::IntArray => self.sorts.array.clone(),
        };
        let c = self.tm.mk_const(cs, name).map_err(solver_err("mk_const"))?;
        self.syms.push((c, sort));
        Ok(SymId(id))
    }

    fn sort_of(&self, sym: SymId) -> Result<Sort, SmtError> {
        self.syms
            .get(sym.0 as usize)
            .map(|(_, s)| *s)
            .ok_or(SmtError::UnknownSymbol(sym))
    }

    fn assert(&mut self, formula: &Term) -> Result<(), SmtError> {
        let f = self.formula(formula)?;
        self.last = None;
        self.solver
            .assert_formula(f)
            .map_err(solver_err("assert_formula"))
    }

    fn assert_labeled(&mut self, label: Label, formula: &Term) -> Result<(), SmtError> {
        if !self.config.unsat_cores {
            return self.assert(formula);
        }
        let f = self.formula(formula)?;
        self.last = None;
        self.fresh += 1;
        let name = format!("lpmc.label.{}.{}", label.0, self.fresh);
        let b = self
            .tm
            .mk_const(self.sorts.bool_.clone(), &name)
            .map_err(solver_err("mk_const"))?;
        let imp = self
            .tm
            .mk_term(Kind::Implies, &[b.clone(), f])
            .map_err(solver_err("mk_term"))?;
        self.solver
            .assert_formula(imp)
            .map_err(solver_err("assert_formula"))?;
        self.labeled.push((b, label));
        Ok(())
    }

    fn push(&mut self) -> Result<(), SmtError> {
        self.last = None;
        self.solver.push(1).map_err(solver_err("push"))?;
        self.scopes.push(self.labeled.len());
        Ok(())
    }

    fn pop(&mut self) -> Result<(), SmtError> {
        let Some(mark) = self.scopes.last().copied() else {
            return Err(SmtError::PopUnderflow);
        };
        self.last = None;
        self.solver.pop(1).map_err(solver_err("pop"))?;
        self.scopes.pop();
        self.labeled.truncate(mark);
        Ok(())
    }

    fn check(&mut self) -> Result<SatResult, SmtError> {
        self.run_check(&[])
    }

    fn set_check_cap_ms(&mut self, ms: Option<u64>) {
        self.cap_ms = ms;
    }

    fn check_assuming(&mut self, assumptions: &[Term]) -> Result<SatResult, SmtError> {
        self.run_check(assumptions)
    }

    fn eval(&mut self, term: &Term) -> Result<Value, SmtError> {
        if !self.config.models {
            return Err(SmtError::ModelsDisabled);
        }
        if self.last != Some(SatResult::Sat) {
            return Err(SmtError::NotSat);
        }
        let (ct, sort) = self.translate(term)?;
        let v = self.solver.get_value(ct).map_err(solver_err("get_value"))?;
        read_value(&v, sort)
    }

    fn unsat_core(&self) -> Result<Vec<Label>, SmtError> {
        if !self.config.unsat_cores {
            return Err(SmtError::CoresDisabled);
        }
        if self.last != Some(SatResult::Unsat) {
            return Err(SmtError::NotUnsat);
        }
        if let Some(core) = &self.core {
            return Ok(core.clone());
        }
        let by_id = self.indicator_labels();
        let labels: BTreeSet<Label> = self
            .core_indicators()?
            .iter()
            .filter_map(|t| by_id.get(&t.id()).copied())
            .collect();
        Ok(labels.into_iter().collect())
    }
}

/// Translation of our terms into cvc5 terms (after sort checking).
struct Translator<'a> {
    tm: &'a mut TermManager,
    syms: &'a [(CTerm, Sort)],
    sorts: &'a Sorts,
}

impl Translator<'_> {
    fn mk(&mut self, kind: Kind, children: &[CTerm]) -> Result<CTerm, SmtError> {
        self.tm
            .mk_term(kind, children)
            .map_err(solver_err("mk_term"))
    }

    fn int(&mut self, v: &BigInt) -> Result<CTerm, SmtError> {
        self.tm
            .mk_integer_from_str(&v.to_string())
            .map_err(solver_err("mk_integer"))
    }

    fn real(&mut self, q: &BigRational) -> Result<CTerm, SmtError> {
        let text = if q.denom().is_one() {
            q.numer().to_string()
        } else {
            format!("{}/{}", q.numer(), q.denom())
        };
        self.tm
            .mk_real_from_str(&text)
            .map_err(solver_err("mk_real"))
    }

    /// `t` (already translated to `ct` of sort `s`) as a `Real` term.
    fn as_real(&mut self, t: &Term, ct: CTerm, s: Sort) -> Result<CTerm, SmtError> {
        match (s, t) {
            (Sort::Int, Term::Int(v)) => self.real(&BigRational::from_integer(v.clone())),
            (Sort::Int, _) => self.mk(Kind::ToReal, &[ct]),
            _ => Ok(ct),
        }
    }

    /// Translate numeric operands, converting all to `Real` if any is `Real`.
    fn numeric(&mut self, ts: &[&Term]) -> Result<(Vec<CTerm>, Sort), SmtError> {
        let mut out = Vec::with_capacity(ts.len());
        let mut sort = Sort::Int;
        for t in ts {
            let (ct, s) = self.term(t)?;
            if s == Sort::Real {
                sort = Sort::Real;
            }
            out.push((ct, s));
        }
        let mut cts = Vec::with_capacity(out.len());
        for (t, (ct, s)) in ts.iter().zip(out) {
            cts.push(if sort == Sort::Real && s.is_numeric() {
                self.as_real(t, ct, s)?
            } else {
                ct
            });
        }
        Ok((cts, sort))
    }

    /// Translate operands of one sort (unifying numeric ones), e.g. for `=` and `ite`.
    fn same(&mut self, ts: &[&Term]) -> Result<(Vec<CTerm>, Sort), SmtError> {
        let mut parts = Vec::with_capacity(ts.len());
        for t in ts {
            parts.push(self.term(t)?);
        }
        let sort = if parts.iter().any(|(_, s)| *s == Sort::Real) {
            Sort::Real
        } else {
            parts.first().map_or(Sort::Bool, |(_, s)| *s)
        };
        let mut cts = Vec::with_capacity(parts.len());
        for (t, (ct, s)) in ts.iter().zip(parts) {
            cts.push(if sort == Sort::Real {
                self.as_real(t, ct, s)?
            } else {
                ct
            });
        }
        Ok((cts, sort))
    }

    fn bools(&mut self, ts: &[Term]) -> Result<Vec<CTerm>, SmtError> {
        ts.iter().map(|t| Ok(self.term(t)?.0)).collect()
    }

    fn term(&mut self, t: &Term) -> Result<(CTerm, Sort), SmtError> {
        use Sort::{Bool, Int, IntArray};
        Ok(match t {
            Term::Sym(s) => {
                let (c, so) = self
                    .syms
                    .get(s.0 as usize)
                    .ok_or(SmtError::UnknownSymbol(*s))?;
                (c.clone(), *so)
            }
            Term::Bool(b) => (self.tm.mk_boolean(*b), Bool),
            Term::Int(v) => (self.int(v)?, Int),
            Term::Real(q) => (self.real(q)?, Sort::Real),
            Term::Add(ts) => match ts.len() {
                0 => (self.int(&BigInt::from(0))?, Int),
                1 => self.term(&ts[0])?,
                _ => {
                    let (cts, s) = self.numeric(&ts.iter().collect::<Vec<_>>())?;
                    (self.mk(Kind::Add, &cts)?, s)
                }
            },
            Term::Sub(a, b) => {
                let (cts, s) = self.numeric(&[a, b])?;
                (self.mk(Kind::Sub, &cts)?, s)
            }
            Term::Neg(a) => {
                let (ct, s) = self.term(a)?;
                (self.mk(Kind::Neg, &[ct])?, s)
            }
            Term::Mul(c, a) => {
                let (ct, s) = self.term(a)?;
                if c.is_one() {
                    (ct, s)
                } else if c.is_integer() && s == Int {
                    let k = self.int(c.numer())?;
                    (self.mk(Kind::Mult, &[k, ct])?, Int)
                } else {
                    let ct = self.as_real(a, ct, s)?;
                    let k = self.real(c)?;
                    (self.mk(Kind::Mult, &[k, ct])?, Sort::Real)
                }
            }
            Term::IntDiv(a, k) | Term::Mod(a, k) => {
                if !k.is_positive() {
                    return Err(SmtError::NonPositiveDivisor(k.clone()));
                }
                let kind = if matches!(t, Term::IntDiv(..)) {
                    Kind::IntsDivision
                } else {
                    Kind::IntsModulus
                };
                let (ca, _) = self.term(a)?;
                let ck = self.int(k)?;
                (self.mk(kind, &[ca, ck])?, Int)
            }
            Term::Le(a, b) | Term::Lt(a, b) | Term::Ge(a, b) | Term::Gt(a, b) => {
                let kind = match t {
                    Term::Le(..) => Kind::Leq,
                    Term::Lt(..) => Kind::Lt,
                    Term::Ge(..) => Kind::Geq,
                    _ => Kind::Gt,
                };
                let (cts, _) = self.numeric(&[a, b])?;
                (self.mk(kind, &cts)?, Bool)
            }
            Term::Eq(a, b) => {
                let (cts, _) = self.same(&[a, b])?;
                (self.mk(Kind::Equal, &cts)?, Bool)
            }
            Term::Distinct(ts) if ts.len() < 2 => (self.tm.mk_true(), Bool),
            Term::Distinct(ts) => {
                let (cts, _) = self.same(&ts.iter().collect::<Vec<_>>())?;
                (self.mk(Kind::Distinct, &cts)?, Bool)
            }
            Term::Not(a) => {
                let (ca, _) = self.term(a)?;
                (self.mk(Kind::Not, &[ca])?, Bool)
            }
            Term::And(ts) | Term::Or(ts) => {
                let is_and = matches!(t, Term::And(_));
                match ts.len() {
                    0 => (self.tm.mk_boolean(is_and), Bool),
                    1 => self.term(&ts[0])?,
                    _ => {
                        let cts = self.bools(ts)?;
                        let kind = if is_and { Kind::And } else { Kind::Or };
                        (self.mk(kind, &cts)?, Bool)
                    }
                }
            }
            Term::Implies(a, b) => {
                let (ca, _) = self.term(a)?;
                let (cb, _) = self.term(b)?;
                (self.mk(Kind::Implies, &[ca, cb])?, Bool)
            }
            Term::Ite(c, a, b) => {
                let (cc, _) = self.term(c)?;
                let (mut cts, s) = self.same(&[a, b])?;
                cts.insert(0, cc);
                (self.mk(Kind::Ite, &cts)?, s)
            }
            Term::Select(a, i) => {
                let (ca, _) = self.term(a)?;
                let (ci, _) = self.term(i)?;
                (self.mk(Kind::Select, &[ca, ci])?, Int)
            }
            Term::Store(a, i, v) => {
                let (ca, _) = self.term(a)?;
                let (ci, _) = self.term(i)?;
                let (cv, _) = self.term(v)?;
                (self.mk(Kind::Store, &[ca, ci, cv])?, IntArray)
            }
            Term::ConstArray(v) => {
                let cv = self.int(v)?;
                let arr = self
                    .tm
                    .mk_const_array(self.sorts.array.clone(), cv)
                    .map_err(solver_err("mk_const_array"))?;
                (arr, IntArray)
            }
        })
    }
}

fn unexpected(v: &CTerm, sort: Sort) -> SmtError {
    SmtError::UnexpectedValue {
        sort,
        text: v.to_string(),
    }
}

fn read_int(v: &CTerm) -> Result<BigInt, SmtError> {
    if !v.is_integer_value() {
        return Err(unexpected(v, Sort::Int));
    }
    let text = v.integer_value().map_err(solver_err("integer_value"))?;
    BigInt::from_str(&text).map_err(|_| SmtError::UnexpectedValue {
        sort: Sort::Int,
        text,
    })
}

/// Read a cvc5 model value of our sort `sort` back into a [`Value`].
fn read_value(v: &CTerm, sort: Sort) -> Result<Value, SmtError> {
    match sort {
        Sort::Bool => {
            if !v.is_boolean_value() {
                return Err(unexpected(v, sort));
            }
            Ok(Value::Bool(
                v.boolean_value().map_err(solver_err("boolean_value"))?,
            ))
        }
        Sort::Int => Ok(Value::Int(read_int(v)?)),
        Sort::Real => {
            if !v.is_real_value() {
                return Err(unexpected(v, sort));
            }
            let text = v.real_value().map_err(solver_err("real_value"))?;
            let q = BigRational::from_str(&text)
                .map_err(|_| SmtError::UnexpectedValue { sort, text })?;
            Ok(Value::Real(q))
        }
        Sort::IntArray => read_array(v),
    }
}

/// Read an array model value: a chain of `store`s over a constant array, the outermost
/// store winning.
fn read_array(v: &CTerm) -> Result<Value, SmtError> {
    let mut entries: BTreeMap<BigInt, BigInt> = BTreeMap::new();
    let mut cur = v.clone();
    loop {
        if cur.is_const_array() {
            let base = cur
                .const_array_base()
                .map_err(solver_err("const_array_base"))?;
            let default = read_int(&base)?;
            entries.retain(|_, e| *e != default);
            return Ok(Value::IntArray { default, entries });
        }
        if cur.kind() != Kind::Store || cur.num_children() != 3 {
            return Err(unexpected(v, Sort::IntArray));
        }
        let child = |i: usize| cur.child(i).map_err(solver_err("term_child"));
        let (inner, idx, val) = (child(0)?, child(1)?, child(2)?);
        entries.entry(read_int(&idx)?).or_insert(read_int(&val)?);
        cur = inner;
    }
}

/// Makes [`Cvc5Backend`]s (ARCHITECTURE §4: the driver makes one factory and passes it
/// down).
#[derive(Clone, Copy, Debug, Default)]
pub struct Cvc5Factory;

impl SolverFactory for Cvc5Factory {
    fn make(
        &self,
        config: SmtConfig,
        deadline: &Deadline,
    ) -> Result<Box<dyn SmtBackend>, SmtError> {
        Ok(Box::new(Cvc5Backend::with_deadline(
            config,
            deadline.clone(),
        )?))
    }
}
