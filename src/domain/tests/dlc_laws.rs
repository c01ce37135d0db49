//! Laws of disjunctive linear constraints (`crate::domain::dlc`): the lattice laws of
//! [`Dlc`] under [`Entailment`], entailment against brute force over the integer points of
//! a small box (sound direction) and against an independent rational decision
//! (completeness: rational inclusion must be found), and `int_presolve` followed by
//! Fourier–Motzkin against brute-force integer projection. Random systems are small: 1–3
//! disjuncts, each a conjunction of at most 4 constraints over at most 3 dimensions,
//! coefficients in −5..5, constants in −10..10.

use std::cell::RefCell;
use std::sync::OnceLock;

use crate::domain::dlc::int_presolve;
use crate::domain::{Dlc, Entailment, Lattice};
use crate::linear::{Conj, Constraint, Dim, Domain, LinExpr, Rel, Q};
use num_traits::ToPrimitive;
use proptest::prelude::*;

const NDIMS: usize = 3;
/// The brute-force box is `[-BOX, BOX]^3`.
const BOX: i64 = 6;

// ---------------------------------------------------------------- raw integer systems

/// `Σ coeffs[i]·x_i + constant REL 0` with integer data: the ground truth for brute force.
#[derive(Clone, Debug)]
struct Raw {
    coeffs: [i64; NDIMS],
    constant: i64,
    rel: Rel,
}

impl Raw {
    fn holds(&self, p: &[i64; NDIMS]) -> bool {
        let v: i64 = self.constant + (0..NDIMS).map(|i| self.coeffs[i] * p[i]).sum::<i64>();
        match self.rel {
            Rel::Le => v <= 0,
            Rel::Lt => v < 0,
            Rel::Eq => v == 0,
        }
    }

    fn constraint(&self) -> Constraint {
        let e = LinExpr::from_parts(
            (0..NDIMS)
                .filter(|i| self.coeffs[*i] != 0)
                .map(|i| (Dim(i as u32), q(self.coeffs[i]))),
            q(self.constant),
        );
        Constraint::new(e, self.rel)
    }

    /// A constraint with integer data back as a `Raw` (canonical Int rows always are).
    fn from_constraint(c: &Constraint) -> Raw {
        let int = |x: &Q| {
            assert!(x.is_integer(), "non-integer datum {x} in {c}");
            x.to_integer().to_i64().expect("small")
        };
        let mut coeffs = [0; NDIMS];
        for (d, a) in c.expr.coeffs() {
            assert!((d.0 as usize) < NDIMS, "unexpected dimension {d} in {c}");
            coeffs[d.0 as usize] = int(a);
        }
        Raw {
            coeffs,
            constant: int(c.expr.constant_term()),
            rel: c.rel,
        }
    }
}

fn q(n: i64) -> Q {
    Q::from_integer(n.into())
}

fn conj_of(raws: &[Raw]) -> Conj {
    let cs: Vec<Constraint> = raws.iter().map(Raw::constraint).collect();
    Conj::from_constraints(&cs)
}

fn dlc_of(raw: &[Vec<Raw>]) -> Dlc {
    Dlc::from_conjs(raw.iter().map(|c| conj_of(c)))
}

fn box_points() -> &'static [[i64; NDIMS]] {
    static PTS: OnceLock<Vec<[i64; NDIMS]>> = OnceLock::new();
    PTS.get_or_init(|| {
        let mut v = Vec::new();
        for a in -BOX..=BOX {
            for b in -BOX..=BOX {
                for c in -BOX..=BOX {
                    v.push([a, b, c]);
                }
            }
        }
        v
    })
}

/// Membership of every box point in the DLC, read off its own (canonical) disjuncts.
fn box_set(d: &Dlc) -> Vec<bool> {
    let disj: Vec<Vec<Raw>> = d
        .disjuncts()
        .iter()
        .map(|c| c.constraints().iter().map(Raw::from_constraint).collect())
        .collect();
    box_points()
        .iter()
        .map(|p| disj.iter().any(|c| c.iter().all(|k| k.holds(p))))
        .collect()
}

/// Membership of every box point in the raw disjunction (the ground truth).
fn raw_box_set(raw: &[Vec<Raw>]) -> Vec<bool> {
    box_points()
        .iter()
        .map(|p| raw.iter().any(|c| c.iter().all(|k| k.holds(p))))
        .collect()
}

