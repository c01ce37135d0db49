//! Load source files through the front end (preprocess if needed, parse, resolve, build
//! the CFG), timing each load: `cargo run --release --example parse_bench -- FILE...`
//! (with `--print`, print each control-flow graph).

use lpmc::{load_with, LoadOptions, SourceFile};
use std::time::Instant;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let print = args.iter().any(|a| a == "--print");
    let mut max = 0.0f64;
    let mut total = 0.0f64;
    for path in args.iter().filter(|a| *a != "--print") {
        let file = match SourceFile::read(std::path::Path::new(path)) {
            Ok(f) => f,
            Err(e) => {
                eprintln!("{path}: {e}");
                continue;
            }
        };
        // Best of 20 runs, to keep noise from other processes out.
        let mut best = f64::INFINITY;
        let mut result = None;
        for _ in 0..20 {
            let t = Instant::now();
            let r = load_with(file.clone(), &LoadOptions::default());
            best = best.min(t.elapsed().as_secs_f64() * 1e3);
            result = Some(r);
        }
        max = max.max(best);
        total += best;
        match result {
            Some(Ok(p)) => {
                println!("{best:8.4} ms  {path}");
                if print {
                    println!("{}", p.cfg_text());
                }
            }
            Some(Err(e)) => println!("{best:8.4} ms  {path}: {}", e.render(false)),
            None => {}
        }
    }
    println!("max {max:.4} ms, total {total:.4} ms");
}
