//! The worked examples of the paper's §4 ("transfer relations") through the public API of
//! the DLC domain, and one test per transfer kind of [`DlcDomain`] on small programs:
//! assignment, assume, branch (both directions), division/modulo by a constant (C
//! truncation), and a call/summary round trip.
//!
//! Dimensions: `entry_dim(v)` is the value of `v` at the procedure's entry (the paper's
//! `x`), `cur_dim(v)` its current value (the paper's `x'`).

use crate::cfg::{Cfg, NodeKind};
use crate::diag::SourceFile;
use crate::domain::encode::{flatten, guard, Fresh};
use crate::domain::{cur_dim, entry_dim, Dlc, DlcDomain, Entailment, Fact, Lattice};
use crate::ids::{NodeId, VarId};
use crate::linear::{Conj, Constraint, Dim, LinExpr, Q};
use crate::sema::Expr;

/// The domain's transfer functions over plain conjunctions (the paper's examples have no
/// congruences: the component is off).
trait Plain {
    fn post(&mut self, cfg: &Cfg, f: &Conj, n: NodeId, i: usize) -> Vec<Conj>;
    fn call_entry(&mut self, cfg: &Cfg, f: &Conj, call: NodeId) -> Vec<Conj>;
    fn summarize(&mut self, cfg: &Cfg, f: &Conj, p: crate::ids::ProcId) -> Vec<Conj>;
    fn apply_summary(&mut self, cfg: &Cfg, f: &Conj, s: &Conj, call: NodeId) -> Vec<Conj>;
}

fn conjs(fs: Vec<Fact>) -> Vec<Conj> {
    fs.into_iter()
        .map(|f| {
            assert!(f.congs.is_empty(), "congruences while the component is off");
            f.conj
        })
        .collect()
}

impl Plain for DlcDomain {
    fn post(&mut self, cfg: &Cfg, f: &Conj, n: NodeId, i: usize) -> Vec<Conj> {
        conjs(crate::domain::RelDomain::post(
            self,
            cfg,
            &f.clone().into(),
            n,
            i,
        ))
    }
    fn call_entry(&mut self, cfg: &Cfg, f: &Conj, call: NodeId) -> Vec<Conj> {
        conjs(crate::domain::RelDomain::call_entry(
            self,
            cfg,
            &f.clone().into(),
            call,
        ))
    }
    fn summarize(&mut self, cfg: &Cfg, f: &Conj, p: crate::ids::ProcId) -> Vec<Conj> {
        conjs(crate::domain::RelDomain::summarize(
            self,
            cfg,
            &f.clone().into(),
            p,
        ))
    }
    fn apply_summary(&mut self, cfg: &Cfg, f: &Conj, s: &Conj, call: NodeId) -> Vec<Conj> {
        let (f, s): (Fact, Fact) = (f.clone().into(), s.clone().into());
        conjs(crate::domain::RelDomain::apply_summary(
            self, cfg, &f, &s, call,
        ))
    }
}

// ---------------------------------------------------------------- helpers

fn load(src: &str) -> Cfg {
    match crate::frontend::load(SourceFile::new("example.lp", src)) {
        Ok(l) => l.cfg,
        Err(e) => panic!("{}", e.render(false)),
    }
}

/// The unique variable called `name`.
fn var(cfg: &Cfg, name: &str) -> VarId {
    let found: Vec<VarId> = cfg
        .vars
        .iter_enumerated()
        .filter(|(_, v)| v.name == name)
        .map(|(id, _)| id)
        .collect();
    assert_eq!(found.len(), 1, "variable {name}: {found:?}");
    found[0]
}

/// The unique node satisfying `pred`.
fn node(cfg: &Cfg, what: &str, pred: impl Fn(&NodeKind) -> bool) -> NodeId {
    let found: Vec<NodeId> = cfg
        .nodes
        .iter_enumerated()
        .filter(|(_, n)| pred(&n.kind))
        .map(|(id, _)| id)
        .collect();
    assert_eq!(found.len(), 1, "{what} nodes: {found:?}");
    found[0]
}

