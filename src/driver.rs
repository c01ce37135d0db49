//! The driver: runs the CEGAR loop (paper §5) on a loaded program and produces a
//! [`Report`] whose [`Outcome`] carries the evidence. Only the driver runs the loop
//! (ARCHITECTURE.md §1). It makes the one [`Deadline`] and the one solver factory and
//! passes both down; a watchdog answers on time even if a step does not come back.

use crate::abstraction::{abstract_program, Precision};
use crate::domain::DlcDomain;
use crate::engine::{tabulate, Budget, PointKind, Points, StopReason, Tabulation, Widening};
use crate::frontend::{Loaded, Semantics};
use crate::iteration::{self, Clock, Iteration, ProgramView};
use crate::limits::{run_guarded, seconds, Deadline, DEFAULT_MEMORY_MB};
use crate::refine::{refine, refine_widening, Learnt, Refinement, WideningLesson, MAX_DELAY};
use crate::ids::NodeId;
use crate::linear::{Conj, Constraint, Dim, Q};
use crate::report::{counterexample, defined_behaviour_only, Engine, EngineRun, GiveUp, Invariant, Outcome, Proof, Verdict};
use crate::smt::{Cvc5Factory, Solvers};
use crate::trace::{replay, Feasibility, Trace};
use std::collections::BTreeMap;
use std::sync::Arc;
use std::time::{Duration, Instant};

/// Options of `lpmc check`.
#[derive(Clone, Debug, Default)]
pub struct CheckOptions {
    /// Wall-clock budget in seconds (default: none; the step and fact budgets still apply).
    pub timeout_s: Option<f64>,
    /// Resident-memory budget in MB (default [`DEFAULT_MEMORY_MB`]).
    pub memory_mb: Option<u64>,
    /// Maximum number of refinements (default [`DEFAULT_MAX_REFINEMENTS`]).
    pub max_refinements: Option<u32>,
    /// Keep the text of every abstraction P̂k in the report.
    pub show_abstractions: bool,
    /// Treat every out-of-range array access as an error (`--check-bounds`).
    pub check_bounds: bool,
    /// Tabulation budgets (steps and facts) per iteration; the deadline is set from
    /// `timeout_s` and `memory_mb`.
    pub budget: Option<Budget>,
    /// The solver factory (default: cvc5).
    pub solvers: Option<Solvers>,
    /// Tabulate exactly, without widening (EUREKA's behaviour; `--no-widening`).
    pub no_widening: bool,
    /// Record every iteration in full, and the program, for `--report`: P̂k's
    /// statements, the trace's steps, the array accesses of the unsat core (one more
    /// solver session per iteration), the replayed run ([`Report::iterations`],
    /// [`Report::program`]).
    pub explain: bool,
}

/// Stack size of the thread running the CEGAR loop (cvc5 recurses deeply on long array
/// traces; the memory is only reserved, not committed).
const CHECK_STACK_BYTES: usize = 512 << 20;

/// Steps of the exact tabulation tried before the one with widening, per iteration.
pub const EXACT_STEPS: u64 = 2500;

/// ... and on this much CPU time of the checking thread (an exact tabulation's entailment
/// checks grow with the number of disjuncts at a node, so long exact runs get slow before
/// they run out of steps). CPU time, not wall-clock time, so that load on the machine
/// changes the point where it gives up less.
pub const EXACT_TIME: Duration = Duration::from_millis(600);

/// The default bound on refinement iterations.
pub const DEFAULT_MAX_REFINEMENTS: u32 = 64;

/// Counters and times of one `check`, per phase.
#[derive(Clone, Debug, Default, serde::Serialize)]
pub struct Stats {
    /// Tabulations run (refinements + 1, unless stopped early).
    pub iterations: u32,
    /// Path-edge disjuncts kept, over all iterations.
    pub disjuncts: u64,
    /// Worklist steps of the engine.
    pub engine_steps: u64,
    /// Summary disjuncts.
    pub summaries: u64,
    /// Fourier–Motzkin projections.
    pub fm_projections: u64,
    /// Entailment checks.
    pub entailment_checks: u64,
    /// SMT calls for entailment.
    pub entailment_smt_calls: u64,
    /// Trace checks (SMT).
    pub trace_checks: u32,
    /// Time building abstractions, ms.
    pub abstract_ms: f64,
    /// Time tabulating, ms.
    pub tabulate_ms: f64,
    /// Time checking traces, ms.
    pub trace_ms: f64,
    /// Time refining, ms.
    pub refine_ms: f64,
    /// Widenings applied, over all iterations.
    pub widenings: u64,
    /// Hull merges at the disjunct bound, over all iterations.
    pub hull_merges: u64,
    /// Refinements of the widening (longer delays, learnt thresholds).
    pub widening_refinements: u32,
    /// Per widening point of the last tabulation: what widening did there.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub widening_points: Vec<PointReport>,
}

/// What widening did at one widening point (`--stats`).
#[derive(Clone, Debug, Default, serde::Serialize)]
pub struct PointReport {
    /// The point, as the user reads it (`loop at line 7`, `entry of f`, `summary of f`).
    pub at: String,
    /// Widenings applied there (last tabulation).
    pub widenings: u32,
    /// Hull merges there (last tabulation).
    pub merges: u32,
    /// The longest chain of facts there (last tabulation).
    pub max_depth: u32,
    /// Its delay.
    pub delay: u32,
    /// Thresholds from its procedure's guards.
    pub guard_thresholds: usize,
    /// Thresholds learnt there by refinement, in the program's names.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub learnt: Vec<String>,
}

