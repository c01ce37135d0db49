//! The tabulation engine on its own, with a mock domain: explicit states over a small
//! range of integers (`u` ranges over -3..=3). Checks verdicts on small programs with
//! recursion, call-by-value, restored locals and globals, and that error traces are valid
//! interprocedural paths.

use crate::cfg::{Cfg, NodeKind, ERROR_NODE};
use crate::diag::SourceFile;
use crate::domain::RelDomain;
use crate::engine::{tabulate, Budget, StopReason};
use crate::ids::{NodeId, ProcId, VarId};
use crate::sema::Expr;
use num_traits::ToPrimitive;
use std::collections::BTreeMap;

const RANGE: std::ops::RangeInclusive<i64> = -3..=3;

/// A fact: values at the procedure's entry (globals and formals) and current values.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
struct State {
    entry: BTreeMap<VarId, i64>,
    cur: BTreeMap<VarId, i64>,
}

struct Explicit;

fn eval(e: &Expr, s: &BTreeMap<VarId, i64>) -> Vec<i64> {
    let two = |a: &Expr, b: &Expr, f: &dyn Fn(i64, i64) -> i64| -> Vec<i64> {
        let mut out = Vec::new();
        for x in eval(a, s) {
            for y in eval(b, s) {
                out.push(f(x, y));
            }
        }
        out
    };
    let mut v = match e {
        Expr::Const(n) => vec![n.to_i64().expect("small constant")],
        Expr::Var(x) => match s.get(x) {
            Some(v) => vec![*v],
            None => RANGE.collect(),
        },
        Expr::Undef => RANGE.collect(),
        Expr::Add(a, b) => two(a, b, &|x, y| x + y),
        Expr::Sub(a, b) => two(a, b, &|x, y| x - y),
        Expr::Scale(c, a) => {
            let c = c.to_i64().expect("small");
            eval(a, s).into_iter().map(|x| c * x).collect()
        }
        Expr::Div(a, c) => {
            let c = c.to_i64().expect("small");
            eval(a, s).into_iter().map(|x| x / c).collect()
        }
        Expr::Mod(a, c) => {
            let c = c.to_i64().expect("small");
            eval(a, s).into_iter().map(|x| x % c).collect()
        }
        Expr::Cmp(op, a, b) => two(a, b, &|x, y| op.holds(&x.into(), &y.into()) as i64),
        Expr::Not(a) => eval(a, s).into_iter().map(|x| (x == 0) as i64).collect(),
        Expr::And(a, b) => two(a, b, &|x, y| (x != 0 && y != 0) as i64),
        Expr::Or(a, b) => two(a, b, &|x, y| (x != 0 || y != 0) as i64),
        Expr::Cond(c, a, b) => {
            let mut out = Vec::new();
            for x in eval(c, s) {
                out.extend(if x != 0 { eval(a, s) } else { eval(b, s) });
            }
            out
        }
        other => panic!("mock domain: unexpected {other:?}"),
    };
    v.sort();
    v.dedup();
    v
}

fn entry_vars(cfg: &Cfg, p: ProcId) -> Vec<VarId> {
    let mut v = cfg.globals.clone();
    v.extend(&cfg.procs[p].formals);
    v
}

impl RelDomain for Explicit {
    type Fact = State;

    fn initial(&mut self, _cfg: &Cfg) -> State {
        State {
            entry: BTreeMap::new(),
            cur: BTreeMap::new(),
        }
    }

    fn post(&mut self, cfg: &Cfg, f: &State, n: NodeId, i: usize) -> Vec<State> {
        match &cfg.nodes[n].kind {
            NodeKind::Skip { .. } => vec![f.clone()],
            NodeKind::Assign { lhs, rhs, .. } => {
                let mut out = vec![f.clone()];
                for (y, e) in lhs.iter().zip(rhs) {
                    let vals = eval(e, &f.cur);
                    out = out
                        .into_iter()
                        .flat_map(|s| {
                            vals.iter().map(move |v| {
                                let mut s2 = s.clone();
                                s2.cur.insert(*y, *v);
                                s2
                            })
                        })
                        .collect();
                }
                out
            }
            NodeKind::Branch { cond, .. } | NodeKind::Assume { cond, .. } => {
                let want_true = i == 0;
                let vals = eval(cond, &f.cur);
                if vals.iter().any(|v| (*v != 0) == want_true) {
                    vec![f.clone()]
                } else {
                    vec![]
                }
            }
            k => panic!("mock domain: unexpected node {k:?}"),
        }
    }

