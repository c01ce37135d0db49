//! Backend-neutral SMT terms: sorts, symbol handles, the owned `Term` tree with its
//! constructors, and a sort checker shared by every backend.

use std::fmt;

use num_bigint::BigInt;
use num_rational::BigRational;
use num_traits::{One, Signed};

use super::error::SmtError;

/// The sorts our queries use. Arrays map integers to integers (EUREKA's arrays, §3).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Sort {
    /// Booleans.
    Bool,
    /// Mathematical integers.
    Int,
    /// Rationals (SMT-LIB `Real`; in linear arithmetic every value is rational).
    Real,
    /// Total maps from `Int` to `Int` (SMT-LIB `(Array Int Int)`).
    IntArray,
}

impl Sort {
    /// Whether this is `Int` or `Real`.
    pub fn is_numeric(self) -> bool {
        matches!(self, Sort::Int | Sort::Real)
    }
}

impl fmt::Display for Sort {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Sort::Bool => "Bool",
            Sort::Int => "Int",
            Sort::Real => "Real",
            Sort::IntArray => "(Array Int Int)",
        })
    }
}

/// A declared symbol (a free constant of the query), returned by
/// [`SmtBackend::declare`](super::SmtBackend::declare). Only meaningful for the backend that
/// issued it. Symbols are global to that backend: `pop` does not undeclare them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct SymId(pub u32);

impl fmt::Display for SymId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "s{}", self.0)
    }
}

/// An owned SMT term. Arithmetic is linear: products only have a constant coefficient.
///
/// `Int` and `Real` mix freely: an arithmetic node or comparison with a `Real` operand is
/// `Real`, and `Int` operands are converted (integer literals become real literals).
/// Build terms with the constructor functions (`Term::int`, `Term::le`, ...) or the
/// `+`, `-` (binary and unary) operators.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Term {
    /// A declared symbol.
    Sym(SymId),
    /// A Boolean literal.
    Bool(bool),
    /// An integer literal.
    Int(BigInt),
    /// A rational literal (sort `Real`).
    Real(BigRational),
    /// Sum of numeric terms; the empty sum is the integer 0.
    Add(Vec<Term>),
    /// Difference of two numeric terms.
    Sub(Box<Term>, Box<Term>),
    /// Negation of a numeric term.
    Neg(Box<Term>),
    /// `c * t` for a constant `c`. A non-integer `c` makes the product `Real`.
    Mul(BigRational, Box<Term>),
    /// SMT-LIB `div` of an `Int` term by a positive constant: for a positive divisor
    /// this is floor division (not C's truncation).
    IntDiv(Box<Term>, BigInt),
    /// SMT-LIB `mod` of an `Int` term by a positive constant: the result is in `[0, k)`.
    Mod(Box<Term>, BigInt),
    /// `a <= b`.
    Le(Box<Term>, Box<Term>),
    /// `a < b`.
    Lt(Box<Term>, Box<Term>),
    /// `a >= b`.
    Ge(Box<Term>, Box<Term>),
    /// `a > b`.
    Gt(Box<Term>, Box<Term>),
    /// `a = b` (numeric, Boolean or array operands of the same sort).
    Eq(Box<Term>, Box<Term>),
    /// Pairwise distinct (at least two operands, else `true`).
    Distinct(Vec<Term>),
    /// Boolean negation.
    Not(Box<Term>),
    /// Conjunction; the empty conjunction is `true`.
    And(Vec<Term>),
    /// Disjunction; the empty disjunction is `false`.
    Or(Vec<Term>),
    /// Implication.
    Implies(Box<Term>, Box<Term>),
    /// If-then-else over any sort (both branches of the same sort, numeric ones unify).
    Ite(Box<Term>, Box<Term>, Box<Term>),
    /// `select(a, i)`: the `Int` at index `i` of array `a`.
    Select(Box<Term>, Box<Term>),
    /// `store(a, i, v)`: array `a` with index `i` set to `v`.
    Store(Box<Term>, Box<Term>, Box<Term>),
    /// The integer array holding this value at every index.
    ConstArray(BigInt),
}

