//! The rewrites of constants: `const_to_param` (a loop bound `N` becomes a bounded
//! nondeterministic `n`), `param_to_const` (the converse) and `scale_size_*` (the array
//! size and the bounds equal to it, scaled).
//!
//! A program is *uniform in* `N` when its behaviour for a smaller `N` is that of the same
//! program with the smaller constant: then replacing `N` by any `n <= N` keeps SAFE. That
//! cannot be decided here, so the SAFE rules are syntactic and conservative:
//! - every occurrence of `N` (and of `N - 1`, folded) is replaced, and none stands where a
//!   variable cannot (a factor of a product, a divisor, a `case`, a static initialiser);
//! - every array has a constant size of at least `N`;
//! - no other constant of the program is near `N` (`|c| >= 2` and `16|c| >= N`: `N + 1`,
//!   `2N`, `N / 2`, or `12` for two loops of 4 and 3, would make it depend on `N`);
//! - for `const_to_param`, `N >= 10` (a small bound is too often part of the argument: three
//!   rotations of three values give them back), no constant array index but 0 (`a[1]` is
//!   out of the loop's range for `n = 1`), and in C files only `int` variables (a counter
//!   that wraps at 256 depends on `N` modulo 256).

use super::build;
use super::walk::{self, walk_decl, walk_expr_mut, walk_stmt_mut, Visit, VisitMut};
use super::{main_stmts_mut, Expect, Keeps, Prog, Rewrite, Transformation};
use crate::syntax::ast::{
    AssignOp, BinOp, Decl, Expr, ExprKind, Init, IntLit, Item, Program, Stmt, StmtKind,
};
use num_bigint::BigInt;
use num_traits::{One, Signed};
use std::collections::BTreeSet;

/// The constants `N >= 2` that a loop test compares with a variable (`i < N`, `N > i`,
/// `i != N`, ...): the candidate loop bounds.
pub(super) fn loop_bounds(p: &Program) -> BTreeSet<BigInt> {
    let mut out = BTreeSet::new();
    let two = BigInt::from(2);
    let mut scan = |cond: &Expr| {
        walk::each_subexpr(cond, |e| {
            if let ExprKind::Binary { op, l, r } = &e.kind {
                if !is_comparison(*op) {
                    return;
                }
                for (a, b) in [(l, r), (r, l)] {
                    if let (ExprKind::Var(_), Some(c)) = (&a.kind, plain_int(b)) {
                        if *c >= two {
                            out.insert(c.clone());
                        }
                    }
                }
            }
        });
    };
    for item in &p.items {
        if let Item::Func(f) = item {
            walk::each_stmt(&f.body, |s| match &s.kind {
                StmtKind::While { cond, .. } | StmtKind::DoWhile { cond, .. } => scan(cond),
                StmtKind::For { cond: Some(c), .. } => scan(c),
                _ => {}
            });
        }
    }
    out
}

fn is_comparison(op: BinOp) -> bool {
    matches!(
        op,
        BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge | BinOp::Eq | BinOp::Ne
    )
}

/// The value of a literal written without suffix in decimal.
pub(super) fn plain_int(e: &Expr) -> Option<&BigInt> {
    match &e.kind {
        ExprKind::Int(v, lit) if *lit == IntLit::default() => Some(v),
        _ => None,
    }
}

/// Replaces the literals `N` and `N - 1` where a variable may stand, and counts what it
/// saw.
struct Replace {
    n: BigInt,
    /// Replace `N - 1` too (only when it is at least 2: a `1` is rarely `N - 1`).
    with_n_minus_1: bool,
    to_n: Expr,
    to_n_minus_1: Expr,
    /// Inside a factor, a divisor, a `case`, an `enum` value or a static initialiser.
    fixed: u32,
    /// Replacements made.
    replaced: usize,
    /// Occurrences left where a variable cannot stand.
    blocked: usize,
    /// The other literals in replaceable places.
    others: Vec<BigInt>,
    /// Constant array indices other than 0 that were not replaced.
    const_indices: usize,
}

