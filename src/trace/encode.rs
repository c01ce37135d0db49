//! The path formula: a path followed on the ORIGINAL program in SSA form
//! (ARCHITECTURE.md §4 "Trace check"). This is the one encoder of program semantics into
//! SMT terms; the trace check and the bounded engine (`bmc`) both use it.
//!
//! [`PathEncoder`] is incremental: it holds the symbolic state of a path (the SSA value of
//! every scalar and array, per call frame) and encodes one step at a time. The state is
//! cheap to clone, so a path explorer forks it at branches. Every definition is a fresh
//! symbol with an equation under the step that makes it (so an unsat core names steps);
//! arrays are SMT arrays with one version per write and their size beside them. The
//! semantics mirror `interp` exactly, site numbering included, so a model answers the
//! interpreter's oracle; with `record` on, the encoder keeps what is needed to read a
//! model back ([`Encoding`]).

use super::TraceError;
use crate::cfg::{Cfg, NodeKind, ERROR_NODE};
use crate::ids::{ArrayId, NodeId, VarId};
use crate::interp::Site;
use crate::sema::{ArraySize, Expr, Range};
use crate::smt::{SmtBackend, SmtError, Sort, SymId, Term};
use num_bigint::BigInt;
use std::collections::BTreeMap;

/// Why an encoding failed.
pub(crate) enum Fail {
    Smt(SmtError),
    Trace(TraceError),
}

impl From<SmtError> for Fail {
    fn from(e: SmtError) -> Fail {
        Fail::Smt(e)
    }
}

/// An array access (read or write) of a step: the array and its (named) index.
#[derive(Clone, Debug)]
pub(crate) struct Access {
    pub array: ArrayId,
    pub index: Term,
    /// Whether it is a write (else a read).
    pub write: bool,
}

/// An out-of-range read site: which array, and its index and in-range condition.
#[derive(Clone, Debug)]
pub(crate) struct ReadSite {
    pub array: ArrayId,
    pub index: Term,
}

/// An arbitrary initial array: the step that made it (0 for the interpreter's fallback),
/// the array, its symbol and size.
#[derive(Clone, Debug)]
pub(crate) struct ArrayInput {
    pub init_step: usize,
    pub array: ArrayId,
    pub sym: SymId,
    pub size: Term,
    pub const_size: Option<i64>,
}

/// The trace formula with everything needed to read a model back.
#[derive(Clone, Debug, Default)]
pub(crate) struct Encoding {
    /// The constraints of each step (asserted under the step's label).
    pub steps: Vec<Vec<Term>>,
    /// Definitions of auxiliary symbols (always satisfiable; asserted unlabeled).
    pub aux: Vec<Term>,
    /// The array accesses of each step.
    pub accesses: Vec<Vec<Access>>,
    /// `u` and out-of-range sites: (step, node, site, symbol).
    pub sites: Vec<(usize, NodeId, Site, SymId)>,
    /// Out-of-range read sites by (step, read number).
    pub reads: BTreeMap<(usize, u32), ReadSite>,
    /// Initial values of variables read before assignment: (frame, or `None` for a
    /// global; variable; symbol).
    pub uninit: Vec<(Option<usize>, VarId, SymId)>,
    /// Arbitrary array contents.
    pub arrays: Vec<ArrayInput>,
    /// The frame instance active at each step (main's is 0).
    pub frame_of_step: Vec<usize>,
}

#[derive(Clone, Debug)]
struct Arr {
    val: Term,
    size: Term,
}

#[derive(Clone, Debug)]
struct Frame {
    id: usize,
    vars: BTreeMap<VarId, Term>,
    arrays: BTreeMap<ArrayId, Arr>,
}

/// Integer- or Boolean-valued encodings of expressions (C's 0/1 booleans are kept as
/// SMT Booleans until an integer is needed).
enum V {
    I(Term),
    B(Term),
}

impl V {
    fn int(self) -> Term {
        match self {
            V::I(t) => t,
            V::B(b) => fold(Term::ite(b, Term::int(1), Term::int(0))),
        }
    }
    fn bool(self) -> Term {
        match self {
            V::I(t) => fold(Term::ne(t, Term::int(0))),
            V::B(b) => b,
        }
    }
}

