//! Refinement of the widening (after Gulavani et al., TACAS 2008, and Halbwachs'
//! thresholds): when an infeasible abstract trace went through widened facts and no new
//! cell explains it, learn partition atoms and thresholds at the widening points it
//! passed, or widen later there.

use crate::cfg::{Cfg, NodeKind, ERROR_NODE};
use crate::domain::encode::{guard, Fresh};
use crate::domain::{cur_dim, entry_dim, split_atom, DlcDomain, Fact, RelDomain};
use crate::engine::{FactId, Tabulation, Widening};
use crate::ids::NodeId;
use crate::limits::Deadline;
use crate::linear::{threshold_family, Conj, Constraint, Dim, LinExpr, Q};
use crate::sema::ArraySize;
use crate::smt::Solvers;
use itertools::Itertools;
use std::collections::{BTreeMap, BTreeSet};
use std::sync::Arc;

/// What the refinement of the widening learnt from an infeasible abstract trace
/// that went through widened facts.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct WideningLesson {
    /// Widening points whose delay was raised, with the new delay.
    pub delays: Vec<(NodeId, u32)>,
    /// Widening points with new thresholds, and how many.
    pub thresholds: Vec<(NodeId, usize)>,
    /// Widening points with new partition atoms, and how many.
    pub splits: Vec<(NodeId, usize)>,
    /// Partitioned loop heads that keep disjuncts per partition cell from now on
    /// ([`Widening::disjunctive`]).
    pub disjunctive: Vec<NodeId>,
    /// Widening points whose disjunct bound was raised, with the new bound.
    pub disjuncts: Vec<(NodeId, usize)>,
}

impl WideningLesson {
    /// Whether anything was learnt.
    pub fn is_progress(&self) -> bool {
        !self.delays.is_empty()
            || !self.thresholds.is_empty()
            || !self.splits.is_empty()
            || !self.disjunctive.is_empty()
            || !self.disjuncts.is_empty()
    }

    /// Count `added` new partition atoms at `at` (one entry per point: the atoms learnt
    /// at a point are the last ones of its list).
    fn add_splits(&mut self, at: NodeId, added: usize) {
        match self.splits.iter_mut().find(|(m, _)| *m == at) {
            Some((_, k)) => *k += added,
            None => self.splits.push((at, added)),
        }
    }
}

/// Partition atoms per widening point, at most.
pub const MAX_SPLITS: usize = 3;

/// ... in a program with symbolic cells, whose loop heads need atoms over
/// indices (`k < i`) and over cell values (`a[k] < e`, `a[k] ≤ e`) at once.
pub const MAX_GHOST_SPLITS: usize = 5;

/// ... and with the atoms of symbolic-cell accesses (`k < i` for a write `a[i]`), which
/// may come after the others once another array gets a ghost: this many more.
pub const MORE_ACCESS_SPLITS: usize = 2;

/// What the refinement of the widening has learnt so far, per widening point.
#[derive(Clone, Debug, Default)]
pub struct Learnt {
    /// Thresholds (see [`crate::domain::DlcDomain::learnt`]).
    pub thresholds: BTreeMap<NodeId, Vec<Constraint>>,
    /// Partition atoms (see [`crate::domain::DlcDomain::splits`]).
    pub splits: BTreeMap<NodeId, Vec<Constraint>>,
    /// How many of the partition atoms at each point came from the saturation
    /// ([`saturation_atoms`]): they have a budget of their own, beside the other atoms'.
    pub saturated: BTreeMap<NodeId, usize>,
}

/// What identifies a variable of an abstraction across abstractions of the same program:
/// its name and kind (a ghost's bound, which grows with the arrays that share it, aside).
pub fn var_keys(phat: &Cfg) -> Vec<String> {
    use crate::sema::VarKind;
    phat.vars
        .iter()
        .map(|v| match v.kind {
            VarKind::Ghost { .. } => format!("{} ghost", v.name),
            ref k => format!("{} {k:?}", v.name),
        })
        .collect()
}

impl Learnt {
    /// The most partition atoms at `at` for a source whose budget is `cap`: the
    /// saturation's atoms there do not count.
    fn cap_at(&self, at: NodeId, cap: usize) -> usize {
        cap + self.saturated.get(&at).copied().unwrap_or(0)
    }

    /// Carry what was learnt over to the next abstraction `new` of the program, whose
    /// previous abstraction had the variables `old` ([`var_keys`]): a cell refinement adds
    /// variables, which moves the dimensions of the ones after them. A constraint over a
    /// variable that `new` lacks is dropped.
    pub fn carry_over(&mut self, old: &[String], new: &Cfg) {
        let new_keys = var_keys(new);
        if new_keys.as_slice() == old {
            return;
        }
        let at: BTreeMap<&String, usize> =
            new_keys.iter().enumerate().map(|(i, k)| (k, i)).collect();
        let map = |d: Dim| -> Option<Dim> {
            let v = old.get(d.0 as usize / 2)?;
            at.get(v).map(|&i| Dim(2 * i as u32 + d.0 % 2))
        };
        for cs in self.thresholds.values_mut().chain(self.splits.values_mut()) {
            *cs = cs
                .iter()
                .filter(|c| c.expr.coeffs().keys().all(|d| map(*d).is_some()))
                .map(|c| c.rename(&|d| map(d).expect("checked")))
                .collect();
        }
        // An atom dropped may have been the saturation's: the count stays an upper bound.
        for (n, count) in &mut self.saturated {
            *count = (*count).min(self.splits.get(n).map_or(0, Vec::len));
        }
    }
}

/// Disjunct bounds are not raised beyond this.
pub const MAX_DISJUNCT_BOUND: usize = 16 * crate::engine::DEFAULT_MAX_DISJUNCTS;

/// Delays are not raised beyond this (then only thresholds can make progress).
pub const MAX_DELAY: u32 = 256;

/// The read rule's partner derivations that a widening refinement looks into.
pub const MAX_PARTNER_PATHS: usize = 32;

/// Refine the widening after the abstract error trace of fact `err` in `tab` (a tabulation
/// of the abstraction `phat`) was found infeasible (Gulavani et al., TACAS 2008: widen
/// later where the spurious trace was widened; Halbwachs' thresholds from the trace):
/// - at the last widened point on the trace, if the rest of the trace stays in one
///   activation (no call or exit), the states there from which that suffix reaches the
///   error are computed with the DLC domain (a pre-image, forward from a snapshot of the
///   variables); its saturation ([`saturation_atoms`]) gives partition atoms there,
///   tried alone; if it adds none, the threshold families of its constraints are learnt
///   at that point, so that the next widenings can keep the states out of it, and
///   partition atoms come from the accesses of the loops ([`learn_access_atoms`]), the
///   branches of the last loop iteration and the pre-image;
/// - if nothing new was learnt that way, every widening point with a widened fact on the
///   trace gets a longer delay (doubled, and longer than the chain that was widened), up
///   to [`MAX_DELAY`].
pub fn refine_widening(
    phat: &Cfg,
    tab: &Tabulation<Fact>,
    err: FactId,
    widening: &mut Widening,
    learnt: &mut Learnt,
    solvers: &Solvers,
    deadline: &Deadline,
) -> WideningLesson {
    let mut lesson = WideningLesson::default();
    let facts = tab.path_facts(err);
    // The trace and the derivations of the read rule's partners it used.
    let mut paths = vec![facts.clone()];
    paths.extend(tab.partner_paths(err, MAX_PARTNER_PATHS));
    let splits = Splits::of(phat);
    let suffix = Suffix::of(phat, tab, &facts, solvers, deadline);
    if let Some(suffix) = &suffix {
        learn_saturation(phat, suffix, &splits, learnt, &mut lesson, deadline);
    }
    // The saturation's atoms are tried alone first: each atom more doubles the parts the
    // next tabulation may keep apart.
    if !lesson.is_progress() {
        learn_access_atoms(phat, tab, &paths, &splits, learnt, &mut lesson);
        if let Some(suffix) = &suffix {
            learn_from_suffix(phat, tab, &facts, suffix, &splits, learnt, &mut lesson);
        }
        learn_from_partners(phat, tab, &facts, learnt, &mut lesson, solvers, deadline);
    }
    carry_atoms_forward(phat, &splits, learnt, &mut lesson);
    let points = crate::engine::Points::of(phat);
    if !lesson.is_progress() {
        share_atoms(phat, &points, tab, &facts, &splits, learnt, &mut lesson);
    }
    // Widen later only when nothing new was learnt to widen better with.
    if !lesson.is_progress() {
        widen_later(&points, tab, &paths, widening, &mut lesson);
    }
    lesson
}