/// A box point in `a` but not in `b`, if any.
fn box_gap(a: &[bool], b: &[bool]) -> Option<[i64; NDIMS]> {
    (0..a.len())
        .find(|i| a[*i] && !b[*i])
        .map(|i| box_points()[i])
}

/// Whether some *rational* point lies in `d1` but in no disjunct of `d2`, every disjunct
/// read over the rationals from its canonical constraints. Decided independently of
/// `Entailment`: for each disjunct of `d1`, choose one negated constraint per disjunct of
/// `d2` and test the conjunction with the exact rational simplex.
fn rational_gap(d1: &Dlc, d2: &Dlc) -> bool {
    let rest: Vec<Vec<Constraint>> = d2.disjuncts().iter().map(|g| g.constraints()).collect();
    d1.disjuncts()
        .iter()
        .any(|f| gap_from(f.constraints(), &rest))
}

fn gap_from(base: Vec<Constraint>, rest: &[Vec<Constraint>]) -> bool {
    if Conj::from_constraints_in(Domain::Rat, &base).is_empty() {
        return false;
    }
    let Some((g, tail)) = rest.split_first() else {
        return true;
    };
    g.iter().any(|k| {
        k.negate().into_iter().any(|n| {
            let mut b = base.clone();
            b.push(n);
            gap_from(b, tail)
        })
    })
}

thread_local! {
    static CTX: RefCell<Entailment> = RefCell::new(Entailment::new(crate::smt::cvc5_solvers(), crate::limits::Deadline::none()));
    static SMT_CTX: RefCell<Entailment> = RefCell::new(smt_only());
}

/// An entailment context that never splits: every check the cheap test leaves goes to
/// the solver.
fn smt_only() -> Entailment {
    let mut e = Entailment::new(crate::smt::cvc5_solvers(), crate::limits::Deadline::none());
    e.split_pieces = 0;
    e
}

/// Runs `f` with this thread's shared entailment context (one cvc5 instance for all cases,
/// which also checks that its push/pop leaves no assertion behind).
fn with_ctx<R>(f: impl FnOnce(&mut Entailment) -> R) -> R {
    CTX.with(|c| f(&mut c.borrow_mut()))
}

fn leq(a: &Dlc, b: &Dlc) -> bool {
    with_ctx(|c| a.leq(b, c))
}

/// [`leq`] decided without the split, by the solver.
fn leq_smt(a: &Dlc, b: &Dlc) -> bool {
    SMT_CTX.with(|c| a.leq(b, &mut c.borrow_mut()))
}

// ---------------------------------------------------------------- strategies

fn raw_with(eq_weight: u32) -> impl Strategy<Value = Raw> {
    (
        prop::array::uniform3(-5i64..=5),
        -10i64..=10,
        prop_oneof![
            3 => Just(Rel::Le),
            2 => Just(Rel::Lt),
            eq_weight => Just(Rel::Eq),
        ],
    )
        .prop_map(|(coeffs, constant, rel)| Raw {
            coeffs,
            constant,
            rel,
        })
}

fn raw_conj() -> impl Strategy<Value = Vec<Raw>> {
    prop::collection::vec(raw_with(1), 0..=4)
}

fn raw_dlc() -> impl Strategy<Value = Vec<Vec<Raw>>> {
    prop::collection::vec(raw_conj(), 1..=3)
}

/// A weakening of `raw`: every disjunct keeps a subset of its constraints (so it contains
/// the original over the rationals), plus extra disjuncts.
fn weaken(raw: Vec<Vec<Raw>>) -> impl Strategy<Value = Vec<Vec<Raw>>> {
    let n = raw.len();
    (
        prop::collection::vec(prop::collection::vec(any::<bool>(), 4), n),
        prop::collection::vec(raw_conj(), 0..=1),
    )
        .prop_map(move |(keep, extra)| {
            let mut out: Vec<Vec<Raw>> = raw
                .iter()
                .zip(&keep)
                .map(|(c, k)| {
                    c.iter()
                        .zip(k)
                        .filter(|(_, keep)| **keep)
                        .map(|(r, _)| r.clone())
                        .collect()
                })
                .collect();
            out.extend(extra);
            out
        })
}

