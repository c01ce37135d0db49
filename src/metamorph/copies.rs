//! Exact rewrites of copies, indices and checks: `copy_counts_down` (a loop that copies
//! cell by cell runs from the top down), `offset_both_indices` (an array's cells move up
//! by a constant), `stride_2` (an array's cells spread to the even indices of an array
//! twice as long, and the loops over it step by 2) and `swap_check_operands` (a check's
//! comparisons written the other way round).
//!
//! The index rewrites must keep which accesses are in bounds, since an access out of
//! bounds is not an error but has a meaning of its own (README, "The language"): in an
//! `.lp` file a read out of bounds yields an arbitrary value and a write does nothing, in
//! a C file the execution ends there without a verdict. So an index `e` in `[0, N)` must
//! map into the new array's bounds, and one outside it out of them: `2 * e` does for size
//! `2N` with no condition, `e + c` for size `N + c` only where `e` cannot be negative,
//! which `offset_both_indices` checks with an interval analysis ([`Bounds`]). In C files
//! the rewrites also need the indices and counters computed in `int` ([`Ints`]): an
//! unsigned index would wrap around instead of leaving the bounds, and an `unsigned`
//! counter never goes below 0.
//!
//! The loop rewrites change the counter's last value, so they need the counter dead when
//! the loop ends: not read again before it is set, as [`Loops`] checks syntactically.

use super::arrays::{declarations, fixed_array, is_increment};
use super::build;
use super::cells::is_pure;
use super::consts::{assume_cond, is_nondet, plain_int};
use super::loops::has_own_continue;
use super::procs::is_error_branch;
use super::walk::{self, walk_decl_mut, walk_expr_mut, walk_stmt_mut, Visit, VisitMut};
use super::{block_stmts, Keeps, Prog, Rewrite, Transformation};
use crate::diag::Span;
use crate::syntax::ast::{
    AssignOp, BinOp, Decl, Expr, ExprKind, Init, IntLit, IntTy, Item, Program, Stmt, StmtKind, Ty,
    UnOp,
};
use num_bigint::BigInt;
use num_traits::{One, Signed, Zero};
use std::collections::{BTreeMap, BTreeSet};

/// How far `offset_both_indices` moves the cells.
const OFFSET: u32 = 3;

/// The largest array `stride_2` makes (as `scale_size_*`).
const MAX_SIZE: u32 = 1_000_000_000;

/// What C's integer types allow. In a C file an expression is computed in `int` when its
/// variables are declared `int` everywhere in the program (scalars, or arrays of `int`
/// for the cells read) and its literals are plain decimal ones of `int`'s range; in an
/// `.lp` file every integer is mathematical and every expression qualifies.
struct Ints {
    is_c: bool,
    scalars: BTreeSet<String>,
    arrays: BTreeSet<String>,
}

impl Ints {
    fn new(prog: &Prog) -> Ints {
        let is_int = |ty: &Ty| matches!(ty, Ty::Int { int, .. } if *int == IntTy::INT);
        // Each name with whether all its declarations so far are `int` scalars / arrays.
        let mut scalars: BTreeMap<String, bool> = BTreeMap::new();
        let mut arrays: BTreeMap<String, bool> = BTreeMap::new();
        let mut note = |name: &str, scalar: bool, array: bool| {
            *scalars.entry(name.to_string()).or_insert(true) &= scalar;
            *arrays.entry(name.to_string()).or_insert(true) &= array;
        };
        struct Decls<'a>(&'a mut dyn FnMut(&Decl));
        impl Visit for Decls<'_> {
            fn decl(&mut self, d: &Decl) {
                (self.0)(d);
                walk::walk_decl(self, d);
            }
        }
        let mut each_decl = |d: &Decl| {
            for v in &d.vars {
                let int = is_int(&d.ty) && v.pointer == 0;
                note(
                    &v.name.name,
                    int && v.dims.is_empty(),
                    int && v.dims.len() == 1,
                );
            }
        };
        walk::walk_program(&mut Decls(&mut each_decl), &prog.ast);
        for item in &prog.ast.items {
            if let Item::Func(f) = item {
                for p in &f.proto.params {
                    if let Some(n) = &p.name {
                        let int = is_int(&p.ty) && p.pointer == 0;
                        note(&n.name, int && !p.is_array, int && p.is_array);
                    }
                }
            }
        }
        let keep = |m: BTreeMap<String, bool>| m.into_iter().filter(|(_, ok)| *ok).map(|(n, _)| n);
        Ints {
            is_c: prog.is_c,
            scalars: keep(scalars).collect(),
            arrays: keep(arrays).collect(),
        }
    }

    /// Whether the variable `v` is an `int` scalar (any variable in an `.lp` file).
    fn scalar(&self, v: &str) -> bool {
        !self.is_c || self.scalars.contains(v)
    }

    /// Whether `e` is computed in `int` (see the type's documentation).
    fn expr(&self, e: &Expr) -> bool {
        !self.is_c || self.c_int(e)
    }

    fn c_int(&self, e: &Expr) -> bool {
        match &e.kind {
            ExprKind::Int(v, lit) => *lit == IntLit::default() && *v <= BigInt::from(i32::MAX),
            ExprKind::Var(id) => self.scalars.contains(&id.name),
            ExprKind::Index { base, .. } => {
                walk::var_name(base).is_some_and(|a| self.arrays.contains(a))
            }
            ExprKind::Unary { op: UnOp::Not, .. } => true,
            ExprKind::Unary { e, .. } => self.c_int(e),
            ExprKind::Binary { op, l, r } => match op {
                BinOp::Lt
                | BinOp::Le
                | BinOp::Gt
                | BinOp::Ge
                | BinOp::Eq
                | BinOp::Ne
                | BinOp::And
                | BinOp::Or => true,
                // The shifts take the left operand's type.
                BinOp::Shl | BinOp::Shr => self.c_int(l),
                _ => self.c_int(l) && self.c_int(r),
            },
            ExprKind::Cond { t, e, .. } => self.c_int(t) && self.c_int(e),
            ExprKind::Call { func, args } => {
                args.is_empty() && func.name == "__VERIFIER_nondet_int"
            }
            _ => false,
        }
    }

    /// A plain literal whose double, plus 2, is still an `int` (anything in an `.lp`
    /// file, where a counter does not overflow).
    fn doubles(&self, e: &Expr) -> bool {
        !self.is_c || plain_int(e).is_some_and(|v| v * 2 + 2 <= BigInt::from(i32::MAX))
    }
}

/// Whether evaluating `e` has no effect: no assignment, no statement expression, and no
/// call but `__VERIFIER_nondet_*()` (a nondeterministic value, as `u`, is allowed).
fn effect_free(e: &Expr) -> bool {
    !walk::any_subexpr(e, |x| match &x.kind {
        ExprKind::Assign { .. } | ExprKind::IncDec { .. } | ExprKind::StmtExpr(_) => true,
        ExprKind::Call { func, args } => {
            !(args.is_empty() && func.name.starts_with("__VERIFIER_nondet_"))
        }
        _ => false,
    })
}

/// Whether `e` reads an array cell.
fn reads_array(e: &Expr) -> bool {
    walk::any_subexpr(e, |x| matches!(x.kind, ExprKind::Index { .. }))
}

/// A loop bound or start the loop rewrites may evaluate more or fewer times, or at other
/// moments: pure, reading no array (a read out of bounds in an `.lp` file is drawn anew
/// each time) and not naming any of `names`.
fn stable(prog: &Prog, e: &Expr, names: &[&str]) -> bool {
    is_pure(prog, e) && !reads_array(e) && names.iter().all(|n| !walk::expr_mentions(e, n))
}

/// `l OP r` with the operands swapped: `<` becomes `>`, `<=` becomes `>=`; `==` and `!=`
/// stay.
fn flip(op: BinOp) -> BinOp {
    match op {
        BinOp::Lt => BinOp::Gt,
        BinOp::Le => BinOp::Ge,
        BinOp::Gt => BinOp::Lt,
        BinOp::Ge => BinOp::Le,
        o => o,
    }
}