/// When the trace taught nothing new where it was widened: offer the partition atoms
/// known at each loop head of the trace to the loop heads of the same procedure that the
/// trace passed before it, each where the trace's fact there constrains every variable of
/// the atom. What tells the states at a later loop head apart (`k < r`, `a_k < e` before
/// a loop that checks every cell below `r`) is what the earlier loop had to establish:
/// the predicates of an interpolant at a later cut point are candidates at the earlier
/// ones.
fn share_atoms(
    phat: &Cfg,
    points: &crate::engine::Points,
    tab: &Tabulation<Fact>,
    facts: &[FactId],
    splits: &Splits,
    learnt: &mut Learnt,
    lesson: &mut WideningLesson,
) {
    // The loop heads in the order the trace first reaches them, each with the trace's
    // last fact there.
    let mut heads: Vec<(NodeId, FactId)> = Vec::new();
    for &f in facts {
        let q = tab.fact(f).node;
        if points.kind[q] != crate::engine::PointKind::LoopHead {
            continue;
        }
        match heads.iter_mut().find(|(h, _)| *h == q) {
            Some(h) => h.1 = f,
            None => heads.push((q, f)),
        }
    }
    for (i, &(q, f)) in heads.iter().enumerate() {
        let present = tab.fact(f).fact.conj.dims();
        let proc = phat.nodes[q].proc;
        let later: Vec<Constraint> = heads[i + 1..]
            .iter()
            .filter(|(p, _)| phat.nodes[*p].proc == proc)
            .flat_map(|(p, _)| learnt.splits.get(p).cloned().unwrap_or_default())
            .filter(|a| a.expr.coeffs().keys().all(|d| present.contains(d)) && !splits.anyway(q, a))
            .collect();
        let cap = learnt.cap_at(q, splits.cap);
        let added = add_new(learnt.splits.entry(q).or_default(), later, cap);
        if added > 0 {
            lesson.add_splits(q, added);
        }
    }
}

/// Offer the partition atoms learnt at each loop head to the loops after it in the same
/// procedure, where the atom's variables are all live and none is assigned in the loop.
/// Such an atom's truth never changes inside that loop: partitioning by it keeps apart
/// states the loop never moves between, and what the earlier loop established on each
/// side of it (`∀k < nc. c[k] < 0`, split by `k < nc`) survives the later loop's joins
/// (a loop that checks every cell below `nc`).
fn carry_atoms_forward(
    phat: &Cfg,
    splits: &Splits,
    learnt: &mut Learnt,
    lesson: &mut WideningLesson,
) {
    use crate::ids::VarId;
    let live = crate::engine::live_vars(phat, &BTreeSet::new());
    for (p, _) in phat.procs.iter_enumerated() {
        let loops = phat.natural_loops(p);
        let assigned: Vec<BTreeSet<VarId>> = loops
            .iter()
            .map(|(_, body)| assigned_in(phat, body))
            .collect();
        for (i, (from, from_body)) in loops.iter().enumerate() {
            let Some(atoms) = learnt.splits.get(from).cloned() else {
                continue;
            };
            for (j, (to, to_body)) in loops.iter().enumerate() {
                // Later: reached after `from`'s loop, not nested with it.
                if i == j
                    || from_body.contains(to)
                    || to_body.contains(from)
                    || !phat.reaches_within(*from, *to)
                {
                    continue;
                }
                // Over current values only, each live at `to` and kept by its loop.
                let ok = |a: &Constraint| {
                    a.expr.coeffs().keys().all(|&d| {
                        let v = VarId(d.0 / 2);
                        d == cur_dim(v) && live[*to].contains(&v) && !assigned[j].contains(&v)
                    }) && !splits.anyway(*to, a)
                };
                let new: Vec<Constraint> = atoms.iter().filter(|a| ok(a)).cloned().collect();
                let cap = learnt.cap_at(*to, splits.cap);
                let added = add_new(learnt.splits.entry(*to).or_default(), new, cap);
                if added > 0 {
                    lesson.add_splits(*to, added);
                }
            }
        }
    }
}

/// The variables the nodes `body` (a loop's) may assign, its calls' included: a call may
/// assign every global that some node of `phat` assigns (a ghost never is).
fn assigned_in(phat: &Cfg, body: &BTreeSet<NodeId>) -> BTreeSet<crate::ids::VarId> {
    let calls = body
        .iter()
        .any(|n| matches!(phat.nodes[*n].kind, NodeKind::Call { .. }));
    let globals: BTreeSet<_> = phat.globals.iter().copied().collect();
    let mut out = BTreeSet::new();
    for (i, node) in phat.nodes.iter_enumerated() {
        let NodeKind::Assign { lhs, .. } = &node.kind else {
            continue;
        };
        if body.contains(&i) {
            out.extend(lhs.iter().copied());
        } else if calls {
            out.extend(lhs.iter().filter(|v| globals.contains(v)).copied());
        }
    }
    out
}

/// ACSAR's saturation (its semantic widening) at the widening point `at`: the
/// states there that satisfy the equalities of the trace's fact (`fact`) and from which
/// its suffix reaches the error (a disjunct of `pre`), projected onto the variables `at`'s
/// loop never assigns.
/// What remains are the consequences of the two that the loop cannot change (`k < n`
/// from `j < n ∧ j == k` when only `j` moves; `2k + 1 < n` from `i == 2j + 1 ∧ i < n ∧
/// j == k` when `i` and `j` do): partition atoms whose truth is fixed for the whole loop,
/// so the partition they make survives its joins and widenings. Only those relating a
/// ghost (the cells' index) to a variable are kept: they say which cells the error is
/// about (a bound on the ghost alone is the trace's constants, or its range). Not at a
/// point outside a natural loop (a recursive procedure's widening point).
fn saturation_atoms(
    phat: &Cfg,
    at: NodeId,
    fact: &Conj,
    pre: &[Conj],
    deadline: &Deadline,
) -> Vec<Constraint> {
    let ghosts: BTreeSet<Dim> = phat.ghosts().into_iter().map(cur_dim).collect();
    let Some(p) = phat.nodes[at].proc else {
        return Vec::new();
    };
    if ghosts.is_empty() {
        return Vec::new();
    }
    let Some((_, body)) = phat.natural_loops(p).into_iter().find(|(h, _)| *h == at) else {
        return Vec::new();
    };
    let assigned = assigned_in(phat, &body);
    let keep: BTreeSet<Dim> = phat
        .in_scope(at)
        .into_iter()
        .filter(|v| !assigned.contains(v))
        .map(cur_dim)
        .collect();
    // The fact's equalities between the variables the loop moves only: the loop's affine
    // invariants (`i == 2j + 1`), not the values of the iterations unrolled so far
    // (`j == 0`, `n == 4`).
    let moved: BTreeSet<Dim> = assigned.iter().map(|v| cur_dim(*v)).collect();
    let eqs: Vec<Constraint> = fact
        .constraints()
        .into_iter()
        .filter(|c| {
            c.rel == crate::linear::Rel::Eq
                && c.expr.coeffs().len() >= 2
                && c.expr.coeffs().keys().all(|d| moved.contains(d))
        })
        .collect();
    let fact = Conj::from_constraints(&eqs);
    let mut out = Vec::new();
    for d in pre {
        let both = fact.and(d);
        if both.is_empty() {
            continue;
        }
        let gone: Vec<Dim> = both
            .dims()
            .into_iter()
            .filter(|x| !keep.contains(x))
            .collect();
        let rest = both.project_out_within(&gone, deadline);
        out.extend(
            rest.half_constraints()
                .iter()
                .filter(|c| {
                    let (g, other): (Vec<&Dim>, Vec<&Dim>) =
                        c.expr.coeffs().keys().partition(|x| ghosts.contains(x));
                    !g.is_empty() && !other.is_empty()
                })
                .filter_map(split_atom),
        );
    }
    // One atom per pair of terms (per linear form), as ACSAR's `s < t`: the disjuncts'
    // other bounds on the same form are the trace's constants.
    out.into_iter()
        .unique_by(|a| a.expr.coeffs().clone())
        .collect()
}

