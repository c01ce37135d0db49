//! Counterexample traces (ARCHITECTURE.md §4 "Trace check"): an interprocedural path of
//! CFG nodes from `main`'s entry to the node before the error node, checked on the
//! ORIGINAL program (arrays included) with an SSA trace formula that names one assertion
//! per step. A satisfiable formula gives a [`Witness`] whose [`ReplayOracle`] makes the
//! concrete interpreter follow the path ([`replay`]); an unsatisfiable one gives the
//! steps of an unsat core, and [`fixed_read_indices`] finds the array cells those steps
//! pin down (the paper's refinement, §4-§5).

mod deskip;
mod encode;
mod jump;
mod oracle;
#[cfg(test)]
mod tests;

pub use deskip::test_skipped_checks;
pub(crate) use encode::{cmp_term, Fail, PathEncoder};
pub use jump::{jump_loops, shape, Jumped};
pub use oracle::ReplayOracle;

use crate::cfg::{Cfg, NodeKind, ERROR_NODE};
use crate::diag::SourceFile;
use crate::ids::{ArrayId, NodeId};
use crate::interp::{self, Limits, Outcome, Site};
use crate::limits::Deadline;
use crate::sema::ArraySize;
use crate::smt::{
    Label, Logic, SatResult, SmtBackend, SmtConfig, SmtError, SolverFactory, Term, Value,
};
use encode::{encode, Encoding};
use num_bigint::BigInt;
use num_traits::ToPrimitive;
use oracle::{ArrayModel, Query, Recorder};
use std::collections::BTreeSet;
use std::fmt;

/// An interprocedural path of CFG nodes, starting at `main`'s entry and ending at the
/// node whose transition leads to [`ERROR_NODE`] (which is not part of the path). A call
/// node is followed by the callee's entry, the callee's exit by the call's return point.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Trace {
    /// The nodes, one per step.
    pub path: Vec<NodeId>,
}

/// A path that is not an execution path of the CFG.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TraceError {
    /// Step `step` is wrong.
    Invalid {
        /// The offending step (index into the path).
        step: usize,
        /// What is wrong.
        reason: String,
    },
}

impl fmt::Display for TraceError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TraceError::Invalid { step, reason } => {
                write!(f, "invalid trace at step {step}: {reason}")
            }
        }
    }
}

impl std::error::Error for TraceError {}

/// One input value of a counterexample.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct InputValue {
    /// The step asking for it (for initial array contents: the step that made the array
    /// arbitrary).
    pub step: usize,
    /// Source line, 0 if unknown (see [`set_input_lines`]).
    pub line: u32,
    /// What the value is for: `u`, `x (uninitialised)`, `a[3] (initial)`, ...
    pub what: String,
    /// The value.
    pub value: BigInt,
}

/// A feasible trace's evidence: an oracle that replays it, and the input values the
/// interpreter asks for along it, ordered by step.
#[derive(Clone, Debug)]
pub struct Witness {
    /// Answers the interpreter's queries along the trace.
    pub oracle: ReplayOracle,
    /// The inputs, ordered by step (stable).
    pub inputs: Vec<InputValue>,
}

/// The answer of a trace check.
#[derive(Clone, Debug)]
pub enum Feasibility {
    /// The trace is a real execution.
    Feasible(Witness),
    /// The trace formula is unsatisfiable; `core` lists the steps (sorted, distinct)
    /// whose constraints form an unsat core.
    Infeasible {
        /// Step indices.
        core: Vec<usize>,
    },
    /// The solver could not decide, or failed.
    Unknown(String),
}

/// Why a replay did not reproduce a trace.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ReplayMismatch(pub String);

impl fmt::Display for ReplayMismatch {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "replay mismatch: {}", self.0)
    }
}

impl std::error::Error for ReplayMismatch {}

fn invalid(step: usize, reason: impl Into<String>) -> TraceError {
    TraceError::Invalid {
        step,
        reason: reason.into(),
    }
}

