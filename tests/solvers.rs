//! Injected solvers (ARCHITECTURE §4: the driver passes a solver factory down): a factory
//! that counts calls, one whose solvers never decide, and one whose solvers lie "sat"
//! with an all-zero model. An undecided query must give UNKNOWN, never a verdict that
//! depends on it; a lying model must never give UNSAFE (the interpreter's replay refutes
//! it).

mod common;

use common::lp_dir;
use lpmc::smt::{
    Cvc5Factory, Label, SatResult, SmtBackend, SmtConfig, SmtError, SolverFactory, Solvers, Sort,
    SymId, Term, UnknownReason, Value,
};
use lpmc::Deadline;
use lpmc::{bmc, BmcOptions, Unwind};
use lpmc::{check, CheckOptions};
use lpmc::{load_path, Loaded};
use lpmc::{GiveUp, Outcome, Verdict};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Mode {
    /// Pass everything through, counting checks.
    Count,
    /// Every check answers `unknown`.
    Undecided,
    /// Every check answers `sat`, and every value is 0.
    Liar,
    /// Checks on the certificate check's thread first sleep far past any time limit
    /// (a solver call that does not stop at its limit); the others pass through.
    StallCertificate,
}

/// How long a stalled check sleeps.
const STALL_S: u64 = 20;

#[derive(Debug)]
struct Factory {
    mode: Mode,
    made: AtomicUsize,
    checks: Arc<AtomicUsize>,
}

impl Factory {
    fn new(mode: Mode) -> Arc<Factory> {
        Arc::new(Factory {
            mode,
            made: AtomicUsize::new(0),
            checks: Arc::new(AtomicUsize::new(0)),
        })
    }
}

struct Wrapped {
    inner: Box<dyn SmtBackend>,
    mode: Mode,
    checks: Arc<AtomicUsize>,
}

impl Wrapped {
    fn answer(
        &mut self,
        real: impl FnOnce(&mut dyn SmtBackend) -> Result<SatResult, SmtError>,
    ) -> Result<SatResult, SmtError> {
        self.checks.fetch_add(1, Ordering::Relaxed);
        match self.mode {
            Mode::Count => real(self.inner.as_mut()),
            Mode::Undecided => Ok(SatResult::Unknown(UnknownReason::Incomplete)),
            Mode::Liar => Ok(SatResult::Sat),
            Mode::StallCertificate => {
                if std::thread::current().name() == Some("lpmc-certify") {
                    std::thread::sleep(std::time::Duration::from_secs(STALL_S));
                }
                real(self.inner.as_mut())
            }
        }
    }
}

impl SmtBackend for Wrapped {
    fn declare(&mut self, name: &str, sort: Sort) -> Result<SymId, SmtError> {
        self.inner.declare(name, sort)
    }
    fn sort_of(&self, sym: SymId) -> Result<Sort, SmtError> {
        self.inner.sort_of(sym)
    }
    fn assert(&mut self, formula: &Term) -> Result<(), SmtError> {
        self.inner.assert(formula)
    }
    fn assert_labeled(&mut self, label: Label, formula: &Term) -> Result<(), SmtError> {
        self.inner.assert_labeled(label, formula)
    }
    fn push(&mut self) -> Result<(), SmtError> {
        self.inner.push()
    }
    fn pop(&mut self) -> Result<(), SmtError> {
        self.inner.pop()
    }
    fn check(&mut self) -> Result<SatResult, SmtError> {
        self.answer(|s| s.check())
    }
    fn check_assuming(&mut self, assumptions: &[Term]) -> Result<SatResult, SmtError> {
        self.answer(|s| s.check_assuming(assumptions))
    }
    fn eval(&mut self, term: &Term) -> Result<Value, SmtError> {
        match self.mode {
            Mode::Liar => Ok(Value::Int(0.into())),
            _ => self.inner.eval(term),
        }
    }
    fn unsat_core(&self) -> Result<Vec<Label>, SmtError> {
        self.inner.unsat_core()
    }
}

impl SolverFactory for Factory {
    fn make(
        &self,
        config: SmtConfig,
        deadline: &Deadline,
    ) -> Result<Box<dyn SmtBackend>, SmtError> {
        self.made.fetch_add(1, Ordering::Relaxed);
        Ok(Box::new(Wrapped {
            inner: Cvc5Factory.make(config, deadline)?,
            mode: self.mode,
            checks: Arc::clone(&self.checks),
        }))
    }
}