/// Where partition atoms may be learnt, and how many.
struct Splits {
    /// The partition every abstraction has anyway: learning it again would take a place.
    always: BTreeMap<NodeId, Vec<Constraint>>,
    /// The ghosts' ranges: each ghost (by variable index) lies in `0 ..= hi` (`hi`
    /// unknown where some array of the ghost has a variable size).
    ghosts: BTreeMap<u32, Option<u64>>,
    /// Atoms per point, at most.
    cap: usize,
}

impl Splits {
    fn of(phat: &Cfg) -> Splits {
        use crate::ids::Idx;
        use crate::sema::VarKind;
        let ghosts: BTreeMap<u32, Option<u64>> = phat
            .ghosts()
            .into_iter()
            .filter_map(|g| match phat.vars[g].kind {
                VarKind::Ghost { bound, .. } => Some((g.index() as u32, bound.map(|b| b - 1))),
                _ => None,
            })
            .collect();
        Splits {
            always: ghost_splits(phat),
            cap: if ghosts.is_empty() {
                MAX_SPLITS
            } else {
                MAX_GHOST_SPLITS
            },
            ghosts,
        }
    }

    /// Whether every abstraction has the atom `a` at `at` anyway: one it has from the
    /// start, or a bound on a ghost alone that the ghost's range decides (`k ≤ -1`, or
    /// `k ≤ size - 1` for an array of constant size), which splits no state.
    fn anyway(&self, at: NodeId, a: &Constraint) -> bool {
        self.always.get(&at).is_some_and(|g| g.contains(a)) || self.decided_by_range(a)
    }

    fn decided_by_range(&self, a: &Constraint) -> bool {
        use num_traits::Signed;
        let mut terms = a.expr.coeffs().iter();
        let (Some((d, c)), None) = (terms.next(), terms.next()) else {
            return false;
        };
        let Some(hi) = self.ghosts.get(&(d.0 / 2)) else {
            return false;
        };
        if a.rel != crate::linear::Rel::Le {
            return false;
        }
        // `c·k + e ≤ 0` is `k ≤ t` for `c > 0` and `k ≥ t` for `c < 0`, with `t = -e/c`.
        let q = |n: u64| Q::from_integer(n.into());
        let t = -(a.expr.constant_term().clone()) / c.clone();
        if c.is_positive() {
            // Nowhere for `t < 0`; everywhere for `t ≥ hi`.
            t < q(0) || hi.is_some_and(|h| t >= q(h))
        } else {
            // Everywhere for `t ≤ 0`; nowhere for `t > hi`.
            t <= q(0) || hi.is_some_and(|h| t > q(h))
        }
    }
}

/// At every widened loop head on `paths` (the trace and its partners' derivations): the
/// accesses to symbolic cells in its last iteration before the widened visit, then those
/// just before the loop, then the earlier iterations, as partition atoms there.
fn learn_access_atoms(
    phat: &Cfg,
    tab: &Tabulation<Fact>,
    paths: &[Vec<FactId>],
    splits: &Splits,
    learnt: &mut Learnt,
    lesson: &mut WideningLesson,
) {
    let mut done = BTreeSet::new();
    for path in paths {
        for w in (0..path.len()).rev().filter(|&i| tab.fact(path[i]).widened) {
            let at = tab.fact(path[w]).node;
            if !done.insert(at) {
                continue;
            }
            let Some(prev) = (0..w).rev().find(|&i| tab.fact(path[i]).node == at) else {
                continue;
            };
            // Then the accesses just before the loop, back to the previous loop on the
            // path: `m = a[lo]` before a loop from `lo + 1` separates the cells below
            // `lo` (`k < lo`) from the slice the loop grows.
            let first = (0..w)
                .find(|&i| tab.fact(path[i]).node == at)
                .unwrap_or(prev);
            let mut visits: BTreeMap<NodeId, usize> = BTreeMap::new();
            for f in &path[..first] {
                *visits.entry(tab.fact(*f).node).or_default() += 1;
            }
            let preamble = path[..first]
                .iter()
                .rev()
                .copied()
                .take_while(|f| visits[&tab.fact(*f).node] == 1);
            // The last iteration first, then the preamble, then the earlier iterations
            // (another branch of the body may write another array, at another index).
            let atoms: Vec<Constraint> = path[prev..w]
                .iter()
                .copied()
                .chain(preamble)
                .chain(path[first..prev].iter().copied())
                .flat_map(|f| symbolic_access_atoms(phat, tab.fact(f).node))
                .collect();
            let atoms = atoms.into_iter().filter(|a| !splits.anyway(at, a));
            let cap = learnt.cap_at(at, splits.cap + MORE_ACCESS_SPLITS);
            let added = add_new(learnt.splits.entry(at).or_default(), atoms, cap);
            if added > 0 {
                lesson.add_splits(at, added);
            }
        }
    }
}

/// The rest of the trace from its last widened point.
struct Suffix {
    /// The position of that point on the trace's facts.
    last: usize,
    /// The widening point.
    at: NodeId,
    /// The trace's fact there.
    fact: Conj,
    /// The states there from which the rest of the trace reaches the error, if the rest
    /// stays in one activation ([`suffix_preimage`]).
    pre: Option<Vec<Conj>>,
}

impl Suffix {
    /// The suffix of the trace `facts` from its last widened point, if any.
    fn of(
        phat: &Cfg,
        tab: &Tabulation<Fact>,
        facts: &[FactId],
        solvers: &Solvers,
        deadline: &Deadline,
    ) -> Option<Suffix> {
        let last = (0..facts.len())
            .rev()
            .find(|&i| tab.fact(facts[i]).widened)?;
        let at = tab.fact(facts[last]).node;
        let nodes: Vec<NodeId> = facts[last..].iter().map(|f| tab.fact(*f).node).collect();
        Some(Suffix {
            last,
            at,
            fact: tab.fact(facts[last]).fact.conj.clone(),
            pre: suffix_preimage(phat, &nodes, solvers, deadline),
        })
    }
}

