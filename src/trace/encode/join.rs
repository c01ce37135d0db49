//! Joins of encoder states, for the bounded engine's merged formula: where several
//! paths of the unrolled program meet, the state after the join holds, for every scalar
//! and array whose values differ, an `ite` over the incoming edges' guards (a fresh
//! symbol defined by it), so one state stands for all of them.
//!
//! Exactly one incoming edge is taken on any execution, so the `ite` chain tests all
//! but the last guard and lets the last edge be the default. A value one side never
//! touched is what the interpreter would give it there: a fresh initial value for a
//! scalar (in its type's range), the arbitrary contents of step 0 for an array.

use super::simplify::{fold, linear};
use super::{Arr, Fail, Frame, PathEncoder};
use crate::ids::{ArrayId, VarId};
use crate::sema::{ArraySize, Range};
use crate::smt::{SmtBackend, Sort, SymId, Term};
use num_bigint::BigInt;
use std::collections::{BTreeMap, BTreeSet};

impl<'a> PathEncoder<'a> {
    /// The state after a join of `ins` (the guard of each incoming edge with the state
    /// it carries; all at the same node, with call stacks of the same depth), encoded
    /// as step `step`. The definitions it makes are left in the auxiliary constraints
    /// ([`PathEncoder::take_aux`]). `ins` must not be empty.
    pub(crate) fn join(
        smt: &mut dyn SmtBackend,
        mut ins: Vec<(Term, PathEncoder<'a>)>,
        step: usize,
    ) -> Result<PathEncoder<'a>, Fail> {
        if ins.len() <= 1 {
            let Some((_, mut e)) = ins.pop() else {
                return Err(Fail::Trace(crate::trace::TraceError::Invalid {
                    step,
                    reason: "a join of no states".into(),
                }));
            };
            e.step = step;
            return Ok(e);
        }
        let guards: Vec<Term> = ins.iter().map(|(g, _)| g.clone()).collect();
        let mut encs: Vec<PathEncoder<'a>> = ins.into_iter().map(|(_, e)| e).collect();
        for e in &mut encs {
            e.step = step;
        }
        let depth = encs[0].stack.len();
        if encs.iter().any(|e| e.stack.len() != depth) {
            return Err(encs[0].invalid("a join of states with different call stacks"));
        }
        let mut out = encs[0].clone();
        // Memoised arbitrary arrays and frame numbers: the union, so no symbol is reused.
        for e in &encs[1..] {
            for (k, v) in &e.array_syms {
                out.array_syms.entry(*k).or_insert_with(|| v.clone());
            }
            out.next_frame = out.next_frame.max(e.next_frame);
        }
        // Globals.
        let keys: BTreeSet<VarId> = encs
            .iter()
            .flat_map(|e| e.globals.keys().copied())
            .collect();
        for v in keys {
            let vals = scalar_values(&mut out, smt, &mut encs, v, None)?;
            let t = out.merge_int(smt, &guards, vals, &format!("{}#join", out.cfg.var_name(v)))?;
            out.globals.insert(v, t);
        }
        let keys: BTreeSet<ArrayId> = encs
            .iter()
            .flat_map(|e| e.garrays.keys().copied())
            .collect();
        for a in keys {
            let arrs = array_values(&mut out, smt, &mut encs, a, None)?;
            let m = out.merge_array(smt, &guards, arrs, a)?;
            out.garrays.insert(a, m);
        }
        // Frames.
        for fi in 0..depth {
            let keys: BTreeSet<VarId> = encs
                .iter()
                .flat_map(|e| e.stack[fi].vars.keys().copied())
                .collect();
            let mut frame = Frame {
                id: out.stack[fi].id,
                vars: BTreeMap::new(),
                arrays: BTreeMap::new(),
            };
            for v in keys {
                let vals = scalar_values(&mut out, smt, &mut encs, v, Some(fi))?;
                let name = format!("{}#join", out.cfg.var_name(v));
                frame
                    .vars
                    .insert(v, out.merge_int(smt, &guards, vals, &name)?);
            }
            let keys: BTreeSet<ArrayId> = encs
                .iter()
                .flat_map(|e| e.stack[fi].arrays.keys().copied())
                .collect();
            for a in keys {
                let arrs = array_values(&mut out, smt, &mut encs, a, Some(fi))?;
                frame
                    .arrays
                    .insert(a, out.merge_array(smt, &guards, arrs, a)?);
            }
            out.stack[fi] = frame;
        }
        Ok(out)
    }

