//! Array abstraction (paper §2): from a program P and a [`Precision`] (the tracked cells of
//! each array), build the generalised linear program P̂ without arrays. A read `a[e]`
//! becomes `(e == k1 ? a_k1 : (e == k2 ? a_k2 : ... u))`; a write `a[e1] = e2` becomes the
//! parallel assignment `a_k1, ..., a_kn = (e1 == k1 ? e2 : a_k1), ...` (a skip when n = 0).
//! Cells are new scalars of the array's scope. Node ids are preserved, so a trace of P̂ is a
//! trace of P.
//!
//! **Symbolic cells** (after Monniaux–Gonnord's cell morphing). Arrays can
//! also get a cell `a_k` at a *ghost* index `k#`: a global that is never assigned and,
//! at the start, any index in range of one of them (the domain's initial fact, see
//! [`crate::domain::DlcDomain`]). One ghost is shared by every array that has a symbolic
//! cell, so that a copy `b[i] = a[i]` relates `a_k` and `b_k`. A write `a[i] = v` becomes
//! `a_k = (0 ≤ i < size && i == k ? v : a_k)`; an initialisation gives `a_k` the value of
//! cell `k` (arbitrary, or the initialiser's case split over `k`). A read `a[i]` becomes
//! `(0 ≤ i < size ? (i == k ? a_k : inst) : u)`, where `inst` is a temporary of the node,
//! for the node's first such read and the reads at the same index (further ones read
//! `u`), recorded in [`Cfg::inst_reads`]. The engine constrains the temporaries with
//! Monniaux–Gonnord's read rule: it pairs a fact `f` at the node with every fact `g`
//! there, and conjoins `g` with `k := i`, each read cell `a_k := inst`, and the other
//! cells at the ghost and the cells' entry copies fresh.
//!
//! Why this over-approximates P: read P̂'s states as `(s, k, a_k, b_k, ...)` with
//! `a_k = s.a[k]` for every array in range at `k`. For a run of P and *every* `k` in the
//! ghost's range, the run of P̂ with that ghost tracks `a[k]` exactly for each array whose
//! range holds `k` (a write changes `a_k` exactly when it writes cell `k`, an out-of-range
//! access never does; for an array out of range at `k`, `a_k` is never read, since every
//! read tests the range first). So the union of the facts at a node holds
//! `(s, k, s.a[k], s.b[k], ...)` for every `k`, with the same `s`, entry copies included.
//! A read of cell `i ≠ k`, in range of the first read array, thus finds some fact `g`
//! with `(s, i, s.a[i], s.b[i], ...) ∈ g`: conjoining `g` at `k := i` keeps the true
//! values of the temporaries of the reads at `i`. The pairing is redone whenever a fact
//! arrives at the node, so at convergence every pair has been applied. A read out of
//! range is `u`, as in P, and out of the first array's range every temporary is free.
//!
//! **A second ghost** `k2` (sortedness, after the Horn-clause paper's two distinguished
//! cells) comes when one ghost keeps failing: every symbolic array gets a cell `a_k2` too,
//! `k < k2` from the start, and writes and initialisations update both cells alike. The
//! argument above holds for every pair `p1 < p2` in the ghosts' range: the union of the
//! facts at a node holds `(s, p1, p2, s.a[p1], s.a[p2], ...)`, and a cell at a ghost out of
//! an array's range depends only on the run and that ghost (it is never written). An
//! instantiated read is then its temporary alone, `(0 ≤ i < size ? inst : u)`, and the
//! engine's instantiation ([`crate::cfg::SecondGhost`]) covers every state: at `i == k1`
//! (or `k2`) `inst` is the state's own cell; otherwise a partner at a pair made of `i`
//! and an index whose cell the state knows: the state's ghost on the far side (`(i, k2)`
//! for `i < k1`, `(k1, i)` for `i > k1`, sharing that ghost's cells), or the index `c` of
//! a read `t = b[c]` hoisted out of the same node (`(i, c)` or `(c, i)`, `b`'s cell there
//! bound to `t`). The hoisted read itself is then not instantiated (its value reaches
//! the node through that binding).
//!
//! **Cells at index terms** of the (first) ghost, `b_t` for `t(k) = coef·k + offset`
//! (`b_{2k+1}`, `b_{999-k}`): a write `b[i] = v` becomes `b_t = (0 ≤ i < size && i == t(k) ?
//! v : b_t)`, a read `b[i]` is `b_t` when `0 ≤ i < size && i == t(k)` (else as before),
//! and an initialisation gives `b_t` the value of cell `t(k)`. Read the states as
//! `(s, k, a_k, b_k, b_t, ...)` with also `b_t = s.b[t(k)]` when `t(k)` is in `b`'s range:
//! the argument above carries over, since a write changes `b_t` exactly when it writes
//! cell `t(k)`, and `b_t` out of range is never read. In the read rule a partner taken at
//! `k := i` holds in `b_t` the cell `t(i)` of the same run, not of the state's `t(k)`: it
//! becomes fresh, as the other cells at the ghost, but where a read `t' = b[c]` was hoisted
//! out of the node and `c` is in range and equal to `t(i)`, that cell is `t'`, and the
//! partner's `b_t` is bound to it ([`crate::cfg::TermBind`]; the cases where `c` is out
//! of range or differs from `t(i)` leave it fresh, so every state keeps its pairing).

