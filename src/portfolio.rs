//! `lpmc check` as a portfolio: the CEGAR engine, the bounded engine with a growing
//! bound, and the concrete search run on their own threads under one deadline. The
//! first definite answer wins and the others are stopped:
//! - SAFE comes from CEGAR (the abstraction over-approximates the program), or from the
//!   bounded engine when every path ends within its bound;
//! - UNSAFE comes from any engine, always as a trace confirmed over integers and arrays
//!   and replayed by the interpreter.
//!
//! When no engine decides, the answer is UNKNOWN with the CEGAR engine's reason (the
//! others' reasons are in [`Report::engines`]). The portfolio sits above `driver` and
//! `bmc`, which stay siblings.
//!
//! The engines start in stages, so that the ones that lose do not spend CPU time for
//! nothing on programs one engine decides at once: first the search alone for its first
//! [`PROBE_RUNS`] short concrete runs (a few milliseconds; it finds most bugs there), then the
//! bounded engine alone, which decides programs with small concrete loops in a few
//! tens of milliseconds; once the process has spent [`PROVERS_AFTER`] of CPU time on it
//! (or it gave up), the CEGAR engine beside it, each on a core of two; and once the
//! bounded engine has explored the bound it merges first ([`MERGED_FIRST_K`]), or
//! spent [`BMC_FIRST_CPU`] of its own on them, or gave up, the rest of the search, while
//! the bounded engine yields ([`BMC_NICE`]). So the two provers have
//! their first turn without slowing each other on two cores, and a nested bounded
//! program gets the merged formula of its first bounds before the search takes a core.
//! The delays are counted in runs and in CPU time, never in wall-clock time, and only
//! decide when an engine starts: every engine still runs to its own verdict.

use crate::bmc::{bmc_recheck, bmc_verdict_within, Unwind, MERGED_FIRST_K};
use crate::driver::{check_within, CheckOptions, Report};
use crate::frontend::Loaded;
use crate::limits::{resident_bytes, seconds, Deadline, Exhausted, DEFAULT_MEMORY_MB};
use crate::report::{tested_counterexample, Engine, EngineRun, GiveUp, Outcome};
use crate::search::{search_within, SearchOptions, SearchResult};
use crate::smt::{Cvc5Factory, Solvers};
use std::sync::atomic::{AtomicI64, AtomicU32, AtomicU8, Ordering};
use std::sync::mpsc;
use std::sync::Arc;
use std::time::{Duration, Instant};

/// Which engines `lpmc check` runs.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum EngineChoice {
    /// Only the CEGAR engine.
    Cegar,
    /// Only the bounded engine (`--unwind auto`).
    Bmc,
    /// Only the concrete search (never SAFE).
    Search,
    /// All three, the first definite answer wins (the default).
    #[default]
    All,
}

impl std::str::FromStr for EngineChoice {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        match s {
            "cegar" => Ok(EngineChoice::Cegar),
            "bmc" => Ok(EngineChoice::Bmc),
            "search" => Ok(EngineChoice::Search),
            "all" => Ok(EngineChoice::All),
            _ => Err(format!("`{s}` is not an engine: cegar, bmc, search or all")),
        }
    }
}

impl EngineChoice {
    fn engines(self) -> Vec<Engine> {
        match self {
            EngineChoice::Cegar => vec![Engine::Cegar],
            EngineChoice::Bmc => vec![Engine::Bmc],
            EngineChoice::Search => vec![Engine::Search],
            EngineChoice::All => vec![Engine::Cegar, Engine::Bmc, Engine::Search],
        }
    }
}

/// Stack of the engine threads (cvc5 and the tabulation recurse deeply).
const STACK_BYTES: usize = 512 << 20;

/// How often the portfolio samples the clock and the memory.
const TICK: Duration = Duration::from_millis(20);

/// How long the portfolio waits, after the limit, for the engines' own answers.
const GRACE: Duration = Duration::from_millis(150);