/// The outcome of `lpmc check`, with the work that led to it.
#[derive(Clone, Debug, serde::Serialize)]
pub struct Report {
    /// The outcome and its evidence.
    #[serde(flatten)]
    pub outcome: Outcome,
    /// Number of refinement iterations.
    pub refinements: u32,
    /// Tracked array cells per array name.
    pub cells: BTreeMap<String, Vec<i64>>,
    /// The arrays with a symbolic cell `a_k` at a ghost index (issue 12).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub symbolic_cells: Vec<String>,
    /// The number of ghost indices of the symbolic cells: 2 when a second ghost `k2 > k`
    /// relates two cells (sortedness), else absent.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ghosts: Option<u8>,
    /// Wall-clock time.
    pub time_ms: u128,
    /// Per-phase counters.
    pub stats: Stats,
    /// The integer semantics the program was checked with.
    pub semantics: Semantics,
    /// The abstractions P̂0, P̂1, ... as text (with `show_abstractions`).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub abstractions: Vec<String>,
    /// Per engine of a portfolio run (`crate::portfolio`): its verdict and time.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub engines: Vec<EngineRun>,
    /// The CEGAR iterations (in full with [`CheckOptions::explain`]).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub iterations: Vec<Iteration>,
    /// The program and its CFG (with [`CheckOptions::explain`]).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub program: Option<ProgramView>,
}

impl Report {
    pub(crate) fn new(outcome: Outcome) -> Report {
        Report {
            outcome,
            refinements: 0,
            cells: BTreeMap::new(),
            symbolic_cells: Vec::new(),
            ghosts: None,
            time_ms: 0,
            stats: Stats::default(),
            semantics: Semantics::default(),
            abstractions: Vec::new(),
            engines: Vec::new(),
            iterations: Vec::new(),
            program: None,
        }
    }

    /// The verdict.
    pub fn verdict(&self) -> Verdict {
        self.outcome.verdict()
    }
}

/// The cumulative counters the iteration records are timed with.
fn clock(s: &Stats) -> Clock {
    Clock {
        abstract_ms: s.abstract_ms,
        tabulate_ms: s.tabulate_ms,
        trace_ms: s.trace_ms,
        refine_ms: s.refine_ms,
        engine_steps: s.engine_steps,
        smt_calls: s.entailment_smt_calls + u64::from(s.trace_checks),
    }
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1000.0
}

/// Check a loaded program: the CEGAR loop of the paper (§5), on its own thread under a
/// watchdog, so that the answer comes within the time limit (plus a fraction of a
/// second) and UNKNOWN past the memory limit.
pub fn check(loaded: &Loaded, opts: &CheckOptions) -> Report {
    let start = Instant::now();
    let deadline = Deadline::none()
        .with_timeout(seconds(opts.timeout_s))
        .with_memory_mb(Some(opts.memory_mb.unwrap_or(DEFAULT_MEMORY_MB)));
    let work = {
        let loaded = loaded.clone();
        let opts = opts.clone();
        let deadline = deadline.clone();
        move || check_within(&loaded, &opts, &deadline)
    };
    let mut report = match run_guarded(&deadline, CHECK_STACK_BYTES, "lpmc-check", work) {
        Ok(r) => r,
        Err(Some(e)) => Report::new(Outcome::Unknown(GiveUp::exhausted(e))),
        Err(None) => Report::new(Outcome::Unknown(GiveUp::Internal(
            "the verification thread panicked".into(),
        ))),
    };
    report.time_ms = start.elapsed().as_millis();
    report.semantics = loaded.semantics;
    report
}

/// [`check`] on the current thread, held to `deadline` (polled by every layer; every
/// solver check is limited to the time left). Abstract with the current precision and
/// tabulate; no error reachable → SAFE; else check the abstract trace on the original
/// program: feasible and replayed → UNSAFE; infeasible → add the cells its unsat core
/// fixes and repeat. Budgets, solver failures and refinements without progress give
/// UNKNOWN with the reason.
pub fn check_within(loaded: &Loaded, opts: &CheckOptions, deadline: &Deadline) -> Report {
    let start = Instant::now();
    let mut report = Report::new(Outcome::Unknown(GiveUp::Internal("not run".into())));
    let solvers: Solvers = opts
        .solvers
        .clone()
        .unwrap_or_else(|| Arc::new(Cvc5Factory));
    report.outcome = match prepare(loaded, opts) {
        Err(g) => Outcome::Unknown(g),
        Ok(instrumented) => {
            let loaded = instrumented.as_ref().unwrap_or(loaded);
            let outcome = cegar(loaded, opts, &solvers, deadline, &mut report);
            iteration::close(&mut report.iterations, clock(&report.stats));
            if opts.explain {
                report.program = Some(iteration::program_view(loaded));
            }
            outcome
        }
    };
    if opts.explain && report.program.is_none() {
        report.program = Some(iteration::program_view(loaded));
    }
    // A give-up caused by the deadline says so, whatever layer noticed it.
    if let (Outcome::Unknown(_), Err(e)) = (&report.outcome, deadline.check()) {
        report.outcome = Outcome::Unknown(GiveUp::exhausted(e));
    }
    report.time_ms = start.elapsed().as_millis();
    report.semantics = loaded.semantics;
    report
}

