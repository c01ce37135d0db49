//! Constants of the HIR: the value of an expression made of constants only
//! ([`const_value`], which the resolver folds with), and the constant propagation of the
//! scalars that never change: a global that nothing assigns (its initialiser, or 0), and
//! a local whose only definition is its declaration with a constant initialiser
//! (`int N = 100000;`). Their uses become the constant, and a variable-length array whose
//! size is then a constant becomes a constant-size array.
//!
//! SV-COMP tasks name their bounds this way. Without the pass, `int a[2*N+2]` with a local
//! `N` is a VLA, and the analyses would have to rediscover the constant (a relational
//! invariant that widening must keep) everywhere the size matters.
//!
//! Soundness: the program after the pass has the same executions. A global with no
//! assignment, havoc or call result keeps its initial value all along. A local with a
//! single definition that is an assignment (not a havoc: a declaration without an
//! initialiser havocs) is declared with that initialiser, and under C's scoping every use
//! follows the declaration, which runs again each time the block is entered. The one way
//! around a declaration is a `goto` into its scope, so the locals of a procedure that
//! contains a `goto` (also a lowered `switch`) are left alone.

use super::hir::{ArraySize, Expr, LValue, Program, Stmt, StmtKind, VarKind};
use crate::ids::VarId;
use num_bigint::BigInt;
use num_traits::{Signed, ToPrimitive, Zero};
use std::collections::BTreeMap;

/// The value of an expression made of constants only (no variables, `u`, reads or calls).
pub(super) fn const_value(e: &Expr) -> Option<BigInt> {
    Some(match e {
        Expr::Const(n) => n.clone(),
        Expr::Add(a, b) => const_value(a)? + const_value(b)?,
        Expr::Sub(a, b) => const_value(a)? - const_value(b)?,
        Expr::Scale(c, a) => c * const_value(a)?,
        Expr::Div(a, c) => const_value(a)? / c,
        Expr::Mod(a, c) => const_value(a)? % c,
        Expr::Wrap(w, a) => w.wrap(&const_value(a)?),
        Expr::Cmp(op, a, b) => BigInt::from(op.holds(&const_value(a)?, &const_value(b)?) as i64),
        Expr::Not(a) => BigInt::from(const_value(a)?.is_zero() as i64),
        Expr::And(a, b) => {
            let x = const_value(a)?;
            if x.is_zero() {
                BigInt::zero()
            } else {
                BigInt::from(!const_value(b)?.is_zero() as i64)
            }
        }
        Expr::Or(a, b) => {
            let x = const_value(a)?;
            if !x.is_zero() {
                BigInt::from(1)
            } else {
                BigInt::from(!const_value(b)?.is_zero() as i64)
            }
        }
        Expr::Cond(c, a, b) => {
            if const_value(c)?.is_zero() {
                const_value(b)?
            } else {
                const_value(a)?
            }
        }
        Expr::Overflow(w, a) => {
            let v = const_value(a)?;
            if !w.contains(&v) {
                return None; // the overflow check must stay
            }
            v
        }
        Expr::Var(_) | Expr::Undef | Expr::Read(..) | Expr::Call(..) | Expr::Nondet(..) => {
            return None
        }
    })
}