/// Check that the path is an interprocedural execution path of `cfg` from `main`'s entry
/// whose last node steps into [`ERROR_NODE`]: every step follows a CFG edge, calls enter
/// their callee, exits return to the return point of the matching call, and `main`'s
/// exit, `Stop` and the error node itself do not occur.
pub fn validate(cfg: &Cfg, t: &Trace) -> Result<(), TraceError> {
    let Some(&first) = t.path.first() else {
        return Err(invalid(0, "the path is empty"));
    };
    let Some(main) = cfg.procs.get(cfg.main) else {
        return Err(invalid(0, "the CFG has no main procedure"));
    };
    if first != main.entry {
        return Err(invalid(
            0,
            format!(
                "the path starts at {first}, not at main's entry {}",
                main.entry
            ),
        ));
    }
    let mut rets: Vec<NodeId> = Vec::new();
    for (i, &n) in t.path.iter().enumerate() {
        let Some(node) = cfg.nodes.get(n) else {
            return Err(invalid(i, format!("there is no node {n}")));
        };
        let next = t.path.get(i + 1).copied();
        match &node.kind {
            NodeKind::Error => return Err(invalid(i, "the path contains the error node")),
            NodeKind::Stop => return Err(invalid(i, format!("the execution stops at {n}"))),
            NodeKind::Call {
                proc, ret_point, ..
            } => {
                let Some(callee) = cfg.procs.get(*proc) else {
                    return Err(invalid(i, format!("{n} calls an unknown procedure")));
                };
                match next {
                    None => return Err(invalid(i, format!("the path ends at the call {n}"))),
                    Some(m) if m != callee.entry => {
                        return Err(invalid(
                            i + 1,
                            format!(
                                "the call {n} is followed by {m}, not by the callee's entry {}",
                                callee.entry
                            ),
                        ))
                    }
                    Some(_) => rets.push(*ret_point),
                }
            }
            NodeKind::Exit => {
                let Some(rp) = rets.pop() else {
                    return Err(invalid(i, format!("main's exit {n} ends the execution")));
                };
                match next {
                    None => return Err(invalid(i, format!("the path ends at the exit {n}"))),
                    Some(m) if m != rp => {
                        return Err(invalid(
                            i + 1,
                            format!("the exit {n} returns to {m}, not to the return point {rp}"),
                        ))
                    }
                    Some(_) => {}
                }
            }
            _ => {
                let succs = cfg.succs(n);
                match next {
                    None if !succs.contains(&ERROR_NODE) => {
                        return Err(invalid(
                            i,
                            format!("the last node {n} has no edge into the error node"),
                        ))
                    }
                    None => {}
                    Some(m) if m == ERROR_NODE => {
                        return Err(invalid(i + 1, "the path contains the error node"))
                    }
                    Some(m) if !succs.contains(&m) => {
                        return Err(invalid(i + 1, format!("{m} is not a successor of {n}")))
                    }
                    Some(_) => {}
                }
            }
        }
    }
    Ok(())
}

/// The solver configuration [`check`] needs: arrays with linear integer arithmetic,
/// models and unsat cores on.
pub fn config() -> SmtConfig {
    SmtConfig::new(Logic::QfAlia)
        .with_models(true)
        .with_unsat_cores(true)
}

/// [`check`] with a fresh solver from `solvers` ([`config`]), held to `deadline`. The
/// encoder does not fold the values equations fix (`PathEncoder::learn`): folded, an
/// unsat core may name fewer steps, and the CEGAR refinement reads cores.
pub fn check_with(
    cfg: &Cfg,
    t: &Trace,
    solvers: &dyn SolverFactory,
    deadline: &Deadline,
) -> Result<Feasibility, TraceError> {
    validate(cfg, t)?;
    match solvers.make(config(), deadline) {
        Ok(mut b) => check_learning(cfg, t, b.as_mut(), false, true),
        Err(e) => Ok(Feasibility::Unknown(format!(
            "cannot start the SMT solver: {e}"
        ))),
    }
}

