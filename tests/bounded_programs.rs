//! The bounded model checker on random small C programs whose loops are all bounded
//! ([`common::cgen::bounded_program`]: inputs bounded by assumptions, also inside loops
//! and procedures; constant loops of at most 8 iterations nested up to 3 deep; `%` and
//! `/` by constants; a small array; procedures; a recursion of depth at most 4), against
//! the interpreter (issue 54):
//! - `lpmc bmc --unwind 12` decides every program: SAFE or UNSAFE, never UNKNOWN (each
//!   loop is left within its bound, so no run is cut);
//! - its verdict agrees with the runs of the program. They are enumerated: every draw
//!   takes each value of its assumed range (in `main` a value out of range ends the run;
//!   in a procedure all of them lead to one run, taken with one value below the range).
//!   The interpreter runs the program's probe (see [`common::cgen::Bounded::probe`]) with
//!   a prefix of values and then a marker value, which stops the run at the next draw
//!   and names its site, so the runs are walked depth first, one draw at a time. A SAFE
//!   program has no run that reaches an error, an UNSAFE one has one. A program whose
//!   runs take more than [`MAX_RUNS`] runs of the interpreter (or [`MAX_TOTAL_STEPS`]
//!   steps) is checked on [`SAMPLES`] random runs within its assumptions instead (of its
//!   in-range twin): then SAFE must agree with them, and UNSAFE is taken as it is;
//! - the inputs of an UNSAFE counterexample drive the interpreter to an error.
//!
//! Failures are collected and reported together at the end, each with its seed, the
//! verdict and its reason, and the program. A one-line summary gives the number of
//! programs, of each verdict, of programs enumerated exhaustively, and the time. Up to
//! [`WORKERS`] programs are checked at once. A hand-written program whose error needs a
//! loop of 8 iterations (and one whose error needs a procedure's failed assumption)
//! shows that the test can fail: bmc must find the error, the enumeration too, and a
//! SAFE answer on it counts as a disagreement.
//!
//! `LPMC_BOUNDED_CASES` sets the number of programs (a fixed-seed sample of [`CASES`] by
//! default), `LPMC_BOUNDED_FIRST` the first seed, `LPMC_BOUNDED_TIMEOUT` the time limit of
//! one bmc run in seconds ([`TIMEOUT_S`]; a safety net: running out of it is a failure,
//! like any UNKNOWN). `LPMC_BOUNDED_WRITE=DIR` writes the programs of those seeds to DIR.

mod common;

use common::cgen::{bounded_program, DrawSite, PROBE};
use lpmc::{BmcOptions, Loaded, Outcome, RunOutcome, SourceFile, Unwind, Verdict};
use num_bigint::BigInt;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Mutex;

/// Programs per CI run.
const CASES: u64 = 40;
/// The unwinding bound (the loops have at most 8 iterations, the recursion depth 4).
const UNWIND: u32 = 12;
/// The time limit of one bmc run, in seconds (the slowest default seed takes about 15 s
/// on a busy machine).
const TIMEOUT_S: u64 = 120;
/// The most runs of the interpreter one program's enumeration may take.
const MAX_RUNS: u64 = 20_000;
/// The most steps they may take in all (about 2 s).
const MAX_TOTAL_STEPS: usize = 30_000_000;
/// Random in-range runs of a program whose runs are too many to enumerate.
const SAMPLES: u64 = 200;
/// The step limit of one run (no run of these programs comes near it).
const MAX_STEPS: usize = 10_000_000;
/// The most programs checked at once.
const WORKERS: usize = 2;

fn env_u64(name: &str, default: u64) -> u64 {
    std::env::var(name)
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(default)
}

fn load(name: &str, text: &str) -> Loaded {
    lpmc::load(SourceFile::new(name, text)).unwrap_or_else(|e| {
        panic!(
            "{name}: generated program rejected:\n{}\n{text}",
            e.render(false)
        )
    })
}

/// What the interpreter says about a program's runs.
#[derive(Debug, Default)]
struct Runs {
    /// Whether these are all its runs (else random runs within its assumptions).
    exhaustive: bool,
    /// Runs taken.
    runs: u64,
    /// Of which reached an error.
    errors: u64,
    /// Of which stopped by undefined behaviour (a signed overflow, an access out of
    /// bounds): no execution, as for the engines.
    undefined: u64,
    /// The draws of the first run found that reaches an error (when enumerated).
    error_draws: Option<Vec<i64>>,
}