/// `!(l OP r)` as `l OP' r`.
fn negate(op: BinOp) -> Option<BinOp> {
    Some(match op {
        BinOp::Lt => BinOp::Ge,
        BinOp::Le => BinOp::Gt,
        BinOp::Gt => BinOp::Le,
        BinOp::Ge => BinOp::Lt,
        BinOp::Eq => BinOp::Ne,
        BinOp::Ne => BinOp::Eq,
        _ => return None,
    })
}

fn is_comparison(op: BinOp) -> bool {
    negate(op).is_some()
}

/// The variables a statement or an expression assigns, declares or takes the address of
/// (at any depth), and whether it calls a procedure of the program (which may assign any
/// global).
#[derive(Default)]
struct Assigned<'a> {
    procs: Option<&'a BTreeSet<String>>,
    names: BTreeSet<String>,
    calls: bool,
}

impl Visit for Assigned<'_> {
    fn stmt(&mut self, s: &Stmt) {
        match &s.kind {
            StmtKind::Assign { lhs, .. } => {
                self.names
                    .extend(lhs.iter().filter_map(walk::var_name).map(str::to_string));
            }
            StmtKind::CompoundAssign { lhs, .. } | StmtKind::IncDec { lhs, .. } => {
                self.names.extend(walk::var_name(lhs).map(str::to_string));
            }
            _ => {}
        }
        walk::walk_stmt(self, s);
    }
    fn expr(&mut self, e: &Expr) {
        match &e.kind {
            // `&x` may be written through (`klee_make_symbolic(&x, ...)`).
            ExprKind::Assign { lhs, .. }
            | ExprKind::IncDec { e: lhs, .. }
            | ExprKind::AddrOf(lhs) => {
                self.names.extend(walk::var_name(lhs).map(str::to_string));
            }
            ExprKind::Call { func, .. } => {
                self.calls |= self.procs.is_some_and(|p| p.contains(&func.name));
            }
            _ => {}
        }
        walk::walk_expr(self, e);
    }
    fn decl(&mut self, d: &Decl) {
        self.names
            .extend(d.vars.iter().map(|v| v.name.name.clone()));
        walk::walk_decl(self, d);
    }
}

/// Whether `s` assigns or declares `v` anywhere (or takes its address).
fn assigns(s: &Stmt, v: &str) -> bool {
    let mut a = Assigned::default();
    a.stmt(s);
    a.names.contains(v)
}

// ---------------------------------------------------------------------------------------
// Counting loops and whether their counter is dead afterwards.

/// A counting loop: `for (i = c; i OP E; i++) body`, or `i = c; while (i OP E) { body
/// i++; }` (the step `i++`, `++i`, `i += 1` or `i = i + 1`; the init may declare `i`),
/// with `OP` one of `<`, `<=`, `!=` (also written `E > i`, ...), `c` and `E` not naming
/// `i`, and a body that neither assigns nor declares `i` (nor, for a `while`, has a
/// `continue` of its own, which would skip the step).
struct Loop<'a> {
    /// The `for` or `while` statement.
    stmt: &'a Stmt,
    var: &'a str,
    from: &'a Expr,
    /// The test, with `i` on the left.
    op: BinOp,
    bound: &'a Expr,
    /// The body's statements, without a `while`'s step.
    body: &'a [Stmt],
    /// Whether it is a `while` (whose init is the statement before it).
    is_while: bool,
    /// Whether the init declares `i`.
    declares: bool,
    /// Whether `i` is dead when the loop ends (see [`Loops::dead_after`]).
    dead_after: bool,
}

/// `i = c` or `int i = c`: `i`, `c` and whether it declares `i`.
fn counter_init(s: &Stmt) -> Option<(&str, &Expr, bool)> {
    match &s.kind {
        StmtKind::Assign { lhs, rhs } if lhs.len() == 1 => {
            Some((walk::var_name(&lhs[0])?, &rhs[0], false))
        }
        StmtKind::Decl(d) if !d.storage.is_static => match &d.vars[..] {
            [v] if v.dims.is_empty() && v.pointer == 0 => match &v.init {
                Some(Init::Expr(e)) => Some((&v.name.name, e, true)),
                _ => None,
            },
            _ => None,
        },
        _ => None,
    }
}

/// The test `i OP E` (`<`, `<=`, `!=`, or flipped), as `OP` and `E`.
fn counter_test<'e>(cond: &'e Expr, i: &str) -> Option<(BinOp, &'e Expr)> {
    let ExprKind::Binary { op, l, r } = &cond.kind else {
        return None;
    };
    let (op, bound) = match (walk::var_name(l), walk::var_name(r)) {
        (Some(x), _) if x == i => (*op, &**r),
        (_, Some(x)) if x == i => (flip(*op), &**l),
        _ => return None,
    };
    (matches!(op, BinOp::Lt | BinOp::Le | BinOp::Ne) && !walk::expr_mentions(bound, i))
        .then_some((op, bound))
}

/// Where a statement stands in its procedure: one frame per enclosing block, innermost
/// last.
struct Frame<'a> {
    /// The statements after it in the block.
    rest: &'a [Stmt],
    /// The names the block declares before it.
    declared: BTreeSet<String>,
    /// Whether the block is (part of) a loop's body: after its end the loop goes on.
    in_loop: bool,
}

/// What the statements after a loop do with its counter first.
enum FirstUse {
    /// It is set (`i = e` with `e` not reading `i`, or a `for` starting so).
    Set,
    /// It may be read (or control may go where it is read).
    Read,
    /// Nothing.
    None,
}

/// Collects the counting loops of the program.
struct Loops<'a> {
    frames: Vec<Frame<'a>>,
    params: BTreeSet<String>,
    out: Vec<Loop<'a>>,
}

impl<'a> Loops<'a> {
    /// The counting loops of every procedure; none in a program with `goto`.
    fn of(prog: &'a Prog) -> Vec<Loop<'a>> {
        let mut v = Loops {
            frames: Vec::new(),
            params: BTreeSet::new(),
            out: Vec::new(),
        };
        if prog.has_goto() {
            return Vec::new();
        }
        for item in &prog.ast.items {
            let Item::Func(f) = item else {
                continue;
            };
            v.params = f
                .proto
                .params
                .iter()
                .flat_map(|p| &p.name)
                .map(|n| n.name.clone())
                .collect();
            v.single(&f.body, false);
        }
        v.out
    }

    fn block(&mut self, ss: &'a [Stmt], in_loop: bool) {
        let mut declared = BTreeSet::new();
        for k in 0..ss.len() {
            self.frames.push(Frame {
                rest: &ss[k + 1..],
                declared: declared.clone(),
                in_loop,
            });
            self.at(&ss[k], k.checked_sub(1).map(|j| &ss[j]));
            self.frames.pop();
            if let StmtKind::Decl(d) = &ss[k].kind {
                declared.extend(d.vars.iter().map(|v| v.name.name.clone()));
            }
        }
    }

    /// A statement that is not in a block of its own (a branch, a loop's body).
    fn single(&mut self, s: &'a Stmt, in_loop: bool) {
        if let StmtKind::Block(ss) = &s.kind {
            self.block(ss, in_loop);
        } else {
            self.frames.push(Frame {
                rest: &[],
                declared: BTreeSet::new(),
                in_loop,
            });
            self.at(s, None);
            self.frames.pop();
        }
    }

    fn at(&mut self, s: &'a Stmt, prev: Option<&'a Stmt>) {
        if let Some(lp) = self.counting(s, prev) {
            self.out.push(lp);
        }
        match &s.kind {
            StmtKind::Block(ss) => self.block(ss, false),
            StmtKind::If { then, els, .. } => {
                self.single(then, false);
                if let Some(e) = els {
                    self.single(e, false);
                }
            }
            StmtKind::While { body, .. }
            | StmtKind::DoWhile { body, .. }
            | StmtKind::For { body, .. } => self.single(body, true),
            StmtKind::Labeled { stmt, .. } => self.single(stmt, false),
            // Not into switches (a `case` is a jump target).
            _ => {}
        }
    }

    /// `s` as a counting loop (`prev` is the statement before it in its block).
    fn counting(&self, s: &'a Stmt, prev: Option<&'a Stmt>) -> Option<Loop<'a>> {
        let (init, cond, body, is_while) = match &s.kind {
            StmtKind::For {
                init: Some(init),
                cond: Some(cond),
                step: Some(step),
                body,
            } => {
                let (i, ..) = counter_init(init)?;
                if !is_increment(step, i) {
                    return None;
                }
                (&**init, cond, block_stmts(body), false)
            }
            StmtKind::While { cond, body } => {
                let (i, ..) = counter_init(prev?)?;
                let ss = block_stmts(body);
                let (last, rest) = ss.split_last()?;
                if !is_increment(last, i) || has_own_continue(body) {
                    return None;
                }
                (prev?, cond, rest, true)
            }
            _ => return None,
        };
        let (var, from, declares) = counter_init(init)?;
        let (op, bound) = counter_test(cond, var)?;
        if walk::expr_mentions(from, var) || body.iter().any(|b| assigns(b, var)) {
            return None;
        }
        let dead_after = self.dead_after(var, declares && !is_while);
        Some(Loop {
            stmt: s,
            var,
            from,
            op,
            bound,
            body,
            is_while,
            declares,
            dead_after,
        })
    }

