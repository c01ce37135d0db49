//! The SMT layer: a backend-neutral query language, the `SmtBackend` trait, and its cvc5 adapter (the only file that names cvc5 types).
//!
//! This module knows nothing about programs, CFGs or traces (ARCHITECTURE §1): callers
//! declare symbols, assert [`Term`]s (optionally under our own [`Label`]s), check, and read
//! back a model ([`Value`]s) or an unsat core over their labels. It serves the trace check
//! of ARCHITECTURE §4 (QF_ALIA queries with one named assertion per step) and exact
//! entailment checks of the DLC domain (QF_LRA).
//!
//! ```
//! use lpmc::smt::{Cvc5Backend, Logic, SatResult, SmtBackend, SmtConfig, Sort, Term, Value};
//! # fn main() -> Result<(), lpmc::smt::SmtError> {
//! let mut s = Cvc5Backend::new(SmtConfig::new(Logic::QfLia))?;
//! let x = s.declare("x", Sort::Int)?;
//! s.assert(&Term::gt(Term::sym(x), Term::int(41)))?;
//! assert_eq!(s.check()?, SatResult::Sat);
//! let Value::Int(v) = s.value(x)? else { panic!("x is an Int") };
//! assert!(v > 41.into());
//! # Ok(()) }
//! ```

mod cvc5;
mod error;
mod script;
mod term;
mod value;

use crate::limits::Deadline;
use std::fmt;

pub use self::cvc5::{check_cvc5_library, cvc5_version, Cvc5Backend, Cvc5Factory, CVC5_VERSION};
pub use self::error::SmtError;
pub use self::script::{smtlib, symbol, Recorder};
pub use self::term::{Sort, SymId, Term};
pub use self::value::Value;

/// Our own name for an assertion, used to report unsat cores (e.g. one label per trace
/// step, ARCHITECTURE §4 "Trace check").
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Label(pub u32);

impl fmt::Display for Label {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "#{}", self.0)
    }
}

/// Why a solver answered `unknown`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum UnknownReason {
    /// The per-check time limit ([`SmtConfig::timeout_ms`]) ran out.
    Timeout,
    /// A resource limit ran out.
    ResourceOut,
    /// Memory ran out.
    MemoryOut,
    /// The solver was interrupted.
    Interrupted,
    /// The solver's procedure is incomplete for this query.
    Incomplete,
    /// The query uses something the solver does not support.
    Unsupported,
    /// The solver gave no specific explanation.
    Unexplained,
}

impl fmt::Display for UnknownReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            UnknownReason::Timeout => "timeout",
            UnknownReason::ResourceOut => "resource limit",
            UnknownReason::MemoryOut => "out of memory",
            UnknownReason::Interrupted => "interrupted",
            UnknownReason::Incomplete => "incomplete procedure",
            UnknownReason::Unsupported => "unsupported",
            UnknownReason::Unexplained => "no explanation",
        })
    }
}

/// The answer of a satisfiability check.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SatResult {
    /// Satisfiable: a model is available (if models are enabled).
    Sat,
    /// Unsatisfiable: an unsat core is available (if cores are enabled).
    Unsat,
    /// The solver could not decide.
    Unknown(UnknownReason),
}

impl fmt::Display for SatResult {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SatResult::Sat => f.write_str("sat"),
            SatResult::Unsat => f.write_str("unsat"),
            SatResult::Unknown(r) => write!(f, "unknown ({r})"),
        }
    }
}

/// The SMT-LIB logic a backend is set up for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Logic {
    /// Quantifier-free linear real arithmetic (DLC entailment).
    QfLra,
    /// Quantifier-free linear integer arithmetic.
    QfLia,
    /// Quantifier-free linear integer and real arithmetic.
    QfLira,
    /// Arrays with linear integer arithmetic (the trace check, ARCHITECTURE §4).
    QfAlia,
    /// Arrays, uninterpreted functions, linear integer and real arithmetic.
    QfAuflira,
    /// Everything the solver supports.
    All,
}

impl Logic {
    /// The SMT-LIB name of the logic.
    pub fn smtlib_name(self) -> &'static str {
        match self {
            Logic::QfLra => "QF_LRA",
            Logic::QfLia => "QF_LIA",
            Logic::QfLira => "QF_LIRA",
            Logic::QfAlia => "QF_ALIA",
            Logic::QfAuflira => "QF_AUFLIRA",
            Logic::All => "ALL",
        }
    }

    /// Whether the logic includes the theory of arrays.
    pub fn has_arrays(self) -> bool {
        matches!(self, Logic::QfAlia | Logic::QfAuflira | Logic::All)
    }
}

/// How to set up a backend. Defaults (from [`SmtConfig::new`]): models on, unsat cores
/// off (and not minimised), no time limit.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SmtConfig {
    /// The logic of every query.
    pub logic: Logic,
    /// Produce models after `sat` (needed for [`SmtBackend::value`]).
    pub models: bool,
    /// Track labeled assertions for [`SmtBackend::unsat_core`].
    pub unsat_cores: bool,
    /// Shrink every unsat core to a minimal one (no label can be dropped) by deletion,
    /// at the price of one extra check per label of the solver's core. Needs
    /// `unsat_cores`.
    pub minimal_cores: bool,
    /// Per-check time limit in milliseconds; running out answers `Unknown(Timeout)`. A
    /// backend made by a [`SolverFactory`] also holds every check to the factory's
    /// deadline.
    pub timeout_ms: Option<u64>,
}

