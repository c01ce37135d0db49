//! Moving arrays between `main` and file scope: `local_to_global` and `global_to_local`.
//!
//! Globals start at 0 and locals arbitrary (README, "The language"), so a move changes
//! the initial contents. A local made global starts at 0, one of its arbitrary contents:
//! fewer behaviours, SAFE is kept. A global made local may start anywhere: more
//! behaviours, UNSAFE is kept. The move is exact, keeping both verdicts, when the initial
//! contents cannot be read: a full initialiser list, or a first use of the array that
//! writes every cell ([`writes_all_first`]). Only arrays of constant size, declared once in
//! the program, used by `main` alone, and a `main` that is not called (its locals have
//! one instance).

use super::build;
use super::consts::{first_func, plain_int};
use super::walk::{self, Visit};
use super::{main_stmts_mut, Keeps, Prog, Rewrite, Transformation};
use crate::syntax::ast::{
    BinOp, Decl, Expr, ExprKind, Init, Item, Program, Stmt, StmtKind, Storage, Ty, VarDecl,
};
use num_bigint::BigInt;

/// An array declarator of constant size with no initialiser or a full list: its size and
/// whether it is initialised.
pub(super) fn fixed_array(d: &Decl, v: &VarDecl) -> Option<(BigInt, bool)> {
    if v.pointer != 0 || d.storage.is_extern || !matches!(d.ty, Ty::Int { .. }) {
        return None;
    }
    let [Some(dim)] = &v.dims[..] else {
        return None;
    };
    let size = plain_int(dim)?.clone();
    match &v.init {
        None => Some((size, false)),
        Some(Init::List(es, _)) if BigInt::from(es.len()) == size => Some((size, true)),
        Some(_) => None,
    }
}

/// How many declarations (globals, locals and parameters) of `name` the program has.
pub(super) fn declarations(p: &Program, name: &str) -> usize {
    struct Count<'a>(&'a str, usize);
    impl Visit for Count<'_> {
        fn decl(&mut self, d: &Decl) {
            self.1 += d.vars.iter().filter(|v| v.name.name == self.0).count();
            walk::walk_decl(self, d);
        }
    }
    let mut c = Count(name, 0);
    walk::walk_program(&mut c, p);
    for item in &p.items {
        if let Item::Func(f) = item {
            c.1 += f
                .proto
                .params
                .iter()
                .filter(|q| q.name.as_ref().is_some_and(|n| n.name == name))
                .count();
            c.1 += usize::from(f.proto.name.name == name);
        }
    }
    c.1
}

/// Whether only `main` names `name` (besides the global declaration itself).
fn only_main_uses(prog: &Prog, name: &str) -> bool {
    prog.ast
        .items
        .iter()
        .enumerate()
        .all(|(k, item)| match item {
            Item::Func(f) => k == prog.main || !walk::mentions(&f.body, name),
            Item::Decl(d) => d.vars.iter().all(|v| match &v.init {
                Some(Init::Expr(e)) => !walk::expr_mentions(e, name),
                Some(Init::List(es, _)) => es.iter().all(|e| !walk::expr_mentions(e, name)),
                _ => true,
            }),
            Item::Proto(p) => p.name.name != name,
            Item::Typedef(_) | Item::Other { .. } => true,
        })
}