impl Replace {
    fn new(n: &BigInt, to_n: Expr, to_n_minus_1: Expr) -> Replace {
        let n_minus_1 = n - BigInt::one();
        Replace {
            n: n.clone(),
            with_n_minus_1: n_minus_1 >= BigInt::from(2),
            to_n,
            to_n_minus_1,
            fixed: 0,
            replaced: 0,
            blocked: 0,
            others: Vec::new(),
            const_indices: 0,
        }
    }

    fn fixed(&mut self, f: impl FnOnce(&mut Self)) {
        self.fixed += 1;
        f(self);
        self.fixed -= 1;
    }

    /// Whether no other literal is near `N` (see the module documentation).
    fn others_far(&self) -> bool {
        let two = BigInt::from(2);
        self.others
            .iter()
            .all(|v| v.abs() < two || v.abs() * 16 < self.n)
    }

    /// Visit a whole program: globals' initialisers are fixed.
    fn program(&mut self, p: &mut Program) {
        for item in &mut p.items {
            match item {
                Item::Decl(d) => self.fixed(|s| s.decl(d)),
                Item::Func(f) => self.stmt(&mut f.body),
                Item::Proto(_) | Item::Typedef(_) | Item::Other { .. } => {}
            }
        }
    }
}

impl VisitMut for Replace {
    fn expr(&mut self, e: &mut Expr) {
        match &mut e.kind {
            ExprKind::Int(v, lit) => {
                let is_n = *v == self.n;
                let is_n_minus_1 = self.with_n_minus_1 && *v == &self.n - BigInt::one();
                let plain = *lit == IntLit::default();
                if is_n || is_n_minus_1 {
                    if self.fixed > 0 || !plain {
                        self.blocked += 1;
                    } else {
                        *e = if is_n {
                            self.to_n.clone()
                        } else {
                            self.to_n_minus_1.clone()
                        };
                        self.replaced += 1;
                    }
                } else if self.fixed == 0 {
                    self.others.push(v.clone());
                }
            }
            ExprKind::Binary {
                op: BinOp::Mul,
                l,
                r,
            } => self.fixed(|s| {
                s.expr(l);
                s.expr(r);
            }),
            ExprKind::Binary {
                op: BinOp::Div | BinOp::Mod,
                l,
                r,
            } => {
                self.expr(l);
                self.fixed(|s| s.expr(r));
            }
            ExprKind::SizeofType { .. } => self.fixed(|s| walk_expr_mut(s, e)),
            ExprKind::Index { .. } => {
                walk_expr_mut(self, e);
                // After the walk: an index `N` or `N - 1` is a variable now.
                if let ExprKind::Index { index, .. } = &e.kind {
                    if plain_int(index).is_some_and(|v| *v != BigInt::from(0)) {
                        self.const_indices += 1;
                    }
                }
            }
            _ => walk_expr_mut(self, e),
        }
    }

    fn stmt(&mut self, s: &mut Stmt) {
        match &mut s.kind {
            StmtKind::Case { value, stmt } => {
                self.fixed(|v| v.expr(value));
                self.stmt(stmt);
            }
            StmtKind::CompoundAssign {
                lhs,
                op: AssignOp::Mul | AssignOp::Div | AssignOp::Mod,
                rhs,
            } => {
                self.expr(lhs);
                self.fixed(|v| v.expr(rhs));
            }
            _ => walk_stmt_mut(self, s),
        }
    }

    fn decl(&mut self, d: &mut Decl) {
        for en in &mut d.enums {
            for (_, e) in en.items.iter_mut() {
                if let Some(e) = e {
                    self.fixed(|v| v.expr(e));
                }
            }
        }
        let is_static = d.storage.is_static;
        for var in &mut d.vars {
            // Array sizes are not expressions a variable may replace (and not counted).
            match &mut var.init {
                Some(Init::Expr(e)) if is_static => self.fixed(|v| v.expr(e)),
                Some(Init::Expr(e)) => self.expr(e),
                Some(Init::List(es, _)) => {
                    for e in es {
                        self.fixed(|v| v.expr(e));
                    }
                }
                Some(Init::Nested(..)) | None => {}
            }
        }
    }
}