/// Refuse unsupported programs; instrument the bounds checks.
pub(crate) fn prepare(loaded: &Loaded, opts: &CheckOptions) -> Result<Option<Loaded>, GiveUp> {
    if let Some(g) = GiveUp::unsupported(&loaded.file, &loaded.analysis.unsupported) {
        return Err(g);
    }
    if !opts.check_bounds {
        return Ok(None);
    }
    match crate::cfg::check_bounds(&loaded.cfg) {
        Ok(cfg) => Ok(Some(Loaded {
            cfg,
            ..loaded.clone()
        })),
        Err(span) => {
            let lc = loaded.file.line_col(span.start);
            Err(GiveUp::Unsupported {
                what: "--check-bounds: an array access whose evaluation depends on `u`".into(),
                span,
                line: lc.line,
                col: lc.col,
                more: 0,
            })
        }
    }
}

fn cegar(
    loaded: &Loaded,
    opts: &CheckOptions,
    solvers: &Solvers,
    deadline: &Deadline,
    report: &mut Report,
) -> Outcome {
    let cfg = &loaded.cfg;
    let max_refinements = opts.max_refinements.unwrap_or(DEFAULT_MAX_REFINEMENTS);
    let mut precision = Precision::empty();
    let debug = std::env::var_os("LPMC_DEBUG").is_some();
    let mut widening = if opts.no_widening {
        Widening::off()
    } else {
        opts.budget
            .as_ref()
            .map(|b| b.widening.clone())
            .unwrap_or_default()
    };
    let mut learnt = Learnt::default();
    // Whether an exact tabulation ran out of its steps: then every later iteration widens.
    let mut exact_failed = false;
    // The variables of the previous abstraction, whose dimensions `learnt` refers to.
    let mut learnt_vars: Vec<String> = Vec::new();
    loop {
        let k = report.refinements;
        iteration::begin(&mut report.iterations, k, cfg, &precision, clock(&report.stats));
        let t0 = Instant::now();
        let phat = abstract_program(cfg, &precision);
        learnt.carry_over(&learnt_vars, &phat);
        learnt_vars = crate::refine::var_keys(&phat);
        report.stats.abstract_ms += ms(t0.elapsed());
        if opts.show_abstractions {
            let mut text = crate::cfg::to_text(&phat);
            text.push_str(&learnt_text(loaded, &phat, &widening, &learnt));
            report.abstractions.push(text);
        }
        iteration::abstraction(&mut report.iterations, loaded, &phat, opts.explain);
        if debug {
            eprintln!(
                "[lpmc] iteration {k}: cells {:?}\n{}",
                precision.by_name(cfg),
                crate::cfg::to_text(&phat)
            );
            let dims: Vec<String> = phat
                .vars
                .iter_enumerated()
                .map(|(v, i)| format!("x{}={}", 2 * v.0 + 1, i.name))
                .collect();
            eprintln!("[lpmc] dimensions (current values; x-1 is the entry): {}", dims.join(" "));
        }
        let mut budget = opts.budget.clone().unwrap_or_default();
        budget.deadline = deadline.clone();
        budget.widening = widening.clone();
        let (max_steps, max_facts) = (budget.max_steps, budget.max_facts);
        let mut dom = DlcDomain::new(Arc::clone(solvers), deadline.clone());
        dom.learnt = learnt.thresholds.clone();
        dom.splits = learnt.splits.clone();
        for (n, atoms) in crate::refine::ghost_splits(&phat) {
            crate::refine::add_new(dom.splits.entry(n).or_default(), atoms, usize::MAX);
        }
        let t0 = Instant::now();
        // EUREKA's exact tabulation first, on a small step budget: it decides programs
        // with small loop and recursion bounds exactly (and gives the cell refinement its
        // precise traces); only if it does not converge there, tabulate with widening.
        let mut tab = None;
        if widening.enabled && !exact_failed {
            let exact = Budget {
                max_steps: budget.max_steps.min(EXACT_STEPS),
                widening: Widening::off(),
                deadline: deadline.sub_cpu(EXACT_TIME),
                ..budget.clone()
            };
            let t = tabulate(&phat, &mut dom, exact);
            report.stats.engine_steps += t.stats.steps;
            if debug {
                eprintln!(
                    "[lpmc] exact tabulation: {:?} after {} steps, {} comparisons, {} ms",
                    t.stop,
                    t.stats.steps,
                    t.stats.comparisons,
                    t0.elapsed().as_millis()
                );
            }
            let out_of_time = matches!(t.stop, StopReason::Exhausted(_)) && !deadline.expired();
            if out_of_time || matches!(t.stop, StopReason::StepLimit | StopReason::FactLimit) {
                exact_failed = true;
            } else {
                tab = Some(t);
            }
        }
        let tab = match tab {
            Some(t) => t,
            None => {
                let t1 = Instant::now();
                dom.entail.per_disjunct_only = widening.enabled;
                let t = tabulate(&phat, &mut dom, budget);
                report.stats.engine_steps += t.stats.steps;
                if debug {
                    eprintln!(
                        "[lpmc] tabulation with widening: {:?} after {} steps, {} facts, {} ms",
                        t.stop,
                        t.stats.steps,
                        t.stats.facts,
                        t1.elapsed().as_millis()
                    );
                    let mut per: Vec<(usize, u32)> =
                        t.at_node.iter_enumerated().map(|(n, fs)| (fs.len(), n.0)).collect();
                    per.sort_unstable_by(|a, b| b.cmp(a));
                    eprintln!("[lpmc] facts per node (most first): {:?}", &per[..per.len().min(12)]);
                    if let Some(n) = std::env::var("LPMC_DUMP_NODE").ok().and_then(|s| s.parse::<u32>().ok()) {
                        for f in &t.at_node[NodeId(n)] {
                            eprintln!("[lpmc]   {n}: {}", t.fact(*f).fact);
                        }
                    }
                }
                t
            }
        };
        report.stats.tabulate_ms += ms(t0.elapsed());
        report.stats.iterations += 1;
        report.stats.disjuncts += tab.stats.facts;
        report.stats.summaries += tab.stats.summaries;
        report.stats.fm_projections += dom.stats.projections;
        report.stats.entailment_checks += dom.entail.checks;
        report.stats.entailment_smt_calls += dom.entail.smt_calls;
        report.stats.widenings += dom.stats.widenings;
        report.stats.hull_merges += dom.stats.hulls;
        report.stats.widening_points = point_reports(loaded, &phat, &tab, &widening, &mut dom);
        iteration::tabulated(&mut report.iterations, &tab.stop);
        let id = match tab.stop {
            StopReason::Converged => {
                return Outcome::Safe(Proof {
                    engine: Engine::Cegar,
                    abstraction: Some(k),
                    cells: precision.by_name(cfg),
                    symbolic: precision.symbolic_by_name(cfg),
                    two_ghosts: precision.has_second_ghost(),
                    bound: None,
                    paths: None,
                    invariants: invariants(loaded, &phat, &tab),
                })
            }
            StopReason::StepLimit => {
                return Outcome::Unknown(GiveUp::Budget(format!(
                    "tabulation steps ({max_steps}) in iteration {k}"
                )))
            }
            StopReason::FactLimit => {
                return Outcome::Unknown(GiveUp::Budget(format!(
                    "disjuncts ({max_facts}) in iteration {k}"
                )))
            }
            StopReason::Exhausted(e) => return Outcome::Unknown(GiveUp::exhausted(e)),
            StopReason::ErrorReached(id) => id,
        };
        let tr = Trace {
            path: tab.trace(id),
        };
        iteration::traced(&mut report.iterations, loaded, &tr, opts.explain);
        let t0 = Instant::now();
        report.stats.trace_checks += 1;
        let feas = crate::trace::check_with(cfg, &tr, solvers.as_ref(), deadline);
        report.stats.trace_ms += ms(t0.elapsed());
        iteration::checked(&mut report.iterations, loaded, &tr, &feas, solvers, deadline, opts.explain);
        let core = match feas {
            Err(e) => {
                return Outcome::Unknown(GiveUp::Internal(format!(
                    "the abstract trace is not a path of the program: {e}"
                )))
            }
            Ok(Feasibility::Unknown(why)) => {
                return Outcome::Unknown(GiveUp::SolverUnknown(format!(
                    "on the abstract error trace: {why}"
                )))
            }
            Ok(Feasibility::Feasible(w)) => {
                return match replay(cfg, &tr, &w) {
                    Ok(()) => defined_behaviour_only(Outcome::Unsafe(counterexample(
                        Engine::Cegar,
                        loaded,
                        &tr,
                        &w,
                    ))),
                    Err(m) => Outcome::Unknown(GiveUp::Internal(format!(
                        "the solver's counterexample did not replay in the interpreter: {}",
                        m.0
                    ))),
                };
            }
            Ok(Feasibility::Infeasible { core }) => core,
        };
        // Widened facts on the trace, or on the derivations of the read rule's partners
        // it used (issue 12).
        let widened = tab.path_facts(id).iter().any(|f| tab.fact(*f).widened)
            || tab
                .partner_paths(id, crate::refine::MAX_PARTNER_PATHS)
                .iter()
                .flatten()
                .any(|f| tab.fact(*f).widened);
        if debug {
            let w: Vec<String> = tab
                .path_facts(id)
                .iter()
                .map(|f| {
                    let r = tab.fact(*f);
                    format!("{}{}", r.node.0, if r.widened { "*" } else { "" })
                })
                .collect();
            eprintln!("[lpmc] infeasible trace: {}", w.join(" "));
            for f in tab.path_facts(id) {
                let r = tab.fact(f);
                if r.widened {
                    eprintln!("[lpmc]   at {}: {}", r.node.0, r.fact);
                }
            }
            for p in tab.partner_paths(id, crate::refine::MAX_PARTNER_PATHS) {
                let last = tab.fact(*p.last().expect("a partner"));
                let w: Vec<String> = p
                    .iter()
                    .map(|f| {
                        let r = tab.fact(*f);
                        format!("{}{}", r.node.0, if r.widened { "*" } else { "" })
                    })
                    .collect();
                eprintln!("[lpmc] partner at {}: {}\n[lpmc]   its path: {}", last.node.0, last.fact, w.join(" "));
            }
        }
        let mut cells_stuck = !cfg.has_arrays();
        if cfg.has_arrays() {
            if report.refinements >= max_refinements {
                return Outcome::Unknown(GiveUp::Budget(format!("refinements ({max_refinements})")));
            }
            let t0 = Instant::now();
            let r = refine(cfg, &tr, &core, &mut precision, solvers.as_ref(), deadline);
            if debug {
                eprintln!("[lpmc] cell refinement: {r:?} (core steps {core:?})");
            }
            report.stats.refine_ms += ms(t0.elapsed());
            iteration::refined(&mut report.iterations, cfg, &r);
            if let Err(e) = deadline.check() {
                return Outcome::Unknown(GiveUp::exhausted(e));
            }
            match r {
                Refinement::NewCells(_) => {
                    report.refinements += 1;
                    report.cells = precision.by_name(cfg);
                }
                Refinement::NewSymbolic(_) => {
                    report.refinements += 1;
                    report.symbolic_cells = precision.symbolic_by_name(cfg);
                }
                Refinement::NoProgress => cells_stuck = true,
                Refinement::Failed(why) => return Outcome::Unknown(GiveUp::SolverUnknown(why)),
            }
        }
        if !cells_stuck {
            continue;
        }
        // One ghost keeps failing (the trace fixes no cell, and the widening has nothing
        // to learn from it, or the trace went through no widened fact): a second ghost
        // relates two cells (issue 12), if the program compares two cells at all.
        let second = |precision: &mut Precision, report: &mut Report| {
            if precision.symbolic().next().is_none()
                || precision.has_second_ghost()
                || !crate::abstraction::reads_two_cells(cfg, precision)
            {
                return false;
            }
            precision.add_second_ghost();
            report.refinements += 1;
            report.ghosts = Some(2);
            iteration::second_ghost(&mut report.iterations);
            true
        };
        if !widened && second(&mut precision, report) {
            continue;
        }
        if !widened {
            return Outcome::Unknown(GiveUp::NoProgress(if cfg.has_arrays() {
                format!(
                    "the abstract error trace ({} steps) is infeasible, but its unsat core fixes no new array cell",
                    tr.path.len()
                )
            } else {
                "the abstract error trace is infeasible, but the program has no arrays to refine: \
                 the linear abstraction is too coarse here (e.g. it keeps no congruences)"
                    .to_string()
            }));
        }
        if report.stats.widening_refinements >= max_refinements {
            return Outcome::Unknown(GiveUp::Budget(format!(
                "refinements of the widening ({max_refinements})"
            )));
        }
        let t0 = Instant::now();
        let lesson = refine_widening(
            &phat,
            &tab,
            id,
            &mut widening,
            &mut learnt,
            solvers,
            deadline,
        );
        report.stats.refine_ms += ms(t0.elapsed());
        if debug {
            eprintln!("[lpmc] widening refinement: {lesson:?}; splits now {:?}", learnt.splits);
        }
        if !lesson.is_progress() && second(&mut precision, report) {
            continue;
        }
        if !lesson.is_progress() {
            return Outcome::Unknown(GiveUp::NoProgress(format!(
                "the abstract error trace ({} steps) is infeasible and went through widened facts, \
                 but refining the widening made no progress (delays at their maximum {MAX_DELAY}, \
                 no new thresholds)",
                tr.path.len()
            )));
        }
        report.stats.widening_refinements += 1;
        iteration::widening_refined(
            &mut report.iterations,
            lesson_text(loaded, &phat, &lesson, &learnt),
        );
    }
}