/// The incremental encoder of one path (see the module docs). Clone it to fork a path.
#[derive(Clone)]
pub(crate) struct PathEncoder<'a> {
    cfg: &'a Cfg,
    /// Keep the records a model is read back with (the trace check); off for a path
    /// explorer, which only needs the constraints.
    record: bool,
    out: Encoding,
    globals: BTreeMap<VarId, Term>,
    garrays: BTreeMap<ArrayId, Arr>,
    stack: Vec<Frame>,
    next_frame: usize,
    /// Arbitrary array symbols by (init step, array).
    array_syms: BTreeMap<(usize, ArrayId), (SymId, Term)>,
    step: usize,
    node: NodeId,
    undef_k: u32,
    read_k: u32,
    cur: Vec<Term>,
    cur_acc: Vec<Access>,
}

/// Encode a (validated) path in full, with records.
pub(crate) fn encode(
    cfg: &Cfg,
    path: &[NodeId],
    smt: &mut dyn SmtBackend,
) -> Result<Encoding, Fail> {
    let mut e = PathEncoder::new(cfg, true);
    for (i, &n) in path.iter().enumerate() {
        let next = path.get(i + 1).copied().unwrap_or(ERROR_NODE);
        e.begin_step(i, n);
        e.step(smt, n, next)?;
        e.end_step();
    }
    Ok(e.out)
}

fn i64_max() -> Term {
    Term::int(i64::MAX)
}

