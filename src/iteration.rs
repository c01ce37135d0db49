//! The record of the CEGAR loop, iteration by iteration (`lpmc check --report`):
//! the precision, the abstraction P̂k, the abstract error trace, the verdict of its check
//! on the original program (the unsat core and the array accesses whose index it fixes,
//! or the replayed run), the cells added, and where the time went. The driver calls the
//! recording hooks below at points of its loop; the records are part of the typed
//! [`Report`](crate::driver::Report), so `--json` carries them, and the HTML page is
//! rendered from them. The costly parts (P̂k's statements, every trace step, the
//! accesses of the core, the program and its CFG) are recorded only when asked
//! (`CheckOptions::explain`).

use crate::abstraction::Precision;
use crate::cfg::{Cfg, NodeKind, ERROR_NODE};
use crate::engine::StopReason;
use crate::frontend::Loaded;
use crate::ids::NodeId;
use crate::limits::Deadline;
use crate::refine::Refinement;
use crate::report::{counterexample, Counterexample, Engine};
use crate::sema::Expr;
use crate::smt::{Logic, SmtConfig, Solvers};
use crate::trace::{Feasibility, Trace, TraceError};
use std::collections::BTreeMap;
use std::time::Instant;

/// One iteration k of the CEGAR loop: abstraction P̂k, tabulation, trace check,
/// refinement.
#[derive(Clone, Debug, Default, serde::Serialize)]
pub struct Iteration {
    /// k.
    pub k: u32,
    /// The precision of P̂k: the tracked cells per array name.
    pub cells: BTreeMap<String, Vec<i64>>,
    /// The arrays with a symbolic cell `a_k` in P̂k.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub symbolic: Vec<String>,
    /// The arrays that got a symbolic cell after this iteration.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub added_symbolic: Vec<String>,
    /// Whether the symbolic cells got a second ghost after this iteration.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub added_second_ghost: bool,
    /// The cells at index terms of the ghost added after this iteration (`b[2k+1]`).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub added_term_cells: Vec<String>,
    /// The variables kept where dead after this iteration (the read rule took partners
    /// of runs they tell apart).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub kept_live: Vec<String>,
    /// P̂k, one statement per CFG node (recorded with `explain`).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub abstraction: Vec<AbstractStmt>,
    /// How the tabulation of P̂k ended: `converged`, `error reached`, `step budget`,
    /// `fact budget`, `time or memory limit`; empty if it did not end.
    pub tabulation: String,
    /// The abstract error trace, when the tabulation reached an error node.
    pub trace: Option<AbstractTrace>,
    /// What the check of the trace on the original program said.
    pub check: Option<TraceCheck>,
    /// The cells the refinement added after this iteration, and why.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub added: Vec<AddedCell>,
    /// What the refinement of the widening learnt after this iteration, per widening
    /// point (`loop at line 15: delay 6`), when its infeasible trace went through
    /// widened facts and no cell was added.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub widening: Vec<String>,
    /// Where the time of this iteration went.
    pub times: IterationTimes,
    /// The cumulative clock when the iteration began.
    #[serde(skip)]
    start: Clock,
}

/// One statement of P̂k (node ids are those of P).
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct AbstractStmt {
    /// The CFG node.
    pub node: u32,
    /// Its procedure (`-` for the error node).
    pub proc: String,
    /// Its source line (0: none).
    pub line: u32,
    /// The statement in P̂k.
    pub text: String,
    /// The statement in P.
    pub original: String,
    /// Whether the abstraction rewrote it (it reads, writes or initialises an array).
    pub rewritten: bool,
    /// Its successors.
    pub succs: Vec<u32>,
}

/// How often an abstract trace visits a source line.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct LineVisits {
    /// The line.
    pub line: u32,
    /// The most visits of one CFG node of that line (for a loop head: the iterations,
    /// plus one for the exit).
    pub visits: u32,
}

