//! The `lpmc` command line: arguments → library → diagnostics → exit code. No logic here.

use clap::{Parser, Subcommand};
use lpmc::driver::{self, CheckOptions, LoadError, Report, Verdict};
use lpmc::interp::{self, Limits, ListOracle, Outcome, RandomOracle};
use num_bigint::BigInt;
use std::io::IsTerminal;
use std::path::PathBuf;
use std::process::ExitCode;

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
}

#[derive(Subcommand)]
enum Cmd {
    /// Decide whether an error location (ERROR: label, failing assert, reach_error()) is
    /// reachable. Exit 0 SAFE, 10 UNSAFE, 20 UNKNOWN, 2 bad input.
    Check {
        /// The program (.lp, .c or .i).
        file: PathBuf,
        /// Print one JSON object instead of text.
        #[arg(long)]
        json: bool,
        /// Wall-clock budget in seconds.
        #[arg(long)]
        timeout: Option<f64>,
        /// Maximum number of refinement iterations.
        #[arg(long)]
        max_refinements: Option<u32>,
    },
    /// Print the control-flow graph.
    Cfg {
        /// The program.
        file: PathBuf,
        /// Graphviz output.
        #[arg(long)]
        dot: bool,
    },
    /// Run the program concretely. Exit 10 if an error location is reached, else 0.
    Run {
        /// The program.
        file: PathBuf,
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
}

fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(c) => c,
        Err(e) => {
            let code = if e.use_stderr() { EXIT_INPUT } else { 0 };
            let _ = e.print();
            return ExitCode::from(code);
        }
    };
    let color = std::io::stderr().is_terminal();
    let load = |f: &PathBuf| {
        driver::load_path(f).map_err(|e: LoadError| {
            eprint!("{}", e.render(color));
            ExitCode::from(EXIT_INPUT)
        })
    };
    match cli.cmd {
        Cmd::Check {
            file,
            json,
            timeout,
            max_refinements,
        } => {
            let loaded = match load(&file) {
                Ok(l) => l,
                Err(c) => return c,
            };
            let report = driver::check(
                &loaded,
                &CheckOptions {
                    timeout_s: timeout,
                    max_refinements,
                },
            );
            if json {
                match serde_json::to_string(&report) {
                    Ok(s) => println!("{s}"),
                    Err(e) => {
                        eprintln!("error: cannot serialise the report: {e}");
                        return ExitCode::from(EXIT_INPUT);
                    }
                }
            } else {
                print_report(&file, &report);
            }
            ExitCode::from(report.verdict.exit_code() as u8)
        }
        Cmd::Cfg { file, dot } => {
            let loaded = match load(&file) {
                Ok(l) => l,
                Err(c) => return c,
            };
            if dot {
                print!("{}", lpmc::cfg::to_dot(&loaded.cfg));
            } else {
                print!("{}", lpmc::cfg::to_text(&loaded.cfg));
            }
            ExitCode::SUCCESS
        }
        Cmd::Run {
            file,
            inputs,
            random,
            seed,
            max_steps,
        } => {
            let loaded = match load(&file) {
                Ok(l) => l,
                Err(c) => return c,
            };
            if let Some(r) = driver::unsupported_reason(&loaded.file, &loaded.analysis.unsupported)
            {
                eprintln!("error: cannot run this program: {r}");
                return ExitCode::from(EXIT_INPUT);
            }
            let limits = Limits {
                max_steps,
                ..Limits::default()
            };
            let cfg = &loaded.cfg;
            let line = |n| loaded.file.line_col(cfg.nodes[n].span.start).line;
            let runs: Vec<(String, interp::Run)> = match (inputs, random) {
                (Some(_), Some(_)) => {
                    eprintln!("error: give either --inputs or --random, not both");
                    return ExitCode::from(EXIT_INPUT);
                }
                (None, Some(n)) => {
                    let mut out = Vec::new();
                    for i in 0..n {
                        let s = seed.wrapping_add(i);
                        let r = interp::run(cfg, &mut RandomOracle::new(s), limits, false);
                        let hit = matches!(r.outcome, Outcome::Error { .. });
                        out.push((format!("seed {s}"), r));
                        if hit {
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
                        interp::run(cfg, &mut ListOracle::new(vals), limits, false),
                    )]
                }
            };
            let mut reached = false;
            for (what, r) in &runs {
                let how = match &r.outcome {
                    Outcome::Error { at } => {
                        reached = true;
                        format!("error reached at line {}", line(*at))
                    }
                    Outcome::Finished => "finished without error".to_string(),
                    Outcome::Blocked { at } => {
                        format!("stopped by a false assumption at line {}", line(*at))
                    }
                    Outcome::StepLimit => format!("step limit ({max_steps}) reached without error"),
                    Outcome::DepthLimit => "call-depth limit reached without error".to_string(),
                };
                println!("{what}: {how} (path length {})", r.steps);
            }
            if reached {
                ExitCode::from(10)
            } else {
                ExitCode::SUCCESS
            }
        }
    }
}

fn print_report(file: &std::path::Path, r: &Report) {
    println!("{}: {}", file.display(), r.verdict.as_str());
    if !r.reason.is_empty() {
        println!("  reason: {}", r.reason);
    }
    if let Some(t) = &r.trace {
        if !t.inputs.is_empty() {
            println!("  inputs:");
            for i in &t.inputs {
                println!("    line {:>4}  {} = {}", i.line, i.what, i.value);
            }
        }
        println!(
            "  trace ({} steps, error at line {}):",
            t.steps.len(),
            t.error_line
        );
        for (k, s) in t.steps.iter().enumerate() {
            println!("    {:>4}  line {:>4}  {}", k + 1, s.line, s.statement);
        }
    }
    if r.verdict != Verdict::Unknown || r.refinements > 0 {
        println!("  refinements: {}, cells: {:?}", r.refinements, r.cells);
    }
    println!("  time: {} ms", r.time_ms);
}
