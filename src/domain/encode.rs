//! The paper's encodings (§4): `e → (B, ne)` flattens conditional expressions into pairs of
//! a set of guards and a conditional-free linear expression; `β+(b)`/`β−(b)` turn a guard
//! into a disjunction of conjunctions; each `u` becomes a fresh (existentially quantified)
//! dimension, later eliminated by Fourier–Motzkin; `!=` splits into `<` or `>`; booleans
//! used as values are `(b ? 1 : 0)`. `e / c` and `e % c` (C truncation) get a fresh
//! quotient `q` with `0 <= e - c*q <= c-1` when `e >= 0` and `0 <= c*q - e <= c-1` when
//! `e < 0`. A signed result that C leaves undefined out of range (`Expr::Overflow`) adds
//! its range to the guards of its case: the executions where it overflows end there.

use crate::ids::VarId;
use crate::linear::{Constraint, Dim, LinExpr, Q};
use crate::sema::{CmpOp, Expr};
use num_bigint::BigInt;
use num_traits::{One, Zero};

/// Allocates fresh dimensions above the program's variables.
#[derive(Clone, Debug)]
pub struct Fresh {
    next: u32,
}

impl Fresh {
    /// Fresh dimensions start at `base`.
    pub fn new(base: u32) -> Fresh {
        Fresh { next: base }
    }
    /// A new dimension.
    pub fn dim(&mut self) -> Dim {
        let d = Dim(self.next);
        self.next += 1;
        d
    }
    /// The first dimension not handed out yet.
    pub fn peek(&self) -> u32 {
        self.next
    }
}

/// One way to evaluate an expression: under the guards `guards`, its value is `value`.
pub type Case = (Vec<Constraint>, LinExpr);

/// A disjunction of conjunctions of constraints.
pub type Dnf = Vec<Vec<Constraint>>;

fn q(n: &BigInt) -> Q {
    Q::from_integer(n.clone())
}

fn product<T: Clone>(
    a: Vec<(Vec<Constraint>, T)>,
    b: Vec<(Vec<Constraint>, LinExpr)>,
) -> Vec<(Vec<Constraint>, T, LinExpr)> {
    let mut out = Vec::with_capacity(a.len() * b.len());
    for (ga, ta) in &a {
        for (gb, tb) in &b {
            let mut g = ga.clone();
            g.extend(gb.iter().cloned());
            out.push((g, ta.clone(), tb.clone()));
        }
    }
    out
}

fn and_dnf(a: &Dnf, b: &Dnf) -> Dnf {
    let mut out = Vec::with_capacity(a.len() * b.len());
    for x in a {
        for y in b {
            let mut g = x.clone();
            g.extend(y.iter().cloned());
            out.push(g);
        }
    }
    out
}