    /// Whether the counter `var` of the loop at the innermost frame is dead when the loop
    /// ends: it is a local (declared by the `for` itself, in an enclosing block, or a
    /// parameter), and after the loop, block by block outwards, the first statement that
    /// names it sets it (or none does up to the end of its scope or of the procedure),
    /// with no `break`, `continue` or `goto` before that may jump elsewhere, and no end
    /// of a loop's body (the loop would go on). A `return` ends a local's life.
    fn dead_after(&self, var: &str, declared_by_for: bool) -> bool {
        if declared_by_for {
            return true;
        }
        let local =
            self.params.contains(var) || self.frames.iter().any(|f| f.declared.contains(var));
        if !local {
            return false;
        }
        for f in self.frames.iter().rev() {
            match first_use(f.rest, var) {
                FirstUse::Set => return true,
                FirstUse::Read => return false,
                FirstUse::None => {}
            }
            if f.declared.contains(var) {
                return true;
            }
            if f.in_loop {
                return false;
            }
        }
        true
    }
}

/// What `rest` does with `var` first (see [`FirstUse`]).
fn first_use(rest: &[Stmt], var: &str) -> FirstUse {
    for s in rest {
        if walk::mentions(s, var) {
            let sets = match &s.kind {
                StmtKind::Assign { lhs, rhs } => {
                    lhs.len() == 1
                        && walk::var_name(&lhs[0]) == Some(var)
                        && !walk::expr_mentions(&rhs[0], var)
                }
                StmtKind::For {
                    init: Some(init), ..
                } => matches!(&init.kind, StmtKind::Assign { lhs, rhs }
                    if lhs.len() == 1
                        && walk::var_name(&lhs[0]) == Some(var)
                        && !walk::expr_mentions(&rhs[0], var)),
                _ => false,
            };
            return if sets { FirstUse::Set } else { FirstUse::Read };
        }
        if escapes(s) {
            return FirstUse::Read;
        }
    }
    FirstUse::None
}

/// Whether `s` may jump out of itself other than by `return`: a `goto`, or a `break` or
/// `continue` of an enclosing loop.
fn escapes(s: &Stmt) -> bool {
    let goto = |b: &Stmt| walk::any_stmt(b, |x| matches!(x.kind, StmtKind::Goto(_)));
    match &s.kind {
        StmtKind::Break | StmtKind::Continue | StmtKind::Goto(_) => true,
        StmtKind::While { body, .. }
        | StmtKind::DoWhile { body, .. }
        | StmtKind::For { body, .. } => goto(body),
        StmtKind::Switch { body, .. } => {
            goto(body) || walk::any_stmt(body, |x| matches!(x.kind, StmtKind::Continue))
        }
        StmtKind::If { then, els, .. } => escapes(then) || els.as_deref().is_some_and(escapes),
        StmtKind::Block(ss) => ss.iter().any(escapes),
        StmtKind::Labeled { stmt, .. } => escapes(stmt),
        _ => false,
    }
}

/// A loop's new header: the counter's start, the test and the step (which replaces a
/// `while`'s last statement), and a condition to run the loop under.
struct Header {
    from: Expr,
    cond: Expr,
    step: Stmt,
    guard: Option<Expr>,
}

/// Gives the loops at the given spans their new headers.
struct Retarget(BTreeMap<Span, Header>);

impl Retarget {
    fn set_init(init: &mut Stmt, value: Expr) {
        match &mut init.kind {
            StmtKind::Assign { rhs, .. } => rhs[0] = value,
            StmtKind::Decl(d) => d.vars[0].init = Some(Init::Expr(value)),
            _ => unreachable!("a counter's init is an assignment or a declaration"),
        }
    }

    fn guarded(guard: Option<Expr>, s: Stmt) -> Stmt {
        match guard {
            Some(g) => build::stmt(StmtKind::If {
                cond: g,
                then: Box::new(s),
                els: None,
            }),
            None => s,
        }
    }
}

impl VisitMut for Retarget {
    fn stmt(&mut self, s: &mut Stmt) {
        walk_stmt_mut(self, s);
        if matches!(s.kind, StmtKind::For { .. }) {
            let Some(h) = self.0.remove(&s.span) else {
                return;
            };
            if let StmtKind::For {
                init: Some(init),
                cond: Some(cond),
                step: Some(step),
                ..
            } = &mut s.kind
            {
                Self::set_init(init, h.from);
                *cond = h.cond;
                **step = h.step;
            }
            let f = std::mem::replace(s, build::stmt(StmtKind::Empty));
            *s = Self::guarded(h.guard, f);
            return;
        }
        let StmtKind::Block(ss) = &mut s.kind else {
            return;
        };
        let mut out: Vec<Stmt> = Vec::with_capacity(ss.len());
        for mut c in std::mem::take(ss) {
            let h = match &c.kind {
                StmtKind::While { .. } => self.0.remove(&c.span),
                _ => None,
            };
            let Some(h) = h else {
                out.push(c);
                continue;
            };
            let mut init = out.pop().expect("a while's counter is set just before it");
            Self::set_init(&mut init, h.from);
            if let StmtKind::While { cond, body } = &mut c.kind {
                *cond = h.cond;
                if let StmtKind::Block(b) = &mut body.kind {
                    *b.last_mut().expect("the step ends the body") = h.step;
                } else {
                    **body = h.step;
                }
            }
            match h.guard {
                Some(g) => out.push(Self::guarded(Some(g), build::block(vec![init, c]))),
                None => out.extend([init, c]),
            }
        }
        *ss = out;
    }
}

/// Applies a mutable visit to every procedure body and global declaration.
fn visit_program_mut<V: VisitMut>(v: &mut V, p: &mut Program) {
    for item in &mut p.items {
        match item {
            Item::Decl(d) => v.decl(d),
            Item::Func(f) => v.stmt(&mut f.body),
            Item::Proto(_) | Item::Typedef(_) | Item::Other { .. } => {}
        }
    }
}

/// The literal `v`, if it is a plain `int` one (C would read a larger one as a `long`).
fn literal(v: BigInt) -> Option<Expr> {
    (!v.is_negative() && v <= BigInt::from(i32::MAX)).then(|| build::int(v))
}

/// `e - 1`, folded for a literal and a sum or difference with a literal.
fn minus_one(e: &Expr) -> Expr {
    let folded = match &e.kind {
        ExprKind::Int(..) => plain_int(e).and_then(|v| literal(v - 1)),
        ExprKind::Binary { op, l, r } => match (op, plain_int(r)) {
            (BinOp::Sub, Some(k)) => {
                literal(k + 1).map(|k| build::bin(BinOp::Sub, (**l).clone(), k))
            }
            (BinOp::Add, Some(k)) if k.is_one() => Some((**l).clone()),
            (BinOp::Add, Some(k)) => {
                literal(k - 1).map(|k| build::bin(BinOp::Add, (**l).clone(), k))
            }
            _ => None,
        },
        _ => None,
    };
    folded.unwrap_or_else(|| build::bin(BinOp::Sub, e.clone(), build::int(1)))
}