/// The search yields half its core after this long (it finds most bugs at once).
const SEARCH_SHARE_AFTER: Duration = Duration::from_secs(1);

/// The concrete runs the search makes alone before the other engines start, and the
/// step bound of each (a fixed amount of work: at most a few milliseconds).
const PROBE_RUNS: u64 = 16;
const PROBE_STEPS: usize = 10_000;

/// The CPU time the bounded engine has alone (after the search's first runs) before the
/// CEGAR engine and the rest of the search start.
const PROVERS_AFTER: Duration = Duration::from_millis(80);

/// How often the portfolio looks at the CPU time while engines wait to start.
const STAGE_TICK: Duration = Duration::from_millis(2);

/// How much lower the bounded engine's scheduling priority is once the rest of the search
/// runs beside it and the CEGAR engine ([`crate::limits::lower_priority_of`]; the search
/// lowers its own once it yields): on two cores, CEGAR, the only engine that proves SAFE
/// for unbounded programs, keeps a whole core.
const BMC_NICE: i32 = 10;

/// The most CPU time of its own the bounded engine has beside the CEGAR engine, before
/// the rest of the search starts, for the merged formula of the bounds up to
/// [`MERGED_FIRST_K`], which decides the programs whose loops run a few iterations each
/// (on the nested bounded programs of lp-programs/bounded/ they take up to about 400
/// ms; on most programs they take a few milliseconds, and the search starts as soon as
/// the engine goes past them). A platform that does not tell a thread's CPU time starts
/// the search at once.
const BMC_FIRST_CPU: Duration = Duration::from_millis(500);

/// The stages of a portfolio (see the module docs).
const STAGE_PROBE: u8 = 0;
const STAGE_BMC: u8 = 1;
const STAGE_PROVERS: u8 = 2;
const STAGE_ALL: u8 = 3;

/// Wait until the portfolio reaches `stage`; `false` if the deadline ran out first.
fn wait_for_stage(gate: &AtomicU8, stage: u8, deadline: &Deadline) -> bool {
    while gate.load(Ordering::Acquire) < stage {
        if deadline.expired() {
            return false;
        }
        std::thread::sleep(STAGE_TICK / 2);
    }
    true
}

/// Runs of `--engine search` without a time limit.
const SEARCH_RUNS_ALONE: u64 = 10_000;

/// What one engine thread sends back.
struct Answer {
    engine: Engine,
    outcome: Outcome,
    /// The CEGAR engine's full report (refinements, cells, stats, abstractions).
    report: Option<Report>,
    time_ms: u128,
}