impl Runs {
    fn count(&mut self, outcome: RunOutcome) -> Result<(), String> {
        self.runs += 1;
        match outcome {
            RunOutcome::Error { .. } => self.errors += 1,
            RunOutcome::Finished => {}
            RunOutcome::Undefined { .. } | RunOutcome::OutOfBounds { .. } => self.undefined += 1,
            o => return Err(format!("a run ended by {}", o.describe(MAX_STEPS))),
        }
        Ok(())
    }

    fn describe(&self) -> String {
        format!(
            "{} of {} {} runs reach an error ({} stopped by undefined behaviour)",
            self.errors,
            self.runs,
            if self.exhaustive {
                "(all)"
            } else {
                "random in-range"
            },
            self.undefined
        )
    }
}

/// All runs of the program whose probe is `probe` and whose draw sites are `sites`, or
/// `None` when they need more than `max_runs` runs of the interpreter (or more than
/// [`MAX_TOTAL_STEPS`] steps). Depth first over
/// the draws: the probe runs with the values of a prefix and then [`PROBE`]; a run
/// blocked at a site's assumption needs one more value, and each value of the site's
/// range extends the prefix; any other run is one run of the program.
fn enumerate(probe: &Loaded, sites: &[DrawSite], max_runs: u64) -> Result<Option<Runs>, String> {
    let mut runs = Runs {
        exhaustive: true,
        ..Runs::default()
    };
    let (mut interpreted, mut steps) = (0, 0);
    let mut stack: Vec<Vec<i64>> = vec![Vec::new()];
    while let Some(prefix) = stack.pop() {
        if interpreted == max_runs || steps > MAX_TOTAL_STEPS {
            return Ok(None);
        }
        interpreted += 1;
        let mut inputs: Vec<BigInt> = prefix.iter().map(|&v| BigInt::from(v)).collect();
        inputs.push(BigInt::from(PROBE));
        let r = lpmc::run_inputs(probe, inputs, MAX_STEPS);
        steps += r.steps;
        match r.outcome {
            RunOutcome::Blocked { line, .. } => {
                let site = sites
                    .iter()
                    .find(|s| s.probe_line == line)
                    .ok_or_else(|| format!("a run of the probe blocked at line {line}"))?;
                for v in site.values().rev() {
                    let mut p = prefix.clone();
                    p.push(v);
                    stack.push(p);
                }
            }
            o => {
                if prefix.is_empty() {
                    // Each program draws first in `main`: a run without a draw means
                    // the probe's marker went elsewhere.
                    return Err(format!("the first run of the probe did not draw: {o:?}"));
                }
                runs.count(o)?;
                if o.is_error() && runs.error_draws.is_none() {
                    runs.error_draws = Some(prefix);
                }
            }
        }
    }
    Ok(Some(runs))
}

/// `samples` runs of the in-range twin (seeds 0, 7919, 2·7919, … mod 65537).
fn sample(twin: &Loaded, samples: u64) -> Result<Runs, String> {
    let mut runs = Runs::default();
    for r in 0..samples {
        let seed = BigInt::from((r * 7919) % 65537);
        runs.count(lpmc::run_inputs(twin, vec![seed], MAX_STEPS).outcome)?;
    }
    Ok(runs)
}

/// The bmc run of the test.
fn bmc(loaded: &Loaded) -> lpmc::BmcReport {
    let opts = BmcOptions {
        unwind: Unwind::Fixed(UNWIND),
        timeout_s: Some(env_u64("LPMC_BOUNDED_TIMEOUT", TIMEOUT_S) as f64),
        memory_mb: common::TEST_MEMORY_MB,
        ..Default::default()
    };
    lpmc::bmc(loaded, &opts)
}

/// What is wrong with bmc's `outcome` on `program`, given its `runs`, if anything.
fn disagreement(outcome: &Outcome, program: &Loaded, runs: &Runs) -> Option<String> {
    match outcome {
        Outcome::Unknown(_) => Some(format!("no verdict at bound {UNWIND}")),
        Outcome::Safe(_) if runs.errors > 0 => Some(format!(
            "SAFE, but {}{}",
            runs.describe(),
            match &runs.error_draws {
                Some(d) => format!("; the draws {d:?} reach one"),
                None => String::new(),
            }
        )),
        Outcome::Safe(_) => None,
        Outcome::Unsafe(_) if runs.exhaustive && runs.errors == 0 => Some(format!(
            "UNSAFE, but none of its {} runs reaches an error",
            runs.runs
        )),
        Outcome::Unsafe(_) => {
            let t = outcome.counterexample().expect("UNSAFE carries a trace");
            let vals: Vec<BigInt> = t
                .inputs
                .iter()
                .map(|i| i.value.parse().expect("decimal value"))
                .collect();
            let r = lpmc::run_inputs(program, vals, MAX_STEPS);
            (!r.outcome.is_error()).then(|| {
                format!(
                    "UNSAFE, but the counterexample's inputs do not reach an error ({})",
                    r.outcome.describe(MAX_STEPS)
                )
            })
        }
    }
}

