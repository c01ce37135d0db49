//! The [`InvariantMap`] of a converged tabulation of an abstraction P̂: the facts at each
//! loop head (over current values: the entry values are projected out), the summaries of
//! each recursive procedure (entry and exit values), and, with symbolic cells, the
//! ∀-statements that hold after each loop.

use super::simplify;
use super::{Formula, InvariantMap, Point, PointInvariant, Row, RowBound, Term, TermKind};
use crate::cfg::{Cfg, NodeKind};
use crate::diag::SourceFile;
use crate::domain::{cur_dim, entry_dim, Fact};
use crate::engine::{PointKind, Points, Tabulation};
use crate::ids::{IndexVec, NodeId, ProcId, VarId};
use crate::limits::Deadline;
use crate::linear::{Conj, Constraint, Dim, LinExpr, Rel, Q};
use crate::sema::VarKind;
use num_bigint::BigInt;
use num_traits::{Signed, Zero};

/// The terms of an abstraction's variables, in the user's names: the ghost is `k` (or
/// `k0`, `k1`, ... when the program has a `k`) and the symbolic cell of array `a` is
/// `a[k]`; two ghosts are `k1` and `k2` (or `k1_0`, ...), with cells `a[k1]` and `a[k2]`.
pub(crate) struct Names {
    terms: IndexVec<VarId, Term>,
    /// The ghosts' names.
    ghosts: Vec<String>,
}

impl Names {
    /// The user's names: ghosts `k` (or `k1`, `k2`) and symbolic cells `a[k]`.
    pub(crate) fn of(phat: &Cfg) -> Names {
        Names::named(phat, true)
    }

    /// The abstraction's own names (`k#`, `a_k`), as its text prints them.
    pub(crate) fn raw(phat: &Cfg) -> Names {
        Names::named(phat, false)
    }

    fn named(phat: &Cfg, users: bool) -> Names {
        let ghost_vars = phat.ghosts();
        let taken = |n: &str| phat.vars.iter().any(|v| v.name == n);
        let unused = |base: &str, sep: &str| {
            std::iter::once(base.to_string())
                .chain((0..).map(|i| format!("{base}{sep}{i}")))
                .find(|n| !taken(n))
                .expect("an unused name")
        };
        let ghosts: Vec<String> = match ghost_vars[..] {
            [] => Vec::new(),
            [_, _] => vec![unused("k1", "_"), unused("k2", "_")],
            _ => vec![unused("k", "")],
        };
        // The cells at the second ghost come after it.
        let ghost_of = |v: VarId| u8::from(ghost_vars.len() == 2 && v >= ghost_vars[1]);
        let kinds: Vec<(String, TermKind)> = phat
            .vars
            .iter_enumerated()
            .map(|(v, info)| {
                let own = info.name.clone();
                match info.kind {
                    VarKind::Global => (own, TermKind::Var { scope: None }),
                    VarKind::Formal(p) | VarKind::Local(p) => (
                        own,
                        TermKind::Var {
                            scope: Some(phat.procs[p].name.clone()),
                        },
                    ),
                    VarKind::Temp(_) | VarKind::Ret | VarKind::ArraySize(_) => {
                        (own, TermKind::Internal)
                    }
                    VarKind::Cell { array, index, .. } => (
                        if users {
                            format!("{}[{index}]", phat.arrays[array].name)
                        } else {
                            own
                        },
                        TermKind::Cell {
                            array: phat.arrays[array].name.clone(),
                            index,
                        },
                    ),
                    VarKind::Ghost { .. } => {
                        let g = ghost_of(v);
                        let name = if users {
                            ghosts[usize::from(g)].clone()
                        } else {
                            own
                        };
                        (name, TermKind::Ghost { ghost: g })
                    }
                    VarKind::SymCell { array, .. } => {
                        let g = ghost_of(v);
                        let a = phat.arrays[array].name.clone();
                        let name = if users {
                            format!("{a}[{}]", ghosts[usize::from(g)])
                        } else {
                            own
                        };
                        (name, TermKind::SymCell { array: a, ghost: g })
                    }
                    VarKind::TermCell { array, term, .. } => {
                        let a = phat.arrays[array].name.clone();
                        let name = if users {
                            format!(
                                "{a}[{}]",
                                crate::abstraction::index_term(phat, &ghosts[0], &term)
                            )
                        } else {
                            own
                        };
                        (
                            name,
                            TermKind::TermCell {
                                array: a,
                                coef: term.coef,
                                offset: term.offset,
                                by: term.by.map(|(v, c)| (phat.vars[v].name.clone(), c)),
                            },
                        )
                    }
                }
            })
            .collect();
        // A name that several variables share gets the variable's number (`x#3`).
        let terms: Vec<Term> = kinds
            .iter()
            .enumerate()
            .map(|(i, (name, kind))| {
                let clash = kinds.iter().filter(|(n, _)| n == name).count() > 1;
                Term {
                    name: if clash {
                        format!("{name}#{i}")
                    } else {
                        name.clone()
                    },
                    kind: kind.clone(),
                    entry: false,
                    var: i as u32,
                }
            })
            .collect();
        Names {
            terms: IndexVec::from_raw(terms),
            ghosts,
        }
    }