/// Check `loaded` with the engines `choice` names, under `opts`' time and memory limits.
/// The report's `engines` lists each engine's verdict and time; the outcome's engine
/// says which one decided.
pub fn check(loaded: &Loaded, opts: &CheckOptions, choice: EngineChoice) -> Report {
    let start = Instant::now();
    let memory = opts
        .memory_mb
        .unwrap_or(DEFAULT_MEMORY_MB)
        .saturating_mul(1 << 20);
    let limit = seconds(opts.timeout_s).map(|d| start + d);
    let solvers: Solvers = opts
        .solvers
        .clone()
        .unwrap_or_else(|| Arc::new(Cvc5Factory));
    let engines = choice.engines();
    let (tx, rx) = mpsc::channel::<Answer>();
    // Each engine polls its own deadline, so that the portfolio can stop the losers.
    let mut deadlines = Vec::new();
    let mut pending = Vec::new();
    let mut failed = Vec::new();
    let staged = engines.len() > 1;
    let gate = Arc::new(AtomicU8::new(if staged { STAGE_PROBE } else { STAGE_ALL }));
    let bmc_tid = Arc::new(AtomicI64::new(-1));
    let bmc_bound = Arc::new(AtomicU32::new(0));
    for &engine in &engines {
        let deadline = Deadline::at(limit);
        deadlines.push(deadline.clone());
        let tx = tx.clone();
        let loaded = loaded.clone();
        let opts = opts.clone();
        let solvers = solvers.clone();
        let alone = engines.len() == 1;
        let stages = Stages {
            gate: gate.clone(),
            bmc_tid: bmc_tid.clone(),
            bmc_bound: bmc_bound.clone(),
        };
        let spawned = std::thread::Builder::new()
            .name(format!("lpmc-{}", engine.as_str()))
            .stack_size(STACK_BYTES)
            .spawn(move || {
                let first = match engine {
                    Engine::Cegar => STAGE_PROVERS,
                    Engine::Bmc => STAGE_BMC,
                    Engine::Search => STAGE_PROBE,
                };
                if !wait_for_stage(&stages.gate, first, &deadline) {
                    let why = deadline.check().err().unwrap_or(Exhausted::Time);
                    let _ = tx.send(Answer {
                        engine,
                        outcome: Outcome::Unknown(GiveUp::exhausted(why)),
                        report: None,
                        time_ms: 0,
                    });
                    return;
                }
                let t0 = Instant::now();
                let (outcome, report) =
                    run_engine(engine, &loaded, &opts, &solvers, &deadline, alone, &stages);
                let _ = tx.send(Answer {
                    engine,
                    outcome,
                    report,
                    time_ms: t0.elapsed().as_millis(),
                });
            });
        match spawned {
            Ok(_) => pending.push(engine),
            Err(e) => {
                // The stages go on without it.
                if engine == Engine::Search {
                    gate.fetch_max(STAGE_BMC, Ordering::AcqRel);
                }
                failed.push(Answer {
                    engine,
                    outcome: Outcome::Unknown(GiveUp::Internal(format!(
                        "cannot start the {} thread: {e}",
                        engine.as_str()
                    ))),
                    report: None,
                    time_ms: 0,
                });
                pending.push(engine);
            }
        }
    }
    drop(tx);
    let stop_all = |why: Exhausted| deadlines.iter().for_each(|d| d.cancel(why));
    let mut answers: Vec<Answer> = failed;
    let mut cancelled: Option<(GiveUp, Instant)> = None;
    let mut winner: Option<usize> = None;
    let mut search_stopped = false;
    // The process's CPU time when the bounded engine started alone.
    let mut bmc_alone_since: Option<Duration> = None;
    // The provers: the CEGAR engine joins the bounded one.
    let open_provers = || {
        gate.fetch_max(STAGE_PROVERS, Ordering::AcqRel);
    };
    // Everything: the rest of the search joins, and the bounded engine yields.
    let open_all = || {
        if gate.fetch_max(STAGE_ALL, Ordering::AcqRel) < STAGE_ALL {
            let tid = bmc_tid.load(Ordering::Acquire);
            if tid >= 0 {
                crate::limits::lower_priority_of(tid, BMC_NICE);
            }
        }
    };
    while answers.len() < pending.len() {
        let stage = gate.load(Ordering::Acquire);
        if stage == STAGE_BMC {
            // The bounded engine's time alone, counted in CPU time.
            match (crate::limits::process_cpu(), bmc_alone_since) {
                (Some(now), None) => bmc_alone_since = Some(now),
                (Some(now), Some(since)) if now.saturating_sub(since) >= PROVERS_AFTER => {
                    open_provers()
                }
                (None, _) => open_provers(),
                _ => {}
            }
        }
        if gate.load(Ordering::Acquire) == STAGE_PROVERS {
            // The bounded engine's bounds and own CPU time beside the CEGAR engine
            // (without the time: the thread did not start or has ended, or the platform
            // does not tell).
            let tid = bmc_tid.load(Ordering::Acquire);
            let past = bmc_bound.load(Ordering::Relaxed) > MERGED_FIRST_K;
            match (tid >= 0)
                .then(|| crate::limits::thread_cpu_of(tid))
                .flatten()
            {
                Some(used) if used < BMC_FIRST_CPU && !past => {}
                _ => open_all(),
            }
        }
        let tick = if stage < STAGE_PROVERS {
            STAGE_TICK
        } else {
            TICK
        };
        match rx.recv_timeout(tick) {
            Ok(a) => {
                let definite = !matches!(a.outcome, Outcome::Unknown(_));
                let engine = a.engine;
                answers.push(a);
                if definite {
                    winner = Some(answers.len() - 1);
                    break;
                }
                // An engine that gave up early lets the others start.
                if engine != Engine::Cegar {
                    open_all();
                }
                // Without a time limit the search never ends: once the engines that can
                // prove SAFE have given up, stop it too. With one, it runs on to the
                // limit (it may still find an error).
                let provers_done = engines
                    .iter()
                    .filter(|e| **e != Engine::Search)
                    .all(|e| answers.iter().any(|a| a.engine == *e));
                if provers_done && engines.len() > 1 && limit.is_none() && !search_stopped {
                    search_stopped = true;
                    stop_all(Exhausted::Time);
                }
                continue;
            }
            Err(mpsc::RecvTimeoutError::Disconnected) => break,
            Err(mpsc::RecvTimeoutError::Timeout) => {}
        }
        let now = Instant::now();
        if let Some((_, since)) = &cancelled {
            if now.duration_since(*since) >= GRACE {
                break;
            }
            continue;
        }
        let why = if limit.is_some_and(|l| now >= l) {
            Some(Exhausted::Time)
        } else if resident_bytes().is_some_and(|r| r > memory) {
            Some(Exhausted::Memory)
        } else {
            None
        };
        if let Some(why) = why {
            stop_all(why);
            cancelled = Some((GiveUp::exhausted(why), now));
        }
    }
    // The engines still running stop at their next poll.
    stop_all(Exhausted::Time);
    let elapsed = start.elapsed().as_millis();
    let late_cegar = if opts.explain {
        wait_for_cegar(&rx, &pending, &answers)
    } else {
        None
    };
    let runs: Vec<EngineRun> = engines
        .iter()
        .map(|&e| match answers.iter().find(|a| a.engine == e) {
            Some(a) => EngineRun {
                engine: e,
                verdict: a.outcome.verdict(),
                reason: match &a.outcome {
                    Outcome::Unknown(GiveUp::Timeout) if e == Engine::Search && search_stopped => {
                        SEARCH_STOPPED.to_string()
                    }
                    o => o.reason(),
                },
                time_ms: a.time_ms,
            },
            None => EngineRun {
                engine: e,
                verdict: crate::report::Verdict::Unknown,
                reason: match (&winner, &cancelled) {
                    (Some(_), _) => "stopped: another engine decided".to_string(),
                    (None, Some((g, _))) => g.to_string(),
                    (None, None) => "no answer".to_string(),
                },
                time_ms: elapsed,
            },
        })
        .collect();
    // The CEGAR report carries refinements, cells and stats; keep it when there is one.
    let mut report = answers
        .iter_mut()
        .find(|a| a.engine == Engine::Cegar)
        .and_then(|a| a.report.take())
        .or(late_cegar)
        .unwrap_or_else(|| Report::new(Outcome::Unknown(GiveUp::Internal("not run".into()))));
    if opts.explain && report.program.is_none() {
        report.program = Some(crate::iteration::program_view(loaded));
    }
    report.outcome = match winner {
        Some(i) => answers[i].outcome.clone(),
        None => unknown_reason(
            &engines,
            &answers,
            cancelled.as_ref().map(|c| &c.0),
            search_stopped,
        ),
    };
    // Every SAFE passes its certificate check before it is reported.
    let outcome = std::mem::replace(&mut report.outcome, Outcome::Unknown(GiveUp::Timeout));
    report.outcome = certified_on_time(loaded, outcome, &solvers, limit);
    let elapsed = start.elapsed().as_millis();
    report.engines = runs;
    report.time_ms = elapsed;
    report.semantics = loaded.semantics.clone();
    report
}

