//! The closure of an accelerated loop path against concrete iteration, on random
//! translation loops (two or three variables, resets, a branch in the body, a guard of
//! random linear atoms, under mathematical integers and as `unsigned char`s that wrap)
//! and random starting states: for every alternative and every `n ≤ 50`, the
//! transition with count `n` is allowed iff the first `n` concrete iterations follow its
//! path, and then both end in the same state.

use super::{run, Limits, Oracle, Outcome, Site};
use crate::accel::{accelerate, CountRange};
use crate::cfg::Cfg;
use crate::diag::SourceFile;
use crate::ids::{ArrayId, NodeId};
use crate::sema::{self, IntModel, SemaOptions};
use num_bigint::BigInt;
use proptest::prelude::*;
use std::collections::BTreeMap;

/// One update of a variable in a branch of the body.
#[derive(Clone, Debug)]
enum Upd {
    Keep,
    Add(i64),
    Set(i64),
}

/// A random loop `while (atoms) { if (x_b < t) { then } else { els } }` and a start.
#[derive(Clone, Debug)]
struct Case {
    uchar: bool,
    atoms: Vec<(Vec<i64>, &'static str, i64)>,
    branch: (usize, i64),
    then: Vec<Upd>,
    els: Vec<Upd>,
    start: Vec<i64>,
}

impl Case {
    fn text(&self) -> String {
        let k = self.start.len();
        let names: Vec<String> = (0..k).map(|i| format!("x{i}")).collect();
        let atom = |(cs, op, b): &(Vec<i64>, &str, i64)| {
            let terms: Vec<String> = cs
                .iter()
                .zip(&names)
                .filter(|(c, _)| **c != 0)
                .map(|(c, x)| format!("{c} * {x}"))
                .collect();
            format!("({} {op} {b})", terms.join(" + "))
        };
        let guard: Vec<String> = self.atoms.iter().map(atom).collect();
        let upd = |us: &[Upd]| -> String {
            us.iter()
                .zip(&names)
                .map(|(u, x)| match u {
                    Upd::Keep => String::new(),
                    Upd::Add(c) => format!("{x} = {x} + {c}; "),
                    Upd::Set(r) => format!("{x} = {r}; "),
                })
                .collect()
        };
        let (ty, input) = if self.uchar {
            ("unsigned char", "__VERIFIER_nondet_uchar()")
        } else {
            ("int", "u")
        };
        let inits: String = names.iter().map(|x| format!("{x} = {input}; ")).collect();
        format!(
            "{} main() {{ {ty} {}; {inits} while ({}) {{ if (x{} < {}) {{ {}}} else {{ {}}} }} }}",
            if self.uchar { "int" } else { "void" },
            names.join(", "),
            guard.join(" && "),
            self.branch.0,
            self.branch.1,
            upd(&self.then),
            upd(&self.els),
        )
    }
}

fn case() -> impl Strategy<Value = Case> {
    (any::<bool>(), 2usize..=3).prop_flat_map(|(uchar, k)| {
        let (lo, hi) = if uchar { (0i64, 255i64) } else { (-20, 20) };
        let upd = prop_oneof![
            2 => Just(Upd::Keep),
            3 => (-3i64..=3).prop_filter("a translation", |c| *c != 0).prop_map(Upd::Add),
            1 => (0i64..=6).prop_map(Upd::Set),
        ];
        let atom = (
            prop::collection::vec(-2i64..=2, k)
                .prop_filter("a variable", |cs| cs.iter().any(|c| *c != 0)),
            prop::sample::select(vec!["<", "<=", ">", ">=", "!="]),
            if uchar { 0i64..=300 } else { -30i64..=30 },
        );
        (
            Just(uchar),
            prop::collection::vec(atom, 1..=2),
            (0..k, if uchar { 0i64..=255 } else { -10i64..=10 }),
            prop::collection::vec(upd.clone(), k),
            prop::collection::vec(upd, k),
            prop::collection::vec(
                prop_oneof![lo..=hi, if uchar { 240i64..=255 } else { -3i64..=3 }],
                k,
            ),
        )
            .prop_map(|(uchar, atoms, branch, then, els, start)| Case {
                uchar,
                atoms,
                branch,
                then,
                els,
                start,
            })
    })
}

/// The inputs in order; the count `n` at node `target` (once), 0 at every other count.
struct Inputs {
    vals: Vec<BigInt>,
    next: usize,
    target: Option<(NodeId, BigInt)>,
}

impl Oracle for Inputs {
    fn undef(&mut self, _: usize, _: NodeId, _: Site) -> BigInt {
        self.next += 1;
        self.vals.get(self.next - 1).cloned().unwrap_or_default()
    }
    fn array_cell(&mut self, _: usize, _: ArrayId, _: i64) -> BigInt {
        BigInt::default()
    }
    fn count(&mut self, _: usize, node: NodeId, _: Site, _: Option<&CountRange>) -> BigInt {
        match self.target.take() {
            Some((t, n)) if t == node => n,
            other => {
                self.target = other;
                BigInt::default()
            }
        }
    }
}

fn load(c: &Case) -> Cfg {
    let name = if c.uchar { "t.c" } else { "t.lp" };
    let file = SourceFile::new(name, c.text());
    let ast = crate::syntax::parse(&file).expect("parses");
    let opts = SemaOptions {
        int_model: if c.uchar { IntModel::C } else { IntModel::Math },
        ..SemaOptions::default()
    };
    let a = sema::analyze_with(&ast, &opts).expect("resolves");
    let mut cfg = Cfg::build(&a.program);
    accelerate(&mut cfg, false);
    cfg
}

/// The values of the variables after the first `steps` steps of a recorded run.
fn state(r: &super::Run, steps: usize) -> BTreeMap<String, BigInt> {
    let mut s = BTreeMap::new();
    for ch in r.changes.iter().take(steps) {
        for (v, x) in ch {
            s.insert(v.clone(), x.clone());
        }
    }
    s
}

fn check(c: &Case) -> Result<(), TestCaseError> {
    let cfg = load(c);
    let inputs: Vec<BigInt> = c.start.iter().map(|x| BigInt::from(*x)).collect();
    let limits = Limits {
        max_steps: 20_000,
        ..Limits::default()
    };
    // Concrete iteration (every count 0).
    let mut o = Inputs {
        vals: inputs.clone(),
        next: 0,
        target: None,
    };
    let concrete = run(&cfg, &mut o, limits, true);
    let names: Vec<String> = (0..c.start.len()).map(|i| format!("x{i}")).collect();
    for (&node, a) in &cfg.accel {
        let first = *cfg
            .accel
            .iter()
            .find(|(_, b)| b.head == a.head)
            .map(|(n, _)| n)
            .expect("this head's first count node");
        let starts: Vec<usize> = (0..concrete.path.len())
            .filter(|&j| concrete.path[j] == a.head)
            .collect();
        let len = a.path.len();
        let follows = |j: usize| {
            concrete.path.get(j..j + len) == Some(&a.path[..])
                && concrete.path.get(j + len) == Some(&first)
        };
        // An iteration that wraps a variable is not a translation: it stays with the
        // original body.
        let wraps = |j: usize| {
            let s = state(&concrete, j);
            let x = |i: usize| s.get(&names[i]).cloned().unwrap_or_default();
            let ups = if x(c.branch.0) < BigInt::from(c.branch.1) {
                &c.then
            } else {
                &c.els
            };
            c.uchar
                && ups.iter().enumerate().any(|(i, u)| {
                    let Upd::Add(d) = u else { return false };
                    let v = x(i) + BigInt::from(*d);
                    v < BigInt::from(0) || v > BigInt::from(255)
                })
        };
        for n in a.min..=50 {
            let n_ok = starts.len() >= n as usize
                && starts[..n as usize]
                    .iter()
                    .all(|&j| follows(j) && !wraps(j));
            let mut o = Inputs {
                vals: inputs.clone(),
                next: 0,
                target: Some((node, BigInt::from(n))),
            };
            let accel = run(&cfg, &mut o, limits, true);
            let assign = NodeId(node.0 + 3);
            let taken = accel.path.iter().position(|m| *m == assign);
            prop_assert_eq!(
                taken.is_some(),
                n_ok,
                "n = {}, alternative at node {}: {} ({:?})\n{}",
                n,
                node,
                if n_ok {
                    "concrete iterations follow the path, the transition blocks"
                } else {
                    "the transition allows what the iterations do not do"
                },
                accel.outcome,
                c.text()
            );
            if let Some(k) = taken {
                if !n_ok {
                    continue;
                }
                let after = state(&accel, k + 1);
                let j = starts[n as usize - 1] + len;
                let want = state(&concrete, j);
                for x in &names {
                    prop_assert_eq!(
                        after.get(x),
                        want.get(x),
                        "{} after n = {}\n{}",
                        x,
                        n,
                        c.text()
                    );
                }
            } else if n_ok {
                let blocked = matches!(accel.outcome, Outcome::Blocked { .. });
                prop_assert!(blocked, "{:?}", accel.outcome);
            }
        }
    }
    Ok(())
}

#[test]
fn the_closure_agrees_with_concrete_iteration() {
    let cases: u32 = std::env::var("LPMC_ACCEL_CASES")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(120);
    let mut runner = proptest::test_runner::TestRunner::new(proptest::test_runner::Config {
        cases,
        failure_persistence: None,
        ..Default::default()
    });
    let accelerated = std::cell::Cell::new(0u32);
    runner
        .run(&case(), |c| {
            let cfg = load(&c);
            accelerated.set(accelerated.get() + u32::from(!cfg.accel.is_empty()));
            check(&c)
        })
        .unwrap();
    // The generator must exercise the transformation.
    assert!(
        accelerated.get() >= cases / 4,
        "only {} accelerated loops",
        accelerated.get()
    );
}
