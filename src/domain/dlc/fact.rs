//! One disjunct of the DLC domain with its congruence component: a conjunction of linear
//! constraints and, per dimension, a congruence `x ≡ r (mod m)` (Granger's non-relational
//! congruences, [`Cong`]). The two form a reduced product: the conjunction's equalities
//! feed the congruences ([`derive`]: `x = 2q` gives `x ≡ 0 (mod 2)`, `y = x + 2` carries
//! `x`'s congruence to `y`), and a congruence tightens the bounds of its dimension
//! ([`reduce`]: `x ≡ 1 (mod 2) ∧ 0 ≤ x ≤ 1` gives `x = 1`).
//!
//! The facts' meaning is the intersection of both parts, so dropping a congruence is
//! always sound; the transfer functions drop those of every dimension they eliminate or
//! reuse. When the component is off, `congs` stays empty and nothing here runs.

use crate::linear::{Cong, Conj, Constraint, Dim, LinExpr, Q};
use num_bigint::BigInt;
use num_traits::{One, Zero};
use std::collections::BTreeMap;

/// Congruences per dimension.
pub type Congs = BTreeMap<Dim, Cong>;

/// A disjunct: linear constraints and the congruences of some dimensions (each with a
/// modulus of at least 2: constants are rows, and `mod 1` says nothing).
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub struct Fact {
    /// The linear part.
    pub conj: Conj,
    /// The congruences.
    pub congs: Congs,
}

impl std::ops::Deref for Fact {
    type Target = Conj;
    fn deref(&self) -> &Conj {
        &self.conj
    }
}

impl From<Conj> for Fact {
    fn from(conj: Conj) -> Fact {
        Fact {
            conj,
            congs: Congs::new(),
        }
    }
}

impl Fact {
    /// The congruences renamed through `f` (which must be injective on them), with the
    /// linear part.
    pub fn rename(&self, f: &impl Fn(Dim) -> Dim) -> Fact {
        Fact {
            conj: self.conj.rename(f),
            congs: self.congs.iter().map(|(d, c)| (f(*d), c.clone())).collect(),
        }
    }
}

impl std::fmt::Display for Fact {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}", self.conj)?;
        for (d, c) in &self.congs {
            write!(f, " ∧ {d} {c}")?;
        }
        Ok(())
    }
}

fn int(q: &Q) -> Option<BigInt> {
    q.is_integer().then(|| q.to_integer())
}

/// Meets `c` into `k[d]`; `false` if the meet is empty.
fn meet_into(k: &mut Congs, d: Dim, c: Cong) -> bool {
    if c.is_top() {
        return true;
    }
    let m = match k.get(&d) {
        None => Some(c),
        Some(o) => o.meet(&c),
    };
    match m {
        None => false,
        Some(m) => {
            k.insert(d, m);
            true
        }
    }
}

/// The congruences `congs` closed under the equalities of `c` (constants included, with
/// modulus 0): for every equality `Σ aⱼxⱼ = v` and dimension `xᵢ` in it, `aᵢxᵢ` lies in
/// the congruence of `v − Σ_{j≠i} aⱼxⱼ` (every `xⱼ` ranging over its congruence), so
/// `xᵢ` lies in its quotient by `aᵢ`. Sound (each step over-approximates), not complete.
/// `None` when the result is empty: `c ∧ congs` has no integer point.
pub fn derive(c: &Conj, congs: &Congs) -> Option<Congs> {
    if c.is_trivially_false() {
        return None;
    }
    let mut k = congs.clone();
    let eqs: Vec<(Vec<(Dim, BigInt)>, BigInt)> = c
        .rows()
        .filter(|(_, r)| r.is_equality())
        .filter_map(|(key, r)| {
            let v = int(&r.lo.as_ref()?.value)?;
            let coeffs: Option<Vec<(Dim, BigInt)>> =
                key.iter().map(|(d, a)| Some((*d, int(a)?))).collect();
            Some((coeffs?, v))
        })
        .collect();
    if eqs.is_empty() {
        return Some(k);
    }
    // Two rounds: a congruence learnt from one equality can help another.
    for _ in 0..2 {
        for (coeffs, v) in &eqs {
            for (i, (d, a)) in coeffs.iter().enumerate() {
                let mut rhs = Cong::constant(v.clone());
                for (j, (e, b)) in coeffs.iter().enumerate() {
                    if i != j {
                        let ce = k.get(e).cloned().unwrap_or_else(Cong::top);
                        rhs = rhs.add(&ce.scale(&-b));
                        if rhs.is_top() {
                            break;
                        }
                    }
                }
                if rhs.is_top() {
                    continue;
                }
                // a·x ∈ rhs: x ∈ (rhs ∩ aℤ) / a.
                let multiples = Cong::new(BigInt::zero(), a.clone());
                let ax = rhs.meet(&multiples)?;
                if let Some(x) = ax.divide(a) {
                    if !meet_into(&mut k, *d, x) {
                        return None;
                    }
                }
            }
        }
    }
    Some(k)
}