/// The array sizes of the program: `Some(size)` for a literal, `None` for any other (a
/// variable-length array, an expression, `a[]`).
fn array_sizes(p: &Program) -> Vec<Option<BigInt>> {
    struct Sizes(Vec<Option<BigInt>>);
    impl Visit for Sizes {
        fn decl(&mut self, d: &Decl) {
            for v in &d.vars {
                for dim in &v.dims {
                    self.0
                        .push(dim.as_ref().and_then(|e| plain_int(e)).cloned());
                }
            }
            walk_decl(self, d);
        }
    }
    let mut s = Sizes(Vec::new());
    walk::walk_program(&mut s, p);
    s.0
}

/// Whether some array has an initialiser list.
fn has_array_initialiser(p: &Program) -> bool {
    struct Inits(bool);
    impl Visit for Inits {
        fn decl(&mut self, d: &Decl) {
            self.0 |= d
                .vars
                .iter()
                .any(|v| !v.dims.is_empty() && v.init.is_some());
            walk_decl(self, d);
        }
    }
    let mut s = Inits(false);
    walk::walk_program(&mut s, p);
    s.0
}

/// Whether every type the program names (declarations, parameters, casts, nondeterministic
/// values) is plain `int` (or `void`): no value wraps below `int`'s range.
fn only_int(p: &Program) -> bool {
    let is_int = |t: &crate::syntax::ast::Ty| match t {
        crate::syntax::ast::Ty::Int { int, .. } => *int == crate::syntax::ast::IntTy::INT,
        crate::syntax::ast::Ty::Void => true,
        crate::syntax::ast::Ty::Unsupported { .. } => false,
    };
    struct Types<'a>(&'a dyn Fn(&crate::syntax::ast::Ty) -> bool, bool);
    impl Visit for Types<'_> {
        fn decl(&mut self, d: &Decl) {
            self.1 &= (self.0)(&d.ty);
            walk_decl(self, d);
        }
        fn expr(&mut self, e: &Expr) {
            match &e.kind {
                ExprKind::Cast { ty, .. } => self.1 &= (self.0)(ty),
                ExprKind::Call { func, .. } if func.name.starts_with("__VERIFIER_nondet_") => {
                    self.1 &= func.name == "__VERIFIER_nondet_int";
                }
                _ => {}
            }
            walk::walk_expr(self, e);
        }
    }
    let mut v = Types(&is_int, true);
    walk::walk_program(&mut v, p);
    let params_int = p.items.iter().all(|it| match it {
        Item::Func(f) => f.proto.params.iter().all(|q| is_int(&q.ty)),
        _ => true,
    });
    v.1 && params_int
}

/// The statements that make a fresh `n` nondeterministic in `0 < n <= bound`: `.lp`
/// `n = u; assume(...);`, C `n = __VERIFIER_nondet_int(); if (!(...)) return 0;`. With
/// `declare`, `n` is declared too (a local of `main`).
fn bounded_nondet(prog: &Prog, n: &str, bound: &BigInt, declare: bool) -> Vec<Stmt> {
    let range = build::bin(
        BinOp::And,
        build::bin(BinOp::Lt, build::int(0), build::var(n)),
        build::bin(BinOp::Le, build::var(n), build::int(bound.clone())),
    );
    let mut out = Vec::new();
    if prog.is_c {
        let nondet = build::call("__VERIFIER_nondet_int", Vec::new());
        if declare {
            out.push(build::int_decl_stmt(n, Some(nondet)));
        } else {
            out.push(build::assign(build::var(n), nondet));
        }
        out.push(build::stmt(StmtKind::If {
            cond: build::not(range),
            then: Box::new(build::ret(prog.main_returns_value())),
            els: None,
        }));
    } else {
        if declare {
            out.push(build::int_decl_stmt(n, None));
        }
        out.push(build::assign(build::var(n), build::var("u")));
        out.push(build::call_stmt("assume", vec![range]));
    }
    out
}

