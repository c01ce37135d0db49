//! The resolved program ("HIR") that `sema` produces from the AST: every name is a typed
//! id, builtins (SV-COMP and KLEE conventions) are recognised, constants are folded, and
//! every product is linear. It keeps the AST's structured control flow; `cfg` lowers it.

use crate::diag::Span;
use crate::ids::{ArrayId, IndexVec, ProcId, VarId};
use crate::syntax::ast::IntTy;
use num_bigint::BigInt;
use std::collections::BTreeMap;

/// Where a scalar variable lives.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
pub enum VarKind {
    /// A global (zero-initialised unless it has an initialiser).
    Global,
    /// A formal parameter of a procedure.
    Formal(ProcId),
    /// A local of a procedure (starts arbitrary).
    Local(ProcId),
    /// A compiler temporary of a procedure (call results, nondet values).
    Temp(ProcId),
    /// The global through which procedures return their value.
    Ret,
    /// The hidden size of a variable-length array of a procedure.
    ArraySize(ProcId),
    /// The ghost index `k` of the symbolic cells (one cell at an arbitrary index stands for
    /// every element of its array), shared by every array that has one: a global,
    /// arbitrary within the arrays' ranges at the start, never assigned.
    Ghost {
        /// The largest size of those arrays when every one has a constant size (the ghost
        /// lies below it); `None` when some array has a variable size.
        bound: Option<u64>,
        /// The residue class `(r, m)`, `m ≥ 2`, of every index at which the arrays are
        /// accessed, when there is one ([`crate::cfg::residue`]): the ghost ranges over
        /// it alone, `k ≡ r (mod m)`. A read or write elsewhere never meets the ghost.
        residue: Option<(u32, u32)>,
    },
    /// The symbolic cell `a_k` of an array: the cell at the array's ghost index `k`, a
    /// global that is arbitrary and never assigned; scoped like its array.
    SymCell {
        /// The array.
        array: ArrayId,
        /// The array's procedure (`None` for a global array).
        proc: Option<ProcId>,
    },
    /// The cell of an array at an index term of the ghost, `a[coef·k + offset]` (a copy
    /// `b[i] = a[n-1-i]` relates `b_k` with `a_{n-1-k}`); scoped like its array.
    TermCell {
        /// The array.
        array: ArrayId,
        /// The array's procedure (`None` for a global array).
        proc: Option<ProcId>,
        /// The index, a term of the ghost.
        term: IndexTerm,
    },
    /// An explicit array cell `a_k` added by refinement (paper §2); scoped like its array.
    Cell {
        /// The array.
        array: ArrayId,
        /// The cell's index.
        index: i64,
        /// The array's procedure (`None` for a global array).
        proc: Option<ProcId>,
    },
}

impl VarKind {
    /// The procedure owning the variable, or `None` for globals.
    pub fn proc(self) -> Option<ProcId> {
        match self {
            VarKind::Global | VarKind::Ret | VarKind::Ghost { .. } => None,
            VarKind::Cell { proc, .. }
            | VarKind::SymCell { proc, .. }
            | VarKind::TermCell { proc, .. } => proc,
            VarKind::Formal(p) | VarKind::Local(p) | VarKind::Temp(p) | VarKind::ArraySize(p) => {
                Some(p)
            }
        }
    }
}

/// What a signed arithmetic operation does when its mathematical result is outside its
/// type's range (C11 §6.5: undefined behaviour). Under mathematical integers it never is.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum SignedOverflow {
    /// As C defines it: the execution has no meaning from there on, so it ends without a
    /// verdict (no error is reported through it, and a proof may assume the result is in
    /// range).
    #[default]
    Undefined,
    /// The result wraps modulo `2^bits`, as under `gcc -fwrapv`.
    Wrap,
    /// The overflow is an error location (SV-COMP's no-overflow property).
    Error,
}

impl SignedOverflow {
    /// `undefined`, `wrap` or `error`.
    pub fn as_str(self) -> &'static str {
        match self {
            SignedOverflow::Undefined => "undefined",
            SignedOverflow::Wrap => "wrap",
            SignedOverflow::Error => "error",
        }
    }

    /// Parse `undefined` / `wrap` / `error` (case-insensitive).
    pub fn parse(s: &str) -> Option<SignedOverflow> {
        match s.to_ascii_lowercase().as_str() {
            "undefined" => Some(SignedOverflow::Undefined),
            "wrap" => Some(SignedOverflow::Wrap),
            "error" => Some(SignedOverflow::Error),
            _ => None,
        }
    }
}

