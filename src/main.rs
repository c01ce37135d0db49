//! The `lpmc` command line: arguments → library → diagnostics → exit code. No logic here.

use clap::{Parser, Subcommand};
use lpmc::tools::{commands, regress};
use lpmc::{
    ArrayBounds, BmcMode, BmcOptions, CheckOptions, DataModel, IntModel, LoadError, LoadOptions,
    Loaded, Outcome, Preprocessor, Property, RunReport, SignedOverflow, Task, Unwind,
};
use num_bigint::BigInt;
use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// `println!` that ignores a closed stdout (e.g. `lpmc check f | head`) instead of
/// panicking.
macro_rules! out {
    ($($t:tt)*) => {{
        use std::io::Write;
        let _ = writeln!(std::io::stdout().lock(), $($t)*);
    }};
}

/// `print!` that ignores a closed stdout.
macro_rules! outp {
    ($($t:tt)*) => {{
        use std::io::Write;
        let _ = write!(std::io::stdout().lock(), $($t)*);
    }};
}

/// Exit code for bad input or usage.
const EXIT_INPUT: u8 = 2;

#[derive(Parser)]
#[command(
    name = "lpmc",
    version,
    about = "A model checker for generalised linear programs with arrays (EUREKA style)"
)]
struct Cli {
    #[command(subcommand)]
    cmd: Cmd,
    /// Log what the engines do on stderr (`-vv`: more); the environment variable
    /// `LPMC_LOG` (e.g. `lpmc::driver=debug`) chooses the modules and levels instead.
    #[arg(short, long, global = true, action = clap::ArgAction::Count)]
    verbose: u8,
}

/// How a program is read: preprocessing and integer semantics.
#[derive(clap::Args, Clone, Debug)]
struct Front {
    /// Do not run the C preprocessor: `#` lines are skipped.
    #[arg(long)]
    no_cpp: bool,
    /// Integer semantics: `math` (EUREKA's mathematical integers, the default for .lp
    /// files) or `c` (C's integer types, the default for .c and .i files).
    #[arg(long, value_parser = parse_int_model)]
    int_model: Option<IntModel>,
    /// The data model of C's integer types: ILP32 (the default) or LP64; a task .yml's
    /// `data_model` applies unless this is given.
    #[arg(long, value_parser = parse_data_model)]
    data_model: Option<DataModel>,
    /// Under C's integers, what a signed arithmetic overflow does: `undefined` (the
    /// default, as in C: the execution ends there without a verdict, and a SAFE verdict
    /// names the lines where it assumed no overflow), `wrap` (as gcc -fwrapv) or `error`
    /// (an error location: SV-COMP's no-overflow property).
    #[arg(long, value_parser = parse_signed_overflow)]
    signed_overflow: Option<SignedOverflow>,
    /// The same as `--signed-overflow error`.
    #[arg(long, conflicts_with = "signed_overflow")]
    check_overflow: bool,
    /// What an access outside an array's bounds does: `undefined` (the default for C
    /// files, as in C: the execution ends there without a verdict, and a SAFE verdict
    /// names the lines where it assumed the access in bounds), `nondet` (the default for
    /// .lp files, EUREKA's rule: a read yields an arbitrary value, a write does nothing)
    /// or `error` (an error location).
    #[arg(long, value_parser = parse_array_bounds)]
    array_bounds: Option<ArrayBounds>,
    /// The same as `--array-bounds error`.
    #[arg(long, conflicts_with = "array_bounds")]
    check_bounds: bool,
    /// The SV-COMP property to check: a property file (`unreach-call.prp`,
    /// `no-overflow.prp`, `valid-memsafety.prp`) or its name. `no-overflow` checks for
    /// signed overflows only (as `--signed-overflow error`), `valid-memsafety` for
    /// array accesses out of bounds only (as `--array-bounds error`); any other property
    /// is UNKNOWN. Default: the task's (`unreach-call` if it lists it), else
    /// `unreach-call`.
    #[arg(long, value_name = "FILE.prp")]
    property: Option<PathBuf>,
    /// Do not accelerate loops (by default a loop path that translates and resets its
    /// variables gets an exact transition taking any number of iterations at once).
    #[arg(long)]
    no_accel: bool,
    /// Let loops that only check array cells jump over iterations without testing the
    /// checks (a counterexample that jumps is run again testing them): the CEGAR engine
    /// then needs no widening at such loops. Off by default: on other programs its
    /// refinement loses proofs it finds without the jumps.
    #[arg(long, conflicts_with = "no_accel")]
    jump_checks: bool,
}

