//! Micro-benchmarks of the linear layer and of DLC entailment on seeded random systems:
//! Fourier–Motzkin `project_out`, `Conj::is_empty`, `Conj::entails`, and `Dlc::leq`
//! through `Entailment` on its cheap path (one disjunct covers) and its SMT path (only a
//! union covers, decided by cvc5 in QF_LRA).
//!
//! Every system is generated from a fixed seed, so runs are comparable. Each benchmark
//! cycles through a pool of systems; the figure is the time per operation.

use std::hint::black_box;
use std::time::Duration;

use criterion::{criterion_group, criterion_main, Criterion};
use lpmc::domain::{Dlc, Entailment, Lattice};
use lpmc::linear::{Conj, Constraint, Dim, LinExpr, Q};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

const SEED: u64 = 0x5eed_11c0;
const POOL: usize = 16;

fn q(n: i64) -> Q {
    Q::from_integer(n.into())
}

/// A random constraint `a·x + c <= 0` over `nvars` dims (each coefficient non-zero with
/// probability 1/2, in −5..5), satisfied with slack in `slack` at `p` if given.
fn constraint(rng: &mut StdRng, nvars: usize, p: Option<&[i64]>, slack: (i64, i64)) -> Constraint {
    loop {
        let coeffs: Vec<i64> = (0..nvars)
            .map(|_| {
                if rng.gen_bool(0.5) {
                    rng.gen_range(-5..=5)
                } else {
                    0
                }
            })
            .collect();
        if coeffs.iter().all(|a| *a == 0) {
            continue;
        }
        let constant = match p {
            Some(p) => {
                let ap: i64 = coeffs.iter().zip(p).map(|(a, x)| a * x).sum();
                -ap - rng.gen_range(slack.0..=slack.1)
            }
            None => rng.gen_range(-20..=20),
        };
        let e = LinExpr::from_parts(
            coeffs
                .iter()
                .enumerate()
                .filter(|(_, a)| **a != 0)
                .map(|(i, a)| (Dim(i as u32), q(*a))),
            q(constant),
        );
        return Constraint::le(&e, &LinExpr::zero());
    }
}

/// A feasible system: `m` constraints around a random integer point.
fn feasible(rng: &mut StdRng, nvars: usize, m: usize) -> Conj {
    let p: Vec<i64> = (0..nvars).map(|_| rng.gen_range(-10..=10)).collect();
    let cs: Vec<Constraint> = (0..m)
        .map(|_| constraint(rng, nvars, Some(&p), (0, 10)))
        .collect();
    Conj::from_constraints(&cs)
}

/// An arbitrary system (feasible or not).
fn arbitrary(rng: &mut StdRng, nvars: usize, m: usize) -> Conj {
    let cs: Vec<Constraint> = (0..m)
        .map(|_| constraint(rng, nvars, None, (0, 0)))
        .collect();
    Conj::from_constraints(&cs)
}

fn dims(n: u32) -> Vec<Dim> {
    (0..n).map(Dim).collect()
}

fn cycle<'a, T>(pool: &'a [T]) -> impl FnMut() -> &'a T + 'a {
    let mut i = 0;
    move || {
        i = (i + 1) % pool.len();
        &pool[i]
    }
}

fn bench_fm(c: &mut Criterion) {
    let mut rng = StdRng::seed_from_u64(SEED);
    let mut g = c.benchmark_group("fm_project_out");
    for (nvars, m, elim) in [(8usize, 12usize, 4u32), (6, 8, 3)] {
        let pool: Vec<Conj> = (0..POOL).map(|_| feasible(&mut rng, nvars, m)).collect();
        let ds = dims(elim);
        let mut next = cycle(&pool);
        g.bench_function(format!("{nvars}v_{m}c_elim{elim}"), |b| {
            b.iter(|| black_box(next().project_out(black_box(&ds))))
        });
    }
    g.finish();
}

fn bench_is_empty(c: &mut Criterion) {
    let mut rng = StdRng::seed_from_u64(SEED + 1);
    let mut g = c.benchmark_group("conj_is_empty");
    let feas: Vec<Conj> = (0..POOL).map(|_| feasible(&mut rng, 8, 12)).collect();
    let arb: Vec<Conj> = (0..POOL).map(|_| arbitrary(&mut rng, 8, 12)).collect();
    let n_empty = arb.iter().filter(|c| c.is_empty()).count();
    eprintln!("conj_is_empty/arbitrary: {n_empty} of {POOL} systems are empty");
    let mut next = cycle(&feas);
    g.bench_function("8v_12c_feasible", |b| {
        b.iter(|| black_box(next().is_empty()))
    });
    let mut next = cycle(&arb);
    g.bench_function("8v_12c_arbitrary", |b| {
        b.iter(|| black_box(next().is_empty()))
    });
    g.finish();
}

/// `a` with every other constraint dropped: entailed by `a`.
fn weakening(a: &Conj) -> Conj {
    let cs: Vec<Constraint> = a.constraints().into_iter().step_by(2).collect();
    Conj::from_constraints(&cs)
}