/// A widening point as the user reads it: `loop at line 7`, `entry of f`, `summary of f`.
fn point_name(loaded: &Loaded, phat: &crate::cfg::Cfg, points: &Points, n: NodeId) -> String {
    let proc = phat.nodes[n].proc.map(|p| phat.procs[p].name.clone()).unwrap_or_default();
    match points.kind[n] {
        PointKind::RecEntry => format!("entry of {proc}"),
        PointKind::RecExit => format!("summary of {proc}"),
        _ => {
            let line = loaded.file.line_col(phat.nodes[n].span.start).line;
            format!("loop at line {line}")
        }
    }
}

/// The name of dimension `d` of a fact: `x` for a current value, `x₀` for an entry value.
fn dim_name(phat: &crate::cfg::Cfg, d: Dim) -> String {
    let v = crate::ids::VarId(d.0 / 2);
    if (v.0 as usize) >= phat.vars.len() {
        return format!("d{}", d.0);
    }
    let name = phat.var_name(v);
    if d.0 % 2 == 0 {
        format!("{name}₀")
    } else {
        name
    }
}

/// `a·x` terms of a linear form (integer coefficients after scaling).
fn form_text(phat: &crate::cfg::Cfg, terms: &[(Dim, num_bigint::BigInt)]) -> String {
    let mut s = String::new();
    for (i, (d, a)) in terms.iter().enumerate() {
        let neg = a.sign() == num_bigint::Sign::Minus;
        let mag = if neg { -a.clone() } else { a.clone() };
        if i == 0 {
            if neg {
                s.push('-');
            }
        } else {
            s.push_str(if neg { " - " } else { " + " });
        }
        if mag != num_bigint::BigInt::from(1) {
            s.push_str(&format!("{mag}·"));
        }
        s.push_str(&dim_name(phat, *d));
    }
    s
}

