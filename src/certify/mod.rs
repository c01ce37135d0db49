//! The certificate check of a SAFE verdict: its invariants re-checked on the ORIGINAL
//! program (arrays included) with a fresh solver session that shares no code with the
//! tabulation. The program is cut at its loop heads and at the entries and exits of the
//! procedures with loops or recursion (whose calls are replaced by their summaries; the
//! calls of other procedures are followed through their bodies). For each region between
//! cut points, one query holds every path of the region, and one check per obligation:
//! - initiation: from `main`'s entry (any state), the first cut points reached satisfy
//!   their claims;
//! - consecution: from a cut point, under its claim, the next cut points reached satisfy
//!   theirs, a summarized callee is called within its entry condition, and the exit of a
//!   summarized procedure satisfies its summary;
//! - safety: no region reaches an error location.
//!
//! Claims over symbolic cells (`∀k. … a[k] …`) are checked for an arbitrary ghost `k` in
//! range; where a region reads an array at another index `j`, the ∀-claims it assumes
//! (its cut point's, the summaries it applies) are also assumed at `k := j` (sound: they
//! hold for every index in range), as the abstraction's read rule used them.
//!
//! A claim that fails, or a query out of reach (the solver gives no answer, a region too
//! large), makes the verdict UNKNOWN: the check says which and why.

mod claims;
mod enc;
mod horn;
mod region;

pub(crate) use claims::{Claim, Claims};
pub use horn::horn_clauses;

use crate::cfg::{Cfg, NodeKind};
use crate::diag::SourceFile;
use crate::ids::{NodeId, ProcId};
use crate::invariant::{InvariantMap, Point};
use crate::limits::Deadline;
use crate::smt::{Logic, SatResult, SmtConfig, Solvers, Term};
use claims::{ghost_bounds, ghost_range, quantified, Env};
use enc::{Enc, EncError, State};
use region::{Goal, Plan, Region};
use std::collections::{BTreeMap, BTreeSet};
use std::time::Instant;

/// Index terms beyond which a ∀-claim is not instantiated at more read indices.
const MAX_INSTANCES: usize = 64;

/// How a certificate check ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum CertStatus {
    /// Every obligation holds.
    Checked,
    /// An obligation does not hold (the reason says which).
    Failed,
    /// The check could not be done (the reason says why).
    OutOfReach,
}

/// The result of a certificate check.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Certificate {
    /// How it ended.
    pub status: CertStatus,
    /// What was checked (`invariants`, or `unwinding` for a bounded proof).
    pub kind: String,
    /// Why it failed or is out of reach; `None` when checked.
    pub reason: Option<String>,
    /// The obligations checked.
    pub obligations: usize,
    /// How long it took, in milliseconds.
    pub time_ms: u128,
}

impl Certificate {
    /// Whether every obligation holds.
    pub fn checked(&self) -> bool {
        self.status == CertStatus::Checked
    }
}

/// The loop heads of each procedure: the targets of the back edges of a depth-first
/// search from its entry (a call steps to its return point).
pub(crate) fn loop_heads(cfg: &Cfg) -> BTreeSet<NodeId> {
    let mut heads = BTreeSet::new();
    for p in cfg.procs.iter() {
        let mut mark: BTreeMap<NodeId, bool> = BTreeMap::new(); // false: on the stack
        let succs = |n: NodeId| -> Vec<NodeId> {
            match &cfg.nodes[n].kind {
                NodeKind::Call { ret_point, .. } => vec![*ret_point],
                NodeKind::Exit => Vec::new(),
                _ => cfg
                    .succs(n)
                    .into_iter()
                    .filter(|s| *s != crate::cfg::ERROR_NODE)
                    .collect(),
            }
        };
        let mut stack = vec![(p.entry, succs(p.entry))];
        mark.insert(p.entry, false);
        while let Some((n, ss)) = stack.last_mut() {
            if let Some(s) = ss.pop() {
                match mark.get(&s) {
                    None => {
                        mark.insert(s, false);
                        let x = succs(s);
                        stack.push((s, x));
                    }
                    Some(false) => {
                        heads.insert(s);
                    }
                    Some(true) => {}
                }
            } else {
                let n = *n;
                mark.insert(n, true);
                stack.pop();
            }
        }
    }
    heads
}

