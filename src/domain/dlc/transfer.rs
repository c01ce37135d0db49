//! The DLC domain as the engine's [`RelDomain`]: the initial fact, the transfer relations
//! α, β+ and β− of §4, calls and summaries, forgetting, and the operations at widening
//! points (partition, hull, widening).

use super::bind::{drop_safe_wraps, fold_in, known_values};
use super::fact::{self, Congs, Fact};
use super::thresholds::negate_atom;
use super::{cur_dim, entry_dim, DlcDomain};
use crate::cfg::{Cfg, NodeKind};
use crate::domain::encode::{guard, guard_size, MAX_CASES};
use crate::domain::RelDomain;
use crate::ids::{NodeId, ProcId, VarId};
use crate::linear::Cong;
use crate::linear::{Conj, Constraint, Dim, LinExpr, Q};
use num_bigint::BigInt;
use std::collections::BTreeMap;

impl RelDomain for DlcDomain {
    type Fact = Fact;

    fn shift(&self, old: &Fact, new: &Fact) -> Option<crate::domain::Shift> {
        super::shift(old, new)
    }

    fn initial(&mut self, cfg: &Cfg) -> Fact {
        // The read rule's ghost index ranges over its arrays' cells: `0 ≤ k` and, when
        // they all have a fixed size, `k < n` for the largest n (cells out of range are
        // never read or written), and the class of their indices when they have one
        // (a congruence of the facts, when they carry congruences).
        let mut c = Conj::top();
        let mut ghosts = Vec::new();
        let mut congs = Congs::new();
        for (v, info) in cfg.vars.iter_enumerated() {
            let crate::sema::VarKind::Ghost { bound, residue } = info.kind else {
                continue;
            };
            ghosts.push(v);
            for d in [cur_dim(v), entry_dim(v)] {
                if let (Some((r, m)), true) = (residue, self.congruences) {
                    congs.insert(d, Cong::new(r.into(), m.into()));
                }
                let k = LinExpr::var(d);
                c.add(&Constraint::ge(&k, &LinExpr::int(0)));
                if let Some(n) = bound {
                    c.add(&Constraint::le(
                        &k,
                        &LinExpr::constant(Q::from_integer((n as i64 - 1).into())),
                    ));
                }
            }
        }
        // A second ghost (sortedness) comes after the first: `k1 < k2`.
        if let [k1, k2] = ghosts[..] {
            for dim in [cur_dim, entry_dim] {
                c.add(&Constraint::lt(
                    &LinExpr::var(dim(k1)),
                    &LinExpr::var(dim(k2)),
                ));
            }
        }
        let f: Fact = c.into();
        let mut g = Fact { congs, ..f.clone() };
        // (A class with no index in range leaves the ghost's range as it is.)
        if fact::reduce(&mut g) {
            g
        } else {
            f
        }
    }