/// At the last widened point on the trace: the saturation's atoms
/// ([`saturation_atoms`]). They come before every other atom learnt there: they are what
/// the loop cannot move the states across.
fn learn_saturation(
    phat: &Cfg,
    suffix: &Suffix,
    splits: &Splits,
    learnt: &mut Learnt,
    lesson: &mut WideningLesson,
    deadline: &Deadline,
) {
    let Some(pre) = &suffix.pre else {
        return;
    };
    let at = suffix.at;
    let atoms = saturation_atoms(phat, at, &suffix.fact, pre, deadline)
        .into_iter()
        .filter(|a| !splits.anyway(at, a));
    let known = learnt.splits.entry(at).or_default();
    let count = learnt.saturated.entry(at).or_default();
    let added = add_new(
        known,
        atoms,
        known.len().saturating_sub(*count) + splits.cap,
    );
    *count += added;
    if added > 0 {
        lesson.add_splits(at, added);
    }
}

/// At the last widened point on the trace `facts`: partition atoms from the branch
/// conditions of the last loop iteration before the widened visit (the phases of the
/// loop) and from the pre-image of the rest of the trace, and that pre-image's threshold
/// families.
fn learn_from_suffix(
    phat: &Cfg,
    tab: &Tabulation<Fact>,
    facts: &[FactId],
    suffix: &Suffix,
    splits: &Splits,
    learnt: &mut Learnt,
    lesson: &mut WideningLesson,
) {
    let (last, at) = (suffix.last, suffix.at);
    let mut atoms: Vec<Constraint> = Vec::new();
    if let Some(prev) = (0..last).rev().find(|&i| tab.fact(facts[i]).node == at) {
        for f in &facts[prev..last] {
            if let NodeKind::Branch { cond, .. } = &phat.nodes[tab.fact(*f).node].kind {
                let mut fresh = Fresh::new(2 * phat.vars.len() as u32);
                let dnf = guard(cond, true, &cur_dim, &mut fresh);
                if let [case] = dnf.as_slice() {
                    atoms.extend(case.iter().filter_map(split_atom));
                }
            }
        }
    }
    let pre = &suffix.pre;
    if let Some(pre) = pre {
        atoms.extend(
            pre.iter()
                .flat_map(|d| d.half_constraints())
                .filter_map(|c| split_atom(&c)),
        );
    }
    // Over variables live at the point: a temporary the loop assigns before it reads it
    // (an instantiated read's `#inst`) holds a stale value there, and splits nothing.
    let live = &crate::engine::live_vars(phat, &BTreeSet::new())[at];
    let live_dim = |d: &Dim| {
        let v = crate::ids::VarId(d.0 / 2);
        *d == cur_dim(v) && live.contains(&v)
    };
    let atoms = atoms
        .into_iter()
        .filter(|a| a.expr.coeffs().keys().all(live_dim) && !splits.anyway(at, a));
    let cap = learnt.cap_at(at, splits.cap);
    let added = add_new(learnt.splits.entry(at).or_default(), atoms, cap);
    if added > 0 {
        lesson.add_splits(at, added);
    }
    if let Some(pre) = pre {
        learn_thresholds(at, pre, learnt, lesson);
    }
}

/// Learn the threshold families of the constraints of `pre` (states at widening point
/// `at`) there, counting the new ones in `lesson`.
fn learn_thresholds(at: NodeId, pre: &[Conj], learnt: &mut Learnt, lesson: &mut WideningLesson) {
    let known = learnt.thresholds.entry(at).or_default();
    let before = known.len();
    for t in pre
        .iter()
        .flat_map(|d| d.half_constraints())
        .flat_map(|c| threshold_family(&c))
    {
        if !known.contains(&t) {
            known.push(t);
        }
    }
    let added = known.len() - before;
    if added > 0 {
        match lesson.thresholds.iter_mut().find(|(m, _)| *m == at) {
            Some((_, k)) => *k += added,
            None => lesson.thresholds.push((at, added)),
        }
    }
}

/// Through the read rule's partners: where the trace used a partner's cell value
/// (`Origin::Inst`), the states from which the rest of the trace reaches the error give,
/// over the read's temporary and index, the cell values the partner must not have
/// (`a_k ≥ 1` at `k# = k` for a check `a[k] ≤ 0`). That goal is carried into the
/// partner's derivation: at the last widened visit of every widening point on it, the
/// pre-image of the rest of the partner's path ending in the goal gives thresholds there
/// (`j ≤ 0` for the loop that wrote `a[i] = j`, `a_k ≤ 0`). Without this the thresholds
/// come only from the trace's last widened point, and a cell value lost by an earlier
/// loop that wrote it stays lost. Per read, the last use on the trace is followed (its
/// suffix is the shortest); the partners' own partners are not (their goals would pass
/// through two reads, along paths as long as the trace).
fn learn_from_partners(
    phat: &Cfg,
    tab: &Tabulation<Fact>,
    facts: &[FactId],
    learnt: &mut Learnt,
    lesson: &mut WideningLesson,
    solvers: &Solvers,
    deadline: &Deadline,
) {
    let node_of = |f: &FactId| tab.fact(*f).node;
    let mut reads_done = BTreeSet::new();
    let mut goals: Vec<(FactId, Vec<Conj>)> = Vec::new();
    for (i, f) in facts.iter().enumerate().skip(1).rev() {
        let crate::engine::Origin::Inst { partner, .. } = tab.fact(*f).origin else {
            continue;
        };
        let read = node_of(&facts[i - 1]);
        if goals.len() >= MAX_PARTNER_PATHS || !reads_done.insert(read) {
            continue;
        }
        let Some(inst) = phat.inst_reads.get(&read).filter(|r| r.second.is_none()) else {
            continue;
        };
        let nodes: Vec<NodeId> = facts[i - 1..].iter().map(node_of).collect();
        let Some(pre) = suffix_preimage(phat, &nodes, solvers, deadline) else {
            continue;
        };
        let need = partner_goal(phat, inst, &pre, deadline);
        if !need.is_empty() {
            goals.push((partner, need));
        }
    }
    for (partner, goal) in goals {
        let path = tab.path_facts(partner);
        let mut last_visit: BTreeMap<NodeId, usize> = BTreeMap::new();
        for (i, f) in path.iter().enumerate() {
            if tab.fact(*f).widened {
                last_visit.insert(node_of(f), i);
            }
        }
        for (at, i) in last_visit {
            let nodes: Vec<NodeId> = path[i..].iter().map(node_of).collect();
            let Some(pre) = path_preimage(phat, &nodes, Some(&goal), solvers, deadline) else {
                continue;
            };
            learn_thresholds(at, &pre, learnt, lesson);
        }
    }
}

/// What a partner at the read `inst` must satisfy for the trace to go on from the read
/// as `pre` (states at the read, over the trace's current values) says: each disjunct
/// of `pre` that constrains a read's temporary, with the temporary standing for the
/// partner's cell and the index for its ghost, the trace's own values projected out.
fn partner_goal(
    phat: &Cfg,
    inst: &crate::cfg::InstRead,
    pre: &[Conj],
    deadline: &Deadline,
) -> Vec<Conj> {
    use crate::domain::encode::{flatten, flatten_size};
    if flatten_size(&inst.index) != 1 {
        return Vec::new();
    }
    let mut fresh = Fresh::new(2 * phat.vars.len() as u32);
    let cases = flatten(&inst.index, &entry_dim, &mut fresh);
    let [(guards, index)] = cases.as_slice() else {
        return Vec::new();
    };
    if !guards.is_empty() {
        return Vec::new();
    }
    let mut out = Vec::new();
    for d in pre {
        let dims = d.dims();
        if !inst.reads.iter().any(|(_, t)| dims.contains(&cur_dim(*t))) {
            continue;
        }
        // The trace's values move to the entry dimensions, the partner's are current.
        let mut c = d.rename(&|x| Dim(x.0 & !1));
        c.add(&Constraint::eq(&LinExpr::var(cur_dim(inst.ghost)), index));
        for (cell, temp) in &inst.reads {
            c.add(&Constraint::eq(
                &LinExpr::var(cur_dim(*cell)),
                &LinExpr::var(entry_dim(*temp)),
            ));
        }
        let trace: Vec<Dim> = c.dims().into_iter().filter(|x| x.0 % 2 == 0).collect();
        let p = c.project_out_within(&trace, deadline);
        if !p.is_empty() && !p.constraints().is_empty() {
            out.push(p);
        }
    }
    out
}

