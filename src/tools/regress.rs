//! `lpmc regress`: run the CEGAR engine (`lpmc check`) and the bounded engine
//! (`lpmc bmc`) on a set of programs, each in a child process with a timeout, and print a
//! table like the paper's Table 2: expected verdict, per engine verdict, time and peak
//! memory, and lpmc's refinements and cells. A SAFE/UNSAFE answer that contradicts the
//! expectation is WRONG; UNKNOWN is never wrong.
//!
//! The table and verdict logic ([`expected_verdict`], [`judge`], [`render`],
//! [`exit_status`]) are pure functions; [`run_engine`] does the process work.

use crate::{expected_safe_for, is_task_file, Task, Verdict};
use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// The paper's Table 2 verdicts of the EUREKA `*_klee.c` benchmarks (by file stem without
/// `_klee`): `true` = safe.
pub const EUREKA_EXPECTED: &[(&str, bool)] = &[
    ("array_init", true),
    ("array_init_assign", true),
    ("complex_guard", true),
    ("complex_guard_", true),
    ("sequential_swap", true),
    ("simple_swap_call", true),
    ("simple_array_inversion", true),
    ("bubblesort_inner_loop", false),
    ("bubblesort", false),
    ("wrong_loop", false),
    ("loop_on_input", false),
    ("simple_control_on_input", false),
];

/// The expected verdict of a program from its text and path: a `// expect: safe|unsafe`
/// header among the first lines; else an SV-COMP `.yml` beside it (`unreach-call.prp`
/// with `expected_verdict: true` = safe); else, for a EUREKA `*_klee.c` benchmark, the
/// paper's Table 2. `None` when nothing says (or the header says `unknown`).
pub fn expected_verdict(path: &Path, text: &str, yml: Option<&str>) -> Option<Verdict> {
    for l in text.lines().take(5) {
        if let Some(v) = l.trim().strip_prefix("// expect:") {
            return match v.trim().to_ascii_lowercase().as_str() {
                "safe" => Some(Verdict::Safe),
                "unsafe" => Some(Verdict::Unsafe),
                _ => None,
            };
        }
    }
    if let Some(y) = yml {
        let mut lines = y.lines();
        while let Some(l) = lines.next() {
            if l.contains("unreach-call.prp") {
                let next = lines.next()?;
                if !next.contains("expected_verdict") {
                    return None;
                }
                return Some(if next.contains("true") {
                    Verdict::Safe
                } else {
                    Verdict::Unsafe
                });
            }
        }
    }
    let name = path.file_name()?.to_str()?;
    let stem = name.strip_suffix("_klee.c")?;
    if stem.starts_with("Prim_") || stem.starts_with("bf") {
        return Some(Verdict::Safe);
    }
    EUREKA_EXPECTED
        .iter()
        .find(|(n, _)| *n == stem)
        .map(|(_, safe)| {
            if *safe {
                Verdict::Safe
            } else {
                Verdict::Unsafe
            }
        })
}

/// [`expected_verdict`] reading the file and its `.yml`; for a task file (`.yml`), its
/// `unreach-call` verdict.
pub fn expected_for_file(path: &Path) -> Option<Verdict> {
    if is_task_file(path) {
        let safe = expected_safe_for(path)?;
        return Some(if safe { Verdict::Safe } else { Verdict::Unsafe });
    }
    let text = std::fs::read_to_string(path).unwrap_or_default();
    let yml = std::fs::read_to_string(path.with_extension("yml")).ok();
    expected_verdict(path, &text, yml.as_deref())
}

