//! Trace checking: paths recorded by the concrete interpreter on unsafe programs are
//! feasible and replay exactly; hand-built paths that no execution follows are
//! infeasible with a meaningful core; the refinement query finds the cells of Fig. 1.

use crate::cfg::{Cfg, NodeKind, ERROR_NODE};
use crate::diag::SourceFile;
use crate::frontend::{load, load_path};
use crate::ids::NodeId;
use crate::interp::{run, Limits, ListOracle, Outcome, RandomOracle};
use crate::limits::Deadline;
use crate::sema::Expr;
use crate::smt::{Cvc5Factory, SolverFactory};
use crate::trace::{
    self, check, check_with, fixed_read_indices, replay, validate, Feasibility, Trace, TraceError,
    Witness,
};
use num_bigint::BigInt;
use std::time::Duration;

fn cfg_of(src: &str) -> Cfg {
    match load(SourceFile::new("test.lp", src)) {
        Ok(l) => l.cfg,
        Err(e) => panic!("cannot load:\n{}\n{src}", e.render(false)),
    }
}

fn cfg_file(name: &str) -> Cfg {
    let p = crate::testutil::lp_dir().join(name);
    match load_path(&p) {
        Ok(l) => l.cfg,
        Err(e) => panic!("cannot load {name}:\n{}", e.render(false)),
    }
}

fn small_limits() -> Limits {
    Limits {
        max_steps: 20_000,
        max_depth: 200,
        until: None,
    }
}

/// The longest random error trace whose feasibility is checked.
const MAX_RECORDED_STEPS: usize = 1500;

/// The path of the first random run (seeds 0..n) that reaches the error.
fn random_error_trace(cfg: &Cfg, seeds: u64) -> Option<Trace> {
    (0..seeds).find_map(|seed| {
        let r = run(cfg, &mut RandomOracle::new(seed), small_limits(), true);
        matches!(r.outcome, Outcome::Error { .. }).then_some(Trace { path: r.path })
    })
}

/// The path of a run with the given oracle values, which must reach the error.
fn list_error_trace(cfg: &Cfg, values: &[i64]) -> Trace {
    let vals = values.iter().map(|v| BigInt::from(*v)).collect();
    let r = run(cfg, &mut ListOracle::new(vals), small_limits(), true);
    assert!(
        matches!(r.outcome, Outcome::Error { .. }),
        "run with {values:?} ends with {:?}",
        r.outcome
    );
    Trace { path: r.path }
}

/// The path from main's entry that takes the given branch directions (`true` = then) and
/// stops at the first transition into the error node.
pub(super) fn walk(cfg: &Cfg, choices: &[bool]) -> Trace {
    let mut n = cfg.procs[cfg.main].entry;
    let mut path = Vec::new();
    let mut rets: Vec<NodeId> = Vec::new();
    let mut c = choices.iter();
    loop {
        path.push(n);
        assert!(path.len() < 10_000, "walk does not reach the error");
        let next = match &cfg.nodes[n].kind {
            NodeKind::Branch { then, els, .. } => {
                let b = c.next().unwrap_or_else(|| panic!("out of choices at {n}"));
                if *b {
                    *then
                } else {
                    *els
                }
            }
            NodeKind::Call {
                proc, ret_point, ..
            } => {
                rets.push(*ret_point);
                cfg.procs[*proc].entry
            }
            NodeKind::Exit => rets.pop().expect("walk leaves main"),
            NodeKind::Skip { next }
            | NodeKind::Assign { next, .. }
            | NodeKind::ArrayWrite { next, .. }
            | NodeKind::ArrayInit { next, .. }
            | NodeKind::Assume { next, .. } => *next,
            NodeKind::Stop | NodeKind::Error => panic!("walk stops at {n}"),
        };
        if next == ERROR_NODE {
            break;
        }
        n = next;
    }
    assert!(c.next().is_none(), "unused choices");
    Trace { path }
}

fn feasible(cfg: &Cfg, t: &Trace) -> Witness {
    feasible_in(cfg, t, "the program")
}