    /// The term of dimension `d` of a fact: the current value of a variable (odd), or its
    /// value at the procedure's entry (even).
    fn term(&self, d: Dim) -> Term {
        let v = VarId(d.0 / 2);
        match self.terms.get(v) {
            Some(t) => Term {
                entry: d.0 % 2 == 0,
                ..t.clone()
            },
            None => Term {
                name: format!("d{}", d.0),
                kind: TermKind::Internal,
                entry: false,
                var: v.0,
            },
        }
    }

    /// A conjunction of constraints as a formula: one row per linear form, with integer
    /// coefficients; `false` if it is trivially unsatisfiable.
    pub(crate) fn conj(&self, c: &Conj) -> Formula {
        if c.is_trivially_false() {
            return Formula::falsity();
        }
        let mut rows = Vec::new();
        for (key, r) in c.rows() {
            if r.lo.is_none() && r.hi.is_none() {
                continue;
            }
            // Scale to integer coefficients.
            let l = key.values().fold(BigInt::from(1), |acc, q| {
                num_integer::Integer::lcm(&acc, &q.denom())
            });
            let lq = Q::from_integer(l);
            rows.push(Formula::Row(Row {
                terms: key
                    .iter()
                    .map(|(d, q)| ((q * &lq).to_integer(), self.term(*d)))
                    .collect(),
                lo: r.lo.as_ref().map(|b| RowBound {
                    value: (&b.value * &lq).to_big(),
                    strict: b.strict,
                }),
                hi: r.hi.as_ref().map(|b| RowBound {
                    value: (&b.value * &lq).to_big(),
                    strict: b.strict,
                }),
            }));
        }
        Formula::And(rows)
    }
}

/// One constraint of an abstraction's facts, in the program's names.
pub fn constraint_text(phat: &Cfg, c: &Constraint) -> String {
    Names::raw(phat)
        .conj(&Conj::from_constraints([c]))
        .to_string()
}

/// A widening point as the user reads it: `loop at line 7`, `entry of f`, `summary of f`.
pub fn point_name(file: &SourceFile, phat: &Cfg, points: &Points, n: NodeId) -> String {
    let proc = phat.nodes[n]
        .proc
        .map(|p| phat.procs[p].name.clone())
        .unwrap_or_default();
    match points.kind[n] {
        PointKind::RecEntry => format!("entry of {proc}"),
        PointKind::RecExit => format!("summary of {proc}"),
        _ if phat.nodes[n].kind == NodeKind::Exit => format!("summary of {proc}"),
        _ => format!("loop at line {}", line(file, phat, n)),
    }
}

fn line(file: &SourceFile, phat: &Cfg, n: NodeId) -> u32 {
    file.line_col(phat.nodes[n].span.start).line
}

/// The procedures whose calls the certificate check replaces by their summary: those
/// other than `main` that are recursive or have a loop (a call of any other procedure is
/// followed through its body).
pub(crate) fn summarized(phat: &Cfg, points: &Points) -> Vec<ProcId> {
    phat.procs
        .iter_enumerated()
        .filter(|(p, pr)| {
            *p != phat.main
                && !pr.callers.is_empty()
                && (points.kind[pr.entry] == PointKind::RecEntry
                    || phat.nodes.iter_enumerated().any(|(n, node)| {
                        node.proc == Some(*p) && points.kind[n] == PointKind::LoopHead
                    }))
        })
        .map(|(p, _)| p)
        .collect()
}