    fn call_entry(&mut self, cfg: &Cfg, f: &State, call: NodeId) -> Vec<State> {
        let NodeKind::Call { proc, args, .. } = &cfg.nodes[call].kind else {
            panic!("not a call")
        };
        let mut base = BTreeMap::new();
        for g in &cfg.globals {
            if let Some(v) = f.cur.get(g) {
                base.insert(*g, *v);
            }
        }
        let mut states = vec![base];
        for (x, e) in cfg.procs[*proc].formals.iter().zip(args) {
            let vals = eval(e, &f.cur);
            states = states
                .into_iter()
                .flat_map(|s| {
                    vals.iter().map(move |v| {
                        let mut s2 = s.clone();
                        s2.insert(*x, *v);
                        s2
                    })
                })
                .collect();
        }
        states
            .into_iter()
            .map(|s| State {
                entry: s.clone(),
                cur: s,
            })
            .collect()
    }

    fn summarize(&mut self, cfg: &Cfg, f: &State, _p: ProcId) -> Vec<State> {
        let cur = cfg
            .globals
            .iter()
            .filter_map(|g| f.cur.get(g).map(|v| (*g, *v)))
            .collect();
        vec![State {
            entry: f.entry.clone(),
            cur,
        }]
    }

    fn apply_summary(&mut self, cfg: &Cfg, f: &State, s: &State, call: NodeId) -> Vec<State> {
        let NodeKind::Call { proc, .. } = &cfg.nodes[call].kind else {
            panic!("not a call")
        };
        for entry in self.call_entry(cfg, f, call) {
            let want: BTreeMap<VarId, i64> = entry_vars(cfg, *proc)
                .iter()
                .filter_map(|v| entry.entry.get(v).map(|x| (*v, *x)))
                .collect();
            if want == s.entry {
                let mut cur = f.cur.clone();
                for g in &cfg.globals {
                    match s.cur.get(g) {
                        Some(v) => cur.insert(*g, *v),
                        None => cur.remove(g),
                    };
                }
                return vec![State {
                    entry: f.entry.clone(),
                    cur,
                }];
            }
        }
        vec![]
    }

    fn forget(&mut self, f: &State, vars: &[VarId]) -> State {
        let mut g = f.clone();
        for v in vars {
            g.cur.remove(v);
        }
        g
    }

    fn entailed(&mut self, f: &State, gs: &[&State]) -> bool {
        gs.contains(&f)
    }
}

fn cfg_of(src: &str) -> Cfg {
    match crate::frontend::load(SourceFile::new("t.lp", src)) {
        Ok(l) => l.cfg,
        Err(e) => panic!("{}", e.render(false)),
    }
}

/// Whether `trace` is a valid interprocedural path from main's entry whose last node has
/// the error node as a successor.
fn valid_trace(cfg: &Cfg, trace: &[NodeId]) -> bool {
    if trace.first() != Some(&cfg.procs[cfg.main].entry) {
        return false;
    }
    let mut stack: Vec<NodeId> = Vec::new();
    for w in trace.windows(2) {
        let (a, b) = (w[0], w[1]);
        match &cfg.nodes[a].kind {
            NodeKind::Call { ret_point, .. } => {
                if !cfg.succs(a).contains(&b) {
                    return false;
                }
                stack.push(*ret_point);
            }
            NodeKind::Exit => {
                if stack.pop() != Some(b) {
                    return false;
                }
            }
            _ => {
                if !cfg.succs(a).contains(&b) {
                    return false;
                }
            }
        }
    }
    trace
        .last()
        .is_some_and(|l| cfg.succs(*l).contains(&ERROR_NODE))
}

fn verdict(src: &str) -> (bool, usize) {
    let cfg = cfg_of(src);
    let t = tabulate(&cfg, &mut Explicit, Budget::default());
    match t.stop {
        StopReason::ErrorReached(id) => {
            let tr = t.trace(id);
            assert!(
                valid_trace(&cfg, &tr),
                "invalid trace {tr:?}\n{}",
                crate::cfg::to_text(&cfg)
            );
            (true, tr.len())
        }
        StopReason::Converged => (false, 0),
        other => panic!("unexpected stop {other:?}"),
    }
}

