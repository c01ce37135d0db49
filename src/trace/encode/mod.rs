//! The path formula: a path followed on the ORIGINAL program in SSA form
//! (ARCHITECTURE.md §4 "Trace check"). This is the one encoder of program semantics into
//! SMT terms; the trace check and the bounded engine (`bmc`) both use it.
//!
//! [`PathEncoder`] is incremental: it holds the symbolic state of a path (the SSA value of
//! every scalar and array, per call frame) and encodes one step at a time. The state is
//! cheap to clone, so a path explorer forks it at branches. Every definition is a fresh
//! symbol with an equation under the step that makes it (so an unsat core names steps);
//! arrays are SMT arrays with one version per write and their size beside them. The
//! semantics mirror `interp` exactly, site numbering included, so a model answers the
//! interpreter's oracle; with `record` on, the encoder keeps what is needed to read a
//! model back ([`Encoding`]).
//!
//! This module holds the records and the encoder's state with its life cycle; `simplify`
//! folds constants and learns the values a path fixes, `state` reads and writes the SSA
//! state, and `semantics` encodes expressions and nodes.

mod join;
mod jump;
mod semantics;
mod simplify;
mod state;
pub(crate) use semantics::cmp_term;

use super::TraceError;
use crate::cfg::{Cfg, ERROR_NODE};
use crate::ids::{ArrayId, NodeId, VarId};
use crate::interp::Site;
use crate::sema::Expr;
use crate::smt::{SmtBackend, SmtError, SymId, Term};
use num_bigint::BigInt;
use simplify::fold;
use std::collections::{BTreeMap, HashMap};

/// Why an encoding failed.
pub(crate) enum Fail {
    Smt(SmtError),
    Trace(TraceError),
}

impl From<SmtError> for Fail {
    fn from(e: SmtError) -> Fail {
        Fail::Smt(e)
    }
}

/// An array access (read or write) of a step: the array and its (named) index.
#[derive(Clone, Debug)]
pub(crate) struct Access {
    pub array: ArrayId,
    pub index: Term,
    /// Whether it is a write (else a read).
    pub write: bool,
}

/// An out-of-range read site: which array, and its index and in-range condition.
#[derive(Clone, Debug)]
pub(crate) struct ReadSite {
    pub array: ArrayId,
    pub index: Term,
}

/// An arbitrary initial array: the step that made it (0 for the interpreter's fallback),
/// the array, its symbol and size.
#[derive(Clone, Debug)]
pub(crate) struct ArrayInput {
    pub init_step: usize,
    pub array: ArrayId,
    pub sym: SymId,
    pub size: Term,
    pub const_size: Option<i64>,
}

/// The trace formula with everything needed to read a model back.
#[derive(Clone, Debug, Default)]
pub(crate) struct Encoding {
    /// The constraints of each step (asserted under the step's label).
    pub steps: Vec<Vec<Term>>,
    /// Definitions of auxiliary symbols (always satisfiable; asserted unlabeled).
    pub aux: Vec<Term>,
    /// The array accesses of each step.
    pub accesses: Vec<Vec<Access>>,
    /// `u` and out-of-range sites: (step, node, site, symbol).
    pub sites: Vec<(usize, NodeId, Site, SymId)>,
    /// Out-of-range read sites by (step, read number).
    pub reads: BTreeMap<(usize, u32), ReadSite>,
    /// Initial values of variables read before assignment: (frame, or `None` for a
    /// global; variable; symbol).
    pub uninit: Vec<(Option<usize>, VarId, SymId)>,
    /// Arbitrary array contents.
    pub arrays: Vec<ArrayInput>,
    /// The frame instance active at each step (main's is 0).
    pub frame_of_step: Vec<usize>,
}

#[derive(Clone, Debug)]
struct Arr {
    val: Term,
    size: Term,
    /// Without records (a path explorer): the elements this path wrote or initialised at
    /// literal in-range indices since its last write at an unknown index, so that a read
    /// at a literal index is the written term itself (`select(store(a, i, v), i) = v`),
    /// and branches on concrete array contents fold without a solver call. A persistent
    /// map: forks share it, and a write copies a path of it (a path that forks at every
    /// iteration of a loop writing or reading cells keeps memory linear in its length).
    known: imbl::OrdMap<BigInt, Term>,
}