    fn post(&mut self, cfg: &Cfg, f: &Fact, n: NodeId, succ_index: usize) -> Vec<Fact> {
        if let Some(parts) = split_small_index(cfg, f, n) {
            return parts
                .iter()
                .flat_map(|g| self.post(cfg, g, n, succ_index))
                .collect();
        }
        self.stats.transfers += 1;
        let mut fresh = Self::fresh(cfg);
        let base = fresh.peek();
        match &cfg.nodes[n].kind {
            NodeKind::Skip { .. } => vec![f.clone()],
            NodeKind::Assign { lhs, rhs, .. } => {
                // α(y'', e'): fresh slots take the values, then the old current values of
                // the targets and every fresh dim but the slots are eliminated.
                let (cands, slots) = self.bind(f, rhs, &mut fresh);
                let mut out = Vec::new();
                for c in cands {
                    let mut dims: Vec<Dim> = lhs.iter().map(|y| cur_dim(*y)).collect();
                    dims.extend(Self::fresh_dims(&c, base).into_iter().filter(|d| !slots.contains(d)));
                    let keep = |d: Dim| d.0 < base || slots.contains(&d);
                    if let Some(p) = self.project_fact(c, &f.congs, &dims, keep) {
                        let map: BTreeMap<Dim, Dim> = slots.iter().zip(lhs).map(|(s, y)| (*s, cur_dim(*y))).collect();
                        out.push(p.rename(&|d| map.get(&d).copied().unwrap_or(d)));
                    }
                }
                out
            }
            NodeKind::Branch { cond, .. } | NodeKind::Assume { cond, .. } => {
                let positive = succ_index == 0;
                let cond = drop_safe_wraps(fold_in(cond, &known_values(f)), f);
                if guard_size(&cond, positive) > MAX_CASES {
                    // Too many disjuncts to enumerate: the condition constrains nothing
                    // (over-approximation).
                    return vec![f.clone()];
                }
                let dnf = guard(&cond, positive, &cur_dim, &mut fresh);
                let mut out = Vec::new();
                for d in dnf {
                    let mut c = f.conj.clone();
                    for k in &d {
                        c.add(k);
                    }
                    let dims = Self::fresh_dims(&c, base);
                    if let Some(p) = self.project_fact(c, &f.congs, &dims, |d| d.0 < base) {
                        out.push(p);
                    }
                }
                out
            }
            k => panic!("internal error: DLC transfer of {k:?} (arrays must be abstracted; calls and exits are the engine's)"),
        }
    }

    fn call_entry(&mut self, cfg: &Cfg, f: &Fact, call: NodeId) -> Vec<Fact> {
        let NodeKind::Call { proc, args, .. } = &cfg.nodes[call].kind else {
            panic!("internal error: call_entry on a non-call node")
        };
        let mut fresh = Self::fresh(cfg);
        let (cands, slots) = self.bind(f, args, &mut fresh);
        let formals = &cfg.procs[*proc].formals;
        let keep: Vec<Dim> = cfg
            .globals
            .iter()
            .map(|g| cur_dim(*g))
            .chain(slots.iter().copied())
            .collect();
        let mut out = Vec::new();
        for c in cands {
            let dims: Vec<Dim> = c.dims().into_iter().filter(|d| !keep.contains(d)).collect();
            // Only the globals and the actuals pass: every other congruence goes too.
            let Some(p) = self.project_fact(c, &f.congs, &dims, |d| keep.contains(&d)) else {
                continue;
            };
            let map: BTreeMap<Dim, Dim> = slots
                .iter()
                .zip(formals)
                .map(|(s, x)| (*s, cur_dim(*x)))
                .collect();
            let mut e = p.rename(&|d| map.get(&d).copied().unwrap_or(d));
            for v in cfg.globals.iter().chain(formals) {
                e.conj.add(&Constraint::eq(
                    &LinExpr::var(entry_dim(*v)),
                    &LinExpr::var(cur_dim(*v)),
                ));
                if let Some(c) = e.congs.get(&cur_dim(*v)).cloned() {
                    e.congs.insert(entry_dim(*v), c);
                }
            }
            out.push(e);
        }
        out
    }

    fn summarize(&mut self, cfg: &Cfg, f: &Fact, p: ProcId) -> Vec<Fact> {
        let pr = &cfg.procs[p];
        let dims: Vec<Dim> = pr
            .formals
            .iter()
            .chain(&pr.locals)
            .map(|v| cur_dim(*v))
            .collect();
        self.project_fact(f.conj.clone(), &f.congs, &dims, |_| true)
            .into_iter()
            .collect()
    }