/// Whether the trace is a real execution of the original program, for a caller that needs
/// no reason when it is not (the bounded engine's confirmation of an error path): the
/// values equations fix are folded, and no unsat core is tracked (an `Infeasible` answer
/// names no step). On a long path the core's one label per step is what the solver
/// spends its time on: 5000 steps of calls writing an array took more than 45 s with
/// labels and 2 s without.
pub fn check_feasible(
    cfg: &Cfg,
    t: &Trace,
    solvers: &dyn SolverFactory,
    deadline: &Deadline,
) -> Result<Feasibility, TraceError> {
    validate(cfg, t)?;
    let conf = SmtConfig::new(Logic::QfAlia).with_models(true);
    match solvers.make(conf, deadline) {
        Ok(mut b) => check_learning(cfg, t, b.as_mut(), true, false),
        Err(e) => Ok(Feasibility::Unknown(format!(
            "cannot start the SMT solver: {e}"
        ))),
    }
}

/// Decide whether the trace is a real execution of the original program. The backend
/// needs models and unsat cores; everything is asserted inside a `push`/`pop` scope, so
/// the backend can be reused.
#[cfg(test)]
pub fn check(cfg: &Cfg, t: &Trace, smt: &mut dyn SmtBackend) -> Result<Feasibility, TraceError> {
    check_learning(cfg, t, smt, false, true)
}

fn check_learning(
    cfg: &Cfg,
    t: &Trace,
    smt: &mut dyn SmtBackend,
    learn: bool,
    cores: bool,
) -> Result<Feasibility, TraceError> {
    validate(cfg, t)?;
    if let Err(e) = smt.push() {
        return Ok(Feasibility::Unknown(format!("SMT error: {e}")));
    }
    let r = check_in_scope(cfg, t, smt, learn, cores);
    let popped = smt.pop();
    match r {
        Err(Fail::Trace(e)) => Err(e),
        Err(Fail::Smt(e)) => Ok(Feasibility::Unknown(format!("SMT error: {e}"))),
        Ok(f) => match popped {
            Err(e) => Ok(Feasibility::Unknown(format!("SMT error: {e}"))),
            Ok(()) => Ok(match f {
                Feasibility::Feasible(mut w) => {
                    w.inputs = inputs(cfg, t, &w.oracle);
                    Feasibility::Feasible(w)
                }
                other => other,
            }),
        },
    }
}

fn label(step: usize) -> Label {
    Label(u32::try_from(step).unwrap_or(u32::MAX))
}

fn check_in_scope(
    cfg: &Cfg,
    t: &Trace,
    smt: &mut dyn SmtBackend,
    learn: bool,
    cores: bool,
) -> Result<Feasibility, Fail> {
    let enc = encode(cfg, &t.path, smt, learn)?;
    for a in &enc.aux {
        smt.assert(a)?;
    }
    for (i, cs) in enc.steps.iter().enumerate() {
        for c in cs {
            if cores {
                smt.assert_labeled(label(i), c)?;
            } else {
                smt.assert(c)?;
            }
        }
    }
    match smt.check()? {
        SatResult::Unsat if !cores => Ok(Feasibility::Infeasible { core: Vec::new() }),
        SatResult::Unsat => {
            let core = smt
                .unsat_core()?
                .into_iter()
                .map(|l| l.0 as usize)
                .filter(|s| *s < t.path.len())
                .collect();
            Ok(Feasibility::Infeasible { core })
        }
        SatResult::Unknown(r) => Ok(Feasibility::Unknown(format!("SMT solver: {r}"))),
        SatResult::Sat => {
            let oracle = read_model(&enc, smt)?;
            Ok(Feasibility::Feasible(Witness {
                oracle,
                inputs: Vec::new(),
            }))
        }
    }
}

fn int_value(v: Value) -> BigInt {
    match v {
        Value::Int(n) => n,
        _ => BigInt::default(),
    }
}

