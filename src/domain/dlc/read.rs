//! The read rule of the DLC domain: a read of a symbolic cell at a node with an
//! instantiated read gets its value from a partner fact at the same node, taken at the
//! read's index through the ghost index (one ghost, or two ghosts `k1 < k2`).

use super::bind::{drop_safe_wraps, known_values};
use super::{cur_dim, entry_dim, DlcDomain};
use crate::cfg::Cfg;
use crate::domain::encode::{flatten, guard, Fresh};
use crate::ids::VarId;
use crate::linear::{Conj, Constraint, Dim, LinExpr};
use std::collections::BTreeMap;

/// One ghost of a partner in the two-ghost read rule: kept at the state's value (`None`),
/// or put at an index, with some of its cells bound to values.
type GhostSlot = Option<(LinExpr, Vec<(VarId, LinExpr)>)>;

impl DlcDomain {
    /// Monniaux–Gonnord's read rule: the facts at a node hold for every in-range value of
    /// the ghost `k` (it is never assigned), so a state of `f` reading cell `i` in range,
    /// with the other variables (current and entry copies) as they are, lies in some fact
    /// `g` at the node with `k := i` and each read cell `a_k :=` the value read. `g`'s
    /// entry copies of the cells (the cells at `i` on entry) and its other cells at the
    /// ghost become fresh, existential dimensions. Out of range the read is `u`, and the
    /// temporaries are left free.
    pub(super) fn read_rule(
        &mut self,
        cfg: &Cfg,
        f: &Conj,
        g: &Conj,
        read: &crate::cfg::InstRead,
    ) -> Vec<Conj> {
        self.stats.transfers += 1;
        let f0 = self.forget_conj(f, &read.temps());
        let mut fresh = Self::fresh(cfg);
        let base = fresh.peek();
        let mut out = Vec::new();
        // Out of range, the read is `u`: the temporaries stay free.
        for case in guard(&read.in_range, false, &cur_dim, &mut fresh) {
            let mut c = f0.clone();
            for k in &case {
                c.add(k);
            }
            let dims = Self::fresh_dims(&c, base);
            if let Some(p) = self.project(c, &dims) {
                out.push(p);
            }
        }
        // A partner that fixes a shared variable to another constant than `f` (facts of
        // other iterations, unrolled) gives nothing: skip the projections.
        let renamed: Vec<VarId> = read
            .reads
            .iter()
            .flat_map(|(c, t)| [*c, *t])
            .chain(read.others.iter().copied())
            .chain([read.ghost])
            .chain(
                read.second
                    .iter()
                    .flat_map(|s| s.pairs.iter().flat_map(|(a, b)| [*a, *b]).chain([s.ghost])),
            )
            .collect();
        let (kf, kg) = (known_values(&f0), known_values(g));
        if kf
            .iter()
            .any(|(v, x)| !renamed.contains(v) && kg.get(v).is_some_and(|y| y != x))
        {
            return out;
        }
        // C's wraps that `f` keeps in range are the identity: without them, the index and
        // the range test have one case each instead of three per wrap.
        let index = drop_safe_wraps(read.index.clone(), &f0);
        let in_range = guard(
            &drop_safe_wraps(read.in_range.clone(), &f0),
            true,
            &cur_dim,
            &mut fresh,
        );
        if let Some(second) = &read.second {
            for (guards, at) in flatten(&index, &cur_dim, &mut fresh) {
                for case in &in_range {
                    let mut c = f0.clone();
                    for k in guards.iter().chain(case) {
                        c.add(k);
                    }
                    if !c.is_empty() {
                        self.instantiate2(
                            &c, &f0, g, read, second, &at, &mut fresh, base, &mut out,
                        );
                    }
                }
            }
            return out;
        }
        for (guards, at) in flatten(&index, &cur_dim, &mut fresh) {
            // In `g`: each read cell becomes its temporary; the entry copies of the cells,
            // `g`'s own temporaries, and the other arrays' cells at the ghost (they hold
            // `g`'s values at index `i`, not the state's) become fresh, existential
            // dimensions.
            let mut map: BTreeMap<Dim, Dim> = BTreeMap::new();
            for (cell, inst) in &read.reads {
                map.insert(cur_dim(*cell), cur_dim(*inst));
                for d in [entry_dim(*cell), cur_dim(*inst), entry_dim(*inst)] {
                    map.insert(d, fresh.dim());
                }
            }
            for v in &read.others {
                for d in [cur_dim(*v), entry_dim(*v)] {
                    map.insert(d, fresh.dim());
                }
            }
            let g2 = g
                .rename(&|d| map.get(&d).copied().unwrap_or(d))
                .substitute(cur_dim(read.ghost), &at)
                .substitute(entry_dim(read.ghost), &at);
            let variants = match &read.term {
                None => vec![(Vec::new(), None)],
                Some(tb) => {
                    let cell = map[&cur_dim(tb.cell)];
                    Self::term_variants(tb, cell, &at, &f0, &mut fresh)
                }
            };
            for case in &in_range {
                for (extra, bind) in &variants {
                    // The cases of the index and the range test that `f` excludes are
                    // dropped before the (costlier) conjunction with the partner.
                    let mut c = f0.clone();
                    for k in guards.iter().chain(case).chain(extra) {
                        c.add(k);
                    }
                    if c.is_empty() {
                        continue;
                    }
                    match bind {
                        None => self.pair(c, &g2, base, &mut out),
                        Some(b) => {
                            let mut g3 = g2.clone();
                            g3.add(b);
                            self.pair(c, &g3, base, &mut out);
                        }
                    }
                }
            }
        }
        out
    }