/// Value range of a variable beyond "any integer".
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize)]
pub enum Range {
    /// Any integer.
    Any,
    /// `unsigned` under mathematical integers: never negative.
    NonNegative,
    /// `_Bool`: 0 or 1.
    Bool,
    /// A C integer type's range (C's integer semantics).
    Int(Width),
}

impl Range {
    /// Whether `v` is in the range.
    pub fn contains(self, v: &BigInt) -> bool {
        match self {
            Range::Any => true,
            Range::NonNegative => *v >= BigInt::from(0),
            Range::Bool => *v == BigInt::from(0) || *v == BigInt::from(1),
            Range::Int(w) => w.contains(v),
        }
    }
    /// A value in the range for an arbitrary `v`: `v` itself if it is in, else a value
    /// the range always has (C integers: `v` wrapped).
    pub fn normalize(self, v: BigInt) -> BigInt {
        match self {
            Range::Int(w) => w.wrap(&v),
            r if r.contains(&v) => v,
            Range::Bool => BigInt::from(v != BigInt::from(0)),
            _ => BigInt::from(0),
        }
    }
}

/// A scalar variable.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct VarInfo {
    /// The source name (unique names are made by the printers when needed).
    pub name: String,
    /// Where it lives.
    pub kind: VarKind,
    /// Its declared range (only `Any` for temporaries).
    pub range: Range,
    /// Its declaration.
    pub span: Span,
}

/// The size of an array.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ArraySize {
    /// A constant positive size.
    Const(u64),
    /// A variable-length array: the size is the value of this hidden variable, set when
    /// the declaration executes.
    Dynamic(VarId),
}

/// An array variable.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ArrayInfo {
    /// The source name.
    pub name: String,
    /// Owning procedure, `None` for a global array.
    pub proc: Option<ProcId>,
    /// Its size.
    pub size: ArraySize,
    /// Element range (`unsigned` arrays hold non-negative values).
    pub range: Range,
    /// Its declaration.
    pub span: Span,
}

/// A procedure.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ProcInfo {
    /// Its name.
    pub name: String,
    /// Formal parameters in order.
    pub formals: Vec<VarId>,
    /// Every other scalar of the procedure (locals, temporaries, array sizes).
    pub locals: Vec<VarId>,
    /// Local arrays.
    pub arrays: Vec<ArrayId>,
    /// Whether it returns an `int`.
    pub returns_value: bool,
    /// Its body.
    pub body: Vec<Stmt>,
    /// Its definition's signature.
    pub span: Span,
}

/// Comparison operators.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize)]
pub enum CmpOp {
    /// `<`
    Lt,
    /// `<=`
    Le,
    /// `>`
    Gt,
    /// `>=`
    Ge,
    /// `==`
    Eq,
    /// `!=`
    Ne,
}

impl CmpOp {
    /// The C spelling.
    pub fn as_str(self) -> &'static str {
        match self {
            CmpOp::Lt => "<",
            CmpOp::Le => "<=",
            CmpOp::Gt => ">",
            CmpOp::Ge => ">=",
            CmpOp::Eq => "==",
            CmpOp::Ne => "!=",
        }
    }
    /// Evaluate on integers.
    pub fn holds(self, a: &BigInt, b: &BigInt) -> bool {
        self.holds_ordering(a.cmp(b))
    }
    /// Whether `a op b` holds, given how `a` compares with `b`.
    pub fn holds_ordering(self, o: std::cmp::Ordering) -> bool {
        use std::cmp::Ordering::*;
        match self {
            CmpOp::Lt => o == Less,
            CmpOp::Le => o != Greater,
            CmpOp::Gt => o == Greater,
            CmpOp::Ge => o != Less,
            CmpOp::Eq => o == Equal,
            CmpOp::Ne => o != Equal,
        }
    }
    /// The operator of the negated comparison.
    pub fn negate(self) -> CmpOp {
        match self {
            CmpOp::Lt => CmpOp::Ge,
            CmpOp::Le => CmpOp::Gt,
            CmpOp::Gt => CmpOp::Le,
            CmpOp::Ge => CmpOp::Lt,
            CmpOp::Eq => CmpOp::Ne,
            CmpOp::Ne => CmpOp::Eq,
        }
    }
}