/// Replace the uses of the never-changing scalars of `p` by their values.
pub(super) fn propagate(p: &mut Program) {
    let mut defs: BTreeMap<VarId, usize> = BTreeMap::new();
    let mut inits: BTreeMap<VarId, Expr> = BTreeMap::new();
    let mut goto_procs = Vec::new();
    for (pid, proc) in p.procs.iter_enumerated() {
        let mut has_goto = false;
        walk(&proc.body, &mut |s| match &s.kind {
            StmtKind::Assign(pairs) => {
                for (lv, e) in pairs {
                    if let LValue::Var(v) = lv {
                        *defs.entry(*v).or_default() += 1;
                        if pairs.len() == 1 {
                            inits.insert(*v, e.clone());
                        }
                    }
                }
            }
            StmtKind::Call {
                dest: Some(LValue::Var(v)),
                ..
            }
            | StmtKind::Havoc(v) => *defs.entry(*v).or_default() += 2,
            StmtKind::Goto(_) => has_goto = true,
            _ => {}
        });
        if has_goto {
            goto_procs.push(pid);
        }
    }
    let mut known: BTreeMap<VarId, BigInt> = BTreeMap::new();
    for (v, init) in &p.globals {
        if defs.contains_key(v) || p.vars[*v].kind != VarKind::Global {
            continue;
        }
        match init {
            None => {
                known.insert(*v, BigInt::from(0));
            }
            Some(e) => {
                if let Expr::Const(n) = super::hir::fold(e.clone(), &|_| None) {
                    known.insert(*v, n);
                }
            }
        }
    }
    // Locals defined once by a constant (possibly in terms of other such constants).
    let candidates: Vec<(VarId, Expr)> = inits
        .into_iter()
        .filter(|(v, _)| defs.get(v) == Some(&1))
        .filter(|(v, _)| match p.vars[*v].kind {
            VarKind::Local(pid) => !goto_procs.contains(&pid),
            _ => false,
        })
        .collect();
    loop {
        let before = known.len();
        for (v, e) in &candidates {
            if known.contains_key(v) {
                continue;
            }
            let lookup = |x: VarId| known.get(&x).cloned();
            if let Expr::Const(n) = super::hir::fold(e.clone(), &lookup) {
                if p.vars[*v].range.contains(&n) {
                    known.insert(*v, n);
                }
            }
        }
        if known.len() == before {
            break;
        }
    }
    if known.is_empty() {
        return;
    }
    let subst = |e: &mut Expr| {
        let lookup = |x: VarId| known.get(&x).cloned();
        *e = super::hir::fold(std::mem::replace(e, Expr::Undef), &lookup);
    };
    for (_, init) in p.globals.iter_mut() {
        init.iter_mut().for_each(subst);
    }
    for (_, init) in p.global_arrays.iter_mut() {
        init.iter_mut().flatten().for_each(subst);
    }
    let mut sized = Vec::new();
    for proc in p.procs.iter_mut() {
        walk_mut(&mut proc.body, &mut |s| {
            exprs_mut(&mut s.kind, &mut |e| subst(e));
            if let StmtKind::ArrayDecl { array, size, .. } = &mut s.kind {
                if let Some(Expr::Const(n)) = size {
                    if let Some(n) = n.is_positive().then(|| n.to_u64()).flatten() {
                        if n <= 1u64 << 40 {
                            sized.push((*array, n));
                            *size = None;
                        }
                    }
                }
            }
        });
    }
    for (a, n) in sized {
        p.arrays[a].size = ArraySize::Const(n);
    }
}

/// Call `f` on every statement of `body`, nested ones included (pre-order).
fn walk(body: &[Stmt], f: &mut impl FnMut(&Stmt)) {
    for s in body {
        f(s);
        match &s.kind {
            StmtKind::If(_, a, b) => {
                walk(a, f);
                walk(b, f);
            }
            StmtKind::Loop { body, step, .. } => {
                walk(body, f);
                walk(step, f);
            }
            StmtKind::Block(b) => walk(b, f),
            StmtKind::Label { stmt, .. } => walk(std::slice::from_ref(stmt), f),
            _ => {}
        }
    }
}

/// [`walk`] with mutable statements.
fn walk_mut(body: &mut [Stmt], f: &mut impl FnMut(&mut Stmt)) {
    for s in body {
        f(s);
        match &mut s.kind {
            StmtKind::If(_, a, b) => {
                walk_mut(a, f);
                walk_mut(b, f);
            }
            StmtKind::Loop { body, step, .. } => {
                walk_mut(body, f);
                walk_mut(step, f);
            }
            StmtKind::Block(b) => walk_mut(b, f),
            StmtKind::Label { stmt, .. } => walk_mut(std::slice::from_mut(stmt), f),
            _ => {}
        }
    }
}

