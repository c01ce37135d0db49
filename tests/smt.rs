//! Behaviour tests of the SMT layer through its cvc5 backend: linking, sorts, models,
//! arrays, unsat cores, incrementality and error handling.

use std::collections::BTreeMap;
use std::time::Instant;

use lpmc::smt::{
    check_cvc5_library, cvc5_version, Cvc5Backend, Label, Logic, SatResult, SmtBackend, SmtConfig,
    SmtError, Sort, Term, UnknownReason, Value, CVC5_VERSION,
};
use num_bigint::BigInt;
use num_rational::BigRational;

type R = Result<(), SmtError>;

fn q(n: i64, d: i64) -> BigRational {
    BigRational::new(BigInt::from(n), BigInt::from(d))
}

fn backend(logic: Logic) -> Cvc5Backend {
    match Cvc5Backend::new(SmtConfig::new(logic)) {
        Ok(b) => b,
        Err(e) => panic!("cannot start cvc5: {e}"),
    }
}

fn cores(logic: Logic) -> Cvc5Backend {
    match Cvc5Backend::new(SmtConfig::new(logic).with_unsat_cores(true)) {
        Ok(b) => b,
        Err(e) => panic!("cannot start cvc5: {e}"),
    }
}

/// CI's check that linking works: x > 0 is sat and the model satisfies it.
#[test]
fn linking_trivial_query() -> R {
    let mut s = backend(Logic::QfLia);
    let x = s.declare("x", Sort::Int)?;
    s.assert(&Term::gt(Term::sym(x), Term::int(0)))?;
    assert_eq!(s.check()?, SatResult::Sat);
    match s.value(x)? {
        Value::Int(v) => assert!(v > BigInt::from(0), "model x = {v} violates x > 0"),
        other => panic!("x has a non-integer value {other}"),
    }
    Ok(())
}

#[test]
fn library_is_the_pinned_version() -> R {
    let v = cvc5_version();
    assert!(
        v.starts_with(CVC5_VERSION),
        "linked cvc5 is {v}, expected {CVC5_VERSION}"
    );
    check_cvc5_library()
}

#[test]
fn lia_unsat() -> R {
    let mut s = backend(Logic::QfLia);
    let x = s.declare("x", Sort::Int)?;
    // 0 < 2x < 2 has no integer solution (it has a rational one).
    let two_x = Term::scale_int(2, Term::sym(x));
    s.assert(&Term::lt(Term::int(0), two_x.clone()))?;
    s.assert(&Term::lt(two_x, Term::int(2)))?;
    assert_eq!(s.check()?, SatResult::Unsat);
    Ok(())
}

#[test]
fn lra_exact_rational_model() -> R {
    let mut s = backend(Logic::QfLra);
    let x = s.declare("x", Sort::Real)?;
    let y = s.declare("y", Sort::Real)?;
    // 2x = 1 (an integer literal in a real context), 3y = x - 1.
    s.assert(&Term::eq(Term::scale_int(2, Term::sym(x)), Term::int(1)))?;
    s.assert(&Term::eq(
        Term::scale_int(3, Term::sym(y)),
        Term::sym(x) - Term::real(q(1, 1)),
    ))?;
    assert_eq!(s.check()?, SatResult::Sat);
    assert_eq!(s.value(x)?, Value::Real(q(1, 2)));
    assert_eq!(s.value(y)?, Value::Real(q(-1, 6)));
    // A rational coefficient on a real symbol, and eval of a compound term.
    let e = Term::scale(q(2, 3), Term::sym(y)) + Term::sym(x);
    assert_eq!(s.eval(&e)?, Value::Real(q(7, 18)));
    Ok(())
}