/// One step of an abstract trace.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct StepRef {
    /// Its position in the trace.
    pub step: usize,
    /// The CFG node.
    pub node: u32,
    /// Its source line (0: none).
    pub line: u32,
    /// The statement (of P).
    pub statement: String,
}

/// An abstract error trace of P̂k.
#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Serialize)]
pub struct AbstractTrace {
    /// Its number of steps.
    pub length: usize,
    /// The source lines it visits, in line order, with their visits.
    pub lines: Vec<LineVisits>,
    /// Its steps (recorded with `explain`).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub steps: Vec<StepRef>,
}

/// An array access of a core step.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct FixedAccess {
    /// The step.
    pub step: usize,
    /// Its line.
    pub line: u32,
    /// The array.
    pub array: String,
    /// Whether it is a write (else a read).
    pub write: bool,
    /// The access as written (`a[i]`), when the step has one access of the array.
    pub access: String,
    /// The value the trace prefix (the core constraints before the step) fixes the
    /// index to; `None` if it does not fix it.
    pub index: Option<i64>,
}

/// The check of an abstract trace on the original program.
#[derive(Clone, Debug, serde::Serialize)]
#[serde(tag = "result", rename_all = "lowercase")]
pub enum TraceCheck {
    /// A real execution.
    Feasible {
        /// Its inputs and replayed run (recorded with `explain`).
        run: Option<Counterexample>,
    },
    /// Spurious: the trace formula is unsatisfiable.
    Infeasible {
        /// The steps of the unsat core (recorded with `explain`).
        #[serde(skip_serializing_if = "Vec::is_empty")]
        core: Vec<usize>,
        /// The source lines of the core's steps.
        core_lines: Vec<u32>,
        /// The array accesses of the core's steps, with the index the prefix fixes
        /// (recorded with `explain`).
        #[serde(skip_serializing_if = "Vec::is_empty")]
        accesses: Vec<FixedAccess>,
    },
    /// The solver did not decide.
    Unknown {
        /// Why.
        reason: String,
    },
    /// The trace is not a path of the program (a defect).
    Invalid {
        /// Why.
        reason: String,
    },
}

/// A cell added by the refinement.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct AddedCell {
    /// The array.
    pub array: String,
    /// The cell's index.
    pub index: i64,
    /// Why, for people.
    pub why: String,
}

/// The work of one iteration, per phase.
#[derive(Clone, Debug, Default, PartialEq, serde::Serialize)]
pub struct IterationTimes {
    /// Building P̂k, ms.
    pub abstract_ms: f64,
    /// Tabulating P̂k, ms.
    pub tabulate_ms: f64,
    /// Checking the trace, ms.
    pub trace_ms: f64,
    /// Refining, ms.
    pub refine_ms: f64,
    /// Recording this iteration for the report (the accesses of the core, the replay), ms.
    pub record_ms: f64,
    /// Worklist steps of the engine.
    pub engine_steps: u64,
    /// SMT calls: the trace check and the entailment checks that needed the solver.
    pub smt_calls: u64,
}

/// The driver's cumulative counters, read at the start and the end of an iteration.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Clock {
    /// Cumulative ms building abstractions.
    pub abstract_ms: f64,
    /// Cumulative ms tabulating.
    pub tabulate_ms: f64,
    /// Cumulative ms checking traces.
    pub trace_ms: f64,
    /// Cumulative ms refining.
    pub refine_ms: f64,
    /// Cumulative engine steps.
    pub engine_steps: u64,
    /// Cumulative SMT calls.
    pub smt_calls: u64,
}

/// The program of a report: its source and its CFG (recorded with `explain`).
#[derive(Clone, Debug, Default, serde::Serialize)]
pub struct ProgramView {
    /// The file's name.
    pub name: String,
    /// The user's source text.
    pub source: String,
    /// The procedures, in order.
    pub procs: Vec<String>,
    /// The CFG's nodes.
    pub nodes: Vec<CfgNodeView>,
}

/// A CFG edge's kind.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum EdgeKind {
    /// The next statement.
    Next,
    /// A guard holds.
    Then,
    /// A guard fails.
    Else,
    /// From a call to the callee's entry.
    Call,
    /// From a call to its return point (the callee's summary).
    Summary,
    /// From a procedure's exit to a return point.
    Return,
}

