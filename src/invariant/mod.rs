//! Invariants as formulas: the [`InvariantMap`] of a converged tabulation holds, per loop
//! head, per recursive procedure's summary and (with symbolic cells) after each loop, a
//! [`Formula`] over the program's own names: its scalars (current values, or entry values
//! `x₀` in a summary), its array cells (`a_1`, or `a[k]` at a ghost index `k` whose range
//! the formula states) and the internal variables the abstraction keeps (`$ret`,
//! temporaries), each [`Term`] typed by what it names.
//!
//! The SAFE reason, `--json` and the HTML report print renderings of this map
//! ([`PointInvariant::text`]); a certificate check or a witness reads the formulas. The map
//! is built from a tabulation by [`build`] and depends on nothing above the engine.

mod build;
mod simplify;

pub use build::{constraint_text, invariant_map, point_name};

use num_bigint::BigInt;
use num_rational::BigRational;
use num_traits::One;
use serde::ser::{SerializeMap, SerializeSeq};
use std::fmt;

/// What a [`Term`] names.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum TermKind {
    /// A scalar variable of the program: a global, a formal or a local (`scope` names its
    /// procedure).
    Var {
        /// The procedure of a formal or local; `None` for a global.
        scope: Option<String>,
    },
    /// A variable the front end or the abstraction introduced (`$ret`, temporaries, the
    /// hidden size of a variable-length array).
    Internal,
    /// The explicit cell `a[index]` of an array.
    Cell {
        /// The array.
        array: String,
        /// The cell's index.
        index: i64,
    },
    /// The cell of an array at a ghost index (`a[k]`).
    SymCell {
        /// The array.
        array: String,
        /// Which ghost (0, or 1 for the second of `k1 < k2`).
        ghost: u8,
    },
    /// The cell of an array at an index term of the first ghost (`a[2k+1]`).
    TermCell {
        /// The array.
        array: String,
        /// The ghost's coefficient in the index.
        coef: i64,
        /// The index's constant.
        offset: i64,
        /// A variable in the index, with its coefficient (`n` in `n-1-k`).
        by: Option<(String, i64)>,
    },
    /// A ghost index, universally quantified over the arrays' range.
    Ghost {
        /// Which ghost (0, or 1 for the second of `k1 < k2`).
        ghost: u8,
    },
}

/// A variable of an invariant: its name as the user reads it, what it names, and whether
/// it is the value at the procedure's entry (summaries relate entry and exit values).
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Term {
    /// The name as printed (`i`, `a_1`, `a[k]`, `$ret`); an entry value prints as `i₀`.
    pub name: String,
    /// What it names.
    #[serde(flatten)]
    pub kind: TermKind,
    /// The value at the entry of the procedure (summaries), not the current value.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub entry: bool,
    /// The variable of the abstraction P̂ it names (its index in [`InvariantMap`]'s
    /// variables), for the certificate check.
    #[serde(skip)]
    pub var: u32,
}

impl fmt::Display for Term {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.entry {
            write!(f, "{}₀", self.name)
        } else {
            f.write_str(&self.name)
        }
    }
}

/// One end of a [`Row`]: `value` (a strict bound excludes it).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RowBound {
    /// The bound.
    pub value: BigRational,
    /// Whether it is strict.
    pub strict: bool,
}

/// A linear constraint `lo ≤ Σ coefficient·term ≤ hi` with integer coefficients (either
/// end may be absent; equal ends make an equality).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Row {
    /// The linear form: integer coefficients (not all zero) and their terms.
    pub terms: Vec<(BigInt, Term)>,
    /// The lower end.
    pub lo: Option<RowBound>,
    /// The upper end.
    pub hi: Option<RowBound>,
}

impl Row {
    /// Whether the row holds when each term has the value `value` gives it (`None` if
    /// a term has none).
    pub fn holds(&self, value: &dyn Fn(&Term) -> Option<BigInt>) -> Option<bool> {
        let mut sum = BigInt::from(0);
        for (a, t) in &self.terms {
            sum += a * value(t)?;
        }
        let sum = BigRational::from_integer(sum);
        let lo = self.lo.as_ref().is_none_or(|b| {
            if b.strict {
                sum > b.value
            } else {
                sum >= b.value
            }
        });
        let hi = self.hi.as_ref().is_none_or(|b| {
            if b.strict {
                sum < b.value
            } else {
                sum <= b.value
            }
        });
        Some(lo && hi)
    }

