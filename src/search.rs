//! Concrete search (`lpmc check --engine search`, and one engine of the portfolio):
//! random testing over the interpreter, guided by the program's own constants.
//!
//! Uniformly random inputs rarely hit a bug that needs one specific value (`i == 7`, a
//! constant of the program, an array bound). The oracle here draws from a dictionary of
//! the program's constants, their neighbours (c−1, c, c+1), their negations, the array
//! sizes and 0, mixed with small values first and wider ones later, over several seeds.
//! Values asked for a variable of a bounded type (a C integer, `_Bool`, an unsigned
//! nondet) are fitted to its range, so runs are rarely blocked by the range assumptions.
//!
//! Runs are bounded in steps (a bound that grows) and by the deadline (polled between
//! runs). A run that reaches an error location is run once more with a recording oracle
//! ([`crate::trace::witness_of_run`]); its trace and witness are replayed before they are
//! returned, so a find is always a real execution. The search never proves SAFE.

use crate::accel::CountRange;
use crate::cfg::{Cfg, NodeKind};
use crate::ids::{ArrayId, NodeId};
use crate::interp::{self, Limits, Oracle, Outcome, Site};
use crate::limits::Deadline;
use crate::sema::{ArraySize, Expr, Range};
use crate::trace::{self, Trace, Witness};
use num_bigint::BigInt;
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};
use std::collections::BTreeSet;
use std::time::{Duration, Instant};

/// The settings of a search.
#[derive(Clone, Debug)]
pub struct SearchOptions {
    /// Steps of the first runs; the bound doubles after each run that reaches it, up
    /// to [`SearchOptions::max_steps`].
    pub first_steps: usize,
    /// The largest step bound of a run.
    pub max_steps: usize,
    /// Stop after this many runs (`None`: until the deadline).
    pub max_runs: Option<u64>,
    /// The first seed.
    pub seed: u64,
    /// After this much time, the search sleeps as long as each run took and lowers its
    /// thread's priority (it yields to the engines that can prove SAFE). `None`: never.
    pub share_after: Option<Duration>,
}

impl Default for SearchOptions {
    fn default() -> Self {
        SearchOptions {
            first_steps: 2_000_000,
            max_steps: 100_000_000,
            max_runs: None,
            seed: 0,
            share_after: None,
        }
    }
}

/// How a search ended.
#[derive(Clone, Debug)]
pub enum SearchResult {
    /// A run reached an error location; the trace replays with the witness.
    Found {
        /// The executed path.
        trace: Trace,
        /// Its inputs.
        witness: Witness,
    },
    /// No run reached an error location.
    NotFound {
        /// Runs made.
        runs: u64,
        /// Whether the deadline stopped the search (else the run budget did).
        deadline: bool,
    },
}

/// The values the oracle prefers: the program's constants and their neighbours, array
/// sizes, and 0, ±1; sorted by magnitude (small first).
pub fn dictionary(cfg: &Cfg) -> Vec<BigInt> {
    let mut consts: BTreeSet<BigInt> = BTreeSet::new();
    for n in cfg.nodes.iter() {
        for e in n.kind.exprs() {
            e.visit(&mut |x| {
                if let Expr::Const(c) = x {
                    consts.insert(c.clone());
                }
            });
        }
    }
    for a in cfg.arrays.iter() {
        if let ArraySize::Const(n) = a.size {
            consts.insert(BigInt::from(n));
        }
    }
    let mut out: BTreeSet<BigInt> = BTreeSet::new();
    for c in [0i64, 1, -1, 2] {
        out.insert(BigInt::from(c));
    }
    for c in consts {
        for d in [-1i64, 0, 1] {
            out.insert(&c + d);
            out.insert(-&c + d);
        }
    }
    let mut v: Vec<BigInt> = out.into_iter().collect();
    v.sort_by_key(|x| x.magnitude().clone());
    v
}

/// An oracle drawing from the dictionary and from ranges that widen with `round`.
#[derive(Clone, Debug)]
struct GuidedOracle<'a> {
    cfg: &'a Cfg,
    dict: &'a [BigInt],
    rng: SmallRng,
    /// Largest magnitude of the "small" draws.
    small: i64,
    /// Probability of a dictionary value.
    p_dict: f64,
}

