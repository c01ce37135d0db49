//! The certificate check's own encoding of the ORIGINAL program's semantics as SMT terms,
//! over a symbolic state: scalars and arrays (SMT arrays with their size) of the globals
//! and of each inlined call's frame. It mirrors the interpreter (`interp`): an
//! out-of-range read is an arbitrary value, an out-of-range write does nothing, C's
//! division truncates, a C conversion wraps (`x - 2ⁿq` in range, `q` fresh), a C
//! variable and a C array's cells lie in their type's range. Unlike the trace encoder it
//! starts from an arbitrary state (a cut point's) and merges the states of the paths that
//! meet at a node, so that a loop body's paths cost one query, not one each.

use crate::cfg::{Cfg, NodeKind};
use crate::ids::{ArrayId, NodeId, ProcId, VarId};
use crate::sema::{ArraySize, Expr, Range, VarKind};
use crate::smt::{SmtBackend, SmtError, Sort, Term};
use num_bigint::BigInt;
use std::collections::BTreeMap;

/// Why an encoding could not be made.
#[derive(Debug)]
pub(super) enum EncError {
    /// The solver failed.
    Smt(SmtError),
    /// Something the check does not handle (says what).
    Reach(String),
}

impl From<SmtError> for EncError {
    fn from(e: SmtError) -> Self {
        EncError::Smt(e)
    }
}

pub(super) type R<T> = Result<T, EncError>;

/// An array's contents and size.
#[derive(Clone, Debug, PartialEq)]
pub(super) struct Arr {
    pub val: Term,
    pub size: Term,
}

/// The scalars and arrays of one procedure activation.
#[derive(Clone, Debug, PartialEq)]
pub(super) struct Frame {
    pub proc: ProcId,
    pub vars: BTreeMap<VarId, Term>,
    pub arrays: BTreeMap<ArrayId, Arr>,
}

/// A symbolic state: the globals and the stack of frames (the innermost last).
#[derive(Clone, Debug, PartialEq)]
pub(super) struct State {
    pub globals: BTreeMap<VarId, Term>,
    pub garrays: BTreeMap<ArrayId, Arr>,
    pub frames: Vec<Frame>,
}

impl State {
    /// The value of scalar `v` (a global, or a variable of the innermost frame).
    pub fn var(&self, cfg: &Cfg, v: VarId) -> Option<&Term> {
        if cfg.vars[v].kind.proc().is_none() {
            self.globals.get(&v)
        } else {
            self.frames.last().and_then(|f| f.vars.get(&v))
        }
    }

    fn set_var(&mut self, cfg: &Cfg, v: VarId, t: Term) {
        if cfg.vars[v].kind.proc().is_none() {
            self.globals.insert(v, t);
        } else if let Some(f) = self.frames.last_mut() {
            f.vars.insert(v, t);
        }
    }

    /// The contents of array `a`.
    pub fn arr(&self, cfg: &Cfg, a: ArrayId) -> Option<&Arr> {
        if cfg.arrays[a].proc.is_none() {
            self.garrays.get(&a)
        } else {
            self.frames.last().and_then(|f| f.arrays.get(&a))
        }
    }

    fn set_arr(&mut self, cfg: &Cfg, a: ArrayId, x: Arr) {
        if cfg.arrays[a].proc.is_none() {
            self.garrays.insert(a, x);
        } else if let Some(f) = self.frames.last_mut() {
            f.arrays.insert(a, x);
        }
    }
}

/// An integer- or Boolean-valued expression (C's 0/1 truth values stay Booleans until an
/// integer is needed).
enum V {
    I(Term),
    B(Term),
}

impl V {
    fn int(self) -> Term {
        match self {
            V::I(t) => t,
            V::B(b) => Term::ite(b, Term::int(1), Term::int(0)),
        }
    }
    fn bool(self) -> Term {
        match self {
            V::I(t) => Term::ne(t, Term::int(0)),
            V::B(b) => b,
        }
    }
}