/// Index of the first procedure among the items (where new globals go).
pub(super) fn first_func(p: &Program) -> usize {
    p.items
        .iter()
        .position(|it| matches!(it, Item::Func(_)))
        .unwrap_or(p.items.len())
}

/// `const_to_param`: for each loop bound `N`, every replaceable `N` becomes a new `n`
/// with `0 < n <= N` (and `N - 1` becomes `n - 1`). It adds behaviours, among them the
/// original (`n = N`): it keeps UNSAFE. It keeps SAFE for programs uniform in `N`,
/// approximated as in the module documentation (and `N >= 3`).
pub(super) fn const_to_param(prog: &Prog) -> Vec<Rewrite> {
    if prog.expect == Expect::Other || (!prog.is_c && prog.has_var_u()) {
        return Vec::new();
    }
    let sizes = array_sizes(&prog.ast);
    let mut out = Vec::new();
    for bound in loop_bounds(&prog.ast) {
        if prog.is_c && bound > BigInt::from(i32::MAX) {
            continue;
        }
        let mut names = walk::all_names(&prog.ast);
        let n = walk::fresh("n", &mut names);
        let to_n_minus_1 = build::bin(BinOp::Sub, build::var(&n), build::int(1));
        let mut replace = Replace::new(&bound, build::var(&n), to_n_minus_1);
        let mut ast = prog.ast.clone();
        let mut outside_main = 0;
        for (k, item) in ast.items.iter_mut().enumerate() {
            let before = replace.replaced;
            match item {
                Item::Decl(d) => replace.fixed(|s| s.decl(d)),
                Item::Func(f) => replace.stmt(&mut f.body),
                Item::Proto(_) | Item::Typedef(_) | Item::Other { .. } => {}
            }
            if k != prog.main {
                outside_main += replace.replaced - before;
            }
        }
        if replace.replaced == 0 {
            continue;
        }
        let keeps = match prog.expect {
            Expect::Unsafe => Keeps::Unsafe,
            Expect::Safe
                if replace.blocked == 0
                    && bound >= BigInt::from(10)
                    && replace.others_far()
                    && replace.const_indices == 0
                    && (!prog.is_c || only_int(&prog.ast))
                    && sizes
                        .iter()
                        .all(|s| s.as_ref().is_some_and(|s| *s >= bound)) =>
            {
                Keeps::Safe
            }
            _ => continue,
        };
        let global = outside_main > 0;
        let init = bounded_nondet(prog, &n, &bound, !global);
        let stmts = main_stmts_mut(&mut ast, prog.main);
        stmts.splice(0..0, init);
        if global {
            let at = first_func(&ast);
            ast.items.insert(
                at,
                Item::Decl(build::decl(
                    build::int_ty(),
                    vec![build::var_decl(&n, Vec::new(), None)],
                )),
            );
        }
        out.push(Rewrite {
            transformation: Transformation::ConstToParam,
            detail: Some(bound.to_string()),
            keeps,
            program: ast,
        });
    }
    out
}

/// A call of `assume`, `__VERIFIER_assume` or `assume_abort_if_not` as a statement: its
/// condition.
pub(super) fn assume_cond(s: &Stmt) -> Option<&Expr> {
    match &s.kind {
        StmtKind::Expr(Expr {
            kind: ExprKind::Call { func, args },
            ..
        }) if args.len() == 1
            && matches!(
                func.name.as_str(),
                "assume" | "__VERIFIER_assume" | "assume_abort_if_not"
            ) =>
        {
            Some(&args[0])
        }
        _ => None,
    }
}

/// `if (c) return ...;` (or `abort();`, `exit(...);`, in braces or not) without `else`:
/// `c`.
pub(super) fn early_exit_cond(s: &Stmt) -> Option<&Expr> {
    let StmtKind::If {
        cond,
        then,
        els: None,
    } = &s.kind
    else {
        return None;
    };
    let exits = super::block_stmts(then);
    let is_exit = |s: &Stmt| match &s.kind {
        StmtKind::Return(_) => true,
        StmtKind::Expr(Expr {
            kind: ExprKind::Call { func, .. },
            ..
        }) => matches!(func.name.as_str(), "abort" | "exit"),
        _ => false,
    };
    (exits.len() == 1 && is_exit(&exits[0])).then_some(cond)
}