fn feasible_in(cfg: &Cfg, t: &Trace, what: &str) -> Witness {
    match check_with(
        cfg,
        t,
        &Cvc5Factory,
        &Deadline::after(Duration::from_secs(10)),
    ) {
        Ok(Feasibility::Feasible(w)) => {
            if let Err(e) = replay(cfg, t, &w) {
                panic!("{what}: feasible but the replay fails: {e}");
            }
            w
        }
        other => panic!("{what}: expected feasible, got {other:?}"),
    }
}

fn infeasible(cfg: &Cfg, t: &Trace) -> Vec<usize> {
    match check_with(
        cfg,
        t,
        &Cvc5Factory,
        &Deadline::after(Duration::from_secs(10)),
    ) {
        Ok(Feasibility::Infeasible { core }) => {
            assert!(!core.is_empty(), "empty core");
            assert!(core.iter().all(|s| *s < t.path.len()));
            core
        }
        other => panic!("expected infeasible, got {other:?}"),
    }
}

/// The value of the last input whose description contains `what`.
fn input_value(w: &Witness, what: &str) -> BigInt {
    w.inputs
        .iter()
        .rev()
        .find(|i| i.what.contains(what))
        .unwrap_or_else(|| panic!("no input {what:?} in {:?}", w.inputs))
        .value
        .clone()
}

#[test]
fn recorded_paths_of_unsafe_programs_are_feasible_and_replay() {
    // On a thread with a large stack, as the engines check traces: the encoding of a
    // trace through hundreds of array stores nests them as deep.
    let body = std::thread::Builder::new()
        .stack_size(256 << 20)
        .spawn(recorded_paths_feasible_and_replay)
        .expect("a thread");
    if let Err(e) = body.join() {
        std::panic::resume_unwind(e);
    }
}

fn recorded_paths_feasible_and_replay() {
    let files = crate::testutil::sources(&crate::testutil::lp_dir());
    let mut checked = 0;
    for f in files {
        if f.to_string_lossy().contains("/errors/")
            || crate::testutil::header(&f, "expect").as_deref() != Some("unsafe")
        {
            continue;
        }
        let Ok(l) = load_path(&f) else { continue };
        let Some(t) = random_error_trace(&l.cfg, 60) else {
            continue;
        };
        // A trace through thousands of array stores (a loop over 1000 cells before the
        // check) measures the solver, not the encoding: the engines find those errors by
        // running the program.
        if t.path.len() > MAX_RECORDED_STEPS {
            continue;
        }
        validate(&l.cfg, &t).unwrap_or_else(|e| panic!("{}: {e}", f.display()));
        let w = feasible_in(
            &l.cfg,
            &t,
            &format!("{} ({} steps)", f.display(), t.path.len()),
        );
        // The witness's own oracle drives the interpreter into the error.
        let r = run(&l.cfg, &mut w.oracle.clone(), small_limits(), true);
        assert_eq!(r.path, t.path, "{}", f.display());
        checked += 1;
    }
    assert!(
        checked >= 8,
        "only {checked} unsafe programs reached their error"
    );
}

#[test]
fn constant_guard_path_is_infeasible() {
    let cfg = cfg_of("void main() { int x; x = 0; if (x > 0) ERROR: ; }");
    let t = walk(&cfg, &[true]);
    let core = infeasible(&cfg, &t);
    // The constant is folded into the guard: the branch alone is the core.
    let kinds: Vec<_> = core.iter().map(|s| &cfg.nodes[t.path[*s]].kind).collect();
    assert!(matches!(kinds[..], [NodeKind::Branch { .. }]), "{kinds:?}");
    // With an input, the assumption and the assignment join the core.
    let cfg2 =
        cfg_of("void main() { int x, y; x = u; assume(x < 3); y = x + 1; if (y > 4) ERROR: ; }");
    let t2 = walk(&cfg2, &[true]);
    let core2 = infeasible(&cfg2, &t2);
    let kinds2: Vec<_> = core2
        .iter()
        .map(|s| &cfg2.nodes[t2.path[*s]].kind)
        .collect();
    assert!(kinds2.iter().any(|k| matches!(k, NodeKind::Assume { .. })));
    assert!(kinds2.iter().any(|k| matches!(k, NodeKind::Assign { .. })));
    assert!(kinds2.iter().any(|k| matches!(k, NodeKind::Branch { .. })));
    // The other direction is no path into the error.
    assert!(validate(&cfg, &walk_or_partial(&cfg, &[false])).is_err());
}

