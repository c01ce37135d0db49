//! A program as constrained Horn clauses (SMT-LIB's `HORN` logic, in CHC-COMP's format),
//! written from the regions of the certificate check and their encoding: the same cut
//! points, the same loop-free regions between them, and the same SMT terms for a region's
//! paths ([`super::enc`], [`super::region`]), recorded instead of checked.
//!
//! - One predicate per cut point, over the state there: the globals and global arrays,
//!   the scalars and arrays of the point's procedure and, in a summarized procedure, the
//!   values of the globals and formals at its entry first. A summarized procedure `p` has
//!   an entry predicate (globals and formals) and a summary (entry values, then the
//!   globals at its exit), and an auxiliary `p_call(g, entry, exit)` that holds when `g`
//!   is false or the summary holds: a region assumes a call's summary only where the call
//!   is reached, and this keeps that assumption a Horn atom. An obligation assumes the
//!   summaries of the calls met before it only: the clause of a call's entry predicate
//!   does not rest on that call's own return.
//! - `main`'s entry is a predicate too (globals and formals), whose fact is any state,
//!   with the ghosts in their range.
//! - One clause per obligation of a region: the region's start predicate, the summaries of its calls, its encoding and the condition of the
//!   obligation's node, implying the next cut point's predicate, the summary, a callee's
//!   entry predicate, or `false` where an error location is reached (a query).
//! - The clauses' least model is the set of states the program reaches at its cut
//!   points, so they are satisfiable exactly when no error location is reachable.
//!
//! On an abstraction P̂ with symbolic cells (its arrays dropped, every access already a
//! scalar), the ghosts are globals and so arguments of every predicate; the nodes whose
//! reads the tabulation instantiates (Monniaux–Gonnord's read rule) become cut points
//! too, and their clauses take the read's value from a second instance of the node's own
//! predicate at the ghost `k := i` (with two ghosts, at the pair the engine uses).

use super::claims::ghost_range;
use super::enc::{Enc, EncError, State, R};
use super::region::{Goal, Region};
use super::{loop_heads, regions, Regions, Start, StartKind};
use crate::cfg::{Cfg, InstRead};
use crate::diag::SourceFile;
use crate::ids::{ArrayId, NodeId, ProcId, VarId};
use crate::sema::VarKind;
use crate::smt::{smtlib, symbol, Recorder, Sort, SymId, Term};
use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write;

/// The clauses of a program, as SMT-LIB text, with their counts.
#[derive(Clone, Debug)]
pub struct HornClauses {
    /// The script: the header comment, `(set-logic HORN)`, the predicates, the clauses
    /// and `(check-sat)`.
    pub text: String,
    /// The number of predicates declared.
    pub predicates: usize,
    /// The number of clauses (queries included).
    pub clauses: usize,
    /// The number of queries (clauses whose head is `false`).
    pub queries: usize,
}

/// Write the clauses of `cfg` (of `file`), under a header comment of `header`'s lines.
/// An error says why the program could not be written (a region too large, `main`
/// called by the program).
pub fn horn_clauses(
    cfg: &Cfg,
    file: &SourceFile,
    header: &[String],
) -> Result<HornClauses, String> {
    let mut cuts = loop_heads(cfg);
    cuts.extend(cfg.inst_reads.keys().copied());
    let regions = regions(cfg, cuts, BTreeSet::new())?;
    let mut w = Writer {
        cfg,
        file,
        regions: &regions,
        skip: cfg.inst_reads.values().flat_map(|r| r.temps()).collect(),
        preds: BTreeMap::new(),
        names: BTreeSet::new(),
        clauses: Vec::new(),
        queries: 0,
        calls: BTreeSet::new(),
    };
    w.main_fact().map_err(|e| match e {
        EncError::Smt(e) => format!("cannot encode main's entry: {e}"),
        EncError::Reach(why) => why,
    })?;
    for s in &regions.starts {
        // A procedure that is never called (nor `main`) reaches nothing.
        if s.proc != cfg.main && !regions.plan.summarized.contains(&s.proc) {
            continue;
        }
        w.region(s).map_err(|e| match e {
            EncError::Smt(e) => format!("cannot encode a region: {e}"),
            EncError::Reach(why) => why,
        })?;
    }
    for p in w.calls.clone() {
        w.call_clauses(p);
    }
    let mut text = String::new();
    for l in header {
        let _ = writeln!(text, "; {l}");
    }
    text.push_str("(set-logic HORN)\n\n");
    for pred in w.preds.values() {
        let _ = writeln!(text, "; {}", pred.doc);
        let sorts: Vec<String> = pred.params.iter().map(|(_, s)| s.to_string()).collect();
        let _ = writeln!(
            text,
            "(declare-fun {} ({}) Bool)",
            pred.name,
            sorts.join(" ")
        );
    }
    text.push('\n');
    for c in &w.clauses {
        text.push_str(c);
    }
    text.push_str("(check-sat)\n(exit)\n");
    Ok(HornClauses {
        text,
        predicates: w.preds.len(),
        clauses: w.clauses.len(),
        queries: w.queries,
    })
}

