//! Helpers shared by the integration tests: locating the shared benchmarks and our
//! programs, and reading the `// expect:` headers.
#![allow(dead_code)]

pub mod cgen;
pub mod gen;

use std::path::{Path, PathBuf};
use std::process::Command;

/// The memory budget of the engines that tests run in-process over many programs.
/// `--memory` bounds the resident memory of the whole process, and a test process runs
/// several engines at once (one per test thread). A solver call that outlives its
/// engine's deadline stays too: cvc5 does not poll its time limit while it pre-registers
/// the array terms of a large merged bmc formula (tens of seconds and over a GB at bound
/// 1024 on `forall/copy_const.lp`). Under the default budget, those neighbours can push
/// an unrelated run over it and make it UNKNOWN.
pub const TEST_MEMORY_MB: Option<u64> = Some(16 * 1024);

/// The shared benchmarks: `$LPMC_BENCHMARKS` if set, else `../shared/benchmarks` beside
/// the repository (or beside a worktree's parent). `None` on a fresh clone without them:
/// the caller then skips, after [`skip`] printed one line saying so.
pub fn bench_dir() -> Option<PathBuf> {
    if let Some(p) = std::env::var_os("LPMC_BENCHMARKS") {
        let p = PathBuf::from(p);
        // CI sets it explicitly: a wrong value must fail loudly, not skip.
        assert!(
            p.is_dir(),
            "LPMC_BENCHMARKS={} is not a directory",
            p.display()
        );
        return Some(p);
    }
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    ["../shared/benchmarks", "../../shared/benchmarks"]
        .iter()
        .map(|rel| root.join(rel))
        .find(|p| p.is_dir())
}

/// `../shared/c-in-the-wild` (beside the benchmarks folder), if present.
pub fn wild_dir() -> Option<PathBuf> {
    let p = bench_dir()?.parent()?.join("c-in-the-wild");
    p.is_dir().then_some(p)
}

/// Print the one line a test prints when it skips for lack of the shared benchmarks.
/// It writes to stderr directly, past the test harness's output capture, so that it shows
/// in a plain `cargo test`.
pub fn skip(test: &str) {
    use std::io::Write;
    let _ = writeln!(
        std::io::stderr(),
        "skipped {test}: the shared benchmarks were not found (set LPMC_BENCHMARKS or put ../shared beside the repository)"
    );
}

/// The shared benchmarks folder, or print the skip line for `test` and return from the
/// calling test.
#[macro_export]
macro_rules! require_benchmarks {
    ($test:expr) => {
        match common::bench_dir() {
            Some(d) => d,
            None => {
                common::skip($test);
                return;
            }
        }
    };
}

/// The project's own programs.
pub fn lp_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("lp-programs")
}

/// All `.c`/`.i`/`.lp` files under `dir`, recursively, sorted.
pub fn sources(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    collect(dir, &mut out);
    out
}

fn collect(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    let mut entries: Vec<PathBuf> = entries.filter_map(|e| e.ok().map(|e| e.path())).collect();
    entries.sort();
    for p in entries {
        if p.is_dir() {
            collect(&p, out);
        } else if matches!(
            p.extension().and_then(|e| e.to_str()),
            Some("c" | "i" | "lp")
        ) {
            out.push(p);
        }
    }
}

/// The value of a `// key: value` header line among the first lines of a file.
pub fn header(path: &Path, key: &str) -> Option<String> {
    let text = std::fs::read_to_string(path).ok()?;
    let prefix = format!("// {key}:");
    text.lines()
        .take(5)
        .find_map(|l| l.strip_prefix(&prefix).map(|v| v.trim().to_string()))
}

/// The expected verdict of an SV-COMP task (`true` = safe) from its `.yml` beside it.
pub fn svcomp_expected(path: &Path) -> Option<bool> {
    let yml = path.with_extension("yml");
    let text = std::fs::read_to_string(yml).ok()?;
    let mut lines = text.lines();
    while let Some(l) = lines.next() {
        if l.contains("unreach-call.prp") {
            let next = lines.next()?;
            return Some(next.contains("true"));
        }
    }
    None
}

/// The target folder of the test binaries (where virtual environments are made).
pub fn target_dir() -> PathBuf {
    Path::new(env!("CARGO_BIN_EXE_lpmc"))
        .parent()
        .and_then(Path::parent)
        .expect("the target folder")
        .to_path_buf()
}

/// A Python virtual environment `target/<name>` with the PyPI package `package` installed
/// (made once, and taken as ready when its module `module` imports), as its `python3`;
/// `None`, after printing one line that `test` skips, when PyPI cannot be reached to
/// install it.
pub fn venv(name: &str, package: &str, module: &str, test: &str) -> Option<PathBuf> {
    let dir = target_dir().join(name);
    let python = dir.join("bin/python3");
    let ready = python.is_file()
        && Command::new(&python)
            .args(["-c", &format!("import {module}")])
            .status()
            .is_ok_and(|s| s.success());
    if !ready {
        let made = Command::new("python3")
            .args(["-m", "venv"])
            .arg(&dir)
            .output()
            .expect("python3 runs");
        assert!(made.status.success(), "python3 -m venv failed: {made:?}");
        let install = Command::new(&python)
            .args(["-m", "pip", "install", "--quiet", package])
            .output()
            .expect("pip runs");
        if !install.status.success() {
            // Only an unreachable index excuses the failure: ask it for the package's
            // versions (with pip's own index settings).
            let reachable = Command::new(&python)
                .args(["-m", "pip", "index", "versions", package])
                .output()
                .is_ok_and(|o| o.status.success());
            if !reachable {
                use std::io::Write;
                let _ = writeln!(
                    std::io::stderr(),
                    "skipped {test}: PyPI is unreachable, {package} cannot be installed"
                );
                return None;
            }
            panic!(
                "pip install {package} failed:\n{}",
                String::from_utf8_lossy(&install.stderr)
            );
        }
    }
    Some(python)
}