/// Like `walk`, but the path may stop anywhere (for invalid paths).
fn walk_or_partial(cfg: &Cfg, choices: &[bool]) -> Trace {
    let mut path = vec![cfg.procs[cfg.main].entry];
    let mut c = choices.iter();
    while path.len() < 100 {
        let n = *path.last().unwrap();
        let next = match &cfg.nodes[n].kind {
            NodeKind::Branch { then, els, .. } => match c.next() {
                Some(true) => *then,
                Some(false) => *els,
                None => break,
            },
            _ => match cfg.succs(n).first() {
                Some(m) => *m,
                None => break,
            },
        };
        if next == ERROR_NODE {
            break;
        }
        path.push(next);
    }
    Trace { path }
}

#[test]
fn fig1_loop_path_is_infeasible_over_arrays_and_fixes_cell_1() {
    let cfg = cfg_file("fig1.lp");
    // Two iterations (the second needs a[1] != 1), exit, then i > 1.
    let t = walk(&cfg, &[true, true, false, true]);
    let core = infeasible(&cfg, &t);
    let mut smt = Cvc5Factory
        .make(trace::config(), &Deadline::after(Duration::from_secs(10)))
        .expect("cvc5");
    let cells = fixed_read_indices(&cfg, &t, &core, smt.as_mut()).expect("valid trace");
    let a = cfg
        .arrays
        .indices()
        .find(|a| cfg.arrays[*a].name == "a")
        .expect("array a");
    assert!(cells.contains(&(a, 1)), "cells {cells:?}");
    assert!(cells.iter().all(|(x, k)| *x == a && (0..3).contains(k)));
    let mut dedup = cells.clone();
    dedup.dedup();
    assert_eq!(dedup, cells);
    // The backend is reusable afterwards: the same check gives the same answer.
    assert!(matches!(
        check(&cfg, &t, smt.as_mut()),
        Ok(Feasibility::Infeasible { .. })
    ));
    // One iteration then the exit: i == 1, so i > 1 fails without arrays.
    let t1 = walk(&cfg, &[true, false, true]);
    infeasible(&cfg, &t1);
}

#[test]
fn fixed_indices_ignore_unfixed_reads() {
    let cfg = cfg_of(
        "void main() { int a[4], i, j; i = u; a[2] = 5; j = a[i]; \
         if (j != 5 && i == 2) ERROR: ; }",
    );
    let t = walk(&cfg, &[true]);
    let core = infeasible(&cfg, &t);
    let mut smt = Cvc5Factory
        .make(trace::config(), &Deadline::none())
        .expect("cvc5");
    let cells = fixed_read_indices(&cfg, &t, &core, smt.as_mut()).expect("valid");
    let a = cfg.arrays.indices().next().unwrap();
    // The write's index 2 is fixed; the read's index i is not fixed before the guard.
    assert_eq!(cells, vec![(a, 2)]);
}

#[test]
fn invalid_paths_are_rejected() {
    let cfg = cfg_of(
        "int f(int x) { return x + 1; } void main() { int r; r = f(1); if (r == 2) ERROR: ; }",
    );
    let good = walk(&cfg, &[true]);
    assert!(validate(&cfg, &good).is_ok());
    let bad = |path: Vec<NodeId>| validate(&cfg, &Trace { path });
    assert!(matches!(
        bad(vec![]),
        Err(TraceError::Invalid { step: 0, .. })
    ));
    // Wrong start.
    assert!(bad(good.path[1..].to_vec()).is_err());
    // The error node inside the path.
    let mut p = good.path.clone();
    p.push(ERROR_NODE);
    assert!(bad(p).is_err());
    // A node that does not exist.
    let mut p = good.path.clone();
    p.push(NodeId(1_000_000));
    assert!(bad(p.clone()).is_err());
    // check reports the invalid path instead of panicking.
    assert!(check_with(&cfg, &Trace { path: p }, &Cvc5Factory, &Deadline::none()).is_err());
    // Dropping a middle step breaks the successor relation.
    let mut p = good.path.clone();
    p.remove(good.path.len() / 2);
    assert!(bad(p).is_err());
    // Stopping early: the last node has no edge into the error node.
    assert!(bad(good.path[..good.path.len() - 1].to_vec()).is_err());
    // Returning to the wrong place: swap in a node after the callee's exit.
    let exit_pos = good
        .path
        .iter()
        .position(|n| matches!(cfg.nodes[*n].kind, NodeKind::Exit))
        .expect("the path returns from f");
    let mut p = good.path.clone();
    p[exit_pos + 1] = good.path[0];
    let e = bad(p).unwrap_err();
    assert!(matches!(e, TraceError::Invalid { step, .. } if step == exit_pos + 1));
    assert!(e.to_string().contains("step"));
}

