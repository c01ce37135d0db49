//! What an array access outside its bounds does ([`ArrayBounds`]), as a transformation of
//! the CFG applied when a program is loaded, so that every engine (the CEGAR tabulation,
//! bmc, the concrete search, the interpreter, the trace check and the certificate check)
//! sees it:
//!
//! - [`ArrayBounds::Nondet`] (EUREKA §3, the default for `.lp` files): a read outside
//!   yields `u`, a write does nothing. The CFG is left as it is; every engine implements
//!   that rule.
//! - [`ArrayBounds::Undefined`] (C, the default for `.c`/`.i` files): before every access,
//!   `assume(0 <= e && e < dim(a))` ([`Cfg::bounds_guards`]): an execution that accesses
//!   an array outside its bounds has no meaning in C, so it ends there without a verdict.
//! - [`ArrayBounds::Error`] (`--check-bounds`, SV-COMP's memory safety for arrays): the
//!   instrumentation the paper suggests at the end of §5, `assert(0 <= e && e < dim(a))`
//!   before every `a[e]` ([`Cfg::bounds_checks`]).
//!
//! A node `n` with accesses is moved to a new node `n'`; `n` itself becomes the first of a
//! chain of checks (`Branch(ok_i, next, ERROR)` or `Assume(ok_i, next)`) ending in `n'`,
//! so every edge into `n` stays valid. Accesses are checked in evaluation order (an
//! index's own reads first), each under the condition that it is evaluated at all: a
//! read in the right operand of `&&` is only checked when the left one holds, a read in a
//! branch of `?:` only when that branch is taken. Such a condition may not contain `u` (a
//! check would draw a different value than the evaluation); that case is reported as
//! unsupported. An access at a constant index inside a constant size needs no check.

use super::{Cfg, Node, NodeKind, ERROR_NODE};
use crate::diag::Span;
use crate::ids::ArrayId;
use crate::sema::{ArraySize, CmpOp, Expr};
use num_bigint::BigInt;

/// What an access to an array outside its bounds does.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum ArrayBounds {
    /// As C defines it: the execution has no meaning from there on, so it ends without a
    /// verdict (no error is reported through it, and a proof may assume the index is in
    /// range).
    Undefined,
    /// EUREKA's rule: a read yields an arbitrary value, a write does nothing.
    Nondet,
    /// The access is an error location (`--check-bounds`; SV-COMP's memory safety for
    /// programs whose only memory is arrays).
    Error,
}

impl ArrayBounds {
    /// `undefined`, `nondet` or `error`.
    pub fn as_str(self) -> &'static str {
        match self {
            ArrayBounds::Undefined => "undefined",
            ArrayBounds::Nondet => "nondet",
            ArrayBounds::Error => "error",
        }
    }

    /// Parse `undefined` / `nondet` / `error` (case-insensitive).
    pub fn parse(s: &str) -> Option<ArrayBounds> {
        match s.to_ascii_lowercase().as_str() {
            "undefined" => Some(ArrayBounds::Undefined),
            "nondet" => Some(ArrayBounds::Nondet),
            "error" => Some(ArrayBounds::Error),
            _ => None,
        }
    }
}

/// One access to check: under `conds` (all evaluated non-zero), `index` must be in range.
struct Access {
    conds: Vec<Expr>,
    array: ArrayId,
    index: Expr,
}

fn collect(e: &Expr, conds: &[Expr], out: &mut Vec<Access>) {
    let with = |c: Expr| {
        let mut v = conds.to_vec();
        v.push(c);
        v
    };
    match e {
        Expr::Read(a, i) => {
            collect(i, conds, out);
            out.push(Access {
                conds: conds.to_vec(),
                array: *a,
                index: (**i).clone(),
            });
        }
        Expr::Cond(c, x, y) => {
            collect(c, conds, out);
            collect(x, &with((**c).clone()), out);
            collect(y, &with(Expr::Not(c.clone())), out);
        }
        Expr::And(x, y) => {
            collect(x, conds, out);
            collect(y, &with((**x).clone()), out);
        }
        Expr::Or(x, y) => {
            collect(x, conds, out);
            collect(y, &with(Expr::Not(x.clone())), out);
        }
        Expr::Add(x, y) | Expr::Sub(x, y) | Expr::Cmp(_, x, y) => {
            collect(x, conds, out);
            collect(y, conds, out);
        }
        Expr::Scale(_, x)
        | Expr::Div(x, _)
        | Expr::Mod(x, _)
        | Expr::Not(x)
        | Expr::Wrap(_, x)
        | Expr::Overflow(_, x) => collect(x, conds, out),
        Expr::Call(_, args, _) => args.iter().for_each(|a| collect(a, conds, out)),
        Expr::Const(_) | Expr::Var(_) | Expr::Undef | Expr::Nondet(..) => {}
    }
}

fn has_undef(e: &Expr) -> bool {
    let mut found = false;
    e.visit(&mut |x| found |= matches!(x, Expr::Undef));
    found
}

