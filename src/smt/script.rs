//! A backend that solves nothing: it records the symbols declared and the formulas
//! asserted, so that an encoder written against [`SmtBackend`] can have its output
//! written as SMT-LIB text (the Horn clauses of `lpmc horn`) instead of checked; and the
//! SMT-LIB rendering of a [`Term`] with integer semantics.

use super::{Label, SatResult, SmtBackend, SmtError, Sort, SymId, Term, Value};
use num_bigint::BigInt;
use num_traits::{One, Signed};
use std::fmt::Write;

/// Records declarations and assertions (with `push`/`pop` scopes); every check fails.
#[derive(Debug, Default)]
pub struct Recorder {
    symbols: Vec<(String, Sort)>,
    assertions: Vec<Term>,
    scopes: Vec<usize>,
}

impl Recorder {
    /// An empty recorder.
    pub fn new() -> Recorder {
        Recorder::default()
    }

    /// The symbols declared, by [`SymId`] (the id is the index).
    pub fn symbols(&self) -> &[(String, Sort)] {
        &self.symbols
    }

    /// The formulas asserted in the open scopes, in order.
    pub fn assertions(&self) -> &[Term] {
        &self.assertions
    }

    fn sort(&self, s: SymId) -> Option<Sort> {
        self.symbols.get(s.0 as usize).map(|(_, sort)| *sort)
    }
}

fn no_solver(operation: &'static str) -> SmtError {
    SmtError::Solver {
        operation,
        message: "a recorder writes formulas and solves none".into(),
    }
}

impl SmtBackend for Recorder {
    fn declare(&mut self, name: &str, sort: Sort) -> Result<SymId, SmtError> {
        let id = SymId(self.symbols.len() as u32);
        self.symbols.push((name.to_string(), sort));
        Ok(id)
    }

    fn sort_of(&self, sym: SymId) -> Result<Sort, SmtError> {
        self.sort(sym).ok_or(SmtError::UnknownSymbol(sym))
    }

    fn assert(&mut self, formula: &Term) -> Result<(), SmtError> {
        match formula.sort_with(&|s| self.sort(s))? {
            Sort::Bool => {
                self.assertions.push(formula.clone());
                Ok(())
            }
            other => Err(SmtError::NotAFormula(other)),
        }
    }

    fn assert_labeled(&mut self, _label: Label, formula: &Term) -> Result<(), SmtError> {
        self.assert(formula)
    }

    fn push(&mut self) -> Result<(), SmtError> {
        self.scopes.push(self.assertions.len());
        Ok(())
    }

    fn pop(&mut self) -> Result<(), SmtError> {
        let n = self.scopes.pop().ok_or(SmtError::PopUnderflow)?;
        self.assertions.truncate(n);
        Ok(())
    }

    fn check(&mut self) -> Result<SatResult, SmtError> {
        Err(no_solver("check"))
    }

    fn check_assuming(&mut self, _assumptions: &[Term]) -> Result<SatResult, SmtError> {
        Err(no_solver("check_assuming"))
    }

    fn eval(&mut self, _term: &Term) -> Result<Value, SmtError> {
        Err(SmtError::NotSat)
    }

    fn unsat_core(&self) -> Result<Vec<Label>, SmtError> {
        Err(SmtError::NotUnsat)
    }
}

/// `name` as an SMT-LIB simple symbol: characters outside letters, digits and
/// `_ ! . $ ? ~ @` become `_`, and a leading digit (or an empty name) gets a `v` before it.
pub fn symbol(name: &str) -> String {
    let mut s: String = name
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || "_!.$?~@".contains(c) {
                c
            } else {
                '_'
            }
        })
        .collect();
    if s.is_empty() || s.starts_with(|c: char| c.is_ascii_digit()) {
        s.insert(0, 'v');
    }
    s
}

/// The SMT-LIB text of `t`, each symbol written as `name` gives it. Integer products and
/// literals stay integers (`(* 2 x)`, `(- 3)`), so that a term of the `Int` encoders is
/// a term of the integer theory.
pub fn smtlib(t: &Term, name: &dyn Fn(SymId) -> String) -> String {
    let mut out = String::new();
    write_term(&mut out, t, name);
    out
}

fn write_int(out: &mut String, v: &BigInt) {
    if v.is_negative() {
        let _ = write!(out, "(- {})", -v);
    } else {
        let _ = write!(out, "{v}");
    }
}

fn write_app(out: &mut String, op: &str, ts: &[&Term], name: &dyn Fn(SymId) -> String) {
    out.push('(');
    out.push_str(op);
    for t in ts {
        out.push(' ');
        write_term(out, t, name);
    }
    out.push(')');
}

/// An n-ary operator: its unit for no operand, the operand alone for one.
fn write_nary(out: &mut String, op: &str, unit: &str, ts: &[Term], name: &dyn Fn(SymId) -> String) {
    match ts {
        [] => out.push_str(unit),
        [t] => write_term(out, t, name),
        _ => write_app(out, op, &ts.iter().collect::<Vec<_>>(), name),
    }
}

