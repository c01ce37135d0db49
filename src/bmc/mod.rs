//! Bounded model checking (`lpmc bmc`): symbolic execution of the ORIGINAL program (arrays
//! included) over the CFG, path by path, up to an unwinding bound.
//!
//! The explorer keeps one incremental SMT solver and encodes paths with the trace
//! check's own encoder ([`crate::trace::PathEncoder`]), forking its state at branches:
//! both successors are pushed on a work stack with their guards, and a successor is only
//! followed when its guard is satisfiable together with the path so far (infeasible
//! prefixes are pruned). Every source of nondeterminism (`u`, out-of-range reads,
//! uninitialised variables, arbitrary arrays) is a fresh symbol, so the path formula
//! over-approximates the interpreter's executions: "unsat" really means that no execution
//! follows the prefix. Branches whose condition the path fixes (constant-folded loop
//! counters) need no solver call, so concrete loops unroll at encoder speed.
//!
//! The bound: a loop head may be entered at most `K + 1` times per entry into its loop
//! (`K` iterations plus the exit test; the count restarts when control enters the loop
//! from outside, as CBMC unwinds), in both modes, and the call depth may be at most
//! `K + 1`.
//! A feasible prefix that exceeds it means the bound was hit: the answer is then never
//! SAFE. When a feasible prefix steps into the error node, the path is re-checked with the
//! exact trace check ([`crate::trace::check`]) and its witness replayed by the interpreter
//! before UNSAFE is reported.

mod cone;
mod merged;
mod paths;
mod wto;

use paths::{explore, Step};

use crate::cfg::Cfg;
use crate::frontend::{Loaded, Semantics};
use crate::limits::{run_guarded, seconds, Deadline, DEFAULT_MEMORY_MB};
use crate::report::{node_lines, tested_counterexample, Engine, GiveUp, Outcome, Proof, Verdict};

use crate::smt::{Cvc5Factory, Logic, SmtBackend, SmtConfig, SolverFactory, Solvers};
use crate::trace::{self, Feasibility, Trace};
use std::collections::BTreeSet;
use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::Arc;
use std::time::Instant;

/// The unwinding bound.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Unwind {
    /// A fixed bound `K`.
    Fixed(u32),
    /// `K = 1, 2, 4, ...` until a verdict, the timeout, or [`Unwind::AUTO_CAP`]
    /// ([`Unwind::AUTO_CAP_WITH_TIMEOUT`] with a timeout); under [`BmcMode::Auto`],
    /// `K = 8, 16, 32, ...` (the bounds up to 8 are one formula).
    Auto,
}

impl std::str::FromStr for Unwind {
    type Err = String;
    fn from_str(s: &str) -> Result<Unwind, String> {
        if s.eq_ignore_ascii_case("auto") {
            return Ok(Unwind::Auto);
        }
        s.parse::<u32>()
            .map(Unwind::Fixed)
            .map_err(|_| format!("`{s}` is neither a non-negative number nor `auto`"))
    }
}

impl std::fmt::Display for Unwind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Unwind::Auto => f.write_str("auto"),
            Unwind::Fixed(k) => write!(f, "{k}"),
        }
    }
}

/// How the bounded engine explores a bound.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum BmcMode {
    /// One merged formula for the bounds up to 8 (with accelerated loop paths, also
    /// bound 1 path by path, once, while its paths are few), then path by path while the
    /// paths are few, else merged (see [`PATH_BUDGET`]).
    #[default]
    Auto,
    /// Path by path only.
    Paths,
    /// One merged formula per bound only.
    Merged,
}

impl std::str::FromStr for BmcMode {
    type Err = String;
    fn from_str(s: &str) -> Result<BmcMode, String> {
        match s.to_ascii_lowercase().as_str() {
            "auto" => Ok(BmcMode::Auto),
            "paths" => Ok(BmcMode::Paths),
            "merged" => Ok(BmcMode::Merged),
            _ => Err(format!("`{s}` is none of `auto`, `paths`, `merged`")),
        }
    }
}

impl std::fmt::Display for BmcMode {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            BmcMode::Auto => "auto",
            BmcMode::Paths => "paths",
            BmcMode::Merged => "merged",
        })
    }
}

