//! The merged bounded engine: the program unrolled to bound `K` as one formula, as CBMC
//! builds it. The unrolling is a DAG of states (a node with the iteration count of each
//! loop around it, per inlined call); where edges meet, the states are joined
//! ([`PathEncoder::join`]: an `ite` over the edges' guards for every value that
//! differs), so the formula grows with the number of states, not of paths. The solver
//! is asked once whether an error is reachable and, if not, once whether a path leaves
//! the bound (the unwinding assertions).
//!
//! Every state has a guard (a Boolean symbol): true exactly on the executions that pass
//! through it. The step constraints of a state (definitions, assumptions, the side
//! conditions of signed arithmetic) hold under its guard. An error found is read back as
//! one path (the edges whose guards the model makes true) and confirmed like the path
//! engine's: the exact trace check, then the interpreter's replay.
//!
//! The bound: a loop head may be entered at most `K + 1` times per entry into its loop
//! (CBMC's unwinding: the count restarts when the loop is entered again from outside,
//! so that a state need not remember the loops it has left and joins after a loop
//! merge the paths that left it at different iterations), and calls nest at most `K`
//! deep. Nodes the unrolling visits in order are processed in the weak topological
//! order of their procedure ([`Wto`]), loops first by iteration, so every state is
//! joined from all its incoming edges before it is encoded.

use super::cone::Cone;
use super::wto::Wto;
use crate::cfg::{Cfg, NodeKind, ERROR_NODE};
use crate::frontend::Loaded;
use crate::ids::{NodeId, ProcId};
use crate::limits::Deadline;
use crate::smt::{SatResult, SmtBackend, SmtError, Sort, Term, Value};
use crate::trace::{Fail, PathEncoder, Trace};
use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet};

/// Where an edge of the unrolling leads.
enum Target {
    State(usize),
    Error,
}

/// A state of the unrolling: its node and its outgoing edges with their guards.
struct Info {
    node: NodeId,
    succ: Vec<(Term, Target)>,
}

/// A state waiting for the rest of its incoming edges.
struct Pending<'a> {
    node: NodeId,
    counts: Vec<u32>,
    ins: Vec<(Term, PathEncoder<'a>, Option<usize>)>,
}

/// The unrolling to one bound, asserted into a solver.
pub(super) struct Unrolling<'a, 's> {
    cfg: &'a Cfg,
    smt: &'s mut dyn SmtBackend,
    k: u32,
    wtos: HashMap<ProcId, Wto>,
    states: Vec<Info>,
    /// Guards of the edges into the error node.
    errors: Vec<Term>,
    /// Guards of the edges that leave the bound, with why.
    bounds: Vec<(Term, String)>,
    /// The largest number of times an edge of the unrolling enters a loop's head again
    /// in one entry into the loop, or of nested calls one makes (within the bound).
    deepest: u32,
    step: usize,
    deadline: &'s Deadline,
    loaded: &'a Loaded,
    /// The branches that take an accelerated loop path (after the node choosing its
    /// count): the unrolling takes only their other edge, into the loop itself.
    accel_branches: HashSet<NodeId>,
    /// The encoder of the first state, whose record of assumed overflows every state
    /// shares.
    pub first: Option<PathEncoder<'a>>,
    /// The solver checks made by [`Unrolling::decide`].
    pub queries: u64,
    /// One Boolean literal per node where C's undefined behaviour imposes a condition
    /// (a signed result fits, an access is in bounds): the queries assume them all, the
    /// question whether a condition can fail ([`Unrolling::undefined_at`]) drops them.
    acts: BTreeMap<NodeId, Term>,
    /// Those conditions, in the order of their states: node, state, guard of the state,
    /// condition.
    ub: Vec<(NodeId, usize, Term, Term)>,
    /// The nodes from which an error can be reached: the others get no state.
    cone: Cone,
}

/// What one unrolling found.
pub(super) enum Found {
    /// An error path, for confirmation, with the guards of its edges (to exclude it).
    Error(Trace, Vec<Term>),
    /// No error within the bound; a path leaves it (why).
    Bound(String),
    /// No error, and no path leaves the bound.
    Safe,
}

