//! Array bounds as C defines them (`--array-bounds undefined|nondet|error`): our programs
//! with `// expect-bounds-nondet:` and `// expect-bounds-error:` headers give those
//! verdicts under the other two settings (`bounds`: an UNSAFE whose error is the
//! out-of-bounds access itself), a SAFE verdict under `undefined` names exactly the lines
//! of its `// assumes-in-bounds:` header, the interpreter stops at an out-of-bounds access
//! under `undefined`, and a differential test on random programs compares the three
//! settings with each other and with the same programs guarded by hand.

mod common;

use common::{header, lp_dir, sources, TEST_MEMORY_MB};
use lpmc::{
    bmc, load_path_with, load_with, run_inputs, ArrayBounds, BmcOptions, CheckOptions,
    EngineChoice, LoadOptions, Loaded, Outcome, RunOutcome, SourceFile, Unwind, Verdict,
};
use num_bigint::BigInt;
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::time::Instant;

const SETTINGS: [ArrayBounds; 3] = [
    ArrayBounds::Undefined,
    ArrayBounds::Nondet,
    ArrayBounds::Error,
];

fn opts(b: ArrayBounds) -> LoadOptions {
    LoadOptions {
        array_bounds: Some(b),
        ..LoadOptions::default()
    }
}

fn load(path: &Path, b: ArrayBounds) -> Loaded {
    load_path_with(path, &opts(b))
        .unwrap_or_else(|e| panic!("{} does not load:\n{}", path.display(), e.render(false)))
}

fn load_text(text: &str, b: ArrayBounds) -> Loaded {
    load_with(SourceFile::new("t.c", text), &opts(b))
        .unwrap_or_else(|e| panic!("does not load:\n{}\n{text}", e.render(false)))
}

fn check_options(timeout_s: f64) -> CheckOptions {
    CheckOptions {
        timeout_s: Some(timeout_s),
        memory_mb: TEST_MEMORY_MB,
        ..CheckOptions::default()
    }
}

fn portfolio(loaded: &Loaded, timeout_s: f64) -> lpmc::Report {
    lpmc::portfolio(loaded, &check_options(timeout_s), EngineChoice::All)
}

/// The programs with a `// key:` header.
fn with_header(key: &str) -> Vec<PathBuf> {
    sources(&lp_dir())
        .into_iter()
        .filter(|p| header(p, key).is_some())
        .collect()
}

/// The lines of an `// assumes-in-bounds:` header (`none`: no line).
fn assumed_lines(p: &Path) -> Option<Vec<u32>> {
    Some(match header(p, "assumes-in-bounds")?.as_str() {
        "none" => Vec::new(),
        list => list
            .split(',')
            .map(|l| {
                l.trim()
                    .parse()
                    .unwrap_or_else(|_| panic!("{}: bad line `{l}`", p.display()))
            })
            .collect(),
    })
}

/// The lines where an execution may go out of bounds: those of the program's array
/// accesses (code with `[`). A proof may assume a later access in bounds than the first
/// one an execution passes (it needs only that one), so the assumed lines are a subset.
fn access_lines(p: &Path) -> Vec<u32> {
    std::fs::read_to_string(p)
        .expect("the program")
        .lines()
        .enumerate()
        .filter(|(_, l)| l.split("//").next().unwrap_or_default().contains('['))
        .map(|(i, _)| i as u32 + 1)
        .collect()
}

fn is_open(p: &Path) -> bool {
    header(p, "open").is_some()
}

/// Whether an outcome is what a header value says: `safe`, `unsafe`, or `bounds` (an
/// UNSAFE whose error is an out-of-bounds access).
fn matches(o: &Outcome, want: &str) -> bool {
    match want {
        "bounds" => o.counterexample().is_some_and(|c| c.bounds_error),
        "unsafe" => o.verdict() == Verdict::Unsafe,
        "safe" => o.verdict() == Verdict::Safe,
        other => panic!("unknown expectation `{other}`"),
    }
}

/// The folder of the twins has one for every place an access can be, and each program
/// there has the full set of headers.
#[test]
fn the_bounds_programs_have_their_headers() {
    let dir = lp_dir().join("bounds");
    let progs = sources(&dir);
    assert!(
        progs.len() >= 18,
        "only {} programs in bounds/",
        progs.len()
    );
    for p in &progs {
        let expect = header(p, "expect").unwrap_or_else(|| panic!("{}: no expect", p.display()));
        assert!(header(p, "why").is_some(), "{}: no why", p.display());
        assert!(
            header(p, "expect-bounds-nondet").is_some()
                && header(p, "expect-bounds-error").is_some(),
            "{}: no expect-bounds-nondet/-error",
            p.display()
        );
        let text = std::fs::read_to_string(p).unwrap();
        let mut lines = text.lines();
        assert!(
            lines.next().is_some_and(|l| l.starts_with("// expect: "))
                && lines.next().is_some_and(|l| l.starts_with("// why: ")),
            "{}: `// expect:` on line 1, `// why:` on line 2",
            p.display()
        );
        // A twin has a bug in bounds (UNSAFE whatever an access out of bounds does); the
        // other is SAFE only because such an access is undefined.
        let twin = p.to_string_lossy().ends_with("_unsafe.c");
        let want = if twin {
            ["unsafe", "unsafe", "unsafe"]
        } else {
            ["safe", "unsafe", "bounds"]
        };
        let got = [
            expect,
            header(p, "expect-bounds-nondet").unwrap(),
            header(p, "expect-bounds-error").unwrap(),
        ];
        assert_eq!(got, want, "{}", p.display());
        // A SAFE one is SAFE only because an out-of-bounds access is undefined: it lists
        // the accesses its proof needs (an open one cannot be checked for them yet).
        if !twin {
            assert!(
                assumed_lines(p).is_some_and(|l| !l.is_empty()) || is_open(p),
                "{}: no assumes-in-bounds lines",
                p.display()
            );
        }
        // Each safe one has its twin.
        if !twin {
            let t = p.with_file_name(format!(
                "{}_unsafe.c",
                p.file_stem().unwrap().to_string_lossy()
            ));
            assert!(t.is_file() || is_open(p), "{}: no twin", p.display());
        }
    }
}

