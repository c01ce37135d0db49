//! Expressions of the CFG builder: effects (calls, ranged nondet values, overflow checks
//! under `--signed-overflow error`, effects under `&&`, `||` and `?:`) are hoisted into
//! temporaries and nodes before the node that uses them, and a node's array reads at
//! further indices move to temporaries, so that node expressions are side-effect free and
//! read at one index.

use super::{range_cond, Builder, Hole, PENDING};
use crate::cfg::{NodeKind, ERROR_NODE};
use crate::diag::Span;
use crate::ids::VarId;
use crate::sema::{CmpOp, Expr, Range, SignedOverflow};

/// The index whose reads a node keeps, of its reads' distinct `indices` (in evaluation
/// order): the first that every other index is an integer term of
/// ([`crate::sema::IndexTerm::relating`]): `x` of `x` and `2x + 1`, `2x` of `2x + 1`,
/// `x` of `n-1-x`; else the first. The read rule instantiates the ghost at the kept
/// index, and a cell at an index term of the ghost can then stand for each hoisted read
/// (`c_{2k+1}` at `k := x`), whichever operand C evaluates first: from `2x + 1`, `x` is
/// no integer term.
fn kept_index(indices: &[Expr]) -> Expr {
    let affine: Vec<_> = indices.iter().map(Expr::affine).collect();
    let terms_of = |e: &crate::sema::Affine| {
        affine.iter().all(|o| {
            o.as_ref()
                .is_some_and(|o| o == e || crate::sema::IndexTerm::relating(e, o).is_some())
        })
    };
    let at = affine
        .iter()
        .position(|e| e.as_ref().is_some_and(terms_of))
        .unwrap_or(0);
    indices[at].clone()
}