#[test]
fn mixed_int_real_is_promoted() -> R {
    let mut s = backend(Logic::QfLira);
    let n = s.declare("n", Sort::Int)?;
    let r = s.declare("r", Sort::Real)?;
    // r = n / 2 (as 1/2 * n), 1 < r < 2  ==>  n = 3.
    s.assert(&Term::eq(Term::sym(r), Term::scale(q(1, 2), Term::sym(n))))?;
    s.assert(&Term::lt(Term::int(1), Term::sym(r)))?;
    s.assert(&Term::lt(Term::sym(r), Term::int(2)))?;
    assert_eq!(s.check()?, SatResult::Sat);
    assert_eq!(s.value(n)?, Value::Int(BigInt::from(3)));
    assert_eq!(s.value(r)?, Value::Real(q(3, 2)));
    Ok(())
}

#[test]
fn big_integers_round_trip() -> R {
    let mut s = backend(Logic::QfLia);
    let x = s.declare("x", Sort::Int)?;
    let y = s.declare("y", Sort::Int)?;
    let big: BigInt = BigInt::from(1) << 80;
    s.assert(&Term::eq(Term::sym(x), Term::Int(big.clone())))?;
    s.assert(&Term::eq(Term::sym(y), -Term::sym(x) - Term::int(1)))?;
    assert_eq!(s.check()?, SatResult::Sat);
    assert_eq!(s.value(x)?, Value::Int(big.clone()));
    assert_eq!(s.value(y)?, Value::Int(-big - 1));
    Ok(())
}

#[test]
fn div_and_mod_by_constants() -> R {
    let mut s = backend(Logic::QfLia);
    let x = s.declare("x", Sort::Int)?;
    s.assert(&Term::eq(Term::sym(x), Term::int(-7)))?;
    assert_eq!(s.check()?, SatResult::Sat);
    // SMT-LIB semantics: -7 = 3 * (-3) + 2.
    assert_eq!(
        s.eval(&Term::int_div(Term::sym(x), 3))?,
        Value::Int(BigInt::from(-3))
    );
    assert_eq!(
        s.eval(&Term::modulo(Term::sym(x), 3))?,
        Value::Int(BigInt::from(2))
    );
    assert!(matches!(
        s.eval(&Term::modulo(Term::sym(x), 0)),
        Err(SmtError::NonPositiveDivisor(_))
    ));
    Ok(())
}

#[test]
fn alia_store_select_unsat() -> R {
    let mut s = backend(Logic::QfAlia);
    let a0 = s.declare("a0", Sort::IntArray)?;
    let a1 = s.declare("a1", Sort::IntArray)?;
    s.assert(&Term::eq(
        Term::sym(a1),
        Term::store(Term::sym(a0), Term::int(1), Term::int(5)),
    ))?;
    s.assert(&Term::ne(
        Term::select(Term::sym(a1), Term::int(1)),
        Term::int(5),
    ))?;
    assert_eq!(s.check()?, SatResult::Unsat);
    Ok(())
}

#[test]
fn alia_array_model_read_back() -> R {
    let mut s = backend(Logic::QfAlia);
    let a = s.declare("a", Sort::IntArray)?;
    let b = s.declare("b", Sort::IntArray)?;
    let i = s.declare("i", Sort::Int)?;
    s.assert(&Term::eq(
        Term::select(Term::sym(a), Term::int(1)),
        Term::int(5),
    ))?;
    s.assert(&Term::eq(
        Term::select(Term::sym(a), Term::int(-2)),
        Term::int(7),
    ))?;
    s.assert(&Term::eq(Term::sym(i), Term::int(4)))?;
    s.assert(&Term::eq(
        Term::sym(b),
        Term::store(Term::const_array(0), Term::sym(i), Term::int(9)),
    ))?;
    assert_eq!(s.check()?, SatResult::Sat);
    let va = s.value(a)?;
    assert_eq!(va.array_get(&BigInt::from(1)), Some(&BigInt::from(5)));
    assert_eq!(va.array_get(&BigInt::from(-2)), Some(&BigInt::from(7)));
    // The value agrees with the solver's own reading of other cells.
    let at3 = s.eval(&Term::select(Term::sym(a), Term::int(3)))?;
    assert_eq!(
        va.array_get(&BigInt::from(3)).cloned().map(Value::Int),
        Some(at3)
    );
    let expected_b = Value::IntArray {
        default: BigInt::from(0),
        entries: BTreeMap::from([(BigInt::from(4), BigInt::from(9))]),
    };
    assert_eq!(s.value(b)?, expected_b);
    Ok(())
}