impl<'a, 's> Unrolling<'a, 's> {
    pub(super) fn new(
        loaded: &'a Loaded,
        smt: &'s mut dyn SmtBackend,
        k: u32,
        deadline: &'s Deadline,
    ) -> Self {
        let cfg = &loaded.cfg;
        let accel_branches = cfg
            .accel
            .keys()
            .filter_map(|n| match &cfg.nodes[*n].kind {
                NodeKind::Assign { next, .. } => Some(*next),
                _ => None,
            })
            .filter(|b| matches!(cfg.nodes[*b].kind, NodeKind::Branch { .. }))
            .collect();
        Unrolling {
            accel_branches,
            cfg: &loaded.cfg,
            smt,
            k,
            wtos: HashMap::new(),
            states: Vec::new(),
            errors: Vec::new(),
            bounds: Vec::new(),
            deepest: 0,
            step: 0,
            deadline,
            loaded,
            first: None,
            queries: 0,
            acts: BTreeMap::new(),
            ub: Vec::new(),
            cone: Cone::new(&loaded.cfg),
        }
    }

    /// The number of states encoded.
    pub(super) fn states(&self) -> usize {
        self.states.len()
    }

    /// Encode the unrolling of `main` (asserted at the solver's current level).
    pub(super) fn build(&mut self) -> Result<(), Fail> {
        let cfg = self.cfg;
        let Some(main) = cfg.procs.get(cfg.main) else {
            return Err(self.invalid("the program has no main"));
        };
        let mut enc = PathEncoder::new(cfg, false);
        enc.keep_ub_apart();
        self.first = Some(enc.clone());
        self.frame(cfg.main, main.entry, enc, Term::Bool(true), None, 1)?;
        Ok(())
    }

    fn invalid(&self, why: &str) -> Fail {
        Fail::Trace(crate::trace::TraceError::Invalid {
            step: self.step,
            reason: why.into(),
        })
    }

    fn line(&self, n: NodeId) -> u32 {
        self.loaded.file.line_col(self.cfg.nodes[n].span.start).line
    }

    /// A Boolean symbol for `t` (literals stay literals).
    fn name(&mut self, t: Term) -> Result<Term, SmtError> {
        if matches!(t, Term::Bool(_) | Term::Sym(_)) {
            return Ok(t);
        }
        let s = self.smt.declare(&format!("g@{}", self.step), Sort::Bool)?;
        self.smt.assert(&Term::eq(Term::sym(s), t))?;
        Ok(Term::sym(s))
    }

    /// Assert `cs` under guard `g`; `false` if one of them is the literal `false` (then
    /// no execution passes the state: its guard is false).
    fn assert_under(
        &mut self,
        g: &Term,
        cs: Vec<Term>,
        enc: &PathEncoder<'a>,
    ) -> Result<bool, SmtError> {
        for c in cs {
            match c {
                c if self.unguarded(&c, enc)? => self.smt.assert(&c)?,
                Term::Bool(true) => {}
                Term::Bool(false) => {
                    self.smt.assert(&Term::not(g.clone()))?;
                    return Ok(false);
                }
                c if *g == Term::Bool(true) => self.smt.assert(&c)?,
                c => self.smt.assert(&Term::implies(g.clone(), c))?,
            }
        }
        Ok(true)
    }

    /// Whether `c` may be asserted without its state's guard: the definition of a fresh
    /// integer symbol (the linear relaxation then sees through it; the guarded form hides
    /// it until the guard is decided). Definitions of arrays stay guarded: unguarded,
    /// every array version is active in the array solver, which measurably slows
    /// satisfiable queries.
    fn unguarded(&self, c: &Term, enc: &PathEncoder<'a>) -> Result<bool, SmtError> {
        if !enc.is_definition(c) {
            return Ok(false);
        }
        Ok(match c {
            Term::Eq(a, _) => match &**a {
                Term::Sym(s) => self.smt.sort_of(*s)? == Sort::Int,
                _ => false,
            },
            _ => false,
        })
    }

    /// The step's constraints and the encoder's definitions, under `g`.
    fn end_step(&mut self, g: &Term, enc: &mut PathEncoder<'a>) -> Result<bool, SmtError> {
        for l in enc.take_lemmas() {
            self.smt.assert(&l)?;
        }
        let mut cs = enc.take_aux();
        cs.extend(enc.end_step());
        let live = self.assert_under(g, cs, enc)?;
        self.assert_ub(g, enc)?;
        Ok(live)
    }

