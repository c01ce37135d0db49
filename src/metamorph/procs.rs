//! Rewrites of procedures and names: `body_to_proc` (the final check in a procedure of
//! its own) and `rename` (fresh names for the locals).

use super::arrays::{movable_locals, move_to_global};
use super::build;
use super::walk::{self, walk_decl_mut, walk_expr_mut, walk_stmt_mut, VisitMut};
use super::{func, func_mut, Keeps, Prog, Rewrite, Transformation};
use crate::diag::Span;
use crate::syntax::ast::{
    Decl, Expr, ExprKind, FuncDef, FuncProto, Init, Item, Param, Stmt, StmtKind, Storage, Ty,
};
use std::collections::{BTreeMap, BTreeSet};

/// Whether `s` only ends the run in an error: `ERROR: ;`, `reach_error();`,
/// `__VERIFIER_error();`, `abort();`, in blocks, with at least one error.
pub(super) fn is_error_branch(s: &Stmt) -> bool {
    fn walk(s: &Stmt, errors: &mut usize) -> bool {
        match &s.kind {
            StmtKind::Labeled { label, stmt } if label.name == "ERROR" => {
                *errors += 1;
                walk(stmt, errors)
            }
            StmtKind::Block(ss) => ss.iter().all(|s| walk(s, errors)),
            StmtKind::Empty | StmtKind::Skip => true,
            StmtKind::Expr(Expr {
                kind: ExprKind::Call { func, args },
                ..
            }) if args.is_empty() => match func.name.as_str() {
                "reach_error" | "__VERIFIER_error" => {
                    *errors += 1;
                    true
                }
                "abort" => true,
                _ => false,
            },
            _ => false,
        }
    }
    let mut errors = 0;
    walk(s, &mut errors) && errors > 0
}

/// The condition of an `assert(e);` or `__VERIFIER_assert(e);` statement.
pub(super) fn assert_cond(s: &Stmt) -> Option<&Expr> {
    match &s.kind {
        StmtKind::Expr(Expr {
            kind: ExprKind::Call { func, args },
            ..
        }) if args.len() == 1 && matches!(func.name.as_str(), "assert" | "__VERIFIER_assert") => {
            Some(&args[0])
        }
        _ => None,
    }
}

/// A check: `assert(e);`, `__VERIFIER_assert(e);` or `if (c) <error branch>` (no
/// `else`), whose expressions have no effects (no assignments, no calls but
/// `__VERIFIER_nondet_*`).
fn is_check(s: &Stmt) -> bool {
    let cond = match &s.kind {
        StmtKind::If {
            cond,
            then,
            els: None,
        } if is_error_branch(then) => cond,
        _ => match assert_cond(s) {
            Some(c) => c,
            None => return false,
        },
    };
    !walk::any_subexpr(cond, |e| match &e.kind {
        ExprKind::Assign { .. } | ExprKind::IncDec { .. } | ExprKind::StmtExpr(_) => true,
        ExprKind::Call { func, .. } => !func.name.starts_with("__VERIFIER_nondet_"),
        _ => false,
    })
}

/// Replaces the statement with the given pre-order index.
struct ReplaceNth {
    target: usize,
    seen: usize,
    with: Option<Stmt>,
}

impl VisitMut for ReplaceNth {
    fn stmt(&mut self, s: &mut Stmt) {
        let k = self.seen;
        self.seen += 1;
        if k == self.target {
            if let Some(w) = self.with.take() {
                *s = w;
            }
            return;
        }
        walk_stmt_mut(self, s);
    }
}

/// The declared types of the scalars named `name` in `main` (parameters and locals), or
/// `None` if one is an array or a pointer.
fn scalar_types(prog: &Prog, name: &str) -> Option<Vec<Ty>> {
    let main = prog.main_fn();
    let mut out = Vec::new();
    for p in &main.proto.params {
        if p.name.as_ref().is_some_and(|n| n.name == name) {
            if p.pointer != 0 || p.is_array {
                return None;
            }
            out.push(p.ty.clone());
        }
    }
    let mut ok = true;
    walk::each_stmt(&main.body, |s| {
        if let StmtKind::Decl(d) = &s.kind {
            for v in d.vars.iter().filter(|v| v.name.name == name) {
                ok &= v.pointer == 0 && v.dims.is_empty() && matches!(d.ty, Ty::Int { .. });
                out.push(d.ty.clone());
            }
        }
    });
    ok.then_some(out)
}