    fn apply_summary(&mut self, cfg: &Cfg, f: &Fact, s: &Fact, call: NodeId) -> Vec<Fact> {
        let NodeKind::Call { proc, args, .. } = &cfg.nodes[call].kind else {
            panic!("internal error: apply_summary on a non-call node")
        };
        let mut fresh = Self::fresh(cfg);
        let base = fresh.peek();
        // The summary's entry dims become fresh w's, its exit globals fresh g''s.
        let callee_entry: Vec<VarId> = cfg
            .globals
            .iter()
            .chain(&cfg.procs[*proc].formals)
            .copied()
            .collect();
        let mut map: BTreeMap<Dim, Dim> = BTreeMap::new();
        for v in &callee_entry {
            map.insert(entry_dim(*v), fresh.dim());
        }
        let mut exit_globals = Vec::new();
        for g in &cfg.globals {
            let d = fresh.dim();
            map.insert(cur_dim(*g), d);
            exit_globals.push((d, cur_dim(*g)));
        }
        // The summary's other dimensions (its callee's locals never occur in it) keep
        // their names; its congruences follow the renaming, or go where none is given.
        let mut s2 = s.rename(&|d| map.get(&d).copied().unwrap_or(d));
        s2.congs.retain(|d, _| d.0 >= base);
        let mut c = f.conj.and(&s2.conj);
        if c.is_trivially_false() {
            return vec![];
        }
        let Some(congs) = meet_congs(&f.congs, &s2.congs) else {
            return vec![];
        };
        for g in &cfg.globals {
            c.add(&Constraint::eq(
                &LinExpr::var(map[&entry_dim(*g)]),
                &LinExpr::var(cur_dim(*g)),
            ));
        }
        let formals = &cfg.procs[*proc].formals;
        let (cands, slots) = self.bind(&c, args, &mut fresh);
        let mut out = Vec::new();
        for mut c in cands {
            for (slot, x) in slots.iter().zip(formals) {
                c.add(&Constraint::eq(
                    &LinExpr::var(*slot),
                    &LinExpr::var(map[&entry_dim(*x)]),
                ));
            }
            // Most pairs of a caller's fact and a summary disjunct do not meet (the
            // summary's entry part contradicts the arguments): one simplex run tells,
            // before the projection would find the same empty set at far more cost.
            if c.is_empty() {
                continue;
            }
            // Eliminate the caller's old globals and every fresh dim except the exit
            // globals; then the exit globals become the current globals.
            let keep: Vec<Dim> = exit_globals.iter().map(|(d, _)| *d).collect();
            let mut dims: Vec<Dim> = cfg.globals.iter().map(|g| cur_dim(*g)).collect();
            dims.extend(
                Self::fresh_dims(&c, base)
                    .into_iter()
                    .filter(|d| !keep.contains(d)),
            );
            let keep_dim = |d: Dim| d.0 < base || keep.contains(&d);
            if let Some(p) = self.project_fact(c, &congs, &dims, keep_dim) {
                let back: BTreeMap<Dim, Dim> = exit_globals.iter().copied().collect();
                out.push(p.rename(&|d| back.get(&d).copied().unwrap_or(d)));
            }
        }
        out
    }

    fn forget(&mut self, f: &Fact, vars: &[VarId]) -> Fact {
        let dims: Vec<Dim> = vars.iter().map(|v| cur_dim(*v)).collect();
        Fact {
            conj: self.forget_conj(&f.conj, vars),
            congs: f
                .congs
                .iter()
                .filter(|(d, _)| !dims.contains(d))
                .map(|(d, c)| (*d, c.clone()))
                .collect(),
        }
    }

    /// Monniaux–Gonnord's read rule, with one ghost or two (see `read_rule` in
    /// `read.rs`). The temporaries lose their congruences; the rule only constrains them.
    fn instantiate(
        &mut self,
        cfg: &Cfg,
        f: &Fact,
        g: &Fact,
        read: &crate::cfg::InstRead,
    ) -> Vec<Fact> {
        let temps: Vec<Dim> = read.temps().iter().map(|v| cur_dim(*v)).collect();
        let congs: Congs = f
            .congs
            .iter()
            .filter(|(d, _)| !temps.contains(d))
            .map(|(d, c)| (*d, c.clone()))
            .collect();
        self.read_rule(cfg, &f.conj, &g.conj, read)
            .into_iter()
            .map(|conj| Fact {
                conj,
                congs: congs.clone(),
            })
            .collect()
    }