    /// The step's conditions of defined behaviour, under `g` and the literal of their
    /// node (a state where one is `false` goes on: the queries exclude its executions).
    fn assert_ub(&mut self, g: &Term, enc: &mut PathEncoder<'a>) -> Result<(), SmtError> {
        for (n, c) in enc.take_ub() {
            let act = match self.acts.get(&n) {
                Some(a) => a.clone(),
                None => {
                    let s = self
                        .smt
                        .declare(&format!("ub@{}", self.acts.len()), Sort::Bool)?;
                    self.acts.insert(n, Term::sym(s));
                    Term::sym(s)
                }
            };
            self.smt
                .assert(&Term::implies(act, Term::implies(g.clone(), c.clone())))?;
            let state = self.states.len().saturating_sub(1);
            self.ub.push((n, state, g.clone(), c));
        }
        Ok(())
    }

    fn wto(&mut self, p: ProcId, entry: NodeId) -> &Wto {
        let cfg = self.cfg;
        self.wtos.entry(p).or_insert_with(|| Wto::new(cfg, entry))
    }

    /// Unroll procedure `p` from `entry` in state `enc` under guard `g`, reached from
    /// state `pred` at call depth `depth`. Returns the states at its exit (their guard,
    /// encoder after the exit, and state number).
    #[allow(clippy::type_complexity)]
    fn frame(
        &mut self,
        p: ProcId,
        entry: NodeId,
        enc: PathEncoder<'a>,
        g: Term,
        pred: Option<usize>,
        depth: usize,
    ) -> Result<Vec<(Term, PathEncoder<'a>, usize)>, Fail> {
        let cfg = self.cfg;
        self.wto(p, entry);
        let mut pending: BTreeMap<Vec<u64>, Pending<'a>> = BTreeMap::new();
        let mut exits = Vec::new();
        self.edge(p, &mut pending, None, &[], pred, entry, g, enc)?;
        while let Some((_, st)) = pending.pop_first() {
            if let Err(e) = self.deadline.check() {
                return Err(Fail::Smt(SmtError::Solver {
                    operation: "bmc",
                    message: e.to_string(),
                }));
            }
            let id = self.states.len();
            self.states.push(Info {
                node: st.node,
                succ: Vec::new(),
            });
            let step = self.step;
            self.step += 1;
            let mut guards = Vec::with_capacity(st.ins.len());
            let mut ins = Vec::with_capacity(st.ins.len());
            for (eg, e, from) in st.ins {
                if let Some(from) = from {
                    self.states[from].succ.push((eg.clone(), Target::State(id)));
                }
                guards.push(eg.clone());
                ins.push((eg, e));
            }
            let g = if guards.len() == 1 {
                guards.pop().unwrap_or(Term::Bool(true))
            } else {
                self.name(Term::or(guards))?
            };
            let mut enc = PathEncoder::join(&mut *self.smt, ins, step)?;
            let n = st.node;
            enc.begin_step(step, n);
            let counts = st.counts;
            let next = match &cfg.nodes[n].kind {
                NodeKind::Error => {
                    self.errors.push(g.clone());
                    self.states[id].succ.push((g, Target::Error));
                    continue;
                }
                NodeKind::Stop => continue,
                NodeKind::Exit => {
                    if depth > 1 {
                        enc.step(&mut *self.smt, n, ERROR_NODE)?;
                        if self.end_step(&g, &mut enc)? {
                            exits.push((g, enc, id));
                        }
                    }
                    continue;
                }
                NodeKind::Branch { cond, then, els } => {
                    let (then, els) = (*then, *els);
                    let c = enc.condition(&mut *self.smt, cond)?;
                    if !self.end_step(&g, &mut enc)? {
                        continue;
                    }
                    match c {
                        _ if then == els => then,
                        // An accelerated path summarises iterations of its loop, which
                        // the unrolling goes through anyway: its symbolic count would
                        // make the loop's variables symbolic in every state it joins.
                        c if self.accel_branches.contains(&n) => {
                            let ge = self.name(Term::and([g.clone(), Term::not(c)]))?;
                            self.edge(p, &mut pending, Some(n), &counts, Some(id), els, ge, enc)?;
                            continue;
                        }
                        Term::Bool(true) => then,
                        Term::Bool(false) => els,
                        c => {
                            let gt = self.name(Term::and([g.clone(), c.clone()]))?;
                            let ge = self.name(Term::and([g.clone(), Term::not(c.clone())]))?;
                            let mut et = enc.clone();
                            et.learn(&c);
                            enc.learn(&Term::not(c));
                            self.edge(p, &mut pending, Some(n), &counts, Some(id), then, gt, et)?;
                            self.edge(p, &mut pending, Some(n), &counts, Some(id), els, ge, enc)?;
                            continue;
                        }
                    }
                }
                NodeKind::Call {
                    proc, ret_point, ..
                } => {
                    let (proc, ret_point) = (*proc, *ret_point);
                    if depth > self.k as usize {
                        let why = format!("a feasible path has more than {} nested calls", self.k);
                        self.bounds.push((g, why));
                        continue;
                    }
                    self.deepest = self.deepest.max(depth as u32);
                    let Some(callee) = cfg.procs.get(proc) else {
                        return Err(self.invalid("a call of an unknown procedure"));
                    };
                    let centry = callee.entry;
                    enc.step(&mut *self.smt, n, centry)?;
                    if !self.end_step(&g, &mut enc)? {
                        continue;
                    }
                    let outs = self.frame(proc, centry, enc, g, Some(id), depth + 1)?;
                    for (eg, e, from) in outs {
                        self.edge(
                            p,
                            &mut pending,
                            Some(n),
                            &counts,
                            Some(from),
                            ret_point,
                            eg,
                            e,
                        )?;
                    }
                    continue;
                }
                NodeKind::Assume { next, .. }
                | NodeKind::Skip { next }
                | NodeKind::Assign { next, .. }
                | NodeKind::ArrayWrite { next, .. }
                | NodeKind::ArrayInit { next, .. } => {
                    let next = *next;
                    enc.step(&mut *self.smt, n, next)?;
                    for l in enc.take_lemmas() {
                        self.smt.assert(&l)?;
                    }
                    let mut cs = enc.take_aux();
                    let own = enc.end_step();
                    if matches!(cfg.nodes[n].kind, NodeKind::Assume { .. }) {
                        // `assume(x == 7777)` fixes `x` for the states after it.
                        own.iter().for_each(|c| enc.learn(c));
                    }
                    cs.extend(own);
                    let live = self.assert_under(&g, cs, &enc)?;
                    self.assert_ub(&g, &mut enc)?;
                    if !live {
                        continue;
                    }
                    next
                }
            };
            self.edge(p, &mut pending, Some(n), &counts, Some(id), next, g, enc)?;
        }
        Ok(exits)
    }