    /// The linear form as text: `i - 2·n`.
    pub fn form_text(&self) -> String {
        let mut s = String::new();
        for (i, (a, t)) in self.terms.iter().enumerate() {
            let neg = a.sign() == num_bigint::Sign::Minus;
            let mag = if neg { -a.clone() } else { a.clone() };
            if i == 0 {
                if neg {
                    s.push('-');
                }
            } else {
                s.push_str(if neg { " - " } else { " + " });
            }
            if !mag.is_one() {
                s.push_str(&format!("{mag}·"));
            }
            s.push_str(&t.to_string());
        }
        s
    }
}

/// A bound as text: an integer, or a fraction.
fn q_text(q: &BigRational) -> String {
    if q.is_integer() {
        q.to_integer().to_string()
    } else {
        q.to_string()
    }
}

impl fmt::Display for Row {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let form = self.form_text();
        let le = |b: &RowBound| if b.strict { "<" } else { "≤" };
        match (&self.lo, &self.hi) {
            (Some(lo), Some(hi)) if lo.value == hi.value && !lo.strict && !hi.strict => {
                write!(f, "{form} = {}", q_text(&lo.value))
            }
            (Some(lo), Some(hi)) => write!(
                f,
                "{} {} {form} {} {}",
                q_text(&lo.value),
                le(lo),
                le(hi),
                q_text(&hi.value)
            ),
            (Some(lo), None) => {
                let ge = if lo.strict { ">" } else { "≥" };
                write!(f, "{form} {ge} {}", q_text(&lo.value))
            }
            (None, Some(hi)) => write!(f, "{form} {} {}", le(hi), q_text(&hi.value)),
            (None, None) => f.write_str("true"),
        }
    }
}

/// A formula over [`Row`]s. `And(vec![])` is true and `Or(vec![])` is false.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Formula {
    /// A linear constraint.
    Row(Row),
    /// A conjunction.
    And(Vec<Formula>),
    /// A disjunction.
    Or(Vec<Formula>),
    /// An implication.
    Implies(Box<Formula>, Box<Formula>),
    /// A universal quantification of the named ghost indices.
    Forall(Vec<String>, Box<Formula>),
    /// A congruence `term ≡ r (mod m)` (`m ≥ 2`, `0 ≤ r < m`).
    Cong(Term, BigInt, BigInt),
}

/// Disjuncts shown in an invariant's text; beyond this the text says how many it has.
pub const SHOWN_DISJUNCTS: usize = 4;

impl Formula {
    /// The constant true.
    pub fn truth() -> Formula {
        Formula::And(Vec::new())
    }

    /// The constant false.
    pub fn falsity() -> Formula {
        Formula::Or(Vec::new())
    }

    /// The disjuncts of a disjunction (under a quantifier), or the formula itself.
    pub fn disjuncts(&self) -> &[Formula] {
        match self {
            Formula::Forall(_, f) => f.disjuncts(),
            Formula::Or(ds) => ds,
            f => std::slice::from_ref(f),
        }
    }

    /// The text of the formula as reasons print it: a long disjunction shows its first
    /// [`SHOWN_DISJUNCTS`] disjuncts and how many there are.
    pub fn short_text(&self) -> String {
        self.text(Some(SHOWN_DISJUNCTS))
    }

    /// The text, with at most `shown` disjuncts per disjunction (`None`: all).
    fn text(&self, shown: Option<usize>) -> String {
        let paren = |f: &Formula| format!("({})", f.text(shown));
        match self {
            Formula::Row(r) => r.to_string(),
            Formula::And(fs) if fs.is_empty() => "true".into(),
            Formula::Or(fs) if fs.is_empty() => "false".into(),
            Formula::And(fs) | Formula::Or(fs) if fs.len() == 1 => fs[0].text(shown),
            Formula::And(fs)
                if fs
                    .iter()
                    .all(|f| matches!(f, Formula::Row(_) | Formula::Cong(..))) =>
            {
                fs.iter()
                    .map(|f| f.text(shown))
                    .collect::<Vec<_>>()
                    .join(" ∧ ")
            }
            Formula::And(fs) => fs.iter().map(paren).collect::<Vec<_>>().join(" ∧ "),
            Formula::Or(fs) => match shown {
                Some(n) if fs.len() > n => format!(
                    "{} ∨ … ({} disjuncts)",
                    fs[..n]
                        .iter()
                        .map(|f| f.text(shown))
                        .collect::<Vec<_>>()
                        .join(" ∨ "),
                    fs.len()
                ),
                _ => fs.iter().map(paren).collect::<Vec<_>>().join(" ∨ "),
            },
            Formula::Implies(a, b) => format!("{} → {}", a.text(shown), b.text(shown)),
            Formula::Forall(ks, f) => format!("∀{}. {}", ks.join(", "), f.text(shown)),
            Formula::Cong(t, r, m) => format!("{t} ≡ {r} (mod {m})"),
        }
    }