/// A SAFE outcome with its certificate checked (any other outcome as it is): the
/// invariants of a CEGAR proof re-checked on the program by [`crate::certify`], or the
/// bound of a bounded proof re-checked. UNKNOWN ("certificate did not check", with the
/// reason) when the check fails or is out of reach.
pub fn certified(
    loaded: &Loaded,
    outcome: Outcome,
    solvers: &Solvers,
    deadline: &Deadline,
) -> Outcome {
    let Outcome::Safe(mut proof) = outcome else {
        return outcome;
    };
    let t0 = Instant::now();
    if let Err(g) = crate::driver::refuse_unsupported(loaded) {
        return Outcome::Unknown(g);
    }
    let program = loaded;
    let cert = match (proof.engine, proof.bound) {
        (Engine::Bmc, Some(k)) => {
            let (cert, found) = unwinding_certificate(program, k, solvers, deadline);
            // The re-check asked which assumptions some execution may break: the others
            // are not assumptions of the proof.
            if let Some(again) = found {
                let keep =
                    |lines: &mut Vec<u32>, still: &[u32]| lines.retain(|l| still.contains(l));
                keep(&mut proof.assumed_no_overflow, &again.assumed_no_overflow);
                keep(&mut proof.assumed_in_bounds, &again.assumed_in_bounds);
            }
            cert
        }
        _ => {
            let check =
                |map| crate::certify::certify(&program.cfg, &program.file, map, solvers, deadline);
            // A shorter invariant, if the check accepts it; else the exact one.
            let coarse = proof.invariants.coarsened();
            let tried = coarse.as_ref().map(|m| (m, check(m)));
            if let Some((m, c)) = tried.as_ref().filter(|(_, c)| !c.checked()) {
                for p in m.iter().filter(|p| p.coarse.is_none()) {
                    tracing::debug!(
                        "coarse invariant refused ({:?}); {}: {}",
                        c.reason,
                        p.at,
                        p.formula
                    );
                }
            }
            match tried {
                Some((m, c)) if c.checked() => {
                    proof.invariants = m.clone();
                    c
                }
                _ => check(&proof.invariants),
            }
        }
    };
    // The time of the whole check: preparing the program and every candidate tried.
    let cert = crate::certify::Certificate {
        time_ms: t0.elapsed().as_millis(),
        ..cert
    };
    if !cert.checked() {
        for p in proof.invariants.iter() {
            tracing::debug!("certificate not checked; {}: {}", p.at, p.formula);
        }
    }
    if cert.checked() {
        proof.certificate = Some(cert);
        Outcome::Safe(proof)
    } else {
        Outcome::Unknown(GiveUp::Certificate(
            cert.reason.unwrap_or_else(|| "no reason given".into()),
        ))
    }
}