    /// The key is, for each ghost of the read and each variable of the node's scope
    /// (its globals, formals, locals and sizes), the relation between them that `f`
    /// entails (`<`, `=`, `>`, `≤`, `≥` or none): the index partition of the array
    /// analyses (Gopan–Reps–Sagiv, POPL 2005; Halbwachs–Péron, PLDI 2008), which keeps
    /// the cells a loop has done apart from those it has not. The key also holds the
    /// same relation between each cell the read gives (`a_k`) and each such variable, so
    /// that a cover does not join partners whose read value lies on opposite sides of a
    /// variable (`a_k < e` with `a_k > e`, which together say `a_k ≠ e`).
    fn partner_key(
        &mut self,
        cfg: &Cfg,
        n: NodeId,
        read: &crate::cfg::InstRead,
        f: &Fact,
    ) -> Option<Vec<u8>> {
        use crate::sema::VarKind;
        let pivots: Vec<VarId> = std::iter::once(read.ghost)
            .chain(read.second.iter().map(|s| s.ghost))
            .chain(read.reads.iter().map(|(cell, _)| *cell))
            .collect();
        let present = f.conj.dims();
        let mut key = Vec::new();
        for v in cfg.in_scope(n) {
            if !matches!(
                cfg.vars[v].kind,
                VarKind::Global | VarKind::Formal(_) | VarKind::Local(_) | VarKind::ArraySize(_)
            ) {
                continue;
            }
            for g in &pivots {
                if !present.contains(&cur_dim(v)) || !present.contains(&cur_dim(*g)) {
                    key.push(0);
                    continue;
                }
                let (kg, kv) = (LinExpr::var(cur_dim(*g)), LinExpr::var(cur_dim(v)));
                // Codes 1–5 for `<`, `=`, `>`, `≤`, `≥`, the strongest that holds; two
                // or three entailment checks (most variables are unrelated to the ghost:
                // neither `≤` nor `≥`).
                let implies = |c: Constraint| f.conj.implies(&c);
                let code = if implies(Constraint::le(&kg, &kv)) {
                    if implies(Constraint::lt(&kg, &kv)) {
                        1
                    } else if implies(Constraint::ge(&kg, &kv)) {
                        2
                    } else {
                        4
                    }
                } else if implies(Constraint::ge(&kg, &kv)) {
                    if implies(Constraint::gt(&kg, &kv)) {
                        3
                    } else {
                        5
                    }
                } else {
                    0
                };
                key.push(code);
            }
        }
        Some(key)
    }

    fn forget_entry(&mut self, f: &Fact, vars: &[VarId]) -> Fact {
        let dims: Vec<Dim> = vars
            .iter()
            .flat_map(|v| [cur_dim(*v), entry_dim(*v)])
            .collect();
        let congs: Congs = f
            .congs
            .iter()
            .filter(|(d, _)| !dims.contains(d))
            .map(|(d, c)| (*d, c.clone()))
            .collect();
        let present = f.dims();
        if dims.iter().all(|d| !present.contains(d)) {
            return Fact {
                conj: f.conj.clone(),
                congs,
            };
        }
        self.stats.projections += 1;
        Fact {
            conj: f.conj.project_out_within(&dims, &self.deadline),
            congs,
        }
    }

    fn entailed(&mut self, f: &Fact, gs: &[&Fact]) -> bool {
        // Only disjuncts whose congruences `f` satisfies can contain it.
        let gs: Vec<&Conj> = gs
            .iter()
            .filter(|g| fact::congs_entailed(f, g))
            .map(|g| &g.conj)
            .collect();
        self.entail.conj_leq(&f.conj, &gs)
    }