impl Term {
    /// A symbol.
    pub fn sym(s: SymId) -> Term {
        Term::Sym(s)
    }
    /// An integer literal.
    pub fn int(v: impl Into<BigInt>) -> Term {
        Term::Int(v.into())
    }
    /// A rational literal (sort `Real`).
    pub fn real(v: BigRational) -> Term {
        Term::Real(v)
    }
    /// A Boolean literal.
    pub fn bool(b: bool) -> Term {
        Term::Bool(b)
    }
    /// `true`.
    pub fn tt() -> Term {
        Term::Bool(true)
    }
    /// `false`.
    pub fn ff() -> Term {
        Term::Bool(false)
    }
    /// The sum of `ts`.
    pub fn sum(ts: impl IntoIterator<Item = Term>) -> Term {
        Term::Add(ts.into_iter().collect())
    }
    /// `c * t` for a rational constant `c`.
    pub fn scale(c: BigRational, t: Term) -> Term {
        Term::Mul(c, Box::new(t))
    }
    /// `c * t` for an integer constant `c`.
    pub fn scale_int(c: impl Into<BigInt>, t: Term) -> Term {
        Term::Mul(BigRational::from_integer(c.into()), Box::new(t))
    }
    /// SMT-LIB `div` by a positive constant.
    pub fn int_div(t: Term, k: impl Into<BigInt>) -> Term {
        Term::IntDiv(Box::new(t), k.into())
    }
    /// SMT-LIB `mod` by a positive constant.
    pub fn modulo(t: Term, k: impl Into<BigInt>) -> Term {
        Term::Mod(Box::new(t), k.into())
    }
    /// `a <= b`.
    pub fn le(a: Term, b: Term) -> Term {
        Term::Le(Box::new(a), Box::new(b))
    }
    /// `a < b`.
    pub fn lt(a: Term, b: Term) -> Term {
        Term::Lt(Box::new(a), Box::new(b))
    }
    /// `a >= b`.
    pub fn ge(a: Term, b: Term) -> Term {
        Term::Ge(Box::new(a), Box::new(b))
    }
    /// `a > b`.
    pub fn gt(a: Term, b: Term) -> Term {
        Term::Gt(Box::new(a), Box::new(b))
    }
    /// `a = b`.
    pub fn eq(a: Term, b: Term) -> Term {
        Term::Eq(Box::new(a), Box::new(b))
    }
    /// `a != b`.
    pub fn ne(a: Term, b: Term) -> Term {
        Term::Distinct(vec![a, b])
    }
    /// `not t`.
    #[allow(clippy::should_implement_trait)]
    pub fn not(t: Term) -> Term {
        Term::Not(Box::new(t))
    }
    /// The conjunction of `ts`.
    pub fn and(ts: impl IntoIterator<Item = Term>) -> Term {
        Term::And(ts.into_iter().collect())
    }
    /// The disjunction of `ts`.
    pub fn or(ts: impl IntoIterator<Item = Term>) -> Term {
        Term::Or(ts.into_iter().collect())
    }
    /// `a => b`.
    pub fn implies(a: Term, b: Term) -> Term {
        Term::Implies(Box::new(a), Box::new(b))
    }
    /// `if c then t else e`.
    pub fn ite(c: Term, t: Term, e: Term) -> Term {
        Term::Ite(Box::new(c), Box::new(t), Box::new(e))
    }
    /// `select(a, i)`.
    pub fn select(a: Term, i: Term) -> Term {
        Term::Select(Box::new(a), Box::new(i))
    }
    /// `store(a, i, v)`.
    pub fn store(a: Term, i: Term, v: Term) -> Term {
        Term::Store(Box::new(a), Box::new(i), Box::new(v))
    }
    /// The constant integer array `v` everywhere.
    pub fn const_array(v: impl Into<BigInt>) -> Term {
        Term::ConstArray(v.into())
    }

    /// Call `f` on this term and every sub-term (pre-order).
    pub fn visit(&self, f: &mut dyn FnMut(&Term)) {
        f(self);
        match self {
            Term::Sym(_) | Term::Bool(_) | Term::Int(_) | Term::Real(_) | Term::ConstArray(_) => {}
            Term::Add(ts) | Term::Distinct(ts) | Term::And(ts) | Term::Or(ts) => {
                ts.iter().for_each(|x| x.visit(f))
            }
            Term::Neg(a)
            | Term::Mul(_, a)
            | Term::IntDiv(a, _)
            | Term::Mod(a, _)
            | Term::Not(a) => a.visit(f),
            Term::Sub(a, b)
            | Term::Le(a, b)
            | Term::Lt(a, b)
            | Term::Ge(a, b)
            | Term::Gt(a, b)
            | Term::Eq(a, b)
            | Term::Implies(a, b)
            | Term::Select(a, b) => {
                a.visit(f);
                b.visit(f);
            }
            Term::Ite(a, b, c) | Term::Store(a, b, c) => {
                a.visit(f);
                b.visit(f);
                c.visit(f);
            }
        }
    }