use crate::cfg::{Cfg, NodeKind};
use crate::ids::{ArrayId, NodeId, VarId};
use crate::sema::{ArraySize, CmpOp, Expr, IndexTerm, Range, VarInfo, VarKind};
use num_bigint::BigInt;
use std::collections::{BTreeMap, BTreeSet};

/// The tracked cells of each array.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Precision {
    cells: BTreeMap<ArrayId, BTreeSet<i64>>,
    /// Arrays with a symbolic cell `a_k` at a ghost index `k`.
    sym: BTreeSet<ArrayId>,
    /// Whether they also get a second ghost `k2 > k` with cells `a_k2` (relations between
    /// two cells, as sortedness).
    second: bool,
    /// Cells at index terms `coef·k + offset` of the ghost (`b_{2k+1}`, `a_{n-1-k}`), of
    /// arrays with a symbolic cell.
    terms: BTreeSet<(ArrayId, IndexTerm)>,
    /// Whether P̂ keeps the bounds guards ([`Cfg::bounds_guards`], `assume(0 <= e < n)`
    /// before each access under `--array-bounds undefined`). Without them (P̂0) the
    /// guards are `skip` (but those a reused read rests on, [`Cfg::reuse_guards`]): P̂
    /// then over-approximates the program as if those accesses were under EUREKA's rule
    /// (reads outside are `u`), and a proof assumes no such access in bounds. They come
    /// back once a spurious trace is infeasible by a guard.
    guards: bool,
}

impl Precision {
    /// No cells: P̂0.
    pub fn empty() -> Precision {
        Precision::default()
    }
    /// Track cell `k` of `a`; returns whether it is new.
    pub fn add(&mut self, a: ArrayId, k: i64) -> bool {
        self.cells.entry(a).or_default().insert(k)
    }
    /// The number of constant cells of `a`.
    pub fn cells_of(&self, a: ArrayId) -> usize {
        self.cells.get(&a).map_or(0, |s| s.len())
    }
    /// Stop tracking the constant cells of `a` (its symbolic cell covers them).
    pub fn drop_cells(&mut self, a: ArrayId) {
        self.cells.remove(&a);
    }
    /// Whether `a` has a symbolic cell.
    pub fn is_symbolic(&self, a: ArrayId) -> bool {
        self.sym.contains(&a)
    }
    /// Give `a` a symbolic cell; returns whether it is new.
    pub fn add_symbolic(&mut self, a: ArrayId) -> bool {
        self.sym.insert(a)
    }
    /// Give the arrays with a symbolic cell a second ghost; returns whether it is new.
    pub fn add_second_ghost(&mut self) -> bool {
        !std::mem::replace(&mut self.second, true)
    }
    /// Track the cell of `a` at the index term `t` of the ghost (`a` has a symbolic
    /// cell); returns whether it is new.
    pub fn add_term(&mut self, a: ArrayId, t: IndexTerm) -> bool {
        self.sym.contains(&a) && !t.is_ghost() && self.terms.insert((a, t))
    }
    /// The cells at index terms of the ghost.
    pub fn terms(&self) -> impl Iterator<Item = (ArrayId, IndexTerm)> + '_ {
        self.terms.iter().copied()
    }
    /// Keep the bounds guards in P̂; returns whether they were not kept before.
    pub fn keep_bounds_guards(&mut self) -> bool {
        !std::mem::replace(&mut self.guards, true)
    }
    /// Whether P̂ keeps the bounds guards.
    pub fn keeps_bounds_guards(&self) -> bool {
        self.guards
    }
    /// Whether the symbolic cells have a second ghost.
    pub fn has_second_ghost(&self) -> bool {
        self.second
    }
    /// The arrays with a symbolic cell.
    pub fn symbolic(&self) -> impl Iterator<Item = ArrayId> + '_ {
        self.sym.iter().copied()
    }
    /// The names of the arrays with a symbolic cell, for reports.
    pub fn symbolic_by_name(&self, cfg: &Cfg) -> Vec<String> {
        self.sym
            .iter()
            .map(|a| cfg.arrays[*a].name.clone())
            .collect()
    }
    /// The cells at index terms, for reports (`b[2k+1]`).
    pub fn terms_by_name(&self, cfg: &Cfg) -> Vec<String> {
        self.terms
            .iter()
            .map(|&(a, t)| term_cell_name(cfg, a, &t))
            .collect()
    }
    /// All `(array, cell)` pairs.
    pub fn iter(&self) -> impl Iterator<Item = (ArrayId, i64)> + '_ {
        self.cells
            .iter()
            .flat_map(|(a, ks)| ks.iter().map(move |k| (*a, *k)))
    }
    /// Number of tracked cells.
    pub fn len(&self) -> usize {
        self.cells.values().map(|s| s.len()).sum()
    }
    /// Whether no cell is tracked, constant or symbolic.
    pub fn is_empty(&self) -> bool {
        self.len() == 0 && self.sym.is_empty()
    }
    /// The cells by array name, for reports (`{"a": [1]}`).
    pub fn by_name(&self, cfg: &Cfg) -> BTreeMap<String, Vec<i64>> {
        let mut out: BTreeMap<String, Vec<i64>> = BTreeMap::new();
        for (a, k) in self.iter() {
            out.entry(cfg.arrays[a].name.clone()).or_default().push(k);
        }
        out
    }
}