/// [`certified`], answered by the time limit: the check runs on its own thread, and one
/// that overruns the limit (a solver call that does not stop at its time limit) leaves the
/// verdict UNKNOWN, on time.
fn certified_on_time(
    loaded: &Loaded,
    outcome: Outcome,
    solvers: &Solvers,
    limit: Option<Instant>,
) -> Outcome {
    let Some(limit) = limit.filter(|_| matches!(outcome, Outcome::Safe(_))) else {
        return certified(loaded, outcome, solvers, &Deadline::at(limit));
    };
    let (tx, rx) = mpsc::channel();
    let (l, s) = (loaded.clone(), solvers.clone());
    let spawned = std::thread::Builder::new()
        .name("lpmc-certify".into())
        .stack_size(STACK_BYTES)
        .spawn(move || {
            let _ = tx.send(certified(&l, outcome, &s, &Deadline::at(Some(limit))));
        });
    if let Err(e) = spawned {
        return Outcome::Unknown(GiveUp::Internal(format!(
            "cannot start the certificate check's thread: {e}"
        )));
    }
    let left = limit.saturating_duration_since(Instant::now());
    rx.recv_timeout(left + GRACE).unwrap_or_else(|_| {
        Outcome::Unknown(GiveUp::Certificate(
            "the check did not end within the time limit".into(),
        ))
    })
}