#[test]
fn straight_line_and_branches() {
    assert!(verdict("void main() { int x; x = 1; if (x == 1) { ERROR: ; } }").0);
    assert!(!verdict("void main() { int x; x = 1; if (x == 2) { ERROR: ; } }").0);
    assert!(verdict("void main() { int x; x = u; assume(x > 2); if (x == 3) { ERROR: ; } }").0);
    assert!(!verdict("void main() { int x; x = u; assume(x > 3); assert(x < 0); }").0);
}

#[test]
fn loops_converge() {
    assert!(
        !verdict("void main() { int i; i = 0; while (i < 3) { i = i + 1; } assert(i == 3); }").0
    );
    assert!(
        verdict("void main() { int i; i = 0; while (i < 3) { i = i + 1; } assert(i == 2); }").0
    );
}

#[test]
fn call_by_value_and_restored_locals() {
    let src = "int g; void f(int x) { int y; y = 3; x = x + 1; g = x; }
               void main() { int x, y; x = 1; y = 2; f(x); assert(x == 1 && y == 2 && g == 2); }";
    assert!(!verdict(src).0);
    let bad = "int g; void f(int x) { x = x + 1; g = x; } void main() { int x; x = 1; f(x); assert(g == 1); }";
    assert!(verdict(bad).0);
}

#[test]
fn recursion_with_summaries() {
    let src = "int sum(int n) { int r; if (n <= 0) { return 0; } r = sum(n - 1); return r + n; }
               void main() { int s; s = sum(2); assert(s == 3); }";
    assert!(!verdict(src).0);
    let bad = "int sum(int n) { int r; if (n <= 0) { return 0; } r = sum(n - 1); return r + n; }
               void main() { int s; s = sum(2); assert(s != 3); }";
    let (reached, len) = verdict(bad);
    assert!(reached && len > 10, "trace length {len}");
}

#[test]
fn mutual_recursion_and_error_inside_a_callee() {
    let src = "int even(int n) { int r; if (n == 0) { return 1; } r = odd(n - 1); return r; }
               int odd(int n) { int r; if (n == 0) { return 0; } r = even(n - 1); return r; }
               void main() { int e; e = even(3); assert(e == 0); }";
    assert!(!verdict(src).0);
    let inner =
        "void check(int x) { if (x == 2) { ERROR: ; } } void main() { check(1); check(2); }";
    assert!(verdict(inner).0);
    let never =
        "void check(int x) { if (x == 2) { ERROR: ; } } void main() { check(1); check(3); }";
    assert!(!verdict(never).0);
}

#[test]
fn budgets_stop_the_engine() {
    let cfg = cfg_of("void main() { int i; i = 0; while (i < 3) { i = i + 1; } }");
    let t = tabulate(
        &cfg,
        &mut Explicit,
        Budget {
            max_steps: 3,
            ..Budget::default()
        },
    );
    assert_eq!(t.stop, StopReason::StepLimit);
}

#[test]
fn ret_is_dead_at_entry_only_where_every_path_assigns_it_first() {
    use crate::engine::ret_dead_at_entry;
    let cfg = cfg_of(
        "int f(int n) { if (n <= 0) return 0; return f(n - 1) + 1; }
         int g(int n) { if (n > 0) return 1; }
         void v(int n) { n = n + 1; }
         int w(int n) { v(n); return n; }
         void main() { int x; x = f(3); x = g(x); v(x); x = w(x); }",
    );
    let dead = |name: &str| {
        let p = cfg
            .procs
            .iter()
            .position(|p| p.name == name)
            .expect("procedure");
        ret_dead_at_entry(&cfg)[p]
    };
    // f assigns $ret on every path (after its recursive call, whose result it reads).
    assert!(dead("f"));
    // Falling off the end of g assigns an arbitrary value (the front end's `$ret = u`).
    assert!(dead("g"));
    // v never assigns it: its entry value reaches the exit.
    assert!(!dead("v"));
    // w calls v, which passes $ret through to its exit, where some caller may read it:
    // context-insensitively that makes it live at v's entry, hence at w's (conservative).
    assert!(!dead("w"));
    assert!(dead("main"));
}