impl Front {
    /// What a signed overflow does, from `--signed-overflow` or `--check-overflow`.
    fn signed_overflow(&self) -> SignedOverflow {
        if self.check_overflow {
            SignedOverflow::Error
        } else {
            self.signed_overflow.unwrap_or_default()
        }
    }
}

impl Front {
    /// What an out-of-bounds access does, from `--array-bounds` or `--check-bounds`
    /// (`None`: the default of the file's integers).
    fn array_bounds(&self) -> Option<ArrayBounds> {
        if self.check_bounds {
            Some(ArrayBounds::Error)
        } else {
            self.array_bounds
        }
    }
}

fn parse_array_bounds(s: &str) -> Result<ArrayBounds, String> {
    ArrayBounds::parse(s)
        .ok_or_else(|| format!("`{s}` is none of `undefined`, `nondet` and `error`"))
}

fn parse_signed_overflow(s: &str) -> Result<SignedOverflow, String> {
    SignedOverflow::parse(s)
        .ok_or_else(|| format!("`{s}` is none of `undefined`, `wrap` and `error`"))
}

fn parse_int_model(s: &str) -> Result<IntModel, String> {
    IntModel::parse(s).ok_or_else(|| format!("`{s}` is neither `math` nor `c`"))
}

fn parse_data_model(s: &str) -> Result<DataModel, String> {
    DataModel::parse(s).ok_or_else(|| format!("`{s}` is neither `ILP32` nor `LP64`"))
}

