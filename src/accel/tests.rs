//! Which loops are accelerated, and how: the guards and updates of the transitions, the
//! counts they allow ([`count_range`]), and the loops that must stay as they are.

use super::*;
use crate::diag::SourceFile;
use crate::sema::{self, IntModel, SemaOptions};
use std::collections::BTreeMap;

/// The CFG of a program, accelerated, under mathematical (`.lp`) or C (`.c`) integers.
fn cfg(name: &str, text: &str) -> Cfg {
    cfg_with(name, text, false)
}

/// The same, with the loops that only check jumping over iterations.
fn cfg_jumping(name: &str, text: &str) -> Cfg {
    cfg_with(name, text, true)
}

fn cfg_with(name: &str, text: &str, jump_checks: bool) -> Cfg {
    let file = SourceFile::new(name, text);
    let ast = crate::syntax::parse(&file).expect("parses");
    let opts = SemaOptions {
        int_model: if name.ends_with(".c") {
            IntModel::C
        } else {
            IntModel::Math
        },
        ..SemaOptions::default()
    };
    let a = sema::analyze_with(&ast, &opts).expect("resolves");
    let mut cfg = Cfg::build(&a.program);
    accelerate(&mut cfg, jump_checks);
    cfg
}

/// The text of each accelerated transition: its guard and its assignment.
fn transitions(cfg: &Cfg) -> Vec<(String, String)> {
    cfg.accel
        .keys()
        .map(|c| {
            let at = |k: u32| crate::cfg::node_label(cfg, &cfg.nodes[NodeId(c.0 + k)].kind);
            (at(2), at(3))
        })
        .collect()
}

fn value(cfg: &Cfg, vals: &[(&str, i64)]) -> impl Fn(VarId) -> Option<BigInt> {
    let map: BTreeMap<VarId, BigInt> = vals
        .iter()
        .map(|(n, x)| {
            let v = cfg
                .vars
                .indices()
                .find(|v| cfg.vars[*v].name == *n)
                .expect("a variable of the program");
            (v, BigInt::from(*x))
        })
        .collect();
    move |v| map.get(&v).cloned()
}

/// The counts `a` allows in the state `vals`, by [`count_range`]; on machine integers
/// ([`count_range_small`]) they must be the same.
fn counts(a: &AccelCount, cfg: &Cfg, vals: &[(&str, i64)]) -> Option<CountRange> {
    let r = count_range(a, &value(cfg, vals));
    let small = value(cfg, vals);
    let s = count_range_small(a, &|v| small(v).and_then(|x| x.to_i64()));
    assert_eq!(s, Some(r.clone()), "machine integers against big ones");
    r
}

#[test]
fn a_translation_loop_gets_its_closure() {
    let c = cfg(
        "t.lp",
        "void main() { int i, s; i = 0; s = 0; while (i < 100) { i = i + 1; s = s + 2; } }",
    );
    let t = transitions(&c);
    assert_eq!(t.len(), 1, "{t:?}");
    assert_eq!(t[0].1, "i, s = (i + $n), (s + 2*$n)");
    // The loop test at the last iteration (the first one's, `i <= 99`, follows).
    assert_eq!(t[0].0, "assume((((i + $n) <= 100) && (1 <= $n)))");
    let a = c.accel.values().next().unwrap();
    assert_eq!(a.min, 1);
    let r = counts(a, &c, &[("i", 0), ("s", 7)]).unwrap();
    assert_eq!((r.lo, r.hi), (BigInt::from(1), Some(BigInt::from(100))));
    assert_eq!(counts(a, &c, &[("i", 100), ("s", 0)]), None);
    // Every edge into the loop head goes to the alternatives first.
    let first = *c.accel.keys().next().unwrap();
    let into_first = c
        .nodes
        .indices()
        .filter(|n| c.succs(*n).contains(&first))
        .count();
    assert_eq!(into_first, 2, "the entry and the back edge");
}

#[test]
fn a_doubling_loop_is_not_accelerated() {
    let c = cfg(
        "t.lp",
        "void main() { int x; x = 1; while (x < 1000) { x = 2 * x; } }",
    );
    assert!(c.accel.is_empty());
    let c = cfg(
        "t.lp",
        "void main() { int x, y; x = 1; y = 1; while (x < 1000) { x = x + y; y = y + 1; } }",
    );
    assert!(c.accel.is_empty(), "x + y is not a translation");
}

#[test]
fn loops_with_arrays_inputs_or_division_are_not_accelerated() {
    for body in ["a[i] = 0; i = i + 1;", "i = i + u;", "i = i + 1 + i / 2;"] {
        let c = cfg(
            "t.lp",
            &format!("void main() {{ int i, a[10]; i = 0; while (i < 10) {{ {body} }} }}"),
        );
        assert!(c.accel.is_empty(), "{body}");
    }
}