fn assign_to(cfg: &Cfg, v: VarId) -> NodeId {
    // Declarations of locals are assignments of `u`; skip them.
    node(cfg, "assignment", |k| {
        matches!(k, NodeKind::Assign { lhs, rhs, .. }
            if lhs.contains(&v) && !rhs.iter().all(|r| matches!(r, Expr::Undef)))
    })
}

/// Entry value `v` (the paper's unprimed variable).
fn e(v: VarId) -> LinExpr {
    LinExpr::var(entry_dim(v))
}

/// Current value `v'`.
fn c(v: VarId) -> LinExpr {
    LinExpr::var(cur_dim(v))
}

fn k(n: i64) -> LinExpr {
    LinExpr::int(n)
}

fn q(n: i64) -> Q {
    Q::from_integer(n.into())
}

fn conj(cs: &[Constraint]) -> Conj {
    Conj::from_constraints(cs)
}

/// `v' = v` for each of `vars`: the relation at a procedure's entry.
fn identity(vars: &[VarId]) -> Conj {
    let cs: Vec<Constraint> = vars
        .iter()
        .map(|v| Constraint::eq(&c(*v), &e(*v)))
        .collect();
    conj(&cs)
}

/// Mutual entailment of two disjunctions of facts.
fn equivalent(got: &[Conj], want: &[Conj]) -> bool {
    let mut ctx = Entailment::new(crate::smt::cvc5_solvers(), crate::limits::Deadline::none());
    let g = Dlc::from_conjs(got.iter().cloned());
    let w = Dlc::from_conjs(want.iter().cloned());
    g.leq(&w, &mut ctx) && w.leq(&g, &mut ctx)
}

#[track_caller]
fn assert_equiv(got: &[Conj], want: &[Conj]) {
    let show = |cs: &[Conj]| {
        cs.iter()
            .map(|c| format!("[{c}]"))
            .collect::<Vec<_>>()
            .join(" ∨ ")
    };
    assert!(
        equivalent(got, want),
        "got      {}\nexpected {}",
        show(got),
        show(want)
    );
}

// ---------------------------------------------------------------- §4 example (a)

const PARALLEL: &str = "
void main() {
  int x, y1, y2;
  y1, y2 = ((y1 > 0) ? y1 + 1 : u), y2 + 1;
}
";

/// `y1, y2 = ((y1 > 0) ? y1 + 1 : u), y2 + 1` with InScope = {x, y1, y2}: from
/// `Δ_i = (x' = x ∧ y1' = y1 ∧ y2' = y2)` the new path edges are
/// `∃x'y1'y2'. Δ_i ⊓ ((y1'' = y1' + 1 ∧ y2'' = y2' + 1 ∧ y1' > 0 ∧ x'' = x') ∨
/// (y2'' = y2' + 1 ∧ ¬y1' > 0 ∧ x'' = x'))`, i.e. (renaming `''` to `'`)
/// `(y1' = y1 + 1 ∧ y2' = y2 + 1 ∧ y1 > 0 ∧ x' = x) ∨ (y2' = y2 + 1 ∧ y1 <= 0 ∧ x' = x)`.
#[test]
fn paper_parallel_assignment() {
    let cfg = load(PARALLEL);
    let (x, y1, y2) = (var(&cfg, "x"), var(&cfg, "y1"), var(&cfg, "y2"));
    let n = assign_to(&cfg, y1);
    let NodeKind::Assign { lhs, rhs, .. } = &cfg.nodes[n].kind else {
        unreachable!()
    };
    assert_eq!(lhs, &vec![y1, y2]);
    assert_eq!(rhs.len(), 2);

    let mut dom = DlcDomain::new(crate::smt::cvc5_solvers(), crate::limits::Deadline::none());
    let delta = identity(&[x, y1, y2]);
    let got = dom.post(&cfg, &delta, n, 0);
    let want = [
        conj(&[
            Constraint::eq(&c(y1), &(&e(y1) + &k(1))),
            Constraint::eq(&c(y2), &(&e(y2) + &k(1))),
            Constraint::gt(&e(y1), &k(0)),
            Constraint::eq(&c(x), &e(x)),
        ]),
        conj(&[
            Constraint::eq(&c(y2), &(&e(y2) + &k(1))),
            Constraint::le(&e(y1), &k(0)),
            Constraint::eq(&c(x), &e(x)),
        ]),
    ];
    assert_equiv(&got, &want);
    // One fact per flattening of the right-hand side (the two cases of the conditional).
    assert_eq!(got.len(), 2, "{got:?}");
    // The fresh `u` and the old current values are gone.
    let top = 2 * cfg.vars.len() as u32;
    for f in &got {
        assert!(f.dims().iter().all(|d| d.0 < top), "fresh dim left in {f}");
    }

    // From `true`, every current value after the assignment is possible: the two facts
    // are `y1' >= 2` and `true`.
    let from_top = dom.post(&cfg, &Conj::top(), n, 0);
    assert_equiv(&from_top, &[Conj::top()]);
}