/// A resolved, linear expression. Booleans are integers with C's 0/1 values.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Expr {
    /// An integer constant.
    Const(BigInt),
    /// A scalar variable.
    Var(VarId),
    /// The undefined value `u` (also `__VERIFIER_nondet_int()`): an arbitrary integer,
    /// drawn anew at each evaluation.
    Undef,
    /// `a[e]`; out of range yields an arbitrary value.
    Read(ArrayId, Box<Expr>),
    /// `e1 + e2`
    Add(Box<Expr>, Box<Expr>),
    /// `e1 - e2`
    Sub(Box<Expr>, Box<Expr>),
    /// `c * e` (linear: the factor is a constant)
    Scale(BigInt, Box<Expr>),
    /// `e / c` with `c > 0`, truncating toward zero as in C.
    Div(Box<Expr>, BigInt),
    /// `e % c` with `c > 0`, with the sign of `e` as in C.
    Mod(Box<Expr>, BigInt),
    /// `e1 op e2`: 1 if it holds, else 0.
    Cmp(CmpOp, Box<Expr>, Box<Expr>),
    /// `!e`: 1 if `e == 0`, else 0.
    Not(Box<Expr>),
    /// `e1 && e2` (short-circuit; value 0/1).
    And(Box<Expr>, Box<Expr>),
    /// `e1 || e2` (short-circuit; value 0/1).
    Or(Box<Expr>, Box<Expr>),
    /// `(c ? e1 : e2)`
    Cond(Box<Expr>, Box<Expr>, Box<Expr>),
    /// A call of a user procedure inside an expression; `cfg` hoists it into a temporary.
    /// Never present in a CFG node.
    Call(ProcId, Vec<Expr>, Span),
    /// A nondeterministic value in a range (`__VERIFIER_nondet_uint()`, `_bool`, ...);
    /// `cfg` hoists it into a temporary with an `assume`. Never present in a CFG node.
    Nondet(Range, Span),
    /// The result `e` of a signed arithmetic operation, whose value must fit in the given
    /// width: C leaves a signed overflow undefined ([`SignedOverflow`] says what the
    /// program makes of it). Under [`SignedOverflow::Error`] `cfg` hoists it into a
    /// temporary and a branch to the error node (SV-COMP's no-overflow property); under
    /// [`SignedOverflow::Undefined`] it stays in the CFG node, and an execution whose value
    /// is out of range ends there without a verdict (as a false `assume` ends it).
    Overflow(Width, Box<Expr>),
    /// C's conversion of the mathematical value of `e` to an integer type of the given
    /// width: the unique value in the type's range that is congruent to `e` modulo
    /// `2^bits` ([`Width::wrap`]). The C-integer rules (which conversions happen where)
    /// live in `sema`; every back end implements only this primitive.
    Wrap(Width, Box<Expr>),
}

/// The width and signedness of a C integer type, for wraparound ([`Expr::Wrap`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize)]
pub struct Width {
    /// Number of value bits (8, 16, 32, 64, 128).
    pub bits: u32,
    /// Two's complement signed (else unsigned).
    pub signed: bool,
}

