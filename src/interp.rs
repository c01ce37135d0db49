//! The concrete interpreter over the CFG (ARCHITECTURE.md §3 semantics): mathematical
//! integers, arbitrary locals, zero-initialised globals (through `main`'s prologue),
//! out-of-range read = `u`, out-of-range write = no-op; a signed result out of range
//! where C leaves it undefined ends the run ([`Outcome::Undefined`]). Values for `u`,
//! nondet calls and arbitrary array cells come from an [`Oracle`]. It is the oracle for
//! replaying counterexamples and for differential tests.

use crate::accel::CountRange;
use crate::cfg::{Cfg, NodeKind, ERROR_NODE};
use crate::ids::{ArrayId, Idx, NodeId, ProcId, VarId};
use crate::sema::{ArraySize, Expr, Range};
use num_bigint::BigInt;
use num_traits::Zero;
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};
use std::collections::BTreeMap;
use val::Val;

mod val;

/// Which arbitrary value a node asks for. Occurrences are numbered statically, in
/// pre-order over the node's expressions (`Assign`: right-hand sides in order;
/// `ArrayWrite`: index then value; `ArrayInit`: values; `Branch`/`Assume`: the guard;
/// `Call`: the arguments), whether or not `?:`, `&&` and `||` evaluate them; so a model of
/// the trace formula can name the same site.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Site {
    /// The k-th `u` of the node.
    Undef(u32),
    /// The k-th array read of the node, when its index is out of range.
    OutOfRange(u32),
    /// A variable read before any assignment.
    Uninit(VarId),
}