#[test]
fn programs_give_their_verdicts_under_nondet_and_error() {
    let mut wrong = Vec::new();
    let mut n = 0;
    for (key, setting) in [
        ("expect-bounds-nondet", ArrayBounds::Nondet),
        ("expect-bounds-error", ArrayBounds::Error),
    ] {
        for p in with_header(key) {
            let want = header(&p, key).unwrap();
            let loaded = load(&p, setting);
            assert_eq!(loaded.semantics().array_bounds, setting);
            let r = portfolio(&loaded, 30.0);
            n += 1;
            // No engine may contradict the expectation, and the portfolio must decide.
            let want_verdict = if want == "safe" {
                Verdict::Safe
            } else {
                Verdict::Unsafe
            };
            for e in &r.engines {
                if e.verdict != Verdict::Unknown && e.verdict != want_verdict {
                    wrong.push(format!(
                        "{} ({key}): the {} engine said {:?} ({})",
                        p.display(),
                        e.engine.as_str(),
                        e.verdict,
                        e.reason
                    ));
                }
            }
            if !matches(&r.outcome, &want) {
                wrong.push(format!(
                    "{} ({key}): expected {want}, got {}",
                    p.display(),
                    r.outcome.reason()
                ));
                continue;
            }
            let Some(c) = r.outcome.counterexample() else {
                continue;
            };
            // Under nondet, an error that no defined execution reaches is reached through
            // an out-of-bounds access, and the counterexample says where: at one of the
            // program's array accesses. Under error, the error of a `bounds` program is
            // one of those accesses.
            let through = header(&p, "expect").as_deref() == Some("safe");
            let lines = assumed_lines(&p).map(|_| access_lines(&p));
            match setting {
                ArrayBounds::Nondet if through => {
                    let ok = match (c.out_of_bounds_line, &lines) {
                        (Some(l), Some(lines)) => lines.contains(&l),
                        (Some(_), None) => true,
                        (None, _) => false,
                    };
                    if !ok || c.bounds_error {
                        wrong.push(format!(
                            "{} (nondet): out_of_bounds_line {:?}, bounds_error {}, want one of {lines:?}",
                            p.display(),
                            c.out_of_bounds_line,
                            c.bounds_error
                        ));
                    }
                }
                ArrayBounds::Error => {
                    if c.out_of_bounds_line.is_some() {
                        wrong.push(format!(
                            "{} (error): the trace goes on past an out-of-bounds access at line {:?}",
                            p.display(),
                            c.out_of_bounds_line
                        ));
                    }
                    if let (true, Some(lines)) = (want == "bounds", &lines) {
                        if !lines.contains(&c.error_line) {
                            wrong.push(format!(
                                "{} (error): bounds error at line {}, want one of {lines:?}",
                                p.display(),
                                c.error_line
                            ));
                        }
                    }
                }
                _ => {}
            }
        }
    }
    assert!(n >= 40, "only {n} checks");
    assert!(wrong.is_empty(), "wrong verdicts:\n{}", wrong.join("\n"));
}

/// Under `undefined` (the default for C files) no counterexample goes through an
/// out-of-bounds access, and an open program (one lpmc cannot prove yet) is never UNSAFE.
#[test]
fn undefined_counterexamples_stay_in_bounds() {
    let progs = with_header("expect-bounds-nondet");
    let mut unsafe_seen = 0;
    for p in progs {
        let loaded = lpmc::load_path(&p).expect("loads");
        assert_eq!(
            loaded.semantics().array_bounds,
            ArrayBounds::Undefined,
            "{}: the default for C files",
            p.display()
        );
        let expect = header(&p, "expect").unwrap();
        if is_open(&p) {
            let r = portfolio(&loaded, 5.0);
            for e in &r.engines {
                assert_ne!(e.verdict, Verdict::Unsafe, "{}: {}", p.display(), e.reason);
            }
            continue;
        }
        if expect != "unsafe" {
            continue;
        }
        let r = portfolio(&loaded, 30.0);
        let c = r
            .outcome
            .counterexample()
            .unwrap_or_else(|| panic!("{}: {}", p.display(), r.outcome.reason()));
        assert_eq!(c.out_of_bounds_line, None, "{}", p.display());
        assert!(!c.bounds_error, "{}", p.display());
        assert!(
            !r.outcome.reason().contains("out of bounds"),
            "{}",
            r.outcome.reason()
        );
        unsafe_seen += 1;
    }
    assert!(unsafe_seen >= 9, "only {unsafe_seen} unsafe twins");
}

