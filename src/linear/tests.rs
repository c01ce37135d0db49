//! Laws of the exact linear arithmetic (`crate::linear`): Fourier–Motzkin against
//! brute-force projection, integer tightening, exact emptiness and implication, checked on
//! hand examples and on random small systems (proptest).

use std::collections::BTreeMap;

use crate::linear::{simplex, Conj, Constraint, Dim, Domain, LinExpr, Point, Rel, Tightened, Q};
use num_integer::Integer;
use num_traits::{One, Signed, Zero};
use proptest::prelude::*;

fn q(n: i64) -> Q {
    Q::from_integer(n.into())
}

fn qr(n: i64, d: i64) -> Q {
    Q::new(n.into(), d.into())
}

fn x(d: u32) -> LinExpr {
    LinExpr::var(Dim(d))
}

fn k(n: i64) -> LinExpr {
    LinExpr::int(n)
}

fn pt(vals: &[(u32, Q)]) -> Point {
    vals.iter().map(|(d, v)| (Dim(*d), v.clone())).collect()
}

// ---------------------------------------------------------------- hand examples

#[test]
fn equality_substitution_projection() {
    // x = 2y, y >= 1, project y: x >= 2.
    let s = Conj::from_constraints(&[
        Constraint::eq(&x(0), &(&x(1) * &q(2))),
        Constraint::ge(&x(1), &k(1)),
    ]);
    let p = s.project_out(&[Dim(1)]);
    assert_eq!(p.to_string(), "x0 >= 2");
    assert!(p.contains_point(&pt(&[(0, q(2))])).unwrap());
    assert!(!p.contains_point(&pt(&[(0, q(1))])).unwrap());
    assert!(p.dims().iter().all(|d| *d == Dim(0)));
}

#[test]
fn strictness_rat_and_int() {
    // x < y, y < 1, project y.
    let cs = [Constraint::lt(&x(0), &x(1)), Constraint::lt(&x(1), &k(1))];
    let rat = Conj::from_constraints_in(Domain::Rat, &cs).project_out(&[Dim(1)]);
    assert_eq!(rat.to_string(), "x0 < 1");
    assert!(rat.contains_point(&pt(&[(0, qr(99, 100))])).unwrap());
    assert!(!rat.contains_point(&pt(&[(0, q(1))])).unwrap());
    // Over the integers: x <= y - 1, y <= 0, so x <= -1.
    let int = Conj::from_constraints(&cs).project_out(&[Dim(1)]);
    assert_eq!(int.to_string(), "x0 <= -1");
}

#[test]
fn non_unit_equality() {
    // 2x = 3y, 0 <= y <= 3, project y: 0 <= x <= 9/2 (rationals), 0 <= x <= 4 (integers).
    let cs = [
        Constraint::eq(&(&x(0) * &q(2)), &(&x(1) * &q(3))),
        Constraint::ge(&x(1), &k(0)),
        Constraint::le(&x(1), &k(3)),
    ];
    let rat = Conj::from_constraints_in(Domain::Rat, &cs).project_out(&[Dim(1)]);
    assert_eq!(rat.to_string(), "0 <= x0 <= 9/2");
    let int = Conj::from_constraints(&cs).project_out(&[Dim(1)]);
    assert_eq!(int.to_string(), "0 <= x0 <= 4");
    // Projecting x instead keeps y's range.
    let int = Conj::from_constraints(&cs).project_out(&[Dim(0)]);
    assert_eq!(int.to_string(), "0 <= x1 <= 3");
}

#[test]
fn combination_and_tightening() {
    // x <= y, x + y <= 1, project y: 2x <= 1, i.e. x <= 1/2, and x <= 0 over the integers.
    let cs = [
        Constraint::le(&x(0), &x(1)),
        Constraint::le(&(&x(0) + &x(1)), &k(1)),
    ];
    let rat = Conj::from_constraints_in(Domain::Rat, &cs).project_out(&[Dim(1)]);
    assert_eq!(rat.to_string(), "x0 <= 1/2");
    let int = Conj::from_constraints(&cs).project_out(&[Dim(1)]);
    assert_eq!(int.to_string(), "x0 <= 0");
}