/// Whether the first statement of `stmts` (the top level of `main`) that uses the array
/// `a` writes all its `size` cells before reading any: `for (i = 0; i < size; i++) a[i]
/// = e; ...`, the same as `i = 0; while (i < size) { a[i] = e; ...; i = i + 1; }`, or
/// `klee_make_symbolic(a, ...)`. The loop body writes `a[i]` first, with an `e` not
/// reading `a`, and neither jumps (`break`, `continue`, `return`, `goto`) nor changes `i`
/// elsewhere; `i` is a local of `main`. Nothing is read if nothing uses `a`. Not for
/// programs with `goto`.
pub(super) fn writes_all_first(prog: &Prog, a: &str, size: &BigInt) -> bool {
    if prog.has_goto() {
        return false;
    }
    let stmts = prog.main_stmts();
    let locals = walk::declared_names(&prog.main_fn().body);
    for (k, s) in stmts.iter().enumerate() {
        if let StmtKind::Decl(d) = &s.kind {
            if d.vars.iter().all(|v| v.name.name != a || v.init.is_none())
                && d.vars.iter().all(|v| !decl_reads(v, a))
            {
                continue;
            }
        }
        if !walk::mentions(s, a) {
            continue;
        }
        let prev = k.checked_sub(1).map(|j| &stmts[j]);
        return writes_all(s, prev, a, size, &locals);
    }
    true
}

/// Whether a declarator's sizes or initialiser read `a`.
fn decl_reads(v: &VarDecl, a: &str) -> bool {
    let in_init = match &v.init {
        Some(Init::Expr(e)) => walk::expr_mentions(e, a),
        Some(Init::List(es, _)) => es.iter().any(|e| walk::expr_mentions(e, a)),
        _ => false,
    };
    in_init || v.dims.iter().flatten().any(|e| walk::expr_mentions(e, a))
}

fn writes_all(
    s: &Stmt,
    prev: Option<&Stmt>,
    a: &str,
    size: &BigInt,
    locals: &std::collections::BTreeSet<String>,
) -> bool {
    match &s.kind {
        StmtKind::Expr(Expr {
            kind: ExprKind::Call { func, args },
            ..
        }) if func.name == "klee_make_symbolic" => {
            args.first().and_then(walk::var_name) == Some(a)
                && args[1..].iter().all(|e| !walk::expr_mentions(e, a))
        }
        StmtKind::For {
            init: Some(init),
            cond: Some(cond),
            step: Some(step),
            body,
        } => {
            let Some(i) = zero_init(init) else {
                return false;
            };
            locals.contains(i)
                && counts_to(cond, i, size)
                && is_increment(step, i)
                && body_writes_first(super::block_stmts(body), a, i)
        }
        StmtKind::While { cond, body } => {
            let Some(i) = prev.and_then(zero_init) else {
                return false;
            };
            let body = super::block_stmts(body);
            let Some((last, rest)) = body.split_last() else {
                return false;
            };
            locals.contains(i)
                && counts_to(cond, i, size)
                && is_increment(last, i)
                && body_writes_first(rest, a, i)
        }
        _ => false,
    }
}

/// `i = 0` or `int i = 0`: `i`.
fn zero_init(s: &Stmt) -> Option<&str> {
    let zero = BigInt::from(0);
    match &s.kind {
        StmtKind::Assign { lhs, rhs } if lhs.len() == 1 && plain_int(&rhs[0]) == Some(&zero) => {
            walk::var_name(&lhs[0])
        }
        StmtKind::Decl(d) => match &d.vars[..] {
            [v] if v.dims.is_empty() => match &v.init {
                Some(Init::Expr(e)) if plain_int(e) == Some(&zero) => Some(&v.name.name),
                _ => None,
            },
            _ => None,
        },
        _ => None,
    }
}

/// `i < size`, `size > i`, `i != size` or `i <= size - 1`.
fn counts_to(cond: &Expr, i: &str, size: &BigInt) -> bool {
    let ExprKind::Binary { op, l, r } = &cond.kind else {
        return false;
    };
    let last = size - 1;
    match (walk::var_name(l), walk::var_name(r)) {
        (Some(x), _) if x == i => match op {
            BinOp::Lt | BinOp::Ne => plain_int(r) == Some(size),
            BinOp::Le => plain_int(r) == Some(&last),
            _ => false,
        },
        (_, Some(x)) if x == i => match op {
            BinOp::Gt | BinOp::Ne => plain_int(l) == Some(size),
            BinOp::Ge => plain_int(l) == Some(&last),
            _ => false,
        },
        _ => false,
    }
}

