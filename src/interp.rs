//! The concrete interpreter over the CFG (ARCHITECTURE.md §3 semantics): mathematical
//! integers, arbitrary locals, zero-initialised globals (through `main`'s prologue),
//! out-of-range read = `u`, out-of-range write = no-op. Values for `u`, nondet calls and
//! arbitrary array cells come from an [`Oracle`]. It is the oracle for replaying
//! counterexamples and for differential tests.

use crate::cfg::{Cfg, NodeKind, ERROR_NODE};
use crate::ids::{ArrayId, NodeId, ProcId, VarId};
use crate::sema::{ArraySize, Expr};
use num_bigint::BigInt;
use num_traits::{ToPrimitive, Zero};
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};
use std::collections::BTreeMap;

/// Where the arbitrary values of an execution come from. Calls happen in execution order.
pub trait Oracle {
    /// The value of one evaluation of `u` (or a nondet call, an uninitialised local, an
    /// out-of-range read) at `node`.
    fn undef(&mut self, node: NodeId) -> BigInt;
    /// The initial value of cell `index` of the `havoc`-th arbitrary array contents of the
    /// run (counting `ArrayInit` nodes without values, from 0), asked when the cell is
    /// first read.
    fn array_cell(&mut self, havoc: usize, index: i64) -> BigInt;
}

/// Values taken from a list in order; 0 once the list is exhausted.
#[derive(Clone, Debug, Default)]
pub struct ListOracle {
    values: Vec<BigInt>,
    next: usize,
    /// How many values were asked for after the list ran out.
    pub exhausted: usize,
}

impl ListOracle {
    /// An oracle answering `values` in order.
    pub fn new(values: Vec<BigInt>) -> ListOracle {
        ListOracle { values, next: 0, exhausted: 0 }
    }
    fn take(&mut self) -> BigInt {
        match self.values.get(self.next) {
            Some(v) => {
                self.next += 1;
                v.clone()
            }
            None => {
                self.exhausted += 1;
                BigInt::zero()
            }
        }
    }
}

impl Oracle for ListOracle {
    fn undef(&mut self, _: NodeId) -> BigInt {
        self.take()
    }
    fn array_cell(&mut self, _: usize, _: i64) -> BigInt {
        self.take()
    }
}

/// Seeded random values, mostly small (to hit boundary cases), sometimes large.
#[derive(Clone, Debug)]
pub struct RandomOracle {
    rng: SmallRng,
}

impl RandomOracle {
    /// A random oracle with a fixed seed.
    pub fn new(seed: u64) -> RandomOracle {
        RandomOracle { rng: SmallRng::seed_from_u64(seed) }
    }
    fn draw(&mut self) -> BigInt {
        let r: u32 = self.rng.gen_range(0..10);
        BigInt::from(match r {
            0..=5 => self.rng.gen_range(-3i64..=3),
            6..=8 => self.rng.gen_range(-20i64..=20),
            _ => self.rng.gen_range(-1_000_000i64..=1_000_000),
        })
    }
}

impl Oracle for RandomOracle {
    fn undef(&mut self, _: NodeId) -> BigInt {
        self.draw()
    }
    fn array_cell(&mut self, _: usize, _: i64) -> BigInt {
        self.draw()
    }
}

/// Limits of one run.
#[derive(Clone, Copy, Debug)]
pub struct Limits {
    /// Maximum number of CFG nodes executed.
    pub max_steps: usize,
    /// Maximum call depth.
    pub max_depth: usize,
}

impl Default for Limits {
    fn default() -> Self {
        Limits { max_steps: 1_000_000, max_depth: 10_000 }
    }
}

/// How a run ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// An error location was reached from `at` (the node before node 0).
    Error {
        /// The node whose step led to the error.
        at: NodeId,
    },
    /// `main` returned, or `abort()`/`exit()` was called.
    Finished,
    /// An `assume` was false: this execution is not considered.
    Blocked {
        /// The `assume` node.
        at: NodeId,
    },
    /// The step limit was reached.
    StepLimit,
    /// The call-depth limit was reached.
    DepthLimit,
}

/// The result of a run.
#[derive(Clone, Debug)]
pub struct Run {
    /// How it ended.
    pub outcome: Outcome,
    /// Number of nodes executed.
    pub steps: usize,
    /// The nodes executed, in order (when recording was asked for).
    pub path: Vec<NodeId>,
}

