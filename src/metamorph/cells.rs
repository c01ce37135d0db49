//! `check_all_cells`: a check at one nondeterministic index becomes a loop checking
//! every index of the same range.
//!
//! `j = u; assume(L <= j && j < B); assert(P);` (or C's `int j =
//! __VERIFIER_nondet_int(); if (j < L || j >= B) return 0; __VERIFIER_assert(P);`) fails
//! iff `P` is false for some `j` in `[L, B)`; so does `for (j = L; j < B; j++)
//! assert(P);`, when `P` reads `j` only as an array index `a[j]`, has no effect and no
//! nondeterminism, and `j` is used nowhere else. The two differ in what comes after: the
//! original stops when the range is empty and goes on with one `j`, the loop goes on with
//! `j = B`. So the triple must not be in a loop, and nothing after it (in its blocks, up to
//! the end of `main`) may reach an error. Exact.

use super::build;
use super::consts::{assume_cond, early_exit_cond, is_nondet, split};
use super::procs::assert_cond;
use super::walk;
use super::{func_mut, Keeps, Prog, Rewrite, Transformation};
use crate::syntax::ast::{BinOp, Expr, ExprKind, Init, IntTy, Stmt, StmtKind, Ty};
use std::collections::BTreeSet;

/// Whether `s` cannot reach an error: no check, no `ERROR:` label, no error call, and no
/// call of a procedure of the program (which may hold one).
fn error_free(s: &Stmt, procs: &BTreeSet<String>) -> bool {
    !walk::any_stmt(
        s,
        |x| matches!(&x.kind, StmtKind::Labeled { label, .. } if label.name == "ERROR"),
    ) && !walk::any_expr(s, |e| match &e.kind {
        ExprKind::Call { func, .. } => {
            procs.contains(&func.name)
                || matches!(
                    func.name.as_str(),
                    "assert"
                        | "__VERIFIER_assert"
                        | "reach_error"
                        | "__VERIFIER_error"
                        | "__assert_fail"
                        | "__assert_rtn"
                        | "__assert"
                        | "__assert_perror_fail"
                )
        }
        _ => false,
    })
}

/// Whether an expression is a pure, deterministic function of the state: no calls, no
/// assignments, no `u`.
pub(super) fn is_pure(prog: &Prog, e: &Expr) -> bool {
    !walk::any_subexpr(e, |x| match &x.kind {
        ExprKind::Call { .. }
        | ExprKind::Assign { .. }
        | ExprKind::IncDec { .. }
        | ExprKind::StmtExpr(_) => true,
        _ => is_nondet(prog, x),
    })
}

/// How many times the variable `j` occurs in `e`.
fn occurrences(e: &Expr, j: &str) -> usize {
    let mut n = 0;
    walk::each_subexpr(e, |x| n += usize::from(walk::var_name(x) == Some(j)));
    n
}

/// The range of `j` an assume or an early exit leaves: the lower bound `L` (`L <= j`
/// kept) and the upper bound with whether it is inclusive (`j <= B`, `.lp` files only).
fn range<'s>(prog: &Prog, s: &'s Stmt, j: &str) -> Option<(&'s Expr, &'s Expr, bool)> {
    // Each part as (j on the left, operator, the other side).
    let side = |e: &'s Expr| -> Option<(BinOp, &'s Expr)> {
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
        let (op, other) = match (walk::var_name(l), walk::var_name(r)) {
            (Some(x), _) if x == j => (*op, &**r),
            (_, Some(x)) if x == j => (flip(*op), &**l),
            _ => return None,
        };
        (occurrences(other, j) == 0 && is_pure(prog, other)).then_some((op, other))
    };
    let (parts, kept) = if let Some(c) = assume_cond(s) {
        (split(c, BinOp::And), true)
    } else {
        (split(early_exit_cond(s)?, BinOp::Or), false)
    };
    let [p, q] = parts[..] else {
        return None;
    };
    let (mut lower, mut upper) = (None, None);
    for part in [p, q] {
        // What the kept range says: `j >= L`, `j < B`, `j <= B` (an exit's part negated).
        match (side(part)?, kept) {
            ((BinOp::Ge, l), true) | ((BinOp::Lt, l), false) => lower = Some(l),
            ((BinOp::Lt, b), true) | ((BinOp::Ge, b), false) => upper = Some((b, false)),
            ((BinOp::Le, b), true) | ((BinOp::Gt, b), false) if !prog.is_c => {
                upper = Some((b, true))
            }
            _ => return None,
        }
    }
    let (l, (b, inclusive)) = (lower?, upper?);
    Some((l, b, inclusive))
}

/// Finds the triples (in a fixed order) and rewrites the one numbered `apply`.
struct Finder<'a> {
    prog: &'a Prog,
    procs: BTreeSet<String>,
    /// How many times each variable occurs in `main` (uses and declarations).
    main_uses: &'a dyn Fn(&str) -> usize,
    found: usize,
    apply: Option<usize>,
    done: bool,
}

