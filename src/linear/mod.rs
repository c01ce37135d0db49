//! Exact linear arithmetic over the rationals: linear expressions, constraints, conjunctions, integer tightening and Fourier–Motzkin projection.
//!
//! This is the leaf the model checker's constraint domain is built on (ARCHITECTURE.md §4,
//! "Linear arithmetic"; the paper's §4 quantifier elimination and entailment on DLCs).
//!
//! - [`LinExpr`]: a sparse linear expression `Σ aᵢ·xᵢ + c` over [`Q`].
//! - [`Constraint`]: `e ≤ 0`, `e < 0` or `e = 0`, with integer tightening
//!   ([`Constraint::tighten`]) and negation.
//! - [`Conj`]: a canonical conjunction, with exact emptiness, implication, entailment,
//!   redundancy removal and Fourier–Motzkin projection ([`Conj::project_out`]).
//! - [`simplex`]: an exact simplex over `Q` (Bland's rule) deciding feasibility and
//!   producing a rational witness point.
//! - [`Cong`]: Granger's congruences `x ≡ r (mod m)` (the lattice the domain's
//!   congruence component is made of).
//! - [`Q`]: the exact rationals, as machine integers (`i64` parts, `i128` intermediates)
//!   while they fit and big integers beyond.
//!
//! Every decision (emptiness, implication, redundancy) is exact: no floating point is
//! involved, so a wrong "empty" (which would drop real states) cannot happen through
//! rounding.

#[cfg(any(test, feature = "internals"))]
pub mod capture;
mod cong;
mod conj;
mod constraint;
mod expr;
mod fm;
mod hull;
mod q;
pub mod simplex;
#[cfg(test)]
mod tests;

pub use cong::Cong;
pub use conj::Conj;
#[cfg(any(test, feature = "internals"))]
pub use conj::Domain;
pub use constraint::Tightened;
pub use constraint::{Constraint, Rel};
pub use expr::LinExpr;
pub use hull::threshold_family;

use std::collections::BTreeMap;
use std::fmt;

/// The exact rationals every coefficient and constant lives in (machine integers while
/// they fit).
pub use q::Q;

/// A valuation of some dimensions, e.g. a point of the linear space.
pub type Point = BTreeMap<Dim, Q>;

/// A dimension (variable) of the linear space. The caller maps program variables to
/// dimensions; all dimensions are meant to be integer-valued in lpmc's use.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub struct Dim(pub u32);

impl fmt::Display for Dim {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "x{}", self.0)
    }
}

/// Errors of the linear layer.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum LinearError {
    /// An expression was evaluated at a point that gives no value to this dimension.
    #[error("dimension {0} has no value in the point")]
    UnboundDim(Dim),
}