/// A conjunction in the program's names, one row per linear form: `0 ≤ i ≤ n`-style
/// bounds are written `0 ≤ i`, `i - n ≤ 0`; `true` if it has no constraint.
fn conj_text(phat: &crate::cfg::Cfg, c: &Conj) -> String {
    if c.is_trivially_false() {
        return "false".into();
    }
    let mut parts = Vec::new();
    for (key, r) in c.rows() {
        // Scale to integer coefficients.
        let l = key
            .values()
            .fold(num_bigint::BigInt::from(1), |acc, q| num_integer::Integer::lcm(&acc, q.denom()));
        let lq = Q::from_integer(l);
        let terms: Vec<(Dim, num_bigint::BigInt)> =
            key.iter().map(|(d, q)| (*d, (q * &lq).to_integer())).collect();
        let form = form_text(phat, &terms);
        let b = |v: &Q| {
            let x = v * &lq;
            if x.is_integer() {
                x.to_integer().to_string()
            } else {
                x.to_string()
            }
        };
        match (&r.lo, &r.hi) {
            (Some(lo), Some(hi)) if lo.value == hi.value => {
                parts.push(format!("{form} = {}", b(&lo.value)))
            }
            (Some(lo), Some(hi)) => parts.push(format!("{} ≤ {form} ≤ {}", b(&lo.value), b(&hi.value))),
            (Some(lo), None) => parts.push(format!("{form} ≥ {}", b(&lo.value))),
            (None, Some(hi)) => parts.push(format!("{form} ≤ {}", b(&hi.value))),
            (None, None) => {}
        }
    }
    if parts.is_empty() {
        "true".into()
    } else {
        parts.join(" ∧ ")
    }
}

