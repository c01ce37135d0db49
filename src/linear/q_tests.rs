//! [`Q`] against [`BigRational`]: every operation gives the same value, on random values
//! that are small, near the `i64` limits (where the small path overflows), or beyond
//! them; and every result is stored small exactly when it fits.

use std::collections::hash_map::DefaultHasher;
use std::hash::{Hash, Hasher};

use num_bigint::BigInt;
use num_rational::BigRational;
use num_traits::{One, Signed, ToPrimitive, Zero};
use proptest::prelude::*;

use super::Q;

/// An `i64` that is small, near a limit, near `2^32`, or near `√i64::MAX` (whose
/// products are near the limit).
fn int() -> impl Strategy<Value = i64> {
    prop_oneof![
        -20i64..=20,
        any::<i64>(),
        (0i64..64).prop_map(|k| i64::MAX - k),
        (0i64..64).prop_map(|k| i64::MIN + k),
        (-64i64..64).prop_map(|k| (1i64 << 32) + k),
        (-64i64..64).prop_map(|k| 3_037_000_499 + k),
        (-64i64..64).prop_map(|k| -3_037_000_499 + k),
    ]
}

/// A rational with `i64` parts, or one with an integer or parts just beyond `i64`, or
/// an arbitrary one with `i128` parts.
fn big() -> impl Strategy<Value = BigRational> {
    let nz = int().prop_filter("non-zero", |d| *d != 0);
    prop_oneof![
        4 => (int(), nz).prop_map(|(n, d)| BigRational::new(n.into(), d.into())),
        3 => int().prop_map(|n| BigRational::from_integer(n.into())),
        1 => (-64i128..64, prop::bool::ANY).prop_map(|(k, neg)| {
            let v = i128::from(i64::MAX) + 1 + k;
            BigRational::from_integer(if neg { -v } else { v }.into())
        }),
        1 => (any::<i128>(), 1i128..=i128::MAX)
            .prop_map(|(n, d)| BigRational::new(n.into(), d.into())),
        3 => (wide(), wide().prop_filter("non-zero", |d| *d != 0))
            .prop_map(|(n, d)| BigRational::new(n.into(), d.into())),
    ]
}

/// An `i128` beyond `i64`: near `2^64`, near `√i128::MAX` (whose products are near the
/// limit), or near the limits themselves, where the `i128` route of big values overflows.
fn wide() -> impl Strategy<Value = i128> {
    let near = |c: i128| {
        (-64i128..64, prop::bool::ANY).prop_map(move |(k, neg)| {
            let v = c + k;
            if neg {
                -v
            } else {
                v
            }
        })
    };
    prop_oneof![
        near(1i128 << 64),
        near(13_043_817_825_332_782_212),
        near(i128::MAX - 64),
        (0i128..64).prop_map(|k| i128::MIN + k),
        int().prop_map(i128::from),
    ]
}

fn fits(b: &BigRational) -> bool {
    b.numer().to_i64().is_some() && b.denom().to_i64().is_some()
}

/// `q` has the value `b`, stored small exactly when it fits.
fn same(q: &Q, b: &BigRational) -> Result<(), TestCaseError> {
    prop_assert_eq!(&q.to_big(), b);
    prop_assert_eq!(q.small().is_some(), fits(b), "representation of {}", b);
    prop_assert_eq!(q.to_string(), b.to_string());
    prop_assert_eq!(q.numer(), b.numer().clone());
    prop_assert_eq!(q.denom(), b.denom().clone());
    Ok(())
}

fn hash(q: &Q) -> u64 {
    let mut h = DefaultHasher::new();
    q.hash(&mut h);
    h.finish()
}