#[test]
fn each_branch_of_the_body_is_a_path() {
    let c = cfg(
        "t.c",
        "int main() { unsigned x = 0; while (x < 0x0fffffff) { if (x < 0xfff1) x++; else x += 2; } return 0; }",
    );
    let t = transitions(&c);
    assert_eq!(t.len(), 2, "{t:?}");
    assert_eq!(t[0].1, "x = (x + $n)");
    assert_eq!(t[1].1, "x = (x + 2*$n)");
    // The first phase ends at the branch's bound, the second at the loop's.
    let a: Vec<&AccelCount> = c.accel.values().collect();
    let r = counts(a[0], &c, &[("x", 0)]).unwrap();
    assert_eq!(r.hi, Some(BigInt::from(0xfff1)));
    let r = counts(a[1], &c, &[("x", 0xfff1)]).unwrap();
    // 0xfff1 + 2n, the last iteration starting below 0x0fffffff.
    assert_eq!(r.hi, Some(BigInt::from((0x0fffffff - 0xfff1 + 1) / 2)));
}

#[test]
fn a_wrap_ends_the_accelerated_range() {
    let c = cfg(
        "t.c",
        "int main() { unsigned char c = 0; int i; for (i = 0; i < 300; i++) { c++; } return 0; }",
    );
    let a = c.accel.values().next().expect("accelerated");
    // From c = 0: up to c = 255, the wrapping iteration stays with the body.
    let r = counts(a, &c, &[("c", 0), ("i", 0)]).unwrap();
    assert_eq!(r.hi, Some(BigInt::from(255)));
    assert_eq!(counts(a, &c, &[("c", 255), ("i", 255)]), None);
    let r = counts(a, &c, &[("c", 0), ("i", 256)]).unwrap();
    assert_eq!(r.hi, Some(BigInt::from(44)));
}

#[test]
fn an_unsigned_countdown_stops_before_it_wraps() {
    let c = cfg(
        "t.c",
        "int main() { unsigned x = 0x0ffffff1; while (x > 1) { x -= 2; } return 0; }",
    );
    let t = transitions(&c);
    assert_eq!(t[0].1, "x = (x - 2*$n)");
    let a = c.accel.values().next().unwrap();
    let r = counts(a, &c, &[("x", 0x0ffffff1)]).unwrap();
    assert_eq!(r.hi, Some(BigInt::from((0x0ffffff1 - 1) / 2)));
}

#[test]
fn an_inner_loop_that_resets_lets_the_outer_loop_accelerate() {
    let c = cfg(
        "t.c",
        "int main() { unsigned x = 0, y = 0; while (x < 0x0fffffff) { y = 0; while (y < 10) { y++; } x++; } return 0; }",
    );
    let t = transitions(&c);
    assert_eq!(t.len(), 2, "{t:?}");
    assert_eq!(t[0].1, "y = (y + $n)");
    assert_eq!(t[1].1, "x, y = (x + $n), 10");
}

#[test]
fn a_reset_the_path_reads_starts_the_transition_at_two() {
    let c = cfg(
        "t.lp",
        "void main() { int i, f, s; i = 0; f = 1; s = 0; while (i < 50) { s = s + f; f = 0; i = i + 1; } }",
    );
    // `s = s + f` is a translation only from the second iteration on.
    assert!(c.accel.is_empty(), "{:?}", transitions(&c));
    let c = cfg(
        "t.lp",
        "void main() { int i, f; i = 0; f = 1; while (i < 50 && f >= 0) { f = 0; i = i + 1; } }",
    );
    let a = c.accel.values().next().expect("accelerated");
    assert_eq!(a.min, 2);
    let r = counts(a, &c, &[("i", 0), ("f", 5)]).unwrap();
    assert_eq!((r.lo, r.hi), (BigInt::from(2), Some(BigInt::from(50))));
    assert_eq!(counts(a, &c, &[("i", 0), ("f", -1)]), None);
}

#[test]
fn an_error_inside_the_body_bounds_the_acceleration() {
    let c = cfg(
        "t.lp",
        "void main() { int a, e; e = 0; while (e < 1000) { if (e == a) { ERROR: ; } e = e + 1; } }",
    );
    let a_ = c.accel.values().next().expect("accelerated");
    // Up to the iteration before the one that takes the error branch.
    let r = counts(a_, &c, &[("a", 500), ("e", 0)]).unwrap();
    assert_eq!(r.hi, Some(BigInt::from(500)));
    let r = counts(a_, &c, &[("a", -3), ("e", 0)]).unwrap();
    assert_eq!(r.hi, Some(BigInt::from(1000)));
    assert_eq!(counts(a_, &c, &[("a", 0), ("e", 0)]), None);
}