impl Builder<'_> {
    /// A node whose expressions read arrays at two or more different indices keeps the
    /// reads at one index ([`kept_index`]); every other read that C evaluates unconditionally (not
    /// under `?:`, nor the right operand of `&&`, `||`) moves to a temporary assigned just
    /// before the node. The semantics is unchanged (a read has no effect, its index and
    /// the arrays are those of the node's pre-state, an out-of-range read still draws its
    /// own arbitrary value), but each node then reads at one index, which is what the read
    /// rule of symbolic cells instantiates (one index per node, as in `a[j1] <= a[j2]`).
    /// A call's arguments keep no read at all: the read rule is applied where a node
    /// steps to its successor, which a call does not do (it enters the callee), so every
    /// read of an argument moves to a temporary before the call (`f(a[j])` is
    /// `#read = a[j]; f(#read)`).
    /// Returns the temporaries with the reads they take, in evaluation order.
    pub(super) fn split_reads(&mut self, kind: &mut NodeKind, span: Span) -> Vec<(VarId, Expr)> {
        let call = matches!(kind, NodeKind::Call { .. });
        let exprs: Vec<&mut Expr> = match kind {
            NodeKind::Assign { rhs, .. } => rhs.iter_mut().collect(),
            NodeKind::ArrayWrite { index, value, .. } => vec![index, value],
            NodeKind::Branch { cond, .. } | NodeKind::Assume { cond, .. } => vec![cond],
            NodeKind::Call { args, .. } => args.iter_mut().collect(),
            _ => return Vec::new(),
        };
        let mut indices: Vec<Expr> = Vec::new();
        for e in &exprs {
            e.visit(&mut |x| {
                if let Expr::Read(_, i) = x {
                    if !indices.contains(i) {
                        indices.push((**i).clone());
                    }
                }
            });
        }
        let keep = match indices.len() {
            0 => return Vec::new(),
            _ if call => None,
            1 => return Vec::new(),
            _ => Some(kept_index(&indices)),
        };
        let mut hoisted = Vec::new();
        for e in exprs {
            let old = std::mem::replace(e, Expr::Undef);
            *e = self.hoist_reads(old, keep.as_ref(), &mut hoisted, span);
        }
        hoisted
    }

    /// `e` with its unconditionally evaluated reads at an index other than `first` (any
    /// index when there is none; and with no read in the index) replaced by fresh
    /// temporaries, recorded in `out`.
    fn hoist_reads(
        &mut self,
        e: Expr,
        first: Option<&Expr>,
        out: &mut Vec<(VarId, Expr)>,
        span: Span,
    ) -> Expr {
        let bx = Box::new;
        match e {
            Expr::Read(a, i) => {
                let mut nested = false;
                i.visit(&mut |x| nested |= matches!(x, Expr::Read(..)));
                if nested || first == Some(&*i) {
                    return Expr::Read(a, i);
                }
                let t = self.temp("#read", span);
                self.vars[t].range = self.prog.arrays[a].range;
                out.push((t, Expr::Read(a, i)));
                Expr::Var(t)
            }
            Expr::Add(x, y) => {
                let x = self.hoist_reads(*x, first, out, span);
                Expr::Add(bx(x), bx(self.hoist_reads(*y, first, out, span)))
            }
            Expr::Sub(x, y) => {
                let x = self.hoist_reads(*x, first, out, span);
                Expr::Sub(bx(x), bx(self.hoist_reads(*y, first, out, span)))
            }
            Expr::Cmp(op, x, y) => {
                let x = self.hoist_reads(*x, first, out, span);
                Expr::Cmp(op, bx(x), bx(self.hoist_reads(*y, first, out, span)))
            }
            Expr::Scale(c, x) => Expr::Scale(c, bx(self.hoist_reads(*x, first, out, span))),
            Expr::Div(x, c) => Expr::Div(bx(self.hoist_reads(*x, first, out, span)), c),
            Expr::Mod(x, c) => Expr::Mod(bx(self.hoist_reads(*x, first, out, span)), c),
            Expr::Wrap(w, x) => Expr::Wrap(w, bx(self.hoist_reads(*x, first, out, span))),
            Expr::Overflow(w, x) => Expr::Overflow(w, bx(self.hoist_reads(*x, first, out, span))),
            Expr::Not(x) => Expr::Not(bx(self.hoist_reads(*x, first, out, span))),
            // Only the first operand of `&&`, `||` and the condition of `?:` are always
            // evaluated.
            Expr::And(x, y) => Expr::And(bx(self.hoist_reads(*x, first, out, span)), y),
            Expr::Or(x, y) => Expr::Or(bx(self.hoist_reads(*x, first, out, span)), y),
            Expr::Cond(c, x, y) => Expr::Cond(bx(self.hoist_reads(*c, first, out, span)), x, y),
            e => e,
        }
    }

    /// Whether `e` has something to hoist: a call or a ranged nondet value, or, under
    /// `--signed-overflow error`, a signed overflow check (an undefined overflow stays in
    /// the node, where it ends the executions that overflow).
    fn hoisted(&self, e: &Expr) -> bool {
        if self.prog.signed_overflow == SignedOverflow::Error {
            e.has_effects()
        } else {
            e.has_calls()
        }
    }

    /// Hoist the calls and ranged nondet values (and the overflow checks under
    /// `--signed-overflow error`) out of `e` (in evaluation order), emitting their nodes
    /// after `holes`, and return the remaining side-effect-free expression. Effects under
    /// `&&`, `||` and `?:` are lowered with branches, so they happen only when C evaluates
    /// them.
    pub(super) fn pure(&mut self, e: Expr, holes: &mut Vec<Hole>, span: Span) -> Expr {
        if !self.hoisted(&e) {
            return e;
        }
        let bx = Box::new;
        match e {
            Expr::Call(proc, args, cspan) => {
                let args: Vec<Expr> = args
                    .into_iter()
                    .map(|a| self.pure(a, holes, cspan))
                    .collect();
                let t = self.temp(&format!("{}#result", self.prog.procs[proc].name), cspan);
                let (_, h) = self.call(proc, args, cspan, std::mem::take(holes));
                *holes = self.assign(vec![t], vec![Expr::Var(self.prog.ret)], cspan, h);
                Expr::Var(t)
            }
            Expr::Overflow(w, a) if self.prog.signed_overflow != SignedOverflow::Error => {
                Expr::Overflow(w, bx(self.pure(*a, holes, span)))
            }
            Expr::Overflow(w, a) => {
                // t = a; assert(lo <= t <= hi): a signed overflow is an error location.
                let a = self.pure(*a, holes, span);
                let t = self.temp("#checked", span);
                let h = self.assign(vec![t], vec![a], span, std::mem::take(holes));
                let fits = range_cond(Range::Int(w), t).unwrap_or(Expr::int(1));
                let br = self.node(
                    NodeKind::Branch {
                        cond: fits,
                        then: PENDING,
                        els: ERROR_NODE,
                    },
                    span,
                    h,
                );
                self.overflow_checks.insert(br);
                *holes = vec![Hole::Then(br)];
                Expr::Var(t)
            }
            Expr::Nondet(range, nspan) => {
                let t = self.temp("#nondet", nspan);
                self.vars[t].range = range;
                *holes = self.havoc(t, nspan, std::mem::take(holes));
                Expr::Var(t)
            }
            Expr::And(a, b) if self.hoisted(&b) => self.short_circuit(*a, *b, true, holes, span),
            Expr::Or(a, b) if self.hoisted(&b) => self.short_circuit(*a, *b, false, holes, span),
            Expr::Cond(c, x, y) if self.hoisted(&x) || self.hoisted(&y) => {
                let c = self.pure(*c, holes, span);
                let t = self.temp("#cond", span);
                let br = self.branch(c, span, std::mem::take(holes));
                let mut th = vec![Hole::Then(br)];
                let xv = self.pure(*x, &mut th, span);
                let mut out = self.assign(vec![t], vec![xv], span, th);
                let mut el = vec![Hole::Else(br)];
                let yv = self.pure(*y, &mut el, span);
                out.extend(self.assign(vec![t], vec![yv], span, el));
                *holes = out;
                Expr::Var(t)
            }
            Expr::Read(a, i) => Expr::Read(a, bx(self.pure(*i, holes, span))),
            Expr::Add(a, b) => {
                let a = self.pure(*a, holes, span);
                Expr::Add(bx(a), bx(self.pure(*b, holes, span)))
            }
            Expr::Sub(a, b) => {
                let a = self.pure(*a, holes, span);
                Expr::Sub(bx(a), bx(self.pure(*b, holes, span)))
            }
            Expr::Scale(c, a) => Expr::Scale(c, bx(self.pure(*a, holes, span))),
            Expr::Div(a, c) => Expr::Div(bx(self.pure(*a, holes, span)), c),
            Expr::Mod(a, c) => Expr::Mod(bx(self.pure(*a, holes, span)), c),
            Expr::Wrap(w, a) => Expr::Wrap(w, bx(self.pure(*a, holes, span))),
            Expr::Cmp(op, a, b) => {
                let a = self.pure(*a, holes, span);
                Expr::Cmp(op, bx(a), bx(self.pure(*b, holes, span)))
            }
            Expr::Not(a) => Expr::Not(bx(self.pure(*a, holes, span))),
            Expr::And(a, b) => {
                let a = self.pure(*a, holes, span);
                Expr::And(bx(a), b)
            }
            Expr::Or(a, b) => {
                let a = self.pure(*a, holes, span);
                Expr::Or(bx(a), b)
            }
            Expr::Cond(c, x, y) => Expr::Cond(bx(self.pure(*c, holes, span)), x, y),
            e @ (Expr::Const(_) | Expr::Var(_) | Expr::Undef) => e,
        }
    }

    /// `a && b` (`is_and`) or `a || b` where `b` has effects: `b` is evaluated only when
    /// C would evaluate it; the 0/1 result goes into a temporary.
    fn short_circuit(
        &mut self,
        a: Expr,
        b: Expr,
        is_and: bool,
        holes: &mut Vec<Hole>,
        span: Span,
    ) -> Expr {
        let a = self.pure(a, holes, span);
        let t = self.temp(if is_and { "#and" } else { "#or" }, span);
        let br = self.branch(a, span, std::mem::take(holes));
        let (mut eval, short) = if is_and {
            (vec![Hole::Then(br)], vec![Hole::Else(br)])
        } else {
            (vec![Hole::Else(br)], vec![Hole::Then(br)])
        };
        let bv = self.pure(b, &mut eval, span);
        let nonzero = Expr::Cmp(CmpOp::Ne, Box::new(bv), Box::new(Expr::int(0)));
        let mut out = self.assign(vec![t], vec![nonzero], span, eval);
        out.extend(self.assign(
            vec![t],
            vec![Expr::int(if is_and { 0 } else { 1 })],
            span,
            short,
        ));
        *holes = out;
        Expr::Var(t)
    }
}