/// Where the arbitrary values of an execution come from. Calls happen in execution order;
/// `step` is the 0-based position of the node in the run's path.
pub trait Oracle {
    /// The value of an arbitrary value `site` of `node` at `step`.
    fn undef(&mut self, step: usize, node: NodeId, site: Site) -> BigInt;
    /// The initial value of cell `index` of `array` as arbitrary contents were given to it
    /// at step `init_step` (an `ArrayInit` without values), asked when the cell is first
    /// read.
    fn array_cell(&mut self, init_step: usize, array: ArrayId, index: i64) -> BigInt;
    /// `array` gets arbitrary contents at `step` (its cells are asked for later, with
    /// this step). By default nothing to do.
    fn array_init(&mut self, step: usize, array: ArrayId) {
        let _ = (step, array);
    }
    /// The iteration count an accelerated loop asks for at `node` (its `u`, see
    /// [`crate::accel`]); `range` is what the loop's guard allows from the current state
    /// (`None`: no count, or unknown). A count below the transition's least leaves the
    /// loop to its original body. By default an arbitrary value like any other.
    fn count(
        &mut self,
        step: usize,
        node: NodeId,
        site: Site,
        range: Option<&CountRange>,
    ) -> BigInt {
        let _ = range;
        self.undef(step, node, site)
    }
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
        ListOracle {
            values,
            next: 0,
            exhausted: 0,
        }
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
    fn undef(&mut self, _: usize, _: NodeId, _: Site) -> BigInt {
        self.take()
    }
    fn array_cell(&mut self, _: usize, _: ArrayId, _: i64) -> BigInt {
        self.take()
    }
    /// Loops run one iteration at a time (the list holds the program's own inputs).
    fn count(&mut self, _: usize, _: NodeId, _: Site, _: Option<&CountRange>) -> BigInt {
        BigInt::zero()
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
        RandomOracle {
            rng: SmallRng::seed_from_u64(seed),
        }
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
    fn undef(&mut self, _: usize, _: NodeId, _: Site) -> BigInt {
        self.draw()
    }
    fn array_cell(&mut self, _: usize, _: ArrayId, _: i64) -> BigInt {
        self.draw()
    }
    /// Loops run one iteration at a time.
    fn count(&mut self, _: usize, _: NodeId, _: Site, _: Option<&CountRange>) -> BigInt {
        BigInt::zero()
    }
}

/// Limits of one run.
#[derive(Clone, Copy, Debug)]
pub struct Limits {
    /// Maximum number of CFG nodes executed.
    pub max_steps: usize,
    /// Maximum call depth.
    pub max_depth: usize,
    /// Stop (as at the step limit) once this instant has passed; polled every few
    /// thousand steps.
    pub until: Option<std::time::Instant>,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            max_steps: 1_000_000,
            max_depth: 10_000,
            until: None,
        }
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
    /// A signed arithmetic result was out of its type's range, which C leaves undefined
    /// ([`Expr::Overflow`]): the execution has no meaning from there on, so it is not
    /// considered either.
    Undefined {
        /// The node whose expression overflowed.
        at: NodeId,
    },
    /// An array was accessed outside its bounds, which C leaves undefined (a failed
    /// bounds guard, [`Cfg::bounds_guards`], under `--array-bounds undefined`): the run
    /// is not considered either.
    OutOfBounds {
        /// The guard of the access.
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
    /// Per node of `path` up to the recording's `changes_head`, the variables and array
    /// cells it set, with their new values (when recording was asked for); see
    /// [`Run::changes_at`] for the others.
    pub changes: Vec<Vec<(String, BigInt)>>,
    /// The changes of the steps from the recording's `changes_tail` on.
    tail_changes: Vec<Vec<(String, BigInt)>>,
    /// The step of `tail_changes`' first entry.
    tail_from: usize,
    /// The first step at which a signed arithmetic operation overflowed and wrapped (under
    /// `--signed-overflow wrap`, as gcc -fwrapv; C leaves it undefined), if any.
    pub overflow: Option<usize>,
    /// The first step that accessed an array outside its bounds (under `--array-bounds
    /// nondet`, where a read there is arbitrary and a write does nothing; C leaves it
    /// undefined), if any.
    pub out_of_bounds: Option<usize>,
}

impl Run {
    /// The variables and array cells step `k` set, if the recording kept them.
    pub fn changes_at(&self, k: usize) -> Option<&[(String, BigInt)]> {
        if k < self.changes.len() {
            return Some(&self.changes[k]);
        }
        let t = k.checked_sub(self.tail_from)?;
        self.tail_changes.get(t).map(Vec::as_slice)
    }
}

/// Contents of one array instance: explicit cells over a base (zeros, or arbitrary cells
/// drawn lazily from the oracle, named by the step that made them arbitrary).
#[derive(Clone, Debug)]
struct ArrayVal {
    size: i64,
    cells: Cells,
    havoc_step: Option<usize>,
}

/// The cells set so far: a vector for arrays up to [`DENSE_CELLS`] cells (one index per
/// access, no search; it grows to the highest cell set, so an instance costs what its
/// run touches), a map above (an array of 10⁹ cells is mostly never touched).
#[derive(Clone, Debug)]
enum Cells {
    Dense(Vec<Option<Val>>),
    Sparse(BTreeMap<i64, Val>),
}

/// The largest array whose cells are held in a vector.
const DENSE_CELLS: i64 = 1 << 24;

impl Cells {
    fn new(size: i64) -> Cells {
        if size <= DENSE_CELLS {
            Cells::Dense(Vec::new())
        } else {
            Cells::Sparse(BTreeMap::new())
        }
    }
    /// Cell `i` (`0 ≤ i < size`), if set.
    fn get(&self, i: i64) -> Option<&Val> {
        match self {
            Cells::Dense(v) => v.get(i as usize)?.as_ref(),
            Cells::Sparse(m) => m.get(&i),
        }
    }
    fn insert(&mut self, i: i64, x: Val) {
        match self {
            Cells::Dense(v) => {
                let i = i as usize;
                if i >= v.len() {
                    v.resize(i + 1, None);
                }
                v[i] = Some(x);
            }
            Cells::Sparse(m) => {
                m.insert(i, x);
            }
        }
    }
}

/// Where each variable lives: its slot among the globals or in its procedure's frame, and
/// each procedure's frame size. Computed once per run, so that a variable's value is one
/// index away.
///
/// A procedure's nodes read and write only its own variables and the globals (a callee's
/// value comes back through the global `$ret`), so a slot always indexes the frame on top
/// of the stack.
struct Layout {
    slot: Vec<u32>,
    frame_len: Vec<usize>,
    globals: usize,
}

impl Layout {
    fn new(cfg: &Cfg) -> Layout {
        let mut frame_len = vec![0usize; cfg.procs.len()];
        let mut globals = 0usize;
        let slot = cfg
            .vars
            .iter()
            .map(|v| {
                let n = match v.kind.proc() {
                    Some(p) => &mut frame_len[p.index()],
                    None => &mut globals,
                };
                *n += 1;
                (*n - 1) as u32
            })
            .collect();
        Layout {
            slot,
            frame_len,
            globals,
        }
    }
}

#[derive(Clone, Debug)]
struct Frame {
    vars: Vec<Option<Val>>,
    arrays: BTreeMap<ArrayId, ArrayVal>,
    ret_point: NodeId,
}

/// The position of an evaluation: step, node, and the next static site numbers.
struct At {
    step: usize,
    node: NodeId,
    undef: u32,
    read: u32,
}

struct Machine<'c, O: Oracle> {
    cfg: &'c Cfg,
    oracle: &'c mut O,
    layout: Layout,
    globals: Vec<Option<Val>>,
    garrays: BTreeMap<ArrayId, ArrayVal>,
    stack: Vec<Frame>,
    /// The first step whose signed arithmetic overflowed (wrapped).
    overflow: Option<usize>,
    /// The first step that accessed an array outside its bounds.
    out_of_bounds: Option<usize>,
    /// Whether the current step evaluated a signed result out of range
    /// ([`Expr::Overflow`]): the run ends after it.
    undefined: bool,
}

