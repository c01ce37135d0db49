//! How the successive values of one draw site relate within a run: its *shape*.
//!
//! A program that fills an array from a nondet call in a loop asks one site for every
//! cell. Drawn independently from the program's constants and small values, such an
//! array has many equal cells, and sorting or search loops then run for billions of
//! steps before they reach a bug that any array of distinct cells shows at once (a
//! selection sort whose check fails once the two least cells differ). Other bugs show
//! only on arrays with structure: sorted, constant, or constant but for one cell (a
//! bubble sort that ends after one pass). So each site of a run takes one shape; the
//! shapes rotate over the runs, and the sites of one run start at different points of
//! the rotation, so that a program with several sites sees them mixed.
//!
//! An array with arbitrary contents (`ArrayInit` without values) is shaped the same way,
//! by cell index instead of by the order of the draws.

/// How one site's values relate within a run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Shape {
    /// Values spread over ±2³¹: the cells of a filled array are almost surely distinct.
    Wide,
    /// `b, b−1, b−2, …` from a guided first value `b`: a descending array.
    Descending,
    /// Each value drawn as the guided oracle draws it (the program's constants, small
    /// values, sometimes wider ones).
    Guided,
    /// `b, b−1, b−1, …`: constant but for the first value, greater by one.
    OneOff,
    /// `b, b+1, b+2, …`: an ascending array.
    Ascending,
    /// `b, b, …`: a constant array.
    Constant,
}

/// The rotation, most generally useful first.
pub(crate) const SHAPES: [Shape; 6] = [
    Shape::Wide,
    Shape::Descending,
    Shape::Guided,
    Shape::OneOff,
    Shape::Ascending,
    Shape::Constant,
];

/// The shape of the `ordinal`-th site that a run numbered `run` asks (sites are numbered
/// in the order a run first asks them, so a run and its replay agree).
pub(crate) fn shape_of(run: u64, ordinal: usize) -> Shape {
    let n = SHAPES.len() as u64;
    SHAPES[((run % n + ordinal as u64 % n) % n) as usize]
}

/// The `k`-th value (from 0) of a site of shape `shape` whose first guided value is
/// `base` (`None` for [`Shape::Guided`] and [`Shape::Wide`], whose values are drawn).
pub(crate) fn shaped(
    shape: Shape,
    base: &num_bigint::BigInt,
    k: i64,
) -> Option<num_bigint::BigInt> {
    Some(match shape {
        Shape::Guided | Shape::Wide => return None,
        Shape::Descending => base - k,
        Shape::Ascending => base + k,
        Shape::Constant => base.clone(),
        Shape::OneOff if k == 0 => base.clone(),
        Shape::OneOff => base - 1,
    })
}

/// The Luby sequence (1, 1, 2, 1, 1, 2, 4, 1, …) at `i` (from 0): the step bound of run
/// `i` in units of the first bound. Runs of unknown length are best restarted this way
/// (Luby, Sinclair and Zuckerman, 1993): many short runs try many shapes and seeds, and
/// the long ones grow without bound, each length taking about as much time in total as
/// any other.
pub(crate) fn luby(i: u64) -> u64 {
    let i = i + 1;
    // Find k with 2^(k-1) <= i < 2^k.
    let mut k = 1u32;
    while (1u64 << k) - 1 < i {
        k += 1;
    }
    if i == (1u64 << k) - 1 {
        1u64 << (k - 1)
    } else {
        luby(i - (1u64 << (k - 1)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use num_bigint::BigInt;

    #[test]
    fn the_luby_sequence() {
        let got: Vec<u64> = (0..15).map(luby).collect();
        assert_eq!(got, [1, 1, 2, 1, 1, 2, 4, 1, 1, 2, 1, 1, 2, 4, 8]);
    }

    #[test]
    fn every_shape_comes_within_one_rotation_and_sites_differ() {
        for ordinal in 0..3 {
            let seen: Vec<Shape> = (0..SHAPES.len() as u64)
                .map(|r| shape_of(r, ordinal))
                .collect();
            for s in SHAPES {
                assert!(seen.contains(&s), "{s:?} missing for site {ordinal}");
            }
        }
        assert_ne!(shape_of(0, 0), shape_of(0, 1));
    }

    #[test]
    fn shaped_values() {
        let b = BigInt::from(5);
        let vals = |s| -> Vec<i64> {
            (0..4)
                .map(|k| i64::try_from(shaped(s, &b, k).unwrap()).unwrap())
                .collect()
        };
        assert_eq!(vals(Shape::Descending), [5, 4, 3, 2]);
        assert_eq!(vals(Shape::Ascending), [5, 6, 7, 8]);
        assert_eq!(vals(Shape::Constant), [5, 5, 5, 5]);
        assert_eq!(vals(Shape::OneOff), [5, 4, 4, 4]);
        assert_eq!(shaped(Shape::Wide, &b, 3), None);
    }
}
