//! Loop acceleration as a program transformation on the CFG, applied when a program is
//! loaded, so that every engine (the CEGAR tabulation, bmc, the concrete search, the
//! interpreter and the trace check) sees it.
//!
//! A loop path (from a loop head back to it through one branch of every test, see
//! [`paths`]) whose updates are translations `x := x + c` and resets `x := c` under a
//! linear condition has an exact closure: `n ≥ 1` iterations in one transition
//! ([`closure`]; Boigelot 1999; Bardin, Finkel, Leroux and Schnoebelen, "Flat
//! acceleration in symbolic model checking", ATVA 2005). Each such path becomes an
//! *alternative* at its loop head, before the original body:
//!
//! ```text
//! n = u;                      // the count (the search picks it, bmc keeps it symbolic)
//! if (n >= 1) {               // else: the next alternative, or the original body
//!     assume(guard(x, n));    // the path's condition at its first and last iteration
//!     x, y = x + c·n, r;      // the state after n iterations
//! }                           // then: the loop's original head
//! ```
//!
//! **Loops that only check.** A loop path whose tests on arrays (or other non-linear
//! conditions) are *checks* (one branch goes straight to the error node, and the test
//! has no effect and cannot end the run otherwise) gets a transition too, made of the
//! path with its checks passed untested ([`paths::loop_paths`]). It jumps over iterations
//! without testing their checks, so it over-approximates the loop, and it keeps the
//! verdict: from a state where it jumps `n` iterations, the loop as written either runs
//! the same `n` iterations (every check holds; the path writes only its own variables,
//! by the same exact closure) or fails a check among them and reaches the error node.
//! So the program reaches an error location iff the transformed one does. Such a loop
//! needs no widening: its head's states are the entry states with the counter anywhere
//! in the range the loop runs through. A counterexample that jumps is run again testing
//! every check ([`crate::trace::test_skipped_checks`]) before it is reported. These
//! transitions come only with `--jump-checks` ([`crate::LoadOptions::jump_checks`]):
//! the bounded engine does not take them (its unrolling tests every check anyway), and
//! the CEGAR engine's refinement, on other abstract traces, has lost proofs with them.
//!
//! Only existing node kinds are used, so no engine needs a special case. The original
//! body stays: the transformation adds a way to take many iterations at once and removes
//! no behaviour, and since the closure is exact it adds none either (but see the loops
//! that only check, above). Inner loops are accelerated first, so that an outer loop
//! path may go through an inner loop's transition (its count is then fixed by the inner
//! loop's bounds, or the path is not accelerated; a transition that jumps over checks is
//! not taken inside an outer one). [`Cfg::accel`] records each count node with the guard as bounds on `n`,
//! from which the interpreter tells its oracle which counts are possible
//! ([`count_range`]).

mod closure;
mod formula;
mod paths;

use crate::cfg::{AccelCount, Cfg, CountAtom, Node, NodeKind};
use crate::ids::{NodeId, ProcId, VarId};
use crate::linear::{Constraint, LinExpr, Rel, Q};
use crate::sema::{CmpOp, Expr, Range, VarInfo, VarKind};
use closure::Closure;
use num_bigint::BigInt;
use num_integer::Integer;
use num_traits::{Signed, ToPrimitive, Zero};
use paths::{dim, var_of};
use std::collections::BTreeSet;

/// The most accelerated alternatives at one loop head.
const MAX_ALTERNATIVES: usize = 4;

/// Accelerate the loops of `cfg` in place (with `jump_checks`, also the loops that only
/// check, see above); returns how many loop paths were accelerated. The CFG is first
/// simplified ([`crate::cfg::simplify`]): a test with no effect or an assignment of the
/// value a variable already has would end a loop path that is otherwise a translation
/// (`if (a[i] == a[j]) r = 1;` with `r` always 1).
pub fn accelerate(cfg: &mut Cfg, jump_checks: bool) -> usize {
    crate::cfg::simplify(cfg);
    let mut done = 0;
    for p in cfg.procs.indices().collect::<Vec<_>>() {
        done += accelerate_proc(cfg, p, jump_checks);
    }
    done
}