/// The congruences worth keeping in a fact: moduli of at least 2, on dimensions that
/// `keep` accepts.
pub fn kept(k: Congs, keep: impl Fn(Dim) -> bool) -> Congs {
    k.into_iter()
        .filter(|(d, c)| c.m > BigInt::one() && keep(*d))
        .collect()
}

/// Tightens the bounds of `f`'s rows to the nearest integers its congruences allow
/// ([`tighten`]). `false` when a range holds none (the fact is empty).
pub fn reduce(f: &mut Fact) -> bool {
    tighten(&mut f.conj, &f.congs)
}

/// Tightens the range of every row `lo ≤ Σ aⱼxⱼ ≤ hi` of `c` to the nearest values in
/// the congruence of `Σ aⱼxⱼ` (each `xⱼ` ranging over its congruence in `k`): `x ≡ 1
/// (mod 2) ∧ 0 ≤ x ≤ 1` gives `x = 1`, `x ≡ 0 (mod 4) ∧ 1 ≤ x − 4q ≤ 3` is empty.
/// `false` when a range holds none.
pub fn tighten(c: &mut Conj, k: &Congs) -> bool {
    if k.is_empty() {
        return !c.is_trivially_false();
    }
    let mut adds = Vec::new();
    for (key, r) in c.rows() {
        if !key.keys().any(|d| k.contains_key(d)) {
            continue;
        }
        let mut form = Cong::constant(BigInt::zero());
        for (d, a) in key {
            let Some(a) = int(a) else {
                form = Cong::top();
                break;
            };
            form = form.add(&k.get(d).cloned().unwrap_or_else(Cong::top).scale(&a));
            if form.is_top() {
                break;
            }
        }
        if form.is_top() {
            continue;
        }
        let e = LinExpr::from_parts(key.iter().map(|(d, a)| (*d, a.clone())), Q::zero());
        if let Some(lo) = r.lo.as_ref().and_then(|b| int(&b.value)) {
            match form.at_least(&lo) {
                Some(v) if v == lo => {}
                Some(v) => adds.push(Constraint::ge(&e, &LinExpr::constant(Q::from_integer(v)))),
                None => return false,
            }
        }
        if let Some(hi) = r.hi.as_ref().and_then(|b| int(&b.value)) {
            match form.at_most(&hi) {
                Some(v) if v == hi => {}
                Some(v) => adds.push(Constraint::le(&e, &LinExpr::constant(Q::from_integer(v)))),
                None => return false,
            }
        }
    }
    for x in &adds {
        c.add(x);
    }
    !c.is_trivially_false()
}

/// The congruences both facts satisfy (Granger's join per dimension, each side closed
/// under its equalities first); a dimension one side says nothing about is dropped. The
/// join is also the widening: chains of congruences are finite.
pub fn join(a: &Fact, b: &Fact) -> Congs {
    let (Some(ka), Some(kb)) = (derive(&a.conj, &a.congs), derive(&b.conj, &b.congs)) else {
        // One side is empty: the other's congruences hold of the union.
        return match derive(&a.conj, &a.congs) {
            Some(k) => kept(k, |_| true),
            None => kept(derive(&b.conj, &b.congs).unwrap_or_default(), |_| true),
        };
    };
    let out: Congs = ka
        .iter()
        .filter_map(|(d, x)| kb.get(d).map(|y| (*d, x.join(y))))
        .collect();
    kept(out, |_| true)
}