#[test]
fn safe_verdicts_name_the_accesses_they_assume_in_bounds() {
    let progs = with_header("assumes-in-bounds");
    assert!(progs.len() >= 12, "only {} programs", progs.len());
    let mut wrong = Vec::new();
    for p in progs {
        let r = portfolio(&load(&p, ArrayBounds::Undefined), 30.0);
        let Outcome::Safe(proof) = &r.outcome else {
            panic!("{}: {}", p.display(), r.outcome.reason());
        };
        let want = assumed_lines(&p).unwrap();
        if proof.assumed_in_bounds != want {
            wrong.push(format!(
                "{}: the {} engine's proof assumed lines {:?}, the header says {want:?}",
                p.display(),
                proof.engine.as_str(),
                proof.assumed_in_bounds
            ));
        }
        // The headline and the JSON name the proof's lines.
        let want = proof.assumed_in_bounds.clone();
        let headline = r.outcome.headline();
        if want.is_empty() {
            assert_eq!(headline, "SAFE");
        } else {
            let lines = want
                .iter()
                .map(u32::to_string)
                .collect::<Vec<_>>()
                .join(", ");
            let s = if want.len() == 1 { "" } else { "s" };
            let named = format!(
                "assuming every array access is in bounds (undefined in C otherwise) at line{s} {lines}; `--array-bounds error` checks"
            );
            // After the overflows the proof assumed away, if any.
            assert!(
                headline.starts_with("SAFE, assuming ") && headline.contains(&named),
                "{}: {headline}",
                p.display()
            );
            if proof.assumed_no_overflow.is_empty() {
                assert!(
                    headline.starts_with(&format!("SAFE, {named}")),
                    "{}: {headline}",
                    p.display()
                );
            }
        }
        // `--json` carries the semantics and the lines.
        let json = serde_json::to_value(&r).unwrap();
        assert_eq!(json["semantics"]["array_bounds"], "undefined", "{json}");
        let lines: Vec<u64> = json["proof"]["assumed_in_bounds"]
            .as_array()
            .cloned()
            .unwrap_or_default()
            .iter()
            .map(|l| l.as_u64().expect("a line"))
            .collect();
        let want64: Vec<u64> = want.iter().map(|&l| l.into()).collect();
        assert_eq!(lines, want64, "{json}");
        // Under `nondet` and `error` nothing is assumed.
        for s in [ArrayBounds::Nondet, ArrayBounds::Error] {
            let r = portfolio(&load(&p, s), 30.0);
            if let Outcome::Safe(proof) = &r.outcome {
                assert!(proof.assumed_in_bounds.is_empty(), "{}", p.display());
                let json = serde_json::to_value(&r).unwrap();
                assert_eq!(json["semantics"]["array_bounds"], s.as_str());
                assert!(json["proof"].get("assumed_in_bounds").is_none(), "{json}");
            }
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

/// Whichever engine proves a program (the CEGAR engine alone, bmc alone) assumes some
/// access in bounds, and names only lines that access an array: under nondet these
/// programs are UNSAFE, so a proof that assumed nothing would be unsound. (Which accesses
/// it names may differ from the header where another choice also makes a proof: the
/// header's lines are those whose index the program does not keep in range itself, which
/// the portfolio's proof must name exactly, see above.)
#[test]
fn every_engine_assumes_some_access_in_bounds() {
    let mut proofs = 0;
    for p in with_header("assumes-in-bounds") {
        if assumed_lines(&p).unwrap().is_empty() {
            continue;
        }
        let text = std::fs::read_to_string(&p).unwrap();
        let source: Vec<&str> = text.lines().collect();
        let loaded = load(&p, ArrayBounds::Undefined);
        let cegar = lpmc::check(&loaded, &check_options(30.0)).outcome;
        let b = bmc(
            &loaded,
            &BmcOptions {
                unwind: Unwind::Fixed(12),
                timeout_s: Some(10.0),
                memory_mb: TEST_MEMORY_MB,
                ..BmcOptions::default()
            },
        )
        .outcome;
        for (engine, o) in [("cegar", cegar), ("bmc", b)] {
            assert_ne!(o.verdict(), Verdict::Unsafe, "{} ({engine})", p.display());
            if let Outcome::Safe(proof) = &o {
                proofs += 1;
                let got = &proof.assumed_in_bounds;
                assert!(
                    !got.is_empty(),
                    "{} ({engine}): nothing assumed",
                    p.display()
                );
                for &l in got {
                    let line = source.get(l as usize - 1).copied().unwrap_or_default();
                    assert!(
                        line.contains('[') && !line.starts_with("//"),
                        "{} ({engine}): line {l} accesses no array: {line}",
                        p.display()
                    );
                }
            }
        }
    }
    assert!(proofs >= 12, "only {proofs} proofs");
}

const READ: &str = "extern int __VERIFIER_nondet_int(void);
void reach_error() {}
int main() {
  int a[3] = {1, 2, 3};
  int i = __VERIFIER_nondet_int();
  int x = i >= 0 && a[i] == 2;
  int y = i < 3 ? a[i] : 0;
  a[i] = 5;
  if (x + y == 7) reach_error();
  return 0;
}";

fn run(text: &str, b: ArrayBounds, inputs: &[i64]) -> RunOutcome {
    let inputs = inputs.iter().map(|&v| BigInt::from(v)).collect();
    run_inputs(&load_text(text, b), inputs, 10_000).outcome
}

#[test]
fn the_interpreter_stops_at_an_out_of_bounds_access() {
    // i = 3: `a[3]` in the `&&` is read (line 6); under nondet it reads the next input.
    assert_eq!(
        run(READ, ArrayBounds::Undefined, &[3, 2, 5]),
        RunOutcome::OutOfBounds { line: 6 }
    );
    let r = run(READ, ArrayBounds::Undefined, &[3]);
    assert!(!r.is_error());
    assert!(
        r.describe(100).contains("out of bounds at line 6"),
        "{}",
        r.describe(100)
    );
    // Under nondet the read at line 6 is 2 (x = 1), the one at line 7 is not evaluated
    // (y = 0), the write does nothing: no error; under error the read is the error.
    assert_eq!(
        run(READ, ArrayBounds::Nondet, &[3, 2]),
        RunOutcome::Finished
    );
    assert_eq!(
        run(READ, ArrayBounds::Error, &[3, 2]),
        RunOutcome::Error { line: 6 }
    );
    // i = -1: `&&` stops before a[-1]; `?:` reads a[-1] at line 7.
    assert_eq!(
        run(READ, ArrayBounds::Undefined, &[-1, 7]),
        RunOutcome::OutOfBounds { line: 7 }
    );
    assert_eq!(
        run(READ, ArrayBounds::Nondet, &[-1, 7]),
        RunOutcome::Error { line: 9 }
    );
    assert_eq!(
        run(READ, ArrayBounds::Error, &[-1, 7]),
        RunOutcome::Error { line: 7 }
    );
    // In bounds, the three agree: i = 1 gives x = 1, y = 2, and the write is in bounds.
    for b in SETTINGS {
        assert_eq!(run(READ, b, &[1]), RunOutcome::Finished, "{b:?}");
    }
    // A write out of bounds ends the run too: without the read at line 6, i = 4 skips
    // the `?:` read and writes a[4] at line 8.
    let write = READ.replace("int x = i >= 0 && a[i] == 2;", "int x = 0;");
    assert_eq!(
        run(&write, ArrayBounds::Undefined, &[4]),
        RunOutcome::OutOfBounds { line: 8 }
    );
    assert_eq!(run(&write, ArrayBounds::Nondet, &[4]), RunOutcome::Finished);
    assert_eq!(
        run(&write, ArrayBounds::Error, &[4]),
        RunOutcome::Error { line: 8 }
    );
}

/// Random runs of the programs that are SAFE only because an out-of-bounds access is
/// undefined: under undefined none reaches the error, and some stop out of bounds.
#[test]
fn random_runs_of_the_safe_programs_never_reach_the_error() {
    let mut stopped = 0;
    let mut progs = 0;
    for p in with_header("assumes-in-bounds") {
        if header(&p, "expect-bounds-nondet").as_deref() != Some("unsafe") {
            continue;
        }
        progs += 1;
        let loaded = load(&p, ArrayBounds::Undefined);
        let mut oob = 0;
        for seed in 0..300 {
            let o = lpmc::run_random(&loaded, seed, 100_000).outcome;
            assert!(!o.is_error(), "{} seed {seed}: {o:?}", p.display());
            if let RunOutcome::OutOfBounds { line } = o {
                assert!(
                    access_lines(&p).contains(&line),
                    "{}: out of bounds at line {line}",
                    p.display()
                );
                oob += 1;
            }
        }
        assert!(oob > 0, "{}: no run went out of bounds", p.display());
        stopped += oob;
    }
    assert!(progs >= 12, "only {progs} programs");
    assert!(stopped > 0);
}

/// `lpmc run` says where a run stopped, and does not exit 10 (the error's code); the
/// command line's `--check-bounds` is `--array-bounds error`.
#[test]
fn the_command_line_reports_out_of_bounds() {
    let bin = env!("CARGO_BIN_EXE_lpmc");
    let prog = lp_dir().join("bounds/read_assign.c");
    let out = std::process::Command::new(bin)
        .arg("run")
        .arg(&prog)
        .args(["--inputs", "7,3"])
        .output()
        .expect("runs");
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{text}");
    assert!(text.contains("out of bounds at line 10"), "{text}");
    let out = std::process::Command::new(bin)
        .arg("run")
        .arg(&prog)
        .args(["--inputs", "7,3", "--array-bounds", "nondet"])
        .output()
        .expect("runs");
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(10), "{text}");
    let json = |args: &[&str]| -> serde_json::Value {
        let out = std::process::Command::new(bin)
            .arg("check")
            .arg(&prog)
            .args(["--json", "--timeout", "30"])
            .args(args)
            .output()
            .expect("runs");
        serde_json::from_slice(&out.stdout).expect("JSON")
    };
    let a = json(&["--check-bounds"]);
    let b = json(&["--array-bounds", "error"]);
    for j in [&a, &b] {
        assert_eq!(j["semantics"]["array_bounds"], "error", "{j}");
        assert_eq!(j["trace"]["bounds_error"], true, "{j}");
        assert_eq!(j["trace"]["error_line"], 10, "{j}");
    }
    let d = json(&[]);
    assert_eq!(d["semantics"]["array_bounds"], "undefined", "{d}");
    assert_eq!(
        d["proof"]["assumed_in_bounds"],
        serde_json::json!([10]),
        "{d}"
    );
    let n = json(&["--array-bounds", "nondet"]);
    assert_eq!(n["trace"]["out_of_bounds_line"], 10, "{n}");
}

/// `.lp` files keep EUREKA's rule by default; the option overrides it.
#[test]
fn lp_files_default_to_nondet() {
    let src = "void main() { int a[2] = {0, 0}; int i; i = u; if (a[i] != 0) { ERROR: ; } }";
    let lp = |b: Option<ArrayBounds>| {
        load_with(
            SourceFile::new("t.lp", src),
            &LoadOptions {
                array_bounds: b,
                ..LoadOptions::default()
            },
        )
        .unwrap()
    };
    let loaded = lp(None);
    assert_eq!(loaded.semantics().array_bounds, ArrayBounds::Nondet);
    let r = portfolio(&loaded, 30.0);
    assert_eq!(r.verdict(), Verdict::Unsafe, "{}", r.outcome.reason());
    let c = r.outcome.counterexample().unwrap();
    assert_eq!(c.out_of_bounds_line, Some(1));
    let loaded = lp(Some(ArrayBounds::Undefined));
    assert_eq!(loaded.semantics().array_bounds, ArrayBounds::Undefined);
    let r = portfolio(&loaded, 30.0);
    let Outcome::Safe(proof) = &r.outcome else {
        panic!("{}", r.outcome.reason());
    };
    assert_eq!(proof.assumed_in_bounds, vec![1]);
    let r = portfolio(&lp(Some(ArrayBounds::Error)), 30.0);
    assert!(
        r.outcome.counterexample().is_some_and(|c| c.bounds_error),
        "{}",
        r.outcome.reason()
    );
}

// ---------------------------------------------------------------------------------------
// The differential test.

/// An expression and when its evaluation accesses an array out of bounds (`None`: never),
/// as a C condition over the same state (evaluated before the expression, so it reads
/// only in-bounds cells itself: `||` and `?:` stop before an access they guard).
struct E {
    text: String,
    oob: Option<String>,
}

fn either(a: Option<String>, b: Option<String>) -> Option<String> {
    match (a, b) {
        (Some(a), Some(b)) => Some(format!("({a} || {b})")),
        (a, b) => a.or(b),
    }
}

/// A random program with arrays (a global `g`, a local `a` with an initialiser, a VLA
/// `v[n]`, and `f(p)` reading `g[p]`), and the same program with every access guarded by
/// hand: on the line of each statement with accesses, `if (OOB) __VERIFIER_assume(0);`
/// before it, where OOB holds exactly when the statement would access an array out of
/// bounds. Its inputs are `x`, `y`, `z` and `n` (`1 <= n <= 3` is assumed).
struct Program {
    text: String,
    guarded: String,
    /// The lines with a hand-written guard.
    guard_lines: BTreeSet<u32>,
}

struct Gen {
    rng: StdRng,
    /// (statement, its guard) per line of `main`'s body.
    lines: Vec<(String, Option<String>)>,
    in_loop: bool,
    g_size: i64,
    a_size: i64,
}

const VARS: &[&str] = &["x", "y", "z", "t"];

impl Gen {
    fn new(seed: u64) -> Gen {
        let mut rng = StdRng::seed_from_u64(seed);
        let (g_size, a_size) = (rng.gen_range(2..=4), rng.gen_range(2..=4));
        Gen {
            rng,
            lines: Vec::new(),
            in_loop: false,
            g_size,
            a_size,
        }
    }

    fn pick<'a>(&mut self, xs: &[&'a str]) -> &'a str {
        xs[self.rng.gen_range(0..xs.len())]
    }

    fn var(&mut self) -> String {
        if self.in_loop && self.rng.gen_bool(0.4) {
            return "i".into();
        }
        self.pick(VARS).into()
    }

    /// An array and its size.
    fn array(&mut self) -> (&'static str, String) {
        match self.rng.gen_range(0..3) {
            0 => ("g", self.g_size.to_string()),
            1 => ("a", self.a_size.to_string()),
            _ => ("v", "n".into()),
        }
    }

    fn index(&mut self, depth: u32) -> E {
        let text = match self.rng.gen_range(0..10) {
            0..=2 if self.rng.gen_bool(0.7) => self.rng.gen_range(0..=1).to_string(),
            0..=2 => self.rng.gen_range(-1..=4).to_string(),
            3..=5 => self.var(),
            6 | 7 => {
                let (v, o, c) = (
                    self.var(),
                    self.pick(&["+", "-"]),
                    self.rng.gen_range(1..=2),
                );
                format!("({v} {o} {c})")
            }
            _ if depth > 0 => return self.access(depth - 1),
            _ => self.var(),
        };
        E { text, oob: None }
    }

    fn in_range(idx: &str, size: &str) -> String {
        format!("!(0 <= {idx} && {idx} < {size})")
    }

    fn access(&mut self, depth: u32) -> E {
        let (arr, size) = self.array();
        let idx = self.index(depth);
        E {
            text: format!("{arr}[{}]", idx.text),
            oob: either(idx.oob, Some(Self::in_range(&idx.text, &size))),
        }
    }

    fn expr(&mut self, depth: u32) -> E {
        match self.rng.gen_range(0..10) {
            0 | 1 => E {
                text: self.rng.gen_range(-2..=5).to_string(),
                oob: None,
            },
            2 | 3 => E {
                text: self.var(),
                oob: None,
            },
            4..=6 => self.access(depth.min(1)),
            7 | 8 if depth > 0 => {
                let (l, r) = (self.expr(depth - 1), self.expr(depth - 1));
                let o = self.pick(&["+", "-"]);
                E {
                    text: format!("({} {o} {})", l.text, r.text),
                    oob: either(l.oob, r.oob),
                }
            }
            9 if depth > 0 => {
                let c = self.cond(depth - 1);
                let (a, b) = (self.expr(depth - 1), self.expr(depth - 1));
                let branch = match (&a.oob, &b.oob) {
                    (None, None) => None,
                    (x, y) => Some(format!(
                        "({} ? {} : {})",
                        c.text,
                        x.as_deref().unwrap_or("0"),
                        y.as_deref().unwrap_or("0")
                    )),
                };
                E {
                    text: format!("({} ? {} : {})", c.text, a.text, b.text),
                    oob: either(c.oob, branch),
                }
            }
            _ => self.access(0),
        }
    }

    fn cond(&mut self, depth: u32) -> E {
        match self.rng.gen_range(0..6) {
            0 if depth > 0 => {
                let (l, r) = (self.cond(depth - 1), self.cond(depth - 1));
                let right = r.oob.map(|o| format!("({} && {o})", l.text));
                E {
                    text: format!("({} && {})", l.text, r.text),
                    oob: either(l.oob, right),
                }
            }
            1 if depth > 0 => {
                let (l, r) = (self.cond(depth - 1), self.cond(depth - 1));
                let right = r.oob.map(|o| format!("(!{} && {o})", l.text));
                E {
                    text: format!("({} || {})", l.text, r.text),
                    oob: either(l.oob, right),
                }
            }
            _ => {
                let (l, r) = (self.expr(depth.min(1)), self.expr(0));
                let o = self.pick(&["<", "<=", "==", "!=", ">", ">="]);
                E {
                    text: format!("({} {o} {})", l.text, r.text),
                    oob: either(l.oob, r.oob),
                }
            }
        }
    }

    fn push(&mut self, stmt: String, guard: Option<String>) {
        self.lines.push((stmt, guard));
    }

    /// A statement; `errors`: whether it may be (or contain) a `reach_error()`.
    fn stmt(&mut self, depth: u32, errors: bool) {
        match self.rng.gen_range(0..13) {
            0..=2 => {
                let (v, e) = (self.pick(VARS), self.expr(2));
                self.push(format!("{v} = {};", e.text), e.oob);
            }
            3..=5 => {
                let (arr, size) = self.array();
                let (idx, e) = (self.index(1), self.expr(1));
                let guard = either(
                    either(idx.oob, e.oob),
                    Some(Self::in_range(&idx.text, &size)),
                );
                self.push(format!("{arr}[{}] = {};", idx.text, e.text), guard);
            }
            6 if depth > 0 => {
                let c = self.cond(1);
                self.push(format!("if {} {{", c.text), c.oob);
                for _ in 0..self.rng.gen_range(1..=2) {
                    self.stmt(depth - 1, errors);
                }
                self.push("} else {".into(), None);
                self.stmt(depth - 1, errors);
                self.push("}".into(), None);
            }
            7 if depth > 0 && !self.in_loop => {
                let k = self.pick(&["1", "2", "3", "4", "n", "n + 1"]);
                self.push(format!("for (i = 0; i < {k}; i++) {{"), None);
                self.in_loop = true;
                for _ in 0..self.rng.gen_range(1..=2) {
                    self.stmt(depth - 1, errors);
                }
                self.in_loop = false;
                self.push("}".into(), None);
            }
            8 | 11 if errors => {
                let c = self.cond(1);
                self.push(format!("if {} {{ reach_error(); }}", c.text), c.oob);
            }
            9 => {
                let (v, idx) = (self.pick(VARS), self.index(1));
                self.push(format!("{v} = f({});", idx.text), idx.oob);
            }
            10 => {
                // Mostly true: most executions go on.
                let (v, o, c) = (
                    self.pick(&["x", "y", "z"]),
                    self.pick(&["<", ">", "!="]),
                    self.rng.gen_range(-1..=3),
                );
                let c = match o {
                    "<" => c + 4,
                    ">" => c - 3,
                    _ => c,
                };
                self.push(format!("__VERIFIER_assume({v} {o} {c});"), None);
            }
            _ => {
                let (v, e) = (self.pick(VARS), self.access(1));
                self.push(format!("{v} = {};", e.text), e.oob);
            }
        }
    }

    /// The program around `main`'s body.
    fn program(&self) -> Program {
        let (g, a) = (self.g_size, self.a_size);
        let init: Vec<String> = (0..a).map(|k| ((k * 3) % 5).to_string()).collect();
        let f_guard = Self::in_range("p", &g.to_string());
        let v_guard = Self::in_range("i", "n");
        // (line, its guard)
        let mut lines: Vec<(String, Option<String>)> = vec![
            ("extern int __VERIFIER_nondet_int(void);".into(), None),
            ("extern void __VERIFIER_assume(int);".into(), None),
            ("void reach_error() {}".into(), None),
            (format!("int g[{g}];"), None),
            ("int f(int p) {".into(), None),
            ("  return g[p] + 1;".into(), Some(f_guard)),
            ("}".into(), None),
            ("int main() {".into(), None),
            ("  int x = __VERIFIER_nondet_int();".into(), None),
            ("  int y = __VERIFIER_nondet_int();".into(), None),
            ("  int z = __VERIFIER_nondet_int();".into(), None),
            ("  int n = __VERIFIER_nondet_int();".into(), None),
            ("  __VERIFIER_assume(1 <= n && n <= 3);".into(), None),
            ("  int i = 0, t = 0;".into(), None),
            (format!("  int a[{a}] = {{{}}};", init.join(", ")), None),
            ("  int v[n];".into(), None),
            ("  for (i = 0; i < n; i++) {".into(), None),
            ("    v[i] = i;".into(), Some(v_guard)),
            ("  }".into(), None),
        ];
        lines.extend(
            self.lines
                .iter()
                .map(|(s, g)| (format!("  {s}"), g.clone())),
        );
        lines.push(("  return 0;".into(), None));
        lines.push(("}".into(), None));
        let mut text = String::new();
        let mut guarded = String::new();
        let mut guard_lines = BTreeSet::new();
        for (k, (s, g)) in lines.iter().enumerate() {
            text += s;
            text.push('\n');
            if let Some(g) = g {
                guard_lines.insert(k as u32 + 1);
                let indent = s.len() - s.trim_start().len();
                guarded += &format!(
                    "{}if ({g}) __VERIFIER_assume(0); {}",
                    &s[..indent],
                    s.trim_start()
                );
            } else {
                guarded += s;
            }
            guarded.push('\n');
        }
        Program {
            text,
            guarded,
            guard_lines,
        }
    }
}

