//! Parser and pretty-printer tests: every shared benchmark parses and round-trips through
//! the pretty-printer; targeted tests of precedence, statements and diagnostics.

use lpmc::diag::{DiagKind, SourceFile};
use lpmc::syntax::ast::{BinOp, ExprKind, Item, Program, StmtKind, Ty};
use lpmc::syntax::{erase_spans, parse, pretty};
use std::path::{Path, PathBuf};

/// `../shared/benchmarks` from the repository, or `../../shared/benchmarks` from a
/// worktree under `/work/wt/`.
fn bench_dir() -> PathBuf {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    for rel in ["../shared/benchmarks", "../../shared/benchmarks"] {
        let p = root.join(rel);
        if p.is_dir() {
            return p;
        }
    }
    panic!("shared benchmarks not found next to {}", root.display());
}

/// All `.c`/`.i`/`.lp` files under `dir`, recursively, sorted.
fn sources(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    let mut entries: Vec<PathBuf> = entries.filter_map(|e| e.ok().map(|e| e.path())).collect();
    entries.sort();
    for p in entries {
        if p.is_dir() {
            sources(&p, out);
        } else if matches!(
            p.extension().and_then(|e| e.to_str()),
            Some("c" | "i" | "lp")
        ) {
            out.push(p);
        }
    }
}

fn benchmark_files() -> Vec<PathBuf> {
    let mut files = Vec::new();
    sources(&bench_dir(), &mut files);
    files
}

fn lp_program_files() -> Vec<PathBuf> {
    let mut files = Vec::new();
    sources(
        &Path::new(env!("CARGO_MANIFEST_DIR")).join("lp-programs"),
        &mut files,
    );
    files
}

fn parse_str(text: &str) -> Program {
    let f = SourceFile::new("t.c", text);
    match parse(&f) {
        Ok(p) => p,
        Err(d) => panic!("{}", d.render(&f)),
    }
}

#[test]
fn every_benchmark_parses() {
    let files = benchmark_files();
    assert!(
        files.len() >= 40,
        "expected the shared benchmarks, found {} files",
        files.len()
    );
    for path in files {
        let f = SourceFile::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        if let Err(d) = parse(&f) {
            panic!("{}", d.render(&f));
        }
    }
}