/// The paths (ended, pruned or cut) one bound may take path by path under
/// [`BmcMode::Auto`] before the engine switches to the merged formula for this bound and
/// the larger ones. Path by path wins while the branches fold (concrete loops unroll at
/// encoder speed, with no solver call, and an error is found on the first path that
/// reaches it); its cost grows with the number of feasible paths, exponential in the
/// symbolic branches per iteration, where the merged formula grows with the unrolled
/// states. A count, not a time: the choice never depends on the machine's speed.
pub const PATH_BUDGET: u64 = 256;

/// Options of `lpmc bmc`.
#[derive(Clone, Debug)]
pub struct BmcOptions {
    /// The bound.
    pub unwind: Unwind,
    /// Wall-clock budget in seconds.
    pub timeout_s: Option<f64>,
    /// Resident-memory budget in MB (default [`DEFAULT_MEMORY_MB`]).
    pub memory_mb: Option<u64>,
    /// The solver factory (default: cvc5).
    pub solvers: Option<Solvers>,
    /// Path by path, merged, or path by path while the paths are few.
    pub mode: BmcMode,
}

impl Default for BmcOptions {
    fn default() -> Self {
        BmcOptions {
            unwind: Unwind::Auto,
            timeout_s: None,
            memory_mb: None,
            solvers: None,
            mode: BmcMode::Auto,
        }
    }
}

/// The outcome of `lpmc bmc`.
#[derive(Clone, Debug, serde::Serialize)]
pub struct BmcReport {
    /// The outcome.
    #[serde(flatten)]
    pub outcome: Outcome,
    /// The last bound tried.
    pub unwind: u32,
    /// Paths explored to their end (stop, exit of main, error, bound or pruning).
    pub paths: u64,
    /// Feasibility checks made by the explorer, and queries of the merged formulas.
    pub smt_checks: u64,
    /// Queries of a merged proof's formula asking where a condition of defined behaviour
    /// (a signed result fits, an access is in bounds) can fail: they decide which
    /// assumptions the proof names, never the verdict.
    pub ub_checks: u64,
    /// States of the merged unrollings (0 when every bound ran path by path).
    pub states: u64,
    /// Wall-clock time.
    pub time_ms: u128,
    /// The integer semantics the program was checked with.
    pub semantics: Semantics,
}

impl BmcReport {
    /// The verdict.
    pub fn verdict(&self) -> Verdict {
        self.outcome.verdict()
    }
}

impl Unwind {
    /// The largest bound `--unwind auto` tries without a timeout.
    pub const AUTO_CAP: u32 = 1 << 8;

    /// The largest bound `--unwind auto` tries with a timeout.
    pub const AUTO_CAP_WITH_TIMEOUT: u32 = 1 << 20;
}

/// Stack size of the exploring thread (the solver recurses deeply on long paths).
const STACK_BYTES: usize = 512 << 20;

/// Run bounded model checking on a loaded program, on its own thread under a watchdog:
/// the answer comes within the time limit (plus a fraction of a second).
pub fn bmc(loaded: &Loaded, opts: &BmcOptions) -> BmcReport {
    let start = Instant::now();
    let deadline = Deadline::none()
        .with_timeout(seconds(opts.timeout_s))
        .with_memory_mb(Some(opts.memory_mb.unwrap_or(DEFAULT_MEMORY_MB)));
    let solvers: Solvers = opts
        .solvers
        .clone()
        .unwrap_or_else(|| Arc::new(Cvc5Factory));
    let first_k = match opts.unwind {
        Unwind::Fixed(k) => k,
        Unwind::Auto => 1,
    };
    // The bound being explored, for the report when the watchdog answers first.
    let bound = Arc::new(AtomicU32::new(first_k));
    let work = {
        let loaded = loaded.clone();
        let deadline = deadline.clone();
        let (unwind, mode) = (opts.unwind, opts.mode);
        let bound = Arc::clone(&bound);
        move || {
            bmc_at(
                &loaded,
                unwind,
                mode,
                solvers.as_ref(),
                &deadline,
                &bound,
                true,
            )
        }
    };
    let mut report = match run_guarded(&deadline, STACK_BYTES, "lpmc-bmc", work) {
        Ok(r) => r,
        Err(why) => BmcReport {
            outcome: Outcome::Unknown(match why {
                Some(e) => GiveUp::exhausted(e),
                None => GiveUp::Internal("the bmc thread panicked".into()),
            }),
            unwind: bound.load(Ordering::Relaxed),
            paths: 0,
            smt_checks: 0,
            ub_checks: 0,
            states: 0,
            time_ms: 0,
            semantics: loaded.semantics.clone(),
        },
    };
    report.time_ms = start.elapsed().as_millis();
    report
}