#[derive(Subcommand)]
enum Cmd {
    /// Decide whether an error location (ERROR: label, failing assert, reach_error()) is
    /// reachable. Exit 0 SAFE, 10 UNSAFE, 20 UNKNOWN, 2 bad input.
    Check {
        /// The program (.lp, .c or .i), or an SV-COMP task file (.yml) whose property
        /// `unreach-call` is checked.
        file: PathBuf,
        /// Compare the verdict with the expected one (the task's `expected_verdict`, or a
        /// `// expect:` header) and print MATCH or MISMATCH; the exit code stays the
        /// verdict's.
        #[arg(long)]
        expect: bool,
        #[command(flatten)]
        front: Front,
        /// Print one JSON object instead of text.
        #[arg(long)]
        json: bool,
        /// Wall-clock budget in seconds: past it the answer is UNKNOWN, on time.
        #[arg(long)]
        timeout: Option<f64>,
        /// Resident-memory budget in MB: past it the answer is UNKNOWN.
        #[arg(long, default_value_t = lpmc::DEFAULT_MEMORY_MB)]
        memory: u64,
        /// Maximum number of refinement iterations.
        #[arg(long)]
        max_refinements: Option<u32>,
        /// Print each abstraction P̂0, P̂1, ... (the program with arrays replaced by cells).
        #[arg(long)]
        show_abstractions: bool,
        /// Print counters and times per phase.
        #[arg(long)]
        stats: bool,
        /// Tabulate exactly, never widen (EUREKA's behaviour): loops and recursion with
        /// large or symbolic bounds then end UNKNOWN at a budget.
        #[arg(long)]
        no_widening: bool,
        /// The engines: `cegar` (abstraction and refinement), `bmc` (bounded, growing
        /// bound), `search` (concrete runs guided by the program's constants; never
        /// SAFE), or `all`: a portfolio where the first definite answer wins.
        #[arg(long, default_value = "all")]
        engine: lpmc::EngineChoice,
        /// Also write an SV-COMP witness (format 2.0, YAML) of the verdict: a violation
        /// sequence for UNSAFE, an invariant set for SAFE (none for UNKNOWN).
        #[arg(long, value_name = "FILE")]
        witness: Option<PathBuf>,
        /// Also write a self-contained HTML page of the check: the program and its CFG,
        /// every CEGAR iteration (precision, P̂k, the abstract trace on the source, the
        /// unsat core and the cells it fixes), the verdict and a timeline.
        #[arg(long, value_name = "FILE")]
        report: Option<PathBuf>,
    },
    /// Validate an SV-COMP witness (format 2.0) of a program: a violation witness becomes
    /// a monitor on the program (its segments of follow and avoid waypoints, its target)
    /// and the engines search for a run it lets through; a correctness witness's
    /// invariants are certified (initiation, consecution, safety). Exit 0 confirmed, 1
    /// rejected, 20 unknown, 2 bad input (a waypoint at no location of the program).
    Validate {
        /// The program (.c, .i, .lp) or its task file (.yml).
        file: PathBuf,
        /// The witness.
        #[arg(long, value_name = "W.yml")]
        witness: PathBuf,
        #[command(flatten)]
        front: Front,
        /// Wall-clock budget in seconds.
        #[arg(long)]
        timeout: Option<f64>,
        /// Print one JSON object instead of text.
        #[arg(long)]
        json: bool,
    },
    /// Write the program as constrained Horn clauses (SMT-LIB `HORN` logic, CHC-COMP's
    /// format): one predicate per cut point, one clause per loop-free region between cut
    /// points, a query per error location reached. With `--cells none` the clauses are
    /// satisfiable exactly when the program is SAFE; with `--cells found`, satisfiable
    /// implies SAFE. Exit 0 when written, 2 on bad input.
    Horn {
        /// The program (.lp, .c or .i), or an SV-COMP task file (.yml).
        file: PathBuf,
        #[command(flatten)]
        front: Front,
        /// Write the clauses to this file instead of standard output.
        #[arg(short, long, value_name = "OUT.smt2")]
        output: Option<PathBuf>,
        /// `none`: the program itself, arrays as `(Array Int Int)` arguments. `found`: run
        /// the CEGAR engine first and write its last abstraction, array-free (tracked and
        /// symbolic cells and the ghost indices as integer arguments).
        #[arg(long, default_value = "none")]
        cells: lpmc::Cells,
        /// With `--cells found`: the CEGAR engine's wall-clock budget in seconds.
        #[arg(long)]
        timeout: Option<f64>,
        /// With `--cells found`: the CEGAR engine's resident-memory budget in MB.
        #[arg(long, default_value_t = lpmc::DEFAULT_MEMORY_MB)]
        memory: u64,
        /// With `--cells found`: the maximum number of refinement iterations.
        #[arg(long)]
        max_refinements: Option<u32>,
    },
    /// Print the control-flow graph.
    Cfg {
        /// The program (or a .yml task).
        file: PathBuf,
        #[command(flatten)]
        front: Front,
        /// Graphviz output.
        #[arg(long)]
        dot: bool,
    },
    /// Run the program concretely. Exit 10 if an error location is reached, else 0.
    Run {
        /// The program (or a .yml task).
        file: PathBuf,
        #[command(flatten)]
        front: Front,
        /// Values for `u`, nondet calls and arbitrary cells, in order (then 0).
        #[arg(long, value_delimiter = ',', allow_hyphen_values = true)]
        inputs: Option<Vec<String>>,
        /// Try this many random runs instead (stops at the first error).
        #[arg(long)]
        random: Option<u64>,
        /// Seed of the random runs.
        #[arg(long, default_value_t = 0)]
        seed: u64,
        /// Maximum number of steps per run.
        #[arg(long, default_value_t = 1_000_000)]
        max_steps: usize,
    },
    /// Bounded model checking: symbolic execution of every path up to an unwinding bound.
    /// Exit 0 SAFE (all paths end within the bound), 10 UNSAFE, 20 UNKNOWN, 2 bad input.
    Bmc {
        /// The program (.lp, .c or .i), or an SV-COMP task file (.yml).
        file: PathBuf,
        #[command(flatten)]
        front: Front,
        /// The bound K (each statement at most K+1 times per call, call depth at most K),
        /// or `auto` (K = 1, 2, 4, ... until a verdict or the timeout).
        #[arg(long, default_value = "auto")]
        unwind: Unwind,
        /// How each bound is explored: `paths` (path by path), `merged` (one formula
        /// with the paths joined), or `auto` (path by path while the paths are few).
        #[arg(long, default_value = "auto")]
        mode: BmcMode,
        /// Wall-clock budget in seconds: past it the answer is UNKNOWN, on time.
        #[arg(long)]
        timeout: Option<f64>,
        /// Resident-memory budget in MB: past it the answer is UNKNOWN.
        #[arg(long, default_value_t = lpmc::DEFAULT_MEMORY_MB)]
        memory: u64,
        /// Print one JSON object instead of text.
        #[arg(long)]
        json: bool,
    },
    /// Run the CEGAR engine and the bounded engine on programs (files or folders) and
    /// print a comparison table. Exit 1 if any verdict contradicts the expectation.
    Regress {
        /// Programs, task files (.yml) or folders (searched recursively for .lp, .c, .i
        /// and .yml; a folder's .yml tasks replace the programs they name).
        #[arg(required = true)]
        paths: Vec<PathBuf>,
        /// Time limit per engine and program, in seconds.
        #[arg(long, default_value_t = 10.0)]
        timeout: f64,
        /// Table format: text, markdown, csv, json.
        #[arg(long, default_value = "text")]
        format: regress::Format,
        /// The bound of the bounded engine (a number or `auto`).
        #[arg(long, default_value = "auto")]
        unwind: Unwind,
        /// Also write the table as a self-contained HTML page, with verdict colours and
        /// time bars.
        #[arg(long, value_name = "FILE")]
        report: Option<PathBuf>,
        /// Write each program's HTML check report (of the CEGAR engine) into this folder;
        /// the `--report` page links to them.
        #[arg(long, value_name = "DIR")]
        report_dir: Option<PathBuf>,
        /// What a signed overflow does in every check (`undefined`, `wrap`, `error`); an
        /// expected SAFE does not apply to a counterexample through an overflow.
        #[arg(long, value_parser = parse_signed_overflow)]
        signed_overflow: Option<SignedOverflow>,
        /// What an out-of-bounds array access does in every check (`undefined`, `nondet`,
        /// `error`); an expected SAFE does not apply to a counterexample through one.
        #[arg(long, value_parser = parse_array_bounds)]
        array_bounds: Option<ArrayBounds>,
    },
    /// Run a program family of growing array size N (3, 10, 100, ...) with both engines
    /// and plot time against N.
    Scale {
        /// The family: fig1 (the paper's Fig. 1 with a[N]), loop (a loop over all N
        /// cells), or all.
        #[arg(long, default_value = "fig1")]
        family: String,
        /// The largest N.
        #[arg(long, default_value_t = 1_000_000)]
        max: u64,
        /// Time limit per engine and run, in seconds.
        #[arg(long, default_value_t = 30.0)]
        timeout: f64,
        /// Where to write the SVG plot.
        #[arg(long, default_value = "scale.svg")]
        out: PathBuf,
        /// Where to write the CSV (N, engine, verdict, ms).
        #[arg(long)]
        csv: Option<PathBuf>,
    },
}