/// Disjuncts shown per invariant; beyond this the invariant says how many it has.
const SHOWN_DISJUNCTS: usize = 4;

/// The invariant at each loop head and the summary of each recursive procedure of a
/// converged tabulation, over current values (loop heads) or entry and exit values
/// (summaries), in the program's names.
fn invariants(loaded: &Loaded, phat: &crate::cfg::Cfg, tab: &Tabulation<Conj>) -> Vec<Invariant> {
    let points = Points::of(phat);
    let (shown, ghosts) = user_names(phat);
    let mut out = Vec::new();
    for (n, kind) in points.kind.iter_enumerated() {
        let facts: Vec<Conj> = match kind {
            PointKind::LoopHead => tab.at_node[n]
                .iter()
                .map(|f| {
                    let c = &tab.fact(*f).fact;
                    let entry: Vec<Dim> = c.dims().into_iter().filter(|d| d.0 % 2 == 0).collect();
                    c.project_out_within(&entry, &crate::limits::Deadline::none())
                })
                .collect(),
            PointKind::RecExit => {
                let Some(p) = phat.nodes[n].proc else { continue };
                tab.summaries[p].iter().map(|(s, _)| s.clone()).collect()
            }
            _ => continue,
        };
        if facts.is_empty() {
            continue;
        }
        let mut texts: Vec<String> = Vec::new();
        for f in &facts {
            let t = conj_text(&shown, f);
            if !texts.contains(&t) {
                texts.push(t);
            }
        }
        let formula = if texts.len() > SHOWN_DISJUNCTS {
            format!(
                "{} ∨ … ({} disjuncts)",
                texts[..SHOWN_DISJUNCTS].join(" ∨ "),
                texts.len()
            )
        } else if texts.len() > 1 {
            texts.iter().map(|t| format!("({t})")).collect::<Vec<_>>().join(" ∨ ")
        } else {
            texts.remove(0)
        };
        let formula = if ghosts.is_empty() {
            formula
        } else {
            format!("∀{}. {formula}", ghosts.join(", "))
        };
        out.push(Invariant {
            at: point_name(loaded, phat, &points, n),
            formula,
        });
    }
    // With symbolic cells: the ∀-invariants after the loops, first (issue 12).
    let mut after = forall_after_loops(loaded, phat, &points, tab, &shown, &ghosts);
    after.append(&mut out);
    after
}