/// The procedures whose calls are replaced by their summaries: those other than `main`,
/// called somewhere, that are recursive or contain one of the cut points `heads` (the loop
/// heads, for the certificate check).
pub(crate) fn summarized(cfg: &Cfg, heads: &BTreeSet<NodeId>) -> BTreeSet<ProcId> {
    let np = cfg.procs.len();
    let mut calls = vec![BTreeSet::new(); np];
    for node in cfg.nodes.iter() {
        if let (Some(p), NodeKind::Call { proc, .. }) = (node.proc, &node.kind) {
            calls[p.0 as usize].insert(proc.0 as usize);
        }
    }
    let recursive = |p: usize| {
        let mut seen = BTreeSet::new();
        let mut work: Vec<usize> = calls[p].iter().copied().collect();
        while let Some(q) = work.pop() {
            if q == p {
                return true;
            }
            if seen.insert(q) {
                work.extend(calls[q].iter().copied());
            }
        }
        false
    };
    cfg.procs
        .iter_enumerated()
        .filter(|(p, pr)| {
            *p != cfg.main
                && !pr.callers.is_empty()
                && (recursive(p.0 as usize) || heads.iter().any(|h| cfg.nodes[*h].proc == Some(*p)))
        })
        .map(|(p, _)| p)
        .collect()
}

/// The claims of an invariant map (of an abstraction of `cfg`): each loop head's and
/// summarized procedure's formula, and the ∀-statements after loops as claims where
/// control leaves the loop.
pub(crate) fn claims_of(cfg: &Cfg, map: &InvariantMap) -> Claims {
    let by_name = |name: &str| cfg.procs.iter_enumerated().find(|(_, p)| p.name == name);
    let mut c = Claims {
        vars: map.vars.clone(),
        ..Claims::default()
    };
    for p in map.iter() {
        let claim = Claim::Formula(p.formula.clone());
        match &p.point {
            Point::LoopHead { node, .. } => {
                c.loop_heads.entry(NodeId(*node)).or_default().push(claim);
            }
            Point::AfterLoop { node, .. } => {
                if let Some(exit) = loop_exit(cfg, NodeId(*node)) {
                    c.passing.entry(exit).or_default().push(claim);
                }
            }
            Point::Summary { proc } => {
                if let Some((id, _)) = by_name(proc) {
                    c.summaries.entry(id).or_default().push(claim);
                }
            }
            Point::Entry { proc } => {
                if let Some((id, _)) = by_name(proc) {
                    c.entries.entry(id).or_default().push(claim);
                }
            }
        }
    }
    c
}

/// A loop's exit: the false branch of the test right after its head.
fn loop_exit(cfg: &Cfg, head: NodeId) -> Option<NodeId> {
    let NodeKind::Skip { next: test } = cfg.nodes[head].kind else {
        return None;
    };
    match cfg.nodes[test].kind {
        NodeKind::Branch { els, .. } => Some(els),
        _ => None,
    }
}

/// Check the invariant map of a SAFE verdict on the program `cfg` (of `file`).
pub fn certify(
    cfg: &Cfg,
    file: &SourceFile,
    map: &InvariantMap,
    solvers: &Solvers,
    deadline: &Deadline,
) -> Certificate {
    check_claims(cfg, file, &claims_of(cfg, map), solvers, deadline)
}

/// Check `claims` on the program `cfg` (of `file`): initiation, consecution, safety.
pub(crate) fn check_claims(
    cfg: &Cfg,
    file: &SourceFile,
    claims: &Claims,
    solvers: &Solvers,
    deadline: &Deadline,
) -> Certificate {
    let t0 = Instant::now();
    let mut obligations = 0usize;
    let result = run(cfg, file, claims, solvers, deadline, &mut obligations);
    let (status, reason) = match result {
        Ok(()) => (CertStatus::Checked, None),
        Err(Outcome::Failed(why)) => (CertStatus::Failed, Some(why)),
        Err(Outcome::OutOfReach(why)) => (CertStatus::OutOfReach, Some(why)),
    };
    Certificate {
        status,
        kind: "invariants".into(),
        reason,
        obligations,
        time_ms: t0.elapsed().as_millis(),
    }
}

enum Outcome {
    Failed(String),
    OutOfReach(String),
}