/// `i++`, `++i`, `i += 1` or `i = i + 1`.
pub(super) fn is_increment(s: &Stmt, i: &str) -> bool {
    let one = BigInt::from(1);
    match &s.kind {
        StmtKind::IncDec { lhs, inc: true, .. } => walk::var_name(lhs) == Some(i),
        StmtKind::CompoundAssign {
            lhs,
            op: crate::syntax::ast::AssignOp::Add,
            rhs,
        } => walk::var_name(lhs) == Some(i) && plain_int(rhs) == Some(&one),
        StmtKind::Assign { lhs, rhs } if lhs.len() == 1 => {
            walk::var_name(&lhs[0]) == Some(i)
                && matches!(&rhs[0].kind, ExprKind::Binary { op: BinOp::Add, l, r }
                    if walk::var_name(l) == Some(i) && plain_int(r) == Some(&one))
        }
        _ => false,
    }
}

/// The body starts with `a[i] = e` (`e` not reading `a`), the rest does not use `a`,
/// nothing changes `i`, and nothing jumps.
fn body_writes_first(body: &[Stmt], a: &str, i: &str) -> bool {
    let Some((first, rest)) = body.split_first() else {
        return false;
    };
    let StmtKind::Assign { lhs, rhs } = &first.kind else {
        return false;
    };
    let writes = lhs.len() == 1
        && matches!(&lhs[0].kind, ExprKind::Index { base, index }
            if walk::var_name(base) == Some(a) && walk::var_name(index) == Some(i))
        && !walk::expr_mentions(&rhs[0], a);
    writes
        && body.iter().all(|s| {
            !walk::any_stmt(s, |x| {
                matches!(
                    x.kind,
                    StmtKind::Break
                        | StmtKind::Continue
                        | StmtKind::Return(_)
                        | StmtKind::Goto(_)
                        | StmtKind::Labeled { .. }
                ) || assigns(x, i)
            }) && !walk::any_expr(s, |e| {
                matches!(e.kind, ExprKind::Assign { .. } | ExprKind::IncDec { .. })
            })
        })
        && rest
            .iter()
            .all(|s| !walk::mentions(s, a) && !walk::declared_names(s).contains(i))
}

/// Whether the statement itself assigns `v` (not its sub-statements).
fn assigns(s: &Stmt, v: &str) -> bool {
    match &s.kind {
        StmtKind::Assign { lhs, .. } => lhs.iter().any(|l| walk::var_name(l) == Some(v)),
        StmtKind::CompoundAssign { lhs, .. } | StmtKind::IncDec { lhs, .. } => {
            walk::var_name(lhs) == Some(v)
        }
        _ => false,
    }
}

/// An array of `main` that may move to file scope.
pub(super) struct LocalArray {
    /// The index of its declaration among `main`'s top-level statements.
    pub stmt: usize,
    /// The declarator's index in that declaration.
    pub var: usize,
    pub name: String,
    /// Whether the move is exact (initialised, or written all first).
    pub exact: bool,
}

impl LocalArray {
    /// What moving it keeps.
    pub fn keeps(&self) -> Keeps {
        if self.exact {
            Keeps::Both
        } else {
            Keeps::Safe
        }
    }
}

/// The arrays declared at the top level of `main` that may move to file scope.
pub(super) fn movable_locals(prog: &Prog) -> Vec<LocalArray> {
    if prog.main_is_called() {
        return Vec::new();
    }
    let mut out = Vec::new();
    for (k, s) in prog.main_stmts().iter().enumerate() {
        let StmtKind::Decl(d) = &s.kind else {
            continue;
        };
        if d.storage.is_static {
            continue;
        }
        for (j, v) in d.vars.iter().enumerate() {
            let Some((size, init)) = fixed_array(d, v) else {
                continue;
            };
            let name = &v.name.name;
            if declarations(&prog.ast, name) != 1 || !only_main_uses(prog, name) {
                continue;
            }
            out.push(LocalArray {
                stmt: k,
                var: j,
                name: name.clone(),
                exact: init || writes_all_first(prog, name, &size),
            });
        }
    }
    out
}