/// The encoder: the CFG, the solver its definitions go to, and the array reads it met
/// (the indices at which ∀-claims are instantiated).
pub(super) struct Enc<'a> {
    pub cfg: &'a Cfg,
    pub smt: &'a mut dyn SmtBackend,
    next: u32,
    /// `(array, index)` of every read encoded.
    pub reads: Vec<(ArrayId, Term)>,
    /// The conditions under which C evaluates the sub-expression being encoded (the
    /// enclosing `&&`, `||` and `?:` choose what is evaluated).
    evaluated: Vec<Term>,
    /// The side conditions met since [`Enc::take_side`]: a signed result that C leaves
    /// undefined out of range fits where it is evaluated (an execution where it does not
    /// ends without a verdict, so it is no execution to certify).
    side: Vec<Term>,
    /// The value of each variable a claim names outside the state (`(variable, entry)`):
    /// one symbol per claim, so that `n ≤ 0 ∨ n ≥ 1` over a callee's local stays true.
    pub(super) unknowns: BTreeMap<(u32, bool), Term>,
}

fn in_range(index: &Term, size: &Term) -> Term {
    Term::and([
        Term::le(Term::int(0), index.clone()),
        Term::lt(index.clone(), size.clone()),
    ])
}

/// `0` for a size below 0 or beyond `i64` (the interpreter's rule), else the size.
fn clamp_size(t: Term) -> Term {
    if let Term::Int(n) = &t {
        let ok = *n >= BigInt::from(0) && *n <= BigInt::from(i64::MAX);
        return Term::int(if ok { n.clone() } else { BigInt::from(0) });
    }
    let bad = Term::or([
        Term::lt(t.clone(), Term::int(0)),
        Term::gt(t.clone(), Term::int(i64::MAX)),
    ]);
    Term::ite(bad, Term::int(0), t)
}