    /// If every value is `base + c_i` for one linear `base` (a value, or the linear
    /// definition of the symbol it is), that base with the least and greatest `c_i`.
    fn offsets(&self, vals: &[Term]) -> Option<(Term, BigInt, BigInt)> {
        type Form = (BTreeMap<SymId, BigInt>, BigInt);
        let one = BigInt::from(1);
        let form = |t: &Term| -> Option<Form> {
            let (mut lin, mut c) = (BTreeMap::new(), BigInt::from(0));
            linear(t, &one, &mut lin, &mut c).then(|| {
                lin.retain(|_, k: &mut BigInt| *k != BigInt::from(0));
                (lin, c)
            })
        };
        // Each value's forms: as it is, and through its symbol's definition.
        let mut forms: Vec<Vec<Form>> = Vec::with_capacity(vals.len());
        for v in vals {
            let mut fs: Vec<Form> = form(v).into_iter().collect();
            if let Term::Sym(s) = v {
                if let Some(d) = self.defs.borrow().get(s) {
                    fs.extend(form(d));
                }
            }
            forms.push(fs);
        }
        let candidates: Vec<&BTreeMap<SymId, BigInt>> = forms[0].iter().map(|f| &f.0).collect();
        for base in candidates {
            let mut cs = Vec::with_capacity(vals.len());
            for fs in &forms {
                match fs.iter().find(|f| f.0 == *base) {
                    Some(f) => cs.push(f.1.clone()),
                    None => break,
                }
            }
            if cs.len() == vals.len() && !base.is_empty() {
                let lo = cs.iter().min()?.clone();
                let hi = cs.iter().max()?.clone();
                if lo == hi {
                    return None;
                }
                let t = Term::sum(
                    base.iter()
                        .map(|(s, k)| Term::scale_int(k.clone(), Term::sym(*s))),
                );
                return Some((t, lo, hi));
            }
        }
        None
    }

    /// Whether `c` is the definition `s = t` of a symbol the encoder introduced (a fresh
    /// symbol: the equation holds in some model whatever else holds, so a merged formula
    /// may assert it without the guard of its state, which lets the solver propagate
    /// through it).
    pub(crate) fn is_definition(&self, c: &Term) -> bool {
        match c {
            Term::Eq(a, t) => match &**a {
                Term::Sym(s) => self.defs.borrow().get(s) == Some(&**t),
                _ => false,
            },
            _ => false,
        }
    }

    /// `ite(g1, v1, ite(g2, v2, ... vn))` over integer values, named unless all equal.
    fn merge_int(
        &mut self,
        smt: &mut dyn SmtBackend,
        guards: &[Term],
        vals: Vec<Term>,
        what: &str,
    ) -> Result<Term, Fail> {
        if vals.iter().all(|v| *v == vals[0]) {
            return Ok(vals[0].clone());
        }
        let bounds = self.offsets(&vals);
        let t = ite_chain(guards, vals);
        let s = self.fresh(smt, what, Sort::Int)?;
        self.defs.borrow_mut().insert(s, t.clone());
        self.out.aux.push(Term::eq(Term::sym(s), t));
        if let Some((base, lo, hi)) = bounds {
            // Implied by the definition whatever the guards: the solver's linear
            // relaxation sees through the join (a sum of joined increments is bounded by
            // the sum of their bounds, with no case split per join).
            let m = Term::sym(s);
            self.lemmas
                .push(Term::le(fold(base.clone() + Term::Int(lo)), m.clone()));
            self.lemmas.push(Term::le(m, fold(base + Term::Int(hi))));
        }
        Ok(Term::sym(s))
    }