#[test]
fn out_of_range_reads_are_arbitrary_and_writes_are_noops() {
    // A read beyond the end can be anything (EUREKA's rule; in C it is undefined).
    let opts = crate::frontend::LoadOptions {
        array_bounds: Some(crate::cfg::ArrayBounds::Nondet),
        ..Default::default()
    };
    let p = crate::testutil::lp_dir().join("array_oob_read_unsafe.c");
    let cfg = crate::frontend::load_path_with(&p, &opts)
        .expect("the program loads")
        .cfg;
    let t = walk(&cfg, &[true]);
    let w = feasible(&cfg, &t);
    assert_eq!(input_value(&w, "out-of-range"), BigInt::from(9));

    // An out-of-range write changes nothing.
    let src = "void main() { int a[2] = {1, 2}; int i; i = u; a[i] = 7; \
               if (a[0] == 1 && a[1] == 2) ERROR: ; }";
    let cfg = cfg_of(src);
    let t = walk(&cfg, &[true]);
    let w = feasible(&cfg, &t);
    let i = input_value(&w, "u");
    assert!(i < BigInt::from(0) || i >= BigInt::from(2), "i = {i}");

    // ... but an in-range one does.
    let src = "void main() { int a[2] = {1, 2}; int i; i = u; assume(i >= 0 && i <= 1); \
               a[i] = 7; if (a[0] == 1 && a[1] == 2) ERROR: ; }";
    let cfg = cfg_of(src);
    let t = walk(&cfg, &[true]);
    let core = infeasible(&cfg, &t);
    assert!(core
        .iter()
        .any(|s| matches!(cfg.nodes[t.path[*s]].kind, NodeKind::ArrayWrite { .. })));
}

#[test]
fn division_and_remainder_truncate_like_c() {
    let cfg = cfg_of(
        "void main() { int x; x = u; assume(x < 0); \
         if (x / 3 == -2 && x % 3 == -1) ERROR: ; }",
    );
    let t = walk(&cfg, &[true]);
    let w = feasible(&cfg, &t);
    assert_eq!(input_value(&w, "u"), BigInt::from(-7));

    // Floor division would make -1 / 2 == -1.
    let cfg = cfg_of("void main() { int x; x = 0 - 1; if (x / 2 != 0) ERROR: ; }");
    infeasible(&cfg, &walk(&cfg, &[true]));
    // The remainder has the sign of the dividend.
    let cfg = cfg_of("void main() { int x; x = u; assume(x < 0); if (x % 5 > 0) ERROR: ; }");
    infeasible(&cfg, &walk(&cfg, &[true]));
    let cfg = cfg_of("void main() { int x; x = u; if (x % 5 == 0 - 4) ERROR: ; }");
    let w = feasible(&cfg, &walk(&cfg, &[true]));
    let x = input_value(&w, "u");
    assert!(
        x < BigInt::from(0) && x.clone() % 5 == BigInt::from(-4),
        "x = {x}"
    );
}

const REC: &str = "int f(int n) { int x; x = n; if (n > 0) { f(n - 1); } return x; } \
                   void main() { int r; r = f(3); if (COND) ERROR: ; }";

#[test]
fn recursion_keeps_callers_locals() {
    // f(3) descends to f(0) and returns its own x = 3.
    let cfg = cfg_of(&REC.replace("COND", "r != 3"));
    let t = walk(&cfg, &[true, true, true, false, true]);
    infeasible(&cfg, &t);
    let cfg = cfg_of(&REC.replace("COND", "r == 3"));
    let t = walk(&cfg, &[true, true, true, false, true]);
    feasible(&cfg, &t);
    // Recursing one level too deep contradicts the argument.
    let t = walk(&cfg, &[true, true, true, true, false, true]);
    infeasible(&cfg, &t);
}