/// The index term `t` of the ghost `k` as the user reads it (`2k+1`, `99999-k`, `n-1-k`).
pub fn index_term(cfg: &Cfg, k: &str, t: &IndexTerm) -> String {
    t.show(k, &|v| cfg.vars[v].name.clone())
}

/// The cell of `a` at the index term `t` as the user reads it (`b[2k+1]`).
pub fn term_cell_name(cfg: &Cfg, a: ArrayId, t: &IndexTerm) -> String {
    format!("{}[{}]", cfg.arrays[a].name, index_term(cfg, "k", t))
}

/// Build P̂ for `cfg` at `precision`. The result has no array reads, writes or inits.
pub fn abstract_program(cfg: &Cfg, precision: &Precision) -> Cfg {
    let mut out = cfg.clone();
    let cell_var = add_cells(cfg, precision, &mut out);
    let sym = add_symbolic_cells(cfg, precision, &mut out);
    let cells_of = |a: ArrayId| -> Vec<(i64, VarId)> {
        cell_var
            .range((a, i64::MIN)..=(a, i64::MAX))
            .map(|((_, k), v)| (*k, *v))
            .collect()
    };
    let mut ab = Abstractor {
        cfg,
        cells_of: &cells_of,
        sym: &sym,
        sym2: BTreeMap::new(),
        terms: BTreeMap::new(),
        term_companions: BTreeMap::new(),
        fold: !precision.is_empty(),
        inst: std::cell::RefCell::new(InstSlot::default()),
    };
    let node_ids: Vec<NodeId> = out.nodes.indices().collect();
    let companions = companions(cfg, precision, &sym);
    let mut node_temps = ab.add_inst_temps(&mut out, &node_ids, &companions);
    ab.sym2 = add_second_ghost(cfg, precision, &mut out, &sym);
    ab.terms = add_term_cells(cfg, precision, &mut out, &sym);
    if !ab.terms.is_empty() {
        ab.term_companions = companion_reads(cfg, &|a| ab.terms.contains_key(&a), true);
    }
    for id in node_ids {
        let temps = node_temps.remove(&id).unwrap_or_default();
        *ab.inst.borrow_mut() = InstSlot { temps, read: None };
        let node = &mut out.nodes[id];
        let kind = std::mem::replace(&mut node.kind, NodeKind::Error);
        node.kind = ab.node(kind);
        if ab.fold {
            fold_node(&mut node.kind);
        }
        if let Some(r) = ab.take_inst_read(id, &companions) {
            let r = ab.bind_term(id, r);
            out.inst_reads.insert(id, r);
        }
    }
    if !precision.guards {
        // The guards a reused read rests on stay (see `cfg::reuse_reads`).
        let skipped: Vec<NodeId> = out
            .bounds_guards
            .difference(&cfg.reuse_guards)
            .copied()
            .collect();
        for g in skipped {
            if let NodeKind::Assume { next, .. } = out.nodes[g].kind {
                out.nodes[g].kind = NodeKind::Skip { next };
                out.inst_reads.remove(&g);
                out.bounds_guards.remove(&g);
            }
        }
    }
    out
}

/// The ghost index and the cell at it of each array that has a symbolic cell (or a cell
/// at the second ghost).
type GhostCells = BTreeMap<ArrayId, (VarId, VarId)>;

/// Declare the constant cells of `precision` in `out`: new scalars of their array's
/// scope, in (array, index) order. Returns the variable of each cell.
fn add_cells(cfg: &Cfg, precision: &Precision, out: &mut Cfg) -> BTreeMap<(ArrayId, i64), VarId> {
    let mut cell_var: BTreeMap<(ArrayId, i64), VarId> = BTreeMap::new();
    for (a, k) in precision.iter() {
        let info = &cfg.arrays[a];
        let v = out.vars.push(VarInfo {
            name: format!("{}_{}", info.name, k),
            kind: VarKind::Cell {
                array: a,
                index: k,
                proc: info.proc,
            },
            range: info.range,
            span: info.span,
        });
        match info.proc {
            None => out.globals.push(v),
            Some(p) => out.procs[p].locals.push(v),
        }
        cell_var.insert((a, k), v);
    }
    cell_var
}