/// Whether every point of `f` satisfies the congruences of `g` (checked on `f` closed
/// under its equalities; sound, not complete).
pub fn congs_entailed(f: &Fact, g: &Fact) -> bool {
    if g.congs.is_empty() {
        return true;
    }
    let Some(kf) = derive(&f.conj, &f.congs) else {
        return true;
    };
    g.congs
        .iter()
        .all(|(d, cg)| kf.get(d).is_some_and(|cf| cf.leq(cg)))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn x(i: u32) -> LinExpr {
        LinExpr::var(Dim(i))
    }

    fn cong(r: i64, m: i64) -> Cong {
        Cong::new(r.into(), m.into())
    }

    fn conj(cs: &[Constraint]) -> Conj {
        Conj::from_constraints(cs)
    }

    #[test]
    fn equalities_feed_congruences() {
        // x0 = 2·x1 + 1 gives x0 odd; x2 = x0 + 4 carries it.
        let c = conj(&[
            Constraint::eq(
                &x(0),
                &(&x(1).scale(&Q::from_integer(2.into())) + &LinExpr::int(1)),
            ),
            Constraint::eq(&x(2), &(&x(0) + &LinExpr::int(4))),
        ]);
        let k = derive(&c, &Congs::new()).expect("satisfiable");
        assert_eq!(k.get(&Dim(0)), Some(&cong(1, 2)));
        assert_eq!(k.get(&Dim(2)), Some(&cong(1, 2)));
        assert_eq!(k.get(&Dim(1)), None);
        // With x1 ≡ 1 (mod 3): x0 = 2·x1 + 1 ≡ 3 (mod 6).
        let k = derive(&c, &Congs::from([(Dim(1), cong(1, 3))])).expect("satisfiable");
        assert_eq!(k.get(&Dim(0)), Some(&cong(3, 6)));
        // 2·x3 = x0 with x0 odd: empty.
        let mut c2 = c.clone();
        c2.add(&Constraint::eq(
            &x(3).scale(&Q::from_integer(2.into())),
            &x(0),
        ));
        assert_eq!(derive(&c2, &Congs::new()), None);
    }

    #[test]
    fn a_congruence_tightens_the_bounds() {
        // x ≡ 1 (mod 2) ∧ 0 ≤ x ≤ 1 gives x = 1; with 2 ≤ x ≤ 2, empty.
        let mut f = Fact {
            conj: conj(&[
                Constraint::ge(&x(0), &LinExpr::int(0)),
                Constraint::le(&x(0), &LinExpr::int(1)),
            ]),
            congs: Congs::from([(Dim(0), cong(1, 2))]),
        };
        assert!(reduce(&mut f));
        assert!(f.conj.implies(&Constraint::eq(&x(0), &LinExpr::int(1))));
        let mut g = Fact {
            conj: conj(&[Constraint::eq(&x(0), &LinExpr::int(2))]),
            congs: Congs::from([(Dim(0), cong(1, 2))]),
        };
        assert!(!reduce(&mut g));
    }

    #[test]
    fn join_keeps_what_both_sides_satisfy() {
        // x = 0 and x = 2: x ≡ 0 (mod 2); x ≡ 0 (mod 4) and x = 6: x ≡ 0 (mod 2);
        // x = 0 and x = 1: nothing.
        let at = |v: i64| Fact::from(conj(&[Constraint::eq(&x(0), &LinExpr::int(v))]));
        assert_eq!(join(&at(0), &at(2)), Congs::from([(Dim(0), cong(0, 2))]));
        assert_eq!(join(&at(0), &at(1)), Congs::new());
        let four = Fact {
            conj: Conj::top(),
            congs: Congs::from([(Dim(0), cong(0, 4))]),
        };
        assert_eq!(join(&four, &at(6)), Congs::from([(Dim(0), cong(0, 2))]));
        assert_eq!(join(&four, &at(8)), Congs::from([(Dim(0), cong(0, 4))]));
        // A side that says nothing of x: nothing.
        assert_eq!(join(&four, &Fact::default()), Congs::new());
        // Entailment: x = 8 satisfies x ≡ 0 (mod 4), x = 6 does not.
        assert!(congs_entailed(&at(8), &four));
        assert!(!congs_entailed(&at(6), &four));
        assert!(!congs_entailed(&Fact::default(), &four));
    }
}