#[test]
fn unsat_core_names_the_conflicting_labels() -> R {
    let mut s = cores(Logic::QfLia);
    let x = s.declare("x", Sort::Int)?;
    let y = s.declare("y", Sort::Int)?;
    s.assert_labeled(Label(1), &Term::gt(Term::sym(x), Term::int(0)))?;
    s.assert_labeled(Label(2), &Term::gt(Term::sym(y), Term::int(0)))?;
    s.assert_labeled(Label(3), &Term::lt(Term::sym(x), Term::int(0)))?;
    assert_eq!(s.check()?, SatResult::Unsat);
    assert_eq!(s.unsat_core()?, vec![Label(1), Label(3)]);
    Ok(())
}

#[test]
fn unsat_core_respects_scopes_and_unlabeled_assertions() -> R {
    let mut s = cores(Logic::QfAlia);
    let a = s.declare("a", Sort::IntArray)?;
    let i = s.declare("i", Sort::Int)?;
    s.assert(&Term::eq(Term::sym(i), Term::int(2)))?;
    s.assert_labeled(
        Label(10),
        &Term::eq(Term::select(Term::sym(a), Term::sym(i)), Term::int(1)),
    )?;
    s.push()?;
    s.assert_labeled(
        Label(11),
        &Term::eq(Term::select(Term::sym(a), Term::int(2)), Term::int(3)),
    )?;
    assert_eq!(s.check()?, SatResult::Unsat);
    assert_eq!(s.unsat_core()?, vec![Label(10), Label(11)]);
    s.pop()?;
    assert_eq!(s.check()?, SatResult::Sat);
    assert!(matches!(s.unsat_core(), Err(SmtError::NotUnsat)));
    // Unlabeled assertions alone unsat: the core is empty.
    s.push()?;
    s.assert(&Term::ne(Term::sym(i), Term::int(2)))?;
    assert_eq!(s.check()?, SatResult::Unsat);
    assert_eq!(s.unsat_core()?, Vec::<Label>::new());
    s.pop()?;
    Ok(())
}

#[test]
fn check_assuming_does_not_keep_assumptions() -> R {
    let mut s = backend(Logic::QfLia);
    let x = s.declare("x", Sort::Int)?;
    s.assert(&Term::ge(Term::sym(x), Term::int(0)))?;
    let neg = Term::lt(Term::sym(x), Term::int(0));
    assert_eq!(s.check_assuming(&[neg])?, SatResult::Unsat);
    assert_eq!(s.check()?, SatResult::Sat);
    Ok(())
}

#[test]
fn push_pop_restores_satisfiability() -> R {
    let mut s = backend(Logic::QfLia);
    let x = s.declare("x", Sort::Int)?;
    s.assert(&Term::ge(Term::sym(x), Term::int(3)))?;
    s.push()?;
    s.assert(&Term::le(Term::sym(x), Term::int(2)))?;
    assert_eq!(s.check()?, SatResult::Unsat);
    s.pop()?;
    assert_eq!(s.check()?, SatResult::Sat);
    assert!(matches!(s.pop(), Err(SmtError::PopUnderflow)));
    Ok(())
}

/// 1000 incremental push/assert/check/pop queries in QF_LRA; prints the time per query.
#[test]
fn many_incremental_queries() -> R {
    let mut s = backend(Logic::QfLra);
    let x = s.declare("x", Sort::Real)?;
    let y = s.declare("y", Sort::Real)?;
    s.assert(&Term::le(Term::sym(x) + Term::sym(y), Term::int(10)))?;
    let n = 1000;
    let start = Instant::now();
    let mut sat = 0;
    for k in 0..n {
        s.push()?;
        // x >= k/100 and y >= 5: sat iff k/100 <= 5.
        s.assert(&Term::ge(Term::sym(x), Term::real(q(k, 100))))?;
        s.assert(&Term::ge(Term::sym(y), Term::int(5)))?;
        match s.check()? {
            SatResult::Sat => sat += 1,
            SatResult::Unsat => {}
            other => panic!("unexpected answer {other}"),
        }
        s.pop()?;
    }
    let per = start.elapsed() / n as u32;
    eprintln!("QF_LRA incremental push/assert/check/pop: {per:?} per query");
    assert_eq!(sat, 501);
    Ok(())
}

