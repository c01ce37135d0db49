//! Bounded model checking (`lpmc bmc`): symbolic execution of the ORIGINAL program (arrays
//! included) over the CFG, path by path, up to an unwinding bound.
//!
//! The explorer keeps one incremental SMT solver. A path's state maps every scalar and
//! array to an SSA term; each definition is a fresh symbol whose equation is asserted in
//! the path's solver scope. At a branch both successors are pushed on a work stack with
//! their guards; a successor is only followed when its guard is satisfiable together with
//! the path so far (infeasible prefixes are pruned). Every source of nondeterminism
//! (`u`, out-of-range reads, uninitialised variables, arbitrary arrays) is a fresh symbol,
//! so the path formula over-approximates the interpreter's executions: "unsat" really
//! means that no execution follows the prefix.
//!
//! The bound: per procedure activation, every node may be executed at most `K + 1` times
//! (`K` loop iterations plus the exit test), and the call depth may be at most `K + 1`.
//! A feasible prefix that exceeds it means the bound was hit: the answer is then never
//! SAFE. When a feasible prefix steps into the error node, the path is re-checked with the
//! exact trace check ([`crate::trace::check`]) and its witness replayed by the interpreter
//! before UNSAFE is reported.

use crate::cfg::{Cfg, NodeKind, ERROR_NODE};
use crate::frontend::{unsupported_reason, Loaded};
use crate::ids::{ArrayId, NodeId, VarId};
use crate::report::{TraceReport, Verdict};
use crate::sema::{ArraySize, CmpOp, Expr};
use crate::smt::{Cvc5Backend, Logic, SatResult, SmtBackend, SmtConfig, SmtError, Sort, Term};
use crate::trace::{self, Feasibility, Trace};
use num_bigint::BigInt;
use std::collections::{BTreeMap, HashMap};
use std::time::{Duration, Instant};

/// The unwinding bound.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Unwind {
    /// A fixed bound `K`.
    Fixed(u32),
    /// `K = 1, 2, 4, ...` until a verdict, the timeout, or [`AUTO_CAP`]
    /// ([`AUTO_CAP_WITH_TIMEOUT`] with a timeout).
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

/// Options of `lpmc bmc`.
#[derive(Clone, Debug)]
pub struct BmcOptions {
    /// The bound.
    pub unwind: Unwind,
    /// Wall-clock budget in seconds.
    pub timeout_s: Option<f64>,
}

/// The outcome of `lpmc bmc`.
#[derive(Clone, Debug, serde::Serialize)]
pub struct BmcReport {
    /// The verdict.
    pub verdict: Verdict,
    /// Why.
    pub reason: String,
    /// The last bound tried.
    pub unwind: u32,
    /// Paths explored to their end (stop, exit of main, error, bound or pruning).
    pub paths: u64,
    /// Feasibility checks made by the explorer.
    pub smt_checks: u64,
    /// Wall-clock time.
    pub time_ms: u128,
    /// The counterexample, for UNSAFE.
    pub trace: Option<TraceReport>,
}

/// The largest bound `--unwind auto` tries without a timeout.
pub const AUTO_CAP: u32 = 1 << 8;

/// The largest bound `--unwind auto` tries with a timeout.
pub const AUTO_CAP_WITH_TIMEOUT: u32 = 1 << 20;

/// Stack size of the exploring thread (the solver recurses deeply on long paths).
const STACK_BYTES: usize = 512 << 20;