fn main() -> ExitCode {
    let code = run();
    // A portfolio returns as soon as one engine decides; the others stop at their next
    // poll, and one may still be inside cvc5 then. `exit` would run cvc5's C++ static
    // destructors under it (a rare segfault at exit, about 1 run in 60 of a 0.1 s
    // check). So flush and leave without them.
    let _ = std::io::stdout().flush();
    let _ = std::io::stderr().flush();
    if let Some(n) = (0..=255u8).find(|n| ExitCode::from(*n) == code) {
        // SAFETY: `_exit` ends the process at once; every output was flushed above, and
        // files written by `run` were closed when it returned.
        unsafe { libc::_exit(i32::from(n)) }
    }
    code
}

fn run() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(c) => c,
        Err(e) => {
            let code = if e.use_stderr() { EXIT_INPUT } else { 0 };
            let _ = e.print();
            return ExitCode::from(code);
        }
    };
    init_log(cli.verbose);
    let color = std::io::stderr().is_terminal();
    match cli.cmd {
        Cmd::Scale {
            family,
            max,
            timeout,
            out,
            csv,
        } => {
            let args = commands::ScaleArgs {
                family: &family,
                max,
                timeout_s: timeout,
                svg: &out,
                csv: csv.as_deref(),
            };
            exit_with(exe().and_then(|e| {
                commands::scale(&e, &args, &mut std::io::stdout().lock()).map(|()| 0)
            }))
        }
        Cmd::Regress {
            paths,
            timeout,
            format,
            unwind,
            report,
            report_dir,
            signed_overflow,
            array_bounds,
        } => {
            let args = commands::RegressArgs {
                signed_overflow,
                array_bounds,
                paths: &paths,
                timeout_s: timeout,
                format,
                unwind,
                report: report.as_deref(),
                report_dir: report_dir.as_deref(),
            };
            exit_with(
                exe().and_then(|e| commands::regress(&e, &args, &mut std::io::stdout().lock())),
            )
        }
        Cmd::Bmc {
            file,
            front,
            unwind,
            mode,
            timeout,
            memory,
            json,
        } => {
            let opts = BmcOptions {
                unwind,
                timeout_s: timeout,
                memory_mb: Some(memory),
                solvers: None,
                mode,
            };
            bmc_cmd(&file, &front, &opts, json, color)
        }
        Cmd::Check {
            file,
            expect,
            front,
            json,
            timeout,
            memory,
            max_refinements,
            show_abstractions,
            stats,
            no_widening,
            engine,
            report,
            witness,
        } => {
            let opts = CheckOptions {
                timeout_s: timeout,
                memory_mb: Some(memory),
                max_refinements,
                show_abstractions,
                no_widening,
                explain: report.is_some(),
                ..CheckOptions::default()
            };
            let out = CheckOutput {
                json,
                stats,
                expect,
                report,
                witness,
            };
            check_cmd(&file, &front, &opts, engine, &out, color)
        }
        Cmd::Validate {
            file,
            witness,
            front,
            timeout,
            json,
        } => validate_cmd(&file, &witness, &front, timeout, json, color),
        Cmd::Horn {
            file,
            front,
            output,
            cells,
            timeout,
            memory,
            max_refinements,
        } => {
            let opts = lpmc::HornOptions {
                cells,
                check: CheckOptions {
                    timeout_s: timeout,
                    memory_mb: Some(memory),
                    max_refinements,
                    ..CheckOptions::default()
                },
            };
            horn_cmd(&file, &front, output.as_deref(), &opts, color)
        }
        Cmd::Cfg { file, front, dot } => match load_input(&file, &front, color) {
            Ok((loaded, _)) if dot => {
                outp!("{}", loaded.cfg_dot());
                ExitCode::SUCCESS
            }
            Ok((loaded, _)) => {
                outp!("{}", loaded.cfg_text());
                ExitCode::SUCCESS
            }
            Err(c) => c,
        },
        Cmd::Run {
            file,
            front,
            inputs,
            random,
            seed,
            max_steps,
        } => run_cmd(&file, &front, inputs, random, seed, max_steps, color),
    }
}