/// The `enum` constants declared inside `main` (not visible from another procedure).
fn local_enum_constants(prog: &Prog) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    walk::each_stmt(&prog.main_fn().body, |s| {
        if let StmtKind::Decl(d) = &s.kind {
            for en in &d.enums {
                out.extend(en.items.iter().map(|(n, _)| n.name.clone()));
            }
        }
    });
    out
}

/// `body_to_proc`: the last check of `main` (in pre-order: `assert(e)`,
/// `__VERIFIER_assert(e)` or `if (c) { ERROR: ; }`, anywhere in `main`) moves into a new
/// procedure `void check(...)` that takes the locals of `main` it reads as parameters
/// (call-by-value: the same values, and a check assigns nothing). Arrays of `main` it
/// reads move to file scope first, under the rules of `local_to_global`. Exact, unless
/// such a move is not.
pub(super) fn body_to_proc(prog: &Prog) -> Vec<Rewrite> {
    let main = prog.main_fn();
    let mut target = None;
    let mut k = 0;
    walk::each_stmt(&main.body, |s| {
        if is_check(s) {
            target = Some((k, s.clone()));
        }
        k += 1;
    });
    let Some((index, check)) = target else {
        return Vec::new();
    };
    let local_names: BTreeSet<String> = walk::declared_names(&main.body)
        .into_iter()
        .chain(
            main.proto
                .params
                .iter()
                .flat_map(|p| &p.name)
                .map(|n| n.name.clone()),
        )
        .collect();
    let enums = local_enum_constants(prog);
    let movable = movable_locals(prog);
    let mut keeps = Keeps::Both;
    let mut params = Vec::new();
    let mut moved = Vec::new();
    let mut reads = BTreeSet::new();
    walk::each_expr(&check, |e| {
        if let Some(n) = walk::var_name(e) {
            reads.insert(n.to_string());
        }
    });
    for name in reads {
        if enums.contains(&name) {
            return Vec::new();
        }
        if !local_names.contains(&name) || (name == "u" && !prog.is_c && !prog.has_var_u()) {
            continue; // a global, or the undefined value
        }
        if let Some(a) = movable.iter().find(|a| a.name == name) {
            let Some(k) = keeps.and(a.keeps()) else {
                return Vec::new();
            };
            keeps = k;
            moved.push(a);
            continue;
        }
        let Some(types) = scalar_types(prog, &name) else {
            return Vec::new();
        };
        let Some(ty) = types.first() else {
            return Vec::new();
        };
        if types.iter().any(|t| t != ty) {
            return Vec::new();
        }
        params.push((name, ty.clone()));
    }
    let mut names = walk::all_names(&prog.ast);
    let proc_name = walk::fresh("check", &mut names);
    let mut ast = prog.ast.clone();
    let call = build::call_stmt(
        &proc_name,
        params.iter().map(|(n, _)| build::var(n)).collect(),
    );
    let mut replace = ReplaceNth {
        target: index,
        seen: 0,
        with: Some(call),
    };
    replace.stmt(&mut func_mut(&mut ast, prog.main).body);
    move_to_global(prog, &mut ast, &moved);
    let proto = FuncProto {
        storage: Storage::default(),
        ret: Ty::Void,
        ret_pointer: 0,
        name: build::ident(&proc_name),
        params: params
            .iter()
            .map(|(n, ty)| Param {
                ty: ty.clone(),
                pointer: 0,
                name: Some(build::ident(n)),
                is_array: false,
                span: Span::default(),
            })
            .collect(),
        void_params: false,
        variadic: false,
        attributes: Vec::new(),
        span: Span::default(),
    };
    let main_at = ast
        .items
        .iter()
        .position(|it| matches!(it, Item::Func(f) if f.proto.name.name == "main"))
        .expect("main is still there");
    ast.items.insert(
        main_at,
        Item::Func(FuncDef {
            proto,
            body: build::block(vec![check]),
            span: Span::default(),
        }),
    );
    vec![Rewrite {
        transformation: Transformation::BodyToProc,
        detail: None,
        keeps,
        program: ast,
    }]
}

/// Renames variables by a map, in one procedure.
struct Renamer<'a>(&'a BTreeMap<String, String>);