    /// The cases of a [`crate::cfg::TermBind`] for the partner at `k := at` (its cell at
    /// the term renamed to `cell`): where the hoisted read's index is in range and equals
    /// the term at `at`, the cell is the value read; elsewhere (index out of range,
    /// below or above the term) it stays free. Each case: the constraints on the state
    /// and the binding, if any. Together they cover every state.
    fn term_variants(
        tb: &crate::cfg::TermBind,
        cell: Dim,
        at: &LinExpr,
        f0: &Conj,
        fresh: &mut Fresh,
    ) -> Vec<(Vec<Constraint>, Option<Constraint>)> {
        use crate::linear::Q;
        let mut term = at.scale(&Q::from_integer(tb.term.coef.into()));
        term.add_constant(&Q::from_integer(tb.term.offset.into()));
        if let Some((v, c)) = tb.term.by {
            term = term + LinExpr::var(cur_dim(v)).scale(&Q::from_integer(c.into()));
        }
        let cin = drop_safe_wraps(tb.in_range.clone(), f0);
        let mut out: Vec<(Vec<Constraint>, Option<Constraint>)> =
            guard(&cin, false, &cur_dim, fresh)
                .into_iter()
                .map(|case| (case, None))
                .collect();
        let inside = guard(&cin, true, &cur_dim, fresh);
        let bind = Constraint::eq(&LinExpr::var(cell), &LinExpr::var(cur_dim(tb.value)));
        let index = drop_safe_wraps(tb.index.clone(), f0);
        for (cg, cat) in flatten(&index, &cur_dim, fresh) {
            for rel in [Constraint::lt(&cat, &term), Constraint::lt(&term, &cat)] {
                out.push((cg.iter().cloned().chain([rel]).collect(), None));
            }
            for case in &inside {
                let mut v = cg.clone();
                v.extend(case.iter().cloned());
                v.push(Constraint::eq(&cat, &term));
                out.push((v, Some(bind.clone())));
            }
        }
        out
    }