/// A random program whose statements may reach an error anywhere.
fn random_program(seed: u64) -> Program {
    let mut g = Gen::new(seed);
    for _ in 0..g.rng.gen_range(2..=6) {
        g.stmt(2, true);
    }
    g.program()
}

/// A random program in which every path to the error goes through an access out of
/// bounds: statements without errors, then an index forced out of its array's range
/// and an access there (a read feeding the error's condition, a write, or a call of
/// `f`), then the error (maybe under a condition).
fn error_after_oob_program(seed: u64) -> Program {
    let mut g = Gen::new(seed);
    for _ in 0..g.rng.gen_range(1..=4) {
        g.stmt(2, false);
    }
    let (arr, size) = match g.rng.gen_range(0..4) {
        0 => ("g", g.g_size.to_string()),
        1 => ("a", g.a_size.to_string()),
        2 => ("v", "n".to_string()),
        _ => ("f", g.g_size.to_string()),
    };
    let from = g.pick(&["x", "y", "z"]);
    g.push(format!("t = {from};"), None);
    g.push(format!("if (0 <= t && t < {size}) t = t + {size};"), None);
    let c = g.cond(0);
    let c = if c.oob.is_some() || g.rng.gen_bool(0.3) {
        "1".to_string()
    } else {
        c.text
    };
    let guard = Some(Gen::in_range("t", &size));
    match (arr, g.rng.gen_range(0..2)) {
        ("f", _) => g.push("y = f(t);".into(), None),
        (_, 0) => g.push(format!("y = {arr}[t];"), guard),
        _ => g.push(format!("{arr}[t] = 5;"), guard),
    }
    g.push(format!("if (y == 5 || {c}) {{ reach_error(); }}"), None);
    g.program()
}