/// The dimensions no invariant shows: temporaries and the hidden sizes of arrays never,
/// `$ret` except in summaries (where it is the value returned).
fn hidden_dims(phat: &Cfg, keep_ret: bool) -> Vec<Dim> {
    phat.vars
        .iter_enumerated()
        .filter(|(_, info)| match info.kind {
            VarKind::Temp(_) => true,
            VarKind::Ret => !keep_ret,
            _ => false,
        })
        .flat_map(|(v, _)| [entry_dim(v), cur_dim(v)])
        .collect()
}

/// The invariant map of a converged tabulation `tab` of the abstraction `phat` of the
/// program in `file`: with symbolic cells, the ∀-statements after the loops first; then
/// the invariant at each loop head and the summary of each procedure with loops or
/// recursion, in node order; then the entries of those procedures. A loop head of `main`
/// states current values; one of a summarized procedure relates them to the values at
/// the procedure's entry (`x₀`), as its summary does. Each formula is made readable
/// ([`simplify::readable`]).
pub fn invariant_map(file: &SourceFile, phat: &Cfg, tab: &Tabulation<Fact>) -> InvariantMap {
    let points = Points::of(phat);
    let names = Names::of(phat);
    let summarized = summarized(phat, &points);
    let quantified = |f: Formula| {
        if names.ghosts.is_empty() {
            f
        } else {
            Formula::Forall(names.ghosts.clone(), Box::new(f))
        }
    };
    // The entry values a summarized procedure's facts keep: its globals and formals.
    let entry_of = |p: ProcId| -> Vec<Dim> {
        phat.globals
            .iter()
            .chain(&phat.procs[p].formals)
            .map(|v| entry_dim(*v))
            .collect()
    };
    let all_entries = |c: &Conj, keep: &[Dim]| -> Vec<Dim> {
        c.dims()
            .into_iter()
            .filter(|d| d.0 % 2 == 0 && !keep.contains(d))
            .collect()
    };
    // `$ret` matters where a summary may relate it: in the summarized procedures, and in
    // a procedure that calls any other (whose summary or entry condition may name it).
    let hidden = hidden_dims(phat, false);
    let hidden_keep_ret = hidden_dims(phat, true);
    let keeps_ret = |p: Option<ProcId>| {
        p.is_some_and(|p| {
            summarized.contains(&p)
                || phat
                    .nodes
                    .iter()
                    .any(|x| x.proc == Some(p) && matches!(x.kind, NodeKind::Call { .. }))
        })
    };
    let hidden_at = |p: Option<ProcId>| -> &[Dim] {
        if keeps_ret(p) {
            &hidden_keep_ret
        } else {
            &hidden
        }
    };
    let mut out = after_loops(file, phat, &points, tab, &names);
    let mut entries = Vec::new();
    let disjunction =
        |ds: Vec<Conj>| -> Formula { quantified(or_distinct(ds.iter().map(|f| names.conj(f)))) };
    let always = |c: &Constraint| type_bound(phat, c);
    // Facts with congruences are shown one by one (a merge of two would need their
    // congruences joined): each its readable constraints and its congruences on the
    // dimensions it shows.
    let with_congs = |facts: &[Fact], hidden: &[Dim]| -> Formula {
        let mut disjuncts: Vec<Formula> = Vec::new();
        for f in facts {
            for d in simplify::readable(std::slice::from_ref(&f.conj), hidden, &always) {
                let mut parts = match names.conj(&d) {
                    Formula::And(rows) => rows,
                    other => vec![other],
                };
                for (x, c) in &f.congs {
                    if !hidden.contains(x) {
                        parts.push(Formula::Cong(names.term(*x), c.r.clone(), c.m.clone()));
                    }
                }
                disjuncts.push(Formula::And(parts));
            }
        }
        quantified(or_distinct(disjuncts))
    };
    let formula_of = |facts: Vec<Fact>, hidden: &[Dim]| -> Formula {
        if facts.iter().any(|f| !f.congs.is_empty()) {
            return with_congs(&facts, hidden);
        }
        let conjs: Vec<Conj> = facts.into_iter().map(|f| f.conj).collect();
        disjunction(simplify::readable(&conjs, hidden, &always))
    };
    // A fact without the dimensions `drop`, congruences included.
    let without = |f: &Fact, drop: &[Dim]| -> Fact {
        Fact {
            conj: f.conj.project_out_within(drop, &Deadline::none()),
            congs: f
                .congs
                .iter()
                .filter(|(d, _)| !drop.contains(d))
                .map(|(d, c)| (*d, c.clone()))
                .collect(),
        }
    };
    // A fact at a procedure's entry with each global and formal equal to its entry value:
    // there the two are one value, and a fact may constrain only the entry value (a
    // parameter the body never reads is projected out as current value, not as entry
    // value); the entry condition, stated over current values, keeps the constraint.
    let at_entry = |f: &Fact, p: ProcId| -> Fact {
        let mut conj = f.conj.clone();
        for v in phat.globals.iter().chain(&phat.procs[p].formals) {
            conj.add(&Constraint::eq(
                &LinExpr::var(cur_dim(*v)),
                &LinExpr::var(entry_dim(*v)),
            ));
        }
        Fact {
            conj,
            congs: f.congs.clone(),
        }
    };
    for (n, kind) in points.kind.iter_enumerated() {
        let proc = phat.nodes[n].proc;
        let (facts, point, hidden): (Vec<Fact>, Point, &[Dim]) = match kind {
            PointKind::LoopHead => {
                let keep = match proc {
                    Some(p) if summarized.contains(&p) => entry_of(p),
                    _ => Vec::new(),
                };
                (
                    tab.at_node[n]
                        .iter()
                        .map(|f| {
                            let c = &tab.fact(*f).fact;
                            without(c, &all_entries(c, &keep))
                        })
                        .collect(),
                    Point::LoopHead {
                        node: n.0,
                        line: line(file, phat, n),
                    },
                    hidden_at(proc),
                )
            }
            _ => {
                let Some(p) = proc.filter(|p| summarized.contains(p) && phat.procs[*p].exit == n)
                else {
                    continue;
                };
                let name = phat.procs[p].name.clone();
                let entry = phat.procs[p].entry;
                entries.push(PointInvariant::new(
                    format!("entry of {name}"),
                    Point::Entry { proc: name.clone() },
                    formula_of(
                        tab.at_node[entry]
                            .iter()
                            .map(|f| {
                                let c = at_entry(&tab.fact(*f).fact, p);
                                without(&c, &all_entries(&c.conj, &[]))
                            })
                            .collect(),
                        &hidden_keep_ret,
                    ),
                ));
                (
                    tab.summaries[p].iter().map(|(s, _)| s.clone()).collect(),
                    Point::Summary { proc: name.clone() },
                    &hidden_keep_ret,
                )
            }
        };
        if facts.iter().any(|f| !f.congs.is_empty()) {
            let formula = with_congs(&facts, hidden);
            out.push(PointInvariant::new(
                point_name(file, phat, &points, n),
                point,
                formula,
            ));
            continue;
        }
        let conjs: Vec<Conj> = facts.into_iter().map(|f| f.conj).collect();
        let ds = simplify::readable(&conjs, hidden, &always);
        let coarse = match point {
            Point::LoopHead { .. } => {
                simplify::coarse(&ds, &partition_atoms(phat, n)).map(&disjunction)
            }
            _ => None,
        };
        out.push(PointInvariant {
            coarse,
            ..PointInvariant::new(point_name(file, phat, &points, n), point, disjunction(ds))
        });
    }
    out.extend(entries);
    InvariantMap {
        points: out,
        vars: phat.vars.iter().cloned().collect(),
    }
}