/// The certificate of a bounded proof ("every path ends within bound K"): it has no
/// invariants, so its unwinding is re-checked: the bounded engine runs again at bound K
/// alone, with a fresh solver session, and must find again that every feasible path
/// ends (without error) within the bound. With it, the proof found again (which names
/// only the assumptions some execution may break).
fn unwinding_certificate(
    loaded: &Loaded,
    k: u32,
    solvers: &Solvers,
    deadline: &Deadline,
) -> (crate::certify::Certificate, Option<crate::report::Proof>) {
    let t0 = Instant::now();
    let r = bmc_recheck(loaded, k, solvers.as_ref(), deadline);
    let again = match &r.outcome {
        Outcome::Safe(p) if p.bound == Some(k) => Some(p.clone()),
        _ => None,
    };
    let ok = again.is_some();
    let cert = crate::certify::Certificate {
        status: if ok {
            crate::certify::CertStatus::Checked
        } else {
            crate::certify::CertStatus::Failed
        },
        kind: "unwinding".into(),
        reason: (!ok).then(|| {
            format!(
                "the re-check at unwinding bound {k} answered: {}",
                r.outcome.reason()
            )
        }),
        // The path engine checks each path; the merged engine asks whole-bound queries.
        obligations: r.paths.max(r.smt_checks) as usize,
        time_ms: t0.elapsed().as_millis(),
    };
    (cert, again)
}

/// For a report (`explain`) of a portfolio that another engine decided: the stopped CEGAR
/// engine's report (the iterations it ran), if it comes within a short grace period. Its
/// outcome is not an answer of the portfolio: the engine table still says it was stopped.
fn wait_for_cegar(
    rx: &mpsc::Receiver<Answer>,
    pending: &[Engine],
    answers: &[Answer],
) -> Option<Report> {
    if !pending.contains(&Engine::Cegar) || answers.iter().any(|a| a.engine == Engine::Cegar) {
        return None;
    }
    let until = Instant::now() + 4 * GRACE;
    while let Some(left) = until.checked_duration_since(Instant::now()) {
        match rx.recv_timeout(left) {
            Ok(a) if a.engine == Engine::Cegar => return a.report,
            Ok(_) => continue,
            Err(_) => return None,
        }
    }
    None
}

/// The search's reason when the portfolio stopped it because the other engines had
/// finished and there is no time limit.
const SEARCH_STOPPED: &str = "stopped when the other engines had finished (no time limit)";

/// The reason of an UNKNOWN portfolio answer: the limit that ran out, else (every engine
/// finished on its own) the engines' common reason, or each engine's.
fn unknown_reason(
    engines: &[Engine],
    answers: &[Answer],
    limit: Option<&GiveUp>,
    search_stopped: bool,
) -> Outcome {
    if let Some(g) = limit {
        return Outcome::Unknown(g.clone());
    }
    let gs: Vec<(Engine, &GiveUp)> = engines
        .iter()
        .filter_map(|e| {
            let a = answers.iter().find(|a| a.engine == *e)?;
            Some((*e, a.outcome.give_up()?))
        })
        .collect();
    let Some((_, first)) = gs.first() else {
        return Outcome::Unknown(GiveUp::Internal("no engine answered".into()));
    };
    // An engine that met the time or memory limit did not finish.
    if let Some((_, g)) = gs.iter().find(|(e, g)| {
        matches!(g, GiveUp::Timeout | GiveUp::Memory) && !(*e == Engine::Search && search_stopped)
    }) {
        return Outcome::Unknown((*g).clone());
    }
    if gs.iter().all(|(_, g)| g == first) {
        return Outcome::Unknown((*first).clone());
    }
    let each: Vec<String> = gs
        .iter()
        .map(|(e, g)| match g {
            GiveUp::Timeout if *e == Engine::Search && search_stopped => {
                format!("{}: {SEARCH_STOPPED}", e.as_str())
            }
            g => format!("{}: {g}", e.as_str()),
        })
        .collect();
    Outcome::Unknown(GiveUp::Budget(format!(
        "every engine finished without a verdict ({})",
        each.join("; ")
    )))
}

