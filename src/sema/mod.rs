//! Semantic analysis: name resolution with C scoping (globals, formals, locals, shadowing,
//! `enum` constants), recognition of the SV-COMP and KLEE conventions (ARCHITECTURE.md §3),
//! constant folding (`sizeof` under the data model), arity and linearity checks, and the
//! lowering of C's statement forms that the CFG does not have (`switch` becomes `goto`s,
//! GNU statement expressions and the comma operator become statements). Produces the
//! resolved program ([`hir::Program`]), the input errors (diagnostics with spans, exit 2)
//! and the *unsupported* constructs (valid C outside the fragment, which make `lpmc check`
//! answer UNKNOWN).

mod builtins;
mod cint;
mod consts;
mod decl;
mod expr;
pub mod hir;
mod resolve;
mod stmt;
mod types;

use crate::diag::{Diagnostic, Unsupported};
use crate::syntax::ast;

pub use cint::IntModel;
pub use hir::{
    fold, ArrayInfo, ArraySize, CmpOp, Expr, LValue, Program, Range, Stmt, StmtKind, VarInfo,
    VarKind, Width,
};
pub use types::DataModel;

/// Options of the analysis.
#[derive(Clone, Debug, Default)]
pub struct SemaOptions {
    /// The data model: the sizes `sizeof` gives.
    pub data_model: DataModel,
    /// A call of a function that is declared nowhere is unsupported (UNKNOWN) rather than
    /// an error: set for files that include system headers lpmc did not read, whose
    /// functions are legitimately called without a declaration in the file.
    pub implicit_functions: bool,
    /// Mathematical or C integers (see `cint`).
    pub int_model: IntModel,
    /// Under C's integers, a signed overflow is an error location (SV-COMP's
    /// no-overflow property) instead of wrapping.
    pub check_overflow: bool,
}

/// The result of a successful analysis: the resolved program and the constructs that are
/// outside the fragment (empty when the program can be model checked).
#[derive(Clone, Debug)]
pub struct Analysis {
    /// The resolved program. When `unsupported` is not empty, the parts that were not
    /// understood are replaced by harmless placeholders: do not model check it.
    pub program: Program,
    /// Valid C outside lpmc's fragment, in source order. Constructs in procedures that
    /// `main` never calls are left out: they cannot change the verdict.
    pub unsupported: Vec<Unsupported>,
}

/// Resolve and check a parsed program. Input errors come back as diagnostics in source
/// order (at least one).
pub fn analyze_with(
    program: &ast::Program,
    opts: &SemaOptions,
) -> Result<Analysis, Vec<Diagnostic>> {
    resolve::Resolver::run(program, opts)
}