/// With symbolic cells, the ∀-property of the cells after each loop, in the form
/// `∀k. 0 ≤ k ≤ 999 → a[k] = 0`. At the loop's exit, each fact (over current values,
/// temporaries and `$ret` projected out) splits into its constraints on the ghost `K`
/// (without cells), on the cells `C`, and the rest. The facts hold for every ghost value
/// in range, so `∀k. K → c` holds for each `c` of `C` that every fact, within `K`,
/// implies (an exact test); only those are stated, at most three per loop.
fn after_loops(
    file: &SourceFile,
    phat: &Cfg,
    points: &Points,
    tab: &Tabulation<Fact>,
    names: &Names,
) -> Vec<PointInvariant> {
    let mut out = Vec::new();
    let kds: Vec<Dim> = phat.ghosts().into_iter().map(cur_dim).collect();
    if kds.is_empty() {
        return out;
    }
    let dims_of = |keep: &dyn Fn(&VarKind) -> bool| -> Vec<Dim> {
        phat.vars
            .iter_enumerated()
            .filter(|(_, info)| keep(&info.kind))
            .map(|(v, _)| cur_dim(v))
            .collect()
    };
    let cells = dims_of(&|k| matches!(k, VarKind::SymCell { .. }));
    let hidden = dims_of(&|k| matches!(k, VarKind::Ret | VarKind::Temp(_)));
    for (n, kind) in points.kind.iter_enumerated() {
        if *kind != PointKind::LoopHead {
            continue;
        }
        let Some(exit) = loop_exit(phat, n) else {
            continue;
        };
        let mut facts: Vec<Conj> = Vec::new();
        let mut parts: Vec<(Conj, Vec<Constraint>)> = Vec::new();
        for f in &tab.at_node[exit] {
            let c = &tab.fact(*f).fact;
            let drop: Vec<Dim> = c
                .dims()
                .into_iter()
                .filter(|d| d.0 % 2 == 0 || hidden.contains(d))
                .collect();
            let c = kds
                .iter()
                .fold(c.project_out_within(&drop, &Deadline::none()), |c, kd| {
                    ghost_defined_cells(c, *kd, &cells)
                });
            let (mut k, mut cell) = (Conj::top(), Vec::new());
            for x in c.constraints() {
                let ds: Vec<Dim> = x.expr.coeffs().keys().copied().collect();
                if ds.iter().any(|d| cells.contains(d)) {
                    cell.push(x);
                } else if ds.iter().any(|d| kds.contains(d)) {
                    k.add(&x);
                }
            }
            if !cell.is_empty() {
                parts.push((k, cell));
            }
            facts.push(c);
        }
        let stated = statements(&facts, &parts, names);
        if stated.is_empty() {
            continue;
        }
        let body = if stated.len() == 1 {
            stated.into_iter().next().expect("one statement")
        } else {
            Formula::And(stated)
        };
        out.push(PointInvariant::new(
            format!("after the {}", point_name(file, phat, points, n)),
            Point::AfterLoop {
                node: n.0,
                line: line(file, phat, n),
            },
            Formula::Forall(names.ghosts.clone(), Box::new(body)),
        ));
    }
    out
}