/// All `.lp`/`.c`/`.i` programs and `.yml` task files under the given files and folders
/// (recursively, sorted per folder), skipping `lp-programs/errors/` (invalid inputs on
/// purpose). In a folder, a task file replaces the program it names.
pub fn collect(paths: &[PathBuf]) -> Vec<PathBuf> {
    fn is_source(p: &Path) -> bool {
        matches!(
            p.extension().and_then(|e| e.to_str()),
            Some("c" | "i" | "lp")
        ) || is_task_file(p)
    }
    /// The programs that the task files among `es` name.
    fn task_inputs(es: &[PathBuf]) -> Vec<PathBuf> {
        es.iter()
            .filter(|p| is_task_file(p))
            .filter_map(|p| Task::read(p).ok())
            .map(|t| t.input)
            .collect()
    }
    fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
        let Ok(rd) = std::fs::read_dir(dir) else {
            return;
        };
        let mut es: Vec<PathBuf> = rd.filter_map(|e| e.ok().map(|e| e.path())).collect();
        es.sort();
        let covered = task_inputs(&es);
        for p in es {
            if covered.contains(&p) {
                continue;
            }
            if p.is_dir() {
                let skip = p.file_name().is_some_and(|n| n == "errors")
                    && dir.file_name().is_some_and(|n| n == "lp-programs");
                if !skip {
                    walk(&p, out);
                }
            } else if is_source(&p) {
                out.push(p);
            }
        }
    }
    let mut out = Vec::new();
    for p in paths {
        if p.is_dir() {
            walk(p, &mut out);
        } else {
            out.push(p.clone());
        }
    }
    out
}

/// What one engine answered on one program.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct EngineResult {
    /// The verdict (`None`: no answer — timeout, crash, unreadable output).
    pub verdict: Option<Verdict>,
    /// `SAFE`, `UNSAFE`, `UNKNOWN`, `TIMEOUT`, `ERROR`, `BAD INPUT`.
    pub status: String,
    /// Wall-clock time in ms.
    pub time_ms: u128,
    /// CPU time of the child process (user and system, all threads) in ms, if measured.
    pub cpu_ms: Option<u128>,
    /// Peak resident memory of the child in KiB, if measured.
    pub peak_kib: Option<u64>,
    /// Refinements (CEGAR only).
    pub refinements: Option<u32>,
    /// Tracked cells, total (CEGAR only).
    pub cells: Option<usize>,
    /// The engine's reason.
    pub reason: String,
    /// Whether its counterexample passes through a signed overflow or an out-of-bounds
    /// array access (wrapped or arbitrary, or the error itself): C leaves both undefined,
    /// so an unreach-call expectation says nothing of it.
    pub overflow: bool,
}

impl EngineResult {
    /// A result with only a status.
    pub fn status_only(status: &str, verdict: Option<Verdict>, time_ms: u128) -> EngineResult {
        EngineResult {
            verdict,
            status: status.to_string(),
            time_ms,
            cpu_ms: None,
            peak_kib: None,
            refinements: None,
            cells: None,
            reason: String::new(),
            overflow: false,
        }
    }
}

/// How a verdict compares with the expectation.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
pub enum Judgement {
    /// SAFE/UNSAFE as expected.
    Correct,
    /// SAFE where UNSAFE was expected or vice versa.
    Wrong,
    /// No verdict (UNKNOWN, timeout, error): never wrong.
    Undecided,
    /// No expectation to compare with.
    Unexpected,
}

/// Compare an answer with the expectation.
pub fn judge(expected: Option<Verdict>, got: Option<Verdict>) -> Judgement {
    match (expected, got) {
        (_, None | Some(Verdict::Unknown)) => Judgement::Undecided,
        (None | Some(Verdict::Unknown), Some(_)) => Judgement::Unexpected,
        (Some(e), Some(g)) if e == g => Judgement::Correct,
        _ => Judgement::Wrong,
    }
}

/// [`judge`] for an engine's result: an expected SAFE (an unreach-call verdict, which
/// ignores executions with undefined behaviour in C) does not apply to a counterexample
/// through a signed overflow (under `--signed-overflow wrap` or `error`) or an
/// out-of-bounds array access (under `--array-bounds nondet` or `error`): no expectation
/// to compare with.
pub fn judged(expected: Option<Verdict>, r: &EngineResult) -> Judgement {
    if r.overflow && expected == Some(Verdict::Safe) && r.verdict == Some(Verdict::Unsafe) {
        return Judgement::Unexpected;
    }
    judge(expected, r.verdict)
}

