//! The control-flow graph of a program, as in the paper's §3: node 0 is "assertion failed"
//! (every error location leads there), one node per statement, one exit node per procedure,
//! a unique return-point node after each call, and `InScope` per node. Node expressions are
//! side-effect free: calls and ranged nondet values were hoisted into temporaries.

pub(crate) mod bounds;
mod build;
mod dot;
mod errors;
mod liveness;
mod loops;
pub mod residue;
mod reuse;
mod simplify;

use crate::diag::Span;
use crate::ids::{ArrayId, IndexVec, NodeId, ProcId, VarId};
use crate::sema::{ArrayInfo, Expr, Program, VarInfo};

pub(crate) use bounds::in_range;
pub use bounds::{instrument_bounds, ArrayBounds};
pub use dot::{expr as expr_text, label as node_label, to_dot, to_text};
pub use errors::keep_errors;
pub use liveness::{live_vars, ret_dead_at_entry};
pub use reuse::reuse_reads;
pub use simplify::simplify;

/// The assertion-failure node; reaching it means the program is unsafe.
pub const ERROR_NODE: NodeId = NodeId(0);

/// What a node does, and where control goes next.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum NodeKind {
    /// Node 0: an assertion failed or an error location was reached.
    Error,
    /// No effect (`skip`, `;`, a label, a return point, a procedure's entry).
    Skip {
        /// Successor.
        next: NodeId,
    },
    /// Parallel assignment `y1, ..., yn = e1, ..., en`.
    Assign {
        /// Targets (distinct).
        lhs: Vec<VarId>,
        /// Values, evaluated before any target changes.
        rhs: Vec<Expr>,
        /// Successor.
        next: NodeId,
    },
    /// `a[index] = value`; out of range: no effect.
    ArrayWrite {
        /// The array.
        array: ArrayId,
        /// The index.
        index: Expr,
        /// The value.
        value: Expr,
        /// Successor.
        next: NodeId,
    },
    /// Every cell of `array` is set: to the initialiser values and 0 after them, or to
    /// arbitrary values when `values` is `None` (an uninitialised local array,
    /// `klee_make_symbolic(a, ...)`).
    ArrayInit {
        /// The array.
        array: ArrayId,
        /// Initial values, if any.
        values: Option<Vec<Expr>>,
        /// Successor.
        next: NodeId,
    },
    /// `if (cond)`, `while (cond)`, `assert(cond)` (then `els` is node 0).
    Branch {
        /// The guard.
        cond: Expr,
        /// Successor when the guard is non-zero.
        then: NodeId,
        /// Successor when the guard is zero.
        els: NodeId,
    },
    /// `assume(cond)`: executions where `cond` is zero stop here.
    Assume {
        /// The guard.
        cond: Expr,
        /// Successor.
        next: NodeId,
    },
    /// A call `proc(args)`; after the callee's exit, control continues at `ret_point`.
    Call {
        /// The callee.
        proc: ProcId,
        /// Actual parameters, bound to the callee's formals.
        args: Vec<Expr>,
        /// The unique return point (a `Skip`).
        ret_point: NodeId,
    },
    /// A procedure's exit; its successors are the return points of its calls.
    Exit,
    /// `abort()`/`exit()` or the end of `main`: the execution ends here without error.
    Stop,
}

impl NodeKind {
    /// Make every intra-procedural edge to `from` go to `to` (a call's return point is
    /// its own node and is never redirected).
    pub(crate) fn redirect(&mut self, from: NodeId, to: NodeId) {
        let fix = |x: &mut NodeId| {
            if *x == from {
                *x = to
            }
        };
        match self {
            NodeKind::Skip { next }
            | NodeKind::Assign { next, .. }
            | NodeKind::ArrayWrite { next, .. }
            | NodeKind::ArrayInit { next, .. }
            | NodeKind::Assume { next, .. } => fix(next),
            NodeKind::Branch { then, els, .. } => {
                fix(then);
                fix(els);
            }
            NodeKind::Error | NodeKind::Call { .. } | NodeKind::Exit | NodeKind::Stop => {}
        }
    }