/// The flattening `e → (B, ne)` of the conditional: two cases, `{y1 > 0} ↦ y1 + 1` and
/// `{¬(y1 > 0)} ↦ u`.
#[test]
fn paper_parallel_assignment_flatten() {
    let cfg = load(PARALLEL);
    let y1 = var(&cfg, "y1");
    let n = assign_to(&cfg, y1);
    let NodeKind::Assign { rhs, .. } = &cfg.nodes[n].kind else {
        unreachable!()
    };
    let base = 2 * cfg.vars.len() as u32;
    let mut fresh = Fresh::new(base);
    let cases = flatten(&rhs[0], &cur_dim, &mut fresh);
    assert_eq!(cases.len(), 2);
    let u = LinExpr::var(Dim(base));
    let (pos, neg) = (&cases[0], &cases[1]);
    assert_eq!(pos.1, &c(y1) + &k(1));
    assert_equiv(&[conj(&pos.0)], &[conj(&[Constraint::gt(&c(y1), &k(0))])]);
    assert_eq!(neg.1, u);
    assert_equiv(&[conj(&neg.0)], &[conj(&[Constraint::le(&c(y1), &k(0))])]);
    // The second expression has no conditional: one case, no guard.
    let cases = flatten(&rhs[1], &cur_dim, &mut fresh);
    assert_eq!(cases.len(), 1);
    assert!(cases[0].0.is_empty());
}

// ---------------------------------------------------------------- §4 example (b)

const GUARD: &str = "
void main() {
  int x, y;
  if (y > 0 && y == 2 * u) {
    x = 1;
  } else {
    x = 2;
  }
}
";

fn branch(cfg: &Cfg) -> NodeId {
    node(cfg, "branch", |k| matches!(k, NodeKind::Branch { .. }))
}

