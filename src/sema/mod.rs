//! Semantic analysis: name resolution with C scoping (globals, formals, locals, shadowing),
//! recognition of the SV-COMP and KLEE conventions (ARCHITECTURE.md §3), constant folding,
//! arity and linearity checks. Produces the resolved program ([`hir::Program`]), the input
//! errors (diagnostics with spans, exit 2) and the *unsupported* constructs (valid C outside
//! the fragment, which make `lpmc check` answer UNKNOWN).

pub mod hir;
mod resolve;

use crate::diag::{Diagnostic, Unsupported};
use crate::syntax::ast;

pub use hir::{
    fold, ArrayInfo, ArraySize, CmpOp, Expr, LValue, ProcInfo, Program, Range, Stmt, StmtKind,
    VarInfo, VarKind, Width,
};

/// The result of a successful analysis: the resolved program and the constructs that are
/// outside the fragment (empty when the program can be model checked).
#[derive(Clone, Debug)]
pub struct Analysis {
    /// The resolved program. When `unsupported` is not empty, the parts that were not
    /// understood are replaced by harmless placeholders: do not model check it.
    pub program: Program,
    /// Valid C outside lpmc's fragment, in source order.
    pub unsupported: Vec<Unsupported>,
}

/// Resolve and check a parsed program. Input errors come back as diagnostics in source
/// order (at least one).
pub fn analyze(program: &ast::Program) -> Result<Analysis, Vec<Diagnostic>> {
    resolve::Resolver::run(program)
}
