//! Typed errors of the SMT layer: solver failures, misuse of the backend protocol, and
//! ill-sorted terms.

use num_bigint::BigInt;
use thiserror::Error;

use super::term::{Sort, SymId};

/// Everything that can go wrong when talking to an SMT backend. A solver that answers
/// `unknown` is not an error (see [`SatResult::Unknown`](super::SatResult::Unknown)).
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum SmtError {
    /// The solver rejected a call; `message` is the solver's own explanation.
    #[error("SMT solver failed in {operation}: {message}")]
    Solver {
        /// The backend operation that failed (e.g. `"check_sat"`).
        operation: &'static str,
        /// The solver's message.
        message: String,
    },
    /// The linked solver library is not the version this build was written against.
    #[error("linked SMT solver is version {found}, but lpmc needs {expected}")]
    VersionMismatch {
        /// The version we need.
        expected: &'static str,
        /// The version the library reports (or the mismatching enum name).
        found: String,
    },
    /// A model was requested but the last check did not answer `sat`.
    #[error("no model: the last check did not answer sat")]
    NotSat,
    /// An unsat core was requested but the last check did not answer `unsat`.
    #[error("no unsat core: the last check did not answer unsat")]
    NotUnsat,
    /// A model was requested from a backend configured without models.
    #[error("models are disabled in this backend's configuration")]
    ModelsDisabled,
    /// An unsat core was requested from a backend configured without unsat cores.
    #[error("unsat cores are disabled in this backend's configuration")]
    CoresDisabled,
    /// A term mentions a symbol this backend did not declare.
    #[error("unknown symbol {0}")]
    UnknownSymbol(SymId),
    /// A term is ill-sorted.
    #[error(
        "ill-sorted term: argument {argument} of {operator} should be {expected}, found {found}"
    )]
    IllSorted {
        /// The operator whose argument is wrong.
        operator: &'static str,
        /// The position of the argument (from 0).
        argument: usize,
        /// The expected sort(s).
        expected: &'static str,
        /// The sort found.
        found: Sort,
    },
    /// `div`/`mod` by a constant that is not positive.
    #[error("division by the non-positive constant {0}")]
    NonPositiveDivisor(BigInt),
    /// An assertion or assumption is not a Boolean term.
    #[error("expected a Boolean formula, found a term of sort {0}")]
    NotAFormula(Sort),
    /// A symbol name the solver cannot take (it contains a NUL byte).
    #[error("invalid symbol name {0:?}")]
    InvalidName(String),
    /// `pop` without a matching `push`.
    #[error("pop without a matching push")]
    PopUnderflow,
    /// The solver returned a model value we cannot read back.
    #[error("cannot read the solver's model value {text:?} as {sort}")]
    UnexpectedValue {
        /// The sort we expected.
        sort: Sort,
        /// The solver's rendering of the value.
        text: String,
    },
}