/// Build the replay oracle from the model of the last `Sat` answer.
fn read_model(enc: &Encoding, smt: &mut dyn SmtBackend) -> Result<ReplayOracle, SmtError> {
    let mut o = ReplayOracle {
        frame_of_step: enc.frame_of_step.clone(),
        ..ReplayOracle::default()
    };
    for (step, node, site, sym) in &enc.sites {
        let v = int_value(smt.value(*sym)?);
        o.sites.insert((*step, *node, *site), v);
    }
    for (frame, var, sym) in &enc.uninit {
        let v = int_value(smt.value(*sym)?);
        o.uninit.insert((*frame, *var), v);
    }
    for ((step, k), r) in &enc.reads {
        if let Ok(Value::Int(i)) = smt.eval(&r.index) {
            o.read_index.insert((*step, *k), (r.array, i));
        }
    }
    for a in &enc.arrays {
        let model = match smt.value(a.sym) {
            Ok(Value::IntArray { default, entries }) => ArrayModel {
                default,
                cells: entries
                    .into_iter()
                    .filter_map(|(i, v)| Some((i.to_i64()?, v)))
                    .collect(),
            },
            _ => {
                // Fall back to evaluating the cells in range one by one.
                let size = match a.const_size {
                    Some(n) => n,
                    None => smt
                        .eval(&a.size)
                        .ok()
                        .and_then(|v| v.as_int().and_then(|n| n.to_i64()))
                        .unwrap_or(0),
                };
                let mut m = ArrayModel::default();
                for i in 0..size.clamp(0, 10_000) {
                    let v = smt.eval(&Term::select(Term::sym(a.sym), Term::int(i)))?;
                    m.cells.insert(i, int_value(v));
                }
                m
            }
        };
        o.arrays.insert((a.init_step, a.array), model);
    }
    Ok(o)
}

fn limits(t: &Trace) -> Limits {
    Limits {
        max_steps: t.path.len() + 1,
        max_depth: usize::MAX,
        until: None,
    }
}

/// The values the interpreter asks for when run with `oracle`, ordered by step.
fn inputs(cfg: &Cfg, t: &Trace, oracle: &ReplayOracle) -> Vec<InputValue> {
    let mut o = oracle;
    let mut rec = Recorder {
        inner: &mut o,
        log: Vec::new(),
    };
    interp::run(cfg, &mut rec, limits(t), false);
    let log = std::mem::take(&mut rec.log);
    inputs_of_log(cfg, log, oracle)
}

/// The input values of a run's oracle log, ordered by step.
fn inputs_of_log(cfg: &Cfg, log: Vec<Query>, oracle: &ReplayOracle) -> Vec<InputValue> {
    let mut out: Vec<InputValue> = log
        .into_iter()
        .map(|q| match q {
            Query::Site(step, node, site, value) => {
                let what = match site {
                    Site::Undef(k) => oracle::describe_undef(cfg, node, k),
                    Site::OutOfRange(k) => match oracle.read_index.get(&(step, k)) {
                        Some((a, i)) => {
                            format!("{}[{i}] (out-of-range read)", cfg.arrays[*a].name)
                        }
                        None => match oracle::kth_read(cfg, node, k) {
                            Some(a) => {
                                format!("{}[...] (out-of-range read)", cfg.arrays[a].name)
                            }
                            None => "out-of-range read".to_string(),
                        },
                    },
                    Site::Uninit(v) => format!("{} (uninitialised)", cfg.var_name(v)),
                };
                InputValue {
                    step,
                    line: 0,
                    what,
                    value,
                }
            }
            Query::Cell(step, a, i, value) => InputValue {
                step,
                line: 0,
                what: format!("{}[{i}] (initial)", cfg.arrays[a].name),
                value,
            },
        })
        .collect();
    out.sort_by_key(|x| x.step);
    out
}

/// Fill in the source lines of input values (from the spans of their steps' nodes).
pub fn set_input_lines(cfg: &Cfg, t: &Trace, file: &SourceFile, inputs: &mut [InputValue]) {
    for x in inputs {
        if let Some(node) = t.path.get(x.step).and_then(|n| cfg.nodes.get(*n)) {
            x.line = file.line_col(node.span.start).line;
        }
    }
}