#[test]
fn recursive_program_with_input() {
    let cfg = cfg_file("rec_sum_input_unsafe.lp");
    let t = list_error_trace(&cfg, &[4; 20]);
    let w = feasible(&cfg, &t);
    assert!(w.inputs.iter().any(|i| i.value == BigInt::from(4)));
    // The recursion is 4 calls deep: frames are separate instances.
    let calls = t
        .path
        .iter()
        .filter(|n| matches!(cfg.nodes[**n].kind, NodeKind::Call { .. }))
        .count();
    assert!(calls >= 5, "{calls} calls");
}

#[test]
fn uninitialised_locals_are_arbitrary_per_frame() {
    let cfg = cfg_file("uninit_local_in_callee.c");
    let t = walk(&cfg, &[true]);
    let w = feasible(&cfg, &t);
    assert!(
        w.inputs.iter().any(|i| i.value == BigInt::from(42)),
        "{:?}",
        w.inputs
    );
    // Two calls give two independent values.
    let cfg = cfg_of(
        "int f() { int t; return t; } \
         void main() { int a, b; a = f(); b = f(); if (a == 1 && b == 2) ERROR: ; }",
    );
    let w = feasible(&cfg, &walk(&cfg, &[true]));
    let vals: Vec<_> = w.inputs.iter().map(|i| i.value.clone()).collect();
    assert!(vals.contains(&BigInt::from(1)) && vals.contains(&BigInt::from(2)));
}

#[test]
fn arbitrary_and_initialised_array_contents() {
    let cfg = cfg_of("void main() { int a[3]; if (a[1] == 5 && a[2] == 0 - 6) ERROR: ; }");
    let w = feasible(&cfg, &walk(&cfg, &[true]));
    assert_eq!(input_value(&w, "a[1] (initial)"), BigInt::from(5));
    assert_eq!(input_value(&w, "a[2] (initial)"), BigInt::from(-6));

    let cfg = cfg_of("int g[4] = {1, 2}; void main() { if (g[3] != 0) ERROR: ; }");
    infeasible(&cfg, &walk(&cfg, &[true]));
    let cfg = cfg_of("int g[4] = {1, 2}; void main() { if (g[1] == 2 && g[3] == 0) ERROR: ; }");
    let w = feasible(&cfg, &walk(&cfg, &[true]));
    assert!(w.inputs.is_empty(), "{:?}", w.inputs);
}

#[test]
fn variable_length_arrays() {
    let vla = "void main() { int n; n = u; assume(n > 0 && n < 10); int a[n]; a[3] = 7; \
               if (C) ERROR: ; }";
    // a[3] == 7 needs n >= 4... or an out-of-range read that happens to give 7.
    let cfg = cfg_of(&vla.replace('C', "a[3] == 7 && n == 2"));
    feasible(&cfg, &walk(&cfg, &[true]));
    let cfg = cfg_of(&vla.replace('C', "a[3] != 7 && n >= 4"));
    infeasible(&cfg, &walk(&cfg, &[true]));
    let cfg = cfg_of(&vla.replace('C', "a[3] != 7"));
    let w = feasible(&cfg, &walk(&cfg, &[true]));
    let n = input_value(&w, "u");
    assert!(n <= BigInt::from(3), "n = {n}");
}

#[test]
fn short_circuit_skips_sites_like_the_interpreter() {
    // The second `u` of the guard is not evaluated when the first is zero.
    let cfg = cfg_of("void main() { int x; x = u; if ((x == 0 && u == 3) || x == 5) ERROR: ; }");
    let w = feasible(&cfg, &walk(&cfg, &[true]));
    replay(&cfg, &walk(&cfg, &[true]), &w).expect("replays");
    let cfg =
        cfg_of("void main() { int x, y; x = u; y = (x > 0 ? u : 0 - 1); if (y == 4) ERROR: ; }");
    let w = feasible(&cfg, &walk(&cfg, &[true]));
    assert!(input_value(&w, "u") > BigInt::from(0));
}