/// `if (y > 0 && y == 2 * u)` with InScope = {x, y}: `β+(b') = ∃u1. (y' > 0 ∧ y' = 2u1)`,
/// `β−(b') = ∃u1. (y' > 0 ∧ ¬y' = 2u1) ∨ ¬(y' > 0)`.
#[test]
fn paper_guard_beta() {
    let cfg = load(GUARD);
    let y = var(&cfg, "y");
    let n = branch(&cfg);
    let NodeKind::Branch { cond, .. } = &cfg.nodes[n].kind else {
        unreachable!()
    };
    let base = 2 * cfg.vars.len() as u32;

    // β+: one disjunct `y' > 0 ∧ y' = 2u` (u fresh).
    let mut fresh = Fresh::new(base);
    let plus = guard(cond, true, &cur_dim, &mut fresh);
    assert_eq!(plus.len(), 1, "{plus:?}");
    let u = LinExpr::var(Dim(base));
    assert_equiv(
        &[conj(&plus[0])],
        &[conj(&[
            Constraint::gt(&c(y), &k(0)),
            Constraint::eq(&c(y), &(&u * &q(2))),
        ])],
    );

    // β−: `y' <= 0` ∨ `y' < 2u` ∨ `y' > 2u` (`¬(a && b)` = `¬a ∨ ¬b`, `!=` split).
    let mut fresh = Fresh::new(base);
    let minus = guard(cond, false, &cur_dim, &mut fresh);
    let u = LinExpr::var(Dim(base));
    let minus: Vec<Conj> = minus.iter().map(|d| conj(d)).collect();
    assert_equiv(
        &minus,
        &[
            conj(&[Constraint::le(&c(y), &k(0))]),
            conj(&[Constraint::lt(&c(y), &(&u * &q(2)))]),
            conj(&[Constraint::gt(&c(y), &(&u * &q(2)))]),
        ],
    );
}

/// The new path edges of both successors, after eliminating `u1`:
/// then: `∃u1. Δ_i ⊓ (y' > 0 ∧ y' = 2u1 ∧ x' = x)`; over the integers `∃u1. y' = 2u1 ∧ y' > 0`
/// is "y' even and positive", whose best linear approximation is `y' >= 2` (the domain's
/// integer presolve finds it; the paper's rational elimination would give `y' > 0`).
/// else: `∃u1. Δ_i ⊓ ((y' > 0 ∧ ¬y' = 2u1 ∧ x' = x) ∨ (¬y' > 0 ∧ x' = x))`, which is `Δ_i`
/// itself since `u1` is arbitrary.
#[test]
fn paper_guard_path_edges() {
    let cfg = load(GUARD);
    let (x, y) = (var(&cfg, "x"), var(&cfg, "y"));
    let n = branch(&cfg);
    let mut dom = DlcDomain::new(crate::smt::cvc5_solvers(), crate::limits::Deadline::none());
    let delta = identity(&[x, y]);

    let then = dom.post(&cfg, &delta, n, 0);
    let mut want = delta.clone();
    want.add(&Constraint::ge(&c(y), &k(2)));
    assert_equiv(&then, &[want]);
    // It is inside the paper's rational result and keeps every even positive y.
    let mut paper = delta.clone();
    paper.add(&Constraint::gt(&c(y), &k(0)));
    assert!(equivalent(&[paper.clone()], &[paper.clone()]));
    let mut ctx = Entailment::new(crate::smt::cvc5_solvers(), crate::limits::Deadline::none());
    assert!(Dlc::from_conjs(then.clone()).leq(&Dlc::from_conjs([paper]), &mut ctx));
    for v in (2..=20).step_by(2) {
        let mut p = delta.clone();
        p.add(&Constraint::eq(&c(y), &k(v)));
        assert!(then.iter().any(|f| !f.and(&p).is_empty()), "y = {v} lost");
    }

    let els = dom.post(&cfg, &delta, n, 1);
    assert_equiv(&els, std::slice::from_ref(&delta));
    // The `y' <= 0` case is one of the facts.
    let mut nonpos = delta.clone();
    nonpos.add(&Constraint::le(&c(y), &k(0)));
    assert!(els.iter().any(|f| f.entails(&nonpos) && nonpos.entails(f)));
}

// ---------------------------------------------------------------- one test per transfer

#[test]
fn transfer_assignment() {
    let cfg = load(
        "
void main() {
  int x, y;
  x = x + 3 * y - 1;
}
",
    );
    let (x, y) = (var(&cfg, "x"), var(&cfg, "y"));
    let n = assign_to(&cfg, x);
    let mut dom = DlcDomain::new(crate::smt::cvc5_solvers(), crate::limits::Deadline::none());
    let got = dom.post(&cfg, &identity(&[x, y]), n, 0);
    let want = conj(&[
        Constraint::eq(&c(x), &(&(&e(x) + &(&e(y) * &q(3))) - &k(1))),
        Constraint::eq(&c(y), &e(y)),
    ]);
    assert_equiv(&got, &[want]);
}

