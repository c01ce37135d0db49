//! The resolver's entry point, [`Resolver::run`]: it walks the AST once, keeping a stack
//! of scopes, and builds the HIR. This file holds the passes over the whole program: the
//! signatures of the procedures (so calls may precede definitions), the items, the
//! procedures, and the procedures reachable from `main`. The state is in `state.rs`,
//! declarations in `decl.rs`, statements in `stmt.rs` and `effects.rs`, expressions in
//! `expr.rs` and the files it calls into.

use super::builtins::builtin;
use super::hir::{Expr, LValue, ProcInfo, Program, Range, Stmt, StmtKind, VarInfo, VarKind};
use super::options::{Analysis, SemaOptions};
use super::state::{err, ProcSig, Resolver, Sym};
use crate::diag::{DiagKind, Diagnostic, Span, Unsupported};
use crate::ids::{IndexVec, ProcId};
use crate::syntax::ast::{self, Item};
use std::collections::{BTreeMap, BTreeSet};

impl Resolver {
    pub(super) fn run(p: &ast::Program, opts: &SemaOptions) -> Result<Analysis, Vec<Diagnostic>> {
        let mut vars = IndexVec::new();
        let ret = vars.push(VarInfo {
            name: "$ret".into(),
            kind: VarKind::Ret,
            range: Range::Any,
            span: Span::default(),
        });
        let mut r = Resolver {
            opts: opts.clone(),
            vars,
            arrays: IndexVec::new(),
            procs: IndexVec::new(),
            sigs: BTreeMap::new(),
            externs: BTreeMap::new(),
            scopes: vec![BTreeMap::new()],
            globals: Vec::new(),
            global_arrays: Vec::new(),
            ret,
            errors: Vec::new(),
            unsupported: Vec::new(),
            opaque: Vec::new(),
            cur: None,
            loop_depth: 0,
            breaks: Vec::new(),
            switches: Vec::new(),
            fresh: 0,
            labels: BTreeMap::new(),
            gotos: Vec::new(),
            var_types: BTreeMap::new(),
            array_types: BTreeMap::new(),
            extern_only: BTreeSet::new(),
        };
        r.collect_signatures(p);
        for item in &p.items {
            match item {
                Item::Decl(d) => r.global_decl(d),
                Item::Func(f) => r.func(f),
                Item::Proto(_) => {}
                Item::Typedef(t) => r.enums(&t.enums),
                Item::Other { what, span, .. } => {
                    let harmless = what == "static assertion" || what.ends_with(" declaration");
                    if !harmless {
                        r.unsupported(what.clone(), *span);
                    }
                }
            }
        }
        // A global only declared `extern` is defined elsewhere: its value is arbitrary.
        for (v, init) in &mut r.globals {
            if r.extern_only.contains(v) && init.is_none() {
                *init = Some(Expr::Undef);
            }
        }
        let main = match r.sigs.get("main") {
            Some(s) => s.id,
            None => {
                let first = p.items.first().map(item_span).unwrap_or(p.span);
                r.errors.push(
                    err(
                        DiagKind::Structure,
                        Span::new(first.start as usize, first.start as usize + 1),
                        "no `main` procedure",
                    )
                    .with_label("the program starts here")
                    .with_help("define `int main() { ... }` or `void main() { ... }`"),
                );
                ProcId(0)
            }
        };
        if !r.errors.is_empty() {
            r.errors.sort_by_key(|d| d.span.start);
            return Err(r.errors);
        }
        // Constructs in procedures that `main` never calls cannot change the verdict.
        let live = reachable(&r.procs, main);
        let mut unsupported: Vec<Unsupported> = r
            .unsupported
            .into_iter()
            .filter(|(_, p)| p.is_none_or(|p| live.contains(&p)))
            .map(|(u, _)| u)
            .collect();
        unsupported.sort_by_key(|u| u.span.start);
        let mut program = Program {
            vars: r.vars,
            arrays: r.arrays,
            procs: r.procs,
            globals: r.globals,
            global_arrays: r.global_arrays,
            ret: r.ret,
            main,
            var_types: r.var_types,
            array_types: r.array_types,
            signed_overflow: r.opts.signed_overflow,
        };
        super::consts::propagate(&mut program);
        Ok(Analysis {
            program,
            unsupported,
        })
    }
    /// First pass: every defined procedure gets an id, so calls may precede definitions.
    fn collect_signatures(&mut self, p: &ast::Program) {
        for item in &p.items {
            match item {
                Item::Func(f) => {
                    let name = &f.proto.name;
                    if builtin(&name.name).is_some() {
                        continue; // the convention wins over a user body (ARCHITECTURE §3)
                    }
                    if self.sigs.contains_key(&name.name) {
                        self.errors.push(
                            err(
                                DiagKind::Redeclared,
                                name.span,
                                format!("procedure `{}` is defined twice", name.name),
                            )
                            .with_label("second definition"),
                        );
                        continue;
                    }
                    let id = self.procs.push(ProcInfo {
                        name: name.name.clone(),
                        formals: Vec::new(),
                        locals: Vec::new(),
                        arrays: Vec::new(),
                        returns_value: !matches!(f.proto.ret, ast::Ty::Void)
                            || f.proto.ret_pointer > 0,
                        body: Vec::new(),
                        span: f.proto.span,
                    });
                    let ret = if f.proto.ret_pointer == 0 {
                        f.proto.ret.int()
                    } else {
                        None
                    };
                    self.sigs.insert(
                        name.name.clone(),
                        ProcSig {
                            id,
                            arity: f.proto.params.len(),
                            returns_value: self.procs[id].returns_value,
                            ret,
                            params: f
                                .proto
                                .params
                                .iter()
                                .map(|p| {
                                    if p.pointer > 0 || p.is_array {
                                        None
                                    } else {
                                        p.ty.int()
                                    }
                                })
                                .collect(),
                        },
                    );
                }
                Item::Proto(pr) => {
                    self.externs
                        .entry(pr.name.name.clone())
                        .or_insert(pr.name.span);
                }
                _ => {}
            }
        }
    }

