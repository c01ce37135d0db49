//! The [`InvariantMap`] of a converged tabulation of an abstraction P̂: the facts at each
//! loop head (over current values: the entry values are projected out), the summaries of
//! each recursive procedure (entry and exit values), and, with symbolic cells, the
//! ∀-statements that hold after each loop.

use super::{Formula, InvariantMap, Point, PointInvariant, Row, RowBound, Term, TermKind};
use crate::cfg::{Cfg, NodeKind};
use crate::diag::SourceFile;
use crate::domain::cur_dim;
use crate::engine::{PointKind, Points, Tabulation};
use crate::ids::{IndexVec, NodeId, VarId};
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
                        own,
                        TermKind::Cell {
                            array: phat.arrays[array].name.clone(),
                            index,
                        },
                    ),
                    VarKind::Ghost { .. } => {
                        let g = ghost_of(v);
                        let name = if users { ghosts[usize::from(g)].clone() } else { own };
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
                    name: if clash { format!("{name}#{i}") } else { name.clone() },
                    kind: kind.clone(),
                    entry: false,
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
            let l = key
                .values()
                .fold(BigInt::from(1), |acc, q| num_integer::Integer::lcm(&acc, &q.denom()));
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
    Names::raw(phat).conj(&Conj::from_constraints([c])).to_string()
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
        _ => format!("loop at line {}", line(file, phat, n)),
    }
}

fn line(file: &SourceFile, phat: &Cfg, n: NodeId) -> u32 {
    file.line_col(phat.nodes[n].span.start).line
}

/// The invariant map of a converged tabulation `tab` of the abstraction `phat` of the
/// program in `file`: with symbolic cells, the ∀-statements after the loops first; then
/// the invariant at each loop head (current values) and the summary of each recursive
/// procedure (entry and exit values), in node order. Disjuncts that read alike are kept
/// once.
pub fn invariant_map(file: &SourceFile, phat: &Cfg, tab: &Tabulation<Conj>) -> InvariantMap {
    let points = Points::of(phat);
    let names = Names::of(phat);
    let quantified = |f: Formula| {
        if names.ghosts.is_empty() {
            f
        } else {
            Formula::Forall(names.ghosts.clone(), Box::new(f))
        }
    };
    let mut out = after_loops(file, phat, &points, tab, &names);
    for (n, kind) in points.kind.iter_enumerated() {
        let (facts, point): (Vec<Conj>, Point) = match kind {
            PointKind::LoopHead => (
                tab.at_node[n]
                    .iter()
                    .map(|f| {
                        let c = &tab.fact(*f).fact;
                        let entry: Vec<Dim> =
                            c.dims().into_iter().filter(|d| d.0 % 2 == 0).collect();
                        c.project_out_within(&entry, &Deadline::none())
                    })
                    .collect(),
                Point::LoopHead {
                    node: n.0,
                    line: line(file, phat, n),
                },
            ),
            PointKind::RecExit => {
                let Some(p) = phat.nodes[n].proc else { continue };
                (
                    tab.summaries[p].iter().map(|(s, _)| s.clone()).collect(),
                    Point::Summary {
                        proc: phat.procs[p].name.clone(),
                    },
                )
            }
            _ => continue,
        };
        if facts.is_empty() {
            continue;
        }
        let mut disjuncts: Vec<Formula> = Vec::new();
        let mut texts: Vec<String> = Vec::new();
        for f in &facts {
            let d = names.conj(f);
            let t = d.to_string();
            if !texts.contains(&t) {
                texts.push(t);
                disjuncts.push(d);
            }
        }
        let formula = if disjuncts.len() == 1 {
            disjuncts.remove(0)
        } else {
            Formula::Or(disjuncts)
        };
        out.push(PointInvariant {
            at: point_name(file, phat, &points, n),
            point,
            formula: quantified(formula),
        });
    }
    InvariantMap { points: out }
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
    tab: &Tabulation<Conj>,
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
        out.push(PointInvariant {
            at: format!("after the {}", point_name(file, phat, points, n)),
            point: Point::AfterLoop {
                node: n.0,
                line: line(file, phat, n),
            },
            formula: Formula::Forall(names.ghosts.clone(), Box::new(body)),
        });
    }
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
fn statements(
    facts: &[Conj],
    parts: &[(Conj, Vec<Constraint>)],
    names: &Names,
) -> Vec<Formula> {
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
        if !kept.is_empty() {
            cands.push((k.clone(), kept));
        }
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