/// Run bounded model checking on a loaded program.
pub fn bmc(loaded: &Loaded, opts: &BmcOptions) -> BmcReport {
    let start = Instant::now();
    let first_k = match opts.unwind {
        Unwind::Fixed(k) => k,
        Unwind::Auto => 1,
    };
    let mut report = BmcReport {
        verdict: Verdict::Unknown,
        reason: String::new(),
        unwind: first_k,
        paths: 0,
        smt_checks: 0,
        time_ms: 0,
        trace: None,
    };
    if let Some(r) = unsupported_reason(&loaded.file, &loaded.analysis.unsupported) {
        report.reason = r;
        report.time_ms = start.elapsed().as_millis();
        return report;
    }
    let deadline = opts
        .timeout_s
        .filter(|t| t.is_finite() && *t >= 0.0)
        .map(|t| start + Duration::from_secs_f64(t.min(1e9)));
    let outcome = std::thread::scope(|s| {
        std::thread::Builder::new()
            .name("lpmc-bmc".into())
            .stack_size(STACK_BYTES)
            .spawn_scoped(s, || {
                let mut r = report.clone();
                let mut k = first_k;
                // `auto` without a timeout must still end on unbounded loops.
                let auto_cap = if deadline.is_some() {
                    AUTO_CAP_WITH_TIMEOUT
                } else {
                    AUTO_CAP
                };
                loop {
                    r.unwind = k;
                    let res = explore(loaded, k, deadline, &mut r);
                    if std::env::var_os("LPMC_DEBUG").is_some() {
                        eprintln!("[bmc] k={k} done at {} ms", start.elapsed().as_millis());
                    }
                    match res {
                        Outcome::Verdict(v, why) => {
                            r.verdict = v;
                            r.reason = why;
                            break;
                        }
                        Outcome::Bound(why) => {
                            if opts.unwind == Unwind::Auto
                                && deadline.is_none_or(|d| Instant::now() < d)
                                && k < auto_cap
                            {
                                k = if k == 0 { 1 } else { k * 2 };
                                continue;
                            }
                            r.verdict = Verdict::Unknown;
                            r.reason = why;
                            break;
                        }
                    }
                }
                r
            })
            .map(|h| h.join())
    });
    match outcome {
        Ok(Ok(r)) => report = r,
        Ok(Err(_)) => {
            report.reason = "internal error: the bmc thread panicked".to_string();
        }
        Err(e) => report.reason = format!("cannot start the bmc thread: {e}"),
    }
    report.time_ms = start.elapsed().as_millis();
    report
}

/// What one exploration with a fixed bound found.
enum Outcome {
    /// A final answer (SAFE, UNSAFE, or UNKNOWN for a reason a larger bound won't fix).
    Verdict(Verdict, String),
    /// Only the bound stood in the way: no error found, but some feasible path was cut.
    Bound(String),
}

#[derive(Clone)]
struct Arr {
    val: Term,
    size: Term,
}

#[derive(Clone)]
struct Frame {
    vars: BTreeMap<VarId, Term>,
    arrays: BTreeMap<ArrayId, Arr>,
    ret_point: NodeId,
    visits: HashMap<NodeId, u32>,
}

#[derive(Clone)]
struct State {
    node: NodeId,
    globals: BTreeMap<VarId, Term>,
    garrays: BTreeMap<ArrayId, Arr>,
    stack: Vec<Frame>,
    /// Length of the shared path when this state was created (its node not included).
    path_len: usize,
}

/// A state waiting to be explored, with the guard of its edge and the solver level of
/// its parent.
struct Pending {
    state: State,
    guard: Option<Term>,
    level: usize,
}

/// Integer- or Boolean-valued encodings of expressions.
enum V {
    I(Term),
    B(Term),
}

impl V {
    fn int(self) -> Term {
        match self {
            V::I(t) => t,
            V::B(b) => fold(Term::ite(b, Term::int(1), Term::int(0))),
        }
    }
    fn bool(self) -> Term {
        match self {
            V::I(t) => fold(Term::ne(t, Term::int(0))),
            V::B(b) => b,
        }
    }
}

struct Explorer<'a> {
    cfg: &'a Cfg,
    smt: Cvc5Backend,
    level: usize,
    fresh: u64,
    k: u32,
}

fn remaining_ms(deadline: Option<Instant>) -> Option<u64> {
    deadline.map(|d| {
        d.saturating_duration_since(Instant::now())
            .as_millis()
            .clamp(1, u64::MAX as u128) as u64
    })
}