/// The bound `auto` starts at, merged, before going path by path: the bounds at which it
/// proves programs with small constant loops. One formula answers for all the bounds up
/// to it: an error within bound 8 is within it, and a proof names the least bound whose
/// unrolling is the formula's ([`merged::Unrolling::least_bound`]: an unrolling where no
/// edge leaves the bound is the unrolling of its deepest iteration's bound). Asking the
/// smaller bounds first, each with a formula of its own (1, 2, 4, 8, as before), cost
/// about a quarter more on the bounded programs that bound 8 decides, and on some of
/// them the formula of bound 1 or 2 was the hard one: a loop cut after its first
/// iterations leaves values the solver must reason about, that further iterations fix.
/// Asking the smaller bounds of the one formula under assumptions that exclude the
/// edges past them was slower still (on lp-programs/bounded/nested_array.c, 0.4 s ->
/// 2.1 s: each question then weighs the whole formula).
pub const MERGED_FIRST_K: u32 = 8;

/// Bounded model checking on the current thread, held to `deadline` (polled between
/// steps; every solver check is limited to the time left).
pub fn bmc_within(
    loaded: &Loaded,
    unwind: Unwind,
    solvers: &dyn SolverFactory,
    deadline: &Deadline,
) -> BmcReport {
    bmc_within_mode(loaded, unwind, BmcMode::Auto, solvers, deadline)
}

/// [`bmc_within`] in a given [`BmcMode`].
pub fn bmc_within_mode(
    loaded: &Loaded,
    unwind: Unwind,
    mode: BmcMode,
    solvers: &dyn SolverFactory,
    deadline: &Deadline,
) -> BmcReport {
    bmc_at(
        loaded,
        unwind,
        mode,
        solvers,
        deadline,
        &AtomicU32::new(0),
        true,
    )
}

/// [`bmc_within`] for its verdict only: a merged proof names every assumption its formula
/// made, without asking which of them some execution may break (the portfolio's bounded
/// engine, whose proof's re-check, [`bmc_recheck`], asks after the race). `bound` is told
/// each bound the engine starts to explore.
pub fn bmc_verdict_within(
    loaded: &Loaded,
    unwind: Unwind,
    solvers: &dyn SolverFactory,
    deadline: &Deadline,
    bound: &AtomicU32,
) -> BmcReport {
    bmc_at(
        loaded,
        unwind,
        BmcMode::Auto,
        solvers,
        deadline,
        bound,
        false,
    )
}

/// Bounded model checking at the fixed bound `k` alone, held to `deadline`, as the
/// re-check of a bounded proof: a SAFE found again names only the assumptions that some
/// execution within the bound may break (of a merged proof; a proof path by path names
/// them all).
pub fn bmc_recheck(
    loaded: &Loaded,
    k: u32,
    solvers: &dyn SolverFactory,
    deadline: &Deadline,
) -> BmcReport {
    bmc_within(loaded, Unwind::Fixed(k), solvers, deadline)
}