/// Whether `e` is an arithmetic operation (whose signed overflow C leaves undefined).
fn is_arithmetic(e: &Expr) -> bool {
    matches!(
        e,
        Expr::Add(..) | Expr::Sub(..) | Expr::Scale(..) | Expr::Div(..) | Expr::Mod(..)
    )
}

/// What a run records.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Recording {
    /// The path.
    pub path: bool,
    /// The changes of the steps before this one (needs `path`).
    pub changes_head: usize,
    /// The changes of the steps from this one on (needs `path`).
    pub changes_tail: usize,
}

impl Recording {
    /// Nothing.
    pub fn none() -> Recording {
        Recording::default()
    }
    /// The path, no changes.
    pub fn path() -> Recording {
        Recording {
            path: true,
            changes_head: 0,
            changes_tail: usize::MAX,
        }
    }
    /// The path and every step's changes.
    pub fn all() -> Recording {
        Recording {
            path: true,
            changes_head: usize::MAX,
            changes_tail: 0,
        }
    }
}

/// Run `main` from its entry with the given oracle and limits; `record`: the path and
/// every step's changes.
pub fn run<O: Oracle>(cfg: &Cfg, oracle: &mut O, limits: Limits, record: bool) -> Run {
    let r = if record {
        Recording::all()
    } else {
        Recording::none()
    };
    run_with(cfg, oracle, limits, r)
}

/// Run `main` from its entry with the given oracle and limits, recording what `rec` asks.
pub fn run_with<O: Oracle>(cfg: &Cfg, oracle: &mut O, limits: Limits, rec: Recording) -> Run {
    let mut m = Machine::new(cfg, oracle);
    let mut log = RunLog::new(rec);
    let mut node = cfg.procs[cfg.main].entry;
    loop {
        if log.out_of_steps(&limits) {
            return log.finish(Outcome::StepLimit, &m);
        }
        let mut at = At {
            step: log.steps,
            node,
            undef: 0,
            read: 0,
        };
        let changes = log.begin_step(node);
        let flow = m.step(node, &mut at, limits.max_depth, changes);
        if m.undefined {
            return log.finish(Outcome::Undefined { at: node }, &m);
        }
        let next = match flow {
            Flow::Next(next) => next,
            Flow::End(outcome) => return log.finish(outcome, &m),
        };
        if next == ERROR_NODE {
            return log.finish(Outcome::Error { at: node }, &m);
        }
        node = next;
    }
}