impl GuidedOracle<'_> {
    fn draw(&mut self) -> BigInt {
        let r: f64 = self.rng.gen();
        if r < self.p_dict && !self.dict.is_empty() {
            // Small dictionary entries (the first ones) more often.
            let n = self.dict.len();
            let k = self.rng.gen_range(0..n);
            let k = if self.rng.gen_bool(0.5) { k / 2 } else { k };
            return self.dict[k].clone();
        }
        if r < self.p_dict + (1.0 - self.p_dict) * 0.8 {
            return BigInt::from(self.rng.gen_range(-self.small..=self.small));
        }
        BigInt::from(self.rng.gen_range(-1_000_000i64..=1_000_000))
    }

    /// The range a value at this site is assumed to lie in: the target of a havoc
    /// `t = u` (a ranged nondet value, an uninitialised C variable).
    fn range_at(&self, node: NodeId, site: Site) -> Range {
        match site {
            Site::Uninit(v) => self.cfg.vars[v].range,
            Site::Undef(0) => match self.cfg.nodes.get(node).map(|n| &n.kind) {
                Some(NodeKind::Assign { lhs, rhs, .. })
                    if lhs.len() == 1 && rhs.first() == Some(&Expr::Undef) =>
                {
                    self.cfg.vars[lhs[0]].range
                }
                _ => Range::Any,
            },
            _ => Range::Any,
        }
    }
}

/// `v` fitted into `r`: wrapped for C integers, its magnitude for non-negative ranges.
fn fit(r: Range, v: BigInt) -> BigInt {
    match r {
        Range::NonNegative => v.magnitude().clone().into(),
        r => r.normalize(v),
    }
}

impl Oracle for GuidedOracle<'_> {
    fn undef(&mut self, _: usize, node: NodeId, site: Site) -> BigInt {
        let v = self.draw();
        fit(self.range_at(node, site), v)
    }
    /// An accelerated loop's count: mostly the greatest its guard allows (the loop runs
    /// up to its next phase, its exit or the iteration before an error), sometimes the
    /// least or one in between, sometimes none (the original body).
    fn count(&mut self, _: usize, _: NodeId, _: Site, range: Option<&CountRange>) -> BigInt {
        let Some(r) = range else {
            return BigInt::from(0);
        };
        let x: f64 = self.rng.gen();
        if x < 0.1 {
            return BigInt::from(0);
        }
        match &r.hi {
            Some(hi) if x < 0.65 => hi.clone(),
            _ if x < 0.8 => r.lo.clone(),
            Some(hi) => {
                let span = hi - &r.lo;
                let k = BigInt::from(self.draw().magnitude().clone());
                &r.lo + k % (span + 1)
            }
            None => &r.lo + BigInt::from(self.draw().magnitude().clone()),
        }
    }
    fn array_cell(&mut self, _: usize, array: ArrayId, _: i64) -> BigInt {
        let v = self.draw();
        fit(self.cfg.arrays[array].range, v)
    }
}

/// The run that answers every query with 0 (after two guided ones: most bugs need
/// values, and a long program pays for each run).
const ZERO_RUN: u64 = 2;

/// How much the search lowers its priority once it yields ([`SearchOptions::share_after`]).
const YIELD_NICE: i32 = 10;

/// Runs up to this many steps record their path and oracle answers as they go (a find
/// needs no second run); longer ones run bare and, if they find, run again recording.
const RECORD_UP_TO: usize = 8_000_000;

/// One run with `oracle`; on a find, its trace and witness (not replayed yet).
fn one_run<O: Oracle + Clone>(
    cfg: &Cfg,
    oracle: O,
    limits: Limits,
) -> (Outcome, Option<(Trace, Witness)>) {
    if limits.max_steps <= RECORD_UP_TO {
        return trace::recorded_run(cfg, &mut oracle.clone(), limits);
    }
    let r = interp::run(cfg, &mut oracle.clone(), limits, false);
    if !matches!(r.outcome, Outcome::Error { .. }) {
        return (r.outcome, None);
    }
    // The finding run again, to the same step bound whatever the clock says.
    let again = Limits {
        until: None,
        ..limits
    };
    trace::recorded_run(cfg, &mut oracle.clone(), again)
}