    /// The sort of this term, given the sorts of its symbols (`None` for an unknown
    /// symbol). Checks the whole tree; `Int` promotes to `Real` where needed.
    pub fn sort_with(&self, sym_sort: &dyn Fn(SymId) -> Option<Sort>) -> Result<Sort, SmtError> {
        let num = |op: &'static str, ts: &[&Term]| -> Result<Sort, SmtError> {
            let mut out = Sort::Int;
            for (i, t) in ts.iter().enumerate() {
                match t.sort_with(sym_sort)? {
                    Sort::Int => {}
                    Sort::Real => out = Sort::Real,
                    found => {
                        return Err(SmtError::IllSorted {
                            operator: op,
                            argument: i,
                            expected: "Int or Real",
                            found,
                        })
                    }
                }
            }
            Ok(out)
        };
        let expect = |op: &'static str, i: usize, t: &Term, want: Sort| -> Result<(), SmtError> {
            let found = t.sort_with(sym_sort)?;
            if found == want {
                Ok(())
            } else {
                Err(SmtError::IllSorted {
                    operator: op,
                    argument: i,
                    expected: sort_name(want),
                    found,
                })
            }
        };
        let same = |op: &'static str, ts: &[&Term]| -> Result<Sort, SmtError> {
            let mut out: Option<Sort> = None;
            for (i, t) in ts.iter().enumerate() {
                let s = t.sort_with(sym_sort)?;
                out = Some(match (out, s) {
                    (None, s) => s,
                    (Some(a), b) if a == b => a,
                    (Some(a), b) if a.is_numeric() && b.is_numeric() => Sort::Real,
                    (Some(a), b) => {
                        return Err(SmtError::IllSorted {
                            operator: op,
                            argument: i,
                            expected: sort_name(a),
                            found: b,
                        })
                    }
                });
            }
            Ok(out.unwrap_or(Sort::Bool))
        };
        match self {
            Term::Sym(s) => sym_sort(*s).ok_or(SmtError::UnknownSymbol(*s)),
            Term::Bool(_) => Ok(Sort::Bool),
            Term::Int(_) => Ok(Sort::Int),
            Term::Real(_) => Ok(Sort::Real),
            Term::Add(ts) => num("+", &ts.iter().collect::<Vec<_>>()),
            Term::Sub(a, b) => num("-", &[a, b]),
            Term::Neg(a) => num("-", &[a]),
            Term::Mul(c, a) => {
                let s = num("*", &[a])?;
                Ok(if c.is_integer() { s } else { Sort::Real })
            }
            Term::IntDiv(a, k) | Term::Mod(a, k) => {
                let op = if matches!(self, Term::IntDiv(..)) {
                    "div"
                } else {
                    "mod"
                };
                if !k.is_positive() {
                    return Err(SmtError::NonPositiveDivisor(k.clone()));
                }
                expect(op, 0, a, Sort::Int)?;
                Ok(Sort::Int)
            }
            Term::Le(a, b) | Term::Lt(a, b) | Term::Ge(a, b) | Term::Gt(a, b) => {
                num("comparison", &[a, b])?;
                Ok(Sort::Bool)
            }
            Term::Eq(a, b) => {
                same("=", &[a, b])?;
                Ok(Sort::Bool)
            }
            Term::Distinct(ts) => {
                same("distinct", &ts.iter().collect::<Vec<_>>())?;
                Ok(Sort::Bool)
            }
            Term::Not(a) => {
                expect("not", 0, a, Sort::Bool)?;
                Ok(Sort::Bool)
            }
            Term::And(ts) | Term::Or(ts) => {
                let op = if matches!(self, Term::And(_)) {
                    "and"
                } else {
                    "or"
                };
                for (i, t) in ts.iter().enumerate() {
                    expect(op, i, t, Sort::Bool)?;
                }
                Ok(Sort::Bool)
            }
            Term::Implies(a, b) => {
                expect("=>", 0, a, Sort::Bool)?;
                expect("=>", 1, b, Sort::Bool)?;
                Ok(Sort::Bool)
            }
            Term::Ite(c, t, e) => {
                expect("ite", 0, c, Sort::Bool)?;
                same("ite", &[t, e])
            }
            Term::Select(a, i) => {
                expect("select", 0, a, Sort::IntArray)?;
                expect("select", 1, i, Sort::Int)?;
                Ok(Sort::Int)
            }
            Term::Store(a, i, v) => {
                expect("store", 0, a, Sort::IntArray)?;
                expect("store", 1, i, Sort::Int)?;
                expect("store", 2, v, Sort::Int)?;
                Ok(Sort::IntArray)
            }
            Term::ConstArray(_) => Ok(Sort::IntArray),
        }
    }
}

