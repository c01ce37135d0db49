//! The driver: runs the CEGAR loop (paper §5) on a loaded program and produces a
//! [`Report`] whose [`Outcome`] carries the evidence. Only the driver runs the loop
//! (ARCHITECTURE.md §1). It makes the one [`Deadline`] and the one solver factory and
//! passes both down; a watchdog answers on time even if a step does not come back.

mod cegar;
mod observe;
mod record;

use observe::{DebugLog, LastAbstraction, Observer};

pub use record::{PointReport, Stats};

use crate::cfg::Cfg;
use crate::engine::Budget;
use crate::frontend::{Loaded, Semantics};
use crate::iteration::{self, Iteration, ProgramView};
use crate::limits::{run_guarded, seconds, Deadline, DEFAULT_MEMORY_MB};
use crate::report::{EngineRun, GiveUp, Outcome, Verdict};
use crate::smt::{Cvc5Factory, Solvers};
use std::collections::BTreeMap;
use std::sync::Arc;
use std::time::Instant;

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

/// Steps of the adaptive tabulation (exact where its chains converge, widened where they
/// diverge) tried before the one that widens everywhere, per iteration.
pub const ADAPTIVE_STEPS: u64 = 2500;

/// ... and on this many units of work of the checking thread ([`crate::limits::add_work`]:
/// simplex pivots and checks, Fourier–Motzkin eliminations, arithmetic on big numbers,
/// the engine's comparisons of a new fact with those at its node), a safety net: an exact
/// tabulation's entailment checks grow with the number of disjuncts at a node, so long
/// exact runs get slow before they run out of steps. A count of work, not a time, so that where the phase gives up,
/// and so the verdict, is the same on every machine and under any load. About 600 ms of
/// CPU on the programs of lp-programs/ and ../shared (the median rate; the rates spread
/// over 0.3–2× of it; measured before big-number arithmetic counted, which adds work only
/// where numbers outgrow 64 bits).
pub const ADAPTIVE_WORK: u64 = 400_000;

/// The default bound on refinement iterations.
pub const DEFAULT_MAX_REFINEMENTS: u32 = 64;

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
    /// The arrays with a symbolic cell `a_k` at a ghost index.
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

/// Check a loaded program: the CEGAR loop of the paper (§5), on its own thread under a
/// watchdog, so that the answer comes within the time limit (plus a fraction of a
/// second) and UNKNOWN past the memory limit.
pub fn check(loaded: &Loaded, opts: &CheckOptions) -> Report {
    guarded(loaded, opts, |l, o, d| (check_within(l, o, d), ())).0
}

/// [`check`], with the last abstraction P̂k the loop built (`None` if it built none):
/// after a SAFE answer, the abstraction proved safe.
pub(crate) fn check_with_abstraction(
    loaded: &Loaded,
    opts: &CheckOptions,
) -> (Report, Option<Cfg>) {
    let (report, last) = guarded(loaded, opts, |l, o, d| {
        let (r, last) = check_observed(l, o, d, LastAbstraction::default());
        (r, last.0)
    });
    (report, last.flatten())
}

/// Run `work` (a check and what it keeps) on its own thread under the watchdog of the
/// options' limits; what it keeps is `None` when the watchdog answered instead.
fn guarded<T: Send + 'static>(
    loaded: &Loaded,
    opts: &CheckOptions,
    work: impl FnOnce(&Loaded, &CheckOptions, &Deadline) -> (Report, T) + Send + 'static,
) -> (Report, Option<T>) {
    let start = Instant::now();
    let deadline = Deadline::none()
        .with_timeout(seconds(opts.timeout_s))
        .with_memory_mb(Some(opts.memory_mb.unwrap_or(DEFAULT_MEMORY_MB)));
    let work = {
        let loaded = loaded.clone();
        let opts = opts.clone();
        let deadline = deadline.clone();
        move || work(&loaded, &opts, &deadline)
    };
    let (mut report, kept) = match run_guarded(&deadline, CHECK_STACK_BYTES, "lpmc-check", work) {
        Ok((r, t)) => (r, Some(t)),
        Err(Some(e)) => (Report::new(Outcome::Unknown(GiveUp::exhausted(e))), None),
        Err(None) => (
            Report::new(Outcome::Unknown(GiveUp::Internal(
                "the verification thread panicked".into(),
            ))),
            None,
        ),
    };
    report.time_ms = start.elapsed().as_millis();
    report.semantics = loaded.semantics.clone();
    (report, kept)
}

/// [`check`] on the current thread, held to `deadline` (polled by every layer; every
/// solver check is limited to the time left): the CEGAR loop ([`cegar::Cegar`]) watched
/// by the recorder of statistics and iterations and by the debug log.
pub fn check_within(loaded: &Loaded, opts: &CheckOptions, deadline: &Deadline) -> Report {
    check_observed(loaded, opts, deadline, ()).0
}

/// [`check_within`], watched by `extra` too (returned after the loop).
fn check_observed<O: Observer>(
    loaded: &Loaded,
    opts: &CheckOptions,
    deadline: &Deadline,
    extra: O,
) -> (Report, O) {
    let start = Instant::now();
    let solvers: Solvers = opts
        .solvers
        .clone()
        .unwrap_or_else(|| Arc::new(Cvc5Factory));
    let (mut report, extra) = match refuse_unsupported(loaded) {
        Err(g) => (Report::new(Outcome::Unknown(g)), extra),
        Ok(()) => {
            let recorder = record::Recorder::new(
                loaded,
                &solvers,
                deadline,
                opts.explain,
                opts.show_abstractions,
            );
            let mut observers = (recorder, (DebugLog, extra));
            let (outcome, progress) =
                cegar::Cegar::new(loaded, opts, &solvers, deadline).run(&mut observers);
            let (recorder, (_, extra)) = observers;
            let report = Report {
                refinements: progress.refinements,
                cells: progress.cells,
                symbolic_cells: progress.symbolic,
                ghosts: progress.ghosts,
                stats: recorder.stats,
                abstractions: recorder.abstractions,
                iterations: recorder.iterations,
                program: opts.explain.then(|| iteration::program_view(loaded)),
                ..Report::new(outcome)
            };
            (report, extra)
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
    report.semantics = loaded.semantics.clone();
    (report, extra)
}

/// Refuse unsupported properties and programs.
pub(crate) fn refuse_unsupported(loaded: &Loaded) -> Result<(), GiveUp> {
    match GiveUp::refused(loaded) {
        Some(g) => Err(g),
        None => Ok(()),
    }
}