/// `e → (B, ne)` (paper §4): every way to evaluate `e`, with `var(v)` the dimension of the
/// current value of `v`.
pub fn flatten(e: &Expr, var: &dyn Fn(VarId) -> Dim, fresh: &mut Fresh) -> Vec<Case> {
    match e {
        Expr::Const(n) => vec![(vec![], LinExpr::constant(q(n)))],
        Expr::Var(v) => vec![(vec![], LinExpr::var(var(*v)))],
        Expr::Undef => vec![(vec![], LinExpr::var(fresh.dim()))],
        Expr::Add(a, b) | Expr::Sub(a, b) => {
            let fa = flatten(a, var, fresh);
            let fb = flatten(b, var, fresh);
            let add = matches!(e, Expr::Add(..));
            product(fa, fb)
                .into_iter()
                .map(|(g, x, y)| (g, if add { &x + &y } else { &x - &y }))
                .collect()
        }
        Expr::Scale(c, a) => flatten(a, var, fresh)
            .into_iter()
            .map(|(g, x)| (g, x.scale(&q(c))))
            .collect(),
        Expr::Div(a, c) | Expr::Mod(a, c) => {
            let c = q(c);
            let mut out = Vec::new();
            for (g, x) in flatten(a, var, fresh) {
                let quot = LinExpr::var(fresh.dim());
                let cq = quot.scale(&c);
                let top = LinExpr::constant(&c - Q::one());
                let zero = LinExpr::zero();
                let value = if matches!(e, Expr::Div(..)) {
                    quot.clone()
                } else {
                    &x - &cq
                };
                // e >= 0: 0 <= e - c*q <= c - 1
                let mut pos = g.clone();
                pos.push(Constraint::ge(&x, &zero));
                pos.push(Constraint::ge(&(&x - &cq), &zero));
                pos.push(Constraint::le(&(&x - &cq), &top));
                out.push((pos, value.clone()));
                // e < 0: 0 <= c*q - e <= c - 1
                let mut neg = g;
                neg.push(Constraint::lt(&x, &zero));
                neg.push(Constraint::ge(&(&cq - &x), &zero));
                neg.push(Constraint::le(&(&cq - &x), &top));
                out.push((neg, value));
            }
            out
        }
        Expr::Wrap(w, a) if matches!(**a, Expr::Undef) => {
            // An arbitrary value in range: one fresh dimension, bounded.
            let d = LinExpr::var(fresh.dim());
            let guards = vec![
                Constraint::ge(&d, &LinExpr::constant(q(&w.lo()))),
                Constraint::le(&d, &LinExpr::constant(q(&w.hi()))),
            ];
            vec![(guards, d)]
        }
        Expr::Wrap(w, a) => {
            // Three cases: in range, the value itself; above (below) the range, the value
            // minus 2^bits times a fresh quotient q >= 1 (q <= -1), landing in the range.
            // When the fact keeps the value in range, the other two are empty and pruned.
            let (lo, hi, m) = (
                LinExpr::constant(q(&w.lo())),
                LinExpr::constant(q(&w.hi())),
                q(&w.modulus()),
            );
            let mut out = Vec::new();
            for (g, x) in flatten(a, var, fresh) {
                let mut inside = g.clone();
                inside.push(Constraint::ge(&x, &lo));
                inside.push(Constraint::le(&x, &hi));
                out.push((inside, x.clone()));
                for above in [true, false] {
                    let quot = LinExpr::var(fresh.dim());
                    let r = &x - &quot.scale(&m);
                    let mut c = g.clone();
                    if above {
                        c.push(Constraint::gt(&x, &hi));
                        c.push(Constraint::ge(&quot, &LinExpr::int(1)));
                    } else {
                        c.push(Constraint::lt(&x, &lo));
                        c.push(Constraint::le(&quot, &LinExpr::int(-1)));
                    }
                    c.push(Constraint::ge(&r, &lo));
                    c.push(Constraint::le(&r, &hi));
                    out.push((c, r));
                }
            }
            out
        }
        Expr::Overflow(w, a) => {
            // A signed result that C leaves undefined out of range: the executions go on
            // only where it fits, with the value itself.
            let (lo, hi) = (LinExpr::constant(q(&w.lo())), LinExpr::constant(q(&w.hi())));
            flatten(a, var, fresh)
                .into_iter()
                .map(|(mut g, x)| {
                    g.push(Constraint::ge(&x, &lo));
                    g.push(Constraint::le(&x, &hi));
                    (g, x)
                })
                .collect()
        }
        Expr::Cmp(..) | Expr::Not(_) | Expr::And(..) | Expr::Or(..) => {
            // A boolean used as a value: (b ? 1 : 0).
            let mut out: Vec<Case> = guard(e, true, var, fresh)
                .into_iter()
                .map(|g| (g, LinExpr::int(1)))
                .collect();
            out.extend(
                guard(e, false, var, fresh)
                    .into_iter()
                    .map(|g| (g, LinExpr::int(0))),
            );
            out
        }
        Expr::Cond(c, x, y) => {
            let mut out = Vec::new();
            for (branch, pos) in [(x, true), (y, false)] {
                let gs = guard(c, pos, var, fresh);
                let vs = flatten(branch, var, fresh);
                for g in &gs {
                    for (b, v) in &vs {
                        let mut all = g.clone();
                        all.extend(b.iter().cloned());
                        out.push((all, v.clone()));
                    }
                }
            }
            out
        }
        Expr::Read(..) => panic!("internal error: array reads are abstracted before tabulation"),
        Expr::Call(..) | Expr::Nondet(..) => {
            panic!("internal error: CFG expressions have no calls or nondet values")
        }
    }
}

