//! What a certificate claims, and its claims as SMT terms in a symbolic state: a
//! [`Formula`] of the invariant map over the abstraction's variables (a program scalar is
//! its value, a cell `a[i]` is `select(a, i)`, a symbolic cell `a[k]` is `select(a, k)`
//! at a ghost index `k`, an entry value `x₀` is the value at the procedure's entry), or a
//! C expression of a witness over the program's variables.

use super::enc::{entry_var, Enc, EncError, State, R};
use crate::ids::{ArrayId, NodeId, ProcId, VarId};
use crate::invariant::{Formula, Row, Term as ITerm, TermKind};
use crate::sema::{Expr, VarInfo, VarKind};
use crate::smt::{Sort, Term};
use num_bigint::BigInt;
use num_rational::BigRational;
use std::collections::BTreeMap;

/// One claim at a point.
#[derive(Clone, Debug)]
pub(crate) enum Claim {
    /// A formula of the invariant map (possibly ∀ over the ghosts).
    Formula(Formula),
    /// A C expression over the program's variables (a witness's invariant).
    Expr(Expr),
}

/// The claims of a certificate: the invariant at each loop head, the entry condition and
/// the summary of each summarized procedure, and the ∀-statements at loop exits. A point
/// without a claim claims `false` (nothing reaches it).
#[derive(Clone, Debug, Default)]
pub(crate) struct Claims {
    /// At loop heads (conjoined when several).
    pub loop_heads: BTreeMap<NodeId, Vec<Claim>>,
    /// At the entries of summarized procedures.
    pub entries: BTreeMap<ProcId, Vec<Claim>>,
    /// The summaries (entry values `x₀`, exit values, `$ret`).
    pub summaries: BTreeMap<ProcId, Vec<Claim>>,
    /// Extra obligations where control passes a node (the ∀-statements after loops, at
    /// the loop's exit node).
    pub passing: BTreeMap<NodeId, Vec<Claim>>,
    /// The variables of the abstraction the formulas are over.
    pub vars: Vec<VarInfo>,
}

/// The range of a ghost index: `k < bound` when the arrays have constant sizes, and
/// `k ≡ r (mod m)` when their indices are all in that class (`0 ≤ k` always).
pub(super) type GhostRange = (Option<u64>, Option<(u32, u32)>);

/// The ghost indices of the formulas: their number and the range of each.
pub(super) fn ghost_bounds(vars: &[VarInfo]) -> Vec<GhostRange> {
    vars.iter()
        .filter_map(|v| match v.kind {
            VarKind::Ghost { bound, residue } => Some((bound, residue)),
            _ => None,
        })
        .collect()
}

/// Where a claim is read: the current state, the state at the procedure's entry (for
/// `x₀`), the procedure, and the values of the ghosts.
pub(super) struct Env<'s> {
    pub cur: &'s State,
    pub entry: &'s State,
    pub proc: ProcId,
    pub ghosts: &'s [Term],
}

/// The range condition of ghost values `ks`: each in its range, in increasing order.
pub(super) fn ghost_range(bounds: &[GhostRange], ks: &[Term]) -> Term {
    let mut cs = Vec::new();
    for (k, (b, residue)) in ks.iter().zip(bounds) {
        cs.push(Term::ge(k.clone(), Term::int(0)));
        if let Some(n) = b {
            cs.push(Term::lt(k.clone(), Term::int(BigInt::from(*n))));
        }
        if let Some((r, m)) = residue {
            cs.push(Term::eq(
                Term::modulo(k.clone(), BigInt::from(*m)),
                Term::int(BigInt::from(*r)),
            ));
        }
    }
    for w in ks.windows(2) {
        cs.push(Term::lt(w[0].clone(), w[1].clone()));
    }
    Term::and(cs)
}