/// The debug log (`tracing`) on stderr: the filter `LPMC_LOG` (e.g.
/// `lpmc::driver=debug`) if set, else `lpmc=debug` with `--verbose` (`-vv`: `trace`),
/// else warnings only. With a filter, the phases' spans print their time when they close.
fn init_log(verbose: u8) {
    use tracing_subscriber::fmt::format::FmtSpan;
    use tracing_subscriber::EnvFilter;
    let filter = match std::env::var("LPMC_LOG") {
        Ok(f) if !f.trim().is_empty() => EnvFilter::new(f),
        _ => EnvFilter::new(match verbose {
            0 => "warn",
            1 => "lpmc=debug",
            _ => "lpmc=trace",
        }),
    };
    let _ = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(std::io::stderr)
        .with_span_events(FmtSpan::CLOSE)
        .with_ansi(std::io::stderr().is_terminal())
        .try_init();
}

/// A timeout must be a positive number of seconds.
fn valid_timeout(timeout: Option<f64>) -> Result<(), ExitCode> {
    match timeout {
        Some(t) if !(t.is_finite() && t > 0.0) => {
            eprintln!("error: --timeout must be a positive number of seconds");
            Err(ExitCode::from(EXIT_INPUT))
        }
        _ => Ok(()),
    }
}

/// Print a report as one JSON object.
fn print_json(report: &impl serde::Serialize) -> Result<(), ExitCode> {
    match serde_json::to_string(report) {
        Ok(s) => {
            out!("{s}");
            Ok(())
        }
        Err(e) => {
            eprintln!("error: cannot serialise the report: {e}");
            Err(ExitCode::from(EXIT_INPUT))
        }
    }
}