fn program(name: &str) -> Loaded {
    load_path(&lp_dir().join(name)).expect("loads")
}

fn check_with(name: &str, f: &Arc<Factory>) -> Outcome {
    let solvers: Solvers = f.clone();
    check(
        &program(name),
        &CheckOptions {
            timeout_s: Some(30.0),
            solvers: Some(solvers),
            ..CheckOptions::default()
        },
    )
    .outcome
}

fn bmc_with(name: &str, f: &Arc<Factory>) -> Outcome {
    bmc_report(name, f).outcome
}

fn bmc_report(name: &str, f: &Arc<Factory>) -> lpmc::BmcReport {
    let solvers: Solvers = f.clone();
    bmc(
        &program(name),
        &BmcOptions {
            unwind: Unwind::Fixed(8),
            timeout_s: Some(30.0),
            solvers: Some(solvers),
            ..BmcOptions::default()
        },
    )
}

#[test]
fn the_injected_factory_makes_every_solver() {
    let f = Factory::new(Mode::Count);
    // Fig. 1: one infeasible trace, one refinement, then SAFE.
    assert_eq!(check_with("fig1.lp", &f).verdict(), Verdict::Safe);
    assert!(
        f.made.load(Ordering::Relaxed) >= 2,
        "trace check and refinement"
    );
    assert!(f.checks.load(Ordering::Relaxed) >= 2);
    let g = Factory::new(Mode::Count);
    assert_eq!(bmc_with("wrong_loop.c", &g).verdict(), Verdict::Unsafe);
    assert!(
        g.made.load(Ordering::Relaxed) >= 2,
        "explorer and trace check"
    );
}

#[test]
fn an_undecided_solver_gives_unknown_never_a_verdict() {
    let f = Factory::new(Mode::Undecided);
    for name in ["fig1.lp", "wrong_loop.c", "bubblesort.lp", "array_init.c"] {
        let o = check_with(name, &f);
        assert!(
            matches!(o, Outcome::Unknown(GiveUp::SolverUnknown(_))),
            "check {name}: {}",
            o.reason()
        );
        // A verdict is allowed only where no solver answer was used (the merged formula
        // of a program whose error edges all fold to `false` and whose paths all end
        // within the bound is SAFE without a query).
        let r = bmc_report(name, &f);
        let o = &r.outcome;
        assert!(
            matches!(o, Outcome::Unknown(GiveUp::SolverUnknown(_)))
                || (matches!(o, Outcome::Safe(_)) && r.smt_checks == 0),
            "bmc {name}: {}",
            o.reason()
        );
    }
}

#[test]
fn a_lying_solver_never_gives_unsafe() {
    let f = Factory::new(Mode::Liar);
    // Safe programs: the lie "the trace is feasible" does not replay.
    for name in ["fig1.lp", "array_init.c", "sequential_swap_call.c"] {
        let o = check_with(name, &f);
        assert!(
            matches!(o, Outcome::Unknown(GiveUp::Internal(ref m)) if m.contains("did not replay")),
            "check {name}: {}",
            o.reason()
        );
        assert_ne!(bmc_with(name, &f).verdict(), Verdict::Unsafe, "bmc {name}");
    }
}

/// `--timeout` is a promise even when a solver call ignores its time limit: a SAFE whose
/// certificate check overruns the limit is reported UNKNOWN by the limit, with the reason.
#[test]
fn a_certificate_check_that_overruns_the_limit_gives_unknown_on_time() {
    let f = Factory::new(Mode::StallCertificate);
    let solvers: Solvers = f.clone();
    let timeout_s = 3.0;
    let t0 = std::time::Instant::now();
    let r = lpmc::portfolio(
        &program("fig1.lp"),
        &CheckOptions {
            timeout_s: Some(timeout_s),
            solvers: Some(solvers),
            ..CheckOptions::default()
        },
        lpmc::EngineChoice::Cegar,
    );
    let elapsed = t0.elapsed().as_secs_f64();
    assert!(
        matches!(r.outcome, Outcome::Unknown(GiveUp::Certificate(_))),
        "{}",
        r.outcome.reason()
    );
    assert!(
        elapsed < timeout_s + (STALL_S as f64 - timeout_s) / 2.0,
        "answered after {elapsed:.1} s (limit {timeout_s} s, the stalled check sleeps {STALL_S} s)"
    );
}
