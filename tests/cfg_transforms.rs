//! The CFG transformations a program gets when it is loaded: the errors a property counts
//! (`cfg::keep_errors`), and reads of a cell that an earlier read already gave
//! (`cfg::reuse_reads`), seen through the interpreter and the CFG's text.

use lpmc::{load_with, run_inputs, ArrayBounds, LoadOptions, Property, RunOutcome, SourceFile};

fn outcome(src: &str, property: Property, inputs: &[i64]) -> RunOutcome {
    let opts = LoadOptions {
        property,
        ..LoadOptions::default()
    };
    let l = load_with(SourceFile::new("t.c", src), &opts).expect("loads");
    run_inputs(&l, inputs.iter().map(|i| (*i).into()).collect(), 10_000).outcome
}

#[test]
fn a_property_counts_only_its_own_errors() {
    let src = "extern int __VERIFIER_nondet_int(void);\n\
               void reach_error(void);\n\
               int main() { int a[4]; int x = __VERIFIER_nondet_int();\n\
               if (x == 7) reach_error();\n\
               if (x == 8) { int y = x + 2147483647; }\n\
               if (x == 9) a[x] = 1;\n\
               return 0; }";
    use Property::*;
    let err = |o: RunOutcome| o.is_error();
    // x = 7: only unreach-call sees an error.
    assert!(err(outcome(src, UnreachCall, &[7])));
    assert!(!err(outcome(src, NoOverflow, &[7])));
    assert!(!err(outcome(src, ValidMemsafety, &[7])));
    // x = 8: the overflow is an error only under no-overflow.
    assert!(err(outcome(src, NoOverflow, &[8])));
    assert!(!err(outcome(src, UnreachCall, &[8])));
    assert!(!err(outcome(src, ValidMemsafety, &[8])));
    // x = 9: the write out of bounds is an error only under valid-memsafety.
    assert!(err(outcome(src, ValidMemsafety, &[9])));
    assert!(!err(outcome(src, UnreachCall, &[9])));
    assert!(!err(outcome(src, NoOverflow, &[9])));
}

fn cfg_text(src: &str, bounds: ArrayBounds) -> String {
    let opts = LoadOptions {
        array_bounds: Some(bounds),
        no_accel: true,
        ..LoadOptions::default()
    };
    load_with(SourceFile::new("t.c", src), &opts)
        .expect("loads")
        .cfg_text()
}

/// The array reads and writes in a CFG's text (`a[`, not the temporaries `#a[]`).
fn count_reads(text: &str) -> usize {
    text.matches("a[").count() - text.matches("#a[").count()
}

#[test]
fn a_second_read_of_the_same_cell_takes_the_first_ones_value() {
    let src = "extern int __VERIFIER_nondet_int(void);\n\
               void f(int v) { if (v % 2 != 0) { ERROR: ; } }\n\
               int main() { int a[10]; int i = __VERIFIER_nondet_int();\n\
               if (a[i] % 2 == 0) f(a[i]);\n\
               return 0; }";
    let undefined = cfg_text(src, ArrayBounds::Undefined);
    // One read left (into the temporary); the branch and the call use it.
    assert_eq!(count_reads(&undefined), 1, "{undefined}");
    assert!(undefined.contains("#read = #a[]"), "{undefined}");
    assert!(undefined.contains("if (((#a[] % 2) == 0))"), "{undefined}");
    // Under EUREKA's rule a read outside draws anew: both reads stay.
    let nondet = cfg_text(src, ArrayBounds::Nondet);
    assert_eq!(count_reads(&nondet), 2, "{nondet}");
}

#[test]
fn a_write_an_index_change_or_a_call_ends_what_a_read_gave() {
    let pre = "extern int __VERIFIER_nondet_int(void);\nint a[10];\n\
               void g() { a[3] = 1; }\n\
               int main() { int i = __VERIFIER_nondet_int(); int c = __VERIFIER_nondet_int(); int x;\n";
    let cases = [
        // (body, accesses of `a` left in main: reads and writes)
        ("x = a[i]; a[i] = 1; x = a[i];", 3),
        ("x = a[i]; i = 4; x = a[i];", 2),
        ("x = a[i]; g(); x = a[i];", 2),
        // A read under `&&` does not make the cell available after it.
        ("x = c && a[i]; x = a[i];", 2),
        // Both branches read it: available after the join, one read each.
        ("if (c) x = a[i]; else x = a[i] + 1; x = x + a[i];", 2),
        // Nothing in between: one read.
        ("x = a[i]; x = x + a[i];", 1),
        // A write keeps its own read.
        ("x = a[i]; a[c] = a[i];", 3),
    ];
    for (body, want) in cases {
        let t = cfg_text(&format!("{pre}{body} return x; }}"), ArrayBounds::Undefined);
        // The `g` body's write counts once.
        assert_eq!(count_reads(&t) - 1, want, "{body}\n{t}");
    }
}