    fn merge_array(
        &mut self,
        smt: &mut dyn SmtBackend,
        guards: &[Term],
        arrs: Vec<Arr>,
        a: ArrayId,
    ) -> Result<Arr, Fail> {
        let vals: Vec<Term> = arrs.iter().map(|x| x.val.clone()).collect();
        let val = if vals.iter().all(|v| *v == vals[0]) {
            vals[0].clone()
        } else {
            let s = self.fresh(
                smt,
                &format!("{}#join", self.cfg.arrays[a].name),
                Sort::IntArray,
            )?;
            self.out
                .aux
                .push(Term::eq(Term::sym(s), ite_chain(guards, vals)));
            Term::sym(s)
        };
        let sizes: Vec<Term> = arrs.iter().map(|x| x.size.clone()).collect();
        let size = self.merge_int(smt, guards, sizes, "size#join")?;
        // Known elements: those some side knows, joined like scalars (a side that does
        // not know one reads it from its array, where the index is in range), so reads
        // at literal indices after the join stay integer terms.
        let keys: BTreeSet<BigInt> = arrs.iter().flat_map(|x| x.known.keys().cloned()).collect();
        let mut known = imbl::OrdMap::new();
        'cells: for i in keys {
            let mut vals = Vec::with_capacity(arrs.len());
            for x in &arrs {
                match (x.known.get(&i), &x.size) {
                    (Some(t), _) => vals.push(t.clone()),
                    (None, Term::Int(n)) if i < *n => {
                        let t = Term::select(x.val.clone(), Term::Int(i.clone()));
                        vals.push(self.name(smt, t)?);
                    }
                    _ => continue 'cells,
                }
            }
            let name = format!("{}#{i}#join", self.cfg.arrays[a].name);
            known.insert(i, self.merge_int(smt, guards, vals, &name)?);
        }
        Ok(Arr { val, size, known })
    }
}

fn ite_chain(guards: &[Term], mut vals: Vec<Term>) -> Term {
    let mut t = vals.pop().unwrap_or(Term::int(0));
    for (g, v) in guards.iter().zip(vals).rev() {
        t = fold(Term::ite(g.clone(), v, t));
    }
    t
}

/// The value of scalar `v` (a global, or a local of frame `fi`) on each side; a side
/// that never touched it gets a fresh initial value in the variable's range.
fn scalar_values(
    out: &mut PathEncoder<'_>,
    smt: &mut dyn SmtBackend,
    encs: &mut [PathEncoder<'_>],
    v: VarId,
    fi: Option<usize>,
) -> Result<Vec<Term>, Fail> {
    let mut vals = Vec::with_capacity(encs.len());
    for e in encs.iter() {
        let cur = match fi {
            None => e.globals.get(&v),
            Some(i) => e.stack[i].vars.get(&v),
        };
        vals.push(match cur {
            Some(t) => t.clone(),
            None => {
                let name = format!("{}#init", out.cfg.var_name(v));
                let s = smt.declare(&name, Sort::Int)?;
                if let Range::Int(w) = out.cfg.vars[v].range {
                    out.out.aux.push(Term::and([
                        Term::ge(Term::sym(s), Term::int(w.lo())),
                        Term::le(Term::sym(s), Term::int(w.hi())),
                    ]));
                }
                Term::sym(s)
            }
        });
    }
    Ok(vals)
}

/// The contents of array `a` on each side; a side that never touched it has the
/// interpreter's fallback (arbitrary contents from step 0; size 0 for a VLA).
fn array_values(
    out: &mut PathEncoder<'_>,
    smt: &mut dyn SmtBackend,
    encs: &mut [PathEncoder<'_>],
    a: ArrayId,
    fi: Option<usize>,
) -> Result<Vec<Arr>, Fail> {
    let mut arrs = Vec::with_capacity(encs.len());
    for e in encs.iter() {
        let cur = match fi {
            None => e.garrays.get(&a),
            Some(i) => e.stack[i].arrays.get(&a),
        };
        arrs.push(match cur {
            Some(x) => x.clone(),
            None => {
                let size = match &out.cfg.arrays[a].size {
                    ArraySize::Const(n) => Term::int(BigInt::from(*n)),
                    ArraySize::Dynamic(_) => Term::int(0),
                };
                let val = out.arbitrary(smt, 0, a, size.clone())?;
                Arr {
                    val,
                    size,
                    known: Default::default(),
                }
            }
        });
    }
    Ok(arrs)
}