    /// The expressions the node evaluates, in evaluation order (an array write: its
    /// index, then its value).
    pub fn exprs(&self) -> Vec<&Expr> {
        match self {
            NodeKind::Assign { rhs, .. } => rhs.iter().collect(),
            NodeKind::ArrayWrite { index, value, .. } => vec![index, value],
            NodeKind::ArrayInit {
                values: Some(vs), ..
            } => vs.iter().collect(),
            NodeKind::Branch { cond, .. } | NodeKind::Assume { cond, .. } => vec![cond],
            NodeKind::Call { args, .. } => args.iter().collect(),
            _ => Vec::new(),
        }
    }

    /// [`NodeKind::exprs`], to change them.
    pub fn exprs_mut(&mut self) -> Vec<&mut Expr> {
        match self {
            NodeKind::Assign { rhs, .. } => rhs.iter_mut().collect(),
            NodeKind::ArrayWrite { index, value, .. } => vec![index, value],
            NodeKind::ArrayInit {
                values: Some(vs), ..
            } => vs.iter_mut().collect(),
            NodeKind::Branch { cond, .. } | NodeKind::Assume { cond, .. } => vec![cond],
            NodeKind::Call { args, .. } => args.iter_mut().collect(),
            _ => Vec::new(),
        }
    }
}

/// A CFG node.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Node {
    /// The owning procedure (`None` only for node 0).
    pub proc: Option<ProcId>,
    /// What it does.
    pub kind: NodeKind,
    /// The source statement it comes from.
    pub span: Span,
}

/// A procedure in the CFG.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CfgProc {
    /// Its name.
    pub name: String,
    /// First node.
    pub entry: NodeId,
    /// Exit node.
    pub exit: NodeId,
    /// Formal parameters in order.
    pub formals: Vec<VarId>,
    /// All other scalars of the procedure (locals, temporaries, VLA sizes, cells of local
    /// arrays).
    pub locals: Vec<VarId>,
    /// Local arrays.
    pub arrays: Vec<ArrayId>,
    /// Whether it returns a value (through [`Cfg::ret`]).
    pub returns_value: bool,
    /// The call nodes that call it, in node order.
    pub callers: Vec<NodeId>,
}

/// A program's control-flow graph with its symbol tables.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Cfg {
    /// All nodes; `nodes[ERROR_NODE]` is the assertion-failure node.
    pub nodes: IndexVec<NodeId, Node>,
    /// All procedures.
    pub procs: IndexVec<ProcId, CfgProc>,
    /// All scalars.
    pub vars: IndexVec<VarId, VarInfo>,
    /// All arrays.
    pub arrays: IndexVec<ArrayId, ArrayInfo>,
    /// Global scalars (including [`Cfg::ret`]) in a fixed order.
    pub globals: Vec<VarId>,
    /// Global arrays.
    pub global_arrays: Vec<ArrayId>,
    /// The global carrying return values from a procedure's exit to its return point.
    pub ret: VarId,
    /// `main`.
    pub main: ProcId,
    /// In an abstraction with symbolic cells: the nodes whose array read at a
    /// symbolic array is instantiated from the node's own facts (see
    /// [`crate::abstraction`]). Empty in a program's CFG.
    pub inst_reads: std::collections::BTreeMap<NodeId, InstRead>,
    /// Under `--signed-overflow error`: the branches that test a signed arithmetic
    /// result's range, whose edge into the error node is an overflow (not an error
    /// location of the program).
    pub overflow_checks: std::collections::BTreeSet<NodeId>,
    /// Under `--array-bounds error`: the branches that test an array access's index,
    /// whose edge into the error node is an out-of-bounds access.
    pub bounds_checks: std::collections::BTreeSet<NodeId>,
    /// Under `--array-bounds undefined` (C's default): the `assume`s that an array
    /// access's index is in range. An execution that fails one accesses an array outside
    /// its bounds, which C leaves undefined: it ends there without a verdict.
    pub bounds_guards: std::collections::BTreeSet<NodeId>,
    /// The bounds guards of the reads whose value a later read of the same cell reuses
    /// ([`reuse_reads`]): the reuse is exact only where they hold, so an abstraction
    /// keeps them even where it skips the other guards.
    pub reuse_guards: std::collections::BTreeSet<NodeId>,
    /// The nodes that choose the iteration count of an accelerated loop path (see
    /// `crate::accel`), with what the interpreter needs to suggest a count. Empty
    /// without acceleration.
    pub accel: std::collections::BTreeMap<NodeId, AccelCount>,
}

