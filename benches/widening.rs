//! Benchmarks of the widening (termination beyond EUREKA): the widening operator `Conj::widen` (standard,
//! with the H79 refinement and thresholds) and the convex hull on seeded pairs of
//! conjunctions, and a whole tabulation with widening of loop and recursion programs whose
//! exact tabulation does not terminate (a loop to 10^6, a counting loop to a symbolic n,
//! a recursive sum over a symbolic argument).

use std::hint::black_box;
use std::sync::Arc;
use std::time::Duration;

use criterion::{criterion_group, criterion_main, Criterion};
use lpmc::domain::DlcDomain;
use lpmc::engine::{tabulate, Budget, StopReason};
use lpmc::limits::Deadline;
use lpmc::linear::{threshold_family, Conj, Constraint, Dim, LinExpr};
use lpmc::SourceFile;
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

const SEED: u64 = 0x00de_1a7e;
const POOL: usize = 16;

fn x(d: u32) -> LinExpr {
    LinExpr::var(Dim(d))
}

/// Two successive loop iterates in `n` dimensions: `old` has counters in a box and
/// relations between neighbours, `new` shifts every counter by a random step.
fn iterates(rng: &mut StdRng, n: u32) -> (Conj, Conj) {
    let mut old = Conj::top();
    let mut new = Conj::top();
    for d in 0..n {
        let lo = rng.gen_range(-3..=3);
        let step = rng.gen_range(0..=2);
        old.add(&Constraint::ge(&x(d), &LinExpr::int(lo)));
        old.add(&Constraint::le(&x(d), &LinExpr::int(lo + 2)));
        new.add(&Constraint::ge(&x(d), &LinExpr::int(lo + step)));
        new.add(&Constraint::le(&x(d), &LinExpr::int(lo + 2 + step)));
        if d > 0 {
            let k = rng.gen_range(-2..=2);
            old.add(&Constraint::le(&(x(d) - x(d - 1)), &LinExpr::int(k + 4)));
            new.add(&Constraint::le(&(x(d) - x(d - 1)), &LinExpr::int(k + 4)));
        }
    }
    (old, new)
}

fn operators(c: &mut Criterion) {
    let mut rng = StdRng::seed_from_u64(SEED);
    for n in [2u32, 4, 6] {
        let pool: Vec<(Conj, Conj)> = (0..POOL).map(|_| iterates(&mut rng, n)).collect();
        let ts: Vec<Constraint> = (0..n)
            .flat_map(|d| threshold_family(&Constraint::le(&x(d), &LinExpr::int(100))))
            .collect();
        let mut i = 0;
        c.bench_function(&format!("widen_h79_thresholds_{n}d"), |b| {
            b.iter(|| {
                let (o, w) = &pool[i % POOL];
                i += 1;
                black_box(o.widen(w, &ts, true, &Deadline::none()))
            })
        });
        let mut i = 0;
        c.bench_function(&format!("widen_standard_{n}d"), |b| {
            b.iter(|| {
                let (o, w) = &pool[i % POOL];
                i += 1;
                black_box(o.widen(w, &[], false, &Deadline::none()))
            })
        });
        let mut i = 0;
        c.bench_function(&format!("hull_{n}d"), |b| {
            b.iter(|| {
                let (o, w) = &pool[i % POOL];
                i += 1;
                black_box(o.hull_within(w, &Deadline::none()))
            })
        });
    }
}

const PROGRAMS: &[(&str, &str)] = &[
    (
        "loop_to_1e6",
        "void main() { int i, s; i = 0; s = 0; while (i < 1000000) { i = i + 1; s = s + 2; } \
         if (i != 1000000 || s != 2 * i) ERROR: ; }",
    ),
    (
        "count_to_symbolic_n",
        "void main() { int i, j, n; n = u; i = 0; j = 0; while (i < n) { i = i + 1; j = j + 1; } \
         if (n >= 0 && i != j) ERROR: ; }",
    ),
    (
        "recursive_sum",
        "int sum(int n) { if (n <= 0) return 0; return n + sum(n - 1); } \
         void main() { int n, s; n = u; s = sum(n); if (n >= 1 && s < n) ERROR: ; }",
    ),
];

fn tabulation(c: &mut Criterion) {
    for (name, src) in PROGRAMS {
        let loaded = lpmc::load(SourceFile::new("bench.lp", *src)).expect("the program loads");
        let cfg = loaded.cfg().clone();
        c.bench_function(&format!("tabulate_widening_{name}"), |b| {
            b.iter(|| {
                let mut dom = DlcDomain::new(Arc::new(lpmc::smt::Cvc5Factory), Deadline::none());
                let t = tabulate(&cfg, &mut dom, Budget::default());
                assert_eq!(t.stop, StopReason::Converged, "{name}");
                black_box(t.stats.facts)
            })
        });
    }
}

criterion_group! {
    name = benches;
    config = Criterion::default()
        .sample_size(20)
        .warm_up_time(Duration::from_millis(300))
        .measurement_time(Duration::from_secs(2));
    targets = operators, tabulation
}
criterion_main!(benches);