impl Width {
    /// The smallest value.
    pub fn lo(self) -> BigInt {
        if self.signed {
            -(BigInt::from(1) << (self.bits - 1))
        } else {
            BigInt::from(0)
        }
    }
    /// The largest value.
    pub fn hi(self) -> BigInt {
        if self.signed {
            (BigInt::from(1) << (self.bits - 1)) - 1
        } else {
            (BigInt::from(1) << self.bits) - 1
        }
    }
    /// `2^bits`.
    pub fn modulus(self) -> BigInt {
        BigInt::from(1) << self.bits
    }
    /// `(lo, hi)` as `i128`, for widths up to 64 bits (the fast path).
    fn small_bounds(self) -> Option<(i128, i128)> {
        (self.bits <= 64).then(|| {
            if self.signed {
                (-(1i128 << (self.bits - 1)), (1i128 << (self.bits - 1)) - 1)
            } else {
                (0, (1i128 << self.bits) - 1)
            }
        })
    }
    /// Whether `x` is in range (as [`Width::contains`], without a big integer).
    pub fn contains_i64(self, x: i64) -> bool {
        match self.small_bounds() {
            Some((lo, hi)) => lo <= x as i128 && x as i128 <= hi,
            // Wider than 64 bits: every `i64` is in an unsigned type's range only when
            // it is not negative.
            None => self.signed || x >= 0,
        }
    }
    /// Whether `v` is in range.
    pub fn contains(self, v: &BigInt) -> bool {
        use num_traits::ToPrimitive;
        if let (Some((lo, hi)), Some(x)) = (self.small_bounds(), v.to_i128()) {
            return lo <= x && x <= hi;
        }
        self.lo() <= *v && *v <= self.hi()
    }
    /// The value in range congruent to `v` modulo `2^bits`: `lo + ((v - lo) mod 2^bits)`
    /// with a non-negative remainder.
    pub fn wrap(self, v: &BigInt) -> BigInt {
        use num_integer::Integer;
        use num_traits::ToPrimitive;
        if let (Some((lo, hi)), Some(x)) = (self.small_bounds(), v.to_i128()) {
            if lo <= x && x <= hi {
                return v.clone();
            }
            if x.unsigned_abs() < (1u128 << 100) {
                let m = 1i128 << self.bits;
                return BigInt::from(lo + (x - lo).rem_euclid(m));
            }
        }
        let lo = self.lo();
        let r = (v - &lo).mod_floor(&self.modulus());
        lo + r
    }
}

impl std::fmt::Display for Width {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}{}", if self.signed { "i" } else { "u" }, self.bits)
    }
}

/// An index term of the ghost `k`: `coef·k + offset`, plus `c·v` for a program variable
/// `v` when `by` is `Some((v, c))` (`n-1-k`): the cell at it is the cell at the term's
/// value in the current state.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, serde::Serialize)]
pub struct IndexTerm {
    /// The ghost's coefficient.
    pub coef: i64,
    /// The constant.
    pub offset: i64,
    /// A variable with its coefficient.
    pub by: Option<(VarId, i64)>,
}

impl IndexTerm {
    /// The term of the ghost `k` at which `e2` lies when `k` is at `e1`: both linear in a
    /// variable `x` (the first by number they share), `e1`'s coefficient of `x` dividing
    /// `e2`'s (the term has integer coefficients), and what is left of them after `x` a
    /// constant plus at most one variable; `None` otherwise, or when it is the ghost itself.
    pub fn relating(e1: &Affine, e2: &Affine) -> Option<IndexTerm> {
        let (x, alpha, gamma) =
            e1.0.iter()
                .find_map(|(x, a)| Some((*x, *a, *e2.0.get(x)?)))?;
        // k = α·x + B, so α·x = k − B and e2 = γ·x + D = (γ/α)·k + (D − (γ/α)·B).
        if gamma % alpha != 0 {
            return None;
        }
        let coef = gamma / alpha;
        let mut rest = e2.clone();
        rest.0.remove(&x);
        let mut b = e1.clone();
        b.0.remove(&x);
        let rest = rest.plus(-coef, &b);
        let by = match rest.0.iter().collect::<Vec<_>>()[..] {
            [] => None,
            [(v, c)] => Some((*v, *c)),
            _ => return None,
        };
        let t = IndexTerm {
            coef,
            offset: rest.1,
            by,
        };
        (!t.is_ghost()).then_some(t)
    }
    /// The term at the ghost's value `k` (an affine form): `coef·k + offset + c·v`.
    pub fn at(&self, k: &Affine) -> Affine {
        let mut t = k.scaled(self.coef);
        t.1 += self.offset;
        match self.by {
            Some((v, c)) => t.plus(c, &Affine(BTreeMap::from([(v, 1)]), 0)),
            None => t,
        }
    }
    /// The term as an expression of the ghost variable `k`.
    pub fn expr(&self, k: VarId) -> Expr {
        let mut e = Expr::Add(
            Box::new(Expr::Scale(BigInt::from(self.coef), Box::new(Expr::Var(k)))),
            Box::new(Expr::int(self.offset)),
        );
        if let Some((v, c)) = self.by {
            e = Expr::Add(
                Box::new(e),
                Box::new(Expr::Scale(BigInt::from(c), Box::new(Expr::Var(v)))),
            );
        }
        e
    }
    /// Whether it is the ghost itself.
    pub fn is_ghost(&self) -> bool {
        (self.coef, self.offset, self.by) == (1, 0, None)
    }
    /// The term as the user reads it (`2k+1`, `999-k`, `n-1-k`), with `k` the ghost's
    /// name and `name` the variables'.
    pub fn show(&self, k: &str, name: &dyn Fn(VarId) -> String) -> String {
        let lead = match self.coef {
            1 => k.to_string(),
            -1 => format!("-{k}"),
            c => format!("{c}{k}"),
        };
        let by = self.by.map(|(v, c)| match c {
            1 => name(v),
            -1 => format!("-{}", name(v)),
            c => format!("{c}{}", name(v)),
        });
        // A negative lead goes after a positive part: `999-k`, `n-1-k`.
        let mut parts: Vec<String> = Vec::new();
        let neg_lead = self.coef < 0;
        if !neg_lead {
            parts.push(lead.clone());
        }
        parts.extend(by);
        if self.offset != 0 {
            parts.push(self.offset.to_string());
        }
        if neg_lead {
            parts.push(lead);
        }
        let mut out = String::new();
        for p in parts {
            if !out.is_empty() && !p.starts_with('-') {
                out.push('+');
            }
            out.push_str(&p);
        }
        out
    }
}