#[derive(Clone, Debug)]
struct Frame {
    id: usize,
    vars: BTreeMap<VarId, Term>,
    arrays: BTreeMap<ArrayId, Arr>,
}

/// The incremental encoder of one path (see the module docs). Clone it to fork a path.
#[derive(Clone)]
pub(crate) struct PathEncoder<'a> {
    cfg: &'a Cfg,
    /// Keep the records a model is read back with (the trace check); off for a path
    /// explorer, which only needs the constraints.
    record: bool,
    out: Encoding,
    globals: BTreeMap<VarId, Term>,
    garrays: BTreeMap<ArrayId, Arr>,
    stack: Vec<Frame>,
    next_frame: usize,
    /// Arbitrary array symbols by (init step, array).
    array_syms: BTreeMap<(usize, ArrayId), (SymId, Term)>,
    /// Definitions `s = t` of the symbols the encoder introduced (shared by forks:
    /// symbols are never reused, so a definition holds on every path that has it).
    defs: std::rc::Rc<std::cell::RefCell<HashMap<SymId, Term>>>,
    step: usize,
    node: NodeId,
    undef_k: u32,
    read_k: u32,
    cur: Vec<Term>,
    cur_acc: Vec<Access>,
    /// The conditions under which C evaluates the sub-expression being encoded (the
    /// enclosing `?:` branches and right operands of `&&`, `||`).
    evaluated: Vec<Term>,
    /// Facts implied by the definitions made since the last [`PathEncoder::take_lemmas`]
    /// (always true: asserted without a guard).
    lemmas: Vec<Term>,
    /// The nodes where a path had to assume that a signed result fits (its range was not
    /// a literal `true`), shared by forks.
    overflows: std::rc::Rc<std::cell::RefCell<std::collections::BTreeSet<NodeId>>>,
    /// The bounds guards ([`Cfg::bounds_guards`]) where a path had to assume that an
    /// array access is in bounds (its guard was not a literal `true`), shared by forks.
    in_bounds: std::rc::Rc<std::cell::RefCell<std::collections::BTreeSet<NodeId>>>,
    /// Whether the conditions C's undefined behaviour imposes (a signed result fits, an
    /// access is in bounds) are kept apart from the step's constraints, in `ub`, for a
    /// caller that asserts them so that it can also ask whether they can fail.
    ub_apart: bool,
    /// With `ub_apart`: those conditions of the current step, with their nodes.
    ub: Vec<(NodeId, Term)>,
    /// Without records: the arrays accessed only at constant indices inside their
    /// constant size ([`crate::cfg::bounds::literal_arrays`]). A write to one changes its
    /// known elements only: every read is at a constant index, so it finds the written
    /// value there, and a cell never written keeps the array's value from before.
    literal: std::rc::Rc<std::collections::BTreeSet<ArrayId>>,
}

/// Encode a (validated) path in full, with records.
pub(crate) fn encode(
    cfg: &Cfg,
    path: &[NodeId],
    smt: &mut dyn SmtBackend,
    learn: bool,
) -> Result<Encoding, Fail> {
    let mut e = PathEncoder::new(cfg, true);
    for (i, &n) in path.iter().enumerate() {
        let next = path.get(i + 1).copied().unwrap_or(ERROR_NODE);
        e.begin_step(i, n);
        e.step(smt, n, next)?;
        e.end_step();
        if learn {
            // With records, the step's constraints stay in the encoding.
            let cs = e.out.steps.last().cloned().unwrap_or_default();
            cs.iter().for_each(|c| e.learn(c));
        }
    }
    Ok(e.out)
}