fn explore(loaded: &Loaded, k: u32, deadline: Option<Instant>, report: &mut BmcReport) -> Outcome {
    let cfg = &loaded.cfg;
    let Some(main) = cfg.procs.get(cfg.main) else {
        return Outcome::Verdict(Verdict::Unknown, "the program has no main".into());
    };
    let mut conf = SmtConfig::new(Logic::QfAlia).with_models(false);
    // The backend's per-check limit is fixed at creation: a slice of the remaining time,
    // so that a hard check late in the exploration cannot overrun the deadline by much.
    if let Some(ms) = remaining_ms(deadline) {
        conf = conf.with_timeout_ms((ms / 4).max(500).min(ms));
    }
    let smt = match Cvc5Backend::new(conf) {
        Ok(s) => s,
        Err(e) => {
            return Outcome::Verdict(
                Verdict::Unknown,
                format!("cannot start the SMT solver: {e}"),
            )
        }
    };
    let mut ex = Explorer {
        cfg,
        smt,
        level: 0,
        fresh: 0,
        k,
    };
    let init = State {
        node: main.entry,
        globals: BTreeMap::new(),
        garrays: BTreeMap::new(),
        stack: vec![Frame {
            vars: BTreeMap::new(),
            arrays: BTreeMap::new(),
            ret_point: ERROR_NODE,
            visits: HashMap::new(),
        }],
        path_len: 0,
    };
    let mut work = vec![Pending {
        state: init,
        guard: None,
        level: 0,
    }];
    let mut path: Vec<NodeId> = Vec::new();
    let mut bound_hit: Option<String> = None;
    let mut incomplete: Option<String> = None;
    while let Some(p) = work.pop() {
        if deadline.is_some_and(|d| Instant::now() >= d) {
            return Outcome::Verdict(
                Verdict::Unknown,
                format!(
                    "timeout with unwinding bound {k} after {} path(s)",
                    report.paths
                ),
            );
        }
        match ex.run_pending(p, &mut path, &mut work, report, loaded, deadline) {
            Ok(Step::Continue) => {}
            Ok(Step::Bound(why)) => {
                report.paths += 1;
                bound_hit.get_or_insert(why);
            }
            Ok(Step::Incomplete(why)) => {
                report.paths += 1;
                incomplete.get_or_insert(why);
            }
            Ok(Step::Unsafe(why)) => return Outcome::Verdict(Verdict::Unsafe, why),
            Err(e) => {
                return Outcome::Verdict(Verdict::Unknown, format!("SMT error: {e}"));
            }
        }
    }
    if let Some(why) = incomplete {
        return Outcome::Verdict(Verdict::Unknown, why);
    }
    if let Some(why) = bound_hit {
        return Outcome::Bound(format!("unwinding bound {k} reached: {why}"));
    }
    Outcome::Verdict(
        Verdict::Safe,
        format!(
            "no error location is reachable: all {} path(s) end within unwinding bound {k}",
            report.paths
        ),
    )
}

/// What happened to one pending state.
enum Step {
    Continue,
    Bound(String),
    Incomplete(String),
    Unsafe(String),
}