type RawDlc = Vec<Vec<Raw>>;

/// A chain x, y, z with y a weakening of x and z a weakening of y.
fn chain() -> impl Strategy<Value = (RawDlc, RawDlc, RawDlc)> {
    raw_dlc()
        .prop_flat_map(|x| (Just(x.clone()), weaken(x)))
        .prop_flat_map(|(x, y)| (Just(x), Just(y.clone()), weaken(y)))
}

fn cfg() -> ProptestConfig {
    ProptestConfig::with_cases(256)
}

// ---------------------------------------------------------------- lattice laws

proptest! {
    #![proptest_config(cfg())]

    /// The DLC denotes the same integer points as its raw constraints (tightening and the
    /// dropping of empty disjuncts lose nothing), and `is_empty` agrees with having no
    /// disjunct.
    #[test]
    fn dlc_denotes_its_constraints(raw in raw_dlc()) {
        let d = dlc_of(&raw);
        prop_assert_eq!(box_set(&d), raw_box_set(&raw));
        prop_assert_eq!(d.is_empty(), d.disjuncts().is_empty());
    }

    /// `bottom ⊑ x`, `x ⊑ x`, and `x ⊑ bottom` only for the empty DLC.
    #[test]
    fn bottom_and_reflexivity(raw in raw_dlc()) {
        let x = dlc_of(&raw);
        prop_assert!(leq(&Dlc::bottom(), &x));
        prop_assert!(leq(&x, &x));
        prop_assert_eq!(leq(&x, &Dlc::bottom()), x.is_empty());
    }

    /// After `changed = x.join(y)`: `old_x ⊑ x`, `y ⊑ x`, `changed == !(y ⊑ old_x)`, and
    /// the join adds no integer point outside `old_x ∪ y`.
    #[test]
    fn join_is_an_upper_bound(rx in raw_dlc(), ry in raw_dlc()) {
        let old = dlc_of(&rx);
        let y = dlc_of(&ry);
        let expect_change = !leq(&y, &old);
        let mut x = old.clone();
        let changed = with_ctx(|c| x.join(&y, c));
        prop_assert_eq!(changed, expect_change, "old {:?} y {:?} new {:?}", old, y, x);
        if !changed {
            prop_assert_eq!(&x, &old);
        }
        prop_assert!(leq(&old, &x), "old {:?} not below {:?}", old, x);
        prop_assert!(leq(&y, &x), "y {:?} not below {:?}", y, x);
        let union: Vec<bool> = box_set(&old)
            .iter()
            .zip(box_set(&y))
            .map(|(a, b)| *a || b)
            .collect();
        prop_assert_eq!(box_set(&x), union);
        // Joining again changes nothing.
        prop_assert!(!with_ctx(|c| x.join(&y, c)));
        prop_assert!(!with_ctx(|c| x.join(&old, c)));
    }

    /// `x ⊓ y` is a lower bound of both and denotes the intersection.
    #[test]
    fn meet_is_a_lower_bound(rx in raw_dlc(), ry in raw_dlc()) {
        let x = dlc_of(&rx);
        let y = dlc_of(&ry);
        let m = x.meet(&y);
        prop_assert!(leq(&m, &x));
        prop_assert!(leq(&m, &y));
        let inter: Vec<bool> = box_set(&x)
            .iter()
            .zip(box_set(&y))
            .map(|(a, b)| *a && b)
            .collect();
        prop_assert_eq!(box_set(&m), inter);
    }

    /// Transitivity on chains built so that it applies (each step a weakening, hence a
    /// rational inclusion, which `leq` must find).
    #[test]
    fn transitivity_on_chains((rx, ry, rz) in chain()) {
        let (x, y, z) = (dlc_of(&rx), dlc_of(&ry), dlc_of(&rz));
        prop_assert!(leq(&x, &y), "weakening not entailed: {:?} {:?}", x, y);
        prop_assert!(leq(&y, &z), "weakening not entailed: {:?} {:?}", y, z);
        prop_assert!(leq(&x, &z));
    }

    /// Transitivity on unrelated triples, where it applies.
    #[test]
    fn transitivity_where_it_applies(rx in raw_dlc(), ry in raw_dlc(), rz in raw_dlc()) {
        let (x, y, z) = (dlc_of(&rx), dlc_of(&ry), dlc_of(&rz));
        if leq(&x, &y) && leq(&y, &z) {
            prop_assert!(leq(&x, &z));
        }
    }
}

