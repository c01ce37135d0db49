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