impl Explorer<'_> {
    fn fresh(&mut self, what: &str, sort: Sort) -> Result<Term, SmtError> {
        self.fresh += 1;
        let s = self.smt.declare(&format!("{what}!{}", self.fresh), sort)?;
        Ok(Term::sym(s))
    }

    /// A symbol or literal equal to `t` (the equation asserted in the current scope).
    fn name(&mut self, t: Term) -> Result<Term, SmtError> {
        let t = fold(t);
        if matches!(t, Term::Sym(_) | Term::Int(_)) {
            return Ok(t);
        }
        let s = self.fresh("t", Sort::Int)?;
        self.smt.assert(&Term::eq(s.clone(), t))?;
        Ok(s)
    }

    fn set_level(&mut self, level: usize) -> Result<(), SmtError> {
        while self.level > level {
            self.smt.pop()?;
            self.level -= 1;
        }
        Ok(())
    }

    fn check(&mut self, report: &mut BmcReport) -> Result<SatResult, SmtError> {
        report.smt_checks += 1;
        self.smt.check()
    }

    #[allow(clippy::too_many_arguments)]
    fn run_pending(
        &mut self,
        p: Pending,
        path: &mut Vec<NodeId>,
        work: &mut Vec<Pending>,
        report: &mut BmcReport,
        loaded: &Loaded,
        deadline: Option<Instant>,
    ) -> Result<Step, SmtError> {
        self.set_level(p.level)?;
        self.smt.push()?;
        self.level += 1;
        let mut st = p.state;
        path.truncate(st.path_len);
        if let Some(g) = &p.guard {
            self.smt.assert(g)?;
            match self.check(report)? {
                SatResult::Sat => {}
                SatResult::Unsat => {
                    report.paths += 1;
                    return Ok(Step::Continue);
                }
                SatResult::Unknown(r) => {
                    return Ok(Step::Incomplete(format!(
                        "the SMT solver gave no answer on a path prefix ({r})"
                    )))
                }
            }
        }
        loop {
            let n = st.node;
            if n == ERROR_NODE {
                return Ok(self.error_path(path, report, loaded, deadline));
            }
            // The bound.
            let Some(frame) = st.stack.last_mut() else {
                return Ok(Step::Incomplete("internal error: empty call stack".into()));
            };
            let c = frame.visits.entry(n).or_insert(0);
            *c += 1;
            if *c > self.k.saturating_add(1) {
                let line = loaded.file.line_col(self.cfg.nodes[n].span.start).line;
                return Ok(Step::Bound(format!(
                    "a feasible path executes the statement at line {line} more than {} times",
                    self.k.saturating_add(1)
                )));
            }
            path.push(n);
            let next = match self.cfg.nodes[n].kind.clone() {
                NodeKind::Error => return Ok(self.error_path(path, report, loaded, deadline)),
                NodeKind::Stop => {
                    report.paths += 1;
                    return Ok(Step::Continue);
                }
                NodeKind::Skip { next } => next,
                NodeKind::Assign { lhs, rhs, next } => {
                    let mut vals = Vec::with_capacity(rhs.len());
                    for e in &rhs {
                        vals.push(self.int(&mut st, e)?);
                    }
                    for (v, x) in lhs.iter().zip(vals) {
                        let t = self.define(x)?;
                        set(self.cfg, &mut st, *v, t);
                    }
                    next
                }
                NodeKind::ArrayWrite {
                    array,
                    index,
                    value,
                    next,
                } => {
                    let i = self.int(&mut st, &index)?;
                    let idx = self.name(i)?;
                    let x = self.int(&mut st, &value)?;
                    let arr = self.array(&mut st, array)?;
                    let upd = fold(Term::ite(
                        in_range(&idx, &arr.size),
                        Term::store(arr.val.clone(), idx, x),
                        arr.val,
                    ));
                    let s = self.fresh("arr", Sort::IntArray)?;
                    self.smt.assert(&Term::eq(s.clone(), upd))?;
                    set_array(
                        self.cfg,
                        &mut st,
                        array,
                        Arr {
                            val: s,
                            size: arr.size,
                        },
                    );
                    next
                }
                NodeKind::ArrayInit {
                    array,
                    values,
                    next,
                } => {
                    let size = self.array_size(&mut st, array)?;
                    let val = match values {
                        None => self.fresh("arbitrary", Sort::IntArray)?,
                        Some(vs) => {
                            let mut xs = Vec::with_capacity(vs.len());
                            for e in &vs {
                                xs.push(self.int(&mut st, e)?);
                            }
                            let mut t = Term::const_array(0);
                            for (i, x) in xs.into_iter().enumerate() {
                                let it = Term::int(i as i64);
                                t = match &size {
                                    Term::Int(n) if BigInt::from(i) < *n => Term::store(t, it, x),
                                    Term::Int(_) => t,
                                    _ => {
                                        let prev = self.fresh("init", Sort::IntArray)?;
                                        self.smt.assert(&Term::eq(prev.clone(), t))?;
                                        let stored = Term::store(prev.clone(), it.clone(), x);
                                        Term::ite(Term::lt(it, size.clone()), stored, prev)
                                    }
                                };
                            }
                            let s = self.fresh("arr", Sort::IntArray)?;
                            self.smt.assert(&Term::eq(s.clone(), t))?;
                            s
                        }
                    };
                    set_array(self.cfg, &mut st, array, Arr { val, size });
                    next
                }
                NodeKind::Assume { cond, next } => {
                    let c = self.boolean(&mut st, &cond)?;
                    match c {
                        Term::Bool(true) => {}
                        Term::Bool(false) => {
                            report.paths += 1;
                            return Ok(Step::Continue);
                        }
                        c => {
                            self.smt.assert(&c)?;
                            match self.check(report)? {
                                SatResult::Sat => {}
                                SatResult::Unsat => {
                                    report.paths += 1;
                                    return Ok(Step::Continue);
                                }
                                SatResult::Unknown(r) => {
                                    return Ok(Step::Incomplete(format!(
                                        "the SMT solver gave no answer on a path prefix ({r})"
                                    )))
                                }
                            }
                        }
                    }
                    next
                }
                NodeKind::Branch { cond, then, els } => {
                    let c = self.boolean(&mut st, &cond)?;
                    if then == els {
                        then
                    } else {
                        match c {
                            Term::Bool(true) => then,
                            Term::Bool(false) => els,
                            c => {
                                // Explore `then` first (pushed last).
                                let mut s_els = st.clone();
                                s_els.node = els;
                                s_els.path_len = path.len();
                                work.push(Pending {
                                    state: s_els,
                                    guard: Some(Term::not(c.clone())),
                                    level: self.level,
                                });
                                st.node = then;
                                st.path_len = path.len();
                                work.push(Pending {
                                    state: st,
                                    guard: Some(c),
                                    level: self.level,
                                });
                                return Ok(Step::Continue);
                            }
                        }
                    }
                }
                NodeKind::Call {
                    proc,
                    args,
                    ret_point,
                } => {
                    if st.stack.len() > self.k as usize {
                        return Ok(Step::Bound(format!(
                            "a feasible path has more than {} nested calls",
                            self.k
                        )));
                    }
                    let mut vals = Vec::with_capacity(args.len());
                    for e in &args {
                        vals.push(self.int(&mut st, e)?);
                    }
                    let Some(callee) = self.cfg.procs.get(proc) else {
                        return Ok(Step::Incomplete("a call of an unknown procedure".into()));
                    };
                    let mut vars = BTreeMap::new();
                    for (f, x) in callee.formals.iter().zip(vals) {
                        let t = self.define(x)?;
                        vars.insert(*f, t);
                    }
                    st.stack.push(Frame {
                        vars,
                        arrays: BTreeMap::new(),
                        ret_point,
                        visits: HashMap::new(),
                    });
                    callee.entry
                }
                NodeKind::Exit => {
                    let f = st.stack.pop();
                    match f {
                        Some(f) if !st.stack.is_empty() => f.ret_point,
                        _ => {
                            report.paths += 1;
                            return Ok(Step::Continue);
                        }
                    }
                }
            };
            st.node = next;
            if deadline.is_some_and(|d| Instant::now() >= d) {
                return Ok(Step::Incomplete("timeout".into()));
            }
        }
    }

    /// A feasible prefix steps into the error node: confirm with the exact trace check and
    /// the interpreter.
    fn error_path(
        &mut self,
        path: &[NodeId],
        report: &mut BmcReport,
        loaded: &Loaded,
        deadline: Option<Instant>,
    ) -> Step {
        report.paths += 1;
        let tr = Trace {
            path: path.to_vec(),
        };
        match trace::check_with_config(self.cfg, &tr, remaining_ms(deadline)) {
            Err(e) => Step::Incomplete(format!(
                "internal error: a bmc error path is not a path of the program: {e}"
            )),
            Ok(Feasibility::Unknown(why)) => Step::Incomplete(format!(
                "the SMT check of an error path gave no answer: {why}"
            )),
            // The exact check refutes it: this path does not reach the error.
            Ok(Feasibility::Infeasible { .. }) => Step::Continue,
            Ok(Feasibility::Feasible(w)) => match trace::replay(self.cfg, &tr, &w) {
                Ok(()) => {
                    report.trace = Some(crate::report::trace_report(loaded, &tr, &w));
                    Step::Unsafe(format!(
                        "an error location is reachable within unwinding bound {}: a trace of {} steps, confirmed over integers and arrays and replayed by the interpreter",
                        self.k,
                        tr.path.len()
                    ))
                }
                Err(m) => Step::Incomplete(format!(
                    "the solver's counterexample did not replay in the interpreter: {}",
                    m.0
                )),
            },
        }
    }

    fn define(&mut self, x: Term) -> Result<Term, SmtError> {
        self.name(x)
    }

    fn get(&mut self, st: &mut State, v: VarId) -> Result<Term, SmtError> {
        let global = self.cfg.vars[v].kind.proc().is_none();
        let cur = if global {
            st.globals.get(&v).cloned()
        } else {
            st.stack.last().and_then(|f| f.vars.get(&v).cloned())
        };
        if let Some(t) = cur {
            return Ok(t);
        }
        let s = self.fresh("uninit", Sort::Int)?;
        set(self.cfg, st, v, s.clone());
        Ok(s)
    }

    fn array(&mut self, st: &mut State, a: ArrayId) -> Result<Arr, SmtError> {
        let global = self.cfg.arrays[a].proc.is_none();
        let cur = if global {
            st.garrays.get(&a).cloned()
        } else {
            st.stack.last().and_then(|f| f.arrays.get(&a).cloned())
        };
        if let Some(x) = cur {
            return Ok(x);
        }
        let size = match &self.cfg.arrays[a].size {
            ArraySize::Const(n) => Term::int(BigInt::from(*n)),
            ArraySize::Dynamic(_) => Term::int(0),
        };
        let val = self.fresh("arbitrary", Sort::IntArray)?;
        let arr = Arr { val, size };
        set_array(self.cfg, st, a, arr.clone());
        Ok(arr)
    }

    /// The interpreter's size of an `ArrayInit`: the size variable's value in the current
    /// frame, 0 if unset, negative or beyond `i64`.
    fn array_size(&mut self, st: &mut State, a: ArrayId) -> Result<Term, SmtError> {
        match &self.cfg.arrays[a].size {
            ArraySize::Const(n) => Ok(Term::int(BigInt::from(*n))),
            ArraySize::Dynamic(v) => {
                let cur = st.stack.last().and_then(|f| f.vars.get(v).cloned());
                match cur {
                    None => Ok(Term::int(0)),
                    Some(t) => {
                        let bad = Term::or([
                            Term::lt(t.clone(), Term::int(0)),
                            Term::gt(t.clone(), Term::int(i64::MAX)),
                        ]);
                        self.name(Term::ite(bad, Term::int(0), t))
                    }
                }
            }
        }
    }

    fn int(&mut self, st: &mut State, e: &Expr) -> Result<Term, SmtError> {
        Ok(self.expr(st, e)?.int())
    }

    fn boolean(&mut self, st: &mut State, e: &Expr) -> Result<Term, SmtError> {
        Ok(fold(self.expr(st, e)?.bool()))
    }

    fn trunc_div(t: &Term, c: &BigInt) -> Term {
        if let Term::Int(n) = t {
            return Term::Int(n / c);
        }
        Term::ite(
            Term::ge(t.clone(), Term::int(0)),
            Term::int_div(t.clone(), c.clone()),
            -Term::int_div(-t.clone(), c.clone()),
        )
    }

    fn expr(&mut self, st: &mut State, e: &Expr) -> Result<V, SmtError> {
        let v = match e {
            Expr::Const(n) => V::I(Term::int(n.clone())),
            Expr::Var(v) => V::I(self.get(st, *v)?),
            Expr::Undef => V::I(self.fresh("u", Sort::Int)?),
            Expr::Read(a, i) => {
                let i = self.int(st, i)?;
                let idx = self.name(i)?;
                let arr = self.array(st, *a)?;
                let oor = self.fresh("oor", Sort::Int)?;
                V::I(Term::ite(
                    in_range(&idx, &arr.size),
                    Term::select(arr.val, idx),
                    oor,
                ))
            }
            Expr::Add(x, y) => V::I(self.int(st, x)? + self.int(st, y)?),
            Expr::Sub(x, y) => V::I(self.int(st, x)? - self.int(st, y)?),
            Expr::Scale(c, x) => V::I(Term::scale_int(c.clone(), self.int(st, x)?)),
            Expr::Div(x, c) => {
                let x = self.int(st, x)?;
                if *c <= BigInt::from(0) {
                    return Err(bad_expr(format!("division by non-positive {c}")));
                }
                let t = self.name(x)?;
                V::I(Self::trunc_div(&t, c))
            }
            Expr::Mod(x, c) => {
                let x = self.int(st, x)?;
                if *c <= BigInt::from(0) {
                    return Err(bad_expr(format!("remainder by non-positive {c}")));
                }
                let t = self.name(x)?;
                let q = Self::trunc_div(&t, c);
                V::I(t - fold(Term::scale_int(c.clone(), q)))
            }
            Expr::Cmp(op, x, y) => {
                let l = self.int(st, x)?;
                let r = self.int(st, y)?;
                V::B(match op {
                    CmpOp::Lt => Term::lt(l, r),
                    CmpOp::Le => Term::le(l, r),
                    CmpOp::Gt => Term::gt(l, r),
                    CmpOp::Ge => Term::ge(l, r),
                    CmpOp::Eq => Term::eq(l, r),
                    CmpOp::Ne => Term::ne(l, r),
                })
            }
            Expr::Not(x) => V::B(Term::not(self.boolean(st, x)?)),
            Expr::And(x, y) => {
                let a = self.boolean(st, x)?;
                let b = self.boolean(st, y)?;
                V::B(Term::and([a, b]))
            }
            Expr::Or(x, y) => {
                let a = self.boolean(st, x)?;
                let b = self.boolean(st, y)?;
                V::B(Term::or([a, b]))
            }
            Expr::Cond(c, x, y) => {
                let c = self.boolean(st, c)?;
                let a = self.int(st, x)?;
                let b = self.int(st, y)?;
                V::I(Term::ite(c, a, b))
            }
            Expr::Call(..) | Expr::Nondet(..) => {
                return Err(bad_expr(
                    "a CFG expression contains a call or a nondet value".into(),
                ))
            }
        };
        Ok(match v {
            V::I(t) => V::I(fold(t)),
            V::B(t) => V::B(fold(t)),
        })
    }
}