/// The operands of a chain of `op` (`a && b && c` → `[a, b, c]`).
pub(super) fn split(e: &Expr, op: BinOp) -> Vec<&Expr> {
    match &e.kind {
        ExprKind::Binary { op: o, l, r } if *o == op => {
            let mut out = split(l, op);
            out.extend(split(r, op));
            out
        }
        _ => vec![e],
    }
}

/// `e` as `v op c` with the variable `v` on the left and a literal `c`: the operator
/// flipped when written `c op v`.
fn var_cmp_const<'e>(e: &'e Expr, v: &str) -> Option<(BinOp, &'e BigInt)> {
    let ExprKind::Binary { op, l, r } = &e.kind else {
        return None;
    };
    let flip = |op: BinOp| match op {
        BinOp::Lt => BinOp::Gt,
        BinOp::Le => BinOp::Ge,
        BinOp::Gt => BinOp::Lt,
        BinOp::Ge => BinOp::Le,
        o => o,
    };
    match (walk::var_name(l), walk::var_name(r)) {
        (Some(x), _) if x == v => Some((*op, plain_int(r)?)),
        (_, Some(x)) if x == v => Some((flip(*op), plain_int(l)?)),
        _ => None,
    }
}

/// The largest value `v` may keep after `s`, when `s` is an assume (a conjunct `v <= C`
/// or `v < C`) or an early exit (a disjunct `v > C` or `v >= C`).
fn upper_bound(s: &Stmt, v: &str) -> Option<BigInt> {
    if let Some(c) = assume_cond(s) {
        return split(c, BinOp::And)
            .into_iter()
            .find_map(|e| match var_cmp_const(e, v)? {
                (BinOp::Le, c) => Some(c.clone()),
                (BinOp::Lt, c) => Some(c - 1),
                _ => None,
            });
    }
    let c = early_exit_cond(s)?;
    split(c, BinOp::Or)
        .into_iter()
        .find_map(|e| match var_cmp_const(e, v)? {
            (BinOp::Gt, c) => Some(c.clone()),
            (BinOp::Ge, c) => Some(c - 1),
            _ => None,
        })
}

/// Whether `e` is a nondeterministic value: `u` in `.lp` files (when no variable is named
/// `u`), `__VERIFIER_nondet_int()` anywhere.
pub(super) fn is_nondet(prog: &Prog, e: &Expr) -> bool {
    match &e.kind {
        ExprKind::Var(id) => !prog.is_c && id.name == "u" && !prog.has_var_u(),
        ExprKind::Call { func, args } => args.is_empty() && func.name == "__VERIFIER_nondet_int",
        _ => false,
    }
}

/// The variable a top-level statement of `main` makes nondeterministic (`v = u;`,
/// `v = __VERIFIER_nondet_int();`, `int v = __VERIFIER_nondet_int();`), with the path to
/// the nondeterministic expression (the declarator's index for a declaration).
fn nondet_target(prog: &Prog, s: &Stmt) -> Option<(String, Option<usize>)> {
    match &s.kind {
        StmtKind::Assign { lhs, rhs } if lhs.len() == 1 && is_nondet(prog, &rhs[0]) => {
            Some((walk::var_name(&lhs[0])?.to_string(), None))
        }
        StmtKind::Decl(d) => d.vars.iter().enumerate().find_map(|(k, v)| match &v.init {
            Some(Init::Expr(e)) if v.dims.is_empty() && v.pointer == 0 && is_nondet(prog, e) => {
                Some((v.name.name.clone(), Some(k)))
            }
            _ => None,
        }),
        _ => None,
    }
}