/// One row of the table.
#[derive(Clone, Debug, serde::Serialize)]
pub struct Row {
    /// The program (as given / found).
    pub program: String,
    /// The expected verdict.
    pub expected: Option<Verdict>,
    /// The CEGAR engine.
    pub cegar: EngineResult,
    /// The bounded engine.
    pub bmc: EngineResult,
    /// `lpmc check` as users run it: the portfolio of all engines.
    pub portfolio: EngineResult,
    /// CBMC, when on PATH.
    pub cbmc: Option<EngineResult>,
}

impl Row {
    /// Whether any engine gave a wrong verdict.
    pub fn wrong(&self) -> bool {
        let mut rs = vec![&self.cegar, &self.bmc, &self.portfolio];
        rs.extend(self.cbmc.as_ref());
        rs.iter()
            .any(|r| judged(self.expected, r) == Judgement::Wrong)
    }
}

/// 1 if any row has a wrong verdict, else 0.
pub fn exit_status(rows: &[Row]) -> i32 {
    i32::from(rows.iter().any(Row::wrong))
}

/// Output formats of the table.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// Aligned columns.
    Text,
    /// A Markdown table.
    Markdown,
    /// Comma-separated values.
    Csv,
    /// A JSON array of rows.
    Json,
}

impl std::str::FromStr for Format {
    type Err = String;
    fn from_str(s: &str) -> Result<Format, String> {
        match s {
            "text" => Ok(Format::Text),
            "markdown" | "md" => Ok(Format::Markdown),
            "csv" => Ok(Format::Csv),
            "json" => Ok(Format::Json),
            _ => Err(format!("unknown format `{s}` (text, markdown, csv, json)")),
        }
    }
}

fn verdict_name(v: Option<Verdict>) -> &'static str {
    match v {
        Some(v) => v.as_str(),
        None => "-",
    }
}

/// An engine's verdict cell: its status, with `(WRONG)` when it contradicts the
/// expectation.
pub fn verdict_cell(expected: Option<Verdict>, r: &EngineResult) -> String {
    if judged(expected, r) == Judgement::Wrong {
        format!("{} (WRONG)", r.status)
    } else {
        r.status.clone()
    }
}

fn mem_cell(r: &EngineResult) -> String {
    match r.peak_kib {
        Some(k) => format!("{:.1}", k as f64 / 1024.0),
        None => "-".into(),
    }
}

fn opt_cell<T: ToString>(x: Option<T>) -> String {
    x.map(|x| x.to_string()).unwrap_or_else(|| "-".into())
}