#[test]
fn empty_systems() {
    let s = Conj::from_constraints(&[Constraint::ge(&x(0), &k(1)), Constraint::le(&x(0), &k(0))]);
    assert!(s.is_trivially_false());
    assert!(s.is_empty());
    // x + y >= 3, x <= 1, y <= 1: empty, but not syntactically.
    let s = Conj::from_constraints(&[
        Constraint::ge(&(&x(0) + &x(1)), &k(3)),
        Constraint::le(&x(0), &k(1)),
        Constraint::le(&x(1), &k(1)),
    ]);
    assert!(!s.is_trivially_false());
    assert!(s.is_empty());
    assert!(s.feasible_point().is_none());
    assert!(s.project_out(&[Dim(0)]).is_trivially_false());
    assert!(s
        .project_out_unsimplified(&[Dim(0), Dim(1)])
        .is_trivially_false());
    assert!(s.simplify().is_trivially_false());
    // 2x = 1 has no integer solution but a rational one.
    let c = [Constraint::eq(&(&x(0) * &q(2)), &k(1))];
    assert!(Conj::from_constraints(&c).is_trivially_false());
    let rat = Conj::from_constraints_in(Domain::Rat, &c);
    assert_eq!(rat.feasible_point(), Some(pt(&[(0, qr(1, 2))])));
}

#[test]
fn implication_and_entailment() {
    let s = Conj::from_constraints(&[Constraint::ge(&x(0), &k(2)), Constraint::le(&x(1), &x(0))]);
    assert!(s.implies(&Constraint::ge(&x(0), &k(1))));
    assert!(!s.implies(&Constraint::ge(&x(0), &k(3))));
    assert!(!s.implies(&Constraint::le(&x(1), &k(2))));
    assert!(s.implies(&Constraint::lt(&x(1), &(&x(0) + &k(1)))));
    // Integer implication: x > 0 implies x >= 1 over Int but not over Rat.
    let gt = [Constraint::gt(&x(0), &k(0))];
    let ge1 = Constraint::ge(&x(0), &k(1));
    assert!(Conj::from_constraints(&gt).implies(&ge1));
    assert!(!Conj::from_constraints_in(Domain::Rat, &gt).implies(&ge1));
    // Equalities: x = 1 ∧ y = x implies y = 1, not y = 2.
    let e = Conj::from_constraints(&[Constraint::eq(&x(0), &k(1)), Constraint::eq(&x(1), &x(0))]);
    assert!(e.implies(&Constraint::eq(&x(1), &k(1))));
    assert!(!e.implies(&Constraint::eq(&x(1), &k(2))));
    assert!(e.entails(&Conj::from_constraints(&[Constraint::le(&x(1), &k(5))])));
    assert!(!s.entails(&e));
    assert!(Conj::bottom().entails(&e));
}

#[test]
fn redundancy_removal() {
    // x <= 1, x <= 2 (syntactic); y <= 1; x + y <= 5 (semantic); x + y <= 2 (semantic).
    let s = Conj::from_constraints(&[
        Constraint::le(&x(0), &k(1)),
        Constraint::le(&x(0), &k(2)),
        Constraint::le(&x(1), &k(1)),
        Constraint::le(&(&x(0) + &x(1)), &k(5)),
        Constraint::le(&(&x(0) + &x(1)), &k(2)),
    ]);
    assert_eq!(s.num_rows(), 3);
    let t = s.simplify();
    assert_eq!(t.to_string(), "x0 <= 1 && x1 <= 1");
    assert!(t.entails(&s) && s.entails(&t));
    // x <= y <= z <= x is x = y = z: all three kept as ranges, nothing implied alone.
    let c = Conj::from_constraints(&[
        Constraint::le(&x(0), &x(1)),
        Constraint::le(&x(1), &x(2)),
        Constraint::le(&x(2), &x(0)),
    ]);
    assert_eq!(c.simplify().num_rows(), c.num_rows());
}