fn bmc_cmd(file: &Path, front: &Front, opts: &BmcOptions, json: bool, color: bool) -> ExitCode {
    if let Err(c) = valid_timeout(opts.timeout_s) {
        return c;
    }
    let loaded = match load_input(file, front, color) {
        Ok((l, _)) => l,
        Err(c) => return c,
    };
    let report = lpmc::bmc(&loaded, opts);
    if json {
        if let Err(c) = print_json(&report) {
            return c;
        }
    } else {
        outp!("{}", lpmc::text::bmc_text(file, &report));
    }
    ExitCode::from(report.verdict().exit_code() as u8)
}

/// How `lpmc check` prints its report.
struct CheckOutput {
    json: bool,
    stats: bool,
    expect: bool,
    report: Option<PathBuf>,
    witness: Option<PathBuf>,
}

/// Write the witness of a verdict to `path`: `Ok(false)` when the verdict has none.
fn write_witness(
    loaded: &Loaded,
    input: &Path,
    outcome: &lpmc::Outcome,
    path: &Path,
) -> Result<bool, String> {
    let task = lpmc::WitnessTask { input };
    let text = match outcome {
        lpmc::Outcome::Safe(p) => lpmc::correctness_witness(loaded, &task, p)?,
        lpmc::Outcome::Unsafe(c) => lpmc::violation_witness(loaded, &task, c)?,
        lpmc::Outcome::Unknown(_) => return Ok(false),
    };
    std::fs::write(path, text).map_err(|e| format!("cannot write {}: {e}", path.display()))?;
    Ok(true)
}

fn validate_cmd(
    file: &Path,
    witness: &Path,
    front: &Front,
    timeout: Option<f64>,
    json: bool,
    color: bool,
) -> ExitCode {
    if let Err(c) = valid_timeout(timeout) {
        return c;
    }
    let text = match std::fs::read_to_string(witness) {
        Ok(t) => t,
        Err(e) => {
            eprintln!("error: cannot read {}: {e}", witness.display());
            return ExitCode::from(EXIT_INPUT);
        }
    };
    // Without `--property`, the witness's specification names the property.
    let mut front = front.clone();
    if front.property.is_none() {
        front.property = witness_property(&text).map(|p| PathBuf::from(p.name()));
    }
    // The program as written: a violation witness's monitor goes in before the loops
    // are accelerated (validation accelerates them after, unless `--no-accel`).
    let mut as_written = front.clone();
    as_written.no_accel = true;
    let (loaded, task) = match load_input(file, &as_written, color) {
        Ok(l) => l,
        Err(c) => return c,
    };
    let program = task.as_ref().map_or(file, |t| t.input.as_path());
    let deadline = lpmc::Deadline::at(
        timeout.map(|t| std::time::Instant::now() + std::time::Duration::from_secs_f64(t)),
    );
    let opts = lpmc::ValidateOptions {
        accelerate: !front.no_accel,
        jump_checks: front.jump_checks,
    };
    let v = match lpmc::validate_witness(
        &loaded,
        program,
        &text,
        &lpmc::smt::cvc5_solvers(),
        &deadline,
        &opts,
    ) {
        Ok(v) => v,
        Err(e) => {
            eprintln!("error: {}: {e}", witness.display());
            return ExitCode::from(EXIT_INPUT);
        }
    };
    if json {
        if let Err(c) = print_json(&v) {
            return c;
        }
    } else {
        let word = match v.verdict {
            lpmc::ValidationVerdict::Confirmed => "CONFIRMED",
            lpmc::ValidationVerdict::Rejected => "REJECTED",
            lpmc::ValidationVerdict::Unknown => "UNKNOWN",
        };
        out!("{}: {word} ({} witness)", witness.display(), v.witness);
        out!("  reason: {}", v.reason);
    }
    ExitCode::from(v.verdict.exit_code())
}