#[test]
fn a_call_in_the_body_is_followed() {
    let c = cfg(
        "t.c",
        "unsigned f(unsigned z) { return z + 2; } int main() { unsigned x = 0; while (x < 0x0fffffff) { x = f(x); } return 0; }",
    );
    let t = transitions(&c);
    assert_eq!(t.len(), 1, "{t:?}");
    assert!(
        t[0].1.contains("x = (x + 2*$n)") || t[0].1.contains("(x + 2*$n)"),
        "{t:?}"
    );
}

#[test]
fn no_alternative_when_acceleration_is_off() {
    let file = SourceFile::new(
        "t.lp",
        "void main() { int i; i = 0; while (i < 9) i = i + 1; }",
    );
    let ast = crate::syntax::parse(&file).unwrap();
    let a = sema::analyze_with(&ast, &SemaOptions::default()).unwrap();
    let c = Cfg::build(&a.program);
    assert!(c.accel.is_empty());
}

/// The accelerated transitions that pass checks untested.
fn skipping(c: &Cfg) -> Vec<&AccelCount> {
    c.accel.values().filter(|a| a.skips).collect()
}

#[test]
fn a_loop_that_only_checks_cells_jumps_over_iterations() {
    // Counting up or down, checks at the array's cells, one or two of them, in a `for`
    // or a `while`, with C or mathematical integers.
    for (name, text) in [
        (
            "t.lp",
            "void main() { int a[10], j; for (j = 0; j < 10; j++) assert(a[j] != 3); }",
        ),
        (
            "t.lp",
            "void main() { int a[10], j; j = 9; while (j >= 0) { assert(a[j] >= 0); assert(a[j] <= 7); j = j - 1; } }",
        ),
        (
            "t.c",
            "extern void __VERIFIER_assert(int); int main() { int n = 5; int a[n]; for (int j = 0; j < n; j++) __VERIFIER_assert(a[j] >= j); return 0; }",
        ),
    ] {
        assert!(skipping(&cfg(name, text)).is_empty(), "{text}: jumps by default");
        let c = cfg_jumping(name, text);
        let s = skipping(&c);
        assert_eq!(s.len(), 1, "{text}: {:?}", transitions(&c));
        let range = counts(s[0], &c, &[("j", 0)]);
        assert!(range.is_some(), "{text}: no count from j = 0");
    }
    let c = cfg_jumping(
        "t.lp",
        "void main() { int a[10], j; for (j = 0; j < 10; j++) assert(a[j] != 3); }",
    );
    let s = skipping(&c)[0];
    // From j = 4: up to the 6 iterations left, each test of `j < 10` holding.
    let r = counts(s, &c, &[("j", 4)]).unwrap();
    assert_eq!((r.lo, r.hi), (BigInt::from(1), Some(BigInt::from(6))));
}

#[test]
fn a_test_that_leaves_the_loop_or_ends_the_run_is_not_jumped_over() {
    // A search that leaves the loop at a cell, an `assume` on a cell (a run that fails
    // it ends without an error), a write, a call in the test, and a test whose two
    // branches stay in the loop: the iterations after it depend on it.
    for body in [
        "if (a[j] == 3) break; j++;",
        "assume(a[j] != 3); j++;",
        "a[j] = 0; j++;",
        "if (a[j] == 3) { ERROR: ; } a[j + 1] = 1; j++;",
        "if (a[j] == 3) j = j + 2; else j++;",
    ] {
        let c = cfg_jumping(
            "t.lp",
            &format!("void main() {{ int a[10], j; j = 0; while (j < 9) {{ {body} }} }}"),
        );
        assert!(skipping(&c).is_empty(), "{body}: {:?}", transitions(&c));
    }
    // A signed overflow C leaves undefined ends the run: a check that holds one stays.
    let c = cfg_jumping(
        "t.c",
        "extern void __VERIFIER_assert(int); int main() { int a[10]; for (int j = 0; j < 10; j++) __VERIFIER_assert(a[j] + 1 > a[j]); return 0; }",
    );
    assert!(skipping(&c).is_empty(), "{:?}", transitions(&c));
}

#[test]
fn a_count_too_big_for_machine_integers_is_left_to_big_ones() {
    let big: BigInt = BigInt::from(1) << 125;
    let e = Expr::Add(
        Box::new(Expr::Const(big.clone())),
        Box::new(Expr::Const(BigInt::from(1))),
    );
    let small = |_: VarId| None::<i128>;
    let any = |_: VarId| None::<BigInt>;
    assert_eq!(eval::<i128>(&e, &small), None);
    assert_eq!(eval::<BigInt>(&e, &any), Some(big + 1));
    let near: BigInt = BigInt::from(1) << 119;
    let twice = Expr::Scale(BigInt::from(2), Box::new(Expr::Const(near.clone())));
    assert_eq!(
        eval::<i128>(&twice, &small),
        None,
        "2^120 is past the bound"
    );
    assert_eq!(eval::<BigInt>(&twice, &any), Some(near * 2));
}