#[test]
fn substitute_rename_display() {
    let s = Conj::from_constraints(&[
        Constraint::le(&(&x(0) * &q(2)), &(&x(1) + &k(3))),
        Constraint::eq(&x(2), &k(4)),
    ]);
    assert_eq!(s.to_string(), "2*x0 - x1 <= 3 && x2 = 4");
    let r = s.rename(&|d: Dim| Dim(d.0 + 10));
    assert_eq!(r.to_string(), "2*x10 - x11 <= 3 && x12 = 4");
    let t = s.substitute(Dim(1), &(&x(0) * &q(2)));
    assert_eq!(t.to_string(), "x2 = 4");
    let t = s.substitute(Dim(1), &k(1));
    assert_eq!(t.to_string(), "x0 <= 2 && x2 = 4");
    assert_eq!(Conj::top().to_string(), "true");
    assert_eq!(Conj::bottom().to_string(), "false");
}

// ---------------------------------------------------------------- random systems

/// A small integer system: `Σ coeffs[i]·x_i + constant REL 0`.
#[derive(Clone, Debug)]
struct Sys {
    n: usize,
    cons: Vec<(Vec<i64>, i64, Rel)>,
}

impl Sys {
    fn constraints(&self) -> Vec<Constraint> {
        self.cons
            .iter()
            .map(|(a, c, rel)| {
                let e = LinExpr::from_parts(
                    a.iter().enumerate().map(|(i, v)| (Dim(i as u32), q(*v))),
                    q(*c),
                );
                Constraint::new(e, *rel)
            })
            .collect()
    }

    fn holds_int(&self, p: &[i64]) -> bool {
        self.cons.iter().all(|(a, c, rel)| {
            let v: i64 = a.iter().zip(p).map(|(a, x)| a * x).sum::<i64>() + c;
            match rel {
                Rel::Le => v <= 0,
                Rel::Lt => v < 0,
                Rel::Eq => v == 0,
            }
        })
    }

    /// Every integer point of the box `[-r, r]^n`.
    fn box_points(&self, r: i64) -> Vec<Vec<i64>> {
        let mut out = vec![vec![]];
        for _ in 0..self.n {
            out = out
                .into_iter()
                .flat_map(|p| {
                    (-r..=r).map(move |v| {
                        let mut p = p.clone();
                        p.push(v);
                        p
                    })
                })
                .collect();
        }
        out
    }
}

fn rel() -> impl Strategy<Value = Rel> {
    prop_oneof![3 => Just(Rel::Le), 2 => Just(Rel::Lt), 1 => Just(Rel::Eq)]
}

fn coef() -> impl Strategy<Value = i64> {
    prop_oneof![1 => Just(0i64), 3 => -5i64..5]
}

fn sys(max_dims: usize) -> impl Strategy<Value = Sys> {
    (1..=max_dims).prop_flat_map(|n| {
        let con = (prop::collection::vec(coef(), n), -10i64..10, rel());
        prop::collection::vec(con, 0..=6).prop_map(move |cons| Sys { n, cons })
    })
}

/// A system with a random set of dimensions to eliminate.
fn sys_elim(max_dims: usize) -> impl Strategy<Value = (Sys, Vec<Dim>)> {
    sys(max_dims).prop_flat_map(|s| {
        let n = s.n;
        (Just(s), prop::collection::vec(any::<bool>(), n)).prop_map(|(s, mask)| {
            let elim = (0..s.n)
                .filter(|i| mask[*i])
                .map(|i| Dim(i as u32))
                .collect();
            (s, elim)
        })
    })
}

/// `cs` with the dimensions of `p` fixed to its values.
fn fixed(cs: &[Constraint], p: &Point) -> Vec<Constraint> {
    let mut out = cs.to_vec();
    for (d, v) in p {
        out.push(Constraint::eq(
            &LinExpr::var(*d),
            &LinExpr::constant(v.clone()),
        ));
    }
    out
}

/// Candidate points of the kept dimensions: random halves, a point of the system (if any)
/// and its half-step perturbations.
fn candidates(cs: &[Constraint], keep: &[Dim], halves: &[Vec<i64>]) -> Vec<Point> {
    let mut out: Vec<Point> = halves
        .iter()
        .map(|h| keep.iter().zip(h).map(|(d, v)| (*d, qr(*v, 2))).collect())
        .collect();
    if let Some(p) = simplex::feasible(cs) {
        let base: Point = keep
            .iter()
            .map(|d| (*d, p.get(d).cloned().unwrap_or_else(Q::zero)))
            .collect();
        for d in keep {
            for s in [-1, 1] {
                let mut b = base.clone();
                if let Some(v) = b.get_mut(d) {
                    *v += qr(s, 2);
                }
                out.push(b);
            }
        }
        out.push(base);
    }
    out
}

