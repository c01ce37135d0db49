//! The slow tail: programs lpmc decides, but in seconds rather than a fraction of one,
//! timed as users run them (`lpmc check --json --timeout 30`, a fresh process each run)
//! so that a regression, or an improvement, shows up. The programs: those of lp-programs/
//! whose header has a `// slow:` line (decided in tens of seconds: kept out of the test
//! suite, which checks them only with `LPMC_SLOW=1`), ACSAR's `array_init`
//! (lp-programs/forall/array_init.lp and array_init_1000.c), the first-match search of
//! lp-programs/check_loops/first_match.c, the programs of lp-programs/bounded/ with the
//! whole portfolio (their target: decided by the bounded engine in under a second, while
//! the other engines run beside it), and the tasks of ../shared that took over two
//! seconds (skipped, with one printed line, without ../shared).
//!
//! `cargo bench --bench slow_tail` prints one line per program: the verdict, the engine
//! that decided (of the median run), the median wall time of `SLOW_TAIL_RUNS` runs
//! (default 3), the CPU time and the refinements.
//! `SLOW_TAIL_FILTER=text` keeps the programs whose path contains `text`.

#[path = "../tests/common/mod.rs"]
mod common;

use common::{bench_dir, header, lp_dir, sources};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Instant;

/// The tasks of ../shared (under `benchmarks/` or `c-in-the-wild/`) that took over two
/// seconds with `lpmc check --timeout 10`, each with the engine it is timed with.
const SHARED: &[&str] = &[
    "benchmarks/svcomp-extra/array-programs/copysome2-1.yml",
    "benchmarks/svcomp-extra/loop-lit/ddlm2013.yml",
    "c-in-the-wild/array-examples/standard_password_ground.yml",
    "benchmarks/svcomp-extra/array-examples/standard_compareModified_ground.yml",
    "benchmarks/svcomp-extra/array-examples/standard_partition_ground-2.yml",
    "benchmarks/svcomp/recursive/Ackermann01-2.yml",
    "benchmarks/svcomp-extra/array-examples/standard_init5_ground-1.yml",
    "benchmarks/svcomp-extra/loop-new/nested-1.yml",
    "benchmarks/svcomp/array-cav19/array_init_var_plus_ind3.yml",
    "benchmarks/svcomp/array-programs/copysome1-1.yml",
    "benchmarks/svcomp/recursive/Addition01-2.yml",
    "benchmarks/svcomp-extra/loop-invgen/nest-if3.yml",
];

struct Case {
    path: PathBuf,
    /// `--engine` (`all`: the portfolio, as `lpmc check` runs by default).
    engine: &'static str,
}

fn cases() -> Vec<Case> {
    let lp = lp_dir();
    // The slow ones are checked by the CEGAR engine in the tests (tests/cegar.rs).
    let mut cases: Vec<Case> = sources(&lp)
        .into_iter()
        .filter(|p| header(p, "slow").is_some())
        .map(|path| Case {
            path,
            engine: "cegar",
        })
        .collect();
    for p in [
        "forall/array_init.lp",
        "forall/array_init_1000.c",
        "check_loops/first_match.c",
    ] {
        cases.push(Case {
            path: lp.join(p),
            engine: "cegar",
        });
    }
    cases.extend(sources(&lp.join("bounded")).into_iter().map(|path| Case {
        path,
        engine: "all",
    }));
    match bench_dir().and_then(|b| b.parent().map(Path::to_path_buf)) {
        Some(shared) => cases.extend(SHARED.iter().map(|t| Case {
            path: shared.join(t),
            engine: "all",
        })),
        None => {
            println!("slow_tail: ../shared/benchmarks is missing: the shared tasks are skipped")
        }
    }
    cases
}

struct Run {
    verdict: String,
    /// The engine that decided (`-` when none did).
    by: String,
    wall_ms: f64,
    cpu_ms: f64,
    refinements: u64,
}

fn run(case: &Case) -> Run {
    let start = Instant::now();
    let before = children_cpu_ms();
    let out = Command::new(env!("CARGO_BIN_EXE_lpmc"))
        .args([
            "check",
            "--json",
            "--timeout",
            "30",
            "--engine",
            case.engine,
        ])
        .arg(&case.path)
        .output()
        .expect("lpmc runs");
    let wall_ms = start.elapsed().as_secs_f64() * 1000.0;
    let cpu_ms = children_cpu_ms() - before;
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap_or_else(|e| {
        panic!(
            "{}: no JSON ({e}): {}",
            case.path.display(),
            String::from_utf8_lossy(&out.stderr)
        )
    });
    Run {
        verdict: json["verdict"].as_str().unwrap_or("?").to_string(),
        by: json["engine"].as_str().unwrap_or("-").to_string(),
        wall_ms,
        cpu_ms,
        refinements: json["refinements"].as_u64().unwrap_or(0),
    }
}

/// CPU time (user and system) of the finished children of this process, in ms.
fn children_cpu_ms() -> f64 {
    let mut u = std::mem::MaybeUninit::<libc::rusage>::zeroed();
    // SAFETY: getrusage fills the struct it is given.
    let r = unsafe { libc::getrusage(libc::RUSAGE_CHILDREN, u.as_mut_ptr()) };
    if r != 0 {
        return 0.0;
    }
    // SAFETY: initialised by the successful call above.
    let u = unsafe { u.assume_init() };
    let ms = |t: libc::timeval| t.tv_sec as f64 * 1000.0 + t.tv_usec as f64 / 1000.0;
    ms(u.ru_utime) + ms(u.ru_stime)
}

fn main() {
    // `cargo bench` passes `--bench`; `cargo test --benches` runs this too, with nothing
    // to time then.
    if !std::env::args().any(|a| a == "--bench") {
        return;
    }
    let runs: usize = std::env::var("SLOW_TAIL_RUNS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(3)
        .max(1);
    let filter = std::env::var("SLOW_TAIL_FILTER").unwrap_or_default();
    println!(
        "{:<70} {:>6} {:>8} {:>6} {:>10} {:>10} {:>5}",
        "program", "engine", "verdict", "by", "median ms", "cpu ms", "refs"
    );
    for case in cases() {
        let name = case.path.display().to_string();
        if !name.contains(&filter) {
            continue;
        }
        let mut rs: Vec<Run> = (0..runs).map(|_| run(&case)).collect();
        rs.sort_by(|a, b| a.wall_ms.total_cmp(&b.wall_ms));
        let m = &rs[rs.len() / 2];
        let verdicts: Vec<&str> = rs.iter().map(|r| r.verdict.as_str()).collect();
        let verdict = if verdicts.iter().all(|v| *v == m.verdict) {
            m.verdict.clone()
        } else {
            verdicts.join("/")
        };
        let short = name
            .strip_prefix(&format!("{}/", env!("CARGO_MANIFEST_DIR")))
            .unwrap_or(&name)
            .to_string();
        println!(
            "{:<70} {:>6} {:>8} {:>6} {:>10.0} {:>10.0} {:>5}",
            short, case.engine, verdict, m.by, m.wall_ms, m.cpu_ms, m.refinements
        );
    }
}
