//! Print the metamorphic variants of programs (`lpmc::metamorph`):
//! `cargo run --example variants -- FILE...` prints each variant's name and text; with
//! `--check`, it checks each with the CEGAR engine (10 s, or `--timeout=S`) beside the
//! original instead; `--only=NAME` keeps the variants whose name starts with NAME.

use lpmc::metamorph::variants;
use lpmc::{check, load, load_path, CheckOptions, SourceFile};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let run = args.iter().any(|a| a == "--check");
    let option = |name: &str| {
        args.iter()
            .find_map(|a| a.strip_prefix(name)?.strip_prefix('='))
    };
    let timeout = option("--timeout").map_or(10.0, |t| t.parse().expect("--timeout=SECONDS"));
    let only = option("--only").unwrap_or("");
    let opts = CheckOptions {
        timeout_s: Some(timeout),
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
        for v in variants(path, &text)
            .into_iter()
            .filter(|v| v.name.starts_with(only))
        {
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