#[test]
fn transfer_assume() {
    let cfg = load(
        "
void main() {
  int x;
  assume(x >= 0 && x < 10);
}
",
    );
    let x = var(&cfg, "x");
    let n = node(&cfg, "assume", |k| matches!(k, NodeKind::Assume { .. }));
    let mut dom = DlcDomain::new(crate::smt::cvc5_solvers(), crate::limits::Deadline::none());
    let got = dom.post(&cfg, &identity(&[x]), n, 0);
    let want = conj(&[
        Constraint::eq(&c(x), &e(x)),
        Constraint::ge(&c(x), &k(0)),
        Constraint::le(&c(x), &k(9)),
    ]);
    assert_equiv(&got, &[want]);
    // An assumption contradicting the fact yields nothing.
    let f = conj(&[Constraint::eq(&c(x), &k(10))]);
    assert!(dom.post(&cfg, &f, n, 0).is_empty());
}

#[test]
fn transfer_branch_both_directions() {
    let cfg = load(
        "
void main() {
  int x, y;
  if (x != 3) {
    y = 1;
  } else {
    y = 2;
  }
}
",
    );
    let (x, y) = (var(&cfg, "x"), var(&cfg, "y"));
    let n = branch(&cfg);
    let mut dom = DlcDomain::new(crate::smt::cvc5_solvers(), crate::limits::Deadline::none());
    let delta = identity(&[x, y]);
    let with = |extra: Constraint| {
        let mut f = delta.clone();
        f.add(&extra);
        f
    };
    let then = dom.post(&cfg, &delta, n, 0);
    assert_equiv(
        &then,
        &[
            with(Constraint::le(&c(x), &k(2))),
            with(Constraint::ge(&c(x), &k(4))),
        ],
    );
    let els = dom.post(&cfg, &delta, n, 1);
    assert_equiv(&els, &[with(Constraint::eq(&c(x), &k(3)))]);
    // From x' = 3 only the else edge is possible.
    let three = with(Constraint::eq(&c(x), &k(3)));
    assert!(dom.post(&cfg, &three, n, 0).is_empty());
    assert_equiv(&dom.post(&cfg, &three, n, 1), std::slice::from_ref(&three));
}

/// A node, its target, and the C operation it computes.
type Case = (NodeId, VarId, fn(i64) -> i64);