fn cmp_constraints(op: CmpOp, a: &LinExpr, b: &LinExpr) -> Dnf {
    match op {
        CmpOp::Lt => vec![vec![Constraint::lt(a, b)]],
        CmpOp::Le => vec![vec![Constraint::le(a, b)]],
        CmpOp::Gt => vec![vec![Constraint::gt(a, b)]],
        CmpOp::Ge => vec![vec![Constraint::ge(a, b)]],
        CmpOp::Eq => vec![vec![Constraint::eq(a, b)]],
        CmpOp::Ne => vec![vec![Constraint::lt(a, b)], vec![Constraint::gt(a, b)]],
    }
}

/// The most cases or disjuncts a transfer builds for one expression or condition: past it
/// (a read among many cells whose index the fact does not fix is a long chain of `?:`,
/// with exponentially many cases) the transfer over-approximates instead: an arbitrary
/// value, or no constraint from the condition.
pub const MAX_CASES: u64 = 512;

/// An upper bound on the number of disjuncts [`guard`] builds for `b` (saturating), found
/// without building them: a chain of `?:` doubles the cases at each link, so a caller
/// that only wants small DNFs asks this first.
pub fn guard_size(b: &Expr, positive: bool) -> u64 {
    match b {
        Expr::Const(_) => 1,
        Expr::Cmp(op, x, y) => {
            let op = if positive { *op } else { op.negate() };
            let ne = if op == CmpOp::Ne { 2 } else { 1 };
            flatten_size(x)
                .saturating_mul(flatten_size(y))
                .saturating_mul(ne)
        }
        Expr::Not(x) => guard_size(x, !positive),
        Expr::And(x, y) if positive => guard_size(x, true).saturating_mul(guard_size(y, true)),
        Expr::Or(x, y) if !positive => guard_size(x, false).saturating_mul(guard_size(y, false)),
        Expr::And(x, y) | Expr::Or(x, y) => {
            guard_size(x, positive).saturating_add(guard_size(y, positive))
        }
        Expr::Cond(c, x, y) => guard_size(c, true)
            .saturating_mul(guard_size(x, positive))
            .saturating_add(guard_size(c, false).saturating_mul(guard_size(y, positive))),
        other => flatten_size(other).saturating_mul(2),
    }
}

/// An upper bound on the number of cases [`flatten`] builds for `e` (saturating).
pub fn flatten_size(e: &Expr) -> u64 {
    match e {
        Expr::Add(a, b) | Expr::Sub(a, b) => flatten_size(a).saturating_mul(flatten_size(b)),
        Expr::Scale(_, a) | Expr::Overflow(_, a) => flatten_size(a),
        Expr::Div(a, _) | Expr::Mod(a, _) => flatten_size(a).saturating_mul(2),
        Expr::Wrap(_, a) if matches!(**a, Expr::Undef) => 1,
        Expr::Wrap(_, a) => flatten_size(a).saturating_mul(3),
        Expr::Cmp(..) | Expr::Not(_) | Expr::And(..) | Expr::Or(..) => {
            guard_size(e, true).saturating_add(guard_size(e, false))
        }
        Expr::Cond(c, x, y) => guard_size(c, true)
            .saturating_mul(flatten_size(x))
            .saturating_add(guard_size(c, false).saturating_mul(flatten_size(y))),
        _ => 1,
    }
}