fn bad_expr(message: String) -> SmtError {
    SmtError::Solver {
        operation: "bmc encoding",
        message,
    }
}

fn set(cfg: &Cfg, st: &mut State, v: VarId, t: Term) {
    if cfg.vars[v].kind.proc().is_none() {
        st.globals.insert(v, t);
    } else if let Some(f) = st.stack.last_mut() {
        f.vars.insert(v, t);
    }
}

fn set_array(cfg: &Cfg, st: &mut State, a: ArrayId, arr: Arr) {
    if cfg.arrays[a].proc.is_none() {
        st.garrays.insert(a, arr);
    } else if let Some(f) = st.stack.last_mut() {
        f.arrays.insert(a, arr);
    }
}

fn in_range(index: &Term, size: &Term) -> Term {
    fold(Term::and([
        fold(Term::le(Term::int(0), index.clone())),
        fold(Term::lt(index.clone(), size.clone())),
    ]))
}

/// Constant folding at the top of a term whose children are already folded (as in the
/// trace encoder): keeps deterministic parts (loop counters, constant indices) out of the
/// solver, so constant loop guards need no SMT check at all.
fn fold(t: Term) -> Term {
    use num_traits::Zero;
    fn lit(t: &Term) -> Option<&BigInt> {
        match t {
            Term::Int(n) => Some(n),
            _ => None,
        }
    }
    fn cmp(a: &Term, b: &Term, f: fn(&BigInt, &BigInt) -> bool) -> Option<Term> {
        Some(Term::Bool(f(lit(a)?, lit(b)?)))
    }
    let folded = match &t {
        Term::Add(ts) => {
            let mut sum = BigInt::zero();
            let mut all = true;
            for x in ts {
                match lit(x) {
                    Some(n) => sum += n,
                    None => all = false,
                }
            }
            all.then_some(Term::Int(sum))
        }
        Term::Sub(a, b) => match (lit(a), lit(b)) {
            (Some(x), Some(y)) => Some(Term::Int(x - y)),
            _ => None,
        },
        Term::Neg(a) => lit(a).map(|x| Term::Int(-x)),
        Term::Mul(c, a) => match lit(a) {
            Some(x) if c.is_integer() => Some(Term::Int(c.to_integer() * x)),
            _ => None,
        },
        Term::Le(a, b) => cmp(a, b, |x, y| x <= y),
        Term::Lt(a, b) => cmp(a, b, |x, y| x < y),
        Term::Ge(a, b) => cmp(a, b, |x, y| x >= y),
        Term::Gt(a, b) => cmp(a, b, |x, y| x > y),
        Term::Eq(a, b) => cmp(a, b, |x, y| x == y),
        Term::Distinct(ts) if ts.len() == 2 => cmp(&ts[0], &ts[1], |x, y| x != y),
        Term::Not(a) => match **a {
            Term::Bool(b) => Some(Term::Bool(!b)),
            _ => None,
        },
        Term::And(ts) | Term::Or(ts) => {
            let is_and = matches!(t, Term::And(_));
            if ts.contains(&Term::Bool(!is_and)) {
                Some(Term::Bool(!is_and))
            } else if ts.contains(&Term::Bool(is_and)) {
                let rest: Vec<Term> = ts
                    .iter()
                    .filter(|x| **x != Term::Bool(is_and))
                    .cloned()
                    .collect();
                Some(match rest.len() {
                    0 => Term::Bool(is_and),
                    1 => rest.into_iter().next().unwrap_or(Term::Bool(is_and)),
                    _ if is_and => Term::And(rest),
                    _ => Term::Or(rest),
                })
            } else {
                None
            }
        }
        Term::Ite(c, a, b) => match **c {
            Term::Bool(true) => Some((**a).clone()),
            Term::Bool(false) => Some((**b).clone()),
            _ => None,
        },
        _ => None,
    };
    folded.unwrap_or(t)
}
