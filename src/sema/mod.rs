//! Semantic analysis: name resolution with C scoping (globals, formals, locals, shadowing,
//! `enum` constants), recognition of the SV-COMP and KLEE conventions (ARCHITECTURE.md §3),
//! constant folding (`sizeof` under the data model), arity and linearity checks, and the
//! lowering of C's statement forms that the CFG does not have (`switch` becomes `goto`s,
//! GNU statement expressions and the comma operator become statements). Produces the
//! resolved program ([`hir::Program`]), the input errors (diagnostics with spans, exit 2)
//! and the *unsupported* constructs (valid C outside the fragment, which make `lpmc check`
//! answer UNKNOWN).

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
mod types;

use crate::diag::Diagnostic;
use crate::syntax::ast;

pub use hir::{
    fold, ArrayInfo, ArraySize, CmpOp, Expr, LValue, Program, Range, Stmt, StmtKind, VarInfo,
    VarKind, Width,
};
pub use options::{Analysis, IntModel, SemaOptions};
pub use types::DataModel;

/// Resolve and check a parsed program. Input errors come back as diagnostics in source
/// order (at least one).
pub fn analyze_with(
    program: &ast::Program,
    opts: &SemaOptions,
) -> Result<Analysis, Vec<Diagnostic>> {
    state::Resolver::run(program, opts)
}