/// The node `n = u` that chooses how many iterations of one loop path an accelerated
/// transition takes (`n >= min` takes them, any smaller value leaves the loop to its
/// original body), with the transition's guard on `n`: the guard holds iff every atom of
/// `all` holds and, for each conjunction of `none_of`, some atom fails.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AccelCount {
    /// The loop's head: the node the original body starts at.
    pub head: NodeId,
    /// The count variable `n`.
    pub count: VarId,
    /// The least count the transition takes (1, or 2 when the path reads a variable it
    /// resets, whose second iteration then differs from the first).
    pub min: u32,
    /// The loop path (its nodes from the head, in order, calls included).
    pub path: Vec<NodeId>,
    /// Whether the path passes checks without testing them (see [`crate::accel`]): the
    /// transition then over-approximates the loop, and a run that takes it is not a run
    /// of the program as written.
    pub skips: bool,
    /// Atoms that must all hold.
    pub all: Vec<CountAtom>,
    /// Conjunctions of atoms none of which may hold entirely.
    pub none_of: Vec<Vec<CountAtom>>,
}

/// An atom `coef·n + rest ≤ 0` (or `= 0`) of an accelerated transition's guard, `rest`
/// a linear expression over the program's variables.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CountAtom {
    /// The coefficient of the count.
    pub coef: num_bigint::BigInt,
    /// The rest.
    pub rest: Expr,
    /// `= 0` (else `≤ 0`).
    pub eq: bool,
}

/// A read `a[index]` of an array with a symbolic cell, in P̂ the expression
/// `(0 ≤ index < size ? (index == k ? a_k : inst) : u)`: the value `inst` of a cell other
/// than the ghost's is constrained by the facts at the same node with the ghost `k` at
/// `index` and `a_k` at `inst` (Monniaux–Gonnord's rule for reads).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct InstRead {
    /// The index (an expression of P̂).
    pub index: Expr,
    /// `0 ≤ index < size` (the rule applies only then; out of range the read is `u`).
    pub in_range: Expr,
    /// The ghost index `k` (shared by the arrays with a symbolic cell).
    pub ghost: VarId,
    /// The reads at this index, each a symbolic cell `a_k` with the temporary holding
    /// the read's value when the index is not the ghost's (a temporary of the node's
    /// procedure). The arrays share the ghost, so one partner gives all their values.
    pub reads: Vec<(VarId, VarId)>,
    /// The other arrays' symbolic cells at the same ghost.
    pub others: Vec<VarId>,
    /// With a second ghost `k2` (`k < k2`): how the read is instantiated.
    pub second: Option<SecondGhost>,
    /// With one ghost: a cell at an index term bound to a read hoisted out of the node.
    pub term: Option<TermBind>,
}

/// A read `t = b[index]` hoisted out of a node whose instantiated read is at `i`, with
/// `index` a term `coef·i + offset` and a cell `b_t` of `b` at `coef·k + offset`: the
/// partner taken at `k := i` holds in `b_t` the value of cell `coef·i + offset` of the
/// same run, which is `t` where `index` is that term and in range (the index's variables
/// are unchanged since the read). Elsewhere `b_t` stays free, as the other cells.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TermBind {
    /// The partner's cell `b_t`.
    pub cell: VarId,
    /// The term of the ghost the cell is at.
    pub term: crate::sema::IndexTerm,
    /// The hoisted read's index (an expression of P̂).
    pub index: Expr,
    /// `0 ≤ index < size` of `b`.
    pub in_range: Expr,
    /// The temporary holding the value read.
    pub value: VarId,
}

