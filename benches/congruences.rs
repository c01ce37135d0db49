//! The cost of the congruence component: whole tabulations (with widening) of programs
//! without `%` or `/`, with the component off (what lpmc runs on them: it turns the
//! component on only where a residue is tested, or once refinement has nothing else to
//! try) and forced on (each disjunct then carries congruences through every transfer,
//! join and entailment), and of a parity loop, whose proof needs the component.

use std::hint::black_box;
use std::sync::Arc;
use std::time::Duration;

use criterion::{criterion_group, criterion_main, Criterion};
use lpmc::domain::DlcDomain;
use lpmc::engine::{tabulate, Budget, StopReason};
use lpmc::limits::Deadline;
use lpmc::SourceFile;

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
    (
        "nested_loops",
        "void main() { int i, j, n, c; n = u; i = 0; c = 0; \
         while (i < n) { j = 0; while (j < i) { j = j + 1; c = c + 1; } i = i + 1; } \
         if (n >= 0 && c < 0) ERROR: ; }",
    ),
];

const PARITY: &str = "void main() { int i, n; n = u; i = 0; while (i < n) { i = i + 2; } \
                      if (i % 2 != 0) ERROR: ; }";

fn run(cfg: &lpmc::cfg::Cfg, congruences: bool, name: &str) -> u64 {
    let mut dom = DlcDomain::new(Arc::new(lpmc::smt::Cvc5Factory), Deadline::none());
    dom.congruences = congruences;
    let t = tabulate(cfg, &mut dom, Budget::default());
    assert!(
        matches!(t.stop, StopReason::Converged | StopReason::ErrorReached(_)),
        "{name}: {:?}",
        t.stop
    );
    t.stats.facts
}

fn tabulation(c: &mut Criterion) {
    for (name, src) in PROGRAMS {
        let loaded = lpmc::load(SourceFile::new("bench.lp", *src)).expect("the program loads");
        let cfg = loaded.cfg().clone();
        for on in [false, true] {
            let tag = if on { "on" } else { "off" };
            c.bench_function(&format!("congruences_{tag}_{name}"), |b| {
                b.iter(|| black_box(run(&cfg, on, name)))
            });
        }
    }
    let loaded = lpmc::load(SourceFile::new("bench.lp", PARITY)).expect("the program loads");
    let cfg = loaded.cfg().clone();
    c.bench_function("congruences_on_parity_loop", |b| {
        b.iter(|| black_box(run(&cfg, true, "parity")))
    });
}

criterion_group! {
    name = benches;
    config = Criterion::default()
        .sample_size(20)
        .warm_up_time(Duration::from_millis(300))
        .measurement_time(Duration::from_secs(2));
    targets = tabulation
}
criterion_main!(benches);