/// Run the interpreter with the witness's oracle: `Ok` iff it reaches the
/// error node along exactly the trace's path.
pub fn replay(cfg: &Cfg, t: &Trace, w: &Witness) -> Result<(), ReplayMismatch> {
    if cfg.procs.get(cfg.main).is_none() {
        return Err(ReplayMismatch("the CFG has no main procedure".into()));
    }
    if let Some(i) = t.path.iter().position(|n| cfg.nodes.get(*n).is_none()) {
        return Err(ReplayMismatch(format!("step {i}: no such node")));
    }
    let run = interp::run_with(cfg, &mut &w.oracle, limits(t), interp::Recording::path());
    if let Some(i) = (0..t.path.len().min(run.path.len())).find(|&i| t.path[i] != run.path[i]) {
        return Err(ReplayMismatch(format!(
            "step {i}: the run goes to {} instead of {}",
            run.path[i], t.path[i]
        )));
    }
    let expected = Outcome::Error {
        at: t.path.last().copied().unwrap_or(ERROR_NODE),
    };
    if run.path.len() != t.path.len() || run.outcome != expected {
        return Err(ReplayMismatch(format!(
            "the run ends with {:?} after {} steps; the trace has {} steps before the error",
            run.outcome,
            run.path.len(),
            t.path.len()
        )));
    }
    Ok(())
}

/// Run the interpreter with `oracle` under `limits`, recording the path and the oracle's
/// answers. If the run reaches an error location, also return its trace and a witness
/// whose oracle answers every query as in this run. The caller replays it (see
/// [`replay`], or `report::replayed_counterexample`) before it reports UNSAFE. This is
/// how a concrete search's find becomes a counterexample in the usual form.
pub fn recorded_run<O: interp::Oracle>(
    cfg: &Cfg,
    oracle: &mut O,
    limits: Limits,
) -> (Outcome, Option<(Trace, Witness)>) {
    let mut rec = Recorder {
        inner: oracle,
        log: Vec::new(),
    };
    let run = interp::run_with(cfg, &mut rec, limits, interp::Recording::path());
    if !matches!(run.outcome, Outcome::Error { .. }) {
        return (run.outcome, None);
    }
    let log = std::mem::take(&mut rec.log);
    let mut o = ReplayOracle::default();
    for q in &log {
        match q {
            Query::Site(step, node, site, v) => {
                o.sites.insert((*step, *node, *site), v.clone());
            }
            Query::Cell(step, a, i, v) => {
                o.arrays
                    .entry((*step, *a))
                    .or_default()
                    .cells
                    .insert(*i, v.clone());
            }
        }
    }
    let t = Trace { path: run.path };
    let inputs = inputs_of_log(cfg, log, &o);
    (run.outcome, Some((t, Witness { oracle: o, inputs })))
}

/// The array cells whose indices the core pins down: for every read and write in a core
/// step, whether the core constraints of the earlier steps fix its index to a single
/// value k (a model gives k; `index != k` is then unsatisfiable). Returns the distinct
/// `(array, k)` in order of first occurrence; for a fixed-size array only in-range k, for
/// a VLA every k >= 0. Everything is asserted inside a `push`/`pop` scope. (Refinement
/// uses every core access; this is for the tests.)
#[cfg(test)]
pub fn fixed_read_indices(
    cfg: &Cfg,
    t: &Trace,
    core: &[usize],
    smt: &mut dyn SmtBackend,
) -> Result<Vec<(ArrayId, i64)>, TraceError> {
    fixed_indices(cfg, t, core, true, smt)
}

/// Like [`fixed_read_indices`], but only for the reads of the core steps when
/// `include_writes` is false (the paper's refinement adds cells for reads; writes are the
/// fallback when the reads give nothing new).
pub fn fixed_indices(
    cfg: &Cfg,
    t: &Trace,
    core: &[usize],
    include_writes: bool,
    smt: &mut dyn SmtBackend,
) -> Result<Vec<(ArrayId, i64)>, TraceError> {
    validate(cfg, t)?;
    in_scope(smt, |smt| fixed_in_scope(cfg, t, core, include_writes, smt))
}

/// Run `f` inside a `push`/`pop` scope of `smt`.
fn in_scope<T>(
    smt: &mut dyn SmtBackend,
    f: impl FnOnce(&mut dyn SmtBackend) -> Result<T, Fail>,
) -> Result<T, TraceError> {
    let smt_err = |e: SmtError| invalid(0, format!("SMT error: {e}"));
    smt.push().map_err(smt_err)?;
    let r = f(smt);
    let popped = smt.pop();
    let out = match r {
        Ok(v) => v,
        Err(Fail::Trace(e)) => return Err(e),
        Err(Fail::Smt(e)) => return Err(smt_err(e)),
    };
    popped.map_err(smt_err)?;
    Ok(out)
}