#[test]
fn replay_detects_a_wrong_witness() {
    let cfg = cfg_file("div_by_constant_unsafe.lp");
    let t = walk(&cfg, &[true]);
    let mut w = feasible(&cfg, &t);
    assert!(replay(&cfg, &t, &w).is_ok());
    // Another trace of the same program (the guard false) is not what the witness does.
    let mut other = t.clone();
    other.path.pop();
    assert!(replay(&cfg, &other, &w).is_err());
    w.oracle = Default::default();
    assert!(replay(&cfg, &t, &w).is_err());
}

#[test]
fn inputs_have_lines() {
    let src = "void main() {\n int x;\n x = u;\n if (x == 12)\n ERROR: ;\n}\n";
    let file = SourceFile::new("t.lp", src);
    let cfg = load(file.clone()).expect("loads").cfg;
    let t = walk(&cfg, &[true]);
    let mut w = feasible(&cfg, &t);
    let x = w
        .inputs
        .iter()
        .find(|i| i.value == BigInt::from(12))
        .cloned();
    let x = x.expect("input 12");
    assert_eq!(x.line, 0);
    trace::set_input_lines(&cfg, &t, &file, &mut w.inputs);
    assert!(w
        .inputs
        .iter()
        .any(|i| i.value == BigInt::from(12) && i.line == 3));
}

/// The CFG without its havoc assignments (`x = u`), so locals are read uninitialised
/// and the interpreter asks its oracle for `Site::Uninit` values.
fn without_havocs(mut cfg: Cfg) -> Cfg {
    for node in cfg.nodes.iter_mut() {
        if let NodeKind::Assign { rhs, next, .. } = &node.kind {
            if rhs.iter().all(|e| *e == Expr::Undef) {
                node.kind = NodeKind::Skip { next: *next };
            }
        }
    }
    cfg
}

#[test]
fn uninitialised_reads_are_answered_per_frame() {
    let cfg = without_havocs(cfg_of(
        "int f(int n) { int t; if (n > 0) { t = f(n - 1); return t + 100; } return t; } \
         void main() { int a, b; a = f(0); b = f(1); if (a == 1 && b == 102) ERROR: ; }",
    ));
    // f(0) returns its own t; f(1) returns its callee's t + 100: three frames of f, two
    // of which read their t uninitialised (the outer f(1) assigns it first).
    let t = walk(&cfg, &[false, true, false, true]);
    let w = feasible(&cfg, &t);
    let uninit: Vec<_> = w
        .inputs
        .iter()
        .filter(|i| i.what == "t (uninitialised)")
        .map(|i| i.value.clone())
        .collect();
    assert_eq!(
        uninit,
        vec![BigInt::from(1), BigInt::from(2)],
        "{:?}",
        w.inputs
    );
    // Two calls, two independent initial values.
    let cfg2 = without_havocs(cfg_of(
        "int f() { int t; return t; } \
         void main() { int a, b; a = f(); b = f(); if (a == b + 1) ERROR: ; }",
    ));
    let t2 = walk(&cfg2, &[true]);
    let w2 = feasible(&cfg2, &t2);
    assert_eq!(
        w2.inputs
            .iter()
            .filter(|i| i.what.ends_with("(uninitialised)"))
            .count(),
        2
    );
}

/// Inputs in order, and the count `jump` at the first transition that passes checks
/// untested (every other count 0).
struct Jumping {
    vals: Vec<BigInt>,
    next: usize,
    skips: Vec<NodeId>,
    jump: i64,
}

impl crate::interp::Oracle for Jumping {
    fn undef(&mut self, _: usize, _: NodeId, _: crate::interp::Site) -> BigInt {
        self.next += 1;
        self.vals.get(self.next - 1).cloned().unwrap_or_default()
    }
    fn array_cell(&mut self, _: usize, _: crate::ids::ArrayId, _: i64) -> BigInt {
        BigInt::from(0)
    }
    fn count(
        &mut self,
        _: usize,
        node: NodeId,
        _: crate::interp::Site,
        _: Option<&crate::accel::CountRange>,
    ) -> BigInt {
        match self.skips.contains(&node) {
            true => BigInt::from(std::mem::take(&mut self.jump)),
            false => BigInt::from(0),
        }
    }
}