/// What a run has recorded so far: the number of steps taken, and the path and the
/// changes that its [`Recording`] asks for.
struct RunLog {
    rec: Recording,
    steps: usize,
    path: Vec<NodeId>,
    /// The changes of the steps before `rec.changes_head`, one list per step.
    changes: Vec<Vec<(String, BigInt)>>,
    /// The changes of the steps from `rec.changes_tail` on, one list per step.
    tail_changes: Vec<Vec<(String, BigInt)>>,
}

/// Where a step records the variables and array cells it sets, when it records them.
type Changes<'a> = Option<&'a mut Vec<(String, BigInt)>>;

impl RunLog {
    fn new(rec: Recording) -> RunLog {
        RunLog {
            rec,
            steps: 0,
            path: Vec::new(),
            changes: Vec::new(),
            tail_changes: Vec::new(),
        }
    }

    /// Whether the run must stop before its next step: the step limit is reached, or the
    /// time limit has passed (polled every 16384 steps).
    fn out_of_steps(&self, limits: &Limits) -> bool {
        let steps = self.steps;
        steps >= limits.max_steps
            || (steps & 0x3fff == 0x3fff
                && limits.until.is_some_and(|u| std::time::Instant::now() >= u))
    }

    /// Count a step at `node`, and record it on the path when asked; returns where the
    /// step's changes go, if they are recorded.
    fn begin_step(&mut self, node: NodeId) -> Changes<'_> {
        let rec = self.rec;
        let k = self.steps;
        self.steps += 1;
        if !rec.path {
            return None;
        }
        self.path.push(node);
        // A list only for the steps whose changes are kept (a run of millions of steps
        // keeping its first and last ones would otherwise hold as many empty lists).
        let list = if k < rec.changes_head {
            &mut self.changes
        } else if k >= rec.changes_tail {
            &mut self.tail_changes
        } else {
            return None;
        };
        list.push(Vec::new());
        list.last_mut()
    }

    /// The run, ended with `outcome`.
    fn finish<O: Oracle>(self, outcome: Outcome, m: &Machine<'_, O>) -> Run {
        Run {
            outcome,
            steps: self.steps,
            path: self.path,
            changes: self.changes,
            tail_changes: self.tail_changes,
            tail_from: self.rec.changes_tail,
            overflow: m.overflow,
            out_of_bounds: m.out_of_bounds,
        }
    }
}

/// What follows a step: the next node, or the end of the run.
enum Flow {
    Next(NodeId),
    End(Outcome),
}

fn unreachable_error() -> ! {
    panic!("internal error: the interpreter never steps from node 0")
}

/// Number of `u` and of array reads in an expression (its static sites).
pub fn count_sites(e: &Expr) -> (u32, u32) {
    let (mut u, mut r) = (0, 0);
    e.visit(&mut |x| match x {
        Expr::Undef => u += 1,
        Expr::Read(..) => r += 1,
        _ => {}
    });
    (u, r)
}

impl<'c, O: Oracle> Machine<'c, O> {
    /// The machine at `main`'s entry: no value set yet, and `main`'s frame on the stack.
    fn new(cfg: &'c Cfg, oracle: &'c mut O) -> Self {
        let layout = Layout::new(cfg);
        let mut m = Machine {
            cfg,
            oracle,
            globals: vec![None; layout.globals],
            garrays: BTreeMap::new(),
            stack: Vec::new(),
            overflow: None,
            out_of_bounds: None,
            undefined: false,
            layout,
        };
        m.stack.push(Frame {
            vars: vec![None; m.layout.frame_len[cfg.main.index()]],
            arrays: BTreeMap::new(),
            ret_point: ERROR_NODE,
        });
        m
    }