/// One array access of a core step, for reports (`lpmc check --report`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CoreAccess {
    /// The step.
    pub step: usize,
    /// The array.
    pub array: ArrayId,
    /// Whether it is a write (else a read).
    pub write: bool,
    /// The value the core constraints of the earlier steps fix its index to, if they do.
    pub fixed: Option<i64>,
}

/// Every array access of the core steps of `t`, in step order, with the value its index
/// is fixed to by the core constraints of the earlier steps (as in [`fixed_indices`],
/// but every access is listed, reads and writes, fixed or not, in range or not). Inside
/// a `push`/`pop` scope.
pub fn core_accesses(
    cfg: &Cfg,
    t: &Trace,
    core: &[usize],
    smt: &mut dyn SmtBackend,
) -> Result<Vec<CoreAccess>, TraceError> {
    validate(cfg, t)?;
    in_scope(smt, |smt| core_accesses_in_scope(cfg, t, core, smt))
}

fn core_accesses_in_scope(
    cfg: &Cfg,
    t: &Trace,
    core: &[usize],
    smt: &mut dyn SmtBackend,
) -> Result<Vec<CoreAccess>, Fail> {
    let enc = encode(cfg, &t.path, smt, false)?;
    for a in &enc.aux {
        smt.assert(a)?;
    }
    let steps: BTreeSet<usize> = core.iter().copied().filter(|s| *s < t.path.len()).collect();
    let mut out = Vec::new();
    for s in steps {
        let acc = &enc.accesses[s];
        let sat = !acc.is_empty() && smt.check_assuming(&[])? == SatResult::Sat;
        // The model's values first (a later check replaces the model).
        let mut values = Vec::new();
        for a in acc {
            values.push(match sat {
                true => match smt.eval(&a.index)? {
                    Value::Int(k) => Some(k),
                    _ => None,
                },
                false => None,
            });
        }
        for (a, v) in acc.iter().zip(values) {
            let fixed = match v {
                Some(k) => {
                    let other = Term::ne(a.index.clone(), Term::int(k.clone()));
                    if smt.check_assuming(&[other])? == SatResult::Unsat {
                        k.to_i64()
                    } else {
                        None
                    }
                }
                None => None,
            };
            out.push(CoreAccess {
                step: s,
                array: a.array,
                write: a.write,
                fixed,
            });
        }
        for c in &enc.steps[s] {
            smt.assert(c)?;
        }
    }
    Ok(out)
}

fn fixed_in_scope(
    cfg: &Cfg,
    t: &Trace,
    core: &[usize],
    include_writes: bool,
    smt: &mut dyn SmtBackend,
) -> Result<Vec<(ArrayId, i64)>, Fail> {
    let enc = encode(cfg, &t.path, smt, false)?;
    for a in &enc.aux {
        smt.assert(a)?;
    }
    let steps: BTreeSet<usize> = core.iter().copied().filter(|s| *s < t.path.len()).collect();
    let mut out: Vec<(ArrayId, i64)> = Vec::new();
    for s in steps {
        let acc = &enc.accesses[s];
        if !acc.is_empty() && smt.check_assuming(&[])? == SatResult::Sat {
            let mut cands = Vec::new();
            for a in acc.iter().filter(|a| include_writes || !a.write) {
                if let Value::Int(k) = smt.eval(&a.index)? {
                    cands.push((a, k));
                }
            }
            for (a, k) in cands {
                let Some(ki) = k.to_i64() else { continue };
                let keep = match &cfg.arrays[a.array].size {
                    ArraySize::Const(n) => ki >= 0 && (ki as u64) < *n,
                    ArraySize::Dynamic(_) => ki >= 0,
                };
                if !keep || out.contains(&(a.array, ki)) {
                    continue;
                }
                let other = Term::ne(a.index.clone(), Term::int(k));
                if smt.check_assuming(&[other])? == SatResult::Unsat {
                    out.push((a.array, ki));
                }
            }
        }
        for c in &enc.steps[s] {
            smt.assert(c)?;
        }
    }
    Ok(out)
}
