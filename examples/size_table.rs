//! EUREKA's headline claim, array-size independence: the paper's Fig. 1 program with
//! `a[N]` for N = 3, 10, 1 000, 10⁶ is checked, and the verdict, refinements, cells and
//! time (median of 5 runs) are printed as a table.
//!
//! Run with `cargo run --release --example size_table`.
use lpmc::CheckOptions;
use lpmc::SourceFile;
use std::time::Instant;

fn main() {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("lp-programs/fig1.lp");
    let text = std::fs::read_to_string(&path).expect("lp-programs/fig1.lp");
    println!(
        "{:>9}  {:>7}  {:>11}  {:>10}  {:>10}",
        "N", "verdict", "refinements", "cells", "median ms"
    );
    let mut base = None;
    for n in [3u64, 10, 1000, 1_000_000] {
        let src = text
            .replace("a[3]", &format!("a[{n}]"))
            .replace("i < 3", &format!("i < {n}"));
        let loaded = lpmc::load(SourceFile::new("fig1.lp", src)).expect("loads");
        let mut times = Vec::new();
        let mut last = None;
        for _ in 0..5 {
            let t = Instant::now();
            let r = lpmc::check(&loaded, &CheckOptions::default());
            times.push(t.elapsed().as_secs_f64() * 1000.0);
            last = Some(r);
        }
        times.sort_by(|a, b| a.total_cmp(b));
        let med = times[2];
        let r = last.expect("ran");
        let ratio = base.map(|b: f64| med / b).unwrap_or(1.0);
        base.get_or_insert(med);
        println!(
            "{:>9}  {:>7}  {:>11}  {:>10}  {:>10.2}  ({:.2}x of N=3)",
            n,
            r.verdict().as_str(),
            r.refinements,
            format!("{:?}", r.cells.get("a").cloned().unwrap_or_default()),
            med,
            ratio
        );
    }
}