/// Whether `c` is one end of the C type's range of the variable it bounds (`x ≤ 2³¹-1`):
/// true of every state, so not worth showing.
fn type_bound(phat: &Cfg, c: &Constraint) -> bool {
    let mut ds = c.expr.coeffs().iter();
    let (Some((d, a)), None) = (ds.next(), ds.next()) else {
        return false;
    };
    let Some(info) = phat.vars.get(VarId(d.0 / 2)) else {
        return false;
    };
    let crate::sema::Range::Int(w) = info.range else {
        return false;
    };
    if c.rel == Rel::Eq {
        return false;
    }
    // a·x + k ≤ 0 (or < 0): x ≤ -k/a for a > 0, x ≥ -k/a for a < 0.
    let end = -c.expr.constant_term() / a;
    let (lo, hi) = (Q::from_integer(w.lo()), Q::from_integer(w.hi()));
    if a.is_positive() {
        end >= hi
    } else {
        end <= lo
    }
}

/// The atoms that partition a loop head's facts for [`simplify::coarse`]: the loop's test
/// and the conditions of the branches of its procedure that lead to the error node, each
/// when it is one linear constraint over current values (at most three).
fn partition_atoms(phat: &Cfg, head: NodeId) -> Vec<Constraint> {
    let base = 2 * phat.vars.len() as u32;
    let atom = |cond: &crate::sema::Expr| -> Option<Constraint> {
        // One disjunct is wanted: a condition with more is not built (a read among
        // many cells is a chain of `?:` with exponentially many cases).
        if crate::domain::encode::guard_size(cond, true) > 1 {
            return None;
        }
        let mut fresh = crate::domain::encode::Fresh::new(base);
        match crate::domain::encode::guard(cond, true, &cur_dim, &mut fresh).as_slice() {
            [conj] => match conj.as_slice() {
                [c] if c.rel != Rel::Eq && c.expr.coeffs().keys().all(|x| x.0 < base) => {
                    Some(c.clone())
                }
                _ => None,
            },
            _ => None,
        }
    };
    let mut out: Vec<Constraint> = Vec::new();
    if let NodeKind::Skip { next: test } = phat.nodes[head].kind {
        if let NodeKind::Branch { cond, .. } = &phat.nodes[test].kind {
            out.extend(atom(cond));
        }
    }
    let proc = phat.nodes[head].proc;
    for node in phat.nodes.iter() {
        if node.proc != proc {
            continue;
        }
        if let NodeKind::Branch { cond, then, els } = &node.kind {
            if *els == crate::cfg::ERROR_NODE || *then == crate::cfg::ERROR_NODE {
                if let Some(c) = atom(cond) {
                    if !out.contains(&c) {
                        out.push(c);
                    }
                }
            }
        }
    }
    out.truncate(3);
    out
}