/// What one program gave.
struct Checked {
    verdict: Verdict,
    exhaustive: bool,
    /// What is wrong, with the program.
    failure: Option<String>,
}

/// Check the program of `seed`, and print one line about it.
fn check_seed(seed: u64) -> Checked {
    let g = bounded_program(seed);
    let program = load("gen.c", &g.program);
    let report = bmc(&program);
    let t1 = std::time::Instant::now();
    let runs = match enumerate(&load("probe.c", &g.probe), &g.sites, MAX_RUNS) {
        Ok(Some(runs)) => Ok(runs),
        Ok(None) => sample(&load("twin.c", &g.in_range), SAMPLES),
        Err(e) => Err(e),
    };
    let runs = match runs {
        Ok(runs) => runs,
        Err(e) => {
            return Checked {
                verdict: report.verdict(),
                exhaustive: false,
                failure: Some(format!(
                    "seed {seed}: the oracle failed: {e}\n{}",
                    g.program
                )),
            }
        }
    };
    eprintln!(
        "seed {seed}: {:?} in {} ms ({}); {} ({} ms)",
        report.verdict(),
        report.time_ms,
        report.outcome.reason(),
        runs.describe(),
        t1.elapsed().as_millis()
    );
    Checked {
        verdict: report.verdict(),
        exhaustive: runs.exhaustive,
        failure: disagreement(&report.outcome, &program, &runs).map(|why| {
            format!(
                "seed {seed}: {why} ({:?}: {}); {}\n{}",
                report.verdict(),
                report.outcome.reason(),
                runs.describe(),
                g.program
            )
        }),
    }
}

#[test]
fn bmc_decides_bounded_programs_and_agrees_with_all_their_runs() {
    let cases = env_u64("LPMC_BOUNDED_CASES", CASES);
    let first = env_u64("LPMC_BOUNDED_FIRST", 0);
    let t0 = std::time::Instant::now();
    // The programs are checked by a few workers (bmc runs on its own thread, the
    // interpreter on the worker's).
    let next = AtomicU64::new(first);
    let results = Mutex::new(Vec::new());
    let workers = std::thread::available_parallelism().map_or(1, |n| n.get().min(WORKERS));
    std::thread::scope(|s| {
        for _ in 0..workers {
            s.spawn(|| loop {
                let seed = next.fetch_add(1, Ordering::Relaxed);
                if seed >= first + cases {
                    break;
                }
                let c = check_seed(seed);
                results.lock().unwrap().push((seed, c));
            });
        }
    });
    let mut results = results.into_inner().unwrap();
    results.sort_by_key(|(seed, _)| *seed);
    let count = |v: Verdict| results.iter().filter(|(_, c)| c.verdict == v).count();
    let (safe, unsafe_) = (count(Verdict::Safe), count(Verdict::Unsafe));
    let exhaustive = results.iter().filter(|(_, c)| c.exhaustive).count();
    let failures: Vec<&String> = results
        .iter()
        .filter_map(|(_, c)| c.failure.as_ref())
        .collect();
    eprintln!(
        "bounded programs {first}..{}: {cases} programs, {safe} SAFE, {unsafe_} UNSAFE, {} \
         UNKNOWN at bound {UNWIND}; {exhaustive} enumerated exhaustively; {:.1} s",
        first + cases,
        count(Verdict::Unknown),
        t0.elapsed().as_secs_f64()
    );
    assert!(
        failures.is_empty(),
        "{} failures:\n{}",
        failures.len(),
        failures
            .iter()
            .map(|f| f.as_str())
            .collect::<Vec<_>>()
            .join("\n")
    );
    if cases >= 20 {
        assert!(
            safe > 0 && unsafe_ > 0,
            "the generator should produce both kinds"
        );
    }
}

/// A hand-written program: its text, with `@PROBE` on the line after each draw, and the
/// ranges of its draw sites (in text order; `true`: in a procedure).
struct HandWritten {
    name: &'static str,
    template: &'static str,
    ranges: &'static [(i64, i64, bool)],
}

impl HandWritten {
    fn program(&self) -> String {
        self.template.replace("@PROBE\n", "")
    }