/// An affine form `Σ cᵢ·xᵢ + c` with integer coefficients (none zero), as `(coefficients,
/// constant)`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Affine(pub BTreeMap<VarId, i64>, pub i64);

impl Affine {
    /// `k·self`.
    pub fn scaled(&self, k: i64) -> Affine {
        if k == 0 {
            return Affine::default();
        }
        Affine(
            self.0.iter().map(|(v, c)| (*v, c * k)).collect(),
            self.1 * k,
        )
    }

    /// `self + k·other`.
    pub fn plus(mut self, k: i64, other: &Affine) -> Affine {
        for (v, c) in &other.0 {
            let e = self.0.entry(*v).or_insert(0);
            *e += k * c;
            if *e == 0 {
                self.0.remove(v);
            }
        }
        self.1 += k * other.1;
        self
    }
}

impl Expr {
    /// The affine form of an index term: constants, variables, sums, differences and
    /// scalings, through C's conversions and overflow checks (the form is the value when
    /// nothing wraps); `None` for anything else or past `i64`.
    pub fn affine(&self) -> Option<Affine> {
        use num_traits::ToPrimitive;
        const LIMIT: i64 = 1 << 40;
        let small = |n: i64| (-LIMIT..=LIMIT).contains(&n).then_some(n);
        match self {
            Expr::Const(n) => Some(Affine(BTreeMap::new(), small(n.to_i64()?)?)),
            Expr::Var(v) => Some(Affine(BTreeMap::from([(*v, 1)]), 0)),
            Expr::Add(a, b) => Some(a.affine()?.plus(1, &b.affine()?)),
            Expr::Sub(a, b) => Some(a.affine()?.plus(-1, &b.affine()?)),
            Expr::Scale(k, a) => Some(a.affine()?.scaled(small(k.to_i64()?)?)),
            Expr::Wrap(_, a) | Expr::Overflow(_, a) => a.affine(),
            _ => None,
        }
    }