#[test]
fn timeout_config_is_accepted() -> R {
    let cfg = SmtConfig::new(Logic::QfLia).with_timeout_ms(2000);
    let mut s = Cvc5Backend::new(cfg)?;
    let x = s.declare("x", Sort::Int)?;
    s.assert(&Term::gt(Term::sym(x), Term::int(0)))?;
    assert_eq!(s.check()?, SatResult::Sat);
    Ok(())
}

#[test]
fn tiny_timeout_never_claims_sat_on_an_unsat_query() -> R {
    // Pigeonhole-like: 12 distinct integers in [0, 10].
    let cfg = SmtConfig::new(Logic::QfLia).with_timeout_ms(1);
    let mut s = Cvc5Backend::new(cfg)?;
    let mut xs = Vec::new();
    for k in 0..12 {
        let x = s.declare(&format!("x{k}"), Sort::Int)?;
        s.assert(&Term::and([
            Term::ge(Term::sym(x), Term::int(0)),
            Term::le(Term::sym(x), Term::int(10)),
        ]))?;
        xs.push(Term::sym(x));
    }
    s.assert(&Term::Distinct(xs))?;
    match s.check()? {
        SatResult::Unsat | SatResult::Unknown(UnknownReason::Timeout) => Ok(()),
        other => panic!("unexpected answer {other}"),
    }
}

#[test]
fn misuse_is_an_error_not_a_panic() -> R {
    let mut s = cores(Logic::QfLia);
    let x = s.declare("x", Sort::Int)?;
    assert!(matches!(s.value(x), Err(SmtError::NotSat)));
    assert!(matches!(s.unsat_core(), Err(SmtError::NotUnsat)));
    s.assert(&Term::gt(Term::sym(x), Term::int(0)))?;
    assert_eq!(s.check()?, SatResult::Sat);
    assert!(matches!(s.unsat_core(), Err(SmtError::NotUnsat)));
    // Any new assertion ends the validity of the model.
    s.assert(&Term::gt(Term::sym(x), Term::int(1)))?;
    assert!(matches!(s.value(x), Err(SmtError::NotSat)));
    // Ill-sorted and foreign terms.
    assert!(matches!(
        s.assert(&Term::sym(x)),
        Err(SmtError::NotAFormula(Sort::Int))
    ));
    assert!(matches!(
        s.assert(&Term::not(Term::int(1))),
        Err(SmtError::IllSorted {
            operator: "not",
            ..
        })
    ));
    let foreign = lpmc::smt::SymId(99);
    assert!(matches!(
        s.assert(&Term::gt(Term::sym(foreign), Term::int(0))),
        Err(SmtError::UnknownSymbol(_))
    ));
    assert!(matches!(
        s.declare("bad\0name", Sort::Int),
        Err(SmtError::InvalidName(_))
    ));
    // Arrays in QF_LIA: the solver's rejection comes back as a typed error.
    let a = s.declare("a", Sort::IntArray)?;
    s.assert(&Term::eq(
        Term::select(Term::sym(a), Term::int(0)),
        Term::int(1),
    ))?;
    assert!(matches!(
        s.check(),
        Err(SmtError::Solver {
            operation: "check_sat",
            ..
        })
    ));
    // Disabled features.
    let mut plain = backend(Logic::QfLia);
    let y = plain.declare("y", Sort::Int)?;
    plain.assert_labeled(Label(1), &Term::lt(Term::sym(y), Term::sym(y)))?;
    assert_eq!(plain.check()?, SatResult::Unsat);
    assert!(matches!(plain.unsat_core(), Err(SmtError::CoresDisabled)));
    let mut nomodel = Cvc5Backend::new(SmtConfig::new(Logic::QfLia).with_models(false))?;
    let z = nomodel.declare("z", Sort::Int)?;
    assert_eq!(nomodel.check()?, SatResult::Sat);
    assert!(matches!(nomodel.value(z), Err(SmtError::ModelsDisabled)));
    Ok(())
}