/// The loop's exit: the false branch of the test right after its head.
fn loop_exit(phat: &Cfg, head: NodeId) -> Option<NodeId> {
    let NodeKind::Skip { next: test } = phat.nodes[head].kind else {
        return None;
    };
    match phat.nodes[test].kind {
        NodeKind::Branch { els, .. } => Some(els),
        _ => None,
    }
}

/// The statements `K → C` of the facts after a loop: for each fact's split `(K, C)`, the
/// constraints of `C` that every fact within `K` implies; a statement whose range lies
/// within another's and says no more is left out, and at most three are kept.
fn statements(facts: &[Conj], parts: &[(Conj, Vec<Constraint>)], names: &Names) -> Vec<Formula> {
    let mut cands: Vec<(Conj, Vec<Constraint>)> = Vec::new();
    for (k, cell) in parts {
        let within: Vec<Conj> = facts
            .iter()
            .map(|f| f.and(k))
            .filter(|f| !f.is_empty())
            .collect();
        // (The bounds of a C type, `-2147483648 ≤ a[k]`, say nothing about the loop.)
        let type_bound =
            |c: &Constraint| c.expr.constant_term().abs() >= Q::from_integer(i32::MAX.into());
        let kept: Vec<Constraint> = cell
            .iter()
            .filter(|c| !type_bound(c) && within.iter().all(|f| f.implies(c)))
            .cloned()
            .collect();
        if kept.is_empty() {
            continue;
        }
        // Parts that say the same over ranges that meet state it once over their union
        // (`k = 0 → C` and `1 ≤ k ≤ 999 → C` as `0 ≤ k ≤ 999 → C`).
        let mut k = k.clone();
        while let Some((j, union)) = cands.iter().enumerate().find_map(|(j, (k2, kept2))| {
            let same = kept2.len() == kept.len() && kept2.iter().all(|c| kept.contains(c));
            same.then(|| interval_union(&k, k2))
                .flatten()
                .map(|u| (j, u))
        }) {
            cands.remove(j);
            k = union;
        }
        cands.push((k, kept));
    }
    let mut stated: Vec<Formula> = Vec::new();
    let mut texts: Vec<String> = Vec::new();
    for (i, (k, kept)) in cands.iter().enumerate() {
        let subsumed = cands.iter().enumerate().any(|(j, (k2, kept2))| {
            j != i
                && k.implies_all(&k2.constraints())
                && kept.iter().all(|c| kept2.contains(c))
                && (!k2.implies_all(&k.constraints()) || j < i)
        });
        if subsumed {
            continue;
        }
        let statement = Formula::Implies(
            Box::new(names.conj(k)),
            Box::new(names.conj(&Conj::from_constraints(kept))),
        );
        let text = statement.to_string();
        if !texts.contains(&text) && stated.len() < 3 {
            texts.push(text);
            stated.push(statement);
        }
    }
    stated
}

/// A bound linear form with its integer interval (either end may be open).
type Interval = (std::collections::BTreeMap<Dim, Q>, Option<Q>, Option<Q>);

