//! What a jump over loop iterations ([`crate::trace::jump`]) needs of the encoder: the
//! current value of a variable or an array, and a new value for each.

use super::{Arr, Encoding, PathEncoder};
use crate::ids::{ArrayId, VarId};
use crate::smt::{SmtBackend, SmtError, Term};

impl PathEncoder<'_> {
    /// The current value of a scalar (an arbitrary initial value if it has none yet).
    pub(crate) fn value_of(
        &mut self,
        smt: &mut dyn SmtBackend,
        v: VarId,
    ) -> Result<Term, SmtError> {
        self.get(smt, v)
    }

    /// Give a scalar a new value.
    pub(crate) fn assign(&mut self, v: VarId, t: Term) {
        self.set(v, t)
    }

    /// The current contents of an array.
    pub(crate) fn array_value(
        &mut self,
        smt: &mut dyn SmtBackend,
        a: ArrayId,
    ) -> Result<Term, SmtError> {
        Ok(self.array(smt, a)?.val)
    }

    /// Give an array new contents (same size).
    pub(crate) fn replace_array(
        &mut self,
        smt: &mut dyn SmtBackend,
        a: ArrayId,
        val: Term,
    ) -> Result<(), SmtError> {
        let size = self.array(smt, a)?.size;
        self.set_array(
            a,
            Arr {
                val,
                size,
                known: Default::default(),
            },
        );
        Ok(())
    }

    /// How many frame instances the path has made so far (main's included): the number
    /// the next call's frame gets.
    pub(crate) fn frames_made(&self) -> usize {
        self.next_frame
    }

    /// The encoding so far (with records).
    pub(crate) fn encoding(&self) -> &Encoding {
        &self.out
    }
}