/// `param_to_const`: a variable of `main` set nondeterministically at the top level and
/// bounded above by a later assume or early exit (`n <= C`, `n < C`, `n > C` exits, ...)
/// is set to that bound instead (the bound check stays). It removes behaviours: it keeps
/// SAFE (only), whatever the program does with `n`.
pub(super) fn param_to_const(prog: &Prog) -> Vec<Rewrite> {
    if prog.expect != Expect::Safe {
        return Vec::new();
    }
    let int_max = BigInt::from(i32::MAX);
    let stmts = prog.main_stmts();
    let mut out = Vec::new();
    let mut seen = BTreeSet::new();
    for (k, s) in stmts.iter().enumerate() {
        let Some((v, declarator)) = nondet_target(prog, s) else {
            continue;
        };
        if !seen.insert(v.clone()) {
            continue;
        }
        let Some(bound) = stmts[k + 1..].iter().find_map(|t| upper_bound(t, &v)) else {
            continue;
        };
        if prog.is_c && bound.abs() > int_max {
            continue;
        }
        let mut ast = prog.ast.clone();
        let target = &mut main_stmts_mut(&mut ast, prog.main)[k];
        let value = build::int(bound.clone());
        match (&mut target.kind, declarator) {
            (StmtKind::Assign { rhs, .. }, None) => rhs[0] = value,
            (StmtKind::Decl(d), Some(j)) => d.vars[j].init = Some(Init::Expr(value)),
            _ => unreachable!("nondet_target matched this statement"),
        }
        out.push(Rewrite {
            transformation: Transformation::ParamToConst,
            detail: Some(v),
            keeps: Keeps::Safe,
            program: ast,
        });
    }
    out
}

/// Sets every array size `from` to `to`.
struct Resize {
    from: BigInt,
    to: BigInt,
}

impl VisitMut for Resize {
    fn decl(&mut self, d: &mut Decl) {
        for v in &mut d.vars {
            for dim in v.dims.iter_mut().flatten() {
                if plain_int(dim) == Some(&self.from) {
                    *dim = build::int(self.to.clone());
                }
            }
        }
        super::walk::walk_decl_mut(self, d);
    }
}

/// `scale_size_10`, `scale_size_1000`: in a SAFE program whose arrays all have the same
/// constant size `S >= 3`, which is also a loop bound, multiply `S` by `factor` in the
/// sizes and in every replaceable literal `S` (and `S - 1` → `factor * S - 1`), under the
/// SAFE rules of `const_to_param` (uniformity). Not for UNSAFE programs (the bug may
/// depend on the size), nor arrays with initialisers, nor sizes past 10⁹.
pub(super) fn scale_size(prog: &Prog, factor: u32) -> Vec<Rewrite> {
    if prog.expect != Expect::Safe || has_array_initialiser(&prog.ast) {
        return Vec::new();
    }
    let sizes = array_sizes(&prog.ast);
    let Some(Some(size)) = sizes.first().cloned() else {
        return Vec::new();
    };
    if sizes.iter().any(|s| s.as_ref() != Some(&size))
        || size < BigInt::from(3)
        || !loop_bounds(&prog.ast).contains(&size)
    {
        return Vec::new();
    }
    let scaled = &size * factor;
    if scaled > BigInt::from(1_000_000_000) {
        return Vec::new();
    }
    let mut replace = Replace::new(&size, build::int(scaled.clone()), build::int(&scaled - 1));
    let mut ast = prog.ast.clone();
    replace.program(&mut ast);
    if replace.blocked > 0 || !replace.others_far() || (prog.is_c && !only_int(&prog.ast)) {
        return Vec::new();
    }
    let mut resize = Resize {
        from: size,
        to: scaled,
    };
    for item in &mut ast.items {
        match item {
            Item::Decl(d) => resize.decl(d),
            Item::Func(f) => resize.stmt(&mut f.body),
            Item::Proto(_) | Item::Typedef(_) | Item::Other { .. } => {}
        }
    }
    let transformation = if factor == 10 {
        Transformation::ScaleSize10
    } else {
        Transformation::ScaleSize1000
    };
    vec![Rewrite {
        transformation,
        detail: None,
        keeps: Keeps::Safe,
        program: ast,
    }]
}