/// Contents of one array instance: explicit cells over a base (zeros, or arbitrary cells
/// drawn lazily from the oracle under a havoc number).
#[derive(Clone, Debug)]
struct ArrayVal {
    size: i64,
    cells: BTreeMap<i64, BigInt>,
    havoc: Option<usize>,
}

#[derive(Clone, Debug)]
struct Frame {
    proc: ProcId,
    vars: BTreeMap<VarId, BigInt>,
    arrays: BTreeMap<ArrayId, ArrayVal>,
    ret_point: NodeId,
}

struct Machine<'c, O: Oracle> {
    cfg: &'c Cfg,
    oracle: &'c mut O,
    globals: BTreeMap<VarId, BigInt>,
    garrays: BTreeMap<ArrayId, ArrayVal>,
    stack: Vec<Frame>,
    havocs: usize,
}

/// Run `main` from its entry with the given oracle and limits.
pub fn run<O: Oracle>(cfg: &Cfg, oracle: &mut O, limits: Limits, record: bool) -> Run {
    let mut m = Machine { cfg, oracle, globals: BTreeMap::new(), garrays: BTreeMap::new(), stack: Vec::new(), havocs: 0 };
    let main = cfg.main;
    m.stack.push(Frame { proc: main, vars: BTreeMap::new(), arrays: BTreeMap::new(), ret_point: ERROR_NODE });
    let mut node = cfg.procs[main].entry;
    let mut path = Vec::new();
    let mut steps = 0;
    loop {
        if steps >= limits.max_steps {
            return Run { outcome: Outcome::StepLimit, steps, path };
        }
        steps += 1;
        if record {
            path.push(node);
        }
        let next = match &cfg.nodes[node].kind {
            NodeKind::Error => unreachable_error(),
            NodeKind::Skip { next } => *next,
            NodeKind::Assign { lhs, rhs, next } => {
                let vals: Vec<BigInt> = rhs.iter().map(|e| m.eval(e, node)).collect();
                for (v, x) in lhs.iter().zip(vals) {
                    m.set(*v, x);
                }
                *next
            }
            NodeKind::ArrayWrite { array, index, value, next } => {
                let i = m.eval(index, node);
                let x = m.eval(value, node);
                let arr = m.array_mut(*array);
                if let Some(i) = i.to_i64().filter(|i| *i >= 0 && *i < arr.size) {
                    arr.cells.insert(i, x);
                }
                *next
            }
            NodeKind::ArrayInit { array, values, next } => {
                let size = m.array_size(*array);
                let val = match values {
                    None => {
                        m.havocs += 1;
                        ArrayVal { size, cells: BTreeMap::new(), havoc: Some(m.havocs - 1) }
                    }
                    Some(vs) => {
                        let mut cells = BTreeMap::new();
                        for (i, e) in vs.iter().enumerate() {
                            let x = m.eval(e, node);
                            if (i as i64) < size {
                                cells.insert(i as i64, x);
                            }
                        }
                        ArrayVal { size, cells, havoc: None }
                    }
                };
                m.set_array(*array, val);
                *next
            }
            NodeKind::Branch { cond, then, els } => {
                if m.eval(cond, node).is_zero() {
                    *els
                } else {
                    *then
                }
            }
            NodeKind::Assume { cond, next } => {
                if m.eval(cond, node).is_zero() {
                    return Run { outcome: Outcome::Blocked { at: node }, steps, path };
                }
                *next
            }
            NodeKind::Call { proc, args, ret_point } => {
                if m.stack.len() >= limits.max_depth {
                    return Run { outcome: Outcome::DepthLimit, steps, path };
                }
                let vals: Vec<BigInt> = args.iter().map(|e| m.eval(e, node)).collect();
                let callee = &cfg.procs[*proc];
                let vars = callee.formals.iter().copied().zip(vals).collect();
                m.stack.push(Frame { proc: *proc, vars, arrays: BTreeMap::new(), ret_point: *ret_point });
                callee.entry
            }
            NodeKind::Exit => {
                let frame = m.stack.pop().expect("the stack holds main's frame");
                if m.stack.is_empty() {
                    return Run { outcome: Outcome::Finished, steps, path };
                }
                frame.ret_point
            }
            NodeKind::Stop => return Run { outcome: Outcome::Finished, steps, path },
        };
        if next == ERROR_NODE {
            return Run { outcome: Outcome::Error { at: node }, steps, path };
        }
        node = next;
    }
}

fn unreachable_error() -> ! {
    panic!("internal error: the interpreter never steps from node 0")
}