impl Finder<'_> {
    fn block(&mut self, ss: &mut Vec<Stmt>, after_clean: bool) {
        for k in 0..ss.len() {
            if self.done {
                return;
            }
            let clean_from = |from: usize, ss: &[Stmt]| {
                after_clean
                    && ss[from.min(ss.len())..]
                        .iter()
                        .all(|s| error_free(s, &self.procs))
            };
            if k + 2 < ss.len() && clean_from(k + 3, ss) {
                if let Some(lp) = self.triple(&ss[k], &ss[k + 1], &ss[k + 2]) {
                    if self.apply == Some(self.found) {
                        ss.splice(k..k + 3, [lp]);
                        self.done = true;
                        return;
                    }
                    self.found += 1;
                }
            }
            let clean = clean_from(k + 1, ss);
            self.nested(&mut ss[k], clean);
        }
    }

    fn nested(&mut self, s: &mut Stmt, after_clean: bool) {
        match &mut s.kind {
            StmtKind::Block(ss) => self.block(ss, after_clean),
            StmtKind::If { then, els, .. } => {
                self.nested(then, after_clean);
                if let Some(e) = els {
                    self.nested(e, after_clean);
                }
            }
            StmtKind::Labeled { stmt, .. } => self.nested(stmt, after_clean),
            // Not into loops (the triple would run again) nor switches.
            _ => {}
        }
    }

    /// The loop replacing `s1; s2; s3`, if they are a nondeterministic index, its range and
    /// a check at it.
    fn triple(&self, s1: &Stmt, s2: &Stmt, s3: &Stmt) -> Option<Stmt> {
        let prog = self.prog;
        let (j, declared) = match &s1.kind {
            StmtKind::Assign { lhs, rhs } if lhs.len() == 1 && is_nondet(prog, &rhs[0]) => {
                (walk::var_name(&lhs[0])?.to_string(), false)
            }
            StmtKind::Decl(d) => match &d.vars[..] {
                [v] if v.dims.is_empty()
                    && v.pointer == 0
                    && !d.storage.is_static
                    && matches!(&v.init, Some(Init::Expr(e)) if is_nondet(prog, e)) =>
                {
                    (v.name.name.clone(), true)
                }
                _ => return None,
            },
            _ => return None,
        };
        let (lower, upper, inclusive) = range(prog, s2, &j)?;
        let p = assert_cond(s3)?;
        if !is_pure(prog, p) {
            return None;
        }
        // `j` only as the index of array reads `a[j]`, at least once.
        let mut indexed = 0;
        walk::each_subexpr(p, |x| {
            if let ExprKind::Index { base, index } = &x.kind {
                if walk::var_name(base).is_some() && walk::var_name(index) == Some(j.as_str()) {
                    indexed += 1;
                }
            }
        });
        let in_p = occurrences(p, &j);
        if indexed == 0 || in_p != indexed {
            return None;
        }
        // `j` nowhere else in `main`: its uses are the three statements' (`s1` assigns or
        // declares it, `s2` reads it twice) and its one declaration, of an `int` in C.
        let (decls, is_int) = self.declarations(&j)?;
        let expected = 1 + 2 + in_p + usize::from(!declared) * decls;
        if (self.main_uses)(&j) != expected || (prog.is_c && !is_int) {
            return None;
        }
        let init = if declared {
            build::int_decl_stmt(&j, Some(lower.clone()))
        } else {
            build::assign(build::var(&j), lower.clone())
        };
        let op = if inclusive { BinOp::Le } else { BinOp::Lt };
        Some(build::stmt(StmtKind::For {
            init: Some(Box::new(init)),
            cond: Some(build::bin(op, build::var(&j), upper.clone())),
            step: Some(Box::new(build::incr(&j))),
            body: Box::new(s3.clone()),
        }))
    }

    /// How many declarations of `j` `main` has (1 required) and whether it is a plain
    /// `int`.
    fn declarations(&self, j: &str) -> Option<(usize, bool)> {
        let mut n = 0;
        let mut int = true;
        walk::each_stmt(&self.prog.main_fn().body, |s| {
            if let StmtKind::Decl(d) = &s.kind {
                for v in d.vars.iter().filter(|v| v.name.name == j) {
                    n += 1;
                    int &= matches!(&d.ty, Ty::Int { int: t, .. } if *t == IntTy::INT)
                        && v.dims.is_empty()
                        && v.pointer == 0;
                }
            }
        });
        (n == 1).then_some((n, int))
    }
}

/// `check_all_cells`: the last check at a nondeterministic index of `main` (see the
/// module documentation) becomes a loop over the index's range. Exact.
pub(super) fn check_all_cells(prog: &Prog) -> Vec<Rewrite> {
    let body = &prog.main_fn().body;
    let main_uses = |name: &str| {
        let mut n = 0;
        walk::each_expr(body, |e| n += usize::from(walk::var_name(e) == Some(name)));
        walk::each_stmt(body, |s| {
            if let StmtKind::Decl(d) = &s.kind {
                n += d.vars.iter().filter(|v| v.name.name == name).count();
            }
        });
        n
    };
    let mut finder = Finder {
        prog,
        procs: prog.procedures(),
        main_uses: &main_uses,
        found: 0,
        apply: None,
        done: false,
    };
    let mut scratch = body.clone();
    finder.nested(&mut scratch, true);
    let Some(last) = finder.found.checked_sub(1) else {
        return Vec::new();
    };
    finder.found = 0;
    finder.apply = Some(last);
    let mut ast = prog.ast.clone();
    finder.nested(&mut func_mut(&mut ast, prog.main).body, true);
    if !finder.done {
        return Vec::new();
    }
    vec![Rewrite {
        transformation: Transformation::CheckAllCells,
        detail: None,
        keeps: Keeps::Both,
        program: ast,
    }]
}
