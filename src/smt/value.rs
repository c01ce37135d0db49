//! Model values read back from an SMT backend, in exact arithmetic.

use std::collections::BTreeMap;
use std::fmt;

use num_bigint::BigInt;
use num_rational::BigRational;

use super::term::Sort;

/// The value of a term in a model.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Value {
    /// A Boolean.
    Bool(bool),
    /// An integer.
    Int(BigInt),
    /// A rational.
    Real(BigRational),
    /// An integer array: `default` everywhere except at the indices of `entries`.
    /// Normalised: no entry equals `default`, so equal arrays have equal values.
    IntArray {
        /// The value at every index not in `entries`.
        default: BigInt,
        /// The indices whose value differs from `default`.
        entries: BTreeMap<BigInt, BigInt>,
    },
}

impl Value {
    /// The sort of this value.
    pub fn sort(&self) -> Sort {
        match self {
            Value::Bool(_) => Sort::Bool,
            Value::Int(_) => Sort::Int,
            Value::Real(_) => Sort::Real,
            Value::IntArray { .. } => Sort::IntArray,
        }
    }

    /// The element at `index` of an array value (`None` if this is not an array).
    pub fn array_get(&self, index: &BigInt) -> Option<&BigInt> {
        match self {
            Value::IntArray { default, entries } => Some(entries.get(index).unwrap_or(default)),
            _ => None,
        }
    }

    /// The integer, if this is an `Int` value.
    pub fn as_int(&self) -> Option<&BigInt> {
        match self {
            Value::Int(v) => Some(v),
            _ => None,
        }
    }

    /// The rational, if this is a `Real` value (or an `Int`, converted).
    pub fn as_rational(&self) -> Option<BigRational> {
        match self {
            Value::Real(q) => Some(q.clone()),
            Value::Int(v) => Some(BigRational::from_integer(v.clone())),
            _ => None,
        }
    }

    /// The Boolean, if this is a `Bool` value.
    pub fn as_bool(&self) -> Option<bool> {
        match self {
            Value::Bool(b) => Some(*b),
            _ => None,
        }
    }
}

impl fmt::Display for Value {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Value::Bool(b) => write!(f, "{b}"),
            Value::Int(v) => write!(f, "{v}"),
            Value::Real(q) => write!(f, "{q}"),
            Value::IntArray { default, entries } => {
                f.write_str("[")?;
                for (i, v) in entries {
                    write!(f, "{i}: {v}, ")?;
                }
                write!(f, "else: {default}]")
            }
        }
    }
}