/// The header and cells of the table.
pub fn table(rows: &[Row]) -> (Vec<String>, Vec<Vec<String>>) {
    let with_cbmc = rows.iter().any(|r| r.cbmc.is_some());
    let mut head: Vec<String> = [
        "program",
        "expected",
        "lpmc",
        "lpmc ms",
        "lpmc cpu ms",
        "lpmc MB",
        "refinements",
        "cells",
        "bmc",
        "bmc ms",
        "bmc cpu ms",
        "bmc MB",
        "all",
        "all ms",
        "all cpu ms",
        "all MB",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    if with_cbmc {
        head.extend([
            "cbmc".to_string(),
            "cbmc ms".to_string(),
            "cbmc cpu ms".to_string(),
        ]);
    }
    let body = rows
        .iter()
        .map(|r| {
            let mut c = vec![
                r.program.clone(),
                verdict_name(r.expected).to_string(),
                verdict_cell(r.expected, &r.cegar),
                r.cegar.time_ms.to_string(),
                opt_cell(r.cegar.cpu_ms),
                mem_cell(&r.cegar),
                opt_cell(r.cegar.refinements),
                opt_cell(r.cegar.cells),
                verdict_cell(r.expected, &r.bmc),
                r.bmc.time_ms.to_string(),
                opt_cell(r.bmc.cpu_ms),
                mem_cell(&r.bmc),
                verdict_cell(r.expected, &r.portfolio),
                r.portfolio.time_ms.to_string(),
                opt_cell(r.portfolio.cpu_ms),
                mem_cell(&r.portfolio),
            ];
            if with_cbmc {
                match &r.cbmc {
                    Some(x) => {
                        c.push(verdict_cell(r.expected, x));
                        c.push(x.time_ms.to_string());
                        c.push(opt_cell(x.cpu_ms));
                    }
                    None => c.extend(["-".to_string(), "-".to_string(), "-".to_string()]),
                }
            }
            c
        })
        .collect();
    (head, body)
}

fn csv_field(s: &str) -> String {
    if s.contains([',', '"', '\n']) {
        format!("\"{}\"", s.replace('"', "\"\""))
    } else {
        s.to_string()
    }
}

/// Render the table, with a summary line (text and Markdown).
pub fn render(rows: &[Row], format: Format) -> String {
    let (head, body) = table(rows);
    let mut out = String::new();
    match format {
        Format::Json => {
            out = serde_json::to_string_pretty(rows).unwrap_or_else(|_| "[]".into());
            out.push('\n');
            return out;
        }
        Format::Csv => {
            for r in std::iter::once(&head).chain(body.iter()) {
                let cs: Vec<String> = r.iter().map(|c| csv_field(c)).collect();
                out.push_str(&cs.join(","));
                out.push('\n');
            }
            return out;
        }
        Format::Markdown => {
            out.push_str(&format!("| {} |\n", head.join(" | ")));
            let seps: Vec<&str> = head
                .iter()
                .enumerate()
                .map(|(i, _)| if i <= 2 { "---" } else { "---:" })
                .collect();
            out.push_str(&format!("|{}|\n", seps.join("|")));
            for r in &body {
                let cs: Vec<String> = r.iter().map(|c| c.replace('|', "\\|")).collect();
                out.push_str(&format!("| {} |\n", cs.join(" | ")));
            }
        }
        Format::Text => {
            let mut w: Vec<usize> = head.iter().map(|h| h.chars().count()).collect();
            for r in &body {
                for (i, c) in r.iter().enumerate() {
                    w[i] = w[i].max(c.chars().count());
                }
            }
            let line = |cells: &[String]| {
                let cs: Vec<String> = cells
                    .iter()
                    .enumerate()
                    .map(|(i, c)| {
                        let pad = w[i].saturating_sub(c.chars().count());
                        if i <= 2 || i == 8 || i == 12 || i == 16 {
                            format!("{c}{}", " ".repeat(pad))
                        } else {
                            format!("{}{c}", " ".repeat(pad))
                        }
                    })
                    .collect();
                format!("{}\n", cs.join("  ").trim_end())
            };
            out.push_str(&line(&head));
            let total: usize = w.iter().sum::<usize>() + 2 * w.len().saturating_sub(1);
            out.push_str(&format!("{}\n", "-".repeat(total)));
            for r in &body {
                out.push_str(&line(r));
            }
        }
    }
    out.push_str(&summary(rows));
    out
}

/// One line: how many programs, and per engine correct / unknown / wrong.
pub fn summary(rows: &[Row]) -> String {
    let count = |f: &dyn Fn(&Row) -> Option<&EngineResult>| {
        let mut c = (0, 0, 0);
        for r in rows {
            if let Some(x) = f(r) {
                match judged(r.expected, x) {
                    Judgement::Correct | Judgement::Unexpected => c.0 += 1,
                    Judgement::Undecided => c.1 += 1,
                    Judgement::Wrong => c.2 += 1,
                }
            }
        }
        c
    };
    let l = count(&|r| Some(&r.cegar));
    let b = count(&|r| Some(&r.bmc));
    let a = count(&|r| Some(&r.portfolio));
    let mut s = format!(
        "\n{} programs; lpmc: {} decided, {} undecided, {} WRONG; bmc: {} decided, {} undecided, {} WRONG; all: {} decided, {} undecided, {} WRONG",
        rows.len(),
        l.0,
        l.1,
        l.2,
        b.0,
        b.1,
        b.2,
        a.0,
        a.1,
        a.2
    );
    if rows.iter().any(|r| r.cbmc.is_some()) {
        let c = count(&|r| r.cbmc.as_ref());
        s.push_str(&format!(
            "; cbmc: {} decided, {} undecided, {} WRONG",
            c.0, c.1, c.2
        ));
    }
    // Total times: wall-clock as the engines report it, CPU of the whole process.
    let totals = |f: &dyn Fn(&Row) -> Option<&EngineResult>| {
        let wall: u128 = rows.iter().filter_map(f).map(|x| x.time_ms).sum();
        let cpu: u128 = rows.iter().filter_map(f).filter_map(|x| x.cpu_ms).sum();
        format!(
            "{:.1} s wall, {:.1} s CPU",
            wall as f64 / 1e3,
            cpu as f64 / 1e3
        )
    };
    s.push_str(&format!(
        "\ntotal time; lpmc: {}; bmc: {}; all: {}",
        totals(&|r| Some(&r.cegar)),
        totals(&|r| Some(&r.bmc)),
        totals(&|r| Some(&r.portfolio))
    ));
    if rows.iter().any(|r| r.cbmc.is_some()) {
        s.push_str(&format!("; cbmc: {}", totals(&|r| r.cbmc.as_ref())));
    }
    s.push('\n');
    s
}

/// Parse the JSON report of `lpmc check --json` / `lpmc bmc --json`.
pub fn parse_report(json: &str, time_ms: u128, peak_kib: Option<u64>) -> EngineResult {
    let Ok(v) = serde_json::from_str::<serde_json::Value>(json.trim()) else {
        return EngineResult {
            peak_kib,
            ..EngineResult::status_only("ERROR", None, time_ms)
        };
    };
    let verdict = match v["verdict"].as_str() {
        Some("safe") => Some(Verdict::Safe),
        Some("unsafe") => Some(Verdict::Unsafe),
        Some("unknown") => Some(Verdict::Unknown),
        _ => None,
    };
    let status = verdict.map(|v| v.as_str()).unwrap_or("ERROR").to_string();
    let refinements = v["refinements"].as_u64().map(|n| n as u32);
    let cells = v["cells"].as_object().map(|m| {
        m.values()
            .filter_map(|x| x.as_array())
            .map(|a| a.len())
            .sum()
    });
    EngineResult {
        verdict,
        status,
        time_ms,
        cpu_ms: None,
        peak_kib,
        refinements,
        cells,
        reason: v["reason"].as_str().unwrap_or_default().to_string(),
        overflow: v["trace"]["signed_overflow_line"].is_u64()
            || v["trace"]["overflow_error"] == serde_json::Value::Bool(true)
            || v["trace"]["out_of_bounds_line"].is_u64()
            || v["trace"]["bounds_error"] == serde_json::Value::Bool(true),
    }
}

/// The outcome of a child process.
pub struct ChildRun {
    /// Its standard output.
    pub stdout: String,
    /// Its exit code (`None`: killed or signalled).
    pub code: Option<i32>,
    /// Whether we killed it at the deadline.
    pub timed_out: bool,
    /// Wall-clock time.
    pub time_ms: u128,
    /// Peak resident set size (KiB), from `wait4`.
    pub peak_kib: Option<u64>,
    /// CPU time (user and system) in ms, from `wait4`.
    pub cpu_ms: Option<u128>,
}

/// Run a command with a wall-clock limit, killing it when it overruns; measure its peak
/// memory with `wait4`.
pub fn run_child(mut cmd: Command, limit: Duration) -> std::io::Result<ChildRun> {
    let start = Instant::now();
    let mut child = cmd
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()?;
    let mut stdout = child.stdout.take();
    let reader = std::thread::spawn(move || {
        let mut s = String::new();
        if let Some(o) = stdout.as_mut() {
            let _ = o.read_to_string(&mut s);
        }
        s
    });
    let pid = child.id() as libc::pid_t;
    let mut timed_out = false;
    let (status, peak, cpu) = loop {
        let mut status: libc::c_int = 0;
        // SAFETY: an all-zero rusage is a valid value of this plain C struct.
        let mut ru: libc::rusage = unsafe { std::mem::zeroed() };
        let flags = if timed_out { 0 } else { libc::WNOHANG };
        // SAFETY: `pid` is our own child, not yet reaped (std never waited for it);
        // `status` and `ru` are valid for writes.
        let r = unsafe { libc::wait4(pid, &mut status, flags, &mut ru) };
        if r == pid {
            let ms =
                |t: libc::timeval| t.tv_sec.max(0) as u128 * 1000 + t.tv_usec.max(0) as u128 / 1000;
            let cpu = ms(ru.ru_utime) + ms(ru.ru_stime);
            break (Some(status), Some(ru.ru_maxrss.max(0) as u64), Some(cpu));
        }
        if r < 0 {
            let e = std::io::Error::last_os_error();
            if e.kind() == std::io::ErrorKind::Interrupted {
                continue;
            }
            break (None, None, None);
        }
        if start.elapsed() >= limit && !timed_out {
            let _ = child.kill();
            timed_out = true;
            continue;
        }
        std::thread::sleep(Duration::from_millis(5));
    };
    let time_ms = start.elapsed().as_millis();
    let stdout = reader.join().unwrap_or_default();
    let code = status.and_then(|s| libc::WIFEXITED(s).then(|| libc::WEXITSTATUS(s)));
    Ok(ChildRun {
        stdout,
        code,
        timed_out,
        time_ms,
        peak_kib: peak,
        cpu_ms: cpu,
    })
}

/// Which engine to run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Engine {
    /// `lpmc check --engine cegar`.
    Cegar,
    /// `lpmc check` (the portfolio of all engines).
    Portfolio,
    /// `lpmc bmc --unwind K`.
    Bmc,
    /// `cbmc --unwind K`.
    Cbmc,
}