fn accelerate_proc(cfg: &mut Cfg, p: ProcId, jump_checks: bool) -> usize {
    let mut loops = cfg.natural_loops(p);
    // Inner loops first: a loop nested in another has the smaller body.
    loops.sort_by_key(|(h, body)| (body.len(), *h));
    let returns: BTreeSet<NodeId> = cfg
        .nodes
        .iter()
        .filter_map(|n| match n.kind {
            NodeKind::Call { ret_point, .. } => Some(ret_point),
            _ => None,
        })
        .collect();
    let mut count: Option<VarId> = None;
    let mut done = 0;
    for i in 0..loops.len() {
        let h = loops[i].0;
        if returns.contains(&h) {
            continue;
        }
        let mut found = paths::loop_paths(cfg, p, h, &loops[i].1, false);
        // Paths that pass checks untested come after the exact ones.
        if jump_checks {
            found.extend(
                paths::loop_paths(cfg, p, h, &loops[i].1, true)
                    .into_iter()
                    .filter(|path| path.skipped > 0),
            );
        }
        if found.is_empty() {
            continue;
        }
        let n = *count.get_or_insert_with(|| count_var(cfg, p, h));
        let mut alts: Vec<(paths::LoopPath, Closure)> = Vec::new();
        for path in found {
            if alts.len() >= MAX_ALTERNATIVES {
                break;
            }
            if let Some(c) = closure::closure(&path, dim(n)) {
                if !c.assign.is_empty() {
                    alts.push((path, c));
                }
            }
        }
        let Some(chain) = add_chain(cfg, p, h, n, &alts) else {
            continue;
        };
        tracing::debug!(head = h.0, alternatives = alts.len(), "loop accelerated");
        done += alts.len();
        for (_, body) in loops.iter_mut().skip(i + 1) {
            if body.contains(&h) {
                body.extend(chain.iter().copied());
            }
        }
    }
    done
}

/// The count variable of procedure `p` (one per procedure: it is dead after each use).
fn count_var(cfg: &mut Cfg, p: ProcId, at: NodeId) -> VarId {
    let v = cfg.vars.push(VarInfo {
        name: "$n".to_string(),
        kind: VarKind::Temp(p),
        range: Range::Any,
        span: cfg.nodes[at].span,
    });
    cfg.procs[p].locals.push(v);
    v
}

/// Insert the alternatives before head `h`: every edge into `h` now goes to the first
/// count node. Returns the new nodes, `None` if there are no alternatives (or one does
/// not translate into expressions).
fn add_chain(
    cfg: &mut Cfg,
    p: ProcId,
    h: NodeId,
    n: VarId,
    alts: &[(paths::LoopPath, Closure)],
) -> Option<Vec<NodeId>> {
    let mut nodes: Vec<(NodeKind, Option<AccelCount>)> = Vec::new();
    let base = cfg.nodes.len() as u32;
    for (k, (path, c)) in alts.iter().enumerate() {
        let id = |j: u32| NodeId(base + 4 * k as u32 + j);
        let next_alt = if k + 1 < alts.len() {
            NodeId(base + 4 * (k as u32 + 1))
        } else {
            h
        };
        let mut conds: Vec<Expr> = c
            .guard
            .all
            .iter()
            .map(constraint_expr)
            .collect::<Option<_>>()?;
        for q in &c.guard.none_of {
            let qs: Vec<Expr> = q.iter().map(constraint_expr).collect::<Option<_>>()?;
            conds.push(Expr::Not(Box::new(conjunction(qs))));
        }
        let (lhs, rhs): (Vec<VarId>, Vec<Expr>) = c
            .assign
            .iter()
            .map(|(v, x)| Some((*v, lin_expr(x)?)))
            .collect::<Option<Vec<_>>>()?
            .into_iter()
            .unzip();
        let info = AccelCount {
            head: h,
            count: n,
            min: c.min,
            path: path.nodes.clone(),
            skips: path.skipped > 0,
            all: c
                .guard
                .all
                .iter()
                .map(|a| count_atom(a, n))
                .collect::<Option<_>>()?,
            none_of: c
                .guard
                .none_of
                .iter()
                .map(|q| q.iter().map(|a| count_atom(a, n)).collect::<Option<_>>())
                .collect::<Option<_>>()?,
        };
        nodes.push((
            NodeKind::Assign {
                lhs: vec![n],
                rhs: vec![Expr::Undef],
                next: id(1),
            },
            Some(info),
        ));
        nodes.push((
            NodeKind::Branch {
                cond: Expr::Cmp(
                    CmpOp::Ge,
                    Box::new(Expr::Var(n)),
                    Box::new(Expr::int(i64::from(c.min))),
                ),
                then: id(2),
                els: next_alt,
            },
            None,
        ));
        nodes.push((
            NodeKind::Assume {
                cond: conjunction(conds),
                next: id(3),
            },
            None,
        ));
        nodes.push((NodeKind::Assign { lhs, rhs, next: h }, None));
    }
    if nodes.is_empty() {
        return None;
    }
    let first = NodeId(base);
    for node in cfg.nodes.iter_mut().filter(|m| m.proc == Some(p)) {
        node.kind.redirect(h, first);
    }
    if cfg.procs[p].entry == h {
        cfg.procs[p].entry = first;
    }
    let span = cfg.nodes[h].span;
    let mut out = Vec::new();
    for (kind, info) in nodes {
        let id = cfg.nodes.push(Node {
            proc: Some(p),
            kind,
            span,
        });
        if let Some(info) = info {
            cfg.accel.insert(id, info);
        }
        out.push(id);
    }
    Some(out)
}