    /// The state `c` conjoined with an instantiated partner `g`, its fresh dimensions
    /// projected out.
    fn pair(&mut self, c: Conj, g: &Conj, base: u32, out: &mut Vec<Conj>) {
        let c = c.and(g);
        // Most pairs are contradictory (a partner of another partition cell): one
        // simplex check spares their projection.
        if c.is_empty() {
            self.stats.empty += 1;
            return;
        }
        let dims = Self::fresh_dims(&c, base);
        out.extend(self.project(c, &dims));
    }

    /// The read rule with two ghosts `k1 < k2` (see [`crate::cfg::SecondGhost`]), for the
    /// state `c` (in range, the index at `at`). The facts at the node hold
    /// `(s, p1, p2, s.a[p1], s.a[p2], ...)` for every `p1 < p2` in the ghosts' range, the
    /// cells at a ghost out of an array's range aside (those depend on the run and the
    /// ghost only, as the state's own). So a partner `g` taken at a pair with the index
    /// `i` and an index whose cell values the state knows gives the true value of `inst`:
    /// - with a companion read `t = b[c]` in range: `(i, c)` or `(c, i)`, with `b`'s cell
    ///   at `c` bound to `t`;
    /// - otherwise the state's ghosts: `(i, k2)` for `i < k1`, `(k1, i)` for `k1 < i`
    ///   (`k1 < i < k2` and `i > k2`), the cells at the kept ghost shared; and at `i == k1`
    ///   (or `k2`) the state's own cell, without a partner.
    ///
    /// The cases cover every state, so no state is lost for want of a partner.
    #[allow(clippy::too_many_arguments)]
    fn instantiate2(
        &mut self,
        c: &Conj,
        f0: &Conj,
        g: &Conj,
        read: &crate::cfg::InstRead,
        second: &crate::cfg::SecondGhost,
        at: &LinExpr,
        fresh: &mut Fresh,
        base: u32,
        out: &mut Vec<Conj>,
    ) {
        let (k1, k2) = (read.ghost, second.ghost);
        let (kv1, kv2) = (LinExpr::var(cur_dim(k1)), LinExpr::var(cur_dim(k2)));
        let cells1: Vec<VarId> = second.pairs.iter().map(|p| p.0).collect();
        let cells2: Vec<VarId> = second.pairs.iter().map(|p| p.1).collect();
        let at_k2 = |c1: VarId| second.pairs.iter().find(|p| p.0 == c1).map(|p| p.1);
        // Each read: its cell at k1, at k2, and its temporary.
        let reads: Vec<(VarId, VarId, VarId)> = read
            .reads
            .iter()
            .filter_map(|(c1, t)| at_k2(*c1).map(|c2| (*c1, c2, *t)))
            .collect();
        let var = |v: VarId| LinExpr::var(cur_dim(v));
        let binds1: Vec<(VarId, LinExpr)> = reads.iter().map(|r| (r.0, var(r.2))).collect();
        let binds2: Vec<(VarId, LinExpr)> = reads.iter().map(|r| (r.1, var(r.2))).collect();
        let partner = |slots: [&GhostSlot; 2], fresh: &mut Fresh| -> Conj {
            let mut map: BTreeMap<Dim, Dim> = BTreeMap::new();
            let mut eqs = Vec::new();
            for (_, _, t) in &reads {
                for d in [cur_dim(*t), entry_dim(*t)] {
                    map.insert(d, fresh.dim());
                }
            }
            for (slot, cells) in [(slots[0], &cells1), (slots[1], &cells2)] {
                let Some((_, binds)) = slot else { continue };
                for cell in cells {
                    let d = fresh.dim();
                    map.insert(cur_dim(*cell), d);
                    map.insert(entry_dim(*cell), fresh.dim());
                    if let Some((_, v)) = binds.iter().find(|(b, _)| b == cell) {
                        eqs.push(Constraint::eq(&LinExpr::var(d), v));
                    }
                }
            }
            let mut p = g.rename(&|d| map.get(&d).copied().unwrap_or(d));
            for (slot, k) in [(slots[0], k1), (slots[1], k2)] {
                if let Some((at, _)) = slot {
                    p = p.substitute(cur_dim(k), at).substitute(entry_dim(k), at);
                }
            }
            for e in &eqs {
                p.add(e);
            }
            p
        };
        // (extra constraints on the state, the partner if any)
        let mut jobs: Vec<(Vec<Constraint>, Option<Conj>)> = Vec::new();
        let mut fallback: Vec<Vec<Constraint>> = vec![Vec::new()];
        if let Some(cp) = &second.companion {
            fallback.clear();
            let cin = drop_safe_wraps(cp.in_range.clone(), f0);
            fallback.extend(guard(&cin, false, &cur_dim, fresh));
            let cin = guard(&cin, true, &cur_dim, fresh);
            let cidx = drop_safe_wraps(cp.index.clone(), f0);
            let cb1 = vec![(cp.cell, var(cp.value))];
            let cb2: Vec<(VarId, LinExpr)> = at_k2(cp.cell)
                .map(|c2| (c2, var(cp.value)))
                .into_iter()
                .collect();
            for (cg, cat) in flatten(&cidx, &cur_dim, fresh) {
                // The same cell: the same value.
                let mut same = cg.clone();
                same.push(Constraint::eq(at, &cat));
                same.extend(
                    reads
                        .iter()
                        .filter(|r| r.0 == cp.cell)
                        .map(|r| Constraint::eq(&var(r.2), &var(cp.value))),
                );
                fallback.push(same);
                for case in &cin {
                    let under: Vec<Constraint> = cg.iter().chain(case).cloned().collect();
                    let mut lo = under.clone();
                    lo.push(Constraint::lt(at, &cat));
                    let p = partner(
                        [
                            &Some((at.clone(), binds1.clone())),
                            &Some((cat.clone(), cb2.clone())),
                        ],
                        fresh,
                    );
                    jobs.push((lo, Some(p)));
                    let mut hi = under;
                    hi.push(Constraint::lt(&cat, at));
                    let p = partner(
                        [
                            &Some((cat.clone(), cb1.clone())),
                            &Some((at.clone(), binds2.clone())),
                        ],
                        fresh,
                    );
                    jobs.push((hi, Some(p)));
                }
            }
        }
        let below = partner([&Some((at.clone(), binds1.clone())), &None], fresh);
        let above = partner([&None, &Some((at.clone(), binds2.clone()))], fresh);
        let own =
            |k: &LinExpr, cell: &dyn Fn(&(VarId, VarId, VarId)) -> VarId| -> Vec<Constraint> {
                let mut v = vec![Constraint::eq(at, k)];
                v.extend(
                    reads
                        .iter()
                        .map(|r| Constraint::eq(&var(r.2), &var(cell(r)))),
                );
                v
            };
        for under in fallback {
            let with =
                |extra: Vec<Constraint>| under.iter().cloned().chain(extra).collect::<Vec<_>>();
            jobs.push((with(vec![Constraint::lt(at, &kv1)]), Some(below.clone())));
            jobs.push((with(own(&kv1, &|r| r.0)), None));
            jobs.push((
                with(vec![Constraint::lt(&kv1, at), Constraint::lt(at, &kv2)]),
                Some(above.clone()),
            ));
            jobs.push((with(own(&kv2, &|r| r.1)), None));
            jobs.push((with(vec![Constraint::lt(&kv2, at)]), Some(above.clone())));
        }
        for (extra, p) in jobs {
            let mut c = c.clone();
            for k in &extra {
                c.add(k);
            }
            if c.is_empty() {
                continue;
            }
            match p {
                Some(p) => self.pair(c, &p, base, out),
                None => {
                    let dims = Self::fresh_dims(&c, base);
                    out.extend(self.project(c, &dims));
                }
            }
        }
    }
}