/// Declare the symbolic cells in `out`: one global ghost index `k` shared by every array
/// that has one (no initialisation: arbitrary, and never assigned), so that the cells of a
/// copy `b[i] = a[i]` are related at the same index; and each array's cell `a_k`, scoped
/// like the array.
fn add_symbolic_cells(cfg: &Cfg, precision: &Precision, out: &mut Cfg) -> GhostCells {
    let mut sym: GhostCells = BTreeMap::new();
    if precision.symbolic().next().is_some() {
        let bound = precision
            .symbolic()
            .map(|a| match cfg.arrays[a].size {
                ArraySize::Const(n) => Some(n),
                ArraySize::Dynamic(_) => None,
            })
            .try_fold(0u64, |m, n| n.map(|n| m.max(n)));
        let first = &cfg.arrays[precision.symbolic().next().expect("one symbolic array")];
        // The ghost ranges over the class of the arrays' indices, when they have one: a
        // cell elsewhere is never read or written.
        let residue = crate::cfg::residue::index_residue(cfg, &precision.symbolic().collect())
            .and_then(|c| Some((u32::try_from(&c.r).ok()?, u32::try_from(&c.m).ok()?)));
        let ghost = out.vars.push(VarInfo {
            name: "k#".to_string(),
            kind: VarKind::Ghost { bound, residue },
            range: Range::Any,
            span: first.span,
        });
        out.globals.push(ghost);
        for a in precision.symbolic() {
            let info = &cfg.arrays[a];
            let cell = out.vars.push(VarInfo {
                name: format!("{}_k", info.name),
                kind: VarKind::SymCell {
                    array: a,
                    proc: info.proc,
                },
                range: info.range,
                span: info.span,
            });
            match info.proc {
                None => out.globals.push(cell),
                Some(p) => out.procs[p].locals.push(cell),
            }
            sym.insert(a, (ghost, cell));
        }
    }
    sym
}

/// With two ghosts: the hoisted reads `t = b[c]` of symbolic arrays, by the node after
/// them, their user, if it reads a symbolic array too (the two reads are instantiated
/// together there, so the hoisted read itself is not: it reads the ghosts' cells only).
/// None with one ghost.
fn companions(cfg: &Cfg, precision: &Precision, sym: &GhostCells) -> Companions {
    if precision.second && !sym.is_empty() {
        companion_reads(cfg, &|a| sym.contains_key(&a), false)
    } else {
        BTreeMap::new()
    }
}

/// Declare the second ghost `k2` and the cells at it in `out`, when `precision` asks for
/// it and the arrays may have two cells. They come after the temporaries, so that the
/// variables of the one-ghost abstraction keep their numbers, and what the widening
/// learnt about them stays valid.
fn add_second_ghost(
    cfg: &Cfg,
    precision: &Precision,
    out: &mut Cfg,
    sym: &GhostCells,
) -> GhostCells {
    let ghost = sym.values().next().map(|(g, _)| *g);
    let bound = ghost.and_then(|g| match out.vars[g].kind {
        VarKind::Ghost { bound, .. } => bound,
        _ => None,
    });
    let mut sym2: GhostCells = BTreeMap::new();
    if let Some(g) = ghost.filter(|_| precision.second && bound.is_none_or(|n| n >= 2)) {
        let info = out.vars[g].clone();
        let k2 = out.vars.push(VarInfo {
            name: "k2#".to_string(),
            ..info
        });
        out.globals.push(k2);
        for (&a, &(_, c)) in sym {
            let info = out.vars[c].clone();
            let proc = cfg.arrays[a].proc;
            let cell = out.vars.push(VarInfo {
                name: format!("{}_k2", cfg.arrays[a].name),
                ..info
            });
            match proc {
                None => out.globals.push(cell),
                Some(p) => out.procs[p].locals.push(cell),
            }
            sym2.insert(a, (k2, cell));
        }
    }
    sym2
}

/// The reads `t = b[c]` of symbolic arrays (`symbolic(b)`) that the CFG hoisted out of the
/// node after them, their user, when that node reads a symbolic array too: by user, `t`,
/// `b`, `c` and the hoisting node.
type Companions = BTreeMap<NodeId, (VarId, ArrayId, Expr, NodeId)>;

///
/// With `through_guards`, the user may come after bounds guards and skips (which change
/// no variable) rather than right after the read.
fn companion_reads(
    cfg: &Cfg,
    symbolic: &dyn Fn(ArrayId) -> bool,
    through_guards: bool,
) -> Companions {
    let reads_symbolic = |e: &Expr| {
        let mut any = false;
        e.visit(&mut |x| any |= matches!(x, Expr::Read(a, _) if symbolic(*a)));
        any
    };
    let mut out = Companions::new();
    for (m, node) in cfg.nodes.iter_enumerated() {
        let NodeKind::Assign { lhs, rhs, next } = &node.kind else {
            continue;
        };
        let ([t], [Expr::Read(b, c)]) = (lhs.as_slice(), rhs.as_slice()) else {
            continue;
        };
        let user = if through_guards {
            past_guards(cfg, *next)
        } else {
            *next
        };
        let user_reads = read_sites(&cfg.nodes[user].kind)
            .into_iter()
            .any(reads_symbolic);
        if symbolic(*b) && cfg.vars[*t].name.starts_with("#read") && user_reads {
            out.entry(user).or_insert((*t, *b, (**c).clone(), m));
        }
    }
    out
}

/// The first node from `n` on that is neither a skip nor a bounds guard (those change no
/// variable).
pub(crate) fn past_guards(cfg: &Cfg, mut n: NodeId) -> NodeId {
    for _ in 0..cfg.nodes.len() {
        match &cfg.nodes[n].kind {
            NodeKind::Skip { next } => n = *next,
            NodeKind::Assume { next, .. } if cfg.bounds_guards.contains(&n) => n = *next,
            _ => break,
        }
    }
    n
}

