//! The CFG's simplification ([`crate::cfg::simplify`]) against the program as built: on
//! programs with tests that have no effect, flags set to the value they have, dead reads
//! and draws, calls that change globals, recursion and overflows, every run ends the same
//! way before and after. The oracle gives each draw a value from its node and how often
//! that node drew before, so that a draw the simplification removed shifts no other one.

use super::{run, Limits, Oracle, Outcome, Site};
use crate::cfg::{instrument_bounds, simplify, ArrayBounds, Cfg};
use crate::diag::SourceFile;
use crate::ids::{ArrayId, NodeId};
use crate::sema::{self, IntModel, SemaOptions};
use num_bigint::BigInt;
use std::collections::BTreeMap;

/// Values from a seed, a site and its occurrence: mostly in -3..3 (so that cells
/// collide), sometimes the largest `int` (so that `x + 1` overflows).
struct Keyed {
    seed: u64,
    seen: BTreeMap<(NodeId, String), u64>,
}

impl Keyed {
    fn value(&self, key: u64) -> BigInt {
        let mut h = self.seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ key;
        h ^= h >> 29;
        h = h.wrapping_mul(0xBF58_476D_1CE4_E5B9);
        h ^= h >> 32;
        if h % 11 == 0 {
            BigInt::from(i32::MAX)
        } else {
            BigInt::from((h % 7) as i64 - 3)
        }
    }
}

impl Oracle for Keyed {
    fn undef(&mut self, _: usize, node: NodeId, site: Site) -> BigInt {
        let k = self.seen.entry((node, format!("{site:?}"))).or_default();
        *k += 1;
        let key =
            (u64::from(node.0) << 32) ^ (*k << 8) ^ u64::from(format!("{site:?}").len() as u32);
        self.value(key)
    }
    fn array_cell(&mut self, _: usize, array: ArrayId, index: i64) -> BigInt {
        self.value((u64::from(array.0) << 40) ^ (index as u64) ^ 0x5555)
    }
}

/// The CFG of `src` (a C file, or an `.lp` one), bounds as its language has them.
fn load(name: &str, src: &str) -> Cfg {
    let file = SourceFile::new(name, src);
    let ast = crate::syntax::parse(&file).expect("parses");
    let c = name.ends_with(".c");
    let opts = SemaOptions {
        int_model: if c { IntModel::C } else { IntModel::Math },
        ..SemaOptions::default()
    };
    let a = sema::analyze_with(&ast, &opts).expect("resolves");
    let bounds = if c {
        ArrayBounds::Undefined
    } else {
        ArrayBounds::Nondet
    };
    instrument_bounds(&Cfg::build(&a.program), bounds).expect("guarded")
}

const PROGRAMS: &[(&str, &str)] = &[
    (
        "all_diff.c",
        "int main() { int a[5]; int i; int r = 1; \
         for (i = 1; i < 5 && r; i++) { int j; \
           for (j = i - 1; j >= 0 && r; j--) { if (a[i] == a[j]) { r = 1; } } } \
         if (r) { int x; int y; for (x = 0; x < 5; x++) for (y = x + 1; y < 5; y++) \
           __VERIFIER_assert(a[x] != a[y]); } return 0; }",
    ),
    (
        "flag_changes.c",
        "int main() { int a[5]; int i; int r = 0; \
         for (i = 1; i < 5; i++) { int j; \
           for (j = i - 1; j >= 0; j--) { if (a[i] == a[j]) { r = 1; } } } \
         __VERIFIER_assert(!r); return 0; }",
    ),
    (
        "globals.c",
        "int g; void f(int x) { if (x > 0) g = 2; } \
         int main() { int a[4]; int i = 0; g = 1; f(a[i]); if (a[i + 1]) { g = 1; } \
         __VERIFIER_assert(g == 1); return 0; }",
    ),
    (
        "recursion.c",
        "int a[4]; int f(int n) { int r = 1; if (n > 0) { if (a[n] == 0) { r = 1; } \
         r = f(n - 1) + r; } return r; } \
         int main() { int k; a[0] = k; __VERIFIER_assert(f(3) < 4 || k > 0); return 0; }",
    ),
    (
        "overflow.c",
        "int main() { int x; int a[4]; if (x + 1 > a[0]) { } \
         __VERIFIER_assert(x != 2); return 0; }",
    ),
    (
        "eureka.lp",
        "int a[3]; int main() { int i; int r; r = 1; i = u; \
         if (a[i] == 0) { r = 1; } if (a[i + 1] < 0) { r = 1; } else { r = 1; } \
         if (i == 1) { ERROR: } return 0; }",
    ),
];

/// How a run ends; an overflow and a false `assume` alike end it without a verdict (a
/// test with no effect that may overflow becomes an `assume`).
fn kind(o: &Outcome) -> &'static str {
    match o {
        Outcome::Error { .. } => "error",
        Outcome::Finished => "finished",
        Outcome::Blocked { .. } | Outcome::Undefined { .. } => "no verdict",
        Outcome::OutOfBounds { .. } => "out of bounds",
        _ => "other",
    }
}

#[test]
fn every_run_ends_the_same_way_after_the_simplification() {
    let mut simplified = 0;
    for (name, src) in PROGRAMS {
        let built = load(name, src);
        let mut simple = built.clone();
        simplified += usize::from(simplify(&mut simple) > 0);
        let mut ends: BTreeMap<&str, usize> = BTreeMap::new();
        for seed in 0..300 {
            let end = |cfg: &Cfg| {
                let mut o = Keyed {
                    seed,
                    seen: BTreeMap::new(),
                };
                run(cfg, &mut o, Limits::default(), false).outcome
            };
            let (before, after) = (end(&built), end(&simple));
            assert_eq!(
                kind(&before),
                kind(&after),
                "{name}, seed {seed}: {before:?} before, {after:?} after"
            );
            *ends.entry(kind(&before)).or_default() += 1;
            if let (Outcome::Error { at: x }, Outcome::Error { at: y }) = (&before, &after) {
                assert_eq!(x, y, "{name}, seed {seed}: the same error");
            }
        }
        // The seeds reach the error and miss it (the comparison is not vacuous).
        assert!(ends.len() >= 2, "{name}: only {ends:?}");
    }
    assert!(simplified >= 4, "only {simplified} programs simplified");
}