/// Input vectors for `x`, `y`, `z`, `n` (mostly small, `n` mostly in 1..=3).
fn inputs(rng: &mut StdRng, count: usize) -> Vec<Vec<i64>> {
    (0..count)
        .map(|_| {
            let mut v: Vec<i64> = (0..3)
                .map(|_| {
                    if rng.gen_bool(0.8) {
                        rng.gen_range(0..=2)
                    } else {
                        rng.gen_range(-2..=6)
                    }
                })
                .collect();
            v.push(if rng.gen_bool(0.9) {
                rng.gen_range(1..=3)
            } else {
                rng.gen_range(0..=4)
            });
            // Values that out-of-bounds reads take under nondet.
            v.extend((0..3).map(|_| rng.gen_range(-1..=6)));
            v
        })
        .collect()
}

/// What the interpreter does with `inputs` on the program under each setting, against the
/// hand-guarded program (run under nondet, where its guards keep every access in bounds).
/// Returns the outcome under undefined and under nondet.
fn compare_runs(p: &Program, loaded: &[Loaded; 4], inputs: &[i64]) -> (RunOutcome, RunOutcome) {
    let run = |l: &Loaded| {
        let v = inputs.iter().map(|&x| BigInt::from(x)).collect();
        run_inputs(l, v, 10_000).outcome
    };
    let [und, non, err, guarded] = loaded;
    let (u, n, e, r) = (run(und), run(non), run(err), run(guarded));
    let ctx = || format!("inputs {inputs:?}\n{}", p.text);
    // The guarded program stops at a guard exactly where the program accesses an array
    // out of bounds, and only there.
    let want_u = match r {
        RunOutcome::Blocked { line, .. } if p.guard_lines.contains(&line) => {
            RunOutcome::OutOfBounds { line }
        }
        o => o,
    };
    assert_eq!(u, want_u, "undefined vs the guarded program: {}", ctx());
    match u {
        RunOutcome::OutOfBounds { line } => {
            assert_eq!(e, RunOutcome::Error { line }, "error: {}", ctx());
        }
        _ => {
            // No access out of bounds: the three settings run the same execution.
            assert_eq!(n, u, "nondet: {}", ctx());
            assert_eq!(e, u, "error: {}", ctx());
        }
    }
    (u, n)
}