/// `e₁ && e₂ && ...` (`1` when empty).
fn conjunction(es: Vec<Expr>) -> Expr {
    es.into_iter()
        .reduce(|a, b| Expr::And(Box::new(a), Box::new(b)))
        .unwrap_or_else(|| Expr::int(1))
}

/// An integer coefficient, `None` if it is not one.
fn integer(q: &Q) -> Option<BigInt> {
    q.is_integer().then(|| q.to_integer())
}

/// `Σ k·x` over the given terms (`0` when there are none); a negative coefficient after
/// the first term is a subtraction.
fn sum(terms: impl IntoIterator<Item = (BigInt, Expr)>) -> Expr {
    let term = |k: BigInt, x: Expr| {
        if k == BigInt::from(1) {
            x
        } else {
            Expr::Scale(k, Box::new(x))
        }
    };
    let mut out: Option<Expr> = None;
    for (k, x) in terms {
        out = Some(match out {
            None => term(k, x),
            Some(acc) if k.is_negative() => Expr::Sub(Box::new(acc), Box::new(term(-k, x))),
            Some(acc) => Expr::Add(Box::new(acc), Box::new(term(k, x))),
        });
    }
    out.unwrap_or_else(|| Expr::int(0))
}

/// A linear expression over the program's variables as an expression.
fn lin_expr(e: &LinExpr) -> Option<Expr> {
    let mut terms = Vec::new();
    for (d, k) in e.coeffs() {
        terms.push((integer(k)?, Expr::Var(var_of(*d)?)));
    }
    let c = integer(e.constant_term())?;
    let x = sum(terms);
    Some(if c.is_zero() {
        x
    } else if matches!(x, Expr::Const(_)) {
        Expr::Const(c)
    } else if c.is_negative() {
        Expr::Sub(Box::new(x), Box::new(Expr::Const(-c)))
    } else {
        Expr::Add(Box::new(x), Box::new(Expr::Const(c)))
    })
}