    /// Every term the formula names, in order of appearance.
    pub fn terms(&self) -> Vec<&Term> {
        let mut out: Vec<&Term> = Vec::new();
        self.visit_terms(&mut |t| {
            if !out.contains(&t) {
                out.push(t);
            }
        });
        out
    }

    fn visit_terms<'a>(&'a self, f: &mut impl FnMut(&'a Term)) {
        match self {
            Formula::Row(r) => r.terms.iter().for_each(|(_, t)| f(t)),
            Formula::And(fs) | Formula::Or(fs) => fs.iter().for_each(|x| x.visit_terms(f)),
            Formula::Implies(a, b) => {
                a.visit_terms(f);
                b.visit_terms(f);
            }
            Formula::Forall(_, x) => x.visit_terms(f),
            Formula::Cong(t, _, _) => f(t),
        }
    }

    /// Whether the formula holds when each term has the value `value` gives it; `None` if
    /// a term has none, or under a quantifier (its ghosts range over the arrays).
    pub fn holds(&self, value: &dyn Fn(&Term) -> Option<BigInt>) -> Option<bool> {
        match self {
            Formula::Row(r) => r.holds(value),
            Formula::And(fs) => fs
                .iter()
                .try_fold(true, |acc, f| Some(acc & f.holds(value)?)),
            Formula::Or(fs) => fs
                .iter()
                .try_fold(false, |acc, f| Some(acc | f.holds(value)?)),
            Formula::Implies(a, b) => Some(!a.holds(value)? || b.holds(value)?),
            Formula::Forall(..) => None,
            Formula::Cong(t, r, m) => {
                Some(num_integer::Integer::mod_floor(&(value(t)? - r), m) == BigInt::from(0))
            }
        }
    }

    /// Call `f` on every row.
    pub fn visit_rows<'a>(&'a self, f: &mut impl FnMut(&'a Row)) {
        match self {
            Formula::Row(r) => f(r),
            Formula::And(fs) | Formula::Or(fs) => fs.iter().for_each(|x| x.visit_rows(f)),
            Formula::Implies(a, b) => {
                a.visit_rows(f);
                b.visit_rows(f);
            }
            Formula::Forall(_, x) => x.visit_rows(f),
            Formula::Cong(..) => {}
        }
    }
}

impl fmt::Display for Formula {
    /// The whole formula, every disjunct shown.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.text(None))
    }
}

/// Where an invariant holds.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Point {
    /// The head of a loop: every time control reaches it.
    LoopHead {
        /// The CFG node of the head.
        node: u32,
        /// The loop's line.
        line: u32,
    },
    /// Right after a loop: when its test fails (the ∀-statements of symbolic cells).
    AfterLoop {
        /// The CFG node of the loop's head.
        node: u32,
        /// The loop's line.
        line: u32,
    },
    /// The summary of a procedure with loops or recursion: how its exit values relate
    /// to its entry values (`x₀`; `$ret` is the value returned).
    Summary {
        /// The procedure.
        proc: String,
    },
    /// The entry of a procedure with loops or recursion: what holds of the globals and
    /// the parameters whenever it is called (the calling contexts its summary covers).
    Entry {
        /// The procedure.
        proc: String,
    },
}

/// The invariant at one point.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PointInvariant {
    /// Where it holds, as the user reads it (`loop at line 7`, `summary of f`, `after
    /// the loop at line 7`).
    pub at: String,
    /// Where it holds, typed.
    pub point: Point,
    /// The formula.
    pub formula: Formula,
    /// A shorter formula that contains this one (a loop head's facts hulled within the
    /// parts of its test), to be shown instead if the certificate check accepts it.
    pub(crate) coarse: Option<Formula>,
}

impl PointInvariant {
    /// The invariant at `at` (a point `point`).
    pub fn new(at: String, point: Point, formula: Formula) -> PointInvariant {
        PointInvariant {
            at,
            point,
            formula,
            coarse: None,
        }
    }
}

impl PointInvariant {
    /// The formula as the SAFE reason prints it ([`Formula::short_text`]).
    pub fn text(&self) -> String {
        self.formula.short_text()
    }
}