    /// Add the edge from `from` (a node of procedure `p` with its loop counts; `None`
    /// for the entry) into `to`, taken under `g` in state `enc`, coming out of state
    /// `pred` (for the callee's exits: the exit state, not the call).
    #[allow(clippy::too_many_arguments)]
    fn edge(
        &mut self,
        p: ProcId,
        pending: &mut BTreeMap<Vec<u64>, Pending<'a>>,
        from: Option<NodeId>,
        counts: &[u32],
        pred: Option<usize>,
        to: NodeId,
        g: Term,
        enc: PathEncoder<'a>,
    ) -> Result<(), Fail> {
        if g == Term::Bool(false) {
            return Ok(());
        }
        if to == ERROR_NODE {
            self.errors.push(g.clone());
            if let Some(s) = pred {
                self.states[s].succ.push((g, Target::Error));
            }
            return Ok(());
        }
        // No execution from `to` reaches an error: neither question needs its states.
        if !self.cone.reaches_error(p, to) {
            return Ok(());
        }
        let k = self.k;
        let line = self.line(to);
        let Some(wto) = self.wtos.get(&p) else {
            return Err(self.invalid("no order for a procedure"));
        };
        let (Some(loops), Some(&pos)) = (wto.loops.get(&to), wto.pos.get(&to)) else {
            return Err(self.invalid("an edge out of its procedure"));
        };
        let from_loops: &[NodeId] = match from.and_then(|f| wto.loops.get(&f)) {
            Some(l) => l,
            None => &[],
        };
        // The loops both nodes are in keep their counts; a loop entered starts at 0.
        let mut new_counts = Vec::with_capacity(loops.len());
        for (i, h) in loops.iter().enumerate() {
            let same = from_loops.get(i) == Some(h) && i < counts.len();
            new_counts.push(if same { counts[i] } else { 0 });
        }
        if loops.last() == Some(&to) {
            if let Some(c) = new_counts.last_mut() {
                *c += 1;
                if *c > k.saturating_add(1) {
                    let why = format!(
                        "a feasible path enters the loop at line {line} more than {} times",
                        k.saturating_add(1)
                    );
                    self.bounds.push((g, why));
                    return Ok(());
                }
                self.deepest = self.deepest.max(*c - 1);
            }
        }
        let mut key = Vec::with_capacity(2 * loops.len() + 1);
        for (h, c) in loops.iter().zip(&new_counts) {
            key.push(wto.pos.get(h).copied().unwrap_or(0));
            key.push(u64::from(*c));
        }
        key.push(pos);
        pending
            .entry(key)
            .or_insert_with(|| Pending {
                node: to,
                counts: new_counts,
                ins: Vec::new(),
            })
            .ins
            .push((g, enc, pred));
        Ok(())
    }