    /// Execute `node` (at step `at.step`), recording the values it sets in `changes`.
    fn step(&mut self, node: NodeId, at: &mut At, max_depth: usize, changes: Changes<'_>) -> Flow {
        let cfg = self.cfg;
        let next = match &cfg.nodes[node].kind {
            NodeKind::Error => unreachable_error(),
            NodeKind::Skip { next } => *next,
            NodeKind::Assign { lhs, rhs, next } => {
                self.assign(lhs, rhs, at, changes);
                *next
            }
            NodeKind::ArrayWrite {
                array,
                index,
                value,
                next,
            } => {
                self.write(*array, index, value, at, changes);
                *next
            }
            NodeKind::ArrayInit {
                array,
                values,
                next,
            } => {
                self.init(*array, values.as_deref(), at);
                *next
            }
            NodeKind::Branch { cond, then, els } => {
                if self.eval(cond, at).is_zero() {
                    *els
                } else {
                    *then
                }
            }
            NodeKind::Assume { cond, next } => {
                if self.eval(cond, at).is_zero() {
                    if self.cfg.bounds_guards.contains(&node) {
                        return Flow::End(Outcome::OutOfBounds { at: node });
                    }
                    return Flow::End(Outcome::Blocked { at: node });
                }
                *next
            }
            NodeKind::Call {
                proc,
                args,
                ret_point,
            } => return self.call(*proc, args, *ret_point, at, max_depth, changes),
            NodeKind::Exit => {
                let frame = self.stack.pop().expect("the stack holds main's frame");
                if self.stack.is_empty() {
                    return Flow::End(Outcome::Finished);
                }
                frame.ret_point
            }
            NodeKind::Stop => return Flow::End(Outcome::Finished),
        };
        Flow::Next(next)
    }

    /// The parallel assignment `lhs = rhs`: every value is evaluated before any target
    /// changes.
    fn assign(&mut self, lhs: &[VarId], rhs: &[Expr], at: &mut At, mut changes: Changes<'_>) {
        if let ([v], [e]) = (lhs, rhs) {
            let x = self.eval(e, at);
            if let Some(c) = &mut changes {
                c.push((self.cfg.var_name(*v), x.to_big()));
            }
            self.set(*v, x);
            return;
        }
        let vals: Vec<Val> = rhs.iter().map(|e| self.eval(e, at)).collect();
        for (v, x) in lhs.iter().zip(vals) {
            if let Some(c) = &mut changes {
                c.push((self.cfg.var_name(*v), x.to_big()));
            }
            self.set(*v, x);
        }
    }

    /// `array[index] = value`; out of range it changes nothing.
    fn write(
        &mut self,
        array: ArrayId,
        index: &Expr,
        value: &Expr,
        at: &mut At,
        changes: Changes<'_>,
    ) {
        let cfg = self.cfg;
        let i = self.eval(index, at);
        let x = self.eval(value, at);
        let arr = self.array_mut(array);
        if let Some(i) = i.to_i64().filter(|i| *i >= 0 && *i < arr.size) {
            if let Some(c) = changes {
                c.push((format!("{}[{i}]", cfg.arrays[array].name), x.to_big()));
            }
            arr.cells.insert(i, x);
        } else {
            self.out_of_bounds.get_or_insert(at.step);
        }
    }

    /// A new instance of `array`: the initialiser values (zeros after them), or arbitrary
    /// contents named by the current step when there are none.
    fn init(&mut self, array: ArrayId, values: Option<&[Expr]>, at: &mut At) {
        let size = self.array_size(array);
        let val = match values {
            None => {
                self.oracle.array_init(at.step, array);
                ArrayVal {
                    size,
                    cells: Cells::new(size),
                    havoc_step: Some(at.step),
                }
            }
            Some(vs) => {
                let mut cells = Cells::new(size);
                for (i, e) in vs.iter().enumerate() {
                    let x = self.eval(e, at);
                    if (i as i64) < size {
                        cells.insert(i as i64, x);
                    }
                }
                ArrayVal {
                    size,
                    cells,
                    havoc_step: None,
                }
            }
        };
        self.set_array(array, val);
    }