/// Every widening point with a widened fact on `paths` widens later: a partitioned loop
/// head that merged its cells' facts keeps disjuncts from now on, at the same delay (which
/// then counts visits along a chain again); a second time, or elsewhere, the delay doubles
/// (and exceeds the chain that was widened), up to [`MAX_DELAY`]. A fact enlarged before
/// its chain reached the delay was merged at the disjunct bound, not widened (a longer
/// delay would change nothing): at a loop head the bound doubles instead, up to
/// [`MAX_DISJUNCT_BOUND`]. (At a recursive procedure's entry or exit a merge is widened
/// by its partner at once, and the delay is what refines it.)
fn widen_later(
    points_of: &crate::engine::Points,
    tab: &Tabulation<Fact>,
    paths: &[Vec<FactId>],
    widening: &mut Widening,
    lesson: &mut WideningLesson,
) {
    // Per point, in the order of the paths: the first widened fact's depth, and whether
    // one of them was merged before the delay.
    let mut points: Vec<(NodeId, u32, bool)> = Vec::new();
    for r in paths
        .iter()
        .flatten()
        .map(|f| tab.fact(*f))
        .filter(|r| r.widened)
    {
        let merged = r.depth < widening.delay_at(r.node);
        match points.iter_mut().find(|p| p.0 == r.node) {
            Some(p) => p.2 |= merged,
            None => points.push((r.node, r.depth, merged)),
        }
    }
    for (n, depth, merged) in points {
        if widening.merges_cells_at(n) && widening.disjunctive.insert(n) {
            lesson.disjunctive.push(n);
            continue;
        }
        let bound = widening.disjunct_bound_at(n);
        if merged
            && points_of.kind[n] == crate::engine::PointKind::LoopHead
            && bound < MAX_DISJUNCT_BOUND
        {
            let new = (2 * bound).min(MAX_DISJUNCT_BOUND);
            widening.disjunct_bounds.insert(n, new);
            lesson.disjuncts.push((n, new));
            continue;
        }
        let old = widening.delay_at(n);
        let new = (2 * old).max(depth + 1).min(MAX_DELAY);
        if new > old {
            widening.delays.insert(n, new);
            lesson.delays.push((n, new));
        }
    }
}

/// Append the constraints of `new` that `known` lacks, while it has fewer than `cap`;
/// returns how many were added.
pub fn add_new(
    known: &mut Vec<Constraint>,
    new: impl IntoIterator<Item = Constraint>,
    cap: usize,
) -> usize {
    let before = known.len();
    for c in new {
        if known.len() >= cap {
            break;
        }
        if !known.contains(&c) {
            known.push(c);
        }
    }
    known.len() - before
}

/// The partition atoms that symbolic cells of variable-size arrays need from the start:
/// `k < size` at every node of the array's procedure (the engine consults them
/// at its widening points). Cells at or past the size are never accessed and stay
/// arbitrary; a merge or widening that mixed them with the cells in range would lose what
/// the loops established about the latter.
pub fn ghost_splits(phat: &Cfg) -> BTreeMap<NodeId, Vec<Constraint>> {
    use crate::sema::VarKind;
    let mut out: BTreeMap<NodeId, Vec<Constraint>> = BTreeMap::new();
    let ghosts = phat.ghosts();
    // A cell at an index term of the ghost, `b_t` with `t` a term of `k`, holds a
    // cell of its array only where `0 ≤ t < size`: the atoms `t < 0` and `t < size` keep
    // the ghost's values where it does apart from those where it does not, as `k < size`
    // does for the ghost's own cells.
    if let Some(&ghost) = ghosts.first() {
        for v in phat.vars.iter() {
            let VarKind::TermCell { array, proc, term } = v.kind else {
                continue;
            };
            let q = |n: i64| crate::linear::Q::from_integer(n.into());
            let term = LinExpr::from_parts(
                [(cur_dim(ghost), q(term.coef))]
                    .into_iter()
                    .chain(term.by.map(|(v, c)| (cur_dim(v), q(c)))),
                q(term.offset),
            );
            // t < size: t - size + 1 ≤ 0.
            let mut below = match phat.arrays[array].size {
                ArraySize::Dynamic(size) => term.clone() - LinExpr::var(cur_dim(size)),
                ArraySize::Const(c) => {
                    term.clone() - LinExpr::int(i64::try_from(c).unwrap_or(i64::MAX))
                }
            };
            below.add_constant(&q(1));
            // t < 0: t + 1 ≤ 0.
            let mut neg = term;
            neg.add_constant(&q(1));
            let atoms: Vec<Constraint> = [below, neg]
                .into_iter()
                .filter_map(|e| split_atom(&Constraint::new(e, crate::linear::Rel::Le)))
                .collect();
            for (n, node) in phat.nodes.iter_enumerated() {
                if proc.is_none() || node.proc == proc {
                    add_new(out.entry(n).or_default(), atoms.iter().cloned(), usize::MAX);
                }
            }
        }
    }
    for (ghost, v) in ghosts
        .iter()
        .flat_map(|g| phat.vars.iter().map(move |v| (*g, v)))
    {
        let VarKind::SymCell {
            array,
            proc: Some(p),
        } = v.kind
        else {
            continue;
        };
        let ArraySize::Dynamic(size) = phat.arrays[array].size else {
            continue;
        };
        // k < size, i.e. k - size + 1 ≤ 0.
        let mut e = LinExpr::var(cur_dim(ghost)) - LinExpr::var(cur_dim(size));
        e.add_constant(&crate::linear::Q::from_integer(1.into()));
        let Some(atom) = split_atom(&Constraint::new(e, crate::linear::Rel::Le)) else {
            continue;
        };
        for (n, node) in phat.nodes.iter_enumerated() {
            if node.proc == Some(p) {
                add_new(out.entry(n).or_default(), [atom.clone()], usize::MAX);
            }
        }
    }
    if !ghosts.is_empty() {
        for (head, atoms) in loop_equality_atoms(phat) {
            add_new(out.entry(head).or_default(), atoms, usize::MAX);
        }
    }
    out
}