impl<O: Oracle> Machine<'_, O> {
    fn frame(&mut self) -> &mut Frame {
        self.stack.last_mut().expect("the stack holds main's frame")
    }

    fn is_global(&self, v: VarId) -> bool {
        self.cfg.vars[v].kind.proc().is_none()
    }

    fn get(&mut self, v: VarId, node: NodeId) -> BigInt {
        let cur = if self.is_global(v) { self.globals.get(&v).cloned() } else { self.frame().vars.get(&v).cloned() };
        match cur {
            Some(x) => x,
            None => {
                // An uninitialised variable: arbitrary, but stable once read.
                let x = self.oracle.undef(node);
                self.set(v, x.clone());
                x
            }
        }
    }

    fn set(&mut self, v: VarId, x: BigInt) {
        if self.is_global(v) {
            self.globals.insert(v, x);
        } else {
            self.frame().vars.insert(v, x);
        }
    }

    fn array_size(&mut self, a: ArrayId) -> i64 {
        match &self.cfg.arrays[a].size {
            ArraySize::Const(n) => *n as i64,
            ArraySize::Dynamic(v) => {
                let v = *v;
                let x = self.frame().vars.get(&v).cloned().unwrap_or_default();
                x.to_i64().unwrap_or(0).max(0)
            }
        }
    }

    fn set_array(&mut self, a: ArrayId, val: ArrayVal) {
        if self.cfg.arrays[a].proc.is_none() {
            self.garrays.insert(a, val);
        } else {
            self.frame().arrays.insert(a, val);
        }
    }

    fn array_mut(&mut self, a: ArrayId) -> &mut ArrayVal {
        let size = match &self.cfg.arrays[a].size {
            ArraySize::Const(n) => *n as i64,
            ArraySize::Dynamic(_) => 0,
        };
        let global = self.cfg.arrays[a].proc.is_none();
        let map = if global { &mut self.garrays } else { &mut self.stack.last_mut().expect("main's frame").arrays };
        // An array never initialised (cannot happen for well-formed CFGs) reads as
        // arbitrary values.
        let havocs = &mut self.havocs;
        map.entry(a).or_insert_with(|| {
            *havocs += 1;
            ArrayVal { size, cells: BTreeMap::new(), havoc: Some(*havocs - 1) }
        })
    }

    fn read(&mut self, a: ArrayId, i: &BigInt, node: NodeId) -> BigInt {
        let arr = self.array_mut(a);
        let Some(i) = i.to_i64().filter(|i| *i >= 0 && *i < arr.size) else {
            return self.oracle.undef(node);
        };
        if let Some(x) = arr.cells.get(&i) {
            return x.clone();
        }
        let x = match arr.havoc {
            Some(h) => self.oracle.array_cell(h, i),
            None => BigInt::zero(),
        };
        self.array_mut(a).cells.insert(i, x.clone());
        x
    }

    fn eval(&mut self, e: &Expr, node: NodeId) -> BigInt {
        let b = |x: bool| BigInt::from(x as i64);
        match e {
            Expr::Const(n) => n.clone(),
            Expr::Var(v) => self.get(*v, node),
            Expr::Undef => self.oracle.undef(node),
            Expr::Read(a, i) => {
                let i = self.eval(i, node);
                self.read(*a, &i, node)
            }
            Expr::Add(x, y) => self.eval(x, node) + self.eval(y, node),
            Expr::Sub(x, y) => self.eval(x, node) - self.eval(y, node),
            Expr::Scale(c, x) => c * self.eval(x, node),
            Expr::Div(x, c) => self.eval(x, node) / c,
            Expr::Mod(x, c) => self.eval(x, node) % c,
            Expr::Cmp(op, x, y) => {
                let l = self.eval(x, node);
                let r = self.eval(y, node);
                b(op.holds(&l, &r))
            }
            Expr::Not(x) => b(self.eval(x, node).is_zero()),
            Expr::And(x, y) => b(!self.eval(x, node).is_zero() && !self.eval(y, node).is_zero()),
            Expr::Or(x, y) => b(!self.eval(x, node).is_zero() || !self.eval(y, node).is_zero()),
            Expr::Cond(c, x, y) => {
                if self.eval(c, node).is_zero() {
                    self.eval(y, node)
                } else {
                    self.eval(x, node)
                }
            }
            Expr::Call(..) | Expr::Nondet(..) => panic!("internal error: CFG expressions have no calls or nondet"),
        }
    }
}