    /// `Const(n)`.
    pub fn int(n: i64) -> Expr {
        Expr::Const(BigInt::from(n))
    }
    /// Whether the expression contains a `Call` or a `Nondet` (what the CFG always hoists
    /// out of node expressions).
    pub fn has_calls(&self) -> bool {
        let mut found = false;
        self.visit(&mut |e| found |= matches!(e, Expr::Call(..) | Expr::Nondet(..)));
        found
    }
    /// Whether the expression contains a `Call`, a `Nondet` or an `Overflow` (whose
    /// evaluation may end the execution or reach an error, so a statement that discards
    /// its value still evaluates it).
    pub fn has_effects(&self) -> bool {
        let mut found = false;
        self.visit(&mut |e| {
            found |= matches!(e, Expr::Call(..) | Expr::Nondet(..) | Expr::Overflow(..))
        });
        found
    }
    /// Call `f` on this expression and every sub-expression (pre-order).
    pub fn visit(&self, f: &mut impl FnMut(&Expr)) {
        f(self);
        match self {
            Expr::Const(_) | Expr::Var(_) | Expr::Undef | Expr::Nondet(..) => {}
            Expr::Read(_, e)
            | Expr::Scale(_, e)
            | Expr::Div(e, _)
            | Expr::Mod(e, _)
            | Expr::Wrap(_, e)
            | Expr::Overflow(_, e)
            | Expr::Not(e) => e.visit(f),
            Expr::Add(a, b)
            | Expr::Sub(a, b)
            | Expr::Cmp(_, a, b)
            | Expr::And(a, b)
            | Expr::Or(a, b) => {
                a.visit(f);
                b.visit(f);
            }
            Expr::Cond(c, a, b) => {
                c.visit(f);
                a.visit(f);
                b.visit(f);
            }
            Expr::Call(_, args, _) => args.iter().for_each(|a| a.visit(f)),
        }
    }
    /// Rebuild the expression bottom-up, replacing each node by `f(node)` after its
    /// children have been rewritten.
    pub fn map_bottom_up(self, f: &mut dyn FnMut(Expr) -> Expr) -> Expr {
        #[allow(clippy::boxed_local)]
        fn b(e: Box<Expr>, f: &mut dyn FnMut(Expr) -> Expr) -> Box<Expr> {
            Box::new(e.map_bottom_up(f))
        }
        let e = match self {
            e @ (Expr::Const(_) | Expr::Var(_) | Expr::Undef | Expr::Nondet(..)) => e,
            Expr::Read(a, i) => Expr::Read(a, b(i, f)),
            Expr::Add(x, y) => Expr::Add(b(x, f), b(y, f)),
            Expr::Sub(x, y) => Expr::Sub(b(x, f), b(y, f)),
            Expr::Scale(c, x) => Expr::Scale(c, b(x, f)),
            Expr::Div(x, c) => Expr::Div(b(x, f), c),
            Expr::Mod(x, c) => Expr::Mod(b(x, f), c),
            Expr::Cmp(op, x, y) => Expr::Cmp(op, b(x, f), b(y, f)),
            Expr::Not(x) => Expr::Not(b(x, f)),
            Expr::Wrap(w, x) => Expr::Wrap(w, b(x, f)),
            Expr::Overflow(w, x) => Expr::Overflow(w, b(x, f)),
            Expr::And(x, y) => Expr::And(b(x, f), b(y, f)),
            Expr::Or(x, y) => Expr::Or(b(x, f), b(y, f)),
            Expr::Cond(c, x, y) => Expr::Cond(b(c, f), b(x, f), b(y, f)),
            Expr::Call(p, args, s) => {
                Expr::Call(p, args.into_iter().map(|a| a.map_bottom_up(f)).collect(), s)
            }
        };
        f(e)
    }
    /// Add the variables the expression reads to `vars`, and the arrays it reads to
    /// `arrays`.
    pub fn uses(
        &self,
        vars: &mut std::collections::BTreeSet<VarId>,
        arrays: &mut std::collections::BTreeSet<ArrayId>,
    ) {
        self.visit(&mut |x| match x {
            Expr::Var(v) => {
                vars.insert(*v);
            }
            Expr::Read(a, _) => {
                arrays.insert(*a);
            }
            _ => {}
        })
    }
    /// The variables the expression reads (with repetitions, in order).
    pub fn vars(&self) -> Vec<VarId> {
        let mut out = Vec::new();
        self.visit(&mut |e| {
            if let Expr::Var(v) = e {
                out.push(*v)
            }
        });
        out
    }
}

/// An assignment target.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LValue {
    /// A scalar.
    Var(VarId),
    /// An array element `a[e]`; an out-of-range write does nothing.
    Elem(ArrayId, Expr),
}

/// A resolved statement with its span.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Stmt {
    /// What it is.
    pub kind: StmtKind,
    /// Where it is.
    pub span: Span,
}

