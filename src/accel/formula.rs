//! Path conditions of loop paths: boolean formulas over linear atoms, and their normal
//! form [`Cond`], a conjunction of atoms and of negated conjunctions (`¬(a = b ∧ b = c)`
//! stays one condition instead of four disjuncts, so that a loop body guarded by the
//! negation of an equality chain is still one path).

use crate::linear::{Constraint, Dim, LinExpr, Rel, Tightened};

/// A boolean formula over linear atoms (values are integers).
#[derive(Clone, Debug)]
pub(super) enum BoolF {
    True,
    False,
    Atom(Constraint),
    And(Box<BoolF>, Box<BoolF>),
    Or(Box<BoolF>, Box<BoolF>),
    Not(Box<BoolF>),
}

impl BoolF {
    pub fn and(a: BoolF, b: BoolF) -> BoolF {
        match (&a, &b) {
            (BoolF::True, _) => b,
            (_, BoolF::True) => a,
            (BoolF::False, _) | (_, BoolF::False) => BoolF::False,
            _ => BoolF::And(Box::new(a), Box::new(b)),
        }
    }
    pub fn or(a: BoolF, b: BoolF) -> BoolF {
        match (&a, &b) {
            (BoolF::False, _) => b,
            (_, BoolF::False) => a,
            (BoolF::True, _) | (_, BoolF::True) => BoolF::True,
            _ => BoolF::Or(Box::new(a), Box::new(b)),
        }
    }
    pub fn not(a: BoolF) -> BoolF {
        match a {
            BoolF::True => BoolF::False,
            BoolF::False => BoolF::True,
            BoolF::Not(x) => *x,
            a => BoolF::Not(Box::new(a)),
        }
    }
}

/// A path condition: every atom of `all` holds, and no conjunction of `none_of` holds
/// entirely. Atoms are integer-tightened (`≤` or `=`, coprime integer coefficients).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(super) struct Cond {
    pub all: Vec<Constraint>,
    pub none_of: Vec<Vec<Constraint>>,
}

/// The atom `1 ≤ 0`.
pub(super) fn false_atom() -> Constraint {
    Constraint::new(LinExpr::int(1), Rel::Le)
}

/// Integer tightening of each atom: `None` if one is false; true ones are dropped.
pub(super) fn tighten_all(cs: &[Constraint]) -> Option<Vec<Constraint>> {
    let mut out: Vec<Constraint> = Vec::with_capacity(cs.len());
    for c in cs {
        match c.tighten() {
            Tightened::True => {}
            Tightened::False => return None,
            Tightened::Atom(a) => {
                if !out.contains(&a) {
                    out.push(a)
                }
            }
        }
    }
    Some(out)
}

impl Cond {
    /// `self ∧ other`, normalised; `None` if it is false syntactically.
    pub fn and(&self, other: &Cond) -> Option<Cond> {
        let mut all = self.all.clone();
        all.extend(other.all.iter().cloned());
        let mut none_of = self.none_of.clone();
        none_of.extend(other.none_of.iter().cloned());
        Cond { all, none_of }.normalised()
    }

    /// Tightened atoms; a negated conjunction with a false atom is dropped (it always
    /// holds), one whose atoms are all true makes the condition false (`None`).
    pub fn normalised(self) -> Option<Cond> {
        let mut all = self.all;
        let mut none_of: Vec<Vec<Constraint>> = Vec::new();
        for q in &self.none_of {
            match tighten_all(q) {
                None => {}
                Some(q) if q.is_empty() => return None,
                // `¬(e ≤ 0)` is an atom.
                Some(q) if q.len() == 1 && q[0].rel != Rel::Eq => all.extend(q[0].negate()),
                Some(mut q) => {
                    q.sort();
                    if !none_of.contains(&q) {
                        none_of.push(q)
                    }
                }
            }
        }
        let all = tighten_all(&all)?;
        Some(Cond { all, none_of })
    }

    /// Every dimension the condition mentions.
    pub fn dims(&self) -> impl Iterator<Item = Dim> + '_ {
        self.all
            .iter()
            .chain(self.none_of.iter().flatten())
            .flat_map(|c| c.expr.dims())
    }

    /// Replace dimension `d` by `e` everywhere.
    pub fn substitute(&self, d: Dim, e: &LinExpr) -> Option<Cond> {
        Cond {
            all: self.all.iter().map(|c| c.substitute(d, e)).collect(),
            none_of: self
                .none_of
                .iter()
                .map(|q| q.iter().map(|c| c.substitute(d, e)).collect())
                .collect(),
        }
        .normalised()
    }
}

/// The most disjuncts a condition may split into (more: the path is not accelerated).
const MAX_FORMS: usize = 8;