/// An atom `e ≤ 0` (`= 0`) as the comparison of its positive terms with the rest.
fn constraint_expr(c: &Constraint) -> Option<Expr> {
    let (mut pos, mut neg) = (Vec::new(), Vec::new());
    for (d, k) in c.expr.coeffs() {
        let k = integer(k)?;
        let x = Expr::Var(var_of(*d)?);
        if k.is_negative() {
            neg.push((-k, x));
        } else {
            pos.push((k, x));
        }
    }
    let k = integer(c.expr.constant_term())?;
    // Σpos + k ≤ Σneg: a positive constant stays on the left.
    if k.is_positive() {
        pos.push((k, Expr::int(1)));
    } else if !k.is_zero() {
        neg.push((-k, Expr::int(1)));
    }
    let fold = |ts: Vec<(BigInt, Expr)>| {
        let (consts, vars): (Vec<_>, Vec<_>) = ts
            .into_iter()
            .partition(|(_, x)| matches!(x, Expr::Const(_)));
        let c: BigInt = consts.into_iter().map(|(k, _)| k).sum();
        let x = sum(vars);
        match (c.is_zero(), matches!(x, Expr::Const(_))) {
            (true, _) => x,
            (false, true) => Expr::Const(c),
            (false, false) => Expr::Add(Box::new(x), Box::new(Expr::Const(c))),
        }
    };
    let op = match c.rel {
        Rel::Le => CmpOp::Le,
        Rel::Lt => CmpOp::Lt,
        Rel::Eq => CmpOp::Eq,
    };
    Some(Expr::Cmp(op, Box::new(fold(pos)), Box::new(fold(neg))))
}

/// An atom as `coef·n + rest REL 0`; strict atoms are tightened away before.
fn count_atom(c: &Constraint, n: VarId) -> Option<CountAtom> {
    let mut rest = c.expr.clone();
    let coef = rest.coeff(dim(n));
    rest.add_term(dim(n), &-coef.clone());
    let eq = match c.rel {
        Rel::Eq => true,
        Rel::Le => false,
        Rel::Lt => {
            rest.add_constant(&Q::from_integer(BigInt::from(1)));
            false
        }
    };
    Some(CountAtom {
        coef: integer(&coef)?,
        rest: lin_expr(&rest)?,
        eq,
    })
}

/// The counts an accelerated transition allows from a state: the least and the greatest
/// (`None`: no greatest).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CountRange {
    /// The least count.
    pub lo: BigInt,
    /// The greatest count, if there is one.
    pub hi: Option<BigInt>,
}

/// The integers the counts are computed in: big integers, or machine integers while
/// every value involved stays far from their bounds (a run's variables are nearly always
/// small, and a loop whose count is asked for at every iteration asks it millions of
/// times).
trait CountInt: Clone + Ord + Integer + Signed + From<u32> {
    /// `x`, if it is one of these (small enough).
    fn of(x: &BigInt) -> Option<Self>;
    fn big(self) -> BigInt;
    /// `self + y`, if it is one of these.
    fn sum(&self, y: &Self) -> Option<Self>;
    /// `self · y`, if it is one of these.
    fn product(&self, y: &Self) -> Option<Self>;
}

impl CountInt for BigInt {
    fn of(x: &BigInt) -> Option<BigInt> {
        Some(x.clone())
    }
    fn big(self) -> BigInt {
        self
    }
    fn sum(&self, y: &BigInt) -> Option<BigInt> {
        Some(self + y)
    }
    fn product(&self, y: &BigInt) -> Option<BigInt> {
        Some(self * y)
    }
}

/// Machine integers below 2^120 in magnitude: the quotients, negations and `± 1` of the
/// interval computation then cannot overflow.
const SMALL_COUNT: i128 = 1 << 120;

impl CountInt for i128 {
    fn of(x: &BigInt) -> Option<i128> {
        x.to_i128().filter(|x| x.abs() < SMALL_COUNT)
    }
    fn big(self) -> BigInt {
        BigInt::from(self)
    }
    fn sum(&self, y: &i128) -> Option<i128> {
        self.checked_add(*y).filter(|x| x.abs() < SMALL_COUNT)
    }
    fn product(&self, y: &i128) -> Option<i128> {
        self.checked_mul(*y).filter(|x| x.abs() < SMALL_COUNT)
    }
}

/// An interval of counts; `None` bounds are infinite.
type Interval<T> = (Option<T>, Option<T>);

/// The counts `a`'s guard allows in the state `value` gives (`None` if a variable has no
/// value yet, or no count is allowed).
pub fn count_range(a: &AccelCount, value: &dyn Fn(VarId) -> Option<BigInt>) -> Option<CountRange> {
    count_range_in(a, value).flatten()
}