    // ----- procedures -----

    fn func(&mut self, f: &ast::FuncDef) {
        let Some(sig) = self.sigs.get(&f.proto.name.name) else {
            return;
        };
        let p = sig.id;
        if self.procs[p].span != f.proto.span {
            return; // a duplicate definition, already reported
        }
        self.cur = Some(p);
        self.labels.clear();
        self.gotos.clear();
        self.scopes.push(BTreeMap::new());
        if f.proto.variadic {
            self.unsupported("variadic procedure", f.proto.name.span);
        }
        if f.proto.ret_pointer > 0 {
            self.unsupported("procedure returning a pointer", f.proto.name.span);
        } else if let ast::Ty::Unsupported { spelling } = &f.proto.ret {
            self.unsupported(format!("return type `{spelling}`"), f.proto.span);
        }
        let is_main = f.proto.name.name == "main";
        let mut prologue = Vec::new();
        for (k, prm) in f.proto.params.iter().enumerate() {
            let name = prm.name.clone().unwrap_or(ast::Ident {
                name: format!("#arg{}", self.procs[p].formals.len()),
                span: prm.span,
            });
            let pointer = prm.pointer > 0 || prm.is_array;
            if is_main && k > 0 && pointer {
                // `main(int argc, char *argv[])`: argv is fine until it is used.
                let v = self.new_var(&name.name, VarKind::Formal(p), Range::Any, name.span);
                let _ = v;
                self.declare_opaque(
                    &name,
                    format!("use of `{}` (main's argument vector)", name.name),
                );
                continue;
            }
            let range = self.ty_range(&prm.ty, prm.span);
            if pointer {
                self.unsupported("pointer or array parameter", prm.span);
            }
            let v = self.new_var(&name.name, VarKind::Formal(p), range, name.span);
            if let (Some(t), false) = (prm.ty.int(), pointer) {
                self.var_types.insert(v, t);
            }
            self.declare(&name, Sym::Var(v));
            if is_main && k == 0 && !pointer && prm.ty.int().is_some() {
                // argc: an input, at least 1.
                prologue.push(Stmt {
                    kind: StmtKind::Havoc(v),
                    span: prm.span,
                });
                let ge1 = Expr::Cmp(
                    super::hir::CmpOp::Ge,
                    Box::new(Expr::Var(v)),
                    Box::new(Expr::int(1)),
                );
                prologue.push(Stmt {
                    kind: StmtKind::Assume(ge1),
                    span: prm.span,
                });
            }
        }
        let mut body = prologue;
        body.extend(match &f.body.kind {
            ast::StmtKind::Block(ss) => self.block(ss),
            _ => self.stmt_list(std::slice::from_ref(&f.body)),
        });
        for g in std::mem::take(&mut self.gotos) {
            if !self.labels.contains_key(&g.name) {
                self.errors.push(
                    err(
                        DiagKind::Structure,
                        g.span,
                        format!(
                            "label `{}` is not defined in `{}`",
                            g.name, f.proto.name.name
                        ),
                    )
                    .with_label("no such label")
                    .with_help("`goto` jumps to a label of the same procedure"),
                );
            }
        }
        self.scopes.pop();
        self.procs[p].body = body;
        self.cur = None;
    }
}