impl<'a> Enc<'a> {
    pub fn new(cfg: &'a Cfg, smt: &'a mut dyn SmtBackend) -> Enc<'a> {
        Enc {
            cfg,
            smt,
            next: 0,
            reads: Vec::new(),
            evaluated: Vec::new(),
            side: Vec::new(),
            unknowns: BTreeMap::new(),
        }
    }

    /// A fresh symbol.
    pub fn fresh(&mut self, what: &str, sort: Sort) -> R<Term> {
        self.next += 1;
        let s = self.smt.declare(&format!("{what}!{}", self.next), sort)?;
        Ok(Term::sym(s))
    }

    /// Assert `t` (in the current scope).
    pub fn assert(&mut self, t: &Term) -> R<()> {
        self.smt.assert(t)?;
        Ok(())
    }

    /// A symbol or literal equal to `t`.
    pub fn name(&mut self, t: Term) -> R<Term> {
        if matches!(t, Term::Sym(_) | Term::Int(_)) {
            return Ok(t);
        }
        let s = self.fresh("t", Sort::Int)?;
        self.assert(&Term::eq(s.clone(), t))?;
        Ok(s)
    }

    /// A Boolean symbol or literal equal to `t`.
    pub fn name_bool(&mut self, t: Term) -> R<Term> {
        if matches!(t, Term::Sym(_) | Term::Bool(_)) {
            return Ok(t);
        }
        let s = self.fresh("g", Sort::Bool)?;
        self.assert(&Term::eq(s.clone(), t))?;
        Ok(s)
    }

    /// `lo ≤ t ≤ hi` for a value of range `r` (C integer types only, as the
    /// interpreter guarantees them).
    pub fn in_type(&mut self, r: Range, t: &Term) -> R<()> {
        if let Range::Int(w) = r {
            self.assert(&Term::and([
                Term::ge(t.clone(), Term::int(w.lo())),
                Term::le(t.clone(), Term::int(w.hi())),
            ]))?;
        }
        Ok(())
    }

    /// An arbitrary value of scalar `v`.
    pub fn fresh_var(&mut self, v: VarId) -> R<Term> {
        let t = self.fresh(&self.cfg.vars[v].name.clone(), Sort::Int)?;
        self.in_type(self.cfg.vars[v].range, &t)?;
        Ok(t)
    }

    /// Arbitrary contents of array `a` with the given size.
    pub fn fresh_array(&mut self, a: ArrayId, size: Term) -> R<Arr> {
        let val = self.fresh(&self.cfg.arrays[a].name.clone(), Sort::IntArray)?;
        Ok(Arr { val, size })
    }

    /// The size of array `a` in state `st`: its constant, or its size variable's value.
    pub fn array_size(&mut self, st: &State, a: ArrayId) -> R<Term> {
        match &self.cfg.arrays[a].size {
            ArraySize::Const(n) => Ok(Term::int(BigInt::from(*n))),
            ArraySize::Dynamic(v) => match st.var(self.cfg, *v) {
                Some(t) => {
                    let t = clamp_size(t.clone());
                    self.name(t)
                }
                None => Ok(Term::int(0)),
            },
        }
    }

    /// A frame of procedure `p` with arbitrary locals and local arrays, and the formals
    /// given (or arbitrary).
    pub fn frame(&mut self, st: &State, p: ProcId, formals: Option<Vec<Term>>) -> R<Frame> {
        let pr = &self.cfg.procs[p];
        let (fs, ls, arrays) = (pr.formals.clone(), pr.locals.clone(), pr.arrays.clone());
        let mut f = Frame {
            proc: p,
            vars: BTreeMap::new(),
            arrays: BTreeMap::new(),
        };
        let given = formals.unwrap_or_default();
        for (i, v) in fs.iter().enumerate() {
            let t = match given.get(i) {
                Some(t) => self.name(t.clone())?,
                None => self.fresh_var(*v)?,
            };
            f.vars.insert(*v, t);
        }
        for v in ls {
            let t = self.fresh_var(v)?;
            f.vars.insert(v, t);
        }
        let mut inner = st.clone();
        inner.frames.push(f.clone());
        for a in arrays {
            let size = self.array_size(&inner, a)?;
            let x = self.fresh_array(a, size)?;
            f.arrays.insert(a, x);
        }
        Ok(f)
    }

    /// An arbitrary state at a node of procedure `p`: every global, and one frame of `p`.
    pub fn arbitrary_state(&mut self, p: ProcId) -> R<State> {
        let mut st = State {
            globals: BTreeMap::new(),
            garrays: BTreeMap::new(),
            frames: Vec::new(),
        };
        for v in self.cfg.globals.clone() {
            let t = self.fresh_var(v)?;
            st.globals.insert(v, t);
        }
        for a in self.cfg.global_arrays.clone() {
            let size = self.array_size(&st, a)?;
            let x = self.fresh_array(a, size)?;
            st.garrays.insert(a, x);
        }
        let f = self.frame(&st, p, None)?;
        st.frames.push(f);
        Ok(st)
    }

    /// The conjunction of the side conditions met since the last call (see `side`).
    pub fn take_side(&mut self) -> Term {
        match std::mem::take(&mut self.side) {
            side if side.is_empty() => Term::tt(),
            side => Term::and(side),
        }
    }

    /// `f` with `cond` added to the conditions under which the sub-expression is
    /// evaluated.
    fn under<T>(&mut self, cond: Term, f: impl FnOnce(&mut Self) -> R<T>) -> R<T> {
        self.evaluated.push(cond);
        let out = f(self);
        self.evaluated.pop();
        out
    }

    fn int(&mut self, st: &State, e: &Expr) -> R<Term> {
        Ok(self.expr(st, e)?.int())
    }

    /// The truth value of `e` in `st`.
    pub fn boolean(&mut self, st: &State, e: &Expr) -> R<Term> {
        Ok(self.expr(st, e)?.bool())
    }

    /// The integer value of `e` in `st`.
    pub fn value(&mut self, st: &State, e: &Expr) -> R<Term> {
        self.int(st, e)
    }

    /// C's truncating quotient of `t` (a symbol or literal) by `c > 0`.
    fn trunc_div(t: &Term, c: &BigInt) -> Term {
        if let Term::Int(n) = t {
            return Term::Int(n / c);
        }
        Term::ite(
            Term::ge(t.clone(), Term::int(0)),
            Term::int_div(t.clone(), c.clone()),
            -Term::int_div(-t.clone(), c.clone()),
        )
    }

    fn expr(&mut self, st: &State, e: &Expr) -> R<V> {
        Ok(match e {
            Expr::Const(n) => V::I(Term::int(n.clone())),
            Expr::Var(v) => V::I(match st.var(self.cfg, *v) {
                Some(t) => t.clone(),
                None => self.fresh_var(*v)?,
            }),
            Expr::Undef => V::I(self.fresh("u", Sort::Int)?),
            Expr::Read(a, i) => {
                let i = self.int(st, i)?;
                let idx = self.name(i)?;
                let arr = match st.arr(self.cfg, *a) {
                    Some(x) => x.clone(),
                    None => {
                        let size = self.array_size(st, *a)?;
                        self.fresh_array(*a, size)?
                    }
                };
                self.reads.push((*a, idx.clone()));
                let oor = self.fresh("oor", Sort::Int)?;
                let v = Term::ite(in_range(&idx, &arr.size), Term::select(arr.val, idx), oor);
                let v = self.name(v)?;
                self.in_type(self.cfg.arrays[*a].range, &v)?;
                V::I(v)
            }
            Expr::Add(x, y) => V::I(self.int(st, x)? + self.int(st, y)?),
            Expr::Sub(x, y) => V::I(self.int(st, x)? - self.int(st, y)?),
            Expr::Scale(c, x) => V::I(Term::scale_int(c.clone(), self.int(st, x)?)),
            Expr::Div(x, c) | Expr::Mod(x, c) => {
                if *c <= BigInt::from(0) {
                    return Err(EncError::Reach(format!("division by non-positive {c}")));
                }
                let x = self.int(st, x)?;
                let t = self.name(x)?;
                let q = Self::trunc_div(&t, c);
                V::I(match e {
                    Expr::Div(..) => q,
                    _ => t - Term::scale_int(c.clone(), q),
                })
            }
            Expr::Wrap(w, x) => {
                let x = self.int(st, x)?;
                let t = self.name(x)?;
                V::I(match &t {
                    Term::Int(n) => Term::Int(w.wrap(n)),
                    _ => {
                        let q = self.fresh("wrap", Sort::Int)?;
                        let r = self.name(t - Term::scale_int(w.modulus(), q))?;
                        self.in_type(Range::Int(*w), &r)?;
                        r
                    }
                })
            }
            Expr::Cmp(op, x, y) => {
                let l = self.int(st, x)?;
                let r = self.int(st, y)?;
                V::B(crate::trace::cmp_term(*op, l, r))
            }
            Expr::Not(x) => V::B(Term::not(self.boolean(st, x)?)),
            Expr::And(x, y) => {
                let a = self.boolean(st, x)?;
                let a = self.name_bool(a)?;
                let b = self.under(a.clone(), |e| e.boolean(st, y))?;
                V::B(Term::and([a, b]))
            }
            Expr::Or(x, y) => {
                let a = self.boolean(st, x)?;
                let a = self.name_bool(a)?;
                let b = self.under(Term::not(a.clone()), |e| e.boolean(st, y))?;
                V::B(Term::or([a, b]))
            }
            Expr::Cond(c, x, y) => {
                let c = self.boolean(st, c)?;
                let c = self.name_bool(c)?;
                let a = self.under(c.clone(), |e| e.int(st, x))?;
                let b = self.under(Term::not(c.clone()), |e| e.int(st, y))?;
                V::I(Term::ite(c, a, b))
            }
            Expr::Overflow(w, x) => {
                let x = self.int(st, x)?;
                let t = self.name(x)?;
                let fits = Term::and([
                    Term::ge(t.clone(), Term::int(w.lo())),
                    Term::le(t.clone(), Term::int(w.hi())),
                ]);
                self.side.push(match self.evaluated.as_slice() {
                    [] => fits,
                    ctx => Term::implies(Term::and(ctx.to_vec()), fits),
                });
                V::I(t)
            }
            Expr::Call(..) | Expr::Nondet(..) => {
                return Err(EncError::Reach(
                    "a CFG expression contains a call or a nondet value".into(),
                ))
            }
        })
    }

    /// The successors of node `n` (not a call or an exit) from state `st`: each with the
    /// condition of its edge and the state after the node.
    pub fn step(&mut self, st: &State, n: NodeId) -> R<Vec<(NodeId, Term, State)>> {
        self.side.clear();
        let mut succs = self.node_step(st, n)?;
        let side = self.take_side();
        if side != Term::tt() {
            for (_, cond, _) in &mut succs {
                *cond = Term::and([side.clone(), cond.clone()]);
            }
        }
        Ok(succs)
    }

    /// [`Enc::step`] before the side conditions of the node's expressions.
    fn node_step(&mut self, st: &State, n: NodeId) -> R<Vec<(NodeId, Term, State)>> {
        let cfg = self.cfg;
        let tt = Term::tt();
        Ok(match &cfg.nodes[n].kind {
            NodeKind::Error | NodeKind::Stop | NodeKind::Exit | NodeKind::Call { .. } => Vec::new(),
            NodeKind::Skip { next } => vec![(*next, tt, st.clone())],
            NodeKind::Assign { lhs, rhs, next } => {
                let mut vals = Vec::with_capacity(rhs.len());
                for e in rhs {
                    let x = self.int(st, e)?;
                    vals.push(self.name(x)?);
                }
                let mut post = st.clone();
                for (v, x) in lhs.iter().zip(vals) {
                    post.set_var(cfg, *v, x);
                }
                vec![(*next, tt, post)]
            }
            NodeKind::ArrayWrite {
                array,
                index,
                value,
                next,
            } => {
                let i = self.int(st, index)?;
                let idx = self.name(i)?;
                let x = self.int(st, value)?;
                let arr = match st.arr(cfg, *array) {
                    Some(a) => a.clone(),
                    None => {
                        let size = self.array_size(st, *array)?;
                        self.fresh_array(*array, size)?
                    }
                };
                let s = self.fresh(&cfg.arrays[*array].name, Sort::IntArray)?;
                self.assert(&Term::eq(
                    s.clone(),
                    Term::ite(
                        in_range(&idx, &arr.size),
                        Term::store(arr.val.clone(), idx, x),
                        arr.val,
                    ),
                ))?;
                let mut post = st.clone();
                post.set_arr(
                    cfg,
                    *array,
                    Arr {
                        val: s,
                        size: arr.size,
                    },
                );
                vec![(*next, tt, post)]
            }
            NodeKind::ArrayInit {
                array,
                values,
                next,
            } => {
                let size = self.array_size(st, *array)?;
                let val = match values {
                    None => self.fresh_array(*array, size.clone())?.val,
                    Some(vs) => {
                        let mut t = Term::const_array(0);
                        for (i, e) in vs.iter().enumerate() {
                            let x = self.int(st, e)?;
                            let it = Term::int(i as i64);
                            t = match &size {
                                Term::Int(n) if BigInt::from(i) < *n => Term::store(t, it, x),
                                Term::Int(_) => t,
                                _ => {
                                    let prev = self.fresh("init", Sort::IntArray)?;
                                    self.assert(&Term::eq(prev.clone(), t))?;
                                    let st = Term::store(prev.clone(), it.clone(), x);
                                    Term::ite(Term::lt(it, size.clone()), st, prev)
                                }
                            };
                        }
                        let s = self.fresh(&cfg.arrays[*array].name, Sort::IntArray)?;
                        self.assert(&Term::eq(s.clone(), t))?;
                        s
                    }
                };
                let mut post = st.clone();
                post.set_arr(cfg, *array, Arr { val, size });
                vec![(*next, tt, post)]
            }
            NodeKind::Branch { cond, then, els } => {
                let c = self.boolean(st, cond)?;
                if then == els {
                    vec![(*then, tt, st.clone())]
                } else {
                    let c = self.name_bool(c)?;
                    vec![
                        (*then, c.clone(), st.clone()),
                        (*els, Term::not(c), st.clone()),
                    ]
                }
            }
            NodeKind::Assume { cond, next } => {
                let c = self.boolean(st, cond)?;
                vec![(*next, c, st.clone())]
            }
        })
    }

    /// The state of the paths that meet at a node: each given with the condition under
    /// which it is taken. Values that differ get a fresh symbol equal to each path's value
    /// under its condition. Returns the condition that some path is taken.
    pub fn merge(&mut self, ins: Vec<(Term, State)>) -> R<(Term, State)> {
        if ins.len() == 1 {
            let (g, st) = ins.into_iter().next().expect("one path");
            let g = self.name_bool(g)?;
            return Ok((g, st));
        }
        let mut guards = Vec::with_capacity(ins.len());
        for (g, _) in &ins {
            guards.push(self.name_bool(g.clone())?);
        }
        let g = self.name_bool(Term::or(guards.clone()))?;
        let (_, first) = &ins[0];
        let mut out = first.clone();
        let states: Vec<&State> = ins.iter().map(|(_, s)| s).collect();
        // Globals.
        let keys: Vec<VarId> = out.globals.keys().copied().collect();
        for v in keys {
            let vals: Vec<Option<&Term>> = states.iter().map(|s| s.globals.get(&v)).collect();
            let m = self.merge_values(&guards, &vals, Sort::Int)?;
            out.globals.insert(v, m);
        }
        let keys: Vec<ArrayId> = out.garrays.keys().copied().collect();
        for a in keys {
            let arrs: Vec<Option<&Arr>> = states.iter().map(|s| s.garrays.get(&a)).collect();
            let m = self.merge_arrays(&guards, &arrs)?;
            out.garrays.insert(a, m);
        }
        for (i, f) in out.frames.iter_mut().enumerate() {
            let keys: Vec<VarId> = f.vars.keys().copied().collect();
            for v in keys {
                let vals: Vec<Option<&Term>> = states
                    .iter()
                    .map(|s| s.frames.get(i).and_then(|x| x.vars.get(&v)))
                    .collect();
                let m = self.merge_values(&guards, &vals, Sort::Int)?;
                f.vars.insert(v, m);
            }
            let keys: Vec<ArrayId> = f.arrays.keys().copied().collect();
            for a in keys {
                let arrs: Vec<Option<&Arr>> = states
                    .iter()
                    .map(|s| s.frames.get(i).and_then(|x| x.arrays.get(&a)))
                    .collect();
                let m = self.merge_arrays(&guards, &arrs)?;
                f.arrays.insert(a, m);
            }
        }
        Ok((g, out))
    }

    fn merge_values(&mut self, guards: &[Term], vals: &[Option<&Term>], sort: Sort) -> R<Term> {
        let first = vals[0];
        if vals.iter().all(|v| *v == first) {
            if let Some(t) = first {
                return Ok(t.clone());
            }
        }
        let m = self.fresh("phi", sort)?;
        for (g, v) in guards.iter().zip(vals) {
            if let Some(v) = v {
                self.assert(&Term::implies(g.clone(), Term::eq(m.clone(), (*v).clone())))?;
            }
        }
        Ok(m)
    }

    fn merge_arrays(&mut self, guards: &[Term], arrs: &[Option<&Arr>]) -> R<Arr> {
        let vals: Vec<Option<&Term>> = arrs.iter().map(|a| a.map(|a| &a.val)).collect();
        let sizes: Vec<Option<&Term>> = arrs.iter().map(|a| a.map(|a| &a.size)).collect();
        Ok(Arr {
            val: self.merge_values(guards, &vals, Sort::IntArray)?,
            size: self.merge_values(guards, &sizes, Sort::Int)?,
        })
    }
}

/// Whether `v` is a global or a formal of `p` (the values a procedure's entry fixes).
pub(super) fn entry_var(cfg: &Cfg, p: ProcId, v: VarId) -> bool {
    match cfg.vars[v].kind {
        VarKind::Formal(q) => q == p,
        ref k => k.proc().is_none(),
    }
}