/// What a predicate stands for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Key {
    /// The entry condition of a summarized procedure.
    Entry(ProcId),
    /// A cut point.
    Cut(NodeId),
    /// The summary of a summarized procedure.
    Summary(ProcId),
    /// A call of a summarized procedure: reached and summarized, or not reached.
    Call(ProcId),
}

/// One argument place of a predicate: a scalar or an array, now or at the procedure's
/// entry.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Slot {
    entry: bool,
    what: Place,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Place {
    Var(VarId),
    Arr(ArrayId),
}

struct Pred {
    name: String,
    params: Vec<(String, Sort)>,
    doc: String,
}

/// An atom: a predicate applied to terms.
type Atom = (Key, Vec<Term>);

struct Writer<'a> {
    cfg: &'a Cfg,
    file: &'a SourceFile,
    regions: &'a Regions,
    /// The temporaries of instantiated reads: no predicate's arguments (they hold a
    /// value only at their node, where the read rule gives it).
    skip: BTreeSet<VarId>,
    preds: BTreeMap<Key, Pred>,
    names: BTreeSet<String>,
    clauses: Vec<String>,
    queries: usize,
    /// The summarized procedures called somewhere.
    calls: BTreeSet<ProcId>,
}

impl Writer<'_> {
    fn line(&self, n: NodeId) -> u32 {
        self.file.line_col(self.cfg.nodes[n].span.start).line
    }

    fn summarized(&self, p: ProcId) -> bool {
        self.regions.plan.summarized.contains(&p)
    }

    /// The globals and global arrays.
    fn global_slots(&self, entry: bool) -> Vec<Slot> {
        let cfg = self.cfg;
        let vars = cfg.globals.iter().map(|v| Place::Var(*v));
        let arrays = cfg.global_arrays.iter().map(|a| Place::Arr(*a));
        vars.chain(arrays)
            .map(|what| Slot { entry, what })
            .collect()
    }

    /// What a procedure's entry fixes: the globals and global arrays, and its formals.
    fn entry_slots(&self, p: ProcId) -> Vec<Slot> {
        let mut out = self.global_slots(true);
        out.extend(self.cfg.procs[p].formals.iter().map(|v| Slot {
            entry: true,
            what: Place::Var(*v),
        }));
        out
    }

    /// The state at a node of `p`: the globals, global arrays, and `p`'s scalars and
    /// arrays.
    fn state_slots(&self, p: ProcId) -> Vec<Slot> {
        let pr = &self.cfg.procs[p];
        let mut out = self.global_slots(false);
        let vars = pr.formals.iter().chain(&pr.locals);
        out.extend(
            vars.filter(|v| !self.skip.contains(v))
                .map(|v| Place::Var(*v))
                .chain(pr.arrays.iter().map(|a| Place::Arr(*a)))
                .map(|what| Slot { entry: false, what }),
        );
        out
    }

    /// The arguments of a predicate.
    fn slots(&self, key: Key) -> Vec<Slot> {
        match key {
            Key::Entry(p) => self.entry_slots(p),
            Key::Cut(n) => {
                let p = self.cfg.nodes[n]
                    .proc
                    .expect("a cut point is in a procedure");
                let mut out = if self.summarized(p) {
                    self.entry_slots(p)
                } else {
                    Vec::new()
                };
                out.extend(self.state_slots(p));
                out
            }
            Key::Summary(p) | Key::Call(p) => {
                let mut out = self.entry_slots(p);
                out.extend(self.global_slots(false));
                out
            }
        }
    }

    /// Declare the predicate of `key` (once), and return its name.
    fn pred(&mut self, key: Key) -> String {
        if let Some(p) = self.preds.get(&key) {
            return p.name.clone();
        }
        let cfg = self.cfg;
        let proc_name = |p: ProcId| cfg.procs[p].name.clone();
        let (base, doc) = match key {
            Key::Entry(p) if p == cfg.main => (
                format!("{}_entry", proc_name(p)),
                "the states in which main starts".to_string(),
            ),
            Key::Entry(p) => (
                format!("{}_entry", proc_name(p)),
                format!("the states in which {} is called", proc_name(p)),
            ),
            Key::Cut(n) => {
                let p = proc_name(cfg.nodes[n].proc.expect("in a procedure"));
                let line = self.line(n);
                if cfg.inst_reads.contains_key(&n) {
                    (
                        format!("{p}_read_{line}"),
                        format!("the states at the array read of line {line}"),
                    )
                } else {
                    (
                        format!("{p}_loop_{line}"),
                        format!("the states at the head of the loop of line {line}"),
                    )
                }
            }
            Key::Summary(p) => (
                format!("{}_summary", proc_name(p)),
                format!(
                    "the entry values of {} with the globals at its exit",
                    proc_name(p)
                ),
            ),
            Key::Call(p) => (
                format!("{}_call", proc_name(p)),
                format!(
                    "a call of {}: not reached (first argument false), or its summary",
                    proc_name(p)
                ),
            ),
        };
        let mut name = symbol(&base);
        if self.names.contains(&name) {
            name = match key {
                Key::Cut(n) => format!("{name}_n{}", n.0),
                _ => format!("{name}_"),
            };
        }
        self.names.insert(name.clone());
        let mut params = Vec::new();
        if matches!(key, Key::Call(_)) {
            params.push(("reached".to_string(), Sort::Bool));
        }
        for s in self.slots(key) {
            let (n, sort) = match s.what {
                Place::Var(v) => (cfg.vars[v].name.clone(), Sort::Int),
                Place::Arr(a) => (cfg.arrays[a].name.clone(), Sort::IntArray),
            };
            params.push((if s.entry { format!("{n}@entry") } else { n }, sort));
        }
        let names: Vec<&str> = params.iter().map(|(n, _)| n.as_str()).collect();
        let doc = format!("{name}({}): {doc}", names.join(", "));
        self.preds.insert(
            key,
            Pred {
                name: name.clone(),
                params,
                doc,
            },
        );
        name
    }

    /// The value of each slot: entry slots in `entry`, the others in `cur`.
    fn values(&self, slots: &[Slot], entry: &State, cur: &State) -> R<Vec<Term>> {
        let cfg = self.cfg;
        let mut out = Vec::with_capacity(slots.len());
        for s in slots {
            let st = if s.entry { entry } else { cur };
            let v = match s.what {
                Place::Var(v) => st.var(cfg, v).cloned(),
                Place::Arr(a) => st.arr(cfg, a).map(|x| x.val.clone()),
            };
            out.push(v.ok_or_else(|| {
                EncError::Reach(format!("a state lacks a value of {}", slot_name(cfg, s)))
            })?);
        }
        Ok(out)
    }

    /// The fact of `main`'s entry: any state (of the variables' types), the ghosts anywhere
    /// in their range, in increasing order.
    fn main_fact(&mut self) -> R<()> {
        let cfg = self.cfg;
        let mut rec = Recorder::new();
        let mut enc = Enc::new(cfg, &mut rec);
        let st = enc.arbitrary_state(cfg.main)?;
        let ghosts = cfg.ghosts();
        let mut ks = Vec::new();
        for g in &ghosts {
            ks.push(
                st.var(cfg, *g)
                    .cloned()
                    .ok_or_else(|| EncError::Reach("the state lacks a ghost's value".into()))?,
            );
        }
        let bounds: Vec<super::claims::GhostRange> = ghosts
            .iter()
            .map(|g| match cfg.vars[*g].kind {
                VarKind::Ghost { bound, residue } => (bound, residue),
                _ => (None, None),
            })
            .collect();
        drop(enc);
        let args = self.values(&self.entry_slots(cfg.main), &st, &st)?;
        let mut constraint = rec.assertions().to_vec();
        constraint.push(ghost_range(&bounds, &ks));
        let head = (Key::Entry(cfg.main), args);
        let text = self.clause(
            &rec,
            &[],
            &constraint,
            Some(&head),
            "main starts in any state",
        );
        self.clauses.push(text);
        Ok(())
    }

    /// The clauses of the region from `s`.
    fn region(&mut self, s: &Start) -> R<()> {
        let cfg = self.cfg;
        let p = s.proc;
        let mut rec = Recorder::new();
        let mut enc = Enc::new(cfg, &mut rec);
        let cur = enc.arbitrary_state(p)?;
        let entry = if s.at_entry() || !self.summarized(p) {
            cur.clone()
        } else {
            enc.arbitrary_state(p)?
        };
        let mut atoms: Vec<Atom> = Vec::new();
        let mut extra: Vec<Term> = Vec::new();
        let from = match s.kind {
            StartKind::Main => {
                let args = self.values(&self.entry_slots(p), &cur, &cur)?;
                atoms.push((Key::Entry(p), args));
                "the entry of main".to_string()
            }
            StartKind::Entry => {
                let args = self.values(&self.entry_slots(p), &cur, &cur)?;
                atoms.push((Key::Entry(p), args));
                format!("the entry of {}", cfg.procs[p].name)
            }
            StartKind::Cut => {
                let slots = self.slots(Key::Cut(s.node));
                let args = self.values(&slots, &entry, &cur)?;
                if let Some(read) = cfg.inst_reads.get(&s.node) {
                    let (partner, cs) = partner(&mut enc, read, &slots, &args, &cur)?;
                    atoms.push((Key::Cut(s.node), args));
                    atoms.push((Key::Cut(s.node), partner));
                    extra.extend(cs);
                    format!("the array read of line {}", self.line(s.node))
                } else {
                    atoms.push((Key::Cut(s.node), args));
                    format!("the loop of line {}", self.line(s.node))
                }
            }
        };
        let Region { obligations, uses } =
            enc.region(&self.regions.plan, p, s.node, cur.clone())?;
        let mut calls: Vec<Atom> = Vec::new();
        for u in &uses {
            let mut args = vec![u.guard.clone()];
            args.extend(self.values(&self.entry_slots(u.callee), &u.entry, &u.entry)?);
            args.extend(self.values(&self.global_slots(false), &u.exit, &u.exit)?);
            calls.push((Key::Call(u.callee), args));
            self.calls.insert(u.callee);
        }
        let mut heads: Vec<(Term, usize, Option<Atom>, String)> = Vec::new();
        for o in obligations {
            let (head, what) = match &o.goal {
                Goal::Error { from } => (
                    None,
                    format!("an error location (line {}) is reached", self.line(*from)),
                ),
                Goal::Cut { head, state } => {
                    let slots = self.slots(Key::Cut(*head));
                    let what = if cfg.inst_reads.contains_key(head) {
                        format!("to the array read of line {}", self.line(*head))
                    } else {
                        format!("to the loop of line {}", self.line(*head))
                    };
                    (
                        Some((Key::Cut(*head), self.values(&slots, &entry, state)?)),
                        what,
                    )
                }
                Goal::Summary { state } => {
                    let mut args = self.values(&self.entry_slots(p), &entry, &entry)?;
                    args.extend(self.values(&self.global_slots(false), state, state)?);
                    (
                        Some((Key::Summary(p), args)),
                        format!("to the exit of {}", cfg.procs[p].name),
                    )
                }
                Goal::Entry { callee, state } => (
                    Some((
                        Key::Entry(*callee),
                        self.values(&self.entry_slots(*callee), state, state)?,
                    )),
                    format!("to a call of {}", cfg.procs[*callee].name),
                ),
                // No claims where control passes a node.
                Goal::Passing { .. } => continue,
            };
            heads.push((o.guard, o.uses, head, what));
        }
        drop(enc);
        for (guard, before, head, what) in heads {
            // The summaries of the calls met before the obligation only.
            let mut atoms = atoms.clone();
            atoms.extend(calls[..before].iter().cloned());
            let mut constraint: Vec<Term> = rec.assertions().to_vec();
            constraint.extend(extra.iter().cloned());
            constraint.push(guard);
            let comment = format!("from {from}, {what}");
            if head.is_none() {
                self.queries += 1;
            }
            let text = self.clause(&rec, &atoms, &constraint, head.as_ref(), &comment);
            self.clauses.push(text);
        }
        Ok(())
    }

    /// The two clauses of `p_call`: not reached, or reached with the summary.
    fn call_clauses(&mut self, p: ProcId) {
        let call = self.pred(Key::Call(p));
        let summary = self.pred(Key::Summary(p));
        let params = &self.preds[&Key::Call(p)].params;
        let vars: Vec<(String, Sort)> = params
            .iter()
            .enumerate()
            .map(|(i, (n, s))| (format!("{}!{i}", symbol(n)), *s))
            .collect();
        let decls = decls(&vars);
        let names: Vec<&str> = vars.iter().map(|(n, _)| n.as_str()).collect();
        let head = format!("({call} {})", names.join(" "));
        let rest = names[1..].join(" ");
        let g = names[0];
        self.clauses.push(format!(
            "; a call of {0} that is not reached\n(assert (forall ({decls})\n  (=> (not {g}) {head})))\n\n",
            self.cfg.procs[p].name
        ));
        self.clauses.push(format!(
            "; a call of {0} that is reached: its summary\n(assert (forall ({decls})\n  (=> (and ({summary} {rest}) {g}) {head})))\n\n",
            self.cfg.procs[p].name
        ));
    }

    /// One clause: `atoms ∧ constraint ⇒ head` (`false` without one), quantified over the
    /// recorder's symbols it uses. Every argument of an atom is a variable (CHC-COMP's
    /// format): a term that is not a variable, or a variable already given to the atom,
    /// becomes a new variable equal to it.
    fn clause(
        &mut self,
        rec: &Recorder,
        atoms: &[Atom],
        constraint: &[Term],
        head: Option<&Atom>,
        comment: &str,
    ) -> String {
        let names = symbol_names(rec);
        // A definition `s = x` of a symbol by another symbol or a literal is left out, and
        // `s` written as `x` (the same clause, with fewer variables).
        let mut alias: BTreeMap<SymId, Term> = BTreeMap::new();
        let mut kept: Vec<&Term> = Vec::new();
        for c in constraint {
            if let Term::Eq(a, b) = c {
                if let Term::Sym(s) = **a {
                    let b = resolve(&unit_free(b), &alias);
                    let simple = matches!(b, Term::Sym(_) | Term::Int(_) | Term::Bool(_));
                    if simple && b != Term::Sym(s) && !alias.contains_key(&s) {
                        alias.insert(s, b);
                        continue;
                    }
                }
            }
            kept.push(c);
        }
        let name = |s: SymId| match resolve(&Term::Sym(s), &alias) {
            Term::Sym(x) => names[x.0 as usize].clone(),
            lit => smtlib(&lit, &|_| unreachable!("a literal has no symbol")),
        };
        let mut used: BTreeSet<SymId> = BTreeSet::new();
        let mut collect = |t: &Term| {
            t.visit(&mut |x| {
                if let Some(s) = resolve_sym(x, &alias) {
                    used.insert(s);
                }
            })
        };
        kept.iter().for_each(|t| collect(t));
        let mut extra_vars: Vec<(String, Sort)> = Vec::new();
        let mut eqs: Vec<String> = Vec::new();
        let mut app = |w: &mut Self, atom: &Atom, used: &mut BTreeSet<SymId>| -> String {
            let (key, args) = atom;
            let pname = w.pred(*key);
            let sorts: Vec<Sort> = w.preds[key].params.iter().map(|(_, s)| *s).collect();
            let mut mine: BTreeSet<SymId> = BTreeSet::new();
            let mut words = vec![pname];
            for (t, sort) in args.iter().zip(sorts) {
                let t = resolve(t, &alias);
                match t {
                    Term::Sym(s) if mine.insert(s) => {
                        used.insert(s);
                        words.push(name(s));
                    }
                    _ => {
                        t.visit(&mut |x| {
                            if let Some(s) = resolve_sym(x, &alias) {
                                used.insert(s);
                            }
                        });
                        let v = format!("arg!{}", extra_vars.len());
                        eqs.push(format!("(= {v} {})", smtlib(&t, &name)));
                        extra_vars.push((v.clone(), sort));
                        words.push(v);
                    }
                }
            }
            format!("({})", words.join(" "))
        };
        let mut body: Vec<String> = atoms.iter().map(|a| app(self, a, &mut used)).collect();
        let head_text = match head {
            Some(h) => app(self, h, &mut used),
            None => "false".to_string(),
        };
        body.extend(eqs);
        body.extend(
            kept.iter()
                .map(|t| smtlib(t, &name))
                .filter(|t| t != "true"),
        );
        let mut vars: Vec<(String, Sort)> = used
            .iter()
            .map(|s| (name(*s), rec.symbols()[s.0 as usize].1))
            .collect();
        vars.extend(extra_vars);
        if vars.is_empty() {
            vars.push(("unused".to_string(), Sort::Int));
        }
        let body = match body.len() {
            0 => "true".to_string(),
            1 => body.pop().expect("one conjunct"),
            _ => format!("(and\n    {})", body.join("\n    ")),
        };
        format!(
            "; {comment}\n(assert (forall ({})\n  (=> {body}\n      {head_text})))\n\n",
            decls(&vars)
        )
    }
}