// ---------------------------------------------------------------- entailment vs brute force

proptest! {
    #![proptest_config(cfg())]

    /// Sound direction, strictly: if `leq` says `D1 ⊑ D2` then every integer point of the
    /// box in D1 is in D2 (equivalently: a box counterexample forces `leq` to be false).
    /// Completeness: `leq` is false only if some rational point of D1 is outside D2, i.e.
    /// every rational inclusion is found.
    /// Both routes of a check that the cheap test leaves are held to this: the split and
    /// the solver.
    #[test]
    fn entailment_vs_brute_force(r1 in raw_dlc(), r2 in raw_dlc()) {
        let d1 = dlc_of(&r1);
        let d2 = dlc_of(&r2);
        let gap = box_gap(&box_set(&d1), &box_set(&d2));
        for l in [leq(&d1, &d2), leq_smt(&d1, &d2)] {
            if l {
                prop_assert!(gap.is_none(), "leq true but {:?} is in {:?} and not in {:?}", gap, d1, d2);
            } else {
                prop_assert!(rational_gap(&d1, &d2), "leq false but no rational point of {:?} is outside {:?}", d1, d2);
            }
            if gap.is_some() {
                prop_assert!(!l);
            }
        }
    }

    /// The same on pairs where D2 is a weakening of D1 plus noise, so that inclusion often
    /// holds and the SMT path (several relevant disjuncts) is exercised.
    #[test]
    fn entailment_vs_brute_force_related((r1, r2, _) in chain(), r3 in raw_conj()) {
        // D1 gets an extra disjunct so that it is not always below D2.
        let mut r1 = r1;
        r1.push(r3);
        let d1 = dlc_of(&r1);
        let d2 = dlc_of(&r2);
        let gap = box_gap(&box_set(&d1), &box_set(&d2));
        for l in [leq(&d1, &d2), leq_smt(&d1, &d2)] {
            if l {
                prop_assert!(gap.is_none(), "leq true but {:?} is in {:?} and not in {:?}", gap, d1, d2);
            } else {
                prop_assert!(rational_gap(&d1, &d2), "leq false but no rational point of {:?} is outside {:?}", d1, d2);
            }
        }
    }
}

// ---------------------------------------------------------------- int_presolve + FM

fn presolve_case() -> impl Strategy<Value = (Vec<Raw>, Vec<usize>)> {
    (
        prop::collection::vec(raw_with(4), 1..=4),
        prop::sample::subsequence(vec![0usize, 1, 2], 1..=3),
    )
}

/// Search range for the projected dimensions' witnesses.
const WIT: i64 = 15;

proptest! {
    #![proptest_config(cfg())]

    /// `int_presolve(c, dims)` then `project_out(dims)`: never loses an integer point of
    /// `∃dims. c` (brute force: a kept point with an integer witness in the search range
    /// must be in the result), mentions no projected dimension, and is contained in the
    /// rational projection of `c`.
    #[test]
    fn presolve_then_project_keeps_integer_points((raws, proj) in presolve_case()) {
        let c = conj_of(&raws);
        let dims: Vec<Dim> = proj.iter().map(|i| Dim(*i as u32)).collect();
        let pre = int_presolve(&c, &dims);
        let r = pre.project_out(&dims);
        prop_assert!(r.dims().iter().all(|d| !dims.contains(d)), "{} mentions projected dims", r);

        let result: Vec<Raw> = r.constraints().iter().map(Raw::from_constraint).collect();
        let kept: Vec<usize> = (0..NDIMS).filter(|i| !proj.contains(i)).collect();
        let mut kept_vals = vec![[0i64; NDIMS]];
        for &k in &kept {
            kept_vals = kept_vals
                .into_iter()
                .flat_map(|p| (-BOX..=BOX).map(move |v| { let mut p = p; p[k] = v; p }))
                .collect();
        }
        for p in kept_vals {
            let mut cands = vec![p];
            for &k in &proj {
                cands = cands
                    .into_iter()
                    .flat_map(|p| (-WIT..=WIT).map(move |v| { let mut p = p; p[k] = v; p }))
                    .collect();
            }
            if let Some(w) = cands.iter().find(|w| raws.iter().all(|k| k.holds(w))) {
                prop_assert!(
                    result.iter().all(|k| k.holds(&p)),
                    "{:?} (witness {:?}) lost: c = {}, presolved = {}, result = {}", p, w, c, pre, r
                );
            }
        }

        // Contained in the rational projection of the raw system.
        let raw_cs: Vec<Constraint> = raws.iter().map(Raw::constraint).collect();
        let rat = Conj::from_constraints_in(Domain::Rat, &raw_cs).project_out(&dims);
        let r_rat = Conj::from_constraints_in(Domain::Rat, &r.constraints());
        prop_assert!(r_rat.entails(&rat), "{} not inside rational projection {}", r, rat);
    }
}