/// Whether trace `t` takes a transition that passes checks untested.
fn jumps(cfg: &Cfg, t: &Trace) -> bool {
    t.path.iter().enumerate().any(|(i, n)| {
        cfg.accel.get(n).is_some_and(|a| a.skips)
            && matches!(cfg.nodes[NodeId(n.0 + 1)].kind,
                NodeKind::Branch { then, .. } if t.path.get(i + 2) == Some(&then))
    })
}

#[test]
fn a_trace_that_jumps_over_checks_is_run_again_testing_them() {
    // Ten cells filled from the inputs, a loop that checks them all, then an error of
    // its own after the loop.
    let src = "void main() {\n  int a[10]; int i, j, x;\n  for (i = 0; i < 10; i++) a[i] = u;\n  for (j = 0; j < 10; j++) assert(a[j] != 3);\n  x = u;\n  assert(x != 5);\n}\n";
    let opts = crate::frontend::LoadOptions {
        jump_checks: true,
        ..Default::default()
    };
    let cfg = match crate::frontend::load_with(SourceFile::new("test.lp", src), &opts) {
        Ok(l) => l.cfg,
        Err(e) => panic!("cannot load:\n{}", e.render(false)),
    };
    let file = SourceFile::new("test.lp", src);
    let error_line = |t: &Trace| {
        file.line_col(cfg.nodes[*t.path.last().unwrap()].span.start)
            .line
    };
    let skips: Vec<NodeId> = cfg
        .accel
        .iter()
        .filter(|(_, a)| a.skips)
        .map(|(n, _)| *n)
        .collect();
    assert_eq!(skips.len(), 1, "the check loop jumps");
    // The check: the test whose failing branch is the error node, on line 4.
    let check = cfg
        .nodes
        .indices()
        .find(|n| {
            matches!(cfg.nodes[*n].kind, NodeKind::Branch { els, .. } if els == ERROR_NODE)
                && file.line_col(cfg.nodes[*n].span.start).line == 4
        })
        .expect("the check");
    for (cells, line, tested) in [
        // No cell holds 3: the error after the loop, every check tested.
        ([0, 1, 2, 4, 5, 6, 7, 8, 9, 10], 6, 10),
        // Cell 4 holds 3: the check of iteration 4 fails.
        ([0, 1, 2, 4, 3, 6, 7, 8, 9, 10], 4, 5),
    ] {
        // The locals start arbitrary (three inputs), then the cells, then `x`.
        let vals: Vec<BigInt> = [0, 0, 0]
            .iter()
            .chain(&cells)
            .chain(&[5])
            .map(|c| BigInt::from(*c))
            .collect();
        let mut o = Jumping {
            vals,
            next: 0,
            skips: skips.clone(),
            jump: 10,
        };
        let (_, found) = trace::recorded_run(&cfg, &mut o, small_limits());
        let (t, w) = found.expect("the jump reaches the error after the loop");
        assert!(jumps(&cfg, &t), "the run jumps over the checks");
        assert_eq!(error_line(&t), 6);
        assert_eq!(t.path.iter().filter(|n| **n == check).count(), 0);
        // The recorded run's witness: its cells; the solver's model of its trace: cells
        // the trace never reads, so any values (the run then ends at either error).
        for (w, recorded) in [(w.clone(), true), (feasible(&cfg, &t), false)] {
            let (t2, w2) = trace::test_skipped_checks(&cfg, &t, &w)
                .expect("an error is reached")
                .expect("the trace jumps");
            replay(&cfg, &t2, &w2).expect("the new run replays");
            assert!(!jumps(&cfg, &t2), "the new run tests every check");
            let checks = t2.path.iter().filter(|n| **n == check).count();
            if recorded {
                assert_eq!(error_line(&t2), line, "cells {cells:?}");
                assert_eq!(checks, tested);
            } else {
                let l = error_line(&t2);
                assert!(
                    l == 4 || (l == 6 && checks == 10),
                    "line {l}, {checks} checks"
                );
            }
        }
    }
    // A trace that does not jump is left as it is.
    let t = list_error_trace(&cfg, &[0, 0, 0, 0, 1, 2, 4, 5, 6, 7, 8, 9, 10, 5]);
    assert!(!jumps(&cfg, &t));
    let w = feasible(&cfg, &t);
    assert!(trace::test_skipped_checks(&cfg, &t, &w).unwrap().is_none());
}