/// `/` and `%` by a constant truncate toward zero as in C: −7/2 = −3, −7%2 = −1, and a
/// negative divisor negates the quotient (7 / −2 = −3).
#[test]
fn transfer_division_by_constant() {
    let cfg = load(
        "
void main() {
  int x, d, m, n;
  d = x / 2;
  m = x % 2;
  n = x / -3;
}
",
    );
    let (x, d, m, n) = (
        var(&cfg, "x"),
        var(&cfg, "d"),
        var(&cfg, "m"),
        var(&cfg, "n"),
    );
    let (nd, nm, nn) = (assign_to(&cfg, d), assign_to(&cfg, m), assign_to(&cfg, n));
    let mut dom = DlcDomain::new(crate::smt::cvc5_solvers(), crate::limits::Deadline::none());
    let cases: [Case; 3] = [(nd, d, |v| v / 2), (nm, m, |v| v % 2), (nn, n, |v| v / -3)];
    // Concrete values of x.
    for v in [-8, -7, -3, -1, 0, 1, 3, 7, 8] {
        let f = conj(&[Constraint::eq(&c(x), &k(v))]);
        for (node, target, op) in &cases {
            let got = dom.post(&cfg, &f, *node, 0);
            let want = conj(&[
                Constraint::eq(&c(x), &k(v)),
                Constraint::eq(&c(*target), &k(op(v))),
            ]);
            assert_equiv(&got, &[want]);
        }
    }
    assert_eq!((-7) / 2, -3);
    assert_eq!((-7) % 2, -1);

    // Symbolically, from x' = x: the true result is always possible (soundness). The
    // quotient is pinned for every x (`0 <= x - 2d <= 1` resp. `0 <= 2d - x <= 1` is a
    // relation between x and d); the remainder keeps only its range, since "m ≡ x mod 2"
    // is not a linear constraint once the quotient is eliminated (convex hull).
    let delta = identity(&[x]);
    for (i, (node, target, op)) in cases.iter().enumerate() {
        let is_mod = i == 1;
        let got = dom.post(&cfg, &delta, *node, 0);
        for v in -12..=12 {
            let at = conj(&[Constraint::eq(&c(x), &k(v))]);
            let hits: Vec<Conj> = got
                .iter()
                .map(|f| f.and(&at))
                .filter(|f| !f.is_empty())
                .collect();
            let truth = conj(&[Constraint::eq(&c(*target), &k(op(v)))]);
            assert!(
                hits.iter().any(|h| !h.and(&truth).is_empty()),
                "x = {v}: the true result {} is lost",
                op(v)
            );
            let want = if is_mod {
                let (lo, hi) = if v < 0 { (-1, 0) } else { (0, 1) };
                conj(&[
                    Constraint::ge(&c(*target), &k(lo)),
                    Constraint::le(&c(*target), &k(hi)),
                ])
            } else {
                truth
            };
            for h in &hits {
                assert!(h.entails(&want), "x = {v}: {h} does not give {want}");
            }
        }
    }
}

const CALL: &str = "
int g;

void f(int a) {
  int t;
  t = a + 1;
  g = g + t;
}

void main() {
  int x, y;
  f(x + 2);
}
";

/// Run `facts` through the straight-line body of procedure `p` from its entry to its exit.
fn run_body(dom: &mut DlcDomain, cfg: &Cfg, p: crate::ids::ProcId, facts: Vec<Conj>) -> Vec<Conj> {
    let mut n = cfg.procs[p].entry;
    let mut facts = facts;
    while !matches!(cfg.nodes[n].kind, NodeKind::Exit) {
        facts = facts.iter().flat_map(|f| dom.post(cfg, f, n, 0)).collect();
        let succs = cfg.succs(n);
        assert_eq!(succs.len(), 1, "straight-line body expected");
        n = succs[0];
    }
    facts
}