#[cfg(test)]
mod tests {
    use super::kept_index;
    use crate::ids::VarId;
    use crate::sema::Expr;

    fn term(x: u32, coef: i64, offset: i64) -> Expr {
        let scaled = match coef {
            1 => Expr::Var(VarId(x)),
            c => Expr::Scale(c.into(), Box::new(Expr::Var(VarId(x)))),
        };
        Expr::Add(Box::new(scaled), Box::new(Expr::int(offset)))
    }

    #[test]
    fn a_node_keeps_the_index_the_others_are_terms_of() {
        // `c[2x+1] == b[x]`: x is kept, whichever C evaluates first.
        let (x, odd) = (term(0, 1, 0), term(0, 2, 1));
        assert_eq!(kept_index(&[odd.clone(), x.clone()]), x);
        assert_eq!(kept_index(&[x.clone(), odd.clone()]), x);
        // `a[n-1-x] == a[x]`: each is a term of the other; the first stays.
        let rev = term(0, -1, 99);
        assert_eq!(kept_index(&[rev.clone(), x.clone()]), rev);
        // Indices over different variables: the first.
        let y = term(1, 1, 0);
        assert_eq!(kept_index(&[odd.clone(), y.clone()]), odd);
        let four = term(0, 4, 0);
        assert_eq!(kept_index(&[four.clone(), odd.clone()]), odd);
        // `a[2x] < a[2x+1]`: each is a term of the other.
        let even = term(0, 2, 0);
        assert_eq!(kept_index(&[odd.clone(), even.clone()]), odd);
    }
}