fn bench_entails(c: &mut Criterion) {
    let mut rng = StdRng::seed_from_u64(SEED + 2);
    let mut g = c.benchmark_group("conj_entails");
    let pairs_true: Vec<(Conj, Conj)> = (0..POOL)
        .map(|_| {
            let a = feasible(&mut rng, 8, 12);
            let w = weakening(&a);
            (a, w)
        })
        .collect();
    assert!(pairs_true.iter().all(|(a, b)| a.entails(b)));
    let pairs_false: Vec<(Conj, Conj)> = (0..POOL)
        .map(|_| (feasible(&mut rng, 8, 12), feasible(&mut rng, 8, 6)))
        .collect();
    let n_true = pairs_false.iter().filter(|(a, b)| a.entails(b)).count();
    eprintln!("conj_entails/unrelated: {n_true} of {POOL} pairs entailed");
    let mut next = cycle(&pairs_true);
    g.bench_function("8v_12c_weakening_true", |b| {
        b.iter(|| {
            let (x, y) = next();
            black_box(x.entails(y))
        })
    });
    let mut next = cycle(&pairs_false);
    g.bench_function("8v_12c_unrelated", |b| {
        b.iter(|| {
            let (x, y) = next();
            black_box(x.entails(y))
        })
    });
    g.finish();
}

/// DLC pairs over 4 dims with 3 disjuncts each. Cheap: D2's disjuncts are weakenings of
/// D1's (each D1 disjunct is inside one D2 disjunct). SMT: D1's disjuncts straddle the
/// hyperplane `x0 + x1 = 0` and D2 = {B ∧ x0 + x1 <= 0, B ∧ x0 + x1 >= 0, noise}, with B a
/// box holding all of D1, so only the union of two disjuncts covers each D1 disjunct.
fn dlc_pairs(rng: &mut StdRng, smt: bool) -> (Dlc, Dlc) {
    const N: usize = 4;
    let x = |i: u32| LinExpr::var(Dim(i));
    let k = |n: i64| LinExpr::int(n);
    let mut d1 = Vec::new();
    for _ in 0..3 {
        // A point on x0 + x1 = 0, strictly inside every constraint (slack >= 6 keeps
        // p ± e0 inside too, so the disjunct crosses the hyperplane).
        let mut p: Vec<i64> = (0..N).map(|_| rng.gen_range(-5..=5)).collect();
        p[1] = -p[0];
        let mut cs: Vec<Constraint> = (0..5)
            .map(|_| constraint(rng, N, Some(&p), (6, 12)))
            .collect();
        for i in 0..N as u32 {
            cs.push(Constraint::ge(&x(i), &k(-30)));
            cs.push(Constraint::le(&x(i), &k(30)));
        }
        d1.push(Conj::from_constraints(&cs));
    }
    let d2 = if smt {
        let mut bx = Vec::new();
        for i in 0..N as u32 {
            bx.push(Constraint::ge(&x(i), &k(-30)));
            bx.push(Constraint::le(&x(i), &k(30)));
        }
        let s = &x(0) + &x(1);
        let mut lo = bx.clone();
        lo.push(Constraint::le(&s, &k(0)));
        let mut hi = bx;
        hi.push(Constraint::ge(&s, &k(0)));
        vec![
            Conj::from_constraints(&lo),
            Conj::from_constraints(&hi),
            arbitrary(rng, N, 3),
        ]
    } else {
        d1.iter().map(weakening).collect()
    };
    (Dlc::from_conjs(d1), Dlc::from_conjs(d2))
}

fn bench_dlc_leq(c: &mut Criterion) {
    let mut rng = StdRng::seed_from_u64(SEED + 3);
    let mut g = c.benchmark_group("dlc_leq");
    for smt in [false, true] {
        let pool: Vec<(Dlc, Dlc)> = (0..POOL).map(|_| dlc_pairs(&mut rng, smt)).collect();
        let mut ctx = Entailment::new(lpmc::smt::cvc5_solvers(), lpmc::limits::Deadline::none());
        for (a, b) in &pool {
            assert_eq!(a.disjuncts().len(), 3);
            assert!(a.leq(b, &mut ctx), "{a:?} not below {b:?}");
        }
        let calls = ctx.smt_calls;
        eprintln!(
            "dlc_leq/{}: {} checks, {} cheap, {} smt calls on the pool",
            if smt { "smt" } else { "cheap" },
            ctx.checks,
            ctx.cheap,
            calls
        );
        if smt {
            assert!(calls > 0, "the SMT path was not taken");
        } else {
            assert_eq!(calls, 0, "the cheap path went to SMT");
        }
        let mut next = cycle(&pool);
        g.bench_function(
            if smt {
                "3disj_smt_path"
            } else {
                "3disj_cheap_path"
            },
            |b| {
                b.iter(|| {
                    let (x, y) = next();
                    black_box(x.leq(y, &mut ctx))
                })
            },
        );
    }
    g.finish();
}

fn config() -> Criterion {
    Criterion::default()
        .sample_size(30)
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(2))
}

criterion_group! {
    name = benches;
    config = config();
    targets = bench_fm, bench_is_empty, bench_entails, bench_dlc_leq
}
criterion_main!(benches);