/// The accesses of a node, in evaluation order; a write's own index counts as an access.
fn accesses(kind: &NodeKind) -> Vec<Access> {
    let mut out = Vec::new();
    match kind {
        NodeKind::Assign { rhs, .. } => rhs.iter().for_each(|e| collect(e, &[], &mut out)),
        NodeKind::ArrayWrite {
            array,
            index,
            value,
            ..
        } => {
            collect(index, &[], &mut out);
            collect(value, &[], &mut out);
            out.push(Access {
                conds: vec![],
                array: *array,
                index: index.clone(),
            });
        }
        NodeKind::ArrayInit {
            values: Some(vs), ..
        } => vs.iter().for_each(|e| collect(e, &[], &mut out)),
        NodeKind::Branch { cond, .. } | NodeKind::Assume { cond, .. } => {
            collect(cond, &[], &mut out)
        }
        NodeKind::Call { args, .. } => args.iter().for_each(|e| collect(e, &[], &mut out)),
        _ => {}
    }
    out
}

/// `0 ≤ index < size` for array `a`.
pub(crate) fn in_range(cfg: &Cfg, a: ArrayId, index: &Expr) -> Expr {
    let size = match &cfg.arrays[a].size {
        ArraySize::Const(n) => Expr::Const(BigInt::from(*n)),
        ArraySize::Dynamic(v) => Expr::Var(*v),
    };
    Expr::And(
        Box::new(Expr::Cmp(
            CmpOp::Le,
            Box::new(Expr::int(0)),
            Box::new(index.clone()),
        )),
        Box::new(Expr::Cmp(
            CmpOp::Lt,
            Box::new(index.clone()),
            Box::new(size),
        )),
    )
}

/// The arrays of constant size whose every access in the program is at a constant
/// index inside it: each cell is then one value of its own, never reached through an
/// index the program computes (the bounded engine's explorer keeps their cells as
/// scalars, with no array term per write).
pub(crate) fn literal_arrays(cfg: &Cfg) -> std::collections::BTreeSet<ArrayId> {
    let mut computed = std::collections::BTreeSet::new();
    for node in cfg.nodes.iter() {
        for a in accesses(&node.kind) {
            if !statically_in_range(cfg, a.array, &a.index) {
                computed.insert(a.array);
            }
        }
    }
    cfg.arrays
        .indices()
        .filter(|a| matches!(cfg.arrays[*a].size, ArraySize::Const(_)) && !computed.contains(a))
        .collect()
}

/// Whether `index` is a constant inside a constant size (no check needed).
fn statically_in_range(cfg: &Cfg, a: ArrayId, index: &Expr) -> bool {
    match (&cfg.arrays[a].size, index) {
        (ArraySize::Const(n), Expr::Const(i)) => *i >= BigInt::from(0) && *i < BigInt::from(*n),
        _ => false,
    }
}

/// The program with what `mode` asks of its array accesses (see the module
/// documentation), or the span of a node whose accesses cannot be checked exactly.
pub fn instrument_bounds(cfg: &Cfg, mode: ArrayBounds) -> Result<Cfg, Span> {
    let mut out = cfg.clone();
    if mode == ArrayBounds::Nondet {
        return Ok(out);
    }
    for n in cfg.nodes.indices() {
        let node = &cfg.nodes[n];
        let mut acc = accesses(&node.kind);
        acc.retain(|a| !statically_in_range(cfg, a.array, &a.index));
        if acc.is_empty() {
            continue;
        }
        if acc.iter().any(|a| a.conds.iter().any(has_undef)) {
            return Err(node.span);
        }
        // The original statement moves to a new node.
        let moved = out.nodes.push(node.clone());
        if let (NodeKind::Call { proc, .. }, Some(_)) = (&node.kind, node.proc) {
            for c in out.procs[*proc].callers.iter_mut() {
                if *c == n {
                    *c = moved;
                }
            }
        }
        // Build the checks backwards: the last one continues at the moved node.
        let mut next = moved;
        for (i, a) in acc.iter().enumerate().rev() {
            let ok = in_range(cfg, a.array, &a.index);
            let cond = a.conds.iter().rev().fold(ok, |acc, c| {
                Expr::Or(Box::new(Expr::Not(Box::new(c.clone()))), Box::new(acc))
            });
            let check = match mode {
                ArrayBounds::Error => NodeKind::Branch {
                    cond,
                    then: next,
                    els: ERROR_NODE,
                },
                _ => NodeKind::Assume { cond, next },
            };
            let at = if i == 0 {
                out.nodes[n].kind = check;
                n
            } else {
                out.nodes.push(Node {
                    proc: node.proc,
                    kind: check,
                    span: node.span,
                })
            };
            match mode {
                ArrayBounds::Error => out.bounds_checks.insert(at),
                _ => out.bounds_guards.insert(at),
            };
            next = at;
        }
    }
    Ok(out)
}