/// A value of `Q` built without going through `BigRational` when it fits.
fn q_of(b: &BigRational) -> Q {
    match (b.numer().to_i64(), b.denom().to_i64()) {
        (Some(n), Some(d)) => Q::ratio(n, d),
        _ => Q::from(b.clone()),
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn unary_operations_agree(a in big()) {
        let q = q_of(&a);
        same(&q, &a)?;
        same(&Q::from(a.clone()), &a)?;
        same(&-&q, &-&a)?;
        same(&q.abs(), &a.abs())?;
        same(&q.signum(), &a.signum())?;
        same(&q.floor(), &a.floor())?;
        same(&q.ceil(), &a.ceil())?;
        prop_assert_eq!(q.to_integer(), a.to_integer());
        prop_assert_eq!(q.is_integer(), a.is_integer());
        prop_assert_eq!(q.is_zero(), a.is_zero());
        prop_assert_eq!(q.is_one(), a.is_one());
        prop_assert_eq!(q.is_positive(), a.is_positive());
        prop_assert_eq!(q.is_negative(), a.is_negative());
        if !a.is_zero() {
            same(&q.recip(), &a.recip())?;
        }
        let parsed: Q = a.to_string().parse().expect("parses");
        same(&parsed, &a)?;
        let unreduced = format!("{}/{}", a.numer() * 3, a.denom() * 3);
        same(&unreduced.parse::<Q>().expect("parses"), &a)?;
        let by_zero = format!("{}/0", a.numer());
        prop_assert!(by_zero.parse::<Q>().is_err());
        prop_assert_eq!(q.to_i64_exact(), a.is_integer().then(|| a.numer().to_i64()).flatten());
    }

    #[test]
    fn binary_operations_agree(a in big(), b in big()) {
        let (x, y) = (q_of(&a), q_of(&b));
        same(&(&x + &y), &(&a + &b))?;
        same(&(&x - &y), &(&a - &b))?;
        same(&(&x * &y), &(&a * &b))?;
        if !b.is_zero() {
            same(&(&x / &y), &(&a / &b))?;
            same(&(&x % &y), &(&a % &b))?;
        }
        prop_assert_eq!(x.cmp(&y), a.cmp(&b));
        prop_assert_eq!(x == y, a == b);
        let mut z = x.clone();
        z += &y;
        z -= y.clone();
        prop_assert!(z == x, "x + y - y = {} for x = {}", z, x);
        z *= &y;
        same(&z, &(&a * &b))?;
    }

    #[test]
    fn equal_values_are_equal_and_hash_alike(a in big(), b in big()) {
        // a + b - b is built through a different route (and maybe a big intermediate).
        let (x, y) = (q_of(&a), q_of(&b));
        let back = &(&x + &y) - &y;
        prop_assert!(back == x);
        prop_assert_eq!(back.cmp(&x), std::cmp::Ordering::Equal);
        prop_assert_eq!(hash(&back), hash(&x));
        if !b.is_zero() {
            let via_big = Q::from(a.clone() * b.clone()) / Q::from(b.clone());
            prop_assert!(via_big == x);
            prop_assert_eq!(hash(&via_big), hash(&x));
        }
    }

    /// A chain of operations, so that values cross the `i64` limits and come back.
    #[test]
    fn chains_agree(start in big(), steps in prop::collection::vec((0u8..4, big()), 1..12)) {
        let mut q = q_of(&start);
        let mut b = start;
        for (op, v) in steps {
            let w = q_of(&v);
            match op {
                0 => { q += &w; b += &v; }
                1 => { q -= &w; b -= &v; }
                2 => { q *= &w; b *= &v; }
                _ => {
                    if v.is_zero() {
                        continue;
                    }
                    q /= &w;
                    b /= &v;
                }
            }
            same(&q, &b)?;
        }
    }
}

#[test]
fn limits() {
    let max = Q::from_i64(i64::MAX);
    let min = Q::from_i64(i64::MIN);
    let one = Q::one();
    let big_max = BigRational::from_integer(BigInt::from(i64::MAX));
    let big_min = BigRational::from_integer(BigInt::from(i64::MIN));
    assert_eq!((&max + &one).to_big(), &big_max + BigRational::one());
    assert!((&max + &one).small().is_none());
    assert_eq!(&max + &one - &one, max);
    assert!((&(&max + &one) - &one).small().is_some());
    assert_eq!((-&min).to_big(), -&big_min);
    assert!((-&min).small().is_none());
    assert_eq!(-(-&min), min);
    assert_eq!((&min * &min).to_big(), &big_min * &big_min);
    assert_eq!(
        Q::ratio(1, i64::MIN).to_big(),
        BigRational::new(1.into(), big_min.to_integer())
    );
    assert!(Q::ratio(1, i64::MIN).small().is_none());
    assert_eq!(min.recip().to_big(), big_min.recip());
    assert_eq!(Q::ratio(3, -6), Q::ratio(-1, 2));
    assert_eq!(Q::ratio(3, -6).to_string(), "-1/2");
    assert_eq!(Q::ratio(i64::MIN, i64::MIN), one);
    assert_eq!(std::mem::size_of::<Q>(), 16);
}

/// Arithmetic on big values counts as work in proportion to the operands' sizes, so that a
/// work budget ([`crate::limits::Deadline::sub_work`]) ends a projection whose numbers grow
/// at the same point on every machine; arithmetic on small values counts nothing.
#[test]
fn big_arithmetic_counts_work_by_size() {
    let small = Q::from_i64(3);
    let before = crate::limits::work_done();
    let _ = &small * &small + &small;
    assert_eq!(
        crate::limits::work_done(),
        before,
        "small arithmetic is not counted"
    );
    let word = Q::from_integer(BigInt::one() << 64);
    let huge = Q::from_integer(BigInt::one() << 640);
    let before = crate::limits::work_done();
    let _ = &word * &word;
    let after_word = crate::limits::work_done() - before;
    let before = crate::limits::work_done();
    let _ = &huge * &huge;
    let after_huge = crate::limits::work_done() - before;
    assert!(after_word > 0, "a big product is counted");
    // 641 bits against 65: several times the words, the square of that in work.
    assert!(
        after_huge > 10 * after_word,
        "work grows with the square of the size: {after_word} vs {after_huge}"
    );
}