/// `2 * e`, folded for a literal and a literal factor.
fn double(e: &Expr) -> Expr {
    let folded = match &e.kind {
        ExprKind::Int(..) => plain_int(e).and_then(|v| literal(v * 2)),
        ExprKind::Binary {
            op: BinOp::Mul,
            l,
            r,
        } => plain_int(l)
            .and_then(|k| literal(k * 2))
            .map(|k| build::bin(BinOp::Mul, k, (**r).clone())),
        _ => None,
    };
    folded.unwrap_or_else(|| build::bin(BinOp::Mul, build::int(2), e.clone()))
}

/// `e + c`, folded for a literal and a sum with a literal.
fn plus(e: &Expr, c: u32) -> Expr {
    let folded = match &e.kind {
        ExprKind::Int(..) => plain_int(e).and_then(|v| literal(v + c)),
        ExprKind::Binary {
            op: BinOp::Add,
            l,
            r,
        } => plain_int(r)
            .and_then(|k| literal(k + c))
            .map(|k| build::bin(BinOp::Add, (**l).clone(), k)),
        _ => None,
    };
    folded.unwrap_or_else(|| build::bin(BinOp::Add, e.clone(), build::int(c)))
}

// ---------------------------------------------------------------------------------------
// copy_counts_down

/// The header running a loop that counts up from `c` to below `E` from `E - 1` down to
/// `c` instead, if the loop qualifies for `copy_counts_down`.
fn counts_down(prog: &Prog, ints: &Ints, lp: &Loop) -> Option<Header> {
    if lp.op != BinOp::Lt || !lp.dead_after {
        return None;
    }
    let [body] = lp.body else {
        return None;
    };
    let StmtKind::Assign { lhs, rhs } = &body.kind else {
        return None;
    };
    let ([target], [value]) = (&lhs[..], &rhs[..]) else {
        return None;
    };
    let ExprKind::Index { base, index } = &target.kind else {
        return None;
    };
    let x = walk::var_name(base)?;
    if walk::var_name(index) != Some(lp.var) || !effect_free(value) {
        return None;
    }
    // Each iteration reads cells that no other iteration writes: `x` only at `i` (two
    // names are two arrays: lpmc has no array parameters).
    let mut independent = true;
    walk::each_subexpr(value, |e| {
        if let ExprKind::Index { base, index } = &e.kind {
            match walk::var_name(base) {
                Some(a) if a != x || walk::var_name(index) == Some(lp.var) => {}
                _ => independent = false,
            }
        }
    });
    if !independent || !stable(prog, lp.from, &[lp.var, x]) || !stable(prog, lp.bound, &[lp.var, x])
    {
        return None;
    }
    // In C, an `int` counter from a non-negative literal (so that `c - 1` is an `int`),
    // and an `int` bound, run under `c < E` when it is not a literal (so that `E - 1` is
    // one).
    let guard = if prog.is_c {
        let from_int = plain_int(lp.from).is_some_and(|v| *v <= BigInt::from(i32::MAX));
        if !from_int || !ints.scalar(lp.var) || !ints.expr(lp.bound) {
            return None;
        }
        match plain_int(lp.bound) {
            Some(_) => None,
            None if lp.is_while && lp.declares => return None,
            None => Some(build::bin(BinOp::Lt, lp.from.clone(), lp.bound.clone())),
        }
    } else {
        None
    };
    let i = build::var(lp.var);
    let step = if lp.is_while {
        build::assign(i.clone(), build::bin(BinOp::Sub, i.clone(), build::int(1)))
    } else {
        build::stmt(StmtKind::IncDec {
            lhs: i.clone(),
            inc: false,
            prefix: false,
        })
    };
    Some(Header {
        from: minus_one(lp.bound),
        cond: build::bin(BinOp::Ge, i, lp.from.clone()),
        step,
        guard,
    })
}

/// `copy_counts_down`: every loop `for (i = c; i < E; i++) x[i] = e;` (or its `while`
/// form) whose iterations are independent (`e` has no effect and reads `x` only at `i`),
/// with `c` and `E` pure, reading no
/// array and naming neither `i` nor `x`, and `i` dead after the loop, runs from the top:
/// `for (i = E - 1; i >= c; i--)`. The iterations write the same cells with the same
/// values in another order, and one out of bounds ends the execution (C) or does nothing
/// (`.lp`) in either order. In C files `i` and `E` are `int`s and `c` a literal, and the
/// loop runs under `if (c < E)` unless `E` is a literal, so that `E - 1` cannot overflow.
/// Exact.
pub(super) fn copy_counts_down(prog: &Prog) -> Vec<Rewrite> {
    let ints = Ints::new(prog);
    let headers: BTreeMap<Span, Header> = Loops::of(prog)
        .iter()
        .filter_map(|lp| Some((lp.stmt.span, counts_down(prog, &ints, lp)?)))
        .collect();
    if headers.is_empty() {
        return Vec::new();
    }
    let mut ast = prog.ast.clone();
    let mut v = Retarget(headers);
    visit_program_mut(&mut v, &mut ast);
    debug_assert!(v.0.is_empty(), "every loop found again");
    vec![Rewrite {
        transformation: Transformation::CopyCountsDown,
        detail: None,
        keeps: Keeps::Both,
        program: ast,
    }]
}

// ---------------------------------------------------------------------------------------
// The arrays whose accesses may be rewritten.

/// The arrays of the program declared once, with one constant size and no initialiser,
/// whose every mention is an access `a[e]` (not passed to a procedure, not in `sizeof`):
/// each with its size.
fn indexed_arrays(prog: &Prog) -> BTreeMap<String, BigInt> {
    struct Arrays<'a> {
        ast: &'a Program,
        out: BTreeMap<String, BigInt>,
    }
    impl Visit for Arrays<'_> {
        fn decl(&mut self, d: &Decl) {
            for v in &d.vars {
                if let Some((size, false)) = fixed_array(d, v) {
                    if declarations(self.ast, &v.name.name) == 1 {
                        self.out.insert(v.name.name.clone(), size);
                    }
                }
            }
            walk::walk_decl(self, d);
        }
    }
    let mut a = Arrays {
        ast: &prog.ast,
        out: BTreeMap::new(),
    };
    walk::walk_program(&mut a, &prog.ast);
    // Every mention an access: as many variables named `a` as accesses `a[...]`.
    let mut mentions: BTreeMap<String, (usize, usize)> = BTreeMap::new();
    each_program_expr(&prog.ast, |e| match &e.kind {
        ExprKind::Var(id) => mentions.entry(id.name.clone()).or_default().0 += 1,
        ExprKind::Index { base, .. } => {
            if let Some(n) = walk::var_name(base) {
                mentions.entry(n.to_string()).or_default().1 += 1;
            }
        }
        _ => {}
    });
    a.out
        .into_iter()
        .filter(|(n, _)| mentions.get(n).is_none_or(|(vars, idx)| vars == idx))
        .collect()
}

/// Calls `f` on every expression (and sub-expression) of the program.
fn each_program_expr(p: &Program, f: impl FnMut(&Expr)) {
    struct Exprs<F>(F);
    impl<F: FnMut(&Expr)> Visit for Exprs<F> {
        fn expr(&mut self, e: &Expr) {
            (self.0)(e);
            walk::walk_expr(self, e);
        }
    }
    walk::walk_program(&mut Exprs(f), p);
}

/// Whether every index of the accesses to `a` in the program satisfies `pred`.
fn all_indices(p: &Program, a: &str, mut pred: impl FnMut(&Expr) -> bool) -> bool {
    let mut all = true;
    each_program_expr(p, |e| {
        if let ExprKind::Index { base, index } = &e.kind {
            if walk::var_name(base) == Some(a) {
                all &= pred(index);
            }
        }
    });
    all
}