/// Run one engine on one program in a child process (`exe` is the `lpmc` binary), with
/// the time limit, bound and semantics of `opts`.
pub fn run_engine(
    exe: &Path,
    engine: Engine,
    program: &Path,
    opts: &RegressOptions,
) -> EngineResult {
    run_engine_with(exe, engine, program, opts, None)
}

/// [`run_engine`], and for `lpmc check` (CEGAR or the portfolio) the HTML report of the
/// check written to `report` (`--report`).
pub fn run_engine_with(
    exe: &Path,
    engine: Engine,
    program: &Path,
    opts: &RegressOptions,
    report: Option<&Path>,
) -> EngineResult {
    let (timeout_s, unwind) = (opts.timeout_s, opts.unwind.as_str());
    let mut cmd;
    match engine {
        Engine::Cegar | Engine::Portfolio => {
            cmd = Command::new(exe);
            let which = if engine == Engine::Cegar {
                "cegar"
            } else {
                "all"
            };
            cmd.arg("check")
                .arg("--engine")
                .arg(which)
                .arg("--json")
                .arg("--timeout")
                .arg(timeout_s.to_string());
            if let Some(r) = report {
                cmd.arg("--report").arg(r);
            }
        }
        Engine::Bmc => {
            cmd = Command::new(exe);
            cmd.arg("bmc")
                .arg("--json")
                .arg("--unwind")
                .arg(unwind)
                .arg("--timeout")
                .arg(timeout_s.to_string());
        }
        Engine::Cbmc => {
            cmd = Command::new("cbmc");
            let k = unwind.parse::<u32>().unwrap_or(12);
            cmd.arg("--unwind").arg(k.to_string());
        }
    }
    if let (Some(o), true) = (opts.signed_overflow, engine != Engine::Cbmc) {
        cmd.arg("--signed-overflow").arg(o.as_str());
    }
    if let (Some(b), true) = (opts.array_bounds, engine != Engine::Cbmc) {
        cmd.arg("--array-bounds").arg(b.as_str());
    }
    let task_input = (engine == Engine::Cbmc && is_task_file(program))
        .then(|| Task::read(program).ok())
        .flatten()
        .map(|t| t.input);
    cmd.arg(task_input.as_deref().unwrap_or(program));
    // The engines keep their own time limit (a watchdog answers UNKNOWN on time), so
    // the child is killed if it has not answered 0.5 s after it.
    let limit = Duration::from_secs_f64(timeout_s + 0.5);
    let run = match run_child(cmd, limit) {
        Ok(r) => r,
        Err(e) => {
            return EngineResult {
                reason: format!("cannot run: {e}"),
                ..EngineResult::status_only("ERROR", None, 0)
            }
        }
    };
    if run.timed_out {
        return EngineResult {
            peak_kib: run.peak_kib,
            cpu_ms: run.cpu_ms,
            reason: "killed at the time limit".into(),
            ..EngineResult::status_only("TIMEOUT", None, run.time_ms)
        };
    }
    if engine == Engine::Cbmc {
        let v = if run.stdout.contains("VERIFICATION SUCCESSFUL") {
            Some(Verdict::Safe)
        } else if run.stdout.contains("VERIFICATION FAILED") {
            Some(Verdict::Unsafe)
        } else {
            None
        };
        let status = v.map(|v| v.as_str()).unwrap_or("ERROR");
        return EngineResult {
            peak_kib: run.peak_kib,
            cpu_ms: run.cpu_ms,
            ..EngineResult::status_only(status, v, run.time_ms)
        };
    }
    if run.code == Some(2) {
        return EngineResult {
            peak_kib: run.peak_kib,
            cpu_ms: run.cpu_ms,
            reason: "invalid input".into(),
            ..EngineResult::status_only("BAD INPUT", None, run.time_ms)
        };
    }
    let mut r = parse_report(&run.stdout, run.time_ms, run.peak_kib);
    r.cpu_ms = run.cpu_ms;
    // The engine's own time is the more precise number (no process start-up).
    if let Ok(v) = serde_json::from_str::<serde_json::Value>(run.stdout.trim()) {
        if let Some(t) = v["time_ms"].as_u64() {
            r.time_ms = u128::from(t);
        }
    }
    r
}