/// [`bmc_within_mode`], telling `bound` each bound it starts to explore; `narrow`: a
/// merged proof asks which of its assumptions some execution may break.
fn bmc_at(
    loaded: &Loaded,
    unwind: Unwind,
    mode: BmcMode,
    solvers: &dyn SolverFactory,
    deadline: &Deadline,
    bound: &AtomicU32,
    narrow: bool,
) -> BmcReport {
    let start = Instant::now();
    let first_k = match (unwind, mode) {
        (Unwind::Fixed(k), _) => k,
        (Unwind::Auto, BmcMode::Auto) => MERGED_FIRST_K,
        (Unwind::Auto, _) => 1,
    };
    let mut r = BmcReport {
        outcome: Outcome::Unknown(GiveUp::Internal("no exploration ran".into())),
        unwind: first_k,
        paths: 0,
        smt_checks: 0,
        ub_checks: 0,
        states: 0,
        time_ms: 0,
        semantics: loaded.semantics.clone(),
    };
    if let Some(g) = GiveUp::refused(loaded) {
        r.outcome = Outcome::Unknown(g);
        return r;
    }
    // `auto` without a timeout must still end on unbounded loops.
    let auto_cap = if deadline.instant().is_some() {
        Unwind::AUTO_CAP_WITH_TIMEOUT
    } else {
        Unwind::AUTO_CAP
    };
    // One solver for every bound: each exploration asserts above level 0 and pops back.
    let conf = SmtConfig::new(Logic::QfAlia).with_models(false);
    let mut smt = match solvers.make(conf, deadline) {
        Ok(s) => s,
        Err(e) => {
            r.outcome = Outcome::Unknown(GiveUp::SolverUnknown(format!(
                "cannot start the SMT solver: {e}"
            )));
            return r;
        }
    };
    // The merged engine's solver (with models, to read an error path back), made when
    // first needed.
    let mut msmt: Option<Box<dyn SmtBackend>> = None;
    // Under `auto`, every program is merged first: one formula for the bounds up to
    // `MERGED_FIRST_K`, whose size grows with the unrolled states where the paths grow
    // exponentially with the symbolic branches. The accelerated loop paths, which reach an error behind a deep
    // loop at a small bound, are left out of the merged formula (their symbolic counts
    // would make the loop's variables symbolic in every state they join, and copies of
    // the loops apart from the concrete iterations multiply the states several times):
    // a program with them also explores bound 1 path by path, within the path budget,
    // once: when the merged formula of `MERGED_FIRST_K` (or the fixed bound) leaves
    // it undecided (most bounded programs are decided by then, and deep paths are
    // wasted on them). An alternative is taken on the first visit of its loop's head,
    // so bound 1 already reaches every depth it can; a larger bound adds concrete
    // iterations, which the merged formula has (and past `MERGED_FIRST_K` the paths,
    // with the alternatives, at every bound).
    let mut merged = mode != BmcMode::Paths;
    let mut accel_paths = mode == BmcMode::Auto && !loaded.cfg.accel.is_empty();
    // Under `auto`, a program merged from the start goes path by path after
    // `MERGED_FIRST_K` (and back to merged past the path budget): a deep loop whose
    // diamonds the solver finds hard as one formula may still have few paths.
    let merged_until = (mode == BmcMode::Auto).then_some(MERGED_FIRST_K);
    // A fixed bound past it (the re-check of a bounded proof) starts where the growing
    // schedule would be at that bound: path by path.
    if merged_until.is_some_and(|m| first_k > m) {
        merged = false;
    }
    let budget = (mode == BmcMode::Auto).then_some(PATH_BUDGET);
    let mut k = first_k;
    loop {
        r.unwind = k;
        bound.store(k, Ordering::Relaxed);
        let res = if merged {
            if msmt.is_none() {
                let conf = SmtConfig::new(Logic::QfAlia).with_models(true);
                match solvers.make(conf, deadline) {
                    Ok(s) => msmt = Some(s),
                    Err(e) => {
                        r.outcome = Outcome::Unknown(GiveUp::SolverUnknown(format!(
                            "cannot start the SMT solver: {e}"
                        )));
                        return r;
                    }
                }
            }
            match msmt.as_mut() {
                Some(s) => explore_merged(loaded, k, s.as_mut(), solvers, deadline, &mut r, narrow),
                None => Explored::Done(Outcome::Unknown(GiveUp::Internal(
                    "no solver for the merged formula".into(),
                ))),
            }
        } else {
            explore(loaded, k, smt.as_mut(), solvers, deadline, &mut r, budget)
        };
        let res = match res {
            Explored::Bound(why)
                if merged
                    && accel_paths
                    && (k >= MERGED_FIRST_K || unwind != Unwind::Auto)
                    && !deadline.expired() =>
            {
                accel_paths = false;
                match explore(
                    loaded,
                    k.min(1),
                    smt.as_mut(),
                    solvers,
                    deadline,
                    &mut r,
                    budget,
                ) {
                    Explored::TooMany | Explored::Bound(_) => Explored::Bound(why),
                    res => res,
                }
            }
            res => res,
        };
        tracing::debug!(
            k,
            elapsed_ms = %start.elapsed().as_millis(),
            "bmc: unwinding bound explored"
        );
        let res = match (res, merged_until) {
            (Explored::Bound(why), Some(m)) if merged && k >= m && k < PATH_BUDGET as u32 => {
                merged = false;
                Explored::Bound(why)
            }
            (res, _) => res,
        };
        match res {
            Explored::TooMany => {
                tracing::debug!(k, "bmc: too many paths, merging from this bound on");
                merged = true;
                continue;
            }
            Explored::Done(o) => {
                // A proof names the least bound it holds at.
                if let Outcome::Safe(Proof { bound: Some(b), .. }) = &o {
                    r.unwind = *b;
                }
                r.outcome = o;
                break;
            }
            Explored::Bound(why) => {
                if unwind == Unwind::Auto && !deadline.expired() && k < auto_cap {
                    k = if k == 0 { 1 } else { k * 2 };
                    continue;
                }
                r.outcome = Outcome::Unknown(GiveUp::Budget(why));
                break;
            }
        }
    }
    // A give-up caused by the deadline says so, whatever layer noticed it.
    if let (Outcome::Unknown(_), Err(e)) = (&r.outcome, deadline.check()) {
        r.outcome = Outcome::Unknown(GiveUp::exhausted(e));
    }
    r.time_ms = start.elapsed().as_millis();
    r
}