fn load_all(p: &Program) -> [Loaded; 4] {
    [
        load_text(&p.text, ArrayBounds::Undefined),
        load_text(&p.text, ArrayBounds::Nondet),
        load_text(&p.text, ArrayBounds::Error),
        load_text(&p.guarded, ArrayBounds::Nondet),
    ]
}

#[test]
fn differential_interpreter_on_random_programs() {
    let start = Instant::now();
    let mut rng = StdRng::seed_from_u64(0xB00D5);
    let (mut oob, mut errors, mut differ, mut runs) = (0, 0, 0, 0);
    for seed in 0..400 {
        let p = random_program(seed);
        let loaded = load_all(&p);
        for v in inputs(&mut rng, 8) {
            let (u, n) = compare_runs(&p, &loaded, &v);
            runs += 1;
            match u {
                RunOutcome::OutOfBounds { .. } => {
                    oob += 1;
                    differ += usize::from(n != RunOutcome::Finished);
                }
                RunOutcome::Error { .. } => errors += 1,
                _ => {}
            }
        }
    }
    eprintln!(
        "differential interpreter: {runs} runs, {oob} out of bounds ({differ} of them not finishing under nondet), {errors} errors, {:.1} s",
        start.elapsed().as_secs_f64()
    );
    // The sample exercises both kinds of ends.
    assert!(
        oob >= runs / 10,
        "only {oob} of {runs} runs went out of bounds"
    );
    assert!(
        errors >= runs / 20,
        "only {errors} of {runs} runs reached an error"
    );
    assert!(differ > 0);
}