/// `β+(b)` (`positive`) or `β−(b)`: the states where `b` is non-zero (zero), as a DNF
/// over current dimensions and fresh ones.
pub fn guard(b: &Expr, positive: bool, var: &dyn Fn(VarId) -> Dim, fresh: &mut Fresh) -> Dnf {
    match b {
        Expr::Const(n) => {
            if n.is_zero() != positive {
                vec![vec![]]
            } else {
                vec![]
            }
        }
        Expr::Cmp(op, x, y) => {
            let op = if positive { *op } else { op.negate() };
            let fx = flatten(x, var, fresh);
            let fy = flatten(y, var, fresh);
            let mut out = Vec::new();
            for (g, a, c) in product(fx, fy) {
                for mut d in cmp_constraints(op, &a, &c) {
                    d.extend(g.iter().cloned());
                    out.push(d);
                }
            }
            out
        }
        Expr::Not(x) => guard(x, !positive, var, fresh),
        Expr::And(x, y) if positive => {
            let gx = guard(x, true, var, fresh);
            let gy = guard(y, true, var, fresh);
            and_dnf(&gx, &gy)
        }
        Expr::And(x, y) => {
            let mut out = guard(x, false, var, fresh);
            out.extend(guard(y, false, var, fresh));
            out
        }
        Expr::Or(x, y) if positive => {
            let mut out = guard(x, true, var, fresh);
            out.extend(guard(y, true, var, fresh));
            out
        }
        Expr::Or(x, y) => {
            let gx = guard(x, false, var, fresh);
            let gy = guard(y, false, var, fresh);
            and_dnf(&gx, &gy)
        }
        Expr::Cond(c, x, y) => {
            let mut out = and_dnf(&guard(c, true, var, fresh), &guard(x, positive, var, fresh));
            out.extend(and_dnf(
                &guard(c, false, var, fresh),
                &guard(y, positive, var, fresh),
            ));
            out
        }
        other => {
            // An integer used as a condition: non-zero is true.
            let zero = LinExpr::zero();
            let mut out = Vec::new();
            for (g, v) in flatten(other, var, fresh) {
                let op = if positive { CmpOp::Ne } else { CmpOp::Eq };
                for mut d in cmp_constraints(op, &v, &zero) {
                    d.extend(g.iter().cloned());
                    out.push(d);
                }
            }
            out
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::linear::Conj;
    use crate::sema::Width;
    use proptest::prelude::*;

    /// Whether some case of `flatten(e)` admits `x = xv` with value `rv` (the fresh
    /// quotients existentially quantified).
    fn admits(e: &Expr, xv: i64, rv: &BigInt) -> bool {
        let x = Dim(1);
        let r = Dim(100);
        let mut fresh = Fresh::new(200);
        flatten(e, &|_| x, &mut fresh).into_iter().any(|(g, v)| {
            let mut cs = g;
            cs.push(Constraint::eq(&LinExpr::var(x), &LinExpr::int(xv)));
            cs.push(Constraint::eq(&LinExpr::var(r), &v));
            cs.push(Constraint::eq(&LinExpr::var(r), &LinExpr::constant(q(rv))));
            !Conj::from_constraints(cs.iter()).is_empty()
        })
    }

    proptest! {
        /// The domain's encoding of a wrap admits the concrete wrapped value (soundness),
        /// and no value outside the type's range.
        #[test]
        fn wrap_encoding_contains_the_concrete_value(
            xv in -70_000i64..70_000,
            bits in prop::sample::select(vec![8u32, 16]),
            signed in any::<bool>(),
        ) {
            let w = Width { bits, signed };
            let e = Expr::Wrap(w, Box::new(Expr::Var(VarId(0))));
            let rv = w.wrap(&BigInt::from(xv));
            prop_assert!(w.contains(&rv));
            prop_assert!(admits(&e, xv, &rv));
            prop_assert!(!admits(&e, xv, &(w.hi() + 1)));
            prop_assert!(!admits(&e, xv, &(w.lo() - 1)));
            // In range, the value is exact.
            if w.contains(&BigInt::from(xv)) {
                prop_assert!(!admits(&e, xv, &(BigInt::from(xv) + 1)));
            }
        }
    }

    #[test]
    fn width_wrap_is_cs_conversion() {
        let u8w = Width {
            bits: 8,
            signed: false,
        };
        let i8w = Width {
            bits: 8,
            signed: true,
        };
        let u32w = Width {
            bits: 32,
            signed: false,
        };
        let i32w = Width {
            bits: 32,
            signed: true,
        };
        let n = |v: i64| BigInt::from(v);
        assert_eq!(u8w.wrap(&n(300)), n(44));
        assert_eq!(i8w.wrap(&n(300)), n(44));
        assert_eq!(i8w.wrap(&n(200)), n(-56));
        assert_eq!(u32w.wrap(&n(-1)), n(4_294_967_295));
        assert_eq!(i32w.wrap(&n(2_147_483_648)), n(-2_147_483_648));
        assert_eq!(i32w.wrap(&n(-2_147_483_649)), n(2_147_483_647));
        assert_eq!(u8w.lo(), n(0));
        assert_eq!(i8w.hi(), n(127));
    }
}