/// What one exploration with a fixed bound found.
// One value per explored path, moved once: a box would buy nothing.
#[allow(clippy::large_enum_variant)]
enum Explored {
    /// A final answer (SAFE, UNSAFE, or UNKNOWN for a reason a larger bound won't fix).
    Done(Outcome),
    /// Only the bound stood in the way: no error found, but some feasible path was cut.
    Bound(String),
    /// Path by path met its budget of paths ([`PATH_BUDGET`]) before an answer.
    TooMany,
}

/// Confirm an error path with the exact trace check and the interpreter: `None` when the
/// exact check refutes it, else the outcome (UNSAFE only when replayed).
fn confirm(
    cfg: &Cfg,
    tr: &Trace,
    loaded: &Loaded,
    solvers: &dyn SolverFactory,
    deadline: &Deadline,
) -> Option<Outcome> {
    Some(match trace::check_feasible(cfg, tr, solvers, deadline) {
        Err(e) => Outcome::Unknown(GiveUp::Internal(format!(
            "a bmc error path is not a path of the program: {e}"
        ))),
        Ok(Feasibility::Unknown(why)) => {
            Outcome::Unknown(GiveUp::SolverUnknown(format!("on an error path: {why}")))
        }
        // The exact check refutes it: this path does not reach the error.
        Ok(Feasibility::Infeasible { .. }) => return None,
        Ok(Feasibility::Feasible(w)) => match trace::replay(cfg, tr, &w) {
            Ok(()) => match tested_counterexample(Engine::Bmc, loaded, tr, &w) {
                Ok(c) => Outcome::Unsafe(c),
                Err(why) => Outcome::Unknown(GiveUp::Internal(why)),
            },
            Err(m) => Outcome::Unknown(GiveUp::Internal(format!(
                "the solver's counterexample did not replay in the interpreter: {}",
                m.0
            ))),
        },
    })
}

/// The least time in milliseconds each question of a merged proof about its assumptions
/// may take ([`merged::Unrolling::undefined_at`]; at most as long as the proof's own
/// queries took otherwise): a safety net, since a question that runs out only leaves an
/// assumption named.
const UB_CAP_MS: u64 = 1000;

/// The error paths of one bound the exact check may refute before the merged engine
/// gives up (each refutation excludes one path: the encodings agree, so this is a
/// safety net).
const REFUTED_MAX: usize = 16;

