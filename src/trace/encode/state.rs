//! The SSA state of the path encoder: fresh and named symbols, the current value of each
//! scalar and array (globals, and per call frame locals), the values of variables read
//! before assignment and of arbitrary arrays, as the interpreter draws them.

use super::simplify::{fold, i64_max};
use super::{Arr, ArrayInput, Fail, Frame, PathEncoder};
use crate::ids::{ArrayId, VarId};
use crate::sema::{ArraySize, Range};
use crate::smt::{SmtBackend, SmtError, Sort, SymId, Term};
use crate::trace::TraceError;
use num_bigint::BigInt;
use std::collections::BTreeMap;

impl PathEncoder<'_> {
    pub(super) fn invalid(&self, reason: impl Into<String>) -> Fail {
        Fail::Trace(TraceError::Invalid {
            step: self.step,
            reason: reason.into(),
        })
    }
    pub(super) fn fresh(
        &mut self,
        smt: &mut dyn SmtBackend,
        what: &str,
        sort: Sort,
    ) -> Result<SymId, SmtError> {
        let name = format!("{what}@{}", self.step);
        smt.declare(&name, sort)
    }

    /// A symbol (or literal) equal to `t`, defined by an auxiliary equation.
    pub(super) fn name(&mut self, smt: &mut dyn SmtBackend, t: Term) -> Result<Term, SmtError> {
        let t = fold(t);
        if matches!(t, Term::Sym(_) | Term::Int(_)) {
            return Ok(t);
        }
        let s = self.fresh(smt, "t", Sort::Int)?;
        self.defs.borrow_mut().insert(s, t.clone());
        self.out.aux.push(Term::eq(Term::sym(s), t));
        Ok(Term::sym(s))
    }

    /// The new SSA value of a scalar: a fresh symbol equal to `x` under this step's
    /// label, or the literal itself when `x` is one (folded into later steps).
    pub(super) fn define(
        &mut self,
        smt: &mut dyn SmtBackend,
        what: &str,
        x: Term,
    ) -> Result<Term, SmtError> {
        if let Term::Int(_) = x {
            return Ok(x);
        }
        let s = self.fresh(smt, what, Sort::Int)?;
        self.defs.borrow_mut().insert(s, x.clone());
        self.cur.push(Term::eq(Term::sym(s), x));
        Ok(Term::sym(s))
    }

    fn is_global(&self, v: VarId) -> bool {
        self.cfg.vars[v].kind.proc().is_none()
    }

    fn frame(&mut self) -> &mut Frame {
        // The stack is never empty: main's frame is only popped by a path that validate()
        // rejects, and `exit` keeps it.
        if self.stack.is_empty() {
            self.stack.push(Frame {
                id: 0,
                vars: BTreeMap::new(),
                arrays: BTreeMap::new(),
            });
        }
        let n = self.stack.len() - 1;
        &mut self.stack[n]
    }

    pub(super) fn get(&mut self, smt: &mut dyn SmtBackend, v: VarId) -> Result<Term, SmtError> {
        let global = self.is_global(v);
        let cur = if global {
            self.globals.get(&v).cloned()
        } else {
            self.frame().vars.get(&v).cloned()
        };
        if let Some(t) = cur {
            return Ok(t);
        }
        let name = format!("{}#init", self.cfg.var_name(v));
        let s = smt.declare(&name, Sort::Int)?;
        let frame = if global { None } else { Some(self.frame().id) };
        if self.record {
            self.out.uninit.push((frame, v, s));
        }
        if let Range::Int(w) = self.cfg.vars[v].range {
            // A C variable's arbitrary value lies in its type's range (the interpreter
            // wraps its oracle's value into it).
            self.out.aux.push(Term::and([
                Term::ge(Term::sym(s), Term::int(w.lo())),
                Term::le(Term::sym(s), Term::int(w.hi())),
            ]));
        }
        self.set(v, Term::sym(s));
        Ok(Term::sym(s))
    }

    pub(super) fn set(&mut self, v: VarId, t: Term) {
        if self.is_global(v) {
            self.globals.insert(v, t);
        } else {
            self.frame().vars.insert(v, t);
        }
    }

    /// An arbitrary array made at `init_step` (memoised: the interpreter's oracle names
    /// arbitrary contents by step and array).
    pub(super) fn arbitrary(
        &mut self,
        smt: &mut dyn SmtBackend,
        init_step: usize,
        a: ArrayId,
        size: Term,
    ) -> Result<Term, SmtError> {
        if let Some((s, _)) = self.array_syms.get(&(init_step, a)) {
            return Ok(Term::sym(*s));
        }
        let name = format!("{}#init@{init_step}", self.cfg.arrays[a].name);
        let s = smt.declare(&name, Sort::IntArray)?;
        let const_size = match &self.cfg.arrays[a].size {
            ArraySize::Const(n) => i64::try_from(*n).ok(),
            ArraySize::Dynamic(_) => None,
        };
        self.array_syms.insert((init_step, a), (s, size.clone()));
        if self.record {
            self.out.arrays.push(ArrayInput {
                init_step,
                array: a,
                sym: s,
                size,
                const_size,
            });
        }
        Ok(Term::sym(s))
    }

    /// The current contents of an array (the interpreter's fallback for an array used
    /// before its `ArrayInit`: arbitrary contents from step 0, size 0 for a VLA).
    pub(super) fn array(&mut self, smt: &mut dyn SmtBackend, a: ArrayId) -> Result<Arr, SmtError> {
        let global = self.cfg.arrays[a].proc.is_none();
        let cur = if global {
            self.garrays.get(&a).cloned()
        } else {
            self.frame().arrays.get(&a).cloned()
        };
        if let Some(x) = cur {
            return Ok(x);
        }
        let size = match &self.cfg.arrays[a].size {
            ArraySize::Const(n) => Term::int(BigInt::from(*n)),
            ArraySize::Dynamic(_) => Term::int(0),
        };
        let val = self.arbitrary(smt, 0, a, size.clone())?;
        let arr = Arr {
            val,
            size,
            known: Default::default(),
        };
        self.set_array(a, arr.clone());
        Ok(arr)
    }

    pub(super) fn set_array(&mut self, a: ArrayId, arr: Arr) {
        if self.cfg.arrays[a].proc.is_none() {
            self.garrays.insert(a, arr);
        } else {
            self.frame().arrays.insert(a, arr);
        }
    }

    /// The size an `ArrayInit` gives (the interpreter: the size variable's value in the
    /// current frame, 0 if unset, negative or beyond `i64`).
    pub(super) fn array_size(
        &mut self,
        smt: &mut dyn SmtBackend,
        a: ArrayId,
    ) -> Result<Term, SmtError> {
        match &self.cfg.arrays[a].size {
            ArraySize::Const(n) => Ok(Term::int(BigInt::from(*n))),
            ArraySize::Dynamic(v) => {
                let v = *v;
                let cur = if self.is_global(v) {
                    self.globals.get(&v).cloned()
                } else {
                    self.frame().vars.get(&v).cloned()
                };
                match cur {
                    None => Ok(Term::int(0)),
                    Some(t) => {
                        let bad = Term::or([
                            Term::lt(t.clone(), Term::int(0)),
                            Term::gt(t.clone(), i64_max()),
                        ]);
                        self.name(smt, Term::ite(bad, Term::int(0), t))
                    }
                }
            }
        }
    }
}