/// The resolved statement forms.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum StmtKind {
    /// Parallel assignment: all right-hand sides are evaluated first.
    Assign(Vec<(LValue, Expr)>),
    /// `x = f(args)` or `f(args);`: a call of a user procedure.
    Call {
        /// Where the result goes, if anywhere.
        dest: Option<LValue>,
        /// The callee.
        proc: ProcId,
        /// The actual parameters.
        args: Vec<Expr>,
    },
    /// The variable gets an arbitrary value in its range (an uninitialised local, or
    /// `klee_make_symbolic(&x, ...)`).
    Havoc(VarId),
    /// A local array comes into scope: a VLA gets its size (`size`, with its size variable
    /// set), and its cells become arbitrary, or the initialiser's values with the rest 0.
    ArrayDecl {
        /// The array.
        array: ArrayId,
        /// The size expression of a VLA.
        size: Option<Expr>,
        /// Initialiser values.
        init: Option<Vec<Expr>>,
    },
    /// Every cell of the array gets an arbitrary value (`klee_make_symbolic(a, ...)`).
    ArrayHavoc(ArrayId),
    /// `if`
    If(Expr, Vec<Stmt>, Vec<Stmt>),
    /// `while (c) body`, and `for` loops: `step` runs after the body and on `continue`.
    Loop {
        /// Condition, tested before each iteration (after the first if `do_while`).
        cond: Expr,
        /// The body.
        body: Vec<Stmt>,
        /// The `for` step.
        step: Vec<Stmt>,
        /// A `do ... while` loop.
        do_while: bool,
    },
    /// `break;`
    Break,
    /// `continue;`
    Continue,
    /// `return;` / `return e;`
    Return(Option<Expr>),
    /// `skip;`, `;`
    Skip,
    /// A labelled statement; `is_error` for `ERROR:`.
    Label {
        /// The label.
        name: String,
        /// Whether it is an error label.
        is_error: bool,
        /// The statement.
        stmt: Box<Stmt>,
    },
    /// A call of an error function (`reach_error()`, `__VERIFIER_error()`): an error
    /// location.
    Error,
    /// `assert(e)`: fails (error) when `e == 0`.
    Assert(Expr),
    /// `assume(e)`: executions with `e == 0` stop.
    Assume(Expr),
    /// `abort()`, `exit(...)`: the execution stops (no error).
    Stop,
    /// A block.
    Block(Vec<Stmt>),
    /// `goto L;`: a jump to the label `L` of the same procedure (sema checked it exists).
    Goto(String),
}

/// A resolved program.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Program {
    /// All scalars.
    pub vars: IndexVec<VarId, VarInfo>,
    /// All arrays.
    pub arrays: IndexVec<ArrayId, ArrayInfo>,
    /// All procedures with bodies.
    pub procs: IndexVec<ProcId, ProcInfo>,
    /// Global scalars in declaration order, with their initialisers.
    pub globals: Vec<(VarId, Option<Expr>)>,
    /// Global arrays with their initialisers.
    pub global_arrays: Vec<(ArrayId, Option<Vec<Expr>>)>,
    /// The return-value global.
    pub ret: VarId,
    /// `main`.
    pub main: ProcId,
    /// The declared C type of each scalar declared with an integer type (not temporaries).
    /// Today's semantics only use its range ([`VarInfo::range`]); C's integer semantics
    /// will use the type.
    pub var_types: BTreeMap<VarId, IntTy>,
    /// The declared C element type of each array.
    pub array_types: BTreeMap<ArrayId, IntTy>,
    /// What a signed overflow ([`Expr::Overflow`]) does.
    pub signed_overflow: SignedOverflow,
}

