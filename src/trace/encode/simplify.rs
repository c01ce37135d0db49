//! Simplification for the path encoder: constant folding at the top of terms, the
//! integer-or-Boolean value of an expression, and the values an asserted guard fixes
//! ([`PathEncoder::learn`]), which keep deterministic parts of a path out of the solver.

use super::PathEncoder;
use crate::smt::{SymId, Term};
use num_bigint::BigInt;
use std::collections::{BTreeMap, HashMap};

/// Integer- or Boolean-valued encodings of expressions (C's 0/1 booleans are kept as
/// SMT Booleans until an integer is needed).
pub(super) enum V {
    I(Term),
    B(Term),
}

impl V {
    pub(super) fn int(self) -> Term {
        match self {
            V::I(t) => t,
            V::B(b) => fold(Term::ite(b, Term::int(1), Term::int(0))),
        }
    }
    pub(super) fn bool(self) -> Term {
        match self {
            V::I(t) => fold(Term::ne(t, Term::int(0))),
            V::B(b) => b,
        }
    }
}

pub(super) fn i64_max() -> Term {
    Term::int(i64::MAX)
}

/// Add `factor * t` to the linear form `lin + c`; `false` if `t` is not linear over
/// integer symbols.
pub(super) fn linear(
    t: &Term,
    factor: &BigInt,
    lin: &mut BTreeMap<SymId, BigInt>,
    c: &mut BigInt,
) -> bool {
    match t {
        Term::Int(n) => {
            *c += factor * n;
            true
        }
        Term::Sym(s) => {
            *lin.entry(*s).or_insert_with(|| BigInt::from(0)) += factor;
            true
        }
        Term::Add(ts) => ts.iter().all(|x| linear(x, factor, lin, c)),
        Term::Sub(a, b) => linear(a, factor, lin, c) && linear(b, &-factor, lin, c),
        Term::Neg(a) => linear(a, &-factor, lin, c),
        Term::Mul(k, a) if k.is_integer() => linear(a, &(factor * k.to_integer()), lin, c),
        _ => false,
    }
}

/// Constant folding at the top of a term whose children are already folded: sums,
/// comparisons and connectives of literals, and `ite` with a literal condition. Keeps
/// deterministic parts of a trace (loop counters, constant indices) out of the solver.
pub(super) fn fold(t: Term) -> Term {
    use num_traits::Zero;
    fn lit(t: &Term) -> Option<&BigInt> {
        match t {
            Term::Int(n) => Some(n),
            _ => None,
        }
    }
    fn cmp(a: &Term, b: &Term, f: fn(&BigInt, &BigInt) -> bool) -> Option<Term> {
        Some(Term::Bool(f(lit(a)?, lit(b)?)))
    }
    let folded = match &t {
        Term::Add(ts) => {
            let mut sum = BigInt::zero();
            let mut all = true;
            for x in ts {
                match lit(x) {
                    Some(n) => sum += n,
                    None => all = false,
                }
            }
            all.then_some(Term::Int(sum))
        }
        Term::Sub(a, b) => match (lit(a), lit(b)) {
            (Some(x), Some(y)) => Some(Term::Int(x - y)),
            _ => None,
        },
        Term::Neg(a) => lit(a).map(|x| Term::Int(-x)),
        Term::Mul(c, a) => match lit(a) {
            Some(x) if c.is_integer() => Some(Term::Int(c.to_integer() * x)),
            _ => None,
        },
        Term::Le(a, b) => cmp(a, b, |x, y| x <= y),
        Term::Lt(a, b) => cmp(a, b, |x, y| x < y),
        Term::Ge(a, b) => cmp(a, b, |x, y| x >= y),
        Term::Gt(a, b) => cmp(a, b, |x, y| x > y),
        Term::Eq(a, b) => cmp(a, b, |x, y| x == y),
        Term::Distinct(ts) if ts.len() == 2 => cmp(&ts[0], &ts[1], |x, y| x != y),
        Term::Not(a) => match **a {
            Term::Bool(b) => Some(Term::Bool(!b)),
            _ => None,
        },
        Term::And(ts) | Term::Or(ts) => {
            let is_and = matches!(t, Term::And(_));
            if ts.contains(&Term::Bool(!is_and)) {
                Some(Term::Bool(!is_and))
            } else if ts.contains(&Term::Bool(is_and)) {
                let rest: Vec<Term> = ts
                    .iter()
                    .filter(|x| **x != Term::Bool(is_and))
                    .cloned()
                    .collect();
                Some(match rest.len() {
                    0 => Term::Bool(is_and),
                    1 => rest.into_iter().next().unwrap_or(Term::Bool(is_and)),
                    _ if is_and => Term::And(rest),
                    _ => Term::Or(rest),
                })
            } else {
                None
            }
        }
        Term::Ite(c, a, b) => match **c {
            Term::Bool(true) => Some((**a).clone()),
            Term::Bool(false) => Some((**b).clone()),
            _ => None,
        },
        _ => None,
    };
    folded.unwrap_or(t)
}