fn halves() -> impl Strategy<Value = Vec<Vec<i64>>> {
    prop::collection::vec(prop::collection::vec(-12i64..=12, 5), 6)
}

fn kept(s: &Sys, elim: &[Dim]) -> Vec<Dim> {
    (0..s.n as u32)
        .map(Dim)
        .filter(|d| !elim.contains(d))
        .collect()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    /// Over the rationals FM is exact: p satisfies ∃elim.S iff S with p fixed is feasible.
    #[test]
    fn fm_rat_is_exact_projection((s, elim) in sys_elim(5), hs in halves()) {
        let cs = s.constraints();
        let conj = Conj::from_constraints_in(Domain::Rat, &cs);
        let proj = conj.project_out(&elim);
        let plain = conj.project_out_unsimplified(&elim);
        for d in &elim {
            prop_assert!(!proj.dims().contains(d));
        }
        let keep = kept(&s, &elim);
        for p in candidates(&cs, &keep, &hs) {
            let exists = simplex::is_feasible(&fixed(&cs, &p));
            prop_assert_eq!(proj.contains_point(&p).unwrap(), exists, "point {:?} proj {}", p, proj);
            prop_assert_eq!(plain.contains_point(&p).unwrap(), exists, "point {:?} plain {}", p, plain);
        }
        // Redundancy removal keeps the projection equivalent.
        prop_assert!(proj.entails(&plain) && plain.entails(&proj));
    }

    /// Over the integers FM keeps every integer point of the projection, and stays within
    /// the rational projection of the tightened system.
    #[test]
    fn fm_int_over_approximates((s, elim) in sys_elim(5), hs in halves()) {
        let cs = s.constraints();
        let conj = Conj::from_constraints(&cs);
        let proj = conj.project_out(&elim);
        let keep = kept(&s, &elim);
        for p in s.box_points(3) {
            if s.holds_int(&p) {
                let r: Point = keep.iter().map(|d| (*d, q(p[d.0 as usize]))).collect();
                prop_assert!(proj.contains_point(&r).unwrap(), "lost {:?} in {}", p, proj);
            }
        }
        let tight = conj.constraints();
        for p in candidates(&tight, &keep, &hs) {
            if proj.contains_point(&p).unwrap() {
                prop_assert!(simplex::is_feasible(&fixed(&tight, &p)), "{:?} outside", p);
            }
        }
    }

    /// Tightening never removes an integer point and yields coprime integer coefficients.
    #[test]
    fn tightening_keeps_integer_points(
        nums in prop::collection::vec(-5i64..5, 3),
        dens in prop::collection::vec(1i64..4, 3),
        c in (-10i64..10, 1i64..4),
        rel in rel(),
    ) {
        let e = LinExpr::from_parts(
            (0..3).map(|i| (Dim(i as u32), qr(nums[i], dens[i]))),
            qr(c.0, c.1),
        );
        let con = Constraint::new(e, rel);
        let t = con.tighten();
        if let Tightened::Atom(tc) = &t {
            prop_assert!(tc.rel != Rel::Lt);
            prop_assert!(tc.expr.constant_term().is_integer());
            let mut g = num_bigint::BigInt::zero();
            for a in tc.expr.coeffs().values() {
                prop_assert!(a.is_integer());
                g = g.gcd(&a.numer());
            }
            prop_assert!(g.is_one());
        }
        for x0 in -4i64..=4 {
            for x1 in -4i64..=4 {
                for x2 in -4i64..=4 {
                    let p = pt(&[(0, q(x0)), (1, q(x1)), (2, q(x2))]);
                    let before = con.holds(&p).unwrap();
                    let after = match &t {
                        Tightened::True => true,
                        Tightened::False => false,
                        Tightened::Atom(tc) => tc.holds(&p).unwrap(),
                    };
                    prop_assert_eq!(before, after, "at {:?}: {} vs {:?}", p, con, t);
                }
            }
        }
    }

    /// Emptiness: an integer point means non-empty; a simplex point satisfies the system;
    /// eliminating every dimension by plain FM decides rational emptiness independently.
    #[test]
    fn emptiness_agrees(s in sys(5)) {
        let cs = s.constraints();
        let int = Conj::from_constraints(&cs);
        let rat = Conj::from_constraints_in(Domain::Rat, &cs);
        if s.box_points(3).iter().any(|p| s.holds_int(p)) {
            prop_assert!(!int.is_empty());
            prop_assert!(!rat.is_empty());
        }
        match simplex::feasible(&cs) {
            Some(p) => {
                for c in &cs {
                    prop_assert!(c.holds(&p).unwrap());
                }
                prop_assert!(!rat.is_empty());
            }
            None => prop_assert!(rat.is_empty()),
        }
        if let Some(p) = int.feasible_point() {
            prop_assert!(int.contains_point(&p).unwrap());
        }
        let all: Vec<Dim> = (0..s.n as u32).map(Dim).collect();
        prop_assert_eq!(rat.project_out_unsimplified(&all).is_trivially_false(), rat.is_empty());
        // Tightened FM may prove integer emptiness beyond rational emptiness, never less.
        let int_fm = int.project_out_unsimplified(&all).is_trivially_false();
        if int.is_empty() {
            prop_assert!(int_fm);
        }
        if int_fm {
            prop_assert!(!s.box_points(3).iter().any(|p| s.holds_int(p)));
        }
        prop_assert_eq!(int.simplify().is_trivially_false(), int.is_empty());
    }

    /// Implication: agrees with emptiness of the conjunction with the negation, is
    /// confirmed on integer points, and a refutation comes with a checked witness.
    #[test]
    fn implication_agrees(s in sys(4), c in (prop::collection::vec(coef(), 4), -10i64..10, rel())) {
        let cs = s.constraints();
        let e = LinExpr::from_parts(
            c.0.iter().take(s.n).enumerate().map(|(i, v)| (Dim(i as u32), q(*v))),
            q(c.1),
        );
        let goal = Constraint::new(e, c.2);
        for dom in [Domain::Int, Domain::Rat] {
            let conj = Conj::from_constraints_in(dom, &cs);
            let imp = conj.implies(&goal);
            let via_empty = goal
                .negate()
                .iter()
                .all(|n| conj.and(&Conj::from_constraints_in(dom, [n])).is_empty());
            prop_assert_eq!(imp, via_empty);
            if imp {
                for p in s.box_points(3) {
                    if s.holds_int(&p) {
                        let pp: Point = p.iter().enumerate().map(|(i, v)| (Dim(i as u32), q(*v))).collect();
                        prop_assert!(goal.holds(&pp).unwrap(), "{:?} violates {}", p, goal);
                    }
                }
            } else if dom == Domain::Rat {
                let w = goal.negate().iter().find_map(|n| {
                    let mut all = cs.clone();
                    all.push(n.clone());
                    simplex::feasible(&all)
                });
                let w = w.expect("a refuted implication has a witness");
                let mut w = w;
                for i in 0..s.n {
                    w.entry(Dim(i as u32)).or_insert_with(Q::zero);
                }
                prop_assert!(conj.contains_point(&w).unwrap());
                prop_assert!(!goal.holds(&w).unwrap());
            }
            prop_assert!(conj.entails(&conj.simplify()) && conj.simplify().entails(&conj));
        }
    }
}

#[test]
fn sign_helpers_are_consistent() {
    // Guards the test helpers themselves.
    let s = Sys {
        n: 2,
        cons: vec![(vec![1, -1], 0, Rel::Lt)],
    };
    assert!(s.holds_int(&[0, 1]));
    assert!(!s.holds_int(&[1, 1]));
    assert_eq!(s.box_points(1).len(), 9);
    let m: BTreeMap<Dim, Q> = pt(&[(0, q(-1))]);
    assert!(m[&Dim(0)].is_negative());
}