/// Explore bound `k` as one merged formula ([`merged::Unrolling`]), in its own level of
/// `smt`.
fn explore_merged(
    loaded: &Loaded,
    k: u32,
    smt: &mut dyn SmtBackend,
    solvers: &dyn SolverFactory,
    deadline: &Deadline,
    report: &mut BmcReport,
    narrow: bool,
) -> Explored {
    if let Err(e) = smt.push() {
        return Explored::Done(Outcome::Unknown(GiveUp::SolverUnknown(format!(
            "SMT error: {e}"
        ))));
    }
    let res = {
        let mut u = merged::Unrolling::new(loaded, &mut *smt, k, deadline);
        let res = merged_verdict(&mut u, loaded, k, solvers, deadline, report, narrow);
        report.states += u.states() as u64;
        res
    };
    if let Err(e) = smt.pop() {
        return Explored::Done(Outcome::Unknown(GiveUp::SolverUnknown(format!(
            "SMT error: {e}"
        ))));
    }
    res
}

fn merged_verdict(
    u: &mut merged::Unrolling<'_, '_>,
    loaded: &Loaded,
    k: u32,
    solvers: &dyn SolverFactory,
    deadline: &Deadline,
    report: &mut BmcReport,
    narrow: bool,
) -> Explored {
    if let Err(f) = u.build() {
        if let Err(e) = deadline.check() {
            return Explored::Done(Outcome::Unknown(GiveUp::exhausted(e)));
        }
        return Explored::Done(match Step::from(f) {
            Step::Done(o) => o,
            _ => Outcome::Unknown(GiveUp::Internal("bmc encoding failed".into())),
        });
    }
    tracing::debug!(k, states = u.states(), "bmc: merged formula built");
    let mut blocked = Vec::new();
    // The time the formula's own queries took.
    let mut decide_ms = 0;
    loop {
        let before = u.queries;
        let t0 = Instant::now();
        let res = u.decide(&blocked);
        decide_ms += t0.elapsed().as_millis() as u64;
        report.smt_checks += u.queries - before;
        tracing::debug!(k, ms = %t0.elapsed().as_millis(), "bmc: merged formula decided");
        match res {
            Err(e) => {
                return Explored::Done(Outcome::Unknown(GiveUp::SolverUnknown(format!(
                    "SMT error: {e}"
                ))))
            }
            Ok(merged::Found::Bound(why)) => {
                return Explored::Bound(format!("unwinding bound {k} reached: {why}"))
            }
            Ok(merged::Found::Safe) => {
                // Only the conditions of defined behaviour that some execution within the
                // bound may break are assumptions of the proof.
                let before = u.queries;
                let t0 = Instant::now();
                let (assumed, in_bounds) = match u.first.as_ref() {
                    Some(e) => (e.assumed_no_overflow(), e.assumed_in_bounds()),
                    None => Default::default(),
                };
                let undefined = if narrow {
                    u.undefined_at(UB_CAP_MS.max(decide_ms))
                } else {
                    assumed.union(&in_bounds).copied().collect()
                };
                report.ub_checks += u.queries - before;
                tracing::debug!(
                    k,
                    queries = u.queries - before,
                    ms = %t0.elapsed().as_millis(),
                    "bmc: conditions of defined behaviour asked"
                );
                let assumed: BTreeSet<_> = assumed.intersection(&undefined).copied().collect();
                let in_bounds: BTreeSet<_> = in_bounds.intersection(&undefined).copied().collect();
                return Explored::Done(Outcome::Safe(Proof {
                    engine: Engine::Bmc,
                    abstraction: None,
                    cells: Default::default(),
                    symbolic: Vec::new(),
                    two_ghosts: false,
                    term_cells: Vec::new(),
                    bound: Some(u.least_bound()),
                    // No paths were enumerated: the proof is one formula.
                    paths: None,
                    invariants: Default::default(),
                    assumed_no_overflow: node_lines(loaded, assumed),
                    assumed_in_bounds: node_lines(loaded, in_bounds),
                    certificate: None,
                }));
            }
            Ok(merged::Found::Error(tr, guards)) => {
                report.paths += 1;
                match confirm(&loaded.cfg, &tr, loaded, solvers, deadline) {
                    Some(o) => return Explored::Done(o),
                    None if blocked.len() < REFUTED_MAX => blocked.push(guards),
                    None => {
                        return Explored::Done(Outcome::Unknown(GiveUp::Internal(format!(
                            "the exact trace check refuted {REFUTED_MAX} error paths of the \
                             merged formula"
                        ))))
                    }
                }
            }
        }
    }
}