impl PathEncoder<'_> {
    /// Learn from `guard`, which the path asserts: an equation that fixes one symbol
    /// (`x == 7777`, `y - x == 1000` once `x` is known, through the definitions of
    /// named terms) makes that symbol's value a literal in the state, so later
    /// conditions on it fold without a solver call. Sound: on this path the symbol has
    /// that value.
    pub(crate) fn learn(&mut self, guard: &Term) {
        let mut known: HashMap<SymId, BigInt> = HashMap::new();
        self.collect_equalities(guard, &mut known, 0);
        if known.is_empty() {
            return;
        }
        let sub = |t: &mut Term| {
            if let Term::Sym(s) = t {
                if let Some(v) = known.get(s) {
                    *t = Term::Int(v.clone());
                }
            }
        };
        for f in &mut self.stack {
            f.vars.values_mut().for_each(sub);
        }
        self.globals.values_mut().for_each(sub);
    }

    fn collect_equalities(&self, g: &Term, known: &mut HashMap<SymId, BigInt>, depth: u32) {
        if depth > 8 {
            return;
        }
        match g {
            Term::And(ts) => ts
                .iter()
                .for_each(|t| self.collect_equalities(t, known, depth + 1)),
            Term::Not(a) => match &**a {
                Term::Not(b) => self.collect_equalities(b, known, depth + 1),
                Term::Distinct(ts) if ts.len() == 2 => self.solve_eq(&ts[0], &ts[1], known, depth),
                _ => {}
            },
            Term::Eq(a, b) => self.solve_eq(a, b, known, depth),
            _ => {}
        }
    }

    /// If `a = b` fixes exactly one symbol (coefficient ±1, the others known), record
    /// it, and go on into that symbol's definition.
    fn solve_eq(&self, a: &Term, b: &Term, known: &mut HashMap<SymId, BigInt>, depth: u32) {
        if depth > 8 {
            return;
        }
        let (mut lin, mut c) = (BTreeMap::new(), BigInt::from(0));
        if !linear(a, &BigInt::from(1), &mut lin, &mut c)
            || !linear(b, &BigInt::from(-1), &mut lin, &mut c)
        {
            return;
        }
        for (s, v) in known.iter() {
            if let Some(k) = lin.remove(s) {
                c += k * v;
            }
        }
        lin.retain(|_, k| *k != BigInt::from(0));
        if lin.len() != 1 {
            return;
        }
        let (s, k) = lin.into_iter().next().expect("one symbol");
        // k*s + c = 0
        let v = if k == BigInt::from(1) {
            -c
        } else if k == BigInt::from(-1) {
            c
        } else {
            return;
        };
        known.insert(s, v.clone());
        let def = self.defs.borrow().get(&s).cloned();
        if let Some(d) = def {
            self.solve_eq(&d, &Term::Int(v), known, depth + 1);
        }
    }
}