/// The union of two ranges over the integers, if it is one range: both bound the same
/// linear form (and nothing else), and their intervals overlap or meet.
fn interval_union(a: &Conj, b: &Conj) -> Option<Conj> {
    let one = |c: &Conj| -> Option<Interval> {
        let mut rows = c.rows();
        let (form, range) = rows.next()?;
        // (Integer ends: the form takes integer values, and "meet" counts integers.)
        let ends_ok = range
            .lo
            .iter()
            .chain(&range.hi)
            .all(|x| !x.strict && x.value.is_integer());
        if rows.next().is_some() || !ends_ok {
            return None;
        }
        let lo = range.lo.as_ref().map(|x| x.value.clone());
        Some((form.clone(), lo, range.hi.as_ref().map(|x| x.value.clone())))
    };
    let ((fa, la, ha), (fb, lb, hb)) = (one(a)?, one(b)?);
    if fa != fb {
        return None;
    }
    // They meet when each starts at most one past the other's end.
    let one_past = |lo: &Option<Q>, hi: &Option<Q>| match (lo, hi) {
        (Some(l), Some(h)) => *l <= h.clone() + Q::from_integer(1.into()),
        _ => true,
    };
    if !one_past(&la, &hb) || !one_past(&lb, &ha) {
        return None;
    }
    let lo = la.zip(lb).map(|(x, y)| x.min(y));
    let hi = ha.zip(hb).map(|(x, y)| x.max(y));
    let form = LinExpr::from_parts(fa, Q::from_integer(0.into()));
    let mut out = Vec::new();
    if let Some(l) = lo {
        out.push(Constraint::ge(&form, &LinExpr::constant(l)));
    }
    if let Some(h) = hi {
        out.push(Constraint::le(&form, &LinExpr::constant(h)));
    }
    Some(Conj::from_constraints(&out))
}

/// `c` with each cell that an equality defines in terms of the ghost (`a_k = k`, and no
/// other cell) replaced by its definition in the other constraints, the equality kept: an
/// equivalent fact whose bounds on the ghost no longer hide behind the cell
/// (`a_k ≤ n - 1` becomes `k ≤ n - 1`), so that they state the range of `a[k] = k`.
fn ghost_defined_cells(mut c: Conj, kd: Dim, cells: &[Dim]) -> Conj {
    let mut defs: Vec<Constraint> = Vec::new();
    for x in c.constraints() {
        if x.rel != Rel::Eq || x.expr.coeff(kd).is_zero() {
            continue;
        }
        let mut own = x.expr.coeffs().keys().filter(|d| cells.contains(d));
        let (Some(&cd), None) = (own.next(), own.next()) else {
            continue;
        };
        if defs.iter().any(|y| !y.expr.coeff(cd).is_zero()) {
            continue;
        }
        // a·cd + rest = 0  →  cd = -rest / a
        let a = x.expr.coeff(cd);
        let rest = x.expr.clone() - LinExpr::var(cd).scale(&a);
        c = c.substitute(cd, &rest.scale(&(-a.recip())));
        defs.push(x);
    }
    for x in &defs {
        c.add(x);
    }
    c
}

/// The disjunction of `ds` without repeats (compared by their text); a single disjunct
/// stands alone.
fn or_distinct(ds: impl IntoIterator<Item = Formula>) -> Formula {
    let mut disjuncts: Vec<Formula> = Vec::new();
    let mut texts: Vec<String> = Vec::new();
    for d in ds {
        let t = d.to_string();
        if !texts.contains(&t) {
            texts.push(t);
            disjuncts.push(d);
        }
    }
    if disjuncts.len() == 1 {
        disjuncts.remove(0)
    } else {
        Formula::Or(disjuncts)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranges_that_meet_over_the_integers_are_one() {
        let k = LinExpr::var(Dim(0));
        let range = |lo: i64, hi: i64| {
            Conj::from_constraints(&[
                Constraint::ge(&k, &LinExpr::int(lo)),
                Constraint::le(&k, &LinExpr::int(hi)),
            ])
        };
        assert_eq!(
            interval_union(&range(0, 0), &range(1, 999)),
            Some(range(0, 999))
        );
        assert_eq!(
            interval_union(&range(3, 9), &range(0, 5)),
            Some(range(0, 9))
        );
        // A gap of one integer (k = 1) is no union.
        assert_eq!(interval_union(&range(0, 0), &range(2, 999)), None);
        // Another form, or more than one bound form: not an interval of one form.
        let other =
            Conj::from_constraints(&[Constraint::le(&LinExpr::var(Dim(2)), &LinExpr::int(4))]);
        assert_eq!(interval_union(&range(0, 3), &other), None);
        let two = range(0, 3).and(&other);
        assert_eq!(interval_union(&two, &range(4, 5)), None);
        // An open end stays open.
        let from = |lo: i64| Conj::from_constraints(&[Constraint::ge(&k, &LinExpr::int(lo))]);
        assert_eq!(interval_union(&from(5), &range(0, 4)), Some(from(0)));
    }
}