/// How [`Reindex`] rewrites an access's index and the array's size.
#[derive(Clone, Copy)]
enum Map {
    /// `e + c`, size `N + c`.
    Shift(u32),
    /// `2 * e`, size `2N`.
    Double,
}

/// Rewrites every access `a[e]` to the given arrays, but those at the spans in `keep`,
/// and the arrays' sizes.
struct Reindex<'a> {
    arrays: &'a BTreeSet<String>,
    keep: &'a BTreeSet<Span>,
    map: Map,
}

impl VisitMut for Reindex<'_> {
    fn expr(&mut self, e: &mut Expr) {
        walk_expr_mut(self, e);
        let span = e.span;
        if let ExprKind::Index { base, index } = &mut e.kind {
            if walk::var_name(base).is_some_and(|a| self.arrays.contains(a))
                && !self.keep.contains(&span)
            {
                **index = match self.map {
                    Map::Shift(c) => plus(index, c),
                    Map::Double => double(index),
                };
            }
        }
    }

    fn decl(&mut self, d: &mut Decl) {
        for v in &mut d.vars {
            if !self.arrays.contains(&v.name.name) {
                continue;
            }
            if let [Some(dim)] = &mut v.dims[..] {
                let size = plain_int(dim).expect("a constant size").clone();
                *dim = build::int(match self.map {
                    Map::Shift(c) => size + c,
                    Map::Double => size * 2,
                });
            }
        }
        walk_decl_mut(self, d);
    }
}

// ---------------------------------------------------------------------------------------
// offset_both_indices: intervals of the indices.

/// An interval of integers; `None` is unbounded.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
struct Range {
    lo: Option<BigInt>,
    hi: Option<BigInt>,
}

impl Range {
    fn point(v: &BigInt) -> Range {
        Range {
            lo: Some(v.clone()),
            hi: Some(v.clone()),
        }
    }

    fn of(lo: i64, hi: i64) -> Range {
        Range {
            lo: Some(lo.into()),
            hi: Some(hi.into()),
        }
    }

    fn is_top(&self) -> bool {
        self.lo.is_none() && self.hi.is_none()
    }

    fn nonneg(&self) -> bool {
        self.lo.as_ref().is_some_and(|l| !l.is_negative())
    }

    fn add(&self, o: &Range) -> Range {
        let sum = |a: &Option<BigInt>, b: &Option<BigInt>| Some(a.as_ref()? + b.as_ref()?);
        Range {
            lo: sum(&self.lo, &o.lo),
            hi: sum(&self.hi, &o.hi),
        }
    }

    fn neg(&self) -> Range {
        Range {
            lo: self.hi.as_ref().map(|h| -h),
            hi: self.lo.as_ref().map(|l| -l),
        }
    }

    fn scale(&self, k: &BigInt) -> Range {
        if k.is_zero() {
            return Range::point(k);
        }
        let times = |v: &Option<BigInt>| v.as_ref().map(|v| v * k);
        if k.is_negative() {
            Range {
                lo: times(&self.hi),
                hi: times(&self.lo),
            }
        } else {
            Range {
                lo: times(&self.lo),
                hi: times(&self.hi),
            }
        }
    }

    /// The smallest interval holding both.
    fn hull(&self, o: &Range) -> Range {
        let pick = |a: &Option<BigInt>, b: &Option<BigInt>, low: bool| match (a, b) {
            (Some(a), Some(b)) => Some(if low { a.min(b) } else { a.max(b) }.clone()),
            _ => None,
        };
        Range {
            lo: pick(&self.lo, &o.lo, true),
            hi: pick(&self.hi, &o.hi, false),
        }
    }

    /// Both at once.
    fn meet(&self, o: &Range) -> Range {
        let pick = |a: &Option<BigInt>, b: &Option<BigInt>, low: bool| match (a, b) {
            (Some(a), Some(b)) => Some(if low { a.max(b) } else { a.min(b) }.clone()),
            (Some(x), None) | (None, Some(x)) => Some(x.clone()),
            (None, None) => None,
        };
        Range {
            lo: pick(&self.lo, &o.lo, true),
            hi: pick(&self.hi, &o.hi, false),
        }
    }
}

/// What is known of the scalars at a point: an interval per variable (none: anything).
type Env = BTreeMap<String, Range>;

/// The intervals known on both paths.
fn join(a: Option<Env>, b: Option<Env>) -> Option<Env> {
    match (a, b) {
        (None, x) | (x, None) => x,
        (Some(a), Some(b)) => Some(
            a.iter()
                .filter_map(|(n, r)| Some((n.clone(), r.hull(b.get(n)?))))
                .filter(|(_, r)| !r.is_top())
                .collect(),
        ),
    }
}

/// How a loop may change a variable, for [`Bounds::invariant`].
enum Change {
    Set(Expr),
    Add(Expr),
    Scale(Expr),
    Inc,
    Any,
}

/// A forward interval analysis of one procedure at a time, checking that every index of
/// the accesses to `array` is non-negative where it is evaluated. It follows assignments,
/// `assume`s, the tests of branches and early exits (`if (j < 0 || j >= n) return 0;`),
/// and, in a loop, keeps what the loop does not change, and that a variable is not
/// negative when every change the loop makes to it keeps it so (`i = i + 1`, `i++`).
/// What it does not follow (a `switch`, an assignment inside an expression, a call's
/// effect on the globals) it forgets.
struct Bounds<'a> {
    prog: &'a Prog,
    ints: &'a Ints,
    array: &'a str,
    procs: BTreeSet<String>,
    globals: BTreeSet<String>,
    /// Every access checked so far has a non-negative index.
    ok: bool,
}

