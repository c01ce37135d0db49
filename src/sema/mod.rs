//! Semantic analysis: name resolution with C scoping (globals, formals, locals, shadowing,
//! `enum` constants), recognition of the SV-COMP and KLEE conventions (ARCHITECTURE.md §3),
//! constant folding (`sizeof` under the data model), arity and linearity checks, and the
//! lowering of C's statement forms that the CFG does not have (`switch` becomes `goto`s,
//! GNU statement expressions and the comma operator become statements). Produces the
//! resolved program ([`hir::Program`]), the input errors (diagnostics with spans, exit 2)
//! and the *unsupported* constructs (valid C outside the fragment, which make `lpmc check`
//! answer UNKNOWN).
//!
//! # Layers
//!
//! The submodules are layers in this order. A submodule may name (`use super::x::...`, or
//! a `super::x::` path) only the submodules listed before it, never a later one nor this
//! facade, so they import one another in no circle. The resolver is one struct whose
//! `impl` blocks are spread over the layers from `state` on: calling a method of a later
//! layer is not an import. Unit tests are leaves (nothing imports them), so they may use
//! any layer and the facade. `tests.rs` reads this list and checks the sources against it.
//!
//! 1. `types`: C's integer types, literals, promotions and the data model.
//! 2. `hir`: the resolved program (public, with what its signed overflows do), and
//!    constant folding with known variables.
//! 3. `consts`: the value of a constant expression, and the propagation of the scalars
//!    that never change (a pass over the HIR that `resolve` runs last).
//! 4. `options`: the options ([`SemaOptions`], [`IntModel`]) and the result
//!    ([`Analysis`]).
//! 5. `state`: the resolver's state, what names denote, scopes, errors and unsupported
//!    constructs.
//! 6. `builtins`: the SV-COMP and KLEE builtin names and what they mean.
//! 7. `cint`: C's integers: conversions, wraparound, overflow checks, typed operators.
//! 8. `arith`: binary operators on resolved operands: folding and the linearity check.
//! 9. `sizeof`: `sizeof`, and the C type of an expression that is not evaluated.
//! 10. `call`: calls inside expressions, and whether an AST expression has effects.
//! 11. `expr`: expressions and assignment targets, with their C types.
//! 12. `effects`: the expressions statements evaluate, lowered so no effect is dropped.
//! 13. `stmt`: statements and control flow.
//! 14. `decl`: declarations.
//! 15. `resolve`: the entry point, `Resolver::run`: the passes over the whole program.

mod arith;
mod builtins;
mod call;
mod cint;
mod consts;
mod decl;
mod effects;
mod expr;
pub mod hir;
mod options;
mod resolve;
mod sizeof;
mod state;
mod stmt;
#[cfg(test)]
mod tests;
mod types;

use crate::diag::Diagnostic;
use crate::syntax::ast;

pub use hir::{
    fold, Affine, ArrayInfo, ArraySize, CmpOp, Expr, IndexTerm, LValue, Program, Range,
    SignedOverflow, Stmt, StmtKind, VarInfo, VarKind, Width,
};
pub use options::{Analysis, IntModel, SemaOptions};
pub use types::DataModel;

/// Resolve and check a parsed program. Input errors come back as diagnostics in source
/// order (at least one).
pub fn analyze_with(
    program: &ast::Program,
    opts: &SemaOptions,
) -> Result<Analysis, Vec<Diagnostic>> {
    // `run` is defined in `resolve`, on the state's `Resolver`.
    state::Resolver::run(program, opts)
}