    /// The probe (its draws assign `x`) and its sites.
    fn probe(&self) -> (String, Vec<DrawSite>) {
        let probe = self
            .template
            .replace("@PROBE", &format!("__VERIFIER_assume(x != {PROBE});"));
        let lines = probe
            .lines()
            .enumerate()
            .filter(|(_, l)| l.contains("__VERIFIER_assume(x"))
            .map(|(i, _)| i as u32 + 1);
        let sites = self
            .ranges
            .iter()
            .zip(lines)
            .map(|(&(lo, hi, in_proc), probe_line)| DrawSite {
                lo,
                hi,
                in_proc,
                probe_line,
            })
            .collect();
        (probe, sites)
    }
}

/// The error needs 8 draws in a loop, each at the top of its range of 2: 1 run of 256.
const DEEP: HandWritten = HandWritten {
    name: "deep.c",
    template: "extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_assume(int);
void reach_error(void) {}
int main(void) {
  int x = 0, i = 0, s = 0;
  for (i = 0; i < 8; i++) {
    x = __VERIFIER_nondet_int();
    @PROBE
    if (!(0 <= x && x <= 1)) return 0;
    s = s + x;
  }
  if (s == 8) { reach_error(); }
  return 0;
}
",
    ranges: &[(0, 1, false)],
};

/// The error needs the procedure's draw out of its range, its assumption returning 0.
const RETURNS: HandWritten = HandWritten {
    name: "returns.c",
    template: "extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_assume(int);
void reach_error(void) {}
int g;
int f(void) {
  int x = 0;
  x = __VERIFIER_nondet_int();
  @PROBE
  if (!(3 <= x && x <= 5)) return 0;
  g = g + x;
  return 1;
}
int main(void) {
  int x = 0, i = 0, r = 1;
  x = __VERIFIER_nondet_int();
  @PROBE
  if (!(0 <= x && x <= 1)) return 0;
  for (i = 0; i < 8; i++) {
    if (i == 7 && x == 1) r = f();
  }
  if (r == 0) { reach_error(); }
  return 0;
}
",
    ranges: &[(3, 5, true), (0, 1, false)],
};

/// The oracle and bmc find errors that need a loop of 8 iterations, or a procedure's
/// failed assumption (the test can fail: an engine that missed them would fail it).
#[test]
fn errors_at_depth_are_found_by_bmc_and_by_the_enumeration() {
    // (program, its runs, of which reach an error)
    for (hw, runs, errors) in [(&DEEP, 256, 1), (&RETURNS, 5, 1)] {
        let program = load(hw.name, &hw.program());
        let (probe, sites) = hw.probe();
        let probe = load(hw.name, &probe);
        let all = enumerate(&probe, &sites, MAX_RUNS)
            .unwrap_or_else(|e| panic!("{}: {e}", hw.name))
            .expect("few runs");
        assert_eq!(
            (all.runs, all.errors),
            (runs, errors),
            "{}: {}",
            hw.name,
            all.describe()
        );
        let report = bmc(&program);
        assert_eq!(
            report.verdict(),
            Verdict::Unsafe,
            "{}: {}",
            hw.name,
            report.outcome.reason()
        );
        assert_eq!(disagreement(&report.outcome, &program, &all), None);
        // Without the error, SAFE, and the enumeration agrees.
        let fixed = hw.program().replace("reach_error(); }", "}");
        let report = bmc(&load(hw.name, &fixed));
        assert_eq!(
            report.verdict(),
            Verdict::Safe,
            "{}",
            report.outcome.reason()
        );
        // A SAFE verdict where a run reaches the error is a disagreement.
        assert!(disagreement(&report.outcome, &program, &all).is_some());
    }
}

/// `LPMC_BOUNDED_WRITE=DIR`: write the programs (and their probes) of the seeds chosen by
/// `LPMC_BOUNDED_FIRST` and `LPMC_BOUNDED_CASES` to DIR (to look at one).
#[test]
fn write_programs_when_asked() {
    let Some(dir) = std::env::var_os("LPMC_BOUNDED_WRITE") else {
        return;
    };
    let first = env_u64("LPMC_BOUNDED_FIRST", 0);
    for seed in first..first + env_u64("LPMC_BOUNDED_CASES", CASES) {
        let g = bounded_program(seed);
        let dir = std::path::Path::new(&dir);
        std::fs::write(dir.join(format!("bounded{seed}.c")), g.program).unwrap();
        std::fs::write(dir.join(format!("probe{seed}.c")), g.probe).unwrap();
        std::fs::write(dir.join(format!("twin{seed}.c")), g.in_range).unwrap();
    }
}