fn item_span(i: &Item) -> Span {
    match i {
        Item::Decl(d) => d.span,
        Item::Func(f) => f.span,
        Item::Proto(p) => p.span,
        Item::Typedef(t) => t.span,
        Item::Other { span, .. } => *span,
    }
}

/// The procedures reachable from `main` through calls.
fn reachable(procs: &IndexVec<ProcId, ProcInfo>, main: ProcId) -> BTreeSet<ProcId> {
    fn calls_in_expr(e: &Expr, out: &mut Vec<ProcId>) {
        e.visit(&mut |x| {
            if let Expr::Call(p, _, _) = x {
                out.push(*p);
            }
        });
    }
    fn calls_in(ss: &[Stmt], out: &mut Vec<ProcId>) {
        for s in ss {
            match &s.kind {
                StmtKind::Assign(pairs) => {
                    for (l, r) in pairs {
                        if let LValue::Elem(_, i) = l {
                            calls_in_expr(i, out);
                        }
                        calls_in_expr(r, out);
                    }
                }
                StmtKind::Call { dest, proc, args } => {
                    out.push(*proc);
                    args.iter().for_each(|a| calls_in_expr(a, out));
                    if let Some(LValue::Elem(_, i)) = dest {
                        calls_in_expr(i, out);
                    }
                }
                StmtKind::ArrayDecl { size, init, .. } => {
                    size.iter().for_each(|e| calls_in_expr(e, out));
                    init.iter().flatten().for_each(|e| calls_in_expr(e, out));
                }
                StmtKind::If(c, t, e) => {
                    calls_in_expr(c, out);
                    calls_in(t, out);
                    calls_in(e, out);
                }
                StmtKind::Loop {
                    cond, body, step, ..
                } => {
                    calls_in_expr(cond, out);
                    calls_in(body, out);
                    calls_in(step, out);
                }
                StmtKind::Return(Some(e)) | StmtKind::Assert(e) | StmtKind::Assume(e) => {
                    calls_in_expr(e, out)
                }
                StmtKind::Label { stmt, .. } => calls_in(std::slice::from_ref(stmt), out),
                StmtKind::Block(b) => calls_in(b, out),
                StmtKind::Havoc(_)
                | StmtKind::ArrayHavoc(_)
                | StmtKind::Break
                | StmtKind::Continue
                | StmtKind::Return(None)
                | StmtKind::Skip
                | StmtKind::Error
                | StmtKind::Stop
                | StmtKind::Goto(_) => {}
            }
        }
    }
    let mut seen = BTreeSet::new();
    let mut work = vec![main];
    while let Some(p) = work.pop() {
        if p.0 as usize >= procs.len() || !seen.insert(p) {
            continue;
        }
        let mut out = Vec::new();
        calls_in(&procs[p].body, &mut out);
        work.extend(out);
    }
    seen
}
