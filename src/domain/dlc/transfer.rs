//! The DLC domain as the engine's [`RelDomain`]: the initial fact, the transfer relations
//! α, β+ and β− of §4, calls and summaries, forgetting, and the operations at widening
//! points (partition, hull, widening).

use super::bind::{drop_safe_wraps, fold_in, known_values};
use super::thresholds::negate_atom;
use super::{cur_dim, entry_dim, DlcDomain};
use crate::cfg::{Cfg, NodeKind};
use crate::domain::encode::guard;
use crate::domain::RelDomain;
use crate::ids::{NodeId, ProcId, VarId};
use crate::linear::{Conj, Constraint, Dim, LinExpr, Q};
use std::collections::BTreeMap;

impl RelDomain for DlcDomain {
    type Fact = Conj;

    fn shift(&self, old: &Conj, new: &Conj) -> Option<crate::domain::Shift> {
        super::shift(old, new)
    }

    fn initial(&mut self, cfg: &Cfg) -> Conj {
        // The read rule's ghost index ranges over its arrays' cells: `0 ≤ k` and, when
        // they all have a fixed size, `k < n` for the largest n (cells out of range are
        // never read or written).
        let mut c = Conj::top();
        let mut ghosts = Vec::new();
        for (v, info) in cfg.vars.iter_enumerated() {
            let crate::sema::VarKind::Ghost { bound } = info.kind else {
                continue;
            };
            ghosts.push(v);
            for d in [cur_dim(v), entry_dim(v)] {
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
        c
    }

    fn post(&mut self, cfg: &Cfg, f: &Conj, n: NodeId, succ_index: usize) -> Vec<Conj> {
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
                    if let Some(p) = self.project(c, &dims) {
                        let map: BTreeMap<Dim, Dim> = slots.iter().zip(lhs).map(|(s, y)| (*s, cur_dim(*y))).collect();
                        out.push(p.rename(&|d| map.get(&d).copied().unwrap_or(d)));
                    }
                }
                out
            }
            NodeKind::Branch { cond, .. } | NodeKind::Assume { cond, .. } => {
                let positive = succ_index == 0;
                let cond = drop_safe_wraps(fold_in(cond, &known_values(f)), f);
                let dnf = guard(&cond, positive, &cur_dim, &mut fresh);
                let mut out = Vec::new();
                for d in dnf {
                    let mut c = f.clone();
                    for k in &d {
                        c.add(k);
                    }
                    let dims = Self::fresh_dims(&c, base);
                    if let Some(p) = self.project(c, &dims) {
                        out.push(p);
                    }
                }
                out
            }
            k => panic!("internal error: DLC transfer of {k:?} (arrays must be abstracted; calls and exits are the engine's)"),
        }
    }

    fn call_entry(&mut self, cfg: &Cfg, f: &Conj, call: NodeId) -> Vec<Conj> {
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
            let Some(p) = self.project(c, &dims) else {
                continue;
            };
            let map: BTreeMap<Dim, Dim> = slots
                .iter()
                .zip(formals)
                .map(|(s, x)| (*s, cur_dim(*x)))
                .collect();
            let mut e = p.rename(&|d| map.get(&d).copied().unwrap_or(d));
            for v in cfg.globals.iter().chain(formals) {
                e.add(&Constraint::eq(
                    &LinExpr::var(entry_dim(*v)),
                    &LinExpr::var(cur_dim(*v)),
                ));
            }
            out.push(e);
        }
        out
    }

    fn summarize(&mut self, cfg: &Cfg, f: &Conj, p: ProcId) -> Vec<Conj> {
        let pr = &cfg.procs[p];
        let dims: Vec<Dim> = pr
            .formals
            .iter()
            .chain(&pr.locals)
            .map(|v| cur_dim(*v))
            .collect();
        self.project(f.clone(), &dims).into_iter().collect()
    }

    fn apply_summary(&mut self, cfg: &Cfg, f: &Conj, s: &Conj, call: NodeId) -> Vec<Conj> {
        let NodeKind::Call { proc, args, .. } = &cfg.nodes[call].kind else {
            panic!("internal error: apply_summary on a non-call node")
        };
        let mut fresh = Self::fresh(cfg);
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
        let s2 = s.rename(&|d| map.get(&d).copied().unwrap_or(d));
        let mut c = f.and(&s2);
        if c.is_trivially_false() {
            return vec![];
        }
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
            // Eliminate the caller's old globals and every fresh dim except the exit
            // globals; then the exit globals become the current globals.
            let keep: Vec<Dim> = exit_globals.iter().map(|(d, _)| *d).collect();
            let mut dims: Vec<Dim> = cfg.globals.iter().map(|g| cur_dim(*g)).collect();
            dims.extend(
                Self::fresh_dims(&c, 2 * cfg.vars.len() as u32)
                    .into_iter()
                    .filter(|d| !keep.contains(d)),
            );
            if let Some(p) = self.project(c, &dims) {
                let back: BTreeMap<Dim, Dim> = exit_globals.iter().copied().collect();
                out.push(p.rename(&|d| back.get(&d).copied().unwrap_or(d)));
            }
        }
        out
    }

    fn forget(&mut self, f: &Conj, vars: &[VarId]) -> Conj {
        let dims: Vec<Dim> = vars.iter().map(|v| cur_dim(*v)).collect();
        let present = f.dims();
        if dims.iter().all(|d| !present.contains(d)) {
            return f.clone();
        }
        self.stats.projections += 1;
        f.project_out_within(&dims, &self.deadline)
    }

    /// Monniaux–Gonnord's read rule, with one ghost or two (see `read_rule` in
    /// `read.rs`).
    fn instantiate(
        &mut self,
        cfg: &Cfg,
        f: &Conj,
        g: &Conj,
        read: &crate::cfg::InstRead,
    ) -> Vec<Conj> {
        self.read_rule(cfg, f, g, read)
    }

    fn forget_entry(&mut self, f: &Conj, vars: &[VarId]) -> Conj {
        let dims: Vec<Dim> = vars
            .iter()
            .flat_map(|v| [cur_dim(*v), entry_dim(*v)])
            .collect();
        let present = f.dims();
        if dims.iter().all(|d| !present.contains(d)) {
            return f.clone();
        }
        self.stats.projections += 1;
        f.project_out_within(&dims, &self.deadline)
    }

    fn entailed(&mut self, f: &Conj, gs: &[&Conj]) -> bool {
        self.entail.conj_leq(f, gs)
    }

    fn split(&mut self, _cfg: &Cfg, n: NodeId, f: &Conj) -> Vec<(Conj, u32)> {
        let Some(atoms) = self.splits.get(&n) else {
            return vec![(f.clone(), 0)];
        };
        let mut parts = vec![(f.clone(), 0u32)];
        for (i, a) in atoms.iter().enumerate() {
            let neg = negate_atom(a);
            let mut next = Vec::new();
            for (p, cell) in parts {
                let mut yes = p.clone();
                yes.add(a);
                let mut no = p;
                no.add(&neg);
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

    fn partitioned(&self, n: NodeId) -> bool {
        self.splits.get(&n).is_some_and(|a| !a.is_empty())
    }

    /// The constraints the two facts share (syntactically, after normalisation): a hull
    /// keeps at least those.
    fn affinity(&self, a: &Conj, b: &Conj) -> usize {
        let ca = a.constraints();
        b.constraints().iter().filter(|c| ca.contains(c)).count()
    }

    fn join(&mut self, _cfg: &Cfg, _n: NodeId, old: &Conj, new: &Conj) -> Option<Conj> {
        self.stats.hulls += 1;
        Some(old.hull_within(new, &self.deadline))
    }

    fn widen(
        &mut self,
        cfg: &Cfg,
        n: NodeId,
        old: &Conj,
        new: &Conj,
        refine: bool,
    ) -> Option<Conj> {
        self.stats.widenings += 1;
        let mut ts = self.thresholds_at(cfg, n);
        // The partition atoms of the point and their negations: the fact's partition
        // cell holds them, and both operands lie in the same cell, so they stay.
        for a in self.splits.get(&n).into_iter().flatten() {
            ts.extend([a.clone(), negate_atom(a)]);
        }
        Some(old.widen(new, &ts, refine, &self.deadline))
    }
}