/// `t` without the units of its outer `and`s and `or`s, and a connective of one operand
/// as that operand (`(and g true)` is `g`).
fn unit_free(t: &Term) -> Term {
    let (ts, unit) = match t {
        Term::And(ts) => (ts, true),
        Term::Or(ts) => (ts, false),
        _ => return t.clone(),
    };
    let mut rest = Vec::new();
    for x in ts {
        match unit_free(x) {
            Term::Bool(b) if b == unit => {}
            Term::Bool(b) => return Term::Bool(b),
            x => rest.push(x),
        }
    }
    match rest.len() {
        0 => Term::Bool(unit),
        1 => rest.pop().expect("one operand"),
        _ if unit => Term::And(rest),
        _ => Term::Or(rest),
    }
}

/// `t`, or where `t` is a symbol with an alias, the end of its chain of aliases.
fn resolve(t: &Term, alias: &BTreeMap<SymId, Term>) -> Term {
    let mut t = t;
    while let Term::Sym(s) = t {
        match alias.get(s) {
            Some(x) => t = x,
            None => break,
        }
    }
    t.clone()
}

/// The symbol a symbol `t` stands for (none for another term, or a symbol whose alias is
/// a literal).
fn resolve_sym(t: &Term, alias: &BTreeMap<SymId, Term>) -> Option<SymId> {
    match t {
        Term::Sym(_) => match resolve(t, alias) {
            Term::Sym(s) => Some(s),
            _ => None,
        },
        _ => None,
    }
}