/// The expressions of a node whose reads of symbolic arrays are instantiated.
fn read_sites(kind: &NodeKind) -> Vec<&Expr> {
    match kind {
        NodeKind::Assign { rhs, .. } => rhs.iter().collect(),
        NodeKind::Branch { cond, .. } | NodeKind::Assume { cond, .. } => vec![cond],
        NodeKind::ArrayWrite { index, value, .. } => vec![index, value],
        _ => Vec::new(),
    }
}

/// Whether a node of `cfg` compares two cells of arrays with a symbolic cell in
/// `precision` (one read hoisted out of a node that reads another, as `a[j1] <= a[j2]`):
/// only then may a second ghost help.
/// A pair that a cell at an index term relates (the hoisted read at a term of the user's
/// read with a cell there, see [`Precision::add_term`]) needs no second ghost.
pub fn reads_two_cells(cfg: &Cfg, precision: &Precision) -> bool {
    let symbolic = |a: ArrayId| precision.sym.contains(&a);
    companion_reads(cfg, &symbolic, false)
        .iter()
        .any(|(user, (_, b, c, _))| {
            let mut first = None;
            for e in read_sites(&cfg.nodes[*user].kind) {
                e.visit(&mut |x| match x {
                    Expr::Read(a, i) if symbolic(*a) && first.is_none() => first = i.affine(),
                    _ => {}
                });
            }
            let (Some(i), Some(c)) = (first, c.affine()) else {
                return true;
            };
            !precision.terms.iter().any(|(a, t)| a == b && t.at(&i) == c)
        })
}

/// The cells at index terms of the ghost, by array: each cell with its term.
type TermCells = BTreeMap<ArrayId, Vec<(VarId, IndexTerm)>>;

/// Declare the cells at index terms of the ghost in `out` (after every other variable, so
/// that those keep their numbers), scoped like their arrays.
fn add_term_cells(cfg: &Cfg, precision: &Precision, out: &mut Cfg, sym: &GhostCells) -> TermCells {
    let mut terms: TermCells = BTreeMap::new();
    for (a, term) in precision.terms() {
        if !sym.contains_key(&a) {
            continue;
        }
        let info = &cfg.arrays[a];
        let cell = out.vars.push(VarInfo {
            name: format!("{}_{}", info.name, index_term(cfg, "k", &term)),
            kind: VarKind::TermCell {
                array: a,
                proc: info.proc,
                term,
            },
            range: info.range,
            span: info.span,
        });
        match info.proc {
            None => out.globals.push(cell),
            Some(p) => out.procs[p].locals.push(cell),
        }
        terms.entry(a).or_default().push((cell, term));
    }
    terms
}

fn eq(a: Expr, b: Expr) -> Expr {
    Expr::Cmp(CmpOp::Eq, Box::new(a), Box::new(b))
}

/// Fold the constant sub-expressions of a node (e.g. the `(1 == 1) ? v : a_1` of a write
/// to a constant index).
fn fold_node(kind: &mut NodeKind) {
    let f = |e: &mut Expr| *e = crate::sema::fold(std::mem::replace(e, Expr::Undef), &|_| None);
    match kind {
        NodeKind::Assign { rhs, .. } => rhs.iter_mut().for_each(f),
        NodeKind::Branch { cond, .. } | NodeKind::Assume { cond, .. } => f(cond),
        NodeKind::Call { args, .. } => args.iter_mut().for_each(f),
        _ => {}
    }
}

/// The temporaries of a node's instantiated reads not used yet, and the reads made.
#[derive(Default)]
struct InstSlot {
    temps: Vec<VarId>,
    read: Option<crate::cfg::InstRead>,
}

struct Abstractor<'a, F: Fn(ArrayId) -> Vec<(i64, VarId)>> {
    cfg: &'a Cfg,
    cells_of: &'a F,
    /// The second ghost and the cell at it, of each array that has one.
    sym2: BTreeMap<ArrayId, (VarId, VarId)>,
    /// The ghost and the symbolic cell of each array that has one.
    sym: &'a BTreeMap<ArrayId, (VarId, VarId)>,
    /// The cells at index terms of the ghost.
    terms: TermCells,
    /// The reads hoisted out of a node that reads arrays with cells at index terms.
    term_companions: Companions,
    /// The current node's temporaries for instantiated reads, and the read once made.
    inst: std::cell::RefCell<InstSlot>,
    /// Fold constant sub-expressions (only when cells were introduced, so that P̂0 keeps
    /// the program's text).
    fold: bool,
}