/// The invariants of a SAFE verdict, in the order the reason lists them: the
/// ∀-statements after loops first, then the loop heads and summaries in node order, then
/// the entries of the procedures with summaries.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct InvariantMap {
    /// One entry per point.
    pub points: Vec<PointInvariant>,
    /// The variables of the abstraction the formulas are over ([`Term::var`] indexes
    /// them): the program's own first, then the cells, ghosts and temporaries P̂ added.
    pub(crate) vars: Vec<crate::sema::VarInfo>,
}

impl InvariantMap {
    /// Whether there is no invariant.
    pub fn is_empty(&self) -> bool {
        self.points.is_empty()
    }

    /// The invariants, in order.
    pub fn iter(&self) -> std::slice::Iter<'_, PointInvariant> {
        self.points.iter()
    }

    /// The invariant at the first point named `at`.
    pub fn at(&self, at: &str) -> Option<&PointInvariant> {
        self.points.iter().find(|p| p.at == at)
    }

    /// The map with each point's coarser formula, if any point has one.
    pub(crate) fn coarsened(&self) -> Option<InvariantMap> {
        if self.points.iter().all(|p| p.coarse.is_none()) {
            return None;
        }
        let mut m = self.clone();
        for p in &mut m.points {
            if let Some(c) = p.coarse.take() {
                p.formula = c;
            }
        }
        Some(m)
    }

    /// The invariants a SAFE reason lists: all but the procedures' entries.
    pub fn shown(&self) -> impl Iterator<Item = &PointInvariant> {
        self.points
            .iter()
            .filter(|p| !matches!(p.point, Point::Entry { .. }))
    }
}

impl<'a> IntoIterator for &'a InvariantMap {
    type Item = &'a PointInvariant;
    type IntoIter = std::slice::Iter<'a, PointInvariant>;
    fn into_iter(self) -> Self::IntoIter {
        self.points.iter()
    }
}

// JSON: the map is a list of `{at, formula, point, tree}`, where `formula` is the text
// of the reason and `tree` the formula's structure.

impl serde::Serialize for InvariantMap {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut seq = s.serialize_seq(Some(self.points.len()))?;
        for p in &self.points {
            seq.serialize_element(p)?;
        }
        seq.end()
    }
}

impl serde::Serialize for PointInvariant {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut m = s.serialize_map(Some(4))?;
        m.serialize_entry("at", &self.at)?;
        m.serialize_entry("formula", &self.text())?;
        m.serialize_entry("point", &self.point)?;
        m.serialize_entry("tree", &self.formula)?;
        m.end()
    }
}

impl serde::Serialize for Formula {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut m = s.serialize_map(Some(2))?;
        match self {
            Formula::Row(r) => {
                m.serialize_entry("op", "row")?;
                m.serialize_entry("row", r)?;
            }
            Formula::And(fs) => {
                m.serialize_entry("op", "and")?;
                m.serialize_entry("args", fs)?;
            }
            Formula::Or(fs) => {
                m.serialize_entry("op", "or")?;
                m.serialize_entry("args", fs)?;
            }
            Formula::Implies(a, b) => {
                m.serialize_entry("op", "implies")?;
                m.serialize_entry("args", &[a.as_ref(), b.as_ref()])?;
            }
            Formula::Cong(t, r, md) => {
                m.serialize_entry("op", "cong")?;
                m.serialize_entry("term", t)?;
                m.serialize_entry("residue", &r.to_string())?;
                m.serialize_entry("modulus", &md.to_string())?;
            }
            Formula::Forall(ks, f) => {
                m.serialize_entry("op", "forall")?;
                m.serialize_entry("vars", ks)?;
                m.serialize_entry("body", f.as_ref())?;
            }
        }
        m.end()
    }
}

impl serde::Serialize for Row {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        #[derive(serde::Serialize)]
        struct Coef<'a> {
            coefficient: String,
            term: &'a Term,
        }
        let bound = |b: &Option<RowBound>| {
            b.as_ref()
                .map(|b| serde_json::json!({ "value": q_text(&b.value), "strict": b.strict }))
        };
        let terms: Vec<Coef> = self
            .terms
            .iter()
            .map(|(a, t)| Coef {
                coefficient: a.to_string(),
                term: t,
            })
            .collect();
        let mut m = s.serialize_map(Some(4))?;
        m.serialize_entry("text", &self.to_string())?;
        m.serialize_entry("terms", &terms)?;
        m.serialize_entry("lo", &bound(&self.lo))?;
        m.serialize_entry("hi", &bound(&self.hi))?;
        m.end()
    }
}