impl Bounds<'_> {
    /// The interval of `e`'s value (anything, unless `e` is computed in `int`).
    fn range(&self, e: &Expr, env: &Env) -> Range {
        if self.ints.expr(e) {
            self.eval(e, env)
        } else {
            Range::default()
        }
    }

    fn eval(&self, e: &Expr, env: &Env) -> Range {
        match &e.kind {
            ExprKind::Int(v, lit) if *lit == IntLit::default() => Range::point(v),
            ExprKind::Var(id) if !is_nondet(self.prog, e) => {
                env.get(&id.name).cloned().unwrap_or_default()
            }
            ExprKind::Unary { op: UnOp::Neg, e } => self.eval(e, env).neg(),
            ExprKind::Unary { op: UnOp::Plus, e } => self.eval(e, env),
            ExprKind::Unary { op: UnOp::Not, .. } => Range::of(0, 1),
            ExprKind::Binary { op, l, r } => match op {
                BinOp::Add => self.eval(l, env).add(&self.eval(r, env)),
                BinOp::Sub => self.eval(l, env).add(&self.eval(r, env).neg()),
                BinOp::Mul => match (plain_int(l), plain_int(r)) {
                    (Some(k), _) => self.eval(r, env).scale(k),
                    (_, Some(k)) => self.eval(l, env).scale(k),
                    _ => Range::default(),
                },
                BinOp::Div | BinOp::Mod => {
                    let a = self.eval(l, env);
                    match plain_int(r) {
                        Some(k) if k.is_positive() && a.nonneg() => match op {
                            BinOp::Div => Range {
                                lo: a.lo.map(|v| v / k),
                                hi: a.hi.map(|v| v / k),
                            },
                            _ => Range {
                                lo: Some(BigInt::zero()),
                                hi: Some(k - 1),
                            },
                        },
                        _ => Range::default(),
                    }
                }
                op if is_comparison(*op) || matches!(op, BinOp::And | BinOp::Or) => Range::of(0, 1),
                _ => Range::default(),
            },
            ExprKind::Cond { t, e, .. } => self.eval(t, env).hull(&self.eval(e, env)),
            _ => Range::default(),
        }
    }

    /// Sets `v`'s interval (forgotten when unbounded, or not an `int` scalar in C).
    fn set(&self, env: &mut Env, v: &str, r: Range) {
        if r.is_top() || !self.ints.scalar(v) {
            env.remove(v);
        } else {
            env.insert(v.to_string(), r);
        }
    }

    /// What `e` assigns (and the globals, if it calls a procedure), forgotten.
    fn after(&self, e: &Expr, mut env: Env) -> Env {
        let mut a = Assigned {
            procs: Some(&self.procs),
            ..Assigned::default()
        };
        a.expr(e);
        for n in &a.names {
            env.remove(n);
        }
        if a.calls {
            env.retain(|n, _| !self.globals.contains(n));
        }
        env
    }

    /// Checks the accesses to the array in `e`, evaluated in `env`.
    fn check(&mut self, e: &Expr, env: &Env) {
        let env = self.after(e, env.clone());
        let mut ok = true;
        walk::each_subexpr(e, |x| {
            if let ExprKind::Index { base, index } = &x.kind {
                if walk::var_name(base) == Some(self.array) {
                    ok &= self.range(index, &env).nonneg();
                }
            }
        });
        self.ok &= ok;
    }

    /// What holds when `c` is true (`positive`) or false, added to `env`.
    fn assume(&self, c: &Expr, positive: bool, env: &mut Env) {
        match &c.kind {
            ExprKind::Binary {
                op: BinOp::And,
                l,
                r,
            } if positive => {
                self.assume(l, true, env);
                self.assume(r, true, env);
            }
            ExprKind::Binary {
                op: BinOp::Or,
                l,
                r,
            } if !positive => {
                self.assume(l, false, env);
                self.assume(r, false, env);
            }
            ExprKind::Unary { op: UnOp::Not, e } => self.assume(e, !positive, env),
            ExprKind::Binary { op, l, r } if is_comparison(*op) => {
                // In C, only a comparison of `int`s (others convert to unsigned types).
                if !(self.ints.expr(l) && self.ints.expr(r)) {
                    return;
                }
                let Some(op) = (if positive { Some(*op) } else { negate(*op) }) else {
                    return;
                };
                let (rl, rr) = (self.eval(l, env), self.eval(r, env));
                self.bound(l, op, &rr, env);
                self.bound(r, flip(op), &rl, env);
            }
            _ => {}
        }
    }

    /// `v OP o` holds, with `o` in `ro`: narrows `v`'s interval if `v` is a variable.
    fn bound(&self, v: &Expr, op: BinOp, ro: &Range, env: &mut Env) {
        let Some(name) = walk::var_name(v) else {
            return;
        };
        if is_nondet(self.prog, v) || !self.ints.scalar(name) {
            return;
        }
        let one = BigInt::from(1);
        let new = match op {
            BinOp::Lt => Range {
                lo: None,
                hi: ro.hi.as_ref().map(|h| h - &one),
            },
            BinOp::Le => Range {
                lo: None,
                hi: ro.hi.clone(),
            },
            BinOp::Gt => Range {
                lo: ro.lo.as_ref().map(|l| l + &one),
                hi: None,
            },
            BinOp::Ge => Range {
                lo: ro.lo.clone(),
                hi: None,
            },
            BinOp::Eq => ro.clone(),
            _ => return,
        };
        let cur = env.get(name).cloned().unwrap_or_default();
        self.set(env, name, cur.meet(&new));
    }

    /// The intervals that hold everywhere in a loop whose repeated parts are `stmts` and
    /// `exprs`, entered with `env`.
    fn invariant(&self, env: &Env, stmts: &[&Stmt], exprs: &[&Expr]) -> Env {
        if exprs
            .iter()
            .any(|e| walk::any_subexpr(e, |x| matches!(x.kind, ExprKind::StmtExpr(_))))
        {
            return Env::new();
        }
        let mut changes: Vec<(String, Change)> = Vec::new();
        let mut calls = false;
        for s in stmts {
            walk::each_stmt(s, |x| match &x.kind {
                StmtKind::Assign { lhs, rhs } => {
                    for (l, r) in lhs.iter().zip(rhs) {
                        if let Some(n) = walk::var_name(l) {
                            changes.push((n.to_string(), Change::Set(r.clone())));
                        }
                    }
                }
                StmtKind::CompoundAssign { lhs, op, rhs } => {
                    if let Some(n) = walk::var_name(lhs) {
                        let c = match op {
                            AssignOp::Add => Change::Add(rhs.clone()),
                            AssignOp::Mul => Change::Scale(rhs.clone()),
                            _ => Change::Any,
                        };
                        changes.push((n.to_string(), c));
                    }
                }
                StmtKind::IncDec { lhs, inc, .. } => {
                    if let Some(n) = walk::var_name(lhs) {
                        let c = if *inc { Change::Inc } else { Change::Any };
                        changes.push((n.to_string(), c));
                    }
                }
                StmtKind::Decl(d) => {
                    for v in &d.vars {
                        let c = match &v.init {
                            Some(Init::Expr(e)) if v.dims.is_empty() => Change::Set(e.clone()),
                            _ => Change::Any,
                        };
                        changes.push((v.name.name.clone(), c));
                    }
                }
                _ => {}
            });
        }
        let mut exprs_assigned = Assigned {
            procs: Some(&self.procs),
            ..Assigned::default()
        };
        for s in stmts {
            walk::each_expr(s, |e| exprs_assigned.expr(e));
        }
        for e in exprs {
            exprs_assigned.expr(e);
        }
        calls |= exprs_assigned.calls;
        changes.extend(exprs_assigned.names.into_iter().map(|n| (n, Change::Any)));
        let changed: BTreeSet<&str> = changes.iter().map(|(n, _)| n.as_str()).collect();
        let mut inv: Env = env
            .iter()
            .filter(|(n, _)| !(calls && self.globals.contains(*n)))
            .filter_map(|(n, r)| {
                if !changed.contains(n.as_str()) {
                    Some((n.clone(), r.clone()))
                } else if r.nonneg() {
                    Some((
                        n.clone(),
                        Range {
                            lo: Some(BigInt::zero()),
                            hi: None,
                        },
                    ))
                } else {
                    None
                }
            })
            .collect();
        loop {
            let drop: Vec<String> = changes
                .iter()
                .filter(|(n, _)| inv.contains_key(n))
                .filter(|(n, c)| {
                    let keeps = match c {
                        Change::Set(e) => effect_free(e) && self.range(e, &inv).nonneg(),
                        Change::Add(e) | Change::Scale(e) => {
                            effect_free(e) && self.range(e, &inv).nonneg()
                        }
                        Change::Inc => true,
                        Change::Any => false,
                    };
                    !keeps || !self.ints.scalar(n)
                })
                .map(|(n, _)| n.clone())
                .collect();
            if drop.is_empty() {
                return inv;
            }
            for n in drop {
                inv.remove(&n);
            }
        }
    }

    /// Analyses `s` entered with `env`: what holds after it, `None` if it cannot end
    /// normally (`return`, `break`, ...).
    fn stmt(&mut self, s: &Stmt, env: Env) -> Option<Env> {
        match &s.kind {
            StmtKind::Decl(d) => {
                let mut env = env;
                for v in &d.vars {
                    for dim in v.dims.iter().flatten() {
                        self.check(dim, &env);
                        env = self.after(dim, env);
                    }
                    let value = match &v.init {
                        Some(Init::Expr(e)) => {
                            self.check(e, &env);
                            let r = if v.dims.is_empty() && v.pointer == 0 && effect_free(e) {
                                self.range(e, &env)
                            } else {
                                Range::default()
                            };
                            env = self.after(e, env);
                            r
                        }
                        Some(Init::List(es, _)) => {
                            for e in es {
                                self.check(e, &env);
                                env = self.after(e, env);
                            }
                            Range::default()
                        }
                        _ => Range::default(),
                    };
                    self.set(&mut env, &v.name.name, value);
                }
                Some(env)
            }
            StmtKind::Assign { lhs, rhs } => {
                for e in lhs.iter().chain(rhs) {
                    self.check(e, &env);
                }
                let values: Vec<(&str, Range)> = lhs
                    .iter()
                    .zip(rhs)
                    .filter_map(|(l, r)| {
                        let v = walk::var_name(l)?;
                        let value = if effect_free(r) {
                            self.range(r, &env)
                        } else {
                            Range::default()
                        };
                        Some((v, value))
                    })
                    .collect();
                let mut env = lhs.iter().chain(rhs).fold(env, |en, e| self.after(e, en));
                for (v, r) in values {
                    self.set(&mut env, v, r);
                }
                Some(env)
            }
            StmtKind::CompoundAssign { lhs, op, rhs } => {
                self.check(lhs, &env);
                self.check(rhs, &env);
                let value = match walk::var_name(lhs) {
                    Some(v) if effect_free(rhs) => {
                        let cur = env.get(v).cloned().unwrap_or_default();
                        let r = self.range(rhs, &env);
                        match (op, plain_int(rhs)) {
                            (AssignOp::Add, _) => Some((v, cur.add(&r))),
                            (AssignOp::Sub, _) => Some((v, cur.add(&r.neg()))),
                            (AssignOp::Mul, Some(k)) => Some((v, cur.scale(k))),
                            _ => Some((v, Range::default())),
                        }
                    }
                    Some(v) => Some((v, Range::default())),
                    None => None,
                };
                let mut env = self.after(rhs, self.after(lhs, env));
                if let Some((v, r)) = value {
                    self.set(&mut env, v, r);
                }
                Some(env)
            }
            StmtKind::IncDec { lhs, inc, .. } => {
                self.check(lhs, &env);
                let value = walk::var_name(lhs).map(|v| {
                    let cur = env.get(v).cloned().unwrap_or_default();
                    (
                        v,
                        cur.add(&Range::point(&BigInt::from(if *inc { 1 } else { -1 }))),
                    )
                });
                let mut env = self.after(lhs, env);
                if let Some((v, r)) = value {
                    self.set(&mut env, v, r);
                }
                Some(env)
            }
            StmtKind::Expr(e) => {
                self.check(e, &env);
                let mut env = self.after(e, env);
                if let Some(c) = assume_cond(s) {
                    if effect_free(c) {
                        self.assume(c, true, &mut env);
                    }
                }
                match &e.kind {
                    ExprKind::Call { func, .. }
                        if matches!(func.name.as_str(), "abort" | "exit") =>
                    {
                        None
                    }
                    _ => Some(env),
                }
            }
            StmtKind::Return(e) => {
                if let Some(e) = e {
                    self.check(e, &env);
                }
                None
            }
            StmtKind::Break | StmtKind::Continue | StmtKind::Goto(_) => None,
            StmtKind::If { cond, then, els } => {
                self.check(cond, &env);
                let env = self.after(cond, env);
                let (mut t, mut f) = (env.clone(), env);
                if effect_free(cond) {
                    self.assume(cond, true, &mut t);
                    self.assume(cond, false, &mut f);
                }
                let t = self.stmt(then, t);
                let f = match els {
                    Some(e) => self.stmt(e, f),
                    None => Some(f),
                };
                join(t, f)
            }
            StmtKind::While { cond, body } => {
                let inv = self.invariant(&env, &[body], &[cond]);
                self.check(cond, &inv);
                let mut entry = inv.clone();
                if effect_free(cond) {
                    self.assume(cond, true, &mut entry);
                }
                self.stmt(body, entry);
                Some(inv)
            }
            StmtKind::DoWhile { body, cond } => {
                let inv = self.invariant(&env, &[body], &[cond]);
                self.stmt(body, inv.clone());
                self.check(cond, &inv);
                Some(inv)
            }
            StmtKind::For {
                init,
                cond,
                step,
                body,
            } => {
                let env = match init {
                    Some(i) => self.stmt(i, env)?,
                    None => env,
                };
                let mut parts: Vec<&Stmt> = vec![body];
                parts.extend(step.as_deref());
                let inv = self.invariant(&env, &parts, &cond.iter().collect::<Vec<_>>());
                let mut entry = inv.clone();
                if let Some(c) = cond {
                    self.check(c, &inv);
                    if effect_free(c) {
                        self.assume(c, true, &mut entry);
                    }
                }
                self.stmt(body, entry);
                if let Some(st) = step {
                    self.stmt(st, inv.clone());
                }
                let mut out = inv;
                if let Some(i) = init {
                    walk::declared_names(i).iter().for_each(|n| {
                        out.remove(n);
                    });
                }
                Some(out)
            }
            StmtKind::Block(ss) => {
                let mut cur = Some(env);
                for s in ss {
                    cur = match cur {
                        Some(e) => self.stmt(s, e),
                        None => {
                            // Not reached by falling through (a program with `goto` has
                            // no variant): checked knowing nothing.
                            self.stmt(s, Env::new());
                            None
                        }
                    };
                }
                // The block's own variables end here (and may have shadowed others).
                cur.map(|mut e| {
                    for s in ss {
                        if let StmtKind::Decl(d) = &s.kind {
                            for v in &d.vars {
                                e.remove(&v.name.name);
                            }
                        }
                    }
                    e
                })
            }
            StmtKind::Labeled { stmt, .. } => self.stmt(stmt, env),
            StmtKind::Switch { .. } | StmtKind::Case { .. } | StmtKind::Default(_) => {
                let mut a = Assigned {
                    procs: Some(&self.procs),
                    ..Assigned::default()
                };
                a.stmt(s);
                let mut env = env;
                for n in &a.names {
                    env.remove(n);
                }
                if a.calls {
                    env.retain(|n, _| !self.globals.contains(n));
                }
                let mut ok = true;
                walk::each_expr(s, |x| {
                    if let ExprKind::Index { base, index } = &x.kind {
                        if walk::var_name(base) == Some(self.array) {
                            ok &= self.range(index, &env).nonneg();
                        }
                    }
                });
                self.ok &= ok;
                Some(env)
            }
            StmtKind::Skip
            | StmtKind::Empty
            | StmtKind::Typedef(_)
            | StmtKind::Proto(_)
            | StmtKind::Other { .. } => Some(env),
        }
    }
}

