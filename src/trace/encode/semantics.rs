//! The semantics of expressions and nodes as SMT terms, mirroring `interp` (site
//! numbering included): reads and writes of SMT arrays guarded by the range, C's
//! truncating division and remainder, wrapping, signed results that must fit (where C
//! evaluates them), and one step's constraints per node.

use super::simplify::{fold, V};
use super::{Access, Arr, Fail, Frame, PathEncoder, ReadSite};
use crate::cfg::NodeKind;
use crate::ids::NodeId;
use crate::interp::Site;
use crate::sema::{Expr, Range};
use crate::smt::{SmtBackend, Sort, Term};
use num_bigint::BigInt;
use std::collections::BTreeMap;

/// The largest array whose initial elements a path explorer keeps as known values.
const KNOWN_INIT_MAX: i64 = 4096;

impl PathEncoder<'_> {
    fn in_range(index: &Term, size: &Term) -> Term {
        fold(Term::and([
            fold(Term::le(Term::int(0), index.clone())),
            fold(Term::lt(index.clone(), size.clone())),
        ]))
    }

    fn int(&mut self, smt: &mut dyn SmtBackend, e: &Expr) -> Result<Term, Fail> {
        Ok(self.expr(smt, e)?.int())
    }

    pub(super) fn boolean(&mut self, smt: &mut dyn SmtBackend, e: &Expr) -> Result<Term, Fail> {
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
                let in_range = Self::in_range(&idx, &arr.size);
                let known = match (&idx, &in_range) {
                    (Term::Int(i), Term::Bool(true)) => arr.known.get(i).cloned(),
                    _ => None,
                };
                let cache = known.is_none()
                    && !self.record
                    && matches!((&idx, &in_range), (Term::Int(_), Term::Bool(true)));
                let value = match known {
                    Some(v) => v,
                    None if cache => {
                        // A cell read at a literal index keeps its value for the reads
                        // after it (until a write may change it), like a written one.
                        let v = self.name(smt, Term::select(arr.val.clone(), idx.clone()))?;
                        if let Term::Int(i) = &idx {
                            let mut arr = arr.clone();
                            arr.known.insert(i.clone(), v.clone());
                            self.set_array(*a, arr);
                        }
                        v
                    }
                    None => Term::ite(in_range, Term::select(arr.val, idx), Term::sym(oor)),
                };
                if let Range::Int(w) = self.cfg.arrays[*a].range {
                    // A C array holds values of its element type (arbitrary contents
                    // included; the interpreter brings its oracle's values into range).
                    let v = self.name(smt, value)?;
                    let in_type = fold(Term::and([
                        fold(Term::ge(v.clone(), Term::int(w.lo()))),
                        fold(Term::le(v.clone(), Term::int(w.hi()))),
                    ]));
                    if in_type != Term::Bool(true) {
                        self.out.aux.push(in_type);
                    }
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
            Expr::Overflow(w, x) => {
                // A signed result that C leaves undefined out of range: the path goes on
                // only where it fits (when C evaluates it: under the conditions of the
                // enclosing `?:`, `&&`, `||`).
                let x = self.int(smt, x)?;
                let t = self.name(smt, x)?;
                let fits = fold(Term::and([
                    fold(Term::ge(t.clone(), Term::int(w.lo()))),
                    fold(Term::le(t.clone(), Term::int(w.hi()))),
                ]));
                if fits != Term::Bool(true) {
                    self.overflows.borrow_mut().insert(self.node);
                    let c = match self.evaluated.as_slice() {
                        [] => fits,
                        ctx => Term::implies(Term::and(ctx.to_vec()), fits),
                    };
                    if self.ub_apart {
                        self.ub.push((self.node, c));
                    } else {
                        self.cur.push(c);
                    }
                }
                V::I(t)
            }
            Expr::Cmp(op, x, y) => {
                let l = self.int(smt, x)?;
                let r = self.int(smt, y)?;
                V::B(cmp_term(*op, l, r))
            }
            Expr::Not(x) => V::B(Term::not(self.boolean(smt, x)?)),
            Expr::And(x, y) => {
                let a = self.boolean(smt, x)?;
                let b = self.under(a.clone(), |e| e.boolean(smt, y))?;
                V::B(Term::and([a, b]))
            }
            Expr::Or(x, y) => {
                let a = self.boolean(smt, x)?;
                let b = self.under(Term::not(a.clone()), |e| e.boolean(smt, y))?;
                V::B(Term::or([a, b]))
            }
            Expr::Cond(c, x, y) => {
                let c = self.boolean(smt, c)?;
                let a = self.under(c.clone(), |e| e.int(smt, x))?;
                let b = self.under(Term::not(c.clone()), |e| e.int(smt, y))?;
                V::I(Term::ite(c, a, b))
            }
            Expr::Call(..) | Expr::Nondet(..) => {
                return Err(self.invalid("a CFG expression contains a call or a nondet value"))
            }
        };
        Ok(match v {
            V::I(t) => V::I(fold(t)),
            V::B(t) => V::B(fold(t)),
        })
    }

    /// `f` on the encoder with `cond` added to the conditions under which C evaluates
    /// the sub-expression (the side conditions of [`Expr::Overflow`] hold only there).
    fn under<T>(
        &mut self,
        cond: Term,
        f: impl FnOnce(&mut Self) -> Result<T, Fail>,
    ) -> Result<T, Fail> {
        let cond = fold(cond);
        if cond == Term::Bool(false) {
            // Not evaluated at all: its side conditions are `false → _`.
            let saved = std::mem::take(&mut self.cur);
            let out = f(self);
            self.cur = saved;
            return out;
        }
        let pushed = cond != Term::Bool(true);
        if pushed {
            self.evaluated.push(cond);
        }
        let out = f(self);
        if pushed {
            self.evaluated.pop();
        }
        out
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
                if let (Term::Int(i), true) = (&idx, self.literal.contains(array)) {
                    let x = self.name(smt, x)?;
                    let mut known = arr.known;
                    known.insert(i.clone(), x);
                    self.set_array(*array, Arr { known, ..arr });
                    return Ok(());
                }
                let s = self.fresh(smt, &cfg.arrays[*array].name, Sort::IntArray)?;
                let in_range = Self::in_range(&idx, &arr.size);
                let mut known = arr.known;
                let x = if self.record {
                    x
                } else {
                    // Known elements are kept for literal in-range indices; a write
                    // elsewhere may hit any of them.
                    let x = self.name(smt, x)?;
                    match (&idx, &in_range) {
                        (Term::Int(i), Term::Bool(true)) => {
                            known.insert(i.clone(), x.clone());
                        }
                        (_, Term::Bool(false)) => {}
                        (Term::Int(i), _) => {
                            known.remove(i);
                        }
                        _ => known = Default::default(),
                    }
                    x
                };
                let upd = fold(Term::ite(
                    in_range,
                    Term::store(arr.val.clone(), idx.clone(), x),
                    arr.val,
                ));
                self.defs.borrow_mut().insert(s, upd.clone());
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
                        known,
                    },
                );
            }
            NodeKind::ArrayInit { array, values, .. } => {
                let size = self.array_size(smt, *array)?;
                let mut known = imbl::OrdMap::new();
                let val = match values {
                    None => self.arbitrary(smt, self.step, *array, size.clone())?,
                    Some(vs) => {
                        let mut xs = Vec::with_capacity(vs.len());
                        for e in vs {
                            xs.push(self.int(smt, e)?);
                        }
                        if let (false, Term::Int(n)) = (self.record, &size) {
                            // The listed values, then zeros up to the size.
                            let mut i = BigInt::from(0);
                            let mut named = Vec::with_capacity(xs.len());
                            for x in xs {
                                named.push(self.name(smt, x)?);
                            }
                            xs = named;
                            let mut it = xs.iter();
                            while i < *n && i < BigInt::from(KNOWN_INIT_MAX) {
                                let x = it.next().cloned().unwrap_or(Term::int(0));
                                known.insert(i.clone(), x);
                                i += 1;
                            }
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
                        self.defs.borrow_mut().insert(s, t.clone());
                        self.cur.push(Term::eq(Term::sym(s), t));
                        Term::sym(s)
                    }
                };
                self.set_array(*array, Arr { val, size, known });
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
                let guard = c != Term::Bool(true) && cfg.bounds_guards.contains(&self.node);
                if guard {
                    self.in_bounds.borrow_mut().insert(self.node);
                }
                if guard && self.ub_apart {
                    self.ub.push((self.node, c));
                } else {
                    self.cur.push(c);
                }
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

/// The SMT comparison `l op r`.
pub(crate) fn cmp_term(op: crate::sema::CmpOp, l: Term, r: Term) -> Term {
    use crate::sema::CmpOp;
    match op {
        CmpOp::Lt => Term::lt(l, r),
        CmpOp::Le => Term::le(l, r),
        CmpOp::Gt => Term::gt(l, r),
        CmpOp::Ge => Term::ge(l, r),
        CmpOp::Eq => Term::eq(l, r),
        CmpOp::Ne => Term::ne(l, r),
    }
}