impl<F: Fn(ArrayId) -> Vec<(i64, VarId)>> Abstractor<'_, F> {
    /// Declare in `out` the temporaries of each node's instantiated reads: a node that
    /// reads symbolic arrays gets one per read (those not at the first read's index stay
    /// unused); a hoisted read of a companion pair gets none. Returns them by node.
    fn add_inst_temps(
        &self,
        out: &mut Cfg,
        node_ids: &[NodeId],
        companions: &Companions,
    ) -> BTreeMap<NodeId, Vec<VarId>> {
        let hoists: BTreeSet<NodeId> = companions.values().map(|c| c.3).collect();
        let mut node_temps: BTreeMap<NodeId, Vec<VarId>> = BTreeMap::new();
        for &id in node_ids {
            let sym_reads: usize = read_sites(&out.nodes[id].kind)
                .into_iter()
                .map(|e| self.symbolic_reads(e))
                .sum();
            let sym_reads = if hoists.contains(&id) { 0 } else { sym_reads };
            let mut temps = Vec::new();
            if let Some(p) = out.nodes[id].proc {
                for t in 0..sym_reads {
                    let v = out.vars.push(VarInfo {
                        name: if t == 0 {
                            format!("#inst{}", id.0)
                        } else {
                            format!("#inst{}_{t}", id.0)
                        },
                        kind: VarKind::Temp(p),
                        range: Range::Any,
                        span: out.nodes[id].span,
                    });
                    out.procs[p].locals.push(v);
                    temps.push(v);
                }
            }
            node_temps.insert(id, temps);
        }
        node_temps
    }

    /// The node of P̂ for a node of P: reads are rewritten in every expression, array
    /// writes and initialisations become assignments to the cells.
    fn node(&self, kind: NodeKind) -> NodeKind {
        match kind {
            NodeKind::Assign { lhs, rhs, next } => {
                let mut rhs: Vec<Expr> = rhs.into_iter().map(|e| self.expr(e)).collect();
                let mut lhs = lhs;
                // A cell at a term over an assigned variable is at another index from
                // now on: its contents are not known.
                let moved: Vec<(VarId, ArrayId)> = self
                    .terms
                    .iter()
                    .flat_map(|(a, cells)| cells.iter().map(move |(c, t)| (*c, *a, t.by)))
                    .filter(|(_, _, by)| by.is_some_and(|(v, _)| lhs.contains(&v)))
                    .map(|(c, a, _)| (c, a))
                    .collect();
                for (cell, array) in moved {
                    lhs.push(cell);
                    rhs.push(self.arbitrary(array));
                }
                NodeKind::Assign { lhs, rhs, next }
            }
            NodeKind::ArrayWrite {
                array,
                index,
                value,
                next,
            } => self.write(array, index, value, next),
            NodeKind::ArrayInit {
                array,
                values,
                next,
            } => self.init(array, values, next),
            NodeKind::Branch { cond, then, els } => NodeKind::Branch {
                cond: self.expr(cond),
                then,
                els,
            },
            NodeKind::Assume { cond, next } => NodeKind::Assume {
                cond: self.expr(cond),
                next,
            },
            NodeKind::Call {
                proc,
                args,
                ret_point,
            } => NodeKind::Call {
                proc,
                args: args.into_iter().map(|e| self.expr(e)).collect(),
                ret_point,
            },
            k @ (NodeKind::Error | NodeKind::Skip { .. } | NodeKind::Exit | NodeKind::Stop) => k,
        }
    }

    /// An arbitrary value of a cell of `array`: arbitrary contents of a C array lie in
    /// its element type's range (reads wrap them there), so its cells do too.
    fn arbitrary(&self, array: ArrayId) -> Expr {
        match self.cfg.arrays[array].range {
            Range::Int(w) => Expr::Wrap(w, Box::new(Expr::Undef)),
            _ => Expr::Undef,
        }
    }

    /// `array[index] = value`: the parallel assignment of every cell of `array` (a skip
    /// when it has none).
    fn write(&self, array: ArrayId, index: Expr, value: Expr, next: NodeId) -> NodeKind {
        let cells = (self.cells_of)(array);
        let symbolic = self.sym.get(&array).copied();
        if cells.is_empty() && symbolic.is_none() {
            NodeKind::Skip { next }
        } else {
            let index = self.expr(index);
            let value = self.expr(value);
            let mut lhs: Vec<VarId> = cells.iter().map(|(_, v)| *v).collect();
            let mut rhs: Vec<Expr> = cells
                .iter()
                .map(|(k, v)| {
                    Expr::Cond(
                        Box::new(self.hits(array, &index, *k)),
                        Box::new(value.clone()),
                        Box::new(Expr::Var(*v)),
                    )
                })
                .collect();
            for (cell, at) in self.term_cells(array) {
                // a_t = (0 ≤ i < size && i == t(k) ? v : a_t)
                lhs.push(cell);
                rhs.push(Expr::Cond(
                    Box::new(Expr::And(
                        Box::new(self.in_range(array, &index)),
                        Box::new(eq(index.clone(), at)),
                    )),
                    Box::new(value.clone()),
                    Box::new(Expr::Var(cell)),
                ));
            }
            for (ghost, cell) in symbolic.into_iter().chain(self.sym2.get(&array).copied()) {
                // a_k = (0 ≤ i < size && i == k ? v : a_k), at each ghost
                lhs.push(cell);
                rhs.push(Expr::Cond(
                    Box::new(Expr::And(
                        Box::new(self.in_range(array, &index)),
                        Box::new(eq(index.clone(), Expr::Var(ghost))),
                    )),
                    Box::new(value.clone()),
                    Box::new(Expr::Var(cell)),
                ));
            }
            NodeKind::Assign { lhs, rhs, next }
        }
    }

    /// The initialisation of `array` (to `values`, or arbitrary contents): the parallel
    /// assignment of every cell of `array` (a skip when it has none).
    fn init(&self, array: ArrayId, values: Option<Vec<Expr>>, next: NodeId) -> NodeKind {
        let cells = (self.cells_of)(array);
        let symbolic = self.sym.get(&array).copied();
        if cells.is_empty() && symbolic.is_none() {
            NodeKind::Skip { next }
        } else {
            let arbitrary = self.arbitrary(array);
            let mut lhs: Vec<VarId> = cells.iter().map(|(_, v)| *v).collect();
            let mut rhs: Vec<Expr> = cells
                .iter()
                .map(|(k, _)| match &values {
                    None => arbitrary.clone(),
                    Some(vs) => vs
                        .get(*k as usize)
                        .map(|e| self.expr(e.clone()))
                        .unwrap_or_else(|| Expr::int(0)),
                })
                .collect();
            let at_ghosts = symbolic
                .into_iter()
                .chain(self.sym2.get(&array).copied())
                .map(|(ghost, cell)| (cell, Expr::Var(ghost)));
            for (cell, at) in at_ghosts.chain(self.term_cells(array)) {
                // The case split over the cell's index (the ghost, or a term of it):
                // (k == 0 ? v0 : (k == 1 ? v1 : ... 0)).
                lhs.push(cell);
                rhs.push(match &values {
                    None => arbitrary.clone(),
                    Some(vs) => vs
                        .iter()
                        .enumerate()
                        .rev()
                        .fold(Expr::int(0), |acc, (i, e)| {
                            Expr::Cond(
                                Box::new(eq(at.clone(), Expr::int(i as i64))),
                                Box::new(self.expr(e.clone())),
                                Box::new(acc),
                            )
                        }),
                });
            }
            NodeKind::Assign { lhs, rhs, next }
        }
    }

    /// The instantiated read the current node made, if any (the slot is emptied), with
    /// its second-ghost instantiation when there is a second ghost.
    fn take_inst_read(&self, id: NodeId, companions: &Companions) -> Option<crate::cfg::InstRead> {
        let mut r = std::mem::take(&mut *self.inst.borrow_mut()).read?;
        if let Some(&(k2, _)) = self.sym2.values().next() {
            let (sym, sym2) = (self.sym, &self.sym2);
            r.second = Some(crate::cfg::SecondGhost {
                ghost: k2,
                pairs: sym2.iter().map(|(a, (_, c2))| (sym[a].1, *c2)).collect(),
                companion: companions
                    .get(&id)
                    .map(|(t, b, c, _)| crate::cfg::Companion {
                        index: c.clone(),
                        in_range: crate::cfg::in_range(self.cfg, *b, c),
                        cell: sym[b].1,
                        value: *t,
                    }),
            });
        }
        Some(r)
    }

    /// The cells of `array` at index terms of the ghost, each with its index.
    fn term_cells(&self, array: ArrayId) -> Vec<(VarId, Expr)> {
        let Some(&(ghost, _)) = self.sym.get(&array) else {
            return Vec::new();
        };
        self.terms
            .get(&array)
            .into_iter()
            .flatten()
            .map(|&(cell, t)| (cell, t.expr(ghost)))
            .collect()
    }

    /// With one ghost: where a read `t = b[c]` was hoisted out of the node and `c` is a
    /// term `coef·i + offset` of the node's instantiated index `i` with a cell of `b` at
    /// that term of the ghost, the partner's cell there is bound to `t` (see
    /// [`crate::cfg::TermBind`]).
    fn bind_term(&self, id: NodeId, mut r: crate::cfg::InstRead) -> crate::cfg::InstRead {
        if r.second.is_some() {
            return r;
        }
        let Some((t, b, c, _)) = self.term_companions.get(&id) else {
            return r;
        };
        let (Some(i), Some(c_lin)) = (r.index.affine(), c.affine()) else {
            return r;
        };
        let found = self
            .terms
            .get(b)
            .into_iter()
            .flatten()
            .find(|(_, t)| t.at(&i) == c_lin);
        if let Some(&(cell, term)) = found {
            r.term = Some(crate::cfg::TermBind {
                cell,
                term,
                index: c.clone(),
                in_range: crate::cfg::in_range(self.cfg, *b, c),
                value: *t,
            });
        }
        r
    }

    /// `index == k`, and for a VLA also `k < size` (a cell beyond the size is out of range).
    fn hits(&self, a: ArrayId, index: &Expr, k: i64) -> Expr {
        let eq = Expr::Cmp(
            CmpOp::Eq,
            Box::new(index.clone()),
            Box::new(Expr::Const(BigInt::from(k))),
        );
        match &self.cfg.arrays[a].size {
            ArraySize::Const(_) => eq,
            ArraySize::Dynamic(sv) => Expr::And(
                Box::new(eq),
                Box::new(Expr::Cmp(
                    CmpOp::Lt,
                    Box::new(Expr::Const(BigInt::from(k))),
                    Box::new(Expr::Var(*sv)),
                )),
            ),
        }
    }

    fn expr(&self, e: Expr) -> Expr {
        self.reads(e)
    }

    /// How many reads of arrays with a symbolic cell `e` makes.
    fn symbolic_reads(&self, e: &Expr) -> usize {
        let mut n = 0;
        e.visit(&mut |x| {
            n += usize::from(matches!(x, Expr::Read(a, _) if self.sym.contains_key(a)))
        });
        n
    }

    /// `0 ≤ index < size`.
    fn in_range(&self, a: ArrayId, index: &Expr) -> Expr {
        crate::cfg::in_range(self.cfg, a, index)
    }

    /// The temporary for a read of `a[i]` (symbolic cell `cell`) at the current node: the
    /// node's first read, or a read at the same index (one partner gives all of them);
    /// `None` for the others (they read `untracked`).
    fn instance(&self, a: ArrayId, i: &Expr, cell: VarId) -> Option<Expr> {
        let mut slot = self.inst.borrow_mut();
        let slot = &mut *slot;
        let fits = match &slot.read {
            None => true,
            Some(r) if r.index == *i => {
                // The same cell read twice at the node: the same value.
                if let Some((_, t)) = r.reads.iter().find(|(c, _)| *c == cell) {
                    return Some(Expr::Var(*t));
                }
                true
            }
            Some(_) => false,
        };
        if !fits || slot.temps.is_empty() {
            return None;
        }
        let t = slot.temps.remove(0);
        match &mut slot.read {
            None => {
                let ghost = self.sym[&a].0;
                slot.read = Some(crate::cfg::InstRead {
                    index: i.clone(),
                    in_range: self.in_range(a, i),
                    ghost,
                    reads: vec![(cell, t)],
                    others: self
                        .sym
                        .values()
                        .map(|(_, c)| *c)
                        .chain(self.terms.values().flatten().map(|t| t.0))
                        .filter(|c| *c != cell)
                        .collect(),
                    second: None,
                    term: None,
                });
            }
            Some(r) => {
                r.reads.push((cell, t));
                r.others.retain(|c| *c != cell);
            }
        }
        Some(Expr::Var(t))
    }

    fn reads(&self, e: Expr) -> Expr {
        e.map_bottom_up(&mut |x| match x {
            Expr::Read(a, i) => {
                let cells = (self.cells_of)(a);
                // An untracked (or out-of-range) cell of a C array: any value of its type.
                let untracked = match self.cfg.arrays[a].range {
                    Range::Int(w) => Expr::Wrap(w, Box::new(Expr::Undef)),
                    _ => Expr::Undef,
                };
                // A symbolic cell: (0 ≤ i < size ? (i == k ? a_k : inst) : untracked),
                // `inst` for the reads at the index of the node's first such read only
                // (the others: untracked).
                let untracked = match (self.sym.get(&a), self.sym2.get(&a)) {
                    (None, _) => untracked,
                    // With two ghosts, an instantiated read is its temporary (the
                    // instantiation covers the ghosts' own cells too); another one is
                    // `(i == k1 ? a_k1 : (i == k2 ? a_k2 : untracked))`.
                    (Some(&(ghost, cell)), Some(&(ghost2, cell2))) => {
                        let value = self.instance(a, &i, cell).unwrap_or_else(|| {
                            Expr::Cond(
                                Box::new(eq((*i).clone(), Expr::Var(ghost))),
                                Box::new(Expr::Var(cell)),
                                Box::new(Expr::Cond(
                                    Box::new(eq((*i).clone(), Expr::Var(ghost2))),
                                    Box::new(Expr::Var(cell2)),
                                    Box::new(untracked.clone()),
                                )),
                            )
                        });
                        Expr::Cond(
                            Box::new(self.in_range(a, &i)),
                            Box::new(value),
                            Box::new(untracked),
                        )
                    }
                    (Some(&(ghost, cell)), None) => {
                        let other = self
                            .instance(a, &i, cell)
                            .unwrap_or_else(|| untracked.clone());
                        Expr::Cond(
                            Box::new(self.in_range(a, &i)),
                            Box::new(Expr::Cond(
                                Box::new(eq((*i).clone(), Expr::Var(ghost))),
                                Box::new(Expr::Var(cell)),
                                Box::new(other),
                            )),
                            Box::new(untracked),
                        )
                    }
                };
                // A cell at an index term: (0 ≤ i < size && i == t(k) ? a_t : ...).
                let untracked =
                    self.term_cells(a)
                        .into_iter()
                        .rev()
                        .fold(untracked, |acc, (cell, at)| {
                            Expr::Cond(
                                Box::new(Expr::And(
                                    Box::new(self.in_range(a, &i)),
                                    Box::new(eq((*i).clone(), at)),
                                )),
                                Box::new(Expr::Var(cell)),
                                Box::new(acc),
                            )
                        });
                cells.iter().rev().fold(untracked, |acc, (k, v)| {
                    Expr::Cond(
                        Box::new(self.hits(a, &i, *k)),
                        Box::new(Expr::Var(*v)),
                        Box::new(acc),
                    )
                })
            }
            other => other,
        })
    }
}