/// A CFG node of a [`ProgramView`].
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct CfgNodeView {
    /// The node id.
    pub node: u32,
    /// Its procedure (`None`: the error node).
    pub proc: Option<usize>,
    /// Its source line (0: none).
    pub line: u32,
    /// Its statement.
    pub label: String,
    /// Its successors and the edges' kinds.
    pub succs: Vec<(u32, EdgeKind)>,
}

/// Lines of nodes: the line of each node in the user's file (0 for the error node and
/// for nodes of other files, e.g. headers).
struct Lines<'a> {
    loaded: &'a Loaded,
    file: String,
}

impl<'a> Lines<'a> {
    fn new(loaded: &'a Loaded) -> Lines<'a> {
        let cfg = &loaded.cfg;
        let entry = cfg
            .procs
            .get(cfg.main)
            .map(|p| p.entry)
            .unwrap_or(ERROR_NODE);
        let at = cfg.nodes.get(entry).map(|n| n.span.start).unwrap_or(0);
        let file = loaded.file.origin(at).file.to_string();
        Lines { loaded, file }
    }

    fn of(&self, cfg: &Cfg, n: NodeId) -> u32 {
        let Some(node) = cfg.nodes.get(n) else {
            return 0;
        };
        if n == ERROR_NODE {
            return 0;
        }
        let o = self.loaded.file.origin(node.span.start);
        if o.file == self.file {
            o.pos.line
        } else {
            0
        }
    }
}

/// The program and its CFG, for the report's first section.
pub fn program_view(loaded: &Loaded) -> ProgramView {
    let cfg = &loaded.cfg;
    let lines = Lines::new(loaded);
    let entry = cfg
        .procs
        .get(cfg.main)
        .map(|p| p.entry)
        .unwrap_or(ERROR_NODE);
    let at = cfg.nodes.get(entry).map(|n| n.span.start).unwrap_or(0);
    let origin = loaded.file.origin(at);
    let source = if origin.text.is_empty() {
        loaded.file.text().to_string()
    } else {
        origin.text.to_string()
    };
    let nodes = cfg
        .nodes
        .iter_enumerated()
        .map(|(n, node)| {
            let succs = match &node.kind {
                NodeKind::Branch { then, els, .. } => {
                    vec![(then.0, EdgeKind::Then), (els.0, EdgeKind::Else)]
                }
                NodeKind::Call { ret_point, .. } => {
                    let mut v: Vec<(u32, EdgeKind)> =
                        cfg.succs(n).iter().map(|s| (s.0, EdgeKind::Call)).collect();
                    v.push((ret_point.0, EdgeKind::Summary));
                    v
                }
                NodeKind::Exit => cfg
                    .succs(n)
                    .iter()
                    .map(|s| (s.0, EdgeKind::Return))
                    .collect(),
                _ => cfg.succs(n).iter().map(|s| (s.0, EdgeKind::Next)).collect(),
            };
            CfgNodeView {
                node: n.0,
                proc: node.proc.map(|p| p.0 as usize),
                line: lines.of(cfg, n),
                label: crate::cfg::node_label(cfg, &node.kind),
                succs,
            }
        })
        .collect();
    ProgramView {
        name: lines.file.clone(),
        source,
        procs: cfg.procs.iter().map(|p| p.name.clone()).collect(),
        nodes,
    }
}

fn ms(since: Instant) -> f64 {
    since.elapsed().as_secs_f64() * 1000.0
}

/// Close the last iteration (its times are the clock's advance since it began).
pub fn close(iters: &mut [Iteration], now: Clock) {
    if let Some(it) = iters.last_mut() {
        let s = it.start;
        let t = &mut it.times;
        t.abstract_ms = (now.abstract_ms - s.abstract_ms).max(0.0);
        t.tabulate_ms = (now.tabulate_ms - s.tabulate_ms).max(0.0);
        t.trace_ms = (now.trace_ms - s.trace_ms).max(0.0);
        t.refine_ms = (now.refine_ms - s.refine_ms).max(0.0);
        t.engine_steps = now.engine_steps.saturating_sub(s.engine_steps);
        t.smt_calls = now.smt_calls.saturating_sub(s.smt_calls);
    }
}

/// Begin iteration `k` at `precision` (closing the previous one).
pub fn begin(iters: &mut Vec<Iteration>, k: u32, cfg: &Cfg, precision: &Precision, now: Clock) {
    close(iters, now);
    iters.push(Iteration {
        k,
        cells: precision.by_name(cfg),
        symbolic: precision.symbolic_by_name(cfg),
        start: now,
        ..Iteration::default()
    });
}

/// Whether an expression reads an array.
fn reads_array(e: &Expr) -> bool {
    let mut found = false;
    e.visit(&mut |x| found |= matches!(x, Expr::Read(..)));
    found
}

/// Whether the abstraction rewrites a node of P.
fn rewritten(k: &NodeKind) -> bool {
    match k {
        NodeKind::ArrayWrite { .. } | NodeKind::ArrayInit { .. } => true,
        NodeKind::Assign { rhs, .. } => rhs.iter().any(reads_array),
        NodeKind::Branch { cond, .. } | NodeKind::Assume { cond, .. } => reads_array(cond),
        NodeKind::Call { args, .. } => args.iter().any(reads_array),
        NodeKind::Error | NodeKind::Skip { .. } | NodeKind::Exit | NodeKind::Stop => false,
    }
}

/// Record P̂k's statements (`explain` only).
pub fn abstraction(iters: &mut [Iteration], loaded: &Loaded, phat: &Cfg, explain: bool) {
    let Some(it) = iters.last_mut().filter(|_| explain) else {
        return;
    };
    let cfg = &loaded.cfg;
    let lines = Lines::new(loaded);
    it.abstraction = phat
        .nodes
        .iter_enumerated()
        .map(|(n, node)| {
            let original = cfg.nodes.get(n).map(|o| &o.kind);
            AbstractStmt {
                node: n.0,
                proc: node
                    .proc
                    .map(|p| phat.procs[p].name.clone())
                    .unwrap_or_else(|| "-".into()),
                line: lines.of(cfg, n),
                text: crate::cfg::node_label(phat, &node.kind),
                original: original
                    .map(|k| crate::cfg::node_label(cfg, k))
                    .unwrap_or_default(),
                rewritten: original.is_some_and(rewritten),
                succs: phat.succs(n).iter().map(|s| s.0).collect(),
            }
        })
        .collect();
}

/// Record how the tabulation ended.
pub fn tabulated(iters: &mut [Iteration], stop: &StopReason) {
    if let Some(it) = iters.last_mut() {
        it.tabulation = match stop {
            StopReason::Converged => "converged",
            StopReason::ErrorReached(_) => "error reached",
            StopReason::StepLimit => "step budget",
            StopReason::FactLimit => "fact budget",
            StopReason::Exhausted(_) => "time or memory limit",
        }
        .to_string();
    }
}

/// Record the abstract error trace.
pub fn traced(iters: &mut [Iteration], loaded: &Loaded, t: &Trace, explain: bool) {
    let Some(it) = iters.last_mut() else {
        return;
    };
    let cfg = &loaded.cfg;
    let lines = Lines::new(loaded);
    let mut per_node: BTreeMap<NodeId, u32> = BTreeMap::new();
    for n in &t.path {
        *per_node.entry(*n).or_default() += 1;
    }
    let mut per_line: BTreeMap<u32, u32> = BTreeMap::new();
    for (n, c) in per_node {
        let l = lines.of(cfg, n);
        if l > 0 {
            let v = per_line.entry(l).or_default();
            *v = (*v).max(c);
        }
    }
    it.trace = Some(AbstractTrace {
        length: t.path.len(),
        lines: per_line
            .into_iter()
            .map(|(line, visits)| LineVisits { line, visits })
            .collect(),
        steps: if explain {
            t.path
                .iter()
                .enumerate()
                .map(|(step, n)| StepRef {
                    step,
                    node: n.0,
                    line: lines.of(cfg, *n),
                    statement: cfg
                        .nodes
                        .get(*n)
                        .map(|x| crate::cfg::node_label(cfg, &x.kind))
                        .unwrap_or_default(),
                })
                .collect()
        } else {
            Vec::new()
        },
    });
}

/// The array reads and writes of a node of P, as written (`a[i]`).
fn accesses_text(cfg: &Cfg, k: &NodeKind) -> Vec<(crate::ids::ArrayId, bool, String)> {
    fn walk(cfg: &Cfg, e: &Expr, out: &mut Vec<(crate::ids::ArrayId, bool, String)>) {
        match e {
            Expr::Read(a, i) => {
                walk(cfg, i, out);
                out.push((*a, false, crate::cfg::expr_text(cfg, e)));
            }
            Expr::Const(_) | Expr::Var(_) | Expr::Undef | Expr::Nondet(..) => {}
            Expr::Add(a, b)
            | Expr::Sub(a, b)
            | Expr::Cmp(_, a, b)
            | Expr::And(a, b)
            | Expr::Or(a, b) => {
                walk(cfg, a, out);
                walk(cfg, b, out);
            }
            Expr::Scale(_, a)
            | Expr::Div(a, _)
            | Expr::Mod(a, _)
            | Expr::Not(a)
            | Expr::Wrap(_, a)
            | Expr::Overflow(_, a) => walk(cfg, a, out),
            Expr::Cond(c, a, b) => {
                walk(cfg, c, out);
                walk(cfg, a, out);
                walk(cfg, b, out);
            }
            Expr::Call(_, args, _) => args.iter().for_each(|x| walk(cfg, x, out)),
        }
    }
    let mut out = Vec::new();
    match k {
        NodeKind::ArrayWrite {
            array,
            index,
            value,
            ..
        } => {
            walk(cfg, index, &mut out);
            walk(cfg, value, &mut out);
            out.push((
                *array,
                true,
                format!(
                    "{}[{}]",
                    cfg.arrays[*array].name,
                    crate::cfg::expr_text(cfg, index)
                ),
            ));
        }
        NodeKind::Assign { rhs, .. } => rhs.iter().for_each(|e| walk(cfg, e, &mut out)),
        NodeKind::Branch { cond, .. } | NodeKind::Assume { cond, .. } => walk(cfg, cond, &mut out),
        NodeKind::Call { args, .. } => args.iter().for_each(|e| walk(cfg, e, &mut out)),
        _ => {}
    }
    out
}

/// Record the check of the trace: for a feasible trace (`explain`) its replayed run; for
/// an infeasible one its core's lines and (`explain`) steps and the array accesses whose
/// index the prefix fixes (one more solver session, timed as `record_ms`).
#[allow(clippy::too_many_arguments)]
pub fn checked(
    iters: &mut [Iteration],
    loaded: &Loaded,
    t: &Trace,
    feas: &Result<Feasibility, TraceError>,
    solvers: &Solvers,
    deadline: &Deadline,
    explain: bool,
) {
    let Some(it) = iters.last_mut() else {
        return;
    };
    let t0 = Instant::now();
    let cfg = &loaded.cfg;
    let lines = Lines::new(loaded);
    it.check = Some(match feas {
        Err(e) => TraceCheck::Invalid {
            reason: e.to_string(),
        },
        Ok(Feasibility::Unknown(why)) => TraceCheck::Unknown {
            reason: why.clone(),
        },
        Ok(Feasibility::Feasible(w)) => TraceCheck::Feasible {
            run: explain.then(|| counterexample(Engine::Cegar, loaded, t, w)),
        },
        Ok(Feasibility::Infeasible { core }) => {
            let mut core_lines: Vec<u32> = core
                .iter()
                .filter_map(|s| t.path.get(*s))
                .map(|n| lines.of(cfg, *n))
                .filter(|l| *l > 0)
                .collect();
            core_lines.sort_unstable();
            core_lines.dedup();
            let mut accesses = Vec::new();
            if explain {
                let config = SmtConfig::new(Logic::QfAlia).with_models(true);
                if let Ok(mut smt) = solvers.make(config, deadline) {
                    if let Ok(found) = crate::trace::core_accesses(cfg, t, core, smt.as_mut()) {
                        accesses = found
                            .into_iter()
                            .map(|a| {
                                let node = t.path[a.step];
                                let texts: Vec<String> = cfg
                                    .nodes
                                    .get(node)
                                    .map(|n| accesses_text(cfg, &n.kind))
                                    .unwrap_or_default()
                                    .into_iter()
                                    .filter(|(arr, w, _)| *arr == a.array && *w == a.write)
                                    .map(|(_, _, s)| s)
                                    .collect();
                                FixedAccess {
                                    step: a.step,
                                    line: lines.of(cfg, node),
                                    array: cfg.arrays[a.array].name.clone(),
                                    write: a.write,
                                    access: if texts.len() == 1 {
                                        texts[0].clone()
                                    } else {
                                        format!("{}[…]", cfg.arrays[a.array].name)
                                    },
                                    index: a.fixed,
                                }
                            })
                            .collect();
                    }
                }
            }
            TraceCheck::Infeasible {
                core: if explain { core.clone() } else { Vec::new() },
                core_lines,
                accesses,
            }
        }
    });
    it.times.record_ms += ms(t0);
}

/// Record the cells a refinement added, with why: the first access of the core whose
/// index the prefix fixes to the cell's index.
/// Record what the refinement of the widening learnt after the current iteration.
pub fn widening_refined(iters: &mut [Iteration], lessons: Vec<String>) {
    if let Some(it) = iters.last_mut() {
        it.widening = lessons;
    }
}

/// Record that the symbolic cells got a second ghost after the current iteration.
pub fn second_ghost(iters: &mut [Iteration]) {
    if let Some(it) = iters.last_mut() {
        it.added_second_ghost = true;
    }
}

/// Record that these variables are kept where dead after the current iteration.
pub fn term_cells(iters: &mut [Iteration], names: &[String]) {
    if let Some(it) = iters.last_mut() {
        it.added_term_cells = names.to_vec();
    }
}

pub fn kept_live(iters: &mut [Iteration], names: &[String]) {
    if let Some(it) = iters.last_mut() {
        it.kept_live = names.to_vec();
    }
}

pub fn refined(iters: &mut [Iteration], cfg: &Cfg, r: &Refinement) {
    let Some(it) = iters.last_mut() else {
        return;
    };
    if let Refinement::NewSymbolic(arrays) = r {
        it.added_symbolic = arrays.iter().map(|a| cfg.arrays[*a].name.clone()).collect();
        return;
    }
    let Refinement::NewCells(cells) = r else {
        return;
    };
    let accesses: &[FixedAccess] = match &it.check {
        Some(TraceCheck::Infeasible { accesses, .. }) => accesses,
        _ => &[],
    };
    it.added = cells
        .iter()
        .map(|(a, k)| {
            let name = cfg.arrays[*a].name.clone();
            // Refinement takes the reads first and the writes only when the reads give
            // nothing new (`crate::refine::refine`): so does the explanation.
            let fixes = |x: &&FixedAccess| x.array == name && x.index == Some(*k);
            let read = accesses.iter().filter(|x| !x.write).find(fixes);
            let why = match read.or_else(|| accesses.iter().find(fixes)) {
                Some(x) => format!(
                    "the {} {} at step {} (line {}) is in the unsat core, and the trace before it fixes its index to {k}",
                    if x.write { "write" } else { "read" },
                    x.access,
                    x.step,
                    x.line
                ),
                None => format!(
                    "an access to {name} in the unsat core has its index fixed to {k} by the trace before it"
                ),
            };
            AddedCell {
                array: name,
                index: *k,
                why,
            }
        })
        .collect();
}
