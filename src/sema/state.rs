//! The resolver's state: the [`Resolver`] struct the other layers extend with `impl`
//! blocks, what a name in scope denotes ([`Sym`]), the stack of scopes, fresh variables
//! and labels, and the recording of errors ([`err`]) and unsupported constructs.

use super::hir::{ArrayInfo, Expr, LValue, ProcInfo, Range, StmtKind, VarInfo, VarKind};
use super::options::SemaOptions;
use crate::diag::{DiagKind, Diagnostic, Span, Unsupported};
use crate::ids::{ArrayId, IndexVec, ProcId, VarId};
use crate::syntax::ast::{self, IntTy};
use num_bigint::BigInt;
use std::collections::{BTreeMap, BTreeSet, VecDeque};

/// What a name in scope denotes.
#[derive(Clone, Debug)]
pub(super) enum Sym {
    Var(VarId),
    Array(ArrayId),
    /// An `enum` constant.
    Const(BigInt),
    /// A name whose use is outside the fragment (an `extern` pointer, `argv`): index of
    /// the reason in `Resolver::opaque`.
    Opaque(usize),
}

/// Information about a procedure name gathered before bodies are resolved.
#[derive(Clone, Debug)]
pub(super) struct ProcSig {
    pub(super) id: ProcId,
    pub(super) arity: usize,
    pub(super) returns_value: bool,
    /// The C return type, if an integer type.
    pub(super) ret: Option<IntTy>,
    /// The C types of the parameters (`None`: not an integer type).
    pub(super) params: Vec<Option<IntTy>>,
}

/// The `case` labels of the `switch` being resolved, in source order.
pub(super) struct SwitchCtx {
    pub(super) cases: VecDeque<String>,
    pub(super) default: Option<String>,
}

pub(super) struct Resolver {
    pub(super) opts: SemaOptions,
    pub(super) vars: IndexVec<VarId, VarInfo>,
    pub(super) arrays: IndexVec<ArrayId, ArrayInfo>,
    pub(super) procs: IndexVec<ProcId, ProcInfo>,
    /// Defined procedures by name.
    pub(super) sigs: BTreeMap<String, ProcSig>,
    /// Prototyped but not defined (external) functions.
    pub(super) externs: BTreeMap<String, Span>,
    pub(super) scopes: Vec<BTreeMap<String, Sym>>,
    pub(super) globals: Vec<(VarId, Option<Expr>)>,
    pub(super) global_arrays: Vec<(ArrayId, Option<Vec<Expr>>)>,
    pub(super) ret: VarId,
    pub(super) errors: Vec<Diagnostic>,
    /// Constructs outside the fragment, with the procedure they occur in.
    pub(super) unsupported: Vec<(Unsupported, Option<ProcId>)>,
    /// Reasons of [`Sym::Opaque`] names.
    pub(super) opaque: Vec<String>,
    /// The procedure being resolved (None at top level).
    pub(super) cur: Option<ProcId>,
    pub(super) loop_depth: usize,
    /// What `break` leaves, innermost last: a loop (`None`) or a `switch` (its end label).
    pub(super) breaks: Vec<Option<String>>,
    /// The `switch` statements being resolved, innermost last.
    pub(super) switches: Vec<SwitchCtx>,
    /// A counter for generated label names.
    pub(super) fresh: u32,
    pub(super) labels: BTreeMap<String, Span>,
    /// The `goto`s of the current procedure, checked against its labels at its end.
    pub(super) gotos: Vec<ast::Ident>,
    pub(super) var_types: BTreeMap<VarId, IntTy>,
    pub(super) array_types: BTreeMap<ArrayId, IntTy>,
    /// Globals declared `extern` only: defined in another file, so their value is unknown.
    pub(super) extern_only: BTreeSet<VarId>,
}

pub(super) fn err(kind: DiagKind, span: Span, msg: impl Into<String>) -> Diagnostic {
    Diagnostic::new(kind, span, msg)
}

impl Resolver {
    /// Record a construct outside the fragment.
    pub(super) fn unsupported(&mut self, what: impl Into<String>, span: Span) {
        self.unsupported
            .push((Unsupported::new(what, span), self.cur));
    }

    pub(super) fn lookup(&self, name: &str) -> Option<Sym> {
        self.scopes.iter().rev().find_map(|s| s.get(name).cloned())
    }

    pub(super) fn declare(&mut self, name: &ast::Ident, sym: Sym) {
        let scope = self.scopes.last_mut().expect("scope stack is never empty");
        if scope.contains_key(&name.name) {
            self.errors.push(
                err(
                    DiagKind::Redeclared,
                    name.span,
                    format!("`{}` is declared twice in the same scope", name.name),
                )
                .with_label("redeclared here"),
            );
            return;
        }
        scope.insert(name.name.clone(), sym);
    }

    /// Declare `name` as a name whose every use is unsupported, for `reason`.
    pub(super) fn declare_opaque(&mut self, name: &ast::Ident, reason: String) {
        let scope = self.scopes.last().expect("scope stack is never empty");
        if matches!(scope.get(&name.name), Some(Sym::Opaque(_))) {
            return; // `extern T *p;` declared again
        }
        self.opaque.push(reason);
        let k = self.opaque.len() - 1;
        self.declare(name, Sym::Opaque(k));
    }

    pub(super) fn new_var(&mut self, name: &str, kind: VarKind, range: Range, span: Span) -> VarId {
        let v = self.vars.push(VarInfo {
            name: name.to_string(),
            kind,
            range,
            span,
        });
        if let Some(p) = self.cur {
            match kind {
                VarKind::Formal(_) => self.procs[p].formals.push(v),
                VarKind::Local(_) | VarKind::Temp(_) | VarKind::ArraySize(_) => {
                    self.procs[p].locals.push(v)
                }
                _ => {}
            }
        }
        v
    }

    /// A fresh label name (never a C identifier).
    pub(super) fn fresh_label(&mut self, what: &str) -> String {
        self.fresh += 1;
        format!("#{what}{}", self.fresh)
    }

    pub(super) fn ty_range(&mut self, ty: &ast::Ty, span: Span) -> Range {
        match ty {
            ast::Ty::Int { int, .. } => self.range_of(*int),
            ast::Ty::Void => {
                self.errors.push(err(
                    DiagKind::Type,
                    span,
                    "a variable cannot have type `void`",
                ));
                Range::Any
            }
            ast::Ty::Unsupported { spelling } => {
                self.unsupported(format!("type `{spelling}`"), span);
                Range::Any
            }
        }
    }
}

/// `dest = e` as an assignment, or as a call statement when `e` is a call.
pub(super) fn assign_or_call(dest: LValue, e: Expr) -> StmtKind {
    match e {
        Expr::Call(proc, args, _) => StmtKind::Call {
            dest: Some(dest),
            proc,
            args,
        },
        e => StmtKind::Assign(vec![(dest, e)]),
    }
}