/// [`count_range`] on machine integers, for a state whose values `value` gives as `i64`:
/// `None` if a variable has no value or one does not fit (or an intermediate value
/// would not), and [`count_range`] must answer.
pub fn count_range_small(
    a: &AccelCount,
    value: &dyn Fn(VarId) -> Option<i64>,
) -> Option<Option<CountRange>> {
    count_range_in::<i128>(a, &|v| value(v).map(i128::from))
}

/// [`count_range`] in `T`; the outer `None`: a value could not be computed in `T` (a
/// variable without a value, or a value too big for `T`).
fn count_range_in<T: CountInt>(
    a: &AccelCount,
    value: &dyn Fn(VarId) -> Option<T>,
) -> Option<Option<CountRange>> {
    let interval = |atoms: &[CountAtom]| -> Option<Interval<T>> {
        let mut lo: Option<T> = None;
        let mut hi: Option<T> = None;
        let mut empty = false;
        for at in atoms {
            let r = eval(&at.rest, value)?;
            let k = T::of(&at.coef)?;
            // k·n + r ≤ 0 (= 0).
            if k.is_zero() {
                empty |= if at.eq { !r.is_zero() } else { r.is_positive() };
                continue;
            }
            let (l, u) = if at.eq {
                if !(-r.clone()).is_multiple_of(&k) {
                    empty = true;
                    continue;
                }
                let x = -r / k;
                (Some(x.clone()), Some(x))
            } else if k.is_positive() {
                (None, Some((-r).div_floor(&k)))
            } else {
                (Some(r.div_ceil(&-k)), None)
            };
            if let Some(l) = l {
                lo = Some(lo.map_or(l.clone(), |x: T| x.max(l)));
            }
            if let Some(u) = u {
                hi = Some(hi.map_or(u.clone(), |x: T| x.min(u)));
            }
        }
        if empty {
            return Some((Some(T::one()), Some(T::zero())));
        }
        Some((lo, hi))
    };
    let (lo, hi) = interval(&a.all)?;
    let min = T::from(a.min);
    let lo = lo.unwrap_or(min.clone()).max(min);
    let forbidden: Vec<Interval<T>> = a
        .none_of
        .iter()
        .map(|q| interval(q))
        .collect::<Option<_>>()?;
    let inside = |x: &T, (l, u): &Interval<T>| {
        l.as_ref().is_none_or(|l| l <= x) && u.as_ref().is_none_or(|u| x <= u)
    };
    // The least allowed count: step over the forbidden intervals upwards.
    let mut least = lo.clone();
    loop {
        match forbidden.iter().find(|f| inside(&least, f)) {
            Some((_, Some(u))) => least = u.clone() + T::one(),
            Some((_, None)) => return Some(None),
            None => break,
        }
        if hi.as_ref().is_some_and(|h| least > *h) {
            return Some(None);
        }
    }
    if hi.as_ref().is_some_and(|h| least > *h) {
        return Some(None);
    }
    // The greatest: downwards from the upper bound, if there is one.
    let greatest = match hi {
        None => None,
        Some(mut g) => loop {
            match forbidden.iter().find(|f| inside(&g, f)) {
                Some((Some(l), _)) => g = l.clone() - T::one(),
                Some((None, _)) => return Some(None),
                None => break Some(g),
            }
        },
    };
    Some(Some(CountRange {
        lo: least.big(),
        hi: greatest.map(T::big),
    }))
}

/// The value of a linear expression over variables with known values (`None`: a
/// variable without one, or a value that does not fit in `T`).
fn eval<T: CountInt>(e: &Expr, value: &dyn Fn(VarId) -> Option<T>) -> Option<T> {
    match e {
        Expr::Const(c) => T::of(c),
        Expr::Var(v) => value(*v),
        Expr::Add(a, b) => eval(a, value)?.sum(&eval(b, value)?),
        Expr::Sub(a, b) => eval(a, value)?.sum(&-eval(b, value)?),
        Expr::Scale(k, a) => T::of(k)?.product(&eval(a, value)?),
        _ => None,
    }
}

#[cfg(test)]
mod tests;
