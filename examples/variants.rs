//! Print the metamorphic variants of programs (`lpmc::metamorph`):
//! `cargo run --example variants -- FILE...` prints each variant's name and text; with
//! `--check`, it checks each with the CEGAR engine (10 s) beside the original instead.

use lpmc::metamorph::variants;
use lpmc::{check, load, load_path, CheckOptions, SourceFile};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let run = args.iter().any(|a| a == "--check");
    let opts = CheckOptions {
        timeout_s: Some(10.0),
        ..Default::default()
    };
    for path in args.iter().filter(|a| !a.starts_with("--")) {
        let text = match std::fs::read_to_string(path) {
            Ok(t) => t,
            Err(e) => {
                eprintln!("{path}: {e}");
                continue;
            }
        };
        if run {
            match load_path(std::path::Path::new(path)) {
                Ok(l) => {
                    let r = check(&l, &opts);
                    println!("{path}: {} ({} ms)", r.verdict().as_str(), r.time_ms);
                }
                Err(e) => println!("{path}: load error: {e}"),
            }
        }
        for v in variants(path, &text) {
            if !run {
                println!("==== {} ({})\n{}", v.name, v.file_name, v.source);
                continue;
            }
            match load(SourceFile::new(v.file_name.as_str(), v.source.as_str())) {
                Ok(l) => {
                    let r = check(&l, &opts);
                    println!(
                        "  {}: {} ({} ms) {}",
                        v.name,
                        r.verdict().as_str(),
                        r.time_ms,
                        r.outcome.reason().lines().next().unwrap_or("")
                    );
                }
                Err(e) => println!("  {}: load error: {e}", v.name),
            }
        }
    }
}
