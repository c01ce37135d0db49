//! The invariant map of a SAFE verdict: typed formulas over the program's own names,
//! from which the reason, `--json` and the report are rendered. Checked on the paper's
//! Fig. 1 (explicit cell `a[1]`) and on a ∀-program (symbolic cell `a[k]`).

mod common;

use common::lp_dir;
use lpmc::{CheckOptions, Formula, InvariantMap, InvariantPoint, Outcome, Term, TermKind};
use num_bigint::BigInt;

fn proved(file: &str) -> InvariantMap {
    let loaded = lpmc::load_path(&lp_dir().join(file)).expect("loads");
    let r = lpmc::check(&loaded, &CheckOptions::default());
    let reason = r.outcome.reason();
    match r.outcome {
        Outcome::Safe(p) => {
            // The reason prints each invariant's text.
            for i in &p.invariants {
                assert!(
                    reason.contains(&format!("{}: {}", i.at, i.text())),
                    "{reason}"
                );
            }
            p.invariants
        }
        o => panic!("{file}: {}", o.reason()),
    }
}

/// A valuation by name (current values only).
fn valuation<'a>(vals: &'a [(&'a str, i64)]) -> impl Fn(&Term) -> Option<BigInt> + 'a {
    move |t: &Term| {
        if t.entry {
            return None;
        }
        vals.iter()
            .find(|(n, _)| *n == t.name)
            .map(|(_, v)| BigInt::from(*v))
    }
}

#[test]
fn fig1s_loop_invariant_is_a_formula_over_i_and_the_cell_a1() {
    let map = proved("fig1.lp");
    let head = map
        .iter()
        .find(|p| matches!(p.point, InvariantPoint::LoopHead { line: 7, .. }))
        .unwrap_or_else(|| panic!("no invariant at the loop of line 7: {map:?}"));
    assert_eq!(head.at, "loop at line 7");
    let terms = head.formula.terms();
    let cell = terms
        .iter()
        .find(|t| {
            t.kind
                == TermKind::Cell {
                    array: "a".into(),
                    index: 1,
                }
        })
        .unwrap_or_else(|| panic!("no term for a[1] in {}", head.formula));
    assert_eq!(cell.name, "a[1]");
    let i = terms.iter().find(|t| t.name == "i").expect("a term for i");
    assert_eq!(
        i.kind,
        TermKind::Var {
            scope: Some("main".into())
        }
    );
    // The states at the head: i ∈ {0, 1} with a[1] = 1 — and no others.
    let at = |i: i64, a1: i64| {
        let vals = [("i", i), ("a[1]", a1)];
        let holds = head.formula.holds(&valuation(&vals));
        holds
    };
    assert_eq!(at(0, 1), Some(true), "{}", head.formula);
    assert_eq!(at(1, 1), Some(true), "{}", head.formula);
    assert_eq!(at(2, 1), Some(false), "{}", head.formula);
    assert_eq!(at(0, 0), Some(false), "{}", head.formula);
    assert_eq!(at(-1, 1), Some(false), "{}", head.formula);
    // A term without a value leaves the formula undecided.
    assert_eq!(head.formula.holds(&valuation(&[("i", 0)])), None);
}

#[test]
fn a_forall_invariant_quantifies_the_ghost_over_its_range() {
    let map = proved("sym_init_check.lp");
    let after = map
        .iter()
        .find(|p| matches!(p.point, InvariantPoint::AfterLoop { line: 8, .. }))
        .unwrap_or_else(|| panic!("no ∀ after the loop of line 8: {map:?}"));
    assert_eq!(after.at, "after the loop at line 8");
    let Formula::Forall(ghosts, body) = &after.formula else {
        panic!("not a ∀: {}", after.formula);
    };
    assert_eq!(ghosts, &["k".to_string()]);
    let Formula::Implies(range, claim) = body.as_ref() else {
        panic!("not K → C: {body}");
    };
    // The range mentions the ghost only; the claim the symbolic cell a[k].
    assert!(range
        .terms()
        .iter()
        .all(|t| t.kind == TermKind::Ghost { ghost: 0 } && t.name == "k"));
    assert!(claim.terms().iter().all(|t| t.kind
        == TermKind::SymCell {
            array: "a".into(),
            ghost: 0
        }
        && t.name == "a[k]"));
    let in_range = |k: i64| range.holds(&valuation(&[("k", k)]));
    assert_eq!(in_range(0), Some(true), "{range}");
    assert_eq!(in_range(999), Some(true), "{range}");
    assert_eq!(in_range(1000), Some(false), "{range}");
    assert_eq!(in_range(-1), Some(false), "{range}");
    let claim_at = |v: i64| claim.holds(&valuation(&[("a[k]", v)]));
    assert_eq!(claim_at(0), Some(true), "{claim}");
    assert_eq!(claim_at(1), Some(false), "{claim}");
    // A quantified formula is not evaluated at one point.
    assert_eq!(
        after.formula.holds(&valuation(&[("k", 0), ("a[k]", 0)])),
        None
    );
    // The loop head's invariant is quantified too.
    let head = map
        .iter()
        .find(|p| matches!(p.point, InvariantPoint::LoopHead { line: 8, .. }))
        .expect("an invariant at the loop head");
    assert!(
        matches!(head.formula, Formula::Forall(..)),
        "{}",
        head.formula
    );
}

#[test]
fn the_json_carries_each_invariants_text_and_structure() {
    let map = proved("fig1.lp");
    let json = serde_json::to_value(&map).expect("serialises");
    let first = &json[0];
    assert_eq!(first["at"], "loop at line 7");
    assert_eq!(first["formula"], map.points[0].text());
    assert_eq!(first["point"]["kind"], "loop_head");
    assert_eq!(first["point"]["line"], 7);
    // One disjunct (`0 ≤ i ≤ 1 ∧ a[1] = 1`): a conjunction of rows.
    assert_eq!(first["tree"]["op"], "and");
    let row = &first["tree"]["args"][0]["row"];
    assert!(row["terms"][0]["term"]["name"].is_string(), "{row}");
}
