//! The replay oracle: a model of the trace formula, turned into answers to the
//! interpreter's oracle queries, plus a recorder that lists the values asked for.

use crate::cfg::{Cfg, NodeKind};
use crate::ids::{ArrayId, NodeId, VarId};
use crate::interp::{Oracle, Site};
use crate::sema::Expr;
use num_bigint::BigInt;
use num_traits::Zero;
use std::collections::BTreeMap;

/// Model values of one arbitrary array: `default` everywhere except at `cells`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct ArrayModel {
    pub default: BigInt,
    pub cells: BTreeMap<i64, BigInt>,
}

/// Answers the interpreter's oracle queries from a model of the trace formula, so that
/// [`interp::run`](crate::interp::run) follows the trace. Queries it has no value for
/// are answered 0.
#[derive(Clone, Debug, Default)]
pub struct ReplayOracle {
    /// `u` and out-of-range values by (step, node, site).
    pub(crate) sites: BTreeMap<(usize, NodeId, Site), BigInt>,
    /// The frame instance active at each step.
    pub(crate) frame_of_step: Vec<usize>,
    /// Initial values of variables by (frame, or `None` for globals; variable).
    pub(crate) uninit: BTreeMap<(Option<usize>, VarId), BigInt>,
    /// Arbitrary array contents by (init step, array).
    pub(crate) arrays: BTreeMap<(usize, ArrayId), ArrayModel>,
    /// Model values of the indices of reads, by (step, read number), for descriptions.
    pub(crate) read_index: BTreeMap<(usize, u32), (ArrayId, BigInt)>,
}

impl ReplayOracle {
    fn uninit_value(&self, step: usize, v: VarId) -> Option<&BigInt> {
        let frame = self.frame_of_step.get(step).copied();
        frame
            .and_then(|f| self.uninit.get(&(Some(f), v)))
            .or_else(|| self.uninit.get(&(None, v)))
    }
}

impl ReplayOracle {
    /// The answer to [`Oracle::undef`].
    fn undef_value(&self, step: usize, node: NodeId, site: Site) -> BigInt {
        let v = match site {
            Site::Undef(_) | Site::OutOfRange(_) => self.sites.get(&(step, node, site)),
            // Keyed by the query first (a witness recorded from a concrete run), else by
            // frame and variable (a witness from a model).
            Site::Uninit(v) => self
                .sites
                .get(&(step, node, site))
                .or_else(|| self.uninit_value(step, v)),
        };
        v.cloned().unwrap_or_else(BigInt::zero)
    }

    /// The answer to [`Oracle::array_cell`].
    fn cell_value(&self, init_step: usize, array: ArrayId, index: i64) -> BigInt {
        match self.arrays.get(&(init_step, array)) {
            Some(m) => m.cells.get(&index).unwrap_or(&m.default).clone(),
            None => BigInt::zero(),
        }
    }
}

impl Oracle for ReplayOracle {
    fn undef(&mut self, step: usize, node: NodeId, site: Site) -> BigInt {
        self.undef_value(step, node, site)
    }

    fn array_cell(&mut self, init_step: usize, array: ArrayId, index: i64) -> BigInt {
        self.cell_value(init_step, array, index)
    }
}

/// The same answers from a shared oracle: a replay needs no copy of the witness (a run
/// of millions of steps has as many answers).
impl Oracle for &ReplayOracle {
    fn undef(&mut self, step: usize, node: NodeId, site: Site) -> BigInt {
        self.undef_value(step, node, site)
    }

    fn array_cell(&mut self, init_step: usize, array: ArrayId, index: i64) -> BigInt {
        self.cell_value(init_step, array, index)
    }
}

/// One query of a run.
pub(crate) enum Query {
    Site(usize, NodeId, Site, BigInt),
    Cell(usize, ArrayId, i64, BigInt),
}

/// Wraps an oracle and logs every query with its answer.
pub(crate) struct Recorder<'a, O: Oracle> {
    pub inner: &'a mut O,
    pub log: Vec<Query>,
}

impl<O: Oracle> Oracle for Recorder<'_, O> {
    fn undef(&mut self, step: usize, node: NodeId, site: Site) -> BigInt {
        let v = self.inner.undef(step, node, site);
        self.log.push(Query::Site(step, node, site, v.clone()));
        v
    }
    fn count(
        &mut self,
        step: usize,
        node: NodeId,
        site: Site,
        range: Option<&crate::accel::CountRange>,
    ) -> BigInt {
        let v = self.inner.count(step, node, site, range);
        self.log.push(Query::Site(step, node, site, v.clone()));
        v
    }
    fn array_init(&mut self, step: usize, array: ArrayId) {
        self.inner.array_init(step, array);
    }
    fn array_cell(&mut self, init_step: usize, array: ArrayId, index: i64) -> BigInt {
        let v = self.inner.array_cell(init_step, array, index);
        self.log
            .push(Query::Cell(init_step, array, index, v.clone()));
        v
    }
}

/// The expressions of a node, in site order.
fn node_exprs(cfg: &Cfg, node: NodeId) -> Vec<&Expr> {
    match cfg.nodes.get(node).map(|n| &n.kind) {
        Some(NodeKind::Assign { rhs, .. }) => rhs.iter().collect(),
        Some(NodeKind::ArrayWrite { index, value, .. }) => vec![index, value],
        Some(NodeKind::ArrayInit {
            values: Some(vs), ..
        }) => vs.iter().collect(),
        Some(NodeKind::Branch { cond, .. }) | Some(NodeKind::Assume { cond, .. }) => vec![cond],
        Some(NodeKind::Call { args, .. }) => args.iter().collect(),
        _ => Vec::new(),
    }
}

/// The array of the `k`-th read of a node.
pub(crate) fn kth_read(cfg: &Cfg, node: NodeId, k: u32) -> Option<ArrayId> {
    let mut seen = 0u32;
    let mut found = None;
    for e in node_exprs(cfg, node) {
        e.visit(&mut |x| {
            if let Expr::Read(a, _) = x {
                if seen == k && found.is_none() {
                    found = Some(*a);
                }
                seen += 1;
            }
        });
    }
    found
}

/// A description of the `k`-th `u` of a node: `u`, or `u (x)` when it is assigned
/// directly to a named variable.
pub(crate) fn describe_undef(cfg: &Cfg, node: NodeId, k: u32) -> String {
    if cfg.accel.contains_key(&node) {
        return "iterations of the accelerated loop".to_string();
    }
    if let Some(NodeKind::Assign { lhs, rhs, .. }) = cfg.nodes.get(node).map(|n| &n.kind) {
        let mut seen = 0u32;
        for (v, e) in lhs.iter().zip(rhs) {
            if *e == Expr::Undef && seen == k {
                let name = cfg.var_name(*v);
                return if name.starts_with('#') {
                    "nondet value".to_string()
                } else {
                    format!("u (assigned to {name})")
                };
            }
            seen += crate::interp::count_sites(e).0;
        }
    }
    "u".to_string()
}