    /// A call of `proc`: the run stops at the depth limit; else the arguments are bound to
    /// the callee's formals in a new frame, and the run goes on at the callee's entry.
    fn call(
        &mut self,
        proc: ProcId,
        args: &[Expr],
        ret_point: NodeId,
        at: &mut At,
        max_depth: usize,
        changes: Changes<'_>,
    ) -> Flow {
        if self.stack.len() >= max_depth {
            return Flow::End(Outcome::DepthLimit);
        }
        let cfg = self.cfg;
        let vals: Vec<Val> = args.iter().map(|e| self.eval(e, at)).collect();
        let callee = &cfg.procs[proc];
        if let Some(c) = changes {
            for (v, x) in callee.formals.iter().zip(&vals) {
                c.push((cfg.var_name(*v), x.to_big()));
            }
        }
        let mut vars = vec![None; self.layout.frame_len[proc.index()]];
        for (v, x) in callee.formals.iter().zip(vals) {
            vars[self.layout.slot[v.index()] as usize] = Some(x);
        }
        self.stack.push(Frame {
            vars,
            arrays: BTreeMap::new(),
            ret_point,
        });
        Flow::Next(callee.entry)
    }

    fn frame(&mut self) -> &mut Frame {
        self.stack.last_mut().expect("the stack holds main's frame")
    }

    fn is_global(&self, v: VarId) -> bool {
        self.cfg.vars[v].kind.proc().is_none()
    }

    fn get(&mut self, v: VarId, at: &At) -> Val {
        if let Some(x) = self.value(v) {
            return x.clone();
        }
        // Read before any assignment: arbitrary (in the range of a C variable's type),
        // and stable once read.
        let x = self.oracle.undef(at.step, at.node, Site::Uninit(v));
        let x = Val::big(match self.cfg.vars[v].range {
            r @ Range::Int(_) => r.normalize(x),
            _ => x,
        });
        self.set(v, x.clone());
        x
    }

    /// The value of `v` if it has one (no oracle query).
    fn value(&self, v: VarId) -> Option<&Val> {
        let slot = self.layout.slot[v.index()] as usize;
        if self.is_global(v) {
            self.globals[slot].as_ref()
        } else {
            self.stack.last()?.vars.get(slot)?.as_ref()
        }
    }

    fn set(&mut self, v: VarId, x: Val) {
        let slot = self.layout.slot[v.index()] as usize;
        if self.is_global(v) {
            self.globals[slot] = Some(x);
        } else if let Some(c) = self.frame().vars.get_mut(slot) {
            *c = Some(x);
        }
    }