fn bmc_options() -> BmcOptions {
    BmcOptions {
        unwind: Unwind::Fixed(6),
        timeout_s: Some(5.0),
        memory_mb: TEST_MEMORY_MB,
        ..BmcOptions::default()
    }
}

/// The engines against the interpreter: on programs whose every error path goes out of
/// bounds, neither the CEGAR engine nor bmc answers UNSAFE under undefined (and where a
/// run reaches the error under nondet, neither answers SAFE there); on random programs, a
/// run that reaches the error under undefined rules out SAFE, and an UNSAFE under
/// undefined never passes through an access out of bounds.
#[test]
fn differential_engines_on_random_programs() {
    const PROGRAMS: u64 = 24;
    let start = Instant::now();
    let mut rng = StdRng::seed_from_u64(0xDDB0);
    let mut safe_undefined = 0;
    let mut unsafe_nondet = 0;
    let mut decided = 0;
    let cegar = |l: &Loaded| lpmc::check(l, &check_options(5.0)).outcome;
    let bounded = |l: &Loaded| bmc(l, &bmc_options()).outcome;
    for seed in 0..PROGRAMS {
        let p = error_after_oob_program(1000 + seed);
        let loaded = load_all(&p);
        let mut reached_nondet = false;
        for v in inputs(&mut rng, 12) {
            let (u, n) = compare_runs(&p, &loaded, &v);
            assert!(!u.is_error(), "{v:?}\n{}", p.text);
            reached_nondet |= n.is_error();
        }
        for (engine, o) in [("cegar", cegar(&loaded[0])), ("bmc", bounded(&loaded[0]))] {
            assert_ne!(
                o.verdict(),
                Verdict::Unsafe,
                "{engine} under undefined: {}\n{}",
                o.reason(),
                p.text
            );
            safe_undefined += usize::from(o.verdict() == Verdict::Safe);
        }
        for (engine, o) in [("cegar", cegar(&loaded[1])), ("bmc", bounded(&loaded[1]))] {
            if reached_nondet {
                assert_ne!(
                    o.verdict(),
                    Verdict::Safe,
                    "{engine} under nondet: {}\n{}",
                    o.reason(),
                    p.text
                );
            }
            if let Some(c) = o.counterexample() {
                unsafe_nondet += 1;
                assert!(c.out_of_bounds_line.is_some(), "{engine}: {}", p.text);
            }
        }
    }
    for seed in 0..PROGRAMS {
        let p = random_program(2000 + seed);
        let loaded = load_all(&p);
        let mut reached = false;
        for v in inputs(&mut rng, 12) {
            reached |= compare_runs(&p, &loaded, &v).0.is_error();
        }
        for (engine, o) in [("cegar", cegar(&loaded[0])), ("bmc", bounded(&loaded[0]))] {
            if reached {
                assert_ne!(
                    o.verdict(),
                    Verdict::Safe,
                    "{engine}: {}\n{}",
                    o.reason(),
                    p.text
                );
            }
            if let Some(c) = o.counterexample() {
                assert_eq!(c.out_of_bounds_line, None, "{engine}: {}", p.text);
            }
            decided += usize::from(o.verdict() != Verdict::Unknown);
        }
    }
    eprintln!(
        "differential engines: {safe_undefined} SAFE under undefined (of {} answers), {unsafe_nondet} UNSAFE under nondet, {decided} of {} random decided, {:.1} s",
        2 * PROGRAMS,
        2 * PROGRAMS,
        start.elapsed().as_secs_f64()
    );
    assert!(
        safe_undefined >= 10,
        "only {safe_undefined} SAFE under undefined"
    );
    assert!(
        unsafe_nondet >= 10,
        "only {unsafe_nondet} UNSAFE under nondet"
    );
    assert!(decided >= 14, "only {decided} decided");
}