fn sort_name(s: Sort) -> &'static str {
    match s {
        Sort::Bool => "Bool",
        Sort::Int => "Int",
        Sort::Real => "Real",
        Sort::IntArray => "(Array Int Int)",
    }
}

impl From<SymId> for Term {
    fn from(s: SymId) -> Term {
        Term::Sym(s)
    }
}

impl From<i64> for Term {
    fn from(v: i64) -> Term {
        Term::Int(BigInt::from(v))
    }
}

impl From<BigInt> for Term {
    fn from(v: BigInt) -> Term {
        Term::Int(v)
    }
}

impl From<BigRational> for Term {
    fn from(v: BigRational) -> Term {
        Term::Real(v)
    }
}

impl std::ops::Add for Term {
    type Output = Term;
    fn add(self, rhs: Term) -> Term {
        match self {
            Term::Add(mut ts) => {
                ts.push(rhs);
                Term::Add(ts)
            }
            lhs => Term::Add(vec![lhs, rhs]),
        }
    }
}

impl std::ops::Sub for Term {
    type Output = Term;
    fn sub(self, rhs: Term) -> Term {
        Term::Sub(Box::new(self), Box::new(rhs))
    }
}

impl std::ops::Neg for Term {
    type Output = Term;
    fn neg(self) -> Term {
        Term::Neg(Box::new(self))
    }
}

fn write_list(f: &mut fmt::Formatter<'_>, op: &str, ts: &[&Term]) -> fmt::Result {
    write!(f, "({op}")?;
    for t in ts {
        write!(f, " {t}")?;
    }
    f.write_str(")")
}

fn write_int(f: &mut fmt::Formatter<'_>, v: &BigInt) -> fmt::Result {
    if v.is_negative() {
        write!(f, "(- {})", -v)
    } else {
        write!(f, "{v}")
    }
}

/// SMT-LIB-like rendering, with symbols shown as `s<n>`.
impl fmt::Display for Term {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Term::Sym(s) => write!(f, "{s}"),
            Term::Bool(b) => write!(f, "{b}"),
            Term::Int(v) => write_int(f, v),
            Term::Real(q) => {
                if q.denom().is_one() {
                    write_int(f, q.numer())?;
                    f.write_str(".0")
                } else {
                    f.write_str("(/ ")?;
                    write_int(f, q.numer())?;
                    write!(f, " {})", q.denom())
                }
            }
            Term::Add(ts) if ts.is_empty() => f.write_str("0"),
            Term::Add(ts) => write_list(f, "+", &ts.iter().collect::<Vec<_>>()),
            Term::Sub(a, b) => write_list(f, "-", &[a, b]),
            Term::Neg(a) => write_list(f, "-", &[a]),
            Term::Mul(c, a) => {
                f.write_str("(* ")?;
                fmt::Display::fmt(&Term::Real(c.clone()), f)?;
                write!(f, " {a})")
            }
            Term::IntDiv(a, k) => write!(f, "(div {a} {k})"),
            Term::Mod(a, k) => write!(f, "(mod {a} {k})"),
            Term::Le(a, b) => write_list(f, "<=", &[a, b]),
            Term::Lt(a, b) => write_list(f, "<", &[a, b]),
            Term::Ge(a, b) => write_list(f, ">=", &[a, b]),
            Term::Gt(a, b) => write_list(f, ">", &[a, b]),
            Term::Eq(a, b) => write_list(f, "=", &[a, b]),
            Term::Distinct(ts) => write_list(f, "distinct", &ts.iter().collect::<Vec<_>>()),
            Term::Not(a) => write_list(f, "not", &[a]),
            Term::And(ts) if ts.is_empty() => f.write_str("true"),
            Term::And(ts) => write_list(f, "and", &ts.iter().collect::<Vec<_>>()),
            Term::Or(ts) if ts.is_empty() => f.write_str("false"),
            Term::Or(ts) => write_list(f, "or", &ts.iter().collect::<Vec<_>>()),
            Term::Implies(a, b) => write_list(f, "=>", &[a, b]),
            Term::Ite(c, t, e) => write_list(f, "ite", &[c, t, e]),
            Term::Select(a, i) => write_list(f, "select", &[a, i]),
            Term::Store(a, i, v) => write_list(f, "store", &[a, i, v]),
            Term::ConstArray(v) => {
                f.write_str("((as const (Array Int Int)) ")?;
                write_int(f, v)?;
                f.write_str(")")
            }
        }
    }
}