impl From<EncError> for Outcome {
    fn from(e: EncError) -> Self {
        match e {
            EncError::Smt(e) => Outcome::OutOfReach(format!("the solver failed: {e}")),
            EncError::Reach(why) => Outcome::OutOfReach(why),
        }
    }
}

/// How a region starts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum StartKind {
    /// At `main`'s entry, in any state.
    Main,
    /// At the entry of a summarized procedure.
    Entry,
    /// At a cut point (a loop head).
    Cut,
}

/// Where a region starts: its node and procedure.
#[derive(Clone, Debug)]
struct Start {
    node: NodeId,
    proc: ProcId,
    kind: StartKind,
}

impl Start {
    /// Whether the region starts at its procedure's entry (the entry values are the
    /// start's own).
    fn at_entry(&self) -> bool {
        self.kind != StartKind::Cut
    }
}

/// A program cut into regions: what to follow and where to stop ([`Plan`]), and where
/// each region starts.
struct Regions {
    plan: Plan,
    starts: Vec<Start>,
}

/// Cut `cfg` at the nodes `cuts` (its loop heads, and any others a caller needs): the
/// procedures with a cut or recursion are summarized, and a region starts at `main`'s
/// entry, at the entry of each summarized procedure and at each cut; `passing` are the
/// nodes with a claim to check when control passes them. An error when `main` is called
/// by the program (its entry would be no start).
fn regions(
    cfg: &Cfg,
    cuts: BTreeSet<NodeId>,
    passing: BTreeSet<NodeId>,
) -> Result<Regions, String> {
    if !cfg.procs[cfg.main].callers.is_empty() {
        return Err("main is called by the program".into());
    }
    let summarized = summarized(cfg, &cuts);
    let mut starts = vec![Start {
        node: cfg.procs[cfg.main].entry,
        proc: cfg.main,
        kind: StartKind::Main,
    }];
    for p in &summarized {
        starts.push(Start {
            node: cfg.procs[*p].entry,
            proc: *p,
            kind: StartKind::Entry,
        });
    }
    for h in &cuts {
        if let Some(p) = cfg.nodes[*h].proc {
            starts.push(Start {
                node: *h,
                proc: p,
                kind: StartKind::Cut,
            });
        }
    }
    Ok(Regions {
        plan: Plan {
            cuts,
            summarized,
            passing,
        },
        starts,
    })
}

fn run(
    cfg: &Cfg,
    file: &SourceFile,
    claims: &Claims,
    solvers: &Solvers,
    deadline: &Deadline,
    obligations: &mut usize,
) -> Result<(), Outcome> {
    let line = |n: NodeId| file.line_col(cfg.nodes[n].span.start).line;
    let Regions { plan, starts } = regions(
        cfg,
        loop_heads(cfg),
        claims.passing.keys().copied().collect(),
    )
    .map_err(Outcome::OutOfReach)?;
    let none: &[Claim] = &[];
    let config = SmtConfig::new(Logic::QfAlia).with_models(false);
    let mut smt = solvers
        .make(config, deadline)
        .map_err(|e| Outcome::OutOfReach(format!("no solver: {e}")))?;
    let bounds = ghost_bounds(&claims.vars);
    for s in &starts {
        if deadline.expired() {
            return Err(Outcome::OutOfReach("time limit reached".into()));
        }
        let (claim, what) = match s.kind {
            StartKind::Main => (None, "the entry of main".to_string()),
            StartKind::Entry => (
                Some(claims.entries.get(&s.proc).map_or(none, |v| v.as_slice())),
                format!("the entry of {}", cfg.procs[s.proc].name),
            ),
            StartKind::Cut => (
                Some(
                    claims
                        .loop_heads
                        .get(&s.node)
                        .map_or(none, |v| v.as_slice()),
                ),
                format!("the loop at line {}", line(s.node)),
            ),
        };
        // A claim of `false` makes the region vacuous.
        if claim.is_some_and(|c| c.is_empty()) {
            continue;
        }
        let from = RegionCheck {
            start: s,
            claim,
            what,
        };
        smt.push().map_err(|e| Outcome::OutOfReach(e.to_string()))?;
        let mut enc = Enc::new(cfg, smt.as_mut());
        let r = one_region(&mut enc, &plan, claims, &bounds, &from, &line, obligations);
        drop(enc);
        smt.pop().map_err(|e| Outcome::OutOfReach(e.to_string()))?;
        r?;
    }
    Ok(())
}