/// With symbolic cells (issue 12), the ∀-property of the cells after each loop, in the
/// form `∀k. 0 ≤ k ≤ 999 → a[k] = 0`. At the loop's exit, each fact (over current values,
/// temporaries and `$ret` projected out) splits into its constraints on the ghost `K`
/// (without cells), on the cells `C`, and the rest. The facts hold for every ghost value
/// in range, so `∀k. K → c` holds for each `c` of `C` that every fact, within `K`,
/// implies (an exact test); only those are stated.
fn forall_after_loops(
    loaded: &Loaded,
    phat: &crate::cfg::Cfg,
    points: &Points,
    tab: &Tabulation<Conj>,
    shown: &crate::cfg::Cfg,
    ghosts: &[String],
) -> Vec<Invariant> {
    use crate::cfg::NodeKind;
    use crate::sema::VarKind;
    let mut out = Vec::new();
    let kds: Vec<Dim> = phat.ghosts().into_iter().map(crate::domain::cur_dim).collect();
    if kds.is_empty() {
        return out;
    }
    let cells: Vec<Dim> = phat
        .vars
        .indices()
        .filter(|v| matches!(phat.vars[*v].kind, VarKind::SymCell { .. }))
        .map(crate::domain::cur_dim)
        .collect();
    let hidden: Vec<Dim> = phat
        .vars
        .indices()
        .filter(|v| *v == phat.ret || matches!(phat.vars[*v].kind, VarKind::Temp(_)))
        .map(crate::domain::cur_dim)
        .collect();
    let none = Deadline::none();
    for (n, kind) in points.kind.iter_enumerated() {
        if *kind != PointKind::LoopHead {
            continue;
        }
        // The loop's exit: the false branch of the test right after its head.
        let test = match phat.nodes[n].kind {
            NodeKind::Skip { next } => next,
            _ => continue,
        };
        let NodeKind::Branch { els: exit, .. } = phat.nodes[test].kind else {
            continue;
        };
        let mut facts: Vec<Conj> = Vec::new();
        let mut parts: Vec<(Conj, Vec<Constraint>)> = Vec::new();
        for f in &tab.at_node[exit] {
            let c = &tab.fact(*f).fact;
            let drop: Vec<Dim> = c
                .dims()
                .into_iter()
                .filter(|d| d.0 % 2 == 0 || hidden.contains(d))
                .collect();
            let c = kds.iter().fold(c.project_out_within(&drop, &none), |c, kd| {
                ghost_defined_cells(c, *kd, &cells)
            });
            let (mut k, mut cell) = (Conj::top(), Vec::new());
            for x in c.constraints() {
                let ds: Vec<Dim> = x.expr.coeffs().keys().copied().collect();
                if ds.iter().any(|d| cells.contains(d)) {
                    cell.push(x);
                } else if ds.iter().any(|d| kds.contains(d)) {
                    k.add(&x);
                }
            }
            if !cell.is_empty() {
                parts.push((k, cell));
            }
            facts.push(c);
        }
        // A statement `K → C` of one fact, kept with the constraints of C that every fact
        // within K implies.
        let mut cands: Vec<(Conj, Vec<Constraint>)> = Vec::new();
        for (k, cell) in &parts {
            let within: Vec<Conj> = facts.iter().map(|f| f.and(k)).filter(|f| !f.is_empty()).collect();
            // (The bounds of a C type, `-2147483648 ≤ a[k]`, say nothing about the loop.)
            let type_bound = |c: &Constraint| num_traits::Signed::abs(c.expr.constant_term()) >= Q::from_integer(i32::MAX.into());
            let kept: Vec<Constraint> = cell
                .iter()
                .filter(|c| !type_bound(c) && within.iter().all(|f| f.implies(c)))
                .cloned()
                .collect();
            if !kept.is_empty() {
                cands.push((k.clone(), kept));
            }
        }
        // A statement whose range lies within another's and says no more is left out.
        let mut stated: Vec<String> = Vec::new();
        for (i, (k, kept)) in cands.iter().enumerate() {
            let subsumed = cands.iter().enumerate().any(|(j, (k2, kept2))| {
                j != i
                    && k.implies_all(&k2.constraints())
                    && kept.iter().all(|c| kept2.contains(c))
                    && (!k2.implies_all(&k.constraints()) || j < i)
            });
            if subsumed {
                continue;
            }
            let mut cs = Conj::top();
            for c in kept {
                cs.add(c);
            }
            let text = format!("{} → {}", conj_text(shown, k), conj_text(shown, &cs));
            if !stated.contains(&text) && stated.len() < 3 {
                stated.push(text);
            }
        }
        if stated.is_empty() {
            continue;
        }
        let stated: Vec<String> = if stated.len() > 1 {
            stated.into_iter().map(|t| format!("({t})")).collect()
        } else {
            stated
        };
        out.push(Invariant {
            at: format!("after the {}", point_name(loaded, phat, points, n)),
            formula: format!("∀{}. {}", ghosts.join(", "), stated.join(" ∧ ")),
        });
    }
    out
}

/// `c` with each cell that an equality defines in terms of the ghost (`a_k = k`, and no
/// other cell) replaced by its definition in the other constraints, the equality kept: an
/// equivalent fact whose bounds on the ghost no longer hide behind the cell
/// (`a_k ≤ n - 1` becomes `k ≤ n - 1`), so that they state the range of `a[k] = k`.
fn ghost_defined_cells(mut c: Conj, kd: Dim, cells: &[Dim]) -> Conj {
    use crate::linear::{LinExpr, Rel};
    let mut defs: Vec<Constraint> = Vec::new();
    for x in c.constraints() {
        if x.rel != Rel::Eq || num_traits::Zero::is_zero(&x.expr.coeff(kd)) {
            continue;
        }
        let mut own = x.expr.coeffs().keys().filter(|d| cells.contains(d));
        let (Some(&cd), None) = (own.next(), own.next()) else {
            continue;
        };
        if defs.iter().any(|y| !num_traits::Zero::is_zero(&y.expr.coeff(cd))) {
            continue;
        }
        // a·cd + rest = 0  →  cd = -rest / a
        let a = x.expr.coeff(cd);
        let rest = x.expr.clone() - LinExpr::var(cd).scale(&a);
        c = c.substitute(cd, &rest.scale(&(-a.recip())));
        defs.push(x);
    }
    for x in &defs {
        c.add(x);
    }
    c
}