impl Enc<'_> {
    /// The claims at a point as one term (their conjunction).
    pub(super) fn claims(&mut self, cs: &[Claim], vars: &[VarInfo], env: &Env) -> R<Term> {
        self.unknowns.clear();
        let mut ts = Vec::with_capacity(cs.len());
        for c in cs {
            ts.push(self.claim(c, vars, env)?);
        }
        Ok(Term::and(ts))
    }

    fn claim(&mut self, c: &Claim, vars: &[VarInfo], env: &Env) -> R<Term> {
        match c {
            Claim::Formula(f) => self.formula(f, vars, env),
            Claim::Expr(e) => self.boolean(env.cur, e),
        }
    }

    fn formula(&mut self, f: &Formula, vars: &[VarInfo], env: &Env) -> R<Term> {
        Ok(match f {
            Formula::Row(r) => self.row(r, vars, env)?,
            Formula::And(fs) => {
                let mut ts = Vec::new();
                for f in fs {
                    ts.push(self.formula(f, vars, env)?);
                }
                Term::and(ts)
            }
            Formula::Or(fs) => {
                let mut ts = Vec::new();
                for f in fs {
                    ts.push(self.formula(f, vars, env)?);
                }
                Term::or(ts)
            }
            Formula::Implies(a, b) => {
                Term::implies(self.formula(a, vars, env)?, self.formula(b, vars, env)?)
            }
            // The ghosts are the environment's: a claim is read at given ghost values.
            Formula::Forall(_, body) => self.formula(body, vars, env)?,
            // SMT-LIB's `mod` by a positive constant is Euclidean: in [0, m), as `r` is.
            Formula::Cong(t, r, m) => {
                let x = self.term(t, vars, env)?;
                Term::eq(Term::modulo(x, m.clone()), Term::int(r.clone()))
            }
        })
    }

    /// `lo ≤ Σ c·t ≤ hi` over the integers (a fractional or strict bound tightened).
    fn row(&mut self, r: &Row, vars: &[VarInfo], env: &Env) -> R<Term> {
        let mut sum = Vec::with_capacity(r.terms.len());
        for (c, t) in &r.terms {
            let x = self.term(t, vars, env)?;
            sum.push(Term::scale_int(c.clone(), x));
        }
        let s = Term::sum(sum);
        let mut cs = Vec::new();
        if let Some(lo) = &r.lo {
            // s ≥ lo, or s > lo.
            let b = if lo.strict {
                floor(&lo.value) + 1
            } else {
                ceil(&lo.value)
            };
            cs.push(Term::ge(s.clone(), Term::int(b)));
        }
        if let Some(hi) = &r.hi {
            let b = if hi.strict {
                ceil(&hi.value) - 1
            } else {
                floor(&hi.value)
            };
            cs.push(Term::le(s, Term::int(b)));
        }
        Ok(Term::and(cs))
    }

    /// The value a term of a formula names in the environment; a fresh value when it
    /// names nothing of the state (a temporary of P̂, a local of another procedure, the
    /// entry value of a local), the same one for each of its occurrences in the claims
    /// being encoded.
    fn term(&mut self, t: &ITerm, vars: &[VarInfo], env: &Env) -> R<Term> {
        let cfg = self.cfg;
        let v = VarId(t.var);
        let key = (t.var, t.entry);
        let unknown = |e: &mut Enc| -> R<Term> {
            if let Some(x) = e.unknowns.get(&key) {
                return Ok(x.clone());
            }
            let x = e.fresh("unknown", Sort::Int)?;
            e.unknowns.insert(key, x.clone());
            Ok(x)
        };
        let state = if t.entry { env.entry } else { env.cur };
        if (v.0 as usize) < cfg.vars.len() {
            if t.entry && !entry_var(cfg, env.proc, v) {
                return unknown(self);
            }
            return match state.var(cfg, v) {
                Some(x) => Ok(x.clone()),
                None => unknown(self),
            };
        }
        let Some(info) = vars.get(v.0 as usize) else {
            return Err(EncError::Reach(format!("the term {t} names no variable")));
        };
        let cell = |e: &mut Enc, a: ArrayId, i: Term| -> R<Term> {
            let local = cfg.arrays[a].proc.is_some();
            if t.entry && local {
                return unknown(e);
            }
            match state.arr(cfg, a) {
                Some(x) => {
                    // A cell of a C array holds a value of its element type.
                    let v = e.name(Term::select(x.val.clone(), i))?;
                    e.in_type(cfg.arrays[a].range, &v)?;
                    Ok(v)
                }
                None => unknown(e),
            }
        };
        match (&info.kind, &t.kind) {
            (VarKind::Cell { array, index, .. }, _) => cell(self, *array, Term::int(*index)),
            (VarKind::SymCell { array, .. }, TermKind::SymCell { ghost, .. }) => {
                match env.ghosts.get(usize::from(*ghost)) {
                    Some(k) => cell(self, *array, k.clone()),
                    None => unknown(self),
                }
            }
            (VarKind::TermCell { array, term, .. }, TermKind::TermCell { .. }) => {
                let Some(k) = env.ghosts.first() else {
                    return unknown(self);
                };
                let mut at = vec![
                    Term::scale_int(term.coef, k.clone()),
                    Term::int(term.offset),
                ];
                if let Some((v, c)) = term.by {
                    match state.var(cfg, v) {
                        Some(x) => at.push(Term::scale_int(c, x.clone())),
                        None => return unknown(self),
                    }
                }
                cell(self, *array, Term::sum(at))
            }
            (VarKind::Ghost { .. }, TermKind::Ghost { ghost }) => {
                match env.ghosts.get(usize::from(*ghost)) {
                    Some(k) => Ok(k.clone()),
                    None => unknown(self),
                }
            }
            _ => unknown(self),
        }
    }
}

fn floor(q: &BigRational) -> BigInt {
    q.floor().to_integer()
}

fn ceil(q: &BigRational) -> BigInt {
    q.ceil().to_integer()
}

/// Whether any claim is quantified over the ghosts.
pub(super) fn quantified(cs: &[Claim]) -> bool {
    cs.iter()
        .any(|c| matches!(c, Claim::Formula(Formula::Forall(..))))
}