    /// The least bound whose unrolling is this one (at least 1): when no edge leaves
    /// this unrolling's bound, the deepest loop iteration or call it has, else its bound.
    /// An answer of this unrolling is then the answer at that bound.
    pub(super) fn least_bound(&self) -> u32 {
        match self.bounds.is_empty() {
            true => self.deepest.max(1).min(self.k),
            false => self.k,
        }
    }

    /// Ask whether an error is reachable (then read one path back) and, if not,
    /// whether a path leaves the bound. `blocked` error paths (refuted by the exact
    /// check) are excluded. Each question is asked in its own solver level.
    pub(super) fn decide(&mut self, blocked: &[Vec<Term>]) -> Result<Found, SmtError> {
        if !self.errors.is_empty() {
            self.smt.push()?;
            let res = self.error_query(blocked);
            self.smt.pop()?;
            if let Some(f) = res? {
                return Ok(f);
            }
        }
        if self.bounds.is_empty() {
            return Ok(Found::Safe);
        }
        self.smt.push()?;
        let res = self.bound_query();
        self.smt.pop()?;
        res
    }

    fn error_query(&mut self, blocked: &[Vec<Term>]) -> Result<Option<Found>, SmtError> {
        self.smt.assert(&Term::or(self.errors.clone()))?;
        for b in blocked {
            self.smt.assert(&Term::not(Term::and(b.clone())))?;
        }
        self.queries += 1;
        match self.check_defined()? {
            SatResult::Unsat => Ok(None),
            SatResult::Unknown(r) => Err(SmtError::Solver {
                operation: "check_sat",
                message: format!("unknown on the error query ({r})"),
            }),
            SatResult::Sat => {
                let (t, gs) = self.path()?;
                Ok(Some(Found::Error(t, gs)))
            }
        }
    }

    fn bound_query(&mut self) -> Result<Found, SmtError> {
        let gs: Vec<Term> = self.bounds.iter().map(|(g, _)| g.clone()).collect();
        self.smt.assert(&Term::or(gs))?;
        self.queries += 1;
        match self.check_defined()? {
            SatResult::Unsat => Ok(Found::Safe),
            SatResult::Unknown(r) => Err(SmtError::Solver {
                operation: "check_sat",
                message: format!("unknown on the unwinding assertions ({r})"),
            }),
            SatResult::Sat => {
                for i in 0..self.bounds.len() {
                    let g = self.bounds[i].0.clone();
                    if self.holds(&g)? {
                        return Ok(Found::Bound(self.bounds[i].1.clone()));
                    }
                }
                Ok(Found::Bound("a path leaves the bound".into()))
            }
        }
    }

    /// Check the executions whose behaviour is defined (every condition of C's undefined
    /// behaviour holds).
    fn check_defined(&mut self) -> Result<SatResult, SmtError> {
        let acts: Vec<Term> = self.acts.values().cloned().collect();
        if acts.is_empty() {
            self.smt.check()
        } else {
            self.smt.check_assuming(&acts)
        }
    }

    /// The nodes where an execution within the bound may break a condition of defined
    /// behaviour (a signed result out of its type's range, an access out of bounds) first:
    /// those where the unrolling cannot rule it out. An execution that first breaks one
    /// at node `n` is, up to `n`, an execution of the C program, and one of the unrolled
    /// program over the mathematical integers where every condition before `n` holds. So
    /// first one question for all nodes, over the mathematical integers (the earliest
    /// condition a model breaks is broken first: its node is kept); if some execution
    /// breaks one, then a question per node, with the conditions of the states before its
    /// first state (the states of one execution come in order). Every node the solver
    /// gives no answer for within `cap_ms` per question is kept: the questions only
    /// narrow the assumptions a proof names, and must not cost much more than the proof.
    pub(super) fn undefined_at(&mut self, cap_ms: u64) -> BTreeSet<NodeId> {
        self.smt.set_check_cap_ms(Some(cap_ms));
        let kept = self.undefined_within_limit();
        self.smt.set_check_cap_ms(None);
        kept
    }