// ---------------------------------------------------------------- hand examples

fn x(d: u32) -> LinExpr {
    LinExpr::var(Dim(d))
}

fn k(n: i64) -> LinExpr {
    LinExpr::int(n)
}

#[test]
fn presolve_keeps_parity() {
    // x = 0 ∧ x - 2q = 1: no integer q, although the rational projection is x = 0.
    let c = Conj::from_constraints(&[
        Constraint::eq(&x(0), &k(0)),
        Constraint::eq(&(&x(0) - &(&x(1) * &q(2))), &k(1)),
    ]);
    let p = int_presolve(&c, &[Dim(1)]).project_out(&[Dim(1)]);
    assert!(p.is_empty(), "{p}");
    // Without presolve the rational projection keeps x = 0.
    assert!(!c.project_out(&[Dim(1)]).is_empty());
}

#[test]
fn presolve_even_positive() {
    // ∃u. y = 2u ∧ y > 0 over the integers: y >= 2 (the paper's §4 guard).
    let c = Conj::from_constraints(&[
        Constraint::eq(&x(0), &(&x(1) * &q(2))),
        Constraint::gt(&x(0), &k(0)),
    ]);
    let p = int_presolve(&c, &[Dim(1)]).project_out(&[Dim(1)]);
    let expect = Conj::from_constraints(&[Constraint::ge(&x(0), &k(2))]);
    assert!(p.entails(&expect) && expect.entails(&p), "{p}");
}

/// A cover by two disjuncts, decided by the split and, without it, by the solver.
#[test]
fn split_and_smt_paths_decide_cover_by_two_disjuncts() {
    for by_smt in [false, true] {
        let mut ctx = if by_smt {
            smt_only()
        } else {
            Entailment::new(crate::smt::cvc5_solvers(), crate::limits::Deadline::none())
        };
        cover_by_two_disjuncts(&mut ctx);
        assert_eq!(ctx.smt_unknown, 0);
        if by_smt {
            assert_eq!((ctx.split, ctx.smt_calls), (0, 6));
        } else {
            assert_eq!((ctx.split, ctx.smt_calls), (6, 0));
        }
    }
}

fn cover_by_two_disjuncts(ctx: &mut Entailment) {
    // 0 <= x <= 10 ⊑ (x <= 5) ∨ (x >= 5): no single disjunct covers it.
    let d1 = Dlc::from_conjs([Conj::from_constraints(&[
        Constraint::ge(&x(0), &k(0)),
        Constraint::le(&x(0), &k(10)),
    ])]);
    let d2 = Dlc::from_conjs([
        Conj::from_constraints(&[Constraint::le(&x(0), &k(5))]),
        Conj::from_constraints(&[Constraint::ge(&x(0), &k(5))]),
    ]);
    assert!(d1.leq(&d2, ctx));
    // (x <= 4) ∨ (x >= 6) misses x = 5.
    let d3 = Dlc::from_conjs([
        Conj::from_constraints(&[Constraint::le(&x(0), &k(4))]),
        Conj::from_constraints(&[Constraint::ge(&x(0), &k(6))]),
    ]);
    assert!(!d1.leq(&d3, ctx));
    // With y: (x <= 5) ∨ (x >= 5 ∧ y <= 5) ∨ (x >= 5 ∧ y >= 5) covers 0 <= x <= 10, and
    // no two of them do.
    let ge = |d: u32, n: i64| Constraint::ge(&x(d), &k(n));
    let le = |d: u32, n: i64| Constraint::le(&x(d), &k(n));
    let d4 = Dlc::from_conjs([
        Conj::from_constraints(&[le(0, 5)]),
        Conj::from_constraints(&[ge(0, 5), le(1, 5)]),
        Conj::from_constraints(&[ge(0, 5), ge(1, 5)]),
    ]);
    let without = |i: usize| {
        Dlc::from_conjs(
            d4.disjuncts()
                .iter()
                .enumerate()
                .filter(|(j, _)| *j != i)
                .map(|(_, g)| g.clone()),
        )
    };
    for i in 0..3 {
        assert!(!d1.leq(&without(i), ctx), "without disjunct {i}");
    }
    assert!(d1.leq(&d4, ctx));
}