impl<'a> PathEncoder<'a> {
    /// The encoder at `main`'s entry (no step encoded yet).
    pub(crate) fn new(cfg: &'a Cfg, record: bool) -> PathEncoder<'a> {
        PathEncoder {
            cfg,
            record,
            out: Encoding::default(),
            globals: BTreeMap::new(),
            garrays: BTreeMap::new(),
            stack: vec![Frame {
                id: 0,
                vars: BTreeMap::new(),
                arrays: BTreeMap::new(),
            }],
            next_frame: 1,
            array_syms: BTreeMap::new(),
            defs: Default::default(),
            step: 0,
            node: ERROR_NODE,
            undef_k: 0,
            read_k: 0,
            cur: Vec::new(),
            cur_acc: Vec::new(),
            evaluated: Vec::new(),
            overflows: Default::default(),
            in_bounds: Default::default(),
            lemmas: Vec::new(),
            ub_apart: false,
            ub: Vec::new(),
            literal: std::rc::Rc::new(if record {
                Default::default()
            } else {
                crate::cfg::bounds::literal_arrays(cfg)
            }),
        }
    }

    /// The nodes where some path encoded so far (by this encoder and its forks) assumed
    /// that a signed result fits its type (C leaves the overflow undefined).
    pub(crate) fn assumed_no_overflow(&self) -> std::collections::BTreeSet<NodeId> {
        self.overflows.borrow().clone()
    }

    /// The bounds guards where some path encoded so far (by this encoder and its forks)
    /// assumed that an array access is in bounds (C leaves it undefined outside).
    pub(crate) fn assumed_in_bounds(&self) -> std::collections::BTreeSet<NodeId> {
        self.in_bounds.borrow().clone()
    }

    /// Start encoding step `step` (node `n`): the site counters restart.
    pub(crate) fn begin_step(&mut self, step: usize, n: NodeId) {
        self.step = step;
        self.node = n;
        self.undef_k = 0;
        self.read_k = 0;
        if self.record {
            let fid = self.stack.last().map(|f| f.id).unwrap_or(0);
            self.out.frame_of_step.push(fid);
        }
    }

    /// Finish the current step: with records, its constraints and accesses are kept;
    /// without, they are returned (the caller asserts them) and nothing is kept.
    pub(crate) fn end_step(&mut self) -> Vec<Term> {
        let cs = std::mem::take(&mut self.cur);
        let acc = std::mem::take(&mut self.cur_acc);
        if self.record {
            self.out.steps.push(cs);
            self.out.accesses.push(acc);
            Vec::new()
        } else {
            cs
        }
    }

    /// The definitions of auxiliary symbols made since the last call (always
    /// satisfiable; to be asserted unlabeled). Only without records: with records they
    /// stay in the [`Encoding`].
    /// Keep the conditions of C's undefined behaviour apart from the step's constraints
    /// from now on (in this encoder and its forks): [`PathEncoder::take_ub`] gives them.
    pub(crate) fn keep_ub_apart(&mut self) {
        self.ub_apart = true;
    }

    /// With [`PathEncoder::keep_ub_apart`]: the conditions under which the steps encoded
    /// since the last call have a defined behaviour (a signed result fits its type, an
    /// access is in bounds), each with its node: an execution that breaks one stops
    /// there, as undefined.
    pub(crate) fn take_ub(&mut self) -> Vec<(NodeId, Term)> {
        std::mem::take(&mut self.ub)
    }

    pub(crate) fn take_aux(&mut self) -> Vec<Term> {
        if self.record {
            Vec::new()
        } else {
            std::mem::take(&mut self.out.aux)
        }
    }

    /// The facts implied by the definitions made since the last call (valid: to be
    /// asserted without a guard).
    pub(crate) fn take_lemmas(&mut self) -> Vec<Term> {
        std::mem::take(&mut self.lemmas)
    }

    /// The Boolean value of a branch condition in the current state (folded: a literal
    /// when the path fixes it).
    pub(crate) fn condition(
        &mut self,
        smt: &mut dyn SmtBackend,
        cond: &Expr,
    ) -> Result<Term, Fail> {
        Ok(fold(self.boolean(smt, cond)?))
    }
}