    fn undefined_within_limit(&mut self) -> BTreeSet<NodeId> {
        let all: Vec<usize> = (0..self.ub.len()).collect();
        let mut kept = BTreeSet::new();
        match self.breaks(&all, 0) {
            Ok(None) => return kept,
            Ok(Some(e)) => {
                kept.insert(self.ub[e].0);
            }
            Err(_) => return self.ub.iter().map(|u| u.0).collect(),
        }
        // The entries of each node still open, by the node's first state.
        let mut by_node: BTreeMap<NodeId, Vec<usize>> = BTreeMap::new();
        for (i, u) in self.ub.iter().enumerate() {
            if !kept.contains(&u.0) {
                by_node.entry(u.0).or_default().push(i);
            }
        }
        let mut order: Vec<(usize, NodeId)> = by_node
            .iter()
            .map(|(n, es)| (es.iter().map(|&e| self.ub[e].1).min().unwrap_or(0), *n))
            .collect();
        order.sort_unstable();
        for (first, n) in order {
            let es = &by_node[&n];
            if !matches!(self.breaks(es, first), Ok(None)) {
                kept.insert(n);
            }
        }
        kept
    }

    /// Whether some execution where the conditions of the states before `before` hold
    /// breaks one of the conditions `targets` (indices into `self.ub`): the broken one of
    /// the earliest state, or `None`.
    fn breaks(&mut self, targets: &[usize], before: usize) -> Result<Option<usize>, SmtError> {
        self.smt.push()?;
        let res = (|| {
            for (_, st, g, c) in &self.ub {
                if *st < before {
                    self.smt.assert(&Term::implies(g.clone(), c.clone()))?;
                }
            }
            // In the order of their states (`self.ub`'s order).
            let broken: Vec<(usize, Term)> = targets
                .iter()
                .map(|&i| {
                    let (_, _, g, c) = &self.ub[i];
                    (i, Term::and([g.clone(), Term::not(c.clone())]))
                })
                .collect();
            self.smt.assert(&Term::or(
                broken.iter().map(|(_, t)| t.clone()).collect::<Vec<_>>(),
            ))?;
            self.queries += 1;
            match self.smt.check()? {
                SatResult::Unsat => Ok(None),
                SatResult::Unknown(r) => Err(SmtError::Solver {
                    operation: "check_sat",
                    message: format!("unknown on an undefined behaviour ({r})"),
                }),
                SatResult::Sat => {
                    for (i, t) in &broken {
                        if self.holds(t)? {
                            return Ok(Some(*i));
                        }
                    }
                    Err(SmtError::Solver {
                        operation: "bmc",
                        message: "the model breaks no condition".into(),
                    })
                }
            }
        })();
        self.smt.pop()?;
        res
    }

    fn holds(&mut self, g: &Term) -> Result<bool, SmtError> {
        Ok(match g {
            Term::Bool(b) => *b,
            g => matches!(self.smt.eval(g)?, Value::Bool(true)),
        })
    }

    /// The error path of the last model: from the first state, the edge whose guard
    /// holds, until the error.
    fn path(&mut self) -> Result<(Trace, Vec<Term>), SmtError> {
        let mut path = Vec::new();
        let mut guards = Vec::new();
        let mut cur = 0;
        let mut taken = 0;
        while let Some(info) = self.states.get(cur) {
            path.push(info.node);
            let mut next = None;
            for i in 0..self.states[cur].succ.len() {
                let g = self.states[cur].succ[i].0.clone();
                if self.holds(&g)? {
                    next = Some(i);
                    break;
                }
            }
            if let Some(i) = next {
                let g = &self.states[cur].succ[i].0;
                if *g != Term::Bool(true) {
                    guards.push(g.clone());
                }
            }
            match next.map(|i| &self.states[cur].succ[i].1) {
                Some(Target::Error) => break,
                Some(Target::State(j)) => cur = *j,
                None => {
                    return Err(SmtError::Solver {
                        operation: "bmc",
                        message: "the model follows no edge out of a state".into(),
                    })
                }
            }
            taken += 1;
            if taken > self.states.len() {
                break;
            }
        }
        Ok((Trace { path }, guards))
    }
}
