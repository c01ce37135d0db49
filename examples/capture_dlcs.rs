//! Records the Fourier–Motzkin projections and conjunction entailments that the CEGAR
//! engine (`lpmc::check`) performs on the given programs, and writes a deterministic
//! sample of the distinct ones as text records (`lpmc::linear::capture`), the data of
//! the `eureka` criterion benchmark (`benches/data/eureka_dlcs.txt`).
//!
//! Run with `cargo run --release --features internals --example capture_dlcs -- OUT N
//! FILE...`: at most `N` projections and `N` entailments per program are kept, evenly
//! spaced over the distinct ones in the order the run made them.
//!
//! `capture_dlcs --replay FILE fm|entails|parse` performs each projection (or entailment
//! test, or nothing) of `FILE` once: a fixed amount of work, for instruction counts under
//! `valgrind --tool=callgrind` (minus those of `parse`, the reading of the file);
//! `fm-results` and `entails-results` print each result, one a line, to compare two
//! builds.

use std::collections::BTreeSet;
use std::path::Path;

use lpmc::linear::capture;
use lpmc::CheckOptions;

/// At most `n` of `items`, evenly spaced.
fn spread<T: Clone>(items: &[T], n: usize) -> Vec<T> {
    if items.len() <= n {
        return items.to_vec();
    }
    (0..n).map(|i| items[i * items.len() / n].clone()).collect()
}

fn replay(file: &str, what: &str) {
    let text = std::fs::read_to_string(file).expect("reads the records");
    let log = capture::parse_log(&text).expect("well-formed records");
    let t = std::time::Instant::now();
    let mut rows = 0;
    let mut out = Vec::new();
    match what {
        "fm" | "fm-results" => {
            for (c, dims) in &log.projections {
                let p = c.project_out(dims);
                rows += p.rows().count();
                out.push(capture::conj_text(&p));
            }
        }
        "entails" | "entails-results" => {
            for (a, b) in &log.entailments {
                let e = a.entails(b);
                rows += usize::from(e);
                out.push(e.to_string());
            }
        }
        "parse" => {}
        _ => {
            eprintln!("replay what? fm, entails, parse, fm-results or entails-results");
            std::process::exit(2);
        }
    }
    if what.ends_with("-results") {
        println!("{}", out.join("\n"));
    } else {
        println!("{what}: {rows} (rows or entailed) in {:?}", t.elapsed());
    }
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if let [flag, file, what] = args.as_slice() {
        if flag == "--replay" {
            replay(file, what);
            return;
        }
    }
    let [out, n, files @ ..] = args.as_slice() else {
        eprintln!("usage: capture_dlcs OUT N FILE...");
        std::process::exit(2);
    };
    let n: usize = n.parse().expect("N is a number");
    let mut lines = Vec::new();
    for f in files {
        let loaded = match lpmc::load_path(Path::new(f)) {
            Ok(l) => l,
            Err(e) => {
                eprintln!("{f}: {e}");
                continue;
            }
        };
        let opts = CheckOptions {
            timeout_s: Some(20.0),
            ..CheckOptions::default()
        };
        capture::start();
        let report = lpmc::check(&loaded, &opts);
        let log = capture::stop();
        let mut seen = BTreeSet::new();
        let (mut ps, mut es) = (Vec::new(), Vec::new());
        for line in capture::log_lines(&log) {
            if seen.insert(line.clone()) {
                if line.starts_with('P') {
                    ps.push(line);
                } else {
                    es.push(line);
                }
            }
        }
        eprintln!(
            "{f}: {:?}; {} projections ({} distinct), {} entailments ({} distinct)",
            report.verdict(),
            log.projections.len(),
            ps.len(),
            log.entailments.len(),
            es.len()
        );
        lines.push(format!(
            "# {}",
            Path::new(f)
                .file_name()
                .map_or(f.clone(), |s| s.to_string_lossy().into_owned())
        ));
        lines.extend(spread(&ps, n));
        lines.extend(spread(&es, n));
    }
    lines.push(String::new());
    std::fs::write(out, lines.join("\n")).expect("writes the output");
}