/// Whether every access to `array` in the program has a non-negative index where it is
/// evaluated, as [`Bounds`] sees it (the procedures entered knowing nothing, the global
/// initialisers holding no access).
fn indices_nonneg(prog: &Prog, ints: &Ints, array: &str) -> bool {
    let globals: BTreeSet<String> = prog
        .ast
        .items
        .iter()
        .filter_map(|it| match it {
            Item::Decl(d) => Some(d.vars.iter().map(|v| v.name.name.clone())),
            _ => None,
        })
        .flatten()
        .collect();
    let mut b = Bounds {
        prog,
        ints,
        array,
        procs: prog.procedures(),
        globals,
        ok: true,
    };
    for item in &prog.ast.items {
        match item {
            Item::Decl(d) => {
                let mut in_init = false;
                walk::walk_decl(
                    &mut AnyIndex {
                        array,
                        found: &mut in_init,
                    },
                    d,
                );
                if in_init {
                    return false;
                }
            }
            Item::Func(f) => {
                if walk::mentions(&f.body, array) {
                    b.stmt(&f.body, Env::new());
                }
            }
            Item::Proto(_) | Item::Typedef(_) | Item::Other { .. } => {}
        }
        if !b.ok {
            return false;
        }
    }
    b.ok
}

/// Finds an access to `array`.
struct AnyIndex<'a> {
    array: &'a str,
    found: &'a mut bool,
}

impl Visit for AnyIndex<'_> {
    fn expr(&mut self, e: &Expr) {
        if let ExprKind::Index { base, .. } = &e.kind {
            *self.found |= walk::var_name(base) == Some(self.array);
        }
        walk::walk_expr(self, e);
    }
}