    fn split(&mut self, cfg: &Cfg, n: NodeId, f: &Fact) -> Vec<(Fact, u32)> {
        let parts = self.split_by_atoms(n, f);
        if self.residues.is_empty() {
            return parts;
        }
        // Then by the residue of each variable the program tests with `%`: a loop that
        // treats even and odd values apart keeps one chain for each.
        let mut parts = parts;
        let proc = cfg.nodes[n].proc;
        let tests: Vec<(Dim, u32)> = self
            .residues
            .iter()
            .filter(|(_, _, p)| *p == proc)
            .map(|(d, m, _)| (*d, *m))
            .collect();
        for (j, (d, m)) in tests.iter().enumerate() {
            let mut next = Vec::new();
            for (p, cell) in parts {
                for r in 0..*m {
                    let c = Cong::new(BigInt::from(r), BigInt::from(*m));
                    let Some(c) = p.congs.get(d).map_or(Some(c.clone()), |o| o.meet(&c)) else {
                        continue;
                    };
                    let mut q = p.clone();
                    q.congs.insert(*d, c);
                    if !fact::reduce(&mut q) || q.is_empty() {
                        continue;
                    }
                    let bits = r + 1;
                    next.push((
                        q,
                        cell | (bits << (RESIDUE_SHIFT + RESIDUE_BITS * j as u32)),
                    ));
                }
            }
            parts = next;
        }
        parts
    }

    fn partitioned(&self, n: NodeId) -> bool {
        self.splits.get(&n).is_some_and(|a| !a.is_empty())
    }

    /// The constraints the two facts share (syntactically, after normalisation): a hull
    /// keeps at least those.
    fn affinity(&self, a: &Fact, b: &Fact) -> usize {
        let ca = a.constraints();
        b.constraints().iter().filter(|c| ca.contains(c)).count()
    }

    fn join(&mut self, _cfg: &Cfg, _n: NodeId, old: &Fact, new: &Fact) -> Option<Fact> {
        self.stats.hulls += 1;
        let conj = old.hull_within(new, &self.deadline);
        Some(Fact {
            conj,
            congs: self.join_congs(old, new),
        })
    }

    fn widen(
        &mut self,
        cfg: &Cfg,
        n: NodeId,
        old: &Fact,
        new: &Fact,
        refine: bool,
    ) -> Option<Fact> {
        self.stats.widenings += 1;
        let mut ts = self.thresholds_at(cfg, n);
        // The partition atoms of the point and their negations: the fact's partition
        // cell holds them, and both operands lie in the same cell, so they stay.
        for a in self.splits.get(&n).into_iter().flatten() {
            ts.extend([a.clone(), negate_atom(a)]);
        }
        // The congruences widen by their join: their chains are finite.
        let conj = old.widen(new, &ts, refine, &self.deadline);
        Some(Fact {
            conj,
            congs: self.join_congs(old, new),
        })
    }
}

/// The meet of two sets of congruences, `None` if empty.
/// The most values a variable is split into by [`split_small_index`].
const MAX_SPLIT_VALUES: i64 = 64;