fn run_engine(
    engine: Engine,
    loaded: &Loaded,
    opts: &CheckOptions,
    solvers: &Solvers,
    deadline: &Deadline,
    alone: bool,
    stages: &Stages,
) -> (Outcome, Option<Report>) {
    let opts = CheckOptions {
        solvers: Some(solvers.clone()),
        ..opts.clone()
    };
    if engine == Engine::Cegar {
        let r = check_within(loaded, &opts, deadline);
        return (r.outcome.clone(), Some(r));
    }
    // bmc and the search give up the same way as `check_within` on unsupported
    // constructs.
    if let Err(g) = crate::driver::refuse_unsupported(loaded) {
        return (Outcome::Unknown(g), None);
    }
    match engine {
        Engine::Bmc => {
            if let Some(tid) = crate::limits::current_thread_id() {
                stages.bmc_tid.store(tid, Ordering::Release);
            }
            let r = bmc_verdict_within(
                loaded,
                Unwind::Auto,
                solvers.as_ref(),
                deadline,
                &stages.bmc_bound,
            );
            (r.outcome, None)
        }
        _ => {
            let mut search = SearchOptions {
                // Alone and without a time limit, the search needs a budget of its own.
                max_runs: (alone && deadline.instant().is_none()).then_some(SEARCH_RUNS_ALONE),
                ..SearchOptions::default()
            };
            if !alone {
                // Its first runs alone; then the bounded engine's turn, and the rest of
                // the search (with new seeds) beside the CEGAR engine.
                let probe = SearchOptions {
                    max_runs: Some(PROBE_RUNS),
                    first_steps: PROBE_STEPS,
                    max_steps: PROBE_STEPS,
                    ..search.clone()
                };
                let probed = search_within(&loaded.cfg, &probe, deadline);
                stages.gate.fetch_max(STAGE_BMC, Ordering::AcqRel);
                let runs = match probed {
                    SearchResult::NotFound { runs, .. } => runs,
                    found => return (search_outcome(found, loaded, deadline), None),
                };
                if !wait_for_stage(&stages.gate, STAGE_ALL, deadline) {
                    let why = deadline.check().err().unwrap_or(Exhausted::Time);
                    return (Outcome::Unknown(GiveUp::exhausted(why)), None);
                }
                search.seed = runs;
                search.share_after = Some(SEARCH_SHARE_AFTER);
            }
            let found = search_within(&loaded.cfg, &search, deadline);
            (search_outcome(found, loaded, deadline), None)
        }
    }
}

/// What the portfolio's threads share about the stages.
struct Stages {
    gate: Arc<AtomicU8>,
    /// The bounded engine's thread id, once it runs (-1 before).
    bmc_tid: Arc<AtomicI64>,
    /// The bound the bounded engine explores.
    bmc_bound: Arc<AtomicU32>,
}

/// The outcome of a search: UNSAFE with the replayed counterexample, or UNKNOWN.
fn search_outcome(found: SearchResult, loaded: &Loaded, deadline: &Deadline) -> Outcome {
    match found {
        SearchResult::Found { trace, witness, .. } => {
            match tested_counterexample(Engine::Search, loaded, &trace, &witness) {
                Ok(c) => Outcome::Unsafe(c),
                Err(why) => Outcome::Unknown(GiveUp::Internal(format!(
                    "a concrete run reached an error location, but its replay did not: {why}"
                ))),
            }
        }
        SearchResult::NotFound { runs, deadline: d } => Outcome::Unknown(match deadline.check() {
            Err(e) if d => GiveUp::exhausted(e),
            _ => GiveUp::Budget(format!(
                "{runs} concrete runs reached no error (a search never proves SAFE)"
            )),
        }),
    }
}