#[test]
fn independent_backends_do_not_share_state() -> R {
    let mut a = backend(Logic::QfLia);
    let mut b = backend(Logic::QfLia);
    let xa = a.declare("x", Sort::Int)?;
    let xb = b.declare("x", Sort::Int)?;
    a.assert(&Term::lt(Term::sym(xa), Term::sym(xa)))?;
    b.assert(&Term::eq(Term::sym(xb), Term::int(2)))?;
    assert_eq!(a.check()?, SatResult::Unsat);
    assert_eq!(b.check()?, SatResult::Sat);
    assert_eq!(b.value(xb)?, Value::Int(BigInt::from(2)));
    Ok(())
}

#[test]
fn terms_render_as_smtlib() {
    use lpmc::smt::SymId;
    let t = Term::implies(
        Term::le(Term::sym(SymId(0)) + Term::int(-3), Term::real(q(1, 2))),
        Term::eq(
            Term::select(Term::sym(SymId(1)), Term::int(0)),
            Term::int(4),
        ),
    );
    assert_eq!(
        t.to_string(),
        "(=> (<= (+ s0 (- 3)) (/ 1 2)) (= (select s1 0) 4))"
    );
}

/// The constraints of `minimal_cores_are_minimal`: a cycle x <= y <= z <= w < x with a
/// shortcut x <= z and a few irrelevant facts.
fn chain(s: &mut Cvc5Backend, labels: &[u32]) -> Result<SatResult, SmtError> {
    let v: Vec<Term> = ["x", "y", "z", "w"]
        .iter()
        .map(|n| s.declare(n, Sort::Int).map(Term::sym))
        .collect::<Result<_, _>>()?;
    let all = [
        (1, Term::le(v[0].clone(), v[1].clone())),
        (2, Term::le(v[1].clone(), v[2].clone())),
        (3, Term::le(v[2].clone(), v[3].clone())),
        (4, Term::lt(v[3].clone(), v[0].clone())),
        (5, Term::le(v[0].clone(), v[2].clone())),
        (6, Term::ge(v[0].clone(), Term::int(0))),
        (7, Term::le(v[1].clone() + v[3].clone(), Term::int(100))),
    ];
    for (l, f) in all {
        if labels.contains(&l) {
            s.assert_labeled(Label(l), &f)?;
        }
    }
    s.check()
}

#[test]
fn minimal_cores_are_minimal() -> R {
    let cfg = SmtConfig::new(Logic::QfLia).with_minimal_cores(true);
    let mut s = Cvc5Backend::new(cfg.clone())?;
    assert_eq!(chain(&mut s, &[1, 2, 3, 4, 5, 6, 7])?, SatResult::Unsat);
    let core: Vec<u32> = s.unsat_core()?.into_iter().map(|l| l.0).collect();
    assert!(core.contains(&3) && core.contains(&4), "core {core:?}");
    assert!(!core.contains(&6) && !core.contains(&7), "core {core:?}");
    // The core is unsat on its own, and dropping any label makes it sat.
    assert_eq!(
        chain(&mut Cvc5Backend::new(cfg.clone())?, &core)?,
        SatResult::Unsat
    );
    for drop in &core {
        let rest: Vec<u32> = core.iter().copied().filter(|l| l != drop).collect();
        let mut t = Cvc5Backend::new(cfg.clone())?;
        assert_eq!(
            chain(&mut t, &rest)?,
            SatResult::Sat,
            "core {core:?} minus {drop}"
        );
    }
    // After minimisation the backend still answers later queries correctly.
    assert!(matches!(
        s.value(lpmc::smt::SymId(0)),
        Err(SmtError::NotSat)
    ));
    s.push()?;
    assert_eq!(s.check()?, SatResult::Unsat);
    s.pop()?;
    Ok(())
}