/// The parts of `f`, one per value of a variable, when node `n`'s expressions have too
/// many cases to enumerate in `f` ([`MAX_CASES`]: a read among many tracked cells is a
/// long chain of `?:` on `index == k`) and `f` bounds a variable those tests compare
/// with constants to at most [`MAX_SPLIT_VALUES`] values, with few enough cases once
/// it is fixed. The parts cover `f` exactly (its integer points), so each value's
/// transfer is exact where the whole fact's would constrain nothing.
fn split_small_index(cfg: &Cfg, f: &Fact, n: NodeId) -> Option<Vec<Fact>> {
    use crate::domain::encode::flatten_size;
    use crate::sema::{CmpOp, Expr};
    let exprs: Vec<&Expr> = match &cfg.nodes[n].kind {
        NodeKind::Assign { rhs, .. } => rhs.iter().collect(),
        NodeKind::Branch { cond, .. } | NodeKind::Assume { cond, .. } => vec![cond],
        _ => return None,
    };
    let size = |e: &Expr| {
        guard_size(e, true)
            .max(guard_size(e, false))
            .max(flatten_size(e))
    };
    // Folding known values only removes cases: most transfers stop here, before the
    // fact's known values are looked up.
    if exprs.iter().all(|e| size(e) <= MAX_CASES) {
        return None;
    }
    let known = known_values(&f.conj);
    let folded_size = |e: &Expr, known: &BTreeMap<VarId, BigInt>| size(&fold_in(e, known));
    if exprs.iter().all(|e| folded_size(e, &known) <= MAX_CASES) {
        return None;
    }
    // The variables compared with a constant by `==` (or `!=`).
    let mut tested = std::collections::BTreeSet::new();
    for e in &exprs {
        e.visit(&mut |x| {
            if let Expr::Cmp(CmpOp::Eq | CmpOp::Ne, a, b) = x {
                match (&**a, &**b) {
                    (Expr::Var(v), Expr::Const(_)) | (Expr::Const(_), Expr::Var(v)) => {
                        tested.insert(*v);
                    }
                    _ => {}
                }
            }
        });
    }
    for v in tested.into_iter().filter(|v| !known.contains_key(v)) {
        let Some((lo, hi)) = int_bounds(&f.conj, cur_dim(v)) else {
            continue;
        };
        if &hi - &lo >= BigInt::from(MAX_SPLIT_VALUES) {
            continue;
        }
        let mut fixed = known.clone();
        fixed.insert(v, lo.clone());
        if exprs.iter().any(|e| folded_size(e, &fixed) > MAX_CASES) {
            continue;
        }
        let x = LinExpr::var(cur_dim(v));
        let mut parts = Vec::new();
        let mut k = lo;
        while k <= hi {
            let mut g = f.clone();
            g.conj.add(&Constraint::eq(
                &x,
                &LinExpr::constant(Q::from_integer(k.clone())),
            ));
            if !g.conj.is_trivially_false() {
                parts.push(g);
            }
            k += 1;
        }
        return Some(parts);
    }
    None
}

/// The integer bounds `f` puts on dimension `d` alone (a row of `d` by itself), if both
/// are finite.
fn int_bounds(f: &Conj, d: Dim) -> Option<(BigInt, BigInt)> {
    use num_traits::Signed;
    for (key, r) in f.rows() {
        let Some(a) = key.get(&d).filter(|_| key.len() == 1) else {
            continue;
        };
        let (lo, hi) = (r.lo.as_ref()?, r.hi.as_ref()?);
        // lo ≤ a·x ≤ hi.
        let (l, h) = if a.is_positive() {
            (&lo.value / a, &hi.value / a)
        } else {
            (&hi.value / a, &lo.value / a)
        };
        return Some((l.ceil().to_integer(), h.floor().to_integer()));
    }
    None
}

fn meet_congs(a: &Congs, b: &Congs) -> Option<Congs> {
    let mut out = a.clone();
    for (d, c) in b {
        let m = match out.get(d) {
            None => c.clone(),
            Some(o) => o.meet(c)?,
        };
        out.insert(*d, m);
    }
    Some(out)
}

/// Partition cells of the residue splits start at this bit, each test taking
/// [`RESIDUE_BITS`] bits (the residue plus one).
const RESIDUE_SHIFT: u32 = 16;
/// Bits of one residue test in a partition cell.
const RESIDUE_BITS: u32 = 4;

impl DlcDomain {
    /// The parts of `f` by the partition atoms learnt at `n`, each with its cell.
    fn split_by_atoms(&self, n: NodeId, f: &Fact) -> Vec<(Fact, u32)> {
        let Some(atoms) = self.splits.get(&n) else {
            return vec![(f.clone(), 0)];
        };
        let mut parts = vec![(f.clone(), 0u32)];
        for (i, a) in atoms.iter().enumerate() {
            let neg = negate_atom(a);
            let mut next = Vec::new();
            for (p, cell) in parts {
                let mut yes = p.clone();
                yes.conj.add(a);
                let mut no = p;
                no.conj.add(&neg);
                if !yes.is_empty() {
                    next.push((yes, cell | (1 << i)));
                }
                if !no.is_empty() {
                    next.push((no, cell));
                }
            }
            parts = next;
        }
        parts
    }
}
