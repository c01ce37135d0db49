//! Typed `u32` indices (`NodeId`, `ProcId`, `VarId`, ...) and `IndexVec`, a vector indexed
//! by one of them, so that a node index can never be used where a variable index is meant.

use std::fmt;
use std::marker::PhantomData;
use std::ops::{Index, IndexMut};

/// A typed index into an [`IndexVec`].
pub trait Idx: Copy + Eq + Ord + std::hash::Hash + fmt::Debug {
    /// The index for position `i`.
    fn new(i: usize) -> Self;
    /// The position this index denotes.
    fn index(self) -> usize;
}

macro_rules! define_id {
    ($(#[$m:meta])* $name:ident, $prefix:literal) => {
        $(#[$m])*
        #[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, serde::Serialize)]
        pub struct $name(pub u32);
        impl Idx for $name {
            fn new(i: usize) -> Self {
                assert!(i <= u32::MAX as usize, "index overflow for {}", stringify!($name));
                $name(i as u32)
            }
            fn index(self) -> usize {
                self.0 as usize
            }
        }
        impl fmt::Debug for $name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                write!(f, concat!($prefix, "{}"), self.0)
            }
        }
        impl fmt::Display for $name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                write!(f, concat!($prefix, "{}"), self.0)
            }
        }
    };
}

define_id!(
    /// A control-flow-graph node. Node 0 is the assertion-failure node (paper §3).
    NodeId, "n"
);
define_id!(
    /// A procedure.
    ProcId, "p"
);
define_id!(
    /// A scalar program variable (globals, formals, locals, temporaries, array cells).
    VarId, "v"
);
define_id!(
    /// An array variable.
    ArrayId, "a"
);

/// A vector indexed by a typed index `I`.
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct IndexVec<I: Idx, T> {
    raw: Vec<T>,
    _marker: PhantomData<fn(&I)>,
}

impl<I: Idx, T> IndexVec<I, T> {
    /// An empty vector.
    pub fn new() -> Self {
        IndexVec {
            raw: Vec::new(),
            _marker: PhantomData,
        }
    }
    /// Wrap a plain vector.
    pub fn from_raw(raw: Vec<T>) -> Self {
        IndexVec {
            raw,
            _marker: PhantomData,
        }
    }
    /// Append `t` and return its index.
    pub fn push(&mut self, t: T) -> I {
        let i = I::new(self.raw.len());
        self.raw.push(t);
        i
    }
    /// The index the next `push` will return.
    pub fn next_index(&self) -> I {
        I::new(self.raw.len())
    }
    /// Number of elements.
    pub fn len(&self) -> usize {
        self.raw.len()
    }
    /// Whether there are no elements.
    pub fn is_empty(&self) -> bool {
        self.raw.is_empty()
    }
    /// Element `i`, if present.
    pub fn get(&self, i: I) -> Option<&T> {
        self.raw.get(i.index())
    }
    /// Iterate over the elements.
    pub fn iter(&self) -> std::slice::Iter<'_, T> {
        self.raw.iter()
    }
    /// Iterate mutably over the elements.
    pub fn iter_mut(&mut self) -> std::slice::IterMut<'_, T> {
        self.raw.iter_mut()
    }
    /// Iterate over `(index, element)` pairs.
    pub fn iter_enumerated(&self) -> impl DoubleEndedIterator<Item = (I, &T)> + ExactSizeIterator {
        self.raw.iter().enumerate().map(|(i, t)| (I::new(i), t))
    }
    /// Iterate over all indices.
    pub fn indices(&self) -> impl DoubleEndedIterator<Item = I> + ExactSizeIterator {
        (0..self.raw.len()).map(I::new)
    }
    /// The underlying vector.
    pub fn raw(&self) -> &[T] {
        &self.raw
    }
}

impl<I: Idx, T> Default for IndexVec<I, T> {
    fn default() -> Self {
        Self::new()
    }
}

impl<I: Idx, T> Index<I> for IndexVec<I, T> {
    type Output = T;
    fn index(&self, i: I) -> &T {
        &self.raw[i.index()]
    }
}

impl<I: Idx, T> IndexMut<I> for IndexVec<I, T> {
    fn index_mut(&mut self, i: I) -> &mut T {
        &mut self.raw[i.index()]
    }
}

impl<I: Idx, T: fmt::Debug> fmt::Debug for IndexVec<I, T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_map().entries(self.iter_enumerated()).finish()
    }
}

impl<'a, I: Idx, T> IntoIterator for &'a IndexVec<I, T> {
    type Item = &'a T;
    type IntoIter = std::slice::Iter<'a, T>;
    fn into_iter(self) -> Self::IntoIter {
        self.raw.iter()
    }
}

#[cfg(test)]
mod tests {
    use super::{IndexVec, NodeId};

    #[test]
    fn push_and_index() {
        let mut v: IndexVec<NodeId, &str> = IndexVec::new();
        let a = v.push("a");
        let b = v.push("b");
        assert_eq!(a, NodeId(0));
        assert_eq!(b, NodeId(1));
        assert_eq!(v[b], "b");
        assert_eq!(v.len(), 2);
        assert_eq!(format!("{b}"), "n1");
    }
}