fn check_cmd(
    file: &Path,
    front: &Front,
    opts: &CheckOptions,
    engine: lpmc::EngineChoice,
    out: &CheckOutput,
    color: bool,
) -> ExitCode {
    if let Err(c) = valid_timeout(opts.timeout_s) {
        return c;
    }
    let (loaded, task) = match load_input(file, front, color) {
        Ok(l) => l,
        Err(c) => return c,
    };
    let report = lpmc::portfolio(&loaded, opts, engine);
    let mut witness_written = None;
    if let Some(path) = &out.witness {
        let input = task.as_ref().map_or(file, |t| t.input.as_path());
        match write_witness(&loaded, input, &report.outcome, path) {
            Ok(true) => witness_written = Some(path.clone()),
            Ok(false) => eprintln!("note: an UNKNOWN verdict has no witness"),
            Err(e) => {
                eprintln!("error: {e}");
                return ExitCode::from(EXIT_INPUT);
            }
        }
    }
    if let Some(path) = &out.report {
        if let Err(e) = std::fs::write(path, lpmc::html_report(&report)) {
            eprintln!("error: cannot write the report {}: {e}", path.display());
            return ExitCode::from(EXIT_INPUT);
        }
    }
    if out.json {
        let mut v = match serde_json::to_value(&report) {
            Ok(v) => v,
            Err(e) => {
                eprintln!("error: cannot serialise the report: {e}");
                return ExitCode::from(EXIT_INPUT);
            }
        };
        if let (Some(m), Some(w)) = (v.as_object_mut(), &witness_written) {
            m.insert("witness".into(), w.display().to_string().into());
        }
        if let Err(c) = print_json(&v) {
            return c;
        }
    } else {
        outp!("{}", lpmc::text::check_text(file, &report));
        if out.stats {
            outp!(
                "{}",
                lpmc::text::stats_text(&report.stats, &report.semantics)
            );
        }
    }
    if out.expect {
        print_expectation(
            file,
            task.as_ref(),
            &report.semantics.property,
            &report.outcome,
            out.json,
        );
    }
    ExitCode::from(report.verdict().exit_code() as u8)
}

fn horn_cmd(
    file: &Path,
    front: &Front,
    output: Option<&Path>,
    opts: &lpmc::HornOptions,
    color: bool,
) -> ExitCode {
    if let Err(c) = valid_timeout(opts.check.timeout_s) {
        return c;
    }
    let (loaded, task) = match load_input(file, front, color) {
        Ok(l) => l,
        Err(c) => return c,
    };
    let program = task.as_ref().map_or(file, |t| t.input.as_path());
    let horn = match lpmc::horn(&loaded, &program.display().to_string(), opts) {
        Ok(h) => h,
        Err(e) => {
            eprintln!("error: cannot write the clauses of {}: {e}", file.display());
            return ExitCode::from(EXIT_INPUT);
        }
    };
    match output {
        Some(path) => {
            if let Err(e) = std::fs::write(path, &horn.text) {
                eprintln!("error: cannot write {}: {e}", path.display());
                return ExitCode::from(EXIT_INPUT);
            }
            let cegar = horn
                .cegar
                .as_ref()
                .map(|o| format!(" (CEGAR: {})", o.verdict().as_str()))
                .unwrap_or_default();
            eprintln!(
                "wrote {}: {} predicate(s), {} clause(s), {} of them queries{cegar}",
                path.display(),
                horn.predicates,
                horn.clauses,
                horn.queries
            );
        }
        None => outp!("{}", horn.text),
    }
    ExitCode::SUCCESS
}

fn run_cmd(
    file: &Path,
    front: &Front,
    inputs: Option<Vec<String>>,
    random: Option<u64>,
    seed: u64,
    max_steps: usize,
    color: bool,
) -> ExitCode {
    let loaded = match load_input(file, front, color) {
        Ok((l, _)) => l,
        Err(c) => return c,
    };
    if let Some(r) = loaded.unsupported_reason() {
        eprintln!("error: cannot run this program: {r}");
        return ExitCode::from(EXIT_INPUT);
    }
    let runs: Vec<(String, RunReport)> = match (inputs, random) {
        (Some(_), Some(_)) => {
            eprintln!("error: give either --inputs or --random, not both");
            return ExitCode::from(EXIT_INPUT);
        }
        (None, Some(n)) => {
            let mut out = Vec::new();
            let random = lpmc::RandomRuns::new(&loaded);
            for i in 0..n {
                let s = seed.wrapping_add(i);
                let r = random.run(s, max_steps);
                out.push((format!("seed {s}"), r));
                if r.outcome.is_error() {
                    break;
                }
            }
            out
        }
        (inputs, None) => {
            let mut vals = Vec::new();
            for s in inputs.unwrap_or_default() {
                match s.trim().parse::<BigInt>() {
                    Ok(v) => vals.push(v),
                    Err(_) => {
                        eprintln!("error: --inputs: `{s}` is not an integer");
                        return ExitCode::from(EXIT_INPUT);
                    }
                }
            }
            vec![(
                "inputs".to_string(),
                lpmc::run_inputs(&loaded, vals, max_steps),
            )]
        }
    };
    for (what, r) in &runs {
        out!(
            "{what}: {} (path length {})",
            r.outcome.describe(max_steps),
            r.steps
        );
    }
    if runs.iter().any(|(_, r)| r.outcome.is_error()) {
        ExitCode::from(10)
    } else {
        ExitCode::SUCCESS
    }
}