/// Call `f` on every expression a statement holds itself (not those of nested statements).
fn exprs_mut(k: &mut StmtKind, f: &mut impl FnMut(&mut Expr)) {
    let lv = |l: &mut LValue, f: &mut dyn FnMut(&mut Expr)| {
        if let LValue::Elem(_, i) = l {
            f(i)
        }
    };
    match k {
        StmtKind::Assign(pairs) => {
            for (l, e) in pairs {
                lv(l, f);
                f(e);
            }
        }
        StmtKind::Call { dest, args, .. } => {
            if let Some(l) = dest {
                lv(l, f);
            }
            args.iter_mut().for_each(f);
        }
        StmtKind::ArrayDecl { size, init, .. } => {
            size.iter_mut().for_each(&mut *f);
            init.iter_mut().flatten().for_each(f);
        }
        StmtKind::If(c, ..) | StmtKind::Loop { cond: c, .. } => f(c),
        StmtKind::Return(Some(e)) | StmtKind::Assert(e) | StmtKind::Assume(e) => f(e),
        StmtKind::Havoc(_)
        | StmtKind::ArrayHavoc(_)
        | StmtKind::Return(None)
        | StmtKind::Break
        | StmtKind::Continue
        | StmtKind::Skip
        | StmtKind::Label { .. }
        | StmtKind::Error
        | StmtKind::Stop
        | StmtKind::Block(_)
        | StmtKind::Goto(_) => {}
    }
}

#[cfg(test)]
mod tests {
    use super::{walk, Expr, LValue, Program, StmtKind};
    use crate::diag::SourceFile;
    use crate::sema::{ArraySize, IntModel, SemaOptions};

    fn hir_of(src: &str, int_model: IntModel) -> Program {
        let file = SourceFile::new("t.c", src);
        let ast = crate::syntax::parse(&file).expect("parses");
        let opts = SemaOptions {
            int_model,
            ..Default::default()
        };
        match super::super::analyze_with(&ast, &opts) {
            Ok(a) => a.program,
            Err(_) => panic!("does not resolve:\n{src}"),
        }
    }

    /// Whether some expression of the program reads the variable named `name`.
    fn read(p: &Program, name: &str) -> bool {
        let mut found = false;
        for proc in p.procs.iter() {
            walk(&proc.body, &mut |s| {
                let mut exprs: Vec<&Expr> = Vec::new();
                match &s.kind {
                    StmtKind::Assign(pairs) => {
                        for (l, e) in pairs {
                            if let LValue::Elem(_, i) = l {
                                exprs.push(i);
                            }
                            exprs.push(e);
                        }
                    }
                    StmtKind::If(c, ..)
                    | StmtKind::Loop { cond: c, .. }
                    | StmtKind::Assert(c)
                    | StmtKind::Assume(c)
                    | StmtKind::Return(Some(c)) => exprs.push(c),
                    StmtKind::Call { args, .. } => exprs.extend(args),
                    _ => {}
                }
                for e in exprs {
                    found |= e.vars().iter().any(|v| p.vars[*v].name == name);
                }
            });
        }
        found
    }

    #[test]
    fn a_local_constant_makes_a_constant_size_array() {
        let p = hir_of(
            "int main() { int N = 10; int M = 2 * N; int a[M + 2]; a[N] = M; return a[N]; }",
            IntModel::C,
        );
        let a = p.arrays.iter().find(|a| a.name == "a").expect("a");
        assert_eq!(a.size, ArraySize::Const(22));
        assert!(!read(&p, "N") && !read(&p, "M"));
    }

    #[test]
    fn globals_nothing_assigns_become_their_values() {
        let p = hir_of(
            "int n = 7; int z; int g = 1; void set() { g = 2; } \
             void main() { int x; x = n + z + g; set(); assert(x == 8); }",
            IntModel::Math,
        );
        assert!(!read(&p, "n") && !read(&p, "z"));
        assert!(read(&p, "g"), "g is assigned in set()");
    }

    #[test]
    fn variables_with_other_definitions_stay() {
        let p = hir_of(
            "extern int __VERIFIER_nondet_int(void); \
             int main() { int c = __VERIFIER_nondet_int(); int x; if (c) x = 5; \
             int m = 0; m++; int k = 3; int r = x + m + k; \
             if (c) goto L; L: return r; }",
            IntModel::C,
        );
        assert!(read(&p, "x"), "x is uninitialised when c is 0");
        assert!(read(&p, "m"), "m is incremented");
        assert!(read(&p, "k"), "a procedure with a goto keeps its locals");
    }
}