/// Constant folding with the values of some variables known (`known(v)`): variables with
/// a known value become constants, operations on constants are computed (C semantics for
/// `/` and `%`), and `(c ? e1 : e2)`, `&&`, `||` with a constant condition keep only the
/// branch that is evaluated. The result denotes the same set of values in every state
/// where the known values hold; `u` is never touched.
pub fn fold(e: Expr, known: &dyn Fn(VarId) -> Option<BigInt>) -> Expr {
    use num_traits::{One, Zero};
    fn c(e: &Expr) -> Option<&BigInt> {
        match e {
            Expr::Const(n) => Some(n),
            _ => None,
        }
    }
    fn bool01(b: bool) -> Expr {
        Expr::Const(if b { BigInt::one() } else { BigInt::zero() })
    }
    e.map_bottom_up(&mut |x| match x {
        Expr::Var(v) => match known(v) {
            Some(n) => Expr::Const(n),
            None => Expr::Var(v),
        },
        Expr::Add(a, b) => match (c(&a), c(&b)) {
            (Some(x), Some(y)) => Expr::Const(x + y),
            _ => Expr::Add(a, b),
        },
        Expr::Sub(a, b) => match (c(&a), c(&b)) {
            (Some(x), Some(y)) => Expr::Const(x - y),
            _ => Expr::Sub(a, b),
        },
        Expr::Scale(k, a) => match c(&a) {
            Some(x) => Expr::Const(&k * x),
            None => Expr::Scale(k, a),
        },
        Expr::Div(a, k) => match c(&a) {
            Some(x) => Expr::Const(x / &k),
            None => Expr::Div(a, k),
        },
        Expr::Mod(a, k) => match c(&a) {
            Some(x) => Expr::Const(x % &k),
            None => Expr::Mod(a, k),
        },
        Expr::Cmp(op, a, b) => match (c(&a), c(&b)) {
            (Some(x), Some(y)) => bool01(match op {
                CmpOp::Lt => x < y,
                CmpOp::Le => x <= y,
                CmpOp::Gt => x > y,
                CmpOp::Ge => x >= y,
                CmpOp::Eq => x == y,
                CmpOp::Ne => x != y,
            }),
            _ => Expr::Cmp(op, a, b),
        },
        Expr::Not(a) => match c(&a) {
            Some(x) => bool01(x.is_zero()),
            None => Expr::Not(a),
        },
        Expr::And(a, b) => match (c(&a), c(&b)) {
            (Some(x), _) if x.is_zero() => bool01(false),
            (Some(x), Some(y)) => bool01(!x.is_zero() && !y.is_zero()),
            _ => Expr::And(a, b),
        },
        Expr::Or(a, b) => match (c(&a), c(&b)) {
            (Some(x), _) if !x.is_zero() => bool01(true),
            (Some(x), Some(y)) => bool01(!x.is_zero() || !y.is_zero()),
            _ => Expr::Or(a, b),
        },
        Expr::Cond(k, a, b) => match c(&k) {
            Some(x) if x.is_zero() => *b,
            Some(_) => *a,
            None => Expr::Cond(k, a, b),
        },
        Expr::Wrap(w, a) => match c(&a) {
            Some(x) => Expr::Const(w.wrap(x)),
            None => Expr::Wrap(w, a),
        },
        // A constant out of range keeps its overflow (an error, or the end of the
        // execution).
        Expr::Overflow(w, a) => match c(&a) {
            Some(x) if w.contains(x) => Expr::Const(x.clone()),
            _ => Expr::Overflow(w, a),
        },
        other => other,
    })
}

#[cfg(test)]
mod width_tests {
    use super::Width;
    use num_bigint::BigInt;
    use num_integer::Integer;

    /// The i128 fast path of `wrap` and `contains` agrees with the BigInt definition.
    #[test]
    fn fast_wrap_agrees_with_the_definition() {
        let mut vals: Vec<BigInt> = Vec::new();
        for e in [
            0u32, 7, 8, 15, 16, 31, 32, 63, 64, 65, 99, 100, 101, 127, 130,
        ] {
            for d in [-2i64, -1, 0, 1, 2] {
                let p = BigInt::from(1) << e;
                vals.push(&p + d);
                vals.push(-&p + d);
            }
        }
        for bits in [1u32, 8, 16, 32, 64, 128] {
            for signed in [false, true] {
                let w = Width { bits, signed };
                for v in &vals {
                    let lo = w.lo();
                    let want = &lo + (v - &lo).mod_floor(&w.modulus());
                    assert_eq!(w.wrap(v), want, "{w} {v}");
                    assert_eq!(w.contains(v), w.lo() <= *v && *v <= w.hi(), "{w} {v}");
                }
            }
        }
    }
}