/// Whether a `cbmc` binary is on PATH.
pub fn cbmc_available() -> bool {
    std::env::var_os("PATH").is_some_and(|p| {
        std::env::split_paths(&p).any(|d| {
            let f = d.join("cbmc");
            f.is_file()
        })
    })
}

/// Options of `lpmc regress`.
#[derive(Clone, Debug)]
pub struct RegressOptions {
    /// Per-engine, per-program time limit (s).
    pub timeout_s: f64,
    /// The bmc bound (`auto` or a number).
    pub unwind: String,
    /// Where to write each program's HTML check report (of the CEGAR engine), named by
    /// [`report_name`] (`--report-dir`).
    pub report_dir: Option<PathBuf>,
    /// What a signed overflow does (`--signed-overflow`; `None`: lpmc's default).
    pub signed_overflow: Option<crate::SignedOverflow>,
    /// What an out-of-bounds array access does (`--array-bounds`; `None`: lpmc's
    /// default, by the file).
    pub array_bounds: Option<crate::ArrayBounds>,
}

/// The file name of the check report of the `index`-th program (0-based) in
/// `--report-dir`: its position and its file name, so that programs of the same name in
/// different folders do not collide.
pub fn report_name(index: usize, program: &str) -> String {
    let stem: String = Path::new(program)
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default()
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '-' || c == '_' || c == '.' {
                c
            } else {
                '_'
            }
        })
        .collect();
    format!("{:03}-{stem}.html", index + 1)
}

/// Run both engines (and CBMC when available) on every program; `progress` is called
/// after each row.
pub fn run_all(
    exe: &Path,
    programs: &[PathBuf],
    opts: &RegressOptions,
    progress: &mut dyn FnMut(&Row),
) -> Vec<Row> {
    let cbmc = cbmc_available();
    let mut rows = Vec::new();
    for (i, p) in programs.iter().enumerate() {
        let program = p.display().to_string();
        let report = opts
            .report_dir
            .as_ref()
            .map(|d| d.join(report_name(i, &program)));
        let row = Row {
            expected: expected_for_file(p),
            cegar: run_engine_with(exe, Engine::Cegar, p, opts, report.as_deref()),
            program,
            bmc: run_engine(exe, Engine::Bmc, p, opts),
            portfolio: run_engine(exe, Engine::Portfolio, p, opts),
            cbmc: cbmc.then(|| run_engine(exe, Engine::Cbmc, p, opts)),
        };
        progress(&row);
        rows.push(row);
    }
    rows
}