/// Search for an execution that reaches an error location until the deadline (or the run
/// budget) ends it. Run [`ZERO_RUN`] answers every query with 0; the others use the
/// guided oracle with seed `opts.seed + run`.
pub fn search_within(cfg: &Cfg, opts: &SearchOptions, deadline: &Deadline) -> SearchResult {
    let dict = dictionary(cfg);
    let start = Instant::now();
    let mut yielding = false;
    let mut runs = 0u64;
    let mut steps = opts.first_steps.max(1);
    loop {
        if deadline.expired() {
            return SearchResult::NotFound {
                runs,
                deadline: true,
            };
        }
        if opts.max_runs.is_some_and(|m| runs >= m) {
            return SearchResult::NotFound {
                runs,
                deadline: false,
            };
        }
        let limits = Limits {
            max_steps: steps,
            until: deadline.instant(),
            ..Limits::default()
        };
        let run_start = Instant::now();
        let (outcome, found) = if runs == ZERO_RUN {
            one_run(cfg, interp::ListOracle::new(Vec::new()), limits)
        } else {
            let oracle = GuidedOracle {
                cfg,
                dict: &dict,
                rng: SmallRng::seed_from_u64(opts.seed.wrapping_add(runs)),
                // Small values first: ±2 at first, up to ±1000.
                small: (2 + (runs as i64) / 4).min(1000),
                p_dict: if runs % 2 == 0 { 0.6 } else { 0.3 },
            };
            one_run(cfg, oracle, limits)
        };
        let hit_limit = outcome == Outcome::StepLimit;
        runs += 1;
        // A run cut short by the step bound: the next runs may go twice as far.
        if hit_limit {
            steps = steps.saturating_mul(2).min(opts.max_steps.max(1));
        }
        if let Some((trace, witness)) = found {
            return SearchResult::Found { trace, witness };
        }
        if opts.share_after.is_some_and(|d| start.elapsed() >= d) {
            if !yielding {
                // From now on the provers go first.
                yielding = true;
                crate::limits::lower_thread_priority(YIELD_NICE);
            }
            let took = run_start.elapsed();
            let nap = took.min(deadline.remaining().unwrap_or(took));
            std::thread::sleep(nap);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::diag::SourceFile;
    use crate::frontend::load;

    fn cfg(src: &str) -> Cfg {
        load(SourceFile::new("t.lp", src)).unwrap().cfg
    }

    #[test]
    fn the_dictionary_has_the_constants_and_their_neighbours() {
        let c = cfg("void main() { int x, a[5]; x = u; if (x == 77) { ERROR: ; } }");
        let d = dictionary(&c);
        for v in [0, 1, -1, 76, 77, 78, -77, 5, 4, 6] {
            assert!(d.contains(&BigInt::from(v)), "{v} missing from {d:?}");
        }
        // Small first.
        assert_eq!(d[0], BigInt::from(0));
    }

    #[test]
    fn a_bug_behind_a_program_constant_is_found_and_replays() {
        let c = cfg(
            "void main() { int x, y; x = u; y = u; if (x == 12345) { if (y == -999) { ERROR: ; } } }",
        );
        let r = search_within(
            &c,
            &SearchOptions {
                max_runs: Some(20_000),
                ..SearchOptions::default()
            },
            &Deadline::none(),
        );
        match r {
            SearchResult::Found { trace, witness, .. } => {
                trace::replay(&c, &trace, &witness).unwrap();
                let vals: Vec<String> =
                    witness.inputs.iter().map(|i| i.value.to_string()).collect();
                // (Declared locals are inputs too when read before assignment; the two
                // `u`s come last.)
                assert!(
                    vals.ends_with(&["12345".to_string(), "-999".to_string()]),
                    "{vals:?}"
                );
            }
            other => panic!("not found: {other:?}"),
        }
    }

    #[test]
    fn a_deep_bug_after_many_iterations_is_found() {
        let c = cfg(
            "void main() { int i, n; n = u; i = 0; while (i < 100000) { i = i + 1; } if (n == i) { ERROR: ; } }",
        );
        let r = search_within(
            &c,
            &SearchOptions {
                max_runs: Some(5_000),
                ..SearchOptions::default()
            },
            &Deadline::none(),
        );
        assert!(matches!(r, SearchResult::Found { .. }), "{r:?}");
    }

    #[test]
    fn a_safe_program_is_never_found_unsafe() {
        let c = cfg("void main() { int x; x = u; if (x * 2 == 7) { ERROR: ; } }");
        let r = search_within(
            &c,
            &SearchOptions {
                max_runs: Some(300),
                ..SearchOptions::default()
            },
            &Deadline::none(),
        );
        assert!(
            matches!(
                r,
                SearchResult::NotFound {
                    runs: 300,
                    deadline: false
                }
            ),
            "{r:?}"
        );
    }

    #[test]
    fn the_deadline_stops_the_search() {
        let c = cfg("void main() { int x; x = u; if (x * 2 == 7) { ERROR: ; } }");
        let r = search_within(
            &c,
            &SearchOptions::default(),
            &Deadline::after(Duration::from_millis(100)),
        );
        assert!(
            matches!(r, SearchResult::NotFound { deadline: true, .. }),
            "{r:?}"
        );
    }
}