/// `and` (`unit` true) or `or` (`unit` false), without its unit operands and as its
/// absorbing element if it has one.
fn write_connective(
    out: &mut String,
    op: &str,
    unit: bool,
    ts: &[Term],
    name: &dyn Fn(SymId) -> String,
) {
    if ts.contains(&Term::Bool(!unit)) {
        let _ = write!(out, "{}", !unit);
        return;
    }
    let rest: Vec<Term> = ts
        .iter()
        .filter(|t| **t != Term::Bool(unit))
        .cloned()
        .collect();
    write_nary(out, op, if unit { "true" } else { "false" }, &rest, name);
}

fn write_term(out: &mut String, t: &Term, name: &dyn Fn(SymId) -> String) {
    match t {
        Term::Sym(s) => out.push_str(&name(*s)),
        Term::Bool(b) => {
            let _ = write!(out, "{b}");
        }
        Term::Int(v) => write_int(out, v),
        Term::Real(q) => {
            if q.denom().is_one() {
                write_int(out, q.numer());
                out.push_str(".0");
            } else {
                out.push_str("(/ ");
                write_int(out, q.numer());
                let _ = write!(out, " {})", q.denom());
            }
        }
        Term::Add(ts) => write_nary(out, "+", "0", ts, name),
        Term::Sub(a, b) => write_app(out, "-", &[a, b], name),
        Term::Neg(a) => write_app(out, "-", &[a], name),
        Term::Mul(c, a) => {
            out.push_str("(* ");
            if c.denom().is_one() {
                write_int(out, c.numer());
            } else {
                write_term(out, &Term::Real(c.clone()), name);
            }
            out.push(' ');
            write_term(out, a, name);
            out.push(')');
        }
        Term::IntDiv(a, k) => {
            out.push_str("(div ");
            write_term(out, a, name);
            let _ = write!(out, " {k})");
        }
        Term::Mod(a, k) => {
            out.push_str("(mod ");
            write_term(out, a, name);
            let _ = write!(out, " {k})");
        }
        Term::Le(a, b) => write_app(out, "<=", &[a, b], name),
        Term::Lt(a, b) => write_app(out, "<", &[a, b], name),
        Term::Ge(a, b) => write_app(out, ">=", &[a, b], name),
        Term::Gt(a, b) => write_app(out, ">", &[a, b], name),
        Term::Eq(a, b) => write_app(out, "=", &[a, b], name),
        Term::Distinct(ts) if ts.len() < 2 => out.push_str("true"),
        Term::Distinct(ts) => write_app(out, "distinct", &ts.iter().collect::<Vec<_>>(), name),
        Term::Not(a) => write_app(out, "not", &[a], name),
        Term::And(ts) => write_connective(out, "and", true, ts, name),
        Term::Or(ts) => write_connective(out, "or", false, ts, name),
        Term::Implies(a, b) => write_app(out, "=>", &[a, b], name),
        Term::Ite(c, a, b) => write_app(out, "ite", &[c, a, b], name),
        Term::Select(a, i) => write_app(out, "select", &[a, i], name),
        Term::Store(a, i, v) => write_app(out, "store", &[a, i, v], name),
        Term::ConstArray(v) => {
            out.push_str("((as const (Array Int Int)) ");
            write_int(out, v);
            out.push(')');
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn integer_terms_are_written_as_integers() {
        let mut r = Recorder::new();
        let x = r.declare("x#1", Sort::Int).expect("declares");
        let t = Term::le(
            Term::scale_int(-2, Term::sym(x)) + Term::int(-3),
            Term::int_div(Term::sym(x), 4),
        );
        r.assert(&t).expect("a formula");
        let name = |s: SymId| symbol(&r.symbols()[s.0 as usize].0);
        assert_eq!(
            smtlib(&r.assertions()[0], &name),
            "(<= (+ (* (- 2) x_1) (- 3)) (div x_1 4))"
        );
        assert!(r.assert(&Term::sym(x)).is_err(), "an Int is no formula");
        assert!(r.check().is_err(), "a recorder solves nothing");
    }

    #[test]
    fn units_of_and_and_or_are_left_out() {
        let x = || Term::sym(SymId(0));
        let name = |_: SymId| "x".to_string();
        let t = Term::and([Term::tt(), Term::or([Term::ff(), x()]), Term::tt()]);
        assert_eq!(smtlib(&t, &name), "x");
        assert_eq!(smtlib(&Term::and([x(), Term::ff()]), &name), "false");
        assert_eq!(smtlib(&Term::or([Term::tt(), x()]), &name), "true");
        assert_eq!(smtlib(&Term::and([]), &name), "true");
    }

    #[test]
    fn scopes_drop_their_assertions() {
        let mut r = Recorder::new();
        r.assert(&Term::tt()).expect("asserts");
        r.push().expect("push");
        r.assert(&Term::ff()).expect("asserts");
        r.pop().expect("pop");
        assert_eq!(r.assertions(), &[Term::tt()]);
        assert!(r.pop().is_err());
    }

    #[test]
    fn symbols_are_simple_smtlib_symbols() {
        assert_eq!(symbol("k#"), "k_");
        assert_eq!(symbol("#inst3"), "_inst3");
        assert_eq!(symbol("1x"), "v1x");
        assert_eq!(symbol("a!2"), "a!2");
    }
}