#[test]
fn join_subsumes_old_disjuncts() {
    let mut ctx = Entailment::new(crate::smt::cvc5_solvers(), crate::limits::Deadline::none());
    let small = Conj::from_constraints(&[Constraint::eq(&x(0), &k(1))]);
    let big = Conj::from_constraints(&[Constraint::ge(&x(0), &k(0))]);
    let mut d = Dlc::from_conjs([small.clone()]);
    assert!(d.join(&Dlc::from_conjs([big.clone()]), &mut ctx));
    assert_eq!(d.disjuncts(), std::slice::from_ref(&big));
    assert!(!d.join(&Dlc::from_conjs([small]), &mut ctx));
    assert_eq!(d.disjuncts(), &[big]);
}

/// The related-pairs generator really reaches the split (several relevant disjuncts), so
/// the properties above test it (and, in their solver-only context, the SMT path) and not
/// only the cheap per-disjunct test.
#[test]
fn split_path_is_exercised_by_the_generators() {
    use proptest::strategy::ValueTree;
    use proptest::test_runner::TestRunner;
    let mut runner = TestRunner::deterministic();
    let strat = (chain(), raw_conj());
    let mut ctx = Entailment::new(crate::smt::cvc5_solvers(), crate::limits::Deadline::none());
    for _ in 0..256 {
        let ((r1, r2, _), r3) = strat.new_tree(&mut runner).unwrap().current();
        let mut r1 = r1;
        r1.push(r3);
        dlc_of(&r1).leq(&dlc_of(&r2), &mut ctx);
    }
    let counts = format!(
        "checks {} cheap {} split {} smt {} unknown {}",
        ctx.checks, ctx.cheap, ctx.split, ctx.smt_calls, ctx.smt_unknown
    );
    assert!(ctx.split > 0, "{counts}");
    assert_eq!(ctx.smt_unknown, 0, "{counts}");
}

/// A disjunct with rational but no integer points: `x + y = 1 ∧ x - y = 0` is the single
/// point (1/2, 1/2). The cheap test decides `entails` with integer-tightened negations, so
/// it may find this disjunct below `x >= 1` although (1/2, 1/2) is not. Harmless over the
/// integers (the disjunct has no integer point).
#[test]
fn cheap_test_reasons_over_the_integers() {
    let mut ctx = Entailment::new(crate::smt::cvc5_solvers(), crate::limits::Deadline::none());
    let f = Conj::from_constraints(&[
        Constraint::eq(&(&x(0) + &x(1)), &k(1)),
        Constraint::eq(&(&x(0) - &x(1)), &k(0)),
    ]);
    assert!(!f.is_empty(), "rationally non-empty");
    let g = Conj::from_constraints(&[Constraint::ge(&x(0), &k(1))]);
    let leq = ctx.conj_leq(&f, &[&g]);
    let d1 = Dlc::from_conjs([f]);
    let d2 = Dlc::from_conjs([g]);
    assert!(rational_gap(&d1, &d2));
    // No integer point of d1 at all, so either answer is sound over the integers.
    assert!(box_set(&d1).iter().all(|b| !b));
    // Either answer is sound here; the point filter (a rational point of f outside g)
    // now answers `false` before the integer-tightened test runs. What must hold: the
    // answer is stable.
    assert_eq!(leq, ctx.conj_leq(&d1.disjuncts()[0], &[&d2.disjuncts()[0]]));
}