/// `call_entry` binds the formal to the actual and the globals to theirs (entry = current);
/// `summarize` keeps entry values → exit globals; `apply_summary` restores the caller's
/// locals and takes the globals from the summary.
#[test]
fn transfer_call_summary_round_trip() {
    let cfg = load(CALL);
    let (g, a, t, x, y) = (
        var(&cfg, "g"),
        var(&cfg, "a"),
        var(&cfg, "t"),
        var(&cfg, "x"),
        var(&cfg, "y"),
    );
    let ret = cfg.ret;
    let p = cfg
        .procs
        .iter_enumerated()
        .find(|(_, pr)| pr.name == "f")
        .map(|(id, _)| id)
        .expect("f");
    assert_eq!(cfg.procs[p].formals, vec![a]);
    assert!(cfg.globals.contains(&g));
    let call = node(&cfg, "call", |k| matches!(k, NodeKind::Call { .. }));
    let mut dom = DlcDomain::new(crate::smt::cvc5_solvers(), crate::limits::Deadline::none());

    // Concrete: x = 5, y = 7, g = 3 at the call; the caller's entry values are kept.
    let f0 = conj(&[
        Constraint::eq(&c(x), &k(5)),
        Constraint::eq(&c(y), &k(7)),
        Constraint::eq(&c(g), &k(3)),
        Constraint::eq(&e(x), &k(1)),
    ]);
    let entry = dom.call_entry(&cfg, &f0, call);
    assert_equiv(
        &entry,
        &[conj(&[
            Constraint::eq(&c(a), &k(7)),
            Constraint::eq(&e(a), &k(7)),
            Constraint::eq(&c(g), &k(3)),
            Constraint::eq(&e(g), &k(3)),
            Constraint::eq(&e(ret), &c(ret)),
        ])],
    );
    // Nothing of the caller leaks into the callee's entry facts.
    for f in &entry {
        for v in [x, y] {
            assert!(!f.dims().contains(&cur_dim(v)) && !f.dims().contains(&entry_dim(v)));
        }
    }

    let exit = run_body(&mut dom, &cfg, p, entry);
    assert_equiv(
        &exit,
        &[conj(&[
            Constraint::eq(&c(a), &k(7)),
            Constraint::eq(&e(a), &k(7)),
            Constraint::eq(&c(t), &k(8)),
            Constraint::eq(&c(g), &k(11)),
            Constraint::eq(&e(g), &k(3)),
            Constraint::eq(&e(ret), &c(ret)),
        ])],
    );
    let sums: Vec<Conj> = exit
        .iter()
        .flat_map(|f| dom.summarize(&cfg, f, p))
        .collect();
    assert_equiv(
        &sums,
        &[conj(&[
            Constraint::eq(&e(a), &k(7)),
            Constraint::eq(&c(g), &k(11)),
            Constraint::eq(&e(g), &k(3)),
            Constraint::eq(&e(ret), &c(ret)),
        ])],
    );
    for s in &sums {
        assert!(!s.dims().contains(&cur_dim(a)) && !s.dims().contains(&cur_dim(t)));
    }
    let back: Vec<Conj> = sums
        .iter()
        .flat_map(|s| dom.apply_summary(&cfg, &f0, s, call))
        .collect();
    assert_equiv(
        &back,
        &[conj(&[
            Constraint::eq(&c(x), &k(5)),
            Constraint::eq(&c(y), &k(7)),
            Constraint::eq(&c(g), &k(11)),
            Constraint::eq(&e(x), &k(1)),
        ])],
    );
}

/// The same round trip with symbolic values: from `x' = x ∧ y' = y ∧ g' = g + 1` at the
/// call of `f(x + 2)`, the return point has `g' = g + 1 + (x + 2) + 1` and the caller's
/// locals unchanged.
#[test]
fn transfer_call_summary_symbolic() {
    let cfg = load(CALL);
    let (g, x, y) = (var(&cfg, "g"), var(&cfg, "x"), var(&cfg, "y"));
    let ret = cfg.ret;
    let p = cfg
        .procs
        .iter_enumerated()
        .find(|(_, pr)| pr.name == "f")
        .map(|(id, _)| id)
        .expect("f");
    let call = node(&cfg, "call", |k| matches!(k, NodeKind::Call { .. }));
    let mut dom = DlcDomain::new(crate::smt::cvc5_solvers(), crate::limits::Deadline::none());

    let mut f0 = identity(&[x, y, ret]);
    f0.add(&Constraint::eq(&c(g), &(&e(g) + &k(1))));
    let entry = dom.call_entry(&cfg, &f0, call);
    assert!(!entry.is_empty());
    let exit = run_body(&mut dom, &cfg, p, entry);
    let sums: Vec<Conj> = exit
        .iter()
        .flat_map(|f| dom.summarize(&cfg, f, p))
        .collect();
    assert!(!sums.is_empty());
    let back: Vec<Conj> = sums
        .iter()
        .flat_map(|s| dom.apply_summary(&cfg, &f0, s, call))
        .collect();
    let mut want = identity(&[x, y, ret]);
    want.add(&Constraint::eq(&c(g), &(&(&e(g) + &e(x)) + &k(4))));
    assert_equiv(&back, &[want]);
}
