//! Array abstraction (paper §2): from a program P and a [`Precision`] (the tracked cells of
//! each array), build the generalised linear program P̂ without arrays. A read `a[e]`
//! becomes `(e == k1 ? a_k1 : (e == k2 ? a_k2 : ... u))`; a write `a[e1] = e2` becomes the
//! parallel assignment `a_k1, ..., a_kn = (e1 == k1 ? e2 : a_k1), ...` (a skip when n = 0).
//! Cells are new scalars of the array's scope. Node ids are preserved, so a trace of P̂ is a
//! trace of P.

use crate::cfg::{Cfg, NodeKind};
use crate::ids::{ArrayId, VarId};
use crate::sema::{ArraySize, CmpOp, Expr, Range, VarInfo, VarKind};
use num_bigint::BigInt;
use std::collections::{BTreeMap, BTreeSet};

/// The tracked cells of each array.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Precision {
    cells: BTreeMap<ArrayId, BTreeSet<i64>>,
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
    /// Whether no cell is tracked.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
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

/// Build P̂ for `cfg` at `precision`. The result has no array reads, writes or inits.
pub fn abstract_program(cfg: &Cfg, precision: &Precision) -> Cfg {
    let mut out = cfg.clone();
    // The cell variables, in (array, index) order.
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
    let cells_of = |a: ArrayId| -> Vec<(i64, VarId)> {
        cell_var
            .range((a, i64::MIN)..=(a, i64::MAX))
            .map(|((_, k), v)| (*k, *v))
            .collect()
    };
    let ab = Abstractor {
        cfg,
        cells_of: &cells_of,
        fold: !precision.is_empty(),
    };
    for node in out.nodes.iter_mut() {
        let kind = std::mem::replace(&mut node.kind, NodeKind::Error);
        node.kind = match kind {
            NodeKind::Assign { lhs, rhs, next } => NodeKind::Assign {
                lhs,
                rhs: rhs.into_iter().map(|e| ab.expr(e)).collect(),
                next,
            },
            NodeKind::ArrayWrite {
                array,
                index,
                value,
                next,
            } => {
                let cells = cells_of(array);
                if cells.is_empty() {
                    NodeKind::Skip { next }
                } else {
                    let index = ab.expr(index);
                    let value = ab.expr(value);
                    let rhs = cells
                        .iter()
                        .map(|(k, v)| {
                            Expr::Cond(
                                Box::new(ab.hits(array, &index, *k)),
                                Box::new(value.clone()),
                                Box::new(Expr::Var(*v)),
                            )
                        })
                        .collect();
                    NodeKind::Assign {
                        lhs: cells.iter().map(|(_, v)| *v).collect(),
                        rhs,
                        next,
                    }
                }
            }
            NodeKind::ArrayInit {
                array,
                values,
                next,
            } => {
                let cells = cells_of(array);
                if cells.is_empty() {
                    NodeKind::Skip { next }
                } else {
                    // Arbitrary contents of a C array lie in its element type's range
                    // (reads wrap them there), so its cells start in that range.
                    let arbitrary = match cfg.arrays[array].range {
                        Range::Int(w) => Expr::Wrap(w, Box::new(Expr::Undef)),
                        _ => Expr::Undef,
                    };
                    let rhs = cells
                        .iter()
                        .map(|(k, _)| match &values {
                            None => arbitrary.clone(),
                            Some(vs) => vs
                                .get(*k as usize)
                                .map(|e| ab.expr(e.clone()))
                                .unwrap_or_else(|| Expr::int(0)),
                        })
                        .collect();
                    NodeKind::Assign {
                        lhs: cells.iter().map(|(_, v)| *v).collect(),
                        rhs,
                        next,
                    }
                }
            }
            NodeKind::Branch { cond, then, els } => NodeKind::Branch {
                cond: ab.expr(cond),
                then,
                els,
            },
            NodeKind::Assume { cond, next } => NodeKind::Assume {
                cond: ab.expr(cond),
                next,
            },
            NodeKind::Call {
                proc,
                args,
                ret_point,
            } => NodeKind::Call {
                proc,
                args: args.into_iter().map(|e| ab.expr(e)).collect(),
                ret_point,
            },
            k @ (NodeKind::Error | NodeKind::Skip { .. } | NodeKind::Exit | NodeKind::Stop) => k,
        };
        if ab.fold {
            fold_node(&mut node.kind);
        }
    }
    out
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

struct Abstractor<'a, F: Fn(ArrayId) -> Vec<(i64, VarId)>> {
    cfg: &'a Cfg,
    cells_of: &'a F,
    /// Fold constant sub-expressions (only when cells were introduced, so that P̂0 keeps
    /// the program's text).
    fold: bool,
}

impl<F: Fn(ArrayId) -> Vec<(i64, VarId)>> Abstractor<'_, F> {
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

    fn reads(&self, e: Expr) -> Expr {
        e.map_bottom_up(&mut |x| match x {
            Expr::Read(a, i) => {
                let cells = (self.cells_of)(a);
                // An untracked (or out-of-range) cell of a C array: any value of its type.
                let untracked = match self.cfg.arrays[a].range {
                    Range::Int(w) => Expr::Wrap(w, Box::new(Expr::Undef)),
                    _ => Expr::Undef,
                };
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