/// `(x Int) (a (Array Int Int)) ...`.
fn decls(vars: &[(String, Sort)]) -> String {
    vars.iter()
        .map(|(n, s)| format!("({n} {s})"))
        .collect::<Vec<_>>()
        .join(" ")
}

/// The SMT-LIB name of each of the recorder's symbols: its name as a simple symbol, made
/// unique.
fn symbol_names(rec: &Recorder) -> Vec<String> {
    let mut seen = BTreeSet::new();
    rec.symbols()
        .iter()
        .enumerate()
        .map(|(i, (n, _))| {
            let s = symbol(n);
            if seen.insert(s.clone()) {
                s
            } else {
                let s = format!("{s}!s{i}");
                seen.insert(s.clone());
                s
            }
        })
        .collect()
}

fn slot_name(cfg: &Cfg, s: &Slot) -> String {
    let n = match s.what {
        Place::Var(v) => cfg.vars[v].name.clone(),
        Place::Arr(a) => cfg.arrays[a].name.clone(),
    };
    if s.entry {
        format!("{n} at entry")
    } else {
        n
    }
}

/// The read rule at a node with an instantiated read, as a second atom of the node's
/// predicate: the state `args` (over `slots`, in `cur`) with the ghost at the read's
/// index `i` and the read cells at the values read (the node's temporaries), the other
/// arrays' cells at the ghost and every cell's entry value fresh. Where the read is out of
/// range the partner is the state itself (the read is `u` there). With two ghosts
/// `k1 < k2` the partner keeps the ghost on the far side: `(i, k2)` for `i < k1`, `(k1, i)`
/// for `i > k1`, `i ≠ k2`; at `i == k1` (or `k2`) the value read is the state's own cell;
/// with a companion read `t = b[c]` in range at `c ≠ i`, the partner is at the pair of
/// `i` and `c` instead, `b`'s cell at `c` bound to `t` (as the engine's rule).
/// Returns the partner's arguments and the constraints beside it.
fn partner(
    enc: &mut Enc,
    read: &InstRead,
    slots: &[Slot],
    args: &[Term],
    cur: &State,
) -> R<(Vec<Term>, Vec<Term>)> {
    let cfg = enc.cfg;
    enc.take_side();
    let i = enc.value(cur, &read.index)?;
    let i = enc.name(i)?;
    let inr = enc.boolean(cur, &read.in_range)?;
    let inr = enc.name_bool(inr)?;
    // The index's side conditions are the node's own, which its step adds.
    enc.take_side();
    let own = |v: VarId| -> R<Term> {
        cur.var(cfg, v)
            .cloned()
            .ok_or_else(|| EncError::Reach(format!("no value of {}", cfg.vars[v].name)))
    };
    // Each read cell at the first ghost, with its temporary's value.
    let mut temp: BTreeMap<VarId, Term> = BTreeMap::new();
    for (cell, t) in &read.reads {
        temp.insert(*cell, own(*t)?);
    }
    let mut cs = Vec::new();
    // The cases of the partner, exclusive: when it holds, and the ghosts it moves (to
    // an index) with their cells (to a value read, or fresh).
    let mut cases: Vec<(Term, BTreeMap<VarId, Option<Term>>)> = Vec::new();
    // A ghost moved to `at`, with the cells at it bound by `binds` (the others fresh).
    let slot = |ghost: VarId, cells: &[VarId], at: &Term, binds: &BTreeMap<VarId, Term>| {
        let mut m: BTreeMap<VarId, Option<Term>> = BTreeMap::new();
        m.insert(ghost, Some(at.clone()));
        for c in cells {
            m.insert(*c, binds.get(c).cloned());
        }
        m
    };
    match &read.second {
        None => {
            let cells: Vec<VarId> = read.others.iter().chain(temp.keys()).copied().collect();
            cases.push((inr.clone(), slot(read.ghost, &cells, &i, &temp)));
        }
        Some(sg) => {
            let (k1, k2) = (own(read.ghost)?, own(sg.ghost)?);
            let cells1: Vec<VarId> = sg.pairs.iter().map(|p| p.0).collect();
            let cells2: Vec<VarId> = sg.pairs.iter().map(|p| p.1).collect();
            let at2 = |c1: VarId| sg.pairs.iter().find(|p| p.0 == c1).map(|p| p.1);
            let mut binds2: BTreeMap<VarId, Term> = BTreeMap::new();
            for (c1, t) in &temp {
                // The state's own cells where the index is a ghost.
                if let Some(c2) = at2(*c1) {
                    for (k, c) in [(&k1, *c1), (&k2, c2)] {
                        cs.push(Term::implies(
                            Term::and([inr.clone(), Term::eq(i.clone(), k.clone())]),
                            Term::eq(t.clone(), own(c)?),
                        ));
                    }
                    binds2.insert(c2, t.clone());
                }
            }
            // With a companion read `t = b[c]` in range at another index: the partner at
            // the pair of `i` and `c`, `b`'s cell at `c` bound to `t`.
            let mut not_companion = Term::tt();
            if let Some(cp) = &sg.companion {
                let c = enc.value(cur, &cp.index)?;
                let c = enc.name(c)?;
                let cin = enc.boolean(cur, &cp.in_range)?;
                let cin = enc.name_bool(cin)?;
                enc.take_side();
                let t = own(cp.value)?;
                // The same cell: the same value.
                for (c1, tmp) in &temp {
                    if *c1 == cp.cell {
                        cs.push(Term::implies(
                            Term::and([cin.clone(), inr.clone(), Term::eq(c.clone(), i.clone())]),
                            Term::eq(tmp.clone(), t.clone()),
                        ));
                    }
                }
                let applies = Term::and([cin, inr.clone(), Term::ne(c.clone(), i.clone())]);
                let cb1: BTreeMap<VarId, Term> = [(cp.cell, t.clone())].into_iter().collect();
                let cb2: BTreeMap<VarId, Term> =
                    at2(cp.cell).map(|c2| (c2, t.clone())).into_iter().collect();
                let mut below = slot(read.ghost, &cells1, &i, &temp);
                below.extend(slot(sg.ghost, &cells2, &c, &cb2));
                cases.push((
                    Term::and([applies.clone(), Term::lt(i.clone(), c.clone())]),
                    below,
                ));
                let mut above = slot(read.ghost, &cells1, &c, &cb1);
                above.extend(slot(sg.ghost, &cells2, &i, &binds2));
                cases.push((
                    Term::and([applies.clone(), Term::lt(c.clone(), i.clone())]),
                    above,
                ));
                not_companion = Term::not(applies);
            }
            // Otherwise the state's ghost on the far side is kept: `(i, k2)` below `k1`,
            // `(k1, i)` above it.
            cases.push((
                Term::and([
                    not_companion.clone(),
                    inr.clone(),
                    Term::lt(i.clone(), k1.clone()),
                ]),
                slot(read.ghost, &cells1, &i, &temp),
            ));
            cases.push((
                Term::and([
                    not_companion,
                    inr.clone(),
                    Term::lt(k1.clone(), i.clone()),
                    Term::ne(i.clone(), k2.clone()),
                ]),
                slot(sg.ghost, &cells2, &i, &binds2),
            ));
        }
    }
    let ghosts: BTreeSet<VarId> = cfg.ghosts().into_iter().collect();
    let mut out = Vec::with_capacity(args.len());
    for (s, a) in slots.iter().zip(args) {
        let Place::Var(v) = s.what else {
            out.push(a.clone());
            continue;
        };
        let mut x = a.clone();
        for (when, moved) in cases.iter().rev() {
            let Some(val) = moved.get(&v) else {
                continue;
            };
            // A ghost's entry copy moves with it; a cell's entry copy is fresh.
            let y = match val {
                Some(t) if ghosts.contains(&v) || !s.entry => t.clone(),
                _ => enc.fresh("cell", Sort::Int)?,
            };
            x = Term::ite(when.clone(), y, x);
        }
        out.push(x);
    }
    Ok((out, cs))
}