/// Constant folding at the top of a term whose children are already folded: sums,
/// comparisons and connectives of literals, and `ite` with a literal condition. Keeps
/// deterministic parts of a trace (loop counters, constant indices) out of the solver.
fn fold(t: Term) -> Term {
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

impl<'a> PathEncoder<'a> {
    /// The encoder at `main`'s entry (no step encoded yet).
    pub(crate) fn new(cfg: &'a Cfg, record: bool) -> PathEncoder<'a> {
        PathEncoder {
            cfg,
            record,
            out: Encoding::default(),
            globals: BTreeMap::new(),
            garrays: BTreeMap::new(),
            stack: vec![Frame {
                id: 0,
                vars: BTreeMap::new(),
                arrays: BTreeMap::new(),
            }],
            next_frame: 1,
            array_syms: BTreeMap::new(),
            step: 0,
            node: ERROR_NODE,
            undef_k: 0,
            read_k: 0,
            cur: Vec::new(),
            cur_acc: Vec::new(),
        }
    }

    /// Start encoding step `step` (node `n`): the site counters restart.
    pub(crate) fn begin_step(&mut self, step: usize, n: NodeId) {
        self.step = step;
        self.node = n;
        self.undef_k = 0;
        self.read_k = 0;
        if self.record {
            let fid = self.stack.last().map(|f| f.id).unwrap_or(0);
            self.out.frame_of_step.push(fid);
        }
    }

    /// Finish the current step: with records, its constraints and accesses are kept;
    /// without, they are returned (the caller asserts them) and nothing is kept.
    pub(crate) fn end_step(&mut self) -> Vec<Term> {
        let cs = std::mem::take(&mut self.cur);
        let acc = std::mem::take(&mut self.cur_acc);
        if self.record {
            self.out.steps.push(cs);
            self.out.accesses.push(acc);
            Vec::new()
        } else {
            cs
        }
    }

    /// The definitions of auxiliary symbols made since the last call (always
    /// satisfiable; to be asserted unlabeled). Only without records: with records they
    /// stay in the [`Encoding`].
    pub(crate) fn take_aux(&mut self) -> Vec<Term> {
        if self.record {
            Vec::new()
        } else {
            std::mem::take(&mut self.out.aux)
        }
    }

    /// The Boolean value of a branch condition in the current state (folded: a literal
    /// when the path fixes it).
    pub(crate) fn condition(
        &mut self,
        smt: &mut dyn SmtBackend,
        cond: &Expr,
    ) -> Result<Term, Fail> {
        Ok(fold(self.boolean(smt, cond)?))
    }

    fn invalid(&self, reason: impl Into<String>) -> Fail {
        Fail::Trace(TraceError::Invalid {
            step: self.step,
            reason: reason.into(),
        })
    }
    fn fresh(
        &mut self,
        smt: &mut dyn SmtBackend,
        what: &str,
        sort: Sort,
    ) -> Result<SymId, SmtError> {
        let name = format!("{what}@{}", self.step);
        smt.declare(&name, sort)
    }

    /// A symbol (or literal) equal to `t`, defined by an auxiliary equation.
    fn name(&mut self, smt: &mut dyn SmtBackend, t: Term) -> Result<Term, SmtError> {
        let t = fold(t);
        if matches!(t, Term::Sym(_) | Term::Int(_)) {
            return Ok(t);
        }
        let s = self.fresh(smt, "t", Sort::Int)?;
        self.out.aux.push(Term::eq(Term::sym(s), t));
        Ok(Term::sym(s))
    }

    /// The new SSA value of a scalar: a fresh symbol equal to `x` under this step's
    /// label, or the literal itself when `x` is one (folded into later steps).
    fn define(&mut self, smt: &mut dyn SmtBackend, what: &str, x: Term) -> Result<Term, SmtError> {
        if let Term::Int(_) = x {
            return Ok(x);
        }
        let s = self.fresh(smt, what, Sort::Int)?;
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

    fn get(&mut self, smt: &mut dyn SmtBackend, v: VarId) -> Result<Term, SmtError> {
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

    fn set(&mut self, v: VarId, t: Term) {
        if self.is_global(v) {
            self.globals.insert(v, t);
        } else {
            self.frame().vars.insert(v, t);
        }
    }

    /// An arbitrary array made at `init_step` (memoised: the interpreter's oracle names
    /// arbitrary contents by step and array).
    fn arbitrary(
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
    fn array(&mut self, smt: &mut dyn SmtBackend, a: ArrayId) -> Result<Arr, SmtError> {
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
        let arr = Arr { val, size };
        self.set_array(a, arr.clone());
        Ok(arr)
    }

    fn set_array(&mut self, a: ArrayId, arr: Arr) {
        if self.cfg.arrays[a].proc.is_none() {
            self.garrays.insert(a, arr);
        } else {
            self.frame().arrays.insert(a, arr);
        }
    }

    /// The size an `ArrayInit` gives (the interpreter: the size variable's value in the
    /// current frame, 0 if unset, negative or beyond `i64`).
    fn array_size(&mut self, smt: &mut dyn SmtBackend, a: ArrayId) -> Result<Term, SmtError> {
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

    fn in_range(index: &Term, size: &Term) -> Term {
        fold(Term::and([
            fold(Term::le(Term::int(0), index.clone())),
            fold(Term::lt(index.clone(), size.clone())),
        ]))
    }

    fn int(&mut self, smt: &mut dyn SmtBackend, e: &Expr) -> Result<Term, Fail> {
        Ok(self.expr(smt, e)?.int())
    }

    fn boolean(&mut self, smt: &mut dyn SmtBackend, e: &Expr) -> Result<Term, Fail> {
        Ok(self.expr(smt, e)?.bool())
    }

    /// C's truncating quotient of the symbol-or-literal `t` by `c > 0`.
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

    fn expr(&mut self, smt: &mut dyn SmtBackend, e: &Expr) -> Result<V, Fail> {
        let v = match e {
            Expr::Const(n) => V::I(Term::int(n.clone())),
            Expr::Var(v) => V::I(self.get(smt, *v)?),
            Expr::Undef => {
                let k = self.undef_k;
                self.undef_k += 1;
                let s = self.fresh(smt, &format!("u{k}"), Sort::Int)?;
                if self.record {
                    self.out
                        .sites
                        .push((self.step, self.node, Site::Undef(k), s));
                }
                V::I(Term::sym(s))
            }
            Expr::Read(a, i) => {
                let k = self.read_k;
                self.read_k += 1;
                let i = self.int(smt, i)?;
                let idx = self.name(smt, i)?;
                let arr = self.array(smt, *a)?;
                let oor = self.fresh(smt, &format!("oor{k}"), Sort::Int)?;
                if self.record {
                    self.out
                        .sites
                        .push((self.step, self.node, Site::OutOfRange(k), oor));
                    self.out.reads.insert(
                        (self.step, k),
                        ReadSite {
                            array: *a,
                            index: idx.clone(),
                        },
                    );
                    self.cur_acc.push(Access {
                        array: *a,
                        index: idx.clone(),
                        write: false,
                    });
                }
                let value = Term::ite(
                    Self::in_range(&idx, &arr.size),
                    Term::select(arr.val, idx),
                    Term::sym(oor),
                );
                if let Range::Int(w) = self.cfg.arrays[*a].range {
                    // A C array holds values of its element type (arbitrary contents
                    // included; the interpreter brings its oracle's values into range).
                    let v = self.name(smt, value)?;
                    self.out.aux.push(Term::and([
                        Term::ge(v.clone(), Term::int(w.lo())),
                        Term::le(v.clone(), Term::int(w.hi())),
                    ]));
                    V::I(v)
                } else {
                    V::I(value)
                }
            }
            Expr::Add(x, y) => V::I(self.int(smt, x)? + self.int(smt, y)?),
            Expr::Sub(x, y) => V::I(self.int(smt, x)? - self.int(smt, y)?),
            Expr::Scale(c, x) => V::I(Term::scale_int(c.clone(), self.int(smt, x)?)),
            Expr::Div(x, c) => {
                let x = self.int(smt, x)?;
                if *c <= BigInt::from(0) {
                    return Err(self.invalid(format!("division by non-positive {c}")));
                }
                let t = self.name(smt, x)?;
                V::I(Self::trunc_div(&t, c))
            }
            Expr::Mod(x, c) => {
                let x = self.int(smt, x)?;
                if *c <= BigInt::from(0) {
                    return Err(self.invalid(format!("remainder by non-positive {c}")));
                }
                let t = self.name(smt, x)?;
                let q = Self::trunc_div(&t, c);
                V::I(t - fold(Term::scale_int(c.clone(), q)))
            }
            Expr::Wrap(w, x) => {
                // x - 2^bits * q with a fresh integer q and the result in range (linear,
                // no `mod`); a literal folds.
                let x = self.int(smt, x)?;
                let t = self.name(smt, x)?;
                V::I(match &t {
                    Term::Int(n) => Term::Int(w.wrap(n)),
                    _ => {
                        let q = self.fresh(smt, "wrap", Sort::Int)?;
                        let r = fold(t - Term::scale_int(w.modulus(), Term::sym(q)));
                        let r = self.name(smt, r)?;
                        self.out.aux.push(Term::and([
                            Term::ge(r.clone(), Term::int(w.lo())),
                            Term::le(r.clone(), Term::int(w.hi())),
                        ]));
                        r
                    }
                })
            }
            Expr::Cmp(op, x, y) => {
                use crate::sema::CmpOp;
                let l = self.int(smt, x)?;
                let r = self.int(smt, y)?;
                V::B(match op {
                    CmpOp::Lt => Term::lt(l, r),
                    CmpOp::Le => Term::le(l, r),
                    CmpOp::Gt => Term::gt(l, r),
                    CmpOp::Ge => Term::ge(l, r),
                    CmpOp::Eq => Term::eq(l, r),
                    CmpOp::Ne => Term::ne(l, r),
                })
            }
            Expr::Not(x) => V::B(Term::not(self.boolean(smt, x)?)),
            Expr::And(x, y) => {
                let a = self.boolean(smt, x)?;
                let b = self.boolean(smt, y)?;
                V::B(Term::and([a, b]))
            }
            Expr::Or(x, y) => {
                let a = self.boolean(smt, x)?;
                let b = self.boolean(smt, y)?;
                V::B(Term::or([a, b]))
            }
            Expr::Cond(c, x, y) => {
                let c = self.boolean(smt, c)?;
                let a = self.int(smt, x)?;
                let b = self.int(smt, y)?;
                V::I(Term::ite(c, a, b))
            }
            Expr::Call(..) | Expr::Nondet(..) | Expr::Overflow(..) => {
                return Err(self.invalid("a CFG expression contains a call or a nondet value"))
            }
        };
        Ok(match v {
            V::I(t) => V::I(fold(t)),
            V::B(t) => V::B(fold(t)),
        })
    }

    /// Encode node `n` of the current step, leaving to `next` (the successor matters for
    /// branches only).
    pub(crate) fn step(
        &mut self,
        smt: &mut dyn SmtBackend,
        n: NodeId,
        next: NodeId,
    ) -> Result<(), Fail> {
        let cfg = self.cfg;
        let Some(node) = cfg.nodes.get(n) else {
            return Err(self.invalid(format!("no node {n}")));
        };
        match &node.kind {
            NodeKind::Error | NodeKind::Skip { .. } | NodeKind::Stop => {}
            NodeKind::Assign { lhs, rhs, .. } => {
                let mut vals = Vec::with_capacity(rhs.len());
                for e in rhs {
                    vals.push(self.int(smt, e)?);
                }
                for (v, x) in lhs.iter().zip(vals) {
                    let t = self.define(smt, &cfg.var_name(*v), x)?;
                    self.set(*v, t);
                }
            }
            NodeKind::ArrayWrite {
                array,
                index,
                value,
                ..
            } => {
                let i = self.int(smt, index)?;
                let idx = self.name(smt, i)?;
                let x = self.int(smt, value)?;
                let arr = self.array(smt, *array)?;
                let s = self.fresh(smt, &cfg.arrays[*array].name, Sort::IntArray)?;
                let upd = fold(Term::ite(
                    Self::in_range(&idx, &arr.size),
                    Term::store(arr.val.clone(), idx.clone(), x),
                    arr.val,
                ));
                self.cur.push(Term::eq(Term::sym(s), upd));
                self.cur_acc.push(Access {
                    array: *array,
                    index: idx,
                    write: true,
                });
                self.set_array(
                    *array,
                    Arr {
                        val: Term::sym(s),
                        size: arr.size,
                    },
                );
            }
            NodeKind::ArrayInit { array, values, .. } => {
                let size = self.array_size(smt, *array)?;
                let val = match values {
                    None => self.arbitrary(smt, self.step, *array, size.clone())?,
                    Some(vs) => {
                        let mut xs = Vec::with_capacity(vs.len());
                        for e in vs {
                            xs.push(self.int(smt, e)?);
                        }
                        let mut t = Term::const_array(0);
                        for (i, x) in xs.into_iter().enumerate() {
                            let it = Term::int(i as i64);
                            t = match &size {
                                Term::Int(n) if BigInt::from(i) < *n => Term::store(t, it, x),
                                Term::Int(_) => t,
                                _ => {
                                    // Name the previous array: the ite mentions it twice.
                                    let prev = self.fresh(smt, "init", Sort::IntArray)?;
                                    self.out.aux.push(Term::eq(Term::sym(prev), t));
                                    let p = Term::sym(prev);
                                    let st = Term::store(p.clone(), it.clone(), x);
                                    Term::ite(Term::lt(it, size.clone()), st, p)
                                }
                            };
                        }
                        let s = self.fresh(smt, &cfg.arrays[*array].name, Sort::IntArray)?;
                        self.cur.push(Term::eq(Term::sym(s), t));
                        Term::sym(s)
                    }
                };
                self.set_array(*array, Arr { val, size });
            }
            NodeKind::Branch { cond, then, els } => {
                let c = self.boolean(smt, cond)?;
                if then != els {
                    if next == *then {
                        self.cur.push(c);
                    } else {
                        self.cur.push(Term::not(c));
                    }
                }
            }
            NodeKind::Assume { cond, .. } => {
                let c = self.boolean(smt, cond)?;
                self.cur.push(c);
            }
            NodeKind::Call { proc, args, .. } => {
                let mut vals = Vec::with_capacity(args.len());
                for e in args {
                    vals.push(self.int(smt, e)?);
                }
                let Some(callee) = cfg.procs.get(*proc) else {
                    return Err(self.invalid(format!("call of an unknown procedure {proc}")));
                };
                let mut vars = BTreeMap::new();
                for (f, x) in callee.formals.iter().zip(vals) {
                    let t = self.define(smt, &cfg.var_name(*f), x)?;
                    vars.insert(*f, t);
                }
                let id = self.next_frame;
                self.next_frame += 1;
                self.stack.push(Frame {
                    id,
                    vars,
                    arrays: BTreeMap::new(),
                });
            }
            NodeKind::Exit => {
                if self.stack.len() > 1 {
                    self.stack.pop();
                }
            }
        }
        Ok(())
    }
}