/// For a loop with a test of an equality between variables (`r == n`, a search's "not
/// found yet", in its condition or in a branch of its body), the partition atoms `s < t`
/// and `s > t` at its head. The states where the test holds and those where it does not
/// then stay in parts of their own: the hull of the two (`r == n` before the find,
/// `r == i - 1` after it) keeps neither relation, and what the loop established for the
/// cells below the find is lost with them. Only tests of two linear terms over the
/// program's scalars (no reads, cells or ghosts).
fn loop_equality_atoms(phat: &Cfg) -> BTreeMap<NodeId, Vec<Constraint>> {
    use crate::sema::{CmpOp, Expr, VarKind};
    let mut out: BTreeMap<NodeId, Vec<Constraint>> = BTreeMap::new();
    let vars = 2 * phat.vars.len() as u32;
    let scalar = |e: &Expr| {
        !e.has_effects()
            && e.vars().iter().all(|v| {
                matches!(
                    phat.vars[*v].kind,
                    VarKind::Local(_) | VarKind::Global | VarKind::Formal(_)
                )
            })
    };
    for (p, _) in phat.procs.iter_enumerated() {
        for (head, body) in phat.natural_loops(p) {
            let mut atoms: Vec<Constraint> = Vec::new();
            for n in &body {
                let NodeKind::Branch { cond, .. } = &phat.nodes[*n].kind else {
                    continue;
                };
                cond.visit(&mut |x| {
                    let Expr::Cmp(CmpOp::Eq | CmpOp::Ne, a, b) = x else {
                        return;
                    };
                    if !scalar(a) || !scalar(b) {
                        return;
                    }
                    let eq = Expr::Cmp(CmpOp::Eq, a.clone(), b.clone());
                    let mut fresh = Fresh::new(vars);
                    let dnf = guard(&eq, true, &cur_dim, &mut fresh);
                    let [case] = dnf.as_slice() else {
                        return;
                    };
                    for c in case.iter().filter(|c| {
                        c.rel == crate::linear::Rel::Eq
                            && c.expr.coeffs().len() >= 2
                            && c.expr.coeffs().keys().all(|d| d.0 < vars)
                    }) {
                        let one = Q::from_integer(1.into());
                        let mut below = c.expr.clone();
                        below.add_constant(&one);
                        let mut above = LinExpr::int(0) - c.expr.clone();
                        above.add_constant(&one);
                        atoms.extend([below, above].into_iter().filter_map(|e| {
                            split_atom(&Constraint::new(e, crate::linear::Rel::Le))
                        }));
                    }
                });
            }
            add_new(out.entry(head).or_default(), atoms, usize::MAX);
        }
    }
    out
}

/// For a node accessing a symbolic cell at index `e` (a write
/// `a_k = (... && e == k ? v : a_k)` or a read `(e == k ? a_k : inst)`), the
/// partition atom `k < e`: the cells below `e` are the ones a loop counting up has
/// written or read so far (and `k ≥ e` those still to come). When the counters of the
/// procedure (`v = v ± c`) move `e` down, as in `a[2*n - i - 1]` with `i++`, the cells
/// done so far are those above `e`, and the atom is `k ≤ e`; when the direction is mixed,
/// both.
fn symbolic_access_atoms(phat: &Cfg, n: NodeId) -> Vec<Constraint> {
    use crate::sema::{CmpOp, Expr, VarKind};
    // With two ghosts an instantiated read is its temporary alone: its index tests are
    // those of the ghosts' own cells, `i == k1` and `i == k2`.
    let inst_tests: Vec<Expr> = phat
        .inst_reads
        .get(&n)
        .and_then(|r| r.second.as_ref().map(|s| (r, s)))
        .map(|(r, s)| {
            [r.ghost, s.ghost]
                .into_iter()
                .map(|k| Expr::Cmp(CmpOp::Eq, Box::new(r.index.clone()), Box::new(Expr::Var(k))))
                .collect()
        })
        .unwrap_or_default();
    let exprs: Vec<&Expr> = match &phat.nodes[n].kind {
        NodeKind::Assign { rhs, .. } => rhs.iter().collect(),
        NodeKind::Branch { cond, .. } | NodeKind::Assume { cond, .. } => vec![cond],
        _ => Vec::new(),
    }
    .into_iter()
    .chain(&inst_tests)
    .collect();
    let strip = |e: Expr| {
        e.map_bottom_up(&mut |y| match y {
            Expr::Wrap(_, y) | Expr::Overflow(_, y) => *y,
            y => y,
        })
    };
    // The signs of the constant steps `v = v ± c` of each variable of the procedure.
    // And the constants they start from (`v = c`).
    let mut steps: BTreeMap<crate::ids::VarId, BTreeSet<bool>> = BTreeMap::new();
    let mut starts: BTreeMap<crate::ids::VarId, BTreeSet<num_bigint::BigInt>> = BTreeMap::new();
    for node in phat.nodes.iter().filter(|m| m.proc == phat.nodes[n].proc) {
        let NodeKind::Assign { lhs, rhs, .. } = &node.kind else {
            continue;
        };
        for (v, e) in lhs.iter().zip(rhs) {
            if let Expr::Const(c) = e {
                starts.entry(*v).or_default().insert(c.clone());
            }
            let step = match strip(e.clone()) {
                Expr::Add(a, b) => match (*a, *b) {
                    (Expr::Var(x), Expr::Const(c)) | (Expr::Const(c), Expr::Var(x)) if x == *v => {
                        Some(c)
                    }
                    _ => None,
                },
                Expr::Sub(a, b) => match (*a, *b) {
                    (Expr::Var(x), Expr::Const(c)) if x == *v => Some(-c),
                    _ => None,
                },
                _ => None,
            };
            if let Some(c) = step.filter(|c| *c != 0.into()) {
                steps.entry(*v).or_default().insert(c > 0.into());
            }
        }
    }
    // The (in)equality tests between two expressions in the procedure, both ways.
    let mut skipped: Vec<(Expr, Expr)> = Vec::new();
    for node in phat.nodes.iter().filter(|m| m.proc == phat.nodes[n].proc) {
        let (NodeKind::Branch { cond, .. } | NodeKind::Assume { cond, .. }) = &node.kind else {
            continue;
        };
        if let Expr::Cmp(CmpOp::Ne | CmpOp::Eq, a, b) = cond {
            let vars = |e: &Expr| {
                e.vars()
                    .iter()
                    .all(|v| !matches!(phat.vars[*v].kind, VarKind::Ghost { .. }))
            };
            if vars(a) && vars(b) && !a.has_effects() && !b.has_effects() {
                skipped.push(((**a).clone(), (**b).clone()));
                skipped.push(((**b).clone(), (**a).clone()));
            }
        }
    }
    let mut index_atoms: Vec<Expr> = Vec::new();
    // A read compared with `==` or `!=` to a value `w` without cells (`a[i] != 0`,
    // `a[i] == e`): the atoms `a_k < w` and `a_k ≤ w` put the cells equal to `w` in a part
    // of their own, so that `a_k ≠ w` (two parts) survives the widening. They come after
    // the index atoms (the parts' order of importance).
    let is_cell = |v: &crate::ids::VarId| {
        matches!(
            phat.vars[*v].kind,
            VarKind::SymCell { .. } | VarKind::TermCell { .. }
        )
    };
    let mut value_atoms: Vec<Expr> = Vec::new();
    for e in &exprs {
        e.visit(&mut |x| {
            let Expr::Cmp(CmpOp::Eq | CmpOp::Ne, a, b) = x else {
                return;
            };
            for (r, w) in [(a, b), (b, a)] {
                let cells: Vec<_> = r.vars().into_iter().filter(is_cell).collect();
                if cells.is_empty() || w.vars().iter().any(is_cell) || w.has_effects() {
                    continue;
                }
                for c in cells {
                    for op in [CmpOp::Lt, CmpOp::Le] {
                        value_atoms.push(Expr::Cmp(
                            op,
                            Box::new(Expr::Var(c)),
                            Box::new(strip((**w).clone())),
                        ));
                    }
                }
            }
        });
    }
    for e in exprs {
        e.visit(&mut |x| {
            let Expr::Cmp(CmpOp::Eq, i, g) = x else {
                return;
            };
            // The ghost, or an index term of it (a cell at `2k+1`: `i == 2*k + 1`).
            if !g
                .vars()
                .iter()
                .any(|v| matches!(phat.vars[*v].kind, VarKind::Ghost { .. }))
            {
                return;
            }
            // The atom only splits the states (precision), so C's wrapping of the index
            // may be dropped: `k < 2*i` for `k == (i32)2*i`.
            let i = strip((**i).clone());
            // Which way the counters move `i`: up, down.
            let mut fresh = Fresh::new(2 * phat.vars.len() as u32);
            let (mut up, mut down) = (false, false);
            let mut first = Vec::new();
            let cases = if crate::domain::encode::flatten_size(&i) == 1 {
                crate::domain::encode::flatten(&i, &cur_dim, &mut fresh)
            } else {
                Vec::new()
            };
            if let [(_, lin)] = cases.as_slice() {
                // The first index a loop counting up from a constant accesses, `k < c`
                // for `c > 0`: the cells below it are never accessed by the loop (as
                // `a[0]` for `for (i = 1; ...)`), and the part holding them stays apart.
                if let [(d, a)] = lin.coeffs().iter().collect::<Vec<_>>().as_slice() {
                    let v = crate::ids::VarId(d.0 / 2);
                    if d.0 % 2 == 1 && steps.get(&v).is_some_and(|s| !s.contains(&false)) {
                        for c in starts.get(&v).into_iter().flatten() {
                            let x = (*a).clone() * crate::linear::Q::from_integer(c.clone())
                                + lin.constant_term();
                            if x.is_integer() && num_traits::Signed::is_positive(&x) {
                                first.push(Expr::Const(x.to_integer()));
                            }
                        }
                    }
                }
                for (v, dirs) in &steps {
                    let Some(a) = lin.coeffs().get(&cur_dim(*v)) else {
                        continue;
                    };
                    for &inc in dirs {
                        if num_traits::Signed::is_positive(a) == inc {
                            up = true;
                        } else {
                            down = true;
                        }
                    }
                }
            }
            let mut ops = Vec::new();
            if up || !down {
                ops.push(CmpOp::Lt);
            }
            if down {
                ops.push(CmpOp::Le);
            }
            let mut atoms: Vec<Expr> = ops
                .into_iter()
                .map(|op| Expr::Cmp(op, g.clone(), Box::new(i.clone())))
                .chain(
                    first
                        .into_iter()
                        .map(|c| Expr::Cmp(CmpOp::Lt, g.clone(), Box::new(c))),
                )
                .collect();
            // A test `i != w` (or `i == w`) on the index in the procedure singles out the
            // cell `w` (`if (i != z) a[i] = ...`): the atoms `k < w` and `k ≤ w` put it in
            // a partition cell of its own.
            for w in &skipped {
                if strip(w.0.clone()) == i {
                    for op in [CmpOp::Lt, CmpOp::Le] {
                        atoms.push(Expr::Cmp(op, g.clone(), Box::new(strip(w.1.clone()))));
                    }
                }
            }
            index_atoms.extend(atoms);
        });
    }
    let mut out = Vec::new();
    let mut fresh = Fresh::new(2 * phat.vars.len() as u32);
    for atom in index_atoms.into_iter().chain(value_atoms) {
        if crate::domain::encode::guard_size(&atom, true) > 1 {
            continue;
        }
        if let [case] = guard(&atom, true, &cur_dim, &mut fresh).as_slice() {
            for a in case.iter().filter_map(split_atom) {
                if !out.contains(&a) {
                    out.push(a);
                }
            }
        }
    }
    out
}