impl VisitMut for Renamer<'_> {
    fn expr(&mut self, e: &mut Expr) {
        if let ExprKind::Var(id) = &mut e.kind {
            if let Some(n) = self.0.get(&id.name) {
                id.name = n.clone();
            }
        }
        walk_expr_mut(self, e);
    }
    fn decl(&mut self, d: &mut Decl) {
        for v in &mut d.vars {
            if let Some(n) = self.0.get(&v.name.name) {
                v.name.name = n.clone();
            }
        }
        walk_decl_mut(self, d);
    }
}

/// Whether a procedure holds text the printer copies verbatim (which may name variables).
fn has_verbatim(f: &FuncDef) -> bool {
    walk::any_stmt(&f.body, |s| match &s.kind {
        StmtKind::Other { .. } | StmtKind::Typedef(_) => true,
        StmtKind::Decl(d) => d
            .vars
            .iter()
            .any(|v| matches!(v.init, Some(Init::Nested(..)))),
        _ => false,
    }) || walk::any_expr(&f.body, |e| matches!(e.kind, ExprKind::Other { .. }))
}

/// The names declared at file scope: globals, procedures, typedefs and `enum` constants
/// (anywhere: a local `enum` constant is left alone too).
fn file_scope_names(prog: &Prog) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    for item in &prog.ast.items {
        match item {
            Item::Decl(d) => out.extend(d.vars.iter().map(|v| v.name.name.clone())),
            Item::Func(f) => {
                out.insert(f.proto.name.name.clone());
            }
            Item::Proto(p) => {
                out.insert(p.name.name.clone());
            }
            Item::Typedef(t) => out.extend(t.names.iter().map(|(n, _)| n.name.clone())),
            Item::Other { .. } => {}
        }
    }
    struct Enums<'a>(&'a mut BTreeSet<String>);
    impl walk::Visit for Enums<'_> {
        fn decl(&mut self, d: &Decl) {
            for en in &d.enums {
                self.0.extend(en.items.iter().map(|(n, _)| n.name.clone()));
            }
            walk::walk_decl(self, d);
        }
    }
    walk::walk_program(&mut Enums(&mut out), &prog.ast);
    out
}

/// `rename`: every local variable (and parameter, except `main`'s) `x` of every procedure
/// becomes `idx_x` (made fresh), consistently in its procedure. Names that are also
/// declared at file scope, and `u`, are left alone. Exact.
pub(super) fn rename(prog: &Prog) -> Vec<Rewrite> {
    let keep = file_scope_names(prog);
    let mut taken = walk::all_names(&prog.ast);
    let mut ast = prog.ast.clone();
    let mut renamed = 0;
    for k in 0..ast.items.len() {
        let Item::Func(f) = &ast.items[k] else {
            continue;
        };
        if has_verbatim(f) {
            continue;
        }
        let mut locals = BTreeSet::new();
        walk::each_stmt(&f.body, |s| {
            if let StmtKind::Decl(d) = &s.kind {
                locals.extend(d.vars.iter().map(|v| v.name.name.clone()));
            }
        });
        if k != prog.main {
            locals.extend(
                f.proto
                    .params
                    .iter()
                    .flat_map(|p| &p.name)
                    .map(|n| n.name.clone()),
            );
        }
        let map: BTreeMap<String, String> = locals
            .into_iter()
            .filter(|n| n != "u" && !keep.contains(n))
            .map(|n| {
                let new = walk::fresh(&format!("idx_{n}"), &mut taken);
                (n, new)
            })
            .collect();
        if map.is_empty() {
            continue;
        }
        renamed += map.len();
        let f = func_mut(&mut ast, k);
        if k != prog.main {
            for p in &mut f.proto.params {
                if let Some(n) = &mut p.name {
                    if let Some(new) = map.get(&n.name) {
                        n.name = new.clone();
                    }
                }
            }
        }
        Renamer(&map).stmt(&mut f.body);
        debug_assert!(func(&ast, k).proto.name.name == func(&prog.ast, k).proto.name.name);
    }
    if renamed == 0 {
        return Vec::new();
    }
    vec![Rewrite {
        transformation: Transformation::Rename,
        detail: None,
        keeps: Keeps::Both,
        program: ast,
    }]
}
