//! Helpers of the unit tests (the counterpart of `tests/common/mod.rs`): locating the
//! shared benchmarks and our programs, and reading the `// expect:` headers. Test-only.

use std::path::{Path, PathBuf};

/// The shared benchmarks: `$LPMC_BENCHMARKS` if set, else `../shared/benchmarks` beside
/// the repository (or beside a worktree's parent). `None` on a fresh clone without them:
/// the caller then skips, after [`skip`] printed one line saying so.
pub(crate) fn bench_dir() -> Option<PathBuf> {
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
pub(crate) fn wild_dir() -> Option<PathBuf> {
    let p = bench_dir()?.parent()?.join("c-in-the-wild");
    p.is_dir().then_some(p)
}

/// Print the one line a test prints when it skips for lack of the shared benchmarks.
/// It writes to stderr directly, past the test harness's output capture, so that it shows
/// in a plain `cargo test`.
pub(crate) fn skip(test: &str) {
    use std::io::Write;
    let _ = writeln!(
        std::io::stderr(),
        "skipped {test}: the shared benchmarks were not found (set LPMC_BENCHMARKS or put ../shared beside the repository)"
    );
}

/// The shared benchmarks folder, or print the skip line for `test` and return from the
/// calling test.
macro_rules! require_benchmarks {
    ($test:expr) => {
        match $crate::testutil::bench_dir() {
            Some(d) => d,
            None => {
                $crate::testutil::skip($test);
                return;
            }
        }
    };
}
pub(crate) use require_benchmarks;

/// The project's own programs.
pub(crate) fn lp_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("lp-programs")
}

/// All `.c`/`.i`/`.lp` files under `dir`, recursively, sorted.
pub(crate) fn sources(dir: &Path) -> Vec<PathBuf> {
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
pub(crate) fn header(path: &Path, key: &str) -> Option<String> {
    let text = std::fs::read_to_string(path).ok()?;
    let prefix = format!("// {key}:");
    text.lines()
        .take(5)
        .find_map(|l| l.strip_prefix(&prefix).map(|v| v.trim().to_string()))
}