    fn array_size(&mut self, a: ArrayId) -> i64 {
        match &self.cfg.arrays[a].size {
            ArraySize::Const(n) => *n as i64,
            ArraySize::Dynamic(v) => {
                let v = *v;
                let x = self.value(v).and_then(Val::to_i64);
                x.unwrap_or(0).max(0)
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
        let map = if global {
            &mut self.garrays
        } else {
            &mut self.stack.last_mut().expect("main's frame").arrays
        };
        // Every array is initialised by an `ArrayInit` node before use; this fallback
        // (arbitrary contents from step 0) only keeps the interpreter total.
        map.entry(a).or_insert_with(|| ArrayVal {
            size,
            cells: Cells::new(size),
            havoc_step: Some(0),
        })
    }

    fn read(&mut self, a: ArrayId, i: &Val, k: u32, at: &At) -> Val {
        // Arbitrary contents and out-of-range reads of a C array lie in its element
        // type's range.
        let range = self.cfg.arrays[a].range;
        let arr = self.array_mut(a);
        let arbitrary = |x: BigInt| {
            Val::big(match range {
                Range::Int(_) => range.normalize(x),
                _ => x,
            })
        };
        let Some(i) = i.to_i64().filter(|i| *i >= 0 && *i < arr.size) else {
            self.out_of_bounds.get_or_insert(at.step);
            return arbitrary(self.oracle.undef(at.step, at.node, Site::OutOfRange(k)));
        };
        if let Some(x) = arr.cells.get(i) {
            return x.clone();
        }
        let x = match arr.havoc_step {
            Some(s) => arbitrary(self.oracle.array_cell(s, a, i)),
            None => Val::Small(0),
        };
        self.array_mut(a).cells.insert(i, x.clone());
        x
    }

    /// Skip the sites of an unevaluated sub-expression.
    fn skip(e: &Expr, at: &mut At) {
        let (u, r) = count_sites(e);
        at.undef += u;
        at.read += r;
    }

    fn eval(&mut self, e: &Expr, at: &mut At) -> Val {
        let b = Val::bool;
        match e {
            Expr::Const(n) => Val::of(n),
            Expr::Var(v) => self.get(*v, at),
            Expr::Undef => {
                let k = at.undef;
                at.undef += 1;
                if let Some(a) = self.cfg.accel.get(&at.node) {
                    // An accelerated loop's count: the oracle learns which ones its guard
                    // allows here.
                    let small = |v| self.value(v)?.to_i64();
                    let range = crate::accel::count_range_small(a, &small).unwrap_or_else(|| {
                        crate::accel::count_range(a, &|v| self.value(v).map(Val::to_big))
                    });
                    return Val::big(self.oracle.count(
                        at.step,
                        at.node,
                        Site::Undef(k),
                        range.as_ref(),
                    ));
                }
                Val::big(self.oracle.undef(at.step, at.node, Site::Undef(k)))
            }
            Expr::Read(a, i) => {
                let k = at.read;
                at.read += 1;
                let i = self.eval(i, at);
                self.read(*a, &i, k, at)
            }
            Expr::Add(x, y) => {
                let l = self.eval(x, at);
                l.add(&self.eval(y, at))
            }
            Expr::Sub(x, y) => {
                let l = self.eval(x, at);
                l.sub(&self.eval(y, at))
            }
            Expr::Scale(c, x) => self.eval(x, at).scale(c),
            Expr::Div(x, c) => self.eval(x, at).div(c),
            Expr::Mod(x, c) => self.eval(x, at).rem(c),
            Expr::Wrap(w, x) => {
                let v = self.eval(x, at);
                // A signed wrap right over arithmetic is C's signed overflow (undefined
                // behaviour; over a conversion it is implementation-defined).
                if w.signed && self.overflow.is_none() && is_arithmetic(x) && !v.fits(*w) {
                    self.overflow = Some(at.step);
                }
                v.wrap(*w)
            }
            Expr::Cmp(op, x, y) => {
                let l = self.eval(x, at);
                let r = self.eval(y, at);
                b(l.holds(*op, &r))
            }
            Expr::Not(x) => b(self.eval(x, at).is_zero()),
            Expr::And(x, y) => {
                if self.eval(x, at).is_zero() {
                    Self::skip(y, at);
                    b(false)
                } else {
                    b(!self.eval(y, at).is_zero())
                }
            }
            Expr::Or(x, y) => {
                if !self.eval(x, at).is_zero() {
                    Self::skip(y, at);
                    b(true)
                } else {
                    b(!self.eval(y, at).is_zero())
                }
            }
            Expr::Cond(c, x, y) => {
                if self.eval(c, at).is_zero() {
                    Self::skip(x, at);
                    self.eval(y, at)
                } else {
                    let v = self.eval(x, at);
                    Self::skip(y, at);
                    v
                }
            }
            Expr::Overflow(w, x) => {
                let v = self.eval(x, at);
                // Out of range, the run ends after this step (undefined behaviour); the
                // value itself is never used then.
                self.undefined |= !v.fits(*w);
                v
            }
            Expr::Call(..) | Expr::Nondet(..) => {
                panic!("internal error: CFG expressions have no calls or nondet values")
            }
        }
    }
}

#[cfg(test)]
mod accel_tests;
#[cfg(test)]
mod simplify_tests;
