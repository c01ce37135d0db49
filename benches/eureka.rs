//! Fourier–Motzkin projection and conjunction entailment on the conjunctions lpmc's
//! CEGAR engine produces on the EUREKA benchmark programs.
//!
//! The data, `benches/data/eureka_dlcs.txt`, was recorded by the `capture_dlcs` example
//! (`cargo run --release --features internals --example capture_dlcs --
//! benches/data/eureka_dlcs.txt 50 ../shared/benchmarks/eureka/*.c`): for each program,
//! up to 50 of the distinct projections and 50 of the distinct entailment tests of one
//! run, evenly spaced. Each benchmark replays one family's records; the figure is the
//! time for all of them (the `Prim_*` programs, the `bf*` programs, the others).

use std::hint::black_box;
use std::time::Duration;

use criterion::{criterion_group, criterion_main, Criterion};
use lpmc::linear::capture::{parse_log, Log};

const DATA: &str = include_str!("data/eureka_dlcs.txt");

/// The records of each family, in the file's order.
fn families() -> Vec<(&'static str, Log)> {
    let mut fams: Vec<(&'static str, String)> = vec![
        ("prim", String::new()),
        ("bf", String::new()),
        ("others", String::new()),
    ];
    let mut cur = 2;
    for line in DATA.lines() {
        if let Some(name) = line.strip_prefix("# ") {
            cur = if name.starts_with("Prim") {
                0
            } else if name.starts_with("bf") {
                1
            } else {
                2
            };
            continue;
        }
        fams[cur].1.push_str(line);
        fams[cur].1.push('\n');
    }
    fams.into_iter()
        .map(|(n, text)| (n, parse_log(&text).expect("well-formed benchmark data")))
        .collect()
}

fn bench_fm(c: &mut Criterion) {
    let mut g = c.benchmark_group("eureka_fm");
    for (name, log) in families() {
        eprintln!("eureka_fm/{name}: {} projections", log.projections.len());
        g.bench_function(name, |b| {
            b.iter(|| {
                for (conj, dims) in &log.projections {
                    black_box(conj.project_out(black_box(dims)));
                }
            })
        });
    }
    g.finish();
}

fn bench_entails(c: &mut Criterion) {
    let mut g = c.benchmark_group("eureka_entails");
    for (name, log) in families() {
        let n_true = log.entailments.iter().filter(|(a, b)| a.entails(b)).count();
        eprintln!(
            "eureka_entails/{name}: {} tests, {n_true} entailed",
            log.entailments.len()
        );
        g.bench_function(name, |b| {
            b.iter(|| {
                for (x, y) in &log.entailments {
                    black_box(x.entails(black_box(y)));
                }
            })
        });
    }
    g.finish();
}

fn config() -> Criterion {
    Criterion::default()
        .sample_size(20)
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(3))
}

criterion_group! {
    name = benches;
    config = config();
    targets = bench_fm, bench_entails
}
criterion_main!(benches);