/// Load a program, or the program of an SV-COMP task file (`.yml`, with its data model;
/// a task without the `unreach-call` property is refused with exit 2). Diagnostics are
/// printed here.
fn load_input(
    path: &std::path::Path,
    front: &Front,
    color: bool,
) -> Result<(Loaded, Option<Task>), ExitCode> {
    let mut opts = LoadOptions {
        int_model: front.int_model,
        signed_overflow: front.signed_overflow(),
        array_bounds: front.array_bounds(),
        no_accel: front.no_accel,
        jump_checks: front.jump_checks,
        ..LoadOptions::default()
    };
    if front.no_cpp {
        opts.preprocessor = Preprocessor::Off;
    }
    let task = if lpmc::is_task_file(path) {
        match Task::read(path) {
            Ok(t) => {
                opts.data_model = t.data_model;
                Some(t)
            }
            Err(e) => {
                eprintln!("error: {e}");
                return Err(ExitCode::from(EXIT_INPUT));
            }
        }
    } else {
        None
    };
    if let Some(dm) = front.data_model {
        opts.data_model = dm;
    }
    opts.property = match (&front.property, &task) {
        (Some(p), _) => {
            let prop = Property::of_file(p);
            if !prop.is_supported() && !p.exists() {
                eprintln!(
                    "error: --property {}: no such file, and not the name of a property lpmc \
                     checks (unreach-call, no-overflow, valid-memsafety)",
                    p.display()
                );
                return Err(ExitCode::from(EXIT_INPUT));
            }
            prop
        }
        (None, Some(t)) => t.default_property().unwrap_or_default(),
        (None, None) => Property::UnreachCall,
    };
    let program = task.as_ref().map_or(path, |t| t.input.as_path());
    match lpmc::load_path_with(program, &opts) {
        Ok(l) => Ok((l, task)),
        Err(e) => {
            let e: LoadError = e;
            eprint!("{}", e.render(color));
            Err(ExitCode::from(EXIT_INPUT))
        }
    }
}

/// The property a witness's `specification` names (`G ! overflow`, `G valid-deref`, ...),
/// if it names one lpmc checks.
fn witness_property(text: &str) -> Option<Property> {
    let spec = text
        .lines()
        .find_map(|l| l.trim().strip_prefix("specification:"))?
        .trim()
        .trim_matches(|c| c == '"' || c == '\'');
    let p = Property::from_prp_text(&format!("LTL({spec})"))?;
    p.is_supported().then_some(p)
}

/// `--expect`: compare the verdict with the task's (or the program's) expected verdict
/// and print MATCH, MISMATCH, or why there is nothing to compare (on stderr with --json).
fn print_expectation(
    path: &std::path::Path,
    task: Option<&Task>,
    property: &Property,
    got: &Outcome,
    json: bool,
) {
    let expected = match (task, property) {
        (Some(t), p) => t.expected_safe_of(p),
        (None, Property::UnreachCall) => lpmc::expected_safe_for(path),
        // Another property's verdict comes from the task file beside the program.
        (None, p) => Task::read(&path.with_extension("yml"))
            .ok()
            .and_then(|t| t.expected_safe_of(p)),
    };
    let line = lpmc::text::expectation(expected, got);
    if json {
        eprintln!("{line}");
    } else {
        out!("{line}");
    }
}

/// The `lpmc` executable, whose child processes `regress` and `scale` run.
fn exe() -> Result<PathBuf, String> {
    std::env::current_exe().map_err(|e| format!("cannot find the lpmc executable: {e}"))
}

/// Exit 2 with the message, or with the code.
fn exit_with(r: Result<i32, String>) -> ExitCode {
    match r {
        Ok(code) => ExitCode::from(code as u8),
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::from(EXIT_INPUT)
        }
    }
}