/// `f` (or `¬f` when `pos` is false) as a plain conjunction of atoms, if it is one.
fn pure(f: &BoolF, pos: bool) -> Option<Vec<Constraint>> {
    match (f, pos) {
        (BoolF::True, true) | (BoolF::False, false) => Some(Vec::new()),
        (BoolF::True, false) | (BoolF::False, true) => Some(vec![false_atom()]),
        (BoolF::Atom(c), true) => Some(vec![c.clone()]),
        (BoolF::Atom(c), false) => match c.rel {
            Rel::Eq => None,
            _ => Some(c.negate()),
        },
        (BoolF::And(a, b), true) | (BoolF::Or(a, b), false) => {
            let mut x = pure(a, pos)?;
            x.extend(pure(b, pos)?);
            Some(x)
        }
        (BoolF::Not(a), _) => pure(a, !pos),
        _ => None,
    }
}

/// `f` (or `¬f`) as a disjunction of [`Cond`]s, each of which implies it; `None` when it
/// would take more than [`MAX_FORMS`].
pub(super) fn forms(f: &BoolF, pos: bool) -> Option<Vec<Cond>> {
    if let Some(all) = pure(f, pos) {
        let c = Cond {
            all,
            none_of: vec![],
        };
        return Some(c.normalised().into_iter().collect());
    }
    if let Some(q) = pure(f, !pos) {
        let c = Cond {
            all: vec![],
            none_of: vec![q],
        };
        return Some(c.normalised().into_iter().collect());
    }
    let out = match (f, pos) {
        (BoolF::Not(a), _) => forms(a, !pos)?,
        (BoolF::Atom(c), false) => Cond {
            all: vec![],
            none_of: vec![vec![c.clone()]],
        }
        .normalised()
        .into_iter()
        .collect(),
        (BoolF::And(a, b), true) | (BoolF::Or(a, b), false) => {
            let fa = forms(a, pos)?;
            let fb = forms(b, pos)?;
            let mut out = Vec::new();
            for x in &fa {
                for y in &fb {
                    if let Some(c) = x.and(y) {
                        out.push(c);
                    }
                }
            }
            out
        }
        (BoolF::And(a, b), false) | (BoolF::Or(a, b), true) => {
            let mut out = forms(a, pos)?;
            out.extend(forms(b, pos)?);
            out
        }
        _ => unreachable!("pure() covers constants and positive atoms"),
    };
    (out.len() <= MAX_FORMS).then_some(out)
}

/// Eliminate dimension `d` from a conjunction of tightened atoms, exactly over the
/// integers: through an equality with coefficient ±1, or by pairing lower and upper
/// bounds when one of each pair has coefficient ±1 (then `∃ integer d` between them iff
/// the bounds are ordered). `None` when that is not exact (both coefficients larger);
/// a result with a false atom when the conjunction has no solution.
pub(super) fn eliminate(cs: &[Constraint], d: Dim) -> Option<Vec<Constraint>> {
    use num_traits::{One, Signed, Zero};
    let cs = match tighten_all(cs) {
        Some(cs) => cs,
        None => return Some(vec![false_atom()]),
    };
    if let Some(eq) = cs
        .iter()
        .find(|c| c.rel == Rel::Eq && c.expr.coeff(d).abs().is_one())
    {
        let e = solve(&eq.expr, d);
        let rest: Vec<Constraint> = cs
            .iter()
            .filter(|c| *c != eq)
            .map(|c| c.substitute(d, &e))
            .collect();
        return Some(tighten_all(&rest).unwrap_or_else(|| vec![false_atom()]));
    }
    let mut keep = Vec::new();
    let (mut lower, mut upper) = (Vec::new(), Vec::new());
    for c in cs {
        let k = c.expr.coeff(d);
        if k.is_zero() {
            keep.push(c);
        } else if c.rel == Rel::Eq {
            return None;
        } else if k.is_negative() {
            lower.push(c);
        } else {
            upper.push(c);
        }
    }
    for l in &lower {
        for u in &upper {
            let (kl, ku) = (-l.expr.coeff(d), u.expr.coeff(d));
            if !kl.is_one() && !ku.is_one() {
                return None;
            }
            // ku·(l) + kl·(u) cancels d.
            let e = &l.expr.scale(&ku) + &u.expr.scale(&kl);
            keep.push(Constraint::new(e, Rel::Le));
        }
    }
    Some(tighten_all(&keep).unwrap_or_else(|| vec![false_atom()]))
}

/// `d` solved from `e = 0`, where `d`'s coefficient in `e` is ±1.
pub(super) fn solve(e: &LinExpr, d: Dim) -> LinExpr {
    let k = e.coeff(d);
    let mut rest = e.clone();
    rest.add_term(d, &-k.clone());
    // k·d + rest = 0  ⇒  d = -rest / k = -k·rest (k = ±1).
    rest.scale(&-k)
}