/// Moves the given arrays of `main` (indices into its top-level statements) to file scope,
/// before the first procedure.
pub(super) fn move_to_global(prog: &Prog, ast: &mut Program, arrays: &[&LocalArray]) {
    let mut order: Vec<&&LocalArray> = arrays.iter().collect();
    order.sort_by_key(|a| std::cmp::Reverse((a.stmt, a.var)));
    let mut globals = Vec::new();
    let stmts = main_stmts_mut(ast, prog.main);
    let mut emptied = Vec::new();
    for a in order {
        let StmtKind::Decl(d) = &mut stmts[a.stmt].kind else {
            unreachable!("movable_locals found a declaration here");
        };
        let v = d.vars.remove(a.var);
        globals.push(Decl {
            storage: Storage {
                is_const: d.storage.is_const,
                ..Storage::default()
            },
            ..build::decl(d.ty.clone(), vec![v])
        });
        if d.vars.is_empty() && !emptied.contains(&a.stmt) {
            emptied.push(a.stmt);
        }
    }
    emptied.sort_unstable_by(|x, y| y.cmp(x));
    for k in emptied {
        stmts.remove(k);
    }
    globals.reverse();
    let at = first_func(ast);
    for (k, g) in globals.into_iter().enumerate() {
        ast.items.insert(at + k, Item::Decl(g));
    }
}

/// `local_to_global`: one variant per array of `main` that may move (see the module
/// documentation): exact when initialised or written all first, else SAFE only.
pub(super) fn local_to_global(prog: &Prog) -> Vec<Rewrite> {
    movable_locals(prog)
        .iter()
        .map(|a| {
            let mut ast = prog.ast.clone();
            move_to_global(prog, &mut ast, &[a]);
            Rewrite {
                transformation: Transformation::LocalToGlobal,
                detail: Some(a.name.clone()),
                keeps: a.keeps(),
                program: ast,
            }
        })
        .collect()
}

/// `global_to_local`: one variant per global array used by `main` alone, declared first
/// in `main`'s body: exact when initialised or written all first, else UNSAFE only.
pub(super) fn global_to_local(prog: &Prog) -> Vec<Rewrite> {
    if prog.main_is_called() {
        return Vec::new();
    }
    let mut out = Vec::new();
    for (k, item) in prog.ast.items.iter().enumerate() {
        let Item::Decl(d) = item else {
            continue;
        };
        for (j, v) in d.vars.iter().enumerate() {
            let Some((size, init)) = fixed_array(d, v) else {
                continue;
            };
            let name = &v.name.name;
            if declarations(&prog.ast, name) != 1 || !only_main_uses(prog, name) {
                continue;
            }
            let exact = init || writes_all_first(prog, name, &size);
            let mut ast = prog.ast.clone();
            let Item::Decl(g) = &mut ast.items[k] else {
                unreachable!("item {k} is a declaration");
            };
            let moved = g.vars.remove(j);
            let local = Decl {
                storage: Storage {
                    is_const: g.storage.is_const,
                    ..Storage::default()
                },
                ..build::decl(g.ty.clone(), vec![moved])
            };
            let main = if g.vars.is_empty() {
                ast.items.remove(k);
                prog.main - usize::from(k < prog.main)
            } else {
                prog.main
            };
            main_stmts_mut(&mut ast, main).insert(0, build::stmt(StmtKind::Decl(local)));
            out.push(Rewrite {
                transformation: Transformation::GlobalToLocal,
                detail: Some(name.clone()),
                keeps: if exact { Keeps::Both } else { Keeps::Unsafe },
                program: ast,
            });
        }
    }
    out
}