/// `phat` with its symbolic cells named as the user reads them (issue 12): the ghost is
/// `k` (or `k0`, `k1`, ... when the program has a `k`) and the cell of array `a` is
/// `a[k]`; two ghosts are `k1` and `k2` (or `k1_`, ...), with cells `a[k1]` and `a[k2]`;
/// and the ghosts' names.
fn user_names(phat: &crate::cfg::Cfg) -> (crate::cfg::Cfg, Vec<String>) {
    use crate::sema::VarKind;
    let mut shown = phat.clone();
    let ghosts = phat.ghosts();
    if ghosts.is_empty() {
        return (shown, Vec::new());
    }
    let taken = |n: &str| phat.vars.iter().any(|v| v.name == n);
    let names: Vec<String> = if let [_, _] = ghosts[..] {
        ["k1", "k2"]
            .iter()
            .map(|k| {
                std::iter::once(k.to_string())
                    .chain((0..).map(|i| format!("{k}_{i}")))
                    .find(|n| !taken(n))
                    .expect("an unused name")
            })
            .collect()
    } else {
        vec![std::iter::once("k".to_string())
            .chain((0..).map(|i| format!("k{i}")))
            .find(|n| !taken(n))
            .expect("an unused name")]
    };
    // The cells at the second ghost come after it.
    let ghost_of = |v: crate::ids::VarId| usize::from(ghosts.len() == 2 && v >= ghosts[1]);
    for (i, v) in shown.vars.iter_mut().enumerate() {
        let id = crate::ids::VarId(i as u32);
        match v.kind {
            VarKind::Ghost { .. } => v.name = names[ghost_of(id)].clone(),
            VarKind::SymCell { array, .. } => {
                v.name = format!("{}[{}]", phat.arrays[array].name, names[ghost_of(id)])
            }
            _ => {}
        }
    }
    (shown, names)
}

/// What widening did at each widening point of a tabulation (`--stats`).
fn point_reports(
    loaded: &Loaded,
    phat: &crate::cfg::Cfg,
    tab: &Tabulation<Conj>,
    widening: &Widening,
    dom: &mut DlcDomain,
) -> Vec<PointReport> {
    let points = Points::of(phat);
    let mut out = Vec::new();
    for (n, ps) in &tab.stats.points {
        let guard_thresholds = {
            let learnt = dom.learnt.get(n).map_or(0, Vec::len);
            dom.thresholds_at(phat, *n).len().saturating_sub(learnt)
        };
        out.push(PointReport {
            at: point_name(loaded, phat, &points, *n),
            widenings: ps.widenings,
            merges: ps.merges,
            max_depth: ps.max_depth,
            delay: widening.delay_at(*n),
            guard_thresholds,
            learnt: dom
                .learnt
                .get(n)
                .map(|cs| cs.iter().map(|c| constraint_text(phat, c)).collect())
                .unwrap_or_default(),
        });
    }
    out
}

/// One constraint in the program's names.
fn constraint_text(phat: &crate::cfg::Cfg, c: &Constraint) -> String {
    let mut k = Conj::top();
    k.add(c);
    conj_text(phat, &k)
}

/// The learnt thresholds and raised delays, as comment lines after an abstraction's text
/// (`--show-abstractions`).
/// What one refinement of the widening learnt, per point, in the program's names.
fn lesson_text(
    loaded: &Loaded,
    phat: &crate::cfg::Cfg,
    lesson: &WideningLesson,
    learnt: &Learnt,
) -> Vec<String> {
    let points = Points::of(phat);
    let name = |n: NodeId| point_name(loaded, phat, &points, n);
    let mut out = Vec::new();
    for (n, k) in &lesson.splits {
        let atoms = learnt.splits.get(n).map(Vec::as_slice).unwrap_or_default();
        let new: Vec<String> = atoms[atoms.len().saturating_sub(*k)..]
            .iter()
            .map(|c| constraint_text(phat, c))
            .collect();
        out.push(format!("{}: partition by {}", name(*n), new.join(", ")));
    }
    for (n, k) in &lesson.thresholds {
        out.push(format!("{}: {k} new thresholds", name(*n)));
    }
    for (n, d) in &lesson.delays {
        out.push(format!("{}: widening delayed to visit {d}", name(*n)));
    }
    for n in &lesson.disjunctive {
        out.push(format!("{}: keeps disjuncts within each partition cell", name(*n)));
    }
    out
}

fn learnt_text(
    loaded: &Loaded,
    phat: &crate::cfg::Cfg,
    widening: &Widening,
    learnt: &Learnt,
) -> String {
    let points = Points::of(phat);
    let mut s = String::new();
    let mut section = |what: &str, map: &BTreeMap<NodeId, Vec<Constraint>>| {
        for (n, cs) in map {
            let ts: Vec<String> = cs.iter().map(|c| constraint_text(phat, c)).collect();
            s.push_str(&format!(
                "// {what} at {}: {}\n",
                point_name(loaded, phat, &points, *n),
                ts.join(", ")
            ));
        }
    };
    section("partition", &learnt.splits);
    section("learnt thresholds", &learnt.thresholds);
    for (n, d) in &widening.delays {
        s.push_str(&format!(
            "// widening delay at {}: {d}\n",
            point_name(loaded, phat, &points, *n)
        ));
    }
    for n in &widening.disjunctive {
        s.push_str(&format!(
            "// disjuncts within partition cells at {}\n",
            point_name(loaded, phat, &points, *n)
        ));
    }
    s
}