/// The states at `nodes[0]` (as constraints over the current values of its variables)
/// from which the path `nodes` (ending at the error node) can be taken in `phat`; `None`
/// if the path leaves the activation (a call or an exit) or is not a path.
fn suffix_preimage(
    phat: &Cfg,
    nodes: &[NodeId],
    solvers: &Solvers,
    deadline: &Deadline,
) -> Option<Vec<Conj>> {
    path_preimage(phat, nodes, None, solvers, deadline)
}

/// The states at `nodes[0]` from which the path `nodes` can be taken in `phat` to end
/// in one of the states `goal` at its last node (before that node's step), or, without
/// a goal, at the error node; `None` as for [`suffix_preimage`].
fn path_preimage(
    phat: &Cfg,
    nodes: &[NodeId],
    goal: Option<&[Conj]>,
    solvers: &Solvers,
    deadline: &Deadline,
) -> Option<Vec<Conj>> {
    let (&first, _) = nodes.split_first()?;
    if goal.is_none() && *nodes.last()? != ERROR_NODE {
        return None;
    }
    let mut dom = DlcDomain::new(Arc::clone(solvers), deadline.clone());
    // Snapshot: entry copies = current values at the start of the suffix.
    let mut start = Conj::top();
    let scope = phat.in_scope(first);
    for v in &scope {
        start.add(&Constraint::eq(
            &LinExpr::var(entry_dim(*v)),
            &LinExpr::var(cur_dim(*v)),
        ));
    }
    let mut states: Vec<Fact> = vec![start.into()];
    for w in nodes.windows(2) {
        let (m, next) = (w[0], w[1]);
        if matches!(phat.nodes[m].kind, NodeKind::Call { .. } | NodeKind::Exit) {
            return None;
        }
        let i = phat.succs(m).iter().position(|s| *s == next)?;
        let mut out = Vec::new();
        for s in &states {
            out.extend(dom.post(phat, s, m, i));
        }
        if out.is_empty() || out.len() > 64 || deadline.expired() {
            return None;
        }
        states = out;
    }
    if let Some(goal) = goal {
        states = states
            .iter()
            .flat_map(|s| goal.iter().map(move |g| s.conj.and(g)))
            .filter(|c| !c.is_empty())
            .map(Fact::from)
            .collect();
    }
    // Over the snapshot: eliminate the current values, then rename entry → current.
    let back: BTreeMap<Dim, Dim> = scope.iter().map(|v| (entry_dim(*v), cur_dim(*v))).collect();
    let mut pre = Vec::new();
    for s in states {
        let cur: Vec<Dim> = s
            .dims()
            .into_iter()
            .filter(|d| !back.contains_key(d))
            .collect();
        let p = s.project_out_within(&cur, deadline);
        if !p.is_empty() {
            pre.push(p.rename(&|d| back.get(&d).copied().unwrap_or(d)));
        }
    }
    Some(pre)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::abstraction::abstract_program;
    use crate::ids::VarId;
    use crate::linear::Rel;
    use crate::SourceFile;

    fn var(phat: &Cfg, name: &str) -> VarId {
        phat.vars
            .iter_enumerated()
            .find(|(_, v)| v.name == name)
            .map(|(i, _)| i)
            .unwrap_or_else(|| panic!("no {name}"))
    }

    /// `v - w ≤ 0` over the current values.
    fn le(phat: &Cfg, v: &str, w: &str) -> Constraint {
        let e = LinExpr::var(cur_dim(var(phat, v))) - LinExpr::var(cur_dim(var(phat, w)));
        Constraint::new(e, Rel::Le)
    }

    #[test]
    fn learnt_atoms_follow_their_variables_into_the_next_abstraction() {
        let src = "void main() { int a[10]; int b[10]; int i, j; i = 0; j = 0;
                   while (i < 10) { a[i] = 1; b[j] = 2; i = i + 1; j = j + 1; }
                   assert(a[0] == b[0]); }";
        let cfg = crate::frontend::load(SourceFile::new("t.lp", src))
            .unwrap_or_else(|e| panic!("{}", e.render(false)))
            .cfg;
        let (a, b) = (crate::ids::ArrayId(0), crate::ids::ArrayId(1));
        let mut precision = crate::abstraction::Precision::empty();
        precision.add_symbolic(b);
        let old = abstract_program(&cfg, &precision);
        let n = NodeId(3);
        let mut learnt = Learnt::default();
        learnt
            .splits
            .insert(n, vec![le(&old, "i", "b_k"), le(&old, "j", "k#")]);
        learnt.thresholds.insert(n, vec![le(&old, "b_k", "j")]);
        // `a` gets its cell too: `a_k` comes before `b_k`, whose dimension moves.
        precision.add_symbolic(a);
        let new = abstract_program(&cfg, &precision);
        assert_ne!(
            var(&old, "b_k"),
            var(&new, "b_k"),
            "the test needs a moved variable"
        );
        learnt.carry_over(&var_keys(&old), &new);
        assert_eq!(
            learnt.splits[&n],
            vec![le(&new, "i", "b_k"), le(&new, "j", "k#")]
        );
        assert_eq!(learnt.thresholds[&n], vec![le(&new, "b_k", "j")]);
        // Nothing changes when the variables stay.
        let before = learnt.splits.clone();
        learnt.carry_over(&var_keys(&new), &new);
        assert_eq!(learnt.splits, before);
    }

    /// The program of `src` with symbolic cells for all its arrays, and its loop heads in
    /// `main`, in order.
    fn with_ghost(src: &str) -> (Cfg, Vec<NodeId>) {
        let cfg = crate::frontend::load(SourceFile::new("t.lp", src))
            .unwrap_or_else(|e| panic!("{}", e.render(false)))
            .cfg;
        let mut precision = crate::abstraction::Precision::empty();
        for a in cfg.arrays.indices() {
            precision.add_symbolic(a);
        }
        let phat = abstract_program(&cfg, &precision);
        let main = phat.procs.indices().next().expect("main");
        let mut heads: Vec<NodeId> = phat.natural_loops(main).into_iter().map(|l| l.0).collect();
        heads.sort();
        (phat, heads)
    }

    /// `Σ cᵢ·vᵢ + c ≤ 0` over the current values of the named variables.
    fn atom(phat: &Cfg, terms: &[(&str, i64)], c: i64) -> Constraint {
        let mut e = LinExpr::int(c);
        for (v, k) in terms {
            e = e + LinExpr::var(cur_dim(var(phat, v))).scale(&Q::from_integer((*k).into()));
        }
        split_atom(&Constraint::new(e, Rel::Le)).expect("an atom")
    }

    #[test]
    fn the_saturation_projects_the_error_onto_what_the_loop_keeps() {
        // The check loop of a gather: the error at `j < n ∧ j == k` is, for all the loop
        // can change, `k < n`.
        let (phat, heads) = with_ghost(
            "void main() { int a[100]; int i, j, n; n = u; i = 1; j = 0;
             while (i < n) { assert(a[j] == 0); i = i + 2; j = j + 1; } }",
        );
        let at = heads[0];
        let pre = Conj::from_constraints(&[
            atom(&phat, &[("j", 1), ("n", -1)], 1),
            Constraint::eq(
                &LinExpr::var(cur_dim(var(&phat, "j"))),
                &LinExpr::var(cur_dim(var(&phat, "k#"))),
            ),
        ]);
        let deadline = Deadline::none();
        let top = Conj::top();
        let got = saturation_atoms(&phat, at, &top, std::slice::from_ref(&pre), &deadline);
        assert_eq!(got, vec![atom(&phat, &[("k#", 1), ("n", -1)], 1)]);
        // With the loop's equality `i == 2j + 1` and the error at `i < n` instead: `2k + 1
        // < n`. The fact's values of what the loop keeps (`n == 7`) are the trace's
        // constants: no atom bounds the ghost alone with them.
        let i_2j = Constraint::eq(
            &LinExpr::var(cur_dim(var(&phat, "i"))),
            &(LinExpr::var(cur_dim(var(&phat, "j"))).scale(&Q::from_integer(2.into()))
                + LinExpr::int(1)),
        );
        let n_7 = Constraint::eq(&LinExpr::var(cur_dim(var(&phat, "n"))), &LinExpr::int(7));
        let fact = Conj::from_constraints(&[i_2j, n_7]);
        let pre = Conj::from_constraints(&[
            atom(&phat, &[("i", 1), ("n", -1)], 1),
            Constraint::eq(
                &LinExpr::var(cur_dim(var(&phat, "j"))),
                &LinExpr::var(cur_dim(var(&phat, "k#"))),
            ),
        ]);
        let got = saturation_atoms(&phat, at, &fact, std::slice::from_ref(&pre), &deadline);
        assert_eq!(got, vec![atom(&phat, &[("k#", 2), ("n", -1)], 2)]);
        // Without the equality, nothing relates the ghost to what the loop keeps.
        let got = saturation_atoms(&phat, at, &top, std::slice::from_ref(&pre), &deadline);
        assert_eq!(got, Vec::<Constraint>::new());
    }

    #[test]
    fn bounds_on_the_ghost_that_its_range_decides_take_no_place() {
        let src = "void main() { int a[10]; int i; i = 0;
                   while (i < 10) { a[i] = 1; i = i + 1; } assert(a[3] == 1); }";
        let cfg = crate::frontend::load(SourceFile::new("t.lp", src))
            .unwrap_or_else(|e| panic!("{}", e.render(false)))
            .cfg;
        let mut precision = crate::abstraction::Precision::empty();
        precision.add_symbolic(crate::ids::ArrayId(0));
        let phat = abstract_program(&cfg, &precision);
        let splits = Splits::of(&phat);
        let k = LinExpr::var(cur_dim(var(&phat, "k#")));
        // `k ≤ c`, `k ≥ c`, `k - i ≤ 0`.
        let at_most = |c: i64| Constraint::le(&k, &LinExpr::int(c));
        let at_least = |c: i64| Constraint::ge(&k, &LinExpr::int(c));
        let decided = |c: &Constraint| splits.decided_by_range(c);
        // The ghost lies in 0 ..= 9.
        assert!(decided(&at_most(-1)) && decided(&at_most(9)) && decided(&at_most(12)));
        assert!(decided(&at_least(0)) && decided(&at_least(10)));
        assert!(!decided(&at_most(0)) && !decided(&at_most(8)));
        assert!(!decided(&at_least(1)) && !decided(&at_least(9)));
        assert!(!decided(&le(&phat, "i", "k#")));
        assert!(splits.anyway(NodeId(0), &at_most(-1)));
    }

    #[test]
    fn a_loop_testing_two_variables_for_equality_is_split_by_their_order() {
        // A search that stops at the first match (`r == n` in its condition), one that
        // runs on and tests `r == n` in its body, and a loop testing a flag against a
        // constant (no second variable: no atom).
        let (phat, heads) = with_ghost(
            "void main() { int a[100]; int i, n, r, f; n = u; r = n; i = 0;
             while (i < n && r == n) { if (a[i] == 0) { r = i; } i = i + 1; }
             i = 0; r = n;
             while (i < n) { if (r == n && a[i] == 0) { r = i; } i = i + 1; }
             f = 0; i = 0;
             while (i < n && f == 0) { if (a[i] == 0) { f = 1; } i = i + 1; } }",
        );
        let atoms = loop_equality_atoms(&phat);
        let order = vec![
            atom(&phat, &[("r", 1), ("n", -1)], 1),
            atom(&phat, &[("n", 1), ("r", -1)], 1),
        ];
        assert_eq!(atoms.get(&heads[0]), Some(&order));
        assert_eq!(atoms.get(&heads[1]), Some(&order));
        assert!(
            atoms.get(&heads[2]).is_none_or(|a| a.is_empty()),
            "{atoms:?}"
        );
        // They are part of the partition every abstraction with a ghost has.
        let always = ghost_splits(&phat);
        assert!(order.iter().all(|a| always[&heads[0]].contains(a)));
    }
}