/// An instantiated read with two ghosts `k1 < k2` (for sortedness). The read's
/// expression is `(0 ≤ index < size ? inst : u)`: the instantiation alone gives `inst` its
/// value. At `index == k1` (or `k2`) it is the state's own cell; otherwise a partner with one
/// ghost at `index` and the other at the state's other ghost (the one on the far side), or
/// at the index of the node's [`Companion`] read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SecondGhost {
    /// `k2`.
    pub ghost: VarId,
    /// Each array's symbolic cell at `k1` with its cell at `k2`.
    pub pairs: Vec<(VarId, VarId)>,
    /// A read of the previous node, hoisted out of this one: the two reads are
    /// instantiated together, from one partner with its ghosts at both indices.
    pub companion: Option<Companion>,
}

/// A read `t = b[index]` of a symbolic array just before the node that uses `t` (the CFG
/// hoists a node's reads at further indices this way).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Companion {
    /// The index (an expression of P̂; its variables are unchanged since the read).
    pub index: Expr,
    /// `0 ≤ index < size` of `b`.
    pub in_range: Expr,
    /// `b`'s symbolic cell at `k1`.
    pub cell: VarId,
    /// The temporary holding the value read.
    pub value: VarId,
}

impl InstRead {
    /// The read's temporaries.
    pub fn temps(&self) -> Vec<VarId> {
        self.reads.iter().map(|(_, t)| *t).collect()
    }
}

impl Cfg {
    /// The ghost indices of the symbolic cells, in order: none, `k`, or `k1, k2`.
    pub fn ghosts(&self) -> Vec<VarId> {
        self.vars
            .indices()
            .filter(|v| matches!(self.vars[*v].kind, crate::sema::VarKind::Ghost { .. }))
            .collect()
    }

    /// Build the CFG of a resolved program.
    pub fn build(p: &Program) -> Cfg {
        build::Builder::build(p)
    }

    /// Successors of a node (for `Exit`: the return points of all calls of the procedure;
    /// for `Call`: the callee's entry).
    pub fn succs(&self, n: NodeId) -> Vec<NodeId> {
        match &self.nodes[n].kind {
            NodeKind::Error | NodeKind::Stop => vec![],
            NodeKind::Skip { next }
            | NodeKind::Assign { next, .. }
            | NodeKind::ArrayWrite { next, .. }
            | NodeKind::ArrayInit { next, .. }
            | NodeKind::Assume { next, .. } => vec![*next],
            NodeKind::Branch { then, els, .. } => vec![*then, *els],
            NodeKind::Call { proc, .. } => vec![self.procs[*proc].entry],
            NodeKind::Exit => {
                let p = self.nodes[n].proc.expect("exit nodes belong to procedures");
                self.procs[p]
                    .callers
                    .iter()
                    .filter_map(|c| match &self.nodes[*c].kind {
                        NodeKind::Call { ret_point, .. } => Some(*ret_point),
                        _ => None,
                    })
                    .collect()
            }
        }
    }

    /// `InScope(n)`: the globals followed by the scalars of `n`'s procedure (formals first).
    pub fn in_scope(&self, n: NodeId) -> Vec<VarId> {
        match self.nodes[n].proc {
            Some(p) => self.proc_scope(p),
            None => self.globals.clone(),
        }
    }

    /// The scalars in scope anywhere in procedure `p`: globals, formals, locals.
    pub fn proc_scope(&self, p: ProcId) -> Vec<VarId> {
        let pr = &self.procs[p];
        let mut v = self.globals.clone();
        v.extend(&pr.formals);
        v.extend(&pr.locals);
        v
    }

    /// A unique printable name for a variable: its source name, with `#id` appended when
    /// another variable has the same name.
    pub fn var_name(&self, v: VarId) -> String {
        let name = &self.vars[v].name;
        let clash = self.vars.iter().filter(|x| &x.name == name).count() > 1;
        if clash {
            format!("{name}#{}", v.0)
        } else {
            name.clone()
        }
    }

    /// Whether the program reads or writes any array.
    pub fn has_arrays(&self) -> bool {
        !self.arrays.is_empty()
    }
}