/// A region to check: its start, the claim assumed there (none for `main`'s entry), and
/// how to name it.
struct RegionCheck<'c> {
    start: &'c Start,
    claim: Option<&'c [Claim]>,
    what: String,
}

/// The ghost values of a region: fresh symbols, in range.
fn ghosts(enc: &mut Enc, bounds: &[claims::GhostRange]) -> Result<Vec<Term>, Outcome> {
    let mut ks = Vec::new();
    for i in 0..bounds.len() {
        ks.push(enc.fresh(&format!("k{i}"), crate::smt::Sort::Int)?);
    }
    enc.assert(&ghost_range(bounds, &ks))?;
    Ok(ks)
}

/// The index tuples at which a ∀-claim is assumed besides the region's ghosts: with one
/// ghost each read index; with two, each ordered pair of distinct indices among the reads
/// and the ghosts.
fn instances(enc: &Enc, ks: &[Term], claims: &Claims, start: &enc::State) -> Vec<Vec<Term>> {
    let symbolic: BTreeSet<_> = claims
        .vars
        .iter()
        .filter_map(|v| match v.kind {
            crate::sema::VarKind::SymCell { array, .. } => Some(array),
            _ => None,
        })
        .collect();
    // A cell at a term `±k + c` of the ghost is read at index `e` where `k = ±(e - c)`;
    // with a variable in the term (`±k + c + d·v`), `v` at the region's start stands for
    // its value at the read (any instance is sound to assume; this one is the read's
    // where the region does not assign `v`).
    let inverses: Vec<(crate::ids::ArrayId, i64, Term)> = claims
        .vars
        .iter()
        .filter_map(|v| match v.kind {
            crate::sema::VarKind::TermCell { array, term, .. } if matches!(term.coef, 1 | -1) => {
                let mut rest = vec![Term::int(term.offset)];
                if let Some((v, c)) = term.by {
                    rest.push(Term::scale_int(c, start.var(enc.cfg, v)?.clone()));
                }
                Some((array, term.coef, Term::sum(rest)))
            }
            _ => None,
        })
        .collect();
    let mut idx: Vec<Term> = Vec::new();
    for (a, t) in &enc.reads {
        let at = inverses
            .iter()
            .filter(|(b, ..)| b == a)
            .map(|(_, coef, rest)| {
                Term::scale_int(
                    *coef,
                    Term::sum([t.clone(), Term::scale_int(-1, rest.clone())]),
                )
            });
        let own = symbolic.contains(a).then(|| t.clone());
        for t in own.into_iter().chain(at) {
            if !idx.contains(&t) && !ks.contains(&t) {
                idx.push(t);
            }
        }
    }
    idx.truncate(MAX_INSTANCES);
    match ks.len() {
        1 => idx.into_iter().map(|t| vec![t]).collect(),
        2 => {
            let mut all = ks.to_vec();
            all.extend(idx);
            let mut out = Vec::new();
            for a in &all {
                for b in &all {
                    if a != b && !(a == &ks[0] && b == &ks[1]) {
                        out.push(vec![a.clone(), b.clone()]);
                    }
                }
            }
            out
        }
        _ => Vec::new(),
    }
}