impl SmtConfig {
    /// A configuration for `logic` with the documented defaults.
    pub fn new(logic: Logic) -> SmtConfig {
        SmtConfig {
            logic,
            models: true,
            unsat_cores: false,
            minimal_cores: false,
            timeout_ms: None,
        }
    }
    /// Turn models on or off.
    pub fn with_models(mut self, on: bool) -> SmtConfig {
        self.models = on;
        self
    }
    /// Turn unsat cores on or off.
    pub fn with_unsat_cores(mut self, on: bool) -> SmtConfig {
        self.unsat_cores = on;
        self
    }
    /// Turn unsat cores on, and their minimisation on or off.
    pub fn with_minimal_cores(mut self, on: bool) -> SmtConfig {
        self.unsat_cores = true;
        self.minimal_cores = on;
        self
    }
    /// Set the per-check time limit in milliseconds.
    pub fn with_timeout_ms(mut self, ms: u64) -> SmtConfig {
        self.timeout_ms = Some(ms);
        self
    }
}

/// An incremental SMT solver behind a small, backend-neutral interface.
///
/// The contract:
/// - Symbols are declared once and stay valid for the backend's lifetime (not scoped by
///   `push`/`pop`); a [`SymId`] is only meaningful for the backend that issued it.
/// - Assertions are scoped: `pop` removes everything asserted since the matching `push`.
/// - Every assertion must be a Boolean term over declared symbols; ill-sorted terms are
///   rejected with [`SmtError::IllSorted`] before reaching the solver.
/// - [`value`](SmtBackend::value) and [`eval`](SmtBackend::eval) work only right after a
///   check answered `Sat` (else [`SmtError::NotSat`]), and only with models enabled.
/// - [`unsat_core`](SmtBackend::unsat_core) works only right after a check answered
///   `Unsat` (else [`SmtError::NotUnsat`]), and only with unsat cores enabled.
/// - Any `assert`, `push` or `pop` ends the validity of the last answer.
/// - No method panics on solver failures: they come back as [`SmtError::Solver`].
pub trait SmtBackend {
    /// Declare a fresh symbol of the given sort. Names are for readability only: two
    /// declarations with the same name are two different symbols.
    fn declare(&mut self, name: &str, sort: Sort) -> Result<SymId, SmtError>;
    /// The sort a symbol was declared with.
    fn sort_of(&self, sym: SymId) -> Result<Sort, SmtError>;
    /// Assert a Boolean term in the current scope.
    fn assert(&mut self, formula: &Term) -> Result<(), SmtError>;
    /// Assert a Boolean term under a label, so that unsat cores can name it. A label
    /// may be used for several assertions; the core then names it if any of them is in
    /// the core. With unsat cores disabled this is [`assert`](SmtBackend::assert).
    fn assert_labeled(&mut self, label: Label, formula: &Term) -> Result<(), SmtError>;
    /// Open a new assertion scope.
    fn push(&mut self) -> Result<(), SmtError>;
    /// Close the innermost assertion scope ([`SmtError::PopUnderflow`] if there is none).
    fn pop(&mut self) -> Result<(), SmtError>;
    /// Check the satisfiability of the current assertions.
    fn check(&mut self) -> Result<SatResult, SmtError>;
    /// Check the current assertions together with the given Boolean assumptions, which
    /// are not kept afterwards (they never appear in unsat cores).
    fn check_assuming(&mut self, assumptions: &[Term]) -> Result<SatResult, SmtError>;
    /// Cap each later check at `ms` milliseconds (its answer past them is `Unknown`), as
    /// [`SmtConfig`]'s timeout does; `None` restores the configured cap. A backend
    /// without time limits ignores it.
    fn set_check_cap_ms(&mut self, ms: Option<u64>) {
        let _ = ms;
    }
    /// The value of a symbol in the model of the last `Sat` answer.
    fn value(&mut self, sym: SymId) -> Result<Value, SmtError> {
        self.eval(&Term::Sym(sym))
    }
    /// The value of a term in the model of the last `Sat` answer.
    fn eval(&mut self, term: &Term) -> Result<Value, SmtError>;
    /// The labels of an unsat core of the last `Unsat` answer, sorted and without
    /// duplicates: the labeled assertions with these labels, plus all unlabeled ones, are
    /// unsatisfiable. Minimal if [`SmtConfig::minimal_cores`] is set, else small but not
    /// guaranteed minimal. Empty when the unlabeled assertions alone are unsatisfiable.
    fn unsat_core(&self) -> Result<Vec<Label>, SmtError>;
}

/// Makes solvers. The driver makes one factory (bound to its deadline) and passes it down
/// to every layer that calls the solver, so that tests can inject one that counts calls
/// or fails on purpose (ARCHITECTURE §4, "the deadline and the solver are passed down").
pub trait SolverFactory: Send + Sync + fmt::Debug {
    /// A fresh, independent solver set up by `config`, whose every check is limited to
    /// the time `deadline` leaves (and to `config.timeout_ms`); past the deadline, checks
    /// answer `Unknown(Timeout)`.
    fn make(&self, config: SmtConfig, deadline: &Deadline)
        -> Result<Box<dyn SmtBackend>, SmtError>;
}

/// A shared solver factory.
pub type Solvers = std::sync::Arc<dyn SolverFactory>;

/// The default factory, cvc5's, shared.
pub fn cvc5_solvers() -> Solvers {
    std::sync::Arc::new(Cvc5Factory)
}
