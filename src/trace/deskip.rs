//! Traces through transitions that pass checks untested ([`crate::accel`]): such a
//! transition jumps over loop iterations whose checks it does not test, so a trace that
//! takes it reaches an error location of the transformed program, and the program as
//! written reaches one too (maybe at a check the jump passed), but the trace is not a run
//! of the program as written. [`test_skipped_checks`] runs the program again with the
//! trace's inputs, one iteration at a time through those loops, and returns that run.

use super::oracle::{Query, Recorder};
use super::{limits, recorded_run, Trace, Witness};
use crate::cfg::{Cfg, NodeKind};
use crate::ids::{ArrayId, NodeId, VarId};
use crate::interp::{self, Limits, Oracle, Site};
use num_bigint::BigInt;
use num_traits::{ToPrimitive, Zero};
use std::collections::{BTreeMap, VecDeque};

/// The steps of `t` at which it takes a transition that passes checks untested (the
/// transition's count node, whose branch then goes on into the transition).
fn taken_skips(cfg: &Cfg, t: &Trace) -> Vec<usize> {
    (0..t.path.len())
        .filter(|&i| {
            let n = t.path[i];
            if !cfg.accel.get(&n).is_some_and(|a| a.skips) {
                return false;
            }
            let NodeKind::Assign { next: test, .. } = cfg.nodes[n].kind else {
                return false;
            };
            match cfg.nodes[test].kind {
                NodeKind::Branch { then, .. } => t.path.get(i + 2) == Some(&then),
                _ => false,
            }
        })
        .collect()
}

/// If `t` (with its witness `w`) takes a transition that passes checks untested, the run
/// of the program with `w`'s inputs that tests every check: `Ok(Some)` with its trace
/// and witness, if it reaches an error location, `Err` (why) if it does not; `Ok(None)`
/// if `t` takes no such transition.
///
/// The run answers the interpreter's queries with the values `w` gave the same query
/// (by node and occurrence), the initial cells of the `k`-th arbitrary array with those
/// of `w`'s `k`-th, and the count of every transition that skips checks with 0, so that
/// its loop runs one iteration at a time. Until the first iteration the transition
/// jumped over, the run is `t`'s. From there it tests the checks the transition passed:
/// one fails (an error location is reached), or all hold, and the run reaches the state
/// `t` reached after the transition (the loop changes nothing else) and goes on as `t`.
pub fn test_skipped_checks(
    cfg: &Cfg,
    t: &Trace,
    w: &Witness,
) -> Result<Option<(Trace, Witness)>, String> {
    let skips = taken_skips(cfg, t);
    if skips.is_empty() {
        return Ok(None);
    }
    // The queries of `t`'s run, in order.
    let mut old = w.oracle.clone();
    let mut rec = Recorder {
        inner: &mut old,
        log: Vec::new(),
    };
    interp::run_with(cfg, &mut rec, limits(t), interp::Recording::none());
    let log = std::mem::take(&mut rec.log);
    let mut o = Deskip {
        cfg,
        old: w.oracle.clone(),
        sites: BTreeMap::new(),
        uninit: BTreeMap::new(),
        old_inits: BTreeMap::new(),
        new_inits: BTreeMap::new(),
    };
    let mut steps = t.path.len();
    for q in log {
        let Query::Site(step, node, site, v) = q else {
            continue;
        };
        if skips.contains(&step) {
            // The length of the iterations the transition jumped over.
            let per = cfg.accel[&node].path.len() + 4 * cfg.accel.len() + 1;
            steps = steps.saturating_add(v.to_usize().unwrap_or(usize::MAX).saturating_mul(per));
            continue;
        }
        match site {
            Site::Uninit(var) => o.uninit.entry(var).or_default().push_back(v),
            _ => o.sites.entry((node, site)).or_default().push_back(v),
        }
    }
    for (i, n) in t.path.iter().enumerate() {
        if let NodeKind::ArrayInit {
            array,
            values: None,
            ..
        } = cfg.nodes[*n].kind
        {
            o.old_inits.entry(array).or_default().push_back(i);
        }
    }
    let lim = Limits {
        max_steps: steps.saturating_add(1),
        ..limits(t)
    };
    match recorded_run(cfg, &mut o, lim) {
        (_, Some(found)) => Ok(Some(found)),
        (outcome, None) => Err(format!(
            "the trace jumps over loop iterations without testing their checks, and the run \
             that tests them ends with {outcome:?}"
        )),
    }
}

/// The oracle of [`test_skipped_checks`].
struct Deskip<'a> {
    cfg: &'a Cfg,
    old: super::ReplayOracle,
    /// The answers of the old run by query (node and site), in order.
    sites: BTreeMap<(NodeId, Site), VecDeque<BigInt>>,
    /// The old run's values of uninitialised variables, by variable in order (not by
    /// node: a first read may be inside a transition in one run, in the loop body in
    /// the other).
    uninit: BTreeMap<VarId, VecDeque<BigInt>>,
    /// The steps at which the old run made each array arbitrary, in order.
    old_inits: BTreeMap<ArrayId, VecDeque<usize>>,
    /// The old step of each of this run's.
    new_inits: BTreeMap<(usize, ArrayId), usize>,
}

impl Deskip<'_> {
    fn next(&mut self, node: NodeId, site: Site) -> Option<BigInt> {
        let queue = match site {
            Site::Uninit(var) => self.uninit.get_mut(&var),
            _ => self.sites.get_mut(&(node, site)),
        };
        queue.and_then(VecDeque::pop_front)
    }
}

impl Oracle for Deskip<'_> {
    fn undef(&mut self, _: usize, node: NodeId, site: Site) -> BigInt {
        self.next(node, site).unwrap_or_else(BigInt::zero)
    }

    fn array_init(&mut self, step: usize, array: ArrayId) {
        if let Some(s) = self.old_inits.get_mut(&array).and_then(VecDeque::pop_front) {
            self.new_inits.insert((step, array), s);
        }
    }

    fn array_cell(&mut self, init_step: usize, array: ArrayId, index: i64) -> BigInt {
        let s = self
            .new_inits
            .get(&(init_step, array))
            .copied()
            .unwrap_or(init_step);
        self.old.array_cell(s, array, index)
    }

    fn count(
        &mut self,
        _: usize,
        node: NodeId,
        site: Site,
        range: Option<&crate::accel::CountRange>,
    ) -> BigInt {
        if self.cfg.accel.get(&node).is_some_and(|a| a.skips) {
            return BigInt::zero();
        }
        let v = self.next(node, site).unwrap_or_else(BigInt::zero);
        let allowed = range.is_some_and(|r| r.lo <= v && r.hi.as_ref().is_none_or(|h| v <= *h));
        if allowed {
            v
        } else {
            BigInt::zero()
        }
    }
}