fn one_region(
    enc: &mut Enc,
    plan: &Plan,
    claims: &Claims,
    bounds: &[claims::GhostRange],
    from: &RegionCheck,
    line: &dyn Fn(NodeId) -> u32,
    obligations: &mut usize,
) -> Result<(), Outcome> {
    let cfg = enc.cfg;
    let s = from.start;
    let ks = ghosts(enc, bounds)?;
    let cur = enc.arbitrary_state(s.proc)?;
    let entry = if s.at_entry() {
        cur.clone()
    } else {
        enc.arbitrary_state(s.proc)?
    };
    let vars = &claims.vars;
    if let Some(c) = from.claim {
        let env = Env {
            cur: &cur,
            entry: &entry,
            proc: s.proc,
            ghosts: &ks,
        };
        let t = enc.claims(c, vars, &env)?;
        enc.assert(&t)?;
    }
    let Region {
        obligations: obls,
        uses,
    } = enc.region(plan, s.proc, s.node, cur.clone())?;
    // The ∀-claims assumed, at the read indices too.
    let inst = instances(enc, &ks, claims, &cur);
    if let Some(c) = from.claim.filter(|c| quantified(c)) {
        for i in &inst {
            let env = Env {
                cur: &cur,
                entry: &entry,
                proc: s.proc,
                ghosts: i,
            };
            let t = enc.claims(c, vars, &env)?;
            enc.assert(&Term::implies(ghost_range(bounds, i), t))?;
        }
    }
    // Each use's summary, assumed only by the obligations after the call: an obligation
    // before it (the call's own entry condition, above all) may not rest on its return.
    let none: &[Claim] = &[];
    let mut summary_of_use = Vec::with_capacity(uses.len());
    for u in &uses {
        let c = claims
            .summaries
            .get(&u.callee)
            .map_or(none, |v| v.as_slice());
        let mut at = vec![ks.clone()];
        if quantified(c) {
            at.extend(inst.iter().cloned());
        }
        let mut parts = Vec::with_capacity(at.len());
        for i in &at {
            let env = Env {
                cur: &u.exit,
                entry: &u.entry,
                proc: u.callee,
                ghosts: i,
            };
            let t = if c.is_empty() {
                Term::ff()
            } else {
                enc.claims(c, vars, &env)?
            };
            parts.push(Term::implies(
                Term::and([u.guard.clone(), ghost_range(bounds, i)]),
                t,
            ));
        }
        summary_of_use.push(Term::and(parts));
    }
    for o in obls {
        let goal_of =
            |enc: &mut Enc, cs: Option<&Vec<Claim>>, env: &Env| -> Result<Term, Outcome> {
                Ok(match cs {
                    Some(c) if !c.is_empty() => enc.claims(c, vars, env)?,
                    _ => Term::ff(),
                })
            };
        let env = |st: &'_ State| -> (State, State) { (st.clone(), entry.clone()) };
        let (goal, what) = match &o.goal {
            Goal::Error { from } => (
                Term::ff(),
                format!("an error location (line {}) is reachable", line(*from)),
            ),
            Goal::Cut { head, state } => {
                let (c, e) = env(state);
                let env = Env {
                    cur: &c,
                    entry: &e,
                    proc: s.proc,
                    ghosts: &ks,
                };
                (
                    goal_of(enc, claims.loop_heads.get(head), &env)?,
                    format!(
                        "the invariant of the loop at line {} does not hold on entering it",
                        line(*head)
                    ),
                )
            }
            Goal::Summary { state } => {
                let (c, e) = env(state);
                let env = Env {
                    cur: &c,
                    entry: &e,
                    proc: s.proc,
                    ghosts: &ks,
                };
                (
                    goal_of(enc, claims.summaries.get(&s.proc), &env)?,
                    format!(
                        "the summary of {} does not hold at its exit",
                        cfg.procs[s.proc].name
                    ),
                )
            }
            Goal::Entry { callee, state } => {
                let env = Env {
                    cur: state,
                    entry: state,
                    proc: *callee,
                    ghosts: &ks,
                };
                (
                    goal_of(enc, claims.entries.get(callee), &env)?,
                    format!(
                        "a call of {} is outside its entry condition",
                        cfg.procs[*callee].name
                    ),
                )
            }
            Goal::Passing { node, state } => {
                let (c, e) = env(state);
                let env = Env {
                    cur: &c,
                    entry: &e,
                    proc: s.proc,
                    ghosts: &ks,
                };
                (
                    goal_of(enc, claims.passing.get(node), &env)?,
                    format!(
                        "the property after the loop does not hold at line {}",
                        line(*node)
                    ),
                )
            }
        };
        *obligations += 1;
        let answer = enc
            .smt
            .check_assuming(
                &[o.guard.clone(), Term::not(goal)]
                    .into_iter()
                    .chain(summary_of_use[..o.uses].iter().cloned())
                    .collect::<Vec<_>>(),
            )
            .map_err(|e| Outcome::OutOfReach(format!("the solver failed: {e}")))?;
        match answer {
            SatResult::Unsat => {}
            SatResult::Sat => return Err(Outcome::Failed(format!("from {}: {what}", from.what))),
            SatResult::Unknown(r) => {
                return Err(Outcome::OutOfReach(format!(
                    "the solver gave no answer ({r}) from {}: whether {what}",
                    from.what
                )))
            }
        }
    }
    Ok(())
}