/// `offset_both_indices`: for each array `b` written by a copy in a counting loop over `i`,
/// `b[f] = e` with `f` naming `i` and `e` reading another array at an index naming `i`
/// (`b[i] = a[i]`, `b[i] = a[n - 1 - i]`, `b[i + 1] = a[i]`), declared once
/// with a constant size `N` and no initialiser, and used only in accesses `b[e]`: `b` is
/// declared with size `N + 3` and every access `b[e]` becomes `b[e + 3]`. An index in
/// `[0, N)` stays in bounds and one past the end stays out; one below 0 would come into
/// bounds, so every index must be non-negative where it is evaluated, as an interval
/// analysis shows ([`Bounds`]). In C files the indices are computed in `int`. Exact.
pub(super) fn offset_both_indices(prog: &Prog) -> Vec<Rewrite> {
    let ints = Ints::new(prog);
    let arrays = indexed_arrays(prog);
    let mut copied = BTreeSet::new();
    for lp in Loops::of(prog) {
        for s in lp.body {
            walk::each_stmt(s, |x| {
                let StmtKind::Assign { lhs, rhs } = &x.kind else {
                    return;
                };
                let ([target], [value]) = (&lhs[..], &rhs[..]) else {
                    return;
                };
                let ExprKind::Index { base, index } = &target.kind else {
                    return;
                };
                let Some(b) = walk::var_name(base) else {
                    return;
                };
                let reads_other = walk::any_subexpr(value, |e| {
                    matches!(&e.kind, ExprKind::Index { base, index }
                        if walk::var_name(base).is_some_and(|a| a != b)
                            && walk::expr_mentions(index, lp.var))
                });
                if walk::expr_mentions(index, lp.var) && reads_other {
                    copied.insert(b.to_string());
                }
            });
        }
    }
    let mut out = Vec::new();
    for b in copied {
        if !arrays.contains_key(&b)
            || !all_indices(&prog.ast, &b, |e| ints.expr(e))
            || !indices_nonneg(prog, &ints, &b)
        {
            continue;
        }
        let mut ast = prog.ast.clone();
        let names = BTreeSet::from([b.clone()]);
        let keep = BTreeSet::new();
        visit_program_mut(
            &mut Reindex {
                arrays: &names,
                keep: &keep,
                map: Map::Shift(OFFSET),
            },
            &mut ast,
        );
        out.push(Rewrite {
            transformation: Transformation::OffsetBothIndices,
            detail: Some(b),
            keeps: Keeps::Both,
            program: ast,
        });
    }
    out
}

// ---------------------------------------------------------------------------------------
// stride_2

/// `stride_2`: every array `X` declared once with a constant size `N` (with `2N` at most
/// 10⁹) and no initialiser, used only in accesses `X[e]` (with `e` computed in `int` in
/// C files), is declared with size `2N`, and every access `X[e]` becomes `X[2 * e]`: an
/// index in bounds stays in bounds, one out of bounds stays out, distinct indices stay
/// distinct, and the cells at odd indices are never used. A counting loop `for (i = c;
/// i OP E; i++)` (`<`, `<=`, `!=`; or its `while` form) whose body uses `i` only as the
/// index of such arrays (`X[i]`, at least once), with `c` and `E` pure, reading no array,
/// and `i` dead after the loop, instead runs `for (i = 2 * c; i OP 2 * E; i = i + 2)` with
/// its accesses `X[i]` unchanged: `i` takes the doubled values. In C files such a loop
/// needs an `int` counter and literal `c` and `E` whose doubles are `int`s. Exact.
pub(super) fn stride_2(prog: &Prog) -> Vec<Rewrite> {
    let ints = Ints::new(prog);
    let max = BigInt::from(MAX_SIZE);
    let doubled: BTreeSet<String> = indexed_arrays(prog)
        .into_iter()
        .filter(|(a, size)| size * 2 <= max && all_indices(&prog.ast, a, |e| ints.expr(e)))
        .map(|(a, _)| a)
        .collect();
    if doubled.is_empty() {
        return Vec::new();
    }
    let mut keep = BTreeSet::new();
    let mut headers = BTreeMap::new();
    for lp in Loops::of(prog) {
        if !lp.dead_after
            || !stable(prog, lp.from, &[lp.var])
            || !stable(prog, lp.bound, &[lp.var])
            || !ints.scalar(lp.var)
            || !ints.doubles(lp.from)
            || !ints.doubles(lp.bound)
        {
            continue;
        }
        // Every use of `i` in the body an access `X[i]` to a doubled array.
        let (mut uses, mut accesses) = (0, Vec::new());
        for s in lp.body {
            walk::each_expr(s, |e| match &e.kind {
                ExprKind::Var(id) if id.name == lp.var => uses += 1,
                ExprKind::Index { base, index }
                    if walk::var_name(index) == Some(lp.var)
                        && walk::var_name(base).is_some_and(|a| doubled.contains(a)) =>
                {
                    accesses.push(e.span)
                }
                _ => {}
            });
        }
        if accesses.is_empty() || uses != accesses.len() {
            continue;
        }
        keep.extend(accesses);
        let i = build::var(lp.var);
        let step = build::assign(i.clone(), build::bin(BinOp::Add, i.clone(), build::int(2)));
        headers.insert(
            lp.stmt.span,
            Header {
                from: double(lp.from),
                cond: build::bin(lp.op, i, double(lp.bound)),
                step,
                guard: None,
            },
        );
    }
    let mut ast = prog.ast.clone();
    visit_program_mut(
        &mut Reindex {
            arrays: &doubled,
            keep: &keep,
            map: Map::Double,
        },
        &mut ast,
    );
    let mut v = Retarget(headers);
    visit_program_mut(&mut v, &mut ast);
    debug_assert!(v.0.is_empty(), "every loop found again");
    vec![Rewrite {
        transformation: Transformation::Stride2,
        detail: None,
        keeps: Keeps::Both,
        program: ast,
    }]
}

// ---------------------------------------------------------------------------------------
// swap_check_operands

/// Swaps the operands of the comparisons of a condition, through `!`, `&&` and `||`
/// (whose own operands keep their order): how many it swapped.
fn swap(e: &mut Expr) -> usize {
    match &mut e.kind {
        ExprKind::Unary { op: UnOp::Not, e } => swap(e),
        ExprKind::Binary {
            op: BinOp::And | BinOp::Or,
            l,
            r,
        } => swap(l) + swap(r),
        ExprKind::Binary { op, l, r } if is_comparison(*op) => {
            std::mem::swap(l, r);
            *op = flip(*op);
            1
        }
        _ => 0,
    }
}

/// Swaps the comparisons of every check.
struct SwapChecks(usize);

impl VisitMut for SwapChecks {
    fn stmt(&mut self, s: &mut Stmt) {
        walk_stmt_mut(self, s);
        let cond = match &mut s.kind {
            StmtKind::If { cond, then, .. } if is_error_branch(then) => cond,
            StmtKind::Expr(Expr {
                kind: ExprKind::Call { func, args },
                ..
            }) if args.len() == 1
                && matches!(func.name.as_str(), "assert" | "__VERIFIER_assert") =>
            {
                &mut args[0]
            }
            _ => return,
        };
        if effect_free(cond) {
            self.0 += swap(cond);
        }
    }
}

/// `swap_check_operands`: in every check (`assert(c)`, `__VERIFIER_assert(c)`, `if (c)`
/// whose branch ends in an error, as `body_to_proc` finds them) whose condition has no
/// effect, each comparison `e1 OP e2` at the top of the condition or under `!`, `&&`,
/// `||` becomes `e2 OP' e1` (`<` and `>` exchanged, `<=` and `>=`; `==` and `!=` stay).
/// Both operands are evaluated either way, and C's conversions are symmetric. Exact.
pub(super) fn swap_check_operands(prog: &Prog) -> Vec<Rewrite> {
    let mut ast = prog.ast.clone();
    let mut v = SwapChecks(0);
    for item in &mut ast.items {
        if let Item::Func(f) = item {
            v.stmt(&mut f.body);
        }
    }
    if v.0 == 0 {
        return Vec::new();
    }
    vec![Rewrite {
        transformation: Transformation::SwapCheckOperands,
        detail: None,
        keeps: Keeps::Both,
        program: ast,
    }]
}
